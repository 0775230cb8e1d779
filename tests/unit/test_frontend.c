/* test_frontend.c - unit tests of the PTX frontend: the IR a small module parses to
 * (resolved registers, scopes, modifiers, operands, calls, labels, initializers, .loc),
 * diagnostics and error counts, the opcode table itself. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/ptx.h"
#include "tests/unit/helper_check.h"

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"

static Module *
parse(const char *s, int *nerr)
{
	return ptx_parse("t.ptx", s, strlen(s), NULL, nerr);
}

/* the first diagnostic line for s */
static char *
diag(const char *s)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	Module *m = ptx_parse("t.ptx", s, strlen(s), f, NULL);
	fclose(f);
	ck_assert_ptr_null(m);
	*strchr(buf, '\n') = 0;
	return buf;
}

START_TEST(optable)
{
	for (int i = 0; i < PO_COUNT; i++) {
		ck_assert_int_le(ptx_ops[i].min, ptx_ops[i].max);
		for (int j = 0; j < i; j++)
			ck_assert_str_ne(ptx_ops[i].name, ptx_ops[j].name);
		if (ptx_ops[i].flags & PF_BRANCH)
			ck_assert(ptx_ops[i].flags & PF_NODST);
	}
	ck_assert_str_eq(ptx_op_name(PO_BRX_IDX), "brx.idx");
	ck_assert_int_eq(ptx_type_bytes(PT_F16X2), 4);
	ck_assert_int_eq(ptx_type_bytes(PT_PRED), 0);
}
END_TEST

START_TEST(registers_and_scopes)
{
	int n;
	Module *m = parse(HDR ".entry k(.param .u64 p)\n{\n .reg .b32 %r<3>;\n .reg .pred %p1;\n"
	                  " { .reg .b32 %r1; mov.u32 %r1, 5; }\n mov.u32 %r1, %tid.y;\n"
	                  " setp.lt.and.s32 %p1, %r1, 7, %p1;\n ret;\n}\n", &n);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(n, 0);
	PFunc *f = &m->funcs[0];
	ck_assert_int_eq(f->entry, 1);
	ck_assert_int_eq(f->nregs, 5);           /* %r0..%r2, %p1, inner %r1 */
	ck_assert_str_eq(f->regs[1].name, "%r1");
	ck_assert_int_eq(f->regs[4].type, PT_B32);
	ck_assert_int_eq(f->ins[0].o[0].reg, 4); /* inner %r1 */
	ck_assert_int_eq(f->ins[1].o[0].reg, 1); /* outer %r1 again */
	ck_assert_int_eq(f->ins[1].o[1].kind, POK_SREG);
	ck_assert_int_eq(f->ins[1].o[1].sreg, PSR_TID);
	ck_assert_int_eq(f->ins[1].o[1].comp, 2);
	PIns *s = &f->ins[2];
	ck_assert_int_eq(s->op, PO_SETP);
	ck_assert_int_eq(s->nopd, 5);             /* p, sink, a, b, c */
	ck_assert_int_eq(s->o[1].kind, POK_SINK);
	ck_assert_int_eq(s->m.cmp, PCMP_LT);
	ck_assert_int_eq(s->m.bop, PBOP_AND);
	ck_assert_int_eq(s->m.types[0], PT_S32);
	ck_assert_int_eq(s->o[3].kind, POK_IMM);
	ck_assert_int_eq(s->o[3].imm, 7);
	ptx_free(m);
}
END_TEST

START_TEST(modifiers)
{
	Module *m = parse(HDR ".entry k(.param .u64 p)\n{\n .reg .b64 %rd<3>;\n .reg .f32 %f<5>;\n"
	                  " .reg .b32 %r<4>;\n ld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd1+-16];\n"
	                  " cvt.rzi.ftz.s32.f32 %r1, %f1;\n mul.wide.s32 %rd2, %r1, 4;\n"
	                  " shf.l.wrap.b32 %r2, %r1, %r1, 3;\n atom.global.cas.b32 %r3, [%rd1], 0, 1;\n"
	                  " membar.gl;\n add.f32 %f3, %f1, 0f3F800000;\n ret;\n}\n", NULL);
	ck_assert_ptr_nonnull(m);
	PIns *in = m->funcs[0].ins;
	ck_assert_int_eq(in[0].op, PO_LD);
	ck_assert_int_eq(in[0].m.space, PS_GLOBAL);
	ck_assert(in[0].m.flags & PMF_NC);
	ck_assert_int_eq(in[0].m.vec, 4);
	ck_assert_int_eq(in[0].o[0].kind, POK_VEC);
	ck_assert_int_eq(in[0].o[0].elems[2].kind, POK_SINK);
	ck_assert_int_eq(in[0].o[1].kind, POK_ADDR);
	ck_assert_int_eq(in[0].o[1].imm, -16);
	ck_assert_int_eq(in[1].m.rnd, PRND_RZI);
	ck_assert_int_eq(in[1].m.types[0], PT_S32);
	ck_assert_int_eq(in[1].m.types[1], PT_F32);
	ck_assert(in[2].m.flags & PMF_WIDE);
	ck_assert(in[3].m.flags & PMF_LEFT && in[3].m.flags & PMF_WRAP);
	ck_assert_int_eq(in[4].m.aop, PAOP_CAS);
	ck_assert_int_eq(in[5].m.scope, PSCOPE_GPU);
	ck_assert_int_eq(in[6].o[2].ikind, PIMM_F32);
	ck_assert_int_eq(in[6].o[2].imm, 0x3F800000);
	ptx_free(m);
}
END_TEST

START_TEST(calls_labels_inits)
{
	Module *m = parse(HDR ".func (.param .b32 r) f(.param .b32 a);\n"
	                  ".global .align 8 .u64 tbl[2] = {f, generic(g)+4};\n.global .u32 g = 7;\n"
	                  ".func (.param .b32 r) f(.param .b32 a)\n{\n ret;\n}\n"
	                  ".entry k()\n{\n .reg .b64 %rd1;\n .reg .pred %p1;\n"
	                  " { .param .b32 x; .param .b32 y; call.uni (y), f, (x); }\n"
	                  " ld.global.u64 %rd1, [tbl+8];\n"
	                  " { .param .b32 x; .param .b32 y;\n P: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
	                  " call (y), %rd1, (x), P; }\n"
	                  "@%p1 bra L;\n .loc 1 12 3\n exit;\nL:\n ret;\n}\n", NULL);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->nfuncs, 2);
	ck_assert_int_eq(m->nvars, 2);
	ck_assert_int_eq(m->vars[0].ninit, 2);
	ck_assert_int_eq(m->vars[0].init[0].kind, PINIT_SYM);
	ck_assert_int_eq(m->vars[0].init[0].symkind, PSYM_FUNC);
	ck_assert_int_eq(m->vars[0].init[1].kind, PINIT_GENERIC);
	ck_assert_int_eq(m->vars[0].init[1].sym, 1);   /* g, declared after its use */
	ck_assert_int_eq(m->vars[0].init[1].bits, 4);
	ck_assert_int_eq(m->vars[1].init[0].bits, 7);
	PFunc *k = &m->funcs[1];
	ck_assert_int_eq(k->nlocals, 4);
	PIns *c = &k->ins[0];
	ck_assert_int_eq(c->op, PO_CALL);
	ck_assert_int_eq(c->nopd, 4);
	ck_assert_int_eq(c->o[0].nelems, 1);
	ck_assert_int_eq(c->o[0].elems[0].symkind, PSYM_LOCAL);
	ck_assert_int_eq(c->o[0].elems[0].sym, 1);
	ck_assert_int_eq(c->o[1].symkind, PSYM_FUNC);
	ck_assert_int_eq(c->o[3].kind, POK_NONE);
	ck_assert(c->m.flags & PMF_UNI);
	ck_assert_int_eq(k->ins[1].o[1].symkind, PSYM_VAR);
	ck_assert_int_eq(k->ins[1].o[1].imm, 8);
	PIns *ic = &k->ins[2];
	ck_assert_int_eq(ic->o[1].kind, POK_REG);
	ck_assert_int_eq(ic->o[2].elems[0].sym, 2);   /* the second x */
	ck_assert_int_eq(ic->o[3].kind, POK_TLIST);
	ck_assert_int_eq(k->tlists[ic->o[3].sym].kind, PTL_PROTO);
	ck_assert_int_eq(k->tlists[0].nparams, 1);
	PIns *b = &k->ins[3];
	ck_assert_int_eq(b->guard, 1);
	ck_assert_int_eq(b->o[0].kind, POK_LABEL);
	ck_assert_int_eq(k->labels[b->o[0].sym].pos, 5);
	ck_assert_int_eq(k->ins[4].srcline, 12);
	ck_assert_int_eq(k->ins[4].srcfile, 1);
	ck_assert_int_eq(k->ins[3].srcfile, -1);
	ptx_free(m);
}
END_TEST

START_TEST(diagnostics)
{
	int n;
	ck_assert_str_eq(diag(HDR ".entry k()\n{\n bra $L__BB0_7;\n}\n"),
	                 "t.ptx:6:6: error: undefined label '$L__BB0_7'");
	ck_assert_str_eq(diag(HDR ".entry k()\n{\n .reg .b32 %r1;\n add.s32 %r1, %r1;\n}\n"),
	                 "t.ptx:7:2: error: 'add' takes 3 operands, not 2");
	{
		/* valid but unsupported: no error; the function records it, left out of its body */
		Module *m = parse(HDR ".entry k()\n{\n .reg .b32 %r1;\n sured.b.add.2d.b32 {%f1}, [t, %f2];\n"
		                  " mov.u32 %r1, 1;\n}\n", &n);
		ck_assert_ptr_nonnull(m);
		ck_assert_int_eq(n, 0);
		ck_assert_int_eq(m->funcs[0].unsup_op, PO_SURED + 1);
		ck_assert_int_eq(m->funcs[0].unsup_loc.line, 7);
		ck_assert_int_eq(m->funcs[0].unsup_loc.col, 2);
		ck_assert_int_eq(m->funcs[0].nins, 1);
		ptx_free(m);
	}
	ck_assert_ptr_null(parse(HDR ".entry k()\n{\n add.s32 %a, %b, 1;\n sub.s32 %c, 1, 2;\n x y z;\n}\n", &n));
	ck_assert_int_eq(n, 5);  /* 3 undefined registers, unknown x, syntax error */
}
END_TEST

START_TEST(round_trip)
{
	const char *src = HDR ".entry k(.param .u64 p)\n{\n .reg .b32 %r<3>;\n .reg .pred %p<2>;\n"
	                  " setp.ne.s32 %p1|%p0, %r1, -3;\n @!%p1 shfl.sync.bfly.b32 %r2|%p0, %r1, 1, 31, -1;\n"
	                  " ret;\n}\n";
	Module *m = parse(src, NULL), *m2;
	char *a = NULL, *b = NULL;
	size_t na, nb;
	FILE *f = open_memstream(&a, &na);
	ptx_print(f, m);
	fclose(f);
	m2 = parse(a, NULL);
	ck_assert_ptr_nonnull(m2);
	f = open_memstream(&b, &nb);
	ptx_print(f, m2);
	fclose(f);
	ck_assert_str_eq(a, b);
	ck_assert(strstr(a, "%p1|%p0") != NULL);
	ck_assert(strstr(a, "@!%p1 shfl.sync.bfly.b32") != NULL);
	free(a);
	free(b);
	ptx_free(m);
	ptx_free(m2);
}
END_TEST

/* mods.c hashes its opcode and modifier names at the first opword it decodes: threads that
 * parse at once (each test runs in a fresh process, so this is the first use) all read the
 * same module */
static const char thread_ptx[] =
	HDR ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<6>;\n .reg .b64 %rd<3>;\n"
	" .reg .pred %p<2>;\n .reg .f32 %f<3>;\n .shared .align 4 .b32 sh[32];\n"
	" ld.param.u64 %rd1, [p];\n cvta.to.global.u64 %rd2, %rd1;\n mov.u32 %r1, %tid.x;\n"
	" setp.lt.and.s32 %p1, %r1, 16, %p0;\n ld.global.nc.v2.f32 {%f1, %f2}, [%rd2+8];\n"
	" fma.rn.ftz.f32 %f1, %f1, %f2, 0f3F000000;\n mul.wide.u32 %rd1, %r1, 4;\n"
	" atom.shared.add.u32 %r2, [sh], 1;\n shfl.sync.bfly.b32 %r3, %r2, 1, 31, -1;\n"
	" @%p1 st.volatile.shared.u32 [sh+4], %r3;\n bar.sync 0;\n cvt.rzi.s32.f32 %r4, %f1;\n"
	" vote.sync.ballot.b32 %r5, %p1, -1;\n ret;\n}\n";

/* thread: parses thread_ptx and prints it into *(char **)arg (NULL if it failed) */
static void *
parse_print(void *arg)
{
	char *out = NULL;
	size_t n = 0;
	int nerr = -1;
	Module *m = ptx_parse("t.ptx", thread_ptx, strlen(thread_ptx), NULL, &nerr);
	FILE *f = open_memstream(&out, &n);

	if (m && f)
		ptx_print(f, m);
	if (f)
		fclose(f);
	if (!m || nerr) {
		free(out);
		out = NULL;
	}
	ptx_free(m);
	*(char **)arg = out;
	return NULL;
}

START_TEST(parse_threads)
{
	char *ref = ck_same_on_threads(parse_print);

	ck_assert_ptr_nonnull(strstr(ref, "setp.lt.and.s32"));
	ck_assert_ptr_nonnull(strstr(ref, "ld.global.nc.v2.f32"));
	free(ref);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("frontend");
	TCase *tc = tcase_create("core");

	/* first: with CK_FORK=no (check-valgrind) the tests share one process, and
	 * parse_threads must be the parser's first use */
	tcase_add_test(tc, parse_threads);
	tcase_add_test(tc, optable);
	tcase_add_test(tc, registers_and_scopes);
	tcase_add_test(tc, modifiers);
	tcase_add_test(tc, calls_labels_inits);
	tcase_add_test(tc, diagnostics);
	tcase_add_test(tc, round_trip);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
