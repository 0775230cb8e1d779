/* exec_alu.c - the ALU ops of sim_issue that take more than a line: IADD and IMUL/IMAD
 * with source modifiers, saturation and the condition code (docs/isa.md, section 4), the
 * integer and float compares of ISET/ISETP/FSETP/DSETP as lane masks, and the conversions.
 * Their common forms run over whole warps (lanes.h); the decode-time handlers of the hot
 * ops are in handlers.c. */
#include "sim/lanes.h"

void sim_imul(Gpu *g, Warp *w, const DIns *d, uint32_t ex, int mad)
{
	Type ta = itype(d), tb = d->m.stype ? (Type)d->m.stype : ta;
	int hi = !!(d->m.flags & MF_HI), wide = !!(d->m.flags & MF_WIDE);
	int x = !!(d->m.flags & MF_X), cc = !!(d->m.flags & MF_CC);

	/* a negated factor (Kepler's IMAD -a, b, c) negates the product; in the sum it counts as
	 * ~product with a carry-in of 1 on the low word, as IADD counts -x (docs/isa.md) */
	int neg = ((d->o[1].flags ^ d->o[2].flags) & OPF_NEG) != 0;

	FOR_LANES(ex) {
		uint32_t a = src(g, w, &d->o[1], l);
		uint32_t b = src(g, w, &d->o[2], l);
		int64_t sa = issgn(ta) ? (int64_t)(int32_t)a : (int64_t)a;
		int64_t sb = issgn(tb) ? (int64_t)(int32_t)b : (int64_t)b;
		uint64_t p = (uint64_t)sa * (uint64_t)sb, c = 0, r;
		unsigned old = (x || cc) ? ccof(w, l) : 0, f = 0;
		if (neg && (!mad || wide))
			p = 0 - p;
		if (!mad) {
			REG(d->o[0].reg, l) = hi ? (uint32_t)(p >> 32) : (uint32_t)p;
			continue;
		}
		if (wide) {
			c = dmods(src64(g, w, &d->o[3], l), 0);
			if (d->o[3].flags & OPF_NEG) c = -c;
			uint64_t s1 = p + c, cin = x && (old & CC_C);
			int carry = s1 < p;
			r = s1 + cin;
			carry |= r < s1;
			wr64(w, &d->o[0], l, r);
			if (cc) {
				f = (r >> 63 ? CC_S : 0) | (carry ? CC_C : 0) |
				    (r == 0 && (!x || (old & CC_Z)) ? CC_Z : 0) |
				    (((p ^ r) & (c ^ r)) >> 63 ? CC_O : 0);
				setcc(w, l, f);
			}
			continue;
		}
		{
			uint32_t m = hi ? (uint32_t)(p >> 32) : (uint32_t)p, cv = src(g, w, &d->o[3], l), ci = 0;
			uint64_t sum;
			if (neg)
				m = ~m, ci = !hi;
			if (d->o[3].flags & OPF_NEG) cv = ~cv, ci = 1;
			if (x)
				ci += !!(old & CC_C);
			sum = (uint64_t)m + cv + ci;
			REG(d->o[0].reg, l) = (uint32_t)sum;
			if (cc)
				setcc(w, l, addflags(m, cv, sum, x, old));
		}
	}
}


static void cmp32(const uint32_t *a, const uint32_t *b, uint32_t bimm, int sg, uint32_t *lt, uint32_t *eq)
{
	(sim_hw_avx2 ? cmp32_8 : cmp32_4)(a, b, bimm, sg, lt, eq);
}

static void add32(uint32_t *d, const uint32_t *a, const uint32_t *b, uint32_t bimm)
{
	(sim_hw_avx2 ? add32_8 : add32_4)(d, a, b, bimm);
}

/* IADD's general form, lane by lane (.X, .CC, .SAT, operand modifiers, constants); kept out
 * of sim_iadd so that its common forms need no large frame */
static __attribute__((noinline)) void iadd_lanes(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	const DOpd *a = &d->o[1], *b = &d->o[2];
	int x = !!(d->m.flags & MF_X), cc = !!(d->m.flags & MF_CC), sat = !!(d->m.flags & MF_SAT);

	FOR_LANES(ex) {
		uint32_t u = src(g, w, a, l), v = src(g, w, b, l), ci = 0, r;
		uint64_t sum;
		unsigned old = (x || cc) ? ccof(w, l) : 0;
		if (a->flags & OPF_NOT) u = ~u;
		if (b->flags & OPF_NOT) v = ~v;
		/* -a = ~a + 1: the 1 enters as carry; with .X the carry in is CC.C alone (Kepler's
		 * IADD.X d, -a, b is b - a - borrow, the high word of a subtraction) */
		if (a->flags & OPF_NEG) u = ~u, ci += !x;
		if (b->flags & OPF_NEG) v = ~v, ci += !x;
		if (x)
			ci += !!(old & CC_C);
		sum = (uint64_t)u + v + ci;
		r = (uint32_t)sum;
		if (sat) {
			int64_t s = (int64_t)(int32_t)u + (int32_t)v + ci;
			r = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? (uint32_t)INT32_MIN : (uint32_t)s;
		}
		REG(d->o[0].reg, l) = r;
		if (cc)
			setcc(w, l, addflags(u, v, sum, x, old));
	}
}

void sim_iadd(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	const DOpd *a = &d->o[1], *b = &d->o[2];

	if (!(d->m.flags & (MF_X | MF_CC | MF_SAT)) && !a->flags && !b->flags && a->kind == DK_REG) {
		uint32_t *rd = ROW(d->o[0]);
		const uint32_t *ra = &REG(a->reg, 0);
		if (b->kind == DK_IMM) {               /* the common forms, without per-lane tests */
			uint32_t im = (uint32_t)b->imm;
			if (ex == ~0u)                     /* every lane, several at a time */
				add32(rd, ra, NULL, im);
			else
				FOR_LANES(ex) rd[l] = ra[l] + im;
			return;
		}
		if (b->kind == DK_REG) {
			const uint32_t *rb = &REG(b->reg, 0);
			if (ex == ~0u)
				add32(rd, ra, rb, 0);
			else
				FOR_LANES(ex) rd[l] = ra[l] + rb[l];
			return;
		}
	}
	iadd_lanes(g, w, d, ex);
}


/* ISETP/ISET: the compare of a and b as lane mask; .X extends a compare begun by IADD.CC on
 * the low words (the borrow is !CC.C, equality needs CC.Z) */
uint32_t sim_icmpmask(Gpu *g, Warp *w, const DIns *d, uint32_t ex, int ai, int bi)
{
	Type t = itype(d);
	int wide = is64(t), x = !!(d->m.flags & MF_X);
	uint32_t m = 0;

	if (!wide && !x && !d->o[ai].flags && !d->o[bi].flags) {
		unsigned tt = d->m.cmp < CMP_COUNT ? truth[d->m.cmp] : 0;
		int sg = issgn(t) || t == TY_NONE;
		const DOpd *oa = &d->o[ai], *ob = &d->o[bi];
		if (oa->kind == DK_REG && ob->kind != DK_CONSTX) {
			/* every lane at once, four at a time (lanes outside ex are masked off after) */
			uint32_t mlt, meq;
			cmp32(&REG(oa->reg, 0), ob->kind == DK_REG ? &REG(ob->reg, 0) : NULL, (uint32_t)ob->imm,
			      sg, &mlt, &meq);
			m = ((tt & 1) ? mlt : 0) | ((tt & 2) ? meq : 0) | ((tt & 4) ? ~(mlt | meq) : 0);
			return m & ex;
		}
		FOR_LANES(ex) {
			uint32_t a = src(g, w, &d->o[ai], l), b = src(g, w, &d->o[bi], l);
			int lt = sg ? (int32_t)a < (int32_t)b : a < b;
			unsigned k = lt ? 1 : a == b ? 2 : 4;
			m |= (uint32_t)((tt & k) != 0) << l;
		}
		return m;
	}
	FOR_LANES(ex) {
		uint64_t a = wide ? src64(g, w, &d->o[ai], l) : imods(src(g, w, &d->o[ai], l), d->o[ai].flags);
		uint64_t b = wide ? src64(g, w, &d->o[bi], l) : imods(src(g, w, &d->o[bi], l), d->o[bi].flags);
		int r;
		if (x) {
			unsigned f = ccof(w, l);
			int borrow = !(f & CC_C), hieq = (uint32_t)a == (uint32_t)b;
			int lt = ar_icmp(CMP_LT, t, a, b) || (hieq && borrow);
			int eq = hieq && (f & CC_Z);
			switch ((Cmp)d->m.cmp) {
			case CMP_LT: case CMP_LTU: r = lt; break;
			case CMP_EQ: case CMP_EQU: r = eq; break;
			case CMP_LE: case CMP_LEU: r = lt || eq; break;
			case CMP_GT: case CMP_GTU: r = !lt && !eq; break;
			case CMP_NE: case CMP_NEU: r = !eq; break;
			case CMP_GE: case CMP_GEU: r = !lt; break;
			case CMP_T: case CMP_NUM: r = 1; break;
			case CMP_F: case CMP_NAN: case CMP_NONE: case CMP_COUNT: default: r = 0; break;
			}
		} else
			r = ar_icmp((Cmp)d->m.cmp, t, a, b);
		m |= (uint32_t)r << l;
	}
	return m;
}


/* FSETP/DSETP/FSET: float compare as a lane mask */
uint32_t sim_fcmpmask(Gpu *g, Warp *w, const DIns *d, uint32_t ex, int dbl)
{
	uint32_t m = 0;
	int ftz = !!(d->m.flags & MF_FTZ);

	FOR_LANES(ex) {
		int r = dbl ? ar_fcmp64((Cmp)d->m.cmp, dmods(src64(g, w, &d->o[2], l), d->o[2].flags),
		                         dmods(src64(g, w, &d->o[3], l), d->o[3].flags))
		            : ar_fcmp32((Cmp)d->m.cmp, fmods(src(g, w, &d->o[2], l), d->o[2].flags),
		                         fmods(src(g, w, &d->o[3], l), d->o[3].flags), ftz);
		m |= (uint32_t)r << l;
	}
	return m;
}

/* conversions: default types per op */
void sim_cvt(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	Type dt = (Type)d->m.dtype, st = (Type)d->m.stype;
	int ftz = !!(d->m.flags & MF_FTZ), sat = !!(d->m.flags & MF_SAT);

	if (d->op == OP_F2I) {
		dt = dt ? dt : TY_S32, st = st ? st : TY_F32;
	} else if (d->op == OP_I2F) {
		dt = dt ? dt : TY_F32, st = st ? st : TY_S32;
	} else if (d->op == OP_F2F) {
		dt = dt ? dt : TY_F32, st = st ? st : dt;
	} else
		dt = dt ? dt : TY_S32, st = st ? st : TY_S32;
	/* an 8- or 16-bit source: the byte or half-word its selector names (ptxas's listings:
	 * I2F.F32.U8 R6, R4.B1; F2F.F32.F16 R7, R4.H1), .B0/.H0 when none */
	int sel = (d->o[1].flags & OPF_SEL) >> OPF_SEL_SHIFT;
	int pos = sel >= 5 ? 16 * (sel - 5) : sel ? 8 * (sel - 1) : 0;

	FOR_LANES(ex) {
		uint64_t v = is64(st) ? src64(g, w, &d->o[1], l) : src(g, w, &d->o[1], l) >> pos;
		const DOpd *o = &d->o[1];
		if (st == TY_F64) v = dmods(v, o->flags);
		else if (st == TY_F32) v = fmods((uint32_t)v, o->flags);
		else if (st == TY_F16) v = (v & 0xffff) ^ ((o->flags & OPF_NEG) ? 0x8000 : 0);
		else if (!is64(st)) v = imods((uint32_t)v, o->flags);
		/* F2I with no rounding modifier rounds to nearest (docs/isa.md; Kepler's default) */
		v = ar_cvt(dt, st, d->op == OP_F2I && !d->m.rnd ? RND_ROUND : (Rnd)d->m.rnd, ftz, sat, v);
		if (is64(dt))
			wr64(w, &d->o[0], l, v);
		else
			REG(d->o[0].reg, l) = dt == TY_F16 ? (uint32_t)(v & 0xffff) : (uint32_t)v;
	}
}
