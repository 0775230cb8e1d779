/* flow.c - the oracle's data movement (mov, cvta, isspacep), memory (ld, st, atom, red),
 * control flow (bra, brx.idx, call with its .param copies, ret), barrier arrival, the warp
 * collectives (shfl, vote, activemask, match, redux, elect, bar.warp.sync) and the located
 * run-time messages. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "oracle/internal.h"

#define FR(t) (&(t)->fr[(t)->nfr - 1])
#define FN(o, t) (&(o)->m->funcs[FR(t)->fi])

static int tbytes(int type) { return ptx_type_bytes((PType)type); }

/* ---------------------------------------------------------------- messages */
static void srcline(FILE *f, const Module *m, PLoc l)
{
	size_t len;
	const char *s = ptx_loc_src(m, l, &len), *end;
	int n = 1, line = l.line, col = l.col;

	if (!s || line <= 0)
		return;
	for (; *s && n < line; s++)
		if (*s == '\n')
			n++;
	if (!*s)
		return;
	end = strchr(s, '\n');
	if (!end)
		end = s + strlen(s);
	fprintf(f, "%.*s\n", (int)(end - s), s);
	for (int i = 1; i < col && s + i - 1 < end; i++)
		fputc(s[i - 1] == '\t' ? '\t' : ' ', f);
	fprintf(f, "^\n");
}

void or_error(Oracle *o, const Thread *t, int kind, const char *fmt, ...)
{
	va_list ap;
	const PIns *in = NULL;
	const char *fname = "?";

	if (o->result)
		return;
	o->result = kind;
	if (t && t->nfr) {
		in = or_cur(o, t);
		fname = o->m->funcs[t->fr[t->nfr - 1].fi].name;
		if (t->fr[t->nfr - 1].pc >= o->m->funcs[t->fr[t->nfr - 1].fi].nins)
			in = NULL;
	}
	if (in)
		fprintf(o->err, "%s:%d:%d: error: ", ptx_loc_name(o->m, in->loc), in->loc.line,
		        in->loc.col);
	else
		fprintf(o->err, "warpsim: oracle: error: ");
	va_start(ap, fmt);
	vfprintf(o->err, fmt, ap);
	va_end(ap);
	fprintf(o->err, "\n");
	if (t)
		fprintf(o->err, "  in '%s', CTA (%u,%u,%u), thread (%u,%u,%u)\n", fname, o->ctaid[0],
		        o->ctaid[1], o->ctaid[2], t->tid[0], t->tid[1], t->tid[2]);
	if (in)
		srcline(o->err, o->m, in->loc);
}

/* ---------------------------------------------------------------- mov, cvta */
void or_mov(Oracle *o, Thread *t, const PIns *in)
{
	int ty = in->m.types[0], bits = 8 * tbytes(ty);
	const POpd *d = &in->o[0], *s = &in->o[1];

	if (d->kind == POK_VEC && s->kind == POK_VEC) {   /* mov.vN {d..}, {a..}: read all first */
		uint64_t v[8];
		for (int i = 0; i < s->nelems && i < 8; i++)
			v[i] = ty == PT_PRED ? (uint64_t)or_getp(o, t, &s->elems[i]) : or_get(o, t, &s->elems[i], ty);
		for (int i = 0; i < d->nelems && i < s->nelems && i < 8; i++)
			or_put(o, t, &d->elems[i], v[i]);
	} else if (ty == PT_PRED) {
		or_put(o, t, d, or_getp(o, t, s));
	} else if (s->kind == POK_LABEL) {        /* a label's value (docs/frontend.md) */
		or_put(o, t, d, (uint64_t)FN(o, t)->labels[s->sym].value);
	} else if (d->kind == POK_VEC) {          /* unpack: mov.b64 {lo, hi}, x */
		uint64_t v = or_get(o, t, s, ty);
		int w = bits / d->nelems;
		for (int i = 0; i < d->nelems; i++)
			or_put(o, t, &d->elems[i], or_zext(v >> (w * i), w));
	} else if (s->kind == POK_VEC) {          /* pack: mov.b64 x, {lo, hi} */
		uint64_t v = 0;
		int w = bits / s->nelems;
		PType et = w == 8 ? PT_B8 : w == 16 ? PT_B16 : w == 32 ? PT_B32 : PT_B64;
		for (int i = 0; i < s->nelems; i++)
			v |= or_get(o, t, &s->elems[i], et) << (w * i);
		or_put(o, t, d, v);
	} else
		or_put(o, t, d, or_get(o, t, s, ty));
}

static int isshared(int s) { return s == PS_SHARED || s == PS_SHARED_CTA || s == PS_SHARED_CLUSTER; }

static int inwin(uint64_t a, uint64_t base) { return a >= base && a - base < DEV_WINDOW_SIZE; }

void or_cvta(Oracle *o, Thread *t, const PIns *in)
{
	int space = in->m.space, ty = in->m.types[0];
	uint64_t a, win = 0;

	if (in->op == PO_ISSPACEP && (space == PS_PARAM || space == PS_PARAM_ENTRY ||
	                              space == PS_PARAM_FUNC)) {
		/* the generic address space here has windows for shared, local and constant memory
		 * only, everything else is global: no generic address is a param one */
		or_put(o, t, &in->o[0], 0);
		return;
	}
	a = or_get(o, t, &in->o[1], ty);
	if (isshared(space))
		win = DEV_SHARED_WINDOW;
	else if (space == PS_LOCAL)
		win = DEV_LOCAL_WINDOW;
	else if (space == PS_CONST)
		win = DEV_CONST_WINDOW;
	else if (space != PS_GLOBAL) {
		or_error(o, t, OR_UNSUP, "unsupported: generic addresses of the %s space",
		         ptx_space_name((PSpace)space));
		return;
	}
	if (in->op == PO_ISSPACEP) {
		int r = win ? inwin(a, win) : !inwin(a, DEV_SHARED_WINDOW) && !inwin(a, DEV_LOCAL_WINDOW) &&
		        !inwin(a, DEV_CONST_WINDOW);
		or_put(o, t, &in->o[0], r);
	} else if (in->m.flags & PMF_TO)
		or_put(o, t, &in->o[0], win && inwin(a, win) ? a - win : a);
	else
		or_put(o, t, &in->o[0], a + win);
}

/* ---------------------------------------------------------------- memory */
/* the address of a [..] operand and the space it is in */
static uint64_t address(Oracle *o, Thread *t, const POpd *ad, int *space)
{
	if (ad->kind != POK_ADDR) {
		or_error(o, t, OR_UNSUP, "unsupported: a memory operand that is not [address]");
		return 0;
	}
	if (ad->sym >= 0) {
		if (*space == PS_NONE) {
			/* a variable named in a generic access: its generic address */
			int s = or_sym_space(o, t, ad->symkind, ad->sym);
			uint64_t a = or_sym_addr(o, t, ad->symkind, ad->sym) + (uint64_t)ad->imm;
			*space = s == PS_GLOBAL || s == PS_SHARED || s == PS_LOCAL || s == PS_PARAM ||
			         s == PS_CONST ? s : PS_GLOBAL;
			return a;
		}
		return or_sym_addr(o, t, ad->symkind, ad->sym) + (uint64_t)ad->imm;
	}
	if (ad->reg >= 0)
		return t->regs[FR(t)->regs + ad->reg] + (uint64_t)ad->imm;
	return (uint64_t)ad->imm;
}

static uint8_t *access(Oracle *o, Thread *t, const PIns *in, const POpd *ad, unsigned size, int write)
{
	int space = in->m.space;
	uint64_t a = address(o, t, ad, &space);

	if (o->result)
		return NULL;
	if (o->m->address_size == 32 && space == PS_NONE)
		a = (uint32_t)a;
	return or_ptr(o, t, space, a, size, write);
}

/* the binding of the texture (surf 0) or surface (surf 1) operand h: a reference's, resolved at
 * load (or_load), or the object's whose handle h's register holds (--arg tex:NAME, surf:NAME);
 * NULL after the error */
static const void *bound(Oracle *o, Thread *t, const POpd *h, int surf)
{
	static const char *const what[2] = { "texture", "surface" }, *const opt[2] = { "tex", "surf" };
	static const char *const use[2] = { "read", "used" };
	const void *x;

	if (h->reg >= 0) {
		uint64_t hv = t->regs[FR(t)->regs + h->reg];
		if (!(x = surf ? (const void *)dev_binds_surfobj(&o->binds, hv) :
		          (const void *)dev_binds_texobj(&o->binds, hv)))
			or_error(o, t, OR_FAULT, "%s handle 0x%" PRIx64 " is no --%s binding's (--arg "
			         "%s:NAME passes one)", what[surf], hv, opt[surf], opt[surf]);
		return x;
	}
	if (!(x = surf ? (const void *)dev_binds_surf(&o->binds, o->bindof[h->sym]) :
	          (const void *)dev_binds_tex(&o->binds, o->bindof[h->sym])))
		or_error(o, t, OR_BADLAUNCH, "%s '%s' is %s, but no --%s binds it", what[surf],
		         o->m->vars[h->sym].name, use[surf], opt[surf]);
	return x;
}

/* the geometry of a tex or tld4 (DEV_TEX_*) */
static int tex_geom(const PIns *in)
{
	static const int g[PGEOM_COUNT] = {
		[PGEOM_1D] = DEV_TEX_1D, [PGEOM_2D] = DEV_TEX_2D, [PGEOM_3D] = DEV_TEX_3D,
		[PGEOM_A1D] = DEV_TEX_A1D, [PGEOM_A2D] = DEV_TEX_A2D, [PGEOM_CUBE] = DEV_TEX_CUBE,
		[PGEOM_ACUBE] = DEV_TEX_ACUBE,
	};
	return g[in->m.geom] ? g[in->m.geom] : DEV_TEX_1D;
}

/* tex.GEOM.v4.D.C d, [t, {c..}], tld4 and txq: one fetch or query through device/tex.c, the
 * SM model's sampler; an array's index (the first coordinate) is read as .u32 */
void or_tex(Oracle *o, Thread *t, const PIns *in)
{
	static const int ncoords[] = { 1, 1, 2, 3, 2, 3, 3, 4 };
	const POpd *d = &in->o[0], *c = &in->o[2];
	int geom = tex_geom(in), arr = geom == DEV_TEX_A1D || geom == DEV_TEX_A2D ||
	           geom == DEV_TEX_ACUBE;
	uint32_t cc[4] = {0, 0, 0, 0}, out[4];
	const DevTex *x = bound(o, t, &in->o[1], 0);
	const char *bad;

	if (!x)
		return;
	if (in->op == PO_TXQ) {
		or_put(o, t, d, dev_tex_query(x, (DevTexQuery)(in->m.txq - PTXQ_WIDTH)));
		return;
	}
	if ((bad = dev_tex_geom_bad(x, geom))) {
		or_error(o, t, OR_FAULT, "%s", bad);
		return;
	}
	for (int k = 0; k < ncoords[geom] && k < c->nelems; k++)
		cc[k] = (uint32_t)or_get(o, t, &c->elems[k], arr && k == 0 ? PT_U32 : in->m.types[1]);
	if (in->op == PO_TLD4)
		dev_tex_gather(x, in->m.comp - PCOMP_R, cc, out);
	else
		dev_tex_fetch(x, geom, in->m.types[1] == PT_F32, cc, out);
	for (int k = 0; k < 4 && k < d->nelems; k++)
		or_put(o, t, &d->elems[k], out[k]);
}

/* suld.b, sust.b: one access per element (x advanced by its bytes) at the address
 * device/tex.c's dev_surf_at gives, the SM model's too, through global memory; suq */
void or_surf(Oracle *o, Thread *t, const PIns *in)
{
	int store = in->op == PO_SUST, at = store ? 0 : 1;
	const POpd *h = &in->o[in->op == PO_SUQ ? 1 : at];
	const POpd *c = &in->o[at + 1], *val = &in->o[store ? 2 : 0];
	/* a layered surface is the 2D or 3D one its layers make, the layer index (first) last */
	int arr = in->m.geom == PGEOM_A1D || in->m.geom == PGEOM_A2D;
	int geom = in->m.geom == PGEOM_3D || in->m.geom == PGEOM_A2D ? 3 :
	           in->m.geom == PGEOM_2D || in->m.geom == PGEOM_A1D ? 2 : 1;
	int ty = in->m.types[0], es = tbytes(ty), n = in->m.vec > 1 ? in->m.vec : 1;
	int mode = in->m.sumode == PSUMODE_CLAMP ? DEV_SU_CLAMP : in->m.sumode == PSUMODE_ZERO ?
	           DEV_SU_ZERO : DEV_SU_TRAP;
	int32_t cc[3] = {0, 0, 0};
	const DevSurf *x = bound(o, t, h, 1);

	if (!x)
		return;
	if (in->op == PO_SUQ) {
		or_put(o, t, &in->o[0], dev_surf_query(x, (DevTexQuery)(in->m.txq - PTXQ_WIDTH)));
		return;
	}
	for (int k = 0; k < geom; k++)
		cc[k] = (int32_t)or_get(o, t, &c->elems[arr ? (k + 1) % geom : k], PT_S32);
	if (in->m.comp == PCOMP_P) {
		/* sust.p: element e is the sample's channel e, converted (device/tex.c) */
		for (int e = 0; e < n; e++) {
			uint32_t v = (uint32_t)or_get(o, t, val->kind == POK_VEC ? &val->elems[e] : val, ty);
			unsigned size;
			int fault;
			uint64_t a = dev_surf_at_p(x, geom, cc, e, mode, &v, &size, &fault);
			uint8_t *p;
			if (fault) {
				or_error(o, t, OR_FAULT, "formatted surface store of channel %d at (%d, %d, %d) "
				         "is outside surface '%s' (%u x %u x %u elements; .trap)", e, cc[0],
				         cc[1], cc[2], x->s->name, x->s->dims[0], x->s->dims[1], x->s->dims[2]);
				return;
			}
			if (!a)
				continue;
			if (!(p = or_ptr(o, t, PS_GLOBAL, a, size, 1)))
				return;
			dev_st(p, size, v);
		}
		return;
	}
	for (int e = 0; e < n; e++) {
		const POpd *d = val->kind == POK_VEC ? &val->elems[e] : val;
		int32_t ce[3] = {cc[0] + e * es, cc[1], cc[2]};
		int fault;
		uint64_t a = dev_surf_at(x, geom, ce, (unsigned)es, mode, &fault);
		uint8_t *p;
		if (fault) {
			or_error(o, t, OR_FAULT, "surface %s of %d bytes at (%d, %d, %d) is outside surface "
			         "'%s' (%u x %u x %u elements; .trap)", store ? "store" : "load", es, ce[0],
			         ce[1], ce[2], x->s->name, x->s->dims[0], x->s->dims[1], x->s->dims[2]);
			return;
		}
		if (!a) {
			if (!store)
				or_put(o, t, d, 0);
			continue;
		}
		if (!(p = or_ptr(o, t, PS_GLOBAL, a, (unsigned)es, store)))
			return;
		if (store)
			dev_st(p, (unsigned)es, or_get(o, t, d, ty));
		else
			or_put(o, t, d, dev_ld(p, (unsigned)es));
	}
}

void or_ld(Oracle *o, Thread *t, const PIns *in)
{
	int ty = in->m.types[0], es = tbytes(ty), vec = in->m.vec ? in->m.vec : 1;
	int sign = ptx_type_kind((PType)ty) == PTK_SIGNED;
	const POpd *d = &in->o[0];
	uint8_t *p;

	if (es > 8 || es == 0) {
		or_error(o, t, OR_UNSUP, "unsupported: %s loads", ptx_type_name((PType)ty));
		return;
	}
	if (!(p = access(o, t, in, &in->o[1], es * vec, 0)))
		return;
	for (int i = 0; i < vec; i++) {
		uint64_t v = dev_ld(p + i * es, es);
		if (sign)
			v = or_sext(v, 8 * es);
		or_put(o, t, d->kind == POK_VEC ? &d->elems[i] : d, v);
	}
}

void or_st(Oracle *o, Thread *t, const PIns *in)
{
	int ty = in->m.types[0], es = tbytes(ty), vec = in->m.vec ? in->m.vec : 1;
	const POpd *s = &in->o[1];
	uint64_t v[8];
	uint8_t *p;

	if (es > 8 || es == 0 || vec > 8) {
		or_error(o, t, OR_UNSUP, "unsupported: %s stores", ptx_type_name((PType)ty));
		return;
	}
	for (int i = 0; i < vec; i++)   /* read the values before the address faults */
		v[i] = or_get(o, t, s->kind == POK_VEC ? &s->elems[i] : s, ty);
	if (!(p = access(o, t, in, &in->o[0], es * vec, 1)))
		return;
	for (int i = 0; i < vec; i++)
		dev_st(p + i * es, es, v[i]);
}

/* cp.async: the copy completes at once, a legal schedule of the asynchronous copy (its
 * cp.async.wait_group/wait_all then have nothing left to wait for): cp-size bytes into
 * .shared, the first src-size of them from .global (byte accesses when fewer than cp-size:
 * the bytes beyond src-size are never read), the rest zero; a true ignore-src: all zero */
void or_cp_async(Oracle *o, Thread *t, const PIns *in)
{
	PIns g = *in;
	unsigned cp = (unsigned)in->o[2].imm, n = cp;
	int si = ptx_cp_async_src(FN(o, t), in);
	uint8_t buf[16] = {0}, *p;

	if (si >= 0 && in->o[si].kind == POK_REG && FN(o, t)->regs[in->o[si].reg].type == PT_PRED) {
		n = or_getp(o, t, &in->o[si]) ? 0 : cp;
	} else if (si >= 0) {
		uint64_t s = or_get(o, t, &in->o[si], PT_U32);
		if (s > cp) {
			or_error(o, t, OR_FAULT, "cp.async: src-size %llu is larger than the cp-size %u "
			         "(undefined in PTX)", (unsigned long long)s, cp);
			return;
		}
		n = (unsigned)s;
	}
	g.m.space = PS_GLOBAL;
	if (n == cp) {
		if (!(p = access(o, t, &g, &in->o[1], cp, 0)))
			return;
		memcpy(buf, p, cp);
	} else {
		for (unsigned i = 0; i < n; i++) {
			POpd a = in->o[1];
			a.imm += (int64_t)i;
			if (!(p = access(o, t, &g, &a, 1, 0)))
				return;
			buf[i] = *p;
		}
	}
	g.m.space = PS_SHARED;
	if ((p = access(o, t, &g, &in->o[0], cp, 1)))
		memcpy(p, buf, cp);
}

/* .f16, .bf16 and their pairs .f16x2, .bf16x2: an atom or red on them is add.noftz (PTX ISA,
 * "atom", "red": the one scalar operation they have, which requires .noftz) */
static int ishalf(int ty)
{
	return ty == PT_F16 || ty == PT_F16X2 || ty == PT_BF16 || ty == PT_BF16X2;
}

/* atom.add.noftz on a half type: each half old + b, rounded to nearest even, subnormal
 * inputs and results kept (.noftz), a NaN the canonical one: add.rn of the half type */
static uint64_t half_add(int ty, uint64_t old, uint64_t b)
{
	int bf = ty == PT_BF16 || ty == PT_BF16X2, n = ty == PT_F16X2 || ty == PT_BF16X2 ? 2 : 1;
	uint64_t r = 0;

	for (int h = 0; h < n; h++) {
		uint64_t x = old >> 16 * h & 0xffff, y = b >> 16 * h & 0xffff;
		r |= (bf ? or_bf16_arith(PO_ADD, x, y) : or_fbin(PO_ADD, PT_F16, x, y, PRND_RN, 0)) << 16 * h;
	}
	return r;
}

/* the new memory value of an atomic from the old one */
static uint64_t atomop(Oracle *o, Thread *t, const PIns *in, uint64_t old, uint64_t b, uint64_t c)
{
	int ty = in->m.types[0], bits = 8 * tbytes(ty), sign = ptx_type_kind((PType)ty) == PTK_SIGNED;
	uint64_t mask = or_zext(~0ull, bits);

	if (ishalf(ty))   /* (or_atom took only add.noftz) */
		return half_add(ty, old, b);
	if (or_isfloat(ty)) {
		Type st = ptxisa_type(ty);
		if (in->m.aop == PAOP_EXCH)
			return b;
		if ((in->m.aop == PAOP_ADD || in->m.aop == PAOP_MIN || in->m.aop == PAOP_MAX) &&
		    (st == TY_F32 || st == TY_F64)) {
			if (in->m.aop == PAOP_ADD)   /* shared with sim: RN, subnormals flushed for f32 */
				return ar_atom(SUB_ADD, st, old, b, 0, st == TY_F32);
			return or_fminmax(ty, old, b, in->m.aop == PAOP_MAX, 0, 0);
		}
		or_error(o, t, OR_UNSUP, "unsupported: atom%s on %s", ptx_aop_name((PAop)in->m.aop),
		         ptx_type_name((PType)ty));
		return old;
	}
	switch ((PAop)in->m.aop) {
	case PAOP_AND: return old & b;
	case PAOP_OR: return old | b;
	case PAOP_XOR: return old ^ b;
	case PAOP_CAS: return old == b ? c : old;
	case PAOP_EXCH: return b;
	case PAOP_ADD: return (old + b) & mask;
	case PAOP_INC: return old >= b ? 0 : old + 1;
	case PAOP_DEC: return old == 0 || old > b ? b : old - 1;
	case PAOP_MIN: case PAOP_MAX: {
		int lt = sign ? (int64_t)or_sext(old, bits) < (int64_t)or_sext(b, bits) : old < b;
		return (in->m.aop == PAOP_MAX) == lt ? b : old;
	}
	case PAOP_NONE: case PAOP_POPC: case PAOP_COUNT:
		break;
	}
	or_error(o, t, OR_UNSUP, "unsupported: atomic operation '%s'", ptx_aop_name((PAop)in->m.aop));
	return old;
}

/* atom: d = [a]; [a] = op([a], b[, c]); red: the same without d. Applied at once, in the
 * order the threads run. */
void or_atom(Oracle *o, Thread *t, const PIns *in)
{
	int ty = in->m.types[0], es = tbytes(ty), isred = in->op == PO_RED;
	const POpd *ad = &in->o[isred ? 0 : 1];
	uint64_t b = or_get(o, t, &in->o[isred ? 1 : 2], ty), c = 0, old;
	uint8_t *p;

	if (!isred && in->nopd > 3)
		c = or_get(o, t, &in->o[3], ty);
	if (ishalf(ty) && (in->m.aop != PAOP_ADD || !(in->m.flags & PMF_NOFTZ))) {
		or_error(o, t, OR_UNSUP, "unsupported: %s%s%s on %s: the PTX ISA defines only "
		         "%s.add.noftz%s on it", isred ? "red" : "atom", ptx_aop_name((PAop)in->m.aop),
		         in->m.flags & PMF_NOFTZ ? ".noftz" : "", ptx_type_name((PType)ty),
		         isred ? "red" : "atom", ptx_type_name((PType)ty));
		return;
	}
	if (es != 4 && es != 8 && !ishalf(ty)) {
		or_error(o, t, OR_UNSUP, "unsupported: %s atomics", ptx_type_name((PType)ty));
		return;
	}
	if (!(p = access(o, t, in, ad, es, 1)))
		return;
	old = dev_ld(p, es);
	dev_st(p, es, atomop(o, t, in, old, b, c));
	if (!isred)
		or_put(o, t, &in->o[0], old);
}

/* ---------------------------------------------------------------- control */
/* bra %r{, tlist}: the label whose value %r holds, which must be in tlist (a .branchtargets
 * list or a jump table's initializer), or with no tlist any label whose address is taken */
static int ibra(Oracle *o, Thread *t, const PIns *in, const PFunc *f)
{
	const POpd *tl = in->nopd >= 2 ? &in->o[1] : NULL;
	uint64_t v = or_get(o, t, &in->o[0], f->regs[in->o[0].reg].type);
	int lab = -1, ok = 0;

	for (int i = 0; i < f->nlabels && lab < 0; i++)
		if (f->labels[i].value >= 0 && (uint64_t)f->labels[i].value == v)
			lab = i;
	if (lab >= 0 && (!tl || tl->kind == POK_NONE)) {
		ok = 1;
	} else if (lab >= 0 && tl->kind == POK_TLIST) {
		const PTList *l = &f->tlists[tl->sym];
		for (int i = 0; i < l->ntargets; i++)
			ok |= l->targets[i] == lab;
	} else if (lab >= 0 && tl->kind == POK_SYM) {
		const PVar *jt = &o->m->vars[tl->sym];
		for (int i = 0; i < jt->ninit; i++)
			ok |= jt->init[i].kind == PINIT_LABEL && jt->init[i].sym == lab;
	}
	if (ok)
		return f->labels[lab].pos;
	if (lab < 0)
		or_error(o, t, OR_FAULT, "indirect bra to %llu, which is not the value of a label of '%s' "
		         "whose address is taken", (unsigned long long)v, f->name);
	else
		or_error(o, t, OR_FAULT, "indirect bra to %llu, the value of label '%s', which is not "
		         "in its target list", (unsigned long long)v, f->labels[lab].name);
	return -1;
}

int or_branch(Oracle *o, Thread *t, const PIns *in)
{
	const PFunc *f = FN(o, t);
	const POpd *a = &in->o[0];

	if (in->op == PO_BRA && a->kind == POK_LABEL)
		return f->labels[a->sym].pos;
	if (in->op == PO_BRA)
		return ibra(o, t, in, f);
	{
		/* brx.idx i, tlist: the i-th label of the list */
		uint64_t i = or_get(o, t, a, PT_U32);
		const PTList *tl;
		if (in->nopd < 2 || in->o[1].kind != POK_TLIST) {
			or_error(o, t, OR_UNSUP, "unsupported: brx.idx without a target list");
			return -1;
		}
		tl = &f->tlists[in->o[1].sym];
		if (i >= (uint64_t)tl->ntargets) {
			or_error(o, t, OR_FAULT, "%s index %llu is outside its %d targets",
			         ptx_op_name((POp)in->op), (unsigned long long)i, tl->ntargets);
			return -1;
		}
		return f->labels[tl->targets[i]].pos;
	}
}

/* a .reg parameter or return of g is the register of the same name */
static int regbyname(const PFunc *g, const char *name)
{
	for (int i = 0; i < g->nregs; i++)
		if (!strcmp(g->regs[i].name, name))
			return i;
	return -1;
}

/* the bytes of one call argument or return slot, in the current frame */
static int slot_bytes(Oracle *o, Thread *t, const POpd *e, const PVar *v, uint8_t *buf, int write)
{
	uint32_t size = (uint32_t)v->size;

	if (e->kind == POK_SYM) {
		uint8_t *p = or_ptr(o, t, PS_PARAM, or_sym_addr(o, t, e->symkind, e->sym) + (uint64_t)e->imm,
		                    0, write);
		if (!p || !or_ptr(o, t, PS_PARAM, or_sym_addr(o, t, e->symkind, e->sym) + (uint64_t)e->imm + size - 1, 1, write))
			return -1;
		if (write)
			memcpy(p, buf, size);
		else
			memcpy(buf, p, size);
		return 0;
	}
	if (e->kind == POK_VEC) {   /* a vector register: its elements, one after the other */
		uint32_t eb = size / (uint32_t)e->nelems;
		for (int k = 0; k < e->nelems; k++) {
			if (write)
				or_put(o, t, &e->elems[k], dev_ld(buf + k * eb, eb));
			else
				dev_st(buf + k * eb, eb, or_get(o, t, &e->elems[k], v->type));
		}
		return 0;
	}
	if (write) {
		or_put(o, t, e, dev_ld(buf, size > 8 ? 8 : size));
		return 0;
	}
	dev_st(buf, size > 8 ? 8 : size, or_get(o, t, e, v->type));
	return 0;
}

int or_slot_bytes(Oracle *o, Thread *t, const POpd *e, const PVar *v, uint8_t *buf, int write)
{
	return slot_bytes(o, t, e, v, buf, write);
}

/* a call of the extern __assertfail(cond, file, line, function, charsize): a failed
 * device-side assert stops the kernel with CUDA's message for the thread */
static void assert_fail(Oracle *o, Thread *t, const POpd *args, const PFunc *g)
{
	uint8_t v[4][16] = {{0}};
	char msg[900];

	for (int i = 0; i < 4; i++)
		if (slot_bytes(o, t, &args->elems[i], &g->params[i], v[i], 0) || o->result)
			return;
	dev_assert_text(o->mem, dev_ld(v[0], 8), dev_ld(v[1], 8), (uint32_t)dev_ld(v[2], 4),
	                dev_ld(v[3], 8), o->ctaid, t->tid, msg, sizeof msg);
	or_error(o, t, OR_TRAP, "%s", msg);
}

static const uint8_t *print_read(void *ctx, uint64_t addr, unsigned size)
{
	Oracle *o = ((void **)ctx)[0];
	Thread *t = ((void **)ctx)[1];

	return or_ptr(o, t, PS_NONE, addr, size, 0);
}

/* (r) = vprintf(fmt, args), CUDA's printf: the thread prints one line now */
static void printf_call(Oracle *o, Thread *t, const PIns *in, const PFunc *g)
{
	const POpd *args = &in->o[2];
	uint8_t v[2][16] = {{0}}, r[8];
	void *ctx[2] = {o, t};
	DevText text = {0};
	char err[200];
	int n;

	for (int i = 0; i < 2; i++)
		if (slot_bytes(o, t, &args->elems[i], &g->params[i], v[i], 0) || o->result)
			return;
	n = dev_printf(print_read, ctx, dev_ld(v[0], 8), dev_ld(v[1], 8), &text, err, sizeof err);
	if (n == -2)
		or_error(o, t, OR_UNSUP, "unsupported: %s", err);
	if (n >= 0)
		dev_print_line(o->pout, o->ptag, o->ctaid, t->tid, &text);
	free(text.s);
	if (n >= 0 && in->o[0].nelems == 1) {
		dev_st(r, 4, (uint32_t)n);
		slot_bytes(o, t, &in->o[0].elems[0], &g->rets[0], r, 1);
	}
}

void or_call(Oracle *o, Thread *t, const PIns *in)
{
	const POpd *callee = &in->o[1], *args = &in->o[2];
	int fi, callpc = FR(t)->pc;
	const PFunc *g;
	uint8_t *buf;
	uint32_t total = 0, off = 0;

	if (callee->kind == POK_SYM && callee->symkind == PSYM_FUNC)
		fi = callee->sym;
	else {
		uint64_t a = or_get(o, t, callee, PT_U64);
		if (a < OR_FUNC_BASE || (a - OR_FUNC_BASE) % 16 || (a - OR_FUNC_BASE) / 16 >= (uint64_t)o->m->nfuncs) {
			or_error(o, t, OR_FAULT, "indirect call to 0x%llx, which is not a function address",
			         (unsigned long long)a);
			return;
		}
		fi = (int)((a - OR_FUNC_BASE) / 16);
	}
	g = &o->m->funcs[fi];
	if (!g->has_body && !strcmp(g->name, "__assertfail") && g->nparams == 5 &&
	    args->nelems == 5 && g->params[0].size == 8 && g->params[1].size == 8 &&
	    g->params[2].size == 4 && g->params[3].size == 8) {
		assert_fail(o, t, args, g);
		return;
	}
	if (or_cdp_call(o, t, in, g)) {   /* dynamic parallelism (cdp.c) */
		if (!o->result)
			FR(t)->pc = callpc + 1;
		return;
	}
	if (or_heap_call(o, t, in, g)) {   /* malloc, free (heap.c) */
		if (!o->result)
			FR(t)->pc = callpc + 1;
		return;
	}
	if (!g->has_body && !strcmp(g->name, "vprintf") && g->nparams == 2 && args->nelems == 2 &&
	    g->params[0].size == 8 && g->params[1].size == 8 && g->nrets == 1 &&
	    g->rets[0].size == 4 && in->o[0].nelems <= 1) {
		printf_call(o, t, in, g);
		FR(t)->pc = callpc + 1;
		return;
	}
	if (!g->has_body && ptx_cdp_function(g->name)) {
		or_error(o, t, OR_UNSUP, "unsupported: call of '%s': %s is not simulated", g->name,
		         ptx_cdp_unsup(g->name));
		return;
	}
	if (!g->has_body) {   /* the SM model's BPT.TRAP 0x2 (isel_call.c) */
		or_error(o, t, OR_FAULT, "call of '%s', which has no body in this module (an .extern "
		         ".func that another module would define)", g->name);
		return;
	}
	if (g->entry) {
		or_error(o, t, OR_FAULT, "call of kernel '%s' (a kernel cannot be called)", g->name);
		return;
	}
	if (g->unsup_op) {
		ptx_unsup_report(o->err, o->m, g, "error", NULL);
		or_error(o, t, OR_UNSUP, "unsupported: call of '%s', which holds that instruction", g->name);
		return;
	}
	if (args->nelems != g->nparams || in->o[0].nelems > g->nrets) {
		or_error(o, t, OR_FAULT, "call of '%s' with %d arguments and %d results; it takes %d and %d",
		         g->name, args->nelems, in->o[0].nelems, g->nparams, g->nrets);
		return;
	}
	for (int i = 0; i < g->nparams; i++)
		total += (uint32_t)g->params[i].size + 8;
	if (!(buf = calloc(total + 8, 1)))
		die("out of memory");
	/* the arguments are read in the caller's frame, then copied into the callee's */
	for (int i = 0; i < g->nparams && !o->result; i++) {
		slot_bytes(o, t, &args->elems[i], &g->params[i], buf + off, 0);
		off += (uint32_t)g->params[i].size + 8;
	}
	if (!o->result && or_push_frame(o, t, fi, callpc))
		or_error(o, t, OR_FAULT, "call stack overflow: %u bytes of local memory per thread used up",
		         OR_LOCAL_MAX);
	off = 0;
	for (int i = 0; i < g->nparams && !o->result; i++) {
		const PVar *v = &g->params[i];
		if (v->space == PS_REG) {
			int r = regbyname(g, v->name);
			if (r >= 0)
				t->regs[FR(t)->regs + r] = dev_ld(buf + off, v->size > 8 ? 8 : (unsigned)v->size);
		} else
			memcpy(t->local + FR(t)->lbase + o->fi[fi].paroff[i], buf + off, v->size);
		off += (uint32_t)v->size + 8;
	}
	free(buf);
}

void or_ret(Oracle *o, Thread *t)
{
	Frame fr = *FR(t);
	const PFunc *g = &o->m->funcs[fr.fi], *cf;
	const PIns *call;
	uint8_t tmp[8][64];
	int nr;

	if (t->nfr == 1) {   /* ret from the kernel */
		t->state = TS_EXIT;
		return;
	}
	cf = &o->m->funcs[t->fr[t->nfr - 2].fi];
	call = &cf->ins[fr.callpc];
	nr = call->o[0].nelems;
	if (nr > 8) {
		or_error(o, t, OR_UNSUP, "unsupported: more than 8 return values");
		return;
	}
	for (int j = 0; j < nr; j++) {
		const PVar *v = &g->rets[j];
		if (v->size > 64) {
			or_error(o, t, OR_UNSUP, "unsupported: a return value of more than 64 bytes");
			return;
		}
		if (v->space == PS_REG) {
			int r = regbyname(g, v->name);
			dev_st(tmp[j], v->size > 8 ? 8 : (unsigned)v->size, r >= 0 ? t->regs[fr.regs + r] : 0);
		} else
			memcpy(tmp[j], t->local + fr.lbase + o->fi[fr.fi].retoff[j], v->size);
	}
	t->nfr--;
	t->nregs = fr.regs;
	t->lsize = fr.lbase;
	for (int j = 0; j < nr && !o->result; j++)
		slot_bytes(o, t, &call->o[0].elems[j], &g->rets[j], tmp[j], 1);
	FR(t)->pc = fr.callpc + 1;
}

/* bar{.sync,.arrive,.red} and barrier: waits (pc stays on the bar until sched.c releases) */
void or_bar(Oracle *o, Thread *t, const PIns *in)
{
	int red = in->m.bar == PBAR_RED, arrive = in->m.bar == PBAR_ARRIVE, n = in->nopd;
	const POpd *ida = &in->o[red ? 1 : 0];
	uint64_t id = or_get(o, t, ida, PT_U32), cnt = 0;

	if ((red && n > 3) || (!red && n > 1))
		cnt = or_get(o, t, &in->o[red ? 2 : 1], PT_U32);
	if (id >= OR_MAXBAR) {
		or_error(o, t, OR_FAULT, "barrier %llu: PTX has barriers 0..15", (unsigned long long)id);
		return;
	}
	if (arrive) {
		o->bararrive[id]++;
		FR(t)->pc++;
		return;
	}
	t->state = TS_BAR;
	t->barid = (uint8_t)id;
	t->barcount = (uint32_t)cnt;
	t->redpred = red ? (uint8_t)or_getp(o, t, &in->o[n - 1]) : 0;
}
