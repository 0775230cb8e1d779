/* cmporder.c - the order warpc --compare lines two listings' constructs up in: a
 * topological order of a listing's control flow without its back edges, ties broken by
 * the way on, then by address. needs: the edges of the listing (compare.c's run over its
 * control flow);
 * breaks: nothing.
 *
 * Where a listing is laid out in such an order (each instruction after every instruction
 * that leads to it, but by a loop's back edge) and no jump skips code that is ready, the
 * order is the address order. It differs where the layout jumps to code it has not yet
 * reached, which is how the two compilers differ: our layout keeps PTX
 * order, where nvcc's `bra.uni $L__BB4_2` skips over an inner loop to the outer loop's
 * header laid out below it, and ptxas places that header right after the jump. Both
 * listings ordered by this one rule see the header before the inner loop.
 *
 * Back edges are the retreating edges of a depth-first search from the roots (the entry,
 * each function's label), then from each instruction not yet reached in address order
 * (unique in a reducible graph). The order is Kahn's: next comes the way on from the last
 * instruction placed (its fall-through, or its one successor: the target of an unguarded
 * jump) when that is ready, else the ready instruction of the lowest address. So a block
 * reached by a jump follows the jump, as ptxas lays it out, in either listing: whichever
 * side of `@P BRA X; BRA Y` a compiler lays next, Y (when nothing else leads to it) comes
 * before X. */
#include "backend/be.h"

/* min-heap of instruction indices */
static void heap_push(int *h, int *n, int v)
{
	int i = (*n)++;

	for (; i > 0 && h[(i - 1) / 2] > v; i = (i - 1) / 2)
		h[i] = h[(i - 1) / 2];
	h[i] = v;
}

static int heap_pop(int *h, int *n)
{
	int top = h[0], v = h[--*n], i = 0;

	for (;;) {
		int c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (h[c] >= v)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n > 0)
		h[i] = v;
	return top;
}

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
	int *heap = be_alloc(pool, ((size_t)n + 1) * sizeof *heap), nheap = 0, placed = 0;

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
	for (int i = 0; i < n; i++)
		if (!indeg[i])
			heap_push(heap, &nheap, i);
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
				v = nheap ? heap_pop(heap, &nheap) : -1;
			while (v >= 0 && state[v]);
			if (v < 0)
				break;
		}
		state[v] = 1;
		rank[v] = placed++;
		for (int e = first[v]; e < first[v + 1]; e++)
			if (!back[e] && !--indeg[adj[e]])
				heap_push(heap, &nheap, adj[e]);
	}
	if (placed != n)
		die("cmporder: an instruction left unordered");
	be_pool_free(pool);
}
