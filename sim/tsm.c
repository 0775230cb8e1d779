/* tsm.c - the timing of one SM's issue stage around the functional core: per cycle each
 * scheduler takes its warps in policy order and issues the first whose scoreboard, unit
 * and control constraints hold (up to issue_width from that warp), executes it through the
 * core's callback, then charges pipelines, memory timing and the scoreboard. Every state
 * change happens at issue, so a warp's wake-up cycle is known exactly and the clock may
 * jump to the least one (sim_tsm_next) with results identical to stepping.
 */
#include <stdint.h>
#include <string.h>
#include "sim/timing.h"

int
sim_tsm_init(TSm *m, const TimingConfig *c, Cache *l2, Dram *d, TStats *st, char *err, size_t errsz)
{
	/* all but the Scoreboards (136 KB of the SM's 150 KB), which add_warp clears as a warp
	 * takes its slot: nothing reads a slot's Scoreboard before that */
	memset(m, 0, offsetof(TSm, sb));
	m->c = c;
	m->l2 = l2;
	m->dram = d;
	m->st = st;
	st->max_warps = c->max_warps;
	for (int s = 0; s < c->schedulers; s++) {
		int stride = TM_MAXWARPS / c->schedulers;   /* (a scheduler has at most max_warps /
		                                               schedulers warps: tconfig.c) */
		sim_sched_init(&m->sched[s], c->policy, c->pool);
		m->kbase[s] = (uint8_t)(s * stride);
		m->kmask[s] = (stride == 64 ? ~0ull : (1ull << stride) - 1) << m->kbase[s];
		m->korder[s] = m->korder[s + c->schedulers] = (uint8_t)s;
	}
	m->farfrom = UINT64_MAX;
	m->tkt = UINT64_MAX;        /* (no take yet: tkt == now says a cycle issued) */
	for (int u = 0; u < UNIT_COUNT; u++) {
		m->pivl[u] = (uint32_t)c->unit[u].interval;
		m->plast[u] = (uint8_t)(c->unit[u].units <= 2 ? c->unit[u].units - 1 : 2);
	}
	for (int l = 0; l < LAT_COUNT; l++)
		m->lat[l] = (uint32_t)c->lat[l];
	m->iw = c->issue_width;
	if (c->l1.enable && sim_cache_init(&m->l1, &c->l1, err, errsz) < 0)
		return -1;
	m->gl1 = sim_l1_global(c) ? &m->l1 : NULL;
	for (int op = 0; op < COP_COUNT; op++)
		if (sim_cache_path(c, (CacheOp)op) == CPATH_RO) {
			if (sim_cache_init(&m->ro, &c->ro, err, errsz) < 0) {
				sim_cache_free(&m->l1);
				return -1;
			}
			break;
		}
	return 0;
}

void
sim_tsm_free(TSm *m)
{
	sim_cache_free(&m->l1);
	sim_cache_free(&m->ro);
	sim_tq_free(&m->q);
}

/* The ready masks. A warp's wake-up parts that change only at its own issue or a barrier
 * release (scoreboard, control wait, barrier) are cached in wr; the SM keeps, a bit per warp
 * (wbit: scheduler k's bits kmask[k] in the order of its warps' positions), the warps with
 * wr <= kt (rdy), the later ones on one timing wheel by wr (those beyond its reach in far) and
 * the unit class of each warp's next instruction (umask): one wheel step per SM-cycle,
 * whichever scheduler visits first. A cycle's pick is the policy's first warp of rdy whose unit is free
 * (pick_free: a busy unit's positions masked out as they are met): the scan over every warp
 * remains only for a scheduler that can issue nothing (and is memoised, kwake). */

/* x rotated right by n (0 <= n < 64) */
static inline uint64_t
rotr(uint64_t x, unsigned n)
{
	return n ? (x >> n) | (x << (64 - n)) : x;
}

/* files warp w by wr and wunit */
static void
file(TSm *m, int w)
{
	uint64_t b = m->wbit[w], r = m->wr[w];

	m->umask[m->wunit[w]] |= b;
	if (r <= m->kt)
		m->rdy |= b;
	else if (r - m->kt < TM_WHEEL) {
		m->wheel[r % TM_WHEEL] |= b;
		m->wocc |= 1ull << (r % TM_WHEEL);
	} else if (r != UINT64_MAX) {
		m->far |= b;
		if (r - (TM_WHEEL - 1) < m->farfrom)
			m->farfrom = r - (TM_WHEEL - 1);
	}
}

/* takes warp w out of rdy, the wheel and far */
static void
unfile(TSm *m, int w)
{
	uint64_t b = m->wbit[w];
	unsigned sl = (unsigned)(m->wr[w] % TM_WHEEL);

	m->umask[m->wunit[w]] &= ~b;
	m->rdy &= ~b;
	m->far &= ~b;              /* (farfrom stays: a lower bound) */
	/* bit b is this warp's alone: clearing it in the slot of its wr is harmless if it is not there */
	if ((m->wheel[sl] &= ~b) == 0)
		m->wocc &= ~(1ull << sl);
}

/* scheduler k's bits of the masks anew, after its warp order changed (a warp arrived or left) */
static void
rebuild(TSm *m, int k)
{
	const Sched *sc = &m->sched[k];
	uint64_t km = m->kmask[k];

	m->rdy &= ~km;
	m->far &= ~km;
	for (uint64_t o = m->wocc; o; o &= o - 1) {
		int sl = __builtin_ctzll(o);
		if ((m->wheel[sl] &= ~km) == 0)
			m->wocc &= ~(1ull << sl);
	}
	for (int u = 0; u < UNIT_COUNT; u++)
		m->umask[u] &= ~km;
	m->farfrom = UINT64_MAX;   /* (the other schedulers' far warps' least, exact again) */
	for (uint64_t f = m->far; f; f &= f - 1) {
		uint64_t r = m->wr[m->bw[__builtin_ctzll(f)]];
		if (r - (TM_WHEEL - 1) < m->farfrom)
			m->farfrom = r - (TM_WHEEL - 1);
	}
	assert(sc->n <= TM_MAXWARPS / m->c->schedulers);
	for (int i = 0; i < sc->n; i++) {
		int w = sc->warp[i], j = m->kbase[k] + i;
		m->wbit[w] = 1ull << j;
		m->bw[j] = (uint8_t)w;
	}
	for (int i = 0; i < sc->n; i++)
		file(m, sc->warp[i]);
}

/* warp joins its scheduler's order; its masks are rebuilt by the caller */
static int
add_warp(TSm *m, int warp, int cta, uint64_t age)
{
	int k = warp % m->c->schedulers;

	m->wsched[warp] = (uint8_t)k;
	if (m->sbtop && m->sbset[warp]) {   /* (no write reaches the ids from sbtop up) */
		m->sb[warp].memmax = 0;
		memset(m->sb[warp].ready, 0, m->sbtop * sizeof m->sb[warp].ready[0]);
	} else {
		sim_sb_clear(&m->sb[warp]);
		m->sbset[warp] = 1;
	}
	m->ctrl[warp] = 0;
	m->dirty |= 1ull << warp;
	m->wr[warp] = UINT64_MAX;
	m->wnext[warp] = NULL;
	m->kwake[k] = 0;
	m->live[warp] = 1;
	m->atbar[warp] = 0;
	m->cta[warp] = cta;
	m->nlive++;
	sim_sched_add(&m->sched[k], warp, age);
	return k;
}

void
sim_tsm_add_cta(TSm *m, int first, int n, int cta, uint64_t age)
{
	uint32_t ks = 0;

	for (int i = 0; i < n; i++)
		ks |= 1u << add_warp(m, first + i, cta, age + (uint64_t)i);
	for (int k = 0; k < m->c->schedulers; k++)   /* (rebuild's masks: those of the last add) */
		if (ks >> k & 1)
			rebuild(m, k);
}

/* the warp's constraints that change only when it issues (or a barrier releases it): its
 * next instruction's scoreboard readiness and its control wait, combined as sim_wake does */
static void
refresh(TSm *m, const TSource *s, int w)
{
	m->dirty &= ~(1ull << w);
	if (!m->live[w])
		return;                 /* gone from its scheduler's order and masks */
	unfile(m, w);
	if (!m->atbar[w]) {
		const TInst *in = m->wnext[w] ? m->wnext[w] : s->peek(s->ctx, w);
		uint64_t sb = sim_tsb_max(&m->sb[w], in);

		m->wunit[w] = in->unit;
		m->wr[w] = m->ctrl[w] > sb ? m->ctrl[w] : sb;
		m->wsb[w] = sb;
	} else
		m->wr[w] = UINT64_MAX;
	file(m, w);
}

/* refresh() for the warp that just issued, its next instruction in: it was a candidate, so it
 * sits in rdy (not on the wheel nor in far), its masks' bits are cleared without a look at
 * where it was filed; its wake-up is filed at once. An issue without rare fields (issue_events
 * not run) leaves it live, not at a barrier and not stale (visit() flushed the stale warps
 * before it, and only a barrier release marks one during an issue): refile_common. */
static inline __attribute__((always_inline)) void
refile_common(TSm *m, int w, const TInst *in)
{
	uint64_t b = m->wbit[w], r;
	uint64_t sb = sim_tsb_max(&m->sb[w], in);

	m->rdy &= ~b;
	if (in->unit != m->wunit[w]) {   /* (its bit is in umask of its unit) */
		m->umask[m->wunit[w]] &= ~b;
		m->umask[in->unit] |= b;
		m->wunit[w] = in->unit;
	}
	m->wr[w] = r = m->ctrl[w] > sb ? m->ctrl[w] : sb;
	m->wsb[w] = sb;
	if (r <= m->kt)
		m->rdy |= b;
	else if (r - m->kt < TM_WHEEL) {
		m->wheel[r % TM_WHEEL] |= b;
		m->wocc |= 1ull << (r % TM_WHEEL);
	} else {
		m->far |= b;
		if (r - (TM_WHEEL - 1) < m->farfrom)
			m->farfrom = r - (TM_WHEEL - 1);
	}
}
static void
refile(TSm *m, const TSource *s, int w)
{
	uint64_t b = m->wbit[w];

	m->dirty &= ~(1ull << w);
	if (!m->live[w])
		return;                 /* gone from its scheduler's order and masks */
	if (m->atbar[w]) {
		m->rdy &= ~b;
		m->umask[m->wunit[w]] &= ~b;
		m->wr[w] = UINT64_MAX;  /* (filed nowhere) */
		return;
	}
	refile_common(m, w, m->wnext[w] ? m->wnext[w] : s->peek(s->ctx, w));
}

/* every stale warp refreshed */
static inline void
flush(TSm *m, const TSource *s)
{
	while (m->dirty)
		refresh(m, s, __builtin_ctzll(m->dirty));
}

/* promote()'s rare parts, out of line: the wheel's slots kt+1 .. t after a jump of the clock */
static __attribute__((noinline)) void
promote_jump(TSm *m, uint64_t t)
{
	uint64_t kt = m->kt;
	uint64_t sel = t - kt >= TM_WHEEL ? ~0ull :
	               rotr(~(~0ull << (t - kt)), (unsigned)((TM_WHEEL - (kt + 1) % TM_WHEEL) % TM_WHEEL));

	for (uint64_t o = m->wocc & sel; o; o &= o - 1) {
		int sl = __builtin_ctzll(o);
		m->rdy |= m->wheel[sl];
		m->wheel[sl] = 0;
	}
	m->wocc &= ~sel;
	m->kt = t;
}
/* and the far warps come within reach of the wheel, filed anew */
static __attribute__((noinline)) void
promote_far(TSm *m)
{
	uint64_t f = m->far;

	m->far = 0;
	m->farfrom = UINT64_MAX;
	for (; f; f &= f - 1)
		file(m, m->bw[__builtin_ctzll(f)]);
}

/* the masks sorted for cycle t (>= every earlier t): the wheel's slots kt+1 .. t join rdy,
 * far warps within reach of the wheel move in (once per SM-cycle: the next visit of the
 * cycle finds kt == t) */
static inline __attribute__((always_inline)) void
promote(TSm *m, uint64_t t)
{
	uint64_t kt = m->kt;

	if (t == kt + 1) {          /* (the common step: one slot) */
		/* without a branch on whether the slot holds warps (it does at about every other
		 * step, in no pattern a predictor learns on a divergent kernel): an empty slot is
		 * 0, its wocc bit clear (file and unfile keep both) */
		unsigned sl = (unsigned)(t % TM_WHEEL);
		m->rdy |= m->wheel[sl];
		m->wheel[sl] = 0;
		m->wocc &= ~(1ull << sl);
		m->kt = t;
	} else if (t > kt)
		promote_jump(m, t);
	if (m->farfrom <= t)
		promote_far(m);
}

/* the bit of the pick among c (scheduler k's bits): GTO's inline (the common policy); the
 * others through sim_sched_pick. gto: 1 in the issue loop for GTO alone (run()'s constant),
 * 0 where the policy is read */
static inline __attribute__((always_inline)) int
pick(const TSm *m, const Sched *sc, int k, uint64_t cand, int gto)
{
	if (gto || sc->policy == SCHED_GTO) {
		/* the last issued warp sits at rs - 1, bit gbit (0 once it left); a select, not a
		 * branch (whether it is still sorted follows the data) */
		uint64_t g = cand & sc->gbit << m->kbase[k];
		return __builtin_ctzll(g ? g : cand);
	}
	return __builtin_ctzll(m->wbit[sim_sched_pick(sc, cand >> m->kbase[k])]);
}

/* The pick at t: the policy's first warp of c (sorted warps of scheduler k) whose unit class
 * is free. A pick whose class is busy takes every warp of that class out of c (umask) and
 * picks again: the first in the policy's order among those left is the first among those
 * whose class is free, as a pick over the free ones alone would find. No set of the busy
 * classes is kept (on fermi.cfg the ALU class turns busy and free at almost every cycle,
 * and the first pick mostly succeeds). Returns the bit, or -1. */
static inline __attribute__((always_inline)) int
pick_free(const TSm *m, const Sched *sc, int k, uint64_t c, uint64_t t, int gto)
{
	while (c) {
		int j = pick(m, sc, k, c, gto);
		int u = m->wunit[m->bw[j]];
		if (m->pfree[u] <= t)
			return j;
		c &= ~m->umask[u];
	}
	return -1;
}

/* the least pfree of the unit classes of the warps c (sorted ones of a scheduler, when none
 * of them can issue) */
static uint64_t
least_busy(const TSm *m, uint64_t c)
{
	uint64_t lo = UINT64_MAX;

	while (c) {
		int u = m->wunit[m->bw[__builtin_ctzll(c)]];
		lo = m->pfree[u] < lo ? m->pfree[u] : lo;
		c &= ~m->umask[u];
	}
	return lo;
}

/* the least cycle after kt at which a warp of scheduler k could issue, when none can at kt
 * (the least warp_wake), given least, the least pfree of the busy classes of its sorted
 * warps (least_busy): a later warp waits for its wr and its unit */
static uint64_t
least_wake(TSm *m, int k, uint64_t least)
{
	uint64_t km = m->kmask[k];

	/* the wheel in time order: slot of kt+1 first; a slot at or past least cannot lower it
	 * (nor can anything when least is kt + 1, the common case of a busy pipeline) */
	uint64_t kt = m->kt;
	if (least == kt + 1)
		return least;
	unsigned start = (unsigned)((kt + 1) % TM_WHEEL);
	for (uint64_t o = rotr(m->wocc, start); o; o &= o - 1) {
		int j = __builtin_ctzll(o);
		uint64_t t = kt + 1 + (uint64_t)j;
		if (t >= least)
			break;
		for (uint64_t b = m->wheel[(start + (unsigned)j) % TM_WHEEL] & km; b; b &= b - 1) {
			int w = m->bw[__builtin_ctzll(b)];
			uint64_t q = m->pfree[m->wunit[w]];
			if ((q > t ? q : t) < least)
				least = q > t ? q : t;
		}
	}
	if (m->farfrom != UINT64_MAX && m->farfrom + (TM_WHEEL - 1) < least)
		for (uint64_t f = m->far & km; f; f &= f - 1) {
			int w = m->bw[__builtin_ctzll(f)];
			uint64_t t = m->wr[w], q = m->pfree[m->wunit[w]];
			if (q > t)
				t = q;
			if (t < least)
				least = t;
		}
	return least;
}

/* the scoreboard's stall reason of warp w when a write from memory may be its latest
 * (sim_tsb_why), out of the visit's line */
static __attribute__((noinline)) int
sb_why(const TSm *m, const TSource *s, int w)
{
	const TInst *in = m->wnext[w] ? m->wnext[w] : s->peek(s->ctx, w);

	return sim_tsb_why(&m->sb[w], in, m->wsb[w]);
}

/* first cycle >= t at which warp w can issue, and why not before: sim_wake over the
 * scoreboard, control and pipeline constraints (the first two cached per warp) */
static inline uint64_t
warp_wake(TSm *m, const TSource *s, int w, uint64_t t, int *why)
{
	uint64_t p, k;

	if (m->atbar[w]) {
		*why = STALL_BARRIER;
		return UINT64_MAX;
	}
	if (m->dirty >> w & 1)
		refresh(m, s, w);
	p = m->pfree[m->wunit[w]];
	k = m->wr[w];               /* (the wake-up cycle: not at a barrier) */
	if (p > t && p > k) {
		*why = STALL_PIPE;
		return p;
	}
	if (k > t) {
		/* wr's reason (sim_wake's order: scoreboard, then control) from the state it was
		 * found from, which only an issue or a stale mark changes */
		if (m->ctrl[w] > m->wsb[w])
			*why = STALL_CTRL;
		else
			*why = m->wsb[w] > m->sb[w].memmax && m->wsb[w] != SIM_PEND ? STALL_RAW_ALU :
			       sb_why(m, s, w);
		return k;
	}
	*why = STALL_NONE;
	return t;
}

/* the stall reason scheduler k charges for cycle t when it issues nothing */
static int
stall_reason(TSm *m, const TSource *s, int k, uint64_t t)
{
	int first, why;
	if (m->sfree[k] > t)
		return STALL_CTRL;
	if (m->kwake[k]) {
		warp_wake(m, s, m->kfirst[k], t, &why);
		return why;
	}
	if ((first = sim_sched_first(&m->sched[k])) < 0)
		return STALL_IDLE;
	warp_wake(m, s, first, t, &why);
	return why;
}

static uint64_t
maxready(const Scoreboard *sb, int top)   /* (ids from top on are never written) */
{
	uint64_t t = 0;
	for (int i = 0; i < top; i++)
		if (sim_sb_at(sb, i) > t && sim_sb_at(sb, i) != SIM_PEND)   /* (partime.c adds those) */
			t = sim_sb_at(sb, i);
	return t;
}

/* unit class u takes mult issue slots at now: as sim_units_take, which the classes of more
 * than two pipelines go through; one or two are the SM's own table (pipe, pivl, plast: one
 * line, no TimingConfig row) */
static inline __attribute__((always_inline)) void
take_unit(TSm *m, Unit u, uint64_t now, int mult)
{
	unsigned last = m->plast[u];

	if (__builtin_expect(last < 2, 1)) {
		uint64_t *b = m->pipe[u];
		/* without a branch on which pipe is free: pipe 1 when there are two and pipe 0 is
		 * busy (the lowest-numbered free one, as sim_units_take; an issue comes only with
		 * pfree <= now, so one is) */
		b[(b[0] > now) & last] = now + (uint64_t)m->pivl[u] * (uint64_t)(mult > 1 ? mult : 1);
		m->pfree[u] = b[0] < b[last] ? b[0] : b[last];
	} else
		m->pfree[u] = sim_units_take(&m->units, m->c, u, now, mult);
	m->tku = (uint8_t)u;        /* (the taken class, for the next visit of this cycle) */
	m->tkt = now;
}

/* the CallReturnStack tokens an instruction of warp w spilled to or filled from its CRS area:
 * one CRS_TOKEN_BYTES local access each through the memory path (the stack unit moves them,
 * no load/store pipeline is taken); the warp's next issue waits for the fills */
static void
crs_traffic(TSm *m, int w, uint64_t now, const TExec *e)
{
	int n = e->crs_spills + e->crs_fills;

	for (int i = 0; i < n; i++) {
		int fill = i >= e->crs_spills;
		uint64_t addr = e->crs_addr + (uint64_t)(fill ? i - e->crs_spills : i) * CRS_TOKEN_BYTES, done;
		GmResult r;

		done = sim_tq_crs(m, w, now, addr, fill, &r);   /* (adds the L2's counts) */
		*(fill ? &m->st->gld_trans : &m->st->gst_trans) += (uint64_t)r.trans;
		if (fill && done > m->ctrl[w])
			m->ctrl[w] = done;
	}
	m->st->crs_spills += e->crs_spills;
	m->st->crs_fills += e->crs_fills;
}

/* the memory part of an issue (e->space set): the access through its path, or none for an
 * access without an address outside shared memory; returns the cycle its result is ready
 * and the issue slots its unit is taken for in *mult */
static __attribute__((noinline)) uint64_t
issue_mem(TSm *m, int w, const TInst *in, uint64_t now, const TExec *e, int *mult)
{
	const TimingConfig *c = m->c;
	TStats *st = m->st;
	uint64_t ready = now + (uint64_t)c->lat[in->lat];

	if (!e->amask && e->space != TSP_SHARED)
		return now + sim_noreq_latency(c);     /* no request: no memory latency */
	switch (e->space) {
	case TSP_GLOBAL:
	case TSP_LOCAL: {
		GmResult r;
		int lat = c->lat[e->space == TSP_LOCAL ? LAT_LOCAL : LAT_GLOBAL];
		Cache *l1 = NULL, *ro = NULL;
		if (e->kind == GM_LOAD) {
			CachePath p = sim_cache_path(c, (CacheOp)e->cop);
			l1 = p == CPATH_L1 ? &m->l1 : NULL;
			ro = p == CPATH_RO ? &m->ro : NULL;
		} else if (e->space == TSP_GLOBAL)
			l1 = m->gl1;    /* a global store or atomic evicts the line from L1 */
		ready = sim_tq_access(m, w, in, now, ro ? ro : l1, e, lat, &r);   /* (adds the L2's counts) */
		*mult = r.trans;
		*(e->kind == GM_LOAD ? &st->gld_trans : e->kind == GM_STORE ? &st->gst_trans : &st->atom_trans) +=
			(uint64_t)r.trans;
		st->l1_hits += l1 ? (uint64_t)r.l1_hits : 0;
		st->l1_misses += l1 ? (uint64_t)(r.trans - r.l1_hits) : 0;
		break;
	}
	case TSP_SHARED: {
		uint32_t off[TM_WARP];
		for (int l = 0; l < TM_WARP; l++)
			off[l] = (uint32_t)e->addr[l];
		int d = sim_bank_degree(off, e->amask, e->size, c->banks, c->bank_bytes);
		*mult = d;
		st->shared_insts++;
		if (d > 1) {
			st->bank_conflicts += (uint64_t)(d - 1);
			ready += (uint64_t)(d - 1) * (uint64_t)c->unit[in->unit].interval;
		}
		break;
	}
	case TSP_CONST: {
		/* the constant cache serves one address per pass: a warp's request is split into
		 * one per distinct address (CUDA C Programming Guide, "Constant Memory") */
		int d = sim_distinct_addrs(e->addr, e->amask);
		if (d > 1) {
			*mult = d;
			ready += (uint64_t)(d - 1) * (uint64_t)c->unit[in->unit].interval;
		}
		break;
	}
	}
	return ready;
}

/* a barrier release lets warp v go at now */
static void
release(TSm *m, int v, uint64_t now)
{
	uint64_t t = now + (uint64_t)m->c->lat[LAT_BAR];

	m->atbar[v] = 0;
	m->wnext[v] = NULL;
	m->dirty |= 1ull << v;
	m->kwake[m->wsched[v]] = 0;
	if (t > m->ctrl[v])
		m->ctrl[v] = t;
}

/* the rarer consequences of an issue, after its scoreboard write: CallReturnStack traffic,
 * a path switch, a barrier's wait or release, the warp's exit */
static __attribute__((noinline)) void
issue_events(TSm *m, int w, uint64_t now, const TInst *in, const TExec *e)
{
	const TimingConfig *c = m->c;

	if (e->crs_spills || e->crs_fills)
		crs_traffic(m, w, now, e);
	if (e->switches) {
		int k = m->wsched[w];
		m->sfree[k] = now + 1 + (uint64_t)e->switches * (uint64_t)c->div_switch;
		if (m->sfree[k] > m->ctrl[w])
			m->ctrl[w] = m->sfree[k];
	}
	for (uint64_t r = e->released; r; r &= r - 1)
		release(m, __builtin_ctzll(r), now);
	switch (e->event) {
	case TEX_BAR_WAIT:
		m->atbar[w] = 1;
		break;
	case TEX_BAR_RELEASE:
		if (e->released)
			break;
		for (int v = 0; v < TM_MAXWARPS; v++)
			if (m->live[v] && m->cta[v] == m->cta[w] && (m->atbar[v] || v == w))
				release(m, v, now);
		break;
	case TEX_EXIT: {
		uint64_t done = maxready(&m->sb[w], m->sbtop ? m->sbtop : SB_NIDS);   /* (the ids the kernel writes) */
		if (now + 1 > done)
			done = now + 1;
		if (done > m->end)
			m->end = done;
		m->live[w] = 0;
		m->nlive--;
		sim_sched_remove(&m->sched[m->wsched[w]], w);
		m->wr[w] = UINT64_MAX;
		rebuild(m, m->wsched[w]);
		break;
	}
	}
}

/* lean instruction in (TInst.lean) of warp w run here, without the exec callback: its
 * guard, its statistics (into the core's TLean), the warp's pc, the core's handler;
 * returns its next instruction, or NULL when the core must run it (the warp has no active
 * lane, the branch splits it, or some lane's guard holds for a LEAN_QUIET form) */
static inline __attribute__((always_inline)) const TInst *
lean_issue(TLean *l, int w, const TInst *in, int hw)
{
	struct Warp *wp = l->warps[w];
	uint32_t act = *sim_tw_word(wp, TW_ACTIVE);
	uint32_t ex = act & (*sim_tw_word(wp, TW_P + 4u * in->guard) ^ in->gxor);

	/* (no test of a full warp: on a divergent kernel whether the warp is full follows the
	 * data; the counts take every issue alike) */
	if (in->lean == LEAN_FN) {
		if (!act)
			return NULL;
		sim_lean_count(l, act, ex, hw);
		*sim_tw_word(wp, TW_PC) = in->pc + 1;
		in->fn(wp, in->d, ex);
		return in + 1;      /* (past the last one is the core's tcode[ncode]) */
	}
	/* a branch that some active lanes take and others not, a .S or EXIT that some lane runs */
	if (!act || (ex && (ex != act || in->lean == LEAN_QUIET)))
		return NULL;
	sim_lean_count(l, act, ex, hw);
	if (!ex) {              /* a branch taken by no lane, a .S or EXIT run by none */
		*sim_tw_word(wp, TW_PC) = in->pc + 1;
		return in + 1;
	}
	*sim_tw_word(wp, TW_PC) = in->target;   /* (an instruction of the kernel) */
	return in + ((int64_t)in->target - in->pc);
}

/* the timing of an issue of in by warp w at now whose exec (if any) has run: the unit, the
 * scoreboard, the control latency and the warp's wake-up filed anew (refresh: its own issue
 * is what changed it); returns the cycles until its result */
static inline __attribute__((always_inline)) uint64_t
issue_timing(TSm *m, const TSource *s, int w, uint64_t now, const TInst *in, const TInst *next,
             int rare)
{
	const TExec *e = &m->e;
	int mult = 1, mem = rare && e->space != TSP_NONE;
	uint64_t ready = mem ? issue_mem(m, w, in, now, e, &mult) : now + m->lat[in->lat];

	m->wnext[w] = next;
	take_unit(m, (Unit)in->unit, now, mult);
	sim_tsb_write(&m->sb[w], in, ready, mem);
	if (in->ctrl && now + m->lat[LAT_CTRL] > m->ctrl[w])
		m->ctrl[w] = now + m->lat[LAT_CTRL];
	if (rare == TFLOW_SWITCH) {
		/* (issue_events' path switch, the only event: the warp stays live, not at a
		 * barrier and not stale) */
		int k = m->wsched[w];
		m->sfree[k] = now + 1 + (uint64_t)m->c->div_switch;
		if (m->sfree[k] > m->ctrl[w])
			m->ctrl[w] = m->sfree[k];
		refile_common(m, w, next ? next : s->peek(s->ctx, w));
	} else if (rare) {
		issue_events(m, w, now, in, e);
		refile(m, s, w);
	} else
		refile_common(m, w, next ? next : s->peek(s->ctx, w));
	return ready - now;
}

/* an issue through the core (the exec callback, or a control instruction's short path while
 * the lean issue is on), out of line: its calls and its rare parts stay out of the issue
 * stage's loop, where a lean issue needs few registers across its handler's call */
static __attribute__((noinline)) uint64_t
issue_exec(TSm *m, const TSource *s, int w, uint64_t now, const TInst *in)
{
	int rare;   /* (the core counts the issue's statistics) */

	m->viacore = 1;
	if (!in->flow || !s->lean || (rare = s->flow(s->ctx, w, in, &m->e)) < 0)
		rare = s->exec(s->ctx, w, &m->e);

	return issue_timing(m, s, w, now, in, m->e.next, rare);
}

/* issues the next instruction of warp w at now; returns the cycles until its result */
static inline __attribute__((always_inline)) uint64_t
issue(TSm *m, const TSource *s, int w, uint64_t now, int hw)
{
	const TInst *in = m->wnext[w] ? m->wnext[w] : s->peek(s->ctx, w);  /* as refresh() */
	const TInst *next;

	if (!in->lean || !s->lean || !(next = lean_issue(s->lean, w, in, hw)))
		return issue_exec(m, s, w, now, in);
	return issue_timing(m, s, w, now, in, next, 0);
}

/* sim_sched_issued_at for warp w at position i, its result lat cycles away; inline but for
 * two-level (the only policy that asks whether the warp now waits long) */
static inline __attribute__((always_inline)) void
issued(TSm *m, Sched *sc, int i, int w, uint64_t lat, int gto)
{
	if (!gto && sc->policy == SCHED_TWOLEVEL) {
		sim_sched_issued_at(sc, i, lat >= (uint64_t)m->c->long_latency || m->atbar[w]);
		return;
	}
	sc->last = w;               /* (= sc->warp[i]) */
	sc->anyissued = 1;
	sc->rs = i + 1;             /* (lastage is age[rs - 1] while it is here: sched.c) */
	sc->gbit = 1ull << i;
}

/* the first warp of scheduler k's order (one with a warp), GTO inline */
static inline __attribute__((always_inline)) int
first(const Sched *sc, int gto)
{
	if (gto || sc->policy == SCHED_GTO)
		return sc->last >= 0 ? sc->last : sc->warp[0];
	return sim_sched_first(sc);
}

/* scheduler k at now issues nothing, least the least pfree of its sorted warps' busy classes:
 * the memo of its next possible issue (kwake: when least is now + 1, the common case of
 * schedulers that share a pipeline class and take turns at it, least_wake's answer without
 * its call) and the stall of its first warp */
static inline __attribute__((always_inline)) void
memo_wake(TSm *m, const TSource *s, int k, uint64_t now, uint64_t least, int gto)
{
	int why;

	m->kwake[k] = least == now + 1 ? least : least_wake(m, k, least);
	m->kfirst[k] = first(&m->sched[k], gto);
	warp_wake(m, s, m->kfirst[k], now, &why);
	m->st->stall[why]++;
}

/* scheduler k at now, when it is free (sfree) and some warp may issue: the pick and its
 * issues (each one's take_unit sets tkt to now), or the memo of its next possible issue;
 * gto and iw as run()'s; lead: 1 for the cycle's first turn of a two-scheduler step, which
 * no issue of this cycle precedes (tkt < now: a cycle is stepped once), so that it does not
 * test for one */
static inline __attribute__((always_inline)) void
visit(TSm *m, const TSource *s, int k, uint64_t now, int gto, int iw, int hw, int lead)
{
	Sched *sc = &m->sched[k];
	int i, j, w, why;

	flush(m, s);
	/* The visit after another scheduler took, in this very cycle, a unit class (tku) that
	 * it left busy (fermi's ALU class, which both schedulers share: 0.34-0.46 such visits per
	 * warp instruction): when every sorted warp is of that class, none can issue before the
	 * class is free, which is least_wake's least over the sorted warps; the memo and the
	 * stall of the first warp are charged at once, without a pick. Otherwise the pick
	 * passes that class's warps by. */
	uint64_t cand = m->rdy & m->kmask[k];
	if (!lead && m->tkt == now && m->pfree[m->tku] > now) {
		uint64_t r = cand;
		if ((cand &= ~m->umask[m->tku]) == 0 && r) {
			memo_wake(m, s, k, now, m->pfree[m->tku], gto);
			return;
		}
	}
	if ((j = pick_free(m, sc, k, cand, now, gto)) < 0) {
		if (!sc->n) {
			m->st->stall[STALL_IDLE]++;
			return;
		}
		/* nothing can issue: the least wake-up of its warps, memoised */
		memo_wake(m, s, k, now, least_busy(m, m->rdy & m->kmask[k]), gto);
		return;
	}
	w = m->bw[j];
	i = j - m->kbase[k];
	m->kwake[k] = 0;
	/* up to issue_width instructions of this warp in this cycle (a loop the compiler would
	 * hoist invariants of into the frame: a jump back, taken only for dual issue) */
	int n = 0;
again:
	{
		uint64_t lat = issue(m, s, w, now, hw);
		if (!m->live[w])
			return;
		issued(m, sc, i, w, lat, gto);   /* (an issue moves no warp's position but by an exit) */
	}
	if (__builtin_expect(++n < (iw ? iw : m->iw), 0) && m->sfree[k] <= now &&
	    warp_wake(m, s, w, now, &why) == now)
		goto again;
}

/* scheduler k's turn at now: a stall while its slot is taken (sfree) or while no warp of it
 * can issue yet (kwake: nothing changed since the scan), else its visit */
static inline __attribute__((always_inline)) void
turn(TSm *m, const TSource *s, int k, uint64_t now, int gto, int iw, int hw, int lead)
{
	int why;

	if (m->sfree[k] > now)
		m->st->stall[STALL_CTRL]++;
	else if (m->kwake[k] > now) {
		warp_wake(m, s, m->kfirst[k], now, &why);
		m->st->stall[why]++;
	} else
		visit(m, s, k, now, gto, iw, hw, lead);
}

/* one SM-cycle: every scheduler, now % nsched first; whether it issued is tkt == now */
static inline __attribute__((always_inline)) void
step(TSm *m, const TSource *s, uint64_t now, int nsched, int gto, int iw, int hw)
{
	/* the masks sorted for now once, before the visits (a warp filed during the cycle is
	 * filed against kt == now: in rdy or on the wheel ahead) */
	promote(m, now);
	/* the schedulers take turns at the SM's shared pipelines: scheduler now % schedulers
	 * chooses first, so that none starves the others of a pipe class they all want (one
	 * division a cycle; k then wraps); two schedulers without the loop */
	if (nsched == 2) {
		int k = (int)(now & 1);
		turn(m, s, k, now, gto, iw, hw, 1);
		turn(m, s, k ^ 1, now, gto, iw, hw, 0);
		return;
	}
	const uint8_t *o = m->korder + ((nsched & (nsched - 1)) == 0 ? (int)(now & (uint64_t)(nsched - 1)) :
	                                (int)(now % (uint64_t)nsched));
	for (const uint8_t *e = o + nsched; o < e; o++)
		turn(m, s, *o, now, gto, iw, hw, 0);
}


uint64_t
sim_tsm_wake(TSm *m, const TSource *s, uint64_t now)
{
	uint64_t t = UINT64_MAX, next = now + 1;

	for (int k = 0; k < m->c->schedulers; k++) {
		if (m->sfree[k] > next) {
			if (m->sfree[k] < t)
				t = m->sfree[k];
			continue;
		}
		if (m->kwake[k]) {        /* a lower bound, exact enough: pipelines only get busier */
			uint64_t w = m->kwake[k] > next ? m->kwake[k] : next;
			if (w < t && (t = w) == next)
				return t;
			continue;
		}
		flush(m, s);
		promote(m, next);
		uint64_t c = m->rdy & m->kmask[k];
		if (pick_free(m, &m->sched[k], k, c, next, 0) >= 0)
			return next;           /* nothing can be earlier */
		uint64_t w = least_wake(m, k, least_busy(m, c));
		if (w < t)
			t = w;
	}
	return t;
}

void
sim_tsm_charge(TSm *m, const TSource *s, uint64_t now, uint64_t t)
{
	/* cycles now+1 .. t-1 issue nothing; each scheduler's reason is constant over them */
	if (t <= now + 1 || t == UINT64_MAX)
		return;
	sim_tsm_occupancy(m, m->nlive, t - now - 1);
	for (int k = 0; k < m->c->schedulers; k++)
		m->st->stall[stall_reason(m, s, k, now + 1)] += t - now - 1;
}

/* sim_tsm_run's loop for nsched schedulers, gto 1 when the policy is GTO (0: read at each
 * pick), issue width iw (0: read at each issue): sim_tsm_run calls it with constants for the
 * shipped configurations' shapes, whose loops then test none of the three */
static inline __attribute__((always_inline)) int
run(TSm *m, const TSource *s, uint64_t from, uint64_t to, uint64_t *cycle, const int *rc,
    uint64_t *last, int nsched, int gto, int iw, int hw)
{
	uint64_t t = from, steps = 0;   /* cycles stepped with on live warps, not yet counted */
	int on = m->nlive, how = TRUN_END, skip = m->c->skip;

	if (t >= to)
		return how;
	m->viacore = 1;                 /* (the rare test after the first cycle: an SM without
	                                   live warps stops there) */
	for (;;) {
		uint64_t next = t + 1, wk;
		int issued;

		*cycle = t;
		step(m, s, t, nsched, gto, iw, hw);
		issued = m->tkt == t;
		steps++;
		/* (one test for the rare cases: an exit, a fault, no live warp; an issue through
		 * the core is the only one that can exit a warp or fault) */
		if (__builtin_expect(m->viacore, 0)) {
			m->viacore = 0;
			/* the occupancy counters once per change of the live warps (an exit), not
			 * per cycle: a cycle counts the warps live at its start */
			if (m->nlive != on) {
				sim_tsm_occupancy(m, on, steps);
				on = m->nlive;
				steps = 0;
			}
			if (*rc) {
				how = TRUN_FAULT;
				break;
			}
			if (!m->nlive) {
				how = TRUN_ASLEEP;
				break;
			}
		}
		/* an SM that issued steps to the next cycle, where it most likely issues again:
		 * its wake-up would mostly be t + 1, and stepping counts what skipping would */
		if (!issued) {
			if ((wk = sim_tsm_wake(m, s, t)) == UINT64_MAX) {
				how = TRUN_PARKED;
				break;
			}
			if (skip)
				next = wk < to ? wk : to;
			if (next > t + 1)   /* (skipped cycles to charge; stepping has none) */
				sim_tsm_charge(m, s, t, next);
		}
		if (next >= to)
			break;
		t = next;
	}
	*last = t;
	sim_tsm_occupancy(m, on, steps);
	return how;
}

/* run()'s copies, each a function of its own (one register allocation each) */
#define RUN_SHAPE(NAME, NSCHED, GTO, IW, HW) \
static __attribute__((noinline)) int \
NAME(TSm *m, const TSource *s, uint64_t from, uint64_t to, uint64_t *cycle, const int *rc, \
     uint64_t *last) \
{ \
	return run(m, s, from, to, cycle, rc, last, NSCHED, GTO, IW, HW); \
}
RUN_SHAPE(run_gto2, 2, 1, 1, 1)    /* fermi.cfg: GTO, 2 schedulers, issue width 1 */
RUN_SHAPE(run_gto4x2, 4, 1, 2, 1)  /* kepler.cfg: GTO, 4 schedulers, issue width 2 */
RUN_SHAPE(run_one, 1, 0, 1, 1)     /* teaching.cfg: one scheduler of any policy, width 1 */
RUN_SHAPE(run_any, m->c->schedulers, 0, 0, 0)

int sim_tsm_shapes = 1;

int
sim_tsm_run(TSm *m, const TSource *s, uint64_t from, uint64_t to, uint64_t *cycle, const int *rc,
            uint64_t *last)
{
	const TimingConfig *c = m->c;

	if (!sim_tsm_shapes || !sim_popc_hw_ok())   /* (the shapes count lanes with popcnt) */
		return run_any(m, s, from, to, cycle, rc, last);
	if (c->policy == SCHED_GTO && c->schedulers == 2 && c->issue_width == 1)
		return run_gto2(m, s, from, to, cycle, rc, last);
	if (c->policy == SCHED_GTO && c->schedulers == 4 && c->issue_width == 2)
		return run_gto4x2(m, s, from, to, cycle, rc, last);
	if (c->schedulers == 1 && c->issue_width == 1)
		return run_one(m, s, from, to, cycle, rc, last);
	return run_any(m, s, from, to, cycle, rc, last);
}

int
sim_tsm_cycle(TSm *m, const TSource *s, uint64_t now)
{
	uint64_t cycle, last;
	int rc = 0;

	return sim_tsm_run(m, s, now, now + 1, &cycle, &rc, &last);
}

uint64_t
sim_tsm_next(TSm *m, const TSource *s, uint64_t now)
{
	uint64_t t;
	if (!m->c->skip || m->nlive == 0)
		return now + 1;
	t = sim_tsm_wake(m, s, now);
	sim_tsm_charge(m, s, now, t);
	return t;
}

int
sim_tsm_why(const TSm *m, const TInst *in, int w, uint64_t t)
{
	WakeIn wi;
	int why;
	uint64_t sf = m->sfree[m->wsched[w]];

	if (m->atbar[w])
		return STALL_BARRIER;
	wi.sb = sim_sb_ready(&m->sb[w], in->use, &wi.sb_why);
	wi.pipe = m->pfree[in->unit];   /* (sim_units_free_at of its class, kept at each take) */
	wi.ctrl = m->ctrl[w] > sf ? m->ctrl[w] : sf;
	sim_wake(&wi, t, &why);
	return why;
}
