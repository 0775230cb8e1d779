/* explain.c - the two outputs of the decision log (log.c): the aligned report of
 * `warpc --explain` and the JSON document of `--explain=json` (schema in docs/predication.md),
 * and the names of the decisions. Calls only util.c.
 */
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"

const char *be_decision_name(BeDecision d)
{
	static const char *n[BD_COUNT] = {
		[BD_BRANCH_SSY] = "ssy", [BD_BRANCH_SHARED] = "shared-ssy",
		[BD_BRANCH_NOSYNC] = "no-reconvergence", [BD_BRANCH_UNIFORM] = "uniform",
		[BD_EXIT] = "exit", [BD_PREDICATED] = "predicated", [BD_LOOP_SSY] = "loop-ssy",
		[BD_RET] = "ret", [BD_FOLDED] = "folded",
	};
	return d < BD_COUNT && n[d] ? n[d] : "?";
}

/* ------------------------------------------------------------------ output */
/* a .func translated for several kernels logs its branches once per kernel */
/* entries a and b are of one branch (a .func's, translated for two kernels) */
static int same_branch(const BeLogEntry *a, const BeLogEntry *b)
{
	return a->ptxline == b->ptxline && a->ptxcol == b->ptxcol && !strcmp(a->func, b->func);
}

/* and were decided alike (the kernels' calls pass the same uniformity: --func-params) */
static int same_decision(const BeLogEntry *a, const BeLogEntry *b)
{
	return a->decision == b->decision && a->uniform == b->uniform &&
	       a->size_then == b->size_then && a->size_else == b->size_else &&
	       !strcmp(a->rule, b->rule) && !strcmp(a->why_uniform, b->why_uniform);
}

/* entries a and b were made for other kernels */
static int other_kernel(const BeLogEntry *a, const BeLogEntry *b)
{
	return a->kernel && b->kernel && strcmp(a->kernel, b->kernel);
}

/* entry i repeats an earlier one of its branch: of the same kernel (an indirect branch's
 * parts), or of another kernel that decided it alike; shown once */
static int repeated(const BeLog *log, int i)
{
	for (int k = 0; k < i; k++)
		if (same_branch(&log->e[k], &log->e[i]) &&
		    (!other_kernel(&log->e[k], &log->e[i]) || same_decision(&log->e[k], &log->e[i])))
			return 1;
	return 0;
}

/* the kernel to name beside entry i: the one it was decided for, when another kernel's
 * translation of the same .func decided the branch otherwise; NULL when all agree */
static const char *as_in(const BeLog *log, int i)
{
	const BeLogEntry *e = &log->e[i];

	for (int k = 0; k < log->n; k++)
		if (same_branch(&log->e[k], e) && other_kernel(&log->e[k], e) &&
		    !same_decision(&log->e[k], e))
			return e->kernel;
	return NULL;
}

static const char *base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s ? s + 1 : path;
}

enum { C_IDX, C_PTX, C_CUDA, C_SHAPE, C_TAKEN, C_FALL, C_COST, C_COND, C_DEC, C_RULE, NCOL };
/* a cell's bytes: the longest, the rule's and a kernel's name beside it */
enum { CELL = sizeof ((BeLogEntry *)0)->rule + 96 };

static void cells(const BeLog *log, int i, char c[NCOL][CELL])
{
	const BeLogEntry *e = &log->e[i];
	const char *k = as_in(log, i);

	snprintf(c[C_IDX], CELL, "#%d", e->index);
	snprintf(c[C_PTX], CELL, "%d:%d", e->ptxline, e->ptxcol);
	if (e->srcline)
		snprintf(c[C_CUDA], CELL, "%s:%d", e->srcname ? base(e->srcname) : "?", e->srcline);
	else
		snprintf(c[C_CUDA], CELL, "-");
	snprintf(c[C_SHAPE], CELL, "%s", e->shape);
	snprintf(c[C_TAKEN], CELL, e->size_then >= 0 ? "%d" : "-", e->size_then);
	snprintf(c[C_FALL], CELL, e->size_else >= 0 ? "%d" : "-", e->size_else);
	if (e->cost_pred >= 0)
		snprintf(c[C_COST], CELL, "%d/%d", e->cost_pred, e->cost_branch);
	else
		snprintf(c[C_COST], CELL, "-");
	if (e->why_uniform[0])
		snprintf(c[C_COND], CELL, "%s: %s", e->uniform ? "uniform" : "divergent", e->why_uniform);
	else
		snprintf(c[C_COND], CELL, "%s", e->uniform ? "uniform" : "divergent");
	snprintf(c[C_DEC], CELL, "%s", be_decision_name(e->decision));
	if (k)
		snprintf(c[C_RULE], CELL, "%s [as reached from kernel %.60s]", e->rule, k);
	else
		snprintf(c[C_RULE], CELL, "%s", e->rule);
}

/* one line of the table: the cells in columns of widths w, the counts right-aligned, the
 * rule (the last) as it is */
static void row(FILE *f, const int w[NCOL], const char *const cell[NCOL])
{
	fputs(" ", f);
	for (int k = 0; k < NCOL; k++)
		if (k == NCOL - 1)
			fprintf(f, " %s", cell[k]);
		else
			fprintf(f, k == C_TAKEN || k == C_FALL || k == C_COST ? " %*s" : " %-*s", w[k], cell[k]);
	fputs("\n", f);
}

void be_log_print(FILE *f, const BeLog *log)
{
	static const char *head[NCOL] = {
		"#", "PTX", "CUDA", "shape", "taken", "fall", "pred/br", "condition", "decision", "rule"
	};
	char c[NCOL][CELL];
	const char *cell[NCOL];

	for (int k = 0; k < NCOL; k++)
		cell[k] = c[k];
	for (int i = 0; i < log->n;) {
		int end = i, w[NCOL], count[BD_COUNT] = {0}, shown = 0;
		while (end < log->n && !strcmp(log->e[end].func, log->e[i].func))
			end++;
		for (int k = 0; k < NCOL; k++)
			w[k] = (int)strlen(head[k]);
		for (int j = i; j < end; j++) {
			if (repeated(log, j))
				continue;
			cells(log, j, c);
			for (int k = 0; k < NCOL; k++)
				if ((int)strlen(c[k]) > w[k])
					w[k] = (int)strlen(c[k]);
			shown++;
		}
		if (!shown) {
			i = end;
			continue;
		}
		fprintf(f, "%s%s (%s)\n", i ? "\n" : "", log->e[i].func,
		        log->e[i].ptxfile ? log->e[i].ptxfile : "?");
		row(f, w, head);
		for (int j = i; j < end; j++) {
			if (repeated(log, j))
				continue;
			cells(log, j, c);
			count[log->e[j].decision]++;
			row(f, w, cell);
		}
		fprintf(f, "  %d conditional branch%s:", shown, shown == 1 ? "" : "es");
		for (int d = 0, sep = 0; d < BD_COUNT; d++)
			if (count[d]) {
				fprintf(f, "%s %d %s", sep ? "," : "", count[d], be_decision_name((BeDecision)d));
				sep = 1;
			}
		fputs("\n", f);
		i = end;
	}
}

/* s as a JSON string, or null */
static void jstr(FILE *f, const char *s)
{
	if (s)
		opt_json_str(f, s);
	else
		fputs("null", f);
}

static void jint(FILE *f, int v, int present)
{
	if (present)
		fprintf(f, "%d", v);
	else
		fputs("null", f);
}

void be_log_print_json(FILE *f, const BeLog *log)
{
	int n = 0;

	fputs("{\"schema\": \"warpsim-explain/1\", \"branches\": [", f);
	for (int i = 0; i < log->n; i++) {
		const BeLogEntry *e = &log->e[i];
		if (repeated(log, i))
			continue;
		fputs(n++ ? ",\n  {" : "\n  {", f);
		fputs("\"ptx_file\": ", f);
		jstr(f, e->ptxfile);
		fputs(", \"function\": ", f);
		jstr(f, e->func);
		fprintf(f, ", \"index\": %d, \"ptx_line\": %d, \"ptx_col\": %d, \"cuda_file\": ", e->index, e->ptxline, e->ptxcol);
		jstr(f, e->srcline ? e->srcname : NULL);
		fputs(", \"cuda_line\": ", f);
		jint(f, e->srcline, e->srcline > 0);
		fputs(", \"shape\": ", f);
		jstr(f, e->shape);
		fputs(", \"size_taken\": ", f);
		jint(f, e->size_then, e->size_then >= 0);
		fputs(", \"size_fallthrough\": ", f);
		jint(f, e->size_else, e->size_else >= 0);
		fputs(", \"cost_pred\": ", f);
		jint(f, e->cost_pred, e->cost_pred >= 0);
		fputs(", \"cost_branch\": ", f);
		jint(f, e->cost_branch, e->cost_branch >= 0);
		fprintf(f, ", \"uniform\": %s, \"why\": ", e->uniform ? "true" : "false");
		jstr(f, e->why_uniform);
		fputs(", \"decision\": ", f);
		jstr(f, be_decision_name(e->decision));
		fputs(", \"predicated_side\": ", f);
		jstr(f, e->decision != BD_PREDICATED ? NULL : e->side_alone == 2 ? "taken" :
		     e->side_alone ? "fallthrough" : "both");
		fputs(", \"rule\": ", f);
		jstr(f, e->rule);
		if (as_in(log, i)) {
			fputs(", \"kernel\": ", f);
			jstr(f, e->kernel);
		}
		fputs(", \"break_path\": ", f);
		if (e->bpath)
			fprintf(f, "{\"ptx_first\": %d, \"ptx_last\": %d, \"instructions\": %d, "
			        "\"global_access\": %s, \"threshold\": %d, \"ssy\": %s}", e->bpath_first,
			        e->bpath_last, e->bpath_ins, e->bpath_mem ? "true" : "false", BE_BRKPATH_MIN,
			        e->bpath == 2 ? "true" : "false");
		else
			fputs("null", f);
		fputs("}", f);
	}
	fputs(n ? "\n]}\n" : "]}\n", f);
}
