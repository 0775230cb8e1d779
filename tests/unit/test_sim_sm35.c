/* test_sim_sm35.c - the SM model on forms of ptxas's sm_35 code that real-world kernels hold
 * (tests/sass runs a kernel of ours for each against the oracle; docs/isa.md section 11):
 * conversions of one byte or half-word of a register, FCHK with a float immediate or a negated
 * operand, DSET, FMUL's scale, LOP.CC and CSETP. One thread, results stored to out. */
#include <check.h>
#include <string.h>
#include "tests/unit/helper_sim.h"
#include "tests/unit/helper_check.h"

static SimT t;
/* R12:R13 = &out[0] */
#define HDR ".kernel k\n.arch sm_35\n.registers 16\n.param 0x140 8 out\n" \
	"MOV R12, c[0x0][0x140];\nMOV R13, c[0x0][0x144];\n"

static uint32_t F(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void run_ok(const char *src, const char *arg)
{
	const char *args[] = {arg, NULL};
	int rc = simt_run(&t, src, 1, 1, args, NULL);

	ck_assert_msg(rc == SIM_DONE, "run failed (%d): %s", rc, t.errbuf ? t.errbuf : "");
}

/* I2F/F2F with a selector convert that byte or half-word, extended by the source type */
START_TEST(test_cvt_selector)
{
	run_ok(HDR "MOV32I R0, 0x3cfe80f0;\n"
	       "I2F.F32.S8 R1, R0;\n"           /* byte 0: 0xf0 = -16 */
	       "I2F.F32.U8 R2, R0.B1;\n"        /* 0x80 = 128 */
	       "I2F.F32.S8 R3, R0.B1;\n"        /* -128 */
	       "I2F.F32.S8 R4, R0.B2;\n"        /* 0xfe = -2 */
	       "I2F.F32.U16 R5, R0.H1;\n"       /* 0x3cfe = 15614 */
	       "I2F.F32.S16 R6, R0.H0;\n"       /* 0x80f0 = -32528 */
	       "F2F.F32.F16 R7, R0.H1;\n"       /* half 0x3cfe = 1.2480469 */
	       "ST.E [R12], R1;\nST.E [R12+0x4], R2;\nST.E [R12+0x8], R3;\nST.E [R12+0xc], R4;\n"
	       "ST.E [R12+0x10], R5;\nST.E [R12+0x14], R6;\nST.E [R12+0x18], R7;\nEXIT;\n",
	       "buf:u32:7");
	ck_assert_uint_eq(simt_get(&t, 0, 0), F(-16.0f));
	ck_assert_uint_eq(simt_get(&t, 0, 1), F(128.0f));
	ck_assert_uint_eq(simt_get(&t, 0, 2), F(-128.0f));
	ck_assert_uint_eq(simt_get(&t, 0, 3), F(-2.0f));
	ck_assert_uint_eq(simt_get(&t, 0, 4), F(15614.0f));
	ck_assert_uint_eq(simt_get(&t, 0, 5), F(-32528.0f));
	ck_assert_uint_eq(simt_get(&t, 0, 6), F(1.2480469f));
	simt_free(&t);
}
END_TEST

/* FCHK.DIVIDE's b may be a float immediate, a and b negated: the check reads magnitudes, so
 * -R and R agree, and 255 is 255.0 (a normal divisor: the fast path) */
START_TEST(test_fchk_forms)
{
	run_ok(HDR "MOV32I R0, 0x40400000;\n"          /* 3.0 */
	       "MOV32I R1, 0x00000001;\n"               /* the smallest denormal */
	       "FCHK.DIVIDE P0, R0, 255;\n"
	       "FCHK.DIVIDE P1, -R0, -11;\n"
	       "FCHK.DIVIDE P2, R0, -R1;\n"
	       "FCHK.DIVIDE P3, -R1, 0.5;\n"
	       "FCHK.DIVIDE P4, R0, 1e-30;\n"           /* below 2^-63 */
	       "P2R R2, PR, RZ, 0x1f;\n"
	       "ST.E [R12], R2;\nEXIT;\n", "buf:u32:1");
	ck_assert_uint_eq(simt_get(&t, 0, 0), 0x1c);
	simt_free(&t);
}
END_TEST

/* DSET compares the doubles of two pairs into a register (all ones, 1.0 with .BF, or 0);
 * with .CC the flags of that result: Z when false, so CC.NEU branches when it is true (ptxas's
 * DSET.EQ.AND RZ.CC, R12, RZ, PT; @!P0 BRA CC.NEU, ...) */
START_TEST(test_dset)
{
	run_ok(HDR "MOV32I R2, 0x0;\nMOV32I R3, 0x3ff00000;\n"       /* 1.0 */
	       "MOV32I R4, 0x0;\nMOV32I R5, 0x7ff80000;\n"              /* NaN */
	       "DSET.LT.AND R0, R2, 2, PT;\n"                           /* 1 < 2 */
	       "DSET.GT.BF.AND R1, -R2, RZ, PT;\n"                      /* -1 > 0: 0 */
	       "DSET.NEU.BF.AND R6, R4, R2, PT;\n"                      /* NaN != 1 unordered: 1.0 */
	       "DSET.EQ.AND R7, |R2|, R2, !PT;\n"                       /* true and false */
	       "ST.E [R12], R0;\nST.E [R12+0x4], R1;\nST.E [R12+0x8], R6;\nST.E [R12+0xc], R7;\n"
	       "MOV32I R8, 0x1;\n"
	       "DSET.EQ.AND RZ.CC, RZ, RZ, PT;\n"                        /* 0 == 0: CC.NEU holds */
	       "BRA CC.NEU, L1;\nMOV32I R8, 0x2;\n"
	       "L1: DSET.NUM.AND RZ.CC, R4, R4, PT;\n"                   /* NaN: CC.NEU fails */
	       "BRA CC.NEU, L2;\nIADD R8, R8, 0x10;\n"
	       "L2: ST.E [R12+0x10], R8;\nEXIT;\n", "buf:u32:5");
	ck_assert_uint_eq(simt_get(&t, 0, 0), 0xffffffffu);
	ck_assert_uint_eq(simt_get(&t, 0, 1), 0);
	ck_assert_uint_eq(simt_get(&t, 0, 2), F(1.0f));
	ck_assert_uint_eq(simt_get(&t, 0, 3), 0);
	ck_assert_uint_eq(simt_get(&t, 0, 4), 0x11);
	simt_free(&t);
}
END_TEST

/* FMUL.D2 ... .M8 scale the product by 2^-1 ... 2^3 where every reading of the scale's
 * rounding agrees (normal products and results, zero, infinite and NaN operands); a product
 * that is subnormal, underflows or overflows stops the run with a located fault */
START_TEST(test_fmul_scale)
{
	const char *args[] = {"buf:u32:8", NULL};

	run_ok(HDR "MOV32I R0, 0x3fc00001;\nMOV32I R1, 0x40400001;\n"   /* 1.5000001, 3.0000002 */
	       "FMUL.D2 R2, R0, R1;\nFMUL.M8 R3, R0, -R1;\nFMUL.RZ.D4 R4, R0, R1;\n"
	       "FMUL.D8.SAT R5, R0, R1;\nFMUL.FTZ.M2 R6, RZ, -R1;\n"
	       "MOV32I R7, 0x7f800000;\nFMUL.D2 R7, R7, 0.5;\n"
	       "ST.E [R12], R2;\nST.E [R12+0x4], R3;\nST.E [R12+0x8], R4;\nST.E [R12+0xc], R5;\n"
	       "ST.E [R12+0x10], R6;\nST.E [R12+0x14], R7;\nEXIT;\n", "buf:u32:6");
	ck_assert_uint_eq(simt_get(&t, 0, 0), 0x40100002);       /* RN(4.5000014) / 2 */
	ck_assert_uint_eq(simt_get(&t, 0, 1), 0xc2100002);       /* -4.5000014 * 8 */
	ck_assert_uint_eq(simt_get(&t, 0, 2), 0x3f900001);       /* RZ: 4.5000010 / 4 */
	ck_assert_uint_eq(simt_get(&t, 0, 3), 0x3f100002);       /* 0.5625001, not saturated */
	ck_assert_uint_eq(simt_get(&t, 0, 4), 0x80000000);
	ck_assert_uint_eq(simt_get(&t, 0, 5), 0x7f800000);
	simt_free(&t);
	/* 2^-126 * 0.75 / 2 is subnormal: refused, located at the lane */
	ck_assert_int_eq(simt_run(&t, HDR "MOV32I R0, 0x00800000;\nFMUL.D2 R2, R0, 0.75;\n"
	                          "ST.E [R12], R2;\nEXIT;\n", 1, 1, args, NULL), SIM_FAULT);
	ck_assert_msg(t.errbuf && strstr(t.errbuf, "FMUL.D2 of 0x00800000 and 0x3f400000: a subnormal"),
	              "%s", t.errbuf ? t.errbuf : "");
	simt_free(&t);
	/* 2^127 * 3 overflows before the scale: refused too */
	ck_assert_int_eq(simt_run(&t, HDR "MOV32I R0, 0x7f000000;\nFMUL.D4 R2, R0, 3;\n"
	                          "ST.E [R12], R2;\nEXIT;\n", 1, 1, args, NULL), SIM_FAULT);
	simt_free(&t);
}
END_TEST

/* LOP.CC sets N and Z of its result, LOP.X.CC keeps Z only when it was set (a 64-bit zero
 * test over two words), and CSETP reads a CC test as a predicate */
START_TEST(test_csetp)
{
	run_ok(HDR "MOV32I R0, 0x10;\nMOV32I R1, 0x0;\nMOV32I R2, 0xf0;\nMOV32I R3, 0x80000000;\n"
	       "LOP.AND RZ.CC, R0, R2;\nLOP.AND.X RZ.CC, R1, R3;\n"      /* low 0x10: not zero */
	       "CSETP.NE.AND P0, PT, CC, PT;\n"
	       "LOP.AND RZ.CC, R0, R3;\nLOP.AND.X RZ.CC, R1, R2;\n"      /* 0 and 0: zero */
	       "CSETP.AND P1, P2, CC.NE, PT;\n"
	       "LOP.AND RZ.CC, R0, R3;\nLOP.AND.X RZ.CC, R3, R3;\n"      /* high word 0x80000000 */
	       "CSETP.SFT.AND P3, PT, CC, PT;\nCSETP.EQ.OR P4, PT, CC, P0;\n"
	       "CSETP.EQ.AND P5, PT, CC, PT;\n"
	       "P2R R4, PR, RZ, 0x3f;\n"
	       "ST.E [R12], R4;\nEXIT;\n", "buf:u32:1");
	ck_assert_uint_eq(simt_get(&t, 0, 0), 0x1 | 0x4 | 0x8 | 0x10);
	simt_free(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sim_sm35");
	TCase *tc = tcase_create("sm35");

	tcase_add_test(tc, test_cvt_selector);
	tcase_add_test(tc, test_fchk_forms);
	tcase_add_test(tc, test_dset);
	tcase_add_test(tc, test_fmul_scale);
	tcase_add_test(tc, test_csetp);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return ck_run(suite());
}
