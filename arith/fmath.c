/* fmath.c - host floating point shared by the SM model and the PTX oracle: the MUFU .approx
 * functions. (Directed rounding is arith/softfp.c's; docs/design-notes.md says why.)
 *
 * MUFU (PTX .approx): results are the correctly rounded float of the double-precision host
 * function (1/x, 1/sqrt(x), sin, cos, exp2, log2, sqrt, tanh), with PTX's special cases:
 * subnormal inputs and results flushed when .FTZ, NaN in -> canonical NaN out. The oracle
 * calls these same functions so approximate results agree bit for bit. */
#include <math.h>
#include <string.h>
#include "arith/arith.h"

static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static uint32_t finish(double d, int ftz)
{
	uint32_t u;

	if (isnan(d))
		return AR_F32_NAN;
	u = f2u((float)d);
	return ftz ? ar_f32_ftz(u) : u;
}

/* the double-precision host function of MUFU sub-op fn, with PTX's special cases: rsqrt(+-0)
 * = +-inf, lg2(+-0) = -inf (tanh(+-0) = +-0 and tanh(+-inf) = +-1 as the host gives them);
 * NaN for a sub-op MUFU does not have (the loader rejects those) */
static double mufu(Sub fn, double x)
{
	switch ((int)fn) {
	case SUB_RCP: return 1.0 / x;
	case SUB_RSQ: return x == 0 ? copysign(INFINITY, x) : 1.0 / sqrt(x);
	case SUB_SQRT: return sqrt(x);
	case SUB_SIN: return sin(x);
	case SUB_COS: return cos(x);
	case SUB_EX2: return exp2(x);
	case SUB_LG2: return x == 0 ? -INFINITY : log2(x);
	case SUB_TANH: return tanh(x);
	default: return NAN;
	}
}

uint32_t ar_mufu_f32(Sub fn, uint32_t a, int ftz)
{
	if (ftz)
		a = ar_f32_ftz(a);
	return finish(mufu(fn, (double)u2f(a)), ftz);
}

/* .F64 MUFU (rcp.approx.ftz.f64, rsqrt.approx.f64): correctly rounded double results */
uint64_t ar_mufu_f64(Sub fn, uint64_t a)
{
	double r = mufu(fn, u2d(a));

	return isnan(r) ? AR_F64_NAN : d2u(r);
}

/* Kepler's MUFU.RCP64H / MUFU.RSQ64H: the high word of 1/x (1/sqrt(x)) for the double x whose
 * high word is hi and low word 0, the seed of ptxas's double division and square root */
uint32_t ar_mufu64h(Sub fn, uint32_t hi)
{
	double r = mufu(fn == SUB_RSQ64H ? SUB_RSQ : SUB_RCP, u2d((uint64_t)hi << 32));

	return (uint32_t)((isnan(r) ? AR_F64_NAN : d2u(r)) >> 32);
}

/* Kepler's FCHK.DIVIDE: 1 when a / b may need the slow path of ptxas's single-precision
 * division, whose fast path is a reciprocal and Newton steps: an operand that is zero,
 * denormal, infinite or NaN, or a magnitude outside [2^-63, 2^64), where the quotient or the
 * residuals could leave the normal range. Conservative: a quotient it sends to the slow path
 * is still correctly rounded there, only later. */
int ar_fchk_divide(uint32_t a, uint32_t b)
{
	unsigned ea = a >> 23 & 0xff, eb = b >> 23 & 0xff;

	return ea < 64 || ea > 190 || eb < 64 || eb > 190;
}

uint32_t ar_rcp_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_RCP, a, ftz); }
uint32_t ar_rsqrt_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_RSQ, a, ftz); }
uint32_t ar_sin_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_SIN, a, ftz); }
uint32_t ar_cos_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_COS, a, ftz); }
uint32_t ar_ex2_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_EX2, a, ftz); }
uint32_t ar_lg2_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_LG2, a, ftz); }
uint32_t ar_sqrt_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_SQRT, a, ftz); }
uint32_t ar_tanh_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_TANH, a, ftz); }
