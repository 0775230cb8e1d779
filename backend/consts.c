/* consts.c - constant operands: kernel parameters, .const words and immediates moved into a
 * register are read by their uses straight from the constant bank or as immediates.
 *
 * Needs webs (one definition per value; blocks of MIns on temporaries); breaks nothing: it
 * rewrites source operands and the order of two commuting sources (a comparison's mirrored),
 * and leaves the moves for regalloc.c, which deletes those no one reads any more. ptxas 11.8
 * reads a kernel's parameters in the instructions that use them (ISCADD R2.CC, R6,
 * c[0x0][0x140], 0x2; ISETP.GE.AND P1, PT, R2, c[0x0][0x150], PT: tests/ptxas-ref), where the
 * translator loads each into a register at the entry (MOV R2, c[0x0][0x28]) that then stays
 * live to its last use. "Rematerialization" (Briggs, Cooper, Torczon, "Rematerialization",
 * PLDI 1992): a value that can be remade where it is used need not hold a register; here the
 * remade value is the operand itself.
 */
#include "backend/be.h"

/* whether in's first two sources commute (a + b, a & b, a * b + c ...: ops.def's F_COMMUTE) */
static int commutes(const MIns *in)
{
	if (!(isa_ops[in->op].flags & F_COMMUTE))
		return 0;
	if (in->op == OP_IMUL || in->op == OP_IMAD)   /* both factors of one signedness */
		return !in->m.stype || in->m.stype == in->m.dtype;
	return in->op != OP_LOP || in->m.sub != SUB_PASS_B;
}

/* a comparison whose two sources may trade places (F_MIRROR), its comparison mirrored (a < b
 * is b > a): the comparison's mirror, or CMP_NONE */
static Cmp mirrored(const MIns *in)
{
	static const uint8_t m[CMP_COUNT] = {
		[CMP_F] = CMP_F, [CMP_LT] = CMP_GT, [CMP_EQ] = CMP_EQ, [CMP_LE] = CMP_GE,
		[CMP_GT] = CMP_LT, [CMP_NE] = CMP_NE, [CMP_GE] = CMP_LE, [CMP_NUM] = CMP_NUM,
		[CMP_NAN] = CMP_NAN, [CMP_LTU] = CMP_GTU, [CMP_EQU] = CMP_EQU, [CMP_LEU] = CMP_GEU,
		[CMP_GTU] = CMP_LTU, [CMP_NEU] = CMP_NEU, [CMP_GEU] = CMP_LEU, [CMP_T] = CMP_T,
	};
	if (!(isa_ops[in->op].flags & F_MIRROR) || (in->m.flags & MF_X) || in->m.cmp >= CMP_COUNT)
		return CMP_NONE;
	return (Cmp)m[in->m.cmp];
}

/* one constant or immediate of cst into a source of in that holds a temporary with one */
static void fold(const Fn *f, MIns *in, const MOpd **cst)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
	int first = 0, ncst = 0;
	Cmp mir = mirrored(in);

	while (first < si->n && si->dst[first])
		first++;

	/* a copy of RZ is RZ in any slot */
	for (int i = 0; i < in->nopd && i < si->n; i++) {
		MOpd *o = &in->o[i];
		if (!si->dst[i] && o->kind == OPD_REG && o->t >= T_FIRST && cst[o->t] &&
		    cst[o->t]->kind == OPD_REG && !o->part && be_ins_nregs(in, i) == 1)
			o->t = T_RZ;
	}
	if (!(isa_ops[in->op].flags & F_FOLD))   /* constant slots that take a folded one */
		return;
	/* a comparison with 0 of a temporary holding one: 0 is RZ, which may trade places */
	if (mir != CMP_NONE && first + 1 < in->nopd && in->o[first].kind == OPD_REG &&
	    in->o[first].t >= T_FIRST && cst[in->o[first].t] && !in->o[first].flags &&
	    in->o[first + 1].kind == OPD_IMM && in->o[first + 1].imm == 0 && !in->o[first + 1].flags &&
	    (in->op == OP_ISETP || in->op == OP_ISET))
		in->o[first + 1] = be_r(T_RZ);
	/* one constant or immediate per instruction (a shift amount or a LUT of its own slot
	 * aside) */
	for (int i = 0; i < in->nopd; i++)
		ncst += in->o[i].kind == OPD_CONST ||
		        (in->o[i].kind == OPD_IMM && i < si->n && (si->classes[i] & OC_R));
	/* IMAD.HI.X x, t, e.hi with t a MOV32I of 2^k (isel_int.c's scadd64): a parameter e is
	 * read from the bank and t stays a register, as ptxas 11.8 has it (MOV32I R3, 0x4;
	 * IMAD.HI.X R3, R0, R3, c[0x0][0x144]); a register e takes the immediate */
	if (!ncst && in->op == OP_IMAD && (in->m.flags & MF_X) && in->nopd == 4 && si->n == 4 &&
	    (si->classes[3] & OC_C)) {
		MOpd *o = &in->o[3];
		if (o->kind == OPD_REG && o->t >= T_FIRST && cst[o->t] && cst[o->t]->kind == OPD_CONST &&
		    !o->flags && be_ins_nregs(in, 3) == (o->part ? 1 : be_cls_words(f->tmp[o->t].cls))) {
			o->kind = OPD_CONST;
			o->bank = cst[o->t]->bank;
			o->imm = cst[o->t]->imm + (o->part ? 4 * (o->part - 1) : 0);
			o->t = T_RZ;
			o->part = 0;
			ncst = 1;
		}
	}
	for (int i = 0; i < in->nopd && i < si->n && !ncst; i++) {
		MOpd *o = &in->o[i], *p = &in->o[i + 1];
		int words, imm, oc;
		if (si->dst[i] || o->kind != OPD_REG || o->t < T_FIRST || !cst[o->t])
			continue;
		words = o->part ? 1 : be_cls_words(f->tmp[o->t].cls);
		imm = cst[o->t]->kind == OPD_IMM;
		oc = imm ? OC_I : OC_C;
		if (be_ins_nregs(in, i) != words ||
		    (imm && (o->flags || !(isa_ops[in->op].flags & F_FOLDI))))
			continue;
		if (!(si->classes[i] & oc) && i == first && i + 1 < in->nopd && i + 1 < si->n &&
		    (commutes(in) || mir != CMP_NONE) && (si->classes[i + 1] & oc) &&
		    p->kind == OPD_REG && be_ins_nregs(in, i + 1) == words && o->flags == p->flags) {
			MOpd x = *o;
			*o = *p;
			*p = x;
			o = p;
			i++;
			if (mir != CMP_NONE)
				in->m.cmp = (uint8_t)mir;
		}
		if (!(si->classes[i] & oc))
			continue;
		o->kind = cst[o->t]->kind;
		o->bank = cst[o->t]->bank;
		o->imm = cst[o->t]->imm + (o->part ? 4 * (o->part - 1) : 0);
		o->t = T_RZ;
		o->part = 0;
		ncst = 1;
	}
}

/* the constant operand or 32-bit immediate that t's one definition d, unguarded and whole,
 * puts in it: a MOV of a constant, a MOV32I (or MOV) of an immediate, an LDC of whole words
 * from a fixed address (ld.const of a .const variable); NULL for anything else */
static const MOpd *const_of(const Fn *f, int t, const MIns *d)
{
	int cls = f->tmp[t].cls;

	if (d->guard != T_PT || d->nopd != 2 || d->o[0].part || d->o[1].flags || f->tmp[t].split ||
	    (cls != TC_R && cls != TC_R2))
		return NULL;
	if (d->op == OP_MOV && d->o[1].kind == OPD_CONST && d->o[1].t == T_RZ && !d->o[1].n &&
	    be_ins_nregs(d, 0) == be_cls_words(cls))
		return &d->o[1];
	if ((d->op == OP_MOV32I || d->op == OP_MOV) && d->o[1].kind == OPD_IMM && cls == TC_R &&
	    be_ins_nregs(d, 0) == 1)
		return &d->o[1];
	if (d->op == OP_MOV && d->o[1].kind == OPD_REG && d->o[1].t == T_RZ && !d->o[1].part &&
	    cls == TC_R && be_ins_nregs(d, 0) == 1)
		return &d->o[1];    /* RZ: read as RZ wherever a register is */
	if (d->op == OP_LDC && d->o[1].kind == OPD_CONST && d->o[1].t == T_RZ && !d->o[1].n &&
	    isa_type_bytes((Type)d->m.dtype) == 4 * be_cls_words(cls))
		return &d->o[1];
	return NULL;
}

/* the temporary an unguarded MOV copies whole into a temporary of its class, or -1 */
static int whole_copy(const Fn *f, const MIns *in)
{
	const MOpd *d = &in->o[0], *v = &in->o[1];

	if (in->op != OP_MOV || in->guard != T_PT || in->nopd != 2 || d->kind != OPD_REG ||
	    d->part || d->t < T_FIRST || v->kind != OPD_REG || v->part || v->flags ||
	    v->t < T_FIRST || f->tmp[v->t].cls != f->tmp[d->t].cls)
		return -1;
	return v->t;
}

/* whether an instruction of b from lo up to (not including) hi reads or writes q */
static int touched(const Blk *b, int lo, int hi, int q)
{
	for (int j = lo; j < hi; j++)
		for (int y = 0; y < b->ins[j].nopd; y++)
			if (b->ins[j].o[y].t == q && b->ins[j].o[y].kind != OPD_NONE &&
			    b->ins[j].o[y].kind != OPD_IMM)
				return 1;
	return 0;
}

/* Words of a pair or quad moved from a 32-bit value (cvt.u64.u32 is MOV q.lo, r; MOV q.hi,
 * RZ; mov.b64 {a, b}, q then reads them back): a use of one word alone reads the value it
 * was moved from, RZ or a temporary with one definition made earlier in the word's block
 * with no read of q between the two (so that q's word and the value stay equal wherever the
 * word is read, loops included). The pair then holds no registers once no use is left
 * (its moves go with the dead results), as in ptxas's SSA, where the pair never exists. */
static void word_copies(Fn *f, const int *ndef)
{
	int n = f->ntmp;
	int *src = be_alloc(f->pool, sizeof(int) * (size_t)(4 * n)); /* per word: its value + 1 */
	uint8_t *bad = be_alloc(f->pool, (size_t)n);
	int *dblk = be_alloc(f->pool, sizeof(int) * (size_t)n), *dpos = be_alloc(f->pool, sizeof(int) * (size_t)n);
	int *cpy = be_alloc(f->pool, sizeof(int) * (size_t)n); /* a whole copy's source + 1 */

	for (int t = 0; t < n; t++)
		dblk[t] = -1;

	for (int bi = 0; bi < f->nblk; bi++)
		for (int k = 0; !f->blk[bi].dead && k < f->blk[bi].nins; k++) {
			MIns *in = &f->blk[bi].ins[k];
			const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
			for (int i = 0; i < in->nopd && i < si->n; i++) {
				const MOpd *o = &in->o[i];
				int q = o->t;
				if (!si->dst[i] || (o->kind != OPD_REG && o->kind != OPD_PRED) || q < T_FIRST)
					continue;
				dblk[q] = bi, dpos[q] = k;
				if (f->tmp[q].cls != TC_R2 && f->tmp[q].cls != TC_R4)
					continue;
				const MOpd *v = &in->o[1];
				int w = o->part - 1, nw = be_cls_words(f->tmp[q].cls);
				if (!i && whole_copy(f, in) >= 0 && !bad[v->t] && ndef[q] == 1) {
					/* a copy of a whole pair or quad whose words are known: the same words,
					 * when their values are made in this block with no read of q since */
					int from = k;
					for (w = 0; w < nw; w++) {
						int x = src[4 * v->t + w] - 1;
						if (x < 0 || (x != T_RZ && dblk[x] != bi))
							bad[q] = 1;
						else if (x != T_RZ && dpos[x] < from)
							from = dpos[x];
					}
					if (!bad[q] && touched(&f->blk[bi], from + 1, k, q))
						bad[q] = 1;
					for (w = 0; w < nw && !bad[q]; w++)
						src[4 * q + w] = src[4 * v->t + w];
					cpy[q] = v->t + 1;
					continue;
				}
				if (in->op != OP_MOV || i || in->guard != T_PT || in->nopd != 2 || !o->part ||
				    be_ins_nregs(in, 0) != 1 || w >= nw ||
				    src[4 * q + w] || v->kind != OPD_REG || v->part || v->flags ||
				    (v->t != T_RZ && (v->t < T_FIRST || ndef[v->t] != 1 ||
				                      f->tmp[v->t].cls != TC_R)) ||
				    (v->t != T_RZ && dblk[v->t] != bi)) {
					bad[q] = 1;
					continue;
				}
				/* no read of q between the value's definition and the word's move */
				if (touched(&f->blk[bi], v->t == T_RZ ? k : dpos[v->t] + 1, k, q))
					bad[q] = 1;
				src[4 * q + w] = v->t + 1;
			}
		}
	/* a copy of a pair found bad after the copy (another definition in a later block: its
	 * RZ words need not be RZ where it is copied) is bad too */
	for (int changed = 1; changed;) {
		changed = 0;
		for (int t = T_FIRST; t < n; t++)
			if (cpy[t] && !bad[t] && bad[cpy[t] - 1])
				bad[t] = 1, changed = 1;
	}
	for (int bi = 0; bi < f->nblk; bi++)
		for (int k = 0; !f->blk[bi].dead && k < f->blk[bi].nins; k++) {
			MIns *in = &f->blk[bi].ins[k];
			const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
			for (int i = 0; i < in->nopd && i < si->n; i++) {
				MOpd *o = &in->o[i];
				if (si->dst[i] || o->kind != OPD_REG || o->t < T_FIRST || !o->part || bad[o->t] ||
				    !src[4 * o->t + o->part - 1] || be_ins_nregs(in, i) != 1)
					continue;
				o->t = src[4 * o->t + o->part - 1] - 1;
				o->part = 0;
			}
		}
}

/* one definition per temporary, its constant (const_of, or a copy's), then every
 * instruction's sources (fold) */
void be_consts(Fn *f)
{
	int n = f->ntmp, *ndef = be_alloc(f->pool, sizeof(int) * (size_t)n);
	MIns **def = be_alloc(f->pool, sizeof(MIns *) * (size_t)n);
	const MOpd **cst = be_alloc(f->pool, sizeof(MOpd *) * (size_t)n);

	for (int bi = 0; bi < f->nblk; bi++)
		for (int k = 0; !f->blk[bi].dead && k < f->blk[bi].nins; k++) {
			MIns *in = &f->blk[bi].ins[k];
			const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
			for (int i = 0; i < in->nopd && i < si->n; i++)
				if (si->dst[i] && (in->o[i].kind == OPD_REG || in->o[i].kind == OPD_PRED) &&
				    in->o[i].t >= T_FIRST && ndef[in->o[i].t]++ == 0)
					def[in->o[i].t] = in;
		}
	word_copies(f, ndef);
	for (int t = T_FIRST; t < n; t++)
		if (ndef[t] == 1)
			cst[t] = const_of(f, t, def[t]);
	/* a copy of a temporary that holds one holds it too */
	for (int changed = 1; changed;) {
		changed = 0;
		for (int t = T_FIRST; t < n; t++) {
			const MIns *d = def[t];
			int s = ndef[t] == 1 && !cst[t] && !f->tmp[t].split ? whole_copy(f, d) : -1;
			if (s >= 0 && cst[s])
				cst[t] = cst[s], changed = 1;
		}
	}
	for (int bi = 0; bi < f->nblk; bi++)
		for (int k = 0; !f->blk[bi].dead && k < f->blk[bi].nins; k++)
			fold(f, &f->blk[bi].ins[k], cst);
}
