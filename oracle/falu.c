/* falu.c - floating-point semantics of the oracle and conversions.
 *
 * Shared with the SM model (arith/alu.c, arith/fmath.c), so both sides agree bit for bit: the
 * correctly rounded f32/f64 add, mul, fma, div and sqrt in every rounding mode, the .approx
 * functions (MUFU), and float conversions (ar_cvt). Written here from the PTX manual, as an
 * independent reading: comparisons (ordered and unordered), min/max with their NaN and
 * signed-zero rules, testp, copysign, abs/neg, saturation, integer-to-integer conversions and
 * the f16 arithmetic (exact in double or rounded to odd, then one rounding to f16). NaN
 * results are the canonical NaN (0x7fffffff, 0x7fffffffffffffff, 0x7fff) as the GPU produces. */
#include <math.h>
#include <string.h>
#include "oracle/internal.h"

static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

int or_isfloat(int t)
{
	return ptx_type_kind((PType)t) == PTK_FLOAT;
}

/* ---------------------------------------------------------------- f16 through double */
static double h2d(uint64_t h) { return u2d(ar_cvt(TY_F64, TY_F16, RND_RN, 0, 0, h & 0xffff)); }
static uint64_t d2h(double d, Rnd r) { return ar_cvt(TY_F16, TY_F64, r, 0, 0, d2u(d)) & 0xffff; }

/* p + c (doubles from f16 or bf16 operands or their product, so no overflow) rounded to odd
 * in 53 bits: the host's nearest sum s and its exact error e (two-sum) give it (an inexact s
 * moves off an even last bit towards e). Rounding that once more to the 11 bits of f16 or
 * the 8 of bf16 is the one correct rounding in every mode (53 >= 11 + 2). Infinite or NaN
 * sums come back as they are. */
static double sum_odd(double p, double c)
{
	double s = p + c, v, e;

	if (isfinite(s) && s != 0) {
		v = s - p;
		e = (p - (s - v)) + (c - v);
		if (e != 0 && !(d2u(s) & 1))
			s = nextafter(s, e > 0 ? INFINITY : -INFINITY);
	}
	return s;
}

/* p + c rounded once to f16 in mode r. An exact zero is -0 when rounding down unless both
 * operands are +0 (IEEE 754 6.3). */
static uint64_t sum2h(double p, double c, Rnd r)
{
	double s = p + c;

	if (isnan(s))
		return 0x7fff;
	if (s == 0) {
		if (r == RND_RM && (p != 0 || signbit(p) != signbit(c)))
			s = -0.0;
		return d2h(s, r);
	}
	return d2h(sum_odd(p, c), r);
}

static int nanbits(int t, uint64_t a)
{
	if (t == PT_F32)
		return (a & 0x7fffffffu) > 0x7f800000u;
	if (t == PT_F64)
		return (a & ~(1ull << 63)) > 0x7ff0000000000000ull;
	if (t == PT_BF16)
		return (a & 0x7fff) > 0x7f80;
	return (a & 0x7fff) > 0x7c00;
}

static uint64_t cnan(int t)
{
	return t == PT_F32 ? 0x7fffffffu : t == PT_F64 ? 0x7fffffffffffffffull : 0x7fff;
}

static uint64_t signbit_of(int t)
{
	return t == PT_F32 ? 1ull << 31 : t == PT_F64 ? 1ull << 63 : 1ull << 15;
}

static double todouble(int t, uint64_t a)
{
	if (t == PT_BF16)
		return or_double_of_bf16(a);
	return t == PT_F32 ? (double)u2f((uint32_t)a) : t == PT_F64 ? u2d(a) : h2d(a);
}

uint64_t or_fftz(int t, uint64_t a)
{
	if (t == PT_F32 && (a & 0x7f800000u) == 0)
		return a & 0x80000000u;
	return a;
}

uint64_t or_fsat(int t, uint64_t a)
{
	double d;

	if (nanbits(t, a))
		return 0;
	d = todouble(t, a);
	if (d <= 0)   /* -0 saturates to +0 */
		return 0;
	if (d >= 1)
		return t == PT_F32 ? 0x3f800000u : t == PT_F64 ? 0x3ff0000000000000ull : 0x3c00;
	return a;
}

uint64_t or_fbin(int op, int t, uint64_t a, uint64_t b, int prnd, int ftz)
{
	Rnd r = ptxisa_rnd(prnd) == RND_NONE ? RND_RN : ptxisa_rnd(prnd);

	if (t == PT_F32) {
		switch (op) {
		case PO_ADD: return ar_f32_add((uint32_t)a, (uint32_t)b, r, ftz);
		case PO_SUB: return ar_f32_add((uint32_t)a, (uint32_t)b ^ 0x80000000u, r, ftz);
		case PO_MUL: return ar_f32_mul((uint32_t)a, (uint32_t)b, r, ftz);
		case PO_DIV: return ar_f32_div((uint32_t)a, (uint32_t)b, r, ftz);
		default: break;
		}
	} else if (t == PT_F64) {
		switch (op) {
		case PO_ADD: return ar_f64_add(a, b, r);
		case PO_SUB: return ar_f64_add(a, b ^ (1ull << 63), r);
		case PO_MUL: return ar_f64_mul(a, b, r);
		case PO_DIV: return ar_f64_div(a, b, r);
		default: break;
		}
	} else {
		double x = h2d(a), y = h2d(b), z;
		switch (op) {
		case PO_ADD: return sum2h(x, y, r);   /* exact in double */
		case PO_SUB: return sum2h(x, -y, r);
		case PO_MUL: z = x * y; break;       /* exact: 22 bits, 2^-48 <= |z| < 2^32 */
		default: z = x / y; break;       /* twice rounded; f16 division is not emitted */
		}
		return isnan(z) ? cnan(t) : d2h(z, r);
	}
	die("or_fbin: not a binary float op");
}

uint64_t or_ffma(int t, uint64_t a, uint64_t b, uint64_t c, int prnd, int ftz)
{
	Rnd r = ptxisa_rnd(prnd) == RND_NONE ? RND_RN : ptxisa_rnd(prnd);

	if (t == PT_F32)
		return ar_f32_fma((uint32_t)a, (uint32_t)b, (uint32_t)c, r, ftz);
	if (t == PT_F64)
		return ar_f64_fma(a, b, c, r);
	/* the product is exact in double; the sum, a multiple of 2^-48 below 2^33, may need 82
	 * bits: rounding it to nearest first and then in a directed mode would round twice */
	return sum2h(h2d(a) * h2d(b), h2d(c), r);
}

/* rcp sqrt rsqrt sin cos lg2 ex2 tanh abs neg */
uint64_t or_funary(int op, int t, uint64_t a, int prnd, int ftz, int approx)
{
	Rnd r = ptxisa_rnd(prnd) == RND_NONE ? RND_RN : ptxisa_rnd(prnd);

	if (ftz)
		a = or_fftz(t, a);
	switch (op) {
	case PO_ABS:
		return a & ~signbit_of(t);
	case PO_NEG:
		return a ^ signbit_of(t);
	case PO_RCP:
		if (t == PT_F64)
			return approx ? ar_mufu_f64(SUB_RCP, a) : ar_f64_div(0x3ff0000000000000ull, a, r);
		return approx ? ar_rcp_approx_f32((uint32_t)a, ftz) : ar_f32_div(0x3f800000u, (uint32_t)a, r, ftz);
	case PO_SQRT:
		if (t == PT_F64)
			return ar_f64_sqrt(a, r);
		return approx ? ar_sqrt_approx_f32((uint32_t)a, ftz) : ar_f32_sqrt((uint32_t)a, r, ftz);
	case PO_RSQRT:
		if (t == PT_F64)
			return ar_mufu_f64(SUB_RSQ, a);
		return ar_rsqrt_approx_f32((uint32_t)a, ftz);
	case PO_SIN: return ar_sin_approx_f32((uint32_t)a, ftz);
	case PO_COS: return ar_cos_approx_f32((uint32_t)a, ftz);
	case PO_LG2: return ar_lg2_approx_f32((uint32_t)a, ftz);
	case PO_EX2: return ar_ex2_approx_f32((uint32_t)a, ftz);
	case PO_TANH: return ar_tanh_approx_f32((uint32_t)a, ftz);
	default:
		break;
	}
	die("or_funary: not a unary float op");
}

/* min/max: a NaN operand is ignored (both NaN: NaN, or NaN when either is with .NaN);
 * -0 is less than +0 */
uint64_t or_fminmax(int t, uint64_t a, uint64_t b, int max, int ftz, int nan)
{
	int na, nb, lt;
	double x, y;

	if (ftz)
		a = or_fftz(t, a), b = or_fftz(t, b);
	na = nanbits(t, a), nb = nanbits(t, b);
	if ((na && nb) || (nan && (na || nb)))
		return cnan(t);
	if (na)
		return b;
	if (nb)
		return a;
	x = todouble(t, a), y = todouble(t, b);
	if (x == y && x == 0)
		lt = (a & signbit_of(t)) && !(b & signbit_of(t));
	else
		lt = x < y;
	return max ? (lt ? b : a) : (lt ? a : b);
}

/* ordered comparisons are false on NaN, the ...u ones true; num and nan test for NaN */
int or_fcmp(int cmp, int t, uint64_t a, uint64_t b, int ftz)
{
	int un;
	double x, y;

	if (ftz)
		a = or_fftz(t, a), b = or_fftz(t, b);
	un = nanbits(t, a) || nanbits(t, b);
	x = todouble(t, a), y = todouble(t, b);
	return ptx_fcmp(cmp, un, x, y);
}

int or_testp(int prop, int t, uint64_t a)
{
	double x = todouble(t, a);
	uint64_t mag = a & ~signbit_of(t);
	uint64_t expmask = t == PT_F32 ? 0x7f800000u : t == PT_F64 ? 0x7ff0000000000000ull : 0x7c00;

	switch ((PTestp)prop) {
	case PTESTP_FINITE: return isfinite(x);
	case PTESTP_INFINITE: return isinf(x);
	case PTESTP_NUMBER: return !isnan(x);
	case PTESTP_NOTANUMBER: return isnan(x);
	case PTESTP_NORMAL: return isfinite(x) && (mag & expmask) != 0;
	case PTESTP_SUBNORMAL: return mag != 0 && (mag & expmask) == 0;
	case PTESTP_NONE: case PTESTP_COUNT: break;
	}
	return 0;
}

/* cvt: integer <-> integer here (truncate or extend, .sat clamps); anything with a float
 * through ar_cvt. Results are zero-extended bits of the destination type. */
uint64_t or_cvt(int dt, int st, int prnd, int ftz, int sat, uint64_t v)
{
	PTypeKind dk = ptx_type_kind((PType)dt), sk = ptx_type_kind((PType)st);
	int dbits = 8 * ptx_type_bytes((PType)dt), sbits = 8 * ptx_type_bytes((PType)st);

	if (dk != PTK_FLOAT && sk != PTK_FLOAT) {
		int ssign = sk == PTK_SIGNED, dsign = dk == PTK_SIGNED;
		uint64_t x = ssign ? or_sext(v, sbits) : or_zext(v, sbits);
		if (sat) {
			if (dsign) {
				int64_t lo = dbits == 64 ? INT64_MIN : -(int64_t)(1ull << (dbits - 1));
				int64_t hi = dbits == 64 ? INT64_MAX : (int64_t)((1ull << (dbits - 1)) - 1);
				if (ssign && (int64_t)x < lo)
					x = (uint64_t)lo;
				else if (ssign ? (int64_t)x > hi : x > (uint64_t)hi)
					x = (uint64_t)hi;
			} else {
				uint64_t hi = dbits == 64 ? ~0ull : (1ull << dbits) - 1;
				if (ssign && (int64_t)x < 0)
					x = 0;
				else if (x > hi)
					x = hi;
			}
		}
		return or_zext(x, dbits);
	}
	{
		Rnd r = ptxisa_rnd(prnd);
		uint64_t res = ar_cvt(ptxisa_type(dt), ptxisa_type(st), r, ftz, sat, v);
		return or_zext(res, dbits);
	}
}

/* a float immediate in the operation's float type (integers are converted by value) */
uint64_t or_imm_float(const POpd *op, int t)
{
	double d;

	switch ((PImmKind)op->ikind) {
	case PIMM_F32:
		if (t == PT_F32)
			return (uint32_t)op->imm;
		d = u2f((uint32_t)op->imm);
		break;
	case PIMM_F64: case PIMM_FLOAT:
		if (t == PT_F64)
			return (uint64_t)op->imm;
		d = u2d((uint64_t)op->imm);
		break;
	case PIMM_DEC: case PIMM_HEX: case PIMM_OCT: case PIMM_BIN: default:
		d = (op->flags & POF_UNSIGNED) ? (double)(uint64_t)op->imm : (double)op->imm;
		break;
	}
	if (t == PT_F64)
		return d2u(d);
	if (t == PT_F32)
		return f2u((float)d);
	return d2h(d, RND_RN);
}

/* ---------------------------------------------------------------- bf16
 * bf16 is the top half of an f32. A double is rounded to it by scaling: with d = m * 2^e
 * (0.5 <= |m| < 1) its quantum is 2^(e-8), never below 2^-133 (the subnormals), and
 * nearbyint rounds d / quantum to nearest even; beyond the largest bf16 (0x7f7f) is INF. */
uint64_t or_bf16_of_double(double d, int rz)
{
	int e;
	double q, r;

	if (isnan(d))
		return 0x7fff;                   /* the canonical bf16 NaN */
	if (isinf(d) || d == 0)
		return f2u((float)d) >> 16;
	frexp(d, &e);
	q = ldexp(1.0, e - 8 < -133 ? -133 : e - 8);
	r = rz ? trunc(d / q) * q : nearbyint(d / q) * q;
	if (fabs(r) > (double)u2f(0x7f7f0000u))   /* beyond the largest: INF, toward zero the largest */
		return (d < 0 ? 0x8000u : 0) | (rz ? 0x7f7fu : 0x7f80u);
	return f2u((float)r) >> 16;
}

double or_double_of_bf16(uint64_t h) { return (double)u2f((uint32_t)(h & 0xffff) << 16); }

/* add, sub, mul .rn of bf16 values: in double, exact for mul; for add and sub exact, or the
 * smaller operand is below 2^-37 of the larger (a bf16), far from any tie */
uint64_t or_bf16_arith(int op, uint64_t a, uint64_t b)
{
	double x = or_double_of_bf16(a), y = or_double_of_bf16(b);

	switch (op) {
	case PO_ADD: return or_bf16_of_double(x + y, 0);
	case PO_SUB: return or_bf16_of_double(x - y, 0);
	case PO_MUL: return or_bf16_of_double(x * y, 0);
	default: die("or_bf16_arith: not add, sub or mul");
	}
}

/* fma.rn.bf16: the product of two bf16 is exact in double; the sum is rounded to odd in 53
 * bits (sum_odd), then once to nearest bf16 (53 >= 8 + 2: no double rounding) */
uint64_t or_bf16_fma(uint64_t a, uint64_t b, uint64_t c)
{
	double p = or_double_of_bf16(a) * or_double_of_bf16(b), z = or_double_of_bf16(c);

	if (isnan(p + z))
		return 0x7fff;
	return or_bf16_of_double(sum_odd(p, z), 0);
}

/* .relu on an f16 or bf16 result (PTX: a negative result is clamped to 0, a NaN result is
 * the canonical NaN); -0 is taken as negative and gives +0 */
uint64_t or_hrelu(int t, uint64_t h)
{
	if (nanbits(t, h))
		return 0x7fff;
	return (h & 0x8000) ? 0 : h & 0xffff;
}

/* tf32 of a double, as the 32-bit pattern of an f32 whose 13 low fraction bits are zero:
 * rounded at 10 fraction bits (2^-136 in the subnormals) to nearest even (rna: ties away
 * from zero; rz: truncated); beyond the largest tf32 (0x7f7fe000) is INF */
static uint32_t tf32_of_double(double d, int prnd)
{
	int e;
	double q, r;

	frexp(d, &e);
	q = ldexp(1.0, e - 11 < -136 ? -136 : e - 11);
	r = d / q;
	r = prnd == PRND_RNA ? round(r) : prnd == PRND_RZ ? trunc(r) : nearbyint(r);
	r *= q;
	if (fabs(r) > (double)u2f(0x7f7fe000u))
		return d < 0 ? 0xff800000u : 0x7f800000u;
	return f2u((float)r);
}

/* cvt from f32 to f16, bf16 or tf32 (one value) with .rn/.rz (.rna for tf32), .relu and
 * .satfinite (PTX: NaN stays NaN, the canonical one; an infinite input or one beyond the
 * largest finite value gives that value with the input's sign; .relu clamps a negative
 * result to +0). Results are the bits of the destination type. */
uint64_t or_cvt_f32_narrow(int dt, uint32_t a, int prnd, int relu, int satfinite)
{
	double x = (double)u2f(a);
	uint64_t r, max, inf, sign;

	if (isnan(x))
		return dt == PT_TF32 ? 0x7fffffffu : 0x7fff;
	if (dt == PT_TF32) {
		r = isinf(x) ? (uint64_t)(a & 0xff800000u) : tf32_of_double(x, prnd);
		max = 0x7f7fe000u, inf = 0x7f800000u, sign = 0x80000000u;
	} else {
		if (dt == PT_BF16)
			r = isinf(x) ? (uint64_t)(a >> 16) : or_bf16_of_double(x, prnd == PRND_RZ);
		else
			r = ar_cvt(TY_F16, TY_F32, prnd == PRND_RZ ? RND_RZ : RND_RN, 0, 0, a) & 0xffff;
		max = dt == PT_BF16 ? 0x7f7f : 0x7bff, inf = dt == PT_BF16 ? 0x7f80 : 0x7c00, sign = 0x8000;
	}
	if (satfinite && (r & ~sign) == inf)
		r = (r & sign) | max;
	if (relu && (r & sign))
		r = 0;
	return r;
}
