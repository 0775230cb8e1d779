/* fdrun.c - the differential fuzzer's inner loop in one process (issue 9).
 *
 *   fdrun FROM COUNT [--step K] [--size S] [--pmax "0 4 7 inf"] [--scheds "lrr gto"]
 * (a --pmax value sN selects ptxas's sm_35 rule at N: --predicate-rule sm35, with s8
 * kepler.cfg's 8/6)
 *         [--max-warp-insts N]
 *
 * For the seeds FROM, FROM+K, ... below FROM+COUNT: gen's program and launch are made in
 * memory, the PTX oracle runs it once, then the translator runs at every --predicate-max and
 * the SM model under every --scheduler; every run must leave the oracle's --out buffers byte
 * for byte. It prints one line per seed, the same lines tests/fuzzdiff/fuzzdiff.sh's shell
 * worker prints (the shell path stays, for the shrinker and as the reference):
 *   AGREE seed | DIFF seed pmax sched what | SMERR seed pmax sched | ORACLE seed why |
 *   NOTRUN seed reason
 * It runs exactly what `warpsim --oracle` and `warpsim --predicate-max P --scheduler S` run
 * (the same library calls as tools/warpsim.c), without a process, a file or a shell per run.
 * A threshold whose microcode is byte-identical to an earlier threshold's is not simulated
 * again (the SM model is deterministic: same code, launch and scheduler, same memory); the
 * counts of runs and skips so far are printed on stderr after every seed.
 * Exit status 0 when every seed agreed, 1 otherwise, 2 bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/gen/gen.h"
#include "frontend/ptx.h"
#include "backend/backend.h"
#include "oracle/oracle.h"
#include "sim/sim.h"

#define MAXCFG 16

/* the harness's own tests (tests/run-gen.sh): FDRUN_FAKE_BUG=TEXT flips the last byte of the
 * first output of every SM-model run of a program whose PTX holds TEXT (it must be reported
 * as DIFF); FDRUN_FAKE_CRASH=TEXT aborts on such a program, as an internal error would (the
 * driver must report CRASH for it and go on) */
static const char *fake_bug, *fake_crash;

typedef struct {
	int size;                  /* gen --size */
	char *pmax[MAXCFG];        /* --predicate-max values, as written ("inf") */
	int npmax;
	char *sched[MAXCFG];       /* --scheduler values */
	int nsched;
	char limit[32];            /* --max-warp-insts, as text */
} Cfg;

/* the output buffers of one run: one copy per --out of the launch (gen writes two) */
#define MAXOUT 8
typedef struct {
	uint8_t *p[MAXOUT];
	uint64_t n[MAXOUT];
	int nout;
} Outs;

static void usage(void)
{
	fprintf(stderr, "usage: fdrun FROM COUNT [--step K] [--size S] [--pmax LIST] "
	        "[--scheds LIST] [--max-warp-insts N]\n");
	exit(2);
}

static uint64_t number(const char *s, const char *what) { return gen_number("fdrun", s, what); }

/* splits a space-separated list in place into v[]; returns the count */
static int split(char *s, char **v)
{
	int n = 0;
	for (char *w = strtok(s, " "); w && n < MAXCFG; w = strtok(NULL, " "))
		v[n++] = w;
	return n;
}

/* parses gen's launch text plus extra options ("--name value" pairs in extra[]) into o
 * (initialised by the caller); 0, or -1 after a message on err */
static int opts_from(SimOpts *o, const char *launch, char **extra, int nextra, FILE *err)
{
	char *text = strdup(launch), *argv[64];
	int argc, rc;

	if (!text)
		exit(3);
	argc = gen_launch_argv(text, argv, 64 - nextra, "fdrun", 1);
	for (int i = 0; i < nextra; i++)
		argv[argc++] = extra[i];
	rc = sim_opts_argv(o, argc, argv, err);
	free(text);
	return rc;
}

/* copies the --out buffers of a finished run */
static void outs_take(Outs *s, Mem *m, const Launch *l, const Placed *pl)
{
	s->nout = 0;
	if (l->nouts > MAXOUT) {
		fprintf(stderr, "fdrun: %d --out buffers, at most %d are compared\n", l->nouts, MAXOUT);
		exit(2);
	}
	for (int i = 0; i < l->nouts; i++) {
		int k = l->outs[i].param;
		const uint8_t *p = dev_mem_global(m, pl->addr[k], 0);
		s->n[i] = pl->bytes[k];
		if (!(s->p[i] = malloc(s->n[i] ? s->n[i] : 1)))
			exit(3);
		memcpy(s->p[i], p, s->n[i]);
		s->nout++;
	}
}

static void outs_free(Outs *s)
{
	for (int i = 0; i < s->nout; i++)
		free(s->p[i]);
	s->nout = 0;
}

/* "" when a and b are equal, else where they first differ ("out.bin: differs at byte 17") */
static void outs_diff(const Outs *a, const Outs *b, const Launch *l, char *why, size_t n)
{
	why[0] = 0;
	for (int i = 0; i < a->nout; i++) {
		const char *name = strrchr(l->outs[i].path, '/');
		name = name ? name + 1 : l->outs[i].path;
		if (i >= b->nout || a->n[i] != b->n[i]) {
			snprintf(why, n, "%s: sizes differ", name);
			return;
		}
		for (uint64_t j = 0; j < a->n[i]; j++)
			if (a->p[i][j] != b->p[i][j]) {
				snprintf(why, n, "%s: differs at byte %llu", name, (unsigned long long)j + 1);
				return;
			}
	}
}

/* the first line of a message buffer, without "warpsim: " or a path, for the result line */
static void first_line(const char *msg, char *out, size_t n)
{
	const char *s = strstr(msg, "error: ");
	size_t k;

	s = s ? s + 7 : (strncmp(msg, "warpsim: ", 9) ? msg : msg + 9);
	for (k = 0; s[k] && s[k] != '\n' && k + 1 < n; k++)
		out[k] = s[k];
	out[k] = 0;
}

/* the message says the program holds something not supported yet (NOT RUN, not a finding) */
static int unsupported(const char *msg)
{
	return (strstr(msg, "error: unsupported") || strstr(msg, "not supported")) &&
	       !strstr(msg, "internal error");
}

/* the launch's kernel in p (gen's programs name it) */
static const Kernel *kernel_of(const Prog *p, const char *name)
{
	return name ? isa_prog_find(p, name) : p->nk == 1 ? &p->k[0] : NULL;
}

/* one SM-model run of the translated program p: 0 agreed, else the result line is in res */
static int sm_run(const Prog *p, const char *ptx, const GenBuf *lt, const Outs *want,
                  const Cfg *c, int pi, int si, uint64_t seed, char *res, size_t rn)
{
	char *extra[] = {"--scheduler", c->sched[si], "--max-warp-insts", (char *)c->limit};
	char *msg = NULL, why[200];
	size_t mlen = 0;
	FILE *err = open_memstream(&msg, &mlen);
	SimOpts o;
	SimConfig cfg;
	Mem mem;
	Placed pl = {0};
	Gpu *g = NULL;
	const Kernel *k = NULL;
	Outs got = {0};
	int bad = 1;

	if (!err)
		exit(3);
	dev_mem_init(&mem);
	sim_opts_init(&o);
	if (opts_from(&o, lt->p, extra, 4, err) || !(k = kernel_of(p, o.launch.kernel)) ||
	    dev_launch_place(&mem, k, &o.launch, &pl, err)) {
		fflush(err);
		first_line(msg, why, sizeof why);
		snprintf(res, rn, "NOTRUN %llu %s", (unsigned long long)seed, why);
		goto out;
	}
	sim_config_from_opts(&cfg, &o);
	if (!(g = sim_gpu_new(k, &mem, &o.launch, &cfg, "gen.ptx", err)) ||
	    sim_run(g, 0) != SIM_DONE) {
		if (g)
			fputs(sim_gpu_error(g), err);
		fflush(err);
		first_line(msg, why, sizeof why);
		if (unsupported(msg))
			snprintf(res, rn, "NOTRUN %llu %s", (unsigned long long)seed, why);
		else
			snprintf(res, rn, "SMERR %llu %s %s", (unsigned long long)seed, c->pmax[pi], c->sched[si]);
		goto out;
	}
	outs_take(&got, &mem, &o.launch, &pl);
	if (fake_bug && strstr(ptx, fake_bug) && got.nout && got.n[0])
		got.p[0][got.n[0] - 1] ^= 1;   /* the harness's own test: a planted difference */
	outs_diff(want, &got, &o.launch, why, sizeof why);
	if (why[0])
		snprintf(res, rn, "DIFF %llu %s %s %s", (unsigned long long)seed, c->pmax[pi],
		         c->sched[si], why);
	else
		bad = 0;
out:
	outs_free(&got);
	sim_gpu_free(g);
	dev_placed_free(&pl);
	dev_mem_free(&mem);
	sim_opts_free(&o);
	fclose(err);
	free(msg);
	return bad;
}

static uint64_t nruns, nsame;   /* SM-model runs made, and skipped as identical microcode */

/* the program's listing as text (NULL when out of memory) */
static char *listing(const Prog *p)
{
	char *t = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&t, &n);

	if (!f)
		return NULL;
	isa_print_prog(f, p);
	fclose(f);
	return t;
}

/* lst[pi] equals an earlier threshold's listing */
static int seen(char **lst, int pi)
{
	for (int j = 0; j < pi; j++)
		if (lst[j] && !strcmp(lst[j], lst[pi]))
			return 1;
	return 0;
}

/* one seed; prints its result line; 0 when it agreed everywhere */
static int one(uint64_t seed, const Cfg *c)
{
	GenProg g;
	GenBuf ptx = {0}, lt = {0};
	char name[64], res[400], why[200], *msg = NULL;
	char *extra[] = {"--max-warp-insts", (char *)c->limit};
	size_t mlen = 0;
	FILE *err = open_memstream(&msg, &mlen);
	Module *m = NULL;
	SimOpts o;
	Mem mem;
	Placed pl = {0};
	OrConfig oc = {0};
	OrStats st = {0};
	Outs want = {0};
	char *lst[MAXCFG] = {0};
	int nerr = 0, bad = 1;

	if (!err)
		exit(3);
	gen_program(&g, seed, c->size, 0);
	gen_emit_ptx(&ptx, &g, NULL);
	gen_emit_launch(&lt, &g, NULL);
	snprintf(name, sizeof name, "gen-%llu.ptx", (unsigned long long)seed);
	dev_mem_init(&mem);
	sim_opts_init(&o);
	if (fake_crash && strstr(ptx.p, fake_crash))
		abort();
	m = ptx_parse(name, ptx.p, ptx.n, err, &nerr);
	if (!m || nerr || opts_from(&o, lt.p, extra, 2, err)) {
		fflush(err);
		first_line(msg, why, sizeof why);
		snprintf(res, sizeof res, "ORACLE %llu %s", (unsigned long long)seed, why);
		goto out;
	}
	or_config_init(&oc, o.max_warp_insts);
	oc.shared_unit = (uint32_t)o.tc.shared_unit;
	if (or_run(m, &o.launch, &oc, &mem, &pl, &st, err) != OR_DONE) {
		fflush(err);
		first_line(msg, why, sizeof why);
		snprintf(res, sizeof res, "ORACLE %llu %s", (unsigned long long)seed, why);
		goto out;
	}
	outs_take(&want, &mem, &o.launch, &pl);
	snprintf(res, sizeof res, "AGREE %llu", (unsigned long long)seed);
	bad = 0;
	for (int pi = 0; pi < c->npmax && !bad; pi++) {
		BeOptions bo;
		Prog *p;
		be_options_default(&bo);
		const char *pv = c->pmax[pi];
		if (pv[0] == 's') {  /* sN: ptxas's sm_35 rule and loops (kepler.cfg: s8, with 6 if
		                      * uniform) */
			pv++;
			bo.predicate_rule = BE_RULE_SM35;
			bo.loop_sync = BE_LOOP_PBK;
			bo.early_return = BE_RET_GUARDED;
			bo.short_circuit = BE_SC_FOLD;
			bo.func_params = BE_FP_CALLERS;
			bo.predicate_max_uniform = strcmp(pv, "inf") ? (atoi(pv) == 8 ? 6 : atoi(pv)) : -1;
		}
		bo.predicate_max = strcmp(pv, "inf") ? atoi(pv) : -1;
		bo.max_regs = o.tc.max_regs;
		bo.kernel = o.launch.kernel;
		if (!(p = be_translate(m, &bo, err))) {
			fflush(err);
			first_line(msg, why, sizeof why);
			if (unsupported(msg))
				snprintf(res, sizeof res, "NOTRUN %llu %s", (unsigned long long)seed, why);
			else
				snprintf(res, sizeof res, "SMERR %llu %s %s", (unsigned long long)seed,
				         c->pmax[pi], c->sched[0]);
			bad = 1;
			break;
		}
		/* the simulator is deterministic: microcode identical to an earlier threshold's
		 * (same launch, same scheduler) would leave the same memory; it is not run again */
		if (!(lst[pi] = listing(p)) || seen(lst, pi)) {
			nsame += (uint64_t)c->nsched;
		} else {
			for (int si = 0; si < c->nsched && !bad; si++, nruns++)
				bad = sm_run(p, ptx.p, &lt, &want, c, pi, si, seed, res, sizeof res);
		}
		isa_prog_free(p);
	}
	for (int pi = 0; pi < c->npmax; pi++)
		free(lst[pi]);
out:
	printf("%s\n", res);
	fflush(stdout);
	outs_free(&want);
	dev_placed_free(&pl);
	dev_mem_free(&mem);
	sim_opts_free(&o);
	ptx_free(m);
	fclose(err);
	free(msg);
	free(ptx.p);
	free(lt.p);
	gen_free(&g);
	return bad;
}

int main(int argc, char **argv)
{
	static char pmax[256] = "0 4 7 inf", scheds[256] = "lrr gto";
	Cfg c = {3, {0}, 0, {0}, 0, "20000000"};
	uint64_t from, count, step = 1, bad = 0;

	if (argc < 3)
		usage();
	from = number(argv[1], "FROM");
	count = number(argv[2], "COUNT");
	for (int i = 3; i < argc; i++) {
		const char *a = argv[i];
		if (i + 1 >= argc)
			usage();
		if (!strcmp(a, "--step"))
			step = number(argv[++i], "--step");
		else if (!strcmp(a, "--size"))
			c.size = (int)number(argv[++i], "--size");
		else if (!strcmp(a, "--pmax"))
			snprintf(pmax, sizeof pmax, "%s", argv[++i]);
		else if (!strcmp(a, "--scheds"))
			snprintf(scheds, sizeof scheds, "%s", argv[++i]);
		else if (!strcmp(a, "--max-warp-insts"))
			snprintf(c.limit, sizeof c.limit, "%llu",
			         (unsigned long long)number(argv[++i], "--max-warp-insts"));
		else
			usage();
	}
	if (step < 1 || c.size < 1 || c.size > 20)
		usage();
	fake_bug = getenv("FDRUN_FAKE_BUG");
	fake_crash = getenv("FDRUN_FAKE_CRASH");
	c.npmax = split(pmax, c.pmax);
	c.nsched = split(scheds, c.sched);
	if (!c.npmax || !c.nsched)
		usage();
	/* the counts so far after every seed (the driver keeps the last line: a crash loses
	 * none but its own seed's) */
	for (uint64_t s = from; s < from + count; s += step) {
		bad += (uint64_t)one(s, &c);
		fprintf(stderr, "fdrun: %llu SM-model runs; %llu more configurations skipped: their "
		        "microcode was identical to a threshold's already run\n",
		        (unsigned long long)nruns, (unsigned long long)nsame);
	}
	return bad ? 1 : 0;
}
