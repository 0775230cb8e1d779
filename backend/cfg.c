/* cfg.c - blocks and edges of one PTX function; reverse post-order; exit folding.
 *
 * be_cfg: needs the PTX body; makes a temporary per PTX register, one block per leader
 * (entry, label, instruction after a branch/ret/exit/trap), the terminators (Blk.jmp) and
 * predecessor lists. Guarded ret/exit become a branch to a shared empty exit block; brx.idx
 * and bra through a register become J_BRX over their possible targets; trap stays in the
 * body (BPT.TRAP), an unguarded one ending the block like exit.
 * be_rpo: needs edges; numbers reachable blocks in reverse post-order, kills the rest.
 * be_fold_exits: needs isel; a branch to an empty EXIT block becomes a guarded EXIT in
 * the branching block (Kepler's `@!P0 EXIT`); breaks dominators and post-dominators.
 */
#include <string.h>
#include "backend/be.h"

static int make_temps(Fn *f)
{
	const PFunc *pf = f->pf;

	f->regtmp = be_alloc(f->pool, sizeof(int) * (size_t)(pf->nregs + 1));
	/* the fixed temporaries */
	be_newtmp(f, TC_R);
	f->tmp[T_RZ].phys = ISA_RZ;
	be_newtmp(f, TC_P);
	f->tmp[T_PT].phys = ISA_PT;
	be_newtmp(f, TC_R);
	f->tmp[T_SP].phys = 1;
	for (int i = 0; i < pf->nregs; i++) {
		const PReg *r = &pf->regs[i];
		int t;
		if (r->vec > 1) {
			/* operands name its elements, the scalar registers after it (frontend) */
			f->regtmp[i] = -1;
			continue;
		}
		if (ptx_type_kind((PType)r->type) == PTK_OPAQUE) {
			be_errorf(f, r->loc, "unsupported: register '%s' of type %s", r->name,
			          ptx_type_name((PType)r->type));
			return -1;
		}
		t = be_newtmp(f, be_regcls(r->type));
		f->tmp[t].ptxreg = i;
		f->tmp[t].w16 = r->type != PT_PRED && ptx_type_bytes((PType)r->type) < 4;
		f->regtmp[i] = t;
	}
	return 0;
}

/* Indirect bra (bra %r{, tlist}): the labels it may reach, in value order, once each:
 * those of its .branchtargets list or jump table whose address is taken, or with no list
 * every label of the function whose address is taken. Fills lab (room for nlabels), returns
 * the count. The jump table of the BRX (isel_call.c, emit.c) maps each label value to its
 * place in this list. */
int be_ibra_targets(const PFunc *pf, const Module *m, const PIns *in, int *lab)
{
	const POpd *t = in->nopd >= 2 ? &in->o[1] : NULL;
	int n = 0;

	for (int i = 0; i < pf->nlabels; i++) {
		int in_list = 0;
		if (pf->labels[i].value < 0)
			continue;
		if (!t || t->kind == POK_NONE) {
			in_list = 1;
		} else if (t->kind == POK_TLIST) {
			const PTList *tl = &pf->tlists[t->sym];
			for (int k = 0; k < tl->ntargets; k++)
				in_list |= tl->targets[k] == i;
		} else if (t->kind == POK_SYM && t->symkind == PSYM_VAR) {
			const PVar *v = &m->vars[t->sym];
			for (int k = 0; k < v->ninit; k++)
				in_list |= v->init[k].kind == PINIT_LABEL && v->init[k].sym == i;
		}
		if (in_list)
			lab[n++] = i;   /* label order is value order */
	}
	return n;
}

/* The jump table of J_BRX block b: for each index (brx.idx) or label value (bra %r), the
 * place in b's target list (Fn.tl) of the block it goes to, or -1 when it goes nowhere.
 * Returns the number of entries; fills slot when not NULL. The table in bank 3 has one
 * more entry, where larger indexes and values are clamped; it holds 0xffffffff. */
int be_brx_table(const Fn *f, const Blk *b, int *slot)
{
	const PFunc *pf = f->pf;
	const PIns *in = &pf->ins[b->jmp.ptxins];
	int n = 0, nt, *lab;

	if (in->op == PO_BRX_IDX) {
		for (int i = 0; slot && i < b->jmp.ntl; i++)
			slot[i] = i;
		return b->jmp.ntl;
	}
	for (int i = 0; i < pf->nlabels; i++)
		n += pf->labels[i].value >= 0;
	if (!slot)
		return n;
	lab = be_alloc(f->pool, sizeof(int) * ((size_t)pf->nlabels + 1));
	nt = be_ibra_targets(pf, f->m, in, lab);
	if (nt != b->jmp.ntl)
		die("indirect bra: target list and jump table disagree");
	for (int v = 0; v < n; v++)
		slot[v] = -1;
	for (int k = 0; k < nt; k++)
		slot[pf->labels[lab[k]].value] = k;
	return n;
}

static int is_leader_after(const PIns *in)
{
	switch ((int)in->op) {
	case PO_BRA: case PO_BRX_IDX: case PO_RET: case PO_EXIT:
		return 1;
	case PO_TRAP:
		return in->guard < 0;   /* @p trap (BPT.TRAP) goes on; trap ends the path */
	default:
		return 0;
	}
}

/* the shared empty block that ends threads (J_EXIT) or returns (J_RET) */
static int exit_block(Fn *f, int kind, int *cache)
{
	if (*cache < 0) {
		*cache = be_newblk(f);
		f->blk[*cache].jmp.kind = (uint8_t)kind;
		f->blk[*cache].pfirst = f->blk[*cache].plast = f->pf->nins;
	}
	return *cache;
}

/* a new block from PTX instruction pfirst */
static void blk_at(Fn *f, int pfirst)
{
	int b = be_newblk(f);

	f->blk[b].pfirst = pfirst;
}

/* one block per leader (entry, label, instruction after a branch/ret/exit/trap), in PTX
 * order: a label at the very end makes a last empty block; a label on the first
 * instruction gets an empty entry block before it (the entry has no predecessor). Fills
 * Fn.lblblk. */
static void leaders(Fn *f)
{
	const PFunc *pf = f->pf;
	int *blkof = be_alloc(f->pool, sizeof(int) * ((size_t)pf->nins + 1)), nlead = 0;
	uint8_t *lead = be_alloc(f->pool, (size_t)pf->nins + 1);

	lead[0] = 1;
	for (int i = 0; i < pf->nlabels; i++)
		lead[pf->labels[i].pos] = 1;
	for (int i = 0; i < pf->nins; i++)
		if (is_leader_after(&pf->ins[i]))
			lead[i + 1] = 1;
	for (int k = 0; k < pf->nlabels; k++)
		if (pf->labels[k].pos == 0 && pf->nins > 0) {
			blk_at(f, 0);
			break;
		}
	for (int i = 0; i < pf->nins; i++)
		if (lead[i])
			blk_at(f, i);
	for (int k = 0; k < pf->nlabels; k++)
		nlead |= pf->labels[k].pos == pf->nins;
	if (nlead || pf->nins == 0)
		blk_at(f, pf->nins);
	for (int i = 0, b = 0; i <= pf->nins; i++) {
		while (b + 1 < f->nblk && f->blk[b + 1].pfirst <= i)
			b++;
		blkof[i] = b;
	}
	for (int k = 0; k < pf->nlabels; k++)
		if (pf->labels[k].pos == 0 && pf->nins > 0)
			blkof[0] = 1;
	f->lblblk = be_alloc(f->pool, sizeof(int) * ((size_t)pf->nlabels + 1));
	for (int i = 0; i < pf->nlabels; i++)
		f->lblblk[i] = blkof[pf->labels[i].pos];
}

/* brx.idx or an indirect bra (last, PTX instruction end - 1) ending block bi: the J_BRX
 * block over its possible targets is bi itself (returns -2) or, when it is guarded, a new
 * block the guard branches to (returns its id); -1 after a located error */
static int indirect(Fn *f, int bi, int end, const PIns *last)
{
	const PFunc *pf = f->pf;
	int nb, ntl, *lab;
	Blk *x;

	if (last->op == PO_BRX_IDX && last->o[1].kind != POK_TLIST) {
		be_errorf(f, last->loc, "brx.idx needs a .branchtargets list");
		return -1;
	}
	/* brx.idx: the list's labels in order; bra %r: the labels it may reach */
	lab = be_alloc(f->pool, sizeof(int) * ((size_t)pf->nlabels + 1));
	if (last->op == PO_BRX_IDX) {
		const PTList *tl = &pf->tlists[last->o[1].sym];
		ntl = tl->ntargets;
		memcpy(lab, tl->targets, sizeof(int) * (size_t)ntl);
	} else if ((ntl = be_ibra_targets(pf, f->m, last, lab)) == 0) {
		be_errorf(f, last->loc, "indirect bra with no possible target: no label of its "
		          "list has its address taken");
		return -1;
	}
	/* @p brx.idx: a branch around a block holding the brx */
	nb = last->guard >= 0 ? be_newblk(f) : bi;
	x = &f->blk[nb];
	x->jmp.kind = J_BRX;
	x->jmp.ptxins = end - 1;
	x->jmp.cond = last->o[0].kind == POK_REG ? f->regtmp[last->o[0].reg] : -1;
	x->jmp.uni = (last->m.flags & PMF_UNI) != 0;
	x->jmp.tl = f->ntl;
	x->jmp.ntl = ntl;
	if (nb != bi)
		x->pfirst = x->plast = end - 1;
	for (int k = 0; k < ntl; k++)
		*VPUSH(f->pool, f->tl, f->ntl, f->captl) = f->lblblk[lab[k]];
	if (x->jmp.cond < 0) {
		be_errorf(f, last->o[0].loc, "unsupported: brx.idx with an immediate index");
		return -1;
	}
	return nb == bi ? -2 : nb;
}

int be_cfg(Fn *f)
{
	const PFunc *pf = f->pf;
	int exitb = -1, retb = -1, endkind, nbody;

	if (make_temps(f) < 0)
		return -1;
	endkind = pf->entry ? J_EXIT : J_RET;
	leaders(f);
	nbody = f->nblk;
	for (int bi = 0; bi < nbody; bi++) {
		Blk *b = &f->blk[bi];
		int end = bi + 1 < nbody ? f->blk[bi + 1].pfirst : pf->nins;
		int next = bi + 1 < nbody ? bi + 1 : -1;
		const PIns *last = end > b->pfirst ? &pf->ins[end - 1] : NULL;

		b->plast = end;
		if (!last || !is_leader_after(last)) {
			if (next >= 0) {
				b->jmp.kind = J_JMP;
				b->s1 = next;
			} else {
				b->jmp.kind = (uint8_t)endkind;
			}
			continue;
		}
		b->plast = end - 1;
		b->jmp.ptxins = end - 1;
		int target = -1;
		switch ((int)last->op) {
		case PO_BRX_IDX: case PO_BRA:
			if (last->op == PO_BRA && last->o[0].kind == POK_LABEL)
				target = f->lblblk[last->o[0].sym];
			else if ((target = indirect(f, bi, end, last)) == -1)
				return -1;
			break;
		case PO_RET:
			target = exit_block(f, endkind, endkind == J_EXIT ? &exitb : &retb);
			break;
		case PO_EXIT:
			target = exit_block(f, J_EXIT, &exitb);
			break;
		case PO_TRAP:
			/* trap: BPT.TRAP in the body (isel), then the block ends the thread */
			b->plast = end;
			b->jmp.kind = J_EXIT;
			continue;
		default:
			die("not a branch");
		}
		b = &f->blk[bi];
		if (target == -2)
			continue;  /* unguarded brx: the block itself */
		if (last->guard >= 0) {
			if (next < 0)
				next = exit_block(f, endkind, endkind == J_EXIT ? &exitb : &retb);
			b = &f->blk[bi];
			b->jmp.kind = J_BRA;
			b->jmp.cond = f->regtmp[last->guard];
			b->jmp.neg = last->gneg;
			b->jmp.uni = (last->m.flags & PMF_UNI) != 0;
			b->s1 = target;
			b->s2 = next;
		} else if ((POp)last->op == PO_RET || (POp)last->op == PO_EXIT) {
			b->jmp.kind = (uint8_t)((POp)last->op == PO_EXIT ? J_EXIT : endkind);
		} else {
			b->jmp.kind = J_JMP;
			b->s1 = target;
		}
	}
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = &f->blk[i];
		if (b->jmp.kind == J_BRA && b->s1 == b->s2) {
			b->jmp.kind = J_JMP;
			b->s2 = -1;
		}
	}
	be_preds(f);
	return 0;
}

void be_rpo(Fn *f)
{
	int n = f->nblk, sp = 0, num;
	int *stk = be_alloc(f->pool, sizeof(int) * (size_t)(n + 1) * 2);
	int *post = be_alloc(f->pool, sizeof(int) * (size_t)n);
	uint8_t *seen = be_alloc(f->pool, (size_t)n);
	int npost = 0;

	/* iterative DFS; s2 (fall-through) is visited last so it comes first in RPO */
	stk[sp++] = 0;
	seen[0] = 1;
	int *nexti = be_alloc(f->pool, sizeof(int) * (size_t)n);
	while (sp) {
		int b = stk[sp - 1];
		Blk *B = &f->blk[b];
		int s = -1;
		while (s < 0) {
			int k = nexti[b]++;
			int cand;
			if (B->jmp.kind == J_BRX) {
				if (k >= B->jmp.ntl)
					break;
				cand = f->tl[B->jmp.tl + B->jmp.ntl - 1 - k];
			} else if (k == 0) {
				cand = B->s1;
			} else if (k == 1) {
				cand = B->s2;
			} else {
				break;
			}
			if (cand >= 0 && !seen[cand]) {
				seen[cand] = 1;
				s = cand;
			}
		}
		if (s >= 0)
			stk[sp++] = s;
		else
			post[npost++] = stk[--sp];
	}
	num = 0;
	for (int i = 0; i < n; i++)
		f->blk[i].rpo = -1;
	for (int i = npost - 1; i >= 0; i--)
		f->blk[post[i]].rpo = num++;
	for (int i = 0; i < n; i++)
		if (!seen[i])
			f->blk[i].dead = 1;
	be_preds(f);
}

/* an empty block that only ends the thread */
static int is_exit_only(const Fn *f, int b)
{
	return b >= 0 && f->blk[b].jmp.kind == J_EXIT && f->blk[b].nins == 0;
}

/* an empty block of a .func that only returns, under --early-return guarded: ptxas 11.8
 * for sm_35 makes a branch to it a guarded RET whether the branch is divergent or uniform,
 * and whatever else reaches that return (tests/ptx/ret_fold: clang's `if (n < 1) return;`
 * before a loop in dwt2d's transform functions) */
static int is_ret_only(const Fn *f, int b)
{
	return b >= 0 && f->blk[b].jmp.kind == J_RET && f->blk[b].nins == 0 && !f->pf->entry &&
	       f->opt->early_return == BE_RET_GUARDED;
}

/* b's jump back is emitted before its EXIT (emit.c) and logged so (log.c): a kept back edge
 * whose block still ends with the fold's guarded EXIT and whose jump back is no arrival */
int be_kept_back(const Blk *b)
{
	return b->jmp.folded == 3 && b->jmp.kind == J_JMP && b->jmp.ptxins >= 0 && !b->arrive1 &&
	       b->nins > 0 && b->ins[b->nins - 1].op == OP_EXIT && b->ins[b->nins - 1].guard != T_PT;
}

/* A loop's back edge whose fall-through only ends the thread (`@p bra head; ret`) folds like
 * any other (the EXIT guarded by !p, then a jump to the head) and is marked folded 3: under
 * --loop-sync pbk emit.c lays it out as ptxas 11.8 for sm_35 does, `@P BRA head; EXIT`, with
 * no token for it, divergent or not, the lanes that leave at a divergent trip waiting on the
 * branch's DIV token until it pops (tests/ptx/loop_to_exit). clang's form of that latch,
 * `@p bra head; bra.uni end; head:`, is `@!P EXIT` falling into the head, as ptxas lays it
 * (folded 1: tests/ptx/latch_jump). The analyses see the fold. */
void be_fold_exits(Fn *f)
{
	be_rpo(f);   /* (a back edge goes to a block no later in reverse post-order) */
	/* the jumps first, so that a branch whose side is a jump to the end (clang's `@p bra
	 * head; bra.uni end`, end only `ret`) sees that side end the thread */
	uint8_t *jump = be_alloc(f->pool, (size_t)f->nblk + 1);
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = &f->blk[i];
		if (!b->dead && b->jmp.kind == J_JMP && is_exit_only(f, b->s1) && b->s1 != i) {
			b->jmp.kind = J_EXIT;
			b->s1 = -1;
			jump[i] = 1;
		}
	}
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = &f->blk[i];
		if (b->dead)
			continue;
		if (b->jmp.kind == J_BRA && (is_exit_only(f, b->s1) || is_exit_only(f, b->s2) ||
		                                    is_ret_only(f, b->s1) || is_ret_only(f, b->s2))) {
			int ret = !is_exit_only(f, b->s1) && !is_exit_only(f, b->s2);
			int taken = ret ? is_ret_only(f, b->s1) : is_exit_only(f, b->s1);
			/* (`@p bra head; bra.uni end; head:`, the end a jump folded above and the head
			 * laid out after it, is `@!P EXIT` falling into the head, as ptxas lays it) */
			int over = b->s2 >= 0 && jump[b->s2] && b->s1 == b->s2 + 1;
			int back = !ret && !taken && !over && f->opt->loop_sync == BE_LOOP_PBK && b->s1 >= 0 &&
			           f->blk[b->s1].rpo <= b->rpo;
			MIns *in = be_emit(f, b, ret ? OP_RET : OP_EXIT);
			const PIns *p = b->jmp.ptxins >= 0 ? &f->pf->ins[b->jmp.ptxins] : NULL;
			in->guard = b->jmp.cond;
			in->gneg = (uint8_t)(taken ? b->jmp.neg : !b->jmp.neg);
			if (p) {
				in->ptxline = p->loc.line;
				in->srcline = p->srcline;
				in->srcfile = (int16_t)p->srcfile;
			}
			b->jmp.kind = J_JMP;
			b->s1 = taken ? b->s2 : b->s1;
			b->s2 = -1;
			b->jmp.div = 0;
			b->jmp.folded = (uint8_t)(ret ? 2 : back ? 3 : taken ? 1 : 4);
		}
	}
	be_rpo(f);
}
