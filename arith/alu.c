/* alu.c - the per-op semantics as pure functions on 32/64-bit values, shared by the SM model
 * (exec.c) and the PTX oracle: IEEE float with PTX rounding modifiers, ftz and saturation,
 * canonical NaN results, min/max NaN rules, compares, conversions with PTX's saturation and
 * NaN -> 0, bit-field ops, funnel shifts, byte permutes, condition-code tests and atomics.
 * docs/isa.md gives the rules; docs/warpsim.md says how the host computes them. */
#include <math.h>
#include <stdatomic.h>
#include <string.h>
#include "arith/arith.h"
#include "arith/softfp.h"

static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static int nan32(uint32_t a) { return (a & 0x7fffffffu) > 0x7f800000u; }
static int nan64(uint64_t a) { return (a & ~(1ull << 63)) > 0x7ff0000000000000ull; }
static int rn(Rnd r) { return r == RND_NONE || r == RND_RN || r == RND_ROUND; }

uint32_t ar_f32_ftz(uint32_t a)
{
	return (a & 0x7f800000u) == 0 ? a & 0x80000000u : a;
}

static uint32_t out32(uint32_t r, int ftz)
{
	if (nan32(r))
		return AR_F32_NAN;
	return ftz ? ar_f32_ftz(r) : r;
}

static uint64_t out64(uint64_t r)
{
	return nan64(r) ? AR_F64_NAN : r;
}

/* The IEEE operations below are rn(r) ? host : softfp: round-to-nearest runs on the
 * host's hardware (exact, fast, and emulated correctly by valgrind); the directed modes
 * run in softfp.c's integer arithmetic, so no result depends on the host's floating-point
 * environment. */

uint32_t ar_f32_add(uint32_t a, uint32_t b, Rnd r, int ftz)
{
	if (ftz)
		a = ar_f32_ftz(a), b = ar_f32_ftz(b);
	return out32(rn(r) ? f2u(u2f(a) + u2f(b)) : ar_sf_f32_add(a, b, r), ftz);
}

uint32_t ar_f32_mul(uint32_t a, uint32_t b, Rnd r, int ftz)
{
	if (ftz)
		a = ar_f32_ftz(a), b = ar_f32_ftz(b);
	return out32(rn(r) ? f2u(u2f(a) * u2f(b)) : ar_sf_f32_mul(a, b, r), ftz);
}

/* Kepler's FMUL with a scale (.D8 .D4 .D2 .M2 .M4 .M8: k = -3..3), *d = a * b * 2^k, where
 * that is known exactly: a finite normal result whose unscaled product was normal too, or a
 * zero, infinite or NaN operand. There every reading of the scale (one rounding of the exact
 * scaled product, or the product rounded then scaled) gives the same bits. Elsewhere (an
 * unscaled or scaled product that is subnormal, underflows or overflows, or sits at the top
 * binade) NVIDIA documents no rounding and ptxas never folds a correctly rounded mul.rn.f32
 * into the scale: returns 0 and leaves *d alone, so that the caller refuses, not guesses. */
int ar_f32_mul_scaled(uint32_t a, uint32_t b, int k, Rnd r, int ftz, uint32_t *d)
{
	uint32_t p, e;

	if (ftz)
		a = ar_f32_ftz(a), b = ar_f32_ftz(b);
	p = ar_f32_mul(a, b, r, 0);
	e = p >> 23 & 0xff;
	if (nan32(p)) {
		*d = p;
		return 1;
	}
	if (e == 0xff || (p & 0x7fffffffu) == 0) {      /* exact only from an infinite or zero operand */
		if ((a & 0x7fffffffu) == 0x7f800000u || (b & 0x7fffffffu) == 0x7f800000u ||
		    (a & 0x7fffffffu) == 0 || (b & 0x7fffffffu) == 0) {
			*d = p;
			return 1;
		}
		return 0;
	}
	if (e < 2 || e > 253 || (int)e + k < 1 || (int)e + k > 254)
		return 0;
	*d = (p & 0x807fffffu) | (uint32_t)((int)e + k) << 23;
	return 1;
}

uint32_t ar_f32_fma(uint32_t a, uint32_t b, uint32_t c, Rnd r, int ftz)
{
	if (ftz)
		a = ar_f32_ftz(a), b = ar_f32_ftz(b), c = ar_f32_ftz(c);
	return out32(rn(r) ? f2u(fmaf(u2f(a), u2f(b), u2f(c))) : ar_sf_f32_fma(a, b, c, r), ftz);
}

/* round-to-nearest FFMA lanes without ftz or saturation; on x86-64 hosts with FMA, compiled
 * for it (one instruction per lane instead of a libm call), chosen at run time */
#define FMA_RN_BODY \
	for (uint32_t m = ex; m; m &= m - 1) { \
		unsigned l = (unsigned)__builtin_ctz(m); \
		uint32_t v = f2u(fmaf(u2f(a[l]), u2f(b[l]), u2f(c[l]))); \
		d[l] = nan32(v) ? AR_F32_NAN : v; \
	}
static void fma_rn(uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t ex)
{
	FMA_RN_BODY
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("fma")))
static void fma_rn_hw(uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t ex)
{
	FMA_RN_BODY
}
/* the same for a full warp, compiled for AVX2 and FMA: gcc vectorises it, eight lanes per
 * instruction (through t, as d may be one of the sources) */
__attribute__((target("avx2,fma")))
static void fma_rn_hw_full(uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c)
{
	uint32_t t[32];

	for (int l = 0; l < 32; l++) {
		uint32_t v = f2u(fmaf(u2f(a[l]), u2f(b[l]), u2f(c[l])));
		t[l] = nan32(v) ? AR_F32_NAN : v;
	}
	memcpy(d, t, sizeof t);
}
static int have_fma(void)   /* 0: no FMA, 1: FMA, 2: FMA and AVX2 */
{
	static atomic_int known = -1;   /* (atomic: the SM model's host threads ask, --threads) */
	int k = atomic_load_explicit(&known, memory_order_relaxed);
	if (k < 0) {
		k = __builtin_cpu_supports("fma") ? 1 + (__builtin_cpu_supports("avx2") != 0) : 0;
		atomic_store_explicit(&known, k, memory_order_relaxed);
	}
	return k;
}
#else
#define fma_rn_hw fma_rn
#define fma_rn_hw_full(d, a, b, c) fma_rn(d, a, b, c, ~0u)
static int have_fma(void) { return 0; }
#endif

void ar_f32_fma_lanes(uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                       uint32_t ex, Rnd r, int ftz, int sat)
{
	if (!rn(r)) {                   /* directed rounding: softfp.c, lane by lane */
		for (uint32_t m = ex; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			uint32_t v = ar_f32_fma(a[l], b[l], c[l], r, ftz);
			d[l] = sat ? ar_f32_sat(v) : v;
		}
		return;
	}
	if (!ftz && !sat) {
		if (ex == ~0u && have_fma() == 2)
			fma_rn_hw_full(d, a, b, c);
		else
			(have_fma() ? fma_rn_hw : fma_rn)(d, a, b, c, ex);
		return;
	}
	for (uint32_t m = ex; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		uint32_t x = a[l], y = b[l], z = c[l], v;
		if (ftz)
			x = ar_f32_ftz(x), y = ar_f32_ftz(y), z = ar_f32_ftz(z);
		v = out32(f2u(fmaf(u2f(x), u2f(y), u2f(z))), ftz);
		d[l] = sat ? ar_f32_sat(v) : v;
	}
}

uint32_t ar_f32_div(uint32_t a, uint32_t b, Rnd r, int ftz)
{
	if (ftz)
		a = ar_f32_ftz(a), b = ar_f32_ftz(b);
	return out32(rn(r) ? f2u(u2f(a) / u2f(b)) : ar_sf_f32_div(a, b, r), ftz);
}

uint32_t ar_f32_sqrt(uint32_t a, Rnd r, int ftz)
{
	if (ftz)
		a = ar_f32_ftz(a);
	return out32(rn(r) ? f2u(sqrtf(u2f(a))) : ar_sf_f32_sqrt(a, r), ftz);
}

uint32_t ar_f32_sat(uint32_t a)
{
	if (nan32(a) || (a >> 31))
		return 0;                       /* NaN, negatives and -0 -> +0 */
	return a > 0x3f800000u ? 0x3f800000u : a;
}

/* PTX min/max: a NaN operand is ignored; both NaN -> NaN; -0 is below +0 */
uint32_t ar_f32_minmax(uint32_t a, uint32_t b, int max, int ftz)
{
	float x, y;

	if (ftz)
		a = ar_f32_ftz(a), b = ar_f32_ftz(b);
	if (nan32(a))
		return nan32(b) ? AR_F32_NAN : b;
	if (nan32(b))
		return a;
	x = u2f(a), y = u2f(b);
	if (x == y)   /* equal, or +0 and -0: pick by sign */
		return max ? (a & b) : (a | b);
	return (max ? x > y : x < y) ? a : b;
}

uint64_t ar_f64_add(uint64_t a, uint64_t b, Rnd r)
{
	return out64(rn(r) ? d2u(u2d(a) + u2d(b)) : ar_sf_f64_add(a, b, r));
}

uint64_t ar_f64_mul(uint64_t a, uint64_t b, Rnd r)
{
	return out64(rn(r) ? d2u(u2d(a) * u2d(b)) : ar_sf_f64_mul(a, b, r));
}

uint64_t ar_f64_fma(uint64_t a, uint64_t b, uint64_t c, Rnd r)
{
	uint64_t res = rn(r) ? d2u(fma(u2d(a), u2d(b), u2d(c))) : 0;

	/* the directed modes, and RN's zero results: valgrind's emulation of the host's fma()
	 * loses the sign of zero results (fma(-0, x, -0) gives +0 under it), so zeros, which are
	 * rare, are computed in softfp like the directed modes */
	if ((res << 1) == 0)
		res = ar_sf_f64_fma(a, b, c, r);
	return out64(res);
}

uint64_t ar_f64_div(uint64_t a, uint64_t b, Rnd r)
{
	return out64(rn(r) ? d2u(u2d(a) / u2d(b)) : ar_sf_f64_div(a, b, r));
}

uint64_t ar_f64_sqrt(uint64_t a, Rnd r)
{
	return out64(rn(r) ? d2u(sqrt(u2d(a))) : ar_sf_f64_sqrt(a, r));
}

uint64_t ar_f64_minmax(uint64_t a, uint64_t b, int max)
{
	double x, y;

	if (nan64(a))
		return nan64(b) ? AR_F64_NAN : b;
	if (nan64(b))
		return a;
	x = u2d(a), y = u2d(b);
	if (x == y)
		return max ? (a & b) : (a | b);
	return (max ? x > y : x < y) ? a : b;
}

static int fcmp(Cmp c, int un, int lt, int eq)
{
	int gt = !un && !lt && !eq;

	switch (c) {
	case CMP_F: return 0;
	case CMP_T: return 1;
	case CMP_LT: return lt;
	case CMP_EQ: return eq;
	case CMP_LE: return lt || eq;
	case CMP_GT: return gt;
	case CMP_NE: return !un && !eq;
	case CMP_GE: return gt || eq;
	case CMP_NUM: return !un;
	case CMP_NAN: return un;
	case CMP_LTU: return un || lt;
	case CMP_EQU: return un || eq;
	case CMP_LEU: return un || lt || eq;
	case CMP_GTU: return un || gt;
	case CMP_NEU: return un || !eq;
	case CMP_GEU: return un || gt || eq;
	case CMP_NONE: case CMP_COUNT: break;
	}
	return 0;
}

int ar_fcmp32(Cmp c, uint32_t a, uint32_t b, int ftz)
{
	float x, y;

	if (ftz)
		a = ar_f32_ftz(a), b = ar_f32_ftz(b);
	x = u2f(a), y = u2f(b);
	return fcmp(c, isnan(x) || isnan(y), x < y, x == y);
}

int ar_fcmp64(Cmp c, uint64_t a, uint64_t b)
{
	double x = u2d(a), y = u2d(b);

	return fcmp(c, isnan(x) || isnan(y), x < y, x == y);
}

int ar_icmp(Cmp c, Type t, uint64_t a, uint64_t b)
{
	int lt;

	switch (t) {
	case TY_U64: case TY_B64: lt = a < b; break;
	case TY_S64: lt = (int64_t)a < (int64_t)b; break;
	case TY_U32: case TY_U16: case TY_U8:
		a = (uint32_t)a, b = (uint32_t)b;
		lt = a < b;
		break;
	case TY_NONE: case TY_S32: case TY_S16: case TY_S8:
	case TY_F16: case TY_F32: case TY_F64: case TY_B128: case TY_COUNT:
	default:
		a = (uint32_t)a, b = (uint32_t)b;
		lt = (int32_t)a < (int32_t)b;
		break;
	}
	return fcmp(c, 0, lt, a == b);
}

/* ---------------------------------------------------------------- conversions */
static int isint(Type t) { return t >= TY_U8 && t <= TY_S64; }
static int tsigned(Type t) { return t == TY_S8 || t == TY_S16 || t == TY_S32 || t == TY_S64; }
static int tbits(Type t) { return 8 * isa_type_bytes(t); }

/* an integer of type t held in v, extended to 64 bits per its signedness */
static uint64_t iext(Type t, uint64_t v)
{
	int n = tbits(t);

	if (n >= 64)
		return v;
	v &= (1ull << n) - 1;
	if (tsigned(t) && (v >> (n - 1)))
		v |= ~0ull << n;
	return v;
}

static double h2d(uint16_t h)
{
	int e = (h >> 10) & 31, m = h & 1023;
	double v;

	if (e == 31)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp(m, -24);
	else
		v = ldexp(m | 1024, e - 25);
	return (h >> 15) ? -v : v;
}

/* round a non-negative integral-valued scaled magnitude n (exact double) per mode */
static double rnd_mag(double n, Rnd r, int neg)
{
	switch (r) {
	case RND_RZ: case RND_TRUNC: return trunc(n);
	case RND_RM: case RND_FLOOR: return neg ? ceil(n) : floor(n);
	case RND_RP: case RND_CEIL: return neg ? floor(n) : ceil(n);
	case RND_NONE: case RND_RN: case RND_ROUND: case RND_COUNT: break;
	}
	return nearbyint(n);   /* the host default mode is round-to-nearest-even */
}

static uint16_t d2h(double d, Rnd r)
{
	int neg = signbit(d) != 0, e;
	uint16_t s = neg ? 0x8000 : 0;
	double a = fabs(d), q, n, v;

	if (isnan(d))
		return 0x7fff;
	if (isinf(a))
		return s | 0x7c00;
	if (a == 0)
		return s;
	frexp(a, &e);                       /* a = m * 2^e, m in [0.5, 1) */
	q = ldexp(1.0, (e - 1 < -14 ? -14 : e - 1) - 10);
	n = rnd_mag(a / q, r, neg);
	v = n * q;
	if (v > 65504) {
		int toinf = (r == RND_NONE || r == RND_RN || r == RND_ROUND) ||
		            ((r == RND_RP || r == RND_CEIL) && !neg) || ((r == RND_RM || r == RND_FLOOR) && neg);
		return s | (toinf ? 0x7c00 : 0x7bff);
	}
	if (v < ldexp(1.0, -14))
		return s | (uint16_t)ldexp(v, 24);
	frexp(v, &e);
	return s | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)((ldexp(v, 1 - e) - 1) * 1024);
}

static uint64_t f2i(Type dt, Rnd r, double x)
{
	int n = tbits(dt);
	double lo, hi;

	if (isnan(x))
		return 0;                       /* PTX: NaN converts to 0 */
	switch (r) {
	case RND_RN: case RND_ROUND: x = nearbyint(x); break;
	case RND_RM: case RND_FLOOR: x = floor(x); break;
	case RND_RP: case RND_CEIL: x = ceil(x); break;
	case RND_NONE: case RND_RZ: case RND_TRUNC: case RND_COUNT: x = trunc(x); break;
	}
	if (tsigned(dt)) {
		lo = -ldexp(1.0, n - 1), hi = ldexp(1.0, n - 1);
		if (x <= lo)
			return iext(dt, 1ull << (n - 1));
		if (x >= hi)
			return n == 64 ? (uint64_t)INT64_MAX : (1ull << (n - 1)) - 1;
		return (uint64_t)(int64_t)x;
	}
	hi = ldexp(1.0, n);
	if (x <= 0)
		return 0;
	if (x >= hi)
		return n == 64 ? UINT64_MAX : (1ull << n) - 1;
	return (uint64_t)x;
}

/* an integer (sign-extended if signed) to float type dt, rounding per r */
static uint64_t i2f(Type dt, Type st, Rnd r, uint64_t v)
{
	int s = tsigned(st);

	if (dt == TY_F16) {
		double d = s ? (double)(int64_t)v : (double)v;   /* exact below 2^53; beyond, inf */
		return d2h(d, r);
	}
	if (dt == TY_F32) {
		if (rn(r))
			return f2u(s ? (float)(int64_t)v : (float)v);
		return s ? ar_sf_i64_to_f32((int64_t)v, r) : ar_sf_u64_to_f32(v, r);
	}
	if (rn(r))
		return d2u(s ? (double)(int64_t)v : (double)v);
	return s ? ar_sf_i64_to_f64((int64_t)v, r) : ar_sf_u64_to_f64(v, r);
}

uint64_t ar_cvt(Type dt, Type st, Rnd r, int ftz, int sat, uint64_t v)
{
	double x;

	if (dt == TY_NONE)
		dt = TY_S32;
	if (st == TY_NONE)
		st = TY_S32;
	if (isint(dt) && isint(st)) {             /* I2I */
		uint64_t e = iext(st, v);
		int n = tbits(dt);
		if (sat && n < 64) {
			if (tsigned(dt)) {
				int64_t lo = -(int64_t)(1ull << (n - 1)), hi = (int64_t)((1ull << (n - 1)) - 1);
				if (tsigned(st) ? (int64_t)e < lo : 0)
					e = (uint64_t)lo;
				else if (tsigned(st) ? (int64_t)e > hi : e > (uint64_t)hi)
					e = (uint64_t)hi;
			} else {
				uint64_t hi = (1ull << n) - 1;
				if (tsigned(st) && (int64_t)e < 0)
					e = 0;
				else if (e > hi)
					e = hi;
			}
		} else if (sat && n == 64) {
			if (tsigned(dt) != tsigned(st) && (e >> 63))
				e = tsigned(dt) ? (uint64_t)INT64_MAX : 0;
		}
		return iext(dt, e);
	}
	if (isint(st)) {                          /* I2F */
		uint64_t res = i2f(dt, st, r, iext(st, v));
		if (dt == TY_F32 && sat)
			res = ar_f32_sat((uint32_t)res);
		if (dt == TY_F64 && sat)
			res = d2u(u2d(res) < 0 ? 0.0 : u2d(res) > 1.0 ? 1.0 : u2d(res));
		return res;
	}
	/* the float source as an exact double */
	if (st == TY_F16)
		x = h2d((uint16_t)v);
	else if (st == TY_F32)
		x = u2f(ftz ? ar_f32_ftz((uint32_t)v) : (uint32_t)v);
	else
		x = u2d(v);
	if (isint(dt))                            /* F2I */
		return iext(dt, f2i(dt, r, x));
	/* F2F: same type with .ROUND/.TRUNC/.FLOOR/.CEIL rounds to an integral value */
	if (dt == st && (r == RND_ROUND || r == RND_TRUNC || r == RND_FLOOR || r == RND_CEIL))
		x = r == RND_ROUND ? nearbyint(x) : r == RND_TRUNC ? trunc(x) : r == RND_FLOOR ? floor(x) : ceil(x);
	if (sat && !isnan(x))
		x = x < 0 || x == 0 ? 0.0 : x > 1 ? 1.0 : x;
	else if (sat)
		x = 0;
	if (dt == TY_F16)
		return d2h(x, r);
	if (dt == TY_F32)
		return out32(rn(r) ? f2u((float)x) : ar_sf_f64_to_f32(d2u(x), r), ftz);
	return out64(d2u(x));
}

/* ---------------------------------------------------------------- bit ops */
uint32_t ar_brev(uint32_t a)
{
	a = (a >> 1 & 0x55555555u) | (a & 0x55555555u) << 1;
	a = (a >> 2 & 0x33333333u) | (a & 0x33333333u) << 2;
	a = (a >> 4 & 0x0f0f0f0fu) | (a & 0x0f0f0f0fu) << 4;
	a = (a >> 8 & 0x00ff00ffu) | (a & 0x00ff00ffu) << 8;
	return a >> 16 | a << 16;
}

/* the field of len bits at pos of a (msb + 1 bits wide: 32 or 64), from bit 0; the bits above
 * it are its top bit when signed (the value's bit msb where the field runs past it), else 0 */
static uint64_t bfe(uint64_t a, unsigned msb, uint32_t posl, int sign)
{
	unsigned pos = posl & 0xff, len = (posl >> 8) & 0xff;
	uint64_t d = 0, sbit = 0;

	if (sign && len) {
		unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
		sbit = (a >> top) & 1;
	}
	for (unsigned i = 0; i <= msb; i++) {
		uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
		d |= bit << i;
	}
	return d;
}

uint64_t ar_bfe64(uint64_t a, uint32_t posl, int sign, int brev)
{
	if (brev)
		a = (uint64_t)ar_brev((uint32_t)a) << 32 | ar_brev((uint32_t)(a >> 32));
	return bfe(a, 63, posl, sign);
}

uint32_t ar_bfe(uint32_t a, uint32_t posl, int sign, int brev)
{
	return (uint32_t)bfe(brev ? ar_brev(a) : a, 31, posl, sign);
}

uint32_t ar_bfi(uint32_t a, uint32_t posl, uint32_t base)
{
	unsigned pos = posl & 0xff, len = (posl >> 8) & 0xff;

	for (unsigned i = 0; i < len && pos + i <= 31; i++)
		base = (base & ~(1u << (pos + i))) | ((a >> i) & 1) << (pos + i);
	return base;
}

uint32_t ar_prmt(uint32_t a, uint32_t sel, uint32_t c, Sub mode)
{
	static const uint8_t tab[6][4][4] = {   /* [mode][sel&3][result byte 0..3] */
		{{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},   /* F4E */
		{{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},   /* B4E */
		{{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},   /* RC8 */
		{{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},   /* ECL */
		{{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},   /* ECR */
		{{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},   /* RC16 */
	};
	uint64_t src = (uint64_t)c << 32 | a;
	uint32_t d = 0;
	int m = -1;

	switch ((int)mode) {
	case SUB_F4E: m = 0; break;
	case SUB_B4E: m = 1; break;
	case SUB_RC8: m = 2; break;
	case SUB_ECL: m = 3; break;
	case SUB_ECR: m = 4; break;
	case SUB_RC16: m = 5; break;
	}
	for (int i = 0; i < 4; i++) {
		uint32_t byte;
		if (m >= 0)
			byte = (src >> (8 * tab[m][sel & 3][i])) & 0xff;
		else {
			unsigned s = (sel >> (4 * i)) & 15;
			byte = (src >> (8 * (s & 7))) & 0xff;
			if (s & 8)
				byte = (byte & 0x80) ? 0xff : 0;
		}
		d |= byte << (8 * i);
	}
	return d;
}

uint32_t ar_shf(uint32_t lo, uint32_t n, uint32_t hi, int right, int wrap, Type t)
{
	int wide = t == TY_U64 || t == TY_S64;
	int sgn = t == TY_S64 || t == TY_S32;
	unsigned lim = wide ? 64 : 32;
	uint64_t v = (uint64_t)hi << 32 | lo;

	n = wrap ? n & (lim - 1) : (n < lim ? n : lim);
	if (!right)
		return n >= 64 ? 0 : (uint32_t)((v << n) >> 32);
	if (n >= 64)
		return sgn && (hi >> 31) ? 0xffffffffu : 0;
	return (uint32_t)(sgn ? (uint64_t)((int64_t)v >> n) : v >> n);
}

uint32_t ar_flo(uint32_t a, int sign, int shamt)
{
	int idx;

	if (sign && (a >> 31))
		a = ~a;
	if (!a)
		return 0xffffffffu;
	idx = 31 - __builtin_clz(a);
	return shamt ? (uint32_t)(31 - idx) : (uint32_t)idx;
}

uint32_t ar_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
	uint32_t r = 0;

	for (int i = 0; i < 8; i++)
		if (lut >> i & 1)
			r |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
	return r;
}

/* CC tests on the integer flags: the U forms equal the ordered ones (CC never holds an
 * unordered result), NUM is true and NAN false */
int ar_cctest(CCTest t, unsigned f)
{
	int s = !!(f & CC_S), c = !!(f & CC_C), z = !!(f & CC_Z), o = !!(f & CC_O);

	switch (t) {
	case CCT_F: return 0;
	case CCT_T: return 1;
	case CCT_LT: case CCT_LTU: return s != o;
	case CCT_EQ: case CCT_EQU: return z;
	case CCT_LE: case CCT_LEU: return z || s != o;
	case CCT_GT: case CCT_GTU: return !z && s == o;
	case CCT_NE: case CCT_NEU: return !z;
	case CCT_GE: case CCT_GEU: return s == o;
	case CCT_NUM: return 1;
	case CCT_NAN: return 0;
	case CCT_OFF: return !o;
	case CCT_OFT: return o;
	case CCT_LO: return !c;
	case CCT_LS: return !c || z;
	case CCT_HI: return c && !z;
	case CCT_HS: return c;
	case CCT_SFF: return !s;
	case CCT_SFT: return s;
	case CCT_COUNT: break;
	}
	return 0;
}

uint64_t ar_atom(Sub op, Type t, uint64_t old, uint64_t b, uint64_t c, int ftz)
{
	int w64 = t == TY_U64 || t == TY_S64 || t == TY_F64 || t == TY_B64;
	uint64_t mask = w64 ? ~0ull : 0xffffffffull;
	Type ct = t == TY_NONE ? TY_U32 : t;

	old &= mask, b &= mask, c &= mask;
	switch ((int)op) {
	case SUB_ADD:
		if (t == TY_F32)
			return ar_f32_add((uint32_t)old, (uint32_t)b, RND_RN, ftz);
		if (t == TY_F64)
			return ar_f64_add(old, b, RND_RN);
		return (old + b) & mask;
	case SUB_MIN:
	case SUB_MAX:
		if (t == TY_F32)
			return ar_f32_minmax((uint32_t)old, (uint32_t)b, op == SUB_MAX, ftz);
		if (t == TY_F64)
			return ar_f64_minmax(old, b, op == SUB_MAX);
		return ar_icmp(CMP_LT, ct, old, b) == (op == SUB_MIN) ? old : b;
	case SUB_INC: return old >= b ? 0 : (old + 1) & mask;
	case SUB_DEC: return (old == 0 || old > b) ? b : old - 1;
	case SUB_EXCH: return b;
	case SUB_CAS: return old == b ? c : old;
	case SUB_AND: return old & b;
	case SUB_OR: return old | b;
	case SUB_XOR: return old ^ b;
	}
	return old;
}
