/* isel_wide.c - instruction selection of the 64-bit integer operations that need more than
 * a carry chain: division and remainder (div/rem .u64/.s64), the high half of a 64x64
 * product (mul.hi/mad.hi .u64/.s64), bit fields (bfe/bfi .b64) and bfind .u64/.s64.
 *
 * Division is a loop, as in ptxas's own 64-bit division subroutine: 64 steps of restoring
 * shift-and-subtract on the (R:Q) pair, the remainder R and quotient Q in register pairs.
 * The loop's trip count is a constant, so its branch is uniform (BRA.U, no sync point) and
 * it runs for every active lane; the PTX guard applies to the final copies only. Division
 * by zero gives Q = 0xffffffffffffffff and R = a (unsigned), like the 32-bit sequence;
 * signed division divides the magnitudes and fixes the signs (INT64_MIN / -1 wraps to
 * INT64_MIN, remainder 0).
 *
 * The high half of the 128-bit product adds the four 32x32 partial products with carries;
 * the signed one subtracts (a < 0 ? c : 0) and (c < 0 ? a : 0) from the unsigned one.
 *
 * Bit fields: the field is shifted with SHF.R.U64/SHL (clamped at 64), masked with the low
 * min(len, 64 - pos) bits, and (bfe.s64) filled with the sign bit a[min(pos + len - 1, 63)]
 * by LOP3 (v & m) | (s & ~m); bfi merges (a << pos) into the base under the shifted mask.
 * bfind.s64 is bfind.u64 of a ^ (its sign mask); FLO on the high word, else the low one.
 */
#include "backend/be.h"

static MIns *ins(Fn *f, Blk *b, Op op, Type ty, MOpd d, MOpd a, MOpd c)
{
	MIns *x = be_op3(f, b, op, d, a, c);
	x->m.dtype = x->m.stype = (uint8_t)ty;
	return x;
}

static void isetp(Fn *f, Blk *b, Cmp c, Type ty, int p, MOpd a, MOpd x, MOpd acc, Bop bop)
{
	MIns *in = be_emit(f, b, OP_ISETP);
	in->m.cmp = (uint8_t)c;
	in->m.dtype = (uint8_t)ty;
	in->m.bop = (uint8_t)bop;
	in->nopd = 5;
	in->o[0] = be_p(p);
	in->o[1] = be_p(T_PT);
	in->o[2] = a;
	in->o[3] = x;
	in->o[4] = acc;
}

/* d = p ? a : c, word by word on pairs */
static void sel64(Fn *f, Blk *b, int d, MOpd a, MOpd c, int p)
{
	for (int k = 0; k < 2; k++) {
		MIns *x = be_op3(f, b, OP_SEL, be_rpart(d, k), be_part(a, k), be_part(c, k));
		x->nopd = 4;
		x->o[3] = be_p(p);
	}
}

/* d = a - c on pairs (c a register pair) */
static void sub64(Fn *f, Blk *b, int d, MOpd a, MOpd c)
{
	MIns *x = be_op3(f, b, OP_IADD, be_rpart(d, 0), be_part(a, 0), be_part(c, 0));
	x->m.flags = MF_CC;
	x->o[2].flags = OPF_NEG;
	x = be_op3(f, b, OP_IADD, be_rpart(d, 1), be_part(a, 1), be_part(c, 1));
	x->m.flags = MF_X;
	x->o[2].flags = OPF_NOT;
}

static MIns *shf(Fn *f, Blk *b, MOpd d, MOpd lo, MOpd hi)
{
	MIns *x = be_emit(f, b, OP_SHF);
	x->nopd = 4;
	x->m.sub = SUB_L;
	x->o[0] = d;
	x->o[1] = lo;
	x->o[2] = be_imm(1);
	x->o[3] = hi;
	return x;
}

/* the division loop: q = a / d, r = a % d (unsigned 64-bit, pairs); splits *bi: on return
 * *bi is the block after the loop */
static void udiv64(Fn *f, int *bi, int q, int r, MOpd a, MOpd d)
{
	int i = be_newtmp(f, TC_R), cy = be_newtmp(f, TC_R), qb = be_newtmp(f, TC_R);
	int t = be_newtmp(f, TC_R2), p = be_newtmp(f, TC_P), pi = be_newtmp(f, TC_P);
	Blk *b = &f->blk[*bi], *L, *C;
	int li, ci;
	MIns *x;

	be_mov(f, b, q, a, TC_R2);
	be_mov(f, b, r, be_imm(0), TC_R2);
	be_mov(f, b, i, be_imm(64), TC_R);
	C = be_split(f, *bi);
	ci = C->id;
	li = be_newblk(f);
	be_lay_move(f, ci, *bi, 1);
	be_lay_move(f, li, *bi, 1);
	b = &f->blk[*bi];
	L = &f->blk[li];
	C = &f->blk[ci];
	b->s1 = li;
	L->pfirst = f->cur_ptx;
	L->plast = f->cur_ptx + 1;
	L->jmp.kind = J_BRA;
	L->jmp.cond = pi;
	L->jmp.uni = 1;
	L->s1 = li;
	L->s2 = ci;
	/* (R:Q) <<= 1, the bit shifted out of R in cy */
	x = be_op3(f, L, OP_SHR, be_r(cy), be_rpart(r, 1), be_imm(31));
	x->m.dtype = TY_U32;
	shf(f, L, be_rpart(r, 1), be_rpart(r, 0), be_rpart(r, 1));
	shf(f, L, be_rpart(r, 0), be_rpart(q, 1), be_rpart(r, 0));
	shf(f, L, be_rpart(q, 1), be_rpart(q, 0), be_rpart(q, 1));
	be_op3(f, L, OP_SHL, be_rpart(q, 0), be_rpart(q, 0), be_imm(1));
	/* R >= D (or the 65th bit set): R -= D, Q |= 1 */
	sub64(f, L, t, be_r(r), d);
	isetp(f, L, CMP_GE, TY_U32, p, be_rpart(r, 0), be_part(d, 0), be_p(T_PT), BOP_AND);
	isetp(f, L, CMP_EQ, TY_U32, p, be_rpart(r, 1), be_part(d, 1), be_p(p), BOP_AND);
	isetp(f, L, CMP_GT, TY_U32, p, be_rpart(r, 1), be_part(d, 1), be_p(p), BOP_OR);
	isetp(f, L, CMP_NE, TY_U32, p, be_r(cy), be_r(T_RZ), be_p(p), BOP_OR);
	sel64(f, L, r, be_r(t), be_r(r), p);
	x = be_op3(f, L, OP_SEL, be_r(qb), be_r(T_RZ), be_imm(1));
	x->nopd = 4;
	x->o[3] = be_pn(p, 1);
	be_op3(f, L, OP_IADD, be_rpart(q, 0), be_rpart(q, 0), be_r(qb));
	be_op3(f, L, OP_IADD, be_r(i), be_r(i), be_imm(0xffffffff));
	isetp(f, L, CMP_NE, TY_U32, pi, be_r(i), be_r(T_RZ), be_p(T_PT), BOP_AND);
	*bi = ci;
}

/* |a| into a new pair, and the sign predicate of a */
static int mag64(Fn *f, Blk *b, MOpd a, int *sign)
{
	int n = be_newtmp(f, TC_R2), m = be_newtmp(f, TC_R2);
	*sign = be_newtmp(f, TC_P);
	sub64(f, b, n, be_r(T_RZ), a);
	isetp(f, b, CMP_LT, TY_S32, *sign, be_part(a, 1), be_r(T_RZ), be_p(T_PT), BOP_AND);
	sel64(f, b, m, be_r(n), a, *sign);
	return m;
}

/* div/rem .u64/.s64 */
int be_divrem64(Fn *f, Blk *b, const PIns *in, int rem)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]), bi = b->id;
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), TC_R2);
	MOpd c = be_inreg(f, b, be_src(f, b, &in->o[2], pt), TC_R2);
	int q = be_newtmp(f, TC_R2), r = be_newtmp(f, TC_R2), res = rem ? r : q;
	int sa = -1, sc = -1, neg = -1, k0;
	Blk *C;

	if (tsigned(pt)) {
		a = be_r(mag64(f, b, a, &sa));
		c = be_r(mag64(f, b, c, &sc));
	}
	udiv64(f, &bi, q, r, a, c);
	C = &f->blk[bi];
	f->cur_blk = bi;
	if (tsigned(pt)) {
		/* the quotient is negative when the signs differ, the remainder takes a's sign */
		int n = be_newtmp(f, TC_R2);
		neg = sa;
		if (!rem) {
			neg = be_newtmp(f, TC_P);
			MIns *x = be_emit(f, C, OP_PSETP);
			x->m.bop = BOP_XOR;
			x->m.bop2 = BOP_AND;
			x->nopd = 5;
			x->o[0] = be_p(neg);
			x->o[1] = be_p(T_PT);
			x->o[2] = be_p(sa);
			x->o[3] = be_p(sc);
			x->o[4] = be_p(T_PT);
		}
		sub64(f, C, n, be_r(T_RZ), be_r(res));
		k0 = C->nins;
		sel64(f, C, d, be_r(n), be_r(res), neg);
	} else {
		k0 = C->nins;
		be_mov(f, C, d, be_r(res), TC_R2);
	}
	if (in->guard >= 0)
		for (int k = k0; k < C->nins; k++) {
			C->ins[k].guard = f->regtmp[in->guard];
			C->ins[k].gneg = in->gneg;
		}
	f->guard_done = 1;
	return 0;
}

/* d = high 64 bits of the 128-bit product a * c (pairs), optionally signed */
void be_mulhi64(Fn *f, Blk *b, int d, MOpd a, MOpd c, int sgn)
{
	int z = be_newtmp(f, TC_R), w = be_newtmp(f, TC_R), y = be_newtmp(f, TC_R);
	int x1 = be_newtmp(f, TC_R), l11 = be_newtmp(f, TC_R), h = be_newtmp(f, TC_R2);
	MOpd a0, a1, c0, c1;
	MIns *x;

	a = be_inreg(f, b, a, TC_R2);
	c = be_inreg(f, b, c, TC_R2);
	a0 = be_part(a, 0), a1 = be_part(a, 1), c0 = be_part(c, 0), c1 = be_part(c, 1);
	/* word 1 of the product: H00 + L01 + L10, its carries into z and w */
	x = ins(f, b, OP_IMUL, TY_U32, be_r(y), a0, c0);
	x->m.flags = MF_HI;
	ins(f, b, OP_IMUL, TY_U32, be_r(x1), a0, c1);
	x = be_op3(f, b, OP_IADD, be_r(y), be_r(y), be_r(x1));
	x->m.flags = MF_CC;
	x = ins(f, b, OP_IMUL, TY_U32, be_r(z), a0, c1);
	x->m.flags = MF_HI;
	x = be_op3(f, b, OP_IADD, be_r(z), be_r(z), be_r(T_RZ));
	x->m.flags = MF_X;
	ins(f, b, OP_IMUL, TY_U32, be_r(x1), a1, c0);
	x = be_op3(f, b, OP_IADD, be_r(y), be_r(y), be_r(x1));
	x->m.flags = MF_CC;
	x = ins(f, b, OP_IMUL, TY_U32, be_r(w), a1, c0);
	x->m.flags = MF_HI;
	x = be_op3(f, b, OP_IADD, be_r(w), be_r(w), be_r(T_RZ));
	x->m.flags = MF_X;
	/* words 2 and 3: z + w + L11 + (H11 << 32) */
	ins(f, b, OP_IMUL, TY_U32, be_r(l11), a1, c1);
	x = ins(f, b, OP_IMUL, TY_U32, be_rpart(h, 1), a1, c1);
	x->m.flags = MF_HI;
	x = be_op3(f, b, OP_IADD, be_rpart(h, 0), be_r(z), be_r(w));
	x->m.flags = MF_CC;
	x = be_op3(f, b, OP_IADD, be_rpart(h, 1), be_rpart(h, 1), be_r(T_RZ));
	x->m.flags = MF_X;
	x = be_op3(f, b, OP_IADD, be_rpart(h, 0), be_rpart(h, 0), be_r(l11));
	x->m.flags = MF_CC;
	x = be_op3(f, b, OP_IADD, be_rpart(h, 1), be_rpart(h, 1), be_r(T_RZ));
	x->m.flags = MF_X;
	if (sgn) {
		/* h -= (a < 0 ? c : 0) + (c < 0 ? a : 0) */
		int pa = be_newtmp(f, TC_P), pc = be_newtmp(f, TC_P), t = be_newtmp(f, TC_R2);
		isetp(f, b, CMP_LT, TY_S32, pa, a1, be_r(T_RZ), be_p(T_PT), BOP_AND);
		isetp(f, b, CMP_LT, TY_S32, pc, c1, be_r(T_RZ), be_p(T_PT), BOP_AND);
		sel64(f, b, t, c, be_r(T_RZ), pa);
		sub64(f, b, h, be_r(h), be_r(t));
		sel64(f, b, t, a, be_r(T_RZ), pc);
		sub64(f, b, h, be_r(h), be_r(t));
	}
	be_mov(f, b, d, be_r(h), TC_R2);
}

/* ------------------------------------------------------------------ bit fields */
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
	isetp(f, b, CMP_GE, TY_U32, p, le, be_imm(32), be_p(T_PT), BOP_AND);
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
int be_bitfield64(Fn *f, Blk *b, const PIns *in)
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
			isetp(f, b, CMP_EQ, TY_U32, pz, be_r(l), be_r(T_RZ), be_p(T_PT), BOP_AND);
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
int be_bfind64(Fn *f, Blk *b, const PIns *in)
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
	isetp(f, b, CMP_NE, TY_U32, ph, be_part(a, 1), be_r(T_RZ), be_p(T_PT), BOP_AND);
	if (!sh) {
		/* hi != 0: 32 + index in hi, else the index in lo (0xffffffff when none) */
		be_op3(f, b, OP_IADD, be_r(t), be_r(fh), be_imm(32));
		x = be_op3(f, b, OP_SEL, be_r(d), be_r(t), be_r(fl));
		x->nopd = 4;
		x->o[3] = be_p(ph);
		return 0;
	}
	/* 63 - index: hi != 0: 31 - index in hi; else lo != 0: 32 + 31 - index in lo */
	isetp(f, b, CMP_NE, TY_U32, pl, be_part(a, 0), be_r(T_RZ), be_p(T_PT), BOP_AND);
	be_op3(f, b, OP_IADD, be_r(t), be_r(fl), be_imm(32));
	x = be_op3(f, b, OP_SEL, be_r(fl), be_r(t), be_r(fl));
	x->nopd = 4;
	x->o[3] = be_p(pl);
	x = be_op3(f, b, OP_SEL, be_r(d), be_r(fh), be_r(fl));
	x->nopd = 4;
	x->o[3] = be_p(ph);
	return 0;
}

/* ------------------------------------------------------------------ fns */
/* fns.b32 d, mask, base, offset: the position of the offset-th set bit of mask counting from
 * bit base & 31 upwards (offset > 0) or downwards (offset < 0); base itself when offset is 0
 * and that bit is set; 0xffffffff when there is none. A 32-step loop with a uniform branch,
 * like the division: j walks from base by +-1, n counts the set bits met */
int be_fns(Fn *f, Blk *b, const PIns *in)
{
	int d = be_dst(f, &in->o[0]), bi = b->id, li, ci;
	MOpd mask = be_inreg(f, b, be_src(f, b, &in->o[1], PT_B32), TC_R);
	MOpd base = be_inreg(f, b, be_src(f, b, &in->o[2], PT_U32), TC_R);
	MOpd off = be_inreg(f, b, be_src(f, b, &in->o[3], PT_S32), TC_R);
	int j = be_newtmp(f, TC_R), k = be_newtmp(f, TC_R), n = be_newtmp(f, TC_R), res = be_newtmp(f, TC_R);
	int s = be_newtmp(f, TC_R), want = be_newtmp(f, TC_R), t = be_newtmp(f, TC_R);
	int p = be_newtmp(f, TC_P), pz = be_newtmp(f, TC_P), pi = be_newtmp(f, TC_P);
	Blk *L, *C;
	MIns *x;

	lop(f, b, SUB_AND, be_r(j), base, be_imm(31));
	be_mov(f, b, k, be_imm(32), TC_R);
	be_mov(f, b, n, be_imm(0), TC_R);
	be_mov(f, b, res, be_imm(0xffffffff), TC_R);
	/* step +1 or -1, and |offset| (0 handled after the loop) */
	isetp(f, b, CMP_LT, TY_S32, p, off, be_r(T_RZ), be_p(T_PT), BOP_AND);
	be_mov(f, b, t, be_imm(1), TC_R);
	be_mov(f, b, s, be_imm(0xffffffff), TC_R);
	x = be_op3(f, b, OP_SEL, be_r(s), be_r(s), be_r(t));
	x->nopd = 4;
	x->o[3] = be_p(p);
	x = be_op3(f, b, OP_IADD, be_r(want), be_r(T_RZ), off);
	x->o[2].flags = OPF_NEG;
	x = be_op3(f, b, OP_SEL, be_r(want), be_r(want), off);
	x->nopd = 4;
	x->o[3] = be_p(p);
	C = be_split(f, bi);
	ci = C->id;
	li = be_newblk(f);
	be_lay_move(f, ci, bi, 1);
	be_lay_move(f, li, bi, 1);
	f->blk[bi].s1 = li;
	L = &f->blk[li];
	L->pfirst = f->cur_ptx;
	L->plast = f->cur_ptx + 1;
	L->jmp.kind = J_BRA;
	L->jmp.cond = pi;
	L->jmp.uni = 1;
	L->s1 = li;
	L->s2 = ci;
	/* bit j of mask set and j in 0..31: one more; the want-th is the answer (first only) */
	x = be_op3(f, L, OP_SHR, be_r(t), mask, be_r(j));
	x->m.dtype = TY_U32;
	lop(f, L, SUB_AND, be_r(t), be_r(t), be_imm(1));
	isetp(f, L, CMP_LT, TY_U32, p, be_r(j), be_imm(32), be_p(T_PT), BOP_AND);
	isetp(f, L, CMP_NE, TY_U32, p, be_r(t), be_r(T_RZ), be_p(p), BOP_AND);
	be_op3(f, L, OP_IADD, be_r(t), be_r(n), be_imm(1));
	x = be_op3(f, L, OP_SEL, be_r(n), be_r(t), be_r(n));
	x->nopd = 4;
	x->o[3] = be_p(p);
	isetp(f, L, CMP_EQ, TY_U32, p, be_r(n), be_r(want), be_p(p), BOP_AND);
	isetp(f, L, CMP_EQ, TY_U32, p, be_r(res), be_imm(0xffffffff), be_p(p), BOP_AND);
	x = be_op3(f, L, OP_SEL, be_r(res), be_r(j), be_r(res));
	x->nopd = 4;
	x->o[3] = be_p(p);
	be_op3(f, L, OP_IADD, be_r(j), be_r(j), be_r(s));
	be_op3(f, L, OP_IADD, be_r(k), be_r(k), be_imm(0xffffffff));
	isetp(f, L, CMP_NE, TY_U32, pi, be_r(k), be_r(T_RZ), be_p(T_PT), BOP_AND);
	/* offset 0: base when its bit is set */
	C = &f->blk[ci];
	f->cur_blk = ci;
	lop(f, C, SUB_AND, be_r(j), base, be_imm(31));
	x = be_op3(f, C, OP_SHR, be_r(t), mask, be_r(j));
	x->m.dtype = TY_U32;
	lop(f, C, SUB_AND, be_r(t), be_r(t), be_imm(1));
	isetp(f, C, CMP_EQ, TY_U32, pz, off, be_r(T_RZ), be_p(T_PT), BOP_AND);
	isetp(f, C, CMP_NE, TY_U32, p, be_r(t), be_r(T_RZ), be_p(pz), BOP_AND);
	x = be_op3(f, C, OP_SEL, be_r(res), be_r(j), be_r(res));
	x->nopd = 4;
	x->o[3] = be_p(p);
	int k0 = C->nins;
	be_mov(f, C, d, be_r(res), TC_R);
	if (in->guard >= 0)
		for (int q = k0; q < C->nins; q++) {
			C->ins[q].guard = f->regtmp[in->guard];
			C->ins[q].gneg = in->gneg;
		}
	f->guard_done = 1;
	return 0;
}
