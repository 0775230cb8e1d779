/* exec.c - functional execution at issue: the decoder (Ins -> DIns once per launch, constant
 * operands read once, in decode.c) and sim_issue, the one switch over Op that executes a warp instruction
 * for its active, guard-true lanes and reports what the timing model needs in an ExecInfo.
 * No allocation happens here. Control ops and barriers are in crs.c. */
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "sim/machine.h"

#define FOR_LANES(m) \
	for (uint32_t m_ = (m), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)
#define REG(row, l) (w->r[(size_t)(row) * 32 + (l)])
/* four lanes (GNU vector extensions: SSE2 on x86-64, scalar code elsewhere) */
typedef uint32_t V4U __attribute__((vector_size(16)));
typedef int32_t V4S __attribute__((vector_size(16)));

static int is64(Type t) { return t == TY_B64 || t == TY_U64 || t == TY_S64 || t == TY_F64; }
static int issgn(Type t) { return t == TY_S8 || t == TY_S16 || t == TY_S32 || t == TY_S64; }

/* ---------------------------------------------------------------- operands */
static uint64_t constx(Gpu *g, const Warp *w, const DOpd *o, unsigned l, unsigned size)
{
	uint64_t off = (uint64_t)REG(o->reg, l) + o->imm, v = 0;

	if (!dev_mem_cread(g->mem, o->bank, off, &v, size) && g->fault_lane < 0) {
		g->fault_lane = (int)l;
		g->fault_off = off;
	}
	return v;
}

static inline uint32_t src(Gpu *g, const Warp *w, const DOpd *o, unsigned l)
{
	if (o->kind == DK_REG)
		return REG(o->reg, l);
	if (o->kind == DK_CONSTX)
		return (uint32_t)constx(g, w, o, l, 4);
	return (uint32_t)o->imm;
}

static inline uint64_t src64(Gpu *g, const Warp *w, const DOpd *o, unsigned l)
{
	if (o->kind == DK_REG)
		return REG(o->reg, l) | (uint64_t)REG(o->reg + 1, l) << 32;
	if (o->kind == DK_CONSTX)
		return constx(g, w, o, l, 8);
	return o->imm;
}

static inline uint32_t pmask(const Warp *w, const DOpd *o)
{
	uint32_t p = w->p[o->reg];
	return (o->flags & OPF_NOT) ? ~p : p;
}

static inline void setp(Warp *w, const DOpd *o, uint32_t val, uint32_t ex)
{
	w->p[o->reg] = (w->p[o->reg] & ~ex) | (val & ex);
	w->p[ISA_PT] = 0xffffffffu;
}

static inline uint32_t imods(uint32_t v, uint8_t f)
{
	if (f & OPF_NOT) v = ~v;
	if (f & OPF_ABS) v = (int32_t)v < 0 ? -v : v;
	if (f & OPF_NEG) v = -v;
	return v;
}

static inline uint32_t fmods(uint32_t v, uint8_t f)
{
	if (f & OPF_ABS) v &= 0x7fffffffu;
	if (f & OPF_NEG) v ^= 0x80000000u;
	return v;
}

/* a float operand's 32 lanes as an array: the register row itself, or buf filled (an
 * immediate, source modifiers applied to the lanes of ex); NULL for c[bank][R + off], which
 * is read per lane (it may fault) */
static inline const uint32_t *fop32(const Warp *w, const DOpd *o, uint32_t ex, uint32_t *buf)
{
	if (o->kind == DK_CONSTX)
		return NULL;
	if (o->kind == DK_REG) {
		const uint32_t *r = &w->r[(size_t)o->reg * 32];
		if (!o->flags)
			return r;
		for (uint32_t m = ex; m; m &= m - 1)
			buf[__builtin_ctz(m)] = fmods(r[__builtin_ctz(m)], o->flags);
		return buf;
	}
	for (int i = 0; i < 32; i++)
		buf[i] = fmods((uint32_t)o->imm, o->flags);
	return buf;
}

static inline uint64_t dmods(uint64_t v, uint8_t f)
{
	if (f & OPF_ABS) v &= ~(1ull << 63);
	if (f & OPF_NEG) v ^= 1ull << 63;
	return v;
}

static inline void wr64(Warp *w, const DOpd *o, unsigned l, uint64_t v)
{
	REG(o->reg, l) = (uint32_t)v;
	REG(o->reg + 1, l) = (uint32_t)(v >> 32);
}

static uint32_t cmask(const Warp *w, CCTest t)
{
	uint32_t s = w->cc[0], c = w->cc[1], z = w->cc[2], o = w->cc[3];

	switch (t) {
	case CCT_F: case CCT_NAN: return 0;
	case CCT_T: case CCT_NUM: return ~0u;
	case CCT_LT: case CCT_LTU: return s ^ o;
	case CCT_EQ: case CCT_EQU: return z;
	case CCT_LE: case CCT_LEU: return z | (s ^ o);
	case CCT_GT: case CCT_GTU: return ~z & ~(s ^ o);
	case CCT_NE: case CCT_NEU: return ~z;
	case CCT_GE: case CCT_GEU: return ~(s ^ o);
	case CCT_OFF: return ~o;
	case CCT_OFT: return o;
	case CCT_LO: return ~c;
	case CCT_LS: return ~c | z;
	case CCT_HI: return c & ~z;
	case CCT_HS: return c;
	case CCT_SFF: return ~s;
	case CCT_SFT: return s;
	case CCT_COUNT: break;
	}
	return 0;
}

static inline void setcc(Warp *w, unsigned l, unsigned f)
{
	uint32_t b = 1u << l;

	for (int i = 0; i < 4; i++)
		w->cc[i] = (f >> i & 1) ? (w->cc[i] | b) : (w->cc[i] & ~b);
}

static inline unsigned ccof(Warp *w, unsigned l)
{
	unsigned f = 0;

	for (int i = 0; i < 4; i++)
		f |= (w->cc[i] >> l & 1) << i;
	return f;
}

/* flags of a 32-bit sum of u + v + cin (u, v already inverted for subtraction) */
static unsigned addflags(uint32_t u, uint32_t v, uint64_t sum, int x, unsigned old)
{
	uint32_t r = (uint32_t)sum;
	unsigned f = 0;

	if (r >> 31) f |= CC_S;
	if (sum >> 32) f |= CC_C;
	if (r == 0 && (!x || (old & CC_Z))) f |= CC_Z;
	if (((u ^ r) & (v ^ r)) >> 31) f |= CC_O;
	return f;
}

static uint32_t sreg(Gpu *g, const Warp *w, SReg s, unsigned l)
{
	const Cta *c = w->cta;
	uint32_t t = (uint32_t)w->idx * 32 + l;    /* linear thread index */

	switch (s) {
	case SR_TID_X: return t % g->block[0];
	case SR_TID_Y: return t / g->block[0] % g->block[1];
	case SR_TID_Z: return t / (g->block[0] * g->block[1]);
	case SR_NTID_X: return g->block[0];
	case SR_NTID_Y: return g->block[1];
	case SR_NTID_Z: return g->block[2];
	case SR_CTAID_X: return c->id[0];
	case SR_CTAID_Y: return c->id[1];
	case SR_CTAID_Z: return c->id[2];
	case SR_NCTAID_X: return g->grid[0];
	case SR_NCTAID_Y: return g->grid[1];
	case SR_NCTAID_Z: return g->grid[2];
	case SR_LANEID: return l;
	case SR_WARPID: return (uint32_t)(c->slot * g->wpc + w->idx);
	case SR_NWARPID: return (uint32_t)g->cfg.tc.max_warps;
	case SR_SMID: return (uint32_t)c->sm;
	case SR_NSMID: return (uint32_t)g->cfg.tc.sms;
	case SR_GRIDID: return 1;
	case SR_CLOCKLO: return (uint32_t)g->cycle;
	case SR_CLOCKHI: return (uint32_t)(g->cycle >> 32);
	case SR_GLOBALTIMERLO: return (uint32_t)(g->cycle * 1000);
	case SR_GLOBALTIMERHI: return (uint32_t)((g->cycle * 1000) >> 32);
	case SR_EQMASK: return 1u << l;
	case SR_LTMASK: return (1u << l) - 1;
	case SR_LEMASK: return (uint32_t)((2ull << l) - 1);
	case SR_GTMASK: return ~(uint32_t)((2ull << l) - 1);
	case SR_GEMASK: return ~((1u << l) - 1);
	case SR_COUNT: break;
	}
	return 0;
}

/* ---------------------------------------------------------------- memory */
static unsigned msize(Type t)
{
	switch (t) {
	case TY_U8: case TY_S8: return 1;
	case TY_U16: case TY_S16: case TY_F16: return 2;
	case TY_B64: case TY_U64: case TY_S64: case TY_F64: return 8;
	case TY_B128: return 16;
	case TY_NONE: case TY_U32: case TY_S32: case TY_F32: case TY_COUNT: break;
	}
	return 4;
}

static const char *what(int store, int atom)
{
	return atom ? "atomic" : store ? "store" : "load";
}

static void describe(Gpu *g, uint64_t addr, char *buf, size_t n)
{
	const MemAlloc *best = NULL;

	for (int i = 0; i < g->mem->n; i++)
		if (g->mem->a[i].base <= addr)
			best = &g->mem->a[i];
	if (best && addr - best->base == best->size)
		snprintf(buf, n, " (right after the end of %s, %" PRIu64 " bytes at 0x%" PRIx64 ")",
		         best->name, best->size, best->base);
	else if (best && addr - best->base > best->size)
		snprintf(buf, n, " (%" PRIu64 " bytes past the end of %s, %" PRIu64 " bytes at 0x%" PRIx64 ")",
		         addr - best->base - best->size, best->name, best->size, best->base);
	else if (best)
		snprintf(buf, n, " (the access runs past the end of %s, %" PRIu64 " bytes at 0x%" PRIx64 ")",
		         best->name, best->size, best->base);
	else
		buf[0] = 0;
}

/* host pointer of a generic (LD/ST/ATOM/RED) or explicit-space access, or NULL after a fault */
static uint8_t *mem_at(Gpu *g, Warp *w, unsigned l, int space, uint64_t addr, unsigned size,
                       int store, int atom, uint8_t *sp)
{
	Cta *c = w->cta;
	uint8_t *p;
	char buf[256];

	if (space == SP_GLOBAL) {
		if (addr - DEV_SHARED_WINDOW < DEV_WINDOW_SIZE)
			space = SP_SHARED, addr -= DEV_SHARED_WINDOW;
		else if (addr - DEV_LOCAL_WINDOW < DEV_WINDOW_SIZE)
			space = SP_LOCAL, addr -= DEV_LOCAL_WINDOW;
	}
	*sp = (uint8_t)space;
	if (addr & (size - 1)) {
		sim_fault(g, w, (int)l, SIM_FAULT, "misaligned %s %s of %u bytes at 0x%" PRIx64,
		          space == SP_SHARED ? "shared" : space == SP_LOCAL ? "local" : "global",
		          what(store, atom), size, addr);
		return NULL;
	}
	switch (space) {
	case SP_SHARED:
		if (addr < g->shsize && g->shsize - addr >= size)
			return c->shared + addr;
		sim_fault(g, w, (int)l, SIM_FAULT, "shared %s of %u bytes at 0x%" PRIx64
		          " is outside the CTA's %u bytes of shared memory", what(store, atom), size, addr,
		          g->shsize);
		return NULL;
	case SP_LOCAL:
		if (addr < g->locsize && g->locsize - addr >= size)
			return w->local + (size_t)l * g->locsize + addr;
		sim_fault(g, w, (int)l, SIM_FAULT, "local %s of %u bytes at 0x%" PRIx64
		          " is outside the thread's %u bytes of local memory", what(store, atom), size,
		          addr, g->locsize);
		return NULL;
	default:
		if ((p = dev_mem_global(g->mem, addr, size)))
			return p;
		describe(g, addr, buf, sizeof buf);
		sim_fault(g, w, (int)l, SIM_FAULT, "global %s of %u bytes at 0x%016" PRIx64
		          " is outside every allocation%s", what(store, atom), size, addr, buf);
		return NULL;
	}
}

static inline uint64_t addr_of(const Warp *w, const DOpd *o, unsigned l, int wide)
{
	uint64_t base = REG(o->reg, l);

	if (wide)
		base |= (uint64_t)REG(o->reg + 1, l) << 32;
	return base + o->imm;
}

/* loads and stores of every space: LD ST LDS STS LDL STL LDSLK STSUL */
static int ldst(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e, int space, int store)
{
	Type t = (Type)d->m.dtype;
	unsigned size = msize(t);
	const DOpd *mo = store ? &d->o[0] : &d->o[d->op == OP_LDSLK ? 2 : 1];
	const DOpd *ro = store ? &d->o[1] : &d->o[d->op == OP_LDSLK ? 1 : 0];
	int wide = space == SP_GLOBAL && (d->m.flags & MF_E);
	uint32_t got = 0;

	e->size = (uint8_t)size;
	e->naddr = ex;
	FOR_LANES(ex) {
		uint64_t a = addr_of(w, mo, l, wide);
		uint8_t *p;
		if (space != SP_GLOBAL)
			a = (uint64_t)(int64_t)(int32_t)(uint32_t)a;   /* 32-bit offsets */
		if (!(p = mem_at(g, w, l, space, a, size, store, 0, &e->space)))
			return SIM_FAULT;
		e->addr[l] = a;
		if (store) {
			for (unsigned i = 0; i < size; i += 4)
				dev_st(p + i, size < 4 ? size : 4, REG(ro->reg + i / 4, l));
			if (d->op == OP_STSUL)
				w->cta->locks[(p - w->cta->shared) / 4] = 0;
		} else {
			if (size < 4) {
				uint32_t v = (uint32_t)dev_ld(p, size);
				if (t == TY_S8) v = (uint32_t)(int32_t)(int8_t)v;
				if (t == TY_S16) v = (uint32_t)(int32_t)(int16_t)v;
				REG(ro->reg, l) = v;
			} else
				for (unsigned i = 0; i < size; i += 4)
					REG(ro->reg + i / 4, l) = (uint32_t)dev_ld(p + i, 4);
			if (d->op == OP_LDSLK) {
				uint8_t *lk = &w->cta->locks[(p - w->cta->shared) / 4];
				if (!*lk) {
					*lk = 1;
					got |= 1u << l;
				}
			}
		}
	}
	if (d->op == OP_LDSLK)
		setp(w, &d->o[0], got, ex);
	return SIM_OK;
}

/* ATOM ATOMS RED: lanes in ascending order, one read-modify-write each */
static int atomic(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e, int space)
{
	Type t = (Type)d->m.dtype == TY_NONE ? TY_U32 : (Type)d->m.dtype;
	unsigned size = is64(t) ? 8 : 4;
	int red = d->op == OP_RED;
	const DOpd *mo = red ? &d->o[0] : &d->o[1], *bo = red ? &d->o[1] : &d->o[2];
	int wide = space == SP_GLOBAL && (d->m.flags & MF_E);

	e->size = (uint8_t)size;
	e->naddr = ex;
	FOR_LANES(ex) {
		uint64_t a = addr_of(w, mo, l, wide), old, b, c = 0;
		uint8_t *p;
		if (space != SP_GLOBAL)
			a = (uint64_t)(int64_t)(int32_t)(uint32_t)a;
		if (!(p = mem_at(g, w, l, space, a, size, 1, 1, &e->space)))
			return SIM_FAULT;
		e->addr[l] = a;
		old = dev_ld(p, size);
		b = size == 8 ? src64(g, w, bo, l) : src(g, w, bo, l);
		if (!red && d->o[3].kind != DK_NONE)
			c = size == 8 ? src64(g, w, &d->o[3], l) : src(g, w, &d->o[3], l);
		dev_st(p, size, ar_atom((Sub)d->m.sub, t, old, b, c, !!(d->m.flags & MF_FTZ)));
		if (!red) {
			if (size == 8)
				wr64(w, &d->o[0], l, old);
			else
				REG(d->o[0].reg, l) = (uint32_t)old;
		}
	}
	return SIM_OK;
}

/* ---------------------------------------------------------------- warp-wide ops */
static void shfl(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t vals[32], ok = 0;

	for (unsigned l = 0; l < 32; l++)
		vals[l] = REG(d->o[2].reg, l);     /* every lane's value before any write */
	FOR_LANES(ex) {
		uint32_t b = src(g, w, &d->o[3], l) & 31, c = src(g, w, &d->o[4], l);
		uint32_t clamp = c & 31, seg = (c >> 8) & 31;
		uint32_t maxl = (l & seg) | (clamp & ~seg), minl = l & seg;
		uint32_t j = l;
		int p = 0;
		switch ((int)d->m.sub) {
		case SUB_UP: j = l - b; p = (int32_t)j >= (int32_t)maxl; break;
		case SUB_DOWN: j = l + b; p = j <= maxl; break;
		case SUB_BFLY: j = l ^ b; p = j <= maxl; break;
		default: j = minl | (b & ~seg); p = j <= maxl; break;   /* IDX */
		}
		if (!p)
			j = l;
		REG(d->o[1].reg, l) = vals[j & 31];
		ok |= (uint32_t)p << l;
	}
	setp(w, &d->o[0], ok, ex);
}

static void match(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	int wide = is64((Type)d->m.dtype);
	uint64_t v[32];
	uint32_t alleq = 1;

	FOR_LANES(ex)
		v[l] = wide ? src64(g, w, &d->o[2], l) : src(g, w, &d->o[2], l);
	FOR_LANES(ex)
		if (v[l] != v[__builtin_ctz(ex)])
			alleq = 0;
	FOR_LANES(ex) {
		uint32_t m = 0;
		if (d->m.sub == SUB_ALL)
			m = alleq ? ex : 0;
		else
			for (uint32_t k = ex; k; k &= k - 1)
				if (v[__builtin_ctz(k)] == v[l])
					m |= 1u << __builtin_ctz(k);
		REG(d->o[1].reg, l) = m;
	}
	setp(w, &d->o[0], alleq ? ~0u : 0, ex);
}

static void redux(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	int sgn = issgn((Type)d->m.dtype);
	uint32_t acc = 0;
	int first = 1;

	FOR_LANES(ex) {
		uint32_t v = src(g, w, &d->o[1], l);
		if (first) {
			acc = v;
			first = 0;
			continue;
		}
		switch ((int)d->m.sub) {
		case SUB_MIN: acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
		case SUB_MAX: acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
		case SUB_AND: acc &= v; break;
		case SUB_OR: acc |= v; break;
		case SUB_XOR: acc ^= v; break;
		default: acc += v; break;     /* SUM */
		}
	}
	FOR_LANES(ex)
		REG(d->o[0].reg, l) = acc;
}

/* ---------------------------------------------------------------- integer helpers */
static Type itype(const DIns *d) { return d->m.dtype ? (Type)d->m.dtype : TY_S32; }

static void iadd(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	const DOpd *a = &d->o[1], *b = &d->o[2];
	int x = !!(d->m.flags & MF_X), cc = !!(d->m.flags & MF_CC), sat = !!(d->m.flags & MF_SAT);

	if (!x && !cc && !sat && !a->flags && !b->flags && a->kind == DK_REG) {
		uint32_t *rd = &REG(d->o[0].reg, 0);
		const uint32_t *ra = &REG(a->reg, 0);
		if (b->kind == DK_IMM) {               /* the common forms, without per-lane tests */
			uint32_t im = (uint32_t)b->imm;
			if (ex == ~0u) {                   /* every lane, four at a time */
				V4U vi = {im, im, im, im};
				for (int i = 0; i < 32; i += 4) {
					V4U va;
					memcpy(&va, ra + i, sizeof va);
					va += vi;
					memcpy(rd + i, &va, sizeof va);
				}
			} else
				FOR_LANES(ex) rd[l] = ra[l] + im;
			return;
		}
		if (b->kind == DK_REG) {
			const uint32_t *rb = &REG(b->reg, 0);
			if (ex == ~0u) {
				for (int i = 0; i < 32; i += 4) {
					V4U va, vb;
					memcpy(&va, ra + i, sizeof va);
					memcpy(&vb, rb + i, sizeof vb);
					va += vb;
					memcpy(rd + i, &va, sizeof va);
				}
			} else
				FOR_LANES(ex) rd[l] = ra[l] + rb[l];
			return;
		}
	}
	FOR_LANES(ex) {
		uint32_t u = src(g, w, a, l), v = src(g, w, b, l), ci = 0, r;
		uint64_t sum;
		unsigned old = (x || cc) ? ccof(w, l) : 0;
		if (a->flags & OPF_NOT) u = ~u;
		if (b->flags & OPF_NOT) v = ~v;
		if (a->flags & OPF_NEG) u = ~u, ci++;     /* -a = ~a + 1: the 1 enters as carry */
		if (b->flags & OPF_NEG) v = ~v, ci++;
		if (x)
			ci += !!(old & CC_C);
		sum = (uint64_t)u + v + ci;
		r = (uint32_t)sum;
		if (sat) {
			int64_t s = (int64_t)(int32_t)u + (int32_t)v + ci;
			r = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? (uint32_t)INT32_MIN : (uint32_t)s;
		}
		REG(d->o[0].reg, l) = r;
		if (cc)
			setcc(w, l, addflags(u, v, sum, x, old));
	}
}

static void imul(Gpu *g, Warp *w, const DIns *d, uint32_t ex, int mad)
{
	Type ta = itype(d), tb = d->m.stype ? (Type)d->m.stype : ta;
	int hi = !!(d->m.flags & MF_HI), wide = !!(d->m.flags & MF_WIDE);
	int x = !!(d->m.flags & MF_X), cc = !!(d->m.flags & MF_CC);

	FOR_LANES(ex) {
		uint32_t a = imods(src(g, w, &d->o[1], l), d->o[1].flags);
		uint32_t b = imods(src(g, w, &d->o[2], l), d->o[2].flags);
		int64_t sa = issgn(ta) ? (int64_t)(int32_t)a : (int64_t)a;
		int64_t sb = issgn(tb) ? (int64_t)(int32_t)b : (int64_t)b;
		uint64_t p = (uint64_t)sa * (uint64_t)sb, c = 0, r;
		unsigned old = (x || cc) ? ccof(w, l) : 0, f = 0;
		if (!mad) {
			REG(d->o[0].reg, l) = hi ? (uint32_t)(p >> 32) : (uint32_t)p;
			continue;
		}
		if (wide) {
			c = dmods(src64(g, w, &d->o[3], l), 0);
			if (d->o[3].flags & OPF_NEG) c = -c;
			uint64_t s1 = p + c, cin = x && (old & CC_C);
			int carry = s1 < p;
			r = s1 + cin;
			carry |= r < s1;
			wr64(w, &d->o[0], l, r);
			if (cc) {
				f = (r >> 63 ? CC_S : 0) | (carry ? CC_C : 0) |
				    (r == 0 && (!x || (old & CC_Z)) ? CC_Z : 0) |
				    (((p ^ r) & (c ^ r)) >> 63 ? CC_O : 0);
				setcc(w, l, f);
			}
			continue;
		}
		{
			uint32_t m = hi ? (uint32_t)(p >> 32) : (uint32_t)p, cv = src(g, w, &d->o[3], l), ci = 0;
			uint64_t sum;
			if (d->o[3].flags & OPF_NEG) cv = ~cv, ci = 1;
			if (x)
				ci += !!(old & CC_C);
			sum = (uint64_t)m + cv + ci;
			REG(d->o[0].reg, l) = (uint32_t)sum;
			if (cc)
				setcc(w, l, addflags(m, cv, sum, x, old));
		}
	}
}

/* lanes of a < b (signed or not) and a == b as masks, over all 32 lanes four at a time
 * (GNU vector extensions, which gcc and clang lower to SSE2 or to scalar code); b NULL: the
 * value bimm in every lane */
static void cmp32(const uint32_t *a, const uint32_t *b, uint32_t bimm, int sg, uint32_t *lt, uint32_t *eq)
{
	const int32_t flip = sg ? 0 : INT32_MIN;     /* unsigned order = signed order of a ^ 2^31 */
	V4S vf = {flip, flip, flip, flip}, wt = {1, 2, 4, 8}, vl = {0, 0, 0, 0}, ve = vl;
	V4S vb = {(int32_t)bimm, (int32_t)bimm, (int32_t)bimm, (int32_t)bimm};

	vb ^= vf;
	for (int j = 0; j < 8; j++) {
		V4S va;
		memcpy(&va, a + 4 * j, sizeof va);
		if (b) {
			memcpy(&vb, b + 4 * j, sizeof vb);
			vb ^= vf;
		}
		va ^= vf;
		vl |= (va < vb) & (wt << (4 * j));
		ve |= (va == vb) & (wt << (4 * j));
	}
	*lt = (uint32_t)(vl[0] | vl[1] | vl[2] | vl[3]);
	*eq = (uint32_t)(ve[0] | ve[1] | ve[2] | ve[3]);
}

/* ISETP/ISET: the compare of a and b as lane mask; .X extends a compare begun by IADD.CC on
 * the low words (the borrow is !CC.C, equality needs CC.Z) */
static uint32_t icmpmask(Gpu *g, Warp *w, const DIns *d, uint32_t ex, int ai, int bi)
{
	Type t = itype(d);
	int wide = is64(t), x = !!(d->m.flags & MF_X);
	uint32_t m = 0;

	if (!wide && !x && !d->o[ai].flags && !d->o[bi].flags) {
		/* which of lt, eq, gt make the compare true (bits 0, 1, 2) */
		static const uint8_t truth[CMP_COUNT] = {
			[CMP_LT] = 1, [CMP_EQ] = 2, [CMP_LE] = 3, [CMP_GT] = 4, [CMP_NE] = 5, [CMP_GE] = 6,
			[CMP_NUM] = 7, [CMP_LTU] = 1, [CMP_EQU] = 2, [CMP_LEU] = 3, [CMP_GTU] = 4,
			[CMP_NEU] = 5, [CMP_GEU] = 6, [CMP_T] = 7,
		};
		unsigned tt = d->m.cmp < CMP_COUNT ? truth[d->m.cmp] : 0;
		int sg = issgn(t) || t == TY_NONE;
		const DOpd *oa = &d->o[ai], *ob = &d->o[bi];
		if (oa->kind == DK_REG && ob->kind != DK_CONSTX) {
			/* every lane at once, four at a time (lanes outside ex are masked off after) */
			uint32_t mlt, meq;
			cmp32(&REG(oa->reg, 0), ob->kind == DK_REG ? &REG(ob->reg, 0) : NULL, (uint32_t)ob->imm,
			      sg, &mlt, &meq);
			m = ((tt & 1) ? mlt : 0) | ((tt & 2) ? meq : 0) | ((tt & 4) ? ~(mlt | meq) : 0);
			return m & ex;
		}
		FOR_LANES(ex) {
			uint32_t a = src(g, w, &d->o[ai], l), b = src(g, w, &d->o[bi], l);
			int lt = sg ? (int32_t)a < (int32_t)b : a < b;
			unsigned k = lt ? 1 : a == b ? 2 : 4;
			m |= (uint32_t)((tt & k) != 0) << l;
		}
		return m;
	}
	FOR_LANES(ex) {
		uint64_t a = wide ? src64(g, w, &d->o[ai], l) : imods(src(g, w, &d->o[ai], l), d->o[ai].flags);
		uint64_t b = wide ? src64(g, w, &d->o[bi], l) : imods(src(g, w, &d->o[bi], l), d->o[bi].flags);
		int r;
		if (x) {
			unsigned f = ccof(w, l);
			int borrow = !(f & CC_C), hieq = (uint32_t)a == (uint32_t)b;
			int lt = ar_icmp(CMP_LT, t, a, b) || (hieq && borrow);
			int eq = hieq && (f & CC_Z);
			switch ((Cmp)d->m.cmp) {
			case CMP_LT: case CMP_LTU: r = lt; break;
			case CMP_EQ: case CMP_EQU: r = eq; break;
			case CMP_LE: case CMP_LEU: r = lt || eq; break;
			case CMP_GT: case CMP_GTU: r = !lt && !eq; break;
			case CMP_NE: case CMP_NEU: r = !eq; break;
			case CMP_GE: case CMP_GEU: r = !lt; break;
			case CMP_T: case CMP_NUM: r = 1; break;
			case CMP_F: case CMP_NAN: case CMP_NONE: case CMP_COUNT: default: r = 0; break;
			}
		} else
			r = ar_icmp((Cmp)d->m.cmp, t, a, b);
		m |= (uint32_t)r << l;
	}
	return m;
}

static uint32_t bop(Bop b, uint32_t x, uint32_t y)
{
	switch (b) {
	case BOP_OR: return x | y;
	case BOP_XOR: return x ^ y;
	case BOP_NONE: case BOP_AND: case BOP_COUNT: break;
	}
	return x & y;
}

/* FSETP/DSETP/FSET: float compare as a lane mask */
static uint32_t fcmpmask(Gpu *g, Warp *w, const DIns *d, uint32_t ex, int dbl)
{
	uint32_t m = 0;
	int ftz = !!(d->m.flags & MF_FTZ);

	FOR_LANES(ex) {
		int r = dbl ? ar_fcmp64((Cmp)d->m.cmp, dmods(src64(g, w, &d->o[2], l), d->o[2].flags),
		                         dmods(src64(g, w, &d->o[3], l), d->o[3].flags))
		            : ar_fcmp32((Cmp)d->m.cmp, fmods(src(g, w, &d->o[2], l), d->o[2].flags),
		                         fmods(src(g, w, &d->o[3], l), d->o[3].flags), ftz);
		m |= (uint32_t)r << l;
	}
	return m;
}

/* conversions: default types per op */
static void cvt(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	Type dt = (Type)d->m.dtype, st = (Type)d->m.stype;
	int ftz = !!(d->m.flags & MF_FTZ), sat = !!(d->m.flags & MF_SAT);

	if (d->op == OP_F2I) {
		dt = dt ? dt : TY_S32, st = st ? st : TY_F32;
	} else if (d->op == OP_I2F) {
		dt = dt ? dt : TY_F32, st = st ? st : TY_S32;
	} else if (d->op == OP_F2F) {
		dt = dt ? dt : TY_F32, st = st ? st : dt;
	} else
		dt = dt ? dt : TY_S32, st = st ? st : TY_S32;
	FOR_LANES(ex) {
		uint64_t v = is64(st) ? src64(g, w, &d->o[1], l) : src(g, w, &d->o[1], l);
		const DOpd *o = &d->o[1];
		if (st == TY_F64) v = dmods(v, o->flags);
		else if (st == TY_F32) v = fmods((uint32_t)v, o->flags);
		else if (st == TY_F16) v = (v & 0xffff) ^ ((o->flags & OPF_NEG) ? 0x8000 : 0);
		else if (!is64(st)) v = imods((uint32_t)v, o->flags);
		v = ar_cvt(dt, st, (Rnd)d->m.rnd, ftz, sat, v);
		if (is64(dt))
			wr64(w, &d->o[0], l, v);
		else
			REG(d->o[0].reg, l) = dt == TY_F16 ? (uint32_t)(v & 0xffff) : (uint32_t)v;
	}
}

/* ---------------------------------------------------------------- issue */
#define DST(l) REG(d->o[0].reg, l)
#define A(l) src(g, w, &d->o[1], l)
#define B(l) src(g, w, &d->o[2], l)
#define C(l) src(g, w, &d->o[3], l)
#define A64(l) src64(g, w, &d->o[1], l)
#define B64(l) src64(g, w, &d->o[2], l)
#define C64(l) src64(g, w, &d->o[3], l)
#define FA(l) fmods(A(l), d->o[1].flags)
#define FB(l) fmods(B(l), d->o[2].flags)
#define FC(l) fmods(C(l), d->o[3].flags)
#define DA(l) dmods(A64(l), d->o[1].flags)
#define DB(l) dmods(B64(l), d->o[2].flags)
#define DC(l) dmods(C64(l), d->o[3].flags)
#define IA(l) imods(A(l), d->o[1].flags)
#define IB(l) imods(B(l), d->o[2].flags)
#define IC(l) imods(C(l), d->o[3].flags)

/* Executes the warp's next instruction for its active, guard-true lanes; then the .S
 * arrival and, when no lane is left active, the CRS unwinding. */
int sim_issue(Gpu *g, SM *s, Warp *w, ExecInfo *e)
{
	const DIns *d;
	uint32_t act = w->active, gm, ex;
	int rc = SIM_OK;
	Rnd rnd;
	int ftz, sat;

	if (w->pc >= (uint32_t)g->ncode)
		return sim_fault(g, w, -1, SIM_MALFORMED, "execution ran past the end of the kernel");
	d = &g->code[w->pc];
	gm = w->p[d->guard];
	if (d->gneg)
		gm = ~gm;
	ex = act & gm;
	if (d->cct != CCT_T)
		ex &= cmask(w, (CCTest)d->cct);
	e->in = d->in;
	e->pc = w->pc * 8;
	e->sm = s->id;
	e->cta = w->cta->slot;
	e->warp = w->idx;
	e->active = act;
	e->exec = ex;
	e->naddr = 0;
	e->space = SP_NONE;
	e->size = 0;
	e->diverged = e->reconverged = 0;
	e->pushed = e->popped = 0;
	e->event = EV_NONE;
	g->st.warp_insts++;
	g->st.thread_insts += (uint64_t)sim_popc(act);
	g->st.exec_lanes += (uint64_t)sim_popc(ex);
	g->st.pred_off += (uint64_t)sim_popc(act & ~gm);
	w->pc++;
	rnd = (Rnd)d->m.rnd;
	ftz = !!(d->m.flags & MF_FTZ);
	sat = !!(d->m.flags & MF_SAT);

	switch ((Op)d->op) {
	case OP_MOV:
		if (is64((Type)d->m.dtype))
			FOR_LANES(ex) wr64(w, &d->o[0], l, A64(l));
		else
			FOR_LANES(ex) DST(l) = A(l);
		break;
	case OP_MOV32I:
		FOR_LANES(ex) DST(l) = (uint32_t)d->o[1].imm;
		break;
	case OP_S2R:
		FOR_LANES(ex) DST(l) = sreg(g, w, (SReg)d->o[1].imm, l);
		break;
	case OP_SEL: {
		uint32_t c = pmask(w, &d->o[3]);
		if (is64((Type)d->m.dtype))
			FOR_LANES(ex) wr64(w, &d->o[0], l, (c >> l & 1) ? A64(l) : B64(l));
		else
			FOR_LANES(ex) DST(l) = (c >> l & 1) ? A(l) : B(l);
		break;
	}
	case OP_IADD:
		iadd(g, w, d, ex);
		break;
	case OP_IMUL:
		imul(g, w, d, ex, 0);
		break;
	case OP_IMAD:
		imul(g, w, d, ex, 1);
		break;
	case OP_ISCADD:
		FOR_LANES(ex) {
			uint32_t a = IA(l) << (d->o[3].imm & 31), b = B(l), ci = 0;
			uint64_t sum;
			if (d->o[2].flags & OPF_NEG) b = ~b, ci = 1;
			sum = (uint64_t)a + b + ci;
			DST(l) = (uint32_t)sum;
			if (d->m.flags & MF_CC)
				setcc(w, l, addflags(a, b, sum, 0, 0));
		}
		break;
	case OP_SHL:
		FOR_LANES(ex) {
			uint32_t n = B(l);
			if (d->m.flags & MF_W) n &= 31;
			DST(l) = n >= 32 ? 0 : A(l) << n;
		}
		break;
	case OP_SHR:
		FOR_LANES(ex) {
			uint32_t n = B(l), a = A(l);
			if (d->m.flags & MF_W) n &= 31;
			if (n > 31)
				n = 32;
			if (issgn(itype(d)))
				DST(l) = n == 32 ? (uint32_t)((int32_t)a >> 31) : (uint32_t)((int32_t)a >> n);
			else
				DST(l) = n == 32 ? 0 : a >> n;
		}
		break;
	case OP_SHF:
		FOR_LANES(ex)
			DST(l) = ar_shf(A(l), B(l), C(l), d->m.sub == SUB_R, !!(d->m.flags & MF_W), (Type)d->m.dtype);
		break;
	case OP_LOP:
		FOR_LANES(ex) {
			uint32_t a = IA(l), b = IB(l);
			switch ((int)d->m.sub) {
			case SUB_OR: DST(l) = a | b; break;
			case SUB_XOR: DST(l) = a ^ b; break;
			case SUB_PASS_B: DST(l) = b; break;
			default: DST(l) = a & b; break;
			}
		}
		break;
	case OP_LOP3:
		FOR_LANES(ex) DST(l) = ar_lop3(IA(l), IB(l), IC(l), (uint32_t)d->o[4].imm & 0xff);
		break;
	case OP_BFE:
		if (is64((Type)d->m.dtype))
			FOR_LANES(ex) wr64(w, &d->o[0], l, ar_bfe64(A64(l), B(l), issgn((Type)d->m.dtype), !!(d->m.flags & MF_BREV)));
		else
			FOR_LANES(ex) DST(l) = ar_bfe(A(l), B(l), issgn(itype(d)), !!(d->m.flags & MF_BREV));
		break;
	case OP_BFI:
		FOR_LANES(ex) DST(l) = ar_bfi(A(l), B(l), C(l));
		break;
	case OP_POPC:
		FOR_LANES(ex) DST(l) = (uint32_t)__builtin_popcount(IA(l));
		break;
	case OP_FLO:
		FOR_LANES(ex) DST(l) = ar_flo(IA(l), issgn(itype(d)), !!(d->m.flags & MF_SH));
		break;
	case OP_BREV:
		FOR_LANES(ex) DST(l) = ar_brev(A(l));
		break;
	case OP_PRMT:
		FOR_LANES(ex) DST(l) = ar_prmt(A(l), B(l), C(l), (Sub)d->m.sub);
		break;
	case OP_IMNMX: {
		uint32_t c = pmask(w, &d->o[3]);
		Type t = itype(d);
		FOR_LANES(ex) {
			int mn = c >> l & 1;
			if (is64(t)) {
				uint64_t a = A64(l), b = B64(l);
				wr64(w, &d->o[0], l, ar_icmp(CMP_LT, t, a, b) == mn ? a : b);
			} else {
				uint32_t a = IA(l), b = IB(l);
				DST(l) = ar_icmp(CMP_LT, t, a, b) == mn ? a : b;
			}
		}
		break;
	}
	case OP_ISET: {
		uint32_t m = bop((Bop)d->m.bop, icmpmask(g, w, d, ex, 1, 2), pmask(w, &d->o[3]));
		uint32_t t = (d->m.flags & MF_BF) ? 0x3f800000u : 0xffffffffu;
		FOR_LANES(ex) DST(l) = (m >> l & 1) ? t : 0;
		break;
	}
	case OP_ISETP: {
		uint32_t m = icmpmask(g, w, d, ex, 2, 3), c = pmask(w, &d->o[4]);
		setp(w, &d->o[0], bop((Bop)d->m.bop, m, c), ex);
		setp(w, &d->o[1], bop((Bop)d->m.bop, ~m, c), ex);
		break;
	}
	case OP_PSETP: {
		uint32_t ab = bop((Bop)d->m.bop, pmask(w, &d->o[2]), pmask(w, &d->o[3]));
		uint32_t c = pmask(w, &d->o[4]);
		setp(w, &d->o[0], bop((Bop)d->m.bop2, ab, c), ex);
		setp(w, &d->o[1], bop((Bop)d->m.bop2, ~ab, c), ex);
		break;
	}
	case OP_FADD:
		FOR_LANES(ex) {
			uint32_t r = ar_f32_add(FA(l), FB(l), rnd, ftz);
			DST(l) = sat ? ar_f32_sat(r) : r;
		}
		break;
	case OP_FMUL:
		FOR_LANES(ex) {
			uint32_t r = ar_f32_mul(FA(l), FB(l), rnd, ftz);
			DST(l) = sat ? ar_f32_sat(r) : r;
		}
		break;
	case OP_FFMA: {
		uint32_t ba[32], bb[32], bc[32];
		const uint32_t *va = fop32(w, &d->o[1], ex, ba), *vb = fop32(w, &d->o[2], ex, bb);
		const uint32_t *vc = fop32(w, &d->o[3], ex, bc);
		if (va && vb && vc) {
			ar_f32_fma_lanes(&DST(0), va, vb, vc, ex, rnd, ftz, sat);
			break;
		}
		FOR_LANES(ex) {
			uint32_t r = ar_f32_fma(FA(l), FB(l), FC(l), rnd, ftz);
			DST(l) = sat ? ar_f32_sat(r) : r;
		}
		break;
	}
	case OP_FMNMX: {
		uint32_t c = pmask(w, &d->o[3]);
		FOR_LANES(ex) DST(l) = ar_f32_minmax(FA(l), FB(l), !(c >> l & 1), ftz);
		break;
	}
	case OP_FSET: {
		uint32_t m = 0, t = (d->m.flags & MF_BF) ? 0x3f800000u : 0xffffffffu;
		FOR_LANES(ex) m |= (uint32_t)ar_fcmp32((Cmp)d->m.cmp, FA(l), FB(l), ftz) << l;
		m = bop((Bop)d->m.bop, m, pmask(w, &d->o[3]));
		FOR_LANES(ex) DST(l) = (m >> l & 1) ? t : 0;
		break;
	}
	case OP_FSETP:
	case OP_DSETP: {
		uint32_t m = fcmpmask(g, w, d, ex, d->op == OP_DSETP), c = pmask(w, &d->o[4]);
		setp(w, &d->o[0], bop((Bop)d->m.bop, m, c), ex);
		setp(w, &d->o[1], bop((Bop)d->m.bop, ~m, c), ex);
		break;
	}
	case OP_MUFU:
		if (d->m.dtype == TY_F64)
			FOR_LANES(ex) wr64(w, &d->o[0], l, ar_mufu_f64((Sub)d->m.sub, DA(l)));
		else
			FOR_LANES(ex) DST(l) = ar_mufu_f32((Sub)d->m.sub, FA(l), ftz);
		break;
	case OP_FDIV:
		if (d->m.dtype == TY_F64)
			FOR_LANES(ex) wr64(w, &d->o[0], l, ar_f64_div(DA(l), DB(l), rnd));
		else
			FOR_LANES(ex) DST(l) = ar_f32_div(FA(l), FB(l), rnd, ftz);
		break;
	case OP_FSQRT:
		if (d->m.dtype == TY_F64)
			FOR_LANES(ex) wr64(w, &d->o[0], l, ar_f64_sqrt(DA(l), rnd));
		else
			FOR_LANES(ex) DST(l) = ar_f32_sqrt(FA(l), rnd, ftz);
		break;
	case OP_DADD:
		FOR_LANES(ex) wr64(w, &d->o[0], l, ar_f64_add(DA(l), DB(l), rnd));
		break;
	case OP_DMUL:
		FOR_LANES(ex) wr64(w, &d->o[0], l, ar_f64_mul(DA(l), DB(l), rnd));
		break;
	case OP_DFMA:
		FOR_LANES(ex) wr64(w, &d->o[0], l, ar_f64_fma(DA(l), DB(l), DC(l), rnd));
		break;
	case OP_DMNMX: {
		uint32_t c = pmask(w, &d->o[3]);
		FOR_LANES(ex) wr64(w, &d->o[0], l, ar_f64_minmax(DA(l), DB(l), !(c >> l & 1)));
		break;
	}
	case OP_F2I:
	case OP_I2F:
	case OP_F2F:
	case OP_I2I:
		cvt(g, w, d, ex);
		break;
	case OP_LD:
		rc = ldst(g, w, d, ex, e, SP_GLOBAL, 0);
		break;
	case OP_ST:
		rc = ldst(g, w, d, ex, e, SP_GLOBAL, 1);
		break;
	case OP_LDS:
	case OP_LDSLK:
		rc = ldst(g, w, d, ex, e, SP_SHARED, 0);
		break;
	case OP_STS:
	case OP_STSUL:
		rc = ldst(g, w, d, ex, e, SP_SHARED, 1);
		break;
	case OP_LDL:
		rc = ldst(g, w, d, ex, e, SP_LOCAL, 0);
		break;
	case OP_STL:
		rc = ldst(g, w, d, ex, e, SP_LOCAL, 1);
		break;
	case OP_LDC: {
		unsigned size = msize((Type)d->m.dtype);
		const DOpd *o = &d->o[1];
		e->space = SP_CONST;
		e->size = (uint8_t)size;
		e->naddr = ex;
		FOR_LANES(ex) {
			uint64_t off = o->kind == DK_CONSTX ? REG(o->reg, l) + o->imm : (uint64_t)d->in->o[1].imm;
			uint8_t buf[16] = {0};
			e->addr[l] = off;
			if (!dev_mem_cread(g->mem, o->bank, off, buf, size))
				return sim_fault(g, w, (int)l, SIM_FAULT, "constant load of %u bytes at c[0x%x][0x%" PRIx64 "] is outside the bank", size, o->bank, off);
			if (size < 4) {
				uint32_t v = (uint32_t)dev_ld(buf, size);
				if (d->m.dtype == TY_S8) v = (uint32_t)(int32_t)(int8_t)v;
				if (d->m.dtype == TY_S16) v = (uint32_t)(int32_t)(int16_t)v;
				DST(l) = v;
			} else
				for (unsigned i = 0; i < size; i += 4)
					REG(d->o[0].reg + i / 4, l) = (uint32_t)dev_ld(buf + i, 4);
		}
		break;
	}
	case OP_ATOM:
	case OP_RED:
		rc = atomic(g, w, d, ex, e, SP_GLOBAL);
		break;
	case OP_ATOMS:
		rc = atomic(g, w, d, ex, e, SP_SHARED);
		break;
	case OP_MEMBAR:
		break;                      /* the model never reorders memory */
	case OP_SHFL:
		shfl(g, w, d, ex);
		break;
	case OP_VOTE: {
		uint32_t c = pmask(w, &d->o[2]) & ex, r;
		switch ((int)d->m.sub) {
		case SUB_ALL: r = c == ex; break;
		case SUB_ANY: r = c != 0; break;
		default: r = c == ex || c == 0; break;     /* EQ */
		}
		FOR_LANES(ex) DST(l) = c;
		setp(w, &d->o[1], r ? ~0u : 0, ex);
		break;
	}
	case OP_MATCH:
		match(g, w, d, ex);
		break;
	case OP_REDUX:
		redux(g, w, d, ex);
		break;
	case OP_BAR:
	case OP_BARRED:
		rc = sim_barrier(g, w, d, ex, e);
		break;
	case OP_SSY:
	case OP_BRA:
	case OP_BRX:
	case OP_PBK:
	case OP_BRK:
	case OP_PCNT:
	case OP_CONT:
	case OP_CAL:
	case OP_JCAL:
	case OP_RET:
	case OP_PRET:
	case OP_PEXIT:
	case OP_EXIT:
		rc = sim_ctrl(g, w, d, ex, e);
		break;
	case OP_NOP:
		break;
	case OP_BPT:
		/* PTX trap: the first lane that runs it stops the kernel, like a fault */
		if (ex)
			return sim_fault(g, w, __builtin_ctz(ex), SIM_FAULT, "trap: the kernel aborted "
			                 "(BPT.TRAP 0x%" PRIx64 ")", (uint64_t)d->in->o[0].imm);
		break;
	case OP_COUNT:
		return sim_fault(g, w, -1, SIM_MALFORMED, "not an opcode");
	}
	if (g->fault_lane >= 0) {
		int l = g->fault_lane;
		g->fault_lane = -1;
		return sim_fault(g, w, l, SIM_FAULT, "constant operand at offset 0x%" PRIx64 " is outside its bank", g->fault_off);
	}
	if (rc == SIM_OK && d->sync)
		rc = sim_arrive_sync(g, w, ex & w->active);
	if (rc == SIM_OK && !w->active && w->state == W_READY)
		rc = sim_unwind(g, w, e);
	e->next_active = w->active;
	e->next_pc = w->pc * 8;
	if (g->trace)
		g->trace(g->tctx, e);
	return rc;
}
