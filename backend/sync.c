/* sync.c - reconvergence: where SSY goes, which edges arrive with .S.
 *
 * Needs uniform (Jmp.div), postdom, loops, regalloc done; adds loop preheaders; fills
 * Blk.push (SSY targets pushed at the end of the block) and Blk.arrive1/arrive2 (the edge's
 * lanes execute .S); breaks dominators, post-dominators and loops.
 *
 * First, a cycle entered at two or more of its blocks (irreducible: OptiX's megakernels enter
 * their state machine loop at its dispatch and at the handler that returns to it) is made a
 * natural loop by node splitting: the blocks that the other entries reach without passing
 * the chosen header are copied for the edges from outside the cycle (reducible()). A branch
 * whose join lies in its loop but across the back edge (wrap_loop) pushes in the loop's
 * preheader, as a loop exit does.
 *
 * Scheme (docs/backend.md): a divergent branch B reconverges at J = ipdom(B). The SSY J
 * goes right before B's branch, or, when B sits in loops that do not contain J, into the
 * preheader of the outermost such loop (an SSY inside the loop would push a token every
 * iteration). The preheaders are made first, and a branch outside such a loop whose J is the
 * loop's header takes the preheader as its J (its lanes meet there and pop their token
 * before the preheader pushes the loop's: a loop entered in its middle, tests/ptx/ssy_spin).
 * A branch whose innermost open region already ends at J shares that SSY.
 * A static CallReturnStack of SYNC targets is then propagated over the CFG in RPO: an edge
 * to the target on top arrives (its lanes execute .S and the token is popped), every other
 * edge carries the stack unchanged; every block must be reached with one stack. A block's
 * pushes already on top of its stack are not pushed again (whole: a block entered around a
 * loop's back edge with [a, b] still pushed and pushes a, b itself keeps [a, b]). A block
 * reached with two different stacks (unstructured flow: jumps into loops, several entries)
 * is resolved in this order: when the stacks differ only by tokens on top of some of them
 * whose targets post-dominate the block, the edges that lack them push them (a new block
 * on the edge); else, when the stacks are P + a and P + b, b pushed by one block X and a's
 * targets post-dominating X and b's, X pushes a's targets too, beneath its own (the pusher
 * adds); else the block is copied for the edge that carries the other stack (tail
 * duplication: no back edge into it but its own, at most 256 instructions, 64 copies per
 * function); else the push moves up to the immediate dominator when J post-dominates it
 * too; else it is dropped and its branch falls back to plain divergence (DIV tokens only:
 * still exact, but the verifier refuses it). J = the virtual exit needs no SSY. During the
 * pass the virtual exit is ipdom -1 (the blocks it adds take ids from Fn.nblk on).
 * Under --loop-sync pbk a target J placed in the preheader of a loop that leaves to two
 * different blocks (a divergent break past code its own exit runs) is marked Blk.brk: every
 * push of J is then a PBK and every arrival at J a BRK, as ptxas 11.8 lowers such loops for
 * sm_35. So is, once the stacks settle, a join that two or more jumps and three or more
 * edges in all arrive at (a switch's cases, libdevice's three-way argument reduction), or
 * three or more conditional branches (a chain of early exits: an unrolled loop's breaks);
 * two nested ifs that share their join keep SSY, as ptxas's do; of the conditional branches,
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
 * pass). J is the block the branch's lanes leave the loop for (leave_join): its immediate
 * post-dominator, or, when that lies in the loop (the side that stays comes round the back
 * edge before the loop's only way out, the break), the first block outside the loop up the
 * post-dominators that take a kept back edge's EXIT as the nest's way out (a loop nest that
 * ends the kernel: tests/ptx/kept_fallback); a break of that loop to J then leaves for J's
 * PBK too (Blk.brkj), not for where the fold's post-dominators put it. And so is the join of a divergent branch whose two sides meet before it, forward
 * (sides_meet: `if (a || b)`, whose body both sides reach, or clang's mirror clamp in dwt2d,
 * an inner test jumping to the join past a tail the other side shares), which ptxas brackets
 * with PBK, the branch a plain BRA inside. The tokens are of one kind
 * per target, so the static stack above is the same; the SM model's BRK leaves for the
 * topmost BRK token as .S does for the topmost SYNC token.
 */
#include <string.h>
#include "backend/be.h"

#define MAXD 64

typedef struct {
	int d;              /* depth, -1 unknown */
	int t[MAXD];        /* SYNC targets, bottom first */
	int from[MAXD];     /* block that pushed each */
} Stk;

/* a new empty block that jumps to t (placed and given its loop by the caller) */
static int jump_blk(Fn *f, int t)
{
	int x = be_newblk(f);
	Blk *X = &f->blk[x];

	X->jmp.kind = J_JMP;
	X->s1 = t;
	X->ipdom = t;
	X->pfirst = X->plast = f->blk[t].pfirst;
	return x;
}

/* the preheader of loop l: a new block on every edge entering the header from outside */
static int preheader(Fn *f, int l)
{
	int h = f->loops[l].header, p;
	Blk *H;

	p = jump_blk(f, h);
	f->blk[p].loop = f->loops[l].parent;
	H = &f->blk[h];
	for (int i = 0; i < H->npred; i++) {
		Blk *q = &f->blk[H->pred[i]];
		if (be_in_loop(f, l, q->id) || q->id == p)
			continue;
		if (q->s1 == h)
			q->s1 = p;
		if (q->s2 == h)
			q->s2 = p;
		if (q->jmp.kind == J_BRX)
			for (int k = 0; k < q->jmp.ntl; k++)
				if (f->tl[q->jmp.tl + k] == h)
					f->tl[q->jmp.tl + k] = p;
	}
	be_lay_move(f, p, h, 0);
	be_preds(f);
	return p;
}

/* does j post-dominate b (on the post-dominator tree computed before sync) */
static int postdominates(const Fn *f, int j, int b)
{
	for (int x = b, n = 0; x >= 0 && x < f->nblk && n <= f->nblk; x = f->blk[x].ipdom, n++)
		if (x == j)
			return 1;
	return 0;
}

/* the target of edge e of block b (e = 0, 1: s1, s2; e >= 2: BRX target e - 2) */
static int edge_to(const Fn *f, int b, int e)
{
	const Blk *B = &f->blk[b];

	return e == 0 ? B->s1 : e == 1 ? B->s2 : f->tl[B->jmp.tl + e - 2];
}

/* points edge e of block b at x */
static void set_edge(Fn *f, int b, int e, int x)
{
	Blk *B = &f->blk[b];

	if (e == 0)
		B->s1 = x;
	else if (e == 1)
		B->s2 = x;
	else
		f->tl[B->jmp.tl + e - 2] = x;
}

/* add target j to the pushes of block p, outermost (post-dominating) target first */
static void add_push(Fn *f, int p, int j)
{
	Blk *b = &f->blk[p];
	int at = b->npush;

	if (be_has_push(b, j))
		return;
	VPUSH(f->pool, b->push, b->npush, b->cappush);
	/* an inner target is post-dominated by an outer one: the outer is pushed first */
	for (int k = 0; k < at; k++)
		if (!postdominates(f, b->push[k], j)) {
			at = k;
			break;
		}
	memmove(&b->push[at + 1], &b->push[at], sizeof(int) * (size_t)(b->npush - 1 - at));
	b->push[at] = j;
}

/* does loop l (blocks of the first nb) leave to two different blocks: a break that skips
 * code the loop's own exit runs (ptxas 11.8 then brackets the loop with PBK; a loop whose
 * exits all go to one block keeps its SSY) */
static int two_exits(const Fn *f, int l, int nb)
{
	int first = -1;

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
			}
	}
	return 0;
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
static void exit_sync(Fn *f, int b, int p, int j)
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
	add_push(f, p, e);
	f->blk[e].brkpass = 1;
}

/* b is a loop's latch test: a conditional branch back to its header whose other edge leaves
 * the loop (the loop's own exit, which the forward-PBK rule does not count: ptxas keeps SSY
 * for a join that two skips and a loop's own exit reach, spmv's) */
static int latch_exit(const Fn *f, const Blk *b)
{
	int h;

	if (b->jmp.kind != J_BRA || b->loop < 0 || b->loop >= f->nloops)
		return 0;
	h = f->loops[b->loop].header;
	return (b->s1 == h && b->s2 >= 0 && !be_in_loop(f, b->loop, b->s2)) ||
	       (b->s2 == h && b->s1 >= 0 && !be_in_loop(f, b->loop, b->s1));
}

/* the edge from b to j stays inside b's loop (a skip to a later part of the body) */
static int within_loop(const Fn *f, const Blk *b, int j)
{
	return b->loop >= 0 && b->loop < f->nloops && be_in_loop(f, b->loop, j);
}

/* outermost loop containing b but not j, or -1 */
static int outer_loop(Fn *f, int b, int j)
{
	int best = -1;

	for (int l = f->blk[b].loop; l >= 0; l = f->loops[l].parent)
		if (!be_in_loop(f, l, j))
			best = l;
	return best;
}

/* the same targets (where a token was pushed does not matter to the lanes that pop it) */
static int same(const Stk *a, const Stk *b)
{
	if (a->d != b->d)
		return 0;
	for (int i = 0; i < a->d; i++)
		if (a->t[i] != b->t[i])
			return 0;
	return 1;
}

/* how many of block B's pushes are already on top of s: the largest m such that the top m
 * tokens are B->push[0..m), outermost first (pushing them again would nest a second region
 * with the same targets inside the first: a block entered around a loop's back edge with
 * its own tokens still pushed must not push them again) */
static int on_top(const Stk *s, const Blk *B)
{
	for (int m = B->npush < s->d ? B->npush : s->d; m > 0; m--) {
		int k = 0;
		while (k < m && s->t[s->d - m + k] == B->push[k])
			k++;
		if (k == m)
			return m;
	}
	return 0;
}

/* the stack at the end of block b, after its pushes; -1 when too deep */
static int outstk(Fn *f, const Stk *in, int b, Stk *s)
{
	const Blk *B = &f->blk[b];

	*s = in[b];
	for (int q = on_top(s, B); q < B->npush; q++) {
		if (s->d == MAXD) {
			be_errorf(f, f->pf->loc, "unsupported: reconvergence nesting deeper than %d", MAXD);
			return -1;
		}
		s->t[s->d] = B->push[q];
		s->from[s->d++] = b;
	}
	return 0;
}

/* resolve the pushes in which a and b differ: each moves up to the immediate dominator of
 * the block that pushed it when the target post-dominates that block too and no loop
 * lies between them (the paths that joined without the token now carry it as well), else
 * it is dropped (plain divergence); returns how many changed */
static int drop_diff(Fn *f, const Stk *a, const Stk *b)
{
	int n = 0, k = 0;

	while (k < a->d && k < b->d && a->t[k] == b->t[k])
		k++;
	for (const Stk *s = a; s; s = s == a ? b : NULL)
		for (int i = k; i < s->d; i++) {
			Blk *p = &f->blk[s->from[i]];
			int t = s->t[i], up = p->idom;
			for (int q = 0; q < p->npush; q++)
				if (p->push[q] == t) {
					memmove(&p->push[q], &p->push[q + 1], sizeof(int) * (size_t)(p->npush - q - 1));
					p->npush--;
					n++;
					if (up >= 0 && up != p->id && !f->blk[up].dead && postdominates(f, t, up) &&
					    outer_loop(f, up, t) < 0)
						add_push(f, up, t);
					break;
				}
		}
	if (n == 0)
		die("sync: stacks differ without a push to drop");
	return n;
}

/* a copy of block t (a one-block loop is copied with its back edge), placed last in the
 * layout; its edges lead where t's do */
static int copy_blk(Fn *f, int t)
{
	int c = be_newblk(f);
	Blk *T = &f->blk[t], *C = &f->blk[c];

	for (int k = 0; k < T->nins; k++)
		*VPUSH(f->pool, C->ins, C->nins, C->cap) = T->ins[k];
	for (int k = 0; k < T->npush; k++)
		*VPUSH(f->pool, C->push, C->npush, C->cappush) = T->push[k];
	C->jmp = T->jmp;
	C->s1 = T->s1 == t ? c : T->s1;
	C->s2 = T->s2 == t ? c : T->s2;
	if (T->jmp.kind == J_BRX) {
		/* its own target list (emission gives it its own jump table) */
		C->jmp.tl = f->ntl;
		for (int k = 0; k < T->jmp.ntl; k++) {
			int x = f->tl[T->jmp.tl + k];
			*VPUSH(f->pool, f->tl, f->ntl, f->captl) = x == t ? c : x;
		}
	}
	C->pfirst = T->pfirst;
	C->plast = T->plast;
	C->loop = T->loop;
	C->ipdom = T->ipdom;
	C->livein = T->livein;
	C->liveout = T->liveout;
	C->din = T->din;
	C->dout = T->dout;
	memcpy(C->why, T->why, sizeof C->why);
	return c;
}

/* how many edges block b has: s1, s2, then a BRX's targets (edge_to's numbering) */
static int nedge(const Fn *f, int b)
{
	return 2 + (f->blk[b].jmp.kind == J_BRX ? f->blk[b].jmp.ntl : 0);
}

/* the blocks of the cycle through the retreating edge eb -> eh (those on a path from eh to
 * eb) into c; those of them that a block outside c (or the function's start) enters into
 * ent; returns how many entries */
static int cycle_of(Fn *f, int eb, int eh, uint8_t *c, int *ent)
{
	int n = f->nblk, sp = 0, ne = 0;
	int *stk = be_alloc(f->pool, sizeof(int) * (size_t)(n * 4 + 4));
	uint8_t *fw = be_alloc(f->pool, (size_t)n);

	fw[eh] = 1;
	stk[sp++] = eh;
	while (sp) {
		int b = stk[--sp];
		for (int e = 0; e < nedge(f, b); e++) {
			int t = edge_to(f, b, e);
			if (t >= 0 && !fw[t]) {
				fw[t] = 1;
				stk[sp++] = t;
			}
		}
	}
	memset(c, 0, (size_t)n);
	c[eb] = 1;
	stk[sp++] = eb;
	while (sp) {
		const Blk *B = &f->blk[stk[--sp]];
		for (int k = 0; k < B->npred; k++) {
			int p = B->pred[k];
			if (fw[p] && !c[p] && !f->blk[p].dead) {
				c[p] = 1;
				stk[sp++] = p;
			}
		}
	}
	for (int b = 0; b < n; b++) {
		const Blk *B = &f->blk[b];
		int in = b == 0;
		if (!c[b])
			continue;
		for (int k = 0; k < B->npred && !in; k++)
			in = !c[B->pred[k]];
		if (in)
			ent[ne++] = b;
	}
	return ne;
}

/* into u: the blocks of cycle c that its entries other than h reach without passing h (what
 * a copy must hold so that the cycle is entered at h only); returns their instructions */
static int split_set(Fn *f, const uint8_t *c, const int *ent, int ne, int h, uint8_t *u)
{
	int n = f->nblk, sp = 0, size = 0;
	int *stk = be_alloc(f->pool, sizeof(int) * (size_t)(n + 1));

	memset(u, 0, (size_t)n);
	for (int i = 0; i < ne; i++)
		if (ent[i] != h) {
			u[ent[i]] = 1;
			stk[sp++] = ent[i];
		}
	while (sp) {
		int b = stk[--sp];
		size += f->blk[b].nins + 1;
		for (int e = 0; e < nedge(f, b); e++) {
			int t = edge_to(f, b, e);
			if (t >= 0 && c[t] && t != h && !u[t]) {
				u[t] = 1;
				stk[sp++] = t;
			}
		}
	}
	return size;
}

/* Irreducible cycles (a cycle entered at two or more blocks: OptiX's megakernels enter their
 * state-machine loop at its dispatch and, from the checks before it, at the block that
 * returns to the dispatch) have no header, so no preheader and no loop that the placement
 * knows, and their regions overlap around the cycle: made reducible first by node
 * splitting. Of the cycle's entries, the header h is the one that leaves least to copy; the
 * blocks that the other entries reach without passing h are copied, and every edge into
 * them from outside the cycle goes to the copies (whose edges among themselves go to
 * copies, the others where the originals' go). The copies run the same code, so the
 * kernel computes the same; the cycle is then a natural loop of header h. At most 16
 * rounds and 2048 copied instructions per function; beyond, the cycle stays as it was.
 * Returns 1 when blocks were copied (dominators, post-dominators and loops are then made
 * again). */
static int reducible(Fn *f)
{
	int copied = 0, any = 0;

	for (int round = 0; round < 16; round++) {
		int n = f->nblk, eb = -1, eh = -1, ne, h = -1, best = 0;
		int *ent, *map;
		uint8_t *c, *u;
		for (int b = 0; b < n && eb < 0; b++) {
			if (f->blk[b].dead || f->blk[b].rpo < 0)
				continue;
			for (int e = 0; e < nedge(f, b) && eb < 0; e++) {
				int t = edge_to(f, b, e);
				if (t >= 0 && f->blk[t].rpo <= f->blk[b].rpo && !be_dominates(f, t, b))
					eb = b, eh = t;
			}
		}
		if (eb < 0)
			break;
		c = be_alloc(f->pool, 2 * (size_t)n);
		u = c + n;
		ent = be_alloc(f->pool, sizeof(int) * (size_t)(2 * n));
		map = ent + n;
		ne = cycle_of(f, eb, eh, c, ent);
		for (int i = 0; i < ne; i++) {
			/* the function's first block cannot be copied: when it is an entry, the header */
			int sz = ent[i] == 0 ? 0 : split_set(f, c, ent, ne, ent[i], u);
			if (h < 0 || sz < best)
				h = ent[i], best = sz;
		}
		if (ne < 2 || copied + best > 2048)
			break;
		copied += split_set(f, c, ent, ne, h, u);
		for (int b = 0; b < n; b++)
			map[b] = u[b] ? copy_blk(f, b) : -1;
		/* the edges into the copied set from outside the cycle and from the copies go to
		 * the copies */
		for (int b = 0; b < f->nblk; b++) {
			if (f->blk[b].dead || (b < n && c[b]))
				continue;
			for (int e = 0; e < nedge(f, b); e++) {
				int t = edge_to(f, b, e);
				if (t >= 0 && t < n && u[t])
					set_edge(f, b, e, map[t]);
			}
		}
		any = 1;
		be_rpo(f);
		be_dom(f);
	}
	if (any) {
		be_postdom(f);
		be_loops(f);
	}
	return any;
}

/* a copy of block t for the edge e of block b (e = 0, 1: s1, s2; e >= 2: BRX target e - 2):
 * the code after a join that paths with different sync stacks share (tail duplication; a
 * one-block loop is copied with its back edge); returns 0 when t may not be copied (the
 * entry, a loop header with other back edges, large, or over budget) */
static int tail_dup(Fn *f, int b, int e, int t)
{
	Blk *T = &f->blk[t];
	int c;

	if (t == 0 || T->nins > 256 || f->ndup >= 64)
		return 0;
	for (int i = 0; i < T->npred; i++)
		if (f->blk[T->pred[i]].rpo >= T->rpo && T->pred[i] != t)
			return 0;  /* entered by a back edge other than its own (a one-block loop) */
	c = copy_blk(f, t);
	f->ndup++;
	set_edge(f, b, e, c);
	be_lay_move(f, c, b, 1);
	be_rpo(f);
	return 1;
}

/* a block t reached with stacks that differ only by tokens on top of some of them, whose
 * targets post-dominate t (a join shared by the paths of a region and by paths from outside
 * it, such as a skip to a loop's latch next to an if/else inside the loop): the edges that
 * lack the tokens push them (a new block on the edge), so every lane that reaches t waits
 * at the same targets. Exact: the lanes that push a token all reach its target (or exit),
 * and they wait there only for each other. Not on an edge inside a loop that does not
 * contain the target (a push per iteration). Returns the number of edges split, 0 when
 * the stacks are not of that form, -1 when too deep. */
static int push_edges(Fn *f, Stk *in, int t)
{
	enum { ME = 64 };
	int ep[ME], ee[ME], ef[ME], ne = 0, longest = -1, nsplit = 0;
	Stk es[ME];
	Blk *T = &f->blk[t];

	for (int i = 0; i < T->npred; i++) {
		int p = T->pred[i];
		Blk *P = &f->blk[p];
		Stk s;
		if (P->dead || in[p].d < 0)
			continue;
		if (outstk(f, in, p, &s) < 0)
			return -1;
		for (int e = 0; e < 2 + (P->jmp.kind == J_BRX ? P->jmp.ntl : 0); e++) {
			if (edge_to(f, p, e) != t)
				continue;
			if (ne == ME)
				return 0;
			es[ne] = s;
			ef[ne] = -1;
			if (s.d > 0 && s.t[s.d - 1] == t) {
				if (e >= 2)
					return 0;  /* an arriving BRX edge: split by propagate first */
				es[ne].d--;
				ef[ne] = s.from[s.d - 1];  /* the arrival resumes at t: its pusher pushes */
			}
			ep[ne] = p;
			ee[ne] = e;
			if (longest < 0 || es[ne].d > es[longest].d)
				longest = ne;
			ne++;
		}
	}
	if (longest < 0)
		return 0;
	const Stk *L = &es[longest];
	for (int i = 0; i < ne; i++) {
		for (int k = 0; k < es[i].d; k++)
			if (es[i].t[k] != L->t[k])
				return 0;
		for (int k = es[i].d; k < L->d; k++)
			if (!postdominates(f, L->t[k], t) ||
			    outer_loop(f, ef[i] >= 0 ? ef[i] : ep[i], L->t[k]) >= 0)
				return 0;
		/* an arriving edge whose pusher pushes every missing token already (they were on
		 * top of its own stack, so it does not push them again): nothing to add, and
		 * claiming progress here would repeat forever (gen-1045662c) */
		if (ef[i] >= 0 && es[i].d < L->d) {
			int nw = 0;
			for (int k = es[i].d; k < L->d && !nw; k++)
				nw = !be_has_push(&f->blk[ef[i]], L->t[k]);
			if (!nw)
				return 0;
		}
	}
	/* an arriving edge: the block that pushed the token it pops pushes the missing ones
	 * first (they post-dominate t, which post-dominates that block) */
	for (int i = 0; i < ne; i++)
		if (es[i].d < L->d && ef[i] >= 0) {
			for (int k = es[i].d; k < L->d; k++)
				add_push(f, ef[i], L->t[k]);
			es[i].d = L->d;
			nsplit++;
		}
	/* one new block per missing suffix: the edges that lack the same tokens share it */
	for (int i = 0; i < ne; i++) {
		int x, lp;
		if (es[i].d == L->d)
			continue;
		x = jump_blk(f, t);
		Blk *X = &f->blk[x];
		for (int k = es[i].d; k < L->d; k++)
			*VPUSH(f->pool, X->push, X->npush, X->cappush) = L->t[k];
		lp = f->blk[ep[i]].loop;
		for (int j = ne - 1; j >= i; j--) {
			Blk *P = &f->blk[ep[j]];
			if (es[j].d != es[i].d)
				continue;
			set_edge(f, ep[j], ee[j], x);
			/* conservative: in the deepest loop of a source (no edge lies in a loop
			 * without the targets: checked above) */
			if (P->loop >= 0 && (lp < 0 || f->loops[P->loop].depth > f->loops[lp].depth))
				lp = P->loop;
			es[j].d = L->d;  /* done */
		}
		f->blk[x].loop = lp;
		be_lay_move(f, x, t, 0);
		nsplit++;
	}
	if (nsplit == 0)
		die("sync: stacks differ in length only, yet none is shorter");
	be_rpo(f);
	return nsplit;
}

/* a block reached with P + a and P + b (a common bottom P, then different tokens a, b), where
 * every token of b was pushed by one block X and every target of a post-dominates X and every
 * target of b, with no loop between X and them: X pushes a's targets too, beneath its own
 * (they are the outer regions), so the second stack becomes P + a + b and edge pushes (1)
 * finish the job. The shape: an inner loop's back-edge branch X reconverges at the header H
 * ([.., H]) while the header's exit branch leaves the loop with [.., J], J = ipdom(H), and
 * both reach the loop's exit block (generated program 1045662). Exact as the edge pushes are:
 * the lanes that run X all reach those targets or exit. Returns 1 when X gained a push. */
static int pusher_adds(Fn *f, const Stk *A, const Stk *B)
{
	int k = 0;

	while (k < A->d && k < B->d && A->t[k] == B->t[k])
		k++;
	for (const Stk *a = A, *b = B; a; a = a == A ? B : NULL, b = b == B ? A : NULL) {
		int x = k < b->d ? b->from[k] : -1, ok = k < a->d && x >= 0, nw = 0;
		for (int i = k; ok && i < b->d; i++)
			ok = b->from[i] == x;
		for (int i = k; ok && i < a->d; i++) {
			ok = postdominates(f, a->t[i], x) && outer_loop(f, x, a->t[i]) < 0 &&
			     !f->blk[x].dead;
			for (int j = k; ok && j < b->d; j++)
				ok = a->t[i] != b->t[j] && postdominates(f, a->t[i], b->t[j]);
			nw |= ok && !be_has_push(&f->blk[x], a->t[i]);
		}
		if (!ok || !nw)
			continue;
		for (int i = k; i < a->d; i++)
			add_push(f, x, a->t[i]);
		return 1;
	}
	return 0;
}

/* edge e of block b reaches t with stack o, t was reached with another one: the first
 * resolution that applies (edge pushes, the pusher adds, tail duplication, drop_diff);
 * >0 after a change, -1 when too deep */
static int resolve(Fn *f, Stk *in, int b, int e, const Stk *o)
{
	int t = edge_to(f, b, e), r = push_edges(f, in, t);

	if (r != 0)
		return r;
	if (pusher_adds(f, &in[t], o) || tail_dup(f, b, e, t))
		return 1;
	return drop_diff(f, &in[t], o);
}

/* the depth of s once an edge to t has arrived: t's token on top, or a PBK target t beneath
 * the SYNC tokens of break paths only, which a BRK passes (its lanes leave them too); -1 when
 * the edge does not arrive */
static int arrives(const Fn *f, const Stk *s, int t)
{
	int q = s->d - 1;

	while (q > 0 && s->t[q] != t && f->blk[s->t[q]].brkpass && f->blk[t].brk)
		q--;
	return q >= 0 && s->t[q] == t ? q : -1;
}

/* propagate the static stack; 0 when consistent, >0 after dropping pushes */
static int propagate(Fn *f, Stk *in)
{
	int n = f->nblk, *order = be_alloc(f->pool, sizeof(int) * (size_t)n), norder = 0;

	for (int i = 0; i < n; i++) {
		in[i].d = -1;
		f->blk[i].arrive1 = f->blk[i].arrive2 = 0;
	}
	for (int i = 0; i < n; i++)
		if (!f->blk[i].dead && f->blk[i].rpo >= 0)
			order[f->blk[i].rpo] = i, norder++;
	in[0].d = 0;
	for (int k = 0; k < norder; k++) {
		Blk *b = &f->blk[order[k]];
		Stk s;
		int succ[2] = {b->s1, b->s2};
		if (in[b->id].d < 0)
			continue;
		if (outstk(f, in, b->id, &s) < 0)
			return -1;
		for (int e = 0; e < 2; e++) {
			Stk o = s;
			int q;
			if (succ[e] < 0)
				continue;
			if ((q = arrives(f, &o, succ[e])) >= 0) {
				o.d = q;
				if (e == 0)
					b->arrive1 = 1;
				else
					b->arrive2 = 1;
			}
			if (in[succ[e]].d < 0)
				in[succ[e]] = o;
			else if (!same(&in[succ[e]], &o))
				return resolve(f, in, b->id, e, &o);
		}
		if (b->jmp.kind == J_BRX)
			for (int e = 0; e < b->jmp.ntl; e++) {
				int t = f->tl[b->jmp.tl + e];
				if (arrives(f, &s, t) >= 0) {
					/* an arriving edge of an indirect branch: split it (a brx.idx
					 * whose break passes a break path's SSY too) */
					int x = jump_blk(f, t);
					f->tl[b->jmp.tl + e] = x;
					be_rpo(f);
					return 1;
				}
				if (in[t].d < 0)
					in[t] = s;
				else if (!same(&in[t], &s))
					return resolve(f, in, b->id, e + 2, &s);
			}
	}
	return 0;
}

/* the blocks of loop l that s reaches in one trip (the header not entered, nor block x), their
 * mark or'ed with v; stk holds Fn.nblk ids */
static void trip_reach(const Fn *f, int l, int s, int x, uint8_t *mark, uint8_t v, int *stk)
{
	int sp = 0, h = f->loops[l].header;

	if (s < 0 || s == h || s == x || !be_in_loop(f, l, s) || (mark[s] & v))
		return;
	mark[s] |= v;
	stk[sp++] = s;
	while (sp) {
		int b = stk[--sp];
		for (int e = 0; e < nedge(f, b); e++) {
			int t = edge_to(f, b, e);
			if (t < 0 || t == h || t == x || !be_in_loop(f, l, t) || (mark[t] & v))
				continue;
			mark[t] |= v;
			stk[sp++] = t;
		}
	}
}

/* ptxas 11.8's per-iteration PBK for a continue that crosses a join: a divergent branch b of
 * a loop whose two sides meet at a join x inside the trip (not the header), and a divergent
 * continue c (a branch to the loop's latch or header) that b's sides reach before x, whose
 * arriving edge goes past x: its target is marked brk, so every continue of the loop to it
 * leaves by BRK and b's branch stays a plain BRA inside the PBK region. A uniform b or c,
 * and a continue from the body's top level (before an if or after its join), keep SSY
 * (docs/fidelity.md, "What separates PBK from SSY") */
static void crossed_joins(Fn *f, const Stk *in)
{
	int n = f->nblk, *stk = be_alloc(f->pool, sizeof(int) * (size_t)n);
	uint8_t *mark = be_alloc(f->pool, (size_t)n);

	for (int i = 0; i < n; i++) {
		const Blk *b = &f->blk[i];
		int l = b->loop, x = -1;
		if (b->dead || in[i].d < 0 || b->jmp.kind != J_BRA || !b->jmp.pdiv || l < 0 ||
		    l >= f->nloops)
			continue;
		memset(mark, 0, (size_t)n);
		trip_reach(f, l, b->s1, -1, mark, 1, stk);
		trip_reach(f, l, b->s2, -1, mark, 2, stk);
		for (int j = 0; j < n; j++)   /* the join: the first block both sides reach */
			if (mark[j] == 3 && (x < 0 || f->blk[j].rpo < f->blk[x].rpo))
				x = j;
		if (x < 0)
			continue;
		trip_reach(f, l, b->s1, x, mark, 4, stk);
		trip_reach(f, l, b->s2, x, mark, 4, stk);
		for (int j = 0; j < n; j++) {
			const Blk *c = &f->blk[j];
			if (!(mark[j] & 4) || j == i || c->dead || in[j].d < 0 || c->jmp.kind != J_BRA ||
			    !c->jmp.pdiv || c->loop != l || latch_exit(f, c))
				continue;
			if (c->arrive1 && c->s1 != x && be_cont_target(f, l, c->s1) &&
			    !f->blk[c->s1].brkpass)
				f->blk[c->s1].brk = 1;
			if (c->arrive2 && c->s2 != x && be_cont_target(f, l, c->s2) &&
			    !f->blk[c->s2].brkpass)
				f->blk[c->s2].brk = 1;
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
		for (int k = 0; k < nedge(f, x); k++) {
			int t = edge_to(f, x, k);
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
static int sides_meet(const Fn *f, const Blk *b, int j, uint8_t *mark, int *stk)
{
	memset(mark, 0, (size_t)f->nblk);
	ahead_reach(f, b->id, b->s1, j, mark, 1, stk);
	ahead_reach(f, b->id, b->s2, j, mark, 2, stk);
	for (int x = 0; x < f->nblk; x++)
		if (mark[x] == 3)
			return 1;
	return 0;
}

/* the loop of branch b whose paths meet at j (in the loop) only around its back edge: some
 * path from b reaches the header before j, and none leaves the loop first (a state machine
 * loop left only by exit: a test of its dispatch meets the cases at the next test, which the
 * lanes that take the test's branch reach only in the next trip); -1 otherwise. The token of
 * j then goes into the loop's preheader, so that it waits on the stack when the lanes come
 * round (the edge pushes push it again on the paths that popped it in the trip) */
static int wrap_loop(Fn *f, int b, int j)
{
	int l = f->blk[b].loop, n = f->nblk, sp = 0, wraps = 0, h;
	int *stk;
	uint8_t *seen;

	if (l < 0 || !be_in_loop(f, l, j) || j == (h = f->loops[l].header))
		return -1;
	stk = be_alloc(f->pool, sizeof(int) * (size_t)(n + 1));
	seen = be_alloc(f->pool, (size_t)n);
	seen[b] = 1;
	stk[sp++] = b;
	while (sp) {
		int x = stk[--sp];
		for (int e = 0; e < nedge(f, x); e++) {
			int t = edge_to(f, x, e);
			if (t < 0 || t == j || seen[t])
				continue;
			if (!be_in_loop(f, l, t))
				return -1;
			if (t == h) {
				wraps = 1;
				continue;
			}
			seen[t] = 1;
			stk[sp++] = t;
		}
	}
	return wraps ? l : -1;
}

/* where the PBK of ret-nest join j goes (ifconv.c marked it Blk.retjoin): its immediate
 * dominator p, the enclosing branch, when every path from p reaches j or returns, with no
 * loop in between; -1 otherwise (the ret-nest's branch then stays a plain divergent BRA:
 * exact, only not ptxas's shape). A divergent branch inside whose region also ends at j
 * shares the token (its push of j is then on top already), as ptxas's does (tests/ptx/ret_nest's
 * nest_deep: the inner if/else's sides both leave by BRK) */
static int nest_push(Fn *f, int j)
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
		for (int e = 0; e < nedge(f, b->id); e++) {
			int t = edge_to(f, b->id, e);
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

/* ptxas 11.8's SSY at the join of a branch with a side that breaks (tests/ptx/brk_nest): a
 * divergent branch b of loop l whose paths meet at a block x of l's own trip, all but those
 * that break out of l to b's immediate post-dominator j, gets an SSY of x every trip, which
 * the breaks leave by BRK past it (j is then a PBK target), when two or more of b's sides
 * reach x (an if whose other side only breaks needs none: brk_div). x is the first block, in
 * reverse post-order, that every path from b reaches or breaks before; paths that return,
 * exit, go round l, through an inner loop or out of l elsewhere make none. Returns x or -1 */
static int trip_join(Fn *f, int b, int j)
{
	const Blk *B = &f->blk[b];
	int l = B->loop, n = f->nblk, h, nc = 0, sp = 0;
	int *stk, *cand;
	uint8_t *seen;

	if (l < 0 || l >= f->nloops || outer_loop(f, b, j) != l)
		return -1;
	h = f->loops[l].header;
	stk = be_alloc(f->pool, sizeof(int) * (size_t)(n + 1));
	seen = be_alloc(f->pool, (size_t)n);
	cand = be_alloc(f->pool, sizeof(int) * (size_t)n);
	/* the candidates: the blocks of l's own trip that b reaches, in reverse post-order */
	for (int e = 0; e < nedge(f, b); e++)
		trip_reach(f, l, edge_to(f, b, e), -1, seen, 1, stk);
	for (int t = 0; t < n; t++) {
		int k;
		if (!seen[t] || f->blk[t].loop != l)
			continue;
		for (k = nc++; k > 0 && f->blk[cand[k - 1]].rpo > f->blk[t].rpo; k--)
			cand[k] = cand[k - 1];
		cand[k] = t;
	}
	for (int c = 0; c < nc; c++) {
		int x = cand[c], ok = 1, reach = 0, brk = 0;
		/* from b, not through x: only blocks of l's own trip, leaving only to j */
		memset(seen, 0, (size_t)n);
		seen[b] = 1;
		stk[sp++] = b;
		while (sp) {
			int y = stk[--sp], ns = 0;
			for (int e = 0; e < nedge(f, y); e++) {
				int t = edge_to(f, y, e);
				if (t < 0)
					continue;
				ns++;
				brk |= t == j;
				if (t == x || t == j)
					continue;
				ok &= t != h && f->blk[t].loop == l;
				if (seen[t])
					continue;
				seen[t] = 1;
				stk[sp++] = t;
			}
			ok &= ns > 0;
		}
		if (!ok)
			continue;
		if (!brk)
			return -1;   /* x post-dominates b: an if inside the trip, nothing breaks */
		/* the sides that arrive at x (within the trip) */
		for (int e = 0; e < nedge(f, b); e++) {
			int t = edge_to(f, b, e), dup = 0;
			for (int d = 0; d < e; d++)
				dup |= edge_to(f, b, d) == t;
			memset(seen, 0, (size_t)n);
			trip_reach(f, l, t, -1, seen, 1, stk);
			reach += !dup && seen[x];
		}
		return reach >= 2 ? x : -1;
	}
	return -1;
}

/* the block that b's lanes leave b's loop for: b's immediate post-dominator, or, when that lies
 * in the loop (a side that does not break comes round the back edge before it reaches the
 * loop's exit: an if/else whose one side breaks, tests/ptx/kept_fallback), the first block
 * up b's post-dominator chain outside the loop; -1 when that is the exit. On kipd, the
 * post-dominators (of the first nb blocks) that see a kept back edge's EXIT as the way out
 * of its loop nest: on the fold's, a loop nest that ends the kernel never leaves its loops */
static int leave_join(const Fn *f, const int *kipd, int nb, int b)
{
	int l = f->blk[b].loop, j = f->blk[b].ipdom;

	if (l < 0 || j < 0 || !be_in_loop(f, l, j))
		return j;
	for (j = kipd[b]; j >= 0 && j < nb && be_in_loop(f, l, j); j = kipd[j])
		;
	return j >= 0 && j < nb ? j : -1;
}

int be_sync(Fn *f)
{
	int nb, *ph, *kipd = NULL;
	Stk *in = NULL;

	reducible(f);
	nb = f->nblk;
	if (f->opt->loop_sync == BE_LOOP_PBK)
		kipd = be_postdom_kept(f);
	ph = be_alloc(f->pool, sizeof(int) * (size_t)(f->nloops + 1));

	for (int l = 0; l < f->nloops; l++)
		ph[l] = -1;
	/* the virtual exit (id nblk) becomes -1: the blocks this pass adds take ids from nblk
	 * on, and a walk up the post-dominator tree must not mistake one for the exit */
	for (int i = 0; i < nb; i++)
		if (f->blk[i].ipdom >= nb)
			f->blk[i].ipdom = -1;
	/* the join of a divergent ret-nest: a PBK at the enclosing branch, BRK arrivals */
	for (int i = 0, p; i < nb && f->opt->loop_sync == BE_LOOP_PBK; i++)
		if (!f->blk[i].dead && f->blk[i].retjoin && (p = nest_push(f, i)) >= 0) {
			add_push(f, p, i);
			f->blk[i].brk = 1;
		}
	/* the preheaders first: every loop that a divergent branch leaves for a join outside it */
	for (int i = 0; i < nb; i++) {
		Blk *b = &f->blk[i];
		int l;
		if (b->dead || !b->jmp.div || (b->jmp.kind != J_BRA && b->jmp.kind != J_BRX) || b->ipdom < 0)
			continue;
		l = outer_loop(f, i, b->ipdom);
		if (l < 0)
			l = wrap_loop(f, i, b->ipdom);
		if (l >= 0 && ph[l] < 0)
			ph[l] = preheader(f, l);
	}
	/* and every loop with a branch whose side breaks past a join in the trip (trip_join) */
	if (f->opt->loop_sync == BE_LOOP_PBK) {
		be_rpo(f);
		for (int i = 0, j; i < nb; i++) {
			const Blk *b = &f->blk[i];
			if (!b->dead && b->jmp.div && (b->jmp.kind == J_BRA || b->jmp.kind == J_BRX) &&
			    b->loop >= 0 && ph[b->loop] < 0 && (j = leave_join(f, kipd, nb, i)) >= 0 &&
			    trip_join(f, i, j) >= 0)
				ph[b->loop] = preheader(f, b->loop);
		}
	}
	/* a block outside such a loop whose immediate post-dominator was its header now reaches
	 * the header through the preheader only: the preheader is its join (an if right before
	 * the loop reconverges there, and the loop's own SSY is pushed after it; with the header
	 * as the target, that token would wait beneath the loop's) */
	for (int l = 0; l < f->nloops; l++)
		if (ph[l] >= 0)
			for (int i = 0; i < nb; i++)
				if (!f->blk[i].dead && f->blk[i].ipdom == f->loops[l].header &&
				    !be_in_loop(f, l, i))
					f->blk[i].ipdom = ph[l];
	if (f->opt->loop_sync == BE_LOOP_PBK)
		be_rpo(f);   /* the preheaders' too: trip_join orders blocks by it */
	/* placement: first the branches one of whose sides breaks past a join in the trip (a
	 * side breaks: the loop's PBK, even when all its exits go to j, and an SSY of the join in
	 * the trip that the breaks pass) */
	for (int i = 0, j, x; i < nb && f->opt->loop_sync == BE_LOOP_PBK; i++) {
		Blk *b = &f->blk[i];
		if (b->dead || !b->jmp.div || (b->jmp.kind != J_BRA && b->jmp.kind != J_BRX) ||
		    b->ipdom < 0 || (j = leave_join(f, kipd, nb, i)) < 0 || (x = trip_join(f, i, j)) < 0)
			continue;
		add_push(f, ph[b->loop], j);
		f->blk[j].brk = 1;
		add_push(f, i, x);
		f->blk[x].brkpass = 1;
		b->tjoin = x;
	}
	for (int i = 0; i < nb; i++) {
		Blk *b = &f->blk[i];
		int j, l;
		if (b->dead || !b->jmp.div || (b->jmp.kind != J_BRA && b->jmp.kind != J_BRX) ||
		    b->tjoin >= 0)
			continue;
		j = b->ipdom;
		if (j < 0)
			continue;  /* every path ends the thread: nothing to reconverge */
		/* a break of such a loop (an edge to its PBK's target) leaves for that target (on the
		 * fold's post-dominators of a loop nest that ends the kernel, it would wait in the
		 * trip or at the header) */
		if (f->opt->loop_sync == BE_LOOP_PBK && b->jmp.kind == J_BRA && b->loop >= 0 &&
		    ph[b->loop] >= 0 && (l = leave_join(f, kipd, nb, i)) >= 0 && l != j &&
		    (b->s1 == l || b->s2 == l) && f->blk[l].brk && be_has_push(&f->blk[ph[b->loop]], l))
			j = b->brkj = l;
		l = outer_loop(f, i, j);
		if (l >= 0) {
			add_push(f, ph[l], j);
			if (f->opt->loop_sync == BE_LOOP_PBK && two_exits(f, l, nb))
				f->blk[j].brk = 1;
		} else if ((l = wrap_loop(f, i, j)) >= 0) {
			add_push(f, ph[l], j);
		} else {
			add_push(f, i, j);
		}
	}
	/* the break paths that ptxas brackets with an SSY inside the loop's PBK region */
	for (int i = 0, l; i < nb && f->opt->loop_sync == BE_LOOP_PBK; i++) {
		const Blk *b = &f->blk[i];
		if (!b->dead && b->jmp.div && b->jmp.kind == J_BRA && b->ipdom >= 0 &&
		    f->blk[b->ipdom].brk && (l = outer_loop(f, i, b->ipdom)) >= 0 && ph[l] >= 0)
			exit_sync(f, i, ph[l], b->ipdom);
	}
	be_rpo(f);
	for (int guard = 0, cap = 0;; guard++) {
		int r;
		if (f->nblk > cap) {  /* one array while no block is added: propagate fills it */
			cap = 2 * f->nblk;
			in = be_alloc(f->pool, sizeof(Stk) * (size_t)cap);
		}
		r = propagate(f, in);
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		if (guard > 10000) {
			/* a resolution that undoes another: refused rather than looping */
			be_errorf(f, f->pf->loc, "unsupported: reconvergence placement does not settle "
			          "(regions that overlap around a loop)");
			return -1;
		}
	}
	/* a join that three or more paths reach by a jump (the cases of a switch), or three or
	 * more conditional branches (a chain of early exits to one place): ptxas 11.8
	 * brackets such a region with PBK as well (two nested ifs sharing a join keep SSY).
	 * Of the conditional branches to a join inside their loop, the chain does not count
	 * them (spmv's and lavaMD's unrolled remainders keep SSY), the jumps' rule does unless
	 * the join is the loop's latch or header (myocyte's powf: two jumps and a test inside
	 * a loop, PBK; Mandelbrot's skips to the latch, SSY) */
	if (f->opt->loop_sync == BE_LOOP_PBK) {
		int *njmp = be_alloc(f->pool, 3 * sizeof(int) * (size_t)f->nblk), *nbra = njmp + f->nblk;
		int *nin = nbra + f->nblk;   /* conditional branches to a join in their loop */
		memset(njmp, 0, 3 * sizeof(int) * (size_t)f->nblk);
		for (int i = 0; i < f->nblk; i++) {
			const Blk *b = &f->blk[i];
			int s[2] = {b->arrive1 ? b->s1 : -1, b->arrive2 ? b->s2 : -1};
			if (b->dead || in[i].d < 0 || latch_exit(f, b))
				continue;
			for (int e = 0; e < 2; e++)
				if (s[e] < 0)
					continue;
				else if (b->jmp.kind == J_JMP)
					njmp[s[e]]++;
				else if (!within_loop(f, b, s[e]))
					nbra[s[e]]++;
				else if (!be_cont_target(f, b->loop, s[e]))
					nin[s[e]]++;
		}
		for (int i = 0; i < f->nblk; i++)   /* (a token that breaks pass stays an SSY's) */
			if (((njmp[i] >= 2 && njmp[i] + nbra[i] + nin[i] >= 3) || nbra[i] >= 3) &&
			    !f->blk[i].brkpass)
				f->blk[i].brk = 1;
		/* a divergent branch whose sides meet before its join, the join's token its own */
		uint8_t *mark = be_alloc(f->pool, (size_t)f->nblk);
		int *stk = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));
		for (int i = 0; i < f->nblk; i++) {
			const Blk *b = &f->blk[i];
			int j = b->ipdom;
			Stk s;
			if (b->dead || in[i].d < 0 || !b->jmp.div || b->jmp.kind != J_BRA || j < 0 ||
			    j >= f->nblk || f->blk[j].brk || f->blk[j].brkpass || outer_loop(f, i, j) >= 0)
				continue;
			if (outstk(f, in, i, &s) < 0)
				return -1;
			if (s.d > 0 && s.t[s.d - 1] == j && sides_meet(f, b, j, mark, stk))
				f->blk[j].brk = 1;
		}
		crossed_joins(f, in);
	}
	/* keep only the pushes that happen (those already on top are not pushed again) */
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = &f->blk[i];
		Stk s = in[i];
		int n = 0;
		if (b->dead || s.d < 0) {
			b->npush = 0;
			continue;
		}
		for (int q = on_top(&s, b); q < b->npush; q++)
			b->push[n++] = b->push[q];
		b->npush = n;
	}
	return 0;
}
