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
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(verify_suite());
	int nf;

	srunner_run_all(r, CK_ENV);
	nf = srunner_ntests_failed(r);
	srunner_free(r);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
