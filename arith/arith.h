/* arith.h - the exact per-op semantics of PTX and of the microcode: integer and
 * floating-point results, rounding, flush-to-zero, saturation, conversions, bit fields,
 * condition codes, atomics and the MUFU approximations. Pure functions of their operands,
 * shared by the SM model (sim/) and the PTX reference interpreter (oracle/); neither owns
 * them.
 *
 * Files: alu.c (integer and float ops), fmath.c (MUFU .approx functions), video.c (the
 * video instructions), softfp.c (directed rounding in integer arithmetic, softfp.h).
 */
#ifndef WARPSIM_ARITH_H
#define WARPSIM_ARITH_H

#include <stdint.h>
#include "isa/isa.h"

/* ------------------------------------------------------------------ alu.c, fmath.c */
/* the condition-code flags of one lane */
enum { CC_S = 1, CC_C = 2, CC_Z = 4, CC_O = 8 };

uint32_t ar_f32_add(uint32_t a, uint32_t b, Rnd r, int ftz);
uint32_t ar_f32_mul(uint32_t a, uint32_t b, Rnd r, int ftz);
int ar_f32_mul_scaled(uint32_t a, uint32_t b, int k, Rnd r, int ftz, uint32_t *d); /* Kepler FMUL.D2..M8 */
uint32_t ar_f32_fma(uint32_t a, uint32_t b, uint32_t c, Rnd r, int ftz);
/* d[l] = ar_f32_fma(a[l], b[l], c[l], r, ftz), saturated when sat, for the lanes of ex
 * (d may be a, b or c); round-to-nearest without a mode switch or volatile per lane */
void ar_f32_fma_lanes(uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                       uint32_t ex, Rnd r, int ftz, int sat);
uint32_t ar_f32_div(uint32_t a, uint32_t b, Rnd r, int ftz);
uint32_t ar_f32_sqrt(uint32_t a, Rnd r, int ftz);
uint32_t ar_f32_sat(uint32_t a);                      /* clamp to [0,1], NaN -> 0 */
uint32_t ar_f32_minmax(uint32_t a, uint32_t b, int max, int ftz);
uint32_t ar_f32_ftz(uint32_t a);                      /* denormal -> signed zero */
uint64_t ar_f64_add(uint64_t a, uint64_t b, Rnd r);
uint64_t ar_f64_mul(uint64_t a, uint64_t b, Rnd r);
uint64_t ar_f64_fma(uint64_t a, uint64_t b, uint64_t c, Rnd r);
uint64_t ar_f64_div(uint64_t a, uint64_t b, Rnd r);
uint64_t ar_f64_sqrt(uint64_t a, Rnd r);
uint64_t ar_f64_minmax(uint64_t a, uint64_t b, int max);
int ar_fcmp32(Cmp c, uint32_t a, uint32_t b, int ftz);
int ar_fcmp64(Cmp c, uint64_t a, uint64_t b);
/* integer compare of a and b as type t (signed or unsigned, 32 or 64 bits) */
int ar_icmp(Cmp c, Type t, uint64_t a, uint64_t b);
/* cvt: every F2I/I2F/F2F/I2I, dtype <- stype; values are little-endian bits of their type
 * (8/16-bit integers sign- or zero-extended to 64 bits on return) */
uint64_t ar_cvt(Type dt, Type st, Rnd r, int ftz, int sat, uint64_t v);
uint32_t ar_bfe(uint32_t a, uint32_t posl, int sign, int brev);  /* posl = pos | len << 8 */
uint64_t ar_bfe64(uint64_t a, uint32_t posl, int sign, int brev);
uint32_t ar_bfi(uint32_t a, uint32_t posl, uint32_t base);
uint32_t ar_prmt(uint32_t a, uint32_t sel, uint32_t c, Sub mode);
uint32_t ar_shf(uint32_t lo, uint32_t n, uint32_t hi, int right, int wrap, Type t);
uint32_t ar_flo(uint32_t a, int sign, int shamt);
uint32_t ar_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut);
uint32_t ar_brev(uint32_t a);
int ar_cctest(CCTest t, unsigned flags);              /* flags: CC_* bits of one lane */
/* atomic: the new memory value from old, b (and c for CAS); float types use RN */
uint64_t ar_atom(Sub op, Type t, uint64_t old, uint64_t b, uint64_t c, int ftz);
/* MUFU .approx (fmath.c): the host functions the oracle uses too */
uint32_t ar_mufu_f32(Sub fn, uint32_t a, int ftz);
uint64_t ar_mufu_f64(Sub fn, uint64_t a);
uint32_t ar_mufu64h(Sub fn, uint32_t hi);   /* Kepler MUFU.RCP64H/.RSQ64H: a high word */
int ar_fchk_divide(uint32_t a, uint32_t b); /* Kepler FCHK.DIVIDE: a / b takes the slow path */
uint32_t ar_rcp_approx_f32(uint32_t a, int ftz);
uint32_t ar_rsqrt_approx_f32(uint32_t a, int ftz);
uint32_t ar_sin_approx_f32(uint32_t a, int ftz);
uint32_t ar_cos_approx_f32(uint32_t a, int ftz);
uint32_t ar_ex2_approx_f32(uint32_t a, int ftz);
uint32_t ar_lg2_approx_f32(uint32_t a, int ftz);
uint32_t ar_sqrt_approx_f32(uint32_t a, int ftz);
uint32_t ar_tanh_approx_f32(uint32_t a, int ftz);

/* ------------------------------------------------------------------ video.c */
/* one video instruction (PTX ISA, "Scalar Video Instructions" and "SIMD Video Instructions",
 * with the default selectors and masks; Kepler's VADD, VABSDIFF, VMNMX, VSET) */
typedef enum { AV_ADD, AV_SUB, AV_AVRG, AV_ABSDIFF, AV_MIN, AV_MAX, AV_SET, AV_SHL, AV_SHR } ArVideoOp;
typedef enum {
	AV_MERGE,   /* d = the results in their elements' places (no secondary operation) */
	AV_ACC,     /* .add: d = c + the sum of the results */
	AV_SMIN,    /* scalar .min: d = min(t, c) */
	AV_SMAX,    /* scalar .max: d = max(t, c) */
} ArVideoSecond;
typedef struct {
	uint8_t op;       /* ArVideoOp */
	uint8_t elems;    /* 1 (32-bit scalar), 2 (16-bit halves) or 4 (bytes) */
	uint8_t as, bs;   /* a's and b's elements are signed */
	uint8_t ds;       /* the destination's element type is signed (.sat's range, c of .min/.max) */
	uint8_t sat;      /* clamp each result to the destination element's range */
	uint8_t second;   /* ArVideoSecond */
	uint8_t cmp;      /* AV_SET: CMP_EQ, NE, LT, LE, GT or GE */
	uint8_t wrap;     /* AV_SHL, AV_SHR: .wrap (b mod 32), else .clamp (b at most 32) */
} ArVideo;
uint32_t ar_video(const ArVideo *v, uint32_t a, uint32_t b, uint32_t c);
/* vmad (PTX ISA, "vmad", default selectors: whole words; Fermi/Kepler VMAD): d = the low 32
 * bits, or with sat the 32-bit saturation, of ((+-a * +-b) + +-c + po) >> shr, exact */
typedef struct {
	uint8_t as, bs;       /* a and b are signed */
	uint8_t na, nb, nc;   /* a, b, c negated */
	uint8_t po;           /* .po: plus one (no negation) */
	uint8_t shr;          /* 0, 7 or 15 (.shr7, .shr15) */
	uint8_t sat;          /* clamp to the final type's 32-bit range */
} ArVmad;
uint32_t ar_vmad(const ArVmad *v, uint32_t a, uint32_t b, uint32_t c);
/* a video operand selector (PTX ISA: .b0-.b3, .h0, .h1): the len bits of v at pos,
 * sign-extended (sign) or zero-extended to 32 bits */
uint32_t ar_vsel(uint32_t v, int pos, int len, int sign);

#define AR_F32_NAN 0x7fffffffu              /* canonical NaN produced by float ops */
#define AR_F64_NAN 0x7fffffffffffffffull

#endif
