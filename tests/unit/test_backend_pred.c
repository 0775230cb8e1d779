/* test_backend_pred.c - Check tests of the predicate folding after selection (isel_pred.c):
 * and/or/xor/not with predicate constants and with themselves, copies whose source is
 * written again before the copy is read, a chain into a divergent branch; the SM run must
 * agree with the oracle and with C, and the chains must leave no PSETP behind where the
 * branch can read the comparison directly. Runs from the top of the tree (make check). */
#include <check.h>
#include <stdint.h>
#include "tests/unit/test_backend.h"
#include "tests/unit/helper_check.h"

#define HDR ".version 7.0\n.target sm_70\n.address_size 64\n"
#define NOUT 14

/* out[k * 64 + tid] = 1 when predicate k holds, for p1 = tid < 20 */
START_TEST(logic_consts)
{
	static const char *ptx = HDR
		".visible .entry k(.param .u64 po)\n{\n.reg .pred %p<32>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n"
		"mov.u32 %r1, %tid.x;\nld.param.u64 %rd1, [po];\nmul.wide.u32 %rd2, %r1, 4;\n"
		"add.s64 %rd1, %rd1, %rd2;\nsetp.lt.u32 %p1, %r1, 20;\n"
		"mov.pred %p3, 0;\nmov.pred %p4, 1;\n"
		"xor.pred %p5, %p1, %p3;\nnot.pred %p6, %p5;\n"        /* p1, !p1 */
		"and.pred %p7, %p1, %p4;\nor.pred %p8, %p3, %p1;\n"     /* p1, p1 */
		"and.pred %p9, %p1, %p3;\nor.pred %p10, %p1, %p4;\n"    /* false, true */
		"xor.pred %p11, %p4, %p1;\nxor.pred %p12, %p1, %p1;\n"  /* !p1, false */
		"not.pred %p14, %p1;\nand.pred %p13, %p1, %p14;\nor.pred %p15, %p14, %p1;\n" /* false, true */
		"xor.pred %p16, %p14, %p1;\n"                            /* true */
		"mov.pred %p2, %p1;\nsetp.lt.u32 %p1, %r1, 40;\n"       /* p2: the old p1 */
		"and.pred %p17, %p2, %p4;\n"                             /* tid < 20 */
		"and.pred %p18, %p1, %p2;\n"                             /* tid < 20 */
		"@%p5 st.global.u32 [%rd1], 1;\n@%p6 st.global.u32 [%rd1+256], 1;\n"
		"@%p7 st.global.u32 [%rd1+512], 1;\n@%p8 st.global.u32 [%rd1+768], 1;\n"
		"@%p9 st.global.u32 [%rd1+1024], 1;\n@%p10 st.global.u32 [%rd1+1280], 1;\n"
		"@%p11 st.global.u32 [%rd1+1536], 1;\n@%p12 st.global.u32 [%rd1+1792], 1;\n"
		"@%p13 st.global.u32 [%rd1+2048], 1;\n@%p15 st.global.u32 [%rd1+2304], 1;\n"
		"@%p16 st.global.u32 [%rd1+2560], 1;\n@%p2 st.global.u32 [%rd1+2816], 1;\n"
		"@%p17 st.global.u32 [%rd1+3072], 1;\n@%p18 st.global.u32 [%rd1+3328], 1;\n"
		"ret;\n}\n";
	/* per output: 0 false, 1 true, 2 p1 (tid < 20), 3 !p1 */
	static const int want[NOUT] = {2, 3, 2, 2, 0, 1, 3, 0, 0, 1, 1, 2, 2, 2};
	BeRun *r = be_run(ptx, "--grid 1 --block 64 --arg buf:u32:896:zero", 0, 7);

	ck_assert(be_same(r));
	for (int k = 0; k < NOUT; k++)
		for (int t = 0; t < 64; t++) {
			int p1 = t < 20, w = want[k] < 2 ? want[k] : want[k] == 2 ? p1 : !p1;
			ck_assert_msg(be_get(r, 0, k * 64 + t) == (uint64_t)w, "output %d thread %d", k, t);
		}
	be_run_free(r);
}
END_TEST

/* nvcc's `if (x & 1)`: mov.pred 0, xor.pred, not.pred into the branch: the branch reads the
 * comparison, no PSETP is left, and the side is predicated */
START_TEST(branch_chain)
{
	static const char *ptx = HDR
		".visible .entry k(.param .u64 po)\n{\n.reg .pred %p<8>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
		"mov.u32 %r1, %tid.x;\nld.param.u64 %rd1, [po];\nmul.wide.u32 %rd2, %r1, 4;\n"
		"add.s64 %rd1, %rd1, %rd2;\nand.b32 %r2, %r1, 1;\nsetp.eq.b32 %p2, %r2, 1;\n"
		"mov.pred %p3, 0;\nxor.pred %p4, %p2, %p3;\nnot.pred %p5, %p4;\n@%p5 bra $L1;\n"
		"add.s32 %r3, %r1, 3;\nst.global.u32 [%rd1], %r3;\n$L1:\nret;\n}\n";
	BeRun *r = be_run(ptx, "--grid 1 --block 64 --arg buf:u32:64:zero", 0, 7);

	ck_assert(be_same(r));
	ck_assert_uint_eq(be_get(r, 0, 5), 8);
	ck_assert_uint_eq(be_get(r, 0, 4), 0);
	ck_assert(!strstr(r->listing, "PSETP"));
	ck_assert(!strstr(r->listing, "SSY"));
	be_run_free(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("backend-pred");
	TCase *c = tcase_create("fold");

	tcase_add_test(c, logic_consts);
	tcase_add_test(c, branch_chain);
	suite_add_tcase(s, c);
	return ck_run(s);
}
