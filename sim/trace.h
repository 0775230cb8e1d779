/* trace.h - what the SM model reports, as it runs, to trace writers (--trace), per-line
 * statistics (--line-stats) and any other observer. The timing model (sim/gpu.c with
 * sim/tsm.c) is the producer; report/trace_*.c and report/linestats.c are consumers.
 *
 * Every record is delivered in non-decreasing cycle order per warp; across warps, records
 * come in the order the model issues them (cycle order, then SM, then scheduler).
 */
#ifndef WARPSIM_TRACE_H
#define WARPSIM_TRACE_H

#include <stdint.h>
#include "sim/sim.h"

/* one issued warp instruction */
typedef struct {
	const ExecInfo *e;        /* the functional effect: instruction, pc, masks, addresses */
	uint64_t cycle;           /* issue cycle */
	int ctaid;                /* linear CTA id in the grid (x + y*nx + z*nx*ny) */
	int gwarp;                /* warp number on its SM, stable while the warp lives */
	uint32_t stall_cycles;    /* cycles the warp waited since it last issued (or started) */
	uint8_t stall_reason;     /* StallReason (timing.h) binding last during those cycles */
} TraceIssue;

typedef enum {
	TEV_CTA_START,     /* a CTA was placed on an SM */
	TEV_WARP_START,    /* a warp began (pc 0) */
	TEV_BAR_WAIT,      /* the warp arrived at a barrier and waits */
	TEV_BAR_RELEASE,   /* the barrier completed: the warp resumes */
	TEV_WARP_DONE,     /* the warp terminated */
	TEV_CTA_DONE,      /* the CTA's last warp terminated */
	TEV_COUNT
} TraceEvKind;

/* a change of a warp's state that is not an issue */
typedef struct {
	uint8_t kind;             /* TraceEvKind */
	uint64_t cycle;           /* when */
	int sm, ctaid, gwarp;     /* where (gwarp -1 for CTA events) */
	int warp;                 /* warp index in its CTA (-1 for CTA events) */
	uint32_t pc;              /* the warp's pc, 0 for CTA events */
} TraceEvent;

/* an observer; any callback may be NULL */
typedef struct TraceSink {
	void (*issue)(void *ctx, const TraceIssue *t);
	void (*event)(void *ctx, const TraceEvent *ev);
	void (*end)(void *ctx, uint64_t cycles);   /* the run is over after `cycles` cycles */
	void *ctx;
} TraceSink;

#endif
