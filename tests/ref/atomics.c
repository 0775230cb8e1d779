/* atomics.c - C reference of tests/cuda/atomics.cu: every integer atomic folded over all
 * threads in thread order (the results of these ops do not depend on the order). */
static void ref_atomics(RefArgs *a)
{
	int32_t *s = a->p[0];
	uint64_t *w = a->p[1];
	const int32_t *in = a->p[2];
	uint32_t nt = a->grid[0] * a->block[0];

	for (uint32_t t = 0; t < nt; t++) {
		int32_t v = in[t];
		uint32_t bit = 1u << (t & 31), inc = (uint32_t)s[7];
		uint64_t wide = (uint64_t)(int64_t)v;   /* (unsigned long long)int sign-extends */

		s[0] = (int32_t)((uint32_t)s[0] + (uint32_t)v);
		s[1] = (int32_t)((uint32_t)s[1] - (uint32_t)v);
		s[2] = v < s[2] ? v : s[2];
		s[3] = v > s[3] ? v : s[3];
		s[4] = (int32_t)((uint32_t)s[4] & ~bit);
		s[5] = (int32_t)((uint32_t)s[5] | bit);
		s[6] ^= v;
		s[7] = (int32_t)(inc >= 1000000u ? 0 : inc + 1);   /* atomicInc: old >= limit ? 0 : old + 1 */
		if (s[8 + (t & 7)] == 0)
			s[8 + (t & 7)] = 1;
		w[0] += wide << 20;
		if (wide * 0x100000001ull > w[1])
			w[1] = wide * 0x100000001ull;
	}
}
