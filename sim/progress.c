/* progress.c - the progress line of a long run (issue 17): after --progress-after seconds
 * (2 by default), and then twice a second, one line on stderr rewritten in place with the cycle (a scheduling round
 * under --functional), the warp instructions, the CTAs done of the grid and the rate; it is
 * cleared when the run ends or stops, before any message. The caller turns it on
 * (SimConfig.progress) only when stderr is a terminal and --quiet is off; the run loops call
 * sim_progress every 256th round, so the clock costs nothing measurable. */
#include <time.h>
#include <inttypes.h>
#include "sim/machine.h"

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void sim_progress(Gpu *g, int final)
{
	double t;
	char line[200];
	int n;

	if (!g->cfg.progress)
		return;
	if (final) {
		if (g->prog.width)
			fprintf(stderr, "\r%*s\r", g->prog.width, "");
		g->prog.width = 0;
		fflush(stderr);
		return;
	}
	t = seconds();
	if (g->prog.t0 == 0) {
		g->prog.t0 = t;
		g->prog.next = g->cfg.progress_after;
		return;
	}
	t -= g->prog.t0;
	if (t < g->prog.next)
		return;
	g->prog.next = t + 0.5;
	n = snprintf(line, sizeof line, "warpsim: %s %" PRIu64 ", %.1f M warp insts, CTAs %" PRIu64
	             " of %" PRIu64 ", %.2f M warp insts/s", g->cfg.functional ? "round" : "cycle",
	             g->cycle, (double)g->st.warp_insts * 1e-6, g->done_ctas, g->nctas,
	             (double)g->st.warp_insts * 1e-6 / t);
	if (n >= (int)sizeof line)
		n = (int)sizeof line - 1;
	fprintf(stderr, "\r%s%*s", line, g->prog.width > n ? g->prog.width - n : 0, "");
	fflush(stderr);
	if (n > g->prog.width)
		g->prog.width = n;
}
