/* test_backend.h - shared by the translator's Check tests (test_backend*.c): translate a PTX
 * string, run it on the SM model and on the PTX oracle with the same launch (options as in a
 * launch file, separated by spaces), and compare every buffer argument byte for byte. */
#ifndef WARPSIM_TEST_BACKEND_H
#define WARPSIM_TEST_BACKEND_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "frontend/ptx.h"
#include "sim/sim.h"
#include "oracle/oracle.h"
#include "backend/backend.h"

typedef struct {
	Prog *p;          /* the translation */
	char *listing;    /* its listing */
	int sm_rc;        /* sim_run result, or -1 when it did not start */
	int or_rc;        /* or_run result, or -1 */
	int differ;       /* buffers that differ between the two runs */
	int dparam;       /* the first one that differs, and the byte offset there */
	uint64_t doff;
	int nbuf;         /* buffers compared */
	Mem smem, omem;   /* memories after the runs */
	Placed spl, opl;  /* their buffer addresses */
	SimOpts o;        /* the launch */
	char *err;        /* messages of both runs */
	size_t errlen;
} BeRun;

/* opts: launch options; max_regs 0 for the default; returns r (r->p NULL: not translated) */
static BeRun *be_run(const char *ptx, const char *opts, int max_regs, int pmax)
{
	BeRun *r = calloc(1, sizeof *r);
	FILE *err = open_memstream(&r->err, &r->errlen);
	char *dup = strdup(opts), *argv[64];
	int argc = 0;
	Module *m = NULL;
	BeOptions bo;
	OrConfig oc = {10000000, 0, NULL, 0, 0, 0};
	OrStats os;

	argv[argc++] = "warpsim";
	for (char *s = strtok(dup, " "); s && argc < 63; s = strtok(NULL, " "))
		argv[argc++] = s;
	argv[argc++] = "test.ptx";
	sim_opts_init(&r->o);
	dev_mem_init(&r->smem);
	dev_mem_init(&r->omem);
	r->sm_rc = r->or_rc = -1;
	if (sim_opts_argv(&r->o, argc, argv, err) || !(m = ptx_parse("test.ptx", ptx, strlen(ptx), err, NULL)))
		goto out;
	be_options_default(&bo);
	if (max_regs)
		bo.max_regs = max_regs;
	bo.predicate_max = pmax;
	if (!(r->p = be_translate(m, &bo, err)))
		goto out;
	{
		FILE *l = open_memstream(&r->listing, &(size_t){0});
		isa_print_prog(l, r->p);
		fclose(l);
	}
	oc.shared_unit = (uint32_t)r->o.tc.shared_unit;
	r->or_rc = or_run(m, &r->o.launch, &oc, &r->omem, &r->opl, &os, err);
	const Kernel *k = r->o.launch.kernel ? isa_prog_find(r->p, r->o.launch.kernel) : &r->p->k[0];
	SimConfig c;
	Gpu *g;
	sim_config_from_opts(&c, &r->o);
	if (k && !dev_launch_place(&r->smem, k, &r->o.launch, &r->spl, err) &&
	    (g = sim_gpu_new(k, &r->smem, &r->o.launch, &c, "test.ptx", err))) {
		r->sm_rc = sim_run(g, 0);
		if (r->sm_rc != SIM_DONE)
			fputs(sim_gpu_error(g), err);
		sim_gpu_free(g);
	}
	if (r->sm_rc == SIM_DONE && r->or_rc == OR_DONE)
		for (int i = 0; i < r->o.launch.nargs; i++) {
			if (!r->o.launch.args[i].isbuf)
				continue;
			uint64_t n = r->spl.bytes[i];
			r->nbuf++;
			const uint8_t *x = dev_mem_global(&r->smem, r->spl.addr[i], n);
			const uint8_t *y = dev_mem_global(&r->omem, r->opl.addr[i], n);
			if (n != r->opl.bytes[i] || memcmp(x, y, n)) {
				if (!r->differ++) {
					r->dparam = i;
					for (r->doff = 0; r->doff < n && x[r->doff] == y[r->doff]; r->doff++)
						;
				}
			}
		}
out:
	fclose(err);
	free(dup);
	if (m)
		ptx_free(m);
	return r;
}

/* element i of buffer argument param after the SM run */
static inline uint64_t be_get(BeRun *r, int param, int i)
{
	int es = isa_type_bytes(r->o.launch.args[param].type);
	uint8_t *p = dev_mem_global(&r->smem, r->spl.addr[param] + (uint64_t)i * es, es);
	return p ? dev_ld(p, es) : 0xdeadbeefdeadull;
}

static void be_run_free(BeRun *r)
{
	isa_prog_free(r->p);
	free(r->listing);
	dev_placed_free(&r->spl);
	dev_placed_free(&r->opl);
	dev_mem_free(&r->smem);
	dev_mem_free(&r->omem);
	sim_opts_free(&r->o);
	free(r->err);
	free(r);
}

/* true when both ran and every buffer agrees; prints why not */
static inline int be_same(BeRun *r)
{
	if (!r->p || r->sm_rc != SIM_DONE || r->or_rc != OR_DONE || r->differ || !r->nbuf) {
		fprintf(stderr, "be_run: translated %d, sm %d, oracle %d, %d of %d buffers differ "
		        "(first: parameter %d, byte %llu)\n%s", r->p != NULL, r->sm_rc, r->or_rc, r->differ,
		        r->nbuf, r->dparam, (unsigned long long)r->doff, r->err);
		return 0;
	}
	return 1;
}

/* be_run (default registers) whose launch reads a buffer from the n bytes at data: they go
 * to a temporary file, whose path replaces the one %s in fmt (the launch options) */
static inline BeRun *be_run_data(const char *ptx, const void *data, size_t n, const char *fmt, int pmax)
{
	char path[] = "/tmp/be-data.XXXXXX", opts[512];
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	BeRun *r;

	if (!f || fwrite(data, 1, n, f) != n || fclose(f)) {
		fprintf(stderr, "be_run_data: cannot write %s\n", path);
		abort();
	}
	snprintf(opts, sizeof opts, fmt, path);
	r = be_run(ptx, opts, 0, pmax);
	unlink(path);
	return r;
}

/* a whole file as a NUL-terminated string (NULL when it cannot be read) */
static inline char *be_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0) {
		rewind(f);
		s = malloc((size_t)n + 1);
		if (s && fread(s, 1, (size_t)n, f) == (size_t)n) {
			s[n] = 0;
		} else {
			free(s);
			s = NULL;
		}
	}
	fclose(f);
	return s;
}

#endif
