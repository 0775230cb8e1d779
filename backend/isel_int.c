/* isel_int.c - instruction selection of integer arithmetic (add/sub with carry chains,
 * mul/mad in every width, mul24, min/max, abs/neg), logic and shifts, and bit operations
 * (popc, clz, bfind, brev, bfe/bfi) for isel.c's dispatcher.
 *
 * Conventions as in isel.c: 32-bit values in a register, 64-bit in an even pair (low word
 * first), 8/16-bit values zero-extended (be_fix16 after every definition); 64-bit add/sub
 * are IADD.CC/IADD.X chains, 64-bit products IMUL/IMUL.HI/IMAD on words (isel_wide.c has
 * the high half, division and 64-bit bit fields).
 */
#include "backend/be.h"

/* ------------------------------------------------------------------ integer */
static Type ity(int pt)
{
	switch (tbytes(pt)) {
	case 8: return tsigned(pt) ? TY_S64 : TY_U64;
	default: return tsigned(pt) ? TY_S32 : TY_U32;
	}
}

static int cc_guard(Fn *f, const PIns *in, int pol)
{
	/* carry chains: add.cc/addc and sub.cc/subc keep their own polarity of CC.C */
	static const char *nm[] = {"", "add.cc", "sub.cc"};
	if (f->ccpol && f->ccpol != pol) {
		be_errorf(f, in->loc, "unsupported: %s reads a carry set by %s", ptx_op_name((POp)in->op),
		          nm[f->ccpol]);
		return -1;
	}
	return 0;
}

int be_sel_addsub(Fn *f, Blk *b, const PIns *in, int sub)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	int carry = (ptx_ops[in->op].flags & PF_CARRY) != 0, cc = (in->m.flags & PMF_CC) != 0;
	MOpd a = be_src(f, b, &in->o[1], pt), c = be_src(f, b, &in->o[2], pt);
	MIns *x;

	if (tfloat(pt))
		return be_isel_math(f, b, in);
	if (d < 0)
		d = be_newtmp(f, tbytes(pt) == 8 ? TC_R2 : TC_R);
	if (tbytes(pt) == 8) {
		if (carry || cc)
			return be_unsup(f, in, "64-bit carry chain"), -1;
		be_add64(f, b, d, a, c, sub);
		return 0;
	}
	if (carry && cc_guard(f, in, sub ? 2 : 1) < 0)
		return -1;
	a = be_inreg(f, b, a, TC_R);
	/* a saturating subtraction negates inside the adder (-INT_MIN is not an immediate) */
	if (sub && (carry || cc || c.kind != OPD_IMM || (in->m.flags & PMF_SAT)))
		c = be_inreg(f, b, c, TC_R);
	if (sub && c.kind == OPD_IMM)
		c.imm = (uint32_t)(0 - (uint32_t)c.imm);
	x = be_op3(f, b, OP_IADD, be_r(d), a, c);
	if (sub && c.kind == OPD_REG)
		x->o[2].flags = carry ? OPF_NOT : OPF_NEG;
	if (cc)
		x->m.flags |= MF_CC;
	if (carry)
		x->m.flags |= MF_X;
	if (in->m.flags & PMF_SAT)
		x->m.flags |= MF_SAT;
	if (cc)
		f->ccpol = sub ? 2 : 1;
	be_fix16(f, b, d, pt);
	return 0;
}

/* low 64 bits of a 64x64 product into d */
static void mul64(Fn *f, Blk *b, int d, MOpd a, MOpd c)
{
	int t = be_newtmp(f, TC_R2);
	MIns *in;

	a = be_inreg(f, b, a, TC_R2);
	in = be_op3(f, b, OP_IMUL, be_rpart(t, 1), be_part(a, 0), be_part(c, 0));
	in->m.dtype = in->m.stype = TY_U32;
	in->m.flags = MF_HI;
	in = be_op3(f, b, OP_IMAD, be_rpart(t, 1), be_part(a, 0), be_part(c, 1));
	in->nopd = 4;
	in->o[3] = be_rpart(t, 1);
	in->m.dtype = in->m.stype = TY_U32;
	in = be_op3(f, b, OP_IMAD, be_rpart(t, 1), be_part(a, 1), be_part(c, 0));
	in->nopd = 4;
	in->o[3] = be_rpart(t, 1);
	in->m.dtype = in->m.stype = TY_U32;
	in = be_op3(f, b, OP_IMUL, be_rpart(t, 0), be_part(a, 0), be_part(c, 0));
	in->m.dtype = in->m.stype = TY_U32;
	be_mov(f, b, d, be_r(t), TC_R2);
}

/* k when the 32-bit immediate c is 2^k as a positive multiplier of type signed, else -1 */
static int pow2k(MOpd c, int sgn)
{
	uint32_t v = (uint32_t)c.imm;

	if (c.kind != OPD_IMM || !v || (v & (v - 1)) || (sgn && v >> 31))
		return -1;
	return __builtin_ctz(v);
}

int be_sel_mul(Fn *f, Blk *b, const PIns *in, int mad)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	int wide = (in->m.flags & PMF_WIDE) != 0, hi = (in->m.flags & PMF_HI) != 0;
	MOpd a, c, e = {0};
	MIns *x;

	if (tfloat(pt))
		return be_isel_math(f, b, in);
	a = be_widen(f, b, be_src(f, b, &in->o[1], pt), pt);
	c = be_widen(f, b, be_src(f, b, &in->o[2], pt), pt);
	if (mad)
		e = be_src(f, b, &in->o[3], wide ? (tsigned(pt) ? PT_S64 : PT_U64) : pt);
	if (tbytes(pt) == 8) {
		if (wide)
			return be_unsup(f, in, "64-bit mul.wide"), -1;
		if (hi && !mad) {
			be_mulhi64(f, b, d, a, c, tsigned(pt));
		} else if (hi) {
			int t = be_newtmp(f, TC_R2);
			be_mulhi64(f, b, t, a, c, tsigned(pt));
			be_add64(f, b, d, be_r(t), e, 0);
		} else if (!mad) {
			mul64(f, b, d, a, c);
		} else {
			int t = be_newtmp(f, TC_R2);
			mul64(f, b, t, a, c);
			be_add64(f, b, d, be_r(t), e, 0);
		}
		return 0;
	}
	a = be_inreg(f, b, a, TC_R);
	if (wide && tbytes(pt) == 4) {
		/* 32x32 -> 64: low and high words, then the 64-bit addend; by 2^k (k < 31, or 31
		 * unsigned) the words of ext(a) << k: a << k and a >> (32 - k) in a's signedness
		 * (SHR by 32 gives the sign or 0) */
		int t = be_newtmp(f, TC_R2), k = pow2k(c, tsigned(pt));
		if (k >= 0) {
			be_op3(f, b, OP_SHL, be_rpart(t, 0), a, be_imm(k));
			x = be_op3(f, b, OP_SHR, be_rpart(t, 1), a, be_imm(32 - k));
			x->m.dtype = tsigned(pt) ? TY_S32 : TY_U32;
		} else {
			x = be_op3(f, b, OP_IMUL, be_rpart(t, 1), a, c);
			x->m.dtype = x->m.stype = tsigned(pt) ? TY_S32 : TY_U32;
			x->m.flags = MF_HI;
			x = be_op3(f, b, OP_IMUL, be_rpart(t, 0), a, c);
			x->m.dtype = x->m.stype = tsigned(pt) ? TY_S32 : TY_U32;
		}
		if (mad)
			be_add64(f, b, d, be_r(t), e, 0);
		else
			be_mov(f, b, d, be_r(t), TC_R2);
		return 0;
	}
	if (wide) {
		/* 16x16 -> 32: the widened operands' product fits */
		/* slot 3 of IMAD takes a register or constant: materialise first */
		if (mad)
			e = be_inreg(f, b, e, TC_R);
		x = be_op3(f, b, mad ? OP_IMAD : OP_IMUL, be_r(d), a, c);
		x->m.dtype = x->m.stype = TY_S32;
		if (mad) {
			x->nopd = 4;
			x->o[3] = e;
		}
		return 0;
	}
	if (hi && tbytes(pt) == 2) {
		/* high half of the 32-bit product of the (sign-)extended operands */
		int t = be_newtmp(f, TC_R);
		x = be_op3(f, b, OP_IMUL, be_r(t), a, c);
		x->m.dtype = x->m.stype = TY_S32;
		x = be_op3(f, b, OP_SHR, be_r(d), be_r(t), be_imm(16));
		x->m.dtype = TY_U32;
		if (mad)
			be_op3(f, b, OP_IADD, be_r(d), be_r(d), e);
		be_fix16(f, b, d, pt);
		return 0;
	}
	if (mad && hi) {
		int t = be_newtmp(f, TC_R);
		x = be_op3(f, b, OP_IMUL, be_r(t), a, c);
		x->m.dtype = x->m.stype = ity(pt);
		x->m.flags = MF_HI;
		x = be_op3(f, b, OP_IADD, be_r(d), be_r(t), e);
		if (in->m.flags & PMF_CC)
			x->m.flags |= MF_CC, f->ccpol = 1;
		if (ptx_ops[in->op].flags & PF_CARRY) {
			if (cc_guard(f, in, 1) < 0)
				return -1;
			x->m.flags |= MF_X;
		}
		return 0;
	}
	if (mad && ((in->m.flags & PMF_CC) || (ptx_ops[in->op].flags & PF_CARRY))) {
		int t = be_newtmp(f, TC_R);
		if ((ptx_ops[in->op].flags & PF_CARRY) && cc_guard(f, in, 1) < 0)
			return -1;
		x = be_op3(f, b, OP_IMUL, be_r(t), a, c);
		x->m.dtype = x->m.stype = TY_U32;
		x = be_op3(f, b, OP_IADD, be_r(d), be_r(t), e);
		if (in->m.flags & PMF_CC)
			x->m.flags |= MF_CC, f->ccpol = 1;
		if (ptx_ops[in->op].flags & PF_CARRY)
			x->m.flags |= MF_X;
		return 0;
	}
	if (mad)
		e = be_inreg(f, b, e, TC_R);
	x = be_op3(f, b, mad ? OP_IMAD : OP_IMUL, be_r(d), a, c);
	x->m.dtype = x->m.stype = tbytes(pt) == 4 ? ity(pt) : TY_U32;
	if (hi)
		x->m.flags = MF_HI;
	if (mad) {
		x->nopd = 4;
		x->o[3] = e;
	}
	be_fix16(f, b, d, pt);
	return 0;
}

/* 24-bit multiplies: operands sign/zero-extended from bit 23 */
int be_sel_mul24(Fn *f, Blk *b, const PIns *in, int mad)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MOpd s[2];
	int lo = be_newtmp(f, TC_R), hi = be_newtmp(f, TC_R);
	MIns *x;

	for (int k = 0; k < 2; k++) {
		int t = be_newtmp(f, TC_R);
		x = be_op3(f, b, OP_BFE, be_r(t), be_inreg(f, b, be_src(f, b, &in->o[1 + k], pt), TC_R),
		        be_imm(0x1800));
		x->m.dtype = tsigned(pt) ? TY_S32 : TY_U32;
		s[k] = be_r(t);
	}
	x = be_op3(f, b, OP_IMUL, be_r(lo), s[0], s[1]);
	x->m.dtype = x->m.stype = ity(pt);
	if (in->m.flags & PMF_HI) {
		x = be_op3(f, b, OP_IMUL, be_r(hi), s[0], s[1]);
		x->m.dtype = x->m.stype = ity(pt);
		x->m.flags = MF_HI;
		/* bits 47..16 of the product */
		x = be_op3(f, b, OP_SHR, be_r(lo), be_r(lo), be_imm(16));
		x->m.dtype = TY_U32;
		x = be_op3(f, b, OP_ISCADD, be_r(lo), be_r(hi), be_r(lo));
		x->nopd = 4;
		x->o[3] = be_imm(16);
	}
	if (mad)
		be_op3(f, b, OP_IADD, be_r(d), be_r(lo), be_src(f, b, &in->o[3], pt));
	else
		be_mov(f, b, d, be_r(lo), TC_R);
	return 0;
}

/* min/max: IMNMX/FMNMX/DMNMX with PT (min) or !PT (max) */
int be_sel_minmax(Fn *f, Blk *b, const PIns *in, int max)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	int nsrc = in->nopd - 1;
	Op op = tfloat(pt) ? (tbytes(pt) == 8 ? OP_DMNMX : OP_FMNMX) : OP_IMNMX;
	int cls = tbytes(pt) == 8 ? TC_R2 : TC_R;
	MOpd acc;

	if (pt == PT_F16 || pt == PT_F16X2 || pt == PT_BF16 || pt == PT_BF16X2)
		return be_sel_hminmax(f, b, in, max);
	if (tfloat(pt) && pt != PT_F32 && pt != PT_F64)
		return be_unsup(f, in, "min/max of this floating-point type"), -1;
	acc = be_inreg(f, b, be_widen(f, b, be_src(f, b, &in->o[1], pt), pt), cls);
	for (int k = 2; k <= nsrc; k++) {
		MOpd c = be_widen(f, b, be_src(f, b, &in->o[k], pt), pt);
		int t = k == nsrc ? d : be_newtmp(f, cls), pn = -1;
		MIns *x;
		if ((in->m.flags & PMF_NAN) && tfloat(pt)) {
			/* .NaN: a NaN operand gives the canonical NaN (tested before d is written) */
			pn = be_newtmp(f, TC_P);
			be_setp_ins(f, b, cls == TC_R2 ? OP_DSETP : OP_FSETP, CMP_NAN, TY_NONE, pn, T_PT, acc, c,
			            be_p(T_PT), BOP_AND);
		}
		x = be_op3(f, b, op, be_r(t), acc, c);
		x->nopd = 4;
		x->o[3] = be_pn(T_PT, max);
		if (op == OP_IMNMX)
			x->m.dtype = ity(pt);
		if (in->m.flags & PMF_FTZ)
			x->m.flags |= MF_FTZ;
		if (pn >= 0) {
			int q = be_newtmp(f, cls);
			be_mov(f, b, q, be_imm(cls == TC_R2 ? 0x7fffffffffffffffll : 0x7fffffff), cls);
			for (int w = 0; w < (cls == TC_R2 ? 2 : 1); w++) {
				x = be_op3(f, b, OP_SEL, cls == TC_R2 ? be_rpart(t, w) : be_r(t),
				           cls == TC_R2 ? be_rpart(q, w) : be_r(q), cls == TC_R2 ? be_rpart(t, w) : be_r(t));
				x->nopd = 4;
				x->o[3] = be_p(pn);
			}
		}
		acc = be_r(t);
	}
	be_fix16(f, b, d, pt);
	return 0;
}

int be_sel_absneg(Fn *f, Blk *b, const PIns *in, int neg)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MOpd a;
	MIns *x;

	if (tfloat(pt))
		return be_isel_math(f, b, in);
	a = be_inreg(f, b, be_widen(f, b, be_src(f, b, &in->o[1], pt), pt), tbytes(pt) == 8 ? TC_R2 : TC_R);
	if (tbytes(pt) == 8) {
		int t = neg ? d : be_newtmp(f, TC_R2);
		x = be_op3(f, b, OP_IADD, be_rpart(t, 0), be_r(T_RZ), be_part(a, 0));
		x->o[2].flags = OPF_NEG;
		x->m.flags = MF_CC;
		x = be_op3(f, b, OP_IADD, be_rpart(t, 1), be_r(T_RZ), be_part(a, 1));
		x->o[2].flags = OPF_NOT;
		x->m.flags = MF_X;
		if (!neg) {
			x = be_op3(f, b, OP_IMNMX, be_r(d), a, be_r(t));
			x->nopd = 4;
			x->o[3] = be_pn(T_PT, 1);
			x->m.dtype = TY_S64;
		}
		return 0;
	}
	if (neg) {
		x = be_op3(f, b, OP_IADD, be_r(d), be_r(T_RZ), a);
		x->o[2].flags = OPF_NEG;
	} else {
		int t = be_newtmp(f, TC_R);
		x = be_op3(f, b, OP_IADD, be_r(t), be_r(T_RZ), a);
		x->o[2].flags = OPF_NEG;
		x = be_op3(f, b, OP_IMNMX, be_r(d), a, be_r(t));
		x->nopd = 4;
		x->o[3] = be_pn(T_PT, 1);
		x->m.dtype = TY_S32;
	}
	be_fix16(f, b, d, pt);
	return 0;
}

/* ------------------------------------------------------------------ logic */
int be_sel_logic(Fn *f, Blk *b, const PIns *in, Sub sub)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MOpd a = be_src(f, b, &in->o[1], pt), c = be_src(f, b, &in->o[2], pt);
	MIns *x;

	if (pt == PT_PRED) {
		x = be_emit(f, b, OP_PSETP);
		x->m.bop = (uint8_t)(sub == SUB_AND ? BOP_AND : sub == SUB_OR ? BOP_OR : BOP_XOR);
		x->m.bop2 = BOP_AND;
		x->nopd = 5;
		x->o[0] = be_p(d);
		x->o[1] = be_p(T_PT);
		x->o[2] = a;
		x->o[3] = c;
		x->o[4] = be_p(T_PT);
		return 0;
	}
	for (int k = 0; k < (tbytes(pt) == 8 ? 2 : 1); k++) {
		MOpd s0 = tbytes(pt) == 8 ? be_part(be_inreg(f, b, a, TC_R2), k) : be_inreg(f, b, a, TC_R);
		MOpd s1 = tbytes(pt) == 8 ? be_part(c, k) : c;
		x = be_op3(f, b, OP_LOP, tbytes(pt) == 8 ? be_rpart(d, k) : be_r(d), s0, s1);
		x->m.sub = (uint8_t)sub;
	}
	return 0;
}

int be_sel_not(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MOpd a = be_src(f, b, &in->o[1], pt);
	MIns *x;

	if (pt == PT_PRED) {
		a.flags ^= OPF_NOT;
		be_mov(f, b, d, a, TC_P);
		return 0;
	}
	if (tbytes(pt) == 8)
		a = be_inreg(f, b, a, TC_R2);
	for (int k = 0; k < (tbytes(pt) == 8 ? 2 : 1); k++) {
		x = be_op3(f, b, OP_LOP, tbytes(pt) == 8 ? be_rpart(d, k) : be_r(d),
		        tbytes(pt) == 8 ? be_part(a, k) : be_inreg(f, b, a, TC_R), be_imm(0xffffffff));
		x->m.sub = SUB_XOR;
	}
	be_fix16(f, b, d, pt);
	return 0;
}

int be_sel_cnot(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), tbytes(pt) == 8 ? TC_R2 : TC_R);
	int p = be_newtmp(f, TC_P);
	MIns *x = be_emit(f, b, OP_ISETP);

	x->m.cmp = CMP_EQ;
	x->m.dtype = TY_U32;
	x->m.bop = BOP_AND;
	x->nopd = 5;
	x->o[0] = be_p(p);
	x->o[1] = be_p(T_PT);
	x->o[2] = tbytes(pt) == 8 ? be_part(a, 0) : a;
	x->o[3] = be_r(T_RZ);
	x->o[4] = be_p(T_PT);
	if (tbytes(pt) == 8) {
		x = be_emit(f, b, OP_ISETP);
		x->m.cmp = CMP_EQ;
		x->m.dtype = TY_U32;
		x->m.bop = BOP_AND;
		x->nopd = 5;
		x->o[0] = be_p(p);
		x->o[1] = be_p(T_PT);
		x->o[2] = be_part(a, 1);
		x->o[3] = be_r(T_RZ);
		x->o[4] = be_p(p);
	}
	x = be_op3(f, b, OP_SEL, tbytes(pt) == 8 ? be_rpart(d, 0) : be_r(d), be_r(T_RZ), be_imm(1));
	x->nopd = 4;
	x->o[3] = be_pn(p, 1);
	if (tbytes(pt) == 8) {
		x = be_op3(f, b, OP_MOV, be_rpart(d, 1), be_r(T_RZ), be_r(T_RZ));
		x->nopd = 2;
	}
	return 0;
}

/* 64-bit shift of pair a by n into pair d. PTX clamps n at 64; SHF.L/.R on a U64/S64 pair
 * clamps at 64 and SHL/SHR at 32, so any n is the funnel word plus a plain shift of the other
 * word. A constant n >= 32 moves a word (and fills with 0 or the sign), n == 0 is a copy.
 * The word written first is the one the second instruction no longer reads, so d may be a. */
static void shift64c(Fn *f, Blk *b, int d, MOpd a, MOpd n, int left, int sgn)
{
	MIns *x;
	int hi = left ? 1 : 0, lo = 1 - hi;	/* the word that receives the other's bits, the rest */
	uint64_t k = n.kind == OPD_IMM ? (uint32_t)n.imm : 0;

	if (n.kind == OPD_IMM && k == 0) {
		be_mov(f, b, d, a, TC_R2);
		return;
	}
	a = be_inreg(f, b, a, TC_R2);
	if (n.kind == OPD_IMM && k >= 32) {
		/* left: hi = lo << (k-32), lo = 0; right: lo = hi >> (k-32), hi = 0 or the sign */
		if (k >= 64 && !sgn) {
			x = be_op3(f, b, OP_MOV, be_rpart(d, hi), be_r(T_RZ), be_r(T_RZ));
			x->nopd = 2;
		} else if (k == 32) {
			x = be_op3(f, b, OP_MOV, be_rpart(d, hi), be_part(a, lo), be_r(T_RZ));
			x->nopd = 2;
		} else {
			x = be_op3(f, b, left ? OP_SHL : OP_SHR, be_rpart(d, hi), be_part(a, lo),
			           be_imm(k >= 64 ? 31 : (int64_t)k - 32));
			if (!left)
				x->m.dtype = sgn ? TY_S32 : TY_U32;
		}
		if (sgn) {
			x = be_op3(f, b, OP_SHR, be_rpart(d, 1), be_part(a, 1), be_imm(31));
			x->m.dtype = TY_S32;
		} else {
			x = be_op3(f, b, OP_MOV, be_rpart(d, lo), be_r(T_RZ), be_r(T_RZ));
			x->nopd = 2;
		}
		return;
	}
	x = be_emit(f, b, OP_SHF);
	x->nopd = 4;
	x->m.sub = left ? SUB_L : SUB_R;
	x->m.dtype = sgn ? TY_S64 : TY_U64;
	x->o[0] = be_rpart(d, hi);
	x->o[1] = be_part(a, 0);
	x->o[2] = n;
	x->o[3] = be_part(a, 1);
	x = be_op3(f, b, left ? OP_SHL : OP_SHR, be_rpart(d, lo), be_part(a, lo), n);
	if (!left)
		x->m.dtype = sgn ? TY_S32 : TY_U32;
}

int be_sel_shift(Fn *f, Blk *b, const PIns *in, int left)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	int sgn = !left && tsigned(pt);
	MOpd a = be_src(f, b, &in->o[1], pt), n = be_src(f, b, &in->o[2], PT_U32);
	MIns *x;

	if (tbytes(pt) == 8) {
		if (n.kind != OPD_IMM)
			n = be_inreg(f, b, n, TC_R);
		shift64c(f, b, d, a, n, left, sgn);
		return 0;
	}
	a = be_inreg(f, b, sgn ? be_widen(f, b, a, pt) : a, TC_R);
	x = be_op3(f, b, left ? OP_SHL : OP_SHR, be_r(d), a, n);
	if (!left)
		x->m.dtype = sgn ? TY_S32 : TY_U32;
	be_fix16(f, b, d, pt);
	return 0;
}

/* ------------------------------------------------------------------ bits */
int be_sel_bits(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MOpd a = be_src(f, b, &in->o[1], pt);
	MIns *x;

	switch ((int)in->op) {
	case PO_POPC:
		if (tbytes(pt) == 8) {
			int t = be_newtmp(f, TC_R);
			a = be_inreg(f, b, a, TC_R2);
			be_op3(f, b, OP_POPC, be_r(t), be_part(a, 0), be_r(T_RZ))->nopd = 2;
			be_op3(f, b, OP_POPC, be_r(d), be_part(a, 1), be_r(T_RZ))->nopd = 2;
			be_op3(f, b, OP_IADD, be_r(d), be_r(d), be_r(t));
		} else {
			be_op3(f, b, OP_POPC, be_r(d), a, be_r(T_RZ))->nopd = 2;
		}
		return 0;
	case PO_CLZ:
		if (tbytes(pt) == 8) {
			/* hi != 0 ? clz(hi) : 32 + clz(lo) */
			int th = be_newtmp(f, TC_R), tl = be_newtmp(f, TC_R), p = be_newtmp(f, TC_P);
			a = be_inreg(f, b, a, TC_R2);
			x = be_op3(f, b, OP_FLO, be_r(th), be_part(a, 1), be_r(T_RZ));
			x->nopd = 2;
			x->m.dtype = TY_U32;
			x = be_op3(f, b, OP_FLO, be_r(tl), be_part(a, 0), be_r(T_RZ));
			x->nopd = 2;
			x->m.dtype = TY_U32;
			x = be_op3(f, b, OP_IADD, be_r(th), be_r(th), be_imm(0x1f));
			x->o[1].flags = OPF_NEG;
			x = be_op3(f, b, OP_IADD, be_r(tl), be_r(tl), be_imm(0x3f));
			x->o[1].flags = OPF_NEG;
			be_setp_ins(f, b, OP_ISETP, CMP_NE, TY_U32, p, T_PT, be_part(a, 1), be_r(T_RZ), be_p(T_PT), BOP_AND);
			x = be_op3(f, b, OP_SEL, be_r(d), be_r(th), be_r(tl));
			x->nopd = 4;
			x->o[3] = be_p(p);
			return 0;
		}
		x = be_op3(f, b, OP_FLO, be_r(d), a, be_r(T_RZ));
		x->nopd = 2;
		x->m.dtype = TY_U32;
		x = be_op3(f, b, OP_IADD, be_r(d), be_r(d), be_imm(0x1f));
		x->o[1].flags = OPF_NEG;
		return 0;
	case PO_BFIND:
		if (tbytes(pt) == 8)
			return be_bfind64(f, b, in);
		x = be_op3(f, b, OP_FLO, be_r(d), a, be_r(T_RZ));
		x->nopd = 2;
		x->m.dtype = tsigned(pt) ? TY_S32 : TY_U32;
		if (in->m.flags & PMF_SHIFTAMT)
			x->m.flags |= MF_SH;
		return 0;
	case PO_BREV:
		if (tbytes(pt) == 8) {
			int t = be_newtmp(f, TC_R2);
			a = be_inreg(f, b, a, TC_R2);
			be_op3(f, b, OP_BREV, be_rpart(t, 0), be_part(a, 1), be_r(T_RZ))->nopd = 2;
			be_op3(f, b, OP_BREV, be_rpart(t, 1), be_part(a, 0), be_r(T_RZ))->nopd = 2;
			be_mov(f, b, d, be_r(t), TC_R2);
		} else {
			be_op3(f, b, OP_BREV, be_r(d), a, be_r(T_RZ))->nopd = 2;
		}
		return 0;
	default:
		return be_unsup(f, in, NULL), -1;
	}
}

/* pos | len << 8 for BFE/BFI from two PTX operands */
static MOpd posl(Fn *f, Blk *b, const PIns *in, int ip, int il)
{
	MOpd p = be_src(f, b, &in->o[ip], PT_U32), l = be_src(f, b, &in->o[il], PT_U32);
	int t;
	MIns *x;

	if (p.kind == OPD_IMM && l.kind == OPD_IMM)
		return be_imm((p.imm & 0xff) | (l.imm & 0xff) << 8);
	t = be_newtmp(f, TC_R);
	x = be_op3(f, b, OP_LOP, be_r(t), be_inreg(f, b, p, TC_R), be_imm(0xff));
	x->m.sub = SUB_AND;
	if (l.kind == OPD_IMM) {
		be_op3(f, b, OP_IADD, be_r(t), be_r(t), be_imm((l.imm & 0xff) << 8));
	} else {
		int u = be_newtmp(f, TC_R);
		x = be_op3(f, b, OP_BFE, be_r(u), l, be_imm(0x800));
		x->m.dtype = TY_U32;
		x = be_op3(f, b, OP_ISCADD, be_r(t), be_r(u), be_r(t));
		x->nopd = 4;
		x->o[3] = be_imm(8);
	}
	return be_r(t);
}

int be_sel_bf(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MIns *x;

	if (tbytes(pt) == 8)
		return be_bitfield64(f, b, in);
	if ((POp)in->op == PO_BFE) {
		MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), TC_R);
		x = be_op3(f, b, OP_BFE, be_r(d), a, posl(f, b, in, 2, 3));
		x->m.dtype = tsigned(pt) ? TY_S32 : TY_U32;
		return 0;
	}
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), TC_R);
	MOpd base = be_inreg(f, b, be_src(f, b, &in->o[2], pt), TC_R);
	MOpd pl = posl(f, b, in, 3, 4);
	x = be_op3(f, b, OP_BFI, be_r(d), a, pl);
	x->nopd = 4;
	x->o[3] = base;
	return 0;
}

/* ------------------------------------------------------------------ masks and dot products */
/* bmsk.clamp/wrap.b32 d, a, b: ((1 << b) - 1) << a; szext.clamp/wrap.u32/s32 d, a, b: the
 * low b bits of a zero- or sign-extended (BFE with len b). wrap: a, b mod 32; clamp: at most
 * 32, where SHL gives 0 and BFE takes the whole word */
int be_sel_mask(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]), wrap = (in->m.flags & PMF_WRAP) != 0;
	MOpd v[2];
	MIns *x;

	for (int k = 0; k < 2; k++) {
		int t = be_newtmp(f, TC_R);
		MOpd s = be_inreg(f, b, be_src(f, b, &in->o[1 + k], PT_U32), TC_R);
		if (k == 0 && in->op == PO_SZEXT) {
			v[0] = s;
			continue;
		}
		x = be_op3(f, b, wrap ? OP_LOP : OP_IMNMX, be_r(t), s, be_imm(wrap ? 31 : 32));
		if (wrap) {
			x->m.sub = SUB_AND;
		} else {
			x->nopd = 4;
			x->o[3] = be_p(T_PT);
			x->m.dtype = TY_U32;
		}
		v[k] = be_r(t);
	}
	if (in->op == PO_SZEXT) {
		int pl = be_newtmp(f, TC_R);
		be_op3(f, b, OP_SHL, be_r(pl), v[1], be_imm(8));
		x = be_op3(f, b, OP_BFE, be_r(d), v[0], be_r(pl));
		x->m.dtype = tsigned(pt) ? TY_S32 : TY_U32;
		return 0;
	}
	int m = be_newtmp(f, TC_R);
	be_op3(f, b, OP_SHL, be_r(m), be_inreg(f, b, be_imm(1), TC_R), v[1]);
	be_op3(f, b, OP_IADD, be_r(m), be_r(m), be_imm(0xffffffff));
	be_op3(f, b, OP_SHL, be_r(d), be_r(m), v[0]);
	return 0;
}

/* dp4a d, a, b, c: c + the four byte products; dp2a.lo/.hi: c + the two halfwords of a times
 * bytes 0-1 (lo) or 2-3 (hi) of b; each factor extended by its own type's signedness */
int be_sel_dp(Fn *f, Blk *b, const PIns *in)
{
	int as = tsigned(in->m.types[0]), bs = tsigned(in->m.types[1]), d = be_dst(f, &in->o[0]);
	int four = in->op == PO_DP4A, hi = (in->m.flags & PMF_HI) != 0;
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], PT_B32), TC_R);
	MOpd c = be_inreg(f, b, be_src(f, b, &in->o[2], PT_B32), TC_R);
	int acc = be_newtmp(f, TC_R);
	MIns *x;

	be_mov(f, b, acc, be_src(f, b, &in->o[3], PT_B32), TC_R);
	for (int i = 0; i < (four ? 4 : 2); i++) {
		int xa = be_newtmp(f, TC_R), xb = be_newtmp(f, TC_R);
		x = be_op3(f, b, OP_BFE, be_r(xa), a, be_imm(four ? (8 << 8) | 8 * i : (16 << 8) | 16 * i));
		x->m.dtype = as ? TY_S32 : TY_U32;
		x = be_op3(f, b, OP_BFE, be_r(xb), c, be_imm((8 << 8) | 8 * (i + (!four && hi ? 2 : 0))));
		x->m.dtype = bs ? TY_S32 : TY_U32;
		x = be_op3(f, b, OP_IMAD, be_r(i == (four ? 3 : 1) ? d : acc), be_r(xa), be_r(xb));
		x->nopd = 4;
		x->o[3] = be_r(acc);
		x->m.dtype = x->m.stype = TY_S32;
	}
	return 0;
}

/* elect.sync d|p, membermask: the lowest lane of (active & membermask), 32 when none, and
 * p for that lane: POPC((m & -m) - 1) on the VOTE ballot of the active lanes */
int be_sel_elect(Fn *f, Blk *b, const PIns *in)
{
	int d = be_dst(f, &in->o[0]), p = be_dst(f, &in->o[1]);
	int m = be_newtmp(f, TC_R), t = be_newtmp(f, TC_R), lane = be_newtmp(f, TC_R);
	MOpd mm = be_src(f, b, &in->o[2], PT_U32);
	MIns *x;

	if (d < 0)
		d = be_newtmp(f, TC_R);
	x = be_emit(f, b, OP_VOTE);
	x->m.sub = SUB_ANY;
	x->nopd = 3;
	x->o[0] = be_r(m);
	x->o[1] = be_p(T_PT);
	x->o[2] = be_p(T_PT);
	be_op3(f, b, OP_LOP, be_r(m), be_r(m), mm)->m.sub = SUB_AND;
	x = be_op3(f, b, OP_IADD, be_r(t), be_r(T_RZ), be_r(m));
	x->o[2].flags = OPF_NEG;
	be_op3(f, b, OP_LOP, be_r(t), be_r(t), be_r(m))->m.sub = SUB_AND;
	be_op3(f, b, OP_IADD, be_r(t), be_r(t), be_imm(0xffffffff));
	x = be_op3(f, b, OP_POPC, be_r(d), be_r(t), be_r(T_RZ));
	x->nopd = 2;
	if (p >= 0) {
		x = be_emit(f, b, OP_S2R);
		x->nopd = 2;
		x->o[0] = be_r(lane);
		x->o[1].kind = OPD_SREG;
		x->o[1].imm = SR_LANEID;
		x = be_emit(f, b, OP_ISETP);
		x->m.cmp = CMP_EQ;
		x->m.dtype = TY_U32;
		x->m.bop = BOP_AND;
		x->nopd = 5;
		x->o[0] = be_p(p);
		x->o[1] = be_p(T_PT);
		x->o[2] = be_r(lane);
		x->o[3] = be_r(d);
		x->o[4] = be_p(T_PT);
	}
	return 0;
}

/* lop3.b32 d, a, b, c, lut: LOP3 with the 8-bit truth table */
int be_sel_lop3(Fn *f, Blk *b, const PIns *in)
{
	int d = be_dst(f, &in->o[0]);
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], PT_B32), TC_R);
	MOpd c = be_src(f, b, &in->o[2], PT_B32);
	MOpd e = be_inreg(f, b, be_src(f, b, &in->o[3], PT_B32), TC_R);
	MIns *x = be_emit(f, b, OP_LOP3);

	x->nopd = 5;
	x->o[0] = be_r(d);
	x->o[1] = a;
	x->o[2] = c;
	x->o[3] = e;
	x->o[4] = be_imm(in->o[4].imm & 0xff);
	return 0;
}

/* prmt.b32{.mode} d, a, b, c: PRMT a, c (the selector), b */
int be_sel_prmt(Fn *f, Blk *b, const PIns *in)
{
	int d = be_dst(f, &in->o[0]);
	static const Sub mode[] = {SUB_NONE, SUB_F4E, SUB_B4E, SUB_RC8, SUB_ECL, SUB_ECR, SUB_RC16};
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], PT_B32), TC_R);
	MOpd c = be_src(f, b, &in->o[3], PT_B32);
	MOpd e = be_inreg(f, b, be_src(f, b, &in->o[2], PT_B32), TC_R);
	MIns *x = be_emit(f, b, OP_PRMT);

	x->nopd = 4;
	x->m.sub = (uint8_t)mode[in->m.prmt < PPRMT_COUNT ? in->m.prmt : 0];
	x->o[0] = be_r(d);
	x->o[1] = a;
	x->o[2] = c;
	x->o[3] = e;
	return 0;
}

/* shf.{l,r}{.wrap}.b32 d, a, b, c: SHF a, c (the shift), b */
int be_sel_shf(Fn *f, Blk *b, const PIns *in)
{
	int d = be_dst(f, &in->o[0]);
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], PT_B32), TC_R);
	MOpd c = be_src(f, b, &in->o[3], PT_U32);
	MOpd e = be_inreg(f, b, be_src(f, b, &in->o[2], PT_B32), TC_R);
	MIns *x = be_emit(f, b, OP_SHF);

	x->nopd = 4;
	x->m.sub = (in->m.flags & PMF_RIGHT) ? SUB_R : SUB_L;
	if (in->m.flags & PMF_WRAP)
		x->m.flags |= MF_W;
	x->o[0] = be_r(d);
	x->o[1] = a;
	x->o[2] = c;
	x->o[3] = e;
	return 0;
}
