/* test_timing_config.c - the architecture configuration table: parsing, errors, printing,
 * and the three shipped architecture files (sim/configs/ *.cfg). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "sim/timing.h"
#include "tests/unit/helper_check.h"
#include "tests/unit/helper_sim.h"

/* text of what f printed */
static char *
printed(const TimingConfig *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	sim_tconfig_print(f, c);
	fclose(f);
	return buf;
}

static char *
loaderr(TimingConfig *c, const char *text, int *nerr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*nerr = sim_tconfig_load_text(c, "t.cfg", text, f);
	fclose(f);
	return buf;
}

START_TEST(test_defaults_check)
{
	TimingConfig c;
	char err[256];
	sim_tconfig_defaults(&c);
	ck_assert_int_eq(c.sms, 15);
	ck_assert_int_eq(c.schedulers, 2);
	ck_assert_int_eq(c.policy, SCHED_GTO);
	ck_assert_int_eq(c.unit[UNIT_SFU].units, 1);
	ck_assert_int_eq(c.unit[UNIT_SFU].interval, 8);
	ck_assert_int_eq(c.lat[LAT_ALU], 22);
	ck_assert_int_eq(c.l2.size, 786432);
	ck_assert_int_eq(c.max_cycles, 100000000);
	ck_assert_int_eq(sim_tconfig_check(&c, err, sizeof err), 0);
}
END_TEST

START_TEST(test_set_values_and_errors)
{
	TimingConfig c;
	char err[256];
	sim_tconfig_defaults(&c);
	ck_assert_int_eq(sim_tconfig_set(&c, "--sfu-latency", "20", err, sizeof err), 0);
	ck_assert_int_eq(c.lat[LAT_SFU], 20);
	ck_assert_int_eq(sim_tconfig_set(&c, "lsu-global-interval", "3", err, sizeof err), 0);
	ck_assert_int_eq(c.unit[UNIT_LSU_GLOBAL].interval, 3);
	ck_assert_int_eq(sim_tconfig_set(&c, "--scheduler", "two-level", err, sizeof err), 0);
	ck_assert_int_eq(c.policy, SCHED_TWOLEVEL);
	ck_assert_int_eq(sim_tconfig_set(&c, "--l1", "off", err, sizeof err), 0);
	ck_assert_int_eq(c.l1.enable, 0);
	ck_assert_int_eq(sim_tconfig_set(&c, "--shared-per-sm", "48K", err, sizeof err), 0);
	ck_assert_int_eq(c.shared, 49152);
	ck_assert_int_eq(sim_tconfig_set(&c, "--max-cycles", "5000000000", err, sizeof err), 0);
	ck_assert(c.max_cycles == 5000000000LL);

	ck_assert_int_eq(sim_tconfig_set(&c, "--sms", "abc", err, sizeof err), -1);
	ck_assert_str_eq(err, "--sms: expected an integer from 1 to 1024, got 'abc'");
	ck_assert_int_eq(sim_tconfig_set(&c, "--sms", "0", err, sizeof err), -1);
	ck_assert_str_eq(err, "--sms: expected an integer from 1 to 1024, got '0'");
	ck_assert_int_eq(sim_tconfig_set(&c, "--sms", "-3", err, sizeof err), -1);
	ck_assert_int_eq(sim_tconfig_set(&c, "--sms", "99999999999999999999", err, sizeof err), -1);
	ck_assert_int_eq(sim_tconfig_set(&c, "--sms", "", err, sizeof err), -1);
	ck_assert_int_eq(sim_tconfig_set(&c, "--scheduler", "fifo", err, sizeof err), -1);
	ck_assert_str_eq(err, "--scheduler: expected lrr, gto or two-level, got 'fifo'");
	ck_assert_int_eq(sim_tconfig_set(&c, "--l2", "maybe", err, sizeof err), -1);
	ck_assert_str_eq(err, "--l2: expected on or off, got 'maybe'");
	ck_assert_int_eq(sim_tconfig_set(&c, "--frobnicate", "1", err, sizeof err), -1);
	ck_assert_str_eq(err, "unknown option '--frobnicate'");
	ck_assert_int_eq(sim_tconfig_set(&c, "--sms", NULL, err, sizeof err), -1);
	ck_assert_str_eq(err, "--sms: expected a value");
	ck_assert_int_eq(c.sms, 15); /* failures change nothing */
	ck_assert_ptr_null(sim_tconfig_find("--nope"));
	ck_assert_ptr_nonnull(sim_tconfig_find("--dram-bandwidth"));
}
END_TEST

START_TEST(test_cross_checks)
{
	TimingConfig c;
	char err[256];
	sim_tconfig_defaults(&c);
	c.max_warps = 47;
	ck_assert_int_eq(sim_tconfig_check(&c, err, sizeof err), -1);
	ck_assert_str_eq(err, "--max-warps: 47 is not a multiple of --schedulers 2");
	sim_tconfig_defaults(&c);
	c.l2.size = 1000;
	ck_assert_int_eq(sim_tconfig_check(&c, err, sizeof err), -1);
	ck_assert_str_eq(err, "--l2-size: 1000 is not a multiple of line x assoc (128 x 8)");
	c.l2.enable = 0; /* a disabled level is not checked */
	ck_assert_int_eq(sim_tconfig_check(&c, err, sizeof err), 0);
	c.sector = 48;
	ck_assert_int_eq(sim_tconfig_check(&c, err, sizeof err), -1);
	sim_tconfig_defaults(&c);
	c.l1.line = 64;
	ck_assert_int_eq(sim_tconfig_check(&c, err, sizeof err), -1);
	ck_assert_str_eq(err, "--l1-line 64 differs from --segment-bytes 128");
}
END_TEST

/* printing gives a config file that reads back to the same values and prints identically */
START_TEST(test_print_roundtrip)
{
	TimingConfig a, b;
	char err[256];
	int nerr;
	sim_tconfig_defaults(&a);
	sim_tconfig_set(&a, "--scheduler", "lrr", err, sizeof err);
	sim_tconfig_set(&a, "--l1", "off", err, sizeof err);
	sim_tconfig_set(&a, "--sfu-interval", "5", err, sizeof err);
	char *t1 = printed(&a);
	ck_assert_ptr_nonnull(strstr(t1, "--sfu-interval         5          # cycles a sfu pipeline is busy per warp instruction\n"));
	ck_assert_ptr_nonnull(strstr(t1, "--scheduler            lrr        #"));
	memset(&b, 0, sizeof b);
	char *e = loaderr(&b, t1, &nerr);
	ck_assert_int_eq(nerr, 0);
	ck_assert_str_eq(e, "");
	ck_assert_int_eq(memcmp(&a, &b, sizeof a), 0);
	char *t2 = printed(&b);
	ck_assert_str_eq(t1, t2);
	/* one line per option */
	int lines = 0;
	for (char *p = t1; *p; p++)
		lines += *p == '\n';
	ck_assert_int_eq(lines, sim_ntopts);
	free(t1);
	free(t2);
	free(e);
}
END_TEST

START_TEST(test_load_text_diagnostics)
{
	TimingConfig c;
	int nerr;
	sim_tconfig_defaults(&c);
	char *e = loaderr(&c, "# comment\n\n  --sms 4   # four\n--sms=5\n", &nerr);
	ck_assert_int_eq(nerr, 0);
	ck_assert_int_eq(c.sms, 5);
	free(e);
	/* one format for every option file (opt/opt.c): "name value" is a line too */
	e = loaderr(&c, "--sms 4\nsms 3\n--alu-latency x12\n--nope 1\n--l1\n", &nerr);
	ck_assert_int_eq(nerr, 3);
	ck_assert_str_eq(e,
		"t.cfg:3:15: error: --alu-latency: expected an integer from 1 to 100000, got 'x12'\n"
		"    --alu-latency x12\n"
		"                  ^\n"
		"t.cfg:4:1: error: unknown option '--nope'\n"
		"    --nope 1\n"
		"    ^\n"
		"t.cfg:5:1: error: --l1: expected a value: on|off\n"
		"    --l1\n"
		"    ^\n");
	ck_assert_int_eq(c.sms, 3);
	free(e);
}
END_TEST

START_TEST(test_load_missing_file)
{
	TimingConfig c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	sim_tconfig_defaults(&c);
	ck_assert_int_eq(sim_tconfig_load(&c, "sim/configs/none.cfg", f), 1);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "cannot read 'sim/configs/none.cfg'"));
	free(buf);
}
END_TEST

/* every shipped file sets every option exactly once, cites a source on every option line,
 * and passes the cross checks */
static void
check_file(const char *path, TimingConfig *c)
{
	char err[256];
	TimingConfig sent;
	memset(&sent, 0x5a, sizeof sent);
	*c = sent;
	ck_assert_int_eq(helper_load_config(c, NULL, path, stderr), 0);
	for (int i = 0; i < sim_ntopts; i++) {
		const OptRow *o = &sim_topts[i];
		size_t sz = o->kind == OPT_LONG ? sizeof(long long) : sizeof(int);
		ck_assert_msg(memcmp((char *)c + o->off, (char *)&sent + o->off, sz) != 0,
		              "%s does not set --%s", path, o->name);
	}
	ck_assert_msg(sim_tconfig_check(c, err, sizeof err) == 0, "%s: %s", path, err);

	FILE *f = fopen(path, "r");
	char line[512];
	int seen[256] = {0};
	int cited = strstr(path, "teaching") == NULL;
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "--", 2) != 0)
			continue;
		char key[64];
		sscanf(line, "%63s", key);
		const OptRow *o = sim_tconfig_find(key);
		int be = 0;
		for (int i = 0; i < be_nopt_rows && !o; i++)
			be |= strcmp(key + 2, be_opt_rows[i].name) == 0;  /* kepler.cfg's if-conversion */
		ck_assert_msg(o || be, "%s: not an option of a config file: %s", path, key);
		if (o)
			seen[o - sim_topts]++;
		if (cited)
			ck_assert_msg(strstr(line, "# [") != NULL, "%s: no source on: %s", path, line);
	}
	fclose(f);
	for (int i = 0; i < sim_ntopts; i++)
		ck_assert_msg(seen[i] == 1, "%s sets --%s %d times", path, sim_topts[i].name, seen[i]);
}

START_TEST(test_fermi_is_default)
{
	TimingConfig c, d;
	check_file("sim/configs/fermi.cfg", &c);
	sim_tconfig_defaults(&d);
	char *a = printed(&c), *b = printed(&d);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
}
END_TEST

START_TEST(test_kepler)
{
	TimingConfig c;
	char err[256];
	check_file("sim/configs/kepler.cfg", &c);
	/* the if-conversion rule fitted on ptxas 11.8 for sm_35; fermi.cfg keeps the Guide's */
	BeOptions be;
	be_options_default(&be);
	ck_assert_int_eq(helper_load_config(&c, &be, "sim/configs/kepler.cfg", stderr), 0);
	ck_assert_int_eq(be.predicate_rule, BE_RULE_SM35);
	ck_assert_int_eq(be.predicate_max, 8);
	ck_assert_int_eq(be.predicate_max_uniform, 6);
	be_options_default(&be);
	ck_assert_int_eq(helper_load_config(&c, &be, "sim/configs/fermi.cfg", stderr), 0);
	ck_assert_int_eq(be.predicate_rule, BE_RULE_GUIDE);
	ck_assert_int_eq(be.predicate_max, 7);
	ck_assert_int_eq(be.predicate_max_uniform, 4);
	check_file("sim/configs/kepler.cfg", &c);
	ck_assert_int_eq(c.sms, 14);
	ck_assert_int_eq(c.schedulers, 4);
	ck_assert_int_eq(c.issue_width, 2);
	ck_assert_int_eq(c.max_regs, 255);
	ck_assert_int_eq(c.regs, 65536);
	ck_assert_int_eq(c.max_warps, 64);
	ck_assert_int_eq(c.max_ctas, 16);
	ck_assert_int_eq(c.lat[LAT_ALU], 9);
	ck_assert_int_eq(c.lat[LAT_GLOBAL], 331);
	/* GK110: L1 serves local memory only, ld.global.nc goes through the read-only cache */
	ck_assert_int_eq(c.l1.enable, 1);
	ck_assert_int_eq(sim_cache_path(&c, COP_CA), CPATH_L2);
	ck_assert_int_eq(sim_cache_path(&c, COP_LOCAL), CPATH_L1);
	ck_assert_int_eq(sim_cache_path(&c, COP_NC), CPATH_RO);
	ck_assert_int_eq(c.ro.latency, 112);
	/* --config F then further options override */
	ck_assert_int_eq(sim_tconfig_set(&c, "--sfu-latency", "20", err, sizeof err), 0);
	ck_assert_int_eq(c.lat[LAT_SFU], 20);
}
END_TEST

START_TEST(test_teaching)
{
	TimingConfig c;
	check_file("sim/configs/teaching.cfg", &c);
	ck_assert_int_eq(c.sms, 1);
	ck_assert_int_eq(c.schedulers, 1);
	ck_assert_int_eq(c.policy, SCHED_LRR);
	ck_assert_int_eq(c.lat[LAT_ALU], 4);
	ck_assert_int_eq(c.unit[UNIT_SFU].interval, 4);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("timing_config");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_defaults_check);
	tcase_add_test(tc, test_set_values_and_errors);
	tcase_add_test(tc, test_cross_checks);
	tcase_add_test(tc, test_print_roundtrip);
	tcase_add_test(tc, test_load_text_diagnostics);
	tcase_add_test(tc, test_load_missing_file);
	tcase_add_test(tc, test_fermi_is_default);
	tcase_add_test(tc, test_kepler);
	tcase_add_test(tc, test_teaching);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
