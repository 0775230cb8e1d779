/* test_multi.c - several launches in one run (docs/warpsim.md, "Several launches"): the
 * options split into launches at each --kernel after the first, a later launch starting with
 * the earlier one's device limits and nothing else; --buf and buf:NAME[+N] parsing; two
 * launches placed on one memory: a --buf buffer at one address for both, an argument buffer
 * of each launch its own, a module variable placed once and its value kept, its function words
 * written with the second kernel's addresses, a new heap size refused; the located messages
 * of dev_launch_msg. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "tests/unit/helper_check.h"

START_TEST(test_split)
{
	SimOpts o;
	char *argv[] = {"warpsim", "--grid", "2", "--stack-bytes", "4096", "--kernel", "a",
	                "--arg", "u32:1", "--buf", "x=u32:8", "--kernel", "b", "--block", "64",
	                "--kernel", "a", "--arg", "buf:x+3", NULL};
	FILE *null = fopen("/dev/null", "w");

	sim_opts_init(&o);
	ck_assert_int_eq(sim_opts_argv(&o, 19, argv, null), 0);
	ck_assert_int_eq(o.nprev, 2);
	ck_assert_str_eq(sim_opts_launch(&o, 0)->kernel, "a");
	ck_assert_uint_eq(sim_opts_launch(&o, 0)->grid[0], 2);   /* before the first --kernel */
	ck_assert_int_eq(sim_opts_launch(&o, 0)->nargs, 1);
	ck_assert_int_eq(sim_opts_launch(&o, 0)->nbufs, 1);
	ck_assert_str_eq(sim_opts_launch(&o, 0)->bufs[0].name, "x");
	ck_assert_str_eq(sim_opts_launch(&o, 1)->kernel, "b");
	ck_assert_uint_eq(sim_opts_launch(&o, 1)->grid[0], 1);   /* not inherited */
	ck_assert_uint_eq(sim_opts_launch(&o, 1)->block[0], 64);
	ck_assert_int_eq(sim_opts_launch(&o, 1)->nargs, 0);
	ck_assert_uint_eq(sim_opts_launch(&o, 1)->stack_bytes, 4096);   /* a device limit: kept */
	ck_assert_ptr_null(sim_opts_launch(&o, 1)->where);   /* (the command line) */
	ck_assert_ptr_eq(sim_opts_launch(&o, 2), &o.launch);
	ck_assert_str_eq(o.launch.args[0].bufname, "x");
	ck_assert_uint_eq(o.launch.args[0].bufoff, 3);
	ck_assert_int_eq(o.launch.args[0].isbuf, 1);
	sim_opts_free(&o);
	fclose(null);
}
END_TEST

START_TEST(test_parse)
{
	LaunchBuf b;
	LaunchArg a;
	char why[256], *name;
	uint64_t off;

	ck_assert_int_eq(dev_parse_buf("in=f32:100:iota", NULL, &b, why), 0);
	ck_assert_str_eq(b.name, "in");
	ck_assert_int_eq(b.a.type, TY_F32);
	ck_assert_uint_eq(b.a.count, 100);
	ck_assert_int_eq(b.a.init, INIT_IOTA);
	dev_buf_free(&b);
	ck_assert_int_eq(dev_parse_buf("u32=u32:4", NULL, &b, why), -1);      /* a type's name */
	ck_assert_int_eq(dev_parse_buf("1x=u32:4", NULL, &b, why), -1);
	ck_assert_int_eq(dev_parse_buf("x=y", NULL, &b, why), -1);            /* a reference */
	ck_assert_int_eq(dev_parse_buf("x=u32", NULL, &b, why), -1);
	ck_assert_int_eq(dev_parse_buf("x", NULL, &b, why), -1);
	ck_assert_int_eq(dev_parse_bufref("d_out+12", &name, &off), 0);
	ck_assert_str_eq(name, "d_out");
	ck_assert_uint_eq(off, 12);
	free(name);
	ck_assert_int_eq(dev_parse_bufref("d_out+", &name, &off), -1);
	ck_assert_int_eq(dev_parse_bufref("a-b", &name, &off), -1);
	ck_assert_int_eq(dev_parse_arg("buf:u32", NULL, &a, why), -1);         /* COUNT missing */
	ck_assert_int_eq(dev_parse_arg("buf:tbl", NULL, &a, why), 0);
	ck_assert_str_eq(a.bufname, "tbl");
	dev_arg_free(&a);
	ck_assert_int_eq(dev_parse_arg("struct:buf:tbl+1,u32:5", NULL, &a, why), 0);
	ck_assert_str_eq(a.fields[0].bufname, "tbl");
	ck_assert_uint_eq(a.size, 16);
	dev_arg_free(&a);
}
END_TEST

/* a kernel of one 8-byte parameter and the module variable g (16 bytes: a counter, then a
 * function word holding fword) */
static Kernel *kernel(Prog *p, const char *name, uint64_t fword)
{
	Kernel *k = isa_prog_add_kernel(p, name);
	uint8_t init[16] = {5};

	memcpy(init + 8, &fword, 8);
	isa_kernel_add_param(k, 0x20, 8, "p");
	isa_kernel_add_global(k, "g", 16, 8, init, 0xe, 0);
	k->globals[0].fwords = malloc(sizeof *k->globals[0].fwords);
	k->globals[0].fwords[0] = 8;
	k->globals[0].nfwords = 1;
	return k;
}

/* l, after prev (NULL: the first), with the --buf spec buf (or none) and the one argument arg */
static void launch(Launch *l, const Launch *prev, const char *buf, const char *arg)
{
	char why[256];

	if (prev)
		dev_launch_next(l, prev);
	else
		dev_launch_init(l);
	if (buf) {
		l->bufs = calloc(1, sizeof *l->bufs);
		ck_assert_int_eq(dev_parse_buf(buf, NULL, &l->bufs[0], why), 0);
		l->nbufs = 1;
	}
	l->args = calloc(1, sizeof *l->args);
	ck_assert_int_eq(dev_parse_arg(arg, NULL, &l->args[0], why), 0);
	l->nargs = 1;
}

START_TEST(test_place)
{
	Prog *p = isa_prog_new();
	Kernel *k1, *k2;
	FILE *null = fopen("/dev/null", "w");
	Launch l1, l2;
	Placed p1, p2;
	Mem m;
	uint64_t a1, a2, g;
	uint8_t *gp;

	kernel(p, "k1", 0x100);
	kernel(p, "k2", 0x200);
	k1 = &p->k[0], k2 = &p->k[1];       /* (the program's array moved for the second) */
	dev_mem_init(&m);
	launch(&l1, NULL, "x=u32:4:iota", "buf:x+1");
	ck_assert_int_eq(dev_launch_place(&m, k1, &l1, &p1, null), 0);
	ck_assert_int_eq(dev_mem_cread(&m, 0, 0x20, &a1, 8), 1);
	ck_assert_ptr_nonnull(dev_named_find(&m, "x"));
	ck_assert_uint_eq(a1, dev_named_find(&m, "x")->addr + 4);
	g = dev_mem_global_addr(&m, "g");
	gp = dev_mem_global(&m, g, 16);
	ck_assert_uint_eq(gp[0], 5);
	ck_assert_uint_eq(dev_ld(gp + 8, 8), 0x100);
	gp[0] = 42;                         /* the first launch's kernel writes it */

	launch(&l2, &l1, NULL, "buf:x");
	ck_assert_int_eq(dev_launch_place(&m, k2, &l2, &p2, null), 0);
	ck_assert_int_eq(dev_mem_cread(&m, 0, 0x20, &a2, 8), 1);
	ck_assert_uint_eq(a2, a1 - 4);      /* the same buffer */
	ck_assert_uint_eq(dev_mem_global_addr(&m, "g"), g);
	gp = dev_mem_global(&m, g, 16);
	ck_assert_uint_eq(gp[0], 42);       /* kept */
	ck_assert_uint_eq(dev_ld(gp + 8, 8), 0x200);   /* the second kernel's function address */
	dev_placed_free(&p2);
	dev_launch_free(&l2);

	/* a buffer declared twice, one no launch declared, a new heap size */
	launch(&l2, &l1, "x=u32:8", "buf:x");
	ck_assert_int_eq(dev_launch_place(&m, k2, &l2, &p2, null), -1);
	dev_placed_free(&p2);
	dev_launch_free(&l2);
	launch(&l2, &l1, NULL, "buf:y");
	ck_assert_int_eq(dev_launch_place(&m, k2, &l2, &p2, null), -1);
	dev_placed_free(&p2);
	ck_assert_int_eq(dev_heap_place(&m, 4096), 0);
	l2.args[0].bufname[0] = 'x';
	ck_assert_int_eq(dev_launch_place(&m, k2, &l2, &p2, null), -1);   /* 8 MB, not 4096 */
	dev_placed_free(&p2);
	l2.heap_bytes = 4096;
	ck_assert_int_eq(dev_launch_place(&m, k2, &l2, &p2, null), 0);
	dev_placed_free(&p2);
	dev_launch_free(&l2);

	dev_placed_free(&p1);
	dev_launch_free(&l1);
	dev_mem_free(&m);
	isa_prog_free(p);
	fclose(null);
}
END_TEST

START_TEST(test_msg)
{
	Launch l;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	dev_launch_init(&l);
	l.kernel = strdup("k2");
	l.where = strdup("run.launch:9");
	f = open_memstream(&text, &len);
	dev_launch_msg(f, &l, 1, 3, "warpsim: kernel 'k2' has 1 parameter\n", 0);
	dev_launch_msg(f, &l, 1, 3, "x.sass:4: error: fault\n    kernel 'k2', CTA (0,0,0)\n", 1);
	dev_launch_msg(f, &l, 1, 3, "", 1);   /* nothing to say */
	fclose(f);
	ck_assert_str_eq(text, "run.launch:9: error: launch 2 of 3 (kernel 'k2'): kernel 'k2' has "
	                 "1 parameter\nx.sass:4: error: fault\n    kernel 'k2', CTA (0,0,0)\n"
	                 "    in launch 2 of 3 (kernel 'k2', run.launch:9)\n");
	free(text);
	dev_launch_free(&l);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("multi");
	TCase *tc = tcase_create("multi");

	tcase_add_test(tc, test_split);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_place);
	tcase_add_test(tc, test_msg);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ck_run(suite());
}
