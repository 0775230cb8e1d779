/* util.c - what every backend pass uses: vectors in the per-function pool, temporaries and
 * operands, located diagnostics, structural checks of the IR and the -d printer. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"

_Noreturn void be_die(const char *file, int line, const char *msg)
{
	fprintf(stderr, "%s:%d: internal error: %s\n", file, line, msg);
	abort();
}

/* ------------------------------------------------------------------ vectors */
void be_grow(Pool *p, void *v, int *cap, int n, size_t sz)
{
	void **vp = v;
	int nc;
	void *nv;

	if (n <= *cap)
		return;
	nc = *cap ? *cap * 2 : 8;
	while (nc < n)
		nc *= 2;
	nv = be_alloc(p, (size_t)nc * sz);
	if (*cap)
		memcpy(nv, *vp, (size_t)*cap * sz);
	*vp = nv;
	*cap = nc;
}

/* ------------------------------------------------------------------ temporaries, blocks */
int be_newtmp(Fn *f, int cls)
{
	Tmp *t = VPUSH(f->pool, f->tmp, f->ntmp, f->captmp);

	t->cls = (uint8_t)cls;
	t->phys = -1;
	t->ptxreg = -1;
	t->slot = -1;
	t->split = 0;
	return f->ntmp - 1;
}

/* the temporary class of a PTX type */
int be_regcls(int ptype)
{
	int n = ptx_type_bytes((PType)ptype);

	if (ptype == PT_PRED)
		return TC_P;
	return n == 16 ? TC_R4 : n == 8 ? TC_R2 : TC_R;
}

int be_newblk(Fn *f)
{
	Blk *b = VPUSH(f->pool, f->blk, f->nblk, f->capblk);

	f->exitin = NULL;   /* (pbk.c's live sets are of the code before the block) */
	b->id = f->nblk - 1;
	b->s1 = b->s2 = -1;
	b->idom = b->ipdom = -1;
	b->loop = -1;
	b->rpo = -1;
	b->tjoin = -1;
	b->brkj = -1;
	b->bpath.start = -1;
	b->jmp.ptxins = -1;
	b->jmp.cond = -1;
	*VPUSH(f->pool, f->lay, f->nlay, f->caplay) = b->id;
	return b->id;
}

int be_has_push(const Blk *b, int t)
{
	for (int k = 0; k < b->npush; k++)
		if (b->push[k] == t)
			return 1;
	return 0;
}

void be_lay_move(Fn *f, int b, int where, int after)
{
	int i, j = -1;

	for (i = 0; i < f->nlay && f->lay[i] != b; i++)
		;
	if (i == f->nlay)
		die("block not in the layout");
	memmove(&f->lay[i], &f->lay[i + 1], sizeof(int) * (size_t)(f->nlay - i - 1));
	f->nlay--;
	for (i = 0; i < f->nlay; i++)
		if (f->lay[i] == where)
			j = i;
	if (j < 0)
		die("block not in the layout");
	j += after;
	memmove(&f->lay[j + 1], &f->lay[j], sizeof(int) * (size_t)(f->nlay - j));
	f->lay[j] = b;
	f->nlay++;
}

MIns *be_emit(Fn *f, Blk *b, Op op)
{
	MIns *in = VPUSH(f->pool, b->ins, b->nins, b->cap);
	const PIns *p = f->cur_ptx >= 0 && f->cur_ptx < f->pf->nins ? &f->pf->ins[f->cur_ptx] : NULL;

	in->op = (uint16_t)op;
	in->guard = T_PT;
	in->ptxline = p ? p->loc.line : 0;
	in->srcline = p ? p->srcline : 0;
	in->srcfile = (int16_t)(p ? p->srcfile : -1);
	return in;
}

MOpd be_r(int t) { MOpd o = {0}; o.kind = OPD_REG; o.t = t; return o; }
MOpd be_rpart(int t, int part) { MOpd o = be_r(t); o.part = (uint8_t)(part + 1); return o; }
MOpd be_p(int t) { MOpd o = {0}; o.kind = OPD_PRED; o.t = t; return o; }
MOpd be_pn(int t, int neg) { MOpd o = be_p(t); o.flags = neg ? OPF_NOT : 0; return o; }
MOpd be_imm(int64_t v) { MOpd o = {0}; o.kind = OPD_IMM; o.imm = v; o.t = T_RZ; return o; }
MOpd be_cst(int bank, int64_t off)
{
	MOpd o = {0};
	o.kind = OPD_CONST; o.bank = (uint8_t)bank; o.imm = off; o.t = T_RZ;
	return o;
}
MOpd be_mem(int base, int64_t off) { MOpd o = {0}; o.kind = OPD_MEM; o.t = base; o.imm = off; return o; }

void be_addpred(Fn *f, int b, int p)
{
	Blk *B = &f->blk[b];

	for (int i = 0; i < B->npred; i++)
		if (B->pred[i] == p)
			return;
	*VPUSH(f->pool, B->pred, B->npred, B->cappred) = p;
}

void be_preds(Fn *f)
{
	for (int i = 0; i < f->nblk; i++)
		f->blk[i].npred = 0;
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = &f->blk[i];
		if (b->dead)
			continue;
		if (b->s1 >= 0)
			be_addpred(f, b->s1, i);
		if (b->s2 >= 0)
			be_addpred(f, b->s2, i);
		if (b->jmp.kind == J_BRX)
			for (int k = 0; k < b->jmp.ntl; k++)
				be_addpred(f, f->tl[b->jmp.tl + k], i);
	}
}

/* ------------------------------------------------------------------ diagnostics */
void be_errorf(Fn *f, PLoc loc, const char *fmt, ...)
{
	const Module *m = f->m;
	va_list ap;

	f->nerr++;
	if (!f->err)
		return;
	size_t len;
	const char *src = ptx_loc_src(m, loc, &len);

	fprintf(f->err, "%s:%d:%d: error: ", m->name ? ptx_loc_name(m, loc) : "<ptx>", loc.line,
	        loc.col);
	va_start(ap, fmt);
	vfprintf(f->err, fmt, ap);
	va_end(ap);
	fputc('\n', f->err);
	if (loc.line > 0 && src) {
		const char *s = src, *e;
		for (int l = 1; l < loc.line && *s; s++)
			if (*s == '\n')
				l++;
		for (e = s; *e && *e != '\n'; e++)
			;
		fprintf(f->err, "%.*s\n", (int)(e - s), s);
		for (int c = 1; c < loc.col && s + c - 1 < e; c++)
			fputc(s[c - 1] == '\t' ? '\t' : ' ', f->err);
		fputs("^\n", f->err);
	}
}

void be_unsup(Fn *f, const PIns *in, const char *what)
{
	be_errorf(f, in->loc, "unsupported: %s%s%s", ptx_op_name((POp)in->op), what ? ": " : "",
	          what ? what : "");
}

/* ------------------------------------------------------------------ liveness */
void be_visit(const MIns *in, BeVisit *fn, void *ctx)
{
	const ShapeInfo *si = isa_shape(isa_ops[in->op].shape);

	/* reads first, then writes: an instruction reads its sources before it writes */
	if (in->guard != T_PT)
		fn(ctx, in->guard, 0, 0);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < in->nopd; i++) {
			const MOpd *o = &in->o[i];
			int dst = i < si->n && si->dst[i];
			switch ((OpdKind)o->kind) {
			case OPD_REG: case OPD_PRED:
				if (o->t < T_FIRST || dst != pass)
					break;
				if (dst)
					fn(ctx, o->t, 1, (in->guard == T_PT || in->gkill) && !o->part);
				else
					fn(ctx, o->t, 0, 0);
				break;
			case OPD_MEM: case OPD_CONST: case OPD_TLIST:
				if (o->t >= T_FIRST && pass == 0)
					fn(ctx, o->t, 0, 0);
				break;
			case OPD_NONE: case OPD_IMM: case OPD_SREG: case OPD_TARGET: case OPD_CC:
				break;
			}
		}
}

void be_v_def(void *ctx, int t, int def, int kill)
{
	(void)kill;
	if (def)
		BSET((uint32_t *)ctx, t);
}

static void v_genkill(void *ctx, int t, int def, int kill)
{
	uint32_t **gk = ctx;
	if (!def) {
		if (!BHAS(gk[1], t))
			BSET(gk[0], t);
	} else if (kill) {
		BSET(gk[1], t);
	}
	/* a partial or guarded definition neither reads nor kills: the old value stays live
	 * across it exactly when it is live after it (the lanes or half it does not write) */
}

void be_genkill(const Blk *b, uint32_t *gen, uint32_t *kill)
{
	uint32_t *gk[2] = {gen, kill};

	for (int k = 0; k < b->nins; k++)
		be_visit(&b->ins[k], v_genkill, gk);
	if (b->jmp.cond >= T_FIRST && (b->jmp.kind == J_BRA || b->jmp.kind == J_BRX))
		v_genkill(gk, b->jmp.cond, 0, 0);
}

uint32_t *be_livein(const Fn *f, int w, uint32_t **kill)
{
	size_t n = (size_t)w * (size_t)f->nblk;
	uint32_t *gen = be_alloc(f->pool, sizeof(uint32_t) * n);
	uint32_t *k = be_alloc(f->pool, sizeof(uint32_t) * n);
	uint32_t *in = be_alloc(f->pool, sizeof(uint32_t) * n);

	for (int i = 0; i < f->nblk; i++)
		if (!f->blk[i].dead)
			be_genkill(&f->blk[i], gen + (size_t)i * (size_t)w, k + (size_t)i * (size_t)w);
	be_live(f, w, gen, k, NULL, NULL, in, NULL);
	if (kill)
		*kill = k;
	return in;
}

void be_live(const Fn *f, int w, const uint32_t *gen, const uint32_t *kill, const uint32_t *min,
             const uint32_t *mout, uint32_t *in, uint32_t *out)
{
	uint32_t *tmp = be_alloc(f->pool, sizeof(uint32_t) * (size_t)(w + 1));
	int changed = 1;

	while (changed) {
		changed = 0;
		for (int i = f->nblk - 1; i >= 0; i--) {
			const Blk *b = &f->blk[i];
			size_t at = (size_t)i * (size_t)w;
			if (b->dead)
				continue;
			memset(tmp, 0, sizeof(uint32_t) * (size_t)w);
			for (int k = 0; k < be_nsucc(b); k++)
				if (be_succ(f, b, k) >= 0)
					for (int j = 0; j < w; j++)
						tmp[j] |= in[(size_t)be_succ(f, b, k) * (size_t)w + j];
			for (int j = 0; j < w; j++) {
				uint32_t x;
				if (mout)
					tmp[j] &= mout[at + j];
				x = gen[at + j] | (tmp[j] & ~kill[at + j]);
				if (min)
					x &= min[at + j];
				if (x != in[at + j]) {
					in[at + j] = x;
					changed = 1;
				}
			}
			if (out)
				memcpy(out + at, tmp, sizeof(uint32_t) * (size_t)w);
		}
	}
}

/* ------------------------------------------------------------------ checks */
int be_check_ir(Fn *f, const char *after)
{
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = &f->blk[i];
		if (b->dead)
			continue;
		for (int k = 0; k < b->nins; k++) {
			MIns *in = &b->ins[k];
			if (in->op >= OP_COUNT)
				goto bad;
			for (int j = 0; j < in->nopd; j++) {
				MOpd *o = &in->o[j];
				if ((o->kind == OPD_REG || o->kind == OPD_PRED || o->kind == OPD_MEM ||
				     o->kind == OPD_CONST) && (o->t < 0 || o->t >= f->ntmp))
					goto bad;
				if (o->kind == OPD_PRED && f->tmp[o->t].cls != TC_P)
					goto bad;
				if (o->kind == OPD_REG && f->tmp[o->t].cls == TC_P)
					goto bad;
			}
			if (in->guard < 0 || in->guard >= f->ntmp || f->tmp[in->guard].cls != TC_P)
				goto bad;
		}
		switch ((JmpKind)b->jmp.kind) {
		case J_JMP: if (b->s1 < 0 || b->s2 >= 0) goto bad; break;
		case J_BRA: if (b->s1 < 0 || b->s2 < 0 || b->jmp.cond < 0) goto bad; break;
		case J_EXIT: case J_RET: if (b->s1 >= 0 || b->s2 >= 0) goto bad; break;
		case J_BRX: if (b->jmp.ntl <= 0) goto bad; break;
		case J_NONE: goto bad;
		}
		if ((b->s1 >= 0 && f->blk[b->s1].dead) || (b->s2 >= 0 && f->blk[b->s2].dead))
			goto bad;
		continue;
	bad:
		fprintf(stderr, "backend: IR check failed after %s in %s, block %d\n", after,
		        f->pf->name, i);
		be_dump(stderr, f, after);
		die("malformed IR");
	}
	return 0;
}

/* ------------------------------------------------------------------ printer */
static void dump_opd(FILE *o, Fn *f, const MOpd *p)
{
	const char *pre = (p->flags & OPF_NEG) ? "-" : (p->flags & OPF_NOT) ? (p->kind == OPD_PRED ? "!" : "~") : "";
	const char *abs = (p->flags & OPF_ABS) ? "|" : "";
	char reg[32];

	if (p->kind == OPD_REG || p->kind == OPD_MEM || p->kind == OPD_CONST) {
		const Tmp *t = &f->tmp[p->t];
		if (p->t == T_RZ)
			snprintf(reg, sizeof reg, "RZ");
		else if (t->phys >= 0)
			snprintf(reg, sizeof reg, "R%d", t->phys + (p->part ? p->part - 1 : 0));
		else if (p->part)
			snprintf(reg, sizeof reg, "%%%d.%d", p->t, p->part - 1);
		else
			snprintf(reg, sizeof reg, "%%%d", p->t);
	}
	switch ((OpdKind)p->kind) {
	case OPD_REG: fprintf(o, "%s%s%s%s", pre, abs, reg, abs); break;
	case OPD_PRED:
		if (p->t == T_PT)
			fprintf(o, "%sPT", pre);
		else if (f->tmp[p->t].phys >= 0)
			fprintf(o, "%sP%d", pre, f->tmp[p->t].phys);
		else
			fprintf(o, "%s%%p%d", pre, p->t);
		break;
	case OPD_IMM: fprintf(o, "0x%llx", (unsigned long long)p->imm); break;
	case OPD_CONST:
		if (p->t == T_RZ)
			fprintf(o, "%s%sc[0x%x][0x%llx]%s", pre, abs, p->bank, (unsigned long long)p->imm, abs);
		else
			fprintf(o, "%sc[0x%x][%s+0x%llx]", pre, p->bank, reg, (unsigned long long)p->imm);
		break;
	case OPD_MEM: fprintf(o, "[%s+0x%llx]", reg, (unsigned long long)p->imm); break;
	case OPD_SREG: fprintf(o, "%s", isa_sreg_name((SReg)p->imm)); break;
	case OPD_TARGET:
		if (p->imm < 0)
			fprintf(o, "%s", f->m->funcs[-1 - p->imm].name);
		else
			fprintf(o, "@b%lld", (long long)p->imm);
		break;
	case OPD_TLIST:
		fputc('{', o);
		for (int i = 0; i < p->n; i++)
			fprintf(o, "%s@b%d", i ? ", " : "", f->tl[p->imm + i]);
		fputc('}', o);
		break;
	case OPD_CC: fprintf(o, "CC.%s", isa_cct_name((CCTest)p->imm)); break;
	case OPD_NONE: fprintf(o, "_"); break;
	}
}

static void dump_ins(FILE *o, Fn *f, const MIns *in)
{
	const Mods *m = &in->m;

	fprintf(o, "\t");
	if (in->guard != T_PT) {
		MOpd g = be_pn(in->guard, in->gneg);
		fputc('@', o);
		dump_opd(o, f, &g);
		fputc(' ', o);
	}
	fprintf(o, "%s", isa_ops[in->op].name);
	if (m->sub) fprintf(o, ".%s", isa_sub_name((Sub)m->sub));
	if (m->cmp) fprintf(o, ".%s", isa_cmp_name((Cmp)m->cmp));
	if (m->dtype) fprintf(o, ".%s", isa_type_name((Type)m->dtype));
	if (m->stype) fprintf(o, ".%s", isa_type_name((Type)m->stype));
	for (int b = 0; b < 16; b++)
		if (m->flags & (1u << b))
			fprintf(o, ".%s", isa_flag_name(b));
	if (m->rnd) fprintf(o, ".%s", isa_rnd_name((Rnd)m->rnd));
	if (m->bop) fprintf(o, ".%s", isa_bop_name((Bop)m->bop));
	if (m->bop2) fprintf(o, ".%s", isa_bop_name((Bop)m->bop2));
	if (in->sync) fprintf(o, ".S");
	for (int i = 0; i < in->nopd; i++) {
		fputs(i ? ", " : " ", o);
		dump_opd(o, f, &in->o[i]);
	}
	fputs(";\n", o);
}

void be_dump(FILE *o, Fn *f, const char *after)
{
	static const char *jn[] = {"?", "jmp", "bra", "exit", "ret", "brx"};

	fprintf(o, "## %s after %s\n", f->pf->name, after);
	for (int i = 0; i < f->nblk; i++) {
		Blk *b = &f->blk[i];
		if (b->dead)
			continue;
		fprintf(o, "@b%d:", i);
		if (b->idom >= 0 || b->ipdom >= 0)
			fprintf(o, "  # idom @b%d ipdom %s%d", b->idom, b->ipdom >= f->nblk ? "exit" : "@b",
			        b->ipdom >= f->nblk ? 0 : b->ipdom);
		if (b->loop >= 0)
			fprintf(o, " loop %d", b->loop);
		for (int k = 0; k < b->npush; k++)
			fprintf(o, " ssy->@b%d", b->push[k]);
		fputc('\n', o);
		for (int k = 0; k < b->nins; k++)
			dump_ins(o, f, &b->ins[k]);
		fprintf(o, "\t%s", jn[b->jmp.kind]);
		if (b->jmp.kind == J_BRA) {
			MOpd c = be_pn(b->jmp.cond, b->jmp.neg);
			fputc(' ', o);
			dump_opd(o, f, &c);
			fprintf(o, "%s%s", b->jmp.uni ? " uni" : "", b->jmp.div ? " div" : "");
		}
		if (b->s1 >= 0)
			fprintf(o, " @b%d%s", b->s1, b->arrive1 ? ".S" : "");
		if (b->s2 >= 0)
			fprintf(o, " @b%d%s", b->s2, b->arrive2 ? ".S" : "");
		if (b->jmp.kind == J_BRX)
			for (int k = 0; k < b->jmp.ntl; k++)
				fprintf(o, " @b%d", f->tl[b->jmp.tl + k]);
		fputc('\n', o);
	}
}

/* ---------------------------------------------------------------- edges and pushes (sync.c,
 * irred.c, pbk.c) */
/* a new empty block that jumps to t (placed and given its loop by the caller) */
int be_jump_blk(Fn *f, int t)
{
	int x = be_newblk(f);
	Blk *X = &f->blk[x];

	X->jmp.kind = J_JMP;
	X->s1 = t;
	X->ipdom = t;
	X->pfirst = X->plast = f->blk[t].pfirst;
	return x;
}

/* does j post-dominate b (on the post-dominator tree computed before sync) */
int be_postdominates(const Fn *f, int j, int b)
{
	for (int x = b, n = 0; x >= 0 && x < f->nblk && n <= f->nblk; x = f->blk[x].ipdom, n++)
		if (x == j)
			return 1;
	return 0;
}

/* the target of edge e of block b (e = 0, 1: s1, s2; e >= 2: BRX target e - 2) */
int be_edge_to(const Fn *f, int b, int e)
{
	const Blk *B = &f->blk[b];

	return e == 0 ? B->s1 : e == 1 ? B->s2 : f->tl[B->jmp.tl + e - 2];
}

/* points edge e of block b at x */
void be_set_edge(Fn *f, int b, int e, int x)
{
	Blk *B = &f->blk[b];

	f->exitin = NULL;   /* (pbk.c's live sets are of the edges before) */
	if (e == 0)
		B->s1 = x;
	else if (e == 1)
		B->s2 = x;
	else
		f->tl[B->jmp.tl + e - 2] = x;
}

/* add target j to the pushes of block p, outermost (post-dominating) target first */
void be_add_push(Fn *f, int p, int j)
{
	Blk *b = &f->blk[p];
	int at = b->npush;

	if (be_has_push(b, j))
		return;
	VPUSH(f->pool, b->push, b->npush, b->cappush);
	/* an inner target is post-dominated by an outer one: the outer is pushed first */
	for (int k = 0; k < at; k++)
		if (!be_postdominates(f, b->push[k], j)) {
			at = k;
			break;
		}
	memmove(&b->push[at + 1], &b->push[at], sizeof(int) * (size_t)(b->npush - 1 - at));
	b->push[at] = j;
}

/* a copy of block t (a one-block loop is copied with its back edge), placed last in the
 * layout; its edges lead where t's do */
int be_copy_blk(Fn *f, int t)
{
	int c = be_newblk(f);
	Blk *T = &f->blk[t], *C = &f->blk[c];

	for (int k = 0; k < T->nins; k++)
		*VPUSH(f->pool, C->ins, C->nins, C->cap) = T->ins[k];
	for (int k = 0; k < T->npush; k++)
		*VPUSH(f->pool, C->push, C->npush, C->cappush) = T->push[k];
	C->jmp = T->jmp;
	C->s1 = T->s1 == t ? c : T->s1;
	C->s2 = T->s2 == t ? c : T->s2;
	if (T->jmp.kind == J_BRX) {
		/* its own target list (emission gives it its own jump table) */
		C->jmp.tl = f->ntl;
		for (int k = 0; k < T->jmp.ntl; k++) {
			int x = f->tl[T->jmp.tl + k];
			*VPUSH(f->pool, f->tl, f->ntl, f->captl) = x == t ? c : x;
		}
	}
	C->pfirst = T->pfirst;
	C->plast = T->plast;
	C->loop = T->loop;
	C->ipdom = T->ipdom;
	C->livein = T->livein;
	C->liveout = T->liveout;
	C->din = T->din;
	C->dout = T->dout;
	memcpy(C->why, T->why, sizeof C->why);
	return c;
}

/* how many edges block b has: s1, s2, then a BRX's targets (edge_to's numbering) */
int be_nedge(const Fn *f, int b)
{
	return 2 + (f->blk[b].jmp.kind == J_BRX ? f->blk[b].jmp.ntl : 0);
}

/* in writes temporary t, as a register or predicate destination */
int be_writes(const MIns *in, int t)
{
	const ShapeInfo *si = NULL;   /* (asked only of an operand that names t) */

	for (int i = 0; i < in->nopd; i++)
		if ((in->o[i].kind == OPD_REG || in->o[i].kind == OPD_PRED) && in->o[i].t == t) {
			if (!si)
				si = isa_shape(isa_ops[in->op].shape);
			if (i < si->n && si->dst[i])
				return 1;
		}
	return 0;
}
