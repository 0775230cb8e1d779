/* warpsim.c - main() of the simulator: argument parsing and wiring only.
 *
 *   warpsim [OPTION]... PROGRAM     run a kernel of PROGRAM (.sass listing; .ptx once the
 *                                   translator is built in) on the SM model
 *
 * Options come from one table (sim/opts.c, plus timing.h's architecture table); --launch and
 * --config files hold the same options one per line. Exit status: 0 done, 1 a run-time error
 * or a bad program, 2 bad options. docs/warpsim.md is the user guide.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "sim/sim.h"
#include "frontend/ptx.h"
#include "oracle/oracle.h"

#ifndef WARPSIM_VERSION
#define WARPSIM_VERSION "0.0.0"
#endif

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		fprintf(stderr, "warpsim: cannot read '%s': %s\n", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t r;
		if (cap - n < 65536) {
			char *nb = realloc(buf, (cap = cap ? 2 * cap : 65536) + 1);
			if (!nb) {
				free(buf);
				fclose(f);
				fprintf(stderr, "warpsim: out of memory reading '%s'\n", path);
				return NULL;
			}
			buf = nb;
		}
		if ((r = fread(buf + n, 1, cap - n, f)) == 0)
			break;
		n += r;
	}
	if (ferror(f)) {
		fprintf(stderr, "warpsim: error reading '%s'\n", path);
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

static int endswith(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

/* the program: a listing parsed by isa_asm; PTX needs the translator */
static Prog *load(const char *path)
{
	char *text;
	size_t len;
	Prog *p;

	if (endswith(path, ".ptx")) {
		fprintf(stderr, "warpsim: %s: PTX input needs the translator (backend), which is not "
		        "built into this warpsim yet; run a microcode listing (.sass) instead\n", path);
		return NULL;
	}
	if (!(text = read_file(path, &len)))
		return NULL;
	p = isa_asm(path, text, len, stderr);
	free(text);
	return p;
}

static const Kernel *pick_kernel(const Prog *p, const char *name, const char *path)
{
	const Kernel *k;

	if (name) {
		if ((k = isa_prog_find(p, name)))
			return k;
		fprintf(stderr, "warpsim: --kernel: no kernel '%s' in %s; it has:", name, path);
	} else if (p->nk == 1) {
		return &p->k[0];
	} else if (p->nk == 0) {
		fprintf(stderr, "warpsim: %s holds no kernel\n", path);
		return NULL;
	} else
		fprintf(stderr, "warpsim: %s holds %d kernels; choose one with --kernel:", path, p->nk);
	for (int i = 0; i < p->nk; i++)
		fprintf(stderr, " %s", p->k[i].name);
	fprintf(stderr, "\n");
	return NULL;
}

/* ---- --oracle (owned by the oracle module): parse the PTX and run the reference
 * interpreter with the same launch options; 0 done, 1 a bad program or a run-time error */
static int run_oracle(const SimOpts *o)
{
	char *text;
	size_t len;
	Module *m;
	int rc;

	if (!endswith(o->input, ".ptx")) {
		fprintf(stderr, "warpsim: --oracle: %s: the oracle interprets PTX (.ptx), not listings\n",
		        o->input);
		return 2;
	}
	if (!(text = read_file(o->input, &len)))
		return 1;
	m = ptx_parse(o->input, text, len, stderr, NULL);
	free(text);
	if (!m)
		return 1;
	rc = or_main(m, o, stderr);
	ptx_free(m);
	return rc;
}
/* ---- end of --oracle */

/* --stats-json FILE: the timing statistics as one JSON object; 0, or -1 after a message */
static int write_stats_json(const char *path, const Gpu *g)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "warpsim: --stats-json: cannot write '%s': %s\n", path, strerror(errno));
		return -1;
	}
	sim_tstats_json(f, sim_gpu_tstats(g));
	if (fclose(f)) {
		fprintf(stderr, "warpsim: --stats-json: error writing '%s'\n", path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	SimOpts o;
	SimConfig cfg;
	Prog *p = NULL;
	const Kernel *k;
	Mem mem;
	Placed pl = {0};
	Gpu *g = NULL;
	char msg[512];
	int rc = 2;

	sim_opts_init(&o);
	sim_mem_init(&mem);
	if (sim_opts_argv(&o, argc, argv, stderr))
		goto out;
	if (o.help) {
		sim_opts_help(stdout);
		rc = 0;
		goto out;
	}
	if (o.version) {
		printf("warpsim %s\n", WARPSIM_VERSION);
		rc = 0;
		goto out;
	}
	if (!o.input && !o.print_config) {
		fprintf(stderr, "warpsim: no program given (see --help)\n");
		goto out;
	}
	if (sim_tconfig_check(&o.tc, msg, sizeof msg)) {
		fprintf(stderr, "warpsim: %s\n", msg);
		goto out;
	}
	if (o.print_config) {           /* the effective architecture, a valid config file */
		sim_tconfig_print(stdout, &o.tc);
		rc = 0;
		goto out;
	}
	if (o.oracle) {
		rc = run_oracle(&o);
		goto out;
	}
	rc = 1;
	if (!(p = load(o.input)) || !(k = pick_kernel(p, o.launch.kernel, o.input)))
		goto out;
	rc = 2;
	if (sim_launch_place(&mem, k, &o.launch, &pl, stderr))
		goto out;
	rc = 1;
	sim_config_from_opts(&cfg, &o);
	if (!(g = sim_gpu_new(k, &mem, &o.launch, &cfg, o.input, stderr)))
		goto out;
	if (sim_run(g, 0) != SIM_DONE) {
		fputs(sim_gpu_error(g), stderr);
		goto out;
	}
	if (sim_launch_write_outputs(&mem, &o.launch, &pl, stderr))
		goto out;
	if (o.stats || !o.quiet)
		sim_tstats_print(stderr, sim_gpu_tstats(g));
	if (o.stats_json && write_stats_json(o.stats_json, g))
		goto out;
	rc = 0;
out:
	sim_gpu_free(g);
	sim_placed_free(&pl);
	sim_mem_free(&mem);
	isa_prog_free(p);
	sim_opts_free(&o);
	return rc;
}
