/* machine.h - internal to sim/: the state of the functional machine (GPU, SMs, CTAs, warps,
 * CallReturnStack tokens), the decoded instruction form, and the timing model around them
 * (one TSm per SM). Other modules use sim.h (and trace.h) only. */
#ifndef WARPSIM_MACHINE_H
#define WARPSIM_MACHINE_H

#include "sim/sim.h"
#include "sim/trace.h"

/* decoded operand kinds */
enum {
	DK_NONE,
	DK_REG,     /* register row reg (RZ maps to a zero row as a source, a sink row as a dest) */
	DK_IMM,     /* value imm: immediates, and c[b][off] read once at load */
	DK_CONSTX,  /* c[bank][R[reg] + imm], read at run time */
	DK_PRED,    /* predicate reg (7 = PT, 8 = sink); OPF_NOT negates */
	DK_MEM,     /* address [R[reg] + imm] */
	DK_SREG,    /* special register imm */
	DK_TARGET,  /* code index imm */
	DK_TLIST,   /* target list: Gpu.tl[imm .. imm+n) */
	DK_CC,      /* condition-code test imm */
};

typedef struct {
	uint8_t kind;    /* DK_* */
	uint8_t flags;   /* OPF_* source modifiers */
	union {
		uint8_t bank;    /* DK_CONSTX: constant bank */
		uint16_t n;      /* DK_TLIST: targets */
	};
	uint16_t reg;    /* register row or predicate index */
	uint16_t roff;   /* reg * 32 * 4: the byte offset of row reg in a warp's registers (at
	                    most ISA_NREGS + 12 rows: below 64 KiB, decode.c) */
	uint64_t imm;    /* value, offset, code index, SReg or CCTest */
} DOpd;

typedef struct DIns DIns;
typedef struct Warp Warp;
/* a decode-time handler: the op of one issue for the lanes ex, in a form that cannot fault
 * and does not read the warp's pc (handlers.c's sim_choose_fn chooses it; the issue stage
 * and funcrun.c call it for a lean instruction, timing.h's TLeanFn) */
typedef TLeanFn ExecFn;

/* the handlers' fields first (fn, op, aux, the modifiers, the operands, karg: the first 128
 * bytes), then those of sim_issue's general path, the decode and the trace */
struct DIns {
	ExecFn *fn;         /* its handler, NULL: sim_issue's switch */
	uint16_t op;        /* Op */
	uint8_t aux;        /* decode-time argument of fn (ISETP: the compare's truth bits) */
	Mods m;             /* modifiers */
	DOpd o[ISA_MAXOPD]; /* operands in shape order */
	uint32_t karg[2];   /* decode-time values of fn (S2R: its value, or the block's sizes) */
	uint32_t gxor;      /* the guard's lane mask is w->p[guard] ^ gxor (all ones: negated) */
	uint32_t target;    /* code index of the T operand */
	uint8_t guard;      /* predicate index, 7 = PT */
	uint8_t sync;       /* .S */
	uint8_t cct;        /* CC test (CCT_T when none) */
	uint8_t hasconstx;  /* some operand is DK_CONSTX */
	uint8_t ctrl;       /* a control op: sim_issue calls sim_ctrl itself */
	uint8_t lean;       /* LEAN_* (timing.h): funcrun.c's loop and the issue stage run it
	                       without sim_issue */
	uint8_t quiet;      /* an issue in which no active lane runs it only counts and moves
	                       the pc: a handler's op, NOP, EXIT, BRA (decode.c) */
	uint8_t flow;       /* a control instruction with a short path (exec.c's flow(), for
	                       sim_tflow and sim_fflow; TInst.flow) */
	const Ins *in;      /* the instruction it came from */
};
_Static_assert(sizeof(DOpd) == 16 && offsetof(DIns, karg) == 120 && sizeof(DIns) == 152,
               "DIns: the handlers' fields in its first 128 bytes");

#define NO_ROW 0xffff

/* CallReturnStack tokens */
enum { TK_SYNC, TK_DIV, TK_BRK, TK_CONT, TK_CAL, TK_PRET, TK_PEXIT };

typedef struct {
	uint8_t kind;       /* TK_* */
	uint32_t pc;        /* code index to resume at */
	uint32_t mask;      /* lanes to restore (DIV: lanes waiting to run) */
} Token;

enum { W_FREE, W_READY, W_BAR, W_DONE };

typedef struct Cta Cta;

struct Warp {
	uint32_t pc;        /* code index of the next instruction */
	uint32_t active;    /* lanes executing */
	uint32_t *r;        /* registers: r[row * 32 + lane] (beside pc, active and p, which the
	                       issue stage reads before a handler reads r: one cache line) */
	uint32_t lanes;     /* lanes holding a thread (a CTA's last warp may be partial) */
	uint32_t p[9];      /* P0..P6, PT (all ones), a sink for PT as a destination */
	uint32_t cc[4];     /* condition code as lane masks: sign, carry, zero, overflow */
	uint32_t exited;    /* lanes that executed EXIT (this epoch; the post-amble starts anew) */
	uint32_t counted;   /* lanes counted as exited threads for CTA barriers (never cleared) */
	Token *crs;         /* CallReturnStack, crs[ncrs - 1] on top; the part beyond
	                       tc.crs_depth is the warp's CRS area in local memory */
	int ncrs;
	int crscap;         /* tokens allocated (grows up to crs_depth + Gpu.crsbytes / 8) */
	int state;          /* W_* */
	int idx;            /* warp index in its CTA */
	Cta *cta;           /* its CTA */
	int bar;            /* barrier waited on (W_BAR) */
	uint16_t bar_dst;   /* BAR.RED destination row, NO_ROW when none */
	uint32_t bar_lanes; /* lanes receiving the BAR.RED result */
	uint32_t bar_pc;    /* code index of the barrier instruction waited on */
	uint8_t *local;     /* local memory of its 32 threads, lane-major */
	uint8_t post;       /* running the PEXIT post-amble */
	uint8_t barwaited;  /* waited at a barrier since its last issue (trace stall reason) */
	int gw;             /* warp slot on its SM: the TSm warp id and the trace's gwarp */
	uint64_t tready;    /* first cycle it could have issued: start, or last issue + 1 */
};
/* (the issue stage runs a lean instruction on these words itself: timing.h's TW_*) */
_Static_assert(offsetof(struct Warp, pc) == TW_PC && offsetof(struct Warp, active) == TW_ACTIVE &&
               offsetof(struct Warp, p) == TW_P, "timing.h's TW_* must name Warp's fields");

typedef struct {
	uint32_t arrived;   /* threads arrived */
	uint32_t expected;  /* threads needed (0: every thread of the CTA) */
	uint64_t waiting;   /* warps blocked on it (bit per warp index) */
	uint32_t popc;      /* BAR.RED.POPC: threads whose predicate held */
	uint32_t nfalse;    /* BAR.RED.AND: threads whose predicate was false */
	Sub red;            /* reduction of the BAR.RED waiting, SUB_NONE for none */
} Barrier;

struct Cta {
	int busy;           /* the slot holds a running CTA */
	int keep;           /* exited with EXIT.KEEPREFCOUNT: the slot stays held */
	uint32_t id[3];     /* CTA coordinates */
	int sm, slot;       /* where it runs */
	Warp *w;            /* its warps */
	int nwarps;
	int live;           /* warps not done */
	uint32_t nthreads;  /* threads in the CTA */
	uint32_t nexited;   /* threads counted as exited */
	uint64_t lin;       /* linear CTA id in the grid */
	uint8_t *shared;    /* shared memory */
	uint8_t *locks;     /* LDSLK lock per shared word */
	Barrier bar[16];    /* named barriers */
};

/* what an SM did in a window that others may see, queued until the window's end (par.c) */
enum { WQ_STORE, WQ_STORES, WQ_ATOM, WQ_PRINT, WQ_ISSUE, WQ_EVENT, WQ_HEAP };
typedef struct {
	uint64_t cycle;     /* issue cycle */
	uint8_t kind;       /* WQ_* */
	union {
		struct { uint8_t *p; uint64_t a; uint8_t size; uint8_t v[16]; } st;   /* a lane's store (a: its address) */
		struct { uint8_t *p; uint64_t a; size_t off; uint32_t n; } sr;     /* lanes' stores of n
		                                          contiguous bytes, in WQueue.a from off */
		struct {                                              /* a lane's atomic */
			uint8_t *p;     /* the word */
			Warp *w;        /* the warp whose register gets the old value (red: none) */
			uint64_t b, c;  /* operands */
			uint16_t reg;   /* destination row */
			uint8_t lane, size, sub, type, ftz, red;
		} at;
		struct { char *s; size_t len; uint32_t id[3], tid[3]; } pr;  /* a printf line */
		struct {                                              /* a lane's malloc or free */
			Warp *w;        /* the warp (MALLOC: whose register pair gets the address) */
			uint64_t v, align;  /* the size (free: the address), the alignment */
			uint32_t pc;    /* the instruction's code index, for a message */
			uint16_t reg;   /* MALLOC's destination row */
			uint8_t lane, isfree;
		} hp;
		size_t off;         /* WQ_ISSUE, WQ_EVENT: the record in WQueue.a */
	} u;
} WItem;

typedef struct {
	WItem *it;          /* in issue order */
	int n, cap;
	uint8_t *a;         /* trace records (TraceIssue with its ExecInfo, TraceEvent), the
	                       bytes of WQ_STORES */
	size_t na, acap;
	uint64_t *okey;     /* the SM's own stores of the window by 8-byte word (address / 8
	                       + 1; 0: an empty slot), what its loads see over memory */
	uint64_t *oval;     /* the bytes */
	uint8_t *omask;     /* which of them were stored */
	int *oused;         /* the used slots (on of them), what the window's end clears */
	int ocap, on;       /* slots (a power of two), used */
	int obuilt;         /* the items whose stores the map holds (the first obuilt) */
	uint64_t slo, shi;  /* the stores' bytes lie in [slo, shi) (shi 0: none queued) */
} WQueue;

typedef struct {
	Gpu *g;             /* its GPU (the timing callbacks' context) */
	int id;             /* SM number */
	Cta *slots;         /* resident CTA slots */
	Warp **warps;       /* every warp of every slot, for the issue scan (lean.warps) */
	int nwarps;
	int rr;             /* round-robin position */
	int resident;       /* CTAs running on it */
	uint64_t asleep;    /* no live warp since this cycle: the cycle loop skips the SM, its
	                       idle stalls are charged in bulk when a CTA arrives or the run ends
	                       (UINT64_MAX: awake) */
	int parked;         /* no warp of it can ever issue again by itself: its stalls from
	                       lastc + 1 on are charged at the window's end */
	uint64_t lastc;     /* the last cycle it simulated */
	WQueue q;           /* what it did in this window that others may see (par.c) */
	const MemAlloc *mlast; /* the allocation its last global access fell in (exec_mem.c) */
	TLean lean;         /* its lean issues' statistics, counted by its issue stage (TSource.lean) */
	char pad[64];       /* (SMs of different threads write no common cache line) */
} SM;

struct Gpu {
	const Kernel *k;    /* the kernel */
	Mem *mem;           /* device memory */
	SimConfig cfg;      /* limits and sizes */
	uint32_t grid[3], block[3];
	DIns *code;         /* decoded instructions, ncode + 1 (the last all zero: not lean) */
	int ncode;
	DevTex *tex;        /* the kernel's textures by slot (Kernel.tex), bound by the launch */
	DevSurf *surf;      /* the kernel's surfaces by slot (Kernel.surf) */
	DevBinds binds;     /* every --tex and --surf, resolved once: objects by handle */
	uint32_t *tl;       /* target lists as code indexes */
	int rows;           /* register rows per warp: regs, 4 zero rows, 4 sink rows */
	int zrow, srow;     /* first zero row, first sink row */
	uint32_t *regs;     /* every warp slot's register rows in one block on huge pages
	                       (gpu.c's huge_alloc; NULL: each warp's its own allocation) */
	int (*clr)[2];      /* the runs of rows cta_start clears (first, count): decode.c */
	int nclr;
	uint32_t shsize;    /* shared bytes per CTA (static + dynamic) */
	uint32_t locsize;   /* local bytes per thread */
	uint32_t crsbytes;  /* local bytes per warp for spilled CRS tokens (--crs-bytes) */
	int wpc;            /* warps per CTA */
	int slots;          /* CTA slots per SM */
	SM *sm;
	uint64_t nctas;     /* CTAs in the grid */
	uint64_t next_cta;  /* next CTA to dispatch (linear id) */
	uint64_t done_ctas; /* CTAs completed */
	int need_dispatch;  /* a slot was freed */
	int rr_sm;          /* SM the dispatcher tries first */
	uint64_t window;    /* cycles per window: CTAs are dispatched at multiples of it (sim_window) */
	uint32_t cur;       /* code index of the instruction being issued (for messages) */
	uint64_t cycle;     /* current cycle */
	SimStats st;        /* statistics */
	SimTraceFn *trace;  /* called after each issue */
	void *tctx;
	const char *listing;/* program file name for messages, or NULL */
	int fault_lane;     /* a DK_CONSTX read faulted in this lane (-1: none) */
	uint64_t fault_off; /* its offset */
	char err[4096];     /* the message of the error that stopped the run */
	ExecInfo info;      /* scratch for the instruction being issued */
	/* the timing model (timing.h, docs/timing.md) */
	TInst *tcode;       /* timing form of each instruction, ncode + 1 (a pc past the end) */
	uint16_t sbtop;     /* 1 + the highest scoreboard id the kernel writes (TSm.sbtop) */
	TSm *tsm;           /* one issue stage per SM */
	TSource *src;       /* per SM: the callbacks into this core */
	TStats ts;          /* timing statistics of the run */
	Cache l2;           /* GPU-wide L2 (when tc.l2.enable) */
	Dram dram;          /* the DRAM channel */
	Occupancy occ;      /* CTAs per SM and what limits them */
	uint64_t age;       /* dispatch sequence of warps (scheduler ages) */
	int rc;             /* SIM_OK, or the error an issue raised inside a timing cycle */
	int defer;          /* a windowed run: global stores, atomics, printf and trace records
	                       wait in their SM's queue for the window's end (par.c) */
	int inwin;          /* the SMs are running a window (trace events are queued) */
	struct {            /* the earliest fault of the window: (cycle, SM) */
		uint64_t cycle; /* UINT64_MAX: none */
		int sm, rc;
		char err[4096];
	} fault;
	FILE *pout;         /* printf's stream (NULL: stdout) */
	int ptag;           /* --printf-tag: each printf line starts with its block and thread */
	int hassink;        /* a trace sink is set */
	TraceSink sink;     /* its callbacks */
	const Launch *launch; /* the launch (a child grid's: exec_cdp.c's copy) */
	const Prog *program; /* the program, for the kernels of child grids (sim_gpu_prog), or NULL */
	DevCdp *cdp;        /* dynamic parallelism's launches and grid queue (exec_cdp.c), shared
	                       by the host grid's Gpu with its children's; NULL: none */
	int cdpdepth;       /* the grid's nesting depth (the host's grid: 0) */
	struct {            /* the progress line (progress.c) */
		uint64_t tick;  /* loop rounds, the clock is read every 256th */
		double t0;      /* start, seconds of CLOCK_MONOTONIC (0: not read yet) */
		double next;    /* next line due (seconds since t0) */
		int width;      /* characters of the line on screen (0: none shown) */
	} prog;
};

/* decode.c */
int sim_decode(Gpu *g, FILE *err);
/* the code address of code index pc (a pc past the end: the address after the last one) */
static inline uint32_t sim_addr(const Gpu *g, uint32_t pc)
{
	return pc < (uint32_t)g->ncode ? g->code[pc].in->addr : isa_kernel_end(g->k);
}

/* handlers.c: sets d->fn (and d->aux) to the handler of d's form, NULL when sim_issue's
 * switch runs it */
void sim_choose_fn(DIns *d);
/* the same for S2R, whose handlers take the launch's block and grid sizes */
void sim_choose_s2r(DIns *d, const uint32_t block[3], const uint32_t grid[3]);
/* exec.c (exec.h has the helpers of exec_*.c) */
int sim_issue(Gpu *g, SM *s, Warp *w, ExecInfo *e);
/* the timing's exec callback (exec.c), its trace-sink and fault form and its rare fields
 * (gpu.c) */
int sim_texec(void *ctx, int wi, TExec *te);
/* its short path for control instructions (TSource.flow) */
int sim_tflow(void *ctx, int wi, const TInst *in, TExec *te);
/* and for funcrun.c, of d, the instruction at w's pc: 0 issued, 1 after a fault (g->rc), -1
 * without a change (sim_issue runs it) */
int sim_fflow(Gpu *g, Warp *w, const DIns *d);
/* the SM's lean issues counted by its issue stage (TLean) added to the run's statistics and
 * cleared: before anything reads g->st or g->ts */
void sim_lean_fold(Gpu *g, SM *s);
/* n lean issues (no fault, no CC test) into st: lanes active lanes summed over them, off of
 * those guard-false (sim_lean_fold, funcrun.c) */
static inline void sim_lean_stats(SimStats *st, uint64_t n, uint64_t lanes, uint64_t off)
{
	st->warp_insts += n;
	st->thread_insts += lanes;
	st->exec_lanes += lanes - off;
	st->pred_off += off;
}
int sim_texec_full(void *ctx, int wi, TExec *te);
void sim_texec_rare(Gpu *g, SM *s, Warp *w, const ExecInfo *x, TExec *te, uint64_t bars);

/* the run's statistics before an issue that the hand-over reads after it */
typedef struct {
	uint64_t bars;      /* barrier releases */
	uint64_t lanes;     /* thread instructions */
	uint64_t exec;      /* guard-true lanes */
} IssueMark;
static inline IssueMark sim_issue_mark(const Gpu *g)
{
	return (IssueMark){g->st.barriers, g->st.thread_insts, g->st.exec_lanes};
}

/* the exec callbacks' hand-over of an issue: its statistics into the SM's TStats (g->ts, the
 * one its TSm adds to), TExec's common field from x, and the rare ones (sim_texec_rare) when
 * the issue has any; 1 then, else 0. rc: sim_issue's; an issue that failed counts as one of
 * no lanes. mk: the statistics before the issue (its active and executing lanes are what
 * sim_issue's head counted since, the lanes it left out those the TStats count as off) */
static inline int sim_texec_hand(Gpu *g, SM *s, Warp *w, const ExecInfo *x, TExec *te,
                                 const IssueMark *mk, int rc)
{
	uint64_t lanes = g->st.thread_insts - mk->lanes;

	if (rc != SIM_OK) {
		sim_tstats_issue_n(&g->ts, 0, 0, 0, 0, 0);
		te->next = NULL;
		return 0;
	}
	sim_tstats_issue_n(&g->ts, lanes, lanes - (g->st.exec_lanes - mk->exec), x->diverged,
	                   x->reconverged, w->ncrs);
	te->next = &g->tcode[w->pc < (uint32_t)g->ncode ? w->pc : (uint32_t)g->ncode];
	if ((x->space | x->spills | x->fills | x->popped | x->event) || g->st.barriers != mk->bars) {
		sim_texec_rare(g, s, w, x, te, mk->bars);
		return 1;
	}
	return 0;
}
/* crs.c: control ops, unwinding, barriers, exits */
int sim_ctrl(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e);
int sim_arrive_sync(Gpu *g, Warp *w, uint32_t lanes);
/* the instruction split the warp (DIV_* of timing.h): counted once per instruction */
void sim_diverge(Gpu *g, ExecInfo *e, int kind);
int sim_unwind(Gpu *g, Warp *w, ExecInfo *e);
int sim_barrier(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e);
void sim_count_exits(Gpu *g, Warp *w, uint32_t lanes);
/* EXIT by the lanes ex (some): they leave, and count for the CTA's barriers */
void sim_exit(Gpu *g, Warp *w, const DIns *d, uint32_t ex);
/* the token of op (SSY PBK PCNT PRET PEXIT; BRA: a split's DIV token) pushed when it stays on
 * chip without the stack growing (exec.c's flow()): 0, or -1 without a change */
int sim_push_chip(Gpu *g, Warp *w, int op, uint32_t pc, uint32_t mask);
/* gpu.c */
int sim_fault(Gpu *g, const Warp *w, int lane, int kind, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void sim_warp_done(Gpu *g, Warp *w);
int sim_dispatch(Gpu *g);   /* fills free CTA slots; SIM_OK or SIM_FAULT */
/* stops the run with a message naming the warps still running (waiting at a barrier for
 * SIM_DEADLOCK) and returns kind */
int sim_stop(Gpu *g, int kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* no warp can issue again: the deadlock at a barrier, or CTAs that cannot be dispatched */
int sim_stuck(Gpu *g);
uint64_t sim_window(const TimingConfig *c); /* cycles per window (docs/timing.md) */
/* SM i through the cycles [from, to) of a window; g is its thread's view of the GPU */
void sim_run_sm(Gpu *g, int i, uint64_t from, uint64_t to);
/* par.c: the window queues. A global store of size bytes (v) at p (address a) by SM s */
void par_store(SM *s, uint64_t cycle, uint8_t *p, uint64_t a, unsigned size, const uint8_t *v);
/* the stores of lanes whose bytes follow each other, n bytes v at p (address a) in all: one
 * item, what par_store of each lane in turn would leave */
void par_stores(SM *s, uint64_t cycle, uint8_t *p, uint64_t a, unsigned n, const uint8_t *v);
/* the SM's own queued stores over the size bytes at a just read into buf */
void par_overlay(SM *s, uint64_t a, unsigned size, uint8_t *buf);
/* whether the SM has stores queued in the window, which its loads read over */
static inline int par_stored(const SM *s)
{
	return s->q.on || s->q.obuilt < s->q.n;
}
/* whether the SM has stores queued in the window over some of the bytes [lo, hi) */
static inline int par_stored_in(const SM *s, uint64_t lo, uint64_t hi)
{
	return lo < s->q.shi && hi > s->q.slo;
}
/* a lane's global atomic: performed at the window's end, the old value then into w's row
 * reg (and reg + 1 for 8 bytes) of lane l unless red */
void par_atom(SM *s, uint64_t cycle, uint8_t *p, Warp *w, uint16_t reg, unsigned l, unsigned size,
              int sub, int type, int ftz, int red, uint64_t b, uint64_t c);
/* a lane's MALLOC (of v bytes aligned to align, the address into w's rows reg and reg + 1 of
 * lane l) or FREE (of address v) at code index pc, made at the window's end (exec_heap.c) */
void par_heap(SM *s, uint64_t cycle, Warp *w, uint16_t reg, unsigned l, uint64_t v,
              uint64_t align, int isfree, uint32_t pc);
/* exec_heap.c: the heap of a kernel that calls malloc or free (sim_gpu_new): 0, or -1 when
 * the host is out of memory; one queued call made at the merge: 0, or -1 when a free stops
 * the run (g->fault set) */
int sim_heap_place(const Kernel *k, Mem *m, const Launch *l);
int sim_heap_apply(Gpu *g, int sm, const WItem *it);
/* exec_cdp.c: the parameter buffers of a kernel that launches grids (sim_gpu_new; 0, or -1
 * out of memory); a deferred CDPBUF or CDPLAUNCH made at the window's end (WItem hp, isfree
 * 2 or 3; -1 when it stops the run); the child grids once the host grid is done (sim_run) */
int sim_cdp_place(Gpu *g, const Kernel *k, Mem *m, const Launch *l);
int sim_cdp_apply(Gpu *g, int sm, const WItem *it);
int sim_cdp_children(Gpu *g, uint64_t maxc);
void par_add_tstats(TStats *a, TStats *b);   /* parthread.c: a += b (counters), b = 0 */
void par_add_stats(SimStats *a, SimStats *b);
/* a printf line (t->s is taken over) */
void par_print(SM *s, uint64_t cycle, const uint32_t id[3], const uint32_t tid[3], DevText *t);
void par_issue(SM *s, const TraceIssue *t);
void par_event(SM *s, const TraceEvent *ev);
/* the window's end: every SM's queue in (cycle, SM, position) order, only the items before
 * (cut_cycle, cut_sm) (an item of cycle cut_cycle when its SM is at most cut_sm) */
void par_merge(Gpu *g, uint64_t cut_cycle, int cut_sm);
void par_free(WQueue *q);
/* parthread.c: the SMs of a window on n host threads (--threads) */
typedef struct ParPool ParPool;
/* the pool; NULL when out of memory or threads */
ParPool *par_pool_new(Gpu *g, int n);
/* every SM through the window [from, to) (sim_run_sm), on the pool's threads */
void par_pool_run(ParPool *p, uint64_t from, uint64_t to);
/* the threads' earliest fault of the window into g->fault (cycle UINT64_MAX: none) */
void par_pool_fault(ParPool *p);
/* the threads' counters (statistics, CTAs done, need_dispatch) added into the GPU's */
void par_pool_fold(ParPool *p);
void par_pool_free(ParPool *p);
/* funcrun.c: the run without the timing model (SimConfig.functional) */
int sim_run_functional(Gpu *g, uint64_t max_rounds);
/* progress.c: the progress line, every 256th round of a run loop; final clears it */
void sim_progress(Gpu *g, int final);

#endif
