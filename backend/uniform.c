/* uniform.c - uniformity (divergence) analysis of PTX registers and branches.
 *
 * Needs cfg, postdom, the PTX body. Marks Blk.jmp.div on branches that may split a warp
 * and Blk.jmp.uni on those that cannot; breaks nothing.
 *
 * A register is divergent when some definition reads a divergent register or special
 * register (%tid, %laneid, %lanemask_*, %clock*), is guarded by a divergent predicate, is
 * an op whose result differs per lane (atom, shfl, match, ld.local, a call's results, a
 * .func parameter), or is made in the region of a divergent branch (the blocks reached from
 * it before its immediate post-dominator) and read outside that region (sync dependence:
 * lanes that took different paths see different definitions). Everything else — kernel
 * parameters, %ctaid/%nctaid/%ntid, constants, loads through uniform addresses, votes —
 * is uniform. A branch is uniform when written .uni or its predicate is uniform.
 * Iterated to a fixed point (divergence only grows).
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
	uint8_t *div;        /* per PTX register */
	char (*why)[48];     /* first reason per divergent register */
	int changed;
} U;

static int sreg_divergent(int s)
{
	switch (s) {
	case PSR_TID: case PSR_LANEID: case PSR_CLOCK: case PSR_CLOCK_HI: case PSR_CLOCK64:
	case PSR_LANEMASK_EQ: case PSR_LANEMASK_LE: case PSR_LANEMASK_LT: case PSR_LANEMASK_GE:
	case PSR_LANEMASK_GT: case PSR_GLOBALTIMER: case PSR_GLOBALTIMER_LO:
	case PSR_GLOBALTIMER_HI: case PSR_PM0: case PSR_PM1: case PSR_PM2: case PSR_PM3:
	case PSR_PM4: case PSR_PM5: case PSR_PM6: case PSR_PM7:
		return 1;
	default:
		return 0;
	}
}

static void mark(U *u, int reg, const char *why)
{
	if (reg < 0 || u->div[reg])
		return;
	u->div[reg] = 1;
	snprintf(u->why[reg], sizeof u->why[reg], "%s", why);
	u->changed = 1;
}

/* first divergent source of an operand: a reason, or NULL */
static const char *opd_div(U *u, const POpd *o, char *buf, size_t n)
{
	const PFunc *pf = u->f->pf;

	switch ((int)o->kind) {
	case POK_REG:
		if (u->div[o->reg]) {
			snprintf(buf, n, "%s", pf->regs[o->reg].name);
			return buf;
		}
		return NULL;
	case POK_ADDR:
		if (o->reg >= 0 && u->div[o->reg]) {
			snprintf(buf, n, "%s", pf->regs[o->reg].name);
			return buf;
		}
		return NULL;
	case POK_SREG:
		if (sreg_divergent(o->sreg)) {
			snprintf(buf, n, "%s", ptx_sreg_name((PSReg)o->sreg));
			return buf;
		}
		return NULL;
	case POK_VEC: case POK_LIST:
		for (int i = 0; i < o->nelems; i++) {
			const char *r = opd_div(u, &o->elems[i], buf, n);
			if (r)
				return r;
		}
		return NULL;
	default:
		return NULL;
	}
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
static const char *op_divergent(const Fn *f, const PIns *in)
{
	switch ((int)in->op) {
	case PO_ATOM: return "an atomic's result";
	case PO_SHFL: return "a shuffle";
	case PO_MATCH: return "match";
	case PO_ELECT: return "elect's leader predicate";
	case PO_CALL:
		return f->retuni && callee(in) >= 0 && f->retuni[callee(in)] ? NULL : "a call's result";
	case PO_LD: case PO_LDU:
		if (in->m.space == PS_LOCAL)
			return "a local-memory load";
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

/* the k-th register instruction in writes (from 0: its destinations, a vector's or list's
 * elements, in operand order), -1 past the last */
static int ins_dst(const PIns *in, int k)
{
	for (int s = 0; s < in->nopd; s++) {
		const POpd *o = &in->o[s];
		if (!ptx_ins_writes(in, s))
			continue;
		if (o->kind == POK_REG && k-- == 0)
			return o->reg;
		if (o->kind == POK_VEC || o->kind == POK_LIST)
			for (int i = 0; i < o->nelems; i++)
				if (o->elems[i].kind == POK_REG && k-- == 0)
					return o->elems[i].reg;
	}
	return -1;
}

/* the registers instruction in writes, into bits */
static void ins_writes(const PIns *in, uint32_t *bits)
{
	for (int k = 0, r; (r = ins_dst(in, k)) >= 0; k++)
		BSET(bits, r);
}

static void each_dst(U *u, const PIns *in, const char *why)
{
	for (int k = 0, r; (r = ins_dst(in, k)) >= 0; k++)
		mark(u, r, why);
}

static void transfer(U *u, const PIns *in)
{
	char buf[48], why[48];
	const char *r = op_divergent(u->f, in);

	if (!r && in->guard >= 0 && u->div[in->guard]) {
		snprintf(buf, sizeof buf, "%s", u->f->pf->regs[in->guard].name);
		r = buf;
	}
	for (int s = 0; !r && s < in->nopd; s++)
		if (!ptx_ins_writes(in, s) || in->o[s].kind == POK_ADDR)
			r = opd_div(u, &in->o[s], buf, sizeof buf);
	if (!r)
		return;
	if (r == buf)
		snprintf(why, sizeof why, "depends on %.32s", buf);
	else
		snprintf(why, sizeof why, "%s", r);
	each_dst(u, in, why);
}

/* blocks reached from b's successors without passing its immediate post-dominator */
static void region(Fn *f, int b, uint8_t *in, int *stk)
{
	int j = f->blk[b].ipdom, sp = 0;
	int s[2] = {f->blk[b].s1, f->blk[b].s2};

	memset(in, 0, (size_t)f->nblk);
	for (int k = 0; k < 2; k++)
		if (s[k] >= 0 && s[k] != j && !in[s[k]])
			in[s[k]] = 1, stk[sp++] = s[k];
	if (f->blk[b].jmp.kind == J_BRX)
		for (int k = 0; k < f->blk[b].jmp.ntl; k++) {
			int t = f->tl[f->blk[b].jmp.tl + k];
			if (t != j && !in[t])
				in[t] = 1, stk[sp++] = t;
		}
	while (sp) {
		Blk *B = &f->blk[stk[--sp]];
		int ss[2] = {B->s1, B->s2};
		for (int k = 0; k < 2; k++)
			if (ss[k] >= 0 && ss[k] != j && !in[ss[k]])
				in[ss[k]] = 1, stk[sp++] = ss[k];
		if (B->jmp.kind == J_BRX)
			for (int k = 0; k < B->jmp.ntl; k++) {
				int t = f->tl[B->jmp.tl + k];
				if (t != j && !in[t])
					in[t] = 1, stk[sp++] = t;
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

/* the registers block b reads (its body, its branch), into bits */
static void block_reads(const Fn *f, const Blk *b, uint32_t *bits)
{
	const PFunc *pf = f->pf;
	int hi = b->jmp.ptxins >= 0 ? b->jmp.ptxins + 1 : b->plast;

	for (int i = b->pfirst; i < hi && i < pf->nins; i++)
		ins_reads(&pf->ins[i], NULL, bits);
	if (b->jmp.cond >= 0 && f->tmp[b->jmp.cond].ptxreg >= 0)
		BSET(bits, f->tmp[b->jmp.cond].ptxreg);
}

/* the PTX register a branch tests: its predicate, or a BRX's index (-1: none) */
static int cond_reg(const Fn *f, const Blk *b)
{
	if (b->jmp.kind == J_BRX && b->jmp.ptxins >= 0) {
		/* selection replaced the index by the address loaded from the jump table */
		const PIns *in = &f->pf->ins[b->jmp.ptxins];
		return in->nopd > 0 && in->o[0].kind == POK_REG ? in->o[0].reg : -1;
	}
	return b->jmp.cond >= 0 ? f->tmp[b->jmp.cond].ptxreg : -1;
}

static int branch_div(U *u, Blk *b)
{
	const Fn *f = u->f;
	int reg;

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
	if (reg >= 0 && u->div[reg]) {
		snprintf(b->why, sizeof b->why, "%s %s", f->pf->regs[reg].name, u->why[reg]);
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

/* does loop l have a branch divergent in u that leaves it or goes to its header or a latch */
static int loop_splits(const Fn *f, const U *u, int l)
{
	for (int bi = 0; bi < f->nblk; bi++) {
		const Blk *b = &f->blk[bi];
		int c = cond_reg(f, b), s[2] = {b->s1, b->s2};
		if (b->dead || b->jmp.kind != J_BRA || !be_in_loop(f, l, bi) || c < 0 || !u->div[c])
			continue;
		for (int e = 0; e < 2; e++)
			if (s[e] >= 0 && (!be_in_loop(f, l, s[e]) || be_cont_target(f, l, s[e])))
				return 1;
	}
	return 0;
}

/* Jmp.pdiv: the registers carried round a loop that a divergent branch leaves or continues,
 * and what is computed from them, taken for divergent as well */
static void ptxas_div(Fn *f, const U *u)
{
	const PFunc *pf = f->pf;
	int n = f->nblk, w = BITS_WORDS(pf->nregs + 1);
	uint32_t *use, *def, *live, *wr, *carried;
	U p = *u;

	if (f->opt->loop_sync != BE_LOOP_PBK || f->nloops == 0) {
		for (int bi = 0; bi < n; bi++)
			f->blk[bi].jmp.pdiv = f->blk[bi].jmp.div;
		return;
	}
	use = be_alloc(f->pool, sizeof(uint32_t) * (size_t)(4 * n * w));
	def = use + n * w;
	live = def + n * w;
	wr = live + n * w;   /* what each block writes, guarded or not */
	for (int bi = 0; bi < n; bi++) {
		const Blk *b = &f->blk[bi];
		if (b->dead)
			continue;
		use_def(f, b, use + bi * w, def + bi * w);
		for (int i = b->pfirst; i < b->plast && i < pf->nins; i++)
			ins_writes(&pf->ins[i], wr + bi * w);
	}
	be_live(f, w, use, def, NULL, NULL, live, NULL);   /* live at block entry */
	p.div = memcpy(be_alloc(f->pool, (size_t)pf->nregs + 1), u->div, (size_t)pf->nregs + 1);
	p.why = be_alloc(f->pool, sizeof *p.why * ((size_t)pf->nregs + 1));
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
			for (int r = 0; r < pf->nregs; r++)
				if (BHAS(carried, r))
					mark(&p, r, "carried round a loop that lanes leave apart");
		}
		for (int i = 0; i < pf->nins; i++)
			transfer(&p, &pf->ins[i]);
	} while (p.changed);
	for (int bi = 0; bi < n; bi++) {
		Blk *b = &f->blk[bi];
		int c = cond_reg(f, b);
		b->jmp.pdiv = (uint8_t)(b->jmp.div || (c >= 0 && p.div[c]));
	}
}

void be_uniform(Fn *f)
{
	const PFunc *pf = f->pf;
	U u = {0};
	uint8_t *in = be_alloc(f->pool, (size_t)f->nblk + 1);
	int *stk = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));
	int w = BITS_WORDS(pf->nregs + 1);
	uint32_t *rd = be_alloc(f->pool, sizeof(uint32_t) * (size_t)w * (size_t)(f->nblk + 1));
	uint32_t *defd = be_alloc(f->pool, sizeof(uint32_t) * (size_t)w);
	char why[48];

	u.f = f;
	u.div = be_alloc(f->pool, (size_t)pf->nregs + 1);
	u.why = be_alloc(f->pool, sizeof *u.why * ((size_t)pf->nregs + 1));
	for (int k = 0; k < f->nblk; k++)   /* what each block reads */
		if (!f->blk[k].dead)
			block_reads(f, &f->blk[k], rd + (size_t)k * w);
	do {
		u.changed = 0;
		for (int i = 0; i < pf->nins; i++)
			transfer(&u, &pf->ins[i]);
		for (int bi = 0; bi < f->nblk; bi++) {
			Blk *b = &f->blk[bi];
			if (b->dead || !branch_div(&u, b))
				continue;
			/* sync dependence: defined inside the region, read outside it */
			region(f, bi, in, stk);
			memset(defd, 0, sizeof(uint32_t) * (size_t)w);
			for (int k = 0; k < f->nblk; k++) {
				Blk *r = &f->blk[k];
				if (!in[k] || r->dead)
					continue;
				for (int i = r->pfirst; i < r->plast; i++)
					ins_writes(&pf->ins[i], defd);
			}
			int line = b->jmp.ptxins >= 0 ? pf->ins[b->jmp.ptxins].loc.line : 0;
			snprintf(why, sizeof why, "set under the divergent branch at line %d", line);
			for (int r = 0; r < pf->nregs; r++) {
				if (!BHAS(defd, r) || u.div[r])
					continue;
				for (int k = 0; k < f->nblk; k++)
					if (!in[k] && !f->blk[k].dead && BHAS(rd + (size_t)k * w, r)) {
						mark(&u, r, why);
						break;
					}
			}
		}
	} while (u.changed);
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = &f->blk[bi];
		if (b->dead || (b->jmp.kind != J_BRA && b->jmp.kind != J_BRX))
			continue;
		b->jmp.div = (uint8_t)branch_div(&u, b);
		if (!b->jmp.div)
			b->jmp.uni = 1;
	}
	f->preduni = u.div;
	ptxas_div(f, &u);
}

/* ------------------------------------------------------------------ across calls */
/* the analysed f's store in may store a value that differs between lanes: its guard or a
 * stored operand divergent (opd_div over f's answer) */
static int store_div(const Fn *f, const PIns *in)
{
	U u = {.f = (Fn *)f, .div = f->preduni};
	char buf[48];

	if (in->guard >= 0 && f->preduni[in->guard])
		return 1;
	for (int s = 1; s < in->nopd; s++)
		if (opd_div(&u, &in->o[s], buf, sizeof buf))
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
