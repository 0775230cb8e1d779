/* par.c - the functional half of a windowed run (docs/timing.md, "Windows"): within a window
 * no SM sees what another did. Each SM queues its global stores and atomics, its printf
 * lines and its trace records; its loads read memory as it was at the window's start with
 * the SM's own stores of the window over it (the overlay). At the window's end par_merge
 * applies every SM's queue in the order (cycle, SM, position) - the order in which a loop
 * stepping every SM cycle by cycle performed them - so a kernel whose SMs do not race on
 * plain global memory within a window leaves the same memory, prints the same lines and
 * writes the same traces as that loop did. Atomics (and in-kernel malloc and free,
 * exec_heap.c) are performed there in that order, and their results reach the registers then (the scoreboard keeps the registers pending
 * until then: partime.c).
 */
#include <stdlib.h>
#include <string.h>
#include "sim/machine.h"

static void oom(void)
{
	fputs("warpsim: out of memory for a window's queue\n", stderr);
	exit(1);
}

/* n bytes from s to d: a store's 4 and 8 without a call of the library's memcpy */
static inline void copy(uint8_t *d, const uint8_t *s, unsigned n)
{
	if (n == 4)
		memcpy(d, s, 4);
	else if (n == 8)
		memcpy(d, s, 8);
	else
		memcpy(d, s, n);
}

static inline WItem *push(WQueue *q, uint64_t cycle, int kind)
{
	WItem *it;

	if (q->n >= q->cap)
		q->it = sim_grow(q->it, &q->cap, sizeof *q->it, q->n + 1);
	it = &q->it[q->n++];
	it->cycle = cycle;
	it->kind = (uint8_t)kind;
	return it;
}

/* n bytes of the arena; returns their offset */
static size_t arena(WQueue *q, const void *p, size_t n)
{
	size_t off = (q->na + 7) & ~(size_t)7;

	if (off + n > q->acap) {
		size_t cap = q->acap ? 2 * q->acap : 65536;
		uint8_t *a;
		while (cap < off + n)
			cap *= 2;
		if (!(a = realloc(q->a, cap)))
			oom();
		q->a = a;
		q->acap = cap;
	}
	memcpy(q->a + off, p, n);
	q->na = off + n;
	return off;
}

/* ---------------------------------------------------------------- the overlay */
static int slot(const WQueue *q, uint64_t key)
{
	unsigned h = (unsigned)((key * 0x9e3779b97f4a7c15ull) >> 32) & (unsigned)(q->ocap - 1);

	while (q->okey[h] && q->okey[h] != key)
		h = (h + 1) & (unsigned)(q->ocap - 1);
	return (int)h;
}

static __attribute__((noinline)) void grow(WQueue *q)   /* (cold: out of the store path) */
{
	WQueue o = *q;
	int cap = q->ocap ? 2 * q->ocap : 1024;

	q->okey = calloc((size_t)cap, sizeof *q->okey);
	q->oval = malloc((size_t)cap * sizeof *q->oval);
	q->omask = malloc((size_t)cap);
	q->oused = malloc((size_t)cap / 2 * sizeof *q->oused);   /* (at most half are used) */
	if (!q->okey || !q->oval || !q->omask || !q->oused)
		oom();
	q->ocap = cap;
	for (int j = 0; j < o.on; j++) {
		int i = o.oused[j], h = slot(q, o.okey[i]);
		q->okey[h] = o.okey[i];
		q->oval[h] = o.oval[i];
		q->omask[h] = o.omask[i];
		q->oused[j] = h;
	}
	free(o.okey);
	free(o.oval);
	free(o.omask);
	free(o.oused);
}

static void overlay_put(WQueue *q, uint64_t a, unsigned size, const uint8_t *v)
{
	for (unsigned i = 0; i < size; ) {
		uint64_t key = (a + i) / 8 + 1;
		unsigned b = (unsigned)((a + i) & 7), k = 8 - b < size - i ? 8 - b : size - i;
		int h;
		if (2 * (q->on + 1) > q->ocap)
			grow(q);
		h = slot(q, key);
		if (!q->okey[h]) {
			q->okey[h] = key;
			q->omask[h] = 0;
			q->oval[h] = 0;
			q->oused[q->on++] = h;
		}
		copy((uint8_t *)&q->oval[h] + b, v + i, k);
		q->omask[h] |= (uint8_t)(((1u << k) - 1) << b);
		i += k;
	}
}

/* the map takes the stores queued since it last did: it is built when a load reads over it,
 * not at each store (a kernel that loads nothing after its stores in a window never builds
 * it); in queue order, so that a later store of a byte is the one a load sees */
static void overlay_build(WQueue *q)
{
	for (; q->obuilt < q->n; q->obuilt++) {
		const WItem *it = &q->it[q->obuilt];
		if (it->kind == WQ_STORE)
			overlay_put(q, it->u.st.a, it->u.st.size, it->u.st.v);
		else if (it->kind == WQ_STORES)
			overlay_put(q, it->u.sr.a, it->u.sr.n, q->a + it->u.sr.off);
	}
}

void par_overlay(SM *s, uint64_t a, unsigned size, uint8_t *buf)
{
	WQueue *q = &s->q;

	overlay_build(q);
	if (!q->on)
		return;
	for (unsigned i = 0; i < size; ) {
		uint64_t key = (a + i) / 8 + 1;
		unsigned b = (unsigned)((a + i) & 7), k = 8 - b < size - i ? 8 - b : size - i;
		int h = slot(q, key);
		if (q->okey[h])
			for (unsigned j = 0; j < k; j++)
				if (q->omask[h] >> (b + j) & 1)
					buf[i + j] = ((const uint8_t *)&q->oval[h])[b + j];
		i += k;
	}
}

/* ---------------------------------------------------------------- queueing */
/* the bytes [a, a + n) stored: the queue's span takes them in */
static inline void span(WQueue *q, uint64_t a, unsigned n)
{
	if (!q->shi || a < q->slo)
		q->slo = a;
	if (a + n > q->shi)
		q->shi = a + n;
}

void par_store(SM *s, uint64_t cycle, uint8_t *p, uint64_t a, unsigned size, const uint8_t *v)
{
	WItem *it = push(&s->q, cycle, WQ_STORE);

	span(&s->q, a, size);

	it->u.st.p = p;
	it->u.st.a = a;
	it->u.st.size = (uint8_t)size;
	copy(it->u.st.v, v, size);
}

void par_stores(SM *s, uint64_t cycle, uint8_t *p, uint64_t a, unsigned n, const uint8_t *v)
{
	WItem *it = push(&s->q, cycle, WQ_STORES);

	span(&s->q, a, n);
	it->u.sr.p = p;
	it->u.sr.a = a;
	it->u.sr.n = n;
	it->u.sr.off = arena(&s->q, v, n);
}

void par_atom(SM *s, uint64_t cycle, uint8_t *p, Warp *w, uint16_t reg, unsigned l, unsigned size,
              int sub, int type, int ftz, int red, uint64_t b, uint64_t c)
{
	WItem *it = push(&s->q, cycle, WQ_ATOM);

	it->u.at.p = p;
	it->u.at.w = w;
	it->u.at.b = b;
	it->u.at.c = c;
	it->u.at.reg = reg;
	it->u.at.lane = (uint8_t)l;
	it->u.at.size = (uint8_t)size;
	it->u.at.sub = (uint8_t)sub;
	it->u.at.type = (uint8_t)type;
	it->u.at.ftz = (uint8_t)ftz;
	it->u.at.red = (uint8_t)red;
}

void par_heap(SM *s, uint64_t cycle, Warp *w, uint16_t reg, unsigned l, uint64_t v,
              uint64_t align, int isfree, uint32_t pc)
{
	WItem *it = push(&s->q, cycle, WQ_HEAP);

	it->u.hp.w = w;
	it->u.hp.v = v;
	it->u.hp.align = align;
	it->u.hp.pc = pc;
	it->u.hp.reg = reg;
	it->u.hp.lane = (uint8_t)l;
	it->u.hp.isfree = (uint8_t)isfree;
}

void par_print(SM *s, uint64_t cycle, const uint32_t id[3], const uint32_t tid[3], DevText *t)
{
	WItem *it = push(&s->q, cycle, WQ_PRINT);

	it->u.pr.s = t->s;
	it->u.pr.len = t->len;
	memcpy(it->u.pr.id, id, sizeof it->u.pr.id);
	memcpy(it->u.pr.tid, tid, sizeof it->u.pr.tid);
	t->s = NULL;
}

void par_issue(SM *s, const TraceIssue *t)
{
	WItem *it = push(&s->q, t->cycle, WQ_ISSUE);

	it->u.off = arena(&s->q, t, sizeof *t);
	arena(&s->q, t->e, sizeof *t->e);   /* (right after it: both are 8-byte multiples) */
}

void par_event(SM *s, const TraceEvent *ev)
{
	push(&s->q, ev->cycle, WQ_EVENT)->u.off = arena(&s->q, ev, sizeof *ev);
}

/* ---------------------------------------------------------------- the merge */
/* one item; -1 when it stops the run (a bad free: g->fault set) */
static int apply(Gpu *g, int sm, WQueue *q, WItem *it)
{
	switch (it->kind) {
	case WQ_HEAP:
		return sim_heap_apply(g, sm, it);
	case WQ_STORE:
		copy(it->u.st.p, it->u.st.v, it->u.st.size);
		break;
	case WQ_STORES:
		memcpy(it->u.sr.p, q->a + it->u.sr.off, it->u.sr.n);
		break;
	case WQ_ATOM: {
		unsigned size = it->u.at.size;
		uint64_t old = dev_ld(it->u.at.p, size);
		dev_st(it->u.at.p, size, ar_atom((Sub)it->u.at.sub, (Type)it->u.at.type, old, it->u.at.b,
		                                  it->u.at.c, it->u.at.ftz));
		if (!it->u.at.red) {
			uint32_t *r = it->u.at.w->r + (size_t)it->u.at.reg * 32 + it->u.at.lane;
			r[0] = (uint32_t)old;
			if (size == 8)
				r[32] = (uint32_t)(old >> 32);
		}
		break;
	}
	case WQ_PRINT: {
		DevText t = {it->u.pr.s, it->u.pr.len, it->u.pr.len};
		dev_print_line(g->pout ? g->pout : stdout, g->ptag, it->u.pr.id, it->u.pr.tid, &t);
		free(t.s);
		it->u.pr.s = NULL;
		break;
	}
	case WQ_ISSUE: {
		TraceIssue t;
		memcpy(&t, q->a + it->u.off, sizeof t);
		t.e = (const ExecInfo *)(q->a + ((it->u.off + sizeof t + 7) & ~(size_t)7));
		if (g->sink.issue)
			g->sink.issue(g->sink.ctx, &t);
		break;
	}
	case WQ_EVENT:
		if (g->sink.event)
			g->sink.event(g->sink.ctx, (const TraceEvent *)(q->a + it->u.off));
		break;
	}
	return 0;
}

static void reset(WQueue *q)
{
	for (int i = 0; i < q->n; i++)
		if (q->it[i].kind == WQ_PRINT)
			free(q->it[i].u.pr.s);     /* lines past a fault */
	q->n = 0;
	q->na = 0;
	q->obuilt = 0;
	q->slo = q->shi = 0;
	/* the used slots alone: a window's stores take few of the slots its busiest one grew */
	for (int i = 0; i < q->on; i++)
		q->okey[q->oused[i]] = 0;
	q->on = 0;
}

void par_merge(Gpu *g, uint64_t cut_cycle, int cut_sm)
{
	int nsm = g->cfg.tc.sms, pos[TM_MAXSMS] = {0};

	for (;;) {
		int best = -1;
		uint64_t bt = UINT64_MAX;
		for (int s = 0; s < nsm; s++) {
			const WQueue *q = &g->sm[s].q;
			if (pos[s] < q->n && q->it[pos[s]].cycle < bt) {
				bt = q->it[pos[s]].cycle;
				best = s;
			}
		}
		if (best < 0 || bt > cut_cycle)
			break;
		if (bt == cut_cycle && best > cut_sm)
			break;
		WQueue *q = &g->sm[best].q;
		int stop = 0;
		while (!stop && pos[best] < q->n && q->it[pos[best]].cycle == bt)
			stop = apply(g, best, q, &q->it[pos[best]++]);
		if (stop)
			break;      /* what follows it in the merge order is dropped */
	}
	for (int s = 0; s < nsm; s++)
		reset(&g->sm[s].q);
}

void par_free(WQueue *q)
{
	reset(q);
	free(q->it);
	free(q->a);
	free(q->okey);
	free(q->oval);
	free(q->omask);
	free(q->oused);
	memset(q, 0, sizeof *q);
}
