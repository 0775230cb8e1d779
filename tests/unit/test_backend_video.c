/* test_backend_video.c - Check tests of the SIMD video instructions (PTX ISA, "SIMD Video
 * Instructions"). tests/ptx/simd.sm75/sm80 (nvcc's __vadd2 ... __vsads4; vabsdiff4 and
 * vabsdiff2.add among them) run on the SM model and on the oracle, and each of the 32 results
 * per thread is recomputed here from the CUDA Math API's definition of its intrinsic;
 * tests/ptx/video_simd.ptx (every op, type combination, .sat, .add and comparison) and
 * video_scalar.ptx (vadd ... vset with .sat and .add/.min/.max), video_shift.ptx, vmad.ptx and
 * vmad_sel.ptx (vmad's operand selectors) run on both engines, with results worked out by hand on chosen operands. Runs from the top of the tree. */
#include <check.h>
#include <stdint.h>
#include "tests/unit/test_backend.h"
#include "tests/unit/helper_check.h"

/* element i of w bits of x, sign- or zero-extended */
static int64_t el(uint32_t x, int i, int w, int sg)
{
	uint32_t v = (x >> (w * i)) & ((1u << w) - 1);

	return sg && (v >> (w - 1)) ? (int64_t)v - (1ll << w) : (int64_t)v;
}

enum { ADD, SUB, ABSD, AVGU, AVGS, MIN, MAX, CMPEQ, CMPGE, CMPLT, CMPNE, SETGT, SETLE, SETEQ,
       ADDSAT, SUBSAT };

/* the intrinsic of kind k on elements of w bits (sg: signed) */
static uint32_t vop(int k, int w, int sg, uint32_t x, uint32_t y)
{
	uint32_t r = 0, m = (1u << w) - 1;

	for (int i = 0; i < 32 / w; i++) {
		int64_t a = el(x, i, w, sg), b = el(y, i, w, sg), t = 0;
		int64_t lo = sg ? -(1ll << (w - 1)) : 0, hi = sg ? (1ll << (w - 1)) - 1 : (1ll << w) - 1;
		switch (k) {
		case ADD: t = a + b; break;
		case SUB: t = a - b; break;
		case ABSD: t = a > b ? a - b : b - a; break;
		case AVGU: t = (a + b + 1) >> 1; break;
		case AVGS: t = a + b >= 0 ? (a + b + 1) >> 1 : -((-(a + b) + 1) >> 1); break;
		case MIN: t = a < b ? a : b; break;
		case MAX: t = a > b ? a : b; break;
		case CMPEQ: t = a == b ? -1 : 0; break;
		case CMPGE: t = a >= b ? -1 : 0; break;
		case CMPLT: t = a < b ? -1 : 0; break;
		case CMPNE: t = a != b ? -1 : 0; break;
		case SETGT: t = a > b; break;
		case SETLE: t = a <= b; break;
		case SETEQ: t = a == b; break;
		case ADDSAT: t = a + b < lo ? lo : a + b > hi ? hi : a + b; break;
		case SUBSAT: t = a - b < lo ? lo : a - b > hi ? hi : a - b; break;
		}
		r |= ((uint32_t)t & m) << (w * i);
	}
	return r;
}

/* the sum of |a - b| over the elements */
static uint32_t sad(int w, int sg, uint32_t x, uint32_t y)
{
	uint32_t s = 0;

	for (int i = 0; i < 32 / w; i++) {
		int64_t a = el(x, i, w, sg), b = el(y, i, w, sg);
		s += (uint32_t)(a > b ? a - b : b - a);
	}
	return s;
}

static uint32_t want_simd(int k, uint32_t x, uint32_t y)
{
	static const struct { int op, w, sg; } t[31] = {
		{ADD, 16, 0}, {ADD, 8, 0}, {SUB, 16, 0}, {SUB, 8, 0}, {ABSD, 16, 0}, {ABSD, 8, 0},
		{ABSD, 16, 1}, {ABSD, 8, 1}, {AVGU, 16, 0}, {AVGU, 8, 0}, {AVGS, 16, 1}, {AVGS, 8, 1},
		{MIN, 16, 0}, {MIN, 8, 0}, {MIN, 16, 1}, {MIN, 8, 1}, {MAX, 16, 0}, {MAX, 8, 0},
		{MAX, 16, 1}, {MAX, 8, 1}, {CMPEQ, 16, 0}, {CMPGE, 8, 0}, {CMPLT, 16, 1}, {CMPNE, 8, 0},
		{SETGT, 16, 0}, {SETLE, 8, 0}, {SETLE, 16, 1}, {SETEQ, 8, 0}, {ADDSAT, 16, 1},
		{ADDSAT, 8, 0}, {SUBSAT, 8, 1},
	};
	if (k == 31)
		return sad(8, 1, x, y) + sad(16, 0, x, y);
	return vop(t[k].op, t[k].w, t[k].sg, x, y);
}

START_TEST(cuda_intrinsics)
{
	static const char *opts = "--kernel simd --grid 2 --block 64 "
	                          "--arg buf:u32:128:random:51:0:4294967295 "
	                          "--arg buf:u32:128:random:52:0:4294967295 --arg buf:u32:4096:zero";
	static const char *files[2] = {"tests/ptx/simd.sm75.ptx", "tests/ptx/simd.sm80.ptx"};

	for (int fi = 0; fi < 2; fi++) {
		char *ptx = be_slurp(files[fi]);
		BeRun *r;
		ck_assert_ptr_nonnull(ptx);
		ck_assert_ptr_nonnull(strstr(ptx, "vabsdiff4.u32.u32.u32"));
		ck_assert_ptr_nonnull(strstr(ptx, "vabsdiff2.u32.u32.u32.add"));
		r = be_run(ptx, opts, 0, 7);
		ck_assert(be_same(r));
		for (int t = 0; t < 128; t++) {
			uint32_t x = (uint32_t)be_get(r, 0, t), y = (uint32_t)be_get(r, 1, t);
			for (int k = 0; k < 32; k++) {
				uint32_t got = (uint32_t)be_get(r, 2, 32 * t + k), w = want_simd(k, x, y);
				if (got != w)
					fprintf(stderr, "%s thread %d result %d (%#x, %#x): %#x, not %#x\n",
					        files[fi], t, k, x, y, got, w);
				ck_assert_uint_eq(got, w);
			}
		}
		be_run_free(r);
		free(ptx);
	}
}
END_TEST

/* thread 0: x = 0x80FF7F01 (bytes 1, 127, -1 or 255, -128 or 128; halves 0x7F01 = 32513,
 * 0x80FF = -32513 or 33023), y = 0x7F01FF80 (bytes -128 or 128, -1 or 255, 1, 127; halves
 * 0xFF80 = -128 or 65408, 0x7F01), z = 0x12345678 */
START_TEST(by_hand)
{
	char *ptx = be_slurp("tests/ptx/video_simd.ptx");
	static const struct { int k; uint32_t v; } w[] = {
		{0, 0xff007e81},  /* vadd4.u32: 0x81, 0x17e, 0x100, 0xff wrap to bytes */
		{2, 0xffffff81},  /* vadd4.u32 .sat: 0x17e and 0x100 clamp to 0xff */
		{3, 0x80fe8081},  /* vsub4.s32.s32.u32 .sat: 1-128, 127-255, -1-1, -128-127 = -255 -> -128 */
		{4, 0x12345678},  /* vsub4.u32 .add: z + (-127 - 128 + 254 + 1) = z */
		{5, 0xff003fc0},  /* vavrg4.s32: -127 -> -64, 126 -> 63, 0 -> 0, -1 -> -1 */
		{7, 0xff028081},  /* vabsdiff4.s32: 129, 128, 2, 255 */
		{11, 0x7f01ff80}, /* vmin4.s32.u32.s32 .sat: min(1, -128) ... = -128, -1, 1, 127 */
		{12, 0x01010000}, /* vset4.s32.s32.lt: 0, 0, 1, 1 */
		{13, 0x1234567a}, /* vset4.u32.u32.ge .add: z + 0 + 0 + 1 + 1 */
		{16, 0x00007e81}, /* vadd2.s32 .sat: 32513 - 128 = 0x7e81, -32513 + 32513 = 0 */
		{20, 0x00003f41}, /* vavrg2.s32: (32385 + 1) >> 1 = 16193, (0 + 1) >> 1 = 0 */
		{23, 0x1234d8f5}, /* vabsdiff2.u32 .add: z + 32895 + 510 */
		{26, 0x00000001}, /* vset2.s32.s32.gt: 32513 > -128, -32513 > 32513 */
		{29, 0x7f027f7f}, /* vabsdiff4.s32 .sat: 129, 128, 2, 255 clamp to 127 */
	};

	ck_assert_ptr_nonnull(ptx);
	for (int p = 0; p < 2; p++) {
		BeRun *r = be_run(ptx, "--kernel video_simd --grid 1 --block 64 "
		                  "--arg buf:u32:192:random:61:0:4294967295 --arg buf:u32:2048:zero", 0,
		                  p ? 7 : 0);
		ck_assert(be_same(r));
		for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
			ck_assert_uint_eq(be_get(r, 1, w[i].k), w[i].v);
		be_run_free(r);
	}
	free(ptx);
}
END_TEST

/* runs tests/ptx/NAME.ptx (64 threads; x, y, z random words of seed SEED; nk results per
 * thread) at predicate-max 0 and 7: both engines agree, and threads 0 and 1 give w[k][t] */
static void by_hand_run(const char *name, int seed, int nk, const uint32_t (*w)[2])
{
	char path[64], args[200];
	char *ptx;

	snprintf(path, sizeof path, "tests/ptx/%s.ptx", name);
	snprintf(args, sizeof args, "--kernel %s --grid 1 --block 64 --arg buf:u32:192:random:%d:0:"
	         "4294967295 --arg buf:u32:%d:zero", name, seed, 64 * nk);
	ptx = be_slurp(path);
	ck_assert_ptr_nonnull(ptx);
	for (int p = 0; p < 2; p++) {
		BeRun *r = be_run(ptx, args, 0, p ? 7 : 0);
		ck_assert(be_same(r));
		for (int t = 0; t < 2; t++)
			for (int k = 0; k < nk; k++)
				ck_assert_uint_eq(be_get(r, 1, nk * t + k), w[k][t]);
		be_run_free(r);
	}
	free(ptx);
}

/* tests/ptx/video_scalar.ptx, threads 0 and 1: x = 0xfffffff0 (-16 or 4294967280), y =
 * 0x7fffffff, z = 0x80000000 (-2^31 or 2^31); x = 5, y = 0xfffffffd (-3 or 4294967293), z = 100.
 * The sums are exact (33-bit inputs), .sat clamps to the dtype, c takes the dtype's sign. */
START_TEST(scalar_by_hand)
{
	static const uint32_t w[20][2] = {
		{0x7fffffef, 2},          /* vadd.u32.u32.u32: 2^32 + 2^31 - 17, 2^32 + 2 wrap */
		{0x7fffffef, 2},          /* vadd.s32 .sat: -16 + (2^31 - 1); 5 - 3 */
		{0x7fffffef, 0xffffffff}, /* vadd.u32.s32.u32 .sat: 5 + 4294967293 clamps */
		{0xffffffff, 0x80000063}, /* vadd.s32.u32.u32 .sat.add: 2^31 - 1 + c */
		{0x7ffffff1, 0},          /* vsub.u32 .sat: 5 - 4294967293 < 0 clamps to 0 */
		{0x7ffffff1, 8},          /* vsub.s32.u32.s32 .sat */
		{0x7ffffff1, 8},          /* vsub.s32 .min: min(-2^31 - 15, -2^31) keeps 34 bits */
		{0x8000000f, 0xfffffff8}, /* vabsdiff.u32.s32.u32: 2^31 + 15; 4294967288 */
		{0x7fffffff, 100},        /* vabsdiff.s32 .sat.max */
		{0x7fffffff, 0xfffffffd}, /* vmin.s32.u32.s32 */
		{0x7fffffff, 0},          /* vmin.u32.u32.s32 .sat: -3 clamps to 0 */
		{0xffffffff, 0x61},       /* vmax.s32.s32.u32 .add */
		{0x7fffffff, 5},          /* vmax.u32.s32.s32 .sat.min: c = 2^31 unsigned */
		{1, 1},                   /* vset.s32.u32.lt */
		{0x80000001, 101},        /* vset.u32.s32.ge .add */
		{0, 0},                   /* vset.s32.s32.eq */
		{0x80000000, 100},        /* vset.u32.u32.ne .max: c unsigned */
		{1, 1},                   /* vset.s32.u32.le */
		{1, 1},                   /* vset.u32.s32.gt .min */
		{0xfffffff1, 0x5c},       /* vabsdiff.u32 .sat.add */
	};

	by_hand_run("video_scalar", 71, 20, w);
}
END_TEST

/* tests/ptx/video_shift.ptx, threads 0 and 1: x = 0x80000001 (-2147483647 or 2147483649),
 * y = 33, z = 0x12345678; x = 240, y = 4, z = 0xffffffff (-1 or 4294967295). .clamp takes a
 * count of 33 as 32, .wrap as 1; a shift's value is its low 64 bits as a signed number, so
 * 2147483649 << 32 is negative and .sat makes it 0 (docs/oracle.md, "Video"). */
START_TEST(shift_by_hand)
{
	static const uint32_t w[8][2] = {
		{0, 0xf00},                /* vshl.u32.u32.u32.clamp: 2^63 + 2^32, low word 0 */
		{2, 0xf00},                /* .wrap: << 1 */
		{0, 0xf00},                /* .clamp.sat: the 64-bit value is negative */
		{0xffffffff, 0xf},         /* vshr.s32.s32.u32.clamp: -2147483647 >> 32 = -1 */
		{0x40000000, 0xf},         /* vshr.u32.u32.u32.wrap: >> 1 */
		{0xd2345678, 0xe},         /* vshr.s32 .wrap.add: -2^30 + c; 15 + 2^32 - 1 */
		{0x80000000, 0xffffffff},  /* vshl.s32 .clamp.sat.min: -2^31; min(3840, -1) */
		{0x12345678, 0xffffffff},  /* vshl.u32.s32.u32.wrap.max: c unsigned */
	};

	by_hand_run("video_shift", 73, 8, w);
}
END_TEST

/* tests/ptx/vmad.ptx, threads 0 and 1: x = y = 0xffffffff, z = 0x80000000; x = 1000,
 * y = 0xffffff38 (-200 or 4294967096), z = 70000. Worked from the PTX manual's pseudocode:
 * e.g. thread 0's -(u32 * u32) + c is -(2^64 - 2^33 + 1) - 2^31 (c signed: the result is),
 * beyond 64 bits, and .sat makes it -2^31; (1 - 2^31) >> 15 is -65536. */
START_TEST(vmad_by_hand)
{
	static const uint32_t w[12][2] = {
		{0x80000001, 4294837296u},  /* u32 * u32 + c: low words; 1000 * (2^32 - 200) + 70000 */
		{0x80000001, 4294837296u},  /* s32: 1 - 2^31; -200000 + 70000 */
		{0x80000001, 4294837296u},  /* u32 * s32 + c */
		{0x80000000, 0x80000000},   /* -(u32 * u32) + c .sat: far below -2^31 */
		{0x80000001, 4294697296u},  /* u32 * u32 - c: + 2^31; -200000 - 70000 */
		{0x80000002, 4294837297u},  /* .po: + 1 */
		{0xffffffff, 0xffffffff},   /* .sat.shr7 unsigned: 2^57 and 3.3e10 clamp */
		{0xffff0000, 0xfffffffc},   /* .sat.shr15 signed: -65536; -130000 >> 15 = -4 */
		{0xffffffff, 0xffffffff},   /* .sat unsigned */
		{0x7fffffff, 4294697296u},  /* -a * -b - c .sat: 1 + 2^31 clamps; -270000 */
		{65535, 8},                 /* u32 * -s32 + c .shr15: 2^31 - 1 >> 15; 270000 >> 15 */
		{0xfd000000, 0x7fffffff},   /* s32 * u32 + c .po.sat.shr7 */
	};

	by_hand_run("vmad", 79, 12, w);
}
END_TEST

/* tests/ptx/vmad_sel.ptx, threads 0 and 1: x = y = 0xffffffff, z = 0x80000000; x = 0x80ff7f05
 * (bytes 5, 0x7f, 0xff, 0x80; halves 0x7f05, 0x80ff), y = 0xc0017ffe (bytes 0xfe, 0x7f, 1, 0xc0;
 * halves 0x7ffe, 0xc001), z = 1000. The selected byte or half is extended by its operand's type,
 * then as vmad_by_hand: e.g. thread 1's s32 x.b3 * u32 y.h0 is -128 * 32766. */
START_TEST(vmad_sel_by_hand)
{
	static const uint32_t w[12][2] = {
		{0x8000fe01, 1635},         /* u32 b0 * b1: 255 * 255 + 2^31; 5 * 127 + 1000 */
		{0x80000001, 1064},         /* s32 b2 * b3: -1 * -1 - 2^31; -1 * -64 + 1000 */
		{0x7fff0001, 0xffc004e8},   /* s32 b3 * u32 h0: -65535 - 2^31 wraps; -4194048 + 1000 */
		{0x7fff0001, 0xdfc0c4e7},   /* u32 h1 * s32 h1: 65535 * -1; 33023 * -16383 + 1000 */
		{0x80000000, 0xffc084e6},   /* -(s32 b1) * h0 .sat: -1 - 2^31 clamps; -127 * 32766 + 1000 */
		{0x8000ffff, 0xffff84e3},   /* u32 h0 * -(s32 b2): 65535 - 2^31; -32517 + 1000 */
		{0x8000fe02, 33513},        /* u32 b3 * b0 .po: 128 * 254 + 1000 + 1 */
		{0xff000000, 0x003f7f89},   /* s32 h1 * h1 .shr7: (1 - 2^31) >> 7; 532661479 >> 7 */
		{0xffff0000, 0xffff8101},   /* s32 h1 * h0 .sat.shr15: -65536; -1065319958 >> 15 */
		{0x7fffff01, 0xbf9f3fd8},   /* u32 x * b3 - c: low words of (2^32 - 1) * 255 - 2^31 */
		{0x80000000, 0x80000000},   /* s32 b2 * u32 y .sat: -(2^32 - 1) - 2^31; -3221323774 */
		{0x80000001, 0xfffffc0e},   /* s32 b0 * b0 - c: 1 + 2^31; -10 - 1000 */
	};

	by_hand_run("vmad_sel", 83, 12, w);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("backend-video");
	TCase *c = tcase_create("video");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, cuda_intrinsics);
	tcase_add_test(c, by_hand);
	tcase_add_test(c, scalar_by_hand);
	tcase_add_test(c, shift_by_hand);
	tcase_add_test(c, vmad_by_hand);
	tcase_add_test(c, vmad_sel_by_hand);
	suite_add_tcase(s, c);
	return ck_run(s);
}
