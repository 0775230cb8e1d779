/* test_backend_shift.c - Check tests of the 64-bit shifts (shl.b64, shr.u64, shr.s64) the
 * translator selects as SHF + SHL/SHR, word moves or copies: every constant amount 0..70 and
 * register amounts 0..70 plus huge ones (PTX clamps at 64) on 64-bit edge values, in place
 * (destination = source) and not; the SM run must agree with the oracle and with C, and
 * constant shifts must take at most two instructions. mul.wide by a power of two (two
 * shifts). Runs from the top of the tree. */
#include <check.h>
#include <stdint.h>
#include <unistd.h>
#include "tests/unit/test_backend.h"
#include "tests/unit/helper_check.h"

#define HDR ".version 7.0\n.target sm_70\n.address_size 64\n"

static const uint64_t V[] = {
	0, 1, 2, 3, 0xffffffffull, 0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
	0x8000000000000001ull, 0xffffffffffffffffull, 0xfffffffffffffffeull, 0x123456789abcdefull,
	0xfedcba9876543210ull, 0x80000000ull, 0x7fffffffull, 0x00000001ffffffffull,
};
#define NV 16
#define NSH 6  /* per amount: shl, shl in place, shr.u, shr.u in place, shr.s, shr.s in place */

/* the reference: PTX clamps the amount at 64 */
static uint64_t ref(uint64_t a, uint32_t n, int k)
{
	if (k < 2)
		return n >= 64 ? 0 : a << n;
	if (k < 4)
		return n >= 64 ? 0 : a >> n;
	if (n >= 64)
		n = 63;
	return (uint64_t)((int64_t)a >> n);
}

/* six shifts of %rd3 by amt, stored at [%rd5 + (slot * 6 + k) * 8 * stride] */
static size_t shifts(char *buf, size_t len, const char *amt, int slot, int stride)
{
	static const char *op[] = {"shl.b64", "shr.u64", "shr.s64"};
	size_t n = 0;

	for (int k = 0; k < NSH; k++) {
		long off = (long)(slot * NSH + k) * 8 * stride;
		if (k & 1)
			n += (size_t)snprintf(buf + n, len - n, "mov.b64 %%rd4, %%rd3;\n%s %%rd4, %%rd4, %s;\n",
			                      op[k / 2], amt);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s %%rd4, %%rd3, %s;\n", op[k / 2], amt);
		n += (size_t)snprintf(buf + n, len - n, "st.global.u64 [%%rd5+%ld], %%rd4;\n", off);
	}
	return n;
}

static BeRun *run(const char *body, int nthreads, int nout, const uint32_t *amts, int namts)
{
	static char ptx[65536];
	char pa[] = "/tmp/be-shv.XXXXXX", pn[] = "/tmp/be-shn.XXXXXX", opts[512];
	FILE *a = fdopen(mkstemp(pa), "wb"), *na = fdopen(mkstemp(pn), "wb");
	BeRun *r;

	fwrite(V, 8, NV, a);
	fclose(a);
	fwrite(amts, 4, (size_t)namts, na);
	fclose(na);
	snprintf(ptx, sizeof ptx, HDR
	         ".visible .entry k(.param .u64 pa, .param .u64 pn, .param .u64 po)\n{\n"
	         ".reg .b32 %%r<8>;\n.reg .b64 %%rd<8>;\n"
	         "mov.u32 %%r1, %%tid.x;\nmov.u32 %%r5, %%ctaid.x;\nmov.u32 %%r6, %%ntid.x;\n"
	         "mad.lo.u32 %%r1, %%r5, %%r6, %%r1;\nand.b32 %%r2, %%r1, 15;\nshr.u32 %%r3, %%r1, 4;\n"
	         "ld.param.u64 %%rd1, [pa];\nmul.wide.u32 %%rd2, %%r2, 8;\nadd.s64 %%rd1, %%rd1, %%rd2;\n"
	         "ld.global.u64 %%rd3, [%%rd1];\n"
	         "ld.param.u64 %%rd1, [pn];\nmul.wide.u32 %%rd2, %%r3, 4;\nadd.s64 %%rd1, %%rd1, %%rd2;\n"
	         "ld.global.u32 %%r4, [%%rd1];\n"
	         "ld.param.u64 %%rd5, [po];\nmul.wide.u32 %%rd2, %%r1, 8;\nadd.s64 %%rd5, %%rd5, %%rd2;\n"
	         "%s ret;\n}\n", body);
	snprintf(opts, sizeof opts, "--grid %d --block %d --arg buf:u64:16:file:%s --arg buf:u32:%d:file:%s "
	         "--arg buf:u64:%d:zero", nthreads / NV, NV, pa, namts, pn, nout);
	r = be_run(ptx, opts, 0, 7);
	unlink(pa);
	unlink(pn);
	return r;
}

/* every constant amount 0..70 in one kernel of 16 threads (one per value) */
START_TEST(const_amounts)
{
	static char body[60000];
	uint32_t zero = 0;
	size_t n = 0;
	char amt[16];

	for (int s = 0; s <= 70; s++) {
		snprintf(amt, sizeof amt, "%d", s);
		n += shifts(body + n, sizeof body - n, amt, s, NV);
	}
	BeRun *r = run(body, NV, 71 * NSH * NV, &zero, 1);
	ck_assert(be_same(r));
	for (int s = 0; s <= 70; s++)
		for (int k = 0; k < NSH; k++)
			for (int i = 0; i < NV; i++)
				ck_assert_msg(be_get(r, 2, (s * NSH + k) * NV + i) == ref(V[i], (uint32_t)s, k),
				              "shift %d of %#llx by %d", k, (unsigned long long)V[i], s);
	/* no variable-shift sequence left: a constant shift is a funnel shift and a shift */
	ck_assert(strstr(r->listing, "SHF.L.U64") && strstr(r->listing, "SHF.R.S64"));
	ck_assert(!strstr(r->listing, "LOP.OR") && !strstr(r->listing, "SEL"));
	be_run_free(r);
}
END_TEST

/* the same amounts and huge ones in a register: thread t shifts V[t % 16] by N[t / 16] */
START_TEST(reg_amounts)
{
	uint32_t amts[80];
	int na = 0;
	char body[4096];

	for (int s = 0; s <= 70; s++)
		amts[na++] = (uint32_t)s;
	amts[na++] = 96;
	amts[na++] = 255;
	amts[na++] = 256;
	amts[na++] = 0x7fffffffu;
	amts[na++] = 0x80000000u;
	amts[na++] = 0xffffffe1u;
	amts[na++] = 0xffffffffu;
	shifts(body, sizeof body, "%r4", 0, NV * na);
	BeRun *r = run(body, NV * na, NSH * NV * na, amts, na);
	ck_assert(be_same(r));
	for (int t = 0; t < NV * na; t++)
		for (int k = 0; k < NSH; k++)
			ck_assert_msg(be_get(r, 2, k * NV * na + t) == ref(V[t % NV], amts[t / NV], k),
			              "shift %d of %#llx by %u", k, (unsigned long long)V[t % NV], amts[t / NV]);
	be_run_free(r);
}
END_TEST

/* 32-bit edge values, one per lane */
static const uint32_t W[NV] = {0, 1, 2, 3, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffffffu,
                               0xfffffffeu, 0x12345678u, 0x87654321u, 0x40000000u, 0xc0000000u,
                               0x0000ffffu, 0xffff0000u, 0x55555555u};

/* W into a new file (its name into pa, a mkstemp template); into ptx a kernel's head that
 * loads the lane's value of W into %r2 and points %rd5 at the lane's results, with params
 * after pa and po and setup after that */
static size_t w_head(char *ptx, size_t len, char *pa, const char *params, const char *setup)
{
	FILE *a = fdopen(mkstemp(pa), "wb");

	fwrite(W, 4, NV, a);
	fclose(a);
	return (size_t)snprintf(ptx, len, HDR
	        ".visible .entry k(.param .u64 pa, .param .u64 po%s)\n{\n"
	        ".reg .b32 %%r<8>;\n.reg .b64 %%rd<8>;\n"
	        "mov.u32 %%r1, %%tid.x;\nld.param.u64 %%rd1, [pa];\nmul.wide.u32 %%rd2, %%r1, 4;\n"
	        "add.s64 %%rd1, %%rd1, %%rd2;\nld.global.u32 %%r2, [%%rd1];\n"
	        "ld.param.u64 %%rd5, [po];\nmul.wide.u32 %%rd2, %%r1, 8;\n"
	        "add.s64 %%rd5, %%rd5, %%rd2;\n%s",
	        params, setup);
}

/* mul.wide.s32/u32 and mad.wide by 2^k, k = 0..31, as two shifts (2^31 as .s32 is -2^31: a
 * multiplication) on 32-bit edge values */
START_TEST(mul_wide_pow2)
{
	static char ptx[32768];
	char pa[] = "/tmp/be-mw.XXXXXX", opts[512];
	size_t n = w_head(ptx, sizeof ptx, pa, "", "cvt.u64.u32 %rd6, %r2;\n");

	for (int k = 0; k < 32; k++)
		n += (size_t)snprintf(ptx + n, sizeof ptx - n,
		        "mul.wide.s32 %%rd3, %%r2, %u;\nst.global.u64 [%%rd5+%d], %%rd3;\n"
		        "mul.wide.u32 %%rd3, %%r2, %u;\nst.global.u64 [%%rd5+%d], %%rd3;\n"
		        "mad.wide.s32 %%rd3, %%r2, %u, %%rd6;\nst.global.u64 [%%rd5+%d], %%rd3;\n",
		        1u << k, (k * 3 + 0) * 8 * NV, 1u << k, (k * 3 + 1) * 8 * NV, 1u << k, (k * 3 + 2) * 8 * NV);
	snprintf(ptx + n, sizeof ptx - n, "ret;\n}\n");
	snprintf(opts, sizeof opts, "--grid 1 --block %d --arg buf:u32:%d:file:%s --arg buf:u64:%d:zero",
	         NV, NV, pa, 96 * NV);
	BeRun *r = be_run(ptx, opts, 0, 7);
	unlink(pa);
	ck_assert(be_same(r));
	for (int k = 0; k < 32; k++)
		for (int i = 0; i < NV; i++) {
			int64_t s = (int64_t)(int32_t)W[i] * (int64_t)(int32_t)(1u << k);
			uint64_t u = (uint64_t)W[i] << k;
			ck_assert_uint_eq(be_get(r, 1, (k * 3 + 0) * NV + i), (uint64_t)s);
			ck_assert_uint_eq(be_get(r, 1, (k * 3 + 1) * NV + i), u);
			ck_assert_uint_eq(be_get(r, 1, (k * 3 + 2) * NV + i), (uint64_t)s + W[i]);
		}
	ck_assert(strstr(r->listing, "SHR.S32") && strstr(r->listing, "SHR.U32"));
	ck_assert(strstr(r->listing, "IMUL.S32.S32.HI") != NULL);   /* by -2^31 only */
	ck_assert(!strstr(r->listing, "IMUL.U32.U32.HI"));
	be_run_free(r);
}
END_TEST

/* mul.wide.s32/u32 by 2^k whose product only an add.s64 reads, k = 0..31 (.s32 to 30), the
 * base a parameter (0x1fffffff0: low words that carry) and a register, the product first and
 * second: ptxas 11.8's ISCADD lo.CC, x, base.lo, k and IMAD.HI.X hi, x, 2^k, base.hi (no SHL,
 * no SHR for the product's words), exact on 32-bit edge values */
START_TEST(mul_wide_fused)
{
	static char ptx[32768];
	char pa[] = "/tmp/be-mf.XXXXXX", opts[512];
	const uint64_t B = 0x1fffffff0ull;
	size_t n = w_head(ptx, sizeof ptx, pa, ", .param .u64 pb",
	                  "ld.param.u64 %rd7, [pb];\nadd.s64 %rd6, %rd7, %rd7;\n");
	const char *p;
	int nsc = 0;

	for (int k = 0; k < 32; k++)
		n += (size_t)snprintf(ptx + n, sizeof ptx - n,
		        "mul.wide.s32 %%rd3, %%r2, %u;\nadd.s64 %%rd4, %%rd7, %%rd3;\n"
		        "st.global.u64 [%%rd5+%d], %%rd4;\n"
		        "mul.wide.u32 %%rd3, %%r2, %u;\nadd.s64 %%rd4, %%rd3, %%rd6;\n"
		        "st.global.u64 [%%rd5+%d], %%rd4;\n",
		        k < 31 ? 1u << k : 1u, (k * 2 + 0) * 8 * NV, 1u << k, (k * 2 + 1) * 8 * NV);
	snprintf(ptx + n, sizeof ptx - n, "ret;\n}\n");
	snprintf(opts, sizeof opts, "--grid 1 --block %d --arg buf:u32:%d:file:%s "
	         "--arg buf:u64:%d:zero --arg u64:%llu", NV, NV, pa, 64 * NV, (unsigned long long)B);
	BeRun *r = be_run(ptx, opts, 0, 7);
	unlink(pa);
	ck_assert(be_same(r));
	for (int k = 0; k < 32; k++)
		for (int i = 0; i < NV; i++) {
			int64_t s = (int64_t)(int32_t)W[i] * (int64_t)(k < 31 ? 1 << k : 1);
			uint64_t u = (uint64_t)W[i] << k;
			ck_assert_uint_eq(be_get(r, 1, (k * 2 + 0) * NV + i), B + (uint64_t)s);
			ck_assert_uint_eq(be_get(r, 1, (k * 2 + 1) * NV + i), 2 * B + u);
		}
	for (p = r->listing; (p = strstr(p, "ISCADD.CC")); p++)
		nsc++;
	ck_assert_int_eq(nsc, 2 + 64);   /* the two addresses and every sum */
	ck_assert(strstr(r->listing, "IMAD.S32.S32.X.HI") && strstr(r->listing, "IMAD.U32.U32.X.HI"));
	ck_assert(!strstr(r->listing, "SHR") && !strstr(r->listing, "SHL"));
	be_run_free(r);
}
END_TEST

/* the short if of examples/divergence.ptx: its side (an add, a 64-bit address by a constant
 * shift, a store) costs 7 and is predicated at the default threshold */
START_TEST(short_if)
{
	BeRun *r;
	char *src = NULL;
	size_t len = 0;
	FILE *fp = fopen("examples/divergence.ptx", "rb");

	ck_assert(fp != NULL);
	src = malloc(1 << 16);
	len = fread(src, 1, (1 << 16) - 1, fp);
	src[len] = 0;
	fclose(fp);
	r = be_run(src, "--grid 2 --block 64 --arg buf:s32:128:random:7:0:1000 --arg buf:s32:128:zero "
	           "--arg buf:s32:128:const:-1 --arg s32:120", 0, 7);
	free(src);
	ck_assert(be_same(r));
	ck_assert(strstr(r->listing, "@!P0 SHF.L.U64") || strstr(r->listing, "@P0 SHF.L.U64"));
	be_run_free(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("backend-shift");
	TCase *c = tcase_create("shift64");

	tcase_add_test(c, const_amounts);
	tcase_add_test(c, reg_amounts);
	tcase_add_test(c, mul_wide_pow2);
	tcase_add_test(c, mul_wide_fused);
	tcase_add_test(c, short_if);
	suite_add_tcase(s, c);
	return ck_run(s);
}
