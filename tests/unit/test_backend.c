/* test_backend.c - Check tests of the translator's analyses on hand-built CFGs (dominators,
 * post-dominators with several exits and infinite loops, natural loops) and of the
 * uniformity analysis through the decision log. Execution tests are in test_backend_run.c. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"
#include "tests/unit/helper_check.h"

#define X (-2)  /* in a spec: the block ends the thread */

/* a function of n blocks; succ[i] = {s1, s2}: s1 = X exit, s2 = -1 unconditional */
static Fn *mkfn(int n, const int (*succ)[2])
{
	Fn *f = calloc(1, sizeof *f);

	f->pool = be_pool_new();
	for (int i = 0; i < n; i++)
		be_newblk(f);
	for (int i = 0; i < n; i++) {
		Blk *b = &f->blk[i];
		if (succ[i][0] == X) {
			b->jmp.kind = J_EXIT;
		} else if (succ[i][1] < 0) {
			b->jmp.kind = J_JMP;
			b->s1 = succ[i][0];
		} else {
			b->jmp.kind = J_BRA;
			b->jmp.cond = T_PT;
			b->s1 = succ[i][0];
			b->s2 = succ[i][1];
		}
	}
	be_preds(f);
	be_rpo(f);
	be_dom(f);
	be_postdom(f);
	be_loops(f);
	return f;
}

static void rmfn(Fn *f)
{
	be_pool_free(f->pool);
	free(f);
}

START_TEST(diamond)
{
	static const int s[][2] = {{1, 2}, {3, -1}, {3, -1}, {X, -1}};
	Fn *f = mkfn(4, s);
	ck_assert_int_eq(f->blk[1].idom, 0);
	ck_assert_int_eq(f->blk[2].idom, 0);
	ck_assert_int_eq(f->blk[3].idom, 0);
	ck_assert_int_eq(f->blk[0].ipdom, 3);
	ck_assert_int_eq(f->blk[1].ipdom, 3);
	ck_assert_int_eq(f->blk[2].ipdom, 3);
	ck_assert_int_eq(f->blk[3].ipdom, 4);   /* the virtual exit */
	ck_assert_int_eq(f->nloops, 0);
	rmfn(f);
}
END_TEST

START_TEST(while_loop)
{
	/* 0 -> 1 (header) -> 2 (body) -> 1; 1 -> 3 exit */
	static const int s[][2] = {{1, -1}, {2, 3}, {1, -1}, {X, -1}};
	Fn *f = mkfn(4, s);
	ck_assert_int_eq(f->blk[2].idom, 1);
	ck_assert_int_eq(f->blk[3].idom, 1);
	ck_assert_int_eq(f->blk[1].ipdom, 3);
	ck_assert_int_eq(f->blk[2].ipdom, 1);
	ck_assert_int_eq(f->nloops, 1);
	ck_assert_int_eq(f->loops[0].header, 1);
	ck_assert(be_in_loop(f, 0, 2));
	ck_assert(!be_in_loop(f, 0, 3));
	ck_assert(!be_in_loop(f, 0, 0));
	ck_assert_int_eq(f->blk[2].loop, 0);
	ck_assert_int_eq(f->blk[3].loop, -1);
	rmfn(f);
}
END_TEST

START_TEST(several_exits)
{
	/* 0 -> 1 | 2; 1 exits; 2 -> 3 | 4; 3 and 4 exit: the paths never meet */
	static const int s[][2] = {{1, 2}, {X, -1}, {3, 4}, {X, -1}, {X, -1}};
	Fn *f = mkfn(5, s);
	ck_assert_int_eq(f->blk[0].ipdom, 5);
	ck_assert_int_eq(f->blk[2].ipdom, 5);
	ck_assert_int_eq(f->blk[3].ipdom, 5);
	ck_assert_int_eq(f->blk[4].idom, 2);
	ck_assert_int_eq(f->blk[3].idom, 2);
	rmfn(f);
}
END_TEST

START_TEST(infinite_loop)
{
	/* 0 -> 1 | 4; 1 -> 2 -> 3 -> 1 never leaves; 4 exits */
	static const int s[][2] = {{1, 4}, {2, -1}, {3, -1}, {1, -1}, {X, -1}};
	Fn *f = mkfn(5, s);
	for (int i = 0; i < 5; i++)
		ck_assert_msg(f->blk[i].ipdom >= 0, "block %d has no post-dominator", i);
	ck_assert_int_eq(f->blk[0].ipdom, 5);
	ck_assert_int_eq(f->blk[4].ipdom, 5);
	/* inside the loop the post-dominator tree is a chain through the loop's blocks */
	for (int i = 1; i <= 3; i++)
		ck_assert(f->blk[i].ipdom == 5 || (f->blk[i].ipdom >= 1 && f->blk[i].ipdom <= 3));
	ck_assert_int_eq(f->nloops, 1);
	ck_assert_int_eq(f->loops[0].header, 1);
	rmfn(f);
}
END_TEST

START_TEST(irreducible)
{
	/* 0 -> 1 | 2, 1 -> 2 | 3, 2 -> 1: a cycle with two entries is no natural loop */
	static const int s[][2] = {{1, 2}, {2, 3}, {1, -1}, {X, -1}};
	Fn *f = mkfn(4, s);
	ck_assert_int_eq(f->blk[1].idom, 0);
	ck_assert_int_eq(f->blk[2].idom, 0);
	ck_assert_int_eq(f->blk[3].idom, 1);
	ck_assert_int_eq(f->nloops, 0);
	ck_assert_int_eq(f->blk[0].ipdom, 1);
	ck_assert_int_eq(f->blk[2].ipdom, 1);
	rmfn(f);
}
END_TEST

START_TEST(unreachable)
{
	/* block 2 is unreachable: dead, and no part of anything */
	static const int s[][2] = {{1, -1}, {X, -1}, {1, -1}};
	Fn *f = mkfn(3, s);
	ck_assert(f->blk[2].dead);
	ck_assert(!f->blk[1].dead);
	ck_assert_int_eq(f->blk[1].idom, 0);
	ck_assert_int_eq(f->blk[0].ipdom, 1);
	rmfn(f);
}
END_TEST

/* ------------------------------------------------------------------ uniformity */
static const char *uni_ptx =
	".version 7.0\n.target sm_70\n.address_size 64\n"
	".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
	".reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\n"
	"mov.u32 %r2, %tid.x;\nmov.u32 %r3, %ctaid.x;\n"
	"mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
	"setp.lt.u32 %p1, %r2, 5;\n"                  /* line 11: tid: divergent */
	"@%p1 bra A;\nst.global.u32 [%rd3], 1;\nA:\n"
	"setp.lt.u32 %p2, %r3, %r1;\n"                /* line 15: ctaid vs parameter: uniform */
	"@%p2 bra B;\nst.global.u32 [%rd3], 2;\nB:\n"
	"ld.global.u32 %r4, [%rd1];\n"                /* a load through a uniform address */
	"setp.eq.u32 %p3, %r4, 7;\n"
	"@%p3 bra C;\nst.global.u32 [%rd3], 3;\nC:\n"
	"add.u32 %r5, %r2, %r3;\n"                    /* tid + ctaid: divergent */
	"setp.eq.u32 %p4, %r5, 3;\n"
	"@%p4 bra.uni D;\nst.global.u32 [%rd3], 4;\nD:\n" /* but written .uni */
	"mov.u32 %r6, 0;\n"
	"@%p1 mov.u32 %r6, 1;\n"                      /* guarded by a divergent predicate */
	"setp.eq.u32 %p5, %r6, 0;\n"
	"@%p5 bra E;\nst.global.u32 [%rd3], 5;\nE:\nst.global.u32 [%rd1], 6;\n"
	"ret;\n}\n";

/* text (one kernel) translated with nothing predicated: its n conditional branches are
 * uniform as want says (a uniform one decided so, a divergent one not); the decision log
 * left in log, to be freed with be_log_free */
static void check_uniform(const char *text, const int *want, int n, BeLog *log)
{
	Module *m = ptx_parse("u.ptx", text, strlen(text), stderr, NULL);
	BeOptions o;
	Prog *p;

	ck_assert_ptr_nonnull(m);
	be_options_default(&o);
	o.predicate_max = o.predicate_max_uniform = 0;
	p = be_translate_log(m, &o, stderr, log);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(log->n, n);
	for (int i = 0; i < n; i++) {
		ck_assert_msg(log->e[i].uniform == want[i], "branch %d at line %d: uniform %d (%s)", i,
		              log->e[i].ptxline, log->e[i].uniform, log->e[i].why_uniform);
		ck_assert(want[i] ? log->e[i].decision == BD_BRANCH_UNIFORM :
		          log->e[i].decision != BD_BRANCH_UNIFORM);
	}
	isa_prog_free(p);
	ptx_free(m);
}

START_TEST(uniformity)
{
	BeLog log = {0};
	static const int want[5] = {0, 1, 1, 1, 0};

	check_uniform(uni_ptx, want, 5, &log);
	ck_assert(strstr(log.e[0].why_uniform, "%p1 depends on") != NULL);
	ck_assert(strstr(log.e[4].why_uniform, "%p5") != NULL);
	ck_assert(strstr(log.e[3].why_uniform, ".uni") != NULL);
	be_log_free(&log);
}
END_TEST

/* uniformity per definition (backend/reach.c): a register written at several places holds
 * several values, and a branch reads those that reach it. %r3 is the parameter n, then
 * %tid + n: the branch on the first is uniform. Control dependence stays: %r4 written a
 * uniform value under a divergent branch is divergent after its join, and so is %r5, written
 * on one side of a divergent branch in a loop and tested on the other side in a later trip
 * (read nowhere outside the branch's region: its definition reaches the join, where it is
 * live). The loop's counter %r6 is uniform; the carry out of %tid - 1 is not */
static const char *perdef_ptx =
	".version 7.0\n.target sm_70\n.address_size 64\n"
	".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
	".reg .pred %p<10>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\nmov.u32 %r2, %tid.x;\n"
	"mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
	"mov.u32 %r3, %r1;\n"
	"setp.eq.u32 %p1, %r3, 0;\n@%p1 bra A;\nst.global.u32 [%rd3], 1;\nA:\n"   /* uniform */
	"add.u32 %r3, %r3, %r2;\n"
	"setp.eq.u32 %p2, %r3, 0;\n@%p2 bra B;\nst.global.u32 [%rd3], 2;\nB:\n"   /* divergent */
	"mov.u32 %r4, 0;\nsetp.lt.u32 %p3, %r2, 7;\n@%p3 bra C;\nmov.u32 %r4, 1;\nC:\n"
	"setp.eq.u32 %p4, %r4, 0;\n@%p4 bra D;\nst.global.u32 [%rd3], 4;\nD:\n"   /* divergent */
	"mov.u32 %r5, 0;\nmov.u32 %r6, 1;\n"
	"E:\nand.b32 %r7, %r2, %r6;\nsetp.ne.u32 %p5, %r7, 0;\n@%p5 bra T;\n"
	"setp.ne.u32 %p6, %r5, 0;\n@%p6 bra J;\nst.global.u32 [%rd3], 5;\nbra.uni J;\n"
	"T:\nmov.u32 %r5, %r6;\n"
	"J:\nshl.b32 %r6, %r6, 1;\nsetp.lt.u32 %p7, %r6, %r1;\n@%p7 bra E;\n"   /* uniform */
	"add.cc.u32 %r8, %r2, -1;\naddc.u32 %r9, 0, 0;\n"   /* the carry of %tid - 1 */
	"setp.ne.u32 %p8, %r9, 0;\n@%p8 bra F;\nst.global.u32 [%rd3], 7;\nF:\n"   /* divergent */
	"st.global.u32 [%rd1], 6;\nret;\n}\n";

START_TEST(uniformity_per_def)
{
	BeLog log = {0};
	static const int want[8] = {1, 0, 0, 0, 0, 0, 1, 0};

	check_uniform(perdef_ptx, want, 8, &log);
	ck_assert(strstr(log.e[3].why_uniform, "%p4 depends on %r4") != NULL);
	ck_assert(strstr(log.e[5].why_uniform, "%p6 depends on %r5") != NULL);
	ck_assert(strstr(log.e[7].why_uniform, "%p8 depends on %r9") != NULL);
	be_log_free(&log);
}
END_TEST

/* a load from local memory (uniform.c's local_mem) is uniform where every store that may
 * write the thread's local memory stores a uniform value at a uniform address, under no
 * divergent guard and in no divergent branch's region, in a kernel without calls; with a
 * cvta.local, generic stores count as well (and a generic load reads local memory). ptxas
 * 11.8 decides each kernel alike (tests/ptx/ld_uni) */
#define LU_HEAD(name) ".visible .entry " name "(.param .u64 out, .param .u32 k)\n{\n" \
	".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.local .align 4 .b8 buf[64];\n" \
	"ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [k];\nmov.u32 %r2, %tid.x;\n" \
	"mov.u64 %rd4, buf;\nand.b32 %r3, %r1, 15;\nmul.wide.u32 %rd5, %r3, 4;\n" \
	"add.s64 %rd6, %rd4, %rd5;\nst.local.u32 [%rd4+4], %r1;\nst.local.u32 [%rd6], %r3;\n"
#define LU_TAIL "setp.eq.u32 %p1, %r5, 0;\n@%p1 bra A;\nst.global.u32 [%rd1], 1;\nA:\n" \
	"st.global.u32 [%rd1+4], 2;\nret;\n}\n"
static const char *ldloc_ptx =
	".version 7.8\n.target sm_35\n.address_size 64\n"
	".func g()\n{\nret;\n}\n"
	LU_HEAD("lu")   /* uniform: a generic store too */
	"cvta.local.u64 %rd7, %rd4;\nst.u32 [%rd7+8], %r1;\nld.local.u32 %r5, [%rd6+4];\n" LU_TAIL
	LU_HEAD("ldv")   /* %tid stored in another word */
	"st.local.u32 [%rd4+60], %r2;\nld.local.u32 %r5, [%rd6];\n" LU_TAIL
	LU_HEAD("lda")   /* a uniform value at a divergent address */
	"and.b32 %r6, %r2, 15;\nmul.wide.u32 %rd8, %r6, 4;\nadd.s64 %rd9, %rd4, %rd8;\n"
	"st.local.u32 [%rd9], %r1;\nld.local.u32 %r5, [%rd6];\n" LU_TAIL
	LU_HEAD("ldr")   /* a uniform value stored on one side of a divergent branch */
	"setp.lt.u32 %p2, %r2, 5;\n@%p2 bra B;\nst.local.u32 [%rd4+8], %r1;\nB:\n"
	"ld.local.u32 %r5, [%rd6];\n" LU_TAIL
	LU_HEAD("ldc")   /* a call */
	"call g, ();\nld.local.u32 %r5, [%rd6];\n" LU_TAIL
	LU_HEAD("ldg")   /* %tid stored and loaded back through a generic address */
	"cvta.local.u64 %rd7, %rd4;\nst.u32 [%rd7+8], %r2;\nld.u32 %r5, [%rd7+8];\n" LU_TAIL;

START_TEST(uniformity_local)
{
	BeLog log = {0};
	static const int want[7] = {1, 0, 0, 0, 0, 0, 0};   /* ldr: its own branch, then the load's */

	check_uniform(ldloc_ptx, want, 7, &log);
	for (int i = 1; i < 7; i++)
		ck_assert(i == 3 || strstr(log.e[i].why_uniform, "%p1 depends on %r5") != NULL);
	be_log_free(&log);
}
END_TEST

/* --func-params callers: a .func parameter is uniform in a kernel whose every call passes a
 * uniform value (a kernel parameter through a .param local, through a .func that passes its
 * own parameter on, or as a register); divergent when some call passes %tid, or writes the
 * .param local under a divergent guard; every parameter divergent when the function's address
 * is taken (an indirect call may pass anything), and under the default --func-params */
static const char *fp_funcs =
	".version 7.8\n.target sm_35\n.address_size 64\n"
	".func (.param .b32 r) f(.param .b32 a)\n{\n"
	".reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
	"ld.param.u32 %r1, [a];\nmov.u32 %r2, 0;\n"
	"setp.lt.u32 %p1, %r1, 16;\n@%p1 bra J;\nadd.u32 %r2, %r1, 5;\nJ:\n"
	"st.param.b32 [r], %r2;\nret;\n}\n"
	".func (.param .b32 r) pass(.param .b32 a)\n{\n"
	".reg .b32 %r<4>;\nld.param.u32 %r1, [a];\n"
	"{\n.param .b32 p0;\nst.param.b32 [p0], %r1;\n.param .b32 rv;\n"
	"call.uni (rv), f, (p0);\nld.param.b32 %r2, [rv];\n}\n"
	"st.param.b32 [r], %r2;\nret;\n}\n";
static const char *fp_kernel =   /* then the st.param, the call's callee and arguments */
	".visible .entry kf(.param .u64 out, .param .u32 k)\n{\n"
	".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [k];\nmov.u32 %r2, %tid.x;\n"
	"setp.lt.u32 %p1, %r2, 3;\n"
	"{\n.param .b32 p0;\n";
static const char *fp_end =
	";\nld.param.b32 %r3, [rv];\n}\n"
	"cvta.to.global.u64 %rd2, %rd1;\nst.global.u32 [%rd2], %r3;\nret;\n}\n";

/* the uniformity of the branch of function func in the module text, translated under
 * --func-params fp (every entry made for kernel kernel) */
static int uniform_in(const char *text, int fp, const char *func, const char *kernel)
{
	Module *m = ptx_parse("fp.ptx", text, strlen(text), stderr, NULL);
	BeOptions o;
	BeLog log = {0};
	Prog *p;
	int uni = -1;

	ck_assert_ptr_nonnull(m);
	be_options_default(&o);
	o.func_params = fp;
	o.predicate_max = o.predicate_max_uniform = 0;
	p = be_translate_log(m, &o, stderr, &log);
	ck_assert_ptr_nonnull(p);
	for (int i = 0; i < log.n; i++)
		if (!strcmp(log.e[i].func, func)) {
			ck_assert_str_eq(log.e[i].kernel, kernel);
			uni = log.e[i].uniform;
		}
	be_log_free(&log);
	isa_prog_free(p);
	ptx_free(m);
	return uni;
}

/* the uniformity of f's branch when kernel kf passes its argument so (store: the st.param
 * into p0, callee: f or pass, arg: the argument list), extra PTX before the kernel */
static int fp_uniform(int fp, const char *extra, const char *store, const char *callee,
                      const char *arg)
{
	char text[4096];

	snprintf(text, sizeof text, "%s%s%s%s\n.param .b32 rv;\ncall.uni (rv), %s, (%s)%s", fp_funcs,
	         extra, fp_kernel, store, callee, arg, fp_end);
	return uniform_in(text, fp, "f", "kf");
}

START_TEST(func_params)
{
	static const char *addr = ".global .align 8 .u64 fptr = f;\n";

	ck_assert_int_eq(fp_uniform(BE_FP_CALLERS, "", "st.param.b32 [p0], %r1;", "f", "p0"), 1);
	ck_assert_int_eq(fp_uniform(BE_FP_CALLERS, "", "st.param.b32 [p0], %r1;", "pass", "p0"), 1);
	ck_assert_int_eq(fp_uniform(BE_FP_CALLERS, "", "", "f", "%r1"), 1);
	ck_assert_int_eq(fp_uniform(BE_FP_CALLERS, "", "st.param.b32 [p0], %r2;", "f", "p0"), 0);
	ck_assert_int_eq(fp_uniform(BE_FP_CALLERS, "", "st.param.b32 [p0], %r2;", "pass", "p0"), 0);
	ck_assert_int_eq(fp_uniform(BE_FP_CALLERS, "", "st.param.b32 [p0], %r1;\n"
	                            "@%p1 st.param.b32 [p0], 0;", "f", "p0"), 0);
	ck_assert_int_eq(fp_uniform(BE_FP_CALLERS, addr, "st.param.b32 [p0], %r1;", "f", "p0"), 0);
	ck_assert_int_eq(fp_uniform(BE_FP_DIVERGENT, "", "st.param.b32 [p0], %r1;", "f", "p0"), 0);
}
END_TEST

/* a call's results (nvcc's `call (rv), g, ...; ld.param %r, [rv]`): divergent, as a value
 * per lane may come back (malloc's pointer, a function of %tid); under --func-params callers
 * uniform when the callee returns a uniform value with no divergent branch on the way */
static const char *cr_funcs =
	".version 7.8\n.target sm_35\n.address_size 64\n"
	".func (.param .b32 r) g(.param .b32 a)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
	"ld.param.u32 %r1, [a];\n";
static const char *cr_kernel =   /* after g's result: st.param, ret, the kernel */
	"st.param.b32 [r], %r2;\nret;\n}\n"
	".visible .entry kc(.param .u64 out, .param .u32 k)\n{\n"
	".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [k];\n"
	"{\n.param .b32 p0;\nst.param.b32 [p0], %r1;\n.param .b32 rv;\n"
	"call.uni (rv), g, (p0);\nld.param.b32 %r3, [rv];\n}\n"
	"setp.lt.u32 %p1, %r3, 16;\n@%p1 bra J;\n"
	"cvta.to.global.u64 %rd2, %rd1;\nst.global.u32 [%rd2], %r3;\nJ:\nret;\n}\n";

/* the uniformity of kc's branch on g's result, g's result made by body */
static int cr_uniform(int fp, const char *body)
{
	char text[4096];

	snprintf(text, sizeof text, "%s%s%s", cr_funcs, body, cr_kernel);
	return uniform_in(text, fp, "kc", "kc");
}

START_TEST(call_results)
{
	static const char *same = "mul.lo.s32 %r2, %r1, %r1;\n";
	static const char *lane = "mov.u32 %r3, %tid.x;\nadd.s32 %r2, %r1, %r3;\n";
	static const char *branchy = "mov.u32 %r3, %tid.x;\nmov.u32 %r2, %r1;\n"
	                             "setp.lt.u32 %p1, %r3, 4;\n@%p1 bra E;\nmov.u32 %r2, 9;\nE:\n";

	ck_assert_int_eq(cr_uniform(BE_FP_DIVERGENT, same), 0);
	ck_assert_int_eq(cr_uniform(BE_FP_CALLERS, same), 1);
	ck_assert_int_eq(cr_uniform(BE_FP_CALLERS, lane), 0);
	ck_assert_int_eq(cr_uniform(BE_FP_CALLERS, branchy), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("backend");
	TCase *g = tcase_create("graphs"), *u = tcase_create("uniformity");

	tcase_add_test(g, diamond);
	tcase_add_test(g, while_loop);
	tcase_add_test(g, several_exits);
	tcase_add_test(g, infinite_loop);
	tcase_add_test(g, irreducible);
	tcase_add_test(g, unreachable);
	tcase_add_test(u, uniformity);
	tcase_add_test(u, uniformity_per_def);
	tcase_add_test(u, uniformity_local);
	tcase_add_test(u, func_params);
	tcase_add_test(u, call_results);
	suite_add_tcase(s, g);
	suite_add_tcase(s, u);
	return ck_run(s);
}
