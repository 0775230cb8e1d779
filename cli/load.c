/* load.c - the PTX program of warpc's and warpsim's command lines: one file parsed, or
 * several (separate compilation: nvcc -rdc=true, clang -fgpu-rdc) parsed each as a unit
 * and linked into one module (frontend/link.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

Module *cli_load_ptx(char *const *paths, int n, const char *prog, FILE *err)
{
	Module **ms = calloc((size_t)n + 1, sizeof *ms);
	Module *m = NULL;
	int bad = !ms;

	for (int i = 0; ms && i < n; i++) {
		size_t len = 0;
		int stdinput = !strcmp(paths[i], "-");
		char *text = stdinput ? opt_read_all(stdin, &len) : opt_read_file(paths[i], &len);
		if (!text) {
			fprintf(err, "%s: cannot read '%s': %s\n", prog, paths[i], strerror(errno));
			bad = 1;
			continue;
		}
		/* every file is parsed, so that one run reports the errors of all */
		if (!(ms[i] = ptx_parse_unit(stdinput ? "<stdin>" : paths[i], text, len, i, err, NULL)))
			bad = 1;
		free(text);
	}
	if (!bad)
		m = n == 1 ? ms[0] : ptx_link(ms, n, err, NULL);
	else
		for (int i = 0; ms && i < n; i++)
			ptx_free(ms[i]);
	free(ms);
	return m;
}
