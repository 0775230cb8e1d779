/* exec_kepler.c - the ops that only real sm_35 listings hold (ptxas 11.8's, tests/ptxas-ref):
 * compare-to-zero selects, the range reduction before MUFU, the division check, and the
 * predicate file as a word. docs/isa.md gives their semantics. */
#include "sim/exec.h"
#include "arith/arith.h"

void sim_kepler(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	int ftz = !!(d->m.flags & MF_FTZ);

	switch ((int)d->op) {
	case OP_ICMP:       /* d = (c cmp 0) ? a : b */
		FOR_LANES(ex)
			REG(d->o[0].reg, l) = ar_icmp((Cmp)d->m.cmp, itype(d), src(g, w, &d->o[3], l), 0)
			                      ? src(g, w, &d->o[1], l) : src(g, w, &d->o[2], l);
		break;
	case OP_FCMP:       /* d = (c cmp 0.0) ? a : b */
		FOR_LANES(ex)
			REG(d->o[0].reg, l) = ar_fcmp32((Cmp)d->m.cmp, fmods(src(g, w, &d->o[3], l), d->o[3].flags), 0, ftz)
			                      ? fmods(src(g, w, &d->o[1], l), d->o[1].flags)
			                      : fmods(src(g, w, &d->o[2], l), d->o[2].flags);
		break;
	case OP_RRO:        /* the model's MUFU reads the float itself */
		FOR_LANES(ex) REG(d->o[0].reg, l) = fmods(src(g, w, &d->o[1], l), d->o[1].flags);
		break;
	case OP_FCHK: {     /* a / b needs the slow path of the division subroutine */
		uint32_t m = 0;
		FOR_LANES(ex) m |= (uint32_t)ar_fchk_divide(src(g, w, &d->o[1], l), src(g, w, &d->o[2], l)) << l;
		setp(w, &d->o[0], m, ex);
		break;
	}
	case OP_P2R:        /* the predicates P0..P6 as bits 0..6, merged under the mask c */
		FOR_LANES(ex) {
			uint32_t pr = 0, m = (uint32_t)d->o[3].imm;
			for (int i = 0; i < ISA_NPREDS; i++)
				pr |= (w->p[i] >> l & 1) << i;
			REG(d->o[0].reg, l) = (src(g, w, &d->o[2], l) & ~m) | (pr & m);
		}
		break;
	default:
		break;
	}
}
