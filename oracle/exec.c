/* exec.c - one PTX instruction of one thread: operand access, the dispatch over every PTX
 * opcode (one switch, no default), arithmetic, conversions, memory and control flow. A thread
 * runs until it blocks at a barrier or a warp collective (sched.c releases it), exits, or
 * fails (o->result, with a located message). */
#include <math.h>
#include <string.h>
#include "oracle/internal.h"

#define FR(t) (&(t)->fr[(t)->nfr - 1])
#define FN(o, t) (&(o)->m->funcs[FR(t)->fi])

static int tbits(int type) { return 8 * ptx_type_bytes((PType)type); }
static int tsigned(int type) { return ptx_type_kind((PType)type) == PTK_SIGNED; }
/* or_zext without a call */
static inline uint64_t zext(uint64_t v, int bits) { return bits >= 64 ? v : v & ((1ull << bits) - 1); }

const PIns *or_cur(const Oracle *o, const Thread *t)
{
	const Frame *fr = &t->fr[t->nfr - 1];
	return &o->m->funcs[fr->fi].ins[fr->pc];
}

uint64_t or_sreg(Oracle *o, const Thread *t, int sreg, int comp)
{
	uint32_t lane = t->lin % 32, c = comp ? (uint32_t)comp - 1 : 0;

	if (c > 2)
		return 0;
	switch ((PSReg)sreg) {
	case PSR_TID: return t->tid[c];
	case PSR_NTID: return o->l->block[c];
	case PSR_CTAID: return o->ctaid[c];
	case PSR_NCTAID: return o->l->grid[c];
	case PSR_LANEID: return lane;
	case PSR_WARPID: return t->lin / 32;
	case PSR_NWARPID: return (o->nthreads + 31) / 32;
	case PSR_LANEMASK_EQ: return 1u << lane;
	case PSR_LANEMASK_LE: return (uint32_t)((2ull << lane) - 1);
	case PSR_LANEMASK_LT: return (1u << lane) - 1;
	case PSR_LANEMASK_GE: return ~((1u << lane) - 1);
	case PSR_LANEMASK_GT: return ~(uint32_t)((2ull << lane) - 1);
	case PSR_NSMID: return 1;
	case PSR_DYNAMIC_SMEM_SIZE: return o->l->shared_bytes;
	/* the PTX ISA: "total size of shared memory allocated (statically and dynamically,
	 * excluding the shared memory reserved for the NVIDIA system software use)", "returned in
	 * multiples of shared memory allocation unit size" (128 bytes on sm_2x, 256 on sm_3x);
	 * %aggr_smem_size adds the reserved region, which Fermi and Kepler have none of */
	case PSR_TOTAL_SMEM_SIZE: case PSR_AGGR_SMEM_SIZE:
		return ((uint64_t)o->shsize + o->shunit - 1) / o->shunit * o->shunit;
	/* time has no meaning here: the instruction count stands in, monotonic and repeatable */
	case PSR_CLOCK: case PSR_GLOBALTIMER_LO: return (uint32_t)o->st.steps;
	case PSR_CLOCK_HI: case PSR_GLOBALTIMER_HI: return (uint32_t)(o->st.steps >> 32);
	case PSR_CLOCK64: case PSR_GLOBALTIMER: return o->st.steps;
	case PSR_NCLUSTERID: case PSR_CLUSTER_NCTAID: return 1;
	case PSR_CLUSTER_NCTARANK: return 1;
	case PSR_CLUSTERID: case PSR_CLUSTER_CTAID: case PSR_CLUSTER_CTARANK:
	case PSR_IS_EXPLICIT_CLUSTER: case PSR_SMID: case PSR_GRIDID:
	case PSR_PM0: case PSR_PM1: case PSR_PM2: case PSR_PM3: case PSR_PM4: case PSR_PM5:
	case PSR_PM6: case PSR_PM7: case PSR_COUNT:
		break;
#define X(id, name, comp, bytes) case PSR_##id:
	PTX_ENVREGS(X)
#undef X
		if (sreg == PSR_ENVREG1 || sreg == PSR_ENVREG2) {   /* the grid workspace */
			if (o->l->cooperative)
				return sreg == PSR_ENVREG1 ? (uint32_t)(o->mem->gridws >> 32)
				                           : (uint32_t)o->mem->gridws;
			or_error(o, t, OR_FAULT, "%s " DEV_GRIDWS_WHY, ptx_sreg_name((PSReg)sreg));
			break;
		}
		or_error(o, t, OR_UNSUP, "unsupported: %s: " PTX_ENVREG_WHY, ptx_sreg_name((PSReg)sreg));
		break;
	}
	return 0;
}

void or_types(Oracle *o)
{
	for (int t = 0; t < PT_COUNT; t++) {
		int b = tbits(t);
		o->ty[t].bits = (uint8_t)b;
		o->ty[t].sgn = (uint8_t)tsigned(t);
		o->ty[t].isf = (uint8_t)or_isfloat(t);
		o->ty[t].get = or_zext(~0ull, b ? b : 64);
		o->ty[t].put = t == PT_PRED ? 1 : or_zext(~0ull, b);
	}
}

static uint64_t get_other(Oracle *o, Thread *t, const POpd *op, int type);

/* or_get in the frame whose registers start at R, its register cases and the immediates
 * that need no conversion without a call */
static inline __attribute__((always_inline)) uint64_t getr(Oracle *o, Thread *t, const uint64_t *R,
                                                           const POpd *op, int type)
{
	if ((unsigned)type < PT_COUNT) {
		if (op->kind == POK_REG)
			return R[op->reg] & o->ty[type].get;
		if (op->kind == POK_IMM) {
			if (!o->ty[type].isf) {
				if (op->ikind != PIMM_FLOAT)
					return (uint64_t)op->imm & o->ty[type].get;
			} else if (op->ikind == PIMM_F32 && type == PT_F32)
				return (uint32_t)op->imm;       /* (as or_imm_float) */
		}
	}
	return get_other(o, t, op, type);
}

uint64_t or_get(Oracle *o, Thread *t, const POpd *op, int type)
{
	return getr(o, t, &t->regs[FR(t)->regs], op, type);
}

static uint64_t get_other(Oracle *o, Thread *t, const POpd *op, int type)
{
	int bits = (unsigned)type < PT_COUNT ? o->ty[type].bits : tbits(type);

	if (bits == 0)
		bits = 64;
	switch ((POpdKind)op->kind) {
	case POK_REG:
		return or_zext(t->regs[FR(t)->regs + op->reg], bits);
	case POK_IMM:
		if ((unsigned)type < PT_COUNT ? o->ty[type].isf : or_isfloat(type))
			return or_imm_float(op, type);
		if (op->ikind == PIMM_FLOAT) {   /* a float literal in a bit-typed slot */
			POpd tmp = *op;
			return or_imm_float(&tmp, bits == 64 ? PT_F64 : PT_F32);
		}
		return or_zext((uint64_t)op->imm, bits);
	case POK_SREG:
		return or_zext(or_sreg(o, t, op->sreg, op->comp), bits);
	case POK_SYM:
		return or_zext(or_sym_addr(o, t, op->symkind, op->sym) + (uint64_t)op->imm, bits);
	case POK_NONE: case POK_SINK: case POK_ADDR: case POK_VEC: case POK_LABEL:
	case POK_TLIST: case POK_LIST:
		break;
	}
	or_error(o, t, OR_UNSUP, "unsupported: this operand form of '%s'", ptx_op_name((POp)or_cur(o, t)->op));
	return 0;
}

int or_getp(Oracle *o, Thread *t, const POpd *op)
{
	int v;

	if (op->kind == POK_IMM)
		v = op->imm != 0;
	else
		v = (int)(or_get(o, t, op, PT_B64) & 1);
	return (op->flags & POF_NOT) ? !v : v;
}

/* or_put in the frame of function f whose registers start at R */
static inline __attribute__((always_inline)) void putr(Oracle *o, Thread *t, const PFunc *f, uint64_t *R,
                                                       const POpd *op, uint64_t v)
{
	if (op->kind == POK_REG) {
		unsigned rt = (unsigned)f->regs[op->reg].type;
		R[op->reg] = v & (rt < PT_COUNT ? o->ty[rt].put : 0);
	} else
		or_put(o, t, op, v);
}

void or_put(Oracle *o, Thread *t, const POpd *op, uint64_t v)
{
	if (op->kind == POK_REG) {
		unsigned rt = (unsigned)FN(o, t)->regs[op->reg].type;
		t->regs[FR(t)->regs + op->reg] = v & (rt < PT_COUNT ? o->ty[rt].put : 0);
	} else if (op->kind != POK_SINK && op->kind != POK_NONE)
		or_error(o, t, OR_UNSUP, "unsupported: this destination form of '%s'",
		         ptx_op_name((POp)or_cur(o, t)->op));
}

/* ---------------------------------------------------------------- arithmetic */
/* a + b + ci in bits, the carry out in *co */
static uint64_t addcarry(uint64_t a, uint64_t b, uint64_t ci, int bits, uint8_t *co)
{
	uint64_t mask = zext(~0ull, bits), s1, s2;

	a &= mask, b &= mask;
	if (bits < 64) {
		s1 = a + b + ci;
		*co = (s1 >> bits) != 0;
		return s1 & mask;
	}
	s1 = a + b;
	s2 = s1 + ci;
	*co = s1 < a || s2 < s1;
	return s2;
}

/* integer add/sub with carry in and out: CF is the carry of add, the borrow of sub */
static uint64_t iaddsub(Thread *t, const PIns *in, int bits, uint64_t a, uint64_t b, int sub, int cin)
{
	uint64_t ci = cin ? t->cf : 0, d, mask = zext(~0ull, bits);
	uint8_t co;

	a &= mask, b &= mask;
	if (sub) {
		d = (a - b - ci) & mask;
		co = a < b || ((a - b) & mask) < ci;
	} else
		d = addcarry(a, b, ci, bits, &co);
	if (in->m.flags & PMF_CC)
		t->cf = co;
	if ((in->m.flags & PMF_SAT) && in->m.types[0] == PT_S32) {
		int64_t x = (int64_t)or_sext(a, 32), y = (int64_t)or_sext(b, 32);
		int64_t r = sub ? x - y : x + y;
		d = or_zext((uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r), 32);
	}
	return d;
}

static uint64_t farith(Oracle *o, Thread *t, const uint64_t *R, const PIns *in)
{
	int ty = in->m.types[0], ftz = (in->m.flags & PMF_FTZ) != 0, op = in->op;
	int x2 = ty == PT_F16X2 || ty == PT_BF16X2, ft = x2 ? PT_B32 : ty;
	int et = ty == PT_BF16X2 ? PT_BF16 : ty == PT_F16X2 ? PT_F16 : ty;
	uint64_t a = getr(o, t, R, &in->o[1], ft), b = 0, c = 0, d;

	if (in->nopd > 2)
		b = getr(o, t, R, &in->o[2], ft);
	if (in->nopd > 3)
		c = getr(o, t, R, &in->o[3], ft);
	if ((et == PT_BF16 && !or_bf16_ok(in)) || ty == PT_TF32 ||
	    ((et == PT_F16 || et == PT_BF16) && (in->m.flags & PMF_XORSIGN))) {
		or_error(o, t, OR_UNSUP, "unsupported: %s%s arithmetic", (in->m.flags & PMF_XORSIGN) ?
		         ".xorsign.abs " : "", ptx_type_name((PType)ty));
		return 0;
	}
	if (x2)
		return or_per_half(op, et, a, b, c, in);
	if (et == PT_BF16 || (et == PT_F16 && (in->m.flags & PMF_RELU)))
		return or_half_op(op, et, a, b, c, in);
	switch (op) {
	case PO_ADD: case PO_SUB: case PO_MUL: case PO_DIV:
		if (op == PO_DIV && ty == PT_F32 && (in->m.flags & (PMF_APPROX | PMF_FULL)))
			/* div.approx/div.full: a times the approximate reciprocal of b */
			d = ar_f32_mul((uint32_t)a, ar_rcp_approx_f32((uint32_t)b, ftz), RND_RN, ftz);
		else
			d = or_fbin(op, ty, a, b, in->m.rnd, ftz);
		break;
	case PO_FMA: case PO_MAD:
		d = or_ffma(ty, a, b, c, in->m.rnd, ftz);
		break;
	case PO_MIN: case PO_MAX:
		d = or_fminmax(ty, a, b, op == PO_MAX, ftz, (in->m.flags & PMF_NAN) != 0);
		if (in->nopd > 3)
			d = or_fminmax(ty, d, c, op == PO_MAX, ftz, (in->m.flags & PMF_NAN) != 0);
		break;
	default:
		d = or_funary(op, ty, a, in->m.rnd, ftz, (in->m.flags & PMF_APPROX) != 0);
		break;
	}
	if (in->m.flags & PMF_SAT)
		d = or_fsat(ty, d);
	return d;
}

/* farith's f32 add, sub, mul and fma/mad without .sat, whose checks of the other types
 * and modifiers do not apply: the result into *d, or 0 when in is not of that form */
static inline int f32arith(Oracle *o, Thread *t, const uint64_t *R, const PIns *in, uint64_t *d)
{
	int op = in->op, ftz = (in->m.flags & PMF_FTZ) != 0;
	uint64_t a, b, c;

	if (in->m.types[0] != PT_F32 || (in->m.flags & PMF_SAT))
		return 0;
	if ((op == PO_FMA || op == PO_MAD) && in->nopd == 4) {
		a = getr(o, t, R, &in->o[1], PT_F32);
		b = getr(o, t, R, &in->o[2], PT_F32);
		c = getr(o, t, R, &in->o[3], PT_F32);
		*d = or_ffma(PT_F32, a, b, c, in->m.rnd, ftz);
		return 1;
	}
	if ((op == PO_ADD || op == PO_SUB || op == PO_MUL) && in->nopd == 3) {
		a = getr(o, t, R, &in->o[1], PT_F32);
		b = getr(o, t, R, &in->o[2], PT_F32);
		*d = or_fbin(op, PT_F32, a, b, in->m.rnd, ftz);
		return 1;
	}
	return 0;
}

static uint64_t mul24(uint64_t a, uint64_t b, int sign, int hi)
{
	int64_t x = sign ? (int64_t)or_sext(a, 24) : (int64_t)or_zext(a, 24);
	int64_t y = sign ? (int64_t)or_sext(b, 24) : (int64_t)or_zext(b, 24);
	uint64_t p = (uint64_t)(x * y);

	return or_zext(hi ? p >> 16 : p, 32);
}

/* integer mul/mad: .lo (default), .hi, .wide; mad adds c with carry in/out */
static uint64_t imul(Oracle *o, Thread *t, const PIns *in)
{
	int ty = in->m.types[0], bits = tbits(ty), sign = tsigned(ty), op = in->op;
	int wide = (in->m.flags & PMF_WIDE) != 0;
	uint64_t a = or_get(o, t, &in->o[1], ty), b = or_get(o, t, &in->o[2], ty), p, c, d;
	int dbits = wide ? 2 * bits : bits;

	if (op == PO_MUL24 || op == PO_MAD24)
		p = mul24(a, b, sign, (in->m.flags & PMF_HI) != 0);
	else if (wide)
		p = sign ? (uint64_t)((int64_t)or_sext(a, bits) * (int64_t)or_sext(b, bits)) : a * b;
	else if (in->m.flags & PMF_HI)
		p = or_mulhi(a, b, bits, sign);
	else
		p = or_zext(a * b, bits);
	if (op == PO_MUL || op == PO_MUL24)
		return or_zext(p, dbits);
	c = or_get(o, t, &in->o[3], !wide ? ty : bits == 32 ? PT_B64 : bits == 16 ? PT_B32 : ty);
	if (op == PO_MAD24 && (in->m.flags & PMF_SAT)) {
		int64_t r = (int64_t)or_sext(p, 32) + (int64_t)or_sext(c, 32);
		return or_zext((uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r), 32);
	}
	{
		uint8_t co;
		d = addcarry(p, c, op == PO_MADC ? t->cf : 0, dbits, &co);
		if (in->m.flags & PMF_CC)
			t->cf = co;
	}
	return d;
}

static uint64_t iminmax(uint64_t a, uint64_t b, int max, int bits, int sign)
{
	int lt = sign ? (int64_t)or_sext(a, bits) < (int64_t)or_sext(b, bits) : a < b;
	return max ? (lt ? b : a) : (lt ? a : b);
}

static int cmpval(Oracle *o, Thread *t, const PIns *in, int ty, uint64_t a, uint64_t b)
{
	int r;

	if (ty == PT_F16 && (in->m.flags & PMF_FTZ)) {
		/* .ftz: subnormal f16 inputs are flushed to zero of their sign */
		a = (a & 0x7c00) ? a : a & 0x8000;
		b = (b & 0x7c00) ? b : b & 0x8000;
	}
	if ((unsigned)ty < PT_COUNT ? o->ty[ty].isf : or_isfloat(ty))
		r = or_fcmp(in->m.cmp, ty, a, b, (in->m.flags & PMF_FTZ) != 0);
	else if ((unsigned)ty < PT_COUNT)
		r = ptx_icmp(in->m.cmp, a, b, o->ty[ty].bits, o->ty[ty].sgn);
	else
		r = ptx_icmp(in->m.cmp, a, b, tbits(ty), tsigned(ty));
	if (r < 0) {
		or_error(o, t, OR_UNSUP, "unsupported: comparison %s on %s", ptx_cmp_name((PCmp)in->m.cmp),
		         ptx_type_name((PType)ty));
		return 0;
	}
	return r;
}

static int boolop(int bop, int x, int c)
{
	switch ((PBop)bop) {
	case PBOP_AND: return x && c;
	case PBOP_OR: return x || c;
	case PBOP_XOR: return x != c;
	case PBOP_NONE: case PBOP_COUNT: break;
	}
	return x;
}

static uint64_t shift(uint64_t a, uint64_t n, int bits, int right, int sign)
{
	if (!right)
		return n >= (uint64_t)bits ? 0 : or_zext(a << n, bits);
	if (sign) {
		int64_t s = (int64_t)or_sext(a, bits);
		return or_zext((uint64_t)(s >> (n >= (uint64_t)bits ? bits - 1 : (int)n)), bits);
	}
	return n >= (uint64_t)bits ? 0 : or_zext(a, bits) >> n;
}

/* bmsk: bits [a, a+b) of a 32-bit mask, amounts clamped to 32 or wrapped mod 32 */
static uint32_t bmsk(uint32_t a, uint32_t b, int wrap)
{
	uint64_t m;

	if (wrap)
		a &= 31, b &= 31;
	else
		a = a > 32 ? 32 : a, b = b > 32 ? 32 : b;
	m = ((1ull << b) - 1) << a;
	return (uint32_t)m;
}

static uint64_t dp(Oracle *o, Thread *t, const PIns *in)
{
	int as = tsigned(in->m.types[0]), bs = tsigned(in->m.types[1]);
	uint32_t a = (uint32_t)or_get(o, t, &in->o[1], PT_B32), b = (uint32_t)or_get(o, t, &in->o[2], PT_B32);
	uint32_t c = (uint32_t)or_get(o, t, &in->o[3], PT_B32);
	int64_t s = 0;

	if (in->op == PO_DP4A)
		for (int i = 0; i < 4; i++) {
			int64_t x = as ? (int8_t)(a >> 8 * i) : (uint8_t)(a >> 8 * i);
			int64_t y = bs ? (int8_t)(b >> 8 * i) : (uint8_t)(b >> 8 * i);
			s += x * y;
		}
	else
		for (int i = 0; i < 2; i++) {
			int sh = 8 * (i + ((in->m.flags & PMF_HI) ? 2 : 0));
			int64_t x = as ? (int16_t)(a >> 16 * i) : (uint16_t)(a >> 16 * i);
			int64_t y = bs ? (int8_t)(b >> sh) : (uint8_t)(b >> sh);
			s += x * y;
		}
	return (uint32_t)(c + (uint32_t)s);
}


/* ---------------------------------------------------------------- dispatch */
/* executes in (guard true) for t, whose frame fr of function f has its registers at R;
 * returns the next pc, or -1 when t left its frame, blocked or failed (the pc is then
 * already set) */
static inline __attribute__((always_inline)) int step(Oracle *o, Thread *t, Frame *fr, const PFunc *f,
                                                      uint64_t *R, const PIns *in)
{
	int pc = fr->pc, ty = in->m.types[0], n = in->nopd, bits, sign, fl;
	const POpd *op = in->o;
	uint64_t a, b, c, d;

	if ((unsigned)ty < PT_COUNT)
		bits = o->ty[ty].bits, sign = o->ty[ty].sgn, fl = o->ty[ty].isf;
	else
		bits = tbits(ty), sign = tsigned(ty), fl = or_isfloat(ty);
#define A(i, T) getr(o, t, R, &op[i], (T))
#define PUT(v) putr(o, t, f, R, &op[0], (v))
	switch ((POp)in->op) {
	case PO_ADD: case PO_SUB: case PO_ADDC: case PO_SUBC:
		if (fl || ty == PT_F16X2) {
			PUT(f32arith(o, t, R, in, &d) ? d : farith(o, t, R, in));
			break;
		}
		PUT(iaddsub(t, in, bits, A(1, ty), A(2, ty), in->op == PO_SUB || in->op == PO_SUBC,
		            in->op == PO_ADDC || in->op == PO_SUBC));
		break;
	case PO_MUL: case PO_MAD: case PO_MADC:
		if (fl || ty == PT_F16X2) {
			PUT(f32arith(o, t, R, in, &d) ? d : farith(o, t, R, in));
			break;
		}
		PUT(imul(o, t, in));
		break;
	case PO_MUL24: case PO_MAD24:
		PUT(imul(o, t, in));
		break;
	case PO_SAD:
		a = A(1, ty), b = A(2, ty), c = A(3, ty);
		d = iminmax(a, b, 1, bits, sign) - iminmax(a, b, 0, bits, sign);
		PUT(or_zext(c + d, bits));
		break;
	case PO_DIV: case PO_REM:
		if (fl) {
			PUT(farith(o, t, R, in));
			break;
		}
		a = A(1, ty), b = A(2, ty);
		PUT(in->op == PO_DIV ? or_div(a, b, bits, sign) : or_rem(a, b, bits, sign));
		break;
	case PO_ABS: case PO_NEG:
		if (fl || ty == PT_F16X2) {
			PUT(farith(o, t, R, in));
			break;
		}
		a = or_sext(A(1, ty), bits);
		PUT(or_zext(in->op == PO_NEG || (int64_t)a < 0 ? 0 - a : a, bits));
		break;
	case PO_MIN: case PO_MAX:
		if (fl || ty == PT_F16X2) {
			PUT(farith(o, t, R, in));
			break;
		}
		d = iminmax(A(1, ty), A(2, ty), in->op == PO_MAX, bits, sign);
		if (n > 3)
			d = iminmax(d, A(3, ty), in->op == PO_MAX, bits, sign);
		if ((in->m.flags & PMF_RELU) && (int64_t)or_sext(d, bits) < 0)
			d = 0;
		PUT(d);
		break;
	case PO_DP4A: case PO_DP2A:
		PUT(dp(o, t, in));
		break;
	case PO_FMA: case PO_RCP: case PO_SQRT: case PO_RSQRT: case PO_SIN: case PO_COS:
	case PO_LG2: case PO_EX2: case PO_TANH:
		PUT(f32arith(o, t, R, in, &d) ? d : farith(o, t, R, in));
		break;
	case PO_TESTP:
		PUT(or_testp(in->m.testp, ty, A(1, ty)));
		break;
	case PO_COPYSIGN: {
		uint64_t sb = bits == 64 ? 1ull << 63 : 1ull << (bits - 1);
		a = A(1, ty), b = A(2, ty);
		PUT((b & ~sb) | (a & sb));
		break;
	}
	case PO_SETP: {
		int cp = n > 4 ? or_getp(o, t, &op[4]) : 1, r;
		if (ty == PT_F16X2 || ty == PT_BF16X2) {
			/* PTX: p from the lower halves, q from the upper halves, each combined with c */
			int et = ty == PT_F16X2 ? PT_F16 : PT_BF16;
			a = A(2, PT_B32), b = A(3, PT_B32);
			putr(o, t, f, R, &op[0], boolop(in->m.bop, cmpval(o, t, in, et, a & 0xffff, b & 0xffff), cp));
			putr(o, t, f, R, &op[1], boolop(in->m.bop, cmpval(o, t, in, et, a >> 16, b >> 16), cp));
			break;
		}
		r = cmpval(o, t, in, ty, A(2, ty), A(3, ty));
		putr(o, t, f, R, &op[0], boolop(in->m.bop, r, cp));
		putr(o, t, f, R, &op[1], boolop(in->m.bop, !r, cp));
		break;
	}
	case PO_SET: {
		int st = in->m.types[1], x2 = st == PT_F16X2 || st == PT_BF16X2, et = st;
		int cp = n > 3 ? or_getp(o, t, &op[3]) : 1;
		/* true: 1.0 of a float destination, all ones of an integer one (of each half when
		 * the source is f16x2/bf16x2) */
		uint64_t one = ty == PT_F32 ? 0x3f800000u : ty == PT_F64 ? 0x3ff0000000000000ull :
		               ty == PT_F16 || ty == PT_F16X2 ? 0x3c00 : ty == PT_BF16 || ty == PT_BF16X2 ?
		               0x3f80 : or_zext(~0ull, x2 ? 16 : bits);
		if (x2)
			et = st == PT_F16X2 ? PT_F16 : PT_BF16, st = PT_B32;
		a = A(1, st), b = A(2, st), d = 0;
		for (int h = 0; h < (x2 ? 2 : 1); h++) {
			int sh = 16 * h;
			int r = cmpval(o, t, in, et, x2 ? (a >> sh) & 0xffff : a, x2 ? (b >> sh) & 0xffff : b);
			if (n > 3)
				r = boolop(in->m.bop, r, cp);
			d |= r ? one << sh : 0;
		}
		PUT(d);
		break;
	}
	case PO_SELP:
		PUT(or_getp(o, t, &op[3]) ? A(1, ty) : A(2, ty));
		break;
	case PO_SLCT: {
		int ct = in->m.types[1];
		c = A(3, ct);
		if (or_isfloat(ct))
			b = !or_fcmp(PCMP_GE, ct, c, 0, (in->m.flags & PMF_FTZ) != 0);
		else
			b = (int64_t)or_sext(c, 32) < 0;
		PUT(b ? A(2, ty) : A(1, ty));
		break;
	}
	case PO_AND: case PO_OR: case PO_XOR:
		a = A(1, ty), b = A(2, ty);
		if (ty == PT_PRED)
			a = or_getp(o, t, &op[1]), b = or_getp(o, t, &op[2]);
		PUT(in->op == PO_AND ? a & b : in->op == PO_OR ? a | b : a ^ b);
		break;
	case PO_NOT:
		PUT(ty == PT_PRED ? !or_getp(o, t, &op[1]) : or_zext(~A(1, ty), bits));
		break;
	case PO_CNOT:
		PUT(A(1, ty) == 0);
		break;
	case PO_LOP3:
		PUT(or_lop3((uint32_t)A(1, ty), (uint32_t)A(2, ty), (uint32_t)A(3, ty), (uint32_t)A(4, PT_B32) & 0xff));
		break;
	case PO_SHF:
		PUT(or_shf((uint32_t)A(1, PT_B32), (uint32_t)A(2, PT_B32), (uint32_t)A(3, PT_B32),
		           (in->m.flags & PMF_RIGHT) != 0, (in->m.flags & PMF_CLAMP) != 0));
		break;
	case PO_SHL: case PO_SHR:
		PUT(shift(A(1, ty), A(2, PT_U32), bits, in->op == PO_SHR, sign));
		break;
	case PO_PRMT:
		PUT(or_prmt((uint32_t)A(1, PT_B32), (uint32_t)A(2, PT_B32), (uint32_t)A(3, PT_B32), in->m.prmt));
		break;
	case PO_BFE:
		a = A(1, ty), b = A(2, PT_U32), c = A(3, PT_U32);
		PUT(bits == 64 ? or_bfe64(a, (uint32_t)b, (uint32_t)c, sign)
		               : or_bfe32((uint32_t)a, (uint32_t)b, (uint32_t)c, sign));
		break;
	case PO_BFI:
		PUT(or_bfi(A(1, ty), A(2, ty), (uint32_t)A(3, PT_U32), (uint32_t)A(4, PT_U32), bits));
		break;
	case PO_BREV:
		PUT(or_brev(A(1, ty), bits));
		break;
	case PO_POPC:
		PUT(or_popc(A(1, ty)));
		break;
	case PO_CLZ:
		PUT(or_clz(A(1, ty), bits));
		break;
	case PO_BFIND:
		PUT(or_bfind(A(1, ty), bits, sign, (in->m.flags & PMF_SHIFTAMT) != 0));
		break;
	case PO_FNS:
		PUT(or_fns((uint32_t)A(1, PT_B32), (uint32_t)A(2, PT_U32), (int32_t)A(3, PT_S32)));
		break;
	case PO_BMSK:
		PUT(bmsk((uint32_t)A(1, PT_U32), (uint32_t)A(2, PT_U32), (in->m.flags & PMF_WRAP) != 0));
		break;
	case PO_SZEXT: {
		uint32_t w = (uint32_t)A(2, PT_U32);
		w = (in->m.flags & PMF_WRAP) ? w & 31 : w > 32 ? 32 : w;
		a = A(1, ty);
		PUT(w == 0 ? 0 : or_zext(sign ? or_sext(a, (int)w) : or_zext(a, (int)w), 32));
		break;
	}
	case PO_MOV:
		or_mov(o, t, in);
		break;
	case PO_CVT:
		if (in->m.flags & PMF_PACK) {
			/* cvt.pack.sat: a and b saturated to the type's range, a above b (c above both) */
			int sz = tbits(ty), sg = ty == PT_S8 || ty == PT_S16;
			int64_t lo = sg ? -(1ll << (sz - 1)) : 0, hi = sg ? (1ll << (sz - 1)) - 1 : (1ll << sz) - 1;
			int64_t ta = (int32_t)A(1, PT_S32), tb = (int32_t)A(2, PT_S32);
			uint64_t mk = (1ull << sz) - 1;
			ta = ta < lo ? lo : ta > hi ? hi : ta;
			tb = tb < lo ? lo : tb > hi ? hi : tb;
			d = ((uint64_t)ta & mk) << sz | ((uint64_t)tb & mk);
			if (in->nopd == 4)
				d |= (uint64_t)(uint32_t)A(3, PT_B32) << (2 * sz);
			or_put(o, t, &in->o[0], (uint32_t)d);
			break;
		}
		if (or_cvt_narrow(o, t, in))
			break;
		a = A(1, in->m.types[1]);
		d = or_cvt(ty, in->m.types[1], in->m.rnd, (in->m.flags & PMF_FTZ) != 0,
		           (in->m.flags & PMF_SAT) != 0, a);
		/* a narrow signed result fills a wider register with its sign */
		PUT(sign ? or_sext(d, bits) : d);
		break;
	case PO_CVTA: case PO_ISSPACEP:
		or_cvta(o, t, in);
		break;
	case PO_LD: case PO_LDU:
		or_ld(o, t, in);
		break;
	case PO_ST:
		or_st(o, t, in);
		break;
	case PO_TEX: case PO_TLD4: case PO_TXQ:
		or_tex(o, t, in);
		break;
	case PO_SULD: case PO_SUST: case PO_SUQ:
		or_surf(o, t, in);
		break;
	case PO_ATOM: case PO_RED:
		or_atom(o, t, in);
		break;
	case PO_CP_ASYNC:
		or_cp_async(o, t, in);
		break;
	case PO_VADD2: case PO_VSUB2: case PO_VAVRG2: case PO_VABSDIFF2: case PO_VMIN2: case PO_VMAX2:
	case PO_VSET2: case PO_VADD4: case PO_VSUB4: case PO_VAVRG4: case PO_VABSDIFF4: case PO_VMIN4:
	case PO_VMAX4: case PO_VSET4: case PO_VADD: case PO_VSUB: case PO_VABSDIFF: case PO_VMIN:
	case PO_VMAX: case PO_VSET: case PO_VSHL: case PO_VSHR:
		PUT(or_video(in, (uint32_t)A(1, PT_B32), (uint32_t)A(2, PT_B32),
		             in->nopd > 3 ? (uint32_t)A(3, PT_B32) : 0));
		break;
	case PO_VMAD:
		PUT(or_vmad(in, (uint32_t)A(1, PT_B32), (uint32_t)A(2, PT_B32), (uint32_t)A(3, PT_B32)));
		break;
	case PO_CP_ASYNC_COMMIT: case PO_CP_ASYNC_WAIT: case PO_CP_ASYNC_WAIT_ALL:
		break;   /* every cp.async completed when it ran */
	case PO_PREFETCH: case PO_PREFETCHU: case PO_MEMBAR: case PO_FENCE: case PO_BRKPT:
	case PO_NANOSLEEP: case PO_PMEVENT: case PO_GRIDDEPCONTROL:
		break;
	case PO_BRA: case PO_BRX_IDX:
		if (in->op == PO_BRA && op[0].kind == POK_LABEL)
			return f->labels[op[0].sym].pos;    /* (or_branch's direct case, without the call) */
		return or_branch(o, t, in);
	case PO_CALL:
		or_call(o, t, in);
		return -1;
	case PO_RET:
		or_ret(o, t);
		return -1;
	case PO_EXIT:
		t->state = TS_EXIT;
		return -1;
	case PO_TRAP:
		or_error(o, t, OR_TRAP, "trap: the kernel aborted");
		return -1;
	case PO_BAR: case PO_BARRIER:
		or_bar(o, t, in);
		return -1;
	case PO_BAR_WARP_SYNC: case PO_VOTE: case PO_MATCH: case PO_SHFL: case PO_ACTIVEMASK:
	case PO_REDUX: case PO_ELECT:
		t->state = TS_WARP;
		return -1;
	case PO_SURED: case PO_ISTYPEP: case PO_MMA: case PO_WMMA: case PO_WGMMA: case PO_LDMATRIX:
	case PO_STMATRIX: case PO_MOVMATRIX: case PO_CP_ASYNC_BULK: case PO_CP_ASYNC_MBAR:
	case PO_CP_RED_ASYNC: case PO_ST_ASYNC: case PO_RED_ASYNC: case PO_MBARRIER: case PO_MULTIMEM:
	case PO_TENSORMAP: case PO_TCGEN05: case PO_ALLOCA: case PO_STACKSAVE:
	case PO_STACKRESTORE: case PO_MAPA: case PO_GETCTARANK: case PO_SETMAXNREG:
	case PO_APPLYPRIORITY: case PO_DISCARD: case PO_CREATEPOLICY: case PO_CLC:
	case PO_COUNT:
		or_error(o, t, OR_UNSUP, "unsupported: '%s' is not implemented by the oracle",
		         ptx_op_name((POp)in->op));
		return -1;
	}
#undef A
#undef PUT
	return pc + 1;
}

void or_exec(Oracle *o, Thread *t)
{
	while (t->state == TS_RUN && !o->result) {
		/* the frame's instructions until one leaves it (a call, a return, a block) or fails:
		 * no other can move the frame or its registers */
		Frame *fr = FR(t);
		const PFunc *f = &o->m->funcs[fr->fi];
		uint64_t *R = &t->regs[fr->regs];

		for (;;) {
			const PIns *in;
			int next;

			if (fr->pc >= f->nins) {   /* falling off the end of a body returns */
				or_ret(o, t);
				break;
			}
			in = &f->ins[fr->pc];
			if (++o->st.steps > o->maxsteps) {
				or_error(o, t, OR_RUNAWAY, "runaway: stopped after %llu thread instructions "
				         "(raise --max-warp-insts)", (unsigned long long)o->maxsteps);
				return;
			}
			if (in->guard >= 0 && (int)(R[in->guard] & 1) == (in->gneg ? 1 : 0)) {
				fr->pc++;
				continue;
			}
			next = step(o, t, fr, f, R, in);
			if (next < 0 || o->result)
				break;
			if (next <= fr->pc && o->yield) {   /* a loop's turn ends (sched.c) */
				fr->pc = next;
				return;
			}
			fr->pc = next;
			if (t->state != TS_RUN)
				break;
		}
	}
}
