/* isel.c - instruction selection: the dispatch over PTX ops, operands, moves, integer
 * arithmetic, logic, comparison and selection. Floats, conversions and division are in
 * isel_math.c; memory, atomics, barriers and warp ops in isel_mem.c; calls in isel_call.c.
 *
 * Needs cfg; fills every block's body with MIns on temporaries; breaks nothing (the lock
 * loop of shared atomics splits blocks and keeps the CFG consistent).
 *
 * Conventions: a 32-bit PTX value lives in one register, a 64-bit value in an even pair
 * (word 0 low), a predicate in a P register. 8- and 16-bit values live in a 32-bit register,
 * zero-extended ("canonical"): every definition of a narrow register is re-canonicalised,
 * and signed narrow operands are sign-extended before an op that depends on the sign.
 */
#include <string.h>
#include "backend/be.h"

/* the guard of the PTX instruction applies to everything selected for it: isel emits into
 * a block and backend applies the guard afterwards (see be_isel_ins) */

/* ------------------------------------------------------------------ compare and select */
/* p = a cmp b (bop c), q = !(a cmp b) (bop c) for any PTX comparison type */
int be_setp(Fn *f, Blk *b, const PIns *in, int pt, int p, int q, MOpd a, MOpd x, MOpd cc,
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

static Bop bop_of(int b)
{
	return b == PBOP_AND ? BOP_AND : b == PBOP_OR ? BOP_OR : b == PBOP_XOR ? BOP_XOR : BOP_AND;
}

static int sel_setp(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0];
	int p = be_dst(f, &in->o[0]), q = be_dst(f, &in->o[1]);
	MOpd a = be_src(f, b, &in->o[2], pt), x = be_src(f, b, &in->o[3], pt);
	MOpd cc = in->nopd > 4 ? be_src(f, b, &in->o[4], PT_PRED) : be_p(T_PT);

	if (pt == PT_F16X2 || pt == PT_BF16X2)
		return be_sel_hsetp(f, b, in, pt, p < 0 ? T_PT : p, q < 0 ? T_PT : q, a, x, cc,
		                    in->nopd > 4 ? bop_of(in->m.bop) : BOP_AND);
	return be_setp(f, b, in, pt, p < 0 ? T_PT : p, q < 0 ? T_PT : q, a, x, cc,
	               in->nopd > 4 ? bop_of(in->m.bop) : BOP_AND);
}

/* d = all ones (1.0 for a float type) where the comparison holds, else 0; for an f16x2 or
 * bf16x2 source each half of d holds the result of its half (0xffff, or 1.0 of f16x2/bf16x2) */
static int sel_set(Fn *f, Blk *b, const PIns *in)
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
	if ((x2 ? be_sel_hsetp(f, b, in, st, p[0], p[1], a, c, cc, bop)
	        : be_setp(f, b, in, st, p[0], T_PT, a, c, cc, bop)) < 0)
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

static int sel_selp(Fn *f, Blk *b, const PIns *in)
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

static int sel_slct(Fn *f, Blk *b, const PIns *in)
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

static int sel_mov(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0];
	const POpd *dst = &in->o[0], *src = &in->o[1];

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

/* ------------------------------------------------------------------ dispatch */
int be_isel_ins(Fn *f, Blk *b, const PIns *in)
{
	switch ((POp)in->op) {
	case PO_ADD: return be_sel_addsub(f, b, in, 0);
	case PO_SUB: return be_sel_addsub(f, b, in, 1);
	case PO_ADDC: return be_sel_addsub(f, b, in, 0);
	case PO_SUBC: return be_sel_addsub(f, b, in, 1);
	case PO_MUL: return be_sel_mul(f, b, in, 0);
	case PO_MAD: case PO_MADC: return be_sel_mul(f, b, in, 1);
	case PO_MUL24: return be_sel_mul24(f, b, in, 0);
	case PO_MAD24: return be_sel_mul24(f, b, in, 1);
	case PO_MIN: return be_sel_minmax(f, b, in, 0);
	case PO_MAX: return be_sel_minmax(f, b, in, 1);
	case PO_ABS: return be_sel_absneg(f, b, in, 0);
	case PO_NEG: return be_sel_absneg(f, b, in, 1);
	case PO_AND: return be_sel_logic(f, b, in, SUB_AND);
	case PO_OR: return be_sel_logic(f, b, in, SUB_OR);
	case PO_XOR: return be_sel_logic(f, b, in, SUB_XOR);
	case PO_NOT: return be_sel_not(f, b, in);
	case PO_CNOT: return be_sel_cnot(f, b, in);
	case PO_SHL: return be_sel_shift(f, b, in, 1);
	case PO_SHR: return be_sel_shift(f, b, in, 0);
	case PO_SETP: return sel_setp(f, b, in);
	case PO_SET: return sel_set(f, b, in);
	case PO_SELP: return sel_selp(f, b, in);
	case PO_SLCT: return sel_slct(f, b, in);
	case PO_MOV: return sel_mov(f, b, in);
	case PO_POPC: case PO_CLZ: case PO_BFIND: case PO_BREV: return be_sel_bits(f, b, in);
	case PO_BFE: case PO_BFI: return be_sel_bf(f, b, in);
	case PO_LOP3: {
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
	case PO_PRMT: {
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
	case PO_SHF: {
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
	case PO_SAD: case PO_DIV: case PO_REM: case PO_FMA: case PO_RCP: case PO_SQRT:
	case PO_RSQRT: case PO_SIN: case PO_COS: case PO_LG2: case PO_EX2: case PO_TANH:
	case PO_TESTP: case PO_COPYSIGN: case PO_CVT:
		return be_isel_math(f, b, in);
	case PO_DP4A: case PO_DP2A:
		return be_sel_dp(f, b, in);
	case PO_BMSK: case PO_SZEXT:
		return be_sel_mask(f, b, in);
	case PO_ELECT:
		return be_sel_elect(f, b, in);
	case PO_FNS:
		return be_fns(f, b, in);
	case PO_VADD2: case PO_VSUB2: case PO_VAVRG2: case PO_VABSDIFF2: case PO_VMIN2: case PO_VMAX2:
	case PO_VSET2: case PO_VADD4: case PO_VSUB4: case PO_VAVRG4: case PO_VABSDIFF4: case PO_VMIN4:
	case PO_VMAX4: case PO_VSET4: case PO_VADD: case PO_VSUB: case PO_VABSDIFF: case PO_VMIN:
	case PO_VMAX: case PO_VSET:
		return be_sel_video(f, b, in);
	case PO_LD: case PO_LDU: case PO_ST: case PO_ATOM: case PO_RED: case PO_CVTA:
	case PO_ISSPACEP: case PO_PREFETCH: case PO_PREFETCHU: case PO_BAR: case PO_BARRIER:
	case PO_BAR_WARP_SYNC: case PO_MEMBAR: case PO_FENCE: case PO_VOTE: case PO_MATCH:
	case PO_SHFL: case PO_ACTIVEMASK: case PO_REDUX: case PO_NANOSLEEP:
	case PO_PMEVENT: case PO_GRIDDEPCONTROL: case PO_BRKPT: case PO_CP_ASYNC:
	case PO_CP_ASYNC_COMMIT: case PO_CP_ASYNC_WAIT: case PO_CP_ASYNC_WAIT_ALL:
		return be_isel_mem(f, b, in);
	case PO_CALL:
		return be_isel_call(f, b, in);
	case PO_BRA: case PO_BRX_IDX: case PO_RET: case PO_EXIT: case PO_TRAP:
		die("branch inside a block");
	case PO_TEX: case PO_TLD4: case PO_TXQ: case PO_SULD: case PO_SUST: case PO_SURED:
	case PO_SUQ: case PO_ISTYPEP: case PO_MMA: case PO_WMMA: case PO_WGMMA: case PO_LDMATRIX:
	case PO_VSHL: case PO_VSHR: case PO_VMAD:
	case PO_STMATRIX: case PO_MOVMATRIX: case PO_CP_ASYNC_BULK: case PO_CP_ASYNC_MBAR:
	case PO_CP_RED_ASYNC:
	case PO_ST_ASYNC: case PO_RED_ASYNC: case PO_MBARRIER: case PO_MULTIMEM: case PO_TENSORMAP:
	case PO_TCGEN05: case PO_ALLOCA: case PO_STACKSAVE: case PO_STACKRESTORE: case PO_MAPA:
	case PO_GETCTARANK: case PO_SETMAXNREG: case PO_APPLYPRIORITY: case PO_DISCARD:
	case PO_CREATEPOLICY: case PO_CLC:
		return be_unsup(f, in, NULL), -1;
	case PO_COUNT:
		break;
	}
	die("bad PTX op");
}
