/* test_backend_cpasync.c - Check tests of cp.async (PTX ISA, "cp.async"): the hand-written
 * tests/ptx/cp_async.ptx (every operand form: cp-size 4/8/16, .ca/.cg, immediate, register
 * and zero src-size, ignore-src, a guard, a cache policy) runs on the SM model and on the
 * oracle, and every byte is checked against the manual's rule (the first src-size bytes
 * from src, zeros up to cp-size, nothing written by a copy whose guard is false). nvcc's
 * tests/ptx/pipeline.sm80 (cp.async with zero fill, wait_group) must leave what its sm_75
 * build (cuda_pipeline.h's synchronous fallback: plain loads and stores) leaves, and the zero
 * fill is recomputed here; likewise memcpy_async.sm80 (cooperative_groups and cuda::pipeline
 * copies). Runs from the top of the tree. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include "tests/unit/test_backend.h"
#include "tests/unit/helper_check.h"

/* dst[0..cp) = n bytes of src (byte i of the input is i), then zeros */
static void copy(uint8_t *dst, int src, int cp, int n)
{
	for (int i = 0; i < cp; i++)
		dst[i] = i < n ? (uint8_t)(src + i) : 0;
}

START_TEST(forms)
{
	char *ptx = be_slurp("tests/ptx/cp_async.ptx");
	static const int pmax[2] = {0, 7};

	ck_assert_ptr_nonnull(ptx);
	for (int p = 0; p < 2; p++) {
		BeRun *r = be_run(ptx, "--kernel cp_async --grid 1 --block 32 --arg buf:u8:256:iota "
		                  "--arg buf:u8:2048:zero --arg u64:0x1000000000000000", 0, pmax[p]);
		ck_assert(be_same(r));
		for (int t = 0; t < 32; t++) {
			uint8_t e[64];
			int src = 16 * (t & 15);
			memset(e, 0xaa, sizeof e);
			copy(e, src, 4, 4);
			copy(e + 8, src + 8, 8, 6);
			copy(e + 16, src, 16, t % 17);
			copy(e + 32, src, 16, t & 1 ? 0 : 16);
			if (t < 16)
				copy(e + 48, src + 4, 4, t & 3);
			copy(e + 52, src + 12, 4, 4);
			copy(e + 56, src, 8, 0);
			if (t >= 16)
				copy(e + 60, src, 4, 2);
			for (int i = 0; i < 64; i++) {
				if (be_get(r, 1, 64 * t + i) != e[i])
					fprintf(stderr, "thread %d byte %d: %#llx, not %#x\n", t, i,
					        (unsigned long long)be_get(r, 1, 64 * t + i), e[i]);
				ck_assert_uint_eq(be_get(r, 1, 64 * t + i), e[i]);
			}
		}
		/* by hand: thread 1 copies 1 byte of in + 16 (t % 17 = 1) and zero-fills 15 */
		ck_assert_uint_eq(be_get(r, 1, 64 + 16), 0x10);
		ck_assert_uint_eq(be_get(r, 1, 64 + 17), 0);
		be_run_free(r);
	}
	free(ptx);
}
END_TEST

static float f32_of(uint64_t bits)
{
	uint32_t u = (uint32_t)bits;
	float x;

	memcpy(&x, &u, 4);
	return x;
}

/* nvcc's sm_75 and sm_80 builds of tests/ptx/NAME.sm75.ptx and .sm80.ptx, run with opts
 * into *r75 and *r80 (the caller frees them): only the sm_80 one uses cp.async, and each
 * leaves what the oracle leaves */
static void two_builds(const char *name, const char *opts, BeRun **r75, BeRun **r80)
{
	static const char *const sm[2] = {"sm75", "sm80"};
	BeRun **r[2] = {r75, r80};

	for (int i = 0; i < 2; i++) {
		char path[128], *ptx;

		snprintf(path, sizeof path, "tests/ptx/%s.%s.ptx", name, sm[i]);
		ptx = be_slurp(path);
		ck_assert_msg(ptx != NULL, "cannot read %s", path);
		if (i)
			ck_assert_msg(strstr(ptx, "cp.async.ca.shared.global") != NULL, "%s: no cp.async", path);
		else
			ck_assert_msg(strstr(ptx, "cp.async") == NULL, "%s: cp.async", path);
		*r[i] = be_run(ptx, opts, 0, 7);
		ck_assert_msg(be_same(*r[i]), "%s: the SM model and the oracle differ", path);
		free(ptx);
	}
}

START_TEST(pipeline)
{
	static const char *opts = "--kernel pipeline --grid 2 --block 64 "
	                          "--arg buf:f32:512:random:41:-100:100 --arg buf:f32:256:zero";
	BeRun *r75, *r80;

	two_builds("pipeline", opts, &r75, &r80);
	for (int i = 0; i < 256; i++)
		ck_assert_uint_eq(be_get(r80, 1, i), be_get(r75, 1, i));
	for (int blk = 0; blk < 2; blk++)
		for (int t = 0; t < 64; t++) {
			int base = blk * 64, u = 63 - t;
			/* c[u] is zero-filled when u is odd; x.z = in[4 * (base + u) + 2] */
			float c = u & 1 ? 0.0f : f32_of(be_get(r80, 0, base + u));
			float z = f32_of(be_get(r80, 0, 4 * (base + u) + 2));
			float want = c + z;
			uint32_t wb;
			memcpy(&wb, &want, 4);
			ck_assert_uint_eq(be_get(r80, 1, 2 * (base + t) + 1), wb);
			/* y = b[t ^ 1]: its second float zero-filled when (t ^ 1) % 3 == 0 */
			int v = t ^ 1;
			float yx = f32_of(be_get(r80, 0, 2 * (base + v)));
			float yy = v % 3 ? f32_of(be_get(r80, 0, 2 * (base + v) + 1)) : 0.0f;
			float xx = f32_of(be_get(r80, 0, 4 * (base + u)));
			float xw = f32_of(be_get(r80, 0, 4 * (base + u) + 3));
			float got = f32_of(be_get(r80, 1, 2 * (base + t)));
			ck_assert(fabsf(got - (xx + 2.0f * xw + yx - yy)) <= 1e-4f * (1.0f + fabsf(got)));
		}
	be_run_free(r75);
	be_run_free(r80);
}
END_TEST

/* cooperative_groups::memcpy_async and cuda::memcpy_async (sm_80: cp.async in a strided loop
 * and through a pipeline) leave what the synchronous sm_75 build leaves: out[t] = 2 *
 * in[255 - t] + in[7t mod 256] per block, exactly (one rounding each) */
START_TEST(memcpy_async)
{
	static const char *opts = "--kernel memcpy_async --grid 2 --block 256 "
	                          "--arg buf:f32:512:random:81:-10:10 --arg buf:f32:512:zero";
	BeRun *r75, *r80;

	two_builds("memcpy_async", opts, &r75, &r80);
	for (int i = 0; i < 512; i++) {
		int base = i / 256 * 256, t = i % 256;
		float a = f32_of(be_get(r80, 0, base + 255 - t)), c = f32_of(be_get(r80, 0, base + t * 7 % 256));
		float want = a * 2.0f + c;
		uint32_t wb;
		memcpy(&wb, &want, 4);
		ck_assert_uint_eq(be_get(r80, 1, i), be_get(r75, 1, i));
		ck_assert_uint_eq(be_get(r80, 1, i), wb);
	}
	be_run_free(r75);
	be_run_free(r80);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("backend-cpasync");
	TCase *c = tcase_create("cpasync");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, forms);
	tcase_add_test(c, pipeline);
	tcase_add_test(c, memcpy_async);
	suite_add_tcase(s, c);
	return ck_run(s);
}
