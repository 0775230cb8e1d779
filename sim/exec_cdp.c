/* exec_cdp.c - dynamic parallelism on the SM model: CDPBUF (cudaGetParameterBuffer) and
 * CDPLAUNCH (cudaLaunchDevice) on device/cdp.c's buffers and queue, and the child grids, run
 * when the host grid is done (docs/warpsim.md, "Dynamic parallelism"). In a windowed run both
 * ops wait in their SM's queue like MALLOC (exec_heap.c) and are made at the window's end in
 * the order (cycle, SM, position): a launch then reads the buffer after every store made to
 * it before, and CDPBUF's address reaches its registers then. The timing model charges
 * CDPBUF as MALLOC (a 64-bit global atomic of its lanes on one address, the allocator's
 * state) and CDPLAUNCH as a global access of 8 bytes per lane at the buffer.
 *
 * Each child grid runs on a Gpu of its own, after the one before it: its CTAs go through
 * the dispatcher onto empty SMs and its cycles add to the run's (the GPU runs one grid at a
 * time; the launch itself costs no cycles beyond its instruction). Its statistics add to the
 * host grid's; cdp_child_grids and cdp_child_ctas count them. Traces and line statistics
 * follow the host grid only; printf output of every grid goes to the same stream. */
#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "sim/exec.h"

int sim_cdp_place(Gpu *g, const Kernel *k, Mem *m, const Launch *l)
{
	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].op == OP_CDPBUF || k->ins[i].op == OP_CDPLAUNCH) {
			if (!g->cdp && !(g->cdp = calloc(1, sizeof *g->cdp)))
				return -1;
			return dev_cdp_place(m, l->cdp_pending);
		}
	return 0;
}

/* the launching thread of lane l of w at code index pc */
static void who(Gpu *g, const Warp *w, unsigned l, uint32_t pc, DevCdpWho *o)
{
	uint32_t t = (uint32_t)w->idx * 32 + l;

	memset(o, 0, sizeof *o);
	o->cta = w->cta->lin;
	o->tid = t;
	memcpy(o->ctaid, w->cta->id, sizeof o->ctaid);
	o->tidv[0] = t % g->block[0];
	o->tidv[1] = t / g->block[0] % g->block[1];
	o->tidv[2] = t / g->block[0] / g->block[1];
	o->kernel = g->k->name;
	snprintf(o->where, sizeof o->where, "pc 0x%04x", sim_addr(g, pc));
}

/* CDPBUF of lane l (the address into its registers) or CDPLAUNCH of buffer v: SIM_OK, or the
 * fault that stops the run */
static int make(Gpu *g, Warp *w, unsigned l, int launch, uint16_t reg, uint64_t v, uint32_t pc)
{
	char why[512];
	DevCdpWho o;
	uint64_t a;

	g->cur = pc;
	if (!launch) {
		if (!(a = dev_cdp_buffer(g->mem, v)))
			return v > DEV_CDP_BUFMAX ? sim_fault(g, w, (int)l, SIM_FAULT, DEV_CDP_BIG_WHY, v) :
			       sim_fault(g, w, (int)l, SIM_FAULT, DEV_CDP_FULL_WHY, g->launch->cdp_pending);
		REG(reg, l) = (uint32_t)a;
		REG(reg + 1, l) = (uint32_t)(a >> 32);
		return SIM_OK;
	}
	who(g, w, l, pc, &o);
	if (dev_cdp_launch(g->cdp, g->mem, v, &o, why, sizeof why))
		return sim_fault(g, w, (int)l, SIM_FAULT, "%s", why);
	/* the kernel's address is one of this kernel's kernel-address slots (Kernel.kref) */
	DevCdpLaunch *r = &g->cdp->l[g->cdp->n - 1];
	uint64_t slot = (r->func - ISA_KREF_BASE) / 16;
	if (r->func < ISA_KREF_BASE || (r->func - ISA_KREF_BASE) % 16 || slot >= (uint64_t)g->k->nkref)
		return sim_fault(g, w, (int)l, SIM_FAULT, "cudaLaunchDevice of 0x%" PRIx64 ", which is "
		                 "not a kernel's address", r->func);
	r->kname = g->k->kref[slot];
	if (!g->program || !isa_prog_find(g->program, r->kname))
		return sim_fault(g, w, (int)l, SIM_FAULT, DEV_CDP_NOKERNEL_WHY, r->kname);
	return SIM_OK;
}

int sim_cdp(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e)
{
	int launch = d->op == OP_CDPLAUNCH, rc;

	e->size = 8;
	e->naddr = ex;
	e->space = SP_GLOBAL;
	FOR_LANES(ex) {
		uint64_t v = src64(g, w, &d->o[launch ? 0 : 1], l);
		e->addr[l] = launch ? v : g->mem->cdpbuf.base;
		if (g->defer)
			par_heap(&g->sm[w->cta->sm], g->cycle, w, launch ? 0 : d->o[0].reg, l, v, 0,
			         2 + launch, g->cur);
		else if ((rc = make(g, w, l, launch, launch ? 0 : d->o[0].reg, v, g->cur)) != SIM_OK)
			return rc;
	}
	return SIM_OK;
}

int sim_cdp_apply(Gpu *g, int sm, const WItem *it)
{
	if (make(g, it->u.hp.w, it->u.hp.lane, it->u.hp.isfree == 3, it->u.hp.reg, it->u.hp.v,
	         it->u.hp.pc) == SIM_OK)
		return 0;
	/* the run stops here: the items before it in the merge order are kept, those after not */
	memcpy(g->fault.err, g->err, sizeof g->fault.err);
	g->fault.cycle = it->cycle;
	g->fault.sm = sm;
	g->fault.rc = SIM_FAULT;
	return -1;
}

/* runs child grid r on a Gpu of its own; its statistics go to g's */
static int child(Gpu *g, const DevCdpLaunch *r, uint64_t maxc)
{
	const Kernel *k = g->program ? isa_prog_find(g->program, r->kname) : NULL;
	Launch cl = *g->launch;
	char why[600], ctx[400];
	Gpu *c;
	int rc;

	assert(k);   /* (make() checked it at the launch) */
	memcpy(cl.grid, r->grid, sizeof cl.grid);
	memcpy(cl.block, r->block, sizeof cl.block);
	cl.shared_bytes = r->shmem;
	cl.cooperative = 0;   /* a device-side launch is never cooperative (CUDA has none) */
	dev_cdp_context(r, ctx, sizeof ctx);
	if (dev_cdp_bank0(g->mem, k, r, &cl, why, sizeof why) ||
	    dev_cdp_globals(g->mem, k, why, sizeof why)) {
		snprintf(g->err, sizeof g->err, "warpsim: error: %s: %s\n", ctx, why);
		return SIM_FAULT;
	}
	SimConfig cfg = g->cfg;
	cfg.progress = 0;
	if (!(c = sim_gpu_new(k, g->mem, &cl, &cfg, g->listing, stderr))) {
		snprintf(g->err, sizeof g->err, "warpsim: error: the child grid of kernel '%s' "
		         "cannot start (above)\n", k->name);
		return SIM_FAULT;
	}
	free(c->cdp);        /* the host grid's queue takes its launches */
	c->cdp = g->cdp;
	c->cdpdepth = r->depth;
	c->program = g->program;
	c->pout = g->pout;
	c->ptag = g->ptag;
	rc = sim_run(c, maxc && maxc > g->ts.cycles ? maxc - g->ts.cycles : maxc ? 1 : 0);
	if (rc != SIM_DONE)   /* its message, then which grid it was */
		snprintf(g->err, sizeof g->err, "%.3000s    in %s\n", c->err, ctx);
	g->ts.cycles += c->ts.cycles;
	g->st.cycles += c->st.cycles;
	g->ts.dram_bytes += c->ts.dram_bytes;
	g->ts.ctas += c->ts.ctas;
	g->ts.cdp_grids++;
	g->ts.cdp_ctas += c->ts.ctas;
	par_add_tstats(&g->ts, &c->ts);
	par_add_stats(&g->st, &c->st);
	c->cdp = NULL;
	sim_gpu_free(c);
	return rc;
}

int sim_cdp_children(Gpu *g, uint64_t maxc)
{
	int depth = 0, rc = SIM_DONE;
	DevCdpLaunch *r;
	char why[700];

	while (rc == SIM_DONE) {
		if (dev_cdp_merge(g->cdp, g->mem, depth, g->launch->cdp_pending, why, sizeof why)) {
			snprintf(g->err, sizeof g->err, "warpsim: error: %s\n", why);
			return SIM_FAULT;
		}
		if (!(r = dev_cdp_next(g->cdp)))
			break;
		depth = r->depth;
		rc = child(g, r, maxc);
	}
	return rc;
}
