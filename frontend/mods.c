/* mods.c - decoding an opcode word ("setp.lt.and.s32", "ld.global.nc.v4.f32") into the
 * opcode (longest table name that prefixes the word) and typed modifier fields (PMods).
 * Modifiers that mean different things on different opcodes (.lo, .and, .sync, .uni, .all)
 * are told apart here, so that consumers never look at strings. */
#include <pthread.h>
#include <string.h>
#include "frontend/build.h"

enum {
	MK_TYPE, MK_VEC, MK_CMP, MK_BOOL, MK_LOHI, MK_RND, MK_SPACE, MK_CACHE, MK_SEM, MK_SCOPE,
	MK_AOP, MK_SHFL, MK_VOTE, MK_UNI, MK_SYNC, MK_BAR, MK_PRMT, MK_TESTP, MK_FLAG, MK_L1,
	MK_L2, MK_L2PF, MK_GL, MK_GEOM, MK_TXQ, MK_COMP, MK_SUMODE, MK_SCALE,
};

typedef struct {
	const char *s;   /* modifier without its dot */
	uint8_t kind;    /* MK_* */
	uint32_t val;    /* value of the field, or PMF_* bits for MK_FLAG */
} ModEnt;

static const ModEnt mods[] = {
#define T(n, t) { n, MK_TYPE, PT_##t },
	T("b8", B8) T("b16", B16) T("b32", B32) T("b64", B64) T("b128", B128)
	T("u8", U8) T("u16", U16) T("u32", U32) T("u64", U64)
	T("s8", S8) T("s16", S16) T("s32", S32) T("s64", S64)
	T("f16", F16) T("f16x2", F16X2) T("bf16", BF16) T("bf16x2", BF16X2) T("tf32", TF32)
	T("f32", F32) T("f64", F64) T("e4m3", E4M3) T("e5m2", E5M2) T("e4m3x2", E4M3X2)
	T("e5m2x2", E5M2X2) T("pred", PRED)
#undef T
	{ "v2", MK_VEC, 2 }, { "v4", MK_VEC, 4 }, { "v8", MK_VEC, 8 },
#define C(n, v) { n, MK_CMP, PCMP_##v },
	C("eq", EQ) C("ne", NE) C("lt", LT) C("le", LE) C("gt", GT) C("ge", GE) C("ls", LS)
	C("hs", HS) C("equ", EQU) C("neu", NEU) C("ltu", LTU) C("leu", LEU) C("gtu", GTU)
	C("geu", GEU) C("num", NUM) C("nan", NAN)
#undef C
	{ "lo", MK_LOHI, PCMP_LO }, { "hi", MK_LOHI, PCMP_HI },
	{ "and", MK_BOOL, PBOP_AND }, { "or", MK_BOOL, PBOP_OR }, { "xor", MK_BOOL, PBOP_XOR },
#define R(n, v) { n, MK_RND, PRND_##v },
	R("rn", RN) R("rz", RZ) R("rm", RM) R("rp", RP) R("rni", RNI) R("rzi", RZI) R("rmi", RMI)
	R("rpi", RPI) R("rna", RNA) R("rs", RS)
#undef R
#define S(n, v) { n, MK_SPACE, PS_##v },
	S("global", GLOBAL) S("shared", SHARED) S("local", LOCAL) S("const", CONST)
	S("param", PARAM) S("shared::cta", SHARED_CTA) S("shared::cluster", SHARED_CLUSTER)
	S("param::entry", PARAM_ENTRY) S("param::func", PARAM_FUNC)
#undef S
#define K(n, v) { n, MK_CACHE, PCACHE_##v },
	K("ca", CA) K("cg", CG) K("cs", CS) K("lu", LU) K("cv", CV) K("wb", WB) K("wt", WT)
#undef K
#define M(n, v) { n, MK_SEM, PSEM_##v },
	M("weak", WEAK) M("volatile", VOLATILE) M("relaxed", RELAXED) M("acquire", ACQUIRE)
	M("release", RELEASE) M("acq_rel", ACQ_REL) M("sc", SC) M("mmio", MMIO)
#undef M
	{ "cta", MK_SCOPE, PSCOPE_CTA }, { "cluster", MK_SCOPE, PSCOPE_CLUSTER },
	{ "gpu", MK_SCOPE, PSCOPE_GPU }, { "sys", MK_SCOPE, PSCOPE_SYS }, { "gl", MK_GL, PSCOPE_GPU },
#define A(n, v) { n, MK_AOP, PAOP_##v },
	A("cas", CAS) A("exch", EXCH) A("add", ADD) A("inc", INC) A("dec", DEC) A("min", MIN)
	A("max", MAX) A("popc", POPC)
#undef A
	{ "up", MK_SHFL, PSHFL_UP }, { "down", MK_SHFL, PSHFL_DOWN },
	{ "bfly", MK_SHFL, PSHFL_BFLY }, { "idx", MK_SHFL, PSHFL_IDX },
	{ "all", MK_VOTE, PVOTE_ALL }, { "any", MK_VOTE, PVOTE_ANY },
	{ "ballot", MK_VOTE, PVOTE_BALLOT }, { "uni", MK_UNI, 0 }, { "sync", MK_SYNC, 0 },
	{ "arrive", MK_BAR, PBAR_ARRIVE }, { "red", MK_BAR, PBAR_RED },
#define P(n, v) { n, MK_PRMT, PPRMT_##v },
	P("f4e", F4E) P("b4e", B4E) P("rc8", RC8) P("ecl", ECL) P("ecr", ECR) P("rc16", RC16)
#undef P
#define X(n, v) { n, MK_TESTP, PTESTP_##v },
	X("finite", FINITE) X("infinite", INFINITE) X("number", NUMBER)
	X("notanumber", NOTANUMBER) X("normal", NORMAL) X("subnormal", SUBNORMAL)
#undef X
#define F(n, v) { n, MK_FLAG, PMF_##v },
	F("ftz", FTZ) F("sat", SAT) F("approx", APPROX) F("full", FULL) F("wide", WIDE)
	F("cc", CC) F("aligned", ALIGNED) F("to", TO) F("nc", NC) F("shiftamt", SHIFTAMT)
	F("relu", RELU) F("satfinite", SATFINITE) F("noftz", NOFTZ) F("NaN", NAN)
	F("xorsign", XORSIGN) F("abs", ABS) F("wrap", WRAP) F("clamp", CLAMP) F("l", LEFT)
	F("r", RIGHT) F("L2::cache_hint", CACHEHINT) F("pack", PACK) F("oob", OOB)
	F("level", LEVEL) F("po", PO)
#undef F
	{ "shr7", MK_SCALE, 7 }, { "shr15", MK_SCALE, 15 },
#define E(n, v) { "L1::" n, MK_L1, PEVICT_##v }, { "L2::" n, MK_L2, PEVICT_##v },
	E("evict_normal", NORMAL) E("evict_unchanged", UNCHANGED) E("evict_first", FIRST)
	E("evict_last", LAST) E("no_allocate", NO_ALLOCATE)
#undef E
#define G(n, v) { n, MK_GEOM, PGEOM_##v },
	G("1d", 1D) G("2d", 2D) G("3d", 3D) G("a1d", A1D) G("a2d", A2D) G("cube", CUBE)
	G("acube", ACUBE) G("2dms", 2DMS) G("a2dms", A2DMS)
#undef G
#define Q(n, v) { n, MK_TXQ, PTXQ_##v },
	Q("width", WIDTH) Q("height", HEIGHT) Q("depth", DEPTH) Q("normalized_coords", NORMALIZED_COORDS)
	Q("channel_data_type", CHANNEL_DATA_TYPE) Q("channel_order", CHANNEL_ORDER)
	Q("array_size", ARRAY_SIZE) Q("num_mipmap_levels", NUM_MIPMAP_LEVELS)
	Q("num_samples", NUM_SAMPLES) Q("force_unnormalized_coords", FORCE_UNNORMALIZED_COORDS)
	Q("filter_mode", FILTER_MODE) Q("addr_mode_0", ADDR_MODE_0) Q("addr_mode_1", ADDR_MODE_1)
	Q("addr_mode_2", ADDR_MODE_2) Q("memory_layout", MEMORY_LAYOUT)
#undef Q
	{ "g", MK_COMP, PCOMP_G }, { "b", MK_COMP, PCOMP_B }, { "a", MK_COMP, PCOMP_A },
	{ "p", MK_COMP, PCOMP_P }, { "trap", MK_SUMODE, PSUMODE_TRAP }, { "zero", MK_SUMODE, PSUMODE_ZERO },
	{ "L2::64B", MK_L2PF, 64 }, { "L2::128B", MK_L2PF, 128 }, { "L2::256B", MK_L2PF, 256 },
};
#define NMODS ((int)(sizeof mods / sizeof mods[0]))

/* open-addressing hash tables of the opcode and modifier names, filled once at the first
 * ptx_decode_opword (init, under pthread_once: a program may parse PTX on several threads) */
#define HSIZE 1024
typedef struct {
	const char *s;   /* name, NULL when the slot is empty */
	int len;         /* strlen(s) */
	int idx;         /* opcode or index into mods[] */
} HSlot;
static HSlot ophash[HSIZE], modhash[HSIZE];
static pthread_once_t ready = PTHREAD_ONCE_INIT;

static void
hput(HSlot *t, const char *s, int idx)
{
	int n = (int)strlen(s);
	uint32_t h = ptab_hash(s, n) & (HSIZE - 1);

	while (t[h].s) {
		if (t[h].len == n && memcmp(t[h].s, s, (size_t)n) == 0)
			die("duplicate name in an opcode or modifier table");
		h = (h + 1) & (HSIZE - 1);
	}
	t[h].s = s;
	t[h].len = n;
	t[h].idx = idx;
}

static int
hget(const HSlot *t, const char *s, int n)
{
	uint32_t h = ptab_hash(s, n) & (HSIZE - 1);

	for (; t[h].s; h = (h + 1) & (HSIZE - 1))
		if (t[h].len == n && memcmp(t[h].s, s, (size_t)n) == 0)
			return t[h].idx;
	return -1;
}

static void
init(void)
{
	for (int i = 0; i < NMODS; i++)
		hput(modhash, mods[i].s, i);
	for (int i = 0; i < PO_COUNT; i++)
		hput(ophash, ptx_ops[i].name, i);
}

static int
find_op(const char *s, int n)
{
	return hget(ophash, s, n);
}

static const ModEnt *
find_mod(const char *s, int n)
{
	int i = hget(modhash, s, n);
	return i < 0 ? NULL : &mods[i];
}

/* sets an 8-bit field once; a second, different value is an error */
static int
set8(PCtx *c, PLoc l, uint8_t *f, uint32_t v, const char *s, int n)
{
	if (*f && *f != v) {
		ptx_diag(c, l, "conflicting modifier '.%.*s'", n, s);
		return 0;
	}
	*f = (uint8_t)v;
	return 1;
}

/* createpolicy's modifiers (PTX ISA 7.4): .fractional, .range{.global} or .cvt.L2, then
 * .L2::evict_* priorities (a primary, optionally a secondary) and .b64; the form into
 * m->policy, the type into m->types */
static int
policy_mods(PCtx *c, const char *s, int n, PLoc l, PMods *m)
{
	static const char *const words[] = { "fractional", "range", "cvt" };
	int prio = 0;

	for (int p = 0; p < n;) {
		int q = p + 1, mn, known = 0;
		while (q < n && s[q] != '.')
			q++;
		const char *ms = s + p + 1;
		mn = q - p - 1;
		for (int k = 0; k < 3; k++)
			if ((int)strlen(words[k]) == mn && !memcmp(ms, words[k], (size_t)mn)) {
				if (m->policy) {
					ptx_diag(c, l, "conflicting modifier '.%.*s'", mn, ms);
					return 0;
				}
				m->policy = (uint8_t)(k + 1);
				known = 1;
			}
		if ((mn == 6 && !memcmp(ms, "global", 6) && m->policy == 2) ||
		    (mn == 2 && !memcmp(ms, "L2", 2) && m->policy == 3)) {
			known = 1;
		} else if (mn > 12 && !memcmp(ms, "L2::evict_", 10)) {
			const ModEnt *e = find_mod(ms, mn);
			known = e && e->kind == MK_L2 && e->val != PEVICT_NO_ALLOCATE && prio++ < 2;
			if (known && prio == 1)
				m->l2evict = (uint8_t)e->val;
		} else if (mn == 3 && !memcmp(ms, "b64", 3) && m->ntypes == 0) {
			m->types[m->ntypes++] = PT_B64;
			known = 1;
		}
		if (!known) {
			ptx_diag(c, l, "unknown modifier '.%.*s' on 'createpolicy'", mn, ms);
			return 0;
		}
		p = q;
	}
	return 1;
}

int
ptx_decode_opword(PCtx *c, const char *s, int n, PLoc l, PIns *in)
{
	PMods *m = &in->m;
	int op = -1, len = 0, p;

	pthread_once(&ready, init);
	/* longest opcode name made of the first one to three dot-separated parts */
	for (int k = 0, i = 0; k < 3 && i <= n; k++) {
		int j = i;
		while (j < n && s[j] != '.')
			j++;
		int o = find_op(s, j);
		if (o >= 0) {
			op = o;
			len = j;
		}
		if (j >= n)
			break;
		i = j + 1;
	}
	if (op < 0) {
		int j = 0;
		while (j < n && s[j] != '.')
			j++;
		ptx_diag(c, l, "unknown instruction '%.*s'", j, s);
		return 0;
	}
	in->op = (uint16_t)op;
	m->vec = 1;
	if (ptx_ops[op].flags & PF_UNSUP)
		return 1;   /* its modifiers are not decoded; ptx_check rejects it */
	if (op == PO_CREATEPOLICY)
		return policy_mods(c, s + len, n - len, l, m);
	for (p = len; p < n;) {
		int q = p + 1, ok = 1;
		const ModEnt *e;
		while (q < n && s[q] != '.')
			q++;
		const char *ms = s + p + 1;
		int mn = q - p - 1;
		e = find_mod(ms, mn);
		if (!e) {
			ptx_diag(c, l, "unknown modifier '.%.*s' on '%s'", mn, ms, ptx_ops[op].name);
			return 0;
		}
		switch (e->kind) {
		case MK_TYPE:
			if (m->ntypes == 3) {
				ptx_diag(c, l, "too many type modifiers on '%s'", ptx_ops[op].name);
				return 0;
			}
			m->types[m->ntypes++] = (uint8_t)e->val;
			break;
		case MK_VEC:
			if (m->vec != 1 && m->vec != e->val) {
				ptx_diag(c, l, "conflicting modifier '.%.*s'", mn, ms);
				ok = 0;
			}
			m->vec = (uint8_t)e->val;
			break;
		case MK_CMP: ok = set8(c, l, &m->cmp, e->val, ms, mn); break;
		case MK_LOHI:
			if (op == PO_SETP || op == PO_SET)
				ok = set8(c, l, &m->cmp, e->val, ms, mn);
			else
				m->flags |= e->val == PCMP_LO ? PMF_LO : PMF_HI;
			break;
		case MK_BOOL:
			if (op == PO_SETP || op == PO_SET)
				ok = set8(c, l, &m->bop, e->val, ms, mn);
			else
				ok = set8(c, l, &m->aop, e->val == PBOP_AND ? PAOP_AND :
				          e->val == PBOP_OR ? PAOP_OR : PAOP_XOR, ms, mn);
			break;
		case MK_RND: ok = set8(c, l, &m->rnd, e->val, ms, mn); break;
		case MK_SPACE:
			if (op == PO_CP_ASYNC && e->val == PS_GLOBAL && m->space) {
				m->flags |= PMF_FROMGLOBAL;   /* cp.async.shared.global: the source's */
				break;
			}
			ok = set8(c, l, &m->space, e->val, ms, mn);
			break;
		case MK_CACHE: ok = set8(c, l, &m->cache, e->val, ms, mn); break;
		case MK_SEM: ok = set8(c, l, &m->sem, e->val, ms, mn); break;
		case MK_SCOPE: case MK_GL: ok = set8(c, l, &m->scope, e->val, ms, mn); break;
		case MK_AOP: ok = set8(c, l, &m->aop, e->val, ms, mn); break;
		case MK_SHFL: ok = set8(c, l, &m->shfl, e->val, ms, mn); break;
		case MK_VOTE: ok = set8(c, l, &m->vote, e->val, ms, mn); break;
		case MK_UNI:
			if (op == PO_VOTE)
				ok = set8(c, l, &m->vote, PVOTE_UNI, ms, mn);
			else
				m->flags |= PMF_UNI;
			break;
		case MK_SYNC:
			if (op == PO_BAR || op == PO_BARRIER)
				ok = set8(c, l, &m->bar, PBAR_SYNC, ms, mn);
			else
				m->flags |= PMF_SYNC;
			break;
		case MK_BAR: ok = set8(c, l, &m->bar, e->val, ms, mn); break;
		case MK_PRMT: ok = set8(c, l, &m->prmt, e->val, ms, mn); break;
		case MK_SCALE: ok = set8(c, l, &m->shr, e->val, ms, mn); break;
		case MK_TESTP: ok = set8(c, l, &m->testp, e->val, ms, mn); break;
		case MK_FLAG:
			if (op == PO_TLD4 && e->val == PMF_RIGHT)
				ok = set8(c, l, &m->comp, PCOMP_R, ms, mn);   /* tld4.r: the red channel */
			else if ((op == PO_SULD || op == PO_SUST) && e->val == PMF_CLAMP)
				ok = set8(c, l, &m->sumode, PSUMODE_CLAMP, ms, mn);
			else
				m->flags |= e->val;
			break;
		case MK_L1: ok = set8(c, l, &m->l1evict, e->val, ms, mn); break;
		case MK_L2: ok = set8(c, l, &m->l2evict, e->val, ms, mn); break;
		case MK_L2PF: m->l2prefetch = (uint16_t)e->val; break;
		case MK_GEOM: ok = set8(c, l, &m->geom, e->val, ms, mn); break;
		case MK_TXQ: ok = set8(c, l, &m->txq, e->val, ms, mn); break;
		case MK_COMP: ok = set8(c, l, &m->comp, e->val, ms, mn); break;
		case MK_SUMODE: ok = set8(c, l, &m->sumode, e->val, ms, mn); break;
		default: die("bad modifier kind");
		}
		if (!ok)
			return 0;
		p = q;
	}
	if ((op == PO_BAR || op == PO_BARRIER) && m->bar == PBAR_NONE)
		m->bar = PBAR_SYNC;   /* "bar 0" is bar.sync */
	return 1;
}

/* ------------------------------------------------------------------ implied modifiers */
/* The PTX ISA (9.0) gives an instruction of an old module modifiers it does not write:
 *
 * - .target sm_1x (sm_10 .. sm_13): "Single-precision instructions support subnormal inputs
 *   and results by default for sm_20 and subsequent targets, and flush subnormal inputs and
 *   results to sign-preserving zero for sm_1x targets" (section 9.7.3, Floating-Point
 *   Instructions; each instruction's "Subnormal numbers" note says it of its .f32 form), and
 *   set, setp and slct "flush single-precision subnormal inputs to sign-preserving zero for
 *   sm_1x targets" (9.7.6, Comparison and Selection Instructions). cvt (9.7.9.21) flushes
 *   the .f32 input of a float-to-integer conversion and the .f32 input and result of a
 *   float-to-float one, except in PTX ISA 1.4 and earlier when the destination is a 64-bit
 *   integer or either type .f64 ("The compiler will preserve this behavior for legacy PTX
 *   code"). An integer-to-float conversion has nothing to flush and is left as written.
 *   Each of these takes .ftz in today's PTX, whose meaning is exactly that: sm_1x is .ftz.
 * - PTX ISA 1.0 .. 1.3: div, rcp, sqrt, rsqrt, sin, cos, lg2 and ex2 of .f32 written without
 *   .approx, .full or a rounding are .approx.ftz ("For PTX ISA versions 1.0 through 1.3,
 *   div.f32 defaults to div.approx.ftz.f32", and likewise for the others).
 *
 * ptxas 11.8 compiles such a module for sm_35 into the code it makes of the same
 * instructions with the modifiers written (FADD.FTZ, FFMA.FTZ, FMNMX.FTZ, FSETP.FTZ,
 * F2I.FTZ, MUFU.RCP then FMUL.FTZ for a PTX 1.3 div.f32; docs/frontend.md, "sm_1x"). The
 * builder adds these bits (b_ins_end) and the printer leaves them out (whether written or
 * not: they mean nothing more), so that -dP prints PTX of the module's own .version (1.3
 * has no .ftz) that its .target reads the same. The bits are those implied whatever the
 * instruction already holds. */
uint32_t
ptx_implied_mods(const Module *m, const PIns *in)
{
	const PMods *md = &in->m;
	int sm1x = m->sm > 0 && m->sm < 20;
	int v13 = m->version_major < 1 || (m->version_major == 1 && m->version_minor <= 3);
	int v14 = m->version_major < 1 || (m->version_major == 1 && m->version_minor <= 4);
	int t0 = md->ntypes > 0 ? md->types[0] : PT_NONE, t1 = md->ntypes > 1 ? md->types[1] : PT_NONE;
	uint32_t r = 0;

	switch ((int)in->op) {
	case PO_DIV: case PO_RCP: case PO_SQRT: case PO_RSQRT:
	case PO_SIN: case PO_COS: case PO_LG2: case PO_EX2:
		if (v13 && md->ntypes == 1 && t0 == PT_F32 && md->rnd == PRND_NONE &&
		    !(md->flags & PMF_FULL))
			r |= PMF_APPROX | PMF_FTZ;
		/* fall through */
	case PO_ADD: case PO_SUB: case PO_MUL: case PO_MAD: case PO_FMA:
	case PO_ABS: case PO_NEG: case PO_MIN: case PO_MAX: case PO_SETP:
		if (sm1x && md->ntypes == 1 && t0 == PT_F32)
			r |= PMF_FTZ;
		break;
	case PO_SET: case PO_SLCT:
		if (sm1x && md->ntypes == 2 && t1 == PT_F32)
			r |= PMF_FTZ;
		break;
	case PO_CVT: {
		PTypeKind k0 = ptx_type_kind((PType)t0);
		int classic0 = t0 == PT_F16 || t0 == PT_F32 || t0 == PT_F64 || k0 == PTK_UNSIGNED ||
		               k0 == PTK_SIGNED;
		if (!sm1x || md->ntypes != 2 || in->nopd != 2 || !classic0 ||
		    (t1 != PT_F32 && !(t0 == PT_F32 && (t1 == PT_F16 || t1 == PT_F64))))
			break;
		if (v14 && (t0 == PT_F64 || t1 == PT_F64 ||
		            ((k0 == PTK_UNSIGNED || k0 == PTK_SIGNED) && ptx_type_bytes((PType)t0) == 8)))
			break;
		r |= PMF_FTZ;
		break;
	}
	default:
		break;
	}
	return r;
}
