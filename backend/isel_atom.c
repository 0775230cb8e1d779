/* isel_atom.c - instruction selection of atom and red. Global and generic atomics -> ATOM/RED
 * (.E on a 64-bit address); shared-memory ones the CUDA Handbook lock loop (LDSLK / @P op /
 * @P STSUL / @!P BRA), which splits the block; an add on .f16, .bf16 and their pairs, which
 * no modelled GPU has, a compare-and-swap loop (ATOM.CAS) on the aligned word that holds the
 * value, or the lock loop on that word in shared memory (docs/backend.md, "Instruction
 * selection").
 */
#include "backend/be.h"

typedef BeAddr Addr;

static Sub aop(int a)
{
	switch (a) {
	case PAOP_AND: return SUB_AND;
	case PAOP_OR: return SUB_OR;
	case PAOP_XOR: return SUB_XOR;
	case PAOP_CAS: return SUB_CAS;
	case PAOP_EXCH: return SUB_EXCH;
	case PAOP_ADD: return SUB_ADD;
	case PAOP_INC: return SUB_INC;
	case PAOP_DEC: return SUB_DEC;
	case PAOP_MIN: return SUB_MIN;
	case PAOP_MAX: return SUB_MAX;
	default: return SUB_NONE;
	}
}

static Type aty(int pt)
{
	switch ((int)pt) {
	case PT_S32: return TY_S32;
	case PT_U64: return TY_U64;
	case PT_S64: return TY_S64;
	case PT_B64: return TY_B64;
	case PT_F32: return TY_F32;
	case PT_F64: return TY_F64;
	default: return TY_U32;
	}
}

/* the loop of an atomic with no instruction of its own, behind the instruction being selected
 * in block bi: bi (branching around it under in's guard) falls into L, which runs until each
 * lane's attempt succeeds (@!p BRA L: lanes leave at different trips, so the branch is
 * divergent whatever the operands, Jmp.lock = kind: 1 shared-memory lock, 2 compare and
 * swap); selection goes on in a new block after it with the rest of bi */
static Blk *atom_loop(Fn *f, int bi, const PIns *in, int p, int kind)
{
	Blk *b, *C, *L;
	int li;

	C = be_split(f, bi);
	li = be_newblk(f);
	b = &f->blk[bi];
	C = &f->blk[f->nblk - 2];
	L = &f->blk[li];
	be_lay_move(f, C->id, bi, 1);
	be_lay_move(f, li, bi, 1);
	L->pfirst = f->cur_ptx;
	L->plast = f->cur_ptx + 1;
	if (in->guard >= 0) {
		b->jmp.kind = J_BRA;
		b->jmp.cond = f->regtmp[in->guard];
		b->jmp.neg = in->gneg;
		b->s1 = li;
		b->s2 = C->id;
	} else {
		b->s1 = li;
	}
	L->jmp.kind = J_BRA;
	L->jmp.cond = p;
	L->jmp.neg = 1;
	L->jmp.lock = (uint8_t)kind;
	L->s1 = li;
	L->s2 = C->id;
	f->cur_blk = C->id;
	f->guard_done = 1;
	return L;
}

/* .f16, .bf16 and their pairs: atom and red on them are add.noftz (PTX ISA, "atom", "red") */
static int is_half_atom(int pt)
{
	return pt == PT_F16 || pt == PT_BF16 || pt == PT_F16X2 || pt == PT_BF16X2;
}

/* the aligned word that holds the 16-bit float at a (*w: a with bit 1 cleared, as ptxas
 * clears it: an odd address stays odd and faults as a misaligned word) and the value's place
 * in it for BFE/BFI (*pl: 0x1000 | 16 * bit 1, an immediate when a is); a pair's word is a */
static void half_word(Fn *f, Blk *b, int pt, const Addr *a, MOpd *w, MOpd *pl)
{
	MOpd m = a->mem, base = m, lo, hi = {0};
	int t, s = be_newtmp(f, TC_R), q = be_newtmp(f, TC_R);
	MIns *x;

	*w = m;
	*pl = be_imm(0);
	if (pt == PT_F16X2 || pt == PT_BF16X2)
		return;
	if (m.t == T_RZ) {
		w->imm = m.imm & ~(int64_t)2;
		*pl = be_imm(0x1000 | (m.imm & 2) << 3);
		return;
	}
	base.kind = OPD_REG;
	base.imm = 0;
	if (a->wide) {
		/* the 64-bit address: a pair whose low word loses bit 1 */
		t = be_newtmp(f, TC_R2);
		if (m.imm)
			be_add64(f, b, t, base, be_imm(m.imm), 0);
		lo = m.imm ? be_rpart(t, 0) : be_part(base, 0);
		hi = m.imm ? be_rpart(t, 1) : be_part(base, 1);
	} else {
		t = be_newtmp(f, TC_R);
		if (m.imm)
			be_op3(f, b, OP_IADD, be_r(t), base, be_imm(m.imm));
		lo = m.imm ? be_r(t) : base;
	}
	be_lop(f, b, SUB_AND, s, lo, be_imm(2));
	x = be_op3(f, b, OP_ISCADD, be_r(q), be_r(s), be_imm(0x1000));
	x->nopd = 4;
	x->o[3] = be_imm(3);
	t = be_newtmp(f, a->wide ? TC_R2 : TC_R);
	be_op3(f, b, OP_LOP, a->wide ? be_rpart(t, 0) : be_r(t), lo, be_imm(0xfffffffd))->m.sub = SUB_AND;
	if (a->wide)
		be_op2(f, b, OP_MOV, be_rpart(t, 1), hi);
	*w = be_mem(t, 0);
	*pl = be_r(q);
}

/* what an atom or red on a half type needs before its loop: bf[] the exact f32 of each half of
 * the addend, *w and *pl where the value is (half_word) */
static void half_prep(Fn *f, Blk *b, const PIns *in, int red, const Addr *a, MOpd *bf, MOpd *w,
                      MOpd *pl)
{
	int pt = in->m.types[0], et = pt == PT_BF16 || pt == PT_BF16X2 ? PT_BF16 : PT_F16;
	MOpd v = be_src(f, b, &in->o[red ? 1 : 2], pt);

	for (int k = 0; k < (pt == PT_F16X2 || pt == PT_BF16X2 ? 2 : 1); k++)
		bf[k] = be_half_f32(f, b, v, et, k, 0);
	half_word(f, b, pt, a, w, pl);
}

/* the word old with its 16-bit float at pl (or each half of a pair) plus the addend whose
 * exact f32 are bf[]: add.rn of the type, as the f32 sum (exact inputs, one rounding) rounded
 * to nearest even once more, which is the sum rounded once (24 >= 2p + 2 bits for f16's
 * p = 11 and bf16's 8: Figueroa's double-rounding bound); subnormals kept (no FTZ), a NaN the
 * canonical 0x7fff. Returns the new word. */
static int half_add(Fn *f, Blk *b, int pt, int old, MOpd pl, const MOpd *bf)
{
	int et = pt == PT_BF16 || pt == PT_BF16X2 ? PT_BF16 : PT_F16;
	int n = pt == PT_F16X2 || pt == PT_BF16X2 ? 2 : 1, h[2], nw = be_newtmp(f, TC_R);
	MIns *x;

	for (int k = 0; k < n; k++) {
		int s = be_newtmp(f, TC_R);
		MOpd v;
		if (n == 2 || pl.kind == OPD_IMM) {
			v = be_half_f32(f, b, be_r(old), et, n == 2 ? k : (int)(pl.imm & 0xff) / 16, 0);
		} else {
			int e = be_newtmp(f, TC_R);
			be_op3(f, b, OP_BFE, be_r(e), be_r(old), pl)->m.dtype = TY_U32;
			v = be_half_f32(f, b, be_r(e), et, 0, 0);
		}
		be_op3(f, b, OP_FADD, be_r(s), v, bf[k]);
		h[k] = be_newtmp(f, TC_R);
		if (et == PT_BF16) {
			be_round_bf16(f, b, h[k], be_r(s), 0);
		} else {
			x = be_op2(f, b, OP_F2F, be_r(h[k]), be_r(s));
			x->m.dtype = TY_F16;
			x->m.stype = TY_F32;
			x->m.rnd = RND_RN;
		}
	}
	if (n == 2) {
		x = be_op3(f, b, OP_ISCADD, be_r(nw), be_r(h[1]), be_r(h[0]));
		x->o[3] = be_imm(16);
	} else {
		x = be_op3(f, b, OP_BFI, be_r(nw), be_r(h[0]), pl);
		x->o[3] = be_r(old);
	}
	x->nopd = 4;
	return nw;
}

/* d = the value an atom on a half type returns from the word old: its 16-bit float at pl
 * zero-extended, or the whole word of a pair; a 64-bit d gets zeros above */
static void half_ret(Fn *f, Blk *b, int pt, int d, int old, MOpd pl)
{
	int wide = f->tmp[d].cls == TC_R2;
	MOpd r = wide ? be_rpart(d, 0) : be_r(d);

	if (pt == PT_F16X2 || pt == PT_BF16X2)
		be_op2(f, b, OP_MOV, r, be_r(old));
	else
		be_op3(f, b, OP_BFE, r, be_r(old), pl)->m.dtype = TY_U32;
	if (wide)
		be_op2(f, b, OP_MOV, be_rpart(d, 1), be_r(T_RZ));
}

/* atom/red .add.noftz on .f16, .bf16 (a half of the aligned word at a) and .f16x2, .bf16x2
 * (the whole word), which no modelled GPU has: a compare-and-swap loop on the word, as ptxas
 * compiles them for sm_70 and later (docs/backend.md "Atomics"): LD the word; loop: the new
 * word from the old one (half_add), ATOM.CAS; a lane whose CAS found the word it read is done
 * (returning the half of that word), the others go round with the word CAS found. In shared
 * memory the lock loop does it instead (sel_atom_shared). */
static int sel_atom_half(Fn *f, Blk *b, const PIns *in, int red, const Addr *a)
{
	int pt = in->m.types[0], bi = b->id, k0;
	int p = be_newtmp(f, TC_P), old = be_newtmp(f, TC_R), r = be_newtmp(f, TC_R), nw;
	MOpd w, pl, bf[2];
	Blk *L;
	MIns *x;

	half_prep(f, b, in, red, a, bf, &w, &pl);
	k0 = b->nins;
	x = be_emit(f, b, OP_LD);
	x->nopd = 2;
	x->o[0] = be_r(old);
	x->o[1] = w;
	if (a->wide)
		x->m.flags |= MF_E;
	be_guard_from(f, b, k0, in);
	L = atom_loop(f, bi, in, p, 2);
	nw = half_add(f, L, pt, old, pl, bf);
	x = be_emit(f, L, OP_ATOM);
	x->m.sub = SUB_CAS;
	if (a->wide)
		x->m.flags |= MF_E;
	x->nopd = 4;
	x->o[0] = be_r(r);
	x->o[1] = w;
	x->o[2] = be_r(old);
	x->o[3] = be_r(nw);
	be_setp_ins(f, L, OP_ISETP, CMP_EQ, TY_U32, p, T_PT, be_r(r), be_r(old), be_p(T_PT), BOP_AND);
	if (!red) {
		int k = L->nins;
		half_ret(f, L, pt, be_dst(f, &in->o[0]), r, pl);
		for (; k < L->nins; k++)
			L->ins[k].guard = p;
	}
	be_mov(f, L, old, be_r(r), TC_R);
	return 0;
}

/* the lock loop for atom/red on shared memory */
static int sel_atom_shared(Fn *f, Blk *b, const PIns *in, int red, Addr *a)
{
	int pt = in->m.types[0], bi = b->id;
	Sub s = aop(in->m.aop);
	int d = red ? -1 : be_dst(f, &in->o[0]), w = tbytes(pt) == 8, cls = w ? TC_R2 : TC_R;
	int half = is_half_atom(pt);
	MOpd v = {0}, c = {0}, wd = a->mem, pl = {0}, bf[2];
	int p = be_newtmp(f, TC_P), old = be_newtmp(f, cls), nv = be_newtmp(f, cls);
	Blk *L;
	MIns *x;

	/* 64 bits: LDSLK.64/STSUL.64 on a pair, the lock on its first word (every 64-bit atomic
	 * of the address takes the same one); PTX has no 64-bit inc or dec. A half type: the
	 * lock on the word that holds it (half_word) */
	if (w && (s == SUB_INC || s == SUB_DEC))
		return be_unsup(f, in, "64-bit shared-memory atomic inc/dec"), -1;
	if (half)
		half_prep(f, b, in, red, a, bf, &wd, &pl);
	else
		v = be_inreg(f, b, be_src(f, b, &in->o[red ? 1 : 2], pt), cls);
	if (s == SUB_CAS)
		c = be_inreg(f, b, be_src(f, b, &in->o[3], pt), cls);
	L = atom_loop(f, bi, in, p, 1);
	x = be_emit(f, L, OP_LDSLK);
	x->nopd = 3;
	x->o[0] = be_p(p);
	x->o[1] = be_r(old);
	x->o[2] = wd;
	if (w)
		x->m.dtype = TY_B64;
	int g0 = L->nins;
	switch ((int)s) {
	case SUB_ADD:
		if (half)
			nv = half_add(f, L, pt, old, pl, bf);
		else if (w && !tfloat(pt))
			be_add64(f, L, nv, be_r(old), v, 0);
		else
			be_op3(f, L, tfloat(pt) ? (w ? OP_DADD : OP_FADD) : OP_IADD, be_r(nv), be_r(old), v);
		break;
	case SUB_MIN: case SUB_MAX:
		if (tfloat(pt))
			return be_unsup(f, in, "float min/max atomic"), -1;
		x = be_op3(f, L, OP_IMNMX, be_r(nv), be_r(old), v);
		x->nopd = 4;
		x->o[3] = be_pn(T_PT, s == SUB_MAX);
		x->m.dtype = w ? (tsigned(pt) ? TY_S64 : TY_U64) : tsigned(pt) ? TY_S32 : TY_U32;
		break;
	case SUB_AND: case SUB_OR: case SUB_XOR:
		for (int k = 0; k < 1 + w; k++) {
			x = be_op3(f, L, OP_LOP, w ? be_rpart(nv, k) : be_r(nv), w ? be_rpart(old, k) :
			           be_r(old), w ? be_part(v, k) : v);
			x->m.sub = (uint8_t)s;
		}
		break;
	case SUB_EXCH:
		be_mov(f, L, nv, v, cls);
		break;
	case SUB_CAS: case SUB_INC: case SUB_DEC: {
		int q = be_newtmp(f, TC_P), one = be_newtmp(f, TC_R);
		x = be_emit(f, L, OP_ISETP);
		x->m.bop = BOP_AND;
		x->m.dtype = TY_U32;
		x->nopd = 5;
		x->o[0] = be_p(q);
		x->o[1] = be_p(T_PT);
		x->o[2] = be_r(old);
		x->o[3] = v;
		x->o[4] = be_p(T_PT);
		if (s == SUB_CAS && w) {
			/* 64 bits: both words equal (q = lo == b.lo, then q = hi == b.hi && q), and a
			 * SEL per word */
			x->m.cmp = CMP_EQ;
			x->o[2] = be_rpart(old, 0);
			x->o[3] = be_part(v, 0);
			be_setp_ins(f, L, OP_ISETP, CMP_EQ, TY_U32, q, T_PT, be_rpart(old, 1), be_part(v, 1),
			            be_p(q), BOP_AND);
			x = be_op3(f, L, OP_SEL, be_rpart(nv, 0), be_part(c, 0), be_rpart(old, 0));
			x->nopd = 4;
			x->o[3] = be_p(q);
			x = be_op3(f, L, OP_SEL, be_rpart(nv, 1), be_part(c, 1), be_rpart(old, 1));
		} else if (s == SUB_CAS) {
			x->m.cmp = CMP_EQ;
			x = be_op3(f, L, OP_SEL, be_r(nv), c, be_r(old));
		} else if (s == SUB_INC) {
			x->m.cmp = CMP_GE;   /* old >= b ? 0 : old + 1 */
			be_op3(f, L, OP_IADD, be_r(one), be_r(old), be_imm(1));
			x = be_op3(f, L, OP_SEL, be_r(nv), be_r(T_RZ), be_r(one));
		} else {
			x->m.cmp = CMP_GT;   /* old == 0 || old > b ? b : old - 1 */
			x->m.bop = BOP_OR;
			x->o[4] = be_p(q);
			MIns *z = be_emit(f, L, OP_ISETP);
			*z = *x;
			/* q = old == 0 first, then q = (old > b) || q */
			x = &L->ins[L->nins - 2];
			x->m.cmp = CMP_EQ;
			x->m.bop = BOP_AND;
			x->o[3] = be_r(T_RZ);
			x->o[4] = be_p(T_PT);
			be_op3(f, L, OP_IADD, be_r(one), be_r(old), be_imm(0xffffffff));
			x = be_op3(f, L, OP_SEL, be_r(nv), v, be_r(one));
		}
		x->nopd = 4;
		x->o[3] = be_p(q);
		break;
	}
	default:
		return be_unsup(f, in, "atomic operation"), -1;
	}
	x = be_emit(f, L, OP_STSUL);
	x->nopd = 2;
	x->o[0] = wd;
	x->o[1] = be_r(nv);
	if (w)
		x->m.dtype = TY_B64;
	if (d >= 0 && half)
		half_ret(f, L, pt, d, old, pl);
	else if (d >= 0)
		be_mov(f, L, d, be_r(old), cls);
	for (int k = g0; k < L->nins; k++)
		L->ins[k].guard = p;
	return 0;
}

int be_sel_atom(Fn *f, Blk *b, const PIns *in, int red)
{
	int pt = in->m.types[0];
	Addr a;
	MIns *x;
	Sub s = aop(in->m.aop);

	if (be_addr_of(f, b, in, &in->o[red ? 0 : 1], &a) < 0)
		return -1;
	if (is_half_atom(pt) && (s != SUB_ADD || !(in->m.flags & PMF_NOFTZ)))
		return be_unsup(f, in, "an atomic on a 16-bit float other than add.noftz"), -1;
	if (tbytes(pt) < 4 && !is_half_atom(pt))
		return be_unsup(f, in, "a 16-bit atomic other than add.noftz on a 16-bit float"), -1;
	if (a.space == PS_SHARED)
		return sel_atom_shared(f, b, in, red, &a);
	if (a.space != PS_GLOBAL && a.space != PS_NONE)
		return be_unsup(f, in, "atomic in this state space"), -1;
	if (is_half_atom(pt))
		return sel_atom_half(f, b, in, red, &a);
	if (s == SUB_NONE)
		return be_unsup(f, in, "atomic operation"), -1;
	int cls = tbytes(pt) == 8 ? TC_R2 : TC_R;
	MOpd v = be_inreg(f, b, be_src(f, b, &in->o[red ? 1 : 2], pt), cls);
	MOpd c = s == SUB_CAS ? be_inreg(f, b, be_src(f, b, &in->o[3], pt), cls) : (MOpd){0};
	x = be_emit(f, b, red ? OP_RED : OP_ATOM);
	x->m.sub = (uint8_t)s;
	x->m.dtype = (uint8_t)aty(pt);
	if (x->m.dtype == TY_U32)
		x->m.dtype = TY_NONE;
	if (a.wide)
		x->m.flags |= MF_E;
	if (tfloat(pt) && (in->m.flags & PMF_FTZ))
		x->m.flags |= MF_FTZ;
	if (red) {
		x->nopd = 2;
		x->o[0] = a.mem;
		x->o[1] = v;
		return 0;
	}
	x->nopd = s == SUB_CAS ? 4 : 3;
	x->o[0] = be_r(be_dst(f, &in->o[0]));
	x->o[1] = a.mem;
	x->o[2] = v;
	if (s == SUB_CAS)
		x->o[3] = c;
	return 0;
}
