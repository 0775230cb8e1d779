/* cmporigin.c - the PTX construct a line's code comes from, for warpc --compare-lines, which
 * pairs our conditional constructs with ptxas's by ptxas's own line table: two constructs
 * pair when they come from one PTX branch. needs: the parsed module; breaks: nothing.
 *
 * A compiler's conditional construct is a guarded BRA, BRK, CONT, RET, EXIT or NOP.S, whose
 * instruction comes from the branch's own line, or a run of guarded instructions, which come
 * from the lines of a side of it. The origin of line L (its instruction I, in function F):
 *   - L itself when I is a conditional branch, is guarded, or reads a predicate (selp): the
 *     PTX's own predication, which either compiler may write as a guarded run (an origin of
 *     its own: ptxas's runs from a selp pair with nothing of ours);
 *   - none when I is expanded into code with branches of its own (a division's slow path, a
 *     shared atomic's loop, each compiler's own) or is a return or an exit (ptxas gives the
 *     code of its subroutines the function's last line);
 *   - else the branch whose side holds I, found walking up from I: a conditional forward
 *     branch whose target lies below I (I is on its fall-through side); a label that
 *     nothing falls into (the code above ends in a jump, a return or an exit), reached from
 *     exactly one branch, a conditional forward one (I is on its taken side); a conditional
 *     branch back whose fall-through code, from I on, ends in a jump to its target (clang
 *     lays a join above the branch: I is on its fall-through side). The walk goes
 *     on over a label the code above falls into (a join, a loop's head) and over a branch
 *     whose target lies at or above I (a hammock that ended above I: I is past its join, or
 *     a loop's back edge), and stops with no origin at the function's top, at a jump, a
 *     return or an exit with no label below it, and at a label reached otherwise (by
 *     several branches, a jump, a back edge).
 * So a join's code belongs to the enclosing branch's side (the nested hammock above it is
 * passed), and code of no branch (the kernel's top level, a loop's body outside any
 * if) has no origin. A BRA of ptxas's is read otherwise (be_origin_before): ptxas often
 * gives a BRA no line of its own, and the line table then has the line of the instruction
 * scheduled before it, from the BRA's own block (its setp, a store before the branch:
 * tests/ptx/one_side_join), so it comes from the conditional bra that ends that block.
 * Lines are those of the module's first file (a program linked from several files has none
 * for the others).
 */
#include <string.h>

#include "backend/be.h"

/* n zeroed elements of size bytes from o's pool */
static void *grab(BeOrigins *o, size_t n, size_t size)
{
	return be_alloc(o->pool, (n ? n : 1) * size);
}

/* the label index of a bra's target, or -1 (an indirect bra) */
static int bra_label(const PFunc *pf, const PIns *in)
{
	if (in->op != PO_BRA || in->nopd < 1 || in->o[0].kind != POK_LABEL)
		return -1;
	return in->o[0].sym >= 0 && in->o[0].sym < pf->nlabels ? in->o[0].sym : -1;
}

/* in is a control instruction: bra, brx.idx, ret or exit */
static int ctl(const PIns *in)
{
	return in->op == PO_BRA || in->op == PO_BRX_IDX || in->op == PO_RET || in->op == PO_EXIT;
}

/* control reaches the next instruction from in (not an unguarded jump, return, exit or trap) */
static int falls(const PIns *in)
{
	return in->guard >= 0 || !(ctl(in) || in->op == PO_TRAP);
}

/* in is expanded into code with branches and guards of its own, by ptxas or by us: a
 * division's or a square root's slow path, a shared atomic's retry loop (no branch's) */
static int expands(const PIns *in)
{
	switch ((int)in->op) {
	case PO_DIV: case PO_REM: case PO_RCP: case PO_SQRT: case PO_RSQRT: case PO_ATOM: case PO_RED:
		return in->guard < 0;
	default:
		return 0;
	}
}

/* in is an origin of its own: a conditional branch, a guarded instruction, or one that reads a
 * predicate register (selp; setp's and logic ops' predicate sources alike) */
static int own(const PFunc *pf, const PIns *in)
{
	if (in->guard >= 0)
		return 1;
	if (in->op == PO_SETP || in->op == PO_BRA)
		return 0;
	for (int s = 1; s < in->nopd; s++)
		if (in->o[s].kind == POK_REG && in->o[s].reg >= 0 && in->o[s].reg < pf->nregs &&
		    ptx_type_kind((PType)pf->regs[in->o[s].reg].type) == PTK_PRED)
			return 1;
	return 0;
}

/* the straight code from instruction i (falling through) ends in a jump to label lab */
static int jumps_to(const PFunc *pf, int i, int lab)
{
	while (i < pf->nins && falls(&pf->ins[i]))
		i++;
	return i < pf->nins && pf->ins[i].guard < 0 && bra_label(pf, &pf->ins[i]) == lab;
}

void be_origins_init(BeOrigins *o, const Module *m)
{
	int n = 0, base = 0;

	memset(o, 0, sizeof *o);
	o->m = m;
	for (int f = 0; f < m->nfuncs; f++) {
		for (int i = 0; i < m->funcs[f].nins; i++)
			if (m->funcs[f].ins[i].loc.file == 0 && m->funcs[f].ins[i].loc.line >= n)
				n = m->funcs[f].ins[i].loc.line + 1;
		base += m->funcs[f].nins + 1;
	}
	o->n = n;
	o->pool = be_pool_new();
	o->fn = grab(o, (size_t)n, sizeof *o->fn);
	o->ins = grab(o, (size_t)n, sizeof *o->ins);
	o->base = grab(o, (size_t)m->nfuncs + 1, sizeof *o->base);
	o->nsrc = grab(o, (size_t)base, sizeof *o->nsrc);
	o->src = grab(o, (size_t)base, sizeof *o->src);
	for (int l = 0; l < n; l++)
		o->fn[l] = o->ins[l] = -1;
	base = 0;
	for (int f = 0; f < m->nfuncs; f++) {
		const PFunc *pf = &m->funcs[f];
		o->base[f] = base;
		for (int i = pf->nins - 1; i >= 0; i--) {   /* the first instruction of a line */
			int l = pf->ins[i].loc.line;
			if (pf->ins[i].loc.file == 0 && l > 0) {
				o->fn[l] = f;
				o->ins[l] = i;
			}
		}
		/* the branches to the labels before each instruction: how many, and the one */
		for (int i = 0; i < pf->nins; i++) {
			const PIns *in = &pf->ins[i];
			int lab = bra_label(pf, in);
			if (lab >= 0) {
				int t = base + pf->labels[lab].pos;
				o->nsrc[t]++;
				o->src[t] = i;
			}
			for (int s = 0; in->op == PO_BRX_IDX && s < in->nopd; s++)
				if (in->o[s].kind == POK_TLIST && in->o[s].sym >= 0 && in->o[s].sym < pf->ntlists) {
					const PTList *tl = &pf->tlists[in->o[s].sym];
					for (int q = 0; tl->kind == PTL_BRANCH && q < tl->ntargets; q++)
						if (tl->targets[q] >= 0 && tl->targets[q] < pf->nlabels) {
							o->nsrc[base + pf->labels[tl->targets[q]].pos]++;
							o->src[base + pf->labels[tl->targets[q]].pos] = -1;
						}
				}
		}
		base += pf->nins + 1;
	}
}

void be_origins_free(BeOrigins *o)
{
	if (o->pool)
		be_pool_free(o->pool);
	memset(o, 0, sizeof *o);
}

int be_origin(const BeOrigins *o, int line, int *isown)
{
	const PFunc *pf;
	int idx, b;

	if (isown)
		*isown = 0;
	if (!o || line <= 0 || line >= o->n || o->fn[line] < 0)
		return 0;
	pf = &o->m->funcs[o->fn[line]];
	b = o->base[o->fn[line]];
	idx = o->ins[line];
	if (expands(&pf->ins[idx]) || own(pf, &pf->ins[idx])) {
		if (isown)
			*isown = 1;
		return expands(&pf->ins[idx]) ? 0 : line;
	}
	if (pf->ins[idx].op == PO_RET || pf->ins[idx].op == PO_EXIT)
		return 0;        /* (ptxas gives the code of its own subroutines the last line) */
	for (int j = idx, jumps = 0;;) {
		const PIns *in;
		int lab;
		/* the labels before instruction j, when the code above cannot fall into them: the
		 * taken side of the one conditional forward bra to them; or, reached by one jump,
		 * the code at the jump (clang's `@p bra X; bra.uni Y`: Y is the side of !p) */
		if (o->nsrc[b + j] && !(j > 0 && falls(&pf->ins[j - 1]))) {
			int s = o->src[b + j];
			if (o->nsrc[b + j] != 1 || s < 0)
				return 0;
			if (pf->ins[s].guard >= 0)
				return s < j ? pf->ins[s].loc.line : 0;
			if (++jumps > 64)
				return 0;
			idx = j = s;
		}
		if (j == 0)
			return 0;
		in = &pf->ins[--j];
		lab = bra_label(pf, in);
		if (in->guard >= 0 && lab >= 0 && pf->labels[lab].pos > idx)
			return in->loc.line;       /* idx is on its fall-through side */
		if (in->guard >= 0 && lab >= 0 && pf->labels[lab].pos <= j && jumps_to(pf, idx, lab))
			return in->loc.line;       /* its side jumps back to its target (clang) */
		if (!falls(in))
			return 0;
	}
}

int be_origin_ctl(const BeOrigins *o, int line)
{
	if (!o || line <= 0 || line >= o->n || o->fn[line] < 0)
		return 0;
	return ctl(&o->m->funcs[o->fn[line]].ins[o->ins[line]]);
}

int be_origin_before(const BeOrigins *o, int line)
{
	const PFunc *pf;
	int j, b;

	if (!o || line <= 0 || line >= o->n || o->fn[line] < 0 || be_origin_ctl(o, line))
		return 0;
	pf = &o->m->funcs[o->fn[line]];
	b = o->base[o->fn[line]];
	if (expands(&pf->ins[o->ins[line]]))
		return 0;
	for (j = o->ins[line] + 1; j < pf->nins && !o->nsrc[b + j]; j++) {
		const PIns *in = &pf->ins[j];
		if (in->op == PO_BRA && in->guard >= 0 && bra_label(pf, in) >= 0)
			return in->loc.file == 0 ? in->loc.line : 0;
		if (ctl(in) || !falls(in) || expands(in))
			return 0;     /* (a jump, a guarded return or exit, a division's slow path) */
	}
	return 0;
}
