/* device.h - the device as the host sees it: memory spaces (global allocations, constant
 * banks, the generic-address windows) and the launch description (--kernel --grid --block
 * --arg --out), its buffers and their output files. Shared by the SM model (sim/) and the
 * PTX reference interpreter (oracle/), so both leave memory in the same layout.
 *
 * Files: mem.c (device memory), args.c (the launch options' values parsed), launch.c (placement
 * of buffers and parameters in constant bank 0, output files), tex.c (textures bound with --tex and the one
 * sampling function both engines fetch through), surf.c (surfaces bound with --surf and their
 * addressing), heap.c (in-kernel malloc's device heap).
 */
#ifndef WARPSIM_DEVICE_H
#define WARPSIM_DEVICE_H

#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include "isa/isa.h"

/* ------------------------------------------------------------------ mem.c */
/* Generic-address windows (LD/ST/ATOM without a state space, PTX cvta): a generic address
 * in [DEV_SHARED_WINDOW, +DEV_WINDOW_SIZE) is the CTA's shared memory, in
 * [DEV_LOCAL_WINDOW, +DEV_WINDOW_SIZE) the thread's local memory, in [DEV_CONST_WINDOW,
 * +DEV_WINDOW_SIZE) the constant space (read only: the module's .const variables, constant
 * bank DEV_CONST_BANK of the SM model), anything else global. */
/* the per-warp control-flow stack area the driver reserves in local memory: nouveau's
 * WARP_CSTACK_SIZE, 0x800 on Fermi and Kepler (sim/configs/fermi.cfg cites it) */
#define DEV_CRS_BYTES 2048u
#define DEV_SHARED_WINDOW 0x01000000u
#define DEV_LOCAL_WINDOW  0x02000000u
#define DEV_CONST_WINDOW  0x03000000u
#define DEV_CONST_BANK    3                  /* the bank of the module's .const variables */
#define DEV_WINDOW_SIZE   0x01000000u
#define DEV_GLOBAL_BASE   0x7f0000000000ull  /* first device buffer */
#define DEV_ALLOC_ALIGN   256u               /* buffers are this aligned, and this far apart */
#define DEV_NBANKS        16                 /* constant banks c[0x0]..c[0xf] */
#define DEV_BANK_SIZE     0x10000u           /* bytes per constant bank */
/* constant bank 0 layout below the parameters (which start at 0x20) */
#define DEV_C0_NTID       0x00  /* u32 x3: block dimensions */
#define DEV_C0_NCTAID     0x0c  /* u32 x3: grid dimensions */
#define DEV_C0_SHWIN      0x18  /* u32: DEV_SHARED_WINDOW */
#define DEV_C0_LOCWIN     0x1c  /* u32: DEV_LOCAL_WINDOW */
/* constant bank 0 of a real sm_3x listing (Kernel.layout ISA_LAYOUT_SM35), as sm_35's driver
 * writes it (read off ptxas's listings: tests/ptxas-ref); parameters from 0x140 (.param) */
#define DEV_SM35_LOCWIN   0x24  /* u32: the local window's base: ptxas ORs it into R1 for a
                                 * generic address of local memory (cvta.local) */
#define DEV_SM35_NTID     0x28  /* u32 x3: block dimensions */
#define DEV_SM35_NCTAID   0x34  /* u32 x3: grid dimensions */
#define DEV_SM35_STACK    0x44  /* u32: the stack top, the first value of R1 (local bytes) */
#define DEV_SM35_ENVREG1  0x50  /* u32 x2: %envreg1 then %envreg2 (%envregN at 0x4c + 4N), the
                                 * high and low words of a cooperative launch's grid workspace
                                 * (DEV_GRIDWS_*), else 0 (tests/ptxas-ref/coop_flag.sass) */
#define DEV_SM35_DYNSMEM  0x114 /* u32: the launch's dynamic shared bytes, %dynamic_smem_size
                                 * (tests/ptxas-ref/smem_size.sass; warpc's own code reads
                                 * c[ISA_DYNSMEM_BANK][ISA_DYNSMEM_OFF]) */
#define DEV_SM35_CONSTWIN 0xf0  /* u64: the generic address of the module's .const variables
                                 * (bank DEV_CONST_BANK at offset 0): ptxas's cvta.const adds
                                 * the offset to it (tests/ptxas-ref/cvta_const.sass) */
#define DEV_SM35_STACKSZ  0x400 /* per-thread stack below it: CUDA's default stack size, 1 KiB */

/* the device heap of in-kernel malloc and free (heap.c): CUDA's default size, 8 MB (the
 * CUDA C++ Programming Guide, "Heap Memory Allocation": the heap a program that calls malloc
 * gets when it sets no cudaLimitMallocHeapSize), its place, and malloc's alignment */
#define DEV_HEAP_BYTES    (8u << 20)
#define DEV_HEAP_BASE     0x7f8000000000ull
#define DEV_HEAP_ALIGN    16u
typedef struct {
	uint64_t off, size;   /* a block malloc returned: offset in the heap, bytes */
} DevHeapBlk;
typedef struct {
	uint64_t base, size;  /* its allocation ("device heap"); size 0: no heap */
	DevHeapBlk *b;        /* the blocks not freed, by offset */
	int n, cap;
} DevHeap;

/* bytes the launch wrote over a constant bank's initial data (a --const value) */
typedef struct {
	uint8_t bank;
	uint32_t offset, size;
	uint8_t *bytes;
} DevCover;

typedef struct {
	uint64_t base;    /* device address */
	uint64_t size;    /* bytes */
	uint8_t *bytes;   /* host copy: its own calloc, or a piece of a MemChunk */
	char *name;       /* what it holds, for fault messages ("parameter 1", "global tbl") */
	int inchunk;      /* bytes lie in a MemChunk (freed with it) */
} MemAlloc;

/* a mapping of whole huge pages that the host copies of large allocations are carved from
 * in order (mem.c): their pages come in a few faults, not one a 4 KiB page */
typedef struct {
	void *map;        /* the mapping as made: cap bytes and one huge page more, to align at */
	uint8_t *at;      /* its first huge page */
	size_t used, cap; /* bytes from at handed out, and available */
} MemChunk;

typedef struct {
	MemAlloc *a;                   /* allocations sorted by base */
	int n, cap;
	uint64_t next;                 /* lowest address for the next allocation */
	int last;                      /* index of the last allocation hit (lookup cache) */
	uint8_t *bank[DEV_NBANKS];     /* constant banks, DEV_BANK_SIZE each, NULL until written */
	DevHeap heap;                  /* in-kernel malloc's heap (heap.c) */
	DevHeap cdpbuf;                /* dynamic parallelism's parameter buffers (cdp.c) */
	uint64_t gridws;               /* a cooperative launch's grid workspace, or 0 (launch.c) */
	DevCover *cover;               /* the launch's --const values (launch.c): written again
	                                * after any kernel's constant data (a child grid's, cdp.c) */
	int ncover;
	struct DevNamed *named;        /* the --buf buffers placed so far (launch.c): every later
	                                * launch of the run finds them by name */
	int nnamed;
	MemChunk *chunk;               /* the mappings of the large host copies, the last open */
	int nchunk;
} Mem;

void dev_mem_init(Mem *m);
void dev_mem_free(Mem *m);
/* n bytes (not cleared) on transparent huge pages (2 MiB-aligned, advised MADV_HUGEPAGE), for
 * host state that every SM's turn touches (sim/gpu.c: the TSms, the warps' register rows),
 * where 4 KiB pages cost a page fault each and crowd the TLB; free() frees it. NULL under
 * ASan or valgrind (which watch each allocation's bounds: the caller then allocates as
 * before) or when no such block can be had. */
void *dev_huge_alloc(size_t n);
/* allocates size bytes (zeroed) aligned to max(align, DEV_ALLOC_ALIGN) with a guard gap;
 * returns its device address, or 0 when the host is out of memory */
uint64_t dev_mem_alloc(Mem *m, uint64_t size, uint32_t align, const char *name);
/* host pointer to size bytes at addr when they lie inside one allocation, else NULL */
uint8_t *dev_mem_global(Mem *m, uint64_t addr, uint64_t size);
const MemAlloc *dev_mem_find(const Mem *m, uint64_t addr);  /* allocation holding addr */
uint64_t dev_mem_global_addr(const Mem *m, const char *var); /* module variable var, or 0 */
/* constant banks: writes grow nothing (fixed size); return 0 when out of range */
int dev_mem_cwrite(Mem *m, unsigned bank, uint32_t off, const void *src, uint32_t size);
int dev_mem_cread(const Mem *m, unsigned bank, uint64_t off, void *dst, uint32_t size);
/* writes every DevCover of m again (after a kernel's constant data); 0 when one does not fit */
int dev_mem_recover(Mem *m);

/* the message CUDA prints for a failed device-side assert (__assertfail), for both engines:
 * "FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion `COND` failed." with the
 * strings read from global memory at their (generic) addresses; a string that is not there
 * reads "?" */
void dev_assert_text(Mem *m, uint64_t cond, uint64_t file, uint32_t line, uint64_t func,
                     const uint32_t ctaid[3], const uint32_t tid[3], char *out, size_t n);

/* printf.c: device printf (vprintf's format and argument buffer, as CUDA packs them).
 * DevRead gives a host pointer to size bytes at a generic address, or NULL after the engine
 * reported the fault. dev_printf appends the text to out and returns the arguments consumed
 * (vprintf's result), -1 when a read failed, -2 for a format it refuses (message in err). */
typedef const uint8_t *DevRead(void *ctx, uint64_t addr, unsigned size);
typedef struct {
	char *s;
	size_t len, cap;
} DevText;
int dev_printf(DevRead *rd, void *ctx, uint64_t fmt, uint64_t args, DevText *out,
               char *err, size_t en);

/* one printf line of a thread to f: "[block (x,y,z) thread (x,y,z)] " first when tag, a
 * newline added when the text has none */
void dev_print_line(FILE *f, int tag, const uint32_t ctaid[3], const uint32_t tid[3],
                    const DevText *t);

/* heap.c: places a heap of bytes at DEV_HEAP_BASE (once; none for 0): 0, or -1 when the host
 * is out of memory. dev_heap_malloc gives the address of at least n bytes aligned to align (a
 * power of two; 16 at least), 0 when the heap cannot hold them; dev_heap_free takes a block
 * back (0 does nothing): 0, or -1 for an address dev_heap_malloc did not return or one freed
 * already. */
int dev_heap_place(Mem *m, uint64_t bytes);
/* the allocation behind h: bytes at the first address from at (once: nothing when h has one
 * or bytes is 0), aligned to align, named name in fault messages; 0, or -1 out of memory
 * (dev_heap_place's, and dev_cdp_place's for the CDP parameter buffers) */
int dev_heap_region(Mem *m, DevHeap *h, uint64_t at, uint64_t bytes, uint64_t align,
                    const char *name);
uint64_t dev_heap_malloc(DevHeap *h, uint64_t n, uint64_t align);
int dev_heap_free(DevHeap *h, uint64_t addr);
/* both engines' message for a free that dev_heap_free refuses (a printf format of the address) */
#define DEV_HEAP_FREE_WHY "free of 0x%016" PRIx64 ", an address malloc did not return (or one freed already)"
void dev_heap_free_all(DevHeap *h);

/* little-endian access helpers (the host is assumed little-endian; checked in dev_mem_init) */
uint64_t dev_ld(const uint8_t *p, unsigned size);
void dev_st(uint8_t *p, unsigned size, uint64_t v);

/* ------------------------------------------------------------------ args.c, launch.c */
static inline int dev_isfloat(Type t) { return t == TY_F32 || t == TY_F64; }
static inline int dev_issigned(Type t) { return t == TY_S8 || t == TY_S16 || t == TY_S32 || t == TY_S64; }

typedef enum { INIT_ZERO, INIT_IOTA, INIT_CONST, INIT_RANDOM, INIT_FILE } InitKind;

typedef struct LaunchArg {
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
	char *tex;        /* tex:NAME: the handle of the texture object --tex NAME binds (a u64) */
	char *surf;       /* surf:NAME: the handle of the surface object --surf NAME binds */
	char *text;       /* the argument as written, for messages */
	char *bufname;    /* buf:NAME[+N]: the --buf buffer NAME (isbuf set, no buffer of its own) */
	uint64_t bufoff;  /* N: its address plus N elements */
	/* a value of several fields (--arg struct:FIELD,..., every --const): laid out as the C
	 * ABI lays out a struct of them, each at its own alignment, the size rounded up to the
	 * largest (docs/warpsim.md, "Structs and constants") */
	struct LaunchArg *fields;
	int nfields;
	int isstruct;     /* --arg struct:...: a value of fields */
	int isarr;        /* a field TYPExN[:INIT]: count elements inline, filled by init */
	int ispad;        /* a field pad:N: count zero bytes */
	uint32_t *foff;   /* the fields' offsets */
	uint32_t size;    /* bytes of a value of fields */
	uint32_t align;   /* its alignment: its largest field's */
} LaunchArg;

typedef struct {
	int param;        /* parameter index, or -1 for a --const's buffer */
	int field;        /* the field of a struct parameter or a --const, or -1 */
	char *cname;      /* the --const variable, or NULL */
	char *path;       /* output file; ".bin" raw, else text */
} LaunchOut;

/* --const NAME=FIELD[,FIELD...] or NAME=@PATH: a __constant__ variable set by the launch */
typedef struct {
	char *name;       /* the module's .const variable */
	LaunchArg v;      /* its value (fields), when path is NULL */
	char *path;       /* @PATH: raw little-endian bytes, exactly the variable's size */
	char *text;       /* the option as written, for messages */
} LaunchConst;

/* --tex NAME:TYPE[xN]:W[xH[xD]][:MODES][:INIT] (tex.c; docs/warpsim.md "Textures") */
typedef enum { TEXA_CLAMP, TEXA_WRAP, TEXA_MIRROR, TEXA_BORDER } TexAddr;
typedef struct {
	char *name;       /* the texture reference it binds (.tex or .global .texref) */
	int chans;        /* channels per texel: 1, 2 or 4 */
	int ndims;        /* 1, 2 or 3 */
	uint32_t dims[3]; /* width, height, depth (1 beyond ndims) */
	uint8_t addr;     /* TexAddr, in every dimension */
	uint8_t linear;   /* linear filtering of float coordinates */
	uint8_t norm;     /* normalised coordinates: [0, 1) spans each dimension */
	uint8_t normfloat;/* 8- and 16-bit integer channels read as floats in [0, 1] or [-1, 1] */
	uint8_t layered;  /* an array: the last size counts layers (cube: faces, 6 per cube) */
	uint8_t cube;     /* a cubemap: W x W x 6 (layered: x 6L), faces selected by direction */
	uint32_t layers;  /* layers of a layered binding (cubes of a cube array), else 0 */
	LaunchArg data;   /* the texels: type (of a channel), count, initialiser */
	char *text;       /* the option as written, for messages */
} LaunchTex;

/* --surf NAME:N:TYPE[xN]:W[xH[xD]][:layered] (surf.c; docs/warpsim.md "Surfaces"): the surface reference
 * NAME is the buffer of --arg N, W x H x D elements of TYPE[xN] */
typedef struct {
	char *name;       /* the surface reference it binds (.global .surfref) */
	int param;        /* the buffer argument whose memory it is */
	Type type;        /* channel type */
	int chans;        /* channels per element: 1, 2 or 4 */
	int ndims;        /* 1, 2 or 3 */
	uint32_t dims[3]; /* width, height, depth in elements (1 beyond ndims) */
	int layered;      /* :layered: the last size counts layers (suld/sust .a1d, .a2d) */
	char *text;       /* the option as written, for messages */
} LaunchSurf;

/* --buf NAME=TYPE:COUNT[:INIT]: a buffer of the run (cudaMalloc'ed and filled by the host
 * before the launch that declares it), named so that this launch and every later one pass
 * it with --arg buf:NAME, and --out NAME:PATH saves it (docs/warpsim.md, "Several launches") */
typedef struct {
	char *name;
	LaunchArg a;      /* type, count, initialiser (isbuf) */
	char *text;       /* the option as written, for messages */
} LaunchBuf;

/* a --buf buffer in memory (Mem.named) */
typedef struct DevNamed {
	char *name;
	const LaunchArg *a;      /* its declaration's type and count (owned by the Launch) */
	uint64_t addr, bytes;
} DevNamed;

typedef struct {
	char *kernel;            /* --kernel, or NULL for the only kernel */
	char *where;             /* "FILE:LINE" of the --kernel line in a launch file, or NULL */
	LaunchBuf *bufs;         /* --buf, in order: placed before the arguments */
	int nbufs;
	uint32_t grid[3];        /* --grid */
	uint32_t block[3];       /* --block */
	LaunchArg *args;         /* --arg, in order */
	int nargs;
	LaunchOut *outs;         /* --out */
	int nouts;
	uint32_t shared_bytes;   /* --shared-bytes: dynamic shared memory per CTA */
	uint32_t stack_bytes;    /* --stack-bytes: local memory per thread, at least (SM model) */
	uint32_t crs_bytes;      /* --crs-bytes: local memory per warp for spilled CallReturnStack
	                            tokens (SM model; DEV_CRS_BYTES by default) */
	uint32_t heap_bytes;     /* --heap-bytes: in-kernel malloc's heap (DEV_HEAP_BYTES) */
	uint32_t cdp_pending;    /* --cdp-pending: child grids launched and not yet run, at most
	                            (DEV_CDP_PENDING; cdp.c) */
	LaunchTex *texs;         /* --tex, in order */
	int ntexs;
	LaunchSurf *surfs;       /* --surf, in order */
	int nsurfs;
	int cooperative;         /* --cooperative: cudaLaunchCooperativeKernel's launch (a grid
	                            workspace in %envreg1:%envreg2; DEV_GRIDWS_*) */
	LaunchConst *consts;     /* --const, in order */
	int nconsts;
} Launch;

/* a cooperative launch's grid workspace, as cooperative groups' code reads it (CUDA 13's
 * cooperative_groups/details/driver_abi.h, get_grid_workspace: the address is %envreg1 << 32
 * | %envreg2, a struct of u32 wsSize then u32 barrier; sync.h's grid sync adds to barrier and
 * spins until its top bit flips; docs/design-notes.md "Cooperative launch") */
#define DEV_GRIDWS_BYTES   8u
#define DEV_GRIDWS_BARRIER 4u   /* offset of the barrier word */
/* why a read of %envreg1/%envreg2 fails without --cooperative (both engines) */
#define DEV_GRIDWS_WHY "reads the grid workspace of cooperative groups (this_grid(), grid.sync()), " \
	"which only a cooperative launch has (cudaLaunchCooperativeKernel; warpsim --cooperative)"

/* a buffer a launch placed: of an argument, a struct argument's field or a --const's field */
typedef struct {
	int param;               /* the argument, or -1 */
	int field;               /* its field, or -1 for the argument itself */
	const char *cname;       /* the --const (param -1) */
	const LaunchArg *a;      /* what it was made from (type, count) */
	uint64_t addr, bytes;
} PlacedBuf;

/* a launch placed in memory: buffer addresses per argument */
typedef struct {
	uint64_t *addr;          /* device address of each buffer argument (0 for scalars) */
	uint64_t *bytes;         /* bytes of each buffer */
	int n;
	PlacedBuf *buf;          /* every buffer, in the order placed */
	int nbuf;
	uint64_t *gaddr;         /* the address of each of the kernel's globals (Kernel.globals) */
} Placed;

void dev_launch_init(Launch *l);
void dev_launch_free(Launch *l);
/* option parsers: 0 on success, else -1 with "expected ..." text in why[256] */
int dev_parse_dim3(const char *s, uint32_t out[3], char *why);
int dev_parse_arg(const char *s, const char *basedir, LaunchArg *a, char *why);
int dev_parse_out(const char *s, LaunchOut *o, char *why);
int dev_parse_const(const char *s, const char *basedir, LaunchConst *c, char *why);
/* --buf NAME=TYPE:COUNT[:INIT]; NAME[+N] of buf:NAME[+N] (*name malloc'ed) */
int dev_parse_buf(const char *s, const char *basedir, LaunchBuf *b, char *why);
int dev_parse_bufref(const char *s, char **name, uint64_t *off);
void dev_buf_free(LaunchBuf *b);
/* the --buf buffer name placed in m, or NULL */
const DevNamed *dev_named_find(const Mem *m, const char *name);
/* the messages text of launch l, the i-th (0-based) of a run of n, to err, located: a
 * refused launch (placed: 0) "FILE:LINE: error: launch I of N (kernel 'K'): MESSAGE" for the
 * first line (FILE:LINE of its --kernel line, "warpsim" on the command line; MESSAGE without
 * its "warpsim: "), a run-time error as it is, then "    in launch I of N (kernel 'K',
 * FILE:LINE)" */
void dev_launch_msg(FILE *err, const Launch *l, int i, int n, const char *text, int placed);
/* a launch after another (--kernel again): the defaults, and the device limits of prev
 * (--stack-bytes, --crs-bytes, --heap-bytes, --cdp-pending), which stay until changed */
void dev_launch_next(Launch *l, const Launch *prev);
void dev_arg_free(LaunchArg *a);
void dev_const_free(LaunchConst *c);
void dev_out_free(LaunchOut *o);
int dev_parse_type(const char *s, Type *t);          /* u8 ... f64 */
const char *dev_type_name(Type t);                   /* "u8" ... "f64" */
/* the bytes a field of a struct argument or --const takes */
uint32_t dev_field_bytes(const LaunchArg *f);
int dev_parse_scalar(Type t, const char *s, uint64_t *bits);
/* local bytes per thread a launch l of k gives (an sm_3x listing: its frame and a stack),
 * at least l->stack_bytes; an sm_3x listing's stack top c[0x0][0x44] */
uint32_t dev_local_bytes(const Kernel *k, const Launch *l);
/* checks args against the kernel's parameters, allocates and fills buffers (the --buf
 * buffers first, into m->named), writes bank 0 (header and parameters, laid out by
 * k->layout), globals and constant data; messages "warpsim: ..." on err. Memory that an
 * earlier launch placed stays: its --buf buffers, module variables (placed once, their
 * values kept: a __device__ variable lives as long as the program), heap and --const values. */
int dev_launch_place(Mem *m, const Kernel *k, const Launch *l, Placed *pl, FILE *err);
/* bank 0's words below the parameters for launch l of k: block and grid dimensions, the
 * generic windows (sm_35: the local window and the stack top), and the launch's dynamic
 * shared bytes (sm_35: DEV_SM35_DYNSMEM; warpc's layout: ISA_DYNSMEM_BANK's word) */
void dev_bank0_header(Mem *m, const Kernel *k, const Launch *l);
/* and (sm_35) %envreg1:%envreg2, the grid workspace of a cooperative launch, else 0 */
void dev_bank0_envregs(Mem *m, const Kernel *k, const Launch *l);
void dev_placed_free(Placed *pl);
/* writes every --out file; returns 0, or -1 after a message */
int dev_launch_write_outputs(Mem *m, const Launch *l, const Placed *pl, FILE *err);
/* one element of type t as text (integers decimal, f32 %.9g, f64 %.17g) */
int dev_format_elem(char *buf, size_t size, Type t, uint64_t bits);
uint32_t dev_xorshift32(uint32_t *state);
/* the buffer initialiser of a --arg (or a --tex's texels) into p, a->count elements */
int dev_fill(const LaunchArg *a, uint8_t *p, FILE *err, const char *what);

/* ------------------------------------------------------------------ tex.c and surf.c */
/* a texture as an engine reads it: its binding and its texels in device memory */
typedef struct {
	const LaunchTex *t;
	const uint8_t *texels;
} DevTex;

/* NAME:TYPE[xN]:W[xH[xD]][:MODES][:INIT]; 0, or -1 with "expected ..." text in why[256] */
int dev_parse_tex(const char *s, const char *basedir, LaunchTex *t, char *why);
void dev_tex_free(LaunchTex *t);
/* places every --tex's texels in m (allocations named "texture NAME"); 0, or -1 after a message */
int dev_tex_place(Mem *m, const Launch *l, FILE *err);
/* texture objects (bindless tex): the handle `--arg tex:NAME` passes for the i-th --tex is
 * DEV_TEX_HANDLE + i; dev_tex_index gives i back, or -1 for a value no --tex of l owns */
#define DEV_TEX_HANDLE 0x5445580000000001ull
int dev_tex_index(const Launch *l, uint64_t handle);
/* the index of the --tex binding name, or -1 */
int dev_tex_find(const Launch *l, const char *name);
/* surface objects likewise: `--arg surf:NAME` passes DEV_SURF_HANDLE + the --surf's position */
#define DEV_SURF_HANDLE 0x5355520000000001ull
int dev_surf_index(const Launch *l, uint64_t handle);
int dev_surf_find(const Launch *l, const char *name);
/* a fetch's geometry: PTX tex's .1d .2d .3d .a1d .a2d .cube .acube */
enum { DEV_TEX_1D = 1, DEV_TEX_2D, DEV_TEX_3D, DEV_TEX_A1D, DEV_TEX_A2D, DEV_TEX_CUBE,
       DEV_TEX_ACUBE };
/* NULL when binding x can be fetched with geometry geom, else why not ("texture 'T' is bound
 * 2D layered, fetched .cube"-style text in a static buffer) */
const char *dev_tex_geom_bad(const DevTex *x, int geom);
/* one fetch: geometry geom (DEV_TEX_*) at coordinates c[0..4) as PTX orders them (an array's
 * .u32 index first; f32 bits when fl, else s32 texel indices: no filtering; .cube and .acube
 * take f32 only), the four 32-bit results (floats for float channels and normfloat, else
 * integers extended by the channel's signedness; missing channels read 0). The geometry must
 * pass dev_tex_geom_bad. */
void dev_tex_fetch(const DevTex *x, int geom, int fl, const uint32_t c[4], uint32_t out[4]);
/* tld4 of 2D float coordinates c: channel comp (0..3) of the four texels linear filtering
 * would weigh, counter-clockwise from the lower left: (i, j+1), (i+1, j+1), (i+1, j), (i, j) */
void dev_tex_gather(const DevTex *x, int comp, const uint32_t c[2], uint32_t out[4]);
/* the cube face (0..5: +x -x +y -y +z -z) the direction (x, y, z) selects and the face
 * coordinates (u, v) in [0, 1] (CUDA C Programming Guide, "Cubemap Textures") */
int dev_tex_cube_face(float x, float y, float z, float *u, float *v);
/* the layer an array index selects among n layers: the index as .u32, clamped to n - 1 */
uint32_t dev_tex_layer(uint32_t index, uint32_t n);
/* --surf: 0, or -1 with "expected ..." text in why[256] */
int dev_parse_surf(const char *s, LaunchSurf *u, char *why);
void dev_surf_free(LaunchSurf *u);
/* a surface as an engine reads and writes it: its binding and its buffer's device address */
typedef struct {
	const LaunchSurf *s;
	uint64_t base;
} DevSurf;
/* every --tex and --surf of a launch resolved once, after placement in m, in option order:
 * the engines find a reference's binding by its index (dev_tex_find, dev_surf_find, once per
 * kernel or module variable) and an object's by its handle, with no search by name per
 * access. An entry that is not placed in m has a NULL binding (t, s). */
typedef struct {
	DevTex *tex;      /* l->texs[i] */
	int ntex;
	DevSurf *surf;    /* l->surfs[i] */
	int nsurf;
} DevBinds;
/* 0, or -1 when memory runs out (b is then empty); dev_binds_free frees it */
int dev_binds_init(DevBinds *b, Mem *m, const Launch *l);
void dev_binds_free(DevBinds *b);
/* the binding of binding index i (a reference's), or of a texture or surface object's handle
 * (dev_tex_index, dev_surf_index); NULL when there is none or it is not placed */
const DevTex *dev_binds_tex(const DevBinds *b, int i);
const DevSurf *dev_binds_surf(const DevBinds *b, int i);
const DevTex *dev_binds_texobj(const DevBinds *b, uint64_t handle);
/* every texture, then every surface kernel k names (Kernel.tex, Kernel.surf) must be bound:
 * its binding from b into tex[slot] and surf[slot] (b NULL: only checked by name); 0, or -1
 * after a message on err */
int dev_binds_kernel(const DevBinds *b, const Launch *l, const Kernel *k, DevTex *tex,
                     DevSurf *surf, FILE *err);
const DevSurf *dev_binds_surfobj(const DevBinds *b, uint64_t handle);
/* checks every --surf against its buffer argument after placement: 0, or -1 after a message */
int dev_surf_check(const Mem *m, const Launch *l, FILE *err);
/* suld.b/sust.b: the device address of size bytes at coordinates c (x a byte offset, y and z
 * rows and slices) of a geom-dimensional access, under mode (DEV_SU_TRAP: 0 with *fault set
 * when outside; DEV_SU_CLAMP: the nearest place inside; DEV_SU_ZERO: 0, *fault clear, when
 * outside: a load reads 0, a store does nothing). The engines access it as global memory. */
enum { DEV_SU_TRAP, DEV_SU_CLAMP, DEV_SU_ZERO };
uint64_t dev_surf_at(const DevSurf *x, int geom, const int32_t c[3], unsigned size, int mode,
                     int *fault);
/* sust.p (SUSTP): the device address of channel ch of the sample at coordinates c (x a sample
 * index, not a byte offset) under mode (dev_surf_at's rules, the sample the access), 0 when
 * nothing is stored (a channel the surface lacks, or .zero outside; *fault set for .trap
 * outside); *v becomes the 32-bit source converted to the channel's type, *size its bytes */
uint64_t dev_surf_at_p(const DevSurf *x, int geom, const int32_t c[3], int ch, int mode,
                       uint32_t *v, unsigned *size, int *fault);
/* txq's and suq's attributes, in the order of frontend/ptx.h's PTX_TXQS (one less): the values
 * are TXQ's and SUQ's attribute operand (isa/ops.def). dev_tex_query answers all but
 * DEV_TXQ_MEMORY_LAYOUT; dev_surf_query the width, height, depth, channel data type and order,
 * array size and memory layout. The values are the PTX ISA's (tex.c, "Queries"; surf.c). */
typedef enum {
	DEV_TXQ_WIDTH, DEV_TXQ_HEIGHT, DEV_TXQ_DEPTH, DEV_TXQ_NORMALIZED, DEV_TXQ_CHANNEL_TYPE,
	DEV_TXQ_CHANNEL_ORDER, DEV_TXQ_ARRAY_SIZE, DEV_TXQ_MIPMAP_LEVELS, DEV_TXQ_SAMPLES,
	DEV_TXQ_FORCE_UNNORMALIZED, DEV_TXQ_FILTER_MODE, DEV_TXQ_ADDR_MODE_0, DEV_TXQ_ADDR_MODE_1,
	DEV_TXQ_ADDR_MODE_2, DEV_TXQ_MEMORY_LAYOUT, DEV_TXQ_COUNT
} DevTexQuery;
uint32_t dev_surf_query(const DevSurf *x, DevTexQuery q);
/* txq: a texture's width, height, depth (1 beyond its dimensions) and the other attributes */
uint32_t dev_tex_query(const DevTex *x, DevTexQuery q);

/* ------------------------------------------------------------------ cdp.c */
/* cdp.c: dynamic parallelism (docs/warpsim.md, "Dynamic parallelism"). The parameter
 * buffers' region, its launch header (before each buffer: the kernel's address, grid and
 * block dimensions, dynamic shared bytes), CUDA's limits: the CUDA C++ Programming Guide,
 * "CUDA Dynamic Parallelism" (a buffer is 64-byte aligned and at most 4 KB; nesting depth
 * at most 24; cudaLimitDevRuntimePendingLaunchCount 2048 by default) */
#define DEV_CDP_BASE      0x7fc000000000ull
#define DEV_CDP_HDR       ISA_CDP_HDR
#define DEV_CDP_BUFMAX    ISA_CDP_BUFMAX
#define DEV_CDP_DEPTH     24
#define DEV_CDP_PENDING   2048u
#define DEV_CDP_H_FUNC    ISA_CDP_H_FUNC
#define DEV_CDP_H_GRID    ISA_CDP_H_GRID
#define DEV_CDP_H_BLOCK   ISA_CDP_H_BLOCK
#define DEV_CDP_H_SHMEM   ISA_CDP_H_SHMEM
typedef struct {
	uint64_t cta, tid;       /* the launching thread: linear block and thread index (the key) */
	uint32_t ctaid[3], tidv[3];
	const char *kernel;      /* the launching grid's kernel */
	char where[96];          /* the engine's location of the call ("pc 0x58", "file:12") */
} DevCdpWho;
typedef struct {
	uint64_t func;           /* the kernel's address, as the launching engine gives it */
	const char *kname;       /* the kernel it names (the engine resolves func) */
	uint32_t grid[3], block[3], shmem;
	uint8_t *params;         /* a copy of the parameter buffer */
	uint32_t nparams;        /* its bytes */
	int depth;               /* the child grid's nesting depth (the host's grid: 0) */
	uint64_t seq;            /* order of the launch in its grid (the key's last part) */
	DevCdpWho who;
} DevCdpLaunch;
typedef struct {
	DevCdpLaunch *l;         /* the running grid's launches, in the engine's order */
	int n, cap;
	uint64_t seq;
	DevCdpLaunch *q;         /* the queue: q[head..nq) wait, in the order they run */
	int nq, capq, head;
	uint64_t grids;          /* child grids started */
} DevCdp;
/* dev_cdp_place: the buffers' region, once (0, or -1 out of memory); dev_cdp_buffer: a
 * buffer of size bytes (0 when none is free, or size > DEV_CDP_BUFMAX); dev_cdp_launch: the
 * launch of buffer buf by who (0, or -1 with the reason); dev_cdp_merge: the running grid
 * (at depth) ends: its launches join the queue in the documented order, its buffers are
 * given back (0, or -1 with the located reason of the first launch over a limit);
 * dev_cdp_next: the next child grid, NULL when none waits; dev_cdp_bank0: bank 0 of child
 * grid r of kernel k (dimensions, parameters from the buffer) */
/* both engines' messages for a cudaGetParameterBuffer that gets no buffer (printf formats:
 * the size asked for; the limit) */
#define DEV_CDP_BIG_WHY "cudaGetParameterBuffer of %" PRIu64 " bytes: a parameter buffer holds at most 4096"
#define DEV_CDP_FULL_WHY "cudaGetParameterBuffer: more than %u parameter buffers in one grid: its " \
	"launches would exceed the pending launch limit (--cdp-pending, CUDA's " \
	"cudaLimitDevRuntimePendingLaunchCount; cudaErrorLaunchPendingCountExceeded)"
#define DEV_CDP_STREAM_WHY "cudaStreamCreateWithFlags without cudaStreamNonBlocking (a stream " \
	"created in a kernel must be non-blocking)"
#define DEV_CDP_NOKERNEL_WHY "cudaLaunchDevice of kernel '%s', which the program does not " \
	"hold (it has no body in this module)"
int dev_cdp_place(Mem *m, uint32_t pending);
uint64_t dev_cdp_buffer(Mem *m, uint64_t size);
int dev_cdp_launch(DevCdp *c, Mem *m, uint64_t buf, const DevCdpWho *who, char *why, size_t n);
int dev_cdp_merge(DevCdp *c, Mem *m, int depth, uint32_t pending, char *why, size_t n);
DevCdpLaunch *dev_cdp_next(DevCdp *c);
/* "the child grid of kernel 'K' (depth d) launched by kernel 'P', block (..), thread (..), WHERE" */
void dev_cdp_context(const DevCdpLaunch *r, char *out, size_t n);
void dev_cdp_free(DevCdp *c);
int dev_cdp_bank0(Mem *m, const Kernel *k, const DevCdpLaunch *r, const Launch *l,
                  char *why, size_t n);   /* (l: the child's launch, r's dimensions) */
/* the module globals of kernel k that no grid or launch before placed (the others keep
 * their place and value), the address slots of all, the relocations of those placed now and
 * the constant data (SM model: each Kernel has its own), then the --const values again;
 * 0, or -1 with why */
int dev_cdp_globals(Mem *m, const Kernel *k, char *why, size_t n);

#endif
