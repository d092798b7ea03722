// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder of reclaimctl record and sweep: samples what monitor shows,
 * plus the raw counters, each kswapd thread's CPU time and the knobs, into
 * a JSON-lines file; optionally while a command runs. The format is in
 * reclaimctl(8), RECORD FILE FORMAT; reader.c reads it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model.h"
#include "reclaimctl.h"
#include "record.h"
#include "report.h"
#include "sampling.h"
#include "tracing.h"

struct recorder {
	struct cli *cli;
	double interval, duration; /* duration 0: no limit */
	const char *output;
	char **command; /* NULL-terminated, or NULL */
	FILE *out;
	struct reclaim_sampler *sampler;
	struct reclaim_sample *first, *prev;
	long samples;
	pid_t child;
	int status;
	bool reaped, timed_out;
	uint64_t child_start, child_end;
	int command_output; /* the command's stdout and stderr, or -1: reclaimctl's */
	bool forward_sigint, own_group, latency;
	void (*tick)(void *data);
	void *tick_data;
};

static volatile sig_atomic_t got_signal, got_child, nsignals;

/* The first signal is the one reported; a second one only hurries the end. */
static void on_signal(int sig)
{
	if (!got_signal)
		got_signal = sig;
	nsignals++;
}

static void on_child(int sig)
{
	got_child = 1;
}

void record_catch_signals(void)
{
	struct sigaction sa = {.sa_handler = on_signal};
	struct sigaction sc = {.sa_handler = on_child, .sa_flags = SA_NOCLDSTOP};

	sigemptyset(&sa.sa_mask);
	sigemptyset(&sc.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &sc, NULL);
}

void record_restore_signals(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
}

void record_child_setup(bool own_group)
{
	int fd;

	record_restore_signals();
	/* sweep ignores it; an ignored signal stays ignored across exec */
	signal(SIGPIPE, SIG_DFL);
	if (!own_group)
		return;
	setpgid(0, 0);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && fd != STDIN_FILENO) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
}

static void send_signal(pid_t pid, bool group, int sig)
{
	kill(group ? -pid : pid, sig);
}

int record_wait(pid_t pid, bool group, int sig, int *status)
{
	uint64_t deadline = 0;
	sig_atomic_t seen = 0;

	for (;;) {
		pid_t w;

		if (!deadline && (sig >= 0 || got_signal)) {
			send_signal(pid, group, sig >= 0 ? sig : got_signal);
			deadline = monotonic_ns() + RECORD_GRACE_SECONDS * 1000000000ULL;
			seen = nsignals;
		} else if (deadline && (nsignals != seen || monotonic_ns() >= deadline)) {
			send_signal(pid, group, SIGKILL);
			sig = SIGKILL;
		}
		/* blocking until a signal comes; polled while the grace runs */
		w = waitpid(pid, status, deadline && sig != SIGKILL ? WNOHANG : 0);
		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (w == 0)
			nanosleep(&(struct timespec){.tv_nsec = 20000000}, NULL);
	}
}

static int write_line(struct recorder *rec, cJSON *o)
{
	char *s = cJSON_PrintUnformatted(o);

	if (!s)
		abort();
	fprintf(rec->out, "%s\n", s);
	free(s);
	cJSON_Delete(o);
	if (fflush(rec->out) != 0 || ferror(rec->out))
		return fail(EXIT_FAILURE, "cannot write %s: %s", rec->output, strerror(errno));
	return 0;
}

static cJSON *line_new(const char *type, const struct recorder *rec,
		       const struct reclaim_sample *at)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "type", type);
	json_add_time(o, "time", (int64_t)reclaim_sample_realtime_ns(at));
	cJSON_AddNumberToObject(o, "elapsed", round_to(reclaim_sample_interval(rec->first, at), 3));
	return o;
}

static cJSON *json_knobs(const struct reclaim_sample *smp)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		int64_t v;

		if (reclaim_sample_knob(smp, k, &v) == 0)
			cJSON_AddNumberToObject(o, reclaim_knob_name(k), (double)v);
		else
			cJSON_AddNullToObject(o, reclaim_knob_name(k));
	}
	return o;
}

/* The nodes' CPUs and memory: what adapt --replay takes its default bounds from. */
static cJSON *json_topology(struct reclaim_ctx *ctx)
{
	struct reclaim_topology *topo;
	cJSON *a;

	if (reclaim_topology_new(ctx, &topo) < 0)
		return cJSON_CreateNull();
	a = cJSON_CreateArray();
	for (size_t i = 0; i < reclaim_topology_node_count(topo); i++) {
		const struct reclaim_node *n = reclaim_topology_node(topo, i);
		cJSON *o = cJSON_CreateObject();
		size_t ncpus;

		reclaim_node_cpus(n, &ncpus);
		cJSON_AddNumberToObject(o, "node", reclaim_node_id(n));
		cJSON_AddNumberToObject(o, "cpus", (double)ncpus);
		cJSON_AddBoolToObject(o, "memory", reclaim_node_has_memory(n));
		cJSON_AddItemToArray(a, o);
	}
	reclaim_topology_unref(topo);
	return a;
}

static int write_header(struct recorder *rec)
{
	cJSON *o = cJSON_CreateObject(), *a;
	const char *release = reclaim_kernel_release(rec->cli->ctx);
	const char *sysroot = reclaim_get_sysroot(rec->cli->ctx);
	char host[256];

	cJSON_AddStringToObject(o, "type", "header");
	cJSON_AddNumberToObject(o, "schema", RECORD_SCHEMA);
	cJSON_AddStringToObject(o, "version", RECLAIMCTL_VERSION);
	json_add_time(o, "start", (int64_t)reclaim_sample_realtime_ns(rec->first));
	if (reclaim_is_live(rec->cli->ctx) && gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		cJSON_AddStringToObject(o, "hostname", host);
	} else {
		cJSON_AddNullToObject(o, "hostname");
	}
	cJSON_AddItemToObject(o, "kernel",
			      release ? cJSON_CreateString(release) : cJSON_CreateNull());
	cJSON_AddStringToObject(o, "sysroot", sysroot);
	cJSON_AddNumberToObject(o, "interval", rec->interval);
	cJSON_AddItemToObject(o, "duration", json_number_or_null(rec->duration > 0, rec->duration));
	if (rec->command) {
		a = cJSON_AddArrayToObject(o, "command");
		for (char **c = rec->command; *c; c++)
			cJSON_AddItemToArray(a, cJSON_CreateString(*c));
	} else {
		cJSON_AddNullToObject(o, "command");
	}
	a = cJSON_AddArrayToObject(o, "nodes");
	for (size_t i = 0; i < reclaim_sample_node_count(rec->first); i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(reclaim_sample_node_id(rec->first, i)));
	cJSON_AddItemToObject(o, "topology", json_topology(rec->cli->ctx));
	cJSON_AddItemToObject(o, "knobs", json_knobs(rec->first));
	a = cJSON_AddObjectToObject(o, "units");
	for (enum reclaim_figure f = 0; f < _RECLAIM_FIGURE_MAX; f++)
		cJSON_AddStringToObject(a, reclaim_figure_text(f, RECLAIM_FIGURE_KEY),
					reclaim_figure_text(f, RECLAIM_FIGURE_UNIT));
	return write_line(rec, o);
}

static cJSON *json_threads(const struct reclaim_sample *prev, const struct reclaim_sample *cur)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < reclaim_sample_kswapd_count(cur); i++) {
		cJSON *t = cJSON_CreateObject();

		cJSON_AddNumberToObject(t, "pid", reclaim_sample_kswapd_pid(cur, i));
		cJSON_AddStringToObject(t, "name", reclaim_sample_kswapd_name(cur, i));
		cJSON_AddNumberToObject(t, "node", reclaim_sample_kswapd_node(cur, i));
		cJSON_AddNumberToObject(t, "cpu_seconds",
					round_to(reclaim_sample_kswapd_cpu_seconds(cur, i), 3));
		cJSON_AddItemToObject(
		    t, "cpu_percent",
		    json_number_or_null(
			prev != NULL,
			prev ? round_to(reclaim_sample_kswapd_cpu_percent(prev, cur, i), 2) : 0));
		cJSON_AddItemToArray(a, t);
	}
	return a;
}

static void add_pressure_totals(cJSON *o, const struct reclaim_sample *cur)
{
	const struct reclaim_pressure *p = reclaim_sample_pressure(cur);
	bool some = p && reclaim_pressure_has(p, RECLAIM_PRESSURE_SOME);
	bool full = p && reclaim_pressure_has(p, RECLAIM_PRESSURE_FULL);

	cJSON_AddItemToObject(
	    o, "psi_some_total_us",
	    json_number_or_null(some, some ? (double)reclaim_pressure_total_us(p, 0) : 0));
	cJSON_AddItemToObject(
	    o, "psi_full_total_us",
	    json_number_or_null(full, full ? (double)reclaim_pressure_total_us(p, 1) : 0));
}

/* The figures of monitor --json: from @prev to @cur, null for the first sample. */
static void add_rates(cJSON *o, const struct reclaim_sample *prev, const struct reclaim_sample *cur)
{
	struct row r;

	if (prev)
		row_compute(&r, prev, cur, -1);
	cJSON_AddItemToObject(o, "interval",
			      json_number_or_null(prev, prev ? round_to(r.interval, 3) : 0));
	row_add_json(o, prev ? &r : NULL, -1, cur);
}

static cJSON *json_nodes(const struct reclaim_sample *prev, const struct reclaim_sample *cur)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; prev && i < reclaim_sample_node_count(cur); i++) {
		cJSON *n = cJSON_CreateObject();
		int node = reclaim_sample_node_id(cur, i);
		struct row r;

		row_compute(&r, prev, cur, node);
		row_add_json(n, &r, node, cur);
		cJSON_AddItemToArray(a, n);
	}
	return a;
}

/* Each kind's waits since the start: total, longest, and the buckets that are not empty. */
static void add_latency(cJSON *o, const struct reclaim_sample *cur)
{
	cJSON *l = NULL;

	for (size_t k = 0; k < reclaim_latency_kind_count(); k++) {
		enum reclaim_latency_kind kind = (enum reclaim_latency_kind)k;
		uint64_t total, max;
		cJSON *x, *b;
		char key[24];

		if (reclaim_sample_latency(cur, kind, NULL, &total, &max) < 0)
			continue;
		if (!l)
			l = cJSON_AddObjectToObject(o, "latency");
		x = cJSON_AddObjectToObject(l, reclaim_latency_kind_name(kind));
		cJSON_AddNumberToObject(x, "total_us", (double)total);
		cJSON_AddNumberToObject(x, "max_us", (double)max);
		b = cJSON_AddObjectToObject(x, "buckets");
		for (size_t i = 0; i < reclaim_latency_bucket_count(); i++) {
			uint64_t n = reclaim_sample_latency_bucket(cur, kind, i);

			snprintf(key, sizeof(key), "%zu", i);
			if (n)
				cJSON_AddNumberToObject(b, key, (double)n);
		}
	}
}

static int write_sample(struct recorder *rec, const struct reclaim_sample *prev,
			const struct reclaim_sample *cur)
{
	cJSON *o = line_new("sample", rec, cur);

	add_rates(o, prev, cur);
	add_pressure_totals(o, cur);
	cJSON_AddItemToObject(o, "counters", json_vmstat(reclaim_sample_vmstat(cur)));
	cJSON_AddItemToObject(o, "threads", json_threads(prev, cur));
	cJSON_AddItemToObject(o, "nodes", json_nodes(prev, cur));
	cJSON_AddItemToObject(o, "knobs", json_knobs(cur));
	add_latency(o, cur);
	rec->samples++;
	return write_line(rec, o);
}

/* A knob whose value differs from the previous sample's: one event line each. */
static int write_knob_events(struct recorder *rec, const struct reclaim_sample *prev,
			     const struct reclaim_sample *cur)
{
	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		int64_t a = 0, b = 0;
		bool ha = reclaim_sample_knob(prev, k, &a) == 0;
		bool hb = reclaim_sample_knob(cur, k, &b) == 0;
		cJSON *o;
		int r;

		if (ha == hb && a == b)
			continue;
		o = line_new("event", rec, cur);
		cJSON_AddStringToObject(o, "event", "knob");
		cJSON_AddStringToObject(o, "knob", reclaim_knob_name(k));
		cJSON_AddItemToObject(o, "old", json_number_or_null(ha, (double)a));
		cJSON_AddItemToObject(o, "new", json_number_or_null(hb, (double)b));
		r = write_line(rec, o);
		if (r)
			return r;
	}
	return 0;
}

static int write_threads_event(struct recorder *rec, const struct reclaim_sample *cur)
{
	cJSON *o = line_new("event", rec, cur), *a;

	cJSON_AddStringToObject(o, "event", "kswapd_threads");
	cJSON_AddNumberToObject(o, "threads", (double)reclaim_sample_kswapd_count(cur));
	a = cJSON_AddArrayToObject(o, "names");
	for (size_t i = 0; i < reclaim_sample_kswapd_count(cur); i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(reclaim_sample_kswapd_name(cur, i)));
	return write_line(rec, o);
}

static int take_sample(struct recorder *rec)
{
	struct reclaim_sample *cur;
	int r;

	if (reclaim_sampler_read(rec->sampler, &cur) < 0)
		return lib_fail(rec->cli, EXIT_FAILURE, NULL);
	r = write_knob_events(rec, rec->prev, cur);
	if (r == 0 && reclaim_sample_kswapd_changed(cur))
		r = write_threads_event(rec, cur);
	if (r == 0)
		r = write_sample(rec, rec->prev, cur);
	reclaim_sample_unref(rec->prev);
	rec->prev = cur;
	return r;
}

static int start_command(struct recorder *rec)
{
	rec->child_start = monotonic_ns();
	rec->child = fork();
	if (rec->child < 0)
		return fail(EXIT_FAILURE, "cannot start '%s': %s", rec->command[0],
			    strerror(errno));
	if (rec->child == 0) {
		record_child_setup(rec->own_group);
		if (rec->command_output >= 0 && (dup2(rec->command_output, STDOUT_FILENO) < 0 ||
						 dup2(rec->command_output, STDERR_FILENO) < 0))
			_exit(126);
		if (rec->out != stdout)
			fclose(rec->out);
		execvp(rec->command[0], rec->command);
		fprintf(stderr, "reclaimctl: cannot run '%s': %s\n", rec->command[0],
			strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	/* in the parent too: a signal sent before the child ran must reach its group */
	if (rec->own_group)
		setpgid(rec->child, rec->child);
	return 0;
}

static void reap(struct recorder *rec, bool block)
{
	pid_t r;

	if (rec->child <= 0 || rec->reaped)
		return;
	do
		r = waitpid(rec->child, &rec->status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == rec->child) {
		rec->reaped = true;
		rec->child_end = monotonic_ns();
	}
}

static int write_end(struct recorder *rec, const char *reason)
{
	cJSON *o = line_new("end", rec, rec->prev);

	cJSON_AddStringToObject(o, "reason", reason);
	cJSON_AddNumberToObject(o, "samples", (double)rec->samples);
	if (rec->child > 0 && rec->reaped) {
		cJSON_AddItemToObject(
		    o, "exit_status",
		    json_number_or_null(WIFEXITED(rec->status), WEXITSTATUS(rec->status)));
		cJSON_AddItemToObject(
		    o, "signal",
		    json_number_or_null(WIFSIGNALED(rec->status), WTERMSIG(rec->status)));
		cJSON_AddNumberToObject(
		    o, "wall_seconds",
		    round_to((double)(rec->child_end - rec->child_start) / 1e9, 3));
	} else {
		cJSON_AddNullToObject(o, "exit_status");
		cJSON_AddNullToObject(o, "signal");
		cJSON_AddNullToObject(o, "wall_seconds");
	}
	cJSON_AddBoolToObject(o, "timed_out", rec->timed_out);
	return write_line(rec, o);
}

/* Samples until the duration is over, the command exits or a signal comes. */
static int sample_loop(struct recorder *rec, const char **reason)
{
	uint64_t start = reclaim_sample_monotonic_ns(rec->first);
	uint64_t step = (uint64_t)(rec->interval * 1e9);
	uint64_t end = rec->duration > 0 ? start + (uint64_t)(rec->duration * 1e9) : UINT64_MAX;

	for (uint64_t n = 1;; n++) {
		uint64_t deadline;
		bool last = false;
		int r;

		n = next_tick(start, step, n);
		deadline = start + n * step;

		if (deadline >= end) {
			deadline = end;
			last = true;
		}
		while (!sleep_until(deadline) && !got_signal && !got_child)
			;
		if (got_child) {
			got_child = 0;
			reap(rec, false);
		}
		if (got_signal) {
			*reason = "interrupted";
			last = true;
		} else if (rec->reaped) {
			*reason = "command";
			last = true;
		} else if (last) {
			*reason = "duration";
		}
		if (!last && monotonic_ns() < deadline) {
			n--; /* woken early by something else: the same deadline again */
			continue;
		}
		r = take_sample(rec);
		if (r || last)
			return r;
		if (rec->tick)
			rec->tick(rec->tick_data);
	}
}

/*
 * After the loop: a command still running is ended (duration) or waited for;
 * past the grace period after a signal, killed.
 */
static void finish_command(struct recorder *rec)
{
	/* a SIGINT not sent on (the terminal's reached it): 0, nothing sent, the grace runs */
	int sig = 0;

	if (rec->child <= 0 || rec->reaped)
		return;
	if (got_signal && (got_signal != SIGINT || rec->forward_sigint)) {
		sig = got_signal;
	} else if (!got_signal) {
		rec->timed_out = true;
		sig = SIGTERM;
	}
	if (record_wait(rec->child, rec->own_group, sig, &rec->status) == 0) {
		rec->reaped = true;
		rec->child_end = monotonic_ns();
	}
}

static int record(struct recorder *rec)
{
	const char *reason = "duration";
	int r;

	unsigned flags = RECLAIM_SAMPLER_NODES | RECLAIM_SAMPLER_KNOBS | RECLAIM_SAMPLER_CPUS |
			 (rec->latency ? RECLAIM_SAMPLER_LATENCY : 0);

	if (reclaim_sampler_new(rec->cli->ctx, flags, &rec->sampler) < 0)
		return lib_fail(rec->cli, EXIT_FAILURE, NULL);
	if (rec->latency)
		tracing_started(reclaim_sampler_latency(rec->sampler));
	if (reclaim_sampler_read(rec->sampler, &rec->first) < 0)
		return lib_fail(rec->cli, EXIT_FAILURE, NULL);
	r = write_header(rec);
	if (r == 0)
		r = write_sample(rec, NULL, rec->first);
	rec->prev = reclaim_sample_ref(rec->first);
	if (r == 0 && rec->command)
		r = start_command(rec);
	if (r == 0)
		r = sample_loop(rec, &reason);
	finish_command(rec);
	if (r == 0)
		r = write_end(rec, reason);
	return r;
}

int record_signal(void)
{
	return got_signal;
}

int record_run(struct cli *cli, struct record_run *run)
{
	struct recorder rec = {
	    .cli = cli,
	    .interval = run->interval,
	    .duration = run->duration,
	    .output = run->output,
	    .command = run->command,
	    .command_output = run->command_output,
	    .forward_sigint = run->forward_sigint,
	    .own_group = run->own_group,
	    .latency = run->latency,
	    .tick = run->tick,
	    .tick_data = run->tick_data,
	};
	bool to_stdout = strcmp(rec.output, "-") == 0;
	int r;

	rec.out = to_stdout ? stdout : fopen(rec.output, "we");
	if (!rec.out)
		return fail(EXIT_FAILURE, "cannot write %s: %s", rec.output, strerror(errno));
	r = record(&rec);
	if (!to_stdout && fclose(rec.out) != 0 && r == 0)
		r = fail(EXIT_FAILURE, "cannot write %s: %s", rec.output, strerror(errno));
	run->reaped = rec.child > 0 && rec.reaped;
	run->status = rec.status;
	run->wall_seconds = run->reaped ? (double)(rec.child_end - rec.child_start) / 1e9 : -1.0;
	run->samples = rec.samples;
	reclaim_sample_unref(rec.prev);
	reclaim_sample_unref(rec.first);
	reclaim_sampler_unref(rec.sampler);
	return r;
}
