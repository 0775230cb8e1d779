/* oracle.c - `warpsim --oracle`: runs the parsed module on the reference interpreter with the
 * launch options of the SM model (several launches one after another on one device memory),
 * writes the same --out files, and prints a one-line summary (unless --quiet). Exit status 0 when the grid completed, 2 when the launch does not fit the
 * module (no such kernel, wrong arguments), 1 otherwise (as the SM model answers). */
#include <stdlib.h>
#include "oracle/internal.h"

void or_config_init(OrConfig *c, uint64_t max_warp_insts)
{
	c->max_steps = max_warp_insts ? 32 * max_warp_insts : 0;
	c->verbose = 0;
	c->printf_out = NULL;
	c->printf_tag = 0;
	c->reverse = 0;
	c->shared_unit = 0;
}

/* the one-line summary of st (what: "" or "launch 2 (kernel 'k'): ") */
static void summary_line(FILE *err, const char *what, const OrStats *st)
{
	fprintf(err, "oracle: %s%llu thread instructions, %llu CTAs, %llu barriers, "
	        "%llu warp collectives, call depth %d\n", what, (unsigned long long)st->steps,
	        (unsigned long long)st->ctas, (unsigned long long)st->barriers,
	        (unsigned long long)st->collectives, st->max_depth);
	if (st->cdp_grids)
		fprintf(err, "oracle: %s%llu child grids\n", what, (unsigned long long)st->cdp_grids);
}

int or_main_seq(const Module *m, const Launch *const *ls, int n, const OrConfig *c,
                int summary, FILE *err)
{
	Mem mem;
	Placed *pl = calloc((size_t)n, sizeof *pl);
	OrStats *st = calloc((size_t)n + 1, sizeof *st), *tot = st ? &st[n] : NULL;
	int r = OR_DONE, i, ran = 0;

	if (!pl || !st) {
		fprintf(err, "warpsim: out of memory\n");
		free(pl);
		free(st);
		return 1;
	}
	dev_mem_init(&mem);
	for (i = 0; i < n && r == OR_DONE; i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *cap = n > 1 ? open_memstream(&text, &len) : NULL;
		/* (one launch: its messages as they are; several: each located) */
		r = or_run(m, ls[i], c, &mem, &pl[i], &st[i], cap ? cap : err);
		ran = i + 1;
		if (cap) {
			fclose(cap);
			dev_launch_msg(err, ls[i], i, n, text ? text : "",
			               r != OR_BADLAUNCH && r != OR_NOKERNEL);
			free(text);
		}
	}
	/* a trap or failed assert: what the kernels wrote before it is saved */
	for (i = 0; r == OR_TRAP && i < ran; i++)
		dev_launch_write_outputs(&mem, ls[i], &pl[i], err);
	for (i = 0; r == OR_DONE && i < n; i++)
		if (dev_launch_write_outputs(&mem, ls[i], &pl[i], err))
			r = OR_BADLAUNCH;
	for (i = 0; r == OR_DONE && summary && i < n; i++) {
		char what[160] = "";
		if (n > 1)
			snprintf(what, sizeof what, "launch %d (kernel '%.100s'): ", i + 1, ls[i]->kernel);
		summary_line(err, what, &st[i]);
		tot->steps += st[i].steps;
		tot->ctas += st[i].ctas;
		tot->barriers += st[i].barriers;
		tot->collectives += st[i].collectives;
		tot->cdp_grids += st[i].cdp_grids;
		if (st[i].max_depth > tot->max_depth)
			tot->max_depth = st[i].max_depth;
	}
	if (r == OR_DONE && summary && n > 1) {
		char what[64];
		snprintf(what, sizeof what, "the %d launches: ", n);
		summary_line(err, what, tot);
	}
	for (i = 0; i < n; i++)
		dev_placed_free(&pl[i]);
	free(pl);
	free(st);
	dev_mem_free(&mem);
	return r == OR_DONE ? 0 : r == OR_BADLAUNCH ? 2 : 1;   /* a launch that does not fit the
	                                                         * kernel is a command-line error */
}

int or_main(const Module *m, const Launch *l, const OrConfig *c, int summary, FILE *err)
{
	return or_main_seq(m, &l, 1, c, summary, err);
}
