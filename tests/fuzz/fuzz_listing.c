/* fuzz_listing.c - libFuzzer harness for the listing parser and printer: any input must
 * parse or be rejected with diagnostics (never a crash, hang or leak); whatever parses must
 * print, and the printed listing must parse again and print identically.
 *
 *   clang -fsanitize=fuzzer,address,undefined -I. isa/\*.c tests/fuzz/fuzz_listing.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"

/* prints p into a malloc'd string */
static char *print_to_string(const Prog *p, size_t *n)
{
	char *s = NULL;
	FILE *f = open_memstream(&s, n);

	if (!f)
		abort();
	isa_print_prog(f, p);
	fclose(f);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *null = fopen("/dev/null", "w");
	Prog *p = isa_asm("fuzz.sass", (const char *)data, size, null);

	if (p) {
		size_t n1, n2;
		char *a = print_to_string(p, &n1);
		Prog *q = isa_asm("printed.sass", a, n1, stderr);
		char *b;

		if (!q) {
			fprintf(stderr, "printed listing does not parse:\n%s", a);
			abort();
		}
		b = print_to_string(q, &n2);
		if (n1 != n2 || memcmp(a, b, n1)) {
			fprintf(stderr, "print(parse(print(x))) != print(x):\n%s\n---\n%s", a, b);
			abort();
		}
		free(a);
		free(b);
		isa_prog_free(q);
		isa_prog_free(p);
	}
	fclose(null);
	return 0;
}
