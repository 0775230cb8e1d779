/* exec.c - sim_issue, the one switch over Op that executes a warp instruction for its
 * active, guard-true lanes and reports what the timing model needs in an ExecInfo; then
 * the .S arrival and the unwinding. The one-line ops are written in the switch; the others
 * are in exec_alu.c (integer add and multiply, compares, conversions), exec_warp.c (ops
 * that read other lanes), exec_mem.c (memory) and crs.c (control ops and barriers). The
 * decoder (Ins -> DIns once per launch) is decode.c, the handlers it chooses handlers.c. No allocation happens here. */
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "sim/exec.h"

/* the lanes whose condition code passes test t (docs/isa.md, section 4) */
static uint32_t cmask(const Warp *w, CCTest t)
{
	uint32_t s = w->cc[0], c = w->cc[1], z = w->cc[2], o = w->cc[3];

	switch (t) {
	case CCT_F: case CCT_NAN: return 0;
	case CCT_T: case CCT_NUM: return ~0u;
	case CCT_LT: case CCT_LTU: return s ^ o;
	case CCT_EQ: case CCT_EQU: return z;
	case CCT_LE: case CCT_LEU: return z | (s ^ o);
	case CCT_GT: case CCT_GTU: return ~z & ~(s ^ o);
	case CCT_NE: case CCT_NEU: return ~z;
	case CCT_GE: case CCT_GEU: return ~(s ^ o);
	case CCT_OFF: return ~o;
	case CCT_OFT: return o;
	case CCT_LO: return ~c;
	case CCT_LS: return ~c | z;
	case CCT_HI: return c & ~z;
	case CCT_HS: return c;
	case CCT_SFF: return ~s;
	case CCT_SFT: return s;
	case CCT_COUNT: break;
	}
	return 0;
}

/* special register s of lane l (S2R) */
static uint32_t sreg(Gpu *g, const Warp *w, SReg s, unsigned l)
{
	const Cta *c = w->cta;
	uint32_t t = (uint32_t)w->idx * 32 + l;    /* linear thread index */

	switch (s) {
	case SR_TID_X: return t % g->block[0];
	case SR_TID_Y: return t / g->block[0] % g->block[1];
	case SR_TID_Z: return t / (g->block[0] * g->block[1]);
	case SR_NTID_X: return g->block[0];
	case SR_NTID_Y: return g->block[1];
	case SR_NTID_Z: return g->block[2];
	case SR_CTAID_X: return c->id[0];
	case SR_CTAID_Y: return c->id[1];
	case SR_CTAID_Z: return c->id[2];
	case SR_NCTAID_X: return g->grid[0];
	case SR_NCTAID_Y: return g->grid[1];
	case SR_NCTAID_Z: return g->grid[2];
	case SR_LANEID: return l;
	case SR_WARPID: return (uint32_t)(c->slot * g->wpc + w->idx);
	case SR_NWARPID: return (uint32_t)g->cfg.tc.max_warps;
	case SR_SMID: return (uint32_t)c->sm;
	case SR_NSMID: return (uint32_t)g->cfg.tc.sms;
	case SR_GRIDID: return 1;
	case SR_CLOCKLO: return (uint32_t)g->cycle;
	case SR_CLOCKHI: return (uint32_t)(g->cycle >> 32);
	case SR_GLOBALTIMERLO: return (uint32_t)(g->cycle * 1000);
	case SR_GLOBALTIMERHI: return (uint32_t)((g->cycle * 1000) >> 32);
	case SR_EQMASK: return 1u << l;
	case SR_LTMASK: return (1u << l) - 1;
	case SR_LEMASK: return (uint32_t)((2ull << l) - 1);
	case SR_GTMASK: return ~(uint32_t)((2ull << l) - 1);
	case SR_GEMASK: return ~((1u << l) - 1);
	case SR_ENVREG1: return (uint32_t)(g->mem->gridws >> 32);   /* (S2R checks the launch) */
	case SR_ENVREG2: return (uint32_t)g->mem->gridws;
	case SR_SMEMSZ: return (uint32_t)g->occ.shared_per_cta;   /* (bytes, rounded up to --shared-unit) */
	case SR_COUNT: break;
	}
	return 0;
}

/* ---------------------------------------------------------------- issue */
#define DST(l) REG(d->o[0].reg, l)
#define A(l) src(g, w, &d->o[1], l)
#define B(l) src(g, w, &d->o[2], l)
#define C(l) src(g, w, &d->o[3], l)
#define A64(l) src64(g, w, &d->o[1], l)
#define B64(l) src64(g, w, &d->o[2], l)
#define C64(l) src64(g, w, &d->o[3], l)
#define FA(l) fmods(A(l), d->o[1].flags)
#define FB(l) fmods(B(l), d->o[2].flags)
#define FC(l) fmods(C(l), d->o[3].flags)
#define DA(l) dmods(A64(l), d->o[1].flags)
#define DB(l) dmods(B64(l), d->o[2].flags)
#define DC(l) dmods(C64(l), d->o[3].flags)
#define IA(l) imods(A(l), d->o[1].flags)
#define IB(l) imods(B(l), d->o[2].flags)
#define IC(l) imods(C(l), d->o[3].flags)

/* ASSERT run by lane l: the kernel stops with the message CUDA prints for that thread */
static int assert_fail(Gpu *g, Warp *w, const DIns *d, unsigned l)
{
	uint32_t t = (uint32_t)w->idx * 32 + l, tid[3], line = w->r[(size_t)d->o[2].reg * 32 + l];
	char msg[900];

	tid[0] = t % g->block[0];
	tid[1] = t / g->block[0] % g->block[1];
	tid[2] = t / (g->block[0] * g->block[1]);
	dev_assert_text(g->mem, src64(g, w, &d->o[0], l), src64(g, w, &d->o[1], l), line,
	                src64(g, w, &d->o[3], l), w->cta->id, tid, msg, sizeof msg);
	return sim_fault(g, w, (int)l, SIM_TRAP, "%s", msg);
}

/* FFMA with operand modifiers, immediates or constants (the plain form has a handler);
 * its lane buffers stay out of exec_op's frame */
static __attribute__((noinline)) void ffma(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	uint32_t ba[32], bb[32], bc[32];
	const uint32_t *va = fop32(w, &d->o[1], ex, ba), *vb = fop32(w, &d->o[2], ex, bb);
	const uint32_t *vc = fop32(w, &d->o[3], ex, bc);
	Rnd rnd = (Rnd)d->m.rnd;
	int ftz = !!(d->m.flags & MF_FTZ), sat = !!(d->m.flags & MF_SAT);

	if (va && vb && vc) {
		ar_f32_fma_lanes(&DST(0), va, vb, vc, ex, rnd, ftz, sat);
		return;
	}
	FOR_LANES(ex) {
		uint32_t r = ar_f32_fma(FA(l), FB(l), FC(l), rnd, ftz);
		DST(l) = sat ? ar_f32_sat(r) : r;
	}
}

/* FMUL.D2 ... FMUL.M8: d = a * b * 2^k where that is known exactly; a lane whose result is
 * not (a subnormal, underflowing or overflowing product) stops the run, located, before any
 * lane writes */
static __attribute__((noinline)) int fmul_scaled(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	static const int8_t k[SUB_COUNT] = {
		[SUB_D2] = -1, [SUB_D4] = -2, [SUB_D8] = -3, [SUB_M2] = 1, [SUB_M4] = 2, [SUB_M8] = 3,
	};
	int ftz = !!(d->m.flags & MF_FTZ), sat = !!(d->m.flags & MF_SAT);
	uint32_t r[32];

	FOR_LANES(ex)
		if (!ar_f32_mul_scaled(FA(l), FB(l), k[d->m.sub], (Rnd)d->m.rnd, ftz, &r[l]))
			return sim_fault(g, w, (int)l, SIM_FAULT, "FMUL.%s of 0x%08x and 0x%08x: a subnormal, "
			                 "underflowing or overflowing product, where the rounding of Kepler's scale "
			                 "is not known (the SM model runs it only where every reading agrees)",
			                 isa_sub_name((Sub)d->m.sub), FA(l), FB(l));
	FOR_LANES(ex) DST(l) = sat ? ar_f32_sat(r[l]) : r[l];
	return SIM_OK;
}

/* the space an issue of op that no lane executes reports, with no address: the space of
 * its unit's memory (a texture or surface op: global), SP_NONE for the shared-memory and
 * other units (docs/timing.md, "Predicated-off memory instructions") */
static int void_space(int op)
{
	Unit u = isa_ops[op].unit;

	return u == UNIT_LSU_GLOBAL ? SP_GLOBAL : u == UNIT_LSU_LOCAL ? SP_LOCAL :
	       u == UNIT_LSU_CONST ? SP_CONST : SP_NONE;
}

/* the op of one issue (every op but those with a decode-time handler, DIns.fn) for the
 * lanes ex; *stop set: the run stops here, before the .S arrival, unwinding and trace */
static __attribute__((noinline)) int exec_op(Gpu *g, Warp *w, const DIns *d, uint32_t ex,
                                             ExecInfo *e, int *stop)
{
	Rnd rnd = (Rnd)d->m.rnd;
	int ftz = !!(d->m.flags & MF_FTZ), sat = !!(d->m.flags & MF_SAT), rc = SIM_OK;

	/* a memory instruction that no lane executes makes no request, and tells the timing
	 * so: its space without an address (its case below then does nothing) */
	if (__builtin_expect(!ex, 0))
		e->space = (uint8_t)void_space(d->op);
	switch ((Op)d->op) {
	case OP_MOV:
		if (is64((Type)d->m.dtype))
			FOR_LANES(ex) wr64(w, &d->o[0], l, A64(l));
		else
			FOR_LANES(ex) DST(l) = A(l);
		break;
	case OP_MOV32I:
		FOR_LANES(ex) DST(l) = (uint32_t)d->o[1].imm;
		break;
	case OP_S2R:
		if ((d->o[1].imm == SR_ENVREG1 || d->o[1].imm == SR_ENVREG2) && !g->launch->cooperative)
			return sim_fault(g, w, __builtin_ctz(ex), SIM_FAULT, "%%envreg%d (%s) " DEV_GRIDWS_WHY,
			                 d->o[1].imm == SR_ENVREG1 ? 1 : 2, isa_sreg_name((SReg)d->o[1].imm));
		FOR_LANES(ex) DST(l) = sreg(g, w, (SReg)d->o[1].imm, l);
		break;
	case OP_SEL: {
		uint32_t c = pmask(w, &d->o[3]);
		if (is64((Type)d->m.dtype))
			FOR_LANES(ex) wr64(w, &d->o[0], l, (c >> l & 1) ? A64(l) : B64(l));
		else
			FOR_LANES(ex) DST(l) = (c >> l & 1) ? A(l) : B(l);
		break;
	}
	case OP_IADD:
		sim_iadd(g, w, d, ex);
		break;
	case OP_IMUL:
		sim_imul(g, w, d, ex, 0);
		break;
	case OP_IMAD:
		sim_imul(g, w, d, ex, 1);
		break;
	case OP_ISCADD:
		FOR_LANES(ex) {
			uint32_t a = IA(l) << (d->o[3].imm & 31), b = B(l), ci = 0;
			uint64_t sum;
			if (d->o[2].flags & OPF_NEG) b = ~b, ci = 1;
			sum = (uint64_t)a + b + ci;
			DST(l) = (uint32_t)sum;
			if (d->m.flags & MF_CC)
				setcc(w, l, addflags(a, b, sum, 0, 0));
		}
		break;
	case OP_SHL:
		FOR_LANES(ex) {
			uint32_t n = B(l);
			if (d->m.flags & MF_W) n &= 31;
			DST(l) = n >= 32 ? 0 : A(l) << n;
		}
		break;
	case OP_SHR:
		FOR_LANES(ex) {
			uint32_t n = B(l), a = A(l);
			if (d->m.flags & MF_W) n &= 31;
			if (n > 31)
				n = 32;
			if (issgn(itype(d)))
				DST(l) = n == 32 ? (uint32_t)((int32_t)a >> 31) : (uint32_t)((int32_t)a >> n);
			else
				DST(l) = n == 32 ? 0 : a >> n;
		}
		break;
	case OP_SHF:
		FOR_LANES(ex)
			DST(l) = ar_shf(A(l), B(l), C(l), d->m.sub == SUB_R, !!(d->m.flags & MF_W), (Type)d->m.dtype);
		break;
	case OP_LOP:
		FOR_LANES(ex) {
			uint32_t a = IA(l), b = IB(l), r;
			switch ((int)d->m.sub) {
			case SUB_OR: r = a | b; break;
			case SUB_XOR: r = a ^ b; break;
			case SUB_PASS_B: r = b; break;
			default: r = a & b; break;
			}
			DST(l) = r;
			if (d->m.flags & MF_CC)     /* Kepler: N, Z of the result (.X: Z only if Z was) */
				setcc(w, l, (r >> 31 ? CC_S : 0) |
				            (r == 0 && (!(d->m.flags & MF_X) || (ccof(w, l) & CC_Z)) ? CC_Z : 0));
		}
		break;
	case OP_LOP3:
		FOR_LANES(ex) DST(l) = ar_lop3(IA(l), IB(l), IC(l), (uint32_t)d->o[4].imm & 0xff);
		break;
	case OP_BFE:
		if (is64((Type)d->m.dtype))
			FOR_LANES(ex) wr64(w, &d->o[0], l, ar_bfe64(A64(l), B(l), issgn((Type)d->m.dtype), !!(d->m.flags & MF_BREV)));
		else
			FOR_LANES(ex) DST(l) = ar_bfe(A(l), B(l), issgn(itype(d)), !!(d->m.flags & MF_BREV));
		break;
	case OP_BFI:
		FOR_LANES(ex) DST(l) = ar_bfi(A(l), B(l), C(l));
		break;
	case OP_POPC:
		FOR_LANES(ex) DST(l) = (uint32_t)__builtin_popcount(IA(l) & (d->o[2].kind != DK_NONE ? IB(l) : ~0u));
		break;
	case OP_FLO:
		FOR_LANES(ex) DST(l) = ar_flo(IA(l), issgn(itype(d)), !!(d->m.flags & MF_SH));
		break;
	case OP_BREV:
		FOR_LANES(ex) DST(l) = ar_brev(A(l));
		break;
	case OP_PRMT:
		FOR_LANES(ex) DST(l) = ar_prmt(A(l), B(l), C(l), (Sub)d->m.sub);
		break;
	case OP_IMNMX: {
		uint32_t c = pmask(w, &d->o[3]);
		Type t = itype(d);
		FOR_LANES(ex) {
			int mn = c >> l & 1;
			if (is64(t)) {
				uint64_t a = A64(l), b = B64(l);
				wr64(w, &d->o[0], l, ar_icmp(CMP_LT, t, a, b) == mn ? a : b);
			} else {
				uint32_t a = IA(l), b = IB(l);
				DST(l) = ar_icmp(CMP_LT, t, a, b) == mn ? a : b;
			}
		}
		break;
	}
	case OP_ISET:
		set_result(w, d, sim_icmpmask(g, w, d, ex, 1, 2), ex);
		break;
	case OP_CSETP: {        /* the CC test of operand a as a predicate */
		uint32_t m = cmask(w, (CCTest)d->o[2].imm), c = pmask(w, &d->o[3]);
		setp(w, &d->o[0], bop((Bop)d->m.bop, m, c), ex);
		setp(w, &d->o[1], bop((Bop)d->m.bop, ~m, c), ex);
		break;
	}
	case OP_ISETP: {
		uint32_t m = sim_icmpmask(g, w, d, ex, 2, 3), c = pmask(w, &d->o[4]);
		setp(w, &d->o[0], bop((Bop)d->m.bop, m, c), ex);
		setp(w, &d->o[1], bop((Bop)d->m.bop, ~m, c), ex);
		break;
	}
	case OP_FADD:
		FOR_LANES(ex) {
			uint32_t r = ar_f32_add(FA(l), FB(l), rnd, ftz);
			DST(l) = sat ? ar_f32_sat(r) : r;
		}
		break;
	case OP_FMUL:
		if (d->m.sub)           /* Kepler's scale: exact results only (arith/alu.c) */
			return fmul_scaled(g, w, d, ex);
		FOR_LANES(ex) {
			uint32_t r = ar_f32_mul(FA(l), FB(l), rnd, ftz);
			DST(l) = sat ? ar_f32_sat(r) : r;
		}
		break;
	case OP_FFMA:
		ffma(g, w, d, ex);
		break;
	case OP_FMNMX: {
		uint32_t c = pmask(w, &d->o[3]);
		FOR_LANES(ex) DST(l) = ar_f32_minmax(FA(l), FB(l), !(c >> l & 1), ftz);
		break;
	}
	case OP_FSET: {
		uint32_t m = 0;
		FOR_LANES(ex) m |= (uint32_t)ar_fcmp32((Cmp)d->m.cmp, FA(l), FB(l), ftz) << l;
		set_result(w, d, m, ex);
		break;
	}
	case OP_FSETP:
	case OP_DSETP: {
		uint32_t m = sim_fcmpmask(g, w, d, ex, d->op == OP_DSETP), c = pmask(w, &d->o[4]);
		setp(w, &d->o[0], bop((Bop)d->m.bop, m, c), ex);
		setp(w, &d->o[1], bop((Bop)d->m.bop, ~m, c), ex);
		break;
	}
	case OP_MUFU:
		if (d->m.sub == SUB_RCP64H || d->m.sub == SUB_RSQ64H)
			FOR_LANES(ex) DST(l) = ar_mufu64h((Sub)d->m.sub, A(l));
		else if (d->m.dtype == TY_F64)
			FOR_LANES(ex) wr64(w, &d->o[0], l, ar_mufu_f64((Sub)d->m.sub, DA(l)));
		else
			FOR_LANES(ex) DST(l) = ar_mufu_f32((Sub)d->m.sub, FA(l), ftz);
		break;
	case OP_FDIV:
		if (d->m.dtype == TY_F64)
			FOR_LANES(ex) wr64(w, &d->o[0], l, ar_f64_div(DA(l), DB(l), rnd));
		else
			FOR_LANES(ex) DST(l) = ar_f32_div(FA(l), FB(l), rnd, ftz);
		break;
	case OP_FSQRT:
		if (d->m.dtype == TY_F64)
			FOR_LANES(ex) wr64(w, &d->o[0], l, ar_f64_sqrt(DA(l), rnd));
		else
			FOR_LANES(ex) DST(l) = ar_f32_sqrt(FA(l), rnd, ftz);
		break;
	case OP_DADD:
		FOR_LANES(ex) wr64(w, &d->o[0], l, ar_f64_add(DA(l), DB(l), rnd));
		break;
	case OP_DMUL:
		FOR_LANES(ex) wr64(w, &d->o[0], l, ar_f64_mul(DA(l), DB(l), rnd));
		break;
	case OP_DFMA:
		FOR_LANES(ex) wr64(w, &d->o[0], l, ar_f64_fma(DA(l), DB(l), DC(l), rnd));
		break;
	case OP_DMNMX: {
		uint32_t c = pmask(w, &d->o[3]);
		FOR_LANES(ex) wr64(w, &d->o[0], l, ar_f64_minmax(DA(l), DB(l), !(c >> l & 1)));
		break;
	}
	case OP_F2I:
	case OP_I2F:
	case OP_F2F:
	case OP_I2I:
		sim_cvt(g, w, d, ex);
		break;
	case OP_LD:
	case OP_LDG:
		rc = sim_ldst(g, w, d, ex, e, SP_GLOBAL, 0);
		break;
	case OP_TEX:
	case OP_TLD:
	case OP_TLD4:
	case OP_TXQ:
	case OP_TEXB:
	case OP_TLDB:
	case OP_TLD4B:
	case OP_TXQB:
		rc = sim_tex(g, w, d, ex);
		break;
	case OP_SULD:
	case OP_SUST:
	case OP_SUQ:
	case OP_SULDB:
	case OP_SUSTB:
	case OP_SUQB:
	case OP_SUSTP:
	case OP_SUSTPB:
		rc = sim_surf(g, w, d, ex, e);
		break;
	case OP_ST:
		rc = sim_ldst(g, w, d, ex, e, SP_GLOBAL, 1);
		break;
	case OP_LDS:
	case OP_LDSLK:
		rc = sim_ldst(g, w, d, ex, e, SP_SHARED, 0);
		break;
	case OP_STS:
	case OP_STSUL:
	case OP_STSCUL:
		rc = sim_ldst(g, w, d, ex, e, SP_SHARED, 1);
		break;
	case OP_LDL:
		rc = sim_ldst(g, w, d, ex, e, SP_LOCAL, 0);
		break;
	case OP_STL:
		rc = sim_ldst(g, w, d, ex, e, SP_LOCAL, 1);
		break;
	case OP_LDC:
		if ((rc = sim_ldc(g, w, d, ex, e)) != SIM_OK)
			*stop = 1;      /* a fault: no trace record, as for a trap */
		break;
	case OP_ATOM:
	case OP_RED:
		rc = sim_atomic(g, w, d, ex, e, SP_GLOBAL);
		break;
	case OP_ATOMS:
		rc = sim_atomic(g, w, d, ex, e, SP_SHARED);
		break;
	case OP_MEMBAR:
		break;                      /* the model never reorders memory */
	case OP_SHFL:
		sim_shfl(g, w, d, ex);
		break;
	case OP_VOTE: {
		uint32_t c = pmask(w, &d->o[2]) & ex, r;
		switch ((int)d->m.sub) {
		case SUB_ALL: r = c == ex; break;
		case SUB_ANY: r = c != 0; break;
		default: r = c == ex || c == 0; break;     /* EQ */
		}
		FOR_LANES(ex) DST(l) = c;
		setp(w, &d->o[1], r ? ~0u : 0, ex);
		break;
	}
	case OP_MATCH:
		sim_match(g, w, d, ex);
		break;
	case OP_REDUX:
		sim_redux(g, w, d, ex);
		break;
	case OP_BAR:
	case OP_BARRED:
		rc = sim_barrier(g, w, d, ex, e);
		break;
	case OP_SSY:
	case OP_BRA:
	case OP_BRX:
	case OP_PBK:
	case OP_BRK:
	case OP_PCNT:
	case OP_CONT:
	case OP_CAL:
	case OP_JCAL:
	case OP_RET:
	case OP_PRET:
	case OP_PEXIT:
	case OP_EXIT:
		rc = sim_ctrl(g, w, d, ex, e);
		break;
	case OP_ICMP:
	case OP_FCMP:
	case OP_RRO:
	case OP_FCHK:
	case OP_P2R:
	case OP_DSET:
	case OP_VADD: case OP_VADD2: case OP_VADD4:
	case OP_VABSDIFF: case OP_VABSDIFF2: case OP_VABSDIFF4:
	case OP_VMNMX: case OP_VMNMX2: case OP_VMNMX4:
	case OP_VSET: case OP_VSET2: case OP_VSET4:
	case OP_VSHL: case OP_VSHR: case OP_VMAD:
		sim_kepler(g, w, d, ex);
		break;
	case OP_NOP:            /* (every form of these has a decode-time handler) */
	case OP_CCTL:
	case OP_TEXDEPBAR:
	case OP_PSETP:
		break;
	case OP_BPT:
		/* PTX trap: the first lane that runs it stops the kernel, like a fault */
		if (ex && d->in->o[0].imm == ISA_TRAP_NOCALL) {
			char at[96] = "";
			const Prog *p = g->program;
			if (d->in->ptxline && p && p->nptxfiles > 1 && d->in->ptxfile < p->nptxfiles)
				snprintf(at, sizeof at, " (PTX %.60s line %d)", p->ptxfiles[d->in->ptxfile],
				         d->in->ptxline);     /* a program linked from several files */
			else if (d->in->ptxline)
				snprintf(at, sizeof at, " (PTX line %d)", d->in->ptxline);
			*stop = 1;
			return sim_fault(g, w, __builtin_ctz(ex), SIM_FAULT, "call%s of a function that is not "
			                 "in this module (an .extern .func without a body, or an indirect call "
			                 "that no function of the module matches; BPT.TRAP 0x2)", at);
		}
		if (ex && d->in->o[0].imm == ISA_TRAP_STREAM) {   /* (isel_cdp.c) */
			*stop = 1;
			return sim_fault(g, w, __builtin_ctz(ex), SIM_FAULT, DEV_CDP_STREAM_WHY);
		}
		if (ex) {
			*stop = 1;
			return sim_fault(g, w, __builtin_ctz(ex), SIM_TRAP, "trap: the kernel aborted "
			                 "(BPT.TRAP 0x%" PRIx64 ")", (uint64_t)d->in->o[0].imm);
		}
		break;
	case OP_PRINTF:
		rc = sim_printf(g, w, d, ex);
		break;
	case OP_MALLOC:
	case OP_FREE:
		rc = sim_heap(g, w, d, ex, e);
		break;
	case OP_CDPBUF:
	case OP_CDPLAUNCH:
		rc = sim_cdp(g, w, d, ex, e);
		break;
	case OP_ASSERT:
		if (ex) {
			*stop = 1;
			return assert_fail(g, w, d, (unsigned)__builtin_ctz(ex));
		}
		break;
	case OP_COUNT:
		*stop = 1;
		return sim_fault(g, w, -1, SIM_MALFORMED, "not an opcode");
	}
	return rc;
}

/* the lanes of act that execute instruction d of warp w: its guard holds (*gm: the lanes
 * where it does) and its CC test passes */
static inline __attribute__((always_inline)) uint32_t
exec_lanes(const Warp *w, const DIns *d, uint32_t act, uint32_t *gm)
{
	uint32_t ex;

	*gm = w->p[d->guard] ^ d->gxor;
	ex = act & *gm;
	if (d->cct != CCT_T)
		ex &= cmask(w, (CCTest)d->cct);
	return ex;
}

/* the start of every issue by warp w with the active lanes act, of which ex execute (gm:
 * the guard's lanes): its statistics, the pc past it */
static inline __attribute__((always_inline)) void
issue_head(Gpu *g, Warp *w, uint32_t act, uint32_t ex, uint32_t gm)
{
	g->st.warp_insts++;
	if (ex == 0xffffffffu) {        /* a full warp, guard true: no lane predicated off */
		g->st.thread_insts += 32;
		g->st.exec_lanes += 32;
	} else {
		g->st.thread_insts += (uint64_t)sim_popc(act);
		g->st.exec_lanes += (uint64_t)sim_popc(ex);
		g->st.pred_off += (uint64_t)sim_popc(act & ~gm);
	}
	w->pc++;
}

/* the start of e, the record of an issue of d by the active lanes act of which ex execute:
 * no address, no stack traffic, no divergence, no event yet */
static inline __attribute__((always_inline)) void
info_start(ExecInfo *e, const DIns *d, uint32_t act, uint32_t ex)
{
	e->in = d->in;
	e->active = act;
	e->exec = ex;
	e->naddr = 0;
	e->space = SP_NONE;
	e->size = 0;
	e->diverged = e->reconverged = 0;
	e->pushed = e->popped = 0;
	e->spills = e->fills = 0;
	e->event = EV_NONE;
}

/* Executes d, the warp's next instruction, for ex of its active lanes act (gm: the guard's
 * lanes, exec_lanes); then the .S arrival and, when no lane is left active, the CRS
 * unwinding. The fields of e that only a trace reads (pc, where, next_*) are filled only
 * when a trace or sink is set. */
static inline __attribute__((always_inline)) int
issue_lanes(Gpu *g, SM *s, Warp *w, const DIns *d, uint32_t act, uint32_t ex, uint32_t gm,
            ExecInfo *e)
{
	int rc = SIM_OK, stop = 0;

	issue_head(g, w, act, ex, gm);
	info_start(e, d, act, ex);
	if (d->fn)
		d->fn(w, d, ex);
	else if (d->ctrl)
		rc = sim_ctrl(g, w, d, ex, e);
	else if (d->op != OP_NOP) {     /* (a NOP.S's part is the arrival below) */
		rc = exec_op(g, w, d, ex, e, &stop);
		if (stop)
			return rc;
	}
	if (d->hasconstx && g->fault_lane >= 0) {   /* (only a DK_CONSTX read sets it) */
		int l = g->fault_lane;
		g->fault_lane = -1;
		return sim_fault(g, w, l, SIM_FAULT, "constant operand at offset 0x%" PRIx64 " is outside its bank", g->fault_off);
	}
	if (rc == SIM_OK && d->sync && (ex & w->active)) {
		rc = sim_arrive_sync(g, w, ex & w->active);
		if (rc == SIM_OK && w->active)       /* some lanes wait at the sync point */
			sim_diverge(g, e, DIV_SYNC);
	}
	if (rc == SIM_OK && !w->active && w->state == W_READY)
		rc = sim_unwind(g, w, e);
	if (g->trace || g->hassink) {
		e->pc = d->in->addr;
		e->sm = s->id;
		e->cta = w->cta->slot;
		e->warp = w->idx;
		e->next_active = w->active;
		e->next_pc = sim_addr(g, w->pc);
		if (g->trace)
			g->trace(g->tctx, e);
	}
	return rc;
}

static int past_end(Gpu *g, const Warp *w)
{
	return sim_fault(g, w, -1, SIM_MALFORMED, "execution ran past the end of the kernel");
}

int sim_issue(Gpu *g, SM *s, Warp *w, ExecInfo *e)
{
	const DIns *d;
	uint32_t gm, ex;

	if (w->pc >= (uint32_t)g->ncode)
		return past_end(g, w);
	d = &g->code[w->pc];
	ex = exec_lanes(w, d, w->active, &gm);
	return issue_lanes(g, s, w, d, w->active, ex, gm, e);
}

/* An issue in which no active lane executes d (its guard or CC test holds on none) and
 * d's op then does nothing (DIns.quiet: a NOP, an EXIT, a branch or an op with a handler,
 * which runs with no lanes, as in issue_lanes). Only its statistics and the pc change: no
 * .S arrival, no unwinding (some lane is active), no fault, nothing rare for the timing.
 * The lean forms (the issue stage runs them so itself) leave it the ones with a CC test or
 * a constant operand read at run time. A trace reads every issue: then issue_lanes runs it. */
static inline int quiet(const Gpu *g, const DIns *d, uint32_t act, uint32_t ex)
{
	return !ex && act && d->quiet && !g->trace;
}

static int quiet_issue(Gpu *g, Warp *w, const DIns *d, uint32_t act, uint32_t gm, TExec *te)
{
	uint64_t lanes = (uint64_t)sim_popc(act);

	issue_head(g, w, act, 0, gm);
	if (d->fn)
		d->fn(w, d, 0);
	sim_tstats_issue_n(&g->ts, lanes, lanes, 0, 0, w->ncrs);   /* (sim_texec_hand's) */
	te->next = &g->tcode[w->pc < (uint32_t)g->ncode ? w->pc : (uint32_t)g->ncode];
	return 0;
}

/* the hand-over of an issue that ran with rc (sim_texec_hand); a fault stops the SM's lean
 * issue and short paths */
static int texec_end(Gpu *g, SM *s, Warp *w, ExecInfo *x, TExec *te, const IssueMark *mk, int rc)
{
	if (rc != SIM_OK) {
		g->rc = rc;
		g->src[s->id].lean = NULL;  /* (every later issue of the SM through sim_texec) */
	}
	return sim_texec_hand(g, s, w, x, te, mk, rc);
}

/* The timing model's exec callback (TSource.exec, timing.h): the issue with its common
 * fields written straight into the timing's record. A run with a trace sink or stopped by
 * a fault, and an issue with rare fields, go to gpu.c (sim_texec_full, sim_texec_rare). A
 * lean instruction the issue stage ran itself, unless it split the warp or found no active
 * lane (TLean). */
int sim_texec(void *ctx, int wi, TExec *te)
{
	SM *s = ctx;
	Gpu *g = s->g;
	Warp *w = s->warps[wi];
	ExecInfo *x = &g->info;
	IssueMark mk;
	int rc;
	const DIns *d;
	uint32_t act = w->active, gm, ex;

	if (g->rc != SIM_OK || g->hassink)
		return sim_texec_full(ctx, wi, te);
	mk = sim_issue_mark(g);
	g->cur = w->pc;
	if (w->pc >= (uint32_t)g->ncode)
		rc = past_end(g, w);
	else {
		d = &g->code[w->pc];
		ex = exec_lanes(w, d, act, &gm);
		if (quiet(g, d, act, ex))
			return quiet_issue(g, w, d, act, gm, te);
		rc = issue_lanes(g, s, w, d, act, ex, gm, x);
	}
	return texec_end(g, s, w, x, te, &mk, rc);
}

/* what flow() made of an issue */
enum { FLOW_NO = -1, FLOW_DONE, FLOW_RARE, FLOW_FAULT };

/* flow()'s statistics of an issue into the SM's TStats: all of them (sim_tstats_issue, as
 * sim_texec_hand counts them) when timed, else those funcrun.c keeps there (its issue()):
 * the split's kind, a reconvergence, the CRS depth */
static inline __attribute__((always_inline)) void
flow_stats(Gpu *g, int timed, uint32_t act, uint32_t ex, int div, int reconv, int depth)
{
	if (timed) {
		sim_tstats_issue(&g->ts, act, ex, div, reconv, depth);
		return;
	}
	if (div != DIV_NONE)
		g->ts.div[div]++;
	g->ts.reconv += (uint64_t)reconv;
	if ((uint64_t)depth > g->ts.crs_hwm)
		g->ts.crs_hwm = (uint64_t)depth;
}

/* The short path of a control instruction d of warp w that the lean runs do not finish
 * themselves (DIns.flow: a push, a BRA, a LEAN_QUIET form), for the timing's sim_tflow
 * (timed) and funcrun.c's sim_fflow: the issue as issue_lanes makes it, with the same
 * statistics (g->st, and the SM's TStats by flow_stats), without its general steps. A push
 * that stays on chip, a branch that splits the warp, a .S or EXIT after which some lane is
 * still active and no barrier was released are FLOW_DONE; the others (the unwinding, an
 * exit, a release) leave their rare fields in g->info, FLOW_RARE (counted) or FLOW_FAULT
 * (*rc; counted into g->st alone, as sim_issue's head does). FLOW_NO without a change:
 * sim_issue runs it (a token that would not stay on chip, a warp without active lanes, a .S
 * or EXIT that no lane runs). mk: the statistics before it (timed: what the hand-over
 * reads). */
static inline __attribute__((always_inline)) int
flow(Gpu *g, Warp *w, const DIns *d, IssueMark *mk, int *rc, int timed)
{
	ExecInfo *x;
	uint32_t act = w->active, gm = w->p[d->guard] ^ d->gxor, ex = act & gm;
	int div = DIV_NONE;

	if (!act)
		return FLOW_NO;
	if (d->op != OP_BRA && d->lean != LEAN_QUIET) {     /* SSY PBK PCNT PRET PEXIT */
		if (sim_push_chip(g, w, d->op, d->target, act))
			return FLOW_NO;
		issue_head(g, w, act, ex, gm);
		flow_stats(g, timed, act, ex, DIV_NONE, 0, w->ncrs);
		return FLOW_DONE;
	}
	if (d->op == OP_BRA) {
		if (!ex || ex == act || sim_push_chip(g, w, OP_BRA, w->pc + 1, act & ~ex))
			return FLOW_NO;
		issue_head(g, w, act, ex, gm);
		w->active = ex;         /* taken side first (sim_ctrl) */
		w->pc = d->target;
		g->st.div_branches++;
		flow_stats(g, timed, act, ex, DIV_BRA, 0, w->ncrs);
		return FLOW_DONE;
	}
	if (!ex)
		return FLOW_NO;         /* (the lean runs' own) */
	if (timed)
		*mk = sim_issue_mark(g);
	*rc = SIM_OK;
	g->cur = w->pc;
	issue_head(g, w, act, ex, gm);
	if (d->op == OP_EXIT) {
		sim_exit(g, w, d, ex);
		div = w->active ? DIV_EXIT : DIV_NONE;
	} else {                    /* a .S form with a handler */
		d->fn(w, d, ex);
		if ((*rc = sim_arrive_sync(g, w, ex)) == SIM_OK && w->active)
			div = DIV_SYNC;
	}
	g->st.div_branches += div != DIV_NONE;
	if (*rc == SIM_OK && w->active && (!timed || g->st.barriers == mk->bars)) {
		flow_stats(g, timed, act, ex, div, 0, w->ncrs);
		return FLOW_DONE;   /* (a release is rare only for the timing: its waiting warps) */
	}
	x = &g->info;
	info_start(x, d, act, ex);
	x->diverged = (uint8_t)div;
	if (d->op == OP_EXIT)
		x->event = EV_EXIT;
	if (*rc == SIM_OK && !w->active && w->state == W_READY)
		*rc = sim_unwind(g, w, x);
	if (*rc != SIM_OK)
		return FLOW_FAULT;
	/* (sim_texec_hand's, which would find rare fields: a pop, an exit, a release) */
	flow_stats(g, timed, act, ex, div, x->reconverged, w->ncrs);
	return FLOW_RARE;
}

/* The issue stage's short path for a control instruction that it did not run itself
 * (TSource.flow, TInst.flow), while the lean issue is on (no trace, no sink, no fault):
 * flow(), and the hand-over of the rare fields it left (a path switch alone as
 * TFLOW_SWITCH), or of its fault. -1 without a change: exec runs it. */
int sim_tflow(void *ctx, int wi, const TInst *in, TExec *te)
{
	SM *s = ctx;
	Gpu *g = s->g;
	Warp *w = s->warps[wi];
	IssueMark mk;
	int rc;

	switch (flow(g, w, in->d, &mk, &rc, 1)) {
	case FLOW_NO:
		return -1;
	case FLOW_DONE:
		te->next = &g->tcode[w->pc];
		return 0;
	case FLOW_FAULT:
		return texec_end(g, s, w, &g->info, te, &mk, rc);
	}
	te->next = &g->tcode[w->pc];
	if (!g->info.fills && g->info.event == EV_NONE && g->st.barriers == mk.bars) {
		/* an unwinding that popped to another path (sim_texec_rare's answer: some lane is
		 * active, as no exit ended the warp) and brought no token back from memory */
		te->space = TSP_NONE;
		te->switches = 1;
		return TFLOW_SWITCH;
	}
	sim_texec_rare(g, s, w, &g->info, te, mk.bars);
	return 1;
}

int sim_fflow(Gpu *g, Warp *w, const DIns *d)
{
	IssueMark mk;
	int rc;

	switch (flow(g, w, d, &mk, &rc, 0)) {
	case FLOW_NO:
		return -1;
	case FLOW_FAULT:
		g->rc = rc;
		return 1;
	case FLOW_RARE:         /* (an unwinding's fills: it spills none) */
		g->ts.crs_fills += g->info.fills;
		break;
	}
	return 0;
}

void sim_lean_fold(Gpu *g, SM *s)
{
	TLean *l = &s->lean;
	uint64_t n = l->insts, lanes = l->lanes;

	sim_lean_stats(&g->st, n, lanes, l->off);
	g->ts.warp_insts += n;
	g->ts.thread_insts += lanes;
	g->ts.pred_off += l->off;
	l->insts = l->lanes = l->off = 0;
}
