/* exploresum.c - make explore's tables: reads the --explore-json files of the corpus (one per
 * kernel, tests/explore/corpus.sh) and prints Markdown on stdout: one row per kernel (the
 * search, the best vector against the program as compiled, the regret of the main rules),
 * each rule's mean and worst regret over the kernels, and the branches where the measurement
 * disagrees most with the decision as compiled (flipping them pays most).
 * usage: exploresum FILE.json... */
#include <jansson.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXK = 256, MAXR = 24, MAXB = 4096 };

typedef struct {
	char kernel[64], cuda[80], shape[24], compiled[24];
	int index, st, sf;
	double execs, div, lanes, jump, dpct;
} Row;

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_string(v) ? json_string_value(v) : "";
}

/* a model's predictions of d.cycles against the measured ones */
typedef struct {
	int n, agree;
	double sx, sy, sxx, syy, sxy;
} Fit;

static void fit_add(Fit *f, double pd, double d)
{
	if (isnan(pd))
		return;
	f->n++, f->agree += (pd < 0) == (d < 0);
	f->sx += pd, f->sy += d, f->sxx += pd * pd, f->syy += d * d, f->sxy += pd * d;
}

static void fit_print(const Fit *f, const char *what)
{
	double vx = f->sxx - f->sx * f->sx / f->n, vy = f->syy - f->sy * f->sy / f->n;

	if (f->n < 2)
		return;
	printf("\n%s against the measured d.cycles of the %d flips that ran: right about whether the "
	       "flip pays for %d (%.0f%%); ", what, f->n, f->agree, 100.0 * f->agree / f->n);
	if (vx > 0 && vy > 0)
		printf("Pearson's r %.2f.\n", (f->sxy - f->sx * f->sy / f->n) / sqrt(vx * vy));
	else
		printf("no correlation (the predictions or the measurements do not vary).\n");
}

static int bydelta(const void *a, const void *b)
{
	const Row *x = a, *y = b;
	return (x->dpct > y->dpct) - (x->dpct < y->dpct);
}

int main(int argc, char **argv)
{
	static const char *show[] = {"fermi", "kepler", "0", "4", "7", "8", "12", "inf"};
	enum { NSHOW = sizeof show / sizeof show[0] };
	static char rname[MAXR][24];
	static double rsum[MAXR], rmax[MAXR];
	static int rn[MAXR], rbest[MAXR];
	static Row rows[MAXB];
	static char none[4096];
	int nr = 0, nk = 0, nrows = 0, nnone = 0;
	Fit fs = {0}, fp = {0}, fw = {0};   /* the static model, the profile model, and the
	                                       measured d.warp-insts at the run's cost of one */
	size_t nlen = 0;

	printf("| kernel | branches searched | search | as compiled | best vector | best vs compiled |");
	for (int s = 0; s < NSHOW; s++)
		printf(" %s%s |", s > 1 ? "pmax " : "", show[s]);
	printf("\n|---|---|---|---|---|---|");
	for (int s = 0; s < NSHOW; s++)
		printf("---|");
	printf("\n");
	for (int a = 1; a < argc; a++) {
		json_error_t e;
		json_t *j = json_load_file(argv[a], 0, &e), *br, *srch, *rules, *comp;
		char kname[64];
		double cc, bc, cw;
		if (!j) {
			fprintf(stderr, "exploresum: %s: %s\n", argv[a], e.text);
			return 1;
		}
		snprintf(kname, sizeof kname, "%.*s", (int)(strlen(base(argv[a])) - 5), base(argv[a]));
		comp = json_object_get(j, "compiled");
		srch = json_object_get(j, "search");
		rules = json_object_get(j, "rules");
		br = json_object_get(j, "branches");
		cc = num(comp, "cycles");
		cw = num(comp, "warp_insts");
		if (!json_is_object(srch) || !json_is_array(rules) || isnan(cc)) {
			json_decref(j);
			continue;
		}
		if (!json_array_size(json_object_get(srch, "branches"))) {   /* nothing to decide */
			nlen += (size_t)snprintf(none + nlen, nlen < sizeof none ? sizeof none - nlen : 0, "%s%s",
			                         nnone++ ? ", " : "", kname);
			json_decref(j);
			continue;
		}
		nk++;
		bc = num(srch, "best_cycles");
		printf("| %s | %zu | %s | %.0f | %.0f | %+.2f%% |", kname, json_array_size(json_object_get(srch, "branches")),
		       !json_array_size(json_object_get(srch, "branches")) ? "-" :
		       !strcmp(str(srch, "method"), "exhaustive") ? "all" : "descent", cc, bc, 100 * (bc - cc) / cc);
		for (int s = 0; s < NSHOW; s++) {
			double v = NAN;
			for (size_t i = 0; i < json_array_size(rules); i++)
				if (!strcmp(str(json_array_get(rules, i), "name"), show[s]))
					v = num(json_array_get(rules, i), "regret_pct");
			printf(isnan(v) ? " - |" : " %.2f%% |", v);
		}
		printf("\n");
		for (size_t i = 0; i < json_array_size(rules); i++) {
			json_t *r = json_array_get(rules, i);
			int k;
			for (k = 0; k < nr && strcmp(rname[k], str(r, "name")); k++)
				;
			if (k == nr && nr < MAXR)
				snprintf(rname[nr++], sizeof rname[0], "%s", str(r, "name"));
			if (k < nr && !isnan(num(r, "regret_pct"))) {
				double v = num(r, "regret_pct");
				rsum[k] += v, rn[k]++;
				rbest[k] += v == 0;
				if (v > rmax[k])
					rmax[k] = v;
			}
		}
		for (size_t i = 0; i < json_array_size(br) && nrows < MAXB; i++) {
			json_t *b = json_array_get(br, i);
			Row *r = &rows[nrows];
			double d = num(b, "delta_cycles");
			if (isnan(d) || num(b, "execs") == 0)
				continue;
			fit_add(&fs, num(b, "predicted_delta_cycles"), d);
			fit_add(&fp, num(b, "model_delta_cycles"), d);
			if (!isnan(num(b, "model_delta_cycles")) && cw > 0)
				fit_add(&fw, num(b, "delta_warp_insts") * cc / cw, d);
			snprintf(r->kernel, sizeof r->kernel, "%s", kname);
			snprintf(r->cuda, sizeof r->cuda, "%s", str(b, "cuda"));
			snprintf(r->shape, sizeof r->shape, "%s", str(b, "shape"));
			snprintf(r->compiled, sizeof r->compiled, "%s", str(b, "compiled"));
			r->index = (int)num(b, "index");
			r->st = isnan(num(b, "size_taken")) ? -1 : (int)num(b, "size_taken");
			r->sf = isnan(num(b, "size_fallthrough")) ? -1 : (int)num(b, "size_fallthrough");
			r->execs = num(b, "execs"), r->div = num(b, "diverged");
			r->lanes = num(b, "lanes"), r->jump = num(b, "guard_true_lanes");
			r->dpct = 100 * d / cc;
			nrows++;
		}
		json_decref(j);
	}
	printf("\nThe other %d kernels have no executed branch whose decision can change (no "
	       "conditional branch, only loops, exits or indirect branches, or none that runs): %s.\n",
	       nnone, none);
	printf("\nEach rule's regret over the %d kernels above (%% cycles above the kernel's best run):\n\n"
	       "| rule | mean regret | worst | kernels where it is the best run |\n|---|---|---|---|\n", nk);
	for (int k = 0; k < nr; k++)
		printf("| %s%s | %.2f%% | %.2f%% | %d of %d |\n", isdigit((unsigned char)rname[k][0]) ||
		       !strcmp(rname[k], "inf") ? "predicate-max " : "", rname[k], rn[k] ? rsum[k] / rn[k] : 0,
		       rmax[k], rbest[k], rn[k]);
	fit_print(&fp, "The model of `--explore` (the branches' counts in the run where each is a branch, "
	          "both listings, the run's cycles per warp instruction)");
	fit_print(&fs, "The static cost model (--explain's cycles per warp execution of each decision, "
	          "times the executions)");
	fit_print(&fw, "The model's bound, the measured d.warp-insts of the flips it predicts at the "
	          "run's cycles per warp instruction (what it would score with the right counts)");
	qsort(rows, (size_t)nrows, sizeof *rows, bydelta);
	printf("\nThe branches whose flip pays most (the decision as compiled, under fermi.cfg's rule, "
	       "against the measurement):\n\n| kernel | branch | CUDA | shape | taken/fall | as compiled | "
	       "execs | diverged | lanes true/false | flip saves |\n|---|---|---|---|---|---|---|---|---|---|\n");
	for (int i = 0; i < nrows && i < 15 && rows[i].dpct < 0; i++) {
		const Row *r = &rows[i];
		char sz[24] = "-";
		if (r->st >= 0)
			snprintf(sz, sizeof sz, "%d/%d", r->st, r->sf);
		printf("| %s | #%d | %s | %s | %s | %s | %.0f | %.0f%% | %.1f/%.1f | %.2f%% |\n", r->kernel,
		       r->index, r->cuda, r->shape, sz, r->compiled, r->execs, 100 * r->div / r->execs,
		       r->jump / r->execs, (r->lanes - r->jump) / r->execs, -r->dpct);
	}
	return 0;
}
