/* cdp.c - the oracle's dynamic parallelism: the device runtime calls of a kernel that
 * launches grids (cudaGetParameterBuffer(V2), cudaLaunchDevice(V2), cudaGetLastError) on
 * device/cdp.c's buffers and queue, and the child grids, run one at a time once the host
 * grid is done, in the queue's order (docs/warpsim.md, "Dynamic parallelism"). The SM model
 * (sim/exec_cdp.c) makes the same launches in its own order; the queue's sort makes the
 * order of the grids the same. */
#include <stdlib.h>
#include <string.h>
#include "oracle/internal.h"

/* the header below buffer buf: the kernel (argument fa), grid (ga), block (ba), shared (sa) */
static int header(Oracle *o, Thread *t, const PIns *in, const PFunc *g, uint64_t buf, int fa,
                  int ga, int ba, int sa)
{
	static const int at[4] = {DEV_CDP_H_FUNC, DEV_CDP_H_GRID, DEV_CDP_H_BLOCK, DEV_CDP_H_SHMEM};
	const int arg[4] = {fa, ga, ba, sa};
	uint8_t v[16];
	uint8_t *p = or_ptr(o, t, PS_GLOBAL, buf - DEV_CDP_HDR, DEV_CDP_HDR, 1);

	for (int i = 0; p && i < 4; i++) {
		memset(v, 0, sizeof v);
		if (or_slot_bytes(o, t, &in->o[2].elems[arg[i]], &g->params[arg[i]], v, 0))
			return -1;
		memcpy(p + at[i], v, (size_t)g->params[arg[i]].size);
	}
	return p ? 0 : -1;
}

/* the launching thread t */
static void who(Oracle *o, const Thread *t, const PIns *in, DevCdpWho *w)
{
	const uint32_t *gd = o->l->grid, *b = o->l->block;

	memset(w, 0, sizeof *w);
	w->cta = o->ctaid[0] + (uint64_t)gd[0] * (o->ctaid[1] + (uint64_t)gd[1] * o->ctaid[2]);
	w->tid = t->tid[0] + b[0] * (t->tid[1] + b[1] * t->tid[2]);
	memcpy(w->ctaid, o->ctaid, sizeof w->ctaid);
	memcpy(w->tidv, t->tid, sizeof w->tidv);
	w->kernel = o->m->funcs[o->ki].name;
	snprintf(w->where, sizeof w->where, "%s:%d", ptx_loc_name(o->m, in->loc), in->loc.line);
}

int or_cdp_call(Oracle *o, Thread *t, const PIns *in, const PFunc *g)
{
	int kind = ptx_devrt_kind(g, in);
	uint8_t v[2][16] = {{0}}, r[8] = {0};
	uint64_t buf = 0;
	char why[512];

	if (kind < 0)
		return kind == -2 ? (or_error(o, t, OR_UNSUP, "unsupported: a call of %s unlike CUDA's "
		                              "declaration", g->name), 1) : 0;
	if (kind == PTX_DEVRT_STREAM) {   /* a stream changes no order: one handle for all */
		uint8_t *p;
		if (or_slot_bytes(o, t, &in->o[2].elems[0], &g->params[0], v[0], 0) ||
		    or_slot_bytes(o, t, &in->o[2].elems[1], &g->params[1], v[1], 0))
			return 1;
		if (dev_ld(v[1], 4) != 1) {
			or_error(o, t, OR_FAULT, DEV_CDP_STREAM_WHY);
			return 1;
		}
		if (!(p = or_ptr(o, t, PS_NONE, dev_ld(v[0], 8), 8, 1)))
			return 1;
		dev_st(p, 8, ISA_CDP_STREAM);
	}
	if (kind != PTX_DEVRT_LASTERR && kind < PTX_DEVRT_STREAM && !o->cdp &&
	    (!(o->cdp = calloc(1, sizeof *o->cdp)) || dev_cdp_place(o->mem, o->l->cdp_pending)))
		die("out of memory");
	if (kind == PTX_DEVRT_GETBUF || kind == PTX_DEVRT_GETBUF2) {
		uint64_t size = DEV_CDP_BUFMAX;
		if (kind == PTX_DEVRT_GETBUF) {
			if (or_slot_bytes(o, t, &in->o[2].elems[1], &g->params[1], v[0], 0))
				return 1;
			size = dev_ld(v[0], 8);
		}
		if (!(buf = dev_cdp_buffer(o->mem, size))) {
			if (size > DEV_CDP_BUFMAX)
				or_error(o, t, OR_FAULT, DEV_CDP_BIG_WHY, size);
			else
				or_error(o, t, OR_FAULT, DEV_CDP_FULL_WHY, o->l->cdp_pending);
			return 1;
		}
		if (kind == PTX_DEVRT_GETBUF2 && header(o, t, in, g, buf, 0, 1, 2, 3))
			return 1;
		dev_st(r, 8, buf);
	} else if (kind == PTX_DEVRT_LAUNCH || kind == PTX_DEVRT_LAUNCH2) {
		DevCdpWho w;
		if (or_slot_bytes(o, t, &in->o[2].elems[kind == PTX_DEVRT_LAUNCH], 
		                  &g->params[kind == PTX_DEVRT_LAUNCH], v[1], 0))
			return 1;
		buf = dev_ld(v[1], 8);
		if (kind == PTX_DEVRT_LAUNCH && header(o, t, in, g, buf, 0, 2, 3, 4))
			return 1;
		who(o, t, in, &w);
		if (dev_cdp_launch(o->cdp, o->mem, buf, &w, why, sizeof why)) {
			or_error(o, t, OR_FAULT, "%s", why);
			return 1;
		}
		DevCdpLaunch *l = &o->cdp->l[o->cdp->n - 1];
		uint64_t fi = (l->func - OR_FUNC_BASE) / 16;
		if (l->func < OR_FUNC_BASE || (l->func - OR_FUNC_BASE) % 16 ||
		    fi >= (uint64_t)o->m->nfuncs || !o->m->funcs[fi].entry) {
			or_error(o, t, OR_FAULT, "cudaLaunchDevice of 0x%llx, which is not a kernel's "
			         "address", (unsigned long long)l->func);
			return 1;
		}
		l->kname = o->m->funcs[fi].name;
		if (!o->m->funcs[fi].has_body) {
			or_error(o, t, OR_FAULT, DEV_CDP_NOKERNEL_WHY, l->kname);
			return 1;
		}
	}
	if (in->o[0].nelems == 1)
		or_slot_bytes(o, t, &in->o[0].elems[0], &g->rets[0], r, 1);
	return 1;
}

/* the child grids, once the host grid is done: OR_DONE or the error */
int or_cdp_children(Oracle *o)
{
	const Launch *host = o->l;
	Launch cl = *host;
	DevCdpLaunch *r;
	int depth = 0;
	char why[700], ctx[400];

	cl.cooperative = 0;   /* a device-side launch is never cooperative (CUDA has none) */

	while (!o->result) {
		if (dev_cdp_merge(o->cdp, o->mem, depth, host->cdp_pending, why, sizeof why)) {
			fprintf(o->err, "warpsim: oracle: error: %s\n", why);
			o->result = OR_FAULT;
			break;
		}
		if (!(r = dev_cdp_next(o->cdp)))
			break;
		int fi = ptx_find_func(o->m, r->kname);
		const PFunc *kf = &o->m->funcs[fi];
		Prog *prog = isa_prog_new();
		Kernel *k = isa_prog_add_kernel(prog, kf->name);
		int rc;
		for (int i = 0; i < kf->nparams; i++)
			isa_kernel_add_param(k, o->fi[fi].paroff[i], (uint32_t)kf->params[i].size,
			                     kf->params[i].name);
		depth = r->depth;
		memcpy(cl.grid, r->grid, sizeof cl.grid);
		memcpy(cl.block, r->block, sizeof cl.block);
		cl.shared_bytes = r->shmem;
		rc = dev_cdp_bank0(o->mem, k, r, &cl, why, sizeof why);
		isa_prog_free(prog);
		dev_cdp_context(r, ctx, sizeof ctx);
		if (rc) {
			fprintf(o->err, "warpsim: oracle: error: %s: %s\n", ctx, why);
			o->result = OR_FAULT;
			break;
		}
		for (uint32_t i = 0; i < o->nthreads; i++)
			or_thread_free(&o->th[i]);
		free(o->th);
		free(o->shared);
		o->ki = fi;
		o->l = &cl;
		o->nthreads = r->block[0] * r->block[1] * r->block[2];
		or_kernel_shared(o, fi, r->shmem);
		o->shared = calloc(o->shsize ? o->shsize : 1, 1);
		o->th = calloc(o->nthreads, sizeof *o->th);
		if (!o->shared || !o->th)
			die("out of memory");
		o->st.cdp_grids++;
		or_run_grid(o);
		if (o->result)   /* which grid the message above was in */
			fprintf(o->err, "  in %s\n", ctx);
	}
	o->l = host;
	return o->result;
}
