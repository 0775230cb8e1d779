/* histogram.c - C reference of tests/cuda/histogram.cu: 64 bins of the low 6 bits. */
static void ref_histogram(RefArgs *a)
{
	const uint8_t *data = a->p[0];
	uint32_t *bins = a->p[1];
	int n = (int32_t)a->v[2];

	for (int i = 0; i < n; i++)
		bins[data[i] & 63]++;
}
