/* helper_sim.c - a small harness for the simulator's unit tests: assemble a listing from a
 * string, launch its first kernel with arguments given as --arg strings, run it on the SM
 * model recording every issued instruction, and read buffers back; and what the cycle
 * model's tests share. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/helper_sim.h"

static void record(void *ctx, const ExecInfo *e)
{
	SimT *t = ctx;

	if (t->ntr < SIMT_MAXTR) {
		t->tr[t->ntr].pc = e->pc;
		t->tr[t->ntr].active = e->active;
		t->tr[t->ntr].exec = e->exec;
		t->tr[t->ntr].warp = e->warp;
		t->tr[t->ntr].op = e->in->op;
	}
	t->ntr++;
}

static int run(SimT *t, const char *listing, const unsigned grid[3], const unsigned block[3],
               const char **args, const char **cfg, int trace)
{
	SimConfig c;
	SimOpts o;
	char why[256];
	const Kernel *k;

	memset(t, 0, sizeof *t);
	dev_mem_init(&t->mem);
	dev_launch_init(&t->l);
	for (int i = 0; i < 3; i++) {
		t->l.grid[i] = grid[i];
		t->l.block[i] = block[i];
	}
	t->err = open_memstream(&t->errbuf, &t->errlen);
	t->p = isa_asm("t.sass", listing, strlen(listing), t->err);
	if (!t->p) {
		fflush(t->err);
		fprintf(stderr, "listing does not assemble:\n%s", t->errbuf);
		return t->rc = -1;
	}
	k = &t->p->k[0];
	for (int i = 0; args && args[i]; i++) {
		t->l.args = realloc(t->l.args, (t->l.nargs + 1) * sizeof *t->l.args);
		if (dev_parse_arg(args[i], NULL, &t->l.args[t->l.nargs], why)) {
			fprintf(stderr, "bad arg '%s': %s\n", args[i], why);
			return t->rc = -1;
		}
		t->l.nargs++;
	}
	sim_opts_init(&o);
	for (int i = 0; cfg && cfg[i]; i += 2)
		if (sim_tconfig_set(&o.tc, cfg[i], cfg[i + 1], why, sizeof why)) {
			fprintf(stderr, "bad config: %s\n", why);
			return t->rc = -1;
		}
	sim_config_from_opts(&c, &o);
	sim_opts_free(&o);
	if (dev_launch_place(&t->mem, k, &t->l, &t->pl, t->err))
		return t->rc = -2;
	if (!(t->g = sim_gpu_new(k, &t->mem, &t->l, &c, "t.sass", t->err)))
		return t->rc = -3;
	if (trace)
		sim_gpu_trace(t->g, record, t);
	t->rc = sim_run(t->g, 0);
	t->st = *sim_gpu_stats(t->g);
	if (t->rc != SIM_DONE)
		fputs(sim_gpu_error(t->g), t->err);
	fflush(t->err);
	return t->rc;
}

int simt_run(SimT *t, const char *listing, unsigned grid, unsigned block, const char **args,
             const char **cfg)
{
	return run(t, listing, (unsigned[3]){grid, 1, 1}, (unsigned[3]){block, 1, 1}, args, cfg, 1);
}

int simt_run_untraced(SimT *t, const char *listing, unsigned grid, unsigned block,
                      const char **args, const char **cfg)
{
	return run(t, listing, (unsigned[3]){grid, 1, 1}, (unsigned[3]){block, 1, 1}, args, cfg, 0);
}

int simt_run_dims(SimT *t, const char *listing, const unsigned grid[3], const unsigned block[3],
                  const char **args, int trace)
{
	return run(t, listing, grid, block, args, NULL, trace);
}

uint64_t simt_get(SimT *t, int param, int idx)
{
	const LaunchArg *a = &t->l.args[param];
	int es = isa_type_bytes(a->type);
	uint8_t *p = dev_mem_global(&t->mem, t->pl.addr[param] + (uint64_t)idx * es, es);

	return p ? dev_ld(p, es) : 0xdeadbeefdeadull;
}

/* "mask@pc" whenever the active mask changes, from the first instruction, space separated */
const char *simt_runs(SimT *t, int warp)
{
	size_t n = 0;
	uint32_t last = 0;
	int first = 1;

	t->runs[0] = 0;
	for (int i = 0; i < t->ntr && i < SIMT_MAXTR; i++) {
		if (t->tr[i].warp != warp)
			continue;
		if (first || t->tr[i].active != last)
			n += (size_t)snprintf(t->runs + n, sizeof t->runs - n, "%s0x%x@0x%x", first ? "" : " ",
			                      t->tr[i].active, t->tr[i].pc);
		last = t->tr[i].active;
		first = 0;
		if (n >= sizeof t->runs)
			break;
	}
	return t->runs;
}

int simt_count(SimT *t, int warp, uint32_t pc)
{
	int c = 0;

	for (int i = 0; i < t->ntr && i < SIMT_MAXTR; i++)
		c += t->tr[i].warp == warp && t->tr[i].pc == pc;
	return c;
}

/* index of the first issue of pc by warp at or after from, or -1 */
int simt_find(SimT *t, int warp, uint32_t pc, int from)
{
	for (int i = from; i < t->ntr && i < SIMT_MAXTR; i++)
		if (t->tr[i].warp == warp && t->tr[i].pc == pc)
			return i;
	return -1;
}

void simt_free(SimT *t)
{
	sim_gpu_free(t->g);
	dev_placed_free(&t->pl);
	dev_mem_free(&t->mem);
	dev_launch_free(&t->l);
	isa_prog_free(t->p);
	if (t->err)
		fclose(t->err);
	free(t->errbuf);
	memset(t, 0, sizeof *t);
}

int helper_load_config(TimingConfig *c, BeOptions *be, const char *path, FILE *err)
{
	BeOptions scratch;
	OptSet s;
	int rc;

	be_options_default(&scratch);
	opt_init(&s, "warpsim");
	opt_add(&s, "Architecture", sim_topts, sim_ntopts, c);
	opt_add(&s, "Translator", be_opt_rows, be_nopt_rows, be ? be : &scratch);
	rc = opt_file(&s, path, err);
	opt_free(&s);
	return rc;
}

TimingConfig helper_teaching(void)
{
	TimingConfig c;

	sim_tconfig_defaults(&c);
	ck_assert_int_eq(sim_tconfig_load(&c, "sim/configs/teaching.cfg", stderr), 0);
	return c;
}

int helper_gcd(int a, int b)
{
	while (b) {
		int t = a % b;

		a = b;
		b = t;
	}
	return a;
}
