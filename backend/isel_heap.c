/* isel_heap.c - calls of the extern malloc and free (CUDA's in-kernel malloc, free, new and
 * delete, as nvcc and clang emit them) and of __cuda_syscall_aligned_malloc (nvcc's name for
 * __nv_aligned_device_malloc): one MALLOC d, size, alignment or FREE ptr, with no CAL and no
 * reconvergence point, so a call in a branch predicates like a store. The size and the
 * pointer come from their .param homes or outgoing slots or, as registers and immediates,
 * straight from the call (be_call_arg); malloc's result goes to its register, home or slot.
 * The device heap behind them is device/heap.c's (docs/warpsim.md, "malloc and free"). */
#include <string.h>
#include "backend/be.h"

/* (isel.c, before be_isel_call) 1 when the call is a direct one of malloc, nvcc's __cuda_syscall_aligned_malloc (CUDA's
 * __nv_aligned_device_malloc) or free; then *rc is 0, or -1 after an error */
int be_sel_heap(Fn *f, Blk *b, const PIns *in, int *rc)
{
	const POpd *args = &in->o[2], *rets = &in->o[0];
	const PFunc *g;
	int aligned, ismalloc, np, ok;
	MOpd a[2] = {{0}, {0}};
	MIns *x;

	if (in->o[1].kind != POK_SYM || in->o[1].symkind != PSYM_FUNC)
		return 0;
	g = &f->m->funcs[in->o[1].sym];
	aligned = !strcmp(g->name, "__cuda_syscall_aligned_malloc");
	ismalloc = aligned || !strcmp(g->name, "malloc");
	np = aligned ? 2 : 1;
	if (g->has_body || (!ismalloc && strcmp(g->name, "free")))
		return 0;
	*rc = -1;
	ok = args->nelems == np && g->nparams == np && rets->nelems <= ismalloc &&
	     g->nrets == ismalloc && (!ismalloc || g->rets[0].size == 8);
	for (int i = 0; ok && i < np; i++)
		ok = g->params[i].size == 8;
	if (!ok) {
		be_errorf(f, in->loc, "unsupported: a call of %s with %d arguments and %d results "
		          "(CUDA's takes %d 64-bit argument%s and returns %s)", g->name, args->nelems,
		          rets->nelems, np, np > 1 ? "s" : "", ismalloc ? "a pointer" : "nothing");
		return 1;
	}
	for (int i = 0; i < np; i++)
		if (be_call_arg(f, b, in, i, PT_B64, &a[i]))
			return 1;
	*rc = 0;
	if (!ismalloc) {
		x = be_emit(f, b, OP_FREE);
		x->nopd = 1;
		x->o[0] = a[0];
		return 1;
	}
	int d = be_newtmp(f, TC_R2);
	x = be_emit(f, b, OP_MALLOC);
	x->nopd = 3;
	x->o[0] = be_r(d);
	x->o[1] = a[0];
	x->o[2] = aligned ? a[1] : be_imm(16);   /* malloc's alignment (device/heap.c) */
	if (rets->nelems == 0)
		return 1;
	if (rets->elems[0].kind == POK_REG && f->tmp[f->regtmp[rets->elems[0].reg]].cls == TC_R2) {
		be_mov(f, b, f->regtmp[rets->elems[0].reg], be_r(d), TC_R2);
	} else if (rets->elems[0].kind == POK_SYM && rets->elems[0].symkind == PSYM_LOCAL) {
		x = be_emit(f, b, OP_STL);
		x->nopd = 2;
		x->m.dtype = TY_B64;
		x->o[0] = be_call_ret_mem(f, in, 0);
		x->o[1] = be_r(d);
	} else {
		be_unsup(f, in, "malloc result");
		*rc = -1;
	}
	return 1;
}
