/* cf_ret_exit.c - C reference of tests/ptx/cf_ret_exit.ptx: every thread first stores 7;
 * threads >= 48 and those with tid % 5 == 0 exit before the second store, which writes
 * clamp40(2 * tid) = min(2 * tid, 40). */
static void ref_cf_ret_exit(RefArgs *a)
{
	uint32_t *out = a->p[0];
	uint32_t nt = a->grid[0] * a->block[0];

	for (uint32_t t = 0; t < nt; t++)
		out[t] = t >= 48 || t % 5 == 0 ? 7 : 2 * t > 40 ? 40 : 2 * t;
}
