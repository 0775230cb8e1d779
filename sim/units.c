/* units.c - functional-unit pipelines: per unit class a number of pipelines, each accepting
 * a warp instruction every `interval` cycles (e.g. a 4-lane SFU takes 8 cycles per warp);
 * shared-memory replays and global transactions multiply the occupancy.
 */
#include <assert.h>
#include <string.h>
#include "sim/timing.h"

void
sim_units_clear(Units *u)
{
	memset(u, 0, sizeof *u);
}

uint64_t
sim_units_free_at(const Units *u, const TimingConfig *c, Unit k)
{
	uint64_t t = u->busy[k][0];
	for (int p = 1; p < c->unit[k].units; p++)
		if (u->busy[k][p] < t)
			t = u->busy[k][p];
	return t;
}

/* takes the first free pipeline of class k at now for mult issue slots; returns the class's
 * new free_at (the least busy-until over its pipelines) */
uint64_t
sim_units_take(Units *u, const TimingConfig *c, Unit k, uint64_t now, int mult)
{
	uint64_t *b = u->busy[k], *end = b + c->unit[k].units, *p = b, t;

	while (p < end && *p > now)
		p++;
	assert(p < end && "sim_units_take: no free pipeline");
	*p = now + (uint64_t)c->unit[k].interval * (uint64_t)(mult > 1 ? mult : 1);
	u->issued[k]++;
	t = b[0];
	for (p = b + 1; p < end; p++)
		if (*p < t)
			t = *p;
	return t;
}
