/* test_softfp.c - arith/softfp.c, the integer IEEE arithmetic behind PTX's directed rounding:
 * hand-computed results (so a misunderstanding shared with the host would still show), then
 * every op and conversion in every mode (RN, RZ, RM, RP) against the host's hardware under
 * fesetround() on 2^20 operand tuples per op and format: half random bit patterns, half from
 * an edge-biased generator (subnormals, smallest normals, the overflow threshold, exact ties,
 * cancellation, exponent gaps wider than the significand, zeros, infinities, NaN, powers of
 * two, exact results).
 *
 * The hardware reference needs a host that honours fesetround(). Valgrind does not (every
 * operation rounds to nearest): under valgrind the comparisons are skipped with a message and
 * the hand-computed results still run; anywhere else a host that ignores the mode fails.
 * Environment: SOFTFP_TUPLES=N compares N tuples per op and format instead (a longer soak),
 * SOFTFP_SEED=S other operands, SOFTFP_STATS=1 prints what the edge-biased half reached.
 * The speed of directed rounding is measured by `make bench` (tests/tools/softfpbench.c). */
#include <check.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "arith/softfp.h"
#include "tests/unit/helper_check.h"
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define HAVE_VALGRIND_H 1
#endif
#endif

static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static const int fe_mode[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
static const Rnd rnd_of[4] = { RND_RN, RND_RZ, RND_RM, RND_RP };
static const char *const mode_name[4] = { "rn", "rz", "rm", "rp" };

/* ---------------------------------------------------------------- the host as reference */
/* 1 when the host's arithmetic honours fesetround(): 1 + 1e-10 rounds up and -1 - 1e-10
 * down. Real x86-64 and ARM hardware do; valgrind rounds everything to nearest. */
static int host_rounds(void)
{
	volatile float one = 1.0f, tiny = 1e-10f, up, down;

	fesetround(FE_UPWARD);
	up = one + tiny;
	fesetround(FE_DOWNWARD);
	down = -one - tiny;
	fesetround(FE_TONEAREST);
	return up != one && down != -one;
}

static int under_valgrind(void)
{
	const char *pre = getenv("LD_PRELOAD");

#ifdef HAVE_VALGRIND_H
	if (RUNNING_ON_VALGRIND)
		return 1;
#endif
	return pre && strstr(pre, "vgpreload") != NULL;   /* valgrind preloads its core */
}

/* whether the hardware comparisons can run: yes on a host that honours rounding modes; no
 * under valgrind (said once); a failure anywhere else */
static int hw_usable(void)
{
	static int said;

	if (host_rounds())
		return 1;
	if (under_valgrind()) {
		if (!said++)
			printf("test_softfp: under valgrind every float operation rounds to nearest "
			       "whatever fesetround() says, so the comparisons with the host's hardware "
			       "are skipped; the hand-computed results still run\n");
		return 0;
	}
	ck_abort_msg("the host ignores fesetround() (1.0f + 1e-10f does not round up under "
	             "FE_UPWARD): there is no hardware reference to compare softfp with");
	return 0;
}

/* one operation on the host in the current rounding mode; operands through volatile
 * objects so the arithmetic happens after the mode switch */
typedef uint64_t HwFn(const uint64_t *o);
typedef uint64_t SfFn(const uint64_t *o, Rnd r);

static float ldf(uint64_t v) { return u2f((uint32_t)v); }
static double ldd(uint64_t v) { return u2d(v); }
static int64_t ldi(uint64_t v) { return (int64_t)v; }
static uint64_t ldu(uint64_t v) { return v; }

/* hw_NAME: expression e of x, y, w (operands of type T loaded by LD) as type R, stored by ST */
#define HW(name, T, LD, R, ST, e) static uint64_t name(const uint64_t *o) \
{ \
	volatile T x = LD(o[0]), y = LD(o[1]), w = LD(o[2]); \
	volatile R z = (e); \
	(void)x, (void)y, (void)w; \
	return ST(z); \
}
HW(hw_f32_add, float, ldf, float, f2u, x + y)
HW(hw_f32_mul, float, ldf, float, f2u, x * y)
HW(hw_f32_div, float, ldf, float, f2u, x / y)
HW(hw_f32_fma, float, ldf, float, f2u, fmaf(x, y, w))
HW(hw_f32_sqrt, float, ldf, float, f2u, sqrtf(x))
HW(hw_f64_add, double, ldd, double, d2u, x + y)
HW(hw_f64_mul, double, ldd, double, d2u, x * y)
HW(hw_f64_div, double, ldd, double, d2u, x / y)
HW(hw_f64_fma, double, ldd, double, d2u, fma(x, y, w))
HW(hw_f64_sqrt, double, ldd, double, d2u, sqrt(x))
HW(hw_i64_f32, int64_t, ldi, float, f2u, (float)x)
HW(hw_u64_f32, uint64_t, ldu, float, f2u, (float)x)
HW(hw_i64_f64, int64_t, ldi, double, d2u, (double)x)
HW(hw_u64_f64, uint64_t, ldu, double, d2u, (double)x)
HW(hw_f64_f32, double, ldd, float, f2u, (float)x)

static uint64_t sf_f32_add(const uint64_t *o, Rnd r) { return ar_sf_f32_add((uint32_t)o[0], (uint32_t)o[1], r); }
static uint64_t sf_f32_mul(const uint64_t *o, Rnd r) { return ar_sf_f32_mul((uint32_t)o[0], (uint32_t)o[1], r); }
static uint64_t sf_f32_div(const uint64_t *o, Rnd r) { return ar_sf_f32_div((uint32_t)o[0], (uint32_t)o[1], r); }
static uint64_t sf_f32_sqrt(const uint64_t *o, Rnd r) { return ar_sf_f32_sqrt((uint32_t)o[0], r); }
static uint64_t sf_f32_fma(const uint64_t *o, Rnd r)
{
	return ar_sf_f32_fma((uint32_t)o[0], (uint32_t)o[1], (uint32_t)o[2], r);
}
static uint64_t sf_f64_add(const uint64_t *o, Rnd r) { return ar_sf_f64_add(o[0], o[1], r); }
static uint64_t sf_f64_mul(const uint64_t *o, Rnd r) { return ar_sf_f64_mul(o[0], o[1], r); }
static uint64_t sf_f64_div(const uint64_t *o, Rnd r) { return ar_sf_f64_div(o[0], o[1], r); }
static uint64_t sf_f64_sqrt(const uint64_t *o, Rnd r) { return ar_sf_f64_sqrt(o[0], r); }
static uint64_t sf_f64_fma(const uint64_t *o, Rnd r) { return ar_sf_f64_fma(o[0], o[1], o[2], r); }
static uint64_t sf_i64_f32(const uint64_t *o, Rnd r) { return ar_sf_i64_to_f32((int64_t)o[0], r); }
static uint64_t sf_u64_f32(const uint64_t *o, Rnd r) { return ar_sf_u64_to_f32(o[0], r); }
static uint64_t sf_i64_f64(const uint64_t *o, Rnd r) { return ar_sf_i64_to_f64((int64_t)o[0], r); }
static uint64_t sf_u64_f64(const uint64_t *o, Rnd r) { return ar_sf_u64_to_f64(o[0], r); }
static uint64_t sf_f64_f32(const uint64_t *o, Rnd r) { return ar_sf_f64_to_f32(o[0], r); }

/* ---------------------------------------------------------------- operand generators */
/* a binary format for the generators */
typedef struct {
	int m;          /* fraction bits */
	int eb;         /* exponent bits */
} TF;

static const TF T32 = { 23, 8 }, T64 = { 52, 11 };

static uint64_t rng_state;
static uint64_t rnd64(void)              /* splitmix64 */
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
static int rndn(int n) { return (int)(rnd64() % (uint64_t)n); }

static int emaxf(const TF *t) { return (1 << t->eb) - 1; }      /* the inf/NaN field */
static int biasf(const TF *t) { return (1 << (t->eb - 1)) - 1; }
static uint64_t fmask(const TF *t) { return (1ull << t->m) - 1; }

static uint64_t mk(const TF *t, int sign, int ef, uint64_t frac)
{
	if (ef < 0)
		ef = 0;
	if (ef > emaxf(t))
		ef = emaxf(t);
	return (uint64_t)sign << (t->m + t->eb) | (uint64_t)ef << t->m | (frac & fmask(t));
}
static int efield(const TF *t, uint64_t v) { return (int)(v >> t->m) & emaxf(t); }

/* a fraction with a shape that exercises rounding */
static uint64_t gen_frac(const TF *t)
{
	int k = 1 + rndn(t->m);

	switch (rndn(8)) {
	case 0: return 0;                                           /* power of two */
	case 1: return fmask(t);                                    /* all ones */
	case 2: return rnd64() & ~(fmask(t) >> rndn(7));            /* a few top bits */
	case 3: return 1ull << rndn(t->m);                          /* one bit */
	case 4: return (rnd64() & ~((1ull << k) - 1)) | 1ull << (k - 1);   /* 1000.. low bits */
	case 5: return rnd64() >> (64 - t->m + rndn(t->m));         /* leading zeros */
	case 6: return rnd64() | ((1ull << k) - 1);                 /* 0111.. low bits */
	default: return rnd64();
	}
}

/* a value biased toward the edges of format t */
static uint64_t gen_val(const TF *t)
{
	int s = rndn(2), e, emax = emaxf(t), bias = biasf(t);

	switch (rndn(16)) {
	case 0: return mk(t, s, 0, 0);                              /* +-0 */
	case 1: return mk(t, s, emax, 0);                           /* +-inf */
	case 2: return mk(t, s, emax, 1 + (rnd64() & (fmask(t) >> 1)));   /* NaN */
	case 3: case 4: e = 0; break;                               /* subnormal */
	case 5: case 6: e = 1 + rndn(3); break;                     /* smallest normals */
	case 7: case 8: e = emax - 1 - rndn(3); break;              /* near overflow */
	case 9: case 10: e = bias - 3 + rndn(7); break;             /* near 1 */
	case 11: e = bias - t->m - 5 + rndn(2 * t->m + 10); break;
	default: e = 1 + rndn(emax - 1); break;
	}
	return mk(t, s, e, gen_frac(t));
}

/* the host's round-to-nearest product, for operands derived from it */
static uint64_t host_mul(const TF *t, uint64_t a, uint64_t b)
{
	if (t == &T32)
		return f2u(u2f((uint32_t)a) * u2f((uint32_t)b));
	return d2u(u2d(a) * u2d(b));
}

/* v moved by a few units in the last place (same sign) */
static uint64_t nudge(const TF *t, uint64_t v)
{
	uint64_t s = v & (1ull << (t->m + t->eb)), mag = v ^ s;
	int64_t d = rndn(9) - 4;

	if (d < 0 && mag < (uint64_t)-d)
		return v;
	return s | (mag + (uint64_t)d);
}

/* exponent field of b chosen so that a's and b's exponents sum to about target (a product
 * near overflow or underflow) */
static uint64_t with_exp(const TF *t, uint64_t b, int ef)
{
	return mk(t, (int)(b >> (t->m + t->eb)) & 1, ef, b);
}

enum { OP_ADD_, OP_MUL_, OP_FMA_, OP_DIV_, OP_SQRT_ };

static void gen_edge(const TF *t, int op, uint64_t *o)
{
	int bias = biasf(t), emax = emaxf(t), ea;

	o[0] = gen_val(t), o[1] = gen_val(t), o[2] = gen_val(t);
	ea = efield(t, o[0]);
	switch (op) {
	case OP_ADD_:
		switch (rndn(7)) {
		case 0: o[1] = nudge(t, o[0] ^ 1ull << (t->m + t->eb)); break;   /* cancellation */
		case 1: o[1] = with_exp(t, o[1], ea - t->m - 1 - rndn(3)); break;  /* ties, gaps */
		case 2: o[1] = with_exp(t, o[1], ea - t->m - 3 - rndn(2 * t->m)); break;
		case 3: o[1] = with_exp(t, o[1], ea - rndn(3)); break;
		case 4:                                             /* sums near overflow */
			o[0] = mk(t, 0, emax - 1 - rndn(2), gen_frac(t));
			o[1] = mk(t, 0, emax - 1 - rndn(3), gen_frac(t));
			if (rndn(2))
				o[0] |= 1ull << (t->m + t->eb), o[1] |= 1ull << (t->m + t->eb);
			break;
		default: break;
		}
		break;
	case OP_SQRT_:
		switch (rndn(4)) {
		case 0: o[0] = host_mul(t, o[1] & ~(fmask(t) >> 6), o[1] & ~(fmask(t) >> 6)); break;
		case 1: o[0] = nudge(t, host_mul(t, o[1], o[1])); break;
		default: break;
		}
		if (rndn(8))
			o[0] &= ~(1ull << (t->m + t->eb));              /* mostly positive */
		break;
	case OP_MUL_: case OP_FMA_: case OP_DIV_:
		switch (rndn(6)) {
		case 0:                                             /* product near overflow */
			o[1] = with_exp(t, o[1], (op == OP_DIV_ ? ea - emax + 1 : emax - 1 - ea) + bias - 2 + rndn(5));
			break;
		case 1: {                                           /* near or below underflow */
			int k = rndn(t->m + 5) - 2;                 /* result field about 1 - k */
			o[1] = with_exp(t, o[1], op == OP_DIV_ ? ea - 1 + bias + k : 1 - ea + bias - k);
			break;
		}
		case 2:                                             /* few significant bits */
			o[0] &= ~(fmask(t) >> rndn(8)), o[1] &= ~(fmask(t) >> rndn(8));
			break;
		case 3:
			if (op == OP_DIV_)                          /* exact quotients */
				o[0] = host_mul(t, o[1], mk(t, rndn(2), bias + rndn(4), rnd64() & ~(fmask(t) >> 3)));
			break;
		default: break;
		}
		if (op == OP_FMA_) {
			uint64_t p = host_mul(t, o[0], o[1]);
			switch (rndn(5)) {
			case 0: o[2] = nudge(t, p ^ 1ull << (t->m + t->eb)); break;   /* cancellation */
			case 1: o[2] = p ^ 1ull << (t->m + t->eb); break;
			case 2: o[2] = with_exp(t, o[2], efield(t, p) - t->m - 1 - rndn(t->m)); break;
			case 3: o[2] = with_exp(t, o[2], efield(t, p) + t->m + rndn(4)); break;
			default: break;
			}
		}
		break;
	}
}

/* integers with a rounding-relevant shape: k significant bits at a random position, ties */
static uint64_t gen_int(void)
{
	uint64_t v;
	int sh = rndn(64);

	switch (rndn(6)) {
	case 0: v = rnd64() >> sh; break;
	case 1: v = ((rnd64() >> (64 - 26 + rndn(3))) | 1) << rndn(39); break;    /* f32 ties */
	case 2: v = ((rnd64() >> (64 - 55 + rndn(3))) | 1) << rndn(10); break;    /* f64 ties */
	case 3: v = (1ull << sh) + (uint64_t)(rndn(9) - 4); break;
	case 4: v = ~(rnd64() >> sh); break;
	default: v = rnd64(); break;
	}
	return rndn(4) ? v : 0 - v;
}

/* f64 values around the f32 range: ties at bit 29, f32 subnormals and overflow */
static uint64_t gen_f64_f32(void)
{
	int e = 1023 - 155 + rndn(155 + 132);
	uint64_t frac = gen_frac(&T64);

	if (rndn(3) == 0)
		frac = (frac & ~((1ull << 29) - 1)) | (rndn(2) ? 1ull << 28 : 0);
	if (rndn(4) == 0)
		return gen_val(&T64);
	return mk(&T64, rndn(2), e, frac);
}

/* ---------------------------------------------------------------- the comparison */
typedef struct {
	const char *name;
	HwFn *hw;
	SfFn *sf;
	const TF *in;   /* operand format (NULL: integers) */
	int res64;      /* result is f64 */
	int op;         /* OP_*_ for the edge generator, -1 integer, -2 f64 -> f32 */
	int nops;       /* operands */
} Case;

enum { CHUNK = 4096, TUPLES = 1 << 20 };

/* tuples per op and format: TUPLES, or more with SOFTFP_TUPLES=N in the environment (a
 * longer soak than make check's) */
static long ntuples(void)
{
	const char *e = getenv("SOFTFP_TUPLES");
	long n = e ? atol(e) : 0;

	return n > TUPLES ? (n + 2 * CHUNK - 1) / (2 * CHUNK) * (2 * CHUNK) : TUPLES;
}

static int isnan_res(uint64_t v, int res64)
{
	return res64 ? (v & ~(1ull << 63)) > 0x7ff0000000000000ull
	             : (v & 0x7fffffffu) > 0x7f800000u;
}

/* what the edge-biased half produced, from the hardware's results: the generator must
 * reach every region it claims to */
typedef struct {
	long sub;       /* nonzero subnormal results (RN) */
	long ovf;       /* overflow: RN infinite, RZ finite */
	long exact;     /* RZ and RP agree on a finite result */
	long inexact;   /* RZ and RP differ */
	long nan;       /* NaN results */
} Tally;

static void tally(Tally *t, const uint64_t *h, int res64)
{
	uint64_t rn = h[0], rz = h[1], rp = h[3];
	uint64_t mag = res64 ? rn & ~(1ull << 63) : rn & 0x7fffffffu;
	uint64_t inf = res64 ? 0x7ff0000000000000ull : 0x7f800000u;
	uint64_t zmag = res64 ? rz & ~(1ull << 63) : rz & 0x7fffffffu;
	int fbits = res64 ? 52 : 23;

	if (isnan_res(rn, res64)) {
		t->nan++;
		return;
	}
	if (mag != 0 && (mag >> fbits) == 0)
		t->sub++;
	if (mag == inf && zmag != inf)
		t->ovf++;
	if (rz == rp && mag != inf)
		t->exact++;
	if (rz != rp)
		t->inexact++;
}

/* ntuples() operand tuples (half random bits, half edge-biased), every mode; returns the
 * number of differences (the first few printed) and what the edge half reached in *t */
static long compare(const Case *c, Tally *t)
{
	static uint64_t ops[CHUNK][3], hw[4][CHUNK];
	long bad = 0, n = ntuples();
	const char *seed = getenv("SOFTFP_SEED");

	rng_state = 0x5eed0000u + (seed ? (uint64_t)atol(seed) << 32 : 0);
	for (const char *p = c->name; *p; p++)          /* a stream per case */
		rng_state = rng_state * 31 + (uint8_t)*p;

	for (long done = 0; done < n; done += CHUNK) {
		int edge = done >= n / 2;
		for (int i = 0; i < CHUNK; i++) {
			uint64_t *o = ops[i];
			if (!edge)
				o[0] = rnd64(), o[1] = rnd64(), o[2] = rnd64();
			else if (c->op >= 0)
				gen_edge(c->in, c->op, o);
			else
				o[0] = c->op == -1 ? gen_int() : gen_f64_f32();
			if (c->in == &T32)
				o[0] &= 0xffffffffu, o[1] &= 0xffffffffu, o[2] &= 0xffffffffu;
		}
		for (int m = 0; m < 4; m++) {
			fesetround(fe_mode[m]);
			for (int i = 0; i < CHUNK; i++)
				hw[m][i] = c->hw(ops[i]);
			fesetround(FE_TONEAREST);
		}
		for (int i = 0; edge && i < CHUNK; i++) {
			uint64_t h[4] = { hw[0][i], hw[1][i], hw[2][i], hw[3][i] };
			tally(t, h, c->res64);
		}
		for (int m = 0; m < 4; m++)
			for (int i = 0; i < CHUNK; i++) {
				uint64_t s = c->sf(ops[i], rnd_of[m]), h = hw[m][i];
				if (s == h || (isnan_res(s, c->res64) && isnan_res(h, c->res64)))
					continue;
				if (bad++ < 8)
					fprintf(stderr, "%s.%s(%#llx, %#llx, %#llx): hardware %#llx, softfp %#llx\n",
					        c->name, mode_name[m], (unsigned long long)ops[i][0],
					        (unsigned long long)(c->nops > 1 ? ops[i][1] : 0),
					        (unsigned long long)(c->nops > 2 ? ops[i][2] : 0),
					        (unsigned long long)h, (unsigned long long)s);
			}
	}
	return bad;
}

static const Case cases[] = {
	{ "f32.add", hw_f32_add, sf_f32_add, &T32, 0, OP_ADD_, 2 },
	{ "f32.mul", hw_f32_mul, sf_f32_mul, &T32, 0, OP_MUL_, 2 },
	{ "f32.fma", hw_f32_fma, sf_f32_fma, &T32, 0, OP_FMA_, 3 },
	{ "f32.div", hw_f32_div, sf_f32_div, &T32, 0, OP_DIV_, 2 },
	{ "f32.sqrt", hw_f32_sqrt, sf_f32_sqrt, &T32, 0, OP_SQRT_, 1 },
	{ "f64.add", hw_f64_add, sf_f64_add, &T64, 1, OP_ADD_, 2 },
	{ "f64.mul", hw_f64_mul, sf_f64_mul, &T64, 1, OP_MUL_, 2 },
	{ "f64.fma", hw_f64_fma, sf_f64_fma, &T64, 1, OP_FMA_, 3 },
	{ "f64.div", hw_f64_div, sf_f64_div, &T64, 1, OP_DIV_, 2 },
	{ "f64.sqrt", hw_f64_sqrt, sf_f64_sqrt, &T64, 1, OP_SQRT_, 1 },
	{ "cvt.f32.s64", hw_i64_f32, sf_i64_f32, NULL, 0, -1, 1 },
	{ "cvt.f32.u64", hw_u64_f32, sf_u64_f32, NULL, 0, -1, 1 },
	{ "cvt.f64.s64", hw_i64_f64, sf_i64_f64, NULL, 1, -1, 1 },
	{ "cvt.f64.u64", hw_u64_f64, sf_u64_f64, NULL, 1, -1, 1 },
	{ "cvt.f32.f64", hw_f64_f32, sf_f64_f32, &T64, 0, -2, 1 },
};

START_TEST(test_against_hardware)
{
	const Case *c = &cases[_i];
	Tally t = { 0, 0, 0, 0, 0 };
	long bad, min = ntuples() / 2 / 200;  /* 0.5% of the edge-biased tuples */
	int arith = c->op >= 0 && c->op != OP_SQRT_;

	if (!hw_usable())
		return;
	bad = compare(c, &t);
	if (getenv("SOFTFP_STATS"))
		printf("%-12s edge half: %ld subnormal, %ld overflow, %ld exact, %ld inexact, %ld NaN\n",
		       c->name, t.sub, t.ovf, t.exact, t.inexact, t.nan);
	ck_assert_msg(bad == 0, "%s: %ld of %ld x 4 results differ from the hardware", c->name,
	              bad, ntuples());
	ck_assert_msg(t.exact >= min && t.inexact >= min, "%s: %ld exact, %ld inexact results",
	              c->name, t.exact, t.inexact);
	if (arith || c->op == -2)
		ck_assert_msg(t.sub >= min && t.ovf >= min, "%s: %ld subnormal results, %ld overflows",
		              c->name, t.sub, t.ovf);
	if (c->op >= 0)
		ck_assert_msg(t.nan >= min, "%s: %ld NaN results", c->name, t.nan);
}
END_TEST

/* ---------------------------------------------------------------- hand-computed results */
enum { H_ADD, H_MUL, H_FMA, H_DIV, H_SQRT, H_I2F, H_U2F, H_F2F };

/* one expected result, worked out by hand (the comment says how) */
typedef struct {
	int op;           /* H_* */
	int f64;          /* f64 operation or result (H_I2F/H_U2F: f64 result) */
	Rnd r;            /* rounding mode */
	uint64_t a, b, c; /* operands */
	uint64_t want;    /* expected bits; NAN_ for any NaN */
} Hand;

#define NAN_ 0xdeadull
#define ALL4(op, f, a, b, c, w) { op, f, RND_RN, a, b, c, w }, { op, f, RND_RZ, a, b, c, w }, \
	{ op, f, RND_RM, a, b, c, w }, { op, f, RND_RP, a, b, c, w }

static const Hand hand[] = {
	/* 1 + 2^-30: inexact, only RP moves up; -1 - 2^-30: only RM moves away */
	{ H_ADD, 0, RND_RN, 0x3f800000, 0x30800000, 0, 0x3f800000 },
	{ H_ADD, 0, RND_RZ, 0x3f800000, 0x30800000, 0, 0x3f800000 },
	{ H_ADD, 0, RND_RM, 0x3f800000, 0x30800000, 0, 0x3f800000 },
	{ H_ADD, 0, RND_RP, 0x3f800000, 0x30800000, 0, 0x3f800001 },
	{ H_ADD, 0, RND_RM, 0xbf800000, 0xb0800000, 0, 0xbf800001 },
	{ H_ADD, 0, RND_RP, 0xbf800000, 0xb0800000, 0, 0xbf800000 },
	{ H_ADD, 0, RND_RZ, 0xbf800000, 0xb0800000, 0, 0xbf800000 },
	/* ties: 1 + 2^-24 to even (down), (1 + 2^-23) + 2^-24 to even (up) */
	{ H_ADD, 0, RND_RN, 0x3f800000, 0x33800000, 0, 0x3f800000 },
	{ H_ADD, 0, RND_RN, 0x3f800001, 0x33800000, 0, 0x3f800002 },
	{ H_ADD, 0, RND_RP, 0x3f800000, 0x33800000, 0, 0x3f800001 },
	/* x + (-x) is +0, -0 toward -inf; -0 + -0 is -0; +0 + -0 is +0 except in RM */
	{ H_ADD, 0, RND_RN, 0x3f800000, 0xbf800000, 0, 0x00000000 },
	{ H_ADD, 0, RND_RZ, 0x3f800000, 0xbf800000, 0, 0x00000000 },
	{ H_ADD, 0, RND_RP, 0x3f800000, 0xbf800000, 0, 0x00000000 },
	{ H_ADD, 0, RND_RM, 0x3f800000, 0xbf800000, 0, 0x80000000 },
	ALL4(H_ADD, 0, 0x80000000, 0x80000000, 0, 0x80000000),
	{ H_ADD, 0, RND_RN, 0x00000000, 0x80000000, 0, 0x00000000 },
	{ H_ADD, 0, RND_RM, 0x00000000, 0x80000000, 0, 0x80000000 },
	/* the subnormal/normal boundary, exact both ways */
	ALL4(H_ADD, 0, 0x00800000, 0x80000001, 0, 0x007fffff),
	ALL4(H_ADD, 0, 0x007fffff, 0x00000001, 0, 0x00800000),
	ALL4(H_ADD, 0, 0x7f800000, 0xff800000, 0, NAN_),
	/* FLT_MAX * 2 overflows: inf unless rounding toward zero or against the sign */
	{ H_MUL, 0, RND_RN, 0x7f7fffff, 0x40000000, 0, 0x7f800000 },
	{ H_MUL, 0, RND_RZ, 0x7f7fffff, 0x40000000, 0, 0x7f7fffff },
	{ H_MUL, 0, RND_RM, 0x7f7fffff, 0x40000000, 0, 0x7f7fffff },
	{ H_MUL, 0, RND_RP, 0x7f7fffff, 0x40000000, 0, 0x7f800000 },
	{ H_MUL, 0, RND_RP, 0xff7fffff, 0x40000000, 0, 0xff7fffff },
	{ H_MUL, 0, RND_RM, 0xff7fffff, 0x40000000, 0, 0xff800000 },
	/* half the smallest subnormal: a tie to even 0; 1.5 of it: a tie to 2 */
	{ H_MUL, 0, RND_RN, 0x00000001, 0x3f000000, 0, 0x00000000 },
	{ H_MUL, 0, RND_RZ, 0x00000001, 0x3f000000, 0, 0x00000000 },
	{ H_MUL, 0, RND_RM, 0x00000001, 0x3f000000, 0, 0x00000000 },
	{ H_MUL, 0, RND_RP, 0x00000001, 0x3f000000, 0, 0x00000001 },
	{ H_MUL, 0, RND_RN, 0x80000001, 0x3f000000, 0, 0x80000000 },
	{ H_MUL, 0, RND_RM, 0x80000001, 0x3f000000, 0, 0x80000001 },
	{ H_MUL, 0, RND_RN, 0x00000003, 0x3f000000, 0, 0x00000002 },
	{ H_MUL, 0, RND_RZ, 0x00000003, 0x3f000000, 0, 0x00000001 },
	/* 2^-126 * (1 - 2^-24) = 2^-126 - 2^-150: half a subnormal ulp below the smallest normal */
	{ H_MUL, 0, RND_RN, 0x00800000, 0x3f7fffff, 0, 0x00800000 },
	{ H_MUL, 0, RND_RZ, 0x00800000, 0x3f7fffff, 0, 0x007fffff },
	{ H_MUL, 0, RND_RP, 0x00800000, 0x3f7fffff, 0, 0x00800000 },
	ALL4(H_MUL, 0, 0x7f800000, 0x80000000, 0, NAN_),
	/* 1/3 = 1.0101..b * 2^-2: 23 fraction bits 0x2aaaaa, the rest 2/3 of an ulp */
	{ H_DIV, 0, RND_RN, 0x3f800000, 0x40400000, 0, 0x3eaaaaab },
	{ H_DIV, 0, RND_RZ, 0x3f800000, 0x40400000, 0, 0x3eaaaaaa },
	{ H_DIV, 0, RND_RM, 0x3f800000, 0x40400000, 0, 0x3eaaaaaa },
	{ H_DIV, 0, RND_RP, 0x3f800000, 0x40400000, 0, 0x3eaaaaab },
	{ H_DIV, 0, RND_RM, 0xbf800000, 0x40400000, 0, 0xbeaaaaab },
	{ H_DIV, 0, RND_RP, 0xbf800000, 0x40400000, 0, 0xbeaaaaaa },
	ALL4(H_DIV, 0, 0x3f800000, 0x00000000, 0, 0x7f800000),
	ALL4(H_DIV, 0, 0xbf800000, 0x00000000, 0, 0xff800000),
	ALL4(H_DIV, 0, 0x3f800000, 0x80000000, 0, 0xff800000),
	ALL4(H_DIV, 0, 0x00000000, 0x00000000, 0, NAN_),
	ALL4(H_DIV, 0, 0x7f800000, 0xff800000, 0, NAN_),
	ALL4(H_DIV, 0, 0x80000000, 0x40a00000, 0, 0x80000000),
	/* sqrt 2 = 1.41421356..: 0x3fb504f3 is 1.4142135381, 0x3fb504f4 is 1.4142136574 */
	{ H_SQRT, 0, RND_RN, 0x40000000, 0, 0, 0x3fb504f3 },
	{ H_SQRT, 0, RND_RZ, 0x40000000, 0, 0, 0x3fb504f3 },
	{ H_SQRT, 0, RND_RP, 0x40000000, 0, 0, 0x3fb504f4 },
	/* sqrt 2^-149 = sqrt 2 * 2^-75 */
	{ H_SQRT, 0, RND_RZ, 0x00000001, 0, 0, 0x1a3504f3 },
	{ H_SQRT, 0, RND_RP, 0x00000001, 0, 0, 0x1a3504f4 },
	ALL4(H_SQRT, 0, 0x40800000, 0, 0, 0x40000000),
	ALL4(H_SQRT, 0, 0x80000000, 0, 0, 0x80000000),
	ALL4(H_SQRT, 0, 0x7f800000, 0, 0, 0x7f800000),
	ALL4(H_SQRT, 0, 0xbf800000, 0, 0, NAN_),
	ALL4(H_SQRT, 0, 0xff800000, 0, 0, NAN_),
	/* fma rounds once: (1 + 2^-23)^2 - (1 + 2^-22) = 2^-46 */
	ALL4(H_FMA, 0, 0x3f800001, 0x3f800001, 0xbf800002, 0x28800000),
	{ H_FMA, 0, RND_RN, 0x3f800000, 0x3f800000, 0xbf800000, 0x00000000 },
	{ H_FMA, 0, RND_RM, 0x3f800000, 0x3f800000, 0xbf800000, 0x80000000 },
	/* 2^-100 * 2^-100 + 1 and - 1: a tiny nonzero term decides the directed results */
	{ H_FMA, 0, RND_RN, 0x0d800000, 0x0d800000, 0x3f800000, 0x3f800000 },
	{ H_FMA, 0, RND_RP, 0x0d800000, 0x0d800000, 0x3f800000, 0x3f800001 },
	{ H_FMA, 0, RND_RM, 0x0d800000, 0x0d800000, 0x3f800000, 0x3f800000 },
	{ H_FMA, 0, RND_RN, 0x0d800000, 0x0d800000, 0xbf800000, 0xbf800000 },
	{ H_FMA, 0, RND_RZ, 0x0d800000, 0x0d800000, 0xbf800000, 0xbf7fffff },
	{ H_FMA, 0, RND_RP, 0x0d800000, 0x0d800000, 0xbf800000, 0xbf7fffff },
	{ H_FMA, 0, RND_RM, 0x0d800000, 0x0d800000, 0xbf800000, 0xbf800000 },
	/* a nonzero product that rounds to zero keeps its sign; plus -0 changes nothing */
	{ H_FMA, 0, RND_RN, 0x00000001, 0x3f000000, 0x80000000, 0x00000000 },
	{ H_FMA, 0, RND_RP, 0x00000001, 0x3f000000, 0x80000000, 0x00000001 },
	ALL4(H_FMA, 0, 0x00000000, 0x7f800000, 0x3f800000, NAN_),
	ALL4(H_FMA, 0, 0x7f800000, 0x3f800000, 0xff800000, NAN_),
	/* 2^24 + 1 and 2^24 + 3 need 25 bits: ties to even 2^24 and 2^24 + 4 */
	{ H_I2F, 0, RND_RN, 16777217, 0, 0, 0x4b800000 },
	{ H_I2F, 0, RND_RZ, 16777217, 0, 0, 0x4b800000 },
	{ H_I2F, 0, RND_RP, 16777217, 0, 0, 0x4b800001 },
	{ H_I2F, 0, RND_RM, (uint64_t)-16777217, 0, 0, 0xcb800001 },
	{ H_I2F, 0, RND_RN, 16777219, 0, 0, 0x4b800002 },
	{ H_I2F, 0, RND_RZ, 16777219, 0, 0, 0x4b800001 },
	ALL4(H_I2F, 0, 0x8000000000000000ull, 0, 0, 0xdf000000),
	ALL4(H_I2F, 0, (uint64_t)-1, 0, 0, 0xbf800000),
	ALL4(H_I2F, 0, 0, 0, 0, 0x00000000),
	/* 2^63 - 1: below it, 0x5effffff = 2^63 - 2^39 */
	{ H_I2F, 0, RND_RZ, 0x7fffffffffffffffull, 0, 0, 0x5effffff },
	{ H_I2F, 0, RND_RN, 0x7fffffffffffffffull, 0, 0, 0x5f000000 },
	{ H_U2F, 0, RND_RZ, ~0ull, 0, 0, 0x5f7fffff },
	{ H_U2F, 0, RND_RM, ~0ull, 0, 0, 0x5f7fffff },
	{ H_U2F, 0, RND_RN, ~0ull, 0, 0, 0x5f800000 },
	{ H_U2F, 0, RND_RP, ~0ull, 0, 0, 0x5f800000 },
	{ H_U2F, 1, RND_RN, 0x8000000000000001ull, 0, 0, 0x43e0000000000000ull },
	{ H_U2F, 1, RND_RP, 0x8000000000000001ull, 0, 0, 0x43e0000000000001ull },
	{ H_I2F, 1, RND_RN, (1ull << 53) + 1, 0, 0, 0x4340000000000000ull },
	{ H_I2F, 1, RND_RP, (1ull << 53) + 1, 0, 0, 0x4340000000000001ull },
	{ H_I2F, 1, RND_RM, 0 - (1ull << 53) - 1, 0, 0, 0xc340000000000001ull },
	/* f64 -> f32: 1 + 2^-24 is a tie, 1 + 2^-24 + 2^-52 is above it */
	{ H_F2F, 0, RND_RN, 0x3ff0000010000000ull, 0, 0, 0x3f800000 },
	{ H_F2F, 0, RND_RP, 0x3ff0000010000000ull, 0, 0, 0x3f800001 },
	{ H_F2F, 0, RND_RN, 0x3ff0000010000001ull, 0, 0, 0x3f800001 },
	{ H_F2F, 0, RND_RZ, 0x3ff0000010000001ull, 0, 0, 0x3f800000 },
	{ H_F2F, 0, RND_RN, 0x7fefffffffffffffull, 0, 0, 0x7f800000 },
	{ H_F2F, 0, RND_RZ, 0x7fefffffffffffffull, 0, 0, 0x7f7fffff },
	{ H_F2F, 0, RND_RM, 0x7fefffffffffffffull, 0, 0, 0x7f7fffff },
	{ H_F2F, 0, RND_RM, 0xffefffffffffffffull, 0, 0, 0xff800000 },
	{ H_F2F, 0, RND_RN, 0x0000000000000001ull, 0, 0, 0x00000000 },
	{ H_F2F, 0, RND_RP, 0x0000000000000001ull, 0, 0, 0x00000001 },
	{ H_F2F, 0, RND_RM, 0x8000000000000001ull, 0, 0, 0x80000001 },
	{ H_F2F, 0, RND_RN, 0x3690000000000000ull, 0, 0, 0x00000000 },   /* 2^-150: tie */
	{ H_F2F, 0, RND_RP, 0x3690000000000000ull, 0, 0, 0x00000001 },
	ALL4(H_F2F, 0, 0x8000000000000000ull, 0, 0, 0x80000000),
	ALL4(H_F2F, 0, 0x7ff0000000000001ull, 0, 0, NAN_),
	/* f64: 1 + 2^-53 is a tie; 1/3 = 0x3fd5555555555555 + 1/3 ulp; sqrt 2 rounds up in RN */
	{ H_ADD, 1, RND_RN, 0x3ff0000000000000ull, 0x3ca0000000000000ull, 0, 0x3ff0000000000000ull },
	{ H_ADD, 1, RND_RP, 0x3ff0000000000000ull, 0x3ca0000000000000ull, 0, 0x3ff0000000000001ull },
	{ H_ADD, 1, RND_RN, 0x3ff0000000000001ull, 0x3ca0000000000000ull, 0, 0x3ff0000000000002ull },
	{ H_ADD, 1, RND_RM, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0, 0x8000000000000000ull },
	{ H_DIV, 1, RND_RN, 0x3ff0000000000000ull, 0x4008000000000000ull, 0, 0x3fd5555555555555ull },
	{ H_DIV, 1, RND_RP, 0x3ff0000000000000ull, 0x4008000000000000ull, 0, 0x3fd5555555555556ull },
	{ H_DIV, 1, RND_RZ, 0x3ff0000000000000ull, 0x4008000000000000ull, 0, 0x3fd5555555555555ull },
	{ H_SQRT, 1, RND_RN, 0x4000000000000000ull, 0, 0, 0x3ff6a09e667f3bcdull },
	{ H_SQRT, 1, RND_RZ, 0x4000000000000000ull, 0, 0, 0x3ff6a09e667f3bccull },
	{ H_SQRT, 1, RND_RM, 0x4000000000000000ull, 0, 0, 0x3ff6a09e667f3bccull },
	{ H_SQRT, 1, RND_RP, 0x4000000000000000ull, 0, 0, 0x3ff6a09e667f3bcdull },
	{ H_MUL, 1, RND_RZ, 0x7fefffffffffffffull, 0x4000000000000000ull, 0, 0x7fefffffffffffffull },
	{ H_MUL, 1, RND_RN, 0x7fefffffffffffffull, 0x4000000000000000ull, 0, 0x7ff0000000000000ull },
	{ H_MUL, 1, RND_RP, 0x0000000000000001ull, 0x3fe0000000000000ull, 0, 0x0000000000000001ull },
	{ H_MUL, 1, RND_RN, 0x0000000000000001ull, 0x3fe0000000000000ull, 0, 0x0000000000000000ull },
	{ H_FMA, 1, RND_RM, 0x3ff0000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x8000000000000000ull },
	{ H_FMA, 1, RND_RN, 0x8000000000000000ull, 0x4014000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull },
	{ H_FMA, 1, RND_RM, 0x8000000000000000ull, 0x4014000000000000ull, 0x0000000000000000ull, 0x8000000000000000ull },
	ALL4(H_FMA, 1, 0x8000000000000000ull, 0x4014000000000000ull, 0x8000000000000000ull, 0x8000000000000000ull),
	/* (1 + 2^-52)^2 - (1 + 2^-51) = 2^-104 */
	ALL4(H_FMA, 1, 0x3ff0000000000001ull, 0x3ff0000000000001ull, 0xbff0000000000002ull, 0x3970000000000000ull),
};

/* the softfp function of each H_* op, [f32, f64] (H_I2F/H_U2F: by result; H_F2F: f64 -> f32) */
static SfFn *const hand_fn[][2] = {
	[H_ADD] = { sf_f32_add, sf_f64_add },   [H_MUL] = { sf_f32_mul, sf_f64_mul },
	[H_FMA] = { sf_f32_fma, sf_f64_fma },   [H_DIV] = { sf_f32_div, sf_f64_div },
	[H_SQRT] = { sf_f32_sqrt, sf_f64_sqrt }, [H_I2F] = { sf_i64_f32, sf_i64_f64 },
	[H_U2F] = { sf_u64_f32, sf_u64_f64 },   [H_F2F] = { sf_f64_f32, NULL },
};

static uint64_t run_hand(const Hand *h)
{
	const uint64_t o[3] = { h->a, h->b, h->c };
	SfFn *fn = hand_fn[h->op][h->f64];

	ck_assert_msg(fn != NULL, "hand[]: no %s form of op %d", h->f64 ? "f64" : "f32", h->op);
	return fn(o, h->r);
}

START_TEST(test_hand)
{
	const Hand *h = &hand[_i];
	uint64_t got = run_hand(h);
	int res64 = h->f64;

	if (h->want == NAN_)
		ck_assert_msg(isnan_res(got, res64), "hand[%d]: %#llx is not a NaN", _i, (unsigned long long)got);
	else
		ck_assert_msg(got == h->want, "hand[%d] (%s): %#llx, expected %#llx", _i,
		              isa_rnd_name(h->r), (unsigned long long)got, (unsigned long long)h->want);
}
END_TEST

/* through alu.c: canonical NaNs, ftz around softfp, the conversions' integer types */
START_TEST(test_alu_directed)
{
	ck_assert_uint_eq(ar_f32_add(0x7f800000u, 0xff800000u, RND_RZ, 0), AR_F32_NAN);
	ck_assert_uint_eq(ar_f64_sqrt(0xbff0000000000000ull, RND_RP), AR_F64_NAN);
	ck_assert_uint_eq(ar_f32_mul(0x00000001u, 0x3f000000u, RND_RP, 0), 0x00000001u);
	ck_assert_uint_eq(ar_f32_mul(0x00000001u, 0x3f000000u, RND_RP, 1), 0x00000000u);  /* ftz input */
	ck_assert_uint_eq(ar_f32_mul(0x00800000u, 0x3f7fffffu, RND_RZ, 1), 0x00000000u);  /* ftz output */
	ck_assert_uint_eq(ar_f64_sqrt(0x4000000000000000ull, RND_RM), 0x3ff6a09e667f3bccull);
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_S64, RND_RP, 0, 0, 16777217), 0x4b800001u);
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_S32, RND_RM, 0, 0, 0xfeffffffu), 0xcb800001u);  /* -16777217 */
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_U32, RND_RZ, 0, 0, 0xffffffffu), 0x4f7fffffu);
	ck_assert_uint_eq(ar_cvt(TY_F64, TY_U64, RND_RP, 0, 0, 0x8000000000000001ull), 0x43e0000000000001ull);
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_F64, RND_RZ, 0, 0, 0x7fefffffffffffffull), 0x7f7fffffu);
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_F64, RND_RP, 0, 0, 0x0000000000000001ull), 0x00000001u);
	ck_assert_uint_eq(ar_cvt(TY_F32, TY_F64, RND_RP, 1, 0, 0x0000000000000001ull), 0x00000000u);
	/* RN zeros of fma keep their IEEE sign (valgrind's fma() emulation gives +0 for both) */
	ck_assert_uint_eq(ar_f64_fma(0x8000000000000000ull, 0x3e70000000000000ull, 0x8000000000000000ull, RND_RN),
	                  0x8000000000000000ull);
	ck_assert_uint_eq(ar_f64_fma(0x9a70000000000000ull, 0x1a70000000000000ull, 0, RND_RN), 0x8000000000000000ull);
	/* RN stays the host's arithmetic and agrees */
	ck_assert_uint_eq(ar_f32_div(0x3f800000u, 0x40400000u, RND_RN, 0), 0x3eaaaaabu);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("softfp");
	TCase *h = tcase_create("hand"), *hw = tcase_create("hardware");

	tcase_add_loop_test(h, test_hand, 0, (int)(sizeof hand / sizeof hand[0]));
	tcase_add_test(h, test_alu_directed);
	tcase_add_loop_test(hw, test_against_hardware, 0, (int)(sizeof cases / sizeof cases[0]));
	tcase_set_timeout(hw, 120);
	suite_add_tcase(s, h);
	suite_add_tcase(s, hw);
	return s;
}

int main(void)
{
	return ck_run(suite());
}
