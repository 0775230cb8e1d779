/* exec_kepler.c - the ops that only real sm_35 listings hold (ptxas 11.8's, tests/ptxas-ref):
 * compare-to-zero selects, the range reduction before MUFU, the division check, the
 * predicate file as a word, the double compare to a register, and the video instructions.
 * docs/isa.md gives their semantics. */
#include "sim/exec.h"
#include "arith/arith.h"

/* a video instruction's operation for ar_video: elements by the op, a's and b's signedness
 * by the two types (signed when not given), the destination's by .UD/.SD (signed by default,
 * unsigned for VABSDIFF and VSET), -b subtracts, .AVRG averages, .MX takes the maximum */
static ArVideo video(const DIns *d)
{
	uint32_t fl = d->m.flags;
	int op = d->op, absdiff = op == OP_VABSDIFF || op == OP_VABSDIFF2 || op == OP_VABSDIFF4;
	int set = op == OP_VSET || op == OP_VSET2 || op == OP_VSET4;
	int mnmx = op == OP_VMNMX || op == OP_VMNMX2 || op == OP_VMNMX4;
	ArVideo v = {
		.elems = (uint8_t)(op == OP_VADD2 || op == OP_VABSDIFF2 || op == OP_VMNMX2 || op == OP_VSET2 ? 2 :
		                   op == OP_VADD4 || op == OP_VABSDIFF4 || op == OP_VMNMX4 || op == OP_VSET4 ? 4 : 1),
		.as = d->m.dtype != TY_U8 && d->m.dtype != TY_U16 && d->m.dtype != TY_U32,
		.bs = d->m.stype != TY_U8 && d->m.stype != TY_U16 && d->m.stype != TY_U32,
		.ds = absdiff || set ? !!(fl & MF_SD) : !(fl & MF_UD),
		.sat = !!(fl & MF_SAT), .cmp = d->m.cmp,
		.second = fl & MF_ACC ? AV_ACC : fl & MF_VMIN ? AV_SMIN : fl & MF_VMAX ? AV_SMAX : AV_MERGE,
	};

	v.op = absdiff ? AV_ABSDIFF : set ? AV_SET : mnmx ? (fl & MF_MX ? AV_MAX : AV_MIN) :
	       fl & MF_AVRG ? AV_AVRG : d->o[2].flags & OPF_NEG ? AV_SUB : AV_ADD;
	if (op == OP_VSHL || op == OP_VSHR) {   /* the count b is unsigned; .W wraps it mod 32 */
		v.op = op == OP_VSHL ? AV_SHL : AV_SHR;
		v.bs = 0;
		v.wrap = !!(fl & MF_W);
	}
	return v;
}

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
	case OP_FCHK: {     /* a / b needs the slow path of the division subroutine ({-}a, {-}b) */
		uint32_t m = 0;
		FOR_LANES(ex)
			m |= (uint32_t)ar_fchk_divide(fmods(src(g, w, &d->o[1], l), d->o[1].flags),
			                              fmods(src(g, w, &d->o[2], l), d->o[2].flags)) << l;
		setp(w, &d->o[0], m, ex);
		break;
	}
	case OP_DSET: {     /* FSET of doubles */
		uint32_t m = 0;
		FOR_LANES(ex)
			m |= (uint32_t)ar_fcmp64((Cmp)d->m.cmp, dmods(src64(g, w, &d->o[1], l), d->o[1].flags),
			                         dmods(src64(g, w, &d->o[2], l), d->o[2].flags)) << l;
		set_result(w, d, m, ex);
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
	case OP_VADD: case OP_VADD2: case OP_VADD4:
	case OP_VABSDIFF: case OP_VABSDIFF2: case OP_VABSDIFF4:
	case OP_VMNMX: case OP_VMNMX2: case OP_VMNMX4:
	case OP_VSET: case OP_VSET2: case OP_VSET4:
	case OP_VSHL: case OP_VSHR: {
		ArVideo v = video(d);
		FOR_LANES(ex)
			REG(d->o[0].reg, l) = ar_video(&v, src(g, w, &d->o[1], l), src(g, w, &d->o[2], l),
			                               src(g, w, &d->o[3], l));
		break;
	}
	case OP_VMAD: {     /* a and b by their types (signed when not given); -a, -b, -c */
		/* an 8- or 16-bit type: the byte or half-word its selector names (.B0/.H0 when none;
		 * ptxas's listings), extended by the type; VMAD.U8.U16 R4, R0.B1, R11.H1, R12 */
		int ta = d->m.dtype, tb = d->m.stype, pa, pb;
		int wa = 8 * isa_type_bytes((Type)ta), wb = 8 * isa_type_bytes((Type)tb);
		int sa = (d->o[1].flags & OPF_SEL) >> OPF_SEL_SHIFT, sb = (d->o[2].flags & OPF_SEL) >> OPF_SEL_SHIFT;
		ArVmad v = {
			.as = ta != TY_U32 && ta != TY_U16 && ta != TY_U8,
			.bs = tb != TY_U32 && tb != TY_U16 && tb != TY_U8,
			.na = !!(d->o[1].flags & OPF_NEG), .nb = !!(d->o[2].flags & OPF_NEG),
			.nc = !!(d->o[3].flags & OPF_NEG), .po = !!(d->m.flags & MF_PO),
			.shr = (uint8_t)(d->m.flags & MF_SHR7 ? 7 : d->m.flags & MF_SHR15 ? 15 : 0),
			.sat = !!(d->m.flags & MF_SAT),
		};
		pa = sa >= 5 ? 16 * (sa - 5) : sa ? 8 * (sa - 1) : 0;
		pb = sb >= 5 ? 16 * (sb - 5) : sb ? 8 * (sb - 1) : 0;
		FOR_LANES(ex)
			REG(d->o[0].reg, l) = ar_vmad(&v, ar_vsel(src(g, w, &d->o[1], l), pa, wa, v.as),
			                              ar_vsel(src(g, w, &d->o[2], l), pb, wb, v.bs),
			                              src(g, w, &d->o[3], l));
		break;
	}
	default:
		break;
	}
}
