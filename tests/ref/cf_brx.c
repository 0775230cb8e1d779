/* cf_brx.c - C reference of tests/ptx/cf_brx.ptx: threads below 60 jump to the
 * (tid % 3)-th target (10, 20, 30); the others keep 1000; out[tid] = that + tid. */
static void ref_cf_brx(RefArgs *a)
{
	uint32_t *out = a->p[0];
	uint32_t nt = a->grid[0] * a->block[0];
	static const uint32_t target[3] = {10, 20, 30};

	for (uint32_t t = 0; t < nt; t++)
		out[t] = (t < 60 ? target[t % 3] : 1000) + t;
}
