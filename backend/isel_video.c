/* isel_video.c - instruction selection of the video instructions with their default selectors
 * and masks. SIMD (vadd2 ... vset4, PTX ISA "SIMD Video Instructions"): per 16-bit half or
 * byte, BFE (the element, sign- or zero-extended by its operand's type), IADD, IMNMX, ISET and
 * SHR (the operation on exact 32-bit values: elements are at most 17 bits), two IMNMX for
 * .sat, and BFI into c (merge) or IADD to c (.add); vabsdiff4 costs 6 instructions a byte.
 * Scalar (vadd, vsub, vabsdiff, vmin, vmax, vset, "Scalar Video Instructions"): the 33-bit
 * inputs and the 34-bit result live in register pairs (IADD.CC/IADD.X, IMNMX.S64), then .sat
 * and the secondary operation, and d is the low word; vshl and vshr shift the pair by the
 * count clamped at 32 (IMNMX.U32) or taken mod 32. vmad is one VMAD (its 66-bit exact sum does
 * not fit the pairs), with the negations as source modifiers; its operand selectors (.b0-.b3,
 * .h0, .h1 on a and b) are a BFE each. The other ops' selectors are refused earlier. */
#include "backend/be.h"

/* d = min (min 1) or max (min 0) of a and c as signed values of type ty (TY_S32, or TY_S64
 * on register pairs) */
static void mnmx(Fn *f, Blk *b, Type ty, int d, MOpd a, MOpd c, int min)
{
	MIns *x = be_op3(f, b, OP_IMNMX, be_r(d), a, c);

	x->nopd = 4;
	x->o[3] = be_pn(T_PT, !min);
	x->m.dtype = (uint8_t)ty;
}

/* a pair holding v extended to 64 bits, sign (sg) or zero */
static MOpd pair_ext(Fn *f, Blk *b, MOpd v, int sg)
{
	int t = be_newtmp(f, TC_R2);
	MIns *x;

	be_op3(f, b, OP_MOV, be_rpart(t, 0), v, be_r(T_RZ))->nopd = 2;
	if (sg) {
		x = be_op3(f, b, OP_SHR, be_rpart(t, 1), be_rpart(t, 0), be_imm(31));
		x->m.dtype = TY_S32;
	} else {
		be_op3(f, b, OP_MOV, be_rpart(t, 1), be_r(T_RZ), be_r(T_RZ))->nopd = 2;
	}
	return be_r(t);
}

/* a pair holding the 64-bit constant v */
static MOpd pair_imm(Fn *f, Blk *b, int64_t v)
{
	int t = be_newtmp(f, TC_R2);

	for (int k = 0; k < 2; k++) {
		MIns *x = be_emit(f, b, OP_MOV32I);
		x->nopd = 2;
		x->o[0] = be_rpart(t, k);
		x->o[1] = be_imm((uint32_t)((uint64_t)v >> (32 * k)));
	}
	return be_r(t);
}

/* vop.dtype.atype.btype{.sat}{.secop} d, a, b{, c} on exact 64-bit values */
static int sel_scalar(Fn *f, Blk *b, const PIns *in)
{
	int op = in->op, vset = op == PO_VSET, aop = in->m.aop, d = be_dst(f, &in->o[0]);
	int as = in->m.types[vset ? 0 : 1] == PT_S32, bs = in->m.types[vset ? 1 : 2] == PT_S32;
	int ds = !vset && in->m.types[0] == PT_S32, t = be_newtmp(f, TC_R2);
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], PT_B32), TC_R);
	MOpd c = be_inreg(f, b, be_src(f, b, &in->o[2], PT_B32), TC_R);
	MOpd pa = pair_ext(f, b, a, as), pb = pair_ext(f, b, c, bs);
	MIns *x;

	switch (op) {
	case PO_VADD: be_add64(f, b, t, pa, pb, 0); break;
	case PO_VSUB: be_add64(f, b, t, pa, pb, 1); break;
	case PO_VMIN: mnmx(f, b, TY_S64, t, pa, pb, 1); break;
	case PO_VMAX: mnmx(f, b, TY_S64, t, pa, pb, 0); break;
	case PO_VSHL: case PO_VSHR: {
		/* the count: b clamped at 32 (.clamp) or mod 32 (.wrap); a shifted as a pair */
		int n = be_newtmp(f, TC_R);
		if (in->m.flags & PMF_WRAP) {
			x = be_op3(f, b, OP_LOP, be_r(n), c, be_imm(31));
			x->m.sub = SUB_AND;
		} else {
			x = be_op3(f, b, OP_IMNMX, be_r(n), c, be_imm(32));
			x->nopd = 4;
			x->o[3] = be_pn(T_PT, 0);
			x->m.dtype = TY_U32;
		}
		be_shift64(f, b, t, pa, be_r(n), op == PO_VSHL, as);
		break;
	}
	case PO_VABSDIFF: {
		int mn = be_newtmp(f, TC_R2), mx = be_newtmp(f, TC_R2);
		mnmx(f, b, TY_S64, mx, pa, pb, 0);
		mnmx(f, b, TY_S64, mn, pa, pb, 1);
		be_add64(f, b, t, be_r(mx), be_r(mn), 1);
		break;
	}
	case PO_VSET: {
		/* a - b: its sign is a < b, its being zero a == b */
		int df = be_newtmp(f, TC_R2), lt = be_newtmp(f, TC_R), eq = be_newtmp(f, TC_R);
		MOpd lo = be_rpart(t, 0);
		be_add64(f, b, df, pa, pb, 1);
		x = be_op3(f, b, OP_SHR, be_r(lt), be_rpart(df, 1), be_imm(31));
		x->m.dtype = TY_U32;
		x = be_op3(f, b, OP_LOP, be_r(eq), be_rpart(df, 0), be_rpart(df, 1));
		x->m.sub = SUB_OR;
		x = be_op3(f, b, OP_ISET, be_r(eq), be_r(eq), be_r(T_RZ));
		x->nopd = 4;
		x->o[3] = be_p(T_PT);
		x->m.cmp = CMP_EQ;
		x->m.bop = BOP_AND;
		x->m.dtype = TY_U32;
		x = be_op3(f, b, OP_LOP, be_r(eq), be_r(eq), be_imm(1));
		x->m.sub = SUB_AND;
		switch ((int)in->m.cmp) {
		case PCMP_EQ: be_op3(f, b, OP_MOV, lo, be_r(eq), be_r(T_RZ))->nopd = 2; break;
		case PCMP_NE: x = be_op3(f, b, OP_LOP, lo, be_r(eq), be_imm(1)); x->m.sub = SUB_XOR; break;
		case PCMP_LT: be_op3(f, b, OP_MOV, lo, be_r(lt), be_r(T_RZ))->nopd = 2; break;
		case PCMP_GE: x = be_op3(f, b, OP_LOP, lo, be_r(lt), be_imm(1)); x->m.sub = SUB_XOR; break;
		case PCMP_LE: x = be_op3(f, b, OP_LOP, lo, be_r(lt), be_r(eq)); x->m.sub = SUB_OR; break;
		default:   /* gt: neither lt nor eq */
			x = be_op3(f, b, OP_LOP, lo, be_r(lt), be_r(eq));
			x->m.sub = SUB_OR;
			x = be_op3(f, b, OP_LOP, lo, lo, be_imm(1));
			x->m.sub = SUB_XOR;
			break;
		}
		be_op3(f, b, OP_MOV, be_rpart(t, 1), be_r(T_RZ), be_r(T_RZ))->nopd = 2;
		break;
	}
	default:
		die("not a scalar video op");
	}
	if (in->m.flags & PMF_SAT) {
		mnmx(f, b, TY_S64, t, be_r(t), pair_imm(f, b, ds ? -(1ll << 31) : 0), 0);
		mnmx(f, b, TY_S64, t, be_r(t), pair_imm(f, b, ds ? (1ll << 31) - 1 : (1ll << 32) - 1), 1);
	}
	if (aop) {
		MOpd pc = pair_ext(f, b, be_inreg(f, b, be_src(f, b, &in->o[3], PT_B32), TC_R), ds);
		if (aop == PAOP_ADD)
			be_add64(f, b, t, be_r(t), pc, 0);
		else
			mnmx(f, b, TY_S64, t, be_r(t), pc, aop == PAOP_MIN);
	}
	be_op3(f, b, OP_MOV, be_r(d), be_rpart(t, 0), be_r(T_RZ))->nopd = 2;
	return 0;
}

/* vmad.dtype.atype.btype{.po}{.sat}{.shrN} d, {-}a{.sel}, {-}b{.sel}, {-}c: {BFE} VMAD.TA.TB{.SAT}{.PO}{.SHR_N} */
static int sel_vmad(Fn *f, Blk *b, const PIns *in)
{
	int d = be_dst(f, &in->o[0]);
	MOpd src[4];
	MIns *x;

	for (int i = 1; i < 4; i++) {
		src[i] = be_inreg(f, b, be_src(f, b, &in->o[i], PT_B32), TC_R);
		if (in->o[i].vsel) {
			/* .b0-.b3, .h0, .h1 (a and b): the part, extended by its type, is the same
			 * number as a whole word of that type. ptxas gives VMAD the selector itself
			 * (VMAD.U8.U16 R12, R4.B1, R5.H1, R6); ours is a BFE before the VMAD. */
			int t = be_newtmp(f, TC_R), pos, len;
			ptx_vsel_field(in->o[i].vsel, &pos, &len);
			x = be_op3(f, b, OP_BFE, be_r(t), src[i], be_imm((uint32_t)pos | (uint32_t)len << 8));
			x->m.dtype = in->m.types[i] == PT_S32 ? TY_S32 : TY_U32;
			src[i] = be_r(t);
		}
	}
	x = be_emit(f, b, OP_VMAD);
	x->nopd = 4;
	x->o[0] = be_r(d);
	for (int i = 1; i < 4; i++) {
		x->o[i] = src[i];
		if (in->o[i].flags & POF_NEG)
			x->o[i].flags |= OPF_NEG;
	}
	x->m.dtype = in->m.types[1] == PT_S32 ? TY_S32 : TY_U32;
	x->m.stype = in->m.types[2] == PT_S32 ? TY_S32 : TY_U32;
	x->m.flags = (in->m.flags & PMF_SAT ? MF_SAT : 0) | (in->m.flags & PMF_PO ? MF_PO : 0) |
	             (in->m.shr == 7 ? MF_SHR7 : in->m.shr == 15 ? MF_SHR15 : 0);
	return 0;
}

int be_sel_video(Fn *f, Blk *b, const PIns *in)
{
	int n = in->op == PO_VMAD ? 1 : ptx_video_elems(in->op), w = 32 / n, op = in->op;
	int vset = op == PO_VSET2 || op == PO_VSET4, add = in->m.aop == PAOP_ADD;
	int as = in->m.types[vset ? 0 : 1] == PT_S32, bs = in->m.types[vset ? 1 : 2] == PT_S32;
	int ds = !vset && in->m.types[0] == PT_S32, d = be_dst(f, &in->o[0]);
	int64_t lo = ds ? -(1ll << (w - 1)) : 0, hi = ds ? (1ll << (w - 1)) - 1 : (1ll << w) - 1;
	MOpd a, c;
	int acc;
	MIns *x;

	if (op == PO_VMAD)
		return sel_vmad(f, b, in);
	if (n == 1)
		return sel_scalar(f, b, in);
	a = be_inreg(f, b, be_src(f, b, &in->o[1], PT_B32), TC_R);
	c = be_inreg(f, b, be_src(f, b, &in->o[2], PT_B32), TC_R);
	acc = be_newtmp(f, TC_R);

	be_mov(f, b, acc, be_src(f, b, &in->o[3], PT_B32), TC_R);
	for (int i = 0; i < n; i++) {
		int va = be_newtmp(f, TC_R), vb = be_newtmp(f, TC_R), t = be_newtmp(f, TC_R);
		uint32_t pl = (uint32_t)(w * i) | (uint32_t)w << 8;
		x = be_op3(f, b, OP_BFE, be_r(va), a, be_imm(pl));
		x->m.dtype = as ? TY_S32 : TY_U32;
		x = be_op3(f, b, OP_BFE, be_r(vb), c, be_imm(pl));
		x->m.dtype = bs ? TY_S32 : TY_U32;
		switch (op) {
		case PO_VADD2: case PO_VADD4:
			be_op3(f, b, OP_IADD, be_r(t), be_r(va), be_r(vb));
			break;
		case PO_VSUB2: case PO_VSUB4:
			x = be_op3(f, b, OP_IADD, be_r(t), be_r(va), be_r(vb));
			x->o[2].flags = OPF_NEG;
			break;
		case PO_VAVRG2: case PO_VAVRG4: {
			/* s = va + vb; t = (s + 1 - (s < 0)) >> 1, arithmetic */
			int s = be_newtmp(f, TC_R), ng = be_newtmp(f, TC_R);
			be_op3(f, b, OP_IADD, be_r(s), be_r(va), be_r(vb));
			x = be_op3(f, b, OP_SHR, be_r(ng), be_r(s), be_imm(31));
			x->m.dtype = TY_U32;
			be_op3(f, b, OP_IADD, be_r(s), be_r(s), be_imm(1));
			x = be_op3(f, b, OP_IADD, be_r(s), be_r(s), be_r(ng));
			x->o[2].flags = OPF_NEG;
			x = be_op3(f, b, OP_SHR, be_r(t), be_r(s), be_imm(1));
			x->m.dtype = TY_S32;
			break;
		}
		case PO_VABSDIFF2: case PO_VABSDIFF4: {
			int mn = be_newtmp(f, TC_R);
			mnmx(f, b, TY_S32, t, be_r(va), be_r(vb), 0);
			mnmx(f, b, TY_S32, mn, be_r(va), be_r(vb), 1);
			x = be_op3(f, b, OP_IADD, be_r(t), be_r(t), be_r(mn));
			x->o[2].flags = OPF_NEG;
			break;
		}
		case PO_VMIN2: case PO_VMIN4: case PO_VMAX2: case PO_VMAX4:
			mnmx(f, b, TY_S32, t, be_r(va), be_r(vb), op == PO_VMIN2 || op == PO_VMIN4);
			break;
		case PO_VSET2: case PO_VSET4:
			x = be_op3(f, b, OP_ISET, be_r(t), be_r(va), be_r(vb));
			x->nopd = 4;
			x->o[3] = be_p(T_PT);
			x->m.cmp = (uint8_t)be_cmp_of(in->m.cmp, &(int){0});   /* eq ... ge (ptx_check) */
			x->m.bop = BOP_AND;
			x->m.dtype = TY_S32;
			x = be_op3(f, b, OP_LOP, be_r(t), be_r(t), be_imm(1));
			x->m.sub = SUB_AND;
			break;
		default:
			die("not a SIMD video op");
		}
		if (in->m.flags & PMF_SAT) {
			mnmx(f, b, TY_S32, t, be_r(t), be_imm((uint32_t)lo), 0);
			mnmx(f, b, TY_S32, t, be_r(t), be_imm((uint32_t)hi), 1);
		}
		if (add) {
			be_op3(f, b, OP_IADD, be_r(acc), be_r(acc), be_r(t));
		} else {
			x = be_op3(f, b, OP_BFI, be_r(acc), be_r(t), be_imm(pl));
			x->nopd = 4;
			x->o[3] = be_r(acc);
		}
	}
	be_mov(f, b, d, be_r(acc), TC_R);
	return 0;
}
