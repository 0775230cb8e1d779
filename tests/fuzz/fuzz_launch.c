/* fuzz_launch.c - libFuzzer harness for the launch-file parser (docs/warpsim.md, "Launch
 * options"): any input, read as a --launch file through the SM model's launch rows
 * (sim/opts.c: --grid, --arg with its struct: fields, --const, --tex, --surf, --out, --buf,
 * and --kernel, which starts another launch after the first),
 * must be taken or refused with located messages, never crash, hang or leak; whatever is
 * taken is freed with the launch. Nested --launch and --config lines are not rows here (they
 * would read files), so they are refused as unknown options.
 *
 * fuzz-sources: opt device isa arith sim
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/opt.h"
#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *null = fopen("/dev/null", "w");
	char *text = malloc(size + 1);
	SimOpts o;
	OptSet s;

	if (!null || !text)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	sim_opts_init(&o);
	opt_init(&s, "warpsim");
	opt_add(&s, "Launch", sim_launch_rows, sim_nlaunch_rows, &o);
	opt_text(&s, "fuzz.launch", text, "", null);
	/* every struct value keeps its fields inside the size it computed; every launch after
	 * the first was started by a --kernel, and its --buf buffers have names */
	for (int l = 0; l <= o.nprev; l++) {
		const Launch *ln = sim_opts_launch(&o, l);
		if (l < o.nprev && !ln->kernel)
			abort();
		for (int i = 0; i < ln->nbufs; i++)
			if (!ln->bufs[i].name[0] || !ln->bufs[i].a.isbuf || ln->bufs[i].a.bufname)
				abort();
		for (int i = 0; i < ln->nargs; i++) {
			const LaunchArg *a = &ln->args[i];
			for (int f = 0; a->isstruct && f < a->nfields; f++)
				if (a->foff[f] >= a->size || a->size % a->align)
					abort();
		}
	}
	opt_free(&s);
	sim_opts_free(&o);
	free(text);
	fclose(null);
	return 0;
}
