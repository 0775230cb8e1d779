/* test_cfold.c - Check tests of the constant branches (backend/cfold.c): the tests nvcc's
 * inlined pow makes of its constant exponent fold away with their dead blocks, a selp of a
 * constant predicate is a copy, a fold that kills a definition lets a second branch fold, a
 * constant guard is dropped (or its instruction), float arithmetic of constants folds as
 * IEEE 754 rounds it (not into a NaN, an f32 subnormal, under .ftz or a directed rounding),
 * and a .const word (a launch may write it) is never a constant. Every SM run must agree with the
 * oracle. Runs from the top of the tree (make check). */
#include <check.h>
#include <stdint.h>
#include "tests/unit/test_backend.h"
#include "tests/unit/helper_check.h"

#define HDR ".version 7.8\n.target sm_35\n.address_size 64\n"
#define HEAD ".visible .entry k(.param .u64 po)\n{\n.reg .pred %p<16>;\n.reg .b32 %r<32>;\n" \
	".reg .f64 %fd<16>;\n.reg .b64 %rd<8>;\nmov.u32 %r1, %tid.x;\nld.param.u64 %rd1, [po];\n" \
	"mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd1, %rd1, %rd2;\n"

/* ptx run on the SM model and the oracle, translated and agreeing */
static BeRun *run_ok(const char *ptx, const char *launch)
{
	BeRun *r = be_run(ptx, launch, 0, 7);

	ck_assert_msg(r->p != NULL, "%s", r->err);
	ck_assert_msg(be_same(r), "%s", r->listing);
	return r;
}

#define LAUNCH "--grid 1 --block 64 --arg buf:u32:64:zero"

/* ptx run as run_ok does under LAUNCH: lane's word is want, and the listing holds none of
 * the texts gone (NULL-terminated): what the fold removed */
static void expect_folded(const char *ptx, int lane, uint64_t want, const char *const *gone)
{
	BeRun *r = run_ok(ptx, LAUNCH);

	ck_assert_uint_eq(be_get(r, 0, lane), want);
	for (; *gone; gone++)
		ck_assert_msg(!strstr(r->listing, *gone), "%s in:\n%s", *gone, r->listing);
	be_run_free(r);
}

/* pow(x, 2.0)'s tests: the exponent's high word masked and compared (false), and'ed with a
 * test of the lane, negated, branched on; cvt.rzi of the exponent compared with it (true)
 * over a block that stores NaN's high word. No branch, SSY or NaN is left */
START_TEST(pow_tests)
{
	static const char *ptx = HDR HEAD
		"mov.f64 %fd1, 0d4000000000000000;\n"
		"{\n.reg .b32 %temp;\nmov.b64 {%temp, %r3}, %fd1;\n}\n"
		"and.b32 %r4, %r3, 2146435072;\nsetp.eq.s32 %p1, %r4, 1062207488;\n"
		"setp.lt.u32 %p2, %r1, 20;\nand.pred %p3, %p2, %p1;\nnot.pred %p4, %p3;\n"
		"mov.u32 %r5, %r1;\n@%p4 bra $L1;\nmul.lo.s32 %r5, %r1, 7;\nadd.s32 %r5, %r5, 3;\n"
		"xor.b32 %r5, %r5, 99;\n$L1:\n"
		"setp.gt.u32 %p5, %r1, 40;\n@%p5 bra $L2;\n"
		"cvt.rzi.f64.f64 %fd2, %fd1;\nsetp.eq.f64 %p6, %fd2, 0d4000000000000000;\n@%p6 bra $L2;\n"
		"mov.u32 %r5, -524288;\n$L2:\n"
		"st.global.u32 [%rd1], %r5;\nret;\n}\n";
	BeRun *r = run_ok(ptx, LAUNCH);

	for (int t = 0; t < 64; t++)
		ck_assert_uint_eq(be_get(r, 0, t), (uint64_t)t);
	ck_assert_msg(!strstr(r->listing, "BRA") && !strstr(r->listing, "SSY"), "%s", r->listing);
	ck_assert_msg(!strstr(r->listing, "0xfff80000"), "%s", r->listing);
	be_run_free(r);
}
END_TEST

/* selp on a constant predicate: a copy of the operand it picks, no SEL */
START_TEST(selp_copy)
{
	static const char *ptx = HDR HEAD
		"mov.u32 %r2, 3;\nsetp.eq.s32 %p1, %r2, 3;\nadd.s32 %r3, %r1, 5;\n"
		"selp.b32 %r4, %r3, 7, %p1;\nst.global.u32 [%rd1], %r4;\nret;\n}\n";
	static const char *const gone[] = {"SEL", NULL};

	expect_folded(ptx, 9, 14, gone);
}
END_TEST

/* the first fold kills the block that wrote %r3 a second time; %r3 then has one definition,
 * 4, and the second test folds too: the store of 0x1234567 is gone */
START_TEST(second_round)
{
	static const char *ptx = HDR HEAD
		"mov.u32 %r2, 1;\nmov.u32 %r3, 4;\nsetp.eq.s32 %p1, %r2, 1;\n@%p1 bra $L1;\n"
		"mov.u32 %r3, 9;\n$L1:\nsetp.eq.s32 %p2, %r3, 4;\n@%p2 bra $L2;\n"
		"st.global.u32 [%rd1], 0x1234567;\n$L2:\nadd.s32 %r4, %r3, %r1;\n"
		"st.global.u32 [%rd1], %r4;\nret;\n}\n";
	static const char *const gone[] = {"0x1234567", "BRA", NULL};

	expect_folded(ptx, 10, 14, gone);
}
END_TEST

/* guards that are constants: an add that always runs is unguarded, a store that never runs
 * is gone */
START_TEST(const_guard)
{
	static const char *ptx = HDR HEAD
		"mov.pred %p1, 2;\nmov.u32 %r2, %r1;\n@%p1 add.s32 %r2, %r1, 100;\n"
		"@!%p1 st.global.u32 [%rd1], 0x1234567;\n@%p1 st.global.u32 [%rd1], %r2;\nret;\n}\n";
	static const char *const gone[] = {"0x1234567", "@", NULL};

	expect_folded(ptx, 10, 110, gone);
}
END_TEST

/* float arithmetic of constants, as IEEE 754 rounds it to nearest (pow(x, 1.6f)'s parity
 * test |1.6 - 2 trunc(0.8)| == 1 among them): cvt.rzi, .rni (a tie to even), .rmi and .rpi,
 * add, sub, mul, fma, abs and neg, f32 and f64; the tests on the results fold, their marker
 * stores are gone and so is every float instruction. The word stored is 2 + 1 + 2 + 2.5 +
 * (-3.2 * 0.5 + 1.6) in f32: 7.5 */
START_TEST(float_arith)
{
	static const char *ptx = HDR HEAD ".reg .f32 %f<20>;\n"
		"mov.f32 %f1, 0f3F4CCCCD;\ncvt.rzi.f32.f32 %f2, %f1;\nadd.f32 %f3, %f2, %f2;\n"
		"mov.f32 %f4, 0f3FCCCCCD;\nsub.f32 %f5, %f4, %f3;\nabs.f32 %f6, %f5;\n"
		"setp.eq.f32 %p1, %f6, 0f3F800000;\n@%p1 st.global.u32 [%rd1], 0x1234567;\n"
		"neg.f32 %f7, %f6;\nmul.f32 %f8, %f7, 0f40000000;\n"
		"fma.rn.f32 %f9, %f8, 0f3F000000, %f6;\n"   /* -3.2 * 0.5 + 1.6: +0 */
		"cvt.rni.f32.f32 %f10, 0f40200000;\ncvt.rmi.f32.f32 %f11, 0f3FC00000;\n"
		"cvt.rpi.f32.f32 %f12, 0f3FA00000;\n"   /* 2.5 -> 2, 1.5 -> 1, 1.25 -> 2 */
		"mov.f64 %fd1, 0d4004000000000000;\nmul.f64 %fd2, %fd1, 0d3FE0000000000000;\n"
		"cvt.rpi.f64.f64 %fd3, %fd2;\nadd.f64 %fd4, %fd3, 0d3FE0000000000000;\n"
		"setp.eq.f64 %p2, %fd4, 0d4004000000000000;\n@!%p2 bra $L1;\n"   /* 2 + 0.5: 2.5 */
		"add.f32 %f13, %f10, %f11;\nadd.f32 %f14, %f13, %f12;\n"
		"add.f32 %f15, %f14, 0f40200000;\nadd.f32 %f16, %f15, %f9;\n"
		"mov.b32 %r2, %f16;\nst.global.u32 [%rd1], %r2;\nret;\n"
		"$L1:\nst.global.u32 [%rd1], 0x7654321;\nret;\n}\n";
	static const char *const gone[] = {"0x1234567", "0x7654321", "BRA", "FADD", "FMUL", "FFMA",
	                                   "DADD", "DMUL", "F2F", NULL};

	expect_folded(ptx, 5, 0x40f00000, gone);
}
END_TEST

/* what is not folded: inf - inf (a NaN, which the host makes otherwise than PTX), an f32
 * subnormal (sm_1x flushes it), .ftz, a directed rounding; the tests stay and every lane
 * still agrees with the oracle */
START_TEST(float_kept)
{
	static const char *ptx = HDR HEAD ".reg .f32 %f<16>;\n"
		"mov.u32 %r5, 0;\nmov.f32 %f1, 0f7F800000;\nsub.f32 %f2, %f1, %f1;\n"
		"setp.num.f32 %p1, %f2, %f2;\n@%p1 bra $L1;\nor.b32 %r5, %r5, 1;\n$L1:\n"
		"add.f32 %f3, 0f00000001, 0f00000001;\nsetp.eq.f32 %p2, %f3, 0f00000002;\n"
		"@%p2 bra $L2;\nor.b32 %r5, %r5, 2;\n$L2:\n"
		"add.ftz.f32 %f4, 0f3F800000, 0f3F800000;\nsetp.eq.f32 %p3, %f4, 0f40000000;\n"
		"@%p3 bra $L3;\nor.b32 %r5, %r5, 4;\n$L3:\n"
		"add.rz.f32 %f5, 0f3F800000, 0f33800000;\nsetp.eq.f32 %p4, %f5, 0f3F800000;\n"
		"@%p4 bra $L4;\nor.b32 %r5, %r5, 8;\n$L4:\n"
		"st.global.u32 [%rd1], %r5;\nret;\n}\n";
	BeRun *r = run_ok(ptx, LAUNCH);

	ck_assert_uint_eq(be_get(r, 0, 3), 1);   /* NaN; 2 * 2^-149; 2; 1 + 2^-24 rounded to 1 */
	ck_assert_msg(strstr(r->listing, "FADD") != NULL, "%s", r->listing);
	be_run_free(r);
}
END_TEST

/* a .const word with an initializer is read at run time: the launch writes 5, so the lanes
 * take the side the initializer (7) would skip */
START_TEST(const_word_kept)
{
	static const char *ptx = HDR ".const .align 4 .u32 cv = 7;\n" HEAD
		"mov.u32 %r5, %r1;\nld.const.u32 %r2, [cv];\nsetp.eq.s32 %p1, %r2, 7;\n@%p1 bra $L1;\n"
		"mul.lo.s32 %r5, %r1, 3;\n$L1:\nst.global.u32 [%rd1], %r5;\nret;\n}\n";
	BeRun *r = run_ok(ptx, LAUNCH " --const cv=u32:5");

	ck_assert_uint_eq(be_get(r, 0, 10), 30);
	ck_assert_msg(strstr(r->listing, "c[0x3]") != NULL, "%s", r->listing);
	be_run_free(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cfold");
	TCase *c = tcase_create("fold");

	tcase_add_test(c, pow_tests);
	tcase_add_test(c, selp_copy);
	tcase_add_test(c, second_round);
	tcase_add_test(c, const_guard);
	tcase_add_test(c, float_arith);
	tcase_add_test(c, float_kept);
	tcase_add_test(c, const_word_kept);
	suite_add_tcase(s, c);
	return ck_run(s);
}
