/* test_verify_brx.c - the reconvergence verifier (backend/verify.c) on BRX and BPT.TRAP:
 * an unguarded BRX with two different targets may diverge, so its paths must meet at its
 * innermost SSY target; BRX.U (found uniform) and a BRX with one target are exempt; an
 * unguarded BPT.TRAP ends its path, a guarded one falls through.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "backend/backend.h"
#include "tests/unit/helper_check.h"

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

#define HEAD ".kernel k\n.arch sm_35\n.registers 8\n"

/* two groups join at 0x18 with no SSY: an error naming the BRX and the join */
START_TEST(test_brx_unguarded_needs_ssy)
{
	char *m = NULL;
	int r = verify(HEAD
		"/*0000*/ BRX R0, {0x8, 0x10};\n"
		"/*0008*/ BRA 0x18;\n"
		"/*0010*/ MOV R1, R2;\n"
		"/*0018*/ EXIT;\n", &m);
	ck_assert_int_eq(r, 1);
	ck_assert_ptr_nonnull(strstr(m, "/*0000*/: error: divergent branch: its immediate "
	                                "post-dominator 0x18 is not the innermost SSY target"));
	free(m);
}
END_TEST

/* the same with SSY at the join and each path arriving: clean */
START_TEST(test_brx_unguarded_with_ssy)
{
	char *m = NULL;
	int r = verify(HEAD
		"/*0000*/ SSY 0x20;\n"
		"/*0008*/ BRX R0, {0x10, 0x18};\n"
		"/*0010*/ NOP.S;\n"
		"/*0018*/ MOV.S R1, R2;\n"
		"/*0020*/ EXIT;\n", &m);
	ck_assert_int_eq(r, 0);
	ck_assert_str_eq(m, "");
	free(m);
}
END_TEST

/* BRX.U and a BRX whose targets are all one address cannot diverge: not checked */
START_TEST(test_brx_uniform_exempt)
{
	char *m = NULL;
	ck_assert_int_eq(verify(HEAD
		"/*0000*/ BRX.U R0, {0x8, 0x10};\n"
		"/*0008*/ BRA 0x18;\n"
		"/*0010*/ MOV R1, R2;\n"
		"/*0018*/ EXIT;\n", &m), 0);
	free(m);
	m = NULL;
	ck_assert_int_eq(verify(HEAD
		"/*0000*/ BRX R0, {0x10, 0x10};\n"
		"/*0008*/ MOV R1, R2;\n"
		"/*0010*/ EXIT;\n", &m), 0);
	free(m);
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
	char *m = NULL;
	int r = verify(HEAD
		"/*0000*/ S2R R0, SR_TID.X;\n"
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
		"/*0058*/ NOP.S;\n", &m);
	ck_assert_msg(r == 0, "%s", m);
	ck_assert_str_eq(m, "");
	free(m);
}
END_TEST

/* an unguarded BPT.TRAP ends its path (nothing after it needs to be valid); a guarded one
 * falls through, so running off the end after it is an error */
START_TEST(test_bpt_paths)
{
	char *m = NULL;
	ck_assert_int_eq(verify(HEAD "/*0000*/ BPT.TRAP 0x1;\n", &m), 0);
	free(m);
	m = NULL;
	ck_assert_int_eq(verify(HEAD "/*0000*/ @P0 BPT.TRAP 0x1;\n", &m), 1);
	ck_assert_ptr_nonnull(strstr(m, "execution runs past the end of the code"));
	free(m);
}
END_TEST

static Suite *verify_suite(void)
{
	Suite *s = suite_create("verify_brx");
	TCase *t = tcase_create("brx");

	tcase_add_test(t, test_brx_unguarded_needs_ssy);
	tcase_add_test(t, test_brx_unguarded_with_ssy);
	tcase_add_test(t, test_brx_uniform_exempt);
	tcase_add_test(t, test_bpt_paths);
	tcase_add_test(t, test_brx_loop_arrival_after_exit);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{

	return ck_run(verify_suite());
}
