/* ftz_sm13.c - C reference of tests/ptx/ftz_sm13.ptx (.version 1.4, .target sm_13): every
 * single-precision instruction flushes its subnormal inputs and results to zero of their sign
 * (ftz below), computed on the host in IEEE single precision with gradual underflow; cvt keeps
 * PTX ISA 1.4's rule (no flush into a 64-bit integer nor to or from .f64) and .f64 arithmetic
 * keeps its subnormals. */
#include <math.h>
#include <string.h>

static float ftz_f(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }
static float ftz_bits(uint32_t u) { float x; memcpy(&x, &u, 4); return ftz_f(x); }
static uint32_t fbits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }

/* PTX min/max of numbers: -0 is less than +0 */
static float ftz_min(float a, float b)
{
	if (a == b)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static float ftz_max(float a, float b)
{
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

static void ref_ftz_sm13(RefArgs *ra)
{
	static const uint32_t tab[8] = { 0x00000001, 0x007fffff, 0x80000001, 0x80400000,
	                                 0x00800000, 0x3f000000, 0x40000000, 0xbf800000 };
	static const uint64_t tab64[2] = { 0x0000000000000001, 0x000fffffffffffff };
	uint32_t *out = ra->p[0];

	for (uint32_t t = 0; t < 64; t++) {
		uint32_t *o = out + 22 * t;
		float a = ftz_bits(tab[t & 7]), b = ftz_bits(tab[t >> 3]), c = ftz_bits(tab[(t + 3) & 7]);
		float raw;
		double d, e;
		uint64_t u;
		int64_t s64;

		o[0] = fbits(ftz_f(a + b));
		o[1] = fbits(ftz_f(a - b));
		o[2] = fbits(ftz_f(a * b));
		o[3] = fbits(ftz_f(fmaf(a, b, c)));
		o[4] = fbits(ftz_f(ftz_min(a, b)));
		o[5] = fbits(ftz_f(ftz_max(a, b)));
		o[6] = (a < b) | (a == b) << 1 | (a == 0) << 2;
		o[7] = a < b ? 0xffffffffu : 0;
		o[8] = a >= 0 ? 1 : 2;
		o[9] = (uint32_t)(int32_t)ceilf(a);
		o[10] = (uint32_t)(int32_t)floorf(a);
		memcpy(&raw, &tab[t & 7], 4);              /* cvt.rpi.s64.f32: not flushed in 1.4 */
		s64 = (int64_t)ceilf(raw);
		o[11] = (uint32_t)s64;
		o[12] = fbits(fabsf(a));
		o[13] = fbits(-a);
		d = (double)raw;                            /* cvt.f64.f32: not flushed in 1.4 */
		memcpy(&u, &d, 8);
		o[14] = (uint32_t)u;
		o[15] = (uint32_t)(u >> 32);
		o[16] = fbits((float)(d * 0.5));            /* cvt.rn.f32.f64: not flushed in 1.4 */
		o[17] = a == 0;                             /* rcp.approx(+-0) = +-inf */
		o[18] = a == 0;                             /* lg2.approx(+-0) = -inf */
		o[19] = a == 0;                             /* sqrt.approx(+-0) = +-0 */
		memcpy(&d, &tab64[t & 1], 8);
		memcpy(&e, &tab64[(t >> 1) & 1], 8);
		d += e;
		memcpy(&u, &d, 8);
		o[20] = (uint32_t)u;
		o[21] = (uint32_t)(u >> 32);
	}
}
