// SPDX-License-Identifier: LGPL-2.1-or-later
/* reclaim_version(): the project's version, as CMake and libreclaim.pc have it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reclaim.h"

#ifndef PROJECT_VERSION
#error "PROJECT_VERSION must be defined (the build system does)"
#endif

static void test_version_is_the_project_version(void **state)
{
	const char *v = reclaim_version();

	assert_non_null(v);
	assert_string_equal(v, PROJECT_VERSION);
	/* a constant: the same string every time */
	assert_ptr_equal(reclaim_version(), v);
}

/* The "Version:" of the built libreclaim.pc, which pkg-config --modversion prints. */
static void test_version_is_that_of_pkgconfig(void **state)
{
	FILE *f = fopen(LIBRECLAIM_PC, "r");
	char line[256];
	bool found = false;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "Version: ", 9) == 0) {
			line[strcspn(line, "\n")] = '\0';
			assert_string_equal(line + 9, reclaim_version());
			found = true;
		}
	fclose(f);
	assert_true(found);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_version_is_the_project_version),
	    cmocka_unit_test(test_version_is_that_of_pkgconfig),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
