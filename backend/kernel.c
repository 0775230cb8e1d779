/* kernel.c - what a kernel carries besides its code, and what the program carries: the
 * functions a kernel reaches, its parameters, its .global variables (initial bytes,
 * relocations, function addresses in initializers), the bank-3 .const data, and its sizes
 * (registers, shared, local stack, spill bytes); the program's .file names and PTX files.
 *
 * backend.c calls be_kernel_data before emission (emit.c) and be_kernel_finish after it.
 * Calls only util.c.
 */
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"

/* the .file names of the program's line table (Prog.files), and the PTX files of a module
 * linked from several (Prog.ptxfiles, which Ins.ptxfile indexes) */
void be_prog_files(Prog *p, const Module *m)
{
	if (m->nunits > 1) {
		if (!(p->ptxfiles = calloc((size_t)m->nunits, sizeof(char *))))
			die("out of memory");
		for (int i = 0; i < m->nunits; i++)
			if (!(p->ptxfiles[i] = strdup(m->units[i].name)))
				die("out of memory");
		p->nptxfiles = m->nunits;
	}
	p->nfiles = 0;
	for (int i = 0; i < m->nfiles; i++)
		if (m->files[i].index + 1 > p->nfiles)
			p->nfiles = m->files[i].index + 1;
	if (!p->nfiles)
		return;
	p->files = calloc((size_t)p->nfiles, sizeof(char *));
	if (!p->files)
		die("out of memory");
	for (int i = 0; i < m->nfiles; i++)
		if (m->files[i].index >= 0)
			p->files[m->files[i].index] = strdup(m->files[i].name);
	for (int i = 0; i < p->nfiles; i++)
		if (!p->files[i])
			p->files[i] = strdup("");
}

/* bytes of local memory a thread needs: the deepest chain of frames (a recursive call
 * graph gets room for 16 more of its largest frame, at least CUDA's default 1 KiB) */
static uint32_t stack_of(const Module *m, Fn **fns, int fi, uint8_t *onpath, int *rec)
{
	uint32_t best = 0;
	const PFunc *pf = &m->funcs[fi];

	if (onpath[fi]) {
		*rec = 1;
		return 0;
	}
	onpath[fi] = 1;
	for (int i = 0; i < pf->nins; i++) {
		const PIns *in = &pf->ins[i];
		if (in->op != PO_CALL)
			continue;
		if (in->o[1].kind == POK_REG && in->o[3].kind == POK_TLIST &&
		    pf->tlists[in->o[3].sym].kind == PTL_PROTO &&
		    be_proto_args_size(&pf->tlists[in->o[3].sym]) > best)
			best = be_proto_args_size(&pf->tlists[in->o[3].sym]);   /* its outgoing area */
		for (int k = 0; k < m->nfuncs; k++) {
			int calls = 0;
			if (in->o[1].kind == POK_SYM && in->o[1].sym == k && !m->funcs[k].has_body &&
			    be_args_size(&m->funcs[k]) > best)
				best = be_args_size(&m->funcs[k]);   /* __assertfail's arguments (ASSERT) */
			if (!fns[k] || fns[k]->pf->entry)
				continue;
			if (in->o[1].kind == POK_SYM && in->o[1].sym == k)
				calls = 1;
			if (in->o[1].kind == POK_REG)
				calls = 1;  /* conservatively: any function of the kernel */
			if (calls) {
				uint32_t s = stack_of(m, fns, k, onpath, rec);
				if (s > best)
					best = s;
			}
		}
	}
	onpath[fi] = 0;
	return fns[fi]->frame + best;
}

/* function addresses in global initializers: the code byte address of the function in this
 * kernel, which the loader writes with the rest of the variable's initial bytes (a table the
 * kernel does not reach keeps 0: ptx_reach includes every function a referenced table names) */
static void fill_func_addrs(Kernel *k, const Module *m)
{
	for (int gi = 0; gi < k->nglobals; gi++) {
		GlobalVar *gv = &k->globals[gi];
		const PVar *v = NULL;
		for (int i = 0; i < m->nvars && !v; i++)
			if (m->vars[i].space == PS_GLOBAL && !strcmp(m->vars[i].name, gv->name))
				v = &m->vars[i];
		for (int j = 0; v && j < v->ninit && (uint64_t)(j + 1) * 8 <= v->size; j++) {
			const PInit *in = &v->init[j];
			const Label *l = NULL;
			uint64_t a;
			uint32_t *f;
			if (in->kind != PINIT_SYM || in->symkind != PSYM_FUNC)
				continue;
			for (int i = 0; i < k->nlabels && !l; i++)
				if (k->labels[i].kind == LBL_FUNC && !strcmp(k->labels[i].name, m->funcs[in->sym].name))
					l = &k->labels[i];
			if (!l)
				continue;  /* not in this kernel: the kernel never reads this table */
			if (!gv->init && !(gv->init = calloc(gv->size ? gv->size : 1, 1)))
				die("out of memory");
			a = l->addr + (uint64_t)in->bits;
			memcpy(gv->init + (size_t)j * 8, &a, 8);
			if (!(f = realloc(gv->fwords, (size_t)(gv->nfwords + 1) * sizeof *f)))
				die("out of memory");
			gv->fwords = f;
			gv->fwords[gv->nfwords++] = (uint32_t)j * 8;
		}
	}
}

/* element j of global v's initializer is the address of a global variable (plain or
 * generic, which are the same address here): the loader writes it (Kernel.relocs) */
static int is_greloc(const Module *m, const PVar *v, int j, int eb)
{
	const PInit *in = &v->init[j];

	return (in->kind == PINIT_SYM || in->kind == PINIT_GENERIC) && in->symkind == PSYM_VAR &&
	       v->space == PS_GLOBAL && eb == 8 && m->vars[in->sym].space == PS_GLOBAL;
}

/* the relocations of every global's initializer; kernel globals are the module's .global
 * variables in order */
static void add_relocs(Kernel *k, const Module *m)
{
	int gi = 0;

	for (int i = 0; i < m->nvars; i++) {
		const PVar *v = &m->vars[i];
		int eb = ptx_type_bytes((PType)v->type);
		if (v->space != PS_GLOBAL)
			continue;
		for (int j = 0; j < v->ninit && (uint64_t)(j + 1) * (uint64_t)eb <= v->size; j++)
			if (is_greloc(m, v, j, eb)) {
				int t = 0;
				for (int q = 0; q < v->init[j].sym; q++)
					t += m->vars[q].space == PS_GLOBAL;
				isa_kernel_add_reloc(k, gi, (uint64_t)j * 8, t, (uint64_t)v->init[j].bits);
			}
		gi++;
	}
}

Kernel *be_kernel_data(Prog *p, const Module *m, int fi, const Layout *vl, FILE *err)
{
	const PFunc *pf = &m->funcs[fi];
	Kernel *k = isa_prog_add_kernel(p, pf->name);

	for (int i = 0; i < pf->nparams; i++) {
		isa_kernel_add_param(k, be_entry_param_off(pf, i), (uint32_t)pf->params[i].size,
		                     pf->params[i].name);
		k->params[i].align = pf->params[i].align;   /* a launch's --arg struct: checks it */
	}
	for (int i = 0; i < m->nvars; i++) {
		const PVar *v = &m->vars[i];
		uint8_t *init = NULL;
		if (v->space != PS_GLOBAL && v->space != PS_CONST)
			continue;
		if (v->ninit) {
			int eb = ptx_type_bytes((PType)v->type);
			init = calloc(v->size ? v->size : 1, 1);
			if (!init)
				die("out of memory");
			for (int j = 0; j < v->ninit && (uint64_t)(j + 1) * (uint64_t)eb <= v->size; j++) {
				if (v->init[j].kind == PINIT_SYM && v->init[j].symkind == PSYM_FUNC &&
				    v->space == PS_GLOBAL && eb == 8)
					continue;  /* a function address: filled in once the code is laid out */
				if (is_greloc(m, v, j, eb))
					continue;  /* the address of a global: a relocation (add_relocs) */
				if (v->init[j].kind == PINIT_SYM && v->init[j].symkind == PSYM_VAR &&
				    m->vars[v->init[j].sym].space == PS_CONST) {
					/* a .const variable's address is its offset in bank 3, as the
					 * oracle's: known now */
					uint64_t a = vl->varoff[v->init[j].sym] + (uint64_t)v->init[j].bits;
					memcpy(init + (size_t)j * (size_t)eb, &a, (size_t)eb);
					continue;
				}
				if (v->init[j].kind == PINIT_SYM || v->init[j].kind == PINIT_GENERIC) {
					fprintf(err, "%s:%d:%d: error: unsupported: address initializer of '%s'\n",
					        ptx_loc_name(m, v->loc), v->loc.line, v->loc.col, v->name);
					free(init);
					return NULL;
				}
				memcpy(init + (size_t)j * (size_t)eb, &v->init[j].bits, (size_t)eb);
			}
		}
		if (v->space == PS_GLOBAL)
			isa_kernel_add_global(k, v->name, v->size, v->align ? v->align : 1, init, 0xe, 8u * (uint32_t)i);
		else if (v->size) {
			if (!init && !(init = calloc(v->size, 1)))
				die("out of memory");
			isa_kernel_add_cdata(k, 3, vl->varoff[i], init, (uint32_t)v->size);
			/* named: a launch's --const sets it */
			isa_kernel_cdata_var(k, v->name, ptx_type_name((PType)v->type), v->align);
		}
		free(init);
	}
	add_relocs(k, m);
	return k;
}

void be_kernel_finish(Kernel *k, const Module *m, int fi, Fn **fns, const Layout *vl, int arch)
{
	const PFunc *pf = &m->funcs[fi];
	uint8_t *onpath = calloc((size_t)m->nfuncs + 1, 1);
	int rec = 0, regs = 0;
	uint32_t spill = 0;

	if (!onpath)
		die("out of memory");
	for (int i = 0; i < m->nfuncs; i++)
		if (fns[i]) {
			if (fns[i]->maxreg > regs)
				regs = fns[i]->maxreg;
			spill += fns[i]->spillsz;
		}
	fill_func_addrs(k, m);
	/* TEX/TLD/TLD4/TXQ and SULD/SUST/SUQ name a module variable until here: the kernel's texture slots, in first use */
	for (int i = 0; i < k->nins; i++) {
		int s = isa_tex_slot(&k->ins[i]);
		if (s >= 0)
			k->ins[i].o[s].imm = isa_kernel_add_tex(k, m->vars[k->ins[i].o[s].imm].name);
		if ((s = isa_surf_slot(&k->ins[i])) >= 0)
			k->ins[i].o[s].imm = isa_kernel_add_surf(k, m->vars[k->ins[i].o[s].imm].name);
	}
	k->regs = regs > 0 ? regs : 1;
	{
		uint8_t *reach = calloc((size_t)m->nfuncs + 1, 1);
		if (!reach)
			die("out of memory");
		for (int i = 0; i < m->nfuncs; i++)
			reach[i] = fns[i] != NULL;
		k->shared = be_kernel_shared(m, vl, reach);
		free(reach);
	}
	k->local = stack_of(m, fns, fi, onpath, &rec);
	if (rec) {
		/* recursion: room for 16 more of the largest frame, at least CUDA's 1 KiB */
		uint32_t big = 0;
		for (int i = 0; i < m->nfuncs; i++)
			if (fns[i] && fns[i]->frame > big)
				big = fns[i]->frame;
		k->local += big * 16 > 1024 ? big * 16 : 1024;
	}
	k->spill = spill;
	k->arch = arch;
	k->maxntid = pf->maxntid[0] ? pf->maxntid[0] * (pf->maxntid[1] ? pf->maxntid[1] : 1) *
	             (pf->maxntid[2] ? pf->maxntid[2] : 1) : 0;
	for (int i = 0; pf->reqntid[0] && i < 3; i++)
		k->reqntid[i] = pf->reqntid[i] ? pf->reqntid[i] : 1;
	k->minctas = pf->minnctapersm;
	free(onpath);
}
