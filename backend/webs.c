/* webs.c - live-range splitting: a temporary defined more than once becomes one temporary
 * per web before register allocation.
 *
 * Needs isel and if-conversion done (blocks of MIns on temporaries, successors, dead blocks,
 * MIns.gkill); breaks nothing: it only renames operands, guards and branch conditions. A PTX
 * register reused for unrelated values (%r1 for everything, as hand-written PTX and some
 * compilers do) was one temporary and so one long live range; ptxas works on SSA, where each
 * of those values is its own. A web is the set of definitions that reach a common use,
 * joined ("webs", Muchnick, "Advanced Compiler Design and Implementation", 16.3; Cooper and
 * Torczon, "Engineering a Compiler", 13.4): reaching definitions, then union-find over the
 * definitions that reach each use.
 *
 * Words, not temporaries, are what definitions reach: a pair or quad is tracked word by word,
 * so two unguarded moves into the two words of a pair (a vector load's words, mov.b64 %rd,
 * {%r, %r}) end the old value there, and a use of one word joins only the definitions of that
 * word. Definitions of different words of one temporary in a row in one block are one value.
 * A word written by an instruction that reads the same word (a 64-bit operation done word by
 * word in place: IADD.CC t.lo, t.lo, c.lo; IADD.X t.hi, t.hi, c.hi for add.u64 %rd6, %rd6,
 * %rd5) keeps the old value and the new one one web: the allocator could not give the new
 * value the old one's pair while the old high word is still to be read, and a second pair
 * costs two registers for nothing. So does a whole temporary updated in place when the old
 * value is used again further down the code (inplace()). A definition kills the words it writes when it is
 * unguarded or MIns.gkill (ifconv.c); a guarded one merges with the old value (the lanes
 * whose guard is false keep it, which is exactly what if-conversion makes), so it kills
 * nothing and every later use it reaches also joins the definitions before it. A value live
 * around a loop is one web because the definition at the back edge reaches the uses at the
 * header.
 * Every web keeps its temporary's Tmp (class, ptxreg, w16, split); the first keeps its number.
 * A use that no definition reaches (a register never written on any path: PTX leaves it
 * undefined) reads a temporary of its own.
 */
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"

static int allw(const Fn *f, int t) { return (1 << be_cls_words(f->tmp[t].cls)) - 1; }

/* the words of temporary o->t that operand slot i of in reads or writes (a mask); *exact is
 * 0 when they are not known (a part beyond the temporary), then a write kills nothing */
static int words_of(const Fn *f, const MIns *in, int i, int *exact)
{
	const MOpd *o = &in->o[i];
	int all = allw(f, o->t), m;

	*exact = 1;
	if (!o->part || o->kind != OPD_REG)
		return all;
	m = ((1 << be_ins_nregs(in, i)) - 1) << (o->part - 1) & all;
	*exact = m != 0;
	return m ? m : all;
}

/* fn(ctx, in, ref, words, def, kill) for every temporary in reads (its guard and sources
 * first, as it reads them before it writes) or writes; ref is where the temporary's number
 * is, to rename it; in is NULL for a branch condition */
typedef void Occ(void *ctx, const MIns *in, int32_t *ref, int words, int def, int kill);

static void occ_ins(const Fn *f, MIns *in, Occ *fn, void *ctx)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
	int kill = in->guard == T_PT || in->gkill, exact;

	if (in->guard >= T_FIRST)
		fn(ctx, in, &in->guard, 1, 0, 0);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < in->nopd; i++) {
			MOpd *o = &in->o[i];
			int dst = i < si->n && si->dst[i], w;
			switch ((OpdKind)o->kind) {
			case OPD_REG: case OPD_PRED:
				if (o->t < T_FIRST || dst != pass)
					break;
				w = words_of(f, in, i, &exact);
				fn(ctx, in, &o->t, w, dst, dst && kill && exact);
				break;
			case OPD_MEM: case OPD_CONST: case OPD_TLIST:
				if (o->t >= T_FIRST && pass == 0)
					fn(ctx, in, &o->t, allw(f, o->t), 0, 0);
				break;
			case OPD_NONE: case OPD_IMM: case OPD_SREG: case OPD_TARGET: case OPD_CC:
				break;
			}
		}
}

/* every occurrence of a temporary in f, in one fixed order: blocks, their instructions, the
 * branch condition last; start(ctx, b) before each live block */
static void occ_fn(Fn *f, Occ *fn, void *ctx, void (*start)(void *ctx, int b))
{
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = &f->blk[bi];
		if (b->dead)
			continue;
		if (start)
			start(ctx, bi);
		for (int k = 0; k < b->nins; k++)
			occ_ins(f, &b->ins[k], fn, ctx);
		if (b->jmp.cond >= T_FIRST && (b->jmp.kind == J_BRA || b->jmp.kind == J_BRX))
			fn(ctx, NULL, &b->jmp.cond, allw(f, b->jmp.cond), 0, 0);
	}
}

/* A node is one definition of a candidate (a temporary defined twice or more), numbered in
 * occ_fn's order; a unit is a node's word whose value may leave the node's block (no later
 * definition in the block kills that word). cw = 4 * candidate + word. */
typedef struct {
	Fn *f;
	int *ndef;          /* per temporary: its definitions */
	int *cand;          /* per temporary: its candidate number, -1 */
	int ncand;
	int nnode, capnode;
	int *ntmp, *nmask, *nkill; /* per node: temporary, words written, kills them */
	int *bnode0;        /* per block: its first node (a block's nodes are consecutive) */
	int blk;            /* the block being walked */
	int *ubase;         /* per cw: its first unit; ubase[cw + 1]: past its last */
	int *unode;         /* per unit: its node */
	int *gen, *gen0;    /* the units of block b: gen[gen0[b] .. gen0[b + 1]) */
	int *kill, *kill0;  /* the cw block b kills: kill[kill0[b] .. kill0[b + 1]) */
	uint32_t *in;       /* per block: the units reaching its entry, w words each */
	int w;
	int *parent;        /* union-find over nodes */
	int *head, *nxt;    /* per cw: the block's nodes reaching it, linked by nxt[4 node + word] */
	int *rep;           /* per cw: a node standing for what reached its last use, -1 (kept
	                     * apart from head: at a loop's header that may be a node defined
	                     * further down the block, which head is yet to take) */
	uint8_t *inflow;    /* per cw: the units reaching the block's entry still reach */
	int *stamp;         /* per cw: the block (+ 1) its head and inflow belong to */
	int *gnode, *gmask, *gstamp; /* per candidate: the open group of partial definitions
	                     * (a node of it, the words written so far, its block + 1) */
	int *occ, nocc, capocc; /* per occurrence of a candidate: its node (a use: one that
	                         * reaches it, -1 when none does) */
	int rdef;           /* the next node (resolution walk) */
	int *inp, ninp, capinp; /* in-place updates of a whole temporary: (use's node, definition's
	                     * node, the use's occurrence) triples */
	const MIns *lins;   /* the instruction of the last definition seen, its temporary, node */
	int lt, ln;
	const MIns *uins;   /* the instruction of the uses below */
	int ut[ISA_MAXOPD + 1], uw[ISA_MAXOPD + 1], un[ISA_MAXOPD + 1], uo[ISA_MAXOPD + 1], nu;
	                    /* its uses of candidates: temporary, words, node, occurrence */
	int *web;           /* per node: its web's temporary (renaming), -1 */
	int *undef;         /* per candidate: the temporary of its undefined uses, -1 */
	int iocc;           /* the next occurrence (renaming walk) */
} Webs;

static int find(int *p, int x)
{
	while (p[x] != x)
		x = p[x] = p[p[x]];
	return x;
}

/* joins y's set to x's (x < 0: none yet) and returns the result's root */
static int unite(int *p, int x, int y)
{
	y = find(p, y);
	if (x < 0)
		return y;
	x = find(p, x);
	if (x == y)
		return x;
	if (x > y) {
		int z = x;
		x = y, y = z;
	}
	p[y] = x;
	return x;
}

static void c_count(void *ctx, const MIns *in, int32_t *ref, int words, int def, int kill)
{
	Webs *s = ctx;
	(void)in; (void)words; (void)kill;
	if (def)
		s->ndef[*ref]++;
}

static void c_start(void *ctx, int b)
{
	Webs *s = ctx;
	s->blk = b;
	s->bnode0[b] = s->nnode;
}

static void c_nodes(void *ctx, const MIns *in, int32_t *ref, int words, int def, int kill)
{
	Webs *s = ctx;
	(void)in;
	if (!def || s->cand[*ref] < 0)
		return;
	if (s->nnode == s->capnode) {
		int c = s->capnode ? 2 * s->capnode : 64;
		int **a[] = {&s->ntmp, &s->nmask, &s->nkill};
		for (size_t i = 0; i < sizeof a / sizeof *a; i++)
			if (!(*a[i] = realloc(*a[i], sizeof(int) * (size_t)c)))
				die("out of memory");
		s->capnode = c;
	}
	s->ntmp[s->nnode] = *ref;
	s->nmask[s->nnode] = words;
	s->nkill[s->nnode] = kill;
	s->nnode++;
}

/* every block's units and kills (its nodes walked backwards: a word not yet killed by a
 * later node leaves the block), then the units numbered by cw */
static void units(Webs *s)
{
	Fn *f = s->f;
	Pool *p = f->pool;
	int ncw = 4 * s->ncand, ng = 0, nk = 0, nt;
	int *pair = be_alloc(p, sizeof(int) * (size_t)(4 * s->nnode + 1));
	uint8_t *seen = be_alloc(p, (size_t)ncw);
	int *next = be_alloc(p, sizeof(int) * (size_t)(ncw + 1));

	s->ubase = be_alloc(p, sizeof(int) * (size_t)(ncw + 1));
	s->gen0 = be_alloc(p, sizeof(int) * (size_t)(f->nblk + 1));
	s->kill0 = be_alloc(p, sizeof(int) * (size_t)(f->nblk + 1));
	s->kill = be_alloc(p, sizeof(int) * (size_t)(4 * s->nnode + 1));
	for (int bi = 0; bi < f->nblk; bi++) {
		s->gen0[bi] = ng, s->kill0[bi] = nk, nt = nk;
		for (int d = s->bnode0[bi + 1] - 1; d >= s->bnode0[bi]; d--)
			for (int w = 0; w < 4; w++) {
				int cw = 4 * s->cand[s->ntmp[d]] + w;
				if (!(s->nmask[d] >> w & 1) || seen[cw])
					continue;
				pair[ng++] = 4 * d + w;
				s->ubase[cw + 1]++;
				if (s->nkill[d])
					seen[cw] = 1, s->kill[nk++] = cw;
			}
		for (int j = nt; j < nk; j++)
			seen[s->kill[j]] = 0;
	}
	s->gen0[f->nblk] = ng, s->kill0[f->nblk] = nk;
	for (int cw = 0; cw < ncw; cw++)
		s->ubase[cw + 1] += s->ubase[cw];
	memcpy(next, s->ubase, sizeof(int) * (size_t)(ncw + 1));
	s->unode = be_alloc(p, sizeof(int) * (size_t)(ng + 1));
	s->gen = pair;
	for (int j = 0; j < ng; j++) {
		int d = pair[j] / 4, u = next[4 * s->cand[s->ntmp[d]] + pair[j] % 4]++;
		s->unode[u] = d;
		s->gen[j] = u;
	}
	s->w = BITS_WORDS(ng);
}

/* b's successors: its two branch targets (-1: none), then a BRX's table */

/* dst |= src over w words: 1 when dst grew */
static int or_into(uint32_t *dst, const uint32_t *src, int w)
{
	int grew = 0;
	for (int j = 0; j < w; j++) {
		grew |= (src[j] & ~dst[j]) != 0;
		dst[j] |= src[j];
	}
	return grew;
}

/* the units reaching every block's entry: forward, each block's out (its in less the units
 * its kills end, plus its own) added to its successors' in until nothing grows */
static void reach(Webs *s)
{
	Fn *f = s->f;
	int w = s->w, changed = 1;
	uint32_t *out = be_alloc(f->pool, sizeof(uint32_t) * (size_t)(w + 1));

	if (!(s->in = calloc((size_t)f->nblk * (size_t)w + 1, sizeof(uint32_t))))
		die("out of memory");
	while (changed) {
		changed = 0;
		for (int bi = 0; bi < f->nblk; bi++) {
			const Blk *b = &f->blk[bi];
			if (b->dead)
				continue;
			memcpy(out, s->in + (size_t)bi * w, sizeof(uint32_t) * (size_t)w);
			for (int j = s->kill0[bi]; j < s->kill0[bi + 1]; j++)
				for (int u = s->ubase[s->kill[j]]; u < s->ubase[s->kill[j] + 1]; u++)
					BCLR(out, u);
			for (int j = s->gen0[bi]; j < s->gen0[bi + 1]; j++)
				BSET(out, s->gen[j]);
			for (int k = 0; k < be_nsucc(b); k++)
				if (be_succ(f, b, k) >= 0)
					changed |= or_into(s->in + (size_t)be_succ(f, b, k) * w, out, w);
		}
	}
}

static void r_start(void *ctx, int b)
{
	Webs *s = ctx;
	s->blk = b;
}

/* the state of cw in the block being walked, reset at its first touch there */
static void local(Webs *s, int cw)
{
	if (s->stamp[cw] != s->blk + 1) {
		s->stamp[cw] = s->blk + 1;
		s->head[cw] = -1;
		s->rep[cw] = -1;
		s->inflow[cw] = 1;
	}
}

/* one occurrence of a candidate, in order: a use joins every node that reaches one of its
 * words (and then stands for them all there); a definition kills or joins its words' lists;
 * two definitions of one temporary in one instruction are one web */
static void r_occ(void *ctx, const MIns *in, int32_t *ref, int words, int def, int kill)
{
	Webs *s = ctx;
	int c = s->cand[*ref], x = -1;

	if (c < 0)
		return;
	if (!def) {
		for (int w = 0; w < 4; w++) {
			int cw = 4 * c + w;
			if (!(words >> w & 1))
				continue;
			local(s, cw);
			for (int d = s->head[cw]; d >= 0; d = s->nxt[4 * d + w])
				x = unite(s->parent, x, d);
			if (s->rep[cw] >= 0)
				x = unite(s->parent, x, s->rep[cw]);
			if (s->inflow[cw]) {
				const uint32_t *bin = s->in + (size_t)s->blk * s->w;
				for (int u = s->ubase[cw]; u < s->ubase[cw + 1]; u++)
					if (BHAS(bin, u))
						x = unite(s->parent, x, s->unode[u]);
			}
		}
		for (int w = 0; w < 4 && x >= 0; w++) {
			int cw = 4 * c + w;
			if (!(words >> w & 1) || (s->head[cw] < 0 && s->rep[cw] < 0 && !s->inflow[cw]))
				continue;
			s->head[cw] = -1;
			s->rep[cw] = x;
			s->inflow[cw] = 0;
		}
		if (in != s->uins)
			s->uins = in, s->nu = 0;
		if (in && x >= 0 && s->nu <= ISA_MAXOPD)
			s->ut[s->nu] = *ref, s->uw[s->nu] = words, s->uo[s->nu] = s->nocc, s->un[s->nu++] = x;
	} else {
		int all = allw(s->f, *ref);
		x = s->rdef++;
		if (in && in == s->lins && s->lt == *ref)
			unite(s->parent, x, s->ln);
		s->lins = in, s->lt = *ref, s->ln = x;
		/* a word written by an instruction that reads the same word (a 64-bit operation
		 * done word by word in place: a carry chain, a logic op on a pair): the old value
		 * and the new one stay one web, the pair updated in place, since no other pair is
		 * free for the new value while the old one's other word is still to be read */
		for (int j = 0; j < s->nu && in == s->uins; j++)
			if (s->ut[j] == *ref && s->uw[j] & words && words != all) {
				unite(s->parent, x, s->un[j]);
			} else if (s->ut[j] == *ref && s->uw[j] & words) {
				*VPUSH(s->f->pool, s->inp, s->ninp, s->capinp) = s->un[j];
				*VPUSH(s->f->pool, s->inp, s->ninp, s->capinp) = x;
				*VPUSH(s->f->pool, s->inp, s->ninp, s->capinp) = s->uo[j];
			}
		/* definitions of different words of a pair or quad in a row in one block make one
		 * value (a vector load's words moved into a 64-bit register, a carry chain) */
		if (words == all) {
			s->gstamp[c] = 0;
		} else if (s->gstamp[c] == s->blk + 1 && !(s->gmask[c] & words)) {
			unite(s->parent, x, s->gnode[c]);
			s->gmask[c] |= words;
			if (s->gmask[c] == all)
				s->gstamp[c] = 0;
		} else {
			s->gstamp[c] = s->blk + 1, s->gnode[c] = x, s->gmask[c] = words;
		}
		for (int w = 0; w < 4; w++) {
			int cw = 4 * c + w;
			if (!(words >> w & 1))
				continue;
			local(s, cw);
			s->nxt[4 * x + w] = kill ? -1 : s->head[cw];
			s->head[cw] = x;
			if (kill)
				s->inflow[cw] = 0, s->rep[cw] = -1;
		}
	}
	*VPUSH(s->f->pool, s->occ, s->nocc, s->capocc) = x;
}

/* A whole temporary updated in place (add %r3, %r3, %r1: a new web read from the old one)
 * keeps one web when the old value is used again further down the code (on another path):
 * the linear scan holds the old one's register over that whole stretch, so the new value
 * could not take it and would cost a register (and a save in a .func) for nothing. Where
 * the old value dies at the update, the new one takes its register anyway (regalloc.c). */
static void inplace(Webs *s)
{
	int *last = be_alloc(s->f->pool, sizeof(int) * (size_t)(s->nnode + 1));

	for (int d = 0; d < s->nnode; d++)
		last[d] = -1;
	for (int i = 0; i < s->nocc; i++)
		if (s->occ[i] >= 0) {
			int r = find(s->parent, s->occ[i]);
			if (last[r] < i)
				last[r] = i;
		}
	for (int j = 0; j + 2 < s->ninp; j += 3) {
		int a = find(s->parent, s->inp[j]), b = find(s->parent, s->inp[j + 1]), r;
		if (a == b || last[a] <= s->inp[j + 2])
			continue;
		r = unite(s->parent, a, b);
		last[r] = last[a] > last[b] ? last[a] : last[b];
	}
}

/* a new temporary like t */
static int like(Fn *f, int t)
{
	Tmp old = f->tmp[t];
	int n = be_newtmp(f, old.cls);
	f->tmp[n] = old;
	return n;
}

static void n_occ(void *ctx, const MIns *in, int32_t *ref, int words, int def, int kill)
{
	Webs *s = ctx;
	int c = s->cand[*ref], x;
	(void)in; (void)words; (void)def; (void)kill;

	if (c < 0)
		return;
	x = s->occ[s->iocc++];
	if (x < 0) {
		if (s->undef[c] < 0)
			s->undef[c] = like(s->f, *ref);
		*ref = s->undef[c];
	} else {
		*ref = s->web[find(s->parent, x)];
	}
}

int be_webs(Fn *f)
{
	Webs s = {0};
	int n = f->ntmp, nweb = 0;
	uint8_t *kept;

	s.f = f;
	s.ndef = be_alloc(f->pool, sizeof(int) * (size_t)n);
	s.cand = be_alloc(f->pool, sizeof(int) * (size_t)n);
	occ_fn(f, c_count, &s, NULL);
	for (int t = 0; t < n; t++)
		s.cand[t] = t >= T_FIRST && s.ndef[t] > 1 ? s.ncand++ : -1;
	if (!s.ncand)
		return 0;
	s.bnode0 = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));
	for (int b = 0; b <= f->nblk; b++)
		s.bnode0[b] = -1;
	occ_fn(f, c_nodes, &s, c_start);
	s.bnode0[f->nblk] = s.nnode;
	for (int b = f->nblk - 1; b >= 0; b--)
		if (s.bnode0[b] < 0)
			s.bnode0[b] = s.bnode0[b + 1];
	units(&s);
	reach(&s);
	s.parent = be_alloc(f->pool, sizeof(int) * (size_t)s.nnode);
	for (int d = 0; d < s.nnode; d++)
		s.parent[d] = d;
	s.head = be_alloc(f->pool, sizeof(int) * (size_t)(4 * s.ncand));
	s.rep = be_alloc(f->pool, sizeof(int) * (size_t)(4 * s.ncand));
	s.stamp = be_alloc(f->pool, sizeof(int) * (size_t)(4 * s.ncand));
	s.inflow = be_alloc(f->pool, (size_t)(4 * s.ncand));
	s.nxt = be_alloc(f->pool, sizeof(int) * (size_t)(4 * s.nnode));
	s.gnode = be_alloc(f->pool, sizeof(int) * (size_t)s.ncand);
	s.gmask = be_alloc(f->pool, sizeof(int) * (size_t)s.ncand);
	s.gstamp = be_alloc(f->pool, sizeof(int) * (size_t)s.ncand);
	occ_fn(f, r_occ, &s, r_start);
	free(s.in);
	inplace(&s);
	/* the first web of each temporary keeps its number */
	s.web = be_alloc(f->pool, sizeof(int) * (size_t)s.nnode);
	s.undef = be_alloc(f->pool, sizeof(int) * (size_t)s.ncand);
	kept = be_alloc(f->pool, (size_t)s.ncand);
	for (int c = 0; c < s.ncand; c++)
		s.undef[c] = -1;
	for (int d = 0; d < s.nnode; d++)
		s.web[d] = -1;
	for (int d = 0; d < s.nnode; d++) {
		int r = find(s.parent, d), c = s.cand[s.ntmp[d]];
		if (s.web[r] >= 0)
			continue;
		if (!kept[c]) {
			kept[c] = 1;
			s.web[r] = s.ntmp[d];
		} else {
			s.web[r] = like(f, s.ntmp[d]);
			nweb++;
		}
	}
	occ_fn(f, n_occ, &s, NULL);
	free(s.ntmp), free(s.nmask), free(s.nkill);
	return nweb;
}
