/* oracle.h - the PTX reference interpreter (warpsim --oracle): runs the PTX IR of a kernel
 * one thread at a time, the threads of a CTA taking turns between barriers, the warp-level
 * collectives (shfl, vote, activemask, match, redux, elect, bar.warp.sync) evaluated over the
 * threads of a warp that meet at them. It shares device/ (memory and launch) and arith/ (per-op semantics) with the SM model, so its
 * output buffers can be compared byte for byte with the SM model's.
 *
 * Files: load.c (layout of parameters, variables and frames; launch placement), sched.c (CTAs,
 * threads, barriers, collectives, deadlock and runaway detection), exec.c (one instruction of
 * one thread), mem.c (state spaces and addresses), ialu.c (integer and bit semantics),
 * falu.c (floating point and conversions), oracle.c (the warpsim --oracle driver).
 */
#ifndef WARPSIM_ORACLE_H
#define WARPSIM_ORACLE_H

#include <stdint.h>
#include <stdio.h>
#include "frontend/ptx.h"
#include "device/device.h"
#include "arith/arith.h"

/* results of or_run */
enum { OR_DONE, OR_FAULT, OR_RUNAWAY, OR_DEADLOCK, OR_UNSUP, OR_TRAP, OR_BADLAUNCH, OR_NOKERNEL };

typedef struct {
	uint64_t max_steps;   /* runaway limit in thread instructions (0: OR_DEFAULT_STEPS) */
	int verbose;          /* 1: per-CTA progress on err (debugging) */
	FILE *printf_out;     /* device printf's lines (NULL: stdout) */
	int printf_tag;       /* each printf line starts with its block and thread */
	int reverse;          /* --oracle-order reverse: the threads of a CTA and the CTAs of a grid
	                         run in descending linear order (a result that changes with it
	                         depends on the order of threads: a race, or lock-step assumed) */
	uint32_t shared_unit; /* the machine's shared allocation unit (--shared-unit; 0: 1 byte):
	                         %total_smem_size is the CTA's shared bytes rounded up to it */
} OrConfig;

#define OR_DEFAULT_STEPS 4000000000ull

typedef struct {
	uint64_t steps;       /* thread instructions executed (guard-false ones included) */
	uint64_t barriers;    /* barrier releases */
	uint64_t collectives; /* warp collective groups evaluated */
	uint64_t ctas;        /* CTAs run to completion */
	uint64_t cdp_grids;   /* child grids run (dynamic parallelism; their CTAs are in ctas) */
	int max_depth;        /* deepest call stack seen */
} OrStats;

/* the oracle's limits for warpsim's --max-warp-insts N: 32 N thread instructions (0:
 * OR_DEFAULT_STEPS) */
void or_config_init(OrConfig *c, uint64_t max_warp_insts);

/* Places launch l for kernel m (its --kernel, or the only .entry) in mem, runs the grid and
 * leaves the results in mem; pl receives the buffer addresses (dev_launch_write_outputs
 * writes the --out files from it). Messages go to err: "warpsim: oracle: ..." with the PTX
 * location of the faulting instruction. Returns OR_DONE or an error kind. */
int or_run(const Module *m, const Launch *l, const OrConfig *c, Mem *mem, Placed *pl,
           OrStats *st, FILE *err);
/* warpsim --oracle: parse already done; places launch l, runs, writes the --out files, prints
 * a one-line summary when summary is set. Returns the process exit status. */
int or_main(const Module *m, const Launch *l, const OrConfig *c, int summary, FILE *err);
/* the same for launches ls[0..n) one after another on one device memory (their buffers,
 * module variables, heap and --const values stay from one launch to the next), then every
 * launch's --out files; with n > 1 each message names its launch, the summary one line per
 * launch and one for all */
int or_main_seq(const Module *m, const Launch *const *ls, int n, const OrConfig *c,
                int summary, FILE *err);
/* the name of an or_run result ("deadlock") */
const char *or_result_name(int r);

#endif
