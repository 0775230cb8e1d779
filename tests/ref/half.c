/* half.c - C reference of tests/cuda/half.cu (kernel half_math). A half is held as the
 * float/double of its exact value; rounding to binary16 (round to nearest, ties to even,
 * overflow to infinity, gradual underflow below 2^-14) is done by scaling the value by the
 * half quantum of its binade (2^(e-10), or 2^-24 for subnormals), rounding that to an integer
 * with rint (the default rounding mode is to nearest even) and scaling back: every step is
 * exact in double. Sums and products of halves are exact in double (40 and 22 bits) and are
 * rounded once, as add.f16 and mul.f16 round; the fma's a*b + s (up to 80 bits) is summed
 * with round-to-odd first, which makes the rounding to binary16 that follows exact too. */
#include <math.h>

/* x rounded once to binary16, as a double */
static double half_round(double x)
{
	double m = fabs(x), q, r;
	int e;

	if (isnan(x) || isinf(x) || m == 0)
		return x;
	if (m < 0x1p-14)
		q = 0x1p-24;
	else {
		frexp(m, &e);            /* m = f * 2^e, f in [0.5, 1): binade 2^(e-1) */
		q = ldexp(1.0, e - 11);
	}
	r = rint(m / q) * q;
	if (r > 65504.0)
		r = INFINITY;
	return x < 0 ? -r : r;
}

/* p + s rounded to odd in double (the nearest double if exact, else the neighbour with an
 * odd last bit): a binary16 rounding of it is the correct one-step rounding of p + s, since
 * 53 >= 11 + 2 bits. The error of the double sum is found exactly by TwoSum. */
static double half_add_odd(double p, double s)
{
	double r = p + s, bp = r - s, bs = r - bp, err = (p - bp) + (s - bs);
	double lo, hi;

	if (err == 0 || isinf(r))
		return r;
	lo = err < 0 ? nextafter(r, -INFINITY) : r;
	hi = err < 0 ? r : nextafter(r, INFINITY);
	/* the exact sum lies strictly between lo and hi: take the one with an odd significand */
	return fmod(ldexp(frexp(lo, &(int){0}), 53), 2.0) != 0 ? lo : hi;
}

static void ref_half(RefArgs *a)
{
	const float *in = a->p[0];
	float *out = a->p[1];
	uint32_t nt = a->grid[0] * a->block[0];

	for (uint32_t t = 0; t < nt; t++) {
		float bin = in[t ^ 1] + 0.5f;
		double ha = half_round(in[t]), hb = half_round(bin);
		double sum = half_round(ha + hb);                 /* __hadd */
		double c = half_round(half_add_odd(ha * hb, sum)); /* __hfma: one rounding of a*b + s */
		float lo = (float)half_round(ha * ha), hi = (float)half_round(hb * hb);
		float f = lo + hi;

		out[2 * t] = (float)c;
		out[2 * t + 1] = f + (ha < hb ? 1.0f : 0.0f);
	}
}
