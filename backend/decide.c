/* decide.c - `--decide LOC=pred|branch` (issue 18): one conditional branch's decision forced
 * instead of the rule's. LOC names branches of the PTX module (docs/predication.md):
 *   #N          the Nth branch --explain lists (be_branch_index: the module's conditional
 *               and indirect branches in file order, from 1);
 *   LINE, F:LINE  the branch on PTX line LINE (F the PTX file, by its last path component:
 *               in a module linked from several, any of them; a bare LINE names that line of
 *               every file, with a warning when it finds branches in several), or, when F
 *               is a CUDA file of the .file table, every branch of that .loc line;
 *   LABEL       every conditional branch to that label.
 * The option row parses and keeps the entries (BeOptions.decide); be_decide_check finds each
 * one's branches before translation (an entry that names none is an error); ifconv asks
 * be_decide_of for every branch it decides. Calls only util.c.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"

int be_is_branch(const PIns *in)
{
	return (in->op == PO_BRA && (in->guard >= 0 || in->o[0].kind != POK_LABEL)) ||
	       in->op == PO_BRX_IDX;
}

int be_branch_index(const Module *m, const PFunc *pf, int ins)
{
	int n = 0;

	for (int fi = 0; fi < m->nfuncs; fi++) {
		const PFunc *g = &m->funcs[fi];
		for (int i = 0; i < g->nins; i++) {
			n += be_is_branch(&g->ins[i]);
			if (g == pf && i == ins)
				return be_is_branch(&g->ins[i]) ? n : 0;
		}
	}
	return 0;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* whether entry d names instruction ins of pf */
static int names(const Module *m, const PFunc *pf, int ins, const BeDecide *d)
{
	const PIns *in = &pf->ins[ins];
	const char *loc = d->loc, *colon = strrchr(loc, ':'), *num = colon ? colon + 1 : loc;
	char file[256], *end;
	long v;

	if (!be_is_branch(in))
		return 0;
	if (loc[0] == '#') {
		v = strtol(loc + 1, &end, 10);
		return *end == '\0' && v == be_branch_index(m, pf, ins);
	}
	v = strtol(num, &end, 10);
	if (*end == '\0' && end != num) {
		snprintf(file, sizeof file, "%.*s", colon ? (int)(colon - loc) : 0, loc);
		for (int u = 0; colon && u < m->nunits; u++)     /* a linked module's PTX files */
			if (!strcmp(base(file), base(m->units[u].name)))
				return in->loc.file == u && in->loc.line == v;
		if (!colon || !strcmp(base(file), base(m->name)))
			return in->loc.line == v;
		for (int k = 0; k < m->nfiles; k++)
			if (!strcmp(base(file), base(m->files[k].name)))
				return in->srcfile == m->files[k].index && in->srcline == v;
		return 0;
	}
	return in->op == PO_BRA && in->o[0].kind == POK_LABEL && in->o[0].sym >= 0 &&
	       in->o[0].sym < pf->nlabels && !strcmp(pf->labels[in->o[0].sym].name, loc);
}

int be_decide_of(const Fn *f, int ptxins, const char **loc)
{
	int got = -1;

	for (int i = 0; i < f->opt->ndecide; i++)
		if (names(f->m, f->pf, ptxins, &f->opt->decide[i])) {
			got = f->opt->decide[i].pred;
			if (loc)
				*loc = f->opt->decide[i].loc;
		}
	return got;
}

int be_decide_check(const Module *m, const BeOptions *o, FILE *err)
{
	for (int i = 0; i < o->ndecide; i++) {
		const BeDecide *d = &o->decide[i];
		int hit = 0, unit = -1, several = 0;
		for (int fi = 0; fi < m->nfuncs; fi++)
			for (int k = 0; k < m->funcs[fi].nins; k++) {
				if (!names(m, &m->funcs[fi], k, d))
					continue;
				hit = 1;
				if (unit < 0)
					unit = m->funcs[fi].ins[k].loc.file;
				several |= m->funcs[fi].ins[k].loc.file != unit;
				for (int j = 0; j < o->ndecide; j++)
					if (j != i && o->decide[j].pred != d->pred &&
					    names(m, &m->funcs[fi], k, &o->decide[j])) {
						fprintf(err, "%s:%d:%d: error: --decide %s and --decide %s force this "
						        "branch both ways\n", ptx_loc_name(m, m->funcs[fi].ins[k].loc),
						        m->funcs[fi].ins[k].loc.line,
						        m->funcs[fi].ins[k].loc.col, d->loc, o->decide[j].loc);
						return -1;
					}
			}
		if (!hit) {
			fprintf(err, "%s: error: --decide %s=%s: no conditional branch of the module is at "
			        "'%s' (a PTX line, FILE:LINE of the PTX or CUDA source, a label, or #N as "
			        "--explain numbers them)\n", m->name, d->loc, d->pred ? "pred" : "branch", d->loc);
			return -1;
		}
		/* a bare LINE in a program linked from several files: every file's line */
		if (several && isdigit((unsigned char)d->loc[0]) && !strchr(d->loc, ':'))
			fprintf(err, "%s: warning: --decide %s forces a branch on line %s of more than one "
			        "of the linked PTX files; FILE:LINE names one\n", m->name, d->loc, d->loc);
	}
	return 0;
}

/* one LOC=pred|branch item of the option: checked, and appended unless check_only */
static int decide_item(BeOptions *o, const char *val, size_t len, int check_only, char *why, size_t n)
{
	const char *eq = memchr(val, '=', len), *v;
	BeDecide *nd;
	size_t vl;
	int pred;

	for (const char *q = eq; q && (q = memchr(q + 1, '=', len - (size_t)(q + 1 - val))); )
		eq = q;        /* the last '=' */
	if (!eq || eq == val) {
		snprintf(why, n, "LOC=pred or LOC=branch");
		return -1;
	}
	v = eq + 1;
	vl = len - (size_t)(v - val);
	if (vl == 4 && !strncmp(v, "pred", 4))
		pred = 1;
	else if (vl == 6 && !strncmp(v, "branch", 6))
		pred = 0;
	else {
		snprintf(why, n, "LOC=pred or LOC=branch");
		return -1;
	}
	if (val[0] == '#' && (eq - val < 2 || strspn(val + 1, "0123456789") != (size_t)(eq - val - 1) ||
	                      strtol(val + 1, NULL, 10) < 1)) {
		snprintf(why, n, "#N=... with a branch number N from 1");
		return -1;
	}
	if (check_only)
		return 0;
	if (!(nd = realloc(o->decide, (size_t)(o->ndecide + 1) * sizeof *nd)))
		goto oom;
	o->decide = nd;
	if (!(nd[o->ndecide].loc = strndup(val, (size_t)(eq - val))))
		goto oom;
	nd[o->ndecide].pred = pred;
	o->ndecide++;
	return 0;
oom:
	snprintf(why, n, "an option that fits in memory");
	return -1;
}

/* the option row's parser: LOC=pred|branch, or several separated by commas, appended to
 * BeOptions.decide */
int be_decide_opt(void *field, const char *val, const OptCtx *cx, char *why, size_t n)
{
	const char *s = val;

	for (;;) {
		size_t len = strcspn(s, ",");
		if (decide_item(field, s, len, cx->check_only, why, n))
			return -1;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

void be_options_free(BeOptions *o)
{
	for (int i = 0; i < o->ndecide; i++)
		free(o->decide[i].loc);
	free(o->decide);
	o->decide = NULL;
	o->ndecide = 0;
}
