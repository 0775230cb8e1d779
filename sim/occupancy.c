/* occupancy.c - how many CTAs of a launch fit on one SM (registers, shared memory, warps,
 * CTA slots, with the allocation granularities of the config), and the CTA dispatcher's
 * choice of SM (round robin over the SMs with room).
 */
#include <limits.h>
#include "sim/timing.h"

static const char *occ_names[OCC_COUNT] = {
	[OCC_WARPS] = "warps", [OCC_CTAS] = "ctas", [OCC_REGS] = "registers", [OCC_SHARED] = "shared",
};

const char *
sim_occ_limit_name(int limit)
{
	return limit >= 0 && limit < OCC_COUNT ? occ_names[limit] : "?";
}

static long long
roundup(long long v, long long unit)
{
	return (v + unit - 1) / unit * unit;
}

int
sim_occupancy(const TimingConfig *c, int threads, int regs_per_thread, uint32_t shared,
              Occupancy *o, char *err, size_t errsz)
{
	long long warps, regs_warp, regs_cta, shared_cta;

	if (threads <= 0) {
		snprintf(err, errsz, "a CTA needs at least one thread, got %d", threads);
		return -1;
	}
	if (regs_per_thread > c->max_regs) {
		snprintf(err, errsz, "the kernel uses %d registers per thread, --max-regs allows %d",
		         regs_per_thread, c->max_regs);
		return -1;
	}
	warps = (threads + TM_WARP - 1) / TM_WARP;
	regs_warp = roundup((long long)regs_per_thread * TM_WARP, c->reg_unit);
	regs_cta = warps * regs_warp;
	shared_cta = roundup(shared, c->shared_unit);
	o->warps_per_cta = (int)warps;
	o->regs_per_cta = regs_cta > INT_MAX ? INT_MAX : (int)regs_cta;
	o->shared_per_cta = shared_cta > INT_MAX ? INT_MAX : (int)shared_cta;
	o->by[OCC_WARPS] = (int)(c->max_warps / warps);
	o->by[OCC_CTAS] = c->max_ctas;
	o->by[OCC_REGS] = regs_cta ? (int)(c->regs / regs_cta) : INT_MAX;
	o->by[OCC_SHARED] = shared_cta ? (int)(c->shared / shared_cta) : INT_MAX;
	o->limit = OCC_WARPS;
	for (int l = 1; l < OCC_COUNT; l++)
		if (o->by[l] < o->by[o->limit])
			o->limit = l;
	o->ctas = o->by[o->limit];
	if (o->ctas == 0) {
		switch ((OccLimit)o->limit) {
		case OCC_WARPS:
			snprintf(err, errsz, "a CTA of %d threads needs %lld warps, an SM holds %d (--max-warps)",
			         threads, warps, c->max_warps);
			break;
		case OCC_REGS:
			snprintf(err, errsz, "a CTA needs %lld registers, an SM has %d (--registers)",
			         regs_cta, c->regs);
			break;
		case OCC_SHARED:
			snprintf(err, errsz, "a CTA needs %lld bytes of shared memory, an SM has %d (--shared-per-sm)",
			         shared_cta, c->shared);
			break;
		case OCC_CTAS:
		case OCC_COUNT:
			snprintf(err, errsz, "no CTA fits on an SM");
			break;
		}
		return -1;
	}
	return 0;
}

int
sim_dispatch_pick(const int *resident, int nsms, int limit, int *rr)
{
	for (int i = 0; i < nsms; i++) {
		int s = (*rr + i) % nsms;
		if (resident[s] < limit) {
			*rr = (s + 1) % nsms;
			return s;
		}
	}
	return -1;
}
