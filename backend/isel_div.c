/* isel_div.c - instruction selection of integer division and remainder, 32- and 64-bit.
 *
 * 32 bits: a real instruction sequence (no macro op), the reciprocal estimate of LLVM's
 * AMDGPU expansion ("expandDivRem32"): z = F2I.U32.TRUNC(MUFU.RCP(I2F(b)) * 0x1.fffffcp31),
 * one Newton-Raphson step z += mulhi(z, -b*z), q = mulhi(a, z), r = a - q*b, then two
 * corrections (r >= b: q++, r -= b). Division by zero gives q = 0xffffffff, r = a (unsigned),
 * as NVIDIA hardware does; signed division divides the magnitudes and fixes the signs (q
 * negative when the signs differ, r takes a's sign). tests/run-backend.sh runs the sequence
 * on edge values on the SM model against the oracle.
 *
 * 64 bits: a loop, as in ptxas's own 64-bit division subroutine: 64 steps of restoring
 * shift-and-subtract on the (R:Q) pair, the remainder R and quotient Q in register pairs.
 * The loop's trip count is a constant, so its branch is uniform (BRA.U, no sync point) and
 * it runs for every active lane; the PTX guard applies to the final copies only. Division
 * by zero gives Q = 0xffffffffffffffff and R = a (unsigned), like the 32-bit sequence;
 * signed division divides the magnitudes and fixes the signs (INT64_MIN / -1 wraps to
 * INT64_MIN, remainder 0).
 *
 * Calls sel.c and util.c.
 */
#include "backend/be.h"

/* ------------------------------------------------------------------ 32 bits */
/* q = a / b, r = a % b on unsigned 32-bit registers (see the header comment) */
static void udiv32(Fn *f, Blk *b, int q, int r, MOpd a, MOpd d)
{
	int t0 = be_newtmp(f, TC_R), z = be_newtmp(f, TC_R), t1 = be_newtmp(f, TC_R);
	int t2 = be_newtmp(f, TC_R), p = be_newtmp(f, TC_P), pz = be_newtmp(f, TC_P);
	int ones = be_newtmp(f, TC_R);
	MIns *in;

	a = be_inreg(f, b, a, TC_R);
	d = be_inreg(f, b, d, TC_R);
	in = be_op2(f, b, OP_I2F, be_r(t0), d);
	in->m.dtype = TY_F32;
	in->m.stype = TY_U32;
	in = be_op2(f, b, OP_MUFU, be_r(t0), be_r(t0));
	in->m.sub = SUB_RCP;
	be_op3(f, b, OP_FMUL, be_r(t0), be_r(t0), be_imm(0x4f7ffffe));
	in = be_op2(f, b, OP_F2I, be_r(z), be_r(t0));
	in->m.dtype = TY_U32;
	in->m.stype = TY_F32;
	in->m.rnd = RND_TRUNC;
	in = be_op3(f, b, OP_IADD, be_r(t1), be_r(T_RZ), d);
	in->o[2].flags = OPF_NEG;
	in = be_op3(f, b, OP_IMUL, be_r(t1), be_r(t1), be_r(z));
	in->m.dtype = in->m.stype = TY_U32;
	in = be_op3(f, b, OP_IMUL, be_r(t1), be_r(z), be_r(t1));
	in->m.dtype = in->m.stype = TY_U32;
	in->m.flags = MF_HI;
	be_op3(f, b, OP_IADD, be_r(z), be_r(z), be_r(t1));
	in = be_op3(f, b, OP_IMUL, be_r(t0), a, be_r(z));
	in->m.dtype = in->m.stype = TY_U32;
	in->m.flags = MF_HI;
	in = be_op3(f, b, OP_IMUL, be_r(t2), be_r(t0), d);
	in->m.dtype = in->m.stype = TY_U32;
	in = be_op3(f, b, OP_IADD, be_r(t2), a, be_r(t2));
	in->o[2].flags = OPF_NEG;
	for (int k = 0; k < 2; k++) {
		be_setp_ins(f, b, OP_ISETP, CMP_GE, TY_U32, p, T_PT, be_r(t2), d, be_p(T_PT), BOP_AND);
		be_op3(f, b, OP_IADD, be_r(t1), be_r(t0), be_imm(1));
		be_csel(f, b, be_r(t0), be_r(t1), be_r(t0), p, 0);
		in = be_op3(f, b, OP_IADD, be_r(t1), be_r(t2), d);
		in->o[2].flags = OPF_NEG;
		be_csel(f, b, be_r(t2), be_r(t1), be_r(t2), p, 0);
	}
	be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, pz, T_PT, d, be_r(T_RZ), be_p(T_PT), BOP_AND);
	if (q >= 0) {
		be_mov(f, b, ones, be_imm(0xffffffff), TC_R);
		be_csel(f, b, be_r(q), be_r(ones), be_r(t0), pz, 0);
	}
	if (r >= 0)
		be_csel(f, b, be_r(r), a, be_r(t2), pz, 0);
}

/* ------------------------------------------------------------------ 64 bits */
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
	Blk *b = &f->blk[*bi], *L;
	int li;
	MIns *x;

	be_mov(f, b, q, a, TC_R2);
	be_mov(f, b, r, be_imm(0), TC_R2);
	be_mov(f, b, i, be_imm(64), TC_R);
	li = be_loop_block(f, *bi, pi);
	L = &f->blk[li];
	/* (R:Q) <<= 1, the bit shifted out of R in cy */
	x = be_op3(f, L, OP_SHR, be_r(cy), be_rpart(r, 1), be_imm(31));
	x->m.dtype = TY_U32;
	shf(f, L, be_rpart(r, 1), be_rpart(r, 0), be_rpart(r, 1));
	shf(f, L, be_rpart(r, 0), be_rpart(q, 1), be_rpart(r, 0));
	shf(f, L, be_rpart(q, 1), be_rpart(q, 0), be_rpart(q, 1));
	be_op3(f, L, OP_SHL, be_rpart(q, 0), be_rpart(q, 0), be_imm(1));
	/* R >= D (or the 65th bit set): R -= D, Q |= 1 */
	be_add64(f, L, t, be_r(r), d, 1);
	be_setp_ins(f, L, OP_ISETP, CMP_GE, TY_U32, p, T_PT, be_rpart(r, 0), be_part(d, 0), be_p(T_PT), BOP_AND);
	be_setp_ins(f, L, OP_ISETP, CMP_EQ, TY_U32, p, T_PT, be_rpart(r, 1), be_part(d, 1), be_p(p), BOP_AND);
	be_setp_ins(f, L, OP_ISETP, CMP_GT, TY_U32, p, T_PT, be_rpart(r, 1), be_part(d, 1), be_p(p), BOP_OR);
	be_setp_ins(f, L, OP_ISETP, CMP_NE, TY_U32, p, T_PT, be_r(cy), be_r(T_RZ), be_p(p), BOP_OR);
	be_sel64(f, L, r, be_r(t), be_r(r), p);
	x = be_op3(f, L, OP_SEL, be_r(qb), be_r(T_RZ), be_imm(1));
	x->nopd = 4;
	x->o[3] = be_pn(p, 1);
	be_op3(f, L, OP_IADD, be_rpart(q, 0), be_rpart(q, 0), be_r(qb));
	be_op3(f, L, OP_IADD, be_r(i), be_r(i), be_imm(0xffffffff));
	be_setp_ins(f, L, OP_ISETP, CMP_NE, TY_U32, pi, T_PT, be_r(i), be_r(T_RZ), be_p(T_PT), BOP_AND);
	*bi = L->s2;
}

/* |a| into a new pair, and the sign predicate of a */
static int mag64(Fn *f, Blk *b, MOpd a, int *sign)
{
	int n = be_newtmp(f, TC_R2), m = be_newtmp(f, TC_R2);
	*sign = be_newtmp(f, TC_P);
	be_add64(f, b, n, be_r(T_RZ), a, 1);
	be_setp_ins(f, b, OP_ISETP, CMP_LT, TY_S32, *sign, T_PT, be_part(a, 1), be_r(T_RZ), be_p(T_PT), BOP_AND);
	be_sel64(f, b, m, be_r(n), a, *sign);
	return m;
}

/* div/rem .u64/.s64 */
static int divrem64(Fn *f, Blk *b, const PIns *in, int rem)
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
			be_psetp(f, C, neg, be_p(sa), be_p(sc), BOP_XOR);
		}
		be_add64(f, C, n, be_r(T_RZ), be_r(res), 1);
		k0 = C->nins;
		be_sel64(f, C, d, be_r(n), be_r(res), neg);
	} else {
		k0 = C->nins;
		be_mov(f, C, d, be_r(res), TC_R2);
	}
	be_guard_from(f, C, k0, in);
	return 0;
}

/* ------------------------------------------------------------------ div, rem */
/* u = |a| of a signed 32-bit register (n: scratch, -a) */
static void mag32(Fn *f, Blk *b, int u, int n, MOpd a)
{
	MIns *x = be_op3(f, b, OP_IADD, be_r(n), be_r(T_RZ), a);

	x->o[2].flags = OPF_NEG;
	x = be_op3(f, b, OP_IMNMX, be_r(u), a, be_r(n));
	x->nopd = 4;
	x->o[3] = be_pn(T_PT, 1);
	x->m.dtype = TY_S32;
}

/* div/rem of every integer type (rem.f32/.f64 too, which the frontend lets through: on the
 * bits, as integers) */
int be_sel_divrem(Fn *f, Blk *b, const PIns *in, int rem)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MOpd a = be_widen(f, b, be_src(f, b, &in->o[1], pt), pt);
	MOpd c = be_widen(f, b, be_src(f, b, &in->o[2], pt), pt);

	if (tbytes(pt) == 8)
		return divrem64(f, b, in, rem);
	if (!tsigned(pt)) {
		udiv32(f, b, rem ? -1 : d, rem ? d : -1, a, c);
		be_fix16(f, b, d, pt);
		return 0;
	}
	/* signed: magnitudes, then signs */
	int ua = be_newtmp(f, TC_R), uc = be_newtmp(f, TC_R), res = be_newtmp(f, TC_R);
	int neg = be_newtmp(f, TC_R), pn = be_newtmp(f, TC_P);
	MIns *x;
	a = be_inreg(f, b, a, TC_R);
	c = be_inreg(f, b, c, TC_R);
	mag32(f, b, ua, neg, a);
	mag32(f, b, uc, neg, c);
	udiv32(f, b, rem ? -1 : res, rem ? res : -1, be_r(ua), be_r(uc));
	if (rem) {
		be_setp_ins(f, b, OP_ISETP, CMP_LT, TY_S32, pn, T_PT, a, be_r(T_RZ), be_p(T_PT), BOP_AND);
	} else {
		x = be_op3(f, b, OP_LOP, be_r(neg), a, c);
		x->m.sub = SUB_XOR;
		be_setp_ins(f, b, OP_ISETP, CMP_LT, TY_S32, pn, T_PT, be_r(neg), be_r(T_RZ), be_p(T_PT), BOP_AND);
	}
	x = be_op3(f, b, OP_IADD, be_r(neg), be_r(T_RZ), be_r(res));
	x->o[2].flags = OPF_NEG;
	be_csel(f, b, be_r(d), be_r(neg), be_r(res), pn, 0);
	be_fix16(f, b, d, pt);
	return 0;
}
