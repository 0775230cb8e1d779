/* explain.c - the decision log's if-conversion part and its two outputs: the aligned
 * report of `warpc --explain` and the JSON document of `--explain=json` (schema in
 * docs/predication.md).
 *
 * be_ifconv_note and be_ifconv_log run at the end of backend.c's log_branches: the first
 * adds what ifconv.c found (shape, side sizes, the threshold rule) to a branch that stayed,
 * the second adds the branches that were predicated (they have no block left) and puts the
 * function's entries back in PTX order.
 */
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"

static const IfRec *find_rec(const Fn *f, int ptxins)
{
	for (int i = 0; i < f->nifrec; i++)
		if (f->ifrec[i].ptxins == ptxins)
			return &f->ifrec[i];
	return NULL;
}

void be_ifconv_note(const Fn *f, int ptxins, BeLogEntry *e)
{
	const IfRec *r = find_rec(f, ptxins);
	size_t n;

	if (!r || r->predicated)
		return;
	if (!r->rule[0]) {  /* a branch folded into a guarded EXIT: only its uniformity */
		e->uniform = r->uniform;
		snprintf(e->why_uniform, sizeof e->why_uniform, "%s", r->why);
		return;
	}
	snprintf(e->shape, sizeof e->shape, "%s", r->shape);
	e->size_then = r->size_then;
	e->size_else = r->size_else;
	if (r->why[0])
		snprintf(e->why_uniform, sizeof e->why_uniform, "%s", r->why);
	n = strlen(r->rule);
	if (n + 2 + strlen(e->rule) >= sizeof e->rule)
		return;  /* keep the reconvergence rule whole */
	memmove(e->rule + n + 2, e->rule, strlen(e->rule) + 1);
	memcpy(e->rule, r->rule, n);
	memcpy(e->rule + n, "; ", 2);
}

static BeLogEntry *log_add(BeLog *log)
{
	if (log->n == log->cap) {
		int nc = log->cap ? 2 * log->cap : 16;
		BeLogEntry *ne = realloc(log->e, sizeof *ne * (size_t)nc);
		if (!ne)
			die("out of memory");
		log->e = ne;
		log->cap = nc;
	}
	memset(&log->e[log->n], 0, sizeof log->e[0]);
	return &log->e[log->n++];
}

static int by_line(const void *x, const void *y)
{
	const BeLogEntry *a = x, *b = y;

	if (a->ptxline != b->ptxline)
		return a->ptxline < b->ptxline ? -1 : 1;
	return (a->ptxcol > b->ptxcol) - (a->ptxcol < b->ptxcol);
}

void be_ifconv_log(Fn *f, int first)
{
	const Module *m = f->m;
	BeLog *log = f->log;

	for (int i = 0; i < f->nifrec; i++) {
		const IfRec *r = &f->ifrec[i];
		const PIns *in = &f->pf->ins[r->ptxins];
		BeLogEntry *e;
		if (!r->predicated)
			continue;
		e = log_add(log);
		e->func = f->pf->name;
		e->ptxline = in->loc.line;
		e->ptxcol = in->loc.col;
		e->srcline = in->srcline;
		e->srcfile = in->srcfile;
		snprintf(e->shape, sizeof e->shape, "%s", r->shape);
		e->size_then = r->size_then;
		e->size_else = r->size_else;
		e->uniform = r->uniform;
		snprintf(e->why_uniform, sizeof e->why_uniform, "%s", r->why);
		e->decision = BD_PREDICATED;
		snprintf(e->rule, sizeof e->rule, "%s", r->rule);
	}
	for (int i = first; i < log->n; i++) {
		BeLogEntry *e = &log->e[i];
		e->ptxfile = m->name;
		e->srcname = NULL;
		for (int k = 0; k < m->nfiles && e->srcline; k++)
			if (m->files[k].index == e->srcfile)
				e->srcname = m->files[k].name;
	}
	if (log->n - first > 1)
		qsort(log->e + first, (size_t)(log->n - first), sizeof log->e[0], by_line);
}

/* ------------------------------------------------------------------ output */
/* a .func translated for several kernels logs its branches once per kernel */
static int repeated(const BeLog *log, int i)
{
	const BeLogEntry *e = &log->e[i];

	for (int k = 0; k < i; k++)
		if (log->e[k].ptxline == e->ptxline && log->e[k].ptxcol == e->ptxcol &&
		    !strcmp(log->e[k].func, e->func))
			return 1;
	return 0;
}

static const char *base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s ? s + 1 : path;
}

enum { C_PTX, C_CUDA, C_SHAPE, C_TAKEN, C_FALL, C_COND, C_DEC, C_RULE, NCOL };

static void cells(const BeLogEntry *e, char c[NCOL][224])
{
	snprintf(c[C_PTX], 224, "%d:%d", e->ptxline, e->ptxcol);
	if (e->srcline)
		snprintf(c[C_CUDA], 224, "%s:%d", e->srcname ? base(e->srcname) : "?", e->srcline);
	else
		snprintf(c[C_CUDA], 224, "-");
	snprintf(c[C_SHAPE], 224, "%s", e->shape);
	snprintf(c[C_TAKEN], 224, e->size_then >= 0 ? "%d" : "-", e->size_then);
	snprintf(c[C_FALL], 224, e->size_else >= 0 ? "%d" : "-", e->size_else);
	if (e->why_uniform[0])
		snprintf(c[C_COND], 224, "%s: %s", e->uniform ? "uniform" : "divergent", e->why_uniform);
	else
		snprintf(c[C_COND], 224, "%s", e->uniform ? "uniform" : "divergent");
	snprintf(c[C_DEC], 224, "%s", be_decision_name(e->decision));
	snprintf(c[C_RULE], 224, "%s", e->rule);
}

void be_log_print(FILE *f, const BeLog *log)
{
	static const char *head[NCOL] = {
		"PTX", "CUDA", "shape", "taken", "fall", "condition", "decision", "rule"
	};
	char c[NCOL][224];

	for (int i = 0; i < log->n;) {
		int end = i, w[NCOL], count[BD_COUNT] = {0}, shown = 0;
		while (end < log->n && !strcmp(log->e[end].func, log->e[i].func))
			end++;
		for (int k = 0; k < NCOL; k++)
			w[k] = (int)strlen(head[k]);
		for (int j = i; j < end; j++) {
			if (repeated(log, j))
				continue;
			cells(&log->e[j], c);
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
		fputs(" ", f);
		for (int k = 0; k < NCOL; k++)
			if (k == NCOL - 1)
				fprintf(f, " %s", head[k]);
			else
				fprintf(f, k == C_TAKEN || k == C_FALL ? " %*s" : " %-*s", w[k], head[k]);
		fputs("\n", f);
		for (int j = i; j < end; j++) {
			if (repeated(log, j))
				continue;
			cells(&log->e[j], c);
			count[log->e[j].decision]++;
			fputs(" ", f);
			for (int k = 0; k < NCOL; k++)
				if (k == NCOL - 1)
					fprintf(f, " %s", c[k]);
				else
					fprintf(f, k == C_TAKEN || k == C_FALL ? " %*s" : " %-*s", w[k], c[k]);
			fputs("\n", f);
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

static void jstr(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
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
		fprintf(f, ", \"ptx_line\": %d, \"ptx_col\": %d, \"cuda_file\": ", e->ptxline, e->ptxcol);
		jstr(f, e->srcline ? e->srcname : NULL);
		fputs(", \"cuda_line\": ", f);
		jint(f, e->srcline, e->srcline > 0);
		fputs(", \"shape\": ", f);
		jstr(f, e->shape);
		fputs(", \"size_taken\": ", f);
		jint(f, e->size_then, e->size_then >= 0);
		fputs(", \"size_fallthrough\": ", f);
		jint(f, e->size_else, e->size_else >= 0);
		fprintf(f, ", \"uniform\": %s, \"why\": ", e->uniform ? "true" : "false");
		jstr(f, e->why_uniform);
		fputs(", \"decision\": ", f);
		jstr(f, be_decision_name(e->decision));
		fputs(", \"rule\": ", f);
		jstr(f, e->rule);
		fputs("}", f);
	}
	fputs(n ? "\n]}\n" : "]}\n", f);
}
