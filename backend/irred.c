/* irred.c - irreducible cycles made natural loops, before sync.c places its tokens.
 *
 * Needs rpo, dom, postdom and loops; when it copies blocks it makes them again.
 *
 * A cycle entered at two or more of its blocks (irreducible: OptiX's megakernels enter
 * their state machine loop at its dispatch and at the handler that returns to it) is made a
 * natural loop by node splitting: the blocks that the other entries reach without passing
 * the chosen header are copied for the edges from outside the cycle (be_reducible).
 */
#include <string.h>
#include "backend/be.h"

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
		for (int e = 0; e < be_nedge(f, b); e++) {
			int t = be_edge_to(f, b, e);
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
		for (int e = 0; e < be_nedge(f, b); e++) {
			int t = be_edge_to(f, b, e);
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
int be_reducible(Fn *f)
{
	int copied = 0, any = 0;

	for (int round = 0; round < 16; round++) {
		int n = f->nblk, eb = -1, eh = -1, ne, h = -1, best = 0;
		int *ent, *map;
		uint8_t *c, *u;
		for (int b = 0; b < n && eb < 0; b++) {
			if (f->blk[b].dead || f->blk[b].rpo < 0)
				continue;
			for (int e = 0; e < be_nedge(f, b) && eb < 0; e++) {
				int t = be_edge_to(f, b, e);
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
			map[b] = u[b] ? be_copy_blk(f, b) : -1;
		/* the edges into the copied set from outside the cycle and from the copies go to
		 * the copies */
		for (int b = 0; b < f->nblk; b++) {
			if (f->blk[b].dead || (b < n && c[b]))
				continue;
			for (int e = 0; e < be_nedge(f, b); e++) {
				int t = be_edge_to(f, b, e);
				if (t >= 0 && t < n && u[t])
					be_set_edge(f, b, e, map[t]);
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
