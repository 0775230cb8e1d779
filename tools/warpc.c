/* warpc.c - main() of the translator: argument parsing and wiring only.
 *
 *   warpc --asm FILE.sass [-o OUT]   parse and check a microcode listing, print it canonically
 *
 * Each mode lives in one clearly marked function below; modes are added by their modules'
 * engineers (PTX parsing, translation).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "frontend/ptx.h"

#ifndef WARPSIM_VERSION
#define WARPSIM_VERSION "0.0.0"
#endif

static const char usage[] =
	"Usage: warpc [OPTION]... FILE\n"
	"Translate PTX into SASS-style microcode for the warpsim SM model.\n"
	"\n"
	"Modes:\n"
	"      --asm FILE.sass    parse and check a microcode listing; print it in canonical\n"
	"                         form (exit 1 with located errors when it is wrong)\n"
	"      --parse-only FILE.ptx  parse and check PTX only (exit 1 with located errors)\n"
	"  -dP FILE.ptx           print the parsed PTX back (the frontend's IR as PTX)\n"
	"\n"
	"Options:\n"
	"  -o FILE                write the output to FILE instead of standard output\n"
	"      --help             display this help and exit\n"
	"      --version          output version information and exit\n"
	"\n"
	"Listing format and microcode semantics: docs/isa.md.\n";

/* reads a whole file (or stdin for "-"); NULL with a message on failure */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		fprintf(stderr, "warpc: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t r;
		if (cap - n < 65536) {
			char *nb;
			cap = cap ? 2 * cap : 65536;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				fprintf(stderr, "warpc: %s: out of memory\n", path);
				free(buf);
				if (f != stdin)
					fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "warpc: %s: read error\n", path);
		free(buf);
		buf = NULL;
	} else {
		buf[n] = 0;
		*len = n;
	}
	if (f != stdin)
		fclose(f);
	return buf;
}

/* opens the output (stdout when out is NULL) */
static FILE *open_out(const char *out)
{
	FILE *f = out ? fopen(out, "w") : stdout;

	if (!f)
		fprintf(stderr, "warpc: %s: %s\n", out, strerror(errno));
	return f;
}

/* ------------------------------------------------------------------ --asm (isa module) */
/* warpc --asm FILE.sass: parse, check, print the canonical listing. 0 ok, 1 input errors,
 * 2 I/O trouble. */
static int warpc_asm(const char *path, const char *out)
{
	size_t len = 0;
	char *text = read_file(path, &len);
	Prog *p;
	FILE *f;
	int rc = 0;

	if (!text)
		return 2;
	p = isa_asm(strcmp(path, "-") ? path : "<stdin>", text, len, stderr);
	free(text);
	if (!p)
		return 1;
	f = open_out(out);
	if (!f) {
		isa_prog_free(p);
		return 2;
	}
	isa_print_prog(f, p);
	if (fflush(f) != 0 || ferror(f)) {
		fprintf(stderr, "warpc: %s: write error\n", out ? out : "<stdout>");
		rc = 2;
	}
	if (f != stdout)
		fclose(f);
	isa_prog_free(p);
	return rc;
}
/* ------------------------------------------------------------------ end of --asm */

/* ------------------------------------------------------------------ PTX frontend */
/* warpc --parse-only FILE / -dP FILE: parse and check PTX; with print, print the IR back as
 * PTX. 0 ok, 1 input errors (located diagnostics on stderr), 2 I/O trouble. */
static int warpc_parse(const char *path, const char *out, int print)
{
	size_t len = 0;
	char *text = read_file(path, &len);
	Module *m;
	FILE *f;
	int rc = 0;

	if (!text)
		return 2;
	m = ptx_parse(strcmp(path, "-") ? path : "<stdin>", text, len, stderr, NULL);
	free(text);
	if (!m)
		return 1;
	if (print) {
		f = open_out(out);
		if (!f) {
			ptx_free(m);
			return 2;
		}
		ptx_print(f, m);
		if (fflush(f) != 0 || ferror(f)) {
			fprintf(stderr, "warpc: %s: write error\n", out ? out : "<stdout>");
			rc = 2;
		}
		if (f != stdout)
			fclose(f);
	}
	ptx_free(m);
	return rc;
}
/* ------------------------------------------------------------------ end of PTX frontend */

int main(int argc, char **argv)
{
	const char *asmfile = NULL, *out = NULL, *ptxfile = NULL;
	int ptxprint = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(a, "--version")) {
			printf("warpc (warpsim) %s\n", WARPSIM_VERSION);
			return 0;
		} else if (!strcmp(a, "--asm") || !strncmp(a, "--asm=", 6)) {
			if (a[5] == '=')
				asmfile = a + 6;
			else if (i + 1 < argc)
				asmfile = argv[++i];
			else {
				fprintf(stderr, "warpc: --asm: expected a listing file\n");
				return 2;
			}
		} else if (!strcmp(a, "--parse-only") || !strcmp(a, "-dP")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "warpc: %s: expected a PTX file\n", a);
				return 2;
			}
			ptxprint = a[1] == 'd';
			ptxfile = argv[++i];
		} else if (!strcmp(a, "-o")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "warpc: -o: expected an output file\n");
				return 2;
			}
			out = argv[++i];
		} else {
			fprintf(stderr, "warpc: unknown option '%s'\nTry 'warpc --help' for more "
			        "information.\n", a);
			return 2;
		}
	}
	if (asmfile)
		return warpc_asm(asmfile, out);
	if (ptxfile)
		return warpc_parse(ptxfile, out, ptxprint);
	fprintf(stderr, "warpc: no input (try --asm FILE.sass)\nTry 'warpc --help' for more "
	        "information.\n");
	return 2;
}
