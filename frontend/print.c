/* print.c - the module printed back as PTX (warpc -dP). The output is valid PTX that
 * parses to the same IR: prototypes of every .func first, then variables, then bodies;
 * registers and body variables are declared at the top of their function (names declared
 * twice in different scopes get a "$id" suffix); %r0..%rN-1 runs print as %r<N>. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/build.h"

typedef struct {
	FILE *out;
	const Module *m;
	const PFunc *f;
	uint8_t *regdup;    /* per register: print with a $id suffix */
	uint8_t *localdup;  /* per local: likewise */
} Pr;

/* marks the second and later declarations of a name */
static uint8_t *
dups(char **names, size_t stride, int n)
{
	uint8_t *d = calloc((size_t)(n ? n : 1), 1);
	PTab t;

	if (!d)
		die("out of memory");
	ptab_init(&t, 256);
	for (int i = 0; i < n; i++) {
		char *s = *(char **)((char *)names + stride * (size_t)i);
		int len = (int)strlen(s);
		if (ptab_find(&t, s, len))
			d[i] = 1;
		else
			ptab_add(&t, s, len, 0, i);
	}
	ptab_free(&t);
	return d;
}

static void
reg(Pr *p, int r)
{
	fputs(p->f->regs[r].name, p->out);
	if (p->regdup[r])
		fprintf(p->out, "$%d", r);
}

static void
sym(Pr *p, int kind, int i)
{
	switch ((PSymKind)kind) {
	case PSYM_VAR: fputs(p->m->vars[i].name, p->out); return;
	case PSYM_FUNC: fputs(p->m->funcs[i].name, p->out); return;
	case PSYM_LOCAL:
		fputs(p->f->locals[i].name, p->out);
		if (p->localdup[i])
			fprintf(p->out, "$%d", i);
		return;
	case PSYM_PARAM: fputs(p->f->params[i].name, p->out); return;
	case PSYM_RET: fputs(p->f->rets[i].name, p->out); return;
	case PSYM_NONE: break;
	}
	fputs("?", p->out);
}

static void
imm(FILE *out, int ikind, int flags, int64_t v)
{
	switch ((PImmKind)ikind) {
	case PIMM_DEC:
		if (flags & POF_UNSIGNED)
			fprintf(out, "%" PRIu64 "U", (uint64_t)v);
		else
			fprintf(out, "%" PRId64, v);
		return;
	case PIMM_HEX: fprintf(out, "0x%" PRIx64 "%s", (uint64_t)v, flags & POF_UNSIGNED ? "U" : ""); return;
	case PIMM_OCT: fprintf(out, "0%" PRIo64 "%s", (uint64_t)v, flags & POF_UNSIGNED ? "U" : ""); return;
	case PIMM_BIN: {
		int top = 63;
		fputs("0b", out);
		while (top > 0 && !(((uint64_t)v >> top) & 1))
			top--;
		for (; top >= 0; top--)
			fputc('0' + (int)(((uint64_t)v >> top) & 1), out);
		if (flags & POF_UNSIGNED)
			fputc('U', out);
		return;
	}
	case PIMM_F32: fprintf(out, "0f%08" PRIX32, (uint32_t)v); return;
	case PIMM_F64: fprintf(out, "0d%016" PRIX64, (uint64_t)v); return;
	case PIMM_FLOAT: {
		double d;
		char buf[64];
		memcpy(&d, &v, 8);
		snprintf(buf, sizeof buf, "%.17g", d);
		if (!strpbrk(buf, ".eninf"))
			strcat(buf, ".0");
		fputs(buf, out);
		return;
	}
	}
}

static void
opd(Pr *p, const POpd *o)
{
	FILE *out = p->out;

	if (o->flags & POF_NOT)
		fputc('!', out);
	if (o->flags & POF_NEG)
		fputc('-', out);
	switch ((POpdKind)o->kind) {
	case POK_NONE: fputs("?", out); return;
	case POK_REG:
		reg(p, o->reg);
		if (o->vsel)
			fprintf(out, ".%c%d", o->vsel >= PVS_H0 ? 'h' : 'b',
			        o->vsel >= PVS_H0 ? o->vsel - PVS_H0 : o->vsel - PVS_B0);
		return;
	case POK_SINK: fputc('_', out); return;
	case POK_IMM: imm(out, o->ikind, o->flags, o->imm); return;
	case POK_SREG:
		fputs(ptx_sreg_name((PSReg)o->sreg), out);
		if (o->comp)
			fprintf(out, ".%c", "?xyzw"[o->comp]);
		return;
	case POK_SYM:
		sym(p, o->symkind, o->sym);
		if (o->imm)
			fprintf(out, "+%" PRId64, o->imm);
		return;
	case POK_ADDR:
		fputc('[', out);
		if (o->reg >= 0)
			reg(p, o->reg);
		else if (o->sym >= 0)
			sym(p, o->symkind, o->sym);
		if (o->reg >= 0 || o->sym >= 0) {
			if (o->imm)
				fprintf(out, "+%" PRId64, o->imm);
		} else {
			fprintf(out, "%" PRId64, o->imm);
		}
		fputc(']', out);
		return;
	case POK_VEC: case POK_LIST:
		fputc(o->kind == POK_VEC ? '{' : '(', out);
		for (int i = 0; i < o->nelems; i++) {
			const POpd *e = &o->elems[i];
			if (i)
				fputs(", ", out);
			if (o->kind == POK_LIST && e->kind == POK_VEC && e->elems[0].kind == POK_REG &&
			    p->f->regs[e->elems[0].reg].elem == 1)   /* a vector register argument */
				reg(p, e->elems[0].reg - 1);
			else
				opd(p, e);
		}
		fputc(o->kind == POK_VEC ? '}' : ')', out);
		return;
	case POK_LABEL: fputs(p->f->labels[o->sym].name, out); return;
	case POK_TLIST: fputs(p->f->tlists[o->sym].name, out); return;
	}
}

static const uint32_t flag_order[] = {
	PMF_APPROX, PMF_FULL, PMF_HI, PMF_LO, PMF_WIDE, PMF_SHIFTAMT, PMF_FTZ, PMF_NOFTZ,
	PMF_SAT, PMF_SATFINITE, PMF_RELU, PMF_NAN, PMF_XORSIGN, PMF_ABS, PMF_CC, PMF_UNI,
	PMF_LEFT, PMF_RIGHT, PMF_WRAP, PMF_CLAMP, PMF_PACK, PMF_OOB, PMF_FROMGLOBAL, PMF_PO,
};

static const char *
flag_name(uint32_t f)
{
	for (int i = 0; i < PMF_NBITS; i++)
		if (f == 1u << i)
			return ptx_mflag_names[i];
	return "?";
}

/* in's modifiers, less those the module's .target and .version imply (ptx_implied_mods) */
static void
mods(FILE *out, const Module *mod, const PIns *in)
{
	const PMods *m = &in->m;
	uint32_t flags = m->flags & ~ptx_implied_mods(mod, in);
	int sync_late = in->op == PO_MATCH;

	if (m->flags & PMF_TO) fputs(".to", out);
	if (m->flags & PMF_LEVEL) fputs(".level", out);
	fputs(ptx_txq_names[m->txq], out);
	fputs(ptx_comp_names[m->comp], out);
	fputs(ptx_geom_names[m->geom], out);
	if ((m->flags & PMF_SYNC) && !sync_late) fputs(".sync", out);
	fputs(ptx_sem_names[m->sem], out);
	if (in->op == PO_MEMBAR && m->scope == PSCOPE_GPU)
		fputs(".gl", out);
	else
		fputs(ptx_scope_names[m->scope], out);
	fputs(ptx_space_name((PSpace)m->space), out);
	if (m->flags & PMF_NC) fputs(".nc", out);
	fputs(ptx_cache_names[m->cache], out);
	if (m->l1evict) fprintf(out, ".L1::%s", ptx_evict_names[m->l1evict]);
	if (m->l2evict) fprintf(out, ".L2::%s", ptx_evict_names[m->l2evict]);
	if (m->l2prefetch) fprintf(out, ".L2::%dB", m->l2prefetch);
	if (m->flags & PMF_CACHEHINT) fputs(".L2::cache_hint", out);
	if ((in->op == PO_BAR || in->op == PO_BARRIER) && m->bar) fputs(ptx_bar_names[m->bar], out);
	if (m->flags & PMF_ALIGNED) fputs(".aligned", out);
	fputs(ptx_aop_names[m->aop], out);
	fputs(ptx_cmp_names[m->cmp], out);
	fputs(ptx_bop_names[m->bop], out);
	fputs(ptx_shfl_names[m->shfl], out);
	fputs(ptx_vote_names[m->vote], out);
	if ((m->flags & PMF_SYNC) && sync_late) fputs(".sync", out);
	fputs(ptx_testp_names[m->testp], out);
	fputs(ptx_rnd_names[m->rnd], out);
	for (size_t i = 0; i < sizeof flag_order / sizeof flag_order[0]; i++)
		if (flags & flag_order[i])
			fputs(flag_name(flag_order[i]), out);
	if (m->shr)
		fprintf(out, ".shr%d", m->shr);
	if (m->vec > 1)
		fprintf(out, ".v%d", m->vec);
	for (int i = 0; i < m->ntypes; i++)
		fputs(ptx_type_name((PType)m->types[i]), out);
	fputs(ptx_prmt_names[m->prmt], out);
	fputs(ptx_sumode_names[m->sumode], out);
}

static void
ins(Pr *p, const PIns *in)
{
	FILE *out = p->out;
	const POpInfo *oi = &ptx_ops[in->op];
	int first = 1;

	fputc('\t', out);
	if (in->guard >= 0) {
		fputs(in->gneg ? "@!" : "@", out);
		reg(p, in->guard);
		fputc(' ', out);
	}
	fputs(oi->name, out);
	mods(out, p->m, in);
	if (in->op == PO_CALL) {
		fputc('\t', out);
		if (in->o[0].nelems) {
			opd(p, &in->o[0]);
			fputs(", ", out);
		}
		opd(p, &in->o[1]);
		if (in->o[2].nelems) {
			fputs(", ", out);
			opd(p, &in->o[2]);
		}
		if (in->o[3].kind != POK_NONE) {
			fputs(", ", out);
			opd(p, &in->o[3]);
		}
		fputs(";\n", out);
		return;
	}
	if ((ptx_ops[in->op].flags & (PF_TEX | PF_SURF)) &&
	    (in->nopd == 3 || (in->nopd == 4 && (in->m.flags & PMF_LEVEL)))) {
		/* d, [t, {c..}] (tex, tld4, suld) or [s, {c..}], v (sust) */
		int at = in->op == PO_SUST ? 0 : 1;
		fputc('\t', out);
		if (at) {
			opd(p, &in->o[0]);
			fputs(", ", out);
		}
		fputc('[', out);
		if (in->o[at].reg >= 0)
			reg(p, in->o[at].reg);   /* a texture object's handle */
		else
			sym(p, in->o[at].symkind, in->o[at].sym);
		fputs(", ", out);
		opd(p, &in->o[at + 1]);
		fputc(']', out);
		if (at == 0 || in->nopd == 4) {   /* sust's value, tex.level's lod */
			fputs(", ", out);
			opd(p, &in->o[at == 0 ? 2 : 3]);
		}
		fputs(";\n", out);
		return;
	}
	for (int i = 0; i < in->nopd; i++) {
		if (i == 1 && (oi->flags & PF_PAIR)) {
			if (in->m.flags & PMF_PAIR) {
				fputc('|', out);
				opd(p, &in->o[1]);
			}
			continue;
		}
		fputs(first ? "\t" : ", ", out);
		first = 0;
		opd(p, &in->o[i]);
	}
	fputs(";\n", out);
}

static void
var(Pr *p, const PVar *v, int dupid)
{
	FILE *out = p->out;
	static const char *const links[] = { "", ".visible ", ".extern ", ".weak ", ".common " };

	fputs(links[v->link], out);
	fputs(ptx_space_name((PSpace)v->space), out);
	if (v->explicit_align)
		fprintf(out, " .align %u", v->align);
	if (v->vec > 1)
		fprintf(out, " .v%d", v->vec);
	fprintf(out, " %s", ptx_type_name((PType)v->type));
	if (v->ptrspace || v->ptralign) {   /* ".param .u64 .ptr .global .align 8 p" */
		fputs(" .ptr", out);
		if (v->ptrspace)
			fprintf(out, " %s", ptx_space_name((PSpace)v->ptrspace));
		if (v->ptralign)
			fprintf(out, " .align %u", v->ptralign);
	}
	fprintf(out, " %s", v->name);
	if (dupid >= 0)
		fprintf(out, "$%d", dupid);
	for (int i = 0; i < v->ndim; i++) {
		if (v->dims[i])
			fprintf(out, "[%" PRIu64 "]", v->dims[i]);
		else
			fputs("[]", out);
	}
	if (v->ninit) {
		int brace = v->ndim > 0 || v->vec > 1;
		fputs(brace ? " = {" : " = ", out);
		for (int i = 0; i < v->ninit; i++) {
			const PInit *e = &v->init[i];
			if (i)
				fputs(", ", out);
			switch ((PInitKind)e->kind) {
			case PINIT_INT:
				fprintf(out, "%" PRId64, e->bits);
				break;
			case PINIT_FLOAT:
				imm(out, v->type == PT_F64 ? PIMM_F64 : PIMM_F32, 0, e->bits);
				break;
			case PINIT_SYM: case PINIT_GENERIC:
				if (e->kind == PINIT_GENERIC)
					fputs("generic(", out);
				fputs(e->sym < 0 ? "?" : e->symkind == PSYM_FUNC ? p->m->funcs[e->sym].name :
				      p->m->vars[e->sym].name, out);
				if (e->kind == PINIT_GENERIC)
					fputc(')', out);
				if (e->bits)
					fprintf(out, "%s%" PRId64, e->bits > 0 ? "+" : "-",
					        e->bits > 0 ? e->bits : -e->bits);
				break;
			case PINIT_LABEL:
				fputs(v->scopefn > 0 ? p->m->funcs[v->scopefn - 1].labels[e->sym].name : "?", out);
				break;
			}
		}
		if (brace)
			fputc('}', out);
	}
}

static void
params(Pr *p, const PVar *v, int n, int multiline)
{
	fputc('(', p->out);
	for (int i = 0; i < n; i++) {
		fputs(i ? "," : "", p->out);
		fputs(multiline ? "\n\t" : "", p->out);
		var(p, &v[i], -1);
	}
	fputs(multiline && n ? "\n)" : ")", p->out);
}

static void
header(Pr *p, const PFunc *f)
{
	static const char *const links[] = { "", ".visible ", ".extern ", ".weak ", ".common " };
	FILE *out = p->out;

	fprintf(out, "%s%s ", links[f->link], f->entry ? ".entry" : ".func");
	if (!f->entry && f->nrets) {
		params(p, f->rets, f->nrets, 0);
		fputc(' ', out);
	}
	fputs(f->name, out);
	params(p, f->params, f->nparams, 1);
	if (f->maxntid[0]) fprintf(out, "\n.maxntid %u, %u, %u", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
	if (f->reqntid[0]) fprintf(out, "\n.reqntid %u, %u, %u", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
	if (f->minnctapersm) fprintf(out, "\n.minnctapersm %u", f->minnctapersm);
	if (f->maxnctapersm) fprintf(out, "\n.maxnctapersm %u", f->maxnctapersm);
	if (f->maxnreg) fprintf(out, "\n.maxnreg %u", f->maxnreg);
	if (f->explicitcluster) fputs("\n.explicitcluster", out);
	if (f->reqnctapercluster[0])
		fprintf(out, "\n.reqnctapercluster %u, %u, %u", f->reqnctapercluster[0],
		        f->reqnctapercluster[1], f->reqnctapercluster[2]);
	if (f->maxclusterrank) fprintf(out, "\n.maxclusterrank %u", f->maxclusterrank);
	if (f->noreturn) fputs("\n.noreturn", out);
	if (f->abi_set & 1) fprintf(out, "\n.abi_preserve %u", f->abi_preserve);
	if (f->abi_set & 2) fprintf(out, "\n.abi_preserve_control %u", f->abi_preserve_control);
	for (int i = 0; i < f->npragmas; i++)
		if (f->pragmas[i].pos < 0)
			fprintf(out, "\n.pragma \"%s\";", f->pragmas[i].text);
}

static void
regs(Pr *p, const PFunc *f)
{
	for (int i = 0; i < f->nregs;) {
		const PReg *r = &f->regs[i];
		size_t len = strlen(r->name);
		int j = i;
		char vec[8] = "";
		if (r->elem) {   /* a vector register's element: declared with it */
			i++;
			continue;
		}
		if (r->vec > 1)
			snprintf(vec, sizeof vec, " .v%d", r->vec);
		/* a run name0, name1, ... of one type prints as name<N> */
		if (len > 1 && r->name[len - 1] == '0' && (len < 2 || r->name[len - 2] < '0' ||
		                                            r->name[len - 2] > '9')) {
			for (j = i + 1; j < f->nregs; j++) {
				char buf[32];
				const PReg *q = &f->regs[j];
				snprintf(buf, sizeof buf, "%d", j - i);
				if (q->type != r->type || q->vec != r->vec || p->regdup[j] ||
				    strncmp(q->name, r->name, len - 1) != 0 || strcmp(q->name + len - 1, buf) != 0)
					break;
			}
		}
		if (j > i + 1 && !p->regdup[i]) {
			fprintf(p->out, "\t.reg%s %s %.*s<%d>;\n", vec, ptx_type_name((PType)r->type),
			        (int)len - 1, r->name, j - i);
			i = j;
		} else {
			fprintf(p->out, "\t.reg%s %s ", vec, ptx_type_name((PType)r->type));
			reg(p, i);
			fputs(";\n", p->out);
			i++;
		}
	}
}

static void
body(Pr *p, const PFunc *f)
{
	FILE *out = p->out;
	int lab = 0, prag = 0, sf = -1, sl = 0, sc = 0;
	int *labpos = NULL;

	fputs("\n{\n", out);
	regs(p, f);
	for (int i = 0; i < p->m->nvars; i++)   /* its .global/.const variables */
		if (p->m->vars[i].scopefn == (int)(f - p->m->funcs) + 1) {
			fputc('\t', out);
			var(p, &p->m->vars[i], -1);
			fputs(";\n", out);
		}
	for (int i = 0; i < f->nlocals; i++) {
		fputc('\t', out);
		var(p, &f->locals[i], p->localdup[i] ? i : -1);
		fputs(";\n", out);
	}
	for (int i = 0; i < f->ntlists; i++) {
		const PTList *t = &f->tlists[i];
		fprintf(out, "\t%s: ", t->name);
		if (t->kind == PTL_PROTO) {
			fputs(".callprototype ", out);
			if (t->nrets) {
				params(p, t->rets, t->nrets, 0);
				fputc(' ', out);
			}
			fputs("_ ", out);
			params(p, t->params, t->nparams, 0);
			if (t->noreturn)
				fputs(" .noreturn", out);
			if (t->abi_set & 1)
				fprintf(out, " .abi_preserve %u", t->abi_preserve);
			if (t->abi_set & 2)
				fprintf(out, " .abi_preserve_control %u", t->abi_preserve_control);
		} else {
			fputs(t->kind == PTL_BRANCH ? ".branchtargets " : ".calltargets ", out);
			for (int j = 0; j < t->ntargets; j++) {
				int x = t->targets[j];
				if (j)
					fputs(", ", out);
				fputs(x < 0 ? "?" : t->kind == PTL_BRANCH ? f->labels[x].name : p->m->funcs[x].name, out);
			}
		}
		fputs(";\n", out);
	}
	/* labels sorted by position (they are created in order) */
	(void)labpos;
	for (int i = 0; i <= f->nins; i++) {
		while (lab < f->nlabels && f->labels[lab].pos == i)
			fprintf(out, "%s:\n", f->labels[lab++].name);
		while (prag < f->npragmas && f->pragmas[prag].pos < i)
			prag++;
		while (prag < f->npragmas && f->pragmas[prag].pos == i)
			fprintf(out, "\t.pragma \"%s\";\n", f->pragmas[prag++].text);
		if (i == f->nins)
			break;
		const PIns *in = &f->ins[i];
		if (in->srcfile >= 0 && (in->srcfile != sf || in->srcline != sl || in->srccol != sc)) {
			fprintf(out, "\t.loc %d %d %d\n", in->srcfile, in->srcline, in->srccol);
			sf = in->srcfile, sl = in->srcline, sc = in->srccol;
		}
		ins(p, in);
	}
	fputs("}\n", out);
}

void
ptx_print_ins(FILE *out, const Module *m, const PFunc *f, const PIns *in)
{
	Pr p = { out, m, f, NULL, NULL };
	p.regdup = dups(f->nregs ? &f->regs[0].name : NULL, sizeof f->regs[0], f->nregs);
	p.localdup = dups(f->nlocals ? &f->locals[0].name : NULL, sizeof f->locals[0], f->nlocals);
	ins(&p, in);
	free(p.regdup);
	free(p.localdup);
}

/* kernel fi's address is taken (a launch from the device, dynamic parallelism): its
 * prototype goes with the others, as nvcc writes it, so that the order of the functions
 * survives a round trip */
static int
addressed(const Module *m, int fi)
{
	for (int k = 0; k < m->nfuncs; k++)
		for (int i = 0; i < m->funcs[k].nins; i++)
			for (int s = 0; s < m->funcs[k].ins[i].nopd; s++)
				if (m->funcs[k].ins[i].o[s].kind == POK_SYM &&
				    m->funcs[k].ins[i].o[s].symkind == PSYM_FUNC &&
				    m->funcs[k].ins[i].o[s].sym == fi)
					return 1;
	return 0;
}

void
ptx_print(FILE *out, const Module *m)
{
	Pr p = { out, m, NULL, NULL, NULL };

	fprintf(out, ".version %d.%d\n", m->version_major, m->version_minor);
	if (m->target)
		fprintf(out, ".target %s\n", m->target);
	fprintf(out, ".address_size %d\n", m->address_size);
	for (int i = 0; i < m->nfiles; i++)
		fprintf(out, ".file %d \"%s\"\n", m->files[i].index, m->files[i].name);
	fputc('\n', out);
	for (int i = 0; i < m->nfuncs; i++) {
		if (m->funcs[i].entry && !addressed(m, i))
			continue;
		p.f = &m->funcs[i];
		header(&p, p.f);
		fputs(";\n", out);
	}
	for (int i = 0; i < m->nvars; i++) {
		if (m->vars[i].scopefn)
			continue;   /* printed in the body that declares it */
		var(&p, &m->vars[i], -1);
		fputs(";\n", out);
	}
	for (int i = 0; i < m->nfuncs; i++) {
		const PFunc *f = &m->funcs[i];
		if (!f->has_body)
			continue;
		p.f = f;
		p.regdup = dups(f->nregs ? &f->regs[0].name : NULL, sizeof f->regs[0], f->nregs);
		p.localdup = dups(f->nlocals ? &f->locals[0].name : NULL, sizeof f->locals[0], f->nlocals);
		fputc('\n', out);
		header(&p, f);
		body(&p, f);
		free(p.regdup);
		free(p.localdup);
	}
}
