/* cli.h - the command lines of warpsim and warpc, built from the components' rows of the
 * option table (opt/opt.h): each program's options are its own few rows plus the groups of
 * the components it drives, in the order --help shows them. Sits on top of every other
 * folder, beside tools/ (whose main()s use it); tests use it to run exactly what a program
 * runs. */
#ifndef WARPSIM_CLI_H
#define WARPSIM_CLI_H

#include <stdio.h>
#include "opt/opt.h"
#include "sim/sim.h"
#include "backend/backend.h"
#include "report/report.h"

/* warpsim [OPTION]... PROGRAM */
typedef struct {
	SimOpts sim;        /* launch, run, architecture (sim/) */
	BeOptions be;       /* the translator, for PTX input (backend/) */
	RpOpts rp;          /* traces, line statistics, sweeps (report/) */
	int oracle;         /* --oracle: the PTX reference interpreter instead of the SM model */
	int oracle_order;   /* --oracle-order: 0 forward, 1 reverse (threads and CTAs descending) */
	int help, version;
	char *input;        /* the program file: files[0] (NULL: none) */
	char **files;       /* every non-option argument: the program, or --merge's files */
	int nfiles;
	OptSet set;         /* the table (points into this struct: do not copy it) */
} WsOpts;

void cli_warpsim_init(WsOpts *o);
void cli_warpsim_free(WsOpts *o);
/* argv, then the options held against each other: the translator takes the architecture's
 * --max-regs and --arch and the launch's --kernel. 0, or -1 after a message (exit 2) */
int cli_warpsim_argv(WsOpts *o, int argc, char **argv, FILE *err);
void cli_warpsim_help(const WsOpts *o, FILE *f);
/* argv[1..] without the trace and sweep options (what a sweep's point runs); *n entries,
 * NULL-terminated, malloc'ed (the strings are argv's) */
char **cli_warpsim_point_args(const WsOpts *o, int argc, char **argv, int *n);
/* kernels.c: the kernels of o's launches, each once, in launch order (a kernel is its name:
 * the file says why); 0, or -1 after a message on err */
typedef struct {
	int n;                  /* kernels */
	int nlaunches;          /* launches */
	int *of;                /* of[i]: launch i's kernel, numbered from 0 in launch order */
	int *first;             /* first[j]: kernel j's first launch */
	const char **name;      /* name[j]: its name (o's; NULL: the one launch named none) */
} CliKernels;
int cli_kernels(const SimOpts *o, CliKernels *ks, FILE *err);
void cli_kernels_free(CliKernels *ks);
/* explore.c: the branches --explore flips, from o->input's PTX translated with o->be, each
 * with the --decide value of its variant or the reason it has none, and x->legal, which
 * tells whether a --decide value holds; 0, or -1 after a message on err */
int cli_explore_branches(const WsOpts *o, Explore *x, FILE *err);
void cli_explore_done(Explore *x);    /* frees what x->legal needs */
/* the branches (cli_explore_branches) and how to run their variants: self (this program) with
 * o's point arguments (x->args, malloc'ed: the caller frees it), -j, --explore-exhaustive, the
 * slices; 0, or -1 after a message on err (nothing to free) */
int cli_explore_init(const WsOpts *o, int argc, char **argv, const char *self, Explore *x,
                     FILE *err);

/* report.c: what --report's page takes from the run made in process */
typedef struct {
	const Prog *p;
	const Kernel *k;
	LineStats *ls;          /* its line statistics */
	const TStats *ts;       /* its statistics */
	const char *timeline;   /* its warp timeline, an SVG file, or NULL */
	const char *tmpdir;     /* a directory for the page's own files (the sweep chart) */
	/* several launches (else 0): ts is the total, p, k and ls kerns[0]'s (RpPage) */
	const RpLaunchRow *launches;
	int nlaunches;
	const RpKern *kerns;
	int nkerns;
} CliRun;
/* explores, sweeps (within --report-budget) and writes o->rp.report; 0, or 1 after a message */
int cli_report(const WsOpts *o, int argc, char **argv, const char *self, const CliRun *run,
               FILE *err);

/* observe.c: --trace, --line-stats, --bounds, --report's timeline and a sweep point's branch
 * counts, observing the launches of a run on the SM model (one launch written as it always
 * was; several: docs/warpsim.md, "Several launches"). new: before the first launch (input: the
 * program file; ks: the run's kernels, kept, not copied); NULL after a message. launch: before
 * launch i's run, its observers attached to g (the files open at the first); done: after
 * launch i completed (its bounds); end: when the launches are over, all completed or one
 * stopped, the traces closed (saying so when the run was cut short) and the line statistics
 * and branch counts written; finish: ends it if need be, writes what remains and frees m.
 * Each 0, or -1 after a message on err. */
typedef struct CliObs CliObs;
CliObs *cli_obs_new(WsOpts *o, const char *input, const CliKernels *ks, FILE *err);
int cli_obs_launch(CliObs *m, int i, Gpu *g, const Prog *p, const Kernel *k);
int cli_obs_done(CliObs *m, int i, const Gpu *g);
int cli_obs_end(CliObs *m);
int cli_obs_finish(CliObs *m);
/* --report of the launches, after every one completed and cli_obs_end (ts: each launch's
 * statistics, then the total's); 0, or -1 after a message */
int cli_obs_report(CliObs *m, int argc, char **argv, const char *self, const TStats *ts);

/* load.c: the PTX module of the files paths[0..n-1] ("-" reads stdin): one parsed, or
 * several parsed as units and linked into one (ptx_link); NULL after located messages on
 * err (prog: the program's name, for a file that cannot be read) */
Module *cli_load_ptx(char *const *paths, int n, const char *prog, FILE *err);

/* warpc [OPTION]... FILE... */
typedef struct {
	BeOptions be;       /* the translator */
	TimingConfig tc;    /* --config FILE and the architecture's options: --max-regs, --arch */
	char *kernel;       /* --kernel NAME */
	char *asmfile;      /* --asm FILE.sass */
	char *parsefile;    /* --parse-only FILE.ptx */
	char *dump;         /* -dLETTERS (-dP FILE: the PTX printed back) */
	char *out;          /* -o FILE */
	int explain;        /* --explain[=json]: 1 text, 2 JSON */
	int compare;        /* --compare[=json]: 1 text, 2 JSON */
	char *lines;        /* --compare-lines FILE: ptxas's line map (pairs by PTX branch) */
	int verbose;        /* -v */
	int help, version;
	char *input, *ref;  /* FILE.ptx; --compare's REF.sass */
	char **files;       /* every FILE.ptx (input is the first): several are linked */
	int nfiles;
	OptSet set;
} WcOpts;

void cli_warpc_init(WcOpts *o);
void cli_warpc_free(WcOpts *o);
int cli_warpc_argv(WcOpts *o, int argc, char **argv, FILE *err);
void cli_warpc_help(const WcOpts *o, FILE *f);

#endif
