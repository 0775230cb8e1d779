/* video.c - the video instructions, one definition for the PTX oracle (vadd ... vset4) and
 * the SM model (Kepler's VADD, VABSDIFF, VMNMX, VSET and their 2- and 4-element forms).
 * PTX ISA, "Scalar Video Instructions" and "SIMD Video Instructions", with the default
 * selectors (a.b3210/.h10, b.b7654/.h32) and mask (.b3210/.h10): per element of w bits, a's
 * and b's elements extended by their own signedness, t = a op b exactly, .sat clamps t to the
 * destination element's range; .add: d = c + the sum of the t, else d = the t's low w bits in
 * their places. A scalar op (one 32-bit element: 33-bit inputs, t exact) may instead take
 * the min or max of t and c extended by the destination type; d is the low 32 bits.
 * vshl/vshr shift a (extended by its type) by b, an unsigned 32-bit value clamped at 32
 * (.clamp) or taken mod 32 (.wrap), arithmetically when a is signed; then .sat and the
 * secondary operation as the others.
 * vmad: (a * b) + c on the exact 128-bit values of the manual's pseudocode (ar_vmad).
 */
#include "arith/arith.h"

__extension__ typedef __int128 i128;

static int64_t ext(uint32_t v, int w, int sign)
{
	uint64_t m = w == 32 ? 0xffffffffu : (1u << w) - 1, x = v & m;

	return sign && (x >> (w - 1) & 1) ? (int64_t)(x | ~m) : (int64_t)x;
}

static int64_t apply(const ArVideo *v, int64_t a, int64_t b)
{
	switch ((ArVideoOp)v->op) {
	case AV_ADD: return a + b;
	case AV_SUB: return a - b;
	case AV_AVRG: return a + b >= 0 ? (a + b + 1) >> 1 : (a + b) >> 1;   /* >> of a negative: floor */
	case AV_ABSDIFF: return a > b ? a - b : b - a;
	case AV_MIN: return a < b ? a : b;
	case AV_MAX: return a > b ? a : b;
	case AV_SHL: case AV_SHR: {
		/* b is unsigned (bs 0); a of 33 bits shifted by at most 32 fits in 64 */
		int64_t n = v->wrap ? b & 31 : b > 32 ? 32 : b;
		return v->op == AV_SHL ? (int64_t)((uint64_t)a << n) : a >> n;
	}
	case AV_SET:
		switch ((int)v->cmp) {
		case CMP_EQ: return a == b;
		case CMP_NE: return a != b;
		case CMP_LT: return a < b;
		case CMP_LE: return a <= b;
		case CMP_GT: return a > b;
		default: return a >= b;
		}
	}
	return 0;
}

uint32_t ar_video(const ArVideo *v, uint32_t a, uint32_t b, uint32_t c)
{
	int n = v->elems, w = 32 / n;
	int64_t lo = v->ds ? -(1ll << (w - 1)) : 0, hi = v->ds ? (1ll << (w - 1)) - 1 : (1ll << w) - 1;
	uint32_t d = v->second == AV_ACC ? c : 0;

	for (int i = 0; i < n; i++) {
		int64_t t = apply(v, ext(a >> (w * i), w, v->as), ext(b >> (w * i), w, v->bs));
		if (v->sat)
			t = t < lo ? lo : t > hi ? hi : t;
		if (n == 1 && (v->second == AV_SMIN || v->second == AV_SMAX)) {
			int64_t vc = ext(c, 32, v->ds);
			return (uint32_t)(v->second == AV_SMIN ? (t < vc ? t : vc) : (t > vc ? t : vc));
		}
		if (v->second == AV_ACC)
			d += (uint32_t)t;
		else
			d |= (uint32_t)((uint64_t)t & (w == 32 ? 0xffffffffu : (1u << w) - 1)) << (w * i);
	}
	return d;
}

uint32_t ar_vsel(uint32_t v, int pos, int len, int sign)
{
	return (uint32_t)ext(v >> pos, len, sign);
}

/* PTX ISA "vmad": ta, tb extended by their types; the final result is signed when a or b is
 * or a negation is given; tmp = ta * tb, then .po adds 1, a negated product is ~tmp + 1,
 * else a negated c is ~c + 1 (the manual's order: a negated product leaves c as it is); c is
 * extended by the final signedness; the sum shifted right by the scale (arithmetically: a
 * signed sum may be negative), then .sat clamps the exact value to the final type's range */
uint32_t ar_vmad(const ArVmad *v, uint32_t a, uint32_t b, uint32_t c)
{
	int sf = v->as || v->bs || (v->na ^ v->nb) || v->nc, lsb = 0;
	i128 ta = v->as ? (i128)(int32_t)a : (i128)a, tb = v->bs ? (i128)(int32_t)b : (i128)b;
	i128 tmp = ta * tb, tc;

	if (v->po)
		lsb = 1;
	else if (v->na ^ v->nb)
		tmp = ~tmp, lsb = 1;
	else if (v->nc)
		c = ~c, lsb = 1;
	tc = sf ? (i128)(int32_t)c : (i128)c;
	tmp = tmp + tc + lsb;
	tmp >>= v->shr;
	if (v->sat) {
		i128 lo = sf ? INT32_MIN : 0, hi = sf ? INT32_MAX : UINT32_MAX;
		tmp = tmp < lo ? lo : tmp > hi ? hi : tmp;
	}
	return (uint32_t)tmp;
}
