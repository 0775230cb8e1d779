/* trace_txt.c - the text trace (--trace FILE.txt, FILE.txt.gz through zlib): a header naming
 * the columns, then one fixed-width line per issued warp instruction. traces/README.md
 * documents every column; the writer keeps no state beyond the instruction texts. */
#include <inttypes.h>
#include <stdlib.h>
#include "report/report.h"

typedef struct {
	TOut *o;                /* the file */
	TraceInfo ti;           /* the run */
	InsText it;             /* instruction texts */
	uint64_t lines;         /* instruction lines written */
	int ended;              /* the end record arrived */
} Txt;

static void *txt_open(TOut *o, const TraceInfo *ti)
{
	Txt *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->o = o;
	t->ti = *ti;
	rp_instext_init(&t->it, ti->k);
	if (ti->nlaunches)      /* several launches: each marked by a "# launch" line */
		rp_tout_printf(o, "# warpsim trace of %d launches (%s): one line per issued warp "
		                "instruction; cycles continue from launch to launch\n", ti->nlaunches,
		                ti->program ? ti->program : "-");
	else
		rp_tout_printf(o, "# warpsim trace of kernel '%s' (%s): one line per issued warp instruction\n",
		                ti->k->name, ti->program ? ti->program : "-");
	if (ti->lo != 0 || ti->hi != UINT64_MAX) {
		if (ti->hi == UINT64_MAX)
			rp_tout_printf(o, "# window: cycles %" PRIu64 " and later\n", ti->lo);
		else
			rp_tout_printf(o, "# window: cycles %" PRIu64 " to %" PRIu64 "\n", ti->lo, ti->hi);
	}
	rp_tout_printf(o, "# columns are described in traces/README.md; ev: D diverged, R reconverged, "
	                "B waits at a barrier, b released it, E lanes exited, X warp done\n");
	rp_tout_printf(o, "#%9s %3s %6s %4s %6s %8s %8s %6s %-9s %-3s %s\n", "cycle", "sm", "cta",
	                "warp", "pc", "active", "exec", "stall", "reason", "ev", "instruction");
	return t;
}

static void txt_issue(void *st, const TraceIssue *ti)
{
	Txt *t = st;
	const ExecInfo *e = ti->e;
	char ev[8];
	int n = 0;

	if (ti->cycle < t->ti.lo || ti->cycle > t->ti.hi)
		return;
	if (e->diverged)
		ev[n++] = 'D';
	if (e->reconverged)
		ev[n++] = 'R';
	switch (e->event) {
	case EV_BAR_WAIT: ev[n++] = 'B'; break;
	case EV_BAR_RELEASE: ev[n++] = 'b'; break;
	case EV_EXIT: ev[n++] = 'E'; break;
	case EV_WARP_DONE: ev[n++] = 'X'; break;
	default: break;
	}
	if (!n)
		ev[n++] = '-';
	ev[n] = 0;
	rp_tout_printf(t->o, "%10" PRIu64 " %3d %6d %4d 0x%04x %08x %08x %6" PRIu32 " %-9s %-3s %s\n",
	                ti->cycle, e->sm, ti->ctaid, e->warp, e->pc, e->active, e->exec,
	                ti->stall_cycles, !ti->stall_cycles ? "-" : ti->stall_reason == STALL_NONE ? "ready" :
	                rp_stall_name(ti->stall_reason), ev,
	                rp_instext(&t->it, e->pc));
	t->lines++;
}

static void txt_event(void *st, const TraceEvent *ev)
{
	(void)st;
	(void)ev;
}

static void txt_end(void *st, uint64_t cycles)
{
	Txt *t = st;

	if (t->ended)
		return;
	t->ended = 1;
	rp_tout_printf(t->o, "# end: the run took %" PRIu64 " cycles%s; %" PRIu64
	                " instruction lines above\n", cycles, t->ti.nlaunches ? " (every launch)" : "",
	                t->lines);
}

/* "# launch I of N: kernel 'K' (grid X,Y,Z, block X,Y,Z; WHERE) from cycle C" */
static void txt_launch(void *st, const TraceInfo *ti, const TraceLaunch *l)
{
	Txt *t = st;
	char title[4608];

	if (t->ti.k != ti->k) {
		rp_instext_free(&t->it);
		rp_instext_init(&t->it, ti->k);
	}
	t->ti.k = ti->k;
	t->ti.prog = ti->prog;
	rp_launch_title(title, sizeof title, l->l, l->i, l->n);
	rp_tout_printf(t->o, "# %s from cycle %" PRIu64 "\n", title, l->from);
}

static void txt_finish(void *st)
{
	Txt *t = st;

	if (!t->ended)
		rp_tout_printf(t->o, "# the run did not complete; %" PRIu64 " instruction lines above\n",
		                t->lines);
	rp_instext_free(&t->it);
	free(t);
}

const TraceFmt rp_trace_txt = {txt_open, txt_issue, txt_event, txt_end, txt_finish, txt_launch};
