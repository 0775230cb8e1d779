/* cdp.c - dynamic parallelism (CUDA Dynamic Parallelism, Kepler sm_35): the parameter buffers
 * of cudaGetParameterBuffer(V2), the launches of cudaLaunchDevice(V2) and the queue of child
 * grids, for both engines (docs/warpsim.md, "Dynamic parallelism").
 *
 * A parameter buffer is a block of the region "CDP parameter buffers" at DEV_CDP_BASE (a
 * DevHeap, heap.c's allocator): a 64-byte launch header, then the buffer, 64-byte aligned
 * (the CUDA C++ Programming Guide, "Device-side Launch from PTX": the buffer is 64-byte
 * aligned, at most 4 KB, and the alignment asked for is ignored). The header holds what
 * cudaLaunchDevice takes besides the buffer: the kernel, the grid and block dimensions and
 * the dynamic shared memory; cudaGetParameterBufferV2 fills it when it gives the buffer,
 * cudaLaunchDevice (V1) when it launches. A launch copies the header and the buffer into a
 * DevCdpLaunch (the buffer then belongs to the runtime, as CUDA says); the buffers of a grid
 * are all given back when it ends.
 *
 * The order: grids run one at a time. When a grid ends, its launches are merged into the
 * queue, sorted by the launching thread's block (linear index), then its thread (linear
 * index), then the thread's own order; the queue runs first in, first out. A launch that
 * would put a grid deeper than DEV_CDP_DEPTH (the host's grid is depth 0), or make more than
 * the launch's cdp_pending grids wait in the queue, stops the run with a located error; so
 * does a launch of a buffer that no cudaGetParameterBuffer gave. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "device/device.h"

static void *xrealloc(void *p, size_t n)
{
	if (!(p = realloc(p, n ? n : 1))) {
		fprintf(stderr, "warpsim: out of memory\n");
		exit(1);
	}
	return p;
}

int dev_cdp_place(Mem *m, uint32_t pending)
{
	uint64_t bytes = (uint64_t)(pending ? pending : 1) * (DEV_CDP_HDR + DEV_CDP_BUFMAX);

	return dev_heap_region(m, &m->cdpbuf, DEV_CDP_BASE, bytes, DEV_CDP_HDR, "CDP parameter buffers");
}

uint64_t dev_cdp_buffer(Mem *m, uint64_t size)
{
	uint64_t a;

	if (!m->cdpbuf.size || size > DEV_CDP_BUFMAX)
		return 0;
	a = dev_heap_malloc(&m->cdpbuf, DEV_CDP_HDR + (size ? size : 1), DEV_CDP_HDR);
	return a ? a + DEV_CDP_HDR : 0;
}

/* the block of buffer buf, or -1 */
static int buffer_block(const DevHeap *h, uint64_t buf)
{
	for (int lo = 0, hi = h->n; lo < hi;) {
		int mid = (lo + hi) / 2;
		uint64_t off = h->b[mid].off + DEV_CDP_HDR;
		if (h->base + off == buf)
			return mid;
		if (h->base + off < buf)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int dev_cdp_launch(DevCdp *c, Mem *m, uint64_t buf, const DevCdpWho *who, char *why, size_t n)
{
	const DevHeap *h = &m->cdpbuf;
	int bi = buffer_block(h, buf);
	const uint8_t *p;
	DevCdpLaunch *r;
	uint64_t size;

	if (bi < 0) {
		snprintf(why, n, "cudaLaunchDevice of the parameter buffer 0x%016" PRIx64 ", which no "
		         "cudaGetParameterBuffer of this grid gave", buf);
		return -1;
	}
	size = h->b[bi].size - DEV_CDP_HDR;
	p = dev_mem_global(m, buf - DEV_CDP_HDR, DEV_CDP_HDR + size);
	assert(p);   /* the block lies in the region */
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->l = xrealloc(c->l, (size_t)c->cap * sizeof *c->l);
	}
	r = &c->l[c->n];
	memset(r, 0, sizeof *r);
	r->func = dev_ld(p + DEV_CDP_H_FUNC, 8);
	for (int i = 0; i < 3; i++) {
		r->grid[i] = (uint32_t)dev_ld(p + DEV_CDP_H_GRID + 4 * i, 4);
		r->block[i] = (uint32_t)dev_ld(p + DEV_CDP_H_BLOCK + 4 * i, 4);
	}
	r->shmem = (uint32_t)dev_ld(p + DEV_CDP_H_SHMEM, 4);
	r->nparams = (uint32_t)size;
	r->params = xrealloc(NULL, size);
	memcpy(r->params, p + DEV_CDP_HDR, size);
	r->who = *who;
	r->seq = c->seq++;
	c->n++;
	return 0;
}

void dev_cdp_context(const DevCdpLaunch *r, char *out, size_t n)
{
	snprintf(out, n, "the child grid of kernel '%s' (depth %d) launched by kernel '%s', block "
	         "(%u,%u,%u), thread (%u,%u,%u), %s", r->kname, r->depth, r->who.kernel,
	         r->who.ctaid[0], r->who.ctaid[1], r->who.ctaid[2], r->who.tidv[0], r->who.tidv[1],
	         r->who.tidv[2], r->who.where);
}

static int by_key(const void *a, const void *b)
{
	const DevCdpLaunch *x = a, *y = b;

	if (x->who.cta != y->who.cta)
		return x->who.cta < y->who.cta ? -1 : 1;
	if (x->who.tid != y->who.tid)
		return x->who.tid < y->who.tid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* the located text of a launch: "kernel 'K', block (x,y,z), thread (x,y,z), WHERE" */
static void who_text(const DevCdpWho *w, char *out, size_t n)
{
	snprintf(out, n, "kernel '%s', block (%u,%u,%u), thread (%u,%u,%u), %s", w->kernel,
	         w->ctaid[0], w->ctaid[1], w->ctaid[2], w->tidv[0], w->tidv[1], w->tidv[2], w->where);
}

int dev_cdp_merge(DevCdp *c, Mem *m, int depth, uint32_t pending, char *why, size_t n)
{
	char at[400];
	int rc = 0;

	/* the buffers were copied at launch: the region starts empty for the next grid */
	free(m->cdpbuf.b);
	m->cdpbuf.b = NULL;
	m->cdpbuf.n = m->cdpbuf.cap = 0;
	if (c->n)
		qsort(c->l, (size_t)c->n, sizeof *c->l, by_key);
	for (int i = 0; i < c->n; i++) {
		DevCdpLaunch *r = &c->l[i];
		r->depth = depth + 1;
		if (rc)
			free(r->params);
		else if (r->depth > DEV_CDP_DEPTH) {
			who_text(&r->who, at, sizeof at);
			snprintf(why, n, "%s: cudaLaunchDevice: the child grid would be at nesting depth "
			         "%d, deeper than CUDA's limit of %d (cudaErrorLaunchMaxDepthExceeded)", at,
			         r->depth, DEV_CDP_DEPTH);
			free(r->params);
			rc = -1;
		} else if ((uint64_t)(c->nq - c->head) + 1 > pending) {
			who_text(&r->who, at, sizeof at);
			snprintf(why, n, "%s: cudaLaunchDevice: more than %u child grids would be pending "
			         "(--cdp-pending, CUDA's cudaLimitDevRuntimePendingLaunchCount; "
			         "cudaErrorLaunchPendingCountExceeded)", at, pending);
			free(r->params);
			rc = -1;
		} else {
			if (c->nq == c->capq) {
				c->capq = c->capq ? 2 * c->capq : 16;
				c->q = xrealloc(c->q, (size_t)c->capq * sizeof *c->q);
			}
			c->q[c->nq++] = *r;
		}
	}
	c->n = 0;
	c->seq = 0;
	return rc;
}

DevCdpLaunch *dev_cdp_next(DevCdp *c)
{
	if (c->head == c->nq)
		return NULL;
	c->grids++;
	return &c->q[c->head++];
}

void dev_cdp_free(DevCdp *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->l[i].params);
	for (int i = 0; i < c->nq; i++)
		free(c->q[i].params);
	free(c->l);
	free(c->q);
	memset(c, 0, sizeof *c);
}

int dev_cdp_bank0(Mem *m, const Kernel *k, const DevCdpLaunch *r, const Launch *l, char *why,
                  size_t n)
{
	uint32_t base = k->nparams ? k->params[0].offset : 0;

	for (int i = 0; i < 3; i++)
		if (!r->grid[i] || !r->block[i]) {
			snprintf(why, n, "a grid of %u x %u x %u blocks of %u x %u x %u threads (every "
			         "dimension must be at least 1: cudaErrorInvalidConfiguration)", r->grid[0],
			         r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2]);
			return -1;
		}
	if ((uint64_t)r->block[0] * r->block[1] * r->block[2] > 1024) {
		snprintf(why, n, "a block of %u x %u x %u threads: a block holds at most 1024 "
		         "(cudaErrorInvalidConfiguration)", r->block[0], r->block[1], r->block[2]);
		return -1;
	}
	dev_bank0_header(m, k, l);
	dev_bank0_envregs(m, k, l);
	/* the buffer holds the parameters as bank 0 does from its first one: each aligned to its
	 * own alignment, in order (the Guide's "Parameter Buffer Layout") */
	for (int i = 0; i < k->nparams; i++) {
		const Param *p = &k->params[i];
		uint32_t off = p->offset - base;
		if (off + p->size > r->nparams) {
			snprintf(why, n, "kernel '%s' takes %u bytes of parameters; its parameter buffer "
			         "holds %u", k->name, k->params[k->nparams - 1].offset - base +
			         k->params[k->nparams - 1].size, r->nparams);
			return -1;
		}
		if (!dev_mem_cwrite(m, 0, p->offset, r->params + off, p->size)) {
			snprintf(why, n, "kernel '%s': parameter %d at c[0x0][0x%x] is outside the bank",
			         k->name, i, p->offset);
			return -1;
		}
	}
	return 0;
}

int dev_cdp_globals(Mem *m, const Kernel *k, char *why, size_t n)
{
	uint8_t *fresh = xrealloc(NULL, (size_t)k->nglobals);

	memset(fresh, 0, (size_t)k->nglobals);
	for (int i = 0; i < k->nglobals; i++) {
		const GlobalVar *gv = &k->globals[i];
		char name[160];
		uint64_t addr = dev_mem_global_addr(m, gv->name ? gv->name : "?");
		snprintf(name, sizeof name, "global %.100s", gv->name ? gv->name : "?");
		if (addr && gv->init) {
			/* placed by an earlier grid or launch: its value stays, but for the words that
			 * hold function addresses (a C++ vtable), which become this kernel's: each kernel
			 * has its code image of its own here, where a GPU has one for the program */
			const MemAlloc *a = dev_mem_find(m, addr);
			for (int w = 0; a && w < gv->nfwords; w++)
				if (gv->fwords[w] + 8 <= gv->size && gv->fwords[w] + 8 <= a->size)
					memcpy(a->bytes + (addr - a->base) + gv->fwords[w], gv->init + gv->fwords[w], 8);
		}
		if (!addr) {
			if (!(addr = dev_mem_alloc(m, gv->size, gv->align, name))) {
				snprintf(why, n, "cannot allocate %s (%" PRIu64 " bytes)", name, gv->size);
				free(fresh);
				return -1;
			}
			fresh[i] = 1;
			if (gv->init)
				memcpy(dev_mem_global(m, addr, 0), gv->init, gv->size);
		}
		if (gv->bank != ISA_NOSLOT && !dev_mem_cwrite(m, gv->bank, gv->slot, &addr, 8)) {
			snprintf(why, n, "%s: slot c[0x%x][0x%x] is outside the bank", name, gv->bank,
			         gv->slot);
			free(fresh);
			return -1;
		}
	}
	/* a global placed now that holds the address of a global */
	for (int i = 0; i < k->nrelocs; i++) {
		const GlobalReloc *r = &k->relocs[i];
		uint64_t at = dev_mem_global_addr(m, k->globals[r->var].name);
		uint64_t to = dev_mem_global_addr(m, k->globals[r->target].name);
		uint8_t *p = at && r->off + 8 <= k->globals[r->var].size ?
		             dev_mem_global(m, at + r->off, 8) : NULL;
		if (!fresh[r->var])
			continue;
		if (!p || !to) {
			snprintf(why, n, "the address of %s in %s does not fit", k->globals[r->target].name,
			         k->globals[r->var].name);
			free(fresh);
			return -1;
		}
		dev_st(p, 8, to + r->addend);
	}
	free(fresh);
	for (int i = 0; i < k->ncdata; i++) {
		const ConstData *cd = &k->cdata[i];
		if (!dev_mem_cwrite(m, cd->bank, cd->offset, cd->bytes, cd->size)) {
			snprintf(why, n, "constant data c[0x%x][0x%x] (%u bytes) is outside the bank",
			         cd->bank, cd->offset, cd->size);
			return -1;
		}
	}
	dev_mem_recover(m);   /* the launch's --const values stay */
	return 0;
}
