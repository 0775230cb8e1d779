/* report.h - what users read or look at after a run, built from the SM model's trace records
 * (trace.h): timing traces (--trace: text, gzip text, Chrome trace-event JSON, SVG warp
 * timeline), per-line statistics (--line-stats) and sweeps of one option (--sweep).
 * traces/README.md documents the file formats and their columns; docs/traces.md the options.
 *
 * Files: trace_out.c (output streams, --trace-window, the format dispatcher, sink fan-out),
 * trace_txt.c (.txt and .txt.gz), trace_json.c (.json), trace_svg.c (.svg), linestats.c
 * (--line-stats), bounds.c (--bounds: the run's cycles against three lower bounds), sweep.c
 * (--sweep: child processes, table, CSV, plot), sweep_json.c (a sweep as JSON, --sweep-json;
 * --merge rebuilds a sharded sweep's table from its slices).
 *
 * Every output is byte-for-byte deterministic: no timestamps, no pointers, no host names.
 */
#ifndef WARPSIM_REPORT_H
#define WARPSIM_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "isa/isa.h"
#include "sim/sim.h"
#include "sim/trace.h"

/* ------------------------------------------------------------------ trace_out.c */
typedef enum { TF_TXT, TF_TXTGZ, TF_JSON, TF_SVG, TF_COUNT } TraceFormat;

/* what a trace writer knows about the run besides the records */
typedef struct {
	const Kernel *k;        /* the kernel run (instruction text, name); never NULL: every
	                           launch runs a Kernel, whose name the headers and launch records
	                           print */
	const char *program;    /* the program file as the user named it, for headers */
	int warps_per_cta;      /* warps of one CTA (track numbering); 0 if unknown */
	uint64_t lo, hi;        /* --trace-window: cycles lo..hi inclusive (0, UINT64_MAX: all) */
	const unsigned char *sms;   /* --trace-sms: sms[i] != 0 for the SMs drawn (NULL: all) */
	const unsigned char *warps; /* --trace-warps: the warp slots drawn, per SM (NULL: all) */
	const Prog *prog;       /* the program, or NULL; when linked from several PTX files
	                           (Prog.ptxfiles), the headers name them all and the JSON trace's
	                           ptx_line has its ptx_file */
	int nlaunches;          /* a trace of several launches: how many (rp_trace_launch starts
	                           each); 0 for one launch, whose trace stays as it was */
} TraceInfo;

/* one launch of a trace of several (docs/traces.md, "Several launches"): its cycles continue
 * the earlier launches', each launch starting where the one before it ended */
typedef struct {
	int i, n;               /* launch i (from 0) of n */
	const Launch *l;        /* its options: kernel, grid, block, where */
	uint64_t from;          /* the cycle it starts at: the earlier launches' cycles summed */
} TraceLaunch;
/* "launch 2 of 3: kernel 'K' (grid X,Y,Z, block X,Y,Z; WHERE)", launch i (from 0) of n > 1, l
 * its options (each launch of several names its kernel: l->kernel), in buf (size bytes) */
void rp_launch_title(char *buf, size_t size, const Launch *l, int i, int n);

typedef struct TraceWriter TraceWriter;

/* the format a path asks for (.txt, .txt.gz, .json, .svg), or -1 */
int rp_trace_format(const char *path);
/* "0,2,4-7" into in[0..max-1] (1 for each number listed); 0, or -1 with "expected ..." in why */
int rp_trace_parse_set(const char *s, unsigned char *in, int max, char *why, size_t n);
/* "A:B" (either side may be empty: "1000:" or ":5000"); 0, or -1 with "expected ..." in why */
int rp_trace_parse_window(const char *s, uint64_t *lo, uint64_t *hi, char *why, size_t n);
/* opens path for writing in the format its name asks for; NULL with a message in err */
TraceWriter *rp_trace_open(const char *path, const TraceInfo *ti, char *err, size_t errsz);
/* the sink that feeds the writer */
void rp_trace_sink(TraceWriter *w, TraceSink *s);
/* a trace opened with ti->nlaunches > 0: launch i (from 0) begins, ti its kernel and program;
 * call it before each launch's run, then rp_trace_sink. The writer shifts the records' cycles
 * by the earlier launches' and ends the trace with the last launch's end record. */
void rp_trace_launch(TraceWriter *w, const TraceInfo *ti, const Launch *l, int i);
/* writes what remains (the SVG picture, closing brackets), closes and frees; 0, or -1 with
 * a message in err (a write error) */
int rp_trace_close(TraceWriter *w, char *err, size_t errsz);

/* fan-out: one sink that forwards every record to up to RP_TEE_MAX sinks in order */
#define RP_TEE_MAX 6
typedef struct {
	TraceSink to[RP_TEE_MAX];  /* the sinks fed */
	int n;                      /* how many */
} SinkTee;
void rp_tee_init(SinkTee *t);
void rp_tee_add(SinkTee *t, const TraceSink *s);
void rp_tee_sink(SinkTee *t, TraceSink *out);

/* ---- shared by the writers (not for other modules) */
typedef struct {
	FILE *f;                /* plain output, or NULL */
	void *gz;               /* gzFile for .txt.gz, or NULL */
	int failed;             /* a write failed */
} TOut;
void rp_tout_write(TOut *o, const char *s, size_t n);
void rp_tout_printf(TOut *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* the instruction text of pc ("@!P0 BRA 0x58;"), formatted once per instruction */
typedef struct {
	const Kernel *k;        /* the kernel */
	char **text;            /* per instruction index, NULL until first asked */
} InsText;
void rp_instext_init(InsText *t, const Kernel *k);
const char *rp_instext(InsText *t, uint32_t pc);
/* the opcode with modifiers, without guard and operands ("ISETP.GE.AND"), in buf */
const char *rp_instext_opcode(InsText *t, uint32_t pc, char *buf, size_t n);
void rp_instext_free(InsText *t);

typedef struct {
	void *(*open)(TOut *o, const TraceInfo *ti);  /* state, NULL when out of memory */
	void (*issue)(void *st, const TraceIssue *t);
	void (*event)(void *st, const TraceEvent *ev);
	void (*end)(void *st, uint64_t cycles);
	void (*finish)(void *st);                      /* writes what remains and frees */
	/* several launches (TraceInfo.nlaunches): launch l begins, ti its kernel */
	void (*launch)(void *st, const TraceInfo *ti, const TraceLaunch *l);
} TraceFmt;
extern const TraceFmt rp_trace_txt, rp_trace_json, rp_trace_svg;

/* ------------------------------------------------------------------ stats.c */
const char *rp_stall_name(int why);   /* "raw_alu", ... */
/* the table for humans, and the JSON object for --stats-json; both byte-for-byte stable */
void rp_tstats_print(FILE *f, const TStats *s);
void rp_tstats_json(FILE *f, const TStats *s);
/* its members alone, one a line after indent, comma-separated (no braces) */
void rp_tstats_json_members(FILE *f, const TStats *s, const char *indent);

/* ------------------------------------------------------------------ linestats.c */
/* per-line accumulation: the row of one PTX line, CUDA source line or listing line */
typedef enum { LS_CUDA, LS_PTX, LS_LISTING, LS_COUNT } LineLevel;

typedef struct {
	int level;              /* LineLevel */
	int file;               /* CUDA: Prog.files index; PTX of a program linked from several
	                           files: Prog.ptxfiles index (Ins.ptxfile); -1 otherwise */
	int line;               /* line number in its file */
	uint64_t execs;         /* times a warp entered the line's code (a run of issues of it) */
	uint64_t warp_insts;    /* warp instructions issued from it */
	uint64_t active_lanes;  /* active lanes summed over those issues */
	uint64_t exec_lanes;    /* guard-true lanes summed */
	uint64_t pred_off;      /* active lanes whose guard was false */
	uint64_t div_branches;  /* issues that split the active mask */
	uint64_t reconv;        /* issues after which a SYNC token restored lanes */
	uint64_t stall[STALL_COUNT]; /* cycles warps waited before issuing it, by reason */
} LineRow;

typedef struct LineStats LineStats;

/* for kernel k of program p (p->files names the CUDA sources); NULL when out of memory */
LineStats *rp_linestats_new(const Kernel *k, const Prog *p);
void rp_linestats_sink(LineStats *ls, TraceSink *s);
/* rows of one level in line order (file, then line); *n gets their count */
const LineRow *rp_linestats_rows(LineStats *ls, LineLevel lv, int *n);
/* writes the table (text, or CSV when path ends in .csv); program: the PTX or listing file
 * whose lines are shown beside the numbers (NULL: none). 0, or -1 with a message in err */
int rp_linestats_write(LineStats *ls, const char *path, const char *program, char *err,
                        size_t errsz);
/* the file handling of rp_linestats_write for tables print writes on f (csv: path ends in
 * .csv), such as the several launches' parts (cli/observe.c); print returns 0, or -1 when it
 * ran out of memory (the file lacks a table). 0, or -1 with a message in err */
int rp_linestats_write_by(const char *path, int (*print)(void *arg, FILE *f, int csv), void *arg,
                          char *err, size_t errsz);
void rp_linestats_print(LineStats *ls, FILE *f, const char *program, int csv);
/* one part of the statistics of several launches (docs/traces.md, "Several launches") */
typedef struct {
	const char *title;      /* the text header's "launch 2 of 3: kernel 'K'" (NULL: "kernel 'K'") */
	int legend;             /* the text header's legend of the columns */
	const char *csvpre;     /* text before each CSV row ("2,\"scan\","), or "" */
	const char *csvhead;    /* the CSV header's first columns ("launch,kernel,"), or NULL: no
	                           header line */
} RpLsPart;
void rp_linestats_print_part(LineStats *ls, FILE *f, const char *program, int csv,
                             const RpLsPart *part);
/* adds from's counts to to's (launches of one kernel); 0, or -1 when their kernels differ */
int rp_linestats_add(LineStats *to, const LineStats *from);
void rp_linestats_free(LineStats *ls);
/* the counts of kernel instruction i alone (0 <= i < nins), as a row whose line is i */
void rp_linestats_ins(const LineStats *ls, int i, LineRow *r);

/* the lines of a text file */
typedef struct {
	char *text;             /* the file, lines NUL-terminated */
	char **line;            /* line[i] is line i + 1 */
	int n;
} RpLines;
/* 0, or -1 when path (NULL: none) cannot be read; L is empty then */
int rp_lines_load(RpLines *L, const char *path);
/* a CUDA file named in the PTX (.file): as written, or beside the program */
void rp_lines_cuda(RpLines *L, const char *name, const char *program);
/* line n (from 1) without its newline, "" past the end */
const char *rp_lines_at(const RpLines *L, int n);
void rp_lines_free(RpLines *L);

/* ------------------------------------------------------------------ sweep.c */
typedef struct {
	char *key;              /* option swept, without "--"; "": each value is a list of
	                         * arguments separated by spaces (--explore's variants) */
	char **vals;            /* its values in order */
	int nvals;
	int jobs;               /* -j: child processes at once (>= 1) */
	char *csv, *svg;        /* --sweep-csv, --sweep-svg, or NULL */
	char *ptxas;            /* --sweep-ptxas FILE: the last point, "ptxas", runs FILE (NVIDIA's
	                         * listing of the same kernel) instead of the program, or NULL */
	char *const *outs;      /* the --out paths (not owned): each point's buffers are saved as
	                         * PATH with ".KEY-VALUE" before the extension */
	int nouts;
	int shard, nshards;     /* --shard I/N: only the points p (from 0) with p % N == I - 1 run;
	                         * 0, 0: all of them */
	const char *extra;      /* a file each point writes in its directory, read into
	                         * SweepPoint.extra (--explore's branches.txt), or NULL */
} SweepSpec;

/* one output buffer of a point, as a sweep compares it across processes and machines */
typedef struct {
	char *name;             /* the point's file name of it: "out0-sum.txt" */
	uint64_t bytes;         /* its size */
	uint64_t fnv;           /* its 64-bit FNV-1a hash */
} SweepBuf;

/* the stall counts of --stats-json (scheduler-cycles in which a scheduler issued nothing, by
 * what its first warp waited on; "stall_idle": it had no warp), which a point reports when the
 * timing model ran: with its warp instructions they add up to its cycles times its schedulers
 * (one issue a scheduler-cycle) */
enum { RP_NSTALL = 6 };
extern const char *const rp_stall_names[RP_NSTALL];
/* its name without "stall_": "raw_alu" (the tables' and --explore JSON's column names) */
const char *rp_stall_col(int k);
/* the where-the-cycles-went tables of --sweep and --explore, a column for the warp
 * instructions issued, then one per stall count: w[] the columns' widths, first their
 * headings'; the heading line (after the caller's first column); a row's cells, on the
 * measuring pass (f NULL) widening w to fit them, else printed in w's widths and the line
 * ended, with their sign (sign: they are differences) */
void rp_where_widths(int w[RP_NSTALL + 1]);
void rp_where_head(FILE *f, const int w[RP_NSTALL + 1]);
void rp_where_cells(FILE *f, int w[RP_NSTALL + 1], const int64_t d[RP_NSTALL + 1], int sign);

/* one point's statistics, as the child reports them */
typedef struct {
	int ok;                 /* the child finished and its statistics were read */
	uint64_t cycles;        /* gpu_sim_cycle */
	uint64_t warp_insts;    /* gpgpu_n_tot_w_icount */
	uint64_t thread_insts;  /* gpu_sim_insn */
	uint64_t div_branches;  /* divergent_branches */
	uint64_t crs_hwm;       /* crs_high_water */
	uint64_t pred_off;      /* predicated_off_lanes */
	int outs_differ;        /* its output buffers differ from the first point's */
	SweepBuf *bufs;         /* its output buffers, by name (--sweep-json, --merge compare these) */
	int nbufs;
	int skipped;            /* another slice's point (--shard): not run, not in the table */
	char *extra;            /* the text of SweepSpec.extra, or NULL */
	int stalls;             /* stall[] was reported (the timing model ran: not --functional) */
	uint64_t stall[RP_NSTALL];  /* its stall_* counts, in rp_stall_names' order */
} SweepPoint;

/* the statistics a point reports, by their names in rp_tstats_json ("gpu_sim_cycle") and
 * their fields in SweepPoint: the child's stats.json and --sweep-json read and write these
 * (and rp_stall_names' when the point has them) */
typedef struct {
	const char *name;
	size_t off;             /* of a uint64_t in SweepPoint */
} SweepStat;
extern const SweepStat rp_sweep_stats[];
extern const int rp_nsweep_stats;

/* how point i is named in messages: "--KEY V", or for a list of arguments (key "") the list,
 * the empty one "the program as compiled" (then the result is not buf) */
const char *rp_sweep_point_name(const SweepSpec *sp, int i, char *buf, size_t n);
/* point p (from 0) runs in this process: no --shard, or its slice is this one */
int rp_sweep_in_shard(const SweepSpec *sp, int p);
/* frees one point's buffers (the point itself stays) */
void rp_sweep_point_clear(SweepPoint *p);
/* frees the points' buffers and pts itself */
void rp_sweep_points_free(SweepPoint *pts, int n);
/* "KEY=V1,V2,..." into sp (key and values owned); 0, or -1 with "expected ..." in why */
int rp_sweep_parse(const char *s, SweepSpec *sp, char *why, size_t n);
/* --sweep-ptxas FILE: one more point, "ptxas", that runs FILE; 0, or -1 (out of memory) */
int rp_sweep_add_ptxas(SweepSpec *sp, const char *listing);
void rp_sweep_free(SweepSpec *sp);

/* ------------------------------------------------------------------ explore.c */
/* the child's side: per PTX branch, what its guarded control instruction did */
typedef struct BranchStats BranchStats;
BranchStats *rp_branch_stats_new(const Kernel *k);
void rp_branch_stats_sink(BranchStats *b, TraceSink *s);
/* "PTXLINE ISSUES DIVERGED LANES GUARD_TRUE_LANES WHOLE_JUMPS" per branch line, on f (a sweep point's
 * branches.txt holds every launch's: cli/observe.c) */
void rp_branch_stats_print(BranchStats *b, FILE *f);
void rp_branch_stats_free(BranchStats *b);

/* one conditional branch of the program, as --explore sees it */
typedef struct {
	int index;              /* #N, as --explain numbers it */
	int ptxline, ptxcol;    /* the branch in the PTX */
	int ptxunit;            /* its file in a program linked from several (Ins.ptxfile), else 0 */
	int kern;               /* a run of several launches: the first launched kernel whose code
	                           holds it, numbered from 0 in launch order; else 0 */
	char kernel[64];        /* and that kernel's name; else "" */
	char ptxfile[64];       /* that file's name in a linked program, else "" */
	char cuda[80];          /* "divergence.cu:20" (.loc), or "-" */
	char shape[24];         /* --explain's shape */
	int size_taken, size_fall;   /* --explain's taken / fall sizes, -1 when not a hammock */
	int cost_pred, cost_branch;  /* --explain's cost model: cycles per warp execution, or -1 */
	char compiled[24];      /* the decision as compiled: "predicated", "ssy", ... */
	int predicated;         /* compiled as guarded code */
	char flip[32];          /* the --decide value of its variant ("#3=pred"), "" when none */
	int dsize;              /* with a variant: the instructions of the listing with the branch
	                           less those with it predicated, in kernel kern's translation
	                           (a .func's copy there, as in each kernel that calls it) */
	char why[200];          /* why it has no variant */
	char rule[640];         /* --explain's reason for the decision as compiled (BE_RULE_LEN) */
	char uniform[80];       /* --explain's "uniform: WHY" or "divergent: WHY" */
	/* filled by rp_explore_run */
	int point;              /* its variant's point, or -1 */
	int measured;           /* the counts below come from the run where it is a branch */
	uint64_t execs, diverged, lanes, jump;  /* issues, issues that split the warp, active lanes,
	                           guard-true lanes of its branch instruction */
	uint64_t whole;         /* its issues whose every active lane jumped */
} ExploreBranch;

/* a rule that decides every branch, run whole for the regret (explore.c) */
typedef struct {
	char name[24];          /* "fermi", "kepler", "0" .. "16", "inf" */
	char args[160];         /* its options */
	int ok;                 /* it ran */
	uint64_t cycles;
	double regret;          /* % cycles above the best run */
} ExploreHeur;

enum { RP_HEURS = 20 };

typedef struct {
	/* how to run a variant: self args... plus its own arguments, jobs at a time */
	const char *self;
	char *const *args;
	int nargs, jobs;
	FILE *err;
	const char *program;    /* the PTX (what a slice names) */
	const char *const *launches;    /* a run of several launches: each one's kernel, in order
	                                   (not owned); else NULL */
	int nlaunches;
	int shard, nshards;     /* --shard I/N: run slice I of the variants only (0, 0: all) */
	char *const *slices;    /* --explore-merge: the slices' files hold the variants' runs */
	int nslices;
	ExploreBranch *b;       /* the branches (owned) */
	int nb;
	SweepSpec spec;         /* the runs: "" (as compiled), then "--decide FLIP" per branch */
	SweepPoint *pts;        /* their statistics, pts[0] the program as compiled */
	int rc;                 /* 0, 1 a run failed, 3 buffers differ (rp_sweep_run's) */
	/* the search (rp_explore_search) */
	int (*legal)(void *ctx, const char *decide);   /* the translation holds with --decide V */
	void *legal_ctx;
	int nf;                 /* branches searched: executed, with a variant */
	int *f;                 /* their indexes in b (owned) */
	int exhaustive_max;     /* every combination up to this many branches (--explore-exhaustive) */
	int exhaustive;         /* every combination was run, else coordinate descent */
	int tried, feasible;    /* decision vectors translated, and those that could be */
	char *best;             /* the best vector as a --decide value (owned; "" without branches) */
	uint64_t best_cycles;   /* its cycles */
	uint64_t best_all;      /* the fewest cycles of any run (vectors and rules) */
	ExploreHeur heur[RP_HEURS];
	int nheur;
} Explore;
/* runs the program as compiled and each branch's flip (with x->nshards, only slice x->shard
 * of them; with x->slices, none: the slices' files hold them), compares their --out buffers,
 * reads each branch's counts; returns x->rc */
int rp_explore_run(Explore *x);
/* the best decision vector (every combination of the searched branches up to
 * x->exhaustive_max of them, else coordinate descent from the program as compiled) and the
 * rules' regret against the best run; after rp_explore_run; returns the worst status */
int rp_explore_search(Explore *x);
/* (explore.c, for explore_search.c) runs the program as compiled (point 0) and once more with
 * each argument list vals[i] (point i + 1; vals and its strings are taken over), every point's
 * buffers compared with point 0's; with counts, each point also writes its branch counts.
 * Fills *sp and *pts (the caller frees both); returns rp_sweep_run's status (1 out of memory) */
int rp_explore_points(const Explore *x, char **vals, int n, int counts, SweepSpec *sp,
                      SweepPoint **pts);
void rp_explore_table(FILE *f, const Explore *x, const char *program);
/* what flipping b did against the program as compiled (cycles, warp instructions, SIMD
 * efficiency); 0 when its variant did not run */
int rp_explore_delta(const Explore *x, const ExploreBranch *b, int64_t *dc, int64_t *dw, double *ds);
/* where flipping b's cycles went: its run's stall counts less the program as compiled's
 * (d[k] for rp_stall_names[k], in scheduler-cycles); 0 when either run has none */
int rp_explore_stalls(const Explore *x, const ExploreBranch *b, int64_t d[RP_NSTALL]);
/* that in words into buf (n bytes): the non-zero ones ("-205 waiting on arithmetic results,
 * +46 on control"), or "no change"; 0 (and "") when there are none */
int rp_explore_where(const Explore *x, const ExploreBranch *b, char *buf, size_t n);
/* the cost model's d.cycles for flipping b (per execution times the executions); 0 when it
 * has none */
int rp_explore_predicted(const ExploreBranch *b, double *d);
/* the profile model's d.warp-insts and d.cycles for flipping b (explore.c says how); 0 when it
 * has none */
int rp_explore_profile(const Explore *x, const ExploreBranch *b, double *dw, double *dc);
/* the model's account of it into buf (n bytes): b's executions by how the warps met the
 * branch, and the warp instructions each issues more or less when flipped ("239 jumped whole,
 * -2 each; 17 split, +2 each"); 0 (and "") when it has none */
int rp_explore_account(const Explore *x, const ExploreBranch *b, char *buf, size_t n);
/* a model against the measurement over the branches whose flip ran (profile: the profile
 * model, else the static one): Pearson's r of predicted and measured d.cycles (0 with fewer
 * than 2, NAN when either does not vary), how many there are, and on how many the model is
 * right about whether the flip pays */
void rp_explore_model(const Explore *x, int profile, double *r, int *n, int *agree);
/* that in words into buf, the model named ("model (...): right about whether the flip pays
 * for 4 of 4 branches; correlation with d.cycles 0.97"); returns how many branches, 0 when
 * none */
int rp_explore_score(const Explore *x, int profile, char *buf, size_t len);
/* the cycles a warp instruction of the program as compiled (0 when it did not run) */
double rp_explore_cpi(const Explore *x);
int rp_explore_json(const char *path, const Explore *x, const char *program, FILE *err);
void rp_explore_free(Explore *x);

/* ------------------------------------------------------------------ bounds.c */
/* --bounds: lower bounds of the run's cycles from its dependent chains, its occupancy and
 * its issue slots (docs/timing.md, "Bounds"); an observer of the run */
typedef struct Bounds Bounds;

typedef struct {
	uint64_t cycles;        /* gpu_sim_cycle */
	uint64_t path;          /* the longest warp's dependent chain */
	int path_cta, path_warp;    /* its CTA (linear id) and warp (index in the CTA) */
	uint64_t path_insts;    /* its warp instructions */
	uint64_t occupancy;     /* the busiest SM's CTA paths over the CTAs resident at once */
	int occ_sm, occ_at_once;    /* that SM, and the CTAs it holds at once */
	uint64_t occ_ctas;      /* the CTAs it ran */
	uint64_t issue;         /* the busiest scheduler's or unit's issue cycles */
	int issue_sm;           /* on that SM */
	int issue_sched;        /* the scheduler, or -1 when a unit binds */
	int issue_unit;         /* the unit (Unit), or -1 when a scheduler binds */
	uint64_t issue_count;   /* its warp instructions */
	uint64_t issue_busy;    /* a unit's pipeline cycles */
	uint64_t bound;         /* the largest of path, occupancy and issue */
	const char *which;      /* its name */
} BoundsFig;

/* for kernel k under architecture c (kept, not copied); NULL when out of memory */
Bounds *rp_bounds_new(const Kernel *k, const TimingConfig *c);
void rp_bounds_sink(Bounds *b, TraceSink *s);
/* after a completed run (ts: its statistics): the figures; 0, or -1 when memory ran out */
int rp_bounds_get(const Bounds *b, const TStats *ts, BoundsFig *f);
/* "bounds of kernel K: C cycles", a line each for path, occupancy and issue, then the
 * largest and cycles / bound; 0, or -1 when memory ran out */
int rp_bounds_print(FILE *out, const Bounds *b, const TStats *ts);
void rp_bounds_free(Bounds *b);

/* ------------------------------------------------------------------ html.c */
/* a run of several launches on --report's page: each launch, and each kernel's code once */
typedef struct {
	const Launch *l;        /* its options: kernel, grid, block, where */
	const TStats *ts;       /* its statistics */
} RpLaunchRow;
typedef struct {
	const Prog *p;          /* the kernel's program */
	const Kernel *k;
	LineStats *ls;          /* its launches' line statistics, summed */
	const char *launches;   /* which: "1, 3" */
} RpKern;

/* what --report's page shows (docs/report.md) */
typedef struct {
	const char *program;    /* the PTX file as the user named it (its lines are shown) */
	const char *command;    /* the command line, shown as written */
	const Prog *p;          /* the program run (CUDA file names) */
	const Kernel *k;        /* its kernel */
	LineStats *ls;          /* the run's line statistics */
	const TStats *ts;       /* the run's statistics */
	const Explore *x;       /* the branches and their exploration (x->pts NULL: not run), or NULL */
	const char *explore_note;   /* why the what-ifs or the search did not run, or NULL */
	const char *timeline;   /* the warp timeline's SVG text, or NULL */
	const SweepSpec *sp;    /* the sweep, or NULL */
	const SweepPoint *spts; /* its points, or NULL when it did not run */
	const char *sweep_svg;  /* its chart's SVG text, or NULL */
	const char *sweep_note; /* why it did not run, or NULL */
	/* several launches (else 0): ts is the total; p, k and ls are kerns[0]'s */
	const RpLaunchRow *launches;
	int nlaunches;
	const RpKern *kerns;    /* each kernel launched, once, in launch order (ExploreBranch.kern) */
	int nkerns;
} RpPage;
/* writes the page; 0, or -1 with a message in err */
int rp_html_write(const char *path, const RpPage *pg, char *err, size_t errsz);
/* ---- shared by html.c and html_src.c */
void rp_html_esc(FILE *f, const char *s);       /* text as HTML */
void rp_html_source(FILE *f, const RpPage *pg); /* the source table's section */

/* ------------------------------------------------------------------ opts.c */
/* the observation's and the sweep's options (rp_trace_rows, rp_sweep_rows) */
typedef struct {
	char *trace;            /* --trace FILE */
	uint64_t lo, hi;        /* --trace-window A:B (hi UINT64_MAX without it) */
	int window;             /* --trace-window was given */
	char *linestats;        /* --line-stats FILE */
	char *bounds;           /* --bounds FILE */
	char *trace_sms, *trace_warps;      /* --trace-sms LIST, --trace-warps LIST */
	unsigned char sel_sms[TM_MAXSMS];   /* their sets (rp_opts_check) */
	unsigned char sel_warps[TM_MAXWARPS];
	char *sweep;            /* --sweep KEY=V1,V2,... */
	int jobs;               /* -j N (0: the number of CPUs) */
	char *sweep_csv, *sweep_svg, *sweep_ptxas;
	char *sweep_point;      /* --sweep-point DIR: this run is one point of a sweep */
	char *sweep_program;    /* --sweep-program FILE: that point runs FILE */
	int shard, nshards;     /* --shard I/N (0, 0: without) */
	char *sweep_json;       /* --sweep-json FILE */
	int explore;            /* --explore: each executed branch's decision flipped (explore.c) */
	char *explore_json;     /* --explore-json FILE */
	int explore_exhaustive;        /* --explore-exhaustive N: every combination up to N branches */
	int sweep_branches;     /* a sweep point also writes its branch counts (explore.c) */
	int merge;              /* --merge: the program arguments are slices' --sweep-json files */
	char *explore_merge;    /* --explore-merge FILE,FILE,...: an --explore's slices */
	char **explore_slices;  /* its files (owned, from rp_opts_check) */
	int nexplore_slices;
	char *report;           /* --report FILE.html: the page (html.c) */
	long long report_budget;   /* --report-budget N: warp instructions its extra runs may take */
	SweepSpec spec;         /* --sweep parsed (rp_opts_check) */
} RpOpts;

extern const OptRow rp_trace_rows[], rp_sweep_rows[];
extern const int rp_ntrace_rows, rp_nsweep_rows;
/* after parsing: the options held against each other, --sweep parsed into o->spec;
 * 0, or -1 after a message (the caller exits 2) */
int rp_opts_check(RpOpts *o, FILE *err);
void rp_opts_free(RpOpts *o);
/* runs `self args... --KEY V --sweep-point DIR` once per value, sp->jobs at a time, each in
 * a private temporary directory; fills pts[nvals]; compares the output buffers of every
 * point with the first's. Returns 0 when every point ran and all outputs agree, 1 when a
 * point failed (its messages are shown on err), 3 when outputs differ (reported loudly). */
int rp_sweep_run(const char *self, char *const *args, int nargs, const SweepSpec *sp,
                  SweepPoint *pts, FILE *err);
/* the loud message of a buffer that differs between point ref and point i (how: "first
 * difference at byte 12") */
void rp_sweep_differ(FILE *err, const SweepSpec *sp, int ref, int i, const char *buf,
                     const char *how);
/* the comparison table (the points that ran), and the CSV / SVG files (0, or -1 with a
 * message on err) */
void rp_sweep_table(FILE *f, const SweepSpec *sp, const SweepPoint *pts);
int rp_sweep_csv(const char *path, const SweepSpec *sp, const SweepPoint *pts, FILE *err);
double rp_sweep_simd(const SweepPoint *p);      /* SIMD efficiency in % */
/* sweep_svg.c: the plot, cycles on an axis fitted to the data and the best point marked */
int rp_sweep_svg(const char *path, const SweepSpec *sp, const SweepPoint *pts, FILE *err);
/* the child's side: the flat JSON statistics file the parent reads ("name": number lines,
 * the names of rp_tstats_json) */
int rp_sweep_point_write(const char *path, const SweepPoint *p);
int rp_sweep_point_read(const char *path, SweepPoint *p);

/* ------------------------------------------------------------------ sweep_json.c */
/* what a sweep ran: the program and the arguments every point got (with the key and values
 * of sp, they tell one sweep from another when slices are merged) */
typedef struct {
	const char *program;
	char *const *args;
	int nargs;
} SweepWhat;

/* the table on f, then --sweep-csv and --sweep-svg (sp->csv, sp->svg) and --sweep-json
 * (json, or NULL); rc is the runs' status (0, 1, 3), returned unless a file cannot be
 * written (then 1) */
int rp_sweep_report(FILE *f, const SweepSpec *sp, const SweepPoint *pts, const SweepWhat *w,
                    const char *json, int rc, FILE *err);
/* --sweep-json FILE: the sweep (key, values, slice, program, arguments) and each point that
 * ran, with its statistics and its buffers' sizes and hashes; 0, or -1 after a message */
int rp_sweep_json(const char *path, const SweepSpec *sp, const SweepPoint *pts,
                  const SweepWhat *w, FILE *err);
/* the slices (--sweep-json files) of one sharded sweep or --explore as one: sp, *pts (sp->nvals
 * of them, owned) and w (the program and arguments, owned: rp_sweep_what_free), every point
 * in exactly one slice and their buffers compared; opt ("--merge") names the messages. 0, 1
 * (a point failed) or 3 (buffers differ); -1 after a message when a slice cannot be read, is
 * of another sweep or a point is missing (then nothing is kept) */
int rp_sweep_load(char *const *files, int nfiles, const char *opt, SweepSpec *sp,
                  SweepPoint **pts, SweepWhat *w, FILE *err);
void rp_sweep_what_free(SweepWhat *w);
/* warpsim --merge A.json B.json ...: the slices of one sharded sweep, every point in exactly
 * one of them; their buffers compared as one sweep compares them; then rp_sweep_report.
 * 0, 1 (a slice cannot be read, is of another sweep, a point is missing or failed) or 3 */
int rp_sweep_merge(char *const *files, int nfiles, const RpOpts *o, FILE *out, FILE *err);

#endif
