/* test_backend_bf16.c - Check tests of the translator's bf16 arithmetic and conversions,
 * cvt.f16x2.f32, tanh.approx.f32 and isspacep: each runs on the SM model and on the PTX oracle
 * over edge operands (test_backend.h compares every buffer), and known results are checked
 * against values worked out by hand from the PTX manual (the rarer forms: test_backend_types.c).
 * Also globals initialised with the address of a global (Kernel.relocs, the .reloc directive).
 * Runs from the top of the tree. */
#include <check.h>
#include <stdint.h>
#include "tests/unit/test_backend.h"
#include "oracle/internal.h"
#include "tests/unit/helper_check.h"

#define HDR ".version 7.8\n.target sm_90\n.address_size 64\n"

/* 16 edge values, used as bf16 operands and as the low half of f32 inputs: zeros, the
 * smallest subnormal, the largest subnormal, the smallest normal, +-1, 1 + ulp, +-max, +-INF,
 * a quiet NaN, a NaN pattern, pi, 2^-8 (1 + 2^-7) */
static const uint16_t H[16] = {0x0000, 0x8000, 0x0001, 0x007f, 0x0080, 0x3f80, 0xbf80, 0x3f81,
                               0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x7fff, 0x4049, 0x3b81};

/* thread i: a = H[i / 16], b = H[i % 16]; out[8 i ..] = add, sub, mul of bf16 a, b;
 * cvt.rn and cvt.rz.bf16 of the f32 a:b; cvt.f32.bf16 a; cvt.rn.f16x2.f32 of the f32s a:0
 * and b:0; tanh.approx of the f32 a:b */
static const char *arith_ptx = HDR
	".visible .entry k(.param .u64 pa, .param .u64 po)\n{\n"
	".reg .b16 %h<12>;\n.reg .b32 %r<24>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<8>;\n"
	"mov.u32 %r1, %tid.x;\nshr.u32 %r2, %r1, 4;\nand.b32 %r3, %r1, 15;\n"
	"ld.param.u64 %rd1, [pa];\nmul.wide.u32 %rd2, %r2, 2;\nadd.s64 %rd2, %rd1, %rd2;\n"
	"ld.global.b16 %h1, [%rd2];\nmul.wide.u32 %rd3, %r3, 2;\nadd.s64 %rd3, %rd1, %rd3;\n"
	"ld.global.b16 %h2, [%rd3];\n"
	"add.rn.bf16 %h3, %h1, %h2;\nsub.rn.bf16 %h4, %h1, %h2;\nmul.rn.bf16 %h5, %h1, %h2;\n"
	"mov.b32 %f1, {%h2, %h1};\n"
	"cvt.rn.bf16.f32 %h6, %f1;\ncvt.rz.bf16.f32 %h7, %f1;\ncvt.f32.bf16 %f2, %h1;\n"
	"cvt.f32.bf16 %f4, %h2;\ncvt.rn.f16x2.f32 %r10, %f2, %f4;\n"
	"tanh.approx.f32 %f5, %f1;\n"
	"cvt.u32.u16 %r11, %h3;\ncvt.u32.u16 %r12, %h4;\ncvt.u32.u16 %r13, %h5;\n"
	"cvt.u32.u16 %r14, %h6;\ncvt.u32.u16 %r15, %h7;\n"
	"ld.param.u64 %rd4, [po];\nmul.wide.u32 %rd5, %r1, 32;\nadd.s64 %rd4, %rd4, %rd5;\n"
	"st.global.v4.u32 [%rd4], {%r11, %r12, %r13, %r14};\n"
	"st.global.v4.b32 [%rd4+16], {%r15, %f2, %r10, %f5};\n"
	"ret;\n}\n";

#define OUT(ia, ib, k) (((ia) * 16 + (ib)) * 8 + (k))

START_TEST(bf16_edges)
{
	BeRun *r = be_run_data(arith_ptx, H, 2 * 16, "--grid 1 --block 256 --arg buf:u16:16:file:%s "
	                       "--arg buf:u32:2048:zero", 7);
	ck_assert(be_same(r));
	ck_assert_uint_eq(be_get(r, 1, OUT(5, 5, 0)), 0x4000);   /* 1 + 1 */
	ck_assert_uint_eq(be_get(r, 1, OUT(5, 5, 1)), 0x0000);   /* 1 - 1 */
	ck_assert_uint_eq(be_get(r, 1, OUT(5, 7, 2)), 0x3f81);   /* 1 * (1 + 2^-7) */
	ck_assert_uint_eq(be_get(r, 1, OUT(7, 7, 2)), 0x3f82);   /* (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14 */
	ck_assert_uint_eq(be_get(r, 1, OUT(8, 8, 0)), 0x7f80);   /* max + max = INF */
	ck_assert_uint_eq(be_get(r, 1, OUT(8, 9, 0)), 0x0000);   /* max + -max = +0 */
	ck_assert_uint_eq(be_get(r, 1, OUT(12, 5, 0)), 0x7fff);  /* NaN + 1: canonical */
	ck_assert_uint_eq(be_get(r, 1, OUT(10, 11, 0)), 0x7fff); /* INF + -INF */
	ck_assert_uint_eq(be_get(r, 1, OUT(2, 2, 2)), 0x0000);   /* 2^-133 squared underflows */
	/* 1 + 2^-8 (1 + 2^-7): above the tie 1 + 2^-8, rounds up */
	ck_assert_uint_eq(be_get(r, 1, OUT(5, 15, 0)), 0x3f81);
	/* f32 to bf16: the tie 0x3f808000 to even, 0x3f818000 up, 0x3f807fff down */
	ck_assert_uint_eq(be_get(r, 1, OUT(5, 1, 3)), 0x3f80);
	ck_assert_uint_eq(be_get(r, 1, OUT(7, 1, 3)), 0x3f82);
	ck_assert_uint_eq(be_get(r, 1, OUT(5, 13, 3)), 0x3f80);
	ck_assert_uint_eq(be_get(r, 1, OUT(8, 9, 3)), 0x7f80);   /* 0x7f7fff7f to INF */
	ck_assert_uint_eq(be_get(r, 1, OUT(8, 9, 4)), 0x7f7f);   /* .rz: max */
	ck_assert_uint_eq(be_get(r, 1, OUT(10, 11, 3)), 0x7fff); /* 0x7f80ff80 is a NaN, not INF */
	ck_assert_uint_eq(be_get(r, 1, OUT(10, 11, 4)), 0x7fff);
	ck_assert_uint_eq(be_get(r, 1, OUT(1, 15, 3)), 0x8000);  /* -2^-133 (+ less) to -0 */
	ck_assert_uint_eq(be_get(r, 1, OUT(7, 0, 5)), 0x3f810000);  /* exact widening */
	ck_assert_uint_eq(be_get(r, 1, OUT(5, 6, 6)), 0x3c00bc00);  /* {1, -1}: a in the upper half */
	ck_assert_uint_eq(be_get(r, 1, OUT(8, 12, 6)), 0x7c007fff); /* max to f16 INF, NaN canonical */
	ck_assert_uint_eq(be_get(r, 1, OUT(5, 0, 7)), 0x3f42f7d6);  /* tanh 1 */
	ck_assert_uint_eq(be_get(r, 1, OUT(10, 0, 7)), 0x3f800000); /* tanh INF */
	ck_assert_uint_eq(be_get(r, 1, OUT(1, 0, 7)), 0x80000000);  /* tanh -0 */
	be_run_free(r);
}
END_TEST

/* the same kernel over every pair of 64 random 16-bit patterns (4096 threads): bf16 operands of
 * every class, and f32 inputs a:b with arbitrary low halves; the SM model must agree with the
 * oracle everywhere */
START_TEST(bf16_random)
{
	char *ptx = strdup(arith_ptx), *s = strstr(ptx, "shr.u32 %r2, %r1, 4;\nand.b32 %r3, %r1, 15;");
	ck_assert_ptr_nonnull(s);
	memcpy(s, "shr.u32 %r2, %r1, 6;\nand.b32 %r3, %r1, 63;", strlen("shr.u32 %r2, %r1, 6;\nand.b32 %r3, %r1, 63;"));
	for (int seed = 1; seed <= 3; seed++) {
		char opts[256];
		snprintf(opts, sizeof opts, "--grid 16 --block 256 --arg buf:u16:64:random:%d "
		         "--arg buf:u32:32768:zero", seed);
		BeRun *r = be_run(ptx, opts, 0, 7);
		ck_assert(be_same(r));
		be_run_free(r);
	}
	free(ptx);
}
END_TEST

/* the oracle's bf16 rounding against the bit formula (u + 0x7fff + bit 16) >> 16 on every
 * 997th f32 pattern (NaNs: 0x7fff; .rz: u >> 16) */
START_TEST(bf16_oracle_rounding)
{
	for (uint64_t u = 0; u <= 0xffffffffu; u += 997) {
		uint32_t x = (uint32_t)u;
		float f;
		memcpy(&f, &x, 4);
		int nan = (x & 0x7fffffffu) > 0x7f800000u;
		uint64_t rn = nan ? 0x7fff : (x + 0x7fffu + ((x >> 16) & 1)) >> 16;
		uint64_t rz = nan ? 0x7fff : x >> 16;
		if (or_bf16_of_double((double)f, 0) != rn || or_bf16_of_double((double)f, 1) != rz)
			ck_abort_msg("f32 0x%08x: rn 0x%llx (want 0x%llx), rz 0x%llx (want 0x%llx)", x,
			             (unsigned long long)or_bf16_of_double((double)f, 0), (unsigned long long)rn,
			             (unsigned long long)or_bf16_of_double((double)f, 1), (unsigned long long)rz);
	}
}
END_TEST

/* isspacep on the generic addresses of a shared variable, a local one, the global buffer,
 * and on the ends of the windows (0x3000000 is the constant window's first byte): bit 0
 * shared, 1 local, 2 global, 3 const for each of 8 addresses */
START_TEST(isspacep)
{
	static const char *ptx = HDR
		".visible .entry k(.param .u64 po)\n{\n"
		".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<16>;\n"
		".shared .align 4 .b8 sm[64];\n.local .align 4 .b8 lo[16];\n"
		"mov.u32 %r1, %tid.x;\nld.param.u64 %rd1, [po];\ncvta.to.global.u64 %rd1, %rd1;\n"
		"mov.u64 %rd2, sm;\ncvta.shared.u64 %rd2, %rd2;\nmov.u64 %rd3, lo;\ncvta.local.u64 %rd3, %rd3;\n"
		"setp.eq.u32 %p1, %r1, 0;\nselp.b64 %rd4, %rd2, %rd3, %p1;\n"
		"setp.eq.u32 %p1, %r1, 2;\nselp.b64 %rd4, %rd1, %rd4, %p1;\n"
		"setp.eq.u32 %p1, %r1, 3;\nselp.b64 %rd4, 0x0ffffff, %rd4, %p1;\n"
		"setp.eq.u32 %p1, %r1, 4;\nselp.b64 %rd4, 0x1000000, %rd4, %p1;\n"
		"setp.eq.u32 %p1, %r1, 5;\nselp.b64 %rd4, 0x2ffffff, %rd4, %p1;\n"
		"setp.eq.u32 %p1, %r1, 6;\nselp.b64 %rd4, 0x3000000, %rd4, %p1;\n"
		"setp.eq.u32 %p1, %r1, 7;\nselp.b64 %rd4, 0x101000000, %rd4, %p1;\n"
		"isspacep.shared %p1, %rd4;\nselp.u32 %r2, 1, 0, %p1;\n"
		"isspacep.local %p2, %rd4;\nselp.u32 %r3, 2, 0, %p2;\nor.b32 %r2, %r2, %r3;\n"
		"isspacep.global %p3, %rd4;\nselp.u32 %r3, 4, 0, %p3;\nor.b32 %r2, %r2, %r3;\n"
		"isspacep.const %p3, %rd4;\nselp.u32 %r3, 8, 0, %p3;\nor.b32 %r2, %r2, %r3;\n"
		"mul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd5, %rd1, %rd5;\nst.global.u32 [%rd5], %r2;\n"
		"ret;\n}\n";
	static const unsigned want[8] = {1, 2, 4, 4, 1, 2, 8, 4};
	BeRun *r = be_run(ptx, "--grid 1 --block 8 --arg buf:u32:8:zero", 0, 7);
	ck_assert(be_same(r));
	for (int i = 0; i < 8; i++)
		ck_assert_uint_eq(be_get(r, 0, i), want[i]);
	be_run_free(r);
}
END_TEST

/* a global initialised with the address of another (generic(g)+8, and a plain one): the
 * loader relocates it; the listing's .reloc line assembles back to the same relocation */
START_TEST(address_init)
{
	static const char *ptx = HDR
		".global .align 4 .u32 g[4] = {11, 22, 33, 44};\n"
		".global .align 8 .u64 pp[2] = {generic(g)+8, g+4};\n"
		".visible .entry k(.param .u64 po)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n"
		"ld.param.u64 %rd1, [po];\ncvta.to.global.u64 %rd1, %rd1;\n"
		"ld.global.u64 %rd2, [pp];\nld.u32 %r1, [%rd2];\n"
		"ld.global.u64 %rd3, [pp+8];\nld.global.u32 %r2, [%rd3];\n"
		"st.global.v2.u32 [%rd1], {%r1, %r2};\nret;\n}\n";
	BeRun *r = be_run(ptx, "--grid 1 --block 1 --arg buf:u32:2:zero", 0, 7);
	Prog *q;
	ck_assert(be_same(r));
	ck_assert_uint_eq(be_get(r, 0, 0), 33);
	ck_assert_uint_eq(be_get(r, 0, 1), 22);
	ck_assert_ptr_nonnull(strstr(r->listing, ".reloc pp 0x0 g 8\n"));
	ck_assert_ptr_nonnull(strstr(r->listing, ".reloc pp 0x8 g 4\n"));
	q = isa_asm("t.sass", r->listing, strlen(r->listing), stderr);
	ck_assert_ptr_nonnull(q);
	ck_assert_int_eq(q->k[0].nrelocs, 2);
	ck_assert_int_eq(q->k[0].relocs[1].var, r->p->k[0].relocs[1].var);
	ck_assert_int_eq(q->k[0].relocs[1].target, r->p->k[0].relocs[1].target);
	ck_assert_uint_eq(q->k[0].relocs[1].addend, 4);
	isa_prog_free(q);
	be_run_free(r);
}
END_TEST

/* a .reloc naming an unknown variable, or writing past the end of one, is an error */
START_TEST(reloc_errors)
{
	static const char *bad[] = {
		".kernel k\n.arch sm_20\n.global a 8 8 c[0xe][0x0]\n.reloc a 0x0 b 0\nEXIT;\n",
		".kernel k\n.arch sm_20\n.global a 8 8 c[0xe][0x0]\n.reloc a 0x4 a 0\nEXIT;\n",
	};
	for (int i = 0; i < 2; i++) {
		char *msg = NULL;
		size_t n = 0;
		FILE *e = open_memstream(&msg, &n);
		Prog *q = isa_asm("t.sass", bad[i], strlen(bad[i]), e);
		fclose(e);
		ck_assert_ptr_null(q);
		ck_assert_ptr_nonnull(strstr(msg, i ? "outside" : "is not a .global"));
		free(msg);
	}
	/* a negative addend prints and reads back */
	{
		static const char *ok = ".kernel k\n.arch sm_20\n.global a 16 8 c[0xe][0x0]\n.reloc a 0x8 a -5\nEXIT;\n";
		char *text = NULL;
		size_t n = 0;
		Prog *q = isa_asm("t.sass", ok, strlen(ok), stderr);
		ck_assert_ptr_nonnull(q);
		ck_assert_int_eq(q->k[0].nrelocs, 1);
		ck_assert_uint_eq(q->k[0].relocs[0].addend, (uint64_t)-5);
		FILE *f = open_memstream(&text, &n);
		isa_print_prog(f, q);
		fclose(f);
		ck_assert_ptr_nonnull(strstr(text, ".reloc a 0x8 a -5\n"));
		free(text);
		isa_prog_free(q);
	}
}
END_TEST

/* what is not supported says so */
START_TEST(unsupported)
{
	static const char *ptx = HDR
		".visible .entry k(.param .u64 po)\n{\n.reg .b16 %h<4>;\n"
		"mov.b16 %h1, 0x3f80;\ntanh.approx.bf16 %h2, %h1;\nret;\n}\n";
	BeRun *r = be_run(ptx, "--grid 1 --block 1 --arg buf:u32:1:zero", 0, 7);
	ck_assert_ptr_null(r->p);
	ck_assert_ptr_nonnull(strstr(r->err, "unsupported"));
	be_run_free(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("backend-bf16");
	TCase *c = tcase_create("bf16");

	tcase_add_test(c, bf16_edges);
	tcase_add_test(c, bf16_random);
	tcase_add_test(c, bf16_oracle_rounding);
	tcase_add_test(c, isspacep);
	tcase_add_test(c, unsupported);
	tcase_add_test(c, address_init);
	tcase_add_test(c, reloc_errors);
	suite_add_tcase(s, c);
	return ck_run(s);
}
