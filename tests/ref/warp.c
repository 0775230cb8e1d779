/* warp.c - C reference of tests/cuda/warp.cu: each warp of 32 lanes written out lane by lane
 * from the definitions of the full-mask warp intrinsics:
 *   __shfl_down_sync(v, d): lane i reads lane i + d, or its own v when i + d > 31;
 *   __shfl_up_sync(v, d):   lane i reads lane i - d, or its own v when i < d;
 *   __shfl_xor_sync(v, m):  lane i reads lane i ^ m;   __shfl_sync(v, s): lane s & 31;
 *   __ballot_sync(p): bit i set when lane i's p is non-zero; __any/__all: 1 or 0;
 *   __match_any_sync(v): the lanes whose v equals lane i's. */
static void ref_warp(RefArgs *a)
{
	const int32_t *in = a->p[0];
	int32_t *out = a->p[1];
	uint32_t nt = a->grid[0] * a->block[0];

	for (uint32_t w0 = 0; w0 + 32 <= nt; w0 += 32) {
		const int32_t *v = in + w0;
		uint32_t s[32], ns[32], ballot = 0;
		int any = 0, all = 1;

		for (int i = 0; i < 32; i++) {
			s[i] = (uint32_t)v[i];
			ballot |= (uint32_t)(v[i] & 1 ? 1 : 0) << i;
			any |= v[i] > 90;
			all &= v[i] >= 0;
		}
		for (int off = 16; off > 0; off >>= 1) {
			for (int i = 0; i < 32; i++)
				ns[i] = s[i] + (i + off < 32 ? s[i + off] : s[i]);
			for (int i = 0; i < 32; i++)
				s[i] = ns[i];
		}
		for (int i = 0; i < 32; i++) {
			int32_t *o = out + 4 * (w0 + (uint32_t)i);
			uint32_t up = (uint32_t)(i >= 1 ? v[i - 1] : v[i]), x = (uint32_t)v[i ^ 3];
			uint32_t b = (uint32_t)v[(i * 7) & 31], m = 0;

			for (int j = 0; j < 32; j++)
				m |= (uint32_t)((v[j] & 3) == (v[i] & 3)) << j;
			o[0] = (int32_t)s[0];
			o[1] = (int32_t)(up + x + b);
			o[2] = (int32_t)(ballot ^ (uint32_t)(any << 1) ^ (uint32_t)all);
			o[3] = (int32_t)m;
		}
	}
}
