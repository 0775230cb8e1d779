/* decl.c - declarations: specifiers, array dimensions, initializers, variables (module
 * and body; .global/.const ones in a body are module storage), registers and %r<N> ranges,
 * and the values of labels whose address is taken (b_label_values). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/build.h"
#include "ptx.tab.h"

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
	if (c->inbody && ptab_find(&c->labtab, name->s, name->n)) {
		/* a label of this body: resolved with the forward ones at its end */
		s = NULL;
	}
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
int
ptx_make_var(PCtx *c, PVar *v, const PTok *name, PLoc l)
{
	PDSpec *d = &c->ds;
	uint64_t n = 1;
	int elsize;

	memset(v, 0, sizeof *v);
	v->name = name ? ptx_pdup(c, name) : ptx_strndup(c->A, "_", 1);
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

static void add_reg(PCtx *c, const char *name, int len, int type, int vec, PLoc l);

void
b_add_reg(PCtx *c, const char *name, int len, int type, PLoc l)
{
	add_reg(c, name, len, type, 1, l);
}

static void
add_reg(PCtx *c, const char *name, int len, int type, int vec, PLoc l)
{
	PReg r = { (char *)name, (uint8_t)type, (uint8_t)vec, l, 0 };
	PTabEnt *e = ptab_find(&c->ltab, name, len);
	int scope0 = c->scopes.n ? c->scopes.a[c->scopes.n - 1] : 0;

	if (!c->inbody) {
		/* PTX 1.x's module-scope .reg (nvopencc's %ra, %rv...): per-thread storage that
		 * every function body declares again (b_module_regs), a copy per function */
		for (int i = 0; i < c->mregs.n; i++)
			if ((int)strlen(c->mregs.a[i].name) == len && !memcmp(c->mregs.a[i].name, name,
			                                                        (size_t)len)) {
				ptx_diag(c, l, "redeclaration of '%.*s'", len, name);
				return;
			}
		if (ptab_find(&c->gtab, name, len)) {
			ptx_diag(c, l, "redefinition of '%.*s'", len, name);
			return;
		}
		pvec_push(c->mregs, r);
		return;
	}
	if (e && (int)(e - c->ltab.ent.a) >= scope0) {
		ptx_diag(c, l, "redeclaration of '%.*s'", len, name);
		return;
	}
	if (vec > 4) {
		ptx_diag(c, l, "a vector register is .v2 or .v4, not .v%d", vec);
		return;
	}
	pvec_push(c->regs, r);
	ptab_add(&c->ltab, name, len, NK_REG, c->regs.n - 1);
	if (!ptab_find(&c->allregs, name, len))
		ptab_add(&c->allregs, name, len, NK_REG, c->regs.n - 1);
	/* a vector register: its elements follow it as scalar registers v.x, v.y (v.z, v.w),
	 * also named v.r, v.g (v.b, v.a) as the PTX ISA allows; an operand naming the whole
	 * register is the vector of its elements (ins.c) */
	for (int k = 0; vec > 1 && k < vec && k < 4; k++) {
		static const char xyzw[] = "xyzw", rgba[] = "rgba";
		char *en = ptx_alloc(c->A, (size_t)len + 3), *an = ptx_alloc(c->A, (size_t)len + 3);
		PReg er = { en, (uint8_t)type, 1, l, (uint8_t)(k + 1) };
		snprintf(en, (size_t)len + 3, "%.*s.%c", len, name, xyzw[k]);
		snprintf(an, (size_t)len + 3, "%.*s.%c", len, name, rgba[k]);
		pvec_push(c->regs, er);
		ptab_add(&c->ltab, en, len + 2, NK_REG, c->regs.n - 1);
		ptab_add(&c->ltab, an, len + 2, NK_REG, c->regs.n - 1);
		if (!ptab_find(&c->allregs, en, len + 2)) {
			ptab_add(&c->allregs, en, len + 2, NK_REG, c->regs.n - 1);
			ptab_add(&c->allregs, an, len + 2, NK_REG, c->regs.n - 1);
		}
	}
}

/* a body's copies of the module-scope registers, in the function's outermost scope */
void
b_module_regs(PCtx *c)
{
	for (int i = 0; i < c->mregs.n; i++) {
		const PReg *r = &c->mregs.a[i];
		add_reg(c, r->name, (int)strlen(r->name), r->type, r->vec, r->loc);
	}
}

/* a body's registers for its .reg parameters and returns; the parameters are copied in */
void
b_reg_params(PCtx *c)
{
	for (int i = 0; i < c->rparms.n; i++) {
		const PRegParm *r = &c->rparms.a[i];
		if (r->idx < 0)
			continue;
		add_reg(c, r->name, r->len, r->type, r->vec, r->loc);
		if (!r->ret)
			b_param_copy(c, r, c->regs.n - 1 - (r->vec > 1 ? r->vec : 0));
	}
}

/* the function-scope variable named name (Module.vars index), -1 */
static int
scoped_named(PCtx *c, const char *name)
{
	for (int i = 0; i < c->vars.n; i++)
		if (c->vars.a[i].scopefn && !strcmp(c->vars.a[i].name, name))
			return i;
	return -1;
}

/* a .global/.const variable declared in a body: module storage (Module.vars, scopefn set),
 * its name visible in the scope that declares it. Its name stays unique among module
 * variables, since listings and launch files name globals. */
static void
declare_scoped(PCtx *c, PVar *v, const PTok *name, PLoc l)
{
	if (c->fidx < 0)
		return;
	if (ptab_find(&c->gtab, name->s, name->n) || scoped_named(c, v->name) >= 0) {
		ptx_diag(c, l, "unsupported: function-scope %s variable '%s' has the name of another "
		         "module-scope symbol", ptx_space_name((PSpace)v->space), v->name);
		return;
	}
	if (v->link == PLINK_EXTERN) {
		ptx_diag(c, l, "unsupported: .extern variable '%s' inside a function body", v->name);
		return;
	}
	v->scopefn = c->fidx + 1;
	pvec_push(c->vars, *v);
	ptab_add(&c->ltab, c->vars.a[c->vars.n - 1].name, name->n, NK_VAR, c->vars.n - 1);
}

/* End of a body: labels named in the initializers of its variables become PINIT_LABEL;
 * then every label whose address is taken (a mov source, an initializer element) gets its
 * value, its ordinal among them in label order, written into those initializers. */
void
b_label_values(PCtx *c)
{
	int fn = c->fidx + 1, n = 0;

	if (c->fidx < 0)
		return;
	for (int i = 0; i < c->vars.n; i++) {
		PVar *v = &c->vars.a[i];
		for (int j = 0; v->scopefn == fn && j < v->ninit; j++) {
			PInit *e = &v->init[j];
			PFix *f;
			PTabEnt *t;
			if ((e->kind != PINIT_SYM && e->kind != PINIT_GENERIC) || e->symkind != PSYM_NONE ||
			    e->sym < 0)
				continue;
			f = &c->gfix.a[e->sym];
			if (!(t = ptab_find(&c->labtab, f->name, f->len)))
				continue;       /* a module symbol, resolved at the end of the module */
			if (t->kind != NK_LABEL) {
				ptx_diag(c, f->loc, "'%.*s' is a target list, not a label", f->len, f->name);
			} else if (e->kind == PINIT_GENERIC || e->bits != 0) {
				ptx_diag(c, f->loc, "label '%.*s' in an initializer takes no offset and no "
				         "generic()", f->len, f->name);
			} else if (ptx_type_bytes((PType)v->type) < 4 ||
			           ptx_type_kind((PType)v->type) == PTK_FLOAT) {
				ptx_diag(c, f->loc, "label '%.*s' initializes '%s' of type %s: a label's value "
				         "needs a 32- or 64-bit integer element", f->len, f->name, v->name,
				         ptx_type_name((PType)v->type));
			} else {
				e->kind = PINIT_LABEL;
				e->sym = t->idx;
				c->labels.a[t->idx].value = 0;   /* taken; numbered below */
				continue;
			}
			e->kind = PINIT_INT;
			e->sym = -1;
		}
	}
	for (int i = 0; i < c->ins.n; i++) {
		const PIns *in = &c->ins.a[i];
		if (in->op == PO_MOV && in->nopd >= 2 && in->o[1].kind == POK_LABEL)
			c->labels.a[in->o[1].sym].value = 0;
	}
	for (int i = 0; i < c->labels.n; i++)
		if (c->labels.a[i].value == 0)
			c->labels.a[i].value = n++;
	for (int i = 0; i < c->vars.n; i++) {
		PVar *v = &c->vars.a[i];
		for (int j = 0; v->scopefn == fn && j < v->ninit; j++)
			if (v->init[j].kind == PINIT_LABEL)
				v->init[j].bits = c->labels.a[v->init[j].sym].value;
	}
}

void
b_declare(PCtx *c, const PTok *name, PLoc l)
{
	PVar v;

	if (c->ds.space == PS_REG) {
		if (c->ds.type < 0)
			ptx_diag(c, l, "missing type in the declaration of '%.*s'", name->n, name->s);
		else if (c->ds.ndim || c->init.n)
			ptx_diag(c, l, "unsupported: register arrays and initialized registers");
		else
			add_reg(c, ptx_pdup(c, name), name->n, c->ds.type, c->ds.vec, l);
		goto next;
	}
	if (!ptx_make_var(c, &v, name, l))
		goto next;
	if (c->inbody && (v.space == PS_GLOBAL || v.space == PS_CONST)) {
		declare_scoped(c, &v, name, l);
	} else if (c->inbody) {
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
		if (scoped_named(c, v.name) >= 0) {
			ptx_diag(c, l, "unsupported: module-scope '%s' has the name of a function-scope "
			         "variable declared before it", v.name);
		} else if (e && e->kind == NK_VAR && c->vars.a[e->idx].link == PLINK_EXTERN) {
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

