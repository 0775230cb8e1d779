/* ptxisa.h - PTX's vocabulary in the ISA's terms: the one map from the PTX types and rounding
 * modifiers of frontend/ptx.h to the Type and Rnd of isa/isa.h.
 *
 * Two folders need it: the translator (backend/), which writes the modifiers of the
 * microcode it selects, and the reference interpreter (oracle/), which calls the shared
 * arithmetic (arith/) with them. It lives in a folder of its own because it needs both
 * frontend/ and isa/, which depend on nothing of ours, and because the oracle must not depend
 * on the translator it checks (nor the translator on the oracle). It is only a header: two
 * pure switches, no state, so no library and no change to any link order.
 *
 * Depends on frontend/ and isa/; used by backend/ and oracle/.
 */
#ifndef WARPSIM_PTXISA_H
#define WARPSIM_PTXISA_H

#include "frontend/ptx.h"
#include "isa/isa.h"

/* the ISA type of an integer, f16, f32 or f64 PTX type; TY_NONE for the others (.pred, the
 * packed and narrow floats, opaque types), which no single microcode type names */
static inline Type ptxisa_type(int pt)
{
	switch ((PType)pt) {
	case PT_U8: case PT_B8: return TY_U8;
	case PT_S8: return TY_S8;
	case PT_U16: case PT_B16: return TY_U16;
	case PT_S16: return TY_S16;
	case PT_U32: case PT_B32: return TY_U32;
	case PT_S32: return TY_S32;
	case PT_U64: case PT_B64: return TY_U64;
	case PT_S64: return TY_S64;
	case PT_F16: return TY_F16;
	case PT_F32: return TY_F32;
	case PT_F64: return TY_F64;
	case PT_NONE: case PT_B128: case PT_F16X2: case PT_BF16: case PT_BF16X2: case PT_TF32:
	case PT_E4M3: case PT_E5M2: case PT_E4M3X2: case PT_E5M2X2: case PT_PRED: case PT_TEXREF:
	case PT_SAMPLERREF: case PT_SURFREF: case PT_COUNT:
		break;
	}
	return TY_NONE;
}

/* the ISA rounding of a PTX rounding modifier; RND_NONE for none and for .rna and .rs, which
 * only the conversions that handle them read (the ISA has no such rounding) */
static inline Rnd ptxisa_rnd(int r)
{
	switch ((PRnd)r) {
	case PRND_RN: return RND_RN;
	case PRND_RZ: return RND_RZ;
	case PRND_RM: return RND_RM;
	case PRND_RP: return RND_RP;
	case PRND_RNI: return RND_ROUND;
	case PRND_RZI: return RND_TRUNC;
	case PRND_RMI: return RND_FLOOR;
	case PRND_RPI: return RND_CEIL;
	case PRND_NONE: case PRND_RNA: case PRND_RS: case PRND_COUNT:
		break;
	}
	return RND_NONE;
}

#endif
