/* printbench.c - bench/parse.sh's "listing print" row: the listing printer alone
 * (isa/print.c). Reads and checks FILE.sass once (isa_asm), then prints the program to
 * /dev/null ROUNDS times (default 5) and reports the fastest round: statements per second of
 * CPU time. The listing's parse is timed by the row before it (`warpc --asm`).
 *   printbench FILE.sass [ROUNDS]
 * Exit status 0, 1 when the listing does not read, 2 on I/O trouble or bad arguments. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa/isa.h"
#include "opt/opt.h"

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	size_t len = 0;
	long stmts = 0;
	double best = -1;
	char *text;
	Prog *p;

	if (argc < 2 || argc > 3 || rounds < 1) {
		fprintf(stderr, "usage: printbench FILE.sass [ROUNDS]\n");
		return 2;
	}
	if (!(text = opt_read_file(argv[1], &len))) {
		fprintf(stderr, "printbench: cannot read '%s': %s\n", argv[1], strerror(errno));
		return 2;
	}
	p = isa_asm(argv[1], text, len, stderr);
	free(text);
	if (!p)
		return 1;
	for (int i = 0; i < p->nk; i++)
		stmts += p->k[i].nins;
	for (int r = 0; r < rounds; r++) {
		FILE *f = fopen("/dev/null", "w");
		double t0, t;
		if (!f) {
			fprintf(stderr, "printbench: cannot write /dev/null\n");
			isa_prog_free(p);
			return 2;
		}
		t0 = cpu_now();
		isa_print_prog(f, p);
		fclose(f);
		t = cpu_now() - t0;
		if (best < 0 || t < best)
			best = t;
	}
	printf("listing print: %ld statements in %.3fs = %.0f statements/s (CPU time, best of %d)\n",
	       stmts, best, best > 0 ? (double)stmts / best : 0.0, rounds);
	isa_prog_free(p);
	return 0;
}
