/* isel_async.c - instruction selection of cp.async (PTX ISA, "cp.async"): the copy from
 * .global to .shared completes when it issues, a legal implementation of the asynchronous
 * copy (PTX promises the data only after cp.async.wait_group/wait_all, which therefore emit
 * nothing, isel_mem.c). Words where the bytes from src are known, bytes where src-size cuts a
 * word, zeros with no load past src-size (a zero-fill copy may name an address outside every
 * buffer); a register src-size or an ignore-src predicate guards the loads. */
#include "backend/be.h"

/* one 4-byte word (4) or byte (1) of a cp.async: t = [src + off] when the load predicate
 * lp holds (T_PT: always), else zero; lp < 0: no load, RZ is stored; [dst + off] = t */
static void cp_piece(Fn *f, Blk *b, const BeAddr *s, const BeAddr *d, int off, int sz, int lp)
{
	int t = lp >= 0 ? be_newtmp(f, TC_R) : T_RZ;
	MIns *x;
	MOpd m;

	if (lp >= 0 && lp != T_PT)
		be_mov(f, b, t, be_r(T_RZ), TC_R);
	if (lp >= 0) {
		x = be_emit(f, b, OP_LD);
		x->nopd = 2;
		x->m.dtype = (uint8_t)(sz == 1 ? TY_U8 : TY_NONE);
		if (s->wide)
			x->m.flags |= MF_E;
		m = s->mem;
		m.imm += off;
		x->o[0] = be_r(t);
		x->o[1] = m;
		if (lp != T_PT)
			x->guard = lp;
	}
	x = be_emit(f, b, OP_STS);
	x->nopd = 2;
	x->m.dtype = (uint8_t)(sz == 1 ? TY_U8 : TY_NONE);
	m = d->mem;
	m.imm += off;
	x->o[0] = m;
	x->o[1] = be_r(t);
}

/* cp.async{.ca,.cg}.shared.global [dst], [src], cp-size{, src-size | ignore-src}: the copy
 * completes at once (the oracle's schedule; wait_group/wait_all have nothing to wait for).
 * Whole 4-byte words where the bytes from src are known, bytes in a word that src-size
 * cuts, zeros beyond it (no load); a register src-size loads byte j when src-size > j, a
 * true ignore-src loads nothing. Under a PTX guard g the loads' predicates include g and
 * every store is guarded by g. */
int be_sel_cp_async(Fn *f, Blk *b, const PIns *in)
{
	PIns g = *in;
	BeAddr d, s;
	int cp = (int)in->o[2].imm, si = ptx_cp_async_src(f->pf, in), n = cp, k0 = b->nins;
	int gp = in->guard >= 0 ? f->regtmp[in->guard] : T_PT, gn = in->guard >= 0 ? in->gneg : 0;
	const POpd *e = si >= 0 ? &in->o[si] : NULL;

	g.m.space = PS_GLOBAL;
	if (be_addr_of(f, b, in, &in->o[0], &d) < 0 || be_addr_of(f, b, &g, &in->o[1], &s) < 0)
		return -1;
	if (d.space != PS_SHARED || s.space != PS_GLOBAL)
		return be_unsup(f, in, "cp.async outside .shared from .global"), -1;
	if (e && e->kind == POK_IMM)
		n = (int)e->imm;   /* ptx_check: 0 <= n <= cp */
	if (!e || e->kind == POK_IMM) {
		for (int off = 0; off < cp; off += 4) {
			int v = n - off < 0 ? 0 : n - off > 4 ? 4 : n - off;
			if (v == 4 || v == 0) {
				cp_piece(f, b, &s, &d, off, 4, v ? T_PT : -1);
				continue;
			}
			for (int j = 0; j < 4; j++)
				cp_piece(f, b, &s, &d, off + j, 1, j < v ? T_PT : -1);
		}
	} else if (f->tmp[f->regtmp[e->reg]].cls == TC_P) {
		int q = be_newtmp(f, TC_P);   /* q = !ignore-src && g */
		be_psetp(f, b, q, be_pn(f->regtmp[e->reg], !(e->flags & POF_NOT)), be_pn(gp, gn), BOP_AND);
		for (int off = 0; off < cp; off += 4)
			cp_piece(f, b, &s, &d, off, 4, q);
	} else {
		MOpd r = be_inreg(f, b, be_src(f, b, e, PT_U32), TC_R);
		for (int j = 0; j < cp; j++) {
			int q = be_newtmp(f, TC_P);   /* q = src-size > j && g */
			be_setp_ins(f, b, OP_ISETP, CMP_GT, TY_U32, q, T_PT, r, be_imm((uint32_t)j),
			            be_pn(gp, gn), BOP_AND);
			cp_piece(f, b, &s, &d, j, 1, q);
		}
	}
	if (gp != T_PT)
		for (int k = k0; k < b->nins; k++)
			if (b->ins[k].guard == T_PT && (b->ins[k].op == OP_STS || b->ins[k].op == OP_LD)) {
				b->ins[k].guard = gp;
				b->ins[k].gneg = (uint8_t)gn;
			}
	f->guard_done = 1;
	return 0;
}
