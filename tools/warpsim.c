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

/* the program: a listing parsed by isa_asm, or PTX parsed, checked and translated in process
 * with the translator's options bo; *badkernel set when PTX lacks the --kernel asked for */
static Prog *load(char *const *paths, int n, const BeOptions *bo, int *badkernel)
{
	const char *path = paths[0];
	char *text;
	size_t len;
	Prog *p;

	if (opt_endswith(path, ".ptx")) {
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

	if (!opt_endswith(o->input, ".ptx")) {
		fprintf(stderr, "warpsim: --oracle: %s: the oracle interprets PTX (.ptx), not listings\n",
		        o->input);
		return 2;
	}
	if (!(m = cli_load_ptx(o->files, o->nfiles, "warpsim", stderr)))
		return 1;
	or_config_init(&c, o->sim.max_warp_insts);
	c.printf_tag = o->sim.printf_tag;
	c.reverse = o->oracle_order;
	c.shared_unit = (uint32_t)o->sim.tc.shared_unit;
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

/* ---- a run on the SM model: its launches one after another on one device memory (one
 * launch, or several: docs/warpsim.md, "Several launches", where each --kernel after the
 * first starts a launch) */

/* a message of launch i of n: several name the launch (dev_launch_msg), one is as it was */
static void launch_msg(const Launch *l, int i, int n, const char *text, int placed)
{
	if (n == 1)
		fputs(text, stderr);
	else
		dev_launch_msg(stderr, l, i, n, text, placed);
}

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

/* --stats-json FILE of n launches: one launch's statistics as one JSON object; several's
 * {"launches": [each launch's object], then the total's names and values (ts[n])}: a reader
 * of one launch's names, a sweep's point among them, finds the total's, which come last;
 * 0, or -1 after a message */
static int stats_json(const char *path, const TStats *ts, int n)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "warpsim: --stats-json: cannot write '%s': %s\n", path, strerror(errno));
		return -1;
	}
	if (n == 1)
		rp_tstats_json(f, &ts[0]);
	else {
		fputs("{\n  \"launches\": [\n", f);
		for (int i = 0; i < n; i++) {
			fputs("    {\n", f);
			rp_tstats_json_members(f, &ts[i], "      ");
			fprintf(f, "    }%s\n", i + 1 < n ? "," : "");
		}
		fputs("  ],\n", f);
		rp_tstats_json_members(f, &ts[n], "  ");
		fputs("}\n", f);
	}
	if (fclose(f)) {
		fprintf(stderr, "warpsim: --stats-json: error writing '%s'\n", path);
		return -1;
	}
	return 0;
}

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

/* every launch of o on the SM model, observed (cli/observe.c); argv: for --report. 0, 1 (a
 * run-time error, a bad program) or 2 (a launch that does not fit its kernel) */
static int run(WsOpts *o, int argc, char **argv)
{
	int n = o->sim.nprev + 1, rc = 0, i, ran = 0, st = SIM_DONE, longest = 0;
	Prog **progs = calloc((size_t)n, sizeof *progs);
	Placed *pl = calloc((size_t)n, sizeof *pl);
	TStats *ts = calloc((size_t)n + 1, sizeof *ts);
	CliKernels ks = {0};
	CliObs *obs = NULL;     /* --trace, --line-stats, --bounds, --report */
	SimConfig cfg;
	FILE *pf = NULL;
	Mem mem;
	/* the program: the sweep's ptxas point runs its listing instead */
	int ptxas = o->rp.sweep_program && o->rp.sweep_point, nfiles = ptxas ? 1 : o->nfiles;
	char **files = ptxas ? &o->rp.sweep_program : o->files, *input = files[0];
	int ptx = opt_endswith(input, ".ptx");

	dev_mem_init(&mem);
	if (!progs || !pl || !ts) {
		fprintf(stderr, "warpsim: out of memory\n");
		rc = 1;
		goto out;
	}
	if (cli_kernels(&o->sim, &ks, stderr) || !(obs = cli_obs_new(o, input, &ks, stderr))) {
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
	cfg.progress = !o->sim.quiet && isatty(STDERR_FILENO);   /* a long run shows a progress line */
	for (i = 0; i < n && !rc; i++) {
		Launch *l = sim_opts_launch(&o->sim, i);
		/* the program: PTX translated once per kernel (cli/kernels.c), a listing once */
		int from = ptx ? ks.first[ks.of[i]] : 0;
		const Kernel *k;
		char *text = NULL;
		size_t len = 0;
		FILE *cap;
		Gpu *g = NULL;
		int bad = 0;
		if (from == i) {
			BeOptions bo = o->be;
			bo.kernel = l->kernel;
			if (!(progs[i] = load(files, nfiles, &bo, &bad))) {
				rc = bad ? 2 : 1;
				break;
			}
		}
		if (!(k = pick_kernel(progs[from], l->kernel, input))) {
			rc = progs[from]->nk ? 2 : 1;   /* a wrong or missing --kernel is a command-line error */
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
		launch_msg(l, i, n, text ? text : "", rc != 2);
		free(text);
		if (rc || (rc = cli_obs_launch(obs, i, g, progs[from], k) ? 1 : 0)) {
			sim_gpu_free(g);
			break;
		}
		sim_gpu_printf(g, pf, o->sim.printf_tag);
		sim_gpu_prog(g, progs[from]);
		st = sim_run(g, 0);
		ran = i + 1;
		if (st != SIM_DONE) {
			cli_obs_end(obs);   /* (the trace's note, then the error) */
			launch_msg(l, i, n, sim_gpu_error(g), 1);
			rc = 1;
		} else if (cli_obs_done(obs, i, g))
			rc = 1;
		ts[i] = *sim_gpu_tstats(g);
		sim_gpu_free(g);
	}
	if (obs && cli_obs_end(obs) && !rc)
		rc = 1;
	/* a trap or failed assert: what the kernels wrote before it is saved, as the host of a
	 * CUDA program still reads it */
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
	if (n == 1 && (o->sim.stats || !o->sim.quiet))
		rp_tstats_print(stderr, &ts[0]);
	for (i = 0; n > 1 && (o->sim.stats || !o->sim.quiet) && i <= n; i++)
		launch_stats(stderr, i < n ? sim_opts_launch(&o->sim, i) : NULL, i, &ts[i]);
	if (o->sim.stats_json && stats_json(o->sim.stats_json, ts, n))
		rc = 1;
	if (!rc && o->rp.report) {
		char self[4096];
		if (cli_obs_report(obs, argc, argv, self_path(self, sizeof self, argv[0]), ts))
			rc = 1;
	}
out:
	if (cli_obs_finish(obs))
		rc = 1;
	if (pf && fclose(pf) && rc == 0) {
		fprintf(stderr, "warpsim: --printf-out: cannot write '%s'\n", o->sim.printf_out);
		rc = 1;
	}
	for (i = 0; pl && i < n; i++)
		dev_placed_free(&pl[i]);
	dev_mem_free(&mem);
	for (i = 0; progs && i < n; i++)
		isa_prog_free(progs[i]);
	cli_kernels_free(&ks);
	free(progs);
	free(pl);
	free(ts);
	return rc;
}
/* ---- end of a run on the SM model */

/* ---- --sweep and --explore: this program run again for each point or variant (report/: the
 * options are its rows of the table, RpOpts; docs/traces.md, docs/explore.md) */
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

/* ---- end of --sweep and --explore */

int main(int argc, char **argv)
{
	WsOpts o;
	char msg[512];
	int rc = 2;

	cli_warpsim_init(&o);
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
	if (o.rp.report && (o.oracle || !o.input || !opt_endswith(o.input, ".ptx"))) {
		fprintf(stderr, "warpsim: --report shows the PTX beside its listing and flips its "
		        "branches: it needs a .ptx program run on the SM model%s\n",
		        o.oracle ? ", not --oracle" : "");
		goto out;
	}
	if (o.oracle_order && !o.oracle) {
		fprintf(stderr, "warpsim: --oracle-order orders the oracle's threads: it needs --oracle\n");
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
	rc = run(&o, argc, argv);
out:
	cli_warpsim_free(&o);
	return rc;
}
