/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reclaimctl report: recorded runs (cmd-report.c) and their SVG charts (report-svg.c). */
#ifndef RECLAIMCTL_REPORT_H
#define RECLAIMCTL_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

struct point {
	double t, v;
};

struct series {
	char *name; /* a rate key, or a kswapd thread's name */
	size_t n;
	struct point *p;
};

struct event {
	double t;
	char *label; /* "kswapd_threads 1→4" */
};

/* One recorded file. */
struct run {
	char *file;
	cJSON *header, *end; /* end may be NULL (a recording cut short) */
	size_t nsamples;
	cJSON **samples;
	size_t nevents;
	struct event *events;
	double duration;
};

/*
 * Reads a recording whole, refusing numbers no recording holds; 0 or an
 * exit status (the error printed). Also adapt --replay's reader.
 */
int read_run(const char *file, struct run *run);
void run_free(struct run *run);

/* A chart: the same one is drawn for every run, on one scale, side by side. */
struct chart {
	const char *id, *title, *unit;
	bool threads;	      /* one series per kswapd thread */
	const char *keys[2];  /* sample keys of the series */
	const char *names[2]; /* their legend names */
};

/* The series of @chart in @run; free with series_free(). */
size_t chart_series(const struct chart *chart, const struct run *run, struct series **out);
void series_free(struct series *s, size_t n);
/* Writes one <svg> of @chart for @run with the given axis maxima. */
void svg_chart(FILE *out, const struct chart *chart, const struct run *run, size_t run_idx,
	       double tmax, double vmax);
/* Writes @s with &, <, >, " escaped. */
void html_text(FILE *out, const char *s);

/* Totals over a run, in the order of the report's summary rows. */
enum run_total {
	TOTAL_PGSCAN_KSWAPD,
	TOTAL_PGSCAN_DIRECT,
	TOTAL_PGSTEAL_KSWAPD,
	TOTAL_PGSTEAL_DIRECT,
	TOTAL_ALLOCSTALL,
	TOTAL_THROTTLED,
	TOTAL_PSWPIN,
	TOTAL_PSWPOUT,
	TOTAL_REFAULT,
	NRUN_TOTALS
};

struct summary {
	bool has[NRUN_TOTALS];
	double total[NRUN_TOTALS]; /* the sum of the counters' deltas */
	double kswapd_seconds, kswapd_peak;
	double kswapd_busiest_seconds; /* the CPU time of the busiest kswapd thread */
	bool has_some, has_full;
	double some_seconds, full_seconds;
};

/* The totals of @run: what the summary table of the report shows. */
void summarize(const struct run *run, struct summary *s);

/* What a command adds to the report: a section written before the summary table. */
struct report_extra {
	void (*section)(FILE *out, void *data);
	void *data;
};

/* Writes the report of @runs to @output ("-": stdout); 0 or an exit status. */
int write_report(const char *output, const struct run *runs, size_t n,
		 const struct report_extra *extra);

#endif
