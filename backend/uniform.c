/* uniform.c - uniformity (divergence) analysis of PTX register definitions and branches.
 *
 * Needs cfg, postdom, the PTX body. Marks Blk.jmp.div on branches that may split a warp
 * and Blk.jmp.uni on those that cannot; breaks nothing.
 *
 * Per definition (reach.c: a register an instruction writes; a register written at several
 * places has as many values): a definition is divergent when it reads a divergent value
 * (a definition of the register that may reach the read and is divergent; a carry-in reads
 * what the block's last .cc instruction read) or special register (%tid, %laneid,
 * %lanemask_*, %smid, %warpid: sreg_divergent), is guarded by a divergent predicate, is an op whose result differs
 * per lane (atom, shfl, match, a load from local memory that may differ: local_mem, a call's
 * results, a .func parameter), or is made
 * in the region of a divergent branch (the blocks reached from it before its immediate
 * post-dominator J, a kept back edge's guarded EXIT counted as a way out: be_postdom_kept)
 * and reaches J with its register live there (sync dependence: lanes that took different
 * paths meet at J with different definitions, read after J or round a loop back into the
 * region). Everything else — kernel parameters, %ctaid/%nctaid/%ntid, the clocks, constants,
 * loads through uniform addresses, votes — is uniform. A branch is uniform when written .uni or
 * no divergent definition of its predicate reaches it. Iterated to a fixed point
 * (divergence only grows). A register is divergent (Fn.preduni, for what asks of a
 * register, not of one read) when one of its definitions is.
 *
 * Under --loop-sync pbk, Jmp.pdiv is what ptxas 11.8 takes for divergent (its listings tell
 * a divergent continue from a uniform one by its SSY or PBK): also a condition that reads,
 * through its definitions, a register carried round a loop (written in it and live at its
 * header) that a divergent branch leaves, or continues to its latch or header. Inside the
 * loop such a value is the same for every lane that runs (a trip counter), so Jmp.div stays
 * uniform; ptxas does not see that (docs/fidelity.md, "What separates PBK from SSY").
 *
 * Under --func-params callers a .func's parameter is uniform where every call of the kernel
 * passes a uniform value (Fn.pardiv), and a call's results where the callee returns uniform
 * values (Fn.retuni); backend.c finds both by a fixed point over the kernel's functions,
 * asking be_arg_div, be_param_escapes and be_ret_uniform (the section "across calls").
 */
#include <string.h>
#include "backend/be.h"

typedef struct {
	Fn *f;
	const BeReach *r;
	uint8_t *div;        /* per definition (BeReach) */
	char (*why)[48];     /* first reason per divergent definition */
	uint8_t *inreg;      /* per block: in a divergent branch's region */
	int ldiv;            /* local memory may hold values that differ between lanes */
	int lgen;            /* it has generic addresses (a cvta.local) */
	char lwhy[48];       /* why it may */
	int changed;
} U;

/* special register s may differ between the lanes of a warp, as ptxas 11.8 takes it
 * (tests/ptx/sreg_uni): %tid, %laneid, %lanemask_*, and %smid and %warpid, which the hardware
 * gives every lane alike but ptxas does not trust to be; not the clocks, %globaltimer or the
 * performance counters, which one S2R reads for the whole warp, nor %nwarpid, %nsmid,
 * %gridid and the launch's sizes */
static int sreg_divergent(int s)
{
	switch (s) {
	case PSR_TID: case PSR_LANEID: case PSR_SMID: case PSR_WARPID:
	case PSR_LANEMASK_EQ: case PSR_LANEMASK_LE: case PSR_LANEMASK_LT: case PSR_LANEMASK_GE:
	case PSR_LANEMASK_GT:
		return 1;
	default:
		return 0;
	}
}

static void mark(U *u, int d, const char *why)
{
	if (u->div[d])
		return;
	u->div[d] = 1;
	snprintf(u->why[d], sizeof u->why[d], "%s", why);
	u->changed = 1;
}

/* read x may differ between lanes: a divergent special register, or a divergent definition
 * of its register reaching it (the first, else -2; -1 for the special register) */
static int read_div(const U *u, const BeRead *x)
{
	if (x->reg < 0)
		return sreg_divergent(x->sreg) ? -1 : -2;
	for (int k = 0; k < x->n; k++)
		if (u->div[u->r->defs[x->first + k]])
			return u->r->defs[x->first + k];
	return -2;
}

/* the name of what read x reads */
static const char *read_name(const Fn *f, const BeRead *x)
{
	return x->reg >= 0 ? f->pf->regs[x->reg].name : ptx_sreg_name((PSReg)x->sreg);
}

/* the function a direct call in makes, or -1 (an indirect call) */
static int callee(const PIns *in)
{
	return in->nopd > 1 && in->o[1].kind == POK_SYM && in->o[1].symkind == PSYM_FUNC ?
	       in->o[1].sym : -1;
}

/* the results of the calls that write .param local s of f (nvcc's `call (rv), g, ...` then
 * `ld.param [rv]`) may differ between lanes: some call returns into it whose callee's results
 * are not known uniform (Fn.retuni), or none does (a local read back otherwise) */
static int local_div(const Fn *f, int s)
{
	const PFunc *pf = f->pf;
	int n = 0;

	for (int i = 0; i < pf->nins; i++) {
		const PIns *in = &pf->ins[i];
		if (in->op != PO_CALL || in->o[0].kind != POK_LIST)
			continue;
		for (int e = 0; e < in->o[0].nelems; e++) {
			const POpd *r = &in->o[0].elems[e];
			if (r->kind != POK_SYM || r->symkind != PSYM_LOCAL || r->sym != s)
				continue;
			if (!f->retuni || callee(in) < 0 || !f->retuni[callee(in)])
				return 1;
			n++;
		}
	}
	return n == 0;
}

/* a reason when the op's result differs per lane whatever its sources */
static const char *op_divergent(const U *u, const PIns *in)
{
	const Fn *f = u->f;

	switch ((int)in->op) {
	case PO_ATOM: return "an atomic's result";
	case PO_SHFL: return "a shuffle";
	case PO_MATCH: return "match";
	case PO_ELECT: return "elect's leader predicate";
	case PO_CALL:
		return f->retuni && callee(in) >= 0 && f->retuni[callee(in)] ? NULL : "a call's result";
	case PO_LD: case PO_LDU:
		if (in->m.space == PS_LOCAL || (in->m.space == PS_NONE && u->lgen))
			return u->ldiv ? u->lwhy : NULL;
		if (in->m.space != PS_PARAM || in->nopd < 2 || in->o[1].kind != POK_ADDR)
			return NULL;
		if (in->o[1].reg < 0 && in->o[1].symkind == PSYM_LOCAL && local_div(f, in->o[1].sym))
			return "a call's result";
		if (!f->pf->entry && !(f->pardiv && in->o[1].reg < 0 &&
		    in->o[1].symkind == PSYM_PARAM && !f->pardiv[in->o[1].sym]))
			return "a .func parameter";
		return NULL;
	default:
		return NULL;
	}
}

/* the registers instruction in writes, into bits */
static void ins_writes(const PIns *in, uint32_t *bits)
{
	for (int k = 0, r; (r = be_ins_dst(in, k)) >= 0; k++)
		BSET(bits, r);
}

/* PTX instruction i's definitions: divergent when its op is, or a read of it (its guard
 * first) may differ between lanes */
static void transfer(U *u, int i)
{
	const BeReach *r = u->r;
	char why[48];
	const char *c;

	if (r->idef[i] == r->idef[i + 1])
		return;
	if ((c = op_divergent(u, &u->f->pf->ins[i])) != NULL)
		snprintf(why, sizeof why, "%s", c);
	for (int k = 0; !c && k < r->nread[i]; k++) {
		const BeRead *x = &r->rd[r->iread[i] + k];
		if (read_div(u, x) >= -1) {
			c = read_name(u->f, x);
			snprintf(why, sizeof why, "depends on %.32s", c);
		}
	}
	for (int d = r->idef[i]; c && d < r->idef[i + 1]; d++)
		mark(u, d, why);
}

/* local memory may hold values that differ between lanes (U.ldiv), for a local load (and,
 * with a cvta.local, a generic one): in a .func (its frame holds what came before), with a
 * call (a callee may write the frame), or where an instruction that may write it (st.local;
 * with a cvta.local, a generic st, and any other store, atom or red) stores a divergent
 * value, at a divergent address or under a divergent guard, or stands in a divergent
 * branch's region (lanes that took the other way did not store). Not per word: ptxas 11.8
 * makes one divergent store anywhere in the array divergent for every load of it
 * (tests/ptx/ld_uni) */
static void local_mem(U *u)
{
	const Fn *f = u->f;
	const PFunc *pf = f->pf;
	const BeReach *r = u->r;

	if (u->ldiv)
		return;
	for (int bi = 0; bi < f->nblk && !u->ldiv; bi++) {
		const Blk *b = &f->blk[bi];
		for (int i = b->pfirst; !b->dead && i < b->plast && i < pf->nins; i++) {
			const PIns *in = &pf->ins[i];
			const char *c = NULL;
			if (!pf->entry)
				c = "a .func's frame";
			else if (in->op == PO_CALL)
				c = "a call";
			else if (!(ptx_ops[in->op].flags & PF_STORE) ||
			         !(in->m.space == PS_LOCAL || (u->lgen && in->m.space == PS_NONE)))
				continue;
			else if (in->op != PO_ST)
				c = "an atomic";
			else if (u->inreg[bi])
				c = "a store lanes may skip";
			for (int k = 0; !c && k < r->nread[i]; k++)
				if (read_div(u, &r->rd[r->iread[i] + k]) >= -1)
					c = "a divergent store";
			if (!c)
				continue;
			snprintf(u->lwhy, sizeof u->lwhy, "local: %s, line %d", c, in->loc.line);
			u->ldiv = u->changed = 1;
			break;
		}
	}
}

/* blocks reached from b's successors without passing j */
static void region(Fn *f, int b, int j, uint8_t *in, int *stk)
{
	int sp = 0;

	memset(in, 0, (size_t)f->nblk);
	stk[sp++] = b;
	while (sp) {
		const Blk *B = &f->blk[stk[--sp]];
		for (int k = 0; k < be_nsucc(B); k++) {
			int s = be_succ(f, B, k);
			if (s >= 0 && s != j && !in[s])
				in[s] = 1, stk[sp++] = s;
		}
	}
}

/* the registers operand o reads (a register, an address's base, a vector's or list's
 * elements) that skip does not hold (NULL: none), into bits */
static void opd_reads(const POpd *o, const uint32_t *skip, uint32_t *bits)
{
	if ((o->kind == POK_REG || o->kind == POK_ADDR) && o->reg >= 0 && !(skip && BHAS(skip, o->reg)))
		BSET(bits, o->reg);
	if (o->kind == POK_VEC || o->kind == POK_LIST)
		for (int i = 0; i < o->nelems; i++)
			opd_reads(&o->elems[i], skip, bits);
}

/* the registers instruction in reads (its guard, its sources, an address's base) that skip
 * does not hold (NULL: none), into bits */
static void ins_reads(const PIns *in, const uint32_t *skip, uint32_t *bits)
{
	if (in->guard >= 0 && !(skip && BHAS(skip, in->guard)))
		BSET(bits, in->guard);
	for (int s = 0; s < in->nopd; s++)
		if (!ptx_ins_writes(in, s) || in->o[s].kind == POK_ADDR)
			opd_reads(&in->o[s], skip, bits);
}

/* the PTX register a branch tests: its predicate, or a BRX's index (-1: none) */
static int cond_reg(const Fn *f, const Blk *b)
{
	if (b->jmp.kind == J_BRX && b->jmp.ptxins >= 0) {
		/* selection replaced the index by the address loaded from the jump table */
		const PIns *in = &f->pf->ins[b->jmp.ptxins];
		return in->nopd > 0 && in->o[0].kind == POK_REG ? in->o[0].reg : -1;
	}
	return b->jmp.kind == J_BRA && b->jmp.cond >= 0 ? f->tmp[b->jmp.cond].ptxreg : -1;
}

/* the first divergent definition reaching block b's branch condition, else -1 */
static int cond_div(const U *u, const Blk *b)
{
	int x = u->r->bread[b->id];

	return x >= 0 ? read_div(u, &u->r->rd[x]) : -1;
}

static int branch_div(U *u, Blk *b)
{
	const Fn *f = u->f;
	int reg, d;

	if (b->jmp.kind != J_BRA && b->jmp.kind != J_BRX)
		return 0;
	if (b->jmp.lock) {
		snprintf(b->why, sizeof b->why, b->jmp.lock == 2 ? "compare-and-swap loop" :
		         "shared-memory lock loop");
		return 1;
	}
	if (b->jmp.uni) {
		snprintf(b->why, sizeof b->why, "written .uni");
		return 0;
	}
	reg = cond_reg(f, b);
	if ((d = cond_div(u, b)) >= 0) {
		snprintf(b->why, sizeof b->why, "%s %s", f->pf->regs[reg].name, u->why[d]);
		return 1;
	}
	if (reg >= 0)
		snprintf(b->why, sizeof b->why, "%s is uniform", f->pf->regs[reg].name);
	else
		snprintf(b->why, sizeof b->why, "uniform condition");
	return 0;
}

/* the registers block b reads before writing them (use) and writes unguarded (def) */
static void use_def(const Fn *f, const Blk *b, uint32_t *use, uint32_t *def)
{
	const PFunc *pf = f->pf;
	int hi = b->jmp.ptxins >= 0 ? b->jmp.ptxins + 1 : b->plast, c = cond_reg(f, b);

	for (int i = b->pfirst; i < hi && i < pf->nins; i++) {
		const PIns *in = &pf->ins[i];
		ins_reads(in, def, use);
		if (in->guard < 0)   /* a guarded write kills nothing */
			ins_writes(in, def);
	}
	if (c >= 0 && !BHAS(def, c))
		BSET(use, c);
}

/* the PTX registers live at each block's entry, w words a block */
static uint32_t *live_in(Fn *f, int w)
{
	int n = f->nblk;
	uint32_t *use = be_alloc(f->pool, sizeof(uint32_t) * (size_t)(3 * n * w + 1));
	uint32_t *def = use + n * w, *live = def + n * w;

	for (int bi = 0; bi < n; bi++)
		if (!f->blk[bi].dead)
			use_def(f, &f->blk[bi], use + bi * w, def + bi * w);
	be_live(f, w, use, def, NULL, NULL, live, NULL);
	return live;
}

/* sync dependence of divergent branch b (region in, immediate post-dominator j): its
 * region's definitions that reach j, where their register is live (live: at each block's
 * entry, w words a block) */
static void sync_dep(U *u, int b, int j, const uint8_t *in, const uint32_t *live, int w)
{
	const Fn *f = u->f;
	const BeReach *r = u->r;
	int line = f->blk[b].jmp.ptxins >= 0 ? f->pf->ins[f->blk[b].jmp.ptxins].loc.line : 0;
	const uint32_t *lj = live + (size_t)j * (size_t)w, *rj = r->reach + (size_t)j * (size_t)r->wm;
	char why[48];

	snprintf(why, sizeof why, "set under the divergent branch at line %d", line);
	for (int d = 0; d < r->nd; d++)
		if (in[r->dblk[d]] && BHAS(lj, r->dreg[d]) && (r->bit[d] < 0 || BHAS(rj, r->bit[d])))
			mark(u, d, why);
}

/* does loop l have a branch divergent in u that leaves it or goes to its header or a latch */
static int loop_splits(const Fn *f, const U *u, int l)
{
	for (int bi = 0; bi < f->nblk; bi++) {
		const Blk *b = &f->blk[bi];
		int s[2] = {b->s1, b->s2};
		if (b->dead || b->jmp.kind != J_BRA || !be_in_loop(f, l, bi) || cond_div(u, b) < 0)
			continue;
		for (int e = 0; e < 2; e++)
			if (s[e] >= 0 && (!be_in_loop(f, l, s[e]) || be_cont_target(f, l, s[e])))
				return 1;
	}
	return 0;
}

/* Jmp.pdiv: the registers carried round a loop that a divergent branch leaves or continues,
 * and what is computed from them, taken for divergent as well (live: the PTX registers live
 * at each block's entry, w words a block) */
static void ptxas_div(Fn *f, const U *u, const uint32_t *live, int w)
{
	const PFunc *pf = f->pf;
	const BeReach *r = u->r;
	int n = f->nblk;
	uint32_t *wr, *carried;
	U p = *u;

	if (f->opt->loop_sync != BE_LOOP_PBK || f->nloops == 0) {
		for (int bi = 0; bi < n; bi++)
			f->blk[bi].jmp.pdiv = f->blk[bi].jmp.div;
		return;
	}
	wr = be_alloc(f->pool, sizeof(uint32_t) * (size_t)(n * w + 1));   /* what each block
	                                                                       writes, guarded or not */
	for (int bi = 0; bi < n; bi++) {
		const Blk *b = &f->blk[bi];
		for (int i = b->pfirst; !b->dead && i < b->plast && i < pf->nins; i++)
			ins_writes(&pf->ins[i], wr + bi * w);
	}
	p.div = memcpy(be_alloc(f->pool, (size_t)r->nd + 1), u->div, (size_t)r->nd + 1);
	p.why = be_alloc(f->pool, sizeof *p.why * ((size_t)r->nd + 1));
	carried = be_alloc(f->pool, sizeof(uint32_t) * (size_t)w);
	do {
		p.changed = 0;
		for (int l = 0; l < f->nloops; l++) {
			const uint32_t *hl = live + f->loops[l].header * w;
			if (!loop_splits(f, &p, l))
				continue;
			memset(carried, 0, sizeof(uint32_t) * (size_t)w);
			for (int bi = 0; bi < n; bi++)
				if (!f->blk[bi].dead && be_in_loop(f, l, bi))
					for (int k = 0; k < w; k++)
						carried[k] |= wr[bi * w + k] & hl[k];
			for (int g = 0; g < pf->nregs; g++)
				for (int k = r->rdef[g]; BHAS(carried, g) && k < r->rdef[g + 1]; k++)
					mark(&p, r->rdefs[k], "carried round a loop that lanes leave apart");
		}
		for (int i = 0; i < pf->nins; i++)
			transfer(&p, i);
	} while (p.changed);
	for (int bi = 0; bi < n; bi++) {
		Blk *b = &f->blk[bi];
		b->jmp.pdiv = (uint8_t)(b->jmp.div || (!b->dead && cond_div(&p, b) >= 0));
	}
}

void be_uniform(Fn *f)
{
	const PFunc *pf = f->pf;
	U u = {0};
	uint8_t *in = be_alloc(f->pool, (size_t)f->nblk + 1);
	/* per block: divergent, its sync dependence made */
	uint8_t *done = be_alloc(f->pool, (size_t)f->nblk + 1);
	uint8_t *inreg = be_alloc(f->pool, (size_t)f->nblk + 1);
	int *stk = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));
	int w = BITS_WORDS(pf->nregs + 1);
	uint32_t *live = live_in(f, w);
	int *ipd = be_postdom_kept(f);

	u.f = f;
	u.r = be_reach(f, cond_reg);
	u.div = be_alloc(f->pool, (size_t)u.r->nd + 1);
	u.why = be_alloc(f->pool, sizeof *u.why * ((size_t)u.r->nd + 1));
	u.inreg = inreg;
	for (int i = 0; i < pf->nins; i++)
		u.lgen |= pf->ins[i].op == PO_CVTA && pf->ins[i].m.space == PS_LOCAL;
	do {
		u.changed = 0;
		for (int i = 0; i < pf->nins; i++)
			transfer(&u, i);
		for (int bi = 0; bi < f->nblk; bi++) {
			Blk *b = &f->blk[bi];
			if (b->dead || done[bi] || !branch_div(&u, b))
				continue;
			done[bi] = 1;   /* (its region's definitions do not change) */
			if (ipd[bi] < 0 || ipd[bi] >= f->nblk) {
				region(f, bi, -1, in, stk);   /* (paths that never meet again:
				                                 local memory's region is all they reach) */
				for (int k = 0; k < f->nblk; k++)
					inreg[k] |= in[k];
				continue;
			}
			region(f, bi, ipd[bi], in, stk);
			sync_dep(&u, bi, ipd[bi], in, live, w);
			for (int k = 0; k < f->nblk; k++)
				inreg[k] |= in[k];
		}
		local_mem(&u);
	} while (u.changed);
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = &f->blk[bi];
		if (b->dead || (b->jmp.kind != J_BRA && b->jmp.kind != J_BRX))
			continue;
		b->jmp.div = (uint8_t)branch_div(&u, b);
		if (!b->jmp.div)
			b->jmp.uni = 1;
	}
	f->preduni = be_alloc(f->pool, (size_t)pf->nregs + 1);
	for (int d = 0; d < u.r->nd; d++)
		f->preduni[u.r->dreg[d]] |= u.div[d];
	ptxas_div(f, &u, live, w);
}

/* ------------------------------------------------------------------ across calls */
/* operand o reads a register divergent in div (a register's answer, Fn.preduni), or a
 * divergent special register */
static int opd_div(const uint8_t *div, const POpd *o)
{
	switch ((int)o->kind) {
	case POK_REG: case POK_ADDR:
		return o->reg >= 0 && div[o->reg];
	case POK_SREG:
		return sreg_divergent(o->sreg);
	case POK_VEC: case POK_LIST:
		for (int i = 0; i < o->nelems; i++)
			if (opd_div(div, &o->elems[i]))
				return 1;
		return 0;
	default:
		return 0;
	}
}

/* the analysed f's store in may store a value that differs between lanes: its guard or a
 * stored operand divergent (opd_div over f's answer) */
static int store_div(const Fn *f, const PIns *in)
{
	if (in->guard >= 0 && f->preduni[in->guard])
		return 1;
	for (int s = 1; s < in->nopd; s++)
		if (opd_div(f->preduni, &in->o[s]))
			return 1;
	return 0;
}

/* --func-params callers: whether call i of the translated function f passes argument a
 * (an element of its argument list) a value that may differ between lanes. A register: its
 * uniformity; an immediate: none; a .param local of f (nvcc's call sequence): what every
 * st.param into it stores, each of them in the call's block before the call, unguarded or
 * under a uniform guard (any other write to it, or none: it may) */
int be_arg_div(const Fn *f, int i, const POpd *a)
{
	const PFunc *pf = f->pf;
	int b0 = -1, n = 0;

	if (a->kind == POK_IMM)
		return 0;
	if (a->kind == POK_REG)
		return a->reg < 0 || f->preduni[a->reg];
	if (a->kind != POK_SYM || a->symkind != PSYM_LOCAL)
		return 1;
	for (int b = 0; b < f->nblk && b0 < 0; b++)
		if (!f->blk[b].dead && f->blk[b].pfirst <= i && i < f->blk[b].plast)
			b0 = f->blk[b].pfirst;
	for (int j = 0; j < pf->nins; j++) {
		const PIns *in = &pf->ins[j];
		if (in->op == PO_CALL && j != i)
			for (int s = 0; s < in->nopd; s++)
				for (int e = 0; in->o[s].kind == POK_LIST && e < in->o[s].nelems; e++)
					if (s != 2 && in->o[s].elems[e].kind == POK_SYM &&
					    in->o[s].elems[e].symkind == PSYM_LOCAL && in->o[s].elems[e].sym == a->sym)
						return 1;   /* (another call's result written into it) */
		if (in->op != PO_ST || in->nopd < 2 || in->o[0].kind != POK_ADDR || in->o[0].reg >= 0 ||
		    in->o[0].symkind != PSYM_LOCAL || in->o[0].sym != a->sym)
			continue;
		if (b0 < 0 || j < b0 || j >= i || store_div(f, in))
			return 1;
		n++;
	}
	return n == 0;
}

/* function k's parameters that code of the module writes or takes the address of, or all
 * when its own address is taken, by code or a variable's initializer (an indirect call may
 * pass anything): marked in d */
void be_param_escapes(const Module *m, int k, uint8_t *d)
{
	const PFunc *g = &m->funcs[k];

	for (int v = 0; v < m->nvars; v++)   /* (a table of function addresses) */
		for (int e = 0; e < m->vars[v].ninit; e++)
			if ((m->vars[v].init[e].kind == PINIT_SYM || m->vars[v].init[e].kind == PINIT_GENERIC) &&
			    m->vars[v].init[e].symkind == PSYM_FUNC && m->vars[v].init[e].sym == k)
				memset(d, 1, (size_t)g->nparams);
	for (int c = 0; c < m->nfuncs; c++)
		for (int j = 0; j < m->funcs[c].nins; j++) {
			const PIns *in = &m->funcs[c].ins[j];
			for (int s = 0; s < in->nopd; s++) {
				const POpd *o = &in->o[s];
				if (o->kind == POK_SYM && o->symkind == PSYM_FUNC && o->sym == k &&
				    !(in->op == PO_CALL && s == 1))
					memset(d, 1, (size_t)g->nparams);
				if (c == k && o->symkind == PSYM_PARAM && o->sym < g->nparams &&
				    (o->kind == POK_SYM || (in->op != PO_LD && o->kind == POK_ADDR)))
					d[o->sym] = 1;
			}
		}
}

/* the translated .func f returns the same in all lanes: none of its branches diverges (a
 * return from inside a divergent branch's region could differ), and every st.param into its
 * return parameters stores uniform values under no divergent guard; .param returns only */
int be_ret_uniform(const Fn *f)
{
	const PFunc *pf = f->pf;

	for (int r = 0; r < pf->nrets; r++)
		if (pf->rets[r].space != PS_PARAM)
			return 0;
	for (int b = 0; b < f->nblk; b++)
		if (!f->blk[b].dead && (f->blk[b].jmp.kind == J_BRA || f->blk[b].jmp.kind == J_BRX) &&
		    f->blk[b].jmp.div)
			return 0;
	for (int i = 0; i < pf->nins; i++) {
		const PIns *in = &pf->ins[i];
		if (in->op != PO_ST || in->nopd < 2 || in->o[0].kind != POK_ADDR ||
		    in->o[0].symkind != PSYM_RET)
			continue;
		if (store_div(f, in))
			return 0;
	}
	return 1;
}

/* ------------------------------------------------------------------ why a predicate diverges */
/* "%p2 depends on %tid.x via %r4": the special register a divergent branch predicate
 * comes from, found breadth-first over the divergent registers its definitions read;
 * 0 when the divergence has another cause (an atomic, a call result, sync dependence) */
static int root_why_scan(const Fn *f, int reg, char *out, size_t n);

/* root_why_scan, memoised per register (the PTX and its uniformity do not change while
 * if-conversion runs, and a branch is decided again after every conversion) */
int be_why_divergent(const Fn *f, int reg, char *out, size_t n)
{
	Fn *mf = (Fn *)f;
	char buf[128];

	if (!f->preduni || reg < 0)
		return 0;
	if (!mf->whymemo)
		mf->whymemo = be_alloc(f->pool, sizeof(char *) * (size_t)(f->pf->nregs + 1));
	if (!mf->whymemo[reg]) {
		size_t k;
		if (!root_why_scan(f, reg, buf, sizeof buf))
			buf[0] = 0;
		k = strlen(buf) + 1;
		mf->whymemo[reg] = memcpy(be_alloc(f->pool, k), buf, k);
	}
	if (!mf->whymemo[reg][0])
		return 0;
	snprintf(out, n, "%s", mf->whymemo[reg]);
	return 1;
}

static int root_why_scan(const Fn *f, int reg, char *out, size_t n)
{
	const PFunc *pf = f->pf;
	int *q = be_alloc(f->pool, sizeof(int) * (size_t)(pf->nregs + 1));
	int *via = be_alloc(f->pool, sizeof(int) * (size_t)(pf->nregs + 1));
	uint8_t *seen = be_alloc(f->pool, (size_t)pf->nregs + 1);
	int qh = 0, qt = 0;

	if (!f->preduni || reg < 0)
		return 0;
	q[qt++] = reg;
	seen[reg] = 1;
	via[reg] = -1;
	while (qh < qt) {
		int r = q[qh++];
		for (int i = 0; i < pf->nins; i++) {
			const PIns *in = &pf->ins[i];
			int w = 0;
			for (int s = 0; s < in->nopd && !w; s++)
				w = ptx_ins_writes(in, s) && in->o[s].kind == POK_REG && in->o[s].reg == r;
			for (int s = 0; w && s < in->nopd; s++) {
				const POpd *o = &in->o[s];
				if (ptx_ins_writes(in, s) && o->kind != POK_ADDR)
					continue;
				if (o->kind == POK_SREG && sreg_divergent(o->sreg)) {
					int hop = r == reg ? -1 : via[r] < 0 ? r : via[r];
					const char *c = o->comp ? &".x.y.z.w"[2 * (o->comp - 1)] : "";
					snprintf(out, n, "%.20s depends on %s%.2s%s%.20s", pf->regs[reg].name,
					         ptx_sreg_name((PSReg)o->sreg), c, hop >= 0 ? " via " : "",
					         hop >= 0 ? pf->regs[hop].name : "");
					return 1;
				}
				if ((o->kind == POK_REG || o->kind == POK_ADDR) && o->reg >= 0 &&
				    f->preduni[o->reg] && !seen[o->reg]) {
					seen[o->reg] = 1;
					via[o->reg] = r == reg ? o->reg : via[r];
					q[qt++] = o->reg;
				}
			}
		}
	}
	return 0;
}
