/* explore.c - the branches warpsim --explore flips (issue 18 part 2): the program's PTX
 * translated once with the decision log, one ExploreBranch per branch the log lists, and for
 * each the --decide value that flips it, tried by translating with it (a flip that cannot
 * hold, such as predicating a side that holds a loop, keeps the translator's reason
 * instead). report/explore.c runs the variants.
 */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* "" when the translation with the extra --decide d (LOC=pred|branch) succeeds, else the
 * reason of its first error */
static void try_flip(const Module *m, const BeOptions *bo, const char *d, char *why, size_t n)
{
	BeOptions t = *bo;
	BeDecide *all = malloc(((size_t)bo->ndecide + 1) * sizeof *all);
	const char *eq = strrchr(d, '='), *e;
	char *msg = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&msg, &len);
	Prog *p = NULL;

	snprintf(why, n, "out of memory");
	if (all && f && eq && (all[bo->ndecide].loc = strndup(d, (size_t)(eq - d)))) {
		if (bo->ndecide)
			memcpy(all, bo->decide, (size_t)bo->ndecide * sizeof *all);
		all[bo->ndecide].pred = !strcmp(eq + 1, "pred");
		t.decide = all;
		t.ndecide = bo->ndecide + 1;
		p = be_translate(m, &t, f);
		fflush(f);
		why[0] = 0;
		if (!p) {      /* "FILE:L:C: error: --decide #3=pred: the branch cannot ...: REASON" */
			e = msg ? strstr(msg, "error: ") : NULL;
			e = e ? e + 7 : "the translation failed";
			if (!strncmp(e, "--decide ", 9) && strstr(e, ": "))
				e = strstr(e, ": ") + 2;
			snprintf(why, n, "%.*s", (int)strcspn(e, "\n"), e);
		}
		free(all[bo->ndecide].loc);
	}
	isa_prog_free(p);
	if (f)
		fclose(f);
	free(msg);
	free(all);
}

int cli_explore_branches(const WsOpts *o, ExploreBranch **out, int *nout, FILE *err)
{
	BeOptions bo = o->be;
	BeLog log = {0};
	char *text;
	Module *m;
	Prog *p;
	ExploreBranch *b;
	int n = 0;

	*out = NULL;
	*nout = 0;
	if (strlen(o->input) < 4 || strcmp(o->input + strlen(o->input) - 4, ".ptx")) {
		fprintf(err, "warpsim: --explore: %s: it translates the program once per branch, so it "
		        "needs PTX (.ptx), not a listing\n", o->input);
		return -1;
	}
	if (!(text = rp_read_text(o->input))) {
		fprintf(err, "warpsim: cannot read '%s'\n", o->input);
		return -1;
	}
	m = ptx_parse(o->input, text, strlen(text), err, NULL);
	free(text);
	if (!m)
		return -1;
	if (!(p = be_translate_log(m, &bo, err, &log))) {
		ptx_free(m);
		be_log_free(&log);
		return -1;
	}
	isa_prog_free(p);
	if (!(b = calloc((size_t)log.n + 1, sizeof *b))) {
		ptx_free(m);
		be_log_free(&log);
		return -1;
	}
	for (int i = 0; i < log.n; i++) {
		const BeLogEntry *e = &log.e[i];
		ExploreBranch *x = &b[n];
		int seen = 0;
		for (int j = 0; j < n; j++)
			seen |= b[j].index == e->index;
		if (seen || e->index <= 0)
			continue;      /* a .func translated for several kernels */
		n++;
		x->index = e->index;
		x->ptxline = e->ptxline;
		x->ptxcol = e->ptxcol;
		if (e->srcline && e->srcname)
			snprintf(x->cuda, sizeof x->cuda, "%.60s:%d", base(e->srcname), e->srcline);
		else
			snprintf(x->cuda, sizeof x->cuda, "-");
		snprintf(x->shape, sizeof x->shape, "%s", e->shape);
		snprintf(x->compiled, sizeof x->compiled, "%s", be_decision_name(e->decision));
		x->predicated = e->decision == BD_PREDICATED;
		snprintf(x->flip, sizeof x->flip, "#%d=%s", e->index, x->predicated ? "branch" : "pred");
		try_flip(m, &bo, x->flip, x->why, sizeof x->why);
		if (x->why[0])
			x->flip[0] = 0;
	}
	be_log_free(&log);
	ptx_free(m);
	*out = b;
	*nout = n;
	return 0;
}
