/* narrow.c - the oracle's 16-bit and 8-bit floats beyond falu.c's scalar ops: f16 and bf16
 * arithmetic lane by lane with .relu and .sat (and each half of f16x2 and bf16x2), which bf16
 * operations PTX defines, and cvt with bf16, f16x2/bf16x2, tf32 or fp8 (e4m3, e5m2) on
 * either side. exec.c's farith and its cvt call these. */
#include <math.h>
#include <string.h>
#include "oracle/internal.h"

/* one f16 or bf16 lane (et) of an arithmetic op; .relu and .sat after the rounding */
uint64_t or_half_op(int op, int et, uint64_t x, uint64_t y, uint64_t z, const PIns *in)
{
	uint64_t v;

	if (et == PT_BF16 && (op == PO_FMA || op == PO_MAD))
		v = or_bf16_fma(x, y, z);
	else if (et == PT_BF16 && (op == PO_ADD || op == PO_SUB || op == PO_MUL))
		v = or_bf16_arith(op, x, y);
	else if (op == PO_FMA || op == PO_MAD)
		v = or_ffma(et, x, y, z, in->m.rnd, 0);
	else if (op == PO_MIN || op == PO_MAX)
		v = or_fminmax(et, x, y, op == PO_MAX, 0, (in->m.flags & PMF_NAN) != 0);
	else if (op == PO_NEG || op == PO_ABS)
		v = or_funary(op, et, x, 0, 0, 0);
	else
		v = or_fbin(op, et, x, y, in->m.rnd, 0);
	if (in->m.flags & PMF_SAT)
		v = or_fsat(et, v);
	if (in->m.flags & PMF_RELU)
		v = or_hrelu(et, v);
	return v & 0xffff;
}

/* float ops on f16x2 and bf16x2: each half alone */
uint64_t or_per_half(int op, int et, uint64_t a, uint64_t b, uint64_t c, const PIns *in)
{
	uint64_t r = 0;

	for (int h = 0; h < 2; h++)
		r |= or_half_op(op, et, (a >> 16 * h) & 0xffff, (b >> 16 * h) & 0xffff, (c >> 16 * h) & 0xffff,
		             in) << 16 * h;
	return r;
}

/* the bf16 operations PTX defines: add/sub/mul .rn, fma .rn{.relu}, min/max{.NaN}{.relu},
 * neg, abs (tf32 has no arithmetic) */
int or_bf16_ok(const PIns *in)
{
	int r = in->m.rnd, op = in->op;

	if (in->m.flags & (PMF_SAT | PMF_XORSIGN | PMF_FTZ))
		return 0;
	if (op == PO_MIN || op == PO_MAX || op == PO_NEG || op == PO_ABS)
		return in->nopd <= 3;
	if (op == PO_ADD || op == PO_SUB || op == PO_MUL || op == PO_FMA)
		return (r == PRND_NONE || r == PRND_RN) && (op == PO_FMA || !(in->m.flags & PMF_RELU));
	return 0;
}

/* the f16 of an fp8 byte (exact): an e5m2 is the f16's upper byte; an e4m3 (bias 7, no
 * infinity, S.1111.111 a NaN: the canonical f16 NaN) rebiased, its subnormals normalised */
static uint32_t f16_of_fp8(uint32_t x, int e4m3)
{
	uint32_t s = (x & 0x80) << 8, e = x >> 3 & 15, m = x & 7;

	if (!e4m3)
		return (x & 0xff) << 8;
	if (e == 15 && m == 7)
		return 0x7fff;
	if (e)
		return s | (e + 8) << 10 | m << 7;
	if (!m)
		return s;
	/* m * 2^-9 with m in 1..7: the f16 exponent of its top bit p is p - 9 + 15 */
	for (int p = 2; p >= 0; p--)
		if (m >> p & 1)
			return s | (uint32_t)(p + 6) << 10 | (m - (1u << p)) << (10 - p);
	return s;
}

/* v rounded to the nearest integer, ties to even (v is exact: an f32 scaled by a power of 2) */
static double rne(double v)
{
	double q = floor(v), d = v - q;

	return d > 0.5 || (d == 0.5 && fmod(q, 2.0) != 0) ? q + 1 : q;
}

/* the e4m3 (e4m3 1) or e5m2 byte of the f32 bits x, rounded to nearest even, .satfinite:
 * beyond the largest finite value (infinities too) the largest, a NaN 0x7f */
static uint32_t fp8_of_f32(uint32_t x, int e4m3)
{
	int mb = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
	uint32_t s = x >> 24 & 0x80, maxc = e4m3 ? 0x7e : 0x7b, code;
	float fv;
	double a, q;
	int e;

	memcpy(&fv, &x, 4);
	if (fv != fv)
		return 0x7f;
	a = fabs((double)fv);
	if (a < ldexp(1.0, 1 - bias)) {
		/* subnormal steps of 2^(1 - bias - mb); 2^mb steps is the smallest normal's code */
		q = rne(ldexp(a, bias - 1 + mb));
		code = (uint32_t)q;
	} else if (a >= ldexp(1.0, e4m3 ? 9 : 16)) {
		code = maxc;   /* beyond every finite code, infinities too */
	} else {
		frexp(a, &e);
		e -= 1;                                   /* a = m * 2^e, m in [1, 2) */
		q = rne(ldexp(a, mb - e));                /* m * 2^mb, in [2^mb, 2^(mb+1)] */
		if (q >= ldexp(1.0, mb + 1))
			q /= 2, e++;
		code = (uint32_t)(e + bias) << mb | ((uint32_t)q - (1u << mb));
	}
	return s | (code > maxc ? maxc : code);
}

/* cvt with bf16 on either side, to f16x2/bf16x2 from two f32 (a to the upper half, b to the
 * lower), to tf32, or from f32 to f16 with .relu or .satfinite; 0 when the conversion is none
 * of these */
int or_cvt_narrow(Oracle *o, Thread *t, const PIns *in)
{
	int dt = in->m.types[0], st = in->m.types[1], r = in->m.rnd, fl = in->m.flags;
	int relu = (fl & PMF_RELU) != 0, satf = (fl & PMF_SATFINITE) != 0;
	int et = dt == PT_F16X2 ? PT_F16 : dt == PT_BF16X2 ? PT_BF16 : dt;
	int rnd_ok = r == PRND_RN || r == PRND_RZ || (dt == PT_TF32 && r == PRND_RNA);
	int plain = in->nopd == 2 && !(fl & (PMF_SAT | PMF_RELU | PMF_SATFINITE | PMF_FTZ));

	int fp8 = dt == PT_E4M3X2 || dt == PT_E5M2X2 || st == PT_E4M3X2 || st == PT_E5M2X2 ||
	          dt == PT_E4M3 || dt == PT_E5M2 || st == PT_E4M3 || st == PT_E5M2;

	if (dt != PT_BF16 && st != PT_BF16 && dt != PT_F16X2 && dt != PT_BF16X2 && dt != PT_TF32 &&
	    !(dt == PT_F16 && (relu || satf)) && !fp8)
		return 0;
	if ((dt == PT_E4M3X2 || dt == PT_E5M2X2) && st == PT_F32 && in->nopd == 3 && r == PRND_RN &&
	    satf && !relu && !(fl & (PMF_SAT | PMF_FTZ))) {
		/* a to the upper byte, b to the lower */
		uint32_t hi = fp8_of_f32((uint32_t)or_get(o, t, &in->o[1], PT_F32), dt == PT_E4M3X2);
		uint32_t lo = fp8_of_f32((uint32_t)or_get(o, t, &in->o[2], PT_F32), dt == PT_E4M3X2);
		or_put(o, t, &in->o[0], hi << 8 | lo);
		return 1;
	}
	if (plain && dt == PT_F16X2 && (st == PT_E4M3X2 || st == PT_E5M2X2) && r == PRND_RN) {
		uint32_t a = (uint32_t)or_get(o, t, &in->o[1], st);
		or_put(o, t, &in->o[0], f16_of_fp8(a, st == PT_E4M3X2) |
		                        f16_of_fp8(a >> 8, st == PT_E4M3X2) << 16);
		return 1;
	}
	if ((fl & (PMF_SAT | PMF_FTZ)) || (dt == PT_TF32 && r == PRND_RNA && relu))
		rnd_ok = 0;
	if (st == PT_F32 && rnd_ok && in->nopd == ((dt == PT_F16X2 || dt == PT_BF16X2) ? 3 : 2)) {
		uint64_t v = or_cvt_f32_narrow(et, (uint32_t)or_get(o, t, &in->o[1], PT_F32), r, relu, satf);
		if (in->nopd == 3)
			v = v << 16 | or_cvt_f32_narrow(et, (uint32_t)or_get(o, t, &in->o[2], PT_F32), r, relu, satf);
		or_put(o, t, &in->o[0], v);
	} else if (plain && dt == PT_F32 && st == PT_BF16 && r == PRND_NONE) {
		/* exact, a NaN keeps its payload: the bf16 is the top half of the f32 */
		or_put(o, t, &in->o[0], (or_get(o, t, &in->o[1], PT_BF16) & 0xffff) << 16);
	} else if (plain && st == PT_BF16 && dt != PT_BF16 &&
	           (or_isfloat(dt) ? (dt == PT_F16 ? r >= PRND_RN && r <= PRND_RP : r == PRND_NONE) :
	                             r >= PRND_RNI && r <= PRND_RPI)) {
		/* the bf16 value is exact as a double: convert that once */
		double x = or_double_of_bf16(or_get(o, t, &in->o[1], PT_BF16));
		uint64_t v;
		memcpy(&v, &x, 8);
		v = or_cvt(dt, PT_F64, r, 0, 0, v);
		or_put(o, t, &in->o[0], ptx_type_kind((PType)dt) == PTK_SIGNED ?
		                        or_sext(v, 8 * ptx_type_bytes((PType)dt)) : v);
	} else if (plain && dt == PT_BF16 && (st == PT_F16 || st == PT_F64) && (r == PRND_RN || r == PRND_RZ)) {
		uint64_t v = or_get(o, t, &in->o[1], st);
		double x;
		if (st == PT_F16)
			v = or_cvt(PT_F64, PT_F16, PRND_NONE, 0, 0, v);   /* exact */
		memcpy(&x, &v, 8);
		or_put(o, t, &in->o[0], or_bf16_of_double(x, r == PRND_RZ));
	} else {
		or_error(o, t, OR_UNSUP, "unsupported: this bf16/f16x2/tf32/fp8 conversion");
	}
	return 1;
}
