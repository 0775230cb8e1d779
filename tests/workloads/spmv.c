/* spmv.c - C reference of tests/workloads/spmv.cu: y = A x, row i with i % 7 + 1 nonzeros. */
static void ref_spmv(RefArgs *a)
{
	const uint32_t *col = a->p[0];
	const int32_t *val = a->p[1], *x = a->p[2];
	int32_t *y = a->p[3];
	int rows = (int32_t)a->v[4];

	for (int i = 0; i < rows; i++) {
		int r = i % 7, start = 28 * (i / 7) + r * (r + 1) / 2;
		uint32_t sum = 0;
		for (int e = start; e < start + r + 1; e++)
			sum += (uint32_t)val[e] * (uint32_t)x[col[e]];
		y[i] = (int32_t)sum;
	}
}
