/* funcrun.c - the SM model without its timing model (--functional, issue 17): the same
 * decoded instructions, warps, CTA slots, dispatcher and CallReturnStack as the timed run
 * (sim_issue does all the work), but no scoreboard, pipelines, caches or clock. Each round
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

/* one round over every SM: the warp instructions issued, or -1 after a fault (g->rc) */
static int64_t round_all(Gpu *g)
{
	ExecInfo *x = &g->info;
	int64_t issued = 0;

	for (int i = 0; i < g->cfg.tc.sms; i++) {
		SM *s = &g->sm[i];
		if (!s->resident)
			continue;
		for (int j = 0; j < s->nwarps; j++) {
			Warp *w = s->warps[j];
			for (int q = 0; w && q < QUANTUM && w->state == W_READY; q++) {
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
				issued++;
			}
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
