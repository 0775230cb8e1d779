/* ifconv.c - if-conversion (predication) of short hammocks, ptxas style.
 *
 * be_ifconv: needs isel, fold_exits, dom, postdom, loops, uniform; breaks dom, postdom and
 * loops (it recomputes them after every conversion, so they hold on return).
 *
 * A conditional PTX branch in block A is a hammock when its sides are straight-line code
 * entered only from A that ends in a plain jump to a common join J (if-then-else), or one
 * side is J itself (if-then), or a side ends the thread (EXIT). A side is a chain of blocks
 * each entered only from the one before and left by an unconditional jump: nvcc's
 * `@p bra A; bra.uni B;` puts an empty block holding the bra.uni in front of a side, and a
 * side may fall into a label of its own; the chain is folded into one block when the
 * branch is converted. Inner hammocks go first (reverse RPO); after a conversion A jumps
 * to J, and J, when A is now its only predecessor, is merged into A, so an enclosing side
 * becomes one block again. Under --early-return guarded (kepler.cfg) a side of a .func that
 * ends in its return is such a side too (if-then-ret): converted, it ends in a guarded RET
 * (emit.c restores the saved registers under the guard), as ptxas 11.8 for sm_35 returns
 * from a short fall-through side (tests/ptxas-ref/families/ret_div). And when the branch's
 * target is what returns, inside an if/else whose join the fall-through side jumps to
 * (ret-nest), that side alone is the hammock: converted, it is guarded by the inverted
 * condition and the branch stays, inverted, to the join (`@!P BRK` to sync.c's PBK when
 * divergent, `@!P BRA` when uniform), the early path laid out after it (ret_nest). Under
 * --predicate-rule sm35 an if/else too long to predicate whole has its short fall-through
 * side converted the same way (one-side), the long taken side after it (one_side).
 *
 * Cost = microcode instructions of the sides (after selection: a 64-bit add counts 2), plus
 * the EXIT of a side that ends the thread (not the RET of one that returns: ptxas predicates
 * ret_div_7, a side of 7 and the move of the return value, our st.param's STL); the jumps that end the side's blocks (PTX's
 * bra.uni to the join, a fall into the next label) are not counted: they disappear.
 * Converted when cost <= --predicate-max (branch may diverge) or --predicate-max-uniform
 * (uniform branch) — the CUDA C Programming Guide 4.x rule for ptxas; --predicate-rule sm35
 * (kepler.cfg) counts as ptxas 11.8 does for sm_35 instead (sm35_cost). A side blocks
 * conversion when it holds something that cannot be guarded or must not be: an op without
 * F_PRED, a barrier, a call, a warp-wide op (shfl, vote, match, redux: its result depends on
 * which lanes take part), the shared-memory lock loop, a guarded EXIT of its own, a return;
 * a side that is not straight-line code holds control flow (a loop, a branch that stayed,
 * an indirect branch) or is entered from other paths too (a switch's shared case).
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

/* what one conditional branch is */
typedef struct {
	int a;            /* branch block */
	int side[2];      /* [0] taken side, [1] fall-through side; -1 when the side is the join */
	int *chain[2];    /* the blocks of each side in order (chain[s][0] == side[s]) */
	int nchain[2];    /* their number, 0 when the side is the join */
	int exitside;     /* 0/1: that side ends the thread (EXIT appended) or returns (RET), -1 */
	int retside;      /* exitside returns from the .func (--early-return guarded) */
	int join;         /* common join, -1 for an exit hammock */
	int cost;         /* guarded instructions */
	int size[2];      /* instructions of each side */
	int ncomb;        /* PSETPs needed for already-guarded instructions */
	int loadside;     /* sm35: a side computes the address of a global load it makes */
	int hammock;      /* single entry, single exit, straight-line sides */
	int nest;         /* ret-nest: the taken side returns, the fall-through side (side[1])
	                     jumps to a join other paths reach too */
	int *early;       /* ret-nest: the blocks of the taken side (the early return) */
	int nearly;
	int one;          /* one-side: the fall-through side alone (side[1], a nest whose
	                     taken side is the long side of an if/else, early NULL) */
	char shape[24];
	char block[96];   /* what prevents conversion, "" if nothing */
	char note[112];   /* sm35: what of the larger side ptxas's count leaves out (ifrule.c) */
} Ham;

static const PIns *ptx_branch(const Fn *f, const Blk *b)
{
	const PIns *in;

	if (b->dead || b->jmp.kind != J_BRA || b->jmp.ptxins < 0 || b->jmp.lock || b->jmp.nest)
		return NULL;
	in = &f->pf->ins[b->jmp.ptxins];
	return in->op == PO_BRA && in->guard >= 0 ? in : NULL;
}

/* the block ends the path: EXIT, or RET under --early-return guarded */
static int ends_path(const Fn *f, const Blk *b)
{
	return b->jmp.kind == J_EXIT ||
	       (b->jmp.kind == J_RET && f->opt->early_return == BE_RET_GUARDED);
}

/* the side of a that starts at x: the chain of blocks x, y, ... each entered only from the
 * one before (x only from a), not the entry, joined by plain jumps, the last one ending in a
 * plain jump or ending the path (ends_path); fills chain (f->nblk entries) and returns its
 * length, 0 when x is not such a side */
static int side_chain(const Fn *f, int a, int x, int *chain)
{
	int n = 0, cur = x;

	if (x <= 0 || x == a || x >= f->nblk || f->blk[x].npred != 1 || f->blk[x].pred[0] != a)
		return 0;
	for (;;) {
		const Blk *b = &f->blk[cur];
		int y = b->s1;
		chain[n++] = cur;
		if (ends_path(f, b))
			return n;
		if (b->jmp.kind != J_JMP || b->jmp.folded || y == a || y == x || y < 0)
			return 0;
		if (y == 0 || y >= f->nblk || f->blk[y].npred != 1 || n >= f->nblk)
			return n;  /* y is the join (or something else: the caller sees where it goes) */
		cur = y;
	}
}

/* where a side chain ends: its last block's jump target, -1 for EXIT (RET) */
static int chain_next(const Fn *f, const int *chain, int n)
{
	const Blk *b = &f->blk[chain[n - 1]];
	return ends_path(f, b) ? -1 : b->s1;
}

static int chain_exits(const Fn *f, const int *chain, int n)
{
	return n > 0 && ends_path(f, &f->blk[chain[n - 1]]);
}

/* skips empty blocks that only jump on (nvcc's lone bra.uni) */
static int skip_empty(const Fn *f, int x)
{
	for (int k = 0; x >= 0 && x < f->nblk && k < f->nblk; k++) {
		const Blk *b = &f->blk[x];
		if (b->nins || b->jmp.kind != J_JMP || b->jmp.folded || b->s1 == x)
			break;
		x = b->s1;
	}
	return x;
}

/* why instruction in cannot be guarded in a side, or NULL. A BAR.SYNC or BAR.ARV can under
 * the sm35 rule, as ptxas 11.8 guards it (bar_div): the SM model's guarded BAR with no lane
 * true does not arrive, and a warp with some lanes true arrives whole, as it does when
 * those lanes reach the BAR by a branch */
static const char *unpredicable(const Fn *f, const MIns *in)
{
	const OpInfo *oi = &isa_ops[in->op];

	if ((oi->flags & F_BARRIER) && (in->op != OP_BAR || f->opt->predicate_rule != BE_RULE_SM35))
		return "a barrier";
	if (in->op == OP_CAL || in->op == OP_JCAL)
		return "a call";
	if (in->op == OP_SHFL || in->op == OP_VOTE || in->op == OP_MATCH || in->op == OP_REDUX)
		return "a warp-wide op";
	if (in->op == OP_LDSLK || in->op == OP_STSUL)
		return "the shared-memory lock loop";
	if (in->op == OP_EXIT || in->op == OP_RET)
		return "an early exit";
	if (!(oi->flags & F_PRED) || (oi->flags & (F_BRANCH | F_PUSH)))
		return oi->name;
	return NULL;
}

static int writes(const MIns *in, int t)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);

	for (int i = 0; i < in->nopd && i < si->n; i++)
		if (si->dst[i] && (in->o[i].kind == OPD_REG || in->o[i].kind == OPD_PRED) && in->o[i].t == t)
			return 1;
	return 0;
}

/* the first PTX line of block x (its first instruction from PTX), 0 when unknown */
static int blk_line(const Fn *f, int x)
{
	const Blk *b = &f->blk[x];

	for (int k = 0; k < b->nins; k++)
		if (b->ins[k].ptxline > 0)
			return b->ins[k].ptxline;
	if (b->jmp.ptxins >= 0)
		return f->pf->ins[b->jmp.ptxins].loc.line;
	return b->pfirst >= 0 && b->pfirst < f->pf->nins ? f->pf->ins[b->pfirst].loc.line : 0;
}

/* why the side of branch block a that starts at x cannot be predicated, looking at the
 * region from x up to (not through) the join stop; writes out and returns 1, or 0 when
 * nothing in the region prevents it. In order: a loop, an instruction that cannot be
 * guarded, a return, an indirect branch, a conditional branch that stayed, a block that
 * other paths enter too (a switch's shared case: if-conversion needs a side of its own). */
static int region_blocker(const Fn *f, int a, int x, int stop, const char *side, char *out,
                          size_t n)
{
	int *stk = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));
	uint8_t *seen = be_alloc(f->pool, (size_t)f->nblk + 1);
	int sp = 0, loop = 0, ret = 0, brline = 0, brx = 0, shared = -1;
	const char *why = NULL, *brxop = "";   /* brx.idx, or bra through a register */

	if (x < 0 || x == stop || x >= f->nblk)
		return 0;
	stk[sp++] = x;
	seen[x] = 1;
	while (sp) {
		const Blk *b = &f->blk[stk[--sp]];
		for (int k = 0; k < b->nins && !why; k++)
			why = unpredicable(f, &b->ins[k]);
		loop |= b->loop >= 0 && f->loops[b->loop].header == b->id;
		ret |= b->jmp.kind == J_RET;
		if (!brx && b->jmp.kind == J_BRX) {
			const PIns *in = b->jmp.ptxins >= 0 ? &f->pf->ins[b->jmp.ptxins] : NULL;
			brx = in ? in->loc.line : -1;
			brxop = in ? ptx_ops[in->op].name : "";
		}
		if (!brline && b->jmp.kind == J_BRA)
			brline = b->jmp.ptxins >= 0 ? f->pf->ins[b->jmp.ptxins].loc.line : -1;
		for (int s = 0; s < be_nsucc(b); s++) {
			int y = be_succ(f, b, s);
			if (y >= 0 && y != stop && !seen[y] && y < f->nblk) {
				seen[y] = 1;
				stk[sp++] = y;
			}
		}
	}
	for (int i = 0; i < f->nblk && shared < 0; i++)
		for (int p = 0; seen[i] && p < f->blk[i].npred && shared < 0; p++) {
			int q = f->blk[i].pred[p];
			if (!seen[q] && !(i == x && q == a))
				shared = i;
		}
	if (loop)
		snprintf(out, n, "a side holds a loop");
	else if (why)
		snprintf(out, n, "a side holds %s", why);
	else if (ret)
		snprintf(out, n, "a side returns (RET)");
	else if (brx > 0)
		snprintf(out, n, "a side holds an indirect branch (%s, line %d)", brxop, brx);
	else if (brx)
		snprintf(out, n, "a side holds an indirect branch");
	else if (brline > 0)
		snprintf(out, n, "a side holds a branch that stayed (line %d)", brline);
	else if (brline)
		snprintf(out, n, "a side holds a branch that stayed");
	else if (shared >= 0 && blk_line(f, shared))
		snprintf(out, n, "code on the %s side (line %d) is also entered from other paths", side,
		         blk_line(f, shared));
	else if (shared >= 0)
		snprintf(out, n, "code on the %s side is also entered from other paths", side);
	else
		return 0;
	return 1;
}

static void classify(const Fn *f, const Blk *b, Ham *h)
{
	int j = b->ipdom;

	if (b->loop >= 0) {
		const Loop *L = &f->loops[b->loop];
		if (b->s1 == L->header || b->s2 == L->header) {
			snprintf(h->shape, sizeof h->shape, "loop-back-edge");
			snprintf(h->block, sizeof h->block, "a loop branch is never if-converted");
			return;
		}
		if (!be_in_loop(f, b->loop, b->s1) || !be_in_loop(f, b->loop, b->s2)) {
			snprintf(h->shape, sizeof h->shape, "loop-exit");
			snprintf(h->block, sizeof h->block, "a loop branch is never if-converted");
			return;
		}
	}
	if (j < 0 || j >= f->nblk) {
		snprintf(h->shape, sizeof h->shape, "other");
		snprintf(h->block, sizeof h->block, "the paths never meet again");
		return;
	}
	snprintf(h->shape, sizeof h->shape, skip_empty(f, b->s1) == j || skip_empty(f, b->s2) == j ?
	         "if-then" : "if-then-else");
	if (!region_blocker(f, b->id, b->s1, j, "taken", h->block, sizeof h->block) &&
	    !region_blocker(f, b->id, b->s2, j, "fall-through", h->block, sizeof h->block))
		snprintf(h->block, sizeof h->block, "not a single-entry single-exit region");
}

/* --predicate-rule sm35: the larger side, each with its jump, and what disqualifies a side
 * (ifrule.c) */
static void sm35_cost(const Fn *f, Ham *h)
{
	h->cost = 0;
	h->note[0] = 0;
	for (int s = 0; s < 2; s++) {
		char note[sizeof h->note] = "";
		int c;
		if (h->side[s] < 0)
			continue;
		c = be_ifrule_sm35_side(f, h->chain[s], h->nchain[s], h->size[s],
		                        h->block[0] ? NULL : h->block, sizeof h->block, &h->loadside,
		                        note, sizeof note);
		if (c > h->cost) {
			h->cost = c;
			memcpy(h->note, note, sizeof note);
		}
	}
}

/* the fall-through side kn (cn blocks) goes on by a jump to block nn and holds an
 * instruction: what ret-nest and one-side predicate alone, the branch kept */
static int side_alone(const Fn *f, const int *kn, int cn, int nn)
{
	int size = 0;

	if (!cn || chain_exits(f, kn, cn) || nn <= 0 || nn >= f->nblk)
		return 0;
	for (int c = 0; c < cn; c++)
		size += f->blk[kn[c]].nins;
	return size > 0;
}

/* ptxas 11.8's ret_nest (tests/ptxas-ref/families/ret_nest): in a .func under
 * --early-return guarded, a branch whose target is a path that returns, and whose
 * fall-through side (kn, cn blocks, not empty) goes on by a jump to a join nn that another
 * path (an enclosing if/else's other side) reaches too. ptxas predicates that side alone,
 * counted with its jump, and its lanes leave for the join: by `@P BRK` to a PBK pushed
 * before the enclosing branch when the branch is divergent (so only under --loop-sync pbk),
 * by a guarded BRA when it is uniform; the early path follows for the other lanes */
static int ret_nest(const Fn *f, const Blk *b, const int *kt, int ct, const int *kn, int cn,
                    int nn)
{
	return !f->pf->entry && ct && chain_exits(f, kt, ct) &&
	       f->blk[kt[ct - 1]].jmp.kind == J_RET && side_alone(f, kn, cn, nn) &&
	       f->blk[nn].npred >= 2 && (!b->jmp.div || f->opt->loop_sync == BE_LOOP_PBK);
}

/* marks in seen what x reaches without entering stop or a */
static void reach(const Fn *f, int x, int stop, int a, uint8_t *seen)
{
	int *stk = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));
	int sp = 0;

	if (x < 0 || x >= f->nblk || x == stop || x == a)
		return;
	stk[sp++] = x;
	seen[x] = 1;
	while (sp) {
		const Blk *y = &f->blk[stk[--sp]];
		for (int s = 0; s < be_nsucc(y); s++) {
			int z = be_succ(f, y, s);
			if (z >= 0 && z < f->nblk && z != stop && z != a && !seen[z]) {
				seen[z] = 1;
				stk[sp++] = z;
			}
		}
	}
}

/* the taken side t of branch block a meets the join j only round a cycle through j (code
 * that j reaches again without passing a, as an irreducible loop's entries: ssy_irreducible
 * lines 45 and 73, where ptxas keeps the branch whole): not an if/else */
static int join_cycles(const Fn *f, int a, int t, int j)
{
	uint8_t *side = be_alloc(f->pool, (size_t)f->nblk + 1);
	uint8_t *after = be_alloc(f->pool, (size_t)f->nblk + 1);

	reach(f, t, j, a, side);
	for (int s = 0; s < 2; s++) {
		int z = s ? f->blk[j].s2 : f->blk[j].s1;
		reach(f, z, -1, a, after);
	}
	for (int i = 0; i < f->nblk; i++)
		if (side[i] && after[i])
			return 1;
	return 0;
}

/* ptxas 11.8's one-sided conversion of an if/else (families ifelse1_div, divergence's and
 * mathlib's `@p bra; bra.uni` chains): under --predicate-rule sm35, when the if/else as a
 * whole is not predicated, its fall-through side (kn, cn blocks, not empty) that jumps to
 * the branch's immediate post-dominator nn is predicated alone, counted with its jump, and
 * its lanes leave for nn by the inverted branch (`@P NOP.S` in the SSY region of the
 * branch, `@P BRK` in a PBK region, a guarded BRA when uniform), the taken side following.
 * ptxas never does it for the taken side (it keeps `@!P BRA` over a short taken side). Not
 * when join_cycles holds. nn may be a loop's header (both sides continue a while loop):
 * ptxas rotates the loop and predicates the side alone all the same (tests/ptx/one_side_loop).
 * Tried only under that rule (one_tried) */
static int one_side(const Fn *f, const Blk *b, int t, const int *kn, int cn, int nn)
{
	return side_alone(f, kn, cn, nn) && nn != t && nn == b->ipdom && skip_empty(f, t) != nn &&
	       !join_cycles(f, b->id, t, nn);
}

/* finds the hammock of branch block a, its cost and what blocks it; with one, only the
 * one-sided hammock of its fall-through side (one_side) */
static void examine(const Fn *f, int a, Ham *h, int one)
{
	const Blk *b = &f->blk[a];
	int t = b->s1, n = b->s2, ct, cn, nt, nn;
	int *kt = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));
	int *kn = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));

	memset(h, 0, sizeof *h);
	h->a = a;
	h->side[0] = h->side[1] = h->exitside = h->join = -1;
	h->size[0] = h->size[1] = -1;
	if (b->loop >= 0) {
		const Loop *L = &f->loops[b->loop];
		if (b->s1 == L->header || b->s2 == L->header || !be_in_loop(f, b->loop, b->s1) ||
		    !be_in_loop(f, b->loop, b->s2)) {
			classify(f, b, h);
			return;
		}
	}
	ct = side_chain(f, a, t, kt);
	cn = side_chain(f, a, n, kn);
	nt = ct ? chain_next(f, kt, ct) : -2;
	nn = cn ? chain_next(f, kn, cn) : -2;
	if (one) {
		if (!one_side(f, b, t, kn, cn, nn))
			return;
		h->side[1] = n, h->join = nn, h->nest = 1, h->one = 1;
	} else if (cn && nn == t && !chain_exits(f, kn, cn)) {
		h->side[1] = n, h->join = t;
	} else if (ct && nt == n && !chain_exits(f, kt, ct)) {
		h->side[0] = t, h->join = n;
	} else if (ct && cn && nt >= 0 && nt == nn) {
		h->side[0] = t, h->side[1] = n, h->join = nt;
	} else if (cn && chain_exits(f, kn, cn)) {
		h->side[1] = n, h->exitside = 1;
		h->retside = f->blk[kn[cn - 1]].jmp.kind == J_RET;
	} else if (ct && chain_exits(f, kt, ct) && f->blk[kt[ct - 1]].jmp.kind != J_RET) {
		/* a taken side that returns stays a branch: ptxas predicates the fall-through
		 * code when that is what returns (ret_div), not the branch's target (ret_nest) */
		h->side[0] = t, h->exitside = 0;
	} else if (ret_nest(f, b, kt, ct, kn, cn, nn)) {
		h->side[1] = n, h->join = nn, h->nest = 1, h->early = kt, h->nearly = ct;
	} else {
		classify(f, b, h);
		return;
	}
	h->hammock = 1;
	if (h->side[0] >= 0)
		h->chain[0] = kt, h->nchain[0] = ct;
	if (h->side[1] >= 0)
		h->chain[1] = kn, h->nchain[1] = cn;
	for (int s = 0; s < 2; s++) {
		int g = -1, gn = 0;
		h->size[s] = 0;
		if (h->side[s] < 0)
			continue;
		h->size[s] = h->exitside == s && !h->retside;
		for (int c = 0; c < h->nchain[s]; c++) {
			const Blk *x = &f->blk[h->chain[s][c]];
			h->size[s] += x->nins;
			for (int k = 0; k < x->nins; k++) {
				const MIns *in = &x->ins[k];
				const char *why = unpredicable(f, in);
				if (why && !h->block[0])
					snprintf(h->block, sizeof h->block, "a side holds %s", why);
				if (in->guard != T_PT && (in->guard != g || in->gneg != gn)) {
					h->ncomb++;
					g = in->guard, gn = in->gneg;
				}
				if (g >= 0 && writes(in, g))
					g = -1;
			}
		}
	}
	/* a side with no instruction (absent, or only nvcc's bra.uni) makes an if-then */
	snprintf(h->shape, sizeof h->shape, "%s", h->one ? "one-side" : h->nest ? "ret-nest" :
	         h->exitside >= 0 ? (h->retside ? "if-then-ret" : "if-then-exit") :
	         h->size[0] > 0 && h->size[1] > 0 ? "if-then-else" : "if-then");
	h->cost = h->size[0] + h->size[1];
	if (f->opt->predicate_rule == BE_RULE_SM35)
		sm35_cost(f, h);
}

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
		if (cg >= 0 && (writes(&in, cg) || writes(&in, g)))
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
 * one-side's other lanes fall into the long side instead, laid out after a. A divergent
 * branch whose join is not its immediate post-dominator (a ret-nest's: the early path never
 * gets there) marks the join for sync.c's PBK; a one-side's join is that post-dominator, so
 * the branch is an if-then of the long side for sync.c, its SSY or the enclosing PBK the
 * join's */
static void convert_nest(Fn *f, const Ham *h, int c, int cn, MIns *out, int nout, int cap)
{
	Blk *a = &f->blk[h->a];
	int e = a->s1;   /* the taken side: the early return's first block, or one-side's long side */

	for (int k = 1; k < h->nearly; k++)
		absorb(f, &f->blk[e], &f->blk[h->early[k]]);
	a->ins = out;
	a->nins = nout;
	a->cap = cap;
	a->jmp.cond = c;
	a->jmp.neg = (uint8_t)!cn;
	a->jmp.nest = 1;
	a->s1 = h->join;
	a->s2 = e;
	a->predicated = 1;
	clear_blk(&f->blk[h->side[1]]);
	if (a->jmp.div && h->join != a->ipdom)
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

	/* a side chain folded into its first block */
	for (int s = 0; s < 2; s++)
		for (int k = 1; h->side[s] >= 0 && k < h->nchain[s]; k++)
			absorb(f, &f->blk[h->chain[s][0]], &f->blk[h->chain[s][k]]);
	for (int k = 0; k < a->nins; k++)
		*VPUSH(f->pool, out, nout, cap) = a->ins[k];
	for (int s = 0; s < 2; s++)
		for (int k = 0; h->side[s] >= 0 && k < f->blk[h->side[s]].nins; k++)
			if (writes(&f->blk[h->side[s]].ins[k], c)) {
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
 * side was predicated alone (r->alone). Not for a branch --decide names (that decides the
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
	examine(f, b->id, h, 1);
	if (h->hammock)
		decide(f, h, b, r, &go);
	if (go) {
		char alone[sizeof r->rule];
		const char *c = r->rule;
		if (!strncmp(c, "larger side ", 12))
			c += 12;
		snprintf(alone, sizeof alone, "%s", c);
		snprintf(r->rule, sizeof r->rule, "whole if/else kept (%.86s); fall-through side "
		         "predicated alone (%.56s, with its jump), the branch kept over the taken "
		         "side", why, alone);
		r->size_then = taken;
		r->alone = 1;
	}
	return go;
}

int be_ifconv(Fn *f)
{
	int again = 1;
	int *ord = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));

	if (note_folded(f) < 0)
		return -1;

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
			if (!ptx_branch(f, b))
				continue;
			examine(f, b->id, &h, 0);
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
		if (!ptx_branch(f, b))
			continue;
		examine(f, i, &h, 0);
		decide(f, &h, b, add_rec(f), &go);
		if (go < 0)
			return -1;
		if (go || one_tried(f, b, &h, &one, 0))
			die("a convertible hammock was left");
	}
	return 0;
}
