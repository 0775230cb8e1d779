/* test_verify_pbk.c - the reconvergence verifier (backend/verify.c) on PBK and BRK, the loop
 * lowering of --loop-sync pbk: PBK pushes a token of its own kind, a BRK sends its lanes to
 * the innermost token's target, which must be a PBK's, as a .S must find an SSY's; the two
 * kinds do not stand in for each other, and the tokens must balance over the loop.
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

/* ptxas's shape (brk_div_1): PBK before the loop, a guarded BRK for the break, a divergent
 * back edge, the loop's own exit path ending in BRK: clean */
START_TEST(test_pbk_loop_clean)
{
	char *m = NULL;
	int r = verify(HEAD
		"/*0000*/ PBK 0x30;\n"
		"/*0008*/ ISETP.GE.U32.AND P1, PT, R1, R2, PT;\n"
		"/*0010*/ @P1 BRK;\n"
		"/*0018*/ @!P0 BRA 0x8;\n"
		"/*0020*/ IADD R0, R0, R2;\n"
		"/*0028*/ BRK;\n"
		"/*0030*/ EXIT;\n", &m);
	ck_assert_int_eq(r, 0);
	ck_assert_str_eq(m, "");
	free(m);
}
END_TEST

/* a BRK with no PBK, and a BRK whose innermost token is an SSY's */
START_TEST(test_brk_needs_pbk)
{
	char *m = NULL;
	int r = verify(HEAD
		"/*0000*/ @P0 BRK;\n"
		"/*0008*/ EXIT;\n", &m);
	ck_assert_int_eq(r, 1);
	ck_assert_ptr_nonnull(strstr(m, "/*0000*/: error: BRK whose innermost token is not a PBK's"));
	free(m);
	m = NULL;
	r = verify(HEAD
		"/*0000*/ SSY 0x18;\n"
		"/*0008*/ @P0 BRK;\n"
		"/*0010*/ NOP.S;\n"
		"/*0018*/ EXIT;\n", &m);
	ck_assert_int_eq(r, 1);
	ck_assert_ptr_nonnull(strstr(m, "/*0008*/: error: BRK whose innermost token is not a PBK's"));
	free(m);
}
END_TEST

/* a .S whose innermost token is a PBK's */
START_TEST(test_sync_not_into_pbk)
{
	char *m = NULL;
	int r = verify(HEAD
		"/*0000*/ PBK 0x18;\n"
		"/*0008*/ @P0 NOP.S;\n"
		"/*0010*/ BRK;\n"
		"/*0018*/ EXIT;\n", &m);
	ck_assert_int_eq(r, 1);
	ck_assert_ptr_nonnull(strstr(m, "/*0008*/: error: .S whose innermost token is a PBK's"));
	free(m);
}
END_TEST

/* a PBK inside the loop pushes a token per iteration; a path into the PBK target without
 * BRK; PCNT is still refused by name */
START_TEST(test_pbk_unbalanced)
{
	char *m = NULL;
	int r = verify(HEAD
		"/*0000*/ PBK 0x20;\n"
		"/*0008*/ @P1 BRK;\n"
		"/*0010*/ @!P0 BRA 0x0;\n"
		"/*0018*/ BRK;\n"
		"/*0020*/ EXIT;\n", &m);
	ck_assert_int_eq(r, 1);
	ck_assert_ptr_nonnull(strstr(m, "reached with two different CallReturnStacks"));
	free(m);
	m = NULL;
	r = verify(HEAD
		"/*0000*/ PBK 0x10;\n"
		"/*0008*/ MOV R0, R1;\n"
		"/*0010*/ EXIT;\n", &m);
	ck_assert_int_eq(r, 1);
	ck_assert_ptr_nonnull(strstr(m, "/*0008*/: error: a path reaches the sync point 0x10 without .S"));
	free(m);
	m = NULL;
	r = verify(HEAD
		"/*0000*/ PCNT 0x10;\n"
		"/*0008*/ CONT;\n"
		"/*0010*/ EXIT;\n", &m);
	ck_assert_int_eq(r, 1);
	ck_assert_ptr_nonnull(strstr(m, "/*0000*/: error: PCNT, PRET, PEXIT and CONT are not checked"));
	free(m);
}
END_TEST

static Suite *verify_suite(void)
{
	Suite *s = suite_create("verify_pbk");
	TCase *t = tcase_create("pbk");

	tcase_add_test(t, test_pbk_loop_clean);
	tcase_add_test(t, test_brk_needs_pbk);
	tcase_add_test(t, test_sync_not_into_pbk);
	tcase_add_test(t, test_pbk_unbalanced);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return ck_run(verify_suite());
}
