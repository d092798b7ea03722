// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A chart's series, kept small while a recording is read. Up to
 * SERIES_RAW_MAX points every point is kept and drawn. Beyond, the points
 * go into the chart's pixel columns (x = 0 to CHART_COLUMNS, as the points
 * are written with one decimal), and a column keeps what a line through
 * its points draws there: the first and the last point, the lowest and the
 * highest (M4, Jugel et al., VLDB 2014), at most 4 points whatever the
 * length of the recording.
 *
 * The columns span the chart's time axis, which is known before the
 * recordings are read (run_last_elapsed()). A point beyond it (a
 * recording that grew meanwhile, or whose end was not found) doubles the
 * span, merging the columns pairwise; such a series is drawn on other
 * columns than it was kept in, and its columns are merged once more.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* The columns: x = 0 to CHART_COLUMNS, the last the plot's right edge (the end of the run). */
#define COLUMNS (CHART_COLUMNS + 1)
/* The shortest time the columns span, in seconds, when no end was known. */
#define TSPAN_MIN ((double)CHART_COLUMNS / 1024)

struct span {
	bool used;
	struct point first, last, low, high;
};

/*
 * The pixel column of time @t on a time axis from 0 to @tmax: where
 * report-svg.c draws it, x = CHART_COLUMNS * (t / tmax) written with one
 * decimal.
 */
static size_t column_of(double t, double tmax)
{
	double tenths = nearbyint(CHART_COLUMNS * (t / tmax) * 10);

	if (!(tenths > 0))
		return 0;
	return tenths < CHART_COLUMNS * 10 ? (size_t)tenths / 10 : CHART_COLUMNS;
}

static void span_add(struct span *sp, struct point p)
{
	if (!sp->used) {
		*sp = (struct span){true, p, p, p, p};
		return;
	}
	if (p.t < sp->first.t)
		sp->first = p;
	if (p.t >= sp->last.t)
		sp->last = p;
	if (p.v < sp->low.v)
		sp->low = p;
	if (p.v > sp->high.v)
		sp->high = p;
}

/* The points of @sp in time order, each once, into @out; their number. */
static size_t span_points(const struct span *sp, struct point *out)
{
	const struct point in[4] = {sp->first, sp->low, sp->high, sp->last};
	size_t n = 0;

	if (!sp->used)
		return 0;
	for (size_t i = 0; i < 4; i++) {
		size_t j = n;
		bool seen = false;

		for (size_t k = 0; k < n; k++)
			seen |= out[k].t == in[i].t && out[k].v == in[i].v;
		if (seen)
			continue;
		for (; j > 0 && out[j - 1].t > in[i].t; j--)
			out[j] = out[j - 1];
		out[j] = in[i];
		n++;
	}
	return n;
}

static void span_merge(struct span *into, const struct span *from)
{
	struct point p[4];
	size_t n = span_points(from, p);

	for (size_t i = 0; i < n; i++)
		span_add(into, p[i]);
}

/* Doubles the time the columns span: column i takes columns 2i and 2i + 1. */
static void spans_widen(struct series *s)
{
	size_t half = (COLUMNS + 1) / 2;

	for (size_t i = 0; i < half; i++) {
		struct span sp = s->spans[2 * i];

		if (2 * i + 1 < COLUMNS)
			span_merge(&sp, &s->spans[2 * i + 1]);
		s->spans[i] = sp;
	}
	memset(&s->spans[half], 0, (COLUMNS - half) * sizeof(*s->spans));
	s->tspan *= 2;
}

static void spans_add(struct series *s, struct point p)
{
	while (p.t > s->tspan)
		spans_widen(s);
	span_add(&s->spans[column_of(p.t, s->tspan)], p);
}

/* The points kept so far go into columns: more than a chart draws point by point. */
static void spans_start(struct series *s)
{
	s->spans = calloc(COLUMNS, sizeof(*s->spans));
	if (!s->spans)
		abort();
	if (!(s->tspan > 0))
		s->tspan = TSPAN_MIN;
	for (size_t i = 0; i < s->n; i++)
		spans_add(s, s->p[i]);
	free(s->p);
	s->p = NULL;
	s->n = 0;
}

void series_add(struct series *s, double t, double v)
{
	struct point p = {t, v};

	/* the reader refuses them: never drawn */
	if (!isfinite(t) || !isfinite(v))
		return;
	if (v > s->max)
		s->max = v;
	if (!s->spans && s->n == SERIES_RAW_MAX)
		spans_start(s);
	if (s->spans) {
		spans_add(s, p);
		return;
	}
	if (s->n == s->size) {
		struct point *np;

		s->size = s->size ? 2 * s->size : 64;
		np = realloc(s->p, s->size * sizeof(*np));
		if (!np)
			abort();
		s->p = np;
	}
	s->p[s->n++] = p;
}

void series_clear(struct series *s)
{
	free(s->name);
	free(s->p);
	free(s->spans);
}

size_t series_points(const struct series *s, double tmax, struct point **out)
{
	struct span *col = s->spans;
	size_t n = 0;

	*out = malloc((s->spans ? 4 * COLUMNS : s->n ? s->n : 1) * sizeof(**out));
	if (!*out)
		abort();
	if (!s->spans) {
		if (s->n)
			memcpy(*out, s->p, s->n * sizeof(**out));
		return s->n;
	}
	if (s->tspan != tmax) {
		/* kept on other columns: each goes whole into the column of its first point */
		col = calloc(COLUMNS, sizeof(*col));
		if (!col)
			abort();
		for (size_t i = 0; i < COLUMNS; i++)
			if (s->spans[i].used)
				span_merge(&col[column_of(s->spans[i].first.t, tmax)],
					   &s->spans[i]);
	}
	for (size_t c = 0; c < COLUMNS; c++)
		n += span_points(&col[c], *out + n);
	if (col != s->spans)
		free(col);
	return n;
}
