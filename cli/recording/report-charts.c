// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The charts of reclaimctl report and what each keeps of a run while it is
 * read: its series (series.c, at most what a chart draws), and the peak of
 * kswapd's CPU use for the summary table.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static const struct chart charts[] = {
    {"pgscan",
     "Pages scanned per second: kswapd vs direct reclaim",
     "pages/s",
     false,
     {RECLAIM_FIGURE_PGSCAN_KSWAPD, RECLAIM_FIGURE_PGSCAN_DIRECT},
     {"kswapd", "direct"},
     NULL},
    {"stalls",
     "Direct reclaim stalls and throttled waits per second",
     "events/s",
     false,
     {RECLAIM_FIGURE_ALLOCSTALL, RECLAIM_FIGURE_THROTTLED},
     {"stalls (allocstall)", "throttled waits"},
     NULL},
    {"kswapd", "kswapd CPU use per thread", "% of one CPU", true, {0, 0}, {NULL, NULL}, NULL},
    {"psi",
     "Memory pressure (PSI avg10)",
     "% of time",
     false,
     {RECLAIM_FIGURE_PSI_SOME, RECLAIM_FIGURE_PSI_FULL},
     {"some", "full"},
     NULL},
    {"swap",
     "Pages swapped in and out per second",
     "pages/s",
     false,
     {RECLAIM_FIGURE_PSWPIN, RECLAIM_FIGURE_PSWPOUT},
     {"in", "out"},
     NULL},
    {"latency",
     "How long tasks waited: 99th percentile of each interval",
     "us",
     false,
     {RECLAIM_FIGURE_DIRECT_P99, RECLAIM_FIGURE_THROTTLE_P99},
     {"direct reclaim", "throttle wait"},
     "record --latency"},
};

#define NCHARTS (sizeof(charts) / sizeof(charts[0]))

const struct chart *report_charts(size_t *n)
{
	*n = NCHARTS;
	return charts;
}

const struct plot *run_plot(const struct run *run, const struct chart *chart)
{
	static const struct plot none;

	/* a run has plots once it has a sample, and the reader refuses one without */
	return run->plots ? &run->plots[chart - charts] : &none;
}

void plots_free(struct plot *plots)
{
	for (size_t c = 0; plots && c < NCHARTS; c++) {
		for (size_t i = 0; i < plots[c].n; i++)
			series_clear(&plots[c].s[i]);
		free(plots[c].s);
	}
	free(plots);
}

static struct series *series_get(struct plot *plot, const char *name)
{
	struct series *v;

	for (size_t i = 0; i < plot->n; i++)
		if (strcmp(plot->s[i].name, name) == 0)
			return &plot->s[i];
	v = realloc(plot->s, (plot->n + 1) * sizeof(*v));
	if (!v)
		abort();
	plot->s = v;
	v = &v[plot->n++];
	memset(v, 0, sizeof(*v));
	v->tspan = plot->tspan;
	v->name = strdup(name);
	if (!v->name)
		abort();
	return v;
}

static bool number(const cJSON *o, const char *key, double *v)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(x))
		return false;
	*v = x->valuedouble;
	return true;
}

static void thread_points(struct plot *plot, const cJSON *sample, double t)
{
	const cJSON *threads = cJSON_GetObjectItemCaseSensitive(sample, "threads"), *th;

	cJSON_ArrayForEach(th, threads)
	{
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(th, "name");
		double v;

		if (cJSON_IsString(name) && number(th, "cpu_percent", &v))
			series_add(series_get(plot, name->valuestring), t, v);
	}
}

/* The two series of a chart of rates, in its order. */
static void rate_points(struct plot *plot, const struct chart *chart, const cJSON *sample, double t)
{
	for (int k = 0; k < 2; k++) {
		const char *key = reclaim_figure_text(chart->figures[k], RECLAIM_FIGURE_KEY);
		double v;

		if (number(sample, key, &v))
			series_add(&plot->s[k], t, v);
	}
}

/* The rate series exist (possibly empty) from the start, so that the legend is stable. */
static struct plot *plots_new(double tmax)
{
	struct plot *plots = calloc(NCHARTS, sizeof(*plots));

	if (!plots)
		abort();
	for (size_t c = 0; c < NCHARTS; c++) {
		plots[c].tspan = tmax;
		for (int k = 0; !charts[c].threads && k < 2; k++)
			series_get(&plots[c],
				   reclaim_figure_text(charts[c].figures[k], RECLAIM_FIGURE_KEY));
	}
	return plots;
}

static int take_sample(void *data, struct run *run, const cJSON *sample)
{
	const char *peak_key = reclaim_figure_text(RECLAIM_FIGURE_KSWAPD_CPU, RECLAIM_FIGURE_KEY);
	const double *tmax = data;
	double t;

	if (!run->plots)
		run->plots = plots_new(*tmax);
	if (number_of(sample, peak_key, 0) > run->kswapd_peak)
		run->kswapd_peak = number_of(sample, peak_key, 0);
	if (!number(sample, "elapsed", &t))
		return 0;
	for (size_t c = 0; c < NCHARTS; c++) {
		if (charts[c].threads)
			thread_points(&run->plots[c], sample, t);
		else
			rate_points(&run->plots[c], &charts[c], sample, t);
	}
	return 0;
}

int report_read(struct cli *cli, const char *file, struct run *run, double tmax)
{
	const struct sample_sink sink = {take_sample, &tmax};

	return read_run(cli, file, run, &sink);
}
