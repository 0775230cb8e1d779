/* heap.c - the oracle's in-kernel malloc and free: calls of the extern functions malloc and
 * free (as nvcc and clang emit them for CUDA's malloc, free, new and delete) and nvcc's
 * __cuda_syscall_aligned_malloc (__nv_aligned_device_malloc) on the device
 * heap of device/heap.c, in the order the oracle runs its threads. The heap is placed when
 * the module declares either function. */
#include <string.h>
#include "oracle/internal.h"

/* 1 malloc, 2 __nv_aligned_device_malloc (nvcc's name for it), 3 free; 0 none of them */
static int heap_func(const PFunc *g)
{
	static const char *const names[] = {"malloc", "__cuda_syscall_aligned_malloc", "free"};

	for (int i = 0; i < 3 && !g->has_body; i++)
		if (!strcmp(g->name, names[i]))
			return i + 1;
	return 0;
}

int or_heap_place(Oracle *o, const Launch *l)
{
	for (int i = 0; i < o->m->nfuncs; i++)
		if (heap_func(&o->m->funcs[i]))
			return dev_heap_place(o->mem, l->heap_bytes);
	return 0;
}

int or_heap_call(Oracle *o, Thread *t, const PIns *in, const PFunc *g)
{
	const POpd *args = &in->o[2], *rets = &in->o[0];
	int kind = heap_func(g), np = kind == 2 ? 2 : 1, nr = kind != 3;
	uint8_t v[2][16] = {{0}}, r[8];
	uint64_t a;

	if (!kind || g->nparams != np || args->nelems != np || g->nrets != nr ||
	    rets->nelems > nr || (nr && g->rets[0].size != 8))
		return 0;
	for (int i = 0; i < np; i++)
		if (g->params[i].size != 8)
			return 0;
	for (int i = 0; i < np; i++)
		if (or_slot_bytes(o, t, &args->elems[i], &g->params[i], v[i], 0) || o->result)
			return 1;
	a = dev_ld(v[0], 8);
	if (kind != 3) {
		dev_st(r, 8, dev_heap_malloc(&o->mem->heap, a, kind == 2 ? dev_ld(v[1], 8) : DEV_HEAP_ALIGN));
		if (rets->nelems)
			or_slot_bytes(o, t, &rets->elems[0], &g->rets[0], r, 1);
	} else if (dev_heap_free(&o->mem->heap, a)) {
		or_error(o, t, OR_FAULT, DEV_HEAP_FREE_WHY, a);
	}
	return 1;
}
