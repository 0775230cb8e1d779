/* exec_mem.c - memory ops at issue: loads and stores of every space (LD ST LDS STS LDL STL,
 * the LDSLK/STSUL lock pair), atomics in lane order (ATOM ATOMS RED), constant loads (LDC);
 * generic addresses into the shared, local and constant windows; and the located faults of
 * misaligned and out-of-bounds accesses (and of generic stores to constant memory). Each fills the ExecInfo's addresses for the timing model. */
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "sim/exec.h"

/* bytes of one access of type t */
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

/* the host bytes of a global access (dev_mem_global's lookup, with the SM's own last-hit
 * cache: SMs on different host threads share no state), or NULL outside every allocation */
static uint8_t *global_at(Gpu *g, const Warp *w, uint64_t addr, unsigned size)
{
	SM *s = &g->sm[w->cta->sm];
	const MemAlloc *a = s->mlast;

	if (!a || addr < a->base || addr - a->base >= a->size) {
		if (!(a = dev_mem_find(g->mem, addr)))
			return NULL;
		s->mlast = a;
	}
	return a->size - (addr - a->base) < size ? NULL : a->bytes + (addr - a->base);
}

/* a generic access in the constant window: a load reads the constant space (bank
 * DEV_CONST_BANK, zeros where nothing was written); a store or atomic is a fault */
static uint8_t *const_at(Gpu *g, Warp *w, unsigned l, uint64_t addr, unsigned size, int store,
                         int atom, uint8_t *sp)
{
	static uint8_t zeros[16];
	uint64_t off = addr - DEV_CONST_WINDOW;

	*sp = SP_CONST;
	if (store || atom) {
		sim_fault(g, w, (int)l, SIM_FAULT, "generic %s of %u bytes at 0x%" PRIx64 " writes "
		          "constant memory (the constant window), which is read only", what(store, atom),
		          size, addr);
		return NULL;
	}
	if (addr & (size - 1) || off > DEV_BANK_SIZE - size) {
		sim_fault(g, w, (int)l, SIM_FAULT, "generic load of %u bytes at 0x%" PRIx64 " (constant "
		          "window) is %s", size, addr, addr & (size - 1) ? "misaligned" :
		          "outside the constant bank");
		return NULL;
	}
	return g->mem->bank[DEV_CONST_BANK] ? g->mem->bank[DEV_CONST_BANK] + off : zeros;
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
		else if (addr - DEV_CONST_WINDOW < DEV_WINDOW_SIZE)
			return const_at(g, w, l, addr, size, store, atom, sp);
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
		if ((p = global_at(g, w, addr, size)))
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

/* addr_of of every lane into addr[] (the inactive lanes' too, which no one reads: a
 * straight loop over the rows, which GCC vectorises, costs less than a loop over the lane
 * mask) */
static void addrs_of(const Warp *w, const DOpd *o, int wide, uint64_t *addr)
{
	const uint32_t *lo = &REG(o->reg, 0);

	if (!wide)
		for (unsigned l = 0; l < 32; l++)
			addr[l] = lo[l] + o->imm;
	else {
		const uint32_t *hi = &REG(o->reg + 1, 0);
		for (unsigned l = 0; l < 32; l++)
			addr[l] = ((uint64_t)hi[l] << 32 | lo[l]) + o->imm;
	}
}

/* dev_ld and dev_st of a lane's word or its part (n <= 4 bytes), inline for each size a
 * load or store has (4, 1, 2: a memcpy of a constant size is a move, of a variable one a call) */
static inline uint32_t ld32(const uint8_t *p, unsigned n)
{
	uint32_t v = 0;

	if (n == 4)
		memcpy(&v, p, 4);
	else if (n == 1)
		memcpy(&v, p, 1);
	else if (n == 2)
		memcpy(&v, p, 2);
	else
		memcpy(&v, p, n);
	return v;
}

static inline void st32(uint8_t *p, unsigned n, uint32_t v)
{
	if (n == 4)
		memcpy(p, &v, 4);
	else if (n == 1)
		memcpy(p, &v, 1);
	else if (n == 2)
		memcpy(p, &v, 2);
	else
		memcpy(p, &v, n);
}

/* a windowed run defers global stores and atomics to the window's end (par.c): a global
 * store of size bytes v at p (address a), or the size bytes at p as this SM sees them */
static void gstore(Gpu *g, const Warp *w, uint8_t *p, uint64_t a, unsigned size, const uint8_t *v)
{
	if (g->defer)
		par_store(&g->sm[w->cta->sm], g->cycle, p, a, size, v);
	else
		memcpy(p, v, size);
}

/* the size bytes at p (address a) with SM s's own queued stores over them, in buf */
static const uint8_t *overlaid(SM *s, const uint8_t *p, uint64_t a, unsigned size,
                               uint8_t *buf)
{
	memcpy(buf, p, size);
	par_overlay(s, a, size, buf);
	return buf;
}

static inline const uint8_t *gload(Gpu *g, const Warp *w, const uint8_t *p, uint64_t a, unsigned size,
                            uint8_t *buf)
{
	if (!g->defer || !par_stored(&g->sm[w->cta->sm]))
		return p;
	return overlaid(&g->sm[w->cta->sm], p, a, size, buf);
}

/* the allocation that holds every lane's access of size bytes at addr[] (the lanes ex) when
 * all are aligned and none is in a window: mem_at's answer for each of them without its
 * tests per lane (then a lane's host bytes are its address's offset in it; span: the bytes
 * they all lie in, [span[0], span[1]); *row: a full warp's lanes in a row, lane l's bytes
 * at addr[0] + l * size); else NULL, and mem_at finds each lane's bytes or the first fault */
static const MemAlloc *one_alloc(Gpu *g, const Warp *w, const uint64_t *addr, uint32_t ex,
                                 unsigned size, uint64_t *span, int *row)
{
	static const uint32_t win[] = {DEV_SHARED_WINDOW, DEV_LOCAL_WINDOW, DEV_CONST_WINDOW};
	uint64_t lo = UINT64_MAX, hi = 0, bits = 0, gap = 0;
	SM *s = &g->sm[w->cta->sm];
	const MemAlloc *a = s->mlast;

	*row = 0;
	if (ex == ~0u) {            /* (a full warp without the lane mask's loop) */
		uint64_t at = addr[0];
		for (unsigned l = 0; l < 32; l++, at += size)
			gap |= addr[l] - at;
		if (!gap && addr[31] > addr[0]) {   /* in a row (no wrap): its ends, addr[0]'s alignment */
			lo = bits = addr[0];
			hi = addr[31];
			*row = 1;
		} else
			for (unsigned l = 0; l < 32; l++) {
				lo = addr[l] < lo ? addr[l] : lo;
				hi = addr[l] > hi ? addr[l] : hi;
				bits |= addr[l];
			}
	} else
		FOR_LANES(ex) {
			lo = addr[l] < lo ? addr[l] : lo;
			hi = addr[l] > hi ? addr[l] : hi;
			bits |= addr[l];
		}
	span[0] = lo;
	span[1] = hi + size;
	if (bits & (size - 1))
		return NULL;
	for (int i = 0; i < 3; i++)
		if (lo < (uint64_t)win[i] + DEV_WINDOW_SIZE && hi >= win[i])
			return NULL;
	if (!a || lo < a->base || lo - a->base >= a->size) {
		if (!(a = dev_mem_find(g->mem, lo)))
			return NULL;
		s->mlast = a;       /* (global_at's last-hit cache) */
	}
	return hi - a->base < a->size && a->size - (hi - a->base) >= size ? a : NULL;
}

/* lane l's store of size bytes into v from its rows from ro's */
static inline void store_value(const Warp *w, const DOpd *ro, unsigned l, unsigned size,
                               uint8_t *v)
{
	if (size == 4) {            /* (the common word, without the loop) */
		st32(v, 4, REG(ro->reg, l));
		return;
	}
	for (unsigned i = 0; i < size; i += 4)
		st32(v + i, size < 4 ? size : 4, REG(ro->reg + i / 4, l));
}

/* lane l's load of size bytes (of type t) at p into its rows from ro's */
static inline void load_value(Warp *w, const DOpd *ro, unsigned l, const uint8_t *p,
                              unsigned size, Type t)
{
	if (size == 4)
		REG(ro->reg, l) = ld32(p, 4);
	else if (size < 4) {
		uint32_t v = ld32(p, size);
		if (t == TY_S8) v = (uint32_t)(int32_t)(int8_t)v;
		if (t == TY_S16) v = (uint32_t)(int32_t)(int16_t)v;
		REG(ro->reg, l) = v;
	} else
		for (unsigned i = 0; i < size; i += 4)
			REG(ro->reg + i / 4, l) = ld32(p + i, 4);
}

/* a windowed run's global store of the lanes ex at addr[], every one in allocation a
 * (one_alloc): each run of lanes whose bytes follow each other (a lane's address is the
 * last one's plus size, as in a warp's store of consecutive words) one queued item; row: a
 * full warp's lanes in a row (one_alloc), whose words are their register row */
static void queue_stores(Gpu *g, SM *s, const Warp *w, const MemAlloc *a, const uint64_t *addr,
                         uint32_t ex, unsigned size, const DOpd *ro, ExecInfo *e, int row)
{
	uint8_t v[32 * 16];
	uint64_t start = 0;
	unsigned n = 0;

	if (row && size == 4) {
		memcpy(e->addr, addr, sizeof e->addr);
		par_stores(s, g->cycle, a->bytes + (addr[0] - a->base), addr[0], 128,
		           (const uint8_t *)&REG(ro->reg, 0));
		return;
	}
	FOR_LANES(ex) {
		e->addr[l] = addr[l];
		if (n && addr[l] != start + n) {
			par_stores(s, g->cycle, a->bytes + (start - a->base), start, n, v);
			n = 0;
		}
		if (!n)
			start = addr[l];
		store_value(w, ro, l, size, v + n);
		n += size;
	}
	if (n)
		par_stores(s, g->cycle, a->bytes + (start - a->base), start, n, v);
}

/* a generic LD or ST of the lanes ex at addr[], every one in allocation a (one_alloc), all
 * of their bytes in [span[0], span[1]): no lane can fault; gstore's and gload's choices made
 * once for the warp (a load queues no store, so the SM's queue has stores to read over for
 * the lanes or not, which the span of its stores answers for all of them at once). row: a
 * full warp's words in a row (one_alloc), which a register row moves as one copy */
static void global_lanes(Gpu *g, Warp *w, const MemAlloc *a, const uint64_t *addr, uint32_t ex,
                         unsigned size, Type t, const DOpd *ro, int store, ExecInfo *e,
                         const uint64_t *span, int row)
{
	SM *s = &g->sm[w->cta->sm];
	int defer = g->defer, over = !store && defer && par_stored_in(s, span[0], span[1]);

	e->space = SP_GLOBAL;
	if (store && defer) {
		queue_stores(g, s, w, a, addr, ex, size, ro, e, row);
		return;
	}
	if (row && size == 4 && !over) {        /* a row of words: one copy */
		uint8_t *p = a->bytes + (addr[0] - a->base);
		memcpy(e->addr, addr, sizeof e->addr);
		if (store)
			memcpy(p, &REG(ro->reg, 0), 128);
		else
			memcpy(&REG(ro->reg, 0), p, 128);
		return;
	}
	if (!store && !over && size == 4) {     /* the common load: words, a full warp in straight loops */
		uint32_t *rd = &REG(ro->reg, 0);
		if (ex == ~0u) {
			memcpy(e->addr, addr, sizeof e->addr);
			for (unsigned l = 0; l < 32; l++)
				rd[l] = ld32(a->bytes + (addr[l] - a->base), 4);
		} else
			FOR_LANES(ex) {
				e->addr[l] = addr[l];
				rd[l] = ld32(a->bytes + (addr[l] - a->base), 4);
			}
		return;
	}
	if (store && size == 4) {               /* words, without the tests per lane */
		const uint32_t *rs = &REG(ro->reg, 0);
		FOR_LANES(ex) {
			e->addr[l] = addr[l];
			memcpy(a->bytes + (addr[l] - a->base), rs + l, 4);
		}
		return;
	}
	FOR_LANES(ex) {
		uint8_t *p = a->bytes + (addr[l] - a->base), buf[16];
		e->addr[l] = addr[l];
		if (!store)
			load_value(w, ro, l, over ? overlaid(s, p, addr[l], size, buf) : p, size, t);
		else
			store_value(w, ro, l, size, p);
	}
}

/* whether an explicit shared access of size bytes at addr[] (the lanes ex, 32-bit offsets
 * sign-extended) is aligned and inside the CTA's shared memory for every lane: mem_at's
 * tests, once for the warp */
static int shared_ok(const Gpu *g, const uint64_t *addr, uint32_t ex, unsigned size)
{
	uint64_t bits = 0, hi = 0;

	if (ex == ~0u) {        /* (on the low 32 bits: a negative offset is above 2^31 there too) */
		uint32_t b = 0, out = 0, lim = g->shsize >= size ? g->shsize - size : 0;
		for (unsigned l = 0; l < 32; l++) {
			b |= (uint32_t)addr[l];
			out |= (uint32_t)addr[l] > lim;
		}
		return !(b & (size - 1)) && g->shsize >= size && !out;
	}
	FOR_LANES(ex) {
		bits |= addr[l];
		hi = addr[l] > hi ? addr[l] : hi;
	}
	return !(bits & (size - 1)) && g->shsize >= size && hi <= g->shsize - size;
}

/* an LDS or STS of the lanes ex that shared_ok passed: lane l's bytes at sh + addr[l], in
 * lane order as the general loop goes (the last lane's store to a word stays) */
static void shared_lanes(Warp *w, uint8_t *sh, const uint64_t *addr, uint32_t ex, unsigned size,
                         Type t, const DOpd *ro, int store, ExecInfo *e)
{
	e->space = SP_SHARED;
	if (ex == ~0u && size == 4) {           /* a full warp's words, in straight loops */
		uint32_t *r = &REG(ro->reg, 0);
		memcpy(e->addr, addr, sizeof e->addr);
		if (store)
			for (unsigned l = 0; l < 32; l++)
				memcpy(sh + addr[l], r + l, 4);
		else
			for (unsigned l = 0; l < 32; l++)
				r[l] = ld32(sh + addr[l], 4);
		return;
	}
	FOR_LANES(ex) {
		e->addr[l] = addr[l];
		if (store)
			store_value(w, ro, l, size, sh + addr[l]);
		else
			load_value(w, ro, l, sh + addr[l], size, t);
	}
}

/* loads and stores of every space: LD LDG ST LDS STS LDL STL LDSLK STSUL; STSCUL stores only
 * where the lane's word is locked (it holds the lock LDSLK took), releases it, sets d0 */
int sim_ldst(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e, int space, int store)
{
	Type t = (Type)d->m.dtype;
	unsigned size = msize(t);
	int k = d->op == OP_LDSLK || d->op == OP_STSCUL;     /* a predicate comes first */
	const DOpd *mo = store ? &d->o[k] : &d->o[k ? 2 : 1];
	const DOpd *ro = store ? &d->o[k + 1] : &d->o[k ? 1 : 0];
	int wide = space == SP_GLOBAL && (d->m.flags & MF_E);
	uint32_t got = 0;
	uint64_t addr[32], span[2];
	const MemAlloc *run;
	int row, shok;

	e->size = (uint8_t)size;
	e->naddr = ex;
	if (space != SP_GLOBAL) {          /* 32-bit offsets, sign-extended (every lane's) */
		const uint32_t *lo = &REG(mo->reg, 0);
		uint32_t imm = (uint32_t)mo->imm;
		for (unsigned l = 0; l < 32; l++)
			addr[l] = (uint64_t)(int64_t)(int32_t)(lo[l] + imm);
	} else
		addrs_of(w, mo, wide, addr);
	/* a generic access of the whole warp in one allocation, the common case */
	if (space == SP_GLOBAL && ex && (run = one_alloc(g, w, addr, ex, size, span, &row))) {
		global_lanes(g, w, run, addr, ex, size, t, ro, store, e, span, row);
		return SIM_OK;
	}
	/* an explicit shared access whose lanes all lie in the CTA's shared memory: an LDS or
	 * STS in shared_lanes, the lock pair's below without mem_at's tests per lane */
	shok = space == SP_SHARED && ex && shared_ok(g, addr, ex, size);
	if (shok && !k && d->op != OP_STSUL) {
		shared_lanes(w, w->cta->shared, addr, ex, size, t, ro, store, e);
		return SIM_OK;
	}
	if (shok)
		e->space = SP_SHARED;
	FOR_LANES(ex) {
		uint64_t a = addr[l];
		uint8_t *p;
		if (shok)
			p = w->cta->shared + a;
		else if (!(p = mem_at(g, w, l, space, a, size, store, 0, &e->space)))
			return SIM_FAULT;
		e->addr[l] = a;
		if (d->op == OP_STSCUL) {
			uint8_t *lk = &w->cta->locks[(p - w->cta->shared) / 4];
			if (!*lk)
				continue;
			*lk = 0;
			got |= 1u << l;
		}
		if (store && e->space == SP_GLOBAL) {
			uint8_t v[16];
			store_value(w, ro, l, size, v);
			gstore(g, w, p, a, size, v);
		} else if (store) {
			store_value(w, ro, l, size, p);
			if (d->op == OP_STSUL)
				w->cta->locks[(p - w->cta->shared) / 4] = 0;
		} else {
			uint8_t buf[16];
			if (e->space == SP_GLOBAL)
				p = (uint8_t *)gload(g, w, p, a, size, buf);
			load_value(w, ro, l, p, size, t);
			if (d->op == OP_LDSLK) {
				uint8_t *lk = &w->cta->locks[(p - w->cta->shared) / 4];
				if (!*lk) {
					*lk = 1;
					got |= 1u << l;
				}
			}
		}
	}
	if (k)
		setp(w, &d->o[0], got, ex);
	return SIM_OK;
}

/* ATOM ATOMS RED: lanes in ascending order, one read-modify-write each */
int sim_atomic(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e, int space)
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
		b = size == 8 ? src64(g, w, bo, l) : src(g, w, bo, l);
		if (!red && d->o[3].kind != DK_NONE)
			c = size == 8 ? src64(g, w, &d->o[3], l) : src(g, w, &d->o[3], l);
		if (g->defer && e->space == SP_GLOBAL) {
			par_atom(&g->sm[w->cta->sm], g->cycle, p, w, d->o[0].reg, l, size, d->m.sub, t,
			         !!(d->m.flags & MF_FTZ), red, b, c);
			continue;
		}
		old = dev_ld(p, size);
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
/* LDC: c[bank][R + offset] per lane, or the fixed offset of c[bank][offset]; an offset
 * not a multiple of the size is a fault, as in every other space */
int sim_ldc(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e)
{
	unsigned size = msize((Type)d->m.dtype);
	const DOpd *o = &d->o[1];

	e->space = SP_CONST;
	e->size = (uint8_t)size;
	e->naddr = ex;
	FOR_LANES(ex) {
		uint64_t off = o->kind == DK_CONSTX ? REG(o->reg, l) + o->imm : (uint64_t)d->in->o[1].imm;
		uint8_t buf[16] = {0};
		e->addr[l] = off;
		if (off & (size - 1))
			return sim_fault(g, w, (int)l, SIM_FAULT, "misaligned constant load of %u bytes at "
			                 "c[0x%x][0x%" PRIx64 "]", size, o->bank, off);
		if (!dev_mem_cread(g->mem, o->bank, off, buf, size))
			return sim_fault(g, w, (int)l, SIM_FAULT, "constant load of %u bytes at c[0x%x][0x%" PRIx64 "] is outside the bank", size, o->bank, off);
		if (size < 4) {
			uint32_t v = (uint32_t)dev_ld(buf, size);
			if (d->m.dtype == TY_S8) v = (uint32_t)(int32_t)(int8_t)v;
			if (d->m.dtype == TY_S16) v = (uint32_t)(int32_t)(int16_t)v;
			REG(d->o[0].reg, l) = v;
		} else
			for (unsigned i = 0; i < size; i += 4)
				REG(d->o[0].reg + i / 4, l) = (uint32_t)dev_ld(buf + i, 4);
	}
	return SIM_OK;
}

/* PRINTF's reads: generic addresses of one lane */
typedef struct {
	Gpu *g;
	Warp *w;
	unsigned l;
} PrintCtx;

static const uint8_t *print_read(void *ctx, uint64_t addr, unsigned size)
{
	PrintCtx *c = ctx;
	uint8_t sp;

	return mem_at(c->g, c->w, c->l, SP_GLOBAL, addr, size, 0, 0, &sp);
}

/* PRINTF d, fmt, args: each lane of ex in turn prints one line (tagged with its block and
 * thread under --printf-tag) to the run's printf stream; d = the arguments consumed */
int sim_printf(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	FOR_LANES(ex) {
		PrintCtx c = {g, w, l};
		DevText t = {0};
		char err[200];
		uint32_t th = (uint32_t)w->idx * 32 + l, tid[3];
		int n = dev_printf(print_read, &c, src64(g, w, &d->o[1], l), src64(g, w, &d->o[2], l),
		                   &t, err, sizeof err);

		if (n < 0) {
			free(t.s);
			return n == -1 ? SIM_FAULT : sim_fault(g, w, (int)l, SIM_FAULT, "%s", err);
		}
		tid[0] = th % g->block[0];
		tid[1] = th / g->block[0] % g->block[1];
		tid[2] = th / (g->block[0] * g->block[1]);
		if (g->defer)
			par_print(&g->sm[w->cta->sm], g->cycle, w->cta->id, tid, &t);
		else
			dev_print_line(g->pout ? g->pout : stdout, g->ptag, w->cta->id, tid, &t);
		free(t.s);
		REG(d->o[0].reg, l) = (uint32_t)n;
	}
	return SIM_OK;
}

/* TEX, TLD, TLD4, TXQ: each lane's fetch through device/tex.c (the oracle's too); the
 * coordinates are 1, 2 or 4 registers from a by the geometry (TLD4: a pair), the result the
 * quad d (TXQ: one register). TEXB, TLDB, TLD4B, TXQB name the texture by a handle in a
 * register pair (a texture object): each lane's own, a fault when no --tex owns it.
 * A channel mask (TEX/TLD's fourth operand, sm_35's MASK) writes only the channels it
 * enables, packed into d, d+1, ... (Mesa's nouveau codegen defines a texture instruction's
 * results the same way: one per enabled channel of its mask, in order). TLD.AOFFI adds the
 * offsets in the register after the coordinates (the fourth of .3D's quad) to them: signed
 * 4-bit fields, x in bits 0..3, y 4..7, z 8..11, as nouveau's nv50_ir_lowering_nvc0.cpp
 * packs them for Kepler's TLD ((offset & 0xf) << (c * 4)). */
static const DevTex *tex_of(Gpu *g, Warp *w, const DIns *d, int at, unsigned l)
{
	uint64_t h;
	const DevTex *x;

	if (d->op != OP_TEXB && d->op != OP_TLDB && d->op != OP_TLD4B && d->op != OP_TXQB)
		return &g->tex[d->o[at].imm];
	h = src64(g, w, &d->o[at], l);
	if (!(x = dev_binds_texobj(&g->binds, h)))
		sim_fault(g, w, (int)l, SIM_FAULT, "texture handle 0x%" PRIx64 " is no --tex binding's "
		          "(--arg tex:NAME passes one)", h);
	return x;
}

int sim_tex(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	int arr = (d->m.flags & MF_ARRAY) != 0;
	int geom = d->op == OP_TLD4 || d->op == OP_TLD4B ? 2 :
	           d->m.sub == SUB_CUBE ? (arr ? DEV_TEX_ACUBE : DEV_TEX_CUBE) :
	           d->m.sub == SUB_2D ? (arr ? DEV_TEX_A2D : DEV_TEX_2D) :
	           d->m.sub == SUB_3D ? DEV_TEX_3D : arr ? DEV_TEX_A1D : DEV_TEX_1D;
	/* the registers of coordinates: .1D.ARRAY 2, .2D.ARRAY and .CUBE 3, .CUBE.ARRAY 4 */
	int ncoords = geom <= DEV_TEX_3D ? geom : geom == DEV_TEX_A1D ? 2 :
	              geom == DEV_TEX_ACUBE ? 4 : 3;
	int comp = d->m.sub == SUB_G ? 1 : d->m.sub == SUB_B ? 2 : d->m.sub == SUB_A ? 3 : 0;
	unsigned mask = d->op != OP_TLD4 && d->op != OP_TLD4B && d->o[3].kind == DK_IMM ?
	                (unsigned)d->o[3].imm & 0xf : 0xf;
	int aoffi = (d->op == OP_TLD || d->op == OP_TLDB) && (d->m.flags & MF_AOFFI) &&
	            !(d->m.flags & MF_ARRAY);

	if (d->op == OP_TXQ || d->op == OP_TXQB) {
		FOR_LANES(ex) {
			const DevTex *x = tex_of(g, w, d, 1, l);
			if (!x)
				return SIM_FAULT;
			REG(d->o[0].reg, l) = dev_tex_query(x, (DevTexQuery)d->o[2].imm);
		}
		return SIM_OK;
	}
	FOR_LANES(ex) {
		const DevTex *x = tex_of(g, w, d, 2, l);
		uint32_t c[4] = {0, 0, 0, 0}, out[4];
		const char *bad;
		int n = 0;
		if (!x)
			return SIM_FAULT;
		if ((bad = dev_tex_geom_bad(x, geom))) {
			sim_fault(g, w, (int)l, SIM_FAULT, "%s", bad);
			return SIM_FAULT;
		}
		for (int k = 0; k < ncoords; k++)
			c[k] = REG(d->o[1].reg + k, l);
		if (aoffi) {
			uint32_t off = REG(d->o[1].reg + (geom == 3 ? 3 : geom), l);
			for (int k = 0; k < geom; k++)
				c[k] += (uint32_t)((int32_t)(off << (28 - 4 * k)) >> 28);
		}
		if (d->op == OP_TLD4 || d->op == OP_TLD4B)
			dev_tex_gather(x, comp, c, out);
		else
			dev_tex_fetch(x, geom, d->op == OP_TEX || d->op == OP_TEXB, c, out);
		for (int k = 0; k < 4; k++)
			if (mask >> k & 1)
				REG(d->o[0].reg + n++, l) = out[k];
	}
	return SIM_OK;
}

/* the surface of SULD/SUST/SUQ (slot operand at), or of SULDB/SUSTB/SUQB (a handle in the
 * pair at: lane l's own, a fault when no --surf owns it) */
static const DevSurf *surf_of(Gpu *g, Warp *w, const DIns *d, int at, unsigned l)
{
	uint64_t h;
	const DevSurf *x;

	if (d->op != OP_SULDB && d->op != OP_SUSTB && d->op != OP_SUQB && d->op != OP_SUSTPB)
		return &g->surf[d->o[at].imm];
	h = src64(g, w, &d->o[at], l);
	if (!(x = dev_binds_surfobj(&g->binds, h)))
		sim_fault(g, w, (int)l, SIM_FAULT, "surface handle 0x%" PRIx64 " is no --surf "
		          "binding's (--arg surf:NAME passes one)", h);
	return x;
}

/* SUSTP, SUSTPB: each lane's channel (d >> 2) of the sample at its coordinates (x a sample
 * index), its source converted to the channel's type (device/tex.c's dev_surf_at_p, the
 * oracle's too), stored as global memory; a channel the surface lacks is no store */
static int surf_store_p(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e, int geom)
{
	int ch = (int)(d->o[3].imm >> 2), mode = (int)(d->o[3].imm & 3);

	e->size = 4;
	FOR_LANES(ex) {
		const DevSurf *x = surf_of(g, w, d, 2, l);
		int32_t c[3] = {0, 0, 0};
		uint32_t v;
		unsigned size;
		int fault;
		uint8_t *p, b[4];
		uint64_t a;
		if (!x)
			return SIM_FAULT;
		for (int k = 0; k < geom; k++)
			c[k] = (int32_t)REG(d->o[1].reg + k, l);
		v = REG(d->o[0].reg, l);
		a = dev_surf_at_p(x, geom, c, ch, mode, &v, &size, &fault);
		if (fault)
			return sim_fault(g, w, (int)l, SIM_FAULT, "formatted surface store of channel %d at "
			                 "(%d, %d, %d) is outside surface '%s' (%u x %u x %u elements; .trap)",
			                 ch, c[0], c[1], c[2], x->s->name, x->s->dims[0], x->s->dims[1],
			                 x->s->dims[2]);
		if (!a)
			continue;
		if (!(p = mem_at(g, w, l, SP_GLOBAL, a, size, 1, 0, &e->space)))
			return SIM_FAULT;
		e->size = (uint8_t)size;
		e->naddr |= 1u << l;
		e->addr[l] = a;
		dev_st(b, size, v);
		gstore(g, w, p, a, size, b);
	}
	return SIM_OK;
}

/* SULD, SUST: the element of each lane's coordinates (device/tex.c's dev_surf_at, the oracle's
 * too) accessed as global memory; .trap's outside is a fault, .zero's a load of 0 and no
 * store. SUQ: an attribute of the binding. SULDB, SUSTB, SUQB: the same on surface objects. */
int sim_surf(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e)
{
	int geom = d->m.sub == SUB_3D ? 3 : d->m.sub == SUB_2D ? 2 : 1;
	int store = d->op == OP_SUST || d->op == OP_SUSTB;
	unsigned size = msize((Type)d->m.dtype);

	if (d->op == OP_SUSTP || d->op == OP_SUSTPB)
		return surf_store_p(g, w, d, ex, e, geom);
	if (d->op == OP_SUQ || d->op == OP_SUQB) {
		FOR_LANES(ex) {
			const DevSurf *x = surf_of(g, w, d, 1, l);
			if (!x)
				return SIM_FAULT;
			REG(d->o[0].reg, l) = dev_surf_query(x, (DevTexQuery)d->o[2].imm);
		}
		return SIM_OK;
	}
	e->size = (uint8_t)size;
	FOR_LANES(ex) {
		const DevSurf *x = surf_of(g, w, d, 2, l);
		int32_t c[3] = {0, 0, 0};
		int fault;
		uint8_t *p;
		uint64_t a;
		if (!x)
			return SIM_FAULT;
		for (int k = 0; k < geom; k++)
			c[k] = (int32_t)REG(d->o[1].reg + k, l);
		a = dev_surf_at(x, geom, c, size, (int)d->o[3].imm, &fault);
		if (fault)
			return sim_fault(g, w, (int)l, SIM_FAULT, "%s of %u bytes at (%d, %d, %d) is outside "
			                 "surface '%s' (%u x %u x %u elements; .trap)", store ? "surface store" :
			                 "surface load", size, c[0], c[1], c[2], x->s->name, x->s->dims[0],
			                 x->s->dims[1], x->s->dims[2]);
		if (!a) {           /* .zero outside: reads 0, writes nothing */
			if (!store)
				for (unsigned k = 0; k < (size + 3) / 4; k++)
					REG(d->o[0].reg + k, l) = 0;
			continue;
		}
		if (!(p = mem_at(g, w, l, SP_GLOBAL, a, size, store, 0, &e->space)))
			return SIM_FAULT;
		e->naddr |= 1u << l;
		e->addr[l] = a;
		if (store) {
			uint8_t v[8];
			dev_st(v, size, size == 8 ? src64(g, w, &d->o[0], l) : (uint64_t)REG(d->o[0].reg, l));
			gstore(g, w, p, a, size, v);
			continue;
		}
		uint8_t buf[8];
		p = (uint8_t *)gload(g, w, p, a, size, buf);
		if (size == 8) {
			uint64_t v = dev_ld(p, 8);
			REG(d->o[0].reg, l) = (uint32_t)v;
			REG(d->o[0].reg + 1, l) = (uint32_t)(v >> 32);
		} else
			REG(d->o[0].reg, l) = (uint32_t)dev_ld(p, size);
	}
	return SIM_OK;
}
