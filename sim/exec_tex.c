/* exec_tex.c - the ops that reach memory through a binding or a format rather than a plain
 * address: PRINTF (its arguments read through generic addresses), TEX TLD TLD4 TXQ and their
 * texture-object forms (device/tex.c), SULD SUST SUSTP SUQ and their surface-object forms.
 * A surface's element and PRINTF's arguments are read and written through exec_mem.c's
 * sim_mem_at, with its located faults. */
#include <stdlib.h>
#include <inttypes.h>
#include "sim/exec_mem.h"

/* PRINTF's reads: generic addresses of one lane */
typedef struct {
	Gpu *g;
	Warp *w;
	unsigned l;
} PrintCtx;

static const uint8_t *print_read(void *ctx, uint64_t addr, unsigned size)
{
	PrintCtx *c = ctx;
	uint8_t sp;

	return sim_mem_at(c->g, c->w, c->l, SP_GLOBAL, addr, size, 0, 0, &sp);
}

/* PRINTF d, fmt, args: each lane of ex in turn prints one line (tagged with its block and
 * thread under --printf-tag) to the run's printf stream; d = the arguments consumed */
int sim_printf(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	FOR_LANES(ex) {
		PrintCtx c = {g, w, l};
		DevText t = {0};
		char err[200];
		uint32_t th = (uint32_t)w->idx * 32 + l, tid[3];
		int n = dev_printf(print_read, &c, src64(g, w, &d->o[1], l), src64(g, w, &d->o[2], l),
		                   &t, err, sizeof err);

		if (n < 0) {
			free(t.s);
			return n == -1 ? SIM_FAULT : sim_fault(g, w, (int)l, SIM_FAULT, "%s", err);
		}
		tid[0] = th % g->block[0];
		tid[1] = th / g->block[0] % g->block[1];
		tid[2] = th / (g->block[0] * g->block[1]);
		if (g->defer)
			par_print(&g->sm[w->cta->sm], g->cycle, w->cta->id, tid, &t);
		else
			dev_print_line(g->pout ? g->pout : stdout, g->ptag, w->cta->id, tid, &t);
		free(t.s);
		REG(d->o[0].reg, l) = (uint32_t)n;
	}
	return SIM_OK;
}

/* TEX, TLD, TLD4, TXQ: each lane's fetch through device/tex.c (the oracle's too); the
 * coordinates are 1, 2 or 4 registers from a by the geometry (TLD4: a pair), the result the
 * quad d (TXQ: one register). TEXB, TLDB, TLD4B, TXQB name the texture by a handle in a
 * register pair (a texture object): each lane's own, a fault when no --tex owns it.
 * A channel mask (TEX/TLD's fourth operand, sm_35's MASK) writes only the channels it
 * enables, packed into d, d+1, ... (Mesa's nouveau codegen defines a texture instruction's
 * results the same way: one per enabled channel of its mask, in order). TLD.AOFFI adds the
 * offsets in the register after the coordinates (the fourth of .3D's quad) to them: signed
 * 4-bit fields, x in bits 0..3, y 4..7, z 8..11, as nouveau's nv50_ir_lowering_nvc0.cpp
 * packs them for Kepler's TLD ((offset & 0xf) << (c * 4)). */
static const DevTex *tex_of(Gpu *g, Warp *w, const DIns *d, int at, unsigned l)
{
	uint64_t h;
	const DevTex *x;

	if (d->op != OP_TEXB && d->op != OP_TLDB && d->op != OP_TLD4B && d->op != OP_TXQB)
		return &g->tex[d->o[at].imm];
	h = src64(g, w, &d->o[at], l);
	if (!(x = dev_binds_texobj(&g->binds, h)))
		sim_fault(g, w, (int)l, SIM_FAULT, "texture handle 0x%" PRIx64 " is no --tex binding's "
		          "(--arg tex:NAME passes one)", h);
	return x;
}

int sim_tex(Gpu *g, Warp *w, const DIns *d, uint32_t ex)
{
	int arr = (d->m.flags & MF_ARRAY) != 0;
	int geom = d->op == OP_TLD4 || d->op == OP_TLD4B ? 2 :
	           d->m.sub == SUB_CUBE ? (arr ? DEV_TEX_ACUBE : DEV_TEX_CUBE) :
	           d->m.sub == SUB_2D ? (arr ? DEV_TEX_A2D : DEV_TEX_2D) :
	           d->m.sub == SUB_3D ? DEV_TEX_3D : arr ? DEV_TEX_A1D : DEV_TEX_1D;
	/* the registers of coordinates: .1D.ARRAY 2, .2D.ARRAY and .CUBE 3, .CUBE.ARRAY 4 */
	int ncoords = geom <= DEV_TEX_3D ? geom : geom == DEV_TEX_A1D ? 2 :
	              geom == DEV_TEX_ACUBE ? 4 : 3;
	int comp = d->m.sub == SUB_G ? 1 : d->m.sub == SUB_B ? 2 : d->m.sub == SUB_A ? 3 : 0;
	unsigned mask = d->op != OP_TLD4 && d->op != OP_TLD4B && d->o[3].kind == DK_IMM ?
	                (unsigned)d->o[3].imm & 0xf : 0xf;
	int aoffi = (d->op == OP_TLD || d->op == OP_TLDB) && (d->m.flags & MF_AOFFI) &&
	            !(d->m.flags & MF_ARRAY);

	if (d->op == OP_TXQ || d->op == OP_TXQB) {
		FOR_LANES(ex) {
			const DevTex *x = tex_of(g, w, d, 1, l);
			if (!x)
				return SIM_FAULT;
			REG(d->o[0].reg, l) = dev_tex_query(x, (DevTexQuery)d->o[2].imm);
		}
		return SIM_OK;
	}
	FOR_LANES(ex) {
		const DevTex *x = tex_of(g, w, d, 2, l);
		uint32_t c[4] = {0, 0, 0, 0}, out[4];
		const char *bad;
		int n = 0;
		if (!x)
			return SIM_FAULT;
		if ((bad = dev_tex_geom_bad(x, geom))) {
			sim_fault(g, w, (int)l, SIM_FAULT, "%s", bad);
			return SIM_FAULT;
		}
		for (int k = 0; k < ncoords; k++)
			c[k] = REG(d->o[1].reg + k, l);
		if (aoffi) {
			uint32_t off = REG(d->o[1].reg + (geom == 3 ? 3 : geom), l);
			for (int k = 0; k < geom; k++)
				c[k] += (uint32_t)((int32_t)(off << (28 - 4 * k)) >> 28);
		}
		if (d->op == OP_TLD4 || d->op == OP_TLD4B)
			dev_tex_gather(x, comp, c, out);
		else
			dev_tex_fetch(x, geom, d->op == OP_TEX || d->op == OP_TEXB, c, out);
		for (int k = 0; k < 4; k++)
			if (mask >> k & 1)
				REG(d->o[0].reg + n++, l) = out[k];
	}
	return SIM_OK;
}

/* the surface of SULD/SUST/SUQ (slot operand at), or of SULDB/SUSTB/SUQB (a handle in the
 * pair at: lane l's own, a fault when no --surf owns it) */
static const DevSurf *surf_of(Gpu *g, Warp *w, const DIns *d, int at, unsigned l)
{
	uint64_t h;
	const DevSurf *x;

	if (d->op != OP_SULDB && d->op != OP_SUSTB && d->op != OP_SUQB && d->op != OP_SUSTPB)
		return &g->surf[d->o[at].imm];
	h = src64(g, w, &d->o[at], l);
	if (!(x = dev_binds_surfobj(&g->binds, h)))
		sim_fault(g, w, (int)l, SIM_FAULT, "surface handle 0x%" PRIx64 " is no --surf "
		          "binding's (--arg surf:NAME passes one)", h);
	return x;
}

/* SUSTP, SUSTPB: each lane's channel (d >> 2) of the sample at its coordinates (x a sample
 * index), its source converted to the channel's type (device/tex.c's dev_surf_at_p, the
 * oracle's too), stored as global memory; a channel the surface lacks is no store */
static int surf_store_p(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e, int geom)
{
	int ch = (int)(d->o[3].imm >> 2), mode = (int)(d->o[3].imm & 3);

	e->size = 4;
	FOR_LANES(ex) {
		const DevSurf *x = surf_of(g, w, d, 2, l);
		int32_t c[3] = {0, 0, 0};
		uint32_t v;
		unsigned size;
		int fault;
		uint8_t *p, b[4];
		uint64_t a;
		if (!x)
			return SIM_FAULT;
		for (int k = 0; k < geom; k++)
			c[k] = (int32_t)REG(d->o[1].reg + k, l);
		v = REG(d->o[0].reg, l);
		a = dev_surf_at_p(x, geom, c, ch, mode, &v, &size, &fault);
		if (fault)
			return sim_fault(g, w, (int)l, SIM_FAULT, "formatted surface store of channel %d at "
			                 "(%d, %d, %d) is outside surface '%s' (%u x %u x %u elements; .trap)",
			                 ch, c[0], c[1], c[2], x->s->name, x->s->dims[0], x->s->dims[1],
			                 x->s->dims[2]);
		if (!a)
			continue;
		if (!(p = sim_mem_at(g, w, l, SP_GLOBAL, a, size, 1, 0, &e->space)))
			return SIM_FAULT;
		e->size = (uint8_t)size;
		e->naddr |= 1u << l;
		e->addr[l] = a;
		dev_st(b, size, v);
		gstore(g, w, p, a, size, b);
	}
	return SIM_OK;
}

/* SULD, SUST: the element of each lane's coordinates (device/tex.c's dev_surf_at, the oracle's
 * too) accessed as global memory; .trap's outside is a fault, .zero's a load of 0 and no
 * store. SUQ: an attribute of the binding. SULDB, SUSTB, SUQB: the same on surface objects. */
int sim_surf(Gpu *g, Warp *w, const DIns *d, uint32_t ex, ExecInfo *e)
{
	int geom = d->m.sub == SUB_3D ? 3 : d->m.sub == SUB_2D ? 2 : 1;
	int store = d->op == OP_SUST || d->op == OP_SUSTB;
	unsigned size = msize((Type)d->m.dtype);

	if (d->op == OP_SUSTP || d->op == OP_SUSTPB)
		return surf_store_p(g, w, d, ex, e, geom);
	if (d->op == OP_SUQ || d->op == OP_SUQB) {
		FOR_LANES(ex) {
			const DevSurf *x = surf_of(g, w, d, 1, l);
			if (!x)
				return SIM_FAULT;
			REG(d->o[0].reg, l) = dev_surf_query(x, (DevTexQuery)d->o[2].imm);
		}
		return SIM_OK;
	}
	e->size = (uint8_t)size;
	e->space = SP_GLOBAL;   /* (with no address when every lane's element is .zero outside) */
	FOR_LANES(ex) {
		const DevSurf *x = surf_of(g, w, d, 2, l);
		int32_t c[3] = {0, 0, 0};
		int fault;
		uint8_t *p;
		uint64_t a;
		if (!x)
			return SIM_FAULT;
		for (int k = 0; k < geom; k++)
			c[k] = (int32_t)REG(d->o[1].reg + k, l);
		a = dev_surf_at(x, geom, c, size, (int)d->o[3].imm, &fault);
		if (fault)
			return sim_fault(g, w, (int)l, SIM_FAULT, "%s of %u bytes at (%d, %d, %d) is outside "
			                 "surface '%s' (%u x %u x %u elements; .trap)", store ? "surface store" :
			                 "surface load", size, c[0], c[1], c[2], x->s->name, x->s->dims[0],
			                 x->s->dims[1], x->s->dims[2]);
		if (!a) {           /* .zero outside: reads 0, writes nothing */
			if (!store)
				for (unsigned k = 0; k < (size + 3) / 4; k++)
					REG(d->o[0].reg + k, l) = 0;
			continue;
		}
		if (!(p = sim_mem_at(g, w, l, SP_GLOBAL, a, size, store, 0, &e->space)))
			return SIM_FAULT;
		e->naddr |= 1u << l;
		e->addr[l] = a;
		if (store) {
			uint8_t v[8];
			dev_st(v, size, size == 8 ? src64(g, w, &d->o[0], l) : (uint64_t)REG(d->o[0].reg, l));
			gstore(g, w, p, a, size, v);
			continue;
		}
		uint8_t buf[8];
		p = (uint8_t *)gload(g, w, p, a, size, buf);
		if (size == 8) {
			uint64_t v = dev_ld(p, 8);
			REG(d->o[0].reg, l) = (uint32_t)v;
			REG(d->o[0].reg + 1, l) = (uint32_t)(v >> 32);
		} else
			REG(d->o[0].reg, l) = (uint32_t)dev_ld(p, size);
	}
	return SIM_OK;
}
