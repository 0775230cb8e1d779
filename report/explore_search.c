/* explore_search.c - warpsim --explore's search (issue 18 part 3): the decision vector over
 * the executed branches that have a variant which runs in the fewest cycles, and what each
 * rule costs against the best run (its regret). Up to --explore-exhaustive branches (12), every
 * combination runs; beyond, coordinate descent: from the program as compiled, flip each branch
 * of the current vector, move to the best one that pays, until none does (a local optimum;
 * docs/explore.md); a vector is a byte per searched branch, so any number of them. A vector the translator refuses (an
 * outer hammock predicated around an inner branch) is skipped. Every run is a sweep point
 * (sweep.c), compared with the program as compiled: the same memory, or a loud error.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

/* a decision vector: v[k] = 1 when branch f[k] is predicated. "--decide #a=...,#b=..." */
static char *vec_args(const Explore *x, const uint8_t *v)
{
	size_t n = 16 + 24 * (size_t)x->nf, o;
	char *s = malloc(n);

	if (!s)
		return NULL;
	o = (size_t)snprintf(s, n, "--decide ");
	for (int k = 0; k < x->nf; k++)
		o += (size_t)snprintf(s + o, n - o, "%s#%d=%s", k ? "," : "", x->b[x->f[k]].index,
		                      v[k] ? "pred" : "branch");
	return s;
}

enum { DECIDE = sizeof "--decide " - 1 };    /* where vec_args's --decide value begins */

/* runs the vectors v[0..n) (each nf bytes) that the translator accepts; cyc[i] gets each
 * one's cycles, 0 when it could not be translated or its run failed */
static int run_vectors(Explore *x, uint8_t *const *v, int n, uint64_t *cyc)
{
	char **vals = calloc((size_t)n + 1, sizeof *vals);
	int *at = calloc((size_t)n + 1, sizeof *at), m = 0, rc;
	SweepSpec sp;
	SweepPoint *pts = NULL;

	if (!vals || !at) {
		free(vals), free(at);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		char *a = vec_args(x, v[i]);
		cyc[i] = 0;
		at[i] = 0;
		x->tried++;
		if (!a || (x->legal && !x->legal(x->legal_ctx, a + DECIDE))) {
			free(a);
			continue;
		}
		x->feasible++;
		vals[m++] = a;
		at[i] = m;
	}
	rc = rp_explore_points(x, vals, m, 0, &sp, &pts);
	for (int i = 0; pts && i < n; i++)
		if (at[i] && pts[at[i]].ok)
			cyc[i] = pts[at[i]].cycles;
	if (pts)
		rp_sweep_points_free(pts, sp.nvals);
	rp_sweep_free(&sp);
	free(at);
	return rc;
}

/* the rules: the Programming Guide's (fermi.cfg), ptxas 11.8's for sm_35 (kepler.cfg), and
 * one threshold T for both kinds of branch, T = 0 .. 16 and inf; each run whole */
static int run_rules(Explore *x)
{
	char **vals = calloc(RP_HEURS, sizeof *vals);
	SweepSpec sp;
	SweepPoint *pts = NULL;
	int rc;

	if (!vals)
		return 1;
	x->nheur = 0;
	snprintf(x->heur[x->nheur].name, sizeof x->heur[0].name, "fermi");
	snprintf(x->heur[x->nheur++].args, sizeof x->heur[0].args, "--predicate-rule guide "
	         "--predicate-max 7 --predicate-max-uniform 4 --loop-sync ssy --early-return branch");
	snprintf(x->heur[x->nheur].name, sizeof x->heur[0].name, "kepler");
	snprintf(x->heur[x->nheur++].args, sizeof x->heur[0].args, "--predicate-rule sm35 "
	         "--predicate-max 8 --predicate-max-uniform 6 --loop-sync pbk --early-return guarded");
	for (int t = 0; t <= 17 && x->nheur < RP_HEURS; t++) {
		char v[8];
		snprintf(v, sizeof v, t == 17 ? "inf" : "%d", t);
		snprintf(x->heur[x->nheur].name, sizeof x->heur[0].name, "%s", v);
		snprintf(x->heur[x->nheur++].args, sizeof x->heur[0].args, "--predicate-rule guide "
		         "--predicate-max %s --predicate-max-uniform %s", v, v);
	}
	for (int i = 0; i < x->nheur; i++)
		if (!(vals[i] = strdup(x->heur[i].args))) {
			while (i--)
				free(vals[i]);
			free(vals);
			return 1;
		}
	rc = rp_explore_points(x, vals, x->nheur, 0, &sp, &pts);
	for (int i = 0; pts && i < x->nheur; i++)
		if ((x->heur[i].ok = pts[i + 1].ok))
			x->heur[i].cycles = pts[i + 1].cycles;
	if (pts)
		rp_sweep_points_free(pts, sp.nvals);
	rp_sweep_free(&sp);
	return rc;
}

static int worse(int a, int b)
{
	return a == 1 || b == 1 ? 1 : a == 3 || b == 3 ? 3 : 0;
}

/* the best vector: every combination (nf <= exhaustive_max), else coordinate descent from the
 * program as compiled: run each single flip of the current vector, move to the one with the
 * fewest cycles while it pays (at most 64 passes); sets x->best and x->best_cycles */
static int search(Explore *x)
{
	int nf = x->nf, n = !nf ? 0 : x->exhaustive ? 1 << nf : nf, rc = 0, bi = -1;
	uint8_t *mem = calloc(((size_t)n + 1) * (size_t)(nf + 1), 1), **v = calloc((size_t)n + 1, sizeof *v);
	uint8_t *cur = mem + (size_t)n * (size_t)(nf + 1);
	uint64_t *cyc = calloc((size_t)n + 1, sizeof *cyc), curc = x->pts[0].cycles;

	if (!mem || !v || !cyc) {
		free(mem), free(v), free(cyc);
		return 1;
	}
	for (int i = 0; i < n; i++)
		v[i] = mem + (size_t)i * (size_t)(nf + 1);
	for (int k = 0; k < nf; k++)
		cur[k] = (uint8_t)x->b[x->f[k]].predicated;
	if (nf && x->exhaustive) {
		for (int i = 0; i < n; i++)
			for (int k = 0; k < nf; k++)
				v[i][k] = (uint8_t)(i >> k & 1);
		rc = run_vectors(x, v, n, cyc);
		for (int i = 0; i < n; i++)
			if (cyc[i] && cyc[i] < curc)
				curc = cyc[i], bi = i;
		if (bi >= 0)
			memcpy(cur, v[bi], (size_t)nf);
	} else if (nf) {
		for (int pass = 0; pass < 64 && rc != 1; pass++) {
			bi = -1;
			for (int k = 0; k < nf; k++) {
				memcpy(v[k], cur, (size_t)nf);
				v[k][k] ^= 1;
			}
			rc = worse(rc, run_vectors(x, v, nf, cyc));
			for (int k = 0; k < nf; k++)
				if (cyc[k] && cyc[k] < curc && (bi < 0 || cyc[k] < cyc[bi]))
					bi = k;
			if (bi < 0)
				break;
			memcpy(cur, v[bi], (size_t)nf);
			curc = cyc[bi];
		}
	}
	x->best_cycles = curc;
	free(x->best);
	if ((x->best = vec_args(x, cur)))
		memmove(x->best, x->best + DECIDE, strlen(x->best + DECIDE) + 1);
	else
		rc = 1;
	free(mem), free(v), free(cyc);
	return rc;
}

int rp_explore_search(Explore *x)
{
	int rc;

	if (!x->pts || !x->pts[0].ok)
		return x->rc;
	free(x->f);
	if (!(x->f = calloc((size_t)x->nb + 1, sizeof *x->f)))
		return x->rc = 1;
	x->nf = 0;
	for (int i = 0; i < x->nb; i++)
		if (x->b[i].flip[0] && x->b[i].measured && x->b[i].execs)
			x->f[x->nf++] = i;
	x->exhaustive = x->nf <= x->exhaustive_max;
	rc = search(x);
	rc = worse(rc, run_rules(x));
	x->best_all = x->best_cycles;
	for (int i = 0; i < x->nheur; i++)
		if (x->heur[i].ok && x->heur[i].cycles < x->best_all)
			x->best_all = x->heur[i].cycles;
	for (int i = 0; i < x->nheur; i++)
		x->heur[i].regret = x->heur[i].ok ?
		        100.0 * ((double)x->heur[i].cycles - (double)x->best_all) / (double)x->best_all : 0;
	return x->rc = worse(x->rc, rc);
}
