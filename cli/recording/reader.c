// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a recording (reclaimctl record's JSON lines) for report, sweep's
 * summary and adapt --replay: the one reader. It reads a line at a time and
 * keeps what the samples add up to, never the samples: each is handed to
 * the library as a sample of its own, so that the totals of the run, and
 * any figure the recording has the sources of but not the value (an older
 * version's recording, or another tool's), are computed by the same code
 * as a live sample's; the JSON sample is completed with those values, given
 * to the reader's sink, and freed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reclaimctl.h"
#include "report.h"
#include "sampling.h"

/* The largest number a recording holds, a 64-bit counter, and the longest time. */
#define NUMBER_MAX  18446744073709551615.0 /* UINT64_MAX */
#define ELAPSED_MAX 1e9			   /* about 31 years of recording */

struct reader {
	struct cli *cli;
	const struct sample_sink *sink;
	struct reclaim_sample *prev;
	bool present[_RECLAIM_FIGURE_MAX]; /* recorded, or computed, in some sample */
};

/* A counter as the library takes it: explicit about what a double cannot be. */
static uint64_t counter_of(double v)
{
	if (!(v > 0))
		return 0;
	return v >= NUMBER_MAX ? UINT64_MAX : (uint64_t)v;
}

static bool newer_schema(const cJSON *o)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
	const cJSON *schema = cJSON_GetObjectItemCaseSensitive(o, "schema");

	return cJSON_IsString(type) && strcmp(type->valuestring, "header") == 0 &&
	       cJSON_IsNumber(schema) && schema->valuedouble > RECORD_SCHEMA;
}

/* The recorded threads into @smp; the CPU use of those that lack it into @o. */
static void take_threads(const struct reader *rd, struct reclaim_sample *smp, cJSON *threads)
{
	cJSON *t;

	cJSON_ArrayForEach(t, threads)
	{
		const char *name = string_of(t, "name");
		double pid = number_of(t, "pid", -1), secs = number_of(t, "cpu_seconds", -1);
		double node = number_of(t, "node", -1);
		size_t idx = reclaim_sample_kswapd_count(smp);

		/* numbers no thread has are not converted: a pid or node beyond int is none */
		if (!name || pid < 1 || pid > INT_MAX || node < -1 || node > INT_MAX || secs < 0 ||
		    reclaim_sample_add_kswapd(smp, (pid_t)pid, name, (int)node, secs) < 0)
			continue;
		if (!cJSON_GetObjectItemCaseSensitive(t, "cpu_percent"))
			cJSON_AddItemToObject(
			    t, "cpu_percent",
			    json_number_or_null(
				rd->prev, rd->prev ? round_to(reclaim_sample_kswapd_cpu_percent(
								  rd->prev, smp, idx),
							      2)
						   : 0));
	}
}

static void take_pressure(struct reclaim_sample *smp, const cJSON *o)
{
	static const char *const keys[][2] = {
	    [RECLAIM_PRESSURE_SOME] = {"psi_some_avg10", "psi_some_total_us"},
	    [RECLAIM_PRESSURE_FULL] = {"psi_full_avg10", "psi_full_total_us"},
	};

	for (int k = RECLAIM_PRESSURE_SOME; k <= RECLAIM_PRESSURE_FULL; k++) {
		double total = number_of(o, keys[k][1], -1);

		if (total >= 0)
			reclaim_sample_set_pressure(smp, k, number_of(o, keys[k][0], NAN),
						    counter_of(total));
	}
}

/* What the sample holds of the figures' sources, as the library's sample. */
/* Each kind's recorded waits (see add_latency() in recorder.c) into @smp. */
static void take_latency(struct reclaim_sample *smp, const cJSON *o)
{
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(o, "latency"), *b;

	for (size_t k = 0; cJSON_IsObject(l) && k < reclaim_latency_kind_count(); k++) {
		enum reclaim_latency_kind kind = (enum reclaim_latency_kind)k;
		const cJSON *x =
		    cJSON_GetObjectItemCaseSensitive(l, reclaim_latency_kind_name(kind));

		if (!cJSON_IsObject(x) ||
		    reclaim_sample_set_latency(smp, kind, counter_of(number_of(x, "total_us", 0)),
					       counter_of(number_of(x, "max_us", 0))) < 0)
			continue;
		cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(x, "buckets"))
		{
			char *end;
			unsigned long i;

			if (!cJSON_IsNumber(b) || !b->string)
				continue;
			errno = 0;
			i = strtoul(b->string, &end, 10);
			if (errno == 0 && *end == '\0' && end != b->string &&
			    i < reclaim_latency_bucket_count())
				reclaim_sample_set_latency_bucket(smp, kind, i,
								  counter_of(b->valuedouble));
		}
	}
}

static struct reclaim_sample *sample_of(const struct reader *rd, cJSON *o)
{
	struct reclaim_sample *smp;
	const cJSON *c;
	double elapsed = number_of(o, "elapsed", 0);
	/* "epoch" since schema 2 ("time" is its text), a number "timestamp" before */
	double ts = number_of(o, "epoch", number_of(o, "timestamp", 0));

	/* elapsed is checked (at most ELAPSED_MAX), the epoch is not: beyond 2500, none */
	if (reclaim_sample_new(rd->cli->ctx, (uint64_t)(elapsed * 1e9),
			       ts > 0 && ts < 1.7e10 ? (uint64_t)(ts * 1e9) : 0, &smp) < 0)
		abort();
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(o, "counters"))
	{
		if (cJSON_IsNumber(c) && c->string)
			reclaim_sample_add_counter(smp, -1, c->string, counter_of(c->valuedouble));
	}
	take_threads(rd, smp, cJSON_GetObjectItemCaseSensitive(o, "threads"));
	take_pressure(smp, o);
	take_latency(smp, o);
	return smp;
}

/* A figure the sample lacks but has the sources of: computed, as record would have. */
static void complete(struct reader *rd, cJSON *o, const struct reclaim_sample *cur)
{
	bool threads = cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(o, "threads"));
	bool counters = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(o, "counters"));

	if (!cJSON_GetObjectItemCaseSensitive(o, "interval") && rd->prev)
		cJSON_AddNumberToObject(o, "interval",
					round_to(reclaim_sample_interval(rd->prev, cur), 3));
	for (enum reclaim_figure f = 0; f < _RECLAIM_FIGURE_MAX; f++) {
		const char *key = reclaim_figure_text(f, RECLAIM_FIGURE_KEY);
		enum reclaim_figure_kind kind = reclaim_figure_kind(f);
		double v;

		if (cJSON_GetObjectItemCaseSensitive(o, key)) {
			rd->present[f] = true;
			continue;
		}
		if ((kind == RECLAIM_FIGURE_CPU_SUM || kind == RECLAIM_FIGURE_CPU_MAX) && !threads)
			continue;
		/* the first sample: null, if the sources are there to compute it later */
		if (reclaim_figure_value(rd->prev ? rd->prev : cur, cur, -1, f, &v) == 0)
			cJSON_AddItemToObject(o, key,
					      json_number_or_null(rd->prev, round_to(v, 2)));
		else if (counters || kind == RECLAIM_FIGURE_LATENCY)
			/* the raw counters are all there: the kernel had no such figure; a
			 * recording without --latency has no latency figure */
			cJSON_AddNullToObject(o, key);
		else
			continue;
		rd->present[f] = true;
	}
}

static void take_sample(struct reader *rd, struct run *r, cJSON *o)
{
	struct reclaim_sample *cur = sample_of(rd, o);

	complete(rd, o, cur);
	if (rd->prev && reclaim_totals_add(r->totals, rd->prev, cur) < 0)
		abort();
	reclaim_sample_unref(rd->prev);
	rd->prev = cur;
}

void run_free(struct run *r)
{
	for (size_t i = 0; i < r->nevents; i++)
		free(r->events[i].label);
	reclaim_totals_unref(r->totals);
	cJSON_Delete(r->header);
	cJSON_Delete(r->end);
	free(r->events);
	plots_free(r->plots);
}

const char *string_of(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(x) ? x->valuestring : NULL;
}

double number_of(const cJSON *o, const char *key, double def)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(x) ? x->valuedouble : def;
}

void format_knob_value(char *buf, size_t size, const struct reclaim_knob *k, const cJSON *v)
{
	if (cJSON_IsNumber(v) && k)
		reclaim_knob_format(k, (int64_t)v->valuedouble, buf, size);
	else if (cJSON_IsNumber(v))
		snprintf(buf, size, "%.0f", v->valuedouble);
	else
		snprintf(buf, size, "unsupported");
}

static void add_event(struct run *r, cJSON *o)
{
	char old[32], new[32], *label;
	const struct reclaim_knob *k;
	struct event *v;

	if (strcmp(string_of(o, "event") ? string_of(o, "event") : "", "knob") != 0)
		return;
	k = string_of(o, "knob") ? reclaim_knob_find(string_of(o, "knob")) : NULL;
	format_knob_value(old, sizeof(old), k, cJSON_GetObjectItemCaseSensitive(o, "old"));
	format_knob_value(new, sizeof(new), k, cJSON_GetObjectItemCaseSensitive(o, "new"));
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
static const cJSON *bad_number(const cJSON *o, const char *parent)
{
	const cJSON *c;

	if (cJSON_IsNumber(o)) {
		const char *k = o->string ? o->string : parent;
		bool time = k && (strcmp(k, "elapsed") == 0 || strcmp(k, "interval") == 0);
		size_t len = k ? strlen(k) : 0;
		/* the raw counters, and the latency's buckets and microseconds */
		bool counter =
		    parent && (strcmp(parent, "counters") == 0 || strcmp(parent, "buckets") == 0 ||
			       (len > 3 && strcmp(k + len - 3, "_us") == 0));
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

/* A sample: completed, counted, given to the sink; 0 or the sink's exit status. */
static int add_sample(struct reader *rd, struct run *r, cJSON *o)
{
	take_sample(rd, r, o);
	r->nsamples++;
	if (number_of(o, "elapsed", 0) > r->duration)
		r->duration = number_of(o, "elapsed", 0);
	return rd->sink ? rd->sink->sample(rd->sink->data, r, o) : 0;
}

/*
 * Takes one parsed line (and frees it, unless kept); 0, -EINVAL for a line
 * that is no record line, -ENOMSG for a sample before the header, or the
 * sink's exit status.
 */
static int add_line(struct reader *rd, struct run *r, cJSON *o)
{
	const char *type = string_of(o, "type");
	int ret = 0;

	if (!type) {
		cJSON_Delete(o);
		return -EINVAL;
	}
	if (strcmp(type, "header") == 0 && !r->header) {
		r->header = o;
		return 0;
	}
	if (strcmp(type, "end") == 0 && !r->end) {
		r->end = o;
		return 0;
	}
	if (strcmp(type, "sample") == 0 && !r->header)
		ret = -ENOMSG;
	else if (strcmp(type, "sample") == 0)
		ret = add_sample(rd, r, o);
	else if (strcmp(type, "event") == 0)
		add_event(r, o);
	cJSON_Delete(o);
	return ret;
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

/* One line, numbered @n, of @file; 0, an exit status (the error printed), or -EPIPE: the end. */
static int read_line(struct reader *rd, struct run *r, const char *file, size_t n, char *line,
		     ssize_t len)
{
	cJSON *o;
	const cJSON *bad;
	int ret;

	if (line[strspn(line, " \t\r\n")] == '\0')
		return 0;
	o = cJSON_Parse(line);
	if (!o && line[len - 1] != '\n') {
		/* the last line of a recording that was killed while writing it */
		warnmsg("%s:%zu: incomplete last line ignored", file, n);
		return -EPIPE;
	}
	bad = o ? bad_number(o, NULL) : NULL;
	if (bad) {
		ret = fail(EXIT_FAILURE, "%s:%zu: %s%s%s is not a number a recording holds", file,
			   n, bad->string ? "\"" : "a number", bad->string ? bad->string : "",
			   bad->string ? "\"" : "");
		cJSON_Delete(o);
		return ret;
	}
	if (o && !r->header && newer_schema(o)) {
		ret = fail(EXIT_FAILURE,
			   "%s: record format %.0f is newer than this reclaimctl reads (%d)", file,
			   number_of(o, "schema", 0), RECORD_SCHEMA);
		cJSON_Delete(o);
		return ret;
	}
	ret = o ? add_line(rd, r, o) : -EINVAL;
	if (ret == -ENOMSG)
		return fail(EXIT_FAILURE, "%s:%zu: a sample before the header line", file, n);
	if (ret < 0)
		return fail(EXIT_FAILURE, "%s:%zu: not a line of a reclaimctl record file", file,
			    n);
	return ret;
}

int read_run(struct cli *cli, const char *file, struct run *r, const struct sample_sink *sink)
{
	FILE *f = open_recording(file);
	char *line = NULL;
	size_t size = 0, n = 0;
	ssize_t len;
	int ret = 0;

	struct reader rd = {.cli = cli, .sink = sink};

	memset(r, 0, sizeof(*r));
	r->file = (char *)file;
	if (reclaim_totals_new(cli->ctx, &r->totals) < 0)
		abort();
	if (!f)
		return fail(EXIT_FAILURE, "cannot read %s: %s", file,
			    errno == EBADFD ? "not a regular file" : strerror(errno));
	while (ret == 0 && (len = getline(&line, &size, f)) > 0)
		ret = read_line(&rd, r, file, ++n, line, len);
	if (ret == -EPIPE)
		ret = 0;
	free(line);
	fclose(f);
	reclaim_sample_unref(rd.prev);
	for (size_t i = 0; i < _RECLAIM_FIGURE_MAX; i++)
		r->missing[i] = !rd.present[i];
	if (ret == 0 && !r->header)
		ret = fail(EXIT_FAILURE, "%s: not a reclaimctl record file (no header line)", file);
	else if (ret == 0 && r->nsamples == 0)
		ret = fail(EXIT_FAILURE, "%s: no samples", file);
	return ret;
}

/* How much of its end run_last_elapsed() reads of a recording: room for a few long lines. */
#define TAIL_SIZE (256 * 1024)

/* The elapsed time of @line if it is a sample, or -1. */
static double sample_elapsed(const char *line)
{
	cJSON *o = cJSON_Parse(line);
	const char *type = string_of(o, "type");
	double t = type && strcmp(type, "sample") == 0 ? number_of(o, "elapsed", -1) : -1;

	cJSON_Delete(o);
	return t >= 0 && t <= ELAPSED_MAX ? t : -1;
}

double run_last_elapsed(const char *file)
{
	FILE *f = open_recording(file);
	char *buf = malloc(TAIL_SIZE + 1), *nl;
	off_t size, from = 0;
	size_t len = 0;
	double t = -1;

	if (!buf)
		abort();
	if (f && fseeko(f, 0, SEEK_END) == 0 && (size = ftello(f)) > 0) {
		from = size > TAIL_SIZE ? size - TAIL_SIZE : 0;
		if (fseeko(f, from, SEEK_SET) == 0)
			len = fread(buf, 1, TAIL_SIZE, f);
	}
	if (f)
		fclose(f);
	/* line by line from the end; the first is cut unless the file starts there */
	buf[len] = '\0';
	while (t < 0 && (nl = memrchr(buf, '\n', len))) {
		t = sample_elapsed(nl + 1);
		*nl = '\0';
		len = (size_t)(nl - buf);
	}
	if (t < 0 && from == 0)
		t = sample_elapsed(buf);
	free(buf);
	return t > 0 ? t : 0;
}

/* The figures @run has neither recorded nor the sources of, as "a, b"; NULL if none. */
char *run_missing(const struct run *run, bool (*wanted)(enum reclaim_figure f))
{
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);
	bool any = false;

	if (!m)
		abort();
	for (enum reclaim_figure f = 0; f < _RECLAIM_FIGURE_MAX; f++)
		if (run->missing[f] && (!wanted || wanted(f))) {
			fprintf(m, "%s%s", any ? ", " : "",
				reclaim_figure_text(f, RECLAIM_FIGURE_KEY));
			any = true;
		}
	fclose(m);
	if (!any) {
		free(s);
		return NULL;
	}
	return s;
}
