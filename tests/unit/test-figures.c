// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The catalogue of figures: every entry complete and its keys unique, the
 * lookups, each kind of figure computed from two samples built as a
 * recording's, totals over a run, and the adapt controller's share of it.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "internal.h"

static struct reclaim_ctx *ctx;

static int setup(void **state)
{
	return reclaim_new(&ctx, NULL) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	reclaim_unref(ctx);
	return 0;
}

static void test_catalogue_complete(void **state)
{
	assert_int_equal(reclaim_figure_count(), _RECLAIM_FIGURE_MAX);
	for (enum reclaim_figure f = 0; f < _RECLAIM_FIGURE_MAX; f++) {
		for (enum reclaim_figure_text t = 0; t < _RECLAIM_FIGURE_TEXT_MAX; t++)
			assert_non_null(reclaim_figure_text(f, t));
		assert_true(reclaim_figure_width(f) >= 3);
		assert_int_equal(reclaim_figure_find(reclaim_figure_text(f, RECLAIM_FIGURE_KEY)),
				 f);
		assert_int_equal(
		    reclaim_figure_find(reclaim_figure_text(f, RECLAIM_FIGURE_TOTAL_KEY)), f);
		/* a rate is read from counters, and only a rate */
		assert_true((reclaim_figure_kind(f) == RECLAIM_FIGURE_RATE) ==
			    (reclaim_figure_source(f, 0) != NULL));
		for (enum reclaim_figure g = 0; g < f; g++) {
			assert_string_not_equal(reclaim_figure_text(f, RECLAIM_FIGURE_KEY),
						reclaim_figure_text(g, RECLAIM_FIGURE_KEY));
			assert_string_not_equal(reclaim_figure_text(f, RECLAIM_FIGURE_COLUMN),
						reclaim_figure_text(g, RECLAIM_FIGURE_COLUMN));
		}
	}
	assert_null(reclaim_figure_text(_RECLAIM_FIGURE_MAX, RECLAIM_FIGURE_KEY));
	assert_null(reclaim_figure_text(0, _RECLAIM_FIGURE_TEXT_MAX));
	assert_int_equal(reclaim_figure_find("no_such_figure"), -ENOENT);
}

static void test_of_counter(void **state)
{
	assert_int_equal(reclaim_figure_of_counter("allocstall_normal"), RECLAIM_FIGURE_ALLOCSTALL);
	assert_int_equal(reclaim_figure_of_counter("workingset_refault_anon"),
			 RECLAIM_FIGURE_REFAULT);
	/* before Linux 5.9 */
	assert_int_equal(reclaim_figure_of_counter("workingset_refault"), RECLAIM_FIGURE_REFAULT);
	assert_int_equal(reclaim_figure_of_counter("pgscan_kswapd"), RECLAIM_FIGURE_PGSCAN_KSWAPD);
	/* a family's prefix alone, and counters of no figure */
	assert_int_equal(reclaim_figure_of_counter("allocstall_"), -ENOENT);
	assert_int_equal(reclaim_figure_of_counter("pgscan_khugepaged"), -ENOENT);
	assert_int_equal(reclaim_figure_of_counter("pageoutrun"), -ENOENT);
	assert_true(reclaim_figure_by_node_exporter(RECLAIM_FIGURE_PSWPIN));
	assert_false(reclaim_figure_by_node_exporter(RECLAIM_FIGURE_ALLOCSTALL));
	assert_string_equal(reclaim_figure_family_label(RECLAIM_FIGURE_ALLOCSTALL), "zone");
}

/* A sample at @secs with allocstall @stall (two zones), kswapd0 at @cpu s, PSI some @total us. */
static struct reclaim_sample *sample(double secs, uint64_t stall, double cpu, uint64_t total,
				     double avg10)
{
	struct reclaim_sample *s;

	assert_int_equal(reclaim_sample_new(ctx, (uint64_t)(secs * 1e9), 0, &s), 0);
	assert_int_equal(reclaim_sample_add_counter(s, -1, "allocstall_normal", stall), 0);
	assert_int_equal(reclaim_sample_add_counter(s, -1, "allocstall_movable", stall), 0);
	assert_int_equal(reclaim_sample_add_counter(s, 1, "workingset_refault_file", stall * 3), 0);
	assert_int_equal(reclaim_sample_add_kswapd(s, 36, "kswapd0", 0, cpu), 0);
	assert_int_equal(reclaim_sample_add_kswapd(s, 37, "kswapd1", 1, cpu / 2), 0);
	assert_int_equal(reclaim_sample_set_pressure(s, RECLAIM_PRESSURE_SOME, avg10, total), 0);
	return s;
}

static void test_value(void **state)
{
	struct reclaim_sample *a = sample(10, 100, 5.0, 1000000, 12.5);
	struct reclaim_sample *b = sample(12, 150, 6.0, 1500000, NAN);
	double v;

	assert_int_equal(reclaim_figure_value(a, b, -1, RECLAIM_FIGURE_ALLOCSTALL, &v), 0);
	assert_true(v == 50.0); /* (50 + 50) / 2 s */
	assert_int_equal(reclaim_figure_value(a, b, -1, RECLAIM_FIGURE_PGSCAN_KSWAPD, &v), -ENOENT);
	assert_int_equal(reclaim_figure_value(a, b, -1, RECLAIM_FIGURE_KSWAPD_CPU, &v), 0);
	assert_true(fabs(v - 75.0) < 1e-6); /* 1 s + 0.5 s over 2 s */
	assert_int_equal(reclaim_figure_value(a, b, -1, RECLAIM_FIGURE_KSWAPD_BUSIEST, &v), 0);
	assert_true(fabs(v - 50.0) < 1e-6);
	assert_int_equal(reclaim_figure_value(a, b, 1, RECLAIM_FIGURE_KSWAPD_CPU, &v), 0);
	assert_true(fabs(v - 25.0) < 1e-6);
	assert_int_equal(reclaim_figure_value(a, b, 1, RECLAIM_FIGURE_REFAULT, &v), 0);
	assert_true(v == 75.0);
	/* not per node */
	assert_int_equal(reclaim_figure_value(a, b, 1, RECLAIM_FIGURE_ALLOCSTALL, &v), -ENOENT);
	/* avg10 of the later sample; unknown there: the share of the interval stalled */
	assert_int_equal(reclaim_figure_value(b, a, -1, RECLAIM_FIGURE_PSI_SOME, &v), 0);
	assert_true(v == 12.5);
	assert_int_equal(reclaim_figure_value(a, b, -1, RECLAIM_FIGURE_PSI_SOME, &v), 0);
	assert_true(fabs(v - 25.0) < 1e-9); /* 0.5 s of 2 s */
	assert_int_equal(reclaim_figure_value(a, b, -1, RECLAIM_FIGURE_PSI_FULL, &v), -ENOENT);
	assert_int_equal(reclaim_figure_value(a, b, -1, _RECLAIM_FIGURE_MAX, &v), -EINVAL);
	reclaim_sample_unref(a);
	reclaim_sample_unref(b);
}

static void test_totals(void **state)
{
	struct reclaim_sample *s[3] = {sample(0, 100, 5.0, 1000000, 1),
				       sample(1, 90, 5.5, 1200000, 1),
				       sample(3, 150, 7.0, 1700000, 1)};
	struct reclaim_totals *t;
	double v;

	assert_int_equal(reclaim_totals_new(ctx, &t), 0);
	assert_int_equal(reclaim_totals_get(t, RECLAIM_FIGURE_ALLOCSTALL, &v), -ENOENT);
	assert_int_equal(reclaim_totals_add(t, s[0], s[1]), 0);
	assert_int_equal(reclaim_totals_add(t, s[1], s[2]), 0);
	/* the counters went back in the first interval: it counts 0, not 2^64 - 20 */
	assert_int_equal(reclaim_totals_get(t, RECLAIM_FIGURE_ALLOCSTALL, &v), 0);
	assert_true(v == 120.0);
	assert_int_equal(reclaim_totals_get(t, RECLAIM_FIGURE_KSWAPD_CPU, &v), 0);
	assert_true(fabs(v - 3.0) < 1e-6); /* kswapd0 2 s + kswapd1 1 s */
	assert_int_equal(reclaim_totals_get(t, RECLAIM_FIGURE_KSWAPD_BUSIEST, &v), 0);
	assert_true(fabs(v - 2.0) < 1e-6);
	assert_int_equal(reclaim_totals_get(t, RECLAIM_FIGURE_PSI_SOME, &v), 0);
	assert_true(fabs(v - 0.7) < 1e-9);
	assert_int_equal(reclaim_totals_get(t, RECLAIM_FIGURE_PSI_FULL, &v), -ENOENT);
	assert_int_equal(reclaim_totals_get(t, RECLAIM_FIGURE_PSWPIN, &v), -ENOENT);
	assert_true(reclaim_totals_seconds(t) == 3.0);
	reclaim_totals_unref(t);
	for (int i = 0; i < 3; i++)
		reclaim_sample_unref(s[i]);
}

/*
 * A sample at @secs whose direct reclaims since the start are @n[k] in
 * bucket k (k < 8), the longest @max us; throttle waits only if @throttle.
 */
static struct reclaim_sample *lat_sample(double secs, const uint64_t n[8], uint64_t max,
					 bool throttle)
{
	struct reclaim_sample *s;
	uint64_t total = 0;

	assert_int_equal(reclaim_sample_new(ctx, (uint64_t)(secs * 1e9), 0, &s), 0);
	for (size_t k = 0; k < 8; k++)
		total += n[k] << k;
	assert_int_equal(reclaim_sample_set_latency(s, RECLAIM_LATENCY_DIRECT, total, max), 0);
	for (size_t k = 0; k < 8; k++)
		assert_int_equal(
		    reclaim_sample_set_latency_bucket(s, RECLAIM_LATENCY_DIRECT, k, n[k]), 0);
	if (throttle)
		assert_int_equal(reclaim_sample_set_latency(s, RECLAIM_LATENCY_THROTTLE, 0, 0), 0);
	return s;
}

static void test_latency_value(void **state)
{
	static const uint64_t n0[8] = {0, 0, 0, 1}, n1[8] = {0, 0, 0, 1, 100, 0, 1},
			      n2[8] = {0, 0, 0, 1, 298, 0, 2, 0}, n3[8] = {0, 0, 0, 1, 200},
			      n4[8] = {0, 0, 0, 1, 1, 0, 1};
	struct reclaim_sample *a = lat_sample(0, n0, 5, true), *b = lat_sample(1, n1, 50, true);
	struct reclaim_sample *c = lat_sample(2, n2, 50, false), *d = lat_sample(3, n3, 50, true);
	struct reclaim_sample *e = lat_sample(1, n4, 50, true);
	struct reclaim_sample *none;
	uint64_t count, total, max;
	double v;

	/* 100 in bucket 4 (up to 16 us), 1 in bucket 6: p99 is the 100th, in bucket 4 */
	assert_int_equal(reclaim_figure_value(a, b, -1, RECLAIM_FIGURE_DIRECT_P99, &v), 0);
	assert_true(v == 16.0);
	/* the longest rose: exact */
	assert_int_equal(reclaim_figure_value(a, b, -1, RECLAIM_FIGURE_DIRECT_MAX, &v), 0);
	assert_true(v == 50.0);
	/* 198 in bucket 4, 1 in bucket 6: the 198th of 199 is the 99th percentile */
	assert_int_equal(reclaim_figure_value(b, c, -1, RECLAIM_FIGURE_DIRECT_P99, &v), 0);
	assert_true(v == 16.0);
	/* the longest did not rise: the top bucket's upper end, 64, but not above 50 */
	assert_int_equal(reclaim_figure_value(b, c, -1, RECLAIM_FIGURE_DIRECT_MAX, &v), 0);
	assert_true(v == 50.0);
	/* 2 waits: p99 is the longer, in the bucket up to 64, but never above the longest */
	assert_int_equal(reclaim_figure_value(a, e, -1, RECLAIM_FIGURE_DIRECT_P99, &v), 0);
	assert_true(v == 50.0);
	/* the throttle's waits: none in either; c has none of them at all */
	assert_int_equal(reclaim_figure_value(a, b, -1, RECLAIM_FIGURE_THROTTLE_P99, &v), 0);
	assert_true(v == 0.0);
	assert_int_equal(reclaim_figure_value(b, c, -1, RECLAIM_FIGURE_THROTTLE_P99, &v), -ENOENT);
	/* counts that went back (a recording's) count 0, not 2^64 - 98 */
	assert_int_equal(reclaim_figure_value(c, d, -1, RECLAIM_FIGURE_DIRECT_P99, &v), 0);
	assert_true(v == 0.0);
	/* not per node; a sample without latency */
	assert_int_equal(reclaim_figure_value(a, b, 0, RECLAIM_FIGURE_DIRECT_P99, &v), -ENOENT);
	assert_int_equal(reclaim_sample_new(ctx, 0, 0, &none), 0);
	assert_int_equal(reclaim_figure_value(none, b, -1, RECLAIM_FIGURE_DIRECT_MAX, &v), -ENOENT);
	assert_int_equal(reclaim_sample_latency(none, RECLAIM_LATENCY_DIRECT, &count, NULL, NULL),
			 -ENOENT);
	assert_int_equal(reclaim_sample_latency(c, RECLAIM_LATENCY_DIRECT, &count, &total, &max),
			 0);
	assert_int_equal(count, 301);
	assert_int_equal(total, 8 + 298 * 16 + 2 * 64);
	assert_int_equal(max, 50);
	assert_int_equal(reclaim_sample_latency_bucket(c, RECLAIM_LATENCY_DIRECT, 4), 298);
	assert_int_equal(reclaim_sample_latency_bucket(c, RECLAIM_LATENCY_DIRECT, 1000), 0);
	reclaim_sample_unref(none);
	reclaim_sample_unref(a);
	reclaim_sample_unref(b);
	reclaim_sample_unref(c);
	reclaim_sample_unref(d);
	reclaim_sample_unref(e);
}

static void test_latency_totals(void **state)
{
	static const uint64_t n0[8] = {0}, n1[8] = {0, 0, 0, 0, 50},
			      n2[8] = {0, 0, 0, 0, 100, 0, 0, 1};
	struct reclaim_sample *s[3] = {lat_sample(0, n0, 0, false), lat_sample(1, n1, 9, false),
				       lat_sample(2, n2, 100, false)};
	struct reclaim_totals *t;
	enum reclaim_latency_kind kind;
	unsigned permille;
	double v;

	assert_int_equal(reclaim_totals_new(ctx, &t), 0);
	assert_int_equal(reclaim_totals_get(t, RECLAIM_FIGURE_DIRECT_P99, &v), -ENOENT);
	assert_int_equal(reclaim_totals_add(t, s[0], s[1]), 0);
	assert_int_equal(reclaim_totals_add(t, s[1], s[2]), 0);
	/* the buckets merged: 100 in bucket 4, 1 in bucket 7; p99 is the 100th of 101 */
	assert_int_equal(reclaim_totals_get(t, RECLAIM_FIGURE_DIRECT_P99, &v), 0);
	assert_true(v == 16.0);
	assert_int_equal(reclaim_totals_get(t, RECLAIM_FIGURE_DIRECT_MAX, &v), 0);
	assert_true(v == 100.0);
	assert_int_equal(reclaim_totals_get(t, RECLAIM_FIGURE_THROTTLE_P99, &v), -ENOENT);
	reclaim_totals_unref(t);
	for (int i = 0; i < 3; i++)
		reclaim_sample_unref(s[i]);
	assert_int_equal(reclaim_figure_latency(RECLAIM_FIGURE_THROTTLE_P99, &kind, &permille), 0);
	assert_int_equal(kind, RECLAIM_LATENCY_THROTTLE);
	assert_int_equal(permille, 990);
	assert_int_equal(reclaim_figure_latency(RECLAIM_FIGURE_DIRECT_MAX, NULL, &permille), 0);
	assert_int_equal(permille, 1000);
	assert_int_equal(reclaim_figure_latency(RECLAIM_FIGURE_ALLOCSTALL, &kind, NULL), -EINVAL);
}

static void test_builder_refuses(void **state)
{
	struct reclaim_sample *s;

	assert_int_equal(reclaim_sample_new(ctx, 0, 0, &s), 0);
	assert_int_equal(reclaim_sample_add_counter(s, -1, "", 1), -EINVAL);
	assert_int_equal(reclaim_sample_add_kswapd(s, 0, "kswapd0", 0, 1), -EINVAL);
	assert_int_equal(reclaim_sample_add_kswapd(s, 36, "kswapd0", 0, -1), -EINVAL);
	assert_int_equal(reclaim_sample_add_kswapd(s, 36, "kswapd0", 0, INFINITY), -EINVAL);
	assert_int_equal(reclaim_sample_set_pressure(s, RECLAIM_PRESSURE_SOME, 101, 0), -EINVAL);
	assert_int_equal(reclaim_sample_set_pressure(s, 7, 1, 0), -EINVAL);
	assert_int_equal(reclaim_sample_kswapd_count(s), 0);
	assert_null(reclaim_sample_pressure(s));
	assert_int_equal(reclaim_sample_set_latency(s, 4, 0, 0), -EINVAL);
	assert_int_equal(reclaim_sample_set_latency_bucket(s, RECLAIM_LATENCY_DIRECT, 40, 1),
			 -EINVAL);
	reclaim_sample_unref(s);
}

static void test_adapt_figures(void **state)
{
	struct reclaim_adapt_sample *s;

	assert_true(reclaim_adapt_uses_figure(RECLAIM_FIGURE_ALLOCSTALL));
	assert_true(reclaim_adapt_uses_figure(RECLAIM_FIGURE_KSWAPD_CPU));
	assert_false(reclaim_adapt_uses_figure(RECLAIM_FIGURE_PSWPIN));
	assert_int_equal(reclaim_adapt_sample_new(ctx, &s), 0);
	assert_int_equal(reclaim_adapt_sample_set_figure(s, RECLAIM_FIGURE_ALLOCSTALL, 3), 0);
	assert_int_equal(reclaim_adapt_sample_set_figure(s, RECLAIM_FIGURE_PSWPIN, 3), -EOPNOTSUPP);
	assert_int_equal(reclaim_adapt_sample_set_figure(s, RECLAIM_FIGURE_ALLOCSTALL, -1),
			 -EINVAL);
	reclaim_adapt_sample_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_catalogue_complete),
	    cmocka_unit_test(test_of_counter),
	    cmocka_unit_test(test_value),
	    cmocka_unit_test(test_totals),
	    cmocka_unit_test(test_latency_value),
	    cmocka_unit_test(test_latency_totals),
	    cmocka_unit_test(test_builder_refuses),
	    cmocka_unit_test(test_adapt_figures),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
