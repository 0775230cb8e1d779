/* warpsim.c - main() of the simulator: argument parsing and wiring only.
 *
 *   warpsim [OPTION]... PROGRAM     run a kernel of PROGRAM (.sass listing, or .ptx translated
 *                                   in process by the backend) on the SM model
 *
 * Options come from one table (sim/opts.c, plus timing.h's architecture table); --launch and
 * --config files hold the same options one per line. Exit status: 0 done, 1 a run-time error
 * or a bad program, 2 bad options. docs/warpsim.md is the user guide.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "sim/sim.h"
#include "frontend/ptx.h"
#include "oracle/oracle.h"
#include "backend/backend.h"
#include "report/report.h"
#include <unistd.h>

#ifndef WARPSIM_VERSION
#define WARPSIM_VERSION "0.0.0"
#endif

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		fprintf(stderr, "warpsim: cannot read '%s': %s\n", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t r;
		if (cap - n < 65536) {
			char *nb = realloc(buf, (cap = cap ? 2 * cap : 65536) + 1);
			if (!nb) {
				free(buf);
				fclose(f);
				fprintf(stderr, "warpsim: out of memory reading '%s'\n", path);
				return NULL;
			}
			buf = nb;
		}
		if ((r = fread(buf + n, 1, cap - n, f)) == 0)
			break;
		n += r;
	}
	if (ferror(f)) {
		fprintf(stderr, "warpsim: error reading '%s'\n", path);
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

static int endswith(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

/* the program: a listing parsed by isa_asm, or PTX parsed, checked and translated in process
 * with the translator options of o (--predicate-max, --predicate-max-uniform, --max-regs) */
static Prog *load(const char *path, const SimOpts *o)
{
	char *text;
	size_t len;
	Prog *p;

	if (!(text = read_file(path, &len)))
		return NULL;
	if (endswith(path, ".ptx")) {
		BeOptions bo;
		Module *m = ptx_parse(path, text, len, stderr, NULL);
		free(text);
		if (!m)
			return NULL;
		be_options_default(&bo);
		bo.predicate_max = o->predicate_max;
		bo.predicate_max_uniform = o->predicate_max_uniform;
		bo.max_regs = o->tc.max_regs;
		bo.arch = o->tc.arch;
		bo.kernel = o->launch.kernel;
		p = be_translate(m, &bo, stderr);
		ptx_free(m);
		return p;
	}
	p = isa_asm(path, text, len, stderr);
	free(text);
	return p;
}

static const Kernel *pick_kernel(const Prog *p, const char *name, const char *path)
{
	const Kernel *k;

	if (name) {
		if ((k = isa_prog_find(p, name)))
			return k;
		fprintf(stderr, "warpsim: --kernel: no kernel '%s' in %s; it has:", name, path);
	} else if (p->nk == 1) {
		return &p->k[0];
	} else if (p->nk == 0) {
		fprintf(stderr, "warpsim: %s holds no kernel\n", path);
		return NULL;
	} else
		fprintf(stderr, "warpsim: %s holds %d kernels; choose one with --kernel:", path, p->nk);
	for (int i = 0; i < p->nk; i++)
		fprintf(stderr, " %s", p->k[i].name);
	fprintf(stderr, "\n");
	return NULL;
}

/* ---- --oracle (owned by the oracle module): parse the PTX and run the reference
 * interpreter with the same launch options; 0 done, 1 a bad program or a run-time error */
static int run_oracle(const SimOpts *o)
{
	char *text;
	size_t len;
	Module *m;
	int rc;

	if (!endswith(o->input, ".ptx")) {
		fprintf(stderr, "warpsim: --oracle: %s: the oracle interprets PTX (.ptx), not listings\n",
		        o->input);
		return 2;
	}
	if (!(text = read_file(o->input, &len)))
		return 1;
	m = ptx_parse(o->input, text, len, stderr, NULL);
	free(text);
	if (!m)
		return 1;
	rc = or_main(m, o, stderr);
	ptx_free(m);
	return rc;
}
/* ---- end of --oracle */

/* --stats-json FILE: the timing statistics as one JSON object; 0, or -1 after a message */
static int write_stats_json(const char *path, const Gpu *g)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "warpsim: --stats-json: cannot write '%s': %s\n", path, strerror(errno));
		return -1;
	}
	rp_tstats_json(f, sim_gpu_tstats(g));
	if (fclose(f)) {
		fprintf(stderr, "warpsim: --stats-json: error writing '%s'\n", path);
		return -1;
	}
	return 0;
}

/* ---- --trace, --trace-window, --line-stats, --sweep (owned by the trace module; report/report.h,
 * docs/traces.md). These options live on the command line only: observe_args takes them out
 * of argv before the option table sees the rest. */
typedef struct {
	char *trace;            /* --trace FILE */
	uint64_t lo, hi;        /* --trace-window A:B */
	char *linestats;        /* --line-stats FILE */
	SweepSpec sweep;        /* --sweep KEY=V1,...; --sweep-csv, --sweep-svg, -j */
	char *point;            /* --sweep-point DIR: this run is one point of a sweep */
	char *program;          /* --sweep-program FILE: that point runs FILE (ptxas's listing) */
	TraceWriter *tw;        /* the open trace */
	LineStats *ls;          /* the line statistics */
	SinkTee tee;            /* both fed from one sink */
} Observe;

/* removes the options above from argv; 0, or -1 after a message */
static int observe_args(int *argc, char **argv, Observe *ob)
{
	static const char *names[] = {"trace", "trace-window", "line-stats", "sweep", "sweep-csv",
	                              "sweep-svg", "j", "sweep-point", "sweep-ptxas", "sweep-program"};
	char why[256], *sweep = NULL, *csv = NULL, *svg = NULL, *jobs = NULL, *win = NULL;
	char *ptxas = NULL;
	char **dst[] = {&ob->trace, &win, &ob->linestats, &sweep, &csv, &svg, &jobs, &ob->point,
	                &ptxas, &ob->program};
	int n = 1;

	memset(ob, 0, sizeof *ob);
	ob->hi = UINT64_MAX;
	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i], *eq;
		size_t k = 0, len;
		if (a[0] != '-' || !a[1]) {
			argv[n++] = argv[i];
			continue;
		}
		a += a[1] == '-' ? 2 : 1;
		len = (eq = strchr(a, '=')) ? (size_t)(eq - a) : strlen(a);
		if (!strcmp(argv[i], "-j") || !strncmp(argv[i], "-j", 2))
			k = 6, len = 1, eq = argv[i][2] ? argv[i] + 1 : NULL;   /* -j N, -jN */
		else
			for (k = 0; k < sizeof names / sizeof names[0]; k++)
				if (strlen(names[k]) == len && !strncmp(a, names[k], len) && k != 6)
					break;
		if (k == sizeof names / sizeof names[0]) {
			argv[n++] = argv[i];
			continue;
		}
		if (!eq && i + 1 >= *argc) {
			fprintf(stderr, "warpsim: --%s: expected a value\n", names[k]);
			return -1;
		}
		*dst[k] = eq ? (char *)eq + 1 : argv[++i];
	}
	argv[*argc = n] = NULL;
	if (win && rp_trace_parse_window(win, &ob->lo, &ob->hi, why, sizeof why)) {
		fprintf(stderr, "warpsim: --trace-window: expected %s, got '%s'\n", why, win);
		return -1;
	}
	if (ob->trace && rp_trace_format(ob->trace) < 0) {
		fprintf(stderr, "warpsim: --trace: '%s': the name must end in .txt, .txt.gz, .json or .svg\n",
		        ob->trace);
		return -1;
	}
	if (win && !ob->trace) {
		fprintf(stderr, "warpsim: --trace-window needs --trace FILE\n");
		return -1;
	}
	if ((csv || svg || jobs || ptxas) && !sweep) {
		fprintf(stderr, "warpsim: --sweep-csv, --sweep-svg, --sweep-ptxas and -j need --sweep KEY=V1,V2,...\n");
		return -1;
	}
	if (sweep) {
		char *end;
		long j;
		if (rp_sweep_parse(sweep, &ob->sweep, why, sizeof why)) {
			fprintf(stderr, "warpsim: --sweep: expected %s, got '%s'\n", why, sweep);
			return -1;
		}
		j = sysconf(_SC_NPROCESSORS_ONLN);
		if (jobs) {
			errno = 0;
			j = strtol(jobs, &end, 10);
			if (*end || errno || j < 1 || j > 256) {
				fprintf(stderr, "warpsim: -j: expected a number of processes (1 to 256), got '%s'\n", jobs);
				return -1;
			}
		}
		ob->sweep.jobs = j < 1 ? 1 : (int)j;
		if (ptxas && rp_sweep_add_ptxas(&ob->sweep, ptxas))
			return -1;
		if ((csv && !(ob->sweep.csv = strdup(csv))) || (svg && !(ob->sweep.svg = strdup(svg))))
			return -1;
		if (ob->trace || ob->linestats) {
			fprintf(stderr, "warpsim: --sweep runs many simulations: --trace and --line-stats apply "
			        "to a single run\n");
			return -1;
		}
	}
	return 0;
}

static void observe_help(FILE *f)
{
	fprintf(f, "\nTraces, line statistics and sweeps (docs/traces.md, formats in traces/README.md):\n"
	        "  --trace FILE             .txt (.txt.gz) one line per issued instruction, .json Chrome\n"
	        "                           trace events (ui.perfetto.dev), .svg warp timeline\n"
	        "  --trace-window A:B       trace cycles A to B only\n"
	        "  --line-stats FILE        per CUDA, PTX and listing line statistics (.csv: CSV)\n"
	        "  --sweep KEY=V1,V2,...    one run per value of an option; a comparison table\n"
	        "  -j N                     sweep runs at once (default: the number of CPUs)\n"
	        "  --sweep-csv FILE         the sweep table as CSV\n"
	        "  --sweep-svg FILE         cycles and SIMD efficiency against the value\n"
	        "  --sweep-ptxas FILE       one more point, 'ptxas': FILE, NVIDIA's listing of the same\n"
	        "                           kernel (tests/ptxas-ref), run with the same launch\n");
}

/* --sweep: every point is this program again with the same arguments plus --KEY V */
static int observe_sweep(Observe *ob, int argc, char **argv, const char *input, int nouts)
{
	SweepPoint *pts = calloc((size_t)ob->sweep.nvals, sizeof *pts);
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	int rc;

	if (!pts)
		return 1;
	if (n > 0)
		self[n] = 0;
	else
		snprintf(self, sizeof self, "%s", argv[0]);
	fprintf(stdout, "warpsim: sweep of --%s over %s: %d runs, %d at a time\n", ob->sweep.key, input,
	        ob->sweep.nvals, ob->sweep.jobs < ob->sweep.nvals ? ob->sweep.jobs : ob->sweep.nvals);
	if (nouts == 0)
		fprintf(stderr, "warpsim: --sweep: no --out buffer: the points' results are not compared; "
		        "add --out N:PATH for the buffers the kernel writes\n");
	rc = rp_sweep_run(self, argv + 1, argc - 1, &ob->sweep, pts, stderr);
	rp_sweep_table(stdout, &ob->sweep, pts);
	if (ob->sweep.csv && rp_sweep_csv(ob->sweep.csv, &ob->sweep, pts, stderr))
		rc = rc ? rc : 1;
	if (ob->sweep.svg && rp_sweep_svg(ob->sweep.svg, &ob->sweep, pts, stderr))
		rc = rc ? rc : 1;
	free(pts);
	return rc;
}

/* before the run: open the trace and the line statistics, attach them; a sweep point's
 * statistics and --out buffers go to its directory. 0, or -1 after a message */
static int observe_start(Observe *ob, Gpu *g, const Prog *p, const Kernel *k, SimOpts *o)
{
	char err[512];
	TraceSink s;

	if (ob->point) {
		char path[4096];
		snprintf(path, sizeof path, "%s/stats.json", ob->point);
		free(o->stats_json);
		if (!(o->stats_json = strdup(path)))
			return -1;
		for (int i = 0; i < o->launch.nouts; i++) {
			char *old = o->launch.outs[i].path, *b = strrchr(old, '/');
			snprintf(path, sizeof path, "%s/out%d-%s", ob->point, i, b ? b + 1 : old);
			if (!(o->launch.outs[i].path = strdup(path))) {
				o->launch.outs[i].path = old;
				return -1;
			}
			free(old);
		}
	}
	rp_tee_init(&ob->tee);
	if (ob->trace) {
		TraceInfo ti = {k, o->input, (int)((o->launch.block[0] * o->launch.block[1] *
		                o->launch.block[2] + 31) / 32), ob->lo, ob->hi};
		if (!(ob->tw = rp_trace_open(ob->trace, &ti, err, sizeof err))) {
			fprintf(stderr, "warpsim: %s\n", err);
			return -1;
		}
		rp_trace_sink(ob->tw, &s);
		rp_tee_add(&ob->tee, &s);
	}
	if (ob->linestats) {
		if (!(ob->ls = rp_linestats_new(k, p))) {
			fprintf(stderr, "warpsim: out of memory\n");
			return -1;
		}
		rp_linestats_sink(ob->ls, &s);
		rp_tee_add(&ob->tee, &s);
	}
	if (ob->tee.n == 1)
		sim_gpu_set_sink(g, &ob->tee.to[0]);
	else if (ob->tee.n) {
		rp_tee_sink(&ob->tee, &s);
		sim_gpu_set_sink(g, &s);
	}
	return 0;
}

/* after the run (done: it completed): write and close; 0, or -1 after a message. With input
 * NULL (no run happened) nothing is written but the trace file's frame. */
static int observe_finish(Observe *ob, const char *input, int done)
{
	char err[512];
	int rc = 0;

	if (!input) {
		rp_linestats_free(ob->ls);
		ob->ls = NULL;
	}
	if (ob->tw && rp_trace_close(ob->tw, err, sizeof err)) {
		fprintf(stderr, "warpsim: %s\n", err);
		rc = -1;
	} else if (ob->tw && !done && input)
		fprintf(stderr, "warpsim: --trace: %s holds the run up to the error\n", ob->trace);
	ob->tw = NULL;
	if (ob->ls && rp_linestats_write(ob->ls, ob->linestats, input, err, sizeof err)) {
		fprintf(stderr, "warpsim: %s\n", err);
		rc = -1;
	}
	rp_linestats_free(ob->ls);
	ob->ls = NULL;
	rp_sweep_free(&ob->sweep);
	return rc;
}
/* ---- end of --trace, --line-stats, --sweep */

int main(int argc, char **argv)
{
	SimOpts o;
	SimConfig cfg;
	Prog *p = NULL;
	const Kernel *k;
	Mem mem;
	Placed pl = {0};
	Gpu *g = NULL;
	char msg[512];
	int rc = 2, ran = 0;
	Observe ob;             /* --trace, --line-stats, --sweep */

	sim_opts_init(&o);
	dev_mem_init(&mem);
	if (observe_args(&argc, argv, &ob) || sim_opts_argv(&o, argc, argv, stderr))
		goto out;
	if (o.help) {
		sim_opts_help(stdout);
		observe_help(stdout);
		rc = 0;
		goto out;
	}
	if (o.version) {
		printf("warpsim (warpsim) %s\n", WARPSIM_VERSION);
		rc = 0;
		goto out;
	}
	if (!o.input && !o.print_config) {
		fprintf(stderr, "warpsim: no program given (see --help)\n");
		goto out;
	}
	if (sim_tconfig_check(&o.tc, msg, sizeof msg)) {
		fprintf(stderr, "warpsim: %s\n", msg);
		goto out;
	}
	if (o.print_config) {           /* the effective architecture, a valid config file */
		sim_tconfig_print(stdout, &o.tc);
		rc = 0;
		goto out;
	}
	if (o.oracle) {
		rc = run_oracle(&o);
		goto out;
	}
	if (ob.sweep.key) {
		rc = observe_sweep(&ob, argc, argv, o.input, o.launch.nouts);
		goto out;
	}
	rc = 1;
	if (ob.program && ob.point) {       /* the sweep's ptxas point */
		free(o.input);
		if (!(o.input = strdup(ob.program)))
			goto out;
	}
	if (!(p = load(o.input, &o)) || !(k = pick_kernel(p, o.launch.kernel, o.input)))
		goto out;
	rc = 2;
	if (dev_launch_place(&mem, k, &o.launch, &pl, stderr))
		goto out;
	rc = 1;
	sim_config_from_opts(&cfg, &o);
	if (!(g = sim_gpu_new(k, &mem, &o.launch, &cfg, o.input, stderr)) ||
	    observe_start(&ob, g, p, k, &o))
		goto out;
	ran = sim_run(g, 0) == SIM_DONE;
	if (observe_finish(&ob, o.input, ran) || !ran) {
		if (!ran)
			fputs(sim_gpu_error(g), stderr);
		goto out;
	}
	if (dev_launch_write_outputs(&mem, &o.launch, &pl, stderr))
		goto out;
	if (o.stats || !o.quiet)
		rp_tstats_print(stderr, sim_gpu_tstats(g));
	if (o.stats_json && write_stats_json(o.stats_json, g))
		goto out;
	rc = 0;
out:
	observe_finish(&ob, NULL, 0);
	sim_gpu_free(g);
	dev_placed_free(&pl);
	dev_mem_free(&mem);
	isa_prog_free(p);
	sim_opts_free(&o);
	return rc;
}
