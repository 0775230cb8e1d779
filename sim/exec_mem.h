/* exec_mem.h - what exec_mem.c (loads, stores, atomics) shares with exec_tex.c (texture,
 * surface and printf ops): an access's size, a lane's host bytes or its located fault, and
 * a windowed run's deferred global stores and the loads that read over them. */
#ifndef WARPSIM_EXEC_MEM_H
#define WARPSIM_EXEC_MEM_H

#include "sim/exec.h"

/* exec_mem.c: lane l's host bytes of an access of size bytes at addr in space (SP_GLOBAL: a
 * generic address, *sp set to the space it falls in), or NULL after its located fault */
uint8_t *sim_mem_at(Gpu *g, Warp *w, unsigned l, int space, uint64_t addr, unsigned size,
                    int store, int atom, uint8_t *sp);

/* bytes of one access of type t */
static inline unsigned msize(Type t)
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

/* a windowed run defers global stores and atomics to the window's end (par.c): a global
 * store of size bytes v at p (address a), or the size bytes at p as this SM sees them */
static inline void gstore(Gpu *g, const Warp *w, uint8_t *p, uint64_t a, unsigned size,
                          const uint8_t *v)
{
	if (g->defer)
		par_store(&g->sm[w->cta->sm], g->cycle, p, a, size, v);
	else
		memcpy(p, v, size);
}

/* the size bytes at p (address a) with SM s's own queued stores over them, in buf */
static inline const uint8_t *overlaid(SM *s, const uint8_t *p, uint64_t a, unsigned size,
                                      uint8_t *buf)
{
	memcpy(buf, p, size);
	par_overlay(s, a, size, buf);
	return buf;
}

static inline const uint8_t *gload(Gpu *g, const Warp *w, const uint8_t *p, uint64_t a,
                                   unsigned size, uint8_t *buf)
{
	if (!g->defer || !par_stored(&g->sm[w->cta->sm]))
		return p;
	return overlaid(&g->sm[w->cta->sm], p, a, size, buf);
}

#endif
