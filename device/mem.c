/* mem.c - device memory: global allocations at realistic addresses with guard gaps, the
 * constant banks, and little-endian access helpers. Knows nothing of warps or CTAs, so the
 * PTX oracle shares it. */
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS and madvise, beside POSIX's mmap */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>
#include <sys/mman.h>
#include "device/device.h"

/* The host copy of an allocation of CHUNK_MIN bytes or more is a piece of a MemChunk, a
 * mapping advised to be backed by 2 MiB pages: a buffer of a megabyte otherwise costs 256
 * page faults when it is filled (or first stored to), each with the kernel's clear of its
 * page, which on a virtual machine is several microseconds. Pieces follow one another at
 * DEV_ALLOC_ALIGN, so buffers share huge pages and the memory resident stays that of the
 * buffers touched. Smaller copies are callocs of their own.
 *
 * Where a checker watches host bounds (ASan: gcc says so by __SANITIZE_ADDRESS__, clang only
 * by __has_feature; valgrind's memcheck, asked at run time), the chunk path is the same but
 * checked: a chunk starts out unaddressable for the checker, each piece is made addressable
 * for exactly its size, and a redzone of DEV_ALLOC_ALIGN bytes comes before every piece (the
 * one after it is the next piece's, or the chunk's unused end and slack), so that a host read
 * or write just before or past a copy is reported as it is for a calloc. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(MEM_ASAN)
#define MEM_ASAN 1
#endif
#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
#define MEM_CHUNKS 1
#else
#define MEM_CHUNKS 0
#endif
#if MEM_CHUNKS && defined(MEM_ASAN)
#include <sanitizer/asan_interface.h>
#define MEM_HIDE(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define MEM_SHOW(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#define MEM_CHECKED 1
#elif MEM_CHUNKS && defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define MEM_HIDE(p, n) VALGRIND_MAKE_MEM_NOACCESS((p), (n))
#define MEM_SHOW(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))   /* (mmap's zeros) */
#define MEM_CHECKED RUNNING_ON_VALGRIND
#endif
#endif
#ifndef MEM_HIDE
#define MEM_HIDE(p, n) ((void)(p), (void)(n))
#define MEM_SHOW(p, n) ((void)(p), (void)(n))
#define MEM_CHECKED 0
#endif
enum {
	HUGE_PAGE = 2u << 20,
	CHUNK_MIN = 64u << 10,     /* the smallest copy made in a chunk */
	CHUNK_BYTES = 16u << 20,   /* a new chunk's address space, unless one copy needs more */
};

void *dev_huge_alloc(size_t n)
{
#if MEM_CHUNKS && !defined(MEM_ASAN)
	size_t sz = (n + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
	void *p;

	if (MEM_CHECKED || n > SIZE_MAX - HUGE_PAGE || !(p = aligned_alloc(HUGE_PAGE, sz)))
		return NULL;
	madvise(p, sz, MADV_HUGEPAGE);   /* advice: without it, 4 KiB pages */
	return p;
#else
	(void)n;
	return NULL;
#endif
}

void dev_mem_init(Mem *m)
{
	static const uint16_t one = 1;

	memset(m, 0, sizeof *m);
	m->next = DEV_GLOBAL_BASE;
	/* every byte order below assumes a little-endian host, like the GPU */
	assert(*(const uint8_t *)&one == 1);
	(void)one;
}

void dev_mem_free(Mem *m)
{
	for (int i = 0; i < m->n; i++) {
		if (!m->a[i].inchunk)
			free(m->a[i].bytes);
		free(m->a[i].name);
	}
	free(m->a);
#if MEM_CHUNKS
	for (int i = 0; i < m->nchunk; i++) {
		MEM_SHOW(m->chunk[i].map, m->chunk[i].cap + HUGE_PAGE);   /* (ASan's shadow) */
		munmap(m->chunk[i].map, m->chunk[i].cap + HUGE_PAGE);
	}
#endif
	free(m->chunk);
	for (int i = 0; i < DEV_NBANKS; i++)
		free(m->bank[i]);
	dev_heap_free_all(&m->heap);
	dev_heap_free_all(&m->cdpbuf);
	for (int i = 0; i < m->ncover; i++)
		free(m->cover[i].bytes);
	free(m->cover);
	for (int i = 0; i < m->nnamed; i++)
		free(m->named[i].name);
	free(m->named);
	memset(m, 0, sizeof *m);
}

int dev_mem_recover(Mem *m)
{
	for (int i = 0; i < m->ncover; i++)
		if (!dev_mem_cwrite(m, m->cover[i].bank, m->cover[i].offset, m->cover[i].bytes,
		                    m->cover[i].size))
			return 0;
	return 1;
}

/* size zero bytes from the open chunk, or from a new one when it lacks room; NULL when no
 * mapping can be made (the caller then callocs) */
static uint8_t *chunk_piece(Mem *m, uint64_t size)
{
#if MEM_CHUNKS
	MemChunk *c = m->nchunk ? &m->chunk[m->nchunk - 1] : NULL;
	uint64_t need = (size + DEV_ALLOC_ALIGN - 1) & ~(uint64_t)(DEV_ALLOC_ALIGN - 1);
	uint8_t *p;

	if (MEM_CHECKED)
		need += DEV_ALLOC_ALIGN;   /* the redzone before the piece */
	if (size < CHUNK_MIN || need > SIZE_MAX - 2 * HUGE_PAGE)
		return NULL;
	if (!c || c->cap - c->used < need) {
		size_t cap = need > CHUNK_BYTES ? (need + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1)
		                                : CHUNK_BYTES;
		MemChunk *nc = realloc(m->chunk, (m->nchunk + 1) * sizeof *nc);
		void *map;
		if (!nc)
			return NULL;
		m->chunk = nc;
		map = mmap(NULL, cap + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		           -1, 0);
		if (map == MAP_FAILED)
			return NULL;
		c = &m->chunk[m->nchunk++];
		c->map = map;
		c->at = (uint8_t *)map + (-(uintptr_t)map & (HUGE_PAGE - 1));
		c->used = 0;
		c->cap = cap;
		madvise(c->at, cap, MADV_HUGEPAGE);   /* advice: without it, 4 KiB pages */
		MEM_HIDE(map, cap + HUGE_PAGE);
	}
	p = c->at + c->used + (MEM_CHECKED ? DEV_ALLOC_ALIGN : 0);
	c->used += need;
	MEM_SHOW(p, size);
	return p;
#else
	(void)m;
	(void)size;
	return NULL;
#endif
}

uint64_t dev_mem_alloc(Mem *m, uint64_t size, uint32_t align, const char *name)
{
	uint64_t al = align > DEV_ALLOC_ALIGN ? align : DEV_ALLOC_ALIGN;
	uint64_t base;
	MemAlloc *a;

	if (align & (align - 1))
		return 0;
	base = (m->next + al - 1) & ~(al - 1);
	if (size > (1ull << 40) || base + size < base)
		return 0;
	if (m->n == m->cap) {
		int cap = m->cap ? 2 * m->cap : 8;
		MemAlloc *na = realloc(m->a, cap * sizeof *na);
		if (!na)
			return 0;
		m->a = na;
		m->cap = cap;
	}
	a = &m->a[m->n];
	a->name = strdup(name ? name : "buffer");
	a->bytes = a->name ? chunk_piece(m, size) : NULL;
	a->inchunk = a->bytes != NULL;
	if (!a->bytes && a->name)
		a->bytes = calloc(size ? size : 1, 1);
	if (!a->bytes || !a->name) {
		if (!a->inchunk)
			free(a->bytes);
		free(a->name);
		return 0;
	}
	a->base = base;
	a->size = size;
	m->n++;
	/* a guard gap of at least DEV_ALLOC_ALIGN bytes: off-by-one accesses fault */
	m->next = base + size + DEV_ALLOC_ALIGN;
	return base;
}

/* allocations are created in increasing address order, so a[] is sorted */
const MemAlloc *dev_mem_find(const Mem *m, uint64_t addr)
{
	int lo = 0, hi = m->n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		const MemAlloc *a = &m->a[mid];
		if (addr < a->base)
			hi = mid - 1;
		else if (addr - a->base >= a->size)
			lo = mid + 1;
		else
			return a;
	}
	return NULL;
}

uint8_t *dev_mem_global(Mem *m, uint64_t addr, uint64_t size)
{
	const MemAlloc *a;

	if (m->last < m->n) {
		a = &m->a[m->last];
		if (addr >= a->base && addr - a->base < a->size && a->size - (addr - a->base) >= size)
			return a->bytes + (addr - a->base);
	}
	a = dev_mem_find(m, addr);
	if (!a || a->size - (addr - a->base) < size)
		return NULL;
	m->last = (int)(a - m->a);
	return a->bytes + (addr - a->base);
}

/* the allocation dev_launch_place made for module variable var ("global VAR") */
uint64_t dev_mem_global_addr(const Mem *m, const char *var)
{
	char name[160];

	snprintf(name, sizeof name, "global %.100s", var);    /* as dev_launch_place names it */
	for (int i = 0; i < m->n; i++)
		if (m->a[i].name && !strcmp(m->a[i].name, name))
			return m->a[i].base;
	return 0;
}

int dev_mem_cwrite(Mem *m, unsigned bank, uint32_t off, const void *src, uint32_t size)
{
	if (bank >= DEV_NBANKS || off > DEV_BANK_SIZE || size > DEV_BANK_SIZE - off)
		return 0;
	if (!m->bank[bank] && !(m->bank[bank] = calloc(DEV_BANK_SIZE, 1)))
		return 0;
	memcpy(m->bank[bank] + off, src, size);
	return 1;
}

/* a bank never written reads as zeros, as uninitialised constant memory does */
int dev_mem_cread(const Mem *m, unsigned bank, uint64_t off, void *dst, uint32_t size)
{
	if (bank >= DEV_NBANKS || off > DEV_BANK_SIZE || size > DEV_BANK_SIZE - off)
		return 0;
	if (m->bank[bank])
		memcpy(dst, m->bank[bank] + off, size);
	else
		memset(dst, 0, size);
	return 1;
}

uint64_t dev_ld(const uint8_t *p, unsigned size)
{
	uint64_t v = 0;

	memcpy(&v, p, size > 8 ? 8 : size);
	return v;
}

void dev_st(uint8_t *p, unsigned size, uint64_t v)
{
	memcpy(p, &v, size > 8 ? 8 : size);
}

/* the NUL-terminated string at addr, at most 255 bytes, or "?" */
static void mem_string(Mem *m, uint64_t addr, char *out, size_t n)
{
	size_t k = 0;
	const uint8_t *p = NULL;

	while (k + 1 < n) {
		/* (dev_mem_find: no last-hit cache is written; the SM model's threads may ask) */
		const MemAlloc *a = dev_mem_find(m, addr + k);
		p = a ? a->bytes + (addr + k - a->base) : NULL;
		if (!p || !*p)
			break;
		out[k++] = (char)*p;
	}
	out[k] = 0;
	if (!p)
		snprintf(out, n, "?");
}

void dev_assert_text(Mem *m, uint64_t cond, uint64_t file, uint32_t line, uint64_t func,
                     const uint32_t ctaid[3], const uint32_t tid[3], char *out, size_t n)
{
	char c[256], f[256], fn[256];

	mem_string(m, cond, c, sizeof c);
	mem_string(m, file, f, sizeof f);
	mem_string(m, func, fn, sizeof fn);
	snprintf(out, n, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.",
	         f, line, fn, ctaid[0], ctaid[1], ctaid[2], tid[0], tid[1], tid[2], c);
}
