/* isel.c - instruction selection: the driver over a function's blocks and the dispatch of
 * each PTX instruction to its family (isel_*.c), which build their instructions with the
 * toolkit (sel.c):
 *   isel_int.c    integer arithmetic, logic and shifts     isel_cmp.c    setp, set, selp, slct, mov
 *   isel_bits.c   bit operations, bit fields, lop3, prmt   isel_div.c    integer division
 *   isel_math.c   floats, conversions, MUFU                isel_bf16.c   bf16, 16-bit min/max, cvt
 *   isel_mem.c    memory, barriers, warp ops, textures     isel_async.c  cp.async
 *   isel_atom.c   atom, red (lock and CAS loops)           isel_call.c   calls, trap, label values,
 *   isel_video.c  video instructions                                     jump tables
 *
 * be_isel: needs cfg and the frame layout; fills every block's body with MIns on temporaries
 * and applies the PTX guard to everything selected for an instruction (a family that applies
 * it itself, around blocks it splits, sets Fn.guard_done); breaks nothing (the lock loop of
 * shared atomics, the compare-and-swap loop of 16-bit float atomics and the 64-bit division
 * loop split blocks and keep the CFG consistent).
 * The conventions for values in registers are sel.c's.
 */
#include "backend/be.h"

/* ------------------------------------------------------------------ dispatch */
static int is_half(int pt) { return pt == PT_F16 || pt == PT_F16X2 || pt == PT_BF16 || pt == PT_BF16X2; }

/* a float op (and sad): bf16 arithmetic in isel_bf16.c (abs and neg of bf16 flip the sign
 * bit in isel_math.c), every other in isel_math.c */
static int sel_float(Fn *f, Blk *b, const PIns *in)
{
	int t = in->m.types[0];

	if ((t == PT_BF16 || t == PT_BF16X2) && in->op != PO_ABS && in->op != PO_NEG)
		return be_sel_bf16(f, b, in);
	return be_sel_float(f, b, in);
}

/* cvt: to or from bf16, to f16x2, bf16x2, tf32 and fp8x2, and f16 with .relu or .satfinite in
 * isel_bf16.c, every other in isel_math.c; a destination pair wider than the type gets its
 * high word after (be_cvt_high) */
/* cvt.pack.sat.T.s32{.b32} d, a, b{, c}: a and b clamped to T's range by two IMNMX each,
 * masked, a shifted above b and c above both */
static int sel_cvt_pack(Fn *f, Blk *b, const PIns *in)
{
	int ty = in->m.types[0], sz = 8 * tbytes(ty), sg = ty == PT_S8 || ty == PT_S16;
	int64_t lo = sg ? -(1ll << (sz - 1)) : 0, hi = sg ? (1ll << (sz - 1)) - 1 : (1ll << sz) - 1;
	int d = be_dst(f, &in->o[0]), v[2];
	MIns *x;

	for (int k = 0; k < 2; k++) {
		MOpd s = be_inreg(f, b, be_src(f, b, &in->o[1 + k], PT_S32), TC_R);
		v[k] = be_newtmp(f, TC_R);
		x = be_op3(f, b, OP_IMNMX, be_r(v[k]), s, be_imm((uint32_t)lo));
		x->nopd = 4;
		x->o[3] = be_pn(T_PT, 1);                 /* max */
		x->m.dtype = TY_S32;
		x = be_op3(f, b, OP_IMNMX, be_r(v[k]), be_r(v[k]), be_imm((uint32_t)hi));
		x->nopd = 4;
		x->o[3] = be_pn(T_PT, 0);                 /* min */
		x->m.dtype = TY_S32;
		if (sz < 32) {
			x = be_op3(f, b, OP_LOP, be_r(v[k]), be_r(v[k]), be_imm((1u << sz) - 1));
			x->m.sub = SUB_AND;
		}
	}
	be_op3(f, b, OP_SHL, be_r(v[0]), be_r(v[0]), be_imm(sz));
	x = be_op3(f, b, OP_LOP, be_r(d), be_r(v[0]), be_r(v[1]));
	x->m.sub = SUB_OR;
	if (in->nopd == 4) {
		int c = be_newtmp(f, TC_R);
		be_op3(f, b, OP_SHL, be_r(c), be_inreg(f, b, be_src(f, b, &in->o[3], PT_B32), TC_R),
		       be_imm(2 * sz));
		x = be_op3(f, b, OP_LOP, be_r(d), be_r(d), be_r(c));
		x->m.sub = SUB_OR;
	}
	return 0;
}

static int sel_cvt(Fn *f, Blk *b, const PIns *in)
{
	int t = in->m.types[0], s = in->m.types[1], hi;
	int c16 = t == PT_BF16 || s == PT_BF16 || t == PT_F16X2 || t == PT_BF16X2 || t == PT_TF32 ||
	          t == PT_E4M3X2 || t == PT_E5M2X2 ||
	          (t == PT_F16 && (in->m.flags & (PMF_RELU | PMF_SATFINITE)));

	if (in->m.flags & PMF_PACK)
		return sel_cvt_pack(f, b, in);
	hi = be_cvt_wide(f, in);
	if (hi < 0 || (c16 ? be_sel_cvt_bf16(f, b, in) : be_sel_cvt(f, b, in)) < 0)
		return -1;
	if (hi)
		be_cvt_high(f, b, in);
	return 0;
}

/* the selection of one PTX instruction into b: 0, or -1 after a located error */
static int sel_ins(Fn *f, Blk *b, const PIns *in)
{
	int t = in->m.types[0], fl = tfloat(t);

	switch ((POp)in->op) {
	case PO_ADD: case PO_ADDC: return fl ? sel_float(f, b, in) : be_sel_addsub(f, b, in, 0);
	case PO_SUB: case PO_SUBC: return fl ? sel_float(f, b, in) : be_sel_addsub(f, b, in, 1);
	case PO_MUL: return fl ? sel_float(f, b, in) : be_sel_mul(f, b, in, 0);
	case PO_MAD: case PO_MADC: return fl ? sel_float(f, b, in) : be_sel_mul(f, b, in, 1);
	case PO_MUL24: return be_sel_mul24(f, b, in, 0);
	case PO_MAD24: return be_sel_mul24(f, b, in, 1);
	case PO_MIN: return is_half(t) ? be_sel_hminmax(f, b, in, 0) : be_sel_minmax(f, b, in, 0);
	case PO_MAX: return is_half(t) ? be_sel_hminmax(f, b, in, 1) : be_sel_minmax(f, b, in, 1);
	case PO_ABS: return fl ? sel_float(f, b, in) : be_sel_absneg(f, b, in, 0);
	case PO_NEG: return fl ? sel_float(f, b, in) : be_sel_absneg(f, b, in, 1);
	case PO_DIV: return fl ? sel_float(f, b, in) : be_sel_divrem(f, b, in, 0);
	case PO_REM:   /* integer types only: the frontend refuses rem.f32 and the like */
		return be_sel_divrem(f, b, in, 1);
	case PO_SAD: case PO_FMA: case PO_RCP: case PO_SQRT: case PO_RSQRT: case PO_SIN: case PO_COS:
	case PO_LG2: case PO_EX2: case PO_TANH: case PO_TESTP: case PO_COPYSIGN:
		return sel_float(f, b, in);
	case PO_CVT: return sel_cvt(f, b, in);
	case PO_AND: return be_sel_logic(f, b, in, SUB_AND);
	case PO_OR: return be_sel_logic(f, b, in, SUB_OR);
	case PO_XOR: return be_sel_logic(f, b, in, SUB_XOR);
	case PO_NOT: return be_sel_not(f, b, in);
	case PO_CNOT: return be_sel_cnot(f, b, in);
	case PO_SHL: return be_sel_shift(f, b, in, 1);
	case PO_SHR: return be_sel_shift(f, b, in, 0);
	case PO_POPC: case PO_CLZ: case PO_BFIND: case PO_BREV: return be_sel_bits(f, b, in);
	case PO_BFE: case PO_BFI: return be_sel_bf(f, b, in);
	case PO_LOP3: return be_sel_lop3(f, b, in);
	case PO_PRMT: return be_sel_prmt(f, b, in);
	case PO_SHF: return be_sel_shf(f, b, in);
	case PO_BMSK: case PO_SZEXT: return be_sel_mask(f, b, in);
	case PO_FNS: return be_sel_fns(f, b, in);
	case PO_DP4A: case PO_DP2A: return be_sel_dp(f, b, in);
	case PO_ELECT: return be_sel_elect(f, b, in);
	case PO_SETP: return be_sel_setp(f, b, in);
	case PO_SET: return be_sel_set(f, b, in);
	case PO_SELP: return be_sel_selp(f, b, in);
	case PO_SLCT: return be_sel_slct(f, b, in);
	case PO_MOV:
		if (in->o[1].kind == POK_LABEL)
			return be_sel_label(f, b, in);
		return be_sel_mov(f, b, in);
	case PO_CP_ASYNC: return be_sel_cp_async(f, b, in);
	case PO_VADD2: case PO_VSUB2: case PO_VAVRG2: case PO_VABSDIFF2: case PO_VMIN2: case PO_VMAX2:
	case PO_VSET2: case PO_VADD4: case PO_VSUB4: case PO_VAVRG4: case PO_VABSDIFF4: case PO_VMIN4:
	case PO_VMAX4: case PO_VSET4: case PO_VADD: case PO_VSUB: case PO_VABSDIFF: case PO_VMIN:
	case PO_VMAX: case PO_VSET: case PO_VSHL: case PO_VSHR: case PO_VMAD:
		return be_sel_video(f, b, in);
	case PO_ATOM: return be_sel_atom(f, b, in, 0);
	case PO_RED: return be_sel_atom(f, b, in, 1);
	case PO_LD: case PO_LDU: case PO_ST: case PO_CVTA:
	case PO_ISSPACEP: case PO_PREFETCH: case PO_PREFETCHU: case PO_BAR: case PO_BARRIER:
	case PO_BAR_WARP_SYNC: case PO_MEMBAR: case PO_FENCE: case PO_VOTE: case PO_MATCH:
	case PO_SHFL: case PO_ACTIVEMASK: case PO_REDUX: case PO_NANOSLEEP:
	case PO_PMEVENT: case PO_GRIDDEPCONTROL: case PO_BRKPT:
	case PO_CP_ASYNC_COMMIT: case PO_CP_ASYNC_WAIT: case PO_CP_ASYNC_WAIT_ALL: case PO_TEX:
	case PO_TLD4: case PO_TXQ: case PO_SULD: case PO_SUST: case PO_SUQ:
		return be_isel_mem(f, b, in);
	case PO_CALL: {
		int rc;
		if (be_sel_heap(f, b, in, &rc))   /* malloc, free (isel_heap.c) */
			return rc;
		if (be_sel_cdp(f, b, in, &rc))    /* dynamic parallelism (isel_cdp.c) */
			return rc;
		return be_isel_call(f, b, in);
	}
	case PO_TRAP:
		return be_sel_trap(f, b);
	case PO_BRA: case PO_BRX_IDX: case PO_RET: case PO_EXIT:
		die("branch inside a block");
	case PO_SURED: case PO_ISTYPEP: case PO_MMA: case PO_WMMA: case PO_WGMMA: case PO_LDMATRIX:
	case PO_STMATRIX: case PO_MOVMATRIX: case PO_CP_ASYNC_BULK: case PO_CP_ASYNC_MBAR:
	case PO_CP_RED_ASYNC:
	case PO_ST_ASYNC: case PO_RED_ASYNC: case PO_MBARRIER: case PO_MULTIMEM: case PO_TENSORMAP:
	case PO_TCGEN05: case PO_ALLOCA: case PO_STACKSAVE: case PO_STACKRESTORE: case PO_MAPA:
	case PO_GETCTARANK: case PO_SETMAXNREG: case PO_APPLYPRIORITY: case PO_DISCARD:
	case PO_CREATEPOLICY: case PO_CLC:
		return be_unsup(f, in, NULL), -1;
	case PO_COUNT:
		break;
	}
	die("bad PTX op");
}

/* a PTX instruction cfold.c found constant (Fn.kfold): a move of each result (BE_K_CONST), of
 * the operand a selp of a constant predicate picks (BE_K_COPY), or nothing (BE_K_DEAD; isel
 * selects a BE_K_UNGUARD one without its guard) */
static int sel_kfold(Fn *f, Blk *b, const PIns *in, const BeKFold *k)
{
	PIns mv = *in;
	POpd o[2];

	memset(&mv.m, 0, sizeof mv.m);
	mv.op = PO_MOV;
	mv.nopd = 2;
	mv.o = o;
	mv.m.ntypes = 1;
	if (k->kind == BE_K_COPY) {
		o[0] = in->o[0];
		o[1] = in->o[k->copy];
		mv.m.types[0] = in->m.types[0];
		return be_sel_mov(f, b, &mv);
	}
	for (int e = 0; k->kind == BE_K_CONST && e < k->n; e++) {
		int r = be_cfold_dst(in, e), rt;
		if (r < 0)
			continue;
		rt = f->pf->regs[r].type;
		memset(o, 0, sizeof o);
		o[0].kind = POK_REG;
		o[0].reg = r;
		o[0].loc = o[1].loc = in->loc;
		o[1].kind = POK_IMM;
		o[1].ikind = PIMM_HEX;
		o[1].imm = (int64_t)k->v[e];
		mv.m.types[0] = (uint8_t)(rt == PT_PRED ? PT_PRED : tbytes(rt) == 8 ? PT_B64 : PT_B32);
		if (be_sel_mov(f, b, &mv) < 0)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ driver */
int be_isel(Fn *f)
{
	const PFunc *pf = f->pf;
	int n = f->nblk, nerr = f->nerr;

	be_wide_fuse(f);

	for (int bi = 0; bi < n; bi++) {
		int p0 = f->blk[bi].pfirst, p1 = f->blk[bi].plast;
		f->cur_blk = bi;
		f->ccpol = 0;
		for (int i = p0; i < p1 && i < pf->nins; i++) {
			const PIns *in = &pf->ins[i];
			int cb = f->cur_blk, before = f->blk[cb].nins;
			f->cur_ptx = i;
			f->guard_done = 0;
			if (f->wfuse[i] == -2)   /* a mul.wide its add.s64 takes in */
				continue;
			if (f->kfold && f->kfold[i] >= 0 && f->kres[f->kfold[i]].kind == BE_K_UNGUARD) {
				PIns u = *in;   /* a guard that always holds */
				u.guard = -1;
				sel_ins(f, &f->blk[cb], &u);
				continue;
			}
			if (f->kfold && f->kfold[i] >= 0) {
				sel_kfold(f, &f->blk[cb], in, &f->kres[f->kfold[i]]);
				continue;
			}
			if (sel_ins(f, &f->blk[cb], in) < 0 || in->guard < 0 || f->guard_done)
				continue;
			for (int k = before; k < f->blk[cb].nins; k++) {
				MIns *x = &f->blk[cb].ins[k];
				if (x->guard != T_PT)
					die("guarded sequence under a PTX guard");
				x->guard = f->regtmp[in->guard];
				x->gneg = in->gneg;
			}
		}
		if (f->blk[f->cur_blk].jmp.kind == J_BRX)
			be_sel_brx(f, &f->blk[f->cur_blk]);
	}
	f->cur_ptx = -1;
	return f->nerr > nerr ? -1 : 0;
}
