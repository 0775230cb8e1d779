/* exec.h - internal to the execute files of sim/ (exec.c, exec_alu.c, handlers.c,
 * exec_mem.c, exec_tex.c, exec_warp.c, exec_heap.c, exec_cdp.c, exec_kepler.c): lane loops,
 * operand reads and writes, the condition code, and the helpers sim_issue dispatches to.
 * Everything here runs inside the cycle loop: no allocation. */
#ifndef WARPSIM_EXEC_H
#define WARPSIM_EXEC_H

#include <string.h>
#include "sim/machine.h"

#define FOR_LANES(m) \
	for (uint32_t m_ = (m), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)
#define REG(row, l) (w->r[(size_t)(row) * 32 + (l)])
/* the 32 lanes of a register operand o (DOpd.roff: its row's byte offset) */
#define ROW(o) ((uint32_t *)(void *)((char *)w->r + (o).roff))

static inline int is64(Type t) { return t == TY_B64 || t == TY_U64 || t == TY_S64 || t == TY_F64; }
static inline int issgn(Type t) { return t == TY_S8 || t == TY_S16 || t == TY_S32 || t == TY_S64; }
/* the type of an integer op (S32 when none is given) */
static inline Type itype(const DIns *d) { return d->m.dtype ? (Type)d->m.dtype : TY_S32; }

/* ---------------------------------------------------------------- operands */
/* c[bank][R + off] of lane l, read at run time; the first lane whose read faults is kept
 * in g->fault_lane for sim_issue to report */
static inline uint64_t constx(Gpu *g, const Warp *w, const DOpd *o, unsigned l, unsigned size)
{
	uint64_t off = (uint64_t)REG(o->reg, l) + o->imm, v = 0;

	if (!dev_mem_cread(g->mem, o->bank, off, &v, size) && g->fault_lane < 0) {
		g->fault_lane = (int)l;
		g->fault_off = off;
	}
	return v;
}

static inline uint32_t src(Gpu *g, const Warp *w, const DOpd *o, unsigned l)
{
	if (o->kind == DK_REG)
		return REG(o->reg, l);
	if (o->kind == DK_CONSTX)
		return (uint32_t)constx(g, w, o, l, 4);
	return (uint32_t)o->imm;
}

static inline uint64_t src64(Gpu *g, const Warp *w, const DOpd *o, unsigned l)
{
	if (o->kind == DK_REG)
		return REG(o->reg, l) | (uint64_t)REG(o->reg + 1, l) << 32;
	if (o->kind == DK_CONSTX)
		return constx(g, w, o, l, 8);
	return o->imm;
}

static inline uint32_t pmask(const Warp *w, const DOpd *o)
{
	uint32_t p = w->p[o->reg];
	return (o->flags & OPF_NOT) ? ~p : p;
}

static inline void setp(Warp *w, const DOpd *o, uint32_t val, uint32_t ex)
{
	w->p[o->reg] = (w->p[o->reg] & ~ex) | (val & ex);
	w->p[ISA_PT] = 0xffffffffu;
}

/* a boolean combiner on lane masks (none is AND) */
static inline uint32_t bop(Bop b, uint32_t x, uint32_t y)
{
	switch (b) {
	case BOP_OR: return x | y;
	case BOP_XOR: return x ^ y;
	case BOP_NONE: case BOP_AND: case BOP_COUNT: break;
	}
	return x & y;
}

static inline uint32_t imods(uint32_t v, uint8_t f)
{
	if (f & OPF_NOT) v = ~v;
	if (f & OPF_ABS) v = (int32_t)v < 0 ? -v : v;
	if (f & OPF_NEG) v = -v;
	return v;
}

static inline uint32_t fmods(uint32_t v, uint8_t f)
{
	if (f & OPF_ABS) v &= 0x7fffffffu;
	if (f & OPF_NEG) v ^= 0x80000000u;
	return v;
}

/* a float operand's 32 lanes as an array: the register row itself, or buf filled (an
 * immediate, source modifiers applied to the lanes of ex); NULL for c[bank][R + off], which
 * is read per lane (it may fault) */
static inline const uint32_t *fop32(const Warp *w, const DOpd *o, uint32_t ex, uint32_t *buf)
{
	if (o->kind == DK_CONSTX)
		return NULL;
	if (o->kind == DK_REG) {
		const uint32_t *r = &w->r[(size_t)o->reg * 32];
		if (!o->flags)
			return r;
		for (uint32_t m = ex; m; m &= m - 1)
			buf[__builtin_ctz(m)] = fmods(r[__builtin_ctz(m)], o->flags);
		return buf;
	}
	for (int i = 0; i < 32; i++)
		buf[i] = fmods((uint32_t)o->imm, o->flags);
	return buf;
}

static inline uint64_t dmods(uint64_t v, uint8_t f)
{
	if (f & OPF_ABS) v &= ~(1ull << 63);
	if (f & OPF_NEG) v ^= 1ull << 63;
	return v;
}

static inline void wr64(Warp *w, const DOpd *o, unsigned l, uint64_t v)
{
	REG(o->reg, l) = (uint32_t)v;
	REG(o->reg + 1, l) = (uint32_t)(v >> 32);
}

/* ---------------------------------------------------------------- condition code */
static inline void setcc(Warp *w, unsigned l, unsigned f)
{
	uint32_t b = 1u << l;

	for (int i = 0; i < 4; i++)
		w->cc[i] = (f >> i & 1) ? (w->cc[i] | b) : (w->cc[i] & ~b);
}

static inline unsigned ccof(Warp *w, unsigned l)
{
	unsigned f = 0;

	for (int i = 0; i < 4; i++)
		f |= (w->cc[i] >> l & 1) << i;
	return f;
}

/* ISET, FSET and DSET: lane l's result is 0xffffffff (1.0 with .BF) where bit l of (m bop
 * c) is set, else 0, with m the comparison's lanes and c operand 3; Kepler's .CC: the flags
 * of that result */
static inline void set_result(Warp *w, const DIns *d, uint32_t m, uint32_t ex)
{
	uint32_t t = (d->m.flags & MF_BF) ? 0x3f800000u : 0xffffffffu;

	m = bop((Bop)d->m.bop, m, pmask(w, &d->o[3]));
	FOR_LANES(ex) REG(d->o[0].reg, l) = (m >> l & 1) ? t : 0;
	if (d->m.flags & MF_CC)
		FOR_LANES(ex) setcc(w, l, (m >> l & 1) ? (t >> 31 ? CC_S : 0) : CC_Z);
}

/* flags of a 32-bit sum of u + v + cin (u, v already inverted for subtraction) */
static inline unsigned addflags(uint32_t u, uint32_t v, uint64_t sum, int x, unsigned old)
{
	uint32_t r = (uint32_t)sum;
	unsigned f = 0;

	if (r >> 31) f |= CC_S;
	if (sum >> 32) f |= CC_C;
	if (r == 0 && (!x || (old & CC_Z))) f |= CC_Z;
	if (((u ^ r) & (v ^ r)) >> 31) f |= CC_O;
	return f;
}

/* exec_alu.c: the longer ALU ops */
void sim_iadd(Gpu *g, Warp *w, const DIns *d, uint32_t ex);
void sim_imul(Gpu *g, Warp *w, const DIns *d, uint32_t ex, int mad);       /* IMUL, IMAD */
uint32_t sim_icmpmask(Gpu *g, Warp *w, const DIns *d, uint32_t ex, int ai, int bi);
uint32_t sim_fcmpmask(Gpu *g, Warp *w, const DIns *d, uint32_t ex, int dbl);
void sim_cvt(Gpu *g, Warp *w, const DIns *d, uint32_t ex);                 /* F2I I2F F2F I2I */
/* exec_warp.c: ops that read other lanes */
void sim_shfl(Gpu *g, Warp *w, const DIns *d, uint32_t ex);
void sim_match(Gpu *g, Warp *w, const DIns *d, uint32_t ex);
void sim_redux(Gpu *g, Warp *w, const DIns *d, uint32_t ex);
/* memory ops; SIM_OK, or SIM_FAULT after a located fault. exec_mem.c: */
int sim_ldst(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e, int space, int store);
int sim_atomic(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e, int space);
int sim_ldc(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e);
/* exec_tex.c: */
int sim_tex(Gpu *g, Warp *w, const DIns *d, uint32_t ex);
int sim_surf(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e);
int sim_printf(Gpu *g, Warp *w, const DIns *d, uint32_t ex);   /* PRINTF */
/* exec_heap.c and exec_cdp.c: */
int sim_heap(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e);   /* MALLOC FREE */
int sim_cdp(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e);    /* CDPBUF CDPLAUNCH */
/* exec_kepler.c: ops of real sm_35 listings (ICMP FCMP RRO FCHK P2R) */
void sim_kepler(Gpu *g, Warp *w, const DIns *d, uint32_t ex);

#endif
