/* isa.c - the ISA tables (opcodes, shapes, modifier names), the per-op modifier rules, and
 * construction and release of programs and kernels.
 *
 * Everything here is derived from ops.def, shapes.def and mods.def; nothing keeps a
 * parallel array except the rules of isa_op_rules(), which say which values of the
 * sub-operation, type and rounding fields each op accepts (docs/isa.md, section "Modifiers").
 */
#include <assert.h>
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
static int shapes_ready;

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
			case '?': si->optional[si->n] = 1; break;
			default: assert(!"bad shape descriptor");
			}
		}
		assert(si->classes[si->n]);
		si->n++;
	}
}

const ShapeInfo *isa_shape(Shape s)
{
	if (!shapes_ready) {
		for (int i = 0; i < SHAPE_COUNT; i++)
			parse_shape(&shapes[i], shape_desc[i]);
		shapes_ready = 1;
	}
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
	"ALU", "IMUL", "FPU", "DPU", "SFU", "LSU_SHARED", "LSU_GLOBAL", "LSU_LOCAL",
	"LSU_CONST", "CTRL",
};

static const char *const lat_names[LAT_COUNT] = {
	"ALU", "IMUL", "POPC", "S2R", "FPU", "DPU", "SFU", "CONV", "FDIV", "FSQRT",
	"SHARED", "GLOBAL", "LOCAL", "CONST", "ATOM", "SHFL", "BAR", "CTRL",
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
		if (bit >= 0 && bit < 16 && flag_tab[i].v == 1u << bit)
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
#define B(x) (1ull << (x))
#define S_(x) B(SUB_##x)
#define T_(x) (1u << TY_##x)
#define R_(x) (1u << RND_##x)

enum {
	TYS_INT = T_(U8) | T_(S8) | T_(U16) | T_(S16) | T_(U32) | T_(S32) | T_(U64) | T_(S64),
	TYS_FLT = T_(F16) | T_(F32) | T_(F64),
	TYS_MEM = T_(U8) | T_(S8) | T_(U16) | T_(S16) | T_(U32) | T_(S32) | T_(B64) | T_(B128),
	TYS_32 = T_(U32) | T_(S32),
	TYS_3264 = T_(U32) | T_(S32) | T_(U64) | T_(S64),
	RNDS_IEEE = R_(RN) | R_(RZ) | R_(RM) | R_(RP),
	RNDS_INT = R_(ROUND) | R_(TRUNC) | R_(FLOOR) | R_(CEIL),
	SRC_NA = OPF_NEG | OPF_ABS,
};

void isa_op_rules(Op op, IsaRules *r)
{
	const uint64_t atomops = S_(ADD) | S_(MIN) | S_(MAX) | S_(INC) | S_(DEC) | S_(AND) |
	                         S_(OR) | S_(XOR);

	memset(r, 0, sizeof *r);
	r->subs = S_(NONE);
	r->deftype = TY_NONE;
	r->defstype = TY_NONE;
	switch (op) {
	case OP_MOV: case OP_SEL:
		r->dtypes = T_(B64);
		break;
	case OP_MOV32I: case OP_S2R: case OP_POPC: case OP_BREV: case OP_BFI: case OP_LOP3:
	case OP_SHL: case OP_PSETP:
		break;
	case OP_IADD:
		r->srcmods = OPF_NEG | OPF_NOT;
		break;
	case OP_ISCADD:
		r->srcmods = OPF_NEG;
		break;
	case OP_IMUL: case OP_IMAD:
		r->dtypes = r->stypes = TYS_32;
		r->deftype = r->defstype = TY_S32;
		break;
	case OP_SHR: case OP_BFE: case OP_FLO:
		r->dtypes = TYS_32;
		r->deftype = TY_S32;
		break;
	case OP_SHF:
		r->subs = S_(L) | S_(R);
		r->dtypes = TYS_3264;
		r->deftype = TY_U32;
		break;
	case OP_LOP:
		r->subs = S_(AND) | S_(OR) | S_(XOR) | S_(PASS_B);
		r->srcmods = OPF_NOT;
		break;
	case OP_PRMT:
		r->subs |= S_(F4E) | S_(B4E) | S_(RC8) | S_(ECL) | S_(ECR) | S_(RC16);
		break;
	case OP_IMNMX:
		r->dtypes = TYS_3264;
		r->deftype = TY_S32;
		break;
	case OP_ISET: case OP_ISETP:
		r->dtypes = TYS_32;
		r->deftype = TY_S32;
		r->cmpreq = 1;
		break;
	case OP_FADD: case OP_DADD:
		r->rnds = RNDS_IEEE;
		r->srcmods = SRC_NA;
		break;
	case OP_FMUL: case OP_FFMA: case OP_DMUL: case OP_DFMA:
		r->rnds = RNDS_IEEE;
		r->srcmods = OPF_NEG;
		break;
	case OP_FMNMX: case OP_DMNMX:
		r->srcmods = SRC_NA;
		break;
	case OP_FSET: case OP_FSETP: case OP_DSETP:
		r->srcmods = SRC_NA;
		r->cmpreq = 1;
		break;
	case OP_MUFU:
		r->subs = S_(RCP) | S_(RSQ) | S_(SIN) | S_(COS) | S_(EX2) | S_(LG2) | S_(SQRT) | S_(TANH);
		r->dtypes = T_(F32) | T_(F64);
		r->deftype = TY_F32;
		r->srcmods = SRC_NA;
		break;
	case OP_FDIV: case OP_FSQRT:
		r->dtypes = T_(F32) | T_(F64);
		r->deftype = TY_F32;
		r->rnds = RNDS_IEEE;
		r->srcmods = SRC_NA;
		break;
	case OP_F2I:
		r->dtypes = TYS_INT;
		r->stypes = TYS_FLT;
		r->deftype = TY_S32;
		r->defstype = TY_F32;
		r->rnds = RNDS_INT;
		r->srcmods = SRC_NA;
		break;
	case OP_I2F:
		r->dtypes = TYS_FLT;
		r->stypes = TYS_INT;
		r->deftype = TY_F32;
		r->defstype = TY_S32;
		r->rnds = RNDS_IEEE;
		r->srcmods = SRC_NA;
		break;
	case OP_F2F:
		r->dtypes = r->stypes = TYS_FLT;
		r->deftype = r->defstype = TY_F32;
		r->rnds = RNDS_IEEE | RNDS_INT;
		r->srcmods = SRC_NA;
		break;
	case OP_I2I:
		r->dtypes = r->stypes = TYS_INT;
		r->deftype = r->defstype = TY_S32;
		r->srcmods = SRC_NA;
		break;
	case OP_LD:
		r->subs |= S_(CA) | S_(CG) | S_(CS) | S_(CV) | S_(LU) | S_(NC);
		r->dtypes = TYS_MEM;
		break;
	case OP_ST:
		r->subs |= S_(CG) | S_(CS);
		r->dtypes = TYS_MEM;
		break;
	case OP_LDS: case OP_STS: case OP_LDL: case OP_STL: case OP_LDSLK: case OP_STSUL:
		r->dtypes = TYS_MEM;
		break;
	case OP_LDC:
		r->dtypes = TYS_MEM & ~T_(B128);
		break;
	case OP_ATOM:
		r->subs = atomops | S_(EXCH) | S_(CAS);
		r->dtypes = TYS_3264 | T_(F32) | T_(F64) | T_(B64);
		r->deftype = TY_U32;
		r->rnds = R_(RN);
		break;
	case OP_RED:
		r->subs = atomops;
		r->dtypes = TYS_3264 | T_(F32) | T_(F64) | T_(B64);
		r->deftype = TY_U32;
		r->rnds = R_(RN);
		break;
	case OP_ATOMS:
		r->subs = atomops | S_(EXCH) | S_(CAS);
		r->dtypes = TYS_3264 | T_(B64);
		r->deftype = TY_U32;
		break;
	case OP_MEMBAR:
		r->subs = S_(CTA) | S_(GL) | S_(SYS);
		break;
	case OP_SHFL:
		r->subs = S_(IDX) | S_(UP) | S_(DOWN) | S_(BFLY);
		break;
	case OP_VOTE:
		r->subs = S_(ALL) | S_(ANY) | S_(EQ);
		break;
	case OP_MATCH:
		r->subs = S_(ALL) | S_(ANY);
		r->dtypes = T_(U32) | T_(B64);
		r->deftype = TY_U32;
		break;
	case OP_REDUX:
		r->subs = S_(SUM) | S_(MIN) | S_(MAX) | S_(AND) | S_(OR) | S_(XOR);
		r->dtypes = TYS_32;
		r->deftype = TY_U32;
		break;
	case OP_BAR:
		r->subs = S_(SYNC) | S_(ARV);
		break;
	case OP_BARRED:
		r->subs = S_(POPC) | S_(AND) | S_(OR);
		break;
	case OP_SSY: case OP_BRA: case OP_BRX: case OP_PBK: case OP_BRK: case OP_PCNT:
	case OP_CONT: case OP_CAL: case OP_JCAL: case OP_RET: case OP_PRET: case OP_PEXIT:
	case OP_EXIT: case OP_NOP: case OP_BPT:
		break;
	case OP_COUNT:
		assert(!"isa_op_rules: OP_COUNT");
		break;
	}
}

Type isa_ins_dtype(const Ins *in)
{
	IsaRules r;

	if (in->m.dtype != TY_NONE)
		return in->m.dtype;
	isa_op_rules(in->op, &r);
	return r.deftype;
}

Type isa_ins_stype(const Ins *in)
{
	IsaRules r;

	if (in->m.stype != TY_NONE)
		return in->m.stype;
	isa_op_rules(in->op, &r);
	return r.defstype;
}

/* registers for a value of type t: 1, 2 or 4 */
static int regs_of(Type t)
{
	int b = isa_type_bytes(t);
	return b <= 4 ? 1 : b / 4;
}

int isa_ins_nregs(const Ins *in, int slot)
{
	int e = (in->m.flags & MF_E) != 0;

	switch ((Op)in->op) {
	case OP_MOV: case OP_SEL: case OP_IMNMX: case OP_MUFU: case OP_FDIV: case OP_FSQRT:
		return regs_of(isa_ins_dtype(in));
	case OP_IMAD:
		return (in->m.flags & MF_WIDE) && (slot == 0 || slot == 3) ? 2 : 1;
	case OP_DADD: case OP_DMUL: case OP_DFMA: case OP_DMNMX: case OP_DSETP:
		return 2;
	case OP_F2I: case OP_I2F: case OP_F2F: case OP_I2I:
		return regs_of(slot == 0 ? isa_ins_dtype(in) : isa_ins_stype(in));
	case OP_LD: case OP_LDS: case OP_LDL: case OP_LDC:
		return slot == 0 ? regs_of(isa_ins_dtype(in)) : (in->op == OP_LD && e) ? 2 : 1;
	case OP_ST: case OP_STS: case OP_STL: case OP_STSUL:
		return slot == 1 ? regs_of(isa_ins_dtype(in)) : (in->op == OP_ST && e) ? 2 : 1;
	case OP_LDSLK:
		return slot == 1 ? regs_of(isa_ins_dtype(in)) : 1;
	case OP_ATOM: case OP_ATOMS:
		return slot == 1 ? (in->op == OP_ATOM && e ? 2 : 1) : regs_of(isa_ins_dtype(in));
	case OP_RED:
		return slot == 0 ? (e ? 2 : 1) : regs_of(isa_ins_dtype(in));
	case OP_MATCH:
		return slot == 2 ? regs_of(isa_ins_dtype(in)) : 1;
	case OP_MOV32I: case OP_S2R: case OP_IADD: case OP_IMUL: case OP_ISCADD: case OP_SHL:
	case OP_SHR: case OP_SHF: case OP_LOP: case OP_LOP3: case OP_BFE: case OP_BFI:
	case OP_POPC: case OP_FLO: case OP_BREV: case OP_PRMT: case OP_ISET: case OP_ISETP:
	case OP_PSETP: case OP_FADD: case OP_FMUL: case OP_FFMA: case OP_FMNMX: case OP_FSET:
	case OP_FSETP: case OP_MEMBAR: case OP_SHFL: case OP_VOTE: case OP_REDUX: case OP_BAR:
	case OP_BARRED: case OP_SSY: case OP_BRA: case OP_BRX: case OP_PBK: case OP_BRK:
	case OP_PCNT: case OP_CONT: case OP_CAL: case OP_JCAL: case OP_RET: case OP_PRET:
	case OP_PEXIT: case OP_EXIT: case OP_NOP: case OP_BPT:
		return 1;
	case OP_COUNT:
		break;
	}
	return 1;
}

int isa_imm_float_bits(const Ins *in, int slot)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);

	if (slot < 0 || slot >= si->n || si->dst[slot] || !(si->classes[slot] & OC_I))
		return 0;
	switch ((Op)in->op) {
	case OP_FADD: case OP_FMUL: case OP_FFMA: case OP_FMNMX: case OP_FSET: case OP_FSETP:
		return 32;
	case OP_DADD: case OP_DMUL: case OP_DFMA: case OP_DMNMX: case OP_DSETP:
		return 64;
	case OP_FDIV: case OP_FSQRT:
		return isa_ins_dtype(in) == TY_F64 ? 64 : 32;
	case OP_F2I: case OP_F2F:
		return isa_ins_stype(in) == TY_F64 ? 64 : isa_ins_stype(in) == TY_F32 ? 32 : 0;
	case OP_MOV: case OP_MOV32I: case OP_S2R: case OP_SEL: case OP_IADD: case OP_IMUL:
	case OP_IMAD: case OP_ISCADD: case OP_SHL: case OP_SHR: case OP_SHF: case OP_LOP:
	case OP_LOP3: case OP_BFE: case OP_BFI: case OP_POPC: case OP_FLO: case OP_BREV:
	case OP_PRMT: case OP_IMNMX: case OP_ISET: case OP_ISETP: case OP_PSETP: case OP_MUFU:
	case OP_I2F: case OP_I2I: case OP_LD: case OP_ST: case OP_LDS: case OP_STS: case OP_LDL:
	case OP_STL: case OP_LDC: case OP_LDSLK: case OP_STSUL: case OP_ATOM: case OP_RED:
	case OP_ATOMS: case OP_MEMBAR: case OP_SHFL: case OP_VOTE: case OP_MATCH: case OP_REDUX:
	case OP_BAR: case OP_BARRED: case OP_SSY: case OP_BRA: case OP_BRX: case OP_PBK:
	case OP_BRK: case OP_PCNT: case OP_CONT: case OP_CAL: case OP_JCAL: case OP_RET:
	case OP_PRET: case OP_PEXIT: case OP_EXIT: case OP_NOP: case OP_BPT:
		return 0;
	case OP_COUNT:
		break;
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
static void *xrealloc(void *p, size_t n)
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
	d = xrealloc(NULL, n);
	memcpy(d, s, n);
	return d;
}

Prog *isa_prog_new(void)
{
	Prog *p = xrealloc(NULL, sizeof *p);

	memset(p, 0, sizeof *p);
	return p;
}

/* The returned kernel lives in p->k: the pointer is valid until the next call. */
Kernel *isa_prog_add_kernel(Prog *p, const char *name)
{
	Kernel *k;

	p->k = xrealloc(p->k, (size_t)(p->nk + 1) * sizeof *p->k);
	k = &p->k[p->nk++];
	memset(k, 0, sizeof *k);
	k->name = xstrdup(name);
	return k;
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
	}
	free(k->globals);
	free(k->relocs);
	for (int i = 0; i < k->ncdata; i++)
		free(k->cdata[i].bytes);
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
	for (int i = 0; i < p->nfiles; i++)
		free(p->files[i]);
	free(p->files);
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
		k->ins = xrealloc(k->ins, (size_t)k->capins * sizeof *k->ins);
	}
	in = &k->ins[k->nins];
	*in = *ins;
	in->addr = 8u * (uint32_t)k->nins++;
	return in;
}

int isa_kernel_add_tlist(Kernel *k, const uint32_t *addrs, int n)
{
	int first = k->ntl;

	k->tl = xrealloc(k->tl, (size_t)(k->ntl + n) * sizeof *k->tl);
	memcpy(k->tl + k->ntl, addrs, (size_t)n * sizeof *addrs);
	k->ntl += n;
	return first;
}

void isa_kernel_add_label(Kernel *k, const char *name, uint32_t addr, int kind)
{
	int i;

	k->labels = xrealloc(k->labels, (size_t)(k->nlabels + 1) * sizeof *k->labels);
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

void isa_kernel_add_param(Kernel *k, uint32_t offset, uint32_t size, const char *name)
{
	k->params = xrealloc(k->params, (size_t)(k->nparams + 1) * sizeof *k->params);
	k->params[k->nparams].offset = offset;
	k->params[k->nparams].size = size;
	k->params[k->nparams].name = xstrdup(name);
	k->nparams++;
}

void isa_kernel_add_global(Kernel *k, const char *name, uint64_t size, uint32_t align,
                           const uint8_t *init, uint8_t bank, uint32_t slot)
{
	GlobalVar *g;

	k->globals = xrealloc(k->globals, (size_t)(k->nglobals + 1) * sizeof *k->globals);
	g = &k->globals[k->nglobals++];
	g->name = xstrdup(name);
	g->size = size;
	g->align = align;
	g->init = NULL;
	if (init) {
		g->init = xrealloc(NULL, (size_t)size);
		memcpy(g->init, init, (size_t)size);
	}
	g->bank = bank;
	g->slot = slot;
}

void isa_kernel_add_reloc(Kernel *k, int var, uint64_t off, int target, uint64_t addend)
{
	k->relocs = xrealloc(k->relocs, (size_t)(k->nrelocs + 1) * sizeof *k->relocs);
	k->relocs[k->nrelocs++] = (GlobalReloc){var, off, target, addend};
}

void isa_kernel_add_cdata(Kernel *k, uint8_t bank, uint32_t offset, const uint8_t *bytes,
                          uint32_t size)
{
	ConstData *c;

	k->cdata = xrealloc(k->cdata, (size_t)(k->ncdata + 1) * sizeof *k->cdata);
	c = &k->cdata[k->ncdata++];
	c->bank = bank;
	c->offset = offset;
	c->size = size;
	c->bytes = xrealloc(NULL, size);
	memcpy(c->bytes, bytes, size);
}
