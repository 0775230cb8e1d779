/* report.c - warpsim --report FILE.html (issue 18 part 5): after the run that warpsim made in
 * process (its line statistics and warp timeline gathered on the way), the runs the page needs
 * besides it, each as child processes of this program: --explore's what-ifs and search
 * (cli/explore.c, report/explore*.c) and a --predicate-max sweep (report/sweep.c) for the
 * chart; then report/html.c writes the page. What would take more warp instructions than
 * --report-budget is not run, and the page says so and what it would have taken. The command
 * line shown in the page is argv as given.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

/* the sweep the page charts: 0, 2 .. 32 and inf, where the usual hammocks change their
 * decision (the Guide says 7, fermi.cfg; ptxas 11.8 for sm_35 8, kepler.cfg) */
#define REPORT_SWEEP "predicate-max=0,2,3,4,7,8,12,16,24,32,inf"

typedef struct {
	uint64_t w;             /* warp instructions of one run (the run made in process) */
	long long left;         /* budget left */
} Budget;

/* n runs fit in the budget: take them; else a note in buf saying what they would take */
static int afford(Budget *b, uint64_t n, const char *what, char *buf, size_t sz)
{
	double need = (double)n * (double)b->w;

	if (need <= (double)b->left) {
		b->left -= (long long)need;
		return 1;
	}
	snprintf(buf, sz, "%s did not run: %" PRIu64 " runs of about %" PRIu64 " warp instructions "
	         "each (%.3g in all) would exceed what --report-budget leaves (%lld). Raise "
	         "--report-budget, or run warpsim --explore or --sweep apart.", what, n, b->w, need,
	         b->left < 0 ? 0 : b->left);
	return 0;
}

/* the search's runs: every combination of the searched branches up to x->exhaustive_max,
 * else a few passes of coordinate descent (a guess), and the rules */
static uint64_t search_runs(const Explore *x)
{
	int nf = 0;

	for (int i = 0; i < x->nb; i++)
		nf += x->b[i].flip[0] && x->b[i].measured && x->b[i].execs;
	return (nf <= x->exhaustive_max ? (uint64_t)1 << nf : 4 * (uint64_t)nf * (uint64_t)nf) + RP_HEURS;
}

/* the text of file path, or NULL */
static char *slurp(const char *path)
{
	return opt_read_file(path, NULL);
}

/* the sweep and its chart into *sp, *pts and *svg; a note in note when it does not run */
static void sweep(const Explore *x, Budget *b, SweepSpec *sp, SweepPoint **pts, char **svg,
                  const char *dir, char *note, size_t nn)
{
	char why[256], path[4200];
	int runs;

	if (rp_sweep_parse(REPORT_SWEEP, sp, why, sizeof why) || !(*pts = calloc((size_t)sp->nvals, sizeof **pts))) {
		snprintf(note, nn, "The sweep did not run: out of memory.");
		return;
	}
	sp->jobs = x->jobs;
	runs = sp->nvals;
	if (!afford(b, (uint64_t)runs, "The sweep of --predicate-max", note, nn)) {
		free(*pts);
		*pts = NULL;
		return;
	}
	if (rp_sweep_run(x->self, x->args, x->nargs, sp, *pts, x->err) == 1)
		snprintf(note, nn, "A point of the sweep failed (the run's messages say why).");
	snprintf(path, sizeof path, "%s/sweep.svg", dir);
	if (!rp_sweep_svg(path, sp, *pts, x->err))
		*svg = slurp(path);
	remove(path);
}

/* argv as one line */
static char *command(int argc, char **argv)
{
	size_t n = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) + 1;
	if (!(s = malloc(n)))
		return NULL;
	s[0] = 0;
	for (int i = 0; i < argc; i++) {
		const char *b = i ? argv[i] : strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
		strcat(s, i ? " " : "");
		strcat(s, b);
	}
	return s;
}

int cli_report(const WsOpts *o, int argc, char **argv, const char *self, const CliRun *run,
               FILE *err)
{
	Explore x = {0};
	Budget b = {run->ts->warp_insts ? run->ts->warp_insts : 1, o->rp.report_budget};
	char xnote[600] = "", snote[600] = "", msg[512], *timeline = NULL, *ssvg = NULL;
	char *cmd = command(argc, argv);
	SweepSpec sp = {0};
	SweepPoint *spts = NULL;
	int rc = 0, have = 0;

	if (cli_explore_init(o, argc, argv, self, &x, err))
		snprintf(xnote, sizeof xnote, "The branches could not be listed (the messages of the run "
		         "say why).");
	else {
		uint64_t flips = 1;
		have = 1;
		for (int i = 0; i < x.nb; i++)
			flips += x.b[i].flip[0] != 0;
		if (afford(&b, flips, "The what-if runs (the program as compiled and each branch flipped)",
		           xnote, sizeof xnote)) {
			if (rp_explore_run(&x) != 1 &&
			    afford(&b, search_runs(&x), "The search for the best decisions and the rules' regret",
			           xnote, sizeof xnote))
				rp_explore_search(&x);
		}
		sweep(&x, &b, &sp, &spts, &ssvg, run->tmpdir, snote, sizeof snote);
	}
	if (run->timeline)
		timeline = slurp(run->timeline);
	{
		RpPage pg = {o->input, cmd ? cmd : "warpsim", run->p, run->k, run->ls, run->ts,
		             have ? &x : NULL, xnote[0] ? xnote : NULL, timeline, sp.key ? &sp : NULL, spts,
		             ssvg, snote[0] ? snote : NULL, run->launches, run->nlaunches, run->kerns,
		             run->nkerns};
		if (rp_html_write(o->rp.report, &pg, msg, sizeof msg)) {
			fprintf(err, "warpsim: %s\n", msg);
			rc = 1;
		}
	}
	if (!rc)
		fprintf(err, "warpsim: --report: wrote %s (%d branch card%s)\n", o->rp.report,
		        have ? x.nb : 0, have && x.nb == 1 ? "" : "s");
	if (spts)
		rp_sweep_points_free(spts, sp.nvals);
	rp_sweep_free(&sp);
	if (have) {
		free((void *)x.args);
		cli_explore_done(&x);
		rp_explore_free(&x);
	}
	free(timeline);
	free(ssvg);
	free(cmd);
	return rc;
}
