/* test_backend_run.c - Check tests that run translated code on the SM model and compare
 * every buffer with the PTX oracle's (test_backend.h): integer division and remainder on
 * edge values (divisor 0, -1, INT_MIN), a register limit that forces spills, recursion
 * through CAL/RET, JCAL with three targets, brx.idx, early exit, more than 7 live
 * predicates, mul.hi.u64/s64. Runs from the top of the tree (make check). */
#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <unistd.h>
#include "tests/unit/test_backend.h"
#include "tests/unit/helper_check.h"

#define HDR ".version 7.0\n.target sm_70\n.address_size 64\n"

/* ------------------------------------------------------------------ division */
static const uint64_t E64[] = {
	0, 1, 2, 3, 7, 10, 0xffffffffull, 0x100000000ull, 0x7fffffffffffffffull,
	0x8000000000000000ull, 0x8000000000000001ull, 0xffffffffffffffffull,
	0xfffffffffffffffeull, 0xfffffffffffffff9ull, 1000000007ull, 0x123456789abcdefull,
};
#define NE 16

/* the kernel: out_q[i] = a[i] / b[i], out_r[i] = a[i] % b[i] for type ty */
static char *div_ptx(const char *ty, int bits)
{
	static char buf[2048];
	const char *r = bits == 64 ? "%rd" : "%r";
	snprintf(buf, sizeof buf, HDR
	         ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pq, .param .u64 pr)\n{\n"
	         ".reg .b32 %%r<16>;\n.reg .b64 %%rd<16>;\n"
	         "mov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd1, %%r1, %d;\n"
	         "ld.param.u64 %%rd2, [pa];\nadd.s64 %%rd2, %%rd2, %%rd1;\n"
	         "ld.param.u64 %%rd3, [pb];\nadd.s64 %%rd3, %%rd3, %%rd1;\n"
	         "ld.param.u64 %%rd4, [pq];\nadd.s64 %%rd4, %%rd4, %%rd1;\n"
	         "ld.param.u64 %%rd5, [pr];\nadd.s64 %%rd5, %%rd5, %%rd1;\n"
	         "ld.global.%s %s10, [%%rd2];\nld.global.%s %s11, [%%rd3];\n"
	         "div.%s %s12, %s10, %s11;\nst.global.%s [%%rd4], %s12;\n"
	         "rem.%s %s12, %s10, %s11;\nst.global.%s [%%rd5], %s12;\n"
	         "ret;\n}\n", bits / 8, ty, r, ty, r, ty, r, r, r, ty, r, ty, r, r, r, ty, r);
	return buf;
}

static void div_case(const char *ty, int bits)
{
	char pa[] = "/tmp/be-div-a.XXXXXX", pb[] = "/tmp/be-div-b.XXXXXX", opts[512];
	int fa = mkstemp(pa), fb = mkstemp(pb), es = bits / 8;
	FILE *a = fdopen(fa, "wb"), *b = fdopen(fb, "wb");

	for (int i = 0; i < NE; i++)
		for (int j = 0; j < NE; j++) {
			fwrite(&E64[i], es, 1, a);  /* little-endian: the low bytes first */
			fwrite(&E64[j], es, 1, b);
		}
	fclose(a);
	fclose(b);
	snprintf(opts, sizeof opts, "--grid 1 --block %d --arg buf:%s:%d:file:%s --arg buf:%s:%d:file:%s "
	         "--arg buf:%s:%d:zero --arg buf:%s:%d:zero", NE * NE, ty, NE * NE, pa, ty, NE * NE, pb,
	         ty, NE * NE, ty, NE * NE);
	BeRun *r = be_run(div_ptx(ty, bits), opts, 0, 7);
	unlink(pa);
	unlink(pb);
	ck_assert_msg(be_same(r), "div/rem.%s on edge values", ty);
	/* a few by hand: the convention for zero divisors, the INT_MIN / -1 wrap */
	uint64_t ones = bits == 64 ? ~0ull : 0xffffffffull;
	ck_assert_uint_eq(be_get(r, 2, 5 * NE + 0), ones);  /* 10 / 0 */
	ck_assert_uint_eq(be_get(r, 3, 5 * NE + 0), 10);                          /* 10 % 0 */
	if (bits == 64) {
		ck_assert_uint_eq(be_get(r, 2, 11 * NE + 4), ty[0] == 'u' ? ~0ull / 7 : 0);  /* -1 / 7 */
		ck_assert_uint_eq(be_get(r, 3, 11 * NE + 4), ty[0] == 'u' ? ~0ull % 7 : ~0ull);
		ck_assert_uint_eq(be_get(r, 2, 9 * NE + 11),
		                  ty[0] == 'u' ? 0 : 0x8000000000000000ull);  /* INT64_MIN / -1 */
		ck_assert_uint_eq(be_get(r, 2, 15 * NE + 14), 0x123456789abcdefull / 1000000007ull);
	}
	be_run_free(r);
}

START_TEST(div_u32) { div_case("u32", 32); }
END_TEST
START_TEST(div_s32) { div_case("s32", 32); }
END_TEST
START_TEST(div_u64) { div_case("u64", 64); }
END_TEST
START_TEST(div_s64) { div_case("s64", 64); }
END_TEST

/* ------------------------------------------------------------------ programs */
/* a program run on the SM model and on the oracle: every buffer agrees, and these hold */
typedef struct {
	int param, i;      /* element i of buffer argument param ... */
	uint64_t v;        /* ... is v after the SM run */
	const char *why;   /* what it is; NULL ends the list */
} Elem;

typedef struct {
	const char *name;     /* as each failure names it */
	const char *ptx;
	const void *data;     /* NULL, or the contents of the file that replaces %s in opts ... */
	size_t size;          /* ... in bytes */
	const char *opts;     /* the launch */
	int pmax;             /* the translator's predicate_max */
	const char *has[3];   /* texts the listing contains */
	const char *lacks;    /* a text the listing does not contain, or NULL */
	int stack;            /* 1: the kernel keeps a call stack in local memory */
	Elem want[12];
} Prg;

static void check_prg(const Prg *c)
{
	BeRun *r = c->data ? be_run_data(c->ptx, c->data, c->size, c->opts, c->pmax)
	                   : be_run(c->ptx, c->opts, 0, c->pmax);

	ck_assert_msg(be_same(r), "%s (predicate_max %d): the SM model and the oracle differ",
	              c->name, c->pmax);
	for (int k = 0; k < 3 && c->has[k]; k++)
		ck_assert_msg(strstr(r->listing, c->has[k]) != NULL, "%s: no %s in the listing", c->name,
		              c->has[k]);
	ck_assert_msg(!c->lacks || strstr(r->listing, c->lacks) == NULL, "%s: %s in the listing",
	              c->name, c->lacks);
	if (c->stack)
		ck_assert_msg(r->p->k[0].local > 0, "%s: no local memory", c->name);
	for (const Elem *e = c->want; e->why; e++) {
		uint64_t got = be_get(r, e->param, e->i);
		ck_assert_msg(got == e->v, "%s: buffer %d [%d] (%s) is %#" PRIx64 ", expected %#" PRIx64,
		              c->name, e->param, e->i, e->why, got, e->v);
	}
	be_run_free(r);
}

/* f16 edge values: zeros, subnormals, max, inf, NaN */
static const uint16_t H16[16] = {0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3c01,
                                 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x3555, 0x4248, 0x1400};
/* f32: NaN, zeros of both signs, inf */
static const uint32_t F32[8] = {0x7fc00000, 0xff800001, 0x00000000, 0x80000000, 0x3f800000,
                                0xbf800000, 0x7f800000, 0x00000001};

/* arithmetic on the edge values (E64, H16, F32) of the first buffer */
static const Prg arith[] = {
	{.name = "mulhi64", .ptx = HDR
		".visible .entry k(.param .u64 pa, .param .u64 pu, .param .u64 ps)\n{\n"
		".reg .b32 %r<8>;\n.reg .b64 %rd<16>;\n"
		"mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 8;\nshr.u32 %r2, %r1, 4;\n"
		"and.b32 %r3, %r1, 15;\nmul.wide.u32 %rd7, %r2, 8;\nmul.wide.u32 %rd8, %r3, 8;\n"
		"ld.param.u64 %rd2, [pa];\nadd.s64 %rd9, %rd2, %rd7;\nadd.s64 %rd10, %rd2, %rd8;\n"
		"ld.global.u64 %rd11, [%rd9];\nld.global.u64 %rd12, [%rd10];\n"
		"mul.hi.u64 %rd13, %rd11, %rd12;\nld.param.u64 %rd3, [pu];\nadd.s64 %rd3, %rd3, %rd1;\n"
		"st.global.u64 [%rd3], %rd13;\n"
		"mad.hi.s64 %rd14, %rd11, %rd12, %rd11;\nld.param.u64 %rd4, [ps];\nadd.s64 %rd4, %rd4, %rd1;\n"
		"st.global.u64 [%rd4], %rd14;\nret;\n}\n",
	 .data = E64, .size = 8 * NE, .pmax = 7,
	 .opts = "--grid 1 --block 256 --arg buf:u64:16:file:%s --arg buf:u64:256:zero --arg buf:u64:256:zero",
	 .want = {{1, 11 * 16 + 11, 0xfffffffffffffffeull, "(2^64-1)^2 >> 64 = 2^64 - 2"}}},
	{.name = "bitfield64", .ptx = HDR
		".visible .entry k(.param .u64 pa, .param .u64 po)\n{\n.reg .b32 %r<16>;\n.reg .b64 %rd<24>;\n"
		"mov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 15;\nmul.wide.u32 %rd1, %r2, 8;\n"
		"ld.param.u64 %rd2, [pa];\nadd.s64 %rd2, %rd2, %rd1;\nld.global.u64 %rd3, [%rd2];\n"
		"shr.u32 %r3, %r1, 4;\nmul.lo.u32 %r4, %r3, 7;\nrem.u32 %r4, %r4, 90;\n"  /* pos */
		"mul.lo.u32 %r5, %r3, 13;\nrem.u32 %r5, %r5, 75;\n"                         /* len */
		"and.b32 %r6, %r3, 1;\nshl.b32 %r6, %r6, 9;\nor.b32 %r4, %r4, %r6;\n"      /* ignored bits */
		"bfe.u64 %rd4, %rd3, %r4, %r5;\nbfe.s64 %rd5, %rd3, %r4, %r5;\n"
		"not.b64 %rd6, %rd3;\nbfi.b64 %rd7, %rd3, %rd6, %r4, %r5;\n"
		"bfind.u64 %r7, %rd3;\nbfind.s64 %r8, %rd3;\n"
		"bfind.shiftamt.u64 %r9, %rd3;\nbfind.shiftamt.s64 %r10, %rd3;\n"
		"cvt.u64.u32 %rd8, %r7;\ncvt.u64.u32 %rd9, %r8;\ncvt.u64.u32 %rd10, %r9;\ncvt.u64.u32 %rd11, %r10;\n"
		"mul.wide.u32 %rd12, %r1, 56;\nld.param.u64 %rd13, [po];\nadd.s64 %rd13, %rd13, %rd12;\n"
		"st.global.u64 [%rd13], %rd4;\nst.global.u64 [%rd13+8], %rd5;\nst.global.u64 [%rd13+16], %rd7;\n"
		"st.global.u64 [%rd13+24], %rd8;\nst.global.u64 [%rd13+32], %rd9;\n"
		"st.global.u64 [%rd13+40], %rd10;\nst.global.u64 [%rd13+48], %rd11;\nret;\n}\n",
	 .data = E64, .size = 8 * NE, .pmax = 7,
	 .opts = "--grid 1 --block 512 --arg buf:u64:16:file:%s --arg buf:u64:3584:zero",
	 .want = {{1, 11 * 7 + 3, 63, "bfind.u64 of ~0"},
	          {1, 11 * 7 + 4, 0xffffffff, "bfind.s64 of -1"},
	          {1, 0 * 7 + 3, 0xffffffff, "bfind.u64 of 0"},
	          {1, 6 * 7 + 5, 32, "shiftamt of 0xffffffff"}}},
	/* f16 and f16x2 arithmetic, every rounding mode (fma included: 2^-24 * 2^-24 - 65504
	 * needs one rounding, not two), comparisons, sign operations and the sign of an exact
	 * zero sum when rounding down */
	{.name = "half", .ptx = HDR
		".visible .entry k(.param .u64 pa, .param .u64 po)\n{\n.reg .pred %p<4>;\n.reg .b16 %h<24>;\n"
		".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
		"mov.u32 %r1, %tid.x;\nshr.u32 %r2, %r1, 4;\nand.b32 %r3, %r1, 15;\n"
		"ld.param.u64 %rd1, [pa];\nmul.wide.u32 %rd2, %r2, 2;\nadd.s64 %rd2, %rd1, %rd2;\n"
		"ld.global.b16 %h1, [%rd2];\nmul.wide.u32 %rd3, %r3, 2;\nadd.s64 %rd3, %rd1, %rd3;\n"
		"ld.global.b16 %h2, [%rd3];\n"
		"add.f16 %h3, %h1, %h2;\nsub.rz.f16 %h4, %h1, %h2;\nmul.rm.f16 %h5, %h1, %h2;\n"
		"mul.rp.f16 %h6, %h1, %h2;\nfma.rn.f16 %h7, %h1, %h2, %h1;\nfma.rn.f16 %h8, %h2, %h2, %h1;\n"
		"add.sat.f16 %h9, %h1, %h2;\nneg.f16 %h10, %h1;\nabs.f16 %h11, %h2;\n"
		"setp.lt.f16 %p1, %h1, %h2;\nselp.b16 %h12, 1, 0, %p1;\n"
		"setp.equ.f16 %p2, %h1, %h2;\nselp.b16 %h13, 1, 0, %p2;\n"
		"mov.b32 %r4, {%h1, %h2};\nmov.b32 %r5, {%h2, %h1};\nmul.f16x2 %r6, %r4, %r5;\n"
		"fma.rn.f16x2 %r7, %r4, %r5, %r4;\nmov.b32 {%h14, %h15}, %r6;\nmov.b32 {%h16, %h17}, %r7;\n"
		"fma.rz.f16 %h18, %h2, %h2, %h1;\nfma.rm.f16 %h19, %h2, %h2, %h1;\nfma.rp.f16 %h20, %h2, %h2, %h1;\n"
		"add.rm.f16 %h21, %h1, %h10;\nfma.rm.f16 %h22, %h1, %h2, %h10;\nfma.rp.f16 %h23, %h1, %h2, %h2;\n"
		"ld.param.u64 %rd4, [po];\nmul.wide.u32 %rd5, %r1, 48;\nadd.s64 %rd4, %rd4, %rd5;\n"
		"st.global.v4.b16 [%rd4], {%h3, %h4, %h5, %h6};\nst.global.v4.b16 [%rd4+8], {%h7, %h8, %h9, %h10};\n"
		"st.global.v4.b16 [%rd4+16], {%h11, %h12, %h13, %h14};\nst.global.v4.b16 [%rd4+24], {%h15, %h16, %h17, %h1};\n"
		"st.global.v4.b16 [%rd4+32], {%h18, %h19, %h20, %h21};\nst.global.v2.b16 [%rd4+40], {%h22, %h23};\n"
		"ret;\n}\n",
	 .data = H16, .size = 2 * 16, .pmax = 7,
	 .opts = "--grid 1 --block 256 --arg buf:u16:16:file:%s --arg buf:u16:6144:zero",
	 .want = {{1, (5 * 16 + 5) * 24 + 0, 0x4000, "1 + 1"},
	          {1, (8 * 16 + 8) * 24 + 0, 0x7c00, "max + max = inf"},
	          {1, (8 * 16 + 8) * 24 + 1, 0x0000, "max - max, rz"},
	          {1, (12 * 16 + 5) * 24 + 0, 0x7fff, "NaN + 1: canonical"},
	          /* 2^-24 * 2^-24 - 65504 = -65504 + 2^-48: rz and rp give -65472, rm -65504 */
	          {1, (9 * 16 + 2) * 24 + 16, 0xfbfe, "2^-24 * 2^-24 - 65504, rz"},
	          {1, (9 * 16 + 2) * 24 + 17, 0xfbff, "2^-24 * 2^-24 - 65504, rm"},
	          {1, (9 * 16 + 2) * 24 + 18, 0xfbfe, "2^-24 * 2^-24 - 65504, rp"},
	          {1, (5 * 16 + 5) * 24 + 19, 0x8000, "1 + -1, rm: -0"},
	          {1, (0 * 16 + 0) * 24 + 19, 0x8000, "0 + -0, rm: -0"},
	          {1, (5 * 16 + 5) * 24 + 20, 0x8000, "1 * 1 - 1, rm: -0"},
	          {1, (2 * 16 + 2) * 24 + 21, 0x0002, "2^-48 + 2^-24, rp"}}},
	/* bmsk, szext (clamp and wrap), dp4a and dp2a (every signedness) */
	{.name = "mask_dot", .ptx = HDR
		".visible .entry k(.param .u64 pa, .param .u64 po)\n{\n.reg .b32 %r<24>;\n.reg .b64 %rd<8>;\n"
		"mov.u32 %r1, %tid.x;\nshr.u32 %r2, %r1, 4;\nand.b32 %r3, %r1, 15;\n"
		"ld.param.u64 %rd1, [pa];\nmul.wide.u32 %rd2, %r2, 8;\nadd.s64 %rd2, %rd1, %rd2;\n"
		"ld.global.u32 %r4, [%rd2];\nmul.wide.u32 %rd3, %r3, 8;\nadd.s64 %rd3, %rd1, %rd3;\n"
		"ld.global.u32 %r5, [%rd3];\nand.b32 %r6, %r1, 63;\nshr.u32 %r7, %r1, 2;\n"
		"bmsk.clamp.b32 %r8, %r6, %r7;\nbmsk.wrap.b32 %r9, %r6, %r7;\n"
		"szext.clamp.s32 %r10, %r4, %r6;\nszext.wrap.u32 %r11, %r4, %r6;\n"
		"dp4a.u32.u32 %r12, %r4, %r5, %r1;\ndp4a.s32.s32 %r13, %r4, %r5, %r1;\n"
		"dp4a.s32.u32 %r14, %r4, %r5, %r4;\ndp2a.lo.u32.s32 %r15, %r4, %r5, %r1;\n"
		"dp2a.hi.s32.s32 %r16, %r4, %r5, %r5;\n"
		"ld.param.u64 %rd4, [po];\nmul.wide.u32 %rd5, %r1, 36;\nadd.s64 %rd4, %rd4, %rd5;\n"
		"st.global.u32 [%rd4], %r8;\nst.global.u32 [%rd4+4], %r9;\nst.global.u32 [%rd4+8], %r10;\n"
		"st.global.u32 [%rd4+12], %r11;\nst.global.u32 [%rd4+16], %r12;\nst.global.u32 [%rd4+20], %r13;\n"
		"st.global.u32 [%rd4+24], %r14;\nst.global.u32 [%rd4+28], %r15;\nst.global.u32 [%rd4+32], %r16;\n"
		"ret;\n}\n",
	 .data = E64, .size = 8 * NE, .pmax = 7,
	 .opts = "--grid 1 --block 256 --arg buf:u32:32:file:%s --arg buf:u32:2304:zero",
	 .want = {{1, 9 * 9 + 0, 0x600, "thread 9: bmsk.clamp 9, 2"}}},
	/* min/max .NaN (f32, f64) against the plain ones */
	{.name = "minmax_nan", .ptx = HDR
		".visible .entry k(.param .u64 pa, .param .u64 po)\n{\n.reg .b32 %r<8>;\n.reg .f32 %f<8>;\n"
		".reg .f64 %fd<8>;\n.reg .b64 %rd<8>;\n"
		"mov.u32 %r1, %tid.x;\nshr.u32 %r2, %r1, 3;\nand.b32 %r3, %r1, 7;\n"
		"ld.param.u64 %rd1, [pa];\nmul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd2, %rd1, %rd2;\n"
		"ld.global.f32 %f1, [%rd2];\nmul.wide.u32 %rd3, %r3, 4;\nadd.s64 %rd3, %rd1, %rd3;\n"
		"ld.global.f32 %f2, [%rd3];\nmin.NaN.f32 %f3, %f1, %f2;\nmax.NaN.f32 %f4, %f1, %f2;\n"
		"min.f32 %f5, %f1, %f2;\ncvt.f64.f32 %fd1, %f1;\ncvt.f64.f32 %fd2, %f2;\n"
		"max.NaN.f64 %fd3, %fd1, %fd2;\nmin.NaN.f32 %f1, %f1, %f2;\n"
		"ld.param.u64 %rd4, [po];\nmul.wide.u32 %rd5, %r1, 24;\nadd.s64 %rd4, %rd4, %rd5;\n"
		"st.global.f32 [%rd4], %f3;\nst.global.f32 [%rd4+4], %f4;\nst.global.f32 [%rd4+8], %f5;\n"
		"st.global.f32 [%rd4+12], %f1;\nst.global.f64 [%rd4+16], %fd3;\nret;\n}\n",
	 .data = F32, .size = 4 * 8, .pmax = 7,
	 .opts = "--grid 1 --block 64 --arg buf:u32:8:file:%s --arg buf:u32:384:zero",
	 .want = {{1, (0 * 8 + 4) * 6 + 0, 0x7fffffff, "min.NaN(NaN, 1)"},
	          {1, (0 * 8 + 4) * 6 + 2, 0x3f800000, "min(NaN, 1) = 1"}}},
	/* fns on masks of the edge values, every base (above 31 too: none), offsets -28..28 and
	 * INT_MIN, under a guard: ptxas's branch-free search (BFE.BREV, PRMT, guarded steps), no
	 * branch for a register offset either */
	{.name = "fns", .ptx = HDR
		".visible .entry k(.param .u64 pa, .param .u64 po)\n{\n.reg .pred %p<4>;\n.reg .b32 %r<16>;\n"
		".reg .b64 %rd<8>;\n"
		"mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nand.b32 %r3, %r1, 15;\n"
		"ld.param.u64 %rd1, [pa];\nmul.wide.u32 %rd2, %r3, 8;\nadd.s64 %rd2, %rd1, %rd2;\n"
		"ld.global.u32 %r4, [%rd2];\nshr.u32 %r5, %r1, 4;\n"           /* base 0..15 (+ 16 * cta) */
		"mad.lo.u32 %r5, %r2, 16, %r5;\nsub.s32 %r6, %r2, 4;\nmul.lo.s32 %r6, %r6, 7;\n"
		"setp.eq.u32 %p1, %r2, 9;\n@%p1 mov.u32 %r6, 0x80000000;\n"  /* offsets -28..28, INT_MIN */
		"mov.u32 %r7, 99;\nsetp.ne.u32 %p2, %r3, 5;\n@%p2 fns.b32 %r7, %r4, %r5, %r6;\n"
		"fns.b32 %r8, 0xf0f0f0f0, %r5, 2;\n"
		"mad.lo.u32 %r9, %r2, 256, %r1;\nld.param.u64 %rd3, [po];\nmul.wide.u32 %rd4, %r9, 8;\n"
		"add.s64 %rd3, %rd3, %rd4;\nst.global.v2.u32 [%rd3], {%r7, %r8};\nret;\n}\n",
	 .data = E64, .size = 8 * NE, .pmax = 7,
	 .opts = "--grid 10 --block 256 --arg buf:u32:32:file:%s --arg buf:u32:5120:zero",
	 .has = {"BFE.U32.BREV", "PRMT"}, .lacks = "BRA",
	 .want = {{1, 2 * 5 + 1, 5, "0xf0f0f0f0 from bit 0: 4, 5"},
	          {1, 2 * 5 + 0, 99, "guarded off"}}},
};

START_TEST(arith_prg) { check_prg(&arith[_i]); }
END_TEST

/* ------------------------------------------------------------------ registers */
/* a fixture and its launch file under a register limit that forces spilling */
static void fixture_case(const char *name, int max_regs, int want_spill)
{
	char path[256], opts[256];
	char *ptx;

	snprintf(path, sizeof path, "tests/ptx/%s.ptx", name);
	ptx = be_slurp(path);
	ck_assert_msg(ptx != NULL, "cannot read %s (run from the top of the tree)", path);
	snprintf(opts, sizeof opts, "--launch tests/cuda/%.*s.launch", (int)strcspn(name, "."), name);
	BeRun *r = be_run(ptx, opts, max_regs, 7);
	ck_assert_msg(be_same(r), "%s with %d registers", name, max_regs);
	ck_assert_int_le(r->p->k[0].regs, max_regs);
	if (want_spill)
		ck_assert_msg(r->p->k[0].spill > 0, "%s: no spill at %d registers", name, max_regs);
	be_run_free(r);
	free(ptx);
}

START_TEST(spill_matmul) { fixture_case("matmul.sm75", 16, 1); }
END_TEST
START_TEST(spill_wide64) { fixture_case("wide64.sm75", 20, 1); }
END_TEST
START_TEST(spill_predicates) { fixture_case("bitonic.sm75", 63, 0); }
END_TEST

/* ------------------------------------------------------------------ calls and control */
static const Prg control[] = {
	{.name = "recursion", .ptx = HDR
		".func (.param .u32 r) fib(.param .u32 n)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n"
		"ld.param.u32 %r1, [n];\nsetp.lt.u32 %p1, %r1, 2;\n@%p1 bra DONE;\n"
		"sub.u32 %r2, %r1, 1;\nsub.u32 %r3, %r1, 2;\n"
		"{\n.param .u32 a;\n.param .u32 b;\nst.param.u32 [a], %r2;\ncall (b), fib, (a);\nld.param.u32 %r4, [b];\n}\n"
		"{\n.param .u32 a;\n.param .u32 b;\nst.param.u32 [a], %r3;\ncall (b), fib, (a);\nld.param.u32 %r5, [b];\n}\n"
		"add.u32 %r1, %r4, %r5;\nDONE:\nst.param.u32 [r], %r1;\nret;\n}\n"
		".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
		"mov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 15;\n"
		"{\n.param .u32 a;\n.param .u32 b;\nst.param.u32 [a], %r2;\ncall (b), fib, (a);\nld.param.u32 %r3, [b];\n}\n"
		"ld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd1, %rd1, %rd2;\n"
		"st.global.u32 [%rd1], %r3;\nret;\n}\n",
	 .opts = "--grid 1 --block 64 --arg buf:u32:64:zero", .pmax = 7,
	 .has = {"CAL ", "RET"}, .stack = 1,
	 .want = {{0, 15, 610, "fib(15)"}, {0, 33, 1, "fib(33 & 15)"}}},
	{.name = "jcal3", .ptx = HDR
		".func (.param .u32 r) f0(.param .u32 x)\n{\n.reg .b32 %r<4>;\nld.param.u32 %r1, [x];\n"
		"add.u32 %r1, %r1, 100;\nst.param.u32 [r], %r1;\nret;\n}\n"
		".func (.param .u32 r) f1(.param .u32 x)\n{\n.reg .b32 %r<4>;\nld.param.u32 %r1, [x];\n"
		"mul.lo.u32 %r1, %r1, 3;\nst.param.u32 [r], %r1;\nret;\n}\n"
		".func (.param .u32 r) f2(.param .u32 x)\n{\n.reg .b32 %r<4>;\nld.param.u32 %r1, [x];\n"
		"xor.b32 %r1, %r1, 255;\nst.param.u32 [r], %r1;\nret;\n}\n"
		".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
		"mov.u32 %r1, %tid.x;\nrem.u32 %r2, %r1, 3;\nmov.u64 %rd3, f0;\n"
		"setp.eq.u32 %p1, %r2, 1;\n@%p1 mov.u64 %rd3, f1;\nsetp.eq.u32 %p2, %r2, 2;\n@%p2 mov.u64 %rd3, f2;\n"
		"{\n.param .u32 a;\n.param .u32 b;\nst.param.u32 [a], %r1;\n"
		"T: .calltargets f0, f1, f2;\ncall (b), %rd3, (a), T;\nld.param.u32 %r3, [b];\n}\n"
		"ld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd1, %rd1, %rd2;\n"
		"st.global.u32 [%rd1], %r3;\nret;\n}\n",
	 .opts = "--grid 1 --block 64 --arg buf:u32:64:zero", .pmax = 7,
	 .has = {"JCAL"},
	 .want = {{0, 30, 130, "f0(30)"}, {0, 31, 93, "f1(31)"}, {0, 32, 32 ^ 255, "f2(32)"}}},
	{.name = "brx_idx", .ptx = HDR
		".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
		"mov.u32 %r1, %tid.x;\nrem.u32 %r2, %r1, 4;\n"
		"ts: .branchtargets L0, L1, L2, L3;\nbrx.idx %r2, ts;\n"
		"L0:\nmov.u32 %r3, 10;\nbra J;\nL1:\nmov.u32 %r3, 11;\nbra J;\n"
		"L2:\nmov.u32 %r3, 12;\nbra J;\nL3:\nmul.lo.u32 %r3, %r1, 7;\n"
		"J:\nadd.u32 %r3, %r3, %r1;\n"
		"ld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd1, %rd1, %rd2;\n"
		"st.global.u32 [%rd1], %r3;\nret;\n}\n",
	 .opts = "--grid 2 --block 64 --arg buf:u32:64:zero", .pmax = 0,
	 .has = {"BRX", "SSY"},
	 .want = {{0, 5, 16, "L1: 11 + 5"}, {0, 7, 56, "L3: 7 * 7 + 7"}}},
	{.name = "early_exit", .ptx = HDR
		".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
		"mov.u32 %r1, %tid.x;\nld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd1, %rd1, %rd2;\n"
		"and.b32 %r2, %r1, 1;\nsetp.eq.u32 %p1, %r2, 1;\n@%p1 bra X;\n"
		"setp.lt.u32 %p2, %r1, 20;\n@%p2 bra A;\nst.global.u32 [%rd1], 5;\nbra B;\n"
		"A:\nst.global.u32 [%rd1], 6;\nB:\nst.global.u32 [%rd1+4], %r1;\n"
		"X:\nret;\n}\n",
	 .opts = "--grid 1 --block 64 --arg buf:u32:80:const:9", .pmax = 0,
	 .has = {"EXIT;"},
	 .want = {{0, 2, 6, "thread 2, below 20"}, {0, 3, 2, "thread 2's tid"},
	          {0, 40, 5, "thread 40"}}},
	/* elect.sync: the lowest lane of the member mask among the active lanes leads; a branch
	 * on its predicate diverges */
	{.name = "elect", .ptx = HDR
		".visible .entry k(.param .u64 po)\n{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
		"mov.u32 %r1, %tid.x;\nmov.u32 %r5, 0;\nmov.u32 %r3, 0;\nand.b32 %r2, %r1, 3;\nsetp.ne.u32 %p2, %r2, 0;\n"
		"@%p2 bra SKIP;\nelect.sync %r3|%p1, 0xfffffff0;\n@!%p1 bra SKIP;\nmov.u32 %r5, 7;\n"
		"SKIP:\nld.param.u64 %rd1, [po];\nmul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd1, %rd1, %rd2;\n"
		"st.global.v2.u32 [%rd1], {%r3, %r5};\nret;\n}\n",
	 .opts = "--grid 1 --block 64 --arg buf:u32:128:zero", .pmax = 0,
	 .want = {{0, 0, 4, "lanes 0, 4, 8 .. take part; 4 leads"},
	          {0, 9, 7, "lane 4 is the leader"},
	          {0, 17, 0, "lane 8 is not"}}},
};

START_TEST(control_prg) { check_prg(&control[_i]); }
END_TEST

/* a uniform brx.idx whose targets share a block with a divergent branch in one of them
 * (generated program 100172): that branch's SSY moves up to the brx's block; with and
 * without if-conversion */
START_TEST(brx_shared_join)
{
	Prg c = {.name = "brx_shared_join", .ptx = HDR
		".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
		"mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, 1;\n"
		"ts: .branchtargets L0, L1, L2, L3;\nbrx.idx %r2, ts;\n"
		"L0:\nbra J9;\nL1:\nbra J9;\n"
		"L2:\nsetp.lt.u32 %p1, %r1, 5;\n@%p1 bra J6;\nbra J9;\nL3:\n"
		"J9:\nadd.u32 %r3, %r3, 10;\n"
		"J6:\nadd.u32 %r3, %r3, %r2;\n"
		"ld.param.u64 %rd1, [out];\nmad.lo.u32 %r4, %r2, 64, %r1;\nmul.wide.u32 %rd2, %r4, 4;\n"
		"add.s64 %rd1, %rd1, %rd2;\nst.global.u32 [%rd1], %r3;\nret;\n}\n",
	         .opts = "--grid 4 --block 64 --arg buf:u32:256:zero",
	         .want = {{0, 2 * 64 + 3, 3, "L2, lane 3 below 5: 1 + 2"},
	                  {0, 2 * 64 + 9, 13, "L2, lane 9: 1 + 10 + 2"},
	                  {0, 3 * 64 + 1, 14, "L3: 1 + 10 + 3"}}};

	for (c.pmax = 0; c.pmax <= 4; c.pmax += 4)
		check_prg(&c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("backend-run");
	TCase *d = tcase_create("division"), *g = tcase_create("registers"), *c = tcase_create("control");

	tcase_add_test(d, div_u32);
	tcase_add_test(d, div_s32);
	tcase_add_test(d, div_u64);
	tcase_add_test(d, div_s64);
	tcase_add_loop_test(d, arith_prg, 0, (int)(sizeof arith / sizeof arith[0]));
	tcase_add_test(g, spill_matmul);
	tcase_add_test(g, spill_wide64);
	tcase_add_test(g, spill_predicates);
	tcase_add_loop_test(c, control_prg, 0, (int)(sizeof control / sizeof control[0]));
	tcase_add_test(c, brx_shared_join);
	suite_add_tcase(s, d);
	suite_add_tcase(s, g);
	suite_add_tcase(s, c);
	return ck_run(s);
}
