/* sync.c - reconvergence: where SSY goes, which edges arrive with .S.
 *
 * Needs uniform (Jmp.div), postdom, loops, regalloc done; adds loop preheaders; fills
 * Blk.push (SSY targets pushed at the end of the block) and Blk.arrive1/arrive2 (the edge's
 * lanes execute .S); breaks dominators, post-dominators and loops.
 *
 * First, a cycle entered at two or more of its blocks is made a natural loop (irred.c). A branch
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
 * Under --loop-sync pbk some targets are pushed with PBK and arrived at with BRK instead, as
 * ptxas 11.8 lowers them for sm_35 (Blk.brk), and some SSYs are passed by the BRKs (Blk.brkpass):
 * pbk.c holds those rules, which be_sync applies as it places the tokens (and crossed_joins
 * once the stacks settle). The tokens are of one kind per target, so the static stack above
 * is the same; the SM model's BRK leaves for the topmost BRK token as .S does for the
 * topmost SYNC token.
 */
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"

#define MAXD 64

/* an arrival at a join, for the join rule of be_sync */
typedef struct {
	int t;              /* the join */
	int path;           /* the path it comes by (be_join_path) */
	int cls;            /* 0 a jump, 1 a branch out, 2 a branch inside its loop, 3 a predicated
	                       side's own jump, 4 none */
} Arr;

static int arr_cmp(const void *x, const void *y)
{
	const Arr *a = x, *b = y;
	return a->t != b->t ? (a->t > b->t) - (a->t < b->t) :
	       a->path != b->path ? (a->path > b->path) - (a->path < b->path) :
	       (a->cls > b->cls) - (a->cls < b->cls);
}

typedef struct {
	int d;              /* depth, -1 unknown */
	int t[MAXD];        /* SYNC targets, bottom first */
	int from[MAXD];     /* block that pushed each */
} Stk;

/* the preheader of loop l: a new block on every edge entering the header from outside */
static int preheader(Fn *f, int l)
{
	int h = f->loops[l].header, p;
	Blk *H;

	p = be_jump_blk(f, h);
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
					if (up >= 0 && up != p->id && !f->blk[up].dead && be_postdominates(f, t, up) &&
					    be_outer_loop(f, up, t) < 0)
						be_add_push(f, up, t);
					break;
				}
		}
	if (n == 0)
		die("sync: stacks differ without a push to drop");
	return n;
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
	c = be_copy_blk(f, t);
	f->ndup++;
	be_set_edge(f, b, e, c);
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
			if (be_edge_to(f, p, e) != t)
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
			if (!be_postdominates(f, L->t[k], t) ||
			    be_outer_loop(f, ef[i] >= 0 ? ef[i] : ep[i], L->t[k]) >= 0)
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
				be_add_push(f, ef[i], L->t[k]);
			es[i].d = L->d;
			nsplit++;
		}
	/* one new block per missing suffix: the edges that lack the same tokens share it */
	for (int i = 0; i < ne; i++) {
		int x, lp;
		if (es[i].d == L->d)
			continue;
		x = be_jump_blk(f, t);
		Blk *X = &f->blk[x];
		for (int k = es[i].d; k < L->d; k++)
			*VPUSH(f->pool, X->push, X->npush, X->cappush) = L->t[k];
		lp = f->blk[ep[i]].loop;
		for (int j = ne - 1; j >= i; j--) {
			Blk *P = &f->blk[ep[j]];
			if (es[j].d != es[i].d)
				continue;
			be_set_edge(f, ep[j], ee[j], x);
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
			ok = be_postdominates(f, a->t[i], x) && be_outer_loop(f, x, a->t[i]) < 0 &&
			     !f->blk[x].dead;
			for (int j = k; ok && j < b->d; j++)
				ok = a->t[i] != b->t[j] && be_postdominates(f, a->t[i], b->t[j]);
			nw |= ok && !be_has_push(&f->blk[x], a->t[i]);
		}
		if (!ok || !nw)
			continue;
		for (int i = k; i < a->d; i++)
			be_add_push(f, x, a->t[i]);
		return 1;
	}
	return 0;
}

/* edge e of block b reaches t with stack o, t was reached with another one: the first
 * resolution that applies (edge pushes, the pusher adds, tail duplication, drop_diff);
 * >0 after a change, -1 when too deep */
static int resolve(Fn *f, Stk *in, int b, int e, const Stk *o)
{
	int t = be_edge_to(f, b, e), r = push_edges(f, in, t);

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
					int x = be_jump_blk(f, t);
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

/* ptxas 11.8's per-iteration PBK for a continue that crosses a join: a divergent branch b of
 * a loop whose two sides meet at a join x inside the trip (not the header), and a divergent
 * continue c (a branch to the loop's latch or header) that b's sides reach before x, whose
 * arriving edge goes past x: its target is marked brk, so every continue of the loop to it
 * leaves by BRK and b's branch stays a plain BRA inside the PBK region. A uniform b or c,
 * and a continue from the body's top level (before an if or after its join), keep SSY
 * (docs/fidelity.md, "What separates PBK from SSY"); so does one after b's region, which b's
 * immediate post-dominator dominates: when b's sides meet early (`if (a || b)`, clang's
 * mirror clamp), x is not that post-dominator, and the side that skips past x reaches the
 * rest of the body (tests/ptx/cont_after; eigenvalues' bisect kernels) */
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
		be_trip_reach(f, l, b->s1, -1, mark, 1, stk);
		be_trip_reach(f, l, b->s2, -1, mark, 2, stk);
		for (int j = 0; j < n; j++)   /* the join: the first block both sides reach */
			if (mark[j] == 3 && (x < 0 || f->blk[j].rpo < f->blk[x].rpo))
				x = j;
		if (x < 0)
			continue;
		be_trip_reach(f, l, b->s1, x, mark, 4, stk);
		be_trip_reach(f, l, b->s2, x, mark, 4, stk);
		for (int j = 0; j < n; j++) {
			const Blk *c = &f->blk[j];
			if (!(mark[j] & 4) || j == i || c->dead || in[j].d < 0 || c->jmp.kind != J_BRA ||
			    !c->jmp.pdiv || c->loop != l || be_latch_exit(f, c) ||
			    (b->ipdom >= 0 && b->ipdom < n && be_dominates(f, b->ipdom, j)))
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
		for (int e = 0; e < be_nedge(f, x); e++) {
			int t = be_edge_to(f, x, e);
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



/* a latch block of loop l's own (pbk.c's be_trip_latch): every back edge goes through it,
 * laid out after the last block that jumps back; the blocks of l whose paths all came round
 * to the header (kipd, the post-dominators of the first nb blocks) now meet at the latch */
static void make_latch(Fn *f, int l, const int *kipd, int nb)
{
	int h = f->loops[l].header, x = be_jump_blk(f, h), last = -1;

	f->blk[x].loop = l;
	for (int k = 0; k < f->nlay; k++) {
		int q = f->lay[k], back = 0;
		if (q == x || f->blk[q].dead || !be_in_loop(f, l, q))
			continue;
		for (int e = 0; e < be_nedge(f, q); e++)
			if (be_edge_to(f, q, e) == h) {
				be_set_edge(f, q, e, x);
				back = 1;
			}
		if (back)
			last = q;
	}
	if (last >= 0)
		be_lay_move(f, x, last, 1);
	for (int q = 0; q < nb; q++)
		if (q != h && !f->blk[q].dead && be_in_loop(f, l, q) && kipd[q] == h)
			f->blk[q].ipdom = x;
	be_preds(f);
}

/* under --loop-sync pbk, divergent branch b leaves its loop for block j, and the
 * post-dominators that take a kept back edge's EXIT as the way out of its loop nest (kipd:
 * a nest that ends the kernel, tests/ptx/loop_to_exit) make j b's join, where the fold's,
 * which see such a nest never leave its loops, put it inside the loop: j, else -1. Its
 * token then goes where a loop exit's goes, in the loop's preheader, and the leaving lanes
 * arrive at j (tests/ptx/brk_uni: the break of a uniform if/else, which pushes no SSY of
 * its own in the trip, as ptxas 11.8's listing has it); a break of a be_trip_join loop
 * leaves for the loop's PBK so (kept_fallback) */
static int kept_exit(Fn *f, const int *kipd, int nb, int b)
{
	const Blk *B = &f->blk[b];
	int j = kipd[b];

	if (B->dead || !B->jmp.div || B->jmp.kind != J_BRA || B->loop < 0 || B->ipdom == j ||
	    j < 0 || j >= f->nblk || (B->s1 != j && B->s2 != j) || be_in_loop(f, B->loop, j))
		return -1;
	/* not while another branch of the loop joins round its back edge (a continue past
	 * the join: its token, in the loop's preheader, would lie beneath j's) */
	for (int y = 0; y < nb; y++) {
		const Blk *Y = &f->blk[y];
		if (y != b && !Y->dead && Y->jmp.div && (Y->jmp.kind == J_BRA || Y->jmp.kind == J_BRX) &&
		    be_in_loop(f, B->loop, y) && Y->ipdom >= 0 && wrap_loop(f, y, Y->ipdom) >= 0)
			return -1;
	}
	return j;
}

int be_sync(Fn *f)
{
	int nb, *ph, *kipd = NULL;
	Stk *in = NULL;

	f->exitin = NULL;   /* pbk.c's live sets: made for this pass's code when first asked */
	be_reducible(f);
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
	/* a loop whose trip a continue cuts short, with a branch one of whose sides breaks: a
	 * latch of its own, the branch's join in the trip (be_trip_latch) */
	for (int i = 0, j; i < nb && kipd; i++) {
		const Blk *b = &f->blk[i];
		if (!b->dead && b->jmp.div && b->jmp.kind == J_BRA && b->loop >= 0 &&
		    (j = be_leave_join(f, kipd, nb, i)) >= 0 && be_trip_join(f, i, j) < 0 &&
		    be_trip_latch(f, i, j)) {
			make_latch(f, b->loop, kipd, nb);
			be_rpo(f);
		}
	}
	/* a loop exit of a nest that ends the kernel: its join where the kept back edge's EXIT
	 * puts it (kept_exit) */
	for (int i = 0, j; i < nb && kipd; i++)
		if ((j = kept_exit(f, kipd, nb, i)) >= 0)
			f->blk[i].ipdom = f->blk[i].brkj = j;
	/* the join of a divergent ret-nest: a PBK at the enclosing branch, BRK arrivals */
	for (int i = 0, p; i < nb && f->opt->loop_sync == BE_LOOP_PBK; i++)
		if (!f->blk[i].dead && f->blk[i].retjoin && (p = be_nest_push(f, i)) >= 0) {
			be_add_push(f, p, i);
			f->blk[i].brk = 1;
		}
	/* the preheaders first: every loop that a divergent branch leaves for a join outside it */
	for (int i = 0; i < nb; i++) {
		Blk *b = &f->blk[i];
		int l;
		if (b->dead || !b->jmp.div || (b->jmp.kind != J_BRA && b->jmp.kind != J_BRX) || b->ipdom < 0)
			continue;
		l = be_outer_loop(f, i, b->ipdom);
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
			    b->loop >= 0 && ph[b->loop] < 0 && (j = be_leave_join(f, kipd, nb, i)) >= 0 &&
			    be_trip_join(f, i, j) >= 0)
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
	 * the trip that the breaks pass; the side that breaks laid out last, as ptxas does) */
	for (int i = 0, j, x; i < nb && f->opt->loop_sync == BE_LOOP_PBK; i++) {
		Blk *b = &f->blk[i];
		if (b->dead || !b->jmp.div || (b->jmp.kind != J_BRA && b->jmp.kind != J_BRX) ||
		    b->ipdom < 0 || (j = be_leave_join(f, kipd, nb, i)) < 0 || (x = be_trip_join(f, i, j)) < 0)
			continue;
		be_add_push(f, ph[b->loop], j);
		f->blk[j].brk = 1;
		be_add_push(f, i, x);
		f->blk[x].brkpass = 1;
		b->tjoin = x;
		be_trip_order(f, i, x);
	}
	/* a uniform one, which needs no token, is laid out so too */
	for (int i = 0, j, x; i < nb && f->opt->loop_sync == BE_LOOP_PBK; i++) {
		const Blk *b = &f->blk[i];
		if (!b->dead && !b->jmp.div && b->jmp.kind == J_BRA && b->loop >= 0 &&
		    (j = be_leave_join(f, kipd, nb, i)) >= 0 && (x = be_trip_join(f, i, j)) >= 0)
			be_trip_order(f, i, x);
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
		l = be_outer_loop(f, i, j);
		if (l >= 0) {
			be_add_push(f, ph[l], j);
			if (f->opt->loop_sync == BE_LOOP_PBK && be_two_exits(f, l, nb))
				f->blk[j].brk = 1;
		} else if ((l = wrap_loop(f, i, j)) >= 0) {
			be_add_push(f, ph[l], j);
		} else {
			be_add_push(f, i, j);
		}
	}
	/* the break paths that ptxas brackets with an SSY inside the loop's PBK region */
	for (int i = 0, l; i < nb && f->opt->loop_sync == BE_LOOP_PBK; i++) {
		const Blk *b = &f->blk[i];
		if (!b->dead && b->jmp.div && b->jmp.kind == J_BRA && b->ipdom >= 0 &&
		    f->blk[b->ipdom].brk && (l = be_outer_loop(f, i, b->ipdom)) >= 0 && ph[l] >= 0)
			be_exit_sync(f, i, ph[l], b->ipdom);
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
	 * the join is the loop's header (myocyte's powf: two jumps and a test inside a loop,
	 * PBK), also at the latch: a continue beside the two jumps of an if/else that ends the
	 * body, or sinf's argument reduction ending it, PBK (tests/ptx/join_latch); continues
	 * beside one jump keep SSY (join_latch, Mandelbrot's skips to the latch). Nor does it
	 * count the breaks of a loop whose exits all go to that join: ptxas keeps the loop's
	 * SSY there, its breaks leaving by @P NOP.S, however many (tests/ptx/brk_chain;
	 * volumeRender's unrolled ray march). ptxas counts after if-conversion: the jump of a
	 * side predicated with its branch kept (Jmp.nest) is no jump and no branch of the
	 * chain, but counts toward the three edges beside two jumps (tests/ptx/else_chain: an
	 * else-if chain of short cases keeps SSY; else_chain_mix and mathlib's log1p, PBK) */
	if (f->opt->loop_sync == BE_LOOP_PBK) {
		/* per class of arrival (Arr.cls) and join, one after another */
		int *njmp = be_alloc(f->pool, 4 * sizeof(int) * (size_t)f->nblk), *nbra = njmp + f->nblk;
		int *nin = nbra + f->nblk;   /* conditional branches to a join in their loop */
		int *npred = nin + f->nblk;  /* the jumps of predicated sides (their branches kept) */
		/* per loop: 1 when its exits all go to one block, 0 when to two, -1 not yet asked */
		int8_t *one = be_alloc(f->pool, (size_t)f->nloops + 1);
		/* the arrivals, each of a path (be_join_path), the class it counts in: a jump,
		 * a branch out, a branch inside its loop, nothing; a path counts once, in the
		 * first class of its arrivals */
		Arr *arr = be_alloc(f->pool, 2 * sizeof(Arr) * (size_t)f->nblk);
		int narr = 0;
		memset(njmp, 0, 4 * sizeof(int) * (size_t)f->nblk);
		memset(one, -1, (size_t)f->nloops + 1);
		for (int i = 0; i < f->nblk; i++) {
			const Blk *b = &f->blk[i];
			int s[2] = {b->arrive1 ? b->s1 : -1, b->arrive2 ? b->s2 : -1}, c;
			if (b->dead || in[i].d < 0 || be_latch_exit(f, b))
				continue;
			for (int e = 0; e < 2; e++) {
				if (s[e] < 0)
					continue;
				else if (b->jmp.kind == J_JMP)
					c = 0;
				else if (b->jmp.nest && e == 0)
					c = 3;
				else if (!be_within_loop(f, b, s[e])) {
					int l = b->loop;
					if (l >= 0 && one[l] < 0)
						one[l] = !be_two_exits(f, l, f->nblk);
					c = l < 0 || !one[l] ? 1 : 4;
				}
				else
					c = s[e] == f->loops[b->loop].header ? 4 : 2;
				arr[narr++] = (Arr){s[e], be_join_path(f, i, s[e]), c};
			}
		}
		qsort(arr, (size_t)narr, sizeof *arr, arr_cmp);
		for (int k = 0; k < narr; k++)
			if ((k == 0 || arr[k].t != arr[k - 1].t || arr[k].path != arr[k - 1].path) &&
			    arr[k].cls < 4)
				njmp[(size_t)arr[k].cls * (size_t)f->nblk + (size_t)arr[k].t]++;
		for (int i = 0; i < f->nblk; i++)   /* (a token that breaks pass stays an SSY's) */
			if (((njmp[i] >= 2 && njmp[i] + nbra[i] + nin[i] + npred[i] >= 3) ||
			     nbra[i] >= 3) && !f->blk[i].brkpass)
				f->blk[i].brk = 1;
		/* a divergent branch whose sides meet before its join, the join's token its own */
		uint8_t *mark = be_alloc(f->pool, (size_t)f->nblk);
		int *stk = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));
		for (int i = 0; i < f->nblk; i++) {
			const Blk *b = &f->blk[i];
			int j = b->ipdom;
			Stk s;
			if (b->dead || in[i].d < 0 || !b->jmp.div || b->jmp.kind != J_BRA || j < 0 ||
			    j >= f->nblk || f->blk[j].brk || f->blk[j].brkpass || be_outer_loop(f, i, j) >= 0)
				continue;
			if (outstk(f, in, i, &s) < 0)
				return -1;
			if (s.d > 0 && s.t[s.d - 1] == j && be_sides_meet(f, b, j, mark, stk))
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
