/* softfp.h - IEEE-754 binary32/binary64 arithmetic in integer arithmetic, with the rounding
 * direction as an argument (arith/softfp.c). alu.c calls it for PTX's directed rounding modes
 * (.rz .rm .rp, and the .rzi/.rmi/.rpi conversions), so results never depend on the host's
 * floating-point environment (fesetround), which valgrind does not emulate.
 *
 * Values are the little-endian bits of their type. Rounding: RND_RZ/RND_TRUNC toward zero,
 * RND_RM/RND_FLOOR toward -inf, RND_RP/RND_CEIL toward +inf, anything else to nearest even.
 * Results follow IEEE 754-2008 exactly: gradual underflow (no flushing: callers flush for
 * .ftz), overflow to infinity or to the largest finite value per direction, +0 for an exact
 * zero sum of opposite signs (-0 when rounding toward -inf). NaN operands and invalid
 * operations (inf - inf, 0 * inf, 0/0, inf/inf, sqrt of a negative) give the default quiet NaN
 * (0x7fc00000, 0x7ff8000000000000); callers canonicalize NaNs. */
#ifndef WARPSIM_SOFTFP_H
#define WARPSIM_SOFTFP_H

#include <stdint.h>
#include "isa/isa.h"

uint32_t ar_sf_f32_add(uint32_t a, uint32_t b, Rnd r);
uint32_t ar_sf_f32_mul(uint32_t a, uint32_t b, Rnd r);
uint32_t ar_sf_f32_fma(uint32_t a, uint32_t b, uint32_t c, Rnd r);   /* a*b+c, one rounding */
uint32_t ar_sf_f32_div(uint32_t a, uint32_t b, Rnd r);
uint32_t ar_sf_f32_sqrt(uint32_t a, Rnd r);
uint64_t ar_sf_f64_add(uint64_t a, uint64_t b, Rnd r);
uint64_t ar_sf_f64_mul(uint64_t a, uint64_t b, Rnd r);
uint64_t ar_sf_f64_fma(uint64_t a, uint64_t b, uint64_t c, Rnd r);
uint64_t ar_sf_f64_div(uint64_t a, uint64_t b, Rnd r);
uint64_t ar_sf_f64_sqrt(uint64_t a, Rnd r);
/* conversions: 64-bit integers (signed or unsigned) to f32/f64, f64 to f32; an integer 0
 * converts to +0 in every mode */
uint32_t ar_sf_i64_to_f32(int64_t v, Rnd r);
uint32_t ar_sf_u64_to_f32(uint64_t v, Rnd r);
uint64_t ar_sf_i64_to_f64(int64_t v, Rnd r);
uint64_t ar_sf_u64_to_f64(uint64_t v, Rnd r);
uint32_t ar_sf_f64_to_f32(uint64_t a, Rnd r);

#endif
