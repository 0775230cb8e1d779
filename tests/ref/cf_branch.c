/* cf_branch.c - C reference of tests/ptx/cf_branch.ptx: with y = tid & 3 and
 * f = y ? (float)tid / y : 0 (div.rn.f32), out[tid] = (tid < 16 ? tid + 1 - 1 : (tid + 2) * 3)
 * + (int)f truncated (cvt.rzi). */
static void ref_cf_branch(RefArgs *a)
{
	int32_t *out = a->p[0];
	uint32_t nt = a->grid[0] * a->block[0];

	for (uint32_t t = 0; t < nt; t++) {
		uint32_t y = t & 3;
		float f = y ? (float)t / (float)y : 0.0f;
		int32_t r = t < 16 ? (int32_t)t : (int32_t)(t + 2) * 3;

		out[t] = r + (int32_t)f;
	}
}
