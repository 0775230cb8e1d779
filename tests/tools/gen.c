/* gen.c - the random PTX program generator's command line (tests/gen, issue 9).
 *
 *   gen --seed N [--size S] [--drop LIST]   print the program of seed N as PTX
 *   gen --seed N [--size S] --launch [--outdir DIR]
 *                                           print its launch file (--out files in DIR)
 *   gen --seed N [--size S] --count         print how many nodes --drop can name
 *   gen --check FROM COUNT [--size S] [--no-oracle]
 *                                           self-check seeds FROM..FROM+COUNT-1 in process:
 *                                           each program parses and checks with no
 *                                           diagnostic, and the oracle runs it to the end
 *   --no-brkpath (any mode)                 the programs without break paths after their
 *                                           loops' back edges (tree.c's brk_path): what
 *                                           run-gen.sh's coverage check sees without them
 *
 * LIST is comma-separated node ids and ranges ("3,7,10-20"): the shrinker's deletions.
 * Exit status: 0 done, 1 a self-check failure, 2 bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/gen/gen.h"
#include "frontend/ptx.h"
#include "oracle/oracle.h"
#include "sim/sim.h"

static void usage(void)
{
	fprintf(stderr, "usage: gen --seed N [--size S] [--drop LIST] [--launch [--outdir DIR]] [--count]\n"
	        "       gen --check FROM COUNT [--size S] [--no-oracle]\n"
	        "       (either with --no-brkpath: no break paths after loops)\n");
	exit(2);
}

static uint64_t number(const char *s, const char *what) { return gen_number("gen", s, what); }

/* LIST into drop[0..n-1] */
static unsigned char *parse_drop(const char *list, int n)
{
	unsigned char *d = calloc((size_t)n + 1, 1);
	const char *p = list;

	if (!d)
		exit(3);
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p || a < 0)
			goto bad;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				goto bad;
			p = end;
		}
		for (long i = a; i <= b && i < n; i++)
			d[i] = 1;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	return d;
bad:
	fprintf(stderr, "gen: --drop: expected ids and ranges like 3,7,10-20, got '%s'\n", list);
	exit(2);
}

/* one seed: parse and check, then run the oracle; 0 when both are clean */
static int check_one(uint64_t seed, int size, int flags, int oracle, OrStats *tot, FILE *log)
{
	GenProg g;
	GenBuf ptx = {0}, lt = {0};
	char name[64], *diag = NULL, *argv[64];
	size_t dlen = 0;
	FILE *err = open_memstream(&diag, &dlen);
	Module *m;
	int nerr = 0, bad = 0;

	if (!err)
		exit(3);
	gen_program(&g, seed, size, flags);
	gen_emit_ptx(&ptx, &g, NULL);
	snprintf(name, sizeof name, "gen-%llu.ptx", (unsigned long long)seed);
	m = ptx_parse(name, ptx.p, ptx.n, err, &nerr);
	fflush(err);
	if (!m || nerr || dlen) {
		fprintf(log, "gen: seed %llu: the frontend reports:\n%s", (unsigned long long)seed, diag);
		bad = 1;
	} else if (oracle) {
		SimOpts o;
		Mem mem;
		Placed pl = {0};
		OrConfig c = {200000000ull, 0, NULL, 0, 0, 0};
		OrStats st = {0};
		int r;

		gen_emit_launch(&lt, &g, NULL);
		sim_opts_init(&o);
		dev_mem_init(&mem);
		if (sim_opts_argv(&o, gen_launch_argv(lt.p, argv, 64, "gen", 0), argv, log)) {
			bad = 1;
		} else if ((r = or_run(m, &o.launch, &c, &mem, &pl, &st, err)) != OR_DONE) {
			fflush(err);
			fprintf(log, "gen: seed %llu: the oracle stops (%s):\n%s", (unsigned long long)seed,
			        or_result_name(r), diag);
			bad = 1;
		} else {
			tot->steps += st.steps;
			tot->barriers += st.barriers;
			tot->collectives += st.collectives;
			tot->ctas += st.ctas;
			if (st.max_depth > tot->max_depth)
				tot->max_depth = st.max_depth;
		}
		dev_placed_free(&pl);
		dev_mem_free(&mem);
		sim_opts_free(&o);
	}
	ptx_free(m);
	fclose(err);
	free(diag);
	free(ptx.p);
	free(lt.p);
	gen_free(&g);
	return bad;
}

int main(int argc, char **argv)
{
	uint64_t seed = 0, from = 0, count = 0;
	int have_seed = 0, size = 3, launch = 0, want_count = 0, check = 0, oracle = 1, flags = 0;
	const char *drop = NULL, *outdir = NULL;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--seed") && i + 1 < argc)
			seed = number(argv[++i], "--seed"), have_seed = 1;
		else if (!strcmp(a, "--size") && i + 1 < argc)
			size = (int)number(argv[++i], "--size");
		else if (!strcmp(a, "--drop") && i + 1 < argc)
			drop = argv[++i];
		else if (!strcmp(a, "--outdir") && i + 1 < argc)
			outdir = argv[++i];
		else if (!strcmp(a, "--launch"))
			launch = 1;
		else if (!strcmp(a, "--count"))
			want_count = 1;
		else if (!strcmp(a, "--no-oracle"))
			oracle = 0;
		else if (!strcmp(a, "--no-brkpath"))
			flags |= GEN_NO_BRKPATH;
		else if (!strcmp(a, "--check") && i + 2 < argc) {
			from = number(argv[++i], "--check FROM");
			count = number(argv[++i], "--check COUNT");
			check = 1;
		} else
			usage();
	}
	if (size < 1 || size > 20) {
		fprintf(stderr, "gen: --size: expected 1..20\n");
		return 2;
	}
	if (check) {
		OrStats tot = {0};
		uint64_t bad = 0;
		for (uint64_t s = from; s < from + count; s++)
			bad += (uint64_t)check_one(s, size, flags, oracle, &tot, stderr);
		printf("gen: %llu programs (seeds %llu..%llu, size %d): %llu parse and check cleanly%s",
		       (unsigned long long)count, (unsigned long long)from,
		       (unsigned long long)(from + count - 1), size, (unsigned long long)(count - bad),
		       oracle ? " and run on the oracle" : "");
		if (oracle)
			printf(" (%llu thread instructions, %llu barriers, %llu warp collectives, call depth %d)",
			       (unsigned long long)tot.steps, (unsigned long long)tot.barriers,
			       (unsigned long long)tot.collectives, tot.max_depth);
		printf("; %llu fail\n", (unsigned long long)bad);
		return bad ? 1 : 0;
	}
	if (!have_seed)
		usage();
	{
		GenProg g;
		GenBuf out = {0};
		GenEmitOpts eo = {NULL, 0};

		gen_program(&g, seed, size, flags);
		if (want_count)
			printf("%d\n", g.nodes);
		else if (launch)
			gen_emit_launch(&out, &g, outdir);
		else {
			if (drop) {
				eo.drop = parse_drop(drop, g.nodes);
				eo.ndrop = g.nodes;
			}
			gen_emit_ptx(&out, &g, &eo);
			free((void *)eo.drop);
		}
		if (out.p)
			fputs(out.p, stdout);
		free(out.p);
		gen_free(&g);
	}
	return 0;
}
