/* test_frontend_labels.c - label values (docs/frontend.md): only labels whose address is
 * taken (mov source, initializer element) get one, their ordinal in label order; function-
 * scope .global/.const jump tables are module variables of that function, initialised with
 * PINIT_LABEL elements carrying the values; the -dP printer puts them back in the body. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/ptx.h"
#include "tests/unit/helper_check.h"

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"

static const char *src = HDR
	".global .u32 g = 5;\n"
	".visible .entry k()\n{\n"
	"\t.reg .b32 %r<4>;\n"
	"\t.reg .b64 %rd<2>;\n"
	"\t.const .u64 tbl[3] = { D, B, D };\n"
	"\tmov.u32 %r0, C;\n"
	"\tmov.b64 %rd0, tbl;\n"
	"\tbra %r0;\n"
	"A:\n\tbra.uni B;\n"
	"B:\n\tret;\n"
	"C:\n\tret;\n"
	"D:\n\tret;\n"
	"}\n";

START_TEST(values_in_label_order)
{
	int nerr = -1;
	Module *m = ptx_parse("t.ptx", src, strlen(src), NULL, &nerr);
	const PFunc *f;
	const PVar *v;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(nerr, 0);
	f = &m->funcs[0];
	ck_assert_int_eq(f->nlabels, 4);
	/* A is a branch target only: no value; B, C, D are taken, in label order */
	ck_assert_str_eq(f->labels[0].name, "A");
	ck_assert_int_eq(f->labels[0].value, -1);
	ck_assert_int_eq(f->labels[1].value, 0);
	ck_assert_int_eq(f->labels[2].value, 1);
	ck_assert_int_eq(f->labels[3].value, 2);
	/* the table is module storage of function 0, after g */
	ck_assert_int_eq(m->nvars, 2);
	ck_assert_int_eq(m->vars[0].scopefn, 0);
	v = &m->vars[1];
	ck_assert_str_eq(v->name, "tbl");
	ck_assert_int_eq(v->scopefn, 1);
	ck_assert_int_eq(v->space, PS_CONST);
	ck_assert_int_eq(v->ninit, 3);
	ck_assert_int_eq(v->init[0].kind, PINIT_LABEL);
	ck_assert_int_eq(v->init[0].sym, 3);
	ck_assert_int_eq(v->init[0].bits, 2);
	ck_assert_int_eq(v->init[1].bits, 0);
	ck_assert_int_eq(v->init[2].bits, 2);
	/* mov.b64 of the table resolves to the module variable */
	ck_assert_int_eq(f->ins[1].o[1].kind, POK_SYM);
	ck_assert_int_eq(f->ins[1].o[1].symkind, PSYM_VAR);
	ck_assert_int_eq(f->ins[1].o[1].sym, 1);
	ptx_free(m);
}
END_TEST

START_TEST(print_keeps_table_in_body)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);
	Module *m = ptx_parse("t.ptx", src, strlen(src), NULL, NULL);
	const char *body, *tbl;

	ck_assert_ptr_nonnull(m);
	ptx_print(out, m);
	fclose(out);
	body = strstr(buf, ".entry k");
	tbl = strstr(buf, ".const .u64 tbl[3] = {D, B, D};");
	ck_assert_ptr_nonnull(body);
	ck_assert_ptr_nonnull(tbl);
	ck_assert(tbl > body);
	ck_assert_ptr_nonnull(strstr(buf, "mov.u32\t%r0, C;"));
	ptx_free(m);
	/* and the print parses to the same values */
	m = ptx_parse("p.ptx", buf, strlen(buf), NULL, NULL);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->vars[1].init[0].bits, 2);
	ck_assert_int_eq(m->funcs[0].labels[2].value, 1);
	ptx_free(m);
	free(buf);
}
END_TEST

static Suite *labels_suite(void)
{
	Suite *s = suite_create("frontend_labels");
	TCase *t = tcase_create("labels");

	tcase_add_test(t, values_in_label_order);
	tcase_add_test(t, print_keeps_table_in_body);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{

	return ck_run(labels_suite());
}
