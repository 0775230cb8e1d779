/* cache.c - a set-associative cache with true LRU replacement (L1 and the read-only data
 * cache per SM, L2 per GPU), and which of them serves a load of each cache operator.
 * Only tags are kept, each set's in the order of last use: the functional core owns the
 * data. Sets need not be a power of two (GF100's L2 has 768); the set of a line is its line
 * address modulo the set count.
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
	if (!c->tag) {
		snprintf(err, errsz, "out of memory for a cache of %d bytes", cfg->size);
		return -1;
	}
	return 0;
}

void
sim_cache_free(Cache *c)
{
	free(c->tag);
	c->tag = NULL;
}

void
sim_cache_clear(Cache *c)
{
	memset(c->tag, 0, (size_t)c->sets * (size_t)c->assoc * sizeof *c->tag);
	c->hits = c->misses = 0;
}

/* A set's ways hold its lines in the order of their last use, the most recent first, and
 * its invalid ways (0) after every valid one: a hit moves its line to the front, a fill
 * puts the new line there and drops the last way, which is an invalid one when the set has
 * one and the least recently used line when not. That is true LRU with an invalid way
 * filled first; which way a line sits in is nothing a statistic sees. */
int
sim_cache_access(Cache *c, uint64_t addr, int alloc)
{
	uint64_t la = addr >> c->shift, t = la + 1, carry = t;
	uint64_t *w = c->tag + (size_t)(la % (uint64_t)c->sets) * (size_t)c->assoc;
	int n = c->assoc;

	if (w[0] == t) {   /* (the line used last: nothing moves) */
		c->hits++;
		return 1;
	}
	if (!alloc) {      /* a miss without allocation leaves the set as it is */
		int k = 1;
		while (k < n && w[k] != t)
			k++;
		if (k == n) {
			c->misses++;
			return 0;
		}
	}
	/* one pass: each way takes the line before it, until the way that held t (a hit) or
	 * past the last (a miss, which drops the last line) */
	for (int k = 0; k < n; k++) {
		uint64_t x = w[k];
		w[k] = carry;
		if (x == t) {
			c->hits++;
			return 1;
		}
		carry = x;
	}
	c->misses++;
	return 0;
}

void
sim_cache_invalidate(Cache *c, uint64_t addr)
{
	uint64_t la = addr >> c->shift, t = la + 1;
	uint64_t *w = c->tag + (size_t)(la % (uint64_t)c->sets) * (size_t)c->assoc;
	int n = c->assoc;

	for (int k = 0; k < n; k++)
		if (w[k] == t) {    /* the ways after it move up; the last becomes invalid */
			for (; k < n - 1; k++)
				w[k] = w[k + 1];
			w[n - 1] = 0;
			return;
		}
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
