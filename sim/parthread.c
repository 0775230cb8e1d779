/* parthread.c - `--threads N` (docs/timing.md, "Threads"): the SMs of a window on N host
 * threads. Thread t owns the SMs i with i % N == t for the whole run and runs them, in
 * increasing order, from the window's start to its end; the caller is thread 0. Two barriers
 * a window (start, end) and no other synchronisation: within a window an SM touches only its
 * own state, its queues (par.c, partime.c) and its thread's view of the GPU, a copy of the
 * Gpu whose scratch (the cycle, the instruction being issued, the fault) and counters
 * (SimStats, TStats, CTAs done) are the thread's own. After the barrier the caller merges
 * the queues and adds the counters up, in a fixed order; so every N, 1 included (which runs
 * the same code in the caller alone), gives the same results.
 */
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include "sim/machine.h"

/* polls of a barrier's round before a waiter sleeps (4000 pause instructions: tens to a few
 * hundred microseconds, by CPU; a window of intloop is about 250 microseconds of work) */
#define BAR_SPIN 4000

/* a barrier whose party can shrink before anyone waits (a worker that could not start) */
typedef struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int n, waiting;         /* the party, those waiting */
	unsigned gen;           /* completed rounds */
	int spin;               /* polls of gen before sleeping */
} Bar;

struct ParPool {
	Gpu *g;                 /* the GPU */
	int n;                  /* threads, the caller's included */
	Gpu *part;              /* per thread: its view of the GPU */
	pthread_t *tid;         /* the workers (tid[1 .. started]) */
	int started;            /* workers running */
	Bar start, done;        /* a window's start and end */
	int bars;               /* the barriers exist */
	uint64_t from, to;      /* the window */
	unsigned round;         /* windows run so far: their parity orders each thread's SMs */
	int stop;               /* the workers leave at the next start */
};

static int bar_init(Bar *b, int n)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	b->n = n;
	b->waiting = 0;
	b->gen = 0;
	b->spin = cores >= n ? BAR_SPIN : 0;
	if (pthread_mutex_init(&b->mu, NULL))
		return -1;
	if (pthread_cond_init(&b->cv, NULL)) {
		pthread_mutex_destroy(&b->mu);
		return -1;
	}
	return 0;
}

/* The waiters first spin on the round counter for a while (when the host has a core for each
 * thread: a sleeping waiter costs a futex wake-up of tens of microseconds on each side, about
 * a tenth of a window's work), then sleep on the condition variable. */
static void bar_wait(Bar *b)
{
	unsigned gen;

	pthread_mutex_lock(&b->mu);
	gen = b->gen;
	if (++b->waiting == b->n) {
		b->waiting = 0;
		__atomic_store_n(&b->gen, gen + 1, __ATOMIC_RELEASE);
		pthread_cond_broadcast(&b->cv);
		pthread_mutex_unlock(&b->mu);
		return;
	}
	pthread_mutex_unlock(&b->mu);
	for (int i = 0; i < b->spin; i++) {
		if (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) != gen)
			return;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	}
	pthread_mutex_lock(&b->mu);
	while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen)
		pthread_cond_wait(&b->cv, &b->mu);
	pthread_mutex_unlock(&b->mu);
}

static void bar_destroy(Bar *b)
{
	pthread_cond_destroy(&b->cv);
	pthread_mutex_destroy(&b->mu);
}

typedef struct {
	ParPool *p;
	int t;
} Worker;

/* thread t's SMs through the window (each no further than the cycle after its thread's
 * earliest fault: nothing later can be kept). The SMs of a window are independent (par.c),
 * so their order is free: it alternates, t, t + n, ... in one window and back the next, so
 * that the SMs a thread ran last, whose state its host caches still hold, run first again.
 * In one order every SM's state would have been evicted by the others' when its turn comes,
 * on a host whose cache holds fewer SMs' state than the thread runs. */
static void run_part(ParPool *p, int t)
{
	Gpu *v = &p->part[t];
	int nsm = p->g->cfg.tc.sms, last = t + (nsm - 1 - t) / p->n * p->n;
	int i = p->round & 1 ? last : t, step = p->round & 1 ? -p->n : p->n;

	v->fault.cycle = UINT64_MAX;
	for (; i >= t && i < nsm; i += step)
		sim_run_sm(v, i, p->from, p->to < v->fault.cycle ? p->to : v->fault.cycle + 1);
}

static void *worker(void *arg)
{
	Worker *wk = arg;
	ParPool *p = wk->p;

	for (;;) {
		bar_wait(&p->start);
		if (p->stop)
			break;
		run_part(p, wk->t);
		bar_wait(&p->done);
	}
	free(wk);
	return NULL;
}

ParPool *par_pool_new(Gpu *g, int n)
{
	ParPool *p = calloc(1, sizeof *p);

	if (n < 1 || g->trace)
		n = 1;          /* (sim_gpu_trace's callback expects the caller's thread) */
	if (n > g->cfg.tc.sms)
		n = g->cfg.tc.sms;
	if (!p || !(p->part = calloc((size_t)n, sizeof *p->part)))
		goto fail;
	p->g = g;
	p->n = n;
	for (int t = 0; t < n; t++) {
		Gpu *v = &p->part[t];
		*v = *g;
		memset(&v->st, 0, sizeof v->st);
		memset(&v->ts, 0, sizeof v->ts);
		v->done_ctas = 0;
		v->need_dispatch = 0;
		v->rc = SIM_OK;
		v->inwin = 1;
	}
	for (int i = 0; i < g->cfg.tc.sms; i++) {
		g->sm[i].g = &p->part[i % n];
		g->tsm[i].st = &p->part[i % n].ts;
	}
	if (n == 1)
		return p;
	if (!(p->tid = calloc((size_t)n, sizeof *p->tid)))
		goto fail;
	if (bar_init(&p->start, n))
		goto fail;
	if (bar_init(&p->done, n)) {
		bar_destroy(&p->start);
		goto fail;
	}
	p->bars = 1;
	for (int t = 1; t < n; t++) {
		Worker *wk = malloc(sizeof *wk);
		if (!wk)
			goto fail;
		wk->p = p;
		wk->t = t;
		if (pthread_create(&p->tid[t], NULL, worker, wk)) {
			free(wk);
			goto fail;
		}
		p->started = t;
	}
	return p;
fail:
	par_pool_free(p);
	return NULL;
}

void par_pool_run(ParPool *p, uint64_t from, uint64_t to)
{
	p->from = from;
	p->to = to;
	p->round++;
	if (p->n == 1) {
		run_part(p, 0);
		return;
	}
	bar_wait(&p->start);
	run_part(p, 0);
	bar_wait(&p->done);
}

/* the earliest fault of the window over all threads, into g->fault (cycle UINT64_MAX: none) */
void par_pool_fault(ParPool *p)
{
	Gpu *g = p->g;

	g->fault.cycle = UINT64_MAX;
	for (int t = 0; t < p->n; t++) {
		const Gpu *v = &p->part[t];
		if (v->fault.cycle < g->fault.cycle ||
		    (v->fault.cycle == g->fault.cycle && v->fault.sm < g->fault.sm))
			memcpy(&g->fault, &v->fault, sizeof g->fault);
	}
}

void par_add_tstats(TStats *a, TStats *b)
{
	a->warp_insts += b->warp_insts;
	a->thread_insts += b->thread_insts;
	a->pred_off += b->pred_off;
	a->div_branches += b->div_branches;
	for (int i = 0; i < DIV_COUNT; i++)
		a->div[i] += b->div[i];
	a->reconv += b->reconv;
	if (b->crs_hwm > a->crs_hwm)
		a->crs_hwm = b->crs_hwm;
	a->crs_spills += b->crs_spills;
	a->crs_fills += b->crs_fills;
	for (int i = 0; i < STALL_COUNT; i++)
		a->stall[i] += b->stall[i];
	a->shared_insts += b->shared_insts;
	a->bank_conflicts += b->bank_conflicts;
	a->gld_trans += b->gld_trans;
	a->gst_trans += b->gst_trans;
	a->atom_trans += b->atom_trans;
	a->l1_hits += b->l1_hits;
	a->l1_misses += b->l1_misses;
	a->l2_hits += b->l2_hits;
	a->l2_misses += b->l2_misses;
	a->warp_cycles += b->warp_cycles;
	a->sm_cycles += b->sm_cycles;
	a->cdp_grids += b->cdp_grids;
	a->cdp_ctas += b->cdp_ctas;
	memset(b, 0, sizeof *b);
}

void par_add_stats(SimStats *a, SimStats *b)
{
	a->warp_insts += b->warp_insts;
	a->thread_insts += b->thread_insts;
	a->exec_lanes += b->exec_lanes;
	a->pred_off += b->pred_off;
	a->div_branches += b->div_branches;
	a->reconvergences += b->reconvergences;
	a->barriers += b->barriers;
	if (b->crs_high > a->crs_high)
		a->crs_high = b->crs_high;
	a->ctas += b->ctas;
	a->kept_ctas += b->kept_ctas;
	memset(b, 0, sizeof *b);
}

void par_pool_fold(ParPool *p)
{
	Gpu *g = p->g;

	for (int t = 0; t < p->n; t++) {
		Gpu *v = &p->part[t];
		par_add_tstats(&g->ts, &v->ts);
		par_add_stats(&g->st, &v->st);
		g->done_ctas += v->done_ctas;
		v->done_ctas = 0;
		g->need_dispatch |= v->need_dispatch;
		v->need_dispatch = 0;
	}
	for (int i = 0; i < g->cfg.tc.sms; i++)     /* (the issue stages' lean issues) */
		sim_lean_fold(g, &g->sm[i]);
}

void par_pool_free(ParPool *p)
{
	if (!p)
		return;
	if (p->part)
		par_pool_fold(p);
	for (int i = 0; p->part && i < p->g->cfg.tc.sms; i++) {
		p->g->sm[i].g = p->g;
		p->g->tsm[i].st = &p->g->ts;
	}
	if (p->bars) {
		/* (between windows every worker waits at start: the party shrinks to those that
		 * started, when one could not) */
		pthread_mutex_lock(&p->start.mu);
		p->start.n = p->started + 1;
		p->stop = 1;
		pthread_mutex_unlock(&p->start.mu);
		bar_wait(&p->start);
		for (int t = 1; t <= p->started; t++)
			pthread_join(p->tid[t], NULL);
		bar_destroy(&p->start);
		bar_destroy(&p->done);
	}
	free(p->tid);
	free(p->part);
	free(p);
}
