// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report page of reclaimctl report and sweep: recorded runs as one
 * self-contained HTML page: a summary table with a column per run, then
 * each chart once per run, side by side on one scale (report-svg.c). No
 * script, no external resource.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "reclaimctl.h"
#include "report.h"

/* ---- HTML ---- */

static const char style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222}"
    "h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em}"
    "table.summary{border-collapse:collapse;font-size:.9em}"
    "table.summary th,table.summary td{border:1px solid #ccc;padding:.25em .6em;text-align:right;"
    "vertical-align:top}"
    "table.summary th[scope=row]{text-align:left;font-weight:normal;background:#f6f6f6}"
    "table.summary td.text{text-align:left}"
    ".charts{display:flex;flex-wrap:wrap;gap:1em}"
    "figure{margin:0}figcaption{font-size:.85em;color:#555}"
    "svg.chart{background:#fff;border:1px solid #ddd}"
    "svg .plot{fill:none;stroke:#999}svg .grid{stroke:#eee}"
    "svg .tick,svg .unit,svg .legend text{font-size:11px;fill:#444}"
    "svg polyline{fill:none;stroke-width:1.6}"
    "svg .event line{stroke:#888;stroke-dasharray:4 3}svg .event text{font-size:10px;fill:#555}"
    "svg .nodata{font-size:13px;fill:#999}";

static void cell_text(FILE *out, const char *s)
{
	fputs("<td class=\"text\">", out);
	html_text(out, s ? s : "\u2014");
	fputs("</td>", out);
}

static void row_start(FILE *out, const char *key, const char *label)
{
	fprintf(out, "<tr data-key=\"%s\"><th scope=\"row\">", key);
	html_text(out, label);
	fputs("</th>", out);
}

static char *command_text(const struct run *r)
{
	const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(r->header, "command"), *c;
	char *s = NULL;
	size_t len = 0;
	FILE *m;

	if (!cJSON_IsArray(cmd))
		return NULL;
	m = open_memstream(&s, &len);
	if (!m)
		abort();
	cJSON_ArrayForEach(c, cmd)
	{
		if (cJSON_IsString(c))
			fprintf(m, "%s%s", c == cmd->child ? "" : " ", c->valuestring);
	}
	fclose(m);
	return s;
}

static void rows_run(FILE *out, const struct run *runs, size_t n)
{
	char buf[128];

	row_start(out, "file", "Record file");
	for (size_t i = 0; i < n; i++)
		cell_text(out, runs[i].file);
	fputs("</tr>\n", out);
	row_start(out, "start", "Started");
	for (size_t i = 0; i < n; i++)
		cell_text(out, string_of(runs[i].header, "start"));
	fputs("</tr>\n", out);
	row_start(out, "kernel", "Kernel");
	for (size_t i = 0; i < n; i++)
		cell_text(out, string_of(runs[i].header, "kernel"));
	fputs("</tr>\n", out);
	row_start(out, "command", "Command");
	for (size_t i = 0; i < n; i++) {
		char *c = command_text(&runs[i]);

		cell_text(out, c);
		free(c);
	}
	fputs("</tr>\n", out);
	row_start(out, "exit_status", "Exit status");
	for (size_t i = 0; i < n; i++) {
		const cJSON *e = runs[i].end;

		if (e && number_of(e, "exit_status", -1) >= 0)
			snprintf(buf, sizeof(buf), "%.0f", number_of(e, "exit_status", 0));
		else if (e && number_of(e, "signal", -1) >= 0)
			snprintf(buf, sizeof(buf), "signal %.0f", number_of(e, "signal", 0));
		else
			snprintf(buf, sizeof(buf), "\u2014");
		fprintf(out, "<td>%s</td>", buf);
	}
	fputs("</tr>\n", out);
	row_start(out, "wall_seconds", "Command wall time");
	for (size_t i = 0; i < n; i++) {
		double w = runs[i].end ? number_of(runs[i].end, "wall_seconds", -1) : -1;

		if (w >= 0)
			fprintf(out, "<td>%.2f s</td>", w);
		else
			fputs("<td>\u2014</td>", out);
	}
	fputs("</tr>\n", out);
	row_start(out, "duration", "Recorded");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "<td>%.1f s, %zu samples every %g s%s</td>", runs[i].duration,
			runs[i].nsamples, number_of(runs[i].header, "interval", 0),
			runs[i].end ? "" : " (cut short)");
	fputs("</tr>\n", out);
}

/* Each knob: its value at the start, and what it changed to. */
static void rows_knobs(FILE *out, const struct run *runs, size_t n)
{
	for (size_t k = 0; k < reclaim_knob_count(); k++) {
		const char *name = reclaim_knob_name(reclaim_knob_get(k));
		char label[96];

		snprintf(label, sizeof(label), "Knob %s", name);
		row_start(out, name, label);
		for (size_t i = 0; i < n; i++) {
			const cJSON *kn = cJSON_GetObjectItemCaseSensitive(runs[i].header, "knobs");
			char v[32];

			format_knob_value(v, sizeof(v), reclaim_knob_get(k),
					  cJSON_GetObjectItemCaseSensitive(kn, name));
			fprintf(out, "<td>%s", v);
			for (size_t e = 0; e < runs[i].nevents; e++)
				if (strncmp(runs[i].events[e].label, name, strlen(name)) == 0 &&
				    runs[i].events[e].label[strlen(name)] == ' ') {
					/* The rest of the label is the recording's text too. */
					fputs(", ", out);
					html_text(out, runs[i].events[e].label + strlen(name) + 1);
					fprintf(out, " at %.1f s", runs[i].events[e].t);
				}
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
}

/* A total, and below it its rate (counters) or its share of the time (seconds). */
static void cell_total(FILE *out, const struct run *r, enum reclaim_figure f)
{
	double v, secs = r->duration;

	if (reclaim_totals_get(r->totals, f, &v) < 0) {
		fputs("<td>\u2014</td>", out);
		return;
	}
	switch (reclaim_figure_kind(f)) {
	case RECLAIM_FIGURE_RATE:
		fprintf(out, "<td>%.0f<br><small>%.1f/s</small></td>", v, secs > 0 ? v / secs : 0);
		break;
	case RECLAIM_FIGURE_CPU_SUM:
		fprintf(out, "<td>%.2f s<br><small>avg %.1f %%, peak %.1f %%</small></td>", v,
			secs > 0 ? v / secs * 100 : 0, r->kswapd_peak);
		break;
	case RECLAIM_FIGURE_CPU_MAX:
		fprintf(out, "<td>%.2f s<br><small>avg %.1f %%</small></td>", v,
			secs > 0 ? v / secs * 100 : 0);
		break;
	case RECLAIM_FIGURE_PRESSURE:
		fprintf(out, "<td>%.2f s<br><small>%.1f %% of the time</small></td>", v,
			secs > 0 ? v / secs * 100 : 0);
		break;
	case RECLAIM_FIGURE_LATENCY:
		fprintf(out, "<td>%.0f us<br><small>over the run</small></td>", v);
		break;
	}
}

static void rows_totals(FILE *out, const struct run *runs, size_t n)
{
	for (enum reclaim_figure f = 0; f < _RECLAIM_FIGURE_MAX; f++) {
		row_start(out, reclaim_figure_text(f, RECLAIM_FIGURE_TOTAL_KEY),
			  reclaim_figure_text(f, RECLAIM_FIGURE_LABEL));
		for (size_t i = 0; i < n; i++)
			cell_total(out, &runs[i], f);
		fputs("</tr>\n", out);
	}
}

static void summary_table(FILE *out, const struct run *runs, size_t n)
{
	fputs("<h2>Summary</h2>\n<table class=\"summary\" id=\"summary\">\n<tr><th></th>", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "<th scope=\"col\">run %zu</th>", i + 1);
	fputs("</tr>\n", out);
	rows_run(out, runs, n);
	rows_knobs(out, runs, n);
	rows_totals(out, runs, n);
	fputs("</table>\n", out);
}

/* The largest value of @chart over all runs, so that their charts share a scale. */
static double chart_max(const struct chart *chart, const struct run *runs, size_t n)
{
	double max = 0;

	for (size_t i = 0; i < n; i++) {
		const struct plot *plot = run_plot(&runs[i], chart);

		for (size_t j = 0; j < plot->n; j++)
			if (plot->s[j].max > max)
				max = plot->s[j].max;
	}
	return max;
}

static void chart_section(FILE *out, const struct chart *chart, const struct run *runs, size_t n,
			  double tmax)
{
	double vmax = chart_max(chart, runs, n);

	fprintf(out, "<h2 id=\"%s\">", chart->id);
	html_text(out, chart->title);
	fputs("</h2>\n<div class=\"charts\">\n", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<figure><figcaption>run %zu: ", i + 1);
		html_text(out, runs[i].file);
		fputs("</figcaption>\n", out);
		svg_chart(out, chart, &runs[i], i, tmax, vmax);
		fputs("</figure>\n", out);
	}
	fputs("</div>\n", out);
}

static void write_html(FILE *out, const struct run *runs, size_t n, const struct report_extra *x)
{
	size_t ncharts;
	const struct chart *charts = report_charts(&ncharts);
	double tmax = 0;

	for (size_t i = 0; i < n; i++)
		if (runs[i].duration > tmax)
			tmax = runs[i].duration;
	fprintf(out,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>reclaimctl report</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>Memory reclaim report</h1>\n<p>%zu run%s, made by reclaimctl %s from "
		"recordings of <code>reclaimctl record</code>. Knob changes are marked with "
		"dashed lines.</p>\n",
		style, n, n == 1 ? "" : "s", RECLAIMCTL_VERSION);
	if (x && x->section)
		x->section(out, x->data);
	summary_table(out, runs, n);
	for (size_t c = 0; c < ncharts; c++)
		chart_section(out, &charts[c], runs, n, tmax);
	fputs("</body>\n</html>\n", out);
}

/* ---- the command ---- */

int write_report(const char *output, const struct run *runs, size_t n, const struct report_extra *x)
{
	FILE *out = strcmp(output, "-") == 0 ? stdout : fopen(output, "we");

	if (!out)
		return fail(EXIT_FAILURE, "cannot write %s: %s", output, strerror(errno));
	write_html(out, runs, n, x);
	if (out != stdout && fclose(out) != 0)
		return fail(EXIT_FAILURE, "cannot write %s: %s", output, strerror(errno));
	return 0;
}
