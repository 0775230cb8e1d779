/* verify.c - invariants of emitted microcode, checked on any Kernel (be_verify_kernel).
 *
 * An abstract run of the SYNC, BRK and CONT part of the CallReturnStack over every path: SSY,
 * PBK and PCNT push their target; an instruction with .S (a BRK, a CONT) sends its
 * (guard-true) lanes to the innermost target, which must be an SSY's (a PBK's, a PCNT's), and
 * pops it (a BRK may pass SSY tokens above its PBK's, popping them too); branches, BRX
 * targets, guarded EXIT/RET continue both ways; CAL/JCAL return (each function is checked
 * from its own label). Where each op goes is the flow column of
 * isa/rules.def, so an op that only computes needs nothing here. Errors: a .S with no SSY; a path that
 * reaches an SSY target without its .S; an instruction reached with two different stacks
 * (pushes and pops do not balance, e.g. an SSY inside a loop); an unguarded RET with
 * SSY or PCNT tokens left (PBK tokens may stay: its lanes leave them); code that runs off
 * its end; PRET and PEXIT, which it does not model (the translator emits neither: ptxas 11.8
 * uses PRET only before an indirect call's BRX). Then, on the instruction graph (arrivals lead
 * to their sync target), post-dominators from a virtual exit: every divergent branch (BRA
 * or BRX that is not .U: guarded, or a BRX with two different targets) whose paths meet
 * again must have its innermost SSY (or PBK) target at its immediate post-dominator (an unguarded
 * NOP.S or BRK in between is a trampoline and is skipped), or, when that token is an SSY
 * above a PBK's (an if/else in a loop's trip one of whose sides breaks: backend/sync.c's
 * be_trip_join), at its immediate post-dominator in the trip (its target a sink, and the BRKs
 * that pass the token lead to it); paths that meet at the unguarded
 * EXIT right after a guarded BRA (a loop's back edge kept before it) need none. Errors name the kernel and the code
 * address; given the PTX module (be_verify_kernel_at, as warpc calls it), each starts with the
 * file:line:col of the PTX instruction it was translated from (a branch on that line first).
 */
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"

#define VMAXD 64

typedef struct {
	int d;              /* -1 unknown */
	uint32_t t[VMAXD];  /* SYNC targets (byte addresses), bottom first; | VBRK: a PBK's */
} VStk;

#define VBRK 1u         /* a target's low bits (addresses are multiples of 8): a BRK token */
#define VCONT 2u        /* a CONT token */
#define VKIND (VBRK | VCONT)
#define VTOP(s) ((s)->t[(s)->d - 1] & ~VKIND)

/* the SSY and PCNT tokens on s, which a RET must not leave; PBK tokens may stay: the returning
 * lanes leave them for the CAL token below, as ptxas 11.8's ret_nest listings return inside a
 * PBK region */
static uint32_t sync_left(const VStk *s)
{
	uint32_t left = 0;

	for (int t = 0; t < s->d; t++)
		left += (s->t[t] & VKIND) != VBRK;
	return left;
}

typedef struct {
	const Kernel *k;
	const Module *m;    /* the PTX it was translated from, or NULL: errors then name no line */
	FILE *err;
	int nerr;
	VStk *st;           /* per instruction */
	int *work;          /* worklist */
	int nwork;
	int **succ;         /* instruction graph */
	int *nsucc, *capsucc;
} V;

static void verr(V *v, int i, const char *fmt, uint32_t a)
{
	v->nerr++;
	if (!v->err)
		return;
	if (v->m && v->k->ins[i].ptxline > 0) {
		/* the PTX instruction it was translated from: the first on that line, a branch
		 * (bra, brx.idx) if there is one there */
		PLoc at = {v->k->ins[i].ptxline, 1, v->k->ins[i].ptxfile};
		int found = 0;
		for (int f = 0; f < v->m->nfuncs && found < 2; f++)
			for (int j = 0; j < v->m->funcs[f].nins && found < 2; j++) {
				const PIns *p = &v->m->funcs[f].ins[j];
				int br = p->op == PO_BRA || p->op == PO_BRX_IDX;
				if (p->loc.line != at.line || p->loc.file != at.file || (found && !br))
					continue;
				at.col = p->loc.col;
				found = br ? 2 : 1;
			}
		fprintf(v->err, "%s:%d:%d: error: %s: /*%04x*/: ", v->m->name ? v->m->name : "<ptx>",
		        at.line, at.col, v->k->name, 8u * (unsigned)i);
	} else
		fprintf(v->err, "%s: /*%04x*/: error: ", v->k->name, 8u * (unsigned)i);
	fprintf(v->err, fmt, (unsigned)a);
	fputc('\n', v->err);
}

static void addsucc(V *v, int i, int s)
{
	for (int k = 0; k < v->nsucc[i]; k++)
		if (v->succ[i][k] == s)
			return;
	if (v->nsucc[i] == v->capsucc[i]) {
		int nc = v->capsucc[i] ? 2 * v->capsucc[i] : 4;
		int *n = realloc(v->succ[i], sizeof(int) * (size_t)nc);
		if (!n)
			die("out of memory");
		v->succ[i] = n;
		v->capsucc[i] = nc;
	}
	v->succ[i][v->nsucc[i]++] = s;
}

/* flows stack s into instruction j (from i) */
static void flow(V *v, int i, int j, const VStk *s)
{
	int n = v->k->nins;

	if (j >= n) {
		verr(v, i, "execution runs past the end of the code%.0u", 0);
		return;
	}
	addsucc(v, i, j);
	if (s->d > 0 && VTOP(s) == 8u * (uint32_t)j)
		verr(v, i, "a path reaches the sync point 0x%x without .S", 8u * (uint32_t)j);
	if (v->st[j].d < 0) {
		v->st[j] = *s;
		v->work[v->nwork++] = j;
		return;
	}
	if (v->st[j].d != s->d || memcmp(v->st[j].t, s->t, sizeof(uint32_t) * (size_t)s->d))
		verr(v, j, "reached with two different CallReturnStacks (unbalanced SSY)%.0u", 0);
}

static int guarded(const Ins *in)
{
	if (in->guard != ISA_PT || in->gneg)
		return 1;
	for (int i = 0; i < in->nopd; i++)
		if (in->o[i].kind == OPD_CC && in->o[i].imm != CCT_T)
			return 1;
	return 0;
}

/* the depth of the innermost PBK token of s when only SYNC tokens lie above it, else -1: a
 * BRK passes those (ptxas's SSY of a break path inside a loop's PBK region, pbk.c's
 * be_exit_sync), its lanes leaving them too, as the SM model removes a BRK's lanes from every
 * token above the one they leave for */
static int pbk_under_syncs(const VStk *s)
{
	int d = s->d - 1;

	while (d >= 0 && !(s->t[d] & VKIND))
		d--;
	return d >= 0 && (s->t[d] & VBRK) ? d : -1;
}

/* the paths of a divergent branch meet at t, the innermost target of s, or at the target of
 * a PBK below SYNC tokens only (the lanes of the side that breaks pass them) */
static int meets(const VStk *s, uint32_t t)
{
	int d = pbk_under_syncs(s);

	return (s->d && VTOP(s) == t) || (d >= 0 && (s->t[d] & ~VKIND) == t);
}

/* instruction i sends its lanes to the innermost target, a token of kind kind (0: SYNC, .S;
 * VBRK: BRK; VCONT: CONT); guarded, the others go on */
static void arrival(V *v, int i, const VStk *s, uint32_t kind, int g)
{
	VStk a = *s;
	uint32_t top = s->d ? s->t[s->d - 1] & VKIND : 0;
	int d;

	if (kind == VBRK && top == 0 && (d = pbk_under_syncs(s)) >= 0) {
		a.d = d + 1;   /* (past the SYNC tokens above it) */
		top = VBRK;
	}
	if (s->d == 0 || top != kind) {
		verr(v, i, kind == VBRK ? "BRK whose innermost token is not a PBK's%.0u" :
		     kind == VCONT ? "CONT whose innermost token is not a PCNT's%.0u" :
		     !s->d ? ".S with no SSY on the stack%.0u" : top == VBRK ?
		     ".S whose innermost token is a PBK's%.0u" : ".S whose innermost token is a PCNT's%.0u", 0);
		return;
	}
	a.d--;
	flow(v, i, (int)(s->t[a.d] & ~VKIND) / 8, &a);
	if (g)
		flow(v, i, i + 1, s);
}

static void step(V *v, int i)
{
	const Kernel *k = v->k;
	const Ins *in = &k->ins[i];
	VStk s = v->st[i];
	int g = guarded(in);
	Flow f = (Flow)isa_rules(in->op)->flow;   /* rules.def: where control goes */

	switch (f) {
	case FLOW_SYNC:
		if (s.d == VMAXD) {
			verr(v, i, "SSY nesting deeper than %u", VMAXD);
			return;
		}
		s.t[s.d++] = (uint32_t)in->o[0].imm;
		flow(v, i, i + 1, &s);
		return;
	case FLOW_BRANCH:
		flow(v, i, (int)(in->o[1].imm / 8), &s);
		if (g)
			flow(v, i, i + 1, &s);
		return;
	case FLOW_CALL:
		if (!(isa_ops[in->op].flags & F_INDIRECT))
			break;          /* CAL: the callee is checked from its own label */
		/* JCAL names its targets as BRX does */
		/* fall through */
	case FLOW_INDIRECT:
		if (in->o[1].kind != OPD_TLIST) {
			verr(v, i, "indirect branch without a target list%.0u", 0);
			return;
		}
		if (f == FLOW_INDIRECT)
			for (int t = 0; t < in->o[1].n; t++)
				flow(v, i, (int)(k->tl[in->o[1].imm + t] / 8), &s);
		if (g || f == FLOW_CALL)
			flow(v, i, i + 1, &s);
		return;
	case FLOW_EXIT:
		if (g)
			flow(v, i, i + 1, &s);
		return;
	case FLOW_RETURN:
		if (g)
			flow(v, i, i + 1, &s);
		else if (sync_left(&s))
			verr(v, i, "RET with %u SYNC token(s) of the function still pushed", sync_left(&s));
		return;
	case FLOW_STACK:
		if ((in->op == OP_PBK || in->op == OP_PCNT) && s.d < VMAXD) {
			s.t[s.d++] = (uint32_t)in->o[0].imm | (in->op == OP_PBK ? VBRK : VCONT);
			flow(v, i, i + 1, &s);
		} else if (in->op == OP_BRK || in->op == OP_CONT) {
			arrival(v, i, &s, in->op == OP_BRK ? VBRK : VCONT, g);
		} else {
			verr(v, i, in->op == OP_PBK || in->op == OP_PCNT ? "SSY nesting deeper than %u" :
			     "PRET and PEXIT are not checked by this verifier%.0u", VMAXD);
		}
		return;
	case FLOW_NEXT:
		break;
	case FLOW_COUNT:
		die("bad op");
	}
	if (in->sync) {
		arrival(v, i, &s, 0, g);
		return;
	}
	flow(v, i, i + 1, &s);
}

/* depth-first post-order from root over adj (nadj[a] successors of node a; those of a BRX
 * of k last first when k is given), not entering nodes already seen; appends to post from
 * npost and returns the new count. stk and nx are scratch of the graph's size (nx 0 for a
 * node not yet visited) */
static int dfs_post(int root, int *const *adj, const int *nadj, const Kernel *k, uint8_t *seen,
                    int *stk, int *nx, int *post, int npost)
{
	int sp = 0;

	seen[root] = 1;
	stk[sp++] = root;
	while (sp) {
		int a = stk[sp - 1], s = -1, ns = nadj[a];
		while (s < 0 && nx[a] < ns) {
			int i = nx[a]++;
			int c = adj[a][k && k->ins[a].op == OP_BRX ? ns - 1 - i : i];
			if (!seen[c])
				s = c;
		}
		if (s >= 0)
			seen[s] = 1, stk[sp++] = s;
		else
			post[npost++] = stk[--sp];
	}
	return npost;
}

/* forward reverse-post-order numbers of the live instructions (-1 elsewhere), from the
 * entry and every function label; the successors in the translator's order (be_rpo: a
 * branch's target before its fall-through, a BRX's targets last first), so that the
 * sink of a region comes last whatever the layout */
static int *fwd_rpo(V *v)
{
	int n = v->k->nins, npost = 0, num = 0;
	int *stk = calloc((size_t)n + 1, sizeof(int)), *nx = calloc((size_t)n + 1, sizeof(int));
	int *post = calloc((size_t)n + 1, sizeof(int)), *rpo = calloc((size_t)n + 1, sizeof(int));
	uint8_t *seen = calloc((size_t)n + 1, 1);

	if (!stk || !nx || !post || !rpo || !seen)
		die("out of memory");
	for (int r = -1; r < v->k->nlabels; r++) {
		int e = r < 0 ? 0 : (int)(v->k->labels[r].addr / 8);
		if ((r >= 0 && v->k->labels[r].kind != LBL_FUNC) || e >= n || v->st[e].d < 0 || seen[e])
			continue;
		npost = dfs_post(e, v->succ, v->nsucc, v->k, seen, stk, nx, post, npost);
	}
	for (int i = 0; i < n; i++)
		rpo[i] = -1;
	for (int i = npost - 1; i >= 0; i--)
		rpo[post[i]] = num++;
	free(stk); free(nx); free(post); free(seen);
	return rpo;
}

/* a BRK with stack s leaves the SYNC token of target t on its way to its PBK's */
static int passes(const VStk *s, uint32_t t)
{
	int d = pbk_under_syncs(s);

	for (int q = d < 0 ? s->d : d + 1; q < s->d; q++)
		if (s->t[q] == t)
			return 1;
	return 0;
}

/* immediate post-dominators of the instruction graph; n stands for the virtual exit. A
 * region that never reaches an exit (a loop left only through guarded EXITs, which are no
 * edges to the exit here, as in the translator's post-dominators) gets a fake edge to it
 * from its instruction highest in reverse post-order, as dom.c does with blocks: the loop's
 * latch, not whatever the layout put last (an out-of-line arrival of a nested BRX) */
static int *postdom(V *v, int trip)
{
	int n = v->k->nins, N = n + 1, X = n;
	int **rp = calloc((size_t)N, sizeof *rp), *nrp = calloc((size_t)N, sizeof(int));
	int **rs = calloc((size_t)N, sizeof *rs), *nrs = calloc((size_t)N, sizeof(int));
	int *crp = calloc((size_t)N, sizeof(int)), *crs = calloc((size_t)N, sizeof(int));
	int *order = calloc((size_t)N, sizeof(int)), *rpo = calloc((size_t)N, sizeof(int));
	int *idom = calloc((size_t)N, sizeof(int)), *stk = calloc((size_t)N, sizeof(int));
	int *nx = calloc((size_t)N, sizeof(int)), *post = calloc((size_t)N, sizeof(int));
	uint8_t *seen = calloc((size_t)N, 1);
	int npost = 0, nlive = 0, *frpo = fwd_rpo(v);

	if (!rp || !nrp || !rs || !nrs || !crp || !crs || !order || !rpo || !idom || !stk || !nx ||
	    !post || !seen)
		die("out of memory");
#define EDGE(a, b) do { \
	if (nrp[a] == crp[a]) { crp[a] = crp[a] ? 2 * crp[a] : 4; rp[a] = realloc(rp[a], sizeof(int) * (size_t)crp[a]); } \
	if (nrs[b] == crs[b]) { crs[b] = crs[b] ? 2 * crs[b] : 4; rs[b] = realloc(rs[b], sizeof(int) * (size_t)crs[b]); } \
	if (!rp[a] || !rs[b]) die("out of memory"); \
	rp[a][nrp[a]++] = (b); rs[b][nrs[b]++] = (a); } while (0)
	for (int i = 0; i < n; i++) {
		if (v->st[i].d < 0)
			continue;
		nlive++;
		for (int k = 0; k < v->nsucc[i] && i != trip; k++)
			if (trip >= 0 && v->k->ins[i].op == OP_BRK && v->succ[i][k] != i + 1 &&
			    passes(&v->st[i], 8u * (uint32_t)trip))
				EDGE(i, trip);  /* its lanes leave the token: for it, they have arrived */
			else
				EDGE(i, v->succ[i][k]);
		if (v->nsucc[i] == 0 || i == trip)
			EDGE(i, X);
	}
	for (;;) {
		memset(seen, 0, (size_t)N);
		memset(nx, 0, sizeof(int) * (size_t)N);
		npost = dfs_post(X, rs, nrs, NULL, seen, stk, nx, post, 0);
		if (npost == nlive + 1)
			break;
		int best = -1;
		for (int i = 0; i < n; i++)
			if (v->st[i].d >= 0 && !seen[i] && (best < 0 || frpo[i] > frpo[best]))
				best = i;
		EDGE(best, X);
	}
#undef EDGE
	for (int i = 0; i < npost; i++) {
		order[npost - 1 - i] = post[i];
		rpo[post[i]] = npost - 1 - i;
	}
	be_chk_idom(N, order, npost, rpo, rp, nrp, idom);
	for (int i = 0; i < N; i++) {
		free(rp[i]);
		free(rs[i]);
	}
	free(rp); free(nrp); free(rs); free(nrs); free(crp); free(crs); free(order); free(rpo);
	free(stk); free(nx); free(post); free(seen); free(frpo);
	return idom;
}

/* a BRX with two different targets: it may diverge without a guard */
static int multi_target(const Kernel *k, const Ins *in)
{
	if (in->op != OP_BRX || in->o[1].kind != OPD_TLIST)
		return 0;
	for (int t = 1; t < in->o[1].n; t++)
		if (k->tl[in->o[1].imm + t] != k->tl[in->o[1].imm])
			return 1;
	return 0;
}

/* j is an unguarded EXIT right after a guarded BRA: backend/cfg.c's kept back edge, `@P BRA
 * head; EXIT`, as ptxas 11.8 for sm_35 lays out a loop that ends the kernel. Paths that meet
 * there only leave the loop to exit, as they did at its `@!P EXIT` before, so they need no
 * token: the branch itself, and a divergent branch of the loop whose other paths exit */
static int kept_exit(const Kernel *k, int j)
{
	return j >= 1 && k->ins[j].op == OP_EXIT && !guarded(&k->ins[j]) &&
	       k->ins[j - 1].op == OP_BRA && guarded(&k->ins[j - 1]);
}

/* where the paths of divergent branch i meet on the post-dominators ipd: -1 when at the
 * innermost target of its stack (or the PBK's whose SYNC tokens the breaking side passes),
 * past the NOP.S (and BRK, CONT) trampolines up to it, or only at the exit; else the
 * instruction where they do */
static int meet_at(const V *v, const int *ipd, int i)
{
	const Kernel *k = v->k;
	int n = k->nins, j = ipd[i];

	while (j < n && ((k->ins[j].op == OP_NOP && k->ins[j].sync) || k->ins[j].op == OP_BRK ||
	                 k->ins[j].op == OP_CONT) &&
	       !guarded(&k->ins[j]) && v->nsucc[j] == 1 && !meets(&v->st[i], 8u * (uint32_t)j))
		j = v->succ[j][0];
	if (j >= n || kept_exit(k, j))
		return -1;  /* the paths only meet at the exit */
	return v->st[i].d == 0 || !meets(&v->st[i], 8u * (uint32_t)j) ? j : -1;
}

int be_verify_kernel(const Kernel *k, FILE *err)
{
	return be_verify_kernel_at(k, NULL, err);
}

int be_verify_kernel_at(const Kernel *k, const Module *m, FILE *err)
{
	V v = {0};
	int n = k->nins, *ipd;

	v.k = k;
	v.m = m;
	v.err = err;
	v.st = calloc((size_t)n + 1, sizeof *v.st);
	v.work = calloc((size_t)n + 1, sizeof(int));
	v.succ = calloc((size_t)n + 1, sizeof *v.succ);
	v.nsucc = calloc((size_t)n + 1, sizeof(int));
	v.capsucc = calloc((size_t)n + 1, sizeof(int));
	if (!v.st || !v.work || !v.succ || !v.nsucc || !v.capsucc)
		die("out of memory");
	for (int i = 0; i <= n; i++)
		v.st[i].d = -1;
	if (n > 0) {
		v.st[0].d = 0;
		v.work[v.nwork++] = 0;
	}
	for (int l = 0; l < k->nlabels; l++)
		if (k->labels[l].kind == LBL_FUNC && k->labels[l].addr / 8 < (uint32_t)n &&
		    v.st[k->labels[l].addr / 8].d < 0) {
			v.st[k->labels[l].addr / 8].d = 0;
			v.work[v.nwork++] = (int)(k->labels[l].addr / 8);
		}
	while (v.nwork)
		step(&v, v.work[--v.nwork]);
	if (!v.nerr && n > 0) {
		ipd = postdom(&v, -1);
		for (int i = 0; i < n; i++) {
			const Ins *in = &k->ins[i];
			int j;
			if (v.st[i].d < 0 || (!guarded(in) && !multi_target(k, in)) || (in->m.flags & MF_U) ||
			    (in->op != OP_BRA && in->op != OP_BRX))
				continue;
			if ((j = meet_at(&v, ipd, i)) < 0)
				continue;
			/* a branch of a loop's PBK region whose innermost token is an SSY of the
			 * trip (pbk.c's be_trip_join): the lanes of a side that breaks leave that token
			 * as if they had arrived, and the others meet at its target before they come
			 * round the back edge, where the loop's post-dominators do not look */
			if (v.st[i].d > 0 && !(v.st[i].t[v.st[i].d - 1] & VKIND) &&
			    pbk_under_syncs(&v.st[i]) >= 0) {
				int *ipt = postdom(&v, (int)(VTOP(&v.st[i]) / 8)), mt = meet_at(&v, ipt, i);
				free(ipt);
				if (mt < 0)
					continue;
			}
			verr(&v, i, "divergent branch: its immediate post-dominator 0x%x is not the "
			     "innermost SSY target", 8u * (uint32_t)j);
		}
		free(ipd);
	}
	for (int i = 0; i <= n; i++)
		free(v.succ[i]);
	free(v.succ); free(v.nsucc); free(v.capsucc); free(v.st); free(v.work);
	return v.nerr;
}
