/* trace_json.c - the Chrome trace-event trace (--trace FILE.json) that ui.perfetto.dev and
 * chrome://tracing open: a process per SM, a thread (track) per warp, a complete event
 * ("ph":"X") per issued instruction, stall and barrier-wait slices between them, instant
 * events for divergence, reconvergence, warp and CTA start and end, and a counter of active
 * lanes per SM. One SM cycle is one trace nanosecond (ts = cycles / 1000). Slices on a track never overlap:
 * instructions a warp issues in the same cycle (dual issue) share that cycle in equal parts,
 * and a stall slice starts where the warp's previous slice ended. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

enum { MAXPEND = 8 };

typedef struct {
	uint32_t pc;            /* instruction address */
	uint32_t active, exec;  /* masks at issue */
	uint32_t next_active;   /* active mask after it */
	uint8_t diverged;       /* it split the warp */
	uint8_t reconverged;    /* a SYNC token restored lanes */
} Pend;

typedef struct {
	uint64_t key;           /* ctaid << 16 | warp, plus one; 0 marks a free hash slot */
	int sm;                 /* its SM: the process */
	int64_t tid;            /* its track */
	double end;             /* end of the last slice written on the track */
	uint64_t pcycle;        /* cycle of the pending issues */
	int npend;              /* issues of that cycle not written yet */
	Pend pend[MAXPEND];     /* them */
	int atbar;              /* waiting at a barrier since barfrom */
	double barfrom;         /* start of the barrier-wait slice */
} Track;

typedef struct {
	int named;              /* process metadata written */
	int have;               /* cycle holds issues not written yet */
	uint64_t cycle;         /* the cycle being summed */
	uint64_t active, exec;  /* lanes issued on the SM in that cycle */
} SmCount;

typedef struct {
	TOut *o;                /* the file */
	TraceInfo ti;           /* the run */
	InsText it;             /* instruction texts */
	Track *tr;              /* open-addressing hash of tracks */
	int ntr, captr;
	SmCount *smc;           /* per SM */
	int nsm;
	int first;              /* no event written yet */
	int ended;              /* the end record arrived */
	uint64_t cycles;        /* the run's length, from the end record */
	/* several launches (TraceInfo.nlaunches) */
	int launch;             /* the launch under way (from 0) */
	int64_t tidbase;        /* its tracks' first tid: after every earlier launch's */
	int64_t maxtid;         /* one past the highest tid written */
	int inlaunch;           /* a launch began: its slice on the launches track is due */
	uint64_t lfrom;         /* where it began */
	char lname[160];        /* its slice's name */
	char largs[600];        /* and its args */
} Json;

/* the process holding a slice per launch, above the SMs */
enum { LAUNCH_PID = TM_MAXSMS };

/* a JSON string body (opt_json_esc's escapes) */
static void jstr(TOut *o, const char *s)
{
	char e[7];

	for (; *s; s++) {
		opt_json_esc((unsigned char)*s, e);
		rp_tout_write(o, e, strlen(e));
	}
}

/* jstr into a[m..] (a holding n bytes) while m < lim, lim <= n - 7; the new m */
static int jcat(char *a, size_t n, int m, int lim, const char *s)
{
	char e[7];

	for (; *s && m < lim; s++)
		m += snprintf(a + m, n - (size_t)m, "%s", opt_json_esc((unsigned char)*s, e));
	return m;
}

/* a time in cycles as the format's microseconds, one cycle being one nanosecond (so that a
 * viewer honouring displayTimeUnit "ns" shows cycles): integral cycles print exactly */
static const char *tstr(double t, char *buf, size_t n)
{
	if (t == (double)(uint64_t)t)
		snprintf(buf, n, "%" PRIu64 ".%03" PRIu64, (uint64_t)t / 1000, (uint64_t)t % 1000);
	else
		snprintf(buf, n, "%.6f", t / 1000.0);
	return buf;
}

static void sep(Json *j)
{
	rp_tout_write(j->o, j->first ? "\n" : ",\n", j->first ? 1 : 2);
	j->first = 0;
}

static SmCount *smc(Json *j, int sm)
{
	if (sm < 0)
		sm = 0;
	if (sm >= j->nsm) {
		int n = sm + 16;
		SmCount *p = realloc(j->smc, (size_t)n * sizeof *p);
		if (!p) {
			j->o->failed = 1;
			return NULL;
		}
		memset(p + j->nsm, 0, (size_t)(n - j->nsm) * sizeof *p);
		j->smc = p;
		j->nsm = n;
	}
	if (!j->smc[sm].named) {
		j->smc[sm].named = 1;
		sep(j);
		rp_tout_printf(j->o, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":\"SM %d\"}},\n"
		                "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"args\":{\"sort_index\":%d}}",
		                sm, sm, sm, sm);
	}
	return &j->smc[sm];
}

static int inwin(const Json *j, double t)
{
	return t >= (double)j->ti.lo && (j->ti.hi == UINT64_MAX || t < (double)j->ti.hi + 1);
}

/* opens a complete event clipped to the window; 0 when nothing of it is inside. The caller
 * writes the args object and the closing brace. */
static int slice(Json *j, const Track *t, double a, double b, const char *name, const char *cat)
{
	char ts[32], du[32];

	if (a < (double)j->ti.lo)
		a = (double)j->ti.lo;
	if (j->ti.hi != UINT64_MAX && b > (double)j->ti.hi + 1)
		b = (double)j->ti.hi + 1;
	if (b <= a)
		return 0;
	sep(j);
	rp_tout_printf(j->o, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%" PRId64 ",\"ts\":%s,\"dur\":%s,\"name\":\"",
	                t->sm, t->tid, tstr(a, ts, sizeof ts), tstr(b - a, du, sizeof du));
	jstr(j->o, name);
	rp_tout_printf(j->o, "\",\"cat\":\"%s\"", cat);
	return 1;
}

static void instant(Json *j, int pid, int64_t tid, double t, const char *name, const char *cat,
                    const char *args)
{
	char ts[32];

	if (!inwin(j, t))
		return;
	sep(j);
	if (tid < 0)
		rp_tout_printf(j->o, "{\"ph\":\"i\",\"s\":\"p\",\"pid\":%d,\"ts\":%s,\"name\":\"%s\",\"cat\":\"%s\"%s}",
		                pid, tstr(t, ts, sizeof ts), name, cat, args ? args : "");
	else
		rp_tout_printf(j->o, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%" PRId64 ",\"ts\":%s,\"name\":\"%s\",\"cat\":\"%s\"%s}",
		                pid, tid, tstr(t, ts, sizeof ts), name, cat, args ? args : "");
}

static Track *track(Json *j, int sm, int ctaid, int warp)
{
	uint64_t key = ((uint64_t)(uint16_t)j->launch << 48 | (uint64_t)(uint32_t)ctaid << 16 |
	                (uint16_t)warp) + 1;
	uint64_t h;
	Track *t;

	if (2 * (j->ntr + 1) > j->captr) {      /* grow: rehash */
		int cap = j->captr ? 2 * j->captr : 64;
		Track *nt = calloc((size_t)cap, sizeof *nt);
		if (!nt) {
			j->o->failed = 1;
			return NULL;
		}
		for (int i = 0; i < j->captr; i++) {
			if (!j->tr[i].key)
				continue;
			h = j->tr[i].key * 0x9e3779b97f4a7c15ull;
			for (h >>= 20; nt[h & (uint64_t)(cap - 1)].key; h++)
				;
			nt[h & (uint64_t)(cap - 1)] = j->tr[i];
		}
		free(j->tr);
		j->tr = nt;
		j->captr = cap;
	}
	h = key * 0x9e3779b97f4a7c15ull;
	for (h >>= 20; (t = &j->tr[h & (uint64_t)(j->captr - 1)])->key; h++)
		if (t->key == key)
			return t;
	if (!smc(j, sm))
		return NULL;
	j->ntr++;
	memset(t, 0, sizeof *t);
	t->key = key;
	t->sm = sm;
	t->tid = j->tidbase + (int64_t)ctaid * (j->ti.warps_per_cta > 0 ? j->ti.warps_per_cta : 64) + warp;
	if (t->tid + 1 > j->maxtid)
		j->maxtid = t->tid + 1;
	sep(j);
	if (j->ti.nlaunches)    /* several launches: each warp's track names its launch */
		rp_tout_printf(j->o, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%" PRId64
		                ",\"args\":{\"name\":\"launch %d cta %d warp %d\"}},\n", sm, t->tid, j->launch + 1,
		                ctaid, warp);
	else
		rp_tout_printf(j->o, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%" PRId64
		                ",\"args\":{\"name\":\"cta %d warp %d\"}},\n", sm, t->tid, ctaid, warp);
	rp_tout_printf(j->o, "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%d,\"tid\":%" PRId64
	                ",\"args\":{\"sort_index\":%" PRId64 "}}", sm, t->tid, t->tid);
	return t;
}

/* writes the pending issues of a track: n issues share their cycle in equal parts */
static void flush(Json *j, Track *t)
{
	double base = (double)t->pcycle;
	int n = t->npend;

	if (!n)
		return;
	if (base < t->end)
		base = t->end;
	for (int i = 0; i < n; i++) {
		const Pend *p = &t->pend[i];
		int ii = j->ti.k ? isa_kernel_index(j->ti.k, p->pc) : -1;
		const Ins *in = ii >= 0 ? &j->ti.k->ins[ii] : NULL;
		double a = base + (double)i / n, b = base + (double)(i + 1) / n;
		char op[64], name[96], args[160];

		rp_instext_opcode(&j->it, p->pc, op, sizeof op);
		snprintf(name, sizeof name, "%s @0x%04x", op, p->pc);
		if (slice(j, t, a, b, name, "issue")) {
			rp_tout_printf(j->o, ",\"args\":{\"ins\":\"");
			jstr(j->o, rp_instext(&j->it, p->pc));
			rp_tout_printf(j->o, "\",\"pc\":\"0x%04x\",\"active\":\"0x%08x\",\"exec\":\"0x%08x\","
			                "\"lanes\":%d,\"exec_lanes\":%d", p->pc, p->active, p->exec,
			                __builtin_popcount(p->active), __builtin_popcount(p->exec));
			if (in && in->ptxline)
				rp_tout_printf(j->o, ",\"ptx_line\":%d", in->ptxline);
			if (in && in->ptxline && j->ti.prog && j->ti.prog->nptxfiles > 1 &&
			    in->ptxfile >= 0 && in->ptxfile < j->ti.prog->nptxfiles) {
				rp_tout_printf(j->o, ",\"ptx_file\":\"");   /* a linked program's */
				jstr(j->o, j->ti.prog->ptxfiles[in->ptxfile]);
				rp_tout_write(j->o, "\"", 1);
			}
			if (in && in->srcline)
				rp_tout_printf(j->o, ",\"cuda_line\":%d", in->srcline);
			if (in && in->line)
				rp_tout_printf(j->o, ",\"listing_line\":%d", in->line);
			rp_tout_write(j->o, "}}", 2);
		}
		if (p->diverged) {
			snprintf(name, sizeof name, "diverge @0x%04x", p->pc);
			snprintf(args, sizeof args, ",\"args\":{\"active\":\"0x%08x\",\"first_path\":\"0x%08x\"}",
			         p->active, p->next_active);
			instant(j, t->sm, t->tid, a, name, "divergence", args);
		}
		if (p->reconverged) {
			snprintf(name, sizeof name, "reconverge @0x%04x", p->pc);
			snprintf(args, sizeof args, ",\"args\":{\"active\":\"0x%08x\"}", p->next_active);
			instant(j, t->sm, t->tid, b, name, "divergence", args);
		}
	}
	t->end = base + 1;
	t->npend = 0;
}

/* the active-lanes counter of an SM: its summed cycle, then zero when the next issue on the
 * SM is not in the following cycle (next: that issue's cycle, UINT64_MAX at the end) */
static void count_flush(Json *j, int sm, SmCount *s, uint64_t next)
{
	char ts[32];

	if (!s->have)
		return;
	if (inwin(j, (double)s->cycle)) {
		sep(j);
		rp_tout_printf(j->o, "{\"ph\":\"C\",\"pid\":%d,\"ts\":%s,\"name\":\"lanes\",\"args\":{\"active\":%"
		                PRIu64 ",\"exec\":%" PRIu64 "}}", sm, tstr((double)s->cycle, ts, sizeof ts),
		                s->active, s->exec);
	}
	if (next > s->cycle + 1 && inwin(j, (double)(s->cycle + 1))) {
		sep(j);
		rp_tout_printf(j->o, "{\"ph\":\"C\",\"pid\":%d,\"ts\":%s,\"name\":\"lanes\",\"args\":{\"active\":0,\"exec\":0}}",
		                sm, tstr((double)(s->cycle + 1), ts, sizeof ts));
	}
	s->have = 0;
	s->active = s->exec = 0;
}

static void *json_open(TOut *o, const TraceInfo *ti)
{
	Json *j = calloc(1, sizeof *j);

	if (!j)
		return NULL;
	j->o = o;
	j->ti = *ti;
	j->first = 1;
	rp_instext_init(&j->it, ti->k);
	rp_tout_printf(o, "{\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"generator\":\"warpsim\",");
	if (ti->nlaunches)      /* several launches: the launches process names their kernels */
		rp_tout_printf(o, "\"launches\":%d", ti->nlaunches);
	else {
		rp_tout_printf(o, "\"kernel\":\"");
		jstr(o, ti->k->name);
		rp_tout_write(o, "\"", 1);
	}
	rp_tout_printf(o, ",\"program\":\"");
	jstr(o, ti->program ? ti->program : "-");
	rp_tout_printf(o, "\",\"time_unit\":\"1 ns = 1 SM cycle (ts and dur are cycles / 1000)\"");
	if (ti->lo != 0 || ti->hi != UINT64_MAX) {
		if (ti->hi == UINT64_MAX)
			rp_tout_printf(o, ",\"window\":\"%" PRIu64 ":\"", ti->lo);
		else
			rp_tout_printf(o, ",\"window\":\"%" PRIu64 ":%" PRIu64 "\"", ti->lo, ti->hi);
	}
	rp_tout_printf(o, "},\n\"traceEvents\":[");
	return j;
}

static void json_issue(void *st, const TraceIssue *ti)
{
	Json *j = st;
	const ExecInfo *e = ti->e;
	Track *t = track(j, e->sm, ti->ctaid, e->warp);
	SmCount *s = smc(j, e->sm);
	Pend *p;

	if (!t || !s)
		return;
	if (s->have && s->cycle != ti->cycle)
		count_flush(j, e->sm, s, ti->cycle);
	s->have = 1;
	s->cycle = ti->cycle;
	s->active += (uint64_t)__builtin_popcount(e->active);
	s->exec += (uint64_t)__builtin_popcount(e->exec);
	if (t->npend && (t->pcycle != ti->cycle || t->npend == MAXPEND))
		flush(j, t);
	if (!t->npend && ti->stall_cycles) {
		double a = (double)ti->cycle - (double)ti->stall_cycles, b = (double)ti->cycle;
		char name[48];
		if (a < t->end)
			a = t->end;
		if (ti->stall_reason == STALL_NONE)
			snprintf(name, sizeof name, "ready (not selected)");
		else
			snprintf(name, sizeof name, "stall: %s", rp_stall_name(ti->stall_reason));
		if (b > a && slice(j, t, a, b, name, "stall")) {
			rp_tout_printf(j->o, ",\"args\":{\"reason\":\"%s\",\"cycles\":%" PRIu32 "}}",
			                rp_stall_name(ti->stall_reason), ti->stall_cycles);
			t->end = b;
		}
	}
	p = &t->pend[t->npend++];
	t->pcycle = ti->cycle;
	p->pc = e->pc;
	p->active = e->active;
	p->exec = e->exec;
	p->next_active = e->next_active;
	p->diverged = e->diverged;
	p->reconverged = e->reconverged;
}

static void json_event(void *st, const TraceEvent *ev)
{
	Json *j = st;
	Track *t;
	char name[48];
	double c = (double)ev->cycle;

	switch ((TraceEvKind)ev->kind) {
	case TEV_CTA_START:
	case TEV_CTA_DONE:
		if (!smc(j, ev->sm))
			return;
		if (j->ti.nlaunches)
			snprintf(name, sizeof name, "launch %d cta %d %s", j->launch + 1, ev->ctaid,
			         ev->kind == TEV_CTA_START ? "start" : "done");
		else
			snprintf(name, sizeof name, "cta %d %s", ev->ctaid, ev->kind == TEV_CTA_START ? "start" : "done");
		instant(j, ev->sm, -1, c, name, "cta", NULL);
		return;
	case TEV_WARP_START:
		if ((t = track(j, ev->sm, ev->ctaid, ev->warp)))
			instant(j, t->sm, t->tid, c, "warp start", "warp", NULL);
		return;
	case TEV_BAR_WAIT:
		if (!(t = track(j, ev->sm, ev->ctaid, ev->warp)))
			return;
		t->atbar = 1;
		t->barfrom = t->npend && (double)t->pcycle + 1 > c ? (double)t->pcycle + 1 : c;
		if (t->barfrom < t->end)
			t->barfrom = t->end;
		return;
	case TEV_BAR_RELEASE:
		if (!(t = track(j, ev->sm, ev->ctaid, ev->warp)) || !t->atbar)
			return;
		if (t->npend && (double)t->pcycle < c)
			flush(j, t);
		t->atbar = 0;
		if (c > t->barfrom && c > t->end) {
			double from = t->barfrom > t->end ? t->barfrom : t->end;
			if (slice(j, t, from, c, "barrier", "barrier"))
				rp_tout_printf(j->o, ",\"args\":{\"pc\":\"0x%04x\",\"cycles\":%.0f}}", ev->pc, c - from);
			t->end = c;
		}
		return;
	case TEV_WARP_DONE:
		if (!(t = track(j, ev->sm, ev->ctaid, ev->warp)))
			return;
		flush(j, t);
		instant(j, t->sm, t->tid, c > t->end ? c : t->end, "warp done", "warp", NULL);
		return;
	case TEV_COUNT:
		break;
	}
}

static void json_end(void *st, uint64_t cycles)
{
	Json *j = st;

	j->ended = 1;
	j->cycles = cycles;
}

/* the pending issues of every track and the SMs' lane counters */
static void flush_all(Json *j)
{
	for (int i = 0; i < j->captr; i++)
		if (j->tr[i].key)
			flush(j, &j->tr[i]);
	for (int i = 0; i < j->nsm; i++)
		count_flush(j, i, &j->smc[i], UINT64_MAX);
}

/* the slice of the launch under way, from where it began to `to`, on the launches process */
static void launch_slice(Json *j, uint64_t to)
{
	Track t = {.sm = LAUNCH_PID, .tid = 0};

	if (!j->inlaunch)
		return;
	j->inlaunch = 0;
	if (slice(j, &t, (double)j->lfrom, (double)to, j->lname, "launch"))
		rp_tout_printf(j->o, ",\"args\":{%s,\"from_cycle\":%" PRIu64 ",\"cycles\":%" PRIu64 "}}",
		                j->largs, j->lfrom, to - j->lfrom);
}

/* (several launches) launch l begins: the one before it ends there */
static void json_launch(void *st, const TraceInfo *ti, const TraceLaunch *l)
{
	Json *j = st;
	const Launch *ln = l->l;
	char *a = j->largs;
	size_t n = sizeof j->largs;
	int m;

	flush_all(j);
	launch_slice(j, l->from);
	if (l->i == 0) {
		sep(j);
		rp_tout_printf(j->o, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":\"launches\"}},\n"
		                "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"args\":{\"sort_index\":-1}},\n"
		                "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":0,\"args\":{\"name\":\"launch\"}}",
		                LAUNCH_PID, LAUNCH_PID, LAUNCH_PID);
	}
	if (j->ti.k != ti->k) {
		rp_instext_free(&j->it);
		rp_instext_init(&j->it, ti->k);
	}
	j->ti.k = ti->k;
	j->ti.prog = ti->prog;
	j->ti.warps_per_cta = ti->warps_per_cta;
	j->launch = l->i;
	j->tidbase = j->maxtid;
	j->inlaunch = 1;
	j->lfrom = l->from;
	snprintf(j->lname, sizeof j->lname, "launch %d: %.120s", l->i + 1, ti->k->name);
	/* the args, its kernel and where (escaped as jstr does, in a buffer) */
	m = snprintf(a, n, "\"launch\":%d,\"kernel\":\"", l->i + 1);
	m = jcat(a, n, m, 300, ti->k->name);
	m += snprintf(a + m, n - (size_t)m, "\",\"grid\":[%" PRIu32 ",%" PRIu32 ",%" PRIu32 "],\"block\":[%"
	              PRIu32 ",%" PRIu32 ",%" PRIu32 "]", ln->grid[0], ln->grid[1], ln->grid[2],
	              ln->block[0], ln->block[1], ln->block[2]);
	if (ln->where && m + 16 < (int)n) {
		m += snprintf(a + m, n - (size_t)m, ",\"where\":\"");
		m = jcat(a, n, m, (int)n - 16, ln->where);
		snprintf(a + m, n - (size_t)m, "\"");
	}
}

static void json_finish(void *st)
{
	Json *j = st;

	flush_all(j);
	if (j->ended)
		launch_slice(j, j->cycles);
	rp_tout_printf(j->o, "\n],\n\"metadata\":{\"complete\":%s", j->ended ? "true" : "false");
	if (j->ended)
		rp_tout_printf(j->o, ",\"cycles\":%" PRIu64, j->cycles);
	if (j->ti.nlaunches)
		rp_tout_printf(j->o, ",\"launches\":%d", j->ti.nlaunches);
	rp_tout_printf(j->o, "}}\n");
	rp_instext_free(&j->it);
	free(j->tr);
	free(j->smc);
	free(j);
}

const TraceFmt rp_trace_json = {json_open, json_issue, json_event, json_end, json_finish, json_launch};
