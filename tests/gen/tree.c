/* tree.c - draws a random program from a seed: the launch shape, the helper functions
 * (plain, recursive, indirect-call targets) and the statement trees, numbered in preorder.
 * The rules that keep every program valid under any schedule are enforced here (gen.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <errno.h>
#include "tests/gen/gen.h"

uint64_t gen_rand(GenRng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1Dull;
}

int gen_below(GenRng *r, int n)
{
	return n <= 1 ? 0 : (int)((gen_rand(r) >> 33) % (uint64_t)n);
}

int gen_chance(GenRng *r, int percent)
{
	return gen_below(r, 100) < percent;
}

static void *xrealloc(void *p, size_t n)
{
	if (!(p = realloc(p, n))) {
		fprintf(stderr, "gen: out of memory\n");
		exit(3);
	}
	return p;
}

void gen_printf(GenBuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (b->n + (size_t)n + 1 > b->cap) {
		b->cap = (b->n + (size_t)n + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
}

char *gen_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

uint64_t gen_number(const char *prog, const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!*s || *end || errno || *s == '-') {
		fprintf(stderr, "%s: %s: expected a non-negative integer, got '%s'\n", prog, what, s);
		exit(2);
	}
	return v;
}

int gen_launch_argv(char *text, char **argv, int max, const char *prog, int keep_out)
{
	int argc = 0;

	argv[argc++] = (char *)prog;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *sp;
		if (line[0] != '-' || (!keep_out && !strncmp(line, "--out ", 6)))
			continue;
		if (argc + 2 >= max)
			break;
		if ((sp = strchr(line, ' ')))
			*sp++ = 0;
		argv[argc++] = line;
		if (sp)
			argv[argc++] = sp;
	}
	return argc;
}

GenNode *gen_node(GenProg *g, int kind)
{
	GenNode *n = xrealloc(NULL, sizeof *n);
	memset(n, 0, sizeof *n);
	n->kind = kind;
	n->id = g->nodes++;
	n->callee = -1;
	return n;
}

static void push(GenBody *b, GenNode *n)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 8;
		b->v = xrealloc(b->v, (size_t)b->cap * sizeof *b->v);
	}
	b->v[b->n++] = n;
}

/* where a statement is generated */
typedef struct {
	GenCtx c;     /* what leaves may do */
	int depth;    /* compound nesting: the if at depth d tests %q<d> */
	int loop;     /* loops around; the innermost is level loop-1 */
	int loopuni;  /* the innermost loop is CTA-uniform (its breaks must be too, so they
	                 come only where the whole CTA is: not inside divergent code in it,
	                 where a break would leave some threads short of its barriers) */
	int noexit;   /* no exit here (inside a CTA-uniform loop, or in a helper's ...) */
	int func;     /* in a .func: early returns instead of exits */
	int maxdepth; /* nesting limit */
} Where;

static void stmts(GenProg *g, GenBody *out, const Where *w, int n);

/* an IF side of 0..12 statements, spread over both sides of every threshold */
static int side_size(GenRng *r)
{
	static const int sizes[] = {0, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 12};
	return sizes[gen_below(r, (int)(sizeof sizes / sizeof sizes[0]))];
}

static void leaf(GenProg *g, GenBody *out, const Where *w, int simple)
{
	GenNode *n = gen_node(g, GN_LEAF);
	n->text = gen_leaf(g, &w->c, simple, &n->callee);
	push(out, n);
}

/* an exit (kernel) or early return (.func); unguarded ones end an if side */
static void exit_stmt(GenProg *g, GenBody *out, const Where *w, int unguarded)
{
	GenNode *n = gen_node(g, GN_EXIT);
	n->a = (gen_chance(&g->rng, 30) ? 1 : 0) | (unguarded ? 2 : 0);
	n->b = gen_below(&g->rng, GEN_NR);
	if (!unguarded)
		n->text = gen_cond(g, "%qs", 0);
	if (!w->func)
		g->exited = 1;
	push(out, n);
}

static void if_stmt(GenProg *g, GenBody *out, const Where *w)
{
	GenRng *r = &g->rng;
	GenNode *n = gen_node(g, GN_IF);
	Where in = *w;
	int uni = 0;
	char pred[32];

	if (w->c.cta_uni && gen_chance(r, 35))
		uni = 1;
	else if (w->c.warp_uni && g->collectives && gen_chance(r, 25))
		uni = 2;
	snprintf(pred, sizeof pred, "%%q%d", w->depth);
	if (!uni && gen_chance(r, 25))   /* a pool predicate the body may overwrite */
		snprintf(pred, sizeof pred, "%s", gen_reg(r, 'p'));
	else
		n->text = gen_cond(g, pred, uni);
	snprintf(n->guard, sizeof n->guard, "%s%s", gen_chance(r, 50) ? "!" : "", pred);
	n->uni = uni == 1 && gen_chance(r, 50);
	in.depth++;
	in.c.cta_uni = w->c.cta_uni && uni == 1;
	in.c.warp_uni = w->c.warp_uni && uni >= 1;
	n->nbody = gen_chance(r, 60) ? 2 : 1;
	push(out, n);
	for (int s = 0; s < n->nbody; s++) {
		int k = side_size(r);
		for (int i = 0; i < k; i++) {
			if (in.depth < in.maxdepth && gen_chance(r, 20))
				stmts(g, &n->body[s], &in, 1);
			else
				leaf(g, &n->body[s], &in, gen_chance(r, 70));
		}
		if (!in.noexit && gen_chance(r, 8))
			exit_stmt(g, &n->body[s], &in, 1);
	}
}

/* a break path after a divergent loop's back edge (n->body[1]): the lanes that leave by its
 * fall-through, at different trips, run it on their way to the loop's end, which the own
 * exit at the top and the breaks reach too. kepler.cfg's rules (--loop-sync pbk) bracket
 * such a loop with PBK, and sync.c's exit_sync pushes an SSY of the path when it is
 * straight-line and holds a global access or 11 or more instructions (tests/ptx/brk_sync),
 * so the sizes spread over that threshold and some paths store. Half of them go round by a
 * test of their own ((%lc + reg) & 3 != 0, brk_sync's), the own exit at the top bounding the
 * loop. Drawn from a stream of its own (the seed and the loop's node number): a program
 * without one is the one the seed made before, so the seeds other tests pick stay as they
 * were. In 3% of the divergent loops: 28 of the 400 sm35 seeds of run-gen.sh get the SSY.
 * Under GEN_NO_BRKPATH (gen --no-brkpath) none: what run-gen.sh's coverage check then sees */
static void brk_path(GenProg *g, GenNode *n, const Where *w)
{
	static const int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14};
	GenRng keep = g->rng, *r = &g->rng;
	Where in = *w;
	int k;

	if (n->uni || (g->flags & GEN_NO_BRKPATH))
		return;
	r->s = (g->seed + 0x9E3779B97F4A7C15ull * (uint64_t)(n->id + 1)) ^ 0xB5AD4ECEDA1CE2A9ull;
	for (int i = 0; i < 4; i++)
		gen_rand(r);
	if (gen_chance(r, 3)) {
		in.c.cta_uni = in.c.warp_uni = 0;
		in.noexit = 1;
		if (gen_chance(r, 50)) {
			n->a = 1;
			snprintf(n->guard, sizeof n->guard, "%s", gen_reg(r, 'r'));
		}
		n->nbody = 2;
		k = sizes[gen_below(r, (int)(sizeof sizes / sizeof sizes[0]))];
		for (int i = 0; i < k; i++)
			leaf(g, &n->body[1], &in, gen_chance(r, 50));
		if (w->c.kernel && gen_chance(r, 35)) {
			GenNode *s = gen_node(g, GN_LEAF);
			s->text = gen_store(g);
			push(&n->body[1], s);
		}
	}
	g->rng = keep;
}

static void loop_stmt(GenProg *g, GenBody *out, const Where *w)
{
	GenRng *r = &g->rng;
	GenNode *n = gen_node(g, GN_LOOP);
	GenBuf t = {0};
	Where in = *w;
	int lv = w->loop;

	n->uni = w->c.cta_uni && gen_chance(r, 30);
	n->a = gen_chance(r, 40);
	n->b = lv;
	if (n->uni)
		gen_printf(&t, "\tand.b32 %%lb%d, %%u%d, 3;\n\tadd.u32 %%lb%d, %%lb%d, 1;\n\tmov.u32 %%lc%d, 0;\n",
		           lv, gen_below(r, 4), lv, lv, lv);
	else if (gen_chance(r, 70))
		gen_printf(&t, "\tand.b32 %%lb%d, %s, 7;\n\tmov.u32 %%lc%d, 0;\n", lv, gen_reg(r, 'r'), lv);
	else
		gen_printf(&t, "\tand.b32 %%lc%d, %s, 3;\n\tmov.u32 %%lb%d, 5;\n", lv, gen_reg(r, 'r'), lv);
	n->text = t.p;
	n->nbody = 1;
	in.depth++;
	in.loop++;
	in.loopuni = n->uni;
	in.c.cta_uni = w->c.cta_uni && n->uni;
	in.c.warp_uni = w->c.warp_uni && n->uni;
	in.noexit = w->noexit || n->uni;
	push(out, n);
	stmts(g, &n->body[0], &in, 1 + gen_below(r, 5));
	brk_path(g, n, w);
}

static void brx_stmt(GenProg *g, GenBody *out, const Where *w)
{
	GenRng *r = &g->rng;
	GenNode *n = gen_node(g, GN_BRX);
	GenBuf t = {0};
	Where in = *w;

	n->nbody = 2 + gen_below(r, GEN_MAXCASE - 1);
	n->uni = w->c.cta_uni && gen_chance(r, 30);
	gen_printf(&t, "\trem.u32 %%t3, %s, %d;\n", n->uni ? (gen_chance(r, 50) ? "%u0" : "%u2") :
	           gen_reg(r, 'r'), n->nbody);
	n->text = t.p;
	in.depth++;
	in.c.cta_uni = w->c.cta_uni && n->uni;
	in.c.warp_uni = w->c.warp_uni && n->uni;
	push(out, n);
	for (int s = 0; s < n->nbody; s++)
		stmts(g, &n->body[s], &in, gen_below(r, 4));
}

static void jump_stmt(GenProg *g, GenBody *out, const Where *w, int kind)
{
	GenNode *n = gen_node(g, kind);
	n->text = gen_cond(g, "%qs", w->loopuni ? 1 : 0);
	push(out, n);
}

/* n statements of any kind the place allows */
static void stmts(GenProg *g, GenBody *out, const Where *w, int n)
{
	GenRng *r = &g->rng;

	for (int i = 0; i < n; i++) {
		int x = gen_below(r, 100), compound = w->depth < w->maxdepth;
		if (x < 55 || (!compound && x < 85))
			leaf(g, out, w, 0);
		else if (x < 72 && compound)
			if_stmt(g, out, w);
		else if (x < 80 && compound && w->loop < GEN_MAXLOOP)
			loop_stmt(g, out, w);
		else if (x < 84 && compound)
			brx_stmt(g, out, w);
		else if (x < 90 && w->loop && (!w->loopuni || w->c.cta_uni))
			jump_stmt(g, out, w, gen_chance(r, 50) ? GN_BREAK : GN_CONT);
		else if (x < 94 && !w->noexit)
			exit_stmt(g, out, w, 0);
		else
			leaf(g, out, w, 0);
	}
}

static void gen_func(GenProg *g, int kind, const char *name)
{
	GenFunc *f = &g->fn[g->nfn++];
	GenRng *r = &g->rng;
	Where w = {{0, 0, 0}, 0, 0, 0, 0, 1, 3};

	g->infunc = 1;
	f->kind = kind;
	snprintf(f->name, sizeof f->name, "%s", name);
	f->ret = gen_below(r, GEN_NR);
	f->rsrc = gen_below(r, GEN_NR);
	f->rdst = gen_below(r, GEN_NR);
	stmts(g, &f->body, &w, kind == GF_PLAIN ? 2 + gen_below(r, 6) : 1 + gen_below(r, 4));
	if (kind == GF_REC)
		stmts(g, &f->body2, &w, 1 + gen_below(r, 3));
	g->infunc = 0;
}

void gen_program(GenProg *g, uint64_t seed, int size, int flags)
{
	static const uint32_t blocks[] = {32, 64, 96, 128, 32, 64, 128, 256};
	static const uint32_t odd[] = {1, 7, 33, 48, 100};
	GenRng *r = &g->rng;
	Where w = {{1, 1, 1}, 0, 0, 0, 0, 0, 4};
	char name[16];

	memset(g, 0, sizeof *g);
	g->seed = seed;
	g->flags = flags;
	g->size = size < 1 ? 1 : size;
	r->s = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
	for (int i = 0; i < 4; i++)
		gen_rand(r);
	g->rec = g->itgt = -1;
	g->outbytes = GEN_EPIBYTES;
	g->block = gen_chance(r, 15) ? odd[gen_below(r, 5)] : blocks[gen_below(r, 8)];
	g->grid = 1 + (uint32_t)gen_below(r, 3);
	while (g->grid * g->block > GEN_MAXTHREADS)
		g->grid--;
	g->k = (uint32_t)gen_below(r, 256);
	g->collectives = g->block % 32 == 0;
	g->uselocal = gen_chance(r, 50);
	g->useshared = 1;
	w.c.warp_uni = g->collectives;
	w.maxdepth = 3 + (g->size > 2) + (g->size > 4);

	/* helpers first, so the kernel's calls have callees */
	g->nplain = gen_below(r, 3);
	for (int i = 0; i < g->nplain; i++) {
		snprintf(name, sizeof name, "f%d", i);
		gen_func(g, GF_PLAIN, name);
	}
	if (gen_chance(r, 50)) {
		g->rec = g->nfn;
		gen_func(g, GF_REC, "rec");
	}
	if (gen_chance(r, 40)) {
		g->itgt = g->nfn;
		g->nitgt = 2 + gen_below(r, 2);
		for (int i = 0; i < g->nitgt; i++) {
			snprintf(name, sizeof name, "t%d", i);
			gen_func(g, GF_ITGT, name);
		}
	}
	stmts(g, &g->kbody, &w, 4 * g->size + gen_below(r, 4 * g->size));
	g->outbytes = (g->outbytes + 7) & ~7;
}

static void free_body(GenBody *b)
{
	for (int i = 0; i < b->n; i++) {
		GenNode *n = b->v[i];
		for (int s = 0; s < n->nbody; s++)
			free_body(&n->body[s]);
		free(n->text);
		free(n);
	}
	free(b->v);
	memset(b, 0, sizeof *b);
}

void gen_free(GenProg *g)
{
	for (int i = 0; i < g->nfn; i++) {
		free_body(&g->fn[i].body);
		free_body(&g->fn[i].body2);
	}
	free_body(&g->kbody);
}
