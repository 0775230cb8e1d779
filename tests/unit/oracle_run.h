/* oracle_run.h - shared by the oracle's Check tests: parse a PTX string, run it on the
 * oracle with launch options given as in a launch file, and look at buffers and messages. */
#ifndef WARPSIM_TEST_ORACLE_RUN_H
#define WARPSIM_TEST_ORACLE_RUN_H

#include <check.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/ptx.h"
#include "sim/sim.h"
#include "oracle/oracle.h"

typedef struct {
	Mem mem;         /* device memory after the run */
	Placed pl;       /* buffer addresses */
	SimOpts opts;    /* the launch */
	Module *m;       /* the program */
	OrStats st;      /* statistics */
	int rc;          /* OR_* result; -1 when the PTX or the options did not parse */
	char *err;       /* everything written to err */
	size_t errlen;
} ORun;

/* opts: launch options separated by spaces ("--grid 2 --block 32 --arg buf:u32:64");
 * reverse: --oracle-order reverse */
static ORun *orun_order(const char *ptx, const char *opts, uint64_t max_steps, int reverse)
{
	ORun *r = calloc(1, sizeof *r);
	FILE *err = open_memstream(&r->err, &r->errlen);
	char *dup = strdup(opts), *argv[64];
	int argc = 0;
	OrConfig c = {max_steps, 0, NULL, 0, reverse, 0};

	argv[argc++] = "warpsim";
	for (char *p = strtok(dup, " "); p && argc < 63; p = strtok(NULL, " "))
		argv[argc++] = p;
	argv[argc++] = "test.ptx";
	sim_opts_init(&r->opts);
	dev_mem_init(&r->mem);
	r->rc = -1;
	if (!sim_opts_argv(&r->opts, argc, argv, err) &&
	    (r->m = ptx_parse("test.ptx", ptx, strlen(ptx), err, NULL))) {
		c.shared_unit = (uint32_t)r->opts.tc.shared_unit;
		r->rc = or_run(r->m, &r->opts.launch, &c, &r->mem, &r->pl, &r->st, err);
	}
	fclose(err);
	free(dup);
	return r;
}

static ORun *orun(const char *ptx, const char *opts, uint64_t max_steps)
{
	return orun_order(ptx, opts, max_steps, 0);
}

/* orun, asserting that the run completes (its messages otherwise) */
static inline ORun *orun_ok(const char *ptx, const char *opts, uint64_t max_steps)
{
	ORun *r = orun(ptx, opts, max_steps);

	ck_assert_msg(r->rc == OR_DONE, "rc %d: %s", r->rc, r->err);
	return r;
}

static inline void *obuf(ORun *r, int param)
{
	return dev_mem_global(&r->mem, r->pl.addr[param], 0);
}

static inline uint32_t ou32(ORun *r, int param, int i) { return ((uint32_t *)obuf(r, param))[i]; }
static inline uint64_t ou64(ORun *r, int param, int i) { return ((uint64_t *)obuf(r, param))[i]; }

static void orun_free(ORun *r)
{
	dev_placed_free(&r->pl);
	dev_mem_free(&r->mem);
	sim_opts_free(&r->opts);
	if (r->m)
		ptx_free(r->m);
	free(r->err);
	free(r);
}

/* a kernel with one u32 output buffer "out" and the body given; %r0..%r31, %rd0..%rd15,
 * %p0..%p7, %f0..%f15, %fd0..%fd7, %rs0..%rs7 are declared, %rd15 = &out[global thread id] */
#define OR_KERNEL(body) \
	".version 7.0\n.target sm_70\n.address_size 64\n" \
	".visible .entry k(.param .u64 out, .param .u64 in)\n{\n" \
	".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<16>;\n" \
	".reg .f64 %fd<8>;\n.reg .b16 %rs<8>;\n" \
	"ld.param.u64 %rd14, [out];\nld.param.u64 %rd13, [in];\n" \
	"mov.u32 %r30, %tid.x;\nmov.u32 %r31, %ctaid.x;\nmov.u32 %r29, %ntid.x;\n" \
	"mad.lo.s32 %r28, %r31, %r29, %r30;\nmul.wide.u32 %rd12, %r28, 4;\n" \
	"add.s64 %rd15, %rd14, %rd12;\nadd.s64 %rd11, %rd13, %rd12;\n" \
	body "\n}\n"

#endif
