// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl latency: how long tasks wait in direct reclaim (global and in
 * memory cgroups) and at the direct reclaim throttle, from histograms the
 * kernel keeps in a tracefs instance of this run (libreclaim's
 * reclaim_latency). The instance goes with the run, whatever ends it.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "reclaimctl.h"
#include "sampling.h"
#include "snapshot.h"
#include "tracing.h"

struct latency {
	struct cli *cli;
	double interval; /* 0: one report at the end */
	double duration; /* 0: until interrupted */
	bool histogram;
	long per_task;	      /* 0: the kinds; N: the N tasks of each kind that waited longest */
	bool prometheus;      /* the run in Prometheus' format, at its end */
	const char *textfile; /* a directory: the run so far, at each interval, for node_exporter */
	struct reclaim_latency *lat;
};

/* With --textfile: a line every 15 s until stopped, unless told otherwise. */
#define TEXTFILE_INTERVAL 15.0

enum {
	L_KIND,
	L_COUNT,
	L_P50,
	L_P90,
	L_P99,
	L_MAX,
	L_TOTAL,
	L_DROPPED,
};

static const struct colinfo latency_cols[] = {
    [L_KIND] = {"KIND", 0, 0,
		"direct, memcg (direct reclaim in a memory cgroup), throttle or kswapd (a kswapd "
		"thread's runs)",
		"kind", CJ_STRING},
    [L_COUNT] = {"COUNT", 0, COL_RIGHT, "reclaims, throttle waits or kswapd runs that ended",
		 "count", CJ_NUMBER},
    [L_P50] = {"P50_US", 0, COL_RIGHT, "half took at most this long (us)", "p50_us", CJ_NUMBER},
    [L_P90] = {"P90_US", 0, COL_RIGHT, "90% took at most this long (us)", "p90_us", CJ_NUMBER},
    [L_P99] = {"P99_US", 0, COL_RIGHT, "99% took at most this long (us)", "p99_us", CJ_NUMBER},
    [L_MAX] = {"MAX_US", 0, COL_RIGHT,
	       "the longest (us): exact in the run, and in an interval when it was its task's "
	       "longest so far",
	       "max_us", CJ_NUMBER},
    [L_TOTAL] = {"TOTAL_MS", 0, COL_RIGHT, "milliseconds of them all", "total_ms", CJ_NUMBER},
    [L_DROPPED] = {"DROPPED", 0, COL_RIGHT,
		   "not counted: the kernel's histogram was full, or out of range", "dropped",
		   CJ_NUMBER},
};

static const struct coltable latency_columns =
    COLTABLE("kinds", latency_cols, "KIND,COUNT,P50_US,P90_US,P99_US,MAX_US,TOTAL_MS", "kinds[]");

enum {
	T_KIND,
	T_PID,
	T_COMM,
	T_COUNT,
	T_TOTAL,
	T_MAX,
	T_CGROUP,
};

static const struct colinfo task_cols[] = {
    [T_KIND] = {"KIND", 0, 0, "direct, memcg, throttle or kswapd", "kind", CJ_STRING},
    [T_PID] = {"PID", 0, COL_RIGHT, "the task (a kswapd thread for kswapd)", "pid", CJ_NUMBER},
    [T_COMM] = {"COMM", 0, 0, "its name", "comm", CJ_STRING},
    [T_COUNT] = {"COUNT", 0, COL_RIGHT, "its reclaims, waits or kswapd runs", "count", CJ_NUMBER},
    [T_TOTAL] = {"TOTAL_MS", 0, COL_RIGHT, "milliseconds of them all", "total_ms", CJ_NUMBER},
    [T_MAX] = {"MAX_US", 0, COL_RIGHT, "its longest since the start (us), exact", "max_us",
	       CJ_NUMBER},
    [T_CGROUP] = {"CGROUP", 0.3, COL_TRUNC, "its cgroup (v2) when first seen; - if it had ended",
		  "cgroup", CJ_STRING},
};

static const struct coltable task_columns =
    COLTABLE("tasks", task_cols, "KIND,PID,COMM,COUNT,TOTAL_MS,MAX_US,CGROUP", "tasks[]");

static const struct coltable *columns(const struct latency *s)
{
	return s->per_task ? &task_columns : &latency_columns;
}

static void set_ms(struct table *t, int id, uint64_t us)
{
	double ms = (double)us / 1e3;
	char text[32];

	snprintf(text, sizeof(text), "%.1f", ms);
	table_set_value(t, id, text, cJSON_CreateNumber(round_to(ms, 3)));
}

/* The tasks of each kind that waited longest over @span, at most s->per_task of each. */
static void fill_tasks(struct table *t, const struct latency *s, enum reclaim_latency_span span)
{
	const struct reclaim_latency *l = s->lat;

	for (size_t i = 0; i < reclaim_latency_kind_count(); i++) {
		enum reclaim_latency_kind k = (enum reclaim_latency_kind)i;
		size_t n = reclaim_latency_task_count(l, k, span);

		for (size_t j = 0; j < n && j < (size_t)s->per_task; j++) {
			table_row(t);
			table_set_str(t, T_KIND, reclaim_latency_kind_name(k));
			table_set_int(t, T_PID, reclaim_latency_task_pid(l, k, span, j));
			table_set_str(t, T_COMM, reclaim_latency_task_comm(l, k, span, j));
			table_set_uint(t, T_COUNT, reclaim_latency_task_waits(l, k, span, j));
			set_ms(t, T_TOTAL, reclaim_latency_task_total_us(l, k, span, j));
			table_set_uint(t, T_MAX, reclaim_latency_task_max_us(l, k, span, j));
			table_set_str(t, T_CGROUP, reclaim_latency_task_cgroup(l, k, span, j));
		}
	}
}

static void set_percentile(struct table *t, int id, const struct reclaim_latency *l,
			   enum reclaim_latency_kind k, enum reclaim_latency_span span,
			   unsigned permille)
{
	if (reclaim_latency_count(l, k, span))
		table_set_uint(t, id, reclaim_latency_percentile_us(l, k, span, permille));
	else
		table_set_value(t, id, NULL, NULL); /* "-", null */
}

static cJSON *json_histogram(const struct reclaim_latency *l, enum reclaim_latency_kind k,
			     enum reclaim_latency_span span)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t b = 0; b < reclaim_latency_bucket_count(); b++) {
		uint64_t n = reclaim_latency_bucket(l, k, span, b);
		cJSON *o;

		if (!n)
			continue;
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "le_us", (double)(1ULL << b));
		cJSON_AddNumberToObject(o, "count", (double)n);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static void fill_kinds(struct table *t, const struct latency *s, enum reclaim_latency_span span)
{
	const struct reclaim_latency *l = s->lat;

	for (size_t i = 0; i < reclaim_latency_kind_count(); i++) {
		enum reclaim_latency_kind k = (enum reclaim_latency_kind)i;

		if (!reclaim_latency_has(l, k))
			continue;
		table_row(t);
		table_set_value(t, L_KIND, reclaim_latency_kind_name(k),
				cJSON_CreateString(reclaim_latency_kind_name(k)));
		table_set_uint(t, L_COUNT, reclaim_latency_count(l, k, span));
		set_percentile(t, L_P50, l, k, span, 500);
		set_percentile(t, L_P90, l, k, span, 900);
		set_percentile(t, L_P99, l, k, span, 990);
		if (reclaim_latency_count(l, k, span))
			table_set_uint(t, L_MAX, reclaim_latency_max_us(l, k, span));
		else
			table_set_value(t, L_MAX, NULL, NULL);
		set_ms(t, L_TOTAL, reclaim_latency_total_us(l, k, span));
		table_set_uint(t, L_DROPPED, reclaim_latency_dropped(l, k, span));
		if (s->histogram)
			table_json_add(t, "histogram", json_histogram(l, k, span));
	}
}

/* The log2 histogram of each kind that has durations, as bcc's tools print theirs. */
static void print_histogram(const struct reclaim_latency *l, enum reclaim_latency_span span)
{
	for (size_t i = 0; i < reclaim_latency_kind_count(); i++) {
		enum reclaim_latency_kind k = (enum reclaim_latency_kind)i;
		uint64_t most = 0;
		size_t first = SIZE_MAX, last = 0;

		for (size_t b = 0; b < reclaim_latency_bucket_count(); b++) {
			uint64_t n = reclaim_latency_bucket(l, k, span, b);

			if (!n)
				continue;
			first = first == SIZE_MAX ? b : first;
			last = b;
			most = n > most ? n : most;
		}
		if (first == SIZE_MAX)
			continue;
		printf("\n%s:\n%22s : %-10s %s\n", reclaim_latency_kind_name(k), "usecs", "count",
		       "distribution");
		for (size_t b = first; b <= last; b++) {
			uint64_t n = reclaim_latency_bucket(l, k, span, b);
			unsigned long long lo = b ? (1ULL << (b - 1)) + 1 : 0, hi = 1ULL << b;
			int stars = (int)(n * 40 / most);

			printf("%10llu -> %-9llu : %-10llu |%-40.*s|\n", lo, hi,
			       (unsigned long long)n, stars,
			       "****************************************");
		}
	}
}

static void print_text(const struct latency *s, enum reclaim_latency_span span, double secs)
{
	bool titles = !script_output(s->cli) && !s->cli->out.raw;
	struct table *t;

	if (titles && s->per_task)
		printf("Tasks that waited longest over %.1f s%s:\n", secs,
		       span == RECLAIM_LATENCY_RUN && s->interval > 0 ? " in all" : "");
	else if (titles)
		printf("Reclaim latency over %.1f s%s (percentiles are the upper end of their "
		       "log2 bucket, at most the longest):\n",
		       secs, span == RECLAIM_LATENCY_RUN && s->interval > 0 ? " in all" : "");
	t = table_new(s->cli, columns(s));
	if (s->per_task)
		fill_tasks(t, s, span);
	else
		fill_kinds(t, s, span);
	table_print(t);
	table_free(t);
	if (s->histogram)
		print_histogram(s->lat, span);
	fflush(stdout);
}

static void print_json(const struct latency *s, enum reclaim_latency_span span, double secs)
{
	cJSON *root = json_document();
	struct table *t = table_new_json(s->cli, &latency_columns);

	cJSON_AddNumberToObject(root, "seconds", round_to(secs, 3));
	fill_kinds(t, s, span);
	cJSON_AddItemToObject(root, "kinds", table_json_array(t));
	table_free(t);
	if (s->per_task) {
		/* the kinds too: a script reads both of the same interval */
		t = table_new_json(s->cli, &task_columns);
		fill_tasks(t, s, span);
		cJSON_AddItemToObject(root, "tasks", table_json_array(t));
		table_free(t);
	}
	json_print(root);
	cJSON_Delete(root);
}

static void report(const struct latency *s, enum reclaim_latency_span span, double secs)
{
	if (s->cli->json)
		print_json(s, span, secs);
	else
		print_text(s, span, secs);
}

static int measure(struct latency *s)
{
	uint64_t start = monotonic_ns(), step, end, last = start, tick = 1, next;
	int r = 0;

	step = s->interval > 0 ? (uint64_t)(s->interval * 1e9) : 0;
	end = s->duration > 0 ? start + (uint64_t)(s->duration * 1e9) : UINT64_MAX;
	while (!tracing_signal()) {
		if (step) {
			tick = next_tick(start, step, tick);
			next = start + tick * step;
		} else {
			next = end;
		}
		if (next > end)
			next = end;
		if (next == UINT64_MAX)
			pause();
		else if (!sleep_until(next) && tracing_signal())
			break;
		if (monotonic_ns() < next)
			continue;
		if (reclaim_latency_read(s->lat) < 0)
			return lib_fail(s->cli, EXIT_FAILURE, NULL);
		if (step && s->textfile)
			r = prometheus_latency(s->cli, s->lat, s->textfile);
		else if (step)
			report(s, RECLAIM_LATENCY_INTERVAL, (double)(next - last) / 1e9);
		if (r)
			return r;
		if (next >= end)
			break;
		last = next;
		tick++;
	}
	if (tracing_signal() && reclaim_latency_read(s->lat) < 0)
		return lib_fail(s->cli, EXIT_FAILURE, NULL);
	if (tracing_signal() == SIGPIPE || s->textfile)
		return 0;
	if (s->prometheus)
		return prometheus_latency(s->cli, s->lat, NULL);
	report(s, RECLAIM_LATENCY_RUN, (double)(monotonic_ns() - start) / 1e9);
	return 0;
}

static void latency_help(FILE *out)
{
	fputs("Shows how long tasks waited in direct reclaim (global, and in memory\n"
	      "cgroups over memory.high or memory.max) and at the direct reclaim throttle\n"
	      "(vm.max_direct_reclaimers, patched kernels), and how long kswapd threads\n"
	      "ran: for each, how many ended, the 50th, 90th and 99th percentiles, the\n"
	      "longest and the total. The kernel counts them in log2 buckets of\n"
	      "microseconds, and per task, in a tracefs instance of this run (hist\n"
	      "triggers), removed when the run ends; an instance left by a run that was\n"
	      "killed is removed by the next one. Needs root and tracefs.\n"
	      "\nOptions:\n"
	      "  -i, --interval SECONDS  also report each interval of this long\n"
	      "  -d, --duration SECONDS  run this long (default 5; 0: until interrupted);\n"
	      "                          the whole run is reported at the end\n"
	      "      --histogram         the log2 histogram of each kind\n"
	      "      --per-task[=N]      the N tasks of each kind that waited longest\n"
	      "                          (default 10; kswapd: its threads), not the kinds\n"
	      "      --prometheus        the run in Prometheus' text format: histograms of\n"
	      "                          the direct reclaims and the throttle's waits\n"
	      "      --textfile DIR      the same, the run so far, into\n"
	      "                          DIR/" PROMETHEUS_LATENCY_FILE " at each interval\n"
	      "                          (default 15 s) until stopped (node_exporter's\n"
	      "                          textfile collector); removed at the end\n"
	      "  -J, --json              JSON output\n"
	      "  -h, --help              this help\n",
	      out);
}

enum { OPT_PROMETHEUS = OPT_COMMAND, OPT_TEXTFILE };

/* --prometheus and --textfile: the whole run in one format, nothing else. */
static int check_prometheus(struct latency *s, bool interval_given, bool duration_given)
{
	const char *opt = s->textfile ? "--textfile" : "--prometheus";

	if (!s->prometheus && !s->textfile)
		return table_check(s->cli, "latency", columns(s));
	if (s->prometheus && s->textfile)
		return usage_error("latency: --prometheus and --textfile exclude each other");
	if (s->per_task || s->histogram || s->cli->json)
		return usage_error("latency: %s excludes --per-task, --histogram and --json", opt);
	if (s->prometheus && interval_given)
		return usage_error("latency: --prometheus prints the whole run: no --interval");
	if (s->textfile && access(s->textfile, W_OK) < 0)
		return fail(EXIT_FAILURE, "latency: --textfile %s: %s", s->textfile,
			    strerror(errno));
	if (s->textfile && !interval_given)
		s->interval = TEXTFILE_INTERVAL;
	if (s->textfile && !duration_given)
		s->duration = 0;
	return 0;
}

static int parse_options(struct latency *s, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"interval", required_argument, NULL, 'i'},
	    {"duration", required_argument, NULL, 'd'},
	    {"histogram", no_argument, NULL, 'H'},
	    {"per-task", optional_argument, NULL, 'T'},
	    {"prometheus", no_argument, NULL, OPT_PROMETHEUS},
	    {"textfile", required_argument, NULL, OPT_TEXTFILE},
	    COMMON_LONG_OPTIONS,
	    TABLE_LONG_OPTIONS,
	    {0},
	};
	bool interval_given = false, duration_given = false;
	int c;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS TABLE_SHORT_OPTIONS "i:d:", opts,
				NULL)) != -1) {
		bool done;
		int r;

		switch (c) {
		case 'i':
			r = parse_interval("latency", optarg, &s->interval);
			if (r)
				return r;
			interval_given = true;
			break;
		case 'd':
			duration_given = true;
			if (strcmp(optarg, "0") == 0)
				s->duration = 0;
			else if (!parse_seconds(optarg, true, &s->duration))
				return usage_error(
				    "latency: --duration: not a number of seconds: '%s'", optarg);
			break;
		case 'H':
			s->histogram = true;
			break;
		case OPT_PROMETHEUS:
			s->prometheus = true;
			break;
		case OPT_TEXTFILE:
			s->textfile = optarg;
			break;
		case 'T':
			s->per_task = 10;
			if (optarg && !parse_count(optarg, &s->per_task))
				return usage_error("latency: --per-task: not a number of tasks "
						   "above 0: '%s'",
						   optarg);
			break;
		default:
			r = common_option(s->cli, &cmd_latency, c, argv, &done);
			if (done)
				return r ? r : -1;
		}
	}
	if (optind < argc)
		return usage_error("latency: unexpected argument '%s'", argv[optind]);
	if (s->per_task && s->histogram)
		return usage_error("latency: --per-task and --histogram exclude each other");
	return check_prometheus(s, interval_given, duration_given);
}

/* The file's figures end with the run: node_exporter is not to go on exporting them. */
static void textfile_remove(const char *dir)
{
	char *path;

	if (asprintf(&path, "%s/%s", dir, PROMETHEUS_LATENCY_FILE) < 0)
		abort();
	if (unlink(path) < 0 && errno != ENOENT)
		warnmsg("cannot remove %s: %s", path, strerror(errno));
	free(path);
}

static int run_latency(struct cli *cli, int argc, char **argv)
{
	struct latency s = {.cli = cli, .duration = 5.0};
	int r;

	r = parse_options(&s, argc, argv);
	if (r)
		return r < 0 ? 0 : r;
	tracing_catch_signals();
	if (reclaim_latency_new(cli->ctx, &s.lat) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	tracing_started(s.lat);
	r = measure(&s);
	for (size_t i = 0; r == 0 && s.per_task && i < reclaim_latency_kind_count(); i++) {
		enum reclaim_latency_kind k = (enum reclaim_latency_kind)i;
		uint64_t dropped = reclaim_latency_tasks_dropped(s.lat, k);

		if (dropped)
			warnmsg("the kernel's table of %s tasks was full: %llu waits of other "
				"tasks are in the kinds' figures alone",
				reclaim_latency_kind_name(k), (unsigned long long)dropped);
	}
	if (s.textfile)
		textfile_remove(s.textfile);
	if (reclaim_latency_end(s.lat) < 0 && r == 0)
		r = lib_fail(cli, EXIT_FAILURE, NULL);
	reclaim_latency_unref(s.lat);
	tracing_exit_as_signalled();
	return r;
}

const struct command cmd_latency = {
    .name = "latency",
    .run = run_latency,
    .args = "[-i SECONDS] [-d SECONDS] [--histogram | --per-task[=N]] [-o LIST] [--output-all] "
	    "[-n] [-r] [--json] [--prometheus | --textfile DIR]",
    .summary = "Show how long tasks wait in direct reclaim and at the throttle",
    .help = latency_help,
    .tables = (const struct coltable *const[]){&latency_columns, &task_columns, NULL},
};
