/* oracle.c - `warpsim --oracle`: runs the parsed module on the reference interpreter with the
 * launch options of the SM model, writes the same --out files, and prints a one-line summary
 * (unless --quiet). Exit status 0 when the grid completed, 1 otherwise. */
#include "oracle/internal.h"

void or_config_from_opts(OrConfig *c, const SimOpts *o)
{
	c->max_steps = o->max_warp_insts ? 32 * o->max_warp_insts : 0;
	c->verbose = 0;
}

int or_main(const Module *m, const SimOpts *opt, FILE *err)
{
	Mem mem;
	Placed pl;
	OrConfig c = {0};
	OrStats st = {0};
	int r;

	or_config_from_opts(&c, opt);
	dev_mem_init(&mem);
	r = or_run(m, &opt->launch, &c, &mem, &pl, &st, err);
	if (r == OR_DONE && dev_launch_write_outputs(&mem, &opt->launch, &pl, err))
		r = OR_BADLAUNCH;
	if (r == OR_DONE && (opt->stats || !opt->quiet))
		fprintf(err, "oracle: %llu thread instructions, %llu CTAs, %llu barriers, "
		        "%llu warp collectives, call depth %d\n", (unsigned long long)st.steps,
		        (unsigned long long)st.ctas, (unsigned long long)st.barriers,
		        (unsigned long long)st.collectives, st.max_depth);
	dev_placed_free(&pl);
	dev_mem_free(&mem);
	return r == OR_DONE ? 0 : 1;
}
