/* hammock.c - what one conditional branch is, for if-conversion (ifconv.c): its sides, its
 * shape, its cost and what keeps it from conversion (be_examine).
 *
 * A conditional PTX branch in block A is a hammock when its sides are straight-line code
 * entered only from A that ends in a plain jump to a common join J (if-then-else), or one
 * side is J itself (if-then), or a side ends the thread (EXIT). A side is a chain of blocks
 * each entered only from the one before and left by an unconditional jump: nvcc's
 * `@p bra A; bra.uni B;` puts an empty block holding the bra.uni in front of a side, and a
 * side may fall into a label of its own; the chain is folded into one block when the
 * branch is converted. Under --early-return guarded (kepler.cfg) a side of a .func that
 * ends in its return is such a side too (if-then-ret): converted, it ends in a guarded RET
 * (emit.c restores the saved registers under the guard), as ptxas 11.8 for sm_35 returns
 * from a short fall-through side (tests/ptxas-ref/families/ret_div). And when the branch's
 * target is what returns, inside an if/else whose join the fall-through side jumps to
 * (ret-nest), that side alone is the hammock: converted, it is guarded by the inverted
 * condition and the branch stays, inverted, to the join (`@!P BRK` to sync.c's PBK when
 * divergent, `@!P BRA` when uniform), the early path laid out after it (ret_nest). Under
 * --predicate-rule sm35 an if/else too long to predicate whole has its short fall-through
 * side converted the same way (one-side), the long taken side after it (one_side); in a
 * loop under --loop-sync pbk, when the other side breaks out of the loop (breaks_past), the
 * side that stays in the trip is, the taken one too when the fall-through is what breaks.
 * Under that rule an if-then in the fall-through side of an if/else whose join is its own
 * stays a branch: in ptxas's layout its side jumps over the if/else's taken side (jumps_over).
 *
 * A side blocks conversion when it holds something that cannot be guarded or must not be:
 * an op without F_PRED, a barrier, a call, a warp-wide op (shfl, vote, match, redux: its
 * result depends on which lanes take part), the shared-memory lock loop, a guarded EXIT of its own, a return;
 * a side that is not straight-line code holds control flow (a loop, a branch that stayed,
 * an indirect branch) or is entered from other paths too (a switch's shared case). Under
 * --predicate-rule sm35 so does a side of five or more moves of zero (zero_move).
 *
 * Reads the blocks, dominators, post-dominators and loops; changes nothing. Calls ifrule.c
 * (the sm_35 cost of a side), pbk.c (a trip's reach, for a side that breaks), dom.c and
 * util.c.
 */
#include <string.h>
#include "backend/be.h"

const PIns *be_ptx_branch(const Fn *f, const Blk *b)
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

/* why instruction in cannot be guarded in a side, or NULL: be_branch_op's, and more. A
 * BAR.SYNC or BAR.ARV can under the sm35 rule, as ptxas 11.8 guards it (bar_div): the SM
 * model's guarded BAR with no lane true does not arrive, and a warp with some lanes true
 * arrives whole, as it does when those lanes reach the BAR by a branch */
static const char *unpredicable(const Fn *f, const MIns *in)
{
	const OpInfo *oi = &isa_ops[in->op];
	const char *why;

	if ((oi->flags & F_BARRIER) && (in->op != OP_BAR || f->opt->predicate_rule != BE_RULE_SM35))
		return "a barrier";
	if ((why = be_branch_op(f, in)))
		return why;
	if (in->op == OP_LDSLK || in->op == OP_STSUL)
		return "the shared-memory lock loop";
	if (in->op == OP_EXIT || in->op == OP_RET)
		return "an early exit";
	if (!(oi->flags & F_PRED) || (oi->flags & (F_BRANCH | F_PUSH)))
		return oi->name;
	return NULL;
}

/* f's buffer of zero_move's marks, all clear (one for the function: be_examine runs for every
 * side of every branch again after each conversion, and a buffer per side made the largest
 * kernels' pools grow by hundreds of megabytes) */
static uint8_t *zero_marks(const Fn *f)
{
	Fn *mf = (Fn *)f;

	if (f->nzmarks < f->ntmp + 1) {
		mf->zmarks = be_alloc(f->pool, (size_t)f->ntmp + 1);
		mf->nzmarks = f->ntmp + 1;
	}
	return f->zmarks;
}

/* in moves zero into a register (an immediate 0, RZ or a register the side set to zero
 * before, marked in zero): 1, marking its destination. Under --predicate-rule sm35 a side
 * of five or more such moves stays a branch, divergent or uniform, whatever else it holds:
 * ptxas 11.8 predicates four, with up to three other instructions, and branches around five
 * (tests/ptx/side_zeros; moves of other values count as any instruction: clang's rdwt53 and
 * rdwt97 zero the sums of their first rows so) */
static int zero_move(const MIns *in, uint8_t *zero)
{
	const MOpd *s = &in->o[1];

	int z = (in->op == OP_MOV || in->op == OP_MOV32I) && in->nopd == 2 &&
	        ((s->kind == OPD_IMM && s->imm == 0) ||
	         (s->kind == OPD_REG && (s->t == T_RZ || zero[s->t])));

	if (in->nopd < 1 || in->o[0].kind != OPD_REG || in->o[0].t < T_FIRST)
		return 0;
	zero[in->o[0].t] = (uint8_t)z;   /* (a register set otherwise is no zero) */
	return z;
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
		c = be_ifrule_sm35_side(f, h->a, h->chain[s], h->nchain[s], h->size[s],
		                        h->block[0] ? NULL : h->block, sizeof h->block, &h->loadside,
		                        note, sizeof note);
		if (!h->block[0] && be_ifrule_sm35_reload(f, h->chain[s], h->nchain[s], h->join))
			snprintf(h->block, sizeof h->block, "a side stores a loaded value that the join "
			         "loads again");
		/* a one-side's side that falls into the join still ends in its jump, the @P NOP.S
		 * its lanes leave by: ptxas 11.8 predicates 7 instructions so, not 8, the taken
		 * side (kept_fallback) or the fall-through side (tests/ptx/one_side_fall) */
		if (h->one && f->blk[h->chain[s][h->nchain[s] - 1]].jmp.ptxins < 0)
			c++;
		/* the one side of an if-then that ends in a jump to a join only it and the branch
		 * reach (clang's loop body before its latch, laid out above it) has no jump when
		 * predicated: ptxas 11.8 lays the join out after it (tests/ptx/shared_u16's loop);
		 * a join that other paths reach too (a continue) keeps it */
		else if (!h->one && !h->nest && h->side[!s] < 0 && c > 1 && h->join >= 0 &&
		         f->blk[h->join].npred == 2 &&
		         f->blk[h->chain[s][h->nchain[s] - 1]].jmp.kind == J_JMP &&
		         f->blk[h->chain[s][h->nchain[s] - 1]].jmp.ptxins >= 0)
			c--;
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

/* under --loop-sync pbk, branch b's side t, inside b's loop l, reaches the block nn of l's
 * own trip or breaks out of l, and does break: nn is then the join of the if/else within the
 * trip (pbk.c's be_trip_join), not b's post-dominator, and ptxas 11.8 predicates the other
 * side alone all the same, divergent or uniform (tests/ptx/kept_else, brk_uni). When that
 * side is the taken one (only: t is the fall-through), only if l leaves by t's breaks alone:
 * ptxas then lays the side that stays out first (kept_fallback); a loop that also leaves by
 * its latch test or at its header keeps the PTX order and the branch over a short taken
 * side (brk_uni's _latch and _head) */
static int breaks_past(const Fn *f, const Blk *b, int t, int nn, int only)
{
	int l = b->loop, brk = 0, *stk;
	uint8_t *seen;

	if (f->opt->loop_sync != BE_LOOP_PBK || l < 0 || nn < 0 || nn >= f->nblk ||
	    f->blk[nn].loop != l || nn == f->loops[l].header || t < 0 || t >= f->nblk ||
	    f->blk[t].loop != l)
		return 0;
	stk = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));
	seen = be_alloc(f->pool, (size_t)f->nblk + 1);
	be_trip_reach(f, l, t, nn, seen, 1, stk);
	for (int i = 0; i < f->nblk; i++) {
		if (!seen[i])
			continue;
		if (f->blk[i].loop != l || be_nedge(f, i) == 0)
			return 0;
		for (int e = 0; e < be_nedge(f, i); e++) {
			int y = be_edge_to(f, i, e);
			if (y < 0)
				continue;
			if (y == f->loops[l].header)
				return 0;
			brk |= !be_in_loop(f, l, y);
		}
	}
	return brk && !(only && be_loop_leaves(f, l, seen, 1));
}

/* the fall-through side of branch b jumps to nn, a join inside b's region that the taken side
 * reaches too but may skip (clang's clamp `x < n ? (x > -1 ? x : -x) : 2n - 2 - x`: the side
 * 2n - 2 goes on to the subtraction, which the taken side's own branch skips for x > -1), not
 * to b's immediate post-dominator: nn is dominated by b, in b's loop and not its header, as
 * that post-dominator is (a side that breaks out of the loop is breaks_past's), and goes on to
 * it without coming back to b (kept_else's join, whose way on is the loop's back edge, is no
 * join of b's region) */
static int inner_join(const Fn *f, const Blk *b, int nn)
{
	uint8_t *seen;

	if (nn == b->ipdom || b->ipdom < 0 || f->blk[nn].npred < 2 || f->blk[nn].loop != b->loop ||
	    (b->loop >= 0 && (nn == f->loops[b->loop].header || f->blk[b->ipdom].loop != b->loop)) ||
	    !be_dominates(f, b->id, nn))
		return 0;
	seen = be_alloc(f->pool, (size_t)f->nblk + 1);
	reach(f, nn, -1, b->id, seen);
	return seen[b->ipdom];
}

/* ptxas 11.8's one-sided conversion of an if/else (families ifelse1_div, divergence's and
 * mathlib's `@p bra; bra.uni` chains): under --predicate-rule sm35, when the if/else as a
 * whole is not predicated, its fall-through side (kn, cn blocks, not empty) that jumps to
 * the branch's immediate post-dominator nn is predicated alone, counted with its jump, and
 * its lanes leave for nn by the inverted branch (`@P NOP.S` in the SSY region of the
 * branch, `@P BRK` in a PBK region, a guarded BRA when uniform), the taken side following.
 * ptxas never does it for the taken side (it keeps `@!P BRA` over a short taken side) unless
 * the fall-through side breaks out of the loop (be_examine, breaks_past). Not
 * when join_cycles holds. nn may be a loop's header (both sides continue a while loop):
 * ptxas rotates the loop and predicates the side alone all the same (tests/ptx/one_side_loop).
 * nn may be a join inside the branch's region (inner_join): the branch stays, inverted, a
 * plain guarded BRA to nn within the SSY or PBK that sync.c pushes at the post-dominator
 * (tests/ptx/one_side_join, Rodinia's dwt2d by clang). Tried only under that rule
 * (one_tried). taken: kn is the taken side and t the fall-through, which is so only when it
 * breaks (breaks_past) */
static int one_side(const Fn *f, const Blk *b, int t, const int *kn, int cn, int nn, int taken)
{
	if (!side_alone(f, kn, cn, nn) || nn == t || skip_empty(f, t) == nn)
		return 0;
	if (!taken && nn == b->ipdom)
		return !join_cycles(f, b->id, t, nn);
	if (!taken && inner_join(f, b, nn))
		return 1;
	return breaks_past(f, b, t, nn, taken);
}

/* ptxas 11.8 lays an if/else out with its fall-through side first and its taken side after
 * it, before the join: the fall-through side of an if-then at a (its join j) inside the
 * fall-through side of an enclosing if/else whose join is j too ends in a jump over that
 * taken side, and ptxas keeps the branch (`@P BRK` to a PBK pushed before the if/else when
 * divergent, `@P BRA` uniform) however short the side is; in the taken side, laid out last,
 * the side falls into the join and is predicated (tests/ptx/cfold_f32: pow's special cases,
 * Rodinia's myocyte). 1 when such an if/else encloses a */
static int jumps_over(const Fn *f, int a, int j)
{
	for (int e = f->blk[a].idom, k = 0; e >= 0 && k < f->nblk; e = f->blk[e].idom, k++) {
		const Blk *x = &f->blk[e];
		if (x->ipdom == j && x->jmp.kind == J_BRA && x->s1 != j && x->s2 >= 0 && x->s2 != j &&
		    skip_empty(f, x->s1) != j && skip_empty(f, x->s2) != j && be_dominates(f, x->s2, a))
			return 1;
		if (f->blk[e].idom == e)
			break;
	}
	return 0;
}

/* finds the hammock of branch block a, its cost and what blocks it; with one, only the
 * one-sided hammock of its fall-through side, or of its taken side when the fall-through
 * breaks out of the loop (one_side) */
void be_examine(const Fn *f, int a, Ham *h, int one)
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
		if (one_side(f, b, t, kn, cn, nn, 0))
			h->side[1] = n, h->join = nn;
		else if (one_side(f, b, n, kt, ct, nt, 1))
			h->side[0] = t, h->join = nt;   /* the taken side, when the fall-through breaks */
		else
			return;
		h->nest = 1, h->one = 1;
	} else if (cn && nn == t && !chain_exits(f, kn, cn)) {
		h->side[1] = n, h->join = t;
		if (f->opt->predicate_rule == BE_RULE_SM35 && jumps_over(f, a, t))
			snprintf(h->block, sizeof h->block, "its side jumps to the join over the taken "
			         "side of an enclosing if/else (ptxas's layout)");
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
		int g = -1, gn = 0, nzero = 0;
		uint8_t *zero = zero_marks(f);
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
				if (g >= 0 && be_writes(in, g))
					g = -1;
				nzero += zero_move(in, zero);
			}
		}
		for (int c = 0; c < h->nchain[s]; c++) {   /* (the marks cleared again) */
			const Blk *x = &f->blk[h->chain[s][c]];
			for (int k = 0; k < x->nins; k++)
				if (x->ins[k].nopd >= 1 && x->ins[k].o[0].kind == OPD_REG &&
				    x->ins[k].o[0].t >= T_FIRST)
					zero[x->ins[k].o[0].t] = 0;
		}
		if (nzero >= 5 && !h->block[0] && f->opt->predicate_rule == BE_RULE_SM35)
			snprintf(h->block, sizeof h->block, "a side of %d moves of zero", nzero);
	}
	/* a side with no instruction (absent, or only nvcc's bra.uni) makes an if-then */
	snprintf(h->shape, sizeof h->shape, "%s", h->one ? "one-side" : h->nest ? "ret-nest" :
	         h->exitside >= 0 ? (h->retside ? "if-then-ret" : "if-then-exit") :
	         h->size[0] > 0 && h->size[1] > 0 ? "if-then-else" : "if-then");
	h->cost = h->size[0] + h->size[1];
	if (f->opt->predicate_rule == BE_RULE_SM35)
		sm35_cost(f, h);
}
