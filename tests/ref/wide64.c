/* wide64.c - C reference of tests/cuda/wide64.cu: 64-bit integer arithmetic (the high half
 * of the 64x64 product from 32-bit pieces) and double precision. nvcc contracts
 * p * p + q into one fma (its default --fmad=true; the PTX has fma.rn.f64 before sqrt.rn), so
 * the reference does too; fma, sqrt and / are correctly rounded in C as in PTX's .rn forms. */
#include <math.h>

/* the high 64 bits of x * y */
static uint64_t wide64_umulhi(uint64_t x, uint64_t y)
{
	uint64_t xl = x & 0xffffffffu, xh = x >> 32, yl = y & 0xffffffffu, yh = y >> 32;
	uint64_t ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);

	return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static int wide64_popc(uint64_t x)
{
	int c = 0;

	for (; x; x &= x - 1)
		c++;
	return c;
}

static void ref_wide64(RefArgs *a)
{
	const int64_t *ia = a->p[0];
	const double *d = a->p[1];
	int64_t *oi = a->p[2];
	double *od = a->p[3];
	uint32_t nt = a->grid[0] * a->block[0];

	for (uint32_t t = 0; t < nt; t++) {
		int64_t x = ia[t], y = ia[t ^ 1] | 1;
		uint64_t ux = (uint64_t)x;
		/* x >> 7 on a signed value is an arithmetic shift: the sign bit fills the top 7 bits */
		uint64_t sh = ux >> 7 | (x < 0 ? ~(~0ull >> 7) : 0);
		double p = d[t], q = d[t ^ 1] + 1.0;

		oi[3 * t + 0] = (int64_t)((uint64_t)x * (uint64_t)y + sh);
		oi[3 * t + 1] = y == -1 ? (int64_t)(0 - ux) : x / y + x % y;   /* INT64_MIN / -1 wraps */
		oi[3 * t + 2] = (int64_t)(wide64_umulhi(ux, 0x9e3779b97f4a7c15ull) ^ (uint64_t)wide64_popc(ux));
		od[2 * t + 0] = fma(p, q, -1.5) / q;
		od[2 * t + 1] = sqrt(fma(p, p, q)) + (double)(x & 0xffff);
	}
}
