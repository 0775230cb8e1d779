/* partime.c - the timing half of a windowed run (docs/timing.md, "Windows"): an SM's global
 * and local accesses take their SM's half (coalescing, L1) at issue and queue the rest; at
 * the window's end sim_tq_merge sends every SM's queue through the GPU-wide L2 and DRAM in
 * the order (issue cycle, SM, queue position), which is the order in which a loop stepping
 * every SM cycle by cycle would have made them, and so gives the same done cycles. Each
 * request's done cycle lies past the window (the L2 and atomic latencies are at least the
 * window), so the registers it writes may read SIM_PEND until the merge.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "sim/timing.h"

void
sim_tq_free(TQueue *q)
{
	free(q->r);
	free(q->seg);
	free(q->idx);
	memset(q, 0, sizeof *q);
}

void *
sim_grow(void *p, int *cap, size_t elem, int need)
{
	int c = *cap ? *cap : 256;

	while (c < need)
		c *= 2;
	if (c == *cap)
		return p;
	if (!(p = realloc(p, (size_t)c * elem))) {
		fputs("warpsim: out of memory for a window's queue\n", stderr);
		exit(1);
	}
	*cap = c;
	return p;
}

/* room for one more request of up to TM_MAXSEGS transactions (the queue keeps its size
 * from window to window, so it stops growing early in a run) */
static void
reserve(TQueue *q)
{
	int segcap = q->segcap;

	q->r = sim_grow(q->r, &q->cap, sizeof *q->r, q->n + 1);
	q->seg = sim_grow(q->seg, &q->segcap, sizeof *q->seg, q->nseg + TM_MAXSEGS);
	q->idx = sim_grow(q->idx, &segcap, sizeof *q->idx, q->nseg + TM_MAXSEGS);
}

static void
l2_stats(TSm *m, const GmResult *r, int past_l1)
{
	m->st->l2_hits += (uint64_t)r->l2_hits;
	m->st->l2_misses += m->l2 ? (uint64_t)(past_l1 - r->l2_hits) : 0;
}

/* the SM's half of an access; queues the rest (or takes it now without windows) */
static uint64_t
access(TSm *m, int w, const TInst *in, uint64_t now, Cache *l1, const uint64_t *addr,
       uint32_t mask, int size, GmKind kind, int dram_lat, int what, GmResult *r)
{
	const TimingConfig *c = m->c;
	TQueue *q = &m->q;
	TReq *t;
	int n;

	if (!m->defer) {
		uint64_t done = sim_gmem_access(c, l1, m->l2, m->dram, now, addr, mask, size, kind,
		                                dram_lat, r);
		l2_stats(m, r, r->trans - r->l1_hits);
		return done;
	}
	reserve(q);
	n = sim_gmem_l1(c, l1, now, addr, mask, size, kind, r, q->seg + q->nseg, q->idx + q->nseg);
	if (n == 0)
		return r->done;         /* every transaction hit L1 (or none was made) */
	t = &q->r[q->n++];
	t->now = now;
	t->done = r->done;
	t->base = m->ctrl[w];
	t->in = in;
	t->seg0 = q->nseg;
	t->nseg = n;
	t->dram_lat = dram_lat;
	t->gran = sim_gmem_gran(c, l1, kind);
	t->kind = (uint8_t)kind;
	t->what = (uint8_t)what;
	t->warp = (uint8_t)w;
	t->degree = (uint8_t)r->atom_degree;
	q->nseg += n;
	return SIM_PEND;
}

uint64_t
sim_tq_access(TSm *m, int w, const TInst *in, uint64_t now, Cache *l1, const TExec *e,
              int dram_lat, GmResult *r)
{
	return access(m, w, in, now, l1, e->addr, e->amask, e->size, (GmKind)e->kind, dram_lat,
	              TQ_ACCESS, r);
}

uint64_t
sim_tq_crs(TSm *m, int w, uint64_t now, uint64_t addr, int fill, GmResult *r)
{
	uint64_t a[TM_WARP] = {0};

	a[0] = addr;
	return access(m, w, NULL, now, NULL, a, 1u, CRS_TOKEN_BYTES, fill ? GM_LOAD : GM_STORE,
	              m->c->lat[LAT_LOCAL], fill ? TQ_FILL : TQ_SPILL, r);
}

/* request t of SM m through L2 and DRAM; what waited for it now knows when */
static void
resolve(TSm *m, const TReq *t)
{
	const TimingConfig *c = m->c;
	const TQueue *q = &m->q;
	GmResult r;
	uint64_t done = t->done;
	int w = t->warp;

	memset(&r, 0, sizeof r);
	r.done = t->done;
	for (int i = t->seg0; i < t->seg0 + t->nseg; i++)
		sim_gmem_l2(c, m->l2, m->dram, t->now + q->idx[i], q->seg[i], t->gran, (GmKind)t->kind,
		            t->dram_lat, &r);
	done = r.done;
	if (t->kind == GM_ATOM && t->degree)
		done += (uint64_t)(t->degree - 1) * (uint64_t)c->atom_serial;
	l2_stats(m, &r, t->nseg);
	switch (t->what) {
	case TQ_ACCESS:
		for (int i = 0; i < t->in->use->ndst; i++)
			sim_sb_land(&m->sb[w], t->in->use->id[t->in->use->nsrc + i], done);
		if (!m->live[w] && t->in->use->ndst && done > m->end)
			m->end = done;      /* it exited while the registers were pending (as tsm.c's
			                       maxready: a store, writing none, does not count) */
		break;
	case TQ_FILL:
		if (m->ctrl[w] == SIM_PEND)
			m->ctrl[w] = t->base;
		if (done > m->ctrl[w])
			m->ctrl[w] = done;
		break;
	default:
		return;                 /* a spill: nothing waits for it */
	}
	m->dirty |= 1ull << w;
	m->kwake[w % c->schedulers] = 0;
}

void
sim_tq_merge(TSm *ms, int n)
{
	int pos[TM_MAXSMS] = {0}, left = 0;
	uint64_t head[TM_MAXSMS];       /* each SM's next request's cycle, UINT64_MAX past its last */

	for (int s = 0; s < n; s++) {
		left += ms[s].q.n;
		head[s] = ms[s].q.n ? ms[s].q.r[0].now : UINT64_MAX;
	}
	while (left > 0) {
		int best = 0;
		uint64_t bt = head[0];
		for (int s = 1; s < n; s++)     /* (the first SM of the earliest cycle) */
			if (head[s] < bt) {
				bt = head[s];
				best = s;
			}
		/* the SM's requests of that cycle, in order */
		TQueue *q = &ms[best].q;
		int p = pos[best];
		while (p < q->n && q->r[p].now == bt) {
			resolve(&ms[best], &q->r[p++]);
			left--;
		}
		pos[best] = p;
		head[best] = p < q->n ? q->r[p].now : UINT64_MAX;
	}
	for (int s = 0; s < n; s++)
		ms[s].q.n = ms[s].q.nseg = 0;
}
