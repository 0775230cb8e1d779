/* funcrun.c - the SM model without its timing model (--functional, issue 17): the same
 * decoded instructions, warps, CTA slots, dispatcher and CallReturnStack as the timed run
 * (sim_issue and the control short path, exec.c's flow(), do the work), but no scoreboard,
 * pipelines, caches or clock. Each round
 * visits the SMs in order and each SM's warp slots in order, and runs a ready warp for up
 * to QUANTUM instructions or until it waits at a barrier or ends; CTAs are dispatched at the
 * start of a round. Race-free kernels leave the same memory as the timed run (the
 * differential tests check it against the oracle); kernels whose warps race on memory see
 * this fixed order instead of the timed one. The statistics are the functional ones (warp
 * and thread instructions, predication, divergence, reconvergence, CallReturnStack depth,
 * CTAs); "cycles" counts rounds, and the memory and stall counters stay zero. Traces and
 * line statistics need the timing model and are refused. */
#include <inttypes.h>
#include "sim/machine.h"

enum { QUANTUM = 64 };     /* instructions a warp runs before the next warp's turn */

/* sim_issue's issue with the functional statistics this run keeps (the timing model's
 * come from its own loop) */
static int issue(Gpu *g, SM *s, Warp *w, ExecInfo *x)
{
	g->cur = w->pc;
	if ((g->rc = sim_issue(g, s, w, x)) != SIM_OK)
		return -1;
	if (x->diverged | x->reconverged | x->spills | x->fills) {
		g->ts.div[x->diverged]++;      /* (div[DIV_NONE] is not counted) */
		g->ts.reconv += x->reconverged;
		g->ts.crs_spills += x->spills;
		g->ts.crs_fills += x->fills;
	}
	if ((uint64_t)w->ncrs > g->ts.crs_hwm)
		g->ts.crs_hwm = (uint64_t)w->ncrs;
	return 0;
}

/* sim_issue's statistics of n lean instructions run with the active lanes act, off of
 * whose lanes their guards turned off */
static void count(Gpu *g, uint32_t act, int n, uint32_t off)
{
	sim_lean_stats(&g->st, (uint64_t)n, (uint64_t)n * (uint64_t)sim_popc(act), off);
}

/* a turn's lean run since the last instruction its loop did not run itself: what one()
 * counts of it (in memory, not in registers: the loop touches it only at such an instruction
 * and for a lane a guard turned off, so a handler's call need not save it) */
typedef struct {
	uint32_t off;       /* active lanes its guards turned off */
	int mark;           /* the turn's instructions before it */
} Run;

/* one instruction of w that its turn's loop does not run, d at its pc (NULL: past the end),
 * the q-th of the turn, after the lean run r before it (of the active lanes act) is counted:
 * through the control short path (exec.c's sim_fflow) or sim_issue; 0, or -1 after a fault
 * (g->rc) */
static __attribute__((noinline)) int one(Gpu *g, SM *s, Warp *w, const DIns *d, uint32_t act,
                                         int q, Run *r)
{
	int f;

	if (q > r->mark)
		count(g, act, q - r->mark, r->off);
	r->off = 0;
	r->mark = q + 1;
	if (d && d->flow && (f = sim_fflow(g, w, d)) >= 0)
		return -f;
	return issue(g, s, w, &g->info);
}

/* w's turn: up to QUANTUM instructions while it stays ready; the instructions issued, or -1
 * after a fault (g->rc). The lean ones (DIns.lean: a handler, a branch that does not
 * split the warp, a .S or EXIT that no lane runs) run here: they cannot fault and change
 * neither the active lanes nor the warp's state, so sim_issue's statistics for a run of
 * them follow from its length and the lanes its guards turned off; only the other
 * instructions go through one(). The loop walks the decoded instructions themselves (d, the
 * one at the warp's pc, which it writes back only before one() and at the turn's end: no
 * handler reads it); code[ncode] (end), all zero, is not lean. */
static int run_warp(Gpu *g, SM *s, Warp *w)
{
	const DIns *code = g->code, *d;
	uint32_t act = w->active;
	int q = 0;
	Run r = {0, 0};

	d = code + (w->pc < (uint32_t)g->ncode ? w->pc : (uint32_t)g->ncode);
	for (;;) {
		const DIns *end;
		uint32_t gm, ex;

		if (d->lean == LEAN_FN) {
			gm = w->p[d->guard] ^ d->gxor;
			ex = act & gm;
			if (ex != act)
				r.off += (uint32_t)sim_popc(act & ~gm);
			d->fn(w, d, ex);
			d++;
			if (++q < QUANTUM)
				continue;
			break;
		}
		if (!d->lean)
			goto slow;
		gm = w->p[d->guard] ^ d->gxor;
		ex = act & gm;
		if (ex && (ex != act || d->lean == LEAN_QUIET))
			goto slow;                  /* the branch splits the warp, the .S or EXIT runs */
		if (ex != act)
			r.off += (uint32_t)sim_popc(act & ~gm);
		/* LEAN_BRA: taken by every active lane or none; LEAN_QUIET: run by none */
		d = ex ? code + d->target : d + 1;
		if (++q < QUANTUM)
			continue;
		break;
	slow:
		end = code + g->ncode;      /* (not kept across the handlers' calls) */
		if (d != end || w->pc < (uint32_t)g->ncode)   /* (a pc past the end stays) */
			w->pc = (uint32_t)(d - code);
		if (one(g, s, w, d != end ? d : NULL, act, q, &r) < 0)
			return -1;
		if (++q == QUANTUM || w->state != W_READY)
			return q;
		act = w->active;
		d = code + (w->pc < (uint32_t)g->ncode ? w->pc : (uint32_t)g->ncode);
	}
	w->pc = (uint32_t)(d - code);
	count(g, act, q - r.mark, r.off);
	return q;
}

/* the same through sim_issue alone, for a trace callback (sim_gpu_trace) */
static int run_warp_traced(Gpu *g, SM *s, Warp *w)
{
	int q = 0;

	while (q < QUANTUM && w->state == W_READY) {
		if (issue(g, s, w, &g->info) < 0)
			return -1;
		q++;
	}
	return q;
}

/* one round over every SM: the warp instructions issued, or -1 after a fault (g->rc) */
static int64_t round_all(Gpu *g)
{
	int64_t issued = 0;

	for (int i = 0; i < g->cfg.tc.sms; i++) {
		SM *s = &g->sm[i];
		if (!s->resident)
			continue;
		for (int j = 0; j < s->nwarps; j++) {
			Warp *w = s->warps[j];
			int n;
			if (!w || w->state != W_READY)
				continue;
			if ((n = (g->trace ? run_warp_traced : run_warp)(g, s, w)) < 0)
				return -1;
			issued += n;
		}
	}
	return issued;
}

int sim_run_functional(Gpu *g, uint64_t max_rounds)
{
	if (g->hassink) {
		snprintf(g->err, sizeof g->err, "warpsim: --functional runs without the timing model: "
		         "a trace sink needs it\n");
		return SIM_FAULT;
	}
	for (;;) {
		int64_t n;

		if (g->need_dispatch && sim_dispatch(g))
			return SIM_FAULT;
		if (g->done_ctas == g->nctas)
			break;
		if (g->cfg.progress && !(++g->prog.tick & 255))
			sim_progress(g, 0);
		if ((n = round_all(g)) < 0)
			return g->rc;
		g->cycle++;
		if (n == 0 && !(g->need_dispatch && g->next_cta < g->nctas))
			return sim_stuck(g);
		if (max_rounds && g->cycle >= max_rounds && g->done_ctas < g->nctas)
			return sim_stop(g, SIM_RUNAWAY, "warpsim: error: kernel '%s' did not finish within "
			                "--max-cycles %" PRIu64 " rounds of --functional (%" PRIu64 " warp "
			                "instructions); running warps:\n", g->k->name, max_rounds,
			                g->st.warp_insts);
		if (g->cfg.max_warp_insts && g->st.warp_insts >= g->cfg.max_warp_insts &&
		    g->done_ctas < g->nctas)
			return sim_stop(g, SIM_RUNAWAY, "warpsim: error: kernel '%s' did not finish within "
			                "--max-warp-insts %" PRIu64 " (round %" PRIu64 "); running warps:\n",
			                g->k->name, g->cfg.max_warp_insts, g->cycle);
	}
	g->st.cycles = g->ts.cycles = g->cycle;
	g->ts.warp_insts = g->st.warp_insts;
	g->ts.thread_insts = g->st.thread_insts;
	g->ts.pred_off = g->st.pred_off;
	g->ts.div_branches = g->st.div_branches;
	g->ts.div[DIV_NONE] = 0;
	g->ts.ctas = g->st.ctas;
	g->ts.functional = 1;
	return SIM_DONE;
}
