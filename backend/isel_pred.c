/* isel_pred.c - predicate folding after instruction selection (be_isel calls it): nvcc's
 * `mov.pred %p3, 0; xor.pred %p4, %p2, %p3; not.pred %p5, %p4; @%p5 bra` is three PSETPs
 * and a branch, where `@!P(p2) bra` says the same.
 *
 * Within each block, in order, an unguarded PSETP whose result reduces to a constant (PT,
 * !PT) or to a literal (a predicate temporary, maybe negated) - `x XOR false = x`,
 * `x AND true = x`, `x AND x = x`, ... - becomes a plain copy, and the fact "d is that
 * literal" holds until d or the literal's temporary is written again. Later PSETP sources,
 * instruction guards and the block's branch condition that read d read the literal instead.
 * Then PSETPs whose results nobody reads anywhere in the function are deleted (repeatedly:
 * a deleted copy may leave its source unread). Nothing else changes, so every rewrite is
 * an identity on the values the program observes.
 */
#include <string.h>
#include "backend/be.h"

typedef struct {
	int t;            /* the temporary, T_PT for a constant */
	int neg;          /* negated: with T_PT, 1 means false */
} Lit;

typedef struct {
	Fn *f;
	Lit *val;         /* per temporary: what it equals now (t < 0: unknown) */
	int *set;         /* temporaries with a known value in this block */
	int nset;
} Fold;

static int isdst(const MIns *in, int i)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
	return i < si->n && si->dst[i];
}

static Lit lit_of(const MOpd *o)
{
	Lit l = {o->t, (o->flags & OPF_NOT) != 0};
	return l;
}

/* d is written: forget what it was and what was known to equal it */
static void kill(Fold *s, int d)
{
	int k = 0;

	for (int i = 0; i < s->nset; i++) {
		int t = s->set[i];
		if (t == d || s->val[t].t == d)
			s->val[t].t = -1;
		else
			s->set[k++] = t;
	}
	s->nset = k;
}

/* a source literal through what is known: a copy reads its source */
static Lit look(Fold *s, Lit l)
{
	if (l.t >= T_FIRST && s->val[l.t].t >= 0) {
		Lit v = s->val[l.t];
		v.neg ^= l.neg;
		return v;
	}
	return l;
}

/* x op y as one literal, or 0 when it takes a real PSETP */
static int combine(Bop op, Lit x, Lit y, Lit *r)
{
	if (y.t == T_PT) {   /* constants on the right */
		Lit t = x;
		x = y;
		y = t;
	}
	if (x.t == T_PT && y.t == T_PT) {
		int a = !x.neg, b = !y.neg, v = op == BOP_OR ? a | b : op == BOP_XOR ? a ^ b : a & b;
		r->t = T_PT;
		r->neg = !v;
		return 1;
	}
	if (x.t == T_PT) {   /* a constant and a literal */
		int a = !x.neg;
		*r = y;
		if (op == BOP_XOR)
			r->neg ^= a;
		else if ((op == BOP_OR) == a)
			*r = x;      /* x OR true, x AND false: the constant */
		return 1;
	}
	if (x.t != y.t)
		return 0;
	if (x.neg == y.neg && op != BOP_XOR) {
		*r = x;          /* x AND x, x OR x */
		return 1;
	}
	r->t = T_PT;         /* x XOR x is false; x XOR !x, x OR !x true; x AND !x false */
	r->neg = op == BOP_XOR ? x.neg == y.neg : op != BOP_OR;
	return 1;
}

static void fold_block(Fold *s, Blk *b)
{
	for (int i = 0; i < b->nins; i++) {
		MIns *in = &b->ins[i];
		Lit r, ab;

		if (in->guard >= T_FIRST) {
			Lit g = look(s, (Lit){in->guard, in->gneg});
			if (g.t != T_PT) {
				in->guard = g.t;
				in->gneg = (uint8_t)g.neg;
			}
		}
		if (in->op == OP_PSETP)
			for (int k = 2; k < in->nopd; k++) {
				Lit l = look(s, lit_of(&in->o[k]));
				in->o[k] = be_pn(l.t, l.neg);
			}
		if (in->op == OP_PSETP && in->guard == T_PT && in->o[1].t == T_PT && in->nopd == 5 &&
		    combine(in->m.bop ? (Bop)in->m.bop : BOP_AND, lit_of(&in->o[2]), lit_of(&in->o[3]), &ab) &&
		    combine(in->m.bop2 ? (Bop)in->m.bop2 : BOP_AND, ab, lit_of(&in->o[4]), &r)) {
			int d = in->o[0].t;
			in->m.bop = in->m.bop2 = BOP_AND;
			in->o[2] = be_pn(r.t, r.neg);
			in->o[3] = in->o[4] = be_p(T_PT);
			kill(s, d);
			if (d >= T_FIRST && r.t != d) {
				s->val[d] = r;
				s->set[s->nset++] = d;
			}
			continue;
		}
		for (int k = 0; k < in->nopd; k++)
			if (isdst(in, k) && in->o[k].kind == OPD_PRED && in->o[k].t >= T_FIRST)
				kill(s, in->o[k].t);
	}
	if (b->jmp.kind == J_BRA && b->jmp.cond >= T_FIRST) {
		/* uniform.c judges the branch by its condition's PTX register: keep one */
		Lit c = look(s, (Lit){b->jmp.cond, b->jmp.neg});
		if (c.t != T_PT && s->f->tmp[c.t].ptxreg >= 0) {
			b->jmp.cond = c.t;
			b->jmp.neg = (uint8_t)c.neg;
		}
	}
	for (int i = 0; i < s->nset; i++)
		s->val[s->set[i]].t = -1;
	s->nset = 0;
}

/* reads of every temporary in the function (add: +1 or -1 per read of in) */
static void count(const MIns *in, int *uses, int add)
{
	if (in->guard >= T_FIRST)
		uses[in->guard] += add;
	for (int k = 0; k < in->nopd; k++) {
		const MOpd *o = &in->o[k];
		if (o->t < T_FIRST)
			continue;
		if (((o->kind == OPD_REG || o->kind == OPD_PRED) && !isdst(in, k)) ||
		    o->kind == OPD_MEM || o->kind == OPD_CONST || o->kind == OPD_TLIST)
			uses[o->t] += add;
	}
}

static int unread(const MIns *in, const int *uses)
{
	if (in->op != OP_PSETP)
		return 0;
	for (int k = 0; k < 2 && k < in->nopd; k++)
		if (in->o[k].t >= T_FIRST && uses[in->o[k].t])
			return 0;
	return 1;
}

void be_fold_preds(Fn *f)
{
	Fold s = {f, be_alloc(f->pool, sizeof(Lit) * (size_t)f->ntmp),
	          be_alloc(f->pool, sizeof(int) * (size_t)f->ntmp), 0};
	int *uses = be_alloc(f->pool, sizeof(int) * (size_t)f->ntmp), changed = 1;

	for (int t = 0; t < f->ntmp; t++)
		s.val[t].t = -1;
	for (int bi = 0; bi < f->nblk; bi++)
		if (!f->blk[bi].dead)
			fold_block(&s, &f->blk[bi]);
	for (int bi = 0; bi < f->nblk; bi++) {
		Blk *b = &f->blk[bi];
		if (b->dead)
			continue;
		for (int i = 0; i < b->nins; i++)
			count(&b->ins[i], uses, 1);
		if ((b->jmp.kind == J_BRA || b->jmp.kind == J_BRX) && b->jmp.cond >= T_FIRST)
			uses[b->jmp.cond]++;
	}
	while (changed) {
		changed = 0;
		for (int bi = 0; bi < f->nblk; bi++) {
			Blk *b = &f->blk[bi];
			int k = 0;
			if (b->dead)
				continue;
			for (int i = 0; i < b->nins; i++) {
				if (unread(&b->ins[i], uses)) {
					count(&b->ins[i], uses, -1);
					changed = 1;
					continue;
				}
				b->ins[k++] = b->ins[i];
			}
			/* be_emit expects fresh slots zeroed */
			if (k < b->nins)
				memset(&b->ins[k], 0, sizeof *b->ins * (size_t)(b->nins - k));
			b->nins = k;
		}
	}
}
