/* helper_check.h - the shared Check runner of the unit tests (helper_check.c): a test's
 * main() builds its Suite and returns ck_run(suite); a check that a parser gives the
 * same text on several threads at once; the files of tests that write some. */
#ifndef WARPSIM_HELPER_CHECK_H
#define WARPSIM_HELPER_CHECK_H

#include <check.h>
#include <stddef.h>

/* runs every test of s (verbosity from CK_VERBOSITY); the process exit status: 0 when all
 * passed, 1 otherwise */
int ck_run(Suite *s);

/* runs print (which stores a malloc'd text, or NULL on failure, at its argument) on four
 * threads at once and then once more alone, asserts that every text exists and equals the
 * last one, and returns that last one (the caller frees it): the shared tables a parser
 * builds at first use must give every thread the same result */
char *ck_same_on_threads(void *(*print)(void *));

/* asserts that text holds each of parts (NULL-terminated), naming the first it lacks */
void ck_has_all(const char *text, const char *const *parts);

/* a fresh directory /tmp/NAME.XXXXXX, its path written to dir (size bytes) */
void ck_tmpdir(char *dir, size_t size, const char *name);
/* removes dir and everything in it */
void ck_rmtree(const char *dir);
/* the whole of a file a test expects to exist and not be empty, NUL-terminated (the caller
 * frees it) */
char *ck_slurp(const char *path);

#endif
