/* isel_bits.c - instruction selection of bit operations: popc, clz, bfind, brev, bfe/bfi
 * (32 and 64 bits), bmsk, szext, lop3, prmt, shf, fns, dp4a/dp2a and elect.
 *
 * 64-bit bit fields: the field is shifted with SHF.R.U64/SHL (clamped at 64), masked with
 * the low min(len, 64 - pos) bits, and (bfe.s64) filled with the sign bit
 * a[min(pos + len - 1, 63)] by LOP3 (v & m) | (s & ~m); bfi merges (a << pos) into the base
 * under the shifted mask. bfind.s64 is bfind.u64 of a ^ (its sign mask); FLO on the high
 * word, else the low one. fns is ptxas's branch-free binary search by population counts.
 *
 * Calls sel.c and util.c.
 */
#include "backend/be.h"

/* ------------------------------------------------------------------ 64-bit helpers */
static MIns *lop(Fn *f, Blk *b, Sub s, MOpd d, MOpd a, MOpd c)
{
	MIns *x = be_op3(f, b, OP_LOP, d, a, c);
	x->m.sub = (uint8_t)s;
	return x;
}

static MIns *lop3(Fn *f, Blk *b, MOpd d, MOpd a, MOpd c, MOpd e, int lut)
{
	MIns *x = be_emit(f, b, OP_LOP3);
	x->nopd = 5;
	x->o[0] = d;
	x->o[1] = a;
	x->o[2] = c;
	x->o[3] = e;
	x->o[4] = be_imm(lut);
	return x;
}

static MIns *umin(Fn *f, Blk *b, MOpd d, MOpd a, MOpd c)
{
	MIns *x = be_op3(f, b, OP_IMNMX, d, a, c);
	x->nopd = 4;
	x->o[3] = be_p(T_PT);
	x->m.dtype = TY_U32;
	return x;
}

/* m = the 64-bit mask of the low le bits, le in 0..64 (pair) */
static void mask64(Fn *f, Blk *b, int m, MOpd le)
{
	int t = be_newtmp(f, TC_R), p = be_newtmp(f, TC_P);
	MIns *x;

	be_op3(f, b, OP_SHL, be_r(t), be_inreg(f, b, be_imm(1), TC_R), le);
	be_op3(f, b, OP_IADD, be_rpart(m, 0), be_r(t), be_imm(0xffffffff));
	be_op3(f, b, OP_IADD, be_r(t), le, be_imm(0xffffffe0));
	be_op3(f, b, OP_SHL, be_r(t), be_inreg(f, b, be_imm(1), TC_R), be_r(t));
	be_op3(f, b, OP_IADD, be_r(t), be_r(t), be_imm(0xffffffff));
	be_setp_ins(f, b, OP_ISETP, CMP_GE, TY_U32, p, T_PT, le, be_imm(32), be_p(T_PT), BOP_AND);
	x = be_op3(f, b, OP_SEL, be_rpart(m, 1), be_r(t), be_r(T_RZ));
	x->nopd = 4;
	x->o[3] = be_p(p);
}

/* 64-bit shift of pair a by n (0..255, clamped at 64) into pair d */
static void shift64(Fn *f, Blk *b, int d, MOpd a, MOpd n, int right)
{
	MIns *x = be_emit(f, b, OP_SHF);
	x->nopd = 4;
	x->m.sub = right ? SUB_R : SUB_L;
	x->m.dtype = TY_U64;
	x->o[0] = be_rpart(d, right ? 0 : 1);
	x->o[1] = be_part(a, 0);
	x->o[2] = n;
	x->o[3] = be_part(a, 1);
	x = be_op3(f, b, right ? OP_SHR : OP_SHL, be_rpart(d, right ? 1 : 0), be_part(a, right ? 1 : 0), n);
	if (right)
		x->m.dtype = TY_U32;
}

/* bfe.u64/s64 and bfi.b64 (PTX: pos and len are bits 7:0 of their operands) */
static int bitfield64(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]), bfe = in->op == PO_BFE;
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), TC_R2);
	int ip = bfe ? 2 : 3;
	int p = be_newtmp(f, TC_R), l = be_newtmp(f, TC_R), q = be_newtmp(f, TC_R);
	int le = be_newtmp(f, TC_R), m = be_newtmp(f, TC_R2), v = be_newtmp(f, TC_R2);

	lop(f, b, SUB_AND, be_r(p), be_inreg(f, b, be_src(f, b, &in->o[ip], PT_U32), TC_R), be_imm(0xff));
	lop(f, b, SUB_AND, be_r(l), be_inreg(f, b, be_src(f, b, &in->o[ip + 1], PT_U32), TC_R), be_imm(0xff));
	/* the bits of the field that exist: le = min(len, 64 - min(pos, 64)) */
	umin(f, b, be_r(q), be_r(p), be_imm(64));
	MIns *x = be_op3(f, b, OP_IADD, be_r(q), be_r(q), be_imm(64));
	x->o[1].flags = OPF_NEG;
	umin(f, b, be_r(le), be_r(l), be_r(q));
	mask64(f, b, m, be_r(le));
	if (bfe) {
		int s = be_newtmp(f, TC_R), sb = be_newtmp(f, TC_R), pz = be_newtmp(f, TC_P);
		shift64(f, b, v, a, be_r(p), 1);
		if (tsigned(pt)) {
			/* the sign: bit min(pos + len - 1, 63) of a, 0 when len = 0 */
			be_op3(f, b, OP_IADD, be_r(sb), be_r(p), be_r(l));
			be_op3(f, b, OP_IADD, be_r(sb), be_r(sb), be_imm(0xffffffff));
			umin(f, b, be_r(sb), be_r(sb), be_imm(63));
			x = be_emit(f, b, OP_SHF);
			x->nopd = 4;
			x->m.sub = SUB_R;
			x->m.dtype = TY_U64;
			x->o[0] = be_r(s);
			x->o[1] = be_part(a, 0);
			x->o[2] = be_r(sb);
			x->o[3] = be_part(a, 1);
			lop(f, b, SUB_AND, be_r(s), be_r(s), be_imm(1));
			x = be_op3(f, b, OP_IADD, be_r(s), be_r(T_RZ), be_r(s));
			x->o[2].flags = OPF_NEG;
			be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, pz, T_PT, be_r(l), be_r(T_RZ), be_p(T_PT), BOP_AND);
			x = be_op3(f, b, OP_SEL, be_r(s), be_r(T_RZ), be_r(s));
			x->nopd = 4;
			x->o[3] = be_p(pz);
			/* (v & m) | (s & ~m) */
			for (int k = 0; k < 2; k++)
				lop3(f, b, be_rpart(d, k), be_rpart(v, k), be_rpart(m, k), be_r(s), 0xe2);
		} else {
			for (int k = 0; k < 2; k++)
				lop(f, b, SUB_AND, be_rpart(d, k), be_rpart(v, k), be_rpart(m, k));
		}
		return 0;
	}
	/* bfi: d = (base & ~M) | ((a << pos) & M), M = mask << pos */
	MOpd base = be_inreg(f, b, be_src(f, b, &in->o[2], pt), TC_R2);
	int sm = be_newtmp(f, TC_R2);
	shift64(f, b, v, a, be_r(p), 0);
	shift64(f, b, sm, be_r(m), be_r(p), 0);
	for (int k = 0; k < 2; k++)
		lop3(f, b, be_rpart(d, k), be_rpart(v, k), be_rpart(sm, k), be_part(base, k), 0xe2);
	return 0;
}

/* bfind.u64/s64 (.shiftamt): FLO on the words */
static int bfind64(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]), sh = (in->m.flags & PMF_SHIFTAMT) != 0;
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), TC_R2);
	int x2 = be_newtmp(f, TC_R2), fh = be_newtmp(f, TC_R), fl = be_newtmp(f, TC_R);
	int t = be_newtmp(f, TC_R), ph = be_newtmp(f, TC_P), pl = be_newtmp(f, TC_P);
	MIns *x;

	if (tsigned(pt)) {
		/* the highest bit that differs from the sign: bfind.u64 of a ^ sign mask */
		int s = be_newtmp(f, TC_R);
		x = be_op3(f, b, OP_SHR, be_r(s), be_part(a, 1), be_imm(31));
		x->m.dtype = TY_S32;
		for (int k = 0; k < 2; k++)
			lop(f, b, SUB_XOR, be_rpart(x2, k), be_part(a, k), be_r(s));
		a = be_r(x2);
	}
	for (int k = 0; k < 2; k++) {
		x = be_op3(f, b, OP_FLO, be_r(k ? fh : fl), be_part(a, k), be_r(T_RZ));
		x->nopd = 2;
		x->m.dtype = TY_U32;
		if (sh)
			x->m.flags |= MF_SH;
	}
	be_setp_ins(f, b, OP_ISETP, CMP_NE, TY_U32, ph, T_PT, be_part(a, 1), be_r(T_RZ), be_p(T_PT), BOP_AND);
	if (!sh) {
		/* hi != 0: 32 + index in hi, else the index in lo (0xffffffff when none) */
		be_op3(f, b, OP_IADD, be_r(t), be_r(fh), be_imm(32));
		x = be_op3(f, b, OP_SEL, be_r(d), be_r(t), be_r(fl));
		x->nopd = 4;
		x->o[3] = be_p(ph);
		return 0;
	}
	/* 63 - index: hi != 0: 31 - index in hi; else lo != 0: 32 + 31 - index in lo */
	be_setp_ins(f, b, OP_ISETP, CMP_NE, TY_U32, pl, T_PT, be_part(a, 0), be_r(T_RZ), be_p(T_PT), BOP_AND);
	be_op3(f, b, OP_IADD, be_r(t), be_r(fl), be_imm(32));
	x = be_op3(f, b, OP_SEL, be_r(fl), be_r(t), be_r(fl));
	x->nopd = 4;
	x->o[3] = be_p(pl);
	x = be_op3(f, b, OP_SEL, be_r(d), be_r(fh), be_r(fl));
	x->nopd = 4;
	x->o[3] = be_p(ph);
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
			return bfind64(f, b, in);
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
		return bitfield64(f, b, in);
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
	be_ballot(f, b, m, be_p(T_PT));
	be_lop(f, b, SUB_AND, m, be_r(m), mm);
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
		be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, p, T_PT, be_r(lane), be_r(d), be_p(T_PT), BOP_AND);
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

/* ------------------------------------------------------------------ fns */
static MIns *on(MIns *x, int p, int neg)
{
	x->guard = p;
	x->gneg = (uint8_t)neg;
	return x;
}

static void bfeu(Fn *f, Blk *b, int d, MOpd a, int posl)
{
	be_op3(f, b, OP_BFE, be_r(d), a, be_imm(posl))->m.dtype = TY_U32;
}

static void popc(Fn *f, Blk *b, int d, MOpd a)
{
	be_op3(f, b, OP_POPC, be_r(d), a, be_r(T_RZ))->nopd = 2;
}

static void isetp(Fn *f, Blk *b, Cmp c, Type ty, int p, MOpd a, MOpd x)
{
	be_setp_ins(f, b, OP_ISETP, c, ty, p, T_PT, a, x, be_p(T_PT), BOP_AND);
}

/* d = k - a (IADD32I d, -a, k), or d = a - k when sub (ISUB d, a, k) */
static MIns *rsub(Fn *f, Blk *b, int d, MOpd a, MOpd k, int sub)
{
	MIns *x = be_op3(f, b, OP_IADD, be_r(d), a, k);
	x->o[sub ? 2 : 1].flags = OPF_NEG;
	return x;
}

/* SHF.R d, a, k, RZ */
static MIns *shr(Fn *f, Blk *b, int d, int a, int k)
{
	MIns *x = be_emit(f, b, OP_SHF);

	x->nopd = 4;
	x->m.sub = SUB_R;
	x->o[0] = be_r(d);
	x->o[1] = be_r(a);
	x->o[2] = be_imm(k);
	x->o[3] = be_r(T_RZ);
	return x;
}

/* PRMT d, RZ, sel, a: a's bytes moved down */
static MIns *bytes_down(Fn *f, Blk *b, int d, int a, int sel)
{
	MIns *x = be_emit(f, b, OP_PRMT);

	x->nopd = 4;
	x->o[0] = be_r(d);
	x->o[1] = be_r(T_RZ);
	x->o[2] = be_imm(sel);
	x->o[3] = be_r(a);
	return x;
}

/* the n-th (n >= 1) set bit of w from bit 0, ptxas 11.8's binary search: halves of 16, 8,
 * 4, 2 and 1 bits, each a population count of the low part; where it holds fewer than r (the
 * count still wanted) the search moves up (w shifted down, r less that count, pos plus the
 * width); 0xffffffff when w has fewer than n set bits (ISETP.LT.U32: ptxas compares signed,
 * which misses |offset| = 2^31). rev: the position counted from the top (31 - pos), under
 * the predicate rp when it is not T_PT. Guarded steps, no branch. The result in d. */
static void fns_search(Fn *f, Blk *b, int d, int w, MOpd n, int rev, int rp)
{
	int pos = be_newtmp(f, TC_R), r = be_newtmp(f, TC_R), tot = be_newtmp(f, TC_R);
	int pz = be_newtmp(f, TC_P), t, c, p;
	static const int width[] = {8, 4, 2, 1};

	/* 16: r = n - (low count) and w >> 16 where the low half holds fewer than n */
	t = be_newtmp(f, TC_R);
	c = be_newtmp(f, TC_R);
	p = be_newtmp(f, TC_P);
	bfeu(f, b, t, be_r(w), 0x1000);
	popc(f, b, c, be_r(t));
	popc(f, b, tot, be_r(w));
	isetp(f, b, CMP_LT, TY_U32, p, be_r(c), n);
	rsub(f, b, r, be_r(c), n, 0);
	on(bytes_down(f, b, w, w, 0x76), p, 0);
	be_csel(f, b, be_r(r), be_r(r), n, p, 0);
	be_csel(f, b, be_r(pos), be_r(T_RZ), be_imm(16), p, 1);
	for (int i = 0; i < 4; i++) {
		t = be_newtmp(f, TC_R);
		c = be_newtmp(f, TC_R);
		p = be_newtmp(f, TC_P);
		if (width[i] == 2) {   /* two BFEs of one bit each and their sum */
			int u = be_newtmp(f, TC_R);
			bfeu(f, b, t, be_r(w), 0x100);
			bfeu(f, b, u, be_r(w), 0x101);
			be_op3(f, b, OP_IADD, be_r(c), be_r(t), be_r(u));
		} else if (width[i] == 1) {
			bfeu(f, b, c, be_r(w), 0x100);
		} else {
			bfeu(f, b, t, be_r(w), width[i] << 8);
			popc(f, b, c, be_r(t));
		}
		isetp(f, b, CMP_LT, TY_U32, p, be_r(c), be_r(r));
		if (width[i] > 1) {
			if (width[i] == 8)
				on(bytes_down(f, b, w, w, 0x765), p, 0);
			else
				on(shr(f, b, w, w, width[i]), p, 0);
			on(rsub(f, b, r, be_r(r), be_r(c), 1), p, 0);
		}
		on(be_op3(f, b, OP_IADD, be_r(pos), be_r(pos), be_imm(width[i])), p, 0);
	}
	isetp(f, b, CMP_LT, TY_U32, pz, be_r(tot), n);
	if (rev)
		on(rsub(f, b, pos, be_r(pos), be_imm(31), 0), rp, 0);
	be_csel(f, b, be_r(d), be_r(pos), be_imm(-1), pz, 1);
}

/* fns.b32 d, mask, base, offset: the position of the |offset|-th set bit of mask counting
 * from bit base upwards (offset > 0) or downwards (offset < 0); base itself when offset is 0
 * and that bit is set; 0xffffffff when there is none (a base above 31, undefined in the PTX
 * ISA, finds none, as ptxas's code does). As ptxas 11.8 writes it for an immediate offset:
 * the bits below base (above it, downwards) cleared, mask bit-reversed downwards, then the
 * branch-free search of fns_search. ptxas branches three ways on the sign of a register
 * offset; we select instead (BREV and 31 - base under the sign, |offset|, bit base alone
 * when it is 0), so that fns never adds a branch. */
int be_sel_fns(Fn *f, Blk *b, const PIns *in)
{
	int d = be_dst(f, &in->o[0]), w = be_newtmp(f, TC_R), res = d, m, t;
	MOpd mask = be_src(f, b, &in->o[1], PT_B32);
	MOpd base = be_src(f, b, &in->o[2], PT_U32);
	MOpd off = be_src(f, b, &in->o[3], PT_S32);
	int kb = base.kind == OPD_IMM, bi = (int)(base.imm & 0xffffffff);
	uint32_t keep = kb && (uint32_t)base.imm < 32 ? ~0u << bi : 0;
	MIns *x;

	if (in->guard >= 0)
		res = be_newtmp(f, TC_R);
	if (off.kind == OPD_IMM) {
		int32_t o = (int32_t)off.imm;
		uint32_t n = o < 0 ? 0u - (uint32_t)o : o ? (uint32_t)o : 1;
		if (o < 0) {
			/* downwards: bit base of mask is bit 31 - base of its reverse */
			x = be_op3(f, b, OP_BFE, be_r(w), be_inreg(f, b, mask, TC_R), be_imm(0x2000));
			x->m.dtype = TY_U32;
			x->m.flags |= MF_BREV;
			if (kb && (uint32_t)base.imm != 31)
				be_lop(f, b, SUB_AND, w, be_r(w),
				       be_imm(keep ? ~0u << (31 - bi) : 0));
		} else if (kb) {
			/* upwards from an immediate base: the bits below it cleared (offset 0: all
			 * but bit base) */
			uint32_t k = o ? keep : keep & ~(keep << 1);
			if (k == ~0u)
				be_mov(f, b, w, mask, TC_R);
			else
				be_lop(f, b, SUB_AND, w, be_inreg(f, b, mask, TC_R), be_imm(k));
		}
		if (!kb && o == 0) {
			/* bit base alone: mask & (1 << base) & (~0 << base), as ptxas writes it */
			int one = be_newtmp(f, TC_R);
			m = be_newtmp(f, TC_R);
			be_mov(f, b, one, be_imm(1), TC_R);
			be_op3(f, b, OP_SHL, be_r(one), be_r(one), base);
			be_mov(f, b, m, be_imm(0xffffffff), TC_R);
			be_op3(f, b, OP_SHL, be_r(m), be_r(m), base);
			be_lop(f, b, SUB_AND, w, be_inreg(f, b, mask, TC_R), be_r(one));
			be_lop(f, b, SUB_AND, w, be_r(w), be_r(m));
		} else if (!kb) {
			/* ~0 << base (downwards: << 31 - base) by SHF.L, which clamps at 32 */
			m = be_newtmp(f, TC_R);
			be_mov(f, b, m, be_imm(0xffffffff), TC_R);
			MOpd sh = base;
			if (o < 0) {
				t = be_newtmp(f, TC_R);
				rsub(f, b, t, base, be_imm(31), 0);
				sh = be_r(t);
			}
			x = be_emit(f, b, OP_SHF);
			x->nopd = 4;
			x->m.sub = SUB_L;
			x->o[0] = be_r(m);
			x->o[1] = be_r(T_RZ);
			x->o[2] = sh;
			x->o[3] = be_r(m);
			if (o < 0)
				be_lop(f, b, SUB_AND, w, be_r(w), be_r(m));
			else
				be_lop(f, b, SUB_AND, w, be_r(m), mask);
		}
		fns_search(f, b, res, w, be_imm(n), o < 0, T_PT);
	} else {
		int pr = be_newtmp(f, TC_P), p0 = be_newtmp(f, TC_P), n = be_newtmp(f, TC_R);
		int bb = be_newtmp(f, TC_R), one = be_newtmp(f, TC_R);
		MOpd mr = be_inreg(f, b, mask, TC_R), br = be_inreg(f, b, base, TC_R);
		off = be_inreg(f, b, off, TC_R);
		m = be_newtmp(f, TC_R);
		t = be_newtmp(f, TC_R);
		isetp(f, b, CMP_LT, TY_S32, pr, off, be_r(T_RZ));
		isetp(f, b, CMP_EQ, TY_S32, p0, off, be_r(T_RZ));
		x = be_op3(f, b, OP_BFE, be_r(t), mr, be_imm(0x2000));
		x->m.dtype = TY_U32;
		x->m.flags |= MF_BREV;
		be_csel(f, b, be_r(w), be_r(t), mr, pr, 0);
		rsub(f, b, bb, br, be_imm(31), 0);
		be_csel(f, b, be_r(bb), be_r(bb), br, pr, 0);
		rsub(f, b, n, off, be_r(T_RZ), 0);
		be_csel(f, b, be_r(n), be_r(n), off, pr, 0);
		be_mov(f, b, m, be_imm(0xffffffff), TC_R);
		be_op3(f, b, OP_SHL, be_r(m), be_r(m), be_r(bb));
		be_lop(f, b, SUB_AND, w, be_r(w), be_r(m));
		be_mov(f, b, one, be_imm(1), TC_R);
		be_op3(f, b, OP_SHL, be_r(one), be_r(one), br);
		on(be_lop(f, b, SUB_AND, w, be_r(w), be_r(one)), p0, 0);
		be_mov(f, b, n, be_imm(1), TC_R);
		on(&b->ins[b->nins - 1], p0, 0);
		fns_search(f, b, res, w, be_r(n), 1, pr);
	}
	if (res != d) {
		int k0 = b->nins;
		be_mov(f, b, d, be_r(res), TC_R);
		be_guard_from(f, b, k0, in);
	}
	return 0;
}
