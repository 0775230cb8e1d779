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
