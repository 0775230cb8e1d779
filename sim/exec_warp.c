/* exec_warp.c - the ops that read other lanes' registers: SHFL (PTX shfl's lane
 * arithmetic), MATCH and REDUX over the guard-true active lanes (docs/isa.md, section 10).
 * VOTE, which reads predicates only, is in sim_issue. */
#include "sim/exec.h"

void sim_shfl(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t vals[32], ok = 0;

	for (unsigned l = 0; l < 32; l++)
		vals[l] = REG(d->o[2].reg, l);     /* every lane's value before any write */
	FOR_LANES(ex) {
		uint32_t b = src(g, w, &d->o[3], l) & 31, c = src(g, w, &d->o[4], l);
		uint32_t clamp = c & 31, seg = (c >> 8) & 31;
		uint32_t maxl = (l & seg) | (clamp & ~seg), minl = l & seg;
		uint32_t j = l;
		int p = 0;
		switch ((int)d->m.sub) {
		case SUB_UP: j = l - b; p = (int32_t)j >= (int32_t)maxl; break;
		case SUB_DOWN: j = l + b; p = j <= maxl; break;
		case SUB_BFLY: j = l ^ b; p = j <= maxl; break;
		default: j = minl | (b & ~seg); p = j <= maxl; break;   /* IDX */
		}
		if (!p)
			j = l;
		REG(d->o[1].reg, l) = vals[j & 31];
		ok |= (uint32_t)p << l;
	}
	setp(w, &d->o[0], ok, ex);
}

void sim_match(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	int wide = is64((Type)d->m.dtype);
	uint64_t v[32];
	uint32_t alleq = 1;

	FOR_LANES(ex)
		v[l] = wide ? src64(g, w, &d->o[2], l) : src(g, w, &d->o[2], l);
	FOR_LANES(ex)
		if (v[l] != v[__builtin_ctz(ex)])
			alleq = 0;
	FOR_LANES(ex) {
		uint32_t m = 0;
		if (d->m.sub == SUB_ALL)
			m = alleq ? ex : 0;
		else
			for (uint32_t k = ex; k; k &= k - 1)
				if (v[__builtin_ctz(k)] == v[l])
					m |= 1u << __builtin_ctz(k);
		REG(d->o[1].reg, l) = m;
	}
	setp(w, &d->o[0], alleq ? ~0u : 0, ex);
}

void sim_redux(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	int sgn = issgn((Type)d->m.dtype);
	uint32_t acc = 0;
	int first = 1;

	FOR_LANES(ex) {
		uint32_t v = src(g, w, &d->o[1], l);
		if (first) {
			acc = v;
			first = 0;
			continue;
		}
		switch ((int)d->m.sub) {
		case SUB_MIN: acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
		case SUB_MAX: acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
		case SUB_AND: acc &= v; break;
		case SUB_OR: acc |= v; break;
		case SUB_XOR: acc ^= v; break;
		default: acc += v; break;     /* SUM */
		}
	}
	FOR_LANES(ex)
		REG(d->o[0].reg, l) = acc;
}
