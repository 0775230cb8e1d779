/* fuzz_ptx.c - libFuzzer target: the PTX frontend (lexer, parser, builder, checks, -dP
 * printer) on arbitrary bytes. Whatever parses is printed and parsed again, and the two
 * prints must agree (the -dP round trip).
 * fuzz-sources: frontend
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/ptx.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char *
print_to_mem(const Module *m, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		abort();
	ptx_print(f, m);
	fclose(f);
	return buf;
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	Module *m = ptx_parse("fuzz.ptx", (const char *)data, size, NULL, NULL);
	size_t n1, n2;
	char *p1, *p2;
	Module *m2;

	if (!m)
		return 0;
	p1 = print_to_mem(m, &n1);
	m2 = ptx_parse("print.ptx", p1, n1, NULL, NULL);
	if (!m2) {
		ptx_parse("print.ptx", p1, n1, stderr, NULL);
		fprintf(stderr, "-dP output does not parse:\n%s\n", p1);
		abort();
	}
	p2 = print_to_mem(m2, &n2);
	if (n1 != n2 || memcmp(p1, p2, n1) != 0) {
		fprintf(stderr, "-dP round trip differs:\n%s\n----\n%s\n", p1, p2);
		abort();
	}
	free(p1);
	free(p2);
	ptx_free(m2);
	ptx_free(m);
	return 0;
}
