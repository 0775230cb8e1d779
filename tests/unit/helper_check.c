/* helper_check.c - the one Check runner every unit test ends with (tests/README.md):
 * runs the suite with the verbosity CK_VERBOSITY asks for (make check sets "minimal"; by
 * default each failure and a summary line), and turns the failures into the exit status. */
#include <check.h>
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
