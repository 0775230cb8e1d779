/* test_backend_types.c - Check tests of the rarer 16-bit float forms and conversions: bf16
 * fma (.relu), bf16x2 arithmetic, min/max and comparisons of f16/f16x2/bf16/bf16x2 (setp p|q,
 * set with packed results), fma.relu.f16, cvt from f32 with .relu/.satfinite to f16, f16x2,
 * bf16, bf16x2, cvt to tf32 (.rna/.rn/.rz), isspacep.const/.param. Each kernel runs on the SM
 * model and on the PTX oracle over edge operands (test_backend.h compares every buffer), and
 * results worked out by hand from the PTX manual are checked, so that a misreading shared by
 * the translator and the oracle would still fail. Runs from the top of the tree. */
#include <check.h>
#include <stdint.h>
#include <unistd.h>
#include "tests/unit/test_backend.h"
#include "tests/unit/helper_check.h"

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* bf16 operands: +-0, 2^-133, 2^-126, +-1, 1 + 2^-7, 1.5, +-max, +-INF, a NaN, pi, -2^-100,
 * 2^-100 */
static const uint16_t B[16] = {0x0000, 0x8000, 0x0001, 0x0080, 0x3f80, 0xbf80, 0x3f81, 0x3fc0,
                               0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x4049, 0x8d80, 0x0d80};
/* f16 operands: +-0, 2^-24, the largest subnormal, 2^-14, +-1, 1 + 2^-10, +-max, +-INF, a NaN,
 * 3.140625, -2^-24, 1.5 */
static const uint16_t F[16] = {0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3c01,
                               0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x4248, 0x8001, 0x3e00};

/* thread i: a = T[i / 16], b = T[i % 16], c = T[(i % 16 + 8) % 16] (T: the table of the
 * kernel's type, 16 values; i counts across CTAs), x = b:a, y = a:c (upper:lower halves of a register); 16 words out
 * per thread. %h1..3 = a, b, c; %r1 = x; %r2 = y */
#define PROLOGUE \
	".visible .entry k(.param .u64 pa, .param .u64 po)\n{\n" \
	".reg .pred %p<8>;\n.reg .b16 %h<16>;\n.reg .b32 %r<40>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<8>;\n" \
	"mov.u32 %r30, %tid.x;\nmov.u32 %r34, %ctaid.x;\nshl.b32 %r34, %r34, 8;\nadd.s32 %r30, %r30, %r34;\n" \
	"shr.u32 %r31, %r30, 4;\nand.b32 %r32, %r30, 15;\n" \
	"add.s32 %r33, %r32, 8;\nand.b32 %r33, %r33, 15;\nld.param.u64 %rd1, [pa];\n" \
	"mul.wide.u32 %rd2, %r31, 2;\nadd.s64 %rd2, %rd1, %rd2;\nld.global.b16 %h1, [%rd2];\n" \
	"mul.wide.u32 %rd2, %r32, 2;\nadd.s64 %rd2, %rd1, %rd2;\nld.global.b16 %h2, [%rd2];\n" \
	"mul.wide.u32 %rd2, %r33, 2;\nadd.s64 %rd2, %rd1, %rd2;\nld.global.b16 %h3, [%rd2];\n" \
	"mov.b32 %r1, {%h1, %h2};\nmov.b32 %r2, {%h3, %h1};\n" \
	"ld.param.u64 %rd4, [po];\nmul.wide.u32 %rd5, %r30, 64;\nadd.s64 %rd4, %rd4, %rd5;\n"
#define U16(r, h) "cvt.u32.u16 " r ", " h ";\n"
#define SELP(r, p, v) "selp.u32 " r ", " v ", 0, " p ";\n"
#define EPILOGUE \
	"st.global.v4.b32 [%rd4], {%r10, %r11, %r12, %r13};\n" \
	"st.global.v4.b32 [%rd4+16], {%r14, %r15, %r16, %r17};\n" \
	"st.global.v4.b32 [%rd4+32], {%r18, %r19, %r20, %r21};\n" \
	"st.global.v4.b32 [%rd4+48], {%r22, %r23, %r24, %r25};\nret;\n}\n"

static const char *bf16_ptx = HDR PROLOGUE
	"fma.rn.bf16 %h4, %h1, %h2, %h3;\n" U16("%r10", "%h4")
	"fma.rn.relu.bf16 %h5, %h1, %h2, %h3;\n" U16("%r11", "%h5")
	"add.rn.bf16x2 %r12, %r1, %r2;\nsub.rn.bf16x2 %r13, %r1, %r2;\nmul.rn.bf16x2 %r14, %r1, %r2;\n"
	"fma.rn.bf16x2 %r15, %r1, %r2, %r2;\nfma.rn.relu.bf16x2 %r16, %r1, %r2, %r1;\n"
	"min.bf16x2 %r17, %r1, %r2;\nmax.NaN.bf16x2 %r18, %r1, %r2;\n"
	"max.relu.bf16 %h6, %h1, %h2;\n" U16("%r19", "%h6")
	"setp.lt.bf16x2 %p1|%p2, %r1, %r2;\n" SELP("%r20", "%p1", "1") SELP("%r21", "%p2", "2")
	"or.b32 %r20, %r20, %r21;\n"
	"setp.gtu.and.bf16x2 %p3|%p4, %r1, %r2, %p1;\n" SELP("%r21", "%p3", "1") SELP("%r22", "%p4", "2")
	"or.b32 %r21, %r21, %r22;\n"
	"set.eq.u32.bf16x2 %r22, %r1, %r2;\nset.le.bf16x2.bf16x2 %r23, %r1, %r2;\n"
	"set.nan.bf16.bf16 %h7, %h1, %h2;\n" U16("%r24", "%h7")
	"setp.ge.bf16 %p5, %h1, %h2;\n" SELP("%r25", "%p5", "1")
	EPILOGUE;

static const char *f16_ptx = HDR PROLOGUE
	"setp.lt.f16x2 %p1|%p2, %r1, %r2;\n" SELP("%r10", "%p1", "1") SELP("%r11", "%p2", "2")
	"or.b32 %r10, %r10, %r11;\n"
	"setp.eq.ftz.f16 %p3, %h1, %h3;\n" SELP("%r11", "%p3", "1")
	"setp.eq.f16 %p4, %h1, %h3;\n" SELP("%r12", "%p4", "1")
	"set.ltu.f16x2.f16x2 %r13, %r1, %r2;\nset.ge.u32.f16x2 %r14, %r1, %r2;\n"
	"set.ne.f16.f16 %h4, %h1, %h2;\n" U16("%r15", "%h4")
	"min.f16x2 %r16, %r1, %r2;\nmax.NaN.f16x2 %r17, %r1, %r2;\n"
	"min.relu.f16 %h5, %h1, %h2;\n" U16("%r18", "%h5")
	"max.f16 %h6, %h1, %h2;\n" U16("%r19", "%h6")
	"fma.rn.relu.f16 %h7, %h1, %h2, %h3;\n" U16("%r20", "%h7")
	"fma.rn.relu.f16x2 %r21, %r1, %r2, %r2;\n"
	"set.gt.s32.f16 %r22, %h1, %h2;\nset.lt.u16.f16 %h8, %h1, %h2;\n" U16("%r23", "%h8")
	"min.NaN.f16 %h9, %h1, %h2;\n" U16("%r24", "%h9")
	"setp.nan.or.f16x2 %p5|%p6, %r1, %r2, %p1;\n" SELP("%r25", "%p5", "1") SELP("%r26", "%p6", "2")
	"or.b32 %r25, %r25, %r26;\n"
	EPILOGUE;

#define O(ia, ib, k) (((ia) * 16 + (ib)) * 16 + (k))

static BeRun *run16(const char *ptx, const uint16_t *tab, int grid, const char *init)
{
	char pa[] = "/tmp/be-types.XXXXXX", opts[512];
	FILE *a = fdopen(mkstemp(pa), "wb");
	BeRun *r;

	if (tab)
		fwrite(tab, 2, 16, a);
	fclose(a);
	if (init)
		snprintf(opts, sizeof opts, "--grid %d --block 256 --arg buf:u16:64:%s:0:65535 --arg buf:u32:%d:zero",
		         grid, init, 4096 * grid);
	else
		snprintf(opts, sizeof opts, "--grid 1 --block 256 --arg buf:u16:16:file:%s --arg buf:u32:4096:zero", pa);
	r = be_run(ptx, opts, 0, 7);
	unlink(pa);
	if (!r->p || r->sm_rc != 0 || r->or_rc != 0)
		fprintf(stderr, "%s", r->err ? r->err : "");
	return r;
}

START_TEST(bf16_ops)
{
	BeRun *r = run16(bf16_ptx, B, 1, NULL);
	ck_assert(be_same(r));
	/* fma: 1.5 * (1 + 2^-7) = 1.5 + 2^-7 + 2^-8 is a tie; -2^-100 puts it below (a rounding of
	 * the sum to nearest f64 first would lose that and give the even 0x3fc2), +2^-100 above */
	ck_assert_uint_eq(be_get(r, 1, O(7, 6, 0)), 0x3fc1);
	ck_assert_uint_eq(be_get(r, 1, O(6, 7, 0)), 0x3fc2);
	ck_assert_uint_eq(be_get(r, 1, O(6, 6, 0)), 0x3f82);   /* (1 + 2^-7)^2 - 2^-100 */
	ck_assert_uint_eq(be_get(r, 1, O(4, 4, 0)), 0x7fff);   /* 1 * 1 + NaN */
	ck_assert_uint_eq(be_get(r, 1, O(8, 7, 0)), 0x7f80);   /* max * 1.5 + tiny: INF */
	ck_assert_uint_eq(be_get(r, 1, O(10, 0, 0)), 0x7fff);  /* INF * 0 + max: NaN */
	ck_assert_uint_eq(be_get(r, 1, O(0, 9, 0)), 0x8000);   /* +0 * -max + -0 = -0 */
	ck_assert_uint_eq(be_get(r, 1, O(0, 9, 1)), 0x0000);   /* .relu: +0 */
	ck_assert_uint_eq(be_get(r, 1, O(5, 6, 0)), 0xbf81);   /* -1 * (1 + 2^-7) - 2^-100 */
	ck_assert_uint_eq(be_get(r, 1, O(5, 6, 1)), 0x0000);   /* .relu of a negative */
	ck_assert_uint_eq(be_get(r, 1, O(4, 4, 1)), 0x7fff);   /* .relu of NaN: canonical NaN */
	ck_assert_uint_eq(be_get(r, 1, O(7, 6, 1)), 0x3fc1);
	/* x2: x = b:a, y = a:c; the lower half is a op c, the upper b op a */
	ck_assert_uint_eq(be_get(r, 1, O(4, 4, 2)), 0x40007fff); /* {1 + 1, 1 + NaN} */
	ck_assert_uint_eq(be_get(r, 1, O(4, 4, 3)), 0x00007fff); /* {1 - 1, 1 - NaN} */
	ck_assert_uint_eq(be_get(r, 1, O(6, 6, 4)), 0x3f828d81); /* {(1+2^-7)^2, (1+2^-7) * -2^-100} */
	/* a = INF, b = -INF, c = 2^-126: {-INF * INF, INF * c}, {-INF - INF, INF - c} */
	ck_assert_uint_eq(be_get(r, 1, O(10, 11, 4)), 0xff807f80u);
	ck_assert_uint_eq(be_get(r, 1, O(10, 11, 3)), 0xff807f80u);
	/* fma x2, lower a*c + c, upper b*a + a: a = 1.5, b = 1 + 2^-7, c = -2^-100: {3 + 3 * 2^-8
	 * rounds up to 3 + 2^-6, -2.5 * 2^-100 is exact} */
	ck_assert_uint_eq(be_get(r, 1, O(7, 6, 5)), 0x40418e20u);
	/* fma.relu x2 lower a*c + a, upper b*a + b: a = -1, b = 1, c = NaN */
	ck_assert_uint_eq(be_get(r, 1, O(5, 4, 6)), 0x00007fffu);
	/* min/max x2: a = NaN, b = 1, c = NaN: {min(b, NaN) = 1, min(NaN, NaN) = NaN}; .NaN */
	ck_assert_uint_eq(be_get(r, 1, O(12, 4, 7)), 0x3f807fffu);
	ck_assert_uint_eq(be_get(r, 1, O(12, 4, 8)), 0x7fff7fffu);
	ck_assert_uint_eq(be_get(r, 1, O(1, 8, 7)), 0x80008000u);  /* {min(max, -0), min(-0, +0)} */
	ck_assert_uint_eq(be_get(r, 1, O(5, 6, 9)), 0x3f81);      /* max.relu(-1, 1 + 2^-7) */
	ck_assert_uint_eq(be_get(r, 1, O(5, 5, 9)), 0x0000);      /* max.relu(-1, -1) */
	ck_assert_uint_eq(be_get(r, 1, O(12, 12, 9)), 0x7fff);    /* max.relu(NaN, NaN) */
	/* setp.lt p|q: p = a < c (lower), q = b < a (upper) */
	ck_assert_uint_eq(be_get(r, 1, O(4, 0, 10)), 3);        /* 1 < max, 0 < 1 */
	ck_assert_uint_eq(be_get(r, 1, O(1, 0, 10)), 1);        /* -0 < max, not +0 < -0 */
	ck_assert_uint_eq(be_get(r, 1, O(5, 4, 10)), 0);        /* -1 < NaN, 1 < -1 */
	/* setp.gtu.and with the p of the lt: -1 >u NaN but p false; 1 >u -1 and p false */
	ck_assert_uint_eq(be_get(r, 1, O(5, 4, 11)), 0);
	ck_assert_uint_eq(be_get(r, 1, O(4, 0, 11)), 0);        /* 1 >u max false; 0 >u 1 false */
	ck_assert_uint_eq(be_get(r, 1, O(5, 7, 11)), 2);        /* -1 < 2^-100; 1.5 >u -1 */
	/* set.eq.u32 / set.le.bf16x2: per half 0xffff / 1.0 */
	ck_assert_uint_eq(be_get(r, 1, O(8, 0, 12)), 0x0000ffffu); /* {max == max, 0 == max} */
	ck_assert_uint_eq(be_get(r, 1, O(8, 0, 13)), 0x3f803f80u); /* {max <= max, 0 <= max} */
	ck_assert_uint_eq(be_get(r, 1, O(12, 0, 13)), 0x00000000u);
	ck_assert_uint_eq(be_get(r, 1, O(12, 0, 14)), 0x3f80);   /* set.nan.bf16: 1.0 */
	ck_assert_uint_eq(be_get(r, 1, O(4, 4, 14)), 0x0000);
	ck_assert_uint_eq(be_get(r, 1, O(0, 1, 15)), 1);         /* +0 >= -0 */
	ck_assert_uint_eq(be_get(r, 1, O(2, 3, 15)), 0);         /* 2^-133 >= 2^-126 */
	be_run_free(r);
}
END_TEST

START_TEST(f16_ops)
{
	BeRun *r = run16(f16_ptx, F, 1, NULL);
	ck_assert(be_same(r));
	/* setp.lt.f16x2 p|q: p = a < c (lower halves), q = b < a (upper) */
	ck_assert_uint_eq(be_get(r, 1, O(5, 0, 0)), 3);          /* 1 < max, 0 < 1 */
	ck_assert_uint_eq(be_get(r, 1, O(6, 5, 0)), 1);          /* -1 < 3.14, not 1 < -1 */
	ck_assert_uint_eq(be_get(r, 1, O(12, 0, 0)), 0);         /* NaN */
	/* .ftz: the subnormals 2^-24, 0x03ff, -2^-24 equal zeros; without, they do not */
	ck_assert_uint_eq(be_get(r, 1, O(2, 8, 1)), 1);
	ck_assert_uint_eq(be_get(r, 1, O(2, 8, 2)), 0);
	ck_assert_uint_eq(be_get(r, 1, O(3, 8, 1)), 1);
	ck_assert_uint_eq(be_get(r, 1, O(14, 9, 1)), 1);
	ck_assert_uint_eq(be_get(r, 1, O(14, 9, 2)), 0);
	ck_assert_uint_eq(be_get(r, 1, O(4, 8, 1)), 0);          /* 2^-14 is normal */
	/* set.ltu.f16x2.f16x2: 1.0 per half; set.ge.u32.f16x2: 0xffff per half */
	ck_assert_uint_eq(be_get(r, 1, O(12, 0, 3)), 0x3c003c00u);
	ck_assert_uint_eq(be_get(r, 1, O(8, 0, 3)), 0x3c000000u);
	ck_assert_uint_eq(be_get(r, 1, O(8, 0, 4)), 0x0000ffffu);
	ck_assert_uint_eq(be_get(r, 1, O(5, 7, 5)), 0x3c00);     /* set.ne.f16.f16: 1.0 */
	ck_assert_uint_eq(be_get(r, 1, O(0, 1, 5)), 0);          /* +0 != -0 is false */
	ck_assert_uint_eq(be_get(r, 1, O(12, 12, 5)), 0);        /* ordered: NaN != NaN false */
	/* min x2 {min(b, a), min(a, c)} ignores one NaN; max.NaN x2 gives it */
	ck_assert_uint_eq(be_get(r, 1, O(12, 5, 6)), 0x3c004248u);
	ck_assert_uint_eq(be_get(r, 1, O(12, 5, 7)), 0x7fff7fffu);
	ck_assert_uint_eq(be_get(r, 1, O(10, 9, 7)), 0x7c007c00u);
	ck_assert_uint_eq(be_get(r, 1, O(6, 5, 8)), 0);          /* min.relu(-1, 1) */
	ck_assert_uint_eq(be_get(r, 1, O(5, 15, 8)), 0x3c00);
	ck_assert_uint_eq(be_get(r, 1, O(14, 0, 8)), 0);         /* min(-2^-24, 0) clamps */
	ck_assert_uint_eq(be_get(r, 1, O(12, 12, 8)), 0x7fff);
	ck_assert_uint_eq(be_get(r, 1, O(12, 5, 9)), 0x3c00);    /* max(NaN, 1) */
	ck_assert_uint_eq(be_get(r, 1, O(1, 0, 9)), 0x0000);     /* max(-0, +0) = +0 */
	ck_assert_uint_eq(be_get(r, 1, O(5, 6, 10)), 0);         /* fma.relu: -1 - 2^-24 */
	/* 1.5 * 1.5 + (1 + 2^-10) = 3.25 + 2^-10, a tie at 2^-9 steps: even 3.25 */
	ck_assert_uint_eq(be_get(r, 1, O(15, 15, 10)), 0x4280);
	ck_assert_uint_eq(be_get(r, 1, O(8, 8, 10)), 0x7c00);
	ck_assert_uint_eq(be_get(r, 1, O(6, 5, 11)), 0);         /* {relu(-1 * 1 - 1), +0} */
	ck_assert_uint_eq(be_get(r, 1, O(5, 15, 11)), 0x41004001u); /* {2.5, 2 + 2^-9} */
	ck_assert_uint_eq(be_get(r, 1, O(5, 0, 12)), 0xffffffffu);  /* set.gt.s32.f16 */
	ck_assert_uint_eq(be_get(r, 1, O(0, 5, 12)), 0);
	ck_assert_uint_eq(be_get(r, 1, O(0, 5, 13)), 0xffff);       /* set.lt.u16.f16 */
	ck_assert_uint_eq(be_get(r, 1, O(12, 5, 14)), 0x7fff);      /* min.NaN */
	ck_assert_uint_eq(be_get(r, 1, O(1, 0, 14)), 0x8000);       /* min(-0, +0) = -0 */
	/* setp.nan.or p|q with c = the p of the lt */
	ck_assert_uint_eq(be_get(r, 1, O(12, 5, 15)), 3);
	ck_assert_uint_eq(be_get(r, 1, O(6, 5, 15)), 3);
	ck_assert_uint_eq(be_get(r, 1, O(5, 6, 15)), 0);
	be_run_free(r);
}
END_TEST

/* f32 inputs: +-1, 65520 (f16's max 65504 + half an ulp, a tie), 65504, -70000, +-INF, a
 * NaN, -0, f32's max, -2^-30, bf16 ties 1 + 2^-8 and 1 + 3 * 2^-8, tf32 ties 1 + 2^-11 and
 * 1 + 3 * 2^-11, and the subnormal tf32 tie 2^-137 */
static const uint32_t G[16] = {0x3f800000, 0xbf800000, 0x477ff000, 0x477fe000, 0xc788b800,
                               0x7f800000, 0xff800000, 0x7fc00001, 0x80000000, 0x7f7fffff,
                               0xb0800000, 0x3f808000, 0x3f818000, 0x3f801000, 0x3f803000,
                               0x00001000};

/* thread i: x = G[i], y = G[i ^ 1]; 16 words out */
static const char *cvt_ptx = HDR
	".visible .entry k(.param .u64 pa, .param .u64 po)\n{\n"
	".reg .pred %p<8>;\n.reg .b16 %h<16>;\n.reg .b32 %r<40>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<8>;\n"
	".shared .align 4 .b32 sv[4];\n"
	"mov.u32 %r30, %tid.x;\nmov.u32 %r34, %ctaid.x;\nshl.b32 %r34, %r34, 8;\nadd.s32 %r30, %r30, %r34;\n"
	"xor.b32 %r31, %r30, 1;\nld.param.u64 %rd1, [pa];\n"
	"mul.wide.u32 %rd2, %r30, 4;\nadd.s64 %rd2, %rd1, %rd2;\nld.global.f32 %f1, [%rd2];\n"
	"mul.wide.u32 %rd2, %r31, 4;\nadd.s64 %rd2, %rd1, %rd2;\nld.global.f32 %f2, [%rd2];\n"
	"ld.param.u64 %rd4, [po];\nmul.wide.u32 %rd5, %r30, 64;\nadd.s64 %rd4, %rd4, %rd5;\n"
	"cvt.rn.relu.f16.f32 %h1, %f1;\n" U16("%r10", "%h1")
	"cvt.rn.satfinite.f16.f32 %h2, %f1;\n" U16("%r11", "%h2")
	"cvt.rz.relu.satfinite.f16.f32 %h3, %f1;\n" U16("%r12", "%h3")
	"cvt.rn.relu.bf16.f32 %h4, %f1;\n" U16("%r13", "%h4")
	"cvt.rn.satfinite.bf16.f32 %h5, %f1;\n" U16("%r14", "%h5")
	"cvt.rn.relu.f16x2.f32 %r15, %f1, %f2;\ncvt.rn.bf16x2.f32 %r16, %f1, %f2;\n"
	"cvt.rz.satfinite.bf16x2.f32 %r17, %f1, %f2;\n"
	"cvt.rna.tf32.f32 %r18, %f1;\ncvt.rna.satfinite.tf32.f32 %r19, %f1;\n"
	"cvt.rn.tf32.f32 %r20, %f1;\ncvt.rz.tf32.f32 %r21, %f1;\ncvt.rn.relu.tf32.f32 %r22, %f1;\n"
	"cvt.rz.satfinite.relu.tf32.f32 %r23, %f1;\ncvt.rn.relu.satfinite.bf16x2.f32 %r24, %f1, %f2;\n"
	"mov.b32 %r1, %f1;\ncvt.u64.u32 %rd6, %r1;\nisspacep.const %p1, %rd6;\n"
	"isspacep.param::entry %p2, %rd6;\nmov.u64 %rd7, sv;\ncvta.shared.u64 %rd7, %rd7;\n"
	"isspacep.shared::cluster %p3, %rd7;\nisspacep.param %p4, %rd7;\n"
	SELP("%r25", "%p1", "1") SELP("%r26", "%p2", "2") "or.b32 %r25, %r25, %r26;\n"
	SELP("%r26", "%p3", "4") "or.b32 %r25, %r25, %r26;\n"
	SELP("%r26", "%p4", "8") "or.b32 %r25, %r25, %r26;\n"
	EPILOGUE;

START_TEST(conversions)
{
	BeRun *r = be_run_data(cvt_ptx, G, 4 * 16, "--grid 1 --block 16 --arg buf:u32:16:file:%s "
	                       "--arg buf:u32:256:zero", 7);
	if (!r->p)
		fprintf(stderr, "%s", r->err);
	ck_assert(be_same(r));
#define C(i, k, v) ck_assert_uint_eq(be_get(r, 1, (i) * 16 + (k)), (v))
	C(0, 0, 0x3c00); C(0, 2, 0x3c00); C(0, 3, 0x3f80); C(0, 5, 0x3c000000u);
	C(0, 6, 0x3f80bf80u); C(0, 7, 0x3f80bf80u); C(0, 8, 0x3f800000u); C(0, 13, 0x3f800000u);
	C(0, 14, 0x3f800000u);
	C(1, 0, 0); C(1, 1, 0xbc00); C(1, 2, 0); C(1, 3, 0); C(1, 4, 0xbf80); C(1, 5, 0x00003c00u);
	C(1, 6, 0xbf803f80u); C(1, 8, 0xbf800000u); C(1, 12, 0); C(1, 13, 0);
	/* 65520 is a tie between f16's max and 2^16: to even, INF; .satfinite: max */
	C(2, 0, 0x7c00); C(2, 1, 0x7bff); C(2, 2, 0x7bff); C(2, 3, 0x4780); C(2, 4, 0x4780);
	C(2, 8, 0x47800000u); C(2, 10, 0x47800000u); C(2, 11, 0x477fe000u);
	C(3, 0, 0x7bff); C(3, 1, 0x7bff); C(3, 4, 0x4780);
	C(4, 0, 0); C(4, 1, 0xfbff); C(4, 2, 0);   /* -70000: -INF, -max, relu(-max) */
	C(5, 0, 0x7c00); C(5, 1, 0x7bff); C(5, 2, 0x7bff); C(5, 3, 0x7f80); C(5, 4, 0x7f7f);
	C(5, 8, 0x7f800000u); C(5, 9, 0x7f7fe000u); C(5, 13, 0x7f7fe000u);
	C(6, 0, 0); C(6, 1, 0xfbff); C(6, 8, 0xff800000u); C(6, 9, 0xff7fe000u); C(6, 12, 0);
	/* NaN: canonical everywhere, .relu and .satfinite keep it */
	C(7, 0, 0x7fff); C(7, 1, 0x7fff); C(7, 3, 0x7fff); C(7, 4, 0x7fff); C(7, 8, 0x7fffffffu);
	C(7, 9, 0x7fffffffu); C(7, 12, 0x7fffffffu); C(7, 5, 0x7fff0000u); C(7, 6, 0x7fffff80u);
	C(7, 7, 0x7fffff7fu); C(7, 14, 0x7fff0000u);
	C(8, 0, 0); C(8, 1, 0x8000); C(8, 3, 0); C(8, 4, 0x8000); C(8, 10, 0x80000000u); C(8, 12, 0);
	C(9, 0, 0x7c00); C(9, 1, 0x7bff); C(9, 2, 0x7bff); C(9, 3, 0x7f80); C(9, 4, 0x7f7f);
	C(9, 8, 0x7f800000u); C(9, 9, 0x7f7fe000u); C(9, 10, 0x7f800000u); C(9, 11, 0x7f7fe000u);
	C(9, 6, 0x7f808000u); C(9, 7, 0x7f7f8000u);
	C(10, 0, 0); C(10, 1, 0x8000); C(10, 3, 0); C(10, 4, 0xb080);
	C(11, 4, 0x3f80); C(11, 10, 0x3f808000u); C(12, 4, 0x3f82);
	C(13, 8, 0x3f802000u); C(13, 10, 0x3f800000u); C(13, 11, 0x3f800000u);
	C(14, 8, 0x3f804000u); C(14, 10, 0x3f804000u); C(14, 11, 0x3f802000u);
	C(15, 8, 0x00002000u); C(15, 9, 0x00002000u); C(15, 10, 0); C(15, 11, 0);
	for (int i = 0; i < 16; i++)
		C(i, 15, 4);   /* only the shared address is in its window */
#undef C
	be_run_free(r);
}
END_TEST

/* f64 inputs: 1 + 2^-8 + 2^-40 (above a bf16 tie), 1 + 2^-8 (the tie), -(1 + 3 * 2^-8),
 * 1e300, -1e300, 2^-140, NaN, -2.5 */
static const uint64_t D[8] = {0x3ff0100000001000ull, 0x3ff0100000000000ull, 0xbff0300000000000ull,
                              0x7e37e43c8800759cull, 0xfe37e43c8800759cull, 0x3730000000000000ull,
                              0x7ff8000000000000ull, 0xc004000000000000ull};

/* thread i: b = B[i], h = F[i], v = D[i % 8]; 8 words out */
static const char *cvt2_ptx = HDR
	".global .align 2 .b16 tb[16] = {0x0000, 0x8000, 0x0001, 0x0080, 0x3f80, 0xbf80, 0x3f81, 0x3fc0, "
	"0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x4049, 0x8d80, 0x0d80};\n"
	".global .align 2 .b16 tf[16] = {0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3c01, "
	"0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x4248, 0x8001, 0x3e00};\n"
	".visible .entry k(.param .u64 pa, .param .u64 po)\n{\n"
	".reg .b16 %h<16>;\n.reg .b32 %r<40>;\n.reg .f64 %d<8>;\n.reg .b64 %rd<8>;\n"
	"mov.u32 %r30, %tid.x;\nand.b32 %r31, %r30, 7;\nld.param.u64 %rd1, [pa];\n"
	"mul.wide.u32 %rd2, %r31, 8;\nadd.s64 %rd2, %rd1, %rd2;\nld.global.f64 %d1, [%rd2];\n"
	"mov.u64 %rd1, tb;\nmul.wide.u32 %rd2, %r30, 2;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.b16 %h1, [%rd3];\n"
	"mov.u64 %rd1, tf;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.b16 %h2, [%rd3];\n"
	"ld.param.u64 %rd4, [po];\nmul.wide.u32 %rd5, %r30, 32;\nadd.s64 %rd4, %rd4, %rd5;\n"
	"cvt.f64.bf16 %d2, %h1;\nmov.b64 {%r10, %r11}, %d2;\n"
	"cvt.rn.f16.bf16 %h3, %h1;\n" U16("%r12", "%h3")
	"cvt.rni.s32.bf16 %r13, %h1;\n"
	"cvt.rn.bf16.f16 %h4, %h2;\n" U16("%r14", "%h4")
	"cvt.rn.bf16.f64 %h5, %d1;\n" U16("%r15", "%h5")
	"cvt.rz.bf16.f64 %h6, %d1;\n" U16("%r16", "%h6")
	"cvt.rzi.u16.bf16 %h7, %h1;\n" U16("%r17", "%h7")
	"st.global.v4.b32 [%rd4], {%r10, %r11, %r12, %r13};\n"
	"st.global.v4.b32 [%rd4+16], {%r14, %r15, %r16, %r17};\nret;\n}\n";

START_TEST(bf16_conversions)
{
	BeRun *r = be_run_data(cvt2_ptx, D, 8 * 8, "--grid 1 --block 16 --arg buf:u64:8:file:%s "
	                       "--arg buf:u32:128:zero", 7);
	ck_assert(be_same(r));
#define C(i, k, v) ck_assert_uint_eq(be_get(r, 1, (i) * 8 + (k)), (v))
	C(6, 1, 0x3ff02000u); C(6, 0, 0);                 /* f64 of 1 + 2^-7 */
	C(2, 1, 0x37a00000u);                             /* 2^-133 */
	C(6, 2, 0x3c08); C(7, 2, 0x3e00); C(8, 2, 0x7c00); /* f16: 1 + 2^-7, 1.5, max to INF */
	C(2, 2, 0x0000); C(12, 2, 0x7fff);
	C(13, 3, 3); C(7, 3, 2); C(5, 3, 0xffffffffu);     /* rni: pi 3, 1.5 to even 2, -1 */
	C(8, 3, 0x7fffffffu); C(12, 3, 0);                /* saturated; NaN 0 */
	C(15, 4, 0x3fc0); C(2, 4, 0x3380); C(8, 4, 0x4780); C(12, 4, 0x7fff); /* bf16 of f16s */
	C(7, 4, 0x3f80); C(13, 4, 0x4049);  /* 1 + 2^-10 to 1; 3.140625 = 0x4049 exactly */
	C(0, 5, 0x3f81); C(1, 5, 0x3f80); C(2, 5, 0xbf82); C(3, 5, 0x7f80); C(4, 5, 0xff80);
	C(5, 5, 0x0000); C(6, 5, 0x7fff); C(7, 5, 0xc020);
	C(0, 6, 0x3f80); C(3, 6, 0x7f7f); C(4, 6, 0xff7f); C(2, 6, 0xbf81);
	C(7, 7, 1); C(5, 7, 0); C(9, 7, 0);              /* rzi.u16: 1.5 1, -1 0, -max 0 */
	C(8, 7, 0xffff);
#undef C
	be_run_free(r);
}
END_TEST

/* the bf16 and f16 kernels over every pair of 64 random 16-bit patterns (4096 threads), and
 * the conversions over 4096 random f32 patterns: the SM model must agree with the oracle */
START_TEST(random_patterns)
{
	const char *k[2] = {bf16_ptx, f16_ptx};
	for (int j = 0; j < 2; j++) {
		char *ptx = strdup(k[j]), *s = strstr(ptx, "shr.u32 %r31, %r30, 4;\nand.b32 %r32, %r30, 15;");
		ck_assert_ptr_nonnull(s);
		memcpy(s, "shr.u32 %r31, %r30, 6;\nand.b32 %r32, %r30, 63;", 46);
		s = strstr(ptx, "and.b32 %r33, %r33, 15;");
		ck_assert_ptr_nonnull(s);
		memcpy(s, "and.b32 %r33, %r33, 63;", 23);
		for (int seed = 1; seed <= 2; seed++) {
			char init[32];
			snprintf(init, sizeof init, "random:%d", seed + 10 * j);
			BeRun *r = run16(ptx, NULL, 16, init);
			ck_assert(be_same(r));
			be_run_free(r);
		}
		free(ptx);
	}
	{
		char opts[256];
		snprintf(opts, sizeof opts, "--grid 16 --block 256 --arg buf:u32:4096:random:7:0:4294967295 "
		         "--arg buf:u32:65536:zero");
		BeRun *r = be_run(cvt_ptx, opts, 0, 7);
		ck_assert(be_same(r));
		be_run_free(r);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("backend-types");
	TCase *c = tcase_create("types");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, bf16_ops);
	tcase_add_test(c, f16_ops);
	tcase_add_test(c, conversions);
	tcase_add_test(c, bf16_conversions);
	tcase_add_test(c, random_patterns);
	suite_add_tcase(s, c);
	return ck_run(s);
}
