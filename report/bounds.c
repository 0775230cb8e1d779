/* bounds.c - --bounds: three lower bounds of a run's cycles, each from one resource alone,
 * beside the cycles the model counted, so that a reader sees which one binds and what the
 * rest (memory model, queueing, scheduling) adds. A TraceSink: it only observes.
 *
 *   path       the longest warp's dependent chain: each issue waits for its registers'
 *              producers at the config's latencies (the scoreboard's rule, WAW included),
 *              for --ctrl-latency after a control op, for --div-switch after a stack pop
 *              that switches paths, for its CTA's barrier releases (--bar-latency), and up to
 *              --issue-width issues share a cycle; a global load counts its transactions one
 *              a cycle and the fastest level that could serve it (the cache its operator
 *              goes through, L1 or the read-only data cache, else L2, else DRAM), a shared
 *              access its bank conflicts, a constant load its distinct addresses (one request
 *              each, an LSU interval apart): DRAM, queueing, pipelines and other
 *              warps are ignored. A warp ends as the model ends it: after its last issue and
 *              its last pending write.
 *   occupancy  the busiest SM: its CTAs' paths summed, over the CTAs resident on it at once
 *              (the launch's occupancy, or fewer when fewer ran there).
 *   issue      the busiest SM: a scheduler's warp instructions over --issue-width, or a
 *              unit's pipeline cycles (interval x transactions, replays or a constant
 *              load's requests) over its pipelines, less one instruction's (the last may
 *              end after the run).
 *
 * Each bound is reached by some schedule the model could follow, so the model's cycles are
 * never below it (tests/run-bounds.sh checks that on the corpus). docs/timing.md, "Bounds".
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

/* one warp slot's ideal schedule, times from its CTA's start */
typedef struct {
	Scoreboard sb;             /* when each register's last write lands */
	uint64_t t;                /* its last issue */
	int nt;                    /* issues in cycle t */
	uint64_t floor;            /* first cycle its next issue may take (control, barriers) */
	uint64_t maxready;         /* the latest write it has pending */
	uint64_t arr;              /* its last barrier arrival */
	uint64_t insts;            /* warp instructions issued */
	int cta;                   /* index of its CTA in its SM's table, -1 when idle */
} WarpPath;

/* a CTA resident on an SM */
typedef struct {
	int ctaid;                 /* linear id, -1: free entry */
	uint64_t path;             /* the longest warp path so far */
	int warp;                  /* that warp (index in the CTA) */
	uint64_t insts;            /* its instructions */
} CtaPath;

typedef struct {
	WarpPath *w;               /* TM_MAXWARPS slots (allocated at the SM's first CTA) */
	CtaPath cta[TM_MAXWARPS];  /* resident CTAs */
	uint64_t sum;              /* its CTAs' paths summed */
	uint64_t nctas;            /* CTAs completed on it */
	uint64_t sched[TM_MAXSCHED];   /* warp instructions per scheduler */
	uint64_t busy[UNIT_COUNT];     /* pipeline cycles taken per unit class */
	uint64_t dmax[UNIT_COUNT];     /* the most one instruction took */
	uint64_t count[UNIT_COUNT];    /* warp instructions per unit class */
} SmPath;

struct Bounds {
	const Kernel *k;
	const TimingConfig *c;
	TInst *ti;                 /* the timing form of each instruction */
	SbUse *tu;                 /* and its scoreboard ids (TInst.use) */
	SmPath *sm;                /* c->sms of them */
	uint64_t path;             /* the longest CTA path */
	int path_cta, path_warp;   /* where */
	uint64_t path_insts;
	/* a barrier release being gathered: the issue that released it, then one event a warp */
	int rel_sm, rel_n;
	uint64_t rel_t;            /* the releasing instruction's ideal time (its CTA's clock) */
	int rel_w[TM_MAXWARPS];
	int last_sm, last_gw;      /* the last issue's warp */
	uint64_t last_t;
	int oom;                   /* an allocation failed: the figures are not given */
};

static WarpPath *warp(Bounds *b, int sm, int gw)
{
	SmPath *s;

	if (sm < 0 || sm >= b->c->sms || gw < 0 || gw >= TM_MAXWARPS)
		return NULL;
	s = &b->sm[sm];
	if (!s->w && !(s->w = calloc(TM_MAXWARPS, sizeof *s->w))) {
		b->oom = 1;
		return NULL;
	}
	return &s->w[gw];
}

/* the fewest cycles from issue to the data of a global, local or atomic access with trans
 * transactions (one leaves a cycle) of gran bytes each: the fastest level that could serve
 * the last one */
static uint64_t gmem_least(const TimingConfig *c, int local, int kind, int trans, uint32_t gran,
                           CachePath p)
{
	uint64_t occ = ((uint64_t)gran + (uint64_t)c->dram_bw - 1) / (uint64_t)c->dram_bw;
	uint64_t dram = occ + (uint64_t)c->lat[local ? LAT_LOCAL : LAT_GLOBAL], best;

	if (trans == 0)
		return 0;
	if (kind == GM_ATOM) {
		if (!c->l2.enable)
			best = occ + (uint64_t)c->lat[LAT_ATOM];
		else
			best = (uint64_t)c->lat[LAT_ATOM] < dram ? (uint64_t)c->lat[LAT_ATOM] : dram;
	} else {
		best = dram;
		if (c->l2.enable && (uint64_t)c->l2.latency < best)
			best = (uint64_t)c->l2.latency;
		uint64_t hit = (uint64_t)(p == CPATH_L1 ? c->l1.latency : c->ro.latency);
		if (kind == GM_LOAD && p != CPATH_L2 && hit < best)
			best = hit;
	}
	return (uint64_t)(trans - 1) + best;
}

/* a barrier release gathered: every released warp waits for the last arrival */
static void release_flush(Bounds *b)
{
	uint64_t r = b->rel_t;

	if (!b->rel_n)
		return;
	for (int i = 0; i < b->rel_n; i++) {
		WarpPath *w = warp(b, b->rel_sm, b->rel_w[i]);
		if (w && w->arr > r)
			r = w->arr;
	}
	r += (uint64_t)b->c->lat[LAT_BAR];
	for (int i = 0; i < b->rel_n; i++) {
		WarpPath *w = warp(b, b->rel_sm, b->rel_w[i]);
		if (w && r > w->floor)
			w->floor = r;
	}
	b->rel_n = 0;
}

static void bd_issue(void *ctx, const TraceIssue *t)
{
	Bounds *b = ctx;
	const TimingConfig *c = b->c;
	const ExecInfo *e = t->e;
	int i = isa_kernel_index(b->k, e->pc), mult = 1, why;
	WarpPath *w = warp(b, e->sm, t->gwarp);
	const TInst *in;
	uint64_t t0, ready;

	release_flush(b);
	if (i < 0 || !w || w->cta < 0)
		return;
	in = &b->ti[i];
	/* when the ideal schedule issues it */
	t0 = w->nt < c->issue_width ? w->t : w->t + 1;
	if (w->floor > t0)
		t0 = w->floor;
	if ((ready = sim_sb_ready(&w->sb, in->use, &why)) > t0)
		t0 = ready;
	w->nt = t0 == w->t && w->insts ? w->nt + 1 : 1;
	w->t = t0;
	w->insts++;
	/* when its result lands, at the least the model could charge */
	ready = t0 + (uint64_t)c->lat[in->lat];
	if (!e->naddr && e->space != SP_NONE && e->space != SP_SHARED)
		ready = t0 + sim_noreq_latency(c);  /* an access that makes no request */
	else if (e->space == SP_GLOBAL || e->space == SP_LOCAL) {
		int kind = (isa_ops[e->in->op].flags & F_ATOMIC) ? GM_ATOM :
		           (isa_ops[e->in->op].flags & F_STORE) ? GM_STORE : GM_LOAD;
		int local = e->space == SP_LOCAL, trans = 0;
		CachePath p = kind == GM_LOAD ? sim_cache_path(c, sim_cache_op(e->in, local)) : CPATH_L2;
		uint32_t gran = (uint32_t)(p == CPATH_L1 ? c->l1.line : p == CPATH_RO ? c->ro.line : c->sector);
		uint64_t seg[TM_MAXSEGS];
		if (!local)
			trans = mult = sim_coalesce(e->addr, e->naddr, e->size, gran, seg);
		else
			trans = e->naddr != 0;  /* (local lanes interleave; one transaction at the least) */
		ready = t0 + gmem_least(c, local, kind, trans, gran, p);
		if (kind == GM_ATOM && e->naddr && !local)
			ready += (uint64_t)(sim_same_addr_degree(e->addr, e->naddr) - 1) * (uint64_t)c->atom_serial;
	} else if (e->space == SP_SHARED) {
		uint32_t off[TM_WARP] = {0};
		for (uint32_t m = e->naddr; m; m &= m - 1) {
			int l = __builtin_ctz(m);
			off[l] = (uint32_t)(e->addr[l] >= DEV_SHARED_WINDOW ? e->addr[l] - DEV_SHARED_WINDOW : e->addr[l]);
		}
		mult = sim_bank_degree(off, e->naddr, e->size, c->banks, c->bank_bytes);
		if (mult > 1)
			ready += (uint64_t)(mult - 1) * (uint64_t)c->unit[in->unit].interval;
	} else if (e->space == SP_CONST) {
		/* one request per distinct address, as the model splits it */
		mult = sim_distinct_addrs(e->addr, e->naddr);
		if (mult > 1)
			ready += (uint64_t)(mult - 1) * (uint64_t)c->unit[in->unit].interval;
	}
	sim_sb_write(&w->sb, in->use, ready, 0);
	if (in->ndst && ready > w->maxready)
		w->maxready = ready;
	if (in->ctrl && t0 + (uint64_t)c->lat[LAT_CTRL] > w->floor)
		w->floor = t0 + (uint64_t)c->lat[LAT_CTRL];
	if (e->popped && e->event != EV_WARP_DONE && e->next_active &&
	    t0 + 1 + (uint64_t)c->div_switch > w->floor)
		w->floor = t0 + 1 + (uint64_t)c->div_switch;
	if (isa_ops[e->in->op].flags & F_BARRIER)
		w->arr = t0;
	b->last_sm = e->sm;
	b->last_gw = t->gwarp;
	b->last_t = t0;
	/* the issue bound's counts */
	{
		SmPath *s = &b->sm[e->sm];
		uint64_t d = (uint64_t)c->unit[in->unit].interval * (uint64_t)(mult > 1 ? mult : 1);
		s->sched[t->gwarp % c->schedulers]++;
		s->busy[in->unit] += d;
		s->count[in->unit]++;
		if (d > s->dmax[in->unit])
			s->dmax[in->unit] = d;
	}
}

static CtaPath *cta_of(SmPath *s, int ctaid)
{
	for (int i = 0; i < TM_MAXWARPS; i++)
		if (s->cta[i].ctaid == ctaid)
			return &s->cta[i];
	return NULL;
}

static void bd_event(void *ctx, const TraceEvent *ev)
{
	Bounds *b = ctx;
	SmPath *s;
	CtaPath *cp;
	WarpPath *w;

	if (ev->kind != TEV_BAR_RELEASE)
		release_flush(b);
	if (ev->sm < 0 || ev->sm >= b->c->sms)
		return;
	s = &b->sm[ev->sm];
	switch ((TraceEvKind)ev->kind) {
	case TEV_CTA_START:
		if ((cp = cta_of(s, -1))) {
			cp->ctaid = ev->ctaid;
			cp->path = 0;
			cp->warp = 0;
			cp->insts = 0;
		}
		break;
	case TEV_WARP_START:
		if ((w = warp(b, ev->sm, ev->gwarp))) {
			memset(w, 0, sizeof *w);
			cp = cta_of(s, ev->ctaid);
			w->cta = cp ? (int)(cp - s->cta) : -1;
		}
		break;
	case TEV_BAR_RELEASE:
		/* the warps a barrier lets go come right after the issue that released it */
		if (!b->rel_n) {
			b->rel_sm = b->last_sm;
			b->rel_t = b->last_t;
		}
		if (ev->sm == b->rel_sm && b->rel_n < TM_MAXWARPS)
			b->rel_w[b->rel_n++] = ev->gwarp;
		break;
	case TEV_WARP_DONE:
		if ((w = warp(b, ev->sm, ev->gwarp)) && w->cta >= 0) {
			uint64_t end = w->t + 1 > w->maxready ? w->t + 1 : w->maxready;
			cp = &s->cta[w->cta];
			if (end > cp->path) {
				cp->path = end;
				cp->warp = ev->warp;
				cp->insts = w->insts;
			}
			w->cta = -1;
		}
		break;
	case TEV_CTA_DONE:
		if ((cp = cta_of(s, ev->ctaid))) {
			s->sum += cp->path;
			s->nctas++;
			if (cp->path > b->path) {
				b->path = cp->path;
				b->path_cta = cp->ctaid;
				b->path_warp = cp->warp;
				b->path_insts = cp->insts;
			}
			cp->ctaid = -1;
		}
		break;
	case TEV_BAR_WAIT:
	case TEV_COUNT:
		break;
	}
}

static void bd_end(void *ctx, uint64_t cycles)
{
	release_flush(ctx);
}

Bounds *rp_bounds_new(const Kernel *k, const TimingConfig *c)
{
	Bounds *b = calloc(1, sizeof *b);

	if (!b)
		return NULL;
	b->k = k;
	b->c = c;
	b->ti = calloc((size_t)(k->nins ? k->nins : 1), sizeof *b->ti);
	b->tu = calloc((size_t)(k->nins ? k->nins : 1), sizeof *b->tu);
	b->sm = calloc((size_t)c->sms, sizeof *b->sm);
	if (!b->ti || !b->tu || !b->sm) {
		rp_bounds_free(b);
		return NULL;
	}
	for (int i = 0; i < k->nins; i++)
		sim_tdecode(&k->ins[i], &b->ti[i], &b->tu[i]);
	for (int s = 0; s < c->sms; s++)
		for (int i = 0; i < TM_MAXWARPS; i++)
			b->sm[s].cta[i].ctaid = -1;
	return b;
}

void rp_bounds_sink(Bounds *b, TraceSink *s)
{
	s->issue = bd_issue;
	s->event = bd_event;
	s->end = bd_end;
	s->ctx = b;
}

static uint64_t ceildiv(uint64_t a, uint64_t d)
{
	return d ? (a + d - 1) / d : 0;
}

int rp_bounds_get(const Bounds *b, const TStats *ts, BoundsFig *f)
{
	const TimingConfig *c = b->c;

	memset(f, 0, sizeof *f);
	if (b->oom)
		return -1;
	f->cycles = ts->cycles;
	f->path = b->path;
	f->path_cta = b->path_cta;
	f->path_warp = b->path_warp;
	f->path_insts = b->path_insts;
	for (int i = 0; i < c->sms; i++) {
		const SmPath *s = &b->sm[i];
		uint64_t at_once = (uint64_t)ts->occ.ctas < s->nctas ? (uint64_t)ts->occ.ctas : s->nctas;
		uint64_t o = ceildiv(s->sum, at_once);
		if (o > f->occupancy) {
			f->occupancy = o;
			f->occ_sm = i;
			f->occ_ctas = s->nctas;
			f->occ_at_once = (int)at_once;
		}
		for (int k = 0; k < c->schedulers; k++) {
			uint64_t v = ceildiv(s->sched[k], (uint64_t)c->issue_width);
			if (v > f->issue) {
				f->issue = v;
				f->issue_sm = i;
				f->issue_unit = -1;
				f->issue_sched = k;
				f->issue_count = s->sched[k];
			}
		}
		for (int u = 0; u < UNIT_COUNT; u++) {
			uint64_t v = ceildiv(s->busy[u], (uint64_t)c->unit[u].units);
			v = v > s->dmax[u] ? v - s->dmax[u] + 1 : 0;
			if (v > f->issue) {
				f->issue = v;
				f->issue_sm = i;
				f->issue_unit = u;
				f->issue_sched = -1;
				f->issue_count = s->count[u];
				f->issue_busy = s->busy[u];
			}
		}
	}
	f->bound = f->path;
	f->which = "path";
	if (f->occupancy > f->bound) {
		f->bound = f->occupancy;
		f->which = "occupancy";
	}
	if (f->issue > f->bound) {
		f->bound = f->issue;
		f->which = "issue";
	}
	return 0;
}

int rp_bounds_print(FILE *out, const Bounds *b, const TStats *ts)
{
	const TimingConfig *c = b->c;
	BoundsFig f;

	if (rp_bounds_get(b, ts, &f))
		return -1;
	fprintf(out, "bounds of kernel %s: %" PRIu64 " cycles\n", b->k->name, f.cycles);
	fprintf(out, "  path       %10" PRIu64 "  the longest warp's dependent chain (CTA %d, warp %d: "
	        "%" PRIu64 " instructions)\n", f.path, f.path_cta, f.path_warp, f.path_insts);
	fprintf(out, "  occupancy  %10" PRIu64 "  SM %d: %" PRIu64 " CTAs' paths over %d resident at once\n",
	        f.occupancy, f.occ_sm, f.occ_ctas, f.occ_at_once);
	if (f.issue_unit < 0)
		fprintf(out, "  issue      %10" PRIu64 "  SM %d, scheduler %d: %" PRIu64 " warp instructions, "
		        "%d a cycle\n", f.issue, f.issue_sm, f.issue_sched, f.issue_count, c->issue_width);
	else
		fprintf(out, "  issue      %10" PRIu64 "  SM %d, unit %s: %" PRIu64 " warp instructions, "
		        "%" PRIu64 " pipeline cycles over %d pipelines\n", f.issue, f.issue_sm,
		        isa_unit_name((Unit)f.issue_unit), f.issue_count, f.issue_busy,
		        c->unit[f.issue_unit].units);
	fprintf(out, "  bound      %10" PRIu64 "  the largest (%s); cycles / bound %.2f\n", f.bound,
	        f.which, f.bound ? (double)f.cycles / (double)f.bound : 0.0);
	return 0;
}

void rp_bounds_free(Bounds *b)
{
	if (!b)
		return;
	if (b->sm)
		for (int i = 0; i < b->c->sms; i++)
			free(b->sm[i].w);
	free(b->sm);
	free(b->ti);
	free(b->tu);
	free(b);
}
