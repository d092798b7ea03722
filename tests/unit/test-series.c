// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A chart's series (cli/recording/series.c): a short one is drawn point by
 * point; a long one is at most 4 points a pixel column, and in each column
 * it reaches the lowest and the highest value of the points there, with
 * the first and the last point of the series; the same when the chart's
 * time axis was not known or was too short while it was kept.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* before cmocka.h, whose fail() is a macro */
#include "reclaimctl.h"
#include "report.h"

#include <cmocka.h>

#define LONG 100000
/* x = 0 to 480 */
#define COLUMNS (CHART_COLUMNS + 1)

/* A noisy value with spikes: sample i of a series that goes up and down. */
static double value_of(size_t i)
{
	double v = 100 + 80 * sin((double)i / 500) + (double)(i * 7919 % 101);

	if (i % 9973 == 0)
		v += 5000;
	if (i % 7919 == 0)
		v = -50;
	return v;
}

/* The pixel column of @t, as report-svg.c draws it: x = 480 * (t / tmax) with one decimal. */
static size_t column(double t, double tmax)
{
	double tenths = nearbyint(CHART_COLUMNS * (t / tmax) * 10);

	return tenths > 0 ? (size_t)tenths / 10 : 0;
}

static void fill(struct series *s, size_t n, double tspan)
{
	memset(s, 0, sizeof(*s));
	s->tspan = tspan;
	for (size_t i = 0; i < n; i++)
		series_add(s, (double)i * 0.5, value_of(i));
}

static void test_short_is_every_point(void **state)
{
	struct series s;
	struct point *p;
	size_t n;

	(void)state;
	fill(&s, SERIES_RAW_MAX, (SERIES_RAW_MAX - 1) * 0.5);
	n = series_points(&s, (SERIES_RAW_MAX - 1) * 0.5, &p);
	assert_int_equal(n, SERIES_RAW_MAX);
	for (size_t i = 0; i < n; i++) {
		assert_true(p[i].t == (double)i * 0.5);
		assert_true(p[i].v == value_of(i));
	}
	free(p);
	series_clear(&s);
}

/* Every point drawn is one added, in time order, and the extremes of the series are drawn. */
static void check_long(const struct series *s, const struct point *p, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;

	assert_true(n <= 4 * COLUMNS);
	assert_true(p[0].t == 0 && p[0].v == value_of(0));
	assert_true(p[n - 1].t == (LONG - 1) * 0.5 && p[n - 1].v == value_of(LONG - 1));
	for (size_t i = 0; i < n; i++) {
		size_t k = (size_t)(p[i].t * 2);

		assert_true(p[i].v == value_of(k));
		if (i)
			assert_true(p[i].t >= p[i - 1].t);
		lo = fmin(lo, p[i].v);
		hi = fmax(hi, p[i].v);
	}
	assert_true(lo == -50);
	assert_true(hi == s->max);
}

static void test_long_on_the_chart_axis(void **state)
{
	double tmax = (LONG - 1) * 0.5, lo[COLUMNS], hi[COLUMNS], dlo[COLUMNS], dhi[COLUMNS];
	struct series s;
	struct point *p;
	size_t n;

	(void)state;
	fill(&s, LONG, tmax);
	n = series_points(&s, tmax, &p);
	check_long(&s, p, n);
	for (size_t c = 0; c < COLUMNS; c++)
		lo[c] = dlo[c] = INFINITY, hi[c] = dhi[c] = -INFINITY;
	for (size_t i = 0; i < LONG; i++) {
		size_t c = column((double)i * 0.5, tmax);

		lo[c] = fmin(lo[c], value_of(i));
		hi[c] = fmax(hi[c], value_of(i));
	}
	for (size_t i = 0; i < n; i++) {
		size_t c = column(p[i].t, tmax);

		dlo[c] = fmin(dlo[c], p[i].v);
		dhi[c] = fmax(dhi[c], p[i].v);
	}
	/* each column: the line through the points drawn spans what every point would */
	for (size_t c = 0; c < COLUMNS; c++) {
		assert_true(dlo[c] == lo[c]);
		assert_true(dhi[c] == hi[c]);
	}
	free(p);
	series_clear(&s);
}

/* Kept without the chart's axis (0), or on one too short: drawn on the chart's all the same. */
static void test_long_on_another_axis(void **state)
{
	const double kept[] = {0, 100, (LONG - 1) * 0.5 / 3};
	double tmax = (LONG - 1) * 0.5;

	(void)state;
	for (size_t k = 0; k < sizeof(kept) / sizeof(kept[0]); k++) {
		struct series s;
		struct point *p;
		size_t n;

		fill(&s, LONG, kept[k]);
		n = series_points(&s, tmax, &p);
		check_long(&s, p, n);
		assert_true(n > COLUMNS);
		free(p);
		series_clear(&s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_short_is_every_point),
	    cmocka_unit_test(test_long_on_the_chart_axis),
	    cmocka_unit_test(test_long_on_another_axis),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
