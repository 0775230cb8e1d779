/* ins.c - instructions and operands: guard, operand construction and name resolution
 * (registers and locals now, labels/target lists/module symbols at the end of the body),
 * normalisation of "d|p" pairs and of call operands into their fixed slots. */
#include <string.h>
#include "frontend/build.h"

static void
push(PCtx *c, POpd o)
{
	if (c->ingroup)
		pvec_push(c->elems, o);
	else
		pvec_push(c->ops, o);
}

static POpd
opd(int kind, PLoc l)
{
	POpd o;
	memset(&o, 0, sizeof o);
	o.kind = (uint8_t)kind;
	o.reg = -1;
	o.sym = -1;
	o.loc = l;
	return o;
}

int
b_lookup_reg(PCtx *c, const char *s, int n)
{
	PTabEnt *e = ptab_find(&c->ltab, s, n);
	return e && e->kind == NK_REG ? e->idx : -1;
}

static int
find_sreg(const char *s, int n, int *comp)
{
	const char *dot = memchr(s, '.', (size_t)n);
	int base = dot ? (int)(dot - s) : n;

	*comp = 0;
	if (dot) {
		switch (dot[1]) {
		case 'x': *comp = 1; break;
		case 'y': *comp = 2; break;
		case 'z': *comp = 3; break;
		case 'w': *comp = 4; break;
		default: return -1;
		}
	}
	for (int i = 0; i < PSR_COUNT; i++) {
		const char *nm = ptx_sreg_name((PSReg)i);
		if ((int)strlen(nm) == base && memcmp(nm, s, (size_t)base) == 0)
			return i;
	}
	return -1;
}

static const char *const local_what[] = { "register", "variable", "parameter", "return parameter" };

/* resolves what can be resolved now: registers, locals, params, special registers. Returns
 * 1 with *o filled, 0 when the name must wait for the end of the body (o is POK_PENDING),
 * -1 after an error. */
static int
resolve_now(PCtx *c, const PTok *name, POpd *o, int addr)
{
	PTabEnt *e = ptab_find(&c->ltab, name->s, name->n);
	int comp, sr;

	if (e) {
		switch (e->kind) {
		case NK_REG:
			if (addr) {
				o->kind = POK_ADDR;
				o->reg = e->idx;
			} else {
				o->kind = POK_REG;
				o->reg = e->idx;
			}
			return 1;
		case NK_LOCAL: o->symkind = PSYM_LOCAL; break;
		case NK_PARAM: o->symkind = PSYM_PARAM; break;
		case NK_RET: o->symkind = PSYM_RET; break;
		case NK_VAR: o->symkind = PSYM_VAR; break;   /* a body's .global/.const */
		default: die("bad local name kind");
		}
		o->kind = addr ? POK_ADDR : POK_SYM;
		o->sym = e->idx;
		return 1;
	}
	if (name->s[0] == '%' && (sr = find_sreg(name->s, name->n, &comp)) >= 0) {
		if (addr) {
			ptx_diag(c, o->loc, "special register '%.*s' cannot be an address", name->n, name->s);
			return -1;
		}
		if (ptx_sreg_has_comp((PSReg)sr) && !comp) {
			ptx_diag(c, o->loc, "special register '%.*s' needs a component (.x, .y or .z)",
			         name->n, name->s);
			return -1;
		}
		if (!ptx_sreg_has_comp((PSReg)sr) && comp) {
			ptx_diag(c, o->loc, "special register '%s' has no components",
			         ptx_sreg_name((PSReg)sr));
			return -1;
		}
		o->kind = POK_SREG;
		o->sreg = (uint8_t)sr;
		o->comp = (uint8_t)comp;
		return 1;
	}
	if ((e = ptab_find(&c->allregs, name->s, name->n))) {
		ptx_diag(c, o->loc, "register '%.*s' used outside the scope that declares it",
		         name->n, name->s);
		return -1;
	}
	if (name->s[0] == '%' && name->n > 3 && name->s[name->n - 2] == '.' &&
	    (name->s[name->n - 1] == 'b' || name->s[name->n - 1] == 'h')) {
		ptx_diag(c, o->loc, "unsupported: the operand selector '%.*s..' (a video instruction's "
		         ".bN/.hN) is valid PTX but warpsim does not support it yet", name->n, name->s);
		return -1;
	}
	if (name->s[0] == '%' && !ptab_find(&c->gtab, name->s, name->n)) {
		/* a module variable may be named %x too (GPUOcelot's tests: .local .u32 %L1) */
		ptx_diag(c, o->loc, "undefined register '%.*s'", name->n, name->s);
		return -1;
	}
	(void)local_what;
	o->kind = POK_PENDING;
	o->ikind = (uint8_t)addr;
	o->sym = c->pnames.n;
	pvec_push(c->pnames, *name);
	return 0;
}

void
b_guard(PCtx *c, const PTok *name, int neg, PLoc l)
{
	int r = b_lookup_reg(c, name->s, name->n);

	c->gloc = l;
	c->gneg = neg;
	c->guard = -1;
	if (r < 0) {
		if (ptab_find(&c->allregs, name->s, name->n))
			ptx_diag(c, l, "register '%.*s' used outside the scope that declares it",
			         name->n, name->s);
		else
			ptx_diag(c, l, "undefined predicate '%.*s' in guard", name->n, name->s);
		c->inbad = 1;
	} else if (c->regs.a[r].type != PT_PRED) {
		ptx_diag(c, l, "guard '%.*s' is not a predicate (declared %s)", name->n, name->s,
		         ptx_type_name((PType)c->regs.a[r].type));
		c->inbad = 1;
	} else {
		c->guard = r;
	}
}

/* a guard written as an integer (@1, @!0): the PTX ISA's guard is a predicate register, and
 * ptxas 11.8 and 13 stop at it with a syntax error; an instruction's predicate operand may
 * be an immediate, its guard may not */
void
b_guard_imm(PCtx *c, PLoc l)
{
	c->gloc = l;
	c->gneg = 0;
	c->guard = -1;
	ptx_diag(c, l, "a guard is a predicate register, not an immediate (ptxas refuses '@1' too; "
	         "a predicate operand may be one: selp.u32 %%r, 1, 0, 1)");
	c->inbad = 1;
}

/* the operand r+N: a new register %$oK (K counting per function) = r + N, added before the
 * instruction being built */
static POpd
reg_plus(PCtx *c, int r, int64_t n, PLoc l)
{
	PIns add;
	POpd o = opd(POK_REG, l);
	char buf[32];
	int len = snprintf(buf, sizeof buf, "%%$o%d", c->regs.n), type = c->regs.a[r].type;
	char *name = ptx_alloc(c->A, (size_t)len + 1);

	memcpy(name, buf, (size_t)len + 1);
	b_add_reg(c, name, len, type, l);
	o.reg = b_lookup_reg(c, name, len);
	memset(&add, 0, sizeof add);
	add.op = PO_ADD;
	add.guard = -1;
	add.loc = l;
	add.m.types[0] = (uint8_t)(type == PT_B32 ? PT_U32 : type == PT_B64 ? PT_U64 : type);
	add.m.ntypes = 1;
	add.nopd = 3;
	add.o = ptx_alloc(c->A, sizeof *add.o * 3);
	add.o[0] = o;
	add.o[1] = opd(POK_REG, l);
	add.o[1].reg = r;
	add.o[2] = opd(POK_IMM, l);
	add.o[2].ikind = PIMM_DEC;
	add.o[2].imm = n;
	add.srcfile = c->srcfile;
	add.srcline = c->srcline;
	add.srccol = c->srccol;
	pvec_push(c->ins, add);
	return o;
}

/* the video operand selector ending name (%r.b1, %r.h0: the lexer's token), or PVS_NONE;
 * -1 for a suffix that is none (.b4, .h2) */
static int
vsel_of(const PTok *name, int *base)
{
	int n = name->n, i = n;

	while (i > 0 && name->s[i - 1] >= '0' && name->s[i - 1] <= '9')
		i--;
	if (i == n || i < 3 || name->s[i - 2] != '.' || (name->s[i - 1] != 'b' && name->s[i - 1] != 'h'))
		return PVS_NONE;
	*base = i - 2;
	if (n - i != 1)
		return -1;
	if (name->s[i - 1] == 'b')
		return name->s[i] <= '3' ? PVS_B0 + (name->s[i] - '0') : -1;
	return name->s[i] <= '1' ? PVS_H0 + (name->s[i] - '0') : -1;
}

void
b_opd_name(PCtx *c, const PTok *name, const PTok *off, int flags, PLoc l)
{
	POpd o = opd(POK_NONE, l);
	PTok bname = *name;
	int base = 0, vs = vsel_of(name, &base);

	o.flags = (uint8_t)flags;
	if (vs < 0) {
		ptx_diag(c, l, "'%.*s' is no operand selector (a video instruction's .b0-.b3, .h0, .h1)",
		         name->n - base, name->s + base);
		c->inbad = 1;
		return;
	}
	if (vs != PVS_NONE)
		bname.n = base;
	if (resolve_now(c, &bname, &o, 0) < 0) {
		c->inbad = 1;
		return;
	}
	if (vs != PVS_NONE && o.kind != POK_REG) {
		ptx_diag(c, l, "the operand selector '%.*s' applies to a register, not to '%.*s'",
		         name->n - base, name->s + base, base, name->s);
		c->inbad = 1;
		return;
	}
	o.vsel = (uint8_t)vs;
	if (off) {
		if (o.kind == POK_REG && !c->ingroup && c->regs.a[o.reg].vec == 1 &&
		    c->regs.a[o.reg].type != PT_PRED && ptx_type_kind((PType)c->regs.a[o.reg].type) !=
		    PTK_FLOAT && ptx_type_bytes((PType)c->regs.a[o.reg].type) >= 4) {
			/* a source 'r+N' (ptxas takes it): its value is r + N in r's type, an add into
			 * a register of its own just before the instruction */
			o = reg_plus(c, o.reg, (int64_t)off->u, l);
		} else if (o.kind == POK_REG || o.kind == POK_SREG) {
			ptx_diag(c, l, "an offset cannot be added to register '%.*s'", name->n, name->s);
			c->inbad = 1;
			return;
		} else
			o.imm = (int64_t)off->u;
	}
	if (o.kind == POK_REG && c->regs.a[o.reg].vec > 1) {
		/* a vector register: the vector of its elements, the registers after it */
		POpd v = opd(POK_VEC, l);
		if (c->ingroup == 1 || flags) {   /* in a call's (..) list it is a vector argument */
			ptx_diag(c, l, "vector register '%.*s' cannot be %s", name->n, name->s,
			         c->ingroup ? "an element of a vector" : "negated");
			c->inbad = 1;
			return;
		}
		v.nelems = c->regs.a[o.reg].vec;
		v.elems = ptx_alloc(c->A, sizeof *v.elems * (size_t)v.nelems);
		for (int k = 0; k < v.nelems; k++) {
			v.elems[k] = opd(POK_REG, l);
			v.elems[k].reg = o.reg + 1 + k;
		}
		o = v;
	}
	push(c, o);
}

void
b_opd_pair(PCtx *c, const PTok *a, PLoc la, const PTok *b, PLoc lb)
{
	if (c->ops.n != 0) {
		ptx_diag(c, la, "a 'd|p' pair can only be the first operand");
		c->inbad = 1;
	}
	b_opd_name(c, a, NULL, 0, la);
	b_opd_name(c, b, NULL, 0, lb);
	c->in.m.flags |= PMF_PAIR;
}

void
b_opd_sink(PCtx *c, PLoc l)
{
	push(c, opd(POK_SINK, l));
}

void
b_opd_imm(PCtx *c, const PTok *t, int neg, PLoc l)
{
	POpd o = opd(POK_IMM, l);

	o.ikind = t->ikind;
	o.flags = t->flags;
	o.imm = (int64_t)t->u;
	if (neg) {
		switch ((PImmKind)t->ikind) {
		case PIMM_F32: o.imm ^= 0x80000000; break;
		case PIMM_F64: case PIMM_FLOAT: o.imm = (int64_t)((uint64_t)o.imm ^ ((uint64_t)1 << 63)); break;
		case PIMM_DEC: case PIMM_HEX: case PIMM_OCT: case PIMM_BIN:
			o.imm = (int64_t)(0 - (uint64_t)o.imm);
			break;
		}
	}
	push(c, o);
}

void
b_opd_addr(PCtx *c, const PTok *base, const PTok *off, int neg, PLoc l)
{
	POpd o = opd(POK_ADDR, l);

	if (off)
		o.imm = neg ? (int64_t)(0 - off->u) : (int64_t)off->u;
	if (base && resolve_now(c, base, &o, 1) < 0) {
		c->inbad = 1;
		return;
	}
	push(c, o);
}

void
b_group_begin(PCtx *c, int kind)
{
	c->ingroup = kind == POK_LIST ? 2 : 1;
	c->elems.n = 0;
}

void
b_group_end(PCtx *c, int kind, PLoc l)
{
	POpd o = opd(kind, l);

	c->ingroup = 0;
	o.nelems = c->elems.n;
	if (c->elems.n) {
		o.elems = ptx_alloc(c->A, sizeof *o.elems * (size_t)c->elems.n);
		memcpy(o.elems, c->elems.a, sizeof *o.elems * (size_t)c->elems.n);
	}
	if (kind == POK_VEC && (o.nelems < 1 || o.nelems > 8)) {
		ptx_diag(c, l, "a vector operand has 1 to 8 elements");
		c->inbad = 1;
	}
	c->elems.n = 0;
	push(c, o);
}

void
b_ins_begin(PCtx *c, const PTok *opcode, PLoc l)
{
	memset(&c->in, 0, sizeof c->in);
	c->in.loc = l;
	c->in.guard = c->guard;
	c->in.gneg = (uint8_t)c->gneg;
	c->ops.n = 0;
	c->elems.n = 0;
	if (!c->inbody) {
		ptx_diag(c, l, "instruction outside a function body");
		c->inbad = 1;
		return;
	}
	if (!ptx_decode_opword(c, opcode->s, opcode->n, l, &c->in)) {
		c->inbad = 1;
	} else if (ptx_ops[c->in.op].flags & PF_UNSUP) {
		/* valid PTX: not an error of the module, but of any kernel that reaches this
		 * function (the translator and the oracle refuse those, at this location) */
		if (!c->cur.unsup_op) {
			c->cur.unsup_op = c->in.op + 1;
			c->cur.unsup_loc = l;
		}
		c->inbad = 1;
		c->quiet = 1;   /* left out: its operands are not worth messages */
	}
}

/* a .pred .reg parameter's conversion: selp.u32 t, 1, 0, p (tou32, before its st.param, under
 * the ret's guard) or setp.ne.u32 p, t, 0 (after its ld.param) */
static void
pred_conv(PCtx *c, const PRegParm *r, int t, int p, int tou32)
{
	PIns in;
	POpd *o = ptx_alloc(c->A, sizeof *o * 4);

	memset(&in, 0, sizeof in);
	in.op = tou32 ? PO_SELP : PO_SETP;
	in.guard = tou32 ? c->in.guard : -1;
	in.gneg = tou32 ? c->in.gneg : 0;
	in.m.types[0] = PT_U32;
	in.m.ntypes = 1;
	in.m.vec = 1;
	in.m.cmp = tou32 ? 0 : PCMP_NE;
	in.loc = r->loc;
	in.srcfile = -1;
	for (int i = 0; i < 4; i++)
		o[i] = opd(POK_REG, r->loc);
	o[0].reg = tou32 ? t : p;
	if (tou32) {
		o[1] = opd(POK_IMM, r->loc);
		o[1].imm = 1;
		o[2] = opd(POK_IMM, r->loc);
		o[3].reg = p;
		in.nopd = 4;
	} else {
		o[1] = opd(POK_SINK, r->loc);   /* setp's second destination, absent */
		o[2].reg = t;
		o[3] = opd(POK_IMM, r->loc);
		in.nopd = 4;
	}
	in.o = o;
	pvec_push(c->ins, in);
}

/* ld.param of .reg parameter r into register reg, or st.param of a .reg return from it
 * (before a ret, under the ret's guard); a vector register goes as ld/st.param.vN of its
 * elements (the registers after it) */
void
b_param_copy(PCtx *c, const PRegParm *r, int reg)
{
	PIns in;
	POpd *o = ptx_alloc(c->A, sizeof *o * 2);
	POpd a = opd(POK_ADDR, r->loc), v = opd(POK_REG, r->loc);
	int pred = r->type == PT_PRED, t = -1;

	if (pred) {
		/* a .pred parameter is a .u32 .param of 1 or 0: through a register of its own, with
		 * setp.ne after the load, selp before the store */
		char buf[32];
		int len = snprintf(buf, sizeof buf, "%%$p%d", c->regs.n);
		char *name = ptx_alloc(c->A, (size_t)len + 1);
		memcpy(name, buf, (size_t)len + 1);
		b_add_reg(c, name, len, PT_U32, r->loc);
		t = b_lookup_reg(c, name, len);
		if (r->ret)
			pred_conv(c, r, t, reg, 1);
	}
	memset(&in, 0, sizeof in);
	in.op = r->ret ? PO_ST : PO_LD;
	in.guard = r->ret ? c->in.guard : -1;
	in.gneg = r->ret ? c->in.gneg : 0;
	in.m.types[0] = (uint8_t)(pred ? PT_U32 : r->type);
	in.m.ntypes = 1;
	in.m.vec = (uint8_t)(r->vec > 1 ? r->vec : 1);
	in.m.space = PS_PARAM;
	in.nopd = 2;
	in.o = o;
	in.loc = r->loc;
	in.srcfile = -1;
	a.symkind = r->ret ? PSYM_RET : PSYM_PARAM;
	a.sym = r->idx;
	v.reg = pred ? t : reg;
	if (r->vec > 1) {
		v = opd(POK_VEC, r->loc);
		v.nelems = r->vec;
		v.elems = ptx_alloc(c->A, sizeof *v.elems * (size_t)r->vec);
		for (int k = 0; k < r->vec; k++) {
			v.elems[k] = opd(POK_REG, r->loc);
			v.elems[k].reg = reg + 1 + k;
		}
	}
	o[r->ret] = v;
	o[!r->ret] = a;
	pvec_push(c->ins, in);
	if (pred && !r->ret)
		pred_conv(c, r, t, reg, 0);
}

/* records the pending operands of arena array o[0..n) (and of their elements) */
static void
add_fixups(PCtx *c, POpd *o, int n, int isbranch)
{
	for (int i = 0; i < n; i++) {
		if (o[i].kind == POK_VEC || o[i].kind == POK_LIST)
			add_fixups(c, o[i].elems, o[i].nelems, 0);
		if (o[i].kind == POK_PENDING) {
			PTok *t = &c->pnames.a[o[i].sym];
			PFix f = { &o[i], t->s, t->n, isbranch && i == 0, o[i].loc };
			if (o[i].flags & POF_NOT)
				ptx_diag(c, o[i].loc, "'!' applies to predicates only");
			pvec_push(c->fix, f);
		}
	}
}

/* call{.uni} [(rets),] callee[, (args)][, tlist] -> 4 slots */
static int
norm_call(PCtx *c)
{
	POpd s[4], *o = c->ops.a;
	int n = c->ops.n, i = 0;

	s[0] = opd(POK_LIST, c->in.loc);
	s[2] = opd(POK_LIST, c->in.loc);
	s[3] = opd(POK_NONE, c->in.loc);
	if (i < n && o[i].kind == POK_LIST)
		s[0] = o[i++];
	if (i >= n || o[i].kind == POK_LIST || o[i].kind == POK_VEC) {
		ptx_diag(c, c->in.loc, "call needs a function or a register to call");
		return 0;
	}
	s[1] = o[i++];
	if (i < n && o[i].kind == POK_LIST)
		s[2] = o[i++];
	if (i < n && o[i].kind != POK_LIST)
		s[3] = o[i++];
	if (i < n) {
		ptx_diag(c, o[i].loc, "unexpected operand in call");
		return 0;
	}
	c->ops.n = 0;
	for (i = 0; i < 4; i++)
		pvec_push(c->ops, s[i]);
	return 1;
}

/* the form of a tex, tld4, txq, suld, sust or suq warpsim does not do (docs/frontend.md
 * "Textures"), or NULL */
static const char *
tex_unsup(const PCtx *c, const PIns *in)
{
	const PMods *m = &in->m;

	if (in->op == PO_SUQ)
		return NULL;   /* check.c: every attribute suq has is answered */
	if (in->op == PO_SULD || in->op == PO_SUST) {
		/* suld.p and sust.p other than sust.p.{1d,2d,3d}{.v2,.v4}.b32 are errors (check.c) */
		return m->comp != PCOMP_P && m->geom > PGEOM_A2D ? " with a cube or multisample geometry" :
		       NULL;
	}
	if (in->op == PO_TXQ) {
		if (m->flags & PMF_LEVEL)
			return " with a level of detail (.level)";
		/* independent texture mode reads sampler attributes from a .samplerref, which no
		 * launch binds */
		int indep = c->m->target && strstr(c->m->target, "texmode_independent");
		return indep && m->txq >= PTXQ_FORCE_UNNORMALIZED_COORDS && m->txq <= PTXQ_ADDR_MODE_2 ?
		       " of a sampler attribute in independent texture mode (no launch binds a "
		       ".samplerref)" : NULL;
	}
	if (in->op == PO_TLD4 && in->m.geom != PGEOM_2D && in->m.geom != PGEOM_NONE)
		return " with a layered or cube geometry";
	if (in->m.geom > PGEOM_ACUBE)
		return " with a multisample geometry";
	if (in->m.geom > PGEOM_3D && in->op != PO_TEX)
		return " with a layered or cube geometry";
	if (in->m.geom > PGEOM_3D && (in->m.flags & PMF_LEVEL))
		return " with an explicit level of detail on a layered or cube geometry";
	if (in->m.flags & PMF_LEVEL) {
		/* tex.level d, [t, {c..}], lod: every binding has one level, which any lod reads */
		if (in->op != PO_TEX || c->ops.n != 4 || c->ops.a[3].kind == POK_VEC ||
		    (in->m.flags & PMF_PAIR))
			return " with an explicit level of detail and a residency predicate, an offset, "
			       "a depth comparison or an array or cube geometry";
		return NULL;
	}
	if ((in->m.flags & PMF_PAIR) || c->ops.n > 4 || (c->ops.n == 4 && c->ops.a[3].kind != POK_VEC))
		return " with a residency predicate, an offset or a depth comparison";
	return c->ops.n == 4 ? " with an independent sampler" : NULL;
}

/* createpolicy (PTX ISA 7.4): the form's operands checked, then read as mov.b64 d, 0: the
 * policy is an opaque value that ld/st/cp.async .L2::cache_hint accept and warpsim ignores
 * (it models no L2 eviction priority); 0 after an error */
static int
policy_to_mov(PCtx *c, PIns *in)
{
	static const int nops[4][2] = { {0, 0}, {1, 2}, {4, 4}, {2, 2} };
	const char *form[4] = { "", ".fractional", ".range", ".cvt.L2" };
	int p = in->m.policy, n = c->ops.n;
	POpd zero = opd(POK_IMM, in->loc);

	if (!p || in->m.ntypes != 1 || (p != 3 && !in->m.l2evict)) {
		ptx_diag(c, in->loc, "'createpolicy' takes .fractional, .range or .cvt.L2, an "
		         ".L2::evict_* priority (but .cvt) and .b64");
		return 0;
	}
	if (n < nops[p][0] || n > nops[p][1] || c->ops.a[0].kind != POK_REG ||
	    (p == 1 && n == 2 && c->ops.a[1].kind != POK_IMM) ||
	    (p == 2 && c->ops.a[1].kind != POK_ADDR)) {
		ptx_diag(c, in->loc, "'createpolicy%s' takes %s", form[p], p == 1 ?
		         "d{, fraction}: a register and an immediate" : p == 2 ?
		         "d, [a], primary-size, total-size" : "d, access-property");
		return 0;
	}
	memset(&in->m, 0, sizeof in->m);
	in->m.types[0] = PT_B64;
	in->m.ntypes = 1;
	in->m.vec = 1;
	in->op = PO_MOV;
	zero.ikind = PIMM_DEC;
	c->ops.a[1] = zero;
	c->ops.n = 2;
	return 1;
}

void
b_ins_end(PCtx *c)
{
	const char *form;
	PIns *in = &c->in;
	const POpInfo *oi;

	if (c->inbad || in->op >= PO_COUNT)
		goto done;
	oi = &ptx_ops[in->op];
	if ((oi->flags & (PF_TEX | PF_SURF)) && (form = tex_unsup(c, in))) {
		/* valid PTX, as b_ins_begin's PF_UNSUP: refused for the kernels that reach it */
		if (!c->cur.unsup_op) {
			c->cur.unsup_op = in->op + 1;
			c->cur.unsup_loc = in->loc;
			c->cur.unsup_form = form;
		}
		goto done;
	}
	if (in->op == PO_CREATEPOLICY && !policy_to_mov(c, in))
		goto done;
	if ((in->m.flags & PMF_PAIR) && !(oi->flags & PF_PAIR)) {
		ptx_diag(c, c->ops.n ? c->ops.a[0].loc : in->loc,
		         "'%s' has no 'd|p' destination pair", oi->name);
		goto done;
	}
	if ((oi->flags & PF_PAIR) && !(in->m.flags & PMF_PAIR) && c->ops.n >= 1) {
		POpd sink = opd(POK_SINK, c->ops.a[0].loc);
		pvec_push(c->ops, sink);
		memmove(c->ops.a + 2, c->ops.a + 1, sizeof *c->ops.a * (size_t)(c->ops.n - 2));
		c->ops.a[1] = sink;
	}
	if (in->op == PO_CALL && !norm_call(c))
		goto done;
	if (c->ops.n > 255) {
		ptx_diag(c, in->loc, "too many operands");
		goto done;
	}
	in->nopd = (uint8_t)c->ops.n;
	in->m.flags |= ptx_implied_mods(c->m, in);   /* sm_1x's .ftz, PTX 1.3's .approx.ftz */
	if (c->ops.n) {
		in->o = ptx_alloc(c->A, sizeof *in->o * (size_t)c->ops.n);
		memcpy(in->o, c->ops.a, sizeof *in->o * (size_t)c->ops.n);
		add_fixups(c, in->o, in->nopd, in->op == PO_BRA);
	}
	in->srcfile = c->srcfile;
	in->srcline = c->srcline;
	in->srccol = c->srccol;
	for (int i = 0; in->op == PO_RET && i < c->rparms.n; i++) {
		const PRegParm *r = &c->rparms.a[i];
		int reg = r->ret && r->idx >= 0 ? b_lookup_reg(c, r->name, r->len) : -1;
		if (reg >= 0)
			b_param_copy(c, r, reg);
	}
	pvec_push(c->ins, *in);
done:
	c->ops.n = 0;
	c->elems.n = 0;
	c->ingroup = 0;
	c->guard = -1;
	c->gneg = 0;
	c->inbad = 0;
	c->quiet = 0;
	c->pnames.n = 0;
}

void
b_resolve_fixups(PCtx *c)
{
	for (int i = 0; i < c->fix.n; i++) {
		PFix *f = &c->fix.a[i];
		POpd *o = f->o;
		int addr = o->ikind;
		PTabEnt *e;

		if (o->kind != POK_PENDING)
			continue;   /* already resolved (a bra target is recorded twice) */
		o->ikind = 0;
		if ((e = ptab_find(&c->labtab, f->name, f->len))) {
			if (addr) {
				ptx_diag(c, f->loc, "label '%.*s' cannot be a memory address", f->len, f->name);
				o->kind = POK_NONE;
				continue;
			}
			o->kind = e->kind == NK_LABEL ? POK_LABEL : POK_TLIST;
			o->sym = e->idx;
			continue;
		}
		e = ptab_find(&c->gtab, f->name, f->len);
		if (f->isbranch == 1 && e) {
			ptx_diag(c, f->loc, "branch target '%.*s' is not a label of function '%s'",
			         f->len, f->name, c->cur.name);
			o->kind = POK_NONE;
		} else if (f->isbranch == 1) {
			ptx_diag(c, f->loc, "undefined label '%.*s'", f->len, f->name);
			o->kind = POK_NONE;
		} else if (!e && !addr && f->len == 7 && !memcmp(f->name, "WARP_SZ", 7)) {
			o->kind = POK_IMM;   /* PTX ISA, "Predefined Identifiers": the warp size */
			o->ikind = PIMM_DEC;
			o->imm = 32;
		} else if (!e) {
			ptx_diag(c, f->loc, "undefined symbol '%.*s'", f->len, f->name);
			o->kind = POK_NONE;
		} else {
			o->kind = addr ? POK_ADDR : POK_SYM;
			o->symkind = e->kind == NK_FUNC ? PSYM_FUNC : PSYM_VAR;
			o->sym = e->idx;
			if (addr && e->kind == NK_FUNC) {
				ptx_diag(c, f->loc, "function '%.*s' cannot be a memory address", f->len, f->name);
				o->kind = POK_NONE;
			}
		}
	}
	c->fix.n = 0;
	for (int i = 0; i < c->tfix.n; i++) {
		PTFix *t = &c->tfix.a[i];
		PTList *tl = &c->tlists.a[t->tl];
		PTabEnt *e;
		if (tl->kind == PTL_BRANCH) {
			e = ptab_find(&c->labtab, t->name.s, t->name.n);
			if (!e || e->kind != NK_LABEL)
				ptx_diag(c, t->loc, "undefined label '%.*s' in .branchtargets", t->name.n, t->name.s);
			else
				tl->targets[t->i] = e->idx;
		} else {
			e = ptab_find(&c->gtab, t->name.s, t->name.n);
			if (!e || e->kind != NK_FUNC)
				ptx_diag(c, t->loc, "undefined function '%.*s' in .calltargets", t->name.n, t->name.s);
			else
				tl->targets[t->i] = e->idx;
		}
	}
	c->tfix.n = 0;
}
