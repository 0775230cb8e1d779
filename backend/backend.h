/* backend.h - the translator: PTX IR (frontend/ptx.h) -> microcode program (isa/isa.h).
 *
 * The API of backend/: options, be_translate, the decision log and its outputs, the
 * reconvergence verifier. The files (one pass each, QBE style; each opens with what it needs
 * and what it breaks), what each owns and which it calls: docs/backend.md, "Files"; their
 * shared declarations are in be.h; the translation scheme is docs/backend.md.
 */
#ifndef WARPSIM_BACKEND_H
#define WARPSIM_BACKEND_H

#include <stdio.h>
#include "isa/isa.h"
#include "frontend/ptx.h"
#include "opt/opt.h"

/* the longest reason --explain gives a branch (a one-side's holds the whole if/else's reason
 * and its side's, each with its count's note), with its end */
enum { BE_RULE_LEN = 640 };

/* how if-conversion counts a hammock (docs/predication.md, "The rule") */
typedef enum {
	BE_RULE_GUIDE,  /* both sides together, as the CUDA C Programming Guide 4.x says (7/4) */
	BE_RULE_SM35,   /* each side with its jump; global loads and sides around a converted
	                 * hammock disqualify: ptxas 11.8 for sm_35 (8/6, kepler.cfg) */
	BE_RULE_COUNT
} BeRule;

/* how a loop with divergent exits reconverges (docs/backend.md, "Loops") */
typedef enum {
	BE_LOOP_SSY,    /* SSY before the loop, the exiting lanes arrive with .S (fermi.cfg) */
	BE_LOOP_PBK,    /* PBK before the loop, the exiting lanes leave with BRK: ptxas 11.8
	                 * for sm_35 (kepler.cfg) */
	BE_LOOP_COUNT
} BeLoopSync;

typedef enum {
	BE_RET_BRANCH,  /* a divergent early return from a .func stays a branch (fermi.cfg) */
	BE_RET_GUARDED, /* a side that ends in a return is a hammock: predicated by the rule, it
	                 * leaves by a guarded RET, as ptxas 11.8 for sm_35 does (kepler.cfg) */
	BE_RET_COUNT
} BeEarlyReturn;

/* a chain of tests to one destination (`a || b`, `a && b`; docs/predication.md) */
typedef enum {
	BE_SC_BRANCH,   /* a branch per test (fermi.cfg) */
	BE_SC_FOLD,     /* a short test folded into the one before it, one predicate: ptxas
	                 * 11.8 for sm_35 (kepler.cfg) */
	BE_SC_COUNT
} BeShortCircuit;

/* a .func's parameters in the uniformity analysis (uniform.c) */
typedef enum {
	BE_FP_DIVERGENT, /* each may differ between lanes (fermi.cfg) */
	BE_FP_CALLERS,   /* one is uniform when every call in the kernel passes a uniform value:
	                  * ptxas 11.8 for sm_35, which compiles a copy of the function per
	                  * kernel (kepler.cfg) */
	BE_FP_COUNT
} BeFuncParams;

/* one --decide LOC=pred|branch (decide.c) */
typedef struct {
	char *loc;                  /* #N, LINE, FILE:LINE or LABEL */
	int pred;                   /* 1: predicate the branch, 0: keep it a branch */
} BeDecide;

/* what the translator is asked to do */
typedef struct {
	int predicate_max;          /* if-convert a divergent hammock up to this cost; -1 = inf */
	int predicate_max_uniform;  /* the same for a uniform branch; -1 = inf */
	int predicate_rule;         /* BeRule */
	int loop_sync;              /* BeLoopSync */
	int early_return;           /* BeEarlyReturn */
	int short_circuit;          /* BeShortCircuit */
	int func_params;            /* BeFuncParams */
	BeDecide *decide;           /* --decide: forced decisions, in command-line order */
	int ndecide;
	int cost_issue, cost_ctrl;  /* the cost model's figures (cost.c): --alu-interval and
	                               --ctrl-latency of the architecture (the programs set them
	                               from it); cost_issue 0: no cost model */
	int max_regs;               /* registers per thread: 63 Fermi-class, 255 later */
	int arch;                   /* sm_XX number written in the kernels (20, 30, 35, ...) */
	int want_log;               /* fill Prog-side decision log (be_log_of) */
	const char *kernel;         /* translate only this kernel (NULL: all) */
	const char *dump;           /* -d letters: print the IR after these passes to dumpf */
	FILE *dumpf;                /* where -d output goes (stderr when NULL) */
} BeOptions;

/* the translator's rows of the option table (opt/opt.h) over BeOptions: --predicate-max (7)
 * and --predicate-max-uniform (4), the thresholds of the CUDA C Programming Guide 4.x, and
 * --predicate-rule (guide), --loop-sync (ssy), --early-return (branch) */
extern const OptRow be_opt_rows[];
extern const int be_nopt_rows;
/* the rows' defaults; max_regs and arch: ISA_DEFAULT_MAX_REGS, ISA_DEFAULT_ARCH (a program
 * that reads an architecture takes them from it) */
void be_options_default(BeOptions *o);
void be_options_free(BeOptions *o);   /* the --decide entries */
/* --decide's parser (an OPT_FN over BeOptions): LOC=pred|branch[,LOC=...] appended */
int be_decide_opt(void *field, const char *val, const OptCtx *cx, char *why, size_t n);

/* Translates every .entry of m (or only opt->kernel) into one Kernel each; .func bodies a
 * kernel calls are appended to its code behind an LBL_FUNC label. User-level problems
 * (unsupported constructs) are reported to err as "file:line:col: error: ..." with the
 * source line and a caret; returns NULL after any error. The result is freed with
 * isa_prog_free. */
Prog *be_translate(const Module *m, const BeOptions *opt, FILE *err);

/* ------------------------------------------------------------------ decision log */
/* one conditional branch and what the translator did with it (warpc --explain) */
typedef enum {
	BD_BRANCH_SSY,     /* divergent branch, reconverges at an SSY target */
	BD_BRANCH_SHARED,  /* divergent branch inside a region with the same join: no new SSY */
	BD_BRANCH_NOSYNC,  /* divergent branch whose paths never meet again (exit) */
	BD_BRANCH_UNIFORM, /* uniform branch: no SSY, BRA.U */
	BD_EXIT,           /* branch to an exit: became a guarded EXIT */
	BD_PREDICATED,     /* if-converted into guarded straight-line code */
	BD_LOOP_SSY,       /* divergent loop exit: SSY before the loop, @P NOP.S inside */
	BD_RET,            /* branch to a .func's bare return: became a guarded RET */
	BD_FOLDED,         /* a test of constants: always or never taken, folded away (cfold.c) */
	BD_COUNT
} BeDecision;

typedef struct {
	char *func;          /* PTX function name */
	const char *kernel;  /* the kernel whose translation decided it (a .func is translated
	                        for each kernel that reaches it; owned by the Module) */
	int ptxline, ptxcol; /* the branch in the PTX source */
	int index;           /* its number for --decide #N (be_branch_index) */
	int cost_pred, cost_branch;  /* cost.c: cycles per warp execution predicted for each
	                                decision, -1 without an alternative */
	int srcline;         /* .loc CUDA line, 0 when none */
	int srcfile;         /* .file index, -1 when none */
	char shape[24];      /* "if-then", "if-then-else", "loop-exit", "other", ... */
	int size_then;       /* microcode instructions on the taken side (hammocks), else -1 */
	int size_else;       /* on the other side, or -1 */
	int uniform;         /* 1 when the branch cannot diverge */
	char why_uniform[64];/* what made it uniform or divergent */
	BeDecision decision; /* what was done */
	int side_alone;      /* predicated: 1, the fall-through side alone (one-side, ret-nest), the
	                        branch kept over the taken side; 2, the taken side alone, the
	                        branch kept over the fall-through side, which breaks out of its
	                        loop (one-side); 0: both sides, or not predicated */
	char rule[BE_RULE_LEN];  /* why (threshold, rule) */
	int bpath;           /* a PBK loop's back edge falling into a break path (sync.c's
	                        exit_sync): 1, its SSY pushed after the PBK: 2; else 0 */
	int bpath_first, bpath_last; /* the path's PTX lines (0 when it has no instruction) */
	int bpath_ins;       /* its microcode instructions (the threshold: 11) */
	int bpath_mem;       /* it holds a global memory access */
	const char *ptxfile; /* the name of the PTX file the branch is in (owned by the Module) */
	int ptxunit;         /* that file's index (PLoc.file, Ins.ptxfile): 0 but in a module
	                        linked from several files */
	const char *srcname; /* the .file name of srcfile (owned by the Module), or NULL */
} BeLogEntry;

typedef struct {
	BeLogEntry *e;       /* entries in PTX order per function */
	int n, cap;
} BeLog;

/* like be_translate, and fills log (when not NULL) with one entry per conditional branch */
Prog *be_translate_log(const Module *m, const BeOptions *opt, FILE *err, BeLog *log);
void be_log_free(BeLog *log);
/* explain.c: an aligned report per function (warpc --explain) and the JSON document of
 * docs/predication.md (--explain=json); a branch of a .func translated for several kernels
 * is listed once */
void be_log_print(FILE *f, const BeLog *log);
void be_log_print_json(FILE *f, const BeLog *log);
const char *be_decision_name(BeDecision d);

/* ------------------------------------------------------------------ compare.c */
/* warpc --compare: totals over the kernels compared */
typedef struct {
	int ours, theirs;   /* conditional constructs in our listings and in ptxas's */
	int matched;        /* ours lined up with one of ptxas's */
	int agree;          /* of those, the same decision */
} BeCompareSum;
/* cmporigin.c: the PTX construct a line's code comes from (warpc --compare-lines) */
typedef struct {
	const Module *m;
	PArena *pool;        /* the arrays' (be.h's Pool) */
	int32_t *fn, *ins;   /* per line of the module's first file: the function and index of
	                        its first instruction, -1 when it holds none */
	int n;               /* lines (entries of fn and ins) */
	int32_t *base;       /* per function: its first entry of nsrc and src */
	int32_t *nsrc;       /* per instruction (and one past each function's last): how many
	                        branches go to the labels before it */
	int32_t *src;        /* the last of them, -1 when that is a brx.idx */
} BeOrigins;
void be_origins_init(BeOrigins *o, const Module *m);
void be_origins_free(BeOrigins *o);
/* the line of the PTX branch whose side holds line's instruction, or line itself when that
 * is a conditional branch or guarded or reads a predicate (then *own = 1 when own is not
 * NULL); 0 when it comes from no branch (cmporigin.c says how) */
int be_origin(const BeOrigins *o, int line, int *own);
/* line holds a control instruction: bra, brx.idx, ret or exit */
int be_origin_ctl(const BeOrigins *o, int line);
/* the line of the conditional bra that ends the block of line's instruction (no label, jump
 * or instruction that ptxas expands with branches of its own in between), 0 when there is
 * none: where a BRA of ptxas's on that line comes from */
int be_origin_before(const BeOrigins *o, int line);

/* what pairs constructs by ptxas's line table (warpc --compare-lines) */
typedef struct {
	const IsaLineFn *map;     /* the PTX lines of ptxas's kernel's instructions */
	const BeOrigins *org;     /* the PTX module's origins */
} BeLines;

/* our kernel (translated with log) against ptxas's for the same PTX: one row per conditional
 * construct, its decision and side sizes on both sides, a summary (text, or JSON with json);
 * adds to *sum when not NULL. With lines (not NULL), a construct of ours pairs only with
 * one of ptxas's from the same PTX branch (compare.c, pair_by_lines); else the two lists are
 * aligned by their comparisons */
void be_compare(FILE *f, const Kernel *ours, const Kernel *ref, const BeLog *log, int json,
                BeCompareSum *sum, const BeLines *lines);

/* ------------------------------------------------------------------ verify.c */
/* Invariants of emitted code, on any Kernel: a consistent static CallReturnStack at every
 * instruction (pushes and pops balance around loops), every divergent branch (a guarded
 * BRA without .U) whose paths meet again has the innermost SSY target at its immediate
 * post-dominator (or a PBK's target below SSY tokens only: a break path's), no path reaches an SSY target without a .S, no .S without an SSY.
 * Prints its errors (kernel and code address), returns their count. */
int be_verify_kernel(const Kernel *k, FILE *err);
/* the same with the PTX module the kernel was translated from (NULL: as above): each error
 * starts with the PTX file:line:col of the instruction it is about (Ins.ptxline; the column of
 * the branch on that line) */
int be_verify_kernel_at(const Kernel *k, const Module *m, FILE *err);

#endif
