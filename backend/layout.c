/* layout.c - where variables and parameters live: module-wide placement of .shared and
 * .const variables, each function's frame (.local variables, homes of call arguments), and
 * the offsets of kernel parameters, of a .func's incoming parameters and returns, and of a
 * call's argument and result slots.
 *
 * Module layout (docs/backend.md): module .shared variables, then every .func body's .shared
 * variables, at increasing offsets from 0 (natural alignment), then each kernel's body's after
 * those the kernel reaches (kernels overlap); the dynamic shared memory (unsized extern .shared
 * arrays, at module scope or in a body) all at one place after the whole static part,
 * aligned to 16 or more; a kernel's CTA holds what it reaches
 * (be_kernel_shared); module .const variables in bank 3
 * from 0; module .global variables in device memory, each address written by the loader
 * into c[0xe][8*i] (i its Module.vars index); kernel parameters in bank 0 from 0x20.
 *
 * Calls only util.c.
 */
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"

/* ------------------------------------------------------------------ module */
static uint32_t align_up(uint32_t v, uint32_t a)
{
	if (a == 0)
		a = 1;
	return (v + a - 1) / a * a;
}

static int is_shared(int s) { return s == PS_SHARED || s == PS_SHARED_CTA; }
/* an array of the dynamic shared memory: extern and unsized (CUDA: "all variables declared in
 * this fashion start at the same address") */
static int is_dyn(const PVar *v) { return is_shared(v->space) && v->link == PLINK_EXTERN && !v->size; }

uint32_t be_var_offset(Fn *f, int symkind, int sym)
{
	if (symkind == PSYM_VAR)
		return f->vl->varoff[sym];
	if (symkind == PSYM_LOCAL) {
		const PVar *v = &f->pf->locals[sym];
		if (is_shared(v->space))
			return f->vl->locoff[f->fidx][sym];
		return f->localoff[sym];
	}
	return 0;
}

static uint32_t reach_end(const Module *m, const Layout *l, const uint8_t *reach, int entries, int dyn);

/* the module variables that sel picks from at on, each at its alignment: their varoff;
 * returns the offset after them */
static uint32_t place_vars(const Module *m, Layout *l, int (*sel)(const PVar *), uint32_t at)
{
	for (int i = 0; i < m->nvars; i++) {
		const PVar *v = &m->vars[i];
		if (!sel(v))
			continue;
		at = align_up(at, v->align);
		l->varoff[i] = at;
		at += (uint32_t)v->size;
	}
	return at;
}
static int static_shared(const PVar *v) { return is_shared(v->space) && !is_dyn(v); }
static int const_var(const PVar *v) { return v->space == PS_CONST; }
static int local_var(const PVar *v) { return v->space == PS_LOCAL; }

/* function fi's body .shared variables from at on (the dynamic ones later): their locoff;
 * returns the offset after */
static uint32_t place_body(const Module *m, Layout *l, int fi, uint32_t at)
{
	const PFunc *pf = &m->funcs[fi];

	l->locoff[fi] = calloc((size_t)pf->nlocals + 1, sizeof(uint32_t));
	if (!l->locoff[fi])
		die("out of memory");
	for (int i = 0; i < pf->nlocals; i++)
		if (is_shared(pf->locals[i].space) && !is_dyn(&pf->locals[i])) {
			at = align_up(at, pf->locals[i].align);
			l->locoff[fi][i] = at;
			at += (uint32_t)pf->locals[i].size;
		}
	return at;
}

/* the start of the dynamic shared memory after top, the end of the static part: aligned to
 * 16 or to the largest alignment of its arrays (at most 256), as the oracle places it
 * (oracle/load.c place_shared) and ptxas 11.8 places arrays of alignment 16 or less */
static uint32_t dyn_start(const Module *m, uint32_t top)
{
	uint32_t a = 16;

	for (int i = 0; i < m->nvars; i++)
		if (is_dyn(&m->vars[i]) && m->vars[i].align > a)
			a = m->vars[i].align;
	for (int fi = 0; fi < m->nfuncs; fi++)
		for (int i = 0; i < m->funcs[fi].nlocals; i++)
			if (is_dyn(&m->funcs[fi].locals[i]) && m->funcs[fi].locals[i].align > a)
				a = m->funcs[fi].locals[i].align;
	return align_up(top, a > 256 ? 256 : a);
}

void be_layout(const Module *m, Layout *l)
{
	uint32_t sh, top;
	uint8_t *reach;

	l->varoff = calloc((size_t)m->nvars + 1, sizeof(uint32_t));
	l->locoff = calloc((size_t)m->nfuncs + 1, sizeof(uint32_t *));
	reach = calloc((size_t)m->nfuncs + 1, 1);
	if (!l->varoff || !l->locoff || !reach)
		die("out of memory");
	/* sized module .shared variables, then the bodies of .funcs (a .func's code is one for
	 * every kernel that calls it, so are its variables' places), then each kernel's body after
	 * what the .funcs it reaches and the module variables it names hold: no two kernels share
	 * a CTA, and a kernel's CTA holds only what it reaches (be_kernel_shared); the dynamic
	 * arrays, the module's and the bodies', all at one start after the whole static part */
	sh = place_vars(m, l, static_shared, 0);
	for (int fi = 0; fi < m->nfuncs; fi++)
		if (!m->funcs[fi].entry)
			sh = place_body(m, l, fi, sh);
	top = sh;
	for (int fi = 0; fi < m->nfuncs; fi++) {
		uint32_t end;
		if (!m->funcs[fi].entry)
			continue;
		memset(reach, 0, (size_t)m->nfuncs + 1);
		ptx_reach(m, fi, reach);
		end = place_body(m, l, fi, reach_end(m, l, reach, 0, 0));
		top = end > top ? end : top;
	}
	free(reach);
	l->shared = dyn_start(m, top);
	for (int i = 0; i < m->nvars; i++)
		if (is_dyn(&m->vars[i]))
			l->varoff[i] = l->shared;
	for (int fi = 0; fi < m->nfuncs; fi++)
		for (int i = 0; i < m->funcs[fi].nlocals; i++)
			if (is_dyn(&m->funcs[fi].locals[i]))
				l->locoff[fi][i] = l->shared;
	l->cbank = place_vars(m, l, const_var, 0);
	/* module-scope .local variables (PTX 1.x and 2.x; deprecated since): per-thread storage,
	 * addressed from the start of every thread's local memory, the entry's frame above them */
	l->local = align_up(place_vars(m, l, local_var, 0), 16);
}

/* the end of the last .shared variable operand o names (0: none); a dynamic array ends where
 * it starts, at l->shared, when dyn (else 0) */
static uint32_t opd_shared(const Module *m, const Layout *l, const POpd *o, int dyn)
{
	const PVar *v;
	uint32_t end = 0;

	if (o->kind == POK_VEC || o->kind == POK_LIST) {
		for (int e = 0; e < o->nelems; e++) {
			uint32_t x = opd_shared(m, l, &o->elems[e], dyn);
			end = x > end ? x : end;
		}
		return end;
	}
	if ((o->kind != POK_SYM && o->kind != POK_ADDR) || o->symkind != PSYM_VAR || o->sym < 0 ||
	    o->sym >= m->nvars)
		return 0;
	v = &m->vars[o->sym];
	if (!is_shared(v->space))
		return 0;
	return !is_dyn(v) ? l->varoff[o->sym] + (uint32_t)v->size : dyn ? l->shared : 0;
}

/* the end of the last .shared variable that a function marked in reach declares (a kernel's
 * body only when entries) or names */
static uint32_t reach_end(const Module *m, const Layout *l, const uint8_t *reach, int entries, int dyn)
{
	uint32_t end = 0;

	for (int fi = 0; fi < m->nfuncs; fi++) {
		const PFunc *pf = &m->funcs[fi];
		if (!reach[fi])
			continue;
		for (int i = 0; (entries || !pf->entry) && i < pf->nlocals; i++) {
			const PVar *v = &pf->locals[i];
			uint32_t x = !is_dyn(v) ? l->locoff[fi][i] + (uint32_t)v->size : dyn ? l->shared : 0;
			if (is_shared(v->space) && x > end)
				end = x;
		}
		for (int i = 0; i < pf->nins; i++)
			for (int s = 0; s < pf->ins[i].nopd; s++) {
				uint32_t x = opd_shared(m, l, &pf->ins[i].o[s], dyn);
				end = x > end ? x : end;
			}
	}
	return end;
}

uint32_t be_kernel_shared(const Module *m, const Layout *l, const uint8_t *reach)
{
	return reach_end(m, l, reach, 1, 1);
}

void be_layout_free(const Module *m, Layout *l)
{
	if (l->locoff)
		for (int i = 0; i < m->nfuncs; i++)
			free(l->locoff[i]);
	free(l->locoff);
	free(l->varoff);
}

/* ------------------------------------------------------------------ parameters */
/* byte offset of param (or, isret, ret) i in a signature's block of params then rets, each
 * at its alignment; i < 0 gives the end of the block */
static uint32_t sig_off(const PVar *p, int np, const PVar *r, int nr, int isret, int i)
{
	uint32_t off = 0;

	for (int k = 0; k < np + nr; k++) {
		const PVar *v = k < np ? &p[k] : &r[k - np];
		uint32_t al = v->align ? v->align : 1;
		off = (off + al - 1) / al * al;
		if ((!isret && k == i) || (isret && k == np + i))
			return off;
		off += (uint32_t)v->size;
	}
	return off;
}

uint32_t be_entry_param_off(const PFunc *pf, int idx)
{
	return BE_KPARAM_BASE + sig_off(pf->params, pf->nparams, NULL, 0, 0, idx);
}

uint32_t be_func_param_off(const PFunc *pf, int kind, int idx)
{
	return sig_off(pf->params, pf->nparams, pf->rets, pf->nrets, kind == PSYM_RET, idx);
}

/* bytes of a .func's incoming params and rets (8-aligned) */
static uint32_t frame_args(const PFunc *pf)
{
	return (sig_off(pf->params, pf->nparams, pf->rets, pf->nrets, 0, -1) + 7) & ~7u;
}

uint32_t be_args_size(const PFunc *g)
{
	return frame_args(g);
}

uint32_t be_proto_args_size(const PTList *tl)
{
	return (sig_off(tl->params, tl->nparams, tl->rets, tl->nrets, 0, -1) + 7) & ~7u;
}

uint32_t be_call_slot(const Module *m, const PFunc *caller, const PIns *call, int isret, int i)
{
	const POpd *callee = &call->o[1];

	if (callee->kind == POK_SYM && callee->symkind == PSYM_FUNC) {
		const PFunc *g = &m->funcs[callee->sym];
		return sig_off(g->params, g->nparams, g->rets, g->nrets, isret, i);
	}
	if (call->o[3].kind == POK_SYM && call->o[3].symkind == PSYM_VAR) {
		const PVar *v = &m->vars[call->o[3].sym];
		if (v->ninit > 0 && v->init[0].kind == PINIT_SYM && v->init[0].symkind == PSYM_FUNC) {
			const PFunc *g = &m->funcs[v->init[0].sym];
			return sig_off(g->params, g->nparams, g->rets, g->nrets, isret, i);
		}
	}
	if (call->o[3].kind == POK_TLIST) {
		const PTList *tl = &caller->tlists[call->o[3].sym];
		if (tl->kind == PTL_PROTO)
			return sig_off(tl->params, tl->nparams, tl->rets, tl->nrets, isret, i);
		if (tl->kind == PTL_CALL && tl->ntargets > 0) {
			const PFunc *g = &m->funcs[tl->targets[0]];
			return sig_off(g->params, g->nparams, g->rets, g->nrets, isret, i);
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ frame */
/* the frame of a function: incoming params/rets (.func), then .local variables; .param
 * variables of the body are call arguments and results. One used by a single call, with no
 * other call between its first and last use (nvcc's pattern), lives directly at the callee's
 * slot in the outgoing area (relative to the frame's end); any other gets a home in the
 * frame, copied to and from the outgoing area around each call (isel_call.c) */
void be_frame_layout(Fn *f)
{
	const PFunc *pf = f->pf;
	uint32_t off;
	int n = pf->nlocals + 1;
	int *call = be_alloc(f->pool, sizeof(int) * (size_t)n);
	int *first = be_alloc(f->pool, sizeof(int) * (size_t)n);
	int *last = be_alloc(f->pool, sizeof(int) * (size_t)n);
	uint32_t *slot = be_alloc(f->pool, sizeof(uint32_t) * (size_t)n);

	f->paramsz = pf->entry ? 0 : frame_args(pf);
	off = pf->entry ? f->vl->local : f->paramsz;   /* (the module's .local variables below) */
	f->localoff = be_alloc(f->pool, sizeof(uint32_t) * (size_t)n);
	f->parhome = be_alloc(f->pool, (size_t)n);
	for (int i = 0; i < n; i++)
		call[i] = first[i] = last[i] = -1;
	for (int i = 0; i < pf->nins; i++) {
		const PIns *in = &pf->ins[i];
		for (int s = 0; s < in->nopd; s++) {
			const POpd *o = &in->o[s];
			int nel = o->kind == POK_LIST ? o->nelems : 1;
			for (int e = 0; e < nel; e++) {
				const POpd *x = o->kind == POK_LIST ? &o->elems[e] : o;
				int l = x->sym;
				if ((x->kind != POK_ADDR && x->kind != POK_SYM) || x->symkind != PSYM_LOCAL || l < 0 ||
				    pf->locals[l].space != PS_PARAM)
					continue;
				if (first[l] < 0)
					first[l] = i;
				last[l] = i;
				if (in->op != PO_CALL || (s != 0 && s != 2))
					continue;
				uint32_t so = be_call_slot(f->m, pf, in, s == 0, e);
				if (call[l] >= 0 && (call[l] != i || slot[l] != so))
					f->parhome[l] = 1;
				call[l] = i;
				slot[l] = so;
			}
		}
	}
	for (int l = 0; l < pf->nlocals; l++) {
		if (pf->locals[l].space != PS_PARAM || first[l] < 0)
			continue;
		if (call[l] < 0)
			f->parhome[l] = 1;
		for (int i = first[l]; i <= last[l] && !f->parhome[l]; i++)
			if (pf->ins[i].op == PO_CALL && i != call[l])
				f->parhome[l] = 1;
		f->localoff[l] = slot[l];
	}
	for (int i = 0; i < pf->nlocals; i++) {
		const PVar *v = &pf->locals[i];
		if (v->space != PS_LOCAL && !f->parhome[i])
			continue;
		off = align_up(off, v->align);
		f->localoff[i] = off;
		off += (uint32_t)v->size;
	}
	f->localsz = align_up(off, 8) - f->paramsz;
}
