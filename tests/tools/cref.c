/* cref.c - runs the C reference of a corpus kernel (tests/ref/NAME.c) on a launch file's
 * buffers and writes the --out files, for tests/run-diff.sh to compare with the oracle.
 *
 *   cref --has NAME                      exit 0 when NAME has a reference
 *   cref NAME --launch FILE [--out N:PATH]...
 *
 * Buffers are initialised by sim's launch module exactly as warpsim does. */
#include <stdio.h>
#include <string.h>
#include "sim/sim.h"
#include "tests/ref/ref.h"
#include "tests/ref/reduce.c"
#include "tests/ref/scan.c"
#include "tests/ref/histogram.c"
#include "tests/ref/matmul.c"
#include "tests/ref/stencil.c"
#include "tests/ref/atomics.c"
#include "tests/ref/bitonic.c"
#include "tests/ref/calls.c"
#include "tests/ref/carry96.c"
#include "tests/ref/divergence.c"
#include "tests/ref/half.c"
#include "tests/ref/switch.c"
#include "tests/ref/warp.c"
#include "tests/ref/wide64.c"
#include "tests/ref/cf_branch.c"
#include "tests/ref/cf_brx.c"
#include "tests/ref/cf_call.c"
#include "tests/ref/cf_ret_exit.c"
#include "tests/ref/coop_reduce.c"
#include "tests/ref/ftz_sm13.c"
#include "tests/workloads/bfs.c"
#include "tests/workloads/kmeans.c"
#include "tests/workloads/nw.c"
#include "tests/workloads/histo.c"
#include "tests/workloads/spmv.c"

static const struct { const char *name; void (*fn)(RefArgs *); } refs[] = {
	{"reduce", ref_reduce}, {"scan", ref_scan}, {"histogram", ref_histogram},
	{"matmul", ref_matmul}, {"stencil", ref_stencil}, {"atomics", ref_atomics},
	{"bitonic", ref_bitonic}, {"calls", ref_calls}, {"carry96", ref_carry96},
	{"carry96_hand", ref_carry96_hand}, {"divergence", ref_divergence}, {"half", ref_half},
	{"switch", ref_switch}, {"warp", ref_warp}, {"wide64", ref_wide64},
	{"cf_branch", ref_cf_branch}, {"cf_brx", ref_cf_brx}, {"cf_call", ref_cf_call},
	{"cf_ret_exit", ref_cf_ret_exit}, {"coop_reduce", ref_coop_reduce}, {"ftz_sm13", ref_ftz_sm13},
	{"bfs", ref_bfs}, {"kmeans", ref_kmeans}, {"nw", ref_nw}, {"histo", ref_histo},
	{"spmv", ref_spmv},
};
#define NREFS (int)(sizeof refs / sizeof refs[0])

static int find(const char *name)
{
	for (int i = 0; i < NREFS; i++)
		if (!strcmp(refs[i].name, name))
			return i;
	return -1;
}

int main(int argc, char **argv)
{
	SimOpts o;
	Mem mem;
	Placed pl = {0};
	Prog *p;
	Kernel *k;
	RefArgs ra;
	char *av[64];
	int ac = 0, ri, rc = 1;
	uint32_t off = 0x20;

	if (argc == 3 && !strcmp(argv[1], "--has"))
		return find(argv[2]) >= 0 ? 0 : 1;
	if (argc < 2 || (ri = find(argv[1])) < 0 || argc > 60) {
		fprintf(stderr, "usage: cref --has NAME | cref NAME --launch FILE [--out N:PATH]...\n");
		return 2;
	}
	av[ac++] = "cref";
	for (int i = 2; i < argc; i++)
		av[ac++] = argv[i];
	av[ac++] = "reference.ptx";
	sim_opts_init(&o);
	dev_mem_init(&mem);
	if (sim_opts_argv(&o, ac, av, stderr) || o.launch.nargs > 16)
		goto out;
	p = isa_prog_new();
	k = isa_prog_add_kernel(p, refs[ri].name);
	for (int i = 0; i < o.launch.nargs; i++) {
		uint32_t size = o.launch.args[i].isbuf ? 8 : (uint32_t)isa_type_bytes(o.launch.args[i].type);
		off = (off + size - 1) / size * size;
		isa_kernel_add_param(k, off, size, NULL);
		off += size;
	}
	if (dev_launch_place(&mem, k, &o.launch, &pl, stderr)) {
		isa_prog_free(p);
		goto out;
	}
	isa_prog_free(p);
	memset(&ra, 0, sizeof ra);
	for (int i = 0; i < o.launch.nargs; i++) {
		const LaunchArg *a = &o.launch.args[i];
		if (a->isbuf) {
			ra.p[i] = dev_mem_global(&mem, pl.addr[i], 0);
			ra.count[i] = a->count;
		} else
			ra.v[i] = a->bits;
	}
	memcpy(ra.grid, o.launch.grid, sizeof ra.grid);
	memcpy(ra.block, o.launch.block, sizeof ra.block);
	refs[ri].fn(&ra);
	rc = dev_launch_write_outputs(&mem, &o.launch, &pl, stderr) ? 1 : 0;
out:
	dev_placed_free(&pl);
	dev_mem_free(&mem);
	sim_opts_free(&o);
	return rc;
}
