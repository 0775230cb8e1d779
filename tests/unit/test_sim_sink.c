/* test_sim_sink.c - the timing model's reports to a TraceSink (sim/trace.h): one issue record
 * per warp instruction with its cycle, CTA, warp slot, stall cycles and stall reason; CTA and
 * warp start/done and barrier wait/release events; the end with gpu_sim_cycle. Runs small
 * listings on teaching.cfg (round latencies: ALU 4, barrier 4) and checks the records
 * against the model's arithmetic and its own statistics. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "sim/trace.h"
#include "tests/unit/helper_check.h"

#define MAXR 4096

typedef struct {
	TraceIssue is[MAXR];      /* issue records (e copied below) */
	ExecInfo ex[MAXR];        /* their ExecInfo, copied: the pointer is scratch */
	int nis;
	TraceEvent ev[MAXR];      /* events */
	int nev;
	int is_seq[MAXR], ev_seq[MAXR]; /* arrival order over both kinds */
	int seq;
	uint64_t end;             /* the end callback's cycles */
	int nend;                 /* end calls */
} Rec;

static Rec rec;

static void on_issue(void *ctx, const TraceIssue *t)
{
	Rec *r = ctx;
	if (r->nis < MAXR) {
		r->is[r->nis] = *t;
		r->ex[r->nis] = *t->e;
		r->is[r->nis].e = &r->ex[r->nis];
		r->is_seq[r->nis] = r->seq++;
	}
	r->nis++;
}

static void on_event(void *ctx, const TraceEvent *ev)
{
	Rec *r = ctx;
	if (r->nev < MAXR) {
		r->ev[r->nev] = *ev;
		r->ev_seq[r->nev] = r->seq++;
	}
	r->nev++;
}

static void on_end(void *ctx, uint64_t cycles)
{
	Rec *r = ctx;
	r->end = cycles;
	r->nend++;
}

/* runs listing src on teaching.cfg (plus option pairs cfg) with grid x block threads;
 * returns gpu_sim_cycle; sink NULL runs without one */
static uint64_t run(const char *src, unsigned grid, unsigned block, const char *arg,
                    const char **cfg, int sink, TStats *ts)
{
	SimOpts o;
	SimConfig c;
	Mem mem;
	Placed pl = {0};
	char why[256];
	Prog *p = isa_asm("t.sass", src, strlen(src), stderr);
	Gpu *g;
	TraceSink s = {on_issue, on_event, on_end, &rec};
	uint64_t cycles;

	ck_assert_ptr_nonnull(p);
	memset(&rec, 0, sizeof rec);
	sim_opts_init(&o);
	ck_assert_int_eq(sim_tconfig_load(&o.tc, "sim/configs/teaching.cfg", stderr), 0);
	for (int i = 0; cfg && cfg[i]; i += 2)
		ck_assert_int_eq(sim_tconfig_set(&o.tc, cfg[i], cfg[i + 1], why, sizeof why), 0);
	o.launch.grid[0] = grid;
	o.launch.block[0] = block;
	if (arg) {
		o.launch.args = calloc(1, sizeof *o.launch.args);
		ck_assert_int_eq(dev_parse_arg(arg, NULL, &o.launch.args[0], why), 0);
		o.launch.nargs = 1;
	}
	dev_mem_init(&mem);
	ck_assert_int_eq(dev_launch_place(&mem, &p->k[0], &o.launch, &pl, stderr), 0);
	sim_config_from_opts(&c, &o);
	g = sim_gpu_new(&p->k[0], &mem, &o.launch, &c, "t.sass", stderr);
	ck_assert_ptr_nonnull(g);
	if (sink)
		sim_gpu_set_sink(g, &s);
	ck_assert_int_eq(sim_run(g, 0), SIM_DONE);
	*ts = *sim_gpu_tstats(g);
	cycles = ts->cycles;
	sim_gpu_free(g);
	dev_placed_free(&pl);
	dev_mem_free(&mem);
	sim_opts_free(&o);
	isa_prog_free(p);
	return cycles;
}

static int count_ev(int kind)
{
	int n = 0;
	for (int i = 0; i < rec.nev && i < MAXR; i++)
		n += rec.ev[i].kind == kind;
	return n;
}

/* per warp: cycle = previous issue (or start) + 1 + stall cycles; records non-decreasing
 * (warp slots are reused by later CTAs: records are taken in arrival order) */
static void check_stall_arithmetic(void)
{
	uint64_t next[TM_MAXWARPS * 4] = {0}, last = 0;
	int seen[TM_MAXWARPS * 4] = {0};
	int i = 0, j = 0;

	ck_assert_int_lt(rec.nis, MAXR);
	ck_assert_int_lt(rec.nev, MAXR);
	while (i < rec.nis || j < rec.nev) {
		if (j < rec.nev && (i >= rec.nis || rec.ev_seq[j] < rec.is_seq[i])) {
			const TraceEvent *ev = &rec.ev[j++];
			if (ev->kind == TEV_WARP_START) {
				int k = ev->sm * TM_MAXWARPS + ev->gwarp;
				next[k] = ev->cycle;
				seen[k] = 1;
			}
			ck_assert_uint_ge(ev->cycle, last);
			last = ev->cycle;
			continue;
		}
		const TraceIssue *t = &rec.is[i++];
		int k = t->e->sm * TM_MAXWARPS + t->gwarp;
		ck_assert(seen[k]);
		ck_assert_uint_eq(t->cycle, next[k] + t->stall_cycles);
		ck_assert(t->stall_cycles == 0 || t->stall_reason != STALL_IDLE);
		ck_assert_uint_ge(t->cycle, last);
		last = t->cycle;
		next[k] = t->cycle + 1;
	}
}

#define HDR ".kernel k\n.arch sm_20\n.registers 8\n.param 0x20 4 s\n"

/* a chain of dependent IADDs: every IADD after the first waited 3 cycles on the ALU result */
START_TEST(test_chain_stalls)
{
	TStats ts;
	uint64_t cyc = run(HDR "IADD R0, R0, 0x1;\nIADD R0, R0, 0x1;\nIADD R0, R0, 0x1;\nEXIT;\n",
	                   1, 32, "u32:0", NULL, 1, &ts);
	ck_assert_uint_eq(cyc, 12);
	ck_assert_int_eq(rec.nis, 4);
	ck_assert_uint_eq(rec.is[0].cycle, 0);
	ck_assert_uint_eq(rec.is[0].stall_cycles, 0);
	ck_assert_int_eq(rec.is[0].stall_reason, STALL_NONE);
	for (int i = 1; i < 3; i++) {
		ck_assert_uint_eq(rec.is[i].cycle, 4u * i);
		ck_assert_uint_eq(rec.is[i].stall_cycles, 3);
		ck_assert_int_eq(rec.is[i].stall_reason, STALL_RAW_ALU);
	}
	ck_assert_uint_eq(rec.is[3].cycle, 9);      /* EXIT reads nothing */
	ck_assert_uint_eq(rec.is[3].stall_cycles, 0);
	ck_assert_uint_eq(rec.is[3].e->pc, 0x18);
	ck_assert_int_eq(rec.nend, 1);
	ck_assert_uint_eq(rec.end, 12);
	check_stall_arithmetic();
}
END_TEST

/* several CTAs and warps: every start has its done, CTA ids are linear, counts match the
 * statistics, and a run without a sink gives the same cycles */
START_TEST(test_events_and_counts)
{
	TStats a, b;
	const char *cfg[] = {"max-ctas", "2", NULL};
	const char *src = HDR "S2R R0, SR_TID.X;\nIADD R1, R0, 0x1;\nEXIT;\n";
	uint64_t with = run(src, 5, 64, "u32:0", cfg, 1, &a);
	uint64_t without = run(src, 5, 64, "u32:0", cfg, 0, &b);

	ck_assert_uint_eq(with, without);
	ck_assert_int_eq(memcmp(&a, &b, sizeof a), 0);
	run(src, 5, 64, "u32:0", cfg, 1, &a);
	ck_assert_uint_eq((uint64_t)rec.nis, a.warp_insts);
	ck_assert_int_eq(count_ev(TEV_CTA_START), 5);
	ck_assert_int_eq(count_ev(TEV_CTA_DONE), 5);
	ck_assert_int_eq(count_ev(TEV_WARP_START), 10);
	ck_assert_int_eq(count_ev(TEV_WARP_DONE), 10);
	for (int c = 0; c < 5; c++) {
		int found = 0;
		for (int i = 0; i < rec.nev; i++)
			found += rec.ev[i].kind == TEV_CTA_START && rec.ev[i].ctaid == c && rec.ev[i].gwarp == -1;
		ck_assert_int_eq(found, 1);
	}
	/* two CTA slots: CTAs 2.. start only when an earlier one is done */
	for (int i = 0; i < rec.nev; i++)
		if (rec.ev[i].kind == TEV_CTA_START && rec.ev[i].ctaid >= 2)
			ck_assert_uint_gt(rec.ev[i].cycle, 0);
	ck_assert_uint_eq(rec.end, a.cycles);
	check_stall_arithmetic();
}
END_TEST

/* a barrier: the fast warp waits, both are released when the slow one arrives, and the
 * fast warp's next issue reports its wait as a barrier stall */
START_TEST(test_barrier_events)
{
	TStats ts;
	const char *src = HDR
		"S2R R0, SR_TID.X;\n"
		"ISETP.LT.U32.AND P0, PT, R0, c[0x0][0x20], PT;\n"
		"@P0 BRA 0x30;\n"
		"IADD R1, R1, 0x1;\nIADD R1, R1, 0x1;\nIADD R1, R1, 0x1;\n"
		"BAR.SYNC 0x0;\n"
		"IADD R2, R0, 0x1;\n"
		"EXIT;\n";
	int wait = -1, rel = 0, bar_issue = -1;

	run(src, 1, 64, "u32:32", NULL, 1, &ts);
	for (int i = 0; i < rec.nev; i++) {
		if (rec.ev[i].kind == TEV_BAR_WAIT) {
			ck_assert_int_eq(wait, -1);
			wait = i;
			ck_assert_int_eq(rec.ev[i].warp, 0);
			ck_assert_uint_eq(rec.ev[i].pc, 0x30);
		}
		if (rec.ev[i].kind == TEV_BAR_RELEASE) {
			rel++;
			ck_assert_int_ge(wait, 0);
			ck_assert_uint_gt(rec.ev[i].cycle, rec.ev[wait].cycle);
		}
	}
	ck_assert_int_eq(rel, 2);
	for (int i = 0; i < rec.nis; i++)
		if (rec.is[i].e->warp == 0 && rec.is[i].e->pc == 0x38)
			bar_issue = i;
	ck_assert_int_ge(bar_issue, 0);
	ck_assert_int_eq(rec.is[bar_issue].stall_reason, STALL_BARRIER);
	ck_assert_uint_gt(rec.is[bar_issue].stall_cycles, 4);
	ck_assert_uint_gt(ts.stall[STALL_BARRIER], 0);
	check_stall_arithmetic();
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sim_sink");
	TCase *tc = tcase_create("sink");

	tcase_add_test(tc, test_chain_stalls);
	tcase_add_test(tc, test_events_and_counts);
	tcase_add_test(tc, test_barrier_events);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{

	return ck_run(suite());
}
