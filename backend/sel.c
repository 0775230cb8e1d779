/* sel.c - the selection toolkit: what the isel_*.c files build instructions with. PTX
 * operands as machine operands (registers, immediates in the encoding of a type, special
 * registers, addresses of named objects), destinations, moves of any class, narrow values
 * re-canonicalised or sign-extended, words of a pair; memory operands resolved to a space
 * and an address; comparisons (the ISA's of a PTX one, a SETP); the building blocks
 * several families share: the 64-bit carry chain, the exact f32 of a 16-bit float lane,
 * .relu of a 16-bit result, and a block split behind the instruction being selected.
 *
 * Conventions (every isel file): a 32-bit PTX value lives in one register, a 64-bit value in
 * an even pair (word 0 low), a predicate in a P register. 8- and 16-bit values live in a
 * 32-bit register, zero-extended ("canonical"): every definition of a narrow register is
 * re-canonicalised (be_fix16), and signed narrow operands are sign-extended (be_widen)
 * before an op that depends on the sign.
 *
 * Calls layout.c and util.c only: nothing of selection above it.
 */
#include <string.h>
#include "backend/be.h"

/* ------------------------------------------------------------------ instructions */
MIns *be_op3(Fn *f, Blk *b, Op op, MOpd d, MOpd a, MOpd c)
{
	MIns *in = be_emit(f, b, op);
	in->nopd = 3;
	in->o[0] = d;
	in->o[1] = a;
	in->o[2] = c;
	return in;
}

MIns *be_op2(Fn *f, Blk *b, Op op, MOpd d, MOpd a)
{
	MIns *in = be_op3(f, b, op, d, a, be_r(T_RZ));
	in->nopd = 2;
	return in;
}

MIns *be_lop(Fn *f, Blk *b, Sub s, int d, MOpd a, MOpd c)
{
	MIns *x = be_op3(f, b, OP_LOP, be_r(d), a, c);
	x->m.sub = (uint8_t)s;
	return x;
}

MIns *be_ballot(Fn *f, Blk *b, int d, MOpd p)
{
	MIns *x = be_emit(f, b, OP_VOTE);
	x->m.sub = SUB_ANY;
	x->nopd = 3;
	x->o[0] = be_r(d);
	x->o[1] = be_p(T_PT);
	x->o[2] = p;
	return x;
}

MIns *be_shift(Fn *f, Blk *b, Op op, int d, MOpd a, int k)
{
	MIns *x = be_op3(f, b, op, be_r(d), a, be_imm(k));
	if (op == OP_SHR)
		x->m.dtype = TY_U32;
	return x;
}

MIns *be_setp_ins(Fn *f, Blk *b, Op op, Cmp c, Type ty, int p, int q, MOpd a, MOpd x, MOpd cc,
                      Bop bop)
{
	MIns *in = be_emit(f, b, op);
	in->m.cmp = (uint8_t)c;
	in->m.bop = (uint8_t)bop;
	if (op == OP_ISETP)
		in->m.dtype = (uint8_t)ty;
	in->nopd = 5;
	in->o[0] = be_p(p);
	in->o[1] = be_p(q);
	in->o[2] = a;
	in->o[3] = x;
	in->o[4] = cc;
	return in;
}

/* PSETP d = a op c (PT and PT: the second combination is a no-op) */
MIns *be_psetp(Fn *f, Blk *b, int d, MOpd a, MOpd c, Bop op)
{
	MIns *in = be_setp_ins(f, b, OP_PSETP, CMP_NONE, TY_NONE, d, T_PT, a, c, be_p(T_PT), op);

	in->m.bop2 = BOP_AND;
	return in;
}

/* SEL d, a, x under p (negated: !p) */
MIns *be_csel(Fn *f, Blk *b, MOpd d, MOpd a, MOpd x, int p, int neg)
{
	MIns *in = be_op3(f, b, OP_SEL, d, a, x);
	in->nopd = 4;
	in->o[3] = be_pn(p, neg);
	return in;
}

/* ------------------------------------------------------------------ operands */
static SReg sreg_of(int s, int comp, int hi)
{
	static const SReg xyz[][3] = {
		{SR_TID_X, SR_TID_Y, SR_TID_Z}, {SR_NTID_X, SR_NTID_Y, SR_NTID_Z},
		{SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z}, {SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z},
	};
	int c = comp > 0 ? comp - 1 : 0;

	switch (s) {
	case PSR_TID: return xyz[0][c];
	case PSR_NTID: return xyz[1][c];
	case PSR_CTAID: return xyz[2][c];
	case PSR_NCTAID: return xyz[3][c];
	case PSR_LANEID: return SR_LANEID;
	case PSR_WARPID: return SR_WARPID;
	case PSR_NWARPID: return SR_NWARPID;
	case PSR_SMID: return SR_SMID;
	case PSR_NSMID: return SR_NSMID;
	case PSR_GRIDID: return SR_GRIDID;
	case PSR_CLOCK: return SR_CLOCKLO;
	case PSR_CLOCK_HI: return SR_CLOCKHI;
	case PSR_CLOCK64: return hi ? SR_CLOCKHI : SR_CLOCKLO;
	case PSR_LANEMASK_EQ: return SR_EQMASK;
	case PSR_LANEMASK_LE: return SR_LEMASK;
	case PSR_LANEMASK_LT: return SR_LTMASK;
	case PSR_LANEMASK_GE: return SR_GEMASK;
	case PSR_LANEMASK_GT: return SR_GTMASK;
	case PSR_GLOBALTIMER: return hi ? SR_GLOBALTIMERHI : SR_GLOBALTIMERLO;
	case PSR_GLOBALTIMER_LO: return SR_GLOBALTIMERLO;
	case PSR_GLOBALTIMER_HI: return SR_GLOBALTIMERHI;
	case PSR_ENVREG1: return SR_ENVREG1;    /* a cooperative launch's grid workspace */
	case PSR_ENVREG2: return SR_ENVREG2;
	/* the CTA's shared bytes, static and dynamic, rounded up to the allocation unit: ptxas
	 * 11.8 reads %total_smem_size with S2R SR_SMEMSZ (tests/ptxas-ref/smem_size.sass), and
	 * %aggr_smem_size adds the region reserved for the system software, which Fermi and
	 * Kepler do not have */
	case PSR_TOTAL_SMEM_SIZE: case PSR_AGGR_SMEM_SIZE: return SR_SMEMSZ;
	default: return SR_COUNT;
	}
}

/* an immediate in the encoding of type pt (float literals converted) */
static int64_t imm_for(const POpd *o, int pt)
{
	int64_t v = o->imm;

	if (tfloat(pt) && tbytes(pt) == 4) {
		float fl;
		uint32_t u;
		if (o->ikind == PIMM_F32)
			return (uint32_t)v;
		if (o->ikind == PIMM_F64 || o->ikind == PIMM_FLOAT) {
			double d;
			memcpy(&d, &v, 8);
			fl = (float)d;
		} else {
			fl = (float)v;
		}
		memcpy(&u, &fl, 4);
		return u;
	}
	if (tfloat(pt) && tbytes(pt) == 8) {
		double d;
		if (o->ikind == PIMM_F64 || o->ikind == PIMM_FLOAT)
			return v;
		if (o->ikind == PIMM_F32) {
			float fl;
			uint32_t u = (uint32_t)v;
			memcpy(&fl, &u, 4);
			d = fl;
		} else {
			d = (double)v;
		}
		memcpy(&v, &d, 8);
		return v;
	}
	if (tbytes(pt) == 1)
		return v & 0xff;
	if (tbytes(pt) == 2)
		return v & 0xffff;
	if (tbytes(pt) == 4 || pt == PT_PRED)
		return (uint32_t)v;
	return v;
}

void be_mov(Fn *f, Blk *b, int dst, MOpd src, int cls)
{
	MIns *in;

	if (cls == TC_P) {
		be_psetp(f, b, dst, src, be_p(T_PT), BOP_AND);
		return;
	}
	if (cls == TC_R4) {
		for (int k = 0; k < 4; k++) {
			MOpd s = src;
			if (src.kind == OPD_REG)
				s = be_rpart(src.t, k);
			else if (src.kind == OPD_IMM)
				s = be_imm(k < 2 ? (int64_t)(uint32_t)(src.imm >> (32 * k)) : 0);
			in = be_emit(f, b, OP_MOV);
			in->nopd = 2;
			in->o[0] = be_rpart(dst, k);
			in->o[1] = s;
		}
		return;
	}
	if (src.kind == OPD_IMM && cls == TC_R) {
		in = be_emit(f, b, OP_MOV32I);
		in->nopd = 2;
		in->o[0] = be_r(dst);
		in->o[1] = be_imm((uint32_t)src.imm);
		return;
	}
	if (src.kind == OPD_REG && src.t == dst && !src.part)
		return;
	in = be_emit(f, b, OP_MOV);
	in->nopd = 2;
	in->o[0] = be_r(dst);
	in->o[1] = src;
	if (cls == TC_R2)
		in->m.dtype = TY_B64;
}

/* d = a + b (sub: a - b) on 64-bit values, carry chain */
void be_add64(Fn *f, Blk *b, int d, MOpd a, MOpd c, int sub)
{
	MIns *in;

	if (sub && c.kind == OPD_IMM) {
		c.imm = (int64_t)(0 - (uint64_t)c.imm);
		sub = 0;
	}
	a = be_inreg(f, b, a, TC_R2);
	in = be_op3(f, b, OP_IADD, be_rpart(d, 0), be_part(a, 0), be_part(c, 0));
	in->m.flags = MF_CC;
	if (sub)
		in->o[2].flags = OPF_NEG;
	in = be_op3(f, b, OP_IADD, be_rpart(d, 1), be_part(a, 1), be_part(c, 1));
	in->m.flags = MF_X;
	if (sub)
		in->o[2].flags = OPF_NOT;
}

/* d = p ? a : c, word by word on pairs */
void be_sel64(Fn *f, Blk *b, int d, MOpd a, MOpd c, int p)
{
	for (int k = 0; k < 2; k++) {
		MIns *x = be_op3(f, b, OP_SEL, be_rpart(d, k), be_part(a, k), be_part(c, k));
		x->nopd = 4;
		x->o[3] = be_p(p);
	}
}

/* the address of a named object into a fresh temporary of class cls */
static int sym_addr(Fn *f, Blk *b, int symkind, int sym, int64_t off, int cls)
{
	int t = be_newtmp(f, cls);
	const PVar *v = NULL;
	MIns *in;

	if (symkind == PSYM_VAR)
		v = &f->m->vars[sym];
	else if (symkind == PSYM_LOCAL)
		v = &f->pf->locals[sym];
	if (symkind == PSYM_FUNC) {
		in = be_emit(f, b, OP_MOV32I);
		in->nopd = 2;
		in->o[0] = cls == TC_R2 ? be_rpart(t, 0) : be_r(t);
		in->o[1].kind = OPD_TARGET;
		in->o[1].imm = -1 - sym;
		f->hascall = 1;
		if (cls == TC_R2)
			be_op3(f, b, OP_MOV, be_rpart(t, 1), be_r(T_RZ), be_r(T_RZ))->nopd = 2;
		return t;
	}
	if (symkind == PSYM_PARAM && f->pf->entry) {
		/* a kernel parameter's address is its offset in the parameter list, as ptxas 11.8's
		 * and the oracle's (read back by ld.param through a register: LDC
		 * c[0x0][reg+BE_KPARAM_BASE+imm]) */
		be_mov(f, b, t, be_imm((int64_t)(be_entry_param_off(f->pf, sym) - BE_KPARAM_BASE) + off), cls);
		return t;
	}
	if (symkind == PSYM_PARAM) {
		/* a .func parameter's address is in the local space (the PTX ISA's mov: the
		 * parameter is copied onto the stack): its slot of the incoming area, SP + offset */
		MOpd lo = cls == TC_R2 ? be_rpart(t, 0) : be_r(t);
		be_op3(f, b, OP_IADD, lo, be_r(T_SP),
		       be_imm((uint32_t)((int64_t)be_func_param_off(f->pf, symkind, sym) + off)));
		if (cls == TC_R2)
			be_op3(f, b, OP_MOV, be_rpart(t, 1), be_r(T_RZ), be_r(T_RZ))->nopd = 2;
		return t;
	}
	if (!v) {
		be_errorf(f, f->pf->ins[f->cur_ptx].loc, "unsupported: the address of a return value");
		return t;
	}
	switch ((int)v->space) {
	case PS_GLOBAL:
		/* the loader writes the variable's address into its constant slot */
		in = be_emit(f, b, OP_MOV);
		in->nopd = 2;
		in->o[0] = be_r(t);
		in->o[1] = be_cst(0xe, 8 * sym);
		if (cls == TC_R2) {
			in->m.dtype = TY_B64;
			if (off)
				be_add64(f, b, t, be_r(t), be_imm(off), 0);
		} else if (off) {
			be_op3(f, b, OP_IADD, be_r(t), be_r(t), be_imm((uint32_t)off));
		}
		return t;
	case PS_SHARED: case PS_SHARED_CTA: case PS_CONST: {
		int64_t a = (int64_t)be_var_offset(f, symkind, sym) + off;
		be_mov(f, b, t, be_imm(a), cls);
		return t;
	}
	case PS_LOCAL: case PS_PARAM: {
		int64_t a = (int64_t)be_var_offset(f, symkind, sym) + off;
		if (!f->pf->entry && symkind != PSYM_VAR) {   /* (a module .local: from 0) */
			MOpd lo = cls == TC_R2 ? be_rpart(t, 0) : be_r(t);
			be_op3(f, b, OP_IADD, lo, be_r(T_SP), be_imm((uint32_t)a));
			if (cls == TC_R2)
				be_op3(f, b, OP_MOV, be_rpart(t, 1), be_r(T_RZ), be_r(T_RZ))->nopd = 2;
		} else {
			be_mov(f, b, t, be_imm(a), cls);
		}
		return t;
	}
	default:
		be_errorf(f, f->pf->ins[f->cur_ptx].loc, "unsupported: the address of '%s'", v->name);
		return t;
	}
}

MOpd be_src(Fn *f, Blk *b, const POpd *o, int pt)
{
	switch ((int)o->kind) {
	case POK_REG: {
		int t = f->regtmp[o->reg];
		if (f->tmp[t].cls == TC_P)
			return be_pn(t, o->flags & POF_NOT);
		return be_r(t);
	}
	case POK_IMM:
		if (pt == PT_PRED) {
			return be_pn(T_PT, o->imm == 0);   /* any integer but 0 is true (ptx_check) */
		}
		return be_imm(imm_for(o, pt));
	case POK_SREG: {
		int w = ptx_sreg_bytes((PSReg)o->sreg) == 8 && tbytes(pt) == 8;
		int t = be_newtmp(f, w ? TC_R2 : TC_R);
		SReg s = sreg_of(o->sreg, o->comp, 0);
		MIns *in;
		if ((PSReg)o->sreg == PSR_DYNAMIC_SMEM_SIZE) {
			/* a word the launch writes, as ptxas 11.8 reads c[0x0][0x114] on sm_35 */
			be_mov(f, b, t, be_cst(ISA_DYNSMEM_BANK, ISA_DYNSMEM_OFF), TC_R);
			return be_r(t);
		}
		if (PTX_IS_ENVREG(o->sreg) && s == SR_COUNT) {
			be_errorf(f, o->loc, "unsupported: %s in '%s': " PTX_ENVREG_WHY,
			          ptx_sreg_name((PSReg)o->sreg), f->pf->name);
			return be_r(T_RZ);
		}
		if (s == SR_COUNT) {
			be_errorf(f, o->loc, "unsupported: special register %s",
			          ptx_sreg_name((PSReg)o->sreg));
			return be_r(T_RZ);
		}
		in = be_emit(f, b, OP_S2R);
		in->nopd = 2;
		in->o[0] = w ? be_rpart(t, 0) : be_r(t);
		in->o[1].kind = OPD_SREG;
		in->o[1].imm = s;
		if (w) {
			if ((PSReg)o->sreg == PSR_GRIDID) {
				in = be_emit(f, b, OP_MOV);
				in->nopd = 2;
				in->o[0] = be_rpart(t, 1);
				in->o[1] = be_r(T_RZ);
			} else {
				in = be_emit(f, b, OP_S2R);
				in->nopd = 2;
				in->o[0] = be_rpart(t, 1);
				in->o[1].kind = OPD_SREG;
				in->o[1].imm = sreg_of(o->sreg, o->comp, 1);
			}
		}
		return be_r(t);
	}
	case POK_SYM:
		return be_r(sym_addr(f, b, o->symkind, o->sym, o->imm, tbytes(pt) == 8 ? TC_R2 : TC_R));
	default:
		be_errorf(f, o->loc, "unsupported operand");
		return be_r(T_RZ);
	}
}

MOpd be_src_reg(Fn *f, Blk *b, const POpd *o, int pt)
{
	MOpd s = be_src(f, b, o, pt);
	int t;

	if (s.kind == OPD_REG || s.kind == OPD_PRED)
		return s;
	t = be_newtmp(f, tbytes(pt) == 8 ? TC_R2 : TC_R);
	be_mov(f, b, t, s, f->tmp[t].cls);
	return be_r(t);
}

int be_dst(Fn *f, const POpd *o)
{
	if (o->kind == POK_REG)
		return f->regtmp[o->reg];
	return -1;
}

/* a register operand's word k (a pair's half) or the matching half of an immediate */
MOpd be_part(MOpd s, int k)
{
	if (s.kind == OPD_REG && s.t != T_RZ)
		return be_rpart(s.t, k);
	if (s.kind == OPD_IMM)
		return be_imm((uint32_t)((uint64_t)s.imm >> (32 * k)));
	return s;
}

void be_fix16(Fn *f, Blk *b, int t, int pt)
{
	MIns *in;
	int n = pt != PT_NONE ? tbytes(pt) : 2;

	if (t < 0 || !f->tmp[t].w16)
		return;
	if (f->tmp[t].ptxreg >= 0)
		n = tbytes(f->pf->regs[f->tmp[t].ptxreg].type);
	in = be_emit(f, b, OP_LOP);
	in->m.sub = SUB_AND;
	in->nopd = 3;
	in->o[0] = be_r(t);
	in->o[1] = be_r(t);
	in->o[2] = be_imm(n == 1 ? 0xff : 0xffff);
}

/* a narrow signed operand sign-extended to 32 bits (others unchanged) */
MOpd be_widen(Fn *f, Blk *b, MOpd s, int pt)
{
	int t;
	MIns *in;

	if (tbytes(pt) >= 4)
		return s;
	if (s.kind == OPD_IMM) {
		int64_t v = s.imm;
		if (tsigned(pt))
			v = tbytes(pt) == 1 ? (int8_t)v : (int16_t)v;
		return be_imm((uint32_t)v);
	}
	if (!tsigned(pt))
		return s;
	t = be_newtmp(f, TC_R);
	in = be_emit(f, b, OP_I2I);
	in->m.dtype = TY_S32;
	in->m.stype = tbytes(pt) == 1 ? TY_S8 : TY_S16;
	in->nopd = 2;
	in->o[0] = be_r(t);
	in->o[1] = s;
	return be_r(t);
}

/* a register source (immediates moved into a fresh register) */
MOpd be_inreg(Fn *f, Blk *b, MOpd s, int cls)
{
	int t;

	if (s.kind == OPD_REG)
		return s;
	t = be_newtmp(f, cls);
	be_mov(f, b, t, s, cls);
	return be_r(t);
}

/* ------------------------------------------------------------------ memory operands */
/* a memory operand resolved: its space (symbols and .shared::cta folded), the address
 * operand, whether the base is a pair; kernel parameters are bank 0 */
int be_addr_of(Fn *f, Blk *b, const PIns *in, const POpd *o, BeAddr *a)
{
	int space = in->m.space;

	memset(a, 0, sizeof *a);
	if (space == PS_SHARED_CTA)
		space = PS_SHARED;
	if (o->kind != POK_ADDR)
		return be_unsup(f, in, "address operand"), -1;
	if (o->sym >= 0) {
		const PVar *v = NULL;
		if (o->symkind == PSYM_VAR)
			v = &f->m->vars[o->sym];
		else if (o->symkind == PSYM_LOCAL)
			v = &f->pf->locals[o->sym];
		if (o->symkind == PSYM_PARAM && f->pf->entry) {
			a->entryparam = 1;
			a->space = PS_PARAM;
			a->mem = be_cst(0, be_entry_param_off(f->pf, o->sym) + o->imm);
			return 0;
		}
		if (o->symkind == PSYM_PARAM || o->symkind == PSYM_RET) {
			a->space = PS_LOCAL;
			a->mem = be_mem(T_SP, be_func_param_off(f->pf, o->symkind, o->sym) + o->imm);
			return 0;
		}
		if (!v)
			return be_unsup(f, in, "address"), -1;
		int vs = v->space == PS_SHARED_CTA ? PS_SHARED : v->space;
		if (space != PS_NONE && vs != space && !(vs == PS_PARAM && space == PS_PARAM))
			return be_errorf(f, o->loc, "'%s' is not in the %s space", v->name,
			                 ptx_space_name((PSpace)space)), -1;
		switch (vs) {
		case PS_GLOBAL: {
			int t = be_newtmp(f, TC_R2);
			MIns *x = be_emit(f, b, OP_MOV);
			x->nopd = 2;
			x->m.dtype = TY_B64;
			x->o[0] = be_r(t);
			x->o[1] = be_cst(0xe, 8 * o->sym);
			a->space = PS_GLOBAL;
			a->mem = be_mem(t, o->imm);
			a->wide = 1;
			return 0;
		}
		case PS_SHARED:
			a->space = PS_SHARED;
			a->mem = be_mem(T_RZ, be_var_offset(f, o->symkind, o->sym) + o->imm);
			return 0;
		case PS_CONST:
			a->space = PS_CONST;
			a->mem = be_cst(3, be_var_offset(f, o->symkind, o->sym) + o->imm);
			return 0;
		case PS_LOCAL: case PS_PARAM:
			a->space = PS_LOCAL;
			if (vs == PS_PARAM && o->symkind == PSYM_LOCAL && !f->parhome[o->sym]) {
				/* a call argument or result: the outgoing area at the frame's end */
				a->mem = be_mem(f->pf->entry ? T_RZ : T_SP, be_var_offset(f, o->symkind, o->sym) + o->imm);
				a->mem.bank = 1;
				return 0;
			}
			a->mem = be_mem(f->pf->entry || o->symkind == PSYM_VAR ? T_RZ : T_SP,
			                be_var_offset(f, o->symkind, o->sym) + o->imm);
			return 0;
		default:
			return be_unsup(f, in, "state space of the variable"), -1;
		}
	}
	if (o->reg < 0) {
		if (space == PS_SHARED || space == PS_LOCAL) {
			a->space = space;
			a->mem = be_mem(T_RZ, o->imm);
			return 0;
		}
		return be_unsup(f, in, "absolute address"), -1;
	}
	int t = f->regtmp[o->reg];
	a->space = space;
	if (space == PS_PARAM && f->pf->entry)
		space = a->space = PS_CONST;    /* bank 0, where the kernel's parameters are */
	else if (space == PS_PARAM)
		space = a->space = PS_LOCAL;
	if (space == PS_CONST) {
		/* a kernel parameter's address is its offset in the parameter list */
		a->mem = in->m.space == PS_PARAM ? be_cst(0, BE_KPARAM_BASE + o->imm) : be_cst(3, o->imm);
		a->mem.t = t;
		if (f->tmp[t].cls == TC_R2)
			a->mem.part = 1;
		return 0;
	}
	a->mem = be_mem(t, o->imm);
	if (space == PS_SHARED || space == PS_LOCAL) {
		if (f->tmp[t].cls == TC_R2)
			a->mem.part = 1;
	} else {
		a->wide = f->tmp[t].cls == TC_R2;
	}
	return 0;
}

/* ------------------------------------------------------------------ comparisons */
/* the ISA comparison of a PTX one; *isunsigned is set for lo/ls/hi/hs */
Cmp be_cmp_of(int c, int *isunsigned)
{
	switch (c) {
	case PCMP_EQ: return CMP_EQ;
	case PCMP_NE: return CMP_NE;
	case PCMP_LT: return CMP_LT;
	case PCMP_LE: return CMP_LE;
	case PCMP_GT: return CMP_GT;
	case PCMP_GE: return CMP_GE;
	case PCMP_LO: *isunsigned = 1; return CMP_LT;
	case PCMP_LS: *isunsigned = 1; return CMP_LE;
	case PCMP_HI: *isunsigned = 1; return CMP_GT;
	case PCMP_HS: *isunsigned = 1; return CMP_GE;
	case PCMP_EQU: return CMP_EQU;
	case PCMP_NEU: return CMP_NEU;
	case PCMP_LTU: return CMP_LTU;
	case PCMP_LEU: return CMP_LEU;
	case PCMP_GTU: return CMP_GTU;
	case PCMP_GEU: return CMP_GEU;
	case PCMP_NUM: return CMP_NUM;
	case PCMP_NAN: return CMP_NAN;
	default: return CMP_NONE;
	}
}

/* ------------------------------------------------------------------ 16-bit float lanes */
/* the exact f32 of lane k (0: bits 15..0, 1: bits 31..16) of s, f16 or bf16 (et); ftz flushes
 * an f16 subnormal to the zero of its sign first */
MOpd be_half_f32(Fn *f, Blk *b, MOpd s, int et, int k, int ftz)
{
	int t = be_newtmp(f, TC_R);
	MIns *x;

	s = be_inreg(f, b, s, TC_R);
	if (et == PT_BF16) {
		if (k)
			be_lop(f, b, SUB_AND, t, s, be_imm((int64_t)0xffff0000));
		else
			be_shift(f, b, OP_SHL, t, s, 16);
		return be_r(t);
	}
	if (k) {
		int h = be_newtmp(f, TC_R);
		be_shift(f, b, OP_SHR, h, s, 16);
		s = be_r(h);
	}
	if (ftz) {
		int e = be_newtmp(f, TC_R), z = be_newtmp(f, TC_R), h = be_newtmp(f, TC_R), p = be_newtmp(f, TC_P);
		be_lop(f, b, SUB_AND, e, s, be_imm(0x7c00));
		be_lop(f, b, SUB_AND, z, s, be_imm(0x8000));
		be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, p, T_PT, be_r(e), be_r(T_RZ), be_p(T_PT), BOP_AND);
		x = be_op3(f, b, OP_SEL, be_r(h), be_r(z), s);
		x->nopd = 4;
		x->o[3] = be_p(p);
		s = be_r(h);
	}
	x = be_op2(f, b, OP_F2F, be_r(t), s);
	x->m.dtype = TY_F32;
	x->m.stype = TY_F16;
	return be_r(t);
}

/* d = the bf16 of the f32 bits in u (rounded to nearest even, or toward zero) */
void be_round_bf16(Fn *f, Blk *b, int d, MOpd u, int rz)
{
	int t = be_newtmp(f, TC_R), p = be_newtmp(f, TC_P);
	MIns *x;

	be_shift(f, b, OP_SHR, t, u, 16);
	if (!rz) {
		be_lop(f, b, SUB_AND, t, be_r(t), be_imm(1));
		be_op3(f, b, OP_IADD, be_r(t), be_r(t), u);
		be_op3(f, b, OP_IADD, be_r(t), be_r(t), be_imm(0x7fff));
		be_shift(f, b, OP_SHR, t, be_r(t), 16);
	}
	be_setp_ins(f, b, OP_FSETP, CMP_NAN, TY_F32, p, T_PT, u, u, be_p(T_PT), BOP_AND);
	x = be_op3(f, b, OP_SEL, be_r(d), be_inreg(f, b, be_imm(0x7fff), TC_R), be_r(t));
	x->nopd = 4;
	x->o[3] = be_pn(p, 0);
}

/* .relu of a 16-bit float in d (upper bits zero): a result with its sign bit set (negative
 * or -0) becomes +0 */
void be_relu16(Fn *f, Blk *b, int d)
{
	int p = be_newtmp(f, TC_P);
	MIns *x;

	be_setp_ins(f, b, OP_ISETP, CMP_GE, TY_U32, p, T_PT, be_r(d), be_imm(0x8000), be_p(T_PT), BOP_AND);
	x = be_op3(f, b, OP_SEL, be_r(d), be_r(T_RZ), be_r(d));
	x->nopd = 4;
	x->o[3] = be_p(p);
}

/* ------------------------------------------------------------------ conversions */
/* cvt into a register wider than its destination type (PTX ISA 9.4.1): the conversion
 * writes the low word of the pair (a pair is named by its low register), then the high word
 * is the low word's sign for a signed type and zero otherwise (be_cvt_high). A wider source
 * needs nothing: the low word of a pair is the chopped value the 32-bit and narrower paths
 * read. 1: the pair needs its high word, 0: nothing to do, -1: refused (a located error). */
int be_cvt_wide(Fn *f, const PIns *in)
{
	int d = be_dst(f, &in->o[0]), dt = in->m.types[0];

	if (d < 0 || tbytes(dt) >= 8 || f->tmp[d].cls == TC_R)
		return 0;
	if (f->tmp[d].cls != TC_R2)
		return be_unsup(f, in, "a 128-bit register for a narrower cvt destination"), -1;
	return 1;
}

void be_cvt_high(Fn *f, Blk *b, const PIns *in)
{
	int d = be_dst(f, &in->o[0]);
	MIns *x;

	if (tsigned(in->m.types[0])) {
		x = be_op3(f, b, OP_SHR, be_rpart(d, 1), be_rpart(d, 0), be_imm(31));
		x->m.dtype = TY_S32;
	} else {
		be_op2(f, b, OP_MOV, be_rpart(d, 1), be_r(T_RZ));
	}
}

/* ------------------------------------------------------------------ blocks */
/* a new block that takes over b's terminator; b falls into it */
Blk *be_split(Fn *f, int bi)
{
	int n = be_newblk(f);
	Blk *b = &f->blk[bi], *c = &f->blk[n];

	c->jmp = b->jmp;
	c->s1 = b->s1;
	c->s2 = b->s2;
	c->pfirst = f->cur_ptx + 1;
	c->plast = b->plast;
	b->plast = f->cur_ptx;
	b->jmp.kind = J_JMP;
	b->jmp.ptxins = -1;
	b->jmp.cond = -1;
	b->jmp.neg = b->jmp.uni = b->jmp.div = 0;
	b->s1 = n;
	b->s2 = -1;
	return c;
}

/* a loop of one block L behind the instruction being selected in block bi: bi falls into
 * L, which branches back to itself while cond holds, uniformly (a trip count the same for
 * every lane), and then on to a new block holding the rest of bi (L's s2). Returns L. */
int be_loop_block(Fn *f, int bi, int cond)
{
	int ci = be_split(f, bi)->id, li = be_newblk(f);
	Blk *L;

	be_lay_move(f, ci, bi, 1);
	be_lay_move(f, li, bi, 1);
	f->blk[bi].s1 = li;
	L = &f->blk[li];
	L->pfirst = f->cur_ptx;
	L->plast = f->cur_ptx + 1;
	L->jmp.kind = J_BRA;
	L->jmp.cond = cond;
	L->jmp.uni = 1;
	L->s1 = li;
	L->s2 = ci;
	return li;
}

/* the PTX guard of in on b's instructions from k0 on, for a selector that splits blocks
 * (a loop runs for every lane, its results are copied under the guard): the driver then
 * guards nothing more (Fn.guard_done) */
void be_guard_from(Fn *f, Blk *b, int k0, const PIns *in)
{
	if (in->guard >= 0)
		for (int k = k0; k < b->nins; k++) {
			b->ins[k].guard = f->regtmp[in->guard];
			b->ins[k].gneg = in->gneg;
		}
	f->guard_done = 1;
}
