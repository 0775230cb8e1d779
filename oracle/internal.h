/* internal.h - what the oracle's files share: the layout of functions and frames, thread and
 * CTA state, and the per-family semantics (ialu.c, falu.c). Nothing here is public. */
#ifndef WARPSIM_ORACLE_INTERNAL_H
#define WARPSIM_ORACLE_INTERNAL_H

#include "oracle/oracle.h"
#include "ptxisa/ptxisa.h"   /* ptxisa_type, ptxisa_rnd: PTX types and roundings in ISA terms */

_Noreturn void or_die(const char *file, int line, const char *msg);
#define die(msg) or_die(__FILE__, __LINE__, msg)

/* param-space addresses of a function frame (its returns and .param locals) live in the
 * thread's local stack; a param address is OR_PARAM_TAG + local offset (OR_PARAM_TAG is above
 * every local offset). A .func parameter's address is a plain local one (the PTX ISA's mov),
 * so in a .func a param address below OR_PARAM_TAG is local. In the kernel it is a kernel
 * parameter's: its offset in the kernel's parameter list (what ptxas 11.8 gives;
 * docs/design-notes.md), read from constant bank 0, where the parameters start at
 * OR_KPARAM_BASE. */
#define OR_PARAM_TAG   0x40000000u
#define OR_KPARAM_BASE 0x20u
#define OR_FUNC_BASE   0x00f00000u      /* address of function i: OR_FUNC_BASE + 16 * i */
#define OR_LOCAL_MAX   (1u << 22)       /* bytes of local stack per thread */
#define OR_MAXBAR      16               /* named barriers 0..15 */

/* where a function's variables sit */
typedef struct {
	uint32_t *varoff;   /* per PFunc.locals: frame offset (.local/.param) or shared offset */
	uint32_t *paroff;   /* per PFunc.params: frame offset (kernels: offset in bank 0) */
	uint32_t *retoff;   /* per PFunc.rets: frame offset */
	uint32_t size;      /* bytes of one frame */
	uint32_t shared;    /* a kernel's: the static shared bytes of its CTA (load.c) */
	uint8_t shdyn;      /* a kernel's: it reaches a dynamic (extern unsized) shared array */
} FInfo;

typedef struct {
	int32_t fi;         /* function index in the module */
	int32_t pc;         /* index of the next instruction */
	uint32_t regs;      /* index of its register 0 in Thread.regs */
	uint32_t lbase;     /* local-stack offset of its frame */
	int32_t callpc;     /* the caller's call instruction (returns are copied through it) */
} Frame;

enum { TS_RUN, TS_BAR, TS_WARP, TS_EXIT };

typedef struct {
	uint8_t state;      /* TS_* */
	uint8_t cf;         /* CC.CF: carry (add.cc) or borrow (sub.cc) */
	uint8_t barid;      /* TS_BAR: barrier waited at */
	uint8_t redpred;    /* TS_BAR on bar.red: this thread's predicate/value input */
	uint32_t barcount;  /* TS_BAR: thread count of the bar instruction, 0 for all */
	uint32_t tid[3];    /* %tid */
	uint32_t lin;       /* linear thread index in the CTA */
	Frame *fr;          /* call stack; fr[nfr-1] runs */
	int nfr, capfr;
	uint64_t *regs;     /* registers of every frame, as a stack */
	uint32_t nregs, capregs;
	uint8_t *local;     /* local memory: static module .local, then frames */
	uint32_t lsize, lcap;
} Thread;

typedef struct Oracle {
	const Module *m;    /* the program */
	int ki;             /* the kernel's function index */
	const Launch *l;    /* the launch */
	FInfo *fi;          /* per function */
	Mem *mem;           /* device memory (shared with sim) */
	DevBinds binds;     /* every --tex and --surf, resolved once at load */
	int *bindof;        /* per module var: its --tex or --surf binding's index, or -1 */
	FILE *err;          /* messages */
	uint64_t *varaddr;  /* per module var: device address, shared/const/local offset */
	uint8_t *cmem;      /* module .const space */
	uint32_t csize;
	uint32_t shstatic;  /* static shared bytes of the kernel's CTA (FInfo.shared) */
	uint32_t shsize;    /* shared bytes per CTA */
	uint32_t shunit;    /* the shared allocation unit (OrConfig.shared_unit, at least 1) */
	uint32_t lstatic;   /* module .local bytes per thread */
	uint32_t ctaid[3];  /* the CTA running */
	uint32_t nthreads;  /* threads per CTA */
	uint8_t *shared;    /* its shared memory */
	Thread *th;         /* its threads, linear order */
	uint32_t bararrive[OR_MAXBAR]; /* bar.arrive counts not yet released */
	uint64_t maxsteps;  /* runaway limit */
	int yield;          /* a cooperative launch: a thread yields at a backward branch (sched.c) */
	int reverse;        /* --oracle-order reverse: threads and CTAs in descending order (sched.c) */
	FILE *pout;         /* device printf's stream */
	int ptag;           /* tag printf lines with block and thread */
	int result;         /* OR_* once something failed */
	OrStats st;         /* statistics */
	DevCdp *cdp;        /* dynamic parallelism's launches and grid queue (cdp.c), or NULL */
	struct {            /* per PType, filled once by or_types: what exec.c's operand access
	                       and dispatch would otherwise ask frontend/ for per instruction */
		uint64_t get;   /* or_get's mask: the type's bits (all for a type of no size) */
		uint64_t put;   /* or_put's mask of a register of the type (one bit for .pred) */
		uint8_t bits;   /* 8 x ptx_type_bytes */
		uint8_t sgn;    /* a signed integer type */
		uint8_t isf;    /* a float type (or_isfloat) */
	} ty[PT_COUNT];
} Oracle;

/* load.c */
int or_load(Oracle *o, const Module *m, const Launch *l, Placed *pl);
void or_unload(Oracle *o);
int or_push_frame(Oracle *o, Thread *t, int fi, int callpc);
void or_thread_free(Thread *t);
/* the CTA's shared memory for kernel ki with dynbytes of dynamic shared memory: shstatic,
 * shsize */
void or_kernel_shared(Oracle *o, int ki, uint32_t dynbytes);

/* exec.c: runs t until it blocks (barrier, collective), exits or fails (o->result) */
void or_exec(Oracle *o, Thread *t);
void or_types(Oracle *o);   /* fills o->ty */
/* evaluates a warp collective for the n threads of g, all at the same instruction */
void or_collective(Oracle *o, Thread **g, int n);
void or_error(Oracle *o, const Thread *t, int kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
const PIns *or_cur(const Oracle *o, const Thread *t);

/* exec.c operand access in t's current frame: get reads an operand as type (PType; bits
 * zero-extended, float immediates converted), getp a predicate (with its !), put writes a
 * destination (masked to the register's width; a sink discards) */
uint64_t or_get(Oracle *o, Thread *t, const POpd *op, int type);
int or_getp(Oracle *o, Thread *t, const POpd *op);
void or_put(Oracle *o, Thread *t, const POpd *op, uint64_t v);
uint64_t or_sreg(Oracle *o, const Thread *t, int sreg, int comp);

/* flow.c: data movement, memory, branches, calls, barriers, collectives */
void or_mov(Oracle *o, Thread *t, const PIns *in);
void or_cvta(Oracle *o, Thread *t, const PIns *in);
void or_ld(Oracle *o, Thread *t, const PIns *in);
void or_tex(Oracle *o, Thread *t, const PIns *in);
void or_surf(Oracle *o, Thread *t, const PIns *in);
void or_st(Oracle *o, Thread *t, const PIns *in);
void or_cp_async(Oracle *o, Thread *t, const PIns *in);
void or_atom(Oracle *o, Thread *t, const PIns *in);
int or_branch(Oracle *o, Thread *t, const PIns *in);   /* the next pc, -1 on error */
void or_call(Oracle *o, Thread *t, const PIns *in);
void or_ret(Oracle *o, Thread *t);
void or_bar(Oracle *o, Thread *t, const PIns *in);

/* mem.c: host pointer to size bytes at addr of space (PSpace, PS_NONE generic) */
uint8_t *or_ptr(Oracle *o, Thread *t, int space, uint64_t addr, unsigned size, int write);
uint64_t or_sym_addr(Oracle *o, const Thread *t, int symkind, int sym);
/* flow.c: the bytes of call argument or result e (declared as v) in the current frame, read
 * into buf or (write) written from it: 0, or -1 after a fault */
int or_slot_bytes(Oracle *o, Thread *t, const POpd *e, const PVar *v, uint8_t *buf, int write);
/* heap.c: in-kernel malloc and free. or_heap_place places the heap when the module declares
 * them (0, or -1 out of memory); or_heap_call makes call in of g when g is one of them
 * (returns 1; o->result set after a fault), else returns 0 */
int or_heap_place(Oracle *o, const Launch *l);
int or_heap_call(Oracle *o, Thread *t, const PIns *in, const PFunc *g);
/* cdp.c: or_cdp_call makes call in of g when g is a device runtime function of dynamic
 * parallelism (returns 1; o->result set after a fault), else returns 0; or_cdp_children runs
 * the child grids after the host grid (the result) */
int or_cdp_call(Oracle *o, Thread *t, const PIns *in, const PFunc *g);
int or_cdp_children(Oracle *o);
void or_run_grid(Oracle *o);   /* sched.c: every CTA of o->l's grid, in linear order */
int or_sym_space(const Oracle *o, const Thread *t, int symkind, int sym);

/* ialu.c: integer and bit semantics on 64-bit containers; bits is 8, 16, 32 or 64 */
uint64_t or_sext(uint64_t v, int bits);
uint64_t or_zext(uint64_t v, int bits);
uint64_t or_mulhi(uint64_t a, uint64_t b, int bits, int sign);
uint64_t or_div(uint64_t a, uint64_t b, int bits, int sign);
uint64_t or_rem(uint64_t a, uint64_t b, int bits, int sign);
uint32_t or_bfe32(uint32_t a, uint32_t pos, uint32_t len, int sign);
uint64_t or_bfe64(uint64_t a, uint32_t pos, uint32_t len, int sign);
uint64_t or_bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, int bits);
uint32_t or_prmt(uint32_t a, uint32_t b, uint32_t c, int mode);
uint32_t or_shf(uint32_t a, uint32_t b, uint32_t c, int right, int clamp);
uint32_t or_popc(uint64_t a);
uint32_t or_clz(uint64_t a, int bits);
uint32_t or_bfind(uint64_t a, int bits, int sign, int shiftamt);
uint64_t or_brev(uint64_t a, int bits);
uint32_t or_fns(uint32_t mask, uint32_t base, int32_t offset);
uint32_t or_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut);

/* ialu.c: SIMD video op (PTX ISA 9.7.18.2) of a and b merged into or added to c */
uint32_t or_video(const PIns *in, uint32_t a, uint32_t b, uint32_t c);
uint32_t or_vmad(const PIns *in, uint32_t a, uint32_t b, uint32_t c);
/* falu.c: floating point; values are the IEEE bits of the type (f16 in the low 16 bits) */
uint64_t or_fbin(int op, int type, uint64_t a, uint64_t b, int rnd, int ftz);
uint64_t or_ffma(int type, uint64_t a, uint64_t b, uint64_t c, int rnd, int ftz);
uint64_t or_funary(int op, int type, uint64_t a, int rnd, int ftz, int approx);
uint64_t or_fminmax(int type, uint64_t a, uint64_t b, int max, int ftz, int nan);
uint64_t or_fsat(int type, uint64_t a);
uint64_t or_fftz(int type, uint64_t a);
int or_fcmp(int cmp, int type, uint64_t a, uint64_t b, int ftz);
int or_testp(int prop, int type, uint64_t a);
uint64_t or_cvt(int dt, int st, int rnd, int ftz, int sat, uint64_t v);
uint64_t or_bf16_of_double(double d, int rz);   /* falu.c: bf16 rounding (rn or rz) */
double or_double_of_bf16(uint64_t h);
uint64_t or_bf16_arith(int op, uint64_t a, uint64_t b); /* add/sub/mul.rn.bf16 */
uint64_t or_bf16_fma(uint64_t a, uint64_t b, uint64_t c);   /* fma.rn.bf16 */
uint64_t or_hrelu(int type, uint64_t h);        /* .relu of an f16/bf16 result */
uint64_t or_cvt_f32_narrow(int dt, uint32_t a, int rnd, int relu, int satfinite); /* to f16/bf16/tf32 */
uint64_t or_imm_float(const POpd *op, int type);
int or_isfloat(int ptype);

/* narrow.c: one f16 or bf16 lane et of a float op (.relu and .sat after the rounding), both
 * halves of an f16x2 or bf16x2 op, whether PTX defines in as a bf16 op, and the cvts with
 * bf16, f16x2/bf16x2, tf32 or fp8 on either side (0: in is none of them) */
uint64_t or_half_op(int op, int et, uint64_t x, uint64_t y, uint64_t z, const PIns *in);
uint64_t or_per_half(int op, int et, uint64_t a, uint64_t b, uint64_t c, const PIns *in);
int or_bf16_ok(const PIns *in);
int or_cvt_narrow(Oracle *o, Thread *t, const PIns *in);

#endif
