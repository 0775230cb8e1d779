/* isel_int.c - instruction selection of integer arithmetic (add/sub with carry chains,
 * mul/mad in every width, mul24, min/max, abs/neg; min/max of f32 and f64 too), logic and
 * shifts. isel.c sends float arithmetic to isel_math.c and 16-bit float min/max to
 * isel_bf16.c.
 *
 * Conventions as in sel.c: 32-bit values in a register, 64-bit in an even pair (low word
 * first), 8/16-bit values zero-extended (be_fix16 after every definition); 64-bit add/sub
 * are IADD.CC/IADD.X chains, 64-bit products IMUL/IMUL.HI/IMAD on words. The high half of
 * the 128-bit product adds the four 32x32 partial products with carries; the signed one
 * subtracts (a < 0 ? c : 0) and (c < 0 ? a : 0) from the unsigned one.
 *
 * Calls sel.c and util.c.
 */
#include "backend/be.h"

/* ------------------------------------------------------------------ integer */
static Type ity(int pt)
{
	switch (tbytes(pt)) {
	case 8: return tsigned(pt) ? TY_S64 : TY_U64;
	default: return tsigned(pt) ? TY_S32 : TY_U32;
	}
}

static int cc_guard(Fn *f, const PIns *in, int pol)
{
	static const char *nm[] = {"", "add.cc", "sub.cc"};
	if (f->ccpol && f->ccpol != pol) {
		be_errorf(f, in->loc, "unsupported: %s reads a carry set by %s", ptx_op_name((POp)in->op),
		          nm[f->ccpol]);
		return -1;
	}
	return 0;
}

/* Carry chains: CC.C after add.cc is PTX's carry (polarity 1), after sub.cc the inverse of
 * PTX's borrow (polarity 2: IADD.CC of a + ~b + 1). addc after sub.cc and subc after add.cc
 * read the other polarity: d = a + b + borrow = ~(~a + ~b + C) and d = a - b - carry =
 * ~(~a + b + C); the carry out of that IADD.X is again of the chain's polarity, which stays. */
static void cc_crossed(Fn *f, Blk *b, const PIns *in, int d, MOpd a, MOpd c, int sub)
{
	int na = be_newtmp(f, TC_R), s = be_newtmp(f, TC_R);
	MIns *x;

	x = be_op3(f, b, OP_LOP, be_r(na), be_inreg(f, b, a, TC_R), be_imm(0xffffffff));
	x->m.sub = SUB_XOR;
	x = be_op3(f, b, OP_IADD, be_r(s), be_r(na), be_inreg(f, b, c, TC_R));
	x->o[2].flags = sub ? 0 : OPF_NOT;
	x->m.flags |= MF_X | ((in->m.flags & PMF_CC) ? MF_CC : 0);
	x = be_op3(f, b, OP_LOP, be_r(d), be_r(s), be_imm(0xffffffff));
	x->m.sub = SUB_XOR;
}

static void sel_add_fused(Fn *f, Blk *b, const PIns *in, int d);

int be_sel_addsub(Fn *f, Blk *b, const PIns *in, int sub)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	int carry = (ptx_ops[in->op].flags & PF_CARRY) != 0, cc = (in->m.flags & PMF_CC) != 0;
	MOpd a = be_src(f, b, &in->o[1], pt), c = be_src(f, b, &in->o[2], pt);
	MIns *x;

	if (d < 0)
		d = be_newtmp(f, tbytes(pt) == 8 ? TC_R2 : TC_R);
	if (tbytes(pt) == 8) {
		if (carry || cc)
			return be_unsup(f, in, "64-bit carry chain"), -1;
		if (!sub && f->wfuse && f->wfuse[f->cur_ptx] >= 0)
			sel_add_fused(f, b, in, d);
		else
			be_add64(f, b, d, a, c, sub);
		return 0;
	}
	if (carry && f->ccpol && f->ccpol != (sub ? 2 : 1)) {
		cc_crossed(f, b, in, d, a, c, sub);
		return 0;
	}
	a = be_inreg(f, b, a, TC_R);
	/* a saturating subtraction negates inside the adder (-INT_MIN is not an immediate) */
	if (sub && (carry || cc || c.kind != OPD_IMM || (in->m.flags & PMF_SAT)))
		c = be_inreg(f, b, c, TC_R);
	if (sub && c.kind == OPD_IMM)
		c.imm = (uint32_t)(0 - (uint32_t)c.imm);
	x = be_op3(f, b, OP_IADD, be_r(d), a, c);
	if (sub && c.kind == OPD_REG)
		x->o[2].flags = carry ? OPF_NOT : OPF_NEG;
	if (cc)
		x->m.flags |= MF_CC;
	if (carry)
		x->m.flags |= MF_X;
	if (in->m.flags & PMF_SAT)
		x->m.flags |= MF_SAT;
	if (cc)
		f->ccpol = sub ? 2 : 1;
	be_fix16(f, b, d, pt);
	return 0;
}

/* an integer op with its type as both dtype and stype */
static MIns *ins(Fn *f, Blk *b, Op op, Type ty, MOpd d, MOpd a, MOpd c)
{
	MIns *x = be_op3(f, b, op, d, a, c);
	x->m.dtype = x->m.stype = (uint8_t)ty;
	return x;
}

/* a cross product of mulhi64: y += lo(a * c) (x: scratch), the carry into hi = hi(a * c) */
static void cross(Fn *f, Blk *b, int y, int x, int hi, MOpd a, MOpd c)
{
	MIns *m;

	ins(f, b, OP_IMUL, TY_U32, be_r(x), a, c);
	m = be_op3(f, b, OP_IADD, be_r(y), be_r(y), be_r(x));
	m->m.flags = MF_CC;
	m = ins(f, b, OP_IMUL, TY_U32, be_r(hi), a, c);
	m->m.flags = MF_HI;
	m = be_op3(f, b, OP_IADD, be_r(hi), be_r(hi), be_r(T_RZ));
	m->m.flags = MF_X;
}

/* d = high 64 bits of the 128-bit product a * c (pairs), optionally signed */
static void mulhi64(Fn *f, Blk *b, int d, MOpd a, MOpd c, int sgn)
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
	cross(f, b, y, x1, z, a0, c1);
	cross(f, b, y, x1, w, a1, c0);
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
		be_setp_ins(f, b, OP_ISETP, CMP_LT, TY_S32, pa, T_PT, a1, be_r(T_RZ), be_p(T_PT), BOP_AND);
		be_setp_ins(f, b, OP_ISETP, CMP_LT, TY_S32, pc, T_PT, c1, be_r(T_RZ), be_p(T_PT), BOP_AND);
		be_sel64(f, b, t, c, be_r(T_RZ), pa);
		be_add64(f, b, h, be_r(h), be_r(t), 1);
		be_sel64(f, b, t, a, be_r(T_RZ), pc);
		be_add64(f, b, h, be_r(h), be_r(t), 1);
	}
	be_mov(f, b, d, be_r(h), TC_R2);
}

/* low 64 bits of a 64x64 product into d */
static void mul64(Fn *f, Blk *b, int d, MOpd a, MOpd c)
{
	int t = be_newtmp(f, TC_R2);
	MIns *in;

	a = be_inreg(f, b, a, TC_R2);
	in = be_op3(f, b, OP_IMUL, be_rpart(t, 1), be_part(a, 0), be_part(c, 0));
	in->m.dtype = in->m.stype = TY_U32;
	in->m.flags = MF_HI;
	in = be_op3(f, b, OP_IMAD, be_rpart(t, 1), be_part(a, 0), be_part(c, 1));
	in->nopd = 4;
	in->o[3] = be_rpart(t, 1);
	in->m.dtype = in->m.stype = TY_U32;
	in = be_op3(f, b, OP_IMAD, be_rpart(t, 1), be_part(a, 1), be_part(c, 0));
	in->nopd = 4;
	in->o[3] = be_rpart(t, 1);
	in->m.dtype = in->m.stype = TY_U32;
	in = be_op3(f, b, OP_IMUL, be_rpart(t, 0), be_part(a, 0), be_part(c, 0));
	in->m.dtype = in->m.stype = TY_U32;
	be_mov(f, b, d, be_r(t), TC_R2);
}

/* k when the 32-bit immediate c is 2^k as a positive multiplier of type signed, else -1 */
static int pow2k(MOpd c, int sgn)
{
	uint32_t v = (uint32_t)c.imm;

	if (c.kind != OPD_IMM || !v || (v & (v - 1)) || (sgn && v >> 31))
		return -1;
	return __builtin_ctz(v);
}

/* d = ext(x) * 2^k + e on 64 bits, as ptxas 11.8 selects mul.wide.{s32,u32} by 2^k into an
 * add.s64 (and mad.wide by 2^k): ISCADD d.lo.CC, x, e.lo, k; IMAD.HI.X d.hi, x, 2^k, e.hi
 * (.U32.U32 unsigned; 2^k a MOV32I that consts.c folds unless e is a parameter, which it
 * reads from the bank instead). The high word of the product, ext(x) >> (32 - k), is IMAD.HI's and
 * takes the carry of the low words: no pair holds the product (tests/ptx/wide_scadd) */
static void scadd64(Fn *f, Blk *b, int d, MOpd x, int k, int sgn, MOpd e)
{
	MOpd m = be_inreg(f, b, be_imm((int64_t)(1ull << k)), TC_R);
	MIns *in;

	e = be_inreg(f, b, e, TC_R2);
	in = be_op3(f, b, OP_ISCADD, be_rpart(d, 0), x, be_part(e, 0));
	in->nopd = 4;
	in->o[3] = be_imm(k);
	in->m.flags = MF_CC;
	in = be_op3(f, b, OP_IMAD, be_rpart(d, 1), x, m);
	in->nopd = 4;
	in->o[3] = be_part(e, 1);
	in->m.dtype = in->m.stype = sgn ? TY_S32 : TY_U32;
	in->m.flags = MF_HI | MF_X;
}

/* the mul.wide.{s32,u32} by 2^k whose product only the add.s64 at PTX instruction ai reads,
 * in the same block with no write of the factor between (be_wide_fuse): its index, else -1 */
static int fusable_mul(const PIns *in, int *k)
{
	int pt = in->m.types[0];

	if (in->op != PO_MUL || !(in->m.flags & PMF_WIDE) || (pt != PT_S32 && pt != PT_U32) ||
	    in->guard >= 0 || in->o[0].kind != POK_REG || in->o[1].kind != POK_REG ||
	    in->o[2].kind != POK_IMM)
		return 0;
	{
		MOpd c = be_imm((uint32_t)in->o[2].imm);
		*k = pow2k(c, tsigned(pt));
	}
	return *k >= 0;
}

/* how often PTX register r is named in o (a destination, a source, an address base) */
static int mentions(const POpd *o, int r)
{
	int n = (o->kind == POK_REG || o->kind == POK_ADDR) && o->reg == r;

	if (o->kind == POK_VEC || o->kind == POK_LIST)
		for (int e = 0; e < o->nelems; e++)
			n += mentions(&o->elems[e], r);
	return n;
}

static int mentions_ins(const PIns *in, int r)
{
	int n = in->guard == r;

	for (int i = 0; i < in->nopd; i++)
		n += mentions(&in->o[i], r);
	return n;
}

/* no branch condition is a product (be_reach's reads of block ends) */
static int no_cond(const Fn *f, const Blk *b)
{
	return -1;
}

/* an add.s64 that may take in the product r of a mul.wide: r once, as a source */
static int fusable_add(const Fn *f, const PIns *ai, int a, int r)
{
	int pt = ai->m.types[0];

	return ai->op == PO_ADD && tbytes(pt) == 8 && !tfloat(pt) &&
	       !(ai->m.flags & (PMF_CC | PMF_SAT)) && ai->guard != r && mentions_ins(ai, r) == 1 &&
	       ai->o[0].kind == POK_REG && ai->o[0].reg != r && (!f->kfold || f->kfold[a] < 0);
}

/* in names PTX register r only as its destination: a write of r, no read */
static int writes_only(const PIns *in, int r)
{
	return in->o[0].kind == POK_REG && in->o[0].reg == r && mentions_ins(in, r) == 1;
}

/* Fn.wfuse: per PTX instruction, for an add.s64 the mul.wide by 2^k it takes in (selected as
 * scadd64), -2 for that mul (not selected), else -1. Every read the mul's definition of the
 * product reaches (reach.c) is such an add after it in its block, with no write of the factor
 * between, and only that definition reaches them: no pair need hold the product; each add
 * makes it again (as ptxas does, tests/ptx/wide_scadd). */
void be_wide_fuse(Fn *f)
{
	const PFunc *pf = f->pf;
	BeReach *rc = NULL;
	int *nreads = NULL;
	uint8_t *unshared = NULL;   /* per definition: a read of it is not a shared access */

	f->wfuse = be_alloc(f->pool, sizeof(int) * (size_t)(pf->nins + 1));
	for (int i = 0; i <= pf->nins; i++)
		f->wfuse[i] = -1;
	for (int bi = 0; bi < f->nblk; bi++) {
		int p1 = f->blk[bi].plast < pf->nins ? f->blk[bi].plast : pf->nins;
		for (int m = f->blk[bi].pfirst, k; m < p1 && !f->blk[bi].dead; m++) {
			const PIns *mi = &pf->ins[m];
			int r, x, a, d, n = 0, stop = 0;
			if (!fusable_mul(mi, &k) || (f->kfold && f->kfold[m] >= 0))
				continue;
			if (!rc) {   /* per definition: the reads it may reach */
				rc = be_reach(f, no_cond);
				nreads = be_alloc(f->pool, sizeof(int) * (size_t)(rc->nd + 1));
				unshared = be_alloc(f->pool, (size_t)rc->nd + 1);
				for (int e = 0; e < rc->ndefs; e++)
					nreads[rc->defs[e]]++;
				for (int i = 0; i < pf->nins; i++)
					for (int e = rc->iread[i]; e < rc->iread[i] + rc->nread[i]; e++)
						for (int q = 0; q < rc->rd[e].n; q++)
							unshared[rc->defs[rc->rd[e].first + q]] |=
								pf->ins[i].m.space != PS_SHARED;
			}
			if (rc->idef[m + 1] - rc->idef[m] != 1)
				continue;
			d = rc->idef[m];
			r = mi->o[0].reg;
			x = mi->o[1].reg;
			for (a = m + 1; a < p1 && !stop; a++) {
				const PIns *ai = &pf->ins[a];
				for (int j = 0, w; (w = be_ins_dst(ai, j)) >= 0; j++)
					stop |= w == x || w == r;
				if (!mentions_ins(ai, r) || writes_only(ai, r))
					continue;
				/* (a sum only shared accesses read: ptxas makes it in 32 bits, shifting the
				 * index once and folding the variable's address into each access, which
				 * ifrule.c's shared_free counts on our two shifts and 64-bit adds) */
				if (!fusable_add(f, ai, a, r) || rc->idef[a + 1] - rc->idef[a] != 1 ||
				    (nreads[rc->idef[a]] && !unshared[rc->idef[a]]))
					goto next;
				for (int e = rc->iread[a]; e < rc->iread[a] + rc->nread[a]; e++)
					if (rc->rd[e].reg == r && (rc->rd[e].n != 1 || rc->defs[rc->rd[e].first] != d))
						goto next;
				n++;
			}
			if (!n || n != nreads[d])
				continue;
			for (a = m + 1; n; a++)
				if (fusable_add(f, &pf->ins[a], a, r))
					f->wfuse[a] = m, n--;
			f->wfuse[m] = -2;
		next:;
		}
	}
}

/* the add.s64 of Fn.wfuse: its sum with the mul.wide's factor shifted in */
static void sel_add_fused(Fn *f, Blk *b, const PIns *in, int d)
{
	const PIns *mi = &f->pf->ins[f->wfuse[f->cur_ptx]];
	int r = mi->o[0].reg, pt = mi->m.types[0], k;
	const POpd *e = in->o[1].kind == POK_REG && in->o[1].reg == r ? &in->o[2] : &in->o[1];
	MOpd x = be_inreg(f, b, be_src(f, b, &mi->o[1], pt), TC_R);

	fusable_mul(mi, &k);
	scadd64(f, b, d, x, k, tsigned(pt), be_src(f, b, e, in->m.types[0]));
}

int be_sel_mul(Fn *f, Blk *b, const PIns *in, int mad)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	int wide = (in->m.flags & PMF_WIDE) != 0, hi = (in->m.flags & PMF_HI) != 0;
	MOpd a, c, e = {0};
	MIns *x;

	a = be_widen(f, b, be_src(f, b, &in->o[1], pt), pt);
	c = be_widen(f, b, be_src(f, b, &in->o[2], pt), pt);
	if (mad)
		e = be_src(f, b, &in->o[3], wide ? (tsigned(pt) ? PT_S64 : PT_U64) : pt);
	if (tbytes(pt) == 8) {
		if (wide)
			return be_unsup(f, in, "64-bit mul.wide"), -1;
		if (hi && !mad) {
			mulhi64(f, b, d, a, c, tsigned(pt));
		} else if (hi) {
			int t = be_newtmp(f, TC_R2);
			mulhi64(f, b, t, a, c, tsigned(pt));
			be_add64(f, b, d, be_r(t), e, 0);
		} else if (!mad) {
			mul64(f, b, d, a, c);
		} else {
			int t = be_newtmp(f, TC_R2);
			mul64(f, b, t, a, c);
			be_add64(f, b, d, be_r(t), e, 0);
		}
		return 0;
	}
	a = be_inreg(f, b, a, TC_R);
	if (wide && tbytes(pt) == 4) {
		/* 32x32 -> 64: low and high words, then the 64-bit addend; by 2^k (k < 31, or 31
		 * unsigned) the words of ext(a) << k: a << k and a >> (32 - k) in a's signedness
		 * (SHR by 32 gives the sign or 0) */
		int t = be_newtmp(f, TC_R2), k = pow2k(c, tsigned(pt));
		if (k >= 0 && mad) {
			scadd64(f, b, d, a, k, tsigned(pt), e);
			return 0;
		}
		if (k >= 0) {
			be_op3(f, b, OP_SHL, be_rpart(t, 0), a, be_imm(k));
			x = be_op3(f, b, OP_SHR, be_rpart(t, 1), a, be_imm(32 - k));
			x->m.dtype = tsigned(pt) ? TY_S32 : TY_U32;
		} else {
			x = be_op3(f, b, OP_IMUL, be_rpart(t, 1), a, c);
			x->m.dtype = x->m.stype = tsigned(pt) ? TY_S32 : TY_U32;
			x->m.flags = MF_HI;
			x = be_op3(f, b, OP_IMUL, be_rpart(t, 0), a, c);
			x->m.dtype = x->m.stype = tsigned(pt) ? TY_S32 : TY_U32;
		}
		if (mad)
			be_add64(f, b, d, be_r(t), e, 0);
		else
			be_mov(f, b, d, be_r(t), TC_R2);
		return 0;
	}
	if (wide) {
		/* 16x16 -> 32: the widened operands' product fits */
		/* slot 3 of IMAD takes a register or constant: materialise first */
		if (mad)
			e = be_inreg(f, b, e, TC_R);
		x = be_op3(f, b, mad ? OP_IMAD : OP_IMUL, be_r(d), a, c);
		x->m.dtype = x->m.stype = TY_S32;
		if (mad) {
			x->nopd = 4;
			x->o[3] = e;
		}
		return 0;
	}
	if (hi && tbytes(pt) == 2) {
		/* high half of the 32-bit product of the (sign-)extended operands */
		int t = be_newtmp(f, TC_R);
		x = be_op3(f, b, OP_IMUL, be_r(t), a, c);
		x->m.dtype = x->m.stype = TY_S32;
		x = be_op3(f, b, OP_SHR, be_r(d), be_r(t), be_imm(16));
		x->m.dtype = TY_U32;
		if (mad)
			be_op3(f, b, OP_IADD, be_r(d), be_r(d), e);
		be_fix16(f, b, d, pt);
		return 0;
	}
	if (mad && hi) {
		int t = be_newtmp(f, TC_R);
		x = be_op3(f, b, OP_IMUL, be_r(t), a, c);
		x->m.dtype = x->m.stype = ity(pt);
		x->m.flags = MF_HI;
		x = be_op3(f, b, OP_IADD, be_r(d), be_r(t), e);
		if (in->m.flags & PMF_CC)
			x->m.flags |= MF_CC, f->ccpol = 1;
		if (ptx_ops[in->op].flags & PF_CARRY) {
			if (cc_guard(f, in, 1) < 0)
				return -1;
			x->m.flags |= MF_X;
		}
		return 0;
	}
	if (mad && ((in->m.flags & PMF_CC) || (ptx_ops[in->op].flags & PF_CARRY))) {
		int t = be_newtmp(f, TC_R);
		if ((ptx_ops[in->op].flags & PF_CARRY) && cc_guard(f, in, 1) < 0)
			return -1;
		x = be_op3(f, b, OP_IMUL, be_r(t), a, c);
		x->m.dtype = x->m.stype = TY_U32;
		x = be_op3(f, b, OP_IADD, be_r(d), be_r(t), e);
		if (in->m.flags & PMF_CC)
			x->m.flags |= MF_CC, f->ccpol = 1;
		if (ptx_ops[in->op].flags & PF_CARRY)
			x->m.flags |= MF_X;
		return 0;
	}
	if (mad)
		e = be_inreg(f, b, e, TC_R);
	x = be_op3(f, b, mad ? OP_IMAD : OP_IMUL, be_r(d), a, c);
	x->m.dtype = x->m.stype = tbytes(pt) == 4 ? ity(pt) : TY_U32;
	if (hi)
		x->m.flags = MF_HI;
	if (mad) {
		x->nopd = 4;
		x->o[3] = e;
	}
	be_fix16(f, b, d, pt);
	return 0;
}

/* 24-bit multiplies: operands sign/zero-extended from bit 23 */
int be_sel_mul24(Fn *f, Blk *b, const PIns *in, int mad)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MOpd s[2];
	int lo = be_newtmp(f, TC_R), hi = be_newtmp(f, TC_R);
	MIns *x;

	for (int k = 0; k < 2; k++) {
		int t = be_newtmp(f, TC_R);
		x = be_op3(f, b, OP_BFE, be_r(t), be_inreg(f, b, be_src(f, b, &in->o[1 + k], pt), TC_R),
		        be_imm(0x1800));
		x->m.dtype = tsigned(pt) ? TY_S32 : TY_U32;
		s[k] = be_r(t);
	}
	x = be_op3(f, b, OP_IMUL, be_r(lo), s[0], s[1]);
	x->m.dtype = x->m.stype = ity(pt);
	if (in->m.flags & PMF_HI) {
		x = be_op3(f, b, OP_IMUL, be_r(hi), s[0], s[1]);
		x->m.dtype = x->m.stype = ity(pt);
		x->m.flags = MF_HI;
		/* bits 47..16 of the product */
		x = be_op3(f, b, OP_SHR, be_r(lo), be_r(lo), be_imm(16));
		x->m.dtype = TY_U32;
		x = be_op3(f, b, OP_ISCADD, be_r(lo), be_r(hi), be_r(lo));
		x->nopd = 4;
		x->o[3] = be_imm(16);
	}
	if (mad)
		be_op3(f, b, OP_IADD, be_r(d), be_r(lo), be_src(f, b, &in->o[3], pt));
	else
		be_mov(f, b, d, be_r(lo), TC_R);
	return 0;
}

/* min/max: IMNMX/FMNMX/DMNMX with PT (min) or !PT (max) */
int be_sel_minmax(Fn *f, Blk *b, const PIns *in, int max)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	int nsrc = in->nopd - 1;
	Op op = tfloat(pt) ? (tbytes(pt) == 8 ? OP_DMNMX : OP_FMNMX) : OP_IMNMX;
	int cls = tbytes(pt) == 8 ? TC_R2 : TC_R;
	MOpd acc;

	if (tfloat(pt) && pt != PT_F32 && pt != PT_F64)
		return be_unsup(f, in, "min/max of this floating-point type"), -1;
	acc = be_inreg(f, b, be_widen(f, b, be_src(f, b, &in->o[1], pt), pt), cls);
	for (int k = 2; k <= nsrc; k++) {
		MOpd c = be_widen(f, b, be_src(f, b, &in->o[k], pt), pt);
		int t = k == nsrc ? d : be_newtmp(f, cls), pn = -1;
		MIns *x;
		if ((in->m.flags & PMF_NAN) && tfloat(pt)) {
			/* .NaN: a NaN operand gives the canonical NaN (tested before d is written) */
			pn = be_newtmp(f, TC_P);
			be_setp_ins(f, b, cls == TC_R2 ? OP_DSETP : OP_FSETP, CMP_NAN, TY_NONE, pn, T_PT, acc, c,
			            be_p(T_PT), BOP_AND);
		}
		x = be_op3(f, b, op, be_r(t), acc, c);
		x->nopd = 4;
		x->o[3] = be_pn(T_PT, max);
		if (op == OP_IMNMX)
			x->m.dtype = ity(pt);
		if (in->m.flags & PMF_FTZ)
			x->m.flags |= MF_FTZ;
		if (pn >= 0) {
			int q = be_newtmp(f, cls);
			be_mov(f, b, q, be_imm(cls == TC_R2 ? 0x7fffffffffffffffll : 0x7fffffff), cls);
			for (int w = 0; w < (cls == TC_R2 ? 2 : 1); w++) {
				x = be_op3(f, b, OP_SEL, cls == TC_R2 ? be_rpart(t, w) : be_r(t),
				           cls == TC_R2 ? be_rpart(q, w) : be_r(q), cls == TC_R2 ? be_rpart(t, w) : be_r(t));
				x->nopd = 4;
				x->o[3] = be_p(pn);
			}
		}
		acc = be_r(t);
	}
	be_fix16(f, b, d, pt);
	return 0;
}

int be_sel_absneg(Fn *f, Blk *b, const PIns *in, int neg)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MOpd a;
	MIns *x;

	a = be_inreg(f, b, be_widen(f, b, be_src(f, b, &in->o[1], pt), pt), tbytes(pt) == 8 ? TC_R2 : TC_R);
	if (tbytes(pt) == 8) {
		int t = neg ? d : be_newtmp(f, TC_R2);
		x = be_op3(f, b, OP_IADD, be_rpart(t, 0), be_r(T_RZ), be_part(a, 0));
		x->o[2].flags = OPF_NEG;
		x->m.flags = MF_CC;
		x = be_op3(f, b, OP_IADD, be_rpart(t, 1), be_r(T_RZ), be_part(a, 1));
		x->o[2].flags = OPF_NOT;
		x->m.flags = MF_X;
		if (!neg) {
			x = be_op3(f, b, OP_IMNMX, be_r(d), a, be_r(t));
			x->nopd = 4;
			x->o[3] = be_pn(T_PT, 1);
			x->m.dtype = TY_S64;
		}
		return 0;
	}
	if (neg) {
		x = be_op3(f, b, OP_IADD, be_r(d), be_r(T_RZ), a);
		x->o[2].flags = OPF_NEG;
	} else {
		int t = be_newtmp(f, TC_R);
		x = be_op3(f, b, OP_IADD, be_r(t), be_r(T_RZ), a);
		x->o[2].flags = OPF_NEG;
		x = be_op3(f, b, OP_IMNMX, be_r(d), a, be_r(t));
		x->nopd = 4;
		x->o[3] = be_pn(T_PT, 1);
		x->m.dtype = TY_S32;
	}
	be_fix16(f, b, d, pt);
	return 0;
}

/* ------------------------------------------------------------------ logic */
int be_sel_logic(Fn *f, Blk *b, const PIns *in, Sub sub)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MOpd a = be_src(f, b, &in->o[1], pt), c = be_src(f, b, &in->o[2], pt);
	MIns *x;

	if (pt == PT_PRED) {
		be_psetp(f, b, d, a, c, sub == SUB_AND ? BOP_AND : sub == SUB_OR ? BOP_OR : BOP_XOR);
		return 0;
	}
	for (int k = 0; k < (tbytes(pt) == 8 ? 2 : 1); k++) {
		MOpd s0 = tbytes(pt) == 8 ? be_part(be_inreg(f, b, a, TC_R2), k) : be_inreg(f, b, a, TC_R);
		MOpd s1 = tbytes(pt) == 8 ? be_part(c, k) : c;
		x = be_op3(f, b, OP_LOP, tbytes(pt) == 8 ? be_rpart(d, k) : be_r(d), s0, s1);
		x->m.sub = (uint8_t)sub;
	}
	return 0;
}

int be_sel_not(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MOpd a = be_src(f, b, &in->o[1], pt);
	MIns *x;

	if (pt == PT_PRED) {
		a.flags ^= OPF_NOT;
		be_mov(f, b, d, a, TC_P);
		return 0;
	}
	if (tbytes(pt) == 8)
		a = be_inreg(f, b, a, TC_R2);
	for (int k = 0; k < (tbytes(pt) == 8 ? 2 : 1); k++) {
		x = be_op3(f, b, OP_LOP, tbytes(pt) == 8 ? be_rpart(d, k) : be_r(d),
		        tbytes(pt) == 8 ? be_part(a, k) : be_inreg(f, b, a, TC_R), be_imm(0xffffffff));
		x->m.sub = SUB_XOR;
	}
	be_fix16(f, b, d, pt);
	return 0;
}

int be_sel_cnot(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[1], pt), tbytes(pt) == 8 ? TC_R2 : TC_R);
	int p = be_newtmp(f, TC_P);
	MIns *x;

	be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, p, T_PT, tbytes(pt) == 8 ? be_part(a, 0) : a,
	            be_r(T_RZ), be_p(T_PT), BOP_AND);
	if (tbytes(pt) == 8)
		be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, p, T_PT, be_part(a, 1), be_r(T_RZ), be_p(p),
		            BOP_AND);
	x = be_op3(f, b, OP_SEL, tbytes(pt) == 8 ? be_rpart(d, 0) : be_r(d), be_r(T_RZ), be_imm(1));
	x->nopd = 4;
	x->o[3] = be_pn(p, 1);
	if (tbytes(pt) == 8) {
		x = be_op3(f, b, OP_MOV, be_rpart(d, 1), be_r(T_RZ), be_r(T_RZ));
		x->nopd = 2;
	}
	return 0;
}

/* 64-bit shift of pair a by n into pair d. PTX clamps n at 64; SHF.L/.R on a U64/S64 pair
 * clamps at 64 and SHL/SHR at 32, so any n is the funnel word plus a plain shift of the other
 * word. A constant n >= 32 moves a word (and fills with 0 or the sign), n == 0 is a copy.
 * The word written first is the one the second instruction no longer reads, so d may be a. */
void be_shift64(Fn *f, Blk *b, int d, MOpd a, MOpd n, int left, int sgn)
{
	MIns *x;
	int hi = left ? 1 : 0, lo = 1 - hi;	/* the word that receives the other's bits, the rest */
	uint64_t k = n.kind == OPD_IMM ? (uint32_t)n.imm : 0;

	if (n.kind == OPD_IMM && k == 0) {
		be_mov(f, b, d, a, TC_R2);
		return;
	}
	a = be_inreg(f, b, a, TC_R2);
	if (n.kind == OPD_IMM && k >= 32) {
		/* left: hi = lo << (k-32), lo = 0; right: lo = hi >> (k-32), hi = 0 or the sign */
		if (k >= 64 && !sgn) {
			x = be_op3(f, b, OP_MOV, be_rpart(d, hi), be_r(T_RZ), be_r(T_RZ));
			x->nopd = 2;
		} else if (k == 32) {
			x = be_op3(f, b, OP_MOV, be_rpart(d, hi), be_part(a, lo), be_r(T_RZ));
			x->nopd = 2;
		} else {
			x = be_op3(f, b, left ? OP_SHL : OP_SHR, be_rpart(d, hi), be_part(a, lo),
			           be_imm(k >= 64 ? 31 : (int64_t)k - 32));
			if (!left)
				x->m.dtype = sgn ? TY_S32 : TY_U32;
		}
		if (sgn) {
			x = be_op3(f, b, OP_SHR, be_rpart(d, 1), be_part(a, 1), be_imm(31));
			x->m.dtype = TY_S32;
		} else {
			x = be_op3(f, b, OP_MOV, be_rpart(d, lo), be_r(T_RZ), be_r(T_RZ));
			x->nopd = 2;
		}
		return;
	}
	x = be_emit(f, b, OP_SHF);
	x->nopd = 4;
	x->m.sub = left ? SUB_L : SUB_R;
	x->m.dtype = sgn ? TY_S64 : TY_U64;
	x->o[0] = be_rpart(d, hi);
	x->o[1] = be_part(a, 0);
	x->o[2] = n;
	x->o[3] = be_part(a, 1);
	x = be_op3(f, b, left ? OP_SHL : OP_SHR, be_rpart(d, lo), be_part(a, lo), n);
	if (!left)
		x->m.dtype = sgn ? TY_S32 : TY_U32;
}

int be_sel_shift(Fn *f, Blk *b, const PIns *in, int left)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]);
	int sgn = !left && tsigned(pt);
	MOpd a = be_src(f, b, &in->o[1], pt), n = be_src(f, b, &in->o[2], PT_U32);
	MIns *x;

	if (tbytes(pt) == 8) {
		if (n.kind != OPD_IMM)
			n = be_inreg(f, b, n, TC_R);
		be_shift64(f, b, d, a, n, left, sgn);
		return 0;
	}
	a = be_inreg(f, b, sgn ? be_widen(f, b, a, pt) : a, TC_R);
	x = be_op3(f, b, left ? OP_SHL : OP_SHR, be_r(d), a, n);
	if (!left)
		x->m.dtype = sgn ? TY_S32 : TY_U32;
	be_fix16(f, b, d, pt);
	return 0;
}
