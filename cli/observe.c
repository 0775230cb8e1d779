/* observe.c - what observes a run on the SM model, of one launch or of several (docs/warpsim.md,
 * "Several launches"); tools/warpsim.c's run() calls it around each launch. --trace, the
 * line statistics (--line-stats, and --report's source table), --bounds, a sweep point's
 * branch counts (--explore's variants) and --report's warp timeline are fed from one sink per
 * launch; their files are opened when the first launch starts.
 *
 * One launch is written as it always was (TraceInfo.nlaunches 0, no headings). Several: one
 * trace of every launch in order, its cycles continuing from launch to launch (report/
 * trace_out.c's rp_trace_launch marks each); line statistics per launch, then summed over the
 * launches of each kernel launched more than once; bounds per launch, then the run's cycles
 * against the launches' bounds summed; the branch counts of every launch; and --report's page
 * of the sequence (a table per launch, each kernel's source summed over its launches;
 * cli/report.c runs the what-ifs and the sweep of the whole sequence). A kernel is what
 * cli/kernels.c says: the launches of one name sum together.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"

struct CliObs {
	WsOpts *o;
	const char *input;      /* the program file, as the run names it */
	const CliKernels *ks;   /* the kernels launched, each once (not owned) */
	int n;                  /* launches */
	int many;               /* several: their forms (TraceInfo.nlaunches n), else one's */
	int started, completed; /* launches whose run started (observed), and that completed */
	int ended;              /* cli_obs_end has written what the runs leave */
	FILE *err;
	const Kernel **k;       /* launch i's kernel, NULL until it starts */
	const Prog **p;         /* and its program */
	TraceWriter *tw;        /* --trace: one writer for every launch */
	LineStats **ls;         /* --line-stats or --report: launch i's, NULL until it starts */
	FILE *bf;               /* --bounds' file */
	Bounds *bd;             /* the bounds of the launch under way */
	uint64_t bsum, csum;    /* the completed launches' bounds and cycles, summed */
	int nbounded;           /* launches bounded */
	BranchStats **bs;       /* a sweep point's branch counts, launch i's */
	SinkTee tee;            /* the launch under way's sinks */
	char rdir[4096];        /* --report: a temporary directory for its files, or "" */
	char rsvg[4200];        /* its warp timeline there */
	TraceWriter *rtw;       /* writing it */
};

CliObs *cli_obs_new(WsOpts *o, const char *input, const CliKernels *ks, FILE *err)
{
	CliObs *m = calloc(1, sizeof *m);

	if (!m)
		goto oom;
	m->o = o;
	m->input = input;
	m->ks = ks;
	m->err = err;
	m->n = ks->nlaunches;
	m->many = m->n > 1;
	if (!(m->ls = calloc((size_t)m->n, sizeof *m->ls)) || !(m->k = calloc((size_t)m->n, sizeof *m->k)) ||
	    !(m->p = calloc((size_t)m->n, sizeof *m->p)) ||
	    !(m->bs = calloc((size_t)m->n, sizeof *m->bs)))
		goto oom;
	return m;
oom:
	fprintf(err, "warpsim: out of memory\n");
	cli_obs_finish(m);
	return NULL;
}

/* the trace *w (opened at path when the first launch starts) feeds on launch i, which begins
 * it when there are several; 0, or -1 after a message (what: before it) */
static int feed(CliObs *m, TraceWriter **w, const char *path, const TraceInfo *ti, int i,
                const char *what)
{
	char err[512];
	TraceSink s;

	if (!*w && !(*w = rp_trace_open(path, ti, err, sizeof err))) {
		fprintf(m->err, "warpsim: %s%s\n", what, err);
		return -1;
	}
	if (m->many)
		rp_trace_launch(*w, ti, sim_opts_launch(&m->o->sim, i), i);
	rp_trace_sink(*w, &s);
	rp_tee_add(&m->tee, &s);
	return 0;
}

/* --report's directory for its files (the warp timeline); 0, or -1 after a message */
static int report_dir(CliObs *m)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(m->rdir, sizeof m->rdir, "%s/warpsim-report-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(m->rdir)) {
		fprintf(m->err, "warpsim: --report: cannot create a temporary directory: %s\n", strerror(errno));
		m->rdir[0] = 0;
		return -1;
	}
	snprintf(m->rsvg, sizeof m->rsvg, "%s/timeline.svg", m->rdir);
	return 0;
}

int cli_obs_launch(CliObs *m, int i, Gpu *g, const Prog *p, const Kernel *k)
{
	const RpOpts *ro = &m->o->rp;
	const Launch *l = sim_opts_launch(&m->o->sim, i);
	TraceInfo ti = {k, m->input, (int)((l->block[0] * l->block[1] * l->block[2] + 31) / 32), ro->lo,
	                ro->hi, ro->trace_sms ? ro->sel_sms : NULL, ro->trace_warps ? ro->sel_warps : NULL,
	                p, m->many ? m->n : 0};
	TraceSink s;

	m->k[i] = k;
	m->p[i] = p;
	/* a kernel is its name (cli/kernels.c): its launches share one program, so one Kernel */
	assert(m->k[m->ks->first[m->ks->of[i]]] == k);
	rp_tee_init(&m->tee);
	if (ro->sweep_point && ro->sweep_branches) {
		if (!(m->bs[i] = rp_branch_stats_new(k)))
			goto oom;
		rp_branch_stats_sink(m->bs[i], &s);
		rp_tee_add(&m->tee, &s);
	}
	if (ro->trace && feed(m, &m->tw, ro->trace, &ti, i, ""))
		return -1;
	if (ro->linestats || ro->report) {
		if (!(m->ls[i] = rp_linestats_new(k, p)))
			goto oom;
		rp_linestats_sink(m->ls[i], &s);
		rp_tee_add(&m->tee, &s);
	}
	if (ro->bounds) {
		if (!m->bf && !(m->bf = fopen(ro->bounds, "w"))) {
			fprintf(m->err, "warpsim: --bounds: cannot write '%s': %s\n", ro->bounds, strerror(errno));
			return -1;
		}
		if (!(m->bd = rp_bounds_new(k, &m->o->sim.tc)))
			goto oom;
		rp_bounds_sink(m->bd, &s);
		rp_tee_add(&m->tee, &s);
	}
	if (ro->report) {       /* its warp timeline: a trace of its own, of every cycle */
		TraceInfo all = ti;
		all.lo = 0;
		all.hi = UINT64_MAX;
		all.sms = all.warps = NULL;
		if ((!m->rdir[0] && report_dir(m)) || feed(m, &m->rtw, m->rsvg, &all, i, "--report: "))
			return -1;
	}
	if (m->tee.n == 1)
		sim_gpu_set_sink(g, &m->tee.to[0]);
	else if (m->tee.n) {
		rp_tee_sink(&m->tee, &s);
		sim_gpu_set_sink(g, &s);
	}
	m->started++;
	return 0;
oom:
	fprintf(m->err, "warpsim: out of memory\n");
	return -1;
}

int cli_obs_done(CliObs *m, int i, const Gpu *g)
{
	const TStats *ts = sim_gpu_tstats(g);
	char title[512] = "this run";
	BoundsFig f;

	m->completed++;
	if (!m->bd)
		return 0;
	if (m->many)
		rp_launch_title(title, sizeof title, sim_opts_launch(&m->o->sim, i), i, m->n);
	if (ts->cdp_grids) {     /* the bounds are one grid's (dynamic parallelism) */
		fprintf(m->err, "warpsim: --bounds bounds one grid; %s also ran %llu child grids\n", title,
		        (unsigned long long)ts->cdp_grids);
		return -1;
	}
	if (m->many)
		fprintf(m->bf, "%s%s\n", i ? "\n" : "", title);
	if (rp_bounds_print(m->bf, m->bd, ts) || rp_bounds_get(m->bd, ts, &f)) {
		fprintf(m->err, "warpsim: out of memory\n");
		return -1;
	}
	m->bsum += f.bound;
	m->csum += f.cycles;
	m->nbounded++;
	rp_bounds_free(m->bd);
	m->bd = NULL;
	return 0;
}

/* kernel j's launches that have line statistics, summed, or NULL when out of memory; their
 * numbers from 1 in which[0..n) ("1, 3"). Its first launch has them (the caller checks: a run
 * that stopped before it did not) */
static LineStats *kernel_sum(const CliObs *m, int j, char *which, size_t n)
{
	int i = m->ks->first[j];
	LineStats *sum;
	size_t len = 0;

	assert(m->ls[i]);
	which[0] = 0;
	if (!(sum = rp_linestats_new(m->k[i], m->p[i])))
		return NULL;
	for (int l = i; l < m->n; l++)
		if (m->ks->of[l] == j && m->ls[l]) {
			int rc = rp_linestats_add(sum, m->ls[l]);
			assert(!rc);    /* the launches of one name share one Kernel (cli_obs_launch) */
			(void)rc;
			if (len < n)
				len += (size_t)snprintf(which + len, n - len, "%s%d", len ? ", " : "", l + 1);
		}
	return sum;
}

/* --line-stats of several launches: each launch's table, then each kernel's launched more than
 * once summed; the CSV's rows begin with the launch (its number, or "sum") and the kernel.
 * 0, or -1 when a sum ran out of memory (its table is left out, the others written) */
static int lines_print(void *arg, FILE *f, int csv)
{
	CliObs *m = arg;
	const CliKernels *ks = m->ks;
	char title[600], pre[300];
	int first = 1, rc = 0;

	for (int i = 0; i < m->n; i++) {
		RpLsPart part = {title, first, pre, first ? "launch,kernel," : NULL};
		if (!m->ls[i])
			continue;
		rp_launch_title(title, sizeof title, sim_opts_launch(&m->o->sim, i), i, m->n);
		snprintf(pre, sizeof pre, "%d,\"%s\",", i + 1, m->k[i]->name);
		if (!csv && !first)
			fputc('\n', f);
		rp_linestats_print_part(m->ls[i], f, m->input, csv, &part);
		first = 0;
	}
	for (int j = 0; j < ks->n; j++) {   /* (in the order of their first launches) */
		const Kernel *k = m->k[ks->first[j]];
		size_t len;
		int nsum = 0;
		LineStats *sum;
		for (int l = ks->first[j]; l < m->n; l++)
			nsum += ks->of[l] == j && m->ls[l];
		if (nsum < 2)       /* one launch ran, its table above, or none (the run stopped) */
			continue;
		len = (size_t)snprintf(title, sizeof title, "kernel '%s', launches ", k->name);
		if (len >= sizeof title)
			len = sizeof title - 1;     /* (the list and the rest do not fit) */
		if (!(sum = kernel_sum(m, j, title + len, sizeof title - len))) {
			rc = -1;
			continue;
		}
		len = strlen(title);
		snprintf(title + len, sizeof title - len, " summed");
		snprintf(pre, sizeof pre, "sum,\"%s\",", k->name);
		RpLsPart part = {title, 0, pre, NULL};
		rp_linestats_print_part(sum, f, m->input, csv, &part);
		rp_linestats_free(sum);
	}
	return rc;
}

/* writes --line-stats of the launches that ran; 0, or -1 after a message */
static int lines_write(CliObs *m)
{
	const char *path = m->o->rp.linestats;
	char err[4400];

	if (m->many ? rp_linestats_write_by(path, lines_print, m, err, sizeof err) :
	    rp_linestats_write(m->ls[0], path, m->input, err, sizeof err)) {
		fprintf(m->err, "warpsim: %s\n", err);
		return -1;
	}
	return 0;
}

/* a sweep point's branch counts, every launch's, into its directory; 0, or -1 after a message */
static int branches_write(CliObs *m)
{
	char path[4200];
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof path, "%s/branches.txt", m->o->rp.sweep_point);
	if (!(f = fopen(path, "w"))) {
		fprintf(m->err, "warpsim: cannot write '%s'\n", path);
		return -1;
	}
	for (int i = 0; i < m->n; i++)
		if (m->bs[i])
			rp_branch_stats_print(m->bs[i], f);
	if (ferror(f) | (fclose(f) != 0)) {
		fprintf(m->err, "warpsim: cannot write '%s'\n", path);
		rc = -1;
	}
	return rc;
}

int cli_obs_end(CliObs *m)
{
	const RpOpts *ro = &m->o->rp;
	char err[512];
	int rc = 0;

	if (m->ended)
		return 0;
	m->ended = 1;
	if (m->tw && rp_trace_close(m->tw, err, sizeof err)) {
		fprintf(m->err, "warpsim: %s\n", err);
		rc = -1;
	} else if (m->tw && m->started && m->completed < m->n)    /* it says so at its end */
		fprintf(m->err, "warpsim: --trace: %s holds the run up to the error\n", ro->trace);
	m->tw = NULL;
	if (m->rtw && rp_trace_close(m->rtw, err, sizeof err)) {
		fprintf(m->err, "warpsim: --report: %s\n", err);
		rc = -1;
	}
	m->rtw = NULL;
	if (ro->linestats && m->ls[0] && lines_write(m))
		rc = -1;
	if (m->completed == m->n && m->bs[0] && branches_write(m))
		rc = -1;
	return rc;
}

int cli_obs_finish(CliObs *m)
{
	const RpOpts *ro;
	int rc = 0;

	if (!m)
		return 0;
	ro = &m->o->rp;
	if (m->ls && m->k && m->p && m->bs && cli_obs_end(m))
		rc = -1;
	if (m->rdir[0]) {
		remove(m->rsvg);
		rmdir(m->rdir);
	}
	if (m->bf && m->many && m->nbounded == m->n)   /* the launches run one after another */
		fprintf(m->bf, "\nall %d launches: %" PRIu64 " cycles; their bounds summed %" PRIu64
		        "; cycles / bound %.2f\n", m->n, m->csum, m->bsum,
		        m->bsum ? (double)m->csum / (double)m->bsum : 0.0);
	if (m->bf && (ferror(m->bf) | (fclose(m->bf) != 0)) && !rc) {
		fprintf(m->err, "warpsim: --bounds: error writing '%s'\n", ro->bounds);
		rc = -1;
	}
	rp_bounds_free(m->bd);
	for (int i = 0; m->ls && i < m->n; i++)
		rp_linestats_free(m->ls[i]);
	for (int i = 0; m->bs && i < m->n; i++)
		rp_branch_stats_free(m->bs[i]);
	free(m->ls);
	free(m->k);
	free(m->p);
	free(m->bs);
	free(m);
	return rc;
}

/* --report's page of several launches: a row per launch, and each kernel's code once, its
 * launches' line statistics summed; 0, or -1 after a message */
static int report_many(CliObs *m, int argc, char **argv, const char *self, const TStats *ts)
{
	RpLaunchRow *rows = calloc((size_t)m->n, sizeof *rows);
	RpKern *kerns = calloc((size_t)m->ks->n, sizeof *kerns);
	char (*which)[200] = calloc((size_t)m->ks->n, sizeof *which);
	int nk = 0, rc = -1;

	if (!rows || !kerns || !which) {
		fprintf(m->err, "warpsim: out of memory\n");
		goto out;
	}
	for (nk = 0; nk < m->ks->n; nk++) {    /* each kernel: its launches summed */
		int i = m->ks->first[nk];
		kerns[nk].p = m->p[i];
		kerns[nk].k = m->k[i];
		kerns[nk].launches = which[nk];
		if (!(kerns[nk].ls = kernel_sum(m, nk, which[nk], sizeof which[nk]))) {
			fprintf(m->err, "warpsim: out of memory\n");
			goto out;
		}
	}
	for (int i = 0; i < m->n; i++) {
		rows[i].l = sim_opts_launch(&m->o->sim, i);
		rows[i].ts = &ts[i];
	}
	CliRun run = {kerns[0].p, kerns[0].k, kerns[0].ls, &ts[m->n], m->rsvg, m->rdir, rows, m->n,
	              kerns, nk};
	rc = cli_report(m->o, argc, argv, self, &run, m->err) ? -1 : 0;
out:
	for (int i = 0; kerns && i < nk; i++)
		rp_linestats_free(kerns[i].ls);
	free(rows);
	free(kerns);
	free(which);
	return rc;
}

int cli_obs_report(CliObs *m, int argc, char **argv, const char *self, const TStats *ts)
{
	if (m->many)
		return report_many(m, argc, argv, self, ts);
	CliRun run = {m->p[0], m->k[0], m->ls[0], &ts[0], m->rsvg, m->rdir, NULL, 0, NULL, 0};
	return cli_report(m->o, argc, argv, self, &run, m->err) ? -1 : 0;
}
