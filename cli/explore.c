/* explore.c - the branches warpsim --explore flips (issue 18 part 2): the program's PTX
 * translated with the decision log once per kernel launched (cli/kernels.c's list: one for a
 * single launch), one ExploreBranch per branch the log lists, and for
 * each the --decide value that flips it, tried by translating with it (a flip that cannot
 * hold, such as predicating a side that holds a loop, keeps the translator's reason
 * instead). report/explore.c runs the variants.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

typedef struct {
	Module *m;          /* the program's PTX */
	BeOptions bo;       /* the translator's options */
	CliKernels ks;      /* the kernels launched (bo.kernel each in turn) */
	const char **launches;  /* several launches: each one's kernel (Explore.launches), or NULL */
} Ctx;

/* the instructions of p's kernels */
static long prog_size(const Prog *p)
{
	long n = 0;

	for (int i = 0; i < p->nk; i++)
		n += p->k[i].nins;
	return n;
}

/* "" when the translation with the extra --decide d (LOC=V[,LOC=V...]) succeeds, else the
 * reason of its first error; size[k] (size NULL: not asked), the instructions of kernel k's
 * translation then (c->ks's numbering) */
static void try_decide(const Ctx *c, const char *d, char *why, size_t n, long *size)
{
	BeOptions t = c->bo;
	OptCtx cx = {.dir = ""};
	const char *e;
	char *msg = NULL;
	size_t len = 0;
	FILE *f;
	Prog *p = NULL;

	t.decide = NULL;
	t.ndecide = 0;
	snprintf(why, n, "out of memory");
	for (int i = 0; i < c->bo.ndecide; i++) {      /* the user's --decide first */
		char item[300];
		snprintf(item, sizeof item, "%s=%s", c->bo.decide[i].loc, c->bo.decide[i].pred ? "pred" : "branch");
		if (be_decide_opt(&t, item, &cx, why, n))
			goto out;
	}
	if (be_decide_opt(&t, d, &cx, why, n) || !(f = open_memstream(&msg, &len)))
		goto out;
	for (int i = 0; i < c->ks.n && (!i || p); i++) {
		isa_prog_free(p);   /* several launches: every kernel launched must translate */
		t.kernel = c->ks.name[i];
		if ((p = be_translate(c->m, &t, f)) && size)
			size[i] = prog_size(p);
	}
	fclose(f);
	why[0] = 0;
	if (!p) {      /* "FILE:L:C: error: --decide #3=pred: the branch cannot ...: REASON" */
		e = msg ? strstr(msg, "error: ") : NULL;
		e = e ? e + 7 : "the translation failed";
		if (!strncmp(e, "--decide ", 9) && strstr(e, ": "))
			e = strstr(e, ": ") + 2;
		snprintf(why, n, "%.*s", (int)strcspn(e, "\n"), e);
	}
out:
	isa_prog_free(p);
	free(msg);
	be_options_free(&t);
}

static int legal(void *ctx, const char *decide)
{
	char why[200];

	try_decide(ctx, decide, why, sizeof why, NULL);
	return !why[0];
}

void cli_explore_done(Explore *x)
{
	Ctx *c = x->legal_ctx;

	if (c) {
		ptx_free(c->m);
		cli_kernels_free(&c->ks);
		free(c->launches);
		free(c);
	}
	x->legal_ctx = NULL;
	x->legal = NULL;
}

/* b[*n..] gets log's branches not in b[0..*n) yet, of the run's kernel number kern (kname,
 * or NULL for one launch) */
static void add_branches(const Module *m, const BeLog *log, ExploreBranch *b, int *n, int kern,
                         const char *kname)
{
	for (int i = 0; i < log->n; i++) {
		const BeLogEntry *e = &log->e[i];
		ExploreBranch *x = &b[*n];
		int seen = 0;
		for (int j = 0; j < *n; j++)
			seen |= b[j].index == e->index;
		if (seen || e->index <= 0)
			continue;      /* a .func translated for several kernels */
		(*n)++;
		x->index = e->index;
		x->kern = kern;
		if (kname)
			snprintf(x->kernel, sizeof x->kernel, "%s", kname);
		x->ptxline = e->ptxline;
		x->ptxcol = e->ptxcol;
		for (int u = 0; m->nunits > 1 && u < m->nunits; u++)
			if (e->ptxfile && !strcmp(e->ptxfile, m->units[u].name)) {
				x->ptxunit = u;      /* a linked program: the file, as Ins.ptxfile */
				snprintf(x->ptxfile, sizeof x->ptxfile, "%s", base(m->units[u].name));
			}
		if (e->srcline && e->srcname)
			snprintf(x->cuda, sizeof x->cuda, "%.60s:%d", base(e->srcname), e->srcline);
		else
			snprintf(x->cuda, sizeof x->cuda, "-");
		snprintf(x->shape, sizeof x->shape, "%s", e->shape);
		x->size_taken = e->size_then;
		x->size_fall = e->size_else;
		x->cost_pred = e->cost_pred;
		x->cost_branch = e->cost_branch;
		snprintf(x->compiled, sizeof x->compiled, "%s", be_decision_name(e->decision));
		_Static_assert(sizeof x->rule >= sizeof e->rule, "ExploreBranch.rule holds a reason whole");
		snprintf(x->rule, sizeof x->rule, "%s", e->rule);
		snprintf(x->uniform, sizeof x->uniform, "%s: %s", e->uniform ? "uniform" : "divergent",
		         e->why_uniform);
		x->predicated = e->decision == BD_PREDICATED;
		snprintf(x->flip, sizeof x->flip, "#%d=%s", e->index, x->predicated ? "branch" : "pred");
	}
}

static int byindex(const void *a, const void *b)
{
	const ExploreBranch *x = a, *y = b;
	return (x->index > y->index) - (x->index < y->index);
}

int cli_explore_branches(const WsOpts *o, Explore *xp, FILE *err)
{
	BeOptions bo = o->be;
	ExploreBranch *b = NULL;
	Ctx *c;
	int n = 0, cap = 0, many = o->sim.nprev > 0;
	long *size = NULL, *fs = NULL;  /* each kernel's instructions as compiled, and flipped */

	xp->b = NULL;
	xp->nb = 0;
	if (!opt_endswith(o->input, ".ptx")) {
		fprintf(err, "warpsim: --explore: %s: it translates the program once per branch, so it "
		        "needs PTX (.ptx), not a listing\n", o->input);
		return -1;
	}
	if (!(c = calloc(1, sizeof *c))) {
		fprintf(err, "warpsim: out of memory\n");
		return -1;
	}
	c->bo = o->be;
	xp->legal_ctx = c;
	if (cli_kernels(&o->sim, &c->ks, err))     /* several launches: every kernel's branches */
		goto fail;
	if (many && !(c->launches = calloc((size_t)c->ks.nlaunches, sizeof *c->launches))) {
		fprintf(err, "warpsim: out of memory\n");
		goto fail;
	}
	for (int l = 0; many && l < c->ks.nlaunches; l++)
		c->launches[l] = c->ks.name[c->ks.of[l]];
	if (!(c->m = cli_load_ptx(o->files, o->nfiles, "warpsim", err)))
		goto fail;
	if (!(size = calloc((size_t)c->ks.n, sizeof *size)) ||
	    !(fs = calloc((size_t)c->ks.n, sizeof *fs))) {
		fprintf(err, "warpsim: out of memory\n");
		goto fail;
	}
	for (int k = 0; k < c->ks.n; k++) {
		BeLog log = {0};
		Prog *p;
		ExploreBranch *nb;
		bo.kernel = c->ks.name[k];
		if (!(p = be_translate_log(c->m, &bo, err, &log))) {
			be_log_free(&log);
			goto fail;
		}
		if (!(nb = realloc(b, (size_t)(cap + log.n + 1) * sizeof *b))) {
			fprintf(err, "warpsim: out of memory\n");
			isa_prog_free(p);
			be_log_free(&log);
			goto fail;
		}
		size[k] = prog_size(p);
		isa_prog_free(p);
		b = nb;
		cap += log.n + 1;
		memset(b + n, 0, (size_t)(cap - n) * sizeof *b);
		add_branches(c->m, &log, b, &n, k, many ? c->ks.name[k] : NULL);
		be_log_free(&log);
	}
	if (many) {     /* several kernels' branches, in --explain's numbering */
		qsort(b, (size_t)n, sizeof *b, byindex);
		xp->launches = c->launches;
		xp->nlaunches = c->ks.nlaunches;
	}
	for (int i = 0; i < n; i++) {
		long d;
		try_decide(c, b[i].flip, b[i].why, sizeof b[i].why, fs);
		if (b[i].why[0]) {
			b[i].flip[0] = 0;
			continue;
		}
		/* the listing of the branch form against that of the predicated form, in the kernel
		 * the branch is numbered under: a .func's copy in each kernel that calls it issues
		 * the flip's difference once per issue, whichever kernel's copy ran */
		d = fs[b[i].kern] - size[b[i].kern];
		b[i].dsize = (int)(b[i].predicated ? d : -d);
	}
	xp->b = b;
	xp->nb = n;
	xp->legal = legal;
	free(size);
	free(fs);
	return 0;
fail:
	free(size);
	free(fs);
	free(b);
	cli_explore_done(xp);
	return -1;
}

int cli_explore_init(const WsOpts *o, int argc, char **argv, const char *self, Explore *x,
                     FILE *err)
{
	char **args;
	int nargs;

	if (cli_explore_branches(o, x, err))
		return -1;
	if (!(args = cli_warpsim_point_args(o, argc, argv, &nargs))) {
		cli_explore_done(x);
		rp_explore_free(x);
		return -1;
	}
	x->self = self;
	x->args = args;
	x->nargs = nargs;
	x->jobs = o->rp.jobs ? o->rp.jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	x->err = err;
	x->exhaustive_max = o->rp.explore_exhaustive;
	x->program = o->input;
	x->shard = o->rp.shard;
	x->nshards = o->rp.nshards;
	x->slices = o->rp.explore_slices;
	x->nslices = o->rp.nexplore_slices;
	return 0;
}
