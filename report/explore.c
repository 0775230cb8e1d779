/* explore.c - warpsim --explore (issue 18 part 2): what each executed conditional branch's
 * decision is worth. The program runs once as compiled and once per branch with only that
 * branch's decision flipped (--decide #N=pred|branch), as the points of a sweep (sweep.c: -j
 * processes at a time, every point's --out buffers compared with the first's). Each point
 * also counts, per PTX branch, what its guarded control instruction did (the child's side,
 * a TraceSink writing branches.txt): so a branch's executions, divergence and lanes come from
 * the run in which it is a branch (as compiled, or its flip when it was predicated).
 * docs/explore.md describes the table and the JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

/* ------------------------------------------------------------------ the child's side */
typedef struct {
	uint64_t n, div, active, jump;   /* issues, issues that split the warp, lanes, guard-true lanes */
	uint64_t whole;                  /* issues whose every active lane jumped */
} BrAcc;

struct BranchStats {
	const Kernel *k;
	BrAcc *acc;                      /* per instruction */
};

static int counted(const Ins *in)
{
	return in->guard != ISA_PT && in->ptxline > 0 &&
	       ((isa_ops[in->op].flags & F_BRANCH) || in->sync);
}

static void br_issue(void *ctx, const TraceIssue *t)
{
	BranchStats *b = ctx;
	uint32_t i = (uint32_t)isa_kernel_index(b->k, t->e->pc);
	BrAcc *a;

	if (i >= (uint32_t)b->k->nins || !counted(&b->k->ins[i]))
		return;
	a = &b->acc[i];
	a->n++;
	a->div += t->e->diverged != 0;
	a->active += (uint64_t)__builtin_popcount(t->e->active);
	a->jump += (uint64_t)__builtin_popcount(t->e->exec & t->e->active);
	a->whole += t->e->active && (t->e->exec & t->e->active) == t->e->active;
}

BranchStats *rp_branch_stats_new(const Kernel *k)
{
	BranchStats *b = calloc(1, sizeof *b);

	if (!b || !(b->acc = calloc((size_t)(k->nins ? k->nins : 1), sizeof *b->acc))) {
		free(b);
		return NULL;
	}
	b->k = k;
	return b;
}

void rp_branch_stats_sink(BranchStats *b, TraceSink *s)
{
	memset(s, 0, sizeof *s);
	s->issue = br_issue;
	s->ctx = b;
}

/* one line per PTX line that has a counted instruction, from the first such instruction:
 * "PTXLINE ISSUES DIVERGED LANES GUARD_TRUE_LANES WHOLE_JUMPS", the line as FILE:PTXLINE for a
 * line of file FILE > 0 of a program linked from several (Ins.ptxfile) */
void rp_branch_stats_print(BranchStats *b, FILE *f)
{
	const Kernel *k = b->k;

	for (int i = 0; i < k->nins; i++) {
		int first = counted(&k->ins[i]);
		for (int j = 0; first && j < i; j++)
			first = !(counted(&k->ins[j]) && k->ins[j].ptxline == k->ins[i].ptxline &&
			          k->ins[j].ptxfile == k->ins[i].ptxfile);
		if (first && k->ins[i].ptxfile)
			fprintf(f, "%d:", k->ins[i].ptxfile);
		if (first)
			fprintf(f, "%d %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			        k->ins[i].ptxline, b->acc[i].n, b->acc[i].div, b->acc[i].active, b->acc[i].jump,
			        b->acc[i].whole);
	}
}

void rp_branch_stats_free(BranchStats *b)
{
	if (b)
		free(b->acc);
	free(b);
}

/* ------------------------------------------------------------------ the parent's side */
static const SweepPoint *measured_in(const Explore *x, const ExploreBranch *b)
{
	int p = b->predicated ? b->point : 0;
	return p >= 0 && x->pts[p].ok ? &x->pts[p] : NULL;
}

/* the counts of the branch on PTX line `line` of file `file` in a point's branches.txt, summed
 * over its lines (a point of several launches lists it once per launch of a kernel that has it) */
static int find_counts(const char *text, int file, int line, ExploreBranch *b)
{
	const char *s = text;
	int found = 0;

	while (s && *s) {
		int l, fl = 0, at = 0;
		uint64_t n, d, a, j, w;
		if (sscanf(s, "%d:%n", &fl, &at) == 1 && at)
			s += at;                /* FILE: */
		else
			fl = 0;
		if (sscanf(s, "%d %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &l, &n, &d, &a, &j,
		           &w) == 6 && l == line && fl == file) {
			if (!found)
				b->execs = b->diverged = b->lanes = b->jump = b->whole = 0;
			b->execs += n, b->diverged += d, b->lanes += a, b->jump += j, b->whole += w;
			found = 1;
		}
		s = strchr(s, '\n');
		s = s ? s + 1 : NULL;
	}
	return found;
}

int rp_explore_points(const Explore *x, char **vals, int n, int counts, SweepSpec *sp,
                      SweepPoint **pts)
{
	char **av = calloc((size_t)x->nargs + 2, sizeof *av);
	int rc = 1;

	memset(sp, 0, sizeof *sp);
	*pts = NULL;
	if (!av || !(sp->key = strdup("")) || !(sp->vals = calloc((size_t)n + 1, sizeof *sp->vals)) ||
	    !(sp->vals[0] = strdup("")) || !(*pts = calloc((size_t)n + 1, sizeof **pts))) {
		fprintf(x->err, "warpsim: --explore: out of memory\n");
		for (int i = 0; i < n; i++)
			free(vals[i]);
		sp->nvals = sp->vals && sp->vals[0];      /* what rp_sweep_free must free */
		goto out;
	}
	memcpy(sp->vals + 1, vals, (size_t)n * sizeof *vals);
	sp->nvals = n + 1;
	sp->jobs = x->jobs < 1 ? 1 : x->jobs;
	sp->shard = x->shard;
	sp->nshards = x->nshards;
	/* no sp->outs: the variants' buffers are compared, not kept */
	memcpy(av, x->args, (size_t)x->nargs * sizeof *av);
	if (counts) {
		sp->extra = "branches.txt";
		av[x->nargs] = "--sweep-branches";
	}
	rc = rp_sweep_run(x->self, av, x->nargs + !!counts, sp, *pts, x->err);
out:
	free(av);
	free(vals);
	return rc;
}

/* --explore-merge: the runs of vals[0..n) (taken over) from the slices' files, which must be
 * of this exploration: the same program, arguments and variants */
static int merged(Explore *x, char **vals, int n)
{
	SweepWhat w;
	int rc = rp_sweep_load(x->slices, x->nslices, "--explore-merge", &x->spec, &x->pts, &w, x->err);
	int same = rc >= 0;

	if (same) {
		same = !x->spec.key[0] && x->spec.nvals == n + 1 && !x->spec.vals[0][0] &&
		       !strcmp(w.program, x->program) && w.nargs == x->nargs;
		for (int k = 0; same && k < x->nargs; k++)
			same = !strcmp(w.args[k], x->args[k]);
		for (int i = 0; same && i < n; i++)
			same = !strcmp(x->spec.vals[i + 1], vals[i]);
		if (!same)
			fprintf(x->err, "warpsim: --explore-merge: %s: the slices are of another exploration "
			        "(the program, its arguments or its variants differ from this command's)\n",
			        x->slices[0]);
		rp_sweep_what_free(&w);
	}
	if (!same && x->pts) {
		rp_sweep_points_free(x->pts, x->spec.nvals);
		x->pts = NULL;
	}
	for (int i = 0; i < n; i++)
		free(vals[i]);
	free(vals);
	return same ? rc : 1;
}

int rp_explore_run(Explore *x)
{
	char **vals = calloc((size_t)x->nb + 1, sizeof *vals);
	int n = 0;

	if (!vals)
		return x->rc = 1;
	for (int i = 0; i < x->nb; i++) {
		ExploreBranch *b = &x->b[i];
		char w[64];
		b->point = -1;
		if (b->flip[0]) {
			snprintf(w, sizeof w, "--decide %s", b->flip);
			if (!(vals[n] = strdup(w)))
				break;
			b->point = ++n;
		}
	}
	x->rc = x->nslices ? merged(x, vals, n) : rp_explore_points(x, vals, n, 1, &x->spec, &x->pts);
	for (int i = 0; x->pts && i < x->nb; i++) {
		ExploreBranch *b = &x->b[i];
		const SweepPoint *p = measured_in(x, b);
		b->measured = p && p->extra && find_counts(p->extra, b->ptxunit, b->ptxline, b);
	}
	return x->rc;
}

static double simd(const SweepPoint *p)
{
	return p->warp_insts ? (double)p->thread_insts / (32.0 * (double)p->warp_insts) : 0.0;
}

/* what the cost model predicts flipping b changes: cycles per warp execution times the
 * executions; 0 when it has no prediction */
int rp_explore_predicted(const ExploreBranch *b, double *d)
{
	if (b->cost_pred < 0 || !b->measured)
		return 0;
	*d = (double)(b->predicated ? b->cost_branch - b->cost_pred : b->cost_pred - b->cost_branch) *
	     (double)b->execs;
	return 1;
}

/* The model: what flipping b changes in warp instructions, from its counts in the run where
 * it is a branch (each issue of its branch instruction split the warp, jumped whole or fell
 * through whole) and the two listings (dsize: the instructions of the branch form less those
 * of the predicated form), then in cycles at the run's own cost of a warp instruction (cycles
 * / warp instructions as compiled). A warp that meets the predicated form issues all of its
 * code; one that meets the branch form issues all of it when it splits, and skips a side when
 * it goes one way whole: an if-then's f instructions after the branch when it jumps; an
 * if-then-else's f and the BRA over the taken side when it jumps, the t of the taken side when
 * it falls through. So per issue the branch form issues dsize more, less what it skips. The
 * sides' sizes are --explain's. It sees neither latency nor the overlap of warps: a flip whose
 * cost is one warp's wait on its path shows as its instructions only.
 * per_issue: the model's warp instructions per issue of b, the flipped form's less the
 * compiled form's, for an issue that split the warp, jumped whole and fell through whole; 0
 * when it has no prediction (a shape other than if-then and if-then-else, no variant, no
 * counts). */
static int per_issue(const Explore *x, const ExploreBranch *b, int d[3])
{
	int ite = !strcmp(b->shape, "if-then-else"), t = b->size_taken, f = b->size_fall, sgn;

	if (!b->measured || !b->flip[0] || t < 0 || f < 0 || !x->pts[0].ok || !x->pts[0].warp_insts ||
	    (!ite && strcmp(b->shape, "if-then")))
		return 0;
	sgn = b->predicated ? 1 : -1;   /* (the formula is the branch form's against the other) */
	d[0] = sgn * b->dsize;
	d[1] = sgn * (b->dsize - f - ite);
	d[2] = sgn * (b->dsize - (ite ? t : 0));
	return 1;
}

int rp_explore_profile(const Explore *x, const ExploreBranch *b, double *dw, double *dc)
{
	int d[3];

	if (!per_issue(x, b, d))
		return 0;
	*dw = (double)b->diverged * d[0] + (double)b->whole * d[1] +
	      (double)(b->execs - b->diverged - b->whole) * d[2];
	*dc = *dw * rp_explore_cpi(x);
	return 1;
}

double rp_explore_cpi(const Explore *x)
{
	const SweepPoint *p = &x->pts[0];

	return p->ok && p->warp_insts ? (double)p->cycles / (double)p->warp_insts : 0;
}

int rp_explore_account(const Explore *x, const ExploreBranch *b, char *buf, size_t n)
{
	static const char *how[3] = {"split", "jumped whole", "fell through whole"};
	uint64_t c[3] = {b->diverged, b->whole, b->execs - b->diverged - b->whole};
	int d[3], m = 0;

	buf[0] = 0;
	if (!per_issue(x, b, d))
		return 0;
	for (int i = 0; i < 3; i++)
		if (c[i] && (size_t)m < n)
			m += snprintf(buf + m, n - (size_t)m, "%s%" PRIu64 " %s, %+d each", m ? "; " : "",
			              c[i], how[i], d[i]);
	return 1;
}

void rp_explore_model(const Explore *x, int profile, double *r, int *n, int *agree)
{
	double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;

	*n = *agree = 0;
	*r = 0;
	for (int i = 0; i < x->nb; i++) {
		int64_t dc;
		double p, w;
		const ExploreBranch *b = &x->b[i];
		if (!b->measured || !b->execs || b->point < 0 || !x->pts[b->point].ok || !x->pts[0].ok ||
		    !(profile ? rp_explore_profile(x, b, &w, &p) : rp_explore_predicted(b, &p)))
			continue;
		dc = (int64_t)x->pts[b->point].cycles - (int64_t)x->pts[0].cycles;
		sx += p, sy += (double)dc, sxx += p * p, syy += (double)dc * (double)dc, sxy += p * (double)dc;
		*agree += (p < 0) == (dc < 0);
		(*n)++;
	}
	if (*n > 1) {
		double vx = sxx - sx * sx / *n, vy = syy - sy * sy / *n;
		*r = vx > 0 && vy > 0 ? (sxy - sx * sy / *n) / sqrt(vx * vy) : NAN;
	}
}

/* what flipping b did, against the run as compiled; 0 when its variant did not run */
int rp_explore_delta(const Explore *x, const ExploreBranch *b, int64_t *dc, int64_t *dw, double *ds)
{
	const SweepPoint *p, *base = &x->pts[0];

	if (b->point < 0 || !x->pts[b->point].ok || !base->ok)
		return 0;
	p = &x->pts[b->point];
	*dc = (int64_t)p->cycles - (int64_t)base->cycles;
	*dw = (int64_t)p->warp_insts - (int64_t)base->warp_insts;
	*ds = simd(p) - simd(base);
	return 1;
}

int rp_explore_stalls(const Explore *x, const ExploreBranch *b, int64_t d[RP_NSTALL])
{
	const SweepPoint *p, *base = &x->pts[0];

	if (b->point < 0 || !x->pts[b->point].ok || !base->ok || !base->stalls || !x->pts[b->point].stalls)
		return 0;
	p = &x->pts[b->point];
	for (int k = 0; k < RP_NSTALL; k++)
		d[k] = (int64_t)p->stall[k] - (int64_t)base->stall[k];
	return 1;
}

int rp_explore_where(const Explore *x, const ExploreBranch *b, char *buf, size_t n)
{
	static const char *what[RP_NSTALL] = {
		"waiting on arithmetic", "waiting on memory", "pipelines busy", "control waits",
		"barrier waits", "with no warp to issue",
	};
	int64_t d[RP_NSTALL];
	int m = 0;

	buf[0] = 0;
	if (!rp_explore_stalls(x, b, d))
		return 0;
	for (int k = 0; k < RP_NSTALL; k++)
		if (d[k] && (size_t)m < n)
			m += snprintf(buf + m, n - (size_t)m, "%s%+" PRId64 " %s", m ? ", " : "", d[k], what[k]);
	if (!m)
		snprintf(buf, n, "no change");
	return 1;
}

/* "LINE:COL", or "FILE:LINE:COL" in a program linked from several PTX files */
static const char *branch_loc(const ExploreBranch *b, char *buf, size_t n)
{
	if (b->ptxfile[0])
		snprintf(buf, n, "%s:%d:%d", b->ptxfile, b->ptxline, b->ptxcol);
	else
		snprintf(buf, n, "%d:%d", b->ptxline, b->ptxcol);
	return buf;
}

/* the table's second part: where each flip's d.cycles went (rp_explore_stalls), a row per
 * executed branch whose variant ran with the timing model, the columns as wide as they need;
 * indented under its heading, so that a row of the first part is still one that begins with
 * "  #N" */
static void where_table(FILE *f, const Explore *x)
{
	int w[RP_NSTALL + 1], rows = 0;
	int64_t d[RP_NSTALL + 1], dc;
	double ds;

	rp_where_widths(w);
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < x->nb; i++) {
			const ExploreBranch *b = &x->b[i];
			if ((b->measured && !b->execs) || !rp_explore_delta(x, b, &dc, &d[0], &ds) ||
			    !rp_explore_stalls(x, b, d + 1))
				continue;
			if (pass)
				fprintf(f, "    #%-3d", b->index);
			rp_where_cells(pass ? f : NULL, w, d, 1);
			rows++;
		}
		if (!rows)
			return;
		if (!pass) {
			fprintf(f, "  where d.cycles went, in scheduler-cycles (the flip's run less the program as "
			        "compiled): the warp\n  instructions issued, then the cycles a scheduler issued "
			        "none, by what its first warp waited on\n  (--stats-json's stall_* counts)\n    %-4s", "#");
			rp_where_head(f, w);
		}
	}
}

int rp_explore_score(const Explore *x, int profile, char *buf, size_t len)
{
	double r;
	int n, agree, m;

	rp_explore_model(x, profile, &r, &n, &agree);
	if (profile)
		m = snprintf(buf, len, "model (this run's branch counts and both listings, at %.2f "
		             "cycles a warp instruction)", rp_explore_cpi(x));
	else
		m = snprintf(buf, len, "static cost model (--explain's, times the executions)");
	if (m > 0 && (size_t)m < len)
		m += snprintf(buf + m, len - (size_t)m, ": right about whether the flip pays for %d of "
		              "%d branch%s", agree, n, n == 1 ? "" : "es");
	if (n > 1 && m > 0 && (size_t)m < len)
		snprintf(buf + m, len - (size_t)m, isnan(r) ? "; no correlation (the predictions or "
		         "d.cycles do not vary)" : "; correlation with d.cycles %.2f", r);
	return n;
}

void rp_explore_table(FILE *f, const Explore *x, const char *program)
{
	const SweepPoint *base = &x->pts[0];
	int wc = 4, wp = 7, shown = 0, pays = 0, never = 0;
	char ptx[96];

	fprintf(f, "warpsim: explore %s: %d branch%s, %d variant%s besides the program as compiled\n",
	        program, x->nb, x->nb == 1 ? "" : "es", x->spec.nvals - 1, x->spec.nvals == 2 ? "" : "s");
	if (!base->ok) {
		fprintf(f, "  the program as compiled did not run\n");
		return;
	}
	fprintf(f, "  as compiled: %" PRIu64 " cycles, %" PRIu64 " warp instructions, SIMD efficiency "
	        "%.4f\n", base->cycles, base->warp_insts, simd(base));
	for (int i = 0; i < x->nb; i++) {
		if ((int)strlen(x->b[i].cuda) > wc)
			wc = (int)strlen(x->b[i].cuda);
		if ((int)strlen(branch_loc(&x->b[i], ptx, sizeof ptx)) > wp)
			wp = (int)strlen(ptx);
	}
	fprintf(f, "  %-4s %-*s %-*s %-16s %-7s %6s %9s %11s %17s %12s %8s %9s %s\n", "#", wp, "PTX", wc,
	        "CUDA", "as compiled", "flip", "execs", "diverged", "lanes j/f", "d.cycles", "d.warp-insts",
	        "d.SIMD", "model", "pays");
	for (int i = 0; i < x->nb; i++) {
		const ExploreBranch *b = &x->b[i];
		char idx[16], lanes[32] = "-", dcs[40] = "-", dws[24] = "-", dss[24] = "-", mod[24] = "-";
		int64_t dc = 0, dw = 0;
		double ds = 0, pd, pw;
		int have = rp_explore_delta(x, b, &dc, &dw, &ds);
		if (have && rp_explore_profile(x, b, &pw, &pd))
			snprintf(mod, sizeof mod, "%+.0f", pd);
		if (b->measured && !b->execs) {
			never++;       /* listed below */
			continue;
		}
		shown++;
		snprintf(idx, sizeof idx, "#%d", b->index);
		branch_loc(b, ptx, sizeof ptx);
		if (b->measured)
			snprintf(lanes, sizeof lanes, "%.1f/%.1f", (double)b->jump / (double)b->execs,
			         (double)(b->lanes - b->jump) / (double)b->execs);
		if (have) {
			snprintf(dcs, sizeof dcs, "%+" PRId64 " (%+.2f%%)", dc, 100.0 * (double)dc / (double)base->cycles);
			snprintf(dws, sizeof dws, "%+" PRId64, dw);
			snprintf(dss, sizeof dss, "%+.4f", ds);
			pays += dc < 0;
		}
		fprintf(f, "  %-4s %-*s %-*s %-16s %-7s ", idx, wp, ptx, wc, b->cuda, b->compiled,
		        b->flip[0] ? (b->predicated ? "branch" : "pred") : "-");
		if (b->measured)
			fprintf(f, "%6" PRIu64 " %8.1f%% ", b->execs, 100.0 * (double)b->diverged / (double)b->execs);
		else
			fprintf(f, "%6s %9s ", "-", "-");
		fprintf(f, "%11s %17s %12s %8s %9s %s\n", lanes, dcs, dws, dss, mod,
		        !have ? (b->flip[0] ? "(the variant failed)" : b->why) : dc < 0 ? "yes" : "no");
	}
	where_table(f, x);
	fprintf(f, "  %d executed branch%s; flipping pays for %d\n", shown, shown == 1 ? "" : "es", pays);
	for (int profile = 1; profile >= 0; profile--) {
		char score[256];
		if (rp_explore_score(x, profile, score, sizeof score))
			fprintf(f, "  %s\n", score);
	}
	for (int i = 0, n = 0; i < x->nb; i++)
		if (x->b[i].measured && !x->b[i].execs)
			fprintf(f, "%s #%d", n++ ? "," : "  never executed:", x->b[i].index);
	if (never)
		fputc('\n', f);
	if (x->rc == 0 && base->nbufs)
		fprintf(f, "  every variant left the same memory as the program as compiled (%d buffer%s "
		        "compared)\n", base->nbufs, base->nbufs == 1 ? "" : "s");
	if (!x->nheur)
		return;
	if (!x->nf)
		fprintf(f, "  best decisions: no executed branch has a variant: the program as compiled\n");
	else
		fprintf(f, "  best decisions (%s over %d branch%s, %d vector%s translated, %d feasible): %s: "
		        "%" PRIu64 " cycles (%+.2f%% against the program as compiled)\n",
		        x->exhaustive ? "every combination" : "coordinate descent", x->nf,
		        x->nf == 1 ? "" : "es", x->tried, x->tried == 1 ? "" : "s", x->feasible, x->best,
		        x->best_cycles, 100.0 * ((double)x->best_cycles - (double)base->cycles) / (double)base->cycles);
	fprintf(f, "  regret, %% cycles above the best run (%" PRIu64 "):\n    as compiled %+.2f%%",
	        x->best_all, x->best_all ? 100.0 * ((double)base->cycles - (double)x->best_all) / (double)x->best_all : 0);
	for (int i = 0, col = 0; i < x->nheur; i++) {
		const ExploreHeur *h = &x->heur[i];
		int thr = strcmp(h->name, "fermi") && strcmp(h->name, "kepler");
		if (thr && (col == 0 || col == 6)) {
			fputs("\n    predicate-max", f);
			col = 1;
		} else if (thr)
			col++;
		if (!h->ok)
			fprintf(f, "  %s failed", h->name);
		else
			fprintf(f, "  %s%s %+.2f%%", h->name, thr ? ":" : "", h->regret);
	}
	fputc('\n', f);
}

int rp_explore_json(const char *path, const Explore *x, const char *program, FILE *err)
{
	FILE *f = fopen(path, "w");
	const SweepPoint *base = &x->pts[0];

	if (!f) {
		fprintf(err, "warpsim: --explore-json: cannot write '%s': %s\n", path, strerror(errno));
		return -1;
	}
	fputs("{\"schema\": \"warpsim-explore/1\", \"program\": ", f);
	opt_json_str(f, program);
	if (x->nlaunches) {     /* several launches: each one's kernel */
		fputs(", \"launches\": [", f);
		for (int i = 0; i < x->nlaunches; i++) {
			fputs(i ? ", " : "", f);
			opt_json_str(f, x->launches[i]);
		}
		fputs("]", f);
	}
	fprintf(f, ",\n \"compiled\": {\"ok\": %s, \"cycles\": %" PRIu64 ", \"warp_insts\": %" PRIu64
	        ", \"simd_efficiency\": %.6f},\n \"same_memory\": %s,\n \"branches\": [",
	        base->ok ? "true" : "false", base->cycles, base->warp_insts, simd(base),
	        x->rc == 0 ? "true" : "false");
	for (int i = 0; i < x->nb; i++) {
		const ExploreBranch *b = &x->b[i];
		int64_t dc = 0, dw = 0;
		double ds = 0;
		int have = rp_explore_delta(x, b, &dc, &dw, &ds);
		fprintf(f, "%s\n  {\"index\": %d, ", i ? "," : "", b->index);
		if (b->kernel[0]) {             /* several launches: its kernel */
			fputs("\"kernel\": ", f);
			opt_json_str(f, b->kernel);
			fputs(", ", f);
		}
		if (b->ptxfile[0]) {            /* a program linked from several PTX files */
			fputs("\"ptx_file\": ", f);
			opt_json_str(f, b->ptxfile);
			fputs(", ", f);
		}
		fprintf(f, "\"ptx_line\": %d, \"ptx_col\": %d, \"cuda\": ", b->ptxline, b->ptxcol);
		opt_json_str(f, b->cuda);
		fputs(", \"shape\": ", f);
		opt_json_str(f, b->shape);
		if (b->size_taken >= 0 && b->size_fall >= 0)
			fprintf(f, ", \"size_taken\": %d, \"size_fallthrough\": %d", b->size_taken, b->size_fall);
		else
			fputs(", \"size_taken\": null, \"size_fallthrough\": null", f);
		fputs(", \"compiled\": ", f);
		opt_json_str(f, b->compiled);
		fputs(", \"flip\": ", f);
		if (b->flip[0])
			opt_json_str(f, b->predicated ? "branch" : "pred");
		else
			fputs("null", f);
		fputs(", \"why_not\": ", f);
		opt_json_str(f, b->flip[0] ? "" : b->why);
		if (b->measured)
			fprintf(f, ", \"execs\": %" PRIu64 ", \"diverged\": %" PRIu64 ", \"lanes\": %" PRIu64
			        ", \"guard_true_lanes\": %" PRIu64 ", \"whole_jumps\": %" PRIu64, b->execs,
			        b->diverged, b->lanes, b->jump, b->whole);
		else
			fputs(", \"execs\": null", f);
		{
			double pd, pw;
			if (rp_explore_predicted(b, &pd))
				fprintf(f, ", \"cost_pred\": %d, \"cost_branch\": %d, \"predicted_delta_cycles\": %.0f",
				        b->cost_pred, b->cost_branch, pd);
			else
				fputs(", \"cost_pred\": null, \"cost_branch\": null, \"predicted_delta_cycles\": null", f);
			if (b->flip[0])
				fprintf(f, ", \"listing_delta\": %d", b->dsize);
			else
				fputs(", \"listing_delta\": null", f);
			if (rp_explore_profile(x, b, &pw, &pd)) {
				char acc[160];
				rp_explore_account(x, b, acc, sizeof acc);
				fprintf(f, ", \"model_delta_warp_insts\": %.0f, \"model_delta_cycles\": %.0f, "
				        "\"model_account\": ", pw, pd);
				opt_json_str(f, acc);
			} else
				fputs(", \"model_delta_warp_insts\": null, \"model_delta_cycles\": null, "
				      "\"model_account\": null", f);
		}
		if (have) {
			int64_t st[RP_NSTALL];
			fprintf(f, ", \"delta_cycles\": %" PRId64 ", \"delta_warp_insts\": %" PRId64
			        ", \"delta_simd_efficiency\": %.6f, \"delta_stalls\": ", dc, dw, ds);
			if (rp_explore_stalls(x, b, st))
				for (int k = 0; k < RP_NSTALL; k++)
					fprintf(f, "%s\"%s\": %" PRId64 "%s", k ? ", " : "{", rp_stall_col(k), st[k],
					        k + 1 < RP_NSTALL ? "" : "}");
			else
				fputs("null", f);
			fprintf(f, ", \"pays\": %s}", dc < 0 ? "true" : "false");
		} else
			fputs(", \"delta_cycles\": null}", f);
	}
	fputs("\n],\n \"search\": ", f);
	if (x->nheur) {
		fprintf(f, "{\"method\": \"%s\", \"branches\": [", x->exhaustive ? "exhaustive" : "coordinate-descent");
		for (int k = 0; k < x->nf; k++)
			fprintf(f, "%s%d", k ? ", " : "", x->b[x->f[k]].index);
		fprintf(f, "], \"tried\": %d, \"feasible\": %d, \"best\": ", x->tried, x->feasible);
		opt_json_str(f, x->best);
		fprintf(f, ", \"best_cycles\": %" PRIu64 ", \"best_run_cycles\": %" PRIu64 "},\n \"rules\": [",
		        x->best_cycles, x->best_all);
		for (int i = 0; i < x->nheur; i++) {
			fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
			opt_json_str(f, x->heur[i].name);
			fputs(", \"args\": ", f);
			opt_json_str(f, x->heur[i].args);
			if (x->heur[i].ok)
				fprintf(f, ", \"cycles\": %" PRIu64 ", \"regret_pct\": %.4f}", x->heur[i].cycles, x->heur[i].regret);
			else
				fputs(", \"cycles\": null, \"regret_pct\": null}", f);
		}
		fputs("\n]}\n", f);
	} else
		fputs("null, \"rules\": null}\n", f);
	if (fclose(f)) {
		fprintf(err, "warpsim: --explore-json: error writing '%s'\n", path);
		return -1;
	}
	return 0;
}

void rp_explore_free(Explore *x)
{
	free(x->f);
	free(x->best);
	x->f = NULL;
	x->best = NULL;
	if (x->pts)
		rp_sweep_points_free(x->pts, x->spec.nvals);
	x->pts = NULL;
	x->spec.extra = NULL;
	x->spec.outs = NULL;
	rp_sweep_free(&x->spec);
	free(x->b);
	x->b = NULL;
}
