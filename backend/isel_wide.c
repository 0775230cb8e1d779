/* isel_wide.c - instruction selection of the 64-bit integer operations that need more than
 * a carry chain: division and remainder (div/rem .u64/.s64) and the high half of a 64x64
 * product (mul.hi/mad.hi .u64/.s64).
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
 */
#include "backend/be.h"

static int tsigned(int pt) { return ptx_type_kind((PType)pt) == PTK_SIGNED; }

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
