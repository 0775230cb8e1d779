/* reach.c - reaching definitions of PTX registers, for uniform.c.
 *
 * Needs cfg (each live block's PTX instructions [pfirst, plast)); breaks nothing.
 *
 * A definition is a register that an instruction of a live block writes (a vector's or list's
 * elements one each). For every read, in operand order — the guard, then each source, an
 * address's base, a vector's elements; an instruction that takes the carry (addc, subc,
 * madc) also reads what the block's last .cc instruction read, where it read it — the
 * definitions that may reach it; then each block's branch condition (a BRX's index) at the
 * block's end. A guarded write kills nothing. A register written once is not tracked: its
 * definition is taken to reach every read of it (a read on a path without it sees no value).
 * The others' definitions reach by forward dataflow to the least fixed point (gen/kill per
 * block, over the blocks' successors).
 */
#include <string.h>
#include "backend/be.h"

typedef struct {
	Fn *f;
	BeReach *r;
	const uint32_t *cur; /* definitions (bits) reaching the instruction being read */
} W;

/* definition d becomes the value of its register in the set s of reaching definitions
 * (guarded: one value more) */
static void gen(const BeReach *r, int d, int guarded, uint32_t *s)
{
	int g = r->dreg[d];

	if (r->bit[d] < 0)
		return;
	if (!guarded)
		for (int k = r->rdef[g]; k < r->rdef[g + 1]; k++)
			s[r->bit[r->rdefs[k]] >> 5] &= ~(1u << (r->bit[r->rdefs[k]] & 31));
	BSET(s, r->bit[d]);
}

/* a read of register g: the definitions of it in w->cur (all of its one) */
static void read_reg(W *w, int g)
{
	BeReach *r = w->r;
	BeRead *x = VPUSH(w->f->pool, r->rd, r->nrd, r->caprd);

	x->reg = g;
	x->sreg = -1;
	x->first = r->ndefs;
	for (int k = r->rdef[g]; k < r->rdef[g + 1]; k++) {
		int d = r->rdefs[k];
		if (r->bit[d] < 0 || BHAS(w->cur, r->bit[d]))
			*VPUSH(w->f->pool, r->defs, r->ndefs, r->capdefs) = d;
	}
	x->n = r->ndefs - x->first;
}

static void read_opd(W *w, const POpd *o)
{
	switch ((int)o->kind) {
	case POK_REG:
		read_reg(w, o->reg);
		break;
	case POK_ADDR:
		if (o->reg >= 0)
			read_reg(w, o->reg);
		break;
	case POK_SREG: {
		BeRead *x = VPUSH(w->f->pool, w->r->rd, w->r->nrd, w->r->caprd);
		x->reg = -1;
		x->sreg = o->sreg;
		x->first = x->n = 0;
		break;
	}
	case POK_VEC: case POK_LIST:
		for (int i = 0; i < o->nelems; i++)
			read_opd(w, &o->elems[i]);
		break;
	default:
		break;
	}
}

/* the reads of block b's instructions and branch condition, from the definitions reaching
 * its entry (cur, changed as the block's writes go) */
static void block_reads(W *w, int bi, uint32_t *cur, int cond)
{
	BeReach *r = w->r;
	const Blk *b = &w->f->blk[bi];
	const PFunc *pf = w->f->pf;
	int cc = -1, ncc = 0;   /* the reads of the block's last .cc instruction */

	w->cur = cur;
	for (int i = b->pfirst; i < b->plast && i < pf->nins; i++) {
		const PIns *in = &pf->ins[i];
		r->iread[i] = r->nrd;
		if (in->guard >= 0)
			read_reg(w, in->guard);
		for (int s = 0; s < in->nopd; s++)
			if (!ptx_ins_writes(in, s) || in->o[s].kind == POK_ADDR)
				read_opd(w, &in->o[s]);
		if ((ptx_ops[in->op].flags & PF_CARRY) && cc >= 0)
			for (int k = 0; k < ncc; k++)
				*VPUSH(w->f->pool, r->rd, r->nrd, r->caprd) = r->rd[cc + k];
		r->nread[i] = r->nrd - r->iread[i];
		if (in->m.flags & PMF_CC)
			cc = r->iread[i], ncc = r->nread[i];
		for (int d = r->idef[i]; d < r->idef[i + 1]; d++)
			gen(r, d, in->guard >= 0, cur);
	}
	if (cond >= 0) {
		r->bread[bi] = r->nrd;
		read_reg(w, cond);
	}
}

/* the k-th register instruction in writes (its destinations, a vector's or list's elements,
 * in operand order), -1 past the last */
int be_ins_dst(const PIns *in, int k)
{
	for (int s = 0; s < in->nopd; s++) {
		const POpd *o = &in->o[s];
		if (!ptx_ins_writes(in, s))
			continue;
		if (o->kind == POK_REG && k-- == 0)
			return o->reg;
		if (o->kind == POK_VEC || o->kind == POK_LIST)
			for (int i = 0; i < o->nelems; i++)
				if (o->elems[i].kind == POK_REG && k-- == 0)
					return o->elems[i].reg;
	}
	return -1;
}

/* the definitions of f (its live blocks' instructions), by instruction and by register */
static void number(Fn *f, BeReach *r, const int *blkof)
{
	const PFunc *pf = f->pf;
	int *at = be_alloc(f->pool, sizeof(int) * (size_t)(pf->nregs + 1)), nm = 0;

	for (int i = 0; i < pf->nins; i++) {
		r->idef[i] = r->nd;
		for (int k = 0; blkof[i] >= 0 && be_ins_dst(&pf->ins[i], k) >= 0; k++)
			r->nd++;
	}
	r->idef[pf->nins] = r->nd;
	r->dins = be_alloc(f->pool, sizeof(int) * (size_t)(3 * r->nd + 1));
	r->dreg = r->dins + r->nd;
	r->dblk = r->dreg + r->nd;
	r->bit = be_alloc(f->pool, sizeof(int) * (size_t)(2 * r->nd + 1));
	r->rdefs = r->bit + r->nd;
	for (int i = 0; i < pf->nins; i++)
		for (int d = r->idef[i], k = 0; d < r->idef[i + 1]; d++, k++) {
			r->dins[d] = i;
			r->dreg[d] = be_ins_dst(&pf->ins[i], k);
			r->dblk[d] = blkof[i];
			r->rdef[r->dreg[d] + 1]++;
		}
	for (int g = 0; g < pf->nregs; g++)
		r->rdef[g + 1] += r->rdef[g];
	memcpy(at, r->rdef, sizeof(int) * (size_t)pf->nregs);
	for (int d = 0; d < r->nd; d++)
		r->rdefs[at[r->dreg[d]]++] = d;
	for (int d = 0; d < r->nd; d++) {
		int g = r->dreg[d];
		r->bit[d] = r->rdef[g + 1] - r->rdef[g] > 1 ? nm++ : -1;
	}
	r->wm = BITS_WORDS(nm + 1);
}

/* the definitions reaching each live block's entry, to the least fixed point */
static void flow(Fn *f, BeReach *r)
{
	const PFunc *pf = f->pf;
	size_t wm = (size_t)r->wm, n = (size_t)f->nblk;
	uint32_t *gk = be_alloc(f->pool, sizeof(uint32_t) * (2 * n + 1) * wm);
	uint32_t *out = gk + 2 * n * wm;   /* (one block's at a time) */
	int changed = 1;

	r->reach = be_alloc(f->pool, sizeof(uint32_t) * (n + 1) * wm);
	for (size_t bi = 0; bi < n; bi++) {
		const Blk *b = &f->blk[bi];
		uint32_t *g = gk + 2 * bi * wm, *kill = g + wm;
		for (int i = b->pfirst; !b->dead && i < b->plast && i < pf->nins; i++)
			for (int d = r->idef[i]; d < r->idef[i + 1]; d++) {
				int reg = r->dreg[d];
				if (r->bit[d] < 0)
					continue;
				gen(r, d, pf->ins[i].guard >= 0, g);
				for (int k = r->rdef[reg]; pf->ins[i].guard < 0 && k < r->rdef[reg + 1]; k++)
					BSET(kill, r->bit[r->rdefs[k]]);
			}
	}
	while (changed) {
		changed = 0;
		for (size_t bi = 0; bi < n; bi++) {
			const Blk *b = &f->blk[bi];
			const uint32_t *g = gk + 2 * bi * wm, *kill = g + wm, *in = r->reach + bi * wm;
			if (b->dead)
				continue;
			for (size_t k = 0; k < wm; k++)
				out[k] = g[k] | (in[k] & ~kill[k]);
			for (int e = 0; e < be_nsucc(b); e++) {
				int s = be_succ(f, b, e);
				uint32_t *si = r->reach + (size_t)s * wm;
				for (size_t k = 0; s >= 0 && k < wm; k++)
					if (out[k] & ~si[k])
						si[k] |= out[k], changed = 1;
			}
		}
	}
}

BeReach *be_reach(Fn *f, int (*cond)(const Fn *, const Blk *))
{
	const PFunc *pf = f->pf;
	BeReach *r = be_alloc(f->pool, sizeof *r);
	int *blkof = be_alloc(f->pool, sizeof(int) * (size_t)(pf->nins + 1));
	uint32_t *cur;
	W w = {f, r, NULL};

	for (int i = 0; i < pf->nins; i++)
		blkof[i] = -1;
	for (int bi = 0; bi < f->nblk; bi++) {
		const Blk *b = &f->blk[bi];
		for (int i = b->pfirst; !b->dead && i < b->plast && i < pf->nins; i++) {
			if (blkof[i] >= 0)
				die("reach: a PTX instruction in two live blocks");
			blkof[i] = bi;
		}
	}
	r->idef = be_alloc(f->pool, sizeof(int) * (size_t)(3 * pf->nins + 1));
	r->iread = r->idef + pf->nins + 1;
	r->nread = r->iread + pf->nins;
	r->rdef = be_alloc(f->pool, sizeof(int) * (size_t)(pf->nregs + 2));
	r->bread = be_alloc(f->pool, sizeof(int) * (size_t)(f->nblk + 1));
	number(f, r, blkof);
	flow(f, r);
	cur = be_alloc(f->pool, sizeof(uint32_t) * (size_t)r->wm);
	for (int bi = 0; bi < f->nblk; bi++) {
		r->bread[bi] = -1;
		if (f->blk[bi].dead)
			continue;
		memcpy(cur, r->reach + (size_t)bi * (size_t)r->wm, sizeof(uint32_t) * (size_t)r->wm);
		block_reads(&w, bi, cur, cond(f, &f->blk[bi]));
	}
	return r;
}
