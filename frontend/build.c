/* build.c - building the module from the grammar's actions: the lexer's keyword and number
 * decoding, module directives, declarations (variables, registers, params), functions and
 * their scopes, labels and target lists, and ptx_parse() that drives it all. Instructions
 * and operands are in ins.c. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/build.h"
#include "ptx.tab.h"
#define YYSTYPE PTX_YYSTYPE
#define YYLTYPE PTX_YYLTYPE
#include "ptx.lex.h"

/* ------------------------------------------------------------------ vectors and tables */
void
pvec_grow_(void **a, int *cap, size_t elsize)
{
	int n = *cap ? *cap * 2 : 16;
	void *p;

	if (*cap > INT_MAX / 4)
		die("table too large");
	p = realloc(*a, (size_t)n * elsize);
	if (!p)
		die("out of memory");
	*a = p;
	*cap = n;
}

static uint32_t
hash(const char *s, int n)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

void
ptab_init(PTab *t, int nbucket)
{
	memset(t, 0, sizeof *t);
	t->nbucket = nbucket;
	t->bucket = malloc(sizeof *t->bucket * (size_t)nbucket);
	if (!t->bucket)
		die("out of memory");
	memset(t->bucket, -1, sizeof *t->bucket * (size_t)nbucket);
}

void
ptab_free(PTab *t)
{
	free(t->bucket);
	free(t->ent.a);
	memset(t, 0, sizeof *t);
}

void
ptab_clear(PTab *t)
{
	ptab_pop_to(t, 0);
}

static void
ptab_rehash(PTab *t)
{
	int nb = t->nbucket * 4;
	int *b = malloc(sizeof *b * (size_t)nb);

	if (!b)
		die("out of memory");
	memset(b, -1, sizeof *b * (size_t)nb);
	/* entries in insertion order, so later (shadowing) ones end up first in a chain */
	for (int i = 0; i < t->ent.n; i++) {
		PTabEnt *e = &t->ent.a[i];
		int h = (int)(e->hash & (uint32_t)(nb - 1));
		e->next = b[h];
		b[h] = i;
	}
	free(t->bucket);
	t->bucket = b;
	t->nbucket = nb;
}

PTabEnt *
ptab_find(PTab *t, const char *name, int len)
{
	uint32_t h = hash(name, len);
	for (int i = t->bucket[h & (uint32_t)(t->nbucket - 1)]; i >= 0; i = t->ent.a[i].next) {
		PTabEnt *e = &t->ent.a[i];
		if (e->hash == h && e->len == len && memcmp(e->name, name, (size_t)len) == 0)
			return e;
	}
	return NULL;
}

void
ptab_add(PTab *t, const char *name, int len, int kind, int idx)
{
	PTabEnt e = { name, len, hash(name, len), -1, kind, idx };
	int b;

	if (t->ent.n >= t->nbucket)
		ptab_rehash(t);
	b = (int)(e.hash & (uint32_t)(t->nbucket - 1));
	e.next = t->bucket[b];
	pvec_push(t->ent, e);
	t->bucket[b] = t->ent.n - 1;
}

void
ptab_pop_to(PTab *t, int n)
{
	while (t->ent.n > n) {
		PTabEnt *e = &t->ent.a[--t->ent.n];
		/* the entry is the head of its chain: it was added last */
		t->bucket[e->hash & (uint32_t)(t->nbucket - 1)] = e->next;
	}
}

/* ------------------------------------------------------------------ lexer support */
static const struct { const char *s; int tok; int val; } dotwords[] = {
	/* sorted by name (strcmp) */
	{ ".address_size", ADDRESS_SIZE, 0 }, { ".align", ALIGN, 0 },
	{ ".b128", TYPE, PT_B128 }, { ".b16", TYPE, PT_B16 }, { ".b32", TYPE, PT_B32 },
	{ ".b64", TYPE, PT_B64 }, { ".b8", TYPE, PT_B8 }, { ".bf16", TYPE, PT_BF16 },
	{ ".bf16x2", TYPE, PT_BF16X2 }, { ".branchtargets", BRANCHTARGETS, 0 },
	{ ".callprototype", CALLPROTOTYPE, 0 }, { ".calltargets", CALLTARGETS, 0 },
	{ ".common", COMMON, 0 }, { ".const", SPACE, PS_CONST },
	{ ".e4m3", TYPE, PT_E4M3 }, { ".e4m3x2", TYPE, PT_E4M3X2 }, { ".e5m2", TYPE, PT_E5M2 },
	{ ".e5m2x2", TYPE, PT_E5M2X2 }, { ".entry", ENTRY, 0 },
	{ ".explicitcluster", EXPLICITCLUSTER, 0 }, { ".extern", EXTERN, 0 },
	{ ".f16", TYPE, PT_F16 }, { ".f16x2", TYPE, PT_F16X2 }, { ".f32", TYPE, PT_F32 },
	{ ".f64", TYPE, PT_F64 }, { ".file", FILE_, 0 }, { ".func", FUNC, 0 },
	{ ".global", SPACE, PS_GLOBAL }, { ".loc", LOC, 0 }, { ".local", SPACE, PS_LOCAL },
	{ ".maxclusterrank", MAXCLUSTERRANK, 0 }, { ".maxnctapersm", MAXNCTAPERSM, 0 },
	{ ".maxnreg", MAXNREG, 0 }, { ".maxntid", MAXNTID, 0 },
	{ ".minnctapersm", MINNCTAPERSM, 0 }, { ".noreturn", NORETURN, 0 },
	{ ".param", SPACE, PS_PARAM }, { ".param::entry", SPACE, PS_PARAM_ENTRY },
	{ ".param::func", SPACE, PS_PARAM_FUNC }, { ".pragma", PRAGMA, 0 },
	{ ".pred", TYPE, PT_PRED }, { ".ptr", PTR, 0 }, { ".reg", SPACE, PS_REG },
	{ ".reqnctapercluster", REQNCTAPERCLUSTER, 0 }, { ".reqntid", REQNTID, 0 },
	{ ".s16", TYPE, PT_S16 }, { ".s32", TYPE, PT_S32 }, { ".s64", TYPE, PT_S64 },
	{ ".s8", TYPE, PT_S8 }, { ".samplerref", TYPE, PT_SAMPLERREF },
	{ ".shared", SPACE, PS_SHARED }, { ".shared::cluster", SPACE, PS_SHARED_CLUSTER },
	{ ".shared::cta", SPACE, PS_SHARED_CTA }, { ".sreg", SPACE, PS_SREG },
	{ ".surfref", TYPE, PT_SURFREF }, { ".target", TARGET, 0 }, { ".tex", SPACE, PS_TEX },
	{ ".texref", TYPE, PT_TEXREF }, { ".tf32", TYPE, PT_TF32 },
	{ ".u16", TYPE, PT_U16 }, { ".u32", TYPE, PT_U32 }, { ".u64", TYPE, PT_U64 },
	{ ".u8", TYPE, PT_U8 }, { ".v2", VEC, 2 }, { ".v4", VEC, 4 }, { ".v8", VEC, 8 },
	{ ".version", VERSION, 0 }, { ".visible", VISIBLE, 0 }, { ".weak", WEAK, 0 },
};

int
ptx_lex_dotword(PCtx *c, const char *s, int n, PTok *t)
{
	int lo = 0, hi = (int)(sizeof dotwords / sizeof dotwords[0]) - 1;

	(void)c;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		const char *k = dotwords[mid].s;
		int r = strncmp(k, s, (size_t)n);
		if (r == 0 && k[n])
			r = 1;
		if (r == 0) {
			t->val = dotwords[mid].val;
			return dotwords[mid].tok;
		}
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return DOTWORD;
}

int
ptx_lex_int(PCtx *c, PTX_YYLTYPE *l, PTok *t, int base, int ikind)
{
	const char *p = t->s;
	int n = t->n;
	uint64_t v = 0;
	int over = 0;

	t->flags = 0;
	if (n > 0 && p[n - 1] == 'U') {
		t->flags = POF_UNSIGNED;
		n--;
	}
	if (base != 10 && base != 8) {
		p += 2;
		n -= 2;
	}
	for (int i = 0; i < n; i++) {
		int d = p[i] <= '9' ? p[i] - '0' : (p[i] | 0x20) - 'a' + 10;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			over = 1;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (over)
		ptx_lex_error(c, l, "integer literal out of range");
	t->u = v;
	t->ikind = (uint8_t)ikind;
	return INTLIT;
}

int
ptx_lex_float(PCtx *c, PTX_YYLTYPE *l, PTok *t)
{
	char buf[64];
	double d;
	int n = t->n < 63 ? t->n : 63;

	memcpy(buf, t->s, (size_t)n);
	buf[n] = 0;
	errno = 0;
	d = strtod(buf, NULL);
	if (errno == ERANGE && (d > 1 || d < -1))
		ptx_lex_error(c, l, "floating-point literal out of range");
	memcpy(&t->u, &d, sizeof d);
	t->ikind = PIMM_FLOAT;
	return FLOATLIT;
}

void
ptx_lex_error(PCtx *c, PTX_YYLTYPE *l, const char *msg)
{
	ptx_diag(c, ploc(l), "%s", msg);
}

void
ptx_lex_stray(PCtx *c, PTX_YYLTYPE *l, int ch)
{
	if (ch >= 0x20 && ch < 0x7f)
		ptx_diag(c, ploc(l), "stray '%c' in program", ch);
	else
		ptx_diag(c, ploc(l), "stray byte 0x%02x in program", ch);
}

/* ------------------------------------------------------------------ module directives */
static char *
pdup(PCtx *c, const PTok *t)
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

/* ------------------------------------------------------------------ declaration specifiers */
void
b_ds_reset(PCtx *c)
{
	memset(&c->ds, 0, sizeof c->ds);
	c->ds.space = c->ds.type = -1;
	c->ds.vec = 1;
	c->init.n = 0;
}

static int
ds_first(PCtx *c, PLoc l)
{
	if (c->ds.loc.line == 0)
		c->ds.loc = l;
	return 0;
}

void
b_ds_space(PCtx *c, int space, PLoc l)
{
	ds_first(c, l);
	if (c->ds.ptr && c->ds.space >= 0)
		c->ds.ptrspace = space;
	else if (c->ds.space >= 0)
		ptx_diag(c, l, "more than one state space in declaration");
	else
		c->ds.space = space;
}

void
b_ds_type(PCtx *c, int type, PLoc l)
{
	ds_first(c, l);
	if (c->ds.type >= 0)
		ptx_diag(c, l, "more than one type in declaration");
	c->ds.type = type;
}

void
b_ds_vec(PCtx *c, int vec)
{
	c->ds.vec = vec;
}

void
b_ds_align(PCtx *c, const PTok *t, PLoc l)
{
	ds_first(c, l);
	if (t->u == 0 || (t->u & (t->u - 1)) || t->u > (1u << 20))
		ptx_diag(c, l, "alignment must be a power of two");
	else if (c->ds.ptr)
		c->ds.ptralign = (int)t->u;
	else
		c->ds.align = (int)t->u;
}

void
b_ds_ptr(PCtx *c)
{
	c->ds.ptr = 1;
}

void
b_ds_link(PCtx *c, int link, PLoc l)
{
	ds_first(c, l);
	c->ds.link = link;
}

void
b_dim(PCtx *c, const PTok *t, PLoc l)
{
	if (c->ds.ndim == PTX_MAXDIM) {
		ptx_diag(c, l, "too many array dimensions (at most %d)", PTX_MAXDIM);
		return;
	}
	if (!t) {
		if (c->ds.ndim > 0)
			ptx_diag(c, l, "only the first array dimension may be left out");
		c->ds.unsized = 1;
	} else if (t->u == 0 || t->u > (1u << 30)) {
		ptx_diag(c, l, "array dimension must be between 1 and 2^30");
	}
	c->ds.dims[c->ds.ndim++] = t ? t->u : 0;
}

void
b_init_num(PCtx *c, const PTok *t, int neg, PLoc l)
{
	PInit e = { t->ikind == PIMM_F32 || t->ikind == PIMM_F64 || t->ikind == PIMM_FLOAT ?
	            PINIT_FLOAT : PINIT_INT, (uint8_t)t->ikind, -1, (int64_t)t->u };
	(void)l;
	/* symkind carries the literal kind until b_declare converts to the element type */
	if (neg) {
		if (e.kind == PINIT_INT)
			e.bits = -e.bits;
		else
			e.bits ^= (int64_t)(t->ikind == PIMM_F32 ? 0x80000000u : (uint64_t)1 << 63);
	}
	if (c->init.n >= (1 << 24)) {
		if (c->init.n == (1 << 24))
			ptx_diag(c, l, "initializer too long");
		return;
	}
	pvec_push(c->init, e);
}

void
b_init_generic_kw(PCtx *c, const PTok *kw, PLoc l)
{
	if (kw->n != 7 || memcmp(kw->s, "generic", 7) != 0)
		ptx_diag(c, l, "expected 'generic(name)' in initializer, not '%.*s(...)'", kw->n, kw->s);
}

void
b_init_sym(PCtx *c, const PTok *name, const PTok *off, int neg, int generic, PLoc l)
{
	PInit e = { generic ? PINIT_GENERIC : PINIT_SYM, PSYM_NONE, -1, 0 };
	PTabEnt *s = ptab_find(&c->gtab, name->s, name->n);

	if (off)
		e.bits = neg ? -(int64_t)off->u : (int64_t)off->u;
	if (s) {
		e.symkind = s->kind == NK_FUNC ? PSYM_FUNC : PSYM_VAR;
		e.sym = s->idx;
	} else {
		/* resolved at the end of the module: remember the name and where */
		PFix f = { NULL, name->s, name->n, 0, l };
		e.sym = c->gfix.n;
		pvec_push(c->gfix, f);
	}
	pvec_push(c->init, e);
}

/* converts a numeric initializer to the bits of element type ty */
static int64_t
init_bits(PCtx *c, const PInit *e, int ty, PLoc l)
{
	PTypeKind k = ptx_type_kind((PType)ty);
	double d;

	if (e->kind == PINIT_INT) {
		if (k != PTK_FLOAT)
			return e->bits;
		d = (double)e->bits;
	} else {
		if (k != PTK_FLOAT) {
			ptx_diag(c, l, "floating-point initializer for a variable of type %s",
			         ptx_type_name((PType)ty));
			return 0;
		}
		if (e->symkind == PIMM_F32) {
			uint32_t u = (uint32_t)e->bits;
			float f;
			memcpy(&f, &u, 4);
			d = f;
			if (ty == PT_F32)
				return (int64_t)u;
		} else {
			memcpy(&d, &e->bits, 8);
		}
	}
	if (ty == PT_F64) {
		int64_t b;
		memcpy(&b, &d, 8);
		return b;
	}
	if (ty == PT_F32) {
		float f = (float)d;
		uint32_t u;
		memcpy(&u, &f, 4);
		return (int64_t)u;
	}
	ptx_diag(c, l, "initializers of type %s are not supported", ptx_type_name((PType)ty));
	return 0;
}

/* fills v from the specifiers and dims; returns 0 after an error */
static int
make_var(PCtx *c, PVar *v, const PTok *name, PLoc l)
{
	PDSpec *d = &c->ds;
	uint64_t n = 1;
	int elsize;

	memset(v, 0, sizeof *v);
	v->name = name ? pdup(c, name) : ptx_strndup(c->A, "_", 1);
	v->loc = l;
	if (d->space < 0) {
		ptx_diag(c, l, "missing state space in the declaration of '%s'", v->name);
		return 0;
	}
	if (d->type < 0) {
		ptx_diag(c, l, "missing type in the declaration of '%s'", v->name);
		return 0;
	}
	v->space = (uint8_t)d->space;
	v->type = (uint8_t)d->type;
	v->vec = (uint8_t)d->vec;
	v->link = (uint8_t)d->link;
	v->ptrspace = (uint8_t)d->ptrspace;
	v->ptralign = (uint32_t)d->ptralign;
	v->ndim = (uint8_t)d->ndim;
	memcpy(v->dims, d->dims, sizeof v->dims);
	for (int i = 0; i < d->ndim; i++)
		n *= d->dims[i] ? d->dims[i] : 1;
	elsize = d->type == PT_PRED ? 1 : ptx_type_bytes((PType)d->type) * d->vec;
	if (d->unsized && c->init.n > 0 && d->ndim > 0) {
		/* "x[] = {...}": the first dimension comes from the initializer */
		uint64_t inner = n * (uint64_t)d->vec;
		v->dims[0] = ((uint64_t)c->init.n + inner - 1) / inner;
		n *= v->dims[0];
	} else if (d->unsized) {
		n = 0;
	}
	v->nelem = n;
	v->size = n * (uint64_t)elsize;
	v->align = d->align ? (uint32_t)d->align : (uint32_t)(elsize ? elsize : 1);
	v->explicit_align = d->align != 0;
	if (c->init.n) {
		if ((uint64_t)c->init.n > n * (uint64_t)d->vec) {
			ptx_diag(c, l, "too many initializers for '%s' (%d for %llu elements)", v->name,
			         c->init.n, (unsigned long long)(n * (uint64_t)d->vec));
			return 0;
		}
		v->init = ptx_alloc(c->A, sizeof *v->init * (size_t)c->init.n);
		for (int i = 0; i < c->init.n; i++) {
			PInit e = c->init.a[i];
			if (e.kind == PINIT_INT || e.kind == PINIT_FLOAT) {
				e.bits = init_bits(c, &e, d->type, l);
				e.kind = ptx_type_kind((PType)d->type) == PTK_FLOAT ? PINIT_FLOAT : PINIT_INT;
				e.symkind = PSYM_NONE;
				e.sym = -1;
			}
			v->init[i] = e;
		}
		v->ninit = c->init.n;
	}
	return 1;
}

static void
add_reg(PCtx *c, const char *name, int len, int type, int vec, PLoc l)
{
	PReg r = { (char *)name, (uint8_t)type, (uint8_t)vec, l };
	PTabEnt *e = ptab_find(&c->ltab, name, len);
	int scope0 = c->scopes.n ? c->scopes.a[c->scopes.n - 1] : 0;

	if (e && (int)(e - c->ltab.ent.a) >= scope0) {
		ptx_diag(c, l, "redeclaration of '%.*s'", len, name);
		return;
	}
	pvec_push(c->regs, r);
	ptab_add(&c->ltab, name, len, NK_REG, c->regs.n - 1);
	if (!ptab_find(&c->allregs, name, len))
		ptab_add(&c->allregs, name, len, NK_REG, c->regs.n - 1);
}

void
b_declare(PCtx *c, const PTok *name, PLoc l)
{
	PVar v;

	if (c->ds.space == PS_REG) {
		if (!c->inbody)
			ptx_diag(c, l, "unsupported: .reg declarations outside a function body");
		else if (c->ds.type < 0)
			ptx_diag(c, l, "missing type in the declaration of '%.*s'", name->n, name->s);
		else if (c->ds.ndim || c->init.n)
			ptx_diag(c, l, "unsupported: register arrays and initialized registers");
		else
			add_reg(c, pdup(c, name), name->n, c->ds.type, c->ds.vec, l);
		goto next;
	}
	if (!make_var(c, &v, name, l))
		goto next;
	if (c->inbody) {
		PTabEnt *e = ptab_find(&c->ltab, name->s, name->n);
		int scope0 = c->scopes.n ? c->scopes.a[c->scopes.n - 1] : 0;
		if (v.space != PS_LOCAL && v.space != PS_SHARED && v.space != PS_PARAM) {
			ptx_diag(c, l, "unsupported: %s variable inside a function body",
			         ptx_space_name((PSpace)v.space));
			goto next;
		}
		if (e && (int)(e - c->ltab.ent.a) >= scope0) {
			ptx_diag(c, l, "redeclaration of '%s'", v.name);
			goto next;
		}
		pvec_push(c->locals, v);
		ptab_add(&c->ltab, v.name, name->n, NK_LOCAL, c->locals.n - 1);
	} else {
		PTabEnt *e = ptab_find(&c->gtab, name->s, name->n);
		if (v.space == PS_PARAM) {
			ptx_diag(c, l, "unsupported: %s variable at module scope",
			         ptx_space_name((PSpace)v.space));
			goto next;
		}
		if (e && e->kind == NK_VAR && c->vars.a[e->idx].link == PLINK_EXTERN) {
			c->vars.a[e->idx] = v;   /* the definition of an extern declaration */
		} else if (e) {
			ptx_diag(c, l, "redefinition of '%s'", v.name);
		} else {
			pvec_push(c->vars, v);
			ptab_add(&c->gtab, v.name, name->n, NK_VAR, c->vars.n - 1);
		}
	}
next:
	/* the specifiers stay for the next declarator of the list, dims and init do not */
	c->ds.ndim = 0;
	c->ds.unsized = 0;
	memset(c->ds.dims, 0, sizeof c->ds.dims);
	c->init.n = 0;
}

void
b_declare_range(PCtx *c, const PTok *name, const PTok *n, PLoc l)
{
	if (c->ds.space != PS_REG) {
		ptx_diag(c, l, "a '<N>' range only declares registers");
		return;
	}
	if (!c->inbody) {
		ptx_diag(c, l, "unsupported: .reg declarations outside a function body");
		return;
	}
	if (c->ds.type < 0) {
		ptx_diag(c, l, "missing type in the declaration of '%.*s'", name->n, name->s);
		return;
	}
	if (n->u > 1000000) {
		ptx_diag(c, l, "register range too large (at most 1000000)");
		return;
	}
	for (uint64_t i = 0; i < n->u; i++) {
		char buf[24], *d = buf + sizeof buf;
		uint64_t v = i;
		int k;
		*--d = 0;
		do
			*--d = (char)('0' + v % 10);
		while ((v /= 10) != 0);
		k = (int)(buf + sizeof buf - 1 - d);
		char *s = ptx_alloc(c->A, (size_t)name->n + (size_t)k + 1);
		memcpy(s, name->s, (size_t)name->n);
		memcpy(s + name->n, d, (size_t)k + 1);
		add_reg(c, s, name->n + k, c->ds.type, c->ds.vec, l);
	}
}

/* ------------------------------------------------------------------ functions */
static void
body_reset(PCtx *c)
{
	c->regs.n = c->ins.n = c->labels.n = c->locals.n = 0;
	c->params.n = c->rets.n = c->tlists.n = c->pragmas.n = 0;
	c->fix.n = c->tfix.n = c->scopes.n = c->names.n = c->nlocs.n = 0;
	c->pparams.n = c->prets.n = 0;
	c->pnames.n = 0;
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

	c->cur.name = pdup(c, name);
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

void
b_param(PCtx *c, const PTok *name, PLoc l)
{
	PVar v;

	if (c->ds.space == PS_REG) {
		ptx_diag(c, l, "unsupported: .reg parameters (old PTX style); declare them .param");
		b_ds_reset(c);
		return;
	}
	if (make_var(c, &v, name, l)) {
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
	default: die("bad performance directive");
	}
	if (c->cur.entry && which == NORETURN)
		ptx_diag(c, l, ".noreturn is only allowed on a .func");
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
	PLabel lab = { pdup(c, name), c->ins.n, l };

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
}

void
b_proto_noreturn(PCtx *c)
{
	c->protonoret = 1;
}

void
b_tlist(PCtx *c, int kind, const PTok *name, PLoc l)
{
	PTList t;

	memset(&t, 0, sizeof t);
	t.name = pdup(c, name);
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
		ptx_diag(c, (PLoc){ 0, 0 }, "missing .version directive (a PTX module starts with "
		         "\".version X.Y\")");
}

/* ------------------------------------------------------------------ driver */
Module *
ptx_parse(const char *name, const char *text, size_t len, FILE *err, int *nerrors)
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
		ptx_diag(&c, (PLoc){ c.line, c.col }, "cannot parse the input");
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
	free(c.vars.a); free(c.funcs.a); free(c.files.a); free(c.gfix.a);
	free(c.init.a); free(c.scopes.a); free(c.regs.a); free(c.ins.a); free(c.labels.a);
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
