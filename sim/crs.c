/* crs.c - the warp's control flow on its CallReturnStack (docs/isa.md has the rules, each
 * pinned by a test in tests/unit/test_sim_crs.c): token pushes (SSY PBK PCNT PRET PEXIT),
 * divergent branches (BRA taken side first, BRX/JCAL grouped by target), lanes leaving for a
 * token further down (.S arrival, BRK, CONT, RET), EXIT, the unwinding that runs when no lane
 * is active, and CTA barriers (BAR, BAR.RED) with exited threads counted as arrived.
 * The stack holds --crs-depth tokens on chip; a push beyond that spills one token to the
 * warp's CRS area in local memory (--crs-bytes, 8 bytes a token), a pop that leaves a spilled
 * token on top of the on-chip part fills it back (ExecInfo.spills/fills, which the timing
 * charges as local-memory traffic). Only a full area is an error. */
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "sim/machine.h"

static const char *tkname[] = {"SYNC", "DIV", "BRK", "CONT", "CAL", "PRET", "PEXIT"};

/* one token spilled or filled at slot of the warp's area */
static void spill_fill(ExecInfo *e, uint8_t *count, int slot)
{
	if (!e->spills && !e->fills)
		e->crs_slot = (uint32_t)slot;
	else if ((uint32_t)slot < e->crs_slot)
		e->crs_slot = (uint32_t)slot;
	if (*count < UINT8_MAX)
		(*count)++;
}

/* a token onto the warp's stack, which has room for it */
static void put(Gpu *g, Warp *w, int kind, uint32_t pc, uint32_t mask)
{
	w->crs[w->ncrs].kind = (uint8_t)kind;
	w->crs[w->ncrs].pc = pc;
	w->crs[w->ncrs].mask = mask;
	w->ncrs++;
	if (w->ncrs > g->st.crs_high)
		g->st.crs_high = w->ncrs;
}

static int push(Gpu *g, Warp *w, int kind, uint32_t pc, uint32_t mask, ExecInfo *e)
{
	int depth = g->cfg.tc.crs_depth, slots = (int)(g->crsbytes / CRS_TOKEN_BYTES);

	if (w->ncrs >= depth + slots)
		return sim_fault(g, w, -1, SIM_FAULT, "CallReturnStack full pushing a %s token: "
		                 "%d tokens on chip (--crs-depth) and %d spilled to the warp's %d bytes of "
		                 "local memory (--crs-bytes)", tkname[kind], depth,
		                 slots, g->crsbytes);
	if (w->ncrs >= w->crscap) {
		int cap = w->crscap ? w->crscap * 2 : depth;
		if (cap > depth + slots)
			cap = depth + slots;
		Token *t = realloc(w->crs, (size_t)cap * sizeof *t);
		if (!t)
			return sim_fault(g, w, -1, SIM_FAULT, "out of memory for a CallReturnStack of %d tokens", cap);
		w->crs = t;
		w->crscap = cap;
	}
	if (w->ncrs >= depth)
		spill_fill(e, &e->spills, w->ncrs - depth);
	put(g, w, kind, pc, mask);
	e->pushed++;
	return SIM_OK;
}

/* the token an op pushes: SSY PBK PCNT PRET PEXIT, and a DIV token for a BRA that splits */
static int push_kind(int op)
{
	switch (op) {
	case OP_SSY: return TK_SYNC;
	case OP_PBK: return TK_BRK;
	case OP_PCNT: return TK_CONT;
	case OP_PRET: return TK_PRET;
	case OP_PEXIT: return TK_PEXIT;
	default: return TK_DIV;
	}
}

int sim_push_chip(Gpu *g, Warp *w, int op, uint32_t pc, uint32_t mask)
{
	if (w->ncrs >= g->cfg.tc.crs_depth || w->ncrs >= w->crscap)
		return -1;
	put(g, w, push_kind(op), pc, mask);
	return 0;
}

/* the topmost token of kind k (or k2), or -1 */
static int find(const Warp *w, int k, int k2)
{
	for (int i = w->ncrs - 1; i >= 0; i--)
		if (w->crs[i].kind == k || w->crs[i].kind == k2)
			return i;
	return -1;
}

/* lanes leave for token i: out of active and out of every token above it */
static void leave(Warp *w, int i, uint32_t lanes)
{
	for (int j = i + 1; j < w->ncrs; j++)
		w->crs[j].mask &= ~lanes;
	w->active &= ~lanes;
}

void sim_diverge(Gpu *g, ExecInfo *e, int kind)
{
	if (e->diverged == DIV_NONE) {
		e->diverged = (uint8_t)kind;
		g->st.div_branches++;
	}
}

int sim_arrive_sync(Gpu *g, Warp *w, uint32_t lanes)
{
	int i;

	if (!lanes)
		return SIM_OK;
	if ((i = find(w, TK_SYNC, TK_SYNC)) < 0)
		return sim_fault(g, w, -1, SIM_MALFORMED, "'.S' with no SYNC token on the CallReturnStack "
		                 "(lanes 0x%08x arrive at no sync point)", lanes);
	leave(w, i, lanes);
	return SIM_OK;
}

/* the barrier is satisfied: its waiting warps run again, BAR.RED results are written */
static void release(Gpu *g, Cta *c, Barrier *b)
{
	uint32_t v = b->red == SUB_POPC ? b->popc : b->red == SUB_AND ? b->nfalse == 0 : b->popc > 0;

	for (int i = 0; i < c->nwarps; i++)
		if (b->waiting >> i & 1) {
			Warp *x = &c->w[i];
			x->state = W_READY;
			if (x->bar_dst != NO_ROW)
				for (uint32_t m = x->bar_lanes; m; m &= m - 1)
					x->r[(size_t)x->bar_dst * 32 + __builtin_ctz(m)] = v;
			x->bar_dst = NO_ROW;
		}
	memset(b, 0, sizeof *b);
	g->st.barriers++;
}

void sim_count_exits(Gpu *g, Warp *w, uint32_t lanes)
{
	uint32_t fresh = lanes & w->lanes & ~w->counted;
	Cta *c = w->cta;

	if (!fresh)
		return;
	w->counted |= fresh;
	c->nexited += (uint32_t)__builtin_popcount(fresh);
	/* exited threads may be all that a barrier on every thread still waits for */
	for (int b = 0; b < 16; b++)
		if (c->bar[b].waiting && c->bar[b].arrived + c->nexited >=
		    (c->bar[b].expected ? c->bar[b].expected : c->nthreads))
			release(g, c, &c->bar[b]);
}

void sim_exit(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	w->exited |= ex;
	w->active &= ~ex;
	if (d->m.flags & MF_KEEPREF)
		w->cta->keep = 1;
	sim_count_exits(g, w, ex);
}

int sim_unwind(Gpu *g, Warp *w, ExecInfo *e)
{
	while (!w->active) {
		Token t;
		uint32_t m;

		if (w->ncrs == 0) {
			uint32_t lost = w->lanes & ~w->exited;
			if (lost)
				return sim_fault(g, w, -1, SIM_MALFORMED, "lanes 0x%08x are on no CallReturnStack "
				                 "token and have not exited (the CRS is empty)", lost);
			sim_warp_done(g, w);
			e->event = EV_WARP_DONE;
			return SIM_OK;
		}
		t = w->crs[--w->ncrs];
		e->popped++;
		if (w->ncrs >= g->cfg.tc.crs_depth)
			spill_fill(e, &e->fills, w->ncrs - g->cfg.tc.crs_depth);
		if (t.kind == TK_PEXIT) {
			if ((w->exited & w->lanes) != w->lanes)
				return sim_fault(g, w, -1, SIM_MALFORMED, "lanes 0x%08x reached a PEXIT token "
				                 "without exiting", w->lanes & ~w->exited);
			/* every lane exited: the post-amble runs with the token's lanes */
			w->active = t.mask & w->lanes;
			w->exited &= ~w->active;
			w->post = 1;
			w->pc = t.pc;
			continue;
		}
		m = t.mask & ~w->exited;
		if (m) {
			w->active = m;
			w->pc = t.pc;
			if (t.kind == TK_SYNC) {
				e->reconverged = 1;
				g->st.reconvergences++;
			}
		}
	}
	return SIM_OK;
}

/* the code index lane l goes to: the address in Ra (Kepler's BRX Ra off: Ra + the address
 * after the branch + off) */
static int lane_target(Gpu *g, Warp *w, const DIns *d, unsigned l, uint32_t *idx)
{
	uint32_t a = w->r[(size_t)d->o[0].reg * 32 + l];
	int i = -1;

	if (d->o[0].flags & OPF_REL)
		a += d->in->addr + 8 + (uint32_t)d->o[0].imm;
	if ((i = isa_kernel_index(g->k, a)) < 0)
		return sim_fault(g, w, (int)l, SIM_FAULT, "indirect %s to 0x%x, which is not an "
		                 "instruction of the kernel", d->op == OP_JCAL ? "call" : "branch", a);
	if (d->o[1].kind == DK_TLIST) {
		int ok = 0;
		for (int t = 0; t < d->o[1].n; t++)
			ok |= g->tl[d->o[1].imm + t] == (uint32_t)i;
		if (!ok)
			return sim_fault(g, w, (int)l, SIM_FAULT, "indirect %s to 0x%x, which is not in its "
			                 "target list", d->op == OP_JCAL ? "call" : "branch", a);
	}
	*idx = (uint32_t)i;
	return SIM_OK;
}

/* BRX and JCAL: lanes grouped by target; the group of the lowest lane runs first, then the
 * group of the next lowest lane not yet placed, and so on (DIV tokens, pushed in reverse);
 * guard-false lanes fall through after all groups (JCAL: the groups are calls returning to a
 * CAL token of all calling lanes) */
static int indirect(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e)
{
	uint32_t tgt[32], gmask[32], gpc[32], left = ex, rest = e->active & ~ex, next = w->pc;
	int ng = 0, rc;

	if (!ex)
		return SIM_OK;
	for (uint32_t m = ex; m; m &= m - 1)
		if ((rc = lane_target(g, w, d, (unsigned)__builtin_ctz(m), &tgt[__builtin_ctz(m)])))
			return rc;
	while (left) {
		unsigned l = (unsigned)__builtin_ctz(left);
		uint32_t gm = 0;
		for (uint32_t m = left; m; m &= m - 1)
			if (tgt[__builtin_ctz(m)] == tgt[l])
				gm |= 1u << __builtin_ctz(m);
		gmask[ng] = gm;
		gpc[ng++] = tgt[l];
		left &= ~gm;
	}
	if (rest && (rc = push(g, w, TK_DIV, next, rest, e)))
		return rc;
	if (d->op == OP_JCAL && (rc = push(g, w, TK_CAL, next, ex, e)))
		return rc;
	for (int i = ng - 1; i >= 1; i--)
		if ((rc = push(g, w, TK_DIV, gpc[i], gmask[i], e)))
			return rc;
	if (ng > 1 || rest)
		sim_diverge(g, e, DIV_BRX);
	w->active = gmask[0];
	w->pc = gpc[0];
	return SIM_OK;
}

/* BRK, CONT, RET: lanes leave for the topmost token of their kind; lanes left behind make
 * it a divergence of kind div */
static int leave_for(Gpu *g, Warp *w, uint32_t ex, int k, int k2, const char *what,
                     ExecInfo *e, int div)
{
	int i;

	if (!ex)
		return SIM_OK;
	if ((i = find(w, k, k2)) < 0)
		return sim_fault(g, w, -1, SIM_MALFORMED, "%s", what);
	leave(w, i, ex);
	if (w->active)
		sim_diverge(g, e, div);
	return SIM_OK;
}

int sim_ctrl(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e)
{
	uint32_t act = e->active, next = w->pc;
	int rc;

	switch ((int)d->op) {
	case OP_SSY:
	case OP_PBK:
	case OP_PCNT:
	case OP_PRET:
	case OP_PEXIT:
		return push(g, w, push_kind(d->op), d->target, act, e);
	case OP_BRA:
		if (ex == act) {
			w->pc = d->target;
		} else if (ex) {
			/* taken side first; the others wait in a DIV token at the fall-through */
			if ((rc = push(g, w, TK_DIV, next, act & ~ex, e)))
				return rc;
			w->active = ex;
			w->pc = d->target;
			sim_diverge(g, e, DIV_BRA);
		}
		return SIM_OK;
	case OP_BRX:
	case OP_JCAL:
		return indirect(g, w, d, ex, e);
	case OP_CAL:
		if (!ex)
			return SIM_OK;
		if (ex != act) {
			if ((rc = push(g, w, TK_DIV, next, act & ~ex, e)))
				return rc;
			sim_diverge(g, e, DIV_BRA);
		}
		if ((rc = push(g, w, TK_CAL, next, ex, e)))
			return rc;
		w->active = ex;
		w->pc = d->target;
		return SIM_OK;
	case OP_BRK:
		return leave_for(g, w, ex, TK_BRK, TK_BRK, "BRK with no BRK token (PBK) on the "
		                 "CallReturnStack", e, DIV_BRK);
	case OP_CONT:
		return leave_for(g, w, ex, TK_CONT, TK_CONT, "CONT with no CONT token (PCNT) on the "
		                 "CallReturnStack", e, DIV_CONT);
	case OP_RET:
		return leave_for(g, w, ex, TK_CAL, TK_PRET, "RET with no CAL or PRET token on the "
		                 "CallReturnStack", e, DIV_RET);
	case OP_EXIT:
		if (!ex)
			return SIM_OK;
		sim_exit(g, w, d, ex);
		e->event = EV_EXIT;
		if (w->active)
			sim_diverge(g, e, DIV_EXIT);
		return SIM_OK;
	default:
		return sim_fault(g, w, -1, SIM_MALFORMED, "internal: %s is not a control op", isa_ops[d->op].name);
	}
}

/* BAR.SYNC/.ARV a{, b} and BAR.RED.POPC|AND|OR d, a{, b}{, c}: the warp arrives with all its
 * threads that have not exited; the barrier completes when arrived + exited threads reach b
 * (every thread of the CTA without b) */
int sim_barrier(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e)
{
	Cta *c = w->cta;
	int red = d->op == OP_BARRED;
	const DOpd *ao = &d->o[red ? 1 : 0], *bo = &d->o[red ? 2 : 1];
	unsigned l = (unsigned)__builtin_ctz(ex ? ex : 1);
	uint32_t id, cnt = 0, threads;
	Barrier *b;

	if (!ex)
		return SIM_OK;
	id = ao->kind == DK_REG ? w->r[(size_t)ao->reg * 32 + l] : (uint32_t)ao->imm;
	if (bo->kind != DK_NONE)
		cnt = bo->kind == DK_REG ? w->r[(size_t)bo->reg * 32 + l] : (uint32_t)bo->imm;
	if (id > 15)
		return sim_fault(g, w, (int)l, SIM_FAULT, "barrier %u does not exist (0..15)", id);
	b = &c->bar[id];
	if ((b->arrived || b->waiting) && b->expected != cnt)
		return sim_fault(g, w, (int)l, SIM_FAULT, "barrier %u used with %u threads while "
		                 "pending with %u", id, cnt, b->expected);
	b->expected = cnt;
	threads = (uint32_t)__builtin_popcount(w->lanes & ~w->counted);
	b->arrived += threads;
	w->bar_dst = NO_ROW;
	if (red) {
		uint32_t p = d->o[3].kind == DK_PRED ? w->p[d->o[3].reg] : ~0u;
		if (d->o[3].kind == DK_PRED && (d->o[3].flags & OPF_NOT))
			p = ~p;
		b->red = (Sub)d->m.sub;
		b->popc += (uint32_t)__builtin_popcount(p & ex);
		b->nfalse += (uint32_t)__builtin_popcount(~p & ex);
		w->bar_dst = d->o[0].reg;
		w->bar_lanes = ex;
	}
	if (d->m.sub != SUB_ARV) {
		b->waiting |= 1ull << w->idx;
		w->state = W_BAR;
		w->bar = (int)id;
		w->bar_pc = w->pc - 1;
		e->event = EV_BAR_WAIT;
	}
	if (b->arrived + c->nexited >= (cnt ? cnt : c->nthreads)) {
		release(g, c, b);
		e->event = EV_BAR_RELEASE;
	}
	return SIM_OK;
}
