/* load.c - prepares a launch for the oracle: finds the kernel, lays out kernel parameters
 * (constant bank 0 from 0x20, as dev_launch_place writes them), module variables (globals
 * in device memory after the launch buffers, .const in the oracle's constant space, .local
 * at fixed offsets), .shared variables as the translator places them (each kernel's CTA
 * holding what the kernel reaches), every function's frame (params, returns, .local and
 * .param variables) and writes the initializers. Frames are pushed and popped here too. */
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "oracle/internal.h"

static uint32_t alignup(uint32_t v, uint32_t a)
{
	if (a < 1)
		a = 1;
	return (v + a - 1) / a * a;
}

static uint32_t varalign(const PVar *v)
{
	uint32_t a = v->align ? v->align : 1;
	return a > 256 ? 256 : a;
}

static int isshared(int s) { return s == PS_SHARED || s == PS_SHARED_CTA; }
/* a dynamic shared array: extern and unsized, placed after the static part */
static int isdyn(const PVar *v) { return isshared(v->space) && v->link == PLINK_EXTERN && !v->size; }

_Noreturn void or_die(const char *file, int line, const char *msg)
{
	fprintf(stderr, "%s:%d: internal error: %s\n", file, line, msg);
	abort();
}

static void *xcalloc(size_t n, size_t s)
{
	void *p = calloc(n ? n : 1, s ? s : 1);
	if (!p)
		die("out of memory");
	return p;
}

/* the kernel to run: --kernel NAME, or the only .entry; the messages are the SM model's
 * (tools/warpsim.c), naming the kernels the module has. -1: a wrong or ambiguous --kernel,
 * -2: the module has no kernel */
static int find_kernel(const Module *m, const Launch *l, FILE *err)
{
	int ki = -1, n = 0;

	for (int i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].entry && m->funcs[i].has_body)
			ki = i, n++;
	if (l->kernel) {
		ki = ptx_find_func(m, l->kernel);
		if (ki >= 0 && m->funcs[ki].entry && m->funcs[ki].has_body)
			return ki;
		fprintf(err, "warpsim: --kernel: no kernel '%s' in %s; it has:", l->kernel, m->name);
	} else if (n == 1)
		return ki;
	else if (n == 0) {
		fprintf(err, "warpsim: %s holds no kernel\n", m->name);
		return -2;
	} else
		fprintf(err, "warpsim: %s holds %d kernels; choose one with --kernel:", m->name, n);
	for (int i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].entry && m->funcs[i].has_body)
			fprintf(err, " %s", m->funcs[i].name);
	fprintf(err, "\n");
	return -1;
}

/* frame layout of a function: params, returns, then .local and .param variables (its .shared
 * variables: place_shared) */
static void layout_func(Oracle *o, int fi)
{
	const PFunc *f = &o->m->funcs[fi];
	FInfo *x = &o->fi[fi];
	uint32_t off = 0;

	x->paroff = xcalloc(f->nparams, sizeof *x->paroff);
	x->retoff = xcalloc(f->nrets, sizeof *x->retoff);
	x->varoff = xcalloc(f->nlocals, sizeof *x->varoff);
	if (f->entry)   /* (every kernel's: a child grid's too, cdp.c) */
		off = OR_KPARAM_BASE;   /* kernel parameters: offsets in constant bank 0 */
	for (int i = 0; i < f->nparams; i++) {
		off = alignup(off, varalign(&f->params[i]));
		x->paroff[i] = off;
		off += (uint32_t)f->params[i].size;
	}
	if (f->entry)
		off = 0;      /* the kernel's own frame holds only its variables */
	for (int i = 0; i < f->nrets; i++) {
		off = alignup(off, varalign(&f->rets[i]));
		x->retoff[i] = off;
		off += (uint32_t)f->rets[i].size;
	}
	for (int i = 0; i < f->nlocals; i++) {
		const PVar *v = &f->locals[i];
		if (isshared(v->space))
			continue;
		off = alignup(off, varalign(v));
		x->varoff[i] = off;
		off += (uint32_t)v->size;
	}
	x->size = alignup(off, 16);
}

/* ------------------------------------------------------------------ shared memory
 * The SM model's translator's layout (backend/layout.c, docs/backend.md), so that a kernel
 * sees the same addresses and the same CTA size in both engines: the sized module .shared
 * variables in order from 0, then every .func's body's, at the same places for every kernel;
 * each kernel's body's after the end of what the kernel reaches of those (kernels' bodies
 * overlap); a CTA holds up to the end of the last variable its kernel reaches. The extern
 * unsized (dynamic) arrays all start after the whole static part of every kernel, aligned
 * to 16 or to the largest of their alignments. */

/* the end of the last sized .shared module variable operand op names (0: none); *dyn set
 * when it names a dynamic array */
static uint32_t named_end(const Oracle *o, const POpd *op, int *dyn)
{
	uint32_t end = 0;

	for (int e = 0; (op->kind == POK_VEC || op->kind == POK_LIST) && e < op->nelems; e++) {
		uint32_t x = named_end(o, &op->elems[e], dyn);
		end = x > end ? x : end;
	}
	if ((op->kind == POK_SYM || op->kind == POK_ADDR) && op->symkind == PSYM_VAR && op->sym >= 0 &&
	    op->sym < o->m->nvars && isshared(o->m->vars[op->sym].space)) {
		const PVar *v = &o->m->vars[op->sym];
		if (isdyn(v))
			*dyn = 1;
		else if (o->varaddr[op->sym] + v->size > end)
			end = (uint32_t)(o->varaddr[op->sym] + v->size);
	}
	return end;
}

/* the end of the last sized .shared variable that a function marked in reach declares (a
 * kernel's body only when bodies) or names; *dyn: one of them is a dynamic array */
static uint32_t reach_end(const Oracle *o, const uint8_t *reach, int bodies, int *dyn)
{
	uint32_t end = 0;

	for (int fi = 0; fi < o->m->nfuncs; fi++) {
		const PFunc *f = &o->m->funcs[fi];
		if (!reach[fi] || !f->has_body)
			continue;
		for (int i = 0; (bodies || !f->entry) && i < f->nlocals; i++)
			if (isshared(f->locals[i].space)) {
				if (isdyn(&f->locals[i]))
					*dyn = 1;
				else if (o->fi[fi].varoff[i] + (uint32_t)f->locals[i].size > end)
					end = o->fi[fi].varoff[i] + (uint32_t)f->locals[i].size;
			}
		for (int i = 0; i < f->nins; i++)
			for (int s = 0; s < f->ins[i].nopd; s++) {
				uint32_t x = named_end(o, &f->ins[i].o[s], dyn);
				end = x > end ? x : end;
			}
	}
	return end;
}

/* function fi's sized body .shared variables from at on; returns the offset after them */
static uint32_t place_body(Oracle *o, int fi, uint32_t at)
{
	const PFunc *f = &o->m->funcs[fi];

	for (int i = 0; i < f->nlocals; i++)
		if (isshared(f->locals[i].space) && !isdyn(&f->locals[i])) {
			at = alignup(at, f->locals[i].align);
			o->fi[fi].varoff[i] = at;
			at += (uint32_t)f->locals[i].size;
		}
	return at;
}

/* every .shared variable's offset, and each kernel's CTA static bytes (FInfo.shared) */
static void place_shared(Oracle *o)
{
	const Module *m = o->m;
	uint32_t at = 0, top, dynalign = 16, dynat;
	uint8_t *reach = xcalloc((size_t)m->nfuncs + 1, 1);

	for (int i = 0; i < m->nvars; i++)
		if (isshared(m->vars[i].space) && !isdyn(&m->vars[i])) {
			at = alignup(at, m->vars[i].align);
			o->varaddr[i] = at;
			at += (uint32_t)m->vars[i].size;
		}
	for (int fi = 0; fi < m->nfuncs; fi++)
		if (m->funcs[fi].has_body && !m->funcs[fi].entry)
			at = place_body(o, fi, at);
	top = at;
	for (int fi = 0; fi < m->nfuncs; fi++) {
		int dyn = 0;
		if (!m->funcs[fi].has_body || !m->funcs[fi].entry)
			continue;
		memset(reach, 0, (size_t)m->nfuncs + 1);
		ptx_reach(m, fi, reach);
		at = place_body(o, fi, reach_end(o, reach, 0, &dyn));
		top = at > top ? at : top;
		o->fi[fi].shared = reach_end(o, reach, 1, &dyn);
		o->fi[fi].shdyn = (uint8_t)dyn;
	}
	/* the dynamic arrays: all at one place after the static part of every kernel */
	for (int i = 0; i < m->nvars; i++)
		if (isdyn(&m->vars[i]) && varalign(&m->vars[i]) > dynalign)
			dynalign = varalign(&m->vars[i]);
	for (int fi = 0; fi < m->nfuncs; fi++)
		for (int i = 0; i < m->funcs[fi].nlocals; i++)
			if (isdyn(&m->funcs[fi].locals[i]) && varalign(&m->funcs[fi].locals[i]) > dynalign)
				dynalign = varalign(&m->funcs[fi].locals[i]);
	dynat = alignup(top, dynalign);
	for (int i = 0; i < m->nvars; i++)
		if (isdyn(&m->vars[i]))
			o->varaddr[i] = dynat;
	for (int fi = 0; fi < m->nfuncs; fi++)
		for (int i = 0; o->fi[fi].varoff && i < m->funcs[fi].nlocals; i++)
			if (isdyn(&m->funcs[fi].locals[i]))
				o->fi[fi].varoff[i] = dynat;
	/* a kernel that reaches a dynamic array has a CTA up to where they start */
	for (int fi = 0; fi < m->nfuncs; fi++)
		if (o->fi[fi].shdyn && o->fi[fi].shared < dynat)
			o->fi[fi].shared = dynat;
	free(reach);
}

void or_kernel_shared(Oracle *o, int ki, uint32_t dynbytes)
{
	o->shstatic = o->fi[ki].shared;
	o->shsize = o->shstatic + dynbytes;
}

/* whether a --const of l sets the .const variable name */
static int launch_sets(const Launch *l, const char *name)
{
	for (int i = 0; i < l->nconsts; i++)
		if (!strcmp(l->consts[i].name, name))
			return 1;
	return 0;
}

/* whether a --const value of an earlier launch of the run lies at off in constant bank 3 */
static int covered(const Mem *mem, uint32_t off)
{
	for (int i = 0; i < mem->ncover; i++)
		if (mem->cover[i].bank == DEV_CONST_BANK && mem->cover[i].offset == off)
			return 1;
	return 0;
}

/* the value of one initializer element */
static uint64_t init_value(Oracle *o, const PInit *in)
{
	switch ((PInitKind)in->kind) {
	case PINIT_INT: case PINIT_FLOAT: case PINIT_LABEL:   /* a label: its value (bits) */
		return (uint64_t)in->bits;
	case PINIT_SYM: case PINIT_GENERIC: {
		uint64_t a;
		if (in->symkind == PSYM_FUNC)
			return OR_FUNC_BASE + 16ull * in->sym + (uint64_t)in->bits;
		a = o->varaddr[in->sym] + (uint64_t)in->bits;
		if (in->kind == PINIT_GENERIC && (o->m->vars[in->sym].space == PS_SHARED ||
		                                   o->m->vars[in->sym].space == PS_SHARED_CTA))
			a += DEV_SHARED_WINDOW;
		return a;
	}
	}
	return 0;
}

static void write_init(Oracle *o, const PVar *v, uint8_t *p)
{
	int es = ptx_type_bytes((PType)v->type);

	if (v->type == PT_PRED || es == 0)
		return;
	for (int i = 0; i < v->ninit && (uint64_t)(i + 1) * es <= v->size; i++)
		dev_st(p + (size_t)i * es, es, init_value(o, &v->init[i]));
}

int or_load(Oracle *o, const Module *m, const Launch *l, Placed *pl)
{
	Prog *prog;
	Kernel *k;
	uint32_t coff = 0, loff = 0;
	const PFunc *kf;
	int rc;

	o->m = m;
	o->l = l;
	if ((o->ki = find_kernel(m, l, o->err)) < 0)
		return o->ki == -2 ? OR_NOKERNEL : OR_BADLAUNCH;
	kf = &m->funcs[o->ki];
	o->fi = xcalloc(m->nfuncs, sizeof *o->fi);
	o->varaddr = xcalloc(m->nvars, sizeof *o->varaddr);
	/* module variables other than globals and .shared (place_shared) */
	for (int i = 0; i < m->nvars; i++) {
		const PVar *v = &m->vars[i];
		switch (v->space) {
		case PS_CONST:
			coff = alignup(coff, varalign(v));
			o->varaddr[i] = coff;
			coff += (uint32_t)v->size;
			break;
		case PS_LOCAL:
			loff = alignup(loff, varalign(v));
			o->varaddr[i] = loff;
			loff += (uint32_t)v->size;
			break;
		default:
			break;
		}
	}
	for (int fi = 0; fi < m->nfuncs; fi++)
		if (m->funcs[fi].has_body || fi == o->ki)
			layout_func(o, fi);
	place_shared(o);
	or_kernel_shared(o, o->ki, l->shared_bytes);
	o->lstatic = alignup(loff, 16);
	o->csize = coff;
	o->cmem = xcalloc(coff ? coff : 1, 1);

	/* the launch buffers and the parameters in bank 0, through sim's own placement */
	prog = isa_prog_new();
	k = isa_prog_add_kernel(prog, kf->name);
	/* .reqntid and .maxntid: the launches the kernel takes, as the translator's Kernel says */
	for (int i = 0; kf->reqntid[0] && i < 3; i++)
		k->reqntid[i] = kf->reqntid[i] ? kf->reqntid[i] : 1;
	if (kf->maxntid[0])
		k->maxntid = kf->maxntid[0] * (kf->maxntid[1] ? kf->maxntid[1] : 1) *
		             (kf->maxntid[2] ? kf->maxntid[2] : 1);
	for (int i = 0; i < kf->nparams; i++) {
		isa_kernel_add_param(k, o->fi[o->ki].paroff[i], (uint32_t)kf->params[i].size,
		                     kf->params[i].name);
		k->params[i].align = kf->params[i].align;
	}
	/* the .const variables a --const sets: placed (checked, their buffers allocated) in
	 * constant bank 3 as the SM model's, at the oracle's offsets; copied to cmem below */
	for (int i = 0; i < m->nvars; i++)
		if (m->vars[i].space == PS_CONST && m->vars[i].size && launch_sets(l, m->vars[i].name)) {
			uint8_t *z = xcalloc((size_t)m->vars[i].size, 1);
			isa_kernel_add_cdata(k, DEV_CONST_BANK, o->varaddr[i], z, (uint32_t)m->vars[i].size);
			isa_kernel_cdata_var(k, m->vars[i].name, ptx_type_name((PType)m->vars[i].type),
			                     varalign(&m->vars[i]));
			free(z);
		}
	/* the module globals, placed by dev_launch_place as the SM model's are (after the launch's
	 * buffers, in declaration order: the same addresses) */
	for (int i = 0; i < m->nvars; i++)
		if (m->vars[i].space == PS_GLOBAL)
			isa_kernel_add_global(k, m->vars[i].name, m->vars[i].size, varalign(&m->vars[i]),
			                      NULL, ISA_NOSLOT, 0);
	rc = dev_launch_place(o->mem, k, l, pl, o->err);
	isa_prog_free(prog);
	if (rc)
		return OR_BADLAUNCH;
	/* the texture and surface bindings, once: a reference by its variable, an object by its
	 * handle (flow.c) */
	if (dev_binds_init(&o->binds, o->mem, l)) {
		fprintf(o->err, "warpsim: oracle: out of memory\n");
		return OR_BADLAUNCH;
	}
	o->bindof = xcalloc(m->nvars ? m->nvars : 1, sizeof *o->bindof);
	for (int i = 0; i < m->nvars; i++) {
		const PVar *v = &m->vars[i];
		o->bindof[i] = v->type == PT_SURFREF ? dev_surf_find(l, v->name) :
		               v->space == PS_TEX || v->type == PT_TEXREF ? dev_tex_find(l, v->name) : -1;
	}
	/* the module globals' addresses (placed above, in this order) */
	for (int i = 0, g = 0; i < m->nvars; i++)
		if (m->vars[i].space == PS_GLOBAL)
			o->varaddr[i] = pl->gaddr[g++];
	for (int i = 0; i < m->nvars; i++) {
		const PVar *v = &m->vars[i];
		if (!v->ninit)
			continue;
		if (v->space == PS_GLOBAL)
			write_init(o, v, dev_mem_global(o->mem, o->varaddr[i], 0));
		else if (v->space == PS_CONST)
			write_init(o, v, o->cmem + o->varaddr[i]);
	}
	/* a --const (of this launch or an earlier one of the run) replaces the initializer */
	for (int i = 0; i < m->nvars; i++)
		if (m->vars[i].space == PS_CONST && m->vars[i].size &&
		    (launch_sets(l, m->vars[i].name) || covered(o->mem, o->varaddr[i])))
			dev_mem_cread(o->mem, DEV_CONST_BANK, o->varaddr[i], o->cmem + o->varaddr[i],
			              (uint32_t)m->vars[i].size);
	if (or_heap_place(o, l)) {
		fprintf(o->err, "warpsim: oracle: cannot allocate the device heap (%" PRIu32 " bytes)\n",
		        l->heap_bytes);
		return OR_BADLAUNCH;
	}
	o->nthreads = l->block[0] * l->block[1] * l->block[2];
	if (o->nthreads > 1024) {
		fprintf(o->err, "warpsim: oracle: a CTA of %u threads is more than 1024\n", o->nthreads);
		return OR_BADLAUNCH;
	}
	return OR_DONE;
}

void or_thread_free(Thread *t)
{
	free(t->fr);
	free(t->regs);
	free(t->local);
	memset(t, 0, sizeof *t);
}

void or_unload(Oracle *o)
{
	if (o->fi)
		for (int i = 0; i < o->m->nfuncs; i++) {
			free(o->fi[i].paroff);
			free(o->fi[i].retoff);
			free(o->fi[i].varoff);
		}
	free(o->fi);
	free(o->varaddr);
	free(o->bindof);
	dev_binds_free(&o->binds);
	free(o->cmem);
	free(o->shared);
	if (o->th)
		for (uint32_t i = 0; i < o->nthreads; i++)
			or_thread_free(&o->th[i]);
	free(o->th);
	if (o->cdp)
		dev_cdp_free(o->cdp);
	free(o->cdp);
	o->cdp = NULL;
	o->fi = NULL, o->varaddr = NULL, o->bindof = NULL, o->cmem = NULL, o->shared = NULL, o->th = NULL;
}

/* pushes a frame for function fi: zeroed registers and variables; 0, or -1 (stack full) */
int or_push_frame(Oracle *o, Thread *t, int fi, int callpc)
{
	const PFunc *f = &o->m->funcs[fi];
	uint32_t from = t->nfr ? t->lsize : 0;   /* the first frame follows module .local */
	uint32_t lbase = alignup(t->nfr ? t->lsize : o->lstatic, 16), need = lbase + o->fi[fi].size;
	Frame *fr;

	if (need > OR_LOCAL_MAX || t->nfr >= 65536)
		return -1;
	if (need > t->lcap) {
		uint32_t cap = t->lcap ? t->lcap : 256;
		uint8_t *p;
		while (cap < need)
			cap *= 2;
		if (!(p = realloc(t->local, cap)))
			die("out of memory");
		t->local = p;
		t->lcap = cap;
	}
	if (need > from)
		memset(t->local + from, 0, need - from);
	t->lsize = need;
	if (t->nregs + (uint32_t)f->nregs > t->capregs) {
		uint32_t cap = t->capregs ? t->capregs : 64;
		uint64_t *p;
		while (cap < t->nregs + (uint32_t)f->nregs)
			cap *= 2;
		if (!(p = realloc(t->regs, cap * sizeof *p)))
			die("out of memory");
		t->regs = p;
		t->capregs = cap;
	}
	if (f->nregs)
		memset(t->regs + t->nregs, 0, f->nregs * sizeof *t->regs);
	if (t->nfr == t->capfr) {
		int cap = t->capfr ? 2 * t->capfr : 4;
		Frame *p = realloc(t->fr, cap * sizeof *p);
		if (!p)
			die("out of memory");
		t->fr = p;
		t->capfr = cap;
	}
	fr = &t->fr[t->nfr++];
	fr->fi = fi;
	fr->pc = 0;
	fr->regs = t->nregs;
	fr->lbase = lbase;
	fr->callpc = callpc;
	t->nregs += f->nregs;
	if (t->nfr > o->st.max_depth)
		o->st.max_depth = t->nfr;
	return 0;
}
