/* gmem.c - the global-memory timing path: the DRAM channel (latency + a first-come
 * first-served bandwidth queue in bytes per cycle) and one warp access through coalescing,
 * L1, L2 and DRAM, with atomics serialised per address. Deterministic: the only state is
 * the caches' tags and the channel's next free cycle.
 */
#include <string.h>
#include "sim/timing.h"

void
sim_dram_init(Dram *d, int bw)
{
	memset(d, 0, sizeof *d);
	d->bw = bw;
}

uint64_t
sim_dram_request(Dram *d, uint64_t now, int bytes, int latency)
{
	uint64_t start = now > d->free_at ? now : d->free_at;
	uint64_t occ = ((uint64_t)bytes + (uint64_t)d->bw - 1) / (uint64_t)d->bw;
	d->free_at = start + occ;
	d->bytes += (uint64_t)bytes;
	d->reqs++;
	return start + occ + (uint64_t)latency;
}

uint64_t
sim_gmem_access(const TimingConfig *c, Cache *l1, Cache *l2, Dram *d, uint64_t now,
                const uint64_t *addr, uint32_t mask, int size, GmKind kind,
                int dram_lat, GmResult *r)
{
	uint64_t seg[TM_MAXSEGS];
	int cached = kind == GM_LOAD && l1 != NULL;
	uint32_t gran = (uint32_t)(cached ? c->segment : c->sector);

	memset(r, 0, sizeof *r);
	r->done = now;
	r->trans = sim_coalesce(addr, mask, size, gran, seg);
	for (int i = 0; i < r->trans; i++) {
		uint64_t t = now + (uint64_t)i, done = t;
		switch (kind) {
		case GM_LOAD:
			if (l1 && sim_cache_access(l1, seg[i], 1)) {
				done = t + (uint64_t)c->l1.latency;
				r->l1_hits++;
			} else if (l2 && sim_cache_access(l2, seg[i], 1)) {
				done = t + (uint64_t)c->l2.latency;
				r->l2_hits++;
			} else {
				done = sim_dram_request(d, t, (int)gran, dram_lat);
				r->dram++;
			}
			break;
		case GM_STORE:
			if (l1)
				sim_cache_invalidate(l1, seg[i]);
			if (l2) {
				r->l2_hits += sim_cache_access(l2, seg[i], 1);
				done = t + (uint64_t)c->l2.latency;
			} else {
				done = sim_dram_request(d, t, (int)gran, dram_lat);
				r->dram++;
			}
			break;
		case GM_ATOM:
			if (l1)
				sim_cache_invalidate(l1, seg[i]);
			if (!l2) {
				done = sim_dram_request(d, t, (int)gran, c->lat[LAT_ATOM]);
				r->dram++;
			} else if (sim_cache_access(l2, seg[i], 1)) {
				done = t + (uint64_t)c->lat[LAT_ATOM];
				r->l2_hits++;
			} else {
				done = sim_dram_request(d, t, (int)gran, dram_lat);
				r->dram++;
			}
			break;
		}
		if (done > r->done)
			r->done = done;
	}
	if (kind == GM_ATOM && mask) {
		r->atom_degree = sim_same_addr_degree(addr, mask);
		r->done += (uint64_t)(r->atom_degree - 1) * (uint64_t)c->atom_serial;
	}
	return r->done;
}
