/* isel_bf16.c - instruction selection for the 16-bit float lanes beyond f16 arithmetic: bf16
 * (1 sign, 8 exponent, 7 fraction bits: the top half of an f32) and bf16x2 arithmetic,
 * min/max of f16, f16x2, bf16 and bf16x2, and conversions from f32 to f16/f16x2/bf16/bf16x2
 * (.relu, .satfinite) and to tf32 (their comparisons are in isel_cmp.c). No modelled GPU has
 * these units, so each lane goes through exact wider arithmetic and one final rounding:
 *   lanes to f32      bf16: SHL 16 (lane 0) or AND 0xffff0000 (lane 1); f16: F2F.F32.F16 (of
 *                     the lane shifted down): both exact (be_half_f32, sel.c);
 *   comparisons       FSETP on the exact f32 values (f16 .ftz flushes the f16 subnormals first:
 *                     they are normal f32s); f16x2/bf16x2 setp: p from the lower halves, q from
 *                     the upper ones, each combined with c (PTX's half-precision setp; isel_cmp.c);
 *   min/max           FMNMX on the exact f32 values: the result is one of them (exact back in
 *                     16 bits) or the canonical NaN (0x7fffffff, whose top half is bf16's 0x7fff
 *                     and which F2F.F16 makes f16's 0x7fff);
 *   cvt.f32.bf16      SHL 16 (exact); from bf16 to f64, f16, integers: that f32 converted once;
 *                     to bf16 from f16 (exact in f32) and f64 (f32 rounded to odd first);
 *   cvt.rn.bf16.f32   integer round to nearest even on the f32 bits (u + 0x7fff + bit 16) >> 16,
 *                     which carries into the exponent (and to INF) as it should; .rz: u >> 16;
 *                     a NaN gives the canonical bf16 NaN 0x7fff;
 *   add/sub/mul.rn.bf16  in f64 (a product of two bf16 is exact; a sum of two is exact or the
 *                     smaller operand is far below half an ulp of the result), then to f32
 *                     rounding to odd (F2F.RZ, and bit 0 set when inexact), then the f32 -> bf16
 *                     rounding above: f32 has more than bf16's precision + 2 bits at every
 *                     magnitude (bf16 subnormals are multiples of 2^-133, f32's of 2^-149), so
 *                     rounding to odd and then to nearest rounds once;
 *   fma.rn.bf16       the product is exact in f64, the sum p + c is not always: it is rounded to
 *                     odd in f64 (DADD.RZ, bit 0 set when the two-sum error of the nearest sum
 *                     is not zero: Knuth's two-sum is exact for any two doubles that do not
 *                     overflow), then to odd in f32, then to nearest bf16: rounding to odd at 53
 *                     and then at 24 bits is rounding to odd at 24 bits (an odd last bit never
 *                     lands on a shorter grid), and 24 >= 8 + 2;
 *   .relu             a result with its sign bit set (a negative value or -0; NaNs are the
 *                     positive canonical one) becomes +0 (PTX: negative results clamp to 0);
 *   cvt to tf32       on the f32 bits: .rna adds 0x1000 (half an ulp of a 10-bit fraction,
 *                     ties away from zero), .rn adds 0xfff + bit 13, .rz nothing, then the 13
 *                     low bits are cleared (a carry reaches the exponent and INF as it
 *                     should); NaN gives the canonical f32 NaN 0x7fffffff;
 *   .satfinite        an INF result (from an INF input or overflow) becomes the largest finite
 *                     value of its sign (f16 0x7bff, bf16 0x7f7f, tf32 0x7f7fe000).
 * The oracle (oracle/falu.c) computes the same results by other means (scaling a double). */
#include <assert.h>
#include "backend/be.h"

static int is_half(int pt) { return pt == PT_F16 || pt == PT_BF16; }
static int elem_of(int pt) { return pt == PT_F16X2 ? PT_F16 : pt == PT_BF16X2 ? PT_BF16 : pt; }

/* d (16 bits, the upper ones zero) = the f16 or bf16 of the f32 u, which is exactly
 * representable or a NaN (canonical result) */
static void narrow_exact(Fn *f, Blk *b, int d, MOpd u, int et)
{
	MIns *x;

	if (et == PT_BF16) {
		be_round_bf16(f, b, d, u, 1);
		return;
	}
	x = be_op2(f, b, OP_F2F, be_r(d), u);
	x->m.dtype = TY_F16;
	x->m.stype = TY_F32;
	x->m.rnd = RND_RN;
}

/* d = the halves hi:lo (each with zero upper bits) */
static void pack2(Fn *f, Blk *b, int d, int hi, int lo)
{
	MIns *x = be_op3(f, b, OP_ISCADD, be_r(d), be_r(hi), be_r(lo));

	x->nopd = 4;
	x->o[3] = be_imm(16);
}

/* ------------------------------------------------------------------ min/max */
/* min/max{.NaN}{.relu} of f16, f16x2, bf16, bf16x2: FMNMX on the exact f32 lanes */
int be_sel_hminmax(Fn *f, Blk *b, const PIns *in, int max)
{
	int pt = in->m.types[0], et = elem_of(pt), n = is_half(pt) ? 1 : 2, d = be_dst(f, &in->o[0]);
	int h[2];

	if (in->nopd != 3 || (in->m.flags & PMF_XORSIGN))
		return be_unsup(f, in, in->nopd != 3 ? "three-operand min/max of 16-bit floats" :
		                "min/max.xorsign.abs"), -1;
	for (int k = 0; k < n; k++) {
		MOpd a = be_half_f32(f, b, be_src(f, b, &in->o[1], pt), et, k, (in->m.flags & PMF_FTZ) != 0);
		MOpd c = be_half_f32(f, b, be_src(f, b, &in->o[2], pt), et, k, (in->m.flags & PMF_FTZ) != 0);
		int t = be_newtmp(f, TC_R), pn = -1;
		MIns *x;
		if (in->m.flags & PMF_NAN) {
			pn = be_newtmp(f, TC_P);
			be_setp_ins(f, b, OP_FSETP, CMP_NAN, TY_NONE, pn, T_PT, a, c, be_p(T_PT), BOP_AND);
		}
		x = be_op3(f, b, OP_FMNMX, be_r(t), a, c);
		x->nopd = 4;
		x->o[3] = be_pn(T_PT, max);
		if (pn >= 0) {
			x = be_op3(f, b, OP_SEL, be_r(t), be_inreg(f, b, be_imm(0x7fffffff), TC_R), be_r(t));
			x->nopd = 4;
			x->o[3] = be_p(pn);
		}
		h[k] = n == 1 ? d : be_newtmp(f, TC_R);
		narrow_exact(f, b, h[k], be_r(t), et);
		if (in->m.flags & PMF_RELU)
			be_relu16(f, b, h[k]);
	}
	if (n == 2)
		pack2(f, b, d, h[1], h[0]);
	return 0;
}

/* ------------------------------------------------------------------ arithmetic */
/* the f64 of a bf16 lane */
static MOpd widen64(Fn *f, Blk *b, MOpd s, int k)
{
	int w = be_newtmp(f, TC_R2);
	MIns *x = be_op2(f, b, OP_F2F, be_r(w), be_half_f32(f, b, s, PT_BF16, k, 0));

	x->m.dtype = TY_F64;
	x->m.stype = TY_F32;
	return be_r(w);
}

static MIns *dadd(Fn *f, Blk *b, int d, MOpd a, MOpd c, int negc)
{
	MIns *x = be_op3(f, b, OP_DADD, be_r(d), a, c);

	if (negc)
		x->o[2].flags = OPF_NEG;
	return x;
}

/* w = p + c rounded to odd in f64 (see the header): two-sum error e of the nearest sum s,
 * the sum toward zero, and its bit 0 set when e is a nonzero number */
static void sum_odd64(Fn *f, Blk *b, int w, MOpd p, MOpd c)
{
	int s = be_newtmp(f, TC_R2), v = be_newtmp(f, TC_R2), t1 = be_newtmp(f, TC_R2);
	int t2 = be_newtmp(f, TC_R2), t3 = be_newtmp(f, TC_R2), pe = be_newtmp(f, TC_P);
	MIns *x;

	dadd(f, b, s, p, c, 0);
	dadd(f, b, v, be_r(s), p, 1);           /* v = s - p */
	dadd(f, b, t1, be_r(s), be_r(v), 1);    /* s - v */
	dadd(f, b, t2, p, be_r(t1), 1);         /* p - (s - v) */
	dadd(f, b, t3, c, be_r(v), 1);          /* c - v */
	dadd(f, b, t1, be_r(t2), be_r(t3), 0);  /* e */
	x = dadd(f, b, w, p, c, 0);
	x->m.rnd = RND_RZ;
	be_setp_ins(f, b, OP_DSETP, CMP_NE, TY_F64, pe, T_PT, be_r(t1), be_imm(0), be_p(T_PT), BOP_AND);
	x = be_op3(f, b, OP_LOP, be_rpart(w, 0), be_rpart(w, 0), be_imm(1));
	x->m.sub = SUB_OR;
	x->guard = pe;
}

/* d = the bf16 (rounded to nearest even) of the f64 w, through f32 rounded to odd */
static void bf16_of_f64(Fn *f, Blk *b, int d, int w)
{
	int z = be_newtmp(f, TC_R), y = be_newtmp(f, TC_R2), p = be_newtmp(f, TC_P);
	MIns *x;

	x = be_op2(f, b, OP_F2F, be_r(z), be_r(w));
	x->m.dtype = TY_F32;
	x->m.stype = TY_F64;
	x->m.rnd = RND_RZ;
	x = be_op2(f, b, OP_F2F, be_r(y), be_r(z));
	x->m.dtype = TY_F64;
	x->m.stype = TY_F32;
	be_setp_ins(f, b, OP_DSETP, CMP_NEU, TY_F64, p, T_PT, be_r(y), be_r(w), be_p(T_PT), BOP_AND);
	x = be_lop(f, b, SUB_OR, z, be_r(z), be_imm(1));
	x->guard = p;
	be_round_bf16(f, b, d, be_r(z), 0);
}

/* add/sub/mul.rn, fma.rn{.relu} of bf16 and bf16x2 (min/max: be_sel_hminmax, through
 * be_sel_minmax) */
int be_sel_bf16(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], n = pt == PT_BF16X2 ? 2 : 1, op = in->op, d = be_dst(f, &in->o[0]);
	int fma = op == PO_FMA, h[2];

	assert(pt == PT_BF16 || pt == PT_BF16X2);   /* isel_math.c routes only these here */
	if (op != PO_ADD && op != PO_SUB && op != PO_MUL && !fma)
		return be_unsup(f, in, "this bf16 operation"), -1;
	if ((in->m.rnd != PRND_NONE && in->m.rnd != PRND_RN) || (in->m.flags & (PMF_SAT | PMF_FTZ)) ||
	    ((in->m.flags & PMF_RELU) && !fma))
		return be_unsup(f, in, "bf16 arithmetic other than .rn (and .relu on fma)"), -1;
	for (int k = 0; k < n; k++) {
		MOpd a = widen64(f, b, be_src(f, b, &in->o[1], pt), k);
		MOpd c = widen64(f, b, be_src(f, b, &in->o[2], pt), k);
		int w = be_newtmp(f, TC_R2);
		MIns *x;
		h[k] = n == 1 ? d : be_newtmp(f, TC_R);
		if (fma) {
			int pr = be_newtmp(f, TC_R2);
			be_op3(f, b, OP_DMUL, be_r(pr), a, c);   /* exact */
			sum_odd64(f, b, w, be_r(pr), widen64(f, b, be_src(f, b, &in->o[3], pt), k));
		} else {
			x = be_op3(f, b, op == PO_MUL ? OP_DMUL : OP_DADD, be_r(w), a, c);
			if (op == PO_SUB)
				x->o[2].flags = OPF_NEG;
		}
		bf16_of_f64(f, b, h[k], w);
		if (in->m.flags & PMF_RELU)
			be_relu16(f, b, h[k]);
	}
	if (n == 2)
		pack2(f, b, d, h[1], h[0]);
	return 0;
}

/* ------------------------------------------------------------------ conversions */
/* d = tf32 of the f32 bits u (.rna, .rn or .rz) */
static void round_tf32(Fn *f, Blk *b, int d, MOpd u, int prnd)
{
	int t = be_newtmp(f, TC_R), p = be_newtmp(f, TC_P);
	MIns *x;

	u = be_inreg(f, b, u, TC_R);
	if (prnd == PRND_RNA) {
		be_op3(f, b, OP_IADD, be_r(t), u, be_imm(0x1000));
	} else if (prnd == PRND_RN) {
		be_shift(f, b, OP_SHR, t, u, 13);
		be_lop(f, b, SUB_AND, t, be_r(t), be_imm(1));
		be_op3(f, b, OP_IADD, be_r(t), be_r(t), u);
		be_op3(f, b, OP_IADD, be_r(t), be_r(t), be_imm(0xfff));
	} else {
		be_mov(f, b, t, u, TC_R);
	}
	be_lop(f, b, SUB_AND, t, be_r(t), be_imm((int64_t)0xffffe000));
	be_setp_ins(f, b, OP_FSETP, CMP_NAN, TY_F32, p, T_PT, u, u, be_p(T_PT), BOP_AND);
	x = be_op3(f, b, OP_SEL, be_r(d), be_inreg(f, b, be_imm(0x7fffffff), TC_R), be_r(t));
	x->nopd = 4;
	x->o[3] = be_p(p);
}

/* .satfinite: an INF d (sign bit sb, INF pattern inf) becomes the largest finite value */
static void satfinite(Fn *f, Blk *b, int d, int64_t sb, int64_t inf, int64_t max)
{
	int m = be_newtmp(f, TC_R), p = be_newtmp(f, TC_P);
	MIns *x;

	be_lop(f, b, SUB_AND, m, be_r(d), be_imm(~sb & 0xffffffff));
	be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, p, T_PT, be_r(m), be_imm(inf), be_p(T_PT), BOP_AND);
	x = be_op3(f, b, OP_IADD, be_r(d), be_r(d), be_imm(max - inf));
	x->guard = p;
}

/* d = one f32 (s) converted to f16, bf16 or tf32 (et) with the rounding and .relu/.satfinite
 * of in */
static void cvt_one(Fn *f, Blk *b, const PIns *in, int d, MOpd s, int et)
{
	int rz = in->m.rnd == PRND_RZ;
	MIns *x;

	s = be_inreg(f, b, s, TC_R);
	if (et == PT_TF32) {
		round_tf32(f, b, d, s, in->m.rnd);
		if (in->m.flags & PMF_SATFINITE)
			satfinite(f, b, d, 0x80000000ll, 0x7f800000, 0x7f7fe000);
		if (in->m.flags & PMF_RELU) {
			int p = be_newtmp(f, TC_P);
			be_setp_ins(f, b, OP_ISETP, CMP_LT, TY_S32, p, T_PT, be_r(d), be_r(T_RZ), be_p(T_PT), BOP_AND);
			x = be_op3(f, b, OP_SEL, be_r(d), be_r(T_RZ), be_r(d));
			x->nopd = 4;
			x->o[3] = be_p(p);
		}
		return;
	}
	if (et == PT_BF16) {
		be_round_bf16(f, b, d, s, rz);
	} else {
		int t = be_newtmp(f, TC_R);
		x = be_op2(f, b, OP_F2F, be_r(t), s);
		x->m.dtype = TY_F16;
		x->m.stype = TY_F32;
		x->m.rnd = rz ? RND_RZ : RND_RN;
		be_lop(f, b, SUB_AND, d, be_r(t), be_imm(0xffff));
	}
	if (in->m.flags & PMF_SATFINITE)
		satfinite(f, b, d, 0x8000, et == PT_BF16 ? 0x7f80 : 0x7c00, et == PT_BF16 ? 0x7f7f : 0x7bff);
	if (in->m.flags & PMF_RELU)
		be_relu16(f, b, d);
}

/* d = the f32 a converted to the destination type of in (f32, f64, f16, an integer) with its
 * rounding (cvt.f32.bf16 and the other conversions from bf16) */
static int cvt_from_f32(Fn *f, Blk *b, const PIns *in, int d, MOpd a)
{
	int dt = in->m.types[0], r = in->m.rnd, k = ptx_type_kind((PType)dt);
	MIns *x;

	if (dt == PT_F32 && r == PRND_NONE) {
		be_mov(f, b, d, a, TC_R);
		return 0;
	}
	if ((dt == PT_F64 && r == PRND_NONE) || (dt == PT_F16 && (r == PRND_RN || r == PRND_RZ ||
	                                                        r == PRND_RM || r == PRND_RP))) {
		x = be_op2(f, b, OP_F2F, be_r(d), a);
		x->m.dtype = (uint8_t)ptxisa_type(dt);
		x->m.stype = TY_F32;
		x->m.rnd = (uint8_t)ptxisa_rnd(r);
		return 0;
	}
	if ((k == PTK_SIGNED || k == PTK_UNSIGNED) &&
	    (r == PRND_RNI || r == PRND_RZI || r == PRND_RMI || r == PRND_RPI)) {
		x = be_op2(f, b, OP_F2I, be_r(d), a);
		x->m.dtype = (uint8_t)ptxisa_type(dt);
		x->m.stype = TY_F32;
		x->m.rnd = (uint8_t)ptxisa_rnd(r);   /* saturating, as F2I is (.sat is refused) */
		be_fix16(f, b, d, dt);
		return 0;
	}
	return be_unsup(f, in, "this bf16 conversion"), -1;
}

/* cvt.rn.f16x2.e4m3x2/.e5m2x2 d, a: each byte of a to the f16 half of d in its place (the
 * low byte to the low half). An e5m2 is the upper byte of the f16 of the same value. An e4m3
 * (bias 7, no infinity) with its sign cleared, shifted left 20, is the f32 of its value times
 * 2^-120 (its subnormals are f32 subnormals): one FMUL by 2^120 makes it exact, then the
 * sign, the NaN (S.1111.111: the canonical f16 NaN) and F2F (exact) */
static void f16x2_of_fp8(Fn *f, Blk *b, int d, MOpd a, int e4m3)
{
	int h[2];

	a = be_inreg(f, b, a, TC_R);
	for (int k = 0; k < 2; k++) {
		int byte = be_newtmp(f, TC_R), mag = be_newtmp(f, TC_R), v = be_newtmp(f, TC_R);
		h[k] = be_newtmp(f, TC_R);
		if (k)
			be_shift(f, b, OP_SHR, byte, a, 8);
		else
			be_mov(f, b, byte, a, TC_R);
		if (!e4m3) {
			be_lop(f, b, SUB_AND, v, be_r(byte), be_imm(0xff));
			be_shift(f, b, OP_SHL, h[k], be_r(v), 8);
			continue;
		}
		int sg = be_newtmp(f, TC_R), p = be_newtmp(f, TC_P);
		MIns *x;
		be_lop(f, b, SUB_AND, mag, be_r(byte), be_imm(0x7f));
		be_shift(f, b, OP_SHL, v, be_r(mag), 20);
		be_op3(f, b, OP_FMUL, be_r(v), be_r(v), be_imm(0x7b800000));   /* 2^120 */
		be_shift(f, b, OP_SHL, sg, be_r(byte), 24);
		be_lop(f, b, SUB_AND, sg, be_r(sg), be_imm((int64_t)0x80000000));
		be_lop(f, b, SUB_OR, v, be_r(v), be_r(sg));
		be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, p, T_PT, be_r(mag), be_imm(0x7f), be_p(T_PT),
		            BOP_AND);
		x = be_op3(f, b, OP_SEL, be_r(v), be_inreg(f, b, be_imm(0x7fffffff), TC_R), be_r(v));
		x->nopd = 4;
		x->o[3] = be_p(p);
		narrow_exact(f, b, h[k], be_r(v), PT_F16);
	}
	pack2(f, b, d, h[1], h[0]);
}

/* d = the e4m3 (mb 3, bias 7) or e5m2 (mb 2, bias 15) byte of the f32 x, .rn.satfinite: on the
 * magnitude's bits, normal codes round to nearest even by adding half less one plus the kept
 * lsb before the shift (a carry moves into the exponent) and rebias; below the smallest normal
 * F2I.ROUND of x * 2^(bias - 1 + mb) counts the subnormal steps (2^mb is the smallest normal's
 * code); then the largest finite code at most (infinities too), 0x7f for a NaN, the sign */
static void fp8_of_f32(Fn *f, Blk *b, int d, MOpd x, int e4m3)
{
	int mb = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15, sh = 23 - mb, maxc = e4m3 ? 0x7e : 0x7b;
	int mag = be_newtmp(f, TC_R), sg = be_newtmp(f, TC_R), r = be_newtmp(f, TC_R);
	int lsb = be_newtmp(f, TC_R), q = be_newtmp(f, TC_R), fs = be_newtmp(f, TC_R);
	int p = be_newtmp(f, TC_P);
	MIns *y;

	x = be_inreg(f, b, x, TC_R);
	be_lop(f, b, SUB_AND, mag, x, be_imm(0x7fffffff));
	be_shift(f, b, OP_SHR, sg, x, 24);
	be_lop(f, b, SUB_AND, sg, be_r(sg), be_imm(0x80));
	be_shift(f, b, OP_SHR, lsb, be_r(mag), sh);
	be_lop(f, b, SUB_AND, lsb, be_r(lsb), be_imm(1));
	be_op3(f, b, OP_IADD, be_r(r), be_r(mag), be_r(lsb));
	be_op3(f, b, OP_IADD, be_r(r), be_r(r), be_imm((1 << (sh - 1)) - 1));
	be_shift(f, b, OP_SHR, r, be_r(r), sh);
	be_op3(f, b, OP_IADD, be_r(r), be_r(r), be_imm((uint32_t)(0 - ((127 - bias) << mb))));
	be_op3(f, b, OP_FMUL, be_r(fs), be_r(mag), be_imm((int64_t)(127 + bias - 1 + mb) << 23));
	y = be_op2(f, b, OP_F2I, be_r(q), be_r(fs));
	y->m.dtype = TY_U32;
	y->m.stype = TY_F32;
	y->m.rnd = RND_ROUND;
	be_setp_ins(f, b, OP_ISETP, CMP_LT, TY_U32, p, T_PT, be_r(mag), be_imm((int64_t)(128 - bias) << 23),
	            be_p(T_PT), BOP_AND);
	y = be_op3(f, b, OP_SEL, be_r(r), be_r(q), be_r(r));
	y->nopd = 4;
	y->o[3] = be_p(p);
	y = be_op3(f, b, OP_IMNMX, be_r(r), be_r(r), be_imm(maxc));
	y->nopd = 4;
	y->o[3] = be_pn(T_PT, 0);
	y->m.dtype = TY_U32;
	be_setp_ins(f, b, OP_ISETP, CMP_GT, TY_U32, p, T_PT, be_r(mag), be_imm(0x7f800000), be_p(T_PT),
	            BOP_AND);
	y = be_op3(f, b, OP_SEL, be_r(r), be_inreg(f, b, be_imm(0x7f), TC_R), be_r(r));
	y->nopd = 4;
	y->o[3] = be_p(p);
	be_lop(f, b, SUB_OR, d, be_r(r), be_r(sg));
}

/* cvt with bf16 on one side; from f32 to f16x2, bf16x2 or tf32; from f32 to f16 with .relu
 * or .satfinite; from two fp8 to f16x2, and from two f32 to fp8x2 */
int be_sel_cvt_bf16(Fn *f, Blk *b, const PIns *in)
{
	int dt = in->m.types[0], st = in->m.types[1], d = be_dst(f, &in->o[0]), r = in->m.rnd;
	int x2 = dt == PT_F16X2 || dt == PT_BF16X2;
	/* PTX: cvt.rna{.satfinite}.tf32.f32 has no .relu */
	int rnd_ok = r == PRND_RN || r == PRND_RZ ||
	             (dt == PT_TF32 && r == PRND_RNA && !(in->m.flags & PMF_RELU));
	MOpd a;

	if (in->m.flags & (PMF_SAT | PMF_FTZ))
		return be_unsup(f, in, "this conversion modifier"), -1;
	if (st == PT_F32 && rnd_ok && in->nopd == (x2 ? 3 : 2) &&
	    (dt == PT_F16 || dt == PT_BF16 || dt == PT_TF32 || x2)) {
		int h[2];
		for (int k = 0; k < (x2 ? 2 : 1); k++) {
			h[k] = x2 ? be_newtmp(f, TC_R) : d;
			cvt_one(f, b, in, h[k], be_src(f, b, &in->o[1 + k], PT_F32), elem_of(dt));
		}
		if (x2)
			pack2(f, b, d, h[0], h[1]);   /* a in the upper half */
		return 0;
	}
	if ((dt == PT_E4M3X2 || dt == PT_E5M2X2) && st == PT_F32 && in->nopd == 3 && r == PRND_RN &&
	    (in->m.flags & PMF_SATFINITE) && !(in->m.flags & PMF_RELU)) {
		/* a to the upper byte, b to the lower */
		int h[2];
		MIns *x;
		for (int k = 0; k < 2; k++) {
			h[k] = be_newtmp(f, TC_R);
			fp8_of_f32(f, b, h[k], be_src(f, b, &in->o[1 + k], PT_F32), dt == PT_E4M3X2);
		}
		x = be_op3(f, b, OP_ISCADD, be_r(d), be_r(h[0]), be_r(h[1]));
		x->nopd = 4;
		x->o[3] = be_imm(8);
		return 0;
	}
	if (in->nopd != 2 || (in->m.flags & (PMF_RELU | PMF_SATFINITE)))
		goto bad;
	if (dt == PT_F16X2 && (st == PT_E4M3X2 || st == PT_E5M2X2) && r == PRND_RN) {
		f16x2_of_fp8(f, b, d, be_src(f, b, &in->o[1], st), st == PT_E4M3X2);
		return 0;
	}
	if (st == PT_BF16 && dt != PT_BF16) {
		/* from the exact f32 of the bf16: one conversion, the only rounding */
		a = be_half_f32(f, b, be_src(f, b, &in->o[1], PT_BF16), PT_BF16, 0, 0);
		return cvt_from_f32(f, b, in, d, a);
	}
	if (dt == PT_BF16 && (st == PT_F16 || st == PT_F64) && (r == PRND_RN || r == PRND_RZ)) {
		if (st == PT_F16) {
			/* the f16 is exact in f32: one rounding */
			be_round_bf16(f, b, d, be_half_f32(f, b, be_src(f, b, &in->o[1], PT_F16), PT_F16, 0, 0),
			              r == PRND_RZ);
		} else if (r == PRND_RN) {
			bf16_of_f64(f, b, d, be_inreg(f, b, be_src(f, b, &in->o[1], PT_F64), TC_R2).t);
		} else {
			/* toward zero twice is toward zero once */
			int z = be_newtmp(f, TC_R);
			MIns *x = be_op2(f, b, OP_F2F, be_r(z), be_inreg(f, b, be_src(f, b, &in->o[1], PT_F64), TC_R2));
			x->m.dtype = TY_F32;
			x->m.stype = TY_F64;
			x->m.rnd = RND_RZ;
			be_round_bf16(f, b, d, be_r(z), 1);
		}
		return 0;
	}
bad:
	return be_unsup(f, in, "this bf16/f16x2/tf32/fp8 conversion"), -1;
}
