// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl report: recorded runs (reclaimctl record) as one self-contained
 * HTML page: a summary table with a column per run, then each chart once per
 * run, side by side on one scale. No script, no external resource.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reclaimctl.h"
#include "report.h"

static const struct chart charts[] = {
    {"pgscan",
     "Pages scanned per second: kswapd vs direct reclaim",
     "pages/s",
     false,
     {"pgscan_kswapd", "pgscan_direct"},
     {"kswapd", "direct"}},
    {"stalls",
     "Direct reclaim stalls and throttled waits per second",
     "events/s",
     false,
     {"allocstall", "direct_reclaim_throttled"},
     {"stalls (allocstall)", "throttled waits"}},
    {"kswapd", "kswapd CPU use per thread", "% of one CPU", true, {NULL, NULL}, {NULL, NULL}},
    {"psi",
     "Memory pressure (PSI avg10)",
     "% of time",
     false,
     {"psi_some_avg10", "psi_full_avg10"},
     {"some", "full"}},
    {"swap",
     "Pages swapped in and out per second",
     "pages/s",
     false,
     {"pswpin", "pswpout"},
     {"in", "out"}},
};

#define NCHARTS (sizeof(charts) / sizeof(charts[0]))

/* Totals over a run: each is the sum of the deltas between consecutive samples. */
static const struct {
	const char *key, *counter, *label, *alt; /* alt: another name (older kernels) */
} totals[] = {
    {"pgscan_kswapd", "pgscan_kswapd", "Pages scanned by kswapd", NULL},
    {"pgscan_direct", "pgscan_direct", "Pages scanned by direct reclaim", NULL},
    {"pgsteal_kswapd", "pgsteal_kswapd", "Pages reclaimed by kswapd", NULL},
    {"pgsteal_direct", "pgsteal_direct", "Pages reclaimed by direct reclaim", NULL},
    {"allocstall", "allocstall_", "Direct reclaims (allocstall)", NULL},
    {"direct_reclaim_throttled", "direct_reclaim_throttled", "Throttled direct reclaims", NULL},
    {"pswpin", "pswpin", "Pages swapped in", NULL},
    {"pswpout", "pswpout", "Pages swapped out", NULL},
    {"workingset_refault", "workingset_refault_", "Refaults", "workingset_refault"},
};

#define NTOTALS (sizeof(totals) / sizeof(totals[0]))

_Static_assert(NTOTALS == NRUN_TOTALS, "report.h's enum run_total follows totals[]");

/* ---- reading a recorded file ---- */

void run_free(struct run *r)
{
	for (size_t i = 0; i < r->nsamples; i++)
		cJSON_Delete(r->samples[i]);
	for (size_t i = 0; i < r->nevents; i++)
		free(r->events[i].label);
	cJSON_Delete(r->header);
	cJSON_Delete(r->end);
	free(r->samples);
	free(r->events);
}

static const char *string_of(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(x) ? x->valuestring : NULL;
}

static double number_of(const cJSON *o, const char *key, double def)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(x) ? x->valuedouble : def;
}

static void format_knob_value(char *buf, size_t size, const cJSON *v)
{
	if (cJSON_IsNumber(v))
		snprintf(buf, size, "%.0f", v->valuedouble);
	else
		snprintf(buf, size, "none");
}

static void add_event(struct run *r, cJSON *o)
{
	char old[32], new[32], *label;
	struct event *v;

	if (strcmp(string_of(o, "event") ? string_of(o, "event") : "", "knob") != 0)
		return;
	format_knob_value(old, sizeof(old), cJSON_GetObjectItemCaseSensitive(o, "old"));
	format_knob_value(new, sizeof(new), cJSON_GetObjectItemCaseSensitive(o, "new"));
	if (asprintf(&label, "%s %s\u2192%s", string_of(o, "knob") ? string_of(o, "knob") : "?",
		     old, new) < 0)
		abort();
	v = realloc(r->events, (r->nevents + 1) * sizeof(*v));
	if (!v)
		abort();
	r->events = v;
	v[r->nevents++] = (struct event){number_of(o, "elapsed", 0), label};
}

/*
 * The first number of @o (depth first) that no recording holds: not finite
 * (1e400 parses as infinity), beyond a 64-bit counter, or a negative
 * counter or time; its key in *key. NULL if all are sane.
 */
#define NUMBER_MAX  18446744073709551615.0 /* UINT64_MAX */
#define ELAPSED_MAX 1e9			   /* about 31 years of recording */

static const cJSON *bad_number(const cJSON *o, const char *parent)
{
	const cJSON *c;

	if (cJSON_IsNumber(o)) {
		const char *k = o->string ? o->string : parent;
		bool time = k && (strcmp(k, "elapsed") == 0 || strcmp(k, "interval") == 0);
		bool counter = parent && strcmp(parent, "counters") == 0;
		double v = o->valuedouble;

		if (!isfinite(v) || fabs(v) > NUMBER_MAX || ((counter || time) && v < 0) ||
		    (time && v > ELAPSED_MAX))
			return o;
		return NULL;
	}
	cJSON_ArrayForEach(c, o)
	{
		const cJSON *bad = bad_number(c, o->string ? o->string : parent);

		if (bad)
			return bad;
	}
	return NULL;
}

/* Takes one parsed line; 0, or -EINVAL for a line that is no record line. */
static int add_line(struct run *r, cJSON *o)
{
	const char *type = string_of(o, "type");
	cJSON **v;

	if (!type)
		return -EINVAL;
	if (strcmp(type, "header") == 0 && !r->header) {
		r->header = o;
	} else if (strcmp(type, "end") == 0 && !r->end) {
		r->end = o;
	} else if (strcmp(type, "sample") == 0) {
		v = realloc(r->samples, (r->nsamples + 1) * sizeof(*v));
		if (!v)
			abort();
		r->samples = v;
		v[r->nsamples++] = o;
		if (number_of(o, "elapsed", 0) > r->duration)
			r->duration = number_of(o, "elapsed", 0);
	} else {
		if (strcmp(type, "event") == 0)
			add_event(r, o);
		cJSON_Delete(o);
	}
	return 0;
}

/* A FIFO or a device in place of a recording would hang or never end: refused. */
static FILE *open_recording(const char *file)
{
	struct stat st;
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EBADFD;
		return NULL;
	}
	f = fdopen(fd, "re");
	if (!f)
		close(fd);
	return f;
}

int read_run(const char *file, struct run *r)
{
	FILE *f = open_recording(file);
	char *line = NULL;
	size_t size = 0, n = 0;
	ssize_t len;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	r->file = (char *)file;
	if (!f)
		return fail(EXIT_FAILURE, "cannot read %s: %s", file,
			    errno == EBADFD ? "not a regular file" : strerror(errno));
	while ((len = getline(&line, &size, f)) > 0) {
		cJSON *o;

		n++;
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		o = cJSON_Parse(line);
		if (!o && line[len - 1] != '\n') {
			/* the last line of a recording that was killed while writing it */
			warnmsg("%s:%zu: incomplete last line ignored", file, n);
			break;
		}
		if (o && bad_number(o, NULL)) {
			const cJSON *bad = bad_number(o, NULL);

			ret = fail(EXIT_FAILURE, "%s:%zu: %s%s%s is not a number a recording holds",
				   file, n, bad->string ? "\"" : "a number",
				   bad->string ? bad->string : "", bad->string ? "\"" : "");
			cJSON_Delete(o);
			break;
		}
		if (!o || add_line(r, o) < 0) {
			cJSON_Delete(o);
			ret = fail(EXIT_FAILURE, "%s:%zu: not a line of a reclaimctl record file",
				   file, n);
			break;
		}
	}
	free(line);
	fclose(f);
	if (ret == 0 && !r->header)
		ret = fail(EXIT_FAILURE, "%s: not a reclaimctl record file (no header line)", file);
	else if (ret == 0 && r->nsamples == 0)
		ret = fail(EXIT_FAILURE, "%s: no samples", file);
	return ret;
}

/* ---- the summary ---- */

/* A counter as the library takes it: explicit about what a double cannot be. */
static uint64_t counter_of(double v)
{
	if (!(v > 0))
		return 0;
	return v >= NUMBER_MAX ? UINT64_MAX : (uint64_t)v;
}

static void add_counter_deltas(struct summary *s, const cJSON *a, const cJSON *b)
{
	const cJSON *ca = cJSON_GetObjectItemCaseSensitive(a, "counters");
	const cJSON *cb = cJSON_GetObjectItemCaseSensitive(b, "counters"), *c;

	cJSON_ArrayForEach(c, cb)
	{
		const cJSON *old = cJSON_GetObjectItemCaseSensitive(ca, c->string);

		if (!cJSON_IsNumber(c) || !cJSON_IsNumber(old))
			continue;
		for (size_t t = 0; t < NTOTALS; t++) {
			const char *name = totals[t].counter;
			size_t len = strlen(name);
			bool match = name[len - 1] == '_' ? strncmp(c->string, name, len) == 0
							  : strcmp(c->string, name) == 0;

			if (totals[t].alt && strcmp(c->string, totals[t].alt) == 0)
				match = true;
			if (!match)
				continue;
			s->has[t] = true;
			s->total[t] += (double)reclaim_counter_delta(counter_of(old->valuedouble),
								     counter_of(c->valuedouble));
		}
	}
}

/* Each kswapd thread's CPU seconds over a run, by name: the busiest one's. */
struct thread_time {
	const char *name;
	double seconds;
};

static void thread_add(struct thread_time **t, size_t *n, const char *name, double seconds)
{
	struct thread_time *v;

	for (size_t i = 0; i < *n; i++)
		if (strcmp((*t)[i].name, name) == 0) {
			(*t)[i].seconds += seconds;
			return;
		}
	v = realloc(*t, (*n + 1) * sizeof(*v));
	if (!v)
		abort();
	*t = v;
	v[(*n)++] = (struct thread_time){name, seconds};
}

/* The rule of the library: a thread new in @b (another pid) counts from 0. */
static void add_thread_deltas(struct summary *s, const cJSON *a, const cJSON *b,
			      struct thread_time **t, size_t *nt)
{
	const cJSON *ta = cJSON_GetObjectItemCaseSensitive(a, "threads");
	const cJSON *tb = cJSON_GetObjectItemCaseSensitive(b, "threads"), *x, *y;

	cJSON_ArrayForEach(y, tb)
	{
		double now = number_of(y, "cpu_seconds", 0), before = 0;

		cJSON_ArrayForEach(x, ta)
		{
			if (number_of(x, "pid", -1) == number_of(y, "pid", -2))
				before = number_of(x, "cpu_seconds", 0);
		}
		if (now > before) {
			s->kswapd_seconds += now - before;
			thread_add(t, nt, string_of(y, "name") ? string_of(y, "name") : "?",
				   now - before);
		}
	}
}

static void add_pressure_deltas(struct summary *s, const cJSON *a, const cJSON *b)
{
	static const char *const keys[] = {"psi_some_total_us", "psi_full_total_us"};

	for (int k = 0; k < 2; k++) {
		double x = number_of(a, keys[k], -1), y = number_of(b, keys[k], -1);

		if (x < 0 || y < 0)
			continue;
		*(k ? &s->has_full : &s->has_some) = true;
		*(k ? &s->full_seconds : &s->some_seconds) +=
		    (double)reclaim_counter_delta(counter_of(x), counter_of(y)) / 1e6;
	}
}

void summarize(const struct run *r, struct summary *s)
{
	struct thread_time *t = NULL;
	size_t nt = 0;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < r->nsamples; i++) {
		double peak = number_of(r->samples[i], "kswapd_cpu_percent", 0);

		if (peak > s->kswapd_peak)
			s->kswapd_peak = peak;
		if (i == 0)
			continue;
		add_counter_deltas(s, r->samples[i - 1], r->samples[i]);
		add_thread_deltas(s, r->samples[i - 1], r->samples[i], &t, &nt);
		add_pressure_deltas(s, r->samples[i - 1], r->samples[i]);
	}
	for (size_t i = 0; i < nt; i++)
		if (t[i].seconds > s->kswapd_busiest_seconds)
			s->kswapd_busiest_seconds = t[i].seconds;
	free(t);
}

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

			format_knob_value(v, sizeof(v), cJSON_GetObjectItemCaseSensitive(kn, name));
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

static void rows_totals(FILE *out, const struct run *runs, const struct summary *s, size_t n)
{
	for (size_t t = 0; t < NTOTALS; t++) {
		row_start(out, totals[t].key, totals[t].label);
		for (size_t i = 0; i < n; i++) {
			if (!s[i].has[t]) {
				fputs("<td>\u2014</td>", out);
				continue;
			}
			fprintf(out, "<td>%.0f<br><small>%.1f/s</small></td>", s[i].total[t],
				runs[i].duration > 0 ? s[i].total[t] / runs[i].duration : 0);
		}
		fputs("</tr>\n", out);
	}
	row_start(out, "kswapd_cpu", "kswapd CPU time (all threads)");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "<td>%.2f s<br><small>avg %.1f %%, peak %.1f %%</small></td>",
			s[i].kswapd_seconds,
			runs[i].duration > 0 ? s[i].kswapd_seconds / runs[i].duration * 100 : 0,
			s[i].kswapd_peak);
	fputs("</tr>\n", out);
	for (int k = 0; k < 2; k++) {
		row_start(out, k ? "psi_full" : "psi_some",
			  k ? "PSI full: all tasks stalled" : "PSI some: a task stalled");
		for (size_t i = 0; i < n; i++) {
			bool has = k ? s[i].has_full : s[i].has_some;
			double v = k ? s[i].full_seconds : s[i].some_seconds;

			if (has)
				fprintf(out,
					"<td>%.2f s<br><small>%.1f %% of the time</small></td>", v,
					runs[i].duration > 0 ? v / runs[i].duration * 100 : 0);
			else
				fputs("<td>\u2014</td>", out);
		}
		fputs("</tr>\n", out);
	}
}

static void summary_table(FILE *out, const struct run *runs, size_t n)
{
	struct summary *s = calloc(n, sizeof(*s));

	if (!s)
		abort();
	for (size_t i = 0; i < n; i++)
		summarize(&runs[i], &s[i]);
	fputs("<h2>Summary</h2>\n<table class=\"summary\" id=\"summary\">\n<tr><th></th>", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "<th scope=\"col\">run %zu</th>", i + 1);
	fputs("</tr>\n", out);
	rows_run(out, runs, n);
	rows_knobs(out, runs, n);
	rows_totals(out, runs, s, n);
	fputs("</table>\n", out);
	free(s);
}

/* The largest value of @chart over all runs, so that their charts share a scale. */
static double chart_max(const struct chart *chart, const struct run *runs, size_t n)
{
	double max = 0;

	for (size_t i = 0; i < n; i++) {
		struct series *s;
		size_t ns = chart_series(chart, &runs[i], &s);

		for (size_t j = 0; j < ns; j++)
			for (size_t k = 0; k < s[j].n; k++)
				if (s[j].p[k].v > max)
					max = s[j].p[k].v;
		series_free(s, ns);
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
	for (size_t c = 0; c < NCHARTS; c++)
		chart_section(out, &charts[c], runs, n, tmax);
	fputs("</body>\n</html>\n", out);
}

/* ---- the command ---- */

static void report_help(FILE *out)
{
	fputs("Turns files written by 'reclaimctl record' into one self-contained HTML\n"
	      "page (no scripts, nothing loaded from elsewhere): a summary table with one\n"
	      "column per run (totals and averages of pages scanned by kswapd and\n"
	      "directly, direct reclaims, throttled waits, swap, kswapd CPU, PSI; the\n"
	      "command's exit status and wall time) and SVG charts over time, one per run\n"
	      "side by side on the same scale, with knob changes marked.\n"
	      "\nOptions:\n"
	      "  -o, --output FILE   the HTML file to write ('-': standard output)\n"
	      "  -h, --help          this help\n",
	      out);
}

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

static int run_report(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"output", required_argument, NULL, 'o'},
	    COMMON_LONG_OPTIONS,
	    {0},
	};
	const char *output = NULL;
	struct run *runs;
	size_t n = 0;
	int c, r = 0;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS "o:", opts, NULL)) != -1) {
		bool done;

		if (c == 'o') {
			output = optarg;
			continue;
		}
		r = common_option(cli, &cmd_report, c, argv, &done);
		if (done)
			return r;
	}
	if (optind >= argc)
		return usage_error("report: needs at least one record FILE");
	if (!output)
		return usage_error("report: needs --output FILE");
	runs = calloc((size_t)(argc - optind), sizeof(*runs));
	if (!runs)
		abort();
	for (int i = optind; i < argc && r == 0; i++)
		r = read_run(argv[i], &runs[n++]);
	if (r == 0)
		r = write_report(output, runs, n, NULL);
	for (size_t i = 0; i < n; i++)
		run_free(&runs[i]);
	free(runs);
	return r;
}

const struct command cmd_report = {
    .name = "report",
    .run = run_report,
    .args = "FILE... -o OUTPUT",
    .summary = "Render recorded runs as one HTML page with charts",
    .help = report_help,
};
