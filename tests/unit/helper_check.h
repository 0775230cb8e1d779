/* helper_check.h - the shared Check runner of the unit tests (helper_check.c): a test's
 * main() builds its Suite and returns ck_run(suite). */
#ifndef WARPSIM_HELPER_CHECK_H
#define WARPSIM_HELPER_CHECK_H

#include <check.h>

/* runs every test of s (verbosity from CK_VERBOSITY); the process exit status: 0 when all
 * passed, 1 otherwise */
int ck_run(Suite *s);

#endif
