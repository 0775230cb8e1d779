/* cache.c - a set-associative cache with true LRU replacement (L1 and the read-only data
 * cache per SM, L2 per GPU), and which of them serves a load of each cache operator.
 * Only tags are kept: the functional core owns the data. Sets need not be a power of two
 * (GF100's L2 has 768); the set of a line is its line address modulo the set count.
 */
#include <stdlib.h>
#include <string.h>
#include "sim/timing.h"

int
sim_cache_init(Cache *c, const CacheCfg *cfg, char *err, size_t errsz)
{
	memset(c, 0, sizeof *c);
	if (cfg->line < 4 || (cfg->line & (cfg->line - 1)) || cfg->assoc < 1 ||
	    cfg->size < cfg->line * cfg->assoc || cfg->size % (cfg->line * cfg->assoc)) {
		snprintf(err, errsz, "cache of %d bytes, %d-byte lines, %d ways: size must be a multiple "
		         "of line x ways and the line a power of two", cfg->size, cfg->line, cfg->assoc);
		return -1;
	}
	c->line = cfg->line;
	c->assoc = cfg->assoc;
	c->latency = cfg->latency;
	c->sets = cfg->size / (cfg->line * cfg->assoc);
	while ((1 << c->shift) < c->line)
		c->shift++;
	c->tag = calloc((size_t)c->sets * (size_t)c->assoc, sizeof *c->tag);
	c->used = calloc((size_t)c->sets * (size_t)c->assoc, sizeof *c->used);
	if (!c->tag || !c->used) {
		sim_cache_free(c);
		snprintf(err, errsz, "out of memory for a cache of %d bytes", cfg->size);
		return -1;
	}
	return 0;
}

void
sim_cache_free(Cache *c)
{
	free(c->tag);
	free(c->used);
	c->tag = c->used = NULL;
}

void
sim_cache_clear(Cache *c)
{
	size_t n = (size_t)c->sets * (size_t)c->assoc;
	memset(c->tag, 0, n * sizeof *c->tag);
	memset(c->used, 0, n * sizeof *c->used);
	c->tick = c->hits = c->misses = 0;
}

int
sim_cache_access(Cache *c, uint64_t addr, int alloc)
{
	uint64_t la = addr >> c->shift, t = la + 1;
	size_t base = (size_t)(la % (uint64_t)c->sets) * (size_t)c->assoc, victim = base;

	for (size_t w = base; w < base + (size_t)c->assoc; w++)
		if (c->tag[w] == t) {
			c->used[w] = ++c->tick;
			c->hits++;
			return 1;
		}
	c->misses++;
	if (!alloc)
		return 0;
	/* an invalid way (used 0) first, else the least recently used; lowest way on ties */
	for (size_t w = base; w < base + (size_t)c->assoc; w++)
		if (c->used[w] < c->used[victim])
			victim = w;
	c->tag[victim] = t;
	c->used[victim] = ++c->tick;
	return 0;
}

void
sim_cache_invalidate(Cache *c, uint64_t addr)
{
	uint64_t la = addr >> c->shift, t = la + 1;
	size_t base = (size_t)(la % (uint64_t)c->sets) * (size_t)c->assoc;
	for (size_t w = base; w < base + (size_t)c->assoc; w++)
		if (c->tag[w] == t)
			c->tag[w] = c->used[w] = 0;
}

CacheOp
sim_cache_op(const Ins *in, int local)
{
	if (local)
		return COP_LOCAL;
	if (in->op == OP_LDG)
		return COP_NC;
	switch (in->m.sub) {
	case SUB_CG: return COP_CG;
	case SUB_CS: return COP_CS;
	case SUB_LU: return COP_LU;
	case SUB_CV: return COP_CV;
	case SUB_NC: return COP_NC;
	default: return COP_CA;
	}
}

CachePath
sim_cache_path(const TimingConfig *c, CacheOp op)
{
	CachePath p = (CachePath)c->cpath[op];

	return p == CPATH_L1 && !c->l1.enable ? CPATH_L2 : p;
}

int
sim_l1_global(const TimingConfig *c)
{
	for (int op = 0; op < COP_COUNT; op++)
		if (op != COP_LOCAL && sim_cache_path(c, (CacheOp)op) == CPATH_L1)
			return 1;
	return 0;
}
