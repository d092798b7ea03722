// SPDX-License-Identifier: LGPL-2.1-or-later
/* Memory pressure stall information, /proc/pressure/memory. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "internal.h"
#include "tmproot.h"

#define SOME RECLAIM_PRESSURE_SOME
#define FULL RECLAIM_PRESSURE_FULL

static void assert_double(double got, double want)
{
	/* Both sides come from a correctly rounded decimal conversion: exact. */
	if (got != want)
		fail_msg("got %.17g, want %.17g", got, want);
}

static void test_some_and_full(void **state)
{
	struct reclaim_pressure *p = NULL;

	assert_int_equal(
	    reclaim_pressure_parse(
		"some avg10=1.50 avg60=0.25 avg300=0.01 total=123456\n"
		"full avg10=99.99 avg60=12.00 avg300=100.00 total=18446744073709551615\n",
		&p),
	    0);
	assert_true(reclaim_pressure_has(p, SOME));
	assert_true(reclaim_pressure_has(p, FULL));
	assert_double(reclaim_pressure_avg10(p, SOME), 1.50);
	assert_double(reclaim_pressure_avg60(p, SOME), 0.25);
	assert_double(reclaim_pressure_avg300(p, SOME), 0.01);
	assert_int_equal(reclaim_pressure_total_us(p, SOME), 123456);
	assert_double(reclaim_pressure_avg10(p, FULL), 99.99);
	assert_double(reclaim_pressure_avg60(p, FULL), 12.00);
	assert_double(reclaim_pressure_avg300(p, FULL), 100.00);
	assert_true(reclaim_pressure_total_us(p, FULL) == UINT64_MAX);
	reclaim_pressure_unref(p);
}

static void test_order_does_not_matter(void **state)
{
	struct reclaim_pressure *p = NULL;

	assert_int_equal(reclaim_pressure_parse("full avg10=2.00 avg60=0.00 avg300=0.00 total=7\n"
						"some avg10=3.00 avg60=0.00 avg300=0.00 total=9",
						&p),
			 0);
	assert_int_equal(reclaim_pressure_total_us(p, SOME), 9);
	assert_int_equal(reclaim_pressure_total_us(p, FULL), 7);
	assert_double(reclaim_pressure_avg10(p, SOME), 3.0);
	assert_double(reclaim_pressure_avg10(p, FULL), 2.0);
	reclaim_pressure_unref(p);
}

static void test_some_only(void **state)
{
	struct reclaim_pressure *p = NULL;

	assert_int_equal(
	    reclaim_pressure_parse("some avg10=0.10 avg60=0.20 avg300=0.30 total=40\n", &p), 0);
	assert_true(reclaim_pressure_has(p, SOME));
	assert_false(reclaim_pressure_has(p, FULL));
	assert_double(reclaim_pressure_avg10(p, FULL), 0.0);
	assert_int_equal(reclaim_pressure_total_us(p, FULL), 0);
	assert_int_equal(reclaim_pressure_total_us(p, SOME), 40);
	reclaim_pressure_unref(p);
}

static void test_bad_kind_and_null(void **state)
{
	struct reclaim_pressure *p = NULL;

	assert_int_equal(reclaim_pressure_parse("some avg10=0.10 avg60=0.20 avg300=0.30 total=40\n"
						"full avg10=0.10 avg60=0.20 avg300=0.30 total=40\n",
						&p),
			 0);
	assert_false(reclaim_pressure_has(p, (enum reclaim_pressure_kind)2));
	assert_false(reclaim_pressure_has(p, (enum reclaim_pressure_kind) - 1));
	assert_int_equal(reclaim_pressure_total_us(p, (enum reclaim_pressure_kind)2), 0);
	assert_false(reclaim_pressure_has(NULL, SOME));
	assert_int_equal(reclaim_pressure_total_us(NULL, SOME), 0);
	assert_double(reclaim_pressure_avg60(NULL, FULL), 0.0);
	reclaim_pressure_unref(p);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
	    "",
	    "\n",
	    /* "full" alone: every kernel with PSI has a "some" line */
	    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	    "some avg10=x avg60=0.00 avg300=0.00 total=0\n",
	    "some avg10=0.00 avg60=0.00 avg300=0.00\n",
	    "some avg10=0.00 avg60=0.00 total=0\n",
	    "bogus avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	    "somewhat avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	    "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull\n",
	    "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n\n",
	    /* found by fuzzing: averages are shares of time, totals have no sign */
	    "some avg10=120.00 avg60=0.00 avg300=0.00 total=0\n",
	    "some avg10=nan avg60=0.00 avg300=0.00 total=0\n",
	    "some avg10=0.00 avg60=inf avg300=0.00 total=0\n",
	    "some avg10=0.00 avg60=0.00 avg300=-1 total=0\n",
	    "some avg10=0.00 avg60=0.00 avg300=0.00 total=-5\n",
	    "some avg10=0.00 avg60=0.00 avg300=0.00 total=+5\n",
	    "some avg10=0.00 avg60=0.00 avg300=0.00 total=18446744073709551616\n",
	    "some avg10=0.00 avg60=0.00 avg300=0.00 total=5x\n",
	    "some avg10=0.00 avg60=0.00 avg300=0.00 total=5 6\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct reclaim_pressure *p = (struct reclaim_pressure *)0x1;

		assert_int_equal(reclaim_pressure_parse(bad[i], &p), -EINVAL);
		assert_ptr_equal(p, (struct reclaim_pressure *)0x1);
	}
}

/*
 * 8 MiB of lines parse (the last one of a kind counts) and a line longer
 * than any the kernel writes is malformed. sscanf() over the rest of the
 * text for each line made this quadratic: 82 s for 8 MiB.
 */
static void test_large_input(void **state)
{
	const char *line = "some avg10=1.00 avg60=2.00 avg300=3.00 total=4\n";
	size_t n = (8u << 20) / strlen(line), len = strlen(line);
	char *text = malloc(n * len + 64), *p = text;
	struct reclaim_pressure *psi = NULL;
	char longline[256];

	(void)state;
	assert_non_null(text);
	for (size_t i = 0; i < n; i++, p += len)
		memcpy(p, line, len);
	strcpy(p, "some avg10=9.00 avg60=0.00 avg300=0.00 total=5\n");
	assert_int_equal(reclaim_pressure_parse(text, &psi), 0);
	assert_true(reclaim_pressure_avg10(psi, RECLAIM_PRESSURE_SOME) == 9.0);
	assert_int_equal(reclaim_pressure_total_us(psi, RECLAIM_PRESSURE_SOME), 5);
	reclaim_pressure_unref(psi);
	free(text);

	snprintf(longline, sizeof(longline),
		 "some avg10=1.00 avg60=2.00 avg300=3.00 total=4%0200d\n", 0);
	assert_int_equal(reclaim_pressure_parse(longline, &psi), -EINVAL);
}

static void test_refcount(void **state)
{
	struct reclaim_pressure *p = NULL;

	assert_int_equal(
	    reclaim_pressure_parse("some avg10=0.10 avg60=0.20 avg300=0.30 total=40\n", &p), 0);
	assert_ptr_equal(reclaim_pressure_ref(p), p);
	assert_null(reclaim_pressure_unref(p));
	assert_int_equal(reclaim_pressure_total_us(p, SOME), 40);
	assert_null(reclaim_pressure_unref(p));
	assert_null(reclaim_pressure_unref(NULL));
}

static void test_fixture(void **state)
{
	struct reclaim_pressure *p = NULL;
	struct reclaim_ctx *ctx;

	assert_int_equal(reclaim_new(&ctx, FIXTURES_DIR "/live-debian12-2cpu"), 0);
	assert_int_equal(reclaim_pressure_new(ctx, &p), 0);
	assert_true(reclaim_pressure_has(p, SOME));
	assert_true(reclaim_pressure_has(p, FULL));
	assert_int_equal(reclaim_pressure_total_us(p, FULL), 0);
	reclaim_pressure_unref(p);
	reclaim_unref(ctx);
}

static void test_no_psi(void **state)
{
	struct reclaim_pressure *p = NULL;
	struct reclaim_ctx *ctx;
	char *root = tmproot_new();

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_pressure_new(ctx, &p), -ENOENT);
	assert_null(p);
	assert_string_equal(reclaim_strerror(ctx),
			    "/proc/pressure/memory: this kernel has no pressure stall information");
	reclaim_unref(ctx);
	tmproot_remove(root);
}

static void test_malformed_file(void **state)
{
	struct reclaim_pressure *p = NULL;
	struct reclaim_ctx *ctx;
	char *root = tmproot_new();

	tmproot_write(root, "/proc/pressure/memory", "some avg10=0.00\n");
	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_pressure_new(ctx, &p), -EINVAL);
	assert_null(p);
	assert_string_equal(reclaim_strerror(ctx), "/proc/pressure/memory: malformed");
	reclaim_unref(ctx);
	tmproot_remove(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_large_input),
	    cmocka_unit_test(test_some_and_full),
	    cmocka_unit_test(test_order_does_not_matter),
	    cmocka_unit_test(test_some_only),
	    cmocka_unit_test(test_bad_kind_and_null),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_refcount),
	    cmocka_unit_test(test_fixture),
	    cmocka_unit_test(test_no_psi),
	    cmocka_unit_test(test_malformed_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
