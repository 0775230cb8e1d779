/* timing.h - the cycle model's building blocks, built around the functional core
 * ("functional at issue, timing around it", as GPGPU-Sim does).
 *
 * Owns: the architecture configuration (TimingConfig, one table of long options,
 * sim/configs/ *.cfg), occupancy and CTA dispatch, global-memory coalescing, shared-memory
 * bank conflicts, set-associative LRU caches, the DRAM latency + bandwidth queue, per-warp
 * scoreboards, functional-unit pipelines, warp schedulers (LRR, GTO, two-level), the wake-up
 * ("next event") computation that lets the clock jump over idle stretches, and the timing
 * statistics with GPGPU-Sim's names. Every component is pure, deterministic and does no
 * allocation after its init function (but partime.c's queue, which grows to the largest
 * window's requests). docs/timing.md describes the model.
 *
 * Files: tconfig.c (config table), occupancy.c (occupancy, dispatch), coalesce.c (coalescing,
 * same-address degree), banks.c (bank conflicts), cache.c (caches), gmem.c (DRAM queue and the
 * global-memory path), scoreboard.c (scoreboard, wake-up), units.c (pipelines), sched.c
 * (schedulers), tstats.c (statistics), tsm.c (one SM's issue stage driving the functional core),
 * partime.c (a windowed run's requests past L1, taken at the window's end).
 */
#ifndef WARPSIM_TIMING_H
#define WARPSIM_TIMING_H

#include <stdint.h>
#include <stdio.h>
#include <assert.h>
#include <stddef.h>
#include <string.h>
#include "isa/isa.h"
#include "opt/opt.h"

enum {
	TM_WARP = 32,        /* lanes per warp */
	TM_MAXSCHED = 8,     /* schedulers per SM */
	TM_WHEEL = 64,       /* slots of a scheduler's wake-up wheel (cycles ahead it sorts) */
	TM_MAXPIPES = 16,    /* pipelines per unit class */
	TM_MAXWARPS = 64,    /* warp slots per SM */
	TM_MAXSMS = 1024,    /* SMs per GPU */
	TM_MAXSEGS = 160,    /* transactions one warp access can produce (32 lanes x 5) */
};

/* the host has a population count instruction (x86-64's popcnt, which its baseline lacks):
 * set before main (handlers.c) */
extern int sim_hw_popc;
/* the host has AVX2: handlers.c's decode-time handlers take their AVX2 bodies (set before
 * main; a test clears it to run the others) */
extern int sim_hw_avx2;
/* lanes in a mask: x86-64's popcnt where the host has it (chosen at run time: a build for
 * the baseline may not use it), else without a libgcc call */
static inline int
sim_popc(uint32_t x)
{
#if defined(__POPCNT__) || !defined(__x86_64__)
	return __builtin_popcount(x);
#else
	if (__builtin_expect(sim_hw_popc, 1)) {
		uint32_t n;
		__asm__("popcnt %1, %0" : "=r"(n) : "rm"(x) : "cc");
		return (int)n;
	}
	if (x == 0xffffffffu || x == 0)   /* a full or empty warp, the common cases */
		return x ? 32 : 0;
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	return (int)((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
#endif
}
/* sim_popc where hw says the host has popcnt (a constant in the issue loop's shapes, which
 * run only where sim_popc_hw_ok), without the run-time test */
static inline int
sim_popc_hw(uint32_t x, int hw)
{
#if defined(__x86_64__) && !defined(__POPCNT__)
	if (hw) {
		uint32_t n;
		__asm__("popcnt %1, %0" : "=r"(n) : "rm"(x) : "cc");
		return (int)n;
	}
#endif
	return sim_popc(x);
}
/* sim_popc_hw(x, 1) may be used: the host has popcnt, or the build chose the count itself
 * (a build with popcnt, or another architecture) */
static inline int
sim_popc_hw_ok(void)
{
#if defined(__x86_64__) && !defined(__POPCNT__)
	return sim_hw_popc;
#else
	return 1;
#endif
}

/* ------------------------------------------------------------------ tconfig.c */
typedef enum { SCHED_LRR, SCHED_GTO, SCHED_TWOLEVEL, SCHED_COUNT } SchedPolicy;

typedef struct {
	int units;           /* pipelines of this class per SM */
	int interval;        /* cycles a pipeline stays busy per warp instruction */
} UnitCfg;

/* the cache operator of a global load (PTX ld.ca (the default) .cg .cs .lu .cv; ld.global.nc,
 * LDG on sm_35) or a local-memory load, and the cache each is served by (--cache-OP): L1, the
 * read-only data cache (--ro-*), or none before the L2 */
typedef enum { COP_CA, COP_CG, COP_CS, COP_LU, COP_CV, COP_NC, COP_LOCAL, COP_COUNT } CacheOp;
typedef enum { CPATH_L2, CPATH_L1, CPATH_RO, CPATH_COUNT } CachePath;

typedef struct {
	int enable;          /* 0: the level is absent */
	int size;            /* bytes */
	int line;            /* line bytes */
	int assoc;           /* ways per set */
	int latency;         /* hit latency, cycles from issue to data */
} CacheCfg;

typedef struct {
	/* GPU */
	int arch;            /* compute capability it stands for, sm_XX: translated listings say it */
	int sms;             /* streaming multiprocessors */
	/* SM front end */
	int schedulers;      /* warp schedulers per SM */
	int policy;          /* SchedPolicy */
	int pool;            /* two-level: active warps per scheduler */
	int issue_width;     /* instructions a scheduler may issue per cycle from one warp (2: dual issue) */
	/* SM resources (occupancy) */
	int max_warps;       /* resident warps per SM */
	int max_ctas;        /* resident CTAs per SM */
	int regs;            /* 32-bit registers per SM */
	int max_regs;        /* registers per thread the architecture allows */
	int reg_unit;        /* registers are allocated per warp in units of this many */
	int shared;          /* shared memory bytes per SM */
	int shared_unit;     /* shared memory is allocated per CTA in units of this many bytes */
	int crs_depth;       /* CallReturnStack tokens per warp held on chip */
	/* pipelines and latencies */
	UnitCfg unit[UNIT_COUNT]; /* per unit class (Unit of isa.h) */
	int lat[LAT_COUNT];  /* per latency class (Lat of isa.h), cycles from issue to result */
	/* shared memory */
	int banks;           /* shared-memory banks */
	int bank_bytes;      /* bank width in bytes */
	/* global memory */
	int segment;         /* transaction bytes of an access cached in L1 (the L1 line) */
	int sector;          /* transaction bytes of an uncached access */
	int dram_bw;         /* DRAM bytes per cycle, whole GPU */
	CacheCfg l1;         /* per-SM L1 data cache */
	CacheCfg ro;         /* per-SM read-only data cache (.enable unused: it is there when a
	                        --cache-OP names it) */
	int cpath[COP_COUNT];/* CachePath of each CacheOp's loads */
	CacheCfg l2;         /* GPU-wide L2 */
	int atom_serial;     /* cycles per extra lane hitting the same atomic address */
	/* control */
	int div_switch;      /* issue slots a CRS pop that switches paths takes */
	int long_latency;    /* two-level: an issue with this latency or more leaves the pool */
	/* run */
	long long max_cycles; /* the run stops with a message after this many cycles */
	int skip;            /* 1: the clock jumps over idle stretches */
} TimingConfig;

/* the architecture's rows of the option table (opt/opt.h), one per TimingConfig field */
extern const OptRow sim_topts[];
extern const int sim_ntopts;

void sim_tconfig_defaults(TimingConfig *c);
/* key with or without "--"; 0, or -1 with "--key: expected ..., got 'val'" in err */
int sim_tconfig_set(TimingConfig *c, const char *key, const char *val, char *err, size_t errsz);
const OptRow *sim_tconfig_find(const char *key);
/* cross-field checks after all options are set; 0, or -1 with a message */
int sim_tconfig_check(const TimingConfig *c, char *err, size_t errsz);
/* every option as "--name value  # help", a valid config file, byte-for-byte stable */
void sim_tconfig_print(FILE *f, const TimingConfig *c);
/* config text: one "--name value" (or "--name=value") per line, '#' comments; located
 * diagnostics "name:line:col: error: ..." with the line and a caret; returns the error count */
int sim_tconfig_load_text(TimingConfig *c, const char *name, const char *text, FILE *err);
int sim_tconfig_load(TimingConfig *c, const char *path, FILE *err);
const char *sim_policy_name(int policy);

/* ------------------------------------------------------------------ occupancy.c */
typedef enum { OCC_WARPS, OCC_CTAS, OCC_REGS, OCC_SHARED, OCC_COUNT } OccLimit;

typedef struct {
	int ctas;            /* resident CTAs per SM */
	int limit;           /* OccLimit that bound ctas */
	int by[OCC_COUNT];   /* CTAs per SM each resource alone allows */
	int warps_per_cta;   /* warps of one CTA */
	int regs_per_cta;    /* registers one CTA takes after rounding */
	int shared_per_cta;  /* shared bytes one CTA takes after rounding */
} Occupancy;

/* 0, or -1 with a message when one CTA does not fit at all */
int sim_occupancy(const TimingConfig *c, int threads, int regs_per_thread, uint32_t shared,
                  Occupancy *o, char *err, size_t errsz);
const char *sim_occ_limit_name(int limit);
/* the SM for the next CTA: the first from *rr (round robin) with resident < limit; -1 if
 * none; advances *rr past the chosen SM */
int sim_dispatch_pick(const int *resident, int nsms, int limit, int *rr);

/* ------------------------------------------------------------------ coalesce.c */
/* distinct naturally aligned gran-byte blocks touched by the active lanes' accesses of size
 * bytes, ascending, in seg[TM_MAXSEGS]; returns their count */
int sim_coalesce(const uint64_t *addr, uint32_t mask, int size, uint32_t gran, uint64_t *seg);
/* the largest number of active lanes sharing one address (atomic serialisation) */
int sim_same_addr_degree(const uint64_t *addr, uint32_t mask);
/* the number of distinct addresses of the lanes in mask (a constant load's requests) */
int sim_distinct_addrs(const uint64_t *addr, uint32_t mask);

/* ------------------------------------------------------------------ banks.c */
/* conflict degree of a shared access: the largest number of distinct bank-wide words one
 * bank must deliver (lanes reading the same word share it, a broadcast); 0 with no active
 * lane, 1 without conflict; replays are degree - 1 */
int sim_bank_degree(const uint32_t *addr, uint32_t mask, int size, int banks, int bank_bytes);

/* ------------------------------------------------------------------ cache.c */
typedef struct {
	int sets, assoc, line;  /* geometry */
	int latency;            /* hit latency (CacheCfg.latency) */
	int shift;              /* log2(line) */
	uint64_t *tag;          /* sets*assoc line addresses (addr >> shift) + 1, 0 = invalid;
	                           each set's most recently used first, invalid ways last */
	uint64_t hits, misses;  /* statistics */
} Cache;

/* 0, or -1 with a message (size not a multiple of line*assoc, line not a power of two) */
int sim_cache_init(Cache *c, const CacheCfg *cfg, char *err, size_t errsz);
void sim_cache_free(Cache *c);
void sim_cache_clear(Cache *c);
/* 1 on a hit; on a miss allocates (evicting the LRU way) when alloc, and returns 0 */
int sim_cache_access(Cache *c, uint64_t addr, int alloc);
void sim_cache_invalidate(Cache *c, uint64_t addr);
/* the CacheOp of a global or local load: LDG is ld.global.nc; LD's sub its operator */
CacheOp sim_cache_op(const Ins *in, int local);
/* the cache that serves a load of operator op under c (CPATH_L2 also when --l1 is off) */
CachePath sim_cache_path(const TimingConfig *c, CacheOp op);
/* 1 when some global load may be held in L1 (then global stores and atomics evict from it) */
int sim_l1_global(const TimingConfig *c);

/* ------------------------------------------------------------------ gmem.c */
typedef struct {
	int bw;                 /* bytes per cycle */
	uint64_t free_at;       /* first cycle the channel is free */
	uint64_t bytes;         /* statistic: bytes moved */
	uint64_t reqs;          /* statistic: requests */
} Dram;

void sim_dram_init(Dram *d, int bw);
/* a request of bytes arriving at now: queued behind earlier ones (first come, first
 * served), it occupies the channel ceil(bytes / bw) cycles; its data is back latency
 * cycles after its slot ends. Returns that cycle. */
uint64_t sim_dram_request(Dram *d, uint64_t now, int bytes, int latency);

typedef enum { GM_LOAD, GM_STORE, GM_ATOM } GmKind;

typedef struct {
	int trans;              /* transactions (segments or sectors) */
	int l1_hits, l2_hits;   /* of those, served by L1 / L2 */
	int dram;               /* of those, served by DRAM */
	int atom_degree;        /* GM_ATOM: lanes on the busiest address */
	uint64_t done;          /* cycle the last data is back (stores: accepted) */
} GmResult;

/* the transaction bytes of an access: the line of the cache that serves a load (l1: L1 or
 * the read-only data cache), a sector otherwise */
static inline uint32_t
sim_gmem_gran(const TimingConfig *c, const Cache *l1, GmKind kind)
{
	return (uint32_t)(kind == GM_LOAD && l1 ? l1->line : c->sector);
}
/* the cycles from issue to the destinations of a global, local, constant, texture or surface
 * instruction whose access has no address (no lane executes it, or a surface access's lanes
 * all lie outside a .zero surface): it makes no request, so no cache or DRAM latency; it
 * passes the pipeline as any instruction does, which the model takes as --alu-latency
 * (docs/timing.md, "Predicated-off memory instructions") */
static inline uint64_t
sim_noreq_latency(const TimingConfig *c)
{
	return (uint64_t)c->lat[LAT_ALU];
}
/* the SM's half of an access issued at now: coalescing, then l1 (the per-SM cache that serves
 * it, L1 or the read-only data cache, at its latency: a load's hits; L1: a store's or
 * atomic's evictions); r gets the transactions, the L1 hits, the hits' last done cycle
 * (at least now) and an atomic's degree. The transactions that go past L1 go to seg[] with
 * their index (the cycle now + idx[] they leave the SM); returns how many. */
int sim_gmem_l1(const TimingConfig *c, Cache *l1, uint64_t now, const uint64_t *addr, uint32_t mask,
                int size, GmKind kind, GmResult *r, uint64_t *seg, uint8_t *idx);
/* the GPU's half of one such transaction, leaving the SM at t: L2, DRAM; adds to r's L2 hits,
 * DRAM count and done; returns its done cycle (an atomic's serialisation is the caller's) */
uint64_t sim_gmem_l2(const TimingConfig *c, Cache *l2, Dram *d, uint64_t t, uint64_t seg, uint32_t gran,
                     GmKind kind, int dram_lat, GmResult *r);
/* the global-memory path of one warp access issued at now: coalescing (into the cache's lines
 * when l1 serves loads, sectors otherwise), one transaction leaving the SM per cycle in address
 * order, l1 (as sim_gmem_l1; NULL: none), L2 (GPU-wide, NULL when off), DRAM (dram_lat: the
 * space's round trip, --global-latency or --local-latency). Stores write through, evicting
 * from L1 and allocating in L2 (write-back traffic is not charged); atomics are performed at
 * the L2 (--atom-latency) or, on an L2 miss, after a DRAM fetch, then serialised per address.
 * Returns r->done. */
uint64_t sim_gmem_access(const TimingConfig *c, Cache *l1, Cache *l2, Dram *d, uint64_t now,
                         const uint64_t *addr, uint32_t mask, int size, GmKind kind,
                         int dram_lat, GmResult *r);

/* ------------------------------------------------------------------ scoreboard.c */
/* register ids of the scoreboard: 0, an id that is never written (the padding of a run, see
 * SbUse), then P0..P6 (PT), CC, then R0..R254 (RZ 265): the predicates, CC and the low
 * registers, which most kernels use, share the few cache lines of a warp's Scoreboard */
#define SB_NULL ((uint16_t)0)
#define SB_P(n) ((uint16_t)(1 + (n)))
#define SB_CC ((uint16_t)(1 + ISA_NPREDS + 1))
#define SB_R(n) ((uint16_t)(SB_CC + 1 + (n)))
/* SB_MAXID: the most ids an instruction reads and writes, its guard, ISA_MAXOPD slots of up
 * to four registers and CC three times (an operand, .X, .CC) */
enum { SB_NIDS = SB_CC + 1 + 256, SB_MAXID = 1 + ISA_MAXOPD * 4 + 3, SB_RUN = 3 };
/* SB_SINK: an id past the others that is written and never read (TInst.dst's padding) */
#define SB_SINK ((uint16_t)SB_NIDS)

/* A windowed run (docs/timing.md, "Windows"; partime.c): the part of an SM's memory access
 * that leaves the SM (L2, DRAM) is queued and taken at the window's end, every SM's queue in
 * the order (issue cycle, SM, queue position); until then the registers it writes (or the
 * warp's control wait, for a CallReturnStack fill) read SIM_PEND, which lies past the window. */
#define SIM_PEND (UINT64_MAX / 2)
/* why a warp cannot issue; GPGPU-Sim's warp-state names in docs/timing.md */
typedef enum {
	STALL_NONE,          /* it can issue */
	STALL_RAW_ALU,       /* a source or destination awaits an arithmetic result */
	STALL_RAW_MEM,       /* a source or destination awaits a memory result */
	STALL_PIPE,          /* every pipeline of its unit class is busy */
	STALL_CTRL,          /* a branch or stack pop has not resolved yet */
	STALL_BARRIER,       /* waiting at a CTA barrier */
	STALL_IDLE,          /* no warp to issue (scheduler empty or all exited) */
	STALL_COUNT
} StallReason;

typedef struct {
	uint8_t nsrc, ndst;        /* counts */
	uint8_t nchk;              /* distinct ids in id[] (an id read and written counts once) */
	uint16_t chk[SB_RUN];      /* those ids when there are at most SB_RUN, then SB_NULL (an
	                              SbUse starts zeroed): readiness as a fixed run (sim_sb_max) */
	uint16_t id[SB_MAXID];     /* the ids read (guard predicate, sources, address registers,
	                              CC), id[0 .. nsrc), then those written (pairs and quads as
	                              separate ids), id[nsrc .. nsrc + ndst): one run to check */
} SbUse;

typedef struct {
	uint64_t memmax;           /* at least the cycle of every write from memory to an id that
	                              has landed (0: none); a pending one (SIM_PEND) counts once
	                              it lands (sim_sb_land) */
	uint64_t ready[SB_NIDS + 1];  /* per id: twice the cycle its pending write lands (0:
	                              none), plus 1 when memory produces it (one store per
	                              write); [SB_SINK] is written and never read */
} Scoreboard;

void sim_sb_clear(Scoreboard *s);
/* adds an id unless it is RZ or PT; n consecutive registers from R(first) */
void sim_sb_use_regs(SbUse *u, int dst, int first, int n);
void sim_sb_use_id(SbUse *u, int dst, uint16_t id);
/* first cycle the ids of u are all available (RAW on sources, WAW on destinations);
 * *why gets STALL_RAW_MEM or STALL_RAW_ALU for the latest one, or STALL_NONE (inline: the
 * issue stage asks it once per issue) */
static inline uint64_t
sim_sb_ready(const Scoreboard *s, const SbUse *u, int *why)
{
	uint64_t t = 0;
	int id = -1, n = u->nsrc + u->ndst;
	/* sources, then destinations (WAW), in one run; the first latest one's kind counts */
	for (int i = 0; i < n; i++)
		if (s->ready[u->id[i]] >> 1 > t) {
			t = s->ready[u->id[i]] >> 1;
			id = u->id[i];
		}
	*why = id < 0 ? STALL_NONE : s->ready[id] & 1 ? STALL_RAW_MEM : STALL_RAW_ALU;
	return t;
}
/* the latest landing of the fixed run chk (SB_NULL's ready is 0), by a max without a
 * branch on the data and without a loop */
static inline uint64_t
sim_sb_run(const Scoreboard *s, const uint16_t chk[SB_RUN])
{
	uint64_t t = 0;

	for (int i = 0; i < SB_RUN; i++) {   /* (a constant count: unrolled) */
		uint64_t r = s->ready[chk[i]];
		t = r > t ? r : t;
	}
	return t >> 1;
}
/* sim_sb_ready's cycle alone: over the fixed run chk (sim_sb_run); over the whole run when
 * it is longer (rare) */
static inline uint64_t
sim_sb_max(const Scoreboard *s, const SbUse *u)
{
	uint64_t t = 0;

	if (__builtin_expect(u->nchk > SB_RUN, 0)) {
		for (int i = 0; i < u->nsrc + u->ndst; i++) {
			uint64_t r = s->ready[u->id[i]];
			t = r > t ? r : t;
		}
		return t >> 1;
	}
	return sim_sb_run(s, u->chk);
}
/* the reason of a latest landing t past memmax (or 0): none, a pending access (only memory
 * writes are SIM_PEND), or an arithmetic result */
static inline int
sim_sb_why_past(uint64_t t)
{
	return t == 0 ? STALL_NONE : t == SIM_PEND ? STALL_RAW_MEM : STALL_RAW_ALU;
}
/* sim_sb_ready's reason, given its cycle t: the ids looked at only when a landed write from
 * memory could be the latest (t not past memmax) */
static inline int
sim_sb_why(const Scoreboard *s, const SbUse *u, uint64_t t)
{
	int why;

	if (t > s->memmax || t == 0)
		return sim_sb_why_past(t);
	sim_sb_ready(s, u, &why);
	return why;
}
/* the cycle id's write lands (0: none pending) */
static inline uint64_t
sim_sb_at(const Scoreboard *s, int id)
{
	return s->ready[id] >> 1;
}
/* the n ids dst land at ready (mem: from memory) */
static inline void
sim_sb_write_ids(Scoreboard *s, const uint16_t *dst, int n, uint64_t ready, int mem)
{
	uint64_t r = ready << 1 | (uint64_t)(mem != 0);

	for (int i = 0; i < n; i++)
		s->ready[dst[i]] = r;
	if (mem && n && ready > s->memmax && ready != SIM_PEND)
		s->memmax = ready;
}
/* u's destinations land at ready (mem: from memory) */
static inline void
sim_sb_write(Scoreboard *s, const SbUse *u, uint64_t ready, int mem)
{
	sim_sb_write_ids(s, u->id + u->nsrc, u->ndst, ready, mem);
}
/* id's pending write lands at ready instead (a windowed run's memory access, resolved) */
static inline void
sim_sb_land(Scoreboard *s, int id, uint64_t ready)
{
	if ((s->ready[id] & 1) && ready > s->memmax)
		s->memmax = ready;
	s->ready[id] = ready << 1 | (s->ready[id] & 1);
}

/* the wake-up of a warp: the first cycle >= now at which every constraint holds, and the
 * reason that binds last (the stall reason for every cycle before the wake-up). With all
 * state changes happening at issue, jumping to the least wake-up of all warps gives the
 * same result as stepping cycle by cycle. */
typedef struct {
	uint64_t sb;         /* scoreboard ready cycle */
	int sb_why;          /* STALL_RAW_ALU / STALL_RAW_MEM */
	uint64_t pipe;       /* first cycle a pipeline of its class is free */
	uint64_t ctrl;       /* first cycle after its last control op resolves */
} WakeIn;
uint64_t sim_wake(const WakeIn *w, uint64_t now, int *why);

/* ------------------------------------------------------------------ units.c */
typedef struct {
	uint64_t busy[UNIT_COUNT][TM_MAXPIPES]; /* first cycle each pipeline is free */
} Units;

void sim_units_clear(Units *u);
uint64_t sim_units_free_at(const Units *u, const TimingConfig *c, Unit k);
/* takes the lowest-numbered pipeline free at now for interval * mult cycles (mult: replays);
 * returns the class's new free_at (the least busy-until over its pipelines). Inline: once
 * per issue. */
static inline uint64_t
sim_units_take(Units *u, const TimingConfig *c, Unit k, uint64_t now, int mult)
{
	uint64_t *b = u->busy[k], *end = b + c->unit[k].units, *p = b, t;

	if (c->unit[k].units - 1u < 2u) {     /* (most classes of the configs: one or two pipelines) */
		/* without a branch on the data (which pipe is free is hard to predict): pipe 1 when
		 * there are two and pipe 0 is busy; the least of pipes 0 and units - 1 */
		uint64_t v = now + (uint64_t)c->unit[k].interval * (uint64_t)(mult > 1 ? mult : 1);
		int last = c->unit[k].units - 1;
		p = b + ((b[0] > now) & last);
		assert(*p <= now && "sim_units_take: no free pipeline");
		*p = v;
		return b[0] < b[last] ? b[0] : b[last];
	}
	while (p < end && *p > now)
		p++;
	assert(p < end && "sim_units_take: no free pipeline");
	*p = now + (uint64_t)c->unit[k].interval * (uint64_t)(mult > 1 ? mult : 1);
	t = b[0];
	for (p = b + 1; p < end; p++)
		if (*p < t)
			t = *p;
	return t;
}

/* ------------------------------------------------------------------ sched.c */
typedef struct {
	int policy;          /* SchedPolicy */
	int pool;            /* two-level active-pool size */
	int n;               /* warps assigned */
	int warp[TM_MAXWARPS];     /* warp slots in assignment order */
	uint64_t age[TM_MAXWARPS]; /* dispatch sequence number, unique: smaller is older */
	uint8_t active[TM_MAXWARPS]; /* two-level: in the active pool */
	int last;            /* warp slot issued last, -1 before any or once it left */
	int anyissued;       /* 0 before the first issue */
	uint64_t lastage;    /* age of the warp issued last: round robin resumes after it (while
	                        that warp is here, sched.c takes it from age[rs - 1]) */
	int rs;              /* warps with age <= lastage (once anyissued): where round robin resumes */
	uint64_t gbit;       /* the bit of position rs - 1 while the warp issued last is here (last
	                        >= 0), else 0: GTO's pick (sched.c and tsm.c keep it) */
} Sched;

void sim_sched_init(Sched *s, int policy, int pool);
void sim_sched_add(Sched *s, int warp, uint64_t age);
void sim_sched_remove(Sched *s, int warp);
/* the warps in priority order for this cycle; returns the count. LRR: from the one after the
 * last issued, round robin. GTO: the last issued, then oldest first. Two-level: the active
 * pool round robin, then the pending warps oldest first (they issue only when no active warp
 * can, which keeps a pool full of stalled warps from starving the SM). */
int sim_sched_order(const Sched *s, int *out);
/* the first warp of that order whose position (index in warp[]) is a bit of cand, -1 when
 * none: the order without building it */
int sim_sched_pick(const Sched *s, uint64_t cand);
/* the first warp of the order, -1 when the scheduler has no warp */
int sim_sched_first(const Sched *s);
/* records an issue; long_wait: the warp now waits on a long-latency event (two-level: it
 * leaves the pool and the oldest pending warp enters) */
void sim_sched_issued(Sched *s, int warp, int long_wait);
/* the same for the warp at position i of warp[] */
void sim_sched_issued_at(Sched *s, int i, int long_wait);

/* divergence events (docs/warpsim.md, "Divergence"): an instruction after which the warp's
 * lanes are split into groups that continue at different PCs, by kind */
enum {
	DIV_NONE,
	DIV_BRA,     /* a guarded BRA (or CAL) taken by some active lanes only */
	DIV_SYNC,    /* a guarded .S: some lanes go to the sync point, the others go on */
	DIV_BRK,     /* BRK by some active lanes only */
	DIV_CONT,    /* CONT by some active lanes only */
	DIV_RET,     /* RET by some active lanes only */
	DIV_EXIT,    /* EXIT by some active lanes only */
	DIV_BRX,     /* BRX (or JCAL) whose lanes go to several targets, or only some of them */
	DIV_COUNT
};

/* ------------------------------------------------------------------ tstats.c */
typedef struct {
	uint64_t cycles;         /* gpu_sim_cycle */
	uint64_t warp_insts;     /* gpgpu_n_tot_w_icount: warp instructions issued */
	uint64_t thread_insts;   /* gpu_sim_insn: active lanes summed over issued instructions */
	uint64_t pred_off;       /* lanes active but guard-false at issue */
	uint64_t div_branches;   /* divergence events of every kind (GPGPU-Sim's divergent_branches) */
	uint64_t div[DIV_COUNT]; /* divergence events by kind (DIV_*) */
	uint64_t reconv;         /* CRS pops that merged lanes back */
	uint64_t crs_hwm;        /* CallReturnStack high-water mark over all warps */
	uint64_t crs_spills;     /* tokens pushed beyond the on-chip depth (stored to local memory) */
	uint64_t crs_fills;      /* spilled tokens brought back on chip by a pop (loaded) */
	uint64_t stall[STALL_COUNT]; /* scheduler-cycles without issue, by reason */
	uint64_t shared_insts;   /* gpgpu_n_shmem_insn */
	uint64_t bank_conflicts; /* gpgpu_n_shmem_bkconflict: replays */
	uint64_t gld_trans;      /* global/local load transactions */
	uint64_t gst_trans;      /* global/local store transactions */
	uint64_t atom_trans;     /* atomic transactions */
	uint64_t l1_hits, l1_misses; /* L1D_total_cache_{accesses - misses, misses} */
	uint64_t l2_hits, l2_misses; /* L2_total_cache_... */
	uint64_t dram_bytes;     /* bytes moved by DRAM */
	uint64_t ctas;           /* CTAs run */
	uint64_t cdp_grids;      /* child grids run (dynamic parallelism) */
	uint64_t cdp_ctas;       /* their CTAs (counted in ctas too) */
	uint64_t warp_cycles;    /* resident warps summed over SM-cycles (achieved occupancy) */
	uint64_t sm_cycles;      /* cycles summed over SMs with at least one resident warp */
	int max_warps;           /* warp slots per SM (for occupancy) */
	Occupancy occ;           /* theoretical occupancy of the launch */
	int functional;          /* --functional: cycles are rounds; no timing-model counters */
} TStats;

/* ------------------------------------------------------------------ tsm.c */
/* The issue stage of one SM, driving a functional core through its callbacks. The core
 * decodes each instruction once into a TInst (peek) and executes it at issue (exec),
 * reporting what the timing needs in a TExec. A lean instruction (TInst.lean) the issue
 * stage runs itself, without the exec callback: its guard, its statistics (TLean), the
 * core's decode-time handler or the branch, and the warp's pc. A control instruction that
 * is not lean at this issue goes to the core's short path for it (TInst.flow, TSource.flow)
 * rather than exec where it has one. */
struct Warp;         /* the core's warp and decoded instruction (sim/machine.h) */
struct DIns;
/* a decode-time handler: the op of one issue of d by w for its lanes ex, in a form that
 * cannot fault (machine.h's ExecFn) */
typedef void TLeanFn(struct Warp *w, const struct DIns *d, uint32_t ex);
/* TInst.lean (and the core's DIns.lean), for an instruction without CC test or constant
 * operand read at run time: LEAN_FN, one without .S that has a handler; LEAN_BRA, a branch,
 * lean when it does not split the warp; LEAN_QUIET, a .S form with a handler or an EXIT,
 * lean when no lane's guard holds (it then does nothing: no lane runs it, arrives at the
 * sync point or exits; the core's DIns.quiet, the one rule for that). None can fault, touch
 * memory or change the active lanes when lean. */
enum { LEAN_NO, LEAN_FN, LEAN_BRA, LEAN_QUIET };
/* the core's warp as the issue stage reads and writes it for a lean instruction: the code
 * index of its next instruction, its active lanes and its predicates' lane masks are the
 * uint32_t at these byte offsets (machine.h asserts them) */
enum { TW_PC = 0, TW_ACTIVE = 4, TW_P = 20 };
static inline uint32_t *
sim_tw_word(struct Warp *w, unsigned off)
{
	return (uint32_t *)(void *)((char *)w + off);
}

/* SB_DRUN: the most ids an instruction writes that its TInst holds itself (a quad and CC:
 * 5; more, the rare instruction reads them from its SbUse) */
enum { SB_DRUN = 6 };
/* one instruction's timing form, in one 64-byte cache line (the core's tcode array is
 * 64-byte aligned): what the issue stage reads on every issue; the whole scoreboard id list
 * (SbUse) stays in a side array, read only on the rarer paths (a run longer than SB_RUN
 * ids, more than SB_DRUN written, a stall's reason) */
typedef struct {
	TLeanFn *fn;         /* LEAN_FN: the handler */
	const struct DIns *d;/* the core's instruction: the handler's argument, flow's */
	const SbUse *use;    /* registers, predicates and CC read and written, all of them */
	uint32_t gxor;       /* the guard's lane mask is the warp's P[guard] ^ gxor */
	uint32_t pc;         /* its code index (this TInst is the core's tcode[pc]) */
	uint32_t target;     /* LEAN_BRA: code index of the target */
	uint8_t unit;        /* Unit (isa_ops[op].unit) */
	uint8_t lat;         /* Lat (isa_ops[op].lat) */
	uint8_t ctrl;        /* 1: control op, the warp's next issue waits --ctrl-latency */
	uint8_t flow;        /* 1: the core has a short path for it (TSource.flow; sim_tdecode
	                        leaves it 0) */
	/* the lean form (zero when lean is LEAN_NO; sim_tdecode leaves it so, and pc and d) */
	uint8_t lean;        /* LEAN_* */
	uint8_t guard;       /* the guard's predicate index (7: PT) */
	uint8_t nchk;        /* use->nchk */
	uint8_t ndst;        /* use->ndst */
	uint16_t chk[SB_RUN];/* use->chk: the ids to check when nchk <= SB_RUN (sim_tsb_max) */
	uint16_t dst[SB_DRUN];/* the ids written, when ndst <= SB_DRUN (sim_tsb_write) */
} TInst;
_Static_assert(sizeof(TInst) == 64 && offsetof(TInst, gxor) == 24 && offsetof(TInst, unit) == 36 &&
               offsetof(TInst, nchk) == 42 && offsetof(TInst, dst) == 50,
               "TInst fills one 64-byte cache line");
/* (decode.c) the timing form of one instruction into t, its scoreboard ids into u (t->use):
 * also what an observer of the run needs to know an issue's unit, latency class and
 * dependences (report/bounds.c) */
void sim_tdecode(const Ins *in, TInst *t, SbUse *u);

/* t's scoreboard ids are u's (t->use and the copies in t's own line) */
static inline void
sim_tinst_use(TInst *t, const SbUse *u)
{
	t->use = u;
	t->nchk = u->nchk;
	t->ndst = u->ndst;
	memcpy(t->chk, u->chk, sizeof t->chk);
	for (int i = 0; i < SB_DRUN; i++)
		t->dst[i] = i < u->ndst ? u->id[u->nsrc + i] : SB_SINK;
}
/* sim_sb_max of in's ids: over the fixed run in the TInst's own line */
static inline uint64_t
sim_tsb_max(const Scoreboard *s, const TInst *in)
{
	if (__builtin_expect(in->nchk > SB_RUN, 0))
		return sim_sb_max(s, in->use);
	return sim_sb_run(s, in->chk);
}
/* sim_sb_why of in's ids, given t, the latest landing of its run (sim_tsb_max): the first id
 * of the fixed run that lands at t decides, as the first latest id of the whole list does in
 * sim_sb_ready (the run holds the list's distinct ids in the order they first appear); the
 * whole list (in->use) only when the run is longer than SB_RUN */
static inline int
sim_tsb_why(const Scoreboard *s, const TInst *in, uint64_t t)
{
	if (t > s->memmax || t == 0)
		return sim_sb_why_past(t);
	if (__builtin_expect(in->nchk > SB_RUN, 0))
		return sim_sb_why(s, in->use, t);
	for (int i = 0; i < SB_RUN; i++) {
		uint64_t r = s->ready[in->chk[i]];
		if (r >> 1 == t)
			return r & 1 ? STALL_RAW_MEM : STALL_RAW_ALU;
	}
	return STALL_NONE;          /* (not reached when t is the run's latest landing) */
}
/* sim_sb_write of in's destinations, from the TInst's own line when it holds them: two
 * stores without a loop for the common instruction, which writes at most two ids (a third or
 * more, the rare one, through the loop; an unused slot is SB_SINK) */
static inline void
sim_tsb_write(Scoreboard *s, const TInst *in, uint64_t ready, int mem)
{
	if (__builtin_expect(in->ndst > 2, 0)) {
		sim_sb_write_ids(s, in->ndst > SB_DRUN ? in->use->id + in->use->nsrc : in->dst, in->ndst,
		                 ready, mem);
		return;
	}
	uint64_t r = ready << 1 | (uint64_t)(mem != 0);
	s->ready[in->dst[0]] = r;
	s->ready[in->dst[1]] = r;
	if (mem && in->ndst && ready > s->memmax && ready != SIM_PEND)
		s->memmax = ready;
}

enum { TSP_NONE, TSP_GLOBAL, TSP_LOCAL, TSP_SHARED, TSP_CONST };  /* TExec.space */
#define CRS_TOKEN_BYTES 8   /* a CallReturnStack token in local memory: mask, kind and pc ([M]) */
enum { TEX_NONE, TEX_BAR_WAIT, TEX_BAR_RELEASE, TEX_EXIT };       /* TExec.event */
enum { TFLOW_SWITCH = 2 };  /* TSource.flow's answer for a path switch alone */

/* What an issue did, as the core reports it to the timing: the common field always; the
 * rest (from space on) only when exec returns nonzero (a memory access, CallReturnStack
 * traffic, a path switch, a barrier, an exit), and then all of them (zero when unused). The
 * issue's functional statistics (warp and thread instructions, predication, divergence,
 * reconvergence, CRS depth) the core counts itself, into the TStats the SM adds to
 * (sim_tstats_issue), where it has them at hand: they are not carried across. */
typedef struct {
	const TInst *next;   /* the warp's next instruction (what peek would return), NULL:
	                        unknown; saves the timing a visit to the core's warp */
	/* (the rare fields) */
	uint8_t space;       /* TSP_*: memory space accessed, TSP_NONE for none */
	uint8_t kind;        /* GmKind of a global/local access (shared: loads and stores alike) */
	uint8_t size;        /* bytes per lane */
	uint8_t event;       /* TEV_*: the warp waits at a barrier / it released its CTA's barrier / it exited */
	uint8_t switches;    /* CRS pops that switched the warp to another path */
	uint8_t cop;         /* CacheOp of a global or local load */
	uint8_t crs_spills;  /* tokens it spilled to the warp's CRS area in local memory */
	uint8_t crs_fills;   /* tokens it brought back from there */
	uint32_t amask;      /* lanes with an address in addr[] (a surface load's .zero lanes
	                        outside the surface execute but access nothing); none: the
	                        access makes no request (sim_noreq_latency) */
	uint64_t crs_addr;   /* address of the lowest slot spilled or filled (then + CRS_TOKEN_BYTES ...) */
	uint64_t released;   /* warp slots a barrier release lets go (bit per slot; 0: the
	                        TEX_BAR_RELEASE rule: every waiting warp of the issuer's CTA) */
	uint64_t addr[TM_WARP]; /* global/local address, or shared byte offset, of each lane in
	                           amask; a lane outside it holds a stale value, never read */
} TExec;

/* the rare fields of e cleared (what an exec that returns nonzero does first) */
static inline void
sim_texec_rare_clear(TExec *e)
{
	memset(&e->space, 0, offsetof(TExec, addr) - offsetof(TExec, space));
}

/* the functional statistics of one issue, as an exec callback counts them into the SM's
 * TStats: lanes active lanes at issue, off of those the ones whose guard did not hold, DIV_*
 * of a split (0: none), a pop that merged lanes back, the CRS depth after it. An issue that
 * failed counts as one of no lanes. */
static inline void
sim_tstats_issue_n(TStats *st, uint64_t lanes, uint64_t off, int diverged, int reconverged,
                   int crs_depth)
{
	st->warp_insts++;
	st->thread_insts += lanes;
	st->pred_off += off;
	if (diverged) {             /* (div[DIV_NONE] is not counted, as in funcrun.c) */
		st->div_branches++;
		st->div[diverged]++;
	}
	st->reconv += (uint64_t)reconverged;
	if ((uint64_t)crs_depth > st->crs_hwm)
		st->crs_hwm = (uint64_t)crs_depth;
}
/* the same of the active lanes active, of which exec executed */
static inline void
sim_tstats_issue(TStats *st, uint32_t active, uint32_t exec, int diverged, int reconverged,
                 int crs_depth)
{
	if (exec == ~0u)            /* a full warp, guard true (exec is part of active) */
		sim_tstats_issue_n(st, 32, 0, diverged, reconverged, crs_depth);
	else
		sim_tstats_issue_n(st, (uint64_t)sim_popc(active), (uint64_t)sim_popc(active & ~exec),
		                   diverged, reconverged, crs_depth);
}

/* What the issue stage needs of the core to run a lean instruction itself, and the
 * statistics it counts for it (per SM, the core's): every lean issue counts insts, lanes
 * (its active lanes) and off (of those, the guard-false ones). The core folds them into its
 * own statistics and the TStats (warp and thread instructions, predicated-off lanes)
 * whenever it reads those. */
typedef struct {
	struct Warp *warps[TM_MAXWARPS]; /* the core's warps by warp slot (the core's own list:
	                                    a load less per lean issue than a pointer to one) */
	uint64_t insts, lanes, off;
} TLean;

/* a lean issue counted into l: active lanes act, of which ex executed (hw: sim_popc_hw's) */
static inline void
sim_lean_count(TLean *l, uint32_t act, uint32_t ex, int hw)
{
	l->insts++;
	l->lanes += (uint64_t)sim_popc_hw(act, hw);
	l->off += (uint64_t)sim_popc_hw(act & ~ex, hw);
}

typedef struct {
	void *ctx;                                    /* the functional core */
	const TInst *(*peek)(void *ctx, int warp);    /* the warp's next instruction, decoded */
	/* executes it and counts its statistics (sim_tstats_issue); fills e's common field,
	 * and returns 0, or all of e and returns 1 */
	int (*exec)(void *ctx, int warp, TExec *e);
	/* NULL: every instruction through exec (none is lean, a trace reads every issue, or
	 * a fault stopped the run); the core clears it when that changes */
	TLean *lean;
	/* the short path of a control instruction (TInst.flow) that the issue stage did not
	 * run itself, taken instead of exec while lean is set: a push that stays on chip, a
	 * branch that splits the warp, a .S that some lane runs, an EXIT that some lane runs.
	 * As exec, or -1 without a change when exec must run it (a token that would spill, a
	 * warp without active lanes), or TFLOW_SWITCH: the issue's only rare field is a path
	 * switch (e->switches 1, e->space TSP_NONE; the others are not set) */
	int (*flow)(void *ctx, int warp, const TInst *in, TExec *e);
} TSource;

enum { TQ_ACCESS, TQ_FILL, TQ_SPILL };   /* TReq.what */
typedef struct {
	uint64_t now;        /* issue cycle */
	uint64_t done;       /* what is known at issue: the L1 hits' done cycle (at least now) */
	uint64_t base;       /* TQ_FILL: the warp's control wait before the fill */
	const TInst *in;     /* TQ_ACCESS: the instruction, whose destinations wait for it */
	int seg0, nseg;      /* its transactions past L1: TQueue.seg and idx [seg0, seg0 + nseg) */
	int dram_lat;        /* the space's DRAM round trip */
	uint32_t gran;       /* transaction bytes */
	uint8_t kind;        /* GmKind */
	uint8_t what;        /* TQ_* */
	uint8_t warp;        /* warp slot */
	uint8_t degree;      /* GM_ATOM: lanes on the busiest address */
} TReq;
typedef struct {
	TReq *r;             /* requests in issue order */
	int n, cap;
	uint64_t *seg;       /* their transactions */
	uint8_t *idx;        /* and each one's index in its access */
	int nseg, segcap;
} TQueue;

typedef struct {
	/* (the fields every cycle touches first, the large per-warp arrays last) */
	const TimingConfig *c;       /* the architecture */
	TStats *st;                  /* statistics to add to */
	int nlive;                   /* live warps */
	int viacore;                 /* 1: an issue went through the core (issue_exec) since
	                                sim_tsm_run last looked; only such an issue exits a warp
	                                or faults */
	uint64_t dirty;              /* warps whose wr, wsb, wunit and masks are stale (set by its
	                                issue, a barrier release, its arrival; see tsm.c) */
	uint64_t sfree[TM_MAXSCHED]; /* per scheduler: first cycle it has an issue slot */
	uint64_t kwake[TM_MAXSCHED]; /* per scheduler, a memo: no warp of it issues before this
	                                (set by a visit without issue; 0, no memo: reset by an
	                                issue, a barrier release, a new warp, a landed access) */
	int kfirst[TM_MAXSCHED];     /* per scheduler, with kwake: the first warp of its order */
	/* The ready masks (tsm.c) are the SM's, one bit per warp: scheduler k's warps hold bits
	 * kbase[k] .. kbase[k] + n - 1 in their order's positions (kbase[k] is k x 64 / schedulers,
	 * and --max-warps / --schedulers warps fit in that), so that one wheel and one clock
	 * serve every scheduler */
	uint64_t kt;                 /* the cycle rdy and the wheel were sorted for */
	uint64_t rdy;                /* warps with wr <= kt (bit wbit) */
	uint64_t wocc;               /* the wheel's non-empty slots (bit per slot) */
	uint64_t far;                /* warps with wr >= kt + TM_WHEEL (filed then) */
	uint64_t farfrom;            /* the least wr of far - (TM_WHEEL - 1), the first cycle a far
	                                warp is within the wheel's reach (UINT64_MAX: none; a lower
	                                bound once a far warp left) */
	uint64_t kmask[TM_MAXSCHED]; /* per scheduler: its bits of the masks */
	uint8_t kbase[TM_MAXSCHED];  /* per scheduler: its first bit (position 0) */
	uint8_t korder[2 * TM_MAXSCHED]; /* 0 .. schedulers - 1 twice: a cycle's order of visits
	                                is the run of schedulers from now % schedulers */
	uint64_t tkt;                /* the cycle of the last take of a unit class (take_unit) */
	uint8_t tku;                 /* and its class */
	uint64_t pfree[UNIT_COUNT];  /* per unit class: first cycle a pipeline is free */
	uint64_t pipe[UNIT_COUNT][2];/* per unit class of one or two pipelines: each one's first free
	                                cycle, in pipeline order (units keeps the wider classes) */
	uint32_t pivl[UNIT_COUNT];   /* per unit class: cycles a pipeline is busy per issue slot */
	uint8_t plast[UNIT_COUNT];   /* per unit class: its last pipeline (units - 1), or 2 for a
	                                class of more than two (taken through units) */
	uint32_t lat[LAT_COUNT];     /* per latency class: cycles from issue to result (c->lat) */
	int iw;                      /* c->issue_width */
	uint64_t wr[TM_MAXWARPS];    /* per warp: max(scoreboard ready of its next instruction,
	                                ctrl), UINT64_MAX at a barrier or once exited */
	uint64_t wbit[TM_MAXWARPS];  /* per warp: its bit of the masks, 1 << (kbase + its index in
	                                its scheduler's warp[]) */
	uint8_t bw[64];              /* per bit of the masks: the warp that holds it */
	uint8_t wsched[TM_MAXWARPS]; /* per warp: its scheduler, warp % schedulers */
	uint8_t wunit[TM_MAXWARPS];  /* the unit class of its next instruction */
	uint64_t wsb[TM_MAXWARPS];   /* per warp: the scoreboard's part of wr (its stall reason is
	                                found from it when a stall is charged: sim_sb_why) */
	uint64_t ctrl[TM_MAXWARPS];  /* per warp: first cycle it may issue (control, barrier, switches) */
	uint8_t live[TM_MAXWARPS];   /* resident and not exited */
	uint8_t atbar[TM_MAXWARPS];  /* waiting at a CTA barrier */
	const TInst *wnext[TM_MAXWARPS]; /* per warp: its next instruction as its last exec
	                                reported it (NULL: ask peek) */
	int cta[TM_MAXWARPS];        /* CTA of the warp slot */
	uint64_t umask[UNIT_COUNT];  /* per unit class: the warps whose next instruction issues
	                                to it */
	uint64_t wheel[TM_WHEEL];    /* a timing wheel: slot wr % TM_WHEEL holds the warps with
	                                kt < wr < kt + TM_WHEEL */
	Sched sched[TM_MAXSCHED];    /* warp w belongs to scheduler w % schedulers */
	Units units;                 /* pipelines */
	uint64_t end;                /* last warp completion (exit issued, pending writes landed) */
	Cache *l2;                   /* GPU-wide L2, or NULL */
	Dram *dram;                  /* GPU-wide DRAM channel */
	Cache l1;                    /* per-SM L1 (when c->l1.enable) */
	Cache ro;                    /* per-SM read-only data cache (when a --cache-OP is ro) */
	Cache *gl1;                  /* &l1 when it may hold global lines (global stores and atomics
	                                evict from it), else NULL */
	TExec e;                     /* scratch for the exec callback (no allocation per issue) */
	int defer;                   /* 1: a windowed run, the L2 and DRAM halves wait in q */
	TQueue q;                    /* this window's requests past the SM (partime.c) */
	uint16_t sbtop;              /* 0 (all SB_NIDS), or 1 + the highest scoreboard id an
	                                instruction of the kernel writes (Gpu.sbtop, set after
	                                sim_tsm_init): a warp's entries from it on stay 0, so a slot's
	                                later arrivals and a warp's exit look below it only */
	uint8_t sbset[TM_MAXWARPS];  /* per warp slot: its Scoreboard was cleared whole once */
	Scoreboard sb[TM_MAXWARPS];  /* per warp slot */
} TSm;

/* 0, or -1 with a message (L1 or read-only cache geometry) */
int sim_tsm_init(TSm *m, const TimingConfig *c, Cache *l2, Dram *d, TStats *st, char *err, size_t errsz);
void sim_tsm_free(TSm *m);
/* warps first .. first + n - 1 of CTA slot cta join the SM, ages age .., each scheduler's
 * masks rebuilt once */
void sim_tsm_add_cta(TSm *m, int first, int n, int cta, uint64_t age);
/* the SM's cycles [from, to) of a window (sim_run_sm): each cycle it needs stepped (every
 * scheduler issues up to issue_width instructions of one warp, now % schedulers choosing
 * first; stalls counted by reason), *cycle set to it first (the core reads it);
 * after a cycle without issue the clock jumps to the SM's least wake-up when c->skip, the
 * cycles in between charged (sim_tsm_charge); the occupancy counters counted. It stops
 * early after a cycle that left *rc nonzero (an issue's fault: TRUN_FAULT), without live
 * warps (TRUN_ASLEEP), or when no warp can ever issue again by itself (TRUN_PARKED); else
 * TRUN_END. *last gets the last cycle stepped (unchanged when none). */
enum { TRUN_END, TRUN_FAULT, TRUN_ASLEEP, TRUN_PARKED };
/* 1 (the default): sim_tsm_run takes the cycle loop compiled for the configuration's shape
 * where there is one; 0: always the general loop (a test clears it to compare the two) */
extern int sim_tsm_shapes;
int sim_tsm_run(TSm *m, const TSource *s, uint64_t from, uint64_t to, uint64_t *cycle, const int *rc,
                uint64_t *last);
/* cycle now alone: sim_tsm_run over [now, now + 1), for a caller with its own clock
 * (sim_tsm_next); returns TRUN_* */
int sim_tsm_cycle(TSm *m, const TSource *s, uint64_t now);
/* the occupancy counters of n SM-cycles with nlive live warps each (none when nlive is 0) */
static inline void
sim_tsm_occupancy(TSm *m, int nlive, uint64_t n)
{
	if (nlive) {
		m->st->sm_cycles += n;
		m->st->warp_cycles += (uint64_t)nlive * n;
	}
}
/* the next cycle after now worth simulating: now + 1 when stepping; the least wake-up of
 * any warp or scheduler when skipping (the skipped cycles' stalls are counted exactly as
 * stepping would count them); UINT64_MAX when no live warp can ever issue (deadlock) */
uint64_t sim_tsm_next(TSm *m, const TSource *s, uint64_t now);
/* the two halves of sim_tsm_next, for a GPU of several SMs that jumps to the least wake-up
 * over all of them: the SM's least wake-up after now (UINT64_MAX: none), and the stall
 * charge for the idle cycles now+1 .. t-1 */
uint64_t sim_tsm_wake(TSm *m, const TSource *s, uint64_t now);
void sim_tsm_charge(TSm *m, const TSource *s, uint64_t now, uint64_t t);
/* why warp w could not issue instruction in at cycle t (state as of now): the constraint
 * of the largest ready cycle beyond t, STALL_BARRIER at a barrier, STALL_NONE when it was
 * ready (another warp had the issue slot) */
int sim_tsm_why(const TSm *m, const TInst *in, int w, uint64_t t);

/* ------------------------------------------------------------------ partime.c */
/* warp w's global or local access described by e (in its instruction), issued at now: L1
 * now, L2 and DRAM now or, when m->defer, at the window's end; adds the L2 statistics.
 * Returns the done cycle, or SIM_PEND. */
uint64_t sim_tq_access(TSm *m, int w, const TInst *in, uint64_t now, Cache *l1, const TExec *e,
                       int dram_lat, GmResult *r);
/* one CallReturnStack token of warp w spilled to (fill 0) or filled from its CRS area at
 * addr; the same for that access */
uint64_t sim_tq_crs(TSm *m, int w, uint64_t now, uint64_t addr, int fill, GmResult *r);
/* the window's end: every queued request of the n SMs through L2 and DRAM in the order
 * (issue cycle, SM, position), the pending registers and control waits set to their done
 * cycles; the queues emptied */
void sim_tq_merge(TSm *ms, int n);
void sim_tq_free(TQueue *q);
/* p (*cap elements of elem bytes) with room for need: the capacity doubled from 256 as far
 * as needed; out of memory, a message and exit (a window's queues, par.c's too) */
void *sim_grow(void *p, int *cap, size_t elem, int need);

#endif
