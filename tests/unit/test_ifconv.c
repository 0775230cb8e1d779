/* test_ifconv.c - Check tests of if-conversion (backend/ifconv.c) and the decision log
 * (backend/explain.c): the thresholds just below, at and above both limits, nested guards
 * through PSETP, the sm_35 rule's sides with loads, sides that cannot be predicated, a side ending in EXIT, ret-nest, one-side and
 * its exclusions, the break path's SSY (sync.c) in the report, the JSON document,
 * and on every corpus and tests/explain kernel at thresholds 0, 1, 4, 7, 12 and inf: the
 * branches explained as predicated are exactly those without a branch in the code, every
 * other branch keeps its shape, and predication only grows with the threshold.
 * Runs from the top of the tree (make check). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backend/backend.h"
#include "frontend/ptx.h"
#include "tests/unit/helper_check.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return s;
}

/* one translation: the module (which the log points into), the program, the log */
typedef struct {
	Module *m;
	Prog *p;
	BeLog log;
} Tr;

static FILE *devnull(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

/* PTX text named path under options o; returns 0 when it does not translate */
static int tr_opts(Tr *t, const char *path, const char *text, size_t len, const BeOptions *o)
{
	memset(t, 0, sizeof *t);
	t->m = ptx_parse(path, text, len, devnull(), NULL);
	ck_assert_msg(t->m != NULL, "%s does not parse", path);
	t->p = be_translate_log(t->m, o, devnull(), &t->log);
	return t->p != NULL;
}

/* the same under the defaults but the thresholds: -1 = inf */
static int tr_text(Tr *t, const char *path, const char *text, size_t len, int pmax, int pmaxu)
{
	BeOptions o;

	be_options_default(&o);
	o.predicate_max = pmax;
	o.predicate_max_uniform = pmaxu;
	return tr_opts(t, path, text, len, &o);
}

/* the defaults under predicate rule rule at thresholds pmax and pmaxu (kepler.cfg's:
 * BE_RULE_SM35, 8, 6) */
static void rule_opts(BeOptions *o, BeRule rule, int pmax, int pmaxu)
{
	be_options_default(o);
	o->predicate_rule = rule;
	o->predicate_max = pmax;
	o->predicate_max_uniform = pmaxu;
}

/* the file at path */
static int tr(Tr *t, const char *path, int pmax, int pmaxu)
{
	size_t len;
	char *text = slurp(path, &len);
	int r;

	ck_assert_msg(text != NULL, "cannot read %s", path);
	r = tr_text(t, path, text, len, pmax, pmaxu);
	free(text);
	return r;
}

static void tr_free(Tr *t)
{
	if (t->p)
		isa_prog_free(t->p);
	be_log_free(&t->log);
	ptx_free(t->m);
}

static const BeLogEntry *entry(const Tr *t, const char *func, int k)
{
	for (int i = 0; i < t->log.n; i++)
		if (!strcmp(t->log.e[i].func, func) && k-- == 0)
			return &t->log.e[i];
	ck_abort_msg("no log entry %d for %s", k, func);
	return NULL;
}

static BeDecision dec(const Tr *t, const char *func) { return entry(t, func, 0)->decision; }

/* the log entry of the branch on PTX line line */
static const BeLogEntry *at_line(const Tr *t, int line)
{
	for (int i = 0; i < t->log.n; i++)
		if (t->log.e[i].ptxline == line)
			return &t->log.e[i];
	ck_abort_msg("no log entry for line %d", line);
	return NULL;
}

static int count_op(const Kernel *k, Op op)
{
	int n = 0;
	for (int i = 0; i < k->nins; i++)
		n += k->ins[i].op == op;
	return n;
}

/* ------------------------------------------------------------------ thresholds */
START_TEST(t_if_then_thresholds)
{
	Tr t;
	ck_assert(tr(&t, "tests/explain/if_then.ptx", 7, 4));
	ck_assert_int_eq(dec(&t, "div_if_6"), BD_PREDICATED);
	ck_assert_int_eq(dec(&t, "div_if_7"), BD_PREDICATED);
	ck_assert_int_eq(dec(&t, "div_if_8"), BD_BRANCH_SSY);
	ck_assert_int_eq(entry(&t, "div_if_8", 0)->size_else, 8);
	ck_assert_ptr_nonnull(strstr(entry(&t, "div_if_8", 0)->rule, "cost 8 > --predicate-max 7"));
	ck_assert_ptr_nonnull(strstr(entry(&t, "div_if_7", 0)->rule, "cost 7 <= --predicate-max 7"));
	ck_assert_int_eq(dec(&t, "uni_if_3"), BD_PREDICATED);
	ck_assert_int_eq(dec(&t, "uni_if_4"), BD_PREDICATED);
	ck_assert_int_eq(dec(&t, "uni_if_5"), BD_BRANCH_UNIFORM);
	ck_assert_ptr_nonnull(strstr(entry(&t, "uni_if_5", 0)->rule, "--predicate-max-uniform 4"));
	/* a predicated side: guarded instructions, no branch */
	ck_assert_int_eq(count_op(isa_prog_find(t.p, "div_if_7"), OP_BRA), 0);
	ck_assert_int_eq(count_op(isa_prog_find(t.p, "div_if_7"), OP_SSY), 0);
	ck_assert_int_eq(count_op(isa_prog_find(t.p, "div_if_8"), OP_SSY), 1);
	tr_free(&t);

	ck_assert(tr(&t, "tests/explain/if_then.ptx", 0, 0));
	for (int i = 0; i < t.log.n; i++)
		ck_assert_int_ne(t.log.e[i].decision, BD_PREDICATED);
	tr_free(&t);
	ck_assert(tr(&t, "tests/explain/if_then.ptx", -1, -1));
	for (int i = 0; i < t.log.n; i++)
		ck_assert_int_eq(t.log.e[i].decision, BD_PREDICATED);
	ck_assert_ptr_nonnull(strstr(entry(&t, "div_if_8", 0)->rule, "--predicate-max inf"));
	tr_free(&t);
	ck_assert(tr(&t, "tests/explain/if_then.ptx", 5, 5));
	ck_assert_int_eq(dec(&t, "div_if_6"), BD_BRANCH_SSY);
	ck_assert_int_eq(dec(&t, "uni_if_5"), BD_PREDICATED);
	tr_free(&t);
}
END_TEST

START_TEST(t_if_else_thresholds)
{
	Tr t;
	ck_assert(tr(&t, "tests/explain/if_else.ptx", 7, 4));
	ck_assert_int_eq(dec(&t, "div_else_3_3"), BD_PREDICATED);
	ck_assert_int_eq(dec(&t, "div_else_3_4"), BD_PREDICATED);
	ck_assert_int_eq(dec(&t, "div_else_4_4"), BD_BRANCH_SSY);
	ck_assert_int_eq(entry(&t, "div_else_4_4", 0)->size_then, 4);
	ck_assert_int_eq(entry(&t, "div_else_4_4", 0)->size_else, 4);
	ck_assert_int_eq(dec(&t, "uni_else_2_2"), BD_PREDICATED);
	ck_assert_int_eq(dec(&t, "uni_else_2_3"), BD_BRANCH_UNIFORM);
	ck_assert_int_eq(dec(&t, "empty_else"), BD_PREDICATED);
	ck_assert_str_eq(entry(&t, "div_else_3_3", 0)->shape, "if-then-else");
	tr_free(&t);
}
END_TEST

/* ------------------------------------------------------------------ the sm_35 rule's load sides */
/* a side of 23 instructions (its larger side: SSY's) that loads from a global address it
 * computes, stores to local memory and loads from it: the local store keeps the local
 * rule's 16 off, so the global rule's 14 apply (cost 9 > 8: branched); with the local rule's
 * 16 it would be 7 and predicated (the store of %tid after the join is other work beside it,
 * without which ptxas branches around any side with a global load: tests/ptx/ld_work) */
static const char load_side_ptx[] =
	".version 7.0\n.target sm_35\n.address_size 64\n"
	".visible .entry mix(.param .u64 out, .param .u64 in)\n{\n"
	".local .align 4 .b8 arr[64];\n.reg .pred %p<2>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<12>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
	"cvta.to.global.u64 %rd3, %rd1;\ncvta.to.global.u64 %rd4, %rd2;\n"
	"mov.u32 %r1, %tid.x;\nmov.u64 %rd5, arr;\nmov.u32 %r2, 0;\n"
	"setp.lt.u32 %p1, %r1, 16;\n@%p1 bra DONE;\n"
	"and.b32 %r3, %r1, 15;\nmul.wide.u32 %rd6, %r3, 4;\nadd.s64 %rd7, %rd4, %rd6;\n"
	"ld.global.u32 %r4, [%rd7];\nadd.s64 %rd8, %rd5, %rd6;\nst.local.u32 [%rd8], %r4;\n"
	"ld.local.u32 %r5, [%rd5];\nadd.s32 %r2, %r4, %r5;\n"
	"mul.lo.s32 %r2, %r2, 3;\nadd.s32 %r2, %r2, 5;\nxor.b32 %r2, %r2, %r1;\n"
	"mul.lo.s32 %r2, %r2, 7;\nadd.s32 %r2, %r2, 9;\nxor.b32 %r2, %r2, %r3;\n"
	"mul.lo.s32 %r2, %r2, 11;\nadd.s32 %r2, %r2, 13;\nxor.b32 %r2, %r2, %r1;\n"
	"mul.lo.s32 %r2, %r2, 15;\nadd.s32 %r2, %r2, 17;\n"
	"DONE:\nmul.wide.u32 %rd9, %r1, 4;\nadd.s64 %rd10, %rd3, %rd9;\n"
	"st.global.u32 [%rd10+1024], %r1;\nst.global.u32 [%rd10], %r2;\nret;\n}\n";

START_TEST(t_sm35_load_sides)
{
	Tr t;
	BeOptions o;

	rule_opts(&o, BE_RULE_SM35, 8, 6);
	ck_assert(tr_opts(&t, "load_side.ptx", load_side_ptx, sizeof load_side_ptx - 1, &o));
	ck_assert_int_eq(dec(&t, "mix"), BD_BRANCH_SSY);
	ck_assert_ptr_nonnull(strstr(entry(&t, "mix", 0)->rule, "larger side 9 > --predicate-max 8"));
	tr_free(&t);
	o.predicate_max = 9;      /* and one more: predicated at its cost */
	ck_assert(tr_opts(&t, "load_side.ptx", load_side_ptx, sizeof load_side_ptx - 1, &o));
	ck_assert_int_eq(dec(&t, "mix"), BD_PREDICATED);
	tr_free(&t);
}
END_TEST

/* what the sm_35 rule decides for one kernel's first branch: the decision, the fall-through
 * side's size (when size > 0) and the start of the rule --explain gives */
typedef struct { const char *func; BeDecision d; int size; const char *note; } Want;

/* fixture path translated under the sm_35 rule (limits 8 and 6) for arch into t; returns its
 * text, which the caller frees after tr_free */
static char *sm35_tr(Tr *t, const char *path, int arch)
{
	BeOptions o;
	size_t len;
	char *text = slurp(path, &len);

	ck_assert_msg(text != NULL, "%s", path);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	if (arch)
		o.arch = arch;
	ck_assert(tr_opts(t, path, text, len, &o));
	return text;
}

static void check_wants(const Tr *t, const Want *w, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const BeLogEntry *e = entry(t, w[k].func, 0);
		ck_assert_msg(e->decision == w[k].d, "%s: %s", w[k].func, e->rule);
		if (w[k].size > 0)
			ck_assert_int_eq(e->size_else, w[k].size);
		ck_assert_msg(!strncmp(e->rule, w[k].note, strlen(w[k].note)), "%s: %s", w[k].func,
		              e->rule);
	}
}

/* func's k-th branch decided d, its reason holding sub */
static void expect_entry(const Tr *t, const char *func, int k, BeDecision d, const char *sub)
{
	const BeLogEntry *e = entry(t, func, k);

	ck_assert_msg(e->decision == d, "%s #%d: %s", func, k, e->rule);
	ck_assert_msg(strstr(e->rule, sub) != NULL, "%s #%d: no \"%s\" in: %s", func, k, sub, e->rule);
}

/* fixture path translated as sm35_tr does for arch, its branches as w says */
static void sm35_wants(const char *path, int arch, const Want *w, size_t n)
{
	Tr t;
	char *text = sm35_tr(&t, path, arch);

	check_wants(&t, w, n);
	tr_free(&t);
	free(text);
}

/* a side with exactly one global store: ptxas's limits one lower, 7 divergent and 5 uniform
 * (tests/ptx/one_store, its listing in tests/ptxas-ref); with two stores, or a shared store
 * beside the one, the count is the plain one (two) or one more (sh); a store whose address
 * is read outside the side (at the join, before the branch) counts plain */
START_TEST(t_sm35_one_store)
{
	static const Want want[] = {
		{ "one_store_g6", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8 (counted as "
		  "ptxas: 1 more for the side's one global store)" },
		{ "one_store_g7", BD_BRANCH_SSY, 0, "larger side 9 > --predicate-max 8 (counted as ptxas: "
		  "1 more for the side's one global store)" },
		{ "one_store_two6", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8" },
		{ "one_store_two7", BD_BRANCH_SSY, 0, "larger side 9 > --predicate-max 8" },
		{ "one_store_sh5", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8 (counted as "
		  "ptxas: 1 more" },
		{ "one_store_sh6", BD_BRANCH_SSY, 0, "larger side 9 > --predicate-max 8 (counted as "
		  "ptxas: 1 more" },
		{ "one_store_u4", BD_PREDICATED, 0, "larger side 6 <= --predicate-max-uniform 6" },
		{ "one_store_u5", BD_BRANCH_UNIFORM, 0, "larger side 7 > --predicate-max-uniform 6" },
		/* the store's address read outside the side: the plain count */
		{ "one_store_join7", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8" },
		{ "one_store_before7", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8" },
		{ "one_store_joinu5", BD_PREDICATED, 0, "larger side 6 <= --predicate-max-uniform 6" },
	};
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/one_store.ptx", 0);
	check_wants(&t, want, sizeof want / sizeof *want);
	ck_assert_ptr_null(strstr(entry(&t, "one_store_two6", 0)->rule, "one global store"));
	ck_assert_ptr_null(strstr(entry(&t, "one_store_join7", 0)->rule, "one global store"));
	/* one_store's own sides all store through one base */
	for (int k = 0; k < 4; k++)
		ck_assert_ptr_null(strstr(entry(&t, "one_store", k)->rule, "one global store"));
	tr_free(&t);
	free(text);
}
END_TEST

/* clang's 64-bit shared addresses, which ptxas makes in 32 bits, and a side's global stores
 * each through a base of its own (tests/ptx/shared_addr, its listing in tests/ptxas-ref): the
 * high words, the copies of the pair and the add of a shared variable's address cost nothing;
 * each store through a base no other store of the side uses counts one more; a store address
 * only added in the side to an index made before it is no address the side computes */
START_TEST(t_sm35_shared_addr)
{
	static const Want want[] = {
		{ "shared_addr", BD_PREDICATED, 0, "larger side 6 <= --predicate-max 8 (counted as ptxas: "
		  "4 of 64-bit shared addresses made in 32 bits)" },
		{ "shared_addr_a7", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8 (counted as "
		  "ptxas: 2 of 64-bit shared addresses made in 32 bits)" },
		{ "shared_addr_a8", BD_BRANCH_SSY, 0, "larger side 9 > --predicate-max 8" },
		{ "shared_addr_m5", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8 (counted as "
		  "ptxas: 4 of 64-bit shared addresses made in 32 bits)" },
		{ "shared_addr_m6", BD_BRANCH_SSY, 0, "larger side 9 > --predicate-max 8" },
		{ "shared_addr_st4", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8 (counted as "
		  "ptxas: 2 more for the side's global stores each through a base of its own)" },
		{ "shared_addr_st5", BD_BRANCH_SSY, 0, "larger side 9 > --predicate-max 8" },
		{ "shared_addr_rep4", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8 (counted as "
		  "ptxas: 1 more for the side's one store through a base of its own)" },
		{ "shared_addr_rep5", BD_BRANCH_SSY, 0, "larger side 9 > --predicate-max 8" },
		{ "shared_addr_add4", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8 (counted as "
		  "ptxas: 1 more for the side's one global store)" },
		{ "shared_addr_add5", BD_BRANCH_SSY, 0, "larger side 9 > --predicate-max 8 (counted as "
		  "ptxas: 1 more for the side's one global store)" },
	};
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/shared_addr.ptx", 0);
	check_wants(&t, want, sizeof want / sizeof *want);
	/* the main kernel's second side: two stores, each through its own base */
	expect_entry(&t, "shared_addr", 1, BD_PREDICATED, "2 more for the side's global stores each "
	             "through a base of its own");
	tr_free(&t);
	free(text);
}
END_TEST

/* clang's scan over 16-bit shared counters (tests/ptx/shared_u16, its listing in
 * tests/ptxas-ref): the -1 of `mad.lo.s32 d, a, b, -1` comes from ptxas's literal pool when no
 * factor is in bank 0, an add onto a shared variable's address plus 2 is folded into the
 * access, the mask of the 16-bit sum before its 16-bit store costs nothing, and an if-then
 * side's jump to a latch only it and the branch reach is not counted: 8, predicated */
START_TEST(t_sm35_shared_u16)
{
	static const Want want[] = {
		{ "shared_u16_if", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8 (counted as "
		  "ptxas: 1 immediate from the literal pool, 8 of 64-bit shared addresses made in 32 "
		  "bits)" },
		{ "shared_u16_if9", BD_BRANCH_SSY, 0, "larger side 9 > --predicate-max 8" },
		{ "shared_u16_ntid", BD_BRANCH_SSY, 0, "larger side 9 > --predicate-max 8 (counted as "
		  "ptxas: 8 of 64-bit shared addresses made in 32 bits)" },
	};
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/shared_u16.ptx", 0);
	check_wants(&t, want, sizeof want / sizeof *want);
	/* the loops: the back edge is the first entry, the if the second; the side's jump to
	 * the latch is not counted */
	expect_entry(&t, "shared_u16", 1, BD_PREDICATED, "larger side 8 <=");
	expect_entry(&t, "shared_u16_x9", 1, BD_BRANCH_SSY, "larger side 9 >");
	tr_free(&t);
	free(text);
}
END_TEST

/* a side that stores through a kernel parameter it loads itself (tests/ptx/store_param, its
 * listing in tests/ptxas-ref): its moves of the parameter are not counted nor read as a
 * store address it computes, which puts it at one global store's limits, 7 divergent and 5
 * uniform; an access through the parameter after the join or in another side gives the
 * plain ones, an unguarded one before the branch does not */
START_TEST(t_sm35_store_param)
{
	static const Want want[] = {
		{ "store_param_d6", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8 (counted as "
		  "ptxas: 1 more for the side's one global store, 3 fewer for the parameter it stores "
		  "through)" },
		{ "store_param_d7", BD_BRANCH_SSY, 0, "larger side 9 > --predicate-max 8 (counted as "
		  "ptxas: 1 more for the side's one global store, 3 fewer for the parameter" },
		{ "store_param_u4", BD_PREDICATED, 0, "larger side 6 <= --predicate-max-uniform 6" },
		{ "store_param_u5", BD_BRANCH_UNIFORM, 0, "larger side 7 > --predicate-max-uniform 6" },
		{ "store_param_join7", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8 (counted "
		  "as ptxas: 3 fewer for the parameter it stores through)" },
		{ "store_param_two7", BD_PREDICATED, 0, "larger side 8 <= --predicate-max 8" },
		{ "store_param_tworev7", BD_PREDICATED, 0, "larger side 3 <= --predicate-max 8" },
		{ "store_param_stbefore7", BD_BRANCH_SSY, 0, "larger side 9 > --predicate-max 8" },
	};
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/store_param.ptx", 0);
	check_wants(&t, want, sizeof want / sizeof *want);
	/* the long side of tworev7 follows the other side that stores through the parameter */
	ck_assert_int_eq(entry(&t, "store_param_tworev7", 1)->decision, BD_PREDICATED);
	ck_assert_ptr_null(strstr(entry(&t, "store_param_tworev7", 1)->rule, "one global store"));
	/* store_param's own four sides store through one parameter: none has the one store's */
	for (int k = 0; k < 4; k++) {
		ck_assert_int_eq(entry(&t, "store_param", k)->decision, BD_PREDICATED);
		ck_assert_ptr_null(strstr(entry(&t, "store_param", k)->rule, "one global store"));
	}
	tr_free(&t);
	free(text);
}
END_TEST

/* nvcc's inlined pow's sign flip (unpack the high word, XOR, unpack the low word, pack) and
 * its zero case (the high word made, packed with a zero) under x < 0 and x == 0, divergent
 * and uniform (tests/ptx/pow_sign, ptxas 11.8's listing beside it): ptxas reads and writes a
 * pair's words in place, so the copies of a pair's words are not counted, and predicates all
 * four (the flip 1, the zero 5: its `selp` of `x < 0` is ptxas's ICMP, and ptxas still
 * predicates the uniform one with one instruction more, not with two) */
START_TEST(t_sm35_pow_sign)
{
	static const char *rule[] = {
		"larger side 1 <= --predicate-max 8 (counted as ptxas: 7 copies of a pair's words)",
		"larger side 5 <= --predicate-max 8 (counted as ptxas: 3 copies of a pair's words, 1 "
		"test against zero made into its selects (FCMP, ICMP))",
		"larger side 1 <= --predicate-max-uniform 6 (counted as ptxas: 7 copies of a pair's "
		"words)",
		"larger side 5 <= --predicate-max-uniform 6 (counted as ptxas: 3 copies of a pair's "
		"words, 1 test against zero made into its selects (FCMP, ICMP))",
	};
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/pow_sign.ptx", 0);
	for (int k = 0; k < 4; k++) {
		ck_assert_int_eq(entry(&t, "pow_sign", k)->decision, BD_PREDICATED);
		ck_assert_str_eq(entry(&t, "pow_sign", k)->rule, rule[k]);
	}
	tr_free(&t);
	free(text);
}
END_TEST

/* sides of 16-bit multiplies (tests/ptx/side16, ptxas 11.8's listing beside it): our
 * re-canonicalisations of 16-bit results are free, a signed operand's extension counts once
 * (not at each use, nor for the side's own narrowing), so that each side counts what ptxas's
 * does: 2k + 2 with the cvt, 2k + 1 without, k + 2 unsigned */
START_TEST(t_sm35_side16)
{
	static const Want want[] = {
		{ "side16_s3", BD_PREDICATED, 15, "larger side 8 <= --predicate-max 8" },
		{ "side16_s4", BD_BRANCH_SSY, 19, "larger side 10 > --predicate-max 8" },
		{ "side16_p3", BD_PREDICATED, 12, "larger side 7 <= --predicate-max 8" },
		{ "side16_p4", BD_BRANCH_SSY, 16, "larger side 9 > --predicate-max 8" },
		{ "side16_u6", BD_PREDICATED, 15, "larger side 8 <= --predicate-max 8" },
		{ "side16_u7", BD_BRANCH_SSY, 17, "larger side 9 > --predicate-max 8" },
	};
	sm35_wants("tests/ptx/side16.ptx", 35, want, sizeof want / sizeof *want);
}
END_TEST

/* sides of selects (tests/ptx/sel_cmp, ptxas 11.8's listing beside it): a test of a register
 * against zero that only selects read is free (ptxas's FCMP/ICMP selects by the register
 * itself), a select's immediate a MOV32I of the side made before costs nothing, nor one whose
 * other operand is a register, two parameters cost one more; not a test whose select takes a
 * value the side makes for it (_made), nor a test of an FADD made before the branch (_fadd) */
START_TEST(t_sm35_sel_cmp)
{
#define T1 " (counted as ptxas: 1 test against zero made into its selects (FCMP, ICMP))"
#define T2 " (counted as ptxas: 2 tests against zero made into its selects (FCMP, ICMP), 1 " \
	   "fewer for the selects' immediates)"
#define P8 "larger side 8 <= --predicate-max 8"
#define B9 "larger side 9 > --predicate-max 8"
	static const Want want[] = {
		{ "sel_cmp_f6", BD_PREDICATED, 0, P8 T1 },
		{ "sel_cmp_f7", BD_BRANCH_SSY, 0, B9 T1 },
		{ "sel_cmp_i6", BD_PREDICATED, 0, P8 T1 },
		{ "sel_cmp_i7", BD_BRANCH_SSY, 0, B9 T1 },
		{ "sel_cmp_two5", BD_PREDICATED, 0, P8 T2 },
		{ "sel_cmp_two6", BD_BRANCH_SSY, 0, B9 T2 },
		{ "sel_cmp_bisect0", BD_PREDICATED, 0, P8 T2 },
		{ "sel_cmp_bisect1", BD_BRANCH_SSY, 0, B9 T2 },
		{ "sel_cmp_imm6", BD_PREDICATED, 0, P8 " (counted as ptxas: 1 fewer for the selects' "
		  "immediates)" },
		{ "sel_cmp_imm7", BD_BRANCH_SSY, 0, B9 },
		{ "sel_cmp_par5", BD_PREDICATED, 0, P8 " (counted as ptxas: 1 more for the selects' "
		  "parameters)" },
		{ "sel_cmp_par6", BD_BRANCH_SSY, 0, B9 },
		{ "sel_cmp_made4", BD_PREDICATED, 0, P8 },
		{ "sel_cmp_made5", BD_BRANCH_SSY, 0, B9 ";" },
		{ "sel_cmp_fadd5", BD_PREDICATED, 0, P8 },
		{ "sel_cmp_fadd6", BD_BRANCH_SSY, 0, B9 ";" },
		{ "sel_cmp_u4", BD_PREDICATED, 0, "larger side 6 <= --predicate-max-uniform 6" T1 },
		{ "sel_cmp_u5", BD_BRANCH_UNIFORM, 0, "larger side 7 > --predicate-max-uniform 6" T1 },
	};
#undef T1
#undef T2
#undef P8
#undef B9
	sm35_wants("tests/ptx/sel_cmp.ptx", 0, want, sizeof want / sizeof *want);
}
END_TEST

/* a side that is one correctly rounded division, reciprocal or square root (FDIV, FSQRT:
 * tests/ptx/div_side, ptxas 11.8's listing beside it): ptxas calls its subroutine there (CAL,
 * or a fast path with a guarded call) and branches around every such side, divergent (SSY)
 * or uniform (BRA), where a side of div.approx (MUFU.RCP, FMUL) is predicated; the guide's
 * rule still predicates the macro op as one instruction */
START_TEST(t_sm35_div_side)
{
	static const char *why = "not predicable: a side holds a correctly rounded division or "
	                         "square root (a call in ptxas's code)";
	size_t len;
	BeOptions o;
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/div_side.ptx", 0);

	for (int k = 0; k < 7; k++) {
		expect_entry(&t, "div_side", k, BD_BRANCH_SSY, why);
	}
	ck_assert_int_eq(entry(&t, "div_side", 7)->decision, BD_PREDICATED);
	expect_entry(&t, "div_side", 8, BD_BRANCH_UNIFORM, why);
	ck_assert_int_eq(entry(&t, "div_side", 9)->decision, BD_PREDICATED);
	tr_free(&t);
	len = strlen(text);
	rule_opts(&o, BE_RULE_GUIDE, 7, 4);
	ck_assert(tr_opts(&t, "tests/ptx/div_side.ptx", text, len, &o));
	ck_assert_int_eq(entry(&t, "div_side", 0)->decision, BD_PREDICATED);
	tr_free(&t);
	free(text);
}
END_TEST

/* a side that computes with a value it loads from an address made before the branch
 * (tests/ptx/ld_other, ptxas 11.8's listing beside it): branched around when ptxas has no
 * other work to schedule beside it (ld_other_alone; ld_other_cond, whose condition's load
 * is only added after the join); otherwise predicated up to 20 of ptxas's instructions
 * (MADE_SIDE), divergent or uniform, an LDG counting its TEXDEPBAR and its offset's address */
START_TEST(t_sm35_ld_other)
{
	static const Want want[] = {
		{ "ld_other", BD_PREDICATED, 8, "larger side 1 <= --predicate-max 8 (counted as ptxas: "
		  "12 fewer for a load from an address made before it, with other work beside it)" },
		{ "ld_other_alone", BD_BRANCH_SSY, 8, "not predicable: a side uses a global load from an "
		  "address made before it, no other work beside it" },
		{ "ld_other_post", BD_PREDICATED, 8, "larger side 1 <= --predicate-max 8" },
		{ "ld_other_20", BD_PREDICATED, 20, "larger side 8 <= --predicate-max 8" },
		{ "ld_other_21", BD_BRANCH_SSY, 21, "larger side 9 > --predicate-max 8" },
		{ "ld_other_u20", BD_PREDICATED, 20, "larger side 8 <= --predicate-max 8" },
		{ "ld_other_u21", BD_BRANCH_UNIFORM, 21, "larger side 9 > --predicate-max 8" },
		{ "ld_other_cond", BD_BRANCH_SSY, 8, "not predicable: a side uses a global load from an "
		  "address made before it, no other work beside it" },
		{ "ld_other_ldg2_13", BD_PREDICATED, 17, "larger side 8 <= --predicate-max 8 (counted as "
		  "ptxas: 12 fewer for a load from an address made before it, with other work beside "
		  "it, 3 more for its LDGs' waits and offsets)" },
		{ "ld_other_ldg2_14", BD_BRANCH_SSY, 18, "larger side 9 > --predicate-max 8" },
	};
	sm35_wants("tests/ptx/ld_other.ptx", 35, want, sizeof want / sizeof *want);
}
END_TEST

/* what of the kernel lets ptxas 11.8 predicate a side that computes with a load from an
 * address made before the branch (tests/ptx/ld_cond, its listing beside it): other work to
 * schedule beside it above the branch or below the join, whatever the kernel loads elsewhere
 * and the condition is computed from; three of it where the join stores back to the address
 * the side loads; a volatile load like any other */
START_TEST(t_sm35_ld_cond)
{
	static const char *const pred[] = {
		"ld_cond_pre", "ld_cond_post", "ld_cond_alu", "ld_cond_stpost", "ld_cond_rmw3",
		"ld_cond_rmwld", "ld_cond_vol_alu",
	};
	/* (the branched sides' rule: not predicable, NO_WORK or, for rmw2, too little) */
#define NO_WORK "not predicable: a side uses a global load from an address made before it, " \
	"no other work beside it"
	static const Want want[] = {
		{ "ld_cond", BD_BRANCH_SSY, 0, NO_WORK },
		{ "ld_cond_alupost", BD_BRANCH_SSY, 0, NO_WORK },
		{ "ld_cond_store", BD_BRANCH_SSY, 0, NO_WORK },
		{ "ld_cond_stalu", BD_BRANCH_SSY, 0, NO_WORK },
		{ "ld_cond_rmw2", BD_BRANCH_SSY, 0, "not predicable: a side uses a global load from an "
		  "address made before it, too little other work beside it" },
		{ "ld_cond_vol", BD_BRANCH_UNIFORM, 0, NO_WORK },
	};
#undef NO_WORK
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/ld_cond.ptx", 35);

	check_wants(&t, want, sizeof want / sizeof *want);
	for (size_t k = 0; k < sizeof pred / sizeof *pred; k++) {
		const BeLogEntry *e = entry(&t, pred[k], 0);
		ck_assert_msg(e->decision == BD_PREDICATED, "%s: %s", pred[k], e->rule);
		ck_assert_msg(strstr(e->rule, "with other work beside it"), "%s: %s", pred[k], e->rule);
	}
	/* (the side after an earlier hammock on a loaded value, and after a loop) */
	ck_assert_int_eq(entry(&t, "ld_cond_ldbr", 1)->decision, BD_PREDICATED);
	ck_assert_int_eq(entry(&t, "ld_cond_loop", 1)->decision, BD_PREDICATED);
	tr_free(&t);
	free(text);
}
END_TEST

/* a short side with a global load and little other work beside it (tests/ptx/ld_work,
 * ptxas 11.8's listing beside it: Rodinia's pathfinder and cdpBitonicSort): branched around
 * beside one instruction of arithmetic, whether the side makes the load's address or takes
 * one made before it, and whatever it does with the value; predicated beside two, or beside
 * a global store, and in a loop; a barrier and a shared access after it are no such work, nor
 * the join's shared address of the value it stores */
START_TEST(t_sm35_ld_work)
{
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/ld_work.ptx", 35);

	expect_entry(&t, "ld_work", 0, BD_BRANCH_SSY, "not predicable: a side loads from global "
	             "memory at an address it computes, no other work beside it");
	expect_entry(&t, "ld_work_1", 0, BD_BRANCH_SSY, "at an address it computes, too little "
	             "other work beside it");
	expect_entry(&t, "ld_work_2", 0, BD_PREDICATED, "larger side 1 <=");
	expect_entry(&t, "ld_work_st", 0, BD_PREDICATED, "larger side 1 <=");
	expect_entry(&t, "ld_work_before", 0, BD_BRANCH_SSY, "not predicable: a side stores a global "
	             "load or hands it to the join, no other work beside it");
	expect_entry(&t, "ld_work_phi", 0, BD_BRANCH_SSY, "too little other work beside it");
	expect_entry(&t, "ld_work_phi2", 0, BD_PREDICATED, "larger side 1 <=");
	expect_entry(&t, "ld_work_loop", 0, BD_PREDICATED, "larger side 1 <=");
	tr_free(&t);
	free(text);
}
END_TEST

/* the same side whose lanes meet at a barrier, beside work that waits for a special register
 * (tests/ptx/ld_sreg, ptxas 11.8's listing beside it): branched beside two instructions on
 * %tid, or two reads of %ctaid and %tid.y, or what waits for a shared load after the barrier
 * or follows an early exit (Rodinia's dwt2d components); predicated beside three, or beside two
 * of which one waits for no special register */
START_TEST(t_sm35_ld_sreg)
{
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/ld_sreg.ptx", 35);

	expect_entry(&t, "ld_sreg", 0, BD_BRANCH_SSY, "at an address it computes, its other work "
	             "waits for an S2R");
	expect_entry(&t, "ld_sreg_3", 0, BD_PREDICATED, "larger side 1 <=");
	expect_entry(&t, "ld_sreg_free", 0, BD_PREDICATED, "larger side 1 <=");
	expect_entry(&t, "ld_sreg_s2r", 0, BD_BRANCH_SSY, "its other work waits for an S2R");
	expect_entry(&t, "ld_sreg_s2r3", 0, BD_PREDICATED, "larger side 1 <=");
	expect_entry(&t, "ld_sreg_s2rp", 0, BD_PREDICATED, "larger side 1 <=");
	expect_entry(&t, "ld_sreg_lds", 0, BD_BRANCH_SSY, "at an address it computes, no other work");
	expect_entry(&t, "ld_sreg_exit", 0, BD_BRANCH_SSY, "too little other work beside it");
	tr_free(&t);
	free(text);
}
END_TEST

/* which special registers ptxas 11.8 takes as the same in every lane (tests/ptx/sreg_uni,
 * its listing beside it): a side of 7 under a test of %clock, %clock64 or %globaltimer is a
 * uniform branch (over the uniform limit 6), under one of %smid or %warpid predicated (the
 * divergent limit 8); a loop that waits on %clock64 has a uniform back edge */
START_TEST(t_sreg_uni)
{
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/sreg_uni.ptx", 35);

	expect_entry(&t, "sreg_clock", 0, BD_BRANCH_UNIFORM, "uniform branch");
	expect_entry(&t, "sreg_clock64", 0, BD_BRANCH_UNIFORM, "uniform branch");
	expect_entry(&t, "sreg_gtimer", 0, BD_BRANCH_UNIFORM, "uniform branch");
	expect_entry(&t, "sreg_smid", 0, BD_PREDICATED, "larger side 7 <= --predicate-max 8");
	expect_entry(&t, "sreg_warpid", 0, BD_PREDICATED, "larger side 7 <= --predicate-max 8");
	expect_entry(&t, "sreg_spin", 1, BD_BRANCH_UNIFORM, "uniform branch");
	tr_free(&t);
	free(text);
}
END_TEST

/* the same side before code that ends in an early exit (tests/ptx/ld_test, ptxas 11.8's
 * listing beside it): the exit's test and the add of a shared array's address that only
 * addresses shared memory are no work, what the test compares is: branched beside one IMUL
 * (compared, or stored), predicated beside two */
START_TEST(t_sm35_ld_test)
{
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/ld_test.ptx", 35);

	expect_entry(&t, "ld_test", 0, BD_BRANCH_SSY, "at an address it computes, no other work");
	expect_entry(&t, "ld_test_mul", 0, BD_BRANCH_SSY, "too little other work beside it");
	expect_entry(&t, "ld_test_st", 0, BD_BRANCH_SSY, "too little other work beside it");
	expect_entry(&t, "ld_test_off", 0, BD_BRANCH_SSY, "too little other work beside it");
	expect_entry(&t, "ld_test_2", 0, BD_PREDICATED, "larger side 1 <=");
	expect_entry(&t, "ld_test_st2", 0, BD_PREDICATED, "larger side 1 <=");
	expect_entry(&t, "ld_test_off2", 0, BD_PREDICATED, "larger side 1 <=");
	expect_entry(&t, "ld_test_above", 0, BD_PREDICATED, "larger side 1 <=");
	expect_entry(&t, "ld_test_bra", 0, BD_PREDICATED, "larger side 1 <=");
	tr_free(&t);
	free(text);
}
END_TEST

/* a side that repeats a computation above its branch (tests/ptx/side_cse, ptxas 11.8's listing
 * beside it: nvcc's exp() repeating its rounding fma): the fma and the constants only it takes
 * are not counted; an fma of another value is */
START_TEST(t_sm35_side_cse)
{
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/side_cse.ptx", 35);

	expect_entry(&t, "side_cse", 0, BD_PREDICATED, "3 computed above the branch already");
	expect_entry(&t, "side_cse_cse9", 0, BD_BRANCH_SSY, "larger side 9 >");
	expect_entry(&t, "side_cse_nocse7", 0, BD_PREDICATED, "larger side 8 <=");
	expect_entry(&t, "side_cse_nocse8", 0, BD_BRANCH_SSY, "larger side 9 >");
	tr_free(&t);
	free(text);
}
END_TEST

/* a side with a global load whose lanes meet at a barrier before the test of a branch that
 * always stays (tests/ptx/kept_test, ptxas 11.8's listing beside it: Rodinia's
 * particlefilter): a test that waits for a special register is no work beside the side; where
 * the side after the barrier is predicated, the side before it is too */
START_TEST(t_sm35_kept_test)
{
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/kept_test.ptx", 35);

	expect_entry(&t, "kept_test", 0, BD_BRANCH_SSY, "its other work waits for an S2R");
	expect_entry(&t, "kept_test_ctaid", 0, BD_BRANCH_SSY, "too little other work beside it");
	expect_entry(&t, "kept_test_pred", 0, BD_PREDICATED, "larger side 1 <=");
	expect_entry(&t, "kept_test_pred", 1, BD_PREDICATED, "larger side 4 <=");
	tr_free(&t);
	free(text);
}
END_TEST

/* sides that compute with a texture fetch, and short-circuit tests of a constant-bank word
 * (tests/ptx/tex_side, ptxas 11.8's listing beside it: Rodinia's dilate_kernel), under
 * kepler.cfg's options: the constant word's test is folded (a global word's is not); a fetch's
 * side counts as one with a load from an address made before it, its copies into and out of
 * the fetch free (predicated up to 18 multiplies, branched at 19), and needs other work
 * beside it: the unrolled loop's sides are predicated, the remainder's rungs and a side before
 * an early exit branched */
START_TEST(t_sm35_tex_side)
{
	Tr t;
	BeOptions o;
	size_t len;
	char *text = slurp("tests/ptx/tex_side.ptx", &len);

	ck_assert(text != NULL);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	o.loop_sync = BE_LOOP_PBK;
	o.early_return = BE_RET_GUARDED;
	o.short_circuit = BE_SC_FOLD;
	ck_assert(tr_opts(&t, "tests/ptx/tex_side.ptx", text, len, &o));
	expect_entry(&t, "const_test", 2, BD_PREDICATED, "test folded into the branch of line 556");
	expect_entry(&t, "const_test", 3, BD_PREDICATED, "larger side 2 <=");
	expect_entry(&t, "glob_test", 2, BD_BRANCH_SSY, "holds a converted hammock");
	expect_entry(&t, "tex_rem", 5, BD_PREDICATED, "12 fewer for a texture fetch it computes with, "
	             "with other work beside it, 5 copies into and out of the fetch");
	expect_entry(&t, "tex_rem", 15, BD_BRANCH_SSY, "a side computes with a texture fetch, too "
	             "little other work beside it");
	expect_entry(&t, "tex_k6", 0, BD_PREDICATED, "larger side 1 <=");
	expect_entry(&t, "tex_k18", 0, BD_PREDICATED, "larger side 8 <=");
	expect_entry(&t, "tex_k19", 0, BD_BRANCH_SSY, "larger side 9 >");
	expect_entry(&t, "tex_k3_loop", 0, BD_BRANCH_SSY, "no other work beside it");
	expect_entry(&t, "tex_ldtest", 0, BD_PREDICATED, "larger side 1 <=");
	tr_free(&t);
	free(text);
}
END_TEST

/* a side that hands a texture fetch's words to the join, computing nothing with them: its
 * count leaves out isel's copy of the coordinate into the fetch and of the four words out of
 * it (tex_copy), and --explain says so (its fetch, the jump and one copy of the coordinate
 * into its register: 7 instructions counted 2) */
static const char tex_pass_ptx[] =
	".version 7.8\n.target sm_35\n.address_size 64\n.global .texref t_in;\n"
	".visible .entry tex_pass(.param .u64 out, .param .u32 n)\n{\n"
	".reg .pred %p<2>;\n.reg .f32 %f<5>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\nmov.u32 %r2, %tid.x;\n"
	"mov.f32 %f2, 0f00000000;\nmov.f32 %f3, 0f00000000;\nmov.f32 %f4, 0f00000000;\n"
	"setp.ge.s32 %p1, %r2, %r1;\n@%p1 bra ELSE;\n"
	"tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [t_in, {%r2}];\nbra.uni JOIN;\n"
	"ELSE:\nmov.f32 %f1, 0f3F800000;\n"
	"JOIN:\nmul.wide.s32 %rd2, %r2, 16;\nadd.s64 %rd3, %rd1, %rd2;\n"
	"st.global.v4.f32 [%rd3], {%f1, %f2, %f3, %f4};\nret;\n}\n";

START_TEST(t_sm35_tex_pass)
{
	Tr t;
	BeOptions o;

	rule_opts(&o, BE_RULE_SM35, 8, 6);
	ck_assert(tr_opts(&t, "tex_pass.ptx", tex_pass_ptx, sizeof tex_pass_ptx - 1, &o));
	expect_entry(&t, "tex_pass", 0, BD_PREDICATED, "larger side 2 <= --predicate-max 8 (counted "
	             "as ptxas: 5 copies into and out of a texture fetch)");
	tr_free(&t);
}
END_TEST

/* a side storing a global load's value that the join loads again is branched around
 * (tests/ptx/reload, ptxas 11.8's listing beside it); the same side whose join loads another
 * address, and a side storing a computed value the join loads, are predicated */
START_TEST(t_sm35_reload)
{
	Tr t;
	BeOptions o;
	size_t len;
	char *text = slurp("tests/ptx/reload.ptx", &len);

	ck_assert(text != NULL);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	ck_assert(tr_opts(&t, "tests/ptx/reload.ptx", text, len, &o));
	ck_assert_int_eq(dec(&t, "reload"), BD_BRANCH_SSY);
	ck_assert_str_eq(entry(&t, "reload", 0)->rule, "not predicable: a side stores a loaded value "
	                 "that the join loads again; SSY at the immediate post-dominator");
	ck_assert_int_eq(dec(&t, "reload_bar"), BD_BRANCH_SSY);
	ck_assert_int_eq(dec(&t, "reload_other"), BD_PREDICATED);
	ck_assert_int_eq(dec(&t, "reload_nold"), BD_PREDICATED);
	ck_assert_int_eq(dec(&t, "reload_st"), BD_PREDICATED);
	tr_free(&t);
	rule_opts(&o, BE_RULE_GUIDE, 7, 4);   /* (the guide's rule: no such test) */
	ck_assert(tr_opts(&t, "tests/ptx/reload.ptx", text, len, &o));
	ck_assert_int_eq(dec(&t, "reload"), BD_PREDICATED);
	tr_free(&t);
	free(text);
}
END_TEST

/* sides ptxas 11.8 for sm_35 predicates at its own count (tests/ptx/store_addr, its listing
 * tests/ptxas-ref/store_addr.sass): a store address the side computes is ptxas's ISCADD.CC
 * and IMAD.HI.X, its MOV32I of 2^k free (its one store 1 more), a shift fused into the add
 * after it (NVVM's rounding) and an offset folded into the access nothing. Each pair is
 * ptxas's last predicated side and its first branch; under the guide rule none of the longer
 * sides is predicated. And ptxas speculates nothing
 * (tests/ptx/side_nospec): a side whose values die in it is counted whole */
START_TEST(t_sm35_store_sides)
{
	static const Want want[] = {
		{ "store_addr_w4", BD_PREDICATED, 8, "larger side 8 <= --predicate-max 8 (counted "
		  "as ptxas: 1 more for the side's one global store)" },
		{ "store_addr_w5", BD_BRANCH_SSY, 9, "larger side 9 > --predicate-max 8" },
		{ "store_addr_u2", BD_PREDICATED, 6, "larger side 6 <= --predicate-max-uniform 6" },
		{ "store_addr_u3", BD_BRANCH_UNIFORM, 7, "larger side 7 > --predicate-max-uniform 6" },
		{ "store_addr_r8", BD_PREDICATED, 16, "larger side 8 <= --predicate-max 8 (counted as "
		  "ptxas: 8 shifts or offsets fused into the instruction after)" },
		{ "store_addr_r9", BD_BRANCH_SSY, 18, "larger side 9 > --predicate-max 8" },
		{ "store_addr_lds2", BD_PREDICATED, 9, "larger side 8 <= --predicate-max 8 (counted "
		  "as ptxas: 1 more for the side's one global store, 1 shift or offset" },
		{ "store_addr_lds3", BD_BRANCH_SSY, 10, "larger side 9 > --predicate-max 8" },
	};
	Tr t;
	BeOptions o;
	size_t len;
	char *text = slurp("tests/ptx/store_addr.ptx", &len);

	ck_assert(text != NULL);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	ck_assert(tr_opts(&t, "tests/ptx/store_addr.ptx", text, len, &o));
	check_wants(&t, want, sizeof want / sizeof *want);
	for (int k = 0; k < 4; k++)    /* one side of each kind in one kernel */
		ck_assert_int_eq(entry(&t, "store_addr", k)->decision, BD_PREDICATED);
	tr_free(&t);
	rule_opts(&o, BE_RULE_GUIDE, 7, 4);
	ck_assert(tr_opts(&t, "tests/ptx/store_addr.ptx", text, len, &o));
	ck_assert_int_eq(dec(&t, "store_addr_w4"), BD_BRANCH_SSY);
	ck_assert_int_eq(dec(&t, "store_addr_r8"), BD_BRANCH_SSY);
	ck_assert_ptr_null(strstr(entry(&t, "store_addr_w4", 0)->rule, "counted as ptxas"));
	tr_free(&t);
	free(text);

	text = slurp("tests/ptx/side_nospec.ptx", &len);
	ck_assert(text != NULL);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	ck_assert(tr_opts(&t, "tests/ptx/side_nospec.ptx", text, len, &o));
	ck_assert_int_eq(dec(&t, "side_nospec_st6"), BD_PREDICATED);
	ck_assert_str_eq(entry(&t, "side_nospec_st6", 0)->rule, "larger side 8 <= --predicate-max 8 "
	                 "(counted as ptxas: 1 more for the side's one global store)");
	ck_assert_int_eq(dec(&t, "side_nospec_st7"), BD_BRANCH_SSY);   /* (ptxas's: one_store) */
	ck_assert_int_eq(dec(&t, "side_nospec_phi10"), BD_BRANCH_SSY);
	ck_assert_int_eq(dec(&t, "side_nospec_else8"), BD_BRANCH_SSY);
	ck_assert_int_eq(dec(&t, "side_nospec_f12"), BD_BRANCH_SSY);
	tr_free(&t);
	free(text);
}
END_TEST

/* a left shift by a constant that only the add after it reads is ptxas's ISCADD (tests/ptx/
 * shl_add, its listing tests/ptxas-ref/shl_add.sass): each pair counts one, as ptxas's
 * limits 8 and 6 put it; a zero made before the branch and copied into a pair's word in the
 * side counts one (ptxas's MOV R, RZ); the kernel shl_add is nvcc's exp() of a double
 * (Rodinia's myocyte), its inner side 7 with both shifts fused, its outer one kept by the
 * inner and other code */
START_TEST(t_sm35_shl_add)
{
	static const Want want[] = {
		{ "shl_add_s8", BD_PREDICATED, 16, "larger side 8 <= --predicate-max 8 (counted as "
		  "ptxas: 8 shifts or offsets fused into the instruction after)" },
		{ "shl_add_s9", BD_BRANCH_SSY, 18, "larger side 9 > --predicate-max 8" },
		{ "shl_add_i8", BD_PREDICATED, 12, "larger side 8 <= --predicate-max 8 (counted as "
		  "ptxas: 4 shifts or offsets fused into the instruction after)" },
		{ "shl_add_i9", BD_BRANCH_SSY, 13, "larger side 9 > --predicate-max 8" },
		{ "shl_add_u6", BD_PREDICATED, 12, "larger side 6 <= --predicate-max-uniform 6" },
		{ "shl_add_u7", BD_BRANCH_UNIFORM, 14, "larger side 7 > --predicate-max-uniform 6" },
		{ "shl_add_zero6", BD_PREDICATED, 12, "larger side 6 <= --predicate-max-uniform 6 "
		  "(counted as ptxas: 4 shifts or offsets fused into the instruction after, 2 copies" },
		{ "shl_add_zero7", BD_BRANCH_UNIFORM, 14, "larger side 7 > --predicate-max-uniform 6" },
	};
	Tr t;
	char *text = sm35_tr(&t, "tests/ptx/shl_add.ptx", 0);

	check_wants(&t, want, sizeof want / sizeof *want);
	expect_entry(&t, "shl_add", 0, BD_BRANCH_SSY, "a side holds a converted hammock and other");
	expect_entry(&t, "shl_add", 1, BD_PREDICATED, "larger side 7 <= --predicate-max 8 (counted "
	             "as ptxas: 3 shifts or offsets fused into the instruction after, 6 copies");
	tr_free(&t);
	free(text);
}
END_TEST

/* the sm_35 rule sees every definition and load of a side however many: many_defs makes
 * 70 values before the address of its load (its side is a load side, predicated at inf);
 * many_loads loads ten values from addresses made before the branch and computes with the
 * tenth (never predicated). A side's first 64 definitions and 8 loads were all it saw (a
 * store of %tid after each join: other work beside them, tests/ptx/ld_work) */
static char *long_sides_ptx(void)
{
	size_t cap = 16384, n = 0;
	char *s = malloc(cap);

	ck_assert_ptr_nonnull(s);
#define P(...) (n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__), ck_assert(n < cap))
	P(".version 7.8\n.target sm_35\n.address_size 64\n");
	P(".visible .entry many_defs(.param .u64 out)\n{\n.reg .pred %%p<2>;\n.reg .b32 %%r<100>;\n"
	  ".reg .b64 %%rd<10>;\nld.param.u64 %%rd1, [out];\ncvta.to.global.u64 %%rd4, %%rd1;\n"
	  "mov.u32 %%r1, %%tid.x;\nmov.u32 %%r2, 0;\nmov.u32 %%r10, %%r1;\n"
	  "setp.lt.u32 %%p1, %%r1, 16;\n@%%p1 bra DONE;\n");
	for (int k = 10; k < 80; k++)
		P("add.u32 %%r%d, %%r%d, %d;\n", k + 1, k, k);
	P("and.b32 %%r90, %%r80, 15;\nmul.wide.u32 %%rd6, %%r90, 4;\nadd.s64 %%rd7, %%rd4, %%rd6;\n"
	  "ld.global.u32 %%r91, [%%rd7];\nadd.u32 %%r2, %%r91, %%r80;\n"
	  "DONE:\nmul.wide.u32 %%rd8, %%r1, 4;\nadd.s64 %%rd9, %%rd4, %%rd8;\n"
	  "st.global.u32 [%%rd9+1024], %%r1;\n"
	  "st.global.u32 [%%rd9], %%r2;\nret;\n}\n");
	P(".visible .entry many_loads(.param .u64 out)\n{\n.reg .pred %%p<2>;\n.reg .b32 %%r<40>;\n"
	  ".reg .b64 %%rd<10>;\nld.param.u64 %%rd1, [out];\ncvta.to.global.u64 %%rd4, %%rd1;\n"
	  "mov.u32 %%r1, %%tid.x;\nmov.u32 %%r2, 0;\nmul.wide.u32 %%rd6, %%r1, 4;\n"
	  "add.s64 %%rd7, %%rd4, %%rd6;\nsetp.lt.u32 %%p1, %%r1, 16;\n@%%p1 bra DONE;\n");
	for (int k = 0; k < 10; k++)
		P("ld.global.u32 %%r%d, [%%rd7+%d];\n", 10 + k, 4 * k);
	P("add.u32 %%r2, %%r19, 1;\n"
	  "DONE:\nst.global.u32 [%%rd7], %%r2;\nret;\n}\n");
#undef P
	return s;
}

START_TEST(t_sm35_long_sides)
{
	Tr t;
	BeOptions o;
	char *text = long_sides_ptx();

	rule_opts(&o, BE_RULE_SM35, -1, -1);
	ck_assert(tr_opts(&t, "long_sides.ptx", text, strlen(text), &o));
	ck_assert_int_eq(dec(&t, "many_defs"), BD_PREDICATED);
	ck_assert_int_eq(dec(&t, "many_loads"), BD_BRANCH_SSY);
	ck_assert_ptr_nonnull(strstr(entry(&t, "many_loads", 0)->rule,
	                             "a side uses a global load from an address made before it"));
	tr_free(&t);
	free(text);
}
END_TEST

/* a side that computes its global load's address is held to the divergent limit under a
 * uniform branch too (ptxas 11.8's limit for it is 19 either way): ldin_uni_17.._19 are
 * predicated, _20 is not */
START_TEST(t_sm35_uniform_load_side)
{
	Tr t;
	BeOptions o;
	size_t len;
	char *text = slurp("tests/ptxas-ref/families/ldin_uni.ptx", &len);
	char n[32];

	ck_assert_ptr_nonnull(text);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	ck_assert(tr_opts(&t, "ldin_uni.ptx", text, len, &o));
	for (int k = 17; k <= 20; k++) {
		const BeLogEntry *e;
		snprintf(n, sizeof n, "ldin_uni_%d", k);
		e = entry(&t, n, 0);
		ck_assert(e->uniform);
		ck_assert_int_eq(e->decision, k < 20 ? BD_PREDICATED : BD_BRANCH_UNIFORM);
		ck_assert_ptr_nonnull(strstr(e->rule, k < 20 ? "<= --predicate-max 8" : "> --predicate-max 8"));
	}
	tr_free(&t);
	free(text);
}
END_TEST

/* ------------------------------------------------------------------ nesting and guards */
/* the instruction before i is a PSETP.AND.AND whose first destination guards i */
static int psetp_guards(const Kernel *k, int i)
{
	const Ins *p = &k->ins[i - 1];
	return i > 0 && p->op == OP_PSETP && p->m.bop == BOP_AND && p->m.bop2 == BOP_AND &&
	       p->o[0].reg == k->ins[i].guard && !k->ins[i].gneg;
}

START_TEST(t_nested)
{
	Tr t;
	const Kernel *k;
	int comb = 0;

	ck_assert(tr(&t, "tests/explain/nested.ptx", 7, 4));
	ck_assert_int_eq(dec(&t, "nested_both"), BD_PREDICATED);
	ck_assert_int_eq(entry(&t, "nested_both", 1)->decision, BD_PREDICATED);
	ck_assert_ptr_nonnull(strstr(entry(&t, "nested_both", 0)->rule, "PSETP"));
	k = isa_prog_find(t.p, "nested_both");
	ck_assert_int_eq(count_op(k, OP_BRA) + count_op(k, OP_SSY), 0);
	for (int i = 1; i < k->nins; i++)
		comb += k->ins[i].guard != ISA_PT && psetp_guards(k, i);
	ck_assert_int_ge(comb, 1);
	/* inner first: the inner one is predicated, the outer is then too big */
	ck_assert_int_eq(entry(&t, "nested_outer_big", 0)->decision, BD_BRANCH_SSY);
	ck_assert_int_eq(entry(&t, "nested_outer_big", 1)->decision, BD_PREDICATED);
	ck_assert_int_eq(entry(&t, "nested_outer_big", 0)->size_else, 8);
	ck_assert_int_eq(dec(&t, "nested_else"), BD_PREDICATED);
	ck_assert_int_eq(entry(&t, "nested_uniform_outer", 0)->uniform, 1);
	ck_assert_int_eq(entry(&t, "nested_uniform_outer", 1)->uniform, 0);
	ck_assert_int_eq(dec(&t, "nested_uniform_outer"), BD_PREDICATED);
	tr_free(&t);

	ck_assert(tr(&t, "tests/explain/guarded.ptx", 7, 4));
	k = isa_prog_find(t.p, "guarded_side");
	comb = 0;
	for (int i = 1; i < k->nins; i++)
		comb += k->ins[i].guard != ISA_PT && psetp_guards(k, i);
	ck_assert_int_eq(comb, 2);  /* @p2 and @!p2 inside the side of %p1 */
	ck_assert_int_eq(dec(&t, "writes_cond"), BD_PREDICATED);
	tr_free(&t);
}
END_TEST

START_TEST(t_blocked)
{
	static const char *want[][2] = {
		{"side_barrier", "barrier"}, {"side_call", "call"}, {"side_loop", "loop"},
		{"side_shfl", "warp-wide"},
	};
	Tr t;

	ck_assert(tr(&t, "tests/explain/blocked.ptx", -1, -1));
	for (int i = 0; i < 4; i++) {
		const BeLogEntry *e = entry(&t, want[i][0], 0);
		ck_assert_int_ne(e->decision, BD_PREDICATED);
		ck_assert_msg(strstr(e->rule, want[i][1]) != NULL, "%s: %s", want[i][0], e->rule);
	}
	tr_free(&t);
}
END_TEST

START_TEST(t_exit_side)
{
	Tr t;
	const Kernel *k;
	int gexit = 0, gst = 0;

	ck_assert(tr(&t, "tests/explain/exit.ptx", 7, 4));
	ck_assert_int_eq(dec(&t, "exit_side"), BD_PREDICATED);
	ck_assert_str_eq(entry(&t, "exit_side", 0)->shape, "if-then-exit");
	k = isa_prog_find(t.p, "exit_side");
	for (int i = 0; i < k->nins; i++) {
		gexit += k->ins[i].op == OP_EXIT && k->ins[i].guard != ISA_PT;
		gst += k->ins[i].op == OP_ST && k->ins[i].guard != ISA_PT;
	}
	ck_assert_int_eq(gexit, 1);
	ck_assert_int_eq(gst, 1);
	ck_assert_int_eq(dec(&t, "early_exit"), BD_EXIT);
	ck_assert_int_eq(entry(&t, "early_exit", 0)->uniform, 0);
	ck_assert_str_eq(entry(&t, "loop_back", 0)->shape, "loop-back-edge");
	ck_assert_str_eq(entry(&t, "loop_break", 0)->shape, "loop-exit");
	ck_assert_int_eq(entry(&t, "loop_break", 0)->decision, BD_LOOP_SSY);
	tr_free(&t);
}
END_TEST

START_TEST(t_pressure)
{
	Tr t;

	ck_assert(tr(&t, "tests/explain/pressure.ptx", -1, -1));
	ck_assert_int_eq(dec(&t, "pressure"), BD_BRANCH_SSY);
	ck_assert_ptr_nonnull(strstr(entry(&t, "pressure", 0)->rule, "needs 8 predicates"));
	tr_free(&t);
}
END_TEST

/* ------------------------------------------------------------------ nvcc's shapes */
static const Kernel *kern(const Tr *t, const char *name)
{
	const Kernel *k = isa_prog_find(t->p, name);
	ck_assert_msg(k != NULL, "no kernel %s", name);
	return k;
}

START_TEST(t_nvcc_shapes)
{
	static const char *fam[] = {"lone", "ifuni", "split"};
	Tr t;
	char n[32];

	ck_assert(tr(&t, "tests/explain/nvcc.ptx", 7, 4));
	for (int i = 0; i < 3; i++) {
		static const int div[] = {6, 7, 8}, uni[] = {3, 4, 5};
		for (int j = 0; j < 3; j++) {
			const BeLogEntry *e;
			snprintf(n, sizeof n, "%s_div_%d", fam[i], div[j]);
			e = entry(&t, n, 0);
			ck_assert_int_eq(e->size_then + e->size_else, div[j]);
			ck_assert_int_eq(e->decision, j < 2 ? BD_PREDICATED : BD_BRANCH_SSY);
			/* the bra.uni jumps went with the branch: straight-line code */
			if (j < 2)
				ck_assert_int_eq(count_op(kern(&t, n), OP_BRA) + count_op(kern(&t, n), OP_SSY), 0);
			snprintf(n, sizeof n, "%s_uni_%d", fam[i], uni[j]);
			e = entry(&t, n, 0);
			ck_assert_int_eq(e->size_then + e->size_else, uni[j]);
			ck_assert_int_eq(e->decision, j < 2 ? BD_PREDICATED : BD_BRANCH_UNIFORM);
		}
	}
	/* @p bra THEN; bra.uni JOIN is an if-then whose other side is empty */
	ck_assert_str_eq(entry(&t, "ifuni_div_7", 0)->shape, "if-then");
	ck_assert_int_eq(entry(&t, "ifuni_div_7", 0)->size_else, 0);
	ck_assert_str_eq(entry(&t, "lone_div_7", 0)->shape, "if-then-else");
	/* the two pieces of a side are costed together: 3 + 2 */
	ck_assert_int_eq(entry(&t, "split_div_8", 0)->size_else, 5);
	ck_assert_int_eq(entry(&t, "split_div_8", 0)->size_then, 3);
	ck_assert_ptr_nonnull(strstr(entry(&t, "split_div_8", 0)->rule, "cost 8 > --predicate-max 7"));
	/* nested ifs sharing one join: inner first, then the outer side is one block */
	ck_assert_int_eq(entry(&t, "nest_both", 0)->decision, BD_PREDICATED);
	ck_assert_int_eq(entry(&t, "nest_both", 1)->decision, BD_PREDICATED);
	ck_assert_int_eq(count_op(kern(&t, "nest_both"), OP_BRA), 0);
	ck_assert_int_eq(entry(&t, "nest_outer_big", 0)->decision, BD_BRANCH_SSY);
	ck_assert_int_eq(entry(&t, "nest_outer_big", 0)->size_else, 5);
	ck_assert_int_eq(entry(&t, "nest_outer_big", 1)->decision, BD_PREDICATED);
	/* a side behind the lone bra.uni that stores and returns: its EXIT counts */
	for (int j = 0; j < 3; j++) {
		const BeLogEntry *e;
		snprintf(n, sizeof n, "ret_div_%d", 6 + j);
		e = entry(&t, n, 0);
		ck_assert_str_eq(e->shape, "if-then-exit");
		ck_assert_int_eq(e->size_else, 6 + j);
		ck_assert_int_eq(e->decision == BD_PREDICATED, j < 2);
		snprintf(n, sizeof n, "ret_uni_%d", 3 + j);
		ck_assert_int_eq(entry(&t, n, 0)->decision == BD_PREDICATED, j < 2);
	}
	tr_free(&t);

	/* at inf: the sides above the thresholds are predicated */
	ck_assert(tr(&t, "tests/explain/nvcc.ptx", -1, -1));
	ck_assert_int_eq(entry(&t, "nest_outer_big", 0)->decision, BD_PREDICATED);
	ck_assert_int_eq(entry(&t, "split_div_8", 0)->decision, BD_PREDICATED);
	ck_assert_int_eq(entry(&t, "ret_div_8", 0)->decision, BD_PREDICATED);
	{
		const Kernel *k = kern(&t, "ret_div_8");
		int gexit = 0, gst = 0;
		for (int i = 0; i < k->nins; i++) {
			gexit += k->ins[i].op == OP_EXIT && k->ins[i].guard != ISA_PT;
			gst += k->ins[i].op == OP_ST && k->ins[i].guard != ISA_PT;
		}
		ck_assert_int_eq(gexit, 1);  /* @!P EXIT after the side's guarded store */
		ck_assert_int_eq(gst, 1);
		ck_assert_int_eq(count_op(k, OP_BRA), 0);
	}
	/* a switch's shared default is never a side of its own, even at inf */
	for (int i = 0; i < 3; i++) {
		const BeLogEntry *e = entry(&t, "cases", i);
		ck_assert_int_ne(e->decision, BD_PREDICATED);
		ck_assert_int_eq(e->size_then, -1);
		ck_assert_msg(strstr(e->rule, i == 1 ? "a branch that stayed (line 809)" :
		                     "(line 821) is also entered from other paths") != NULL, "%s", e->rule);
	}
	ck_assert_ptr_nonnull(strstr(entry(&t, "cases", 0)->rule, "taken side"));
	ck_assert_ptr_nonnull(strstr(entry(&t, "cases", 2)->rule, "fall-through side"));
	tr_free(&t);

	/* the README's example: an if/else behind a lone bra.uni, 13 + 17 */
	ck_assert(tr(&t, "examples/divergence.ptx", -1, -1));
	ck_assert_int_eq(entry(&t, "divergence", 2)->ptxline, 70);
	ck_assert_int_eq(entry(&t, "divergence", 2)->decision, BD_PREDICATED);
	ck_assert_int_eq(entry(&t, "divergence", 2)->size_then, 13);
	ck_assert_int_eq(entry(&t, "divergence", 2)->size_else, 17);
	tr_free(&t);
}
END_TEST

/* the JSON row of func's branch at PTX line (every branch of func when line is 0) that
 * predicated its fall-through side alone (one-side, ret-nest: shape): its taken and
 * fall-through sizes, "predicated_side" "fallthrough" and the rule saying so */
static void side_alone_json(const Tr *t, const char *func, int line, const char *shape,
                            int taken, int fall)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_error_t err;
	json_t *root, *br;
	int seen = 0;

	be_log_print_json(f, &t->log);
	fclose(f);
	root = json_loads(buf, 0, &err);
	ck_assert_msg(root != NULL, "JSON error line %d: %s", err.line, err.text);
	br = json_object_get(root, "branches");
	for (size_t i = 0; i < json_array_size(br); i++) {
		json_t *e = json_array_get(br, i);
		const char *side = json_string_value(json_object_get(e, "predicated_side"));
		if (strcmp(json_string_value(json_object_get(e, "function")), func) ||
		    (line && json_integer_value(json_object_get(e, "ptx_line")) != line)) {
			/* every other row: both sides when predicated, null when not */
			if (!strcmp(json_string_value(json_object_get(e, "decision")), "predicated"))
				ck_assert(side && (!strcmp(side, "both") || !strcmp(side, "fallthrough")));
			else
				ck_assert(json_is_null(json_object_get(e, "predicated_side")));
			continue;
		}
		seen++;
		ck_assert_str_eq(json_string_value(json_object_get(e, "shape")), shape);
		ck_assert_int_eq(json_integer_value(json_object_get(e, "size_taken")), taken);
		ck_assert_int_eq(json_integer_value(json_object_get(e, "size_fallthrough")), fall);
		ck_assert_str_eq(side, "fallthrough");
		ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(e, "rule")),
		                             "fall-through side predicated alone"));
	}
	ck_assert_int_eq(seen, 1);
	json_decref(root);
	free(buf);
}

/* --explain's text row of func's ret-nest: its taken and fall-through columns */
static void ret_nest_text(const Tr *t, const char *func, int taken, int fall)
{
	char *buf = NULL, head[64];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *sec, *row;
	int tk = -1, fl = -1;

	be_log_print(f, &t->log);
	fclose(f);
	snprintf(head, sizeof head, "\n%s (", func);
	sec = strstr(buf, head);
	ck_assert_ptr_nonnull(sec);
	row = strstr(sec, " ret-nest ");
	ck_assert_ptr_nonnull(row);
	ck_assert_int_eq(sscanf(row, " ret-nest %d %d", &tk, &fl), 2);
	ck_assert_int_eq(tk, taken);
	ck_assert_int_eq(fl, fall);
	free(buf);
}

/* ret-nest (tests/ptx/ret_nest, ptxas 11.8's listing beside it): an early return on the
 * branch's target inside an if/else; the side that goes on is predicated, counted with its
 * jump, and leaves for the if/else's join by `@P BRK` to a PBK pushed before the if/else
 * (divergent), or by a guarded BRA (uniform) */
static void count_brk(const Kernel *k, int *pbk, int *gbrk, int *brk)
{
	*pbk = *gbrk = *brk = 0;
	for (int i = 0; i < k->nins; i++) {
		*pbk += k->ins[i].op == OP_PBK;
		*gbrk += k->ins[i].op == OP_BRK && k->ins[i].guard != ISA_PT;
		*brk += k->ins[i].op == OP_BRK && k->ins[i].guard == ISA_PT;
	}
}

START_TEST(t_ret_nest)
{
	Tr t;
	BeOptions o;
	size_t len;
	char *text = slurp("tests/ptx/ret_nest.ptx", &len);
	int pbk, gbrk, brk;

	ck_assert_ptr_nonnull(text);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	o.loop_sync = BE_LOOP_PBK;
	o.early_return = BE_RET_GUARDED;
	ck_assert(tr_opts(&t, "ret_nest.ptx", text, len, &o));
	/* nest_div: a side of 7 and its jump, at the limit 8 */
	ck_assert_int_eq(dec(&t, "nest_div"), BD_BRANCH_NOSYNC);
	ck_assert_int_eq(entry(&t, "nest_div", 1)->decision, BD_PREDICATED);
	ck_assert_str_eq(entry(&t, "nest_div", 1)->shape, "ret-nest");
	ck_assert_int_eq(entry(&t, "nest_div", 1)->size_else, 7);
	ck_assert_ptr_nonnull(strstr(entry(&t, "nest_div", 1)->rule, "larger side 8 <= --predicate-max 8"));
	/* the report gives the early return's own size (it was 0) and what was done with each
	 * side, in the text and in the JSON */
	ret_nest_text(&t, "nest_div", 3, 7);
	side_alone_json(&t, "nest_div", 81, "ret-nest", 3, 7);
	side_alone_json(&t, "nest_uni", 118, "ret-nest", 2, 3);
	ck_assert_int_eq(entry(&t, "nest_div", 1)->size_then, 3);
	ck_assert_str_eq(entry(&t, "nest_div", 1)->rule, "larger side 8 <= --predicate-max 8; "
	                 "taken side returns early (3 instructions, then RET): fall-through side "
	                 "predicated alone, with its jump, the branch kept over the taken side");
	ck_assert_int_eq(entry(&t, "nest_uni", 1)->size_then, 2);
	ck_assert_int_eq(entry(&t, "nest_deep", 1)->size_then, 2);
	ck_assert_int_eq(entry(&t, "nest_uni", 1)->decision, BD_PREDICATED);
	ck_assert(entry(&t, "nest_uni", 1)->uniform);
	ck_assert_int_eq(entry(&t, "nest_deep", 1)->decision, BD_PREDICATED);
	/* nest_deep and nest_div push a PBK and leave by @P BRK; their else sides end in BRK
	 * (nest_deep's inner if/else both sides); nest_uni's side leaves by a guarded BRA.U */
	count_brk(kern(&t, "ret_nest"), &pbk, &gbrk, &brk);
	ck_assert_int_eq(pbk, 2);
	ck_assert_int_eq(gbrk, 2);
	ck_assert_int_eq(brk, 3);
	ck_assert_int_eq(count_op(kern(&t, "ret_nest"), OP_SSY), 0);
	tr_free(&t);

	/* one less: nest_div's side (8 with its jump) stays a branch, and only nest_deep pushes */
	o.predicate_max = 7;
	ck_assert(tr_opts(&t, "ret_nest.ptx", text, len, &o));
	ck_assert_int_ne(entry(&t, "nest_div", 1)->decision, BD_PREDICATED);
	ck_assert_str_eq(entry(&t, "nest_div", 1)->shape, "ret-nest");
	ck_assert_int_eq(entry(&t, "nest_div", 1)->size_then, 3);
	ck_assert_ptr_nonnull(strstr(entry(&t, "nest_div", 1)->rule, "larger side 8 > "
	                             "--predicate-max 7; taken side returns early (3 instructions, "
	                             "then RET): fall-through side counted alone, with its jump"));
	count_brk(kern(&t, "ret_nest"), &pbk, &gbrk, &brk);
	ck_assert_int_eq(pbk, 1);
	ck_assert_int_eq(gbrk, 1);
	tr_free(&t);

	/* without PBK (--loop-sync ssy) a divergent one is no hammock; the uniform one still is */
	o.predicate_max = 8;
	o.loop_sync = BE_LOOP_SSY;
	ck_assert(tr_opts(&t, "ret_nest.ptx", text, len, &o));
	ck_assert_int_eq(entry(&t, "nest_div", 1)->decision, BD_BRANCH_NOSYNC);
	ck_assert_int_eq(entry(&t, "nest_uni", 1)->decision, BD_PREDICATED);
	count_brk(kern(&t, "ret_nest"), &pbk, &gbrk, &brk);
	ck_assert_int_eq(pbk + gbrk + brk, 0);
	tr_free(&t);
	free(text);
}
END_TEST

/* the op counts of kernel k that t_kept_fallback checks: PBK, guarded BRK, guarded EXIT, and
 * a guarded BRA right before an unguarded EXIT (a back edge kept before the EXIT) */
static void kept_ops(const Kernel *k, int *pbk, int *gbrk, int *gexit, int *kept)
{
	*pbk = *gbrk = *gexit = *kept = 0;
	for (int i = 0; i < k->nins; i++) {
		const Ins *in = &k->ins[i];
		*pbk += in->op == OP_PBK;
		*gbrk += in->op == OP_BRK && in->guard != ISA_PT;
		*gexit += in->op == OP_EXIT && in->guard != ISA_PT;
		*kept += in->op == OP_EXIT && in->guard == ISA_PT && i > 0 &&
		         k->ins[i - 1].op == OP_BRA && k->ins[i - 1].guard != ISA_PT;
	}
}

/* the loop nests of tests/ptx/kept_fallback, kept_else, kept_nest and kept_spin, whose outer
 * latch falls into the kernel's end, around inner loops left by a break from one side of a
 * divergent if/else: as ptxas 11.8 for sm_35, each inner loop is bracketed with PBK, its
 * if/else joins in the trip and the break leaves by @P BRK (pbk.c, be_leave_join and
 * be_trip_join), so the outer back edge stays before the EXIT (@P BRA head; EXIT) and its log
 * entry says so. kept_spin's side that stays holds a loop of its own: the if/else pushes the
 * SSY of its join in the trip all the same, and its side that breaks comes after the spin
 * loop (be_trip_order: the BRK after the spin loop's SSY). tests/ptx/kept_cont, whose side
 * that stays continues to the inner loop's head, gets a latch block of its own that the
 * continue and the join's jump back go through (be_trip_latch), the if/else's join in the
 * trip: its SSY is pushed every trip, and the back edge stays too (it was emitted again with
 * the fold's layout before). loop_to_exit's latches keep theirs. */
START_TEST(t_kept_fallback)
{
	/* rule0: the if/else's (t_one_side_break: its short side predicated alone); nssy: the
	 * SSYs before the guarded BRKs (kept_spin's break after the spin loop's), -1: any */
	static const struct { const char *name; int pbk, outer, nssy; const char *rule0; } kept[] = {
		{"kept_fallback", 1, 2, -1, "side predicated alone"},
		{"kept_else", 1, 2, -1, "side predicated alone"},
		{"kept_nest", 2, 4, -1, "side predicated alone"},
		{"kept_spin", 1, 3, 2, "SSY every trip at the join"},
		{"kept_cont", 1, 3, 1, "SSY every trip at the join"},
	};
	Tr t;
	BeOptions o;
	size_t len;
	char path[64], *text;
	const Kernel *k;
	int pbk, gbrk, gexit, nkept;

	rule_opts(&o, BE_RULE_SM35, 8, 6);
	o.loop_sync = BE_LOOP_PBK;
	o.early_return = BE_RET_GUARDED;
	for (size_t f = 0; f < sizeof kept / sizeof kept[0]; f++) {
		snprintf(path, sizeof path, "tests/ptx/%s.ptx", kept[f].name);
		text = slurp(path, &len);
		ck_assert_ptr_nonnull(text);
		ck_assert(tr_opts(&t, path, text, len, &o));
		ck_assert_int_eq(entry(&t, kept[f].name, kept[f].outer)->decision, BD_BRANCH_UNIFORM);
		ck_assert_str_eq(entry(&t, kept[f].name, kept[f].outer)->shape, "loop-exit");
		ck_assert_ptr_nonnull(strstr(entry(&t, kept[f].name, kept[f].outer)->rule,
		                             "the back edge stays"));
		ck_assert_ptr_nonnull(strstr(entry(&t, kept[f].name, 0)->rule, kept[f].rule0));
		k = kern(&t, kept[f].name);
		kept_ops(k, &pbk, &gbrk, &gexit, &nkept);
		ck_assert_int_eq(pbk, kept[f].pbk);
		ck_assert_int_eq(gbrk, kept[f].pbk);
		ck_assert_int_eq(gexit, 0);
		ck_assert_int_eq(nkept, 1);
		for (int i = 0, nssy = 0; i < k->nins && kept[f].nssy >= 0; i++) {
			nssy += k->ins[i].op == OP_SSY;
			if (k->ins[i].op == OP_BRK && k->ins[i].guard != ISA_PT)
				ck_assert_int_eq(nssy, kept[f].nssy);
		}
		tr_free(&t);
		free(text);
	}

	/* kept_cont's latch of its own (be_trip_latch): the continue arrives at its SSY by
	 * @P NOP.S, the join by .S, and the latch is a plain BRA back to the head */
	text = slurp("tests/ptx/kept_cont.ptx", &len);
	ck_assert_ptr_nonnull(text);
	ck_assert(tr_opts(&t, "kept_cont.ptx", text, len, &o));
	k = kern(&t, "kept_cont");
	for (int i = 0, ssy = -1, nops = 0; i < k->nins; i++) {
		const Ins *in = &k->ins[i];
		if (in->op == OP_SSY)
			ssy = (int)in->o[0].imm;
		nops += in->op == OP_NOP && in->sync && in->guard != ISA_PT;
		if (ssy >= 0 && in->addr == (uint32_t)ssy) {
			ck_assert_int_eq(in->op, OP_BRA);
			ck_assert_int_eq(in->guard, ISA_PT);
			ck_assert_int_eq(nops, 1);
			ck_assert_int_eq(k->ins[i - 1].sync, 1);
		}
	}
	tr_free(&t);
	free(text);

	text = slurp("tests/ptx/loop_to_exit.ptx", &len);
	ck_assert_ptr_nonnull(text);
	ck_assert(tr_opts(&t, "loop_to_exit.ptx", text, len, &o));
	gexit = 0;
	for (int i = 0; i < t.log.n; i++)
		if (!strcmp(t.log.e[i].shape, "loop-exit"))
			gexit = -1;
	ck_assert_int_eq(gexit, -1);
	tr_free(&t);
	free(text);

	/* clang's latch `@p bra head; bra.uni end; head:` (end only `ret`): `@!P EXIT` falling
	 * into the head, as ptxas lays it, divergent (CTA 0's, log entry 2) or not (entry 4);
	 * no SSY, PBK or kept back edge in the kernel */
	text = slurp("tests/ptx/latch_jump.ptx", &len);
	ck_assert_ptr_nonnull(text);
	ck_assert(tr_opts(&t, "latch_jump.ptx", text, len, &o));
	expect_entry(&t, "latch_jump", 2, BD_EXIT, "guarded EXIT");
	expect_entry(&t, "latch_jump", 4, BD_EXIT, "guarded EXIT");
	k = kern(&t, "latch_jump");
	kept_ops(k, &pbk, &gbrk, &gexit, &nkept);
	ck_assert_int_eq(pbk, 0);
	ck_assert_int_eq(nkept, 0);
	ck_assert_int_eq(count_op(k, OP_SSY), 0);
	ck_assert_int_eq(gexit, 4);
	tr_free(&t);
	free(text);
}
END_TEST

/* tests/ptx/exit_copy: three loops, each left by a divergent break and by its latch test, both
 * to one block. As ptxas 11.8 for sm_35, the first two (nvcc's phi copies before both exits; a
 * value computed before the latch test that only the block after the loop reads) are
 * bracketed with PBK and break by @P BRK, their latch's exit path ending in BRK: the exit edge
 * carries a value of its own (pbk.c's exit_copy); the third, whose exits carry only its own
 * counter, keeps its SSY and .S */
START_TEST(t_exit_copy)
{
	Tr t;
	BeOptions o;
	size_t len;
	char *text = slurp("tests/ptx/exit_copy.ptx", &len);
	const Kernel *k;
	int pbk = 0, gbrk = 0, brk = 0;

	ck_assert_ptr_nonnull(text);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	o.loop_sync = BE_LOOP_PBK;
	ck_assert(tr_opts(&t, "exit_copy.ptx", text, len, &o));
	k = kern(&t, "exit_copy");
	count_brk(k, &pbk, &gbrk, &brk);
	ck_assert_int_eq(pbk, 2);
	ck_assert_int_eq(gbrk, 2);
	ck_assert_int_eq(brk, 2);
	ck_assert_int_eq(count_op(k, OP_SSY), 1);
	tr_free(&t);
	free(text);
}
END_TEST

/* one-side (ptxas 11.8 for sm_35, the tuning family ifelse1_div and kernels written for the
 * rule): an if/else too long to predicate whole, whose fall-through side of n instructions
 * goes to the join, has that side predicated alone, counted with its jump (n + 1 against 8
 * divergent, 6 uniform), and its lanes leave by `@P NOP.S` (divergent) or a guarded BRA;
 * a short taken side stays a branch */
static char *one_side_ptx(void)
{
	static const int fall[][3] = {   /* fall-through side, taken side, uniform */
		{ 7, 14, 0 }, { 8, 14, 0 }, { 5, 14, 1 }, { 6, 14, 1 }, { 14, 3, 0 },
	};
	char *s = calloc(1, 16384);
	size_t n = 0;

#define P(...) (n += (size_t)snprintf(s + n, 16384 - n, __VA_ARGS__))
	P(".version 7.8\n.target sm_35\n.address_size 64\n");
	for (int k = 0; k < 5; k++) {
		P(".visible .entry one_%d(.param .u64 out, .param .u32 q)\n{\n"
		  ".reg .pred %%p<2>;\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n"
		  "ld.param.u64 %%rd1, [out];\nld.param.u32 %%r1, [q];\nmov.u32 %%r2, %%tid.x;\n"
		  "mov.u32 %%r3, %%r2;\nsetp.lt.u32 %%p1, %%r%d, 16;\n@%%p1 bra ELSE;\n",
		  k, fall[k][2] ? 1 : 2);
		for (int i = 0; i < fall[k][0]; i++)
			P(i % 2 ? "xor.b32 %%r3, %%r3, %%r2;\n" : "add.s32 %%r3, %%r3, %%r1;\n");
		P("bra.uni JOIN;\nELSE:\n");
		for (int i = 0; i < fall[k][1]; i++)
			P(i % 2 ? "add.s32 %%r3, %%r3, %%r2;\n" : "xor.b32 %%r3, %%r3, %%r1;\n");
		P("JOIN:\ncvta.to.global.u64 %%rd2, %%rd1;\nmul.wide.u32 %%rd3, %%r2, 4;\n"
		  "add.s64 %%rd2, %%rd2, %%rd3;\nst.global.u32 [%%rd2], %%r3;\nret;\n}\n");
	}
#undef P
	return s;
}

/* a one-side whose fall-through side, predicated alone, carries a note of the sm_35 count
 * (one more for its one global store): --explain's reason holds the whole if/else's reason
 * and the side's, its note whole (a cut of either to fit the record once ended the side's
 * note mid-word: "(counted as ptxas: 1 more for t") */
START_TEST(t_one_side_note)
{
	static const char text[] =
		".version 7.8\n.target sm_35\n.address_size 64\n"
		".visible .entry note_0(.param .u64 out, .param .u32 q)\n{\n"
		".reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<5>;\n"
		"ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [q];\ncvta.to.global.u64 %rd4, %rd1;\n"
		"mov.u32 %r2, %tid.x;\nmov.u32 %r3, %r2;\nsetp.lt.u32 %p1, %r2, 16;\n@%p1 bra ELSE;\n"
		"xor.b32 %r3, %r3, %r2;\nadd.s32 %r4, %r2, %r1;\nmul.wide.u32 %rd3, %r4, 4;\n"
		"add.s64 %rd2, %rd4, %rd3;\nst.global.u32 [%rd2], %r3;\nadd.s32 %r3, %r3, %r1;\n"
		"bra.uni JOIN;\nELSE:\n"
		"xor.b32 %r3, %r3, %r1;\nadd.s32 %r3, %r3, %r2;\nxor.b32 %r3, %r3, %r1;\n"
		"add.s32 %r3, %r3, %r2;\nxor.b32 %r3, %r3, %r1;\nadd.s32 %r3, %r3, %r2;\n"
		"xor.b32 %r3, %r3, %r1;\nadd.s32 %r3, %r3, %r2;\nxor.b32 %r3, %r3, %r1;\n"
		"add.s32 %r3, %r3, %r2;\nxor.b32 %r3, %r3, %r1;\nadd.s32 %r3, %r3, %r2;\n"
		"xor.b32 %r3, %r3, %r1;\nadd.s32 %r3, %r3, %r2;\n"
		"JOIN:\nmul.wide.u32 %rd3, %r2, 4;\nadd.s64 %rd2, %rd4, %rd3;\n"
		"st.global.u32 [%rd2], %r3;\nret;\n}\n";
	Tr t;
	BeOptions o;

	rule_opts(&o, BE_RULE_SM35, 8, 6);
	ck_assert(tr_opts(&t, "one_side_note.ptx", text, strlen(text), &o));
	ck_assert_int_eq(dec(&t, "note_0"), BD_PREDICATED);
	ck_assert_str_eq(entry(&t, "note_0", 0)->rule, "whole if/else kept (larger side 14 > "
	                 "--predicate-max 8); fall-through side predicated alone (8 <= "
	                 "--predicate-max 8 (counted as ptxas: 1 more for the side's one global "
	                 "store), with its jump), the branch kept over the taken side");
	tr_free(&t);
}
END_TEST

/* the guarded NOP.S, and the guarded BRA, of kernel name */
static void one_side_ops(const Tr *t, const char *name, int *gnops, int *gbra)
{
	const Kernel *k = kern(t, name);

	*gnops = *gbra = 0;
	for (int i = 0; i < k->nins; i++) {
		*gnops += k->ins[i].op == OP_NOP && k->ins[i].sync && k->ins[i].guard != ISA_PT;
		*gbra += k->ins[i].op == OP_BRA && k->ins[i].guard != ISA_PT;
	}
}

START_TEST(t_one_side)
{
	Tr t;
	BeOptions o;
	char *text = one_side_ptx();
	int nops, bras;

	rule_opts(&o, BE_RULE_SM35, 8, 6);
	ck_assert(tr_opts(&t, "one_side.ptx", text, strlen(text), &o));
	ck_assert_int_eq(dec(&t, "one_0"), BD_PREDICATED);
	ck_assert_str_eq(entry(&t, "one_0", 0)->shape, "one-side");
	ck_assert_int_eq(entry(&t, "one_0", 0)->size_else, 7);
	/* the report says what was done and why: the taken side's own size (it was 0), why the
	 * if/else was not predicated whole, and that the fall-through side alone was */
	ck_assert_int_eq(entry(&t, "one_0", 0)->size_then, 14);
	ck_assert_int_eq(entry(&t, "one_0", 0)->side_alone, 1);
	ck_assert_str_eq(entry(&t, "one_0", 0)->rule, "whole if/else kept (larger side 14 > "
	                 "--predicate-max 8); fall-through side predicated alone (8 <= "
	                 "--predicate-max 8, with its jump), the branch kept over the taken side");
	side_alone_json(&t, "one_0", 0, "one-side", 14, 7);
	ck_assert_int_eq(entry(&t, "one_2", 0)->size_then, 14);
	ck_assert_ptr_nonnull(strstr(entry(&t, "one_2", 0)->rule, "(larger side 14 > "
	                             "--predicate-max-uniform 6); fall-through side predicated "
	                             "alone (6 <= --predicate-max-uniform 6,"));
	one_side_ops(&t, "one_0", &nops, &bras);
	ck_assert_int_eq(nops, 1);   /* @P NOP.S: the side's lanes arrive at the join */
	ck_assert_int_eq(bras, 0);
	ck_assert_int_eq(count_op(kern(&t, "one_0"), OP_SSY), 1);
	ck_assert_int_eq(dec(&t, "one_1"), BD_BRANCH_SSY);
	ck_assert_str_eq(entry(&t, "one_1", 0)->shape, "if-then-else");
	ck_assert_int_eq(dec(&t, "one_2"), BD_PREDICATED);
	ck_assert_str_eq(entry(&t, "one_2", 0)->shape, "one-side");
	one_side_ops(&t, "one_2", &nops, &bras);
	ck_assert_int_eq(nops, 0);
	ck_assert_int_eq(bras, 1);   /* uniform: @P BRA to the join */
	ck_assert_int_eq(count_op(kern(&t, "one_2"), OP_SSY), 0);
	ck_assert_int_ne(dec(&t, "one_3"), BD_PREDICATED);   /* 6 and its jump > 6 uniform */
	ck_assert_str_eq(entry(&t, "one_3", 0)->shape, "if-then-else");
	ck_assert_int_ne(dec(&t, "one_4"), BD_PREDICATED);   /* a short taken side */
	ck_assert_str_eq(entry(&t, "one_4", 0)->shape, "if-then-else");
	tr_free(&t);

	/* the guide rule (fermi.cfg) keeps the if/else whole */
	rule_opts(&o, BE_RULE_GUIDE, 7, 4);
	ck_assert(tr_opts(&t, "one_side.ptx", text, strlen(text), &o));
	ck_assert_int_ne(dec(&t, "one_0"), BD_PREDICATED);
	ck_assert_str_eq(entry(&t, "one_0", 0)->shape, "if-then-else");
	tr_free(&t);
	free(text);
}
END_TEST

/* one-side at a loop's header (tests/ptx/one_side_loop, as ptxas 11.8 for sm_35 compiles it:
 * tests/ptxas-ref/one_side_loop.sass): an if/else whose sides both continue to a while
 * loop's header has its fall-through side predicated alone, within the same limits (7
 * divergent, 5 uniform; 8 stays a branch) */
START_TEST(t_one_side_loop)
{
	static const struct { int line; const char *shape; int pred, taken, fall, uni; } want[] = {
		{ 34, "one-side", 1, 10, 7, 0 },
		{ 64, "if-then-else", 0, 10, 8, 0 },
		{ 95, "one-side", 1, 10, 5, 1 },
	};
	Tr t;
	BeOptions o;
	size_t len;
	char *text = slurp("tests/ptx/one_side_loop.ptx", &len);
	int nops, bras;

	ck_assert(text != NULL);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	ck_assert(tr_opts(&t, "tests/ptx/one_side_loop.ptx", text, len, &o));
	for (int k = 0; k < 3; k++) {
		const BeLogEntry *e = at_line(&t, want[k].line);
		ck_assert_msg(!strcmp(e->shape, want[k].shape), "line %d: %s", e->ptxline, e->shape);
		ck_assert_int_eq(e->decision == BD_PREDICATED, want[k].pred);
		ck_assert_int_eq(e->size_then, want[k].taken);
		ck_assert_int_eq(e->size_else, want[k].fall);
		ck_assert_int_eq(e->uniform, want[k].uni);
	}
	one_side_ops(&t, "one_side_loop", &nops, &bras);
	/* @P NOP.S of the loops' exits (3), of the divergent one-side (1); the uniform one-side
	 * leaves by a guarded BRA, the kept if/else by its @P BRA */
	ck_assert_int_eq(nops, 4);
	ck_assert_int_eq(bras, 2);
	tr_free(&t);
	free(text);
}
END_TEST

/* one-side whose fall-through side falls into the join (tests/ptx/one_side_fall, ptxas's
 * listing beside it): counted with the @P NOP.S its lanes leave by, as a side that ends in its
 * jump, 7 are predicated alone and 8 stay a branch */
START_TEST(t_one_side_fall)
{
	Tr t;
	BeOptions o;
	size_t len;
	char *text = slurp("tests/ptx/one_side_fall.ptx", &len);

	ck_assert(text != NULL);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	ck_assert(tr_opts(&t, "tests/ptx/one_side_fall.ptx", text, len, &o));
	ck_assert_int_eq(at_line(&t, 27)->decision, BD_PREDICATED);
	ck_assert_str_eq(at_line(&t, 27)->shape, "one-side");
	ck_assert_int_eq(at_line(&t, 27)->size_else, 7);
	ck_assert_msg(at_line(&t, 52)->decision == BD_BRANCH_SSY, "%s", at_line(&t, 52)->rule);
	tr_free(&t);
	free(text);
}
END_TEST

/* one-side to a join inside the region (tests/ptx/one_side_join, the clamp of Rodinia's dwt2d by
 * clang): the short fall-through side jumps to a join that the taken side's own branch may
 * skip, not to the post-dominator; ptxas 11.8 predicates it alone all the same, divergent or
 * uniform, and keeps the branch, inverted, as a plain guarded BRA to that join. Without the
 * rule the three stay whole if/else branches */
START_TEST(t_one_side_join)
{
	static const struct { int line, fall, uni; } want[] = {
		{ 34, 2, 0 }, { 55, 1, 0 }, { 74, 2, 1 },
	};
	Tr t;
	BeOptions o;
	size_t len;
	char *text = slurp("tests/ptx/one_side_join.ptx", &len);
	int nops, bras;

	ck_assert(text != NULL);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	o.loop_sync = BE_LOOP_PBK;   /* (kepler.cfg's, as ptxas: the inner branches leave by BRK) */
	ck_assert(tr_opts(&t, "tests/ptx/one_side_join.ptx", text, len, &o));
	for (int k = 0; k < 3; k++) {
		const BeLogEntry *e = at_line(&t, want[k].line);
		ck_assert_msg(!strcmp(e->shape, "one-side"), "line %d: %s", e->ptxline, e->shape);
		ck_assert_int_eq(e->decision, BD_PREDICATED);
		ck_assert_int_eq(e->side_alone, 1);
		ck_assert_int_eq(e->size_else, want[k].fall);
		ck_assert_int_eq(e->uniform, want[k].uni);
	}
	/* the kept branches to the joins (3) and the uniform inner branch (1); the divergent
	 * inner branches leave by @P BRK for the PBK at the post-dominator, no @P NOP.S */
	one_side_ops(&t, "one_side_join", &nops, &bras);
	ck_assert_int_eq(nops, 0);
	ck_assert_int_eq(bras, 4);
	ck_assert_int_eq(count_op(kern(&t, "one_side_join"), OP_PBK), 2);
	tr_free(&t);
	free(text);
}
END_TEST

/* a side of five moves of zero stays a branch (tests/ptx/side_zeros, ptxas 11.8's listing
 * beside it; Rodinia's rdwt53 and rdwt97 by clang): four with three other instructions are
 * predicated; five, an if-then's divergent or uniform or an if/else's short side alone (one
 * move of zero and four copies of it), are not */
START_TEST(t_sm35_zeros)
{
	static const struct { int line; BeDecision dec; } want[] = {
		{ 34, BD_PREDICATED }, { 46, BD_BRANCH_SSY }, { 63, BD_BRANCH_SSY },
		{ 100, BD_BRANCH_UNIFORM },
	};
	Tr t;
	BeOptions o;
	size_t len;
	char *text = slurp("tests/ptx/side_zeros.ptx", &len);

	ck_assert(text != NULL);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	ck_assert(tr_opts(&t, "tests/ptx/side_zeros.ptx", text, len, &o));
	for (int k = 0; k < 4; k++) {
		const BeLogEntry *e = at_line(&t, want[k].line);
		ck_assert_msg(e->decision == want[k].dec, "line %d: %s", e->ptxline, e->rule);
		ck_assert_msg(k == 0 || strstr(e->rule, "a side of 5 moves of zero"),
		              "line %d: %s", e->ptxline, e->rule);
	}
	tr_free(&t);
	free(text);
}
END_TEST

/* one-side in a loop whose other side breaks out of it (tests/ptx/kept_fallback, kept_else
 * and ptxas 11.8's listings of them): under --loop-sync pbk the short side that stays in the
 * trip is predicated alone, its lanes leaving by @P NOP.S for the join inside the trip, the
 * breaking side after it: the fall-through side (kept_else), or the taken side when the
 * fall-through breaks (kept_fallback), counted with the NOP.S as its jump (2 and 1: 3 > 2
 * keeps the branch). Without PBK the join is no if/else's: the branch stays */
START_TEST(t_one_side_break)
{
	static const struct { const char *file, *name; int alone; } want[] = {
		{ "tests/ptx/kept_fallback.ptx", "kept_fallback", 2 },
		{ "tests/ptx/kept_else.ptx", "kept_else", 1 },
	};
	for (int w = 0; w < 2; w++) {
		Tr t;
		BeOptions o;
		size_t len;
		char *text = slurp(want[w].file, &len);
		int nops, bras;

		ck_assert(text != NULL);
		rule_opts(&o, BE_RULE_SM35, 8, 6);
		o.loop_sync = BE_LOOP_PBK;
		ck_assert(tr_opts(&t, want[w].file, text, len, &o));
		ck_assert_str_eq(entry(&t, want[w].name, 0)->shape, "one-side");
		ck_assert_int_eq(dec(&t, want[w].name), BD_PREDICATED);
		ck_assert_int_eq(entry(&t, want[w].name, 0)->side_alone, want[w].alone);
		one_side_ops(&t, want[w].name, &nops, &bras);
		ck_assert_int_eq(nops, 1);   /* @P NOP.S: the side's lanes arrive at the join */
		ck_assert_int_eq(count_op(kern(&t, want[w].name), OP_SSY), 1);
		ck_assert_int_eq(count_op(kern(&t, want[w].name), OP_BRK), 1);
		tr_free(&t);

		rule_opts(&o, BE_RULE_SM35, 2, 6);
		o.loop_sync = BE_LOOP_PBK;
		ck_assert(tr_opts(&t, want[w].file, text, len, &o));
		ck_assert_int_eq(dec(&t, want[w].name), BD_BRANCH_SSY);
		tr_free(&t);

		rule_opts(&o, BE_RULE_SM35, 8, 6);
		ck_assert(tr_opts(&t, want[w].file, text, len, &o));
		ck_assert_int_ne(dec(&t, want[w].name), BD_PREDICATED);
		tr_free(&t);
		free(text);
	}
}
END_TEST

/* the uniform if/else with a side that breaks (tests/ptx/brk_uni, ptxas 11.8's listing
 * beside it): under kepler.cfg's rules the side that stays is predicated alone up to the
 * uniform limit, the branch a guarded BRA.U to the join, no PBK; a longer side stays a branch,
 * laid out first (the side that breaks, with the @P NOP.S of the loop's SSY, after the
 * branch's target); a short taken side whose loop leaves by its latch test or at its header
 * too stays a branch, divergent or uniform; _ret5 and _ret6 keep the outer back edge before
 * the EXIT. Each fails without the rules (hammock.c's breaks_past, pbk.c's be_trip_order,
 * sync.c's kept_exit) */
START_TEST(t_brk_uni)
{
	/* the if/else's log entry (idx), its decision, the side that stays laid out first, the
	 * outer back edge kept */
	static const struct { const char *name; int idx, dec, first, kept; } want[] = {
		{ "brk_uni", 0, BD_PREDICATED, 0, 1 }, { "brk_uni", 2, BD_PREDICATED, 0, 1 },
		{ "brk_uni_t5", 0, BD_PREDICATED, 0, 0 }, { "brk_uni_t6", 0, BD_BRANCH_UNIFORM, 1, 0 },
		{ "brk_uni_f5", 0, BD_PREDICATED, 0, 0 }, { "brk_uni_f6", 0, BD_BRANCH_UNIFORM, 1, 0 },
		{ "brk_uni_ret5", 0, BD_PREDICATED, 0, 1 },
		{ "brk_uni_ret6", 0, BD_BRANCH_UNIFORM, 1, 1 },
		{ "brk_uni_latch", 0, BD_BRANCH_UNIFORM, 0, 1 },
		{ "brk_uni_head", 1, BD_BRANCH_UNIFORM, 0, 1 },
		{ "brk_div_latch", 0, BD_BRANCH_SSY, 0, 1 }, { "brk_div_head", 1, BD_BRANCH_SSY, 0, 1 },
	};
	Tr t;
	BeOptions o;
	size_t len;
	char *text = slurp("tests/ptx/brk_uni.ptx", &len);

	ck_assert_ptr_nonnull(text);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	o.loop_sync = BE_LOOP_PBK;
	o.early_return = BE_RET_GUARDED;
	ck_assert(tr_opts(&t, "brk_uni.ptx", text, len, &o));
	for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
		const Kernel *k = kern(&t, want[w].name);
		int pbk, gbrk, gexit, nkept, bra = -1, nop = -1;
		ck_assert_msg((int)entry(&t, want[w].name, want[w].idx)->decision == want[w].dec, "%s",
		              want[w].name);
		kept_ops(k, &pbk, &gbrk, &gexit, &nkept);
		ck_assert_int_eq(pbk, want[w].dec == BD_BRANCH_SSY);
		ck_assert_int_eq(nkept, want[w].kept);
		for (int i = 0; i < k->nins; i++) {
			const Ins *in = &k->ins[i];
			if (bra < 0 && in->op == OP_BRA && in->guard != ISA_PT)
				bra = i;
			if (nop < 0 && in->op == OP_NOP && in->sync && in->guard != ISA_PT)
				nop = i;
		}
		ck_assert_int_ge(bra, 0);
		if (want[w].dec == BD_BRANCH_UNIFORM && nop >= 0)
			ck_assert_msg((k->ins[nop].addr >= (uint32_t)k->ins[bra].o[k->ins[bra].nopd - 1].imm) ==
			              want[w].first, "%s: the side that stays %s", want[w].name,
			              want[w].first ? "first" : "after the side that breaks");
	}
	tr_free(&t);
	free(text);
}
END_TEST

/* short-circuit chains (tests/ptx/short_circuit, ptxas 11.8's listing beside it) under
 * kepler.cfg's rules: the tests folded, those kept (a load, a value used past the test,
 * the first of B whose block would be 6), the predicate ORs, and nothing folded under the
 * default --short-circuit branch */
START_TEST(t_short_circuit)
{
	static const struct { int line; const char *shape; int dec; } want[] = {
		{ 36, "chain", BD_PREDICATED }, { 42, "if-then", BD_PREDICATED },
		{ 55, "if-then", BD_BRANCH_SSY },
		{ 58, "chain", BD_PREDICATED }, { 61, "chain", BD_PREDICATED },
		{ 64, "if-then", BD_PREDICATED },
		{ 74, "chain", BD_PREDICATED }, { 78, "if-then", BD_PREDICATED },
		{ 89, "chain", BD_BRANCH_UNIFORM }, { 92, "if-then", BD_BRANCH_UNIFORM },
		{ 110, "if-then", BD_BRANCH_SSY }, { 113, "if-then", BD_PREDICATED },
		{ 120, "if-then", BD_BRANCH_SSY }, { 123, "if-then", BD_PREDICATED },
		{ 131, "chain", BD_PREDICATED }, { 134, "if-then", BD_PREDICATED },
	};
	const int nwant = (int)(sizeof want / sizeof want[0]);
	Tr t;
	BeOptions o;
	size_t len;
	char *text = slurp("tests/ptx/short_circuit.ptx", &len);
	int seen = 0, chains = 0, ors = 0;
	const Kernel *k;

	ck_assert(text != NULL);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	o.loop_sync = BE_LOOP_PBK;
	o.early_return = BE_RET_GUARDED;
	o.short_circuit = BE_SC_FOLD;
	ck_assert(tr_opts(&t, "tests/ptx/short_circuit.ptx", text, len, &o));
	ck_assert_int_eq(t.log.n, nwant);
	for (int i = 0; i < t.log.n; i++) {
		const BeLogEntry *e = &t.log.e[i];
		for (int w = 0; w < nwant; w++) {
			if (e->ptxline != want[w].line)
				continue;
			seen++;
			ck_assert_msg(!strcmp(e->shape, want[w].shape), "line %d: %s", e->ptxline, e->shape);
			ck_assert_msg((int)e->decision == want[w].dec, "line %d: %d", e->ptxline, e->decision);
			if (!strcmp(e->shape, "chain"))
				ck_assert_msg(strstr(e->rule, "test folded into the branch of line") == e->rule,
				              "line %d: %s", e->ptxline, e->rule);
		}
		chains += strstr(e->rule, "short-circuit: the test") == e->rule;
	}
	ck_assert_int_eq(seen, nwant);
	ck_assert_int_eq(chains, 5);
	k = kern(&t, "short_circuit");
	for (int i = 0; i < k->nins; i++)
		ors += k->ins[i].op == OP_PSETP && k->ins[i].m.bop == BOP_OR;
	ck_assert_int_eq(ors, 5);   /* A, B's two, D, G (C's is an AND) */
	tr_free(&t);
	/* the default keeps a branch per test */
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	ck_assert(tr_opts(&t, "tests/ptx/short_circuit.ptx", text, len, &o));
	for (int i = 0; i < t.log.n; i++)
		ck_assert_str_ne(t.log.e[i].shape, "chain");
	tr_free(&t);
	free(text);
}
END_TEST

/* one-side's exclusion under kepler.cfg's 8/6: a taken side that meets the join only round a
 * cycle through it (ssy_irreducible's entries at lines 45 and 73). Taken out, it still runs
 * right; only this check notices */
START_TEST(t_one_side_not)
{
	Tr t;
	BeOptions o;
	size_t len;
	char *text;
	int seen = 0;

	rule_opts(&o, BE_RULE_SM35, 8, 6);
	text = slurp("tests/ptx/ssy_irreducible.ptx", &len);
	ck_assert(text != NULL);
	ck_assert(tr_opts(&t, "tests/ptx/ssy_irreducible.ptx", text, len, &o));
	for (int i = 0; i < t.log.n; i++) {
		const BeLogEntry *e = &t.log.e[i];
		if (e->ptxline != 45 && e->ptxline != 73)
			continue;
		seen++;
		ck_assert_msg(strcmp(e->shape, "one-side") && e->decision != BD_PREDICATED,
		              "ssy_irreducible line %d: %s, %s", e->ptxline, e->shape, e->rule);
	}
	ck_assert_int_eq(seen, 2);
	tr_free(&t);
	free(text);
}
END_TEST

/* a branch left as a branch says what stopped it: a side holding a loop (wide64's 64-bit
 * division), an indirect branch, code other paths enter (switch) */
START_TEST(t_precise_reasons)
{
	static const struct { const char *file, *func; int line; const char *why; } want[] = {
		{"tests/ptx/wide64.sm80.ptx", "wide64", 66, "a side holds a loop"},
		{"tests/ptx/isa_coverage.ptx", "isa_coverage", 197, "an indirect branch (brx.idx, line 200)"},
		{"tests/ptx/switch.sm80.ptx", "dense_switch", 61, "code on the fall-through side (line 214)"},
		{"tests/ptx/switch.sm80.ptx", "dense_switch", 163, "code on the taken side (line 214)"},
		{"tests/ptx/switch.sm80.ptx", "dense_switch", 58, "a branch that stayed (line 61)"},
	};

	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		Tr t;
		int found = 0;
		ck_assert(tr(&t, want[i].file, -1, -1));
		for (int k = 0; k < t.log.n; k++) {
			const BeLogEntry *e = &t.log.e[k];
			if (strcmp(e->func, want[i].func) || e->ptxline != want[i].line)
				continue;
			found = 1;
			ck_assert_int_ne(e->decision, BD_PREDICATED);
			ck_assert_msg(strstr(e->rule, want[i].why) != NULL, "%s:%d: %s", want[i].file,
			              want[i].line, e->rule);
		}
		ck_assert_msg(found, "%s:%d not explained", want[i].file, want[i].line);
		tr_free(&t);
	}
}
END_TEST

/* a side holding an indirect bra through a register is named by its own op, not brx.idx */
START_TEST(t_side_ibra_reason)
{
	static const char src[] =
		".version 9.0\n.target sm_75\n.address_size 64\n"
		".visible .entry side_ibra(.param .u64 out)\n{\n"
		"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n\t.reg .pred p;\n"
		"\tld.param.u64 %rd1, [out];\n"
		"\tmov.u32 %r1, %tid.x;\n"
		"\tmov.u32 %r2, 0;\n"
		"\tsetp.eq.u32 p, %r1, 1;\n"
		"\t@p bra Skip;\n"                       /* line 13 */
		"\tmov.u32 %r0, A;\n"
		"\tTg: .branchtargets A, B;\n"
		"\tbra %r0, Tg;\n"                       /* line 16 */
		"A:\n\tadd.u32 %r2, %r2, 1;\n"
		"B:\n\tadd.u32 %r2, %r2, 2;\n"
		"Skip:\n\tst.global.u32 [%rd1], %r2;\n\texit;\n}\n";
	Tr t;
	const BeLogEntry *e;

	ck_assert(tr_text(&t, "side_ibra.ptx", src, sizeof src - 1, -1, -1));
	e = entry(&t, "side_ibra", 0);
	ck_assert_int_eq(e->ptxline, 13);
	ck_assert_int_ne(e->decision, BD_PREDICATED);
	ck_assert_msg(strstr(e->rule, "a side holds an indirect branch (bra, line 16)") != NULL, "%s",
	              e->rule);
	tr_free(&t);
}
END_TEST

/* the break path's SSY (pbk.c's be_exit_sync) in the report: brk_sync's four back edges fall
 * into paths of 11, 10, 2 with a store and 12 instructions; the rule of each says whether the
 * SSY was pushed after the PBK and why (the store, or the count against 11), and its JSON row
 * has "break_path" with the path's PTX lines; every other row has null. Not under the
 * defaults (SSY loops: no PBK, no break path) */
START_TEST(t_brk_path)
{
	static const struct { int line, first, last, ins, mem, ssy; const char *why; } want[] = {
		{ 41, 42, 52, 11, 0, 1, "; SSY of its break path (PTX lines 42-52) after the PBK: "
		                        "11 instructions >= 11, no global access" },
		{ 64, 65, 74, 10, 0, 0, "; no SSY of its break path (PTX lines 65-74): 10 "
		                        "instructions < 11, no global access" },
		{ 86, 87, 88, 2, 1, 1, "; SSY of its break path (PTX lines 87-88) after the PBK: a "
		                       "global access (2 instructions)" },
		{ 100, 101, 112, 12, 0, 1, "; SSY of its break path (PTX lines 101-112) after the "
		                           "PBK: 12 instructions >= 11, no global access" },
	};
	Tr t;
	BeOptions o;
	size_t len;
	char *text = slurp("tests/ptx/brk_sync.ptx", &len), *buf = NULL;
	FILE *f;
	json_error_t err;
	json_t *root, *br;
	int seen = 0;

	ck_assert_ptr_nonnull(text);
	rule_opts(&o, BE_RULE_SM35, 8, 6);
	o.loop_sync = BE_LOOP_PBK;
	ck_assert(tr_opts(&t, "brk_sync.ptx", text, len, &o));
	for (int i = 0; i < t.log.n; i++) {
		const BeLogEntry *e = &t.log.e[i];
		int k = 0;
		while (k < 4 && want[k].line != e->ptxline)
			k++;
		if (k == 4) {
			ck_assert_int_eq(e->bpath, 0);
			continue;
		}
		seen++;
		ck_assert_int_eq(e->bpath, want[k].ssy ? 2 : 1);
		ck_assert_int_eq(e->bpath_first, want[k].first);
		ck_assert_int_eq(e->bpath_last, want[k].last);
		ck_assert_int_eq(e->bpath_ins, want[k].ins);
		ck_assert_int_eq(e->bpath_mem, want[k].mem);
		ck_assert_msg(strstr(e->rule, want[k].why) != NULL, "line %d: %s", e->ptxline, e->rule);
	}
	ck_assert_int_eq(seen, 4);
	f = open_memstream(&buf, &len);
	be_log_print_json(f, &t.log);
	fclose(f);
	root = json_loads(buf, 0, &err);
	ck_assert_msg(root != NULL, "JSON error line %d: %s", err.line, err.text);
	br = json_object_get(root, "branches");
	seen = 0;
	for (size_t i = 0; i < json_array_size(br); i++) {
		json_t *e = json_array_get(br, i), *bp = json_object_get(e, "break_path");
		int line = (int)json_integer_value(json_object_get(e, "ptx_line")), k = 0;
		while (k < 4 && want[k].line != line)
			k++;
		if (k == 4) {
			ck_assert(json_is_null(bp));
			continue;
		}
		seen++;
		ck_assert(json_is_object(bp));
		ck_assert_int_eq(json_integer_value(json_object_get(bp, "ptx_first")), want[k].first);
		ck_assert_int_eq(json_integer_value(json_object_get(bp, "ptx_last")), want[k].last);
		ck_assert_int_eq(json_integer_value(json_object_get(bp, "instructions")), want[k].ins);
		ck_assert_int_eq(json_is_true(json_object_get(bp, "global_access")), want[k].mem);
		ck_assert_int_eq(json_integer_value(json_object_get(bp, "threshold")), 11);
		ck_assert_int_eq(json_is_true(json_object_get(bp, "ssy")), want[k].ssy);
	}
	ck_assert_int_eq(seen, 4);
	json_decref(root);
	free(buf);
	tr_free(&t);

	rule_opts(&o, BE_RULE_SM35, 8, 6);   /* --loop-sync ssy: no PBK, no break path */
	ck_assert(tr_opts(&t, "brk_sync.ptx", text, strlen(text), &o));
	for (int i = 0; i < t.log.n; i++)
		ck_assert_int_eq(t.log.e[i].bpath, 0);
	tr_free(&t);
	free(text);
}
END_TEST

/* ------------------------------------------------------------------ JSON */
START_TEST(t_json)
{
	Tr t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_error_t err;
	json_t *root, *br;

	ck_assert(tr(&t, "tests/ptx/divergence.sm80.ptx", 7, 4));
	be_log_print_json(f, &t.log);
	fclose(f);
	root = json_loads(buf, 0, &err);
	ck_assert_msg(root != NULL, "JSON error line %d: %s", err.line, err.text);
	ck_assert_str_eq(json_string_value(json_object_get(root, "schema")), "warpsim-explain/1");
	br = json_object_get(root, "branches");
	ck_assert(json_is_array(br));
	ck_assert_int_eq((int)json_array_size(br), t.log.n);
	for (size_t i = 0; i < json_array_size(br); i++) {
		json_t *e = json_array_get(br, i);
		ck_assert(json_is_integer(json_object_get(e, "ptx_line")));
		ck_assert(json_is_integer(json_object_get(e, "ptx_col")));
		ck_assert(json_is_string(json_object_get(e, "cuda_file")));
		ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(e, "cuda_file")),
		                             "divergence.cu"));
		ck_assert(json_is_integer(json_object_get(e, "cuda_line")));
		ck_assert(json_is_string(json_object_get(e, "shape")));
		ck_assert(json_is_boolean(json_object_get(e, "uniform")));
		ck_assert(json_is_string(json_object_get(e, "decision")));
		ck_assert(json_is_string(json_object_get(e, "rule")));
		ck_assert(json_is_integer(json_object_get(e, "size_taken")) ||
		          json_is_null(json_object_get(e, "size_taken")));
		if (i)
			ck_assert_int_gt(json_integer_value(json_object_get(e, "ptx_line")),
			                 json_integer_value(json_object_get(json_array_get(br, i - 1), "ptx_line")));
	}
	json_decref(root);
	free(buf);
	tr_free(&t);
}
END_TEST

/* ------------------------------------------------------------------ corpus */
/* control instructions of the program that came from PTX line l: 1 BRA/BRX/NOP/SSY,
 * 2 guarded EXIT */
static int control_at(const Prog *p, int l)
{
	int r = 0;
	for (int k = 0; k < p->nk; k++)
		for (int i = 0; i < p->k[k].nins; i++) {
			const Ins *in = &p->k[k].ins[i];
			if (in->ptxline != l)
				continue;
			if (in->op == OP_BRA || in->op == OP_BRX || (in->op == OP_NOP && in->sync))
				r |= 1;
			if (in->op == OP_EXIT && in->guard != ISA_PT)
				r |= 2;
		}
	return r;
}

/* every conditional or indirect PTX branch has exactly one entry (a .func used by several
 * kernels is logged once per kernel) */
static void check_all_logged(const Tr *t, const char *path)
{
	int want = 0, got = 0;

	for (int fi = 0; fi < t->m->nfuncs; fi++) {
		const PFunc *pf = &t->m->funcs[fi];
		for (int i = 0; pf->has_body && i < pf->nins; i++) {
			const PIns *in = &pf->ins[i];  /* an indirect bra %r is logged like brx.idx */
			want += (in->op == PO_BRA && (in->guard >= 0 || (in->nopd && in->o[0].kind != POK_LABEL))) ||
			        in->op == PO_BRX_IDX;
		}
	}
	for (int i = 0; i < t->log.n; i++) {
		int dup = 0;
		for (int k = 0; k < i; k++)
			dup |= t->log.e[k].ptxline == t->log.e[i].ptxline && !strcmp(t->log.e[k].func, t->log.e[i].func);
		got += !dup;
	}
	ck_assert_msg(got == want, "%s: %d conditional branches, %d explained", path, want, got);
}

static void check_file(const char *path)
{
	static const int th[] = {0, 1, 4, 7, 12, -1};
	Tr base, t;
	int ok0 = tr(&base, path, 0, 0);

	if (ok0)
		check_all_logged(&base, path);

	for (int ti = 1; ti < 6; ti++) {
		int ok = tr(&t, path, th[ti], th[ti]);
		ck_assert_msg(ok == ok0, "%s translates at one threshold only", path);
		if (!ok) {
			tr_free(&t);
			continue;
		}
		ck_assert_msg(t.log.n == base.log.n, "%s: %d branches explained at %d, %d before", path,
		              t.log.n, th[ti], base.log.n);  /* a decision for every branch */
		for (int i = 0; i < t.log.n; i++) {
			const BeLogEntry *e = &t.log.e[i], *b = &base.log.e[i];
			int c = control_at(t.p, e->ptxline);
			ck_assert_int_eq(e->ptxline, b->ptxline);
			ck_assert_msg(!strstr(e->rule, "single-entry"), "%s:%d: %s", path, e->ptxline, e->rule);
			if (e->decision == BD_PREDICATED) {
				ck_assert_msg(!(c & 1), "%s:%d predicated at %d but still branches", path,
				              e->ptxline, th[ti]);
				ck_assert_msg(!(c & 2) || !strcmp(e->shape, "if-then-exit"), "%s:%d", path, e->ptxline);
				ck_assert(e->size_then >= 0 && e->size_else >= 0);
				ck_assert(th[ti] < 0 || e->size_then + e->size_else <= th[ti]);
			} else if (e->decision == BD_FOLDED) {   /* a test of constants (cfold.c) */
				ck_assert_msg(c == 0 && b->decision == BD_FOLDED, "%s:%d folded but branches",
				              path, e->ptxline);
			} else {
				ck_assert_msg(c != 0, "%s:%d (%s) left no branch at %d", path, e->ptxline,
				              be_decision_name(e->decision), th[ti]);
				ck_assert_msg(b->decision != BD_PREDICATED, "%s:%d predicated at a lower threshold only",
				              path, e->ptxline);
				ck_assert_str_eq(e->shape, b->shape);
			}
		}
		tr_free(&base);
		base = t;  /* predication only grows: compare the next threshold with this one */
	}
	tr_free(&base);
}

static int check_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	ck_assert_msg(d != NULL, "cannot open %s", dir);
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char path[512];
		if (l < 5 || strcmp(de->d_name + l - 4, ".ptx"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		check_file(path);
		n++;
	}
	closedir(d);
	return n;
}

START_TEST(t_corpus_thresholds)
{
	ck_assert_int_ge(check_dir("tests/explain"), 8);
	ck_assert_int_ge(check_dir("tests/ptx"), 20);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ifconv");
	TCase *tc = tcase_create("ifconv");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, t_if_then_thresholds);
	tcase_add_test(tc, t_if_else_thresholds);
	tcase_add_test(tc, t_sm35_load_sides);
	tcase_add_test(tc, t_sm35_long_sides);
	tcase_add_test(tc, t_sm35_uniform_load_side);
	tcase_add_test(tc, t_nested);
	tcase_add_test(tc, t_blocked);
	tcase_add_test(tc, t_exit_side);
	tcase_add_test(tc, t_pressure);
	tcase_add_test(tc, t_nvcc_shapes);
	tcase_add_test(tc, t_ret_nest);
	tcase_add_test(tc, t_kept_fallback);
	tcase_add_test(tc, t_exit_copy);
	tcase_add_test(tc, t_one_side);
	tcase_add_test(tc, t_one_side_note);
	tcase_add_test(tc, t_one_side_not);
	tcase_add_test(tc, t_one_side_loop);
	tcase_add_test(tc, t_one_side_fall);
	tcase_add_test(tc, t_one_side_join);
	tcase_add_test(tc, t_sm35_zeros);
	tcase_add_test(tc, t_one_side_break);
	tcase_add_test(tc, t_brk_uni);
	tcase_add_test(tc, t_sm35_store_sides);
	tcase_add_test(tc, t_sm35_shl_add);
	tcase_add_test(tc, t_sm35_one_store);
	tcase_add_test(tc, t_sm35_shared_addr);
	tcase_add_test(tc, t_sm35_shared_u16);
	tcase_add_test(tc, t_sm35_store_param);
	tcase_add_test(tc, t_sm35_pow_sign);
	tcase_add_test(tc, t_sm35_div_side);
	tcase_add_test(tc, t_sm35_reload);
	tcase_add_test(tc, t_sm35_ld_other);
	tcase_add_test(tc, t_sm35_side16);
	tcase_add_test(tc, t_sm35_sel_cmp);
	tcase_add_test(tc, t_sm35_ld_cond);
	tcase_add_test(tc, t_sm35_ld_work);
	tcase_add_test(tc, t_sm35_ld_sreg);
	tcase_add_test(tc, t_sm35_ld_test);
	tcase_add_test(tc, t_sm35_side_cse);
	tcase_add_test(tc, t_sm35_kept_test);
	tcase_add_test(tc, t_sm35_tex_side);
	tcase_add_test(tc, t_sm35_tex_pass);
	tcase_add_test(tc, t_sreg_uni);
	tcase_add_test(tc, t_short_circuit);
	tcase_add_test(tc, t_precise_reasons);
	tcase_add_test(tc, t_side_ibra_reason);
	tcase_add_test(tc, t_brk_path);
	tcase_add_test(tc, t_json);
	tcase_add_test(tc, t_corpus_thresholds);
	suite_add_tcase(s, tc);
	return ck_run(s);
}
