/* cfold.c - constant branches: the tests of a value known when the program is compiled,
 * folded as ptxas 11.8 folds them, before anything decides structure or predication.
 *
 * Needs cfg (blocks of PTX instructions; before selection); leaves predecessors, reverse
 * post-order and dominators consistent: a conditional branch whose predicate is a constant
 * becomes a jump to the way it always takes, blocks no path reaches any more die, and Fn.kfold
 * tells selection which PTX instructions to make from constants (a move of each result), which
 * to make a copy (selp of a constant predicate) and which to leave out (pure instructions whose
 * results folding left unread); a branch whose two ways then meet at once, past blocks left
 * with nothing, becomes a jump too.
 *
 * nvcc inlines pow(x, c) with tests of the constant exponent c: its high word unpacked
 * (`mov.b64 {%temp, %r3}, %fd520`), masked, compared (`setp.eq.s32 %p32, %r4, 1062207488`),
 * combined with a test of x (`and.pred %p1, %p33, %p32; not.pred %p34, %p1; @%p34 bra`), and
 * `cvt.rzi.f64.f64` of c compared with c (is c an integer?). ptxas 11.8 for sm_35 folds every
 * one of those tests and deletes the dead branches and blocks (Rodinia's myocyte; our fixture
 * tests/ptx/cfold and its listing tests/ptxas-ref/cfold.sass).
 *
 * Sparse conditional constant propagation (Wegman, Zadeck, "Constant propagation with
 * conditional branches", TOPLAS 1991) on registers with one definition in the live code:
 * such a register is the definition's constant wherever the definition dominates the read
 * (its block dominates the reader's, or comes first in the same block); elsewhere it is not
 * known. A definition is constant when it is unguarded, of an op below, and reads constants
 * (immediates, or registers known there). Each round folds the branches on known predicates,
 * kills what no path reaches and starts again (fewer definitions live, more registers with
 * one). Every value is the same for every lane and every path, so each rewrite keeps the
 * program's meaning exactly. Loads are never constants: the host may write a `.const`
 * variable or a parameter before the launch (ptxas reads both at run time too).
 *
 * Ops: mov (immediates, registers, a 64-bit pair's words packed and unpacked), and, or,
 * xor, not (also of predicates, where `x and false` and `x or true` need no x), shl, shr,
 * integer add and sub, setp (integers; floats without .ftz, no f32 subnormal), selp; of
 * floats add, sub, mul, fma and mad rounded to nearest, abs, neg, and cvt.rzi, .rni, .rmi and
 * .rpi to their own type (not into or from a NaN or an f32 subnormal, not under .ftz or
 * .sat: IEEE 754's results, the oracle's; nvcc's inlined powf tests the parity of its
 * exponent as |c - 2 trunc(c / 2)| == 1); values of 32 or 64 bits and predicates. An
 * instruction whose guard is a constant always runs (selected unguarded, and folded like the
 * others) or never (left out).
 */
#include <math.h>
#include <string.h>
#include "backend/be.h"

enum { KMAX = 4 };          /* results of one instruction: setp's two, mov's unpacked words */

typedef struct {
	Fn *f;
	int *ndef;              /* per PTX register: definitions in live blocks */
	int *defins;            /* the one definition's PTX instruction */
	int *defblk;            /* and its block */
	uint8_t *known;         /* per PTX register: its one definition is constant */
	uint64_t *val;          /* that constant (predicates 0 or 1) */
	int *blkof;             /* per PTX instruction: its live block, -1 */
	int changed;
} CF;

typedef struct {
	int n;                  /* results, in destination order (a vector's elements in turn) */
	uint8_t known[KMAX];
	uint64_t v[KMAX];
	int copy;               /* selp with a known predicate: the operand slot it picks, else -1 */
} KRes;

static uint64_t mask(int bytes)
{
	return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

/* the PTX types whose values this pass knows: predicates and 32 or 64 bits */
static int ktype(int pt)
{
	return pt == PT_PRED || tbytes(pt) == 4 || tbytes(pt) == 8;
}

/* v, a bytes-wide value, sign-extended */
static int64_t sext(uint64_t v, int bytes)
{
	return bytes >= 8 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
}

/* register r is known at instruction i of block b */
static int reg_at(const CF *c, int r, int b, int i, uint64_t *v)
{
	const Fn *f = c->f;

	if (r < 0 || !c->known[r] || c->ndef[r] != 1)
		return 0;
	if (c->defblk[r] == b ? c->defins[r] >= i : !be_dominates(f, c->defblk[r], b))
		return 0;
	*v = c->val[r];
	return 1;
}

/* the value of source operand o, read as type pt at instruction i of block b */
static int opd_val(const CF *c, const POpd *o, int pt, int b, int i, uint64_t *v)
{
	const PFunc *pf = c->f->pf;
	int by = tbytes(pt);

	switch ((int)o->kind) {
	case POK_IMM:
		if (pt == PT_PRED) {
			*v = o->imm != 0;
			return 1;
		}
		if (tfloat(pt)) {
			if (by == 8 && (o->ikind == PIMM_F64 || o->ikind == PIMM_FLOAT)) {
				*v = (uint64_t)o->imm;
				return 1;
			}
			if (by == 4 && o->ikind == PIMM_F32) {
				*v = (uint64_t)o->imm & 0xffffffffu;
				return 1;
			}
			return 0;
		}
		if (o->ikind == PIMM_F32 || o->ikind == PIMM_F64 || o->ikind == PIMM_FLOAT)
			return 0;
		*v = (uint64_t)o->imm & mask(by);
		return 1;
	case POK_REG: {
		int rt = pf->regs[o->reg].type;
		if ((rt == PT_PRED) != (pt == PT_PRED) || (pt != PT_PRED && tbytes(rt) != by))
			return 0;
		if ((o->flags & POF_NEG) || !reg_at(c, o->reg, b, i, v))
			return 0;
		if (o->flags & POF_NOT)
			*v ^= 1;
		return 1;
	}
	default:
		return 0;
	}
}

static double f64_of(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static uint64_t bits_f64(double d) { uint64_t v; memcpy(&v, &d, 8); return v; }
static float f32_of(uint64_t v) { uint32_t w = (uint32_t)v; float x; memcpy(&x, &w, 4); return x; }
static uint64_t bits_f32(float x) { uint32_t w; memcpy(&w, &x, 4); return w; }

/* an f32 subnormal, which sm_1x code flushes even without .ftz: never folded */
static int sub32(uint64_t v)
{
	return (v & 0x7f800000u) == 0 && (v & 0x7fffffu) != 0;
}

/* x, a float of by bytes, is a number this pass folds: not a NaN (PTX's NaN is not the
 * host's), not an f32 subnormal */
static int fnum(int by, uint64_t x)
{
	return by == 8 ? !isnan(f64_of(x)) : !isnan(f32_of(x)) && !sub32(x);
}

static uint64_t fsign(int by)
{
	return by == 8 ? 1ull << 63 : 0x80000000u;
}

/* the float sources of add, sub, mul (x, y) or fma and mad (x, y, z) of type pt, all known
 * numbers, rounded to nearest (.rn, or none, which add, sub and mul round so), no .ftz, no
 * .sat: 1 */
static int fopds(const CF *c, const PIns *in, int pt, int b, int i, uint64_t *x, uint64_t *y,
                 uint64_t *z)
{
	int by = tbytes(pt), three = in->op == PO_FMA || in->op == PO_MAD;

	*z = 0;
	if ((in->m.rnd != PRND_RN && !(in->m.rnd == PRND_NONE && !three)) ||
	    (in->m.flags & (PMF_FTZ | PMF_SAT)) || in->nopd != (three ? 4 : 3))
		return 0;
	return opd_val(c, &in->o[1], pt, b, i, x) && fnum(by, *x) &&
	       opd_val(c, &in->o[2], pt, b, i, y) && fnum(by, *y) &&
	       (!three || (opd_val(c, &in->o[3], pt, b, i, z) && fnum(by, *z)));
}

/* x op y (fma and mad: x * y + z), floats of by bytes, rounded to nearest as IEEE 754 rounds
 * (the host's C11 arithmetic, no contraction; fma and fmaf round once): 1 and *r when the
 * result is a number fnum folds (inf - inf, a NaN, and an f32 subnormal result are not) */
static int farith(int op, int by, uint64_t x, uint64_t y, uint64_t z, uint64_t *r)
{
	if (by == 8) {
		double a = f64_of(x), d = f64_of(y), e = f64_of(z);
		*r = bits_f64(op == PO_ADD ? a + d : op == PO_SUB ? a - d : op == PO_MUL ? a * d :
		              fma(a, d, e));
	} else {
		float a = f32_of(x), d = f32_of(y), e = f32_of(z);
		*r = bits_f32(op == PO_ADD ? a + d : op == PO_SUB ? a - d : op == PO_MUL ? a * d :
		              fmaf(a, d, e));
	}
	return fnum(by, *r);
}

/* cvt.rzi, .rni, .rmi or .rpi of x, a float number of by bytes, to its own type: 1 and *r
 * (.rni: to nearest, ties to even, as nearbyint rounds in the default mode) */
static int fint(int rnd, int by, uint64_t x, uint64_t *r)
{
	double (*f)(double) = rnd == PRND_RZI ? trunc : rnd == PRND_RNI ? nearbyint :
	                      rnd == PRND_RMI ? floor : rnd == PRND_RPI ? ceil : NULL;
	float (*g)(float) = rnd == PRND_RZI ? truncf : rnd == PRND_RNI ? nearbyintf :
	                    rnd == PRND_RMI ? floorf : rnd == PRND_RPI ? ceilf : NULL;

	if (!f)
		return 0;
	*r = by == 8 ? bits_f64(f(f64_of(x))) : bits_f32(g(f32_of(x)));
	return 1;
}

/* a cmp b of type pt (frontend's ptx_icmp and ptx_fcmp, the oracle's too); -1 when it is not
 * folded */
static int compare(int cmp, int pt, uint64_t a, uint64_t b)
{
	if (!tfloat(pt))
		return ptx_icmp(cmp, a, b, 8 * tbytes(pt), tsigned(pt));
	if (tbytes(pt) == 4) {
		if (sub32(a) || sub32(b))
			return -1;
		return ptx_fcmp(cmp, isnan(f32_of(a)) || isnan(f32_of(b)), f32_of(a), f32_of(b));
	}
	return ptx_fcmp(cmp, isnan(f64_of(a)) || isnan(f64_of(b)), f64_of(a), f64_of(b));
}

/* x bop y with either maybe unknown (kx, ky): whether known, in *r */
static int combine(int bop, int kx, uint64_t x, int ky, uint64_t y, uint64_t *r)
{
	if (kx && ky) {
		*r = bop == PBOP_OR ? (x | y) : bop == PBOP_XOR ? (x ^ y) : (x & y);
		return 1;
	}
	if (bop == PBOP_XOR || !(kx || ky))
		return 0;
	*r = kx ? x : y;   /* x and false, x or true: the known one decides */
	return bop == PBOP_OR ? *r == 1 : *r == 0;
}

static void res_set(KRes *k, int e, int known, uint64_t v)
{
	k->known[e] = (uint8_t)known;
	k->v[e] = v;
}

/* in's guard at instruction i of block b: 1 it holds, 0 it does not, -1 not known (no guard:
 * 1) */
static int guard_at(const CF *c, const PIns *in, int b, int i)
{
	uint64_t v;

	if (in->guard < 0)
		return 1;
	if (!reg_at(c, in->guard, b, i, &v))
		return -1;
	return (int)(v ^ in->gneg);
}

/* what PTX instruction i (in block b) makes, as far as it is known */
static void eval(const CF *c, const PIns *in, int b, int i, KRes *k)
{
	int pt = in->m.types[0], by = tbytes(pt);
	const POpd *o = in->o;
	uint64_t x = 0, y = 0, z = 0, r = 0;
	int kx, ky;

	memset(k, 0, sizeof *k);
	k->copy = -1;
	if (in->nopd < 2 || guard_at(c, in, b, i) != 1 || !ktype(pt) ||
	    (o[0].kind == POK_VEC && o[0].nelems > KMAX))
		return;
	k->n = o[0].kind == POK_VEC ? o[0].nelems : 1;
	switch ((int)in->op) {
	case PO_MOV:
		if (o[0].kind == POK_VEC && o[1].kind == POK_REG) {   /* unpack a pair's words */
			if (by != 8 || o[0].nelems != 2 || !opd_val(c, &o[1], pt, b, i, &x))
				return;
			res_set(k, 0, 1, x & 0xffffffffu);
			res_set(k, 1, 1, x >> 32);
		} else if (o[0].kind == POK_REG && o[1].kind == POK_VEC) {   /* pack */
			if (by != 8 || o[1].nelems != 2 || !opd_val(c, &o[1].elems[0], PT_B32, b, i, &x) ||
			    !opd_val(c, &o[1].elems[1], PT_B32, b, i, &y))
				return;
			res_set(k, 0, 1, x | y << 32);
		} else if (o[0].kind == POK_REG && opd_val(c, &o[1], pt, b, i, &x)) {
			res_set(k, 0, 1, x);
		}
		return;
	case PO_AND: case PO_OR: case PO_XOR: {
		int bop = in->op == PO_AND ? PBOP_AND : in->op == PO_OR ? PBOP_OR : PBOP_XOR;
		kx = opd_val(c, &o[1], pt, b, i, &x);
		ky = opd_val(c, &o[2], pt, b, i, &y);
		if (pt == PT_PRED) {
			kx = combine(bop, kx, x, ky, y, &r);
			res_set(k, 0, kx, r);
		} else if (kx && ky)
			res_set(k, 0, 1, (bop == PBOP_AND ? x & y : bop == PBOP_OR ? x | y : x ^ y) & mask(by));
		return;
	}
	case PO_ABS: case PO_NEG:
		/* of a float: its sign bit cleared or flipped (the oracle's or_funary) */
		if (tfloat(pt) && !(in->m.flags & PMF_FTZ) && opd_val(c, &o[1], pt, b, i, &x) &&
		    fnum(by, x))
			res_set(k, 0, 1, in->op == PO_ABS ? x & ~fsign(by) : x ^ fsign(by));
		return;
	case PO_NOT:
		if (opd_val(c, &o[1], pt, b, i, &x))
			res_set(k, 0, 1, pt == PT_PRED ? x ^ 1 : ~x & mask(by));
		return;
	case PO_SHL: case PO_SHR:
		if (pt == PT_PRED || !opd_val(c, &o[1], pt, b, i, &x) || !opd_val(c, &o[2], PT_U32, b, i, &y))
			return;
		if (in->op == PO_SHL) {
			r = y >= (uint64_t)by * 8 ? 0 : x << y;
		} else if (tsigned(pt)) {
			r = (uint64_t)(sext(x, by) >> (y >= (uint64_t)by * 8 ? by * 8 - 1 : (int)y));
		} else {
			r = y >= (uint64_t)by * 8 ? 0 : x >> y;
		}
		res_set(k, 0, 1, r & mask(by));
		return;
	case PO_ADD: case PO_SUB: case PO_MUL: case PO_FMA: case PO_MAD:
		if (tfloat(pt)) {
			if (fopds(c, in, pt, b, i, &x, &y, &z) && farith(in->op, by, x, y, z, &r))
				res_set(k, 0, 1, r);
			return;
		}
		if (in->op != PO_ADD && in->op != PO_SUB)
			return;
		if (pt == PT_PRED || (in->m.flags & (PMF_CC | PMF_SAT)) ||
		    !opd_val(c, &o[1], pt, b, i, &x) || !opd_val(c, &o[2], pt, b, i, &y))
			return;
		res_set(k, 0, 1, (in->op == PO_ADD ? x + y : x - y) & mask(by));
		return;
	case PO_SETP: {
		int kc = 0, t, bop = in->m.bop;
		k->n = 2;
		if ((in->m.flags & PMF_FTZ) || pt == PT_PRED)
			return;
		kx = opd_val(c, &o[2], pt, b, i, &x) && opd_val(c, &o[3], pt, b, i, &y);
		t = kx ? compare(in->m.cmp, pt, x, y) : -1;
		if (in->nopd == 5)
			kc = opd_val(c, &o[4], PT_PRED, b, i, &z);
		else
			bop = PBOP_AND, kc = 1, z = 1;
		kx = combine(bop, t >= 0, (uint64_t)t, kc, z, &r);
		res_set(k, 0, kx, r);
		ky = combine(bop, t >= 0, (uint64_t)!t, kc, z, &y);
		res_set(k, 1, ky, y);
		return;
	}
	case PO_SELP:
		if (!opd_val(c, &o[3], PT_PRED, b, i, &z))
			return;
		k->copy = z ? 1 : 2;
		if (opd_val(c, &o[k->copy], pt, b, i, &x))
			res_set(k, 0, 1, x);
		return;
	case PO_CVT:
		if (in->m.types[1] != pt || !tfloat(pt) || (in->m.flags & (PMF_FTZ | PMF_SAT)) ||
		    !opd_val(c, &o[1], pt, b, i, &x) || !fnum(by, x))
			return;
		if (fint(in->m.rnd, by, x, &r))
			res_set(k, 0, 1, r);
		return;
	default:
		return;
	}
}

/* destination e of in (in eval's order): its register, or -1 (a sink, or none); be_isel's
 * moves of a folded instruction's results too */
int be_cfold_dst(const PIns *in, int e)
{
	const POpd *d = in->o[0].kind == POK_VEC ? &in->o[0].elems[e] : &in->o[e];

	if (in->op != PO_SETP && in->o[0].kind != POK_VEC && e > 0)
		return -1;
	return d->kind == POK_REG ? d->reg : -1;
}

/* every result of k that has a destination is known (and the destination holds one) */
static int all_known(const PFunc *pf, const PIns *in, const KRes *k)
{
	int any = 0;

	for (int e = 0; e < k->n; e++) {
		int r = be_cfold_dst(in, e);
		if (r < 0)
			continue;
		if (!k->known[e] || !ktype(pf->regs[r].type) || pf->regs[r].vec > 1)
			return 0;
		any = 1;
	}
	return any;
}

/* ------------------------------------------------------------------ definitions */
/* the registers instruction i (in block b) writes (reach.c's be_ins_dst), each a definition */
static void defs_of(CF *c, const PIns *in, int i, int b)
{
	for (int k = 0, r; (r = be_ins_dst(in, k)) >= 0; k++)
		if (c->ndef[r]++ == 0) {
			c->defins[r] = i;
			c->defblk[r] = b;
		}
}

/* the live blocks' definitions; every register unknown */
static void count_defs(CF *c)
{
	Fn *f = c->f;
	const PFunc *pf = f->pf;

	memset(c->ndef, 0, sizeof(int) * (size_t)(pf->nregs + 1));
	memset(c->known, 0, (size_t)pf->nregs + 1);
	for (int i = 0; i < pf->nins; i++)
		c->blkof[i] = -1;
	for (int b = 0; b < f->nblk; b++) {
		const Blk *B = &f->blk[b];
		if (B->dead)
			continue;
		for (int i = B->pfirst; i < B->plast && i < pf->nins; i++) {
			c->blkof[i] = b;
			defs_of(c, &pf->ins[i], i, b);
		}
	}
}

/* known values to a fixed point (they only grow) */
static void propagate(CF *c)
{
	Fn *f = c->f;
	const PFunc *pf = f->pf;

	do {
		c->changed = 0;
		for (int i = 0; i < pf->nins; i++) {
			KRes k;
			int b = c->blkof[i];
			if (b < 0)
				continue;
			eval(c, &pf->ins[i], b, i, &k);
			for (int e = 0; e < k.n; e++) {
				int r = be_cfold_dst(&pf->ins[i], e);
				if (r < 0 || !k.known[e] || c->ndef[r] != 1 || c->known[r])
					continue;
				c->known[r] = 1;
				c->val[r] = k.v[e];
				c->changed = 1;
			}
		}
	} while (c->changed);
}

static void note_bra(Fn *f, int ptxins, int how)
{
	BeKBra *k = VPUSH(f->pool, f->kbra, f->nkbra, f->capkbra);

	k->ptxins = ptxins;
	k->how = how;
}

/* branches on known predicates become jumps; 1 when one did */
static int fold_branches(CF *c)
{
	Fn *f = c->f;
	const PFunc *pf = f->pf;
	int n = 0;

	for (int b = 0; b < f->nblk; b++) {
		Blk *B = &f->blk[b];
		const PIns *br;
		uint64_t v;
		if (B->dead || B->jmp.kind != J_BRA || B->jmp.ptxins < 0)
			continue;
		br = &pf->ins[B->jmp.ptxins];
		if (br->guard < 0 || !reg_at(c, br->guard, b, B->jmp.ptxins, &v))
			continue;
		if (br->gneg)
			v ^= 1;
		note_bra(f, B->jmp.ptxins, v ? BE_KB_ALWAYS : BE_KB_NEVER);
		B->jmp.kind = J_JMP;
		B->s1 = v ? B->s1 : B->s2;
		B->s2 = -1;
		n++;
	}
	return n > 0;
}

/* ------------------------------------------------------------------ what selection makes */
static void reads(const POpd *o, int *uses, int add)
{
	if ((o->kind == POK_REG || o->kind == POK_ADDR) && o->reg >= 0)
		uses[o->reg] += add;
	if (o->kind == POK_VEC || o->kind == POK_LIST)
		for (int e = 0; e < o->nelems; e++)
			reads(&o->elems[e], uses, add);
}

/* the registers in reads (add: +1 or -1 each); k: its entry of Fn.kres or NULL */
static void ins_reads(const PIns *in, const BeKFold *k, int *uses, int add)
{
	if (k && (k->kind == BE_K_CONST || k->kind == BE_K_DEAD))
		return;
	if (in->guard >= 0 && !(k && k->kind == BE_K_UNGUARD))
		uses[in->guard] += add;
	for (int s = 0; s < in->nopd; s++)
		if (!ptx_ins_writes(in, s) && (!k || k->kind != BE_K_COPY || s == k->copy))
			/* (a copy reads only the operand it picks) */
			reads(&in->o[s], uses, add);
}

/* the reads of every register in blocks [0, f->nblk) that are live, or all (before folding) */
static void count_uses(const Fn *f, int *uses, int all)
{
	const PFunc *pf = f->pf;

	for (int b = 0; b < f->nblk; b++) {
		const Blk *B = &f->blk[b];
		if (B->dead && !all)
			continue;
		if (B->jmp.ptxins >= 0 && (all || B->jmp.kind == J_BRA || B->jmp.kind == J_BRX))
			ins_reads(&pf->ins[B->jmp.ptxins], NULL, uses, 1);
		for (int i = B->pfirst; i < B->plast && i < pf->nins; i++)
			ins_reads(&pf->ins[i], f->kfold && f->kfold[i] >= 0 ? &f->kres[f->kfold[i]] : NULL,
			          uses, 1);
	}
}

/* an instruction whose only effect is its results */
static int pure(const PIns *in)
{
	int cls = ptx_ops[in->op].cls;

	return (cls == PC_ARITH || cls == PC_FLOAT || cls == PC_CMP || cls == PC_LOGIC ||
	        cls == PC_MOVE || cls == PC_CONV) && !(ptx_ops[in->op].flags & (PF_CARRY | PF_LOAD)) &&
	       !(in->m.flags & PMF_CC);
}

/* every register in writes is read no more, and was before folding */
static int unread(const PIns *in, const int *uses, const int *orig)
{
	int any = 0;

	for (int s = 0; s < in->nopd; s++) {
		const POpd *o = &in->o[s];
		if (!ptx_ins_writes(in, s))
			continue;
		for (int e = 0; e < (o->kind == POK_VEC ? o->nelems : 1); e++) {
			const POpd *d = o->kind == POK_VEC ? &o->elems[e] : o;
			if (d->kind == POK_SINK)
				continue;
			if (d->kind != POK_REG || uses[d->reg] || !orig[d->reg])
				return 0;
			any = 1;
		}
	}
	return any;
}

static BeKFold *kentry(Fn *f, int i, int *capk)
{
	if (f->kfold[i] < 0) {
		BeKFold *x = VPUSH(f->pool, f->kres, f->nkres, *capk);
		memset(x, 0, sizeof *x);
		x->copy = -1;
		f->kfold[i] = f->nkres - 1;
	}
	return &f->kres[f->kfold[i]];
}

/* Fn.kfold and Fn.kres from the values known: constants, copies, and the instructions left
 * out (dead code elimination of what folding left unread: a pure instruction whose results
 * had readers before and have none now, until none is left) */
static void mark(CF *c, const int *orig)
{
	Fn *f = c->f;
	const PFunc *pf = f->pf;
	int *uses = be_alloc(f->pool, sizeof(int) * (size_t)(pf->nregs + 1)), capk = 0, more = 1;

	f->kfold = be_alloc(f->pool, sizeof(int) * (size_t)(pf->nins + 1));
	f->kres = NULL;
	f->nkres = 0;
	for (int i = 0; i < pf->nins; i++) {
		KRes k;
		const PIns *in = &pf->ins[i];
		int b = c->blkof[i];
		f->kfold[i] = -1;
		if (b < 0)
			continue;
		eval(c, in, b, i, &k);
		if (all_known(pf, in, &k) || k.copy >= 0) {
			BeKFold *x = kentry(f, i, &capk);
			x->kind = all_known(pf, in, &k) ? BE_K_CONST : BE_K_COPY;
			x->copy = (int8_t)(x->kind == BE_K_COPY ? k.copy : -1);
			x->n = (uint8_t)k.n;
			memcpy(x->v, k.v, sizeof x->v);
		} else if (in->guard >= 0 && guard_at(c, in, b, i) >= 0) {
			/* a constant guard: the instruction always runs, or never */
			kentry(f, i, &capk)->kind = guard_at(c, in, b, i) ? BE_K_UNGUARD : BE_K_DEAD;
		}
	}
	count_uses(f, uses, 0);
	while (more) {
		more = 0;
		for (int i = 0; i < pf->nins; i++) {
			const PIns *in = &pf->ins[i];
			BeKFold *x = f->kfold[i] >= 0 ? &f->kres[f->kfold[i]] : NULL;
			if (c->blkof[i] < 0 || (x && x->kind == BE_K_DEAD) || !pure(in) ||
			    !unread(in, uses, orig))
				continue;
			ins_reads(in, x, uses, -1);
			kentry(f, i, &capk)->kind = BE_K_DEAD;
			more = 1;
		}
	}
}

/* b, or where the blocks folding emptied lead from b (every instruction left out, a jump) */
static int through(const Fn *f, int b)
{
	for (int n = 0; b >= 0 && n < f->nblk; n++) {
		const Blk *B = &f->blk[b];
		int empty = B->jmp.kind == J_JMP && B->pfirst < B->plast;
		for (int i = B->pfirst; empty && i < B->plast; i++)
			empty = f->kfold[i] >= 0 && f->kres[f->kfold[i]].kind == BE_K_DEAD;
		if (!empty)
			return b;
		b = B->s1;
	}
	return b;
}

/* a branch whose two ways meet at once, past blocks folding emptied, becomes a jump there;
 * 1 when one did */
static int thread(Fn *f)
{
	int n = 0;

	for (int b = 0; b < f->nblk; b++) {
		Blk *B = &f->blk[b];
		int t;
		if (B->dead || B->jmp.kind != J_BRA || (t = through(f, B->s1)) != through(f, B->s2))
			continue;
		if (B->jmp.ptxins >= 0)
			note_bra(f, B->jmp.ptxins, BE_KB_MEET);
		B->jmp.kind = J_JMP;
		B->s1 = t;
		B->s2 = -1;
		n++;
	}
	return n > 0;
}

void be_cfold(Fn *f)
{
	const PFunc *pf = f->pf;
	size_t nr = (size_t)pf->nregs + 1;
	CF c = {f, be_alloc(f->pool, sizeof(int) * nr), be_alloc(f->pool, sizeof(int) * nr),
	        be_alloc(f->pool, sizeof(int) * nr), be_alloc(f->pool, nr),
	        be_alloc(f->pool, sizeof(uint64_t) * nr),
	        be_alloc(f->pool, sizeof(int) * ((size_t)pf->nins + 1)), 0};
	int *orig = be_alloc(f->pool, sizeof(int) * nr);
	uint8_t *live = be_alloc(f->pool, (size_t)f->nblk + 1);

	count_uses(f, orig, 1);
	be_rpo(f);
	be_dom(f);
	for (int b = 0; b < f->nblk; b++)
		live[b] = !f->blk[b].dead;
	for (;;) {
		count_defs(&c);
		propagate(&c);
		if (!fold_branches(&c)) {
			mark(&c, orig);
			if (!thread(f))
				break;
		}
		be_preds(f);
		be_rpo(f);
		be_dom(f);
	}
	/* the conditional branches of the blocks folding killed */
	for (int b = 0; b < f->nblk; b++) {
		const Blk *B = &f->blk[b];
		if (live[b] && B->dead && (B->jmp.kind == J_BRA || B->jmp.kind == J_BRX) &&
		    B->jmp.ptxins >= 0)
			note_bra(f, B->jmp.ptxins, BE_KB_DEAD);
	}
}

