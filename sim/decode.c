/* decode.c - turns a Kernel's instructions into the simulator's DIns form once per launch:
 * register rows (RZ to zero/sink rows), predicate indexes, constant operands without an
 * index register read from the banks (already written by the launch), targets as code
 * indexes; and beside each DIns its timing form (TInst: unit, latency class, control flag,
 * the scoreboard ids read and written). Reports malformed instructions (targets outside the
 * code, .S on control ops). */
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "sim/machine.h"

/* ---------------------------------------------------------------- decoding */
static int derr(Gpu *g, FILE *err, const Ins *in, const char *msg, uint64_t v)
{
	char buf[160];

	isa_format_ins(buf, sizeof buf, g->k, in);
	if (g->listing && in->line)
		fprintf(err, "%s:%d: error: ", g->listing, in->line);
	else
		fprintf(err, "warpsim: error: kernel '%s', pc 0x%04x: ", g->k->name, in->addr);
	fprintf(err, msg, v);
	fprintf(err, "\n    %s\n", buf);
	return -1;
}

/* registers first .. first+n-1 on the scoreboard (RZ and anything past R254 are not) */
static void tregs(SbUse *u, int dst, int first, int n)
{
	for (int k = 0; k < n && first + k < ISA_RZ; k++)
		sim_sb_use_id(u, dst, SB_R(first + k));
}

/* the timing form of one instruction (docs/timing.md, "Integration"): the guard, every
 * register slot with its width, address and constant-index base registers (a pair for a
 * 64-bit .E address), predicate slots, CC read by .X forms and CC tests, written by .CC */
void sim_tdecode(const Ins *in, TInst *t, SbUse *u)
{
	const OpInfo *oi = &isa_ops[in->op];
	int wide = (in->m.flags & MF_E) && (oi->unit == UNIT_LSU_GLOBAL);

	memset(t, 0, sizeof *t);
	memset(u, 0, sizeof *u);
	t->unit = (uint8_t)oi->unit;
	t->lat = (uint8_t)oi->lat;
	if (in->op == OP_MUFU && (in->m.sub == SUB_SIN || in->m.sub == SUB_COS))
		t->lat = LAT_SINCOS;
	t->ctrl = (oi->flags & (F_BRANCH | F_PUSH | F_TARGET)) || in->op == OP_NOP ||
	          in->op == OP_EXIT || in->op == OP_MEMBAR;
	if (in->guard < ISA_PT)
		sim_sb_use_id(u, 0, SB_P(in->guard));
	for (int j = 0; j < ISA_MAXOPD; j++) {
		const Opd *o = &in->o[j];
		int dst = isa_ins_writes(in, j);
		switch ((OpdKind)o->kind) {
		case OPD_REG:
			tregs(u, dst, o->reg, isa_ins_nregs(in, j));
			break;
		case OPD_PRED:
			if (o->reg < ISA_PT)
				sim_sb_use_id(u, dst, SB_P(o->reg));
			break;
		case OPD_MEM:
			tregs(u, 0, o->reg, wide ? 2 : 1);
			break;
		case OPD_CONST:
			tregs(u, 0, o->reg, 1);
			break;
		case OPD_CC:
			sim_sb_use_id(u, 0, SB_CC);
			break;
		case OPD_NONE: case OPD_IMM: case OPD_SREG: case OPD_TARGET: case OPD_TLIST:
			break;
		}
	}
	if (in->m.flags & MF_X)
		sim_sb_use_id(u, 0, SB_CC);
	if (in->m.flags & MF_CC)
		sim_sb_use_id(u, 1, SB_CC);
	sim_tinst_use(t, u);
}

/* The register rows cta_start clears (Gpu.clr): the rows below the zero rows that a lane may
 * read before it writes them. Every lane of a warp starts at the kernel's first instruction,
 * all together, so up to the first instruction after which some lanes may be elsewhere or
 * gone (a branch, a push, a barrier, an EXIT, a .S) every lane runs each instruction in
 * order. A row whose first access there is an unguarded write of the whole register by an op
 * that writes its destination outright and at once (ops.def's F_WHOLE; not a load, whose value
 * a windowed run writes later) holds its old value in no lane: it need not be cleared. Every
 * other row is: a source (an address or constant index as a pair), a guarded write and a
 * destination of any other op count as reads. A partial warp's missing lanes never write
 * (handlers keep the old value outside their mask): slot_alloc zeroes all its rows. */
static int clear_rows(Gpu *g)
{
	const Kernel *k = g->k;
	uint8_t *first = calloc((size_t)g->zrow, 1);   /* 0 untouched, 1 written, 2 read */
	int n = 0;

	if (!first)
		return -1;
	for (int i = 0; i < k->nins; i++) {
		const Ins *in = &k->ins[i];
		int guarded = in->guard != ISA_PT || in->gneg, whole;

		if (in->sync || (isa_ops[in->op].flags & (F_BRANCH | F_PUSH | F_TARGET | F_BARRIER |
		    F_DIVERGE | F_INDIRECT | F_MACRO)) || in->op == OP_EXIT)
			break;
		whole = !guarded && (isa_ops[in->op].flags & F_WHOLE);
		for (int pass = 0; pass < 2; pass++)     /* the reads, then the writes */
			for (int j = 0; j < ISA_MAXOPD; j++) {
				const Opd *o = &in->o[j];
				int w = o->kind == OPD_REG && isa_ins_writes(in, j), nr;
				if (o->reg == ISA_RZ || (o->kind != OPD_REG && o->kind != OPD_MEM &&
				    o->kind != OPD_CONST) || (pass == 1) != (w && whole))
					continue;
				nr = o->kind == OPD_REG ? isa_ins_nregs(in, j) : 2;
				for (int r = o->reg; r < o->reg + nr && r < g->zrow; r++)
					if (!first[r])
						first[r] = (uint8_t)(pass ? 1 : 2);
			}
	}
	g->clr = calloc((size_t)g->zrow / 2 + 1, sizeof *g->clr);
	if (!g->clr) {
		free(first);
		return -1;
	}
	for (int r = 0; r < g->zrow; r++)
		if (first[r] != 1) {
			if (n && g->clr[n - 1][0] + g->clr[n - 1][1] == r)
				g->clr[n - 1][1]++;
			else {
				g->clr[n][0] = r;
				g->clr[n++][1] = 1;
			}
		}
	g->nclr = n;
	free(first);
	return 0;
}

_Static_assert((ISA_NREGS + 12) * 32 * sizeof(uint32_t) <= 0xffff, "DOpd.roff: every row's offset in 16 bits");

int sim_decode(Gpu *g, FILE *err)
{
	const Kernel *k = g->k;
	int maxreg = -1;
	SbUse *tuse = NULL;

	for (int i = 0; i < k->nins; i++)
		for (int j = 0; j < ISA_MAXOPD; j++) {
			const Opd *o = &k->ins[i].o[j];
			if ((o->kind == OPD_REG || o->kind == OPD_MEM || o->kind == OPD_CONST) &&
			    o->reg != ISA_RZ && o->reg > maxreg)
				maxreg = o->reg;
		}
	/* every register a pair or quad may touch, then 4 zero rows and 4 sink rows */
	g->zrow = (k->regs > maxreg + 4 ? k->regs : maxreg + 4);
	g->srow = g->zrow + 4;
	g->rows = g->srow + 4;
	g->ncode = k->nins;
	g->code = calloc((size_t)k->nins + 1, sizeof *g->code);   /* (+1: funcrun.c's end mark, zero) */
	g->tl = calloc(k->ntl ? k->ntl : 1, sizeof *g->tl);
	{   /* +1: a pc past the end; 64-byte aligned (a TInst a cache line), then their SbUse
	     * (TInst.use) in the same block, which free(g->tcode) frees */
		size_t n = (size_t)k->nins + 1, sz = n * (sizeof(TInst) + sizeof(SbUse));
		sz = (sz + 63) & ~(size_t)63;
		g->tcode = aligned_alloc(64, sz);
		if (g->tcode) {
			memset(g->tcode, 0, sz);
			tuse = (SbUse *)(void *)(g->tcode + n);
			g->tcode[n - 1].use = &tuse[n - 1];
		}
	}
	if (!g->code || !g->tl || !g->tcode) {
		fprintf(err, "warpsim: out of memory\n");
		return -1;
	}
	for (int i = 0; i < k->ntl; i++)
		g->tl[i] = (uint32_t)isa_kernel_index(k, k->tl[i]);   /* checked below */
	for (int i = 0; i < k->nins; i++) {
		const Ins *in = &k->ins[i];
		DIns *d = &g->code[i];
		const ShapeInfo *sh;

		if (in->op >= OP_COUNT)
			return derr(g, err, in, "opcode %" PRIu64 " is not an opcode", in->op);
		sh = isa_shape(isa_ops[in->op].shape);
		sim_tdecode(in, &g->tcode[i], &tuse[i]);
		d->op = in->op;
		d->guard = in->guard > ISA_PT ? ISA_PT : in->guard;
		d->sync = in->sync;
		d->m = in->m;
		d->in = in;
		d->cct = CCT_T;
		if (in->sync && (isa_ops[in->op].flags & (F_BRANCH | F_PUSH | F_BARRIER)))
			return derr(g, err, in, "'.S' on a control or barrier instruction is not supported%.0" PRIu64 "s", 0);
		for (int j = 0; j < ISA_MAXOPD; j++) {
			const Opd *o = &in->o[j];
			DOpd *x = &d->o[j];
			int dst = j < sh->n && sh->dst[j];
			x->flags = o->flags;
			x->imm = (uint64_t)o->imm;
			switch ((OpdKind)o->kind) {
			case OPD_NONE:
				x->kind = DK_NONE;
				break;
			case OPD_REG:
				x->kind = DK_REG;
				x->reg = o->reg == ISA_RZ ? (dst ? g->srow : g->zrow) : o->reg;
				break;
			case OPD_PRED:
				x->kind = DK_PRED;
				x->reg = (dst && o->reg >= ISA_PT) ? ISA_PT + 1 : (o->reg > ISA_PT ? ISA_PT : o->reg);
				break;
			case OPD_IMM:
				x->kind = DK_IMM;
				break;
			case OPD_CONST:
				x->bank = o->bank;
				if (o->reg == ISA_RZ) {
					uint64_t v = 0;
					if (!dev_mem_cread(g->mem, o->bank, (uint64_t)o->imm, &v, 8) &&
					    !dev_mem_cread(g->mem, o->bank, (uint64_t)o->imm, &v, 4))
						return derr(g, err, in, "constant operand at offset 0x%" PRIx64 " is outside its bank", (uint64_t)o->imm);
					x->kind = DK_IMM;
					x->imm = v;
				} else {
					x->kind = DK_CONSTX;
					x->reg = o->reg;
					d->hasconstx = 1;
				}
				break;
			case OPD_MEM:
				x->kind = DK_MEM;
				x->reg = o->reg == ISA_RZ ? g->zrow : o->reg;
				break;
			case OPD_SREG:
				x->kind = DK_SREG;
				break;
			case OPD_TARGET:
				x->kind = DK_TARGET;
				if (o->imm < 0 || o->imm > 0xffffffffll || isa_kernel_index(k, (uint32_t)o->imm) < 0)
					return derr(g, err, in, "target 0x%" PRIx64 " is not an instruction of the kernel", (uint64_t)o->imm);
				d->target = (uint32_t)isa_kernel_index(k, (uint32_t)o->imm);
				x->imm = d->target;
				break;
			case OPD_TLIST:
				x->kind = DK_TLIST;
				x->n = o->n;
				if (o->imm < 0 || o->imm + o->n > k->ntl)
					return derr(g, err, in, "target list %" PRIu64 " is outside the kernel's lists", (uint64_t)o->imm);
				for (int t = 0; t < o->n; t++)
					if (isa_kernel_index(k, k->tl[o->imm + t]) < 0)
						return derr(g, err, in, "target 0x%" PRIx64 " is not an instruction of the kernel", k->tl[o->imm + t]);
				break;
			case OPD_CC:
				x->kind = DK_CC;
				if (in->op != OP_CSETP)     /* CSETP reads its test as data (x->imm) */
					d->cct = (uint8_t)o->imm;
				break;
			}
			x->roff = (uint16_t)(x->reg * 32u * sizeof(uint32_t));
		}
		sim_choose_fn(d);
		if (d->op == OP_S2R)
			sim_choose_s2r(d, g->block, g->grid);
		d->gxor = in->gneg ? ~0u : 0;
		/* (the one rule for an issue in which no lane runs it: exec.c's quiet(), and the
		 * lean forms but LEAN_FN lean only then) */
		d->quiet = d->fn || d->op == OP_NOP || d->op == OP_EXIT || d->op == OP_BRA;
		if (d->quiet && d->cct == CCT_T && !d->hasconstx)
			d->lean = d->op == OP_BRA ? LEAN_BRA : !d->fn ? (d->op == OP_EXIT ? LEAN_QUIET : LEAN_NO) :
			          d->sync ? LEAN_QUIET : LEAN_FN;
		/* a control instruction with a short path (exec.c's flow()) */
		d->flow = d->lean == LEAN_BRA || d->lean == LEAN_QUIET ||
		          ((isa_ops[d->op].flags & F_PUSH) && !(isa_ops[d->op].flags & F_BRANCH));
		g->tcode[i].flow = d->flow;
		if (d->lean) {          /* its lean form for the issue stage (timing.h) */
			TInst *t = &g->tcode[i];
			t->lean = d->lean;
			t->guard = d->guard;
			t->gxor = d->gxor;
			t->target = d->target;
			t->fn = d->fn;
		}
		g->tcode[i].pc = (uint32_t)i;   /* (the short path's too) */
		g->tcode[i].d = d;
	}
	/* the scoreboard ids the kernel can write end below sbtop */
	g->sbtop = 1;
	for (int i = 0; i < k->nins; i++) {
		const SbUse *u = g->tcode[i].use;
		for (int j = u->nsrc; j < u->nsrc + u->ndst; j++)
			if (u->id[j] >= g->sbtop)
				g->sbtop = (uint16_t)(u->id[j] + 1);
	}
	/* (Kepler) immediates that are a half of a module variable's address, placed by now */
	for (int i = 0; i < k->nabs32; i++) {
		const CodeReloc *r = &k->abs32[i];
		int j = isa_kernel_index(k, r->addr), s = 0;
		uint64_t a;
		while (j >= 0 && s < ISA_MAXOPD && k->ins[j].o[s].kind != OPD_IMM)
			s++;
		if (j < 0 || s == ISA_MAXOPD || !(a = dev_mem_global_addr(g->mem, k->globals[r->var].name)))
			return derr(g, err, j >= 0 ? &k->ins[j] : &k->ins[0], ".abs32 0x%" PRIx64 ": no "
			            "immediate to relocate, or its variable was not placed", r->addr);
		a += (uint32_t)k->ins[j].o[s].imm;
		g->code[j].o[s].imm = r->hi ? a >> 32 : (uint32_t)a;
	}
	if (clear_rows(g)) {
		fprintf(err, "warpsim: out of memory\n");
		return -1;
	}
	return 0;
}

