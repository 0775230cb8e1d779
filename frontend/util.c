/* util.c - the frontend's tables and small services: the opcode table, names of types,
 * spaces and modifiers, the arena that owns a Module, lookups, ptx_free. */
#include <stdlib.h>
#include <string.h>
#include "frontend/ptx.h"
#include "frontend/internal.h"

const POpInfo ptx_ops[PO_COUNT] = {
#define PTX_OP(id, name, min, max, cls, flags, sig) { name, min, max, PC_##cls, flags, sig },
#include "frontend/ptxops.def"
};

static const struct { const char *name; int bytes; PTypeKind kind; } types[PT_COUNT] = {
#define X(id, name, bytes, kind) { name, bytes, PTK_##kind },
	PTX_TYPES(X)
#undef X
};

static const char *const spaces[PS_COUNT] = {
#define X(id, name) name,
	PTX_SPACES(X)
#undef X
};

static const struct { const char *name; int comp, bytes; } sregs[PSR_COUNT] = {
#define X(id, name, comp, bytes) { name, comp, bytes },
	PTX_SREGS(X)
#undef X
};

#define NAME_X(id, s) s,
const char *const ptx_cmp_names[PCMP_COUNT] = { PTX_CMPS(NAME_X) };
const char *const ptx_bop_names[PBOP_COUNT] = { PTX_BOPS(NAME_X) };
const char *const ptx_rnd_names[PRND_COUNT] = { PTX_RNDS(NAME_X) };
const char *const ptx_cache_names[PCACHE_COUNT] = { PTX_CACHES(NAME_X) };
const char *const ptx_sem_names[PSEM_COUNT] = { PTX_SEMS(NAME_X) };
const char *const ptx_scope_names[PSCOPE_COUNT] = { PTX_SCOPES(NAME_X) };
const char *const ptx_aop_names[PAOP_COUNT] = { PTX_AOPS(NAME_X) };
const char *const ptx_shfl_names[PSHFL_COUNT] = { PTX_SHFLS(NAME_X) };
const char *const ptx_vote_names[PVOTE_COUNT] = { PTX_VOTES(NAME_X) };
const char *const ptx_bar_names[PBAR_COUNT] = { PTX_BARS(NAME_X) };
const char *const ptx_prmt_names[PPRMT_COUNT] = { PTX_PRMTS(NAME_X) };
const char *const ptx_testp_names[PTESTP_COUNT] = { PTX_TESTPS(NAME_X) };
const char *const ptx_evict_names[PEVICT_COUNT] = { PTX_EVICTS(NAME_X) };
const char *const ptx_geom_names[PGEOM_COUNT] = { PTX_GEOMS(NAME_X) };
const char *const ptx_txq_names[PTXQ_COUNT] = { PTX_TXQS(NAME_X) };
const char *const ptx_comp_names[PCOMP_COUNT] = { PTX_COMPS(NAME_X) };
const char *const ptx_sumode_names[PSUMODE_COUNT] = { PTX_SUMODES(NAME_X) };
const char *const ptx_mflag_names[PMF_NBITS] = { PTX_MFLAGS(NAME_X) };
#undef NAME_X

const char *ptx_op_name(POp op) { return op < PO_COUNT ? ptx_ops[op].name : "?"; }
const char *ptx_type_name(PType t) { return t < PT_COUNT ? types[t].name : "?"; }
int ptx_type_bytes(PType t) { return t < PT_COUNT && t != PT_PRED ? types[t].bytes : 0; }
PTypeKind ptx_type_kind(PType t) { return t < PT_COUNT ? types[t].kind : PTK_NONE; }
const char *ptx_space_name(PSpace s) { return s < PS_COUNT ? spaces[s] : "?"; }
const char *ptx_sreg_name(PSReg r) { return r < PSR_COUNT ? sregs[r].name : "?"; }
int ptx_sreg_bytes(PSReg r) { return r < PSR_COUNT ? sregs[r].bytes : 0; }
int ptx_sreg_has_comp(PSReg r) { return r < PSR_COUNT && sregs[r].comp; }
const char *ptx_cmp_name(PCmp c) { return c < PCMP_COUNT ? ptx_cmp_names[c] : "?"; }
const char *ptx_rnd_name(PRnd r) { return r < PRND_COUNT ? ptx_rnd_names[r] : "?"; }
const char *ptx_aop_name(PAop a) { return a < PAOP_COUNT ? ptx_aop_names[a] : "?"; }

int
ptx_ins_writes(const PIns *in, int slot)
{
	uint16_t fl = ptx_ops[in->op].flags;

	if (slot < 0 || slot >= in->nopd || (fl & PF_NODST))
		return 0;
	if (in->op == PO_BAR || in->op == PO_BARRIER)
		return in->m.bar == PBAR_RED && slot == 0;
	if (fl & PF_PAIR)
		return slot <= 1;
	return slot == 0;
}

/* a cmp b of bits-wide integers (sign: a signed type); lo ls hi hs compare unsigned in
 * every type */
int
ptx_icmp(int cmp, uint64_t a, uint64_t b, int bits, int sign)
{
	uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1, top = bits >= 64 ? 0 : ~m;
	uint64_t ua = a & m, ub = b & m;
	int64_t sa = (int64_t)(ua >> (bits - 1) & 1 ? ua | top : ua);
	int64_t sb = (int64_t)(ub >> (bits - 1) & 1 ? ub | top : ub);

	switch (cmp) {
	case PCMP_EQ: return ua == ub;
	case PCMP_NE: return ua != ub;
	case PCMP_LT: return sign ? sa < sb : ua < ub;
	case PCMP_LE: return sign ? sa <= sb : ua <= ub;
	case PCMP_GT: return sign ? sa > sb : ua > ub;
	case PCMP_GE: return sign ? sa >= sb : ua >= ub;
	case PCMP_LO: return ua < ub;
	case PCMP_LS: return ua <= ub;
	case PCMP_HI: return ua > ub;
	case PCMP_HS: return ua >= ub;
	default: return -1;
	}
}

/* x cmp y of floats, un: either is a NaN; ordered comparisons are false on NaN, the ...u ones
 * true; num and nan test for NaN */
int
ptx_fcmp(int cmp, int un, double x, double y)
{
	switch (cmp) {
	case PCMP_EQ: return !un && x == y;
	case PCMP_NE: return !un && x != y;
	case PCMP_LT: return !un && x < y;
	case PCMP_LE: return !un && x <= y;
	case PCMP_GT: return !un && x > y;
	case PCMP_GE: return !un && x >= y;
	case PCMP_EQU: return un || x == y;
	case PCMP_NEU: return un || x != y;
	case PCMP_LTU: return un || x < y;
	case PCMP_LEU: return un || x <= y;
	case PCMP_GTU: return un || x > y;
	case PCMP_GEU: return un || x >= y;
	case PCMP_NUM: return !un;
	case PCMP_NAN: return un;
	default: return -1;
	}
}

/* cp.async [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}: the slot of the
 * src-size (32 bits) or ignore-src (a predicate), -1 when there is none; with
 * .L2::cache_hint, a fourth and last operand of 64 bits is the cache policy */
int
ptx_cp_async_src(const PFunc *f, const PIns *in)
{
	const POpd *o;

	if (in->op != PO_CP_ASYNC || in->nopd < 4)
		return -1;
	o = &in->o[3];
	if (in->nopd == 4 && (in->m.flags & PMF_CACHEHINT) && o->kind == POK_REG &&
	    f->regs[o->reg].type != PT_PRED && ptx_type_bytes((PType)f->regs[o->reg].type) == 8)
		return -1;
	return 3;
}

/* the elements of a video instruction: 2 (16-bit halves) or 4 (bytes) for the SIMD ones, 1
 * for the scalar ones warpsim supports (vadd, vsub, vabsdiff, vmin, vmax, vset, vshl, vshr); 0
 * for others */
void
ptx_vsel_field(int vsel, int *pos, int *len)
{
	*pos = vsel >= PVS_H0 ? 16 * (vsel - PVS_H0) : vsel >= PVS_B0 ? 8 * (vsel - PVS_B0) : 0;
	*len = vsel >= PVS_H0 ? 16 : vsel >= PVS_B0 ? 8 : 32;
}

int
ptx_video_elems(int op)
{
	switch (op) {
	case PO_VADD: case PO_VSUB: case PO_VABSDIFF: case PO_VMIN: case PO_VMAX: case PO_VSET:
	case PO_VSHL: case PO_VSHR:
		return 1;
	case PO_VADD2: case PO_VSUB2: case PO_VAVRG2: case PO_VABSDIFF2: case PO_VMIN2: case PO_VMAX2:
	case PO_VSET2:
		return 2;
	case PO_VADD4: case PO_VSUB4: case PO_VAVRG4: case PO_VABSDIFF4: case PO_VMIN4: case PO_VMAX4:
	case PO_VSET4:
		return 4;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------------ arena */
/* Blocks of at least 64 KiB; allocations are 16-byte aligned and zeroed. */
typedef struct Blk Blk;
struct Blk {
	Blk *next;     /* previous block */
	size_t used;   /* bytes handed out */
	size_t cap;    /* bytes of data */
	_Alignas(16) unsigned char data[];
};
struct PArena {
	Blk *cur;      /* block being filled; older ones chained */
};

PArena *
ptx_arena_new(void)
{
	PArena *a = calloc(1, sizeof *a);
	if (!a)
		die("out of memory");
	return a;
}

void *
ptx_alloc(PArena *a, size_t n)
{
	Blk *b = a->cur;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!b || b->cap - b->used < n) {
		size_t cap = n > 65536 ? n : 65536;
		b = malloc(sizeof *b + cap);
		if (!b)
			die("out of memory");
		b->next = a->cur;
		b->used = 0;
		b->cap = cap;
		a->cur = b;
	}
	p = b->data + b->used;
	b->used += n;
	memset(p, 0, n);
	return p;
}

char *
ptx_strndup(PArena *a, const char *s, size_t n)
{
	char *p = ptx_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

void
ptx_arena_free(PArena *a)
{
	Blk *b, *next;

	if (!a)
		return;
	for (b = a->cur; b; b = next) {
		next = b->next;
		free(b);
	}
	free(a);
}

void
ptx_free(Module *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nparts; i++)   /* a linked module's files */
		ptx_free(m->parts[i]);
	free(m->src);
	ptx_arena_free(m->arena);
}

int
ptx_find_func(const Module *m, const char *name)
{
	for (int i = 0; i < m->nfuncs; i++)
		if (strcmp(m->funcs[i].name, name) == 0)
			return i;
	return -1;
}

/* a .func with a body: what an address or a prototype can reach */
static int callee(const Module *m, int g)
{
	return m->funcs[g].has_body && !m->funcs[g].entry;
}

/* g joins seen and the stack of work when it is not in seen yet */
static void reach_mark(uint8_t *seen, int *work, int *n, int g)
{
	if (!seen[g])
		seen[g] = 1, work[(*n)++] = g;
}

void
ptx_reach(const Module *m, int fi, uint8_t *seen)
{
	int *work, n = 0;

	if (seen[fi])
		return;
	if (!(work = calloc((size_t)m->nfuncs + 1, sizeof *work)))
		die("out of memory");
	reach_mark(seen, work, &n, fi);
	while (n > 0) {
		const PFunc *f = &m->funcs[work[--n]];
		for (int i = 0; i < f->nins; i++)
			for (int s = 0; s < f->ins[i].nopd; s++) {
				const POpd *op = &f->ins[i].o[s];
				const PTList *tl = op->kind == POK_TLIST ? &f->tlists[op->sym] : NULL;
				const PVar *v = op->kind == POK_SYM && op->symkind == PSYM_VAR ? &m->vars[op->sym] : NULL;
				if (op->kind == POK_SYM && op->symkind == PSYM_FUNC && callee(m, op->sym))
					reach_mark(seen, work, &n, op->sym);
				for (int k = 0; v && k < v->ninit; k++)
					if (v->init[k].kind == PINIT_SYM && v->init[k].symkind == PSYM_FUNC &&
					    callee(m, v->init[k].sym))
						reach_mark(seen, work, &n, v->init[k].sym);
				if (!tl || f->ins[i].op != PO_CALL)
					continue;
				for (int k = 0; tl->kind == PTL_CALL && k < tl->ntargets; k++)
					reach_mark(seen, work, &n, tl->targets[k]);
				for (int g = 0; tl->kind == PTL_PROTO && g < m->nfuncs; g++)
					if (callee(m, g) && m->funcs[g].nparams == tl->nparams &&
					    m->funcs[g].nrets == tl->nrets)
						reach_mark(seen, work, &n, g);
			}
	}
	free(work);
}

/* the functions of CUDA's device runtime that launch kernels from the device (dynamic
 * parallelism), which nvcc declares as .extern .func */
int
ptx_cdp_function(const char *name)
{
	static const char *const fns[] = {
		"cudaGetParameterBuffer", "cudaGetParameterBufferV2", "cudaLaunchDevice",
		"cudaLaunchDeviceV2", "cudaDeviceSynchronize", "cudaCGGetIntrinsicHandle",
		/* the rest of the device runtime API as nvcc 11.8 calls it from a kernel (CUDA C++
		 * Programming Guide, "Device Runtime API"): a located unsupported error, not a
		 * call to nowhere */
		"cudaStreamWaitEvent",
		"cudaEventCreateWithFlags", "cudaEventRecord", "cudaEventDestroy", "cudaMalloc",
		"cudaFree", "cudaMemcpyAsync", "cudaMemcpy2DAsync", "cudaMemcpy3DAsync",
		"cudaMemsetAsync", "cudaMemset2DAsync", "cudaMemset3DAsync", "cudaGetDevice",
		"cudaGetDeviceCount", "cudaDeviceGetAttribute", "cudaDeviceGetLimit",
		"cudaDeviceGetCacheConfig", "cudaDeviceGetSharedMemConfig", "cudaFuncGetAttributes",
		"cudaRuntimeGetVersion", "cudaGetErrorString",
		"cudaOccupancyMaxActiveBlocksPerMultiprocessor",
		"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
	};
	for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
		if (!strcmp(name, fns[i]))
			return 1;
	return 0;
}

/* what a device runtime function of ptx_cdp_function that neither engine makes does, for
 * its unsupported error */
const char *
ptx_cdp_unsup(const char *name)
{
	if (!strcmp(name, "cudaDeviceSynchronize"))
		return "a kernel's wait for its child grids (dynamic parallelism)";
	if (!strcmp(name, "cudaCGGetIntrinsicHandle"))
		return "dynamic parallelism (kernels launched from the device)";
	return "CUDA's device runtime API in a kernel (streams, events, memory, device queries)";
}

/* the device runtime call in of g that both engines make (dynamic parallelism; the kinds
 * PTX_DEVRT_*): its kind, -1 when g is none of them, -2 when the call or the declaration
 * differs from CUDA's (cudaGetParameterBuffer(align, size), cudaGetParameterBufferV2(func,
 * grid, block, shmem), cudaLaunchDevice(func, buf, grid, block, shmem, stream),
 * cudaLaunchDeviceV2(buf, stream), cudaGetLastError(), cudaPeekAtLastError(),
 * cudaStreamCreateWithFlags(pstream, flags), cudaStreamDestroy(stream); dim3 is a 12-byte
 * aggregate) */
static const char *const devrt_names[] = {"cudaGetParameterBuffer", "cudaGetParameterBufferV2",
	"cudaLaunchDevice", "cudaLaunchDeviceV2", "cudaGetLastError", "cudaPeekAtLastError",
	"cudaStreamCreateWithFlags", "cudaStreamDestroy"};

int
ptx_devrt_kind(const PFunc *g, const PIns *in)
{
	const char *const *names = devrt_names;
	static const int kind[] = {PTX_DEVRT_GETBUF, PTX_DEVRT_GETBUF2, PTX_DEVRT_LAUNCH,
		PTX_DEVRT_LAUNCH2, PTX_DEVRT_LASTERR, PTX_DEVRT_LASTERR, PTX_DEVRT_STREAM,
		PTX_DEVRT_STREAMDEL};
	static const int np[] = {2, 4, 6, 2, 0, 2, 1}, nr[] = {8, 8, 4, 4, 4, 4, 4};
	static const int sz[][6] = {{8, 8}, {8, 12, 12, 4}, {8, 8, 12, 12, 4, 8}, {8, 8}, {0},
		{8, 4}, {8}};
	int k = -1;

	for (int i = 0; i < 8 && !g->has_body; i++)
		if (!strcmp(g->name, names[i]))
			k = kind[i];
	if (k < 0)
		return -1;
	if (g->nparams != np[k] || in->o[2].nelems != np[k] || g->nrets != 1 ||
	    g->rets[0].size != (uint64_t)nr[k] || in->o[0].nelems > 1)
		return -2;
	for (int i = 0; i < np[k]; i++)
		if (g->params[i].size != (uint64_t)sz[k][i])
			return -2;
	return k;
}

int
ptx_find_var(const Module *m, const char *name)
{
	for (int i = 0; i < m->nvars; i++)
		if (strcmp(m->vars[i].name, name) == 0)
			return i;
	return -1;
}

_Noreturn void
ptx_die(const char *file, int line, const char *msg)
{
	fprintf(stderr, "%s:%d: internal error: %s\n", file, line, msg);
	abort();
}

/* whether the engines make function name, so that a call to its declaration needs no
 * definition (a link of several files, frontend/link.c): printf, assert, the device heap,
 * and the device runtime (ptx_cdp_function's names, those ptx_devrt_kind knows) */
int
ptx_runtime_function(const char *name)
{
	static const char *const rt[] = {"vprintf", "__assertfail", "malloc", "free",
	                                 "__cuda_syscall_aligned_malloc"};

	for (size_t i = 0; i < sizeof rt / sizeof rt[0]; i++)
		if (!strcmp(name, rt[i]))
			return 1;
	for (size_t i = 0; i < sizeof devrt_names / sizeof devrt_names[0]; i++)
		if (!strcmp(name, devrt_names[i]))
			return 1;
	return ptx_cdp_function(name);
}
