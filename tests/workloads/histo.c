/* histo.c - C reference of tests/workloads/histo.cu (kernel histo): 256 bins of bytes. */
static void ref_histo(RefArgs *a)
{
	const uint8_t *in = a->p[0];
	uint32_t *bins = a->p[1];
	int n = (int32_t)a->v[2];

	for (int i = 0; i < n; i++)
		bins[in[i]]++;
}
