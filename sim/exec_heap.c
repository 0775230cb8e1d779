/* exec_heap.c - MALLOC and FREE, in-kernel malloc and free on the device heap (device/heap.c),
 * and the heap's placement for a kernel that calls them. In a windowed run (docs/timing.md,
 * "Windows") the calls wait in their SM's queue like atomics and are made at the window's end
 * in the order (cycle, SM, position), so the addresses do not depend on --threads; MALLOC's
 * result reaches its registers then (the scoreboard holds them pending, as an atomic's). The
 * timing model charges each call as a 64-bit global atomic of its lanes on one address, the
 * heap's first word (the allocator's state): one transaction through L2, the lanes
 * serialised (docs/timing.md). */
#include <inttypes.h>
#include "sim/exec.h"

int sim_heap_place(const Kernel *k, Mem *m, const Launch *l)
{
	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].op == OP_MALLOC || k->ins[i].op == OP_FREE)
			return dev_heap_place(m, l->heap_bytes);
	return 0;
}

/* MALLOC d, a, b: d = malloc(a) aligned to b of each lane of ex, in ascending order; FREE a
 * gives a back likewise */
int sim_heap(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e)
{
	int isfree = d->op == OP_FREE;

	e->size = 8;
	e->naddr = ex;
	e->space = SP_GLOBAL;
	FOR_LANES(ex) {
		uint64_t v = src64(g, w, &d->o[isfree ? 0 : 1], l), al = isfree ? 0 : src64(g, w, &d->o[2], l);
		e->addr[l] = g->mem->heap.base;
		if (g->defer)
			par_heap(&g->sm[w->cta->sm], g->cycle, w, isfree ? 0 : d->o[0].reg, l, v, al,
			         isfree, g->cur);
		else if (!isfree)
			wr64(w, &d->o[0], l, dev_heap_malloc(&g->mem->heap, v, al));
		else if (dev_heap_free(&g->mem->heap, v))
			return sim_fault(g, w, (int)l, SIM_FAULT, DEV_HEAP_FREE_WHY, v);
	}
	return SIM_OK;
}

int sim_heap_apply(Gpu *g, int sm, const WItem *it)
{
	Warp *w = it->u.hp.w;

	if (it->u.hp.isfree >= 2)   /* CDPBUF, CDPLAUNCH (exec_cdp.c) */
		return sim_cdp_apply(g, sm, it);
	if (!it->u.hp.isfree) {
		uint64_t a = dev_heap_malloc(&g->mem->heap, it->u.hp.v, it->u.hp.align);
		REG(it->u.hp.reg, it->u.hp.lane) = (uint32_t)a;
		REG(it->u.hp.reg + 1, it->u.hp.lane) = (uint32_t)(a >> 32);
		return 0;
	}
	if (!dev_heap_free(&g->mem->heap, it->u.hp.v))
		return 0;
	/* the run stops here: the items before it in the merge order are kept, those after not */
	g->cur = it->u.hp.pc;
	sim_fault(g, w, it->u.hp.lane, SIM_FAULT, DEV_HEAP_FREE_WHY, it->u.hp.v);
	memcpy(g->fault.err, g->err, sizeof g->fault.err);
	g->fault.cycle = it->cycle;
	g->fault.sm = sm;
	g->fault.rc = SIM_FAULT;
	return -1;
}
