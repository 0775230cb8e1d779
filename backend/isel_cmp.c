/* isel_cmp.c - instruction selection of comparisons, selections and moves: setp of every
 * type (16-bit floats through their exact f32 values, f16x2/bf16x2 per half: p from the
 * lower halves, q from the upper ones, as PTX's half-precision setp), set, selp, slct, and
 * mov (copies, vector pack and unpack). 64-bit integer comparisons are three ISETPs on the
 * words: (hi cmp hi) or (hi == hi and lo cmp_unsigned lo). Calls sel.c and util.c.
 */
#include "backend/be.h"

/* the guard of the PTX instruction applies to everything selected for it: isel emits into
 * a block and backend applies the guard afterwards (see be_isel_ins) */

/* ------------------------------------------------------------------ compare and select */
/* p = a cmp b (bop c), q = !(a cmp b) (bop c) for any PTX comparison type */
static int setp(Fn *f, Blk *b, const PIns *in, int pt, int p, int q, MOpd a, MOpd x, MOpd cc,
            Bop bop)
{
	int uns = !tsigned(pt);
	Cmp c = be_cmp_of(in->m.cmp, &uns);
	Type ty = uns ? TY_U32 : TY_S32;

	if (c == CMP_NONE)
		return be_unsup(f, in, "comparison"), -1;
	if (tfloat(pt)) {
		Op op = tbytes(pt) == 8 ? OP_DSETP : OP_FSETP;
		MIns *s;
		if (pt == PT_F16 || pt == PT_BF16) {
			/* compare the values widened to f32 (exact; .ftz flushes f16 subnormals first) */
			int ftz = (in->m.flags & PMF_FTZ) != 0;
			a = be_half_f32(f, b, a, pt, 0, ftz);
			x = be_half_f32(f, b, x, pt, 0, ftz);
			pt = PT_F32;
		} else if (pt != PT_F32 && pt != PT_F64) {
			return be_unsup(f, in, "comparison of this floating-point type"), -1;
		}
		s = be_setp_ins(f, b, op, c, TY_NONE, p, q, be_inreg(f, b, a, tbytes(pt) == 8 ? TC_R2 : TC_R), x,
		             cc, bop);
		if (in->m.flags & PMF_FTZ)
			s->m.flags |= MF_FTZ;
		return 0;
	}
	if (c >= CMP_EQU)
		return be_unsup(f, in, "unordered comparison of integers"), -1;
	if (tbytes(pt) == 8) {
		/* (hi cmp hi) or (hi == hi and lo cmp_unsigned lo), equality on both words */
		int r = be_newtmp(f, TC_P), e = be_newtmp(f, TC_P);
		a = be_inreg(f, b, a, TC_R2);
		if (c == CMP_EQ || c == CMP_NE) {
			be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, e, T_PT, be_part(a, 0), be_part(x, 0), be_p(T_PT), BOP_AND);
			be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, r, T_PT, be_part(a, 1), be_part(x, 1), be_p(e), BOP_AND);
			if (c == CMP_NE) {
				MIns *s = be_setp_ins(f, b, OP_PSETP, CMP_NONE, TY_NONE, p, q, be_pn(r, 1), be_p(T_PT), cc, BOP_AND);
				s->m.bop2 = (uint8_t)bop;
				return 0;
			}
		} else {
			Cmp strict = c == CMP_LE ? CMP_LT : c == CMP_GE ? CMP_GT : c;
			be_setp_ins(f, b, OP_ISETP, c, TY_U32, r, T_PT, be_part(a, 0), be_part(x, 0), be_p(T_PT), BOP_AND);
			be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, r, T_PT, be_part(a, 1), be_part(x, 1), be_p(r), BOP_AND);
			be_setp_ins(f, b, OP_ISETP, strict, ty, r, T_PT, be_part(a, 1), be_part(x, 1), be_p(r), BOP_OR);
		}
		MIns *s = be_setp_ins(f, b, OP_PSETP, CMP_NONE, TY_NONE, p, q, be_p(r), be_p(T_PT), cc, BOP_AND);
		s->m.bop2 = (uint8_t)bop;
		return 0;
	}
	a = be_inreg(f, b, be_widen(f, b, a, pt), TC_R);
	x = be_widen(f, b, x, pt);
	be_setp_ins(f, b, OP_ISETP, c, ty, p, q, a, x, cc, bop);
	return 0;
}

/* setp.f16x2/.bf16x2 p|q, a, b{, c}: p from the lower halves, q from the upper ones */
static int hsetp(Fn *f, Blk *b, const PIns *in, int pt, int p, int q, MOpd a, MOpd x, MOpd cc,
                 Bop bop)
{
	int et = pt == PT_F16X2 ? PT_F16 : PT_BF16, ftz = (in->m.flags & PMF_FTZ) != 0;

	for (int k = 0; k < 2; k++) {
		/* x's half made first, then a's, in statements of their own: as arguments of one
		 * call they were made in the order the compiler chose (GCC x's first, clang a's),
		 * and the listing with it */
		MOpd hx = be_half_f32(f, b, x, et, k, ftz);
		MOpd ha = be_half_f32(f, b, a, et, k, ftz);
		if (setp(f, b, in, PT_F32, k ? q : p, T_PT, ha, hx, cc, bop) < 0)
			return -1;
	}
	return 0;
}

static Bop bop_of(int b)
{
	return b == PBOP_AND ? BOP_AND : b == PBOP_OR ? BOP_OR : b == PBOP_XOR ? BOP_XOR : BOP_AND;
}

int be_sel_setp(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0];
	int p = be_dst(f, &in->o[0]), q = be_dst(f, &in->o[1]);
	MOpd a = be_src(f, b, &in->o[2], pt), x = be_src(f, b, &in->o[3], pt);
	MOpd cc = in->nopd > 4 ? be_src(f, b, &in->o[4], PT_PRED) : be_p(T_PT);

	if (pt == PT_F16X2 || pt == PT_BF16X2)
		return hsetp(f, b, in, pt, p < 0 ? T_PT : p, q < 0 ? T_PT : q, a, x, cc,
		                    in->nopd > 4 ? bop_of(in->m.bop) : BOP_AND);
	return setp(f, b, in, pt, p < 0 ? T_PT : p, q < 0 ? T_PT : q, a, x, cc,
	               in->nopd > 4 ? bop_of(in->m.bop) : BOP_AND);
}

/* d = all ones (1.0 for a float type) where the comparison holds, else 0; for an f16x2 or
 * bf16x2 source each half of d holds the result of its half (0xffff, or 1.0 of f16x2/bf16x2) */
int be_sel_set(Fn *f, Blk *b, const PIns *in)
{
	int dt = in->m.types[0], st = in->m.types[1], d = be_dst(f, &in->o[0]);
	int x2 = st == PT_F16X2 || st == PT_BF16X2, p[2] = {be_newtmp(f, TC_P), be_newtmp(f, TC_P)};
	MOpd cc = in->nopd > 3 ? be_src(f, b, &in->o[3], PT_PRED) : be_p(T_PT);
	MOpd a = be_src(f, b, &in->o[1], st), c = be_src(f, b, &in->o[2], st);
	Bop bop = in->nopd > 3 ? bop_of(in->m.bop) : BOP_AND;
	int64_t one = dt == PT_F32 ? 0x3f800000 : dt == PT_F16 || dt == PT_F16X2 ? 0x3c00 :
	              dt == PT_BF16 || dt == PT_BF16X2 ? 0x3f80 : x2 || tbytes(dt) == 2 ? 0xffff : 0xffffffff;
	int h[2];
	MIns *x;

	if (tfloat(dt) && dt != PT_F32 && dt != PT_F16 && dt != PT_BF16 && !(x2 && tbytes(dt) == 4))
		return be_unsup(f, in, "this destination type"), -1;
	if ((x2 ? hsetp(f, b, in, st, p[0], p[1], a, c, cc, bop)
	        : setp(f, b, in, st, p[0], T_PT, a, c, cc, bop)) < 0)
		return -1;
	for (int k = 0; k < (x2 ? 2 : 1); k++) {
		int one_r = be_newtmp(f, TC_R);
		h[k] = x2 ? be_newtmp(f, TC_R) : d;
		be_mov(f, b, one_r, be_imm(one), TC_R);
		x = be_op3(f, b, OP_SEL, be_r(h[k]), be_r(one_r), be_r(T_RZ));
		x->nopd = 4;
		x->o[3] = be_p(p[k]);
	}
	if (x2) {
		x = be_op3(f, b, OP_ISCADD, be_r(d), be_r(h[1]), be_r(h[0]));
		x->nopd = 4;
		x->o[3] = be_imm(16);
	}
	return 0;
}

int be_sel_selp(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	int cls = tbytes(pt) == 8 ? TC_R2 : TC_R;
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), cls), c = be_src(f, b, &in->o[2], pt);
	MOpd p = be_src(f, b, &in->o[3], PT_PRED);
	MIns *x = be_op3(f, b, OP_SEL, be_r(d), a, c);

	x->nopd = 4;
	x->o[3] = p;
	if (cls == TC_R2)
		x->m.dtype = TY_B64;
	return 0;
}

int be_sel_slct(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], st = in->m.types[1], d = be_dst(f, &in->o[0]);
	int cls = tbytes(pt) == 8 ? TC_R2 : TC_R, p = be_newtmp(f, TC_P);
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), cls), c = be_src(f, b, &in->o[2], pt);
	MOpd s = be_inreg(f, b, be_src(f, b, &in->o[3], st), TC_R);
	MIns *x;

	if (tfloat(st)) {
		x = be_setp_ins(f, b, OP_FSETP, CMP_GE, TY_NONE, p, T_PT, s, be_imm(0), be_p(T_PT), BOP_AND);
		if (in->m.flags & PMF_FTZ)
			x->m.flags |= MF_FTZ;
	} else {
		be_setp_ins(f, b, OP_ISETP, CMP_GE, TY_S32, p, T_PT, s, be_r(T_RZ), be_p(T_PT), BOP_AND);
	}
	x = be_op3(f, b, OP_SEL, be_r(d), a, c);
	x->nopd = 4;
	x->o[3] = be_p(p);
	if (cls == TC_R2)
		x->m.dtype = TY_B64;
	return 0;
}

int be_sel_mov(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0];
	const POpd *dst = &in->o[0], *src = &in->o[1];

	if (dst->kind == POK_VEC && src->kind == POK_VEC) {
		/* mov.vN {d..}, {a..}: element by element, every source read first (the two may
		 * share registers: a rotation) */
		int cls = be_regcls(pt), t[8];
		for (int k = 0; k < src->nelems && k < 8; k++) {
			t[k] = be_newtmp(f, cls);
			be_mov(f, b, t[k], be_inreg(f, b, be_src(f, b, &src->elems[k], pt), cls), cls);
		}
		for (int k = 0; k < dst->nelems && k < src->nelems && k < 8; k++)
			if (dst->elems[k].kind == POK_REG)
				be_mov(f, b, f->regtmp[dst->elems[k].reg], be_r(t[k]), cls);
		return 0;
	}
	if (dst->kind == POK_VEC || src->kind == POK_VEC) {
		/* pack/unpack: {a, b} <-> a wider register */
		const POpd *v = dst->kind == POK_VEC ? dst : src;
		const POpd *w = dst->kind == POK_VEC ? src : dst;
		int n = v->nelems, eb = tbytes(pt) / n, wt;
		MIns *x;
		if (w->kind != POK_REG || (eb != 4 && eb != 2 && eb != 1))
			return be_unsup(f, in, "vector operand"), -1;
		wt = f->regtmp[w->reg];
		for (int k = 0; k < n; k++) {
			const POpd *e = &v->elems[k];
			if (e->kind == POK_SINK)
				continue;
			if (e->kind != POK_REG && !(dst == v))
				continue;
			if (dst == v) {
				int et = f->regtmp[e->reg];
				if (eb == 4) {
					be_mov(f, b, et, tbytes(pt) == 8 ? be_rpart(wt, k) : be_rpart(wt, k), TC_R);
				} else {
					MOpd word = tbytes(pt) > 4 ? be_rpart(wt, k * eb / 4) : be_r(wt);
					x = be_emit(f, b, OP_BFE);
					x->m.dtype = TY_U32;
					x->nopd = 3;
					x->o[0] = be_r(et);
					x->o[1] = word;
					x->o[2] = be_imm(((k * eb * 8) % 32) | (eb * 8) << 8);
				}
			}
		}
		if (dst != v) {
			int t = be_newtmp(f, be_regcls(pt));
			for (int k = 0; k < n; k++) {
				MOpd e = be_src(f, b, &v->elems[k], eb == 4 ? PT_B32 : eb == 2 ? PT_B16 : PT_B8);
				if (eb == 4) {
					x = be_emit(f, b, e.kind == OPD_IMM ? OP_MOV32I : OP_MOV);
					x->nopd = 2;
					x->o[0] = be_rpart(t, k);
					x->o[1] = e;
				} else {
					MOpd word = tbytes(pt) > 4 ? be_rpart(t, k * eb / 4) : be_r(t);
					MOpd er = be_inreg(f, b, e, TC_R);
					if ((k * eb * 8) % 32 == 0) {
						x = be_emit(f, b, OP_MOV);
						x->nopd = 2;
						x->o[0] = word;
						x->o[1] = er;
					} else {
						x = be_emit(f, b, OP_BFI);
						x->nopd = 4;
						x->o[0] = word;
						x->o[1] = er;
						x->o[2] = be_imm(((k * eb * 8) % 32) | (eb * 8) << 8);
						x->o[3] = word;
					}
				}
			}
			be_mov(f, b, wt, be_r(t), f->tmp[wt].cls);
		}
		return 0;
	}
	if (dst->kind != POK_REG)
		return be_unsup(f, in, "destination"), -1;
	int d = f->regtmp[dst->reg];
	MOpd s = be_src(f, b, src, pt);
	if (f->tmp[d].cls == TC_P && s.kind == OPD_PRED) {
		be_mov(f, b, d, s, TC_P);
		return 0;
	}
	be_mov(f, b, d, s, f->tmp[d].cls);
	if (src->kind != POK_REG)
		be_fix16(f, b, d, pt);
	return 0;
}
