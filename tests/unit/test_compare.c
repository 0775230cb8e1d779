/* test_compare.c - warpc --compare's alignment (backend/compare.c) on hand-written listings:
 * our kernel and a "ptxas" kernel that unrolls the loop and peels a copy of its hammock, so
 * that two of ptxas's constructs weigh the same against our back edge by their comparisons
 * (the same class, another operand: a parameter against an immediate and a register).
 *   Ties go by the constructs' shape: our back edge lines up with ptxas's back edge, not with
 *   the peeled copy's predicated run that comes first (the earlier of the two, which the
 *   alignment took before: 1 of 2 agreed there, no decision being different).
 *   Comparisons still come first: where the peeled copy's comparison is the back edge's own,
 *   the back edge lines up with it, whatever its kind.
 *   Constructs pair within one function only (a .func by its name, ptxas's `$k$f`).
 *   ptxas's plain BRA inside an SSY region whose side falls into its join with no sync is
 *   uniform, as our BRA.U is (ptxas never prints .U); one whose side ends in a sync is ssy;
 *   one whose side holds a loop, its paths meeting short of the region's sync point, is
 *   uniform too, and so is one whose side may leave by a guarded .S for that sync point, and
 *   an if/else whose sides both leave by .S for the sync point of an SSY pushed for an
 *   earlier test of the region (one whose SSY is its own stays ssy).
 *   A plain back edge there is a uniform loop's where its lanes go on with ordinary code, a
 *   divergent one's where they fall into the .S of the loop's own SSY or leave by BRK.
 *   Inside a loop's PBK with no SSY, a plain BRA of ours is divergent; ptxas's is uniform
 *   only where its paths meet short of the loop's end and go on.
 *   SSY regions are read along the control flow: a loop laid out above the SSY pushed on the
 *   way into it is inside it, and a NOP.S whose sync point lies above its SSY is a construct.
 *   The flow order (cmporder.c) finishes a region before the code its enclosing branch skips
 *   to, where two regions' blocks alternate in the layout.
 */
#include <check.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "backend/backend.h"
#include "backend/be.h"
#include "tests/unit/helper_check.h"

#define HEAD ".kernel k\n.arch sm_35\n.registers 8\n.param 0x20 8 out\n.param 0x28 4 n\n"

/* ours: a loop whose body has one predicated side (x > 3) and whose back edge tests i < n */
static const char ours[] = HEAD
	"/*0000*/ MOV R1, RZ;\n"
	"/*0008*/ MOV R0, RZ;\n"
	"/*0010*/ ISETP.GT.AND P0, PT, R2, 0x3, PT;\n"
	"/*0018*/ @P0 IADD R1, R1, 0x1;\n"
	"/*0020*/ IADD R0, R0, 0x1;\n"
	"/*0028*/ ISETP.LT.U32.AND P1, PT, R0, c[0x0][0x28], PT;\n"
	"/*0030*/ @P1 BRA 0x10;\n"
	"/*0038*/ EXIT;\n";

/* "ptxas": the same side predicated, a peeled copy's predicated side tested by PEELED, and
 * the back edge of the unrolled loop against a register (the bound less the unrolled
 * iterations) */
static char *theirs(const char *peeled)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	fprintf(f, HEAD
	        "/*0000*/ MOV R1, RZ;\n"
	        "/*0008*/ MOV R0, RZ;\n"
	        "/*0010*/ ISETP.GT.AND P0, PT, R2, 0x3, PT;\n"
	        "/*0018*/ %s;\n"
	        "/*0020*/ @P0 IADD R1, R1, 0x1;\n"
	        "/*0028*/ @P2 IADD R1, R1, 0x2;\n"
	        "/*0030*/ IADD R0, R0, 0x4;\n"
	        "/*0038*/ ISETP.LT.U32.AND P1, PT, R0, R3, PT;\n"
	        "/*0040*/ @P1 BRA 0x10;\n"
	        "/*0048*/ EXIT;\n", peeled);
	fclose(f);
	return s;
}

/* be_compare of listing mine against listing ref: the JSON (caller frees) and the totals */
static char *compare_texts(const char *mine, const char *ref, BeCompareSum *sum)
{
	char *out = NULL, *msgs = NULL;
	size_t n = 0, mn = 0;
	FILE *err = open_memstream(&msgs, &mn), *f = open_memstream(&out, &n);
	Prog *a = isa_asm("ours.sass", mine, strlen(mine), err);
	Prog *b = isa_asm("ref.sass", ref, strlen(ref), err);

	fclose(err);
	ck_assert_msg(a && b, "%s", msgs);
	memset(sum, 0, sizeof *sum);
	be_compare(f, &a->k[0], &b->k[0], NULL, 1, sum, NULL);
	fclose(f);
	isa_prog_free(a);
	isa_prog_free(b);
	free(msgs);
	return out;
}

/* the JSON of be_compare of mine against ref holds each of the texts after why (NULL ends
 * them); why says what that shows */
static void expect_compare(const char *mine, const char *ref, const char *why, ...)
{
	BeCompareSum sum;
	char *out = compare_texts(mine, ref, &sum);
	va_list ap;

	va_start(ap, why);
	for (const char *want; (want = va_arg(ap, const char *)) != NULL;)
		ck_assert_msg(strstr(out, want) != NULL, "%s:\n%s", why, out);
	va_end(ap);
	free(out);
}

/* be_compare of ours against theirs(peeled) */
static char *compare(const char *peeled, BeCompareSum *sum)
{
	char *ref = theirs(peeled), *out = compare_texts(ours, ref, sum);

	free(ref);
	return out;
}

/* the peeled side tested against an immediate: our back edge (0x30) weighs the same against
 * it (0x28) and against the back edge (0x40); it lines up with the back edge */
START_TEST(test_tie_back_edge)
{
	BeCompareSum sum;
	char *out = compare("ISETP.LT.AND P2, PT, R2, 0x7, PT", &sum);

	ck_assert_int_eq(sum.ours, 2);
	ck_assert_int_eq(sum.theirs, 3);
	ck_assert_int_eq(sum.matched, 2);
	ck_assert_msg(sum.agree == 2, "2 of 2 agree expected, %d:\n%s", sum.agree, out);
	ck_assert_msg(strstr(out, "\"addr\": 48, \"decision\": \"uniform\", \"sides\": \"-\", "
	                          "\"ptxas_addr\": 64, \"ptxas_decision\": \"uniform\"") != NULL,
	              "our back edge should line up with ptxas's:\n%s", out);
	ck_assert_msg(strstr(out, "\"ptxas_only\": [{\"addr\": 40, \"decision\": \"predicated\"") != NULL,
	              "the peeled side should stand alone:\n%s", out);
	free(out);
}
END_TEST

/* the peeled side tested by the back edge's own comparison (i < n): the comparison decides,
 * and our back edge lines up with the predicated run */
START_TEST(test_comparison_first)
{
	BeCompareSum sum;
	char *out = compare("ISETP.LT.U32.AND P2, PT, R0, c[0x0][0x28], PT", &sum);

	ck_assert_int_eq(sum.matched, 2);
	ck_assert_msg(sum.agree == 1, "1 of 2 agree expected, %d:\n%s", sum.agree, out);
	ck_assert_msg(strstr(out, "\"addr\": 48, \"decision\": \"uniform\", \"sides\": \"-\", "
	                          "\"ptxas_addr\": 40, \"ptxas_decision\": \"predicated\"") != NULL,
	              "our back edge should line up with the peeled side:\n%s", out);
	free(out);
}
END_TEST

/* constructs pair within one function: our .func f's predicated run lines up with the one
 * of ptxas's `$k$f` (its name for k's callee f), not with the kernel's own run of the same
 * comparison that comes first, which stands alone (it took the pairing before) */
START_TEST(test_per_function)
{
	static const char mine[] = HEAD
		"/*0000*/ ISETP.GT.AND P0, PT, R2, 0x3, PT;\n"
		"/*0008*/ @P0 IADD R1, R1, 0x1;\n"
		"/*0010*/ EXIT;\n"
		".func f\n"
		"/*0018*/ ISETP.GT.AND P0, PT, R2, 0x3, PT;\n"
		"/*0020*/ @P0 IADD R1, R1, 0x1;\n"
		"/*0028*/ RET;\n";
	static const char ref[] = HEAD
		"/*0000*/ MOV R1, RZ;\n"
		"/*0008*/ EXIT;\n"
		".func $k$f\n"
		"/*0010*/ ISETP.GT.AND P0, PT, R2, 0x3, PT;\n"
		"/*0018*/ @P0 IADD R1, R1, 0x1;\n"
		"/*0020*/ RET;\n";
	BeCompareSum sum;
	char *out = compare_texts(mine, ref, &sum);

	ck_assert_int_eq(sum.ours, 2);
	ck_assert_int_eq(sum.matched, 1);
	ck_assert_msg(strstr(out, "\"addr\": 32, \"decision\": \"predicated\", \"sides\": \"1/0\", "
	                          "\"ptxas_addr\": 24") != NULL, "f's run should line up with $k$f's:\n%s", out);
	ck_assert_msg(strstr(out, "\"addr\": 8, \"decision\": \"predicated\", \"sides\": \"1/0\", "
	                          "\"ptxas_addr\": -1") != NULL, "the kernel's run should stand alone:\n%s", out);
	free(out);
}
END_TEST

/* ours (BRA.U) and ptxas's (BRA) of test_uniform_in_region, the branch's suffix the %s */
#define IN_REGION HEAD \
	"/*0000*/ SSY 0x38;\n" \
	"/*0008*/ ISETP.GE.AND P0, PT, R0, c[0x0][0x28], PT;\n" \
	"/*0010*/ @P0 NOP.S;\n" \
	"/*0018*/ ISETP.EQ.AND P1, PT, RZ, c[0x0][0x28], PT;\n" \
	"/*0020*/ @P1 BRA%s 0x30;\n" \
	"/*0028*/ IADD R1, R1, 0x1;\n" \
	"/*0030*/ IADD.S R1, R1, 0x2;\n" \
	"/*0038*/ SSY 0x68;\n" \
	"/*0040*/ ISETP.GT.AND P2, PT, R2, 0x3, PT;\n" \
	"/*0048*/ @P2 BRA 0x60;\n" \
	"/*0050*/ IADD R1, R1, 0x3;\n" \
	"/*0058*/ NOP.S;\n" \
	"/*0060*/ IADD.S R1, R1, 0x4;\n" \
	"/*0068*/ EXIT;\n"

/* a branch on a parameter under a divergent if (tests/ptx/uni_in_div): ours BRA.U, ptxas's
 * a plain BRA inside the if's SSY region whose side falls into its join with no sync (ptxas
 * 11.8 never prints .U), both uniform; a branch of the next region whose side ends in NOP.S
 * short of the region's sync point is ssy in both */
START_TEST(test_uniform_in_region)
{
	char mine[1024], ref[1024], *out;
	BeCompareSum sum;

	snprintf(mine, sizeof mine, IN_REGION, ".U");
	snprintf(ref, sizeof ref, IN_REGION, "");
	out = compare_texts(mine, ref, &sum);
	ck_assert_int_eq(sum.matched, 3);
	ck_assert_msg(sum.agree == 3, "3 of 3 agree expected, %d:\n%s", sum.agree, out);
	ck_assert_msg(strstr(out, "\"addr\": 32, \"decision\": \"uniform\", \"sides\": \"1/1\", "
	                          "\"ptxas_addr\": 32, \"ptxas_decision\": \"uniform\"") != NULL,
	              "ptxas's branch on the parameter should be uniform:\n%s", out);
	ck_assert_msg(strstr(out, "\"addr\": 72, \"decision\": \"ssy\"") != NULL &&
	              strstr(out, "\"ptxas_addr\": 72, \"ptxas_decision\": \"ssy\"") != NULL,
	              "a side that ends in a sync should stay ssy:\n%s", out);
	free(out);
}
END_TEST

/* a loop laid out above the SSY pushed on the way into it (nvcc's PTX puts such a loop
 * before its entry): its divergent back edge at 0x20 shares that SSY, which code order (an
 * SSY up to its target) does not see; a continue's @P NOP.S at 0x60 whose SSY target, the
 * loop's head, lies above its SSY is a construct too. ptxas's listing lays both out in order */
START_TEST(test_region_above)
{
	static const char mine[] = HEAD
		"/*0000*/ ISETP.GE.AND P0, PT, R0, c[0x0][0x28], PT;\n"
		"/*0008*/ BRA 0x30;\n"
		"/*0010*/ IADD R1, R1, 0x1;\n"
		"/*0018*/ ISETP.LT.AND P1, PT, R1, R0, PT;\n"
		"/*0020*/ @P1 BRA 0x10;\n"
		"/*0028*/ NOP.S;\n"
		"/*0030*/ SSY 0x48;\n"
		"/*0038*/ @P0 NOP.S;\n"
		"/*0040*/ BRA 0x10;\n"
		"/*0048*/ IADD R2, R2, 0x1;\n"
		"/*0050*/ SSY 0x48;\n"
		"/*0058*/ ISETP.GT.AND P2, PT, R2, 0x3, PT;\n"
		"/*0060*/ @P2 NOP.S;\n"
		"/*0068*/ EXIT;\n";
	static const char ref[] = HEAD
		"/*0000*/ ISETP.GE.AND P0, PT, R0, c[0x0][0x28], PT;\n"
		"/*0008*/ SSY 0x38;\n"
		"/*0010*/ @P0 NOP.S;\n"
		"/*0018*/ IADD R1, R1, 0x1;\n"
		"/*0020*/ ISETP.LT.AND P1, PT, R1, R0, PT;\n"
		"/*0028*/ @P1 BRA 0x18;\n"
		"/*0030*/ NOP.S;\n"
		"/*0038*/ IADD R2, R2, 0x1;\n"
		"/*0040*/ SSY 0x38;\n"
		"/*0048*/ ISETP.GT.AND P2, PT, R2, 0x3, PT;\n"
		"/*0050*/ @P2 NOP.S;\n"
		"/*0058*/ EXIT;\n";
	BeCompareSum sum;
	char *out = compare_texts(mine, ref, &sum);

	ck_assert_msg(strstr(out, "\"addr\": 32, \"decision\": \"ssy\"") != NULL,
	              "the back edge above its SSY should be ssy:\n%s", out);
	ck_assert_msg(strstr(out, "\"addr\": 96, \"decision\": \"ssy\", \"sides\": \"0/?\", "
	                          "\"ptxas_addr\": 80, \"ptxas_decision\": \"ssy\"") != NULL,
	              "the continue should be a construct, lined up with ptxas's:\n%s", out);
	ck_assert_int_eq(sum.ours, 3);
	free(out);
}
END_TEST

/* ours (BRA.U) and ptxas's (BRA) of test_uniform_side_loop: a branch on a parameter under
 * a divergent if skips a side that holds a loop (tests/ptx/uni_side_loop); the side's last
 * instruction is the %s */
#define SIDE_LOOP HEAD \
	"/*0000*/ SSY 0x60;\n" \
	"/*0008*/ ISETP.GE.AND P0, PT, R0, c[0x0][0x28], PT;\n" \
	"/*0010*/ @P0 NOP.S;\n" \
	"/*0018*/ ISETP.EQ.AND P1, PT, RZ, c[0x0][0x28], PT;\n" \
	"/*0020*/ @P1 BRA%s 0x48;\n" \
	"/*0028*/ IADD R1, R1, 0x1;\n" \
	"/*0030*/ ISETP.LT.AND P2, PT, R1, c[0x0][0x28], PT;\n" \
	"/*0038*/ @P2 BRA%s 0x28;\n" \
	"/*0040*/ %s;\n" \
	"/*0048*/ IADD R1, R1, 0x2;\n" \
	"/*0050*/ IADD R1, R1, 0x3;\n" \
	"/*0058*/ IADD.S R1, R1, 0x4;\n" \
	"/*0060*/ EXIT;\n"

/* ptxas's plain BRA whose paths meet at an ordinary instruction short of the region's sync
 * point, over a side that holds a loop, has no SSY of its own: uniform, as ours; where the
 * side leaves for the region's sync point alone (NOP.S), never reaching the join, it is ssy
 * (an if/else whose sides both leave for the sync point, but a side holds a loop, which a
 * divergent twin sharing the SSY may hold too: test_uniform_else_at_sync's rule leaves it) */
START_TEST(test_uniform_side_loop)
{
	char mine[1024], ref[1024];

	snprintf(mine, sizeof mine, SIDE_LOOP, ".U", ".U", "IADD R2, R2, 0x1");
	snprintf(ref, sizeof ref, SIDE_LOOP, "", "", "IADD R2, R2, 0x1");
	expect_compare(mine, ref, "ptxas's branch over the loop should be uniform",
	               "\"addr\": 32, \"decision\": \"uniform\", \"sides\": \"3/4\", "
	               "\"ptxas_addr\": 32, \"ptxas_decision\": \"uniform\"", NULL);
	snprintf(ref, sizeof ref, SIDE_LOOP, "", "", "NOP.S");
	expect_compare(mine, ref, "a side that leaves for the sync point alone should stay ssy",
	               "\"ptxas_addr\": 32, \"ptxas_decision\": \"ssy\"", NULL);
}
END_TEST

/* ours (BRA.U) and ptxas's (BRA) of test_uniform_else_at_sync: an if/else on a parameter
 * under a divergent if (the SSY and @P0 NOP.S at 0x10), each side one instruction ending in
 * a .S for the if's sync point at 0x38 (tests/ptx/uni_else_join, nvcc's dwt2d); %s is the
 * region's first test, at 0x10 */
#define ELSE_AT_SYNC HEAD \
	"/*0000*/ SSY 0x38;\n" \
	"/*0008*/ ISETP.GE.AND P0, PT, R0, c[0x0][0x28], PT;\n" \
	"/*0010*/ %s;\n" \
	"/*0018*/ ISETP.EQ.AND P1, PT, RZ, c[0x0][0x28], PT;\n" \
	"/*0020*/ @P1 BRA%s 0x30;\n" \
	"/*0028*/ IADD.S R1, R1, 0x1;\n" \
	"/*0030*/ IADD.S R1, R1, 0x2;\n" \
	"/*0038*/ EXIT;\n"

/* ptxas's plain BRA of an if/else whose sides both leave by .S for the sync point of an SSY
 * pushed for an earlier test of the region has no SSY of its own: uniform, as ours (its
 * divergent twin gets a PBK for the three paths). Where the region holds no earlier test,
 * the SSY is the branch's own: ssy */
START_TEST(test_uniform_else_at_sync)
{
	static const struct {
		const char *first, *why, *want;
	} cases[] = {
		{"@P0 NOP.S", "ptxas's if/else that leaves for the enclosing sync point should be "
		 "uniform", "\"addr\": 32, \"decision\": \"uniform\", \"sides\": \"1/1\", "
		 "\"ptxas_addr\": 32, \"ptxas_decision\": \"uniform\""},
		{"IADD R2, R2, 0x1", "an if/else whose SSY is its own should stay ssy",
		 "\"ptxas_addr\": 32, \"ptxas_decision\": \"ssy\""},
	};
	char mine[1024], ref[1024];

	for (size_t n = 0; n < sizeof cases / sizeof cases[0]; n++) {
		snprintf(mine, sizeof mine, ELSE_AT_SYNC, cases[n].first, ".U");
		snprintf(ref, sizeof ref, ELSE_AT_SYNC, cases[n].first, "");
		expect_compare(mine, ref, cases[n].why, cases[n].want, NULL);
	}
}
END_TEST

/* ours (BRA.U) and ptxas's (BRA) of test_uniform_side_break: a branch on a parameter inside
 * a loop whose SSY, pushed before it, syncs at the loop's exit (tests/ptx/uni_side_brk); the
 * side holds the loop's break, @!P1 NOP.S at 0x38, and falls into the join at 0x48 */
#define SIDE_BREAK HEAD \
	"/*0000*/ SSY 0x68;\n" \
	"/*0008*/ ISETP.EQ.AND P0, PT, RZ, c[0x0][0x28], PT;\n" \
	"/*0010*/ @P0 BRA%s 0x48;\n" \
	"/*0018*/ IADD R1, R1, R3;\n" \
	"/*0020*/ SHF.R R3, R3, 0x1, RZ;\n" \
	"/*0028*/ ISETP.NE.U32.AND P1, PT, R3, RZ, PT;\n" \
	"/*0030*/ IADD R4, R4, 0x1;\n" \
	"/*0038*/ @!P1 NOP.S;\n" \
	"/*0040*/ IADD R1, R1, R0;\n" \
	"/*0048*/ IADD R2, R2, R0;\n" \
	"/*0050*/ LOP.XOR R2, R2, R3;\n" \
	"/*0058*/ BRA 0x8;\n" \
	"/*0060*/ NOP.S;\n" \
	"/*0068*/ IADD R2, R2, R1;\n" \
	"/*0070*/ EXIT;\n"

/* ptxas's plain BRA over a side that may leave by a guarded .S for the enclosing region's
 * sync point (a break, an early exit to an outer join) is uniform where the paths meet short
 * of it: on a divergent test ptxas pushes an SSY at the join and leaves by BRK. A then side
 * that never reaches the else side's join, leaving only by its .S (lud_perimeter's loop),
 * meets the other at the sync point: a divergent if/else, ssy */
START_TEST(test_uniform_side_break)
{
	static const char lud[] = HEAD
		"/*0000*/ ISETP.GE.AND P0, PT, R0, c[0x0][0x28], PT;\n"
		"/*0008*/ SSY 0x50;\n"
		"/*0010*/ @P0 BRA 0x40;\n"
		"/*0018*/ IADD R1, R1, 0x1;\n"
		"/*0020*/ ISETP.NE.AND P2, PT, R1, 0x10, PT;\n"
		"/*0028*/ @!P2 NOP.S;\n"
		"/*0030*/ IADD R2, R2, R1;\n"
		"/*0038*/ BRA 0x18;\n"
		"/*0040*/ IADD R2, R2, 0x3;\n"
		"/*0048*/ NOP.S;\n"
		"/*0050*/ EXIT;\n";
	char mine[1024], ref[1024];

	snprintf(mine, sizeof mine, SIDE_BREAK, ".U");
	snprintf(ref, sizeof ref, SIDE_BREAK, "");
	expect_compare(mine, ref, "ptxas's branch over the break should be uniform",
	               "\"addr\": 16, \"decision\": \"uniform\"",
	               "\"ptxas_addr\": 16, \"ptxas_decision\": \"uniform\"", NULL);
	expect_compare(mine, ref, "the break itself should stay ssy",
	               "\"ptxas_addr\": 56, \"ptxas_decision\": \"ssy\"", NULL);
	expect_compare(lud, lud, "a side that never reaches the join should stay ssy",
	               "\"addr\": 16, \"decision\": \"ssy\"",
	               "\"ptxas_addr\": 16, \"ptxas_decision\": \"ssy\"", NULL);
}
END_TEST

/* a loop of n trips under a divergent if (tests/ptx/uni_loop_in), its back edge at 0x38
 * followed by the %s: ordinary code before the region's last instruction (no token: a
 * uniform loop), or the IADD.S of an SSY pushed for the loop at 0x18 (a divergent loop) */
#define LOOP_IN HEAD \
	"/*0000*/ SSY 0x60;\n" \
	"/*0008*/ ISETP.GE.AND P0, PT, R0, c[0x0][0x28], PT;\n" \
	"/*0010*/ @P0 NOP.S;\n" \
	"/*0018*/ %s;\n" \
	"/*0020*/ IMAD R4, R4, 0x3, R5;\n" \
	"/*0028*/ IADD R5, R5, 0x1;\n" \
	"/*0030*/ ISETP.GE.U32.AND P1, PT, R5, c[0x0][0x28], PT;\n" \
	"/*0038*/ @!P1 BRA 0x20;\n" \
	"/*0040*/ %s;\n" \
	"/*0048*/ LOP.XOR R4, R4, R0;\n" \
	"/*0050*/ IADD R4, R4, R0;\n" \
	"/*0058*/ ST.E.S [R2], R4;\n" \
	"/*0060*/ EXIT;\n"

/* ptxas's plain back edge inside an enclosing SSY region is a uniform loop's where its lanes
 * go on with ordinary code (ptxas pushes an SSY before a divergent loop, the back edge falling
 * into its .S); where they leave by BRK (the loop's PBK: Mandelbrot's divergent loop) it
 * stays ssy */
START_TEST(test_uniform_back_edge)
{
	static const char pbk[] = HEAD
		"/*0000*/ SSY 0x60;\n"
		"/*0008*/ ISETP.GE.AND P0, PT, R0, c[0x0][0x28], PT;\n"
		"/*0010*/ @P0 NOP.S;\n"
		"/*0018*/ PBK 0x50;\n"
		"/*0020*/ FMUL R4, R4, R4;\n"
		"/*0028*/ FSETP.GT.AND P1, PT, R4, 4, PT;\n"
		"/*0030*/ @!P1 BRA 0x20;\n"
		"/*0038*/ IADD R5, R5, -0x1;\n"
		"/*0040*/ BRK;\n"
		"/*0048*/ BRK;\n"
		"/*0050*/ ST.E.S [R2], R4;\n"
		"/*0058*/ NOP;\n"
		"/*0060*/ EXIT;\n";
	char ref[1024];

	snprintf(ref, sizeof ref, LOOP_IN, "MOV R5, RZ", "IADD R4, R4, R0");
	expect_compare(ref, ref, "the back edge of a loop with no token should be uniform",
	               "\"ptxas_addr\": 56, \"ptxas_decision\": \"uniform\"", NULL);
	snprintf(ref, sizeof ref, LOOP_IN, "SSY 0x48", "IADD.S R4, R4, R0");
	expect_compare(ref, ref, "the back edge of a loop with its own SSY should stay ssy",
	               "\"ptxas_addr\": 56, \"ptxas_decision\": \"ssy\"", NULL);
	expect_compare(pbk, pbk, "a back edge whose lanes leave by BRK should stay ssy",
	               "\"ptxas_addr\": 48, \"ptxas_decision\": \"ssy\"", NULL);
}
END_TEST

/* a loop whose PBK (pushed for its divergent break at 0x10) is the only token in its trip:
 * an if-then at 0x20 (%s) whose paths meet at 0x38 and go on to the latch, and the latch at
 * 0x48 (%s) that falls into the loop's BRK */
#define IN_PBK HEAD \
	"/*0000*/ PBK 0x60;\n" \
	"/*0008*/ ISETP.GE.AND P0, PT, R0, c[0x0][0x28], PT;\n" \
	"/*0010*/ @P0 BRK;\n" \
	"/*0018*/ ISETP.EQ.AND P1, PT, RZ, c[0x0][0x28], PT;\n" \
	"/*0020*/ @P1 BRA%s 0x38;\n" \
	"/*0028*/ IADD R1, R1, 0x1;\n" \
	"/*0030*/ IADD R1, R1, 0x2;\n" \
	"/*0038*/ IADD R2, R2, 0x1;\n" \
	"/*0040*/ ISETP.LT.AND P2, PT, R2, R0, PT;\n" \
	"/*0048*/ @P2 BRA%s 0x8;\n" \
	"/*0050*/ BRK;\n" \
	"/*0058*/ NOP;\n" \
	"/*0060*/ EXIT;\n"

/* inside a loop's PBK with no SSY: a plain BRA of ours (not BRA.U) is divergent, sharing the
 * PBK; ptxas's plain BRA whose paths meet short of the loop's end and go on is uniform, and
 * its back edge that falls into its own loop's BRK is read as divergent (ptxas lays out a
 * uniform latch there the same way: tests/ptx/uni_in_pbk) */
START_TEST(test_in_pbk)
{
	char mine[1024], ref[1024];

	snprintf(mine, sizeof mine, IN_PBK, ".U", "");
	snprintf(ref, sizeof ref, IN_PBK, "", "");
	expect_compare(mine, ref, "the branch whose paths meet in the trip should be uniform",
	               "\"addr\": 32, \"decision\": \"uniform\", \"sides\": \"?/2\", "
	               "\"ptxas_addr\": 32, \"ptxas_decision\": \"uniform\"", NULL);
	expect_compare(mine, ref, "the latch of ours and of ptxas should read divergent",
	               "\"addr\": 72, \"decision\": \"ssy\", \"sides\": \"-\", "
	               "\"ptxas_addr\": 72, \"ptxas_decision\": \"ssy\"", NULL);
}
END_TEST

/* two regions whose blocks alternate in the layout, as nvcc's PTX lays out the copies of a
 * body after `@P bra X; bra.uni Y` (dwt2d): the entry 0 branches to A0 (1, its fall-through)
 * and B0 (2); each region is a diamond, A0 -> A1 (3) | A2 (5) -> A3 (7) and B0 -> B1 (4) |
 * B2 (6) -> B3 (8), both ending at 9. The flow order finishes one region before the other
 * (ptxas lays them out one after the other), where the lowest address would take B0 right
 * after A0 */
START_TEST(test_flow_order_nested)
{
	static const int src[] = {0, 0, 1, 1, 3, 5, 7, 2, 2, 4, 6, 8};
	static const int dst[] = {1, 2, 3, 5, 7, 7, 9, 4, 6, 8, 8, 9};
	static const int a[] = {1, 3, 5, 7}, b[] = {2, 4, 6, 8};
	int rank[10], root = 0;

	be_flow_order(10, 12, src, dst, &root, 1, rank);
	ck_assert_int_eq(rank[0], 0);
	ck_assert_int_eq(rank[1], 1);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			ck_assert_msg(rank[a[i]] < rank[b[j]], "A's block %d (place %d) should come "
			              "before B's block %d (place %d)", a[i], rank[a[i]], b[j], rank[b[j]]);
	ck_assert_int_eq(rank[9], 9);
}
END_TEST

/* --compare-lines: two if-thens on the same comparison (PTX lines 10 and 14), ours the first
 * predicated and the second a branch, ptxas the other way round, its predicated run of the
 * second laid out first; and a selp at line 17 that ptxas writes as a guarded MOV. */
static const char lines_ptx[] =
	".version 7.8\n"                                /* 1 */
	".target sm_35\n"
	".address_size 64\n"
	".visible .entry k(.param .u32 n)\n"
	"{\n"                                           /* 5 */
	"\t.reg .pred %p<3>;\n"
	"\t.reg .b32 %r<5>;\n"
	"\tld.param.u32 %r1, [n];\n"
	"\tsetp.gt.s32 %p1, %r1, 3;\n"
	"\t@%p1 bra A;\n"                               /* 10 */
	"\tadd.s32 %r2, %r1, 1;\n"
	"A:\n"
	"\tsetp.gt.s32 %p2, %r1, 3;\n"
	"\t@%p2 bra B;\n"                               /* 14 */
	"\tadd.s32 %r3, %r1, 2;\n"
	"B:\n"
	"\tselp.b32 %r4, 1, 2, %p1;\n"                  /* 17 */
	"\tret;\n"
	"}\n";

/* ours: line 10's side predicated (line 11), line 14 a branch over its side (line 15) */
static const char lines_ours[] = HEAD
	"/*0000*/ ISETP.GT.AND P0, PT, R2, 0x3, PT;\n"
	"/*0008*/ @!P0 IADD R1, R1, 0x1;\n"
	"/*0010*/ SSY 0x30;\n"
	"/*0018*/ ISETP.GT.AND P1, PT, R2, 0x3, PT;\n"
	"/*0020*/ @P1 BRA 0x30;\n"
	"/*0028*/ IADD.S R1, R1, 0x2;\n"
	"/*0030*/ SEL R4, R1, 0x2, P0;\n"
	"/*0038*/ EXIT;\n";
static const int lines_ours_ptx[] = {9, 11, 14, 13, 14, 15, 17, 18};

/* ptxas: line 14's side predicated first, line 10 a branch, the selp a guarded MOV */
static const char lines_ref[] = HEAD
	"/*0000*/ ISETP.GT.AND P1, PT, R2, 0x3, PT;\n"
	"/*0008*/ @!P1 IADD R3, R2, 0x2;\n"
	"/*0010*/ SSY 0x30;\n"
	"/*0018*/ ISETP.GT.AND P0, PT, R2, 0x3, PT;\n"
	"/*0020*/ @P0 BRA 0x30;\n"
	"/*0028*/ IADD.S R1, R1, 0x1;\n"
	"/*0030*/ @P0 MOV32I R4, 0x1;\n"
	"/*0038*/ EXIT;\n";
static const char lines_map[] =
	"# ptxas's line table of lines_ptx\n"
	".kernel k\n"
	"0000 13\n0008 15\n0010 10\n0018 9\n0020 10\n0028 11\n0030 17\n0038 18\n";

/* be_compare of lines_ours against lines_ref, paired by lines_map when map: the JSON */
static char *compare_lines(int map, BeCompareSum *sum)
{
	char *out = NULL, *msgs = NULL;
	size_t n = 0, mn = 0;
	FILE *err = open_memstream(&msgs, &mn), *f = open_memstream(&out, &n);
	Prog *a = isa_asm("ours.sass", lines_ours, strlen(lines_ours), err);
	Prog *b = isa_asm("ref.sass", lines_ref, strlen(lines_ref), err);
	IsaLineMap *lm = isa_linemap_parse("k.lines", lines_map, strlen(lines_map), err);
	Module *m = ptx_parse("k.ptx", lines_ptx, strlen(lines_ptx), err, NULL);
	BeOrigins org;
	BeLines ln;

	fclose(err);
	ck_assert_msg(a && b && lm && m, "%s", msgs);
	ck_assert_int_eq(a->k[0].nins, 8);
	for (int i = 0; i < 8; i++)
		a->k[0].ins[i].ptxline = lines_ours_ptx[i];
	be_origins_init(&org, m);
	ln = (BeLines){isa_linemap_find(lm, "k"), &org};
	memset(sum, 0, sizeof *sum);
	be_compare(f, &a->k[0], &b->k[0], NULL, 1, sum, map ? &ln : NULL);
	fclose(f);
	be_origins_free(&org);
	ptx_free(m);
	isa_linemap_free(lm);
	isa_prog_free(a);
	isa_prog_free(b);
	free(msgs);
	return out;
}

/* paired by the line table, each of ours meets ptxas's construct of its own branch, and
 * neither agrees; by the comparisons alone they pair crosswise, both agreeing. ptxas's run
 * from the selp pairs with nothing */
START_TEST(test_lines_pair)
{
	BeCompareSum sum;
	char *out = compare_lines(1, &sum);

	ck_assert_int_eq(sum.ours, 2);
	ck_assert_int_eq(sum.theirs, 3);
	ck_assert_int_eq(sum.matched, 2);
	ck_assert_msg(sum.agree == 0, "0 of 2 agree expected, %d:\n%s", sum.agree, out);
	ck_assert_msg(strstr(out, "\"addr\": 8, \"decision\": \"predicated\", \"sides\": \"1/0\", "
	                          "\"ptxas_addr\": 32, \"ptxas_decision\": \"ssy\"") != NULL,
	              "line 10's run should pair with ptxas's branch of line 10:\n%s", out);
	ck_assert_msg(strstr(out, "\"addr\": 32, \"decision\": \"ssy\", \"sides\": \"?/1\", "
	                          "\"ptxas_addr\": 8, \"ptxas_decision\": \"predicated\"") != NULL,
	              "line 14's branch should pair with ptxas's run of line 14:\n%s", out);
	ck_assert_msg(strstr(out, "\"ptxas_only\": [{\"addr\": 48, \"decision\": \"predicated\", "
	                          "\"sides\": \"1/0\", \"origin\": 17}]") != NULL,
	              "the selp's run should stand alone:\n%s", out);
	free(out);
	out = compare_lines(0, &sum);
	ck_assert_msg(sum.matched == 2 && sum.agree == 2, "without the map, 2 of 2 agree "
	              "(crosswise) expected, %d of %d:\n%s", sum.agree, sum.matched, out);
	free(out);
}
END_TEST

/* the origins of lines_ptx's lines: a side's code its branch's, a join's and the top level's
 * none, a branch and a selp their own; and the branch a BRA of ptxas's on the line comes from
 * (be_origin_before): the conditional bra that ends the line's block, none past a label, a
 * return, or for a branch */
START_TEST(test_lines_origin)
{
	static const int want[][3] = {
		{8, 0, 10}, {9, 0, 10}, {10, 10, 0}, {11, 10, 0}, {13, 0, 14}, {14, 14, 0}, {15, 14, 0},
		{17, 17, 0}, {18, 0, 0}, {12, 0, 0}, {99, 0, 0},
	};
	Module *m = ptx_parse("k.ptx", lines_ptx, strlen(lines_ptx), stderr, NULL);
	BeOrigins org;

	ck_assert_ptr_nonnull(m);
	be_origins_init(&org, m);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		ck_assert_msg(be_origin(&org, want[i][0], NULL) == want[i][1], "line %d: origin %d, "
		              "expected %d", want[i][0], be_origin(&org, want[i][0], NULL), want[i][1]);
		ck_assert_msg(be_origin_before(&org, want[i][0]) == want[i][2], "line %d: a BRA's "
		              "branch %d, expected %d", want[i][0], be_origin_before(&org, want[i][0]),
		              want[i][2]);
	}
	be_origins_free(&org);
	ptx_free(m);
}
END_TEST

/* a line map that does not parse: the first error, located, and no map */
START_TEST(test_lines_bad)
{
	static const char *const bad[][2] = {
		{"0008 12\n", "k.lines:1:1: error: an address before any .kernel"},
		{".kernel k\n0008 12\n0008 13\n", "k.lines:3:1: error: address 0x0008 after 0x0008"},
		{".kernel k\n0008\n", "k.lines:2:5: error: expected the PTX line of address 0x0008"},
		{".kernel k\n00g8 1\n", "k.lines:2:1: error: expected an address (hex) or .kernel, got '00g8'"},
		{".kernel k\n0008 0\n", "k.lines:2:6: error: expected the PTX line"},
		{".kernel k\n0008 1 2\n", "k.lines:2:8: error: an address and a line, then the end"},
		{".kernel\n", "k.lines:1:8: error: expected the kernel's name after .kernel"},
		{".kernel k\n.kernel k\n", "k.lines:2:9: error: kernel 'k' is named twice"},
		{".kernel k\n0008 99999999999\n", "k.lines:2:6: error: expected the PTX line"},
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *msgs = NULL;
		size_t mn = 0;
		FILE *err = open_memstream(&msgs, &mn);
		IsaLineMap *lm = isa_linemap_parse("k.lines", bad[i][0], strlen(bad[i][0]), err);
		fclose(err);
		ck_assert_msg(lm == NULL, "case %zu should not parse", i);
		ck_assert_msg(strstr(msgs, bad[i][1]) == msgs, "case %zu: expected '%s', got:\n%s", i,
		              bad[i][1], msgs);
		free(msgs);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("align");

	tcase_add_test(tc, test_tie_back_edge);
	tcase_add_test(tc, test_comparison_first);
	tcase_add_test(tc, test_per_function);
	tcase_add_test(tc, test_uniform_in_region);
	tcase_add_test(tc, test_region_above);
	tcase_add_test(tc, test_uniform_side_loop);
	tcase_add_test(tc, test_uniform_side_break);
	tcase_add_test(tc, test_uniform_else_at_sync);
	tcase_add_test(tc, test_uniform_back_edge);
	tcase_add_test(tc, test_in_pbk);
	tcase_add_test(tc, test_flow_order_nested);
	tcase_add_test(tc, test_lines_pair);
	tcase_add_test(tc, test_lines_origin);
	tcase_add_test(tc, test_lines_bad);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ck_run(suite());
}
