// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl monitor: one line per interval, like vmstat, of reclaim rates,
 * kswapd CPU use and memory pressure.
 */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "reclaimctl.h"
#include "sampling.h"
#include "tracing.h"

/* The columns of a line: group (over several columns), name, width, and the figure shown. */
struct column {
	const char *group, *name;
	int width;
	int figure; /* COL_NODE, COL_THREADS or an enum reclaim_figure */
};

enum { COL_NODE = -1, COL_THREADS = -2 };

/*
 * The node, the catalogue's figures (the latency ones with --latency alone),
 * and the kswapd thread count before their CPU use.
 */
#define NCOLS (_RECLAIM_FIGURE_MAX + 2)

static int columns_init(struct column *c, bool latency)
{
	int n = 0;

	c[n++] = (struct column){"", "node", 4, COL_NODE};
	for (enum reclaim_figure f = 0; f < _RECLAIM_FIGURE_MAX; f++) {
		if (reclaim_figure_kind(f) == RECLAIM_FIGURE_LATENCY && !latency)
			continue;
		if (f == RECLAIM_FIGURE_KSWAPD_CPU)
			c[n++] = (struct column){reclaim_figure_text(f, RECLAIM_FIGURE_GROUP), "n",
						 3, COL_THREADS};
		c[n++] = (struct column){reclaim_figure_text(f, RECLAIM_FIGURE_GROUP),
					 reclaim_figure_text(f, RECLAIM_FIGURE_HEADING),
					 reclaim_figure_width(f), (int)f};
	}
	return n;
}

struct monitor {
	struct cli *cli;
	struct column columns[NCOLS];
	int ncols;
	double interval;
	long count; /* 0: until interrupted */
	bool per_node;
	bool latency; /* also how long reclaim made tasks wait */
	int lines_per_header;
	int lines; /* data lines since the last header */
};

/* A rate that fits @width: plain, or with k, M, G as vmstat -w would not. */
static void format_rate(char *buf, size_t size, int width, double v)
{
	static const char units[] = "kMGT";
	double x = round(v);

	snprintf(buf, size, "%.0f", x);
	for (int u = 0; (int)strlen(buf) > width && units[u]; u++) {
		x /= 1000.0;
		snprintf(buf, size, "%.0f%c", x, units[u]);
	}
}

static void cell(char *line, size_t size, size_t *len, int width, bool lead, const char *text)
{
	int n = snprintf(line + *len, size - *len, "%s%*s", lead ? " " : "", width, text);

	if (n > 0 && (size_t)n < size - *len)
		*len += (size_t)n;
}

/* "--pgscan/s--": @title centred in @width with dashes, as vmstat does; blanks without a title. */
static size_t centre(char *out, const char *title, int width)
{
	int tl = (int)strlen(title), left = (width - tl) / 2, i = 0;

	if (left < 0)
		left = 0;
	for (; i < left; i++)
		out[i] = tl ? '-' : ' ';
	memcpy(out + i, title, (size_t)tl);
	for (i += tl; i < width; i++)
		out[i] = tl ? '-' : ' ';
	out[i] = '\0';
	return (size_t)i;
}

static void print_header(const struct monitor *m)
{
	const struct column *col = m->columns;
	char groups[512], names[512];
	size_t g = 0, n = 0;
	int first = m->per_node ? 0 : 1;

	for (int c = first; c < m->ncols;) {
		int end = c, span = -1;

		while (end < m->ncols && strcmp(col[end].group, col[c].group) == 0)
			span += col[end++].width + 1;
		if (c > first)
			groups[g++] = ' ';
		g += centre(groups + g, col[c].group, span);
		for (; c < end; c++)
			cell(names, sizeof(names), &n, col[c].width, c > first, col[c].name);
	}
	printf("%s\n%s\n", groups, names);
}

/* The text of figure @f: a rate that fits, a percentage, or "-" when not measured. */
static void format_figure(char *buf, size_t size, int width, const struct row *r,
			  enum reclaim_figure f)
{
	if (!r->has[f])
		snprintf(buf, size, "-");
	else if (reclaim_figure_kind(f) == RECLAIM_FIGURE_RATE ||
		 reclaim_figure_kind(f) == RECLAIM_FIGURE_LATENCY)
		format_rate(buf, size, width, r->value[f]);
	else if (reclaim_figure_kind(f) == RECLAIM_FIGURE_PRESSURE)
		snprintf(buf, size, "%.2f", r->value[f]);
	else
		snprintf(buf, size, "%.1f", r->value[f]);
}

static void print_row(const struct monitor *m, const struct row *r, int node)
{
	char line[512], buf[32];
	size_t len = 0;
	int first = m->per_node ? 0 : 1;

	for (int c = first; c < m->ncols; c++) {
		const struct column *col = &m->columns[c];

		if (col->figure == COL_NODE && node < 0)
			snprintf(buf, sizeof(buf), "all");
		else if (col->figure == COL_NODE)
			snprintf(buf, sizeof(buf), "%d", node);
		else if (col->figure == COL_THREADS)
			snprintf(buf, sizeof(buf), "%zu", r->threads);
		else
			format_figure(buf, sizeof(buf), col->width, r,
				      (enum reclaim_figure)col->figure);
		cell(line, sizeof(line), &len, col->width, c > first, buf);
	}
	puts(line);
}

static void print_text(struct monitor *m, const struct reclaim_sample *prev,
		       const struct reclaim_sample *cur)
{
	int rows = 1 + (m->per_node ? (int)reclaim_sample_node_count(cur) : 0);
	struct row r;

	if (m->lines == 0 || m->lines > m->lines_per_header - rows) {
		if (!m->cli->out.noheadings)
			print_header(m);
		m->lines = 0;
	}
	row_compute(&r, prev, cur, -1);
	print_row(m, &r, -1);
	for (size_t i = 0; m->per_node && i < reclaim_sample_node_count(cur); i++) {
		int node = reclaim_sample_node_id(cur, i);

		row_compute(&r, prev, cur, node);
		print_row(m, &r, node);
	}
	m->lines += rows;
}

static void print_json(const struct monitor *m, const struct reclaim_sample *first,
		       const struct reclaim_sample *prev, const struct reclaim_sample *cur)
{
	cJSON *o = cJSON_CreateObject();
	struct row r;
	char *s;

	cJSON_AddNumberToObject(o, "schema", JSON_SCHEMA);
	json_add_time(o, "time", (int64_t)reclaim_sample_realtime_ns(cur));
	cJSON_AddNumberToObject(o, "elapsed", round_to(reclaim_sample_interval(first, cur), 3));
	row_compute(&r, prev, cur, -1);
	cJSON_AddNumberToObject(o, "interval", round_to(r.interval, 3));
	row_add_json(o, &r, -1, cur);
	if (m->per_node) {
		cJSON *a = cJSON_AddArrayToObject(o, "nodes");

		for (size_t i = 0; i < reclaim_sample_node_count(cur); i++) {
			cJSON *n = cJSON_CreateObject();
			int node = reclaim_sample_node_id(cur, i);

			row_compute(&r, prev, cur, node);
			row_add_json(n, &r, node, cur);
			cJSON_AddItemToArray(a, n);
		}
	}
	s = cJSON_PrintUnformatted(o);
	if (!s)
		abort();
	puts(s);
	free(s);
	cJSON_Delete(o);
}

/* Data lines between headers: a screenful on a terminal; elsewhere one header only. */
static int lines_per_header(void)
{
	struct winsize ws;

	if (!isatty(STDOUT_FILENO))
		return INT_MAX;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 5)
		return ws.ws_row - 3;
	return 22;
}

static int run_loop(struct monitor *m, struct reclaim_sampler *sampler)
{
	struct reclaim_sample *first, *prev, *cur;
	uint64_t start, step = (uint64_t)(m->interval * 1e9);
	int r = 0;

	if (reclaim_sampler_read(sampler, &first) < 0)
		return lib_fail(m->cli, EXIT_FAILURE, NULL);
	start = reclaim_sample_monotonic_ns(first);
	prev = reclaim_sample_ref(first);
	for (long n = 1, tick = 1; m->count == 0 || n <= m->count; n++, tick++) {
		tick = (long)next_tick(start, step, (uint64_t)tick);
		while (!sleep_until(start + (uint64_t)tick * step) && !tracing_signal())
			;
		if (tracing_signal())
			break;
		if (reclaim_sampler_read(sampler, &cur) < 0) {
			r = lib_fail(m->cli, EXIT_FAILURE, NULL);
			break;
		}
		if (m->cli->json)
			print_json(m, first, prev, cur);
		else
			print_text(m, prev, cur);
		flush_stdout();
		reclaim_sample_unref(prev);
		prev = cur;
		if (ferror(stdout))
			break;
	}
	reclaim_sample_unref(prev);
	reclaim_sample_unref(first);
	return r;
}

static void monitor_help(FILE *out)
{
	fputs("Prints, every interval, the reclaim rates per second: pages scanned and\n"
	      "reclaimed by kswapd and by direct reclaim, direct reclaim stalls\n"
	      "(allocstall) and throttled waits, pages swapped in and out, refaults;\n"
	      "the kswapd threads' CPU use (n threads, sum and busiest, % of one CPU) and\n"
	      "memory pressure (PSI some/full avg10). A counter that went backwards\n"
	      "counts 0 for that interval. The first line comes after one interval.\n"
	      "The header is repeated every screenful on a terminal, printed once\n"
	      "elsewhere; the columns are fixed, as vmstat's.\n"
	      "\nOptions:\n"
	      "  -i, --interval SECONDS  time between lines (default 1; fractions allowed)\n"
	      "  -c, --count N           stop after N lines (default: until interrupted)\n"
	      "  -N, --per-node          also a line per NUMA node (refaults, kswapd CPU)\n"
	      "  -L, --latency           also the 99th percentile and the longest of direct\n"
	      "                          reclaims, and the throttle's 99th percentile, in us\n"
	      "                          (traced as 'reclaimctl latency' does; needs root)\n"
	      "  -n, --noheadings        no header lines\n"
	      "  -J, --json              one JSON object per line (JSON lines)\n"
	      "  -h, --help              this help\n",
	      out);
}

static int parse_options(struct monitor *m, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"interval", required_argument, NULL, 'i'},
	    {"count", required_argument, NULL, 'c'},
	    {"per-node", no_argument, NULL, 'N'},
	    {"latency", no_argument, NULL, 'L'},
	    {"noheadings", no_argument, NULL, 'n'},
	    COMMON_LONG_OPTIONS,
	    {0},
	};
	int c;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS "i:c:NLn", opts, NULL)) != -1) {
		bool done;
		int r;

		switch (c) {
		case 'i':
			r = parse_interval("monitor", optarg, &m->interval);
			if (r)
				return r;
			break;
		case 'c':
			if (!parse_count(optarg, &m->count))
				return usage_error("monitor: --count: not a positive number: '%s'",
						   optarg);
			break;
		case 'N':
			m->per_node = true;
			break;
		case 'L':
			m->latency = true;
			break;
		case 'n':
			m->cli->out.noheadings = true;
			break;
		default:
			r = common_option(m->cli, &cmd_monitor, c, argv, &done);
			if (done)
				return r ? r : -1;
		}
	}
	if (optind < argc)
		return usage_error("monitor: unexpected argument '%s'", argv[optind]);
	return 0;
}

static int run_monitor(struct cli *cli, int argc, char **argv)
{
	struct monitor m = {.cli = cli, .interval = 1.0};
	struct reclaim_sampler *sampler;
	unsigned flags;
	int r;

	r = parse_options(&m, argc, argv);
	if (r)
		return r < 0 ? 0 : r;
	m.ncols = columns_init(m.columns, m.latency);
	m.lines_per_header = lines_per_header();
	flags =
	    (m.per_node ? RECLAIM_SAMPLER_NODES : 0) | (m.latency ? RECLAIM_SAMPLER_LATENCY : 0);
	if (m.latency)
		tracing_catch_signals();
	if (reclaim_sampler_new(cli->ctx, flags, &sampler) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	if (m.latency)
		tracing_started(reclaim_sampler_latency(sampler));
	r = run_loop(&m, sampler);
	reclaim_sampler_unref(sampler);
	tracing_exit_as_signalled();
	return r;
}

const struct command cmd_monitor = {
    .name = "monitor",
    .run = run_monitor,
    .args = "[-i SECONDS] [-c COUNT] [--per-node] [--latency] [-n] [--json]",
    .summary = "Show reclaim rates, kswapd CPU and pressure every interval",
    .help = monitor_help,
};
