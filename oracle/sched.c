/* sched.c - the oracle's execution model. CTAs run one after another in linear order. In a
 * CTA, the threads run one at a time, in linear order, each until it blocks at a barrier or a
 * warp collective, or exits. When none can run:
 *   1. in each warp, the collective group that is "first" (deepest call, then lowest
 *      instruction) is evaluated: threads that will join a later collective reach it first;
 *   2. otherwise each barrier whose arrivals (waiting threads, bar.arrive counts, and for a
 *      barrier of the whole CTA the exited threads) reach its count releases;
 *   3. otherwise, if a thread has not exited, the CTA is deadlocked: reported with every
 *      waiting thread and where it waits.
 * Atomics and stores take effect at once, in this thread order. */
#include <stdlib.h>
#include <string.h>
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
		        t->tid[2], o->m->funcs[FR(t)->fi].name, o->m->name, in->loc.line, in->loc.col,
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

static void run_cta(Oracle *o)
{
	uint32_t nwarps = (o->nthreads + 31) / 32;
	Thread *g[32];

	memset(o->shared, 0, o->shsize ? o->shsize : 1);
	memset(o->bararrive, 0, sizeof o->bararrive);
	for (uint32_t i = 0; i < o->nthreads && !o->result; i++)
		reset_thread(o, &o->th[i], i);
	while (!o->result) {
		uint32_t exited = 0;
		int progress = 0;

		for (uint32_t i = 0; i < o->nthreads && !o->result; i++)
			if (o->th[i].state == TS_RUN)
				or_exec(o, &o->th[i]);
		if (o->result)
			return;
		for (uint32_t w = 0; w < nwarps && !o->result; w++) {
			int n = warp_group(o, w, g);
			if (n) {
				or_collective(o, g, n);
				progress = 1;
			}
		}
		if (progress)
			continue;
		for (uint32_t i = 0; i < o->nthreads; i++)
			exited += o->th[i].state == TS_EXIT;
		if (exited == o->nthreads)
			break;
		for (int id = 0; id < OR_MAXBAR; id++)
			progress |= try_barrier(o, id, exited);
		if (!progress)
			deadlock(o, exited);
	}
	o->st.ctas++;
}

void or_run_grid(Oracle *o)
{
	const uint32_t *gd = o->l->grid;

	for (uint32_t z = 0; z < gd[2] && !o->result; z++)
		for (uint32_t y = 0; y < gd[1] && !o->result; y++)
			for (uint32_t x = 0; x < gd[0] && !o->result; x++) {
				o->ctaid[0] = x, o->ctaid[1] = y, o->ctaid[2] = z;
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
