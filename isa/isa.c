/* isa.c - the ISA tables (opcodes, per-op rules, shapes, modifier names), and construction
 * and release of programs and kernels.
 *
 * Everything here is derived from ops.def, rules.def, shapes.def and mods.def; nothing keeps
 * a parallel array. rules.def's text columns are read once, like the shape descriptors
 * (thread-safe: a program may parse listings on several threads).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"

/* ------------------------------------------------------------------ opcode table */
const OpInfo isa_ops[OP_COUNT] = {
#define OP(id, mn, shape, unit, lat, flags, mods) \
	[OP_##id] = {mn, SHAPE_##shape, UNIT_##unit, LAT_##lat, flags, mods},
#include "isa/ops.def"
};

/* ------------------------------------------------------------------ shapes */
static const char *const shape_desc[SHAPE_COUNT] = {
#define SHAPE(id, desc) [SHAPE_##id] = desc,
#include "isa/shapes.def"
};

static ShapeInfo shapes[SHAPE_COUNT];
static pthread_once_t shapes_once = PTHREAD_ONCE_INIT;   /* a program may parse on threads */
static atomic_int shapes_ready;   /* set (release) once they are parsed: then no call */

/* parses one descriptor of shapes.def; the table is fixed, so a bad one is an internal bug */
static void parse_shape(ShapeInfo *si, const char *d)
{
	memset(si, 0, sizeof *si);
	while (*d) {
		if (*d == ' ') {
			d++;
			continue;
		}
		assert(si->n < ISA_MAXOPD);
		assert(*d == 'd' || *d == 's');
		si->dst[si->n] = *d++ == 'd';
		for (; *d && *d != ' '; d++) {
			switch (*d) {
			case 'R': si->classes[si->n] |= OC_R; break;
			case 'P': si->classes[si->n] |= OC_P; break;
			case 'I': si->classes[si->n] |= OC_I; break;
			case 'C': si->classes[si->n] |= OC_C; break;
			case 'M': si->classes[si->n] |= OC_M; break;
			case 'S': si->classes[si->n] |= OC_S; break;
			case 'T': si->classes[si->n] |= OC_T; break;
			case 'L': si->classes[si->n] |= OC_L; break;
			case 'K': si->classes[si->n] |= OC_K; break;
			case 'Q': si->classes[si->n] |= OC_Q; break;
			case '?': si->optional[si->n] = 1; break;
			default: assert(!"bad shape descriptor");
			}
		}
		assert(si->classes[si->n]);
		si->n++;
	}
}

static void parse_shapes(void)
{
	for (int i = 0; i < SHAPE_COUNT; i++)
		parse_shape(&shapes[i], shape_desc[i]);
	atomic_store_explicit(&shapes_ready, 1, memory_order_release);
}

const ShapeInfo *isa_shape(Shape s)
{
	if (!atomic_load_explicit(&shapes_ready, memory_order_acquire))
		pthread_once(&shapes_once, parse_shapes);
	assert((unsigned)s < SHAPE_COUNT);
	return &shapes[s];
}

/* ------------------------------------------------------------------ names */
#define MOD_SUB(tok, val) [val] = tok,
#define MOD_CMP(tok, val)
#define MOD_BOP(tok, val)
#define MOD_TYPE(tok, val)
#define MOD_RND(tok, val)
#define MOD_FLAG(tok, val)
#define MOD(tok, field, val) MOD_##field(tok, val)
static const char *const sub_names[SUB_COUNT] = {
#include "isa/mods.def"
};
#undef MOD_SUB
#undef MOD_CMP
#define MOD_SUB(tok, val)
#define MOD_CMP(tok, val) [val] = tok,
#define MOD(tok, field, val) MOD_##field(tok, val)
static const char *const cmp_names[CMP_COUNT] = {
#include "isa/mods.def"
};
#undef MOD_CMP
#undef MOD_BOP
#define MOD_CMP(tok, val)
#define MOD_BOP(tok, val) [val] = tok,
#define MOD(tok, field, val) MOD_##field(tok, val)
static const char *const bop_names[BOP_COUNT] = {
#include "isa/mods.def"
};
#undef MOD_BOP
#undef MOD_TYPE
#define MOD_BOP(tok, val)
#define MOD_TYPE(tok, val) [val] = tok,
#define MOD(tok, field, val) MOD_##field(tok, val)
static const char *const type_names[TY_COUNT] = {
#include "isa/mods.def"
};
#undef MOD_TYPE
#undef MOD_RND
#define MOD_TYPE(tok, val)
#define MOD_RND(tok, val) [val] = tok,
#define MOD(tok, field, val) MOD_##field(tok, val)
static const char *const rnd_names[RND_COUNT] = {
#include "isa/mods.def"
};
#undef MOD_RND
#undef MOD_FLAG
#define MOD_RND(tok, val)
#define MOD_FLAG(tok, val) {val, tok},
#define MOD(tok, field, val) MOD_##field(tok, val)
static const struct {
	unsigned v;       /* MF_ bit */
	const char *tok;  /* its modifier token */
} flag_tab[] = {
#include "isa/mods.def"
};
#undef MOD_SUB
#undef MOD_CMP
#undef MOD_BOP
#undef MOD_TYPE
#undef MOD_RND
#undef MOD_FLAG

static const char *const cct_names[CCT_COUNT] = {
#define X(n) #n,
	ISA_CC_TESTS(X)
#undef X
};

static const char *const sreg_names[SR_COUNT] = {
#define X(id, name) name,
	ISA_SREGS(X)
#undef X
};

static const char *const unit_names[UNIT_COUNT] = {
	"ALU", "IMUL", "SHIFT", "FPU", "DPU", "SFU", "LSU_SHARED", "LSU_GLOBAL", "LSU_LOCAL",
	"LSU_CONST", "CTRL",
};

static const char *const lat_names[LAT_COUNT] = {
	"ALU", "IMUL", "POPC", "S2R", "FPU", "DPU", "SFU", "CONV", "FDIV", "FSQRT",
	"SHARED", "GLOBAL", "LOCAL", "CONST", "ATOM", "SHFL", "BAR", "CTRL",
	"SINCOS", "TEX",
};

/* a name from a table, or "?" for a value outside it (never NULL, so printing is safe) */
static const char *name_of(const char *const *tab, unsigned n, unsigned v)
{
	return v < n && tab[v] ? tab[v] : "?";
}

const char *isa_unit_name(Unit u) { return name_of(unit_names, UNIT_COUNT, u); }
const char *isa_lat_name(Lat l) { return name_of(lat_names, LAT_COUNT, l); }
const char *isa_sub_name(Sub s) { return name_of(sub_names, SUB_COUNT, s); }
const char *isa_cmp_name(Cmp c) { return name_of(cmp_names, CMP_COUNT, c); }
const char *isa_bop_name(Bop b) { return name_of(bop_names, BOP_COUNT, b); }
const char *isa_type_name(Type t) { return name_of(type_names, TY_COUNT, t); }
const char *isa_rnd_name(Rnd r) { return name_of(rnd_names, RND_COUNT, r); }
const char *isa_cct_name(CCTest t) { return name_of(cct_names, CCT_COUNT, t); }
const char *isa_sreg_name(SReg s) { return name_of(sreg_names, SR_COUNT, s); }

const char *isa_flag_name(int bit)
{
	for (size_t i = 0; i < sizeof flag_tab / sizeof flag_tab[0]; i++)
		if (bit >= 0 && bit < ISA_NFLAGS && flag_tab[i].v == 1u << bit)
			return flag_tab[i].tok;
	return "?";
}

int isa_type_bytes(Type t)
{
	switch (t) {
	case TY_U8: case TY_S8: return 1;
	case TY_U16: case TY_S16: case TY_F16: return 2;
	case TY_NONE: case TY_U32: case TY_S32: case TY_F32: return 4;
	case TY_U64: case TY_S64: case TY_F64: case TY_B64: return 8;
	case TY_B128: return 16;
	case TY_COUNT: break;
	}
	return 4;
}

/* ------------------------------------------------------------------ per-op rules */
/* rules.def has one row per op, in ops.def's order: checked here at compile time */
enum {
#define RULE(id, ...) RULE_##id,
#include "isa/rules.def"
	RULE_COUNT
};
_Static_assert((int)RULE_COUNT == (int)OP_COUNT, "isa/rules.def needs one row for every op of ops.def");
/* IsaRules.subs holds the sub-operations an op takes as bits of ISA_SUBWORDS words */
_Static_assert((int)SUB_COUNT <= 64 * ISA_SUBWORDS, "isa/isa.h: more sub-operations than IsaRules.subs has bits");
#define RULE(id, ...) _Static_assert((int)RULE_##id == (int)OP_##id, "isa/rules.def: row " #id " out of ops.def's order");
#include "isa/rules.def"

static const struct {
	const char *subs, *dtypes, *stypes, *rnds, *srcmods, *regs;  /* the text of each column */
	uint8_t fimm, flow;
} rule_text[OP_COUNT] = {
#define RULE(id, subs, dtypes, stypes, rnds, srcmods, regs, fimm, flow) \
	[OP_##id] = {subs, dtypes, stypes, rnds, srcmods, regs, FIMM_##fimm, FLOW_##flow},
#include "isa/rules.def"
};

static IsaRules rules[OP_COUNT];
static atomic_uchar rule_ready[OP_COUNT];   /* rules[op] parsed: each row at its first use */
static pthread_mutex_t rule_lock = PTHREAD_MUTEX_INITIALIZER;   /* parsing one */

/* the value of name tok[0..n) in names[0..count), which must hold it (the table is fixed:
 * a bad name is an internal bug) */
static unsigned lookup(const char *const *names, unsigned count, const char *tok, size_t n)
{
	for (unsigned v = 1; v < count; v++)
		if (names[v] && names[v][0] == tok[0] && !strncmp(names[v], tok, n) && !names[v][n])
			return v;
	assert(!"rules.def: unknown modifier name");
	return 0;
}

/* a rules.def list "A B C..D" of the names in names[]: its bits in bits[] (words of 64, zeroed
 * by the caller), the value of a "(T)" after it in *def, and 1 in *opt when it is bracketed */
static void parse_bits(const char *s, const char *const *names, unsigned count,
                       uint8_t *def, int *opt, uint64_t *bits)
{
	*opt = *s == '[';
	while (*s) {
		const char *t, *dots;
		unsigned lo, hi;
		int isdef;
		if (*s == ' ' || *s == '[' || *s == ']') {
			s++;
			continue;
		}
		isdef = *s == '(';
		s += isdef;
		for (t = s; *t && *t != ' ' && *t != ']' && *t != ')'; t++)
			;
		for (dots = s; dots + 1 < t && !(dots[0] == '.' && dots[1] == '.'); dots++)
			;
		if (dots + 1 < t) {
			lo = lookup(names, count, s, (size_t)(dots - s));
			hi = lookup(names, count, dots + 2, (size_t)(t - dots - 2));
		} else {
			lo = hi = lookup(names, count, s, (size_t)(t - s));
		}
		assert(lo <= hi && hi < count && (!isdef || (lo == hi && def)));
		if (isdef)
			*def = (uint8_t)lo;
		else
			for (unsigned v = lo; v <= hi; v++)
				bits[v / 64] |= 1ull << (v % 64);
		s = *t == ')' ? t + 1 : t;
	}
}

/* the same for a list of at most 64 names, as one word */
static uint64_t parse_list(const char *s, const char *const *names, unsigned count,
                           uint8_t *def, int *opt)
{
	uint64_t bits = 0;

	assert(count <= 64);
	parse_bits(s, names, count, def, opt, &bits);
	return bits;
}

/* one row of rules.def as the IsaRules the checks read */
static void parse_rule(Op op, IsaRules *r)
{
	const ShapeInfo *si = isa_shape(isa_ops[op].shape);
	uint8_t none = TY_NONE;
	int opt, any = 0;

	memset(r, 0, sizeof *r);
	parse_bits(rule_text[op].subs, sub_names, SUB_COUNT, &none, &opt, r->subs);
	for (int i = 0; i < ISA_SUBWORDS && !opt; i++)
		any |= r->subs[i] != 0;
	if (!any || opt)               /* none listed, or "[...]": may go without one */
		r->subs[0] |= 1ull << SUB_NONE;
	r->deftype = r->defstype = TY_NONE;
	r->dtypes = (uint32_t)parse_list(rule_text[op].dtypes, type_names, TY_COUNT, &r->deftype, &opt);
	r->stypes = (uint32_t)parse_list(rule_text[op].stypes, type_names, TY_COUNT, &r->defstype, &opt);
	r->rnds = (uint16_t)parse_list(rule_text[op].rnds, rnd_names, RND_COUNT, &none, &opt);
	for (const char *c = rule_text[op].srcmods; *c; c++)
		r->srcmods |= *c == '-' ? OPF_NEG : *c == '|' ? OPF_ABS : *c == '~' ? OPF_NOT : 0;
	r->cmpreq = (isa_ops[op].mods & M_CMP) != 0;
	r->fimm = rule_text[op].fimm;
	r->flow = rule_text[op].flow;
	r->regs = rule_text[op].regs;
	assert(!r->regs[0] || strlen(r->regs) == si->n);
	assert(strspn(r->regs, "124DSEWGM-") == strlen(r->regs));
	assert(strspn(rule_text[op].srcmods, "-|~") == strlen(rule_text[op].srcmods));
}

/* a run reads the rows of the few ops its kernels use; tests/unit/test_isa.c reads them all.
 * Threads may parse listings at once (the listing parser checks each kernel), so a row is
 * parsed under rule_lock and its flag set after it (release): a reader that sees the flag
 * (acquire) sees the row, and the common case, a row already parsed, takes no lock. */
static __attribute__((noinline)) void fill_rule(Op op)
{
	pthread_mutex_lock(&rule_lock);
	if (!atomic_load_explicit(&rule_ready[op], memory_order_relaxed)) {
		parse_rule(op, &rules[op]);
		atomic_store_explicit(&rule_ready[op], 1, memory_order_release);
	}
	pthread_mutex_unlock(&rule_lock);
}

const IsaRules *isa_rules(Op op)
{
	assert((unsigned)op < OP_COUNT);
	if (!atomic_load_explicit(&rule_ready[op], memory_order_acquire))
		fill_rule(op);
	return &rules[op];
}

void isa_op_rules(Op op, IsaRules *r)
{
	*r = *isa_rules(op);
}

Type isa_ins_dtype(const Ins *in)
{
	return in->m.dtype != TY_NONE ? (Type)in->m.dtype : (Type)isa_rules(in->op)->deftype;
}

Type isa_ins_stype(const Ins *in)
{
	return in->m.stype != TY_NONE ? (Type)in->m.stype : (Type)isa_rules(in->op)->defstype;
}

/* registers for a value of type t: 1, 2 or 4 */
static int regs_of(Type t)
{
	int b = isa_type_bytes(t);
	return b <= 4 ? 1 : b / 4;
}

int isa_ins_nregs(const Ins *in, int slot)
{
	const char *regs = isa_rules(in->op)->regs;

	if (slot < 0)
		return 1;
	for (int i = 0; i <= slot; i++)   /* slot at or past the end of regs (no strlen) */
		if (!regs[i])
			return 1;
	switch (regs[slot]) {
	case '2': return 2;
	case 'D': return regs_of(isa_ins_dtype(in));
	case 'S': return regs_of(isa_ins_stype(in));
	case 'E': return in->m.flags & MF_E ? 2 : 1;
	case 'W': return in->m.flags & MF_WIDE ? 2 : 1;
	case '4': return 4;
	case 'G':       /* coordinates (3D: a quad, the fourth unused), then TLD.AOFFI's offsets
	                 * or TEX.LL's level of detail */
		if (in->m.sub == SUB_3D || in->m.sub == SUB_CUBE || (in->m.flags & MF_ARRAY &&
		    in->m.sub == SUB_2D))
			return 4;     /* .3D, .CUBE, .2D.ARRAY (index, x, y), .CUBE.ARRAY (index, x, y, z) */
		if (in->m.flags & MF_ARRAY)
			return 2;     /* .1D.ARRAY: index, x */
		return (in->m.sub == SUB_2D ? 2 : 1) + !!(in->m.flags & (MF_AOFFI | MF_LL));
	case 'M': {     /* TEX/TLD's result: the channels of the mask (operand 4), packed */
		int n = in->o[3].kind == OPD_IMM ? __builtin_popcount((unsigned)(in->o[3].imm & 0xf)) : 4;
		return n > 0 ? n : 1;
	}
	default: return 1;      /* '1', '-' */
	}
}

int isa_imm_float_bits(const Ins *in, int slot)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
	Type t;

	if (slot < 0 || slot >= si->n || si->dst[slot] || !(si->classes[slot] & OC_I))
		return 0;
	switch ((FImm)isa_rules(in->op)->fimm) {
	case FIMM_NONE: return 0;
	case FIMM_F32: return 32;
	case FIMM_F64: return 64;
	case FIMM_DTYPE: return isa_ins_dtype(in) == TY_F64 ? 64 : 32;
	case FIMM_STYPE:
		t = isa_ins_stype(in);
		return t == TY_F64 ? 64 : t == TY_F32 ? 32 : 0;
	case FIMM_COUNT: break;
	}
	return 0;
}

int isa_ins_writes(const Ins *in, int slot)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);

	return slot >= 0 && slot < si->n && si->dst[slot];
}

void isa_ins_init(Ins *in, Op op)
{
	memset(in, 0, sizeof *in);
	in->op = op;
	in->guard = ISA_PT;
	in->srcfile = -1;
}

/* ------------------------------------------------------------------ programs and kernels */
void *isa_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		fprintf(stderr, "%s:%d: out of memory\n", __FILE__, __LINE__);
		abort();
	}
	return q;
}

static char *xstrdup(const char *s)
{
	size_t n;
	char *d;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	d = isa_xrealloc(NULL, n);
	memcpy(d, s, n);
	return d;
}

Prog *isa_prog_new(void)
{
	Prog *p = isa_xrealloc(NULL, sizeof *p);

	memset(p, 0, sizeof *p);
	return p;
}

/* The returned kernel lives in p->k: the pointer is valid until the next call. */
Kernel *isa_prog_add_kernel(Prog *p, const char *name)
{
	Kernel *k;

	p->k = isa_xrealloc(p->k, (size_t)(p->nk + 1) * sizeof *p->k);
	k = &p->k[p->nk++];
	memset(k, 0, sizeof *k);
	k->name = xstrdup(name);
	return k;
}

static void kernel_free(Kernel *k);

void isa_prog_drop_last(Prog *p)
{
	if (p->nk > 0)
		kernel_free(&p->k[--p->nk]);
}

/* frees the strings v[0..n) and v */
static void free_strs(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void kernel_free(Kernel *k)
{
	free(k->name);
	free(k->ins);
	for (int i = 0; i < k->nlabels; i++)
		free(k->labels[i].name);
	free(k->labels);
	for (int i = 0; i < k->nparams; i++)
		free(k->params[i].name);
	free(k->params);
	for (int i = 0; i < k->nglobals; i++) {
		free(k->globals[i].name);
		free(k->globals[i].init);
		free(k->globals[i].fwords);
	}
	free(k->globals);
	free(k->relocs);
	free(k->abs32);
	free_strs(k->tex, k->ntex);
	free_strs(k->surf, k->nsurf);
	free_strs(k->kref, k->nkref);
	for (int i = 0; i < k->ncdata; i++) {
		free(k->cdata[i].bytes);
		free(k->cdata[i].name);
		free(k->cdata[i].type);
	}
	free(k->cdata);
	free(k->tl);
}

void isa_prog_free(Prog *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nk; i++)
		kernel_free(&p->k[i]);
	free(p->k);
	free_strs(p->files, p->nfiles);
	free_strs(p->ptxfiles, p->nptxfiles);
	free(p);
}

const Kernel *isa_prog_find(const Prog *p, const char *name)
{
	for (int i = 0; i < p->nk; i++)
		if (strcmp(p->k[i].name, name) == 0)
			return &p->k[i];
	return NULL;
}

Ins *isa_kernel_add(Kernel *k, const Ins *ins)
{
	Ins *in;

	if (k->nins == k->capins) {
		k->capins = k->capins ? 2 * k->capins : 64;
		k->ins = isa_xrealloc(k->ins, (size_t)k->capins * sizeof *k->ins);
	}
	in = &k->ins[k->nins];
	*in = *ins;
	in->addr = 8u * (uint32_t)k->nins++;
	return in;
}

int isa_kernel_add_tlist(Kernel *k, const uint32_t *addrs, int n)
{
	int first = k->ntl;

	k->tl = isa_xrealloc(k->tl, (size_t)(k->ntl + n) * sizeof *k->tl);
	memcpy(k->tl + k->ntl, addrs, (size_t)n * sizeof *addrs);
	k->ntl += n;
	return first;
}

void isa_kernel_add_label(Kernel *k, const char *name, uint32_t addr, int kind)
{
	int i;

	k->labels = isa_xrealloc(k->labels, (size_t)(k->nlabels + 1) * sizeof *k->labels);
	/* after every label of the same address: keeps the order they were given in */
	for (i = k->nlabels; i > 0 && k->labels[i - 1].addr > addr; i--)
		k->labels[i] = k->labels[i - 1];
	k->labels[i].name = xstrdup(name);
	k->labels[i].addr = addr;
	k->labels[i].kind = kind;
	k->nlabels++;
}

const Label *isa_kernel_find_label(const Kernel *k, const char *name)
{
	for (int i = 0; i < k->nlabels; i++)
		if (strcmp(k->labels[i].name, name) == 0)
			return &k->labels[i];
	return NULL;
}

int isa_tex_slot(const Ins *in)
{
	switch (in->op) {
	case OP_TEX: case OP_TLD: case OP_TLD4: return 2;
	case OP_TXQ: return 1;
	default: return -1;
	}
}

int isa_surf_slot(const Ins *in)
{
	switch (in->op) {
	case OP_SULD: case OP_SUST: case OP_SUSTP: return 2;
	case OP_SUQ: return 1;
	default: return -1;
	}
}

/* the index of name in the list v of n names, appended when new */
static int add_name(char ***v, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp((*v)[i], name))
			return i;
	*v = isa_xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
	(*v)[*n] = xstrdup(name);
	return (*n)++;
}

int isa_kernel_add_surf(Kernel *k, const char *name) { return add_name(&k->surf, &k->nsurf, name); }
int isa_kernel_add_tex(Kernel *k, const char *name) { return add_name(&k->tex, &k->ntex, name); }
int isa_kernel_add_kref(Kernel *k, const char *name) { return add_name(&k->kref, &k->nkref, name); }

void isa_kernel_add_param(Kernel *k, uint32_t offset, uint32_t size, const char *name)
{
	k->params = isa_xrealloc(k->params, (size_t)(k->nparams + 1) * sizeof *k->params);
	k->params[k->nparams].offset = offset;
	k->params[k->nparams].size = size;
	k->params[k->nparams].name = xstrdup(name);
	k->params[k->nparams].align = 0;
	k->nparams++;
}

void isa_kernel_cdata_var(Kernel *k, const char *name, const char *type, uint32_t align)
{
	ConstData *c = &k->cdata[k->ncdata - 1];

	free(c->name);
	free(c->type);
	c->name = xstrdup(name);
	c->type = xstrdup(type);
	c->align = align;
}

void isa_kernel_add_global(Kernel *k, const char *name, uint64_t size, uint32_t align,
                           const uint8_t *init, uint8_t bank, uint32_t slot)
{
	GlobalVar *g;

	k->globals = isa_xrealloc(k->globals, (size_t)(k->nglobals + 1) * sizeof *k->globals);
	g = &k->globals[k->nglobals++];
	g->name = xstrdup(name);
	g->size = size;
	g->align = align;
	g->init = NULL;
	if (init) {
		g->init = isa_xrealloc(NULL, (size_t)size);
		memcpy(g->init, init, (size_t)size);
	}
	g->bank = bank;
	g->slot = slot;
	g->fwords = NULL;
	g->nfwords = 0;
}

void isa_kernel_add_reloc(Kernel *k, int var, uint64_t off, int target, uint64_t addend)
{
	k->relocs = isa_xrealloc(k->relocs, (size_t)(k->nrelocs + 1) * sizeof *k->relocs);
	k->relocs[k->nrelocs++] = (GlobalReloc){var, off, target, addend};
}

void isa_kernel_add_cdata(Kernel *k, uint8_t bank, uint32_t offset, const uint8_t *bytes,
                          uint32_t size)
{
	ConstData *c;

	k->cdata = isa_xrealloc(k->cdata, (size_t)(k->ncdata + 1) * sizeof *k->cdata);
	c = &k->cdata[k->ncdata++];
	c->bank = bank;
	c->offset = offset;
	c->size = size;
	c->name = c->type = NULL;
	c->align = 0;
	c->bytes = isa_xrealloc(NULL, size);
	memcpy(c->bytes, bytes, size);
}
