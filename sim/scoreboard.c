/* scoreboard.c - the per-warp scoreboard (pending writes on registers, register pairs and
 * quads, predicates and CC, each with the cycle it lands and whether memory produces it)
 * and a warp's wake-up cycle with the stall reason that binds until then.
 */
#include <assert.h>
#include <string.h>
#include "sim/timing.h"

void
sim_sb_clear(Scoreboard *s)
{
	memset(s, 0, sizeof *s);
}

void
sim_sb_use_id(SbUse *u, int dst, uint16_t id)
{
	if (id == SB_R(ISA_RZ) || id == SB_P(ISA_PT))
		return;
	assert(id > SB_NULL && id < SB_NIDS);
	assert(u->nsrc + u->ndst < SB_MAXID);
	if (dst) {
		u->id[u->nsrc + u->ndst++] = id;
	} else {
		/* (the destinations move up one to keep the sources first) */
		memmove(u->id + u->nsrc + 1, u->id + u->nsrc, u->ndst * sizeof u->id[0]);
		u->id[u->nsrc++] = id;
	}
	/* the fixed run: the distinct ids, in the order of the run */
	u->nchk = 0;
	memset(u->chk, 0, sizeof u->chk);
	for (int i = 0; i < u->nsrc + u->ndst; i++) {
		int j = 0;
		while (j < i && u->id[j] != u->id[i])
			j++;
		if (j == i && u->nchk++ < SB_RUN)
			u->chk[u->nchk - 1] = u->id[i];
	}
}

void
sim_sb_use_regs(SbUse *u, int dst, int first, int n)
{
	if (first == ISA_RZ)
		return;
	for (int k = 0; k < n; k++)
		sim_sb_use_id(u, dst, SB_R(first + k));
}

uint64_t
sim_wake(const WakeIn *w, uint64_t now, int *why)
{
	uint64_t t = now;
	*why = STALL_NONE;
	if (w->sb > t) {
		t = w->sb;
		*why = w->sb_why;
	}
	if (w->ctrl > t) {
		t = w->ctrl;
		*why = STALL_CTRL;
	}
	if (w->pipe > t) {
		t = w->pipe;
		*why = STALL_PIPE;
	}
	return t;
}
