/* test_oracle.c - the oracle's per-instruction semantics on small PTX kernels: every
 * instruction family with its edge values (the expected values come from the PTX manual's
 * definitions, worked out by hand in the comments). */
#include <check.h>
#include <math.h>
#include "oracle_run.h"
#include "tests/unit/helper_check.h"

#define ONE "--grid 1 --block 1 --arg buf:u32:64 --arg buf:u32:64:iota"
#define S(off, reg) "st.global.u32 [%rd14+" #off "], " reg ";\n"

static ORun *ok(ORun *r)
{
	ck_assert_msg(r->rc == OR_DONE, "rc %d: %s", r->rc, r->err);
	return r;
}
#define one(body) ok(orun(OR_KERNEL(body), ONE, 0))

START_TEST(test_int_div_rem)
{
	ORun *r = one(
		"div.u32 %r3, 7, 0;\n" S(0, "%r3")                  /* x/0 unsigned: all ones */
		"rem.u32 %r3, 7, 0;\n" S(4, "%r3")                  /* x%0: x */
		"div.s32 %r3, -7, 0;\n" S(8, "%r3")                 /* negative x/0: 1 */
		"div.s32 %r3, 7, 0;\n" S(12, "%r3")                 /* positive x/0: -1 */
		"mov.u32 %r4, 0x80000000;\n"
		"div.s32 %r3, %r4, -1;\n" S(16, "%r3")              /* INT_MIN/-1: INT_MIN */
		"rem.s32 %r3, %r4, -1;\n" S(20, "%r3")              /* 0 */
		"rem.s32 %r3, -7, 3;\n" S(24, "%r3")                /* sign of dividend: -1 */
		"div.s32 %r3, -7, 2;\n" S(28, "%r3")                /* truncates: -3 */
		"div.u64 %rd3, 100, 7;\n cvt.u32.u64 %r3, %rd3;\n" S(32, "%r3"));
	ck_assert_uint_eq(ou32(r, 0, 0), 0xffffffffu);
	ck_assert_uint_eq(ou32(r, 0, 1), 7);
	ck_assert_uint_eq(ou32(r, 0, 2), 1);
	ck_assert_uint_eq(ou32(r, 0, 3), 0xffffffffu);
	ck_assert_uint_eq(ou32(r, 0, 4), 0x80000000u);
	ck_assert_uint_eq(ou32(r, 0, 5), 0);
	ck_assert_uint_eq(ou32(r, 0, 6), (uint32_t)-1);
	ck_assert_uint_eq(ou32(r, 0, 7), (uint32_t)-3);
	ck_assert_uint_eq(ou32(r, 0, 8), 14);
	orun_free(r);
}
END_TEST

START_TEST(test_int_mul_abs_minmax)
{
	ORun *r = one(
		"mov.u32 %r4, 0x80000000;\n"
		"abs.s32 %r3, %r4;\n" S(0, "%r3")                   /* |INT_MIN| wraps */
		"neg.s32 %r3, 5;\n" S(4, "%r3")
		"mul.hi.u32 %r3, 0xffffffff, 0xffffffff;\n" S(8, "%r3")  /* (2^32-1)^2 >> 32 */
		"mul.hi.s32 %r3, -1, -1;\n" S(12, "%r3")
		"mul.wide.s32 %rd3, -2, 3;\n st.global.u64 [%rd14+16], %rd3;\n"
		"mad.lo.s32 %r3, 3, 4, 5;\n" S(24, "%r3")
		"min.s32 %r3, -1, 1;\n" S(28, "%r3")
		"min.u32 %r3, 0xffffffff, 1;\n" S(32, "%r3")
		"sad.u32 %r3, 3, 10, 100;\n" S(36, "%r3")
		"mul24.lo.u32 %r3, 0x1000001, 2;\n" S(40, "%r3")    /* bit 24 is outside */
		"mul24.hi.u32 %r3, 0xffffff, 0xffffff;\n" S(44, "%r3")
		"mul.hi.u64 %rd4, 0xffffffffffffffff, 3;\n cvt.u32.u64 %r3, %rd4;\n" S(48, "%r3")
		"mul.hi.s64 %rd4, -1, 3;\n cvt.u32.u64 %r3, %rd4;\n" S(52, "%r3")
		"add.sat.s32 %r3, 0x7fffffff, 1;\n" S(56, "%r3")
		"sub.sat.s32 %r3, %r4, 1;\n" S(60, "%r3"));
	ck_assert_uint_eq(ou32(r, 0, 0), 0x80000000u);
	ck_assert_uint_eq(ou32(r, 0, 1), (uint32_t)-5);
	ck_assert_uint_eq(ou32(r, 0, 2), 0xfffffffeu);
	ck_assert_uint_eq(ou32(r, 0, 3), 0);
	ck_assert_uint_eq(ou64(r, 0, 2), (uint64_t)-6);
	ck_assert_uint_eq(ou32(r, 0, 6), 17);
	ck_assert_uint_eq(ou32(r, 0, 7), (uint32_t)-1);
	ck_assert_uint_eq(ou32(r, 0, 8), 1);
	ck_assert_uint_eq(ou32(r, 0, 9), 107);
	ck_assert_uint_eq(ou32(r, 0, 10), 2);
	ck_assert_uint_eq(ou32(r, 0, 11), 0xfffffe00u);   /* 0xfffffe000001 >> 16 */
	ck_assert_uint_eq(ou32(r, 0, 12), 2);             /* (2^64-1)*3 = 2*2^64 + ... */
	ck_assert_uint_eq(ou32(r, 0, 13), 0xffffffffu);   /* -3 >> 64 = -1 */
	ck_assert_uint_eq(ou32(r, 0, 14), 0x7fffffffu);
	ck_assert_uint_eq(ou32(r, 0, 15), 0x80000000u);
	orun_free(r);
}
END_TEST

/* the 96-bit carry chain of the inline-PTX tutorial: 0xffffffff_ffffffff_ffffffff + 1 */
START_TEST(test_carry_chain)
{
	ORun *r = one(
		"add.cc.u32 %r3, 0xffffffff, 1;\n"
		"addc.cc.u32 %r4, 0xffffffff, 0;\n"
		"addc.u32 %r5, 0xfffffffe, 0;\n" S(0, "%r3") S(4, "%r4") S(8, "%r5")
		"sub.cc.u32 %r3, 0, 1;\n"                            /* borrow out */
		"subc.cc.u32 %r4, 5, 0;\n"                           /* 5 - 0 - 1 */
		"subc.u32 %r5, 9, 9;\n" S(12, "%r3") S(16, "%r4") S(20, "%r5")
		"mad.lo.cc.u32 %r3, 0x10000, 0x10000, 0xffffffff;\n" /* 0 + 0xffffffff, no carry */
		"madc.hi.u32 %r4, 0x10000, 0x10000, 0;\n" S(24, "%r3") S(28, "%r4")
		"mad.lo.cc.u32 %r3, 0xffffffff, 1, 1;\n"             /* carry */
		"addc.u32 %r4, 0, 0;\n" S(32, "%r4")
		"add.cc.u64 %rd3, 0xffffffffffffffff, 2;\n addc.u32 %r4, 0, 0;\n" S(36, "%r4"));
	ck_assert_uint_eq(ou32(r, 0, 0), 0);
	ck_assert_uint_eq(ou32(r, 0, 1), 0);
	ck_assert_uint_eq(ou32(r, 0, 2), 0xffffffffu);
	ck_assert_uint_eq(ou32(r, 0, 3), 0xffffffffu);
	ck_assert_uint_eq(ou32(r, 0, 4), 4);
	ck_assert_uint_eq(ou32(r, 0, 5), 0);
	ck_assert_uint_eq(ou32(r, 0, 6), 0xffffffffu);
	ck_assert_uint_eq(ou32(r, 0, 7), 1);
	ck_assert_uint_eq(ou32(r, 0, 8), 1);
	ck_assert_uint_eq(ou32(r, 0, 9), 1);
	orun_free(r);
}
END_TEST

START_TEST(test_bit_fields)
{
	ORun *r = one(
		"bfe.u32 %r3, 0xf0f0f0f0, 4, 8;\n" S(0, "%r3")
		"bfe.s32 %r3, 0x00000080, 4, 4;\n" S(4, "%r3")      /* field 1000b, sign set */
		"bfe.s32 %r3, 0x80000000, 40, 8;\n" S(8, "%r3")     /* pos > msb: a[31] copies */
		"bfe.u32 %r3, 0xffffffff, 0, 0;\n" S(12, "%r3")     /* len 0: 0 */
		"bfe.u32 %r3, 0xffffffff, 28, 100;\n" S(16, "%r3")  /* clipped at msb */
		"bfi.b32 %r3, 0xff, 0, 8, 4;\n" S(20, "%r3")
		"bfi.b32 %r3, 0xff, 0x12345678, 40, 4;\n" S(24, "%r3") /* pos beyond: b */
		"bfi.b32 %r3, 0xffffffff, 0, 30, 8;\n" S(28, "%r3") /* clipped: bits 30,31 */
		"shf.l.clamp.b32 %r3, 0x80000000, 1, 33;\n" S(32, "%r3") /* n clamps to 32: a */
		"shf.l.wrap.b32 %r3, 0x80000000, 1, 33;\n" S(36, "%r3")  /* n = 1: 3 */
		"shf.r.clamp.b32 %r3, 1, 0x80000000, 40;\n" S(40, "%r3") /* b */
		"shf.r.wrap.b32 %r3, 2, 1, 1;\n" S(44, "%r3")
		"prmt.b32 %r3, 0x03020100, 0x07060504, 0x7531;\n" S(48, "%r3")
		"prmt.b32 %r3, 0x00008000, 0, 0x9991;\n" S(52, "%r3")   /* sign replicate */
		"prmt.b32.f4e %r3, 0x03020100, 0x07060504, 1;\n" S(56, "%r3")
		"prmt.b32.b4e %r3, 0x03020100, 0x07060504, 1;\n" S(60, "%r3")
		"prmt.b32.rc8 %r3, 0x03020100, 0x07060504, 2;\n" S(64, "%r3")
		"prmt.b32.ecl %r3, 0x03020100, 0x07060504, 1;\n" S(68, "%r3")
		"prmt.b32.ecr %r3, 0x03020100, 0x07060504, 2;\n" S(72, "%r3")
		"prmt.b32.rc16 %r3, 0x03020100, 0x07060504, 1;\n" S(76, "%r3"));
	ck_assert_uint_eq(ou32(r, 0, 0), 0x0f);
	ck_assert_uint_eq(ou32(r, 0, 1), 0xfffffff8u);
	ck_assert_uint_eq(ou32(r, 0, 2), 0xffffffffu);
	ck_assert_uint_eq(ou32(r, 0, 3), 0);
	ck_assert_uint_eq(ou32(r, 0, 4), 0xf);
	ck_assert_uint_eq(ou32(r, 0, 5), 0xf00);
	ck_assert_uint_eq(ou32(r, 0, 6), 0x12345678u);
	ck_assert_uint_eq(ou32(r, 0, 7), 0xc0000000u);
	ck_assert_uint_eq(ou32(r, 0, 8), 0x80000000u);
	ck_assert_uint_eq(ou32(r, 0, 9), 3);
	ck_assert_uint_eq(ou32(r, 0, 10), 0x80000000u);
	ck_assert_uint_eq(ou32(r, 0, 11), 0x80000001u);
	ck_assert_uint_eq(ou32(r, 0, 12), 0x07050301u);  /* the CUB example */
	ck_assert_uint_eq(ou32(r, 0, 13), 0xffffff80u);
	ck_assert_uint_eq(ou32(r, 0, 14), 0x04030201u);
	ck_assert_uint_eq(ou32(r, 0, 15), 0x06070001u);
	ck_assert_uint_eq(ou32(r, 0, 16), 0x02020202u);
	ck_assert_uint_eq(ou32(r, 0, 17), 0x03020101u);
	ck_assert_uint_eq(ou32(r, 0, 18), 0x02020100u);
	ck_assert_uint_eq(ou32(r, 0, 19), 0x03020302u);
	orun_free(r);
}
END_TEST

START_TEST(test_bit_counts_shifts)
{
	ORun *r = one(
		"clz.b32 %r3, 0;\n" S(0, "%r3")
		"clz.b32 %r3, 0x00010000;\n" S(4, "%r3")
		"popc.b32 %r3, 0xf00f0001;\n" S(8, "%r3")
		"bfind.u32 %r3, 0;\n" S(12, "%r3")
		"bfind.s32 %r3, -1;\n" S(16, "%r3")                 /* no non-sign bit */
		"bfind.s32 %r3, 0xfffff7ff;\n" S(20, "%r3")         /* bit 11 is the first 0 */
		"bfind.shiftamt.u32 %r3, 0x10;\n" S(24, "%r3")
		"brev.b32 %r3, 1;\n" S(28, "%r3")
		"shl.b32 %r3, 1, 32;\n" S(32, "%r3")
		"shr.s32 %r3, 0x80000000, 40;\n" S(36, "%r3")
		"shr.u32 %r3, 0x80000000, 31;\n" S(40, "%r3")
		"lop3.b32 %r3, 0xf0, 0xcc, 0xaa, 0x96;\n" S(44, "%r3") /* a ^ b ^ c */
		"fns.b32 %r3, 0x00f0, 0, 2;\n" S(48, "%r3")
		"bmsk.clamp.b32 %r3, 4, 8;\n" S(52, "%r3")
		"szext.clamp.s32 %r3, 0x80, 8;\n" S(56, "%r3")
		"clz.b64 %r3, 1;\n" S(60, "%r3")
		"popc.b64 %r3, 0xffffffffffffffff;\n" S(64, "%r3")
		"cnot.b32 %r3, 0;\n" S(68, "%r3")
		"not.b32 %r3, 0x0f0f0f0f;\n" S(72, "%r3"));
	ck_assert_uint_eq(ou32(r, 0, 0), 32);
	ck_assert_uint_eq(ou32(r, 0, 1), 15);
	ck_assert_uint_eq(ou32(r, 0, 2), 9);
	ck_assert_uint_eq(ou32(r, 0, 3), 0xffffffffu);
	ck_assert_uint_eq(ou32(r, 0, 4), 0xffffffffu);
	ck_assert_uint_eq(ou32(r, 0, 5), 11);
	ck_assert_uint_eq(ou32(r, 0, 6), 27);
	ck_assert_uint_eq(ou32(r, 0, 7), 0x80000000u);
	ck_assert_uint_eq(ou32(r, 0, 8), 0);
	ck_assert_uint_eq(ou32(r, 0, 9), 0xffffffffu);
	ck_assert_uint_eq(ou32(r, 0, 10), 1);
	ck_assert_uint_eq(ou32(r, 0, 11), 0xf0 ^ 0xcc ^ 0xaa);
	ck_assert_uint_eq(ou32(r, 0, 12), 5);
	ck_assert_uint_eq(ou32(r, 0, 13), 0xff0);
	ck_assert_uint_eq(ou32(r, 0, 14), 0xffffff80u);
	ck_assert_uint_eq(ou32(r, 0, 15), 63);
	ck_assert_uint_eq(ou32(r, 0, 16), 64);
	ck_assert_uint_eq(ou32(r, 0, 17), 1);
	ck_assert_uint_eq(ou32(r, 0, 18), 0xf0f0f0f0u);
	orun_free(r);
}
END_TEST

START_TEST(test_compare_select)
{
	ORun *r = one(
		"mov.b32 %f1, 0f7FC00000;\n"                        /* NaN */
		"setp.lt.f32 %p1, %f1, 1.0;\n selp.u32 %r3, 1, 0, %p1;\n" S(0, "%r3")
		"setp.ltu.f32 %p1, %f1, 1.0;\n selp.u32 %r3, 1, 0, %p1;\n" S(4, "%r3")
		"setp.nan.f32 %p1, %f1, 1.0;\n selp.u32 %r3, 1, 0, %p1;\n" S(8, "%r3")
		"setp.num.f32 %p1, %f1, 1.0;\n selp.u32 %r3, 1, 0, %p1;\n" S(12, "%r3")
		"setp.neu.f32 %p1, %f1, %f1;\n selp.u32 %r3, 1, 0, %p1;\n" S(16, "%r3")
		"setp.lt.s32 %p2, -1, 0;\n selp.u32 %r3, 1, 0, %p2;\n" S(20, "%r3")
		"setp.lo.u32 %p2, 0xffffffff, 0;\n selp.u32 %r3, 1, 0, %p2;\n" S(24, "%r3")
		"setp.lt.and.s32 %p3|%p4, 1, 2, %p2;\n"              /* p2 false */
		"selp.u32 %r3, 1, 0, %p3;\n" S(28, "%r3") "selp.u32 %r3, 1, 0, %p4;\n" S(32, "%r3")
		"setp.lt.or.s32 %p3|%p4, 1, 2, !%p2;\n"
		"selp.u32 %r3, 1, 0, %p3;\n" S(36, "%r3") "selp.u32 %r3, 1, 0, %p4;\n" S(40, "%r3")
		"set.gt.u32.s32 %r3, 5, 2;\n" S(44, "%r3")
		"set.gt.f32.s32 %f3, 5, 2;\n mov.b32 %r3, %f3;\n" S(48, "%r3")
		"slct.u32.s32 %r3, 10, 20, -1;\n" S(52, "%r3")
		"slct.u32.f32 %r3, 10, 20, 0f80000000;\n" S(56, "%r3")  /* -0 >= 0 */
		"setp.eq.f32 %p1, 0f80000000, 0f00000000;\n selp.u32 %r3, 1, 0, %p1;\n" S(60, "%r3"));
	ck_assert_uint_eq(ou32(r, 0, 0), 0);
	ck_assert_uint_eq(ou32(r, 0, 1), 1);
	ck_assert_uint_eq(ou32(r, 0, 2), 1);
	ck_assert_uint_eq(ou32(r, 0, 3), 0);
	ck_assert_uint_eq(ou32(r, 0, 4), 1);
	ck_assert_uint_eq(ou32(r, 0, 5), 1);
	ck_assert_uint_eq(ou32(r, 0, 6), 0);
	ck_assert_uint_eq(ou32(r, 0, 7), 0);
	ck_assert_uint_eq(ou32(r, 0, 8), 0);
	ck_assert_uint_eq(ou32(r, 0, 9), 1);
	ck_assert_uint_eq(ou32(r, 0, 10), 1);
	ck_assert_uint_eq(ou32(r, 0, 11), 0xffffffffu);
	ck_assert_uint_eq(ou32(r, 0, 12), 0x3f800000u);
	ck_assert_uint_eq(ou32(r, 0, 13), 20);
	ck_assert_uint_eq(ou32(r, 0, 14), 10);
	ck_assert_uint_eq(ou32(r, 0, 15), 1);
	orun_free(r);
}
END_TEST

START_TEST(test_float)
{
	ORun *r = one(
		"mov.b32 %f1, 0f7FC00000;\n"
		"min.f32 %f3, %f1, 2.0;\n mov.b32 %r3, %f3;\n" S(0, "%r3")          /* NaN ignored */
		"max.NaN.f32 %f3, %f1, 2.0;\n mov.b32 %r3, %f3;\n" S(4, "%r3")      /* canonical NaN */
		"min.f32 %f3, 0f00000000, 0f80000000;\n mov.b32 %r3, %f3;\n" S(8, "%r3") /* -0 */
		"max.f32 %f3, 0f80000000, 0f00000000;\n mov.b32 %r3, %f3;\n" S(12, "%r3")
		"add.rn.sat.f32 %f3, 0.75, 0.5;\n mov.b32 %r3, %f3;\n" S(16, "%r3")
		"add.rz.f32 %f3, 0f3F800000, 0f33800000;\n mov.b32 %r3, %f3;\n" S(20, "%r3") /* 1 + 2^-24 */
		"add.rp.f32 %f3, 0f3F800000, 0f33800000;\n mov.b32 %r3, %f3;\n" S(24, "%r3")
		"div.rn.f32 %f3, 1.0, 3.0;\n mov.b32 %r3, %f3;\n" S(28, "%r3")
		"sqrt.rn.f32 %f3, 2.0;\n mov.b32 %r3, %f3;\n" S(32, "%r3")
		"abs.f32 %f3, 0fBF800000;\n mov.b32 %r3, %f3;\n" S(36, "%r3")
		"neg.f32 %f3, 0f3F800000;\n mov.b32 %r3, %f3;\n" S(40, "%r3")
		"copysign.f32 %f3, 0fBF800000, 2.0;\n mov.b32 %r3, %f3;\n" S(44, "%r3")
		"testp.subnormal.f32 %p1, 0f00000001;\n selp.u32 %r3, 1, 0, %p1;\n" S(48, "%r3")
		"testp.infinite.f32 %p1, 0fFF800000;\n selp.u32 %r3, 1, 0, %p1;\n" S(52, "%r3")
		"add.ftz.f32 %f3, 0f00000001, 0f00000000;\n mov.b32 %r3, %f3;\n" S(56, "%r3")
		"fma.rn.f32 %f3, 0f3F800001, 0f3F800001, 0fBF800002;\n mov.b32 %r3, %f3;\n" S(60, "%r3")
		"rcp.approx.f32 %f3, 3.0;\n mov.b32 %r3, %f3;\n" S(64, "%r3")
		"ex2.approx.f32 %f3, 0.5;\n mov.b32 %r3, %f3;\n" S(68, "%r3")
		"add.f64 %fd1, 0d3FF0000000000000, 0d3CA0000000000000;\n"   /* 1 + 2^-53: tie to even */
		"mov.b64 %rd3, %fd1;\n st.global.u64 [%rd14+72], %rd3;\n");
	ck_assert_uint_eq(ou32(r, 0, 0), 0x40000000u);
	ck_assert_uint_eq(ou32(r, 0, 1), 0x7fffffffu);
	ck_assert_uint_eq(ou32(r, 0, 2), 0x80000000u);
	ck_assert_uint_eq(ou32(r, 0, 3), 0x00000000u);
	ck_assert_uint_eq(ou32(r, 0, 4), 0x3f800000u);
	ck_assert_uint_eq(ou32(r, 0, 5), 0x3f800000u);
	ck_assert_uint_eq(ou32(r, 0, 6), 0x3f800001u);
	ck_assert_uint_eq(ou32(r, 0, 7), 0x3eaaaaabu);
	ck_assert_uint_eq(ou32(r, 0, 8), 0x3fb504f3u);
	ck_assert_uint_eq(ou32(r, 0, 9), 0x3f800000u);
	ck_assert_uint_eq(ou32(r, 0, 10), 0xbf800000u);
	ck_assert_uint_eq(ou32(r, 0, 11), 0xc0000000u);
	ck_assert_uint_eq(ou32(r, 0, 12), 1);
	ck_assert_uint_eq(ou32(r, 0, 13), 1);
	ck_assert_uint_eq(ou32(r, 0, 14), 0);
	ck_assert_uint_eq(ou32(r, 0, 15), 0x28800000u);   /* (1+e)^2 - (1+2e) = e^2 = 2^-46 */
	ck_assert_uint_eq(ou32(r, 0, 16), ar_rcp_approx_f32(0x40400000u, 0));
	ck_assert_uint_eq(ou32(r, 0, 17), ar_ex2_approx_f32(0x3f000000u, 0));
	ck_assert_uint_eq(ou64(r, 0, 9), 0x3ff0000000000000ull);
	orun_free(r);
}
END_TEST

START_TEST(test_convert)
{
	ORun *r = one(
		"cvt.rni.s32.f32 %r3, 2.5;\n" S(0, "%r3")            /* to even: 2 */
		"cvt.rzi.s32.f32 %r3, -2.7;\n" S(4, "%r3")
		"cvt.rmi.s32.f32 %r3, -2.1;\n" S(8, "%r3")
		"cvt.rpi.s32.f32 %r3, 2.1;\n" S(12, "%r3")
		"mov.b32 %f1, 0f7FC00000;\n cvt.rzi.s32.f32 %r3, %f1;\n" S(16, "%r3")   /* NaN: 0 */
		"cvt.rzi.s32.f32 %r3, 0f4F800000;\n" S(20, "%r3")   /* 2^32 saturates */
		"cvt.rzi.u32.f32 %r3, -5.0;\n" S(24, "%r3")
		"cvt.rn.f32.s32 %f3, 16777217;\n mov.b32 %r3, %f3;\n" S(28, "%r3")
		"cvt.rz.f32.u32 %f3, 0xffffffff;\n mov.b32 %r3, %f3;\n" S(32, "%r3")
		"cvt.rn.f16.f32 %rs1, 1.0;\n cvt.u32.u16 %r3, %rs1;\n" S(36, "%r3")
		"cvt.rn.f16.f32 %rs1, 1.0e6;\n cvt.u32.u16 %r3, %rs1;\n" S(40, "%r3") /* inf */
		"mov.b16 %rs2, 0x3555;\n cvt.f32.f16 %f3, %rs2;\n mov.b32 %r3, %f3;\n" S(44, "%r3")
		"cvt.s32.s8 %r3, 0x80;\n" S(48, "%r3")
		"cvt.sat.u8.s32 %r3, 300;\n" S(52, "%r3")
		"cvt.sat.s8.s32 %r3, -300;\n" S(56, "%r3")
		"cvt.rn.sat.f32.f32 %f3, 2.0;\n mov.b32 %r3, %f3;\n" S(60, "%r3")
		"cvt.rni.f32.f32 %f3, 3.5;\n mov.b32 %r3, %f3;\n" S(64, "%r3")
		"cvt.rn.f32.f64 %f3, 0d3FF0000010000000;\n mov.b32 %r3, %f3;\n" S(68, "%r3")
		"cvt.u64.u32 %rd3, 0xffffffff;\n cvt.s64.s32 %rd4, 0xffffffff;\n add.s64 %rd3, %rd3, %rd4;\n"
		"st.global.u64 [%rd14+72], %rd3;\n");
	ck_assert_uint_eq(ou32(r, 0, 0), 2);
	ck_assert_uint_eq(ou32(r, 0, 1), (uint32_t)-2);
	ck_assert_uint_eq(ou32(r, 0, 2), (uint32_t)-3);
	ck_assert_uint_eq(ou32(r, 0, 3), 3);
	ck_assert_uint_eq(ou32(r, 0, 4), 0);
	ck_assert_uint_eq(ou32(r, 0, 5), 0x7fffffffu);
	ck_assert_uint_eq(ou32(r, 0, 6), 0);
	ck_assert_uint_eq(ou32(r, 0, 7), 0x4b800000u);   /* 2^24 + 1 rounds to 2^24 */
	ck_assert_uint_eq(ou32(r, 0, 8), 0x4f7fffffu);
	ck_assert_uint_eq(ou32(r, 0, 9), 0x3c00);
	ck_assert_uint_eq(ou32(r, 0, 10), 0x7c00);
	ck_assert_uint_eq(ou32(r, 0, 11), 0x3eaaa000u);  /* f16 0x3555 = 0.333251953125 */
	ck_assert_uint_eq(ou32(r, 0, 12), 0xffffff80u);
	ck_assert_uint_eq(ou32(r, 0, 13), 255);
	ck_assert_uint_eq(ou32(r, 0, 14), 0xffffff80u);  /* -128 in a 32-bit register */
	ck_assert_uint_eq(ou32(r, 0, 15), 0x3f800000u);
	ck_assert_uint_eq(ou32(r, 0, 16), 0x40800000u);
	ck_assert_uint_eq(ou32(r, 0, 17), 0x3f800000u);
	ck_assert_uint_eq(ou64(r, 0, 9), 0xfffffffeull);
	orun_free(r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("oracle");
	TCase *tc = tcase_create("alu");

	tcase_add_test(tc, test_int_div_rem);
	tcase_add_test(tc, test_int_mul_abs_minmax);
	tcase_add_test(tc, test_carry_chain);
	tcase_add_test(tc, test_bit_fields);
	tcase_add_test(tc, test_bit_counts_shifts);
	tcase_add_test(tc, test_compare_select);
	tcase_add_test(tc, test_float);
	tcase_add_test(tc, test_convert);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{

	return ck_run(suite());
}
