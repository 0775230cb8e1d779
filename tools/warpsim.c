/* warpsim.c - main() of the simulator: argument parsing and wiring only.
 *
 *   warpsim [OPTION]... PROGRAM     run a kernel of PROGRAM (.sass listing, or .ptx translated
 *                                   in process by the backend; several .ptx files are linked
 *                                   into one program, as nvcc -rdc=true compiles them) on the
 *                                   SM model
 *
 * Options come from one table (cli/cli.c gathers the components' rows, opt/opt.h reads them);
 * --launch and --config files hold the same options one per line. Exit status: 0 done, 1 a
 * run-time error or a bad program, 2 bad options. docs/warpsim.md is the user guide.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "frontend/ptx.h"
#include "oracle/oracle.h"
#include "cli/cli.h"
#include <unistd.h>

#ifndef WARPSIM_VERSION
#define WARPSIM_VERSION "0.0.0"
#endif

/* the whole input file; NULL after a message */
static char *read_file(const char *path, size_t *len)
{
	char *buf = opt_read_file(path, len);

	if (!buf)
		fprintf(stderr, "warpsim: cannot read '%s': %s\n", path, strerror(errno));
	return buf;
}

static int endswith(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

/* the program: a listing parsed by isa_asm, or PTX parsed, checked and translated in process
 * with the translator's options bo; *badkernel set when PTX lacks the --kernel asked for */
static Prog *load(char *const *paths, int n, const BeOptions *bo, int *badkernel)
{
	const char *path = paths[0];
	char *text;
	size_t len;
	Prog *p;

	if (endswith(path, ".ptx")) {
		Module *m = cli_load_ptx(paths, n, "warpsim", stderr);
		int ki;
		if (!m)
			return NULL;
		if (bo->kernel && ((ki = ptx_find_func(m, bo->kernel)) < 0 || !m->funcs[ki].entry ||
		                   !m->funcs[ki].has_body)) {     /* as pick_kernel says it */
			fprintf(stderr, "warpsim: --kernel: no kernel '%s' in %s", bo->kernel, path);
			for (int i = 1; i < n; i++)         /* a linked program: all its files */
				fprintf(stderr, "%s%s", i == n - 1 ? " and " : ", ", paths[i]);
			fprintf(stderr, "; it has:");
			for (int i = 0; i < m->nfuncs; i++)
				if (m->funcs[i].entry && m->funcs[i].has_body)
					fprintf(stderr, " %s", m->funcs[i].name);
			fprintf(stderr, "\n");
			ptx_free(m);
			*badkernel = 1;
			return NULL;
		}
		p = be_translate(m, bo, stderr);
		ptx_free(m);
		return p;
	}
	if (!(text = read_file(path, &len)))
		return NULL;
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
static int run_oracle(const WsOpts *o)
{
	OrConfig c;
	Module *m;
	int rc;

	if (!endswith(o->input, ".ptx")) {
		fprintf(stderr, "warpsim: --oracle: %s: the oracle interprets PTX (.ptx), not listings\n",
		        o->input);
		return 2;
	}
	if (!(m = cli_load_ptx(o->files, o->nfiles, "warpsim", stderr)))
		return 1;
	or_config_init(&c, o->sim.max_warp_insts);
	c.printf_tag = o->sim.printf_tag;
	if (o->sim.printf_out && !(c.printf_out = fopen(o->sim.printf_out, "w"))) {
		fprintf(stderr, "warpsim: --printf-out: cannot write '%s'\n", o->sim.printf_out);
		ptx_free(m);
		return 1;
	}
	const Launch *ls[o->sim.nprev + 1];
	for (int i = 0; i <= o->sim.nprev; i++)
		ls[i] = sim_opts_launch((SimOpts *)&o->sim, i);
	rc = or_main_seq(m, ls, o->sim.nprev + 1, &c, o->sim.stats || !o->sim.quiet, stderr);
	if (c.printf_out && fclose(c.printf_out) && !rc) {
		fprintf(stderr, "warpsim: --printf-out: cannot write '%s'\n", o->sim.printf_out);
		rc = 1;
	}
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

/* a sweep point's statistics and --out buffers go to its directory: stats.json, and outK-NAME
 * for the K-th --out of the run (every launch's, in order); 0, or -1 out of memory */
static int point_files(WsOpts *wo)
{
	SimOpts *o = &wo->sim;
	char path[4096];
	int k = 0;

	snprintf(path, sizeof path, "%s/stats.json", wo->rp.sweep_point);
	free(o->stats_json);
	if (!(o->stats_json = strdup(path)))
		return -1;
	for (int l = 0; l <= o->nprev; l++) {
		Launch *ln = sim_opts_launch(o, l);
		for (int i = 0; i < ln->nouts; i++, k++) {
			char *old = ln->outs[i].path, *b = strrchr(old, '/');
			snprintf(path, sizeof path, "%s/out%d-%s", wo->rp.sweep_point, k, b ? b + 1 : old);
			if (!(ln->outs[i].path = strdup(path))) {
				ln->outs[i].path = old;
				return -1;
			}
			free(old);
		}
	}
	return 0;
}

/* ---- several launches (docs/warpsim.md, "Several launches"): each --kernel after the
 * first starts a launch; they run one after another on one device memory */

/* launch i's statistics table, under a heading naming it (l NULL: the total of i launches) */
static void launch_stats(FILE *f, const Launch *l, int i, const TStats *ts)
{
	if (l)
		fprintf(f, "launch %d: kernel '%s'%s%s\n", i + 1, l->kernel, l->where ? " at " : "",
		        l->where ? l->where : "");
	else
		fprintf(f, "all %d launches, one after another:\n", i);
	rp_tstats_print(f, ts);
}

/* --stats-json of n launches: {"launches": [each launch's object], then the total's names
 * and values (ts[n])}: a reader of one launch's names, a sweep's point among them, finds the
 * total's, which come last; 0, or -1 after a message */
static int launches_json(const char *path, const TStats *ts, int n)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "warpsim: --stats-json: cannot write '%s': %s\n", path, strerror(errno));
		return -1;
	}
	fputs("{\n  \"launches\": [\n", f);
	for (int i = 0; i < n; i++) {
		fputs("    {\n", f);
		rp_tstats_json_members(f, &ts[i], "      ");
		fprintf(f, "    }%s\n", i + 1 < n ? "," : "");
	}
	fputs("  ],\n", f);
	rp_tstats_json_members(f, &ts[n], "  ");
	fputs("}\n", f);
	if (fclose(f)) {
		fprintf(stderr, "warpsim: --stats-json: error writing '%s'\n", path);
		return -1;
	}
	return 0;
}

static const char *self_path(char *buf, size_t n, const char *argv0);

/* the SM model over every launch of o (argv: for --report): 0, 1 (a run-time error, a bad
 * program) or 2 (a launch that does not fit its kernel) */
static int run_launches(WsOpts *o, int argc, char **argv)
{
	int n = o->sim.nprev + 1, rc = 0, i, ran = 0, st = SIM_DONE, longest = 0;
	Prog **progs = calloc((size_t)n, sizeof *progs);
	uint8_t *own = calloc((size_t)n, 1);
	Placed *pl = calloc((size_t)n, sizeof *pl);
	TStats *ts = calloc((size_t)n + 1, sizeof *ts);
	SimConfig cfg;
	FILE *pf = NULL;
	Mem mem;
	/* the program: the sweep's ptxas point runs its listing instead */
	int ptxas = o->rp.sweep_program && o->rp.sweep_point, nfiles = ptxas ? 1 : o->nfiles;
	char **files = ptxas ? &o->rp.sweep_program : o->files, *input = files[0];
	CliMulti *obs = cli_multi_new(o, input, stderr);   /* --trace, --line-stats, --bounds */

	dev_mem_init(&mem);
	if (!obs) {
		rc = 1;
		goto out;
	}
	if (!progs || !own || !pl || !ts) {
		fprintf(stderr, "warpsim: out of memory\n");
		rc = 1;
		goto out;
	}
	if (o->sim.printf_out && !(pf = fopen(o->sim.printf_out, "w"))) {
		fprintf(stderr, "warpsim: --printf-out: cannot write '%s'\n", o->sim.printf_out);
		rc = 1;
		goto out;
	}
	if (o->rp.sweep_point && point_files(o)) {   /* (a point of a --sweep) */
		fprintf(stderr, "warpsim: out of memory\n");
		rc = 1;
		goto out;
	}
	sim_config_from_opts(&cfg, &o->sim);
	cfg.progress = !o->sim.quiet && isatty(STDERR_FILENO);
	for (i = 0; i < n && !rc; i++) {
		Launch *l = sim_opts_launch(&o->sim, i);
		const Kernel *k;
		char *text = NULL;
		size_t len = 0;
		FILE *cap;
		Gpu *g = NULL;
		int bad = 0;
		/* the program of its kernel: PTX translated once per kernel, a listing once */
		for (int j = 0; j < i && !progs[i]; j++)
			if (!endswith(input, ".ptx") ||
			    !strcmp(sim_opts_launch(&o->sim, j)->kernel, l->kernel))
				progs[i] = progs[j];
		if (!progs[i]) {
			BeOptions bo = o->be;
			bo.kernel = l->kernel;
			own[i] = 1;
			if (!(progs[i] = load(files, nfiles, &bo, &bad))) {
				rc = bad ? 2 : 1;
				break;
			}
		}
		if (!(k = pick_kernel(progs[i], l->kernel, input))) {
			rc = 2;
			break;
		}
		if (!(cap = open_memstream(&text, &len))) {
			fprintf(stderr, "warpsim: out of memory\n");
			rc = 1;
			break;
		}
		if (dev_launch_place(&mem, k, l, &pl[i], cap))
			rc = 2;
		else if (!(g = sim_gpu_new(k, &mem, l, &cfg, input, cap)))
			rc = 1;
		fclose(cap);
		dev_launch_msg(stderr, l, i, n, text ? text : "", rc != 2);
		free(text);
		if (rc || (rc = cli_multi_launch(obs, i, g, progs[i], k) ? 1 : 0)) {
			sim_gpu_free(g);
			break;
		}
		sim_gpu_printf(g, pf, o->sim.printf_tag);
		sim_gpu_prog(g, progs[i]);
		st = sim_run(g, 0);
		ran = i + 1;
		if (st != SIM_DONE) {
			dev_launch_msg(stderr, l, i, n, sim_gpu_error(g), 1);
			rc = 1;
		} else if (cli_multi_done(obs, i, g))
			rc = 1;
		ts[i] = *sim_gpu_tstats(g);
		sim_gpu_free(g);
	}
	/* a trap or failed assert: what the kernels wrote before it is saved */
	for (i = 0; st == SIM_TRAP && i < ran; i++)
		dev_launch_write_outputs(&mem, sim_opts_launch(&o->sim, i), &pl[i], stderr);
	for (i = 0; !rc && i < n; i++)
		if (dev_launch_write_outputs(&mem, sim_opts_launch(&o->sim, i), &pl[i], stderr))
			rc = 1;
	if (rc)
		goto out;
	ts[n] = ts[0];
	for (i = 1; i < n; i++) {
		sim_tstats_add(&ts[n], &ts[i]);
		if (ts[i].cycles > ts[longest].cycles)
			longest = i;
	}
	ts[n].occ = ts[longest].occ;   /* one kernel's figures: the longest launch's */
	for (i = 0; (o->sim.stats || !o->sim.quiet) && i <= n; i++)
		launch_stats(stderr, i < n ? sim_opts_launch(&o->sim, i) : NULL, i, &ts[i]);
	if (o->sim.stats_json && launches_json(o->sim.stats_json, ts, n))
		rc = 1;
	if (!rc && o->rp.report) {
		char self[4096];
		if (cli_multi_report(obs, argc, argv, self_path(self, sizeof self, argv[0]), ts))
			rc = 1;
	}
out:
	if (cli_multi_finish(obs, !rc))
		rc = 1;
	if (pf && fclose(pf) && rc == 0) {
		fprintf(stderr, "warpsim: --printf-out: cannot write '%s'\n", o->sim.printf_out);
		rc = 1;
	}
	for (i = 0; pl && i < n; i++)
		dev_placed_free(&pl[i]);
	dev_mem_free(&mem);
	for (i = 0; progs && own && i < n; i++)
		if (own[i])
			isa_prog_free(progs[i]);
	free(progs);
	free(own);
	free(pl);
	free(ts);
	return rc;
}
/* ---- end of several launches */

/* ---- --trace, --trace-window, --line-stats, --sweep (report/: the options are its rows of
 * the table, RpOpts; docs/traces.md) */
typedef struct {
	TraceWriter *tw;        /* the open trace */
	LineStats *ls;          /* the line statistics */
	Bounds *bd;             /* --bounds */
	FILE *bf;               /* its file */
	BranchStats *bs;        /* an --explore point's branch counts */
	char bspath[4096];      /* where they go */
	SinkTee tee;            /* all fed from one sink */
	char rdir[4096];        /* --report: a temporary directory for its files, or "" */
	char rsvg[4200];        /* its warp timeline there */
	TraceWriter *rtw;       /* writing it */
	LineStats *rls;         /* its line statistics */
} Observe;

/* this program's path, for running it again as a sweep point: /proc/self/exe, else argv0 */
static const char *self_path(char *buf, size_t n, const char *argv0)
{
	ssize_t r = readlink("/proc/self/exe", buf, n - 1);

	if (r > 0)
		buf[r] = 0;
	else
		snprintf(buf, n, "%s", argv0);
	return buf;
}

/* --sweep: every point is this program again with the same arguments plus --KEY V (with
 * --shard I/N only the points of slice I) */
static int observe_sweep(WsOpts *o, int argc, char **argv)
{
	SweepSpec *sp = &o->rp.spec;
	SweepPoint *pts = calloc((size_t)sp->nvals, sizeof *pts);
	char self[4096], slice[64] = "";
	int rc, nargs, runs = 0;
	char **args = cli_warpsim_point_args(o, argc, argv, &nargs);
	SweepWhat w = {o->input, args, nargs};

	if (!pts || !args) {
		free(pts);
		free(args);
		return 1;
	}
	self_path(self, sizeof self, argv[0]);
	for (int i = 0; i < sp->nvals; i++)
		runs += rp_sweep_in_shard(sp, i);
	if (sp->nshards)
		snprintf(slice, sizeof slice, ", slice %d of %d", sp->shard, sp->nshards);
	fprintf(stdout, "warpsim: sweep of --%s over %s%s: %d runs, %d at a time\n", sp->key, o->input,
	        slice, runs, sp->jobs < runs ? sp->jobs : runs);
	char *paths[64];
	sp->nouts = 0;
	for (int l = 0; l <= o->sim.nprev; l++) {   /* (every launch's, in order) */
		const Launch *ln = sim_opts_launch(&o->sim, l);
		for (int i = 0; i < ln->nouts && sp->nouts < 64; i++)
			paths[sp->nouts++] = ln->outs[i].path;
	}
	if (sp->nouts == 0)
		fprintf(stderr, "warpsim: --sweep: no --out buffer: the points' results are not compared; "
		        "add --out N:PATH for the buffers the kernel writes\n");
	sp->outs = paths;
	rc = rp_sweep_run(self, args, nargs, sp, pts, stderr);
	rc = rp_sweep_report(stdout, sp, pts, &w, o->rp.sweep_json, rc, stderr);
	rp_sweep_points_free(pts, sp->nvals);
	free(args);
	return rc;
}

/* --explore: the program as compiled and each branch's flip, as the points of a sweep */
static int observe_explore(WsOpts *o, int argc, char **argv)
{
	Explore x = {0};
	char self[4096], names[1024] = "", title[1400];
	const char *prog = o->input;
	int rc;

	for (int i = 0; o->nfiles > 1 && i < o->nfiles; i++, prog = names)  /* a linked program */
		snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " + " : "",
		         o->files[i]);
	if (cli_explore_init(o, argc, argv, self_path(self, sizeof self, argv[0]), &x, stderr))
		return 1;
	snprintf(title, sizeof title, "%s", prog);
	for (int l = 0; l < x.nlaunches; l++)      /* several launches: the sequence */
		snprintf(title + strlen(title), sizeof title - strlen(title), "%s%s%s", l ? ", " : " (",
		         x.launches[l], l == x.nlaunches - 1 ? ")" : "");
	int nouts = 0;
	for (int l = 0; l <= o->sim.nprev; l++)    /* (every launch's) */
		nouts += sim_opts_launch(&o->sim, l)->nouts;
	if (nouts == 0)
		fprintf(stderr, "warpsim: --explore: no --out buffer: the variants' results are not "
		        "compared; add --out N:PATH for the buffers the kernel writes\n");
	if (x.nshards) {                /* a slice: its variants' runs for --explore-merge */
		SweepWhat w = {o->input, x.args, x.nargs};
		int runs = 0;
		rc = rp_explore_run(&x);
		for (int i = 0; x.pts && i < x.spec.nvals; i++)
			runs += !x.pts[i].skipped;
		printf("warpsim: explore %s, slice %d of %d: %d of the %d runs (the program as compiled "
		       "and %d variant%s) in %s\n", o->input, x.shard, x.nshards, runs, x.spec.nvals,
		       x.spec.nvals - 1, x.spec.nvals == 2 ? "" : "s", o->rp.sweep_json);
		if (x.pts && rp_sweep_json(o->rp.sweep_json, &x.spec, x.pts, &w, stderr))
			rc = 1;
		goto done;
	}
	if ((rc = rp_explore_run(&x)) != 1)
		rc = rp_explore_search(&x);
	if (x.pts) {
		rp_explore_table(stdout, &x, title);
		if (o->rp.explore_json && rp_explore_json(o->rp.explore_json, &x, prog, stderr) && !rc)
			rc = 1;
	}
done:
	free((void *)x.args);
	cli_explore_done(&x);
	rp_explore_free(&x);
	return rc;
}

/* --report: its warp timeline and line statistics, besides any the user asked for, fed by s;
 * 0, or -1 after a message */
static int observe_report(Observe *ob, const TraceInfo *t, const Prog *p, TraceSink *s)
{
	const char *tmp = getenv("TMPDIR");
	TraceInfo ti = {t->k, t->program, t->warps_per_cta, 0, UINT64_MAX, NULL, NULL, p, 0};
	char err[512];

	snprintf(ob->rdir, sizeof ob->rdir, "%s/warpsim-report-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(ob->rdir)) {
		fprintf(stderr, "warpsim: --report: cannot create a temporary directory: %s\n", strerror(errno));
		ob->rdir[0] = 0;
		return -1;
	}
	snprintf(ob->rsvg, sizeof ob->rsvg, "%s/timeline.svg", ob->rdir);
	if (!(ob->rtw = rp_trace_open(ob->rsvg, &ti, err, sizeof err))) {
		fprintf(stderr, "warpsim: --report: %s\n", err);
		return -1;
	}
	rp_trace_sink(ob->rtw, s);
	rp_tee_add(&ob->tee, s);
	if (!(ob->rls = rp_linestats_new(t->k, p))) {
		fprintf(stderr, "warpsim: out of memory\n");
		return -1;
	}
	rp_linestats_sink(ob->rls, s);
	rp_tee_add(&ob->tee, s);
	return 0;
}

/* before the run: open the trace and the line statistics, attach them; a sweep point's
 * statistics and --out buffers go to its directory. 0, or -1 after a message */
static int observe_start(Observe *ob, Gpu *g, const Prog *p, const Kernel *k, WsOpts *wo)
{
	char err[512];
	TraceSink s;
	SimOpts *o = &wo->sim;
	const RpOpts *ro = &wo->rp;

	if (ro->sweep_point && point_files(wo))
		return -1;
	rp_tee_init(&ob->tee);
	if (ro->sweep_point && ro->sweep_branches) {
		if (!(ob->bs = rp_branch_stats_new(k)))
			return -1;
		snprintf(ob->bspath, sizeof ob->bspath, "%s/branches.txt", ro->sweep_point);
		rp_branch_stats_sink(ob->bs, &s);
		rp_tee_add(&ob->tee, &s);
	}
	TraceInfo ti = {k, wo->input, (int)((o->launch.block[0] * o->launch.block[1] *
	                o->launch.block[2] + 31) / 32), ro->lo, ro->hi,
	                ro->trace_sms ? ro->sel_sms : NULL, ro->trace_warps ? ro->sel_warps : NULL, p, 0};
	if (ro->trace) {
		if (!(ob->tw = rp_trace_open(ro->trace, &ti, err, sizeof err))) {
			fprintf(stderr, "warpsim: %s\n", err);
			return -1;
		}
		rp_trace_sink(ob->tw, &s);
		rp_tee_add(&ob->tee, &s);
	}
	if (ro->linestats) {
		if (!(ob->ls = rp_linestats_new(k, p))) {
			fprintf(stderr, "warpsim: out of memory\n");
			return -1;
		}
		rp_linestats_sink(ob->ls, &s);
		rp_tee_add(&ob->tee, &s);
	}
	if (ro->bounds) {
		if (!(ob->bf = fopen(ro->bounds, "w"))) {
			fprintf(stderr, "warpsim: --bounds: cannot write '%s': %s\n", ro->bounds, strerror(errno));
			return -1;
		}
		if (!(ob->bd = rp_bounds_new(k, &o->tc))) {
			fprintf(stderr, "warpsim: out of memory\n");
			return -1;
		}
		rp_bounds_sink(ob->bd, &s);
		rp_tee_add(&ob->tee, &s);
	}
	if (ro->report && observe_report(ob, &ti, p, &s))
		return -1;
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
static int observe_finish(Observe *ob, const RpOpts *ro, const char *input, int done)
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
		fprintf(stderr, "warpsim: --trace: %s holds the run up to the error\n", ro->trace);
	ob->tw = NULL;
	if (ob->ls && rp_linestats_write(ob->ls, ro->linestats, input, err, sizeof err)) {
		fprintf(stderr, "warpsim: %s\n", err);
		rc = -1;
	}
	rp_linestats_free(ob->ls);
	ob->ls = NULL;
	if (ob->bs && input && done && rp_branch_stats_write(ob->bs, ob->bspath)) {
		fprintf(stderr, "warpsim: cannot write '%s'\n", ob->bspath);
		rc = -1;
	}
	rp_branch_stats_free(ob->bs);
	ob->bs = NULL;
	if (ob->rtw && rp_trace_close(ob->rtw, err, sizeof err)) {
		fprintf(stderr, "warpsim: --report: %s\n", err);
		rc = -1;
	}
	ob->rtw = NULL;
	if (!input) {               /* the end: --bounds, what --report left */
		rp_bounds_free(ob->bd);
		ob->bd = NULL;
		if (ob->bf && fclose(ob->bf) && !rc) {
			fprintf(stderr, "warpsim: --bounds: error writing '%s'\n", ro->bounds);
			rc = -1;
		}
		ob->bf = NULL;
		rp_linestats_free(ob->rls);
		ob->rls = NULL;
		if (ob->rdir[0]) {
			remove(ob->rsvg);
			rmdir(ob->rdir);
			ob->rdir[0] = 0;
		}
	}
	return rc;
}
/* after a completed run: --bounds into its file; 0, or -1 after a message */
static int observe_bounds(Observe *ob, const RpOpts *ro, const Gpu *g)
{
	if (!ob->bd)
		return 0;
	if (sim_gpu_tstats(g)->cdp_grids) {   /* the bounds are one grid's (dynamic parallelism) */
		fprintf(stderr, "warpsim: --bounds bounds one grid; this run also ran %llu child "
		        "grids\n", (unsigned long long)sim_gpu_tstats(g)->cdp_grids);
		return -1;
	}
	if (rp_bounds_print(ob->bf, ob->bd, sim_gpu_tstats(g))) {
		fprintf(stderr, "warpsim: out of memory\n");
		return -1;
	}
	if (fflush(ob->bf) || ferror(ob->bf)) {
		fprintf(stderr, "warpsim: --bounds: error writing '%s'\n", ro->bounds);
		return -1;
	}
	return 0;
}
/* ---- end of --trace, --line-stats, --bounds, --sweep */

int main(int argc, char **argv)
{
	WsOpts o;
	SimConfig cfg;
	Prog *p = NULL;
	const Kernel *k;
	Mem mem;
	Placed pl = {0};
	Gpu *g = NULL;
	char msg[512];
	int rc = 2, ran = 0, badkernel = 0, st;
	FILE *pf = NULL;
	Observe ob = {0};       /* --trace, --line-stats */

	cli_warpsim_init(&o);
	dev_mem_init(&mem);
	if (cli_warpsim_argv(&o, argc, argv, stderr))
		goto out;
	if (o.help) {
		cli_warpsim_help(&o, stdout);
		rc = 0;
		goto out;
	}
	if (o.version) {
		printf("warpsim (warpsim) %s\n", WARPSIM_VERSION);
		rc = 0;
		goto out;
	}
	if (o.rp.merge) {               /* a sharded sweep's slices into one table */
		rc = rp_sweep_merge(o.files, o.nfiles, &o.rp, stdout, stderr);
		goto out;
	}
	if (!o.input && !o.sim.print_config) {
		fprintf(stderr, "warpsim: no program given (see --help)\n");
		goto out;
	}
	if (sim_tconfig_check(&o.sim.tc, msg, sizeof msg)) {
		fprintf(stderr, "warpsim: %s\n", msg);
		goto out;
	}
	if (o.sim.functional && (o.rp.trace || o.rp.linestats || o.rp.report || o.rp.bounds)) {
		fprintf(stderr, "warpsim: --functional runs without the timing model: %s needs it\n",
		        o.rp.trace ? "--trace" : o.rp.linestats ? "--line-stats" : o.rp.bounds ?
		        "--bounds" : "--report");
		goto out;
	}
	if (o.sim.print_config) {       /* the effective architecture, a valid config file */
		sim_tconfig_print(stdout, &o.sim.tc);
		rc = 0;
		goto out;
	}
	if (o.rp.report && (o.oracle || !o.input || !endswith(o.input, ".ptx"))) {
		fprintf(stderr, "warpsim: --report shows the PTX beside its listing and flips its "
		        "branches: it needs a .ptx program run on the SM model%s\n",
		        o.oracle ? ", not --oracle" : "");
		goto out;
	}
	if (o.oracle && o.rp.bounds) {
		fprintf(stderr, "warpsim: --bounds observes the SM model's timing: it cannot be given "
		        "with --oracle\n");
		goto out;
	}
	if (o.oracle) {
		rc = run_oracle(&o);
		goto out;
	}
	if (o.rp.spec.key) {
		rc = observe_sweep(&o, argc, argv);
		goto out;
	}
	if (o.rp.explore) {
		rc = observe_explore(&o, argc, argv);
		goto out;
	}
	if (o.sim.nprev) {
		rc = run_launches(&o, argc, argv);
		goto out;
	}
	rc = 1;
	if (o.rp.sweep_program && o.rp.sweep_point) {   /* the sweep's ptxas point */
		free(o.input);
		if (!(o.input = strdup(o.rp.sweep_program)))
			goto out;
	}
	if (!(p = o.rp.sweep_program && o.rp.sweep_point ? load(&o.input, 1, &o.be, &badkernel) :
	          load(o.files, o.nfiles, &o.be, &badkernel))) {
		rc = badkernel ? 2 : 1;
		goto out;
	}
	if (!(k = pick_kernel(p, o.sim.launch.kernel, o.input))) {
		rc = p->nk ? 2 : 1;     /* a wrong or missing --kernel is a command-line error */
		goto out;
	}
	rc = 2;
	if (dev_launch_place(&mem, k, &o.sim.launch, &pl, stderr))
		goto out;
	rc = 1;
	sim_config_from_opts(&cfg, &o.sim);
	cfg.progress = !o.sim.quiet && isatty(STDERR_FILENO);   /* a long run shows a progress line */
	if (!(g = sim_gpu_new(k, &mem, &o.sim.launch, &cfg, o.input, stderr)) ||
	    observe_start(&ob, g, p, k, &o))
		goto out;
	if (o.sim.printf_out && !(pf = fopen(o.sim.printf_out, "w"))) {
		fprintf(stderr, "warpsim: --printf-out: cannot write '%s'\n", o.sim.printf_out);
		goto out;
	}
	sim_gpu_printf(g, pf, o.sim.printf_tag);
	sim_gpu_prog(g, p);
	st = sim_run(g, 0);
	ran = st == SIM_DONE;
	if (observe_finish(&ob, &o.rp, o.input, ran) || !ran) {
		if (!ran)
			fputs(sim_gpu_error(g), stderr);
		/* a trap or failed assert: what the kernel wrote before it is saved, as the host
		 * of a CUDA program still reads it */
		if (st == SIM_TRAP)
			dev_launch_write_outputs(&mem, &o.sim.launch, &pl, stderr);
		goto out;
	}
	if (dev_launch_write_outputs(&mem, &o.sim.launch, &pl, stderr))
		goto out;
	if (o.sim.stats || !o.sim.quiet)
		rp_tstats_print(stderr, sim_gpu_tstats(g));
	if (o.sim.stats_json && write_stats_json(o.sim.stats_json, g))
		goto out;
	if (observe_bounds(&ob, &o.rp, g))
		goto out;
	if (o.rp.report) {
		char self[4096];
		CliRun run = {p, k, ob.rls, sim_gpu_tstats(g), ob.rsvg, ob.rdir, NULL, 0, NULL, 0};
		if (cli_report(&o, argc, argv, self_path(self, sizeof self, argv[0]), &run, stderr))
			goto out;
	}
	rc = 0;
out:
	if (pf && fclose(pf) && rc == 0) {
		fprintf(stderr, "warpsim: --printf-out: cannot write '%s'\n", o.sim.printf_out);
		rc = 1;
	}
	observe_finish(&ob, &o.rp, NULL, 0);
	sim_gpu_free(g);
	dev_placed_free(&pl);
	dev_mem_free(&mem);
	isa_prog_free(p);
	cli_warpsim_free(&o);
	return rc;
}
