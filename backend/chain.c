/* chain.c - short-circuit chains of tests folded into one predicate, as ptxas 11.8 for sm_35.
 *
 * be_fold_chains: needs isel, fold_exits, uniform; breaks dom, postdom and loops (the
 * pipeline recomputes them when it folded anything). Only under --short-circuit fold
 * (kepler.cfg).
 *
 * A block A ends in `@p1 BRA T1` and falls into B, which only A enters and which ends in
 * `@p2 BRA T2`, falling into F2. When both branches have a destination in common (T1 == T2:
 * `r = a || b || c`, `if (a && b) side`; or T1 == F2: `if (a || b) side`), ptxas computes B's
 * test unguarded in A and folds the two into one predicate (`ISETP.GT.OR P0, PT, R12, 0xa,
 * P0`): A ends in `@(p1 || p2) BRA T2` (T1 == F2: `@(!p1 && p2)`) and falls into F2, one
 * branch where there were two. It does so bottom-up (the last pair of a chain first, each
 * fold making a longer B for the test before it) while B holds at most BE_CHAIN_MAX of its
 * instructions and nothing that may not run on lanes that would not have reached it: no
 * memory access (not even a load), no call, barrier, control or warp-wide op
 * (tests/ptxas-ref/short_circuit: a block of 5 folds, of 6 or with one load does not), but a
 * load from the constant bank, which ptxas runs unguarded (LDC: tests/ptx/tex_side's
 * const_test, Rodinia's dilate_kernel, `x < n && c_strel[j] != 0`; glob_test's global word
 * keeps its block).
 * Counted as ptxas counts them (ifrule.c's be_ifrule_free): a widening conversion between
 * integer types is free (ptxas makes the value with the load or bit-field extract that had
 * it), an abs is one instruction (I2I |x|, our IADD and IMNMX), a logical right shift that
 * only the add after it reads is fused into it (IMAD.U32.U32.HI), and the PSETP that ORs in
 * a test folded before is free (ptxas ORs it in its ISETP).
 *
 * Only a block that computes nothing but its test is folded: what B writes is read nowhere
 * after B (ptxas keeps both branches when B's value is used past it, in the side or later:
 * tests/ptxas-ref/short_circuit's F). That is what makes the fold exact too: B's
 * instructions run on A's lanes that jump to T1, and none of what they write is read there
 * (liveness over temporaries, computed before any fold: a fold only shortens live ranges);
 * nor may B write A's predicate. A branch that
 * --decide names is not folded. The folded branch's log entry takes the decision of the
 * branch its test went into (log.c, from Fn.folds). Calls decide.c, ifrule.c, sel.c and util.c.
 */
#include <string.h>
#include "backend/be.h"

/* why instruction in may not run on lanes that would not have reached it, NULL when it may */
static const char *unspeculable(const MIns *in)
{
	const OpInfo *oi = &isa_ops[in->op];

	if (in->op != OP_LDC && (oi->flags & (F_LOAD | F_STORE | F_ATOMIC)))   /* (LDC: above) */
		return "a memory access";
	if (oi->flags & (F_BRANCH | F_PUSH | F_INDIRECT | F_BARRIER | F_SIDE | F_MACRO) ||
	    !(oi->flags & F_PRED))
		return oi->name;
	if (in->op == OP_SHFL || in->op == OP_VOTE || in->op == OP_MATCH || in->op == OP_REDUX ||
	    oi->unit == UNIT_CTRL || oi->unit == UNIT_LSU_SHARED || oi->unit == UNIT_LSU_GLOBAL ||
	    oi->unit == UNIT_LSU_LOCAL)
		return oi->name;
	return NULL;
}

/* B's size as ptxas counts it (above, ifrule.c); extra: the PSETPs earlier folds put in B */
static int ptxas_size(const Blk *b, int extra)
{
	int n = 0;

	for (int k = 0; k < b->nins; k++)
		n += !be_ifrule_free(b, k);
	return n - extra;
}

static int foldable_jmp(const Fn *f, const Blk *b)
{
	const char *loc;

	return !b->dead && b->jmp.kind == J_BRA && !b->jmp.folded && !b->jmp.lock &&
	       !b->jmp.nest && b->jmp.ptxins >= 0 && b->s1 >= 0 && b->s2 >= 0 &&
	       b->s1 != b->s2 && be_decide_of(f, b->jmp.ptxins, &loc) < 0;
}

/* try to fold the test of A's fall-through block into A; 1 when done */
static int fold_one(Fn *f, int ai, const uint32_t *livein, int w, int *extra, uint32_t *scratch)
{
	Blk *a = &f->blk[ai], *b;
	int bi = a->s2, t1 = a->s1, common, size, c;
	MIns *ps;
	BeFold *fd;

	if (!foldable_jmp(f, a) || bi < 0 || bi == ai || bi == 0)
		return 0;
	b = &f->blk[bi];
	if (!foldable_jmp(f, b) || b->npred != 1 || b->pred[0] != ai || b->s1 == bi || b->s2 == bi)
		return 0;
	if (t1 == b->s1)
		common = 1;
	else if (t1 == b->s2)
		common = 2;
	else
		return 0;
	if (t1 == ai || t1 == bi)
		return 0;
	for (int k = 0; k < b->nins; k++)
		if (unspeculable(&b->ins[k]))
			return 0;
	size = ptxas_size(b, extra[bi]);
	if (size > BE_CHAIN_MAX)
		return 0;
	/* B's writes: read nowhere after B (which T1, a successor of B, is), not A's predicate */
	memset(scratch, 0, sizeof(uint32_t) * (size_t)w);
	for (int k = 0; k < b->nins; k++)
		be_visit(&b->ins[k], be_v_def, scratch);
	if (BHAS(scratch, a->jmp.cond))
		return 0;
	for (int k = 0; k < w; k++)
		if (scratch[k] & (livein[(size_t)b->s1 * (size_t)w + (size_t)k] |
		                  livein[(size_t)b->s2 * (size_t)w + (size_t)k]))
			return 0;

	/* A: its body, B's, then the predicate of the branch to B's target */
	for (int k = 0; k < b->nins; k++)
		*VPUSH(f->pool, a->ins, a->nins, a->cap) = b->ins[k];
	c = be_newtmp(f, TC_P);
	ps = common == 1 ?
	     be_psetp(f, a, c, be_pn(a->jmp.cond, a->jmp.neg), be_pn(b->jmp.cond, b->jmp.neg), BOP_OR) :
	     be_psetp(f, a, c, be_pn(a->jmp.cond, !a->jmp.neg), be_pn(b->jmp.cond, b->jmp.neg), BOP_AND);
	ps->ptxline = f->pf->ins[b->jmp.ptxins].loc.line;
	ps->srcline = f->pf->ins[b->jmp.ptxins].srcline;
	ps->srcfile = (int16_t)f->pf->ins[b->jmp.ptxins].srcfile;
	fd = VPUSH(f->pool, f->folds, f->nfolds, f->capfolds);
	fd->ptxins = a->jmp.ptxins;
	fd->into = b->jmp.ptxins;
	fd->size = size;
	fd->common = common;
	extra[ai] += extra[bi] + 1;
	{
		uint8_t div = a->jmp.div | b->jmp.div, pdiv = a->jmp.pdiv | b->jmp.pdiv;
		if (a->jmp.div && !b->jmp.div)
			memcpy(b->why, a->why, sizeof b->why);
		a->jmp = b->jmp;
		a->jmp.cond = c;
		a->jmp.neg = 0;
		a->jmp.div = div;
		a->jmp.uni = !div;
		a->jmp.pdiv = pdiv;
		memcpy(a->why, b->why, sizeof a->why);
	}
	a->plast = b->plast;
	a->s1 = b->s1;
	a->s2 = b->s2;
	b->dead = 1;
	b->nins = 0;
	b->s1 = b->s2 = -1;
	b->jmp.kind = J_JMP;
	be_preds(f);
	return 1;
}

int be_fold_chains(Fn *f)
{
	int w = BITS_WORDS(f->ntmp), n = f->nblk, folded = 0;
	uint32_t *livein, *scratch;
	int *extra;

	if (f->opt->short_circuit != BE_SC_FOLD)
		return 0;
	livein = be_livein(f, w, NULL);
	scratch = be_alloc(f->pool, sizeof(uint32_t) * (size_t)w);
	extra = be_alloc(f->pool, sizeof(int) * (size_t)n);
	/* bottom-up: a block's fall-through is folded before the block itself is */
	for (int l = f->nlay - 1; l >= 0; l--) {
		int ai = f->lay[l];
		if (ai >= 0 && ai < n && !f->blk[ai].dead)
			folded += fold_one(f, ai, livein, w, extra, scratch);
	}
	return folded;
}
