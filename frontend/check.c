/* check.c - semantic checks of a module (ptx_check): unsupported instructions, operand
 * counts and kinds against the signatures of ptxops.def, register sizes against the
 * instruction types, required modifiers, call signatures, branch targets. Names were
 * already resolved by the builder (undefined and duplicate symbols are reported there). */
#include <stdarg.h>
#include <string.h>
#include "frontend/build.h"

typedef struct {
	const Module *m;    /* being checked */
	const PFunc *f;     /* current function */
	FILE *err;          /* diagnostics */
	int nerr;           /* errors */
} Chk;

static void
err(Chk *k, PLoc l, const char *fmt, ...)
{
	va_list ap;

	k->nerr++;
	if (k->nerr > 50)
		return;
	va_start(ap, fmt);
	ptx_vdiag(k->err, k->m->name, k->m->src, k->m->srclen, l, "error", fmt, ap);
	va_end(ap);
}

static const char *
opname(const PIns *in)
{
	return ptx_ops[in->op].name;
}

/* bytes of the value an operand names, 0 when it has no size (immediates), -1 predicate */
static int
opd_bytes(Chk *k, const POpd *o)
{
	switch ((POpdKind)o->kind) {
	case POK_REG: {
		const PReg *r = &k->f->regs[o->reg];
		return r->type == PT_PRED ? -1 : ptx_type_bytes((PType)r->type) * r->vec;
	}
	case POK_SREG:
		return ptx_sreg_bytes((PSReg)o->sreg);
	case POK_SYM:
		return k->m->address_size / 8;
	case POK_NONE: case POK_SINK: case POK_IMM: case POK_ADDR: case POK_VEC:
	case POK_LABEL: case POK_TLIST: case POK_LIST:
		return 0;
	}
	return 0;
}

static const char *
kind_name(const POpd *o)
{
	switch ((POpdKind)o->kind) {
	case POK_NONE: return "nothing";
	case POK_REG: return "a register";
	case POK_SINK: return "'_'";
	case POK_IMM: return "an immediate";
	case POK_SREG: return "a special register";
	case POK_SYM: return "a symbol";
	case POK_ADDR: return "a memory address";
	case POK_VEC: return "a vector";
	case POK_LABEL: return "a label";
	case POK_TLIST: return "a target list";
	case POK_LIST: return "a parenthesised list";
	}
	return "?";
}

/* %tid, %ntid, %ctaid and %nctaid were .v4.u16 before PTX ISA 2.0, and PTX 1.x code reads
 * them with mov.u16 and cvt.*.u16, which read the lower 16 bits of the component (PTX ISA,
 * "Special Registers: %tid" and the others, on legacy code) */
static int
legacy16_sreg(int s)
{
	return s == PSR_TID || s == PSR_NTID || s == PSR_CTAID || s == PSR_NCTAID;
}

/* a value of type-size want (bytes; -1 predicate); dst: written */
static void
chk_value(Chk *k, const PIns *in, const POpd *o, int slot, int want, int dst, int loose)
{
	int have;

	if (o->kind == POK_SINK) {
		if (!dst)
			err(k, o->loc, "'_' can only be a destination");
		return;
	}
	if (dst && o->kind != POK_REG) {
		err(k, o->loc, "operand %d of '%s' is a destination and must be a register, not %s",
		    slot + 1, opname(in), kind_name(o));
		return;
	}
	switch ((POpdKind)o->kind) {
	case POK_REG: case POK_SREG: case POK_SYM:
		break;
	case POK_IMM:
		/* a predicate immediate: 0 is false, any other integer true (nvcc writes true as -1,
		 * mov.pred %p, -1; ptxas 11.8 makes 1, 2, 256, 2^32 and -1 true alike) */
		if (want == -1 && o->ikind >= PIMM_F32)
			err(k, o->loc, "a predicate immediate is an integer (0 false, any other true), "
			    "not a floating-point literal");
		if (want == -1 || o->ikind < PIMM_F32 || want == 0)
			return;
		if (o->ikind == PIMM_F32 && want != 4 && want != 2)
			err(k, o->loc, "0f literal (32-bit) used where '%s' needs %d bytes", opname(in), want);
		if (o->ikind == PIMM_F64 && want != 8)
			err(k, o->loc, "0d literal (64-bit) used where '%s' needs %d bytes", opname(in), want);
		return;
	case POK_NONE: case POK_SINK: case POK_ADDR: case POK_VEC: case POK_LABEL:
	case POK_TLIST: case POK_LIST:
		err(k, o->loc, "operand %d of '%s' cannot be %s", slot + 1, opname(in), kind_name(o));
		return;
	}
	if ((o->flags & POF_NOT) && !(o->kind == POK_REG && opd_bytes(k, o) == -1)) {
		err(k, o->loc, "'!' applies to predicates only");
		return;
	}
	if (o->vsel && !(in->op == PO_VMAD && (slot == 1 || slot == 2))) {
		if (in->op == PO_VMAD)
			err(k, o->loc, "'vmad' takes an operand selector on a and b only");
		else if (ptx_video_elems(in->op))
			err(k, o->loc, "unsupported: an operand selector on '%s' is valid PTX, but warpsim "
			    "takes them only on vmad's a and b", opname(in));
		else
			err(k, o->loc, "an operand selector (.b0-.b3, .h0, .h1) belongs to a video "
			    "instruction's source, not to '%s'", opname(in));
		return;
	}
	if ((o->flags & POF_NEG) && !(in->op == PO_VMAD && slot > 0 && o->kind == POK_REG)) {
		err(k, o->loc, "'-' negates only a register source of 'vmad'");
		return;
	}
	have = opd_bytes(k, o);
	if (want == 0 || (o->kind == POK_SYM && want >= 4))
		return;
	if (want == -1 || have == -1) {
		if (want != have)
			err(k, o->loc, "operand %d of '%s' must be %s", slot + 1, opname(in),
			    want == -1 ? "a predicate" : "a non-predicate value");
		return;
	}
	if (have == want || (loose && have > want && want < 4) || (want == 1 && have >= 1))
		return;
	if (o->kind == POK_SREG && want == 2 && legacy16_sreg(o->sreg))
		return;
	if (o->kind == POK_REG) {
		const PReg *r = &k->f->regs[o->reg];
		err(k, o->loc, "operand %d of '%s' needs a %d-bit register, '%s' is %s%s", slot + 1,
		    opname(in), want * 8, r->name, r->vec > 1 ? (r->vec == 2 ? ".v2" : ".v4") : "",
		    ptx_type_name((PType)r->type));
	} else {
		err(k, o->loc, "operand %d of '%s' needs %d bits, %s has %d", slot + 1, opname(in),
		    want * 8, kind_name(o), have * 8);
	}
}

static int
type_bytes_or_pred(int t)
{
	return t == PT_PRED ? -1 : ptx_type_bytes((PType)t);
}

/* ld, st and cvt take data registers wider than the instruction type (PTX ISA 9.4.1,
 * "Operand Size Exceeding Instruction-Type Size", Tables 27 and 28): a wider source is
 * chopped to the type's size, a wider destination sign-extended for a signed type and
 * zero-extended otherwise. A bit-size type takes any wider register, an integer type a
 * bit-size or integer one, a floating-point type a bit-size one only; cvt takes none for
 * .bf16/.bf16x2 (nor for a .tf32 destination). Returns 1 when o is a wider register (checked
 * here), 0 when the usual check applies. */
static int
chk_wider(Chk *k, const PIns *in, const POpd *o, int slot, int it, int dst)
{
	const PReg *r;
	int ib = type_bytes_or_pred(it), ik = ptx_type_kind((PType)it), rk;
	const char *why = NULL;

	if (o->kind != POK_REG || ib <= 0)
		return 0;
	r = &k->f->regs[o->reg];
	if (r->type == PT_PRED || r->vec > 1 || ptx_type_bytes((PType)r->type) <= ib)
		return 0;
	rk = ptx_type_kind((PType)r->type);
	if (in->op == PO_CVT && (it == PT_BF16 || it == PT_BF16X2 || (dst && it == PT_TF32)))
		why = "'cvt' takes no wider register for this type";
	else if (ik == PTK_FLOAT && rk != PTK_BITS)
		why = "a wider register for a floating-point type must be of a bit-size type";
	else if ((ik == PTK_SIGNED || ik == PTK_UNSIGNED) && rk == PTK_FLOAT)
		why = "a floating-point register cannot hold an integer type";
	else if (ik != PTK_BITS && ik != PTK_SIGNED && ik != PTK_UNSIGNED && ik != PTK_FLOAT)
		return 0;
	if (why)
		err(k, o->loc, "operand %d of '%s' needs a %d-bit register, '%s' is %s (%s)", slot + 1,
		    opname(in), ib * 8, r->name, ptx_type_name((PType)r->type), why);
	return 1;
}

/* cp.async.{ca,cg}.shared{::cta}.global{.L2::cache_hint}{.L2::NB} [dst], [src], cp-size
 *     {, src-size | ignore-src}{, cache-policy}   (PTX ISA, "cp.async")
 * cp-size 4, 8 or 16 (16 only with .cg); src-size a 32-bit value (an immediate no larger than
 * cp-size: a larger one is undefined), ignore-src a predicate; the 64-bit cache-policy needs
 * .L2::cache_hint, and with it a fourth operand of 64 bits is the policy */
static void
chk_cp_async(Chk *k, const PIns *in)
{
	const PMods *m = &in->m;
	const POpd *cs = &in->o[2];
	int si = ptx_cp_async_src(k->f, in);

	if ((m->space != PS_SHARED && m->space != PS_SHARED_CTA) || !(m->flags & PMF_FROMGLOBAL))
		err(k, in->loc, "'cp.async' copies from .global to .shared: it needs .shared.global");
	if (m->cache != PCACHE_CA && m->cache != PCACHE_CG)
		err(k, in->loc, "'cp.async' needs .ca or .cg");
	if (cs->kind == POK_IMM && cs->imm != 4 && cs->imm != 8 && cs->imm != 16)
		err(k, cs->loc, "the size of a 'cp.async' must be 4, 8 or 16, not %lld", (long long)cs->imm);
	else if (cs->kind == POK_IMM && m->cache == PCACHE_CG && cs->imm != 16)
		err(k, cs->loc, "'cp.async.cg' copies 16 bytes, not %lld", (long long)cs->imm);
	if (in->nopd == 5 && (!(m->flags & PMF_CACHEHINT) || opd_bytes(k, &in->o[4]) != 8))
		err(k, in->o[4].loc, "a cache policy operand of 'cp.async' needs .L2::cache_hint and 64 bits");
	if (si >= 0) {
		const POpd *s = &in->o[si];
		int b = opd_bytes(k, s);
		if (s->kind == POK_IMM && cs->kind == POK_IMM && s->imm > cs->imm)
			err(k, s->loc, "src-size %lld is larger than the cp-size %lld (undefined in PTX)",
			    (long long)s->imm, (long long)cs->imm);
		else if (s->kind == POK_IMM && s->imm < 0)
			err(k, s->loc, "src-size must not be negative");
		else if (s->kind != POK_IMM && (s->kind != POK_REG || (b != 4 && b != -1)))
			err(k, s->loc, "operand 4 of 'cp.async' must be a 32-bit src-size or an ignore-src "
			    "predicate");
	}
}

/* vop2/vop4.dtype.atype.btype{.sat | .add} d, a, b, c and vset2/vset4.atype.btype.cmp{.add}
 * (PTX ISA, "SIMD Video Instructions"): .u32 or .s32 types, no .sat with .add; the scalar
 * vop.dtype.atype.btype{.sat}{.add|.min|.max} d, a, b{, c} (vset.atype.btype.cmp, no .sat):
 * c with a secondary operation only (the merge into d.b0 ... takes selectors) */
static void
chk_video(Chk *k, const PIns *in)
{
	const PMods *m = &in->m;
	int vset = in->op == PO_VSET2 || in->op == PO_VSET4 || in->op == PO_VSET, want = vset ? 2 : 3;
	int scalar = ptx_video_elems(in->op) == 1;

	if (m->ntypes != want) {
		err(k, in->loc, "'%s' needs %s", ptx_ops[in->op].name, vset ?
		    "two types, .atype.btype (e.g. .u32.s32)" : "three types, .dtype.atype.btype (e.g. .u32.u32.u32)");
		return;
	}
	for (int i = 0; i < m->ntypes; i++)
		if (m->types[i] != PT_U32 && m->types[i] != PT_S32)
			err(k, in->loc, "'%s' takes .u32 or .s32 types, not %s", ptx_ops[in->op].name,
			    ptx_type_name((PType)m->types[i]));
	if (vset && !(m->cmp >= PCMP_EQ && m->cmp <= PCMP_GE))
		err(k, in->loc, "'%s' needs a comparison .eq, .ne, .lt, .le, .gt or .ge%s%s",
		    ptx_ops[in->op].name, m->cmp ? ", not " : "", ptx_cmp_names[m->cmp]);
	if (!vset && m->cmp)
		err(k, in->loc, "'%s' takes no comparison", ptx_ops[in->op].name);
	if (in->op == PO_VSHL || in->op == PO_VSHR) {
		/* vshl/vshr.dtype.atype.u32{.sat}.mode: b is unsigned, the mode required */
		if (m->ntypes == 3 && m->types[2] != PT_U32)
			err(k, in->loc, "'%s' takes .u32 as its third type", ptx_ops[in->op].name);
		if (!(m->flags & (PMF_CLAMP | PMF_WRAP)) || (m->flags & PMF_CLAMP && m->flags & PMF_WRAP))
			err(k, in->loc, "'%s' needs one mode, .clamp or .wrap", ptx_ops[in->op].name);
	} else if (m->flags & (PMF_CLAMP | PMF_WRAP))
		err(k, in->loc, "'%s' takes no .clamp or .wrap", ptx_ops[in->op].name);
	if (scalar) {
		if (m->aop && m->aop != PAOP_ADD && m->aop != PAOP_MIN && m->aop != PAOP_MAX)
			err(k, in->loc, "the secondary operation of '%s' is .add, .min or .max", ptx_ops[in->op].name);
		else if (m->aop && in->nopd != 4)
			err(k, in->loc, "'%s%s' needs a third source", ptx_ops[in->op].name, ptx_aop_names[m->aop]);
		else if (!m->aop && in->nopd == 4)
			err(k, in->loc, "a third source of '%s' needs .add, .min or .max (the merge into a "
			    "destination selector is not supported)", ptx_ops[in->op].name);
		if (vset && (m->flags & PMF_SAT))
			err(k, in->loc, "'%s' takes no .sat", ptx_ops[in->op].name);
		return;
	}
	if (m->aop && m->aop != PAOP_ADD)
		err(k, in->loc, "the secondary operation of '%s' can only be .add", ptx_ops[in->op].name);
	if ((m->flags & PMF_SAT) && (vset || m->aop))
		err(k, in->loc, "'%s' takes no .sat %s", ptx_ops[in->op].name, vset ? "" : "with .add");
}

/* vmad.dtype.atype.btype{.po}{.sat}{.shr7|.shr15} d, {-}a, {-}b, {-}c: .u32/.s32 types
 * (the result's signedness comes from atype, btype and the negations, as the manual's
 * pseudocode has it), .po without negation, and a negated product or a negated c, not both
 * (the pseudocode applies only the first) */
static void
chk_vmad(Chk *k, const PIns *in)
{
	const PMods *m = &in->m;
	int na = in->o[1].flags & POF_NEG, nb = in->o[2].flags & POF_NEG, nc = in->o[3].flags & POF_NEG;

	if (m->ntypes != 3) {
		err(k, in->loc, "'vmad' needs three types, .dtype.atype.btype (e.g. .u32.u32.u32)");
		return;
	}
	for (int i = 0; i < 3; i++)
		if (m->types[i] != PT_U32 && m->types[i] != PT_S32) {
			err(k, in->loc, "'vmad' takes .u32 or .s32 types, not %s",
			    ptx_type_name((PType)m->types[i]));
			return;
		}
	if ((m->flags & PMF_PO) && (na || nb || nc))
		err(k, in->loc, "'vmad.po' takes no negated operand");
	else if ((!na != !nb) && nc)
		err(k, in->loc, "'vmad' negates the product or c, not both");
	if (m->aop || m->cmp || (m->flags & ~(PMF_SAT | PMF_PO)))
		err(k, in->loc, "'vmad' takes only .po, .sat and .shr7 or .shr15");
}

/* bra %r{, tlist}: %r holds a label's value; tlist is a .branchtargets list or a jump
 * table (a .global/.const array of this body initialised with labels); with no tlist the
 * function must have a label whose address is taken */
static void
chk_ibra(Chk *k, const PIns *in, const POpd *r)
{
	const POpd *t = in->nopd >= 2 ? &in->o[1] : NULL;
	const PReg *rg = &k->f->regs[r->reg];
	int fn = (int)(k->f - k->m->funcs) + 1, n = 0;

	if (rg->type == PT_PRED || (ptx_type_bytes((PType)rg->type) != 4 &&
	                            ptx_type_bytes((PType)rg->type) != 8))
		err(k, r->loc, "an indirect 'bra' needs a 32- or 64-bit register, '%s' is %s", rg->name,
		    ptx_type_name((PType)rg->type));
	if (!t || t->kind == POK_NONE) {
		for (int i = 0; i < k->f->nlabels; i++)
			n += k->f->labels[i].value >= 0;
		if (!n)
			err(k, r->loc, "indirect 'bra' without a target list, and no label of '%s' has "
			    "its address taken (by mov or an initializer)", k->f->name);
	} else if (t->kind == POK_TLIST) {
		if (k->f->tlists[t->sym].kind != PTL_BRANCH)
			err(k, t->loc, "'%s' is not a .branchtargets list", k->f->tlists[t->sym].name);
	} else if (t->kind == POK_SYM && t->symkind == PSYM_VAR && t->imm == 0) {
		const PVar *v = &k->m->vars[t->sym];
		for (int i = 0; i < v->ninit; i++)
			n += v->init[i].kind == PINIT_LABEL;
		if (v->scopefn != fn || !n)
			err(k, t->loc, "'%s' is not a jump table of '%s' (a .global or .const array of "
			    "its body initialised with its labels)", v->name, k->f->name);
	} else {
		err(k, t->loc, "the target list of an indirect 'bra' must be a .branchtargets label "
		    "or a jump table, not %s", kind_name(t));
	}
}

/* a vector register as call argument or result i (of a .reg .vN parameter, ZLUDA's and
 * PTX 1.x's form) goes with a vector parameter of as many elements of its size, and a
 * register goes with a vector parameter only as a vector */
static void
call_vec(Chk *k, const POpd *a, const PVar *v, const char *what, int i)
{
	size_t n = strlen(v->name);

	if (n > 4 && !strcmp(v->name + n - 4, "$reg"))   /* a .reg parameter's .param */
		n -= 4;
	if (a->kind == POK_VEC && v->vec == 1)
		err(k, a->loc, "%s %d is a vector register, but parameter '%.*s' is not a vector",
		    what, i, (int)n, v->name);
	else if (a->kind == POK_VEC && (v->vec != a->nelems ||
	                                (uint64_t)opd_bytes(k, &a->elems[0]) * v->vec != v->size))
		err(k, a->loc, "%s %d is a vector of %d %d-byte registers, but parameter '%.*s' is "
		    ".v%d%s", what, i, a->nelems, opd_bytes(k, &a->elems[0]), (int)n, v->name, v->vec,
		    ptx_type_name((PType)v->type));
	else if (a->kind == POK_REG && v->vec > 1)
		err(k, a->loc, "%s %d is a register, but parameter '%.*s' is a vector (.v%d)", what, i,
		    (int)n, v->name, v->vec);
}

static void
chk_call(Chk *k, const PIns *in)
{
	const POpd *rets = &in->o[0], *callee = &in->o[1], *args = &in->o[2], *tl = &in->o[3];

	if (callee->kind == POK_SYM && callee->symkind == PSYM_FUNC) {
		const PFunc *g = &k->m->funcs[callee->sym];
		if (g->entry)
			err(k, callee->loc, "cannot call kernel '%s'", g->name);
		if (args->nelems != g->nparams)
			err(k, callee->loc, "call to '%s' passes %d argument%s, it takes %d", g->name,
			    args->nelems, args->nelems == 1 ? "" : "s", g->nparams);
		if (rets->nelems != g->nrets)
			err(k, callee->loc, "call to '%s' receives %d result%s, it returns %d", g->name,
			    rets->nelems, rets->nelems == 1 ? "" : "s", g->nrets);
	} else if (callee->kind == POK_REG) {
		if (tl->kind == POK_SYM && tl->symkind == PSYM_VAR) {
			const PVar *v = &k->m->vars[tl->sym];
			for (int i = 0; i < v->ninit; i++)
				if (v->init[i].kind != PINIT_SYM || v->init[i].symkind != PSYM_FUNC) {
					err(k, tl->loc, "jump table '%s' must hold function names only", v->name);
					break;
				}
		} else if (tl->kind != POK_TLIST)
			err(k, callee->loc, "an indirect call needs a .calltargets, .callprototype or jump table operand");
		else if (k->f->tlists[tl->sym].kind == PTL_BRANCH)
			err(k, tl->loc, "'%s' is a .branchtargets list, not call targets",
			    k->f->tlists[tl->sym].name);
		if (opd_bytes(k, callee) != k->m->address_size / 8 && opd_bytes(k, callee) != 4)
			err(k, callee->loc, "the function address must be a %d-bit register",
			    k->m->address_size);
	} else {
		err(k, callee->loc, "cannot call %s", kind_name(callee));
	}
	for (int i = 0; i < rets->nelems; i++)
		if (rets->elems[i].kind != POK_SYM && rets->elems[i].kind != POK_REG &&
		    rets->elems[i].kind != POK_SINK && rets->elems[i].kind != POK_VEC)   /* '_': dropped */
			err(k, rets->elems[i].loc, "a call result must be a parameter, register or '_'");
	for (int i = 0; i < args->nelems; i++) {
		const POpd *a = &args->elems[i];
		if (a->kind != POK_SYM && a->kind != POK_REG && a->kind != POK_IMM && a->kind != POK_VEC)
			err(k, a->loc, "a call argument must be a parameter, register or immediate");
	}
	if (callee->kind == POK_SYM && callee->symkind == PSYM_FUNC) {
		const PFunc *g = &k->m->funcs[callee->sym];
		for (int i = 0; i < args->nelems && i < g->nparams; i++)
			call_vec(k, &args->elems[i], &g->params[i], "argument", i);
		for (int i = 0; i < rets->nelems && i < g->nrets; i++)
			call_vec(k, &rets->elems[i], &g->rets[i], "result", i);
	}
}

/* an operand whose name did not resolve (already reported by the builder) */
static int
unresolved(const PIns *in)
{
	for (int i = 0; i < in->nopd; i++) {
		const POpd *o = &in->o[i];
		if (o->kind == POK_NONE && !(in->op == PO_CALL && i == 3))
			return 1;
		for (int j = 0; j < o->nelems; j++)
			if (o->elems[j].kind == POK_NONE)
				return 1;
	}
	return 0;
}

/* the facts about one instruction that the checks of its operands share */
typedef struct {
	const PIns *in;   /* the instruction */
	int t0, t1;       /* first and second type modifier (t1 is t0 when there is one) */
	int wide;         /* .wide: the destination (and mad's addend) has twice the type's size */
	int loose;        /* a wider register may hold a narrower type (memory ops, cvt, mov) */
	int memrel;       /* ld, ldu, st: wider data registers as chk_wider says */
} ICtx;

/* the operand count, a type and vector modifier where the instruction needs one; 0 when
 * nothing more is worth checking */
static int
chk_form(Chk *k, const PIns *in)
{
	const POpInfo *oi = &ptx_ops[in->op];
	const PMods *m = &in->m;

	if (oi->flags & PF_UNSUP) {
		err(k, in->loc, "unsupported: instruction '%s' is valid PTX but warpsim does not "
		    "support it yet", oi->name);
		return 0;
	}
	if (in->nopd < oi->min || in->nopd > oi->max) {
		int shown = in->nopd - ((oi->flags & PF_PAIR) && !(m->flags & PMF_PAIR) ? 1 : 0);
		int lo = oi->min - (oi->flags & PF_PAIR ? 1 : 0), hi = oi->max - (oi->flags & PF_PAIR ? 1 : 0);
		if (lo == hi)
			err(k, in->loc, "'%s' takes %d operand%s, not %d", oi->name, lo, lo == 1 ? "" : "s", shown);
		else
			err(k, in->loc, "'%s' takes %d to %d operands, not %d", oi->name, lo, hi, shown);
		return 0;
	}
	if (strchr(oi->sig, 'T') && m->ntypes == 0 && in->op != PO_MOV) {
		err(k, in->loc, "'%s' needs a type modifier (e.g. .u32)", oi->name);
		return 0;
	}
	if (m->vec > 1 && in->op != PO_LD && in->op != PO_LDU && in->op != PO_ST &&
	    in->op != PO_ATOM && in->op != PO_RED && in->op != PO_MOV && in->op != PO_TEX &&
	    in->op != PO_TLD4 && in->op != PO_SULD && in->op != PO_SUST)
		err(k, in->loc, "'%s' does not take a vector modifier", oi->name);
	return 1;
}

/* the coordinate vector c (operand slot) of a texture or surface instruction: at least as many
 * 32-bit values as the geometry has dimensions */
static void
chk_coords(Chk *k, const PIns *in, const POpd *c, int slot)
{
	static const int needs[PGEOM_COUNT] = {
		[PGEOM_1D] = 1, [PGEOM_2D] = 2, [PGEOM_3D] = 3, [PGEOM_A1D] = 2, [PGEOM_A2D] = 3,
		[PGEOM_CUBE] = 3, [PGEOM_ACUBE] = 4, [PGEOM_2DMS] = 3, [PGEOM_A2DMS] = 4,
	};
	int geom = in->m.geom, need = needs[geom] ? needs[geom] : 1;

	if (c->kind != POK_VEC || c->nelems < need) {
		err(k, c->loc, "'%s%s' needs a vector of at least %d coordinate%s", ptx_ops[in->op].name,
		    ptx_geom_names[geom], need, need == 1 ? "" : "s");
		return;
	}
	for (int i = 0; i < c->nelems; i++)
		chk_value(k, in, &c->elems[i], slot, 4, 0, 0);
}

/* operand slot of in names a texture reference (.tex or .global .texref) or is a 64-bit
 * register holding a texture object's handle (bindless); 0 after an error */
static int
chk_texref(Chk *k, const PIns *in, int slot)
{
	const POpd *t = &in->o[slot];

	if (t->kind == POK_ADDR && t->reg >= 0 && t->sym < 0) {
		const PReg *r = &k->f->regs[t->reg];
		if (t->imm || r->vec > 1 || r->type == PT_PRED || ptx_type_bytes((PType)r->type) != 8) {
			err(k, t->loc, "operand %d of '%s': a texture handle must be a 64-bit register "
			    "with no offset", slot + 1, ptx_ops[in->op].name);
			return 0;
		}
		return 1;
	}
	if (t->kind == POK_ADDR && t->symkind == PSYM_VAR && t->reg < 0 &&
	    k->m->vars[t->sym].type == PT_SAMPLERREF) {
		/* PTX ISA, "Texturing Modes" and "Sampler Properties" */
		if (k->m->target && strstr(k->m->target, "texmode_independent"))
			err(k, t->loc, "operand %d of '%s' is a .samplerref, which holds sampler attributes "
			    "only (.force_unnormalized_coords, .filter_mode, .addr_mode_0/1/2)", slot + 1,
			    ptx_ops[in->op].name);
		else
			err(k, t->loc, "operand %d of '%s' is a .samplerref, which needs independent texture "
			    "mode (.target ..., texmode_independent); in unified mode, this module's, a "
			    "texture's sampler attributes are read through its .texref", slot + 1,
			    ptx_ops[in->op].name);
		return 0;
	}
	if (t->kind != POK_ADDR || t->symkind != PSYM_VAR || t->reg >= 0 ||
	    (k->m->vars[t->sym].space != PS_TEX && k->m->vars[t->sym].type != PT_TEXREF)) {
		err(k, t->loc, "operand %d of '%s' must be a texture reference (.tex or .global .texref)",
		    slot + 1, ptx_ops[in->op].name);
		return 0;
	}
	return 1;
}

/* tex.GEOM.v4.DTYPE.CTYPE d, [t, {c..}], tld4.COMP.2d.v4.DTYPE.f32 d, [t, {x, y}] and
 * txq.QUERY.b32 d, [t] (the forms warpsim does not do are the function's unsup_op, ins.c) */
static void
chk_tex(Chk *k, const PIns *in)
{
	const PMods *m = &in->m;
	const char *name = ptx_ops[in->op].name;
	const POpd *c = &in->o[in->nopd - ((m->flags & PMF_LEVEL) ? 2 : 1)];
	int tld4 = in->op == PO_TLD4;

	if (in->op == PO_TXQ) {
		if (m->txq == PTXQ_NONE || m->txq == PTXQ_MEMORY_LAYOUT || m->ntypes != 1 ||
		    m->types[0] != PT_B32)
			err(k, in->loc, "'txq' takes a texture attribute (.width, .height, .depth, "
			    ".channel_data_type, .channel_order, .normalized_coords, .array_size, "
			    ".num_mipmap_levels, .num_samples) or a sampler attribute (.filter_mode, "
			    ".addr_mode_0/1/2, .force_unnormalized_coords) and .b32");
		else if (chk_texref(k, in, 1) && m->txq == PTXQ_FORCE_UNNORMALIZED_COORDS &&
		         in->o[1].sym >= 0)
			/* PTX ISA, "Sampler Properties": a .samplerref's, in independent mode only */
			err(k, in->o[1].loc, "'txq.force_unnormalized_coords' reads a .samplerref of "
			    "independent texture mode (or a texture object's handle); a .texref has no such "
			    "attribute");
		return;
	}
	if (tld4 && m->comp == PCOMP_NONE) {
		err(k, in->loc, "'tld4' needs a channel (.r, .g, .b or .a)");
		return;
	}
	if (m->geom == PGEOM_NONE) {
		err(k, in->loc, "'%s' needs a geometry (%s)", name, tld4 ? ".2d" : ".1d, .2d or .3d");
		return;
	}
	if (m->vec != 4 || m->ntypes != 2 ||
	    (m->types[0] != PT_U32 && m->types[0] != PT_S32 && m->types[0] != PT_F32) ||
	    (m->types[1] != PT_F32 && (tld4 || m->types[1] != PT_S32))) {
		err(k, in->loc, "'%s' takes .v4, a result type (.u32, .s32 or .f32) and a coordinate "
		    "type (%s)", name, tld4 ? ".f32" : ".s32 or .f32");
		return;
	}
	if ((m->geom == PGEOM_CUBE || m->geom == PGEOM_ACUBE) && m->types[1] != PT_F32) {
		/* PTX ISA, "tex": .cube and .acube require .f32 coordinates */
		err(k, in->loc, "'%s%s' takes .f32 coordinates", name, ptx_geom_names[m->geom]);
		return;
	}
	if (!chk_texref(k, in, 1))
		return;
	chk_coords(k, in, c, 2);
	if ((m->flags & PMF_LEVEL) && in->nopd == 4 && in->o[3].kind != POK_VEC)
		chk_value(k, in, &in->o[3], 3, 4, 0, 0);   /* the level of detail, an f32 */
}

/* suld.b.GEOM{.vN}.bSIZE{.MODE} d, [s, {c..}], sust.b... [s, {c..}], v, suq.QUERY.b32 d, [s] */
static void
chk_surf(Chk *k, const PIns *in)
{
	const PMods *m = &in->m;
	const char *name = ptx_ops[in->op].name;
	int at = in->op == PO_SUST ? 0 : 1;
	const POpd *s = &in->o[at], *c = &in->o[at + 1];

	if (in->op == PO_SUQ) {
		int q = m->txq;
		if ((q != PTXQ_WIDTH && q != PTXQ_HEIGHT && q != PTXQ_DEPTH && q != PTXQ_CHANNEL_DATA_TYPE &&
		     q != PTXQ_CHANNEL_ORDER && q != PTXQ_ARRAY_SIZE && q != PTXQ_MEMORY_LAYOUT) ||
		    m->ntypes != 1 || m->types[0] != PT_B32) {
			err(k, in->loc, "'suq' takes an attribute (.width, .height, .depth, "
			    ".channel_data_type, .channel_order, .array_size or .memory_layout) and .b32");
			return;
		}
	} else if (in->op == PO_SULD && m->comp == PCOMP_P) {
		/* PTX ISA 9.x, "suld": suld.b.geom{.cop}{.vN}.dtype{.mode} only */
		err(k, in->loc, "'suld.p' is not an instruction of the PTX ISA: suld has only the "
		    "unformatted form, suld.b (a formatted read of a texture is tex)");
		return;
	} else if (in->op == PO_SUST && m->comp == PCOMP_P) {
		/* the formatted store: sust.p.dim{.vec}.b32{.mode} [a, b], c */
		if (m->geom < PGEOM_1D || m->geom > PGEOM_3D || m->ntypes != 1 || m->types[0] != PT_B32) {
			err(k, in->loc, "'sust.p' takes .1d, .2d or .3d, an optional .v2 or .v4 and .b32 "
			    "only (PTX ISA: sust.p.dim{.vec}.b32{.mode} [a, b], c)");
			return;
		}
	} else if (m->comp != PCOMP_B || m->geom == PGEOM_NONE || m->ntypes != 1 ||
	           (m->types[0] != PT_B8 && m->types[0] != PT_B16 && m->types[0] != PT_B32 &&
	            m->types[0] != PT_B64)) {
		err(k, in->loc, "'%s' takes .b, a geometry (.1d, .2d or .3d), an optional .v2 or .v4 "
		    "and .b8, .b16, .b32 or .b64", name);
		return;
	}
	if (s->kind == POK_ADDR && s->reg >= 0 && s->sym < 0) {
		/* a surface object's handle (bindless) */
		const PReg *r = &k->f->regs[s->reg];
		if (s->imm || r->vec > 1 || r->type == PT_PRED || ptx_type_bytes((PType)r->type) != 8) {
			err(k, s->loc, "operand %d of '%s': a surface handle must be a 64-bit register "
			    "with no offset", at + 1, name);
			return;
		}
	} else if (s->kind != POK_ADDR || s->symkind != PSYM_VAR || s->reg >= 0 ||
	    k->m->vars[s->sym].type != PT_SURFREF) {
		err(k, s->loc, "operand %d of '%s' must be a surface reference (.global .surfref)",
		    at + 1, name);
		return;
	}
	if (in->op == PO_SUQ)
		return;
	chk_coords(k, in, c, at + 1);
}

/* the modifiers an instruction cannot do without (a comparison, an operation, a mode ...)
 * and the checks of their own for call, cp.async and the video instructions; 0 when the
 * operands are checked already (call) */
static int
chk_required(Chk *k, const PIns *in)
{
	const POpInfo *oi = &ptx_ops[in->op];
	const PMods *m = &in->m;
	POp op = (POp)in->op;

	if (op == PO_SETP || op == PO_SET) {
		if (!m->cmp)
			err(k, in->loc, "'%s' needs a comparison (e.g. .lt)", oi->name);
		if (m->bop && in->nopd < oi->max)
			err(k, in->loc, "'%s%s' needs a third source predicate", oi->name,
			    ptx_bop_names[m->bop]);
		if (!m->bop && in->nopd == oi->max)
			err(k, in->loc, "'%s' with a third source needs .and, .or or .xor", oi->name);
	} else if (op == PO_ATOM || op == PO_RED || op == PO_REDUX) {
		if (!m->aop)
			err(k, in->loc, "'%s' needs an operation (e.g. .add)", oi->name);
		else if (in->op == PO_ATOM && (m->aop == PAOP_CAS) != (in->nopd == 4))
			err(k, in->loc, "'atom%s' takes %d operands", ptx_aop_names[m->aop],
			    m->aop == PAOP_CAS ? 4 : 3);
	} else if (op == PO_SHFL) {
		if (!m->shfl)
			err(k, in->loc, "'shfl' needs a mode (.up, .down, .bfly or .idx)");
	} else if (op == PO_VOTE) {
		if (!m->vote)
			err(k, in->loc, "'vote' needs a mode (.all, .any, .uni or .ballot)");
	} else if (op == PO_MATCH) {
		if (m->vote != PVOTE_ANY && m->vote != PVOTE_ALL)
			err(k, in->loc, "'match' needs .any or .all");
	} else if (op == PO_SHF) {
		if (!(m->flags & (PMF_LEFT | PMF_RIGHT)) || !(m->flags & (PMF_WRAP | PMF_CLAMP)))
			err(k, in->loc, "'shf' needs a direction (.l or .r) and a mode (.wrap or .clamp)");
	} else if (op == PO_TESTP) {
		if (!m->testp)
			err(k, in->loc, "'testp' needs a property (e.g. .finite)");
	} else if ((op == PO_REM || op == PO_SAD) && m->ntypes > 0 &&
	           ptx_type_kind((PType)m->types[0]) != PTK_SIGNED &&
	           ptx_type_kind((PType)m->types[0]) != PTK_UNSIGNED) {
		/* PTX ISA, "rem" and "sad": .u16 .u32 .u64 .s16 .s32 .s64 only */
		err(k, in->loc, "'%s' takes an integer type (.u16 to .s64), not %s", oi->name,
		    ptx_type_name((PType)m->types[0]));
	} else if (op == PO_CVT && (m->flags & PMF_PACK)) {
		/* cvt.pack.sat.{u16,s16}.s32 d, a, b; cvt.pack.sat.{u8,s8}.s32.b32 d, a, b, c */
		int t = m->types[0], b8 = t == PT_U8 || t == PT_S8;
		if (!(m->flags & PMF_SAT) || (!b8 && t != PT_U16 && t != PT_S16) || m->ntypes != 2 + b8 ||
		    m->types[1] != PT_S32 || (b8 && m->types[2] != PT_B32) || in->nopd != 3 + b8)
			err(k, in->loc, "'cvt.pack' takes .sat.u16 or .s16 .s32 d, a, b, or .sat.u8 or .s8 "
			    ".s32.b32 d, a, b, c (.u4/.s4/.u2/.s2 are not supported)");
	} else if (op == PO_CVT) {
		if (m->ntypes < 2)
			err(k, in->loc, "'cvt' needs a destination and a source type (e.g. .f32.s32)");
		else if (in->nopd == 4)
			err(k, in->loc, "'cvt' takes 2 to 3 operands, not 4");
	} else if (op == PO_CALL) {
		chk_call(k, in);
		return 0;
	} else if (op == PO_CP_ASYNC) {
		chk_cp_async(k, in);
	} else if (oi->flags & PF_TEX) {
		chk_tex(k, in);
	} else if (oi->flags & PF_SURF) {
		chk_surf(k, in);
	} else if (ptx_video_elems(in->op)) {
		chk_video(k, in);
	} else if (op == PO_VMAD) {
		chk_vmad(k, in);
	}
	return 1;
}

/* signature letter V: the data of a memory op, one value or a {..} vector of m->vec */
static void
chk_data(Chk *k, const ICtx *c, const POpd *o, int slot, int dst)
{
	const PIns *in = c->in;
	const PMods *m = &in->m;
	const char *name = ptx_ops[in->op].name;
	int want = type_bytes_or_pred(c->t0);

	if (o->kind == POK_VEC) {
		if (o->nelems != m->vec)
			err(k, o->loc, "'%s%s' needs a vector of %d elements, not %d", name,
			    m->vec == 1 ? "" : m->vec == 2 ? ".v2" : m->vec == 4 ? ".v4" : ".v8",
			    m->vec, o->nelems);
		for (int i = 0; i < o->nelems; i++)
			if (!c->memrel || !chk_wider(k, in, &o->elems[i], slot, c->t0, dst))
				chk_value(k, in, &o->elems[i], slot, want, dst, !c->memrel);
	} else if (m->vec > 1) {
		err(k, o->loc, "'%s' with a vector modifier needs a {..} operand", name);
	} else if (!c->memrel || !chk_wider(k, in, o, slot, c->t0, dst)) {
		chk_value(k, in, o, slot, want, dst, !c->memrel);
	}
}

/* signature letter M: a memory address [..] */
static void
chk_addr(Chk *k, const PIns *in, const POpd *o, int slot)
{
	if (o->kind != POK_ADDR)
		err(k, o->loc, "operand %d of '%s' must be a memory address [..], not %s",
		    slot + 1, opname(in), kind_name(o));
	else if (o->reg >= 0 && opd_bytes(k, o) != 0)
		; /* unreachable: addresses have no size */
	else if (o->reg >= 0) {
		const PReg *r = &k->f->regs[o->reg];
		int b = ptx_type_bytes((PType)r->type);
		if (r->type == PT_PRED || (b != 4 && b != 8))
			err(k, o->loc, "address register '%s' must be 32 or 64 bits", r->name);
	}
}

/* operand slot against its signature letter s (ptxops.def) */
static void
chk_slot(Chk *k, const ICtx *c, char s, int slot)
{
	const PIns *in = c->in;
	const POpd *o = &in->o[slot];
	const char *name = ptx_ops[in->op].name;
	int dst = ptx_ins_writes(in, slot);
	int want;

	switch (s) {
	case 'T': case 'U':
		want = type_bytes_or_pred(s == 'T' ? c->t0 : c->t1);
		if (c->wide && want > 0 && (slot == 0 || (in->op == PO_MAD && slot == 3)))
			want *= 2;
		if (in->op != PO_CVT || !chk_wider(k, in, o, slot, s == 'T' ? c->t0 : c->t1, dst))
			chk_value(k, in, o, slot, want, dst, c->loose && in->op != PO_CVT);
		break;
	case 'u':
		chk_value(k, in, o, slot, 4, dst, 0);
		break;
	case 'P':
		chk_value(k, in, o, slot, -1, dst, 0);
		break;
	case 'i':
		if (o->kind != POK_IMM)
			err(k, o->loc, "operand %d of '%s' must be an immediate", slot + 1, name);
		break;
	case 'V':
		chk_data(k, c, o, slot, dst);
		break;
	case 'M':
		chk_addr(k, in, o, slot);
		break;
	case 'X':
		if (o->kind == POK_REG) {
			chk_ibra(k, in, o);
		} else if (o->kind != POK_LABEL) {
			err(k, o->loc, "branch target must be a label, not %s", kind_name(o));
		}
		break;
	case 'B':
		if (o->kind != POK_TLIST || k->f->tlists[o->sym].kind != PTL_BRANCH)
			err(k, o->loc, "'%s' needs a .branchtargets list, not %s", name, kind_name(o));
		break;
	case '*':
		break;
	default:
		die("bad operand signature letter");
	}
}

/* mov d, a: a type; a vector on one side at most; a label's value in an integer of 32 or 64
 * bits */
static void
chk_mov(Chk *k, const PIns *in, int t0)
{
	const PMods *m = &in->m;
	const POpd *d = &in->o[0], *a = &in->o[1];
	int want = type_bytes_or_pred(t0);

	if (m->ntypes == 0)
		err(k, in->loc, "'mov' needs a type modifier (e.g. .u32)");
	else if (d->kind == POK_VEC || a->kind == POK_VEC) {
		const POpd *v = d->kind == POK_VEC ? d : a, *s = d->kind == POK_VEC ? a : d;
		for (int i = 0; i < v->nelems; i++)
			if (v->elems[i].kind == POK_LABEL || v->elems[i].kind == POK_TLIST)
				err(k, v->elems[i].loc, "a vector element of 'mov' cannot be %s",
				    kind_name(&v->elems[i]));
		if (d->kind == POK_VEC && a->kind == POK_VEC) {
			/* mov.vN: element by element */
			if (m->vec > 4)
				err(k, d->loc, "'mov.v%d': a vector mov takes .v2 or .v4 (%d elements is no "
				    "vector size of mov in the PTX ISA)", m->vec, m->vec);
			else if (m->vec < 2 || d->nelems != m->vec || a->nelems != m->vec)
				err(k, d->loc, "'mov' between vectors takes .v2 or .v4 and as many elements on "
				    "both sides");
			for (int i = 0; i < d->nelems && i < a->nelems; i++) {
				chk_value(k, in, &d->elems[i], 0, want, 1, 0);
				chk_value(k, in, &a->elems[i], 1, want, 0, 0);
			}
		} else
			chk_value(k, in, s, s == d ? 0 : 1, want, s == d, 0);
	} else if (a->kind == POK_LABEL) {   /* a label's value (PLabel.value) */
		chk_value(k, in, d, 0, want, 1, 0);
		if ((want != 4 && want != 8) || ptx_type_kind((PType)t0) == PTK_FLOAT)
			err(k, a->loc, "the value of label '%s' needs mov.u32, .b32, .s32 or a 64-bit "
			    "integer type, not mov%s", k->f->labels[a->sym].name,
			    ptx_type_name((PType)t0));
	} else {
		chk_value(k, in, d, 0, want, 1, 0);
		chk_value(k, in, a, 1, want, 0, 0);
	}
}

static void
chk_ins(Chk *k, const PIns *in)
{
	const POpInfo *oi = &ptx_ops[in->op];
	const PMods *m = &in->m;
	ICtx c;
	int slot = 0;

	if (unresolved(in) || !chk_form(k, in) || !chk_required(k, in))
		return;
	c.in = in;
	c.t0 = m->ntypes > 0 ? m->types[0] : PT_NONE;
	c.t1 = m->ntypes > 1 ? m->types[1] : c.t0;
	c.wide = (m->flags & PMF_WIDE) != 0;
	c.loose = oi->cls == PC_MEM || in->op == PO_CVT || in->op == PO_MOV;
	c.memrel = in->op == PO_LD || in->op == PO_LDU || in->op == PO_ST;
	for (const char *s = oi->sig; *s && slot < in->nopd; s++)
		if (*s != '[' && *s != ']')
			chk_slot(k, &c, *s, slot++);
	if (in->op == PO_MOV)
		chk_mov(k, in, c.t0);
}

int
ptx_check(const Module *m, FILE *errf)
{
	Chk k = { m, NULL, errf, 0 };

	for (int i = 0; i < m->nfuncs; i++) {
		k.f = &m->funcs[i];
		for (int j = 0; j < k.f->nins; j++)
			chk_ins(&k, &k.f->ins[j]);
	}
	if (k.nerr > 50 && errf)
		fprintf(errf, "%s: error: too many errors, the rest are not shown\n", m->name);
	return k.nerr;
}
