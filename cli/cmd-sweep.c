// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl sweep: a workload run under each combination of knob values,
 * each repetition in turn, recorded as 'record -- COMMAND' records it, then
 * compared in one table (summary.json, summary.csv, report.html). Every
 * change of values is one request to the change engine, checked for every
 * combination before the first run, and all of them are one change of the
 * history: the first run's values make it, the next runs' join it. At the
 * end (also after Ctrl-C or a failed run) a restore of that change puts back
 * the values from before the sweep; if reclaimctl is killed, 'reclaimctl
 * restore' does the same.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reclaimctl.h"
#include "record.h"
#include "report.h"
#include "sampling.h"
#include "sweep.h"

/* ---- the command line ---- */

static void sweep_help(FILE *out)
{
	fputs("Runs COMMAND once under each combination of the knob values given, each\n"
	      "repetition in turn, and records each run as 'record -- COMMAND' does. The\n"
	      "values are set as 'set' sets them, and every combination is checked before\n"
	      "the first run: nothing is changed if a knob is missing or a value out of\n"
	      "range. A value may be 'auto' for the knobs autotune has a rule for: the\n"
	      "value autotune recommends on this machine, worked out once. The whole\n"
	      "sweep is one change in the history: at the end, on Ctrl-C (SIGINT,\n"
	      "SIGTERM, SIGHUP: the command\n"
	      "is sent the signal) and after a failed run, a restore of it puts back the\n"
	      "knobs' values from before the sweep; if reclaimctl itself is killed,\n"
	      "'reclaimctl restore' does. If another change comes in between, the sweep\n"
	      "stops and puts back the knobs nobody else changed.\n"
	      "A run whose command exits non-zero stops the sweep (with --keep-going, the\n"
	      "next runs go on); it is counted as failed and left out of the figures.\n"
	      "DIR receives per run run-NNN-VALUE.jsonl (a record file) and\n"
	      "run-NNN-VALUE.log (the command's standard output and error), then\n"
	      "summary.json, summary.csv and report.html, with one row per value: the\n"
	      "median, lowest and highest over the repetitions of the wall time, each\n"
	      "metric, direct reclaims, pages scanned, kswapd CPU, throttled waits, PSI\n"
	      "and swap, and a ratio to the first value. The table is also printed.\n"
	      "Those files of an earlier sweep in DIR are removed before the first run.\n"
	      "\nOptions:\n"
	      "      --dir DIR             the directory of the records and the summary\n"
	      "      --repeat N            run each combination N times (default 1)\n"
	      "      --interleave          all values, then all again, N times (the default)\n"
	      "      --no-interleave       each value N times in a row\n"
	      "  -i, --interval SECONDS    time between samples (default 1)\n"
	      "      --latency             also how long direct reclaims and the throttle's\n"
	      "                            waits took: p99 and longest (record --latency)\n"
	      "  -m, --metric NAME=REGEX   a figure from the command's output: the last match\n"
	      "                            of the extended REGEX, its first group if it has\n"
	      "                            one; a unit prefix after the number scales it\n"
	      "                            ('1.2 GB/s' is 1.2e9, '4 KiB' 4096)\n"
	      "      --warmup COMMAND      run COMMAND with /bin/sh before each run, after\n"
	      "                            the knobs are set, without recording it\n"
	      "  -k, --keep-going          go on after a failed run\n"
	      "  -f, --force               also knobs that another sysctl file sets\n"
	      "  -J, --json                print summary.json instead of the table\n"
	      "  -h, --help                this help\n",
	      out);
}

/* "auto": the value autotune recommends for @k on this machine, fixed for the whole sweep. */
static int auto_value(struct sweep *s, const struct reclaim_knob *k, int64_t *value)
{
	char *reason = NULL;

	if (!reclaim_knob_has_recommendation(k))
		return usage_error("sweep: invalid value 'auto' for %s (auto is known for threads "
				   "and throttle)",
				   reclaim_knob_name(k));
	if (!s->topo && reclaim_topology_new(s->cli->ctx, &s->topo) < 0)
		return lib_fail(s->cli, EXIT_FAILURE, "sweep");
	if (reclaim_knob_recommend(s->cli->ctx, k, s->topo, value, &reason) < 0)
		return lib_fail(s->cli, EXIT_FAILURE, "sweep");
	free(reason);
	return 0;
}

static int parse_axis(struct sweep *s, const char *spec)
{
	const char *eq = strchr(spec, '=');
	struct axis *a;
	char *name, *list, *save = NULL, *tok;

	if (!eq || eq == spec || !eq[1])
		return usage_error("sweep: expected KNOB=VALUE,VALUE... before '--', not '%s'",
				   spec);
	name = strndup(spec, (size_t)(eq - spec));
	if (!name)
		abort();
	a = realloc(s->axes, (s->naxes + 1) * sizeof(*a));
	if (!a)
		abort();
	s->axes = a;
	a = &s->axes[s->naxes++];
	*a = (struct axis){.given = name, .knob = reclaim_knob_find(name)};
	if (!a->knob)
		return unknown_knob(name);
	for (size_t i = 0; i + 1 < s->naxes; i++)
		if (s->axes[i].knob == a->knob)
			return usage_error("sweep: %s given twice", reclaim_knob_name(a->knob));
	list = strdup(eq + 1);
	if (!list)
		abort();
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int64_t v;
		int r = 0;

		if (strcmp(tok, "auto") == 0)
			r = auto_value(s, a->knob, &v);
		else if (reclaim_knob_parse(s->cli->ctx, a->knob, tok, &v) < 0)
			r = lib_fail(s->cli, EXIT_USAGE, "sweep");
		if (r) {
			free(list);
			return r;
		}
		a->texts = realloc(a->texts, (a->nvalues + 1) * sizeof(*a->texts));
		a->values = realloc(a->values, (a->nvalues + 1) * sizeof(*a->values));
		if (!a->texts || !a->values || !(a->texts[a->nvalues] = strdup(tok)))
			abort();
		a->values[a->nvalues++] = v;
	}
	free(list);
	if (a->nvalues == 0)
		return usage_error("sweep: no value for %s in '%s'", name, spec);
	return 0;
}

static bool metric_name_ok(const char *name, size_t len)
{
	if (len == 0 || len > 64)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!(name[i] >= 'a' && name[i] <= 'z') && !(name[i] >= 'A' && name[i] <= 'Z') &&
		    !(name[i] >= '0' && name[i] <= '9') && !strchr("_-./", name[i]))
			return false;
	return true;
}

static int parse_metric(struct sweep *s, const char *spec)
{
	const char *eq = strchr(spec, '=');
	struct metric *m;
	char err[128];
	int r;

	if (!eq || !metric_name_ok(spec, (size_t)(eq - spec)) || !eq[1])
		return usage_error("sweep: --metric: expected NAME=REGEX (NAME of letters, digits, "
				   "_-./), not '%s'",
				   spec);
	for (size_t f = 0; f < NFIGS + s->nmetrics; f++)
		if (strlen(fig_key(s, f)) == (size_t)(eq - spec) &&
		    strncmp(fig_key(s, f), spec, (size_t)(eq - spec)) == 0)
			return usage_error("sweep: --metric: the name '%s' is taken",
					   fig_key(s, f));
	m = realloc(s->metrics, (s->nmetrics + 1) * sizeof(*m));
	if (!m)
		abort();
	s->metrics = m;
	m = &s->metrics[s->nmetrics];
	r = regcomp(&m->re, eq + 1, REG_EXTENDED | REG_NEWLINE);
	if (r) {
		regerror(r, &m->re, err, sizeof(err));
		return usage_error("sweep: --metric: '%s': %s", eq + 1, err);
	}
	m->name = strndup(spec, (size_t)(eq - spec));
	if (!m->name)
		abort();
	s->nmetrics++;
	return 0;
}

enum {
	OPT_REPEAT = OPT_COMMAND,
	OPT_INTERLEAVE,
	OPT_NO_INTERLEAVE,
	OPT_WARMUP,
	OPT_DIR,
	OPT_OUTPUT,
	OPT_LATENCY
};

static int parse_options(struct sweep *s, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"dir", required_argument, NULL, OPT_DIR},
	    {"output", required_argument, NULL, OPT_OUTPUT},
	    {"repeat", required_argument, NULL, OPT_REPEAT},
	    {"interleave", no_argument, NULL, OPT_INTERLEAVE},
	    {"no-interleave", no_argument, NULL, OPT_NO_INTERLEAVE},
	    {"interval", required_argument, NULL, 'i'},
	    {"metric", required_argument, NULL, 'm'},
	    {"warmup", required_argument, NULL, OPT_WARMUP},
	    {"keep-going", no_argument, NULL, 'k'},
	    {"force", no_argument, NULL, 'f'},
	    {"latency", no_argument, NULL, OPT_LATENCY},
	    COMMON_LONG_OPTIONS,
	    {0},
	};
	int c, dashes, r;

	/* The command is what follows "--": the options and KNOB=VALUES come before it. */
	for (dashes = 1; dashes < argc && strcmp(argv[dashes], "--") != 0; dashes++)
		;
	if (dashes < argc) {
		s->command = argv + dashes + 1;
		argv[dashes] = NULL;
		argc = dashes;
	}
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS "o:i:m:kf", opts, NULL)) != -1) {
		bool done;

		switch (c) {
		case 'o':
		case OPT_OUTPUT:
			deprecated_option("sweep", c == 'o' ? "-o" : "--output", "--dir DIR");
			/* fall through */
		case OPT_DIR:
			s->dir = optarg;
			break;
		case OPT_LATENCY:
			s->latency = true;
			break;
		case OPT_REPEAT:
			if (!parse_count(optarg, &s->repeat) || s->repeat > SWEEP_MAX_RUNS)
				return usage_error(
				    "sweep: --repeat: not a count from 1 to %d: '%s'",
				    SWEEP_MAX_RUNS, optarg);
			break;
		case OPT_INTERLEAVE:
		case OPT_NO_INTERLEAVE:
			s->interleave = c == OPT_INTERLEAVE;
			break;
		case 'i':
			r = parse_interval("sweep", optarg, &s->interval);
			if (r)
				return r;
			break;
		case 'm':
			r = parse_metric(s, optarg);
			if (r)
				return r;
			break;
		case OPT_WARMUP:
			s->warmup = optarg;
			break;
		case 'k':
			s->keep_going = true;
			break;
		case 'f':
			s->flags |= RECLAIM_REQUEST_FORCE;
			break;
		default:
			r = common_option(s->cli, &cmd_sweep, c, argv, &done);
			if (done)
				return r ? r : -1;
		}
	}
	if (optind >= argc)
		return usage_error("sweep: expected KNOB=VALUE,VALUE... (see reclaimctl sweep "
				   "--help)");
	for (int i = optind; i < argc; i++) {
		r = parse_axis(s, argv[i]);
		if (r)
			return r;
	}
	if (!s->dir)
		return usage_error("sweep: needs --dir DIR");
	if (!s->command || !s->command[0])
		return usage_error("sweep: needs a command after '--'");
	return 0;
}

/* ---- the plan of runs ---- */

static void make_runs(struct sweep *s)
{
	s->ncombos = 1;
	for (size_t a = 0; a < s->naxes; a++)
		s->ncombos *= s->axes[a].nvalues;
	s->labels = calloc(s->ncombos, sizeof(*s->labels));
	if (!s->labels)
		abort();
	for (size_t c = 0; c < s->ncombos; c++) {
		char *l = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&l, &len);

		if (!m)
			abort();
		for (size_t a = 0; a < s->naxes; a++)
			fprintf(m, "%s%s=%s", a ? "," : "", s->axes[a].given,
				s->axes[a].texts[value_index(s, c, a)]);
		fclose(m);
		s->labels[c] = l;
	}
	s->nruns = s->ncombos * (size_t)s->repeat;
	s->runs = calloc(s->nruns, sizeof(*s->runs));
	if (!s->runs)
		abort();
	for (size_t i = 0; i < s->nruns; i++) {
		struct sweep_run *r = &s->runs[i];

		r->combo = s->interleave ? i % s->ncombos : i / (size_t)s->repeat;
		r->rep = s->interleave ? i / s->ncombos : i % (size_t)s->repeat;
		r->exit_status = r->signal = -1;
		r->has = calloc(nfigs(s), sizeof(*r->has));
		r->fig = calloc(nfigs(s), sizeof(*r->fig));
		if (!r->has || !r->fig)
			abort();
		/* '/' cannot be in a value that parsed, but keep the names plain anyway */
		if (asprintf(&r->file, "run-%03zu-%s.jsonl", i + 1, s->labels[r->combo]) < 0 ||
		    asprintf(&r->log, "run-%03zu-%s.log", i + 1, s->labels[r->combo]) < 0)
			abort();
		for (char *p = r->file; *p; p++)
			if (*p == '/')
				*p = '_';
		for (char *p = r->log; *p; p++)
			if (*p == '/')
				*p = '_';
	}
}

/* The request that sets combination @c. */
static int combo_request(struct sweep *s, size_t c, struct reclaim_request **req)
{
	char reason[64];

	if (reclaim_request_new(s->cli->ctx, RECLAIM_REQUEST_SET, s->flags | RECLAIM_REQUEST_STRICT,
				req) < 0)
		return lib_fail(s->cli, EXIT_FAILURE, NULL);
	/* the history says which changes are the sweep's */
	if (reclaim_request_set_source(*req, "sweep") < 0) {
		*req = reclaim_request_unref(*req);
		return lib_fail(s->cli, EXIT_FAILURE, NULL);
	}
	snprintf(reason, sizeof(reason), "sweep: %s", s->labels[c]);
	for (size_t a = 0; a < s->naxes; a++) {
		int64_t v = s->axes[a].values[value_index(s, c, a)];

		if (reclaim_request_add(*req, s->axes[a].knob, v, reason) < 0) {
			*req = reclaim_request_unref(*req);
			return lib_fail(s->cli, EXIT_FAILURE, NULL);
		}
	}
	return 0;
}

/* Every combination evaluated, and the values before the sweep read, before anything is written. */
static int check_all(struct sweep *s)
{
	for (size_t c = 0; c < s->ncombos; c++) {
		struct reclaim_request *req;
		struct reclaim_eval *e = NULL;
		int r = combo_request(s, c, &req);

		if (r)
			return r;
		if (reclaim_request_evaluate(req, &e) < 0)
			r = lib_fail(s->cli, EXIT_FAILURE, "sweep");
		reclaim_eval_unref(e);
		reclaim_request_unref(req);
		if (r)
			return r;
	}
	return 0;
}

static void shell_quote(FILE *out, const char *s)
{
	if (s[0] && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			      "_-./=:,+@%") == strlen(s)) {
		fputs(s, out);
		return;
	}
	fputc('\'', out);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	fputc('\'', out);
}

/* "reclaimctl " and, on another root, "--sysroot DIR ": the start of a command to give. */
static void print_reclaimctl(struct sweep *s, FILE *out)
{
	fputs("reclaimctl ", out);
	if (!reclaim_is_live(s->cli->ctx)) {
		fputs("--sysroot ", out);
		shell_quote(out, reclaim_get_sysroot(s->cli->ctx));
		fputc(' ', out);
	}
}

/* The command that puts back the values from before the sweep, as one 'set'. */
static void print_undo_command(struct sweep *s, FILE *out)
{
	print_reclaimctl(s, out);
	fputs(s->flags & RECLAIM_REQUEST_FORCE ? "set --force" : "set", out);
	for (size_t a = 0; a < s->naxes; a++)
		fprintf(out, " %s %s", reclaim_knob_name(s->axes[a].knob),
			KNOB_TEXT(s->axes[a].knob, s->axes[a].before));
}

/* ---- one run ---- */

static void progress_line(void *data)
{
	struct sweep *s = data;
	uint64_t now = monotonic_ns();
	const struct sweep_run *r = &s->runs[s->current];

	fprintf(stderr, "\r\033[Krun %zu of %zu: %s, %.0f s (sweep %.0f s)", s->current + 1,
		s->nruns, s->labels[r->combo], (double)(now - s->run_start_ns) / 1e9,
		(double)(now - s->start_ns) / 1e9);
	fflush(stderr);
}

static void progress_clear(struct sweep *s)
{
	if (s->progress) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

/* --warmup: /bin/sh -c COMMAND, its output in the run's log; true if it exited 0. */
static bool warmup(struct sweep *s, int log_fd)
{
	int status = 0;
	pid_t pid = fork();

	if (pid < 0) {
		warnmsg("sweep: cannot run the warmup command: %s", strerror(errno));
		return false;
	}
	if (pid == 0) {
		record_child_setup(true);
		if (dup2(log_fd, STDOUT_FILENO) < 0 || dup2(log_fd, STDERR_FILENO) < 0)
			_exit(126);
		execl("/bin/sh", "sh", "-c", s->warmup, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	if (record_wait(pid, true, -1, &status) < 0)
		return false;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		warnmsg("sweep: the warmup command failed (%s %d)",
			WIFEXITED(status) ? "exit status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return false;
	}
	return true;
}

/* The number at the start of @s, scaled by a unit prefix after it ("1.2 GB/s"). */
static bool parse_figure(const char *s, size_t len, double *v)
{
	static const char prefixes[] = "kKMGTPE";
	char buf[128], *end;
	double x;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	s = buf + strspn(buf, " \t");
	errno = 0;
	x = strtod(s, &end);
	if (end == s || errno || !isfinite(x))
		return false;
	end += strspn(end, " ");
	if (*end && strchr(prefixes, *end)) {
		int power = *end == 'k' ? 1 : (int)(strchr(prefixes, *end) - prefixes);
		bool binary = end[1] == 'i';

		x *= pow(binary ? 1024.0 : 1000.0, power);
	}
	*v = x;
	return true;
}

/* The longest piece of output a --metric is matched in: longer lines are cut. */
#define METRIC_PIECE 65536

/* The text of @m's last match in @piece (its group if it has one) into @last. */
static void last_match(const struct metric *m, const char *piece, char *last, size_t size)
{
	regmatch_t match[2];
	const char *p = piece;
	int flags = 0;

	while (regexec(&m->re, p, 2, match, flags) == 0) {
		size_t g = m->re.re_nsub >= 1 && match[1].rm_so >= 0 ? 1 : 0;
		size_t len = (size_t)(match[g].rm_eo - match[g].rm_so);

		if (len >= size)
			len = size - 1;
		memcpy(last, p + match[g].rm_so, len);
		last[len] = '\0';
		if (match[0].rm_eo == 0) {
			if (!*p)
				break;
			p++;
		} else {
			p += match[0].rm_eo;
		}
		flags = REG_NOTBOL;
	}
}

/*
 * The last match of each --metric in the run's output, read a line (at most
 * METRIC_PIECE bytes) at a time: memory stays bounded whatever the command
 * wrote, and nothing is read without --metric.
 */
static void take_metrics(struct sweep *s, struct sweep_run *r, const char *log)
{
	char(*last)[128] = NULL;
	char *piece = NULL;
	FILE *f;

	if (s->nmetrics == 0)
		return;
	last = calloc(s->nmetrics, sizeof(*last));
	piece = malloc(METRIC_PIECE);
	if (!last || !piece)
		abort();
	f = fopen(log, "re");
	while (f && fgets(piece, METRIC_PIECE, f))
		for (size_t i = 0; i < s->nmetrics; i++)
			last_match(&s->metrics[i], piece, last[i], sizeof(last[i]));
	if (f)
		fclose(f);
	for (size_t i = 0; i < s->nmetrics; i++) {
		if (last[i][0] && parse_figure(last[i], strlen(last[i]), &r->fig[NFIGS + i]))
			r->has[NFIGS + i] = true;
		else if (r->state == RUN_OK)
			warnmsg("sweep: run %zu: no number for --metric %s in %s", s->current + 1,
				s->metrics[i].name, log);
	}
	free(piece);
	free(last);
}

static void take_totals(struct sweep *s, struct sweep_run *r, double wall)
{
	char *file = path_in(s, r->file);
	struct run rec;

	r->fig[FIG_WALL] = wall;
	r->has[FIG_WALL] = wall >= 0;
	if (read_run(s->cli, file, &rec, NULL) == 0)
		for (enum reclaim_figure f = 0; f < _RECLAIM_FIGURE_MAX; f++)
			r->has[FIG_CATALOGUE + f] =
			    reclaim_totals_get(rec.totals, f, &r->fig[FIG_CATALOGUE + f]) == 0;
	run_free(&rec);
	free(file);
}

/*
 * Said once the first run's values are recorded as the sweep's change, not
 * before: a restore run earlier would undo someone else's change.
 */
static void announce_undo(struct sweep *s)
{
	fprintf(stderr, "reclaimctl: sweep: %zu run%s; if interrupted, '", s->nruns,
		s->nruns == 1 ? "" : "s");
	print_reclaimctl(s, stderr);
	fputs("restore' puts the knobs back\n", stderr);
	fflush(stderr);
}

/* The values of combination @c are the sweep's now: what it puts back unless changed. */
static void lease_wrote(struct sweep *s, size_t c)
{
	for (size_t a = 0; a < s->naxes; a++)
		reclaim_lease_wrote(s->lease, s->axes[a].knob,
				    s->axes[a].values[value_index(s, c, a)]);
}

/* Whether the newest record of @k in the history is of a change other than the sweep's. */
static bool recorded_since(const struct sweep *s, const struct reclaim_knob *k)
{
	struct reclaim_history *h = NULL;
	bool other = false;

	if (reclaim_history_new(s->cli->ctx, &h) < 0)
		return false;
	for (size_t i = reclaim_history_count(h); i-- > 0;)
		if (reclaim_history_knob(h, i) == k) {
			other = reclaim_history_change(h, i) != s->change;
			break;
		}
	reclaim_history_unref(h);
	return other;
}

/*
 * A knob that is not at run @i's value when its command ends, with no
 * change recorded since (another 'set' makes the sweep's change stale),
 * was written by the command, or by something else while it ran: the run
 * did not measure its value and is failed, and the value found is the
 * sweep's to put back, as if it had written it.
 */
static void check_moved(struct sweep *s, size_t i)
{
	struct sweep_run *r = &s->runs[i];

	s->moved = false;
	for (size_t a = 0; a < s->naxes; a++) {
		struct axis *x = &s->axes[a];
		int64_t now;

		if (reclaim_knob_read(s->cli->ctx, x->knob, &now) < 0 ||
		    now == x->values[value_index(s, r->combo, a)] || recorded_since(s, x->knob))
			continue;
		x->moved_run = i + 1;
		x->moved_to = now;
		r->moved = x;
		s->moved = true;
		(void)reclaim_lease_wrote(s->lease, x->knob, now);
	}
}

/* Sets the values of run @i and records it; 0 or an exit status for a sweep that cannot go on. */
static int one_run(struct sweep *s, size_t i)
{
	struct sweep_run *r = &s->runs[i];
	struct record_run rec = {.interval = s->interval,
				 .command = s->command,
				 .forward_sigint = true,
				 .own_group = true,
				 .latency = s->latency};
	struct reclaim_request *req = NULL;
	struct reclaim_eval *e = NULL;
	char *log = path_in(s, r->log), *file = path_in(s, r->file);
	int fd, ret;

	s->current = i;
	ret = combo_request(s, r->combo, &req);
	/* the runs after the first change join it: the sweep is one change */
	if (ret == 0 && s->change > 0 && reclaim_request_set_change(req, s->change) < 0)
		ret = lib_fail(s->cli, EXIT_FAILURE, "sweep");
	if (ret == 0) {
		int a = reclaim_request_apply(req, &e);

		if (a == -ESTALE) {
			/* said at the end, with what was put back */
			s->stale = strdup(reclaim_strerror(s->cli->ctx));
			if (!s->stale)
				abort();
			s->stale_run = i + 1;
			ret = EXIT_FAILURE;
		} else if (a < 0) {
			ret = lib_fail(s->cli, EXIT_FAILURE, "sweep");
		} else {
			lease_wrote(s, r->combo);
			if (s->change == 0 && (s->change = reclaim_eval_change(e)) > 0)
				announce_undo(s);
		}
		reclaim_eval_unref(e);
	}
	reclaim_request_unref(req);
	fd = ret ? -1 : open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (ret == 0 && fd < 0)
		ret = fail(EXIT_FAILURE, "cannot write %s: %s", log, strerror(errno));
	if (ret == 0 && s->warmup && !warmup(s, fd)) {
		if (!record_signal()) {
			r->state = RUN_FAILED;
			s->done = i + 1;
		}
		goto out;
	}
	if (ret || record_signal())
		goto out;
	s->run_start_ns = monotonic_ns();
	if (s->progress)
		progress_line(s);
	rec.output = file;
	rec.command_output = fd;
	rec.tick = s->progress ? progress_line : NULL;
	rec.tick_data = s;
	ret = record_run(s->cli, &rec);
	progress_clear(s);
	if (ret)
		goto out;
	r->recorded = true;
	if (rec.reaped && WIFEXITED(rec.status))
		r->exit_status = WEXITSTATUS(rec.status);
	else if (rec.reaped && WIFSIGNALED(rec.status))
		r->signal = WTERMSIG(rec.status);
	check_moved(s, i);
	if (record_signal())
		r->state = RUN_INTERRUPTED;
	else if (r->exit_status == 0 && !r->moved)
		r->state = RUN_OK;
	else
		r->state = RUN_FAILED;
	take_totals(s, r, rec.reaped ? rec.wall_seconds : -1);
	take_metrics(s, r, log);
	s->done = i + 1;
out:
	if (fd >= 0)
		close(fd);
	free(log);
	free(file);
	return ret;
}

/* ---- the sweep ---- */

static void add_text(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add_text(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/* The knobs of @l put back ("vm.a=1, vm.b=2") and those left as another writer made them. */
static void lease_lists(const struct reclaim_lease *l, char *put, size_t put_size, char *left,
			size_t left_size)
{
	for (size_t i = 0; i < reclaim_lease_count(l); i++) {
		const struct reclaim_knob *k = reclaim_lease_knob(l, i);
		const char *name = reclaim_knob_label(k);

		if (reclaim_lease_state(l, i) == RECLAIM_LEASE_HELD)
			add_text(put, put_size, "%s%s=%s", *put ? ", " : "", name,
				 KNOB_TEXT(k, reclaim_lease_before(l, i)));
		else if (reclaim_lease_state(l, i) == RECLAIM_LEASE_CHANGED)
			add_text(left, left_size, "%s%s=%s", *left ? ", " : "", name,
				 KNOB_TEXT(k, reclaim_lease_now(l, i)));
	}
}

/*
 * A sweep that died (SIGKILL, a crash) left its state file (@dead): what is
 * still at its values goes back to the values from before it, said in one
 * line.
 */
static int give_back_dead(struct sweep *s, struct reclaim_lease *dead)
{
	struct reclaim_eval *e = NULL;
	char put[1024] = "", left[1024] = "";

	if (reclaim_lease_release(
		dead, RECLAIM_REQUEST_SET, s->flags | RECLAIM_REQUEST_STRICT, "sweep:before",
		"sweep: the value before a sweep that ended without putting it back", &e) < 0)
		return lib_fail(s->cli, EXIT_FAILURE,
				"sweep: giving back an earlier sweep's knobs");
	reclaim_eval_unref(e);
	lease_lists(dead, put, sizeof(put), left, sizeof(left));
	fprintf(
	    stderr,
	    "reclaimctl: sweep: an earlier sweep (PID %ld) ended without putting its knobs back",
	    (long)reclaim_lease_pid(dead));
	if (*put)
		fprintf(stderr, "; put back %s", put);
	if (*left)
		fprintf(stderr, "; left %s as something else changed %s", left,
			strchr(left, ',') ? "them" : "it");
	if (!*put && !*left)
		fputs("; they are at their values from before it", stderr);
	fputc('\n', stderr);
	return 0;
}

/*
 * The knobs' values before the sweep, to put back at its end, in a lease
 * with a state file: a second sweep, or adapt for kswapd_threads, is
 * refused while this one runs, and if this one dies the next sweep gives
 * its knobs back. A dead sweep's knobs go back first, so that the values
 * read here are from before it.
 */
static int take_lease(struct sweep *s)
{
	struct reclaim_lease *dead = NULL;
	int r = 0;

	if (reclaim_lease_new(s->cli->ctx, "sweep", &s->lease) < 0)
		return lib_fail(s->cli, EXIT_FAILURE, "sweep");
	if (reclaim_lease_load(s->cli->ctx, "sweep", &dead) == 0 && !reclaim_lease_alive(dead))
		r = give_back_dead(s, dead);
	reclaim_lease_unref(dead);
	for (size_t a = 0; r == 0 && a < s->naxes; a++)
		if (reclaim_knob_read(s->cli->ctx, s->axes[a].knob, &s->axes[a].before) < 0 ||
		    reclaim_lease_hold(s->lease, s->axes[a].knob, s->axes[a].before) < 0)
			r = lib_fail(s->cli, EXIT_FAILURE, "sweep");
	/* "sweep: already running as PID 4711 (/run/reclaimctl/sweep)" */
	if (r == 0 && reclaim_lease_claim(s->lease) < 0)
		r = lib_fail(s->cli, EXIT_FAILURE, NULL);
	return r;
}

/* The knobs still at the sweep's values back to those from before it, with one 'set'. */
static int release_own(struct sweep *s, struct reclaim_eval **e)
{
	return reclaim_lease_release(s->lease, RECLAIM_REQUEST_SET,
				     s->flags | RECLAIM_REQUEST_STRICT, "sweep:before",
				     "sweep: the value before the sweep", e);
}

/*
 * The sweep's change cannot be joined or undone: another came after it (or
 * undid it). The knobs still at the values the sweep wrote last go back to
 * their values from before it, with one 'set'; the others are left as the
 * other change made them. Said in one line, with why.
 */
static int put_back_own(struct sweep *s)
{
	struct reclaim_eval *e = NULL;
	char put[1024] = "", left[1024] = "";
	int r;

	r = release_own(s, &e);
	reclaim_eval_unref(e);
	if (r == 0)
		lease_lists(s->lease, put, sizeof(put), left, sizeof(left));
	if (s->stale_run)
		fprintf(stderr, "reclaimctl: sweep: run %zu of %zu: %s; stopped", s->stale_run,
			s->nruns, s->stale);
	else
		fprintf(stderr, "reclaimctl: sweep: cannot undo its change: %s", s->stale);
	if (r < 0) {
		fprintf(stderr, "; cannot put the knobs back: %s; to put them back: ",
			reclaim_strerror(s->cli->ctx));
		print_undo_command(s, stderr);
	} else if (*put) {
		fprintf(stderr, "; put back %s (the value%s before the sweep)", put,
			strchr(put, ',') ? "s" : "");
	}
	if (*left)
		fprintf(stderr, "; left %s as the other change made %s", left,
			strchr(left, ',') ? "them" : "it");
	if (r == 0 && !*put && !*left)
		fputs("; the knobs are at their values from before the sweep", stderr);
	fputc('\n', stderr);
	return EXIT_FAILURE;
}

/* A line per knob @e put back, "vm.x: 7 -> 3 (@note)"; no @note: why the engine says. */
static void print_put_back(const struct reclaim_eval *e, const char *note)
{
	for (size_t i = 0; i < reclaim_eval_count(e); i++) {
		const char *why = note;

		if (reclaim_eval_action(e, i) != RECLAIM_ACTION_SET)
			continue;
		if (!why)
			why = strncmp(reclaim_eval_source(e, i), "change:", 7) == 0
				  ? "its value before the sweep"
				  : reclaim_eval_reason(e, i);
		const struct reclaim_knob *k = reclaim_eval_knob(e, i);

		fprintf(stderr, "reclaimctl: sweep: %s: %s -> %s (%s)\n", reclaim_knob_label(k),
			KNOB_TEXT(k, reclaim_eval_old(e, i)), KNOB_TEXT(k, reclaim_eval_new(e, i)),
			why);
	}
}

/* The knobs could not be put back: why, and what to run. */
static int cannot_put_back(struct sweep *s)
{
	int r = lib_fail(s->cli, EXIT_FAILURE, "sweep: cannot put the knobs back");

	fprintf(stderr, "reclaimctl: sweep: to put them back: ");
	print_undo_command(s, stderr);
	fputc('\n', stderr);
	return r;
}

/* A restore of the sweep's change: the values from before the sweep. */
static int put_back(struct sweep *s)
{
	struct reclaim_request *req = NULL;
	struct reclaim_eval *e = NULL;
	int a = -1;

	if (reclaim_request_new(s->cli->ctx, RECLAIM_REQUEST_RESTORE, 0, &req) == 0 &&
	    reclaim_request_set_change(req, s->change) == 0)
		a = reclaim_request_apply(req, &e);
	reclaim_request_unref(req);
	if (a == -ESTALE) {
		s->stale = strdup(reclaim_strerror(s->cli->ctx));
		if (!s->stale)
			abort();
		return put_back_own(s);
	}
	if (a < 0)
		return cannot_put_back(s);
	print_put_back(e, NULL);
	reclaim_eval_unref(e);
	return 0;
}

/*
 * The last run's command left a knob at a value of its own, which a restore
 * of the sweep's change would take for another writer's and send to its
 * boot value: the knobs still at the sweep's values (that one included) go
 * back to their values from before the sweep with one 'set'.
 */
static int put_back_moved(struct sweep *s)
{
	struct reclaim_eval *e = NULL;
	int r;

	r = release_own(s, &e);
	if (r < 0)
		return cannot_put_back(s);
	print_put_back(e, "its value before the sweep; the command had changed it");
	reclaim_eval_unref(e);
	return 0;
}

/* One line a run, when it ends. */
static void print_run(const struct sweep *s, size_t i)
{
	const struct sweep_run *run = &s->runs[i];

	printf("run %zu of %zu: %s: %s", i + 1, s->nruns, s->labels[run->combo],
	       run_state_name(run->state));
	if (run->moved)
		printf(" (the command changed %s to %s)", reclaim_knob_label(run->moved->knob),
		       KNOB_TEXT(run->moved->knob, run->moved->moved_to));
	else if (run->exit_status > 0)
		printf(" (exit status %d)", run->exit_status);
	else if (run->signal >= 0)
		printf(" (signal %d)", run->signal);
	if (run->has[FIG_WALL])
		printf(", %.2f s", run->fig[FIG_WALL]);
	for (size_t m = 0; m < s->nmetrics; m++)
		if (run->has[NFIGS + m]) {
			char buf[64];

			format_figure(buf, sizeof(buf), NFIGS + m, run->fig[NFIGS + m]);
			printf(", %s %s", s->metrics[m].name, buf);
		}
	putchar('\n');
	flush_stdout();
}

/* The files an earlier sweep wrote in DIR: left, a shorter sweep would seem to hold its runs. */
static bool earlier_file(const char *name)
{
	static const char *const patterns[] = {"run-[0-9][0-9][0-9]*-*.jsonl",
					       "run-[0-9][0-9][0-9]*-*.log", "summary.json",
					       "summary.csv", "report.html"};

	for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
		if (fnmatch(patterns[i], name, FNM_PERIOD) == 0)
			return true;
	return false;
}

static int remove_earlier(const struct sweep *s)
{
	DIR *d = opendir(s->dir);
	struct dirent *e;
	int r = 0;

	if (!d)
		return fail(EXIT_FAILURE, "cannot read %s: %s", s->dir, strerror(errno));
	while (r == 0 && (errno = 0, e = readdir(d)))
		if (earlier_file(e->d_name) && unlinkat(dirfd(d), e->d_name, 0) < 0 &&
		    errno != ENOENT)
			r = fail(EXIT_FAILURE, "cannot remove %s/%s: %s", s->dir, e->d_name,
				 strerror(errno));
	if (r == 0 && errno)
		r = fail(EXIT_FAILURE, "cannot read %s: %s", s->dir, strerror(errno));
	closedir(d);
	return r;
}

static int sweep(struct sweep *s)
{
	int r = 0, sig, put, out_err = 0;

	if (mkdir(s->dir, 0755) < 0 && errno != EEXIST)
		return fail(EXIT_FAILURE, "cannot create %s: %s", s->dir, strerror(errno));
	if (access(s->dir, W_OK | X_OK) < 0)
		return fail(EXIT_FAILURE, "cannot write in %s: %s", s->dir, strerror(errno));
	/* claimed first: a sweep refused (another runs) leaves DIR as it was */
	r = take_lease(s);
	if (r == 0 && (r = remove_earlier(s)) != 0)
		reclaim_lease_drop(s->lease);
	if (r)
		return r;
	s->start_ns = monotonic_ns();
	record_catch_signals();
	signal(SIGPIPE, SIG_IGN);
	for (size_t i = 0; i < s->nruns && r == 0 && !record_signal(); i++) {
		struct sweep_run *run = &s->runs[i];

		r = one_run(s, i);
		if (r || run->state == RUN_NOT_RUN)
			break;
		if (!s->cli->json)
			print_run(s, i);
		/* its reader gone (| head): ended like a signal, knobs put back */
		if ((out_err = stdout_error()) != 0)
			break;
		if (run->state == RUN_FAILED && !s->keep_going) {
			if (run->moved)
				r = fail(EXIT_FAILURE,
					 "sweep: run %zu of %zu: the command changed %s to %s: "
					 "stopped",
					 i + 1, s->nruns, reclaim_knob_label(run->moved->knob),
					 KNOB_TEXT(run->moved->knob, run->moved->moved_to));
			else
				r = fail(EXIT_FAILURE, "sweep: run %zu failed: stopped (see %s/%s)",
					 i + 1, s->dir, run->log);
			break;
		}
		if (run->state == RUN_FAILED)
			r = 0;
	}
	/* Also after a signal: the handlers stay, so that a second Ctrl-C cannot cut it short. */
	put = s->stale	      ? put_back_own(s)
	      : s->moved      ? put_back_moved(s)
	      : s->change > 0 ? put_back(s)
			      : 0;
	/* put back: the lease ends; else its file stays, for the next sweep to give back */
	if (!s->stale && put == 0 && reclaim_lease_drop(s->lease) < 0)
		put = lib_fail(s->cli, EXIT_FAILURE, "sweep");
	sig = record_signal();
	record_restore_signals();
	if (s->done || sig) {
		int w = write_summary(s, sig);

		if (r == 0)
			r = w;
	}
	if (r == 0)
		r = put;
	for (size_t i = 0; r == 0 && i < s->nruns; i++)
		if (s->runs[i].state == RUN_FAILED)
			r = EXIT_FAILURE;
	if (sig) {
		fprintf(stderr, "reclaimctl: sweep: interrupted by SIG%s after %zu of %zu runs\n",
			sigabbrev_np(sig), s->done, s->nruns);
		return 128 + sig;
	}
	if (out_err)
		return fail(EXIT_FAILURE,
			    "sweep: cannot write to standard output (%s): stopped after %zu of %zu "
			    "runs",
			    strerror(out_err), s->done, s->nruns);
	return r;
}

static void sweep_free(struct sweep *s)
{
	for (size_t a = 0; a < s->naxes; a++) {
		for (size_t v = 0; v < s->axes[a].nvalues; v++)
			free(s->axes[a].texts[v]);
		free(s->axes[a].texts);
		free(s->axes[a].values);
		free((char *)s->axes[a].given);
	}
	free(s->axes);
	reclaim_topology_unref(s->topo);
	for (size_t m = 0; m < s->nmetrics; m++) {
		regfree(&s->metrics[m].re);
		free(s->metrics[m].name);
	}
	free(s->metrics);
	for (size_t c = 0; s->labels && c < s->ncombos; c++)
		free(s->labels[c]);
	free(s->labels);
	for (size_t i = 0; i < s->nruns; i++) {
		free(s->runs[i].file);
		free(s->runs[i].log);
		free(s->runs[i].has);
		free(s->runs[i].fig);
	}
	free(s->runs);
	free(s->stale);
	reclaim_lease_unref(s->lease);
}

/* The number of runs, refused past the limit: a product too large for size_t too. */
static int check_run_count(const struct sweep *s)
{
	size_t runs = (size_t)s->repeat;

	for (size_t a = 0; a < s->naxes; a++)
		if (__builtin_mul_overflow(runs, s->axes[a].nvalues, &runs))
			return usage_error("sweep: more than %zu runs: at most %d", SIZE_MAX,
					   SWEEP_MAX_RUNS);
	if (runs > SWEEP_MAX_RUNS)
		return usage_error("sweep: %zu runs: at most %d", runs, SWEEP_MAX_RUNS);
	return 0;
}

static int run_sweep(struct cli *cli, int argc, char **argv)
{
	struct sweep s = {.cli = cli, .interval = 1.0, .repeat = 1, .interleave = true};
	int r;

	r = parse_options(&s, argc, argv);
	if (r == 0)
		r = check_run_count(&s);
	if (r == 0) {
		make_runs(&s);
		s.progress = isatty(STDERR_FILENO);
		r = check_all(&s);
	}
	if (r == 0) {
		drift_note(cli);
		r = sweep(&s);
	}
	sweep_free(&s);
	return r < 0 ? 0 : r;
}

const struct command cmd_sweep = {
    .name = "sweep",
    .run = run_sweep,
    .args = "[--repeat N] [--no-interleave] [-i SECONDS] [--latency] [-m NAME=REGEX]... "
	    "[--warmup COMMAND] "
	    "--dir DIR KNOB=VALUE[,VALUE...]... -- COMMAND [ARGS...]",
    .summary = "Run a workload under each knob value, record each run, compare them",
    .help = sweep_help,
    .reads_knobs = true,
};
