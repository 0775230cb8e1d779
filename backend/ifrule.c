/* ifrule.c - how ptxas 11.8 counts a hammock for sm_35 (--predicate-rule sm35, kepler.cfg's
 * default), for ifconv.c: fitted on tests/ptxas-ref/families (docs/predication.md). A side counts
 * its microcode instructions plus the jump that ends it (the bra.uni to the join of an if/else's
 * first side: ptxas keeps it as a BRA when it branches); the larger side is the cost. A side with
 * a global or generic load is never converted when ptxas has too little other work to schedule
 * beside it (other_work: the straight-line code above the branch and below the join; OTHER_WORK,
 * tests/ptx/ld_work; not an early exit's test, nor a constant folded into accesses: ld_test;
 * nor past a barrier the test of a branch that stays: kept_test),
 * outside a loop whatever it does with the value, in a loop when it computes with it, and,
 * where its lanes meet at a barrier, more of it when all of it waits for a special
 * register (BOUND_WORK, tests/ptx/ld_sreg); one that computes with the value of a load from an address made before the branch
 * counts MADE_SIDE fewer (tests/ptx/ld_other, ld_cond). Nor is one holding an inner converted hammock
 * beside other code (ptxas converts the innermost hammock only, unless it is the whole side). A
 * side that loads from an address it computes itself counts LOAD_SIDE instructions fewer, one that
 * loads from local memory (and stores none) LOCAL_SIDE fewer (docs/fidelity.md, "Sides with a
 * global load"); the former is held to the divergent limit under a uniform branch too (ifconv.c),
 * as ptxas's limit for it is 19 either way. A side without such a load does not count what ptxas
 * spends nothing on (be_ifrule_free: a widening integer conversion, our abs's negation, a shift
 * ptxas fuses into the add after it, an address offset it folds into the access), which puts
 * Mandelbrot's short-circuit sides at ptxas's size (chain.c counts a test's block the same way),
 * nor our re-canonicalisation of an 8- or 16-bit result (fix16), and counts a signed widening of
 * one once (widen_once: ptxas's BFE; tests/ptx/side16, Mandelbrot's colour),
 * nor the copies of a pair's words into and out of 32-bit registers (pair_copy: nvcc's pow's sign
 * flip, tests/ptx/pow_sign), nor those into and out of a texture fetch's quad (tex_copy); a side
 * that computes with a fetched value counts as one with a load from an address made before it
 * (MADE_SIDE, other_work, where a store of the value below the join is work: tests/ptx/tex_side),
 * counts a side that makes exactly one global (or generic) store one more (ptxas's limits for it
 * are 7 divergent and 5 uniform, one below a side with no such store or two: tests/ptx/one_store; a
 * shared store does not count, nor do RED and ATOM; a store whose address base code outside the
 * side reads, at the join or before the branch, gets the plain limits: _join7, _before7, _joinu5),
 * and one more for each other store through a base no other store of the side uses
 * (tests/ptx/shared_addr), a side that computes the address of a global store it makes from an
 * index it makes too STORE_SIDE fewer (tests/ptx/store_addr), and nothing for what ptxas makes
 * of a 64-bit shared address in 32 bits (shared_free: clang's), nor an IMAD's immediate addend
 * that ptxas takes from its literal pool (lit_pool; tests/ptx/shared_u16); the moves of a kernel
 * parameter that a side only stores through are neither counted nor such an address
 * (param_bases: tests/ptx/store_param); nor a test of a register against zero that only
 * selects read (ptxas's FCMP or ICMP selects by the register itself), nor a select's MOV32I
 * that ptxas spares (sel_extra: tests/ptx/sel_cmp, bisect_large's sign tests), nor what an
 * instruction above the branch computed already (side_cse: tests/ptx/side_cse, nvcc's exp()
 * in Rodinia's myocyte). A side that
 * stores a value it loaded where the join loads it again is branched around
 * (be_ifrule_sm35_reload: tests/ptx/reload). ptxas speculates nothing of a side above its
 * branch (tests/ptx/side_nospec): the rule counts all of it, guarded.
 *
 * Needs isel (and the inner conversions done); reads the blocks, changes nothing.
 */
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"

/* ptxas 11.8 converts a side whose global load's address the side computes up to 19 of its
 * instructions, where a side of arithmetic stops at 8 (tests/ptxas-ref/families/ldin_div);
 * ours counts that address's arithmetic as 4 or 5 instructions (SHL/SHR and a 64-bit add),
 * ptxas's as 2 (ISCADD, IMAD.HI.X): 14 fewer puts our limit of 8 at ptxas's 19. ptxas's
 * limit is 19 under a uniform branch too (ldin_uni): such a side is held to the divergent
 * limit there as well (ifconv.c's decide), where the uniform limit 6 would put it at 17 */
#define LOAD_SIDE 14

/* the same for a side that loads from local memory (any address) and stores none to it (a
 * call's arguments and results are stored and loaded there: not such a side): ptxas 11.8
 * converts such a side up to 20 of its instructions and spends 1 on an index's address (IMAD
 * with R1), ours 4 (SHL, SHR and a 64-bit add): 16 fewer puts our limit of 8 at ptxas's 20
 * (mathlib's Payne-Hanek shift) */
#define LOCAL_SIDE 16

/* the same for a side that computes the address of a global store it makes (`mul.wide.s32`,
 * `add.s64`, `st.global`, NVVM's code for `out[i] = v`: Rodinia's dwt2d): ptxas 11.8 spends 2
 * instructions on that address (ISCADD, IMAD.HI.X), ours 5 (SHL, SHR, a MOV.64 and the
 * 64-bit add), and converts a side of k instructions and the store up to k = 4 divergent, 2
 * uniform (tests/ptx/store_addr: _w4 and _w5, _u2 and _u3): 3 fewer, with the one more of its
 * one store, puts both limits at ours */
#define STORE_SIDE 3

/* the same for a side that computes with the value of a global or generic load from an
 * address made before the branch, when ptxas 11.8 has other work to schedule beside it
 * (other_work: code above the branch whose values the side computes with, code below the
 * join that does not wait for it): ptxas then converts such a side up to 20 of its
 * instructions, divergent or uniform, where without such work it branches around it at any
 * size (tests/ptx/ld_other, tests/ptx/ld_cond). Ours counts such a side as ptxas does (the
 * address is made outside it), but for an LDG: ptxas spends a TEXDEPBAR on each, and an
 * IADD32I and an IADD.X on each one's offset, and converts up to 21 with them (n LDGs at
 * offsets 0, 4, ... and x more instructions while 5n - 2 + x <= 21): those counted, less
 * one. 12 fewer puts our limit of 8 at its 20 */
#define MADE_SIDE 12

/* other work (other_work) that a global load counts for, and what a side needs of it whose
 * loaded value the join stores back to the address it came from (out[t] loaded, changed and
 * stored): ptxas 11.8 predicates that side beside one more global load, or three of other
 * instructions (a SEL and its test and an add; an I2F, FADD, F2I and add), not beside two
 * (an IMUL and a LOP; a shared load and its add; tests/ptx/ld_cond); any other side beside
 * one instruction */
#define LOAD_WORK 3
#define RMW_WORK 3

/* the other work a side with a global load needs beside it to be converted (other_work), and
 * what a global store below the join counts for: ptxas 11.8 branches around such a side beside
 * one instruction of arithmetic, predicates it beside two, or beside one global store; a CTA
 * barrier is none, nor a shared access below one (the side's own shared store and the access
 * keep their order across it). Whether the side makes its load's address or takes one made
 * before the branch, and whether it stores the value or only hands it to the join
 * (tests/ptx/ld_work: Rodinia's pathfinder, `if (ok) prev[tx] = src[i];` before a
 * __syncthreads()). A side that computes with a load from an address made before it keeps the
 * one of before (ld_cond_pre: an IADD of the condition's load beside it is enough; an IMUL of
 * a parameter after a barrier is not, in kernels of ours, which it does not follow) */
#define OTHER_WORK 2
#define STORE_WORK 2

/* the other work such a side needs, when its lanes meet at a barrier below the join, if all
 * of that work waits for a special register (an S2R of %tid, %ctaid, ..., which then counts
 * one itself, or an instruction that computes with one): ptxas 11.8 branches around the side
 * beside two such instructions and predicates it beside three, or beside two of which one
 * waits for none (tests/ptx/ld_sreg: an IMUL and a LOP of %tid after the barrier branched, of
 * a parameter predicated). Not followed where the lanes meet at other code: there ptxas
 * predicates such sides beside two instructions of %tid (tests/ptx/stencil, ld_side) as often
 * as it branches around them */
#define BOUND_WORK 3

/* the address operand of a global or generic load or store in (OP_LD, OP_LDG, OP_ST), or
 * NULL */
static const MOpd *gaddr(const MIns *in)
{
	if (in->op != OP_LD && in->op != OP_LDG && in->op != OP_ST)
		return NULL;
	for (int i = 0; i < in->nopd; i++)
		if (in->o[i].kind == OPD_MEM)
			return &in->o[i];
	return NULL;
}

/* in reads temporary t (a source operand, or the base of an address) */
static int reads(const MIns *in, int t)
{
	const ShapeInfo *si = NULL;   /* (asked only of an operand that names t: the function-wide
	                                 scans call this for every instruction) */

	for (int i = 0; i < in->nopd; i++)
		if ((in->o[i].kind == OPD_REG || in->o[i].kind == OPD_MEM) && in->o[i].t == t) {
			if (!si)
				si = isa_shape(isa_ops[in->op].shape);
			if (i >= si->n || !si->dst[i])
				return 1;
		}
	return 0;
}

/* in is a global or generic load (a store with st) from (to) an address that one of the
 * side's ndef temporaries def (written before in in the side) is the base of */
static int made_addr(const MIns *in, const int *def, int ndef, int st)
{
	const MOpd *a = gaddr(in);

	if (!a || st != (in->op == OP_ST))
		return 0;
	for (int d = 0; d < ndef; d++)
		if (a->t == def[d])
			return 1;
	return 0;
}

/* some instruction of the side's blocks chain[k..] after instruction i of chain[k] reads t */
static int read_after(const Fn *f, const int *chain, int nchain, int k, int i, int t)
{
	for (; k < nchain; k++, i = -1) {
		const Blk *x = &f->blk[chain[k]];
		for (int j = i + 1; j < x->nins; j++)
			if (reads(&x->ins[j], t))
				return 1;
	}
	return 0;
}

/* block b is one of the side's */
static int in_chain(const int *chain, int nchain, int b)
{
	for (int k = 0; k < nchain; k++)
		if (chain[k] == b)
			return 1;
	return 0;
}

/* in loads from global memory: LD (global or generic), LDG, ATOM */
static int gload(const MIns *in)
{
	return in->op == OP_LD || in->op == OP_LDG || in->op == OP_ATOM;
}

/* the temporary of operand o when it is a register or predicate one of f's own (not RZ, PT,
 * the stack pointer), else -1 */
static int tmp_of(const Fn *f, const MOpd *o)
{
	return (o->kind == OPD_REG || o->kind == OPD_PRED) && o->t >= T_FIRST && o->t < f->ntmp ?
	       o->t : -1;
}

/* the value of temporary t depends on a global load through a chain of definitions in f,
 * register and predicate operands and guards (every definition of a temporary counts,
 * wherever it is; an address is not followed: a value loaded from another space is not) */
static int from_load(const Fn *f, int t)
{
	uint8_t *dep;
	int grew = 1;

	if (t < T_FIRST || t >= f->ntmp)
		return 0;
	dep = be_alloc(f->pool, (size_t)f->ntmp);
	dep[t] = 1;
	while (grew) {
		grew = 0;
		for (int b = 0; b < f->nblk; b++)
			for (int j = 0; j < f->blk[b].nins; j++) {
				const MIns *in = &f->blk[b].ins[j];
				const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
				int w = 0, u;
				for (int o = 0; o < in->nopd && o < si->n; o++)
					w |= si->dst[o] && (u = tmp_of(f, &in->o[o])) >= 0 && dep[u];
				if (!w)
					continue;
				if (gload(in))
					return 1;
				for (int o = 0; o < in->nopd; o++)
					if ((o >= si->n || !si->dst[o]) && (u = tmp_of(f, &in->o[o])) >= 0 && !dep[u])
						dep[u] = grew = 1;
				if (in->guard >= T_FIRST && in->guard < f->ntmp && !dep[in->guard])
					dep[in->guard] = grew = 1;
			}
	}
	return 0;
}

/* an instruction of f outside the side's blocks reads t */
static int read_outside(const Fn *f, const int *chain, int nchain, int t)
{
	for (int b = 0; b < f->nblk; b++)
		for (int j = 0; !in_chain(chain, nchain, b) && j < f->blk[b].nins; j++)
			if (reads(&f->blk[b].ins[j], t))
				return 1;
	return 0;
}

/* t, a temporary of f's own (not RZ, PT, the stack pointer) */
static int own(const Fn *f, int t)
{
	return t >= T_FIRST && t < f->ntmp;
}

/* marks in m the temporaries instruction in reads: its register and predicate sources and
 * its guard, with the bases of its addresses when addr */
static void mark_reads(const Fn *f, const MIns *in, uint8_t *m, int addr)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);

	for (int o = 0; o < in->nopd; o++) {
		const MOpd *x = &in->o[o];
		if ((o < si->n && si->dst[o]) || !own(f, x->t))
			continue;
		if (x->kind == OPD_REG || x->kind == OPD_PRED || (addr && x->kind == OPD_MEM))
			m[x->t] = 1;
	}
	if (own(f, in->guard))
		m[in->guard] = 1;
}

/* be_visit's callbacks over a byte per temporary: mark_def marks what an instruction writes,
 * hit_def finds whether it writes a marked one (Marks.hit), grow_def marks and finds whether
 * one was not yet */
typedef struct {
	uint8_t *m;
	int hit;
} Marks;
static void mark_def(void *ctx, int t, int def, int kill)
{
	(void)kill;
	if (def)
		((Marks *)ctx)->m[t] = 1;
}
static void hit_def(void *ctx, int t, int def, int kill)
{
	Marks *k = ctx;
	(void)kill;
	k->hit |= def && k->m[t];
}
static void grow_def(void *ctx, int t, int def, int kill)   /* (marks, hit: one was new) */
{
	Marks *k = ctx;
	(void)kill;
	if (def && !k->m[t])
		k->m[t] = 1, k->hit = 1;
}

/* marks in m the temporaries instruction in writes */
static void mark_writes(const MIns *in, uint8_t *m)
{
	Marks k = {m, 0};
	be_visit(in, mark_def, &k);
}

/* instruction in writes a temporary that m marks */
static int writes_marked(const MIns *in, uint8_t *m)
{
	Marks k = {m, 0};
	be_visit(in, hit_def, &k);
	return k.hit;
}

/* instruction in reads (a source, an address's base, its guard) a temporary that m marks */
static int reads_marked(const Fn *f, const MIns *in, const uint8_t *m)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);

	for (int o = 0; o < in->nopd; o++) {
		const MOpd *x = &in->o[o];
		if ((o < si->n && si->dst[o]) || !own(f, x->t))
			continue;
		if ((x->kind == OPD_REG || x->kind == OPD_PRED || x->kind == OPD_MEM) && m[x->t])
			return 1;
	}
	return own(f, in->guard) && m[in->guard];
}

/* an instruction of a block that mark does not hold reads t */
static int read_off(const Fn *f, const uint8_t *mark, int t)
{
	for (int b = 0; b < f->nblk; b++)
		for (int j = 0; !mark[b] && j < f->blk[b].nins; j++)
			if (reads(&f->blk[b].ins[j], t) || f->blk[b].ins[j].guard == t)
				return 1;
	return 0;
}

static struct BeIfMemo *memo(const Fn *f);
static const uint8_t *sreg_vals(const Fn *f);

/* in reads a special register that ptxas 11.8 reads with an S2R (not %ntid or %nctaid, which
 * it reads from the constant bank) */
static int sreg_read(const MIns *in)
{
	return in->op == OP_S2R && in->nopd == 2 &&
	       !(in->o[1].imm >= SR_NTID_X && in->o[1].imm <= SR_NTID_Z) &&
	       !(in->o[1].imm >= SR_NCTAID_X && in->o[1].imm <= SR_NCTAID_Z);
}

/* what other work counts instruction k of b for (other_work): nothing for a move, a special
 * register's read, a barrier or a branch, what ptxas spends nothing on, and the mask our isel
 * puts on a constant it has just made (mov.u16's MOV32I, then LOP.AND 0xffff); LOAD_WORK for a
 * global load, ATOM or RED, STORE_WORK for a global store; else 1 */
static int work(const Blk *b, int k)
{
	const MIns *in = &b->ins[k], *pv = k > 0 ? &b->ins[k - 1] : NULL;
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
	int fold = pv && pv->op == OP_MOV32I && pv->nopd > 0 && pv->o[0].kind == OPD_REG &&
	           !(isa_ops[in->op].flags & (F_LOAD | F_STORE)) && be_writes(in, pv->o[0].t);

	for (int o = 0; fold && o < in->nopd; o++)
		if (!(o < si->n && si->dst[o]))
			fold = in->o[o].kind == OPD_IMM ||
			       (in->o[o].kind == OPD_REG && in->o[o].t == pv->o[0].t);
	if (in->op == OP_MOV || in->op == OP_MOV32I || in->op == OP_S2R || fold ||
	    (isa_ops[in->op].flags & (F_BARRIER | F_BRANCH)) || be_ifrule_free(b, k) == BE_FREE_ISEL)
		return 0;
	return gload(in) || in->op == OP_RED ? LOAD_WORK : in->op == OP_ST ? STORE_WORK : 1;
}

/* the blocks of the other side of branch block a, whose side chain goes on to join: a's
 * other successor and the blocks it falls through up to the join, marked in side */
static void other_side(const Fn *f, int a, const int *chain, int join, uint8_t *side)
{
	const Blk *ab = &f->blk[a];
	int o = ab->s1 == chain[0] ? ab->s2 : ab->s1;

	for (int k = 0; o >= 0 && o != join && !side[o] && k < f->nblk; k++) {
		side[o] = 1;
		o = f->blk[o].s2 < 0 ? f->blk[o].s1 : -1;
	}
}

/* the straight-line code that ends in branch block a, into pre (from a up; their number):
 * a and the blocks above it that only fall into the next, and the body of a loop that a
 * leaves (its latch falls into a) */
static int code_above(const Fn *f, int a, const uint8_t *side, int *pre)
{
	int npre = 0;

	for (int b = a; npre < f->nblk; ) {
		const Blk *p;
		pre[npre++] = b;
		if (f->blk[b].npred != 1)
			break;
		p = &f->blk[f->blk[b].pred[0]];
		if (side[p->id])
			break;
		if (p->s2 >= 0 && p->loop >= 0 && !be_in_loop(f, p->loop, a) &&
		    (p->s1 == f->loops[p->loop].header || p->s2 == f->loops[p->loop].header)) {
			pre[npre++] = p->id;
			break;
		}
		if (p->s2 >= 0 || p->s1 != b)
			break;
		b = p->id;
	}
	return npre;
}

/* the code that the join starts, into post (their number): the join and the blocks it falls
 * into one by one, when they become one block with branch block a once the sides are
 * predicated (the join entered from a and the sides only) */
static int code_below(const Fn *f, int a, int join, const uint8_t *side, int *post)
{
	int npost = 0, only = join >= 0 && join != a && !side[join];

	for (int p = 0; only && p < f->blk[join].npred; p++)
		only = f->blk[join].pred[p] == a || side[f->blk[join].pred[p]];
	for (int b = join; only && b >= 0 && b != a && !side[b] && npost < f->nblk; ) {
		post[npost++] = b;
		b = f->blk[b].s2 < 0 ? f->blk[b].s1 : -1;
		if (b >= 0 && f->blk[b].npred != 1)
			break;
	}
	return npost;
}

/* in is a comparison that writes predicates only, read as the guard of an early exit (a
 * guarded EXIT or RET, which ends ptxas's block; cnd marks them) and by no instruction of the
 * code below that counts or waits (marked in below): no work beside a side to ptxas 11.8, though
 * what it compares is (tests/ptx/ld_test: an IMUL of parameters and the exit's test branched,
 * an IMUL, a LOP and the test predicated). The test of a branch that ptxas keeps is work: it
 * predicates sides beside a loop's guard and a shift (tests/ptx/reduce), or beside the next
 * hammock's test and an add (stencil) */
static int test_only(const MIns *in, uint8_t *cnd, uint8_t *below)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
	int any = 0;

	if (isa_ops[in->op].flags & (F_STORE | F_SIDE | F_BARRIER | F_BRANCH | F_LOAD))
		return 0;
	for (int o = 0; o < in->nopd && o < si->n; o++)
		if (si->dst[o] && in->o[o].kind != OPD_PRED)
			return 0;
		else if (si->dst[o])
			any = 1;
	return any && writes_marked(in, cnd) && !writes_marked(in, below);
}

/* every instruction of f that writes temporary t is a MOV or MOV32I of an immediate, or of a
 * temporary such as t (clang's `mov.u64 %rd28, s_val`, nvcc's MOV32I: a shared variable's
 * address, and NVVM's copy of it), or an add (a word
 * of a 64-bit one) of such temporaries and immediates (clang's `add.s64 %rd90, %rd72, 2`: an
 * offset into that variable, which ptxas folds into the access's immediate as it does the
 * variable's address: ISCADD R5, R3, 0x2, 0x1; tests/ptx/shared_u16) */
static int const_tmp(const Fn *f, int t, int depth)
{
	int any = 0;

	if (!own(f, t) || depth > 8)
		return 0;
	for (int b = 0; b < f->nblk; b++)
		for (int j = 0; j < f->blk[b].nins; j++) {
			const MIns *in = &f->blk[b].ins[j];
			int ok = in->guard == T_PT;
			if (!be_writes(in, t))
				continue;
			if (in->op == OP_MOV || in->op == OP_MOV32I)
				ok &= in->nopd == 2 && !in->o[0].part && !in->o[1].part;
			else
				ok &= in->op == OP_IADD && in->nopd == 3 && !(in->m.flags & MF_SAT);
			for (int o = 1; ok && o < in->nopd; o++)
				ok = in->o[o].kind == OPD_IMM ||
				     (in->o[o].kind == OPD_REG && (in->o[o].t == T_RZ ||
				      (in->o[o].t != t && const_tmp(f, in->o[o].t, depth + 1))));
			if (!ok)
				return 0;
			any = 1;
		}
	return any;
}

/* in adds a constant (an immediate, or a temporary const_tmp finds one) to a register, and
 * every reader of the sum in f takes it as the base of its address: ptxas folds the constant
 * into each access's offset (a shared array's address added to an index, `LDS [R+0x400]`), so
 * that neither the add nor what computes the index for it alone is work beside a side
 * (tests/ptx/ld_test; Rodinia's pathfinder, `result + 4 tx` after its barrier) */
static int offset_only(const Fn *f, const MIns *in)
{
	int t, k = 0;

	if (in->op != OP_IADD || in->nopd != 3 || in->o[0].kind != OPD_REG || in->o[0].part ||
	    !own(f, in->o[0].t) || (in->m.flags & (MF_CC | MF_X | MF_SAT)))
		return 0;
	for (int o = 1; o <= 2; o++) {
		if (in->o[o].kind != OPD_IMM && (in->o[o].kind != OPD_REG || (in->o[o].flags & OPF_NEG)))
			return 0;
		k += in->o[o].kind == OPD_IMM || const_tmp(f, in->o[o].t, 0);
	}
	if (k != 1)
		return 0;
	t = in->o[0].t;
	for (int b = 0; b < f->nblk; b++)
		for (int j = 0; j < f->blk[b].nins; j++) {
			const MIns *x = &f->blk[b].ins[j];
			if (x == in || !reads(x, t))
				continue;
			if (!(isa_ops[x->op].flags & (F_LOAD | F_STORE)) || (isa_ops[x->op].flags & F_ATOMIC))
				return 0;
			for (int o = 0; o < x->nopd; o++)
				if (x->o[o].kind == OPD_REG && x->o[o].t == t)
					return 0;
		}
	for (int b = 0; b < f->nblk; b++)
		if (f->blk[b].jmp.cond == t)
			return 0;
	return 1;
}

/* (be.h) Under the sm35 rule an FDIV or FSQRT (F_MACRO) cannot be guarded in a side:
 * it stands for ptxas's subroutine, which ptxas 11.8 calls (div.rp/.rm/.rz: CAL) or enters
 * by a fast path that calls the slow one under a branch of its own (div.rn, rcp.rn, sqrt.rn),
 * and it branches around every such side, divergent or uniform (tests/ptx/div_side) */
const char *be_branch_op(const Fn *f, const MIns *in)
{
	if (in->op == OP_CAL || in->op == OP_JCAL)
		return "a call";
	if ((isa_ops[in->op].flags & F_MACRO) && f->opt->predicate_rule == BE_RULE_SM35)
		return "a correctly rounded division or square root (a call in ptxas's code)";
	if (in->op == OP_SHFL || in->op == OP_VOTE || in->op == OP_MATCH || in->op == OP_REDUX)
		return "a warp-wide op";
	return NULL;
}

/* block e ends in a branch that always stays a branch (its region, up to its immediate
 * post-dominator, holds a call, a correctly rounded division or square root, a warp-wide op,
 * a loop: what no rule predicates) whose test waits for a special register (sv). Where a
 * side's lanes meet at a barrier, ptxas 11.8 counts such a test no work beside the side, as
 * an early exit's (test_only; what it compares still counts): it branches around `if (t ==
 * 0) s = in[0];` before the barrier and `if (i < n) out[i] = out[i] / s;`, i made of %tid and
 * %ctaid (Rodinia's particlefilter, normalize_weights), or of %ctaid alone, and predicates it
 * when the test compares a parameter, or when the side after the barrier is one it predicates
 * (tests/ptx/kept_test). clang's srad_v1 compares a value of %nctaid (a constant-bank word
 * to ptxas, no S2R) there: predicated */
static int kept_test(const Fn *f, int e, const uint8_t *sv)
{
	const Blk *x = &f->blk[e];
	uint8_t *seen;
	int *stk, sp = 0, stop = x->ipdom;

	if (x->jmp.kind != J_BRA || !own(f, x->jmp.cond) || !sv[x->jmp.cond] || stop < 0)
		return 0;
	seen = be_alloc(f->pool, (size_t)f->nblk);
	stk = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));
	seen[e] = 1;
	stk[sp++] = x->s1;
	stk[sp++] = x->s2;
	while (sp > 0) {
		int b = stk[--sp];
		const Blk *y;
		if (b < 0 || b >= f->nblk || b == stop || seen[b])
			continue;
		seen[b] = 1;
		y = &f->blk[b];
		if (y->loop >= 0 && f->loops[y->loop].header == b)
			return 1;
		for (int j = 0; j < y->nins; j++)
			if (be_branch_op(f, &y->ins[j]))
				return 1;
		if (sp + 2 <= f->nblk) {
			stk[sp++] = y->s1;
			stk[sp++] = y->s2;
		}
	}
	return 0;
}

/* the other work ptxas 11.8 can schedule beside a side (chain) of branch block a that loads
 * from global memory, with the instructions of the other side if any (tests/ptx/ld_cond,
 * ld_work): each instruction counted by work(), from
 *  - the code above the branch (code_above): those whose values the sides compute with (not
 *    as an address) or the code below takes, that neither the branch's condition, nor an
 *    address of the sides, nor a global store above needs, and shared stores;
 *    none when a global store or RED is there (the sides' loads wait for it, and the work is
 *    done before);
 *  - the code below the join (code_below): those that read no value the sides write, and
 *    whose value is taken (by a store, by an instruction that counts or waits for the sides,
 *    by code elsewhere), not only as the address of an access that waits; none for a shared
 *    access after a barrier, for the test of an early exit (test_only) or, where the lanes
 *    meet at a barrier, of a branch that stays (kept_test), nor for the add of a constant
 *    that the accesses it addresses fold (offset_only).
 * None at all when the join is entered from outside the hammock too (an enclosing branch's
 * side that the branch ends early) and the branch's condition comes from a global load
 * (clang's Mandelbrot). *rmw tells that the code below stores a value the sides made to the
 * address one of their loads reads (out[t] loaded, changed and stored: ptxas's bar is
 * higher there). The rest of *w tells how much of that work waits for what (Work) */
typedef struct {
	int bar;     /* the sides' lanes meet at a barrier: one comes below the join before any
	              * instruction that counts (work()) and does not wait for the sides */
	int sreg;    /* the reads of special registers of that code (S2R), which work() counts none */
	int late;    /* of the work, what waits for a shared load after a barrier below the join,
	              * or comes after a guarded EXIT or RET there (a branch that ends ptxas's block) */
	int bound;   /* of the work and sreg, what waits for a special register (sreg_vals), not late */
	int stwait;  /* what the global stores below the join that wait for the sides would count
	              * (work()), before any branch there: none of the work */
} Work;

static int other_work(const Fn *f, int a, const int *chain, int nchain, int *rmw, Work *w)
{
	uint8_t *side = be_alloc(f->pool, (size_t)f->nblk);
	uint8_t *need = be_alloc(f->pool, (size_t)f->ntmp), *data = be_alloc(f->pool, (size_t)f->ntmp);
	uint8_t *taint = be_alloc(f->pool, (size_t)f->ntmp), *adr;
	int *pre = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1)), npre;
	int *post = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1)), npost;
	const Blk *last = &f->blk[chain[nchain - 1]];
	int join = last->jmp.kind == J_JMP || last->jmp.kind == J_NONE ? last->s1 : -1;
	int n = 0, above = 0, store = 0, again = 1, nsins = 0, capsins = 0;
	const MIns **sins = NULL;
	/* the code below the join in order, whether each waits for the sides; what is taken
	 * below as a value, and as an address only */
	struct below { int blk, k; uint8_t wait, aft, past; } *pins = NULL;   /* (aft: after a
	                      barrier; past: after a guarded EXIT or RET, another block to ptxas) */
	int npins = 0, cappins = 0, bar = 0, gone = 0, meet = -1;   /* (meet: at a barrier) */
	uint8_t *used = be_alloc(f->pool, (size_t)f->ntmp), *addr = be_alloc(f->pool, (size_t)f->ntmp);
	/* (what waits for a special register, function-wide; for a shared load after a barrier
	 * below the join) */
	const uint8_t *sv = sreg_vals(f);
	uint8_t *late = be_alloc(f->pool, (size_t)f->ntmp);
	uint8_t *cnd = be_alloc(f->pool, (size_t)f->ntmp), *below = be_alloc(f->pool, (size_t)f->ntmp);
	int sreg = 0, bound = 0, sa = 0, ba = 0;

	for (int k = 0; k < nchain; k++)
		side[chain[k]] = 1;
	other_side(f, a, chain, join, side);
	npre = code_above(f, a, side, pre);
	npost = code_below(f, a, join, side, post);
	if (join >= 0 && !npost && join != a && !side[join] && from_load(f, f->blk[a].jmp.cond))
		return 0;
	/* the sides' instructions; those that only make an address (their values taken by an
	 * address or by other such instructions of the sides, and nowhere outside) */
	for (int b = 0; b < f->nblk; b++)
		for (int j = 0; side[b] && j < f->blk[b].nins; j++)
			*VPUSH(f->pool, sins, nsins, capsins) = &f->blk[b].ins[j];
	adr = be_alloc(f->pool, (size_t)nsins + 1);
	for (int i = 0; i < nsins; i++) {
		const ShapeInfo *si = isa_shape(isa_ops[sins[i]->op].shape);
		adr[i] = !(isa_ops[sins[i]->op].flags & (F_LOAD | F_STORE | F_BRANCH)) &&
		         sins[i]->nopd > 0 && si->n > 0 && si->dst[0] &&
		         sins[i]->o[0].kind == OPD_REG && own(f, sins[i]->o[0].t) &&
		         !read_off(f, side, sins[i]->o[0].t);
	}
	while (again) {
		uint8_t *val = be_alloc(f->pool, (size_t)f->ntmp);
		again = 0;
		for (int j = 0; j < nsins; j++)
			if (!adr[j])
				mark_reads(f, sins[j], val, 0);
		for (int i = 0; i < nsins; i++)
			if (adr[i] && writes_marked(sins[i], val))
				adr[i] = 0, again = 1;
	}
	/* what the sides compute with, what they write, and the addresses they need */
	for (int i = 0; i < nsins; i++) {
		const MOpd *g = gaddr(sins[i]);
		mark_reads(f, sins[i], adr[i] ? need : data, 0);
		if (g && own(f, g->t))
			need[g->t] = 1;
		mark_writes(sins[i], taint);
	}
	/* below the join, in order: what waits for the sides (reads what they write, or what
	 * such an instruction writes) */
	for (int k = 0; k < npost; k++) {
		const Blk *x = &f->blk[post[k]];
		for (int j = 0; j < x->nins; j++) {
			const MIns *in = &x->ins[j];
			const MOpd *st = in->op == OP_ST && reads_marked(f, in, taint) ? gaddr(in) : NULL;
			for (int i = 0; st && i < nsins; i++) {
				const MOpd *g = gaddr(sins[i]);
				*rmw |= g && sins[i]->op != OP_ST && g->t == st->t && g->imm == st->imm;
			}
			struct below *pi = VPUSH(f->pool, pins, npins, cappins);
			pi->blk = post[k];
			pi->k = j;
			pi->wait = (uint8_t)reads_marked(f, in, taint);
			pi->aft = (uint8_t)bar;
			pi->past = (uint8_t)gone;
			bar |= (isa_ops[in->op].flags & F_BARRIER) != 0;
			gone |= (isa_ops[in->op].flags & F_BRANCH) && in->guard != T_PT;
			if (meet < 0 && !gone && (bar || (!pi->wait && work(x, j))))
				meet = bar;
			if (pi->wait)
				mark_writes(in, taint);
			if ((bar && in->op == OP_LDS) || reads_marked(f, in, late))
				mark_writes(in, late);
		}
		if (own(f, x->jmp.cond))
			used[x->jmp.cond] = 1;
	}
	/* (what code elsewhere reads: the blocks after the code below, a loop's next trip) */
	{
		uint8_t *inpost = be_alloc(f->pool, (size_t)f->nblk);
		for (int k = 0; k < npost; k++)
			inpost[post[k]] = 1;
		for (int b = 0; b < f->nblk; b++) {
			for (int j = 0; !inpost[b] && j < f->blk[b].nins; j++)
				mark_reads(f, &f->blk[b].ins[j], used, 1);
			if (!inpost[b] && own(f, f->blk[b].jmp.cond))
				used[f->blk[b].jmp.cond] = 1;
		}
	}
	/* then from the bottom up, what does not: work() of each instruction with an effect (a
	 * store, a barrier: none for a shared access after one, which keeps its order), or
	 * whose value is taken by such an instruction, by one that waits, by the branch below
	 * or by code elsewhere; not one that only makes the address of an access that waits
	 * (ptxas spends nothing beside the side on it) */
	/* (where the lanes meet at a barrier, the test of a branch that stays below, when it waits
	 * for a special register: kept_test) */
	if (meet == 1 && npost && kept_test(f, post[npost - 1], sv))
		cnd[f->blk[post[npost - 1]].jmp.cond] = 1;
	for (int i = npins - 1; i >= 0; i--) {
		const MIns *in = &f->blk[pins[i].blk].ins[pins[i].k];
		int eff = (isa_ops[in->op].flags & (F_STORE | F_SIDE | F_BARRIER)) != 0;
		if ((isa_ops[in->op].flags & F_BRANCH) && !pins[i].wait) {
			if (own(f, in->guard))
				cnd[in->guard] = 1;
		} else if (!pins[i].wait && test_only(in, cnd, below)) {
			mark_reads(f, in, data, 0);
			mark_reads(f, in, used, 1);
			mark_reads(f, in, below, 1);
		} else if (!pins[i].wait && !eff && offset_only(f, in))
			mark_reads(f, in, addr, 1);
		else if (pins[i].wait) {
			if (in->op == OP_ST && !pins[i].past)
				w->stwait += work(&f->blk[pins[i].blk], pins[i].k);
			mark_reads(f, in, data, 0);
			mark_reads(f, in, used, 0);
			mark_reads(f, in, below, 0);
			if (gaddr(in) || in->op == OP_LDS || in->op == OP_STS)
				mark_reads(f, in, addr, 1);
		} else if (!eff && writes_marked(in, addr))
			mark_reads(f, in, addr, 1);
		else if (eff || writes_marked(in, used)) {
			int u = 0, lt = !eff && writes_marked(in, late);
			mark_reads(f, in, data, 0);
			mark_reads(f, in, used, 1);
			mark_reads(f, in, below, 1);
			if (!(pins[i].aft && (in->op == OP_LDS || in->op == OP_STS)))
				n += u = work(&f->blk[pins[i].blk], pins[i].k);
			w->late += lt || pins[i].past ? u : 0;
			sreg += !pins[i].past && sreg_read(in);
			bound += !lt && !pins[i].past && !eff && (sreg_read(in) || reads_marked(f, in, sv)) ?
			         u + sreg_read(in) : 0;
		}
	}
	/* above the branch, from the branch up */
	if (own(f, f->blk[a].jmp.cond))
		need[f->blk[a].jmp.cond] = 1;
	for (int k = 0; k < npre; k++) {
		const Blk *x = &f->blk[pre[k]];
		for (int j = x->nins - 1; j >= 0; j--) {
			const MIns *in = &x->ins[j];
			int gst = in->op == OP_ST || in->op == OP_RED;
			store |= gst;
			if (gst || writes_marked(in, need))
				mark_reads(f, in, need, 1);
			else if (writes_marked(in, data) || in->op == OP_STS) {
				int u = work(x, j);
				mark_reads(f, in, data, 0);
				above += u;
				sa += sreg_read(in);
				ba += in->op != OP_STS && (sreg_read(in) || reads_marked(f, in, sv)) ?
				      u + sreg_read(in) : 0;
			}
		}
	}
	w->bar = meet == 1;
	w->sreg = sreg + (store ? 0 : sa);
	w->bound = bound + (store ? 0 : ba);
	return n + (store ? 0 : above);
}

/* in is the whole translation of its PTX line among the side's instructions (a PTX
 * instruction of its own, not a part of one's lowering) */
static int alone(const Fn *f, const int *chain, int nchain, const MIns *in)
{
	int n = 0;

	for (int k = 0; k < nchain; k++)
		for (int j = 0; j < f->blk[chain[k]].nins; j++)
			n += f->blk[chain[k]].ins[j].ptxline == in->ptxline;
	return n == 1;
}

/* the last instruction of the side before instruction i of chain[k] that writes t, or NULL */
static const MIns *writer(const Fn *f, const int *chain, int k, int i, int t)
{
	for (; k >= 0; k--, i = k >= 0 ? f->blk[chain[k]].nins : 0) {
		const Blk *x = &f->blk[chain[k]];
		for (int j = i - 1; j >= 0; j--)
			if (be_writes(&x->ins[j], t))
				return &x->ins[j];
	}
	return NULL;
}

/* in is an unguarded MOV into a whole temporary from a kernel parameter (c[0x0][...]) or from
 * a temporary that mark holds */
static int param_mov(const MIns *in, const uint8_t *mark)
{
	return in->op == OP_MOV && in->guard == T_PT && in->nopd == 2 &&
	       in->o[0].kind == OPD_REG && !in->o[0].part && in->o[0].t >= T_FIRST &&
	       ((in->o[1].kind == OPD_CONST && in->o[1].bank == 0 && in->o[1].t == T_RZ) ||
	        (in->o[1].kind == OPD_REG && !in->o[1].part && mark[in->o[1].t]));
}

/* the temporaries of the side that hold a kernel parameter only to be a global store's
 * address base: each written only by param_mov, read in the side only as the base of an ST's
 * address or by such a MOV, and nowhere outside it (NVVM's ld.param and cvta.to.global of a
 * pointer the side stores through, `st.global [%rd8]`). ptxas makes that base with the same
 * two MOVs from the constant bank wherever the PTX loads the parameter, and converts such a
 * side as one whose base was made before the branch (tests/ptx/store_param). Their number of
 * MOVs in *nmov */
static uint8_t *param_bases(const Fn *f, const int *chain, int nchain, int *nmov)
{
	uint8_t *mark = be_alloc(f->pool, (size_t)f->ntmp);
	int drop = 1;

	for (int k = 0; k < nchain; k++)
		for (int i = 0; i < f->blk[chain[k]].nins; i++) {
			const MIns *in = &f->blk[chain[k]].ins[i];
			if (param_mov(in, mark))
				mark[in->o[0].t] = 1;
		}
	while (drop) {
		drop = 0;
		for (int k = 0; k < nchain; k++)
			for (int i = 0; i < f->blk[chain[k]].nins; i++) {
				const MIns *in = &f->blk[chain[k]].ins[i];
				const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
				int pm = param_mov(in, mark);
				for (int o = 0; o < in->nopd; o++) {
					const MOpd *x = &in->o[o];
					int t = x->t;
					if (x->kind != OPD_REG && x->kind != OPD_MEM)
						continue;
					if (t < T_FIRST || t >= f->ntmp || !mark[t])
						continue;
					if (o < si->n && si->dst[o] && x->kind == OPD_REG) {
						if (!pm)   /* (written otherwise) */
							mark[t] = 0, drop = 1;
					} else if (x->kind == OPD_MEM ? in->op != OP_ST :
					           !pm || !mark[in->o[0].t])
						mark[t] = 0, drop = 1;
				}
				if (in->guard >= T_FIRST && in->guard < f->ntmp && mark[in->guard])
					mark[in->guard] = 0, drop = 1;
			}
		for (int t = T_FIRST; t < f->ntmp; t++)
			if (mark[t] && read_outside(f, chain, nchain, t))
				mark[t] = 0, drop = 1;
	}
	*nmov = 0;
	for (int k = 0; k < nchain; k++)
		for (int i = 0; i < f->blk[chain[k]].nins; i++) {
			const MIns *in = &f->blk[chain[k]].ins[i];
			*nmov += param_mov(in, mark) && mark[in->o[0].t];
		}
	return mark;
}

/* the offset in c[0x0] of the kernel parameter that temporary t holds (every instruction of f
 * that writes it a MOV, guarded or not, of the parameter or of a temporary holding it), or -1 */
static int64_t param_off(const Fn *f, int t, int depth)
{
	int64_t off = -1;

	if (t < T_FIRST || t >= f->ntmp || depth > 8)
		return -1;
	for (int b = 0; b < f->nblk; b++)
		for (int j = 0; j < f->blk[b].nins; j++) {
			const MIns *in = &f->blk[b].ins[j];
			int64_t o;
			if (!be_writes(in, t))
				continue;
			if (in->op != OP_MOV || in->nopd != 2 || in->o[0].part)
				return -1;
			if (in->o[1].kind == OPD_CONST && in->o[1].bank == 0 && in->o[1].t == T_RZ)
				o = in->o[1].imm;
			else if (in->o[1].kind == OPD_REG && !in->o[1].part)
				o = param_off(f, in->o[1].t, depth + 1);
			else
				return -1;
			if (o < 0 || (off >= 0 && o != off))
				return -1;
			off = o;
		}
	return off;
}

/* a global load or store of f outside the side has parameter off itself as its address base,
 * in a block that does not dominate the branch's block a (after the join, in another side)
 * or under a guard (a side converted into one that does) */
static int param_elsewhere(const Fn *f, int a, const int *chain, int nchain, int64_t off)
{
	for (int b = 0; b < f->nblk; b++) {
		int dom = be_dominates(f, b, a);
		for (int j = 0; !in_chain(chain, nchain, b) && j < f->blk[b].nins; j++) {
			const MIns *in = &f->blk[b].ins[j];
			const MOpd *x = gaddr(in);
			if (x && (!dom || in->guard != T_PT) && param_off(f, x->t, 0) == off)
				return 1;
		}
	}
	return 0;
}

/* be.h: the side stores a value it loaded and the join's block loads that address again */
int be_ifrule_sm35_reload(const Fn *f, const int *chain, int nchain, int join)
{
	const Blk *j = join >= 0 && join < f->nblk ? &f->blk[join] : NULL;

	if (!j)
		return 0;
	for (int k = 0; k < nchain; k++) {
		const Blk *x = &f->blk[chain[k]];
		for (int i = 0; i < x->nins; i++) {
			const MIns *st = &x->ins[i];
			const MOpd *a = gaddr(st);
			int v = -1;
			if (!a || st->op != OP_ST)
				continue;
			for (int o = 0; o < st->nopd; o++)
				if (st->o[o].kind == OPD_REG)
					v = st->o[o].t;
			/* the stored value is a global load's of the side (the last write of v before
			 * the store) */
			const MIns *w = v < 0 ? NULL : writer(f, chain, k, i, v);
			if (!w || (w->op != OP_LD && w->op != OP_LDG))
				continue;
			/* the join's block loads from the store's address before the base changes */
			for (int ii = 0; ii < j->nins; ii++) {
				const MIns *in = &j->ins[ii];
				const MOpd *b = gaddr(in);
				if (b && in->op != OP_ST && b->t == a->t && b->imm == a->imm)
					return 1;
				if (be_writes(in, a->t))
					break;
			}
		}
	}
	return 0;
}

/* instruction i of chain[k] copies into another register a temporary that the side computed
 * (an instruction of the side that is not a load wrote it) and reads no more: NVVM's copy of
 * a side's value into the register of the phi at the join, which ptxas's register allocator
 * coalesces, so that it costs ptxas no instruction (families/phi_div: a side of 8
 * instructions and the copy is converted, of 9 and the copy is not). A PTX mov of its own
 * only: the moves of a lowering (mul.wide's halves) and the copy of a loaded value are
 * counted, as LOAD_SIDE was fitted with them (families/ldin_div) */
static int coalesced_copy(const Fn *f, const int *chain, int nchain, int k, int i)
{
	const MIns *in = &f->blk[chain[k]].ins[i], *w;

	if (in->op != OP_MOV || in->nopd != 2 || in->guard != T_PT || in->o[0].kind != OPD_REG ||
	    in->o[1].kind != OPD_REG || in->o[0].t == in->o[1].t)
		return 0;
	w = writer(f, chain, k, i, in->o[1].t);
	return w && !(isa_ops[w->op].flags & F_LOAD) && alone(f, chain, nchain, in) &&
	       !read_after(f, chain, nchain, k, i, in->o[1].t);
}

/* instruction k of b writes a whole temporary that the instruction after it (under the same
 * guard) reads only as its operand o (o < 0: only as an address base) and no later
 * instruction of b reads: what ptxas folds into that instruction */
static int feeds_only(const Blk *b, int k, int o)
{
	const MIns *in = &b->ins[k], *nx = &b->ins[k + 1];
	int t;

	if (in->nopd < 1 || in->o[0].kind != OPD_REG || in->o[0].part || in->o[0].t < T_FIRST ||
	    nx->guard != in->guard || nx->gneg != in->gneg)
		return 0;
	t = in->o[0].t;
	for (int i = 0; i < nx->nopd; i++)
		if (i != o && (nx->o[i].kind == OPD_REG || (o >= 0 && nx->o[i].kind == OPD_MEM)) &&
		    nx->o[i].t == t)
			return 0;
	for (int j = k + 2; j < b->nins; j++)
		if (reads(&b->ins[j], t) || b->ins[j].guard == t)
			return 0;
	return 1;
}

/* instruction k of b is one ptxas 11.8 spends nothing on: a widening conversion between
 * integer types (ptxas makes the value with the load or bit-field extract that had it:
 * Mandelbrot's `cvt.u32.u16` of a byte of a `ld.v4.u8`; not a narrowing one, which
 * mummergpu's switch cases show ptxas counting), or the negation of our abs (IADD RZ, -x before
 * IMNMX: ptxas's abs is one I2I |x|): BE_FREE_ISEL. Or (BE_FREE_FUSE) a logical right shift
 * by a constant whose result only the IADD after it adds (ptxas's IMAD.U32.U32.HI d, x, 2^(32-n),
 * y: NVVM's rounding of a signed division by a power of two, `shr.u32 t, x, 31; add.s32 y, x,
 * t`, 8 pairs converted and 9 not: tests/ptx/store_addr _r8, _r9), a left shift of a register
 * by 0..31 whose result only the IADD after it adds (ptxas's ISCADD d, x, y, n or ISCADD32I:
 * nvcc's exp() scaling by 2^n, `shl.b32 t, n, 20; add.s32 hi, t, 0x3ff00000`: tests/ptx/shl_add,
 * 8 pairs converted and 9 not, 6 and 7 uniform), or an IADD of a constant
 * whose result only the access after it takes as its address (`add.s32 a, b, 784;
 * ld.shared [a]`, ptxas's LDS [b+0x310]: _lds2, _lds3); or (BE_FREE_ISEL) the LOP.AND 0xffff our
 * 16-bit arithmetic puts on its result when only the 16-bit store after it takes that result
 * (clang's `add.s16`, `st.shared.u16`: tests/ptx/shared_u16), or the MOV32I of 2^k of a
 * mul.wide fused into its add.s64 (tests/ptx/wide_scadd); 0 for any other instruction */
int be_ifrule_free(const Blk *b, int k)
{
	const MIns *in = &b->ins[k], *nx = k + 1 < b->nins ? &b->ins[k + 1] : NULL;

	if (in->op == OP_I2I && !(in->m.flags & MF_SAT) &&
	    isa_type_bytes((Type)in->m.dtype) > isa_type_bytes((Type)in->m.stype))
		return BE_FREE_ISEL;
	if (in->op == OP_IADD && nx && nx->op == OP_IMNMX && in->nopd == 3 &&
	    in->o[1].kind == OPD_REG && in->o[1].t == T_RZ && (in->o[2].flags & OPF_NEG) &&
	    in->o[0].kind == OPD_REG && nx->nopd >= 3 && nx->o[2].kind == OPD_REG &&
	    nx->o[2].t == in->o[0].t)
		return BE_FREE_ISEL;
	/* the MOV32I of 2^k before a mul.wide fused into its add.s64 (isel_int.c's scadd64: MOV32I
	 * t, 2^k; ISCADD.CC; IMAD.HI.X hi, x, t, e.hi): the IMAD reads the immediate when the base
	 * is a register (consts.c), ptxas sets it up once, outside the side, for a parameter */
	if (in->op == OP_MOV32I && nx && k + 2 < b->nins && nx->op == OP_ISCADD &&
	    (nx->m.flags & MF_CC) && b->ins[k + 2].op == OP_IMAD && (b->ins[k + 2].m.flags & MF_X) &&
	    b->ins[k + 2].nopd == 4 && in->o[0].kind == OPD_REG && !in->o[0].part &&
	    b->ins[k + 2].o[2].kind == OPD_REG && b->ins[k + 2].o[2].t == in->o[0].t)
		return BE_FREE_ISEL;
	if (!nx || in->nopd != 3 || (in->m.flags & (MF_CC | MF_X | MF_SAT)))
		return 0;
	if (in->op == OP_LOP && in->m.sub == SUB_AND && in->o[2].kind == OPD_IMM &&
	    (in->o[2].imm & 0xffffffff) == 0xffff && (nx->op == OP_STS || nx->op == OP_ST) &&
	    (nx->m.dtype == TY_U16 || nx->m.dtype == TY_S16) && feeds_only(b, k, 1))
		return BE_FREE_ISEL;
	if (in->o[2].kind == OPD_IMM && ((in->op == OP_SHR && in->m.dtype == TY_U32) ||
	    (in->op == OP_SHL && in->o[1].kind == OPD_REG && !(in->m.flags & MF_W) &&
	     (in->o[2].imm & 0xffffffff) < 32)) &&
	    nx->op == OP_IADD && nx->nopd == 3 && !(nx->m.flags & (MF_CC | MF_X | MF_SAT)))
		for (int o = 1; o <= 2; o++)
			if (nx->o[o].kind == OPD_REG && nx->o[o].t == in->o[0].t &&
			    !(nx->o[o].flags & OPF_NEG) && feeds_only(b, k, o))
				return BE_FREE_FUSE;
	if (in->op == OP_IADD && in->o[1].kind == OPD_REG && !(in->o[1].flags & OPF_NEG) &&
	    in->o[2].kind == OPD_IMM && (isa_ops[nx->op].flags & (F_LOAD | F_STORE)) &&
	    !(isa_ops[nx->op].flags & F_ATOMIC))
		for (int o = 0; o < nx->nopd; o++)
			if (nx->o[o].kind == OPD_MEM && nx->o[o].t == in->o[0].t &&
			    feeds_only(b, k, -1))
				return BE_FREE_FUSE;
	return 0;
}

/* What this file asks of the whole function, for every temporary at once, while
 * if-conversion runs (Fn.ifmemo): if-conversion examines every side of every branch, and every
 * branch again after each conversion, and a scan of the function per question made the
 * largest real-world kernels (CUB's radix sort, 14,000 temporaries) take minutes. Each part is
 * made when first asked after a change of the code (ifconv.c clears Fn.ifmemo_ok) */
struct BeIfMemo {
	int n;              /* temporaries it has room for */
	uint8_t *shaddr;    /* shared_addrs */
	int *nread;         /* the instructions that read each (reads()) */
	uint8_t *guard;     /* 1: some instruction's guard */
	uint8_t *bank;      /* bank_value: 0 not asked yet, 1 yes, 2 no */
	uint8_t *sreg;      /* sreg_vals */
	const MIns **def1;  /* def_once: each one's one definition (NULL: none, &many_defs: more) */
	uint8_t have;       /* MEMO_*: the parts made */
};
enum { MEMO_SHADDR = 1, MEMO_READS = 2, MEMO_SREG = 4, MEMO_DEF = 8 };

/* f's memo, emptied when stale */
static struct BeIfMemo *memo(const Fn *f)
{
	Fn *mf = (Fn *)f;             /* (as uniform.c's whymemo) */
	struct BeIfMemo *m = f->ifmemo;
	int n = f->ntmp;

	if (f->ifmemo_ok && m && m->n >= n)
		return m;
	if (!m || m->n < n) {
		m = mf->ifmemo = be_alloc(f->pool, sizeof *m);
		m->n = n;
		m->shaddr = be_alloc(f->pool, (size_t)n);
		m->nread = be_alloc(f->pool, sizeof(int) * (size_t)n);
		m->guard = be_alloc(f->pool, (size_t)n);
		m->bank = be_alloc(f->pool, (size_t)n);
		m->sreg = be_alloc(f->pool, (size_t)n);
		m->def1 = be_alloc(f->pool, sizeof *m->def1 * (size_t)n);
	}
	m->have = 0;
	memset(m->bank, 0, (size_t)m->n);
	mf->ifmemo_ok = 1;
	return m;
}

/* Which temporaries of f wait for a special register that ptxas 11.8 reads with an S2R
 * (sreg_read): written by such an S2R, or by an instruction other than a load that reads one
 * of them (a register or predicate source, an address's base, its guard), wherever it is in f.
 * For all of them at once (memo()), as the least fixpoint */
static const uint8_t *sreg_vals(const Fn *f)
{
	struct BeIfMemo *m = memo(f);
	Marks k = {m->sreg, 1};

	if (m->have & MEMO_SREG)
		return m->sreg;
	memset(m->sreg, 0, (size_t)m->n);
	while (k.hit) {
		k.hit = 0;
		for (int b = 0; b < f->nblk; b++)
			for (int j = 0; j < f->blk[b].nins; j++) {
				const MIns *in = &f->blk[b].ins[j];
				if (sreg_read(in) || (!(isa_ops[in->op].flags & F_LOAD) &&
				                      reads_marked(f, in, m->sreg)))
					be_visit(in, grow_def, &k);
			}
	}
	m->have |= MEMO_SREG;
	return m->sreg;
}

/* Which temporaries of f, each a pair, hold a 64-bit shared-memory address and nothing
 * else: every instruction that reads one takes it as the address of a shared-memory access
 * (LDS, STS, ATOMS), or makes another such address of it (a copy of the pair; a 64-bit add's
 * IADD.CC or IADD.X), each with one definition: each of its words (or the whole pair) written
 * by one instruction of f, not a pointer that paths set each their own way (clang's phi of
 * addresses into a stencil's neighbours: rodinia-clang's srad), which ptxas makes with an add
 * of its own on each path, the constant offsets included. The answer for all of them
 * at once (memo()), as the greatest fixpoint: a pointer stepped round a loop holds such an
 * address when nothing else reads it */
static const uint8_t *shared_addrs(const Fn *f)
{
	struct BeIfMemo *m = memo(f);
	int n = f->ntmp, ne = 0, cap = 0, changed;
	uint8_t *ok = m->shaddr, *w;
	int *edge = NULL;             /* pairs (t, u): t is such an address when u is */

	if (m->have & MEMO_SHADDR)
		return ok;
	w = calloc((size_t)n, 1);     /* its definitions: bit p for a write of part p, 8 bad */
	if (!w)
		die("out of memory");
	for (int b = 0; b < f->nblk; b++)
		for (int j = 0; j < f->blk[b].nins; j++) {
			const MIns *in = &f->blk[b].ins[j];
			const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
			for (int o = 0; o < in->nopd && o < si->n; o++) {
				const MOpd *x = &in->o[o];
				if (si->dst[o] && x->kind == OPD_REG && own(f, x->t))
					w[x->t] |= x->part > 2 || (w[x->t] & (1u << x->part)) ? 8 :
					           1u << x->part;
			}
		}
	for (int t = 0; t < n; t++)
		ok[t] = own(f, t) && f->tmp[t].cls == TC_R2 && !(w[t] & 8) &&
		        (!(w[t] & 1) || !(w[t] & 6));
	free(w);
	for (int b = 0; b < f->nblk; b++)
		for (int j = 0; j < f->blk[b].nins; j++) {
			const MIns *in = &f->blk[b].ins[j];
			const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
			int sh = in->op == OP_LDS || in->op == OP_STS || in->op == OP_ATOMS;
			for (int i = 0; i < in->nopd; i++) {
				int t = in->o[i].t, u = in->o[0].t, good = 0;
				if ((in->o[i].kind != OPD_REG && in->o[i].kind != OPD_MEM) ||
				    (i < si->n && si->dst[i]) || !own(f, t) || !ok[t])
					continue;
				if (sh) {
					good = 1;
					for (int o = 0; o < in->nopd; o++)
						good &= in->o[o].t != t || in->o[o].kind == OPD_MEM;
				} else if ((in->op == OP_MOV && in->nopd == 2 && !in->o[0].part &&
				            in->o[1].kind == OPD_REG && !in->o[1].part) ||
				           (in->op == OP_IADD && (in->m.flags & (MF_CC | MF_X)) &&
				            in->nopd == 3 && in->o[0].kind == OPD_REG && in->o[0].part)) {
					if ((good = own(f, u)) != 0) {
						if (ne + 2 > cap) {
							cap = cap ? 2 * cap : 64;
							if (!(edge = realloc(edge, sizeof *edge * (size_t)cap)))
								die("out of memory");
						}
						edge[ne++] = t;
						edge[ne++] = u;
					}
				}
				ok[t] = (uint8_t)good;
			}
		}
	do {                          /* (an address made of one that is not, is not) */
		changed = 0;
		for (int e = 0; e < ne; e += 2)
			if (ok[edge[e]] && !ok[edge[e + 1]])
				ok[edge[e]] = 0, changed = 1;
	} while (changed);
	free(edge);
	m->have |= MEMO_SHADDR;
	return ok;
}

/* instruction in is one of ptxas's 32-bit making of a 64-bit shared-memory address (clang's
 * `mul.wide.u32`, `add.s64` of a shared variable's address, `ld.shared [%rd]`): it writes
 * only a shared_addr temporary, and is a copy of the pair, the high word (mul.wide's SHR,
 * the add's IADD.X), or the low word's add of a constant (a shared variable's address, an
 * offset), which ptxas folds into the access (LDS [R+0x1000]). ptxas 11.8 spends nothing on
 * them: tests/ptx/shared_addr */
static int shared_free(const Fn *f, const MIns *in)
{
	const MOpd *d = in->nopd > 0 ? &in->o[0] : NULL;
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);

	if (!d || d->kind != OPD_REG || si->n < 1 || !si->dst[0] || (si->n > 1 && si->dst[1]) ||
	    !own(f, d->t) || !shared_addrs(f)[d->t])
		return 0;
	if (in->op == OP_MOV)
		return !d->part;
	if (d->part == 2)
		return 1;
	if (d->part != 1 || in->op != OP_IADD || !(in->m.flags & MF_CC) || in->nopd != 3)
		return 0;
	for (int o = 1; o <= 2; o++)
		if (in->o[o].kind == OPD_IMM ||
		    (in->o[o].kind == OPD_REG && const_tmp(f, in->o[o].t, 0)))
			return 1;
	return 0;
}

/* some instruction of f that writes temporary t makes a value ptxas 11.8 reads from a
 * constant bank: a copy of a bank word (a kernel parameter) or of %ntid, %nctaid, or of a
 * temporary such as t */
static int bank_scan(const Fn *f, int t, int depth)
{
	if (depth > 8)
		return 0;
	for (int b = 0; b < f->nblk; b++)
		for (int j = 0; j < f->blk[b].nins; j++) {
			const MIns *in = &f->blk[b].ins[j];
			if (!be_writes(in, t))
				continue;
			if ((in->op == OP_MOV && in->nopd == 2 && (in->o[1].kind == OPD_CONST ||
			     (in->o[1].kind == OPD_REG && in->o[1].t != t &&
			      bank_scan(f, in->o[1].t, depth + 1)))) ||
			    (in->op == OP_S2R && in->nopd == 2 &&
			     ((in->o[1].imm >= SR_NTID_X && in->o[1].imm <= SR_NTID_Z) ||
			      (in->o[1].imm >= SR_NCTAID_X && in->o[1].imm <= SR_NCTAID_Z))))
				return 1;
		}
	return 0;
}

/* bank_scan's answer for t, memoised (memo()) */
static int bank_value(const Fn *f, int t)
{
	struct BeIfMemo *m = memo(f);

	if (!own(f, t))
		return bank_scan(f, t, 0);
	if (!m->bank[t])
		m->bank[t] = bank_scan(f, t, 0) ? 1 : 2;
	return m->bank[t] == 1;
}

/* instruction k of b is our MOV32I of an IMAD's addend (`mad.lo.s32 d, a, b, -1`) whose two
 * factors are registers that no constant bank holds: ptxas 11.8 takes the immediate from its
 * literal pool (IMAD R3, R0, R3, c[0x2][0x0]) and spends nothing on it; with a factor in bank
 * 0 (a parameter, %ntid) the bank operand is taken and it spends the MOV32I too
 * (tests/ptx/shared_u16: _x0 and _ntid) */
static int lit_pool(const Fn *f, const Blk *b, int k)
{
	const MIns *in = &b->ins[k], *nx = k + 1 < b->nins ? &b->ins[k + 1] : NULL;

	if (in->op != OP_MOV32I || !nx || nx->op != OP_IMAD || nx->nopd != 4 ||
	    (nx->m.flags & (MF_HI | MF_WIDE | MF_CC | MF_X)) || nx->guard != in->guard ||
	    nx->gneg != in->gneg || nx->o[3].kind != OPD_REG || nx->o[3].t != in->o[0].t)
		return 0;
	for (int o = 1; o <= 2; o++)
		if (nx->o[o].kind != OPD_REG || nx->o[o].t == in->o[0].t || !own(f, nx->o[o].t) ||
		    bank_value(f, nx->o[o].t))
			return 0;
	for (int j = k + 2; j < b->nins; j++)
		if (reads(&b->ins[j], in->o[0].t) || b->ins[j].guard == in->o[0].t)
			return 0;
	return 1;
}

/* the address of store i of chain[k] is made in the side from an index the side makes too
 * (NVVM's `mul.wide.s32`, `add.s64`, `st.global` for `out[i] = v`), not only added there to
 * an index made before it: ptxas spends as much as ours on that add (IADD, IADD.X); nor
 * with the product fused into the add (isel_int.c's scadd64: ISCADD.CC and IMAD.HI.X, as
 * ptxas's own, so that STORE_SIDE's 3 are not ours to take off: tests/ptx/store_addr) */
static int made_index(const Fn *f, const int *chain, int k, int i)
{
	const MOpd *a = gaddr(&f->blk[chain[k]].ins[i]);
	const MIns *w = a ? writer(f, chain, k, i, a->t) : NULL;

	if (w && w->op == OP_IMAD && (w->m.flags & MF_X))
		return 0;   /* (an index fused into the add: ptxas's ISCADD and IMAD.HI.X, counted) */
	for (int o = 1; w && w->op == OP_IADD && o < w->nopd; o++)
		if (w->o[o].kind == OPD_REG && own(f, w->o[o].t) && w->o[o].t != a->t &&
		    writer(f, chain, k, i, w->o[o].t))
			return 1;
	return w && w->op != OP_IADD;
}

/* every instruction of f that writes temporary t moves an immediate into it (MOV32I) */
static int imm_tmp(const Fn *f, int t)
{
	int any = 0;

	for (int b = 0; b < f->nblk; b++)
		for (int j = 0; j < f->blk[b].nins; j++) {
			const MIns *in = &f->blk[b].ins[j];
			if (!be_writes(in, t))
				continue;
			if ((in->op != OP_MOV32I && in->op != OP_MOV) || in->nopd != 2 ||
			    in->o[1].kind != OPD_IMM || in->o[0].part)
				return 0;
			any = 1;
		}
	return any;
}

/* instruction i of chain[k] is an unguarded copy of a pair's word into a register of its own
 * (`mov.b64 {%lo, %hi}, %fd`'s two MOVs), of a register into a pair's word, or of a pair the
 * side made of its words into another (`mov.b64 %fd, {%lo, %hi}`'s two MOVs and MOV.64): the
 * registers of ptxas 11.8's 64-bit value are its words, which it reads and writes in place, so
 * that such copies cost it nothing (nvcc's inlined pow's sign flip under an odd exponent, an
 * unpack, XOR and pack: one LOP32I.XOR; tests/ptx/pow_sign). Not the copy into a pair's word
 * of a constant made before the side (clang's `mov.u32 %r732, 0` above the branch, then
 * `mov.b64 %fd, {%r732, %hi}` in it): ptxas makes that word in the side, MOV R, RZ (nvcc's
 * `mov.u32` of it in the side is counted, its copy not; tests/ptx/shl_add _zero6) */
static int pair_copy(const Fn *f, const int *chain, int k, int i)
{
	const MIns *in = &f->blk[chain[k]].ins[i], *w;

	if (in->op != OP_MOV || in->nopd != 2 || in->guard != T_PT || in->o[0].kind != OPD_REG ||
	    in->o[1].kind != OPD_REG || !own(f, in->o[0].t) || !own(f, in->o[1].t))
		return 0;
	if (in->o[1].part && !in->o[0].part)
		return f->tmp[in->o[1].t].cls == TC_R2 && f->tmp[in->o[0].t].cls == TC_R;
	if (in->o[0].part && !in->o[1].part)
		return f->tmp[in->o[0].t].cls == TC_R2 && f->tmp[in->o[1].t].cls == TC_R &&
		       (writer(f, chain, k, i, in->o[1].t) || !imm_tmp(f, in->o[1].t));
	if (in->o[0].part || in->o[1].part || f->tmp[in->o[1].t].cls != TC_R2)
		return 0;
	w = writer(f, chain, k, i, in->o[1].t);
	return w && w->op == OP_MOV && w->nopd == 2 && w->o[0].t == in->o[1].t && w->o[0].part;
}

/* instruction i of chain[k] is a copy into or out of a texture fetch's quad: isel's MOV of
 * the coordinate into the register the TEX or TLD after it reads, or of a word of its result
 * into the PTX register (unguarded). ptxas 11.8 fetches into and from the registers
 * themselves, writing only the words that are read: such copies cost it nothing */
static int tex_copy(const Fn *f, const int *chain, int k, int i)
{
	const Blk *x = &f->blk[chain[k]];
	const MIns *in = &x->ins[i], *w;

	if (in->op != OP_MOV || in->nopd != 2 || in->guard != T_PT || in->o[0].kind != OPD_REG ||
	    in->o[1].kind != OPD_REG)
		return 0;
	if (i + 1 < x->nins && isa_ops[x->ins[i + 1].op].lat == LAT_TEX && !in->o[0].part)
		for (int o = 1; o < x->ins[i + 1].nopd; o++)
			if (x->ins[i + 1].o[o].kind == OPD_REG && x->ins[i + 1].o[o].t == in->o[0].t)
				return 1;
	if (!in->o[1].part)
		return 0;
	w = writer(f, chain, k, i, in->o[1].t);
	return w && isa_ops[w->op].lat == LAT_TEX;
}

/* instruction i of chain[k] reads the result of a texture fetch of the side (through isel's
 * copy of one of its words). ptxas 11.8 treats such a side as one that computes with a global
 * load from an address made before it (MADE_SIDE, other_work): tests/ptx/tex_side's tex_k18
 * (IMUL, TLD and 18 FMULs, 20 of ptxas's without its TEXDEPBAR) predicated, tex_k19 branched;
 * dilate_kernel's unrolled loop predicated, its remainder's rungs branched (tex_rem) */
static int reads_tex(const Fn *f, const int *chain, int k, int i)
{
	const MIns *in = &f->blk[chain[k]].ins[i], *w;
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);

	for (int o = 0; o < in->nopd; o++)
		if (in->o[o].kind == OPD_REG && (o >= si->n || !si->dst[o]) &&
		    (w = writer(f, chain, k, i, in->o[o].t))) {
			if (w->op == OP_MOV && w->nopd == 2 && w->o[1].kind == OPD_REG && w->o[1].part)
				w = writer(f, chain, k, i, w->o[1].t);
			if (w && isa_ops[w->op].lat == LAT_TEX)
				return 1;
		}
	return 0;
}

/* instruction in is sel.c's be_fix16: a narrow value re-canonicalised in place (LOP.AND t, t,
 * 0xffff or 0xff of a w16 temporary), ours after every definition of an 8- or 16-bit
 * register. ptxas 11.8 keeps such a value in a 32-bit register whatever its high bits, and
 * spends nothing on it (tests/ptx/side16) */
static int fix16(const Fn *f, const MIns *in)
{
	return in->op == OP_LOP && in->m.sub == SUB_AND && in->nopd == 3 &&
	       in->o[0].kind == OPD_REG && in->o[1].kind == OPD_REG && !in->o[0].part &&
	       !in->o[1].part && in->o[0].t == in->o[1].t && own(f, in->o[0].t) &&
	       f->tmp[in->o[0].t].w16 && in->o[2].kind == OPD_IMM &&
	       (in->o[2].imm == 0xffff || in->o[2].imm == 0xff);
}

/* instruction i of chain[k] is sel.c's be_widen (I2I.S32.S16 or .S8) of a narrow value that
 * ptxas 11.8 sign-extends with an instruction of its own (BFE R, R, 0x1000), once for all the
 * side's reads of it: the first such widening of that temporary in the side, of a value
 * neither loaded nor narrowed there (the load's or the narrowing's own instruction gives
 * ptxas the extended value; ours counts that one). Any other widening is free
 * (be_ifrule_free); tests/ptx/side16 */
static int widen_once(const Fn *f, const int *chain, int k, int i)
{
	const MIns *in = &f->blk[chain[k]].ins[i];
	int t = in->nopd == 2 && in->o[1].kind == OPD_REG && !in->o[1].part ? in->o[1].t : -1;

	if (in->op != OP_I2I || !own(f, t) || !f->tmp[t].w16 || (in->m.flags & MF_SAT) ||
	    isa_type_bytes((Type)in->m.dtype) != 4 || (in->m.stype != TY_S8 && in->m.stype != TY_S16))
		return 0;
	for (int kk = k, j = i - 1; kk >= 0; kk--, j = kk >= 0 ? f->blk[chain[kk]].nins - 1 : 0)
		for (; j >= 0; j--) {
			const MIns *w = &f->blk[chain[kk]].ins[j];
			if (w->op == OP_I2I && w->nopd == 2 && w->o[1].kind == OPD_REG && w->o[1].t == t &&
			    w->m.stype == in->m.stype && w->m.dtype == in->m.dtype)
				return 0;     /* (extended once already) */
			if (be_writes(w, t) && !fix16(f, w))
				return !(isa_ops[w->op].flags & F_LOAD) &&
				       !(w->op == OP_I2I && isa_type_bytes((Type)w->m.dtype) <= 2);
		}
	return 1;
}

/* f's memo with the instructions that read each temporary counted (nread; each instruction
 * once) and the temporaries that guard one marked (guard) */
static struct BeIfMemo *read_counts(const Fn *f)
{
	struct BeIfMemo *m = memo(f);

	if (m->have & MEMO_READS)
		return m;
	memset(m->nread, 0, sizeof(int) * (size_t)m->n);
	memset(m->guard, 0, (size_t)m->n);
	for (int b = 0; b < f->nblk; b++)
		for (int j = 0; j < f->blk[b].nins; j++) {
			const MIns *x = &f->blk[b].ins[j];
			if (own(f, x->guard))
				m->guard[x->guard] = 1;
			for (int o = 0; o < x->nopd; o++) {
				int u = x->o[o].t, again = 0;
				if (!own(f, u) || !reads(x, u))
					continue;
				for (int p = 0; p < o; p++)
					again |= x->o[p].t == u;
				m->nread[u] += !again;
			}
		}
	m->have |= MEMO_READS;
	return m;
}

/* the only instruction of f that reads temporary t is in (as a source, not a guard) */
static int sole_reader(const Fn *f, int t, const MIns *in)
{
	struct BeIfMemo *m;

	if (!own(f, t)) {               /* (no entry of its own: the scan) */
		for (int b = 0; b < f->nblk; b++)
			for (int j = 0; j < f->blk[b].nins; j++) {
				const MIns *x = &f->blk[b].ins[j];
				if (x->guard == t || (x != in && reads(x, t)))
					return 0;
			}
		return 1;
	}
	m = read_counts(f);
	return !m->guard[t] && m->nread[t] == reads(in, t);
}

/* (def_once's mark of a temporary written more than once) */
static const MIns many_defs;

typedef struct {
	const MIns *in;
	const MIns **def1;
	int n;
} Defs;
static void count_def(void *ctx, int t, int def, int kill)
{
	Defs *d = ctx;
	(void)kill;
	if (def && t < d->n)
		d->def1[t] = d->def1[t] ? &many_defs : d->in;
}

/* the instruction of f that writes temporary t: NULL when none does, &many_defs when more
 * than one does (a word of a pair written alone is a write of the pair) */
static const MIns *def_once(const Fn *f, int t)
{
	struct BeIfMemo *m = memo(f);

	if (!own(f, t))
		return NULL;
	if (!(m->have & MEMO_DEF)) {
		Defs d = {NULL, m->def1, m->n};
		memset(m->def1, 0, sizeof *m->def1 * (size_t)m->n);
		for (int b = 0; b < f->nblk; b++)
			for (int j = 0; j < f->blk[b].nins; j++) {
				d.in = &f->blk[b].ins[j];
				be_visit(d.in, count_def, &d);
			}
		m->have |= MEMO_DEF;
	}
	return m->def1[t];
}

/* what CSE (same_ins) takes: an instruction without an effect (no memory access, barrier,
 * branch, subroutine, special register, carry), unguarded, that writes one whole temporary */
static int pure1(const MIns *in)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
	int ndst = 0;

	if (in->guard != T_PT || in->op == OP_S2R || (in->m.flags & (MF_CC | MF_X)) ||
	    (isa_ops[in->op].flags & (F_BRANCH | F_SIDE | F_LOAD | F_STORE | F_BARRIER | F_MACRO |
	                              F_ATOMIC)))
		return 0;
	for (int o = 0; o < in->nopd && o < si->n; o++)
		if (si->dst[o]) {
			if ((in->o[o].kind != OPD_REG && in->o[o].kind != OPD_PRED) || in->o[o].part ||
			    in->o[o].t < T_FIRST)
				return 0;
			ndst++;
		}
	return ndst == 1;
}

static int same_ins(const Fn *f, const MIns *in, const MIns *x);

/* temporaries t and u hold the same value where both are read: one temporary written at
 * most once (or not one of f's), or two constants, each written once by a move of the same
 * immediate. Not two written by instructions that compute the same from other sources: ptxas
 * 11.8 does not see those as one (myocyte's `add.f64` of a constant repeated in a side, then
 * an fma of it: the add is computed once, the fma again, and the side branched) */
static int same_val(const Fn *f, int t, int u)
{
	const MIns *dt, *du;

	if (t == u)
		return !own(f, t) || def_once(f, t) != &many_defs;
	if (!own(f, t) || !own(f, u))
		return 0;
	dt = def_once(f, t);
	du = def_once(f, u);
	return dt && du && dt != &many_defs && du != &many_defs && dt->op == du->op &&
	       (dt->op == OP_MOV || dt->op == OP_MOV32I) && dt->nopd == 2 && du->nopd == 2 &&
	       dt->o[1].kind == OPD_IMM && same_ins(f, dt, du);
}

/* instructions in and x compute the same value: both pure1, of the same op and modifiers,
 * with sources alike (immediates and constant-bank words the same, registers same_val) */
static int same_ins(const Fn *f, const MIns *in, const MIns *x)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);

	if (in == x)
		return 1;
	if (in->op != x->op || in->nopd != x->nopd || in->m.sub != x->m.sub ||
	    in->m.cmp != x->m.cmp || in->m.bop != x->m.bop || in->m.bop2 != x->m.bop2 ||
	    in->m.dtype != x->m.dtype || in->m.stype != x->m.stype || in->m.rnd != x->m.rnd ||
	    in->m.flags != x->m.flags || !pure1(in) || !pure1(x))
		return 0;
	for (int o = 0; o < in->nopd; o++) {
		const MOpd *p = &in->o[o], *q = &x->o[o];
		if (o < si->n && si->dst[o])
			continue;
		if (p->kind != q->kind || p->flags != q->flags || p->bank != q->bank ||
		    p->part != q->part || p->imm != q->imm || p->n != q->n)
			return 0;
		switch ((OpdKind)p->kind) {
		case OPD_REG: case OPD_PRED: case OPD_CONST:
			if (!same_val(f, p->t, q->t))
				return 0;
			break;
		case OPD_NONE: case OPD_IMM: case OPD_SREG:
			break;
		case OPD_MEM: case OPD_TARGET: case OPD_TLIST: case OPD_CC:
			return 0;
		}
	}
	return 1;
}

/* the temporary pure1 instruction in writes */
static int dst1(const MIns *in)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);

	for (int o = 0; o < in->nopd && o < si->n; o++)
		if (si->dst[o])
			return in->o[o].t;
	return T_RZ;
}

/* ptxas 11.8 computes a value once (common subexpressions): an instruction of the side
 * (chain) of branch block a that computes what an instruction above the branch, in a block
 * that dominates it, computed already (same_ins; that one's result written nowhere else)
 * costs it nothing, nor an instruction of the side whose value only such instructions read
 * (the constants they take). Nvcc's exp() of a double repeats its rounding `fma.rn.f64 t, x,
 * log2e, 0x1.8p52` in the side that scales an overflowing result, after the same fma above
 * (Rodinia's myocyte: 14 such sides predicated by ptxas; tests/ptx/side_cse). Marks them in
 * cse, by the side's instructions in order (NULL: none) */
static uint8_t *side_cse(const Fn *f, int a, const int *chain, int nchain)
{
	const MIns **ins = NULL;
	int nins = 0, cap = 0, any = 0, grew = 1;
	uint8_t *cse;
	struct BeIfMemo *m;

	for (int k = 0; k < nchain; k++)
		for (int j = 0; j < f->blk[chain[k]].nins; j++)
			*VPUSH(f->pool, ins, nins, cap) = &f->blk[chain[k]].ins[j];
	cse = be_alloc(f->pool, (size_t)nins + 1);
	for (int i = 0; i < nins; i++) {
		if (!pure1(ins[i]) || ins[i]->op == OP_MOV || ins[i]->op == OP_MOV32I)
			continue;
		for (int d = a, n = 0; d >= 0 && !cse[i] && n < f->nblk; d = f->blk[d].idom, n++) {
			const Blk *x = &f->blk[d];
			for (int j = 0; j < x->nins && !cse[i]; j++)
				cse[i] = x->ins[j].op == ins[i]->op && pure1(&x->ins[j]) &&
				         def_once(f, dst1(&x->ins[j])) == &x->ins[j] &&
				         same_ins(f, ins[i], &x->ins[j]);
			if (x->idom == d)
				break;
		}
		any |= cse[i];
	}
	if (!any)
		return NULL;
	/* (then, from the bottom up, what only those read) */
	m = read_counts(f);
	while (grew) {
		grew = 0;
		for (int i = nins - 1; i >= 0; i--) {
			int t, r = 0;
			if (cse[i] || !pure1(ins[i]))
				continue;
			t = dst1(ins[i]);
			if (!own(f, t) || m->guard[t])
				continue;
			for (int j = i + 1; j < nins; j++)
				r += cse[j] && reads(ins[j], t);
			for (int b = 0; b < f->nblk && r; b++)
				if (f->blk[b].jmp.cond == t)
					r = 0;
			if (r && r == m->nread[t])
				cse[i] = 1, grew = 1;
		}
	}
	return cse;
}

/* operand o of in is a MOV32I's temporary that only in reads, the MOV32I (the side's
 * instruction before in) in *mv; 1 */
static int own_imm(const Fn *f, const int *chain, int k, int i, int o, const MIns **mv)
{
	const MIns *in = &f->blk[chain[k]].ins[i], *w;

	if (in->o[o].kind != OPD_REG || in->o[o].part || !own(f, in->o[o].t))
		return 0;
	w = writer(f, chain, k, i, in->o[o].t);
	if (!w || w->op != OP_MOV32I || w->nopd != 2 || w->o[1].kind != OPD_IMM ||
	    !sole_reader(f, in->o[o].t, in))
		return 0;
	*mv = w;
	return 1;
}

/* temporary t is dead after instruction i of chain[k]: nothing in the side reads it after
 * it, and outside the side only blocks before the side do (dominating its first block, and
 * not round a loop: the side in none, or t written in the side's loop) */
static int dead_after(const Fn *f, const int *chain, int nchain, int k, int i, int t)
{
	int l = f->blk[chain[0]].loop, inl = 0;

	if (read_after(f, chain, nchain, k, i, t))
		return 0;
	for (int b = 0; b < f->nblk && l >= 0; b++)
		for (int j = 0; f->blk[b].loop == l && j < f->blk[b].nins; j++)
			inl |= be_writes(&f->blk[b].ins[j], t);
	for (int b = 0; b < f->nblk; b++)
		for (int j = 0; !in_chain(chain, nchain, b) && j < f->blk[b].nins; j++)
			if (reads(&f->blk[b].ins[j], t) &&
			    (!be_dominates(f, b, chain[0]) || b == chain[0] || (l >= 0 && !inl)))
				return 0;
	return 1;
}

/* SEL i of chain[k] has an operand that the side's instruction before it makes for it alone,
 * the other a register that nothing reads after it: ptxas 11.8 makes that operand under the
 * test into the other's register (`@P1 FADD R4, R0, R5`, P1 the test and the side's guard)
 * and keeps the test (tests/ptx/sel_cmp's _made) */
static int sel_into_pred(const Fn *f, const int *chain, int nchain, int k, int i)
{
	const MIns *in = &f->blk[chain[k]].ins[i], *w;

	for (int o = 1; o <= 2; o++) {
		const MOpd *a = &in->o[o], *b = &in->o[3 - o];
		if (a->kind != OPD_REG || a->part || !own(f, a->t) ||
		    !(w = writer(f, chain, k, i, a->t)) || w->op == OP_MOV32I ||
		    !sole_reader(f, a->t, in))
			continue;
		if (b->kind == OPD_REG && !b->part && own(f, b->t) && !bank_value(f, b->t) &&
		    dead_after(f, chain, nchain, k, i, b->t))
			return 1;
	}
	return 0;
}

/* instruction i of chain[k] is an FSETP (single precision) or a 32-bit ISETP of a register
 * against zero (an immediate 0 or -0.0, RZ, or a MOV32I of 0 that only it reads: one more
 * instruction in *zmov) whose one predicate only 32-bit SELs read, each SEL of f that reads
 * it: ptxas 11.8 makes each of those SELs an FCMP (ICMP) d, a, b, x, which selects by x
 * against zero itself, and spends nothing on the test (`setp.lt.f32 p, x, 0.0; selp.f32 d,
 * -1.0, 1.0, p`: MOV32I R, 0xbf800000; FCMP.LT d, R, 1, x). Not of a value in a constant bank
 * (a parameter: FCMP takes x in a register, ptxas spends a MOV on it), nor a predicate a guard
 * or a branch reads (ptxas keeps the test for it; tests/ptx/sel_cmp) */
static int cmp_zero(const Fn *f, const int *chain, int nchain, int k, int i, int *zmov)
{
	const MIns *in = &f->blk[chain[k]].ins[i], *mv;
	int x = -1, n = 0, p;

	*zmov = 0;
	if ((in->op != OP_FSETP && in->op != OP_ISETP) || in->nopd != 5 ||
	    in->m.bop != BOP_AND || (in->m.flags & MF_X) || in->o[0].kind != OPD_PRED ||
	    in->o[1].t != T_PT || in->o[4].t != T_PT || (in->o[4].flags & OPF_NOT) ||
	    (in->op == OP_ISETP && in->m.dtype != TY_S32 && in->m.dtype != TY_U32))
		return 0;
	for (int o = 2; o <= 3; o++) {
		const MOpd *a = &in->o[o], *z = &in->o[5 - o];
		int zero = (z->kind == OPD_IMM && ((z->imm & 0xffffffff) == 0 ||
		            (in->op == OP_FSETP && (z->imm & 0xffffffff) == 0x80000000))) ||
		           (z->kind == OPD_REG && z->t == T_RZ);
		if (!zero && own_imm(f, chain, k, i, 5 - o, &mv) && mv->o[1].imm == 0)
			zero = 1, *zmov = 1;
		if (zero && a->kind == OPD_REG && !a->part && !a->flags && own(f, a->t) &&
		    f->tmp[a->t].cls == TC_R && !bank_value(f, a->t)) {
			x = a->t;
			break;
		}
		*zmov = 0;
	}
	p = in->o[0].t;
	if (x < 0 || !own(f, p))
		return 0;
	/* (ptxas folds an FADD into its FSETP: FSETP.GEU P, a, -b; free only when that
	 * FADD is the side's and the test its only use, as the fold spends none of it) */
	if (in->op == OP_FSETP)
		for (int b = 0; b < f->nblk; b++)
			for (int j = 0; j < f->blk[b].nins; j++)
				if (f->blk[b].ins[j].op == OP_FADD && be_writes(&f->blk[b].ins[j], x) &&
				    (writer(f, chain, k, i, x) != &f->blk[b].ins[j] ||
				     !sole_reader(f, x, in)))
					return 0;
	for (int b = 0; b < f->nblk; b++) {
		const Blk *y = &f->blk[b];
		int kk = 0;
		while (kk < nchain && chain[kk] != b)
			kk++;
		if (y->jmp.kind == J_BRA && y->jmp.cond == p)
			return 0;
		for (int j = 0; j < y->nins; j++) {
			const MIns *w = &y->ins[j];
			if (w->guard == p || (w != in && be_writes(w, p)))
				return 0;
			for (int o = 0; o < w->nopd; o++)
				if (w->o[o].kind == OPD_PRED && w->o[o].t == p && w != in) {
					if (w->op != OP_SEL || o != 3 || w->o[0].kind != OPD_REG ||
					    f->tmp[w->o[0].t].cls != TC_R || kk == nchain ||
					    sel_into_pred(f, chain, nchain, kk, j))
						return 0;
					n++;
				}
		}
	}
	return n > 0;
}

/* how many instructions ours spends on the side's selects beyond ptxas 11.8: the tests
 * cmp_zero finds (and their MOV32Is of zero), and for each 32-bit SEL our MOV32Is of its
 * immediate operands (ours makes the first in a register) less what ptxas spends on them:
 * nothing when the other operand is a register (a zero immediate is RZ to it: it swaps the
 * operands, inverting the test), nor when one of the two immediates is one a MOV32I of the
 * side made before (its register), otherwise one MOV32I (or a MOV of a constant-bank value:
 * a kernel parameter is an operand in its bank, which ptxas's SEL and FCMP take only second;
 * two of them cost it a MOV where ours spends none: -1). tests/ptx/sel_cmp: bisect_large's
 * sides of two sign tests (`selp.f32 -1.0, 1.0` of `x < 0`), ptxas's one MOV32I and two FCMPs */
static int sel_extra(const Fn *f, const int *chain, int nchain, int *ncmp)
{
	/* the immediates a register holds: a MOV32I's (src), or one ptxas makes for a SEL (NULL) */
	struct { int64_t imm; const MIns *src; } *val = NULL;
	int nval = 0, capval = 0, extra = 0;

	*ncmp = 0;
	for (int k = 0; k < nchain; k++) {
		const Blk *x = &f->blk[chain[k]];
		for (int i = 0; i < x->nins; i++) {
			const MIns *in = &x->ins[i], *mv;
			int zmov, reg = 0, known = 0, ours = 0, nimm = 0;
			int64_t imm[2];
			const MIns *own2[2] = {NULL, NULL};
			if (cmp_zero(f, chain, nchain, k, i, &zmov)) {
				++*ncmp;
				extra += 1 + zmov;
				continue;
			}
			if (in->op == OP_MOV32I && in->nopd == 2 && in->o[1].kind == OPD_IMM) {
				VPUSH(f->pool, val, nval, capval)->imm = in->o[1].imm;
				val[nval - 1].src = in;
			}
			if (in->op != OP_SEL || in->nopd != 4 || in->o[0].kind != OPD_REG ||
			    f->tmp[in->o[0].t].cls != TC_R)
				continue;
			for (int o = 1; o <= 2; o++) {
				const MOpd *a = &in->o[o];
				if (own_imm(f, chain, k, i, o, &mv))
					own2[ours++] = mv, imm[nimm++] = mv->o[1].imm;
				else if (a->kind == OPD_IMM)
					imm[nimm++] = a->imm;
				else
					reg |= a->kind == OPD_REG && !a->part &&
					       (a->t == T_RZ || !bank_value(f, a->t));
			}
			for (int m = 0; m < nimm; m++) {
				reg |= (imm[m] & 0xffffffff) == 0;
				for (int v = 0; v < nval; v++)   /* (not this SEL's own) */
					known |= val[v].imm == imm[m] && (!val[v].src ||
					         (val[v].src != own2[0] && val[v].src != own2[1]));
			}
			extra += ours - !(reg || known);
			for (int m = 0; m < nimm && !reg && !known; m++) {   /* (ptxas's MOV32I: either) */
				VPUSH(f->pool, val, nval, capval)->imm = imm[m];
				val[nval - 1].src = NULL;
			}
		}
	}
	return extra;
}

int be_ifrule_sm35_side(const Fn *f, int a, const int *chain, int nchain, int size, char *why,
                        size_t nwhy, int *loadside, char *note, size_t nnote)
{
	int guarded = 0, plain = 0, c = size, made = 0, local = 0, stl = 0, nfree = 0, nfuse = 0;
	int stmade = 0, nst = 0, useld = 0, ldg = 0, nprm, prmcopy = 0, nsh = 0, one = 0, npair = 0;
	int nlit = 0, n16 = 0;   /* (n16: fix16's free masks less widen_once's counted extensions) */
	/* (what ptxas computed above the branch already: side_cse, by the side's instructions) */
	const uint8_t *cse = side_cse(f, a, chain, nchain);
	int ncse = 0, idx = 0;
	/* (the factors of the side's fused addresses, isel_int.c's scadd64: one per mul.wide,
	 * however many adds read its product, and their MOV32Is of 2^k) */
	int *sc = NULL, nsc = 0, capsc = 0, nscmov = 0;
	int ldany = 0;           /* (a global load: LD or LDG) */
	int usetex = 0, ntex = 0;   /* (a texture fetch's value computed with; tex_copy's) */
	int ncmp, nsel = sel_extra(f, chain, nchain, &ncmp);
	/* the side's global stores: each one's address base, that base when made before the
	 * side (else T_RZ), and the kernel parameter it is when the side only stores through it */
	struct { int t, base; int64_t prm; } *st = NULL;
	int capst = 0;
	/* (the parameters the side only stores through: not the side's own addresses) */
	const uint8_t *prm = param_bases(f, chain, nchain, &nprm);
	/* the temporaries holding a loaded value, and those the side defined so far: as many
	 * as the side has (a fixed array that fills up would stop seeing them) */
	int *ld = NULL, nld = 0, capld = 0, *def = NULL, ndef = 0, capdef = 0;

	for (int k = 0; k < nchain; k++) {
		const Blk *x = &f->blk[chain[k]];
		for (int i = 0; i < x->nins; i++) {
			const MIns *in = &x->ins[i];
			const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
			int use = 0, mine = made_addr(in, def, ndef, 0), fr = be_ifrule_free(x, i);
			made |= mine;
			ldany |= in->op == OP_LD || in->op == OP_LDG;
			stmade |= made_addr(in, def, ndef, 1) && made_index(f, chain, k, i);
			local |= in->op == OP_LDL;
			stl |= in->op == OP_STL;
			/* (what ptxas spends on an LDG beside ours: its TEXDEPBAR, and the address
			 * IADD32I and IADD.X of an offset, which its LDG cannot take) */
			if (in->op == OP_LDG && gaddr(in))
				ldg += 1 + 2 * (gaddr(in)->imm != 0);
			/* the base of its address, when made before the side (one made in it is the
			 * side's own even where its PTX register is read elsewhere) */
			const MOpd *sa = in->op == OP_ST ? gaddr(in) : NULL;
			if (sa) {
				VPUSH(f->pool, st, nst, capst);
				st[nst - 1].t = sa->t;
				st[nst - 1].base = writer(f, chain, k, i, sa->t) ? T_RZ : sa->t;
				st[nst - 1].prm = prm[sa->t] ? param_off(f, sa->t, 0) : -1;
			}
			for (int l = 0; l < nld; l++)
				use |= reads(in, ld[l]);
			/* a copy of the loaded value (isel's move into the PTX register) or a store of
			 * it is not a use: ptxas predicates pipeline's load-and-store sides */
			useld |= use && in->op != OP_MOV && !(isa_ops[in->op].flags & F_STORE);
			usetex |= in->op != OP_MOV && reads_tex(f, chain, k, i);
			if ((((in->op == OP_LD || in->op == OP_LDG) && !mine) || (use && in->op == OP_MOV)) &&
			    in->nopd > 0 && in->o[0].kind == OPD_REG)
				*VPUSH(f->pool, ld, nld, capld) = in->o[0].t;
			int cc = coalesced_copy(f, chain, nchain, k, i), pm = param_mov(in, prm) &&
			         prm[in->o[0].t];
			n16 += !fr && fix16(f, in);   /* (not one be_ifrule_free takes) */
			n16 -= fr && widen_once(f, chain, k, i);
			c -= cc;
			prmcopy += pm && cc;
			nlit += !fr && lit_pool(f, x, i);
			nfree += fr != 0;
			nfuse += fr == BE_FREE_FUSE;
			nscmov += fr && in->op == OP_MOV32I;
			if (in->op == OP_IMAD && (in->m.flags & MF_X) && (in->m.flags & MF_HI) &&
			    in->o[1].kind == OPD_REG) {
				int l = 0;
				while (l < nsc && sc[l] != in->o[1].t)
					l++;
				if (l == nsc)
					*VPUSH(f->pool, sc, nsc, capsc) = in->o[1].t;
			}
			nsh += !fr && shared_free(f, in);
			int tx = !fr && !cc && !pm && tex_copy(f, chain, k, i);
			int pr = !fr && !cc && !pm && !tx && pair_copy(f, chain, k, i);
			ntex += tx;
			npair += pr;
			ncse += cse && cse[idx] && !fr && !cc && !pm && !pr && !tx;
			idx++;
			for (int o = 0; o < in->nopd && o < si->n; o++)
				if (si->dst[o] && in->o[o].kind == OPD_REG && !pm)
					*VPUSH(f->pool, def, ndef, capdef) = in->o[o].t;
			guarded += in->guard != T_PT;
			plain += in->guard == T_PT;
		}
		if (k == nchain - 1 && x->jmp.kind == J_JMP && x->jmp.ptxins >= 0)
			c++;
	}
	/* (a global load with no other work beside it, or too little: not converted; a use of
	 * one from an address made before the side counts MADE_SIDE fewer. In a loop, only such
	 * a use: ptxas predicates a load whose address the side makes, or whose value it only
	 * stores or hands to the join, beside the loop's other code, tests/ptx/ld_work_loop.
	 * A side that computes with a texture fetch's value is held to it as such a use, in a
	 * loop or not, and counts as one: tests/ptx/tex_side) */
	if (useld || usetex || (ldany && f->blk[a].loop < 0)) {
		Work wk = {0, 0, 0, 0, 0};
		int rmw = 0, w = other_work(f, a, chain, nchain, &rmw, &wk);
		int plainw = !rmw && !useld && wk.bar;
		/* (where the sides' lanes meet at a barrier, the plain rule also counts the reads of
		 * special registers, not what waits for a shared load after the barrier nor what
		 * comes after a guarded EXIT, and wants BOUND_WORK when all of it waits for a
		 * special register: tests/ptx/ld_sreg) */
		if (plainw)
			w += wk.sreg - wk.late;
		/* (a texture fetch's value stored below the join is work beside it, what comes after
		 * an early exit there is not: tests/ptx/tex_side) */
		if (usetex && !useld && !ldany && !plainw)
			w += wk.stwait - wk.late;
		const char *no = !w ? "no other work beside it" :
		                 w < (rmw ? RMW_WORK : useld ? 1 : OTHER_WORK) ?
		                 "too little other work beside it" :
		                 plainw && w == wk.bound && w < BOUND_WORK ?
		                 "its other work waits for an S2R" :
		                 NULL;
		if (no && why && !why[0])
			snprintf(why, nwhy, "a side %s, %s", useld ? "uses a global load from an address "
			         "made before it" : made ? "loads from global memory at an address it "
			         "computes" : ldany ? "stores a global load or hands it to the join" :
			         "computes with a texture fetch", no);
		useld &= !no;
		usetex &= !no;
	}
	if (made || (local && !stl) || useld || usetex) {
		int less = local && !stl ? LOCAL_SIDE : made ? LOAD_SIDE : MADE_SIDE;   /* (a local
		                                                   store: the global rule's) */
		if (less == MADE_SIDE && ldg)
			c += ldg - 1;
		c -= ntex;
		/* (LOAD_SIDE was fitted on our mul.wide by 2^k as SHL, SHR and MOV.64, its product
		 * once however many 64-bit adds read it; fused, each add is ptxas's ISCADD.CC and
		 * IMAD.HI.X and the MOV32I before it is free: the three for each fused mul.wide, the
		 * MOV32Is not. families/ldin_div_20, _21; clang's mergeSort, two loads through one
		 * product, counted 8 as before and predicated as ptxas does) */
		if (less == LOAD_SIDE)
			c += 3 * nsc - nscmov;
		c = c > less ? c - less : 1;
		*loadside |= less != LOCAL_SIDE;
		if (note && less == MADE_SIDE) {
			int n = snprintf(note, nnote, "counted as ptxas: %d fewer for %s, with other work "
			                 "beside it", MADE_SIDE, useld ? "a load from an address made before "
			                 "it" : "a texture fetch it computes with");
			if (ntex && n < (int)nnote)
				n += snprintf(note + n, nnote - (size_t)n, ", %d cop%s into and out of the "
				              "fetch", ntex, ntex == 1 ? "y" : "ies");
			if (ldg > 1 && n < (int)nnote)
				snprintf(note + n, nnote - (size_t)n, ", %d more for its LDGs' waits and "
				         "offsets", ldg - 1);
		}
	} else {
		c -= nfree + nlit + nsh + npair + n16 + nsel + ncse + ntex;   /* (LOAD_SIDE and LOCAL_SIDE
		                                                          were fitted counting them) */
		c -= nprm - prmcopy;
		/* (one more for each store whose base no other store of the side goes through;
		 * not when its address is read elsewhere, nor when the parameter it stores through
		 * is accessed through after the join or in another side: the plain count) */
		for (int i = 0; i < nst; i++) {
			int alone1 = 1;
			for (int j = 0; j < nst; j++)
				alone1 &= j == i || st[j].t != st[i].t;
			one += alone1 && !(st[i].base >= T_FIRST &&
			                   read_outside(f, chain, nchain, st[i].base)) &&
			       !(st[i].prm >= 0 && param_elsewhere(f, a, chain, nchain, st[i].prm));
		}
		c += one;
		if (stmade)
			c = c > STORE_SIDE ? c - STORE_SIDE : 1;
		if (note && (one || stmade || nfuse || nprm || nsh || npair || nlit || nsel || ncse ||
		             ntex)) {
			int n = snprintf(note, nnote, "counted as ptxas: ");
			const char *sep = "";
			if (one && nst == 1 && n < (int)nnote)
				n += snprintf(note + n, nnote - (size_t)n, "1 more for the side's one global "
				              "store"), sep = ", ";
			else if (one == 1 && n < (int)nnote)
				n += snprintf(note + n, nnote - (size_t)n, "1 more for the side's one store "
				              "through a base of its own"), sep = ", ";
			else if (one && n < (int)nnote)
				n += snprintf(note + n, nnote - (size_t)n, "%d more for the side's global "
				              "stores each through a base of its own", one), sep = ", ";
			if (stmade && n < (int)nnote)
				n += snprintf(note + n, nnote - (size_t)n, "%s%d fewer for the store address "
				              "the side computes", sep, STORE_SIDE), sep = ", ";
			if (nprm && n < (int)nnote)
				n += snprintf(note + n, nnote - (size_t)n, "%s%d fewer for the parameter it "
				              "stores through", sep, nprm), sep = ", ";
			if (nfuse && n < (int)nnote)
				n += snprintf(note + n, nnote - (size_t)n, "%s%d shift%s or offset%s fused into "
				              "the instruction after", sep, nfuse, nfuse == 1 ? "" : "s",
				              nfuse == 1 ? "" : "s"), sep = ", ";
			if (nlit && n < (int)nnote)
				n += snprintf(note + n, nnote - (size_t)n, "%s%d immediate%s from the literal "
				              "pool", sep, nlit, nlit == 1 ? "" : "s"), sep = ", ";
			if (nsh && n < (int)nnote)
				n += snprintf(note + n, nnote - (size_t)n, "%s%d of 64-bit shared addresses made "
				              "in 32 bits", sep, nsh), sep = ", ";
			if (npair && n < (int)nnote)
				n += snprintf(note + n, nnote - (size_t)n, "%s%d cop%s of a pair's words", sep,
				              npair, npair == 1 ? "y" : "ies"), sep = ", ";
			if (ncse && n < (int)nnote)
				n += snprintf(note + n, nnote - (size_t)n, "%s%d computed above the branch "
				              "already", sep, ncse), sep = ", ";
			if (ntex && n < (int)nnote)
				n += snprintf(note + n, nnote - (size_t)n, "%s%d cop%s into and out of a "
				              "texture fetch", sep, ntex, ntex == 1 ? "y" : "ies"), sep = ", ";
			if (ncmp && n < (int)nnote)
				n += snprintf(note + n, nnote - (size_t)n, "%s%d test%s against zero made into "
				              "its selects (FCMP, ICMP)", sep, ncmp, ncmp == 1 ? "" : "s"),
				     sep = ", ";
			if (nsel != ncmp && n < (int)nnote)
				snprintf(note + n, nnote - (size_t)n, "%s%d %s", sep,
				         nsel > ncmp ? nsel - ncmp : ncmp - nsel, nsel > ncmp ?
				         "fewer for the selects' immediates" : "more for the selects' parameters");
		}
	}
	if (guarded && plain && why && !why[0])
		snprintf(why, nwhy, "a side holds a converted hammock and other code");
	return c;
}
