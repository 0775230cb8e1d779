/* softfp.c - IEEE-754 binary32 and binary64 add, mul, fma, div, sqrt and the integer/f64 to
 * float conversions, in integer arithmetic with the rounding direction as an argument
 * (softfp.h gives the contract). Owned here: unpacking, the one rounding routine, the ops.
 *
 * Every operation first computes its exact result as sig * 2^exp, where sig is an unsigned
 * integer (below 2^63; 128 bits inside f64 fma and mul, folded before rounding) whose lowest
 * bit may be a sticky bit: 1 when nonzero bits of the exact result were dropped below it.
 * round_pack() then picks the quantum of the result (its binade's ulp, or the subnormal
 * ulp), rounds the bits below it per direction (guard and round bits, the rest sticky) and
 * packs; a carry out of the significand moves into the exponent field by plain addition,
 * which also turns the largest subnormal into the smallest normal and the largest finite
 * value into infinity (then handled as overflow). A sticky bit is exact enough when at
 * least two bits separate it from the rounding position: each op below says why that holds.
 * Division and square root take an estimate from the host's double arithmetic and make it
 * exact with integer remainders, so they too are independent of the host's rounding mode. */
#include "arith/softfp.h"

__extension__ typedef unsigned __int128 u128;
#define INLINE static inline __attribute__((always_inline))

/* one binary interchange format */
typedef struct {
	int m;          /* fraction bits (23, 52) */
	int emax;       /* largest unbiased exponent, also the bias (127, 1023) */
	int sbit;       /* position of the sign bit (31, 63) */
	uint64_t inf;   /* bits of +infinity */
	uint64_t qnan;  /* the default quiet NaN */
} Fmt;

static const Fmt F32 = { 23, 127, 31, 0x7f800000u, 0x7fc00000u };
static const Fmt F64 = { 52, 1023, 63, 0x7ff0000000000000ull, 0x7ff8000000000000ull };

enum { C_ZERO, C_FIN, C_INF, C_NAN };          /* operand classes */
enum { M_RN, M_RZ, M_RM, M_RP };               /* rounding directions */

/* an unpacked operand: value = (-1)^sign * sig * 2^exp, sig in [2^m, 2^(m+1)) when finite */
typedef struct {
	int cls;        /* C_* */
	int sign;       /* 1 when negative */
	int exp;        /* exponent of sig's lowest bit */
	uint64_t sig;   /* significand, normalized (subnormals too) */
} Num;

/* the direction of a PTX rounding modifier (the integer-rounding forms of cvt included) */
static const unsigned char dirs[RND_COUNT] = {
	[RND_RZ] = M_RZ, [RND_TRUNC] = M_RZ, [RND_RM] = M_RM, [RND_FLOOR] = M_RM,
	[RND_RP] = M_RP, [RND_CEIL] = M_RP,     /* RND_NONE, RND_RN, RND_ROUND: M_RN (0) */
};
INLINE int dir(Rnd r) { return (unsigned)r < RND_COUNT ? dirs[r] : M_RN; }

INLINE int msb64(uint64_t v) { return 63 - __builtin_clzll(v); }
INLINE int msb128(u128 v)
{
	uint64_t hi = (uint64_t)(v >> 64);
	return hi ? 64 + msb64(hi) : msb64((uint64_t)v);
}

INLINE Num unpack(const Fmt *f, uint64_t bits)
{
	Num n;
	int ef = (int)(bits >> f->m) & (2 * f->emax + 1);
	uint64_t frac = bits & ((1ull << f->m) - 1);

	n.sign = (int)(bits >> f->sbit) & 1;
	n.exp = 0, n.sig = 0;
	if (ef == 2 * f->emax + 1) {
		n.cls = frac ? C_NAN : C_INF;
		return n;
	}
	if (ef == 0 && frac == 0) {
		n.cls = C_ZERO;
		return n;
	}
	n.cls = C_FIN;
	if (ef) {
		n.sig = frac | 1ull << f->m;
		n.exp = ef - f->emax - f->m;
	} else {                                  /* subnormal: normalize */
		int sh = f->m - msb64(frac);
		n.sig = frac << sh;
		n.exp = 1 - f->emax - f->m - sh;
	}
	return n;
}

INLINE uint64_t sgnbit(const Fmt *f, int sign) { return (uint64_t)sign << f->sbit; }

/* overflow: infinity when rounding to nearest or away from zero, else the largest finite */
INLINE uint64_t overflow(const Fmt *f, int sign, int md)
{
	int toinf = md == M_RN || (md == M_RP && !sign) || (md == M_RM && sign);

	return sgnbit(f, sign) | (toinf ? f->inf : f->inf - 1);
}

/* the signed zero of an exact zero sum of zeros of signs sa and sb */
INLINE uint64_t zero_sum(const Fmt *f, int sa, int sb, int md)
{
	return sgnbit(f, sa == sb ? sa : md == M_RM);
}

/* rounds (-1)^sign * sig * 2^exp (sig nonzero, below 2^63) to format f in direction md.
 * With s bits below the quantum, rounding is one addition before the shift: nothing toward
 * zero, 2^s - 1 away from zero, 2^(s-1) - 1 plus the kept lowest bit to nearest even (so a
 * tie rounds up only from an odd q). */
INLINE uint64_t round_pack(const Fmt *f, int sign, int exp, uint64_t sig, int md)
{
	int lead = exp + msb64(sig), qe, s;
	int qmin = 1 - f->emax - f->m;        /* exponent of the subnormal quantum */
	int away = md == (sign ? M_RM : M_RP);  /* rounding away from zero */
	uint64_t q, bits;

	if (lead > f->emax)
		return overflow(f, sign, md);
	qe = lead - f->m > qmin ? lead - f->m : qmin;   /* exponent of the result's quantum */
	s = qe - exp;                                   /* bits below the quantum */
	if (s <= 0) {
		q = sig << -s;                          /* exact */
	} else if (s < 64) {
		uint64_t low = (1ull << s) - 1, inc = 0;
		if (md == M_RN)
			inc = (low >> 1) + ((sig >> s) & 1);
		else if (away)
			inc = low;
		q = (sig + inc) >> s;
	} else {
		q = (uint64_t)away;                     /* sig < 2^63 is below half a quantum */
	}
	/* q is at most 2^(m+1); for a normal result the implicit bit adds one to the field */
	bits = ((uint64_t)(qe - qmin) << f->m) + q;
	if (bits >= f->inf)
		return overflow(f, sign, md);
	return sgnbit(f, sign) | bits;
}

/* round_pack of a 128-bit sig: its bits below the top 62 fold into a sticky bit (at least
 * eight bits below the rounding position of a 53-bit significand) */
INLINE uint64_t round_pack128(const Fmt *f, int sign, int exp, u128 sig, int md)
{
	uint64_t hi = (uint64_t)(sig >> 64), lo = (uint64_t)sig, top;
	int sh = msb128(sig) - 61, t = sh - 64, sticky;

	if (sh <= 0)
		return round_pack(f, sign, exp, lo, md);
	if (sh < 64) {
		top = hi << (64 - sh) | lo >> sh;
		sticky = lo << (64 - sh) != 0;
	} else {                                  /* sh is 64 or 65 */
		top = hi >> t;
		sticky = lo != 0 || (t && hi << (64 - t) != 0);
	}
	return round_pack(f, sign, exp + sh, top | (uint64_t)sticky, md);
}

/* (-1)^sa * a * 2^ea + (-1)^sb * b * 2^eb for finite nonzero terms whose highest bit is bit
 * w <= 52 (operands, or f32 fma's product and addend at bit 47). Both move to bit 61 (the
 * sum stays below 2^63); the one with the smaller exponent shifts right by d with a sticky
 * bit. Bits are lost only when d > 61 - w, and then b < 2^(w+1) <= 2^53 while a >= 2^61:
 * cancellation removes at most one leading bit, so the rounding position stays at bit
 * 60 - 52 = 8 or above, far from the sticky bit 0. Otherwise the sum is exact. */
INLINE uint64_t add_core(const Fmt *f, int sa, int ea, uint64_t a, int sb, int eb, uint64_t b,
                         int w, int md)
{
	int d;
	uint64_t sum;

	a <<= 61 - w, b <<= 61 - w;
	if (eb > ea || (eb == ea && b > a)) {     /* make a the larger magnitude */
		uint64_t t = a; a = b; b = t;
		int ti = ea; ea = eb; eb = ti;
		ti = sa; sa = sb; sb = ti;
	}
	d = ea - eb;
	if (d > 61)
		b = 1;
	else if (d > 0)
		b = (b >> d) | ((b & ((1ull << d) - 1)) != 0);
	sum = sa == sb ? a + b : a - b;
	if (sum == 0)
		return zero_sum(f, sa, sb, md);
	return round_pack(f, sa, ea - (61 - w), sum, md);
}

/* the same for f64 fma: the product (106 bits) and the addend with their highest bit at 105
 * move to bit 125, so bits are lost only when d > 20, and the rounding position then stays
 * at bit 72 or above */
INLINE uint64_t add_core128(const Fmt *f, int sa, int ea, u128 a, int sb, int eb, u128 b,
                            int md)
{
	int d;
	u128 sum;

	a <<= 20, b <<= 20;
	if (eb > ea || (eb == ea && b > a)) {
		u128 t = a; a = b; b = t;
		int ti = ea; ea = eb; eb = ti;
		ti = sa; sa = sb; sb = ti;
	}
	d = ea - eb;
	if (d > 125)
		b = 1;
	else if (d > 0)
		b = (b >> d) | ((b & (((u128)1 << d) - 1)) != 0);
	sum = sa == sb ? a + b : a - b;
	if (sum == 0)
		return zero_sum(f, sa, sb, md);
	return round_pack128(f, sa, ea - 20, sum, md);
}

INLINE uint64_t add(const Fmt *f, uint64_t a, uint64_t b, int md)
{
	Num x = unpack(f, a), y = unpack(f, b);

	if (x.cls != C_FIN || y.cls != C_FIN) {
		if (x.cls == C_NAN || y.cls == C_NAN)
			return f->qnan;
		if (x.cls == C_INF)
			return y.cls == C_INF && x.sign != y.sign ? f->qnan : a;
		if (y.cls == C_INF)
			return b;
		if (x.cls == C_ZERO)
			return y.cls == C_ZERO ? zero_sum(f, x.sign, y.sign, md) : b;
		return a;
	}
	return add_core(f, x.sign, x.exp, x.sig, y.sign, y.exp, y.sig, f->m, md);
}

/* the product of two finite nonzero operands is exact in 48 (f32) or 106 (f64) bits */
INLINE uint64_t mul(const Fmt *f, uint64_t a, uint64_t b, int md)
{
	Num x = unpack(f, a), y = unpack(f, b);
	int sign = x.sign ^ y.sign;

	if (x.cls != C_FIN || y.cls != C_FIN) {
		if (x.cls == C_NAN || y.cls == C_NAN)
			return f->qnan;
		if (x.cls == C_INF || y.cls == C_INF)
			return x.cls == C_ZERO || y.cls == C_ZERO ? f->qnan : sgnbit(f, sign) | f->inf;
		return sgnbit(f, sign);
	}
	if (f->m < 32)
		return round_pack(f, sign, x.exp + y.exp, x.sig * y.sig, md);
	return round_pack128(f, sign, x.exp + y.exp, (u128)x.sig * y.sig, md);
}

/* fma with a zero, infinite or NaN operand */
static uint64_t fma_special(const Fmt *f, uint64_t a, uint64_t b, uint64_t c, int md)
{
	Num x = unpack(f, a), y = unpack(f, b), z = unpack(f, c);
	int ps = x.sign ^ y.sign;

	if (x.cls == C_NAN || y.cls == C_NAN || z.cls == C_NAN)
		return f->qnan;
	if (x.cls == C_INF || y.cls == C_INF) {
		if (x.cls == C_ZERO || y.cls == C_ZERO || (z.cls == C_INF && z.sign != ps))
			return f->qnan;
		return sgnbit(f, ps) | f->inf;
	}
	if (z.cls == C_INF)
		return c;
	if (x.cls == C_ZERO || y.cls == C_ZERO)
		return z.cls == C_ZERO ? zero_sum(f, ps, z.sign, md) : c;
	return mul(f, a, b, md);                   /* a nonzero product plus zero: its rounding */
}

/* a*b + c with one rounding: the exact product is one term of the sum */
INLINE uint64_t fma3(const Fmt *f, uint64_t a, uint64_t b, uint64_t c, int md)
{
	Num x = unpack(f, a), y = unpack(f, b), z = unpack(f, c);
	int ps = x.sign ^ y.sign;

	if (x.cls != C_FIN || y.cls != C_FIN || z.cls != C_FIN)
		return fma_special(f, a, b, c, md);
	if (f->m < 32) {                           /* the 48-bit product fits add_core */
		uint64_t p = x.sig * y.sig;            /* highest bit 46 or 47: make it 47 */
		int e = x.exp + y.exp - !(p >> 47);
		return add_core(f, ps, e, p << !(p >> 47), z.sign, z.exp - 24, z.sig << 24, 47, md);
	} else {
		u128 p = (u128)x.sig * y.sig;          /* highest bit 104 or 105: make it 105 */
		int e = x.exp + y.exp - !(p >> 105);
		return add_core128(f, ps, e, p << !(p >> 105), z.sign, z.exp - 53,
		                   (u128)z.sig << 53, md);
	}
}

/* floor(t) for |t| < 2^62 (the loops below then rarely run: no branch mispredictions) */
INLINE int64_t ifloor(double t)
{
	int64_t i = (int64_t)t;

	return i - (t < (double)i);
}

/* floor((a << sh) / d) and its remainder for normalized significands a and d (n = a << sh
 * below 2^113, the quotient below 2^61) without an integer division, which is slow on
 * x86-64: a and d are exact as doubles, and the host's reciprocal of d times a (two
 * roundings, each within an ulp whatever the host's rounding mode: under 2^-51 relative in
 * all) estimates the quotient within 2^10 + 1; the remainder of that estimate (at most
 * n * 2^-51 + d < 2^62 + 2^53 in magnitude) times the reciprocal corrects it to within one;
 * the integer loops make it exact. */
INLINE uint64_t divsig(uint64_t a, int sh, uint64_t d, uint64_t *rem)
{
	u128 n = (u128)a << sh;
	double inv = 1.0 / (double)d;
	uint64_t q = (uint64_t)((double)a * inv * (double)(1ull << sh));
	int64_t r = (int64_t)(uint64_t)(n - (u128)q * d);

	q += (uint64_t)ifloor((double)r * inv);
	r = (int64_t)(uint64_t)(n - (u128)q * d);
	while (r < 0)
		q--, r += (int64_t)d;
	while ((uint64_t)r >= d)
		q++, r -= (int64_t)d;
	*rem = (uint64_t)r;
	return q;
}

/* the quotient of normalized significands scaled to 39 (f32) or 60 (f64) bits at least,
 * three more than the significand, then a sticky bit for the remainder */
INLINE uint64_t quot(const Fmt *f, uint64_t a, uint64_t b, int md)
{
	Num x = unpack(f, a), y = unpack(f, b);
	int sign = x.sign ^ y.sign, sh;
	uint64_t q, rem;

	if (x.cls != C_FIN || y.cls != C_FIN) {
		if (x.cls == C_NAN || y.cls == C_NAN || x.cls == y.cls)
			return f->qnan;                /* NaN, inf/inf, 0/0 */
		if (x.cls == C_INF || y.cls == C_ZERO)
			return sgnbit(f, sign) | f->inf;
		return sgnbit(f, sign);            /* 0/x, x/inf */
	}
	sh = f->m < 32 ? 39 : 60;
	q = divsig(x.sig, sh, y.sig, &rem);
	return round_pack(f, sign, x.exp - y.exp - sh - 1, q << 1 | (rem != 0), md);
}

/* sqrt(sig * 2^exp): exp is made even, then r = floor(sqrt(v)) for v = sig << 2k has m + 1
 * bits (k = 12 for f32, 26 for f64). The host's sqrt of sig (exact in a double) scaled by
 * 2^k is within one unit of sqrt(v) whatever the host's rounding mode, and the integer
 * loops make it exact. With e = v - r^2 (at most 2r), the root lies in [r, r + 1/2) when
 * e <= r, in (r + 1/2, r + 1) otherwise (never at r + 1/2: v is an integer), and is exact
 * when e = 0: 4r + 2[e > r] + [e != 0] carries the round and sticky bits. */
INLINE uint64_t sqrt1(const Fmt *f, uint64_t a, int md)
{
	Num x = unpack(f, a);
	int k = f->m < 32 ? 12 : 26;
	uint64_t r, e;
	u128 v, rr;

	if (x.cls == C_NAN || (x.sign && x.cls != C_ZERO))
		return f->qnan;
	if (x.cls != C_FIN)
		return a;                          /* +-0, +inf */
	if (x.exp & 1)
		x.sig <<= 1, x.exp--;
	v = (u128)x.sig << 2 * k;
	r = (uint64_t)(__builtin_sqrt((double)x.sig) * (double)(1ull << k));
	rr = (u128)r * r;
	while (rr > v)                         /* (r - 1)^2 = r^2 - 2r + 1 */
		rr -= 2 * (u128)r - 1, r--;
	while (rr + 2 * (u128)r + 1 <= v)
		rr += 2 * (u128)r + 1, r++;
	e = (uint64_t)(v - rr);
	return round_pack(f, 0, (x.exp - 2 * k) / 2 - 2, r << 2 | (uint64_t)(e > r) << 1 | (e != 0), md);
}

uint32_t ar_sf_f32_add(uint32_t a, uint32_t b, Rnd r) { return (uint32_t)add(&F32, a, b, dir(r)); }
uint32_t ar_sf_f32_mul(uint32_t a, uint32_t b, Rnd r) { return (uint32_t)mul(&F32, a, b, dir(r)); }
uint32_t ar_sf_f32_div(uint32_t a, uint32_t b, Rnd r) { return (uint32_t)quot(&F32, a, b, dir(r)); }
uint32_t ar_sf_f32_sqrt(uint32_t a, Rnd r) { return (uint32_t)sqrt1(&F32, a, dir(r)); }
uint32_t ar_sf_f32_fma(uint32_t a, uint32_t b, uint32_t c, Rnd r)
{
	return (uint32_t)fma3(&F32, a, b, c, dir(r));
}
uint64_t ar_sf_f64_add(uint64_t a, uint64_t b, Rnd r) { return add(&F64, a, b, dir(r)); }
uint64_t ar_sf_f64_mul(uint64_t a, uint64_t b, Rnd r) { return mul(&F64, a, b, dir(r)); }
uint64_t ar_sf_f64_div(uint64_t a, uint64_t b, Rnd r) { return quot(&F64, a, b, dir(r)); }
uint64_t ar_sf_f64_sqrt(uint64_t a, Rnd r) { return sqrt1(&F64, a, dir(r)); }
uint64_t ar_sf_f64_fma(uint64_t a, uint64_t b, uint64_t c, Rnd r)
{
	return fma3(&F64, a, b, c, dir(r));
}

/* ---------------------------------------------------------------- conversions */
static uint64_t from_int(const Fmt *f, int neg, uint64_t mag, Rnd r)
{
	if (mag >> 63)                            /* bit 0 becomes a sticky bit */
		return round_pack(f, neg, 1, mag >> 1 | (mag & 1), dir(r));
	return mag ? round_pack(f, neg, 0, mag, dir(r)) : 0;
}

uint32_t ar_sf_i64_to_f32(int64_t v, Rnd r)
{
	return (uint32_t)from_int(&F32, v < 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, r);
}

uint32_t ar_sf_u64_to_f32(uint64_t v, Rnd r) { return (uint32_t)from_int(&F32, 0, v, r); }

uint64_t ar_sf_i64_to_f64(int64_t v, Rnd r)
{
	return from_int(&F64, v < 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, r);
}

uint64_t ar_sf_u64_to_f64(uint64_t v, Rnd r) { return from_int(&F64, 0, v, r); }

uint32_t ar_sf_f64_to_f32(uint64_t a, Rnd r)
{
	Num x = unpack(&F64, a);

	switch (x.cls) {
	case C_NAN: return (uint32_t)F32.qnan;
	case C_INF: return (uint32_t)(sgnbit(&F32, x.sign) | F32.inf);
	case C_ZERO: return (uint32_t)sgnbit(&F32, x.sign);
	case C_FIN: break;
	}
	return (uint32_t)round_pack(&F32, x.sign, x.exp, x.sig, dir(r));
}
