/* coop_reduce.c - C reference of tests/cuda/coop_reduce.cu: the partial sum of each block's
 * grid-stride slice, their total, and total + rank for every thread of the grid (int wrap). */
static void ref_coop_reduce(RefArgs *a)
{
	const int32_t *in = a->p[0];
	int32_t *part = a->p[1], *total = a->p[2], *seen = a->p[3];
	uint32_t n = (uint32_t)a->v[4], bs = a->block[0], nb = a->grid[0], sum = 0;

	for (uint32_t b = 0; b < nb; b++) {
		uint32_t s = 0;
		for (uint32_t i = b * bs; i < n; i += nb * bs)
			for (uint32_t t = 0; t < bs && i + t < n; t++)
				s += (uint32_t)in[i + t];
		part[b] = (int32_t)s;
		sum += s;
	}
	total[0] = (int32_t)sum;
	for (uint32_t r = 0; r < nb * bs; r++)
		seen[r] = (int32_t)(sum + r);
}
