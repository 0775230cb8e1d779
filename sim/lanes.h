/* lanes.h - internal to exec_alu.c and handlers.c: integer add and compare over all 32
 * lanes of a warp, four lanes at a time with GNU vector extensions (SSE2 on x86-64, scalar
 * code elsewhere) and eight at a time with AVX2 (the caller chooses by sim_hw_avx2), and the
 * truth table of the integer compares. */
#ifndef WARPSIM_LANES_H
#define WARPSIM_LANES_H

#include "sim/exec.h"

/* loop hints in both compilers' words: UNROLL(n) unrolls the loop that follows n times,
 * IVDEP tells the vectoriser that its iterations do not depend on each other */
#define LANES_STR(x) #x
#if defined(__clang__)
#define UNROLL(n) _Pragma(LANES_STR(clang loop unroll_count(n)))
#define IVDEP _Pragma("clang loop vectorize(assume_safety)")
#else
#define UNROLL(n) _Pragma(LANES_STR(GCC unroll n))
#define IVDEP _Pragma("GCC ivdep")
#endif

typedef uint32_t V4U __attribute__((vector_size(16)));
typedef int32_t V4S __attribute__((vector_size(16)));

/* lanes of a < b (signed or not) and a == b as masks, over all 32 lanes N at a time (GNU
 * vector extensions of N lanes, type V); b NULL: the value bimm in every lane. Unsigned order
 * is the signed order of a ^ 2^31. */
#define CMP32_BODY(V, N) { \
	const int32_t flip = sg ? 0 : INT32_MIN; \
	V vf, wt, vl, ve, vb; \
	for (int i = 0; i < (N); i++) \
		vf[i] = flip, wt[i] = 1 << i, vl[i] = ve[i] = 0, vb[i] = (int32_t)bimm; \
	vb ^= vf; \
	for (int j = 0; j < 32 / (N); j++) { \
		V va; \
		memcpy(&va, a + (N) * j, sizeof va); \
		if (b) { \
			memcpy(&vb, b + (N) * j, sizeof vb); \
			vb ^= vf; \
		} \
		va ^= vf; \
		vl |= (va < vb) & (wt << ((N) * j)); \
		ve |= (va == vb) & (wt << ((N) * j)); \
	} \
	*lt = *eq = 0; \
	for (int i = 0; i < (N); i++) \
		*lt |= (uint32_t)vl[i], *eq |= (uint32_t)ve[i]; \
}
/* a + b over all 32 lanes N at a time; b NULL: bimm (d may be a or b: each step loads first);
 * the loops unrolled, one for each form of b */
#define ADD32_BODY(V, N) { \
	V va, vb; \
	for (int i = 0; i < (N); i++) \
		vb[i] = bimm; \
	if (b) { \
		UNROLL(8) \
		for (int j = 0; j < 32; j += (N)) { \
			memcpy(&va, a + j, sizeof va); \
			memcpy(&vb, b + j, sizeof vb); \
			va += vb; \
			memcpy(d + j, &va, sizeof va); \
		} \
		return; \
	} \
	UNROLL(8) \
	for (int j = 0; j < 32; j += (N)) { \
		memcpy(&va, a + j, sizeof va); \
		va += vb; \
		memcpy(d + j, &va, sizeof va); \
	} \
}

static inline void cmp32_4(const uint32_t *a, const uint32_t *b, uint32_t bimm, int sg, uint32_t *lt, uint32_t *eq)
CMP32_BODY(V4S, 4)
static inline void add32_4(uint32_t *d, const uint32_t *a, const uint32_t *b, uint32_t bimm)
ADD32_BODY(V4U, 4)

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
/* the same eight lanes at a time on hosts with AVX2, chosen at run time */
typedef uint32_t V8U __attribute__((vector_size(32)));
typedef int32_t V8S __attribute__((vector_size(32)));
/* (the lane masks straight from the compares by movemask: the generic body's weights and
 * final horizontal OR cost three times as much) */
__attribute__((target("avx2")))
static inline void cmp32_8(const uint32_t *a, const uint32_t *b, uint32_t bimm, int sg, uint32_t *lt, uint32_t *eq)
{
	const __m256i f = _mm256_set1_epi32(sg ? 0 : INT32_MIN);
	__m256i vb = _mm256_xor_si256(_mm256_set1_epi32((int32_t)bimm), f);
	uint32_t l = 0, e = 0;

UNROLL(4)
	for (int j = 0; j < 4; j++) {
		__m256i va = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * j)), f);
		if (b)
			vb = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(b + 8 * j)), f);
		l |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(vb, va))) << (8 * j);
		e |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(va, vb))) << (8 * j);
	}
	*lt = l;
	*eq = e;
}
__attribute__((target("avx2")))
static inline void add32_8(uint32_t *d, const uint32_t *a, const uint32_t *b, uint32_t bimm)
ADD32_BODY(V8U, 8)
#else
#define cmp32_8 cmp32_4
#define add32_8 add32_4
#endif

/* which of lt, eq, gt make an integer compare true (bits 0, 1, 2) */
static const uint8_t truth[CMP_COUNT] = {
	[CMP_LT] = 1, [CMP_EQ] = 2, [CMP_LE] = 3, [CMP_GT] = 4, [CMP_NE] = 5, [CMP_GE] = 6,
	[CMP_NUM] = 7, [CMP_LTU] = 1, [CMP_EQU] = 2, [CMP_LEU] = 3, [CMP_GTU] = 4,
	[CMP_NEU] = 5, [CMP_GEU] = 6, [CMP_T] = 7,
};

#endif
