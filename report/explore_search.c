/* explore_search.c - warpsim --explore's search (issue 18 part 3): the decision vector over
 * the executed branches that have a variant which runs in the fewest cycles, and what each
 * rule costs against the best run (its regret). Up to --explore-exhaustive branches (12), every
 * combination runs; beyond, coordinate descent: from the best of the program as compiled and
 * its single flips, flip each branch of the current vector, move to the best one that pays,
 * until none does (a local optimum; docs/explore.md). A vector the translator refuses (an
 * outer hammock predicated around an inner branch) is skipped. Every run is a sweep point
 * (sweep.c), compared with the program as compiled: the same memory, or a loud error.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

/* bit k of a vector: branch f[k] predicated */
static void vec_decide(const Explore *x, uint32_t v, char *out, size_t n)
{
	size_t o = 0;

	out[0] = 0;
	for (int k = 0; k < x->nf && o < n; k++)
		o += (size_t)snprintf(out + o, n - o, "%s#%d=%s", k ? "," : "", x->b[x->f[k]].index,
		                      v >> k & 1 ? "pred" : "branch");
}

/* runs the vectors v[0..n) (and the program as compiled first, to compare the memory with);
 * cyc[i] gets each one's cycles, 0 when it could not be translated or failed */
static int run_vectors(Explore *x, const uint32_t *v, int n, uint64_t *cyc, const char *self,
                       char *const *args, int nargs, int jobs, FILE *err)
{
	SweepSpec sp = {0};
	SweepPoint *pts;
	int *at = calloc((size_t)n, sizeof *at), np = 1, rc;
	char d[512], w[600];

	sp.key = strdup("");
	sp.vals = calloc((size_t)n + 1, sizeof *sp.vals);
	pts = calloc((size_t)n + 1, sizeof *pts);
	if (!at || !sp.key || !sp.vals || !pts || !(sp.vals[0] = strdup(""))) {
		free(at), free(pts), rp_sweep_free(&sp);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		vec_decide(x, v[i], d, sizeof d);
		x->tried++;
		at[i] = -1;
		cyc[i] = 0;
		if (x->legal && !x->legal(x->legal_ctx, d))
			continue;
		x->feasible++;
		snprintf(w, sizeof w, "--decide %s", d);
		if (!(sp.vals[np] = strdup(w)))
			break;
		at[i] = np++;
	}
	sp.nvals = np;
	sp.jobs = jobs < 1 ? 1 : jobs;
	rc = rp_sweep_run(self, args, nargs, &sp, pts, err);
	for (int i = 0; i < n; i++)
		if (at[i] > 0 && pts[at[i]].ok)
			cyc[i] = pts[at[i]].cycles;
	rp_sweep_points_free(pts, np);
	rp_sweep_free(&sp);
	free(at);
	return rc;
}

/* the rules: the Programming Guide's (fermi.cfg), ptxas 11.8's for sm_35 (kepler.cfg), and
 * one threshold T for both kinds of branch, T = 0 .. 16 and inf */
static void rules(Explore *x)
{
	x->nheur = 0;
	snprintf(x->heur[x->nheur].name, sizeof x->heur[0].name, "fermi");
	snprintf(x->heur[x->nheur++].args, sizeof x->heur[0].args, "--predicate-rule guide "
	         "--predicate-max 7 --predicate-max-uniform 4 --loop-sync ssy");
	snprintf(x->heur[x->nheur].name, sizeof x->heur[0].name, "kepler");
	snprintf(x->heur[x->nheur++].args, sizeof x->heur[0].args, "--predicate-rule sm35 "
	         "--predicate-max 8 --predicate-max-uniform 6 --loop-sync pbk");
	for (int t = 0; t <= 17 && x->nheur < RP_HEURS; t++) {
		char v[8];
		snprintf(v, sizeof v, t == 17 ? "inf" : "%d", t);
		snprintf(x->heur[x->nheur].name, sizeof x->heur[0].name, "%s", v);
		snprintf(x->heur[x->nheur++].args, sizeof x->heur[0].args, "--predicate-rule guide "
		         "--predicate-max %s --predicate-max-uniform %s", v, v);
	}
}

static int run_rules(Explore *x, const char *self, char *const *args, int nargs, int jobs, FILE *err)
{
	SweepSpec sp = {0};
	SweepPoint *pts = calloc(RP_HEURS + 1, sizeof *pts);
	int rc = 1;

	rules(x);
	sp.key = strdup("");
	sp.vals = calloc(RP_HEURS + 1, sizeof *sp.vals);
	if (pts && sp.key && sp.vals && (sp.vals[0] = strdup(""))) {
		sp.nvals = 1;
		for (int i = 0; i < x->nheur && (sp.vals[sp.nvals] = strdup(x->heur[i].args)); i++)
			sp.nvals++;
		sp.jobs = jobs < 1 ? 1 : jobs;
		rc = rp_sweep_run(self, args, nargs, &sp, pts, err);
		for (int i = 0; i < x->nheur && i + 1 < sp.nvals; i++)
			if ((x->heur[i].ok = pts[i + 1].ok))
				x->heur[i].cycles = pts[i + 1].cycles;
		rp_sweep_points_free(pts, sp.nvals);
	} else
		free(pts);
	rp_sweep_free(&sp);
	return rc;
}

static int worse(int a, int b)
{
	return a == 1 || b == 1 ? 1 : a == 3 || b == 3 ? 3 : 0;
}

int rp_explore_search(Explore *x, const char *self, char *const *args, int nargs, int jobs,
                      FILE *err)
{
	uint32_t cur = 0, *v;
	uint64_t curc, *cyc;
	int rc = 0, n;

	x->nf = 0;
	for (int i = 0; i < x->nb && x->nf < 32; i++)
		if (x->b[i].flip[0] && x->b[i].measured && x->b[i].execs)
			x->f[x->nf++] = i;
	x->exhaustive = x->nf <= x->exhaustive_max;
	n = x->exhaustive ? 1 << x->nf : x->nf;
	v = calloc((size_t)n + 1, sizeof *v);
	cyc = calloc((size_t)n + 1, sizeof *cyc);
	if (!v || !cyc) {
		free(v), free(cyc);
		return 1;
	}
	for (int k = 0; k < x->nf; k++)
		cur |= (uint32_t)x->b[x->f[k]].predicated << k;
	curc = x->pts[0].ok ? x->pts[0].cycles : 0;
	x->best_cycles = curc;
	vec_decide(x, cur, x->best, sizeof x->best);
	if (!x->nf) {
		/* nothing to search: the program as compiled is the only vector */
	} else if (x->exhaustive) {
		for (int i = 0; i < n; i++)
			v[i] = (uint32_t)i;
		rc = run_vectors(x, v, n, cyc, self, args, nargs, jobs, err);
		for (int i = 0; i < n; i++)
			if (cyc[i] && (!x->best_cycles || cyc[i] < x->best_cycles))
				x->best_cycles = cyc[i], vec_decide(x, v[i], x->best, sizeof x->best);
	} else {
		for (int pass = 0; pass < 64 && !rc; pass++) {
			int bi = -1;
			for (int k = 0; k < x->nf; k++)
				v[k] = cur ^ 1u << k;
			rc = worse(rc, run_vectors(x, v, x->nf, cyc, self, args, nargs, jobs, err));
			for (int k = 0; k < x->nf; k++)
				if (cyc[k] && cyc[k] < curc && (bi < 0 || cyc[k] < cyc[bi]))
					bi = k;
			if (bi < 0)
				break;
			cur = v[bi], curc = cyc[bi];
		}
		x->best_cycles = curc;
		vec_decide(x, cur, x->best, sizeof x->best);
	}
	rc = worse(rc, run_rules(x, self, args, nargs, jobs, err));
	x->best_all = x->best_cycles;
	for (int i = 0; i < x->nheur; i++)
		if (x->heur[i].ok && (!x->best_all || x->heur[i].cycles < x->best_all))
			x->best_all = x->heur[i].cycles;
	for (int i = 0; i < x->nheur; i++)
		x->heur[i].regret = x->heur[i].ok && x->best_all ?
		        100.0 * ((double)x->heur[i].cycles - (double)x->best_all) / (double)x->best_all : 0;
	free(v);
	free(cyc);
	x->rc = worse(x->rc, rc);
	return x->rc;
}
