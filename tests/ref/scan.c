/* scan.c - C reference of tests/cuda/scan.cu: inclusive prefix sum within each block. */
static void ref_scan(RefArgs *a)
{
	const uint32_t *in = a->p[0];
	uint32_t *out = a->p[1];
	uint32_t bs = a->block[0];

	for (uint32_t b = 0; b < a->grid[0]; b++) {
		uint32_t s = 0;
		for (uint32_t t = 0; t < bs; t++)
			out[b * bs + t] = s += in[b * bs + t];
	}
}
