/* sim.h - the warpsim SM model: memory spaces, launches, options, the per-op semantics shared
 * with the PTX oracle, and the functional machine (GPU, SMs, CTAs, warps and their
 * CallReturnStack).
 *
 * Layering (the oracle links only the first four groups):
 *   mem.c     device memory: global allocations, constant banks, bounds-checked spaces
 *   launch.c  the launch description (--kernel --grid --block --arg --out ...), buffer
 *             initialisation, parameter layout in constant bank 0, output files
 *   opts.c    the one table of long options; argv, --config and --launch files
 *   alu.c     pure integer/float semantics (PTX results, rounding, ftz, saturation)
 *   fmath.c   MUFU .approx functions
 *   softfp.c  directed rounding in integer arithmetic (softfp.h; alu.c calls it)
 *   gpu.c, exec.c, crs.c   the machine: sim_gpu_new, sim_run, sim_issue
 */
#ifndef WARPSIM_SIM_H
#define WARPSIM_SIM_H

#include <stdint.h>
#include <stdio.h>
#include "isa/isa.h"
#include "sim/timing.h"

/* ------------------------------------------------------------------ mem.c */
/* Generic-address windows (LD/ST/ATOM without a state space, PTX cvta): a generic address
 * in [SIM_SHARED_WINDOW, +SIM_WINDOW_SIZE) is the CTA's shared memory, in
 * [SIM_LOCAL_WINDOW, +SIM_WINDOW_SIZE) the thread's local memory, anything else global. */
#define SIM_SHARED_WINDOW 0x01000000u
#define SIM_LOCAL_WINDOW  0x02000000u
#define SIM_WINDOW_SIZE   0x01000000u
#define SIM_GLOBAL_BASE   0x7f0000000000ull  /* first device buffer */
#define SIM_ALLOC_ALIGN   256u               /* buffers are this aligned, and this far apart */
#define SIM_NBANKS        16                 /* constant banks c[0x0]..c[0xf] */
#define SIM_BANK_SIZE     0x10000u           /* bytes per constant bank */
/* constant bank 0 layout below the parameters (which start at 0x20) */
#define SIM_C0_NTID       0x00  /* u32 x3: block dimensions */
#define SIM_C0_NCTAID     0x0c  /* u32 x3: grid dimensions */
#define SIM_C0_SHWIN      0x18  /* u32: SIM_SHARED_WINDOW */
#define SIM_C0_LOCWIN     0x1c  /* u32: SIM_LOCAL_WINDOW */

typedef struct {
	uint64_t base;    /* device address */
	uint64_t size;    /* bytes */
	uint8_t *bytes;   /* host copy */
	char *name;       /* what it holds, for fault messages ("parameter 1", "global tbl") */
} MemAlloc;

typedef struct {
	MemAlloc *a;                   /* allocations sorted by base */
	int n, cap;
	uint64_t next;                 /* lowest address for the next allocation */
	int last;                      /* index of the last allocation hit (lookup cache) */
	uint8_t *bank[SIM_NBANKS];     /* constant banks, SIM_BANK_SIZE each, NULL until written */
} Mem;

void sim_mem_init(Mem *m);
void sim_mem_free(Mem *m);
/* allocates size bytes (zeroed) aligned to max(align, SIM_ALLOC_ALIGN) with a guard gap;
 * returns its device address, or 0 when the host is out of memory */
uint64_t sim_mem_alloc(Mem *m, uint64_t size, uint32_t align, const char *name);
/* host pointer to size bytes at addr when they lie inside one allocation, else NULL */
uint8_t *sim_mem_global(Mem *m, uint64_t addr, uint64_t size);
const MemAlloc *sim_mem_find(const Mem *m, uint64_t addr);  /* allocation holding addr */
/* constant banks: writes grow nothing (fixed size); return 0 when out of range */
int sim_mem_cwrite(Mem *m, unsigned bank, uint32_t off, const void *src, uint32_t size);
int sim_mem_cread(const Mem *m, unsigned bank, uint64_t off, void *dst, uint32_t size);

/* little-endian access helpers (the host is assumed little-endian; checked in sim_mem_init) */
uint64_t sim_ld(const uint8_t *p, unsigned size);
void sim_st(uint8_t *p, unsigned size, uint64_t v);

/* ------------------------------------------------------------------ launch.c */
typedef enum { INIT_ZERO, INIT_IOTA, INIT_CONST, INIT_RANDOM, INIT_FILE } InitKind;

typedef struct {
	int isbuf;        /* buffer (buf:TYPE:COUNT[:INIT]) or scalar (TYPE:VALUE) */
	Type type;        /* element or scalar type: TY_U8..TY_F64 */
	uint64_t bits;    /* scalar value, little-endian bits of its type */
	uint64_t count;   /* buffer elements */
	InitKind init;    /* buffer initialiser */
	uint64_t cbits;   /* INIT_CONST value bits */
	uint32_t seed;    /* INIT_RANDOM seed */
	double flo, fhi;  /* INIT_RANDOM range of a float type */
	uint64_t ilo, ihi;/* INIT_RANDOM range of an integer type (two's complement bits) */
	char *path;       /* INIT_FILE path, resolved */
	char *text;       /* the argument as written, for messages */
} LaunchArg;

typedef struct {
	int param;        /* parameter index */
	char *path;       /* output file; ".bin" raw, else text */
} LaunchOut;

typedef struct {
	char *kernel;            /* --kernel, or NULL for the only kernel */
	uint32_t grid[3];        /* --grid */
	uint32_t block[3];       /* --block */
	LaunchArg *args;         /* --arg, in order */
	int nargs;
	LaunchOut *outs;         /* --out */
	int nouts;
	uint32_t shared_bytes;   /* --shared-bytes: dynamic shared memory per CTA */
} Launch;

/* a launch placed in memory: buffer addresses per argument */
typedef struct {
	uint64_t *addr;          /* device address of each buffer argument (0 for scalars) */
	uint64_t *bytes;         /* bytes of each buffer */
	int n;
} Placed;

void sim_launch_init(Launch *l);
void sim_launch_free(Launch *l);
/* option parsers: 0 on success, else -1 with "expected ..." text in why[256] */
int sim_parse_dim3(const char *s, uint32_t out[3], char *why);
int sim_parse_arg(const char *s, const char *basedir, LaunchArg *a, char *why);
int sim_parse_out(const char *s, LaunchOut *o, char *why);
int sim_parse_type(const char *s, Type *t);          /* u8 ... f64 */
int sim_parse_scalar(Type t, const char *s, uint64_t *bits);
/* checks args against the kernel's parameters, allocates and fills buffers, writes bank 0
 * (header and parameters), globals and constant data; messages "warpsim: ..." on err */
int sim_launch_place(Mem *m, const Kernel *k, const Launch *l, Placed *pl, FILE *err);
void sim_placed_free(Placed *pl);
/* writes every --out file; returns 0, or -1 after a message */
int sim_launch_write_outputs(Mem *m, const Launch *l, const Placed *pl, FILE *err);
/* one element of type t as text (integers decimal, f32 %.9g, f64 %.17g) */
int sim_format_elem(char *buf, size_t size, Type t, uint64_t bits);
uint32_t sim_xorshift32(uint32_t *state);

/* ------------------------------------------------------------------ opts.c */
typedef struct {
	Launch launch;            /* launch description */
	TimingConfig tc;          /* architecture options (timing.h's table: --sms, --max-cycles ...) */
	uint64_t max_warp_insts;  /* --max-warp-insts: runaway limit (0: none) */
	int stats;                /* --stats: print the statistics table */
	int quiet;                /* --quiet: no statistics even on stderr */
	int oracle;               /* --oracle: run the PTX reference interpreter instead */
	int predicate_max;        /* --predicate-max: translator threshold for PTX input, -1 inf */
	int predicate_max_uniform;/* --predicate-max-uniform: the same for uniform branches */
	char *stats_json;         /* --stats-json FILE: the statistics as one JSON object */
	int print_config;         /* --print-config: print the effective architecture and exit */
	int help, version;        /* --help, --version */
	char *input;              /* the program file (positional) */
	int depth;                /* --config/--launch nesting depth (loops are errors) */
} SimOpts;

void sim_opts_init(SimOpts *o);
void sim_opts_free(SimOpts *o);
/* parses argv[1..]; options not in the table are looked up in timing.h's (sim_tconfig_set);
 * messages "warpsim: --grid: expected ..., got 'x'" on err; 0 or -1 */
int sim_opts_argv(SimOpts *o, int argc, char **argv, FILE *err);
/* one file of long options, one per line, '#' comments (--config and --launch) */
int sim_opts_file(SimOpts *o, const char *path, FILE *err);
void sim_opts_help(FILE *f);

/* ------------------------------------------------------------------ alu.c, fmath.c */
/* the condition-code flags of one lane */
enum { CC_S = 1, CC_C = 2, CC_Z = 4, CC_O = 8 };

uint32_t sim_f32_add(uint32_t a, uint32_t b, Rnd r, int ftz);
uint32_t sim_f32_mul(uint32_t a, uint32_t b, Rnd r, int ftz);
uint32_t sim_f32_fma(uint32_t a, uint32_t b, uint32_t c, Rnd r, int ftz);
/* d[l] = sim_f32_fma(a[l], b[l], c[l], r, ftz), saturated when sat, for the lanes of ex
 * (d may be a, b or c); round-to-nearest without a mode switch or volatile per lane */
void sim_f32_fma_lanes(uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                       uint32_t ex, Rnd r, int ftz, int sat);
uint32_t sim_f32_div(uint32_t a, uint32_t b, Rnd r, int ftz);
uint32_t sim_f32_sqrt(uint32_t a, Rnd r, int ftz);
uint32_t sim_f32_sat(uint32_t a);                      /* clamp to [0,1], NaN -> 0 */
uint32_t sim_f32_minmax(uint32_t a, uint32_t b, int max, int ftz);
uint32_t sim_f32_ftz(uint32_t a);                      /* denormal -> signed zero */
uint64_t sim_f64_add(uint64_t a, uint64_t b, Rnd r);
uint64_t sim_f64_mul(uint64_t a, uint64_t b, Rnd r);
uint64_t sim_f64_fma(uint64_t a, uint64_t b, uint64_t c, Rnd r);
uint64_t sim_f64_div(uint64_t a, uint64_t b, Rnd r);
uint64_t sim_f64_sqrt(uint64_t a, Rnd r);
uint64_t sim_f64_minmax(uint64_t a, uint64_t b, int max);
int sim_fcmp32(Cmp c, uint32_t a, uint32_t b, int ftz);
int sim_fcmp64(Cmp c, uint64_t a, uint64_t b);
/* integer compare of a and b as type t (signed or unsigned, 32 or 64 bits) */
int sim_icmp(Cmp c, Type t, uint64_t a, uint64_t b);
/* cvt: every F2I/I2F/F2F/I2I, dtype <- stype; values are little-endian bits of their type
 * (8/16-bit integers sign- or zero-extended to 64 bits on return) */
uint64_t sim_cvt(Type dt, Type st, Rnd r, int ftz, int sat, uint64_t v);
uint32_t sim_bfe(uint32_t a, uint32_t posl, int sign, int brev);  /* posl = pos | len << 8 */
uint64_t sim_bfe64(uint64_t a, uint32_t posl, int sign, int brev);
uint32_t sim_bfi(uint32_t a, uint32_t posl, uint32_t base);
uint32_t sim_prmt(uint32_t a, uint32_t sel, uint32_t c, Sub mode);
uint32_t sim_shf(uint32_t lo, uint32_t n, uint32_t hi, int right, int wrap, Type t);
uint32_t sim_flo(uint32_t a, int sign, int shamt);
uint32_t sim_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut);
uint32_t sim_brev(uint32_t a);
int sim_cctest(CCTest t, unsigned flags);              /* flags: CC_* bits of one lane */
/* atomic: the new memory value from old, b (and c for CAS); float types use RN */
uint64_t sim_atom(Sub op, Type t, uint64_t old, uint64_t b, uint64_t c, int ftz);
/* MUFU .approx (fmath.c): the host functions the oracle uses too */
uint32_t sim_mufu_f32(Sub fn, uint32_t a, int ftz);
uint64_t sim_mufu_f64(Sub fn, uint64_t a);
uint32_t sim_rcp_approx_f32(uint32_t a, int ftz);
uint32_t sim_rsqrt_approx_f32(uint32_t a, int ftz);
uint32_t sim_sin_approx_f32(uint32_t a, int ftz);
uint32_t sim_cos_approx_f32(uint32_t a, int ftz);
uint32_t sim_ex2_approx_f32(uint32_t a, int ftz);
uint32_t sim_lg2_approx_f32(uint32_t a, int ftz);
uint32_t sim_sqrt_approx_f32(uint32_t a, int ftz);
uint32_t sim_tanh_approx_f32(uint32_t a, int ftz);
#define SIM_F32_NAN 0x7fffffffu              /* canonical NaN produced by float ops */
#define SIM_F64_NAN 0x7fffffffffffffffull

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
	uint8_t space;           /* memory ops: SP_* of the access */
	uint8_t size;            /* memory ops: bytes per lane */
	uint64_t addr[32];       /* memory ops: address per lane (space-relative) */
	uint8_t diverged;        /* the active mask split */
	uint8_t reconverged;     /* a SYNC token restored lanes */
	int8_t pushed, popped;   /* CRS tokens pushed / popped */
	uint8_t event;           /* EV_* */
	uint32_t next_active;    /* active mask after the instruction (and any unwinding) */
	uint32_t next_pc;        /* next pc of the warp */
} ExecInfo;

enum { SP_NONE, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_CONST };
enum { EV_NONE, EV_BAR_WAIT, EV_BAR_RELEASE, EV_EXIT, EV_WARP_DONE };
enum { SIM_OK, SIM_DONE, SIM_FAULT, SIM_RUNAWAY, SIM_DEADLOCK, SIM_MALFORMED };

/* statistics of a run (the timing model adds cycles, stalls, ...) */
typedef struct {
	uint64_t cycles;           /* issue rounds of the functional loop */
	uint64_t warp_insts;       /* warp instructions issued */
	uint64_t thread_insts;     /* active lanes summed over issued instructions */
	uint64_t exec_lanes;       /* guard-true lanes summed */
	uint64_t pred_off;         /* active lanes whose guard was false */
	uint64_t div_branches;     /* branches that split the active mask */
	uint64_t reconvergences;   /* SYNC tokens that restored lanes */
	uint64_t barriers;         /* barrier releases */
	int crs_high;              /* deepest CallReturnStack seen */
	uint64_t ctas;             /* CTAs completed */
	uint64_t kept_ctas;        /* CTAs that exited with EXIT.KEEPREFCOUNT */
} SimStats;

typedef struct {
	TimingConfig tc;           /* architecture: SMs, residency limits, CRS depth, max cycles */
	uint64_t max_warp_insts;   /* runaway limit (0: none) */
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
/* runs until the grid completes or a limit; returns SIM_DONE or an error (message in
 * sim_gpu_error) */
int sim_run(Gpu *g, uint64_t max_cycles);
const char *sim_gpu_error(const Gpu *g);
const SimStats *sim_gpu_stats(const Gpu *g);
void sim_stats_print(FILE *f, const SimStats *s);

#endif
