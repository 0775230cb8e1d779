/* sched.c - warp schedulers: loose round robin (LRR), greedy-then-oldest (GTO, Rogers et
 * al., MICRO 2012) and two-level (Narasiman et al., MICRO 2011: an active pool served round
 * robin, warps waiting on long-latency events leave it for the pending set). A scheduler
 * only orders warps; the SM issues the first one in that order that can issue. Warps are
 * kept oldest first (dispatch order), so every order is deterministic.
 */
#include <assert.h>
#include <string.h>
#include "sim/timing.h"

void
sim_sched_init(Sched *s, int policy, int pool)
{
	memset(s, 0, sizeof *s);
	s->policy = policy;
	s->pool = pool;
	s->last = -1;
}

static int
nactive(const Sched *s)
{
	int k = 0;
	for (int i = 0; i < s->n; i++)
		k += s->active[i];
	return k;
}

static int
find(const Sched *s, int warp)
{
	for (int i = 0; i < s->n; i++)
		if (s->warp[i] == warp)
			return i;
	return -1;
}

/* the age of the warp issued last: while it is here, the one at rs - 1 (the issue stage's
 * record of an issue leaves lastage as it was); once it left, lastage */
static uint64_t
last_age(const Sched *s)
{
	return s->last >= 0 ? s->age[s->rs - 1] : s->lastage;
}

/* gbit from last and rs */
static void
set_gbit(Sched *s)
{
	s->gbit = s->last >= 0 ? 1ull << (s->rs - 1) : 0;
}

void
sim_sched_add(Sched *s, int warp, uint64_t age)
{
	int i = s->n;
	assert(s->n < TM_MAXWARPS && find(s, warp) < 0);
	while (i > 0 && s->age[i - 1] > age)
		i--;
	assert(i == 0 || s->age[i - 1] != age);
	for (int j = s->n; j > i; j--) {
		s->warp[j] = s->warp[j - 1];
		s->age[j] = s->age[j - 1];
		s->active[j] = s->active[j - 1];
	}
	s->active[i] = (uint8_t)(nactive(s) < s->pool);
	if (s->anyissued && age <= last_age(s))
		s->rs++;
	s->warp[i] = warp;
	s->age[i] = age;
	s->n++;
	set_gbit(s);
}

/* two-level: the oldest pending warp other than skip enters the pool */
static void
promote(Sched *s, int skip)
{
	for (int i = 0; i < s->n; i++)
		if (!s->active[i] && i != skip) {
			s->active[i] = 1;
			return;
		}
}

void
sim_sched_remove(Sched *s, int warp)
{
	int i = find(s, warp), was = 0;
	assert(i >= 0);
	was = s->active[i];
	if (s->last == warp)
		s->lastage = s->age[i];   /* (kept after it leaves) */
	if (s->anyissued && s->age[i] <= last_age(s))
		s->rs--;
	for (int j = i; j + 1 < s->n; j++) {
		s->warp[j] = s->warp[j + 1];
		s->age[j] = s->age[j + 1];
		s->active[j] = s->active[j + 1];
	}
	s->n--;
	if (s->last == warp)
		s->last = -1;
	set_gbit(s);
	if (was)
		promote(s, -1);
}

int
sim_sched_order(const Sched *s, int *out)
{
	int k = 0, start = 0;

	/* round robin resumes at the first warp younger than the last one issued */
	if (s->anyissued)
		start = s->rs;
	if (start == s->n)
		start = 0;

	switch ((SchedPolicy)s->policy) {
	case SCHED_LRR:
		for (int i = 0; i < s->n; i++)
			out[k++] = s->warp[(start + i) % s->n];
		break;
	case SCHED_GTO:
		if (s->last >= 0)
			out[k++] = s->last;
		for (int i = 0; i < s->n; i++)
			if (s->warp[i] != s->last)
				out[k++] = s->warp[i];
		break;
	case SCHED_TWOLEVEL:
		for (int i = 0; i < s->n; i++)
			if (s->active[(start + i) % s->n])
				out[k++] = s->warp[(start + i) % s->n];
		for (int i = 0; i < s->n; i++)
			if (!s->active[i])
				out[k++] = s->warp[i];
		break;
	case SCHED_COUNT:
		assert(!"bad scheduling policy");
		break;
	}
	return k;
}

void
sim_sched_issued(Sched *s, int warp, int long_wait)
{
	sim_sched_issued_at(s, find(s, warp), long_wait);
}

void
sim_sched_issued_at(Sched *s, int i, int long_wait)
{
	int warp;

	assert(i >= 0 && i < s->n);
	warp = s->warp[i];
	s->last = warp;
	s->anyissued = 1;
	s->lastage = s->age[i];
	s->rs = i + 1;
	s->gbit = 1ull << i;
	if (s->policy != SCHED_TWOLEVEL)
		return;
	if (!s->active[i]) {
		if (nactive(s) < s->pool)
			s->active[i] = 1;
		return;
	}
	if (long_wait && nactive(s) < s->n) {
		s->active[i] = 0;
		promote(s, i);
	}
}

/* two-level: the positions in the active pool */
static uint64_t
activemask(const Sched *s)
{
	uint64_t a = 0;
	for (int i = 0; i < s->n; i++)
		a |= (uint64_t)s->active[i] << i;
	return a;
}

/* the first position of c at or after start, cyclically */
static int
rotfirst(uint64_t c, int start)
{
	uint64_t hi = c & (~0ull << start);
	return __builtin_ctzll(hi ? hi : c);
}

static int
start_of(const Sched *s)
{
	int start = s->anyissued ? s->rs : 0;
	return start == s->n ? 0 : start;
}

int
sim_sched_pick(const Sched *s, uint64_t cand)
{
	uint64_t a;

	if (!cand)
		return -1;
	switch ((SchedPolicy)s->policy) {
	case SCHED_LRR:
		return s->warp[rotfirst(cand, start_of(s))];
	case SCHED_GTO:
		/* the last issued warp sits at rs - 1 (sim_sched_add and _remove keep rs) */
		if (s->last >= 0) {
			assert(s->rs >= 1 && s->warp[s->rs - 1] == s->last && s->gbit == 1ull << (s->rs - 1));
			if (cand >> (s->rs - 1) & 1)
				return s->last;
		}
		return s->warp[__builtin_ctzll(cand)];
	case SCHED_TWOLEVEL:
		a = activemask(s);
		if (cand & a)
			return s->warp[rotfirst(cand & a, start_of(s))];
		return s->warp[__builtin_ctzll(cand & ~a)];
	case SCHED_COUNT:
		assert(!"bad scheduling policy");
		break;
	}
	return -1;
}

int
sim_sched_first(const Sched *s)
{
	return s->n ? sim_sched_pick(s, s->n == 64 ? ~0ull : (1ull << s->n) - 1) : -1;
}
