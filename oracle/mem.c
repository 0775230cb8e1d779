/* mem.c - the oracle's state spaces: addresses of symbols and the host bytes behind an
 * address of a space. Global memory is sim's (bounds-checked allocations); shared memory is
 * the CTA's array; local and param addresses index the thread's local stack (param ones
 * tagged with OR_PARAM_TAG, but a .func parameter's, which is a local address, as the PTX ISA
 * says); kernel parameters are read from constant bank 0 (their addresses
 * are offsets in the parameter list); .const
 * variables live in the oracle's constant space. Generic addresses use sim's windows. */
#include "oracle/internal.h"

static int isshared(int space)
{
	return space == PS_SHARED || space == PS_SHARED_CTA || space == PS_SHARED_CLUSTER;
}

int or_sym_space(const Oracle *o, const Thread *t, int symkind, int sym)
{
	switch ((PSymKind)symkind) {
	case PSYM_VAR: {
		int s = o->m->vars[sym].space;
		return isshared(s) ? PS_SHARED : s;
	}
	case PSYM_LOCAL: {
		const PFunc *f = &o->m->funcs[t->fr[t->nfr - 1].fi];
		int s = f->locals[sym].space;
		return isshared(s) ? PS_SHARED : s;
	}
	case PSYM_PARAM: case PSYM_RET:
		return PS_PARAM;
	case PSYM_FUNC: case PSYM_NONE:
		break;
	}
	return PS_GLOBAL;
}

/* the address of a symbol in its own state space (PTX mov d, sym) */
uint64_t or_sym_addr(Oracle *o, const Thread *t, int symkind, int sym)
{
	const Frame *fr = &t->fr[t->nfr - 1];
	const FInfo *x = &o->fi[fr->fi];
	const PFunc *f = &o->m->funcs[fr->fi];

	switch ((PSymKind)symkind) {
	case PSYM_VAR:
		return o->varaddr[sym];
	case PSYM_LOCAL:
		if (isshared(f->locals[sym].space))
			return x->varoff[sym];
		if (f->locals[sym].space == PS_PARAM)
			return OR_PARAM_TAG + fr->lbase + x->varoff[sym];
		return fr->lbase + x->varoff[sym];
	case PSYM_PARAM:
		if (fr->fi == o->ki)   /* the offset in the parameter list */
			return x->paroff[sym] - OR_KPARAM_BASE;
		/* a .func's: in the local space (PTX ISA, mov: the parameter is on the stack) */
		return fr->lbase + x->paroff[sym];
	case PSYM_RET:
		return OR_PARAM_TAG + fr->lbase + x->retoff[sym];
	case PSYM_FUNC:
		return OR_FUNC_BASE + 16ull * sym;
	case PSYM_NONE:
		break;
	}
	die("or_sym_addr: bad symbol kind");
}

static const char *spacename(int space)
{
	return space == PS_NONE ? "generic" : ptx_space_name((PSpace)space) + 1;
}

uint8_t *or_ptr(Oracle *o, Thread *t, int space, uint64_t addr, unsigned size, int write)
{
	uint8_t *p = NULL;
	int s = isshared(space) ? PS_SHARED : space;
	uint64_t a = addr;

	if (size && addr % size) {
		or_error(o, t, OR_FAULT, "misaligned %u-byte %s access at 0x%llx", size, spacename(space),
		         (unsigned long long)addr);
		return NULL;
	}
	if (s == PS_NONE) {
		if (a >= DEV_SHARED_WINDOW && a - DEV_SHARED_WINDOW < DEV_WINDOW_SIZE)
			s = PS_SHARED, a -= DEV_SHARED_WINDOW;
		else if (a >= DEV_LOCAL_WINDOW && a - DEV_LOCAL_WINDOW < DEV_WINDOW_SIZE)
			s = PS_LOCAL, a -= DEV_LOCAL_WINDOW;
		else if (a >= DEV_CONST_WINDOW && a - DEV_CONST_WINDOW < DEV_WINDOW_SIZE)
			s = PS_CONST, a -= DEV_CONST_WINDOW;
		else
			s = PS_GLOBAL;
	}
	switch (s) {
	case PS_GLOBAL:
		p = dev_mem_global(o->mem, a, size);
		break;
	case PS_SHARED:
		if (a <= o->shsize && size <= o->shsize - a)
			p = o->shared + a;
		break;
	case PS_LOCAL:
		if (a <= t->lsize && size <= t->lsize - a)
			p = t->local + a;
		break;
	case PS_CONST:
		if (write) {
			or_error(o, t, OR_FAULT, "store of %u bytes to %s address 0x%llx: constant memory "
			         "is read only", size, spacename(space), (unsigned long long)addr);
			return NULL;
		}
		if (a <= o->csize && size <= o->csize - a)
			p = o->cmem + a;
		break;
	case PS_PARAM:
		if (a < OR_PARAM_TAG && t->fr[t->nfr - 1].fi != o->ki) {
			/* in a .func, a .func parameter's address (a local one) */
			if (a <= t->lsize && size <= t->lsize - a)
				p = t->local + a;
		} else if (a < OR_PARAM_TAG) {   /* a kernel parameter's: bank 0 from OR_KPARAM_BASE */
			a += OR_KPARAM_BASE;
			if (!write && o->mem->bank[0] && a <= DEV_BANK_SIZE && size <= DEV_BANK_SIZE - a)
				p = o->mem->bank[0] + a;
		} else if ((a -= OR_PARAM_TAG) <= t->lsize && size <= t->lsize - a)
			p = t->local + a;
		break;
	default:
		break;
	}
	if (!p && s == PS_SHARED)   /* (the SM model's words: sim/exec_mem.c) */
		or_error(o, t, OR_FAULT, "%s %u bytes %s %s address 0x%llx: outside the CTA's %u bytes "
		         "of shared memory", write ? "store of" : "load of", size, write ? "to" : "from",
		         spacename(space), (unsigned long long)addr, o->shsize);
	else if (!p)
		or_error(o, t, OR_FAULT, "%s %u bytes %s %s address 0x%llx: outside %s", write ? "store of" : "load of",
		         size, write ? "to" : "from", spacename(space), (unsigned long long)addr,
		         s == PS_CONST && write ? "writable memory" : "every allocation");
	return p;
}
