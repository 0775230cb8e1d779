/* kernels.c - the kernels of a run, each once, in launch order: the one list that --explore
 * (cli/explore.c: the kernels it translates and whose branches it numbers, ExploreBranch.kern),
 * --line-stats (cli/observe.c: a kernel's launches summed), --report (a source table per kernel,
 * which each branch card links by ExploreBranch.kern) and tools/warpsim.c build on, so that
 * their numberings agree.
 *
 * A kernel is known by its name (Launch.kernel), not by its Kernel: --explore needs the list
 * before anything is translated, and the name is all a launch says. The two agree: a program
 * holds one kernel per name (ptx_link refuses a .entry defined in two files, the listing
 * parser a .kernel defined twice; tests/run-multi.sh checks both), and tools/warpsim.c's run()
 * loads one program for the launches of one name, so one Kernel (cli_obs_launch asserts it).
 */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

/* two launches' kernel names name one kernel (NULL: the one launch named none) */
static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

int cli_kernels(const SimOpts *o, CliKernels *ks, FILE *err)
{
	int n = o->nprev + 1;

	memset(ks, 0, sizeof *ks);
	ks->nlaunches = n;
	ks->of = calloc((size_t)n, sizeof *ks->of);
	ks->first = calloc((size_t)n, sizeof *ks->first);
	ks->name = calloc((size_t)n, sizeof *ks->name);
	if (!ks->of || !ks->first || !ks->name) {
		fprintf(err, "warpsim: out of memory\n");
		cli_kernels_free(ks);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const char *name = sim_opts_launch((SimOpts *)o, i)->kernel;
		int j;
		for (j = 0; j < ks->n && !same(ks->name[j], name); j++)
			;
		if (j == ks->n) {
			ks->first[j] = i;
			ks->name[ks->n++] = name;
		}
		ks->of[i] = j;
	}
	return 0;
}

void cli_kernels_free(CliKernels *ks)
{
	free(ks->of);
	free(ks->first);
	free(ks->name);
	memset(ks, 0, sizeof *ks);
}
