/* test_sim_exec.c - instruction-level behaviour on small listings (predicated-off lanes,
 * carry chains, warp-wide ops, the shared-memory lock loop, generic addressing, faults) and
 * the launch option parsers and output formats. */
#include <check.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arith/softfp.h"
#include "tests/unit/helper_sim.h"
#include "tests/unit/helper_check.h"

static SimT t;
#define HDR ".kernel k\n.arch sm_20\n.registers 16\n.param 0x20 8 out\n"
/* R12:R13 = &out[tid] (R10 = tid) */
#define ADDR "S2R R10, SR_TID.X;\nSHL R11, R10, 0x2;\nIADD.CC R12, R11, c[0x0][0x20];\nIADD.X R13, RZ, c[0x0][0x24];\n"

static void run_ok(const char *src, unsigned block, const char *arg)
{
	const char *args[] = {arg, NULL};
	int rc = simt_run(&t, src, 1, block, args, NULL);
	if (rc != SIM_DONE)
		fprintf(stderr, "%s", t.errbuf ? t.errbuf : "");
	ck_assert_int_eq(rc, SIM_DONE);
}

/* a guard-false lane makes no memory access: lanes 1..3 would store far out of bounds */
START_TEST(test_predicated_off_no_effect)
{
	run_ok(HDR ADDR
	       "ISETP.EQ.AND P0, PT, R10, RZ, PT;\n"
	       "@!P0 IADD R12, R12, 0x10000;\n"
	       "MOV32I R0, 0x7;\n"
	       "@P0 ST.E [R12], R0;\n"
	       "EXIT;\n", 4, "buf:u32:4");
	ck_assert_uint_eq(simt_get(&t, 0, 0), 7);
	ck_assert_uint_eq(simt_get(&t, 0, 1), 0);
	ck_assert_uint_eq(t.st.pred_off, 3 + 1);
	simt_free(&t);
}
END_TEST

/* 64-bit add through IADD.CC/IADD.X and a 64-bit compare with ISETP.X */
START_TEST(test_carry_chain)
{
	run_ok(HDR ADDR
	       "MOV32I R0, 0xffffffff;\nMOV32I R1, 0x1;\n"       /* R1:R0 = 0x1ffffffff */
	       "IADD.CC R2, R0, 0x1;\nIADD.X R3, R1, RZ;\n"      /* + 1 = 0x200000000 */
	       "ST.E [R12], R3;\n"
	       "IADD.CC RZ, R0, -R2;\n"                           /* compare R1:R0 < R3:R2 */
	       "ISETP.LT.U32.X.AND P0, PT, R1, R3, PT;\n"
	       "SEL R4, RZ, 0x1, !P0;\n"
	       "ST.E [R12+0x4], R4;\n"
	       "IADD.SAT R5, R0, 0x7fffffff;\n"                   /* -1 + max: no saturation */
	       "MOV32I R6, 0x7fffffff;\nIADD.SAT R6, R6, 0x1;\n"
	       "ST.E [R12+0x8], R6;\n"
	       "EXIT;\n", 1, "buf:u32:4");
	ck_assert_uint_eq(simt_get(&t, 0, 0), 2);
	ck_assert_uint_eq(simt_get(&t, 0, 1), 1);
	ck_assert_uint_eq(simt_get(&t, 0, 2), 0x7fffffff);
	simt_free(&t);
}
END_TEST

START_TEST(test_warp_ops)
{
	/* SHFL.BFLY by 1 swaps neighbours; VOTE.ANY ballot of odd lanes; REDUX.SUM of tids */
	run_ok(HDR ADDR
	       "SHFL.BFLY P1, R0, R10, 0x1, 0x1f;\n"
	       "ST.E [R12], R0;\n"
	       "LOP.AND R1, R10, 0x1;\nISETP.NE.AND P0, PT, R1, RZ, PT;\n"
	       "VOTE.ANY R2, P2, P0;\n"
	       "ST.E [R12+0x80], R2;\n"
	       "REDUX.SUM R3, R10;\n"
	       "ST.E [R12+0x100], R3;\n"
	       "EXIT;\n", 32, "buf:u32:96");
	for (int i = 0; i < 32; i++) {
		ck_assert_uint_eq(simt_get(&t, 0, i), (unsigned)(i ^ 1));
		ck_assert_uint_eq(simt_get(&t, 0, 32 + i), 0xaaaaaaaau);
		ck_assert_uint_eq(simt_get(&t, 0, 64 + i), 496);
	}
	simt_free(&t);
}
END_TEST

/* the CUDA Handbook's shared-memory atomic: every lane adds 1 through LDSLK/STSUL */
START_TEST(test_ldslk_loop)
{
	run_ok(".kernel k\n.arch sm_20\n.registers 16\n.shared 0x4\n.param 0x20 8 out\n"
	       "/*0000*/ MOV32I R0, 0x1;\n"
	       "/*0008*/ MOV R3, RZ;\n"
	       "/*0010*/ SSY 0x40;\n"
	       "/*0018*/ LDSLK P0, R2, [R3];\n"
	       "/*0020*/ @P0 IADD R2, R2, R0;\n"
	       "/*0028*/ @P0 STSUL [R3], R2;\n"
	       "/*0030*/ @!P0 BRA 0x18;\n"
	       "/*0038*/ NOP.S;\n"
	       "/*0040*/ BAR.SYNC 0x0;\n"
	       "/*0048*/ LDS R4, [RZ];\n"
	       "/*0050*/ MOV R0, c[0x0][0x20];\n"
	       "/*0058*/ MOV R1, c[0x0][0x24];\n"
	       "/*0060*/ ST.E [R0], R4;\n"
	       "/*0068*/ EXIT;\n", 64, "buf:u32:1");
	ck_assert_uint_eq(simt_get(&t, 0, 0), 64);
	simt_free(&t);
}
END_TEST

/* generic addressing: a store through the shared window lands in shared memory */
START_TEST(test_generic_window)
{
	run_ok(".kernel k\n.arch sm_20\n.registers 16\n.shared 0x10\n.param 0x20 8 out\n" ADDR
	       "MOV32I R0, 0x2a;\n"
	       "MOV R4, c[0x0][0x18];\nMOV R5, RZ;\n"             /* the shared window */
	       "ST.E [R4+0x8], R0;\n"
	       "LDS R6, [0x8];\n"
	       "ST.E [R12], R6;\n"
	       "EXIT;\n", 1, "buf:u32:1");
	ck_assert_uint_eq(simt_get(&t, 0, 0), 0x2a);
	simt_free(&t);
}
END_TEST

START_TEST(test_faults)
{
	const char *args[] = {"buf:u32:1", NULL};

	ck_assert_int_eq(simt_run(&t, ".kernel k\n.arch sm_20\n.registers 4\n.shared 0x10\n.param 0x20 8 out\n"
	                          "MOV32I R0, 0x10;\nLDS R1, [R0];\nEXIT;\n", 1, 1, args, NULL), SIM_FAULT);
	ck_assert_str_eq(t.errbuf, "t.sass:7: error: shared load of 4 bytes at 0x10 is outside the CTA's 16 bytes of shared memory\n"
	                 "    kernel 'k', CTA (0,0,0), warp 0, lane 0 (thread 0), pc 0x0008: LDS R1, [R0];\n");
	simt_free(&t);
	ck_assert_int_eq(simt_run(&t, HDR "MOV R0, c[0x0][0x20];\nMOV R1, c[0x0][0x24];\nLD.E R2, [R0+0x2];\nEXIT;\n",
	                          1, 1, args, NULL), SIM_FAULT);
	ck_assert_ptr_nonnull(strstr(t.errbuf, "misaligned global load of 4 bytes at 0x7f0000000002"));
	simt_free(&t);
	ck_assert_int_eq(simt_run(&t, HDR "MOV32I R0, 0x4;\nSTL [R0], R0;\nEXIT;\n", 1, 1, args, NULL), SIM_FAULT);
	ck_assert_ptr_nonnull(strstr(t.errbuf, "local store of 4 bytes at 0x4 is outside the thread's 0 bytes of local memory"));
	simt_free(&t);
}
END_TEST

/* a warp's shared access with one lane outside the CTA's shared memory (the last lane past
 * its end, the first at a negative offset) or misaligned, in an LDS, an STS and the lock
 * pair's LDSLK: the whole warp's test fails, and the lane-by-lane loop names that lane */
START_TEST(test_shared_faults_warp)
{
	static const struct {
		const char *shared, *code, *want;
	} c[] = {
		{"0x7c", "LDS R1, [R11];", "shared load of 4 bytes at 0x7c is outside the CTA's 124 bytes "
		 "of shared memory\n    kernel 'k', CTA (0,0,0), warp 0, lane 31 (thread 31), pc 0x0010"},
		{"0x80", "IADD R11, R11, -0x4;\nSTS [R11], R10;", "shared store of 4 bytes at "
		 "0xfffffffffffffffc is outside the CTA's 128 bytes of shared memory\n    kernel 'k', "
		 "CTA (0,0,0), warp 0, lane 0 (thread 0)"},
		{"0x80", "ISCADD R11, R10, 0x6, 0x1;\nLDS.64 R2, [R11];", "misaligned shared load of 8 "
		 "bytes at 0x6\n    kernel 'k', CTA (0,0,0), warp 0, lane 0 (thread 0)"},
		{"0x7c", "LDSLK P0, R2, [R11];", "shared load of 4 bytes at 0x7c is outside the CTA's 124 "
		 "bytes of shared memory\n    kernel 'k', CTA (0,0,0), warp 0, lane 31 (thread 31)"},
	};
	const char *args[] = {"buf:u32:1", NULL};
	char src[512];

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		snprintf(src, sizeof src, ".kernel k\n.arch sm_20\n.registers 16\n.shared %s\n.param 0x20 8 out\n"
		         "S2R R10, SR_TID.X;\nSHL R11, R10, 0x2;\n%s\nEXIT;\n", c[i].shared, c[i].code);
		ck_assert_int_eq(simt_run(&t, src, 1, 32, args, NULL), SIM_FAULT);
		ck_assert_msg(strstr(t.errbuf, c[i].want), "%zu: %s", i, t.errbuf);
		simt_free(&t);
	}
}
END_TEST

START_TEST(test_launch_parsing)
{
	LaunchArg a;
	LaunchOut o;
	uint32_t d[3];
	char why[256];

	ck_assert_int_eq(dev_parse_dim3("4,2", d, why), 0);
	ck_assert_uint_eq(d[0], 4);
	ck_assert_uint_eq(d[1], 2);
	ck_assert_uint_eq(d[2], 1);
	ck_assert_int_eq(dev_parse_dim3("1,2,3,4", d, why), -1);
	ck_assert_int_eq(dev_parse_dim3("abc", d, why), -1);
	ck_assert_str_eq(why, "X[,Y,Z] with positive integers");
	ck_assert_int_eq(dev_parse_arg("s32:-5", NULL, &a, why), 0);
	ck_assert_uint_eq(a.bits, 0xfffffffbu);
	free(a.text);
	ck_assert_int_eq(dev_parse_arg("u8:256", NULL, &a, why), -1);
	ck_assert_str_eq(why, "TYPE:VALUE with VALUE: an integer in 0..255");
	ck_assert_int_eq(dev_parse_arg("u32:-1", NULL, &a, why), -1);
	ck_assert_int_eq(dev_parse_arg("f32:1.5", NULL, &a, why), 0);
	ck_assert_uint_eq(a.bits, 0x3fc00000u);
	free(a.text);
	ck_assert_int_eq(dev_parse_arg("buf:s16:10:random:3:-4:4", NULL, &a, why), 0);
	ck_assert_int_eq((int64_t)a.ilo, -4);
	ck_assert_int_eq(a.seed, 3);
	free(a.text);
	ck_assert_int_eq(dev_parse_arg("buf:u32:4:random:3:9:1", NULL, &a, why), -1);
	ck_assert_str_eq(why, "random:SEED:LO:HI with LO <= HI");
	ck_assert_int_eq(dev_parse_arg("buf:u32:4:file:a:b.bin", "dir", &a, why), 0);
	ck_assert_str_eq(a.path, "dir/a:b.bin");
	free(a.text);
	free(a.path);
	ck_assert_int_eq(dev_parse_arg("buf:u32:4:bogus", NULL, &a, why), -1);
	ck_assert_str_eq(why, "INIT one of zero, iota, const:V, random:SEED[:LO:HI], file:PATH");
	ck_assert_int_eq(dev_parse_out("2:x.txt", &o, why), 0);
	ck_assert_int_eq(o.param, 2);
	free(o.path);
	ck_assert_int_eq(dev_parse_out("x.txt", &o, why), -1);
}
END_TEST

/* the decode-time handlers (sim_choose_fn) on a full warp and under a guard that leaves the
 * even lanes out: IMAD's low word, IADD.CC/IADD.X whose carry a partial IADD.CC updates in
 * some lanes only, ISETP's single-compare forms (each compare of a register and of an
 * immediate, signed and unsigned, inverted or not, and one under the guard), I2F of values
 * that round (against the soft-float conversion),
 * FADD/FMUL/FFMA with a NaN made the canonical one (a payload, infinity x 0) */
START_TEST(test_lane_bodies)
{
	run_ok(HDR ADDR
	       "IMAD R0, R10, 0x9e3779b9, R10;\n"
	       "LOP.AND R1, R10, 0x1;\nISETP.NE.AND P0, PT, R1, RZ, PT;\n"
	       "@P0 IMAD R0, R0, R10, R10;\n"
	       "ST.E [R12], R0;\n"
	       "IADD.CC R2, R0, R0;\nIADD.X R3, RZ, RZ;\n"
	       "ST.E [R12+0x80], R3;\n"
	       "@P0 IADD.CC R4, R0, 0xc0000000;\nIADD.X R5, R10, RZ;\n"
	       "ST.E [R12+0x100], R5;\n"
	       "ISETP.LE.AND P1, PT, R0, R2, PT;\nSEL R6, RZ, 0x1, !P1;\n"
	       "ST.E [R12+0x180], R6;\n"
	       "ISETP.GE.U32.AND P2, PT, R0, 0x80000000, PT;\nSEL R6, RZ, 0x1, !P2;\n"
	       "ST.E [R12+0x200], R6;\n"
	       "I2F R7, R10;\nMOV32I R8, 0x7fc00001;\n"
	       "FMUL R9, R7, 0.25;\n@P0 FADD R9, R8, R7;\n"
	       "ST.E [R12+0x280], R9;\n"
	       "MOV32I R14, 0x7f800000;\nFMUL R15, R14, RZ;\n"
	       "ST.E [R12+0x300], R15;\n"
	       "FADD R1, R7, R9;\n"
	       "ST.E [R12+0x380], R1;\n"
	       "FFMA R2, R7, R7, R7;\n@P0 FFMA R2, R8, R7, R7;\n"
	       "ST.E [R12+0x400], R2;\n"
	       "ISETP.LT.AND P3, PT, R10, R0, PT;\nSEL R6, RZ, 0x1, !P3;\n"
	       "ST.E [R12+0x480], R6;\n"
	       "LOP.AND R1, R10, 0x1;\nISETP.EQ.U32.AND P4, PT, R1, 0x1, PT;\nSEL R6, RZ, 0x1, !P4;\n"
	       "ST.E [R12+0x500], R6;\n"
	       "ISETP.GT.AND P5, PT, R10, 0x10, PT;\n@P0 ISETP.GT.U32.AND P5, PT, R10, 0x4, PT;\n"
	       "SEL R6, RZ, 0x1, !P5;\n"
	       "ST.E [R12+0x580], R6;\n"
	       "IMAD R3, R10, 0x9e3779b9, R10;\nI2F R4, R3;\n@P0 I2F R4, R10;\n"
	       "ST.E [R12+0x600], R4;\n"
	       "EXIT;\n", 32, "buf:u32:416");
	for (uint32_t i = 0; i < 32; i++) {
		int odd = i & 1;
		uint32_t v = i * 0x9e3779b9u + i, c, f, q;
		if (odd)
			v = v * i + i;
		c = v >> 31;                                    /* the carry of v + v */
		if (odd)
			c = v >= 0x40000000u;                       /* of v + 0xc0000000 */
		memcpy(&f, &(float){(float)i}, 4);
		memcpy(&q, &(float){(float)i * 0.25f}, 4);
		ck_assert_uint_eq(simt_get(&t, 0, i), v);
		ck_assert_uint_eq(simt_get(&t, 0, 32 + i), v >> 31);
		ck_assert_uint_eq(simt_get(&t, 0, 64 + i), i + c);
		ck_assert_uint_eq(simt_get(&t, 0, 96 + i), (int32_t)v <= (int32_t)(v + v));
		ck_assert_uint_eq(simt_get(&t, 0, 128 + i), v >= 0x80000000u);
		ck_assert_uint_eq(simt_get(&t, 0, 160 + i), odd ? AR_F32_NAN : q);
		ck_assert_uint_eq(simt_get(&t, 0, 192 + i), AR_F32_NAN);
		ck_assert_uint_eq(simt_get(&t, 0, 224 + i), odd ? AR_F32_NAN : ar_f32_add(f, q, RND_RN, 0));
		ck_assert_uint_eq(simt_get(&t, 0, 256 + i), odd ? AR_F32_NAN : ar_f32_fma(f, f, f, RND_RN, 0));
		ck_assert_uint_eq(simt_get(&t, 0, 288 + i), (int32_t)i < (int32_t)v);
		ck_assert_uint_eq(simt_get(&t, 0, 320 + i), (uint32_t)odd);
		ck_assert_uint_eq(simt_get(&t, 0, 352 + i), odd ? i > 4 : i > 16);
		ck_assert_uint_eq(simt_get(&t, 0, 384 + i), odd ? f : ar_sf_i64_to_f32((int32_t)(i * 0x9e3779b9u + i), RND_RN));
	}
	simt_free(&t);
}
END_TEST

START_TEST(test_random_and_formats)
{
	uint32_t s = 1;
	char buf[64];

	/* xorshift32 from DESIGN.md: the first values from state 1 */
	ck_assert_uint_eq(dev_xorshift32(&s), 270369u);
	ck_assert_uint_eq(dev_xorshift32(&s), 67634689u);
	dev_format_elem(buf, sizeof buf, TY_F32, 0x3dcccccdu);
	ck_assert_str_eq(buf, "0.100000001");
	dev_format_elem(buf, sizeof buf, TY_F64, 0x3fb999999999999aull);
	ck_assert_str_eq(buf, "0.10000000000000001");
	dev_format_elem(buf, sizeof buf, TY_S8, 0xff);
	ck_assert_str_eq(buf, "-1");
	dev_format_elem(buf, sizeof buf, TY_U64, ~0ull);
	ck_assert_str_eq(buf, "18446744073709551615");
	/* an integer's text as snprintf gives it: the length whole, the text cut to fit; bits
	 * beyond the type's ignored */
	ck_assert_int_eq(dev_format_elem(buf, sizeof buf, TY_S64, 1ull << 63), 20);
	ck_assert_str_eq(buf, "-9223372036854775808");
	ck_assert_int_eq(dev_format_elem(buf, 4, TY_S32, (uint32_t)-123456), 7);
	ck_assert_str_eq(buf, "-12");
	ck_assert_int_eq(dev_format_elem(buf, 1, TY_U8, 200), 3);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(dev_format_elem(buf, sizeof buf, TY_U16, 0x12345), 4);
	ck_assert_str_eq(buf, "9029");
	ck_assert_int_eq(dev_format_elem(buf, sizeof buf, TY_S16, 0x18000), 6);
	ck_assert_str_eq(buf, "-32768");
}
END_TEST

/* dev_fill's initialisers against DESIGN.md's definition, element by element: every type,
 * counts on both sides of its copied block, random ranges of every span class (one value,
 * spans around 2^20 and 2^31, the largest 32-bit span, 2^32, the whole 64-bit range) */
static uint64_t fill_want(const LaunchArg *a, uint64_t i, uint32_t *state)
{
	uint32_t x;
	double d;

	if (a->init == INIT_CONST)
		return a->cbits;
	if (a->init == INIT_IOTA)
		d = (double)i;
	else {
		x = dev_xorshift32(state);
		if (a->type != TY_F32 && a->type != TY_F64) {
			uint64_t span = a->ihi - a->ilo + 1;
			return a->ilo + (span ? x % span : x);
		}
		d = a->flo + (a->fhi - a->flo) * (x / 4294967296.0);
	}
	if (a->type == TY_F32) {
		uint32_t u;
		memcpy(&u, &(float){(float)d}, 4);
		return u;
	}
	if (a->type == TY_F64) {
		uint64_t u;
		memcpy(&u, &d, 8);
		return u;
	}
	return i;
}

START_TEST(test_fill)
{
	static const char *inits[] = {
		"iota", "const:0", "const:5", "const:-7", "const:-1", "random:9", "random:9:0:200",
		"random:0:-3:-3", "random:77:0:1048575", "random:77:0:1048577", "random:5:-9:2147483647",
		"random:3:0:4294967294", "random:3:0:4294967295", "random:3:1:4294967297",
	};
	static const char *types[] = {"u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "f32", "f64"};
	static const unsigned counts[] = {0, 1, 3, 1025, 5000};
	char text[96], why[256];
	int filled = 0;

	for (size_t ty = 0; ty < sizeof types / sizeof types[0]; ty++)
		for (size_t in = 0; in < sizeof inits / sizeof inits[0]; in++)
			for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
				LaunchArg a;
				uint8_t *p;
				uint32_t state;
				int es;
				snprintf(text, sizeof text, "buf:%s:%u:%s", types[ty], counts[c], inits[in]);
				if (dev_parse_arg(text, NULL, &a, why)) {   /* only a range the type cannot hold */
					ck_assert_msg(strstr(why, "an integer in"), "%s: %s", text, why);
					continue;
				}
				filled++;
				es = isa_type_bytes(a.type);
				p = calloc(counts[c] * es + 1, 1);
				ck_assert_int_eq(dev_fill(&a, p, stderr, "test"), 0);
				state = a.seed ? a.seed : 1;
				for (unsigned i = 0; i < counts[c]; i++) {
					uint64_t want = fill_want(&a, i, &state);
					if (es < 8)
						want &= (1ull << 8 * es) - 1;
					ck_assert_msg(dev_ld(p + i * es, es) == want, "%s: element %u", text, i);
				}
				ck_assert_uint_eq(p[counts[c] * es], 0);
				free(p);
				dev_arg_free(&a);
			}
	/* 700 forms, of which 215 are constants or random ranges the type cannot hold (-7 or
	 * 0..2^20 as u8, 1..2^32+1 as u32, ...) */
	ck_assert_int_eq(filled, 485);
}
END_TEST

/* an element's text and its newline by the C library, as --out's text is defined: integers
 * in decimal, f32 by %.9g, f64 by %.17g (dev_format_elem converts integers by hand) */
static void elem_line(char *out, size_t n, Type ty, uint64_t bits)
{
	int sh = 64 - 8 * isa_type_bytes(ty);
	float f;
	double d;

	if (ty == TY_F32) {
		memcpy(&f, &(uint32_t){(uint32_t)bits}, 4);
		snprintf(out, n, "%.9g\n", f);
	} else if (ty == TY_F64) {
		memcpy(&d, &bits, 8);
		snprintf(out, n, "%.17g\n", d);
	} else if (ty == TY_S8 || ty == TY_S16 || ty == TY_S32 || ty == TY_S64)
		snprintf(out, n, "%" PRId64 "\n", (int64_t)(bits << sh) >> sh);
	else
		snprintf(out, n, "%" PRIu64 "\n", bits << sh >> sh);
}

/* --out's text, written in blocks: every line as the C library writes the element, for
 * each type over its whole range (the extremes set by hand), on more lines than a block */
START_TEST(test_out_text)
{
	static const char *args[] = {
		"buf:u8:9000:random:1:0:255", "buf:s8:9000:random:2:-128:127",
		"buf:u16:9000:random:3:0:65535", "buf:s16:9000:random:4:-32768:32767",
		"buf:u32:9000:random:5:0:4294967295", "buf:s32:9000:random:6:-2147483648:2147483647",
		"buf:u64:9000:random:7:0:18446744073709551615", "buf:s64:9000:random:8:-9223372036854775808:9223372036854775807",
		"buf:f32:9000:random:9:-1e30:1e30", "buf:f64:9000:random:10:-1e300:1e300", NULL,
	};
	char path[] = "/tmp/test_out_text.XXXXXX", line[80], want[80];
	char src[512] = ".kernel k\n.arch sm_20\n.registers 16\n";
	LaunchOut o = {0};
	int fd;

	for (int i = 0; args[i]; i++)
		snprintf(src + strlen(src), sizeof src - strlen(src), ".param 0x%x 8 a%d\n", 0x20 + 8 * i, i);
	strcat(src, "EXIT;\n");
	ck_assert_int_eq(simt_run(&t, src, 1, 32, args, NULL), SIM_DONE);
	ck_assert_int_ge(fd = mkstemp(path), 0);   /* (not .bin: written as text) */
	close(fd);
	o.path = path;
	o.field = -1;
	t.l.outs = &o;
	t.l.nouts = 1;
	for (int i = 0; args[i]; i++) {
		const LaunchArg *a = &t.l.args[i];
		int es = isa_type_bytes(a->type);
		uint8_t *p = dev_mem_global(&t.mem, t.pl.addr[i], 0);
		FILE *f;
		dev_st(p, es, 0);
		dev_st(p + es, es, ~0ull);                      /* -1, or the largest unsigned */
		dev_st(p + 2 * es, es, 1ull << (8 * es - 1));   /* the most negative */
		dev_st(p + 3 * es, es, ~0ull >> (65 - 8 * es)); /* the largest signed */
		o.param = i;
		ck_assert_int_eq(dev_launch_write_outputs(&t.mem, &t.l, &t.pl, stderr), 0);
		ck_assert_ptr_nonnull(f = fopen(path, "r"));
		for (uint64_t j = 0; j < a->count; j++) {
			ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
			elem_line(want, sizeof want, a->type, dev_ld(p + j * es, es));
			ck_assert_msg(!strcmp(line, want), "%s, element %d: %s", args[i], (int)j, line);
		}
		ck_assert_int_eq(fgetc(f), EOF);
		fclose(f);
	}
	remove(path);
	t.l.outs = NULL;
	t.l.nouts = 0;
	simt_free(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sim_exec");
	TCase *tc = tcase_create("exec");

	tcase_add_test(tc, test_predicated_off_no_effect);
	tcase_add_test(tc, test_carry_chain);
	tcase_add_test(tc, test_warp_ops);
	tcase_add_test(tc, test_lane_bodies);
	tcase_add_test(tc, test_ldslk_loop);
	tcase_add_test(tc, test_generic_window);
	tcase_add_test(tc, test_faults);
	tcase_add_test(tc, test_shared_faults_warp);
	tcase_add_test(tc, test_launch_parsing);
	tcase_add_test(tc, test_random_and_formats);
	tcase_add_test(tc, test_fill);
	tcase_add_test(tc, test_out_text);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{

	return ck_run(suite());
}
