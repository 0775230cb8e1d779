/* heap.c - the device heap of in-kernel malloc and free (CUDA's device heap: the CUDA C++
 * Programming Guide, "Dynamic Global Memory Allocation and Operations": malloc allocates
 * from a heap of fixed size, cudaLimitMallocHeapSize, 8 MB by default; it returns NULL when
 * the heap cannot satisfy the request, and its pointers are 16-byte aligned;
 * __nv_aligned_device_malloc, which nvcc calls __cuda_syscall_aligned_malloc, aligns to a
 * nonzero power of two). The heap is one
 * global allocation, "device heap", at DEV_HEAP_BASE; the blocks are kept on the host, so a
 * kernel that writes past its block cannot corrupt the allocator. Deterministic: the same
 * sequence of calls gives the same addresses. Both engines call it, in their own order, so
 * an address malloc returns is unspecified (as in CUDA); what a program stores through it
 * is compared.
 *
 * The policy: a request of n bytes takes round_up(max(n, 1), 16) bytes at the first address
 * after the last block that is aligned (16 bytes, or __nv_aligned_device_malloc's alignment,
 * a power of two) when they fit there, else at the first such place in a gap between blocks
 * (first fit), else NULL. free takes a block back by the address malloc returned. */
#include <stdlib.h>
#include <string.h>
#include "device/device.h"

int dev_heap_region(Mem *m, DevHeap *h, uint64_t at, uint64_t bytes, uint64_t align,
                    const char *name)
{
	uint64_t base;

	if (h->size || !bytes)
		return 0;
	if (m->next < at)
		m->next = at;
	if (!(base = dev_mem_alloc(m, bytes, align, name)))
		return -1;
	h->base = base;
	h->size = bytes;
	return 0;
}

int dev_heap_place(Mem *m, uint64_t bytes)
{
	return dev_heap_region(m, &m->heap, DEV_HEAP_BASE, bytes, DEV_HEAP_ALIGN, "device heap");
}

void dev_heap_free_all(DevHeap *h)
{
	free(h->b);
	memset(h, 0, sizeof *h);
}

/* the index of the first block at or after offset off */
static int find(const DevHeap *h, uint64_t off)
{
	int lo = 0, hi = h->n;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (h->b[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insert(DevHeap *h, int at, uint64_t off, uint64_t size)
{
	if (h->n == h->cap) {
		int cap = h->cap ? 2 * h->cap : 64;
		DevHeapBlk *nb = realloc(h->b, (size_t)cap * sizeof *nb);
		if (!nb)
			return -1;
		h->b = nb;
		h->cap = cap;
	}
	memmove(&h->b[at + 1], &h->b[at], (size_t)(h->n - at) * sizeof *h->b);
	h->b[at].off = off;
	h->b[at].size = size;
	h->n++;
	return 0;
}

/* the offset of the first place from `from` on that is aligned to align (an absolute
 * address) and holds need bytes before `to`, or UINT64_MAX */
static uint64_t fit(const DevHeap *h, uint64_t from, uint64_t to, uint64_t need, uint64_t align)
{
	uint64_t at = ((h->base + from + align - 1) & ~(align - 1)) - h->base;

	return at <= to && to - at >= need ? at : UINT64_MAX;
}

uint64_t dev_heap_malloc(DevHeap *h, uint64_t n, uint64_t align)
{
	uint64_t need, end = h->n ? h->b[h->n - 1].off + h->b[h->n - 1].size : 0, prev = 0, at;

	if (!align || (align & (align - 1)) || !h->size || n > h->size || align > h->size)
		return 0;
	if (align < DEV_HEAP_ALIGN)
		align = DEV_HEAP_ALIGN;
	need = ((n ? n : 1) + DEV_HEAP_ALIGN - 1) & ~(uint64_t)(DEV_HEAP_ALIGN - 1);
	if ((at = fit(h, end, h->size, need, align)) != UINT64_MAX)
		return insert(h, h->n, at, need) ? 0 : h->base + at;
	for (int i = 0; i < h->n; prev = h->b[i].off + h->b[i].size, i++)
		if ((at = fit(h, prev, h->b[i].off, need, align)) != UINT64_MAX)
			return insert(h, i, at, need) ? 0 : h->base + at;
	return 0;
}

int dev_heap_free(DevHeap *h, uint64_t addr)
{
	int i;

	if (!addr)
		return 0;
	if (!h->size || addr < h->base || addr - h->base >= h->size)
		return -1;
	i = find(h, addr - h->base);
	if (i == h->n || h->b[i].off != addr - h->base)
		return -1;
	memmove(&h->b[i], &h->b[i + 1], (size_t)(h->n - i - 1) * sizeof *h->b);
	h->n--;
	return 0;
}
