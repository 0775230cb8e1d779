/* emit.c - prints a generated program as PTX (leaving out dropped nodes, and the helpers no
 * kept call reaches) and its launch file. Labels are numbered at emission, so any subset of
 * nodes prints as a valid program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/gen/gen.h"

typedef struct {
	const GenProg *g;
	const GenEmitOpts *o;
	GenBuf *b;
	int lab;                      /* next label number */
	int func;                     /* emitting a .func */
	int nloop;                    /* loops open */
	int brk[GEN_MAXLOOP + 1];     /* their end labels */
	int cont[GEN_MAXLOOP + 1];    /* their continue labels */
	unsigned char used[GEN_MAXFUNC]; /* helpers a kept call reaches */
} Em;

static int dropped(const Em *e, const GenNode *n)
{
	return e->o && e->o->drop && n->id < e->o->ndrop && e->o->drop[n->id];
}

static void body(Em *e, const GenBody *b);

static void node(Em *e, const GenNode *n)
{
	GenBuf *b = e->b;
	int l0, l1;

	if (dropped(e, n))
		return;
	switch (n->kind) {
	case GN_LEAF:
		gen_printf(b, "%s", n->text);
		if (n->callee >= 0) {
			const GenFunc *f = &e->g->fn[n->callee];
			int k = f->kind == GF_ITGT ? e->g->nitgt : 1;
			for (int i = 0; i < k; i++)
				e->used[n->callee + i] = 1;
		}
		return;
	case GN_IF:
		if (n->text)
			gen_printf(b, "%s", n->text);
		l0 = e->lab++;
		l1 = e->lab++;
		gen_printf(b, "\t@%s bra%s $Lg%d;\n", n->guard, n->uni ? ".uni" : "", n->nbody == 2 ? l0 : l1);
		body(e, &n->body[0]);
		if (n->nbody == 2) {
			gen_printf(b, "\tbra%s $Lg%d;\n$Lg%d:\n", n->uni ? ".uni" : "", l1, l0);
			body(e, &n->body[1]);
		}
		gen_printf(b, "$Lg%d:\n", l1);
		return;
	case GN_LOOP: {
		int lv = n->b, head = e->lab++, cont = e->lab++, end = e->lab++;
		gen_printf(b, "%s$Lg%d:\n", n->text, head);
		if (n->a)
			gen_printf(b, "\tsetp.ge.u32 %%ql%d, %%lc%d, %%lb%d;\n\t@%%ql%d bra%s $Lg%d;\n", lv, lv, lv,
			           lv, n->uni ? ".uni" : "", end);
		e->brk[e->nloop] = end;
		e->cont[e->nloop] = cont;
		e->nloop++;
		body(e, &n->body[0]);
		e->nloop--;
		gen_printf(b, "$Lg%d:\n\tadd.u32 %%lc%d, %%lc%d, 1;\n", cont, lv, lv);
		if (n->guard[0])
			gen_printf(b, "\tadd.u32 %%t0, %%lc%d, %s;\n\tand.b32 %%t0, %%t0, 3;\n"
			           "\tsetp.ne.u32 %%ql%d, %%t0, 0;\n", lv, n->guard, lv);
		else
			gen_printf(b, "\tsetp.lt.u32 %%ql%d, %%lc%d, %%lb%d;\n", lv, lv, lv);
		gen_printf(b, "\t@%%ql%d bra%s $Lg%d;\n", lv, n->uni ? ".uni" : "", head);
		if (n->nbody == 2)
			body(e, &n->body[1]);
		gen_printf(b, "$Lg%d:\n", end);
		return;
	}
	case GN_BREAK:
	case GN_CONT:
		if (!e->nloop)
			return;
		gen_printf(b, "%s\t@%%qs bra $Lg%d;\n", n->text,
		           n->kind == GN_BREAK ? e->brk[e->nloop - 1] : e->cont[e->nloop - 1]);
		return;
	case GN_EXIT: {
		const char *guard = n->a & 2 ? "" : "@%qs ";
		if (n->text)
			gen_printf(b, "%s", n->text);
		if (e->func)
			gen_printf(b, "\tst.param.b32 [rv], %%r%d;\n\t%sret;\n", n->b, guard);
		else
			gen_printf(b, "\t%s%s;\n", guard, n->a & 1 ? "ret" : "exit");
		return;
	}
	case GN_BRX: {
		int t = e->lab++, join = e->lab++, c0 = e->lab;
		e->lab += n->nbody;
		gen_printf(b, "%s\t{\n\t$Lg%d: .branchtargets ", n->text, t);
		for (int s = 0; s < n->nbody; s++)
			gen_printf(b, "%s$Lg%d", s ? ", " : "", c0 + s);
		gen_printf(b, ";\n\tbrx.idx%s %%t3, $Lg%d;\n\t}\n", n->uni ? ".uni" : "", t);
		for (int s = 0; s < n->nbody; s++) {
			gen_printf(b, "$Lg%d:\n", c0 + s);
			body(e, &n->body[s]);
			if (s + 1 < n->nbody)
				gen_printf(b, "\tbra $Lg%d;\n", join);
		}
		gen_printf(b, "$Lg%d:\n", join);
		return;
	}
	}
	fprintf(stderr, "%s:%d: bad node kind %d\n", __FILE__, __LINE__, n->kind);
	exit(3);
}

static void body(Em *e, const GenBody *b)
{
	for (int i = 0; i < b->n; i++)
		node(e, b->v[i]);
}

/* registers every function declares */
static void decls(GenBuf *b)
{
	gen_printf(b, "\t.reg .b32 %%r<%d>;\n\t.reg .b64 %%rd<%d>;\n\t.reg .f32 %%f<%d>;\n"
	           "\t.reg .f64 %%fd<%d>;\n\t.reg .pred %%p<%d>;\n", GEN_NR, GEN_ND, GEN_NF, GEN_NG, GEN_NP);
	gen_printf(b, "\t.reg .pred %%q<%d>;\n\t.reg .pred %%ql<%d>;\n\t.reg .pred %%qs;\n"
	           "\t.reg .b32 %%t<4>;\n\t.reg .b64 %%ta<3>;\n\t.reg .b32 %%lc<%d>;\n\t.reg .b32 %%lb<%d>;\n",
	           GEN_MAXDEPTH, GEN_MAXLOOP, GEN_MAXLOOP, GEN_MAXLOOP);
}

/* every pool register written from %r0 and %r1 (and constants), scratch cleared */
static void init_pools(GenBuf *b, int from_input)
{
	if (!from_input)
		gen_printf(b, "\txor.b32 %%r2, %%r0, 0x80000000;\n\tadd.u32 %%r3, %%r0, %%r1;\n"
		           "\tsub.u32 %%r4, %%r0, %%r1;\n\tmul.lo.u32 %%r5, %%r0, %%r1;\n\tnot.b32 %%r6, %%r0;\n"
		           "\tshr.u32 %%r7, %%r1, 3;\n");
	gen_printf(b, "\tmov.u32 %%r8, 0;\n\tmov.u32 %%r9, 0xFFFFFFFF;\n\tmov.u32 %%r10, 0x80000000;\n"
	           "\tmov.u32 %%r11, 32;\n");
	if (!from_input)
		gen_printf(b, "\tmul.wide.u32 %%rd0, %%r0, %%r1;\n\tmul.wide.s32 %%rd1, %%r1, %%r0;\n"
		           "\tmov.b64 %%rd2, {%%r0, %%r1};\n\tcvt.u64.u32 %%rd3, %%r0;\n");
	gen_printf(b, "\tmov.u64 %%rd4, 0x8000000000000000;\n\tmov.u64 %%rd5, 0xFFFFFFFFFFFFFFFF;\n"
	           "\tmov.b32 %%f0, %%r0;\n\tmov.b32 %%f1, %%r1;\n\tmov.b32 %%f2, %%r2;\n"
	           "\tcvt.rn.f32.s32 %%f3, %%r3;\n\tmov.f32 %%f4, 0f7FC00000;\n\tmov.f32 %%f5, 0f00000001;\n"
	           "\tmov.b64 %%fd0, %%rd2;\n\tmov.b64 %%fd1, %%rd3;\n\tcvt.f64.f32 %%fd2, %%f1;\n"
	           "\tmov.f64 %%fd3, 0d8000000000000000;\n");
	gen_printf(b, "\tsetp.lt.u32 %%p0, %%r0, %%r1;\n\tsetp.ne.u32 %%p1, %%r2, %%r5;\n"
	           "\tsetp.gt.s32 %%p2, %%r4, 0;\n\tand.b32 %%t0, %%r0, 1;\n\tsetp.eq.u32 %%p3, %%t0, 1;\n");
	gen_printf(b, "\tmov.u32 %%t0, 0;\n\tmov.u32 %%t1, 0;\n\tmov.u32 %%t2, 0;\n\tmov.u32 %%t3, 0;\n"
	           "\tmov.u64 %%ta0, 0;\n\tmov.u64 %%ta1, 0;\n\tmov.u64 %%ta2, 0;\n");
	for (int i = 0; i < GEN_MAXLOOP; i++)
		gen_printf(b, "\tmov.u32 %%lc%d, 0;\n\tmov.u32 %%lb%d, 0;\n", i, i);
}

static void func(Em *e, int i)
{
	const GenFunc *f = &e->g->fn[i];
	GenBuf *b = e->b;

	e->func = 1;
	e->nloop = 0;
	switch (f->kind) {
	case GF_PLAIN:
		gen_printf(b, ".func (.param .b32 rv) %s(.param .b32 a, .param .b32 b)\n{\n", f->name);
		decls(b);
		gen_printf(b, "\tld.param.b32 %%r0, [a];\n\tld.param.b32 %%r1, [b];\n");
		break;
	case GF_REC:
		gen_printf(b, ".func (.param .b32 rv) rec(.param .b32 n, .param .b32 x)\n{\n");
		decls(b);
		gen_printf(b, "\t.reg .b32 %%rn;\n\tld.param.b32 %%rn, [n];\n\tld.param.b32 %%r1, [x];\n"
		           "\txor.b32 %%r0, %%r1, %%rn;\n");
		break;
	default:
		gen_printf(b, ".func (.param .b32 rv) %s(.param .b32 a)\n{\n", f->name);
		decls(b);
		gen_printf(b, "\tld.param.b32 %%r0, [a];\n\tmul.lo.u32 %%r1, %%r0, 0x9E3779B9;\n");
		break;
	}
	init_pools(b, 0);
	if (f->kind == GF_REC) {
		int base = e->lab++;
		gen_printf(b, "\tsetp.eq.u32 %%qs, %%rn, 0;\n\t@%%qs bra $Lg%d;\n", base);
		body(e, &f->body);
		gen_printf(b, "\t{\n\t.param .b32 pa;\n\t.param .b32 pb;\n\t.param .b32 pr;\n"
		           "\tsub.u32 %%t0, %%rn, 1;\n\tst.param.b32 [pa], %%t0;\n\tst.param.b32 [pb], %%r%d;\n"
		           "\tcall (pr), rec, (pa, pb);\n\tld.param.b32 %%r%d, [pr];\n\t}\n", f->rsrc, f->rdst);
		body(e, &f->body2);
		gen_printf(b, "\tst.param.b32 [rv], %%r%d;\n\tret;\n$Lg%d:\n\tst.param.b32 [rv], %%r1;\n"
		           "\tret;\n}\n\n", f->ret, base);
	} else {
		body(e, &f->body);
		gen_printf(b, "\tst.param.b32 [rv], %%r%d;\n\tret;\n}\n\n", f->ret);
	}
}

/* the per-thread output layout of the epilogue: r at 0, p at 48, f at 64, rd at 88, fd at 136 */
static void epilogue(GenBuf *b)
{
	for (int i = 0; i < GEN_NR; i++)
		gen_printf(b, "\tst.global.u32 [%%ao+%d], %%r%d;\n", 4 * i, i);
	for (int i = 0; i < GEN_NP; i++)
		gen_printf(b, "\tselp.u32 %%t0, 1, 0, %%p%d;\n\tst.global.u32 [%%ao+%d], %%t0;\n", i, 48 + 4 * i);
	for (int i = 0; i < GEN_NF; i++)
		gen_printf(b, "\tst.global.f32 [%%ao+%d], %%f%d;\n", 64 + 4 * i, i);
	for (int i = 0; i < GEN_ND; i++)
		gen_printf(b, "\tst.global.u64 [%%ao+%d], %%rd%d;\n", 88 + 8 * i, i);
	for (int i = 0; i < GEN_NG; i++)
		gen_printf(b, "\tst.global.f64 [%%ao+%d], %%fd%d;\n", 136 + 8 * i, i);
}

void gen_emit_ptx(GenBuf *out, const GenProg *g, const GenEmitOpts *o)
{
	GenBuf kb = {0};
	Em e;

	memset(&e, 0, sizeof e);
	e.g = g;
	e.o = o;
	e.b = &kb;
	gen_printf(&kb, ".visible .entry fuzz(.param .u64 in, .param .u64 out, .param .u64 acc, "
	           ".param .u32 k)\n{\n");
	decls(&kb);
	gen_printf(&kb, "\t.reg .b32 %%s<3>;\n\t.reg .b32 %%u<4>;\n\t.reg .b64 %%ain, %%ai, %%ao, %%aa;\n");
	if (g->uselocal)
		gen_printf(&kb, "\t.local .align 16 .b32 loc[16];\n");
	gen_printf(&kb, "\t.shared .align 4 .b32 sh[%d];\n\t.shared .align 4 .b32 shacc;\n", GEN_MAXTHREADS);
	gen_printf(&kb, "\tmov.u32 %%s0, %%tid.x;\n\tmov.u32 %%s1, %%ntid.x;\n\tmov.u32 %%u1, %%ctaid.x;\n"
	           "\tmad.lo.u32 %%s2, %%u1, %%s1, %%s0;\n"
	           "\tld.param.u64 %%ain, [in];\n\tcvta.to.global.u64 %%ain, %%ain;\n"
	           "\tld.param.u64 %%ao, [out];\n\tcvta.to.global.u64 %%ao, %%ao;\n"
	           "\tld.param.u64 %%aa, [acc];\n\tcvta.to.global.u64 %%aa, %%aa;\n"
	           "\tld.param.u32 %%u0, [k];\n\txor.b32 %%u2, %%u0, %%u1;\n\tshr.u32 %%u3, %%u0, 3;\n"
	           "\tmul.wide.u32 %%ai, %%s2, %d;\n\tadd.s64 %%ai, %%ain, %%ai;\n"
	           "\tmul.wide.u32 %%ta0, %%s2, %d;\n\tadd.s64 %%ao, %%ao, %%ta0;\n",
	           4 * GEN_INWORDS, g->outbytes);
	for (int i = 0; i < 8; i++)
		gen_printf(&kb, "\tld.global.u32 %%r%d, [%%ai+%d];\n", i, 4 * i);
	for (int i = 0; i < 4; i++)
		gen_printf(&kb, "\tld.global.u64 %%rd%d, [%%ai+%d];\n", i, 32 + 8 * i);
	init_pools(&kb, 1);
	if (g->uselocal)
		for (int i = 0; i < 4; i++)
			gen_printf(&kb, "\tst.local.v4.u32 [loc+%d], {%%r8, %%r8, %%r8, %%r8};\n", 16 * i);
	body(&e, &g->kbody);
	epilogue(&kb);
	gen_printf(&kb, "\tret;\n}\n");

	gen_printf(out, "// generated by: gen --seed %llu --size %d\n.version 8.0\n.target sm_75\n"
	           ".address_size 64\n\n", (unsigned long long)g->seed, g->size);
	for (int i = 0; i < g->nfn; i++) {
		if (!e.used[i])
			continue;
		{
			GenBuf fb = {0};
			GenBuf *keep = e.b;
			e.b = &fb;
			func(&e, i);
			e.b = keep;
			gen_printf(out, "%s", fb.p);
			free(fb.p);
		}
	}
	gen_printf(out, "%s", kb.p);
	free(kb.p);
}

void gen_emit_launch(GenBuf *out, const GenProg *g, const char *outdir)
{
	uint32_t s = (uint32_t)(g->seed ^ (g->seed >> 32)) * 2654435761u + 1;
	const char *sep = outdir && *outdir ? "/" : "";

	if (!outdir)
		outdir = "";
	gen_printf(out, "# launch of: gen --seed %llu --size %d\n--kernel fuzz\n--grid %u\n--block %u\n",
	           (unsigned long long)g->seed, g->size, g->grid, g->block);
	gen_printf(out, "--arg buf:u32:%d:random:%u:0:4294967295\n", GEN_INTOTAL, s);
	gen_printf(out, "--arg buf:u32:%u:zero\n", g->grid * g->block * (uint32_t)g->outbytes / 4);
	gen_printf(out, "--arg buf:u32:%d:random:%u:0:4294967295\n", GEN_ACCWORDS, s ^ 0x5bd1e995u);
	gen_printf(out, "--arg u32:%u\n--out 1:%s%sout.bin\n--out 2:%s%sacc.bin\n", g->k, outdir, sep,
	           outdir, sep);
}
