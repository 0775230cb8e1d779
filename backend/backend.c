/* backend.c - the translator's pipeline, QBE main.c style, and its options. translate_fn is
 * one straight-line function listing every pass over a PTX function, each analysis refresh,
 * the structural IR check after every pass that changes code and the -d letter that prints
 * the IR after it; emit_kernel does the same for a kernel (its code, its data, the ISA and
 * reconvergence checks, -dE); be_translate_log runs both over the module's kernels and the
 * functions each one reaches. It calls the passes; no backend file calls it. The translator's
 * rows of the option table (opt/opt.h) are here with their defaults.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "backend/be.h"

static const char *const rule_names[] = {"guide", "sm35", NULL};
static const char *const loop_names[] = {"ssy", "pbk", NULL};
static const char *const ret_names[] = {"branch", "guarded", NULL};
static const char *const sc_names[] = {"branch", "fold", NULL};
static const char *const fp_names[] = {"divergent", "callers", NULL};

const OptRow be_opt_rows[] = {
	{.name = "predicate-max", .kind = OPT_LIMIT, .off = offsetof(BeOptions, predicate_max),
	 .def = 7, .help = "if-convert divergent hammocks up to N instructions (PTX input)"},
	{.name = "predicate-max-uniform", .kind = OPT_LIMIT,
	 .off = offsetof(BeOptions, predicate_max_uniform), .def = 4,
	 .help = "the same for uniform branches (PTX input)"},
	{.name = "predicate-rule", .kind = OPT_CHOICE, .metavar = "guide|sm35",
	 .off = offsetof(BeOptions, predicate_rule), .def = BE_RULE_GUIDE, .min = 0,
	 .max = BE_RULE_COUNT - 1, .choices = rule_names,
	 .help = "how a hammock is counted: both sides (guide) or each, as ptxas 11.8 for sm_35"},
	{.name = "loop-sync", .kind = OPT_CHOICE, .metavar = "ssy|pbk",
	 .off = offsetof(BeOptions, loop_sync), .def = BE_LOOP_SSY, .min = 0,
	 .max = BE_LOOP_COUNT - 1, .choices = loop_names,
	 .help = "a loop's divergent exits: SSY and .S, or PBK and BRK as ptxas 11.8 for sm_35"},
	{.name = "early-return", .kind = OPT_CHOICE, .metavar = "branch|guarded",
	 .off = offsetof(BeOptions, early_return), .def = BE_RET_BRANCH, .min = 0,
	 .max = BE_RET_COUNT - 1, .choices = ret_names,
	 .help = "a .func's early return: a branch, or a predicated side ending in a guarded RET "
	         "as ptxas 11.8 for sm_35"},
	{.name = "short-circuit", .kind = OPT_CHOICE, .metavar = "branch|fold",
	 .off = offsetof(BeOptions, short_circuit), .def = BE_SC_BRANCH, .min = 0,
	 .max = BE_SC_COUNT - 1, .choices = sc_names,
	 .help = "a chain of tests to one destination: a branch each, or a short test folded "
	         "into the one before it as ptxas 11.8 for sm_35"},
	{.name = "func-params", .kind = OPT_CHOICE, .metavar = "divergent|callers",
	 .off = offsetof(BeOptions, func_params), .def = BE_FP_DIVERGENT, .min = 0,
	 .max = BE_FP_COUNT - 1, .choices = fp_names,
	 .help = "a .func's parameters: each may differ between lanes, or one is uniform when "
	         "every call in the kernel passes a uniform value, as ptxas 11.8 for sm_35"},
	{.name = "decide", .kind = OPT_FN, .metavar = "LOC=pred|branch", .off = 0, .fn = be_decide_opt,
	 .help = "force one branch's decision (repeatable, or LOC=...,LOC=...); LOC: a PTX line, FILE:LINE of the PTX "
	         "or CUDA source, a label, or #N as --explain numbers the branches"},
};
const int be_nopt_rows = (int)(sizeof be_opt_rows / sizeof be_opt_rows[0]);

void be_options_default(BeOptions *o)
{
	memset(o, 0, sizeof *o);
	opt_defaults(be_opt_rows, be_nopt_rows, o);
	o->max_regs = ISA_DEFAULT_MAX_REGS;
	o->arch = ISA_DEFAULT_ARCH;
}

static int want(const BeOptions *o, char c)
{
	return o->dump && strchr(o->dump, c);
}

static void dump(Fn *f, char c, const char *after)
{
	if (want(f->opt, c))
		be_dump(f->opt->dumpf ? f->opt->dumpf : stderr, f, after);
}

/* ------------------------------------------------------------------ the pipeline */
static void fn_free(Fn *f)
{
	if (f)
		be_pool_free(f->pool);
}

/* a function's translation up to its uniformity analysis (NULL on an error, reported to
 * err) */
static Fn *fn_front(const Module *m, int fi, const BeOptions *opt, const Layout *vl, FILE *err,
                    BeLog *log, const uint8_t *pardiv, const uint8_t *retuni)
{
	Pool *pool = be_pool_new();
	Fn *f = be_alloc(pool, sizeof *f);

	f->pool = pool;
	f->m = m;
	f->pf = &m->funcs[fi];
	f->fidx = fi;
	f->opt = opt;
	f->err = err;
	f->vl = vl;
	f->log = log;
	f->pardiv = pardiv;
	f->retuni = retuni;
	f->cur_ptx = -1;
	if (be_cfg(f) < 0)
		goto fail;
	be_frame_layout(f);
	be_cfold(f);
	dump(f, 'G', "cfg");
	if (be_isel(f) < 0)
		goto fail;
	be_fold_preds(f);
	be_check_ir(f, "isel");
	dump(f, 'I', "isel");
	be_fold_exits(f);
	be_check_ir(f, "fold_exits");
	be_dom(f);
	be_postdom(f);
	be_loops(f);
	be_uniform(f);
	return f;
fail:
	fn_free(f);
	return NULL;
}

static Fn *translate_fn(const Module *m, int fi, const BeOptions *opt, const Layout *vl,
                        FILE *err, BeLog *log, const uint8_t *pardiv, const uint8_t *retuni)
{
	Fn *f = fn_front(m, fi, opt, vl, err, log, pardiv, retuni);

	if (!f)
		return NULL;
	if (be_fold_chains(f)) {
		be_check_ir(f, "fold_chains");
		be_rpo(f);   /* (a folded block is dead: be_dom reads the order of the live ones) */
		be_dom(f);
		be_postdom(f);
		be_loops(f);
	}
	dump(f, 'U', "uniform");
	if (be_ifconv(f) < 0)
		goto fail;
	be_check_ir(f, "ifconv");
	dump(f, 'F', "ifconv");
	be_webs(f);
	be_check_ir(f, "webs");
	be_consts(f);
	be_check_ir(f, "consts");
	if (be_regalloc(f) < 0)
		goto fail;
	be_check_ir(f, "regalloc");
	dump(f, 'R', "regalloc");
	if (be_sync(f) < 0)
		goto fail;
	be_dom(f);
	be_postdom(f);
	be_loops(f);
	be_check_ir(f, "sync");
	dump(f, 'S', "sync");
	be_log_branches(f);
	if (f->nerr)
		goto fail;
	return f;
fail:
	fn_free(f);
	return NULL;
}

/* the loops' back edges kept before the kernel's EXIT (cfg.c, folded 3) laid out as the other
 * folds are, @!P EXIT then the jump back; their log entries (this kernel's: from lfirst) say
 * so */
static void unkeep(Fn **fns, int n, BeLog *log, int lfirst)
{
	for (int i = 0; i < n; i++)
		for (int b = 0; fns[i] && b < fns[i]->nblk; b++) {
			Blk *x = &fns[i]->blk[b];
			if (!be_kept_back(x))
				continue;
			x->jmp.folded = 4;
			for (int e = lfirst; log && e < log->n; e++)
				if (log->e[e].ptxline == fns[i]->pf->ins[x->jmp.ptxins].loc.line &&
				    !strcmp(log->e[e].func, fns[i]->pf->name) && log->e[e].decision != BD_EXIT) {
					log->e[e].decision = BD_EXIT;
					snprintf(log->e[e].shape, sizeof log->e[e].shape, "exit");
					snprintf(log->e[e].rule, sizeof log->e[e].rule, "the fall-through only ends "
					         "the thread: guarded EXIT (the back edge kept before it would break a "
					         "reconvergence invariant of the loop's other branches)");
				}
		}
}

/* some function of fns keeps a loop's back edge before the EXIT (cfg.c) */
static int keeps_back(Fn **fns, int n)
{
	for (int i = 0; i < n; i++)
		for (int b = 0; fns[i] && b < fns[i]->nblk; b++)
			if (be_kept_back(&fns[i]->blk[b]))
				return 1;
	return 0;
}

/* one kernel: the code of the functions it reaches (emit.c), the rest of the kernel around
 * it (kernel.c), then the checks every emitted kernel must pass: a failure is an internal
 * error, and the translation is refused rather than printed wrong. A kernel that keeps a
 * loop's back edge before the EXIT (cfg.c) and fails the reconvergence check (its other
 * branches' paths meet at that EXIT: real-world MC-GPU's track_particles) is emitted again
 * with the fold's layout, for which the check holds */
static int emit_kernel(Prog *p, const Module *m, int fi, Fn **fns, const Layout *vl,
                       const BeOptions *opt, FILE *err, BeLog *log, int lfirst)
{
	Kernel *k;
	char *msg;
	size_t len;
	FILE *vf;
	int bad;

again:
	if (!(k = be_kernel_data(p, m, fi, vl, err)))
		return -1;
	be_emit_kernel(k, fns, m->nfuncs, m);
	be_kernel_finish(k, m, fi, fns, vl, opt->arch);
	if (isa_check_kernel(k, m->name, err)) {
		fprintf(err, "%s: internal error: the translation of '%s' fails the ISA checks\n",
		        m->name, m->funcs[fi].name);
		return -1;
	}
	msg = NULL;
	if (!(vf = open_memstream(&msg, &len)))
		die("out of memory");
	bad = be_verify_kernel_at(k, m, vf) != 0;
	fclose(vf);
	if (bad && keeps_back(fns, m->nfuncs)) {
		free(msg);
		isa_prog_drop_last(p);
		unkeep(fns, m->nfuncs, log, lfirst);
		goto again;
	}
	if (want(opt, 'E'))
		isa_print_kernel(opt->dumpf ? opt->dumpf : stderr, k);
	if (bad) {
		fputs(msg, err);
		fprintf(err, "%s: internal error: the translation of '%s' breaks a reconvergence "
		        "invariant\n", m->name, m->funcs[fi].name);
	}
	free(msg);
	return bad ? -1 : 0;
}

/* .minnctapersm N with .reqntid or .maxntid T (PTX ISA, "Performance-Tuning Directives"): as
 * ptxas, registers per thread at most the SM's register file / (N x T rounded up to whole
 * warps), so that N CTAs of T threads fit on an SM at once. The register file is the target
 * architecture's (CUDA C Programming Guide, "Technical Specifications per Compute
 * Capability": 32 K 32-bit registers per SM for 2.x, 64 K for 3.x and later); at least 16. */
static void minctas_cap(const PFunc *pf, BeOptions *o)
{
	uint64_t t = 1, file = o->arch >= 30 ? 65536 : 32768, cap;
	const uint32_t *n = pf->reqntid[0] ? pf->reqntid : pf->maxntid;

	if (!pf->minnctapersm || !n[0])
		return;
	for (int i = 0; i < 3; i++)
		t *= n[i] ? n[i] : 1;
	cap = file / (pf->minnctapersm * ((t + 31) / 32 * 32));
	if (cap < 16)
		cap = 16;
	if (cap < (uint64_t)o->max_regs)
		o->max_regs = (int)cap;
}
/* --func-params callers: what the calls of one kernel pass and return (param_div) */
typedef struct {
	uint8_t **pd;        /* per function, per parameter: some call passes a divergent value */
	uint8_t *ru;         /* per function: a call's results are the same in all lanes */
} Calls;

static void calls_free(const Module *m, Calls *cs)
{
	for (int k = 0; cs->pd && k < m->nfuncs; k++)
		free(cs->pd[k]);
	free(cs->pd);
	free(cs->ru);
	cs->pd = NULL;
	cs->ru = NULL;
}

/* --func-params callers: for each .func the kernel reaches (seen), which of its parameters
 * some call in the kernel passes a value that may differ between lanes, and whether a call's
 * results are the same in all lanes, into cs. Every function is translated up to its
 * uniformity analysis with what was found so far (from "all uniform"), the calls' arguments
 * and the returns are read, and again until nothing more diverges (divergence only grows).
 * cs is left empty (every parameter and result divergent) when the kernel reaches no .func,
 * or a translation fails (its error is reported when the kernel is translated for good) */
static void param_div(const Module *m, const uint8_t *seen, const BeOptions *o,
                      const Layout *vl, Calls *cs)
{
	char *buf = NULL;
	size_t len;
	FILE *sink;
	int any = 0, changed = 1;
	BeOptions q = *o;       /* (no -d dump of these rounds: the kernel's own translation has it) */

	q.dump = NULL;
	cs->pd = calloc((size_t)m->nfuncs + 1, sizeof *cs->pd);
	cs->ru = calloc((size_t)m->nfuncs + 1, 1);
	if (!cs->pd || !cs->ru)
		die("out of memory");
	for (int k = 0; k < m->nfuncs; k++)
		if (seen[k] && !m->funcs[k].entry && m->funcs[k].has_body) {
			if (!(cs->pd[k] = calloc((size_t)m->funcs[k].nparams + 1, 1)))
				die("out of memory");
			be_param_escapes(m, k, cs->pd[k]);
			cs->ru[k] = 1;
			any = 1;
		}
	if (!any) {
		calls_free(m, cs);
		return;
	}
	if (!(sink = open_memstream(&buf, &len)))
		die("out of memory");
	while (changed && cs->pd) {
		changed = 0;
		for (int c = 0; c < m->nfuncs && cs->pd; c++) {
			Fn *f;
			if (!seen[c] || !m->funcs[c].has_body)
				continue;
			if (!(f = fn_front(m, c, &q, vl, sink, NULL, cs->pd[c], cs->ru))) {
				calls_free(m, cs);
				break;
			}
			if (cs->ru[c] && !be_ret_uniform(f))
				cs->ru[c] = 0, changed = 1;
			for (int i = 0; i < f->pf->nins; i++) {
				const PIns *in = &f->pf->ins[i];
				int g;
				if (in->op != PO_CALL || in->nopd < 3 || in->o[1].kind != POK_SYM ||
				    in->o[1].symkind != PSYM_FUNC || !cs->pd[g = in->o[1].sym])
					continue;
				for (int a = 0; a < in->o[2].nelems && a < m->funcs[g].nparams; a++)
					if (!cs->pd[g][a] && be_arg_div(f, i, &in->o[2].elems[a]))
						cs->pd[g][a] = 1, changed = 1;
			}
			fn_free(f);
		}
	}
	fclose(sink);
	free(buf);
}

/* with --kernel: the kernel fi, and the kernels whose address the code it reaches takes (the
 * child grids it may launch: dynamic parallelism), and theirs, are translated (need) */
static void launched(const Module *m, int fi, uint8_t *need)
{
	uint8_t *seen;

	if (need[fi])
		return;
	need[fi] = 1;
	if (!(seen = calloc((size_t)m->nfuncs + 1, 1)))
		die("out of memory");
	ptx_reach(m, fi, seen);
	for (int k = 0; k < m->nfuncs; k++)
		for (int i = 0; seen[k] && i < m->funcs[k].nins; i++)
			for (int s = 0; s < m->funcs[k].ins[i].nopd; s++) {
				const POpd *o = &m->funcs[k].ins[i].o[s];
				if (o->kind == POK_SYM && o->symkind == PSYM_FUNC && m->funcs[o->sym].entry &&
				    m->funcs[o->sym].has_body)
					launched(m, o->sym, need);
			}
	free(seen);
}


Prog *be_translate_log(const Module *m, const BeOptions *opt, FILE *err, BeLog *log)
{
	BeOptions dflt;
	Layout vl = {0};
	Prog *p = isa_prog_new();
	int nerr = 0, found = 0;
	uint8_t *need;

	if (!opt) {
		be_options_default(&dflt);
		opt = &dflt;
	}
	if (be_decide_check(m, opt, err)) {
		isa_prog_free(p);
		return NULL;
	}
	be_layout(m, &vl);
	be_prog_files(p, m);
	need = calloc((size_t)m->nfuncs + 1, 1);
	if (!need)
		die("out of memory");
	for (int fi = 0; opt->kernel && fi < m->nfuncs; fi++)
		if (m->funcs[fi].entry && !strcmp(opt->kernel, m->funcs[fi].name))
			launched(m, fi, need);
	for (int fi = 0; fi < m->nfuncs && !nerr; fi++) {
		const PFunc *pf = &m->funcs[fi];
		uint8_t *seen;
		Calls cs = {0};
		Fn **fns;
		BeOptions ko;
		int lfirst = log ? log->n : 0;   /* this kernel's log entries from here on */
		if (!pf->entry || !pf->has_body || (opt->kernel && !need[fi]))
			continue;
		/* .maxnreg N: this kernel and what it calls within N registers (as ptxas) */
		ko = *opt;
		if (pf->maxnreg && pf->maxnreg < (uint32_t)ko.max_regs)
			ko.max_regs = (int)pf->maxnreg;
		minctas_cap(pf, &ko);
		found = 1;
		seen = calloc((size_t)m->nfuncs + 1, 1);
		fns = calloc((size_t)m->nfuncs + 1, sizeof *fns);
		if (!seen || !fns)
			die("out of memory");
		ptx_reach(m, fi, seen);
		if (ko.func_params == BE_FP_CALLERS)
			param_div(m, seen, &ko, &vl, &cs);
		for (int k = 0; k < m->nfuncs && !nerr; k++)
			if (seen[k] && m->funcs[k].unsup_op) {
				char note[160];
				if (k == fi)
					snprintf(note, sizeof note, "in kernel '%.60s'", pf->name);
				else
					snprintf(note, sizeof note, "kernel '%.60s' reaches '%.60s'", pf->name,
					         m->funcs[k].name);
				ptx_unsup_report(err, m, &m->funcs[k], "error", note);
				nerr++;
			} else if (seen[k]) {
				fns[k] = translate_fn(m, k, &ko, &vl, err, log, cs.pd ? cs.pd[k] : NULL, cs.ru);
				nerr += fns[k] == NULL;
			}
		if (!nerr && emit_kernel(p, m, fi, fns, &vl, &ko, err, log, lfirst) < 0)
			nerr++;
		for (int e = lfirst; log && e < log->n; e++)
			log->e[e].kernel = pf->name;
		for (int k = 0; k < m->nfuncs; k++)
			fn_free(fns[k]);
		calls_free(m, &cs);
		free(seen);
		free(fns);
	}
	be_layout_free(m, &vl);
	free(need);
	if (opt->kernel && !found && !nerr) {
		fprintf(err, "%s: error: no kernel named '%s'\n", m->name, opt->kernel);
		nerr++;
	}
	if (nerr) {
		isa_prog_free(p);
		return NULL;
	}
	return p;
}

Prog *be_translate(const Module *m, const BeOptions *opt, FILE *err)
{
	return be_translate_log(m, opt, err, NULL);
}

