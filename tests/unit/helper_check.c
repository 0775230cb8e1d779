/* helper_check.c - the one Check runner every unit test ends with (tests/README.md):
 * runs the suite with the verbosity CK_VERBOSITY asks for (make check sets "minimal"; by
 * default each failure and a summary line), and turns the failures into the exit status. */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
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
