/* opts.c - report/'s rows of the option table (opt/opt.h), over RpOpts: traces and line
 * statistics (--trace, --trace-window, --line-stats, --bounds), the page (--report) and sweeps (--sweep, --sweep-csv,
 * --sweep-svg, --sweep-ptxas, -j, --shard, --sweep-json, --merge; --sweep-point and
 * --sweep-program are what a sweep gives its child runs), and rp_opts_check, which holds
 * them against each other before any run. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report/report.h"

static int fn_window(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	RpOpts *o = field;
	uint64_t lo, hi;

	if (rp_trace_parse_window(val, &lo, &hi, why, n))
		return -1;
	if (!cx->check_only) {
		o->lo = lo;
		o->hi = hi;
		o->window = 1;
	}
	return 0;
}

static int fn_jobs(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	char *end;
	long j;

	errno = 0;
	j = strtol(val, &end, 10);
	if (!*val || *end || errno || j < 1 || j > 256) {
		snprintf(why, n, "a number of processes (1 to 256)");
		return -1;
	}
	if (!cx->check_only)
		*(int *)field = (int)j;
	return 0;
}

/* --shard I/N */
static int fn_shard(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	RpOpts *o = field;
	char *end;
	long i, k;

	errno = 0;
	i = strtol(val, &end, 10);
	k = *end == '/' && end[1] >= '0' && end[1] <= '9' ? strtol(end + 1, &end, 10) : 0;
	if (*end || errno || k < 1 || k > 100000 || i < 1 || i > k) {
		snprintf(why, n, "I/N, slice I of N counted from 1 (1 <= I <= N <= 100000)");
		return -1;
	}
	if (!cx->check_only) {
		o->shard = (int)i;
		o->nshards = (int)k;
	}
	return 0;
}

#define F(x) offsetof(RpOpts, x)
const OptRow rp_trace_rows[] = {
	{.name = "trace", .kind = OPT_STR, .metavar = "FILE", .off = F(trace),
	 .help = "a timing trace: .txt (.txt.gz) one line per issued instruction, .json Chrome "
	         "trace events (ui.perfetto.dev), .svg the warp timeline"},
	{.name = "trace-window", .kind = OPT_FN, .metavar = "A:B", .off = 0, .fn = fn_window,
	 .help = "trace cycles A to B only"},
	{.name = "trace-sms", .kind = OPT_STR, .metavar = "LIST", .off = F(trace_sms),
	 .help = "the SVG timeline draws only these SMs (0,2,4-7)"},
	{.name = "trace-warps", .kind = OPT_STR, .metavar = "LIST", .off = F(trace_warps),
	 .help = "the SVG timeline draws only these warp slots of each SM (0-3)"},
	{.name = "line-stats", .kind = OPT_STR, .metavar = "FILE", .off = F(linestats),
	 .help = "per CUDA, PTX and listing line statistics (.csv: CSV)"},
	{.name = "bounds", .kind = OPT_STR, .metavar = "FILE", .off = F(bounds),
	 .help = "the cycles beside three lower bounds: the longest dependent chain, the "
	         "occupancy, the issue slots (docs/timing.md, \"Bounds\")"},
};
const int rp_ntrace_rows = (int)(sizeof rp_trace_rows / sizeof rp_trace_rows[0]);

const OptRow rp_sweep_rows[] = {
	{.name = "sweep", .kind = OPT_STR, .metavar = "KEY=V1,V2,...", .off = F(sweep),
	 .help = "one run per value of an option; a comparison table"},
	{.name = "jobs", .shortc = 'j', .kind = OPT_FN, .metavar = "N", .off = F(jobs), .fn = fn_jobs,
	 .help = "sweep runs at once (default: the number of CPUs)"},
	{.name = "sweep-csv", .kind = OPT_STR, .metavar = "FILE", .off = F(sweep_csv),
	 .help = "the sweep table as CSV"},
	{.name = "sweep-svg", .kind = OPT_STR, .metavar = "FILE", .off = F(sweep_svg),
	 .help = "cycles and SIMD efficiency against the value"},
	{.name = "sweep-ptxas", .kind = OPT_STR, .metavar = "FILE", .off = F(sweep_ptxas),
	 .help = "one more point, 'ptxas': FILE, NVIDIA's listing of the same kernel "
	         "(tests/ptxas-ref), run with the same launch"},
	{.name = "shard", .kind = OPT_FN, .metavar = "I/N", .off = 0, .fn = fn_shard,
	 .help = "run slice I of N of the sweep: points I, I+N, I+2N ... (with --sweep-json; "
	         "docs/sharding.md)"},
	{.name = "sweep-json", .kind = OPT_STR, .metavar = "FILE", .off = F(sweep_json),
	 .help = "the sweep's points as JSON: statistics and the buffers' hashes (what --merge "
	         "reads)"},
	{.name = "merge", .kind = OPT_FLAG, .off = F(merge), .flags = OPT_CMDLINE,
	 .help = "the arguments are the --sweep-json files of one sweep's slices: print its table "
	         "(and --sweep-csv, --sweep-svg, --sweep-json) as one process would"},
	{.name = "explore", .kind = OPT_FLAG, .off = F(explore), .flags = OPT_CMDLINE,
	 .help = "run the program as compiled, then once per conditional branch with only its "
	         "decision flipped (--decide): per branch its executions, divergence, lanes and "
	         "what the flip changes (-j runs at once); the memory must not change"},
	{.name = "explore-exhaustive", .kind = OPT_INT, .metavar = "N", .off = F(explore_exhaustive),
	 .def = 12, .min = 0, .max = 16,
	 .help = "--explore's search runs every combination of up to N executed branches "
	         "(default 12), and coordinate descent beyond"},
	{.name = "explore-json", .kind = OPT_STR, .metavar = "FILE", .off = F(explore_json),
	 .help = "also write --explore's results as JSON"},
	{.name = "explore-merge", .kind = OPT_STR, .metavar = "FILE,...", .off = F(explore_merge),
	 .help = "--explore takes the variants' runs from the --sweep-json files of its slices "
	         "(--explore --shard I/N) instead of running them, then searches (docs/sharding.md)"},
	{.name = "report", .kind = OPT_STR, .metavar = "FILE.html", .off = F(report),
	 .flags = OPT_CMDLINE,
	 .help = "after the run, one self-contained HTML page: the PTX beside the listing shaded "
	         "by cycles and divergence, a card per branch (--explore's what-if, the cost "
	         "model), the warp timeline and a predicate-max sweep (docs/report.md)"},
	{.name = "report-budget", .kind = OPT_LONG, .metavar = "N", .off = F(report_budget),
	 .def = 200000000, .min = 0, .max = 1000000000000LL,
	 .help = "--report's runs (explore, search, sweep) may take N warp instructions in all "
	         "(default 200M); what would take more is skipped and the page says so"},
	{.name = "sweep-branches", .kind = OPT_FLAG, .off = F(sweep_branches),
	 .flags = OPT_CMDLINE | OPT_HIDDEN, .help = "the point also writes its branch counts"},
	{.name = "sweep-point", .kind = OPT_STR, .metavar = "DIR", .off = F(sweep_point),
	 .flags = OPT_CMDLINE | OPT_HIDDEN, .help = "this run is one point of a sweep"},
	{.name = "sweep-program", .kind = OPT_STR, .metavar = "FILE", .off = F(sweep_program),
	 .flags = OPT_CMDLINE | OPT_HIDDEN, .help = "that point runs FILE (ptxas's listing)"},
};
const int rp_nsweep_rows = (int)(sizeof rp_sweep_rows / sizeof rp_sweep_rows[0]);
#undef F

void rp_opts_free(RpOpts *o)
{
	opt_free_strs(rp_trace_rows, rp_ntrace_rows, o);
	opt_free_strs(rp_sweep_rows, rp_nsweep_rows, o);
	rp_sweep_free(&o->spec);
	for (int i = 0; i < o->nexplore_slices; i++)
		free(o->explore_slices[i]);
	free(o->explore_slices);
	o->explore_slices = NULL;
	o->nexplore_slices = 0;
}

/* --explore-merge A,B,...: its files into o->explore_slices */
static int split_files(RpOpts *o, FILE *err)
{
	char *s = o->explore_merge, *e;
	int n = 1;

	for (e = s; *e; e++)
		n += *e == ',';
	if (!(o->explore_slices = calloc((size_t)n, sizeof *o->explore_slices)))
		return -1;
	for (;;) {
		e = strchr(s, ',');
		if (e == s || !*s) {
			fprintf(err, "warpsim: --explore-merge: expected FILE,FILE,..., got '%s'\n",
			        o->explore_merge);
			return -1;
		}
		if (!(o->explore_slices[o->nexplore_slices++] = e ? strndup(s, (size_t)(e - s)) : strdup(s)))
			return -1;
		if (!e)
			return 0;
		s = e + 1;
	}
}

int rp_opts_check(RpOpts *o, FILE *err)
{
	char why[256];
	long j;

	if (!o->window)
		o->hi = UINT64_MAX;
	if (o->sweep_point) {            /* a point of a sweep runs once */
		free(o->sweep);
		free(o->sweep_json);
		o->sweep = o->sweep_json = NULL;
		o->nshards = 0;
	}
	if (o->merge) {
		if (o->sweep || o->jobs || o->sweep_ptxas || o->nshards || o->trace || o->linestats ||
		    o->bounds || o->report) {
			fprintf(err, "warpsim: --merge runs nothing: besides the slices' files it takes "
			        "--sweep-csv, --sweep-svg and --sweep-json only\n");
			return -1;
		}
		return 0;
	}
	if (o->trace && rp_trace_format(o->trace) < 0) {
		fprintf(err, "warpsim: --trace: '%s': the name must end in .txt, .txt.gz, .json or .svg\n",
		        o->trace);
		return -1;
	}
	if ((o->trace_sms || o->trace_warps) && !(o->trace && rp_trace_format(o->trace) == TF_SVG)) {
		fprintf(err, "warpsim: --trace-sms and --trace-warps select what the SVG timeline draws: "
		        "they need --trace FILE.svg\n");
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		const char *val = i ? o->trace_warps : o->trace_sms;
		if (val && rp_trace_parse_set(val, i ? o->sel_warps : o->sel_sms,
		                              i ? TM_MAXWARPS : TM_MAXSMS, why, sizeof why)) {
			fprintf(err, "warpsim: --trace-%s: expected %s, got '%s'\n", i ? "warps" : "sms", why, val);
			return -1;
		}
	}
	if (o->report && (o->explore || o->sweep || o->merge || o->sweep_point)) {
		fprintf(err, "warpsim: --report runs its own exploration and sweep: it takes no "
		        "--explore, --sweep or --merge\n");
		return -1;
	}
	if (o->report && !opt_endswith(o->report, ".html")) {
		fprintf(err, "warpsim: --report: '%s': the name must end in .html\n", o->report);
		return -1;
	}
	if (o->explore_json && !o->explore) {
		fprintf(err, "warpsim: --explore-json needs --explore\n");
		return -1;
	}
	if (o->explore_merge && !o->explore) {
		fprintf(err, "warpsim: --explore-merge needs --explore\n");
		return -1;
	}
	if (o->explore && o->bounds) {
		fprintf(err, "warpsim: --bounds observes one run: it cannot be given with --explore\n");
		return -1;
	}
	if (o->explore && (o->sweep || o->sweep_csv || o->sweep_svg || o->sweep_ptxas || o->trace ||
	                   o->linestats)) {
		fprintf(err, "warpsim: --explore runs its own variants: besides -j, --explore-json and "
		        "its slices' options it takes no sweep, trace or line-statistics option\n");
		return -1;
	}
	if (o->explore && (o->nshards || o->sweep_json) &&
	    (!o->nshards || !o->sweep_json || o->explore_json || o->explore_merge)) {
		fprintf(err, "warpsim: --explore --shard I/N runs slice I of the variants and writes "
		        "them with --sweep-json FILE (nothing else); --explore-merge of the slices' files "
		        "gives the table\n");
		return -1;
	}
	if (o->explore_merge && split_files(o, err))
		return -1;
	if (o->window && !o->trace) {
		fprintf(err, "warpsim: --trace-window needs --trace FILE\n");
		return -1;
	}
	if ((o->sweep_csv || o->sweep_svg || (o->jobs && !o->explore && !o->report) || o->sweep_ptxas) && !o->sweep &&
	    !o->sweep_point) {
		fprintf(err, "warpsim: --sweep-csv, --sweep-svg, --sweep-ptxas and -j need --sweep KEY=V1,V2,... (-j: or --explore, --report)\n");
		return -1;
	}
	if ((o->nshards || o->sweep_json) && !o->sweep && !o->explore) {
		fprintf(err, "warpsim: --shard and --sweep-json need --sweep KEY=V1,V2,...\n");
		return -1;
	}
	if (o->nshards && (!o->sweep_json || o->sweep_csv || o->sweep_svg)) {
		fprintf(err, "warpsim: --shard writes its points with --sweep-json FILE; the whole "
		        "sweep's CSV and plot come from --merge of the slices' files\n");
		return -1;
	}
	if (!o->sweep)
		return 0;
	if (o->bounds) {
		fprintf(err, "warpsim: --bounds observes one run: it cannot be given with --sweep\n");
		return -1;
	}
	if (rp_sweep_parse(o->sweep, &o->spec, why, sizeof why)) {
		fprintf(err, "warpsim: --sweep: expected %s, got '%s'\n", why, o->sweep);
		return -1;
	}
	j = o->jobs ? o->jobs : sysconf(_SC_NPROCESSORS_ONLN);
	o->spec.jobs = j < 1 ? 1 : (int)j;
	o->spec.shard = o->shard;
	o->spec.nshards = o->nshards;
	if (o->sweep_ptxas && rp_sweep_add_ptxas(&o->spec, o->sweep_ptxas))
		return -1;
	if ((o->sweep_csv && !(o->spec.csv = strdup(o->sweep_csv))) ||
	    (o->sweep_svg && !(o->spec.svg = strdup(o->sweep_svg))))
		return -1;
	if (o->trace || o->linestats) {
		fprintf(err, "warpsim: --sweep runs many simulations: --trace and --line-stats apply "
		        "to a single run\n");
		return -1;
	}
	return 0;
}
