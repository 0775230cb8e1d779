/* switch.c - C reference of tests/cuda/switch.cu (kernel dense_switch): one of 16 cases
 * chosen by the low four bits of in[t]. */
static void ref_switch(RefArgs *a)
{
	const int32_t *in = a->p[0];
	int32_t *out = a->p[1];
	int32_t nt = (int32_t)(a->grid[0] * a->block[0]);

	for (int32_t t = 0; t < nt; t++) {
		int32_t x = in[t];
		uint32_t ux = (uint32_t)x, ut = (uint32_t)t;   /* wrapping products */
		static const int32_t konst = 77;
		int32_t r;

		switch (x & 15) {
		case 0: r = (int32_t)(ux + 17); break;
		case 1: r = (int32_t)(ux * 3); break;
		case 2: r = x ^ 0x5a; break;
		case 3: r = (int32_t)(ux - 99); break;
		case 4: r = (int32_t)(ux << 3); break;
		case 5: r = x >> 1; break;
		case 6: r = (int32_t)(ux * ux); break;
		case 7: r = ~x; break;
		case 8: r = x | 0x100; break;
		case 9: r = x & 0xf0; break;
		case 10: r = (int32_t)(ux + ut); break;
		case 11: r = (int32_t)(ux * ut); break;
		case 12: r = (int32_t)(ut - ux); break;
		case 13: r = konst; break;
		case 14: r = x % 7; break;
		default: r = -1; break;
		}
		out[t] = r;
	}
}
