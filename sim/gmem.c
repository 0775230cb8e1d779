/* gmem.c - the global-memory timing path: the DRAM channel (latency + a first-come
 * first-served bandwidth queue in bytes per cycle) and one warp access through coalescing,
 * L1, L2 and DRAM, with atomics serialised per address. Deterministic: the only state is
 * the caches' tags and the channel's next free cycle. An access has two halves, the SM's
 * (coalescing, L1: sim_gmem_l1) and the GPU's (L2, DRAM: sim_gmem_l2, one transaction at a
 * time), which a windowed run takes at the window's end (partime.c).
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

int
sim_gmem_l1(const TimingConfig *c, Cache *l1, uint64_t now, const uint64_t *addr, uint32_t mask,
            int size, GmKind kind, GmResult *r, uint64_t *seg, uint8_t *idx)
{
	uint64_t all[TM_MAXSEGS];
	uint32_t gran = sim_gmem_gran(c, l1, kind);
	int n = 0;

	memset(r, 0, sizeof *r);
	r->done = now;
	r->trans = sim_coalesce(addr, mask, size, gran, all);
	for (int i = 0; i < r->trans; i++) {
		if (kind == GM_LOAD && l1 && sim_cache_access(l1, all[i], 1)) {
			uint64_t done = now + (uint64_t)i + (uint64_t)l1->latency;
			r->l1_hits++;
			if (done > r->done)
				r->done = done;
			continue;
		}
		if (kind != GM_LOAD && l1)
			sim_cache_invalidate(l1, all[i]);
		seg[n] = all[i];
		idx[n++] = (uint8_t)i;
	}
	if (kind == GM_ATOM && mask)
		r->atom_degree = sim_same_addr_degree(addr, mask);
	return n;
}

uint64_t
sim_gmem_l2(const TimingConfig *c, Cache *l2, Dram *d, uint64_t t, uint64_t seg, uint32_t gran,
            GmKind kind, int dram_lat, GmResult *r)
{
	uint64_t done = t;

	switch (kind) {
	case GM_LOAD:
		if (l2 && sim_cache_access(l2, seg, 1)) {
			done = t + (uint64_t)c->l2.latency;
			r->l2_hits++;
		} else {
			done = sim_dram_request(d, t, (int)gran, dram_lat);
			r->dram++;
		}
		break;
	case GM_STORE:
		if (l2) {
			r->l2_hits += sim_cache_access(l2, seg, 1);
			done = t + (uint64_t)c->l2.latency;
		} else {
			done = sim_dram_request(d, t, (int)gran, dram_lat);
			r->dram++;
		}
		break;
	case GM_ATOM:
		if (!l2) {
			done = sim_dram_request(d, t, (int)gran, c->lat[LAT_ATOM]);
			r->dram++;
		} else if (sim_cache_access(l2, seg, 1)) {
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
	return done;
}

uint64_t
sim_gmem_access(const TimingConfig *c, Cache *l1, Cache *l2, Dram *d, uint64_t now,
                const uint64_t *addr, uint32_t mask, int size, GmKind kind,
                int dram_lat, GmResult *r)
{
	uint64_t seg[TM_MAXSEGS];
	uint8_t idx[TM_MAXSEGS];
	uint32_t gran = sim_gmem_gran(c, l1, kind);
	int n = sim_gmem_l1(c, l1, now, addr, mask, size, kind, r, seg, idx);

	for (int i = 0; i < n; i++)
		sim_gmem_l2(c, l2, d, now + idx[i], seg[i], gran, kind, dram_lat, r);
	if (kind == GM_ATOM && mask)
		r->done += (uint64_t)(r->atom_degree - 1) * (uint64_t)c->atom_serial;
	return r->done;
}
