/* ifconv.c - if-conversion (predication) of short hammocks, ptxas style.
 *
 * be_ifconv: needs isel, fold_exits, dom, postdom, loops, uniform; breaks dom, postdom and
 * loops (it recomputes them after every conversion, so they hold on return).
 *
 * The hammocks (if-then, if/else, a side that exits or returns, ret-nest, one-side) and what
 * keeps a side from conversion are hammock.c's (be_examine); this file decides and converts.
 * Inner hammocks go first (reverse RPO); after a conversion A jumps to J, and J, when A is
 * now its only predecessor, is merged into A, so an enclosing side becomes one block again.
 *
 * Cost = microcode instructions of the sides (after selection: a 64-bit add counts 2), plus
 * the EXIT of a side that ends the thread (not the RET of one that returns: ptxas predicates
 * ret_div_7, a side of 7 and the move of the return value, our st.param's STL); the jumps that end the side's blocks (PTX's
 * bra.uni to the join, a fall into the next label) are not counted: they disappear.
 * Converted when cost <= --predicate-max (branch may diverge) or --predicate-max-uniform
 * (uniform branch) — the CUDA C Programming Guide 4.x rule for ptxas; --predicate-rule sm35
 * (kepler.cfg) counts as ptxas 11.8 does for sm_35 instead (hammock.c's sm35_cost).
 *
 * Guards: every side instruction takes the side's guard; one already guarded takes the AND
 * of both through `PSETP.AND.AND c, PT, side, own, PT` just before it (reused while neither
 * predicate changes). When a side writes the branch predicate, it is copied first. A
 * guarded definition of a temporary used only inside the side, defined before any read
 * there, is marked gkill (regalloc starts a new live range: lanes with a false guard never
 * read it). Predicated loads and stores make no memory access on false lanes (docs/isa.md).
 */
#include <string.h>
#include "backend/be.h"

enum { NPRED_REGS = ISA_NPREDS };  /* P0..P6 */

static void visit_temps(const Fn *f, const int *side, int nside, uint8_t *nl);

/* predicate registers the converted code needs (an estimate before allocation): the branch
 * predicate, the predicates a side shares with the rest of the function, the most
 * side-local ones live at once, one for the PSETP combinations */
static int pred_need(const Fn *f, const Ham *h)
{
	uint8_t *thru = be_alloc(f->pool, (size_t)f->ntmp + 1);
	int need = 1, local = 0;

	thru[f->blk[h->a].jmp.cond] = 1;
	for (int s = 0; s < 2; s++) {
		uint8_t *nl;
		int *first, *last, best = 0, k = 0;
		if (h->side[s] < 0)
			continue;
		nl = be_alloc(f->pool, (size_t)f->ntmp + 1);
		first = be_alloc(f->pool, sizeof(int) * (size_t)(f->ntmp + 1));
		last = be_alloc(f->pool, sizeof(int) * (size_t)(f->ntmp + 1));
		visit_temps(f, h->chain[s], h->nchain[s], nl);
		for (int c = 0; c < h->nchain[s]; c++) {
			const Blk *x = &f->blk[h->chain[s][c]];
			for (int q = 0; q < x->nins; q++, k++)
				for (int i = -1; i < x->ins[q].nopd; i++) {
					const MIns *in = &x->ins[q];
					int t = i < 0 ? in->guard : in->o[i].kind == OPD_PRED ? in->o[i].t : -1;
					if (t < T_FIRST)
						continue;
					if (nl[t] & 3) {
						need += !thru[t];
						thru[t] = 1;
					} else {
						if (!last[t])
							first[t] = k + 1;
						last[t] = k + 1;
					}
				}
		}
		for (int q = 1; q <= k; q++) {
			int live = 0;
			for (int t = T_FIRST; t < f->ntmp; t++)
				live += last[t] && first[t] <= q && q <= last[t];
			if (live > best)
				best = live;
		}
		if (best > local)
			local = best;
	}
	return need + local + (h->ncomb > 0);
}

/* --decide (decide.c): a forced branch stays; a forced predication is done when the hammock
 * can be converted, else it is an error with the rule's reason (*go = -1) */
static int forced(const Fn *f, const Ham *h, const Blk *b, IfRec *r, int *go, const char *cost,
                  const char *opt, const char *ls)
{
	const char *loc = "";
	int want = be_decide_of(f, b->jmp.ptxins, &loc), need;
	const PIns *in = &f->pf->ins[b->jmp.ptxins];

	if (want < 0)
		return 0;
	if (!want) {
		snprintf(r->rule, sizeof r->rule, "kept by --decide %.40s (%s %d, %s %s)", loc, cost,
		         h->cost, opt, ls);
		return 1;
	}
	need = !h->hammock || h->block[0] ? 0 : pred_need(f, h);
	if (!h->hammock || h->block[0] || need > NPRED_REGS) {
		char why[128];
		if (!h->hammock || h->block[0])
			snprintf(why, sizeof why, "%s", h->block[0] ? h->block : "it is not a hammock");
		else
			snprintf(why, sizeof why, "it needs %d predicates (P0..P6)", need);
		fprintf(f->err, "%s:%d:%d: error: --decide %s=pred: the branch cannot be predicated: "
		        "%s\n", ptx_loc_name(f->m, in->loc), in->loc.line, in->loc.col, loc, why);
		*go = -1;
		return 1;
	}
	snprintf(r->rule, sizeof r->rule, "predicated by --decide %.40s (%s %d, %s %s)", loc, cost,
	         h->cost, opt, ls);
	r->predicated = 1;
	*go = 1;
	return 1;
}

static void decide_rule(const Fn *f, const Ham *h, const Blk *b, IfRec *r, int *go)
{
	/* a side with a load it addresses is held to the divergent limit under a uniform branch
	 * too: ptxas 11.8's limit for it is 19 of its instructions either way (ifrule.c) */
	int div = b->jmp.div, dlim = div || h->loadside;
	int lim = dlim ? f->opt->predicate_max : f->opt->predicate_max_uniform;
	const char *opt = dlim ? "--predicate-max" : "--predicate-max-uniform";
	const char *cost = f->opt->predicate_rule == BE_RULE_SM35 ? "larger side" : "cost";
	char ls[16];
	int need;

	*go = 0;
	memset(r, 0, sizeof *r);
	r->ptxins = b->jmp.ptxins;
	snprintf(r->shape, sizeof r->shape, "%s", h->shape);
	r->size_then = h->size[0];
	r->size_else = h->size[1];
	r->uniform = !div;
	r->alone = h->nest;
	if (!div || !be_why_divergent(f, f->pf->ins[b->jmp.ptxins].guard, r->why, sizeof r->why))
		snprintf(r->why, sizeof r->why, "%s", b->why);
	if (lim < 0)
		snprintf(ls, sizeof ls, "inf");
	else
		snprintf(ls, sizeof ls, "%d", lim);
	if (forced(f, h, b, r, go, cost, opt, ls))
		return;
	if (h->block[0]) {
		snprintf(r->rule, sizeof r->rule, "not predicable: %s", h->block);
		return;
	}
	if (lim >= 0 && h->cost > lim) {
		snprintf(r->rule, sizeof r->rule, "%s %d > %s %s%s%s%s", cost, h->cost, opt, ls,
		         h->note[0] ? " (" : "", h->note, h->note[0] ? ")" : "");
		return;
	}
	need = pred_need(f, h);
	if (need > NPRED_REGS) {
		snprintf(r->rule, sizeof r->rule, "%s %d <= %s %s, but needs %d predicates (P0..P6)",
		         cost, h->cost, opt, ls, need);
		return;
	}
	snprintf(r->rule, sizeof r->rule, "%s %d <= %s %s%s%s%s%s", cost, h->cost, opt, ls,
	         h->note[0] ? " (" : "", h->note, h->note[0] ? ")" : "",
	         h->ncomb ? " (nested guards ANDed with PSETP)" : "");
	r->predicated = 1;
	*go = 1;
}

/* decides whether hammock h of branch b is converted (*go 1; -1 on a --decide error) into r.
 * A ret-nest's record says what was done with each side: the taken side, the early return,
 * with its own size (its instructions before the RET, as an if-then-ret's side counts; it was
 * 0), and the fall-through side counted, and predicated, alone with its jump */
static void decide(const Fn *f, const Ham *h, const Blk *b, IfRec *r, int *go)
{
	size_t n;
	int early = 0;

	decide_rule(f, h, b, r, go);
	if (!h->nest || h->one || *go < 0)
		return;
	for (int c = 0; c < h->nearly; c++)
		early += f->blk[h->early[c]].nins;
	r->size_then = early;
	n = strlen(r->rule);
	snprintf(r->rule + n, sizeof r->rule - n, "; taken side returns early (%d instruction%s, "
	         "then RET): %s", early, early == 1 ? "" : "s", *go ?
	         "fall-through side predicated alone, with its jump, the branch kept over the taken side" :
	         "fall-through side counted alone, with its jump");
}

/* ------------------------------------------------------------------ the rewrite */
static MIns psetp(int d, int a, int an, int c, int cn)
{
	MIns x;

	memset(&x, 0, sizeof x);
	x.op = OP_PSETP;
	x.guard = T_PT;
	x.m.bop = BOP_AND;
	x.m.bop2 = BOP_AND;
	x.nopd = 5;
	x.o[0] = be_p(d);
	x.o[1] = be_p(T_PT);
	x.o[2] = be_pn(a, an);
	x.o[3] = be_pn(c, cn);
	x.o[4] = be_p(T_PT);
	x.srcfile = -1;
	return x;
}

/* marks the temporaries block b references in nl (visit_temps' bits): 1 when b is outside
 * the side, else 2 for a read before any write in the side, 4 for a write */
static void blk_temps(const Blk *b, int inside, uint8_t *nl)
{
	for (int k = 0; k < b->nins; k++) {
		const MIns *in = &b->ins[k];
		const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
		for (int pass = 0; pass < 2; pass++)  /* reads, then writes */
			for (int i = -1; i < in->nopd; i++) {
				const MOpd *o = i >= 0 ? &in->o[i] : NULL;
				int t = o ? o->t : in->guard;
				int dst = o && i < si->n && si->dst[i] && !o->part &&
				          (o->kind == OPD_REG || o->kind == OPD_PRED);
				if (o && o->kind != OPD_REG && o->kind != OPD_PRED && o->kind != OPD_MEM &&
				    o->kind != OPD_CONST)
					continue;
				if (dst != pass || t < T_FIRST)
					continue;
				if (!inside)
					nl[t] |= 1;
				else if (dst)
					nl[t] |= 4;
				else if (!(nl[t] & 4))
					nl[t] |= 2;
			}
	}
}

/* per temporary: 1 referenced outside the side (the blocks side[0..nside), straight-line
 * code in that order), 2 read in the side before written there, 4 written in the side */
static void visit_temps(const Fn *f, const int *side, int nside, uint8_t *nl)
{
	uint8_t *in_side = be_alloc(f->pool, (size_t)f->nblk + 1);

	for (int c = 0; c < nside; c++)
		in_side[side[c]] = 1;
	for (int bi = 0; bi < f->nblk; bi++) {
		const Blk *b = &f->blk[bi];
		if (b->dead)
			continue;
		if ((b->jmp.kind == J_BRA || b->jmp.kind == J_BRX) && b->jmp.cond >= 0)
			nl[b->jmp.cond] |= 1;
		if (!in_side[bi])
			blk_temps(b, 0, nl);
	}
	for (int c = 0; c < nside; c++)
		if (!f->blk[side[c]].dead)
			blk_temps(&f->blk[side[c]], 1, nl);
}

/* appends side x of hammock h to out with guard (g, gn) */
static void guard_side(Fn *f, int x, int g, int gn, MIns **out, int *nout, int *cap)
{
	Blk *b = &f->blk[x];
	uint8_t *nl = be_alloc(f->pool, (size_t)f->ntmp + 1);
	int cg = -1, cgn = 0, comb = -1;

	visit_temps(f, &x, 1, nl);
	for (int k = 0; k < b->nins; k++) {
		MIns in = b->ins[k];
		const ShapeInfo *si = isa_shape(isa_ops[in.op].shape);
		if (in.guard == T_PT) {
			int kill = 1, any = 0;
			for (int i = 0; i < in.nopd && i < si->n; i++)
				if (si->dst[i] && (in.o[i].kind == OPD_REG || in.o[i].kind == OPD_PRED) &&
				    in.o[i].t >= T_FIRST) {
					any = 1;
					kill &= !(nl[in.o[i].t] & 3) && !in.o[i].part;
				}
			in.gkill = (uint8_t)(any && kill);
			in.guard = g;
			in.gneg = (uint8_t)gn;
		} else {
			if (in.guard != cg || in.gneg != cgn) {
				MIns p;
				cg = in.guard, cgn = in.gneg;
				comb = be_newtmp(f, TC_P);
				p = psetp(comb, g, gn, cg, cgn);
				p.ptxline = in.ptxline, p.srcline = in.srcline, p.srcfile = in.srcfile;
				*VPUSH(f->pool, *out, *nout, *cap) = p;
			}
			in.guard = comb;
			in.gneg = 0;
			in.gkill = 0;
		}
		*VPUSH(f->pool, *out, *nout, *cap) = in;
		if (cg >= 0 && (be_writes(&in, cg) || be_writes(&in, g)))
			cg = -1;
	}
}

/* empties block y: no instructions, no jump, no successors */
static void clear_blk(Blk *y)
{
	y->s1 = y->s2 = -1;
	y->nins = 0;
	y->jmp.kind = J_NONE;
	y->jmp.ptxins = -1;
}

/* x takes over block y, entered only from x: y's instructions after its own, y's jump
 * and successors (the jump between them disappears); y dies */
static void absorb(Fn *f, Blk *x, Blk *y)
{
	for (int k = 0; k < y->nins; k++)
		*VPUSH(f->pool, x->ins, x->nins, x->cap) = y->ins[k];
	x->jmp = y->jmp;
	x->s1 = y->s1;
	x->s2 = y->s2;
	memcpy(x->why, y->why, sizeof x->why);
	y->dead = 1;
	clear_blk(y);
}

/* the order, dominators, post-dominators and loops again, after a conversion changed the
 * blocks and their edges (and be_preds their predecessors) */
static void reanalyse(Fn *f)
{
	be_rpo(f);
	be_dom(f);
	be_postdom(f);
	be_loops(f);
}

/* the rest of a ret-nest's conversion (convert): block a holds its code and the guarded
 * side out; the branch stays, inverted (guard c, negated !cn), its taken lanes going on to
 * the join and the others falling into the early return, folded into one block laid out
 * right after a (ptxas's `@P BRK` or `@P BRA` to the join, then the early path). A
 * one-side's other lanes fall into the long side instead, laid out after a; when its
 * predicated side is the taken one (the fall-through breaks out of the loop), the branch
 * stays as it was (guard c, cn) to the join, over the fall-through side. A divergent
 * branch whose join is not its immediate post-dominator (a ret-nest's: the early path never
 * gets there) marks the join for sync.c's PBK; a one-side's join is that post-dominator, or
 * the join in the loop's trip that the long side reaches or breaks past (pbk.c's
 * be_trip_join pushes its SSY), so the branch is an if-then of the long side for sync.c, its
 * SSY or the enclosing PBK the join's; or a join inside the region (hammock.c's inner_join),
 * which the branch reaches as any divergent branch does, within its post-dominator's SSY */
static void convert_nest(Fn *f, const Ham *h, int c, int cn, MIns *out, int nout, int cap)
{
	Blk *a = &f->blk[h->a];
	int side = h->side[1] >= 0;   /* the side predicated: the fall-through, or one-side's taken */
	int e = side ? a->s1 : a->s2;  /* the other: the early return's first block, or one-side's long side */

	for (int k = 1; k < h->nearly; k++)
		absorb(f, &f->blk[e], &f->blk[h->early[k]]);
	a->ins = out;
	a->nins = nout;
	a->cap = cap;
	a->jmp.cond = c;
	a->jmp.neg = (uint8_t)(side ? !cn : cn);
	a->jmp.nest = 1;
	a->s1 = h->join;
	a->s2 = e;
	a->predicated = 1;
	clear_blk(&f->blk[h->side[side]]);
	if (a->jmp.div && h->join != a->ipdom && !h->one)
		f->blk[h->join].retjoin = 1;
	be_lay_move(f, e, h->a, 1);
	be_preds(f);
	reanalyse(f);
}

static void convert(Fn *f, const Ham *h)
{
	Blk *a = &f->blk[h->a];
	int c = a->jmp.cond, cn = a->jmp.neg;
	MIns *out = NULL;
	int nout = 0, cap = 0, next;

	f->ifmemo_ok = 0;       /* (ifrule.c's memo of the code as it was) */

	/* a side chain folded into its first block */
	for (int s = 0; s < 2; s++)
		for (int k = 1; h->side[s] >= 0 && k < h->nchain[s]; k++)
			absorb(f, &f->blk[h->chain[s][0]], &f->blk[h->chain[s][k]]);
	for (int k = 0; k < a->nins; k++)
		*VPUSH(f->pool, out, nout, cap) = a->ins[k];
	for (int s = 0; s < 2; s++)
		for (int k = 0; h->side[s] >= 0 && k < f->blk[h->side[s]].nins; k++)
			if (be_writes(&f->blk[h->side[s]].ins[k], c)) {
				int nc = be_newtmp(f, TC_P);
				MIns p = psetp(nc, c, cn, T_PT, 0);
				p.ptxline = out && nout ? out[nout - 1].ptxline : 0;
				*VPUSH(f->pool, out, nout, cap) = p;
				c = nc, cn = 0;
				s = 2;
				break;
			}
	for (int s = 0; s < 2; s++) {
		int gn = s == 0 ? cn : !cn;
		if (h->side[s] < 0)
			continue;
		guard_side(f, h->side[s], c, gn, &out, &nout, &cap);
		if (h->exitside == s) {
			MIns e;
			memset(&e, 0, sizeof e);
			e.op = h->retside ? OP_RET : OP_EXIT;
			e.guard = c;
			e.gneg = (uint8_t)gn;
			e.ptxline = f->pf->ins[a->jmp.ptxins].loc.line;
			e.srcfile = -1;
			*VPUSH(f->pool, out, nout, cap) = e;
		}
		f->blk[h->side[s]].dead = 1;
	}
	if (h->nest) {
		convert_nest(f, h, c, cn, out, nout, cap);
		return;
	}
	next = h->exitside >= 0 ? (h->exitside == 0 ? a->s2 : a->s1) : h->join;
	a->ins = out;
	a->nins = nout;
	a->cap = cap;
	a->jmp.kind = J_JMP;
	a->jmp.ptxins = -1;
	a->jmp.div = 0;
	a->jmp.folded = 0;
	a->s1 = next;
	a->s2 = -1;
	a->predicated = 1;
	be_preds(f);
	/* the join now has A as its only predecessor: one straight-line block */
	if (next > 0 && f->blk[next].npred == 1 && next != h->a)
		absorb(f, a, &f->blk[next]);
	for (int s = 0; s < 2; s++)
		if (h->side[s] >= 0)
			clear_blk(&f->blk[h->side[s]]);
	reanalyse(f);
}

static IfRec *add_rec(Fn *f)
{
	return VPUSH(f->pool, f->ifrec, f->nifrec, f->capifrec);
}

/* a branch fold_exits already made a guarded EXIT or RET: its uniformity, for the log; -1
 * when --decide names one (a guarded EXIT is neither predication nor a branch) */
static int note_folded(Fn *f)
{
	const char *loc = "";

	for (int i = 0; i < f->nblk; i++) {
		const Blk *b = &f->blk[i];
		const PIns *in;
		IfRec *r;
		if (b->dead || !b->jmp.folded || b->jmp.ptxins < 0)
			continue;
		in = &f->pf->ins[b->jmp.ptxins];
		if (in->op != PO_BRA || in->guard < 0)
			continue;
		if (be_decide_of(f, b->jmp.ptxins, &loc) >= 0) {
			fprintf(f->err, "%s:%d:%d: error: --decide %s: the branch only %s and became a "
			        "guarded %s; neither decision applies\n", ptx_loc_name(f->m, in->loc),
			        in->loc.line, in->loc.col, loc, b->jmp.folded == 2 ? "returns" : "ends the thread",
			        b->jmp.folded == 2 ? "RET" : "EXIT");
			return -1;
		}
		r = add_rec(f);
		memset(r, 0, sizeof *r);
		r->ptxins = b->jmp.ptxins;
		snprintf(r->shape, sizeof r->shape, "%s", b->jmp.folded == 2 ? "ret" : "exit");
		r->size_then = r->size_else = -1;
		r->uniform = f->preduni ? !f->preduni[in->guard] : 0;
		if (r->uniform || !be_why_divergent(f, in->guard, r->why, sizeof r->why))
			snprintf(r->why, sizeof r->why, "%.40s is %s", f->pf->regs[in->guard].name,
			         r->uniform ? "uniform" : "divergent");
	}
	return 0;
}

/* when branch b's if/else stays whole (h, and r when decide ran on it, whole: 1): whether
 * its one-sided hammock (one_side) is converted, decided into r, h becoming that hammock.
 * The record says what was done and why: the taken side's own size (-1 when it is no
 * straight-line side), why the if/else was not predicated whole, and that the fall-through
 * side (or, when the fall-through breaks out of the loop, the taken side) was predicated
 * alone (r->alone). Not for a branch --decide names (that decides the
 * if/else), so decide's forced, its only error, never applies here */
static int one_tried(const Fn *f, const Blk *b, Ham *h, IfRec *r, int whole)
{
	const char *loc = "";
	char why[sizeof r->rule];
	int go = 0, taken;

	if (f->opt->predicate_rule != BE_RULE_SM35 || be_decide_of(f, b->jmp.ptxins, &loc) >= 0)
		return 0;
	taken = h->hammock && h->side[0] >= 0 ? h->size[0] : -1;
	if (whole)
		snprintf(why, sizeof why, "%s", r->rule);
	else
		snprintf(why, sizeof why, "not predicable: %s", h->block);
	be_examine(f, b->id, h, 1);
	if (h->hammock)
		decide(f, h, b, r, &go);
	if (go) {
		/* the taken side alone when the fall-through breaks out of the loop (breaks_past) */
		int taken_alone = h->side[0] >= 0;
		char alone[sizeof r->rule];
		const char *c = r->rule;
		if (!strncmp(c, "larger side ", 12))
			c += 12;
		snprintf(alone, sizeof alone, "%s", c);
		if (snprintf(r->rule, sizeof r->rule, "whole if/else kept (%s); %s side predicated "
		             "alone (%s, with its jump), the branch kept over the %s",
		             why, taken_alone ? "taken" : "fall-through", alone,
		             taken_alone ? "fall-through side, which breaks" : "taken side") >=
		    (int)sizeof r->rule)
			memcpy(r->rule + sizeof r->rule - 4, "...", 4);   /* (no reason is that long) */
		if (taken_alone)
			r->size_else = -1;
		else
			r->size_then = taken;
		r->alone = taken_alone ? 2 : 1;
	}
	return go;
}

int be_ifconv(Fn *f)
{
	int again = 1;
	int *ord = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));

	if (note_folded(f) < 0)
		return -1;
	f->ifmemo_ok = 0;

	while (again) {
		int n = 0;
		again = 0;
		for (int i = 0; i < f->nblk; i++)
			if (!f->blk[i].dead && f->blk[i].rpo >= 0) {
				ord[f->blk[i].rpo] = i;
				if (f->blk[i].rpo + 1 > n)
					n = f->blk[i].rpo + 1;
			}
		for (int r = n - 1; r >= 0 && !again; r--) {
			Blk *b = &f->blk[ord[r]];
			Ham h;
			IfRec rec;
			int go;
			if (!be_ptx_branch(f, b))
				continue;
			be_examine(f, b->id, &h, 0);
			go = 0;
			if (h.hammock)
				decide(f, &h, b, &rec, &go);
			if (go < 0)
				return -1;
			if (!go)
				go = one_tried(f, b, &h, &rec, h.hammock);
			if (go) {
				*add_rec(f) = rec;
				convert(f, &h);
				again = 1;
			}
		}
	}
	/* the branches that stay, as they finally are */
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = &f->blk[i];
		Ham h;
		int go;
		IfRec one;
		if (!be_ptx_branch(f, b))
			continue;
		be_examine(f, i, &h, 0);
		decide(f, &h, b, add_rec(f), &go);
		if (go < 0)
			return -1;
		if (go || one_tried(f, b, &h, &one, 0))
			die("a convertible hammock was left");
	}
	return 0;
}
