/* emit.c - layout, addresses, sync points, prologues and epilogues, the isa Kernel.
 *
 * Needs sync and regalloc done for every function of the kernel; produces the Kernel's code:
 * the kernel's blocks in layout order, then each .func it calls behind an LBL_FUNC label.
 * Per block: its body, its SSY pushes, then its terminator lowered (Kepler shapes):
 *   jump that arrives          .S on the block's last instruction (or NOP.S)
 *   (under --loop-sync pbk a target that sync.c marked brk is pushed by PBK instead of SSY
 *   and every arrival at it, below, is a BRK with the arrival's guard instead of .S)
 *   branch, taken edge arrives @P NOP.S, then the other edge (both arrive, a break past
 *                              the SSY of the other's join: @P BRK; NOP.S)
 *   loop back edge, exit edge arrives   @!P NOP.S; BRA header (uniform: @P BRA.U header; NOP.S;
 *                              a break: @P BRA header; BRK)
 *   branch, other edge arrives @!P NOP.S, then the taken edge
 *   plain branch               @P BRA t (inverted when t falls through), BRA.U if uniform
 *   exit / ret                 EXIT (kernel), register restore + RET (.func); a guarded
 *                              return (ifconv's if-then-ret): the restores under the guard
 *                              and a RET (guarded_ret)
 *   brx.idx, bra %r            jump table in bank 3 (LDC selected in isel), BRX Rt {..}
 * Frame of a .func at R1: incoming params/rets, .local variables, spills, saved registers;
 * the next frame starts at R1 + frame.
 */
#include <string.h>
#include <stdlib.h>
#include "backend/be.h"

enum { FX_OPD, FX_TL, FX_CDATA };  /* what a fix-up writes */

typedef struct {
	int kind;             /* FX_* */
	int idx;              /* instruction, Kernel.tl entry, or Kernel.cdata index */
	int slot;             /* operand (FX_OPD) or table element (FX_CDATA) */
	const Fn *f;          /* function whose block is meant (NULL: a function address) */
	int target;           /* block id, or Module.funcs index */
	uint32_t *baddr;      /* block addresses of f */
} Fix;

typedef struct {
	Kernel *k;
	uint32_t *faddr;      /* function start address by Module.funcs index */
	Fix *fix;             /* targets to patch once every address is known */
	int nfix, capfix;
	Pool *pool;
	uint32_t tblbase;     /* next free byte in bank 3 for jump tables */
	const Module *mod;    /* the module (kernel names) */
	uint32_t falign;      /* every frame's size is a multiple of it (8, or 16: frame16) */
} Em;

static void addfix(Em *e, int kind, int idx, int slot, const Fn *f, int target, uint32_t *baddr)
{
	Fix *x = VPUSH(e->pool, e->fix, e->nfix, e->capfix);
	x->kind = kind;
	x->idx = idx;
	x->slot = slot;
	x->f = f;
	x->target = target;
	x->baddr = baddr;
}

static int phys(const Fn *f, const MOpd *o)
{
	int p = f->tmp[o->t].phys;

	if (p < 0)
		die("temporary without a register");
	if (o->part && p != ISA_RZ)
		p += o->part - 1;
	return p;
}

/* MOV R, R (or the same pair; or a word of a pair or quad onto itself), guarded or not:
 * nothing to do */
static int self_move(const Fn *f, const MIns *m)
{
	const MOpd *d = &m->o[0], *s = &m->o[1];

	if (!(m->op == OP_MOV && !m->sync && m->nopd == 2 &&
	      d->kind == OPD_REG && s->kind == OPD_REG && !s->flags && d->t >= T_FIRST && s->t >= T_FIRST))
		return 0;
	if (d->part == s->part && f->tmp[d->t].cls == f->tmp[s->t].cls)
		return f->tmp[d->t].phys == f->tmp[s->t].phys;
	/* one 32-bit word each: a part, or a whole 32-bit temporary */
	if ((!d->part && f->tmp[d->t].cls != TC_R) || (!s->part && f->tmp[s->t].cls != TC_R))
		return 0;
	return f->tmp[d->t].phys + (d->part ? d->part - 1 : 0) ==
	       f->tmp[s->t].phys + (s->part ? s->part - 1 : 0);
}

/* one MIns as an Ins of the kernel */
static Ins *put(Em *e, const Fn *f, const MIns *m, uint32_t *baddr)
{
	Ins in;

	isa_ins_init(&in, (Op)m->op);
	in.guard = (uint8_t)(m->guard == T_PT ? ISA_PT : f->tmp[m->guard].phys);
	in.gneg = m->gneg;
	in.sync = m->sync;
	in.m = m->m;
	in.nopd = m->nopd;
	in.ptxline = m->ptxline;
	in.srcline = m->srcline;
	in.srcfile = m->srcfile;
	for (int i = 0; i < m->nopd; i++) {
		const MOpd *o = &m->o[i];
		Opd *d = &in.o[i];
		d->kind = o->kind;
		d->flags = o->flags;
		d->imm = o->imm;
		switch ((OpdKind)o->kind) {
		case OPD_REG: case OPD_PRED:
			d->reg = (uint8_t)phys(f, o);
			break;
		case OPD_MEM:
			d->reg = (uint8_t)phys(f, o);
			if (o->bank == 1)
				d->imm += f->frame;
			break;
		case OPD_CONST:
			d->reg = (uint8_t)phys(f, o);
			d->bank = o->bank;
			if (o->n == 1)
				d->imm += e->tblbase;  /* this block's jump table (patched by the caller) */
			break;
		case OPD_IMM:
			if (o->bank == 1)
				d->imm += f->frame;
			else if (o->bank == 2)
				d->imm -= f->frame;
			if (m->op == OP_MOV32I || m->op == OP_IADD)
				d->imm = (int64_t)(uint32_t)d->imm;
			break;
		case OPD_TARGET:
			d->imm = 0;
			break;
		case OPD_TLIST:
			d->n = o->n;
			break;
		case OPD_SREG: case OPD_CC: case OPD_NONE:
			break;
		}
	}
	if (in.op == OP_MOV32I && in.o[1].kind == OPD_TARGET && m->o[1].imm < 0 &&
	    e->mod->funcs[-1 - m->o[1].imm].entry) {
		/* a kernel's address (a launch's, dynamic parallelism): its Kernel.kref slot's */
		in.o[1].kind = OPD_IMM;
		in.o[1].imm = ISA_KREF_BASE + 16u * (uint32_t)isa_kernel_add_kref(e->k,
		              e->mod->funcs[-1 - m->o[1].imm].name);
		return isa_kernel_add(e->k, &in);
	}
	if (in.op == OP_MOV32I && in.o[1].kind == OPD_TARGET) {
		in.o[1].kind = OPD_IMM;
		Ins *r = isa_kernel_add(e->k, &in);
		addfix(e, FX_OPD, e->k->nins - 1, 1, NULL, (int)(-1 - m->o[1].imm), NULL);
		return r;
	}
	Ins *r = isa_kernel_add(e->k, &in);
	for (int i = 0; i < m->nopd; i++) {
		const MOpd *o = &m->o[i];
		if (o->kind == OPD_TARGET)
			addfix(e, FX_OPD, e->k->nins - 1, i, o->imm < 0 ? NULL : f,
			       o->imm < 0 ? (int)(-1 - o->imm) : (int)o->imm, baddr);
		if (o->kind == OPD_TLIST) {
			/* targets resolved after layout: remember them, fill the pool later */
			uint32_t *tmp = malloc(sizeof(uint32_t) * o->n);
			if (!tmp)
				die("out of memory");
			memset(tmp, 0, sizeof(uint32_t) * o->n);
			r->o[i].imm = isa_kernel_add_tlist(e->k, tmp, o->n);
			for (int j = 0; j < o->n; j++) {
				int t = f->tl[o->imm + j];
				addfix(e, FX_TL, (int)(r->o[i].imm + j), 0, t < 0 ? NULL : f, t < 0 ? -1 - t : t, baddr);
			}
			free(tmp);
			r = &e->k->ins[e->k->nins - 1];
		}
	}
	return r;
}

static Ins *emit_op(Em *e, Op op, int guard, int gneg)
{
	Ins in;
	isa_ins_init(&in, op);
	in.guard = (uint8_t)guard;
	in.gneg = (uint8_t)gneg;
	return isa_kernel_add(e->k, &in);
}

static int can_sync(const Ins *in)
{
	return in->guard == ISA_PT && !in->gneg && !in->sync &&
	       !(isa_ops[in->op].flags & (F_BRANCH | F_PUSH | F_BARRIER));
}

/* the lanes of the edge arrive at their sync target: .S, or BRK when the target is a PBK's */
static void arrive(Em *e, int brk, int first, int guard, int gneg)
{
	Kernel *k = e->k;

	if (brk) {
		emit_op(e, OP_BRK, guard, gneg);
		return;
	}
	if (guard == ISA_PT && k->nins > first && can_sync(&k->ins[k->nins - 1])) {
		k->ins[k->nins - 1].sync = 1;
		return;
	}
	Ins *n = emit_op(e, OP_NOP, guard, gneg);
	n->sync = 1;
}

/* a guarded arrival stands for the branch of PTX line `line` (warpc --explain, tests) */
static void arrive_br(Em *e, int brk, int first, int guard, int gneg, int line)
{
	arrive(e, brk, first, guard, gneg);
	if (guard != ISA_PT)
		e->k->ins[e->k->nins - 1].ptxline = line;
}

static void bra(Em *e, const Fn *f, int target, int guard, int gneg, int uni, uint32_t *baddr,
                int line)
{
	Ins *n = emit_op(e, OP_BRA, guard, gneg);
	n->nopd = 2;
	n->o[1].kind = OPD_TARGET;
	n->ptxline = line;
	if (uni)
		n->m.flags |= MF_U;
	addfix(e, FX_OPD, e->k->nins - 1, 1, f, target, baddr);
}

static Ins *opd_reg(Ins *n, int i, int r)
{
	n->o[i].kind = OPD_REG;
	n->o[i].reg = (uint8_t)r;
	return n;
}

/* LDL r, [R1 + off] under (g, gn) */
static void ldl(Em *e, int g, int gn, int r, uint32_t off)
{
	Ins *n = emit_op(e, OP_LDL, g, gn);

	n->nopd = 2;
	opd_reg(n, 0, r);
	n->o[1].kind = OPD_MEM; n->o[1].reg = 1; n->o[1].imm = off;
}

/* ISETP.cmp.U32.AND p, PT, a, RZ, PT under (g, gn), with flags (MF_X: a's high word after a
 * carry, docs/isa.md section 6) */
static void isetp_rz(Em *e, int g, int gn, int cmp, int flags, int p, int a)
{
	Ins *n = emit_op(e, OP_ISETP, g, gn);

	n->m.cmp = (uint8_t)cmp;
	n->m.dtype = TY_U32;
	n->m.bop = BOP_AND;
	n->m.flags = (uint16_t)flags;
	n->nopd = 5;
	n->o[0].kind = OPD_PRED; n->o[0].reg = (uint8_t)p;
	n->o[1].kind = OPD_PRED; n->o[1].reg = ISA_PT;
	opd_reg(n, 2, a);
	opd_reg(n, 3, ISA_RZ);
	n->o[4].kind = OPD_PRED; n->o[4].reg = ISA_PT;
}

static void save_restore(Em *e, const Fn *f, int restore, uint32_t saveoff)
{
	uint32_t off = saveoff;
	int scratch = -1;

	for (int r = 0; r < f->maxreg; r++) {
		if (!BHAS(f->savedmask, r) || r == 1)
			continue;
		if (scratch < 0)
			scratch = r;
		if (!restore) {
			Ins *n = emit_op(e, OP_STL, ISA_PT, 0);
			n->nopd = 2;
			n->o[0].kind = OPD_MEM; n->o[0].reg = 1; n->o[0].imm = off;
			n->o[1].kind = OPD_REG; n->o[1].reg = (uint8_t)r;
		}
		off += 4;
	}
	/* predicates through the scratch register (saved above) */
	uint32_t poff = off;
	for (int p = 0; p < ISA_NPREDS; p++) {
		if (!(f->predmask & (1u << p)))
			continue;
		Ins *n;
		if (!restore) {
			n = emit_op(e, OP_SEL, ISA_PT, 0);
			n->nopd = 4;
			n->o[0].kind = OPD_REG; n->o[0].reg = (uint8_t)scratch;
			n->o[1].kind = OPD_REG; n->o[1].reg = ISA_RZ;
			n->o[2].kind = OPD_IMM; n->o[2].imm = 1;
			n->o[3].kind = OPD_PRED; n->o[3].reg = (uint8_t)p; n->o[3].flags = OPF_NOT;
			n = emit_op(e, OP_STL, ISA_PT, 0);
			n->nopd = 2;
			n->o[0].kind = OPD_MEM; n->o[0].reg = 1; n->o[0].imm = poff;
			n->o[1].kind = OPD_REG; n->o[1].reg = (uint8_t)scratch;
		} else {
			ldl(e, ISA_PT, 0, scratch, poff);
			isetp_rz(e, ISA_PT, 0, CMP_NE, 0, p, scratch);
		}
		poff += 4;
	}
	if (restore) {
		off = saveoff;
		for (int r = 0; r < f->maxreg; r++) {
			if (!BHAS(f->savedmask, r) || r == 1)
				continue;
			ldl(e, ISA_PT, 0, r, off);
			off += 4;
		}
	}
}

/* 1 when f accesses 16 bytes of its frame at once (a quad's spill, a .v4 parameter or
 * local) or holds a frame object aligned to 16: the frames below it must keep 16-byte
 * alignment, or its .128 accesses fault as misaligned */
static int frame16(const Fn *f)
{
	const PFunc *pf = f->pf;

	for (int i = 0; i < pf->nlocals; i++)
		if ((pf->locals[i].space == PS_LOCAL || pf->locals[i].space == PS_PARAM) &&
		    pf->locals[i].align >= 16)
			return 1;
	for (int bi = 0; bi < f->nblk; bi++)
		for (int k = 0; !f->blk[bi].dead && k < f->blk[bi].nins; k++) {
			const MIns *in = &f->blk[bi].ins[k];
			if ((in->op == OP_LDL || in->op == OP_STL) && in->m.dtype == TY_B128)
				return 1;
		}
	return 0;
}

/* the frame: params/rets, locals, spills, then the save area, its size a multiple of
 * falign */
static uint32_t save_area(Fn *f, uint32_t falign)
{
	uint32_t n = 0, base = (f->paramsz + f->localsz + f->spillsz + 3) & ~3u;

	if (!f->pf->entry) {
		if (f->predmask && !f->maxreg)
			die("predicates without a scratch");
		if (f->predmask) {
			int any = 0;
			for (int r = 0; r < f->maxreg; r++)
				any |= BHAS(f->savedmask, r) && r != 1;
			if (!any) {
				BSET(f->savedmask, 0);
				if (f->maxreg < 1)
					f->maxreg = 1;
			}
		}
		for (int r = 0; r < f->maxreg; r++)
			n += BHAS(f->savedmask, r) && r != 1;
		n += (uint32_t)__builtin_popcount(f->predmask);
	}
	f->frame = (base + 4 * n + falign - 1) & ~(falign - 1);
	return base;
}

/* IADD.CC RZ, a, imm under (g, gn): sets CC from a + imm */
static void iadd_cc(Em *e, int g, int gn, int a, uint32_t imm)
{
	Ins *n = emit_op(e, OP_IADD, g, gn);

	n->m.flags = MF_CC;
	n->nopd = 3;
	opd_reg(n, 0, ISA_RZ);
	opd_reg(n, 1, a);
	n->o[2].kind = OPD_IMM;
	n->o[2].imm = imm;
}

/* a guarded return (ifconv.c's if-then-ret, --early-return guarded): the lanes of the guard
 * (g, gn) restore what the function saved (save_restore's restore, each instruction under
 * the guard) and leave by RET; the others go on. When g is itself a saved predicate, its
 * restore would end the guard before the registers after it and the RET, so it comes last
 * and the returning lanes are marked in CC first: the others IADD.CC RZ, RZ, 0x1 (Z = N = 0;
 * under the opposite guard, so that the whole sequence is one predicated run as ptxas's
 * side is), the returning ones IADD.CC RZ, s, 0xffffffff with s the saved 0/1 of g (s = 1: Z = 1,
 * C = 1; s = 0: N = 1, C = 0); the scratch register is restored, ISETP.EQ.X g, RZ, RZ gives
 * each returning lane g = s (0 + ~0 + C is 0 exactly when s = 1, and then Z' = Z = 1), and
 * RET CC.LE (Z or N != V, V = 0) takes exactly the lanes marked (docs/isa.md sections 4, 6) */
static void guarded_ret(Em *e, const Fn *f, int g, int gn, uint32_t saveoff, int line)
{
	uint32_t off = saveoff, poff, goff = 0, soff = 0;
	int scratch = -1, inpred = g < ISA_NPREDS && (f->predmask & (1u << g));
	Ins *n;

	for (int r = 0; r < f->maxreg; r++) {
		if (!BHAS(f->savedmask, r) || r == 1)
			continue;
		if (scratch < 0)
			scratch = r, soff = off;
		off += 4;
	}
	poff = off;
	if (inpred)
		iadd_cc(e, g, !gn, ISA_RZ, 1);
	for (int p = 0; p < ISA_NPREDS; p++) {
		if (!(f->predmask & (1u << p)))
			continue;
		if (p == g) {
			goff = poff;
		} else {
			ldl(e, g, gn, scratch, poff);
			isetp_rz(e, g, gn, CMP_NE, 0, p, scratch);
		}
		poff += 4;
	}
	off = saveoff;
	for (int r = 0; r < f->maxreg; r++) {
		if (!BHAS(f->savedmask, r) || r == 1)
			continue;
		if (r != scratch)
			ldl(e, g, gn, r, off);
		off += 4;
	}
	if (inpred) {
		ldl(e, g, gn, scratch, goff);
		iadd_cc(e, g, gn, scratch, 0xffffffffu);
	}
	if (scratch >= 0)
		ldl(e, g, gn, scratch, soff);
	if (inpred) {
		isetp_rz(e, g, gn, CMP_EQ, MF_X, g, ISA_RZ);
		n = emit_op(e, OP_RET, ISA_PT, 0);
		n->nopd = 1;
		n->o[0].kind = OPD_CC;
		n->o[0].imm = CCT_LE;
	} else {
		n = emit_op(e, OP_RET, g, gn);
	}
	n->ptxline = line;
}

static void emit_fn(Em *e, Fn *f)
{
	Kernel *k = e->k;
	uint32_t *baddr = be_alloc(f->pool, sizeof(uint32_t) * (size_t)f->nblk);
	uint32_t saveoff = save_area(f, e->falign);
	int entry = f->pf->entry;
	int from = k->nins;

	if (!entry) {
		e->faddr[f->fidx] = 8u * (uint32_t)k->nins;
		isa_kernel_add_label(k, f->pf->name, 8u * (uint32_t)k->nins, LBL_FUNC);
		save_restore(e, f, 0, saveoff);
	}
	for (int li = 0; li < f->nlay; li++) {
		Blk *b = &f->blk[f->lay[li]];
		int next = -1, first;
		if (b->dead)
			continue;
		for (int lj = li + 1; lj < f->nlay; lj++)
			if (!f->blk[f->lay[lj]].dead) {
				next = f->lay[lj];
				break;
			}
		baddr[b->id] = 8u * (uint32_t)k->nins;
		first = k->nins;
		/* cfg.c's kept back edge: its EXIT (the block's last instruction) goes after the
		 * branch back, which takes the EXIT's guard negated (even to the next block) */
		const MIns *kx = be_kept_back(b) ? &b->ins[b->nins - 1] : NULL;
		for (int i = 0; i < b->nins - (kx != NULL); i++) {
			if (b->ins[i].op == OP_LDC && b->ins[i].o[1].n == 1) {
				/* the jump table of this block: addresses filled after layout */
				b->jmp.tbl = (int32_t)e->tblbase;
				Ins *n = put(e, f, &b->ins[i], baddr);
				(void)n;
				e->tblbase += 4u * (uint32_t)(be_brx_table(f, b, NULL) + 1);
				continue;
			}
			if (self_move(f, &b->ins[i]))
				continue;  /* coalesced by the register allocator */
			if (b->ins[i].op == OP_RET && !entry) {
				const MIns *r = &b->ins[i];
				guarded_ret(e, f, r->guard == T_PT ? ISA_PT : f->tmp[r->guard].phys,
				            r->gneg, saveoff, r->ptxline);
				continue;
			}
			put(e, f, &b->ins[i], baddr);
		}
		int t0 = k->nins;
		for (int q = 0; q < b->npush; q++) {
			Ins *n = emit_op(e, f->blk[b->push[q]].brk ? OP_PBK : OP_SSY, ISA_PT, 0);
			n->nopd = 1;
			n->o[0].kind = OPD_TARGET;
			addfix(e, FX_OPD, k->nins - 1, 0, f, b->push[q], baddr);
		}
		int line = b->jmp.ptxins >= 0 ? f->pf->ins[b->jmp.ptxins].loc.line : 0;
		int g = b->jmp.cond >= 0 && b->jmp.kind == J_BRA ? f->tmp[b->jmp.cond].phys : ISA_PT;
		int uni = b->jmp.uni && !b->jmp.div;
		switch ((JmpKind)b->jmp.kind) {
		case J_JMP:
			if (kx) {
				const PIns *pb = &f->pf->ins[b->jmp.ptxins];
				bra(e, f, b->s1, f->tmp[kx->guard].phys, !kx->gneg,
				    f->preduni && pb->guard >= 0 && !f->preduni[pb->guard], baddr, line);
				emit_op(e, OP_EXIT, ISA_PT, 0)->ptxline = line;
			} else if (b->arrive1)
				arrive(e, f->blk[b->s1].brk, first, ISA_PT, 0);
			else if (b->s1 != next)
				bra(e, f, b->s1, ISA_PT, 0, 0, baddr, line);
			break;
		case J_BRA:
			if (b->arrive1) {
				arrive_br(e, f->blk[b->s1].brk, first, g, b->jmp.neg, line);
				if (b->arrive2)   /* a break past the SSY of the join s2 */
					arrive(e, f->blk[b->s2].brk, k->nins, ISA_PT, 0);
				else if (b->s2 != next)
					bra(e, f, b->s2, ISA_PT, 0, 0, baddr, line);
			} else if (b->arrive2) {
				/* a divergent loop's back edge too: the leaving lanes arrive at once and
				 * the others jump back unconditionally, so no DIV token is pushed per
				 * iteration (a guarded back edge leaves one for the lanes that exit
				 * at each iteration: the stack would grow with the trip count); a
				 * uniform back edge cannot split: BRA.U, then the arrival; nor does
				 * ptxas split one whose leaving lanes break: @P BRA, then BRK */
				if (((uni && b->s2 == next) || f->blk[b->s2].brk) &&
				    f->blk[b->s1].rpo <= b->rpo) {
					bra(e, f, b->s1, g, b->jmp.neg, uni, baddr, line);
					arrive(e, f->blk[b->s2].brk, k->nins, ISA_PT, 0);
				} else {
					arrive_br(e, f->blk[b->s2].brk, first, g, !b->jmp.neg, line);
					if (b->s1 != next)
						bra(e, f, b->s1, ISA_PT, 0, 0, baddr, line);
				}
			} else if (b->s1 == next) {
				bra(e, f, b->s2, g, !b->jmp.neg, uni, baddr, line);
			} else {
				bra(e, f, b->s1, g, b->jmp.neg, uni, baddr, line);
				if (b->s2 != next)
					bra(e, f, b->s2, ISA_PT, 0, 0, baddr, line);
			}
			break;
		case J_EXIT:
			emit_op(e, OP_EXIT, ISA_PT, 0)->ptxline = line;
			break;
		case J_RET:
			if (entry) {
				emit_op(e, OP_EXIT, ISA_PT, 0)->ptxline = line;
			} else {
				save_restore(e, f, 1, saveoff);
				emit_op(e, OP_RET, ISA_PT, 0)->ptxline = line;
			}
			break;
		case J_BRX: {
			Ins *n = emit_op(e, OP_BRX, ISA_PT, 0);
			if (uni)
				n->m.flags |= MF_U;   /* all lanes go one way: the verifier skips it */
			uint32_t *tmp = calloc((size_t)b->jmp.ntl, sizeof(uint32_t));
			if (!tmp)
				die("out of memory");
			n->nopd = 2;
			n->ptxline = line;
			n->o[0].kind = OPD_REG;
			n->o[0].reg = (uint8_t)f->tmp[b->jmp.cond].phys;
			n->o[1].kind = OPD_TLIST;
			n->o[1].n = (uint16_t)b->jmp.ntl;
			n->o[1].imm = isa_kernel_add_tlist(k, tmp, b->jmp.ntl);
			for (int j = 0; j < b->jmp.ntl; j++)
				addfix(e, FX_TL, (int)(n->o[1].imm + j), 0, f, f->tl[b->jmp.tl + j], baddr);
			free(tmp);
			/* the table itself: 4-byte addresses in bank 3, one per index or label value
			 * and one past them; 0xffffffff where the value names no target */
			int nt = be_brx_table(f, b, NULL);
			int *slot = be_alloc(e->pool, sizeof(int) * (size_t)(nt + 1));
			uint8_t *bytes = memset(be_alloc(e->pool, 4 * (size_t)(nt + 1)), 0xff, 4 * (size_t)(nt + 1));
			be_brx_table(f, b, slot);
			isa_kernel_add_cdata(k, 3, (uint32_t)b->jmp.tbl, bytes, 4u * (uint32_t)(nt + 1));
			/* remember where to write the addresses */
			for (int j = 0; j < nt; j++)
				if (slot[j] >= 0)
					addfix(e, FX_CDATA, k->ncdata - 1, j, f, f->tl[b->jmp.tl + slot[j]], baddr);
			break;
		}
		case J_NONE:
			die("block without terminator");
		}
		/* the terminator's instructions, and the SSYs before it, carry its PTX instruction's
		 * lines, so that line statistics charge a divergence and its reconvergence point to
		 * the branch's own source line at every level */
		for (int i = t0; line && i < k->nins; i++)
			if ((k->ins[i].ptxline == line || !k->ins[i].ptxline) && !k->ins[i].srcline) {
				k->ins[i].ptxline = line;
				k->ins[i].srcline = f->pf->ins[b->jmp.ptxins].srcline;
				k->ins[i].srcfile = (int16_t)f->pf->ins[b->jmp.ptxins].srcfile;
			}
	}
	/* a function is in one PTX file (no function is inlined): its lines are that file's */
	for (int i = from; i < k->nins; i++)
		k->ins[i].ptxfile = (int16_t)f->pf->loc.file;
}

void be_emit_kernel(Kernel *k, Fn **fns, int nfns, const Module *m)
{
	Em e = {0};
	Fn *kf = NULL;

	e.k = k;
	e.mod = m;
	e.pool = be_pool_new();
	e.faddr = be_alloc(e.pool, sizeof(uint32_t) * (size_t)(m->nfuncs + 1));
	for (int i = 0; i < nfns; i++)
		if (fns[i] && fns[i]->pf->entry)
			kf = fns[i];
	if (!kf)
		die("no kernel function");
	/* a frame starts where its caller's ends (R1 + frame): 16-byte accesses anywhere in
	 * the call graph need every frame a multiple of 16 */
	e.falign = 8;
	for (int i = 0; i < nfns; i++)
		if (fns[i] && frame16(fns[i]))
			e.falign = 16;
	/* jump tables go after the module's .const data in bank 3 */
	e.tblbase = (kf->vl->cbank + 3) & ~3u;
	emit_fn(&e, kf);
	for (int i = 0; i < nfns; i++)
		if (fns[i] && !fns[i]->pf->entry)
			emit_fn(&e, fns[i]);
	for (int i = 0; i < e.nfix; i++) {
		Fix *x = &e.fix[i];
		uint32_t a = x->f ? x->baddr[x->target] : e.faddr[x->target];
		switch (x->kind) {
		case FX_OPD: k->ins[x->idx].o[x->slot].imm = a; break;
		case FX_TL: k->tl[x->idx] = a; break;
		case FX_CDATA: memcpy(k->cdata[x->idx].bytes + 4 * x->slot, &a, 4); break;
		}
	}
	be_pool_free(e.pool);
}
