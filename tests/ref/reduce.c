/* reduce.c - C reference of tests/cuda/reduce.cu: one partial sum per block (int wrap). */
static void ref_reduce(RefArgs *a)
{
	const int32_t *in = a->p[0];
	int32_t *out = a->p[1];
	int n = (int32_t)a->v[2], bs = (int)a->block[0];

	for (uint32_t b = 0; b < a->grid[0]; b++) {
		uint32_t s = 0;
		for (int t = 0; t < bs; t++) {
			int i = (int)b * bs + t;
			s += i < n ? (uint32_t)in[i] : 0;
		}
		out[b] = (int32_t)s;
	}
}
