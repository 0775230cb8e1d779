/* asm_dir.c - the listing parser's directives and the end of each kernel (asm.c has the
 * lines and statements, asm_opd.c the operands and numbers).
 *
 *   directive := .kernel NAME | .arch sm_N | .registers N | .shared N | .local N | .spill N
 *              | .maxntid N | .reqntid X Y Z | .minnctapersm N | .param OFF SIZE [NAME] | .global NAME SIZE ALIGN c[b][o] ['=' bytes]
 *              | .constdata c[b][o] '=' bytes | .reloc VAR OFF TARGET ADDEND | .func NAME
 *              | .layout sm_35 | .abs32 ADDR (lo | hi) VAR | .tex NAME | .surf NAME | .kref NAME
 *              | .jcal NAME
 *
 * Header directives come once each, before the kernel's first instruction; .func and .jcal
 * (the next instruction calls the external function NAME: asm_sass.c) may come anywhere
 * inside a kernel. At the end of a kernel (the next .kernel, or the end of the text)
 * labels are resolved, the register count is inferred when .registers was not given, and
 * isa_ins_check() runs on every instruction; its "where" becomes a column.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"

/* header directives: bit i of Asm.seen once dirs[i] was given */
enum { DIR_ARCH, DIR_REGISTERS, DIR_SHARED, DIR_LOCAL, DIR_SPILL, DIR_MAXNTID, DIR_LAYOUT,
       DIR_REQNTID, DIR_MINCTAS };
static const char *const dirs[] = {
	[DIR_ARCH] = ".arch", [DIR_REGISTERS] = ".registers", [DIR_SHARED] = ".shared",
	[DIR_LOCAL] = ".local", [DIR_SPILL] = ".spill", [DIR_MAXNTID] = ".maxntid",
	[DIR_LAYOUT] = ".layout", [DIR_REQNTID] = ".reqntid", [DIR_MINCTAS] = ".minnctapersm",
};

/* ------------------------------------------------------------------ kernels */
/* column of what isa_ins_check() blamed */
static int where_col(const InsLoc *l, int at)
{
	int c = 0;

	if (at >= 0 && at < ISA_MAXOPD)
		c = l->col_opd[at] ? l->col_opd[at] : l->col_end;
	else if (at <= ISA_AT_FLAG && at > ISA_AT_FLAG - ISA_NFLAGS)
		c = l->col_flag[ISA_AT_FLAG - at];
	else
		switch (at) {
		case ISA_AT_GUARD: c = l->col_guard; break;
		case ISA_AT_SYNC: c = l->col_sync; break;
		case ISA_AT_SUB: c = l->col_sub; break;
		case ISA_AT_CMP: c = l->col_cmp; break;
		case ISA_AT_BOP: c = l->col_bop; break;
		case ISA_AT_BOP2: c = l->col_bop2; break;
		case ISA_AT_DTYPE: c = l->col_dtype; break;
		case ISA_AT_STYPE: c = l->col_stype; break;
		case ISA_AT_RND: c = l->col_rnd; break;
		case ISA_AT_END: c = l->col_end; break;
		default: c = l->col_op; break;
		}
	return c ? c : l->col_op;
}

/* resolves labels, sizes the register file if .registers was not given, checks */
void isa_asm_end_kernel(Asm *a)
{
	Kernel *k = isa_asm_cur(a);
	char msg[256];

	if (!k)
		return;
	isa_asm_jcal_unused(a);
	for (int i = 0; i < a->nfix; i++) {
		Fixup *f = &a->fix[i];
		const Label *lb = isa_kernel_find_label(k, f->name);
		if (!lb)
			isa_asm_error_at(&a->x, f->line, f->ls, f->col, "unknown label '%.60s'", f->name);
		else if (f->tl >= 0)
			k->tl[f->tl] = lb->addr;
		else
			k->ins[f->ins].o[f->slot].imm = lb->addr;
		free(f->name);
	}
	a->nfix = 0;
	if (!(a->seen & (1u << DIR_REGISTERS))) {
		for (int i = 0; i < k->nins; i++)
			for (int s = 0; s < k->ins[i].nopd; s++) {
				const Opd *o = &k->ins[i].o[s];
				int r = o->reg, n = o->kind != OPD_CONST ? isa_ins_nregs(&k->ins[i], s) : 1;
				if ((o->kind == OPD_REG || o->kind == OPD_MEM || o->kind == OPD_CONST) &&
				    r != ISA_RZ && r + n > k->regs)
					k->regs = r + n > ISA_NREGS ? ISA_NREGS : r + n;
			}
	}
	for (int i = 0; i < k->nabs32; i++) {
		int j = isa_kernel_index(k, k->abs32[i].addr), imm = 0;
		for (int s = 0; j >= 0 && s < k->ins[j].nopd; s++)
			imm += k->ins[j].o[s].kind == OPD_IMM;
		if (j < 0 || k->ins[j].addr != k->abs32[i].addr || imm != 1)
			isa_asm_error_at(&a->x, a->abs32at[i].line, a->abs32at[i].ls, 1,
			                 "kernel '%s': .abs32 0x%x names no instruction with one immediate",
			                 k->name, (unsigned)k->abs32[i].addr);
	}
	for (int i = 0; i < k->nins; i++) {
		int at;
		if (a->locs[i].bad)
			continue;
		at = isa_ins_check(k, &k->ins[i], msg, sizeof msg);
		if (at != ISA_AT_OK)
			isa_asm_error_at(&a->x, a->locs[i].line, a->locs[i].ls, where_col(&a->locs[i], at),
			             "%s", msg);
	}
	a->seen = 0;
	a->anon = 0;
	for (int i = 0; i < a->captexoff; i++)
		a->texoff[i] = -1;
}

/* ------------------------------------------------------------------ directives */
static int name_tok(Asm *a, Tok *t, const char *what)
{
	char buf[48];

	*t = isa_asm_next(&a->x);
	if (t->kind == TK_IDENT)
		return 1;
	isa_asm_error(&a->x, *t, "expected %s, got '%s'", what, isa_asm_text(&a->x, *t, buf, sizeof buf));
	return 0;
}

/* an unsigned number no larger than max */
static int num_tok(Asm *a, uint64_t max, uint64_t *v)
{
	Tok t = isa_asm_next(&a->x);
	int64_t iv;

	if (!isa_asm_int_value(a, t, 0, &iv))
		return 0;
	if (iv < 0 || (uint64_t)iv > max) {
		isa_asm_error(&a->x, t, "value out of range (at most 0x%llx)", (unsigned long long)max);
		return 0;
	}
	*v = (uint64_t)iv;
	return 1;
}

/* '=' then two-digit hex bytes to the end of the line */
static uint8_t *parse_bytes(Asm *a, uint64_t *n)
{
	uint8_t *b = NULL;
	uint64_t cap = 0;

	*n = 0;
	if (!isa_asm_expect(a, '='))
		return NULL;
	for (;;) {
		Tok t = isa_asm_next(&a->x);
		uint8_t v = 0;
		if (t.kind == TK_EOL)
			break;
		for (int i = 0; i < 2 && t.e - t.s == 2; i++) {
			int c = (unsigned char)a->x.text[t.s + (size_t)i];
			int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
			        : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
			if (d < 0)
				break;
			v = (uint8_t)(v << 4 | d);
			if (i == 1)
				goto good;
		}
		isa_asm_error(&a->x, t, "expected a byte as two hex digits");
		free(b);
		return NULL;
good:
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			b = isa_xrealloc(b, (size_t)cap);
		}
		b[(*n)++] = v;
	}
	if (!*n) {
		isa_asm_error(&a->x, isa_asm_peek(&a->x), "expected bytes after '='");
		return NULL;
	}
	return b;
}

/* Each directive below reads its operands; it returns 1 when it is complete (the rest of
 * the line must be empty) and 0 after an error, which ends the line. */

/* ends the kernel before it and starts kernel name (at: where it was named) */
Kernel *isa_asm_begin_kernel(Asm *a, const char *name, Tok at)
{
	/* a fragment is a whole listing: code before the first header is outside any kernel */
	if (a->anon)
		isa_asm_error_at(&a->x, a->anon_line, a->anon_ls, (int)(a->anon_at.s - a->anon_ls) + 1,
		                 "instruction outside a kernel (start one with '.kernel NAME')");
	isa_asm_end_kernel(a);
	for (int i = 0; i < a->p->nk; i++)
		if (!strcmp(name, a->p->k[i].name)) {
			isa_asm_error(&a->x, at, "kernel '%s' defined twice", a->p->k[i].name);
			break;
		}
	isa_prog_add_kernel(a->p, name);
	a->ki = a->p->nk - 1;
	return isa_asm_cur(a);
}

Kernel *isa_asm_begin_anon(Asm *a, Tok at)
{
	Kernel *k = isa_asm_begin_kernel(a, "anonymous", at);

	a->anon = 1;
	a->anon_at = at;
	a->anon_line = a->x.line;
	a->anon_ls = a->x.ls;
	return k;
}

/* .kernel NAME */
static int dir_kernel(Asm *a)
{
	Tok t;
	char *s;

	if (!name_tok(a, &t, "a kernel name"))
		return 0;
	s = isa_asm_dup(a, t);
	isa_asm_begin_kernel(a, s, t);
	free(s);
	return 1;
}

/* .func NAME: a function's label at the next instruction */
static int dir_func(Asm *a, Kernel *k)
{
	Lex *x = &a->x;
	Tok t;
	char buf[48], *s;

	if (!name_tok(a, &t, "a function name"))
		return 0;
	if (isa_asm_reserved(x->text + t.s, t.e - t.s)) {
		isa_asm_error(x, t, "'%s' is a register or operand name, not a label",
		          isa_asm_text(x, t, buf, sizeof buf));
		return 0;
	}
	for (int i = 0; i < k->nlabels; i++)
		if (isa_asm_is(x, t, k->labels[i].name)) {
			isa_asm_error(x, t, "label '%s' defined twice", k->labels[i].name);
			return 0;
		}
	s = isa_asm_dup(a, t);
	isa_kernel_add_label(k, s, isa_kernel_next_addr(k), LBL_FUNC);
	free(s);
	return 1;
}

/* a `.jcal NAME` that no JCAL took (the next instruction is another, or there is none) is
 * an error at it; none waits after this */
void isa_asm_jcal_unused(Asm *a)
{
	size_t n = a->jcal.e - a->jcal.s;

	if (a->jcal.line)
		isa_asm_error_at(&a->x, a->jcal.line, a->jcal.ls, a->jcal.col, "'.jcal %.*s' is not "
		                 "followed by a JCAL to an absolute address", (int)(n < 60 ? n : 60),
		                 a->x.text + a->jcal.s);
	a->jcal.line = 0;
}

/* .jcal NAME: the next instruction, a JCAL, calls the external function NAME */
static int dir_jcal(Asm *a)
{
	Tok t;

	if (!name_tok(a, &t, "an external function's name"))
		return 0;
	isa_asm_jcal_unused(a);
	a->jcal.line = a->x.line;
	a->jcal.ls = a->x.ls;
	a->jcal.col = isa_asm_col(&a->x, t.s);
	a->jcal.s = t.s;
	a->jcal.e = t.e;
	return 1;
}

/* .arch sm_NN */
static int dir_arch(Asm *a, Kernel *k)
{
	Lex *x = &a->x;
	Tok t;
	char buf[48];

	if (!name_tok(a, &t, "sm_NN"))
		return 0;
	if (t.e - t.s < 4 || t.e - t.s > 6 || memcmp(x->text + t.s, "sm_", 3) ||
	    !(x->text[t.s + 3] >= '1' && x->text[t.s + 3] <= '9')) {
		isa_asm_error(x, t, "expected sm_NN, got '%s'", isa_asm_text(x, t, buf, sizeof buf));
		return 0;
	}
	for (size_t i = t.s + 3; i < t.e; i++)
		if (x->text[i] < '0' || x->text[i] > '9') {
			isa_asm_error(x, t, "expected sm_NN, got '%s'", isa_asm_text(x, t, buf, sizeof buf));
			return 0;
		}
	k->arch = 0;
	for (size_t i = t.s + 3; i < t.e; i++)
		k->arch = k->arch * 10 + (x->text[i] - '0');
	return 1;
}

/* .layout sm_35: the code and constant bank of a real sm_3x listing (Kernel.layout) */
static int dir_layout(Asm *a, Kernel *k)
{
	Tok t = isa_asm_next(&a->x);
	char buf[48];

	if (!isa_asm_is(&a->x, t, "sm_35")) {
		isa_asm_error(&a->x, t, "expected sm_35 (the one layout besides warpc's own), got '%s'",
		              isa_asm_text(&a->x, t, buf, sizeof buf));
		return 0;
	}
	k->layout = ISA_LAYOUT_SM35;
	return 1;
}

/* the header directive dirs[di]: .arch sm_NN, .layout sm_35, or a number */
static int dir_header(Asm *a, Kernel *k, int di)
{
	uint64_t v = 0;

	if (di == DIR_ARCH)
		return dir_arch(a, k);
	if (di == DIR_LAYOUT)
		return dir_layout(a, k);
	if (di == DIR_REGISTERS) {
		Tok t = isa_asm_peek(&a->x);
		if (!num_tok(a, ISA_NREGS, &v))
			return 0;
		if (!v) {
			/* a count of 0 reads as none given and prints as none: the code's would
			 * replace it, so that print(parse(x)) would not read back the same */
			isa_asm_error(&a->x, t, "a register count of 0 (leave .registers out of a "
			              "kernel that uses no register; the count is inferred from the code)");
			return 0;
		}
		k->regs = (int)v;
		return 1;
	}
	if (di == DIR_REQNTID) {
		for (int i = 0; i < 3; i++) {
			if (!num_tok(a, 1024, &v))
				return 0;
			k->reqntid[i] = (uint32_t)v;
		}
		return 1;
	}
	if (!num_tok(a, 0xffffffffu, &v))
		return 0;
	*(di == DIR_SHARED ? &k->shared : di == DIR_MINCTAS ? &k->minctas : di == DIR_LOCAL ? &k->local : di == DIR_SPILL ? &k->spill
	  : &k->maxntid) = (uint32_t)v;
	return 1;
}

/* .reloc VAR OFF TARGET ADDEND: VAR's 8 bytes at OFF hold TARGET's address + ADDEND */
static int dir_reloc(Asm *a, Kernel *k, Tok d)
{
	Lex *x = &a->x;
	Tok nv = d, nt = d;
	int gv = -1, gt = -1;
	uint64_t v = 0;
	int64_t add;
	int neg = 0;
	char buf[48];

	if (!name_tok(a, &nv, "a global variable name") || !num_tok(a, 1u << 30, &v) ||
	    !name_tok(a, &nt, "a global variable name"))
		return 0;
	if (isa_asm_is(x, isa_asm_peek(x), "-")) {
		isa_asm_next(x);
		neg = 1;
	}
	if (!isa_asm_int_value(a, isa_asm_next(x), 0, &add))
		return 0;
	if (neg)
		add = (int64_t)(0 - (uint64_t)add);
	for (int i = 0; i < k->nglobals; i++) {
		if (isa_asm_is(x, nv, k->globals[i].name))
			gv = i;
		if (isa_asm_is(x, nt, k->globals[i].name))
			gt = i;
	}
	if (gv < 0 || gt < 0) {
		isa_asm_error(x, gv < 0 ? nv : nt, "'%s' is not a .global declared before",
		              isa_asm_text(x, gv < 0 ? nv : nt, buf, sizeof buf));
		return 0;
	}
	if (v + 8 > k->globals[gv].size) {
		isa_asm_error(x, nv, "offset 0x%llx + 8 is outside '%s'", (unsigned long long)v,
		              k->globals[gv].name);
		return 0;
	}
	isa_kernel_add_reloc(k, gv, v, gt, (uint64_t)add);
	return 1;
}

/* .abs32 ADDR (lo | hi) VAR: a code relocation (CodeReloc) */
static int dir_abs32(Asm *a, Kernel *k)
{
	Lex *x = &a->x;
	uint64_t v = 0;
	Tok h, nv;
	char buf[48];

	if (!num_tok(a, 0xfffffff8u, &v) || !name_tok(a, &h, "lo or hi") ||
	    !name_tok(a, &nv, "a global variable name"))
		return 0;
	if (!isa_asm_is(x, h, "lo") && !isa_asm_is(x, h, "hi")) {
		isa_asm_error(x, h, "expected lo or hi, got '%s'", isa_asm_text(x, h, buf, sizeof buf));
		return 0;
	}
	for (int i = 0; i < k->nglobals; i++)
		if (isa_asm_is(x, nv, k->globals[i].name)) {
			if (k->nabs32 >= a->capabs32) {
				a->capabs32 = a->capabs32 ? 2 * a->capabs32 : 8;
				a->abs32at = isa_xrealloc(a->abs32at, (size_t)a->capabs32 * sizeof *a->abs32at);
			}
			a->abs32at[k->nabs32].line = x->line;
			a->abs32at[k->nabs32].ls = x->ls;
			isa_kernel_add_abs32(k, (uint32_t)v, isa_asm_is(x, h, "hi"), i);
			return 1;
		}
	isa_asm_error(x, nv, "'%s' is not a .global declared before", isa_asm_text(x, nv, buf, sizeof buf));
	return 0;
}

/* .kref NAME: the next kernel-address slot is kernel NAME's (ISA_KREF_BASE + 16 * slot) */
static int dir_kref(Asm *a, Kernel *k)
{
	char *s;
	Tok t;

	if (!name_tok(a, &t, "a kernel name"))
		return 0;
	s = isa_asm_dup(a, t);
	for (int i = 0; i < k->nkref; i++)
		if (!strcmp(k->kref[i], s)) {
			isa_asm_error(&a->x, t, "duplicate '.kref %s'", s);
			free(s);
			return 0;
		}
	isa_kernel_add_kref(k, s);
	free(s);
	return 1;
}

/* .tex NAME / .surf NAME: the next texture (TEX, TLD, TLD4, TXQ) or surface (SULD, SUST, SUQ)
 * slot is the reference NAME. `.tex NAME OFF` (sm_35 listings, elfinfo.awk): NAME's texture
 * header index is the c[0x0] word at OFF, the one cuobjdump's TEX/TLD name as OFF / 4. */
static int dir_tex(Asm *a, Kernel *k, int surf)
{
	Lex *x = &a->x;
	char *s;
	Tok t;

	if (!name_tok(a, &t, surf ? "a surface reference name" : "a texture reference name"))
		return 0;
	s = isa_asm_dup(a, t);
	for (int i = 0; i < (surf ? k->nsurf : k->ntex); i++)
		if (!strcmp(surf ? k->surf[i] : k->tex[i], s)) {
			isa_asm_error(x, t, "duplicate '.%s %s'", surf ? "surf" : "tex", s);
			free(s);
			return 0;
		}
	free(s);
	if (!surf && isa_asm_peek(x).kind == TK_NUM) {
		uint64_t off;
		Tok o = isa_asm_peek(x);
		if (!num_tok(a, 0xfffc, &off))
			return 0;
		if (off % 4) {
			isa_asm_error(x, o, "texture header offset 0x%llx is not a word's (a multiple of 4)",
			          (unsigned long long)off);
			return 0;
		}
		for (int i = 0; i < k->ntex && i < a->captexoff; i++)
			if (a->texoff[i] == (int32_t)off) {
				isa_asm_error(x, o, "texture header offset 0x%llx is already texture %s's",
				          (unsigned long long)off, k->tex[i]);
				return 0;
			}
		if (k->ntex >= a->captexoff) {
			int n = a->captexoff ? 2 * a->captexoff : 8;
			a->texoff = isa_xrealloc(a->texoff, (size_t)n * sizeof *a->texoff);
			for (int i = a->captexoff; i < n; i++)
				a->texoff[i] = -1;
			a->captexoff = n;
		}
		a->texoff[k->ntex] = (int32_t)off;
	}
	s = isa_asm_dup(a, t);
	if (surf)
		isa_kernel_add_surf(k, s);
	else
		isa_kernel_add_tex(k, s);
	free(s);
	return 1;
}

/* .param OFF SIZE [NAME] */
static int dir_param(Asm *a, Kernel *k)
{
	Lex *x = &a->x;
	uint64_t v = 0, v2 = 0;
	char *s = NULL;
	Tok t;

	if (!num_tok(a, 0xffff, &v) || !num_tok(a, 0xffff, &v2))
		return 0;
	t = isa_asm_peek(x);
	if (t.kind == TK_IDENT) {
		isa_asm_next(x);
		s = isa_asm_dup(a, t);
	}
	isa_kernel_add_param(k, (uint32_t)v, (uint32_t)v2, s);
	free(s);
	return 1;
}

/* .global NAME SIZE ALIGN [c[b][o]] ['=' bytes] (isglobal; without the slot the code reaches it
 * through .abs32), or .constdata c[b][o] [.align N .TYPE NAME] '=' bytes (named: a module
 * .const variable) */
static int dir_data(Asm *a, Kernel *k, Tok d, int isglobal)
{
	Lex *x = &a->x;
	uint8_t *bytes = NULL;
	uint64_t v = 0, n = 0, align = 0;
	Opd c;
	char *s = NULL;
	Tok nm = d, t;

	if (isglobal && (!name_tok(a, &nm, "a variable name") || !num_tok(a, 1u << 30, &v) ||
	                 !num_tok(a, 4096, &align)))
		return 0;
	memset(&c, 0, sizeof c);
	c.bank = ISA_NOSLOT;
	t = isa_asm_peek(x);
	if (isglobal && (t.kind == TK_EOL || (t.kind == TK_PUNCT && t.c == '=')))
		;
	else if (isa_asm_next(x), !isa_asm_is(x, t, "c") || !isa_asm_parse_const(a, &c) ||
	         c.reg != ISA_RZ || c.imm < 0 || c.bank > 15) {
		if (!x->ndiags || x->diags[x->ndiags - 1].line != x->line)
			isa_asm_error(x, t, "expected a constant slot c[0xB][0xOFF]");
		return 0;
	}
	if (!isglobal && isa_asm_is(x, isa_asm_peek(x), ".align")) {
		/* a named .const variable: .align N .TYPE NAME */
		Tok ty;
		isa_asm_next(x);
		if (!num_tok(a, 1u << 16, &align))
			return 0;
		ty = isa_asm_next(x);
		if (ty.kind != TK_IDENT || x->text[ty.s] != '.') {
			isa_asm_error(x, ty, "expected the variable's PTX type (.b8, .f32, ...)");
			return 0;
		}
		if (!name_tok(a, &nm, "a variable name"))
			return 0;
		s = isa_asm_dup(a, ty);
	}
	if (!isglobal || isa_asm_peek(x).kind != TK_EOL) {
		bytes = parse_bytes(a, &n);
		if (!bytes)
			return 0;
	}
	if (isglobal) {
		if (bytes && n != v) {
			isa_asm_error(x, nm, "'%.*s' has %llu bytes but %llu initial bytes are given",
			          (int)(nm.e - nm.s), x->text + nm.s, (unsigned long long)v,
			          (unsigned long long)n);
			free(bytes);
			return 0;
		}
		s = isa_asm_dup(a, nm);
		isa_kernel_add_global(k, s, v, (uint32_t)align, bytes, c.bank, (uint32_t)c.imm);
		free(s);
	} else {
		isa_kernel_add_cdata(k, c.bank, (uint32_t)c.imm, bytes, (uint32_t)n);
		if (s) {
			char *name = isa_asm_dup(a, nm);
			isa_kernel_cdata_var(k, name, s, (uint32_t)align);
			free(name);
			free(s);
		}
	}
	free(bytes);
	return 1;
}

/* the directive named by d, then the end of its line */
void isa_asm_directive(Asm *a, Tok d)
{
	Lex *x = &a->x;
	Kernel *k = isa_asm_cur(a);
	char buf[48];
	Tok t;
	int di = -1, ok;

	if (isa_asm_is(x, d, ".kernel")) {
		ok = dir_kernel(a);
	} else {
		for (int i = 0; i < (int)(sizeof dirs / sizeof dirs[0]); i++)
			if (isa_asm_is(x, d, dirs[i]))
				di = i;
		if (di < 0 && !isa_asm_is(x, d, ".param") && !isa_asm_is(x, d, ".global") &&
		    !isa_asm_is(x, d, ".constdata") && !isa_asm_is(x, d, ".func") &&
		    !isa_asm_is(x, d, ".reloc") && !isa_asm_is(x, d, ".abs32") &&
		    !isa_asm_is(x, d, ".tex") && !isa_asm_is(x, d, ".surf") &&
		    !isa_asm_is(x, d, ".kref") && !isa_asm_is(x, d, ".jcal")) {
			isa_asm_error(x, d, "unknown directive '%s'", isa_asm_text(x, d, buf, sizeof buf));
			return;
		}
		if (!k) {
			isa_asm_error(x, d, "'%s' outside a kernel (start one with '.kernel NAME')",
			          isa_asm_text(x, d, buf, sizeof buf));
			return;
		}
		if (isa_asm_is(x, d, ".func")) {
			ok = dir_func(a, k);
		} else if (isa_asm_is(x, d, ".jcal")) {
			ok = dir_jcal(a);
		} else if (k->nins) {
			isa_asm_error(x, d, "'%s' must come before the kernel's first instruction",
			          isa_asm_text(x, d, buf, sizeof buf));
			return;
		} else if (di >= 0 && (a->seen & (1u << di))) {
			isa_asm_error(x, d, "duplicate '%s'", dirs[di]);
			return;
		} else if (di >= 0) {
			a->seen |= 1u << di;
			ok = dir_header(a, k, di);
		} else if (isa_asm_is(x, d, ".reloc")) {
			ok = dir_reloc(a, k, d);
		} else if (isa_asm_is(x, d, ".param")) {
			ok = dir_param(a, k);
		} else if (isa_asm_is(x, d, ".abs32")) {
			ok = dir_abs32(a, k);
		} else if (isa_asm_is(x, d, ".kref")) {
			ok = dir_kref(a, k);
		} else if (isa_asm_is(x, d, ".tex") || isa_asm_is(x, d, ".surf")) {
			ok = dir_tex(a, k, isa_asm_is(x, d, ".surf"));
		} else {
			ok = dir_data(a, k, d, isa_asm_is(x, d, ".global"));
		}
	}
	if (!ok)
		return;
	t = isa_asm_next(x);
	if (t.kind != TK_EOL)
		isa_asm_error(x, t, "unexpected '%s' after '%s'", isa_asm_text(x, t, buf, sizeof buf),
		          isa_asm_text(x, d, buf + 24, 24));
}
