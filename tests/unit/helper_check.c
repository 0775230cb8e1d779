/* helper_check.c - the one Check runner every unit test ends with (tests/README.md):
 * runs the suite with the verbosity CK_VERBOSITY asks for (make check sets "minimal"; by
 * default each failure and a summary line), and turns the failures into the exit status;
 * and the small file chores of tests that write files. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/helper_check.h"

int ck_run(Suite *s)
{
	SRunner *r = srunner_create(s);
	int nf;

	srunner_run_all(r, CK_ENV);
	nf = srunner_ntests_failed(r);
	srunner_free(r);
	return nf ? 1 : 0;
}

char *ck_same_on_threads(void *(*print)(void *))
{
	enum { NT = 4 };
	pthread_t t[NT];
	char *out[NT], *ref;

	for (int i = 0; i < NT; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, print, &out[i]), 0);
	for (int i = 0; i < NT; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	print(&ref);
	ck_assert_ptr_nonnull(ref);
	for (int i = 0; i < NT; i++) {
		ck_assert_ptr_nonnull(out[i]);
		ck_assert_str_eq(out[i], ref);
		free(out[i]);
	}
	return ref;
}

void ck_has_all(const char *text, const char *const *parts)
{
	for (; *parts; parts++)
		ck_assert_msg(strstr(text, *parts) != NULL, "no '%s' in:\n%s", *parts, text);
}

void ck_tmpdir(char *dir, size_t size, const char *name)
{
	ck_assert_int_lt(snprintf(dir, size, "/tmp/%s.XXXXXX", name), (int)size);
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

void ck_rmtree(const char *dir)
{
	char cmd[256];

	ck_assert_int_lt(snprintf(cmd, sizeof cmd, "rm -rf %s", dir), (int)sizeof cmd);
	ck_assert_int_eq(system(cmd), 0);
}

char *ck_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	ck_assert_msg(n > 0, "%s is empty", path);
	s = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = 0;
	fclose(f);
	return s;
}
