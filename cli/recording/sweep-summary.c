// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl sweep's summary: per value, the median, lowest and highest of
 * each figure over its runs and the ratio to the first value, as
 * summary.json, summary.csv, the printed table and the sweep's section of
 * report.html.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "reclaimctl.h"
#include "report.h"
#include "sampling.h"
#include "sweep.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Figure @f over the successful runs of combination @c. */
static struct stat_value stat_of(const struct sweep *s, size_t c, size_t f)
{
	struct stat_value st = {0};
	double *v = calloc(s->nruns + 1, sizeof(*v));

	if (!v)
		abort();
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i].combo == c && s->runs[i].state == RUN_OK && s->runs[i].has[f])
			v[st.n++] = s->runs[i].fig[f];
	if (st.n) {
		qsort(v, st.n, sizeof(*v), cmp_double);
		st.min = v[0];
		st.max = v[st.n - 1];
		st.median = st.n % 2 ? v[st.n / 2] : (v[st.n / 2 - 1] + v[st.n / 2]) / 2;
	}
	free(v);
	return st;
}

/* Median of @c over the first value's, when both are known and the first is not 0. */
static bool ratio_of(const struct sweep *s, size_t c, size_t f, double *ratio)
{
	struct stat_value first = stat_of(s, 0, f), st = stat_of(s, c, f);

	if (!first.n || !st.n || first.median == 0)
		return false;
	*ratio = st.median / first.median;
	return true;
}

static size_t count_state(const struct sweep *s, size_t c, enum run_state state)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i].combo == c && s->runs[i].state == state)
			n++;
	return n;
}

/* The figure of the ratio column: the first metric, or the wall time. */
static size_t primary(const struct sweep *s)
{
	return s->nmetrics ? NFIGS : FIG_WALL;
}

static cJSON *json_combo_knobs(const struct sweep *s, size_t c)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t a = 0; a < s->naxes; a++)
		cJSON_AddNumberToObject(o, reclaim_knob_name(s->axes[a].knob),
					c == SIZE_MAX
					    ? (double)s->axes[a].before
					    : (double)s->axes[a].values[value_index(s, c, a)]);
	return o;
}

static cJSON *summary_json(const struct sweep *s, int sig)
{
	cJSON *root = json_document(), *a, *o;

	cJSON_AddStringToObject(root, "command", "sweep");
	a = cJSON_AddArrayToObject(root, "argv");
	for (char **c = s->command; *c; c++)
		cJSON_AddItemToArray(a, cJSON_CreateString(*c));
	a = cJSON_AddArrayToObject(root, "knobs");
	for (size_t i = 0; i < s->naxes; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(reclaim_knob_name(s->axes[i].knob)));
	cJSON_AddItemToObject(root, "before", json_combo_knobs(s, SIZE_MAX));
	cJSON_AddNumberToObject(root, "repeat", (double)s->repeat);
	cJSON_AddBoolToObject(root, "interleave", s->interleave);
	cJSON_AddNumberToObject(root, "interval", s->interval);
	a = cJSON_AddArrayToObject(root, "metrics");
	for (size_t i = 0; i < s->nmetrics; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(s->metrics[i].name));
	cJSON_AddStringToObject(root, "ratio_of", fig_key(s, primary(s)));
	o = cJSON_AddObjectToObject(root, "units");
	for (size_t k = 0; k < nfigs(s); k++)
		cJSON_AddItemToObject(o, fig_key(s, k),
				      k == FIG_WALL ? cJSON_CreateString("s")
				      : k < NFIGS
					  ? cJSON_CreateString(reclaim_figure_text(
						k - FIG_CATALOGUE, RECLAIM_FIGURE_TOTAL_UNIT))
					  : cJSON_CreateNull());
	cJSON_AddBoolToObject(root, "complete", s->done == s->nruns && !sig);
	if (sig)
		cJSON_AddStringToObject(root, "interrupted", sigabbrev_np(sig));
	else
		cJSON_AddNullToObject(root, "interrupted");
	a = cJSON_AddArrayToObject(root, "runs");
	for (size_t i = 0; i < s->nruns; i++) {
		const struct sweep_run *r = &s->runs[i];
		cJSON *f;

		if (r->state == RUN_NOT_RUN)
			continue;
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "run", (double)(i + 1));
		cJSON_AddStringToObject(o, "value", s->labels[r->combo]);
		cJSON_AddItemToObject(o, "knobs", json_combo_knobs(s, r->combo));
		cJSON_AddNumberToObject(o, "repetition", (double)(r->rep + 1));
		cJSON_AddStringToObject(o, "status", run_state_name(r->state));
		cJSON_AddItemToObject(o, "exit_status",
				      json_number_or_null(r->exit_status >= 0, r->exit_status));
		cJSON_AddItemToObject(o, "signal", json_number_or_null(r->signal >= 0, r->signal));
		cJSON_AddStringToObject(o, "record", r->file);
		cJSON_AddStringToObject(o, "log", r->log);
		f = cJSON_AddObjectToObject(o, "figures");
		for (size_t k = 0; k < nfigs(s); k++)
			cJSON_AddItemToObject(
			    f, fig_key(s, k),
			    json_number_or_null(r->has[k], round_to(r->fig[k], 3)));
		cJSON_AddItemToArray(a, o);
	}
	a = cJSON_AddArrayToObject(root, "values");
	for (size_t c = 0; c < s->ncombos; c++) {
		cJSON *f;

		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "value", s->labels[c]);
		cJSON_AddItemToObject(o, "knobs", json_combo_knobs(s, c));
		cJSON_AddNumberToObject(o, "runs", (double)count_state(s, c, RUN_OK));
		cJSON_AddNumberToObject(o, "failed", (double)count_state(s, c, RUN_FAILED));
		f = cJSON_AddObjectToObject(o, "figures");
		for (size_t k = 0; k < nfigs(s); k++) {
			struct stat_value st = stat_of(s, c, k);
			cJSON *x = cJSON_CreateObject();
			double ratio = 0;
			bool has_ratio = ratio_of(s, c, k, &ratio);

			cJSON_AddItemToObject(x, "median",
					      json_number_or_null(st.n, round_to(st.median, 3)));
			cJSON_AddItemToObject(x, "min",
					      json_number_or_null(st.n, round_to(st.min, 3)));
			cJSON_AddItemToObject(x, "max",
					      json_number_or_null(st.n, round_to(st.max, 3)));
			cJSON_AddItemToObject(
			    x, "spread", json_number_or_null(st.n, round_to(st.max - st.min, 3)));
			cJSON_AddItemToObject(x, "ratio",
					      json_number_or_null(has_ratio, round_to(ratio, 3)));
			cJSON_AddItemToObject(f, fig_key(s, k), x);
		}
		cJSON_AddItemToArray(a, o);
	}
	return root;
}

static void csv_field(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
}

static void csv_number(FILE *out, bool has, double v)
{
	if (has)
		fprintf(out, ",%.*f", v == round(v) ? 0 : 3, v);
	else
		fputs(",", out);
}

static void write_csv(FILE *out, const struct sweep *s)
{
	fputs("value", out);
	for (size_t a = 0; a < s->naxes; a++)
		fprintf(out, ",%s", reclaim_knob_name(s->axes[a].knob));
	fputs(",runs,failed", out);
	for (size_t k = 0; k < nfigs(s); k++) {
		const char *key = fig_key(s, k);

		fprintf(out, ",%s_median,%s_min,%s_max,%s_ratio", key, key, key, key);
	}
	fputc('\n', out);
	for (size_t c = 0; c < s->ncombos; c++) {
		csv_field(out, s->labels[c]);
		for (size_t a = 0; a < s->naxes; a++)
			fprintf(out, ",%" PRId64, s->axes[a].values[value_index(s, c, a)]);
		fprintf(out, ",%zu,%zu", count_state(s, c, RUN_OK), count_state(s, c, RUN_FAILED));
		for (size_t k = 0; k < nfigs(s); k++) {
			struct stat_value st = stat_of(s, c, k);
			double ratio = 0;
			bool has_ratio = ratio_of(s, c, k, &ratio);

			csv_number(out, st.n, st.median);
			csv_number(out, st.n, st.min);
			csv_number(out, st.n, st.max);
			csv_number(out, has_ratio, round_to(ratio, 3));
		}
		fputc('\n', out);
	}
}

/* 1.5G, 980M, 12.3k for the metrics (which may be bytes per second); else plain. */
void format_figure(char *buf, size_t size, size_t f, double v)
{
	static const char units[] = " kMGTPE";
	int u = 0;

	if (f < NFIGS) {
		snprintf(buf, size, "%.*f",
			 f == FIG_WALL ? 2 : reclaim_figure_digits(f - FIG_CATALOGUE), v);
		return;
	}
	while (fabs(v) >= 1000 && u < 6) {
		v /= 1000;
		u++;
	}
	if (u)
		snprintf(buf, size, "%.3g%c", v, units[u]);
	else
		snprintf(buf, size, "%.4g", v);
}

static const char *fig_column(const struct sweep *s, size_t f)
{
	if (f == FIG_WALL)
		return "WALL";
	if (f < NFIGS)
		return reclaim_figure_text(f - FIG_CATALOGUE, RECLAIM_FIGURE_COLUMN);
	return s->metrics[f - NFIGS].name;
}

/* What the report's table heads a figure's column with: its label and unit. */
static void html_fig_label(FILE *out, const struct sweep *s, size_t f)
{
	if (f == FIG_WALL) {
		html_text(out, "Wall time (s)");
	} else if (f < NFIGS) {
		enum reclaim_figure fig = f - FIG_CATALOGUE;

		html_text(out, reclaim_figure_text(fig, RECLAIM_FIGURE_LABEL));
		fputs(" (", out);
		html_text(out, reclaim_figure_text(fig, RECLAIM_FIGURE_TOTAL_UNIT));
		fputs(")", out);
	} else {
		html_text(out, s->metrics[f - NFIGS].name);
	}
}

/* The columns of the printed table, in order: the wall time, the metrics, then the rest. */
static size_t column_fig(const struct sweep *s, size_t col)
{
	if (col == 0)
		return FIG_WALL;
	if (col <= s->nmetrics)
		return NFIGS + col - 1;
	return col - s->nmetrics;
}

/* The table as printed: medians, one row per value. */
static void print_table(const struct sweep *s)
{
	size_t ncols = 3 + nfigs(s), nrows = s->ncombos + 1;
	char **cell = calloc(ncols * nrows, sizeof(*cell));
	size_t *width = calloc(ncols, sizeof(*width));

	if (!cell || !width)
		abort();
	for (size_t row = 0; row < nrows; row++) {
		size_t c = row - 1;

		for (size_t col = 0; col < ncols; col++) {
			char buf[64];

			if (row == 0) {
				snprintf(buf, sizeof(buf), "%s",
					 col == 0   ? "VALUE"
					 : col == 1 ? "RUNS"
					 : col == 2 ? "RATIO"
						    : fig_column(s, column_fig(s, col - 3)));
			} else if (col == 0) {
				snprintf(buf, sizeof(buf), "%s", s->labels[c]);
			} else if (col == 1) {
				size_t failed = count_state(s, c, RUN_FAILED);

				if (failed)
					snprintf(buf, sizeof(buf), "%zu+%zuF",
						 count_state(s, c, RUN_OK), failed);
				else
					snprintf(buf, sizeof(buf), "%zu",
						 count_state(s, c, RUN_OK));
			} else if (col == 2) {
				double ratio;

				if (ratio_of(s, c, primary(s), &ratio))
					snprintf(buf, sizeof(buf), "%.2f", ratio);
				else
					snprintf(buf, sizeof(buf), "-");
			} else {
				size_t f = column_fig(s, col - 3);
				struct stat_value st = stat_of(s, c, f);

				if (st.n)
					format_figure(buf, sizeof(buf), f, st.median);
				else
					snprintf(buf, sizeof(buf), "-");
			}
			cell[row * ncols + col] = strdup(buf);
			if (!cell[row * ncols + col])
				abort();
			if (strlen(buf) > width[col])
				width[col] = strlen(buf);
		}
	}
	for (size_t row = 0; row < nrows; row++) {
		for (size_t col = 0; col < ncols; col++) {
			const char *t = cell[row * ncols + col];

			if (col == 0)
				printf("%-*s", (int)width[col], t);
			else
				printf(" %*s", (int)width[col], t);
			free(cell[row * ncols + col]);
		}
		putchar('\n');
	}
	free(cell);
	free(width);
}

/* The report's own section: the table of values. */
static void html_section(FILE *out, void *data)
{
	const struct sweep *s = data;

	fputs("<h2>Sweep</h2>\n<p>Command: <code>", out);
	for (char **c = s->command; *c; c++) {
		html_text(out, *c);
		if (c[1])
			fputc(' ', out);
	}
	fprintf(out,
		"</code>; %ld repetition%s of each value, %s. Each cell: the median over the "
		"successful runs, then the lowest and highest and the ratio of the median to the "
		"first value's.</p>\n",
		s->repeat, s->repeat == 1 ? "" : "s", s->interleave ? "interleaved" : "in a row");
	fputs("<table class=\"summary\" id=\"sweep\">\n<tr><th scope=\"col\">Value</th>"
	      "<th scope=\"col\">Runs</th><th scope=\"col\">Ratio</th>",
	      out);
	for (size_t col = 0; col < nfigs(s); col++) {
		size_t f = column_fig(s, col);

		fprintf(out, "<th scope=\"col\" data-key=\"%s\">", fig_key(s, f));
		html_fig_label(out, s, f);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (size_t c = 0; c < s->ncombos; c++) {
		double ratio;

		fputs("<tr><th scope=\"row\">", out);
		html_text(out, s->labels[c]);
		fprintf(out, "</th><td>%zu", count_state(s, c, RUN_OK));
		if (count_state(s, c, RUN_FAILED))
			fprintf(out, " + %zu failed", count_state(s, c, RUN_FAILED));
		fputs("</td>", out);
		if (ratio_of(s, c, primary(s), &ratio))
			fprintf(out, "<td>%.2f</td>", ratio);
		else
			fputs("<td>\u2014</td>", out);
		for (size_t col = 0; col < nfigs(s); col++) {
			size_t f = column_fig(s, col);
			struct stat_value st = stat_of(s, c, f);
			char med[64], lo[64], hi[64];

			if (!st.n) {
				fputs("<td>\u2014</td>", out);
				continue;
			}
			format_figure(med, sizeof(med), f, st.median);
			format_figure(lo, sizeof(lo), f, st.min);
			format_figure(hi, sizeof(hi), f, st.max);
			fprintf(out, "<td>%s<br><small>%s\u2013%s", med, lo, hi);
			if (ratio_of(s, c, f, &ratio))
				fprintf(out, ", \u00d7%.2f", ratio);
			fputs("</small></td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static int write_file(const struct sweep *s, const char *name, void (*write)(FILE *, const void *),
		      const void *data)
{
	char *path = path_in(s, name);
	FILE *f = fopen(path, "we");
	int r = 0;

	if (!f)
		r = fail(EXIT_FAILURE, "cannot write %s: %s", path, strerror(errno));
	else {
		write(f, data);
		if (fclose(f) != 0)
			r = fail(EXIT_FAILURE, "cannot write %s: %s", path, strerror(errno));
	}
	free(path);
	return r;
}

static void write_json_file(FILE *f, const void *doc)
{
	char *text = cJSON_Print(doc);

	if (!text)
		abort();
	fprintf(f, "%s\n", text);
	free(text);
}

static void write_csv_file(FILE *f, const void *s)
{
	write_csv(f, s);
}

/* The runs recorded, grouped by value: their record files in DIR, in the order of report.html. */
static size_t recorded_runs(const struct sweep *s, const struct sweep_run **out)
{
	size_t n = 0;

	for (size_t c = 0; c < s->ncombos; c++)
		for (size_t i = 0; i < s->nruns; i++)
			if (s->runs[i].combo == c && s->runs[i].recorded)
				out[n++] = &s->runs[i];
	return n;
}

/* The runs recorded, grouped by value, into report.html. */
static int write_html_report(struct sweep *s)
{
	struct run *runs = calloc(s->nruns + 1, sizeof(*runs));
	const struct sweep_run **rec = calloc(s->nruns + 1, sizeof(*rec));
	struct report_extra extra = {html_section, s};
	char *path = path_in(s, "report.html");
	size_t nrec, n = 0;
	double tmax = 0;
	int r = 0;

	if (!runs || !rec)
		abort();
	nrec = recorded_runs(s, rec);
	for (size_t i = 0; i < nrec; i++) {
		char *file = path_in(s, rec[i]->file);

		tmax = fmax(tmax, run_last_elapsed(file));
		free(file);
	}
	for (size_t i = 0; i < nrec && r == 0; i++) {
		char *file = path_in(s, rec[i]->file);

		r = report_read(s->cli, file, &runs[n], tmax);
		/* the name in the page: the file in DIR, the page's neighbour */
		free(file);
		runs[n].file = rec[i]->file;
		n++;
	}
	if (r == 0 && n)
		r = write_report(path, runs, n, &extra);
	for (size_t i = 0; i < n; i++)
		run_free(&runs[i]);
	free(runs);
	free(rec);
	free(path);
	return r;
}

int write_summary(struct sweep *s, int sig)
{
	cJSON *doc = summary_json(s, sig);
	int r = write_file(s, "summary.json", write_json_file, doc);

	if (r == 0)
		r = write_file(s, "summary.csv", write_csv_file, s);
	if (r == 0)
		r = write_html_report(s);
	if (s->cli->json)
		json_print(doc);
	else if (s->done)
		print_table(s);
	cJSON_Delete(doc);
	return r;
}
