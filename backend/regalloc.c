/* regalloc.c - liveness and linear-scan register allocation, spilling to local memory.
 *
 * Needs isel (and if-conversion): blocks of MIns on temporaries. Assigns Tmp.phys to every
 * temporary: R registers within BeOptions.max_regs (R1 is the stack pointer when the
 * kernel has calls), even pairs for 64-bit values, 4-aligned quads, P0..P6 for predicates.
 * Breaks nothing; spilling adds LDL/STL around uses and definitions of spilled values.
 *
 * "Linear Scan Register Allocation" (Poletto, Sarkar, 1999): one interval per temporary
 * from its first to its last position in code order (Fn.lay), widened over the blocks where
 * it is live in or out (backward dataflow over the CFG); intervals sorted by start; when no
 * register is free the interval ending last is spilled (an 8-byte slot in the frame after
 * the .local variables), the code rewritten, and the allocation run again. A copy whose
 * source dies at it gives its destination the source's register (move coalescing by hint;
 * emission drops the MOV R, R left behind). First, a result no one reads is written to RZ
 * (PT), a move no one reads goes, and an atomic whose result is dead becomes RED. Predicates
 * beyond P0-P6 are kept as 0/1 in a register (SEL to save, ISETP.NE to restore).
 */
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"


typedef struct {
	uint32_t *gen, *kill;  /* per block: read before written, written */
	int *start, *end;      /* per temporary */
	int pos;
	int w;                 /* words of the livein/liveout bitsets (temporaries then) */
	/* per temporary, reused by every round (malloc'd: a kernel that spills hundreds of
	 * times would otherwise leave hundreds of copies in the pool) */
	int cap, *hint, *hpos, *order, *active;
	/* per temporary: a copy out of a split pair or quad (Tmp.split) hints its word
	 * (hword = word + 1, 0 for a whole-register hint); lastrd: the split one's last read;
	 * gave: the words of a split one that its copies' destinations took */
	int *hword, *lastrd, *gave;
	/* per temporary: a value moved into word sword of the pair or quad shint at spos (a
	 * store's, isel_mem.c) and dying there would like that word; plan: where such a pair or
	 * quad is meant to go once its first source took its word (-1 none) */
	int *shint, *sword, *spos, *plan;
	/* per pair or quad: the position of the first such move into it, -2 when it was live
	 * or written before it (no plan then), -1 before any */
	int *qpos;
} Live;

/* room in l's per-temporary arrays for n temporaries; hint and hpos zeroed */
static void room(Live *l, int n)
{
	if (n > l->cap) {
		int c = n + n / 2;
		int **a[] = {&l->start, &l->end, &l->hint, &l->hpos, &l->order, &l->active, &l->hword,
		             &l->lastrd, &l->gave, &l->shint, &l->sword, &l->spos, &l->plan, &l->qpos};
		for (size_t i = 0; i < sizeof a / sizeof *a; i++)
			if (!(*a[i] = realloc(*a[i], sizeof(int) * (size_t)c)))
				die("out of memory");
		l->cap = c;
	}
	memset(l->hint, 0, sizeof(int) * (size_t)n);
	memset(l->hpos, 0, sizeof(int) * (size_t)n);
	memset(l->hword, 0, sizeof(int) * (size_t)n);
	memset(l->lastrd, 0, sizeof(int) * (size_t)n);
	memset(l->gave, 0, sizeof(int) * (size_t)n);
	memset(l->shint, 0, sizeof(int) * (size_t)n);
	memset(l->sword, 0, sizeof(int) * (size_t)n);
	memset(l->spos, 0, sizeof(int) * (size_t)n);
	memset(l->plan, -1, sizeof(int) * (size_t)n);
	memset(l->qpos, -1, sizeof(int) * (size_t)n);
}

/* an instruction at pos reads at pos and writes at pos + 1: a source that dies there is
 * free for its destination (the instruction reads before it writes) */
static void v_range(void *ctx, int t, int def, int kill)
{
	Live *l = ctx;
	(void)kill;
	if (l->start[t] > l->pos + def)
		l->start[t] = l->pos + def;
	if (l->end[t] < l->pos + def + 1)
		l->end[t] = l->pos + def + 1;
}

/* din/dout of every block: the temporaries some path from the entry defines (in any lane or
 * part). Where a temporary is not even maybe-defined it holds no value anyone can rely on
 * (PTX leaves unwritten registers undefined), so liveness is cut there: a value first
 * written under a guard inside a loop is not live from the kernel's entry. */
static void maybe_defined(Fn *f, int w, uint32_t **din, uint32_t **dout)
{
	int changed = 1;

	/* one array each, Blk.din/dout pointing into it (be_live takes them as masks) */
	*din = be_alloc(f->pool, sizeof(uint32_t) * (size_t)w * (size_t)f->nblk);
	*dout = be_alloc(f->pool, sizeof(uint32_t) * (size_t)w * (size_t)f->nblk);
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = &f->blk[i];
		b->din = *din + (size_t)i * w;
		b->dout = *dout + (size_t)i * w;
		if (b->dead)
			continue;
		for (int k = 0; k < b->nins; k++)
			be_visit(&b->ins[k], be_v_def, b->dout);
	}
	while (changed) {
		changed = 0;
		for (int i = 0; i < f->nblk; i++) {
			Blk *b = &f->blk[i];
			if (b->dead)
				continue;
			for (int j = 0; j < w; j++)
				b->dout[j] |= b->din[j];
			for (int k = 0; k < be_nsucc(b); k++) {
				int x = be_succ(f, b, k);
				if (x < 0)
					continue;
				for (int j = 0; j < w; j++)
					if (b->dout[j] & ~f->blk[x].din[j]) {
						f->blk[x].din[j] |= b->dout[j];
						changed = 1;
					}
			}
		}
	}
}

static void liveness(Fn *f, Live *l)
{
	int w = BITS_WORDS(f->ntmp);
	uint32_t *in = be_alloc(f->pool, sizeof(uint32_t) * (size_t)w * (size_t)f->nblk);
	uint32_t *out = be_alloc(f->pool, sizeof(uint32_t) * (size_t)w * (size_t)f->nblk);
	uint32_t *din, *dout;

	l->w = w;
	l->gen = be_alloc(f->pool, sizeof(uint32_t) * (size_t)w * (size_t)f->nblk);
	l->kill = be_alloc(f->pool, sizeof(uint32_t) * (size_t)w * (size_t)f->nblk);
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = &f->blk[i];
		b->livein = in + (size_t)i * w;
		b->liveout = out + (size_t)i * w;
		if (!b->dead)
			be_genkill(b, l->gen + (size_t)i * w, l->kill + (size_t)i * w);
	}
	maybe_defined(f, w, &din, &dout);
	/* masked by what some path from the entry defines: liveness is cut where nothing is */
	be_live(f, w, l->gen, l->kill, din, dout, in, out);
}

/* one backward step of liveness inside a block: the temporaries an instruction kills
 * leave live (v_kill), then those it reads join it (v_use) */
static void v_kill(void *ctx, int t, int def, int kill)
{
	if (def && kill)
		BCLR((uint32_t *)ctx, t);
}

static void v_use(void *ctx, int t, int def, int kill)
{
	(void)kill;
	if (!def)
		BSET((uint32_t *)ctx, t);
}

/* A result no one reads takes no register: its operand becomes RZ (PT for a predicate),
 * which the SM model discards, so it holds no register and no later write waits on it (a
 * dead result in the register its source frees made the next write there wait for the
 * atomic's round trip). A global atomic whose result is dead becomes RED, as ptxas 11.8 for
 * sm_35 does (tests/ptxas-ref/atomics.sm35.sass), but for CAS and EXCH, which RED has not.
 * Needs liveness; the instructions stay (the SM model runs them, the side effects of an
 * atomic, a load's fault, a .CC's flags with them) but for a move (MOV, MOV32I), which
 * goes (a copy, as emission would have dropped it once coalesced); 1 when it changed the
 * code (a move gone may leave its source dead too). */
static int dead_results(Fn *f, Live *l)
{
	uint32_t *live = be_alloc(f->pool, sizeof(uint32_t) * (size_t)l->w);
	int changed = 0;

	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = &f->blk[bi];
		if (b->dead)
			continue;
		memcpy(live, b->liveout, sizeof(uint32_t) * (size_t)l->w);
		if (b->jmp.cond >= T_FIRST && (b->jmp.kind == J_BRA || b->jmp.kind == J_BRX))
			BSET(live, b->jmp.cond);
		for (int k = b->nins - 1; k >= 0; k--) {
			MIns *in = &b->ins[k];
			const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
			int deadres = 0;
			for (int i = 0; i < in->nopd && i < si->n; i++) {
				MOpd *o = &in->o[i];
				if (!si->dst[i] || (o->kind != OPD_REG && o->kind != OPD_PRED) ||
				    o->t < T_FIRST || o->t / 32 >= l->w || BHAS(live, o->t))
					continue;
				o->t = o->kind == OPD_PRED ? T_PT : T_RZ;
				o->part = 0;
				deadres |= i == 0;
				changed = 1;
			}
			if (deadres && (in->op == OP_MOV || in->op == OP_MOV32I ||
			                (in->op == OP_LDC && in->o[1].t == T_RZ))) {
				/* a dead move goes (a copy: emission would have dropped it as MOV R, R),
				 * and so does a load from a fixed constant address */
				memmove(in, in + 1, (size_t)(b->nins - 1 - k) * sizeof *in);
				b->nins--;
				continue;
			}
			if (deadres && in->op == OP_ATOM && in->m.sub != SUB_CAS && in->m.sub != SUB_EXCH) {
				in->op = OP_RED;
				in->o[0] = in->o[1];
				in->o[1] = in->o[2];
				memset(&in->o[2], 0, sizeof in->o[2]);
				in->nopd = 2;
			}
			be_visit(in, v_kill, live);
			be_visit(in, v_use, live);
		}
	}
	return changed;
}

/* rewrite the code so that temporary t lives in a frame slot */
static void spill(Fn *f, int t)
{
	int base = f->pf->entry ? T_RZ : T_SP;
	uint32_t slot = f->paramsz + f->localsz + f->spillsz;
	int cls = f->tmp[t].cls;
	Type ty = cls == TC_R2 ? TY_B64 : cls == TC_R4 ? TY_B128 : TY_NONE;

	if (cls == TC_R4)
		slot = (slot + 15) & ~15u;
	f->spillsz = slot + 4 * (uint32_t)be_cls_words(cls) - f->paramsz - f->localsz;
	f->spillsz = (f->spillsz + 7) & ~7u;
	f->tmp[t].slot = (int32_t)slot;
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = &f->blk[bi];
		if (b->dead)
			continue;
		for (int k = 0; k < b->nins; k++) {
			MIns *in = &b->ins[k];
			const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
			int uses = 0, defs = 0, nt;
			for (int i = 0; i < in->nopd; i++) {
				MOpd *o = &in->o[i];
				if ((o->kind == OPD_REG || o->kind == OPD_MEM || o->kind == OPD_CONST) && o->t == t) {
					if (o->kind == OPD_REG && i < si->n && si->dst[i])
						defs = 1, uses |= o->part || (in->guard != T_PT && !in->gkill);
					else
						uses = 1;
				}
			}
			if (!uses && !defs)
				continue;
			nt = be_newtmp(f, cls);
			f->tmp[nt].nodef = 1;
			for (int i = 0; i < in->nopd; i++)
				if ((in->o[i].kind == OPD_REG || in->o[i].kind == OPD_MEM ||
				     in->o[i].kind == OPD_CONST) && in->o[i].t == t)
					in->o[i].t = nt;
			if (uses) {
				MIns ld = {0};
				ld.op = OP_LDL;
				ld.guard = T_PT;
				ld.nopd = 2;
				ld.m.dtype = (uint8_t)ty;
				ld.o[0] = be_r(nt);
				ld.o[1] = be_mem(base, slot);
				ld.ptxline = in->ptxline;
				ld.srcline = in->srcline;
				ld.srcfile = in->srcfile;
				VPUSH(f->pool, b->ins, b->nins, b->cap);
				memmove(&b->ins[k + 1], &b->ins[k], (size_t)(b->nins - 1 - k) * sizeof ld);
				b->ins[k] = ld;
				k++;
			}
			if (defs) {
				MIns st = {0};
				st.op = OP_STL;
				st.guard = T_PT;
				st.nopd = 2;
				st.m.dtype = (uint8_t)ty;
				st.o[0] = be_mem(base, slot);
				st.o[1] = be_r(nt);
				st.ptxline = b->ins[k].ptxline;
				st.srcline = b->ins[k].srcline;
				st.srcfile = b->ins[k].srcfile;
				VPUSH(f->pool, b->ins, b->nins, b->cap);
				memmove(&b->ins[k + 2], &b->ins[k + 1], (size_t)(b->nins - 2 - k) * sizeof st);
				b->ins[k + 1] = st;
				k++;
			}
		}
		if (b->jmp.cond == t) {
			int nt = be_newtmp(f, cls);
			MIns *ld = be_emit(f, b, OP_LDL);
			f->tmp[nt].nodef = 1;
			ld->nopd = 2;
			ld->o[0] = be_r(nt);
			ld->o[1] = be_mem(base, slot);
			b->jmp.cond = nt;
		}
	}
}

/* insert x at position k of block b */
static void insert_at(Fn *f, Blk *b, int k, MIns x)
{
	VPUSH(f->pool, b->ins, b->nins, b->cap);
	memmove(&b->ins[k + 1], &b->ins[k], (size_t)(b->nins - 1 - k) * sizeof x);
	b->ins[k] = x;
}

/* ISETP.NE.AND p, PT, r, RZ, PT (restore) or SEL r, RZ, 0x1, !p (save) */
static MIns pconv(int save, int p, int r, const MIns *at)
{
	MIns x = {0};
	x.guard = T_PT;
	x.ptxline = at ? at->ptxline : 0;
	x.srcline = at ? at->srcline : 0;
	x.srcfile = at ? at->srcfile : -1;
	if (save) {
		x.op = OP_SEL;
		x.nopd = 4;
		x.o[0] = be_r(r);
		x.o[1] = be_r(T_RZ);
		x.o[2] = be_imm(1);
		x.o[3] = be_pn(p, 1);
	} else {
		x.op = OP_ISETP;
		x.m.cmp = CMP_NE;
		x.m.dtype = TY_U32;
		x.m.bop = BOP_AND;
		x.nopd = 5;
		x.o[0] = be_p(p);
		x.o[1] = be_p(T_PT);
		x.o[2] = be_r(r);
		x.o[3] = be_r(T_RZ);
		x.o[4] = be_p(T_PT);
	}
	return x;
}

/* rewrite the code so that predicate temporary t lives in a register as 0/1 (there is no
 * P2R/R2P on Fermi): every definition goes to a fresh predicate saved by SEL, every use
 * reads a fresh predicate restored by ISETP.NE; the register may itself be spilled later */
static void pspill(Fn *f, int t)
{
	int r = be_newtmp(f, TC_R);

	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = &f->blk[bi];
		if (b->dead)
			continue;
		for (int k = 0; k < b->nins; k++) {
			MIns *in = &b->ins[k];
			const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
			int uses = in->guard == t, defs = 0, np;
			for (int i = 0; i < in->nopd; i++)
				if (in->o[i].kind == OPD_PRED && in->o[i].t == t) {
					if (i < si->n && si->dst[i])
						defs = 1, uses |= in->guard != T_PT;
					else
						uses = 1;
				}
			if (!uses && !defs)
				continue;
			np = be_newtmp(f, TC_P);
			f->tmp[np].nodef = 1;
			if (in->guard == t)
				in->guard = np;
			for (int i = 0; i < in->nopd; i++)
				if (in->o[i].kind == OPD_PRED && in->o[i].t == t)
					in->o[i].t = np;
			if (uses) {
				insert_at(f, b, k, pconv(0, np, r, in));
				k++;
			}
			if (defs) {
				insert_at(f, b, k + 1, pconv(1, np, r, &b->ins[k]));
				k++;
			}
		}
		if (b->jmp.cond == t && b->jmp.kind == J_BRA) {
			int np = be_newtmp(f, TC_P);
			f->tmp[np].nodef = 1;
			insert_at(f, b, b->nins, pconv(0, np, r, b->nins ? &b->ins[b->nins - 1] : NULL));
			b->jmp.cond = np;
		}
	}
}

static const int *sort_start;   /* by_start's keys (qsort has no context argument) */

static int by_start(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (sort_start[x] != sort_start[y])
		return sort_start[x] < sort_start[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/* nx (NULL: none) is the unguarded MOV d.dpart, s.spart of one word: the second half of a
 * pair's copy word by word (split_hint's and store_hint's) */
static int word_move(const MIns *nx, int d, int dpart, int s, int spart)
{
	return nx && nx->op == OP_MOV && nx->guard == T_PT && nx->nopd == 2 &&
	       nx->o[0].kind == OPD_REG && nx->o[0].t == d && nx->o[0].part == dpart &&
	       nx->o[1].kind == OPD_REG && nx->o[1].t == s && nx->o[1].part == spart && !nx->o[1].flags;
}

/* a copy out of a split pair or quad h (isel_mem.c's wide loads): MOV d, h.word where d
 * is 32 bits, or MOV d.lo, h.word; MOV d.hi, h.word+1 where d is an even pair and the word
 * even. d would like h's register of that word (h reads each word once, in order, so the
 * word is free after its copy) */
static void split_hint(Fn *f, Live *l, const Blk *b, int k, int pos)
{
	const MIns *in = &b->ins[k], *nx = k + 1 < b->nins ? &b->ins[k + 1] : NULL;
	int d = in->o[0].t, h = in->o[1].t, w = in->o[1].part - 1;

	if (in->op != OP_MOV || in->nopd != 2 || in->o[0].kind != OPD_REG || in->o[1].kind != OPD_REG ||
	    in->o[1].t < T_FIRST || !f->tmp[h].split || !in->o[1].part || in->o[1].flags)
		return;
	l->lastrd[h] = pos;
	if (in->guard != T_PT || d < T_FIRST || f->tmp[d].split)
		return;
	if (f->tmp[d].cls == TC_R && !in->o[0].part) {
		l->hint[d] = h, l->hpos[d] = pos, l->hword[d] = w + 1;
	} else if (f->tmp[d].cls == TC_R2 && in->o[0].part == 1 && w % 2 == 0 &&
	           word_move(nx, d, 2, h, w + 2)) {
		l->hint[d] = h, l->hpos[d] = pos, l->hword[d] = w + 1;
	}
}

/* a move into a word of a pair or quad q: MOV q.word, s where s is 32 bits, or
 * MOV q.word, s.lo; MOV q.word+1, s.hi where s is an even pair and the word even: s would
 * like to live in q's register of that word from the start (when it dies there) */
static void store_hint(Fn *f, Live *l, const Blk *b, int k, int pos)
{
	const MIns *in = &b->ins[k], *nx = k + 1 < b->nins ? &b->ins[k + 1] : NULL;
	int q = in->o[0].t, s = in->o[1].t, w = in->o[0].part - 1;

	if (in->op != OP_MOV || in->nopd != 2 || in->guard != T_PT || in->o[0].kind != OPD_REG ||
	    in->o[1].kind != OPD_REG || q < T_FIRST || s < T_FIRST || !in->o[0].part ||
	    in->o[1].flags || f->tmp[q].cls == TC_P || f->tmp[s].split || f->tmp[q].split || l->shint[s])
		return;
	/* q must start at its first move: a pair written word by word that is live before it
	 * (a spilled one's reload, spill()) would overwrite the sources that took its words
	 * before their moves read them */
	if (l->qpos[q] == -1)
		l->qpos[q] = l->start[q] == pos + 1 ? pos : -2;
	if (l->qpos[q] == -2)
		return;
	if (f->tmp[s].cls == TC_R && !in->o[1].part) {
		l->shint[s] = q, l->sword[s] = w, l->spos[s] = pos;
	} else if (f->tmp[s].cls == TC_R2 && in->o[1].part == 1 && w % 2 == 0 &&
	           word_move(nx, q, w + 2, s, 2)) {
		l->shint[s] = q, l->sword[s] = w, l->spos[s] = pos + 2;
	}
}

/* the live interval of every temporary in code order (Live.start, .end; Blk.first, .last),
 * and for each whole-register copy the source its destination would like to share a
 * register with (hint, at position hpos). Code order is Fn.lay, which holds every block
 * (be_newblk) as emission places them: a loop's blocks are consecutive there, so what is
 * live around a loop does not stay live over the code that block numbering puts between them
 * (an exit path numbered before the loop's latch: histogram.sm35 under kepler.cfg takes
 * 16 registers in block-number order, 12 in code order) */
static void intervals(Fn *f, Live *l, int fresh)
{
	int n = f->ntmp, pos = 0;

	int *hint, *hpos;

	room(l, n);
	hint = l->hint, hpos = l->hpos;
	for (int t = 0; t < n; t++) {
		l->start[t] = 1 << 30;
		l->end[t] = -1;
		if (t >= T_FIRST)
			f->tmp[t].phys = -1;
	}
	if (fresh)
		liveness(f, l);
	for (int li = 0; li < f->nlay; li++) {
		Blk *b = &f->blk[f->lay[li]];
		if (b->dead)
			continue;
		b->first = pos;
		for (int j = 0; j < l->w; j++)
			for (uint32_t m = b->livein[j]; m; m &= m - 1) {
				int t = 32 * j + __builtin_ctz(m);
				if (t >= T_FIRST && l->start[t] > pos)
					l->start[t] = pos;
			}
		for (int k = 0; k < b->nins; k++, pos += 2) {
			const MIns *in = &b->ins[k];
			l->pos = pos;
			be_visit(in, v_range, l);
			/* a whole-register copy: its destination would like its source's register */
			if (in->op == OP_MOV && in->guard == T_PT && in->nopd == 2 && in->o[0].kind == OPD_REG &&
			    in->o[1].kind == OPD_REG && !in->o[0].part && !in->o[1].part && !in->o[1].flags &&
			    in->o[0].t >= T_FIRST && in->o[1].t >= T_FIRST &&
			    f->tmp[in->o[0].t].cls == f->tmp[in->o[1].t].cls) {
				hint[in->o[0].t] = in->o[1].t;
				hpos[in->o[0].t] = pos;
			}
			split_hint(f, l, b, k, pos);
			store_hint(f, l, b, k, pos);
		}
		l->pos = pos;
		if (b->jmp.cond >= T_FIRST && (b->jmp.kind == J_BRA || b->jmp.kind == J_BRX))
			v_range(l, b->jmp.cond, 0, 0);
		pos += 2;
		b->last = pos;
		for (int j = 0; j < l->w; j++)
			for (uint32_t m = b->liveout[j]; m; m &= m - 1) {
				int t = 32 * j + __builtin_ctz(m);
				if (t < T_FIRST)
					continue;
				if (l->end[t] < pos)
					l->end[t] = pos;
				if (l->start[t] > pos)
					l->start[t] = pos;
			}
	}
	if (getenv("BE_DEBUG_RA"))
		for (int t = T_FIRST; t < n; t++)
			if (l->end[t] >= 0)
				fprintf(stderr, "%%%d [%d, %d]\n", t, l->start[t], l->end[t]);
	for (int i = 0; getenv("BE_DEBUG_RA") && i < f->nblk; i++)
		fprintf(stderr, "@b%d %d..%d\n", i, f->blk[i].first, f->blk[i].last);
}

/* the interval to spill when t finds no register: t or an active interval of its kind
 * (predicate or register) ending last, never a spill scratch; -1 when there is none */
static int victim(const Fn *f, const Live *l, const int *active, int nact, int t)
{
	int pred = f->tmp[t].cls == TC_P, v = f->tmp[t].nodef ? -1 : t;

	for (int j = 0; j < nact; j++) {
		int a = active[j];
		if ((f->tmp[a].cls == TC_P) != pred || f->tmp[a].nodef)
			continue;
		if (v < 0 || l->end[a] > l->end[v])
			v = a;
	}
	return v;
}

/* what the function uses: the highest register + 1 (R1 counts when it is the stack
 * pointer), and the registers and predicates it writes */
static void usage(Fn *f, int reserved1)
{
	int n = f->ntmp;

	f->maxreg = reserved1 ? 2 : 0;
	memset(f->savedmask, 0, sizeof f->savedmask);
	f->predmask = 0;
	for (int t = T_FIRST; t < n; t++) {
		if (f->tmp[t].phys < 0)
			continue;
		if (f->tmp[t].cls == TC_P) {
			f->predmask |= 1u << f->tmp[t].phys;
			continue;
		}
		int top = f->tmp[t].phys + be_cls_words(f->tmp[t].cls);
		if (top > f->maxreg)
			f->maxreg = top;
		for (int k = f->tmp[t].phys; k < top; k++)
			BSET(f->savedmask, k);
	}
}

/* the register planned for t (store_hint's), or -1: a source of a store's pair or quad
 * that dies at its move takes its word of the plan (made by the first source, where the
 * whole pair or quad is free); the pair or quad takes the plan where each word is free or
 * held by such a source (the moves become MOV R, R, which emission drops) */
static int planned(Fn *f, Live *l, int t, uint8_t *used, const int *active, int nact, int nregs)
{
	int q = l->shint[t], w = be_cls_words(f->tmp[t].cls);

	if (q >= T_FIRST) {
		int qw = be_cls_words(f->tmp[q].cls), at;
		if (l->end[t] != l->spos[t] + 1 || f->tmp[q].phys >= 0)
			return -1;
		if (l->plan[q] < 0)
			for (int r = 0; r + qw <= nregs && l->plan[q] < 0; r += qw) {
				int ok = 1;
				for (int k = 0; k < qw; k++)
					ok &= !used[r + k];
				if (ok)
					l->plan[q] = r;
			}
		if (l->plan[q] < 0)
			return -1;
		at = l->plan[q] + l->sword[t];
		for (int k = 0; k < w; k++)
			if (used[at + k])
				return -1;
		return at;
	}
	/* no plan (its sources took registers of their own, a wide load's words): where a
	 * source that dies at its move already is */
	for (int j = 0; j < nact && l->plan[t] < 0; j++) {
		int a = active[j], base = f->tmp[a].phys - l->sword[a];
		if (f->tmp[a].cls != TC_P && l->shint[a] == t && f->tmp[a].phys >= 0 &&
		    l->end[a] == l->spos[a] + 1 && base >= 0 && base % w == 0 && base + w <= nregs)
			l->plan[t] = base;
	}
	if (l->plan[t] < 0)
		return -1;
	/* t is a pair or quad with a plan: every word free or its source's */
	for (int k = 0; k < w; k++) {
		int r = l->plan[t] + k, ok = !used[r];
		for (int j = 0; j < nact && !ok; j++) {
			int a = active[j];
			ok = f->tmp[a].cls != TC_P && l->shint[a] == t && f->tmp[a].phys >= 0 &&
			     l->plan[t] + l->sword[a] == f->tmp[a].phys &&
			     r >= f->tmp[a].phys && r < f->tmp[a].phys + be_cls_words(f->tmp[a].cls) &&
			     l->end[a] == l->spos[a] + 1;
		}
		if (!ok)
			return -1;
	}
	for (int j = 0; j < nact; j++) {
		int a = active[j];
		if (f->tmp[a].cls != TC_P && l->shint[a] == t && f->tmp[a].phys >= 0 &&
		    l->plan[t] + l->sword[a] == f->tmp[a].phys)
			l->gave[a] = (1 << be_cls_words(f->tmp[a].cls)) - 1;
	}
	return l->plan[t];
}

/* one linear scan: 0 when every temporary has a register; 1 with the temporary to spill
 * in *spill_out; -1 after a located error */
static int try_alloc(Fn *f, Live *lv, int fresh, int *spill_out)
{
	Live l = *lv;
	int n = f->ntmp, *order, nact = 0, *active;
	int nregs = f->opt->max_regs;
	uint8_t used[256], pused[8];
	int *hint, *hpos;

	intervals(f, &l, fresh);
	*lv = l;
	hint = l.hint, hpos = l.hpos, order = l.order, active = l.active;
	int norder = 0;
	for (int t = T_FIRST; t < n; t++)
		if (l.end[t] >= 0)
			order[norder++] = t;
	/* by start, ties by number (deterministic) */
	sort_start = l.start;
	qsort(order, (size_t)norder, sizeof *order, by_start);
	memset(used, 0, sizeof used);
	memset(pused, 0, sizeof pused);
	if (f->hascall || !f->pf->entry)
		used[1] = 1;  /* the stack pointer */
	uint8_t reserved1 = used[1];
	for (int i = 0; i < norder; i++) {
		int t = order[i], cls = f->tmp[t].cls, w = be_cls_words(cls), got = -1;
		/* expire */
		for (int j = 0; j < nact; j++) {
			int a = active[j];
			if (l.end[a] <= l.start[t]) {
				if (f->tmp[a].cls == TC_P)
					pused[f->tmp[a].phys] = 0;
				else
					for (int k = 0; k < be_cls_words(f->tmp[a].cls); k++)
						if (!(l.gave[a] >> k & 1))
							used[f->tmp[a].phys + k] = 0;
				active[j--] = active[--nact];
			}
		}
		if (cls == TC_P) {
			for (int r = 0; r < ISA_NPREDS && got < 0; r++)
				if (!pused[r])
					got = r;
			if (got < 0) {
				/* keep the predicate ending last in a register instead */
				int v = victim(f, &l, active, nact, t);
				if (v < 0) {
					be_errorf(f, f->pf->loc, "unsupported: more than %d predicates live at once "
					          "in one instruction of '%s'", ISA_NPREDS, f->pf->name);
					*spill_out = -1;
					return -1;
				}
				*spill_out = v;
				return 1;
			}
			pused[got] = 1;
		} else {
			/* coalesce a copy whose source dies there: t takes its register (the copy
			 * becomes MOV R, R, which emission drops) */
			int h = hint[t];
			if (h >= T_FIRST && l.hword[t] && hpos[t] + 1 == l.start[t] && f->tmp[h].phys >= 0 &&
			    l.end[h] == l.lastrd[h] + 1 && !(l.gave[h] >> (l.hword[t] - 1) & ((1 << w) - 1))) {
				/* a copy out of a split pair or quad: the word (or pair of words) it reads,
				 * given away while the rest is still read, or free after its last read */
				int r = f->tmp[h].phys + l.hword[t] - 1, on = 0, ok = 1;
				for (int j = 0; j < nact; j++)
					on |= active[j] == h;
				for (int k = 0; k < w && !on; k++)
					ok &= !used[r + k];
				if (on)
					l.gave[h] |= ((1 << w) - 1) << (l.hword[t] - 1);
				if (on || ok)
					got = r;
			}
			if (got < 0 && h >= T_FIRST && !l.hword[t] && hpos[t] + 1 == l.start[t] &&
			    l.end[h] == l.start[t] && f->tmp[h].phys >= 0 && f->tmp[h].cls == cls) {
				/* the source died at the copy: its register, when nothing took it since */
				int ok = 1;
				for (int k = 0; k < w; k++)
					ok &= !used[f->tmp[h].phys + k];
				if (ok)
					got = f->tmp[h].phys;
			}
			if (got < 0)
				got = planned(f, &l, t, used, active, nact, nregs);
			for (int r = 0; r + w <= nregs && got < 0; r += w) {
				int ok = 1;
				for (int k = 0; k < w; k++)
					ok &= !used[r + k];
				if (ok)
					got = r;
			}
			if (got < 0) {
				/* spill the interval (this one or an active one of a register class) ending last */
				int v = victim(f, &l, active, nact, t);
				if (v < 0) {
					be_errorf(f, f->pf->loc, "unsupported: '%s' needs more than %d registers even "
					          "after spilling", f->pf->name, nregs);
					*spill_out = -1;
					return -1;
				}
				*spill_out = v;
				return 1;
			}
			for (int k = 0; k < w; k++)
				used[got + k] = 1;
		}
		f->tmp[t].phys = (int16_t)got;
		l.gave[t] = 0;
		active[nact++] = t;
	}
	usage(f, reserved1);
	return 0;
}

/* A spilled register temporary's uses and definitions go to fresh temporaries that live
 * within one instruction's neighbourhood (loaded just before a use, stored just after a
 * definition), never across a block boundary; liveness is a bit-vector problem whose bits
 * are independent; so the liveness after spill(t) is the one before it without t, and the
 * next round only clears t's bit instead of solving the dataflow again (a kernel of 14,000
 * temporaries spills hundreds of times). A predicate spill gives the register that holds it
 * the predicate's liveness, so that round recomputes. */
static void forget(Fn *f, const Live *l, int t)
{
	if (t / 32 >= l->w)
		return;
	for (int i = 0; i < f->nblk; i++)
		if (!f->blk[i].dead) {
			BCLR(f->blk[i].livein, t);
			BCLR(f->blk[i].liveout, t);
		}
}

int be_regalloc(Fn *f)
{
	Live l = {0};
	int fresh = 1, r = 1;

	do
		liveness(f, &l);
	while (dead_results(f, &l));
	for (int round = 0; round < 10000 && r == 1; round++) {
		int sp = -1;
		r = try_alloc(f, &l, fresh, &sp);
		if (r != 1)
			break;
		if (f->tmp[sp].cls == TC_P) {
			pspill(f, sp);
			fresh = 1;
		} else {
			spill(f, sp);
			forget(f, &l, sp);
			fresh = 0;
		}
	}
	free(l.start), free(l.end), free(l.hint), free(l.hpos), free(l.order), free(l.active);
	free(l.hword), free(l.lastrd), free(l.gave), free(l.shint), free(l.sword), free(l.spos);
	free(l.plan), free(l.qpos);
	if (r == 1)
		die("register allocation does not converge");
	return r;
}
