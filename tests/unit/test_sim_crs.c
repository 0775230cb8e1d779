/* test_sim_crs.c - one test per CallReturnStack rule of docs/isa.md, each on a hand-written
 * listing of 4 lanes with hand-derived expectations: the order in which lane groups run
 * ("mask@pc" each time the active mask changes) and the final memory. The common epilogue
 * stores R0 to out[tid] and R2 to out[4 + tid]. */
#include <check.h>
#include <inttypes.h>
#include <string.h>
#include "tests/unit/helper_sim.h"
#include "tests/unit/helper_check.h"

static SimT t;
static const char *out8[] = {"buf:u32:8", NULL};

#define HDR ".kernel k\n.arch sm_20\n.registers 16\n.param 0x20 8 out\n"
/* 6 instructions: needs R10 = tid */
#define EPI(a, b, c, d, e, f) \
	"/*" a "*/ SHL R11, R10, 0x2;\n" \
	"/*" b "*/ IADD.CC R12, R11, c[0x0][0x20];\n" \
	"/*" c "*/ IADD.X R13, RZ, c[0x0][0x24];\n" \
	"/*" d "*/ ST.E [R12], R0;\n" \
	"/*" e "*/ ST.E [R12+0x10], R2;\n" \
	"/*" f "*/ EXIT;\n"

/* src run into t through exec (a trace reads every issue), and again without the trace,
 * where the issue stage runs the lean instructions and the core's short control paths
 * (exec.c's sim_tflow) take the pushes, split branches, .S arrivals and exits: the same
 * result, statistics (the core's and the timing's), memory and messages; every failure
 * names the rule */
static int crs_run(const char *rule, const char *src, unsigned grid, unsigned block,
                   const char **args, const char **cfg)
{
	static SimT u;
	int rc = simt_run(&t, src, grid, block, args, cfg);

	ck_assert_msg(rc >= 0, "%s: the listing does not assemble", rule);
	ck_assert_msg(simt_run_untraced(&u, src, grid, block, args, cfg) == rc,
	              "%s: untraced run ends otherwise", rule);
	ck_assert_msg(!memcmp(&t.st, &u.st, sizeof t.st), "%s: untraced statistics differ", rule);
	ck_assert_msg(!memcmp(sim_gpu_tstats(t.g), sim_gpu_tstats(u.g), sizeof(TStats)),
	              "%s: untraced timing statistics differ", rule);
	ck_assert_msg(!strcmp(t.errbuf ? t.errbuf : "", u.errbuf ? u.errbuf : ""),
	              "%s: untraced messages differ: '%s' and '%s'", rule,
	              t.errbuf ? t.errbuf : "", u.errbuf ? u.errbuf : "");
	for (uint64_t i = 0; i < t.l.args[0].count; i++)
		ck_assert_msg(simt_get(&t, 0, (int)i) == simt_get(&u, 0, (int)i),
		              "%s: untraced out[%" PRIu64 "] differs", rule, i);
	simt_free(&u);
	return rc;
}

/* one rule on one CTA of 4 lanes and what it must give; a count left 0 is not checked */
typedef struct {
	const char *name;       /* the rule, as each failure names it */
	const char *src;        /* the listing (HDR, out8) */
	const char **cfg;       /* architecture options, or NULL */
	const char *runs;       /* simt_runs of warp 0 */
	uint32_t r0[4], r2[4];  /* out[tid] and out[4 + tid] */
	int crs_high;           /* t.st.crs_high */
	uint64_t div_branches;  /* t.st.div_branches */
	uint64_t reconvergences; /* t.st.reconvergences */
	uint32_t pc;            /* when not 0: warp 0 issues pc ... */
	int issues;             /* ... this many times */
} Rule;

static void want(const Rule *r, const char *what, uint64_t got, uint64_t exp)
{
	ck_assert_msg(got == exp, "%s: %s is %" PRIu64 ", expected %" PRIu64, r->name, what, got, exp);
}

/* runs r into t (which the caller frees) and checks all it gives */
static void check_rule(const Rule *r)
{
	int rc = crs_run(r->name, r->src, 1, 4, out8, r->cfg);
	const char *runs;

	if (rc != SIM_DONE)
		fprintf(stderr, "%s", t.errbuf ? t.errbuf : "");
	want(r, "sim_run's result", (uint64_t)rc, SIM_DONE);
	runs = simt_runs(&t, 0);
	ck_assert_msg(!strcmp(runs, r->runs), "%s: runs '%s', expected '%s'", r->name, runs, r->runs);
	for (int i = 0; i < 4; i++) {
		ck_assert_msg(simt_get(&t, 0, i) == r->r0[i], "%s: out[%d] (R0) is %" PRIu64 ", expected %u",
		              r->name, i, simt_get(&t, 0, i), r->r0[i]);
		ck_assert_msg(simt_get(&t, 0, 4 + i) == r->r2[i], "%s: out[%d] (R2) is %" PRIu64 ", expected %u",
		              r->name, 4 + i, simt_get(&t, 0, 4 + i), r->r2[i]);
	}
	want(r, "ctas", t.st.ctas, 1);
	if (r->crs_high)
		want(r, "crs_high", (uint64_t)t.st.crs_high, (uint64_t)r->crs_high);
	if (r->div_branches)
		want(r, "div_branches", t.st.div_branches, r->div_branches);
	if (r->reconvergences)
		want(r, "reconvergences", t.st.reconvergences, r->reconvergences);
	if (r->pc)
		want(r, "issues at pc", (uint64_t)simt_count(&t, 0, r->pc), (uint64_t)r->issues);
}

static const Rule rules[] = {
	{.name = "ssy_nested", .src = HDR
	       "/*0000*/ S2R R10, SR_TID.X;\n"
	       "/*0008*/ ISETP.LT.U32.AND P0, PT, R10, 0x2, PT;\n"   /* P0 = 0x3 */
	       "/*0010*/ LOP.AND R11, R10, 0x1;\n"
	       "/*0018*/ ISETP.EQ.AND P1, PT, R11, RZ, PT;\n"        /* P1 = 0x5 */
	       "/*0020*/ SSY 0x70;\n"
	       "/*0028*/ @!P0 BRA 0x60;\n"
	       "/*0030*/ SSY 0x58;\n"
	       "/*0038*/ @!P1 BRA 0x50;\n"
	       "/*0040*/ IADD R0, R0, 0x1;\n"
	       "/*0048*/ NOP.S;\n"
	       "/*0050*/ IADD.S R0, R0, 0x2;\n"
	       "/*0058*/ NOP.S;\n"
	       "/*0060*/ IADD.S R0, R0, 0x4;\n"
	       "/*0068*/ BRA 0x68;\n"
	       EPI("0070", "0078", "0080", "0088", "0090", "0098"),
	 .runs = "0xf@0x0 0xc@0x60 0x3@0x30 0x2@0x50 0x1@0x40 0x3@0x58 0xf@0x70",
	 .r0 = {1, 2, 4, 4}, .crs_high = 3, .div_branches = 2, .reconvergences = 2},
	/* the guarded .S splits the warp (a divergence) with no DIV token (crs_high 1) */
	{.name = "nop_s_one_sided", .src = HDR
	       "/*0000*/ S2R R10, SR_TID.X;\n"
	       "/*0008*/ ISETP.LT.U32.AND P0, PT, R10, 0x2, PT;\n"
	       "/*0010*/ SSY 0x30;\n"
	       "/*0018*/ @!P0 NOP.S;\n"
	       "/*0020*/ IADD R0, R0, 0x1;\n"
	       "/*0028*/ IADD.S R1, R1, 0x1;\n"
	       EPI("0030", "0038", "0040", "0048", "0050", "0058"),
	 .runs = "0xf@0x0 0x3@0x20 0xf@0x30",
	 .r0 = {1, 1, 0, 0}, .crs_high = 1, .div_branches = 1, .reconvergences = 1},
	{.name = "bra_taken_first", .src = HDR
	       "/*0000*/ S2R R10, SR_TID.X;\n"
	       "/*0008*/ LOP.AND R11, R10, 0x1;\n"
	       "/*0010*/ ISETP.EQ.AND P0, PT, R11, RZ, PT;\n"      /* P0 = 0x5 */
	       "/*0018*/ SSY 0x48;\n"
	       "/*0020*/ @P0 BRA 0x38;\n"
	       "/*0028*/ MOV32I R0, 0x2;\n"
	       "/*0030*/ NOP.S;\n"
	       "/*0038*/ MOV32I R0, 0x1;\n"
	       "/*0040*/ NOP.S;\n"
	       EPI("0048", "0050", "0058", "0060", "0068", "0070"),
	 .runs = "0xf@0x0 0x5@0x38 0xa@0x28 0xf@0x48",
	 .r0 = {1, 2, 1, 2}, .crs_high = 2, .div_branches = 1},
	/* a loop with a break inside an inner SSY region: the breaking lane is removed from the
	 * SYNC token above the BRK token, so it does not come back when the region reconverges
	 * (0x50 never issues) */
	{.name = "pbk_brk", .src = HDR
	       "/*0000*/ S2R R10, SR_TID.X;\n"
	       "/*0008*/ IADD R1, R10, 0x1;\n"
	       "/*0010*/ PBK 0x58;\n"
	       "/*0018*/ IADD R0, R0, 0x1;\n"
	       "/*0020*/ ISETP.GE.AND P0, PT, R0, R1, PT;\n"
	       "/*0028*/ SSY 0x48;\n"
	       "/*0030*/ @P0 BRK;\n"
	       "/*0038*/ IADD R2, R2, 0x1;\n"
	       "/*0040*/ NOP.S;\n"
	       "/*0048*/ BRA 0x18;\n"
	       "/*0050*/ BRA 0x50;\n"
	       EPI("0058", "0060", "0068", "0070", "0078", "0080"),
	 .runs = "0xf@0x0 0xe@0x38 0xc@0x38 0x8@0x38 0xf@0x58",
	 .r0 = {1, 2, 3, 4}, .r2 = {0, 1, 2, 3}, .pc = 0x50, .issues = 0},
	{.name = "pcnt_cont", .src = HDR
	       "/*0000*/ S2R R10, SR_TID.X;\n"
	       "/*0008*/ ISETP.LT.U32.AND P0, PT, R10, 0x2, PT;\n"
	       "/*0010*/ PBK 0x60;\n"
	       "/*0018*/ PCNT 0x38;\n"
	       "/*0020*/ @P0 CONT;\n"
	       "/*0028*/ IADD R2, R2, 0x1;\n"
	       "/*0030*/ CONT;\n"
	       "/*0038*/ IADD R0, R0, 0x1;\n"
	       "/*0040*/ ISETP.GE.AND P1, PT, R0, 0x2, PT;\n"
	       "/*0048*/ @P1 BRK;\n"
	       "/*0050*/ BRA 0x18;\n"
	       "/*0058*/ BRA 0x58;\n"
	       EPI("0060", "0068", "0070", "0078", "0080", "0088"),
	 .runs = "0xf@0x0 0xc@0x28 0xf@0x38 0xc@0x28 0xf@0x38",
	 .r0 = {2, 2, 2, 2}, .r2 = {0, 0, 2, 2}, .pc = 0x38, .issues = 2},
	{.name = "cal_ret_recursion", .src = HDR
	       "/*0000*/ S2R R10, SR_TID.X;\n"
	       "/*0008*/ MOV R0, R10;\n"
	       "/*0010*/ CAL 0x20;\n"
	       "/*0018*/ BRA 0x50;\n"
	       "/*0020*/ ISETP.EQ.AND P0, PT, R0, RZ, PT;\n"
	       "/*0028*/ @P0 RET;\n"
	       "/*0030*/ IADD R0, R0, -0x1;\n"
	       "/*0038*/ IADD R2, R2, 0x1;\n"
	       "/*0040*/ CAL 0x20;\n"
	       "/*0048*/ RET;\n"
	       EPI("0050", "0058", "0060", "0068", "0070", "0078"),
	 .runs = "0xf@0x0 0xe@0x30 0xc@0x30 0x8@0x30 0xc@0x48 0xe@0x48 0xf@0x18",
	 .r0 = {0, 0, 0, 0}, .r2 = {0, 1, 2, 3}, .crs_high = 4},
	{.name = "pret_unmatched_ret", .src = HDR
	       "/*0000*/ S2R R10, SR_TID.X;\n"
	       "/*0008*/ ISETP.EQ.AND P0, PT, R10, RZ, PT;\n"     /* P0 = 0x1 */
	       "/*0010*/ PRET 0x30;\n"
	       "/*0018*/ @P0 RET;\n"
	       "/*0020*/ MOV32I R0, 0x1;\n"
	       "/*0028*/ BRA 0x38;\n"
	       "/*0030*/ MOV32I R0, 0x2;\n"
	       EPI("0038", "0040", "0048", "0050", "0058", "0060"),
	 .runs = "0xf@0x0 0xe@0x20 0x1@0x30", .r0 = {2, 1, 1, 1}},
	{.name = "pexit_postamble", .src = HDR
	       "/*0000*/ S2R R10, SR_TID.X;\n"
	       "/*0008*/ ISETP.EQ.AND P0, PT, R10, RZ, PT;\n"
	       "/*0010*/ SHL R11, R10, 0x2;\n"
	       "/*0018*/ IADD.CC R12, R11, c[0x0][0x20];\n"
	       "/*0020*/ IADD.X R13, RZ, c[0x0][0x24];\n"
	       "/*0028*/ PEXIT 0x60;\n"
	       "/*0030*/ PRET 0x58;\n"
	       "/*0038*/ @P0 RET;\n"
	       "/*0040*/ MOV32I R0, 0x1;\n"
	       "/*0048*/ ST.E [R12], R0;\n"
	       "/*0050*/ EXIT;\n"
	       "/*0058*/ EXIT;\n"
	       "/*0060*/ IADD R2, R2, 0x7;\n"
	       "/*0068*/ ST.E [R12+0x10], R2;\n"
	       "/*0070*/ EXIT;\n",
	 .runs = "0xf@0x0 0xe@0x40 0x1@0x58 0xf@0x60",
	 .r0 = {0, 1, 1, 1}, .r2 = {7, 7, 7, 7}, .pc = 0x70, .issues = 1},
	/* every lane resumes together after the calls (0x20 issues once); the CAL token and two
	 * DIV tokens make crs_high 3 */
	{.name = "jcal_three_targets", .src = HDR
	       ".constdata c[0x3][0x0] = 58 00 00 00 68 00 00 00 58 00 00 00 78 00 00 00\n"
	       "/*0000*/ S2R R10, SR_TID.X;\n"
	       "/*0008*/ SHL R11, R10, 0x2;\n"
	       "/*0010*/ LDC R4, c[0x3][R11];\n"
	       "/*0018*/ JCAL R4, {0x58, 0x68, 0x78};\n"
	       "/*0020*/ IADD R2, R2, 0x1;\n"
	       EPI("0028", "0030", "0038", "0040", "0048", "0050")
	       "/*0058*/ IADD R0, R0, 0xa;\n"
	       "/*0060*/ RET;\n"
	       "/*0068*/ IADD R0, R0, 0xb;\n"
	       "/*0070*/ RET;\n"
	       "/*0078*/ IADD R0, R0, 0xc;\n"
	       "/*0080*/ RET;\n",
	 .runs = "0xf@0x0 0x5@0x58 0x2@0x68 0x8@0x78 0xf@0x20",
	 .r0 = {0xa, 0xb, 0xa, 0xc}, .r2 = {1, 1, 1, 1}, .crs_high = 3, .pc = 0x20, .issues = 1},
};

START_TEST(test_crs_rule)
{
	check_rule(&rules[_i]);
	simt_free(&t);
}
END_TEST

#define KEEPREF HDR \
	"/*0000*/ S2R R10, SR_TID.X;\n" \
	"/*0008*/ ISETP.EQ.AND P0, PT, R10, RZ, PT;\n" \
	"/*0010*/ SHL R11, R10, 0x2;\n" \
	"/*0018*/ IADD.CC R12, R11, c[0x0][0x20];\n" \
	"/*0020*/ IADD.X R13, RZ, c[0x0][0x24];\n" \
	"/*0028*/ MOV32I R0, 0x5;\n" \
	"/*0030*/ ST.E [R12], R0;\n" \
	"/*0038*/ @P0 EXIT.KEEPREFCOUNT;\n" \
	"/*0040*/ ST.E [R12+0x10], R0;\n" \
	"/*0048*/ EXIT;\n"

START_TEST(test_crs_exit_keeprefcount)
{
	static const Rule keep = {.name = "exit_keeprefcount", .src = KEEPREF,
		.runs = "0xf@0x0 0xe@0x40", .r0 = {5, 5, 5, 5}, .r2 = {0, 5, 5, 5}};
	static const char *one[] = {"sms", "1", "max-ctas", "1", NULL};

	check_rule(&keep);               /* memory effects as EXIT */
	ck_assert_uint_eq(t.st.kept_ctas, 1);
	simt_free(&t);
	/* with one CTA slot in the whole GPU, the kept slot blocks the second CTA */
	ck_assert_int_eq(crs_run(keep.name, KEEPREF, 2, 4, out8, one), SIM_FAULT);
	ck_assert_ptr_nonnull(strstr(t.errbuf, "EXIT.KEEPREFCOUNT"));
	ck_assert_ptr_nonnull(strstr(t.errbuf, "1 CTAs cannot be dispatched"));
	simt_free(&t);
}
END_TEST

/* EXIT CC.cond: the lanes whose condition code meets cond exit; the others store 9 */
#define EXITCC(cond) HDR \
	"/*0000*/ S2R R10, SR_TID.X;\n" \
	"/*0008*/ SHL R11, R10, 0x2;\n" \
	"/*0010*/ IADD.CC R12, R11, c[0x0][0x20];\n" \
	"/*0018*/ IADD.X R13, RZ, c[0x0][0x24];\n" \
	"/*0020*/ MOV32I R3, 0x2;\n" \
	"/*0028*/ IADD.CC RZ, R10, -R3;\n" \
	"/*0030*/ EXIT CC." cond ";\n" \
	"/*0038*/ MOV32I R0, 0x9;\n" \
	"/*0040*/ ST.E [R12], R0;\n" \
	"/*0048*/ EXIT;\n"

START_TEST(test_crs_exit_cc)
{
	static const Rule ne = {.name = "exit_cc_ne", .src = EXITCC("NE"),
		.runs = "0xf@0x0 0x4@0x38", .r0 = {0, 0, 9, 0}};
	static const Rule lo = {.name = "exit_cc_lo", .src = EXITCC("LO"),   /* unsigned lower: lanes below 2 exit */
		.runs = "0xf@0x0 0xc@0x38", .r0 = {0, 0, 9, 9}};

	check_rule(&ne);
	simt_free(&t);
	check_rule(&lo);
	simt_free(&t);
}
END_TEST

#define BRX(table) HDR \
	".constdata c[0x3][0x0] = " table "\n" \
	"/*0000*/ S2R R10, SR_TID.X;\n" \
	"/*0008*/ SHL R11, R10, 0x2;\n" \
	"/*0010*/ LDC R4, c[0x3][R11];\n" \
	"/*0018*/ SSY 0x70;\n" \
	"/*0020*/ BRX R4, {0x40, 0x50, 0x60};\n" \
	"/*0028*/ BRA 0x28;\n" \
	"/*0030*/ BRA 0x30;\n" \
	"/*0038*/ BRA 0x38;\n" \
	"/*0040*/ MOV32I R0, 0xa;\n" \
	"/*0048*/ NOP.S;\n" \
	"/*0050*/ MOV32I R0, 0xb;\n" \
	"/*0058*/ NOP.S;\n" \
	"/*0060*/ MOV32I R0, 0xc;\n" \
	"/*0068*/ NOP.S;\n" \
	EPI("0070", "0078", "0080", "0088", "0090", "0098")

START_TEST(test_crs_brx_three_targets)
{
	static const Rule brx = {.name = "brx_three_targets",
		.src = BRX("40 00 00 00 50 00 00 00 40 00 00 00 60 00 00 00"),
		.runs = "0xf@0x0 0x5@0x40 0x2@0x50 0x8@0x60 0xf@0x70",
		.r0 = {0xa, 0xb, 0xa, 0xc}, .div_branches = 1};

	check_rule(&brx);
	simt_free(&t);
	/* lane 3 jumps to 0x48, which is not in the target list: a located fault */
	ck_assert_int_eq(crs_run(brx.name, BRX("40 00 00 00 50 00 00 00 40 00 00 00 48 00 00 00"),
	                         1, 4, out8, NULL), SIM_FAULT);
	ck_assert_ptr_nonnull(strstr(t.errbuf, "t.sass:10: error: indirect branch to 0x48, which is not in its target list"));
	ck_assert_ptr_nonnull(strstr(t.errbuf, "lane 3"));
	simt_free(&t);
}
END_TEST

/* warp 1 exits while warp 0 waits at the barrier: the exited threads release it */
START_TEST(test_crs_exit_releases_barrier)
{
	static const char *args[] = {"buf:u32:64", NULL};
	int bar, ex, after;

	ck_assert_int_eq(crs_run("exit_releases_barrier", HDR
	       "/*0000*/ S2R R10, SR_TID.X;\n"
	       "/*0008*/ ISETP.GE.U32.AND P0, PT, R10, 0x20, PT;\n"
	       "/*0010*/ @P0 BRA 0x40;\n"
	       "/*0018*/ BAR.SYNC 0x0;\n"
	       "/*0020*/ MOV32I R0, 0x1;\n"
	       "/*0028*/ BRA 0x60;\n"
	       "/*0030*/ BRA 0x30;\n"
	       "/*0038*/ BRA 0x38;\n"
	       "/*0040*/ IADD R2, R2, 0x1;\n"
	       "/*0048*/ IADD R2, R2, 0x1;\n"
	       "/*0050*/ IADD R2, R2, 0x1;\n"
	       "/*0058*/ EXIT;\n"
	       "/*0060*/ SHL R11, R10, 0x2;\n"
	       "/*0068*/ IADD.CC R12, R11, c[0x0][0x20];\n"
	       "/*0070*/ IADD.X R13, RZ, c[0x0][0x24];\n"
	       "/*0078*/ ST.E [R12], R0;\n"
	       "/*0080*/ EXIT;\n", 1, 64, args, NULL), SIM_DONE);
	bar = simt_find(&t, 0, 0x18, 0);
	ex = simt_find(&t, 1, 0x58, 0);
	after = simt_find(&t, 0, 0x20, 0);
	ck_assert_int_ge(bar, 0);
	ck_assert_int_gt(ex, bar);        /* warp 0 waited before warp 1 exited */
	ck_assert_int_gt(after, ex);      /* and ran on only after the exit */
	for (int i = 0; i < 64; i++)
		ck_assert_uint_eq(simt_get(&t, 0, i), i < 32 ? 1 : 0);
	ck_assert_uint_eq(t.st.barriers, 1);
	simt_free(&t);
}
END_TEST

/* the forms the issue stage hands to the core's short paths (sim_tflow) and their edges,
 * with one token on chip (--crs-depth 1): a push, one that spills (exec takes it), a split
 * branch whose DIV token spills, a .S that some lanes run (the others go on), one that all
 * run (the unwinding fills), a partial EXIT, an EXIT no active lane runs, a last EXIT;
 * crs_run checks them against exec; div_branches counts the branch, @P1 NOP.S and two
 * EXITs */
START_TEST(test_crs_short_paths)
{
	static const char *depth1[] = {"crs-depth", "1", NULL};
	static const Rule paths = {.name = "short_paths", .cfg = depth1, .src = HDR
	       "/*0000*/ S2R R10, SR_TID.X;\n"
	       "/*0008*/ ISETP.LT.U32.AND P0, PT, R10, 0x2, PT;\n"  /* P0 = 0x3 */
	       "/*0010*/ ISETP.EQ.AND P1, PT, R10, 0x3, PT;\n"      /* P1 = 0x8 */
	       "/*0018*/ SSY 0x68;\n"
	       "/*0020*/ SSY 0x58;\n"
	       "/*0028*/ @P0 BRA 0x40;\n"
	       "/*0030*/ @P1 NOP.S;\n"
	       "/*0038*/ SEL.S R0, R10, 0x7, P1;\n"
	       "/*0040*/ IADD.S R2, R10, 0x10;\n"
	       "/*0048*/ BRA 0x48;\n"
	       "/*0050*/ BRA 0x50;\n"
	       "/*0058*/ @P1 EXIT;\n"
	       "/*0060*/ NOP.S;\n"
	       "/*0068*/ @P1 EXIT;\n"
	       "/*0070*/ @!P0 EXIT;\n"
	       EPI("0078", "0080", "0088", "0090", "0098", "00a0"),
		.runs = "0xf@0x0 0x3@0x40 0xc@0x30 0x4@0x38 0xf@0x58 0x7@0x60 0x3@0x78",
		.r2 = {0x10, 0x11, 0, 0}, .crs_high = 3, .div_branches = 4, .reconvergences = 2};
	const TStats *ts;

	check_rule(&paths);
	ts = sim_gpu_tstats(t.g);
	ck_assert_uint_eq(ts->crs_spills, 2);
	ck_assert_uint_eq(ts->crs_fills, 2);
	simt_free(&t);
}
END_TEST

/* malformed programs stop with a located message, never a crash */
START_TEST(test_crs_s_without_sync)
{
	ck_assert_int_eq(crs_run("s_without_sync", HDR
	       "/*0000*/ S2R R10, SR_TID.X;\n"
	       "/*0008*/ NOP.S;\n"
	       "/*0010*/ EXIT;\n", 1, 4, out8, NULL), SIM_MALFORMED);
	ck_assert_str_eq(t.errbuf, "t.sass:6: error: '.S' with no SYNC token on the CallReturnStack "
	                 "(lanes 0x0000000f arrive at no sync point)\n"
	                 "    kernel 'k', CTA (0,0,0), warp 0, pc 0x0008: NOP.S;\n");
	simt_free(&t);
	ck_assert_int_eq(crs_run("s_without_sync", HDR "/*0000*/ BRK;\n/*0008*/ EXIT;\n", 1, 4, out8, NULL), SIM_MALFORMED);
	ck_assert_ptr_nonnull(strstr(t.errbuf, "BRK with no BRK token (PBK)"));
	simt_free(&t);
	ck_assert_int_eq(crs_run("s_without_sync", HDR "/*0000*/ RET;\n/*0008*/ EXIT;\n", 1, 4, out8, NULL), SIM_MALFORMED);
	ck_assert_ptr_nonnull(strstr(t.errbuf, "RET with no CAL or PRET token"));
	simt_free(&t);
	/* a runaway push loop fills the CRS: 32 tokens on chip (--crs-depth), 256 spilled to the
	 * warp's 2048 bytes of local memory (--crs-bytes) */
	ck_assert_int_eq(crs_run("s_without_sync", HDR "/*0000*/ SSY 0x0;\n/*0008*/ BRA 0x0;\n", 1, 4, out8, NULL),
	                 SIM_FAULT);
	ck_assert_ptr_nonnull(strstr(t.errbuf, "CallReturnStack full pushing a SYNC token: 32 tokens on chip (--crs-depth) and 256 spilled to the warp's 2048 bytes of local memory (--crs-bytes)"));
	simt_free(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sim_crs");
	TCase *tc = tcase_create("crs");

	tcase_add_loop_test(tc, test_crs_rule, 0, (int)(sizeof rules / sizeof rules[0]));
	tcase_add_test(tc, test_crs_exit_keeprefcount);
	tcase_add_test(tc, test_crs_exit_cc);
	tcase_add_test(tc, test_crs_brx_three_targets);
	tcase_add_test(tc, test_crs_exit_releases_barrier);
	tcase_add_test(tc, test_crs_short_paths);
	tcase_add_test(tc, test_crs_s_without_sync);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{

	return ck_run(suite());
}
