/* fuzz_linemap.c - libFuzzer harness for the line-map parser (isa/linemap.c, warpc
 * --compare-lines): any input must parse or be rejected with a located error (never a crash,
 * hang or leak); whatever parses must print, and the printed map must parse again and print
 * identically, and each address must find its line.
 *
 *   clang -fsanitize=fuzzer,address,undefined -I. isa/\*.c tests/fuzz/fuzz_linemap.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"

/* prints m into a malloc'd string */
static char *print_to_string(const IsaLineMap *m, size_t *n)
{
	char *s = NULL;
	FILE *f = open_memstream(&s, n);

	if (!f)
		abort();
	isa_linemap_print(f, m);
	fclose(f);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *null = fopen("/dev/null", "w");
	IsaLineMap *m = isa_linemap_parse("fuzz.lines", (const char *)data, size, null);

	if (m) {
		size_t n1, n2;
		char *a = print_to_string(m, &n1), *b;
		IsaLineMap *q = isa_linemap_parse("printed.lines", a, n1, stderr);

		if (!q) {
			fprintf(stderr, "printed map does not parse:\n%s", a);
			abort();
		}
		b = print_to_string(q, &n2);
		if (n1 != n2 || memcmp(a, b, n1)) {
			fprintf(stderr, "print(parse(print(x))) != print(x):\n%s\n---\n%s", a, b);
			abort();
		}
		for (int i = 0; i < m->n; i++)
			for (int j = 0; j < m->f[i].n; j++)
				if (isa_linemap_line(isa_linemap_find(m, m->f[i].kernel), m->f[i].addr[j]) !=
				    m->f[i].line[j])
					abort();
		free(a);
		free(b);
		isa_linemap_free(q);
		isa_linemap_free(m);
	}
	fclose(null);
	return 0;
}
