/* build.c - building the module from the grammar's actions: module directives, functions,
 * params and their scopes, labels and target lists, error recovery, and ptx_parse() that
 * drives it all. Declarations are in decl.c, instructions and operands in ins.c. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/build.h"
#include "ptx.tab.h"
#define YYSTYPE PTX_YYSTYPE
#define YYLTYPE PTX_YYLTYPE
#include "ptx.lex.h"

/* ------------------------------------------------------------------ module directives */
char *
ptx_pdup(PCtx *c, const PTok *t)
{
	return ptx_strndup(c->A, t->s, (size_t)t->n);
}

void
b_version(PCtx *c, const PTok *t, PLoc l)
{
	int major = atoi(t->s), minor = 0;
	const char *dot = memchr(t->s, '.', (size_t)t->n);

	if (dot)
		minor = atoi(dot + 1);
	c->m->version_major = major;
	c->m->version_minor = minor;
	if (major < 1 || major > 9 || !dot || t->ikind != PIMM_FLOAT)
		ptx_diag(c, l, "unsupported PTX version '%.*s' (warpsim reads PTX ISA 1.0 to 9.x)",
		         t->n, t->s);
}

void
b_target(PCtx *c, const PTok *t)
{
	size_t old = c->target ? strlen(c->target) : 0;
	char *s = ptx_alloc(c->A, old + (size_t)t->n + 3);

	if (old) {
		memcpy(s, c->target, old);
		memcpy(s + old, ", ", 2);
		old += 2;
	}
	memcpy(s + old, t->s, (size_t)t->n);
	c->target = s;
	c->m->target = s;
	if (t->n > 3 && strncmp(t->s, "sm_", 3) == 0)
		c->m->sm = atoi(t->s + 3);
}

void
b_address_size(PCtx *c, const PTok *t, PLoc l)
{
	if (t->u != 32 && t->u != 64)
		ptx_diag(c, l, "address size must be 32 or 64");
	else
		c->m->address_size = (int)t->u;
}

/* the text of a string token without its quotes (an unterminated one has no closing quote) */
static char *
strtext(PCtx *c, const PTok *s)
{
	int n = s->n - 1;
	if (n > 0 && s->s[s->n - 1] == '"')
		n--;
	return ptx_strndup(c->A, s->s + 1, (size_t)(n > 0 ? n : 0));
}

void
b_file(PCtx *c, const PTok *idx, const PTok *name)
{
	PFile f = { (int32_t)idx->u, strtext(c, name) };
	pvec_push(c->files, f);
}

void
b_pragma(PCtx *c, const PTok *s)
{
	PPragma p = { strtext(c, s), c->inbody ? c->ins.n : -1 };
	if (c->infunc)
		pvec_push(c->pragmas, p);
}

void
b_loc(PCtx *c, const PTok *file, const PTok *line, const PTok *col)
{
	c->srcfile = (int)file->u;
	c->srcline = (int)line->u;
	c->srccol = (int)col->u;
}

/* ------------------------------------------------------------------ functions */
static void
body_reset(PCtx *c)
{
	c->regs.n = c->ins.n = c->labels.n = c->locals.n = 0;
	c->params.n = c->rets.n = c->tlists.n = c->pragmas.n = 0;
	c->fix.n = c->tfix.n = c->scopes.n = c->braces.n = c->names.n = c->nlocs.n = 0;
	c->pparams.n = c->prets.n = 0;
	c->pnames.n = 0;
	c->rparms.n = 0;
	ptab_clear(&c->ltab);
	ptab_clear(&c->labtab);
	ptab_clear(&c->allregs);
	c->srcfile = -1;
	c->srcline = c->srccol = 0;
	c->guard = -1;
	c->pdest = 0;
}

void
b_func_begin(PCtx *c, int entry, PLoc l)
{
	body_reset(c);
	memset(&c->cur, 0, sizeof c->cur);
	c->cur.entry = (uint8_t)entry;
	c->cur.link = (uint8_t)c->ds.link;
	c->cur.loc = l;
	c->infunc = 1;
	c->inbody = 0;
	c->fidx = -1;
	b_ds_reset(c);
}

void
b_func_name(PCtx *c, const PTok *name, PLoc l)
{
	PTabEnt *e = ptab_find(&c->gtab, name->s, name->n);

	c->cur.name = ptx_pdup(c, name);
	c->cur.loc = l;
	if (e && e->kind == NK_FUNC) {
		c->fidx = e->idx;
		if (c->funcs.a[e->idx].entry != c->cur.entry)
			ptx_diag(c, l, "'%s' was declared as %s", c->cur.name,
			         c->funcs.a[e->idx].entry ? "an .entry" : "a .func");
	} else {
		PFunc f;
		if (e)
			ptx_diag(c, l, "redefinition of '%s' as a function", c->cur.name);
		memset(&f, 0, sizeof f);
		f.name = c->cur.name;
		f.entry = c->cur.entry;
		f.loc = l;
		pvec_push(c->funcs, f);
		c->fidx = c->funcs.n - 1;
		if (!e)
			ptab_add(&c->gtab, f.name, name->n, NK_FUNC, c->fidx);
	}
}

/* a .reg parameter: passed as a .param (see PRegParm); a prototype's only has a type */
static int
reg_param(PCtx *c, const PTok *name, PLoc l)
{
	PRegParm r;

	int pred = c->ds.type == PT_PRED;

	if (c->ds.vec > 4 || (pred && c->ds.vec > 1)) {
		ptx_diag(c, l, "a vector .reg parameter is .v2 or .v4 of a type other than .pred");
		return 0;
	}
	c->ds.space = PS_PARAM;
	if (pred)
		c->ds.type = PT_U32;   /* a .pred travels as a .u32 .param holding 1 or 0 */
	if (c->pdest > 1 || !name)
		return 1;
	r.name = ptx_pdup(c, name);
	r.len = name->n;
	r.ret = c->pdest == 1;
	r.idx = -1;   /* set once the .param is made */
	r.type = pred ? PT_PRED : c->ds.type;
	r.vec = c->ds.vec;
	r.loc = l;
	pvec_push(c->rparms, r);
	return 1;
}

void
b_param(PCtx *c, const PTok *name, PLoc l)
{
	PVar v;

	if (c->ds.space == PS_REG) {
		if (!reg_param(c, name, l)) {
			b_ds_reset(c);
			return;
		}
	}
	if (ptx_make_var(c, &v, name, l)) {
		if (c->ds.space == PS_PARAM && c->rparms.n && c->rparms.a[c->rparms.n - 1].idx < 0) {
			PRegParm *r = &c->rparms.a[c->rparms.n - 1];
			r->idx = c->pdest == 0 ? c->params.n : c->rets.n;
			v.name = ptx_alloc(c->A, (size_t)r->len + 5);
			memcpy(v.name, r->name, (size_t)r->len);
			memcpy(v.name + r->len, "$reg", 5);
		}
		if (v.space != PS_PARAM && v.space != PS_PARAM_ENTRY && v.space != PS_PARAM_FUNC)
			ptx_diag(c, l, "parameter '%s' must be in .param space", v.name);
		switch (c->pdest) {
		case 0: pvec_push(c->params, v); break;
		case 1: pvec_push(c->rets, v); break;
		case 2: pvec_push(c->pparams, v); break;
		default: pvec_push(c->prets, v); break;
		}
	}
	b_ds_reset(c);
}

/* .abi_preserve N and .abi_preserve_control N (PTX ISA 9.0, "Performance-Tuning Directives"):
 * how many general-purpose and control registers ptxas's calling convention keeps callee-saved
 * across calls of the function. Values of a module that says PTX ISA 9.0 or later are
 * recorded and otherwise ignored: warpc's callee saves every register and predicate it writes
 * (docs/backend.md, "Calls"), so no caller's value lives in a register a call may change and
 * no bound on them changes what a kernel computes. 1 when the directive may stand here. */
static int
abi_ok(PCtx *c, int which, const PTok *n, PLoc l)
{
	const char *name = which == ABI_PRESERVE ? ".abi_preserve" : ".abi_preserve_control";

	if (c->m->version_major < 9) {
		ptx_diag(c, l, "'%s' needs PTX ISA 9.0 or later; this module is .version %d.%d", name,
		         c->m->version_major, c->m->version_minor);
		return 0;
	}
	if (n->u > 0xffffffffu) {
		ptx_diag(c, l, "'%s' value out of range", name);
		return 0;
	}
	return 1;
}

/* a parameter written as its state space and type only */
void
b_param_unnamed(PCtx *c, PLoc l)
{
	ptx_diag(c, l, "a parameter needs a name, or '_' in a .callprototype (PTX ISA: "
	         "'.param .b32 _', not '.param .b32')");
	b_ds_reset(c);
}

void
b_perf(PCtx *c, int which, const PTok *a, const PTok *b, const PTok *d, PLoc l)
{
	uint32_t v[3] = { a ? (uint32_t)a->u : 0, b ? (uint32_t)b->u : 1, d ? (uint32_t)d->u : 1 };
	PFunc *f = &c->cur;

	if ((a && a->u > 0xffffffffu) || (b && b->u > 0xffffffffu) || (d && d->u > 0xffffffffu))
		ptx_diag(c, l, "performance directive value out of range");
	switch (which) {
	case MAXNTID: memcpy(f->maxntid, v, sizeof v); break;
	case REQNTID: memcpy(f->reqntid, v, sizeof v); break;
	case REQNCTAPERCLUSTER: memcpy(f->reqnctapercluster, v, sizeof v); break;
	case MINNCTAPERSM: f->minnctapersm = v[0]; break;
	case MAXNCTAPERSM: f->maxnctapersm = v[0]; break;
	case MAXNREG: f->maxnreg = v[0]; break;
	case MAXCLUSTERRANK: f->maxclusterrank = v[0]; break;
	case NORETURN: f->noreturn = 1; break;
	case EXPLICITCLUSTER: f->explicitcluster = 1; break;
	case ABI_PRESERVE: case ABI_PRESERVE_CONTROL:
		if (c->cur.entry) {
			ptx_diag(c, l, "'%s' is only allowed on a .func (PTX ISA: on device functions, "
			         "between the .func and its body)", which == ABI_PRESERVE ? ".abi_preserve" :
			         ".abi_preserve_control");
			return;
		}
		if (!abi_ok(c, which, a, l))
			return;
		f->abi_set |= which == ABI_PRESERVE ? 1 : 2;
		*(which == ABI_PRESERVE ? &f->abi_preserve : &f->abi_preserve_control) = v[0];
		break;
	default: die("bad performance directive");
	}
	if (c->cur.entry && which == NORETURN)
		ptx_diag(c, l, ".noreturn is only allowed on a .func: the PTX ISA defines it for device "
		         "functions only, between the .func directive and its body");
}

#define ACOPY(c, v, T) ((v).n ? memcpy(ptx_alloc((c)->A, sizeof(T) * (size_t)(v).n), (v).a, \
                                       sizeof(T) * (size_t)(v).n) : NULL)

/* stores the header (params, rets, directives) into funcs[fidx] */
static PFunc *
store_header(PCtx *c)
{
	PFunc *f;

	if (c->fidx < 0)
		return NULL;
	f = &c->funcs.a[c->fidx];
	if (f->has_body)
		return f;
	*f = c->cur;
	f->params = ACOPY(c, c->params, PVar);
	f->nparams = c->params.n;
	f->rets = ACOPY(c, c->rets, PVar);
	f->nrets = c->rets.n;
	f->pragmas = ACOPY(c, c->pragmas, PPragma);
	f->npragmas = c->pragmas.n;
	return f;
}

void
b_func_decl_end(PCtx *c)
{
	store_header(c);
	c->infunc = 0;
}

void
b_body_begin(PCtx *c)
{
	PFunc *f = c->fidx >= 0 ? &c->funcs.a[c->fidx] : NULL;

	if (f && f->has_body)
		ptx_diag(c, c->cur.loc, "redefinition of function '%s'", c->cur.name);
	c->inbody = 1;
	for (int i = 0; i < c->params.n; i++)
		ptab_add(&c->ltab, c->params.a[i].name, (int)strlen(c->params.a[i].name), NK_PARAM, i);
	for (int i = 0; i < c->rets.n; i++)
		ptab_add(&c->ltab, c->rets.a[i].name, (int)strlen(c->rets.a[i].name), NK_RET, i);
	b_module_regs(c);
	b_reg_params(c);
	pvec_push(c->scopes, c->ltab.ent.n);
}

void
b_func_end(PCtx *c)
{
	PFunc *f;

	b_resolve_fixups(c);
	if (c->fidx >= 0 && c->funcs.a[c->fidx].has_body) {
		c->infunc = c->inbody = 0;
		return;
	}
	b_label_values(c);
	f = store_header(c);
	if (f) {
		f->has_body = 1;
		f->regs = ACOPY(c, c->regs, PReg);
		f->nregs = c->regs.n;
		f->ins = ACOPY(c, c->ins, PIns);
		f->nins = c->ins.n;
		f->labels = ACOPY(c, c->labels, PLabel);
		f->nlabels = c->labels.n;
		f->locals = ACOPY(c, c->locals, PVar);
		f->nlocals = c->locals.n;
		f->tlists = ACOPY(c, c->tlists, PTList);
		f->ntlists = c->tlists.n;
	}
	c->infunc = c->inbody = 0;
}

void
b_scope_push(PCtx *c)
{
	pvec_push(c->scopes, c->ltab.ent.n);
}

void
b_scope_pop(PCtx *c)
{
	if (c->scopes.n > 1)
		ptab_pop_to(&c->ltab, c->scopes.a[--c->scopes.n]);
}

void
b_label(PCtx *c, const PTok *name, PLoc l)
{
	PTabEnt *e = ptab_find(&c->labtab, name->s, name->n);
	PLabel lab = { ptx_pdup(c, name), c->ins.n, l, -1 };

	if (!c->inbody) {
		ptx_diag(c, l, "label '%s' outside a function body", lab.name);
		return;
	}
	if (e) {
		ptx_diag(c, l, "redefinition of label '%s'", lab.name);
		return;
	}
	pvec_push(c->labels, lab);
	ptab_add(&c->labtab, lab.name, name->n, NK_LABEL, c->labels.n - 1);
}

void
b_name(PCtx *c, const PTok *name, PLoc l)
{
	pvec_push(c->names, *name);
	pvec_push(c->nlocs, l);
}

void
b_proto_begin(PCtx *c)
{
	c->pparams.n = c->prets.n = 0;
	c->names.n = c->nlocs.n = 0;
	c->protonoret = 0;
	c->protoabi = 0;
}

void
b_proto_noreturn(PCtx *c)
{
	c->protonoret = 1;
}


/* .callprototype NAME (...): the ISA names a prototype '_' (the label names it) */
void
b_proto_named(PCtx *c, const PTok *name, PLoc l)
{
	ptx_diag(c, l, "a .callprototype is written with '_' where a function has its name, not "
	         "'%.*s' (PTX ISA: label: .callprototype (rets) _ (params); the label names it)",
	         name->n, name->s);
}

void
b_proto_abi(PCtx *c, int which, const PTok *n, PLoc l)
{
	if (!abi_ok(c, which, n, l))
		return;
	c->protoabi |= which == ABI_PRESERVE ? 1 : 2;
	c->protoabiv[which == ABI_PRESERVE ? 0 : 1] = (uint32_t)n->u;
}

void
b_tlist(PCtx *c, int kind, const PTok *name, PLoc l)
{
	PTList t;

	memset(&t, 0, sizeof t);
	t.name = ptx_pdup(c, name);
	t.kind = (uint8_t)kind;
	t.loc = l;
	c->pdest = 0;
	if (ptab_find(&c->labtab, name->s, name->n)) {
		ptx_diag(c, l, "redefinition of label '%s'", t.name);
		c->names.n = c->nlocs.n = 0;
		return;
	}
	if (kind == PTL_PROTO) {
		t.params = ACOPY(c, c->pparams, PVar);
		t.nparams = c->pparams.n;
		t.rets = ACOPY(c, c->prets, PVar);
		t.nrets = c->prets.n;
		t.noreturn = (uint8_t)c->protonoret;
		t.abi_set = (uint8_t)c->protoabi;
		t.abi_preserve = c->protoabiv[0];
		t.abi_preserve_control = c->protoabiv[1];
	} else {
		t.ntargets = c->names.n;
		t.targets = ptx_alloc(c->A, sizeof *t.targets * (size_t)(c->names.n ? c->names.n : 1));
		for (int i = 0; i < c->names.n; i++) {
			PTFix fx = { c->tlists.n, i, c->names.a[i], c->nlocs.a[i] };
			t.targets[i] = -1;
			pvec_push(c->tfix, fx);
		}
	}
	c->names.n = c->nlocs.n = 0;
	pvec_push(c->tlists, t);
	ptab_add(&c->labtab, t.name, name->n, NK_TLIST, c->tlists.n - 1);
}

void
b_recover(PCtx *c, int top)
{
	b_ds_reset(c);
	c->ops.n = c->elems.n = c->names.n = c->nlocs.n = 0;
	c->ingroup = 0;
	c->guard = -1;
	c->inbad = 0;
	c->quiet = 0;
	c->in.op = PO_COUNT;
	if (top && c->infunc) {
		/* the function could not be parsed to its end: keep its header only */
		if (c->inbody)
			b_resolve_fixups(c);
		if (c->fidx >= 0)
			store_header(c);
		c->infunc = c->inbody = 0;
	}
}

/* 1 when some function of the module has a label named name */
static int
label_anywhere(PCtx *c, const char *name, int len)
{
	for (int i = 0; i < c->funcs.n; i++)
		for (int j = 0; j < c->funcs.a[i].nlabels; j++)
			if ((int)strlen(c->funcs.a[i].labels[j].name) == len &&
			    !memcmp(c->funcs.a[i].labels[j].name, name, (size_t)len))
				return 1;
	return 0;
}

void
b_module_end(PCtx *c)
{
	/* symbols named in initializers before their declaration */
	for (int i = 0; i < c->vars.n; i++) {
		PVar *v = &c->vars.a[i];
		for (int j = 0; j < v->ninit; j++) {
			PInit *e = &v->init[j];
			PFix *f;
			PTabEnt *s;
			if ((e->kind != PINIT_SYM && e->kind != PINIT_GENERIC) || e->symkind != PSYM_NONE)
				continue;
			f = &c->gfix.a[e->sym];
			s = ptab_find(&c->gtab, f->name, f->len);
			if (!s && label_anywhere(c, f->name, f->len)) {
				ptx_diag(c, f->loc, "label '%.*s' in the initializer of module-scope '%s': labels "
				         "belong to a function; declare the jump table in its body", f->len,
				         f->name, v->name);
				e->sym = -1;
				continue;
			}
			if (!s) {
				ptx_diag(c, f->loc, "undefined symbol '%.*s' in initializer", f->len, f->name);
				e->sym = -1;
				continue;
			}
			e->symkind = s->kind == NK_FUNC ? PSYM_FUNC : PSYM_VAR;
			e->sym = s->idx;
		}
	}
	if (c->infunc && !c->inbody)
		store_header(c);
	if (c->m->version_major == 0 && c->nerr == 0)
		ptx_diag(c, (PLoc){ 1, 1, c->file }, "missing .version directive (a PTX module starts with "
		         "\".version X.Y\")");
}

/* ------------------------------------------------------------------ driver */
Module *
ptx_parse(const char *name, const char *text, size_t len, FILE *err, int *nerrors)
{
	return ptx_parse_unit(name, text, len, 0, err, nerrors);
}

Module *
ptx_parse_unit(const char *name, const char *text, size_t len, int file, FILE *err, int *nerrors)
{
	PCtx c;
	Module *m;
	void *scanner;
	YY_BUFFER_STATE buf;

	memset(&c, 0, sizeof c);
	c.A = ptx_arena_new();
	m = ptx_alloc(c.A, sizeof *m);
	m->arena = c.A;
	m->name = ptx_strndup(c.A, name, strlen(name));
	m->address_size = 64;
	m->src = malloc(len + 2);
	if (!m->src)
		die("out of memory");
	if (len > (size_t)INT_MAX - 2)
		die("input too large");
	memcpy(m->src, text, len);
	m->src[len] = m->src[len + 1] = 0;
	m->srclen = len;
	c.m = m;
	c.file = file;
	c.err = err;
	c.line = c.col = 1;
	c.fidx = -1;
	c.guard = -1;
	ptab_init(&c.gtab, 256);
	ptab_init(&c.ltab, 1024);
	ptab_init(&c.labtab, 256);
	ptab_init(&c.allregs, 1024);
	b_ds_reset(&c);

	if (ptx_yylex_init_extra(&c, &scanner))
		die("cannot create the scanner");
	c.scanner = scanner;
	/* flex scans its own copy: it writes NULs into the buffer it scans, and diagnostics
	 * printed during the parse must see the source lines intact */
	buf = ptx_yy_scan_bytes(m->src, (int)len, scanner);
	if (!buf)
		die("cannot scan the buffer");
	if (ptx_yyparse(scanner, &c) != 0 && c.nerr == 0)
		ptx_diag(&c, (PLoc){ c.line, c.col, c.file }, "cannot parse the input");
	b_module_end(&c);
	ptx_yy_delete_buffer(buf, scanner);
	ptx_yylex_destroy(scanner);

	m->vars = ACOPY(&c, c.vars, PVar);
	m->nvars = c.vars.n;
	m->funcs = ACOPY(&c, c.funcs, PFunc);
	m->nfuncs = c.funcs.n;
	m->files = ACOPY(&c, c.files, PFile);
	m->nfiles = c.files.n;

	/* free the context's temporaries */
	free(c.vars.a); free(c.funcs.a); free(c.files.a); free(c.gfix.a); free(c.mregs.a); free(c.rparms.a);
	free(c.init.a); free(c.scopes.a); free(c.braces.a); free(c.regs.a); free(c.ins.a); free(c.labels.a);
	free(c.locals.a); free(c.params.a); free(c.rets.a); free(c.pparams.a); free(c.prets.a);
	free(c.tlists.a); free(c.pragmas.a); free(c.fix.a); free(c.tfix.a); free(c.ops.a);
	free(c.elems.a); free(c.pnames.a); free(c.names.a); free(c.nlocs.a);
	ptab_free(&c.gtab); ptab_free(&c.ltab); ptab_free(&c.labtab); ptab_free(&c.allregs);

	/* the checks run on whatever was built, so that one run reports as much as it can */
	c.nerr += ptx_check(m, c.nerr < 50 ? err : NULL);
	if (nerrors)
		*nerrors = c.nerr;
	if (c.nerr) {
		ptx_free(m);
		return NULL;
	}
	return m;
}

