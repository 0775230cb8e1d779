/* ialu.c - integer and bit-field semantics of the oracle, written from the PTX ISA manual's
 * pseudo-code independently of arith/alu.c (so the differential test compares two readings of
 * the manual). Values travel in uint64_t containers; bits is the operation width.
 *
 * Choices where PTX leaves a result unspecified (docs/oracle.md): unsigned x / 0 is all ones
 * and x % 0 is x; signed division divides the magnitudes with that rule and negates the
 * quotient when the signs differ (so x / 0 is -1 for x >= 0 and 1 for x < 0, INT_MIN / -1 is
 * INT_MIN) and gives the remainder the sign of the dividend (x % 0 is x, INT_MIN % -1 is 0). */
#include "oracle/internal.h"

uint64_t or_zext(uint64_t v, int bits)
{
	return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

uint64_t or_sext(uint64_t v, int bits)
{
	if (bits >= 64)
		return v;
	v = or_zext(v, bits);
	return (v >> (bits - 1)) & 1 ? v | ~0ull << bits : v;
}

/* the high half of the 2*bits product */
uint64_t or_mulhi(uint64_t a, uint64_t b, int bits, int sign)
{
	if (bits < 64) {
		uint64_t p;
		if (sign)
			p = (uint64_t)((int64_t)or_sext(a, bits) * (int64_t)or_sext(b, bits));
		else
			p = or_zext(a, bits) * or_zext(b, bits);
		return or_zext(p >> bits, bits);
	}
	{
		/* 64 x 64: schoolbook on 32-bit halves, then the signed correction */
		uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
		uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
		uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
		uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
		if (sign) {
			if ((int64_t)a < 0)
				hi -= b;
			if ((int64_t)b < 0)
				hi -= a;
		}
		return hi;
	}
}

static uint64_t udiv(uint64_t a, uint64_t b, int bits)
{
	return b ? a / b : or_zext(~0ull, bits);
}

static uint64_t uabs(uint64_t v, int bits)
{
	v = or_sext(v, bits);
	return or_zext((int64_t)v < 0 ? 0 - v : v, bits);
}

uint64_t or_div(uint64_t a, uint64_t b, int bits, int sign)
{
	uint64_t q;
	int neg;

	if (!sign)
		return udiv(or_zext(a, bits), or_zext(b, bits), bits);
	neg = ((int64_t)or_sext(a, bits) < 0) != ((int64_t)or_sext(b, bits) < 0);
	q = udiv(uabs(a, bits), uabs(b, bits), bits);
	return or_zext(neg ? 0 - q : q, bits);
}

uint64_t or_rem(uint64_t a, uint64_t b, int bits, int sign)
{
	uint64_t ua, ub, r;

	if (!sign) {
		ua = or_zext(a, bits), ub = or_zext(b, bits);
		return ub ? ua % ub : ua;
	}
	ua = uabs(a, bits), ub = uabs(b, bits);
	r = ub ? ua % ub : ua;
	return or_zext((int64_t)or_sext(a, bits) < 0 ? 0 - r : r, bits);
}

/* bfe: the manual's loop, d[i] = (i < len && pos + i <= msb) ? a[pos + i] : sbit */
static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, int sign, uint32_t msb)
{
	uint64_t d = 0, sbit;

	pos &= 0xff, len &= 0xff;
	if (!sign || len == 0)
		sbit = 0;
	else
		sbit = (a >> (pos + len - 1 < msb ? pos + len - 1 : msb)) & 1;
	for (uint32_t i = 0; i <= msb; i++) {
		uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
		d |= bit << i;
	}
	return d;
}

uint64_t or_bfe64(uint64_t a, uint32_t pos, uint32_t len, int sign)
{
	return bfe(a, pos, len, sign, 63);
}

uint32_t or_bfe32(uint32_t a, uint32_t pos, uint32_t len, int sign)
{
	return (uint32_t)bfe(a, pos, len, sign, 31);
}

/* bfi: f = b; f[pos + i] = a[i] for i < len && pos + i <= msb */
uint64_t or_bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, int bits)
{
	uint32_t msb = bits - 1;
	uint64_t f = b;

	pos &= 0xff, len &= 0xff;
	for (uint32_t i = 0; i < len && pos + i <= msb; i++)
		f = (f & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
	return or_zext(f, bits);
}

/* prmt: bytes 0..7 of {b, a}; the mode tables of the manual */
uint32_t or_prmt(uint32_t a, uint32_t b, uint32_t c, int mode)
{
	static const uint8_t tab[6][4][4] = {  /* [mode-1][c&3][byte 0..3 of d] */
		{{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  /* f4e */
		{{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  /* b4e */
		{{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  /* rc8 */
		{{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  /* ecl */
		{{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  /* ecr */
		{{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  /* rc16 */
	};
	uint64_t src = (uint64_t)b << 32 | a;
	uint32_t d = 0;

	for (int i = 0; i < 4; i++) {
		uint32_t byte;
		if (mode == PPRMT_NONE) {
			uint32_t ctl = (c >> (4 * i)) & 0xf;
			byte = (src >> (8 * (ctl & 7))) & 0xff;
			if (ctl & 8)
				byte = (byte & 0x80) ? 0xff : 0;
		} else
			byte = (src >> (8 * tab[mode - 1][c & 3][i])) & 0xff;
		d |= byte << (8 * i);
	}
	return d;
}

/* shf: funnel shift of b:a (b high); .clamp limits the amount to 32, .wrap takes it mod 32 */
uint32_t or_shf(uint32_t a, uint32_t b, uint32_t c, int right, int clamp)
{
	uint32_t n = clamp ? (c > 32 ? 32 : c) : (c & 31);
	uint64_t x = (uint64_t)b << 32 | a;

	if (right)
		return (uint32_t)(n == 32 ? b : x >> n);
	return (uint32_t)(n == 32 ? a : (x << n) >> 32);
}

uint32_t or_popc(uint64_t a)
{
	uint32_t n = 0;

	for (; a; a &= a - 1)
		n++;
	return n;
}

uint32_t or_clz(uint64_t a, int bits)
{
	uint32_t n = 0;

	for (int i = bits - 1; i >= 0 && !((a >> i) & 1); i--)
		n++;
	return n;
}

/* bfind: position of the most significant non-sign bit, 0xffffffff when none */
uint32_t or_bfind(uint64_t a, int bits, int sign, int shiftamt)
{
	uint32_t d = 0xffffffffu;

	a = or_zext(a, bits);
	if (sign && ((a >> (bits - 1)) & 1))
		a = or_zext(~a, bits);
	for (int i = bits - 1; i >= 0; i--)
		if ((a >> i) & 1) {
			d = i;
			break;
		}
	if (shiftamt && d != 0xffffffffu)
		d = bits - 1 - d;
	return d;
}

uint64_t or_brev(uint64_t a, int bits)
{
	uint64_t d = 0;

	for (int i = 0; i < bits; i++)
		d |= ((a >> i) & 1) << (bits - 1 - i);
	return d;
}

/* fns: the bit position of the offset-th set bit of mask counting from base (forward for a
 * non-negative offset, backward for a negative one), 0xffffffff when there is none. A base
 * above 31 is undefined in the PTX ISA: none, as in ptxas 11.8's code (its mask of the bits
 * from base on is ~0 << base by a clamping shift, 0 there) */
uint32_t or_fns(uint32_t mask, uint32_t base, int32_t offset)
{
	int pos = (int)base;

	if (base > 31)
		return 0xffffffffu;
	if (offset == 0)
		return ((mask >> pos) & 1) ? (uint32_t)pos : 0xffffffffu;
	if (offset > 0) {
		for (int i = pos; i < 32; i++)
			if (((mask >> i) & 1) && --offset == 0)
				return i;
	} else {
		for (int i = pos; i >= 0; i--)
			if (((mask >> i) & 1) && ++offset == 0)
				return i;
	}
	return 0xffffffffu;
}


/* lop3: bit i of d is bit (a[i] << 2 | b[i] << 1 | c[i]) of lut */
uint32_t or_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
	uint32_t d = 0;

	for (int i = 0; i < 32; i++) {
		int idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
		d |= ((lut >> idx) & 1u) << i;
	}
	return d;
}

/* vadd ... vset4 (PTX ISA, "Scalar Video Instructions" and "SIMD Video Instructions"): the
 * instruction's types, comparison and secondary operation for arith's ar_video (vset's
 * destination is unsigned) */
uint32_t or_video(const PIns *in, uint32_t a, uint32_t b, uint32_t c)
{
	int vset = in->op == PO_VSET2 || in->op == PO_VSET4 || in->op == PO_VSET;
	ArVideo v = {
		.elems = (uint8_t)ptx_video_elems(in->op),
		.as = in->m.types[vset ? 0 : 1] == PT_S32, .bs = in->m.types[vset ? 1 : 2] == PT_S32,
		.ds = !vset && in->m.types[0] == PT_S32, .sat = !!(in->m.flags & PMF_SAT),
		.second = in->m.aop == PAOP_ADD ? AV_ACC : in->m.aop == PAOP_MIN ? AV_SMIN :
		          in->m.aop == PAOP_MAX ? AV_SMAX : AV_MERGE,
	};

	switch ((int)in->op) {
	case PO_VADD: case PO_VADD2: case PO_VADD4: v.op = AV_ADD; break;
	case PO_VSUB: case PO_VSUB2: case PO_VSUB4: v.op = AV_SUB; break;
	case PO_VAVRG2: case PO_VAVRG4: v.op = AV_AVRG; break;
	case PO_VABSDIFF: case PO_VABSDIFF2: case PO_VABSDIFF4: v.op = AV_ABSDIFF; break;
	case PO_VMIN: case PO_VMIN2: case PO_VMIN4: v.op = AV_MIN; break;
	case PO_VMAX: case PO_VMAX2: case PO_VMAX4: v.op = AV_MAX; break;
	case PO_VSHL: v.op = AV_SHL; v.wrap = !!(in->m.flags & PMF_WRAP); break;
	case PO_VSHR: v.op = AV_SHR; v.wrap = !!(in->m.flags & PMF_WRAP); break;
	case PO_VSET: case PO_VSET2: case PO_VSET4:
		v.op = AV_SET;
		switch ((int)in->m.cmp) {
		case PCMP_EQ: v.cmp = CMP_EQ; break;
		case PCMP_NE: v.cmp = CMP_NE; break;
		case PCMP_LT: v.cmp = CMP_LT; break;
		case PCMP_LE: v.cmp = CMP_LE; break;
		case PCMP_GT: v.cmp = CMP_GT; break;
		default: v.cmp = CMP_GE; break;
		}
		break;
	default:
		die("not a video op");
	}
	return ar_video(&v, a, b, c);
}

/* vmad (PTX ISA, "vmad"): the operands' negations and the instruction's types, .po, scale
 * and .sat for arith's ar_vmad (the SM model's VMAD computes the same) */
uint32_t or_vmad(const PIns *in, uint32_t a, uint32_t b, uint32_t c)
{
	ArVmad v = {
		.as = in->m.types[1] == PT_S32, .bs = in->m.types[2] == PT_S32,
		.na = !!(in->o[1].flags & POF_NEG), .nb = !!(in->o[2].flags & POF_NEG),
		.nc = !!(in->o[3].flags & POF_NEG), .po = !!(in->m.flags & PMF_PO),
		.shr = in->m.shr, .sat = !!(in->m.flags & PMF_SAT),
	};
	int pos, len;

	/* a selected byte or half, extended by its type, is the same number as a 32-bit value */
	ptx_vsel_field(in->o[1].vsel, &pos, &len);
	a = ar_vsel(a, pos, len, v.as);
	ptx_vsel_field(in->o[2].vsel, &pos, &len);
	b = ar_vsel(b, pos, len, v.bs);
	return ar_vmad(&v, a, b, c);
}
