/* test_oracle_flow.c - the oracle's execution model: divergent paths and loops, memory
 * spaces, atomics, barriers (exit releasing one, bar.red, deadlock), warp collectives over
 * full and partial warps, calls (recursion, indirect, brx.idx), runaway and fault messages. */
#include <check.h>
#include "oracle_run.h"
#include "tests/unit/helper_check.h"

#define HDR ".version 7.0\n.target sm_70\n.address_size 64\n"

/* a divergent loop: thread i sums 0..i */
START_TEST(test_divergent_loop)
{
	ORun *r = orun_ok(OR_KERNEL(
		"mov.u32 %r1, 0;\n mov.u32 %r2, 0;\n"
		"$L_loop:\n setp.gt.u32 %p1, %r2, %r30;\n @%p1 bra $L_done;\n"
		"add.u32 %r1, %r1, %r2;\n add.u32 %r2, %r2, 1;\n bra.uni $L_loop;\n"
		"$L_done:\n st.global.u32 [%rd15], %r1;"),
		"--grid 2 --block 40 --arg buf:u32:80 --arg buf:u32:80", 0);
	for (int i = 0; i < 80; i++)
		ck_assert_uint_eq(ou32(r, 0, i), (uint32_t)((i % 40) * (i % 40 + 1) / 2));
	orun_free(r);
}
END_TEST

/* the classic shared-memory tree reduction with bar.sync between steps */
START_TEST(test_shared_reduction)
{
	ORun *r = orun_ok(HDR
		".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
		".reg .pred %p<3>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<8>;\n"
		".shared .align 4 .b8 s[256];\n"
		"ld.param.u64 %rd1, [out];\n ld.param.u64 %rd2, [in];\n"
		"mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd2, %rd3;\n"
		"ld.global.u32 %r2, [%rd4];\n mov.u32 %r3, s;\n shl.b32 %r4, %r1, 2;\n"
		"add.u32 %r5, %r3, %r4;\n st.shared.u32 [%r5], %r2;\n bar.sync 0;\n"
		"mov.u32 %r6, 32;\n"
		"$L:\n setp.ge.u32 %p1, %r1, %r6;\n @%p1 bra $S;\n"
		"shl.b32 %r7, %r6, 2;\n add.u32 %r7, %r5, %r7;\n ld.shared.u32 %r8, [%r7];\n"
		"ld.shared.u32 %r9, [%r5];\n add.u32 %r9, %r9, %r8;\n st.shared.u32 [%r5], %r9;\n"
		"$S:\n bar.sync 0;\n shr.u32 %r6, %r6, 1;\n setp.ne.u32 %p2, %r6, 0;\n @%p2 bra $L;\n"
		"setp.ne.u32 %p1, %r1, 0;\n @%p1 bra $E;\n ld.shared.u32 %r9, [s];\n"
		"st.global.u32 [%rd1], %r9;\n$E:\n ret;\n}\n",
		"--grid 1 --block 64 --arg buf:u32:1 --arg buf:u32:64:iota", 0);
	ck_assert_uint_eq(ou32(r, 0, 0), 64 * 63 / 2);
	ck_assert_uint_eq(r->st.barriers, 7);   /* 1 + one per step 32..1 */
	orun_free(r);
}
END_TEST

/* --oracle-order reverse runs a CTA's threads and the grid's CTAs in descending order: the
 * last store of a race on shared memory (every thread writes its %tid.x to one word) and of
 * one across CTAs (each writes its %ctaid.x to out[1]) is thread 0's and CTA 0's instead of
 * the highest's; an atomic sum is the same either way */
START_TEST(test_thread_order)
{
	static const char ptx[] = HDR
		".visible .entry k(.param .u64 out)\n{\n"
		".reg .pred %p<3>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<8>;\n"
		".shared .align 4 .b32 s;\n"
		"ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n"
		"st.shared.u32 [s], %r1;\n bar.sync 0;\n"
		"atom.global.add.u32 %r3, [%rd1+8], %r1;\n"
		"setp.ne.u32 %p1, %r1, 0;\n @%p1 bra $E;\n"
		"ld.shared.u32 %r4, [s];\n mul.wide.u32 %rd2, %r2, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
		"st.global.u32 [%rd3+12], %r4;\n st.global.u32 [%rd1+4], %r2;\n"
		"$E:\n ret;\n}\n";
	static const char opts[] = "--grid 2 --block 64 --arg buf:u32:8:zero";
	ORun *f = orun_order(ptx, opts, 0, 0), *r = orun_order(ptx, opts, 0, 1);

	ck_assert_msg(f->rc == OR_DONE && r->rc == OR_DONE, "%s%s", f->err, r->err);
	ck_assert_uint_eq(ou32(f, 0, 3), 63);   /* CTA 0's word: thread 63 stored last */
	ck_assert_uint_eq(ou32(f, 0, 4), 63);
	ck_assert_uint_eq(ou32(f, 0, 1), 1);    /* CTA 1 ran last */
	ck_assert_uint_eq(ou32(r, 0, 3), 0);
	ck_assert_uint_eq(ou32(r, 0, 4), 0);
	ck_assert_uint_eq(ou32(r, 0, 1), 0);
	ck_assert_uint_eq(ou32(f, 0, 2), 2 * 64 * 63 / 2);
	ck_assert_uint_eq(ou32(r, 0, 2), 2 * 64 * 63 / 2);
	orun_free(f);
	orun_free(r);
}
END_TEST

/* threads 40..63 exit before the barrier: exited threads count as arrived */
START_TEST(test_exit_releases_barrier)
{
	ORun *r = orun_ok(HDR
		".visible .entry k(.param .u64 out)\n{\n"
		".reg .pred %p<3>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<8>;\n"
		".shared .align 4 .u32 s[64];\n"
		"ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
		"setp.ge.u32 %p1, %r1, 40;\n @%p1 exit;\n"
		"mov.u32 %r3, s;\n shl.b32 %r4, %r1, 2;\n add.u32 %r5, %r3, %r4;\n"
		"add.u32 %r6, %r1, 1000;\n st.shared.u32 [%r5], %r6;\n bar.sync 0;\n"
		"add.u32 %r7, %r1, 1;\n rem.u32 %r7, %r7, 40;\n shl.b32 %r7, %r7, 2;\n"
		"add.u32 %r7, %r3, %r7;\n ld.shared.u32 %r8, [%r7];\n"
		"mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r8;\n"
		"ret;\n}\n", "--grid 1 --block 64 --arg buf:u32:64", 0);
	for (int i = 0; i < 40; i++)
		ck_assert_uint_eq(ou32(r, 0, i), 1000 + (i + 1) % 40);
	for (int i = 40; i < 64; i++)
		ck_assert_uint_eq(ou32(r, 0, i), 0);
	orun_free(r);
}
END_TEST

/* a run that stops with rc and messages that hold each of msgs (NULL-terminated) */
static void fails(const char *ptx, const char *opts, uint64_t max_steps, int rc,
                  const char *const *msgs)
{
	ORun *r = orun(ptx, opts, max_steps);

	ck_assert_int_eq(r->rc, rc);
	ck_has_all(r->err, msgs);
	orun_free(r);
}

#define FOUR "--grid 1 --block 4 --arg buf:u32:4 --arg buf:u32:4"

START_TEST(test_deadlock)
{
	fails(OR_KERNEL("setp.lt.u32 %p1, %r30, 32;\n @%p1 bar.sync 1;\n @!%p1 bar.sync 2;\n"
	                "st.global.u32 [%rd15], 1;"),
	      "--grid 1 --block 64 --arg buf:u32:64 --arg buf:u32:64", 0, OR_DEADLOCK,
	      (const char *[]){"deadlock in CTA (0,0,0): 64 threads wait forever, 0 exited",
	                       "barrier 1, 64 threads expected", NULL});
}
END_TEST

START_TEST(test_runaway)
{
	fails(OR_KERNEL("$L_spin:\n bra.uni $L_spin;"), FOUR, 5000, OR_RUNAWAY,
	      (const char *[]){"runaway: stopped after 5000 thread instructions",
	                       " bra.uni $L_spin;\n ^\n", NULL});
}
END_TEST

START_TEST(test_fault_located)
{
	fails(OR_KERNEL("st.global.u32 [%rd15+4096], 7;"), FOUR, 0, OR_FAULT,
	      (const char *[]){"test.ptx:", ": error: store of 4 bytes to global address 0x7f",
	                       "thread (0,0,0)", NULL});
	fails(OR_KERNEL("ld.global.u32 %r1, [%rd15+2];"), FOUR, 0, OR_FAULT,
	      (const char *[]){"misaligned 4-byte global access", NULL});
}
END_TEST

START_TEST(test_local_generic_atomics)
{
	ORun *r = orun_ok(HDR
		".visible .entry k(.param .u64 out, .param .u64 cnt)\n{\n"
		".local .align 4 .b8 depot[16];\n"
		".shared .align 4 .u32 smax;\n"
		".reg .pred %p<3>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<10>;\n"
		"ld.param.u64 %rd1, [out];\n ld.param.u64 %rd2, [cnt];\n mov.u32 %r1, %tid.x;\n"
		"mov.u64 %rd3, depot;\n cvta.local.u64 %rd4, %rd3;\n"   /* generic local */
		"add.u32 %r2, %r1, 7;\n st.u32 [%rd4+8], %r2;\n ld.local.u32 %r3, [depot+8];\n"
		"atom.global.add.u32 %r4, [%rd2], 1;\n"               /* old values: a permutation */
		"atom.shared.max.s32 %r5, [smax], %r1;\n bar.sync 0;\n"
		"mov.u64 %rd5, smax;\n cvta.shared.u64 %rd6, %rd5;\n ld.u32 %r6, [%rd6];\n"
		"mul.wide.u32 %rd7, %r1, 16;\n add.s64 %rd8, %rd1, %rd7;\n"
		"st.global.v4.u32 [%rd8], {%r3, %r4, %r6, %r1};\n"
		"atom.global.cas.b32 %r7, [%rd2+4], 0, 5;\n"          /* only the first swaps */
		"atom.global.inc.u32 %r8, [%rd2+8], 2;\n"             /* 0 1 2 0 1 2 ... */
		"ret;\n}\n", "--grid 1 --block 8 --arg buf:u32:32 --arg buf:u32:3", 0);
	uint32_t seen = 0;
	for (int i = 0; i < 8; i++) {
		ck_assert_uint_eq(ou32(r, 0, 4 * i), (uint32_t)i + 7);
		seen |= 1u << ou32(r, 0, 4 * i + 1);
		ck_assert_uint_eq(ou32(r, 0, 4 * i + 2), 7);
	}
	ck_assert_uint_eq(seen, 0xff);
	ck_assert_uint_eq(ou32(r, 1, 0), 8);
	ck_assert_uint_eq(ou32(r, 1, 1), 5);
	ck_assert_uint_eq(ou32(r, 1, 2), 8 % 3 == 2 ? 2 : (8 % 3));   /* after 8 incs modulo 3 */
	orun_free(r);
}
END_TEST

/* atom/red .add.noftz on the half types (PTX ISA "atom"): add.rn of each half, subnormals
 * kept. 32 threads add {1.0, 2^-24} to one f16x2 word (the old values they get: k and k x
 * 2^-24 for k = 0..31, each once) and 2^-133 to a shared bf16; then thread 0 alone: ties to
 * even, overflow to INF, a subnormal result a flush would lose */
/* the f16 bits of an integer 0 <= k < 2048 (exact): 1.m x 2^e with e = the msb of k */
static uint32_t f16_of(uint32_t k)
{
	int e = 0;

	if (!k)
		return 0;
	while (k >> (e + 1))
		e++;
	return (uint32_t)(e + 15) << 10 | ((k << (10 - e)) & 0x3ff);
}

START_TEST(test_half_atomics)
{
	ORun *r = orun_ok(".version 7.8\n.target sm_90\n.address_size 64\n"
		".visible .entry k(.param .u64 out, .param .u64 acc)\n{\n"
		".shared .align 4 .b8 sh[4];\n"
		".reg .pred %p<2>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n.reg .b16 %b<4>;\n"
		".reg .f16 %h<4>;\n"
		"ld.param.u64 %rd1, [out];\n ld.param.u64 %rd2, [acc];\n mov.u32 %r1, %tid.x;\n"
		"setp.eq.u32 %p1, %r1, 0;\n @%p1 st.shared.u32 [sh], 0;\n bar.sync 0;\n"
		"mov.b32 %r5, 0x00013c00;\n atom.global.add.noftz.f16x2 %r2, [%rd2], %r5;\n"
		"mov.b16 %b1, 1;\n red.shared.add.noftz.bf16 [sh+2], %b1;\n"
		"mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd1, %rd3;\n st.global.u32 [%rd4], %r2;\n"
		"bar.sync 0;\n @!%p1 ret;\n"
		"ld.shared.u32 %r3, [sh];\n st.global.u32 [%rd2+4], %r3;\n"
		"st.global.u32 [%rd2+8], 0x3c013c00;\n mov.b16 %h1, 0x1000;\n"
		"atom.global.add.noftz.f16 %h2, [%rd2+8], %h1;\n"         /* 1 + 2^-11: 1 */
		"red.global.add.noftz.f16 [%rd2+10], %h1;\n"              /* 1+2^-10 + 2^-11: 1+2^-9 */
		"st.global.u32 [%rd2+12], 0x80017bff;\n"
		"mov.b32 %r5, 0x00027bff;\n red.global.add.noftz.f16x2 [%rd2+12], %r5;\n"   /* INF; -2^-24 + 2^-23 */
		"st.global.u32 [%rd2+16], 0x3f813f80;\n"
		"mov.b32 %r5, 0x3b803b80;\n atom.add.noftz.bf16x2 %r4, [%rd2+16], %r5;\n"   /* generic: ties to even */
		"st.global.u16 [%rd2+20], 0x8001;\n mov.b16 %b2, 2;\n"
		"atom.global.add.noftz.bf16 %b3, [%rd2+20], %b2;\n"       /* -2^-133 + 2^-132 */
		"mov.b16 %b1, %h2;\n st.global.u16 [%rd2+22], %b1;\n st.global.u32 [%rd2+24], %r4;\n"
		"st.global.u16 [%rd2+28], %b3;\n ret;\n}\n",
		"--grid 1 --block 32 --arg buf:u32:32 --arg buf:u32:8", 0);
	uint32_t seen = 0;
	for (int i = 0; i < 32; i++) {
		/* after k adds: hi k x 2^-24 (the subnormal of fraction k), lo k as f16 */
		uint32_t v = ou32(r, 0, i), k = v >> 16;
		ck_assert_uint_lt(k, 32);
		ck_assert_uint_eq(v & 0xffff, f16_of(k));
		seen |= 1u << k;
	}
	ck_assert_uint_eq(seen, 0xffffffffu);
	ck_assert_uint_eq(ou32(r, 1, 0), 0x00205000);   /* {32.0, 32 x 2^-24} */
	ck_assert_uint_eq(ou32(r, 1, 1), 0x00200000);   /* bf16 32 x 2^-133 above a zero half */
	ck_assert_uint_eq(ou32(r, 1, 2), 0x3c023c00);
	ck_assert_uint_eq(ou32(r, 1, 3), 0x00017c00);
	ck_assert_uint_eq(ou32(r, 1, 4), 0x3f823f80);
	ck_assert_uint_eq(ou32(r, 1, 5), 0x3c000001);   /* bf16 2^-133; the f16 old value 1.0 */
	ck_assert_uint_eq(ou32(r, 1, 6), 0x3f813f80);   /* the bf16x2 old value */
	ck_assert_uint_eq(ou32(r, 1, 7), 0x8001);       /* the bf16 old value */
	orun_free(r);
	/* the PTX ISA's only atomic on them is add.noftz */
	fails(".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n"
	      ".reg .b64 %rd<2>;\n.reg .f16 %h<2>;\nld.param.u64 %rd1, [out];\n"
	      "atom.global.max.noftz.f16 %h1, [%rd1], %h0;\n ret;\n}\n",
	      "--grid 1 --block 1 --arg buf:u32:1", 0, OR_UNSUP,
	      (const char *[]){"test.ptx:9:1: error: unsupported: atom.max.noftz on .f16: the PTX ISA "
	                       "defines only atom.add.noftz.f16 on it", NULL});
	fails(".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n"
	      ".reg .b64 %rd<2>;\n.reg .b32 %r<2>;\nld.param.u64 %rd1, [out];\n"
	      "red.global.add.bf16x2 [%rd1], %r1;\n ret;\n}\n",
	      "--grid 1 --block 1 --arg buf:u32:1", 0, OR_UNSUP,
	      (const char *[]){"unsupported: red.add on .bf16x2: the PTX ISA defines only "
	                       "red.add.noftz.bf16x2 on it", NULL});
}
END_TEST

START_TEST(test_shfl_vote)
{
	ORun *r = orun_ok(OR_KERNEL(
		"mov.u32 %r1, %r30;\n"
		"shfl.sync.bfly.b32 %r2, %r1, 16, 0x1f, 0xffffffff;\n add.u32 %r1, %r1, %r2;\n"
		"shfl.sync.bfly.b32 %r2, %r1, 8, 0x1f, 0xffffffff;\n add.u32 %r1, %r1, %r2;\n"
		"shfl.sync.bfly.b32 %r2, %r1, 4, 0x1f, 0xffffffff;\n add.u32 %r1, %r1, %r2;\n"
		"shfl.sync.bfly.b32 %r2, %r1, 2, 0x1f, 0xffffffff;\n add.u32 %r1, %r1, %r2;\n"
		"shfl.sync.bfly.b32 %r2, %r1, 1, 0x1f, 0xffffffff;\n add.u32 %r1, %r1, %r2;\n"
		"shfl.sync.up.b32 %r3|%p1, %r30, 1, 0, 0xffffffff;\n"     /* lane 0: own, p false */
		"selp.u32 %r4, 1000, 0, %p1;\n add.u32 %r3, %r3, %r4;\n"
		"shfl.sync.idx.b32 %r5, %r30, 3, 0x1f, 0xffffffff;\n"
		"and.b32 %r6, %r30, 1;\n setp.ne.u32 %p2, %r6, 0;\n"
		"vote.sync.ballot.b32 %r7, %p2, 0xffffffff;\n"
		"vote.sync.any.pred %p3, %p2, 0xffffffff;\n vote.sync.all.pred %p4, %p2, 0xffffffff;\n"
		"selp.u32 %r8, 1, 0, %p3;\n selp.u32 %r9, 2, 0, %p4;\n or.b32 %r8, %r8, %r9;\n"
		"mul.wide.u32 %rd3, %r30, 24;\n add.s64 %rd4, %rd14, %rd3;\n"
		"st.global.u32 [%rd4], %r1;\n st.global.u32 [%rd4+4], %r3;\n st.global.u32 [%rd4+8], %r5;\n"
		"st.global.u32 [%rd4+12], %r7;\n st.global.u32 [%rd4+16], %r8;\n"),
		"--grid 1 --block 40 --arg buf:u32:240 --arg buf:u32:1", 0);
	for (uint32_t i = 0; i < 32; i++) {
		ck_assert_uint_eq(ou32(r, 0, 6 * i), 496);
		ck_assert_uint_eq(ou32(r, 0, 6 * i + 1), i == 0 ? 0 : i - 1 + 1000);
		ck_assert_uint_eq(ou32(r, 0, 6 * i + 2), 3);
		ck_assert_uint_eq(ou32(r, 0, 6 * i + 3), 0xaaaaaaaau);
		ck_assert_uint_eq(ou32(r, 0, 6 * i + 4), 1);
	}
	/* the partial warp (lanes 0..7 of warp 1): ballot and idx over the lanes present */
	for (uint32_t i = 32; i < 40; i++) {
		ck_assert_uint_eq(ou32(r, 0, 6 * i + 2), 35);
		ck_assert_uint_eq(ou32(r, 0, 6 * i + 3), 0xaa);
	}
	orun_free(r);
}
END_TEST

START_TEST(test_warp_collectives_divergent)
{
	ORun *r = orun_ok(OR_KERNEL(
		"and.b32 %r1, %r30, 31;\n setp.lt.u32 %p1, %r1, 5;\n mov.u32 %r2, 0;\n"
		"@!%p1 bra $L_join;\n activemask.b32 %r2;\n"
		"$L_join:\n activemask.b32 %r3;\n"
		"shr.u32 %r4, %r1, 3;\n match.any.sync.b32 %r5, %r4, 0xffffffff;\n"
		"redux.sync.add.u32 %r6, %r1, 0xffffffff;\n"
		"redux.sync.max.u32 %r7, %r1, 0x0000ffff;\n"
		"elect.sync %r8|%p2, 0xfffffff0;\n selp.u32 %r9, 1, 0, %p2;\n"
		"mul.wide.u32 %rd3, %r30, 28;\n add.s64 %rd4, %rd14, %rd3;\n"
		"st.global.u32 [%rd4], %r2;\n st.global.u32 [%rd4+4], %r3;\n st.global.u32 [%rd4+8], %r5;\n"
		"st.global.u32 [%rd4+12], %r6;\n st.global.u32 [%rd4+16], %r7;\n"
		"st.global.u32 [%rd4+20], %r8;\n st.global.u32 [%rd4+24], %r9;\n"),
		"--grid 1 --block 32 --arg buf:u32:224 --arg buf:u32:1", 0);
	for (uint32_t i = 0; i < 32; i++) {
		ck_assert_uint_eq(ou32(r, 0, 7 * i), i < 5 ? 0x1f : 0);
		ck_assert_uint_eq(ou32(r, 0, 7 * i + 1), 0xffffffffu);       /* reconverged */
		ck_assert_uint_eq(ou32(r, 0, 7 * i + 2), 0xffu << (8 * (i / 8)));
		ck_assert_uint_eq(ou32(r, 0, 7 * i + 3), 496);
		if (i < 16)
			ck_assert_uint_eq(ou32(r, 0, 7 * i + 4), 15);
		ck_assert_uint_eq(ou32(r, 0, 7 * i + 5), 4);
		ck_assert_uint_eq(ou32(r, 0, 7 * i + 6), i == 4);
	}
	orun_free(r);
}
END_TEST

/* warp-synchronous shared memory: without bar.warp.sync lane 0 would read s[1] first */
START_TEST(test_bar_warp_sync)
{
	ORun *r = orun_ok(HDR
		".visible .entry k(.param .u64 out)\n{\n"
		".reg .b32 %r<10>;\n.reg .b64 %rd<8>;\n.shared .align 4 .u32 s[32];\n"
		"ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n mov.u32 %r2, s;\n"
		"shl.b32 %r3, %r1, 2;\n add.u32 %r4, %r2, %r3;\n add.u32 %r5, %r1, 50;\n"
		"st.shared.u32 [%r4], %r5;\n bar.warp.sync -1;\n"
		"add.u32 %r6, %r1, 1;\n and.b32 %r6, %r6, 31;\n shl.b32 %r6, %r6, 2;\n add.u32 %r6, %r2, %r6;\n"
		"ld.shared.u32 %r7, [%r6];\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
		"st.global.u32 [%rd3], %r7;\n ret;\n}\n", "--grid 1 --block 32 --arg buf:u32:32", 0);
	for (int i = 0; i < 32; i++)
		ck_assert_uint_eq(ou32(r, 0, i), 50 + (i + 1) % 32);
	orun_free(r);
}
END_TEST

START_TEST(test_bar_red)
{
	ORun *r = orun_ok(OR_KERNEL(
		"and.b32 %r1, %r30, 1;\n setp.ne.u32 %p1, %r1, 0;\n"
		"bar.red.popc.u32 %r2, 0, %p1;\n bar.red.or.pred %p2, 0, %p1;\n"
		"bar.red.and.pred %p3, 0, %p1;\n selp.u32 %r3, 1, 0, %p2;\n selp.u32 %r4, 2, 0, %p3;\n"
		"or.b32 %r3, %r3, %r4;\n shl.b32 %r3, %r3, 16;\n or.b32 %r2, %r2, %r3;\n"
		"st.global.u32 [%rd15], %r2;"), "--grid 1 --block 64 --arg buf:u32:64 --arg buf:u32:64", 0);
	for (int i = 0; i < 64; i++)
		ck_assert_uint_eq(ou32(r, 0, i), 32 | 1u << 16);
	orun_free(r);
}
END_TEST

/* recursion through .param arguments and returns, as nvcc writes calls */
START_TEST(test_recursion)
{
	ORun *r = orun_ok(HDR
		".func (.param .b32 ret) fact(.param .b32 n)\n{\n"
		".reg .pred %p<2>;\n.reg .b32 %r<6>;\n"
		"ld.param.b32 %r1, [n];\n setp.le.u32 %p1, %r1, 1;\n @%p1 bra $Lbase;\n"
		"sub.u32 %r2, %r1, 1;\n{\n.param .b32 pa;\n.param .b32 pr;\n st.param.b32 [pa], %r2;\n"
		"call.uni (pr), fact, (pa);\n ld.param.b32 %r3, [pr];\n}\n"
		"mul.lo.u32 %r4, %r3, %r1;\n st.param.b32 [ret], %r4;\n ret;\n"
		"$Lbase:\n st.param.b32 [ret], 1;\n ret;\n}\n"
		".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
		"ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
		"{\n.param .b32 a;\n.param .b32 r;\n st.param.b32 [a], %r1;\n"
		"call.uni (r), fact, (a);\n ld.param.b32 %r2, [r];\n}\n"
		"mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r2;\n"
		"ret;\n}\n", "--grid 1 --block 13 --arg buf:u32:13", 0);
	uint32_t f = 1;
	for (uint32_t i = 0; i < 13; i++) {
		f *= i ? i : 1;
		ck_assert_uint_eq(ou32(r, 0, i), f);
	}
	ck_assert_int_eq(r->st.max_depth, 13);
	orun_free(r);
}
END_TEST

/* a call through a function pointer and a dense switch through brx.idx */
START_TEST(test_indirect)
{
	ORun *r = orun_ok(HDR
		".func (.param .b32 r) f1(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
		"ld.param.b32 %r1, [x];\n add.u32 %r2, %r1, 100;\n st.param.b32 [r], %r2;\n ret;\n}\n"
		".func (.param .b32 r) f2(.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
		"ld.param.b32 %r1, [x];\n mul.lo.u32 %r2, %r1, 2;\n st.param.b32 [r], %r2;\n ret;\n}\n"
		".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
		"ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
		"mov.u64 %rd5, f1;\n mov.u64 %rd6, f2;\n and.b32 %r3, %r1, 1;\n setp.eq.u32 %p1, %r3, 0;\n"
		"selp.b64 %rd7, %rd5, %rd6, %p1;\n"
		"{\n.param .b32 a;\n.param .b32 r;\n st.param.b32 [a], %r1;\n"
		"proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
		"call (r), %rd7, (a), proto;\n ld.param.b32 %r2, [r];\n}\n"
		"rem.u32 %r4, %r1, 3;\n ts: .branchtargets $L0, $L1, $L2;\n brx.idx %r4, ts;\n"
		"$L0:\n mov.u32 %r5, 10;\n bra.uni $END;\n$L1:\n mov.u32 %r5, 20;\n bra.uni $END;\n"
		"$L2:\n mov.u32 %r5, 30;\n$END:\n add.u32 %r2, %r2, %r5;\n"
		"mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r2;\n"
		"ret;\n}\n", "--grid 1 --block 12 --arg buf:u32:12", 0);
	for (uint32_t i = 0; i < 12; i++)
		ck_assert_uint_eq(ou32(r, 0, i), (i % 2 ? 2 * i : i + 100) + 10 * (i % 3 + 1));
	orun_free(r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("oracle_flow");
	TCase *tc = tcase_create("flow");

	tcase_add_test(tc, test_divergent_loop);
	tcase_add_test(tc, test_shared_reduction);
	tcase_add_test(tc, test_thread_order);
	tcase_add_test(tc, test_exit_releases_barrier);
	tcase_add_test(tc, test_deadlock);
	tcase_add_test(tc, test_runaway);
	tcase_add_test(tc, test_fault_located);
	tcase_add_test(tc, test_local_generic_atomics);
	tcase_add_test(tc, test_half_atomics);
	tcase_add_test(tc, test_shfl_vote);
	tcase_add_test(tc, test_warp_collectives_divergent);
	tcase_add_test(tc, test_bar_warp_sync);
	tcase_add_test(tc, test_bar_red);
	tcase_add_test(tc, test_recursion);
	tcase_add_test(tc, test_indirect);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{

	return ck_run(suite());
}
