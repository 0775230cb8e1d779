/* test_sim_alu.c - edge cases of the per-op semantics in arith/alu.c and arith/fmath.c: IEEE
 * rounding modes, ftz, saturation, canonical NaN, min/max NaN rules, compares, conversions
 * (saturation, NaN -> 0, directed rounding, f16), bit-field ops, permutes, funnel shifts,
 * condition-code tests, atomics, MUFU special cases. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "sim/sim.h"
#include "tests/unit/helper_check.h"

static uint32_t F(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t D(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

START_TEST(test_fadd_rounding)
{
	uint32_t one = F(1.0f), tiny = F(0x1p-25f);   /* 1 + 2^-25: between 1 and next float */
	ck_assert_uint_eq(ar_f32_add(one, tiny, RND_RN, 0), one);
	ck_assert_uint_eq(ar_f32_add(one, tiny, RND_RZ, 0), one);
	ck_assert_uint_eq(ar_f32_add(one, tiny, RND_RM, 0), one);
	ck_assert_uint_eq(ar_f32_add(one, tiny, RND_RP, 0), one + 1);
	ck_assert_uint_eq(ar_f32_add(F(-1.0f), F(-0x1p-25f), RND_RM, 0), F(-1.0f) + 1);
	/* no modifier rounds to nearest (directed modes leave no state behind: softfp.c) */
	ck_assert_uint_eq(ar_f32_add(one, tiny, RND_NONE, 0), one);
	/* fma rounds once: 1+2^-23 squared minus (1+2^-22) is 2^-46 exactly */
	ck_assert_uint_eq(ar_f32_fma(F(1 + 0x1p-23f), F(1 + 0x1p-23f), F(-(1 + 0x1p-22f)), RND_RN, 0), F(0x1p-46f));
	ck_assert_uint_eq(ar_f64_add(D(1.0), D(0x1p-60), RND_RP), D(1.0) + 1);
}
END_TEST

START_TEST(test_float_special)
{
	ck_assert_uint_eq(ar_f32_div(F(1.0f), F(0.0f), RND_RN, 0), 0x7f800000u);
	ck_assert_uint_eq(ar_f32_div(F(-1.0f), F(0.0f), RND_RN, 0), 0xff800000u);
	ck_assert_uint_eq(ar_f32_div(F(0.0f), F(0.0f), RND_RN, 0), AR_F32_NAN);
	ck_assert_uint_eq(ar_f32_sqrt(F(-1.0f), RND_RN, 0), AR_F32_NAN);
	ck_assert_uint_eq(ar_f32_add(0xffc00001u, F(1.0f), RND_RN, 0), AR_F32_NAN);  /* payload dropped */
	ck_assert_uint_eq(ar_f64_div(D(0.0), D(0.0), RND_RN), AR_F64_NAN);
	/* division correctly rounded in each mode: 1/3 */
	ck_assert_uint_eq(ar_f32_div(F(1.0f), F(3.0f), RND_RP, 0), ar_f32_div(F(1.0f), F(3.0f), RND_RM, 0) + 1);
	ck_assert_uint_eq(ar_f32_div(F(1.0f), F(3.0f), RND_RZ, 0), ar_f32_div(F(1.0f), F(3.0f), RND_RM, 0));
	ck_assert_uint_eq(ar_f32_sqrt(F(2.0f), RND_RP, 0), ar_f32_sqrt(F(2.0f), RND_RZ, 0) + 1);
}
END_TEST

START_TEST(test_ftz_sat)
{
	uint32_t den = 0x00000001u;     /* smallest denormal */
	ck_assert_uint_eq(ar_f32_add(den, 0, RND_RN, 0), den);
	ck_assert_uint_eq(ar_f32_add(den, 0, RND_RN, 1), 0);
	ck_assert_uint_eq(ar_f32_mul(F(0x1p-100f), F(0x1p-30f), RND_RN, 1), 0);   /* denormal result */
	ck_assert_uint_eq(ar_f32_ftz(0x80000005u), 0x80000000u);
	ck_assert_uint_eq(ar_f32_sat(F(1.5f)), F(1.0f));
	ck_assert_uint_eq(ar_f32_sat(F(-0.5f)), 0);
	ck_assert_uint_eq(ar_f32_sat(AR_F32_NAN), 0);
	ck_assert_uint_eq(ar_f32_sat(F(0.25f)), F(0.25f));
}
END_TEST

START_TEST(test_minmax_cmp)
{
	ck_assert_uint_eq(ar_f32_minmax(AR_F32_NAN, F(2.0f), 0, 0), F(2.0f));
	ck_assert_uint_eq(ar_f32_minmax(F(2.0f), 0xffc00000u, 1, 0), F(2.0f));
	ck_assert_uint_eq(ar_f32_minmax(0xffc00000u, 0x7fc00001u, 1, 0), AR_F32_NAN);
	ck_assert_uint_eq(ar_f32_minmax(F(0.0f), F(-0.0f), 0, 0), F(-0.0f));
	ck_assert_uint_eq(ar_f32_minmax(F(0.0f), F(-0.0f), 1, 0), F(0.0f));
	ck_assert_uint_eq(ar_f64_minmax(D(NAN), D(-3.0), 0), D(-3.0));
	ck_assert_int_eq(ar_fcmp32(CMP_LT, AR_F32_NAN, F(1.0f), 0), 0);
	ck_assert_int_eq(ar_fcmp32(CMP_LTU, AR_F32_NAN, F(1.0f), 0), 1);
	ck_assert_int_eq(ar_fcmp32(CMP_NE, AR_F32_NAN, F(1.0f), 0), 0);
	ck_assert_int_eq(ar_fcmp32(CMP_NEU, AR_F32_NAN, F(1.0f), 0), 1);
	ck_assert_int_eq(ar_fcmp32(CMP_NAN, F(1.0f), AR_F32_NAN, 0), 1);
	ck_assert_int_eq(ar_fcmp32(CMP_EQ, 0x00000001u, 0, 1), 1);    /* ftz: denormal == 0 */
	ck_assert_int_eq(ar_fcmp32(CMP_EQ, 0x00000001u, 0, 0), 0);
	ck_assert_int_eq(ar_icmp(CMP_LT, TY_S32, 0xffffffffu, 1), 1);
	ck_assert_int_eq(ar_icmp(CMP_LT, TY_U32, 0xffffffffu, 1), 0);
	ck_assert_int_eq(ar_icmp(CMP_GT, TY_S64, 1, ~0ull), 1);
	ck_assert_int_eq(ar_icmp(CMP_GT, TY_U64, 1, ~0ull), 0);
}
END_TEST

START_TEST(test_cvt)
{
	/* float -> int saturates, NaN -> 0 */
	ck_assert_uint_eq(ar_cvt(TY_S32, TY_F32, RND_RZ, 0, 0, F(3e9f)), 0x7fffffffu);
	ck_assert_uint_eq((uint32_t)ar_cvt(TY_S32, TY_F32, RND_RZ, 0, 0, F(-3e9f)), 0x80000000u);
	ck_assert_uint_eq(ar_cvt(TY_U32, TY_F32, RND_RZ, 0, 0, F(-5.0f)), 0);
	ck_assert_uint_eq(ar_cvt(TY_S32, TY_F32, RND_RZ, 0, 0, AR_F32_NAN), 0);
	ck_assert_uint_eq(ar_cvt(TY_U8, TY_F32, RND_RZ, 0, 0, F(300.0f)), 255);
	ck_assert_uint_eq(ar_cvt(TY_S64, TY_F64, RND_RZ, 0, 0, D(1e300)), (uint64_t)INT64_MAX);
	ck_assert_uint_eq(ar_cvt(TY_U64, TY_F32, RND_RZ, 0, 0, F(INFINITY)), UINT64_MAX);
	/* integer rounding modes */
	ck_assert_uint_eq(ar_cvt(TY_S32, TY_F32, RND_RN, 0, 0, F(2.5f)), 2);
	ck_assert_uint_eq(ar_cvt(TY_S32, TY_F32, RND_RN, 0, 0, F(3.5f)), 4);
	ck_assert_uint_eq((uint32_t)ar_cvt(TY_S32, TY_F32, RND_RM, 0, 0, F(-2.5f)), (uint32_t)-3);
	ck_assert_uint_eq(ar_cvt(TY_S32, TY_F32, RND_RP, 0, 0, F(2.1f)), 3);
	ck_assert_uint_eq(ar_cvt(TY_S32, TY_F32, RND_NONE, 0, 0, F(-2.9f)), (uint64_t)-2);
	ck_assert_uint_eq(ar_cvt(TY_S32, TY_F32, RND_RP, 1, 0, 0x00000001u), 0);   /* ftz first */
	ck_assert_uint_eq(ar_cvt(TY_S32, TY_F32, RND_RP, 0, 0, 0x00000001u), 1);
	/* int -> float with rounding: 2^24 + 1 */
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_S32, RND_RN, 0, 0, 16777217), F(16777216.0f));
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_S32, RND_RP, 0, 0, 16777217), F(16777218.0f));
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_U64, RND_RZ, 0, 0, UINT64_MAX), F(0x1.fffffep63f));
	ck_assert_uint_eq(ar_cvt(TY_F64, TY_S32, RND_RN, 0, 0, (uint64_t)-7), D(-7.0));
	/* float -> float */
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_F64, RND_RN, 0, 0, D(1.0 / 3)), F(1.0f / 3));
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_F64, RND_RZ, 0, 0, D(1.0 / 3)), F(1.0f / 3) - 1);
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_F64, RND_RP, 0, 0, D(1.0 / 3)), F(1.0f / 3));
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_F32, RND_FLOOR, 0, 0, F(-1.5f)), F(-2.0f));
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_F32, RND_ROUND, 0, 0, F(2.5f)), F(2.0f));
	ck_assert_uint_eq(ar_cvt(TY_F64, TY_F32, RND_NONE, 0, 0, AR_F32_NAN), AR_F64_NAN);
	ck_assert_uint_eq(ar_cvt(TY_F16, TY_F32, RND_RN, 0, 0, F(1.0f)), 0x3c00);
	ck_assert_uint_eq(ar_cvt(TY_F16, TY_F32, RND_RN, 0, 0, F(65520.0f)), 0x7c00);   /* overflow */
	ck_assert_uint_eq(ar_cvt(TY_F16, TY_F32, RND_RZ, 0, 0, F(65520.0f)), 0x7bff);
	ck_assert_uint_eq(ar_cvt(TY_F16, TY_F32, RND_RN, 0, 0, F(0x1p-24f)), 0x0001);    /* denormal */
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_F16, RND_NONE, 0, 0, 0xc000), F(-2.0f));
	/* int -> int: truncation, or saturation with .SAT */
	ck_assert_uint_eq(ar_cvt(TY_U8, TY_S32, RND_NONE, 0, 0, 0x1ff), 0xff);
	ck_assert_uint_eq(ar_cvt(TY_S8, TY_S32, RND_NONE, 0, 0, 0x80), (uint64_t)-128);
	ck_assert_uint_eq(ar_cvt(TY_S8, TY_S32, RND_NONE, 0, 1, 300), 127);
	ck_assert_uint_eq(ar_cvt(TY_U16, TY_S32, RND_NONE, 0, 1, (uint64_t)-5), 0);
	ck_assert_uint_eq(ar_cvt(TY_S32, TY_U32, RND_NONE, 0, 1, 0xffffffffu), 0x7fffffff);
	ck_assert_uint_eq(ar_cvt(TY_S64, TY_S32, RND_NONE, 0, 0, 0xfffffffeu), (uint64_t)-2);
}
END_TEST

START_TEST(test_bits)
{
	ck_assert_uint_eq(ar_bfe(0xf0u, 4 | 4 << 8, 0, 0), 0xf);
	ck_assert_uint_eq(ar_bfe(0xf0u, 4 | 4 << 8, 1, 0), 0xffffffffu);   /* sign of the field */
	ck_assert_uint_eq(ar_bfe(0xf0u, 4 | 0 << 8, 1, 0), 0);             /* len 0 */
	ck_assert_uint_eq(ar_bfe(0x80000000u, 40 | 8 << 8, 1, 0), 0xffffffffu); /* pos > msb: sign */
	ck_assert_uint_eq(ar_bfe(0x80000000u, 28 | 8 << 8, 0, 0), 0x8);    /* clipped at msb */
	ck_assert_uint_eq(ar_bfe(0x1u, 31 | 1 << 8, 0, 1), 1);             /* .BREV */
	ck_assert_uint_eq(ar_bfe64(0xff00000000ull, 32 | 8 << 8, 0, 0), 0xff);
	ck_assert_uint_eq(ar_bfi(0xf, 4 | 4 << 8, 0), 0xf0);
	ck_assert_uint_eq(ar_bfi(0xff, 28 | 8 << 8, 0), 0xf0000000u);
	ck_assert_uint_eq(ar_bfi(0xf, 32 | 4 << 8, 0x1234), 0x1234);
	ck_assert_uint_eq(ar_prmt(0x33221100u, 0x7654, 0x77665544u, SUB_NONE), 0x77665544u);
	ck_assert_uint_eq(ar_prmt(0x33221100u, 0x0123, 0, SUB_NONE), 0x00112233u);
	ck_assert_uint_eq(ar_prmt(0x00008000u, 0x9999, 0, SUB_NONE), 0xffffffffu);  /* sign replicate */
	ck_assert_uint_eq(ar_prmt(0x33221100u, 1, 0x77665544u, SUB_F4E), 0x44332211u);
	ck_assert_uint_eq(ar_prmt(0x33221100u, 0, 0x77665544u, SUB_B4E), 0x55667700u);
	ck_assert_uint_eq(ar_prmt(0x33221100u, 2, 0, SUB_RC8), 0x22222222u);
	ck_assert_uint_eq(ar_prmt(0x33221100u, 1, 0, SUB_ECL), 0x33221111u);
	ck_assert_uint_eq(ar_prmt(0x33221100u, 1, 0, SUB_ECR), 0x11111100u);
	ck_assert_uint_eq(ar_prmt(0x33221100u, 1, 0, SUB_RC16), 0x33223322u);
	ck_assert_uint_eq(ar_shf(0x80000000u, 1, 0x1u, 0, 0, TY_NONE), 0x3);
	ck_assert_uint_eq(ar_shf(0x0u, 40, 0x1u, 0, 0, TY_NONE), 0);        /* clamp at 32: lo << 32 */
	ck_assert_uint_eq(ar_shf(0x1u, 33, 0x2u, 0, 1, TY_NONE), 0x4);      /* wrap: 33 -> 1 */
	ck_assert_uint_eq(ar_shf(0x0u, 4, 0x12u, 1, 0, TY_NONE), 0x20000000u);
	ck_assert_uint_eq(ar_shf(0x0u, 64, 0x80000000u, 1, 0, TY_S64), 0xffffffffu);
	ck_assert_uint_eq(ar_flo(0, 0, 0), 0xffffffffu);
	ck_assert_uint_eq(ar_flo(0x10, 0, 0), 4);
	ck_assert_uint_eq(ar_flo(0x10, 0, 1), 27);
	ck_assert_uint_eq(ar_flo(0xfffffff0u, 1, 0), 3);   /* leading non-sign bit */
	ck_assert_uint_eq(ar_flo(0xffffffffu, 1, 0), 0xffffffffu);
	ck_assert_uint_eq(ar_brev(0x1u), 0x80000000u);
	ck_assert_uint_eq(ar_lop3(0xf0f0f0f0u, 0xccccccccu, 0xaaaaaaaau, 0x80), 0x80808080u);  /* a&b&c */
	ck_assert_uint_eq(ar_lop3(0xf0f0f0f0u, 0xccccccccu, 0xaaaaaaaau, 0x96), 0x96969696u);  /* xor3 */
}
END_TEST

START_TEST(test_cctest)
{
	/* every test against its definition on the 16 flag combinations */
	for (unsigned f = 0; f < 16; f++) {
		int s = !!(f & CC_S), c = !!(f & CC_C), z = !!(f & CC_Z), o = !!(f & CC_O);
		ck_assert_int_eq(ar_cctest(CCT_LT, f), s != o);
		ck_assert_int_eq(ar_cctest(CCT_GE, f), s == o);
		ck_assert_int_eq(ar_cctest(CCT_NE, f), !z);
		ck_assert_int_eq(ar_cctest(CCT_LO, f), !c);
		ck_assert_int_eq(ar_cctest(CCT_HI, f), c && !z);
		ck_assert_int_eq(ar_cctest(CCT_T, f), 1);
		ck_assert_int_eq(ar_cctest(CCT_F, f), 0);
	}
}
END_TEST

START_TEST(test_atom)
{
	ck_assert_uint_eq(ar_atom(SUB_ADD, TY_U32, 0xffffffffu, 2, 0, 0), 1);
	ck_assert_uint_eq(ar_atom(SUB_INC, TY_U32, 5, 5, 0, 0), 0);
	ck_assert_uint_eq(ar_atom(SUB_INC, TY_U32, 4, 5, 0, 0), 5);
	ck_assert_uint_eq(ar_atom(SUB_DEC, TY_U32, 0, 7, 0, 0), 7);
	ck_assert_uint_eq(ar_atom(SUB_DEC, TY_U32, 9, 7, 0, 0), 7);
	ck_assert_uint_eq(ar_atom(SUB_DEC, TY_U32, 3, 7, 0, 0), 2);
	ck_assert_uint_eq(ar_atom(SUB_CAS, TY_U32, 3, 3, 9, 0), 9);
	ck_assert_uint_eq(ar_atom(SUB_CAS, TY_U32, 4, 3, 9, 0), 4);
	ck_assert_uint_eq(ar_atom(SUB_MIN, TY_S32, 5, 0xffffffffu, 0, 0), 0xffffffffu);
	ck_assert_uint_eq(ar_atom(SUB_MIN, TY_U32, 5, 0xffffffffu, 0, 0), 5);
	ck_assert_uint_eq(ar_atom(SUB_ADD, TY_F32, F(1.5f), F(2.25f), 0, 0), F(3.75f));
	ck_assert_uint_eq(ar_atom(SUB_ADD, TY_U64, ~0ull, 1, 0, 0), 0);
	ck_assert_uint_eq(ar_atom(SUB_EXCH, TY_U32, 1, 2, 0, 0), 2);
}
END_TEST

START_TEST(test_mufu)
{
	ck_assert_uint_eq(ar_rcp_approx_f32(F(0.0f), 0), 0x7f800000u);
	ck_assert_uint_eq(ar_rcp_approx_f32(F(-0.0f), 0), 0xff800000u);
	ck_assert_uint_eq(ar_rcp_approx_f32(F(4.0f), 0), F(0.25f));
	ck_assert_uint_eq(ar_rsqrt_approx_f32(F(4.0f), 0), F(0.5f));
	ck_assert_uint_eq(ar_rsqrt_approx_f32(F(-0.0f), 0), 0xff800000u);
	ck_assert_uint_eq(ar_rsqrt_approx_f32(F(-1.0f), 0), AR_F32_NAN);
	ck_assert_uint_eq(ar_lg2_approx_f32(F(0.0f), 0), 0xff800000u);
	ck_assert_uint_eq(ar_lg2_approx_f32(F(8.0f), 0), F(3.0f));
	ck_assert_uint_eq(ar_ex2_approx_f32(F(-3.0f), 0), F(0.125f));
	ck_assert_uint_eq(ar_sin_approx_f32(F(INFINITY), 0), AR_F32_NAN);
	ck_assert_uint_eq(ar_cos_approx_f32(F(0.0f), 0), F(1.0f));
	ck_assert_uint_eq(ar_sqrt_approx_f32(F(9.0f), 0), F(3.0f));
	ck_assert_uint_eq(ar_rcp_approx_f32(0x00000001u, 1), 0x7f800000u);   /* ftz: 1/0 */
	ck_assert_uint_eq(ar_mufu_f32(SUB_EX2, F(1.0f), 0), F(2.0f));
	ck_assert_uint_eq(ar_mufu_f64(SUB_RCP, D(4.0)), D(0.25));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sim_alu");
	TCase *tc = tcase_create("alu");

	tcase_add_test(tc, test_fadd_rounding);
	tcase_add_test(tc, test_float_special);
	tcase_add_test(tc, test_ftz_sat);
	tcase_add_test(tc, test_minmax_cmp);
	tcase_add_test(tc, test_cvt);
	tcase_add_test(tc, test_bits);
	tcase_add_test(tc, test_cctest);
	tcase_add_test(tc, test_atom);
	tcase_add_test(tc, test_mufu);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{

	return ck_run(suite());
}
