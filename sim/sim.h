/* sim.h - the warpsim SM model: the functional machine (GPU, SMs, CTAs, warps and their
 * CallReturnStack) and its options. The timing model is in timing.h, the trace records it
 * reports in trace.h; what users read after a run is built in report/.
 *
 * Files: opts.c (the SM model's rows of the option table, opt/opt.h), gpu.c,
 * exec.c, crs.c, decode.c (the machine: sim_gpu_new, sim_run, sim_issue), tsm.c, sched.c,
 * scoreboard.c, units.c, banks.c, cache.c, coalesce.c, gmem.c, partime.c, occupancy.c,
 * tconfig.c (the timing model, timing.h), par.c (a window's queues, machine.h). Device memory and the launch are device/'s; the per-op semantics
 * arith/'s.
 */
#ifndef WARPSIM_SIM_H
#define WARPSIM_SIM_H

#include <stdint.h>
#include <stdio.h>
#include "isa/isa.h"
#include "sim/timing.h"
#include "device/device.h"
#include "arith/arith.h"

/* ------------------------------------------------------------------ opts.c */
/* what the SM model takes from the command line: the launch, the architecture, the run */
typedef struct {
	Launch launch;            /* launch description (sim_launch_rows): the last launch */
	Launch *prev;             /* the launches before it, in order: each --kernel after the
	                             first starts a new one (docs/warpsim.md, "Several launches") */
	int nprev;
	TimingConfig tc;          /* architecture options (tconfig.c's rows: --sms, --max-cycles ...) */
	uint64_t max_warp_insts;  /* --max-warp-insts: runaway limit (0: none) */
	int stats;                /* --stats: print the statistics table even with --quiet */
	int quiet;                /* --quiet: no statistics */
	char *stats_json;         /* --stats-json FILE: the statistics as one JSON object */
	int print_config;         /* --print-config: print the effective architecture and exit */
	char *printf_out;         /* --printf-out FILE: device printf's lines (default stdout) */
	int printf_tag;           /* --printf-tag: each printf line names its block and thread */
	int functional;           /* --functional: the SM model without its timing model */
	int progress_after;       /* --progress-after: seconds before the progress line */
	int threads;              /* --threads: host threads for the SMs of the timed run */
} SimOpts;

/* the rows of the option table (opt/opt.h) over SimOpts: the launch's and the run's */
extern const OptRow sim_launch_rows[], sim_run_rows[];
extern const int sim_nlaunch_rows, sim_nrun_rows;

void sim_opts_init(SimOpts *o);   /* the defaults of every row */
void sim_opts_free(SimOpts *o);
/* launch i of the run (0 .. o->nprev): the earlier ones, then o->launch */
Launch *sim_opts_launch(SimOpts *o, int i);
/* the launch's, the run's and the architecture's options alone, for programs that drive the
 * SM model as a library (tests, the generators); arguments that are not options are left to
 * the caller. 0, or -1 after a message on err. warpsim and warpc build theirs in cli/. */
int sim_opts_argv(SimOpts *o, int argc, char **argv, FILE *err);

/* ------------------------------------------------------------------ the machine */
typedef struct Gpu Gpu;

/* what one issued warp instruction did: what the timing model (issue 7) needs */
typedef struct {
	const Ins *in;           /* the instruction */
	uint32_t pc;             /* its byte address */
	int sm, cta, warp;       /* where it ran: SM, CTA slot, warp index in the CTA */
	uint32_t active;         /* active lanes at issue */
	uint32_t exec;           /* lanes whose guard (and CC test) held */
	uint32_t naddr;          /* memory ops: lanes with an address in addr[] (= exec) */
	uint8_t space;           /* memory ops: SP_* of the access (one that no lane runs: its
	                            unit's space, with no address; exec.c's void_space) */
	uint8_t size;            /* memory ops: bytes per lane */
	uint64_t addr[32];       /* memory ops: address per lane (space-relative) */
	uint8_t diverged;        /* DIV_* (timing.h): the warp's lanes split, and how; 0 none */
	uint8_t reconverged;     /* a SYNC token restored lanes */
	int8_t pushed, popped;   /* CRS tokens pushed / popped */
	uint8_t spills, fills;   /* of those, tokens stored to / loaded from the warp's CRS area */
	uint32_t crs_slot;       /* the lowest slot of the area they used */
	uint8_t event;           /* EV_* */
	uint32_t next_active;    /* active mask after the instruction (and any unwinding) */
	uint32_t next_pc;        /* next pc of the warp */
} ExecInfo;

enum { SP_NONE, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_CONST };
enum { EV_NONE, EV_BAR_WAIT, EV_BAR_RELEASE, EV_EXIT, EV_WARP_DONE };
/* SIM_TRAP: a trap or a failed assert stopped the kernel (the memory written so far is valid) */
enum { SIM_OK, SIM_DONE, SIM_FAULT, SIM_RUNAWAY, SIM_DEADLOCK, SIM_MALFORMED, SIM_TRAP };

/* statistics of a run (the timing model adds cycles, stalls, ...) */
typedef struct {
	uint64_t cycles;           /* issue rounds of the functional loop */
	uint64_t warp_insts;       /* warp instructions issued */
	uint64_t thread_insts;     /* active lanes summed over issued instructions */
	uint64_t exec_lanes;       /* guard-true lanes summed */
	uint64_t pred_off;         /* active lanes whose guard was false */
	uint64_t div_branches;     /* divergence events (DIV_*) of every kind */
	uint64_t reconvergences;   /* SYNC tokens that restored lanes */
	uint64_t barriers;         /* barrier releases */
	int crs_high;              /* deepest CallReturnStack seen */
	uint64_t ctas;             /* CTAs completed */
	uint64_t kept_ctas;        /* CTAs that exited with EXIT.KEEPREFCOUNT */
} SimStats;

typedef struct {
	TimingConfig tc;           /* architecture: SMs, residency limits, CRS depth, max cycles */
	uint64_t max_warp_insts;   /* runaway limit (0: none) */
	int functional;            /* run the functional core alone (funcrun.c): no timing */
	int progress;              /* a progress line on stderr (the caller sets it when stderr
	                              is a terminal and --quiet is off) */
	int progress_after;        /* seconds of running before it first shows */
	int threads;               /* host threads simulating the SMs (par.c; 0 or 1: the caller's) */
} SimConfig;

typedef void SimTraceFn(void *ctx, const ExecInfo *e);

void sim_config_from_opts(SimConfig *c, const SimOpts *o);
/* prepares a GPU for one launch of kernel k over memory m (already placed); NULL after a
 * message on err (a CTA that cannot fit, a malformed program) */
Gpu *sim_gpu_new(const Kernel *k, Mem *m, const Launch *l, const SimConfig *c,
                 const char *listing, FILE *err);
void sim_gpu_free(Gpu *g);
void sim_gpu_trace(Gpu *g, SimTraceFn *fn, void *ctx);   /* called after every issue */
/* reports every issue (with its cycle and stall) and warp/CTA/barrier events to s (trace.h),
 * and the end of the run; s is copied; NULL removes it. No cost without a sink. */
struct TraceSink;
void sim_gpu_set_sink(Gpu *g, const struct TraceSink *s);
/* the timing statistics (cycles, stalls, memory, occupancy) after sim_run */
const TStats *sim_gpu_tstats(const Gpu *g);
/* to += from, as one launch after another adds up: cycles, counters, the deepest stack
 * (the occupancy and the machine's figures stay to's) */
void sim_tstats_add(TStats *to, const TStats *from);
void sim_gpu_prog(Gpu *g, const Prog *p);   /* the program whose kernels child grids run */
/* runs until the grid completes or a limit; returns SIM_DONE or an error (message in
 * sim_gpu_error). With SimConfig.functional the warps run without the timing model: the
 * same memory for race-free kernels, "cycles" are scheduling rounds (funcrun.c) */
int sim_run(Gpu *g, uint64_t max_cycles);
const char *sim_gpu_error(const Gpu *g);
/* device printf goes to f (default stdout), each line tagged with block and thread when tag */
void sim_gpu_printf(Gpu *g, FILE *f, int tag);
const SimStats *sim_gpu_stats(const Gpu *g);

#endif
