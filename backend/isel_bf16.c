/* isel_bf16.c - instruction selection for bf16 (1 sign, 8 exponent, 7 fraction bits: the top
 * half of an f32) and for cvt.f16x2.f32. No modelled GPU has bf16 units here, so:
 *   cvt.f32.bf16      SHL 16 (exact);
 *   cvt.rn.bf16.f32   integer round to nearest even on the f32 bits (u + 0x7fff + bit 16) >> 16,
 *                     which carries into the exponent (and to INF) as it should; .rz: u >> 16;
 *                     a NaN gives the canonical bf16 NaN 0x7fff;
 *   add/sub/mul.rn.bf16  in f64 (a product of two bf16 is exact; a sum of two is exact or the
 *                     smaller operand is far below half an ulp of the result), then to f32
 *                     rounding to odd (F2F.RZ, and bit 0 set when inexact), then the f32 -> bf16
 *                     rounding above: f32 has more than bf16's precision + 2 bits at every
 *                     magnitude, so rounding to odd and then to nearest rounds once;
 *   cvt.rn.f16x2.f32 d, a, b  two F2F.F16.F32: a in the upper half, b in the lower.
 * fma.bf16 is not supported: a 16-bit product plus a far smaller addend rounds in f64 and
 * would lose the sticky bit that decides a tie.
 * The oracle (oracle/falu.c) computes the same results by other means. */
#include "backend/be.h"

static MIns *op2(Fn *f, Blk *b, Op op, MOpd d, MOpd a)
{
	MIns *in = be_op3(f, b, op, d, a, be_r(T_RZ));
	in->nopd = 2;
	return in;
}

static MIns *shift(Fn *f, Blk *b, Op op, int d, MOpd a, int k)
{
	MIns *x = be_op3(f, b, op, be_r(d), a, be_imm(k));
	if (op == OP_SHR)
		x->m.dtype = TY_U32;
	return x;
}

static MIns *lop(Fn *f, Blk *b, Sub s, int d, MOpd a, MOpd c)
{
	MIns *x = be_op3(f, b, OP_LOP, be_r(d), a, c);
	x->m.sub = (uint8_t)s;
	return x;
}

/* d = the bf16 of the f32 bits in u (rounded to nearest even, or toward zero) */
static void round_bf16(Fn *f, Blk *b, int d, MOpd u, int rz)
{
	int t = be_newtmp(f, TC_R), p = be_newtmp(f, TC_P);
	MIns *x;

	if (rz) {
		shift(f, b, OP_SHR, t, u, 16);
	} else {
		shift(f, b, OP_SHR, t, u, 16);
		lop(f, b, SUB_AND, t, be_r(t), be_imm(1));
		be_op3(f, b, OP_IADD, be_r(t), be_r(t), u);
		be_op3(f, b, OP_IADD, be_r(t), be_r(t), be_imm(0x7fff));
		shift(f, b, OP_SHR, t, be_r(t), 16);
	}
	be_setp_ins(f, b, OP_FSETP, CMP_NAN, TY_F32, p, T_PT, u, u, be_p(T_PT), BOP_AND);
	x = be_op3(f, b, OP_SEL, be_r(d), be_inreg(f, b, be_imm(0x7fff), TC_R), be_r(t));
	x->nopd = 4;
	x->o[3] = be_pn(p, 0);
}

/* the f64 of a bf16 operand */
static MOpd widen64(Fn *f, Blk *b, const POpd *o)
{
	int t = be_newtmp(f, TC_R), w = be_newtmp(f, TC_R2);
	MIns *x;

	shift(f, b, OP_SHL, t, be_inreg(f, b, be_src(f, b, o, PT_BF16), TC_R), 16);
	x = op2(f, b, OP_F2F, be_r(w), be_r(t));
	x->m.dtype = TY_F64;
	x->m.stype = TY_F32;
	return be_r(w);
}

int be_sel_bf16(Fn *f, Blk *b, const PIns *in)
{
	int d = be_dst(f, &in->o[0]);
	int w = be_newtmp(f, TC_R2), z = be_newtmp(f, TC_R), y = be_newtmp(f, TC_R2);
	int p = be_newtmp(f, TC_P);
	MOpd a, c;
	MIns *x;

	if (in->m.types[0] != PT_BF16)
		return be_unsup(f, in, "bf16x2/tf32 arithmetic"), -1;
	if (in->op != PO_ADD && in->op != PO_SUB && in->op != PO_MUL)
		return be_unsup(f, in, "this bf16 operation"), -1;
	if ((in->m.rnd != PRND_NONE && in->m.rnd != PRND_RN) || (in->m.flags & (PMF_SAT | PMF_RELU)))
		return be_unsup(f, in, "bf16 arithmetic other than .rn"), -1;
	a = widen64(f, b, &in->o[1]);
	c = widen64(f, b, &in->o[2]);
	x = be_op3(f, b, in->op == PO_MUL ? OP_DMUL : OP_DADD, be_r(w), a, c);
	if (in->op == PO_SUB)
		x->o[2].flags = OPF_NEG;
	/* to f32 rounding to odd */
	x = op2(f, b, OP_F2F, be_r(z), be_r(w));
	x->m.dtype = TY_F32;
	x->m.stype = TY_F64;
	x->m.rnd = RND_RZ;
	x = op2(f, b, OP_F2F, be_r(y), be_r(z));
	x->m.dtype = TY_F64;
	x->m.stype = TY_F32;
	be_setp_ins(f, b, OP_DSETP, CMP_NEU, TY_F64, p, T_PT, be_r(y), be_r(w), be_p(T_PT), BOP_AND);
	x = lop(f, b, SUB_OR, z, be_r(z), be_imm(1));
	x->guard = p;
	round_bf16(f, b, d, be_r(z), 0);
	return 0;
}

/* cvt with bf16 on one side, or to f16x2 from two f32 */
int be_sel_cvt_bf16(Fn *f, Blk *b, const PIns *in)
{
	int dt = in->m.types[0], st = in->m.types[1], d = be_dst(f, &in->o[0]);
	int rz = in->m.rnd == PRND_RZ;
	MOpd a;
	MIns *x;

	if (in->m.flags & (PMF_SAT | PMF_RELU | PMF_SATFINITE | PMF_FTZ))
		return be_unsup(f, in, "this conversion modifier"), -1;
	if (st != PT_F32 || (dt == PT_F16X2 ? in->nopd != 3 : in->nopd != 2))
		goto no;
	if (dt == PT_F16X2) {
		int h[2];
		if (in->m.rnd != PRND_RN && !rz)
			goto no;
		for (int k = 0; k < 2; k++) {
			int t = be_newtmp(f, TC_R);
			h[k] = be_newtmp(f, TC_R);
			x = op2(f, b, OP_F2F, be_r(t), be_inreg(f, b, be_src(f, b, &in->o[1 + k], PT_F32), TC_R));
			x->m.dtype = TY_F16;
			x->m.stype = TY_F32;
			x->m.rnd = rz ? RND_RZ : RND_RN;
			lop(f, b, SUB_AND, h[k], be_r(t), be_imm(0xffff));
		}
		shift(f, b, OP_SHL, h[0], be_r(h[0]), 16);
		lop(f, b, SUB_OR, d, be_r(h[0]), be_r(h[1]));
		return 0;
	}
	if (dt != PT_BF16 || (in->m.rnd != PRND_RN && !rz))
		goto no;
	round_bf16(f, b, d, be_inreg(f, b, be_src(f, b, &in->o[1], PT_F32), TC_R), rz);
	return 0;
no:
	if (dt == PT_F32 && st == PT_BF16 && in->nopd == 2 && in->m.rnd == PRND_NONE) {
		a = be_inreg(f, b, be_src(f, b, &in->o[1], PT_BF16), TC_R);
		shift(f, b, OP_SHL, d, a, 16);
		return 0;
	}
	return be_unsup(f, in, "this bf16/f16x2 conversion"), -1;
}
