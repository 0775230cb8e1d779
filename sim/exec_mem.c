/* exec_mem.c - memory ops at issue: loads and stores of every space (LD ST LDS STS LDL STL,
 * the LDSLK/STSUL lock pair), atomics in lane order (ATOM ATOMS RED), constant loads (LDC);
 * generic addresses into the shared, local and constant windows; and the located faults of
 * misaligned and out-of-bounds accesses (and of generic stores to constant memory). Each
 * fills the ExecInfo's addresses for the timing model. The texture, surface and printf ops,
 * which reach memory through sim_mem_at (exec_mem.h), are in exec_tex.c. */
#include <string.h>
#include <inttypes.h>
#include "sim/exec_mem.h"

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
uint8_t *sim_mem_at(Gpu *g, Warp *w, unsigned l, int space, uint64_t addr, unsigned size,
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

/* the allocation that holds every lane's access of size bytes at addr[] (the lanes ex) when
 * all are aligned and none is in a window: sim_mem_at's answer for each of them without its
 * tests per lane (then a lane's host bytes are its address's offset in it; span: the bytes
 * they all lie in, [span[0], span[1]); *row: a full warp's lanes in a row, lane l's bytes
 * at addr[0] + l * size); else NULL, and sim_mem_at finds each lane's bytes or the first fault */
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
 * sign-extended) is aligned and inside the CTA's shared memory for every lane: sim_mem_at's
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
	 * STS in shared_lanes, the lock pair's below without sim_mem_at's tests per lane */
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
		else if (!(p = sim_mem_at(g, w, l, space, a, size, store, 0, &e->space)))
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
		if (!(p = sim_mem_at(g, w, l, space, a, size, 1, 1, &e->space)))
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
