/* test_timing_micro.c - the issue's microbenchmarks, run through the SM issue stage
 * (sim/tsm.c) on teaching.cfg with a small scripted functional core, each against its
 * closed-form expectation; and stepping versus skipping the clock. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"
#include "sim/timing.h"
#include "tests/unit/helper_check.h"
#include "tests/unit/helper_sim.h"

/* ---------------------------------------------------------------- a scripted core */
enum { K_ALU, K_SFU, K_LDS, K_LDG, K_STG, K_ATOM, K_BAR, K_EXIT, K_CTRL };

typedef struct {
	TInst in;            /* decoded form (its scoreboard ids in use: run() links them) */
	SbUse use;
	int kind;            /* K_* */
	uint32_t active;     /* active lanes (0: all) */
	uint32_t off;        /* of those, guard-false lanes */
	uint64_t base, stride; /* lane l accesses base + stride * l */
	uint8_t switches, diverged, reconverged;
} Step;

#define MAXOPS 256
typedef struct {
	Step prog[TM_MAXWARPS][MAXOPS]; /* per warp, the instructions in execution order */
	int len[TM_MAXWARPS], pc[TM_MAXWARPS], cta[TM_MAXWARPS];
	int nwarps;
	int arrived[16], live[16];   /* per CTA: warps at the barrier, warps not exited */
	TStats *st;                  /* where an issue's statistics go (run() sets it) */
} Core;

static const TInst *
peek(void *ctx, int w)
{
	Core *c = ctx;
	if (c->pc[w] >= c->len[w])
		abort(); /* the engine peeked past a warp's EXIT */
	return &c->prog[w][c->pc[w]].in;
}

static int
exec(void *ctx, int w, TExec *e)
{
	Core *c = ctx;
	const Step *o = &c->prog[w][c->pc[w]++];
	memset(e, 0, offsetof(TExec, addr));
	uint32_t active = o->active ? o->active : ~0u;
	sim_tstats_issue(c->st, active, active & ~o->off, o->diverged, o->reconverged, o->diverged ? 2 : 1);
	e->amask = active & ~o->off;   /* every executing lane has an address */
	e->switches = o->switches;
	e->size = 4;
	for (int l = 0; l < TM_WARP; l++)
		e->addr[l] = o->base + o->stride * (uint64_t)l;
	switch (o->kind) {
	case K_LDS: e->space = TSP_SHARED; break;
	case K_LDG: e->space = TSP_GLOBAL; e->kind = GM_LOAD; break;
	case K_STG: e->space = TSP_GLOBAL; e->kind = GM_STORE; break;
	case K_ATOM: e->space = TSP_GLOBAL; e->kind = GM_ATOM; break;
	case K_BAR:
		if (++c->arrived[c->cta[w]] == c->live[c->cta[w]]) {
			c->arrived[c->cta[w]] = 0;
			e->event = TEX_BAR_RELEASE;
		} else
			e->event = TEX_BAR_WAIT;
		break;
	case K_EXIT:
		c->live[c->cta[w]]--;
		e->event = TEX_EXIT;
		break;
	}
	return 1;                      /* (every field set) */
}

static Step *
add(Core *c, int w, int kind, Unit u, Lat l)
{
	Step *o = &c->prog[w][c->len[w]++];
	memset(o, 0, sizeof *o);
	o->kind = kind;
	o->in.unit = (uint8_t)u;
	o->in.lat = (uint8_t)l;
	if (w >= c->nwarps) {
		c->nwarps = w + 1;
		c->live[c->cta[w]]++;
	}
	return o;
}

/* d = s + 1 (s < 0: no source) */
static Step *
iadd(Core *c, int w, int d, int s)
{
	Step *o = add(c, w, K_ALU, UNIT_ALU, LAT_ALU);
	if (s >= 0)
		sim_sb_use_regs(&o->use, 0, s, 1);
	sim_sb_use_regs(&o->use, 1, d, 1);
	return o;
}

static Step *
ctrl(Core *c, int w, int kind)
{
	Step *o = add(c, w, kind, UNIT_CTRL, kind == K_BAR ? LAT_BAR : LAT_CTRL);
	o->in.ctrl = kind != K_BAR;
	return o;
}

static Step *
mem(Core *c, int w, int kind, int d, uint64_t base, uint64_t stride)
{
	Step *o = add(c, w, kind, kind == K_LDS ? UNIT_LSU_SHARED : UNIT_LSU_GLOBAL,
	            kind == K_LDS ? LAT_SHARED : kind == K_ATOM ? LAT_ATOM : LAT_GLOBAL);
	sim_sb_use_regs(&o->use, 0, 0, 2); /* the address pair */
	if (d >= 0)
		sim_sb_use_regs(&o->use, 1, d, 1);
	o->base = base;
	o->stride = stride;
	return o;
}

static Core *
core_new(void)
{
	Core *c = calloc(1, sizeof *c);
	ck_assert_ptr_nonnull(c);
	return c;
}

/* runs every warp of core to completion; returns the cycles; *iters counts simulated cycles */
static uint64_t
run(const TimingConfig *c, Core *core, TStats *st, uint64_t *iters)
{
	TSource src = {core, peek, exec, NULL, NULL};   /* (no lean instruction) */
	TSm *m = malloc(sizeof *m);
	Cache l2, *pl2 = NULL;
	Dram d;
	char err[200];
	uint64_t now = 0, n = 0;

	memset(st, 0, sizeof *st);
	core->st = st;
	for (int w = 0; w < core->nwarps; w++)
		for (int i = 0; i < core->len[w]; i++)
			sim_tinst_use(&core->prog[w][i].in, &core->prog[w][i].use);
	ck_assert_ptr_nonnull(m);
	if (c->l2.enable) {
		ck_assert_int_eq(sim_cache_init(&l2, &c->l2, err, sizeof err), 0);
		pl2 = &l2;
	}
	sim_dram_init(&d, c->dram_bw);
	ck_assert_int_eq(sim_tsm_init(m, c, pl2, &d, st, err, sizeof err), 0);
	for (int w = 0; w < core->nwarps; w++)
		sim_tsm_add_cta(m, w, 1, core->cta[w], (uint64_t)w);
	while (m->nlive > 0) {
		sim_tsm_cycle(m, &src, now);
		now = sim_tsm_next(m, &src, now);
		n++;
		ck_assert_msg(now < 10000000, "deadlock or runaway");
	}
	st->cycles = m->end;
	st->dram_bytes = d.bytes;
	sim_tsm_free(m);
	if (pl2)
		sim_cache_free(pl2);
	free(m);
	if (iters)
		*iters = n;
	return st->cycles;
}

/* sim_tsm_add_cta of a CTA's warps leaves an SM as the same warps added one by one do (each
 * scheduler's masks rebuilt once instead of once per warp); a slot's second arrival clears
 * its Scoreboard below sbtop only (no instruction writes an id from sbtop up) */
START_TEST(test_add_cta)
{
	TimingConfig c = helper_teaching();
	TStats st1, st2;
	Dram d;
	char err[200];
	TSm *a = malloc(sizeof *a), *b = malloc(sizeof *b);

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	c.schedulers = 2;
	sim_dram_init(&d, c.dram_bw);
	ck_assert_int_eq(sim_tsm_init(a, &c, NULL, &d, &st1, err, sizeof err), 0);
	ck_assert_int_eq(sim_tsm_init(b, &c, NULL, &d, &st2, err, sizeof err), 0);
	for (int w = 0; w < 5; w++)
		sim_tsm_add_cta(a, 3 + w, 1, 1, 10 + (uint64_t)w);
	sim_tsm_add_cta(b, 3, 5, 1, 10);
	ck_assert_int_eq(a->nlive, 5);
	ck_assert_int_eq(b->nlive, 5);
	ck_assert_uint_eq(a->rdy, b->rdy);
	ck_assert_uint_eq(a->far, b->far);
	ck_assert_uint_eq(a->wocc, b->wocc);
	ck_assert_uint_eq(a->farfrom, b->farfrom);
	ck_assert_int_eq(memcmp(a->wheel, b->wheel, sizeof a->wheel), 0);
	ck_assert_int_eq(memcmp(a->umask, b->umask, sizeof a->umask), 0);
	ck_assert_int_eq(memcmp(a->wbit, b->wbit, sizeof a->wbit), 0);
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(a->sched[k].n, b->sched[k].n);
		ck_assert_int_eq(memcmp(a->sched[k].warp, b->sched[k].warp, sizeof a->sched[k].warp), 0);
		ck_assert_int_eq(memcmp(a->sched[k].age, b->sched[k].age, sizeof a->sched[k].age), 0);
	}
	ck_assert_int_eq(memcmp(a->bw, b->bw, sizeof a->bw), 0);
	ck_assert_int_eq(memcmp(a->cta, b->cta, sizeof a->cta), 0);
	ck_assert_int_eq(b->cta[7], 1);
	ck_assert_uint_eq(b->sbset[7], 1);
	ck_assert_uint_eq(b->sb[7].ready[SB_R(0)], 0);
	/* warp slot 20 as after an earlier CTA: ids below sbtop cleared, the rest left */
	b->sbtop = SB_R(4);
	b->sbset[20] = 1;
	b->sb[20].memmax = 9;
	b->sb[20].ready[SB_R(3)] = 5;
	b->sb[20].ready[SB_R(40)] = 7;
	sim_tsm_add_cta(b, 20, 1, 2, 30);
	ck_assert_uint_eq(b->sb[20].memmax, 0);
	ck_assert_uint_eq(b->sb[20].ready[SB_R(3)], 0);
	ck_assert_uint_eq(b->sb[20].ready[SB_R(40)], 7);
	sim_tsm_free(a);
	sim_tsm_free(b);
	free(a);
	free(b);
}
END_TEST

/* ---------------------------------------------------------------- the microbenchmarks */
/* a chain of N dependent IADDs costs N x latency (the EXIT overlaps the last one) */
START_TEST(test_dependent_chain)
{
	int ns[] = {1, 5, 50};
	for (int cfg = 0; cfg < 2; cfg++) {
		TimingConfig c = helper_teaching();
		if (cfg)
			sim_tconfig_defaults(&c); /* Fermi */
		for (int i = 0; i < 3; i++) {
			Core *k = core_new();
			TStats st;
			for (int j = 0; j < ns[i]; j++)
				iadd(k, 0, 1, 1);
			ctrl(k, 0, K_EXIT);
			ck_assert_int_eq(run(&c, k, &st, NULL), (uint64_t)ns[i] * (uint64_t)c.lat[LAT_ALU]);
			ck_assert_int_eq(st.warp_insts, (uint64_t)ns[i] + 1);
			ck_assert_int_eq(st.thread_insts, 32 * ((uint64_t)ns[i] + 1));
			free(k);
		}
	}
}
END_TEST

/* W warps of N-long chains: latency-bound (4N + W - 1) below the latency, issue-bound
 * (one instruction a cycle: W(N + 1)) from W = latency on. GTO issues each warp's EXIT
 * greedily right after its last IADD (4 warps: 4(N-1) + 2(W-1) + 4); with more warps than
 * the latency it starves the youngest until the others finish, so it ends later than LRR. */
START_TEST(test_independent_streams)
{
	const int N = 10;
	for (int pol = 0; pol < SCHED_COUNT; pol++)
		for (int W = 1; W <= 8; W++) {
			TimingConfig c = helper_teaching();
			Core *k = core_new();
			TStats st;
			c.policy = pol;
			c.pool = 8;
			for (int w = 0; w < W; w++) {
				for (int j = 0; j < N; j++)
					iadd(k, w, 1, 1);
				ctrl(k, w, K_EXIT);
			}
			uint64_t want = W >= 4 ? (uint64_t)(W * (N + 1)) : (uint64_t)(4 * N + W - 1);
			uint64_t got = run(&c, k, &st, NULL);
			if (pol == SCHED_GTO && W > 4)
				ck_assert_msg(got > want, "gto, %d warps: %llu cycles", W, (unsigned long long)got);
			if (pol == SCHED_GTO && W == 4)
				ck_assert_int_eq(got, 4 * (N - 1) + 2 * (W - 1) + 4);
			if (pol != SCHED_GTO || W == 1)
				ck_assert_msg(got == want, "policy %d, %d warps: %llu cycles, want %llu", pol, W,
				              (unsigned long long)got, (unsigned long long)want);
			free(k);
		}
}
END_TEST

/* a stride-k shared load costs its conflict degree gcd(k, 32) in replays */
START_TEST(test_shared_stride)
{
	TimingConfig c = helper_teaching();
	for (int s = 1; s <= 32; s++) {
		Core *k = core_new();
		TStats st;
		mem(k, 0, K_LDS, 4, 0, 4 * (uint64_t)s);
		ctrl(k, 0, K_EXIT);
		int d = helper_gcd(s, 32);
		ck_assert_int_eq(run(&c, k, &st, NULL), (uint64_t)(c.lat[LAT_SHARED] + d - 1));
		ck_assert_int_eq(st.bank_conflicts, (uint64_t)(d - 1));
		ck_assert_int_eq(st.shared_insts, 1);
		free(k);
	}
}
END_TEST

/* coalesced and strided loads differ by exactly their transaction counts (4 vs 32 sectors
 * at one sector per cycle) */
START_TEST(test_coalesced_vs_strided)
{
	TimingConfig c = helper_teaching();
	Core *k = core_new();
	TStats st;
	mem(k, 0, K_LDG, 4, 0x10000, 4);
	ctrl(k, 0, K_EXIT);
	uint64_t a = run(&c, k, &st, NULL);
	ck_assert_int_eq(a, 4 + 100);
	ck_assert_int_eq(st.gld_trans, 4);
	free(k);
	k = core_new();
	mem(k, 0, K_LDG, 4, 0x10000, 128);
	ctrl(k, 0, K_EXIT);
	uint64_t b = run(&c, k, &st, NULL);
	ck_assert_int_eq(st.gld_trans, 32);
	ck_assert_int_eq(b - a, 32 - 4);
	free(k);
	/* predicated-off lanes make no traffic: half the lanes of the strided load */
	k = core_new();
	mem(k, 0, K_LDG, 4, 0x10000, 128)->off = 0xffff0000u;
	ctrl(k, 0, K_EXIT);
	ck_assert_int_eq(run(&c, k, &st, NULL), 16 + 100);
	ck_assert_int_eq(st.gld_trans, 16);
	ck_assert_int_eq(st.pred_off, 16);
	free(k);
}
END_TEST

/* an access without an address (every lane predicated off) makes no request: its
 * destination is ready --alu-latency after issue, not at the memory's latency (nor at once,
 * as the global path's empty coalescing gave); a shared load keeps --shared-latency. The
 * load at 0, its reader when the result lands, EXIT a cycle later, the reader's result last */
START_TEST(test_no_request)
{
	TimingConfig c = helper_teaching();
	static const int kinds[] = {K_LDG, K_ATOM, K_LDS};

	for (int i = 0; i < 3; i++) {
		Core *k = core_new();
		TStats st;
		uint64_t lat = (uint64_t)c.lat[kinds[i] == K_LDS ? LAT_SHARED : LAT_ALU];
		mem(k, 0, kinds[i], 4, 0x10000, 4)->off = ~0u;
		iadd(k, 0, 5, 4);
		ctrl(k, 0, K_EXIT);
		ck_assert_int_eq(run(&c, k, &st, NULL), lat + (uint64_t)c.lat[LAT_ALU]);
		ck_assert_int_eq(st.gld_trans + st.atom_trans + st.bank_conflicts, 0);
		ck_assert_int_eq(st.pred_off, 32);
		free(k);
	}
	/* the memory latencies do not enter it */
	c.lat[LAT_GLOBAL] = c.lat[LAT_ATOM] = 1000;
	Core *k = core_new();
	TStats st;
	mem(k, 0, K_LDG, 4, 0x10000, 4)->off = ~0u;
	iadd(k, 0, 5, 4);
	ctrl(k, 0, K_EXIT);
	ck_assert_int_eq(run(&c, k, &st, NULL), 2 * (uint64_t)c.lat[LAT_ALU]);
	free(k);
}
END_TEST

/* a divergent if/else: SSY, BRA, then-side, NOP.S (pop to the else side), else-side,
 * NOP.S (reconverge), EXIT: both sides + 5 control instructions + 2 switch slots */
START_TEST(test_divergent_if_else)
{
	TimingConfig c = helper_teaching();
	for (int T = 1; T <= 6; T += 5)
		for (int E = 1; E <= 4; E++) {
			Core *k = core_new();
			TStats st;
			ctrl(k, 0, K_CTRL);                                /* SSY */
			ctrl(k, 0, K_CTRL)->diverged = 1;                  /* @P0 BRA */
			for (int i = 0; i < T; i++)
				iadd(k, 0, 10 + i, 0)->active = 0x0000ffffu;
			Step *o = ctrl(k, 0, K_CTRL);                        /* NOP.S: the DIV token pops */
			o->active = 0x0000ffffu;
			o->switches = 1;
			for (int i = 0; i < E; i++)
				iadd(k, 0, 20 + i, 0)->active = 0xffff0000u;
			o = ctrl(k, 0, K_CTRL);                            /* NOP.S: the SYNC token pops */
			o->active = 0xffff0000u;
			o->switches = 1;
			o->reconverged = 1;
			ctrl(k, 0, K_EXIT);
			ck_assert_int_eq(run(&c, k, &st, NULL), (uint64_t)(T + E + 5 + 2 * c.div_switch));
			ck_assert_int_eq(st.warp_insts, (uint64_t)(T + E + 5));
			ck_assert_int_eq(st.thread_insts, (uint64_t)(32 * 3 + 16 * (T + E + 2)));
			ck_assert_int_eq(st.div_branches, 1);
			ck_assert_int_eq(st.reconv, 1);
			ck_assert_int_eq(st.stall[STALL_CTRL], 2);
			ck_assert_int_eq(st.crs_hwm, 2);
			free(k);
		}
}
END_TEST

/* a barrier waits for the slowest warp: warp 0 arrives at once, warp 1 after an N-chain;
 * both leave --bar-latency after the release */
START_TEST(test_barrier_slowest)
{
	TimingConfig c = helper_teaching();
	for (int N = 1; N <= 20; N += 19) {
		Core *k = core_new();
		TStats st;
		ctrl(k, 0, K_BAR);
		ctrl(k, 0, K_EXIT);
		for (int j = 0; j < N; j++)
			iadd(k, 1, 1, 1);
		ctrl(k, 1, K_BAR);
		ctrl(k, 1, K_EXIT);
		/* warp 1: IADDs at 1, 5, ..., BAR at 4N - 2, both resume at 4N + 2, exits at 4N + 2, 4N + 3 */
		ck_assert_int_eq(run(&c, k, &st, NULL), (uint64_t)(4 * N + c.lat[LAT_BAR]));
		if (N > 1) /* warp 0 waits first in line while warp 1's chain stalls */
			ck_assert_msg(st.stall[STALL_BARRIER] > 0, "raw %llu ctrl %llu pipe %llu idle %llu",
		              (unsigned long long)st.stall[STALL_RAW_ALU], (unsigned long long)st.stall[STALL_CTRL],
		              (unsigned long long)st.stall[STALL_PIPE], (unsigned long long)st.stall[STALL_IDLE]);
		free(k);
	}
}
END_TEST

/* pipelined SFU: n independent MUFUs cost (n - 1) x interval + latency */
START_TEST(test_sfu_throughput)
{
	for (int cfg = 0; cfg < 2; cfg++) {
		TimingConfig c = helper_teaching();
		if (cfg)
			sim_tconfig_defaults(&c); /* Fermi: 4 lanes, 8 cycles per warp */
		for (int n = 1; n <= 6; n++) {
			Core *k = core_new();
			TStats st;
			for (int i = 0; i < n; i++) {
				Step *o = add(k, 0, K_SFU, UNIT_SFU, LAT_SFU);
				sim_sb_use_regs(&o->use, 1, 10 + i, 1);
			}
			ctrl(k, 0, K_EXIT);
			uint64_t want = (uint64_t)((n - 1) * c.unit[UNIT_SFU].interval + c.lat[LAT_SFU]);
			ck_assert_int_eq(run(&c, k, &st, NULL), want);
			ck_assert_int_eq(st.stall[STALL_PIPE], (uint64_t)((n - 1) * (c.unit[UNIT_SFU].interval - 1)));
			free(k);
		}
	}
}
END_TEST

/* dual issue: two independent instructions of one warp in one cycle */
START_TEST(test_dual_issue)
{
	TimingConfig c = helper_teaching();
	TStats st;
	c.unit[UNIT_ALU].units = 2;
	for (int width = 1; width <= 2; width++) {
		Core *k = core_new();
		c.issue_width = width;
		for (int i = 0; i < 4; i++)
			iadd(k, 0, 10 + i, -1);
		ctrl(k, 0, K_EXIT);
		/* width 1: IADDs at 0..3, the last lands at 7; width 2: at 0,0,1,1, lands at 5 */
		ck_assert_int_eq(run(&c, k, &st, NULL), width == 1 ? 7 : 5);
		free(k);
	}
}
END_TEST

/* ---------------------------------------------------------------- stepping and skipping */
static Core *
mixed(int nw)
{
	Core *k = core_new();
	for (int w = 0; w < nw; w++) {
		k->cta[w] = w / 4;
		iadd(k, w, 1, -1);
		mem(k, w, K_LDG, 2, 0x10000 + 0x1000 * (uint64_t)w, (uint64_t)(4 << (w % 6)));
		iadd(k, w, 3, 2);
		mem(k, w, K_LDS, 4, 0, 4 * (uint64_t)(w + 1));
		Step *o = add(k, w, K_SFU, UNIT_SFU, LAT_SFU);
		sim_sb_use_regs(&o->use, 0, 4, 1);
		sim_sb_use_regs(&o->use, 1, 5, 1);
		ctrl(k, w, K_BAR);
		for (int j = 0; j < w % 3; j++)
			iadd(k, w, 6, 5);
		mem(k, w, K_STG, -1, 0x80000 + 0x100 * (uint64_t)w, 4);
		mem(k, w, K_ATOM, 7, 0x90000, 0)->off = (uint32_t)w;
		iadd(k, w, 8, 7);
		ctrl(k, w, K_EXIT);
	}
	return k;
}

static char *
stats_text(const TStats *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	rp_tstats_print(f, st);
	fprintf(f, "stall_ctrl %llu stall_none %llu\n", (unsigned long long)st->stall[STALL_CTRL],
	        (unsigned long long)st->stall[STALL_NONE]);
	fclose(f);
	return buf;
}

START_TEST(test_step_equals_skip)
{
	const char *cfgs[] = {"sim/configs/teaching.cfg", "sim/configs/fermi.cfg", "sim/configs/kepler.cfg"};
	for (int f = 0; f < 3; f++)
		for (int pol = 0; pol < SCHED_COUNT; pol++) {
			TimingConfig c;
			TStats a, b;
			uint64_t ia, ib;
			sim_tconfig_defaults(&c);
			ck_assert_int_eq(helper_load_config(&c, NULL, cfgs[f], stderr), 0);
			c.policy = pol;
			int nw = c.max_warps < 12 ? c.max_warps : 12;
			Core *k1 = mixed(nw), *k2 = mixed(nw);
			c.skip = 0;
			uint64_t ca = run(&c, k1, &a, &ia);
			c.skip = 1;
			uint64_t cb = run(&c, k2, &b, &ib);
			ck_assert_int_eq(ca, cb);
			ck_assert_int_gt(a.warp_cycles, 0);
			ck_assert_int_eq(a.warp_cycles, b.warp_cycles);
			char *ta = stats_text(&a), *tb = stats_text(&b);
			ck_assert_str_eq(ta, tb);
			ck_assert_msg(ib * 2 < ia, "%s: skipping simulated %llu of %llu cycles", cfgs[f],
			              (unsigned long long)ib, (unsigned long long)ia);
			/* every scheduler-cycle until the last issue is an issue or a counted stall */
			uint64_t stalls = 0;
			for (int r = 0; r < STALL_COUNT; r++)
				stalls += a.stall[r];
			ck_assert_int_eq(a.warp_insts + stalls >= ia, 1);
			free(ta);
			free(tb);
			free(k1);
			free(k2);
		}
}
END_TEST

/* the same inputs give the same cycles */
START_TEST(test_deterministic)
{
	TimingConfig c;
	TStats a, b;
	sim_tconfig_defaults(&c);
	Core *k1 = mixed(12), *k2 = mixed(12);
	ck_assert_int_eq(run(&c, k1, &a, NULL), run(&c, k2, &b, NULL));
	char *ta = stats_text(&a), *tb = stats_text(&b);
	ck_assert_str_eq(ta, tb);
	free(ta);
	free(tb);
	free(k1);
	free(k2);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("timing_micro");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_dependent_chain);
	tcase_add_test(tc, test_independent_streams);
	tcase_add_test(tc, test_shared_stride);
	tcase_add_test(tc, test_coalesced_vs_strided);
	tcase_add_test(tc, test_no_request);
	tcase_add_test(tc, test_divergent_if_else);
	tcase_add_test(tc, test_barrier_slowest);
	tcase_add_test(tc, test_sfu_throughput);
	tcase_add_test(tc, test_dual_issue);
	tcase_add_test(tc, test_step_equals_skip);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_add_cta);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
