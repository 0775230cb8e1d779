/* compare.c - warpc --compare: our decision for every conditional branch of a kernel held
 * against NVIDIA's ptxas, whose listing for the same PTX (tests/ptxas-ref) is the reference.
 * needs: our translated kernel with its decision log, the reference kernel (isa_asm);
 * breaks: nothing (reads only).
 *
 * Both listings are reduced to the same list of conditional constructs, in code order:
 *   ssy         a guarded BRA or a guarded NOP.S (Kepler's one-sided if) inside an SSY region,
 *               or a guarded BRA inside a loop's PBK or PCNT region with no SSY above it
 *   uniform     a guarded BRA outside any SSY, PBK or PCNT region (the compiler found it
 *               uniform), ours written BRA.U, or ptxas's inside one whose paths meet short
 *               of the region's end with no SSY of their own, or that both end in a .S for
 *               the sync point of an SSY pushed for an earlier test (ref_uniform; a loop's
 *               with no token of its own, ref_back_uniform: ptxas never prints .U)
 *   predicated  a run of instructions guarded by one predicate (both polarities: if/else),
 *               unguarded local loads and stores between them left out (past_local)
 *   brk, cont, ret, exit   a guarded BRK, CONT, RET or EXIT
 * where an instruction's SSY regions are the SSY tokens on the stack when control reaches it
 * (sync_tops), not the SSYs above it up to their targets: our layout puts a loop before the
 * SSY pushed on the way into it, or an SSY's target (a continue's head) above the SSY (ours
 * whose paths never meet, the decision log's no-reconvergence, keep code order),
 * with the sizes of each side (instructions; control slots are not counted) and the
 * comparison that sets the guard (ISETP.GE, FSETP.NEU, ...: its op, its comparison up to
 * negation and operand order, and an immediate or parameter operand). The two lists are
 * aligned by the weighted longest common subsequence of those signatures, so a construct
 * that one compiler added (ptxas's own division code) or removed stands alone. The
 * alignment is made twice, each listing's constructs taken in code order and in the order
 * of its control flow (cmporder.c: a topological order without back edges that follows a
 * fall-through or a lone jump, else takes the instruction made ready last, finishing a
 * region before the code its enclosing branches skip to), and the heavier kept, code order
 * on a tie: ptxas lays out one after the other the regions nvcc's PTX interleaves, and lays a
 * block reached by an unconditional jump right after it (nvcc's `bra.uni` to an outer loop's
 * header placed after the inner loop, tests/ptx/loop_reorder), where our layout keeps PTX
 * order, and in code order the two cannot be lined up across the move. Of
 * alignments that weigh the same, the one whose pairs are most often of one shape wins (a
 * loop's back edge with a back edge, ours `@!P NOP.S; BRA head` being one as ptxas's `@P BRA
 * head; NOP.S` is, then a predicated run with a predicated run ...), not
 * the one that pairs earliest: ptxas's unrolled copies give our construct several of the
 * same weight. Only constructs of one function pair (the kernel's own code, or the .func of
 * one name: ptxas's `$kernel$f` is our `f`). Each of ours is labelled with the PTX branch it
 * came from (Ins.ptxline and the decision log).
 */
#include <stdlib.h>
#include <string.h>

#include "backend/be.h"

enum { CK_PRED, CK_SSY, CK_UNIFORM, CK_BRK, CK_CONT, CK_RET, CK_EXIT, CK_COUNT };
static const char *const ck_name[CK_COUNT] = {
	"predicated", "ssy", "uniform", "brk", "cont", "ret", "exit",
};

typedef struct {
	int kind;          /* CK_* */
	uint32_t addr;     /* its (first) instruction */
	int ptxline;       /* PTX line of that instruction (ours), 0 when unknown */
	int ptxfile;       /* its PTX file (Ins.ptxfile: 0 but in a linked program) */
	int taken, fall;   /* sizes of the sides, -1 when not a hammock */
	int back;          /* a loop's back edge: a BRA to its own address or before, or a NOP.S
	                    * right before such a BRA, unguarded (the loop's way out) */
	int sig_op;        /* op of the guard's comparison (OP_ISETP ...), -1 when none */
	int sig_cmp;       /* its comparison class (see cmpclass) */
	int64_t sig_val;   /* immediate or parameter index of its second source, or INT64_MIN */
	const char *fn;    /* the .func it lies in (fn_name), "" for the kernel's own code */
	int ord;           /* its (first) instruction's place in the flow order (cmporder.c) */
	int key;           /* with a line map: the PTX line of its origin (cmporigin.c), 0 none */
} Construct;

typedef struct {
	Construct *c;
	int n, cap;
} CList;

static void cl_add(CList *l, Construct c)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->c = realloc(l->c, (size_t)l->cap * sizeof *l->c);
		if (!l->c)
			die("out of memory");
	}
	l->c[l->n++] = c;
}

/* a comparison and its negation (and its mirror under swapped operands) are one class */
static int cmpclass(int c)
{
	switch (c) {
	case CMP_LT: case CMP_GE: case CMP_GT: case CMP_LE:
	case CMP_LTU: case CMP_GEU: case CMP_GTU: case CMP_LEU:
		return 1;
	case CMP_EQ: case CMP_NE: case CMP_EQU: case CMP_NEU:
		return 2;
	default:
		return 3;
	}
}

/* the instruction at or before i that last writes operand kind/reg (code order, however far
 * back: ptxas hoists a loop's comparisons to the kernel's top), or -1 */
static int last_def(const Kernel *k, int i, int kind, int reg)
{
	for (int j = i; j >= 0; j--) {
		const Ins *in = &k->ins[j];
		const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);
		for (int s = 0; s < in->nopd && s < si->n; s++)
			if (si->dst[s] && in->o[s].kind == kind && in->o[s].reg == reg)
				return j;
	}
	return -1;
}

/* the comparison behind predicate p read at instruction i, or -1. Two idioms are seen
 * through, so that the same condition is one signature in both listings: a predicate turned
 * into a register and tested against zero (SEL R, RZ, 1, P; ISETP.NE P', R, RZ: ours) and
 * two predicates combined by PSETP (ptxas folds the first into the ISETP's .AND/.XOR) */
static int cmp_def(const Kernel *k, int i, int p)
{
	for (int depth = 0; depth < 8 && p < ISA_PT; depth++) {
		int d = last_def(k, i - 1, OPD_PRED, p), s;
		const Ins *in = d >= 0 ? &k->ins[d] : NULL;
		if (!in)
			return -1;
		if (in->op == OP_PSETP && in->o[2].kind == OPD_PRED) {
			i = d;
			p = in->o[2].reg;
			continue;
		}
		if (in->op != OP_ISETP || cmpclass(in->m.cmp) != 2 || in->nopd < 4 ||
		    in->o[2].kind != OPD_REG || !((in->o[3].kind == OPD_REG && in->o[3].reg == ISA_RZ) ||
		                                  (in->o[3].kind == OPD_IMM && in->o[3].imm == 0)))
			return d;
		s = last_def(k, d - 1, OPD_REG, in->o[2].reg);
		if (s < 0 || k->ins[s].op != OP_SEL || k->ins[s].o[3].kind != OPD_PRED)
			return d;
		i = s;
		p = k->ins[s].o[3].reg;
	}
	return -1;
}

/* the guard's comparison of instruction i (param: base of the parameters in c[0x0]); RZ as
 * an operand counts as the immediate 0 */
static void signature(const Kernel *k, int i, uint32_t param, Construct *c)
{
	int d = cmp_def(k, i, k->ins[i].guard);
	const Ins *in;

	c->sig_op = -1;
	c->sig_cmp = 0;
	c->sig_val = INT64_MIN;
	if (d < 0)
		return;
	in = &k->ins[d];
	c->sig_op = in->op;
	c->sig_cmp = cmpclass(in->m.cmp);
	for (int s = 0; s < in->nopd; s++)
		if (in->o[s].kind == OPD_IMM)
			c->sig_val = in->o[s].imm;
		else if (in->o[s].kind == OPD_REG && in->o[s].reg == ISA_RZ)
			c->sig_val = 0;
		else if (in->o[s].kind == OPD_CONST && in->o[s].bank == 0 && in->o[s].imm >= param)
			c->sig_val = 0x100000000ll + (in->o[s].imm - param);
}

/* instructions a .. b - 1 of k come from no PTX line (our calling convention's restores) */
static int abi_only(const Kernel *k, int a, int b)
{
	for (int i = a; i < b; i++)
		if (k->ins[i].ptxline)
			return 0;
	return 1;
}

/* instructions in [a, b) (control slots hold none) */
static int count(const Kernel *k, uint32_t a, uint32_t b)
{
	int n = 0;

	for (int i = 0; i < k->nins; i++)
		n += k->ins[i].addr >= a && k->ins[i].addr < b;
	return n;
}

/* j, or past the unguarded local loads and stores from j when an instruction guarded by p
 * follows them: a predicated run goes on across them (our spill code, LDL and STL between
 * the instructions of one side: clang's dwt2d under 68 registers cut a side into as many runs
 * as it had reloads, each a construct of its own) */
static int past_local(const Kernel *k, int j, int p)
{
	int e = j;

	while (e < k->nins && k->ins[e].guard == ISA_PT &&
	       (k->ins[e].op == OP_LDL || k->ins[e].op == OP_STL))
		e++;
	return e > j && e < k->nins && k->ins[e].guard == p ? e : j;
}

/* the name of a .func label as ours prints it: ptxas's listing names kernel k's callee f
 * `$k$f` */
static const char *fn_name(const Kernel *k, const char *name)
{
	size_t n = strlen(k->name);

	if (name[0] == '$' && !strncmp(name + 1, k->name, n) && name[n + 1] == '$' && name[n + 2])
		return name + n + 2;
	return name;
}

/* a token of the CallReturnStack as sync_tops follows it: a tree of pushes, each node its
 * target, its kind and the node under it (0: the empty stack) */
typedef struct {
	uint32_t t;        /* target */
	int kind;          /* OP_SSY, OP_PBK or OP_PCNT: what pushed it */
	int up;            /* the node below */
} CrsNode;

typedef struct {
	CrsNode *n;
	int nn, cap;
	int *st;           /* per instruction: its stack (a node), -1 not reached */
	int *work, nwork;
	int cur;           /* the instruction whose ways on crs_flow follows, -1: a root */
	int *esrc, *edst;  /* the edges it followed: esrc[e] -> edst[e] (cmporder.c) */
	int ne, ecap;
} Crs;

static int crs_push(Crs *c, int up, uint32_t t, int kind)
{
	if (c->nn == c->cap) {
		c->cap = 2 * c->cap;
		c->n = realloc(c->n, (size_t)c->cap * sizeof *c->n);
		if (!c->n)
			die("out of memory");
	}
	c->n[c->nn] = (CrsNode){t, kind, up};
	return c->nn++;
}

/* stack s flows into instruction j */
static void crs_flow(Crs *c, const Kernel *k, int j, int s)
{
	if (j < 0 || j >= k->nins)
		return;
	if (c->cur >= 0) {
		if (c->ne == c->ecap) {
			c->ecap = c->ecap ? 2 * c->ecap : 64;
			c->esrc = realloc(c->esrc, (size_t)c->ecap * sizeof *c->esrc);
			c->edst = realloc(c->edst, (size_t)c->ecap * sizeof *c->edst);
			if (!c->esrc || !c->edst)
				die("out of memory");
		}
		c->esrc[c->ne] = c->cur;
		c->edst[c->ne++] = j;
	}
	if (c->st[j] >= 0)
		return;     /* the first stack to reach an instruction is its stack */
	c->st[j] = s;
	c->work[c->nwork++] = j;
}

/* lanes with stack s leave for the innermost token pushed by op, past SSY tokens when op is
 * a PBK (a BRK leaves them too) */
static void crs_leave(Crs *c, const Kernel *k, int s, int op)
{
	int u = s;

	while (u && c->n[u].kind != op && op == OP_PBK && c->n[u].kind == OP_SSY)
		u = c->n[u].up;
	if (u && c->n[u].kind == op)
		crs_flow(c, k, isa_kernel_index(k, c->n[u].t), c->n[u].up);
}

/* the innermost SSY token of stack u (0: none) */
static int crs_sync(const Crs *c, int u)
{
	while (u > 0 && c->n[u].kind != OP_SSY)
		u = c->n[u].up;
	return u > 0 ? u : 0;
}

/* the target of the innermost PBK or PCNT token of stack u (0: none): where the lanes of
 * its loop meet when no SSY lies above it */
static uint32_t loop_top(const Crs *c, int u)
{
	while (u > 0 && c->n[u].kind != OP_PBK && c->n[u].kind != OP_PCNT)
		u = c->n[u].up;
	return u > 0 ? c->n[u].t : 0;
}

/* instruction in is guarded: by a predicate, or by a CC test */
static int guarded(const Ins *in)
{
	int g = in->guard < ISA_PT || in->gneg;

	for (int o = 0; o < in->nopd; o++)
		g |= in->o[o].kind == OPD_CC && in->o[o].imm != CCT_T;
	return g;
}

/* the innermost SSY target on the CallReturnStack at each instruction of k (0: no SSY token
 * on it, 1: not reached): a run over its control flow from the entry and from each
 * function's label. SSY, PBK and PCNT push their target; .S, BRK and CONT send their lanes
 * to their token's (popping it); branches and a guarded BRK, CONT, .S, EXIT or RET go on
 * both ways; a call returns to the next instruction. Code order alone (an SSY up to its
 * target) misses code laid out above its SSY: our loop placed before its entry, whose exits
 * share the SSY pushed on the way in */
static uint32_t *sync_tops(const Kernel *k, Crs *cp)
{
	Crs c = {0};
	uint32_t *top = malloc(((size_t)k->nins + 1) * sizeof *top);

	c.cap = 64;
	c.n = malloc((size_t)c.cap * sizeof *c.n);
	c.st = malloc(((size_t)k->nins + 1) * sizeof *c.st);
	c.work = malloc(((size_t)k->nins + 1) * sizeof *c.work);
	if (!top || !c.n || !c.st || !c.work)
		die("out of memory");
	c.n[c.nn++] = (CrsNode){0, 0, 0};
	for (int i = 0; i < k->nins; i++)
		c.st[i] = -1;
	c.cur = -1;
	crs_flow(&c, k, 0, 0);
	for (int l = 0; l < k->nlabels; l++)
		if (k->labels[l].kind == LBL_FUNC)
			crs_flow(&c, k, isa_kernel_index(k, k->labels[l].addr), 0);
	while (c.nwork) {
		int i = c.work[--c.nwork], s = c.st[i], on = 1;
		const Ins *in = &k->ins[i];
		int g = guarded(in);
		uint32_t t = in->nopd ? (uint32_t)in->o[in->nopd - 1].imm : 0;

		c.cur = i;
		switch ((Flow)isa_rules(in->op)->flow) {
		case FLOW_SYNC:
			crs_flow(&c, k, i + 1, crs_push(&c, s, t, OP_SSY));
			on = 0;
			break;
		case FLOW_STACK:
			if (in->op == OP_PBK || in->op == OP_PCNT) {
				crs_flow(&c, k, i + 1, crs_push(&c, s, t, in->op));
				on = 0;
			} else if (in->op == OP_BRK || in->op == OP_CONT) {
				crs_leave(&c, k, s, in->op == OP_BRK ? OP_PBK : OP_PCNT);
				on = g;
			}
			break;
		case FLOW_BRANCH:
			crs_flow(&c, k, isa_kernel_index(k, t), s);
			on = g;
			break;
		case FLOW_INDIRECT:
		case FLOW_CALL:
			for (int o = 0; o < in->nopd; o++)
				if (in->o[o].kind == OPD_TLIST && isa_rules(in->op)->flow == FLOW_INDIRECT)
					for (int q = 0; q < in->o[o].n; q++)
						crs_flow(&c, k, isa_kernel_index(k, k->tl[in->o[o].imm + q]), s);
			on = g || isa_rules(in->op)->flow == FLOW_CALL;
			break;
		case FLOW_EXIT:
		case FLOW_RETURN:
			on = g;
			break;
		case FLOW_NEXT:
		case FLOW_COUNT:
			break;
		}
		if (in->sync && isa_rules(in->op)->flow == FLOW_NEXT) {
			crs_leave(&c, k, s, OP_SSY);
			on = g;
		}
		if (on)
			crs_flow(&c, k, i + 1, s);
	}
	for (int i = 0; i < k->nins; i++) {
		int u = crs_sync(&c, c.st[i]);
		top[i] = c.st[i] < 0 ? 1 : u ? c.n[u].t : 0;
	}
	free(c.work);
	*cp = c;
	return top;
}

/* node u of c's stacks lies above base (was pushed on top of it) */
static int crs_above(const Crs *c, int u, int base)
{
	if (u == base)
		return 0;
	while (u && u != base)
		u = c->n[u].up;
	return u == base;
}

/* instructions [a, b) of k, entered with stack base, keep to the addresses lo .. x and
 * leave only by falling or branching to x: no EXIT, RET or indirect branch, every branch
 * to an address in [lo, x], and every .S, BRK and CONT for a token pushed inside (a loop, a
 * nested region) or a guarded .S whose lanes arrive at the enclosing region's sync point (a
 * break or an early exit from a uniform side: ptxas's divergent branch pushes an SSY of its
 * own at such a join and leaves by BRK) */
static int closed(const Kernel *k, const Crs *c, int base, int a, int b, uint32_t lo, uint32_t x)
{
	int sb = crs_sync(c, base);     /* (the enclosing region's SSY) */

	for (int q = a; q < b; q++) {
		const Ins *in = &k->ins[q];
		Flow f = (Flow)isa_rules(in->op)->flow;
		uint32_t t = in->nopd ? (uint32_t)in->o[in->nopd - 1].imm : 0;
		int u = c->st[q];

		if (u < 0)
			continue;
		if (f == FLOW_EXIT || f == FLOW_RETURN || f == FLOW_INDIRECT)
			return 0;
		if ((f == FLOW_BRANCH || f == FLOW_SYNC || in->op == OP_PBK || in->op == OP_PCNT) &&
		    (t < lo || t > x))
			return 0;
		if (in->op == OP_BRK)
			while (u && c->n[u].kind == OP_SSY)
				u = c->n[u].up;
		if (in->sync && guarded(in) && crs_sync(c, u) && crs_sync(c, u) == sb)
			continue;
		if ((in->sync || in->op == OP_BRK || in->op == OP_CONT) && !crs_above(c, u, base))
			return 0;
	}
	return 1;
}

/* instructions [a, b) of k reach address x: the last falls into it (guarded, or neither a
 * sync nor control flow that leaves), or one branches to it or pushes it (a loop's PBK, a
 * nested SSY); a side that leaves only by a guarded .S meets the other at the sync point */
static int reaches(const Kernel *k, int a, int b, uint32_t x)
{
	const Ins *in = &k->ins[b - 1];
	Flow f = (Flow)isa_rules(in->op)->flow;

	if (guarded(in) || (!in->sync && f != FLOW_BRANCH && f != FLOW_INDIRECT && f != FLOW_EXIT &&
	                    f != FLOW_RETURN && in->op != OP_BRK && in->op != OP_CONT))
		return 1;
	for (int q = a; q < b; q++) {
		in = &k->ins[q];
		f = (Flow)isa_rules(in->op)->flow;
		if ((f == FLOW_BRANCH || f == FLOW_SYNC || in->op == OP_PBK || in->op == OP_PCNT) &&
		    (uint32_t)in->o[in->nopd - 1].imm == x)
			return 1;
	}
	return 0;
}

/* instructions [i, j) of k hold no sync and no control flow but guarded BRAs to j (a chain
 * of tests that skip to one join) */
static int straight(const Kernel *k, int i, int j)
{
	for (; i < j; i++) {
		const Ins *in = &k->ins[i];
		if (in->op == OP_BRA && in->guard < ISA_PT && j < k->nins &&
		    (uint32_t)in->o[in->nopd - 1].imm == k->ins[j].addr && !in->sync)
			continue;
		if (in->sync || (isa_ops[in->op].flags & (F_BRANCH | F_PUSH)))
			return 0;
	}
	return 1;
}

/* the sides [a, j) of a branch, entered with stack base, that meet at instruction j (at
 * address x) keep to themselves: closed, where j is an ordinary instruction short of the
 * sync point; straight, where j is the last of the region, its .S (a divergent test of
 * ptxas's own division code skips a CAL to such a join, myocyte's `@P0 BRA CC.NEU`) or
 * NOP.S, or a BRK or CONT, and where the run over the control flow did not reach the
 * branch (base -1) */
static int side_meets(const Kernel *k, const Crs *c, int base, int a, int j, uint32_t lo,
                      uint32_t x)
{
	const Ins *in = &k->ins[j];

	if (base < 0 || in->sync || in->op == OP_BRK || in->op == OP_CONT)
		return straight(k, a, j);
	return closed(k, c, base, a, j, lo, x);
}

/* the code at instruction j goes on: ordinary instructions up to a branch, a push or a call,
 * not a sync, BRK, CONT, EXIT or RET (where the paths of a divergent branch that meet early
 * in a loop's PBK region leave for its end: ptxas pushes no SSY for them, tests/ptx/
 * meet_early) */
static int goes_on(const Kernel *k, const Crs *c, int j)
{
	for (int q = j; q < k->nins && c->st[q] == c->st[j]; q++) {
		const Ins *in = &k->ins[q];
		Flow f = (Flow)isa_rules(in->op)->flow;
		if (in->sync || in->op == OP_BRK || in->op == OP_CONT || f == FLOW_EXIT ||
		    f == FLOW_RETURN || f == FLOW_INDIRECT)
			return 0;
		if (f != FLOW_NEXT)
			return 1;
	}
	return 0;
}

/* the SSY token of ptxas's branch i was pushed for another construct: code of the same
 * region, reached before i, holds a guarded .S or BRA (the divergent test whose SSY it is) */
static int shares_token(const Kernel *k, const Crs *c, int i)
{
	int u = crs_sync(c, c->st[i]);

	for (int q = 0; u && q < i; q++) {
		const Ins *in = &k->ins[q];
		if (c->st[q] >= 0 && crs_sync(c, c->st[q]) == u && guarded(in) &&
		    (in->sync || in->op == OP_BRA))
			return 1;
	}
	return 0;
}

/* instructions [a, b) of k hold a branch back (a loop) */
static int back_edge(const Kernel *k, int a, int b)
{
	for (int q = a; q < b; q++) {
		const Ins *in = &k->ins[q];
		if (in->op == OP_BRA && (uint32_t)in->o[in->nopd - 1].imm <= in->addr)
			return 1;
	}
	return 0;
}

/* ptxas's if-else at branch i (its else side at instruction j) whose then side ends at
 * instruction q in an unguarded .S for the sync point s of the region it is in: the join is
 * that sync point, each side leaving for it by an unguarded .S of the region's token and
 * keeping to itself before (closed), the token pushed for an earlier test (shares_token).
 * ptxas 11.8 writes a uniform if-else so where its join is an enclosing divergent test's
 * (nvcc's dwt2d: a test of %ctaid.y under one of %tid.x; tests/ptx/uni_else_join), with no
 * SSY of its own; its divergent twin gets a PBK for the three paths to the join. A side
 * that holds a loop is left out: the breaks of a loop whose exits go to the join do not
 * count toward the three (pbk.c), so a divergent twin may share the SSY and look the same */
static int else_meets_at_sync(const Kernel *k, const Crs *c, int i, int j, int q, uint32_t lo,
                              uint32_t s)
{
	int u = crs_sync(c, c->st[i]), e = isa_kernel_index(k, s);
	const Ins *te = &k->ins[q], *ee;

	if (!u || c->n[u].t != s || e <= j || !shares_token(k, c, i))
		return 0;
	ee = &k->ins[e - 1];
	if (!te->sync || guarded(te) || (Flow)isa_rules(te->op)->flow != FLOW_NEXT ||
	    !ee->sync || guarded(ee) || (Flow)isa_rules(ee->op)->flow != FLOW_NEXT ||
	    c->st[q] != c->st[i] || c->st[e - 1] != c->st[i])
		return 0;
	return closed(k, c, c->st[i], i + 1, q, lo, s) && closed(k, c, c->st[i], j, e - 1, lo, s) &&
	       !back_edge(k, i + 1, e - 1);
}

/* is ptxas's guarded BRA i (to t), inside the SSY region that syncs at s, a uniform branch?
 * ptxas 11.8 never prints BRA.U; a branch it found uniform inside an enclosing region (a
 * kernel parameter tested under a divergent if) is a forward if-then or if-else whose paths
 * meet at a join short of s with no SSY of its own: its sides keep to themselves up to the
 * join (closed), loops and nested regions allowed, no sync to an enclosing token but a
 * guarded .S to s (a break), and each reaches the join */
static int ref_uniform(const Kernel *k, const Crs *c, int i, uint32_t t, uint32_t s)
{
	int j = isa_kernel_index(k, t), q, loop = c->st[i] >= 0 && !crs_sync(c, c->st[i]);
	uint32_t x = t, lo = i + 1 < k->nins ? k->ins[i + 1].addr : t;

	if (t <= k->ins[i].addr || t >= s || j <= i + 1)
		return 0;
	if (side_meets(k, c, c->st[i], i + 1, j, lo, t))
		return reaches(k, i + 1, j, t) && (!loop || goes_on(k, c, j));
	q = j - 1;      /* if-else: the then side's closing BRA to the join x */
	if (k->ins[q].sync)
		return else_meets_at_sync(k, c, i, j, q, lo, s);
	if (k->ins[q].op != OP_BRA || k->ins[q].guard != ISA_PT)
		return 0;
	x = (uint32_t)k->ins[q].o[k->ins[q].nopd - 1].imm;
	q = isa_kernel_index(k, x);
	if (!(x > t && x < s && q > j))
		return 0;
	if (c->st[i] < 0 || k->ins[q].sync || k->ins[q].op == OP_BRK || k->ins[q].op == OP_CONT)
		return straight(k, i + 1, j - 1) && straight(k, j, q) && (!loop || goes_on(k, c, q));
	return closed(k, c, c->st[i], i + 1, q, lo, x) && reaches(k, j, q, x) &&
	       (!loop || goes_on(k, c, q));
}

/* the innermost PBK or PCNT token at back edge i was pushed for its loop: by a PBK or PCNT
 * that straight code leads from to the loop's head (a loop with divergent breaks, whose
 * back edge falls into its exit path's BRK, divergent or not: ptxas lays the two out alike) */
static int own_token(const Kernel *k, const Crs *c, int i)
{
	int h = isa_kernel_index(k, (uint32_t)k->ins[i].o[k->ins[i].nopd - 1].imm);
	uint32_t t = loop_top(c, c->st[i]);

	for (int q = h - 1; t && q >= 0; q--) {
		const Ins *in = &k->ins[q];
		if ((in->op == OP_PBK || in->op == OP_PCNT) && (uint32_t)in->o[0].imm == t)
			return 1;
		if (in->sync || (Flow)isa_rules(in->op)->flow != FLOW_NEXT)
			return 0;
	}
	return 0;
}

/* is ptxas's guarded back edge i, inside the SSY region that syncs at s, a uniform loop's?
 * Before a divergent loop ptxas pushes an SSY of its own whose sync point is the loop's exit:
 * the back edge falls into a .S (`IADD.S`, a `NOP.S`) just short of it. A uniform loop has no
 * token: its lanes leave together and go on with ordinary code, up to a branch or the .S of
 * the enclosing region. Where that code leaves by BRK or CONT (a loop with a PBK: the exits
 * of a divergent loop, or a uniform back edge beside divergent breaks), EXIT or RET, or falls
 * straight into a .S (the loop ends the region's code), the two look alike: not uniform.
 * Inside a PBK or PCNT region with no SSY (s its end), ordinary code up to the region's BRK
 * or CONT is the region's end as a .S is an SSY region's, but for the loop's own token */
static int ref_back_uniform(const Kernel *k, const Crs *c, int i, uint32_t s)
{
	int j = i + 1;

	for (; j < k->nins && k->ins[j].addr < s && c->st[j] == c->st[i]; j++) {
		const Ins *in = &k->ins[j];
		Flow f = (Flow)isa_rules(in->op)->flow;
		if (in->sync)
			return j > i + 1 && f == FLOW_NEXT;
		if (f == FLOW_BRANCH || f == FLOW_SYNC || f == FLOW_CALL ||
		    in->op == OP_PBK || in->op == OP_PCNT)
			return 1;
		if ((in->op == OP_BRK || in->op == OP_CONT) && !guarded(in) && !crs_sync(c, c->st[i]))
			return j > i + 1 && !own_token(k, c, i);
		if (f != FLOW_NEXT)
			return 0;
	}
	return 0;
}

/* is ptxas's guarded BRA i to t, inside the region that ends at s, a uniform branch: a
 * forward one (ref_uniform) or a back edge (ref_back_uniform)? */
static int ref_says_uniform(const Kernel *k, const Crs *c, int i, uint32_t t, uint32_t s)
{
	return t > k->ins[i].addr ? ref_uniform(k, c, i, t, s) : ref_back_uniform(k, c, i, s);
}

/* the PTX line instruction i of k comes from: ours carry it (a program linked from several
 * files: the first file's only), ptxas's are in the line map */
static int line_of(const Kernel *k, int i, int ours, const BeLines *ln)
{
	if (ours)
		return k->ins[i].ptxfile == 0 ? k->ins[i].ptxline : 0;
	return isa_linemap_line(ln->map, k->ins[i].addr);
}

/* with a line map, the origin of the construct of instruction i (a guarded BRA, NOP.S, BRK,
 * CONT, RET or EXIT), 0 when it comes from no branch. ptxas gives a BRA the line of its
 * branch, or of an instruction of a side (clang's `@p bra X; bra.uni Y` made `@!P BRA Y`:
 * a line of Y), or often no line of its own: it has the line of the instruction scheduled
 * before it, one of its block's (its setp, a store), so a BRA of ptxas's on the line of an
 * instruction of a block that ends in a conditional bra comes from that bra
 * (be_origin_before) */
static int ins_key(const Kernel *k, int i, int ours, const BeLines *ln)
{
	int l = ln ? line_of(k, i, ours, ln) : 0, b;

	if (l && !ours && k->ins[i].op == OP_BRA && (b = be_origin_before(ln->org, l)))
		return b;
	return l ? be_origin(ln->org, l, NULL) : 0;
}

/* with a line map, the origin of the predicated run of instructions i .. j - 1: that of its
 * first guarded instruction whose line is not an origin of its own, else the first such
 * origin (a selp's run, a guarded PTX instruction's) */
static int run_key(const Kernel *k, int i, int j, int ours, const BeLines *ln)
{
	int first = 0;

	for (int q = i; ln && q < j; q++) {
		int l = k->ins[q].guard < ISA_PT ? line_of(k, q, ours, ln) : 0, own, o;
		if (!l)
			continue;
		o = be_origin(ln->org, l, &own);
		if (!own)
			return o;
		if (!first)
			first = o;
	}
	return first;
}

/* the decision-log entry of a construct of ours: the branch on its PTX line, or (predicated
 * code carries its body's lines) the last predicated branch above it */
static const BeLogEntry *entry_of(const BeLog *log, const char *kname, const Construct *c)
{
	const BeLogEntry *best = NULL;

	for (int i = 0; log && i < log->n; i++) {
		const BeLogEntry *e = &log->e[i];
		if ((strcmp(e->func, kname) && !best) || e->ptxunit != c->ptxfile)
			continue;
		if (e->ptxline == c->ptxline && e->decision != BD_PREDICATED)
			return e;
		if (e->decision == BD_PREDICATED && e->ptxline <= c->ptxline &&
		    (!best || e->ptxline > best->ptxline))
			best = e;
	}
	return c->kind == CK_PRED ? best : NULL;
}

/* the constructs of kernel k, in code order, each with the function it lies in (ours: k is
 * our translation, whose instructions carry their PTX lines) */
static void extract(const Kernel *k, CList *l, int ours, const BeLog *log, const BeLines *ln)
{
	uint32_t ssy[64], param = k->layout == ISA_LAYOUT_SM35 ? 0x140 : 0x20;
	int nssy = 0, lab = 0;
	const char *fn = "";

	int runend = -1;      /* where the last predicated run ended (its first unguarded ins) */
	Construct run = {0};
	Crs crs;
	uint32_t inssy, *tops = sync_tops(k, &crs);
	int *rank = malloc(((size_t)k->nins + 1) * sizeof *rank), nroots = 0;
	int *roots = malloc(((size_t)k->nlabels + 1) * sizeof *roots);

	if (!rank || !roots)
		die("out of memory");
	roots[nroots++] = 0;
	for (int q = 0; q < k->nlabels; q++)
		if (k->labels[q].kind == LBL_FUNC)
			roots[nroots++] = isa_kernel_index(k, k->labels[q].addr);
	be_flow_order(k->nins, crs.ne, crs.esrc, crs.edst, roots, nroots, rank);

	for (int i = 0; i < k->nins; i++) {
		const Ins *in = &k->ins[i];
		Construct c;
		int guarded = in->guard < ISA_PT;

		/* our guarded return whose own predicate the restores overwrote (emit.c's
		 * guarded_ret): a RET tested on CC right after a predicated run is that run's
		 * guarded RET, with its comparison */
		if (!guarded && in->op == OP_RET && i == runend && in->nopd > 0 &&
		    in->o[0].kind == OPD_CC && in->o[0].imm != CCT_T) {
			c = run;      /* with the run's function */
			c.kind = CK_RET;
			c.addr = in->addr;
			c.ord = rank[i];
			c.ptxline = in->ptxline;
			c.ptxfile = in->ptxfile;
			c.taken = c.fall = -1;
			c.key = ins_key(k, i, ours, ln);
			cl_add(l, c);
			continue;
		}

		for (; lab < k->nlabels && k->labels[lab].addr <= in->addr; lab++)
			if (k->labels[lab].kind == LBL_FUNC)
				fn = fn_name(k, k->labels[lab].name);
		while (nssy && in->addr >= ssy[nssy - 1])
			nssy--;
		if (in->op == OP_SSY && nssy < 64)
			ssy[nssy++] = (uint32_t)in->o[0].imm;
		if (!guarded)
			continue;
		/* the target of the SSY region it is in (0: none), by control flow where the run
		 * reached it; its sides are measured in code order */
		inssy = tops[i] != 1 ? tops[i] : nssy ? ssy[nssy - 1] : 0;
		memset(&c, 0, sizeof c);
		c.fn = fn;
		c.addr = in->addr;
		c.ord = rank[i];
		c.ptxline = in->ptxline;
		c.ptxfile = in->ptxfile;
		c.taken = c.fall = -1;
		signature(k, i, param, &c);
		c.key = ins_key(k, i, ours, ln);
		if (in->op == OP_BRA) {
			uint32_t t = (uint32_t)in->o[in->nopd - 1].imm;
			const BeLogEntry *e = ours ? entry_of(log, k->name, &c) : NULL;
			/* ours whose paths never meet: the SSYs the flow finds on its way were pushed
			 * for another trip (a kept back edge, `@P BRA head; EXIT`); code order says
			 * whether an enclosing region holds it */
			if (e && e->decision == BD_BRANCH_NOSYNC)
				inssy = nssy ? ssy[nssy - 1] : 0;
			else if (!inssy && crs.st[i] >= 0)     /* a loop's PBK or PCNT region */
				inssy = loop_top(&crs, crs.st[i]);
			c.kind = inssy && !(in->m.flags & MF_U) && (ours || !ref_says_uniform(k, &crs, i, t, inssy))
			         ? CK_SSY : CK_UNIFORM;
			c.back = t <= in->addr;
			if (t > in->addr) {
				c.fall = count(k, in->addr + 8, t);
				c.taken = nssy && ssy[nssy - 1] > t ? count(k, t, ssy[nssy - 1]) : -1;
			}
		} else if (in->op == OP_NOP) {
			if (!in->sync || !inssy)
				continue;
			c.kind = CK_SSY;      /* Kepler's one-sided if: the guarded lanes skip the body */
			c.fall = nssy ? count(k, in->addr + 8, ssy[nssy - 1]) - 1 : -1;
			c.taken = 0;
			/* a loop's way out, right before its unguarded jump back (ours: `@!P0 NOP.S;
			 * BRA head`, ptxas's `@P0 BRA head; NOP.S`): the loop's back edge */
			if (i + 1 < k->nins) {
				const Ins *nx = &k->ins[i + 1];
				c.back = nx->op == OP_BRA && nx->guard == ISA_PT &&
				         nx->o[nx->nopd - 1].imm <= (int64_t)in->addr;
			}
			if (c.back)
				c.taken = c.fall = -1;   /* (no sides, as a BRA back) */
		} else if (in->op == OP_BRK || in->op == OP_CONT || in->op == OP_RET || in->op == OP_EXIT) {
			c.kind = in->op == OP_BRK ? CK_BRK : in->op == OP_CONT ? CK_CONT
			         : in->op == OP_RET ? CK_RET : CK_EXIT;
		} else if (isa_ops[in->op].flags & (F_BRANCH | F_PUSH)) {
			continue;
		} else {
			/* a run of instructions guarded by this predicate */
			int p = in->guard, j = i, i0 = i, pos = 0, neg = 0;
			while (j < k->nins && k->ins[j].guard == p &&
			       !(isa_ops[k->ins[j].op].flags & (F_BRANCH | F_PUSH)) && !k->ins[j].sync) {
				if (k->ins[j].gneg)
					neg++;
				else
					pos++;
				j = past_local(k, j + 1, p);
			}
			c.kind = CK_PRED;
			c.taken = in->gneg ? neg : pos;
			c.fall = in->gneg ? pos : neg;
			c.key = run_key(k, i0, j, ours, ln);
			i = j - 1;
			runend = j;
			run = c;
			/* our guarded return's restores alone (emit.c's guarded_ret after a branch to
			 * a bare return, cfg.c's fold): the RET that follows is the construct */
			if (ours && j < k->nins && k->ins[j].op == OP_RET && abi_only(k, i0, j) &&
			    ((k->ins[j].guard == p && k->ins[j].gneg == in->gneg) ||
			     (k->ins[j].guard == ISA_PT && k->ins[j].nopd > 0 && k->ins[j].o[0].kind == OPD_CC)))
				continue;
		}
		cl_add(l, c);
	}
	free(tops);
	free(rank);
	free(roots);
	free(crs.n);
	free(crs.st);
	free(crs.esrc);
	free(crs.edst);
}

/* how alike two constructs' comparisons are: 0 not at all .. 4 the same comparison */
static int like_sig(const Construct *a, const Construct *b)
{
	if (a->sig_op < 0 || b->sig_op < 0)
		return a->sig_op == b->sig_op ? 1 : 0;
	if (a->sig_op != b->sig_op)
		return 0;
	if (a->sig_cmp != b->sig_cmp)
		return 1;
	return a->sig_val == b->sig_val ? 4 : 2;
}

/* the weight of pairing a with b: their comparisons' likeness, doubled, and one more when
 * both are the same guarded BRK, CONT, RET or EXIT, so that of two constructs with one
 * comparison (a predicated side and the guarded RET that ends it) each pairs with its own
 * kind; ssy, uniform and predicated constructs pair by their comparisons alone */
static int like(const Construct *a, const Construct *b)
{
	int s = strcmp(a->fn, b->fn) ? 0 : like_sig(a, b);

	return s ? 2 * s + (a->kind == b->kind && a->kind >= CK_BRK) : 0;
}

/* how alike two constructs' shapes are, to break ties of like(): 2 when both or neither are
 * a loop's back edge, and 1 more when they are of one kind */
static int like_shape(const Construct *a, const Construct *b)
{
	return 2 * (a->back == b->back) + (a->kind == b->kind);
}

/* the weight of pairing the p-th of one list with the q-th of another (0: they may not pair) */
typedef int64_t PairWeight(const void *ctx, int p, int q);

/* m[p] = the q paired with p, or -1: the pairs of two lists of na and nb in order (each pair
 * keeps both lists' order) of the largest total weight (wt), ties to the earliest pairs;
 * returns that total */
static int64_t lcs(int na, int nb, PairWeight *wt, const void *ctx, int *m)
{
	size_t w = (size_t)nb + 1;
	int64_t *dp = calloc(((size_t)na + 1) * w, sizeof *dp), best;

	if (!dp)
		die("out of memory");
	for (int p = na - 1; p >= 0; p--)
		for (int q = nb - 1; q >= 0; q--) {
			int64_t v = dp[(size_t)(p + 1) * w + q], x = wt(ctx, p, q);
			if (dp[(size_t)p * w + q + 1] > v)
				v = dp[(size_t)p * w + q + 1];
			if (x && dp[(size_t)(p + 1) * w + q + 1] + x > v)
				v = dp[(size_t)(p + 1) * w + q + 1] + x;
			dp[(size_t)p * w + q] = v;
		}
	for (int p = 0; p < na; p++)
		m[p] = -1;
	for (int p = 0, q = 0; p < na && q < nb;) {
		int64_t x = wt(ctx, p, q);
		if (x && dp[(size_t)p * w + q] == dp[(size_t)(p + 1) * w + q + 1] + x)
			m[p++] = q++;
		else if (dp[(size_t)p * w + q] == dp[(size_t)(p + 1) * w + q])
			p++;
		else
			q++;
	}
	best = dp[0];
	free(dp);
	return best;
}

/* what the weights below read: the two lists, the groups of them paired (NULL: all, in
 * order) and the unit of the weights by comparison */
typedef struct {
	const CList *a, *b;
	const int *ga, *gb;
	int64_t unit;
} PairCtx;

/* align's weight: like() * unit + like_shape(), unit above any sum of like_shape() over the
 * pairs, so that the weights by comparison come first */
static int64_t align_weight(const void *ctx, int p, int q)
{
	const PairCtx *x = ctx;
	int s = like(&x->a->c[p], &x->b->c[q]);

	return s ? s * x->unit + like_shape(&x->a->c[p], &x->b->c[q]) : 0;
}

/* match[i] = index in b of a's construct i, or -1: the weighted LCS by like(), its ties
 * broken by the sum of like_shape() over the pairs */
static int64_t align(const CList *a, const CList *b, int *match)
{
	PairCtx x = {a, b, NULL, NULL, 3 * (int64_t)(a->n < b->n ? a->n : b->n) + 1};

	return lcs(a->n, b->n, align_weight, &x, match);
}

/* pair_group's weight: b's branches (any kind but a predicated run) first, then the
 * comparisons' likeness, then a back edge with a back edge; every pair may be made */
static int64_t group_weight(const void *ctx, int p, int q)
{
	const PairCtx *x = ctx;
	const Construct *u = &x->a->c[x->ga[p]], *v = &x->b->c[x->gb[q]];

	return (like_sig(u, v) + 1 + 5 * (v->kind != CK_PRED)) * x->unit + 2 * (u->back == v->back);
}

/* the pairs of a's constructs ga[0 .. na-1] with b's gb[0 .. nb-1] (each list in code order)
 * into match: as many as the shorter list has, keeping code order; b's branches (any kind
 * but a predicated run) first, since where ptxas kept the branch a run of the same branch is
 * side code it hoisted above it (clang's `@p bra X; bra.uni Y` made `@!P IMUL; @!P BRA Y`),
 * then those whose comparisons are most alike (like_sig, whatever their functions: ptxas may
 * inline a .func), then by shape (a back edge with a back edge); never by our kinds */
static void pair_group(const CList *a, const CList *b, const int *ga, int na, const int *gb,
                       int nb, int *match)
{
	PairCtx x = {a, b, ga, gb, 2 * (int64_t)(na < nb ? na : nb) + 1};
	int *m = malloc(((size_t)na + 1) * sizeof *m);

	if (!m)
		die("out of memory");
	lcs(na, nb, group_weight, &x, m);
	for (int p = 0; p < na; p++)
		if (m[p] >= 0)
			match[ga[p]] = gb[m[p]];
	free(m);
}

/* with a line map: match[i] = the construct of b that comes from the PTX branch a's construct
 * i comes from (Construct.key, cmporigin.c), or -1; of several on either side (ptxas's
 * unrolled copies, a side we cut into two runs), pair_group's. Constructs that come from no
 * branch (ptxas's runs from a selp, its division code) pair with nothing */
static void pair_by_lines(const CList *a, const CList *b, int *match)
{
	int *ga = malloc(((size_t)a->n + 1) * sizeof *ga);
	int *gb = malloc(((size_t)b->n + 1) * sizeof *gb);
	uint8_t *done = calloc((size_t)a->n + 1, 1);

	if (!ga || !gb || !done)
		die("out of memory");
	for (int i = 0; i < a->n; i++)
		match[i] = -1;
	for (int i = 0; i < a->n; i++) {
		int na = 0, nb = 0, key = a->c[i].key;
		if (!key || done[i])
			continue;
		for (int p = i; p < a->n; p++)
			if (a->c[p].key == key) {
				ga[na++] = p;
				done[p] = 1;
			}
		for (int q = 0; q < b->n; q++)
			if (b->c[q].key == key)
				gb[nb++] = q;
		pair_group(a, b, ga, na, gb, nb, match);
	}
	free(ga);
	free(gb);
	free(done);
}

/* b's constructs grouped by function in the order a's functions come (each group in code
 * order, those of functions a lacks last), so that the alignment, which pairs constructs of
 * one function only (like), can pair every function's, whatever order the two listings lay
 * the functions out in */
static void by_function(const CList *a, CList *b)
{
	Construct *c;
	uint8_t *done;
	int n = 0;

	if (b->n == 0)   /* nothing to group, and b->c may be NULL (memcpy's operand) */
		return;
	c = malloc((size_t)b->n * sizeof *c);
	done = calloc((size_t)b->n, 1);
	if (!c || !done)
		die("out of memory");
	/* the first of a's constructs in a function takes all of b's there (done) */
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < b->n; j++)
			if (!done[j] && !strcmp(b->c[j].fn, a->c[i].fn)) {
				done[j] = 1;
				c[n++] = b->c[j];
			}
	for (int j = 0; j < b->n; j++)
		if (!done[j])
			c[n++] = b->c[j];
	memcpy(b->c, c, (size_t)b->n * sizeof *c);
	free(c);
	free(done);
}

/* a construct's place for the alignment: its function's run of l, then the flow order */
typedef struct {
	int run, ord, i;
} Place;

static int place_cmp(const void *x, const void *y)
{
	const Place *p = x, *q = y;

	if (p->run != q->run)
		return p->run < q->run ? -1 : 1;
	if (p->ord != q->ord)
		return p->ord < q->ord ? -1 : 1;
	return (p->i > q->i) - (p->i < q->i);
}

/* out = l's constructs, each function's (a run of l) in the flow order of its listing
 * (cmporder.c), idx[q] the place in l of out's construct q */
static void flow_sorted(const CList *l, CList *out, int *idx)
{
	Place *p = malloc(((size_t)l->n + 1) * sizeof *p);

	out->n = out->cap = l->n;
	out->c = malloc(((size_t)l->n + 1) * sizeof *out->c);
	if (!p || !out->c)
		die("out of memory");
	for (int i = 0, run = 0; i < l->n; i++) {
		run += i > 0 && strcmp(l->c[i].fn, l->c[i - 1].fn);
		p[i] = (Place){run, l->c[i].ord, i};
	}
	if (l->n)
		qsort(p, (size_t)l->n, sizeof *p, place_cmp);
	for (int q = 0; q < l->n; q++) {
		idx[q] = p[q].i;
		out->c[q] = l->c[p[q].i];
	}
	free(p);
}

static void sizes(char *buf, size_t n, const Construct *c)
{
	if (c->taken < 0 && c->fall < 0)
		snprintf(buf, n, "-");
	else if (c->taken < 0)
		snprintf(buf, n, "?/%d", c->fall);
	else if (c->fall < 0)
		snprintf(buf, n, "%d/?", c->taken);
	else
		snprintf(buf, n, "%d/%d", c->taken, c->fall);
}

void be_compare(FILE *f, const Kernel *ours, const Kernel *ref, const BeLog *log, int json,
                BeCompareSum *sum, const BeLines *lines)
{
	CList a = {0}, b = {0}, fa = {0}, fb = {0};
	int *match, *used, *ia, *ib, *fmatch, agree = 0, matched = 0;
	char s1[32], s2[32];

	extract(ours, &a, 1, log, lines);
	extract(ref, &b, 0, NULL, lines);
	by_function(&a, &b);
	match = calloc((size_t)a.n + 1, sizeof *match);
	fmatch = calloc((size_t)a.n + 1, sizeof *fmatch);
	ia = calloc((size_t)a.n + 1, sizeof *ia);
	used = calloc((size_t)b.n + 1, sizeof *used);
	ib = calloc((size_t)b.n + 1, sizeof *ib);
	if (!match || !fmatch || !ia || !used || !ib)
		die("out of memory");
	/* paired by the line map; or aligned in code order and in flow order, the heavier
	 * kept (code order on a tie); reported in code order */
	if (lines) {
		pair_by_lines(&a, &b, match);
	} else {
		flow_sorted(&a, &fa, ia);
		flow_sorted(&b, &fb, ib);
		if (align(&fa, &fb, fmatch) > align(&a, &b, match))
			for (int q = 0; q < a.n; q++)
				match[ia[q]] = fmatch[q] >= 0 ? ib[fmatch[q]] : -1;
	}
	if (json)
		fprintf(f, "{\"kernel\": \"%s\", \"registers\": %d, \"ptxas_registers\": %d, \"branches\": [",
		        ours->name, ours->regs, ref->regs);
	else
		fprintf(f, "%s: ours against ptxas%s\n  %-7s %-8s %-11s %-7s %-8s %-11s %-7s %s\n",
		        ours->name, lines ? " (paired by its line table)" : "", "PTX", "ours", "decision",
		        "sides", "ptxas", "decision", "sides", "agree");
	for (int i = 0; i < a.n; i++) {
		const Construct *x = &a.c[i], *y = match[i] >= 0 ? &b.c[match[i]] : NULL;
		const BeLogEntry *e = entry_of(log, ours->name, x);
		int ok = y && y->kind == x->kind;
		if (y) {
			used[match[i]] = 1;
			matched++;
			agree += ok;
		}
		sizes(s1, sizeof s1, x);
		if (y)
			sizes(s2, sizeof s2, y);
		if (json) {
			fprintf(f, "%s\n  {\"ptxline\": %d, \"addr\": %u, \"decision\": \"%s\", \"sides\": \"%s\", "
			        "\"ptxas_addr\": %d, \"ptxas_decision\": \"%s\", \"ptxas_sides\": \"%s\", "
			        "\"agree\": %s", i ? "," : "", e ? e->ptxline : x->ptxline, (unsigned)x->addr,
			        ck_name[x->kind], s1, y ? (int)y->addr : -1, y ? ck_name[y->kind] : "",
			        y ? s2 : "", !y ? "null" : ok ? "true" : "false");
			fprintf(f, lines ? ", \"origin\": %d}" : "}", x->key);
		} else {
			char at[16] = "-";
			if (y)
				snprintf(at, sizeof at, "/*%04x*/", (unsigned)y->addr);
			fprintf(f, "  %-7d /*%04x*/ %-11s %-7s %-8s %-11s %-7s %s\n", e ? e->ptxline : x->ptxline,
			        (unsigned)x->addr, ck_name[x->kind], s1, at, y ? ck_name[y->kind] : "",
			        y ? s2 : "", !y ? "-" : ok ? "yes" : "NO");
		}
	}
	if (json) {
		fprintf(f, "\n], \"ptxas_only\": [");
		for (int j = 0, first = 1; j < b.n; j++)
			if (!used[j]) {
				sizes(s2, sizeof s2, &b.c[j]);
				fprintf(f, "%s{\"addr\": %u, \"decision\": \"%s\", \"sides\": \"%s\"",
				        first ? "" : ", ", (unsigned)b.c[j].addr, ck_name[b.c[j].kind], s2);
				fprintf(f, lines ? ", \"origin\": %d}" : "}", b.c[j].key);
				first = 0;
			}
		fprintf(f, "], \"matched\": %d, \"agree\": %d}\n", matched, agree);
	} else {
		for (int j = 0; j < b.n; j++)
			if (!used[j]) {
				sizes(s2, sizeof s2, &b.c[j]);
				fprintf(f, "  %-7s %-8s %-11s %-7s /*%04x*/ %-11s %-7s -\n", "-", "-", "", "",
				        (unsigned)b.c[j].addr, ck_name[b.c[j].kind], s2);
			}
		fprintf(f, "  %d of our %d conditional constructs matched one of ptxas's %d; %d agree "
		        "(%.1f%%); registers %d (ptxas %d)\n", matched, a.n, b.n, agree,
		        matched ? 100.0 * agree / matched : 0.0, ours->regs, ref->regs);
	}
	if (sum) {
		sum->ours += a.n;
		sum->theirs += b.n;
		sum->matched += matched;
		sum->agree += agree;
	}
	free(match);
	free(fmatch);
	free(ia);
	free(ib);
	free(used);
	free(a.c);
	free(b.c);
	free(fa.c);
	free(fb.c);
}
