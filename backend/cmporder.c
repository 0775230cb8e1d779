/* cmporder.c - the order warpc --compare lines two listings' constructs up in: a
 * topological order of a listing's control flow without its back edges, ties broken by
 * the way on, then by the instruction made ready last. needs: the edges of the listing
 * (compare.c's run over its control flow);
 * breaks: nothing.
 *
 * Where a listing is laid out in such an order (each instruction after every instruction
 * that leads to it, but by a loop's back edge) and no jump skips code that is ready, the
 * order is mostly the address order. It differs where the layout jumps to code it has not
 * yet reached, which is how the two compilers differ: our layout keeps PTX order, where
 * nvcc's `bra.uni $L__BB4_2` skips over an inner loop to the outer loop's header laid out
 * below it, and ptxas places that header right after the jump. Both listings ordered by
 * this one rule see the header before the inner loop.
 *
 * Back edges are the retreating edges of a depth-first search from the roots (the entry,
 * each function's label), then from each instruction not yet reached in address order
 * (unique in a reducible graph). The order is Kahn's: next comes the way on from the last
 * instruction placed (its fall-through, or its one successor: the target of an unguarded
 * jump) when that is ready, else the ready instruction made ready last (a stack; at the
 * start the lowest address first). So a block reached by a jump follows the jump, as ptxas
 * lays it out, in either listing: whichever side of `@P BRA X; BRA Y` a compiler lays next,
 * Y (when nothing else leads to it) comes before X. And where the way on waits at a join,
 * the next is the other side of the innermost branch still open, so a region is finished
 * before the code its enclosing branches skip to: nvcc's PTX interleaves the blocks of
 * regions that ptxas lays out one after the other (dwt2d's kernels: three copies of the
 * body after `@P bra X; bra.uni Y` and a second such branch at X, their blocks alternating
 * in the PTX, the blocks of each copy laid out together by ptxas), which the lowest address
 * (the order's tie until 2026-11-29) hopped between in our listing. */
#include "backend/be.h"

/* rank[i] = the place of instruction i (0 .. n - 1) in the order, given the ne edges
 * src[e] -> dst[e] (in the order the run found them) and the roots */
void be_flow_order(int n, int ne, const int *src, const int *dst, const int *roots, int nroots,
                   int *rank)
{
	Pool *pool = be_pool_new();     /* (every array zeroed) */
	int *first = be_alloc(pool, ((size_t)n + 1) * sizeof *first);
	int *adj = be_alloc(pool, ((size_t)ne + 1) * sizeof *adj);
	int *indeg = be_alloc(pool, ((size_t)n + 1) * sizeof *indeg);
	char *state = be_alloc(pool, (size_t)n + 1);  /* 0 not seen, 1 on the search's path, 2 done */
	char *back = be_alloc(pool, (size_t)ne + 1);  /* edge (in adj's order) is a back edge */
	int *stk = be_alloc(pool, ((size_t)n + 1) * sizeof *stk);
	int *it = be_alloc(pool, ((size_t)n + 1) * sizeof *it);
	int *ready = be_alloc(pool, ((size_t)n + 1) * sizeof *ready), nready = 0, placed = 0;

	/* adjacency in the order of the edges found */
	for (int e = 0; e < ne; e++)
		first[src[e] + 1]++;
	for (int i = 0; i < n; i++)
		first[i + 1] += first[i];
	for (int i = 0; i < n; i++)
		it[i] = first[i];
	for (int e = 0; e < ne; e++)
		adj[it[src[e]]++] = dst[e];

	for (int r = 0; r < nroots + n; r++) {
		int v = r < nroots ? roots[r] : r - nroots, sp = 0;
		if (v < 0 || v >= n || state[v])
			continue;
		stk[sp++] = v;
		state[v] = 1;
		it[v] = first[v];
		while (sp) {
			int u = stk[sp - 1];
			if (it[u] == first[u + 1]) {
				state[u] = 2;
				sp--;
				continue;
			}
			int e = it[u]++, w = adj[e];
			back[e] = state[w] == 1;
			if (!state[w]) {
				state[w] = 1;
				it[w] = first[w];
				stk[sp++] = w;
			}
		}
	}

	for (int e = 0; e < ne; e++)
		indeg[adj[e]] += !back[e];
	for (int i = n - 1; i >= 0; i--)    /* (the lowest address on top) */
		if (!indeg[i])
			ready[nready++] = i;
	for (int i = 0; i < n; i++)
		state[i] = 0;      /* now: 1 placed */
	for (int u = -1, v; placed < n; u = v) {
		int on = -1, nout = 0;
		/* the way on from u: its fall-through, else its one successor */
		for (int e = u >= 0 ? first[u] : 0; u >= 0 && e < first[u + 1]; e++)
			if (!back[e]) {
				nout++;
				on = adj[e] == u + 1 || nout == 1 ? adj[e] : on;
			}
		if (on >= 0 && (nout == 1 || on == u + 1) && !indeg[on] && !state[on])
			v = on;
		else {
			do
				v = nready ? ready[--nready] : -1;
			while (v >= 0 && state[v]);
			if (v < 0)
				break;
		}
		state[v] = 1;
		rank[v] = placed++;
		for (int e = first[v]; e < first[v + 1]; e++)
			if (!back[e] && !--indeg[adj[e]])
				ready[nready++] = adj[e];
	}
	if (placed != n)
		die("cmporder: an instruction left unordered");
	be_pool_free(pool);
}
