/* link.c - one module from several PTX files compiled separately (nvcc -rdc=true, clang
 * -fgpu-rdc), as nvlink joins them before ptxas's final step.
 *
 * The rules are the PTX ISA's linking directives (section "Linking Directives"): a symbol
 * declared .extern is defined in another file; .visible makes a definition visible to the
 * others; .weak is a visible definition that gives way to a .visible one of the same name
 * (when only weak ones exist, the first is taken); .common is a visible .global variable of
 * which the largest of its definitions is kept: .common on a function or another state space,
 * two initialized definitions, or an initialized one smaller than the largest are errors
 * (docs/design-notes.md, "Linking directives against the PTX ISA"). A function or variable
 * with no linking directive belongs to its file: another file may use its name for something
 * else (the
 * later one is renamed NAME$N, N its file's number, so that listings and launch files keep
 * one name per symbol). Kernels are found by name, so a .entry name is unique across the
 * files. Errors: two strong definitions, an .extern that no file defines (save the
 * functions the runtime gives: vprintf, malloc, __assertfail, the device runtime's, and a
 * dynamic .extern .shared array, which has no definition anywhere), a declaration whose
 * kind, space, size or parameters differ from the definition, and files whose
 * .address_size or texture mode (texmode_unified, the default, or texmode_independent)
 * differ. Each is located in its file, with a note at the other place.
 *
 * The merged module keeps the files' modules as its parts (their arenas hold the bodies,
 * whose symbol indices are rewritten here in place) and names each location's file
 * through PLoc.file and Module.units. Needs: modules from ptx_parse_unit(..., i, ...).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/build.h"

enum { L_DECL, L_COMMON, L_WEAK, L_STRONG };   /* a definition's strength, weakest first */
enum { S_FUNC, S_VAR };

typedef struct {
	int kind;          /* S_FUNC, S_VAR */
	int dmod, didx;    /* the first declaration (module, index), dmod -1 when none */
	int cmod, cidx;    /* the chosen definition, cmod -1 when none */
	int cstr;          /* its strength */
	int out;           /* its index in the merged module */
} LSym;

typedef PVEC(PFunc) FuncVec;
typedef PVEC(PVar) VarVec;

typedef struct {
	Module **ms;
	int n;
	FILE *err;
	int nerr;
	Module *m;         /* the merged module (for ptx_loc_diag: units are set first) */
	PTab tab;          /* visible names: kind S_FUNC/S_VAR, idx into syms */
	PVEC(LSym) syms;
	PTab taken;        /* every name of the merged module */
	int **fmap, **vmap; /* [module][index]: index in the merged module */
	int *fbase;        /* [module]: what its .file indices are shifted by */
	PVEC(int) forig, vorig; /* the module each merged function, variable comes from */
} Link;

static void
lerr(Link *L, PLoc at, const char *fmt, ...)
{
	va_list ap;
	size_t len;
	const char *src = ptx_loc_src(L->m, at, &len);

	L->nerr++;
	va_start(ap, fmt);
	ptx_vdiag(L->err, ptx_loc_name(L->m, at), src, len, at, "error", fmt, ap);
	va_end(ap);
}

static PLoc
floc(Link *L, int mod, int idx, int kind)
{
	return kind == S_FUNC ? L->ms[mod]->funcs[idx].loc : L->ms[mod]->vars[idx].loc;
}

static const char *
sname(Link *L, int mod, int idx, int kind)
{
	return kind == S_FUNC ? L->ms[mod]->funcs[idx].name : L->ms[mod]->vars[idx].name;
}

/* strength of a function or variable as a definition, or -1 for one that is its file's own */
static int
strength(const Module *m, int idx, int kind)
{
	if (kind == S_FUNC) {
		const PFunc *f = &m->funcs[idx];
		if (!f->has_body)
			return f->link == PLINK_NONE && !f->entry ? -1 : L_DECL;
		if (f->entry)
			return L_STRONG;
		return f->link == PLINK_WEAK ? L_WEAK : f->link == PLINK_NONE ? -1 : L_STRONG;
	}
	const PVar *v = &m->vars[idx];
	if (v->scopefn)
		return -1;
	switch ((PLink)v->link) {
	case PLINK_NONE: return -1;
	case PLINK_EXTERN: return L_DECL;
	case PLINK_COMMON: return L_COMMON;
	case PLINK_WEAK: return L_WEAK;
	case PLINK_VISIBLE: return L_STRONG;
	}
	return -1;
}

static const char *
what(int kind)
{
	return kind == S_FUNC ? "function" : "variable";
}

/* where the other one is, as a note */
static void
note(Link *L, int mod, int idx, int kind, const char *fmt)
{
	PLoc at = floc(L, mod, idx, kind);

	ptx_loc_diag(L->err, L->m, at, "note", fmt, sname(L, mod, idx, kind));
}

/* a declaration against the definition it resolves to: 0, or -1 after an error */
static int
agree(Link *L, int dmod, int didx, int cmod, int cidx, int kind)
{
	if (kind == S_FUNC) {
		const PFunc *d = &L->ms[dmod]->funcs[didx], *c = &L->ms[cmod]->funcs[cidx];
		int ok = d->entry == c->entry && d->nparams == c->nparams && d->nrets == c->nrets;
		for (int i = 0; ok && i < d->nparams; i++)
			ok = d->params[i].size == c->params[i].size;
		for (int i = 0; ok && i < d->nrets; i++)
			ok = d->rets[i].size == c->rets[i].size;
		if (ok)
			return 0;
		lerr(L, d->loc, "%s '%s' is declared with other parameters than its definition",
		     d->entry ? "kernel" : "function", d->name);
	} else {
		const PVar *d = &L->ms[dmod]->vars[didx], *c = &L->ms[cmod]->vars[cidx];
		if (d->space == c->space && (d->size == 0 || d->size == c->size))
			return 0;
		if (d->space != c->space)
			lerr(L, d->loc, "variable '%s' is declared %s but defined %s", d->name,
			     ptx_space_name((PSpace)d->space), ptx_space_name((PSpace)c->space));
		else
			lerr(L, d->loc, "variable '%s' is declared with %llu bytes but defined with %llu",
			     d->name, (unsigned long long)d->size, (unsigned long long)c->size);
	}
	note(L, cmod, cidx, kind, "'%s' is defined here");
	return -1;
}

/* enters function or variable idx of module mod into the table of visible names */
static void
enter(Link *L, int mod, int idx, int kind)
{
	const char *name = sname(L, mod, idx, kind);
	int st = strength(L->ms[mod], idx, kind);
	PTabEnt *e;
	LSym *s;

	if (st < 0)
		return;
	if (kind == S_FUNC ? L->ms[mod]->funcs[idx].link == PLINK_COMMON :
	    L->ms[mod]->vars[idx].link == PLINK_COMMON && L->ms[mod]->vars[idx].space != PS_GLOBAL) {
		if (kind == S_FUNC)
			lerr(L, floc(L, mod, idx, kind), ".common applies to .global variables only, not "
			     "to function '%s'", name);
		else
			lerr(L, floc(L, mod, idx, kind), ".common applies to .global variables only, not "
			     "to %s variable '%s'", ptx_space_name((PSpace)L->ms[mod]->vars[idx].space), name);
		return;
	}
	if (!(e = ptab_find(&L->tab, name, (int)strlen(name)))) {
		LSym n = {kind, -1, -1, -1, -1, 0, -1};
		pvec_push(L->syms, n);
		ptab_add(&L->tab, name, (int)strlen(name), kind, L->syms.n - 1);
		e = ptab_find(&L->tab, name, (int)strlen(name));
	}
	s = &L->syms.a[e->idx];
	if (s->kind != kind) {
		int om = s->cmod >= 0 ? s->cmod : s->dmod, oi = s->cmod >= 0 ? s->cidx : s->didx;
		lerr(L, floc(L, mod, idx, kind), "'%s' is a %s here but a %s in %s", name,
		     what(kind), what(s->kind), L->ms[om]->name);
		note(L, om, oi, s->kind, "'%s' is declared here");
		return;
	}
	if (st == L_DECL) {
		if (s->dmod < 0)
			s->dmod = mod, s->didx = idx;
		return;
	}
	if (s->cmod >= 0 && st == L_STRONG && s->cstr == L_STRONG) {
		int k = kind == S_FUNC && L->ms[mod]->funcs[idx].entry;
		lerr(L, floc(L, mod, idx, kind), "%s '%s' is defined in two files", k ? "kernel" :
		     what(kind), name);
		note(L, s->cmod, s->cidx, kind, "the other definition of '%s' is here");
		return;
	}
	if (s->cmod < 0 || st > s->cstr ||
	    (st == L_COMMON && s->cstr == L_COMMON &&
	     L->ms[mod]->vars[idx].size > L->ms[s->cmod]->vars[s->cidx].size)) {
		s->cmod = mod, s->cidx = idx, s->cstr = st;
	}
}

/* the .common definitions of each name: those with an initializer must be of its largest size
 * (smaller ones are reported), and one file only initializes it; that one is kept */
static void
commons(Link *L)
{
	for (int i = 0; i < L->syms.n; i++) {
		LSym *s = &L->syms.a[i];
		int imod = -1, iidx = -1;
		if (s->kind != S_VAR || s->cstr != L_COMMON)
			continue;
		const PVar *cv = &L->ms[s->cmod]->vars[s->cidx];   /* the first of the largest */
		for (int mod = 0; mod < L->n; mod++)
			for (int j = 0; j < L->ms[mod]->nvars; j++) {
				const PVar *v = &L->ms[mod]->vars[j];
				if (v->link != PLINK_COMMON || !v->ninit || v->scopefn || strcmp(v->name, cv->name))
					continue;
				if (v->size < cv->size) {
					lerr(L, v->loc, ".common variable '%s' is initialized with %llu bytes, but its "
					     "largest definition has %llu", v->name, (unsigned long long)v->size,
					     (unsigned long long)cv->size);
					note(L, s->cmod, s->cidx, S_VAR, "the largest definition of '%s' is here");
				} else if (imod >= 0) {
					lerr(L, v->loc, ".common variable '%s' is initialized in two files", v->name);
					note(L, imod, iidx, S_VAR, "'%s' is initialized here");
				} else
					imod = mod, iidx = j;
			}
		if (imod >= 0)
			s->cmod = imod, s->cidx = iidx;
	}
}

/* the declarations that resolve to nothing; every symbol gets its representative */
static void
resolve(Link *L)
{
	for (int i = 0; i < L->syms.n; i++) {
		LSym *s = &L->syms.a[i];
		if (s->cmod >= 0)
			continue;
		const char *name = sname(L, s->dmod, s->didx, s->kind);
		int keep = s->kind == S_FUNC ? ptx_runtime_function(name) :
		           (L->ms[s->dmod]->vars[s->didx].space == PS_SHARED ||
		            L->ms[s->dmod]->vars[s->didx].space == PS_SHARED_CTA);
		if (!keep)
			lerr(L, floc(L, s->dmod, s->didx, s->kind), "unresolved .extern %s '%s': none of "
			     "the %d files defines it", what(s->kind), name, L->n);
		s->cmod = s->dmod, s->cidx = s->didx, s->cstr = L_DECL;
	}
	/* every other declaration against the definition */
	for (int mod = 0; mod < L->n; mod++) {
		const Module *m = L->ms[mod];
		for (int k = 0; k < 2; k++)
			for (int j = 0; j < (k == S_FUNC ? m->nfuncs : m->nvars); j++) {
				const char *name = sname(L, mod, j, k);
				LSym *s;
				if (strength(m, j, k) < 0)
					continue;
				s = &L->syms.a[ptab_find(&L->tab, name, (int)strlen(name))->idx];
				if (s->kind == k && (s->cmod != mod || s->cidx != j) && s->cstr != L_DECL &&
				    strength(m, j, k) == L_DECL)
					agree(L, mod, j, s->cmod, s->cidx, k);
			}
	}
}

/* the name a symbol of module mod takes in the merged module (arena-owned) */
static char *
outname(Link *L, int mod, const char *name, int visible)
{
	char buf[32];
	char *s;
	int n = (int)strlen(name);

	if (visible || !ptab_find(&L->taken, name, n)) {
		ptab_add(&L->taken, name, n, 0, 0);
		return (char *)name;
	}
	snprintf(buf, sizeof buf, "$%d", mod + 1);
	s = ptx_alloc(L->m->arena, (size_t)n + strlen(buf) + 1);
	memcpy(s, name, (size_t)n);
	strcpy(s + n, buf);
	ptab_add(&L->taken, s, (int)strlen(s), 0, 0);
	return s;
}

/* places every representative and every file-own symbol; fills fmap, vmap */
static void
place(Link *L, FuncVec *funcs, VarVec *vars)
{
	/* visible names first, so that a file's own symbol is the one renamed */
	for (int i = 0; i < L->syms.n; i++) {
		LSym *s = &L->syms.a[i];
		const char *name = sname(L, s->cmod, s->cidx, s->kind);
		ptab_add(&L->taken, name, (int)strlen(name), 0, 0);
	}
	for (int mod = 0; mod < L->n; mod++) {
		Module *m = L->ms[mod];
		for (int k = 0; k < 2; k++)
			for (int j = 0; j < (k == S_FUNC ? m->nfuncs : m->nvars); j++) {
				int *map = k == S_FUNC ? &L->fmap[mod][j] : &L->vmap[mod][j];
				const char *name = sname(L, mod, j, k);
				LSym *s = NULL;
				if (strength(m, j, k) >= 0)
					s = &L->syms.a[ptab_find(&L->tab, name, (int)strlen(name))->idx];
				if (s && (s->cmod != mod || s->cidx != j))
					continue;            /* mapped below */
				if (k == S_FUNC) {
					PFunc f = m->funcs[j];
					if (!s)
						f.name = outname(L, mod, f.name, 0);
					pvec_push(*funcs, f);
					pvec_push(L->forig, mod);
					*map = funcs->n - 1;
				} else {
					PVar v = m->vars[j];
					if (!s)
						v.name = outname(L, mod, v.name, 0);
					pvec_push(*vars, v);
					pvec_push(L->vorig, mod);
					*map = vars->n - 1;
				}
				if (s)
					s->out = *map;
			}
	}
	for (int mod = 0; mod < L->n; mod++) {
		Module *m = L->ms[mod];
		for (int k = 0; k < 2; k++)
			for (int j = 0; j < (k == S_FUNC ? m->nfuncs : m->nvars); j++)
				if (strength(m, j, k) >= 0) {
					const char *name = sname(L, mod, j, k);
					LSym *s = &L->syms.a[ptab_find(&L->tab, name, (int)strlen(name))->idx];
					(k == S_FUNC ? L->fmap : L->vmap)[mod][j] = s->out;
				}
	}
}

static void
remap_sym(Link *L, int mod, uint8_t symkind, int32_t *sym)
{
	if (*sym < 0)
		return;
	if (symkind == PSYM_VAR)
		*sym = L->vmap[mod][*sym];
	else if (symkind == PSYM_FUNC)
		*sym = L->fmap[mod][*sym];
}

static void
remap_opd(Link *L, int mod, POpd *o)
{
	if (o->kind == POK_SYM || (o->kind == POK_ADDR && o->sym >= 0))
		remap_sym(L, mod, o->symkind, &o->sym);
	for (int i = 0; i < o->nelems; i++)
		remap_opd(L, mod, &o->elems[i]);
}

static void
remap_inits(Link *L, int mod, PVar *v)
{
	for (int i = 0; i < v->ninit; i++)
		if (v->init[i].kind == PINIT_SYM || v->init[i].kind == PINIT_GENERIC)
			remap_sym(L, mod, v->init[i].symkind, &v->init[i].sym);
}

/* the symbol indices of what module mod gave the merged module, to merged indices */
static void
remap(Link *L, int mod, PFunc *f, int nf, PVar *v, int nv)
{
	for (int i = 0; i < nf; i++) {
		for (int j = 0; j < f[i].nins; j++) {
			PIns *in = &f[i].ins[j];
			for (int k = 0; k < in->nopd; k++)
				remap_opd(L, mod, &in->o[k]);
			if (in->srcfile >= 0)
				in->srcfile += L->fbase[mod];
		}
		for (int j = 0; j < f[i].ntlists; j++)
			for (int k = 0; f[i].tlists[j].kind == PTL_CALL && k < f[i].tlists[j].ntargets; k++)
				remap_sym(L, mod, PSYM_FUNC, &f[i].tlists[j].targets[k]);
		for (int j = 0; j < f[i].nlocals; j++)
			remap_inits(L, mod, &f[i].locals[j]);
	}
	for (int i = 0; i < nv; i++) {
		remap_inits(L, mod, &v[i]);
		if (v[i].scopefn)
			v[i].scopefn = L->fmap[mod][v[i].scopefn - 1] + 1;
	}
}

/* where module mod's directive dir (".target") is: its operand on the first line that starts
 * with it, or the file alone (line 0) when no line does (.address_size may be left out) */
static PLoc
dirloc(Link *L, int mod, const char *dir)
{
	const Module *m = L->ms[mod];
	const char *p = m->src, *end = p ? p + m->srclen : NULL;
	size_t n = strlen(dir);
	PLoc at = {0, 0, mod};

	for (int line = 1; p && p < end; line++) {
		const char *q = p;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if ((size_t)(end - q) > n && !strncmp(q, dir, n) && (q[n] == ' ' || q[n] == '\t')) {
			for (q += n; q < end && (*q == ' ' || *q == '\t'); q++)
				;
			at.line = line;
			at.col = (int)(q - p) + 1;
			return at;
		}
		p = memchr(p, '\n', (size_t)(end - p));
		p = p ? p + 1 : NULL;
	}
	return at;
}

/* the files' .address_size and texture mode against the first one's; each error at the later
 * file's directive, with a note at the first file's */
static void
compatible(Link *L)
{
	const Module *a = L->ms[0];

	for (int i = 1; i < L->n; i++) {
		const Module *b = L->ms[i];
		int ta = a->target && strstr(a->target, "texmode_independent");
		int tb = b->target && strstr(b->target, "texmode_independent");
		PLoc at;
		if (a->address_size != b->address_size) {
			lerr(L, dirloc(L, i, ".address_size"), ".address_size %d cannot be linked with %s's "
			     ".address_size %d", b->address_size, a->name, a->address_size);
			if ((at = dirloc(L, 0, ".address_size")).line)
				ptx_loc_diag(L->err, L->m, at, "note", "%s's .address_size is here", a->name);
		}
		if (ta != tb) {
			lerr(L, dirloc(L, i, ".target"), ".target %s cannot be linked with %s's .target %s "
			     "(texture modes differ: texmode_%s against texmode_%s)",
			     b->target ? b->target : "(none)", a->name, a->target ? a->target : "(none)",
			     tb ? "independent" : "unified", ta ? "independent" : "unified");
			if ((at = dirloc(L, 0, ".target")).line)
				ptx_loc_diag(L->err, L->m, at, "note", "%s's .target is here", a->name);
		}
	}
}

static void
link_free(Link *L)
{
	for (int i = 0; i < L->n; i++) {
		if (L->fmap)
			free(L->fmap[i]);
		if (L->vmap)
			free(L->vmap[i]);
	}
	free(L->fmap);
	free(L->vmap);
	free(L->fbase);
	free(L->syms.a);
	free(L->forig.a);
	free(L->vorig.a);
	ptab_free(&L->tab);
	ptab_free(&L->taken);
}

Module *
ptx_link(Module **ms, int n, FILE *err, int *nerrors)
{
	Link L;
	Module *m;
	PArena *A = ptx_arena_new();
	FuncVec funcs = {0};
	VarVec vars = {0};
	PVEC(PFile) files = {0};
	int fmax = -1;

	memset(&L, 0, sizeof L);
	L.ms = ms;
	L.n = n;
	L.err = err;
	m = L.m = ptx_alloc(A, sizeof *m);
	m->arena = A;
	m->name = ms[0]->name;
	m->units = ptx_alloc(A, (size_t)n * sizeof *m->units);
	m->nunits = n;
	m->parts = ptx_alloc(A, (size_t)n * sizeof *m->parts);
	m->nparts = n;
	m->address_size = ms[0]->address_size;
	m->target = ms[0]->target;
	for (int i = 0; i < n; i++) {
		m->units[i] = (PUnit){ms[i]->name, ms[i]->src, ms[i]->srclen};
		m->parts[i] = ms[i];
		if (ms[i]->version_major > m->version_major || (ms[i]->version_major ==
		    m->version_major && ms[i]->version_minor > m->version_minor)) {
			m->version_major = ms[i]->version_major;
			m->version_minor = ms[i]->version_minor;
		}
		if (ms[i]->sm > m->sm) {
			m->sm = ms[i]->sm;
			m->target = ms[i]->target;
		}
	}
	ptab_init(&L.tab, 256);
	ptab_init(&L.taken, 256);
	L.fmap = calloc((size_t)n, sizeof *L.fmap);
	L.vmap = calloc((size_t)n, sizeof *L.vmap);
	L.fbase = calloc((size_t)n, sizeof *L.fbase);
	if (!L.fmap || !L.vmap || !L.fbase)
		die("out of memory");
	for (int i = 0; i < n; i++) {
		L.fmap[i] = calloc((size_t)ms[i]->nfuncs + 1, sizeof **L.fmap);
		L.vmap[i] = calloc((size_t)ms[i]->nvars + 1, sizeof **L.vmap);
		if (!L.fmap[i] || !L.vmap[i])
			die("out of memory");
	}

	compatible(&L);
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < ms[i]->nfuncs; j++)
			enter(&L, i, j, S_FUNC);
		for (int j = 0; j < ms[i]->nvars; j++)
			enter(&L, i, j, S_VAR);
	}
	if (!L.nerr)
		commons(&L);
	if (!L.nerr)
		resolve(&L);
	if (L.nerr) {
		if (nerrors)
			*nerrors = L.nerr;
		link_free(&L);
		ptx_free(m);
		return NULL;
	}
	place(&L, &funcs, &vars);
	/* .file tables: the first file's numbers stay, each later file's follow them */
	for (int i = 0; i < n; i++) {
		int base = i ? fmax + 1 : 0, hi = fmax;
		L.fbase[i] = base;
		for (int j = 0; j < ms[i]->nfiles; j++) {
			PFile f = ms[i]->files[j];
			f.index += base;
			hi = f.index > hi ? f.index : hi;
			pvec_push(files, f);
		}
		fmax = hi;
	}
	/* the bodies and initializers, each with its own file's maps */
	for (int i = 0; i < funcs.n; i++)
		remap(&L, L.forig.a[i], &funcs.a[i], 1, NULL, 0);
	for (int i = 0; i < vars.n; i++)
		remap(&L, L.vorig.a[i], NULL, 0, &vars.a[i], 1);
	m->funcs = ptx_alloc(A, (size_t)(funcs.n + 1) * sizeof *m->funcs);
	if (funcs.n)
		memcpy(m->funcs, funcs.a, (size_t)funcs.n * sizeof *m->funcs);
	m->nfuncs = funcs.n;
	m->vars = ptx_alloc(A, (size_t)(vars.n + 1) * sizeof *m->vars);
	if (vars.n)
		memcpy(m->vars, vars.a, (size_t)vars.n * sizeof *m->vars);
	m->nvars = vars.n;
	m->files = ptx_alloc(A, (size_t)(files.n + 1) * sizeof *m->files);
	if (files.n)
		memcpy(m->files, files.a, (size_t)files.n * sizeof *m->files);
	m->nfiles = files.n;
	free(funcs.a);
	free(vars.a);
	free(files.a);
	link_free(&L);
	if (nerrors)
		*nerrors = 0;
	return m;
}
