/* isel_mem.c - instruction selection of loads, stores, address conversions, barriers,
 * warp-wide ops and textures (atomics: isel_atom.c).
 *
 * State spaces: .global and generic -> LD/ST.E through a 64-bit pair (generic addresses
 * use the simulator's windows: shared at c[0x0][0x18], local at c[0x0][0x1c]); .shared ->
 * LDS/STS on 32-bit offsets; .local -> LDL/STL in the thread's frame (RZ-based in a kernel,
 * R1-based in a .func); kernel .param -> c[0x0][0x20+off]; .func .param -> the frame;
 * .const -> bank 3 (module .const variables, layout.c). A vector of 32- or 64-bit
 * elements is one access per 8 or 16 bytes, as ptxas does for sm_35: .v2 of 32 bits
 * LD/ST.64 on a register pair, .v4 of 32 bits and .v2 of 64 bits .128 on a quad (a .v4 of
 * 64 bits or .v8 of 32 bits two .128; LDC stops at .64); other vectors one access per
 * element. Texture fetches -> TEX/TLD.
 */
#include <string.h>
#include "backend/be.h"

/* memory type modifier of an access of one element */
static Type mty(int pt)
{
	switch (tbytes(pt)) {
	case 1: return tsigned(pt) ? TY_S8 : TY_U8;
	case 2: return tsigned(pt) ? TY_S16 : TY_U16;
	case 8: return TY_B64;
	case 16: return TY_B128;
	default: return TY_NONE;
	}
}

typedef BeAddr Addr;

enum { CONST_WINDOW = 0x03000000 }; /* the constant window's base (device.h: DEV_CONST_WINDOW) */

static Op ldop(int space, int store)
{
	switch (space) {
	case PS_SHARED: return store ? OP_STS : OP_LDS;
	case PS_LOCAL: case PS_PARAM: return store ? OP_STL : OP_LDL;
	case PS_CONST: return OP_LDC;
	default: return store ? OP_ST : OP_LD;
	}
}

/* a global or generic load's cache operator, as ptxas 11.8 writes it for sm_35: .ca (the
 * default) nothing, .cg .cs .lu .cv their own; ld.global.nc LDG from sm_35 on (the read-only
 * path), LD.NC before. The timing model serves each through the cache its config names
 * (--cache-OP, docs/timing.md "Global memory"). */
static void ld_cache(Fn *f, const PIns *in, MIns *x)
{
	static const Sub sub[PCACHE_COUNT] = {
		[PCACHE_CG] = SUB_CG, [PCACHE_CS] = SUB_CS, [PCACHE_LU] = SUB_LU, [PCACHE_CV] = SUB_CV,
	};

	if (in->m.flags & PMF_NC) {
		if (f->opt->arch >= 35)
			x->op = OP_LDG;
		else
			x->m.sub = SUB_NC;
	} else if (in->m.cache < PCACHE_COUNT) {
		x->m.sub = (uint8_t)sub[in->m.cache];
	}
}

/* pair d = the 32-bit word w, zero- or (signed pt) sign-extended from s (w or d's low word) */
static void widen_word(Fn *f, Blk *b, int d, MOpd w, MOpd s, int pt)
{
	MIns *x;

	be_op3(f, b, OP_MOV, be_rpart(d, 0), w, be_r(T_RZ))->nopd = 2;
	x = be_op3(f, b, tsigned(pt) ? OP_SHR : OP_MOV, be_rpart(d, 1), s, be_imm(31));
	if (!tsigned(pt)) {
		x->nopd = 2;
		x->o[1] = be_r(T_RZ);
	} else {
		x->m.dtype = TY_S32;
	}
}

/* word k of quad or pair q = w (a register word or an immediate) */
static void put_word(Fn *f, Blk *b, int q, int k, MOpd w)
{
	MIns *x = be_emit(f, b, w.kind == OPD_IMM ? OP_MOV32I : OP_MOV);

	x->nopd = 2;
	x->o[0] = be_rpart(q, k);
	x->o[1] = w.kind == OPD_IMM ? be_imm((uint32_t)w.imm) : w;
}

/* a vector of n elements of eb = 4 or 8 bytes in one access per gb = 8 or 16 bytes: a
 * store moves its elements into a pair or quad first; a load loads one and moves its words
 * out (the pair or quad marked split: register allocation gives each destination its word,
 * so that the moves vanish where it can). The access as a whole is aligned to its size or
 * faults (the PTX ISA's rule for a vector; the oracle's check), so each part is too. */
static int sel_vec(Fn *f, Blk *b, const PIns *in, int store, const Addr *a, int gb)
{
	int pt = in->m.types[0], n = in->m.vec, eb = tbytes(pt), epc = gb / eb;
	const POpd *val = &in->o[store ? 1 : 0];
	int cls = gb == 16 ? TC_R4 : TC_R2, q[4];

	/* every access first, then the moves out: an element may be the address register */
	for (int c = 0; c < n / epc; c++) {
		MOpd m = a->mem;
		MIns *x;
		q[c] = be_newtmp(f, cls);
		m.imm += (int64_t)c * gb;
		if (store)
			for (int j = 0; j < epc; j++) {
				MOpd v = be_src(f, b, &val->elems[c * epc + j], pt);
				for (int w = 0; w < eb / 4; w++)
					put_word(f, b, q[c], j * eb / 4 + w, eb == 8 ? be_part(v, w) : v);
			}
		x = be_emit(f, b, ldop(a->space, store));
		x->nopd = 2;
		x->m.dtype = (uint8_t)(gb == 16 ? TY_B128 : TY_B64);
		if (x->op == OP_LD)
			ld_cache(f, in, x);
		if (a->wide && (x->op == OP_LD || x->op == OP_LDG || x->op == OP_ST))
			x->m.flags |= MF_E;
		x->o[store ? 0 : 1] = m;
		x->o[store ? 1 : 0] = be_r(q[c]);
		f->tmp[q[c]].split = (uint8_t)!store;
	}
	for (int i = 0; i < n && !store; i++) {
		const POpd *e = &val->elems[i];
		int d, h = q[i / epc], k = i % epc * eb / 4;
		if (e->kind != POK_REG)
			continue;
		d = f->regtmp[e->reg];
		if (eb == 8 && f->tmp[d].cls == TC_R2) {
			be_op3(f, b, OP_MOV, be_rpart(d, 0), be_rpart(h, k), be_r(T_RZ))->nopd = 2;
			be_op3(f, b, OP_MOV, be_rpart(d, 1), be_rpart(h, k + 1), be_r(T_RZ))->nopd = 2;
		} else if (eb == 4 && f->tmp[d].cls == TC_R) {
			be_op3(f, b, OP_MOV, be_r(d), be_rpart(h, k), be_r(T_RZ))->nopd = 2;
		} else if (eb == 4 && f->tmp[d].cls == TC_R2) {
			/* a 32-bit element into a 64-bit register: the low word, extended */
			widen_word(f, b, d, be_rpart(h, k), be_rpart(d, 0), pt);
		} else {
			return be_unsup(f, in, "register size of the destination"), -1;
		}
	}
	return 0;
}

static int sel_ld(Fn *f, Blk *b, const PIns *in, int store)
{
	int pt = in->m.types[0], n = in->m.vec ? in->m.vec : 1;
	const POpd *val = &in->o[store ? 1 : 0], *ad = &in->o[store ? 0 : 1];
	Addr a;
	int eb = tbytes(pt), cls = eb == 16 ? TC_R4 : eb == 8 ? TC_R2 : TC_R;
	int tmp[8], direct[8] = {0};

	if (be_addr_of(f, b, in, ad, &a) < 0)
		return -1;
	if (n > 8 || (eb != 1 && eb != 2 && eb != 4 && eb != 8))
		return be_unsup(f, in, "access width"), -1;
	if (store && a.space == PS_CONST)
		return be_errorf(f, in->loc, "store to the constant space"), -1;
	if (n >= 2 && (eb == 4 || eb == 8) && !a.entryparam && val->kind == POK_VEC)
		return sel_vec(f, b, in, store, &a, a.space == PS_CONST || eb * n == 8 ? 8 : 16);
	/* a load writes its destination register directly, as ptxas's LDS R3, [R3] does: an
	 * instruction reads its address before it writes. An element of a vector whose register
	 * is the base, or of another size, goes to a fresh temporary first and is copied after
	 * the last element's load. */
	for (int k = 0; k < n; k++) {
		const POpd *e = val->kind == POK_VEC ? &val->elems[k] : val;
		MOpd m = a.mem;
		MIns *x;
		m.imm += (int64_t)k * eb;
		if (a.entryparam && store)
			return be_unsup(f, in, "store to a kernel parameter"), -1;
		if (a.entryparam) {
			if (e->kind == POK_SINK) {
				tmp[k] = -1;
				continue;
			}
			/* the PTX ISA leaves a misaligned access undefined; the oracle stops at it
			 * ("misaligned 4-byte param access"), and the constant bank cannot hold it */
			if (m.kind == OPD_CONST && m.t == T_RZ && k == 0 && m.imm % (eb * n))
				return be_errorf(f, in->loc, "misaligned %d-byte access to the kernel parameters "
				                 "at byte %lld: the PTX ISA requires an address aligned to the "
				                 "access size", eb * n, (long long)(m.imm - BE_KPARAM_BASE)), -1;
			tmp[k] = be_newtmp(f, cls);
			if (eb == 4 || eb == 8) {
				x = be_emit(f, b, OP_MOV);
				x->nopd = 2;
				x->o[0] = be_r(tmp[k]);
				x->o[1] = m;
				if (eb == 8)
					x->m.dtype = TY_B64;
			} else {
				x = be_emit(f, b, OP_LDC);
				x->nopd = 2;
				x->m.dtype = (uint8_t)mty(pt);
				x->o[0] = be_r(tmp[k]);
				x->o[1] = m;
			}
			continue;
		}
		MOpd v = {0};
		if (store) {
			v = be_src(f, b, e, pt);
			if (v.kind != OPD_REG || (cls == TC_R2 && f->tmp[v.t].cls != TC_R2)) {
				int t = be_newtmp(f, cls);
				be_mov(f, b, t, v, cls);
				v = be_r(t);
			}
		}
		x = be_emit(f, b, ldop(a.space, store));
		x->nopd = 2;
		x->m.dtype = (uint8_t)mty(pt);
		if (x->op == OP_LD)
			ld_cache(f, in, x);
		if (a.wide && (x->op == OP_LD || x->op == OP_LDG || x->op == OP_ST))
			x->m.flags |= MF_E;
		if (store) {
			x->o[0] = m;
			x->o[1] = v;
		} else {
			int d = e->kind == POK_REG ? f->regtmp[e->reg] : -1;
			if (d >= 0 && f->tmp[d].cls == cls && (n == 1 || d != m.t)) {
				tmp[k] = d;
				direct[k] = 1;
				x->o[0] = be_r(d);
			} else {
				tmp[k] = be_newtmp(f, cls);
				x->o[0] = be_r(tmp[k]);
			}
			x->o[1] = m;
		}
	}
	if (store)
		return 0;
	for (int k = 0; k < n; k++) {
		const POpd *e = val->kind == POK_VEC ? &val->elems[k] : val;
		int d;
		if (e->kind != POK_REG || tmp[k] < 0)
			continue;
		d = f->regtmp[e->reg];
		if (direct[k]) {
			if (tsigned(pt) || eb > tbytes(f->pf->regs[e->reg].type))
				be_fix16(f, b, d, pt);
			continue;
		}
		if (f->tmp[d].cls != cls) {
			/* a narrow load into a wider register, or the reverse: the low word */
			if (f->tmp[d].cls == TC_R2 && cls == TC_R)
				widen_word(f, b, d, be_r(tmp[k]), be_r(tmp[k]), pt);
			else
				return be_unsup(f, in, "register size of the destination"), -1;
			continue;
		}
		be_mov(f, b, d, be_r(tmp[k]), cls);
		if (tsigned(pt) || eb > tbytes(f->pf->regs[e->reg].type))
			be_fix16(f, b, d, pt);
	}
	return 0;
}

/* ------------------------------------------------------------------ cvta */
static int sel_cvta(Fn *f, Blk *b, const PIns *in)
{
	int pt = in->m.types[0], d = be_dst(f, &in->o[0]), to = (in->m.flags & PMF_TO) != 0;
	int sp = in->m.space == PS_SHARED_CTA ? PS_SHARED : in->m.space;
	MOpd a = be_src(f, b, &in->o[1], pt);
	MIns *x;

	if (sp == PS_GLOBAL || sp == PS_PARAM) {
		if (sp != PS_GLOBAL)
			return be_unsup(f, in, "generic addresses of this space"), -1;
		be_mov(f, b, d, a, f->tmp[d].cls);
		return 0;
	}
	if (sp != PS_SHARED && sp != PS_LOCAL && sp != PS_CONST)
		return be_unsup(f, in, "state space"), -1;
	/* generic = space address + window (constant bank 0 holds the shared and local windows'
	 * bases; the constant window's is an immediate) */
	a = be_inreg(f, b, a, f->tmp[d].cls == TC_R2 ? TC_R2 : TC_R);
	x = be_op3(f, b, OP_IADD, tbytes(pt) == 8 ? be_rpart(d, 0) : be_r(d),
	           tbytes(pt) == 8 ? be_part(a, 0) : a, sp == PS_CONST ?
	           be_imm(to ? 0u - CONST_WINDOW : CONST_WINDOW) :
	           be_cst(0, sp == PS_SHARED ? 0x18 : 0x1c));
	if (to && sp != PS_CONST)
		x->o[2].flags = OPF_NEG;
	if (tbytes(pt) == 8) {
		x = be_op3(f, b, OP_MOV, be_rpart(d, 1), be_r(T_RZ), be_r(T_RZ));
		x->nopd = 2;
	}
	return 0;
}

/* isspacep: a generic address is in the shared (local, const) space when it lies in the
 * window whose base constant bank 0 holds (0x18, 0x1c; the constant window's is CONST_WINDOW;
 * docs/warpsim.md), global when in none. p = lo - base <u SIZE, and hi == 0; global: the
 * three tests fail, or hi != 0. */
enum { WINDOW_SIZE = 0x01000000 }; /* the size of each window (device.h: DEV_WINDOW_SIZE) */

static int sel_isspacep(Fn *f, Blk *b, const PIns *in)
{
	int sp = in->m.space, p = be_dst(f, &in->o[0]);
	MOpd a;
	int t[3];

	if (sp == PS_SHARED_CTA || sp == PS_SHARED_CLUSTER)
		sp = PS_SHARED;     /* a cluster is one CTA here: its window is the CTA's */
	if (sp == PS_PARAM || sp == PS_PARAM_ENTRY || sp == PS_PARAM_FUNC) {
		/* no generic address is a param one (only shared, local and const have windows,
		 * everything else is global; cvta of param is refused): p = false */
		be_setp_ins(f, b, OP_ISETP, CMP_NE, TY_U32, p, T_PT, be_r(T_RZ), be_r(T_RZ), be_p(T_PT), BOP_AND);
		return 0;
	}
	a = be_inreg(f, b, be_src(f, b, &in->o[1], PT_U64), TC_R2);
	if (sp != PS_SHARED && sp != PS_LOCAL && sp != PS_CONST && sp != PS_GLOBAL)
		return be_unsup(f, in, "generic addresses of this space"), -1;
	for (int k = 0; k < 3; k++) {
		MIns *x;
		t[k] = be_newtmp(f, TC_R);
		x = be_op3(f, b, OP_IADD, be_r(t[k]), be_part(a, 0), k == 2 ?
		           be_imm(0u - CONST_WINDOW) : be_cst(0, k ? 0x1c : 0x18));
		if (k < 2)
			x->o[2].flags = OPF_NEG;
	}
	if (sp == PS_GLOBAL) {
		for (int k = 0; k < 3; k++)
			be_setp_ins(f, b, OP_ISETP, CMP_GE, TY_U32, p, T_PT, be_r(t[k]),
			            be_imm(WINDOW_SIZE), be_p(k ? p : T_PT), BOP_AND);
		be_setp_ins(f, b, OP_ISETP, CMP_NE, TY_U32, p, T_PT, be_part(a, 1), be_r(T_RZ), be_p(p),
		            BOP_OR);
		return 0;
	}
	be_setp_ins(f, b, OP_ISETP, CMP_LT, TY_U32, p, T_PT, be_r(t[sp == PS_LOCAL ? 1 :
	            sp == PS_CONST ? 2 : 0]), be_imm(WINDOW_SIZE), be_p(T_PT), BOP_AND);
	be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, p, T_PT, be_part(a, 1), be_r(T_RZ), be_p(p), BOP_AND);
	return 0;
}

/* ------------------------------------------------------------------ barriers, warp ops */
static int sel_bar(Fn *f, Blk *b, const PIns *in)
{
	MIns *x;
	int red = in->m.bar == PBAR_RED, arrive = in->m.bar == PBAR_ARRIVE;

	if (red) {
		/* bar.red.op d, a{, b}, {!}c */
		int pt = in->m.types[0], d = be_dst(f, &in->o[0]), r = d;
		int nb = in->nopd;
		if (pt == PT_PRED)
			r = be_newtmp(f, TC_R);
		MOpd s1 = be_src(f, b, &in->o[1], PT_U32);
		MOpd s2 = nb > 3 ? be_src(f, b, &in->o[2], PT_U32) : (MOpd){0};
		MOpd s3 = be_src(f, b, &in->o[nb - 1], PT_PRED);
		x = be_emit(f, b, OP_BARRED);
		x->m.sub = in->m.aop == PAOP_POPC ? SUB_POPC : in->m.aop == PAOP_AND ? SUB_AND : SUB_OR;
		x->nopd = 4;
		x->o[0] = be_r(r);
		x->o[1] = s1;
		x->o[2] = s2;
		x->o[3] = s3;
		if (nb <= 3) {
			x->o[2] = x->o[3];
			x->o[2].kind = OPD_NONE;
		}
		if (pt == PT_PRED)
			be_setp_ins(f, b, OP_ISETP, CMP_NE, TY_U32, d, T_PT, be_r(r), be_r(T_RZ), be_p(T_PT), BOP_AND);
		return 0;
	}
	MOpd b0 = be_src(f, b, &in->o[0], PT_U32);
	MOpd b1 = in->nopd > 1 ? be_src(f, b, &in->o[1], PT_U32) : (MOpd){0};
	x = be_emit(f, b, OP_BAR);
	x->m.sub = arrive ? SUB_ARV : SUB_SYNC;
	x->nopd = in->nopd > 1 ? 2 : 1;
	x->o[0] = b0;
	if (in->nopd > 1)
		x->o[1] = b1;
	return 0;
}

/* 1 when operand at of a warp op is a membermask that may leave an active lane out (not the
 * immediate 0xffffffff): the op's result is then limited to the mask's lanes, as ptxas
 * limits it (a LOP.AND after VOTE or MATCH, which see every active lane) */
static int partial_mask(const PFunc *pf, const PIns *in, int at)
{
	const POpd *o = &in->o[at];
	int defs = 0;

	if (at >= in->nopd || (o->kind == POK_IMM && (uint32_t)o->imm == 0xffffffffu))
		return 0;
	if (o->kind != POK_REG)
		return 1;
	/* a register every definition of which is a mov of 0xffffffff (NVVM's `mov.u32 %r9, -1`
	 * before its shfl and vote) is the full mask too; one in a vector or list may be written
	 * there */
	for (int i = 0; i < pf->nins; i++) {
		const PIns *d = &pf->ins[i];
		for (int s = 0; s < d->nopd; s++) {
			const POpd *x = &d->o[s];
			if (x->kind == POK_VEC || x->kind == POK_LIST)
				for (int e = 0; e < x->nelems; e++)
					if (x->elems[e].kind == POK_REG && x->elems[e].reg == o->reg)
						return 1;
			if (x->kind != POK_REG || x->reg != o->reg || !ptx_ins_writes(d, s))
				continue;
			if (d->op != PO_MOV || d->o[1].kind != POK_IMM || (uint32_t)d->o[1].imm != 0xffffffffu)
				return 1;
			defs++;
		}
	}
	return !defs;
}

/* t = the ballot of p over the active lanes, limited to the mask mm */
static void masked_ballot(Fn *f, Blk *b, int t, MOpd p, MOpd mm)
{
	be_ballot(f, b, t, p);
	be_lop(f, b, SUB_AND, t, be_r(t), mm);
}

/* vote.sync and match.sync whose membermask may leave an active lane out (PTX: the lanes
 * compared are those of the mask): the op over the active lanes, then, as ptxas 11.8 writes
 * it, ballot d = VOTE & m; any p = (VOTE(a) & m) != 0; all p = (VOTE(a) & m) == (VOTE(PT) &
 * m), uni the same or no lane; match.any d = MATCH & m; match.all with g = VOTE(PT) & m:
 * p = (MATCH.ANY & g) == g, d = p ? g : 0 */
static int sel_warp_masked(Fn *f, Blk *b, const PIns *in)
{
	if (in->op == PO_VOTE) {
		int d = be_dst(f, &in->o[0]);
		MOpd p = be_src(f, b, &in->o[1], PT_PRED), mm = be_src(f, b, &in->o[2], PT_U32);
		int t = in->m.vote == PVOTE_BALLOT && d >= 0 ? d : be_newtmp(f, TC_R), g;

		masked_ballot(f, b, t, p, mm);
		if (in->m.vote == PVOTE_BALLOT || d < 0)
			return 0;
		if (in->m.vote == PVOTE_ANY) {
			be_setp_ins(f, b, OP_ISETP, CMP_NE, TY_U32, d, T_PT, be_r(t), be_r(T_RZ), be_p(T_PT), BOP_AND);
			return 0;
		}
		g = be_newtmp(f, TC_R);
		masked_ballot(f, b, g, be_p(T_PT), mm);
		be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, d, T_PT, be_r(t), be_r(g), be_p(T_PT), BOP_AND);
		if (in->m.vote == PVOTE_UNI)
			be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, d, T_PT, be_r(t), be_r(T_RZ), be_p(d), BOP_OR);
		return 0;
	}
	int pt = in->m.types[0];
	int d = be_dst(f, &in->o[0]), p = be_dst(f, &in->o[1]);
	MOpd a = be_inreg(f, b, be_src(f, b, &in->o[2], pt), tbytes(pt) == 8 ? TC_R2 : TC_R);
	MOpd mm = be_src(f, b, &in->o[3], PT_U32);
	int t = in->m.vote != PVOTE_ALL && d >= 0 ? d : be_newtmp(f, TC_R), g;
	MIns *x = be_op3(f, b, OP_MATCH, be_p(T_PT), be_r(t), a);

	x->m.sub = SUB_ANY;
	x->m.dtype = tbytes(pt) == 8 ? TY_B64 : TY_U32;
	if (in->m.vote != PVOTE_ALL) {
		be_lop(f, b, SUB_AND, t, be_r(t), mm);
		return 0;
	}
	g = be_newtmp(f, TC_R);
	masked_ballot(f, b, g, be_p(T_PT), mm);
	be_lop(f, b, SUB_AND, t, be_r(t), be_r(g));
	if (p < 0)
		p = be_newtmp(f, TC_P);
	be_setp_ins(f, b, OP_ISETP, CMP_EQ, TY_U32, p, T_PT, be_r(t), be_r(g), be_p(T_PT), BOP_AND);
	if (d >= 0)
		be_csel(f, b, be_r(d), be_r(g), be_r(T_RZ), p, 0);
	return 0;
}

static int sel_warp(Fn *f, Blk *b, const PIns *in)
{
	MIns *x;

	if ((in->op == PO_VOTE && partial_mask(f->pf, in, 2)) || (in->op == PO_MATCH && partial_mask(f->pf, in, 3)))
		return sel_warp_masked(f, b, in);
	switch ((int)in->op) {
	case PO_VOTE: {
		int d = be_dst(f, &in->o[0]);
		MOpd p = be_src(f, b, &in->o[1], PT_PRED);
		if (in->m.vote == PVOTE_BALLOT) {
			be_ballot(f, b, d, p);
			return 0;
		}
		x = be_ballot(f, b, T_RZ, p);
		x->m.sub = in->m.vote == PVOTE_ALL ? SUB_ALL : in->m.vote == PVOTE_ANY ? SUB_ANY : SUB_EQ;
		x->o[1] = be_p(d);
		return 0;
	}
	case PO_ACTIVEMASK:
		be_ballot(f, b, be_dst(f, &in->o[0]), be_p(T_PT));
		return 0;
	case PO_SHFL: {
		int d = be_dst(f, &in->o[0]), p = be_dst(f, &in->o[1]);
		static const Sub m[] = {SUB_NONE, SUB_UP, SUB_DOWN, SUB_BFLY, SUB_IDX};
		MOpd a = be_inreg(f, b, be_src(f, b, &in->o[2], PT_B32), TC_R);
		MOpd lane = be_src(f, b, &in->o[3], PT_U32), cl = be_src(f, b, &in->o[4], PT_U32);
		x = be_emit(f, b, OP_SHFL);
		x->m.sub = (uint8_t)m[in->m.shfl < PSHFL_COUNT ? in->m.shfl : 0];
		x->nopd = 5;
		x->o[0] = be_p(p >= 0 ? p : T_PT);
		x->o[1] = be_r(d);
		x->o[2] = a;
		x->o[3] = lane;
		x->o[4] = cl;
		return 0;
	}
	case PO_REDUX: {
		int pt = in->m.types[0];
		static const Sub m[PAOP_COUNT] = {[PAOP_ADD] = SUB_SUM, [PAOP_MIN] = SUB_MIN,
			[PAOP_MAX] = SUB_MAX, [PAOP_AND] = SUB_AND, [PAOP_OR] = SUB_OR, [PAOP_XOR] = SUB_XOR};
		x = be_op3(f, b, OP_REDUX, be_r(be_dst(f, &in->o[0])),
		           be_inreg(f, b, be_src(f, b, &in->o[1], pt), TC_R), be_r(T_RZ));
		x->nopd = 2;
		x->m.sub = (uint8_t)m[in->m.aop < PAOP_COUNT ? in->m.aop : 0];
		x->m.dtype = tsigned(pt) ? TY_S32 : TY_U32;
		if (!x->m.sub)
			return be_unsup(f, in, "redux operation"), -1;
		return 0;
	}
	case PO_MATCH: {
		int pt = in->m.types[0];
		int d = be_dst(f, &in->o[0]), p = be_dst(f, &in->o[1]);
		x = be_op3(f, b, OP_MATCH, be_p(p >= 0 ? p : T_PT), be_r(d),
		           be_inreg(f, b, be_src(f, b, &in->o[2], pt), tbytes(pt) == 8 ? TC_R2 : TC_R));
		x->m.sub = in->m.vote == PVOTE_ALL ? SUB_ALL : SUB_ANY;
		x->m.dtype = tbytes(pt) == 8 ? TY_B64 : TY_U32;
		return 0;
	}
	default:
		return be_unsup(f, in, NULL), -1;
	}
}

/* ------------------------------------------------------------------ textures */
/* the pair holding the handle of a texture or surface object [%rd] (bindless), operand at */
static MOpd obj_handle(Fn *f, Blk *b, const PIns *in, int at)
{
	POpd r = in->o[at];

	r.kind = POK_REG;
	r.sym = -1;
	r.imm = 0;
	return be_inreg(f, b, be_src(f, b, &r, PT_U64), TC_R2);
}

/* tex.GEOM.v4.D.C d, [t, {c..}]: the coordinates moved into a group of 1, 2 or 4 registers
 * (.a1d, .a2d, .acube: the layer index first, TEX/TLD.ARRAY; .cube: TEX.CUBE, x, y, z),
 * TEX (.f32 coordinates) or TLD (.s32: texel indices) into a quad, the quad moved out; tld4
 * likewise with TLD4 and a pair (its geometry is .2d). The
 * slot operand is t's index in Module.vars until be_kernel_finish numbers the kernel's
 * textures (Kernel.tex); a texture object's handle register makes them TEXB, TLDB, TLD4B. */
static int sel_tex(Fn *f, Blk *b, const PIns *in)
{
	static const Sub comps[PCOMP_COUNT] = {
		[PCOMP_R] = SUB_R, [PCOMP_G] = SUB_G, [PCOMP_B] = SUB_B, [PCOMP_A] = SUB_A,
	};
	const POpd *d = &in->o[0], *c = &in->o[2];
	int g = in->m.geom;
	int arr = g == PGEOM_A1D || g == PGEOM_A2D || g == PGEOM_ACUBE;
	int cube = g == PGEOM_CUBE || g == PGEOM_ACUBE;
	/* the coordinates in order (an array's .u32 index first) and the group they fill */
	int n = g == PGEOM_3D || g == PGEOM_A2D || g == PGEOM_CUBE ? 3 : g == PGEOM_ACUBE ? 4 :
	        g == PGEOM_2D || g == PGEOM_A1D ? 2 : 1;
	int geom = g == PGEOM_3D || cube ? 3 : g == PGEOM_2D || g == PGEOM_A2D ? 2 : 1;
	int cls = n == 1 ? TC_R : n == 2 ? TC_R2 : TC_R4;
	int ct = be_newtmp(f, cls), dt = be_newtmp(f, TC_R4);
	MIns *x;

	for (int k = 0; k < n; k++) {
		MOpd v = be_src(f, b, &c->elems[k], arr && k == 0 ? PT_U32 : in->m.types[1]);
		x = be_emit(f, b, v.kind == OPD_IMM ? OP_MOV32I : OP_MOV);
		x->nopd = 2;
		x->o[0] = cls == TC_R ? be_r(ct) : be_rpart(ct, k);
		x->o[1] = v.kind == OPD_IMM ? be_imm((uint32_t)v.imm) : v;
	}
	if (in->o[1].reg >= 0) {
		/* a texture object: TEXB/TLDB/TLD4B with the handle's register pair */
		MOpd h = obj_handle(f, b, in, 1);
		x = be_emit(f, b, in->op == PO_TLD4 ? OP_TLD4B : in->m.types[1] == PT_F32 ? OP_TEXB :
		            OP_TLDB);
		x->o[2] = h;
	} else {
		x = be_emit(f, b, in->op == PO_TLD4 ? OP_TLD4 : in->m.types[1] == PT_F32 ? OP_TEX :
		            OP_TLD);
		x->o[2] = be_imm(in->o[1].sym);
	}
	x->nopd = 3;
	x->m.sub = (uint8_t)(in->op == PO_TLD4 ? comps[in->m.comp] : cube ? SUB_CUBE :
	                     geom == 3 ? SUB_3D : geom == 2 ? SUB_2D : SUB_1D);
	if (arr)
		x->m.flags |= MF_ARRAY;
	x->o[0] = be_r(dt);
	x->o[1] = be_r(ct);
	for (int k = 0; k < 4 && k < d->nelems; k++) {
		const POpd *e = &d->elems[k];
		int t;
		if (e->kind == POK_SINK)
			continue;
		t = f->regtmp[e->reg];
		if (f->tmp[t].cls != TC_R)
			return be_unsup(f, in, "a tex result register other than 32 bits"), -1;
		be_mov(f, b, t, be_rpart(dt, k), TC_R);
	}
	return 0;
}

/* txq.QUERY.b32 d, [t] and suq.QUERY.b32 d, [s]: TXQ or SUQ d, slot, attribute (ops.def's
 * numbering, PTX_TXQS's order less one: PTXQ_WIDTH is 0); the slot is t's or s's index in
 * Module.vars until be_kernel_finish numbers the kernel's textures and surfaces */
static int sel_query(Fn *f, Blk *b, const PIns *in)
{
	MIns *x;
	int t;

	if (in->o[0].kind != POK_REG)
		return 0;   /* a sink: nothing to answer */
	t = f->regtmp[in->o[0].reg];
	if (f->tmp[t].cls != TC_R)
		return be_unsup(f, in, "a query result register other than 32 bits"), -1;
	if (in->o[1].reg >= 0) {
		MOpd h = obj_handle(f, b, in, 1);
		x = be_emit(f, b, in->op == PO_SUQ ? OP_SUQB : OP_TXQB);
		x->o[1] = h;
	} else {
		x = be_emit(f, b, in->op == PO_SUQ ? OP_SUQ : OP_TXQ);
		x->o[1] = be_imm(in->o[1].sym);
	}
	x->nopd = 3;
	x->o[0] = be_r(t);
	x->o[2] = be_imm(in->m.txq - PTXQ_WIDTH);
	return 0;
}

/* suld.b.GEOM{.vN}.bSIZE{.MODE} d, [s, {c..}] and sust.b... [s, {c..}], v: one SULD or SUST
 * per element (x advanced by its bytes), the coordinates in a group as TEX's, the mode
 * (0 trap, 1 clamp, 2 zero) an operand, the slot as sel_query's; sust.p.GEOM{.vN}.b32: one
 * SUSTP per element, element e the sample's channel e (mode + 4e), x the same sample */
static int sel_surf(Fn *f, Blk *b, const PIns *in)
{
	int store = in->op == PO_SUST, at = store ? 0 : 1;
	const POpd *c = &in->o[at + 1], *val = &in->o[store ? 2 : 0];
	int pt = in->m.types[0], eb = tbytes(pt), n = in->m.vec > 1 ? in->m.vec : 1;
	/* a layered surface (.a1d, .a2d) is accessed as the 2D or 3D one its layers make: the
	 * layer index, first in PTX, moved last (docs/warpsim.md, "Surfaces") */
	int arr = in->m.geom == PGEOM_A1D || in->m.geom == PGEOM_A2D;
	int geom = in->m.geom == PGEOM_3D || in->m.geom == PGEOM_A2D ? 3 :
	           in->m.geom == PGEOM_2D || in->m.geom == PGEOM_A1D ? 2 : 1;
	int cls = geom == 1 ? TC_R : geom == 2 ? TC_R2 : TC_R4, dcls = eb == 8 ? TC_R2 : TC_R;
	int mode = in->m.sumode == PSUMODE_CLAMP ? 1 : in->m.sumode == PSUMODE_ZERO ? 2 : 0;
	int fmt = store && in->m.comp == PCOMP_P;   /* sust.p: SUSTP per channel, x a sample */
	Type ty = eb == 1 ? TY_U8 : eb == 2 ? TY_U16 : eb == 8 ? TY_B64 : TY_U32;
	MOpd cs[3], h = {0};
	MIns *x;

	if (in->o[at].reg >= 0)
		h = obj_handle(f, b, in, at);   /* a surface object: SULDB/SUSTB */
	for (int k = 0; k < geom; k++)
		cs[k] = be_src(f, b, &c->elems[arr ? (k + 1) % geom : k], PT_S32);
	for (int e = 0; e < n; e++) {
		const POpd *v = val->kind == POK_VEC ? &val->elems[e] : val;
		int ct = be_newtmp(f, cls), dt = -1;
		MOpd dv = {0};
		for (int k = 0; k < geom; k++) {
			MOpd part = cls == TC_R ? be_r(ct) : be_rpart(ct, k);
			if (k == 0 && e > 0 && fmt) {
				x = be_emit(f, b, cs[0].kind == OPD_IMM ? OP_MOV32I : OP_MOV);
				x->nopd = 2;
				x->o[0] = part;
				x->o[1] = cs[0].kind == OPD_IMM ? be_imm((uint32_t)cs[0].imm) : cs[0];
				continue;
			}
			if (k == 0 && e > 0 && cs[0].kind != OPD_IMM) {
				be_op3(f, b, OP_IADD, part, cs[0], be_imm(e * eb));
				continue;
			}
			if (k == 0 && e > 0) {   /* an immediate x: the element's own immediate */
				x = be_emit(f, b, OP_MOV32I);
				x->nopd = 2;
				x->o[0] = part;
				x->o[1] = be_imm((uint32_t)(cs[0].imm + e * eb));
				continue;
			}
			x = be_emit(f, b, cs[k].kind == OPD_IMM ? OP_MOV32I : OP_MOV);
			x->nopd = 2;
			x->o[0] = part;
			x->o[1] = cs[k].kind == OPD_IMM ? be_imm((uint32_t)cs[k].imm) : cs[k];
		}
		if (store) {
			dv = be_src(f, b, v, pt);
			if (dv.kind == OPD_REG && dcls == TC_R && f->tmp[dv.t].cls == TC_R2)
				dv = be_rpart(dv.t, 0);    /* a wider register: its low word */
			else if (dv.kind != OPD_REG || f->tmp[dv.t].cls != dcls) {
				int t = be_newtmp(f, dcls);
				be_mov(f, b, t, dv, dcls);
				dv = be_r(t);
			}
		} else {
			dt = be_newtmp(f, dcls);
			dv = be_r(dt);
		}
		x = be_emit(f, b, fmt ? (in->o[at].reg >= 0 ? OP_SUSTPB : OP_SUSTP) :
		            in->o[at].reg >= 0 ? (store ? OP_SUSTB : OP_SULDB) : store ? OP_SUST : OP_SULD);
		x->nopd = 4;
		x->m.sub = (uint8_t)(geom == 3 ? SUB_3D : geom == 2 ? SUB_2D : SUB_1D);
		x->m.dtype = (uint8_t)(fmt ? TY_NONE : ty);
		x->o[0] = dv;
		x->o[1] = be_r(ct);
		x->o[2] = in->o[at].reg >= 0 ? h : be_imm(in->o[at].sym);
		x->o[3] = be_imm(fmt ? mode | e << 2 : mode);
		if (!store && v->kind == POK_REG) {
			int d = f->regtmp[v->reg];
			if (f->tmp[d].cls == dcls)
				be_mov(f, b, d, be_r(dt), dcls);
			else if (f->tmp[d].cls == TC_R2 && dcls == TC_R) {
				be_op3(f, b, OP_MOV, be_rpart(d, 0), be_r(dt), be_r(T_RZ))->nopd = 2;
				be_op3(f, b, OP_MOV, be_rpart(d, 1), be_r(T_RZ), be_r(T_RZ))->nopd = 2;
			} else
				return be_unsup(f, in, "register size of the destination"), -1;
		}
	}
	return 0;
}

int be_isel_mem(Fn *f, Blk *b, const PIns *in)
{
	MIns *x;

	switch ((int)in->op) {
	case PO_LD: case PO_LDU: return sel_ld(f, b, in, 0);
	case PO_ST: return sel_ld(f, b, in, 1);
	case PO_TEX: case PO_TLD4: return sel_tex(f, b, in);
	case PO_TXQ: case PO_SUQ: return sel_query(f, b, in);
	case PO_SULD: case PO_SUST: return sel_surf(f, b, in);
	case PO_CP_ASYNC_COMMIT: case PO_CP_ASYNC_WAIT: case PO_CP_ASYNC_WAIT_ALL:
		return 0;  /* every cp.async completed when it ran (isel_async.c) */
	case PO_CVTA: return sel_cvta(f, b, in);
	case PO_ISSPACEP: return sel_isspacep(f, b, in);
	case PO_BAR: case PO_BARRIER: return sel_bar(f, b, in);
	case PO_MEMBAR: case PO_FENCE:
		x = be_emit(f, b, OP_MEMBAR);
		x->m.sub = in->m.scope == PSCOPE_CTA ? SUB_CTA : in->m.scope == PSCOPE_SYS ? SUB_SYS : SUB_GL;
		return 0;
	case PO_VOTE: case PO_ACTIVEMASK: case PO_SHFL: case PO_REDUX: case PO_MATCH:
		return sel_warp(f, b, in);
	case PO_PREFETCH: case PO_PREFETCHU: case PO_BAR_WARP_SYNC: case PO_NANOSLEEP:
	case PO_PMEVENT: case PO_GRIDDEPCONTROL: case PO_BRKPT:
		return 0;  /* no effect in the model: warps are converged at .sync points */
	default:
		return be_unsup(f, in, NULL), -1;
	}
}
