/* isel_call.c - instruction selection of control transfers inside a block: calls, trap
 * (BPT.TRAP 0x1), the value of a label (mov d, L), and the target address of an indirect
 * branch from its jump table (be_sel_brx, at the end of a J_BRX block).
 *
 * Calls (non-inlined .func, as a whole-program ptxas lays them out): arguments and results
 * go through the callee's incoming area, which is the caller's outgoing area at the end of
 * its frame: [SP + frame + off]. Around the call the caller moves the stack pointer R1 by
 * its frame size (a kernel sets R1 = frame, its own frame being at 0). A .func saves the
 * registers it writes in its frame and restores them before RET (emit.c), so every
 * register is preserved across a call and recursion needs nothing more. Direct calls are
 * CAL to the callee's address in the same kernel; indirect calls JCAL through the address
 * register with the .calltargets list (or every function matching the .callprototype, or
 * the functions named in a jump table's initializer). A call of the extern __assertfail
 * (a device-side assert) is the ASSERT op instead, one of vprintf (printf) PRINTF.
 */
#include <string.h>
#include "backend/be.h"

static int callee_ok(const Module *m, int fi, int np, int nr)
{
	const PFunc *g = &m->funcs[fi];
	return !g->entry && g->has_body && g->nparams == np && g->nrets == nr;
}

/* copies a .param variable between its home in the frame and its slot of the outgoing
 * area (out: home -> slot) */
static void param_copy(Fn *f, Blk *b, const PIns *in, int isret, int i, int out)
{
	const POpd *e = &in->o[isret ? 0 : 2].elems[i];
	const PVar *v = &f->pf->locals[e->sym];
	int base = f->pf->entry ? T_RZ : T_SP, w = v->size % 4 ? 1 : 4;
	uint32_t slot = be_call_slot(f->m, f->pf, in, isret, i), home = f->localoff[e->sym];

	for (uint32_t k = 0; k < v->size; k += (uint32_t)w) {
		int t = be_newtmp(f, TC_R);
		MOpd hm = be_mem(base, home + k), sl = be_mem(base, slot + k);
		MIns *x;
		sl.bank = 1;
		x = be_emit(f, b, OP_LDL);
		x->nopd = 2;
		x->m.dtype = w == 1 ? TY_U8 : TY_NONE;
		x->o[0] = be_r(t);
		x->o[1] = out ? hm : sl;
		x = be_emit(f, b, OP_STL);
		x->nopd = 2;
		x->m.dtype = w == 1 ? TY_U8 : TY_NONE;
		x->o[0] = out ? sl : hm;
		x->o[1] = be_r(t);
	}
}

/* the frame address of argument (or, isret, result) i of a call: its home in the frame, or
 * the outgoing slot st.param/ld.param use */
static MOpd param_mem(Fn *f, const PIns *in, int isret, int i)
{
	const POpd *e = &in->o[isret ? 0 : 2].elems[i];
	MOpd m;

	if (f->parhome[e->sym])
		return be_mem(f->pf->entry ? T_RZ : T_SP, f->localoff[e->sym]);
	m = be_mem(f->pf->entry ? T_RZ : T_SP, be_call_slot(f->m, f->pf, in, isret, i));
	m.bank = 1;
	return m;
}

/* the elements of a vector register as argument (or, isret, result) i of a call (a .reg .vN
 * parameter): one STL (LDL) per element at the slot plus its offset, 8- and 16-bit ones
 * through STL.U8/.U16 (a narrow register holds its value zero-extended) */
static int vec_slot(Fn *f, Blk *b, const PIns *in, const POpd *e, int isret, int i)
{
	static const Type ty[9] = {[1] = TY_U8, [2] = TY_U16, [4] = TY_NONE, [8] = TY_B64};
	uint32_t slot = be_call_slot(f->m, f->pf, in, isret, i);

	for (int k = 0; k < e->nelems; k++) {
		int r = f->regtmp[e->elems[k].reg], eb = tbytes(f->pf->regs[e->elems[k].reg].type);
		MIns *x;
		MOpd m = be_mem(f->pf->entry ? T_RZ : T_SP, slot + (uint32_t)(k * eb));
		if (eb != 1 && eb != 2 && eb != 4 && eb != 8)
			return be_unsup(f, in, "vector argument of this element size"), -1;
		x = be_emit(f, b, isret ? OP_LDL : OP_STL);
		m.bank = 1;
		x->nopd = 2;
		x->m.dtype = (uint8_t)ty[eb];
		x->o[isret ? 1 : 0] = m;
		x->o[isret ? 0 : 1] = be_r(r);
	}
	return 0;
}

/* argument i of a call to an extern the translator implements, of PTX type pt, into *v */
static int call_arg(Fn *f, Blk *b, const PIns *in, int i, int pt, MOpd *v)
{
	const POpd *e = &in->o[2].elems[i];
	int cls = pt == PT_B64 ? TC_R2 : TC_R;
	MIns *x;

	if (e->kind != POK_SYM) {
		*v = be_inreg(f, b, be_src(f, b, e, pt), cls);
		return 0;
	}
	if (e->symkind != PSYM_LOCAL || f->pf->locals[e->sym].size != (pt == PT_B64 ? 8u : 4u))
		return be_unsup(f, in, "argument of the call"), -1;
	*v = be_r(be_newtmp(f, cls));
	x = be_emit(f, b, OP_LDL);
	x->nopd = 2;
	x->m.dtype = cls == TC_R2 ? TY_B64 : TY_NONE;
	x->o[0] = *v;
	x->o[1] = param_mem(f, in, 0, i);
	return 0;
}

/* call __assertfail(message, file, line, function, charsize), nvcc's lowering of a failed
 * device-side assert: one ASSERT of the message, file, line and function (the character size
 * is 1 for char strings and ignored). The arguments come from their .param homes or
 * outgoing slots or, as registers and immediates, straight from the call. */
static int sel_assert(Fn *f, Blk *b, const PIns *in)
{
	static const int pt[4] = {PT_B64, PT_B64, PT_B32, PT_B64};
	const POpd *args = &in->o[2];
	MOpd v[4];
	MIns *x;

	if (args->nelems != 5 || in->o[0].nelems != 0)
		return be_errorf(f, in->loc, "unsupported: a call of __assertfail with %d arguments "
		                 "and %d results (CUDA's takes 5 and returns none)", args->nelems,
		                 in->o[0].nelems), -1;
	for (int i = 0; i < 4; i++)
		if (call_arg(f, b, in, i, pt[i], &v[i]))
			return -1;
	x = be_emit(f, b, OP_ASSERT);
	x->nopd = 4;
	for (int i = 0; i < 4; i++)
		x->o[i] = v[i];
	return 0;
}

/* call (r), vprintf, (fmt, args): one PRINTF d, fmt, args; d goes to the result's register,
 * home or outgoing slot */
static int sel_printf(Fn *f, Blk *b, const PIns *in)
{
	const POpd *args = &in->o[2], *rets = &in->o[0];
	MOpd v[2], d = be_r(be_newtmp(f, TC_R));
	MIns *x;

	if (args->nelems != 2 || rets->nelems > 1)
		return be_errorf(f, in->loc, "unsupported: a call of vprintf with %d arguments and %d "
		                 "results (CUDA's takes 2 and returns 1)", args->nelems, rets->nelems), -1;
	for (int i = 0; i < 2; i++)
		if (call_arg(f, b, in, i, PT_B64, &v[i]))
			return -1;
	x = be_emit(f, b, OP_PRINTF);
	x->nopd = 3;
	x->o[0] = d;
	x->o[1] = v[0];
	x->o[2] = v[1];
	if (rets->nelems == 1) {
		const POpd *e = &rets->elems[0];
		if (e->kind == POK_REG) {
			x = be_emit(f, b, OP_MOV);
			x->nopd = 2;
			x->o[0] = be_r(f->regtmp[e->reg]);
			x->o[1] = d;
		} else if (e->kind == POK_SYM && e->symkind == PSYM_LOCAL) {
			x = be_emit(f, b, OP_STL);
			x->nopd = 2;
			x->o[0] = param_mem(f, in, 1, 0);
			x->o[1] = d;
		} else {
			return be_unsup(f, in, "vprintf result"), -1;
		}
	}
	return 0;
}

/* a call that reaches no function of the module: of an .extern .func that has no body in
 * it, or an indirect call that no function of it matches (the callee would come from another
 * module; warpc links none). BPT.TRAP 0x2 stops the kernel when a lane reaches the call, so
 * the module's other code still translates and runs (docs/isa.md). */
static int trap_call(Fn *f, Blk *b)
{
	MIns *x = be_emit(f, b, OP_BPT);

	x->nopd = 1;
	x->o[0] = be_imm(ISA_TRAP_NOCALL);
	return 0;
}

/* a direct call of a function with no body: dynamic parallelism is refused here */
static int sel_nobody(Fn *f, Blk *b, const PIns *in, const char *name)
{
	if (ptx_cdp_function(name))
		return be_errorf(f, in->loc, "unsupported: call to '%s': %s is not simulated", name,
		                 ptx_cdp_unsup(name)), -1;
	return trap_call(f, b);
}

/* for isel_heap.c: argument i of an extern call, and the frame place of result i */
int be_call_arg(Fn *f, Blk *b, const PIns *in, int i, int pt, MOpd *v)
{
	return call_arg(f, b, in, i, pt, v);
}

MOpd be_call_arg_mem(Fn *f, const PIns *in, int i)
{
	return param_mem(f, in, 0, i);
}

MOpd be_call_ret_mem(Fn *f, const PIns *in, int i)
{
	return param_mem(f, in, 1, i);
}

int be_isel_call(Fn *f, Blk *b, const PIns *in)
{
	const POpd *rets = &in->o[0], *callee = &in->o[1], *args = &in->o[2];
	int direct = callee->kind == POK_SYM && callee->symkind == PSYM_FUNC;
	MIns *x;
	MOpd target = {0};

	if (!direct && callee->kind != POK_REG)
		return be_unsup(f, in, "call target"), -1;
	if (direct && !f->m->funcs[callee->sym].has_body &&
	    !strcmp(f->m->funcs[callee->sym].name, "__assertfail"))
		return sel_assert(f, b, in);
	if (direct && !f->m->funcs[callee->sym].has_body &&
	    !strcmp(f->m->funcs[callee->sym].name, "vprintf"))
		return sel_printf(f, b, in);
	if (direct && !f->m->funcs[callee->sym].has_body)
		return sel_nobody(f, b, in, f->m->funcs[callee->sym].name);
	if (direct && f->m->funcs[callee->sym].entry)
		return be_errorf(f, callee->loc, "a kernel cannot be called"), -1;
	/* arguments given as registers or immediates go to the outgoing area now */
	for (int i = 0; i < args->nelems; i++) {
		const POpd *e = &args->elems[i];
		if (e->kind == POK_SYM) {
			if (e->symkind == PSYM_LOCAL && f->parhome[e->sym])
				param_copy(f, b, in, 0, i, 1);
			continue;
		}
		if (e->kind == POK_VEC) {
			if (vec_slot(f, b, in, e, 0, i))
				return -1;
			continue;
		}
		int pt = e->kind == POK_REG ? f->pf->regs[e->reg].type : PT_B32;
		int cls = e->kind == POK_REG ? f->tmp[f->regtmp[e->reg]].cls : TC_R;
		MOpd v;
		if (cls == TC_P) {
			/* a predicate (a .pred .reg parameter's .u32 .param): 1 or 0 */
			int t = be_newtmp(f, TC_R);
			x = be_op3(f, b, OP_SEL, be_r(t), be_r(T_RZ), be_imm(1));
			x->nopd = 4;
			x->o[3] = be_pn(f->regtmp[e->reg], 1);   /* !p ? 0 : 1 */
			v = be_r(t);
			cls = TC_R;
		} else
			v = be_inreg(f, b, be_src(f, b, e, pt), cls);
		x = be_emit(f, b, OP_STL);
		x->nopd = 2;
		x->m.dtype = cls == TC_R2 ? TY_B64 : TY_NONE;
		x->o[0] = be_mem(f->pf->entry ? T_RZ : T_SP, be_call_slot(f->m, f->pf, in, 0, i));
		x->o[0].bank = 1;
		x->o[1] = v;
	}
	if (!direct) {
		const PTList *tl = in->o[3].kind == POK_TLIST ? &f->pf->tlists[in->o[3].sym] : NULL;
		int first = f->ntl, n = 0;
		MOpd r = be_src(f, b, callee, PT_U64);
		const PVar *jt = in->o[3].kind == POK_SYM && in->o[3].symkind == PSYM_VAR ?
		                 &f->m->vars[in->o[3].sym] : NULL;
		if (jt) {
			/* a jump table: the functions named in the variable's initializer, once each */
			for (int k = 0; k < jt->ninit; k++) {
				int g = jt->init[k].sym, dup = 0;
				if (jt->init[k].kind != PINIT_SYM || jt->init[k].symkind != PSYM_FUNC)
					continue;
				for (int j = first; j < f->ntl; j++)
					dup |= f->tl[j] == -1 - g;
				if (!dup && callee_ok(f->m, g, args->nelems, rets->nelems))
					*VPUSH(f->pool, f->tl, f->ntl, f->captl) = -1 - g, n++;
			}
		} else if (!tl) {
			return be_unsup(f, in, "indirect call without .calltargets or .callprototype"), -1;
		} else if (tl->kind == PTL_CALL) {
			for (int k = 0; k < tl->ntargets; k++, n++)
				*VPUSH(f->pool, f->tl, f->ntl, f->captl) = -1 - tl->targets[k];
		} else {
			for (int k = 0; k < f->m->nfuncs; k++)
				if (callee_ok(f->m, k, tl->nparams, tl->nrets))
					*VPUSH(f->pool, f->tl, f->ntl, f->captl) = -1 - k, n++;
		}
		if (n == 0)   /* the callee could only come from another module */
			return trap_call(f, b);
		target.kind = OPD_TLIST;
		target.imm = first;
		target.n = (uint16_t)n;
		target.t = r.kind == OPD_REG && f->tmp[r.t].cls == TC_R2 ? r.t : -1;
		if (target.t < 0 && r.kind == OPD_REG)
			target.t = r.t;
		if (r.kind != OPD_REG)
			return be_unsup(f, in, "call target"), -1;
		target.part = f->tmp[r.t].cls == TC_R2 ? 1 : 0;
	}
	/* move the stack pointer past this frame, call, move it back */
	if (f->pf->entry) {
		x = be_emit(f, b, OP_MOV32I);
		x->nopd = 2;
		x->o[0] = be_r(T_SP);
		x->o[1] = be_imm(0);
		x->o[1].bank = 1;
	} else {
		x = be_op3(f, b, OP_IADD, be_r(T_SP), be_r(T_SP), be_imm(0));
		x->o[2].bank = 1;
	}
	if (direct) {
		x = be_emit(f, b, OP_CAL);
		x->nopd = 1;
		x->o[0].kind = OPD_TARGET;
		x->o[0].imm = -1 - callee->sym;
	} else {
		x = be_emit(f, b, OP_JCAL);
		x->nopd = 2;
		x->o[0] = target.part ? be_rpart(target.t, 0) : be_r(target.t);
		x->o[1] = target;
		x->o[1].t = T_RZ;
	}
	if (!f->pf->entry) {
		x = be_op3(f, b, OP_IADD, be_r(T_SP), be_r(T_SP), be_imm(0));
		x->o[2].bank = 2;   /* minus the frame */
	}
	f->hascall = 1;
	/* results given as registers come back from the outgoing area */
	for (int i = 0; i < rets->nelems; i++) {
		const POpd *e = &rets->elems[i];
		if (e->kind == POK_SYM && e->symkind == PSYM_LOCAL && f->parhome[e->sym])
			param_copy(f, b, in, 1, i, 0);
		if (e->kind == POK_VEC && vec_slot(f, b, in, e, 1, i))
			return -1;
		if (e->kind != POK_REG)
			continue;
		int d = f->regtmp[e->reg], p = -1;
		if (f->tmp[d].cls == TC_P) {   /* a .pred result: its .u32 of 1 or 0, then ISETP */
			p = d;
			d = be_newtmp(f, TC_R);
		}
		x = be_emit(f, b, OP_LDL);
		x->nopd = 2;
		x->m.dtype = f->tmp[d].cls == TC_R2 ? TY_B64 : TY_NONE;
		x->o[0] = be_r(d);
		x->o[1] = be_mem(f->pf->entry ? T_RZ : T_SP, be_call_slot(f->m, f->pf, in, 1, i));
		x->o[1].bank = 1;
		if (p >= 0)
			be_setp_ins(f, b, OP_ISETP, CMP_NE, TY_U32, p, T_PT, be_r(d), be_r(T_RZ),
			            be_p(T_PT), BOP_AND);
	}
	return 0;
}

/* mov.u32/.u64 d, L: the label's value (PLabel.value, docs/backend.md), a constant */
int be_sel_label(Fn *f, Blk *b, const PIns *in)
{
	int d = be_dst(f, &in->o[0]);
	int64_t v = f->pf->labels[in->o[1].sym].value;
	MIns *x;

	for (int k = 0; k < (f->tmp[d].cls == TC_R2 ? 2 : 1); k++) {
		x = be_emit(f, b, OP_MOV32I);
		x->nopd = 2;
		x->o[0] = f->tmp[d].cls == TC_R2 ? be_rpart(d, k) : be_r(d);
		x->o[1] = be_imm(k ? 0 : v);
	}
	return 0;
}

/* brx.idx, bra %r at the end of J_BRX block last: the target address from the jump table in
 * bank 3 (emit.c places it, be_brx_table), at the index or label value clamped to the
 * table's last entry, which holds no code address: BRX faults on it as on a value that
 * names no target. The branch's condition becomes the address. */
void be_sel_brx(Fn *f, Blk *last)
{
	int t = be_newtmp(f, TC_R), a = be_newtmp(f, TC_R), c = be_newtmp(f, TC_R);
	int nt = be_brx_table(f, last, NULL), wide = f->tmp[last->jmp.cond].cls == TC_R2;
	MIns *m, *x;

	f->cur_ptx = last->jmp.ptxins;
	m = be_op3(f, last, OP_IMNMX, be_r(c), wide ? be_rpart(last->jmp.cond, 0) :
	           be_r(last->jmp.cond), be_imm(nt));
	m->nopd = 4;
	m->m.dtype = TY_U32;
	m->o[3] = be_p(T_PT);
	if (wide) {   /* a 64-bit value with a high word is no label's value either */
		int p = be_newtmp(f, TC_P), c2 = be_newtmp(f, TC_R);
		be_setp_ins(f, last, OP_ISETP, CMP_NE, TY_U32, p, T_PT,
		            be_rpart(last->jmp.cond, 1), be_r(T_RZ), be_p(T_PT), BOP_AND);
		m = be_op3(f, last, OP_SEL, be_r(c2), be_r(c), be_imm(nt));
		m->nopd = 4;
		m->o[3] = be_pn(p, 1);
		c = c2;
	}
	be_op3(f, last, OP_SHL, be_r(t), be_r(c), be_imm(2));
	x = be_emit(f, last, OP_LDC);
	x->nopd = 2;
	x->o[0] = be_r(a);
	x->o[1] = be_cst(3, 0);
	x->o[1].t = t;
	x->o[1].n = 1;
	last->jmp.cond = a;
}

/* trap: the code real SASS gives it, BPT.TRAP 0x1 */
int be_sel_trap(Fn *f, Blk *b)
{
	MIns *x = be_emit(f, b, OP_BPT);

	x->nopd = 1;
	x->o[0] = be_imm(1);
	return 0;
}
