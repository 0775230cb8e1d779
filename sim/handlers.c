/* handlers.c - the decode-time handlers of the common forms of the hot ops (sim_choose_fn,
 * sim_choose_s2r): register or immediate operands without modifiers, one handler chosen per
 * instruction at decode, so that the issue needs no format test and no switch. The bodies
 * run eight lanes at a time on x86-64 hosts with AVX2 and FMA (probed once before main),
 * four at a time elsewhere (GNU vector extensions). */
#include "sim/lanes.h"

/* what the host's CPU has, asked once before main (a constructor: no thread runs yet, and it
 * must initialise the CPU model itself): popcnt for timing.h's sim_popc, AVX2 and FMA for
 * the bodies sim_choose_fn chooses */
int sim_hw_popc, sim_hw_avx2;
static int hw_fma;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((constructor)) static void probe_cpu(void)
{
	__builtin_cpu_init();
	sim_hw_popc = __builtin_cpu_supports("popcnt") != 0;
	sim_hw_avx2 = __builtin_cpu_supports("avx2") != 0;
	hw_fma = sim_hw_avx2 && __builtin_cpu_supports("fma");
}
#endif

/* the bit of lane l, for masks built over all 32 lanes at once (a table rather than 1u << l:
 * SSE2 has no shift by a vector of counts) */
static const uint32_t lane_bit[32] = {
	1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7,
	1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
	1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
	1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31,
};
/* all ones when lane l's bit of x is set, else zero */
#define LANE_ON(x, l) (0u - (uint32_t)(((x) & lane_bit[l]) != 0))
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* v in the lanes of ex among lanes j to j + 7, rd's old values in the others (the merge of a
 * partial warp's AVX2 bodies) */
__attribute__((target("avx2"))) static inline __m256i
merge8(const void *rd, __m256i v, uint32_t ex, int j)
{
	__m256i bit = _mm256_loadu_si256((const __m256i *)(const void *)(lane_bit + j));
	__m256i on = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int32_t)ex), bit), bit);
	return _mm256_blendv_epi8(_mm256_loadu_si256((const __m256i *)(const void *)((const uint32_t *)rd + j)), v, on);
}
#endif

/* a handler of one body X##_body in two forms: X##_fn, and on x86-64 X##_fn8 compiled for
 * AVX2, whose lane loops the compiler vectorises eight lanes a step (FN8(X): the one for
 * this host, chosen at decode) */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TWO_BODIES(X) \
static void X##_fn(Warp *w, const DIns *d, uint32_t ex) { X##_body(w, d, ex); } \
__attribute__((target("avx2"))) static void X##_fn8(Warp *w, const DIns *d, uint32_t ex) \
{ X##_body(w, d, ex); }
#define FN8(X) (sim_hw_avx2 ? X##_fn8 : X##_fn)
#else
#define TWO_BODIES(X) static void X##_fn(Warp *w, const DIns *d, uint32_t ex) { X##_body(w, d, ex); }
#define FN8(X) X##_fn
#endif

/* rd[l] = EXPR for the lanes ex, as one loop over the 32 lanes that the compiler vectorises
 * (rd is a row of its own or exactly a source's, never a part of one: ivdep), unrolled to
 * straight code (four steps of eight lanes on AVX2: no loop counter). Another mask
 * than a full warp computes every lane and keeps rd's old value where ex's bit is clear: no
 * branch per lane, and no loop whose trip count is the mask's population. EXPR must be
 * pure and defined for any lane's values (it runs for the inactive lanes too). */
#define LANES(ex, EXPR) do { \
	const uint32_t ex_ = (ex); \
	if (ex_ == ~0u) { \
		IVDEP UNROLL(4) for (uint32_t l = 0; l < 32; l++) \
			rd[l] = (EXPR); \
	} else { \
		IVDEP UNROLL(4) for (uint32_t l = 0; l < 32; l++) { \
			uint32_t on_ = LANE_ON(ex_, l); \
			rd[l] = ((EXPR) & on_) | (rd[l] & ~on_); \
		} \
	} \
} while (0)

/* ---------------------------------------------------------------- decode-time handlers */
/* The common forms of the hot ops (register or immediate operands without modifiers),
 * chosen once per instruction by sim_choose_fn: no per-issue format test, no switch, and
 * the AVX2 or SSE2 body picked at decode. None can fault. */

/* IADD d, a, b|imm without .X, .CC, .SAT or operand modifiers */
#define IADD_FN(ADD) { \
	uint32_t *rd = ROW(d->o[0]), im = (uint32_t)d->o[2].imm; \
	const uint32_t *ra = ROW(d->o[1]); \
	const uint32_t *rb = d->o[2].kind == DK_REG ? ROW(d->o[2]) : NULL; \
	if (ex == ~0u) \
		ADD(rd, ra, rb, im); \
	else if (rb) \
		LANES(ex, ra[l] + rb[l]); \
	else \
		LANES(ex, ra[l] + im); \
}
/* ISETP p, q, a, b|imm, c of 32 bits without .X or operand modifiers; d->aux: the truth
 * bits of its compare, bit 3 signed */
#define ISETP_FN(CMP) { \
	uint32_t lt, eq, m, c = pmask(w, &d->o[4]), tt = d->aux; \
	CMP(ROW(d->o[2]), d->o[3].kind == DK_REG ? ROW(d->o[3]) : NULL, \
	    (uint32_t)d->o[3].imm, (int)(tt >> 3), &lt, &eq); \
	m = (((tt & 1) ? lt : 0) | ((tt & 2) ? eq : 0) | ((tt & 4) ? ~(lt | eq) : 0)) & ex; \
	setp(w, &d->o[0], bop((Bop)d->m.bop, m, c), ex); \
	setp(w, &d->o[1], bop((Bop)d->m.bop, ~m, c), ex); \
}
static void iadd_fn4(Warp *w, const DIns *d, uint32_t ex) IADD_FN(add32_4)
static void isetp_fn4(Warp *w, const DIns *d, uint32_t ex) ISETP_FN(cmp32_4)
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* the AVX2 IADD of the plain form, b's kind chosen at decode: a full warp needs no test but
 * the mask's */
__attribute__((target("avx2"))) static void iadd_rr8(Warp *w, const DIns *d, uint32_t ex)
{
	V8U va, vb;
	uint32_t *rd = ROW(d->o[0]);
	const uint32_t *ra = ROW(d->o[1]), *rb = ROW(d->o[2]);

	if (ex != ~0u) {
		LANES(ex, ra[l] + rb[l]);
		return;
	}
UNROLL(4)
	for (int j = 0; j < 32; j += 8) {
		memcpy(&va, ra + j, sizeof va);
		memcpy(&vb, rb + j, sizeof vb);
		va += vb;
		memcpy(rd + j, &va, sizeof va);
	}
}
__attribute__((target("avx2"))) static void iadd_ri8(Warp *w, const DIns *d, uint32_t ex)
{
	V8U va, vb;
	uint32_t *rd = ROW(d->o[0]), im = (uint32_t)d->o[2].imm;
	const uint32_t *ra = ROW(d->o[1]);

	if (ex != ~0u) {
		LANES(ex, ra[l] + im);
		return;
	}
	vb = (V8U){im, im, im, im, im, im, im, im};
UNROLL(4)
	for (int j = 0; j < 32; j += 8) {
		memcpy(&va, ra + j, sizeof va);
		va += vb;
		memcpy(rd + j, &va, sizeof va);
	}
}

/* the AVX2 ISETP of the plain form, one compare per eight lanes: a < b, a == b or a > b
 * (ISETP_LT, _EQ, _GT in d->aux's low bits) gives every integer compare with ISETP_INV
 * inverting it (LE is not GT, NE not EQ, GE not LT); unsigned order is the signed order
 * with the sign bits flipped (ISETP_SG clear). ISETP_PT: c is PT and the combiner AND (or
 * none), so p = m and q = ~m. */
enum { ISETP_LT, ISETP_EQ, ISETP_GT, ISETP_INV = 4, ISETP_SG = 8, ISETP_PT = 16 };
/* the lane mask of 32 lanes' compare results, eight a vector (all ones or zero each):
 * packed to bytes, which the packs (per 128-bit half) leave as the four-lane groups 0 2 4 6
 * 1 3 5 7 */
__attribute__((target("avx2"))) static inline uint32_t
mask32(__m256i c0, __m256i c1, __m256i c2, __m256i c3)
{
	__m256i p = _mm256_packs_epi16(_mm256_packs_epi32(c0, c1), _mm256_packs_epi32(c2, c3));
	p = _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
	return (uint32_t)_mm256_movemask_epi8(p);
}

/* m: the compare CMP of a and b (b's lanes loaded when BREG holds, else vb as it is) */
#define CMP8_LOOP(BREG, CMP) { \
	__m256i cv[4]; \
	UNROLL(4) \
	for (int j = 0; j < 4; j++) { \
		__m256i va = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(a + 8 * j)), f); \
		if (BREG) \
			vb = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(b + 8 * j)), f); \
		cv[j] = CMP; \
	} \
	m = mask32(cv[0], cv[1], cv[2], cv[3]); \
}
__attribute__((target("avx2")))
static void isetp_fn8(Warp *w, const DIns *d, uint32_t ex)
{
	const uint32_t *a = ROW(d->o[2]);
	const uint32_t *b = d->o[3].kind == DK_REG ? ROW(d->o[3]) : NULL;
	unsigned k = d->aux;
	const __m256i f = _mm256_set1_epi32((k & ISETP_SG) ? 0 : INT32_MIN);
	__m256i vb = _mm256_xor_si256(_mm256_set1_epi32((int32_t)d->o[3].imm), f);
	uint32_t m, c;

	switch (k & 3) {
	case ISETP_LT: CMP8_LOOP(b, _mm256_cmpgt_epi32(vb, va)) break;
	case ISETP_EQ: CMP8_LOOP(b, _mm256_cmpeq_epi32(va, vb)) break;
	default: CMP8_LOOP(b, _mm256_cmpgt_epi32(va, vb)) break;
	}
	if (k & ISETP_INV)
		m = ~m;
	m &= ex;
	if (k & ISETP_PT) {
		setp(w, &d->o[0], m, ex);
		setp(w, &d->o[1], ~m, ex);
		return;
	}
	c = pmask(w, &d->o[4]);
	setp(w, &d->o[0], bop((Bop)d->m.bop, m, c), ex);
	setp(w, &d->o[1], bop((Bop)d->m.bop, ~m, c), ex);
}

/* the PT form (ISETP_PT) with its compare, b's kind (BREG: a register) and its signedness
 * (SG; EQ's is either) chosen at decode: a full warp with no test but the mask's, its
 * predicates stored whole (ex is every lane); another mask merges them into the lanes ex
 * (as isetp_fn8 does, but without its switch over the compares) */
#define ISETP_PT8(NAME, BREG, SG, CMP) \
__attribute__((target("avx2"))) static void NAME(Warp *w, const DIns *d, uint32_t ex) \
{ \
	const uint32_t *a = ROW(d->o[2]), *b = ROW(d->o[3]); \
	const __m256i f = _mm256_set1_epi32((SG) ? 0 : INT32_MIN); \
	__m256i vb = _mm256_xor_si256(_mm256_set1_epi32((int32_t)d->o[3].imm), f); \
	uint32_t m; \
	CMP8_LOOP(BREG, CMP) \
	m ^= 0u - (uint32_t)(d->aux >> 2 & 1);  /* (ISETP_INV) */ \
	if (ex != ~0u) { \
		setp(w, &d->o[0], m, ex); \
		setp(w, &d->o[1], ~m, ex); \
		return; \
	} \
	w->p[d->o[0].reg] = m; \
	w->p[d->o[1].reg] = ~m; \
	w->p[ISA_PT] = 0xffffffffu; \
}
ISETP_PT8(isetp_lt_r8s, 1, 1, _mm256_cmpgt_epi32(vb, va))
ISETP_PT8(isetp_lt_i8s, 0, 1, _mm256_cmpgt_epi32(vb, va))
ISETP_PT8(isetp_lt_r8u, 1, 0, _mm256_cmpgt_epi32(vb, va))
ISETP_PT8(isetp_lt_i8u, 0, 0, _mm256_cmpgt_epi32(vb, va))
ISETP_PT8(isetp_eq_r8, 1, 1, _mm256_cmpeq_epi32(va, vb))
ISETP_PT8(isetp_eq_i8, 0, 1, _mm256_cmpeq_epi32(va, vb))
ISETP_PT8(isetp_gt_r8s, 1, 1, _mm256_cmpgt_epi32(va, vb))
ISETP_PT8(isetp_gt_i8s, 0, 1, _mm256_cmpgt_epi32(va, vb))
ISETP_PT8(isetp_gt_r8u, 1, 0, _mm256_cmpgt_epi32(va, vb))
ISETP_PT8(isetp_gt_i8u, 0, 0, _mm256_cmpgt_epi32(va, vb))

/* ISETP_* of the truth bits tt of a compare (bit 0 lt, 1 eq, 2 gt), -1: always or never */
static int isetp_kind(unsigned tt)
{
	switch (tt) {
	case 1: return ISETP_LT;
	case 2: return ISETP_EQ;
	case 4: return ISETP_GT;
	case 3: return ISETP_GT | ISETP_INV;
	case 5: return ISETP_EQ | ISETP_INV;
	case 6: return ISETP_LT | ISETP_INV;
	default: return -1;
	}
}
#else
#define iadd_rr8 iadd_fn4
#define iadd_ri8 iadd_fn4
#endif

/* FFMA d, a, b, c of registers without operand modifiers (ar_f32_fma_lanes picks its body) */
static void ffma_fn(Warp *w, const DIns *d, uint32_t ex)
{
	ar_f32_fma_lanes(ROW(d->o[0]), ROW(d->o[1]), ROW(d->o[2]),
	                 ROW(d->o[3]), ex, (Rnd)d->m.rnd, !!(d->m.flags & MF_FTZ),
	                 !!(d->m.flags & MF_SAT));
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* the same rounding to nearest without .FTZ or .SAT on hosts with AVX2 and FMA: eight lanes
 * per fused multiply-add, a NaN result made the canonical NaN as ar_f32_fma_lanes does (each
 * step reads its eight lanes before it writes them, so d may be a source); a partial warp's
 * every lane, merged into the lanes ex */
__attribute__((target("avx2,fma")))
static void ffma_fn8(Warp *w, const DIns *d, uint32_t ex)
{
	float *rd = (float *)(void *)ROW(d->o[0]);
	const float *ra = (const float *)(const void *)ROW(d->o[1]);
	const float *rb = (const float *)(const void *)ROW(d->o[2]);
	const float *rc = (const float *)(const void *)ROW(d->o[3]);
	const __m256 qnan = _mm256_castsi256_ps(_mm256_set1_epi32((int32_t)AR_F32_NAN));

UNROLL(4)
	for (int j = 0; j < 32; j += 8) {
		__m256 v = _mm256_fmadd_ps(_mm256_loadu_ps(ra + j), _mm256_loadu_ps(rb + j), _mm256_loadu_ps(rc + j));
		v = _mm256_blendv_ps(v, qnan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
		if (ex != ~0u)
			v = _mm256_castsi256_ps(merge8(rd, _mm256_castps_si256(v), ex, j));
		_mm256_storeu_ps(rd + j, v);
	}
}
#else
#define ffma_fn8 ffma_fn
#endif

/* MOV d, a|imm of 32 bits */
static inline __attribute__((always_inline)) void
mov_body(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]);

	if (d->o[1].kind == DK_REG) {
		const uint32_t *ra = ROW(d->o[1]);
		if (ex == ~0u)
			memmove(rd, ra, 32 * sizeof *rd);
		else
			LANES(ex, ra[l]);
	} else {
		uint32_t v = (uint32_t)d->o[1].imm;
		LANES(ex, v);
	}
}
TWO_BODIES(mov)

/* IADD d, a, b|imm with .CC or .X (no .SAT, no operand modifiers): iadd_lanes's sum with
 * the condition code built as its four lane masks (each lane reads and writes only its own
 * bits, so the old flags are read once) */
static void iaddcc_fn(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]), im = (uint32_t)d->o[2].imm;
	const uint32_t *ra = ROW(d->o[1]);
	const uint32_t *rb = d->o[2].kind == DK_REG ? ROW(d->o[2]) : NULL;
	int x = !!(d->m.flags & MF_X);
	uint32_t cin = x ? w->cc[1] : 0, s = 0, c = 0, z = 0, o = 0;

	FOR_LANES(ex) {
		uint32_t u = ra[l], v = rb ? rb[l] : im, r;
		uint64_t sum = (uint64_t)u + v + (cin >> l & 1);
		rd[l] = r = (uint32_t)sum;
		s |= (r >> 31) << l;
		c |= (uint32_t)(sum >> 32) << l;
		z |= (uint32_t)(r == 0) << l;
		o |= (((u ^ r) & (v ^ r)) >> 31) << l;
	}
	if (!(d->m.flags & MF_CC))
		return;
	if (x)                                  /* .X: zero only when the low word was too */
		z &= w->cc[2];
	w->cc[0] = (w->cc[0] & ~ex) | (s & ex);
	w->cc[1] = (w->cc[1] & ~ex) | (c & ex);
	w->cc[2] = (w->cc[2] & ~ex) | (z & ex);
	w->cc[3] = (w->cc[3] & ~ex) | (o & ex);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* the same on hosts with AVX2, eight lanes a step: the carry of a + b + cin is a + b < a or
 * the sum < a + b (unsigned order: the signed order with the sign bits flipped), and each
 * flag's 32 lanes a mask (mask32 takes their sign bits); a partial warp computes every lane
 * and merges the sums and the flags into the lanes ex */
__attribute__((target("avx2"))) static void iaddcc_fn8(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]);
	const uint32_t *ra = ROW(d->o[1]);
	const uint32_t *rb = d->o[2].kind == DK_REG ? ROW(d->o[2]) : NULL;
	int x = !!(d->m.flags & MF_X), part = ex != ~0u;
	const __m256i sg = _mm256_set1_epi32(INT32_MIN), one = _mm256_set1_epi32(1);
	const __m256i cin = _mm256_set1_epi32(x ? (int32_t)w->cc[1] : 0);
	__m256i vb = _mm256_set1_epi32((int32_t)d->o[2].imm), vr[4], vc[4], vz[4], vo[4];
	uint32_t z;

UNROLL(4)
	for (int j = 0; j < 4; j++) {
		__m256i va = _mm256_loadu_si256((const __m256i *)(const void *)(ra + 8 * j)), t, r, st;
		__m256i ci = _mm256_and_si256(_mm256_srlv_epi32(cin, _mm256_setr_epi32(8 * j, 8 * j + 1,
		             8 * j + 2, 8 * j + 3, 8 * j + 4, 8 * j + 5, 8 * j + 6, 8 * j + 7)), one);
		if (rb)
			vb = _mm256_loadu_si256((const __m256i *)(const void *)(rb + 8 * j));
		t = _mm256_add_epi32(va, vb);
		r = st = _mm256_add_epi32(t, ci);
		if (part)
			st = merge8(rd, r, ex, 8 * j);
		_mm256_storeu_si256((__m256i *)(void *)(rd + 8 * j), st);
		vr[j] = r;
		vc[j] = _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_xor_si256(va, sg), _mm256_xor_si256(t, sg)),
		                        _mm256_cmpgt_epi32(_mm256_xor_si256(t, sg), _mm256_xor_si256(r, sg)));
		vz[j] = _mm256_cmpeq_epi32(r, _mm256_setzero_si256());
		vo[j] = _mm256_and_si256(_mm256_xor_si256(va, r), _mm256_xor_si256(vb, r));
	}
	if (!(d->m.flags & MF_CC))
		return;
	z = mask32(vz[0], vz[1], vz[2], vz[3]);
	if (x)                                  /* .X: zero only when the low word was too */
		z &= w->cc[2];
	w->cc[0] = (w->cc[0] & ~ex) | (mask32(vr[0], vr[1], vr[2], vr[3]) & ex);
	w->cc[1] = (w->cc[1] & ~ex) | (mask32(vc[0], vc[1], vc[2], vc[3]) & ex);
	w->cc[2] = (w->cc[2] & ~ex) | (z & ex);
	w->cc[3] = (w->cc[3] & ~ex) | (mask32(vo[0], vo[1], vo[2], vo[3]) & ex);
}
#else
#define iaddcc_fn8 iaddcc_fn
#endif


/* IMUL d, a, b|imm and IMAD d, a, b|imm, c|imm of 32 bits, the low word, without .HI, .WIDE,
 * .X, .CC or operand modifiers: the low word of a product is the same signed or not */
static inline __attribute__((always_inline)) void
imul_body(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]), ib = (uint32_t)d->o[2].imm, ic = (uint32_t)d->o[3].imm;
	const uint32_t *ra = ROW(d->o[1]);
	const uint32_t *rb = d->o[2].kind == DK_REG ? ROW(d->o[2]) : NULL;
	const uint32_t *rc = d->o[3].kind == DK_REG ? ROW(d->o[3]) : NULL;

	if (d->op == OP_IMUL)
		ic = 0, rc = NULL;
	if (rb && rc)
		LANES(ex, ra[l] * rb[l] + rc[l]);
	else if (rb)
		LANES(ex, ra[l] * rb[l] + ic);
	else if (rc)
		LANES(ex, ra[l] * ib + rc[l]);
	else
		LANES(ex, ra[l] * ib + ic);
}
TWO_BODIES(imul)

/* LOP d, a, b|imm without operand modifiers (no ~): AND, OR, XOR or PASS_B */
static inline __attribute__((always_inline)) void
lop_body(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]), ib = (uint32_t)d->o[2].imm;
	const uint32_t *ra = ROW(d->o[1]);
	const uint32_t *rb = d->o[2].kind == DK_REG ? ROW(d->o[2]) : NULL;

	switch ((int)d->m.sub) {
	case SUB_OR:
		if (rb) LANES(ex, ra[l] | rb[l]); else LANES(ex, ra[l] | ib);
		break;
	case SUB_XOR:
		if (rb) LANES(ex, ra[l] ^ rb[l]); else LANES(ex, ra[l] ^ ib);
		break;
	case SUB_PASS_B:
		if (rb) LANES(ex, rb[l]); else LANES(ex, ib);
		break;
	default:
		if (rb) LANES(ex, ra[l] & rb[l]); else LANES(ex, ra[l] & ib);
		break;
	}
}
TWO_BODIES(lop)

/* SHL and SHR d, a, b|imm of 32 bits without operand modifiers: a count of 32 or more
 * (after .W's wrap) shifts every bit out, SHR.S32's (the default type's) sign in */
static inline __attribute__((always_inline)) void
shift_body(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]);
	const uint32_t *ra = ROW(d->o[1]);
	const uint32_t *rb = d->o[2].kind == DK_REG ? ROW(d->o[2]) : NULL;
	uint32_t wrap = (d->m.flags & MF_W) ? 31 : ~0u, n = (uint32_t)d->o[2].imm & wrap;

	if (d->op == OP_SHL) {
		if (rb)
			LANES(ex, (rb[l] & wrap) >= 32 ? 0 : ra[l] << (rb[l] & wrap));
		else if (n >= 32)
			LANES(ex, 0);
		else
			LANES(ex, ra[l] << n);
	} else if (issgn(itype(d))) {
		if (rb)
			LANES(ex, (uint32_t)((int32_t)ra[l] >> ((rb[l] & wrap) > 31 ? 31 : rb[l] & wrap)));
		else
			LANES(ex, (uint32_t)((int32_t)ra[l] >> (n > 31 ? 31 : n)));
	} else {
		if (rb)
			LANES(ex, (rb[l] & wrap) > 31 ? 0 : ra[l] >> (rb[l] & wrap));
		else if (n > 31)
			LANES(ex, 0);
		else
			LANES(ex, ra[l] >> n);
	}
}
TWO_BODIES(shift)

/* SEL d, a, b|imm, p of 32 bits without operand modifiers on a and b: d = p ? a : b */
static inline __attribute__((always_inline)) void
sel_body(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]), ib = (uint32_t)d->o[2].imm, c = pmask(w, &d->o[3]);
	const uint32_t *ra = ROW(d->o[1]);
	const uint32_t *rb = d->o[2].kind == DK_REG ? ROW(d->o[2]) : NULL;

	if (rb)
		LANES(ex, (ra[l] & LANE_ON(c, l)) | (rb[l] & ~LANE_ON(c, l)));
	else
		LANES(ex, (ra[l] & LANE_ON(c, l)) | (ib & ~LANE_ON(c, l)));
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
static void sel_fn(Warp *w, const DIns *d, uint32_t ex) { sel_body(w, d, ex); }
/* lane l's shift that brings bit l of a mask to bit 31 (31 - l) */
static const uint32_t lane_shl[32] = {
	31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
	15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
};
/* the same on hosts with AVX2, eight lanes a step: a mask shifted so that each lane's bit is
 * its sign bit, which is all that a blendv_ps reads, picks a or b by p; a partial warp's
 * inactive lanes take their old values back the same way (by ~ex) */
__attribute__((target("avx2"))) static void sel_fn8(Warp *w, const DIns *d, uint32_t ex)
{
	float *rd = (float *)(void *)ROW(d->o[0]);
	const float *ra = (const float *)(const void *)ROW(d->o[1]);
	const float *rb = d->o[2].kind == DK_REG ? (const float *)(const void *)ROW(d->o[2]) : NULL;
	const __m256i vc = _mm256_set1_epi32((int32_t)pmask(w, &d->o[3]));
	const __m256i vn = _mm256_set1_epi32((int32_t)~ex);
	__m256 vb = _mm256_castsi256_ps(_mm256_set1_epi32((int32_t)d->o[2].imm));

UNROLL(4)
	for (int j = 0; j < 32; j += 8) {
		__m256i sh = _mm256_loadu_si256((const __m256i *)(const void *)(lane_shl + j));
		__m256 v;
		if (rb)
			vb = _mm256_loadu_ps(rb + j);
		v = _mm256_blendv_ps(vb, _mm256_loadu_ps(ra + j), _mm256_castsi256_ps(_mm256_sllv_epi32(vc, sh)));
		if (ex != ~0u)
			v = _mm256_blendv_ps(v, _mm256_loadu_ps(rd + j), _mm256_castsi256_ps(_mm256_sllv_epi32(vn, sh)));
		_mm256_storeu_ps(rd + j, v);
	}
}
#else
TWO_BODIES(sel)
#endif

/* IADD d, a, b|imm of 32 bits without .X, .CC or .SAT whose operands are negated (-a, -b or
 * both; no ~ or |x|): iadd_lanes's ~x + 1 is -x, so the sum is a's and b's signed values'
 * (x ^ m) - m negates x when m is all ones and keeps it when m is zero */
static inline __attribute__((always_inline)) void
isub_body(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]);
	const uint32_t *ra = ROW(d->o[1]);
	const uint32_t *rb = d->o[2].kind == DK_REG ? ROW(d->o[2]) : NULL;
	uint32_t ma = 0u - (d->o[1].flags & OPF_NEG), mb = 0u - (d->o[2].flags & OPF_NEG);
	uint32_t ib = ((uint32_t)d->o[2].imm ^ mb) - mb;

	if (rb)
		LANES(ex, ((ra[l] ^ ma) - ma) + ((rb[l] ^ mb) - mb));
	else
		LANES(ex, ((ra[l] ^ ma) - ma) + ib);
}
TWO_BODIES(isub)

/* IMUL.HI d, a, b|imm of 32 bits without .X, .CC or operand modifiers: the high word of the
 * 64-bit product, each factor signed or not as its type says (d->aux: bit 0 a's, bit 1 b's) */
static inline __attribute__((always_inline)) void
imulhi_body(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]), ib = (uint32_t)d->o[2].imm;
	const uint32_t *ra = ROW(d->o[1]);
	const uint32_t *rb = d->o[2].kind == DK_REG ? ROW(d->o[2]) : NULL;
	int sa = d->aux & 1, sb = d->aux >> 1 & 1;

#define XT(v, sg) ((sg) ? (uint64_t)(int64_t)(int32_t)(v) : (uint64_t)(v))
	if (rb)
		LANES(ex, (uint32_t)(XT(ra[l], sa) * XT(rb[l], sb) >> 32));
	else
		LANES(ex, (uint32_t)(XT(ra[l], sa) * XT(ib, sb) >> 32));
#undef XT
}
TWO_BODIES(imulhi)

/* MOV.64 d, a|imm: a pair register to register is two rows (pairs are even registers, so
 * a's rows are d's or others) */
static inline __attribute__((always_inline)) void
mov64_body(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]), lo = (uint32_t)d->o[1].imm, hi = (uint32_t)(d->o[1].imm >> 32);

	if (d->o[1].kind == DK_REG) {
		const uint32_t *ra = ROW(d->o[1]);
		LANES(ex, ra[l]);
		rd += 32, ra += 32;
		LANES(ex, ra[l]);
		return;
	}
	LANES(ex, lo);
	rd += 32;
	LANES(ex, hi);
}
TWO_BODIES(mov64)

/* PSETP p, q, a, b, c: p = (a bop b) bop2 c, q = !(a bop b) bop2 c */
static void psetp_fn(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t ab = bop((Bop)d->m.bop, pmask(w, &d->o[2]), pmask(w, &d->o[3]));
	uint32_t c = pmask(w, &d->o[4]);

	setp(w, &d->o[0], bop((Bop)d->m.bop2, ab, c), ex);
	setp(w, &d->o[1], bop((Bop)d->m.bop2, ~ab, c), ex);
}

/* the ops that do nothing (NOP, CCTL, TEXDEPBAR): a handler makes them lean, and their .S
 * forms lean when no lane's guard holds (LEAN_QUIET) */
static void nop_fn(Warp *w, const DIns *d, uint32_t ex)
{
	(void)w, (void)d, (void)ex;
}

/* S2R of the special registers a warp knows by itself (sim_choose_s2r; exec.c's sreg() has
 * every one): a value fixed at decode (d->karg[0]), the lane's CTA coordinate d->aux, the
 * lane index, or a thread index (d->aux 0, 1, 2 for x, y, z) of the block of d->karg[0] x
 * d->karg[1] threads: sreg's t % x, t / x % y and t / (x * y) of the warp's linear thread
 * indexes t, stepped lane by lane from the first's (no division per lane) */
static void s2r_const_fn(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]), v = d->karg[0];

	LANES(ex, v);
}
static void s2r_ctaid_fn(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]), v = w->cta->id[d->aux];

	LANES(ex, v);
}
static void s2r_laneid_fn(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]);

	LANES(ex, l);
}
static void s2r_tid_fn(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]), bx = d->karg[0], by = d->karg[1], v[32];
	uint32_t t = (uint32_t)w->idx * 32, i[3] = {t % bx, t / bx % by, t / bx / by};

	for (int l = 0; l < 32; l++) {
		v[l] = i[d->aux];
		if (++i[0] == bx) {
			i[0] = 0;
			if (++i[1] == by)
				i[1] = 0, i[2]++;
		}
	}
	LANES(ex, v[l]);
}

/* sets d->fn for an S2R of the block's dimensions block and the grid's grid (exec.c's sreg()
 * for the others: clocks, the SM and warp ids, lane masks, the environment registers) */
void sim_choose_s2r(DIns *d, const uint32_t block[3], const uint32_t grid[3])
{
	SReg r = (SReg)d->o[1].imm;

	if (d->o[1].kind != DK_SREG || !block[0] || !block[1] || !block[2])
		return;
	switch (r) {
	case SR_TID_X: case SR_TID_Y: case SR_TID_Z:
		d->aux = (uint8_t)(r - SR_TID_X);
		d->karg[0] = block[0];
		d->karg[1] = block[1];
		d->fn = s2r_tid_fn;
		break;
	case SR_NTID_X: case SR_NTID_Y: case SR_NTID_Z:
		d->karg[0] = block[r - SR_NTID_X];
		d->fn = s2r_const_fn;
		break;
	case SR_NCTAID_X: case SR_NCTAID_Y: case SR_NCTAID_Z:
		d->karg[0] = grid[r - SR_NCTAID_X];
		d->fn = s2r_const_fn;
		break;
	case SR_GRIDID:
		d->karg[0] = 1;
		d->fn = s2r_const_fn;
		break;
	case SR_CTAID_X: case SR_CTAID_Y: case SR_CTAID_Z:
		d->aux = (uint8_t)(r - SR_CTAID_X);
		d->fn = s2r_ctaid_fn;
		break;
	case SR_LANEID:
		d->fn = s2r_laneid_fn;
		break;
	case SR_WARPID: case SR_NWARPID: case SR_SMID: case SR_NSMID: case SR_CLOCKLO:
	case SR_CLOCKHI: case SR_GLOBALTIMERLO: case SR_GLOBALTIMERHI: case SR_EQMASK:
	case SR_LTMASK: case SR_LEMASK: case SR_GTMASK: case SR_GEMASK: case SR_ENVREG1:
	case SR_ENVREG2: case SR_SMEMSZ: case SR_COUNT:
		break;
	}
}

/* I2F.F32.S32 d, a of a register without .SAT or an operand modifier, rounding to nearest:
 * the host's conversion, exact below 2^24 and rounding to nearest-even above, as ar_cvt's
 * (eight lanes at a time on hosts with AVX2, a partial warp's merged into the lanes ex) */
static void i2f_fn(Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t *rd = ROW(d->o[0]);
	const uint32_t *ra = ROW(d->o[1]);

	FOR_LANES(ex) {
		float f = (float)(int32_t)ra[l];
		memcpy(&rd[l], &f, sizeof f);
	}
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) static void i2f_fn8(Warp *w, const DIns *d, uint32_t ex)
{
	float *rd = (float *)(void *)ROW(d->o[0]);
	const uint32_t *ra = ROW(d->o[1]);

UNROLL(4)
	for (int j = 0; j < 32; j += 8) {
		__m256 v = _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)(const void *)(ra + j)));
		if (ex != ~0u)
			v = _mm256_castsi256_ps(merge8(rd, _mm256_castps_si256(v), ex, j));
		_mm256_storeu_ps(rd + j, v);
	}
}
#else
#define i2f_fn8 i2f_fn
#endif

/* FADD and FMUL d, a, b|imm rounding to nearest without .FTZ, .SAT or operand modifiers:
 * eight lanes at a time on hosts with AVX2 (a NaN result made the canonical NaN as
 * ar_f32_add does; a partial warp's every lane, merged into the lanes ex), else lane by
 * lane */
#define FBIN_FN(NAME, AR, VOP) \
static void NAME(Warp *w, const DIns *d, uint32_t ex) \
{ \
	uint32_t *rd = ROW(d->o[0]), ib = (uint32_t)d->o[2].imm; \
	const uint32_t *ra = ROW(d->o[1]); \
	const uint32_t *rb = d->o[2].kind == DK_REG ? ROW(d->o[2]) : NULL; \
	FOR_LANES(ex) \
		rd[l] = AR(ra[l], rb ? rb[l] : ib, RND_RN, 0); \
} \
__attribute__((target("avx2"))) static void NAME##8(Warp *w, const DIns *d, uint32_t ex) \
{ \
	float *rd = (float *)(void *)ROW(d->o[0]); \
	const float *ra = (const float *)(const void *)ROW(d->o[1]); \
	const float *rb = d->o[2].kind == DK_REG ? (const float *)(const void *)ROW(d->o[2]) : NULL; \
	const __m256 qnan = _mm256_castsi256_ps(_mm256_set1_epi32((int32_t)AR_F32_NAN)); \
	__m256 vb = _mm256_castsi256_ps(_mm256_set1_epi32((int32_t)d->o[2].imm)); \
	UNROLL(4) \
	for (int j = 0; j < 32; j += 8) { \
		__m256 v; \
		if (rb) \
			vb = _mm256_loadu_ps(rb + j); \
		v = VOP(_mm256_loadu_ps(ra + j), vb); \
		v = _mm256_blendv_ps(v, qnan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q)); \
		if (ex != ~0u) \
			v = _mm256_castsi256_ps(merge8(rd, _mm256_castps_si256(v), ex, j)); \
		_mm256_storeu_ps(rd + j, v); \
	} \
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
FBIN_FN(fadd_fn, ar_f32_add, _mm256_add_ps)
FBIN_FN(fmul_fn, ar_f32_mul, _mm256_mul_ps)
#endif

static int plain(const DOpd *o) { return !o->flags && (o->kind == DK_REG || o->kind == DK_IMM); }
/* plain or negated, no other modifier */
static int negated(const DOpd *o) { return !(o->flags & ~OPF_NEG) && (o->kind == DK_REG || o->kind == DK_IMM); }

void sim_choose_fn(DIns *d)
{
	const DOpd *o = d->o;
	Type t = itype(d);

	d->fn = NULL;
	switch (d->op) {
	case OP_SSY: case OP_BRA: case OP_BRX: case OP_PBK: case OP_BRK: case OP_PCNT:
	case OP_CONT: case OP_CAL: case OP_JCAL: case OP_RET: case OP_PRET: case OP_PEXIT:
	case OP_EXIT:
		d->ctrl = 1;      /* (as exec_op's case for sim_ctrl) */
		break;
	case OP_IADD:
		if (!(d->m.flags & (MF_X | MF_CC | MF_SAT)) && o[1].kind == DK_REG && plain(&o[1]) && plain(&o[2]))
			d->fn = !sim_hw_avx2 ? iadd_fn4 : o[2].kind == DK_REG ? iadd_rr8 : iadd_ri8;
		else if (!(d->m.flags & MF_SAT) && o[1].kind == DK_REG && plain(&o[1]) && plain(&o[2]))
			d->fn = sim_hw_avx2 ? iaddcc_fn8 : iaddcc_fn;
		else if (!(d->m.flags & (MF_X | MF_CC | MF_SAT)) && o[1].kind == DK_REG &&
		         negated(&o[1]) && negated(&o[2]))
			d->fn = FN8(isub);
		break;
	case OP_ISETP:
		if (!is64(t) && !(d->m.flags & MF_X) && o[2].kind == DK_REG && plain(&o[2]) && plain(&o[3])) {
			unsigned tt = d->m.cmp < CMP_COUNT ? truth[d->m.cmp] : 0, sg = issgn(t) || t == TY_NONE;
			d->aux = (uint8_t)(tt | sg << 3);
			d->fn = isetp_fn4;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
			if (sim_hw_avx2 && isetp_kind(tt) >= 0) {
				int pt = o[4].kind == DK_PRED && o[4].reg == ISA_PT && !(o[4].flags & OPF_NOT) &&
				         (d->m.bop == BOP_AND || d->m.bop == BOP_NONE);
				d->aux = (uint8_t)(isetp_kind(tt) | (sg ? ISETP_SG : 0) | (pt ? ISETP_PT : 0));
				d->fn = isetp_fn8;
				if (pt) {
					static ExecFn *const ptfn[3][2][2] = {   /* [kind][b a register][signed] */
						[ISETP_LT] = {{isetp_lt_i8u, isetp_lt_i8s}, {isetp_lt_r8u, isetp_lt_r8s}},
						[ISETP_EQ] = {{isetp_eq_i8, isetp_eq_i8}, {isetp_eq_r8, isetp_eq_r8}},
						[ISETP_GT] = {{isetp_gt_i8u, isetp_gt_i8s}, {isetp_gt_r8u, isetp_gt_r8s}},
					};
					d->fn = ptfn[isetp_kind(tt) & 3][o[3].kind == DK_REG][sg != 0];
				}
			}
#endif
		}
		break;
	case OP_FFMA:
		if (o[1].kind == DK_REG && o[2].kind == DK_REG && o[3].kind == DK_REG &&
		    !o[1].flags && !o[2].flags && !o[3].flags)
			d->fn = (d->m.rnd == RND_NONE || d->m.rnd == RND_RN || d->m.rnd == RND_ROUND) && !(d->m.flags & (MF_FTZ | MF_SAT)) &&
			        hw_fma ? ffma_fn8 : ffma_fn;
		break;
	case OP_MOV:
		if (plain(&o[1]))
			d->fn = is64((Type)d->m.dtype) ? FN8(mov64) : FN8(mov);
		break;
	case OP_PSETP:
		d->fn = psetp_fn;       /* (its operands are predicates, no form needs more) */
		break;
	case OP_NOP:
	case OP_CCTL:
	case OP_TEXDEPBAR:
		d->fn = nop_fn;
		break;
	case OP_MOV32I:
		if (o[1].kind == DK_IMM)
			d->fn = FN8(mov);
		break;
	case OP_LOP:
		if (!(d->m.flags & MF_CC) && o[1].kind == DK_REG && plain(&o[1]) && plain(&o[2]))
			d->fn = FN8(lop);
		break;
	case OP_SHL:
	case OP_SHR:
		if (!is64((Type)d->m.dtype) && o[1].kind == DK_REG && plain(&o[1]) && plain(&o[2]))
			d->fn = FN8(shift);
		break;
	case OP_SEL:
		if (!is64((Type)d->m.dtype) && o[1].kind == DK_REG && plain(&o[1]) && plain(&o[2]))
			d->fn = FN8(sel);
		break;
	case OP_IMUL:
	case OP_IMAD:
		if (!(d->m.flags & (MF_HI | MF_WIDE | MF_X | MF_CC)) && !is64(t) && !is64((Type)d->m.stype) &&
		    o[1].kind == DK_REG && plain(&o[1]) && plain(&o[2]) && (d->op == OP_IMUL || plain(&o[3])))
			d->fn = FN8(imul);
		else if (d->op == OP_IMUL && (d->m.flags & (MF_HI | MF_WIDE | MF_X | MF_CC)) == MF_HI &&
		         !is64(t) && !is64((Type)d->m.stype) && o[1].kind == DK_REG && plain(&o[1]) && plain(&o[2])) {
			Type tb = d->m.stype ? (Type)d->m.stype : t;
			d->aux = (uint8_t)(issgn(t) | issgn(tb) << 1);
			d->fn = FN8(imulhi);
		}
		break;
	case OP_I2F:
		if ((d->m.dtype == TY_NONE || d->m.dtype == TY_F32) && (d->m.stype == TY_NONE || d->m.stype == TY_S32) &&
		    (d->m.rnd == RND_NONE || d->m.rnd == RND_RN || d->m.rnd == RND_ROUND) && !(d->m.flags & MF_SAT) &&
		    o[1].kind == DK_REG && !o[1].flags)
			d->fn = sim_hw_avx2 ? i2f_fn8 : i2f_fn;
		break;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	case OP_FADD:
	case OP_FMUL:
		if ((d->m.rnd == RND_NONE || d->m.rnd == RND_RN) && !(d->m.flags & (MF_FTZ | MF_SAT)) &&
		    !d->m.sub && o[1].kind == DK_REG && plain(&o[1]) && plain(&o[2]))
			d->fn = d->op == OP_FADD ? (sim_hw_avx2 ? fadd_fn8 : fadd_fn) : (sim_hw_avx2 ? fmul_fn8 : fmul_fn);
		break;
#endif
	default:
		break;
	}
}
