/* oracle.c - `warpsim --oracle`: runs the parsed module on the reference interpreter with the
 * launch options of the SM model, writes the same --out files, and prints a one-line summary
 * (unless --quiet). Exit status 0 when the grid completed, 2 when the launch does not fit the
 * module (no such kernel, wrong arguments), 1 otherwise (as the SM model answers). */
#include "oracle/internal.h"

void or_config_init(OrConfig *c, uint64_t max_warp_insts)
{
	c->max_steps = max_warp_insts ? 32 * max_warp_insts : 0;
	c->verbose = 0;
	c->printf_out = NULL;
	c->printf_tag = 0;
}

int or_main(const Module *m, const Launch *l, const OrConfig *c, int summary, FILE *err)
{
	Mem mem;
	Placed pl = {0};
	OrStats st = {0};
	int r;

	dev_mem_init(&mem);
	r = or_run(m, l, c, &mem, &pl, &st, err);
	/* a trap or failed assert: what the kernel wrote before it is saved */
	if (r == OR_TRAP)
		dev_launch_write_outputs(&mem, l, &pl, err);
	if (r == OR_DONE && dev_launch_write_outputs(&mem, l, &pl, err))
		r = OR_BADLAUNCH;
	if (r == OR_DONE && summary)
		fprintf(err, "oracle: %llu thread instructions, %llu CTAs, %llu barriers, "
		        "%llu warp collectives, call depth %d\n", (unsigned long long)st.steps,
		        (unsigned long long)st.ctas, (unsigned long long)st.barriers,
		        (unsigned long long)st.collectives, st.max_depth);
	if (r == OR_DONE && summary && st.cdp_grids)
		fprintf(err, "oracle: %llu child grids\n", (unsigned long long)st.cdp_grids);
	dev_placed_free(&pl);
	dev_mem_free(&mem);
	return r == OR_DONE ? 0 : r == OR_BADLAUNCH ? 2 : 1;   /* a launch that does not fit the
	                                                         * kernel is a command-line error */
}
