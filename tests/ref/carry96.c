/* carry96.c - C reference of tests/cuda/carry96.cu and tests/ptx/carry96_hand.ptx: the
 * 96-bit value X = x0 + x1*2^32 + x2*2^64 folded with 2^64 = 2^32 - 1 (mod p = 2^64 - 2^32 + 1)
 * into V = x0 + (x1 + x2)*2^32 - x2, computed on 64 bits with its top word b in {-1, 0, 1};
 * when b = 1 the 2^64 is folded once more (+ 2^32 - 1, wrapping). x2 is left unchanged. */
static void ref_carry96(RefArgs *a)
{
	uint32_t *x = a->p[0];
	int64_t n = (int32_t)a->v[1];
	uint32_t nt = a->grid[0] * a->block[0];

	for (uint32_t t = 0; t < nt && t < n; t++) {
		uint32_t *w = x + 3 * t;
		uint64_t lo = (uint64_t)w[1] << 32 | w[0], hi2 = (uint64_t)w[2] << 32, s, r;
		int b;

		s = lo + hi2;
		b = s < lo;             /* carry out of bit 63 */
		r = s - w[2];
		b -= s < w[2];          /* borrow */
		if (b == 1)
			r += 0xffffffffu;
		w[0] = (uint32_t)r;
		w[1] = (uint32_t)(r >> 32);
	}
}
#define ref_carry96_hand ref_carry96
