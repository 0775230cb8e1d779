/* gen.h - the random PTX program generator of the correctness net (issue 9).
 *
 * A program is drawn once from a seed as a tree of statements (GenNode) numbered in preorder;
 * emission prints it as PTX, leaving out the nodes of a drop set. The shrinker deletes
 * statements and whole blocks that way without ever breaking validity, because validity holds
 * by construction:
 *   - every register of a function is written in its prologue (no uninitialised reads);
 *   - loop counters, bounds and loop predicates are private to their loop (bounded loops);
 *   - threads write only their own output slots; cross-thread effects are commutative
 *     reductions (red.*) or shared-memory exchanges fenced by barriers;
 *   - barriers sit only where every thread of the CTA arrives (CTA-uniform control flow, no
 *     exit before them); warp votes and shuffles only where all 32 lanes of the warp are
 *     present (warp-uniform control flow, full warps, no exit before them).
 *
 * Files: tree.c (the random tree), leaf.c (straight-line instruction templates and edge
 * values), emit.c (PTX and launch text); tests/tools/gen.c is the command line.
 */
#ifndef WARPSIM_GEN_H
#define WARPSIM_GEN_H

#include <stdint.h>
#include <stddef.h>

/* register pools every function declares (the names are the same in every function) */
enum {
	GEN_NR = 12,     /* %r0..: .b32 */
	GEN_ND = 6,      /* %rd0..: .b64 */
	GEN_NF = 6,      /* %f0..: .f32 */
	GEN_NG = 4,      /* %fd0..: .f64 */
	GEN_NP = 4,      /* %p0..: .pred */
	GEN_MAXDEPTH = 6,/* nesting depth of compound statements (%q<depth>) */
	GEN_MAXLOOP = 3, /* loop nesting (%lc, %lb, %ql per level) */
	GEN_MAXCASE = 4, /* brx.idx cases */
	GEN_MAXFUNC = 8, /* helper functions */
	GEN_INWORDS = 16,/* input words per thread */
	GEN_INTOTAL = 4096, /* words of the input buffer (a power of two) */
	GEN_MAXTHREADS = 256, /* grid * block */
	GEN_ACCWORDS = 16,/* words of the reduction buffer: 8 u32 then 4 u64 */
	GEN_EPIBYTES = 168, /* per-thread output bytes the epilogue writes (see emit.c) */
};

/* xorshift64* */
typedef struct { uint64_t s; } GenRng;
uint64_t gen_rand(GenRng *r);
int gen_below(GenRng *r, int n);          /* uniform in 0..n-1 */
int gen_chance(GenRng *r, int percent);   /* 1 with probability percent/100 */

/* growable text */
typedef struct { char *p; size_t n, cap; } GenBuf;
void gen_printf(GenBuf *b, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
char *gen_strdup(const char *s);
/* a command-line count: exits 2 with "PROG: WHAT: expected ..." unless s is a decimal number */
uint64_t gen_number(const char *prog, const char *s, const char *what);
/* gen_emit_launch's text (modified in place) as argv[1..] for sim_opts_argv, argv[0] = prog;
 * --out lines kept only when keep_out; returns argc */
int gen_launch_argv(char *text, char **argv, int max, const char *prog, int keep_out);

typedef enum {
	GN_LEAF,    /* straight-line instructions: text */
	GN_IF,      /* text computes the condition; @guard bra else; body[0] then, body[1] else */
	GN_LOOP,    /* text sets %lc/%lb of level b; body[0]; a: 1 = test at the top; body[1]
	               (nbody 2): the break path, run by the lanes that leave by the back
	               edge's fall-through; guard, when set: the register whose sum with %lc
	               the back edge tests ((sum & 3) != 0 goes round; a is then 1) */
	GN_BREAK,   /* text computes %qs; @%qs bra to the loop's end */
	GN_CONT,    /* text computes %qs; @%qs bra to the loop's continue point */
	GN_EXIT,    /* text computes %qs (unless a & 2); kernel: exit or ret (a & 1); .func:
	               st.param [rv], reg b and ret */
	GN_BRX,     /* text puts the case index in %t3; brx.idx over body[0..nbody-1] */
} GenKind;

typedef struct GenNode GenNode;
typedef struct { GenNode **v; int n, cap; } GenBody;

struct GenNode {
	int kind;                  /* GenKind */
	int id;                    /* preorder number: what --drop names */
	char *text;                /* see GenKind */
	char guard[40];            /* IF: the predicate tested, with '!' when negated */
	int a, b;                  /* see GenKind */
	int uni;                   /* IF/LOOP/BRX: the branch is CTA-uniform (bra.uni) */
	int callee;                /* LEAF: the function it calls, or -1 */
	GenBody body[GEN_MAXCASE]; /* nested statements */
	int nbody;                 /* bodies used */
};

typedef enum { GF_PLAIN, GF_REC, GF_ITGT } GenFuncKind;

typedef struct {
	int kind;       /* GenFuncKind: (a, b) -> rv; rec(n, x) -> rv; indirect target (a) -> rv */
	char name[16];  /* f0, rec, t0 ... */
	GenBody body;   /* statements (rec: before the recursive call) */
	GenBody body2;  /* rec: after the recursive call */
	int rsrc, rdst; /* rec: the register passed down and the one receiving the result */
	int ret;        /* the register returned at the end */
} GenFunc;

/* gen_program's flags */
enum {
	GEN_NO_BRKPATH = 1,        /* no break path after a loop's back edge (gen --no-brkpath) */
};

typedef struct {
	uint64_t seed;             /* what made it */
	int flags;                 /* GEN_NO_BRKPATH ... */
	GenRng rng;                /* the generator's state */
	int size;                  /* --size: scales the number of statements */
	uint32_t grid, block, k;   /* launch: CTAs, threads per CTA, the scalar parameter */
	int collectives;           /* votes and shuffles allowed (full warps) */
	int uselocal;              /* the kernel has a .local array */
	int useshared;             /* the kernel has shared arrays */
	int outbytes;              /* per-thread output bytes (epilogue + store statements) */
	int nodes;                 /* node count (ids are 0..nodes-1) */
	GenFunc fn[GEN_MAXFUNC];   /* helpers */
	int nfn;
	int nplain, rec, itgt;     /* plain helpers fn[0..nplain-1]; index of rec, of t0 (-1) */
	int nitgt;                 /* indirect targets fn[itgt..itgt+nitgt-1] */
	GenBody kbody;             /* the kernel's statements */
	/* while generating */
	int exited;                /* an exit was generated: no barrier or collective after it */
	int uniq;                  /* counter for names that must be unique in a function */
	int infunc;                /* generating a helper: no %s0 (thread index) there */
} GenProg;

/* tree.c */
void gen_program(GenProg *g, uint64_t seed, int size, int flags);
void gen_free(GenProg *g);
GenNode *gen_node(GenProg *g, int kind);

/* leaf.c: one straight-line statement for a context */
typedef struct {
	int kernel;    /* in the kernel (memory bases, stores, reductions available) */
	int cta_uni;   /* every thread of the CTA is here together: barriers allowed */
	int warp_uni;  /* every lane of the warp is here together: collectives allowed */
} GenCtx;
char *gen_leaf(GenProg *g, const GenCtx *c, int simple, int *callee);
char *gen_store(GenProg *g);                                 /* a store to a fresh slot */
char *gen_cond(GenProg *g, const char *pred, int uniform);   /* setp into pred */
const char *gen_reg(GenRng *r, char cls);                    /* a random register of cls */
const char *gen_imm(GenRng *r, char cls);                    /* an edge value of cls */

/* emit.c */
typedef struct {
	const unsigned char *drop;  /* drop[id] != 0: leave node id out (may be NULL) */
	int ndrop;                  /* entries of drop */
} GenEmitOpts;
void gen_emit_ptx(GenBuf *out, const GenProg *g, const GenEmitOpts *o);
void gen_emit_launch(GenBuf *out, const GenProg *g, const char *outdir);

#endif
