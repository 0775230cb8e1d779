/* test_cli_kernels.c - cli/kernels.c, the kernels of a run each once in launch order, the one
 * numbering that --explore's branches, --line-stats' sums and --report's source parts share:
 * launches a, a, b, a, c are kernels 0, 0, 1, 0, 2 (a kernel is its name, so b is kernel 1
 * though it is launch 2), first launched at 0, 2 and 4; one launch naming no kernel is one
 * kernel without a name. */
#include <check.h>
#include <stdio.h>
#include "cli/cli.h"
#include "tests/unit/helper_check.h"

START_TEST(test_order)
{
	SimOpts o;
	CliKernels ks;
	char *argv[] = {"warpsim", "--kernel", "a", "--kernel", "a", "--grid", "2", "--kernel", "b",
	                "--kernel", "a", "--kernel", "c", NULL};
	static const int of[] = {0, 0, 1, 0, 2}, first[] = {0, 2, 4};
	FILE *null = fopen("/dev/null", "w");

	sim_opts_init(&o);
	ck_assert_int_eq(sim_opts_argv(&o, 13, argv, null), 0);
	ck_assert_int_eq(cli_kernels(&o, &ks, null), 0);
	ck_assert_int_eq(ks.nlaunches, 5);
	ck_assert_int_eq(ks.n, 3);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(ks.of[i], of[i]);
	for (int j = 0; j < 3; j++) {
		ck_assert_int_eq(ks.first[j], first[j]);
		ck_assert_str_eq(ks.name[j], sim_opts_launch(&o, first[j])->kernel);
	}
	ck_assert_str_eq(ks.name[1], "b");
	cli_kernels_free(&ks);
	ck_assert_ptr_null(ks.of);
	sim_opts_free(&o);
	fclose(null);
}
END_TEST

START_TEST(test_one)
{
	SimOpts o;
	CliKernels ks;
	char *argv[] = {"warpsim", "--grid", "4", NULL};
	FILE *null = fopen("/dev/null", "w");

	sim_opts_init(&o);
	ck_assert_int_eq(sim_opts_argv(&o, 3, argv, null), 0);
	ck_assert_int_eq(cli_kernels(&o, &ks, null), 0);
	ck_assert_int_eq(ks.nlaunches, 1);
	ck_assert_int_eq(ks.n, 1);
	ck_assert_int_eq(ks.of[0], 0);
	ck_assert_int_eq(ks.first[0], 0);
	ck_assert_ptr_null(ks.name[0]);
	cli_kernels_free(&ks);
	sim_opts_free(&o);
	fclose(null);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cli_kernels");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_one);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ck_run(suite());
}
