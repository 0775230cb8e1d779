/* dom.c - dominators, post-dominators and natural loops.
 *
 * "A Simple, Fast Dominance Algorithm" (Cooper, Harvey, Kennedy, 2001), run on the CFG for
 * dominators and on the reversed CFG from a virtual exit (index Fn.nblk) for
 * post-dominators. Every block that ends a thread (J_EXIT, J_RET) is an edge to the
 * virtual exit; a region that cannot reach an exit (an infinite loop) gets a fake edge to
 * it from its block with the highest RPO number, until every live block reaches the exit.
 * be_postdom_kept gives them with the guarded EXIT of a loop's back edge kept before it
 * (cfg.c, folded 3) as an edge to the exit too, the loop nest's real way out, which the
 * placement of sync.c's loop tokens asks for under --loop-sync pbk (pbk.c's be_leave_join).
 * be_dom needs be_rpo; be_loops needs be_dom: a back edge is an edge to a dominator, its
 * natural loop the blocks that reach the latch without the header; loops with the same
 * header merge. Nothing is broken.
 */
#include <string.h>
#include "backend/be.h"

/* idom[] over n nodes; order[] holds the nodes in RPO (order[0] the root); rpo[] their
 * numbers; pred lists in adjacency form */
void be_chk_idom(int n, const int *order, int norder, const int *rpo, int *const *pred,
                 const int *npred, int *idom)
{
	int changed = 1;

	for (int i = 0; i < n; i++)
		idom[i] = -1;
	idom[order[0]] = order[0];
	while (changed) {
		changed = 0;
		for (int k = 1; k < norder; k++) {
			int b = order[k], nd = -1;
			for (int j = 0; j < npred[b]; j++) {
				int p = pred[b][j];
				if (idom[p] < 0)
					continue;
				if (nd < 0) {
					nd = p;
					continue;
				}
				int f1 = p, f2 = nd;
				while (f1 != f2) {
					while (rpo[f1] > rpo[f2])
						f1 = idom[f1];
					while (rpo[f2] > rpo[f1])
						f2 = idom[f2];
				}
				nd = f1;
			}
			if (nd >= 0 && idom[b] != nd) {
				idom[b] = nd;
				changed = 1;
			}
		}
	}
}

void be_dom(Fn *f)
{
	int n = f->nblk, norder = 0;
	int *order = be_alloc(f->pool, sizeof(int) * (size_t)n);
	int *rpo = be_alloc(f->pool, sizeof(int) * (size_t)n);
	int **pred = be_alloc(f->pool, sizeof(int *) * (size_t)n);
	int *npred = be_alloc(f->pool, sizeof(int) * (size_t)n);
	int *idom = be_alloc(f->pool, sizeof(int) * (size_t)n);

	for (int i = 0; i < n; i++) {
		Blk *b = &f->blk[i];
		rpo[i] = b->rpo;
		pred[i] = b->pred;
		npred[i] = b->dead ? 0 : b->npred;
		if (!b->dead && b->rpo >= 0)
			order[b->rpo] = i, norder++;
	}
	be_chk_idom(n, order, norder, rpo, pred, npred, idom);
	for (int i = 0; i < n; i++)
		f->blk[i].idom = i == 0 || f->blk[i].dead ? -1 : idom[i];
}

int be_dominates(const Fn *f, int a, int b)
{
	while (b >= 0 && b != a)
		b = f->blk[b].idom;
	return b == a;
}

/* successors of a block as a list */
static int succs(const Fn *f, int b, int *out)
{
	const Blk *B = &f->blk[b];
	int n = 0;

	if (B->jmp.kind == J_BRX) {
		for (int k = 0; k < B->jmp.ntl; k++)
			out[n++] = f->tl[B->jmp.tl + k];
		return n;
	}
	if (B->s1 >= 0)
		out[n++] = B->s1;
	if (B->s2 >= 0 && B->s2 != B->s1)
		out[n++] = B->s2;
	return n;
}

/* the immediate post-dominators into ipdom (n for the virtual exit); kept: a loop's back edge
 * kept before the EXIT (cfg.c, folded 3) is an edge to the exit too, its guarded EXIT the
 * loop's way out */
static void postdom(Fn *f, int kept, int *ipdom)
{
	int n = f->nblk, X = n, N = n + 1;
	int **rsucc = be_alloc(f->pool, sizeof(int *) * (size_t)N);  /* reverse-graph succs = CFG preds */
	int *nrsucc = be_alloc(f->pool, sizeof(int) * (size_t)N);
	int **rpred = be_alloc(f->pool, sizeof(int *) * (size_t)N);  /* reverse-graph preds = CFG succs */
	int *nrpred = be_alloc(f->pool, sizeof(int) * (size_t)N);
	int *caprs = be_alloc(f->pool, sizeof(int) * (size_t)N);
	int *caprp = be_alloc(f->pool, sizeof(int) * (size_t)N);
	int *order = be_alloc(f->pool, sizeof(int) * (size_t)N);
	int *rpo = be_alloc(f->pool, sizeof(int) * (size_t)N);
	int *idom = be_alloc(f->pool, sizeof(int) * (size_t)N);
	int *stk = be_alloc(f->pool, sizeof(int) * (size_t)N);
	int *nexti = be_alloc(f->pool, sizeof(int) * (size_t)N);
	int *post = be_alloc(f->pool, sizeof(int) * (size_t)N);
	uint8_t *seen = be_alloc(f->pool, (size_t)N);
	int tmp[512], *sl = tmp, npost = 0, nlive = 0;

	if (f->ntl + 2 > 512)
		sl = be_alloc(f->pool, sizeof(int) * (size_t)(f->ntl + 2));
	for (int i = 0; i < n; i++) {
		Blk *b = &f->blk[i];
		if (b->dead)
			continue;
		nlive++;
		int ns = succs(f, i, sl);
		for (int k = 0; k < ns; k++) {
			*VPUSH(f->pool, rpred[i], nrpred[i], caprp[i]) = sl[k];
			*VPUSH(f->pool, rsucc[sl[k]], nrsucc[sl[k]], caprs[sl[k]]) = i;
		}
		if (b->jmp.kind == J_EXIT || b->jmp.kind == J_RET || (kept && b->jmp.folded == 3)) {
			*VPUSH(f->pool, rpred[i], nrpred[i], caprp[i]) = X;
			*VPUSH(f->pool, rsucc[X], nrsucc[X], caprs[X]) = i;
		}
	}
	/* DFS on the reversed graph from the virtual exit; fake edges for regions that never
	 * reach it */
	seen[X] = 1;
	for (;;) {
		int sp = 0;
		memset(nexti, 0, sizeof(int) * (size_t)N);
		memset(seen, 0, (size_t)N);
		npost = 0;
		stk[sp++] = X;
		seen[X] = 1;
		while (sp) {
			int v = stk[sp - 1], s = -1;
			while (nexti[v] < nrsucc[v]) {
				int c = rsucc[v][nexti[v]++];
				if (!seen[c]) {
					s = c;
					break;
				}
			}
			if (s >= 0) {
				seen[s] = 1;
				stk[sp++] = s;
			} else {
				post[npost++] = stk[--sp];
			}
		}
		if (npost == nlive + 1)
			break;
		int best = -1;
		for (int i = 0; i < n; i++)
			if (!f->blk[i].dead && !seen[i] && (best < 0 || f->blk[i].rpo > f->blk[best].rpo))
				best = i;
		if (best < 0)
			die("postdom: unreachable live block");
		*VPUSH(f->pool, rpred[best], nrpred[best], caprp[best]) = X;
		*VPUSH(f->pool, rsucc[X], nrsucc[X], caprs[X]) = best;
	}
	for (int i = 0; i < npost; i++) {
		order[npost - 1 - i] = post[i];
		rpo[post[i]] = npost - 1 - i;
	}
	be_chk_idom(N, order, npost, rpo, rpred, nrpred, idom);
	for (int i = 0; i < n; i++)
		ipdom[i] = f->blk[i].dead ? -1 : idom[i];
}

void be_postdom(Fn *f)
{
	int *ipdom = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));

	postdom(f, 0, ipdom);
	for (int i = 0; i < f->nblk; i++)
		f->blk[i].ipdom = ipdom[i];
}

int *be_postdom_kept(Fn *f)
{
	int *ipdom = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));

	postdom(f, 1, ipdom);
	return ipdom;
}

int be_in_loop(const Fn *f, int loop, int b)
{
	if (loop < 0 || b < 0 || b >= f->nblk)
		return 0;
	if (b < f->loops[loop].nbits)
		return BHAS(f->loops[loop].body, b);
	/* a block added after be_loops (a preheader, an edge block, a copy): by its loop */
	for (int l = f->blk[b].loop; l >= 0 && l < f->nloops; l = f->loops[l].parent)
		if (l == loop)
			return 1;
	return 0;
}

int be_loop_leaves(const Fn *f, int l, const uint8_t *in, uint8_t v)
{
	for (int y = 0; y < f->nblk; y++)
		for (int e = 0; (!in || in[y] != v) && !f->blk[y].dead && be_in_loop(f, l, y) &&
		     e < be_nedge(f, y); e++) {
			int t = be_edge_to(f, y, e);
			if (t >= 0 && !be_in_loop(f, l, t))
				return 1;
		}
	return 0;
}

/* t is a continue's target in loop l: the header, or a latch (a block of l with an edge to it) */
int be_cont_target(const Fn *f, int l, int t)
{
	int h = f->loops[l].header;

	return t == h || (be_in_loop(f, l, t) && (f->blk[t].s1 == h || f->blk[t].s2 == h));
}

void be_loops(Fn *f)
{
	int n = f->nblk, w = BITS_WORDS(n);
	int *stk = be_alloc(f->pool, sizeof(int) * (size_t)n);
	int *sl = be_alloc(f->pool, sizeof(int) * (size_t)(f->ntl + 2));

	f->nloops = 0;
	for (int h = 0; h < n; h++) {
		Blk *H = &f->blk[h];
		int li = -1;
		if (H->dead)
			continue;
		for (int j = 0; j < H->npred; j++) {
			int l = H->pred[j], sp = 0;
			if (!be_dominates(f, h, l))
				continue;
			if (li < 0) {
				Loop *L = VPUSH(f->pool, f->loops, f->nloops, f->caploops);
				L->header = h;
				L->parent = -1;
				L->body = be_alloc(f->pool, sizeof(uint32_t) * (size_t)w);
				L->nbits = n;
				BSET(L->body, h);
				li = f->nloops - 1;
			}
			uint32_t *body = f->loops[li].body;
			if (!BHAS(body, l)) {
				BSET(body, l);
				stk[sp++] = l;
			}
			while (sp) {
				Blk *B = &f->blk[stk[--sp]];
				for (int k = 0; k < B->npred; k++) {
					int p = B->pred[k];
					if (!f->blk[p].dead && !BHAS(body, p)) {
						BSET(body, p);
						stk[sp++] = p;
					}
				}
			}
		}
	}
	/* nesting: the parent of L is the smallest other loop containing its header */
	for (int i = 0; i < f->nloops; i++) {
		int best = -1, bestsz = 0;
		for (int j = 0; j < f->nloops; j++) {
			if (j == i || !BHAS(f->loops[j].body, f->loops[i].header))
				continue;
			if (f->loops[j].header == f->loops[i].header)
				continue;
			int sz = 0;
			for (int k = 0; k < w; k++)
				sz += __builtin_popcount(f->loops[j].body[k]);
			if (best < 0 || sz < bestsz)
				best = j, bestsz = sz;
		}
		f->loops[i].parent = best;
	}
	for (int i = 0; i < f->nloops; i++) {
		int d = 0;
		for (int j = i; j >= 0; j = f->loops[j].parent)
			d++;
		f->loops[i].depth = d;
	}
	for (int b = 0; b < n; b++) {
		int best = -1;
		f->blk[b].loop = -1;
		for (int i = 0; i < f->nloops; i++)
			if (BHAS(f->loops[i].body, b) && (best < 0 || f->loops[i].depth > f->loops[best].depth))
				best = i;
		f->blk[b].loop = best;
	}
	(void)sl;
}

/* outermost loop containing b but not j, or -1 */
int be_outer_loop(Fn *f, int b, int j)
{
	int best = -1;

	for (int l = f->blk[b].loop; l >= 0; l = f->loops[l].parent)
		if (!be_in_loop(f, l, j))
			best = l;
	return best;
}
