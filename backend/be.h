/* be.h - the backend's internal IR: functions of blocks of machine instructions on
 * temporaries, shared by the passes of backend/ (nobody outside backend/ includes it).
 *
 * A machine instruction (MIns) is an isa Ins whose register operands name temporaries
 * (Tmp) instead of registers; register allocation maps temporaries to R/P registers and
 * emit.c turns MIns into Ins. Control flow lives in the block (Blk.jmp), as in QBE, until
 * emission lowers it to BRA/EXIT/RET/BRX and the sync points.
 */
#ifndef WARPSIM_BE_H
#define WARPSIM_BE_H

#include <stdint.h>
#include <string.h>
#include "backend/backend.h"
#include "ptxisa/ptxisa.h"   /* ptxisa_type, ptxisa_rnd: PTX types and roundings in ISA terms */

_Noreturn void be_die(const char *file, int line, const char *msg);
#define die(msg) be_die(__FILE__, __LINE__, msg)

/* the size and kind of a PTX type (PType) */
static inline int tbytes(int pt) { return ptx_type_bytes((PType)pt); }
static inline int tsigned(int pt) { return ptx_type_kind((PType)pt) == PTK_SIGNED; }
static inline int tfloat(int pt) { return ptx_type_kind((PType)pt) == PTK_FLOAT; }

/* ------------------------------------------------------------------ pools and vectors */
/* a pool is the frontend's arena (ptx.h): allocations zeroed, freed all at once */
typedef PArena Pool;
static inline Pool *be_pool_new(void) { return ptx_arena_new(); }
static inline void be_pool_free(Pool *p) { ptx_arena_free(p); }
static inline void *be_alloc(Pool *p, size_t n) { return ptx_alloc(p, n); }
/* grows *v (elements of size sz, *cap of them) to hold n; memory from the pool */
void be_grow(Pool *p, void *v, int *cap, int n, size_t sz);
#define VPUSH(pool, v, n, cap) \
	(be_grow((pool), &(v), &(cap), (n) + 1, sizeof *(v)), &(v)[(n)++])

/* ------------------------------------------------------------------ temporaries */
enum { TC_R, TC_R2, TC_R4, TC_P };  /* 32-bit, even pair, quad, predicate */
/* registers (words) of a temporary class: 4, 2, or 1 (TC_R, and TC_P's one predicate) */
static inline int be_cls_words(int cls) { return cls == TC_R4 ? 4 : cls == TC_R2 ? 2 : 1; }
enum { T_RZ, T_PT, T_SP, T_FIRST }; /* fixed temporaries: RZ, PT, the stack pointer R1 */

typedef struct {
	uint8_t cls;      /* TC_* */
	uint8_t w16;      /* 1: holds an 8/16-bit PTX value, kept zero-extended */
	uint8_t split;    /* 1: a wide load's pair or quad, read only by MOVs of its words, each
	                     once and in order (regalloc.c gives a copy's destination the word) */
	int16_t phys;     /* register (or predicate) after allocation, -1 before */
	int32_t ptxreg;   /* PTX register it holds, -1 for a selector temporary */
	int32_t slot;     /* spill slot (byte offset in the frame), -1 when not spilled */
	int32_t nodef;    /* 1 when it is a spill scratch that must not be spilled again */
} Tmp;

/* an operand: OpdKind of isa.h, with t naming a temporary where Opd has a register */
typedef struct {
	uint8_t kind;     /* OpdKind */
	uint8_t flags;    /* OPF_* */
	uint8_t bank;     /* OPD_CONST bank */
	uint8_t part;     /* 0: the whole temporary; k > 0: its (k-1)-th 32-bit word */
	uint16_t n;       /* OPD_TLIST count */
	int32_t t;        /* temporary of OPD_REG/OPD_PRED, base of OPD_CONST/OPD_MEM (T_RZ: none) */
	int64_t imm;      /* as Opd.imm; OPD_TARGET: block id (or -1-function for CAL);
	                     OPD_TLIST: index into Fn.tl of block ids */
} MOpd;

typedef struct {
	uint16_t op;        /* Op */
	uint8_t gneg;       /* guard negated */
	uint8_t sync;       /* .S */
	uint8_t nopd;       /* operands */
	int32_t guard;      /* guard predicate temporary, T_PT when unguarded */
	Mods m;             /* modifiers */
	MOpd o[ISA_MAXOPD]; /* operands */
	int32_t ptxline;    /* PTX source line */
	int32_t srcline;    /* .loc line */
	int16_t srcfile;    /* .loc file, -1 */
	uint8_t gkill;      /* ifconv.c: a guarded definition that starts a new live range (every
	                       read of the old value is under the same guard, none after it) */
} MIns;

/* ------------------------------------------------------------------ blocks */
typedef enum {
	J_NONE,   /* not yet known */
	J_JMP,    /* go to s1 */
	J_BRA,    /* @cond go to s1, else s2 */
	J_EXIT,   /* thread ends */
	J_RET,    /* return from a .func */
	J_BRX,    /* indirect: index temporary cond, targets Fn.tl[tl .. tl+ntl) */
} JmpKind;

typedef struct {
	uint8_t kind;     /* JmpKind */
	uint8_t neg;      /* condition negated (@!p) */
	uint8_t uni;      /* written .uni, or found uniform (uniform.c) */
	uint8_t div;      /* divergent: needs reconvergence (uniform.c) */
	int32_t cond;     /* predicate temporary (J_BRA), index temporary (J_BRX) */
	int32_t tl, ntl;  /* J_BRX targets */
	int32_t ptxins;   /* PTX instruction index of the branch, -1 */
	int32_t tbl;      /* J_BRX: jump table byte offset in constant bank 3 */
	uint8_t folded;   /* the branch became a guarded EXIT (1: of the lanes that take it; 4: of
	                     those that do not) or RET (2), or a loop's back edge to the head past an
	                     EXIT (3: emitted @P BRA head; EXIT) (be_fold_exits) */
	uint8_t lock;     /* an atomic's loop back (isel_mem.c): always divergent; 1 the
	                     shared-memory lock loop, 2 a compare-and-swap loop */
	uint8_t pdiv;     /* divergent as ptxas 11.8 sees it (uniform.c, under --loop-sync pbk):
	                     div, or its condition reads a value carried round a loop that a
	                     divergent branch leaves or continues */
	uint8_t nest;     /* ifconv.c's ret-nest or one-side: the branch that stayed after its
	                     fall-through side was predicated; its taken lanes leave for the
	                     join (s1), the others fall into the early return or the long
	                     side (s2) */
} Jmp;

/* a PBK loop's break path (pbk.c's be_exit_sync): the straight-line code its divergent back
 * edge falls into on the way to the loop's end; ptxas 11.8 pushes an SSY of it after the PBK
 * when it holds a global access or BE_BRKPATH_MIN or more instructions */
enum { BE_BRKPATH_MIN = 11 };
typedef struct {
	int start;        /* its first block, -1 when the back edge falls into none */
	int pfirst, plast;/* PTX instructions [pfirst, plast) from its first block's to its last's */
	int ins;          /* its instructions */
	uint8_t mem;      /* it holds a global memory access */
	uint8_t ssy;      /* its SSY was pushed */
} BrkPath;

typedef struct {
	int id;           /* index in Fn.blk */
	int pfirst, plast;/* PTX instructions [pfirst, plast) it came from (plast excludes the branch) */
	MIns *ins;        /* body */
	int nins, cap;
	Jmp jmp;          /* terminator */
	int s1, s2;       /* successors (J_JMP: s1; J_BRA: s1 taken, s2 fall-through), -1 */
	int *pred;        /* predecessors */
	int npred, cappred;
	int rpo;          /* reverse post-order number, -1 when unreachable */
	int idom;         /* immediate dominator, -1 for the entry */
	int ipdom;        /* immediate post-dominator; Fn.nblk stands for the virtual exit */
	int loop;         /* innermost natural loop (Fn.loops index), -1 */
	int dead;         /* removed from the function */
	int order;        /* layout position (emit.c) */
	/* sync.c */
	int *push;        /* SSY targets pushed at the end of the block, outermost first */
	int npush, cappush;
	uint8_t arrive1;  /* the edge to s1 arrives (.S) */
	uint8_t arrive2;  /* the edge to s2 arrives */
	uint8_t brk;      /* this block is a PBK target: pushed by PBK, arrived at by BRK */
	uint8_t brkpass;  /* pbk.c's be_exit_sync and be_trip_join: an SSY target that a BRK to the
	                     PBK target beneath it passes (its lanes leave the SYNC token too) */
	int tjoin;        /* pbk.c's be_trip_join: the join in the loop's trip whose SSY this
	                     block's branch pushes (a side breaks past it), else -1 */
	int brkj;         /* sync.c's kept_exit: the block this block's branch leaves its loop for,
	                     its join where the fold's post-dominators see none (a loop nest that
	                     ends the kernel), else -1 */
	BrkPath bpath;    /* pbk.c's be_exit_sync: the break path this back edge falls into */
	uint8_t retjoin;  /* ifconv.c: the join of a divergent ret-nest (sync.c pushes a PBK of
	                     it at its immediate dominator) */
	uint8_t predicated; /* ifconv.c: block merged away */
	char why[64];     /* uniform.c: why the branch is uniform or divergent */
	/* liveness (regalloc.c) */
	uint32_t *livein; /* bitsets over temporaries */
	uint32_t *liveout;
	uint32_t *din, *dout; /* temporaries some path from the entry may have defined */
	int first, last;  /* instruction numbers in the linear order */
} Blk;

typedef struct {
	int header;       /* header block */
	int parent;       /* enclosing loop, -1 */
	int depth;        /* 1 for outermost */
	uint32_t *body;   /* bitset over blocks */
	int nbits;        /* the blocks body covers (ids below it); later blocks by their loop */
} Loop;

typedef struct Fn {
	Pool *pool;          /* everything of the function */
	const Module *m;     /* the module */
	const PFunc *pf;     /* the PTX function */
	int fidx;            /* its index in Module.funcs */
	const BeOptions *opt;
	FILE *err;           /* diagnostics */
	int nerr;            /* errors so far */
	Blk *blk;            /* blocks, blk[0] is the entry */
	int nblk, capblk;
	Tmp *tmp;            /* temporaries */
	int ntmp, captmp;
	int *regtmp;         /* PTX register id -> temporary */
	int32_t *tl;         /* pool of target block ids (J_BRX, OPD_TLIST) */
	int ntl, captl;
	int *lblblk;         /* PTX label -> block */
	Loop *loops;
	int nloops, caploops;
	int *lay;            /* layout: block ids in code order (dead ones skipped at emission) */
	int nlay, caplay;
	uint8_t *preduni;    /* uniform.c: PTX register is divergent (1) or uniform (0) */
	const uint8_t *pardiv; /* --func-params callers: per parameter of this .func, whether some
	                        call in the kernel passes a value that may differ between lanes
	                        (NULL: each may) */
	const uint8_t *retuni; /* --func-params callers: per function of the module, whether the
	                        results of a call to it are the same in all lanes (NULL: none is) */
	char **whymemo;      /* uniform.c: per PTX register, be_why_divergent's answer once computed
	                        ("" when the divergence has another cause) */
	uint32_t frame;      /* bytes of the frame: .local vars, spills, saved regs, call area */
	uint32_t localsz;    /* bytes of .local variables */
	uint32_t *localoff;  /* PFunc.locals index -> frame offset (.local / .param) */
	uint8_t *parhome;    /* PFunc.locals index: a .param with a home in the frame (layout.c) */
	int ndup;            /* sync.c: blocks copied by tail duplication */
	uint32_t *exitin;    /* pbk.c, while sync.c runs: be_livein's live-in sets of the code as
	                        it is (made when first asked; NULL again at be_sync's start and
	                        whenever be_newblk or be_set_edge changes the code) */
	uint32_t *exitkill;  /* and its kill sets */
	uint32_t spillsz;    /* bytes of spill slots */
	uint32_t outsz;      /* bytes of the outgoing call area at the end of the frame */
	uint32_t paramsz;    /* .func: bytes of incoming params+rets, just below the frame */
	int hascall;         /* calls another function */
	int maxreg;          /* highest register used + 1 */
	uint32_t savedmask[8]; /* registers written (callee-saves them in a .func) */
	uint32_t predmask;   /* predicates written */
	BeLog *log;          /* decision log or NULL */
	int cur_ptx;         /* isel: PTX instruction being selected */
	int cur_blk;         /* isel: block being filled */
	int guard_done;      /* isel: the op applied the PTX guard itself (split blocks) */
	int ccpol;           /* isel: what set CC.C in this block: 0 unknown, 1 add, 2 sub */
	const struct Layout *vl; /* module-wide variable layout (layout.c) */
	struct IfRec *ifrec; /* ifconv.c: what if-conversion found for each conditional branch */
	int nifrec, capifrec;
	struct BeIfMemo *ifmemo; /* ifrule.c, while if-conversion runs: what it found out about
	                        the whole function (per temporary), kept until ifconv.c clears
	                        ifmemo_ok after a conversion changes the code */
	int ifmemo_ok;
	uint8_t *zmarks;     /* hammock.c: zero_move's marks, per temporary (nzmarks of them), all
	                        clear between the sides that use them */
	int nzmarks;
	struct BeFold *folds;/* chain.c: the branches whose test was folded into the next one's */
	int nfolds, capfolds;
	int *kfold;          /* cfold.c: per PTX instruction, its entry of kres, -1 (NULL before) */
	int *wfuse;          /* isel_int.c: per PTX instruction, the mul.wide an add.s64 takes in
	                        (be_wide_fuse), -2 for that mul, -1 (NULL before) */
	struct BeKFold *kres;/* cfold.c: the instructions selection makes from constants */
	int nkres;
	struct BeKBra *kbra; /* cfold.c: the conditional branches it folded (log.c reads them) */
	int nkbra, capkbra;
} Fn;

/* cfold.c: a conditional branch folded away (log.c) */
enum { BE_KB_NEVER, BE_KB_ALWAYS, BE_KB_MEET, BE_KB_DEAD };
typedef struct BeKBra {
	int ptxins;          /* the branch */
	int how;             /* BE_KB_NEVER, BE_KB_ALWAYS: its predicate is a constant; BE_KB_MEET:
	                        its two ways meet at once past blocks folding emptied; BE_KB_DEAD:
	                        a fold before it leaves no path to it */
} BeKBra;

/* cfold.c: what selection makes of a PTX instruction whose results are known constants */
enum { BE_K_CONST = 1, BE_K_COPY, BE_K_DEAD, BE_K_UNGUARD };
typedef struct BeKFold {
	uint8_t kind;        /* BE_K_CONST: a move of each result; BE_K_COPY: a move of the operand
	                        a selp of a constant predicate picks; BE_K_DEAD: nothing (results
	                        folding left unread, or a guard that never holds); BE_K_UNGUARD:
	                        the instruction without its guard, which always holds */
	uint8_t n;           /* results, in destination order (a vector's elements in turn) */
	int8_t copy;         /* BE_K_COPY: the operand slot */
	uint64_t v[4];       /* BE_K_CONST: the results' bits (predicates 0 or 1) */
} BeKFold;

/* block b's successors by index k < be_nsucc(b): s1, s2 (either -1 when absent), then a
 * J_BRX's jump table */
static inline int be_nsucc(const Blk *b) { return 2 + (b->jmp.kind == J_BRX ? b->jmp.ntl : 0); }
static inline int be_succ(const Fn *f, const Blk *b, int k)
{
	return k == 0 ? b->s1 : k == 1 ? b->s2 : f->tl[b->jmp.tl + k - 2];
}

/* ifconv.c: one conditional PTX branch as if-conversion saw it (log.c reads it) */
typedef struct IfRec {
	int ptxins;          /* the branch's PTX instruction */
	char shape[24];      /* "if-then", "if-then-else", "ret-nest", "one-side", "loop-exit" ...:
	                        docs/predication.md's list */
	int size_then;       /* microcode instructions on the taken side, -1 when not a hammock */
	int size_else;       /* on the fall-through side, -1 */
	int predicated;      /* 1: converted into guarded straight-line code */
	int alone;           /* 1: the fall-through side alone was (one-side, ret-nest);
	                        2: the taken side alone (one-side, the fall-through breaks) */
	int uniform;         /* the branch cannot diverge */
	char why[64];        /* uniformity reason */
	char rule[BE_RULE_LEN];  /* the rule that decided */
} IfRec;

/* chain.c: one test folded into the next one's predicate (log.c reads it) */
enum { BE_CHAIN_MAX = 5 };   /* ptxas 11.8 folds a test whose block holds up to 5 */
typedef struct BeFold {
	int ptxins;          /* the folded branch's PTX instruction */
	int into;            /* the PTX branch that now tests both (the chain's last) */
	int size;            /* the next test's block as ptxas counts it (<= BE_CHAIN_MAX) */
	int common;          /* 1: both branches went to one target, 2: the first went where
	                        the second falls (`if (a || b) side`) */
} BeFold;

/* the registers operand slot i of in spans (isa_ins_nregs on in's opcode, modifiers and
 * operand kinds; its temporaries play no part) */
static inline int be_ins_nregs(const MIns *in, int i)
{
	Ins x;
	memset(&x, 0, sizeof x);
	x.op = in->op;
	x.m = in->m;
	x.nopd = in->nopd;
	for (int k = 0; k < in->nopd; k++)
		x.o[k].kind = in->o[k].kind, x.o[k].imm = in->o[k].imm;
	return isa_ins_nregs(&x, i);
}

#define BITS_WORDS(n) (((n) + 31) / 32)
#define BSET(b, i) ((b)[(i) >> 5] |= 1u << ((i) & 31))
#define BCLR(b, i) ((b)[(i) >> 5] &= ~(1u << ((i) & 31)))
#define BHAS(b, i) (((b)[(i) >> 5] >> ((i) & 31)) & 1)

/* The prototypes below are grouped by the file that defines them, in the order the files
 * are layered (docs/backend.md, "Files"): a file calls only files of the groups above its
 * own, never one below, and tests/run-layers.sh checks it on the objects. */

/* ------------------------------------------------------------------ util.c */
int be_newtmp(Fn *f, int cls);
int be_regcls(int ptype);                          /* TC_* of a PTX type */
int be_newblk(Fn *f);                              /* appended to the layout */
int be_has_push(const Blk *b, int t);              /* t among b's sync pushes */
void be_lay_move(Fn *f, int b, int where, int after); /* put b before/after block where */
MIns *be_emit(Fn *f, Blk *b, Op op);               /* appends an unguarded instruction */
MOpd be_r(int t);                                  /* register operand */
MOpd be_rpart(int t, int part);                    /* word part-1 of a pair/quad */
MOpd be_p(int t);                                  /* predicate operand */
MOpd be_pn(int t, int neg);                        /* predicate, possibly !p */
MOpd be_imm(int64_t v);
MOpd be_cst(int bank, int64_t off);                /* c[bank][off] */
MOpd be_mem(int base, int64_t off);                /* [base + off] */
void be_addpred(Fn *f, int b, int p);
void be_preds(Fn *f);                              /* recompute predecessor lists */
void be_errorf(Fn *f, PLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void be_unsup(Fn *f, const PIns *in, const char *what); /* "unsupported: op: what" */
/* backward liveness to the least fixed point over f's live blocks, per block b (w words at
 * b * w of each flat array): out[b] = the union of in[s] over b's successors (be_succ), and
 * mout[b]; in[b] = (gen[b] | (out[b] & ~kill[b])) and min[b]. in starts zeroed; min, mout
 * NULL: no mask; out NULL: not kept (regalloc.c over temporaries, uniform.c over PTX
 * registers) */
void be_live(const Fn *f, int w, const uint32_t *gen, const uint32_t *kill, const uint32_t *min,
             const uint32_t *mout, uint32_t *in, uint32_t *out);
/* calls fn(ctx, t, def, kill) for every temporary instruction in reads (def 0), then every
 * one it writes (def 1; kill 1 when the write replaces the whole value: unguarded or a
 * guard's kill, and not one word of a pair or quad) */
typedef void BeVisit(void *ctx, int t, int def, int kill);
void be_visit(const MIns *in, BeVisit *fn, void *ctx);
void be_v_def(void *ctx, int t, int def, int kill);   /* a BeVisit: sets t's bit of ctx if written */
/* block b's gen (read before written, its branch's predicate included) and kill (written
 * whole) over temporaries, one bit each */
void be_genkill(const Blk *b, uint32_t *gen, uint32_t *kill);
/* the live-in sets of f's blocks, w words a block (BITS_WORDS(f->ntmp)), from f's pool; the
 * blocks' kill sets into *kill when kill is not NULL (be_genkill, be_live) */
uint32_t *be_livein(const Fn *f, int w, uint32_t **kill);
/* edges and sync pushes (sync.c, irred.c, pbk.c): edge e of block b is s1 (0), s2 (1), then a
 * BRX's targets (2 ..) */
int be_nedge(const Fn *f, int b);                  /* b's edges, in that numbering */
int be_edge_to(const Fn *f, int b, int e);         /* the target of edge e of b */
void be_set_edge(Fn *f, int b, int e, int x);      /* points edge e of b at x */
int be_jump_blk(Fn *f, int t);                     /* a new empty block that jumps to t */
int be_copy_blk(Fn *f, int t);                     /* a copy of t, last in the layout */
int be_postdominates(const Fn *f, int j, int b);   /* on the ipdom tree */
void be_add_push(Fn *f, int p, int j);             /* j among p's pushes, outermost first */
int be_writes(const MIns *in, int t);              /* in writes temporary t (register or predicate) */
int be_check_ir(Fn *f, const char *after);         /* structural checks of the IR */
void be_dump(FILE *out, Fn *f, const char *after); /* the -d printer */

/* ------------------------------------------------------------------ cost.c */
void be_cost(const BeOptions *o, BeLogEntry *e);   /* e's cost_pred and cost_branch */

/* ------------------------------------------------------------------ decide.c */
/* a branch --explain lists and numbers: a guarded bra, an indirect bra, a brx.idx */
int be_is_branch(const PIns *in);
/* the 1-based number --explain gives instruction ins of pf (the module's conditional and
 * indirect branches in file order), 0 when it is not such a branch */
int be_branch_index(const Module *m, const PFunc *pf, int ins);
/* the decision --decide forces on PTX instruction ptxins of f: 1 pred, 0 branch, -1 none
 * (*loc: the entry's LOC) */
int be_decide_of(const Fn *f, int ptxins, const char **loc);
/* every --decide entry names a branch of m, and no branch is forced both ways; -1 after a
 * message on err */
int be_decide_check(const Module *m, const BeOptions *o, FILE *err);

/* ------------------------------------------------------------------ layout.c */
/* module-wide placement of variables */
typedef struct Layout {
	uint32_t *varoff;    /* Module.vars index -> shared offset, bank-3 offset, or global slot */
	uint32_t **locoff;   /* [func][local] -> shared offset for body .shared variables */
	uint32_t shared;     /* where the dynamic shared memory starts: after the whole static
	                        part of every kernel, aligned to 16 or more */
	uint32_t cbank;      /* bytes of bank 3 (module .const data) */
	uint32_t local;      /* bytes of module-scope .local variables: every thread's local
	                        memory from 0, below the entry's frame */
} Layout;
/* the functions kernel fi reaches: direct calls, .calltargets, address-taken functions */
/* the static shared bytes of a kernel's CTA, reach[i] marking the functions it reaches */
uint32_t be_kernel_shared(const Module *m, const Layout *l, const uint8_t *reach);
void be_layout(const Module *m, Layout *l);
void be_layout_free(const Module *m, Layout *l);
/* the offset of a variable (PSYM_VAR) or body variable (PSYM_LOCAL) in its space: shared,
 * bank 3 or the frame */
uint32_t be_var_offset(Fn *f, int symkind, int sym);
/* f's frame: Fn.paramsz, localoff, parhome, localsz (needs the PTX body only) */
void be_frame_layout(Fn *f);
#define BE_KPARAM_BASE 0x20u  /* where the kernel parameters start in constant bank 0 */
uint32_t be_entry_param_off(const PFunc *pf, int idx);         /* kernel param idx in bank 0 */
uint32_t be_func_param_off(const PFunc *pf, int kind, int idx);/* PSYM_PARAM/RET idx at SP */
/* the .param offset of a call's argument (or, isret, result) i in the callee's area */
uint32_t be_call_slot(const Module *m, const PFunc *caller, const PIns *call, int isret, int i);
uint32_t be_proto_args_size(const PTList *tl);   /* a .callprototype's args, 8-aligned */
uint32_t be_args_size(const PFunc *g);   /* bytes of a function's incoming params and results */

/* ------------------------------------------------------------------ cfg.c, dom.c */
int be_cfg(Fn *f);           /* blocks from PTX; 0 on success */
void be_rpo(Fn *f);          /* rpo numbers, drops unreachable blocks */
void be_fold_exits(Fn *f);   /* branches to an empty exit block -> @p EXIT */
/* b keeps its loop's back edge before the fold's EXIT (folded 3): @P BRA head; EXIT */
int be_kept_back(const Blk *b);
/* the labels an indirect bra may reach, in value order (lab: room for nlabels) */
int be_ibra_targets(const PFunc *pf, const Module *m, const PIns *in, int *lab);
/* the jump table of a J_BRX block (entries; slot filled when not NULL) */
int be_brx_table(const Fn *f, const Blk *b, int *slot);
void be_dom(Fn *f);          /* dom.c */
/* Cooper-Harvey-Kennedy over any graph: order[] the nodes in RPO from the root order[0],
 * rpo[] their numbers, pred lists; idom[] out (-1 unreachable, root: itself) */
void be_chk_idom(int n, const int *order, int norder, const int *rpo, int *const *pred,
                 const int *npred, int *idom);
void be_postdom(Fn *f);
int *be_postdom_kept(Fn *f);  /* ipdoms (Fn.nblk: the exit) with kept back edges' EXITs as exits */
void be_loops(Fn *f);
int be_dominates(const Fn *f, int a, int b);
int be_in_loop(const Fn *f, int loop, int b);
/* some live block y of loop l with in[y] != v has an edge out of l (in NULL: any block) */
int be_loop_leaves(const Fn *f, int l, const uint8_t *in, uint8_t v);
int be_cont_target(const Fn *f, int l, int t);   /* t is l's header or a latch of l */
int be_outer_loop(Fn *f, int b, int j);         /* outermost loop holding b, not j; -1 */

/* ------------------------------------------------------------------ cfold.c */
void be_cfold(Fn *f);        /* branches on constants folded, dead blocks dropped; Fn.kfold */
int be_cfold_dst(const PIns *in, int e);   /* a folded instruction's result e: its register */

/* ------------------------------------------------------------------ sel.c: the toolkit */
MIns *be_op3(Fn *f, Blk *b, Op op, MOpd d, MOpd a, MOpd c);
MIns *be_op2(Fn *f, Blk *b, Op op, MOpd d, MOpd a);             /* a 2-operand instruction */
MIns *be_lop(Fn *f, Blk *b, Sub s, int d, MOpd a, MOpd c);     /* LOP.s d, a, c */
MIns *be_ballot(Fn *f, Blk *b, int d, MOpd p);                /* VOTE.ANY d, PT, p: p's lanes */
MIns *be_shift(Fn *f, Blk *b, Op op, int d, MOpd a, int k);    /* SHL/SHR(.U32) d, a, k */
MIns *be_setp_ins(Fn *f, Blk *b, Op op, Cmp c, Type ty, int p, int q, MOpd a, MOpd x, MOpd cc,
                  Bop bop);                                    /* one ISETP/FSETP/DSETP/PSETP */
MIns *be_psetp(Fn *f, Blk *b, int d, MOpd a, MOpd c, Bop op);   /* PSETP d = a op c */
MIns *be_csel(Fn *f, Blk *b, MOpd d, MOpd a, MOpd x, int p, int neg); /* SEL d, a, x, [!]p */
Cmp be_cmp_of(int pcmp, int *isunsigned);         /* PCmp -> Cmp (lo.. set *isunsigned) */
MOpd be_src(Fn *f, Blk *b, const POpd *o, int ptype);      /* PTX source -> operand */
MOpd be_src_reg(Fn *f, Blk *b, const POpd *o, int ptype);  /* the same, always a register */
int be_dst(Fn *f, const POpd *o);                          /* PTX destination -> temporary */
void be_mov(Fn *f, Blk *b, int dst, MOpd src, int cls);    /* a copy of any class */
void be_fix16(Fn *f, Blk *b, int t, int ptype);            /* re-canonicalise a narrow value */
MOpd be_widen(Fn *f, Blk *b, MOpd s, int pt);              /* narrow signed -> 32-bit */
/* 64-bit shift of pair a by n (a register or immediate, clamped at 64) into pair d (isel_int.c) */
void be_shift64(Fn *f, Blk *b, int d, MOpd a, MOpd n, int left, int sgn);
MOpd be_inreg(Fn *f, Blk *b, MOpd s, int cls);             /* immediates into a register */
MOpd be_part(MOpd s, int k);                               /* word k of a pair or immediate */
void be_add64(Fn *f, Blk *b, int d, MOpd a, MOpd c, int sub);   /* d = a +- c, carry chain */
void be_sel64(Fn *f, Blk *b, int d, MOpd a, MOpd c, int p);     /* d = p ? a : c, pairs */
typedef struct {
	int space;     /* PSpace after resolving symbols (PS_NONE: generic) */
	MOpd mem;      /* [base + off] or c[bank][...] */
	int wide;      /* base is a 64-bit pair (.E) */
	int entryparam;/* kernel parameter: constant bank 0 */
} BeAddr;           /* a memory operand resolved */
int be_addr_of(Fn *f, Blk *b, const PIns *in, const POpd *o, BeAddr *a);
MOpd be_half_f32(Fn *f, Blk *b, MOpd s, int et, int k, int ftz); /* exact f32 of a 16-bit lane */
/* d = the bf16 of the f32 bits u, rounded to nearest even (rz: toward zero); NaN 0x7fff */
void be_round_bf16(Fn *f, Blk *b, int d, MOpd u, int rz);
void be_relu16(Fn *f, Blk *b, int d);                      /* .relu of a 16-bit float in d */
int be_cvt_wide(Fn *f, const PIns *in);   /* cvt into a wider pair: 1, else 0; -1 refused */
void be_cvt_high(Fn *f, Blk *b, const PIns *in);           /* that pair's high word */
Blk *be_split(Fn *f, int bi);        /* a new block takes over bi's terminator */
int be_loop_block(Fn *f, int bi, int cond);   /* a uniform one-block loop after bi */
void be_guard_from(Fn *f, Blk *b, int k0, const PIns *in); /* in's guard on b from k0 */

/* ------------------------------------------------------------------ isel_*.c: the families */
int be_sel_addsub(Fn *f, Blk *b, const PIns *in, int sub);  /* isel_int.c (integer types) */
void be_wide_fuse(Fn *f);      /* Fn.wfuse: mul.wide by 2^k into its add.s64 */
int be_sel_mul(Fn *f, Blk *b, const PIns *in, int mad);
int be_sel_mul24(Fn *f, Blk *b, const PIns *in, int mad);
int be_sel_minmax(Fn *f, Blk *b, const PIns *in, int max);
int be_sel_absneg(Fn *f, Blk *b, const PIns *in, int neg);
int be_sel_logic(Fn *f, Blk *b, const PIns *in, Sub sub);
int be_sel_not(Fn *f, Blk *b, const PIns *in);
int be_sel_cnot(Fn *f, Blk *b, const PIns *in);
int be_sel_shift(Fn *f, Blk *b, const PIns *in, int left);
int be_sel_bits(Fn *f, Blk *b, const PIns *in);             /* isel_bits.c: popc ... brev */
int be_sel_bf(Fn *f, Blk *b, const PIns *in);               /* bfe, bfi */
int be_sel_mask(Fn *f, Blk *b, const PIns *in);             /* bmsk, szext */
int be_sel_lop3(Fn *f, Blk *b, const PIns *in);
int be_sel_prmt(Fn *f, Blk *b, const PIns *in);
int be_sel_shf(Fn *f, Blk *b, const PIns *in);
int be_sel_fns(Fn *f, Blk *b, const PIns *in);
int be_sel_dp(Fn *f, Blk *b, const PIns *in);               /* dp4a, dp2a */
int be_sel_elect(Fn *f, Blk *b, const PIns *in);            /* elect.sync */
int be_sel_divrem(Fn *f, Blk *b, const PIns *in, int rem);  /* isel_div.c */
int be_sel_float(Fn *f, Blk *b, const PIns *in);            /* isel_math.c: float ops, sad */
int be_sel_cvt(Fn *f, Blk *b, const PIns *in);
int be_sel_bf16(Fn *f, Blk *b, const PIns *in);             /* isel_bf16.c: bf16 arithmetic */
int be_sel_hminmax(Fn *f, Blk *b, const PIns *in, int max); /* min/max of f16/bf16 (x2) */
int be_sel_cvt_bf16(Fn *f, Blk *b, const PIns *in);         /* cvt to/from bf16, to f16x2, bf16x2, tf32 */
int be_sel_setp(Fn *f, Blk *b, const PIns *in);             /* isel_cmp.c */
int be_sel_set(Fn *f, Blk *b, const PIns *in);
int be_sel_selp(Fn *f, Blk *b, const PIns *in);
int be_sel_slct(Fn *f, Blk *b, const PIns *in);
int be_sel_mov(Fn *f, Blk *b, const PIns *in);
int be_sel_video(Fn *f, Blk *b, const PIns *in);            /* isel_video.c: vadd2 ... vset */
int be_isel_mem(Fn *f, Blk *b, const PIns *in);             /* isel_mem.c */
int be_sel_atom(Fn *f, Blk *b, const PIns *in, int red);    /* isel_atom.c: atom, red */
int be_sel_cp_async(Fn *f, Blk *b, const PIns *in);         /* isel_async.c */
int be_isel_call(Fn *f, Blk *b, const PIns *in);            /* isel_call.c */
int be_call_arg(Fn *f, Blk *b, const PIns *in, int i, int pt, MOpd *v);
MOpd be_call_arg_mem(Fn *f, const PIns *in, int i);
MOpd be_call_ret_mem(Fn *f, const PIns *in, int i);
int be_sel_heap(Fn *f, Blk *b, const PIns *in, int *rc);   /* isel_heap.c: malloc, free */
int be_sel_cdp(Fn *f, Blk *b, const PIns *in, int *rc);    /* isel_cdp.c: device launches */
int be_sel_label(Fn *f, Blk *b, const PIns *in);            /* mov d, label */
int be_sel_trap(Fn *f, Blk *b);                             /* BPT.TRAP */
void be_sel_brx(Fn *f, Blk *last);                          /* a J_BRX's target address */

/* ------------------------------------------------------------------ passes after cfg */
int be_isel(Fn *f);          /* isel.c: selection of every block */
void be_fold_preds(Fn *f);   /* isel_pred.c: predicate constants and copies folded */
void be_uniform(Fn *f);      /* uniform.c */
/* reach.c: the definitions of f's PTX registers (those its live blocks' instructions write),
 * and for each read, in operand order, those that may reach it */
typedef struct {
	int reg;             /* the register read; -1 for a special register */
	int sreg;            /* that special register (PSReg), else -1 */
	int first, n;        /* the definitions that may reach it: BeReach.defs[first, first + n) */
} BeRead;
typedef struct {
	int nd;              /* definitions */
	int *dins, *dreg, *dblk; /* per definition: its PTX instruction, register, block */
	int *idef;           /* per PTX instruction i: its definitions [idef[i], idef[i + 1]) */
	int *rdef, *rdefs;   /* per register g: its definitions rdefs[rdef[g], rdef[g + 1]) */
	int *bit;            /* per definition: its bit in reach (its register is written more
	                        than once), else -1 */
	int wm;              /* words of a set of such definitions */
	uint32_t *reach;     /* per block, wm words: those that may reach its entry */
	BeRead *rd;          /* the reads */
	int nrd, caprd;
	int *iread, *nread;  /* per PTX instruction: its reads [iread, iread + nread) */
	int *bread;          /* per block: its branch condition's read (cond's register), else -1 */
	int *defs;           /* the reads' reaching definitions */
	int ndefs, capdefs;
} BeReach;
BeReach *be_reach(Fn *f, int (*cond)(const Fn *f, const Blk *b));
int be_ins_dst(const PIns *in, int k);   /* the k-th register in writes, -1 past the last */
/* uniform.c, for backend.c's fixed point of --func-params callers over a kernel's functions:
 * call i of the analysed f passes argument a a value that may differ between lanes; function
 * k's parameters that may take any value (its address taken, or the parameter written or its
 * address taken) marked in d; the analysed .func f returns the same in all lanes */
int be_arg_div(const Fn *f, int i, const POpd *a);
void be_param_escapes(const Module *m, int k, uint8_t *d);
int be_ret_uniform(const Fn *f);
int be_fold_chains(Fn *f);   /* chain.c: tests folded into one predicate; how many */
/* uniform.c: "%p2 depends on %tid.x via %r4", the special register behind divergent PTX
 * register reg (memoised); 0 when the divergence has another cause */
int be_why_divergent(const Fn *f, int reg, char *out, size_t n);
/* ifrule.c: what keeps a branch around it a branch whatever the side's size, in words ("a
 * call"; NULL for anything else): a call, a warp-wide op, and under the sm35 rule a correctly
 * rounded division or square root (hammock.c's unpredicable; ifrule.c's kept_test) */
const char *be_branch_op(const Fn *f, const MIns *in);
/* ifrule.c: the sm_35 cost of one side of a hammock whose branch ends block a (the side's
 * blocks in order, its size as ifconv.c counted it); writes why it cannot be predicated into why (when not NULL and
 * still empty); sets *loadside when the side computes the address of a global load it makes
 * (counted LOAD_SIDE fewer: held to the divergent limit under a uniform branch too); writes
 * into note (when not NULL) what of the side ptxas's count leaves out that the guide's
 * count does not (a store address the side computes, fused shifts, folded offsets), "" for
 * nothing */
int be_ifrule_sm35_side(const Fn *f, int a, const int *chain, int nchain, int size, char *why,
                        size_t nwhy, int *loadside, char *note, size_t nnote);
/* ifrule.c: the side (its blocks in order) stores a value it loaded from global memory and
 * the block of the join, join, loads from that store's address before its base changes:
 * ptxas 11.8 branches around such a side (tests/ptx/reload), however short */
int be_ifrule_sm35_reload(const Fn *f, const int *chain, int nchain, int join);
/* ifrule.c: instruction k of b costs ptxas nothing: how (0 when it costs an instruction) */
enum {
	BE_FREE_ISEL = 1,   /* a widening integer conversion, our abs's negation, a 16-bit mask */
	BE_FREE_FUSE        /* a shift ptxas fuses into the add after it, an address offset it
	                       folds into the access */
};
int be_ifrule_free(const Blk *b, int k);
/* pbk.c: ptxas 11.8's PBK targets and the SSYs their BRKs pass, for sync.c and
 * hammock.c (each function's
 * comment there says what it answers) */
int be_two_exits(const Fn *f, int l, int nb);
void be_exit_sync(Fn *f, int b, int p, int j);
int be_latch_exit(const Fn *f, const Blk *b);
int be_within_loop(const Fn *f, const Blk *b, int j);
int be_join_path(const Fn *f, int b, int j);
void be_trip_reach(const Fn *f, int l, int s, int x, uint8_t *mark, uint8_t v, int *stk);
int be_sides_meet(const Fn *f, const Blk *b, int j, uint8_t *mark, int *stk);
int be_nest_push(Fn *f, int j);
int be_trip_join(Fn *f, int b, int j);
int be_trip_latch(Fn *f, int b, int j);
void be_trip_order(Fn *f, int b, int x);
int be_leave_join(const Fn *f, const int *kipd, int nb, int b);
/* what one conditional branch is */
typedef struct {
	int a;            /* branch block */
	int side[2];      /* [0] taken side, [1] fall-through side; -1 when the side is the join */
	int *chain[2];    /* the blocks of each side in order (chain[s][0] == side[s]) */
	int nchain[2];    /* their number, 0 when the side is the join */
	int exitside;     /* 0/1: that side ends the thread (EXIT appended) or returns (RET), -1 */
	int retside;      /* exitside returns from the .func (--early-return guarded) */
	int join;         /* common join, -1 for an exit hammock */
	int cost;         /* guarded instructions */
	int size[2];      /* instructions of each side */
	int ncomb;        /* PSETPs needed for already-guarded instructions */
	int loadside;     /* sm35: a side computes the address of a global load it makes */
	int hammock;      /* single entry, single exit, straight-line sides */
	int nest;         /* ret-nest: the taken side returns, the fall-through side (side[1])
	                     jumps to a join other paths reach too */
	int *early;       /* ret-nest: the blocks of the taken side (the early return) */
	int nearly;
	int one;          /* one-side: the fall-through side alone (side[1], a nest whose
	                     taken side is the long side of an if/else, early NULL), or the
	                     taken side alone (side[0]) when the fall-through breaks out of
	                     the loop (hammock.c's breaks_past) */
	char shape[24];
	char block[96];   /* what prevents conversion, "" if nothing */
	char note[160];   /* sm35: what of the larger side ptxas's count leaves out (ifrule.c) */
} Ham;
/* hammock.c: the PTX conditional branch that block b ends in (not a locked or nested one), or
 * NULL */
const PIns *be_ptx_branch(const Fn *f, const Blk *b);
/* hammock.c: what the branch of block a is (h filled; one: its one-side form instead, the
 * short side of an if/else too long to predicate whole) */
void be_examine(const Fn *f, int a, Ham *h, int one);
int be_ifconv(Fn *f);        /* ifconv.c: -1 after a message (a --decide that cannot hold) */
int be_webs(Fn *f);          /* webs.c: one temporary per web; the webs added */
void be_consts(Fn *f);       /* consts.c: constants read from the bank or as immediates */
int be_regalloc(Fn *f);      /* regalloc.c */
int be_reducible(Fn *f);     /* irred.c: irreducible cycles split; 1 when blocks were copied */
int be_sync(Fn *f);          /* sync.c */
void be_log_branches(Fn *f); /* log.c: f's entries of the decision log (when Fn.log) */
/* emit.c: the code of a kernel and the functions it calls (fns[i]: Module.funcs[i] or NULL) */
void be_emit_kernel(Kernel *k, Fn **fns, int nfns, const Module *m);

/* cmporder.c: rank[i] = instruction i's place in a topological order of the ne edges
 * src[e] -> dst[e] without the back edges of a search from the roots, ties by the way on
 * from the last placed, then by the instruction made ready last (compare.c lines
 * constructs up in it) */
void be_flow_order(int n, int ne, const int *src, const int *dst, const int *roots, int nroots,
                   int *rank);

/* ------------------------------------------------------------------ kernel.c */
void be_prog_files(Prog *p, const Module *m);             /* Prog.files from the .file list */
/* the kernel of entry fi with its parameters, .global variables (initial bytes, relocations)
 * and bank-3 .const data; NULL after a located error (an unsupported initializer) */
Kernel *be_kernel_data(Prog *p, const Module *m, int fi, const Layout *vl, FILE *err);
/* after emission: function addresses in initializers, registers, shared, local stack and
 * spill bytes, arch, maxntid */
void be_kernel_finish(Kernel *k, const Module *m, int fi, Fn **fns, const Layout *vl, int arch);

#endif
