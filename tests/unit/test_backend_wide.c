/* test_backend_wide.c - Check tests of data registers wider than the instruction type on
 * ld, st and cvt (PTX ISA 9.4.1): tests/ptx/wide_operands.ptx runs on the SM model and on the
 * PTX oracle (every buffer compared, at predication thresholds 0 and 7), and each of its 40
 * slots per thread is checked against a value worked out by hand from the manual's rules:
 * a wider source chopped to the type, a wider destination sign-extended for a signed type
 * and zero-extended otherwise. Runs from the top of the tree. */
#include <check.h>
#include <stdint.h>
#include "tests/unit/test_backend.h"
#include "tests/unit/helper_check.h"

/* slot k of thread 0 (x = 0x80000000FFFF8081) and thread 1 (x = 0x7FFFFFFF00017F7F) */
static const uint64_t want[40][2] = {
	{0xffff8081, 0x00017f7f},                 /* st.u32 of a .b64: the low word */
	{0x81, 0x7f},                             /* st.u8 */
	{0x8081, 0x7f7f},                         /* st.u16 */
	{0xffff8081, 0x00017f7f},                 /* st.f32 of a .b64 */
	{0xffff8081, 0x00017f7f},                 /* st.b32 of an .f64 */
	{0x80000000ffff8081u, 0x7fffffff00017f7fu}, /* st.v2.u32 {x, x >> 32} */
	{0xffffffffffff8081u, 0x17f7f},           /* ld.s32 into .b64: sign-extended */
	{0xffff8081, 0x17f7f},                    /* ld.u32: zero-extended */
	{0xffffffffffffff81u, 0x7f},              /* ld.s8 */
	{0x81, 0x7f},                             /* ld.u8 */
	{0xffffffffffff8081u, 0x7f7f},            /* ld.s16 */
	{0xffff8081, 0x17f7f},                    /* ld.b32: zero-extended */
	{0xffff8081, 0x17f7f},                    /* ld.f32 into .b64: zero-extended */
	{0xffffffff80000000u, 0x7fffffff},        /* ld.global.s32 of x's high word */
	{0xfffffffffffffffbu, 0xfffffffffffffffbu}, /* ld.param.s32 of -5 */
	{0xfffffffb, 0xfffffffb},                 /* ld.param.u32 */
	{0xfffffffffffffffbu, 0xfffffffffffffffbu}, /* ld.param.s16 */
	{0xffff8081, 0x7f7f},                     /* cvt.s32.s16 from a .b64: chop to 16, extend */
	{0x8081, 0x7f7f},                         /* cvt.u16.u32 into a .b64 */
	{0xffffffffffff8081u, 0x7f7f},            /* cvt.s16.s32 into a .b64 */
	{0xffffffffffff8081u, 0x17f7f},           /* cvt.s32.s64 into a .b64 */
	{0xffffffffffffc040u, 0x3fc0},            /* cvt.rni.s32.f32 of -16319.5, 16319.5 */
	{0xc6fefe00, 0x46fefe00},                 /* cvt.rn.f32.s16 from a .b64: -+32639.0 */
	{0xc6fefe00, 0x47bfbf80},                 /* cvt.rn.f32.s32 into a .b64: -32639, 98175 */
	{0xc0dfdfc000000000u, 0x40f7f7f000000000u}, /* cvt.f64.f32 from a .b64 */
	{0xffffffffffffff81u, 0x7f},              /* cvt.s8.s32 into a .b64 */
	{0x8081, 0x7f7f},                         /* cvt.u32.u16 from a .b64 */
	{0xfffe0204, 0x0005fdfc},                 /* low word of lo * 3 + x through .local */
	{0xf7f8, 0x77f8},                         /* cvt.rn.f16.f32 into a .b32: -+32640 */
	{0xf7f8, 0x77f8},                         /* the same into a .b64 */
	{0x8081, 0},                              /* @p st.u16 of a .b64, thread 0 only */
	{0, 0x7f},                                /* @!p ld.s8 into a .b64, thread 1 only */
	{0, 0xff},                                /* cvt.sat.u8.s32 of -32639, 98175 into a .b64 */
	{0, 0x77f8},                              /* cvt.rn.relu.f16.f32 into a .b64 */
	{0xffffffffffff8081u, 0x7f7f},            /* ld.global.nc.s16 into a .b64 */
	{0xfe00, 0xfe00},                         /* st.b16 of an .f32 (0xc6fefe00, 0x46fefe00) */
	{0x81, 0x7f},                             /* st.b8 of an .f64 */
	{0x8081, 0x7f7f},                         /* ld.b16 into an .f32 register: zero-extended */
	{0xffffffffffff8081u, 0x7f7f},            /* cvt.rzi.s16.f32 into a .b64 */
	{0x81, 0x7f},                             /* cvt.u32.u8 from and into a .b64 */
};

START_TEST(wide_operands)
{
	char *ptx = be_slurp("tests/ptx/wide_operands.ptx");
	static const int pmax[2] = {0, 7};

	ck_assert_ptr_nonnull(ptx);
	for (int p = 0; p < 2; p++) {
		BeRun *r = be_run(ptx, "--kernel wide_operands --grid 1 --block 4 "
		                  "--arg buf:u64:160:zero --arg s32:-5", 0, pmax[p]);
		ck_assert(be_same(r));
		for (int t = 0; t < 4; t++)
			for (int k = 0; k < 40; k++) {
				uint64_t got = be_get(r, 0, t * 40 + k);
				if (got != want[k][t & 1])
					fprintf(stderr, "thread %d slot %d: %#llx, not %#llx\n", t, k,
					        (unsigned long long)got, (unsigned long long)want[k][t & 1]);
				ck_assert_uint_eq(got, want[k][t & 1]);
			}
		be_run_free(r);
	}
	free(ptx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("backend-wide");
	TCase *c = tcase_create("wide");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, wide_operands);
	suite_add_tcase(s, c);
	return ck_run(s);
}
