/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The recording pipeline: the reader (reader.c), what the charts keep of
 * each sample (report-charts.c, series.c), the report page (report-html.c)
 * and its SVG charts (report-svg.c).
 */
#ifndef RECLAIMCTL_REPORT_H
#define RECLAIMCTL_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>
#include <reclaim.h>

struct cli;

/* The version of the record format record writes, and the newest the reader reads. */
#define RECORD_SCHEMA 2

/* The width of a chart's plot, in pixels: its columns (report-svg.c). */
#define CHART_COLUMNS 480
/*
 * The most points of a series drawn as they are: beyond, 4 at most in each
 * pixel column, x = 0 to CHART_COLUMNS (series.c).
 */
#define SERIES_RAW_MAX (4 * CHART_COLUMNS)

struct point {
	double t, v;
};

struct span;

/* A chart's series, as small as its chart needs (series.c). */
struct series {
	char *name;	    /* a rate key, or a kswapd thread's name */
	double max;	    /* the largest value, or 0 */
	size_t n, size;	    /* the points in p */
	struct point *p;    /* every point, while there are at most SERIES_RAW_MAX */
	struct span *spans; /* then what the line draws in each pixel column */
	double tspan;	    /* the time the columns span: the chart's, if known, or 0 */
};

/* Adds a point; the series keeps every one until it has SERIES_RAW_MAX. */
void series_add(struct series *s, double t, double v);
void series_clear(struct series *s);
/*
 * The points to draw on a time axis from 0 to @tmax: every point, or for a
 * longer series at most 4 a pixel column; free *@out.
 */
size_t series_points(const struct series *s, double tmax, struct point **out);

/* The series of one chart for one run. */
struct plot {
	size_t n;
	struct series *s;
	double tspan; /* of its series */
};

struct event {
	double t;
	char *label; /* "kswapd_threads 1→4" */
};

/* One recorded file, read as a stream: what its samples add up to, not the samples. */
struct run {
	char *file;
	cJSON *header, *end; /* end may be NULL (a recording cut short) */
	size_t nsamples;
	size_t nevents;
	struct event *events;
	double duration;
	struct reclaim_totals *totals; /* of every figure over the run */
	/* neither recorded nor computable from what the recording holds, in any sample */
	bool missing[_RECLAIM_FIGURE_MAX];
	/* read by report_read(): */
	struct plot *plots; /* one per chart of report_charts() */
	double kswapd_peak; /* the largest kswapd CPU use of a sample, % of one CPU */
};

/* What a reader of a recording does with each sample. */
struct sample_sink {
	/* A sample, completed (see read_run()); 0, or an exit status that ends the reading. */
	int (*sample)(void *data, struct run *run, const cJSON *sample);
	void *data;
};

/*
 * reader.c: reads a recording line by line, refusing numbers no recording
 * holds, a newer record format and a sample before the header; every
 * sample gets the figures it has the sources of, is handed to @sink (or
 * NULL) and forgotten. 0 or an exit status (the error printed). Also
 * sweep's and adapt --replay's reader.
 */
int read_run(struct cli *cli, const char *file, struct run *run, const struct sample_sink *sink);
void run_free(struct run *run);
/*
 * The elapsed time of the last sample in the last lines of @file: the run's
 * duration for a recording written whole, read without reading the rest;
 * 0 if not found there.
 */
double run_last_elapsed(const char *file);
/* The keys of the figures @run misses (of those @wanted accepts; NULL: all), "a, b"; NULL if none.
 */
char *run_missing(const struct run *run, bool (*wanted)(enum reclaim_figure f));
/* A string or a number of a recorded line, NULL or @def if it has none. */
const char *string_of(const cJSON *o, const char *key);
double number_of(const cJSON *o, const char *key, double def);
/* A knob's value in a recording (a number, or null) as the kernel shows it; @k NULL: the number. */
void format_knob_value(char *buf, size_t size, const struct reclaim_knob *k, const cJSON *v);

/* A chart: the same one is drawn for every run, on one scale, side by side. */
struct chart {
	const char *id, *title, *unit;
	bool threads;			/* one series per kswapd thread */
	enum reclaim_figure figures[2]; /* the series, unless threads */
	const char *names[2];		/* their legend names */
	const char *how;		/* how a recording gets them, if not always */
};

/* report-charts.c: the charts of the report, in its order. */
const struct chart *report_charts(size_t *n);
/*
 * read_run() that also collects what the charts of report_charts() draw,
 * on a time axis of @tmax seconds (the longest run_last_elapsed() of the
 * runs drawn together; 0 if unknown).
 */
int report_read(struct cli *cli, const char *file, struct run *run, double tmax);
/* The series of @chart in @run. */
const struct plot *run_plot(const struct run *run, const struct chart *chart);
void plots_free(struct plot *plots);
/* Writes one <svg> of @chart for @run with the given axis maxima. */
void svg_chart(FILE *out, const struct chart *chart, const struct run *run, size_t run_idx,
	       double tmax, double vmax);
/* Writes @s with &, <, >, " escaped. */
void html_text(FILE *out, const char *s);

/* What a command adds to the report: a section written before the summary table. */
struct report_extra {
	void (*section)(FILE *out, void *data);
	void *data;
};

/* Writes the report of @runs to @output ("-": stdout); 0 or an exit status. */
int write_report(const char *output, const struct run *runs, size_t n,
		 const struct report_extra *extra);

#endif
