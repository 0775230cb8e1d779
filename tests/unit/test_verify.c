/* test_verify.c - the reconvergence verifier (backend/verify.c) on hand-written listings:
 *   BRX and BPT.TRAP: an unguarded BRX with two different targets may diverge, so its paths
 *   must meet at its innermost SSY target; BRX.U (found uniform) and a BRX with one target
 *   are exempt; an unguarded BPT.TRAP ends its path, a guarded one falls through;
 *   PBK and BRK (--loop-sync pbk): PBK pushes a token of its own kind, a BRK sends its lanes
 *   to the innermost token's target, which must be a PBK's, as a .S must find an SSY's; the
 *   two kinds do not stand in for each other, and the tokens must balance over the loop;
 *   PCNT and CONT the same with a third kind (the continue point of a loop, pushed every
 *   iteration); PRET and PEXIT are refused by name; a RET may leave PBK tokens behind
 *   (ptxas's ret_nest), not SSY or PCNT tokens.
 *   a loop's back edge whose paths meet at the unguarded EXIT right after it needs no token.
 *   Located errors: with the PTX module (be_verify_kernel_at, as warpc calls it), an error
 *   starts with the file:line:col of the PTX branch its instruction was translated from.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "backend/backend.h"
#include "frontend/ptx.h"
#include "tests/unit/helper_check.h"

#define HEAD ".kernel k\n.arch sm_35\n.registers 8\n"

/* verifier errors of the one kernel of listing text (-1 when it does not parse); the
 * messages go to *msgs (caller frees) */
static int verify(const char *text, char **msgs)
{
	size_t n = 0;
	FILE *f = open_memstream(msgs, &n);
	Prog *p = isa_asm("t.sass", text, strlen(text), f);
	int r = p ? be_verify_kernel(&p->k[0], f) : -1;

	fclose(f);
	if (p)
		isa_prog_free(p);
	return r;
}

/* the listing (after HEAD) passes the verifier without a message */
static void clean(const char *body)
{
	char *m = NULL, text[2048];
	int r;

	snprintf(text, sizeof text, HEAD "%s", body);
	r = verify(text, &m);
	ck_assert_msg(r == 0, "%s", m);
	ck_assert_str_eq(m, "");
	free(m);
}

/* the verifier refuses it with a message holding msg */
static void refused(const char *body, const char *msg)
{
	char *m = NULL, text[2048];
	int r;

	snprintf(text, sizeof text, HEAD "%s", body);
	r = verify(text, &m);
	ck_assert_int_eq(r, 1);
	ck_assert_msg(strstr(m, msg) != NULL, "expected '%s' in:\n%s", msg, m);
	free(m);
}

/* ------------------------------------------------------------------ BRX and BPT.TRAP */
/* two groups join at 0x18 with no SSY: an error naming the BRX and the join; with SSY at the
 * join and each path arriving, clean */
START_TEST(test_brx_unguarded_needs_ssy)
{
	refused("/*0000*/ BRX R0, {0x8, 0x10};\n"
	        "/*0008*/ BRA 0x18;\n"
	        "/*0010*/ MOV R1, R2;\n"
	        "/*0018*/ EXIT;\n",
	        "/*0000*/: error: divergent branch: its immediate post-dominator 0x18 is not the "
	        "innermost SSY target");
	clean("/*0000*/ SSY 0x20;\n"
	      "/*0008*/ BRX R0, {0x10, 0x18};\n"
	      "/*0010*/ NOP.S;\n"
	      "/*0018*/ MOV.S R1, R2;\n"
	      "/*0020*/ EXIT;\n");
}
END_TEST

/* a loop's back edge whose paths meet at the unguarded EXIT right after it: its lanes only
 * leave to exit, no token needed (backend/cfg.c's kept back edge, ptxas 11.8's `@P BRA head;
 * EXIT`); with code between the branch and the EXIT, or guarded EXIT, refused */
START_TEST(test_back_edge_to_exit)
{
	clean("/*0000*/ IADD R0, R0, 0x1;\n"
	      "/*0008*/ ISETP.LT.AND P0, PT, R0, R1, PT;\n"
	      "/*0010*/ @P0 BRA 0x0;\n"
	      "/*0018*/ EXIT;\n");
	refused("/*0000*/ IADD R0, R0, 0x1;\n"
	        "/*0008*/ ISETP.LT.AND P0, PT, R0, R1, PT;\n"
	        "/*0010*/ @P0 BRA 0x0;\n"
	        "/*0018*/ IADD R2, R2, 0x1;\n"
	        "/*0020*/ EXIT;\n",
	        "/*0010*/: error: divergent branch: its immediate post-dominator 0x18 is not the "
	        "innermost SSY target");
}
END_TEST

/* BRX.U and a BRX whose targets are all one address cannot diverge: not checked */
START_TEST(test_brx_uniform_exempt)
{
	clean("/*0000*/ BRX.U R0, {0x8, 0x10};\n"
	      "/*0008*/ BRA 0x18;\n"
	      "/*0010*/ MOV R1, R2;\n"
	      "/*0018*/ EXIT;\n");
	clean("/*0000*/ BRX R0, {0x10, 0x10};\n"
	      "/*0008*/ MOV R1, R2;\n"
	      "/*0010*/ EXIT;\n");
}
END_TEST

/* a loop left only through @!P0 EXIT around a BRX whose third case holds a second BRX; one
 * inner case arrives from code laid out after the exit (0x58). The artificial exit edge of
 * such a loop comes from its last instruction in reverse post-order, as the translator's
 * post-dominators take it (dom.c), not from the instruction at the highest address; then
 * both BRX meet at the latch 0x38, the shared SSY target: clean (the shape of generated
 * program 1026569, which the verifier refused before) */
START_TEST(test_brx_loop_arrival_after_exit)
{
	clean("/*0000*/ S2R R0, SR_TID.X;\n"
	      "/*0008*/ SSY 0x38;\n"
	      "/*0010*/ BRX R0, {0x18, 0x20, 0x28};\n"
	      "/*0018*/ NOP.S;\n"
	      "/*0020*/ NOP.S;\n"
	      "/*0028*/ BRX R2, {0x30, 0x58};\n"
	      "/*0030*/ NOP.S;\n"
	      "/*0038*/ IADD R1, R1, 0x1;\n"
	      "/*0040*/ ISETP.LT.AND P0, PT, R1, 0x5, PT;\n"
	      "/*0048*/ @!P0 EXIT;\n"
	      "/*0050*/ BRA 0x8;\n"
	      "/*0058*/ NOP.S;\n");
}
END_TEST

/* an unguarded BPT.TRAP ends its path (nothing after it needs to be valid); a guarded one
 * falls through, so running off the end after it is an error */
START_TEST(test_bpt_paths)
{
	clean("/*0000*/ BPT.TRAP 0x1;\n");
	refused("/*0000*/ @P0 BPT.TRAP 0x1;\n", "execution runs past the end of the code");
}
END_TEST

/* ------------------------------------------------------------------ PBK and BRK */
/* ptxas's shape (brk_div_1): PBK before the loop, a guarded BRK for the break, a divergent
 * back edge, the loop's own exit path ending in BRK: clean */
START_TEST(test_pbk_loop_clean)
{
	clean("/*0000*/ PBK 0x30;\n"
	      "/*0008*/ ISETP.GE.U32.AND P1, PT, R1, R2, PT;\n"
	      "/*0010*/ @P1 BRK;\n"
	      "/*0018*/ @!P0 BRA 0x8;\n"
	      "/*0020*/ IADD R0, R0, R2;\n"
	      "/*0028*/ BRK;\n"
	      "/*0030*/ EXIT;\n");
}
END_TEST

/* brk_div_11 as pbk.c's be_exit_sync lowers it: an SSY of the break path inside the PBK, the
 * leaving lanes arriving at it by @P NOP.S before the back edge, the loop's own exit a BRK
 * that passes the SSY token: clean; a CONT token in between is not passed */
START_TEST(test_brk_passes_ssy)
{
	clean("/*0000*/ PBK 0x40;\n"
	      "/*0008*/ SSY 0x30;\n"
	      "/*0010*/ ISETP.GE.U32.AND P1, PT, R1, R2, PT;\n"
	      "/*0018*/ @P1 BRK;\n"
	      "/*0020*/ @P0 NOP.S;\n"
	      "/*0028*/ BRA 0x10;\n"
	      "/*0030*/ IADD R0, R0, R2;\n"
	      "/*0038*/ BRK;\n"
	      "/*0040*/ EXIT;\n");
	refused("/*0000*/ PBK 0x30;\n"
	        "/*0008*/ PCNT 0x28;\n"
	        "/*0010*/ SSY 0x20;\n"
	        "/*0018*/ @P0 BRK;\n"
	        "/*0020*/ NOP.S;\n"
	        "/*0028*/ CONT;\n"
	        "/*0030*/ EXIT;\n", "/*0018*/: error: BRK whose innermost token is not a PBK's");
}
END_TEST

/* a divergent branch inside such a loop whose one side breaks (gen --seed 300057, a brx.idx
 * with a break): its paths meet at the PBK's target, below the break path's SSY, which the
 * lanes that break pass: clean (it was refused as a branch whose immediate post-dominator
 * is not the innermost SSY target) */
START_TEST(test_branch_meets_past_ssy)
{
	clean("/*0000*/ PBK 0x50;\n"
	      "/*0008*/ SSY 0x40;\n"
	      "/*0010*/ @P1 BRK;\n"
	      "/*0018*/ @P2 BRA 0x28;\n"
	      "/*0020*/ BRA 0x30;\n"
	      "/*0028*/ BRK;\n"
	      "/*0030*/ @P0 NOP.S;\n"
	      "/*0038*/ BRA 0x10;\n"
	      "/*0040*/ IADD R0, R0, R2;\n"
	      "/*0048*/ BRK;\n"
	      "/*0050*/ EXIT;\n");
}
END_TEST

/* pbk.c's be_trip_join: a divergent branch of a PBK loop whose side breaks past the SSY of the
 * join in the trip (0x38) meets the other side at the loop's PBK target, an unguarded BRK to
 * an outer PBK's target (a trampoline): that PBK target is its meeting point, not the outer
 * one past the trampoline (gen --seed 300004: refused before) */
START_TEST(test_branch_meets_at_brk_trampoline)
{
	clean("/*0000*/ PBK 0x58;\n"
	      "/*0008*/ PBK 0x50;\n"
	      "/*0010*/ @P0 BRK;\n"
	      "/*0018*/ SSY 0x38;\n"
	      "/*0020*/ @P2 BRA 0x30;\n"
	      "/*0028*/ NOP.S;\n"
	      "/*0030*/ BRK;\n"
	      "/*0038*/ @P1 BRA.U 0x10;\n"
	      "/*0040*/ BRK;\n"
	      "/*0048*/ EXIT;\n"
	      "/*0050*/ BRK;\n"
	      "/*0058*/ EXIT;\n");
}
END_TEST

/* a BRK with no PBK, a BRK whose innermost token is an SSY's, a .S whose innermost token is
 * a PBK's */
START_TEST(test_kinds_kept_apart)
{
	refused("/*0000*/ @P0 BRK;\n"
	        "/*0008*/ EXIT;\n", "/*0000*/: error: BRK whose innermost token is not a PBK's");
	refused("/*0000*/ SSY 0x18;\n"
	        "/*0008*/ @P0 BRK;\n"
	        "/*0010*/ NOP.S;\n"
	        "/*0018*/ EXIT;\n", "/*0008*/: error: BRK whose innermost token is not a PBK's");
	refused("/*0000*/ PBK 0x18;\n"
	        "/*0008*/ @P0 NOP.S;\n"
	        "/*0010*/ BRK;\n"
	        "/*0018*/ EXIT;\n", "/*0008*/: error: .S whose innermost token is a PBK's");
}
END_TEST

/* a PBK inside the loop pushes a token per iteration; a path into the PBK target without
 * BRK; PRET is refused by name */
START_TEST(test_pbk_unbalanced)
{
	refused("/*0000*/ PBK 0x20;\n"
	        "/*0008*/ @P1 BRK;\n"
	        "/*0010*/ @!P0 BRA 0x0;\n"
	        "/*0018*/ BRK;\n"
	        "/*0020*/ EXIT;\n", "reached with two different CallReturnStacks");
	refused("/*0000*/ PBK 0x10;\n"
	        "/*0008*/ MOV R0, R1;\n"
	        "/*0010*/ EXIT;\n", "/*0008*/: error: a path reaches the sync point 0x10 without .S");
	refused("/*0000*/ PRET 0x10;\n"
	        "/*0008*/ EXIT;\n"
	        "/*0010*/ EXIT;\n", "/*0000*/: error: PRET and PEXIT are not checked");
}
END_TEST

/* ptxas's ret_nest (tests/ptxas-ref/families/ret_nest): a function returns inside a PBK
 * region, its lanes leaving the token for the CAL's; clean. Inside an SSY region, or a
 * PCNT's, the RET is refused */
START_TEST(test_ret_in_pbk)
{
	static const char *fmt = "/*0000*/ CAL 0x10;\n"
	                         "/*0008*/ EXIT;\n"
	                         ".func f\n"
	                         "/*0010*/ %s 0x40;\n"
	                         "/*0018*/ @P0 BRA 0x38;\n"
	                         "/*0020*/ @P1 %s;\n"
	                         "/*0028*/ MOV R0, R1;\n"
	                         "/*0030*/ RET;\n"
	                         "/*0038*/ %s;\n"
	                         "/*0040*/ RET;\n";
	char body[512];

	snprintf(body, sizeof body, fmt, "PBK", "BRK", "BRK");
	clean(body);
	snprintf(body, sizeof body, fmt, "SSY", "NOP.S", "NOP.S");
	refused(body, "/*0030*/: error: RET with 1 SYNC token(s) of the function still pushed");
	snprintf(body, sizeof body, fmt, "PCNT", "CONT", "CONT");
	refused(body, "/*0030*/: error: RET with 1 SYNC token(s) of the function still pushed");
	/* an SSY above a PBK: the message counts the SSY token alone (the PBK's may stay) */
	refused("/*0000*/ CAL 0x10;\n"
	        "/*0008*/ EXIT;\n"
	        ".func f\n"
	        "/*0010*/ PBK 0x50;\n"
	        "/*0018*/ SSY 0x48;\n"
	        "/*0020*/ @P0 BRA 0x40;\n"
	        "/*0028*/ @P1 NOP.S;\n"
	        "/*0030*/ MOV R0, R1;\n"
	        "/*0038*/ RET;\n"
	        "/*0040*/ NOP.S;\n"
	        "/*0048*/ BRK;\n"
	        "/*0050*/ RET;\n",
	        "/*0038*/: error: RET with 1 SYNC token(s) of the function still pushed");
}
END_TEST

/* ------------------------------------------------------------------ PCNT and CONT */
/* a loop whose body is bracketed by PCNT every iteration (docs/isa.md's shape): a guarded
 * CONT skips the rest of the body, the body ends in CONT, the continue point tests the back
 * edge, the loop's exit reconverges at its SSY; the same loop inside a PBK, with a break at
 * the continue point: clean */
START_TEST(test_pcnt_loop_clean)
{
	clean("/*0000*/ SSY 0x38;\n"
	      "/*0008*/ PCNT 0x28;\n"
	      "/*0010*/ @P0 CONT;\n"
	      "/*0018*/ IADD R2, R2, 0x1;\n"
	      "/*0020*/ CONT;\n"
	      "/*0028*/ @P1 BRA 0x8;\n"
	      "/*0030*/ NOP.S;\n"
	      "/*0038*/ EXIT;\n");
	clean("/*0000*/ PBK 0x40;\n"
	      "/*0008*/ PCNT 0x28;\n"
	      "/*0010*/ @P0 CONT;\n"
	      "/*0018*/ IADD R2, R2, 0x1;\n"
	      "/*0020*/ CONT;\n"
	      "/*0028*/ @P2 BRK;\n"
	      "/*0030*/ @P1 BRA 0x8;\n"
	      "/*0038*/ BRK;\n"
	      "/*0040*/ EXIT;\n");
}
END_TEST

/* CONT with no PCNT, a CONT whose innermost token is a PBK's, a BRK and a .S whose innermost
 * token is a PCNT's; a PCNT pushed once before the loop and popped every iteration; a path
 * that falls into the continue point without CONT */
START_TEST(test_pcnt_kinds_and_balance)
{
	refused("/*0000*/ @P0 CONT;\n"
	        "/*0008*/ EXIT;\n", "/*0000*/: error: CONT whose innermost token is not a PCNT's");
	refused("/*0000*/ PBK 0x18;\n"
	        "/*0008*/ @P0 CONT;\n"
	        "/*0010*/ BRK;\n"
	        "/*0018*/ EXIT;\n", "/*0008*/: error: CONT whose innermost token is not a PCNT's");
	refused("/*0000*/ PCNT 0x18;\n"
	        "/*0008*/ @P0 BRK;\n"
	        "/*0010*/ CONT;\n"
	        "/*0018*/ EXIT;\n", "/*0008*/: error: BRK whose innermost token is not a PBK's");
	refused("/*0000*/ PCNT 0x18;\n"
	        "/*0008*/ @P0 NOP.S;\n"
	        "/*0010*/ CONT;\n"
	        "/*0018*/ EXIT;\n", "/*0008*/: error: .S whose innermost token is a PCNT's");
	refused("/*0000*/ PCNT 0x18;\n"
	        "/*0008*/ @P0 CONT;\n"
	        "/*0010*/ CONT;\n"
	        "/*0018*/ @P1 BRA 0x8;\n"
	        "/*0020*/ EXIT;\n", "reached with two different CallReturnStacks");
	refused("/*0000*/ PCNT 0x10;\n"
	        "/*0008*/ MOV R0, R1;\n"
	        "/*0010*/ EXIT;\n", "/*0008*/: error: a path reaches the sync point 0x10 without .S");
}
END_TEST

/* ------------------------------------------------------------------ located errors */
/* the guarded BRA at 0x8 diverges with no SSY: with the module, its error names the PTX line
 * the BRA came from (Ins.ptxline) and the column of the bra on it (not the guard's); an
 * instruction with no PTX line keeps the kernel-and-address form */
START_TEST(test_located)
{
	static const char ptx[] =
		".version 7.0\n"
		".target sm_35\n"
		".address_size 64\n"
		".visible .entry k()\n"
		"{\n"
		"\t.reg .pred p;\n"
		"\t.reg .b32 r;\n"
		"\tmov.u32 r, %tid.x;\n"
		"\tsetp.eq.u32 p, r, 0;\n"
		"  @!p  bra L;\n"
		"\tadd.u32 r, r, 1;\n"
		"L:\n"
		"\tret;\n"
		"}\n";
	static const char sass[] = HEAD
		"/*0000*/ ISETP.EQ.U32.AND P0, PT, R0, RZ, PT;\n"
		"/*0008*/ @!P0 BRA 0x18;\n"
		"/*0010*/ IADD R0, R0, 0x1;\n"
		"/*0018*/ EXIT;\n";
	char *m = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&m, &n);
	int nerr = 0;
	Module *mod = ptx_parse("t.ptx", ptx, strlen(ptx), f, &nerr);
	Prog *p = isa_asm("t.sass", sass, strlen(sass), f);

	ck_assert_ptr_nonnull(mod);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(nerr, 0);
	p->k[0].ins[1].ptxline = 10;
	ck_assert_int_eq(be_verify_kernel_at(&p->k[0], mod, f), 1);
	p->k[0].ins[1].ptxline = 0;
	ck_assert_int_eq(be_verify_kernel_at(&p->k[0], mod, f), 1);
	fclose(f);
	ck_assert_str_eq(m, "t.ptx:10:8: error: k: /*0008*/: divergent branch: its immediate "
	                 "post-dominator 0x18 is not the innermost SSY target\n"
	                 "k: /*0008*/: error: divergent branch: its immediate post-dominator 0x18 "
	                 "is not the innermost SSY target\n");
	free(m);
	isa_prog_free(p);
	ptx_free(mod);
}
END_TEST

static Suite *verify_suite(void)
{
	Suite *s = suite_create("verify");
	TCase *t = tcase_create("brx");
	TCase *p = tcase_create("pbk");

	tcase_add_test(t, test_brx_unguarded_needs_ssy);
	tcase_add_test(t, test_brx_uniform_exempt);
	tcase_add_test(t, test_back_edge_to_exit);
	tcase_add_test(t, test_bpt_paths);
	tcase_add_test(t, test_brx_loop_arrival_after_exit);
	tcase_add_test(p, test_pbk_loop_clean);
	tcase_add_test(p, test_brk_passes_ssy);
	tcase_add_test(p, test_branch_meets_past_ssy);
	tcase_add_test(p, test_branch_meets_at_brk_trampoline);
	tcase_add_test(p, test_kinds_kept_apart);
	tcase_add_test(p, test_pbk_unbalanced);
	tcase_add_test(p, test_ret_in_pbk);
	tcase_add_test(p, test_pcnt_loop_clean);
	tcase_add_test(p, test_pcnt_kinds_and_balance);
	tcase_add_test(t, test_located);
	suite_add_tcase(s, t);
	suite_add_tcase(s, p);
	return s;
}

int main(void)
{
	return ck_run(verify_suite());
}
