/* pbk.c - which reconvergence targets ptxas 11.8 brackets with PBK for sm_35, and the SSYs its
 * BRKs pass (--loop-sync pbk): the rules sync.c applies as it places the tokens.
 *
 * Reads the CFG, dominators, post-dominators and loops as sync.c has them; marks nothing itself
 * but Blk.bpath and the pushes of exit_sync, and changes only trip_order's layout (sync.c sets
 * Blk.brk, brkpass, tjoin and brkj from the answers). Calls dom.c and util.c.
 *
 * Under --loop-sync pbk a target J placed in the preheader of a loop that leaves to two
 * different blocks (a divergent break past code its own exit runs) is marked Blk.brk: every
 * push of J is then a PBK and every arrival at J a BRK, as ptxas 11.8 lowers such loops for
 * sm_35. So is, once the stacks settle, a join that two or more jumps and three or more
 * edges in all arrive at (a switch's cases, libdevice's three-way argument reduction), or
 * three or more conditional branches (a chain of early exits: nvcc's unrolled Collatz chain;
 * not the breaks of a loop whose exits all go to that block, which keeps its SSY as ptxas's
 * does: tests/ptx/brk_chain);
 * two nested ifs that share their join keep SSY, as ptxas's do; the rule counts paths, not
 * edges (join_path: the sides of a uniform if/else are one path); of the conditional branches,
 * a loop's own exit (its latch test's edge out) and a branch that stays inside its loop (a
 * skip to the latch) are not counted (workloads spmv and bfs keep SSY there). And so is the
 * target of a divergent continue that crosses a join (crossed_joins: it leaves from inside a
 * divergent if of the loop body for the latch or header, past the if's join), which ptxas
 * pushes with PBK every iteration. And so is the join of a divergent ret-nest (ifconv.c:
 * Blk.retjoin), pushed at its immediate dominator, before the enclosing branch (nest_push).
 * And so is a loop's join J when a divergent branch of the loop has a side that breaks to J
 * and two or more that meet at a block x of the trip (trip_join), even when all the loop's
 * exits go to J: x's SSY is pushed at the branch every trip and marked Blk.brkpass, as a
 * break path's (exit_sync), so that a BRK to J passes its token; a brkpass target stays an
 * SSY's (neither the join rule nor crossed_joins makes it a PBK's, which a BRK could not
 * pass); the branch's side that breaks goes after the side that stays in the layout
 * (trip_order; a uniform branch's too, which pushes nothing: tests/ptx/brk_uni). When the
 * branch's paths meet only at the loop's header, from two or more sides (a continue on the
 * side that stays), the loop first gets a latch block of its own that every back edge goes
 * through (trip_latch; sync.c makes it), which is then x (tests/ptx/kept_cont). J is the block the branch's lanes leave the loop for (leave_join): its immediate
 * post-dominator, or, when that lies in the loop (the side that stays comes round the back
 * edge before the loop's only way out, the break), the first block outside the loop up the
 * post-dominators that take a kept back edge's EXIT as the nest's way out (a loop nest that
 * ends the kernel: tests/ptx/kept_fallback); a break of that loop to J then leaves for J's
 * PBK too (sync.c's kept_exit), not for where the fold's post-dominators put it. And so is the join of a divergent branch whose two sides meet before it, forward
 * (sides_meet: `if (a || b)`, whose body both sides reach, or clang's mirror clamp in dwt2d,
 * an inner test jumping to the join past a tail the other side shares), which ptxas brackets
 * with PBK, the branch a plain BRA inside.
 */
#include <string.h>
#include "backend/be.h"

/* f's live-in sets (be_livein), and the kill sets in *kill, made once for the code as it is
 * and kept in Fn.exitin: be_two_exits is asked for every divergent branch out of a loop, and
 * liveness over the whole function each time grew with branches times blocks. be_sync,
 * be_newblk and be_set_edge forget them (the start of the pass, and every change sync.c
 * makes to the code: each adds a block or moves an edge) */
static const uint32_t *exit_live(const Fn *f, const uint32_t **kill)
{
	Fn *mf = (Fn *)f;   /* (as uniform.c's whymemo) */

	if (!f->exitin)
		mf->exitin = be_livein(f, BITS_WORDS(f->ntmp), &mf->exitkill);
	*kill = f->exitkill;
	return f->exitin;
}

/* does an edge out of loop l to j carry a value of its own: a block of the loop that leaves
 * for j defines a register live into j and dead on its way on in the loop (a phi copy nvcc
 * put before the exit branch, or a value only j reads: ptxas 11.8 gives that edge a block of
 * its own for the copy, or sinks the definition into one, so the loop leaves to two blocks;
 * tests/ptx/exit_copy). A register the loop carries round its back edge is in the loop's
 * own register on every way out and needs no copy */
static int exit_copy(const Fn *f, int l, int nb, int j)
{
	int w = BITS_WORDS(f->ntmp);
	const uint32_t *kill, *in = exit_live(f, &kill);
	for (int i = 0; i < nb; i++) {
		const Blk *b = &f->blk[i];
		int stay = b->s1 == j ? b->s2 : b->s1;
		const uint32_t *k = kill + (size_t)i * (size_t)w;
		if (b->dead || b->jmp.kind != J_BRA || !be_in_loop(f, l, i) || stay < 0 ||
		    (b->s1 != j && b->s2 != j) || !be_in_loop(f, l, stay))
			continue;
		for (int t = 0; t < w; t++)
			if (k[t] & in[(size_t)j * (size_t)w + t] & ~in[(size_t)stay * (size_t)w + t])
				return 1;
	}
	return 0;
}

/* does loop l (blocks of the first nb) leave to two different blocks: a break that skips
 * code the loop's own exit runs, or an exit edge that carries a value of its own (exit_copy;
 * ptxas 11.8 then brackets the loop with PBK; a loop whose exits all go to one block, with
 * nothing to copy on the way, keeps its SSY) */
int be_two_exits(const Fn *f, int l, int nb)
{
	int first = -1, nexit = 0;

	for (int i = 0; i < nb; i++) {
		const Blk *b = &f->blk[i];
		int s[2] = {b->s1, b->s2};
		if (b->dead || !be_in_loop(f, l, i))
			continue;
		for (int e = 0; e < 2; e++)
			if (s[e] >= 0 && !be_in_loop(f, l, s[e])) {
				if (first >= 0 && s[e] != first)
					return 1;
				first = s[e];
				nexit++;
			}
	}
	return nexit >= 2 && exit_copy(f, l, nb, first);
}

/* ptxas 11.8's SSY at a break path (tests/ptx/brk_sync; families/brk_div_11..16): in a loop
 * lowered with PBK (its join j marked brk, pushed alone in its preheader p), a divergent
 * back edge b whose fall-through leaves the loop into a path e that goes on to j by jumps
 * alone: the lanes that leave there at different trips wait in DIV tokens, and each group
 * would run the path by itself. ptxas pushes an SSY of the path's start after the PBK, so
 * that they run it together, when the path holds a global memory access (the accesses of
 * all those lanes then go out together) or 11 or more instructions; the loop's own exit
 * leaves by BRK past that SSY token. e is marked brkpass (propagate lets a BRK to j pass it).
 * Measured on kernels written for it (docs/fidelity.md, "brk_div"): a path of 10 ALU
 * instructions, or one on the back edge's taken side, keeps no SSY */
void be_exit_sync(Fn *f, int b, int p, int j)
{
	Blk *B = &f->blk[b];
	int l = B->loop, e = B->s2, n = 0, mem = 0, x, last = e;

	if (l < 0 || B->s1 != f->loops[l].header || e < 0 || be_in_loop(f, l, e) ||
	    f->blk[e].npred != 1 || f->blk[p].npush != 1 || f->blk[p].push[0] != j)
		return;
	for (x = e; x != j; x = f->blk[x].s1) {
		const Blk *X = &f->blk[x];
		if (X->dead || X->jmp.kind != J_JMP || X->s1 < 0 || (x != e && X->npred != 1) ||
		    n > f->nblk)
			return;
		for (int i = 0; i < X->nins; i++)
			mem |= isa_ops[X->ins[i].op].unit == UNIT_LSU_GLOBAL;
		n += X->nins;
		last = x;
	}
	/* for --explain: which path, and what decided */
	B->bpath = (BrkPath){e, f->blk[e].pfirst, f->blk[last].plast, n, (uint8_t)mem,
	                     (uint8_t)(mem || n >= BE_BRKPATH_MIN)};
	if (!B->bpath.ssy)
		return;
	be_add_push(f, p, e);
	f->blk[e].brkpass = 1;
}

/* b is a loop's latch test: a conditional branch back to its header whose other edge leaves
 * the loop (the loop's own exit, which the forward-PBK rule does not count: ptxas keeps SSY
 * for a join that two skips and a loop's own exit reach, spmv's) */
int be_latch_exit(const Fn *f, const Blk *b)
{
	int h;

	if (b->jmp.kind != J_BRA || b->loop < 0 || b->loop >= f->nloops)
		return 0;
	h = f->loops[b->loop].header;
	return (b->s1 == h && b->s2 >= 0 && !be_in_loop(f, b->loop, b->s2)) ||
	       (b->s2 == h && b->s1 >= 0 && !be_in_loop(f, b->loop, b->s1));
}

/* the path by which block b's edge arrives at join j, as ptxas 11.8 counts the arrivals of
 * the join rule: b itself when b ends in a branch it sees as divergent (Jmp.pdiv), else the
 * highest block above b on the dominator tree short of j's own dominators and of a
 * divergent branch whose sides are still apart at b (its immediate post-dominator does not
 * dominate b). The sides of a uniform if/else, or a uniform test's jump to j and the fall-
 * through after it, are then one path, as a warp takes one of them, and so are they when
 * they hold divergent ifs that close before j: a divergent if around a uniform if/else
 * whose sides both jump to j keeps its SSY in ptxas's listing (dwt2d's clamped loads,
 * tests/ptx/join_uni); the sides of a divergent one are two. A block that sync.c added (no
 * dominator) goes up through its one predecessor */
int be_join_path(const Fn *f, int b, int j)
{
	const Blk *B = &f->blk[b];
	int b0 = b;

	if (B->jmp.pdiv && (B->jmp.kind == J_BRA || B->jmp.kind == J_BRX))
		return b;
	for (int n = 0; n < f->nblk; n++) {
		int p = B->idom >= 0 ? B->idom : B->npred == 1 ? B->pred[0] : -1;
		const Blk *P = p >= 0 ? &f->blk[p] : NULL;
		if (!P || P->dead || be_dominates(f, p, j) ||
		    (P->jmp.pdiv && (P->jmp.kind == J_BRA || P->jmp.kind == J_BRX) &&
		     (P->ipdom < 0 || P->ipdom >= f->nblk || !be_dominates(f, P->ipdom, b0))))
			return b;
		b = p;
		B = P;
	}
	return b;
}

/* the edge from b to j stays inside b's loop (a skip to a later part of the body) */
int be_within_loop(const Fn *f, const Blk *b, int j)
{
	return b->loop >= 0 && b->loop < f->nloops && be_in_loop(f, b->loop, j);
}

/* the blocks of loop l that s reaches in one trip (the header not entered, nor block x), their
 * mark or'ed with v; stk holds Fn.nblk ids */
void be_trip_reach(const Fn *f, int l, int s, int x, uint8_t *mark, uint8_t v, int *stk)
{
	int sp = 0, h = f->loops[l].header;

	if (s < 0 || s == h || s == x || !be_in_loop(f, l, s) || (mark[s] & v))
		return;
	mark[s] |= v;
	stk[sp++] = s;
	while (sp) {
		int b = stk[--sp];
		for (int e = 0; e < be_nedge(f, b); e++) {
			int t = be_edge_to(f, b, e);
			if (t < 0 || t == h || t == x || !be_in_loop(f, l, t) || (mark[t] & v))
				continue;
			mark[t] |= v;
			stk[sp++] = t;
		}
	}
}

/* the blocks that s reaches forward (each edge to a later block in reverse post-order) when s
 * lies after block from, j not entered: their mark or'ed with v; stk holds Fn.nblk ids */
static void ahead_reach(const Fn *f, int from, int s, int j, uint8_t *mark, uint8_t v, int *stk)
{
	int sp = 0;

	if (s < 0 || s == j || f->blk[s].rpo <= f->blk[from].rpo)
		return;
	mark[s] |= v;
	stk[sp++] = s;
	while (sp) {
		int x = stk[--sp];
		for (int k = 0; k < be_nedge(f, x); k++) {
			int t = be_edge_to(f, x, k);
			if (t < 0 || t == j || f->blk[t].rpo <= f->blk[x].rpo || (mark[t] & v))
				continue;
			mark[t] |= v;
			stk[sp++] = t;
		}
	}
}

/* ptxas 11.8's PBK for a region whose paths meet before its join (tests/ptx/meet_early): the
 * two sides of divergent branch b reach a common block x before j = ipdom(b), forward (no
 * back edge), as an if whose condition is `a || b` (the test of b on one side, the body both
 * reach) or an if/else whose inner test jumps to j past a tail that the other side shares
 * (dwt2d's mirror clamp `if (x < n) { if (x >= 0) goto j; r = 0; } else r = 2n - 2; x = r - x`).
 * ptxas pushes j with PBK and the lanes leave for it by BRK; b and the jumps to x stay plain
 * branches. A structured if/else, whose sides meet at j only, keeps SSY. mark holds Fn.nblk */
int be_sides_meet(const Fn *f, const Blk *b, int j, uint8_t *mark, int *stk)
{
	memset(mark, 0, (size_t)f->nblk);
	ahead_reach(f, b->id, b->s1, j, mark, 1, stk);
	ahead_reach(f, b->id, b->s2, j, mark, 2, stk);
	for (int x = 0; x < f->nblk; x++)
		if (mark[x] == 3)
			return 1;
	return 0;
}

/* where the PBK of ret-nest join j goes (ifconv.c marked it Blk.retjoin): its immediate
 * dominator p, the enclosing branch, when every path from p reaches j or returns, with no
 * loop in between; -1 otherwise (the ret-nest's branch then stays a plain divergent BRA:
 * exact, only not ptxas's shape). A divergent branch inside whose region also ends at j
 * shares the token (its push of j is then on top already), as ptxas's does (tests/ptx/ret_nest's
 * nest_deep: the inner if/else's sides both leave by BRK) */
int be_nest_push(Fn *f, int j)
{
	int p = f->blk[j].idom, n = f->nblk, sp = 0;
	int *stk;
	uint8_t *seen;

	if (p < 0 || p == j || p >= n || f->blk[p].dead || f->blk[p].loop != f->blk[j].loop ||
	    (f->blk[j].loop >= 0 && f->loops[f->blk[j].loop].header == j))
		return -1;
	stk = be_alloc(f->pool, sizeof(int) * (size_t)(n + 1));
	seen = be_alloc(f->pool, (size_t)n);
	seen[p] = 1;
	stk[sp++] = p;
	while (sp) {
		const Blk *b = &f->blk[stk[--sp]];
		int ns = 0;
		if (b->id != p && b->loop >= 0 && f->loops[b->loop].header == b->id)
			return -1;
		for (int e = 0; e < be_nedge(f, b->id); e++) {
			int t = be_edge_to(f, b->id, e);
			if (t < 0)
				continue;
			ns++;
			if (t == p)
				return -1;
			if (t != j && !seen[t]) {
				seen[t] = 1;
				stk[sp++] = t;
			}
		}
		if (!ns && b->jmp.kind != J_RET)
			return -1;
	}
	return p;
}

/* the paths from b of loop l (header h), up to block x or a break to j: 1 when they stay in
 * l's trip (through loops nested in it, not round h nor out of them to j) and leave it only to
 * j; seen (Fn.nblk) marks the blocks they pass, brk whether one breaks to j */
static int trip_paths(const Fn *f, int b, int l, int x, int j, uint8_t *seen, int *stk, int *brk)
{
	int h = f->loops[l].header, n = f->nblk, ok = 1, sp = 0;

	memset(seen, 0, (size_t)n);
	*brk = 0;
	seen[b] = 1;
	stk[sp++] = b;
	while (sp) {
		int y = stk[--sp], ns = 0;
		for (int e = 0; e < be_nedge(f, y); e++) {
			int t = be_edge_to(f, y, e);
			if (t < 0)
				continue;
			ns++;
			*brk |= t == j;
			ok &= t != j || f->blk[y].loop == l;   /* no break from an inner loop */
			if (t == x || t == j)
				continue;
			ok &= t != h && be_in_loop(f, l, t);
			if (seen[t])
				continue;
			seen[t] = 1;
			stk[sp++] = t;
		}
		ok &= ns > 0;
	}
	return ok;
}

/* ptxas 11.8's SSY at the join of a branch with a side that breaks (tests/ptx/brk_nest): a
 * divergent branch b of loop l whose paths meet at a block x of l's own trip, all but those
 * that break out of l to b's immediate post-dominator j, gets an SSY of x every trip, which
 * the breaks leave by BRK past it (j is then a PBK target), when two or more of b's sides
 * reach x (an if whose other side only breaks needs none: brk_div). x is the first block, in
 * reverse post-order, that every path from b reaches or breaks before; a path may pass
 * through a loop nested in l (tests/ptx/kept_spin: the side that stays spins), not break
 * from it; paths that return, exit, go round l or out of l elsewhere make none. Returns x
 * or -1 */
int be_trip_join(Fn *f, int b, int j)
{
	const Blk *B = &f->blk[b];
	int l = B->loop, n = f->nblk, nc = 0;
	int *stk, *cand;
	uint8_t *seen;

	if (l < 0 || l >= f->nloops || be_outer_loop(f, b, j) != l)
		return -1;
	stk = be_alloc(f->pool, sizeof(int) * (size_t)(n + 1));
	seen = be_alloc(f->pool, (size_t)n);
	cand = be_alloc(f->pool, sizeof(int) * (size_t)n);
	/* the candidates: the blocks of l's own trip that b reaches, in reverse post-order */
	for (int e = 0; e < be_nedge(f, b); e++)
		be_trip_reach(f, l, be_edge_to(f, b, e), -1, seen, 1, stk);
	for (int t = 0; t < n; t++) {
		int k;
		if (!seen[t] || f->blk[t].loop != l)
			continue;
		for (k = nc++; k > 0 && f->blk[cand[k - 1]].rpo > f->blk[t].rpo; k--)
			cand[k] = cand[k - 1];
		cand[k] = t;
	}
	for (int c = 0; c < nc; c++) {
		int x = cand[c], reach = 0, brk;
		/* from b, not through x: only blocks of l's own trip, leaving only to j */
		if (!trip_paths(f, b, l, x, j, seen, stk, &brk))
			continue;
		if (!brk)
			return -1;   /* x post-dominates b: an if inside the trip, nothing breaks */
		/* the sides that arrive at x (within the trip) */
		for (int e = 0; e < be_nedge(f, b); e++) {
			int t = be_edge_to(f, b, e), dup = 0;
			for (int d = 0; d < e; d++)
				dup |= be_edge_to(f, b, d) == t;
			memset(seen, 0, (size_t)n);
			be_trip_reach(f, l, t, -1, seen, 1, stk);
			reach += !dup && seen[x];
		}
		return reach >= 2 ? x : -1;
	}
	return -1;
}

/* ptxas 11.8's latch of a loop whose trip a continue cuts short (tests/ptx/kept_cont): a
 * divergent branch b of loop l, one of whose sides breaks out of l to j, whose paths, up to
 * l's header h, stay in l's own trip and meet only at h, from two or more sides (a continue
 * on the side that stays: `@p bra head` beside the join's own jump back). ptxas gives l a
 * latch block of its own, which every back edge goes through, pushes its SSY at b every trip
 * (the continue's lanes reach it by @P NOP.S, the join's by .S) and the break leaves by BRK
 * past it to a PBK of j. 1 when b is such a branch and every back edge of l comes from a
 * block b reaches in the trip: sync.c then makes the latch, and be_trip_join finds it */
int be_trip_latch(Fn *f, int b, int j)
{
	const Blk *B = &f->blk[b];
	int l = B->loop, n = f->nblk, h, brk = 0, nback = 0, reach = 0;
	int *stk;
	uint8_t *seen;

	if (l < 0 || l >= f->nloops || be_outer_loop(f, b, j) != l)
		return 0;
	h = f->loops[l].header;
	stk = be_alloc(f->pool, sizeof(int) * (size_t)(n + 1));
	seen = be_alloc(f->pool, (size_t)n);
	/* from b, up to h: only blocks of l's own trip, leaving only to j */
	if (!trip_paths(f, b, l, h, j, seen, stk, &brk))
		return 0;
	for (int i = 0; i < f->blk[h].npred; i++) {
		int q = f->blk[h].pred[i];
		if (!be_in_loop(f, l, q))
			continue;
		if (!seen[q])
			return 0;   /* a back edge from a path that does not pass b */
		nback++;
	}
	if (!brk || nback < 2)
		return 0;
	/* the sides that come round to h */
	for (int e = 0; e < be_nedge(f, b); e++) {
		int t = be_edge_to(f, b, e), dup = 0, back = 0;
		for (int d = 0; d < e; d++)
			dup |= be_edge_to(f, b, d) == t;
		memset(seen, 0, (size_t)n);
		be_trip_reach(f, l, t, -1, seen, 1, stk);
		for (int y = 0; y < n && !back; y++)
			for (int k = 0; seen[y] && k < be_nedge(f, y); k++)
				back |= be_edge_to(f, y, k) == h;
		reach += !dup && back;
	}
	return reach >= 2;
}

/* ptxas 11.8's layout of a be_trip_join branch b (join x) whose fall-through side breaks and
 * whose taken side stays in the trip: the side that breaks goes last, right before the join,
 * and the branch is inverted over the side that stays (tests/ptxas-ref/kept_spin.sass; the
 * same with a long straight side, and kept_fallback's listing puts its side that breaks
 * after its predicated one), divergent or uniform (tests/ptx/brk_uni). Only when the loop
 * leaves by that side alone (one that also leaves by its latch test or at its header keeps
 * the PTX order: brk_uni's _latch), and the blocks of each side, up to x, lie in two runs
 * right after b, the fall-through's first (as the PTX has them); a dead block goes with the
 * run it lies in */
void be_trip_order(Fn *f, int b, int x)
{
	const Blk *B = &f->blk[b];
	int l = B->loop, n = f->nblk, at, k, m, nrun[3] = {0, 0, 0}, brk[3] = {0, 0, 0};
	int *stk, *seg;
	uint8_t *mark;

	if (B->jmp.kind != J_BRA || B->s1 < 0 || B->s2 < 0 || B->s1 == x || B->s2 == x ||
	    B->s1 == B->s2)
		return;
	stk = be_alloc(f->pool, sizeof(int) * (size_t)(n + 1));
	mark = be_alloc(f->pool, (size_t)n);
	be_trip_reach(f, l, B->s1, x, mark, 1, stk);
	be_trip_reach(f, l, B->s2, x, mark, 2, stk);
	for (int y = 0; y < n; y++) {
		if (mark[y] == 3)
			continue;   /* where the sides meet before x (kept_cont's join before its latch) */
		nrun[mark[y]]++;
		for (int e = 0; mark[y] && e < be_nedge(f, y); e++) {
			int t = be_edge_to(f, y, e);
			brk[mark[y]] |= t >= 0 && !be_in_loop(f, l, t);
		}
	}
	if (brk[1] || !brk[2])
		return;
	if (be_loop_leaves(f, l, mark, 2))
		return;   /* (l leaves by the fall-through side alone) */
	for (k = 0; k < f->nlay && f->lay[k] != b; k++)
		;
	/* the runs: [k + 1, m) the fall-through side's, then the taken side's to its last block */
	for (m = k + 1; m < f->nlay && (f->blk[f->lay[m]].dead || mark[f->lay[m]] == 2); m++)
		nrun[2] -= !f->blk[f->lay[m]].dead;
	for (at = m; at < f->nlay && (f->blk[f->lay[at]].dead || mark[f->lay[at]] == 1); at++)
		nrun[1] -= !f->blk[f->lay[at]].dead;
	if (nrun[1] || nrun[2] || m == k + 1 || at == m)
		return;
	seg = be_alloc(f->pool, sizeof(int) * (size_t)(at - k));
	memcpy(seg, &f->lay[m], sizeof(int) * (size_t)(at - m));
	memcpy(seg + (at - m), &f->lay[k + 1], sizeof(int) * (size_t)(m - k - 1));
	memcpy(&f->lay[k + 1], seg, sizeof(int) * (size_t)(at - k - 1));
}

/* the block that b's lanes leave b's loop for: b's immediate post-dominator, or, when that lies
 * in the loop (a side that does not break comes round the back edge before it reaches the
 * loop's exit: an if/else whose one side breaks, tests/ptx/kept_fallback), the first block
 * up b's post-dominator chain outside the loop; -1 when that is the exit. On kipd, the
 * post-dominators (of the first nb blocks) that see a kept back edge's EXIT as the way out
 * of its loop nest: on the fold's, a loop nest that ends the kernel never leaves its loops */
int be_leave_join(const Fn *f, const int *kipd, int nb, int b)
{
	int l = f->blk[b].loop, j = f->blk[b].ipdom;

	if (l < 0 || j < 0 || !be_in_loop(f, l, j))
		return j;
	for (j = kipd[b]; j >= 0 && j < nb && be_in_loop(f, l, j); j = kipd[j])
		;
	return j >= 0 && j < nb ? j : -1;
}
