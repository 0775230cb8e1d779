/* check.c - structural checks of instructions and kernels: guards, modifiers against the
 * op's fields and rules (isa_op_rules), operands against the shape, register numbers and
 * pair alignment, immediate ranges, code targets. Shared by the listing parser (which turns
 * the "where" of a problem into a column) and isa_check_kernel (backend output).
 */
#include <stdarg.h>
#include <string.h>

#include "isa/asm.h"

/* formats a message into msg and returns where */
static int fail(char *msg, size_t size, int where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, size, fmt, ap);
	va_end(ap);
	return where;
}

/* "register, immediate or constant" for a set of OC_ classes */
const char *isa_asm_class_words(unsigned c, char *buf, size_t size)
{
	static const struct {
		unsigned c;        /* OC_ bit */
		const char *word;  /* how it is called in messages */
	} w[] = {
		{OC_R, "register"}, {OC_P, "predicate"}, {OC_I, "immediate"},
		{OC_C, "constant"}, {OC_M, "memory address"}, {OC_S, "special register"},
		{OC_T, "code target"}, {OC_L, "target list"}, {OC_K, "CC test"},
		{OC_Q, "the predicate file PR"},
	};
	size_t nw = sizeof w / sizeof w[0];
	int n = 0, k = 0;

	buf[0] = 0;
	for (size_t i = 0; i < nw; i++)
		n += (c & w[i].c) != 0;
	for (size_t i = 0; i < nw; i++) {
		if (!(c & w[i].c))
			continue;
		k++;
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", w[i].word,
		         k < n - 1 ? ", " : k == n - 1 ? " or " : "");
	}
	return buf;
}

/* (a buffer per thread: listings may be checked on several threads, as isa/asm.c says) */
static const char *class_words(unsigned c)
{
	static _Thread_local char buf[160];

	return isa_asm_class_words(c, buf, sizeof buf);
}

/* the OC_ class of an operand kind */
static unsigned kind_class(int kind)
{
	switch ((OpdKind)kind) {
	case OPD_REG: return OC_R;
	case OPD_PRED: return OC_P;
	case OPD_IMM: return OC_I;
	case OPD_CONST: return OC_C;
	case OPD_MEM: return OC_M;
	case OPD_SREG: return OC_S;
	case OPD_TARGET: return OC_T;
	case OPD_TLIST: return OC_L;
	case OPD_CC: return OC_K;
	case OPD_NONE: return 0;
	}
	return 0;
}

static int check_target(const Kernel *k, int64_t t, char *msg, size_t size, int slot)
{
	if (!k)
		return ISA_AT_OK;
	if (t < 0 || t >= (int64_t)isa_kernel_end(k))
		return fail(msg, size, slot, "target 0x%llx is outside the kernel (code ends at 0x%x)",
		            (unsigned long long)t, (unsigned)isa_kernel_end(k));
	if (t % 8)
		return fail(msg, size, slot, "target 0x%llx is not 8-byte aligned",
		            (unsigned long long)t);
	if (isa_kernel_index(k, (uint32_t)t) < 0)
		return fail(msg, size, slot, "target 0x%llx is not an instruction", (unsigned long long)t);
	return ISA_AT_OK;
}

/* register operand rules: number, pair alignment, the kernel's register count */
static int check_reg(const Kernel *k, const Ins *in, int slot, int reg, char *msg, size_t size)
{
	int n = isa_ins_nregs(in, slot);

	if (reg == ISA_RZ)
		return ISA_AT_OK;
	if (reg >= ISA_NREGS)
		return fail(msg, size, slot, "bad register number %d", reg);
	if (n > 1 && reg % (n == 3 ? 4 : n))
		return fail(msg, size, slot, "R%d must be %s: operand %d of %s is a register %s",
		            reg, n == 2 ? "even" : "a multiple of 4", slot + 1, isa_ops[in->op].name,
		            n == 2 ? "pair" : n == 3 ? "triple (aligned as a quad)" : "quad");
	if (reg + n - 1 >= ISA_NREGS)
		return fail(msg, size, slot, "R%d: the %d-register group runs past R254", reg, n);
	/* a texture's .3D, .CUBE and .2D.ARRAY coordinates are a quad whose fourth register only
	 * TLD.AOFFI's offsets, TEX.LL's level and .CUBE.ARRAY read: ptxas's sm_35 listings may
	 * end the kernel's registers at its third (TEX.P R24, R24, 0x54, CUBE, 0x1 of 27) */
	if (n == 4 && isa_rules(in->op)->regs[slot] == 'G' && !(in->m.flags & (MF_AOFFI | MF_LL)) &&
	    !(in->m.sub == SUB_CUBE && (in->m.flags & MF_ARRAY)))
		n = 3;
	if (k && k->regs > 0 && reg + n > k->regs)
		return fail(msg, size, slot, "R%d is beyond the kernel's %d registers", reg + n - 1,
		            k->regs);
	return ISA_AT_OK;
}

static int check_modifiers(const Ins *in, const IsaRules *r, char *msg, size_t size)
{
	const OpInfo *oi = &isa_ops[in->op];
	const char *mn = oi->name;
	const Mods *m = &in->m;

	if (!isa_takes_sub(r, m->sub)) {
		if (m->sub == SUB_NONE)
			return fail(msg, size, ISA_AT_OP, "%s needs a sub-operation modifier", mn);
		return fail(msg, size, ISA_AT_SUB, "%s does not take .%s", mn,
		            isa_sub_name((Sub)m->sub));
	}
	if (m->cmp >= CMP_COUNT || (m->cmp && !(oi->mods & M_CMP)))
		return fail(msg, size, ISA_AT_CMP, "%s does not take a comparison (.%s)", mn,
		            isa_cmp_name((Cmp)m->cmp));
	if (r->cmpreq && m->cmp == CMP_NONE)
		return fail(msg, size, ISA_AT_OP, "%s needs a comparison modifier (.LT, .EQ, ...)", mn);
	if (m->bop >= BOP_COUNT || (m->bop && !(oi->mods & M_BOP)))
		return fail(msg, size, ISA_AT_BOP, "%s does not take .%s", mn,
		            isa_bop_name((Bop)m->bop));
	if (m->bop2 >= BOP_COUNT || (m->bop2 && !(oi->mods & M_BOP2)))
		return fail(msg, size, ISA_AT_BOP2, "%s does not take a second boolean .%s", mn,
		            isa_bop_name((Bop)m->bop2));
	if (m->dtype >= TY_COUNT || (m->dtype && !(r->dtypes & (1u << m->dtype))))
		return fail(msg, size, ISA_AT_DTYPE, "%s does not take type .%s", mn,
		            isa_type_name((Type)m->dtype));
	if (m->stype >= TY_COUNT || (m->stype && !(r->stypes & (1u << m->stype))))
		return fail(msg, size, ISA_AT_STYPE, r->stypes ? "%s does not take source type .%s"
		            : "%s takes one type modifier, not a second .%s", mn,
		            isa_type_name((Type)m->stype));
	if (m->rnd >= RND_COUNT || (m->rnd && !(r->rnds & (1u << m->rnd))))
		return fail(msg, size, ISA_AT_RND, "%s does not take rounding .%s", mn,
		            isa_rnd_name((Rnd)m->rnd));
	for (int b = 0; b < ISA_NFLAGS; b++) {
		unsigned f = 1u << b;

		if (!(m->flags & f))
			continue;
		/* MF_x and M_x are in the same order from CC (M_CC = 1 << 6) on */
		if (f > MF_LAST || !(oi->mods & ((uint32_t)M_CC << b)))
			return fail(msg, size, ISA_AT_FLAG - b, "%s does not take .%s", mn,
			            isa_flag_name(b));
	}
	if ((m->flags & MF_HI) && (m->flags & MF_WIDE))
		return fail(msg, size, ISA_AT_FLAG - 3, "%s cannot be both .HI and .WIDE", mn);
	if ((m->flags & MF_UD) && (m->flags & MF_SD))
		return fail(msg, size, ISA_AT_FLAG - 14, "%s cannot be both .UD and .SD", mn);
	if (__builtin_popcount(m->flags & (MF_ACC | MF_VMIN | MF_VMAX)) > 1)
		return fail(msg, size, ISA_AT_FLAG - 17, "%s takes one secondary operation: .ACC, .MIN "
		            "or .MAX", mn);
	if ((m->flags & MF_AVRG) && (in->o[2].flags & OPF_NEG))
		return fail(msg, size, 2, "%s.AVRG averages: its b cannot be negated", mn);
	if ((m->flags & MF_SHR7) && (m->flags & MF_SHR15))
		return fail(msg, size, ISA_AT_FLAG - 23, "%s takes one scale: .SHR_7 or .SHR_15", mn);
	if (in->op == OP_VMAD && (m->flags & MF_PO) &&
	    ((in->o[1].flags | in->o[2].flags | in->o[3].flags) & OPF_NEG))
		return fail(msg, size, ISA_AT_FLAG - 22, "%s.PO takes no negated operand", mn);
	return ISA_AT_OK;
}

static int check_operand(const Kernel *k, const Ins *in, const IsaRules *r, int i,
                         char *msg, size_t size)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
	const Opd *o = &in->o[i];
	const char *mn = isa_ops[in->op].name;
	unsigned cls = o->kind == OPD_PRED && o->reg == ISA_PR ? OC_Q : kind_class(o->kind);
	unsigned fl = o->flags & (OPF_NEG | OPF_ABS | OPF_NOT);
	int w;

	if (o->kind == OPD_NONE) {
		if (!si->optional[i])
			return fail(msg, size, ISA_AT_END, "%s: missing operand %d (%s)", mn, i + 1,
			            class_words(si->classes[i]));
		return ISA_AT_OK;
	}
	if (!(si->classes[i] & cls))
		return fail(msg, size, i, "operand %d of %s must be a %s", i + 1, mn,
		            class_words(si->classes[i]));
	if (o->flags & ~(OPF_NEG | OPF_ABS | OPF_NOT | OPF_REL | OPF_SEL))
		return fail(msg, size, i, "bad operand flags");
	if (o->flags & OPF_SEL) {
		int sel = (o->flags & OPF_SEL) >> OPF_SEL_SHIFT;
		int cvt = (in->op == OP_I2F || in->op == OP_F2F) && i == 1;
		int tw = isa_type_bytes((Type)(i == 1 && !cvt ? in->m.dtype : in->m.stype));
		if (!((in->op == OP_VMAD && (i == 1 || i == 2)) || cvt) || cls != OC_R)
			return fail(msg, size, i, "only VMAD's a and b and the source of I2F and F2F "
			            "take a selector (.B0-.B3, .H0, .H1)");
		if (sel > 6 || tw != (sel >= 5 ? 2 : 1))
			return fail(msg, size, i, "operand %d of %s: a %s selector needs %s type", i + 1,
			            mn, sel >= 5 ? "half-word" : "byte", sel >= 5 ? "a 16-bit" : "an 8-bit");
	}
	if ((o->flags & OPF_REL) && (i != 0 || cls != OC_R || (in->op != OP_BRX && in->op != OP_JCAL)))
		return fail(msg, size, i, "only the register of BRX and JCAL takes an offset");
	if (fl && (si->dst[i] || (cls != OC_R && cls != OC_C && cls != OC_P)))
		return fail(msg, size, i, "operand %d of %s cannot carry '-', '|...|' or '~'", i + 1,
		            mn);
	if (cls != OC_P && (fl & OPF_NOT) && (fl & (OPF_NEG | OPF_ABS)))
		return fail(msg, size, i, "'~' does not combine with '-' or '|...|'");
	if ((cls == OC_P || cls == OC_Q) && (fl & ~OPF_NOT))
		return fail(msg, size, i, "a predicate takes only '!'");
	if ((cls == OC_R || cls == OC_C) && (fl & ~r->srcmods)) {
		const char *what = fl & OPF_NOT ? "'~'" : fl & OPF_ABS ? "'|...|'" : "'-'";
		return fail(msg, size, i, "%s does not take %s on its operands", mn, what);
	}
	w = isa_ins_nregs(in, i);
	switch ((OpdKind)o->kind) {
	case OPD_REG:
		return check_reg(k, in, i, o->reg, msg, size);
	case OPD_PRED:
		if (o->reg > ISA_PT && cls != OC_Q)
			return fail(msg, size, i, "bad predicate number %d", o->reg);
		return ISA_AT_OK;
	case OPD_IMM: {
		int fb = isa_imm_float_bits(in, i);
		if (fb == 64 || (fb == 0 && w > 1))
			return ISA_AT_OK;
		if (fb == 32 && (o->imm < 0 || o->imm > 0xffffffffll))
			return fail(msg, size, i, "float immediate bits out of range");
		if (o->imm < -0x80000000ll || o->imm > 0xffffffffll)
			return fail(msg, size, i, "immediate %s0x%llx does not fit in 32 bits",
			            o->imm < 0 ? "-" : "", (unsigned long long)(o->imm < 0 ? -(uint64_t)o->imm
			            : (uint64_t)o->imm));
		return ISA_AT_OK;
	}
	case OPD_CONST:
		if (o->bank > 15)
			return fail(msg, size, i, "constant bank 0x%x out of range (0x0..0xf)", o->bank);
		if (o->reg == ISA_RZ ? (o->imm < 0 || o->imm > 0xffff)
		    : (o->imm < -0x8000 || o->imm > 0xffff))
			return fail(msg, size, i, "constant offset out of range (a bank is 64 KiB)");
		if (isa_ops[in->op].flags & F_LOAD) {   /* LDC: the constant is the address */
			int b = isa_type_bytes(isa_ins_dtype(in));
			if (o->imm % b)
				return fail(msg, size, i, "constant offset not aligned to %d bytes", b);
		} else if (o->imm % (4 * w)) {
			return fail(msg, size, i, "constant offset not aligned to %d bytes", 4 * w);
		}
		if (o->reg != ISA_RZ)
			return check_reg(k, in, i, o->reg, msg, size);
		return ISA_AT_OK;
	case OPD_MEM:
		if (o->reg == ISA_RZ ? (o->imm < 0 || o->imm > 0xffffffffll)
		    : (o->imm < -0x80000000ll || o->imm > 0x7fffffffll))
			return fail(msg, size, i, "address offset out of range");
		return check_reg(k, in, i, o->reg, msg, size);
	case OPD_SREG:
		if (o->imm < 0 || o->imm >= SR_COUNT)
			return fail(msg, size, i, "bad special register");
		return ISA_AT_OK;
	case OPD_CC:
		if (o->imm < 0 || o->imm >= CCT_COUNT)
			return fail(msg, size, i, "bad CC test");
		return ISA_AT_OK;
	case OPD_TARGET:
		return check_target(k, o->imm, msg, size, i);
	case OPD_TLIST:
		if (o->n == 0)
			return fail(msg, size, i, "empty target list");
		if (!k)
			return ISA_AT_OK;
		if (o->imm < 0 || o->imm + o->n > k->ntl)
			return fail(msg, size, i, "target list outside the kernel's pool");
		for (int j = 0; j < o->n; j++) {
			int at = check_target(k, k->tl[o->imm + j], msg, size, i);
			if (at != ISA_AT_OK)
				return at;
		}
		return ISA_AT_OK;
	case OPD_NONE:
		break;
	}
	return ISA_AT_OK;
}

/* op-specific operand rules beyond the shape */
static int check_special(const Ins *in, const IsaRules *r, char *msg, size_t size)
{
	const Opd *o = in->o;

	if (in->op == OP_LOP && (in->m.flags & MF_X) && !(in->m.flags & MF_CC))
		return fail(msg, size, ISA_AT_FLAG - __builtin_ctz(MF_X),
		            "LOP.X (the zero flag of a word chain) needs .CC");
	if (isa_takes_sub(r, SUB_CAS)) {        /* ATOM, ATOMS */
		if (in->m.sub == SUB_CAS && o[3].kind == OPD_NONE)
			return fail(msg, size, ISA_AT_END, "%s.CAS needs the new value as operand 4",
			            isa_ops[in->op].name);
		if (in->m.sub != SUB_CAS && o[3].kind != OPD_NONE)
			return fail(msg, size, 3, "only %s.CAS takes a fourth operand",
			            isa_ops[in->op].name);
	}
	if (isa_tex_slot(in) >= 0 && (o[isa_tex_slot(in)].imm < 0 || o[isa_tex_slot(in)].imm > 0xff))
		return fail(msg, size, isa_tex_slot(in), "texture slot must be 0x0..0xff");
	if (isa_surf_slot(in) >= 0 && (o[isa_surf_slot(in)].imm < 0 || o[isa_surf_slot(in)].imm > 0xff))
		return fail(msg, size, isa_surf_slot(in), "surface slot must be 0x0..0xff");
	if ((in->op == OP_SULD || in->op == OP_SUST || in->op == OP_SULDB || in->op == OP_SUSTB) &&
	    (o[3].imm < 0 || o[3].imm > 2))
		return fail(msg, size, 3, "%s mode must be 0x0..0x2 (trap, clamp, zero)", isa_ops[in->op].name);
	if ((in->op == OP_SUSTP || in->op == OP_SUSTPB) &&
	    (o[3].imm < 0 || o[3].imm > 0xe || (o[3].imm & 3) == 3))
		return fail(msg, size, 3, "%s mode must be a mode 0x0..0x2 (trap, clamp, zero) plus 4 "
		            "times a channel 0..3", isa_ops[in->op].name);
	if ((in->op == OP_SUQ || in->op == OP_SUQB) && (o[2].imm < 0 || o[2].imm > 0xe ||
	                                                (o[2].imm > 6 && o[2].imm < 0xe) || o[2].imm == 3))
		return fail(msg, size, 2, "%s attribute must be 0x0..0x2, 0x4..0x6 or 0xe (width, height, "
		            "depth, channel data type, channel order, array size, memory layout)",
		            isa_ops[in->op].name);
	if ((in->op == OP_TEX || in->op == OP_TLD || in->op == OP_TEXB || in->op == OP_TLDB) &&
	    o[3].kind == OPD_IMM && (o[3].imm < 1 || o[3].imm > 0xf))
		return fail(msg, size, 3, "%s channel mask must be 0x1..0xf", isa_ops[in->op].name);
	if ((in->op == OP_TXQ || in->op == OP_TXQB) && (o[2].imm < 0 || o[2].imm > 0xd))
		return fail(msg, size, 2, "%s attribute must be 0x0..0xd (width, height, depth, normalized, "
		            "channel data type and order, array size, mipmap levels, samples, forced "
		            "unnormalized, filter mode, address modes)", isa_ops[in->op].name);
	if (in->op == OP_LOP3 && o[4].kind == OPD_IMM && (o[4].imm < 0 || o[4].imm > 0xff))
		return fail(msg, size, 4, "LOP3 truth table must be 0x0..0xff");
	if (in->op == OP_ISCADD && o[3].kind == OPD_IMM && (o[3].imm < 0 || o[3].imm > 31))
		return fail(msg, size, 3, "ISCADD shift must be 0x0..0x1f");
	if ((in->op == OP_BAR || in->op == OP_BARRED) && o[in->op == OP_BAR ? 0 : 1].kind == OPD_IMM) {
		int s = in->op == OP_BAR ? 0 : 1;
		if (o[s].imm < 0 || o[s].imm > 15)
			return fail(msg, size, s, "barrier number must be 0x0..0xf");
	}
	return ISA_AT_OK;
}

int isa_ins_check(const Kernel *k, const Ins *in, char *msg, size_t size)
{
	const OpInfo *oi;
	const ShapeInfo *si;
	IsaRules r;
	int at;

	if (in->op >= OP_COUNT)
		return fail(msg, size, ISA_AT_OP, "bad opcode number %d", in->op);
	oi = &isa_ops[in->op];
	si = isa_shape(oi->shape);
	if (in->guard > ISA_PT)
		return fail(msg, size, ISA_AT_GUARD, "bad guard predicate %d", in->guard);
	if (!(oi->flags & F_PRED) && (in->guard != ISA_PT || in->gneg))
		return fail(msg, size, ISA_AT_GUARD, "%s cannot be guarded", oi->name);
	if (in->sync && (oi->flags & (F_BRANCH | F_PUSH | F_BARRIER)))
		return fail(msg, size, ISA_AT_SYNC, "%s cannot carry .S", oi->name);
	isa_op_rules(in->op, &r);
	at = check_modifiers(in, &r, msg, size);
	if (at != ISA_AT_OK)
		return at;
	if (in->nopd > si->n)
		return fail(msg, size, si->n, "%s takes at most %d operands", oi->name, si->n);
	for (int i = in->nopd; i < ISA_MAXOPD; i++)
		if (in->o[i].kind != OPD_NONE)
			return fail(msg, size, ISA_AT_END, "operand %d beyond nopd", i + 1);
	for (int i = 0; i < si->n; i++) {
		at = check_operand(k, in, &r, i, msg, size);
		if (at != ISA_AT_OK)
			return at;
	}
	if (k && isa_tex_slot(in) >= 0 && in->o[isa_tex_slot(in)].imm >= k->ntex)
		return fail(msg, size, isa_tex_slot(in), "texture slot 0x%llx: the kernel declares %d (.tex NAME)",
		            (unsigned long long)in->o[isa_tex_slot(in)].imm, k->ntex);
	if (k && isa_surf_slot(in) >= 0 && in->o[isa_surf_slot(in)].imm >= k->nsurf)
		return fail(msg, size, isa_surf_slot(in), "surface slot 0x%llx: the kernel declares %d (.surf NAME)",
		            (unsigned long long)in->o[isa_surf_slot(in)].imm, k->nsurf);
	return check_special(in, &r, msg, size);
}

int isa_check_kernel(const Kernel *k, const char *name, FILE *err)
{
	char msg[256];
	int nerr = 0;

	for (int i = 0; i < k->nins; i++) {
		const Ins *in = &k->ins[i];

		if (in->addr != 8u * (unsigned)i) {
			fprintf(err, "%s: kernel '%s' /*%04x*/: error: instruction %d has address 0x%x\n",
			        name, k->name, 8u * (unsigned)i, i, (unsigned)in->addr);
			nerr++;
			continue;
		}
		if (isa_ins_check(k, in, msg, sizeof msg) == ISA_AT_OK)
			continue;
		if (in->line > 0)
			fprintf(err, "%s:%d: error: %s\n", name, (int)in->line, msg);
		else
			fprintf(err, "%s: kernel '%s' /*%04x*/: error: %s\n", name, k->name,
			        (unsigned)in->addr, msg);
		nerr++;
	}
	for (int i = 0; i < k->nlabels; i++)
		if (k->labels[i].addr > 8u * (unsigned)k->nins || k->labels[i].addr % 8) {
			fprintf(err, "%s: kernel '%s': error: label '%s' at 0x%x is not an instruction\n",
			        name, k->name, k->labels[i].name, (unsigned)k->labels[i].addr);
			nerr++;
		}
	return nerr;
}
