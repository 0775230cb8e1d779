/* sched.c - the oracle's execution model. CTAs run one after another in linear order. In a
 * CTA, the threads run one at a time, in linear order, each until it blocks at a barrier or a
 * warp collective, or exits (--oracle-order reverse: both orders descending, o->reverse;
 * PTX fixes neither, so a race-free kernel's results do not depend on it). When none can run:
 *   1. in each warp, the collective group that is "first" (deepest call, then lowest
 *      instruction) is evaluated: threads that will join a later collective reach it first;
 *   2. otherwise each barrier whose arrivals (waiting threads, bar.arrive counts, and for a
 *      barrier of the whole CTA the exited threads) reach its count releases;
 *   3. otherwise, if a thread has not exited, the CTA is deadlocked: reported with every
 *      waiting thread and where it waits.
 * Atomics and stores take effect at once, in this thread order. A cooperative launch runs
 * every CTA at once instead (run_coop). */
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "oracle/internal.h"

#define FR(t) (&(t)->fr[(t)->nfr - 1])

static void reset_thread(Oracle *o, Thread *t, uint32_t lin)
{
	const uint32_t *b = o->l->block;

	t->nfr = 0;
	t->nregs = 0;
	t->lsize = 0;
	t->state = TS_RUN;
	t->cf = 0;
	t->lin = lin;
	t->tid[0] = lin % b[0];
	t->tid[1] = lin / b[0] % b[1];
	t->tid[2] = lin / (b[0] * b[1]);
	if (or_push_frame(o, t, o->ki, -1))
		or_error(o, t, OR_FAULT, "the kernel's frame does not fit the local memory of a thread");
}

/* the first collective group of warp w: n threads into g */
static int warp_group(Oracle *o, uint32_t w, Thread **g)
{
	Thread *best = NULL;
	int n = 0;

	for (uint32_t i = 32 * w; i < o->nthreads && i < 32 * w + 32; i++) {
		Thread *t = &o->th[i];
		if (t->state != TS_WARP)
			continue;
		if (!best || t->nfr > best->nfr ||
		    (t->nfr == best->nfr && (FR(t)->fi < FR(best)->fi ||
		                             (FR(t)->fi == FR(best)->fi && FR(t)->pc < FR(best)->pc))))
			best = t;
	}
	if (!best)
		return 0;
	for (uint32_t i = 32 * w; i < o->nthreads && i < 32 * w + 32; i++) {
		Thread *t = &o->th[i];
		if (t->state == TS_WARP && t->nfr == best->nfr && FR(t)->fi == FR(best)->fi &&
		    FR(t)->pc == FR(best)->pc)
			g[n++] = t;
	}
	return n;
}

/* releases barrier id when it is complete; returns 1 when it did */
static int try_barrier(Oracle *o, int id, uint32_t exited)
{
	uint32_t waiting = 0, count = 0, popc = 0, all = 1, any = 0;
	Thread *first = NULL;

	for (uint32_t i = 0; i < o->nthreads; i++) {
		Thread *t = &o->th[i];
		if (t->state != TS_BAR || t->barid != id)
			continue;
		if (!first)
			first = t;
		waiting++;
		popc += t->redpred;
		all &= t->redpred;
		any |= t->redpred;
	}
	if (!first)
		return 0;
	count = first->barcount ? first->barcount : o->nthreads;
	if (waiting + o->bararrive[id] + (first->barcount ? 0 : exited) < count)
		return 0;
	for (uint32_t i = 0; i < o->nthreads; i++) {
		Thread *t = &o->th[i];
		const PIns *in;
		if (t->state != TS_BAR || t->barid != id)
			continue;
		in = or_cur(o, t);
		if (in->m.bar == PBAR_RED) {
			uint64_t v = in->m.aop == PAOP_POPC ? popc : in->m.aop == PAOP_AND ? all : any;
			or_put(o, t, &in->o[0], v);
		}
		FR(t)->pc++;
		t->state = TS_RUN;
	}
	o->bararrive[id] = 0;
	o->st.barriers++;
	return 1;
}

static void deadlock(Oracle *o, uint32_t exited)
{
	int shown = 0;
	uint32_t waiting = 0;

	for (uint32_t i = 0; i < o->nthreads; i++)
		waiting += o->th[i].state != TS_EXIT;
	fprintf(o->err, "warpsim: oracle: deadlock in CTA (%u,%u,%u): %u thread%s wait%s forever, "
	        "%u exited\n", o->ctaid[0], o->ctaid[1], o->ctaid[2], waiting, waiting == 1 ? "" : "s",
	        waiting == 1 ? "s" : "", exited);
	for (uint32_t i = 0; i < o->nthreads && shown < 8; i++) {
		Thread *t = &o->th[i];
		const PIns *in;
		if (t->state == TS_EXIT)
			continue;
		in = or_cur(o, t);
		fprintf(o->err, "  thread (%u,%u,%u) in '%s' at %s:%d:%d: %s", t->tid[0], t->tid[1],
		        t->tid[2], o->m->funcs[FR(t)->fi].name, ptx_loc_name(o->m, in->loc), in->loc.line, in->loc.col,
		        ptx_op_name((POp)in->op));
		if (t->state == TS_BAR)
			fprintf(o->err, " (barrier %u, %u threads expected)\n", t->barid,
			        t->barcount ? t->barcount : o->nthreads);
		else
			fprintf(o->err, " (warp collective)\n");
		shown++;
	}
	if (waiting > (uint32_t)shown)
		fprintf(o->err, "  ... and %u more\n", waiting - shown);
	o->result = OR_DEADLOCK;
}

/* a CTA's start in o: shared memory zeroed, every thread at the kernel's entry */
static void cta_begin(Oracle *o)
{
	memset(o->shared, 0, o->shsize ? o->shsize : 1);
	memset(o->bararrive, 0, sizeof o->bararrive);
	for (uint32_t i = 0; i < o->nthreads && !o->result; i++)
		reset_thread(o, &o->th[i], i);
}

/* one round of the CTA in o: every runnable thread until it blocks, exits or (o->yield)
 * ends a loop's turn, then, when none can run, its collectives or barriers. 1 when every
 * thread has exited, -1 after a failure while threads ran, else 0 (a deadlock sets
 * o->result) */
static int cta_round(Oracle *o)
{
	uint32_t nwarps = (o->nthreads + 31) / 32, exited = 0;
	int progress = 0;
	Thread *g[32];

	for (uint32_t k = 0; k < o->nthreads && !o->result; k++) {
		uint32_t i = o->reverse ? o->nthreads - 1 - k : k;
		if (o->th[i].state == TS_RUN)
			or_exec(o, &o->th[i]);
	}
	if (o->result)
		return -1;
	if (o->yield)      /* a thread that yielded may yet join a collective or a barrier */
		for (uint32_t i = 0; i < o->nthreads; i++)
			if (o->th[i].state == TS_RUN)
				return 0;
	for (uint32_t w = 0; w < nwarps && !o->result; w++) {
		int n = warp_group(o, w, g);
		if (n) {
			or_collective(o, g, n);
			progress = 1;
		}
	}
	if (progress)
		return 0;
	for (uint32_t i = 0; i < o->nthreads; i++)
		exited += o->th[i].state == TS_EXIT;
	if (exited == o->nthreads)
		return 1;
	for (int id = 0; id < OR_MAXBAR; id++)
		progress |= try_barrier(o, id, exited);
	if (!progress)
		deadlock(o, exited);
	return 0;
}

static void run_cta(Oracle *o)
{
	cta_begin(o);
	while (!o->result) {
		int r = cta_round(o);
		if (r < 0)
			return;
		if (r > 0)
			break;
	}
	o->st.ctas++;
}

/* a cooperative launch (--cooperative): every CTA of the grid at once, as on a GPU that holds
 * them all. The CTAs take rounds (cta_round) in linear order, and a thread's turn also ends
 * at each backward branch, so that a thread spinning on global memory (cooperative groups'
 * grid.sync()) lets every other thread of the grid move: fair, hence the spin ends when the
 * others arrive, and in a fixed order, hence repeatable. */
typedef struct {
	Thread *th;
	uint8_t *shared;
	uint32_t bararrive[OR_MAXBAR];
	uint32_t id[3];
	int over;           /* exited, or stopped */
} CoopCta;

static void coop_swap(Oracle *o, CoopCta *c, int in)
{
	if (in) {
		o->th = c->th, o->shared = c->shared;
		memcpy(o->bararrive, c->bararrive, sizeof o->bararrive);
		memcpy(o->ctaid, c->id, sizeof o->ctaid);
	} else {
		memcpy(c->bararrive, o->bararrive, sizeof o->bararrive);
	}
}

static void run_coop(Oracle *o)
{
	const uint32_t *gd = o->l->grid;
	uint64_t n = (uint64_t)gd[0] * gd[1] * gd[2], live = n;
	Thread *th0 = o->th;
	uint8_t *sh0 = o->shared;
	size_t shb = o->shsize ? o->shsize : 1;
	CoopCta *c = n <= UINT32_MAX ? calloc(n, sizeof *c) : NULL;

	for (uint64_t i = 0; c && i < n; i++) {
		c[i].id[0] = (uint32_t)(i % gd[0]);
		c[i].id[1] = (uint32_t)(i / gd[0] % gd[1]);
		c[i].id[2] = (uint32_t)(i / ((uint64_t)gd[0] * gd[1]));
		if (!(c[i].th = calloc(o->nthreads, sizeof *c[i].th)) || !(c[i].shared = malloc(shb))) {
			for (uint64_t j = 0; j <= i; j++)
				free(c[j].th), free(c[j].shared);
			free(c);
			c = NULL;
		}
	}
	if (!c) {
		fprintf(o->err, "warpsim: oracle: --cooperative: no memory for the %" PRIu64 " CTAs of "
		        "the grid at once\n", n);
		o->result = OR_BADLAUNCH;
		return;
	}
	o->yield = 1;
	for (uint64_t i = 0; i < n && !o->result; i++) {
		coop_swap(o, &c[i], 1);
		cta_begin(o);
		coop_swap(o, &c[i], 0);
	}
	while (live && !o->result)
		for (uint64_t k = 0; k < n && !o->result; k++) {
			uint64_t i = o->reverse ? n - 1 - k : k;
			int r;
			if (c[i].over)
				continue;
			coop_swap(o, &c[i], 1);
			r = cta_round(o);
			coop_swap(o, &c[i], 0);
			if (r > 0 || (r == 0 && o->result)) {   /* (run_cta counts a deadlocked CTA) */
				o->st.ctas++;
				c[i].over = 1;
				live--;
			}
		}
	o->yield = 0;
	for (uint64_t i = 0; i < n; i++) {
		for (uint32_t k = 0; k < o->nthreads; k++)
			or_thread_free(&c[i].th[k]);
		free(c[i].th);
		free(c[i].shared);
	}
	free(c);
	o->th = th0, o->shared = sh0;
}

void or_run_grid(Oracle *o)
{
	const uint32_t *gd = o->l->grid;

	if (o->l->cooperative) {
		run_coop(o);
		return;
	}
	uint64_t n = (uint64_t)gd[0] * gd[1] * gd[2];

	for (uint64_t k = 0; k < n && !o->result; k++) {
		uint64_t i = o->reverse ? n - 1 - k : k;
		o->ctaid[0] = (uint32_t)(i % gd[0]);
		o->ctaid[1] = (uint32_t)(i / gd[0] % gd[1]);
		o->ctaid[2] = (uint32_t)(i / ((uint64_t)gd[0] * gd[1]));
		run_cta(o);
	}
}

int or_run(const Module *m, const Launch *l, const OrConfig *c, Mem *mem, Placed *pl,
           OrStats *st, FILE *err)
{
	Oracle o;
	int r;

	memset(&o, 0, sizeof o);
	o.mem = mem;
	o.err = err;
	o.maxsteps = c && c->max_steps ? c->max_steps : OR_DEFAULT_STEPS;
	o.pout = c && c->printf_out ? c->printf_out : stdout;
	o.ptag = c ? c->printf_tag : 0;
	o.reverse = c ? c->reverse : 0;
	o.shunit = c && c->shared_unit ? c->shared_unit : 1;
	or_types(&o);
	if ((r = or_load(&o, m, l, pl)) != OR_DONE) {
		or_unload(&o);
		return r;
	}
	if (m->funcs[o.ki].unsup_op) {     /* (a callee's is reported when it is called) */
		char note[80];
		snprintf(note, sizeof note, "in kernel '%.60s'", m->funcs[o.ki].name);
		ptx_unsup_report(err, m, &m->funcs[o.ki], "error", note);
		or_unload(&o);
		return OR_UNSUP;
	}
	o.shared = calloc(o.shsize ? o.shsize : 1, 1);
	o.th = calloc(o.nthreads, sizeof *o.th);
	if (!o.shared || !o.th)
		die("out of memory");
	or_run_grid(&o);
	if (!o.result && o.cdp)
		or_cdp_children(&o);   /* dynamic parallelism's child grids (cdp.c) */
	r = o.result;
	if (st)
		*st = o.st;
	or_unload(&o);
	return r;
}

const char *or_result_name(int r)
{
	static const char *const names[] = {"done", "fault", "runaway", "deadlock", "unsupported",
	                                    "trap", "bad launch", "no kernel"};
	return r >= 0 && r < (int)(sizeof names / sizeof names[0]) ? names[r] : "?";
}
