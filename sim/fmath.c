/* fmath.c - host floating point shared by the SM model and the PTX oracle: the MUFU .approx
 * functions.
 *
 * Directed rounding is not here any more, and nothing in warpsim calls fesetround(): the
 * .rz/.rm/.rp operations and conversions run in integer arithmetic (softfp.c, called from
 * alu.c), round-to-nearest on the host's hardware. Integer arithmetic makes the results
 * independent of the host's floating-point environment, which valgrind does not emulate
 * (under valgrind every float operation rounds to nearest whatever fesetround() said), and
 * it is cheaper than two mode switches per operation (tests/unit/test_softfp.c measures it).
 *
 * MUFU (PTX .approx): results are the correctly rounded float of the double-precision host
 * function (1/x, 1/sqrt(x), sin, cos, exp2, log2, sqrt, tanh), with PTX's special cases: subnormal
 * inputs and results flushed when .FTZ, NaN in -> canonical NaN out. The oracle calls these
 * same functions so approximate results agree bit for bit. */
#include <math.h>
#include <string.h>
#include "sim/sim.h"

static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static uint32_t finish(double d, int ftz)
{
	uint32_t u;

	if (isnan(d))
		return SIM_F32_NAN;
	u = f2u((float)d);
	return ftz ? sim_f32_ftz(u) : u;
}

uint32_t sim_rcp_approx_f32(uint32_t a, int ftz)
{
	if (ftz)
		a = sim_f32_ftz(a);
	return finish(1.0 / (double)u2f(a), ftz);
}

uint32_t sim_rsqrt_approx_f32(uint32_t a, int ftz)
{
	if (ftz)
		a = sim_f32_ftz(a);
	/* rsqrt(-0) = -inf as PTX specifies; negative -> NaN */
	if ((a & 0x7fffffffu) == 0)
		return (a & 0x80000000u) | 0x7f800000u;
	return finish(1.0 / sqrt((double)u2f(a)), ftz);
}

uint32_t sim_sin_approx_f32(uint32_t a, int ftz)
{
	if (ftz)
		a = sim_f32_ftz(a);
	return finish(sin((double)u2f(a)), ftz);
}

uint32_t sim_cos_approx_f32(uint32_t a, int ftz)
{
	if (ftz)
		a = sim_f32_ftz(a);
	return finish(cos((double)u2f(a)), ftz);
}

uint32_t sim_ex2_approx_f32(uint32_t a, int ftz)
{
	if (ftz)
		a = sim_f32_ftz(a);
	return finish(exp2((double)u2f(a)), ftz);
}

uint32_t sim_lg2_approx_f32(uint32_t a, int ftz)
{
	if (ftz)
		a = sim_f32_ftz(a);
	if ((a & 0x7fffffffu) == 0)
		return 0xff800000u;          /* lg2(+-0) = -inf */
	return finish(log2((double)u2f(a)), ftz);
}

uint32_t sim_sqrt_approx_f32(uint32_t a, int ftz)
{
	if (ftz)
		a = sim_f32_ftz(a);
	return finish(sqrt((double)u2f(a)), ftz);
}

/* tanh.approx.f32 (MUFU.TANH): tanh(+-0) = +-0, tanh(+-inf) = +-1 */
uint32_t sim_tanh_approx_f32(uint32_t a, int ftz)
{
	if (ftz)
		a = sim_f32_ftz(a);
	return finish(tanh((double)u2f(a)), ftz);
}

uint32_t sim_mufu_f32(Sub fn, uint32_t a, int ftz)
{
	switch ((int)fn) {
	case SUB_RCP: return sim_rcp_approx_f32(a, ftz);
	case SUB_RSQ: return sim_rsqrt_approx_f32(a, ftz);
	case SUB_SIN: return sim_sin_approx_f32(a, ftz);
	case SUB_COS: return sim_cos_approx_f32(a, ftz);
	case SUB_EX2: return sim_ex2_approx_f32(a, ftz);
	case SUB_LG2: return sim_lg2_approx_f32(a, ftz);
	case SUB_SQRT: return sim_sqrt_approx_f32(a, ftz);
	case SUB_TANH: return sim_tanh_approx_f32(a, ftz);
	default: return SIM_F32_NAN;     /* the loader rejects other sub-ops */
	}
}

/* .F64 MUFU (rcp.approx.ftz.f64, rsqrt.approx.f64): correctly rounded double results */
uint64_t sim_mufu_f64(Sub fn, uint64_t a)
{
	double x = u2d(a), r;

	switch ((int)fn) {
	case SUB_RCP: r = 1.0 / x; break;
	case SUB_RSQ: r = x == 0 ? copysign(INFINITY, x) : 1.0 / sqrt(x); break;
	case SUB_SQRT: r = sqrt(x); break;
	case SUB_SIN: r = sin(x); break;
	case SUB_COS: r = cos(x); break;
	case SUB_EX2: r = exp2(x); break;
	case SUB_LG2: r = x == 0 ? -INFINITY : log2(x); break;
	case SUB_TANH: r = tanh(x); break;
	default: r = NAN; break;
	}
	return isnan(r) ? SIM_F64_NAN : d2u(r);
}
