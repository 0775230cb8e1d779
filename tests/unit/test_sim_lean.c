/* test_sim_lean.c - the issue stage's own run of a lean instruction (sim/tsm.c, timing.h's
 * TLean): with a scripted core whose warps and handler this file defines, which instructions
 * it runs itself (the guard, the handler's lanes, the branch and the pc, the statistics it
 * counts) and which it leaves to the exec callback (a branch that splits the warp, a warp
 * without active lanes, every one when the source has no TLean) or to the core's short
 * control path (TSource.flow, with exec when that declines); and with the SM model, a
 * kernel of lean instructions in every guard form, partial warps and a split branch, whose
 * memory and statistics must equal the run that takes every issue through exec (a trace
 * reads each one) and hand-derived values; and the decode-time handlers of ISETP, MOV32I,
 * LOP, SHL, SHR, SEL, IMAD, IMUL, IADD, MOV.64, PSETP and S2R against C; and timing.h's
 * population count (sim_popc) on both of its paths. */
#include <check.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "tests/unit/helper_check.h"
#include "tests/unit/helper_sim.h"

/* ---------------------------------------------------------------- a scripted core */
/* the core's warp as timing.h's TW_* describe it */
struct Warp {
	uint32_t pc, active, exited, counted, lanes;
	uint32_t p[9];
};
_Static_assert(offsetof(struct Warp, pc) == TW_PC && offsetof(struct Warp, active) == TW_ACTIVE &&
               offsetof(struct Warp, p) == TW_P, "TW_*");
struct DIns {
	int id;
};

enum { NW = 3, NI = 12, MAXC = 64 };
typedef struct {
	TInst code[NI + 1];          /* the program, code[NI] past its end */
	struct DIns d[NI];
	int exit_pc;                 /* code index of EXIT */
	struct Warp w[NW];
	TLean lean;
	TStats *st;
	int call_warp[MAXC], call_id[MAXC];   /* the handler's calls: warp, instruction */
	uint32_t call_ex[MAXC];
	int ncall;
	int exec_warp[MAXC], exec_pc[MAXC];   /* the exec callback's */
	int nexec;
	int flow_warp[MAXC], flow_pc[MAXC];   /* the short control path's */
	int nflow;
	int flow_no;                 /* the instruction it leaves to exec (-1: none) */
} LCore;

static LCore *cur;

static void
handler(struct Warp *w, const struct DIns *d, uint32_t ex)
{
	LCore *c = cur;
	ck_assert_int_lt(c->ncall, MAXC);
	c->call_warp[c->ncall] = (int)(w - c->w);
	c->call_id[c->ncall] = d->id;
	c->call_ex[c->ncall++] = ex;
}

static const TInst *
peek(void *ctx, int w)
{
	LCore *c = ctx;
	return &c->code[c->w[w].pc];
}

/* any instruction, executed by moving on (EXIT: the warp's end) */
static int
exec(void *ctx, int w, TExec *e)
{
	LCore *c = ctx;
	struct Warp *wp = &c->w[w];
	int pc = (int)wp->pc;

	ck_assert_int_lt(c->nexec, MAXC);
	c->exec_warp[c->nexec] = w;
	c->exec_pc[c->nexec++] = pc;
	sim_tstats_issue(c->st, wp->active, wp->active, 0, 0, 0);
	wp->pc = (uint32_t)pc + 1;
	e->next = &c->code[wp->pc];
	if (pc != c->exit_pc)
		return 0;
	sim_texec_rare_clear(e);
	e->event = TEX_EXIT;
	return 1;
}

/* the core's short control path (TSource.flow): the warp's next instruction, executed by
 * moving on as exec does; -1 (exec runs it) for a warp without active lanes and for
 * flow_no */
static int
flow(void *ctx, int w, const TInst *in, TExec *e)
{
	LCore *c = ctx;
	struct Warp *wp = &c->w[w];

	ck_assert_int_lt(c->nflow, MAXC);
	ck_assert_uint_eq(in->pc, wp->pc);
	c->flow_warp[c->nflow] = w;
	c->flow_pc[c->nflow++] = (int)in->pc;
	if (!wp->active || (int)in->pc == c->flow_no)
		return -1;
	sim_tstats_issue(c->st, wp->active, wp->active, 0, 0, 0);
	wp->pc = in->pc + 1;
	e->next = &c->code[wp->pc];
	return 0;
}

static void
lean_ins(LCore *c, int i, int lean, int guard, int neg, int target)
{
	TInst *t = &c->code[i];
	t->unit = lean == LEAN_BRA ? UNIT_CTRL : UNIT_ALU;
	t->lat = lean == LEAN_BRA ? LAT_CTRL : LAT_ALU;
	t->ctrl = lean == LEAN_BRA;
	t->lean = (uint8_t)lean;
	t->guard = (uint8_t)guard;
	t->gxor = neg ? ~0u : 0;
	t->pc = (uint32_t)i;
	t->target = (uint32_t)target;
	t->fn = lean == LEAN_FN || lean == LEAN_QUIET ? handler : NULL;
	t->d = &c->d[i];
	c->d[i].id = i;
}

/* warp 0 runs with every lane active, warp 1 with lanes 0..15, warp 2 with none (its
 * instructions all go to exec); P0 = 0x00ff00ff, P1 = 0, P2 = 1 */
static LCore *
lcore_new(void)
{
	LCore *c = calloc(1, sizeof *c);
	ck_assert_ptr_nonnull(c);
	c->flow_no = -1;
	lean_ins(c, 0, LEAN_FN, 7, 0, 0);           /* PT */
	lean_ins(c, 1, LEAN_FN, 0, 0, 0);           /* @P0 */
	lean_ins(c, 2, LEAN_FN, 0, 1, 0);           /* @!P0 */
	lean_ins(c, 3, LEAN_BRA, 1, 0, 5);          /* @P1 BRA 5: taken by no lane */
	lean_ins(c, 4, LEAN_BRA, 7, 0, 6);          /* BRA 6: by every lane */
	lean_ins(c, 5, LEAN_FN, 7, 0, 0);           /* (skipped) */
	lean_ins(c, 6, LEAN_BRA, 2, 0, 7);          /* @P2 BRA 7: splits the warp */
	lean_ins(c, 7, LEAN_FN, 0, 0, 0);           /* @P0 */
	lean_ins(c, 8, LEAN_QUIET, 1, 0, 0);         /* @P1 NOP.S: run by no lane */
	lean_ins(c, 9, LEAN_QUIET, 0, 0, 0);         /* @P0 NOP.S: by some */
	lean_ins(c, 10, LEAN_QUIET, 7, 0, 0);        /* NOP.S: by every lane */
	c->code[11].unit = UNIT_CTRL;               /* EXIT (not lean) */
	c->code[11].lat = LAT_CTRL;
	c->code[11].ctrl = 1;
	c->exit_pc = 11;
	for (int w = 0; w < NW; w++) {
		c->w[w].active = w == 0 ? ~0u : w == 1 ? 0xffffu : 0;
		c->w[w].p[0] = 0x00ff00ffu;
		c->w[w].p[1] = 0;
		c->w[w].p[2] = 1;
		c->w[w].p[7] = ~0u;
		c->lean.warps[w] = &c->w[w];
	}
	return c;
}

/* every warp of c to its EXIT on teaching.cfg, with or without the core's TLean and its
 * short control path */
static void
lrun(LCore *c, int lean, int withflow, TStats *st)
{
	TimingConfig tc;
	TSource src = {c, peek, exec, lean ? &c->lean : NULL, withflow ? flow : NULL};
	TSm *m = malloc(sizeof *m);
	Dram d;
	char err[200];
	uint64_t now = 0;

	sim_tconfig_defaults(&tc);
	ck_assert_int_eq(sim_tconfig_load(&tc, "sim/configs/teaching.cfg", stderr), 0);
	ck_assert_ptr_nonnull(m);
	memset(st, 0, sizeof *st);
	c->st = st;
	cur = c;
	sim_dram_init(&d, tc.dram_bw);
	ck_assert_int_eq(sim_tsm_init(m, &tc, NULL, &d, st, err, sizeof err), 0);
	for (int w = 0; w < NW; w++)
		sim_tsm_add_cta(m, w, 1, 0, (uint64_t)w);
	while (m->nlive > 0) {
		sim_tsm_cycle(m, &src, now);
		now = sim_tsm_next(m, &src, now);
		ck_assert_msg(now < 100000, "deadlock or runaway");
	}
	sim_tsm_free(m);
	free(m);
}

/* the handler calls of warp w, as "id:ex" */
static const char *
calls(const LCore *c, int w, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < c->ncall && k < n; i++)
		if (c->call_warp[i] == w)
			k += (size_t)snprintf(buf + k, n - k, "%s%d:%x", k ? " " : "", c->call_id[i], c->call_ex[i]);
	return buf;
}

/* the pcs of the nc calls of warp w in the log (warp[], pc[]) */
static const char *
pcs(const int *warp, const int *pc, int nc, int w, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < nc && k < n; i++)
		if (warp[i] == w)
			k += (size_t)snprintf(buf + k, n - k, "%s%d", k ? " " : "", pc[i]);
	return buf;
}

static const char *
execs(const LCore *c, int w, char *buf, size_t n)
{
	return pcs(c->exec_warp, c->exec_pc, c->nexec, w, buf, n);
}

static const char *
flows(const LCore *c, int w, char *buf, size_t n)
{
	return pcs(c->flow_warp, c->flow_pc, c->nflow, w, buf, n);
}

/* the log fn (calls, execs, flows) of warps 0, 1 and 2, and each warp at its end */
static void
expect3(const LCore *c, const char *(*fn)(const LCore *, int, char *, size_t), const char *w0,
        const char *w1, const char *w2)
{
	const char *want[NW] = {w0, w1, w2};
	char b[512];

	for (int w = 0; w < NW; w++) {
		ck_assert_str_eq(fn(c, w, b, sizeof b), want[w]);
		ck_assert_uint_eq(c->w[w].pc, 12);
	}
}

/* the issue stage runs the lean instructions itself: the handler with the guard's lanes,
 * branches by the guard (taken, not taken; a split one and any of a warp without active
 * lanes through exec), a .S whose guard holds in no lane (one that some or every lane runs
 * through exec), the warp's pc, and the statistics of each into TLean */
START_TEST(test_issue_stage_runs_lean)
{
	LCore *c = lcore_new();
	TStats st;

	lrun(c, 1, 0, &st);
	expect3(c, calls, "0:ffffffff 1:ff00ff 2:ff00ff00 7:ff00ff", "0:ffff 1:ff 2:ff00 7:ff", "");
	expect3(c, execs, "6 9 10 11", "6 9 10 11", "0 1 2 3 4 5 6 7 8 9 10 11");
	/* warp 0's 0, 1, 2, 3, 4, 7, 8 (32 lanes; 0 + 16 + 16 + 32 + 0 + 16 + 32 off: 0 and 4
	 * with the guard true in all) and warp 1's 0, 1, 2, 3, 4, 7, 8 (16 lanes, 0 + 8 + 8 +
	 * 16 + 0 + 8 + 16 off) */
	ck_assert_uint_eq(c->lean.insts, 14);
	ck_assert_uint_eq(c->lean.lanes, 7 * 32 + 7 * 16);
	ck_assert_uint_eq(c->lean.off, 112 + 56);
	ck_assert_uint_eq(st.warp_insts, 4 + 4 + 12);    /* exec's own */
	free(c);
}
END_TEST

/* without the core's TLean every instruction goes through exec */
START_TEST(test_issue_stage_no_lean)
{
	LCore *c = lcore_new();
	TStats st;
	char b[512];

	lrun(c, 0, 0, &st);
	ck_assert_int_eq(c->ncall, 0);
	for (int w = 0; w < NW; w++)
		ck_assert_str_eq(execs(c, w, b, sizeof b), "0 1 2 3 4 5 6 7 8 9 10 11");
	ck_assert_uint_eq(c->lean.insts, 0);
	ck_assert_uint_eq(st.warp_insts, 36);
	free(c);
}
END_TEST

/* the instructions marked TInst.flow that the issue stage does not run itself go to the
 * core's short control path while the lean issue is on, to exec when it declines (a warp
 * without active lanes, instruction 10 here) or without the TLean, and never when lean */
START_TEST(test_issue_stage_flow)
{
	LCore *c = lcore_new();
	TStats st;

	c->code[3].flow = c->code[6].flow = c->code[9].flow = c->code[10].flow = 1;
	c->flow_no = 10;
	lrun(c, 1, 1, &st);
	expect3(c, flows, "6 9 10", "6 9 10", "3 6 9 10");
	expect3(c, execs, "10 11", "10 11", "0 1 2 3 4 5 6 7 8 9 10 11");
	ck_assert_uint_eq(st.warp_insts, 4 + 2 * 2 + 12);   /* flow's and exec's */
	free(c);
	c = lcore_new();
	c->code[6].flow = 1;
	lrun(c, 0, 1, &st);
	ck_assert_int_eq(c->nflow, 0);
	free(c);
}
END_TEST

/* ---------------------------------------------------------------- the SM model */
/* 64 threads: R0 = (tid % 4 == 0 ? 1 : 0x10) + (tid < 48 ? 0x100 : tid % 4 == 0 ? 0x200 : 0),
 * through lean instructions under PT, a guard, a negated guard, a guard false in every lane,
 * a branch taken by none, one taken by all (over an instruction that must not run), and in
 * warp 1 a branch that splits it, whose paths run lean instructions on half a warp */
static const char *kern =
	".kernel k\n.arch sm_20\n.registers 16\n.param 0x20 8 out\n"
	"/*0000*/ S2R R10, SR_TID.X;\n"
	"/*0008*/ LOP.AND R1, R10, 0x3;\n"
	"/*0010*/ ISETP.EQ.AND P0, PT, R1, RZ, PT;\n"
	"/*0018*/ MOV R0, RZ;\n"
	"/*0020*/ @P0 IADD R0, R0, 0x1;\n"
	"/*0028*/ @!P0 IADD R0, R0, 0x10;\n"
	"/*0030*/ ISETP.GT.AND P1, PT, R10, 0x100, PT;\n"
	"/*0038*/ @P1 IADD R0, R0, 0x1000;\n"
	"/*0040*/ @P1 BRA 0x50;\n"
	"/*0048*/ BRA 0x58;\n"
	"/*0050*/ IADD R0, R0, 0x100000;\n"
	"/*0058*/ ISETP.LT.U32.AND P2, PT, R10, 0x30, PT;\n"
	"/*0060*/ SSY 0x90;\n"
	"/*0068*/ @!P2 BRA 0x80;\n"
	"/*0070*/ IADD R0, R0, 0x100;\n"
	"/*0078*/ NOP.S;\n"
	"/*0080*/ @P0 IADD R0, R0, 0x200;\n"
	"/*0088*/ NOP.S;\n"
	"/*0090*/ SHL R11, R10, 0x2;\n"
	"/*0098*/ IADD.CC R12, R11, c[0x0][0x20];\n"
	"/*00a0*/ IADD.X R13, RZ, c[0x0][0x24];\n"
	"/*00a8*/ ST.E [R12], R0;\n"
	"/*00b0*/ EXIT;\n";

START_TEST(test_sm_lean_equals_exec)
{
	static SimT a, b;    /* (large: static) */
	const char *args[] = {"buf:u32:64", NULL};
	const SimStats *sa = &a.st, *sb = &b.st;
	const TStats *ta, *tb;

	ck_assert_int_eq(simt_run_untraced(&a, kern, 1, 64, args, NULL), SIM_DONE);
	ck_assert_int_eq(simt_run(&b, kern, 1, 64, args, NULL), SIM_DONE);
	ta = sim_gpu_tstats(a.g);
	tb = sim_gpu_tstats(b.g);
	for (int t = 0; t < 64; t++) {
		uint32_t want = (t % 4 == 0 ? 1u : 0x10u) + (t < 48 ? 0x100u : t % 4 == 0 ? 0x200u : 0);
		ck_assert_uint_eq(simt_get(&a, 0, t), want);
		ck_assert_uint_eq(simt_get(&b, 0, t), want);
	}
	ck_assert_int_eq(b.ntr, 42);
	/* warp 0: 20 issues of 32 lanes; warp 1: 18 of 32 and 4 of 16 (the split's paths).
	 * Guard-false lanes: the @P0 and @!P0 IADDs 24 + 8 a warp, the @P1 IADD and BRA 32 + 32
	 * a warp, @!P2 BRA 32 (warp 0) and 16 (warp 1), warp 1's @P0 IADD on 16 lanes 12 */
	ck_assert_uint_eq(sa->warp_insts, 42);
	ck_assert_uint_eq(sa->thread_insts, 20 * 32 + 18 * 32 + 4 * 16);
	ck_assert_uint_eq(sa->pred_off, 2 * (24 + 8 + 32 + 32) + 32 + 16 + 12);
	ck_assert_uint_eq(sa->exec_lanes, sa->thread_insts - sa->pred_off);
	ck_assert_uint_eq(sa->div_branches, 1);
	ck_assert_mem_eq(sa, sb, sizeof *sa);
	ck_assert_uint_eq(ta->warp_insts, sa->warp_insts);
	ck_assert_uint_eq(ta->thread_insts, sa->thread_insts);
	ck_assert_uint_eq(ta->pred_off, sa->pred_off);
	ck_assert_mem_eq(ta, tb, sizeof *ta);
	simt_free(&a);
	simt_free(&b);
}
END_TEST

/* the issue loop's shape for the configuration (tsm.c's run_gto2 here: fermi's GTO with two
 * schedulers) and its general loop (run_any: sim_tsm_shapes 0, as on a host without popcnt)
 * leave the same memory and statistics */
START_TEST(test_sm_shape_equals_general)
{
	static SimT a, b;    /* (large: static) */
	const char *args[] = {"buf:u32:64", NULL};

	ck_assert_int_eq(simt_run_untraced(&a, kern, 1, 64, args, NULL), SIM_DONE);
	sim_tsm_shapes = 0;
	ck_assert_int_eq(simt_run_untraced(&b, kern, 1, 64, args, NULL), SIM_DONE);
	sim_tsm_shapes = 1;
	for (int t = 0; t < 64; t++)
		ck_assert_uint_eq(simt_get(&a, 0, t), simt_get(&b, 0, t));
	ck_assert_uint_eq(a.st.warp_insts, 42);
	ck_assert_mem_eq(&a.st, &b.st, sizeof a.st);
	ck_assert_mem_eq(sim_gpu_tstats(a.g), sim_gpu_tstats(b.g), sizeof(TStats));
	simt_free(&a);
	simt_free(&b);
}
END_TEST

/* the head of the listings below: a kernel of 50 registers storing to out */
static const char khdr[] = ".kernel k\n.arch sm_20\n.registers 50\n.param 0x20 8 out\n";

/* run `run` (0 to 3) of the listing src: a full warp or 24 threads (run & 2), through the
 * issue stage or through exec (run & 1: a trace reads every issue); returns its threads */
static unsigned
run_variant(SimT *t, const char *src, int run, const char **args)
{
	unsigned block = run & 2 ? 24 : 32;
	int rc = run & 1 ? simt_run(t, src, 1, block, args, NULL) : simt_run_untraced(t, src, 1, block, args, NULL);

	if (rc != SIM_DONE)
		fprintf(stderr, "%s", t->errbuf ? t->errbuf : "");
	ck_assert_int_eq(rc, SIM_DONE);
	return block;
}

/* ISETP's AVX2 forms (handlers.c: isetp_*8* of a full warp and of a partial one, 24
 * threads; a compare, b a register or an immediate, signed or unsigned, inverted for LE,
 * GE and NE) on lanes whose values differ in sign and order, each compare's predicate one
 * bit of R5 */
START_TEST(test_isetp_avx2)
{
	static SimT t;
	static const char *const cmp[] = {"LT", "LE", "GT", "GE", "EQ", "NE"};
	static const char *const bs[] = {"0x6", "R2"};
	const char *args[] = {"buf:u32:32", NULL};
	char src[8192];
	size_t n;

	n = (size_t)snprintf(src, sizeof src, ".kernel k\n.arch sm_20\n.registers 16\n.param 0x20 8 out\n"
	                     "S2R R10, SR_TID.X;\nSHL R6, R10, 0x1f;\nLOP.OR R1, R10, R6;\n"
	                     "MOV32I R2, 0x80000009;\nMOV R5, RZ;\n");
	for (int c = 0; c < 6; c++)
		for (int u = 0; u < 2; u++)
			for (int b = 0; b < 2; b++)
				n += (size_t)snprintf(src + n, sizeof src - n, "ISETP.%s%s.AND P0, PT, R1, %s, PT;\n"
				                      "SHL R5, R5, 0x1;\n@P0 IADD R5, R5, 0x1;\n", cmp[c], u ? ".U32" : "", bs[b]);
	snprintf(src + n, sizeof src - n, "SHL R11, R10, 0x2;\nIADD.CC R12, R11, c[0x0][0x20];\n"
	         "IADD.X R13, RZ, c[0x0][0x24];\nST.E [R12], R5;\nEXIT;\n");
	for (int run = 0; run < 4; run++) {
		unsigned block = run_variant(&t, src, run, args);
		for (uint32_t l = 0; l < block; l++) {
			uint32_t x = l | (l & 1) << 31, want = 0;
			for (int c = 0; c < 6; c++)
				for (int u = 0; u < 2; u++)
					for (int b = 0; b < 2; b++) {
						uint32_t y = b ? 0x80000009u : 6;
						int lt = u ? x < y : (int32_t)x < (int32_t)y, eq = x == y, r;
						switch (c) {
						case 0: r = lt; break;
						case 1: r = lt || eq; break;
						case 2: r = !lt && !eq; break;
						case 3: r = !lt; break;
						case 4: r = eq; break;
						default: r = !eq; break;
						}
						want = want << 1 | (uint32_t)r;
					}
			ck_assert_msg(simt_get(&t, 0, (int)l) == want, "lane %u: 0x%06x, want 0x%06x", l,
			              (unsigned)simt_get(&t, 0, (int)l), want);
		}
		simt_free(&t);
	}
}
END_TEST

/* the handlers of MOV32I, LOP, SHL, SHR, SEL, IMAD, IMUL, IADD with negated operands,
 * IMUL.HI, MOV.64, PSETP and S2R (handlers.c's mov_fn, lop_fn, shift_fn, sel_fn, imul_fn,
 * isub_fn, imulhi_fn, mov64_fn, psetp_fn, s2r_*) on a full warp and a partial one (24
 * threads), through the issue stage and through exec, against C: a value per lane of either
 * sign, shifts by counts past 31 with and without .W, SEL by a predicate and its negation, a
 * destination that is also a source, the high word of signed and unsigned products, S2R
 * under a guard */
START_TEST(test_alu_handlers)
{
	static SimT t;
	static const char *const ops[] = {
		"MOV32I R20, 0x12345678;", "LOP.AND R21, R1, R2;", "LOP.OR R22, R1, 0xf0;",
		"LOP.XOR R23, R1, R2;", "LOP.PASS_B R24, R1, R2;", "SHL R25, R1, 0x3;",
		"SHR.U32 R26, R1, 0x5;", "SHR R27, R1, 0x5;", "SHR.U32 R28, R1, R3;", "SHR R29, R1, R3;",
		"SHL R30, R1, R3;", "SHL.W R31, R1, R3;", "SEL R32, R1, R2, P0;", "SEL R33, R1, 0x77, !P0;",
		"IMAD R34, R1, 0x3, R2;", "IMAD R35, R1, R2, R3;", "IMUL R36, R1, R2;",
		"MOV R37, R2;\nLOP.XOR R37, R37, R1;",     /* (the destination one of the sources) */
		"IADD R38, R1, -R2;", "IADD R39, RZ, -R1;", "IADD R40, -R1, 0x5;", "IADD R41, -R1, -R3;",
		"IMUL.HI R42, R1, R2;", "IMUL.U32.U32.HI R43, R1, 0x87654321;", "IMUL.U32.S32.HI R44, R1, R2;",
		"MOV.64 R6, R2;\nLOP.XOR R45, R6, R7;",
		"PSETP.AND.OR P1, P3, P0, P2, !P0;\nSEL R46, RZ, 0x1, !P1;\nSEL R7, RZ, 0x2, !P3;\n"
		"LOP.OR R46, R46, R7;",
		"MOV32I R47, 0x99;\n@P0 S2R R47, SR_TID.X;", "S2R R48, SR_LANEID;\nS2R R7, SR_NTID.X;\n"
		"LOP.XOR R48, R48, R7;",
	};
	enum { NOPS = sizeof ops / sizeof ops[0] };
	const char *args[] = {"buf:u32:992", NULL};
	char src[8192];
	size_t n;

	/* R1 = tid with bit 31 set in odd lanes, R2 = tid * 0x1234567, R3 = tid + 20, P0 = tid & 2,
	 * P2 = tid < 16 */
	n = (size_t)snprintf(src, sizeof src, "%sS2R R10, SR_TID.X;\nSHL R6, R10, 0x1f;\nLOP.OR R1, R10, R6;\n"
	                     "IMUL R2, R10, 0x1234567;\nIADD R3, R10, 0x14;\nLOP.AND R4, R10, 0x2;\n"
	                     "ISETP.NE.AND P0, PT, R4, RZ, PT;\nISETP.LT.U32.AND P2, PT, R10, 0x10, PT;\n", khdr);
	for (int k = 0; k < NOPS; k++)
		n += (size_t)snprintf(src + n, sizeof src - n, "%s\n", ops[k]);
	n += (size_t)snprintf(src + n, sizeof src - n, "SHL R11, R10, 0x2;\nIADD.CC R12, R11, c[0x0][0x20];\n"
	                      "IADD.X R13, RZ, c[0x0][0x24];\n");
	for (int k = 0; k < NOPS; k++)
		n += (size_t)snprintf(src + n, sizeof src - n, "ST.E [R12+0x%x], R%d;\n", 0x80 * k, 20 + k);
	snprintf(src + n, sizeof src - n, "EXIT;\n");
	for (int run = 0; run < 4; run++) {
		unsigned block = run_variant(&t, src, run, args);
		for (uint32_t l = 0; l < block; l++) {
			uint32_t a = l | (l & 1) << 31, b = l * 0x1234567u, c = l + 20, p = (l & 2) != 0;
			uint32_t ab = p && l < 16;
			uint32_t want[NOPS] = {
				0x12345678u, a & b, a | 0xf0, a ^ b, b, a << 3, a >> 5, (uint32_t)((int32_t)a >> 5),
				c > 31 ? 0 : a >> c, (uint32_t)((int32_t)a >> (c > 31 ? 31 : c)), c > 31 ? 0 : a << c,
				a << (c & 31), p ? a : b, !p ? a : 0x77, a * 3 + b, a * b + c, a * b, a ^ b,
				a - b, 0 - a, 5 - a, 0 - a - c,
				(uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32),
				(uint32_t)((uint64_t)a * 0x87654321u >> 32),
				(uint32_t)((uint64_t)a * (uint64_t)(int64_t)(int32_t)b >> 32),
				b ^ c, (ab || !p) | (uint32_t)(!ab || !p) << 1, p ? l : 0x99, l ^ block,
			};
			for (int k = 0; k < NOPS; k++)
				ck_assert_msg(simt_get(&t, 0, 32 * k + (int)l) == want[k], "%s lane %u (%u threads): 0x%08x, "
				              "want 0x%08x", ops[k], l, block, (unsigned)simt_get(&t, 0, 32 * k + (int)l), want[k]);
		}
		simt_free(&t);
	}
}
END_TEST

/* the handlers on warps whose guard holds in some lanes only (handlers.c: every lane computed
 * and merged into the destination by the guard's lanes, or its own merge), their AVX2 bodies
 * and, with sim_hw_avx2 cleared, their others (FFMA's follows the FMA probe, which stays as
 * the host has it); 32 and 24 threads, through the issue stage
 * and through exec. Each op's destination holds a mark before the op runs under @P4, which
 * holds in an irregular third or so of the lanes: the lanes it leaves out keep the mark, the
 * others equal the same listing's result without the guard (test_alu_handlers checks those
 * against C). Two ISETPs (the PT form's and the general body) under @P4 against C, their
 * predicates read back through SEL, and the carry IADD.CC leaves in each lane. */
START_TEST(test_handlers_keep_lanes)
{
	static SimT t;
	static const char *const ops[] = {          /* op k writes R(20 + k) */
		"MOV32I R20, 0x12345678;", "MOV R21, R2;", "LOP.AND R22, R1, R2;", "LOP.OR R23, R1, 0xf0;",
		"LOP.XOR R24, R1, R2;", "LOP.PASS_B R25, R1, 0x3;", "SHL R26, R1, 0x3;", "SHR.U32 R27, R1, R3;",
		"SHR R28, R1, 0x5;", "SHL.W R29, R1, R3;", "SEL R30, R1, R2, P0;", "SEL R31, R1, 0x77, !P0;",
		"IMAD R32, R1, 0x3, R2;", "IMAD R33, R1, R2, R3;", "IMUL R34, R1, 0x5;", "IADD R35, R1, R2;",
		"IADD R36, R1, 0x9;", "IADD R37, R1, -R2;", "IMUL.HI R38, R1, R2;", "I2F R39, R2;",
		"MOV.64 R40, R2;", NULL /* (R41: MOV.64's high word) */, "IADD.CC R42, R1, R8;",
		"IADD.X R43, R1, R3;", "FADD R44, R2, R3;", "FMUL R45, R2, R1;", "FFMA R46, R2, R3, R1;",
	};
	enum { NOPS = sizeof ops / sizeof ops[0], NOUT = NOPS + 3 };
	const char *args[] = {"buf:u32:1024", NULL};
	int hw = sim_hw_avx2;
	char src[8192];
	size_t n;

	for (int avx = 0; avx < 2; avx++) {
		sim_hw_avx2 = avx ? hw : 0;
		for (int run = 0; run < 4; run++) {
			uint32_t plain[NOPS][32];
			for (int g = 0; g < 2; g++) {
				const char *gd = g ? "@P4 " : "";
				unsigned block;
				/* R1 = tid with bit 31 set in odd lanes, R2 = tid * 0x1234567, R3 = tid + 20,
				 * R8 = tid * 0x85ebca6b, P0 = tid & 2, P4 = tid * 0x9e3779b9 < 0x60000000
				 * (unsigned) */
				n = (size_t)snprintf(src, sizeof src, "%sS2R R10, SR_TID.X;\nSHL R6, R10, 0x1f;\n"
				                     "LOP.OR R1, R10, R6;\nIMUL R2, R10, 0x1234567;\nIADD R3, R10, 0x14;\n"
				                     "LOP.AND R4, R10, 0x2;\nISETP.NE.AND P0, PT, R4, RZ, PT;\n"
				                     "IMUL R8, R10, 0x85ebca6b;\nIMUL R9, R10, 0x9e3779b9;\n"
				                     "ISETP.LT.U32.AND P4, PT, R9, 0x60000000, PT;\n",
				                     khdr);
				for (int k = 0; k < NOPS; k++)
					n += (size_t)snprintf(src + n, sizeof src - n, "MOV32I R%d, 0x%x;\n", 20 + k, 0xdead00 + k);
				for (int k = 0; k < NOPS; k++)
					if (ops[k])
						n += (size_t)snprintf(src + n, sizeof src - n, "%s%s\n", gd, ops[k]);
				/* the carry each lane's CC holds (IADD.CC's under the guard, zero from the CTA's
				 * start in the others), unguarded, in R(22 + NOPS) */
				n += (size_t)snprintf(src + n, sizeof src - n, "IADD.X R%d, RZ, RZ;\n", 22 + NOPS);
				/* P5, P6 = P0, !P0, then an ISETP under the guard; R(20 + NOPS) and the next:
				 * P5 | P6 << 1 after each */
				for (int k = 0; k < 2; k++)
					n += (size_t)snprintf(src + n, sizeof src - n, "ISETP.NE.AND P5, P6, R4, RZ, PT;\n%s%s\n"
					                      "SEL R%d, RZ, 0x1, !P5;\nSEL R7, RZ, 0x2, !P6;\nLOP.OR R%d, R%d, R7;\n", gd,
					                      k ? "ISETP.GE.AND P5, P6, R1, R3, P0;" :
					                      "ISETP.LT.U32.AND P5, P6, R1, 0x9, PT;", 20 + NOPS + k, 20 + NOPS + k,
					                      20 + NOPS + k);
				n += (size_t)snprintf(src + n, sizeof src - n, "SHL R11, R10, 0x2;\nIADD.CC R12, R11, c[0x0][0x20];\n"
				                      "IADD.X R13, RZ, c[0x0][0x24];\n");
				for (int k = 0; k < NOUT; k++)
					n += (size_t)snprintf(src + n, sizeof src - n, "ST.E [R12+0x%x], R%d;\n", 0x80 * k, 20 + k);
				snprintf(src + n, sizeof src - n, "EXIT;\n");
				block = run_variant(&t, src, run, args);
				for (uint32_t l = 0; l < block; l++) {
					uint32_t a = l | (l & 1) << 31, c = l + 20, p0 = (l & 2) != 0;
					int on = !g || l * 0x9e3779b9u < 0x60000000u;
					int lt = a < 9, ge = (int32_t)a >= (int32_t)c;
					uint32_t want[2] = {on ? (uint32_t)lt | (uint32_t)!lt << 1 : p0 | (uint32_t)!p0 << 1,
					                    on ? (uint32_t)(ge && p0) | (uint32_t)(!ge && p0) << 1 :
					                    p0 | (uint32_t)!p0 << 1};
					for (int k = 0; k < NOPS; k++) {
						uint32_t v = (uint32_t)simt_get(&t, 0, 32 * k + (int)l);
						if (!g)
							plain[k][l] = v;
						else
							ck_assert_msg(v == (on ? plain[k][l] : 0xdead00u + (uint32_t)k),
							              "%s lane %u (%u threads, %s, run %d): 0x%08x, want 0x%08x",
							              ops[k] ? ops[k] : ops[k - 1], l, block, avx ? "host" : "no AVX2",
							              run, v, on ? plain[k][l] : 0xdead00u + (uint32_t)k);
					}
					uint32_t cy = on ? (uint32_t)(((uint64_t)a + l * 0x85ebca6bu) >> 32) : 0;
					ck_assert_msg(simt_get(&t, 0, 32 * (NOPS + 2) + (int)l) == cy, "CC.C lane %u (%u threads, "
					              "%s, run %d, guard %d): %u, want %u", l, block, avx ? "host" : "no AVX2", run, g,
					              (unsigned)simt_get(&t, 0, 32 * (NOPS + 2) + (int)l), cy);
					for (int k = 0; k < 2; k++)
						ck_assert_msg(simt_get(&t, 0, 32 * (NOPS + k) + (int)l) == want[k],
						              "ISETP #%d lane %u (%u threads, %s, run %d, guard %d): 0x%x, want 0x%x",
						              k, l, block, avx ? "host" : "no AVX2", run, g,
						              (unsigned)simt_get(&t, 0, 32 * (NOPS + k) + (int)l), want[k]);
				}
				simt_free(&t);
			}
		}
	}
	sim_hw_avx2 = hw;
}
END_TEST

/* S2R's handlers (handlers.c's s2r_*) on blocks and grids of three dimensions, through the
 * issue stage and through exec: thread (x, y, z) of CTA (cx, cy, cz) writes three words at
 * out[3 * (linear CTA * threads + linear thread)]: its thread index, the block's sizes and
 * its lane packed a field per byte; its CTA index, the grid's sizes and GRIDID; and TID.Y
 * read under a guard (odd lanes; 0xff in the others). Blocks of 5 x 3 x 2 (one partial
 * warp), 8 x 6 x 1 (a row of eight: TID.Y steps within the warp) and 40 x 1 x 1 (two warps,
 * the second partial). */
START_TEST(test_s2r_dims)
{
	static SimT t;
	static const char *kern_s2r =
		".kernel k\n.arch sm_20\n.registers 24\n.param 0x20 8 out\n"
		"S2R R0, SR_TID.X;\nS2R R16, SR_TID.Y;\nS2R R17, SR_TID.Z;\n"
		"S2R R3, SR_NTID.X;\nS2R R4, SR_NTID.Y;\nS2R R5, SR_NTID.Z;\nS2R R6, SR_LANEID;\n"
		"SHL R1, R16, 0x4;\nLOP.OR R18, R0, R1;\nSHL R1, R17, 0x8;\nLOP.OR R18, R18, R1;\n"
		"SHL R1, R3, 0xc;\nLOP.OR R18, R18, R1;\nSHL R1, R4, 0x10;\nLOP.OR R18, R18, R1;\n"
		"SHL R1, R5, 0x14;\nLOP.OR R18, R18, R1;\nSHL R1, R6, 0x18;\nLOP.OR R18, R18, R1;\n"
		"S2R R9, SR_CTAID.X;\nS2R R1, SR_CTAID.Y;\nSHL R1, R1, 0x4;\nLOP.OR R2, R9, R1;\n"
		"S2R R11, SR_CTAID.Z;\nSHL R1, R11, 0x8;\nLOP.OR R2, R2, R1;\n"
		"S2R R12, SR_NCTAID.X;\nSHL R1, R12, 0xc;\nLOP.OR R2, R2, R1;\n"
		"S2R R1, SR_NCTAID.Y;\nSHL R1, R1, 0x10;\nLOP.OR R2, R2, R1;\n"
		"S2R R1, SR_NCTAID.Z;\nSHL R1, R1, 0x14;\nLOP.OR R2, R2, R1;\n"
		"S2R R1, SR_GRIDID;\nSHL R1, R1, 0x18;\nLOP.OR R2, R2, R1;\n"
		"LOP.AND R7, R6, 0x1;\nISETP.NE.AND P0, PT, R7, RZ, PT;\nMOV32I R8, 0xff;\n@P0 S2R R8, SR_TID.Y;\n"
		/* R13: the linear thread, R14: the linear CTA (cy is 0), R15 = R14 * threads + R13 */
		"IMAD R13, R17, R4, R16;\nIMAD R13, R13, R3, R0;\nIMAD R14, R11, R12, R9;\n"
		"IMUL R15, R3, R4;\nIMUL R15, R15, R5;\nIMAD R15, R14, R15, R13;\nIMUL R15, R15, 0xc;\n"
		"IADD.CC R14, R15, c[0x0][0x20];\nIADD.X R15, RZ, c[0x0][0x24];\n"
		"ST.E [R14], R18;\nST.E [R14+0x4], R2;\nST.E [R14+0x8], R8;\nEXIT;\n";
	static const unsigned blocks[3][3] = {{5, 3, 2}, {8, 6, 1}, {40, 1, 1}};
	static const unsigned grid[3] = {2, 1, 2};
	const char *args[] = {"buf:u32:720", NULL};

	for (int run = 0; run < 6; run++) {
		const unsigned *b = blocks[run / 2];
		unsigned n = b[0] * b[1] * b[2];
		ck_assert_int_eq(simt_run_dims(&t, kern_s2r, grid, b, args, run & 1), SIM_DONE);
		for (uint32_t c = 0; c < 4; c++)
			for (uint32_t i = 0; i < n; i++) {
				uint32_t x = i % b[0], y = i / b[0] % b[1], z = i / (b[0] * b[1]), lane = i % 32;
				uint32_t cx = c % 2, cz = c / 2, at = 3 * (c * n + i);
				uint32_t w0 = x | y << 4 | z << 8 | b[0] << 12 | b[1] << 16 | b[2] << 20 | lane << 24;
				uint32_t w1 = cx | cz << 8 | 2u << 12 | 1u << 16 | 2u << 20 | 1u << 24;
				uint32_t w2 = lane & 1 ? y : 0xff;
				ck_assert_msg(simt_get(&t, 0, (int)at) == w0 && simt_get(&t, 0, (int)at + 1) == w1 &&
				              simt_get(&t, 0, (int)at + 2) == w2, "block %ux%ux%u CTA %u thread %u: "
				              "%08x %08x %08x, want %08x %08x %08x", b[0], b[1], b[2], c, i,
				              (unsigned)simt_get(&t, 0, (int)at), (unsigned)simt_get(&t, 0, (int)at + 1),
				              (unsigned)simt_get(&t, 0, (int)at + 2), w0, w1, w2);
			}
		simt_free(&t);
	}
}
END_TEST

/* timing.h's sim_popc, through popcnt where the host has it (sim_hw_popc, set before main:
 * as the CPU reports it) and through its fallback, against a count bit by bit */
START_TEST(test_popc)
{
	int hw = sim_hw_popc;
	uint32_t x = 1;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	__builtin_cpu_init();
	ck_assert_int_eq(hw, __builtin_cpu_supports("popcnt") != 0);
#endif
	for (int i = 0; i < 1000; i++) {
		uint32_t v = i == 0 ? 0 : i == 1 ? ~0u : i == 2 ? 0x80000001u : x;
		int want = 0;
		for (int b = 0; b < 32; b++)
			want += (int)(v >> b & 1);
		for (int k = 0; k < 2; k++) {
			sim_hw_popc = k ? hw : 0;
			ck_assert_int_eq(sim_popc(v), want);
		}
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
	}
	sim_hw_popc = hw;
}
END_TEST

/* IADD.CC and IADD.X.CC's condition code (handlers.c's iaddcc_fn8 on a full warp, iaddcc_fn
 * on a partial one: 32 and 24 threads, through the issue stage and through exec): each flag
 * read back by a branch on its CC test (a bit of R20, R21 or R22 per flag), on lanes whose
 * sums carry, overflow, are zero (with and without a carry) or negative, .X's zero where the
 * low word was zero and where it was not, b a register or an immediate */
START_TEST(test_iadd_cc_flags)
{
	static SimT t;
	static const char *const tests[] = {"SFT", "HS", "EQ", "OFT"};   /* S, C, Z, O */
	const char *args[] = {"buf:u32:96", NULL};
	char src[8192];
	size_t n;

	/* R1 = tid * 0x9e3779b9 (lane 0: 0), R3 = -R1 in lanes 4k + 2 and 5, else tid * 0x7f4a7c15,
	 * R8 = ~R1 (the .X sum is zero where the first one carried) */
	n = (size_t)snprintf(src, sizeof src, "%sS2R R10, SR_TID.X;\nIMUL R1, R10, 0x9e3779b9;\nIMUL R3, R10, 0x7f4a7c15;\n"
	                     "LOP.AND R4, R10, 0x3;\nISETP.EQ.AND P0, PT, R4, 0x2, PT;\n"
	                     "ISETP.EQ.OR P0, PT, R10, 0x5, P0;\nIADD R5, RZ, -R1;\nSEL R3, R5, R3, P0;\n"
	                     "LOP.XOR R8, R1, 0xffffffff;\nMOV R20, RZ;\nMOV R21, RZ;\nMOV R22, RZ;\n", khdr);
	for (int k = 0; k < 3; k++) {
		n += (size_t)snprintf(src + n, sizeof src - n, "%s\n", k == 0 ? "IADD.CC R2, R1, R3;" :
		                      k == 1 ? "IADD.X.CC R6, R1, R8;" : "IADD.CC R7, R1, 0x80000000;");
		for (int f = 0; f < 4; f++)
			n += (size_t)snprintf(src + n, sizeof src - n, "SSY j%d%d;\nBRA CC.%s, t%d%d;\nNOP.S;\n"
			                      "t%d%d: LOP.OR R%d, R%d, 0x%x;\nNOP.S;\nj%d%d:\n", k, f, tests[f], k, f,
			                      k, f, 20 + k, 20 + k, 1 << f, k, f);
	}
	snprintf(src + n, sizeof src - n, "SHL R11, R10, 0x2;\nIADD.CC R12, R11, c[0x0][0x20];\n"
	         "IADD.X R13, RZ, c[0x0][0x24];\nST.E [R12], R20;\nST.E [R12+0x80], R21;\n"
	         "ST.E [R12+0x100], R22;\nEXIT;\n");
	for (int run = 0; run < 4; run++) {
		unsigned block = run_variant(&t, src, run, args);
		for (uint32_t l = 0; l < block; l++) {
			uint32_t a = l * 0x9e3779b9u, b = (l & 3) == 2 || l == 5 ? 0 - a : l * 0x7f4a7c15u;
			uint32_t c0 = 0, z0 = 0;
			for (int k = 0; k < 3; k++) {
				uint32_t v = k == 2 ? 0x80000000u : k == 1 ? ~a : b, ci = k == 1 ? c0 : 0;
				uint64_t sum = (uint64_t)a + v + ci;
				uint32_t r = (uint32_t)sum, c = (uint32_t)(sum >> 32), z = r == 0 && (k != 1 || z0);
				uint32_t want = (r >> 31) | c << 1 | z << 2 | (((a ^ r) & (v ^ r)) >> 31) << 3;
				ck_assert_msg(simt_get(&t, 0, 32 * k + (int)l) == want, "IADD #%d lane %u (%u threads): "
				              "flags 0x%x, want 0x%x", k, l, block, (unsigned)simt_get(&t, 0, 32 * k + (int)l), want);
				if (k == 0)
					c0 = c, z0 = z;
			}
		}
		simt_free(&t);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sim_lean");
	TCase *tc = tcase_create("lean");
	tcase_add_test(tc, test_issue_stage_runs_lean);
	tcase_add_test(tc, test_issue_stage_no_lean);
	tcase_add_test(tc, test_issue_stage_flow);
	tcase_add_test(tc, test_sm_lean_equals_exec);
	tcase_add_test(tc, test_sm_shape_equals_general);
	tcase_add_test(tc, test_isetp_avx2);
	tcase_add_test(tc, test_alu_handlers);
	tcase_add_test(tc, test_handlers_keep_lanes);
	tcase_add_test(tc, test_s2r_dims);
	tcase_add_test(tc, test_popc);
	tcase_add_test(tc, test_iadd_cc_flags);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
