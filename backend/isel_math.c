/* isel_math.c - instruction selection of floating point (f16 through f32, f32, f64):
 * arithmetic, division and reciprocal, transcendental approximations (MUFU), abs/neg,
 * copysign, testp, conversions, and sad. Integer division is isel_div.c's, bf16 and the
 * 16-bit float conversions isel_bf16.c's. Calls sel.c and util.c.
 */
#include "backend/be.h"

/* ------------------------------------------------------------------ float arithmetic */
static int fcls(int pt) { return tbytes(pt) == 8 ? TC_R2 : TC_R; }

/* -x of a float operand: the NEG modifier on a register, flipped sign bit on an immediate */
static MOpd fneg(MOpd s, int pt)
{
	if (s.kind == OPD_IMM)
		s.imm ^= tbytes(pt) == 8 ? (int64_t)(1ull << 63) : 0x80000000ll;
	else
		s.flags ^= OPF_NEG;
	return s;
}

static void fmods(MIns *x, const PIns *in)
{
	x->m.rnd = (uint8_t)ptxisa_rnd(in->m.rnd);
	if (x->m.rnd == RND_RN)
		x->m.rnd = RND_NONE;
	if ((in->m.flags & PMF_FTZ) && x->op != OP_DADD && x->op != OP_DMUL && x->op != OP_DFMA)
		x->m.flags |= MF_FTZ;
	if ((in->m.flags & PMF_SAT) && x->op != OP_DADD && x->op != OP_DMUL && x->op != OP_DFMA)
		x->m.flags |= MF_SAT;
}

/* ------------------------------------------------------------------ half precision */
/* f16 (and each half of f16x2) through f32: add, sub and mul of f16 values rounded to f32
 * and then to f16 are correctly rounded (24 >= 2 * 11 + 2 bits: double rounding is
 * innocuous, and the directed modes compose); fma goes through f64 (the product is exact
 * there, one DFMA rounding, then to f16), as the oracle computes it. NaN results are the
 * canonical 0x7fff through the conversion. */
static MOpd half_of(Fn *f, Blk *b, MOpd s, int k, Type to)
{
	int h = be_newtmp(f, TC_R), t = be_newtmp(f, to == TY_F64 ? TC_R2 : TC_R);
	MIns *x;

	if (s.kind == OPD_IMM) {
		be_mov(f, b, h, be_imm((s.imm >> (16 * k)) & 0xffff), TC_R);
	} else if (k) {
		x = be_op3(f, b, OP_SHR, be_r(h), be_inreg(f, b, s, TC_R), be_imm(16));
		x->m.dtype = TY_U32;
	} else {
		h = be_inreg(f, b, s, TC_R).t;
	}
	x = be_op2(f, b, OP_F2F, be_r(t), be_r(h));
	x->m.dtype = (uint8_t)to;
	x->m.stype = TY_F16;
	return be_r(t);
}

static int sel_half(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]), nh = pt == PT_F16X2 ? 2 : 1;
	int fma = in->op == PO_FMA || in->op == PO_MAD, h[2];
	Type wt = fma ? TY_F64 : TY_F32;
	Rnd r = ptxisa_rnd(in->m.rnd);
	MIns *x;

	if (pt != PT_F16 && pt != PT_F16X2)
		return be_unsup(f, in, "bf16/tf32 arithmetic"), -1;
	if (in->op != PO_ADD && in->op != PO_SUB && in->op != PO_MUL && !fma)
		return be_unsup(f, in, "half-precision operation"), -1;
	if ((in->m.flags & PMF_RELU) && !fma)
		return be_unsup(f, in, ".relu on this half-precision operation"), -1;
	for (int k = 0; k < nh; k++) {
		MOpd a = half_of(f, b, be_src(f, b, &in->o[1], pt), k, wt);
		MOpd c = half_of(f, b, be_src(f, b, &in->o[2], pt), k, wt);
		int t = be_newtmp(f, fma ? TC_R2 : TC_R);
		if (fma) {
			MOpd e = half_of(f, b, be_src(f, b, &in->o[3], pt), k, wt);
			x = be_op3(f, b, OP_DFMA, be_r(t), a, c);
			x->nopd = 4;
			x->o[3] = e;
		} else {
			x = be_op3(f, b, in->op == PO_MUL ? OP_FMUL : OP_FADD, be_r(t), a, c);
			if (in->op == PO_SUB)
				x->o[2].flags = OPF_NEG;
		}
		x->m.rnd = (uint8_t)(r == RND_RN ? RND_NONE : r);
		h[k] = nh == 1 ? d : be_newtmp(f, TC_R);
		x = be_op2(f, b, OP_F2F, be_r(h[k]), be_r(t));
		x->m.dtype = TY_F16;
		x->m.stype = (uint8_t)wt;
		x->m.rnd = (uint8_t)(r == RND_NONE ? RND_RN : r);
		if (in->m.flags & PMF_SAT)
			x->m.flags |= MF_SAT;
		if (in->m.flags & PMF_RELU)
			be_relu16(f, b, h[k]);   /* fma.relu; the NaN from F2F is the positive canonical one */
	}
	if (nh == 2) {
		x = be_op3(f, b, OP_ISCADD, be_r(d), be_r(h[1]), be_r(h[0]));
		x->nopd = 4;
		x->o[3] = be_imm(16);
	}
	return 0;
}

static int sel_farith(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]), dbl = tbytes(pt) == 8;
	MOpd a, c, e;
	MIns *x;

	if (pt != PT_F32 && !dbl)
		return sel_half(f, b, in);
	a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), fcls(pt));
	switch ((int)in->op) {
	case PO_ADD: case PO_SUB:
		c = be_src(f, b, &in->o[2], pt);
		if ((POp)in->op == PO_SUB)
			c = fneg(c, pt);
		x = be_op3(f, b, dbl ? OP_DADD : OP_FADD, be_r(d), a, c);
		fmods(x, in);
		return 0;
	case PO_MUL:
		c = be_src(f, b, &in->o[2], pt);
		x = be_op3(f, b, dbl ? OP_DMUL : OP_FMUL, be_r(d), a, c);
		fmods(x, in);
		return 0;
	case PO_MAD: case PO_FMA:
		c = be_src(f, b, &in->o[2], pt);
		e = be_inreg(f, b, be_src(f, b, &in->o[3], pt), fcls(pt));
		x = be_op3(f, b, dbl ? OP_DFMA : OP_FFMA, be_r(d), a, c);
		x->nopd = 4;
		x->o[3] = e;
		fmods(x, in);
		return 0;
	default:
		return be_unsup(f, in, NULL), -1;
	}
}

/* a correctly rounded FDIV or FSQRT: the PTX rounding (.rn when none is given, as .full
 * and the IEEE forms are taken), f64 and .ftz */
static void rounded(MIns *x, const PIns *in, int dbl)
{
	x->m.rnd = (uint8_t)ptxisa_rnd(in->m.rnd);
	if (x->m.rnd == RND_NONE)
		x->m.rnd = RND_RN;
	if (dbl)
		x->m.dtype = TY_F64;
	if (in->m.flags & PMF_FTZ)
		x->m.flags |= MF_FTZ;
}

static int sel_fdiv(Fn *f, Blk *b, const PIns *in, int rcp)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]), dbl = tbytes(pt) == 8;
	MOpd a, c;
	MIns *x;
	int approx = (in->m.flags & PMF_APPROX) != 0;

	if (rcp) {
		c = be_inreg(f, b, be_src(f, b, &in->o[1], pt), fcls(pt));
		a = be_imm(dbl ? 0x3ff0000000000000ll : 0x3f800000);
	} else {
		a = be_src(f, b, &in->o[1], pt);
		c = be_src(f, b, &in->o[2], pt);
	}
	if (approx) {
		/* PTX: rcp.approx is 1/x approximated; div.approx is a * (1/b) */
		int t = rcp ? d : be_newtmp(f, fcls(pt));
		x = be_op2(f, b, OP_MUFU, be_r(t), be_inreg(f, b, c, fcls(pt)));
		x->m.sub = SUB_RCP;
		if (dbl)
			x->m.dtype = TY_F64;
		if (in->m.flags & PMF_FTZ)
			x->m.flags |= MF_FTZ;
		if (!rcp) {
			x = be_op3(f, b, dbl ? OP_DMUL : OP_FMUL, be_r(d), be_inreg(f, b, a, fcls(pt)), be_r(t));
			if ((in->m.flags & PMF_FTZ) && !dbl)
				x->m.flags |= MF_FTZ;
		}
		return 0;
	}
	/* .rn/.rz/.rm/.rp, and .full (taken as correctly rounded) */
	x = be_op3(f, b, OP_FDIV, be_r(d), be_inreg(f, b, a, fcls(pt)), c);
	rounded(x, in, dbl);
	return 0;
}

static int sel_mufu(Fn *f, Blk *b, const PIns *in, Sub s)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]), dbl = tbytes(pt) == 8;
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), fcls(pt));
	MIns *x;

	if (s == SUB_SQRT && !(in->m.flags & PMF_APPROX)) {
		x = be_op3(f, b, OP_FSQRT, be_r(d), a, be_r(T_RZ));
		x->nopd = 2;
		rounded(x, in, dbl);
		return 0;
	}
	if (tbytes(pt) != 4 && !dbl)
		return be_unsup(f, in, "half precision"), -1;
	if (!dbl && f->opt->arch >= 30 && (s == SUB_SIN || s == SUB_COS || s == SUB_EX2)) {
		/* Kepler: range reduction first (ptxas 11.8 for sm_35: RRO.SINCOS before MUFU.SIN
		 * and MUFU.COS, RRO.EX2 before MUFU.EX2; lg2, rcp, rsqrt need none) */
		int t = be_newtmp(f, TC_R);
		x = be_op2(f, b, OP_RRO, be_r(t), a);
		x->m.sub = (uint8_t)(s == SUB_EX2 ? SUB_EX2 : SUB_SINCOS);
		a = be_r(t);
	}
	x = be_op2(f, b, OP_MUFU, be_r(d), a);
	x->m.sub = (uint8_t)s;
	if (dbl)
		x->m.dtype = TY_F64;
	if (in->m.flags & PMF_FTZ)
		x->m.flags |= MF_FTZ;
	return 0;
}

/* abs/neg of floats: exact bit operations; with .ftz, an add of -0.0 flushes first */
static int sel_fabsneg(Fn *f, Blk *b, const PIns *in, int neg)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]), dbl = tbytes(pt) == 8;
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), fcls(pt));
	MIns *x;

	if (pt == PT_F16 || pt == PT_F16X2 || pt == PT_BF16 || pt == PT_BF16X2) {
		/* the sign bits (PTX ignores .ftz for the half types) */
		int two = tbytes(pt) == 4;
		x = be_op3(f, b, OP_LOP, be_r(d), a, be_imm(neg ? (two ? 0x80008000 : 0x8000) :
		                                              (two ? 0x7fff7fff : 0x7fff)));
		x->m.sub = neg ? SUB_XOR : SUB_AND;
		return 0;
	}
	if (pt != PT_F32 && !dbl)
		return be_unsup(f, in, "this floating-point type"), -1;
	if ((in->m.flags & PMF_FTZ) && !dbl) {
		/* a sign-bit operation after flushing a denormal to its signed zero (an FADD would
		 * also turn a NaN into the canonical one, PTX's abs/neg only touch the sign) */
		int e = be_newtmp(f, TC_R), z = be_newtmp(f, TC_R), p = be_newtmp(f, TC_P);
		x = be_op3(f, b, OP_LOP, be_r(e), a, be_imm(0x7f800000));
		x->m.sub = SUB_AND;
		x = be_op3(f, b, OP_LOP, be_r(z), a, be_imm(0x80000000));
		x->m.sub = SUB_AND;
		be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, p, T_PT, be_r(e), be_r(T_RZ), be_p(T_PT), BOP_AND);
		be_csel(f, b, be_r(z), be_r(z), a, p, 0);
		a = be_r(z);
	}
	if (dbl)
		be_mov(f, b, d, a, TC_R2);
	x = be_op3(f, b, OP_LOP, dbl ? be_rpart(d, 1) : be_r(d), dbl ? be_part(a, 1) : a,
	           be_imm(neg ? 0x80000000 : 0x7fffffff));
	x->m.sub = neg ? SUB_XOR : SUB_AND;
	return 0;
}

static int sel_copysign(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]), dbl = tbytes(pt) == 8;
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), fcls(pt));
	MOpd c = be_inreg(f, b, be_src(f, b, &in->o[2], pt), fcls(pt));
	int t = be_newtmp(f, TC_R), u = be_newtmp(f, TC_R);
	MIns *x;

	/* d = |b| with the sign of a */
	x = be_op3(f, b, OP_LOP, be_r(t), dbl ? be_part(a, 1) : a, be_imm(0x80000000));
	x->m.sub = SUB_AND;
	x = be_op3(f, b, OP_LOP, be_r(u), dbl ? be_part(c, 1) : c, be_imm(0x7fffffff));
	x->m.sub = SUB_AND;
	if (dbl)
		be_mov(f, b, be_newtmp(f, TC_R), be_r(T_RZ), TC_R);
	if (dbl) {
		x = be_op3(f, b, OP_MOV, be_rpart(d, 0), be_part(c, 0), be_r(T_RZ));
		x->nopd = 2;
	}
	x = be_op3(f, b, OP_LOP, dbl ? be_rpart(d, 1) : be_r(d), be_r(t), be_r(u));
	x->m.sub = SUB_OR;
	return 0;
}

static int sel_testp(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], p = be_dst(f, &in->o[0]), dbl = tbytes(pt) == 8;
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), fcls(pt)), abs = a;
	Op op = dbl ? OP_DSETP : OP_FSETP;
	int64_t inf = dbl ? 0x7ff0000000000000ll : 0x7f800000, mn = dbl ? 0x0010000000000000ll : 0x00800000;
	int q = be_newtmp(f, TC_P);
	MIns *x;

	abs.flags = OPF_ABS;
#define FS(c, pd, s1, s2, cc, bo) do { x = be_emit(f, b, op); x->m.cmp = (c); x->m.bop = (bo); \
	x->nopd = 5; x->o[0] = be_p(pd); x->o[1] = be_p(T_PT); x->o[2] = (s1); x->o[3] = (s2); \
	x->o[4] = (cc); } while (0)
	switch ((int)in->m.testp) {
	case PTESTP_FINITE: FS(CMP_LT, p, abs, be_imm(inf), be_p(T_PT), BOP_AND); break;
	case PTESTP_INFINITE: FS(CMP_EQ, p, abs, be_imm(inf), be_p(T_PT), BOP_AND); break;
	case PTESTP_NUMBER: FS(CMP_NUM, p, a, a, be_p(T_PT), BOP_AND); break;
	case PTESTP_NOTANUMBER: FS(CMP_NAN, p, a, a, be_p(T_PT), BOP_AND); break;
	case PTESTP_NORMAL:
		FS(CMP_LT, q, abs, be_imm(inf), be_p(T_PT), BOP_AND);
		FS(CMP_GE, p, abs, be_imm(mn), be_p(q), BOP_AND);
		break;
	case PTESTP_SUBNORMAL:
		FS(CMP_NE, q, abs, be_imm(0), be_p(T_PT), BOP_AND);
		FS(CMP_LT, p, abs, be_imm(mn), be_p(q), BOP_AND);
		break;
	default:
		return be_unsup(f, in, "testp property"), -1;
	}
#undef FS
	return 0;
}

/* ------------------------------------------------------------------ conversions */
static int sel_cvt(Fn *f, Blk *b, const PIns *in)
{
	int dt = in->m.types[0], st = in->m.types[1], d = be_dst(f, &in->o[0]);
	int sat = (in->m.flags & PMF_SAT) != 0, ftz = (in->m.flags & PMF_FTZ) != 0;
	Type tdt = ptxisa_type(dt), tst = ptxisa_type(st);
	MOpd a;
	MIns *x;

	if (in->nopd > 2 || tdt == TY_NONE || tst == TY_NONE)
		return be_unsup(f, in, "conversion types"), -1;
	a = be_src(f, b, &in->o[1], st);
	if (!tfloat(dt) && !tfloat(st)) {
		int db = tbytes(dt), sb = tbytes(st);
		if (db == 8 && sb <= 4 && !sat) {
			MOpd lo = sb < 4 ? be_widen(f, b, a, st) : a;
			int t = be_newtmp(f, TC_R2);
			if (sb < 4 && !tsigned(st)) {
				/* zero-extend from the source width whatever the register holds */
				x = be_op2(f, b, OP_I2I, be_rpart(t, 0), be_inreg(f, b, a, TC_R));
				x->m.dtype = TY_U32;
				x->m.stype = (uint8_t)tst;
			} else {
				be_mov(f, b, t, lo, TC_R);
				b->ins[b->nins - 1].o[0] = be_rpart(t, 0);
			}
			if (tsigned(st)) {
				x = be_op3(f, b, OP_SHR, be_rpart(t, 1), be_rpart(t, 0), be_imm(31));
				x->m.dtype = TY_S32;
			} else {
				be_op2(f, b, OP_MOV, be_rpart(t, 1), be_r(T_RZ));
			}
			be_mov(f, b, d, be_r(t), TC_R2);
			return 0;
		}
		if (db == sb && !sat && db >= 4) {
			be_mov(f, b, d, a, db == 8 ? TC_R2 : TC_R);
			return 0;
		}
		if (sb == 8 && db <= 4 && !sat) {
			a = be_inreg(f, b, a, TC_R2);
			if (db == 4) {
				be_op2(f, b, OP_MOV, be_r(d), be_part(a, 0));
				return 0;
			}
			a = be_part(a, 0);
			st = tsigned(st) ? PT_S32 : PT_U32;
			tst = ptxisa_type(st);
		}
		x = be_op2(f, b, OP_I2I, be_r(d), be_inreg(f, b, a, tbytes(st) == 8 ? TC_R2 : TC_R));
		x->m.dtype = (uint8_t)tdt;
		x->m.stype = (uint8_t)tst;
		if (sat)
			x->m.flags |= MF_SAT;
		be_fix16(f, b, d, dt);
		return 0;
	}
	if ((dt == PT_F16 || st == PT_F16) && (tdt == TY_F16 ? !tfloat(st) : !tfloat(dt)))
		return be_unsup(f, in, "integer <-> f16 conversion"), -1;
	a = be_inreg(f, b, a, tbytes(st) == 8 ? TC_R2 : TC_R);
	if (tfloat(dt) && tfloat(st) && dt == st && in->m.rnd == PRND_NONE && !ftz && !sat) {
		be_mov(f, b, d, a, tbytes(dt) == 8 ? TC_R2 : TC_R);
		return 0;
	}
	x = be_op2(f, b, !tfloat(st) ? OP_I2F : !tfloat(dt) ? OP_F2I : OP_F2F, be_r(d), a);
	x->m.dtype = (uint8_t)tdt;
	x->m.stype = (uint8_t)tst;
	x->m.rnd = (uint8_t)ptxisa_rnd(in->m.rnd);
	if (x->op == OP_F2I && x->m.rnd == RND_NONE)
		x->m.rnd = RND_TRUNC;
	if (x->op == OP_F2I && x->m.rnd == RND_RN)
		x->m.rnd = RND_ROUND;
	if (ftz && x->op != OP_I2F)
		x->m.flags |= MF_FTZ;
	if (sat && x->op != OP_F2I) {
		if (x->op == OP_I2F)
			return be_unsup(f, in, ".sat on an integer-to-float conversion"), -1;
		x->m.flags |= MF_SAT;
	}
	be_fix16(f, b, d, dt);
	return 0;
}

/* 64-bit d = c + |a - b|: a < b on the words (as setp does), both differences, a select */
static int sel_sad64(Fn *f, Blk *b, const PIns *in, int pt, int d)
{
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), TC_R2);
	MOpd c = be_inreg(f, b, be_src(f, b, &in->o[2], pt), TC_R2);
	int r = be_newtmp(f, TC_P), ab = be_newtmp(f, TC_R2), ba = be_newtmp(f, TC_R2);
	int m = be_newtmp(f, TC_R2);

	be_setp_ins(f, b, OP_ISETP, CMP_LT, TY_U32, r, T_PT, be_part(a, 0), be_part(c, 0), be_p(T_PT),
	            BOP_AND);
	be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, r, T_PT, be_part(a, 1), be_part(c, 1), be_p(r),
	            BOP_AND);
	be_setp_ins(f, b, OP_ISETP, CMP_LT, tsigned(pt) ? TY_S32 : TY_U32, r, T_PT, be_part(a, 1),
	            be_part(c, 1), be_p(r), BOP_OR);
	be_add64(f, b, ab, a, c, 1);
	be_add64(f, b, ba, c, a, 1);
	be_sel64(f, b, m, be_r(ba), be_r(ab), r);
	be_add64(f, b, d, be_r(m), be_src(f, b, &in->o[3], pt), 0);
	return 0;
}

/* d = c + |a - b| */
static int sel_sad(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MOpd a, c;
	int mx, mn;
	MIns *x;

	if (d < 0 && tbytes(pt) == 8)
		d = be_newtmp(f, TC_R2);
	if (tbytes(pt) == 8)
		return sel_sad64(f, b, in, pt, d);
	a = be_inreg(f, b, be_widen(f, b, be_src(f, b, &in->o[1], pt), pt), TC_R);
	c = be_widen(f, b, be_src(f, b, &in->o[2], pt), pt);
	mx = be_newtmp(f, TC_R), mn = be_newtmp(f, TC_R);
	for (int k = 0; k < 2; k++) {
		x = be_op3(f, b, OP_IMNMX, be_r(k ? mn : mx), a, c);
		x->nopd = 4;
		x->o[3] = be_pn(T_PT, !k);
		x->m.dtype = tsigned(pt) ? TY_S32 : TY_U32;
	}
	x = be_op3(f, b, OP_IADD, be_r(mx), be_r(mx), be_r(mn));
	x->o[2].flags = OPF_NEG;
	be_op3(f, b, OP_IADD, be_r(d), be_r(mx), be_src(f, b, &in->o[3], pt));
	be_fix16(f, b, d, pt);
	return 0;
}

/* f32 and f64 only: the half, bf16 and tf32 types have their own paths or none */
static int narrow_float(int pt)
{
	return ptx_type_kind((PType)pt) == PTK_FLOAT && pt != PT_F32 && pt != PT_F64;
}

/* the float ops of isel.c's dispatch, and sad (bf16 arithmetic is isel_bf16.c's) */
int be_sel_float(Fn *f, Blk *b, const PIns *in)
{
	switch ((int)in->op) {
	case PO_ADD: case PO_SUB: case PO_MUL: case PO_MAD: case PO_FMA: case PO_ABS: case PO_NEG:
		break;
	default:
		if (narrow_float(in->m.types[0]))
			return be_unsup(f, in, "this floating-point type"), -1;
	}
	switch ((int)in->op) {
	case PO_ADD: case PO_SUB: case PO_MUL: case PO_MAD: case PO_FMA:
		return sel_farith(f, b, in);
	case PO_DIV: return sel_fdiv(f, b, in, 0);
	case PO_RCP: return sel_fdiv(f, b, in, 1);
	case PO_SQRT: return sel_mufu(f, b, in, SUB_SQRT);
	case PO_RSQRT: return sel_mufu(f, b, in, SUB_RSQ);
	case PO_SIN: return sel_mufu(f, b, in, SUB_SIN);
	case PO_COS: return sel_mufu(f, b, in, SUB_COS);
	case PO_LG2: return sel_mufu(f, b, in, SUB_LG2);
	case PO_EX2: return sel_mufu(f, b, in, SUB_EX2);
	case PO_TANH: return sel_mufu(f, b, in, SUB_TANH);
	case PO_ABS: return sel_fabsneg(f, b, in, 0);
	case PO_NEG: return sel_fabsneg(f, b, in, 1);
	case PO_COPYSIGN: return sel_copysign(f, b, in);
	case PO_TESTP: return sel_testp(f, b, in);
	case PO_SAD: return sel_sad(f, b, in);
	default:
		return be_unsup(f, in, NULL), -1;
	}
}

/* cvt, except to or from bf16, to f16x2, bf16x2 and tf32, and f16 with .relu or .satfinite
 * (isel_bf16.c) */
int be_sel_cvt(Fn *f, Blk *b, const PIns *in)
{
	if (narrow_float(in->m.types[0]) && in->m.types[0] != PT_F16)
		return be_unsup(f, in, "conversion to this floating-point type"), -1;
	if (narrow_float(in->m.types[1]) && in->m.types[1] != PT_F16)
		return be_unsup(f, in, "conversion from this floating-point type"), -1;
	return sel_cvt(f, b, in);
}
