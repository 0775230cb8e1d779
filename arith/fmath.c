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

uint32_t ar_rcp_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_RCP, a, ftz); }
uint32_t ar_rsqrt_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_RSQ, a, ftz); }
uint32_t ar_sin_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_SIN, a, ftz); }
uint32_t ar_cos_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_COS, a, ftz); }
uint32_t ar_ex2_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_EX2, a, ftz); }
uint32_t ar_lg2_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_LG2, a, ftz); }
uint32_t ar_sqrt_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_SQRT, a, ftz); }
uint32_t ar_tanh_approx_f32(uint32_t a, int ftz) { return ar_mufu_f32(SUB_TANH, a, ftz); }
