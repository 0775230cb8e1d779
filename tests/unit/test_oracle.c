/* test_oracle.c - the oracle's per-instruction semantics on small PTX kernels: every
 * instruction family with its edge values (the expected values come from the PTX manual's
 * definitions, worked out by hand in the comments). */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include "oracle_run.h"
#include "tests/unit/helper_check.h"

#define ONE "--grid 1 --block 1 --arg buf:u32:64 --arg buf:u32:64:iota"

/* instructions whose result the kernel stores to the next word of out (the next two,
 * 8-aligned, for a 64-bit register) */
typedef struct {
	const char *ptx;   /* leaves the result in reg; "" for another result of the one before */
	const char *reg;   /* NULL for %r3 */
	uint64_t want;
} Step;

#define OPS(ops) ops, (int)(sizeof ops / sizeof ops[0])

/* runs ops in order on one thread, storing each result in turn, and checks them all; a
 * failure names the instructions */
static void run_ops(const Step *ops, int n)
{
	static const char kernel[] = OR_KERNEL("");   /* the body goes before its last "\n}\n" */
	char ptx[8192];
	int len = snprintf(ptx, sizeof ptx, "%.*s", (int)sizeof kernel - 4, kernel), off[64];
	ORun *r;

	ck_assert_int_le(n, 64);
	for (int i = 0, at = 0; i < n; i++) {
		const char *reg = ops[i].reg ? ops[i].reg : "%r3";
		int wide = !strncmp(reg, "%rd", 3);

		at = wide ? (at + 7) & ~7 : at;
		off[i] = at;
		len += snprintf(ptx + len, sizeof ptx - len, "%s%sst.global.%s [%%rd14+%d], %s;\n",
		                ops[i].ptx, *ops[i].ptx ? "\n" : "", wide ? "u64" : "u32", at, reg);
		at += wide ? 8 : 4;
	}
	len += snprintf(ptx + len, sizeof ptx - len, "\n}\n");
	ck_assert_int_lt(len, (int)sizeof ptx);
	r = orun_ok(ptx, ONE, 0);
	for (int i = 0; i < n; i++) {
		int wide = ops[i].reg && !strncmp(ops[i].reg, "%rd", 3);
		uint64_t got = wide ? ou64(r, 0, off[i] / 8) : ou32(r, 0, off[i] / 4);
		const char *what = ops[i].ptx;

		for (int j = i; !*what && j > 0;)
			what = ops[--j].ptx;

		ck_assert_msg(got == ops[i].want, "%s (%s, out byte %d): %#" PRIx64 ", expected %#" PRIx64,
		              what, ops[i].reg ? ops[i].reg : "%r3", off[i], got, ops[i].want);
	}
	orun_free(r);
}

START_TEST(test_int_div_rem)
{
	static const Step ops[] = {
		{"div.u32 %r3, 7, 0;", NULL, 0xffffffffu},                 /* x/0 unsigned: all ones */
		{"rem.u32 %r3, 7, 0;", NULL, 7},                           /* x%0: x */
		{"div.s32 %r3, -7, 0;", NULL, 1},                          /* negative x/0: 1 */
		{"div.s32 %r3, 7, 0;", NULL, 0xffffffffu},                 /* positive x/0: -1 */
		{"mov.u32 %r4, 0x80000000;\n"
		 "div.s32 %r3, %r4, -1;", NULL, 0x80000000u},              /* INT_MIN/-1: INT_MIN */
		{"rem.s32 %r3, %r4, -1;", NULL, 0},
		{"rem.s32 %r3, -7, 3;", NULL, (uint32_t)-1},               /* sign of dividend */
		{"div.s32 %r3, -7, 2;", NULL, (uint32_t)-3},               /* truncates */
		{"div.u64 %rd3, 100, 7;\n cvt.u32.u64 %r3, %rd3;", NULL, 14},
	};

	run_ops(OPS(ops));
}
END_TEST

START_TEST(test_int_mul_abs_minmax)
{
	static const Step ops[] = {
		{"mov.u32 %r4, 0x80000000;\n"
		 "abs.s32 %r3, %r4;", NULL, 0x80000000u},                  /* |INT_MIN| wraps */
		{"neg.s32 %r3, 5;", NULL, (uint32_t)-5},
		{"mul.hi.u32 %r3, 0xffffffff, 0xffffffff;", NULL, 0xfffffffeu},  /* (2^32-1)^2 >> 32 */
		{"mul.hi.s32 %r3, -1, -1;", NULL, 0},
		{"mul.wide.s32 %rd3, -2, 3;", "%rd3", (uint64_t)-6},
		{"mad.lo.s32 %r3, 3, 4, 5;", NULL, 17},
		{"min.s32 %r3, -1, 1;", NULL, (uint32_t)-1},
		{"min.u32 %r3, 0xffffffff, 1;", NULL, 1},
		{"sad.u32 %r3, 3, 10, 100;", NULL, 107},
		{"mul24.lo.u32 %r3, 0x1000001, 2;", NULL, 2},              /* bit 24 is outside */
		{"mul24.hi.u32 %r3, 0xffffff, 0xffffff;", NULL, 0xfffffe00u},  /* 0xfffffe000001 >> 16 */
		{"mul.hi.u64 %rd4, 0xffffffffffffffff, 3;\n cvt.u32.u64 %r3, %rd4;", NULL,
		 2},                                                        /* (2^64-1)*3 = 2*2^64 + ... */
		{"mul.hi.s64 %rd4, -1, 3;\n cvt.u32.u64 %r3, %rd4;", NULL,
		 0xffffffffu},                                              /* -3 >> 64 = -1 */
		{"add.sat.s32 %r3, 0x7fffffff, 1;", NULL, 0x7fffffffu},
		{"sub.sat.s32 %r3, %r4, 1;", NULL, 0x80000000u},
	};

	run_ops(OPS(ops));
}
END_TEST

/* the 96-bit carry chain of the inline-PTX tutorial: 0xffffffff_ffffffff_ffffffff + 1 */
START_TEST(test_carry_chain)
{
	static const Step ops[] = {
		{"add.cc.u32 %r3, 0xffffffff, 1;\n"
		 "addc.cc.u32 %r4, 0xffffffff, 0;\n"
		 "addc.u32 %r5, 0xfffffffe, 0;", "%r3", 0},
		{"", "%r4", 0},
		{"", "%r5", 0xffffffffu},
		{"sub.cc.u32 %r3, 0, 1;\n"                                   /* borrow out */
		 "subc.cc.u32 %r4, 5, 0;\n"                                  /* 5 - 0 - 1 */
		 "subc.u32 %r5, 9, 9;", "%r3", 0xffffffffu},
		{"", "%r4", 4},
		{"", "%r5", 0},
		{"mad.lo.cc.u32 %r3, 0x10000, 0x10000, 0xffffffff;\n"        /* 0 + 0xffffffff, no carry */
		 "madc.hi.u32 %r4, 0x10000, 0x10000, 0;", "%r3", 0xffffffffu},
		{"", "%r4", 1},
		{"mad.lo.cc.u32 %r3, 0xffffffff, 1, 1;\n"                    /* carry */
		 "addc.u32 %r4, 0, 0;", "%r4", 1},
		{"add.cc.u64 %rd3, 0xffffffffffffffff, 2;\n addc.u32 %r4, 0, 0;", "%r4", 1},
	};

	run_ops(OPS(ops));
}
END_TEST

START_TEST(test_bit_fields)
{
	static const Step ops[] = {
		{"bfe.u32 %r3, 0xf0f0f0f0, 4, 8;", NULL, 0x0f},
		{"bfe.s32 %r3, 0x00000080, 4, 4;", NULL, 0xfffffff8u},      /* field 1000b, sign set */
		{"bfe.s32 %r3, 0x80000000, 40, 8;", NULL, 0xffffffffu},     /* pos > msb: a[31] copies */
		{"bfe.u32 %r3, 0xffffffff, 0, 0;", NULL, 0},                /* len 0: 0 */
		{"bfe.u32 %r3, 0xffffffff, 28, 100;", NULL, 0xf},           /* clipped at msb */
		{"bfi.b32 %r3, 0xff, 0, 8, 4;", NULL, 0xf00},
		{"bfi.b32 %r3, 0xff, 0x12345678, 40, 4;", NULL, 0x12345678u},  /* pos beyond: b */
		{"bfi.b32 %r3, 0xffffffff, 0, 30, 8;", NULL, 0xc0000000u},  /* clipped: bits 30,31 */
		{"shf.l.clamp.b32 %r3, 0x80000000, 1, 33;", NULL, 0x80000000u},  /* n clamps to 32: a */
		{"shf.l.wrap.b32 %r3, 0x80000000, 1, 33;", NULL, 3},        /* n = 1: 3 */
		{"shf.r.clamp.b32 %r3, 1, 0x80000000, 40;", NULL, 0x80000000u},  /* b */
		{"shf.r.wrap.b32 %r3, 2, 1, 1;", NULL, 0x80000001u},
		{"prmt.b32 %r3, 0x03020100, 0x07060504, 0x7531;", NULL, 0x07050301u},  /* the CUB example */
		{"prmt.b32 %r3, 0x00008000, 0, 0x9991;", NULL, 0xffffff80u},  /* sign replicate */
		{"prmt.b32.f4e %r3, 0x03020100, 0x07060504, 1;", NULL, 0x04030201u},
		{"prmt.b32.b4e %r3, 0x03020100, 0x07060504, 1;", NULL, 0x06070001u},
		{"prmt.b32.rc8 %r3, 0x03020100, 0x07060504, 2;", NULL, 0x02020202u},
		{"prmt.b32.ecl %r3, 0x03020100, 0x07060504, 1;", NULL, 0x03020101u},
		{"prmt.b32.ecr %r3, 0x03020100, 0x07060504, 2;", NULL, 0x02020100u},
		{"prmt.b32.rc16 %r3, 0x03020100, 0x07060504, 1;", NULL, 0x03020302u},
	};

	run_ops(OPS(ops));
}
END_TEST

START_TEST(test_bit_counts_shifts)
{
	static const Step ops[] = {
		{"clz.b32 %r3, 0;", NULL, 32},
		{"clz.b32 %r3, 0x00010000;", NULL, 15},
		{"popc.b32 %r3, 0xf00f0001;", NULL, 9},
		{"bfind.u32 %r3, 0;", NULL, 0xffffffffu},
		{"bfind.s32 %r3, -1;", NULL, 0xffffffffu},                  /* no non-sign bit */
		{"bfind.s32 %r3, 0xfffff7ff;", NULL, 11},                   /* bit 11 is the first 0 */
		{"bfind.shiftamt.u32 %r3, 0x10;", NULL, 27},
		{"brev.b32 %r3, 1;", NULL, 0x80000000u},
		{"shl.b32 %r3, 1, 32;", NULL, 0},
		{"shr.s32 %r3, 0x80000000, 40;", NULL, 0xffffffffu},
		{"shr.u32 %r3, 0x80000000, 31;", NULL, 1},
		{"lop3.b32 %r3, 0xf0, 0xcc, 0xaa, 0x96;", NULL, 0xf0 ^ 0xcc ^ 0xaa},  /* a ^ b ^ c */
		{"fns.b32 %r3, 0x00f0, 0, 2;", NULL, 5},
		{"bmsk.clamp.b32 %r3, 4, 8;", NULL, 0xff0},
		{"szext.clamp.s32 %r3, 0x80, 8;", NULL, 0xffffff80u},
		{"clz.b64 %r3, 1;", NULL, 63},
		{"popc.b64 %r3, 0xffffffffffffffff;", NULL, 64},
		{"cnot.b32 %r3, 0;", NULL, 1},
		{"not.b32 %r3, 0x0f0f0f0f;", NULL, 0xf0f0f0f0u},
	};

	run_ops(OPS(ops));
}
END_TEST

/* a comparison's predicate as 1 or 0 in %r3 */
#define SELP(p) "\n selp.u32 %r3, 1, 0, " p ";"

START_TEST(test_compare_select)
{
	static const Step ops[] = {
		{"mov.b32 %f1, 0f7FC00000;\n"                               /* NaN */
		 "setp.lt.f32 %p1, %f1, 1.0;" SELP("%p1"), NULL, 0},
		{"setp.ltu.f32 %p1, %f1, 1.0;" SELP("%p1"), NULL, 1},
		{"setp.nan.f32 %p1, %f1, 1.0;" SELP("%p1"), NULL, 1},
		{"setp.num.f32 %p1, %f1, 1.0;" SELP("%p1"), NULL, 0},
		{"setp.neu.f32 %p1, %f1, %f1;" SELP("%p1"), NULL, 1},
		{"setp.lt.s32 %p2, -1, 0;" SELP("%p2"), NULL, 1},
		{"setp.lo.u32 %p2, 0xffffffff, 0;" SELP("%p2"), NULL, 0},
		{"setp.lt.and.s32 %p3|%p4, 1, 2, %p2;\n"                    /* p2 false */
		 "selp.u32 %r3, 1, 0, %p3;", NULL, 0},
		{"selp.u32 %r3, 1, 0, %p4;", NULL, 0},
		{"setp.lt.or.s32 %p3|%p4, 1, 2, !%p2;\n"
		 "selp.u32 %r3, 1, 0, %p3;", NULL, 1},
		{"selp.u32 %r3, 1, 0, %p4;", NULL, 1},
		{"set.gt.u32.s32 %r3, 5, 2;", NULL, 0xffffffffu},
		{"set.gt.f32.s32 %f3, 5, 2;\n mov.b32 %r3, %f3;", NULL, 0x3f800000u},
		{"slct.u32.s32 %r3, 10, 20, -1;", NULL, 20},
		{"slct.u32.f32 %r3, 10, 20, 0f80000000;", NULL, 10},        /* -0 >= 0 */
		{"setp.eq.f32 %p1, 0f80000000, 0f00000000;" SELP("%p1"), NULL, 1},
	};

	run_ops(OPS(ops));
}
END_TEST

/* an f32 result's bits in %r3 */
#define BITS "\n mov.b32 %r3, %f3;"

START_TEST(test_float)
{
	const Step ops[] = {
		{"mov.b32 %f1, 0f7FC00000;\n"
		 "min.f32 %f3, %f1, 2.0;" BITS, NULL, 0x40000000u},          /* NaN ignored */
		{"max.NaN.f32 %f3, %f1, 2.0;" BITS, NULL, 0x7fffffffu},      /* canonical NaN */
		{"min.f32 %f3, 0f00000000, 0f80000000;" BITS, NULL, 0x80000000u},  /* -0 */
		{"max.f32 %f3, 0f80000000, 0f00000000;" BITS, NULL, 0x00000000u},
		{"add.rn.sat.f32 %f3, 0.75, 0.5;" BITS, NULL, 0x3f800000u},
		{"add.rz.f32 %f3, 0f3F800000, 0f33800000;" BITS, NULL, 0x3f800000u},  /* 1 + 2^-24 */
		{"add.rp.f32 %f3, 0f3F800000, 0f33800000;" BITS, NULL, 0x3f800001u},
		{"div.rn.f32 %f3, 1.0, 3.0;" BITS, NULL, 0x3eaaaaabu},
		{"sqrt.rn.f32 %f3, 2.0;" BITS, NULL, 0x3fb504f3u},
		{"abs.f32 %f3, 0fBF800000;" BITS, NULL, 0x3f800000u},
		{"neg.f32 %f3, 0f3F800000;" BITS, NULL, 0xbf800000u},
		{"copysign.f32 %f3, 0fBF800000, 2.0;" BITS, NULL, 0xc0000000u},
		{"testp.subnormal.f32 %p1, 0f00000001;" SELP("%p1"), NULL, 1},
		{"testp.infinite.f32 %p1, 0fFF800000;" SELP("%p1"), NULL, 1},
		{"add.ftz.f32 %f3, 0f00000001, 0f00000000;" BITS, NULL, 0},
		{"fma.rn.f32 %f3, 0f3F800001, 0f3F800001, 0fBF800002;" BITS, NULL,
		 0x28800000u},                                              /* (1+e)^2 - (1+2e) = e^2 = 2^-46 */
		{"rcp.approx.f32 %f3, 3.0;" BITS, NULL, ar_rcp_approx_f32(0x40400000u, 0)},
		{"ex2.approx.f32 %f3, 0.5;" BITS, NULL, ar_ex2_approx_f32(0x3f000000u, 0)},
		{"add.f64 %fd1, 0d3FF0000000000000, 0d3CA0000000000000;\n"  /* 1 + 2^-53: tie to even */
		 "mov.b64 %rd3, %fd1;", "%rd3", 0x3ff0000000000000ull},
	};

	run_ops(OPS(ops));
}
END_TEST

START_TEST(test_convert)
{
	static const Step ops[] = {
		{"cvt.rni.s32.f32 %r3, 2.5;", NULL, 2},                     /* to even */
		{"cvt.rzi.s32.f32 %r3, -2.7;", NULL, (uint32_t)-2},
		{"cvt.rmi.s32.f32 %r3, -2.1;", NULL, (uint32_t)-3},
		{"cvt.rpi.s32.f32 %r3, 2.1;", NULL, 3},
		{"mov.b32 %f1, 0f7FC00000;\n cvt.rzi.s32.f32 %r3, %f1;", NULL, 0},  /* NaN: 0 */
		{"cvt.rzi.s32.f32 %r3, 0f4F800000;", NULL, 0x7fffffffu},    /* 2^32 saturates */
		{"cvt.rzi.u32.f32 %r3, -5.0;", NULL, 0},
		{"cvt.rn.f32.s32 %f3, 16777217;" BITS, NULL, 0x4b800000u},  /* 2^24 + 1 rounds to 2^24 */
		{"cvt.rz.f32.u32 %f3, 0xffffffff;" BITS, NULL, 0x4f7fffffu},
		{"cvt.rn.f16.f32 %rs1, 1.0;\n cvt.u32.u16 %r3, %rs1;", NULL, 0x3c00},
		{"cvt.rn.f16.f32 %rs1, 1.0e6;\n cvt.u32.u16 %r3, %rs1;", NULL, 0x7c00},  /* inf */
		{"mov.b16 %rs2, 0x3555;\n cvt.f32.f16 %f3, %rs2;" BITS, NULL,
		 0x3eaaa000u},                                              /* f16 0x3555 = 0.333251953125 */
		{"cvt.s32.s8 %r3, 0x80;", NULL, 0xffffff80u},
		{"cvt.sat.u8.s32 %r3, 300;", NULL, 255},
		{"cvt.sat.s8.s32 %r3, -300;", NULL, 0xffffff80u},           /* -128 in a 32-bit register */
		{"cvt.rn.sat.f32.f32 %f3, 2.0;" BITS, NULL, 0x3f800000u},
		{"cvt.rni.f32.f32 %f3, 3.5;" BITS, NULL, 0x40800000u},
		{"cvt.rn.f32.f64 %f3, 0d3FF0000010000000;" BITS, NULL, 0x3f800000u},
		{"cvt.u64.u32 %rd3, 0xffffffff;\n cvt.s64.s32 %rd4, 0xffffffff;\n add.s64 %rd3, %rd3, %rd4;",
		 "%rd3", 0xfffffffeull},
	};

	run_ops(OPS(ops));
}
END_TEST

/* the shared-memory special registers (PTX ISA, "Special Registers"): 100 static bytes and
 * 20 dynamic ones; %total_smem_size in multiples of the machine's allocation unit
 * (--shared-unit: 1 leaves 120, Fermi's 128 and Kepler's 256 round it up), %aggr_smem_size
 * the same (no reserved region), %dynamic_smem_size the launch's 20 */
START_TEST(test_smem_sizes)
{
	static const char ptx[] = OR_KERNEL(
		".shared .align 4 .b8 sv[100];\n"
		"mov.u32 %r1, %dynamic_smem_size;\n st.global.u32 [%rd14], %r1;\n"
		"mov.u32 %r2, %total_smem_size;\n st.global.u32 [%rd14+4], %r2;\n"
		"mov.u32 %r3, %aggr_smem_size;\n st.global.u32 [%rd14+8], %r3;\n"
		"st.shared.u32 [sv+96], %r3;");
	static const struct { const char *unit; uint32_t total; } runs[] = {
		{"1", 120}, {"128", 128}, {"256", 256},
	};

	for (int i = 0; i < 3; i++) {
		char opts[160];
		snprintf(opts, sizeof opts, ONE " --shared-bytes 20 --shared-unit %s", runs[i].unit);
		ORun *r = orun_ok(ptx, opts, 0);
		ck_assert_uint_eq(ou32(r, 0, 0), 20);
		ck_assert_uint_eq(ou32(r, 0, 1), runs[i].total);
		ck_assert_uint_eq(ou32(r, 0, 2), runs[i].total);
		orun_free(r);
	}
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
	tcase_add_test(tc, test_smem_sizes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{

	return ck_run(suite());
}
