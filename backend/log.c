/* log.c - the decision log (warpc --explain): one entry per conditional PTX branch, saying
 * what the translator did with it and why. be_log_branches runs last in the pipeline of a
 * function (needs sync, dom, postdom, loops and ifconv.c's records): each branch that kept a
 * block gets its reconvergence decision, and what if-conversion found (shape, side sizes,
 * the threshold rule) when it examined it; the branches if-conversion predicated (they have
 * no block left) are added from its records, and the function's entries are put in PTX
 * order. explain.c prints the log. Calls dom.c and util.c.
 */
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"

static const IfRec *find_rec(const Fn *f, int ptxins)
{
	for (int i = 0; i < f->nifrec; i++)
		if (f->ifrec[i].ptxins == ptxins)
			return &f->ifrec[i];
	return NULL;
}

/* e from the if-conversion record of PTX branch ptxins when the branch stayed: shape, side
 * sizes, and the threshold rule ahead of the reconvergence rule */
static void ifconv_note(const Fn *f, int ptxins, BeLogEntry *e)
{
	const IfRec *r = find_rec(f, ptxins);
	size_t n;

	if (!r || r->predicated)
		return;
	if (!r->rule[0]) {  /* a branch folded into a guarded EXIT or RET: only its uniformity */
		e->uniform = r->uniform;
		snprintf(e->why_uniform, sizeof e->why_uniform, "%s", r->why);
		return;
	}
	snprintf(e->shape, sizeof e->shape, "%s", r->shape);
	e->size_then = r->size_then;
	e->size_else = r->size_else;
	if (r->why[0])
		snprintf(e->why_uniform, sizeof e->why_uniform, "%s", r->why);
	n = strlen(r->rule);
	if (n + 2 + strlen(e->rule) >= sizeof e->rule)
		return;  /* keep the reconvergence rule whole */
	memmove(e->rule + n + 2, e->rule, strlen(e->rule) + 1);
	memcpy(e->rule, r->rule, n);
	memcpy(e->rule + n, "; ", 2);
}

/* e of back edge b that falls into a break path (pbk.c's be_exit_sync): the path, whether its
 * SSY was pushed after the loop's PBK and why, appended to the reconvergence rule */
static void brkpath_note(const Fn *f, const Blk *b, BeLogEntry *e)
{
	const BrkPath *p = &b->bpath;
	const PFunc *pf = f->pf;
	size_t n = strlen(e->rule);
	char lines[48] = "", why[64];

	if (p->start < 0)
		return;
	e->bpath = 1;
	for (int k = 0; k < f->nblk && p->ssy && e->bpath == 1; k++)
		if (be_has_push(&f->blk[k], p->start))
			e->bpath = 2;   /* (a resolution in sync.c may have dropped it) */
	if (p->pfirst >= 0 && p->pfirst < p->plast && p->plast <= pf->nins) {
		e->bpath_first = pf->ins[p->pfirst].loc.line;
		e->bpath_last = pf->ins[p->plast - 1].loc.line;
		snprintf(lines, sizeof lines, " (PTX lines %d-%d)", e->bpath_first, e->bpath_last);
	}
	e->bpath_ins = p->ins;
	e->bpath_mem = p->mem;
	if (p->mem)
		snprintf(why, sizeof why, "a global access (%d instruction%s)", p->ins,
		         p->ins == 1 ? "" : "s");
	else
		snprintf(why, sizeof why, "%d instructions %s %d, no global access", p->ins,
		         p->ins >= BE_BRKPATH_MIN ? ">=" : "<", BE_BRKPATH_MIN);
	snprintf(e->rule + n, sizeof e->rule - n, e->bpath == 2 ?
	         "; SSY of its break path%s after the PBK: %s" : p->ssy ?
	         "; its break path%s lost its SSY (%s)" : "; no SSY of its break path%s: %s",
	         lines, why);
}

static BeLogEntry *log_add(BeLog *log)
{
	if (log->n == log->cap) {
		int nc = log->cap ? 2 * log->cap : 16;
		BeLogEntry *ne = realloc(log->e, sizeof *ne * (size_t)nc);
		if (!ne)
			die("out of memory");
		log->e = ne;
		log->cap = nc;
	}
	memset(&log->e[log->n], 0, sizeof log->e[0]);
	return &log->e[log->n++];
}

/* e is of the PTX branch ptxins of f: its function, place in the PTX and CUDA source and
 * number for --decide */
static void log_at(const Fn *f, BeLogEntry *e, int ptxins)
{
	const PIns *in = &f->pf->ins[ptxins];

	e->func = f->pf->name;
	e->ptxline = in->loc.line;
	e->ptxcol = in->loc.col;
	e->ptxfile = ptx_loc_name(f->m, in->loc);
	e->ptxunit = in->loc.file;
	e->index = be_branch_index(f->m, f->pf, ptxins);
	e->srcline = in->srcline;
	e->srcfile = in->srcfile;
}

static int by_line(const void *x, const void *y)
{
	const BeLogEntry *a = x, *b = y;

	if (a->ptxline != b->ptxline)
		return a->ptxline < b->ptxline ? -1 : 1;
	return (a->ptxcol > b->ptxcol) - (a->ptxcol < b->ptxcol);
}

/* dst (room n) = head then tail, tail cut to fit */
static void rule_join(char *dst, size_t n, const char *head, const char *tail)
{
	size_t h = strlen(head), t = strlen(tail);
	char buf[BE_RULE_LEN];

	if (h >= sizeof buf)
		h = sizeof buf - 1;
	memcpy(buf, head, h);
	if (t > sizeof buf - 1 - h)
		t = sizeof buf - 1 - h;
	memcpy(buf + h, tail, t);
	buf[h + t] = 0;
	if (h + t >= n)
		buf[n - 1] = 0;
	memcpy(dst, buf, strlen(buf) + 1);
}

/* the entries of the branches chain.c folded (from `first` on): each takes the decision of
 * the branch its test went into, whose rule then names the tests it holds */
static void fold_log(Fn *f, int first)
{
	const PFunc *pf = f->pf;
	BeLog *log = f->log;
	int end = log->n;

	for (int i = 0; i < f->nfolds; i++) {
		const BeFold *fd = &f->folds[i];
		const PIns *into = &pf->ins[fd->into];
		int x = -1;
		char head[160];
		BeLogEntry *e;
		for (int k = first; k < end && x < 0; k++)
			if (log->e[k].ptxline == into->loc.line && log->e[k].ptxcol == into->loc.col)
				x = k;
		if (x < 0)
			die("a folded test's branch has no log entry");
		e = log_add(log);
		*e = log->e[x];
		log_at(f, e, fd->ptxins);
		snprintf(e->shape, sizeof e->shape, "%s", "chain");
		snprintf(head, sizeof head, "test folded into the branch of line %d (%s; the next "
		         "test's block %d <= %d, run unguarded): ", into->loc.line, fd->common == 1 ?
		         "OR, both go to one target" : "AND NOT, this one goes where that one falls",
		         fd->size, BE_CHAIN_MAX);
		rule_join(e->rule, sizeof e->rule, head, log->e[x].rule);
	}
	for (int k = first; k < end; k++) {
		char head[160];
		size_t h = 0;
		int n = 0;
		for (int i = 0; i < f->nfolds; i++)
			n += pf->ins[f->folds[i].into].loc.line == log->e[k].ptxline &&
			     pf->ins[f->folds[i].into].loc.col == log->e[k].ptxcol;
		/* bottom-up folds: the last test's first, so the lines in PTX order backwards */
		for (int i = f->nfolds - 1; i >= 0 && n; i--) {
			const PIns *in = &pf->ins[f->folds[i].ptxins], *into = &pf->ins[f->folds[i].into];
			if (into->loc.line != log->e[k].ptxline || into->loc.col != log->e[k].ptxcol ||
			    h + 24 >= sizeof head)
				continue;
			h += (size_t)snprintf(head + h, sizeof head - h, "%s%d", h ? ", " : n == 1 ?
			                      "short-circuit: the test of line " : "short-circuit: the tests "
			                      "of lines ", in->loc.line);
		}
		if (!h)
			continue;
		snprintf(head + h, sizeof head - h, " folded into its predicate; ");
		rule_join(log->e[k].rule, sizeof log->e[k].rule, head, log->e[k].rule);
	}
}

/* appends f's predicated branches, names the files of entries [first, n) and puts them in
 * PTX order */
static void ifconv_log(Fn *f, int first)
{
	const Module *m = f->m;
	BeLog *log = f->log;

	for (int i = 0; i < f->nifrec; i++) {
		const IfRec *r = &f->ifrec[i];
		BeLogEntry *e;
		if (!r->predicated)
			continue;
		e = log_add(log);
		log_at(f, e, r->ptxins);
		snprintf(e->shape, sizeof e->shape, "%s", r->shape);
		e->size_then = r->size_then;
		e->size_else = r->size_else;
		e->uniform = r->uniform;
		snprintf(e->why_uniform, sizeof e->why_uniform, "%s", r->why);
		e->decision = BD_PREDICATED;
		e->side_alone = r->alone;
		snprintf(e->rule, sizeof e->rule, "%s", r->rule);
	}
	fold_log(f, first);
	for (int i = first; i < log->n; i++) {
		BeLogEntry *e = &log->e[i];
		be_cost(f->opt, e);
		if (!e->ptxfile)
			e->ptxfile = m->name;
		e->srcname = NULL;
		for (int k = 0; k < m->nfiles && e->srcline; k++)
			if (m->files[k].index == e->srcfile)
				e->srcname = m->files[k].name;
	}
	if (log->n - first > 1)
		qsort(log->e + first, (size_t)(log->n - first), sizeof log->e[0], by_line);
}

/* the branches cfold.c folded away (Fn.kbra), once each: a test of constants, as ptxas
 * deletes it */
static void cfold_log(Fn *f)
{
	static const char *const why[] = {
		[BE_KB_NEVER] = "never taken: its predicate is a constant (false); folded away",
		[BE_KB_ALWAYS] = "always taken: its predicate is a constant (true); folded away, a jump",
		[BE_KB_MEET] = "its two ways meet at once past blocks constant folding emptied: a jump",
		[BE_KB_DEAD] = "unreachable: a branch on a constant before it leaves no path here",
	};
	const PFunc *pf = f->pf;

	for (int i = 0; i < f->nkbra; i++) {
		const BeKBra *k = &f->kbra[i];
		const PIns *in = &pf->ins[k->ptxins];
		BeLogEntry *e;
		int dup = !be_is_branch(in);
		for (int j = 0; j < i && !dup; j++)
			dup = f->kbra[j].ptxins == k->ptxins;
		if (dup)
			continue;
		e = log_add(f->log);
		log_at(f, e, k->ptxins);
		e->size_then = e->size_else = -1;
		e->uniform = 1;
		snprintf(e->why_uniform, sizeof e->why_uniform, "a constant");
		e->decision = BD_FOLDED;
		snprintf(e->shape, sizeof e->shape, "folded");
		snprintf(e->rule, sizeof e->rule, "%s", why[k->how]);
	}
}

void be_log_branches(Fn *f)
{
	const PFunc *pf = f->pf;
	int first;

	if (!f->log)
		return;
	first = f->log->n;
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = &f->blk[i];
		BeLogEntry *e;
		const PIns *in;
		if (b->dead || b->jmp.ptxins < 0 || b->jmp.nest ||
		    (b->jmp.kind != J_BRA && !b->jmp.folded && b->jmp.kind != J_BRX))
			continue;   /* (a ret-nest's or one-side's branch is logged as predicated,
			               from its record) */
		in = &pf->ins[b->jmp.ptxins];
		if (!be_is_branch(in))
			continue;   /* a jump (an indirect bra is logged) */
		e = log_add(f->log);
		log_at(f, e, b->jmp.ptxins);
		e->size_then = e->size_else = -1;
		e->uniform = !b->jmp.div;
		snprintf(e->why_uniform, sizeof e->why_uniform, "%s", b->why);
		if (b->jmp.folded == 2) {
			e->decision = BD_RET;
			snprintf(e->shape, sizeof e->shape, "ret");
			snprintf(e->rule, sizeof e->rule, "the target only returns: guarded RET");
		} else if (be_kept_back(b)) {
			int div = f->preduni && in->guard >= 0 && f->preduni[in->guard];
			e->decision = div ? BD_BRANCH_NOSYNC : BD_BRANCH_UNIFORM;
			snprintf(e->shape, sizeof e->shape, "loop-exit");
			snprintf(e->rule, sizeof e->rule, "the back edge stays, the way out only ends the "
			         "thread: @P BRA to the head, then EXIT; no token%s", div ? ": the lanes "
			         "that leave at a divergent trip wait on its DIV token" : "");
		} else if (b->jmp.folded) {
			e->decision = BD_EXIT;
			snprintf(e->shape, sizeof e->shape, "exit");
			snprintf(e->rule, sizeof e->rule, "the %s only ends the thread: guarded EXIT",
			         b->jmp.folded == 4 ? "fall-through" : "target");
		} else if (!b->jmp.div) {
			e->decision = BD_BRANCH_UNIFORM;
			snprintf(e->shape, sizeof e->shape, "%s", b->jmp.kind == J_BRX ? "indirect" : "branch");
			snprintf(e->rule, sizeof e->rule, "uniform branch: no reconvergence needed");
		} else if (b->ipdom < 0 || b->ipdom >= f->nblk) {
			e->decision = BD_BRANCH_NOSYNC;
			snprintf(e->shape, sizeof e->shape, "diverging-exits");
			snprintf(e->rule, sizeof e->rule, "paths never meet again (ipdom is the exit)");
		} else if (b->tjoin >= 0 && be_has_push(b, b->tjoin)) {
			/* pbk.c's be_trip_join: a side breaks out of the loop past the SSY */
			const Blk *x = &f->blk[b->tjoin];
			e->decision = BD_BRANCH_SSY;
			snprintf(e->shape, sizeof e->shape, "loop-break");
			snprintf(e->rule, sizeof e->rule, "SSY every trip at the join inside the loop "
			         "(PTX line %d); the breaking side leaves with BRK past it to the loop's PBK",
			         x->pfirst >= 0 && x->pfirst < pf->nins ? pf->ins[x->pfirst].loc.line : 0);
		} else {
			/* (a break to a be_trip_join loop's PBK target that post-dominators do not see) */
			int j = b->brkj >= 0 ? b->brkj : b->ipdom, pushed = be_has_push(b, j);
			e->decision = pushed ? BD_BRANCH_SSY : BD_BRANCH_SHARED;
			if (!pushed)
				for (int k = 0; k < f->nblk; k++)
					for (int q = 0; q < f->blk[k].npush; q++)
						if (f->blk[k].push[q] == j && f->blk[k].s1 >= 0 &&
						    f->blk[k].nins == 0 && k != i)
							e->decision = BD_LOOP_SSY;
			snprintf(e->shape, sizeof e->shape, "%s",
			         b->loop >= 0 && !be_in_loop(f, b->loop, j) ? "loop-exit" :
			         b->jmp.kind == J_BRX ? "indirect" :
			         b->s2 == j || b->s1 == j ? "if-then" : "if-then-else");
			snprintf(e->rule, sizeof e->rule, "%s",
			         e->decision == BD_BRANCH_SSY ? (f->blk[j].brk ?
			         "PBK at the immediate post-dominator; arrivals leave with BRK" :
			         "SSY at the immediate post-dominator") :
			         e->decision == BD_LOOP_SSY ? (f->blk[j].brk ?
			         "PBK before the loop; exiting lanes leave with BRK" :
			         "SSY before the loop; exiting lanes arrive with .S") :
			         "shares the enclosing region's SSY (same post-dominator)");
		}
		brkpath_note(f, b, e);
		ifconv_note(f, b->jmp.ptxins, e);
	}
	cfold_log(f);
	ifconv_log(f, first);
}

void be_log_free(BeLog *log)
{
	free(log->e);
	log->e = NULL;
	log->n = log->cap = 0;
}
