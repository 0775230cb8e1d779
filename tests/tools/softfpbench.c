/* softfpbench.c - `make bench` (bench/softfp.sh): nanoseconds per operation of directed
 * rounding (RP) through arith/alu.c's integer IEEE arithmetic (arith/softfp.c), against
 * round-to-nearest on the host and against the way it was done before softfp: a
 * fesetround() switch around each host operation. CPU time, the fastest of five runs. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "arith/arith.h"

static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

static uint64_t rng_state = 42;
static uint64_t rnd64(void)              /* splitmix64 */
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* 1 when the host's arithmetic honours fesetround() (valgrind's does not) */
static int host_rounds(void)
{
	volatile float one = 1.0f, tiny = 1e-10f, up;

	fesetround(FE_UPWARD);
	up = one + tiny;
	fesetround(FE_TONEAREST);
	return up != one;
}

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* the former directed rounding: a mode switch around one volatile operation */
#define OLD_FOP(T, expr) do { \
	int old_ = fegetround(); \
	fesetround(FE_UPWARD); \
	volatile T v_ = (expr); \
	fres = v_; \
	if (fegetround() != old_) \
		fesetround(old_); \
} while (0)

enum { BOPS = 8, BN = 1 << 16 };
static const char *const bench_name[BOPS] = {
	"f32.add", "f32.fma", "f32.div", "f64.add", "f64.fma", "f64.div", "f64.sqrt", "cvt.f32.s64"
};

/* ns per operation of op in way k (0: RN on the host, 1: RP in softfp through alu.c, 2: RP
 * under fesetround as before), the fastest of 5 runs (the machine may be shared) */
static double bench_one(int op, int k, const uint32_t *a32, const uint32_t *b32,
                        const uint64_t *a64, const uint64_t *b64, uint64_t *sink)
{
	double best = 1e9;

	for (int rep = 0; rep < 5; rep++) {
		double t0 = cpu_now(), fres = 0;
		uint64_t acc = 0;
		Rnd r = k == 1 ? RND_RP : RND_RN;
		for (int i = 0; i < BN; i++) {
			uint32_t x = a32[i], y = b32[i];
			uint64_t dx = a64[i], dy = b64[i];
			if (k < 2) {
				switch (op) {
				case 0: acc += ar_f32_add(x, y, r, 0); break;
				case 1: acc += ar_f32_fma(x, y, x, r, 0); break;
				case 2: acc += ar_f32_div(x, y, r, 0); break;
				case 3: acc += ar_f64_add(dx, dy, r); break;
				case 4: acc += ar_f64_fma(dx, dy, dx, r); break;
				case 5: acc += ar_f64_div(dx, dy, r); break;
				case 6: acc += ar_f64_sqrt(dx, r); break;
				default: acc += ar_cvt(TY_F32, TY_S64, r, 0, 0, dx); break;
				}
			} else {
				volatile float fx = u2f(x), fy = u2f(y);
				volatile double vx = u2d(dx), vy = u2d(dy);
				volatile int64_t ix = (int64_t)dx;
				switch (op) {
				case 0: OLD_FOP(float, fx + fy); break;
				case 1: OLD_FOP(float, fmaf(fx, fy, fx)); break;
				case 2: OLD_FOP(float, fx / fy); break;
				case 3: OLD_FOP(double, vx + vy); break;
				case 4: OLD_FOP(double, fma(vx, vy, vx)); break;
				case 5: OLD_FOP(double, vx / vy); break;
				case 6: OLD_FOP(double, sqrt(vx)); break;
				default: OLD_FOP(float, (float)ix); break;
				}
				acc += fres > 1;
			}
		}
		*sink += acc;
		t0 = (cpu_now() - t0) / BN * 1e9;
		best = t0 < best ? t0 : best;
	}
	return best;
}

int main(void)
{
	static uint32_t a32[BN], b32[BN];
	static uint64_t a64[BN], b64[BN];
	uint64_t sink = 0;

	if (!host_rounds()) {
		printf("softfpbench: the host ignores fesetround(): the former way cannot be timed\n");
		return 0;
	}
	for (int i = 0; i < BN; i++) {
		a32[i] = 0x3f000000u | (uint32_t)(rnd64() & 0x7fffff), b32[i] = 0x40000000u | (uint32_t)(rnd64() & 0x7fffff);
		a64[i] = 0x3fe0000000000000ull | rnd64() >> 12, b64[i] = 0x4000000000000000ull | rnd64() >> 12;
	}
	printf("softfpbench: ns/op      rn (host)  rp softfp  rp fesetround (before)\n");
	for (int op = 0; op < BOPS; op++) {
		double t[3];
		for (int k = 0; k < 3; k++)
			t[k] = bench_one(op, k, a32, b32, a64, b64, &sink);
		printf("  %-12s %10.1f %10.1f %10.1f\n", bench_name[op], t[0], t[1], t[2]);
	}
	return sink == 1;   /* keeps the loops */
}

