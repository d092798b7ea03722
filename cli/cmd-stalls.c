// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl stalls: which processes lose time to memory reclaim, from the
 * kernel's delay accounting (taskstats over generic netlink).
 *
 * The processes are the numeric entries of /proc, listed once per run: a
 * process started during the interval is not seen, one that exited is
 * dropped. Each is asked for twice (at the start and after the interval) and
 * the difference shown.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reclaimctl.h"
#include "sampling.h"

/* The delay kinds: reclaim, thrashing, swap-in, compaction (taskstats' order). */
#define NKINDS 4

struct task {
	pid_t pid;
	char comm[32];
	uint64_t count[NKINDS], total_ns[NKINDS];
};

struct stalls {
	struct cli *cli;
	double interval; /* 0: totals since each process started */
	long top;
	bool enable;
	struct reclaim_taskstats *ts;
	pid_t *pids;
	size_t npids;
	struct reclaim_task_delays **before; /* one per pid, NULL if it was gone */
	struct task *tasks;
	size_t ntasks;
	int version;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

/* SIGINT/SIGTERM/SIGHUP end the interval early, so that --enable is undone. */
static void catch_signals(void)
{
	struct sigaction sa = {.sa_handler = on_signal};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* The error, then how to turn it on, indented as a hint (the message itself is one line). */
static void delayacct_off(void)
{
	fail(EXIT_FAILURE, "delay accounting is off (kernel.task_delayacct = 0): the kernel does "
			   "not count any task's reclaim delays.");
	fputs("  Turn it on with 'sysctl kernel.task_delayacct=1' (or boot with 'delayacct'),\n"
	      "  or let this command do it for its run: reclaimctl stalls --enable.\n"
	      "  Only processes started while it is on are counted.\n",
	      stderr);
}

/* 1: this run turned delay accounting on (and must turn it off again). */
static int check_delayacct(struct stalls *s)
{
	int r = reclaim_delayacct_get(s->cli->ctx);

	if (r == -ENOENT)
		return 0; /* kernels before 5.14 count whenever CONFIG_TASK_DELAY_ACCT is set */
	if (r < 0) {
		lib_fail(s->cli, EXIT_FAILURE, NULL);
		return -1;
	}
	if (r == 1)
		return 0;
	if (!s->enable) {
		delayacct_off();
		return -1;
	}
	if (reclaim_delayacct_set(s->cli->ctx, true) < 0) {
		lib_fail(s->cli, EXIT_FAILURE, "--enable");
		return -1;
	}
	warnmsg("delay accounting turned on for this run (kernel.task_delayacct = 1); "
		"processes started before now are not counted");
	return 1;
}

static int query(struct stalls *s, pid_t pid, struct reclaim_task_delays **d)
{
	int r = reclaim_taskstats_query(s->ts, pid, d);

	if (r == -ESRCH) {
		*d = NULL;
		return 0;
	}
	return r;
}

static int snapshot_before(struct stalls *s)
{
	s->before = calloc(s->npids ? s->npids : 1, sizeof(*s->before));
	if (!s->before)
		return -ENOMEM;
	for (size_t i = 0; i < s->npids; i++) {
		int r = query(s, s->pids[i], &s->before[i]);

		if (r < 0)
			return r;
	}
	return 0;
}

static void add_task(struct stalls *s, const struct reclaim_task_delays *a,
		     const struct reclaim_task_delays *b)
{
	struct task *t = &s->tasks[s->ntasks];
	bool any = false;

	memset(t, 0, sizeof(*t));
	t->pid = reclaim_task_delays_pid(b);
	snprintf(t->comm, sizeof(t->comm), "%s", reclaim_task_delays_comm(b));
	for (int k = 0; k < NKINDS; k++) {
		t->count[k] = reclaim_task_delays_count(b, k);
		t->total_ns[k] = reclaim_task_delays_total_ns(b, k);
		if (a) {
			t->count[k] =
			    reclaim_counter_delta(reclaim_task_delays_count(a, k), t->count[k]);
			t->total_ns[k] = reclaim_counter_delta(reclaim_task_delays_total_ns(a, k),
							       t->total_ns[k]);
		}
		any |= t->count[k] || t->total_ns[k];
	}
	s->version = reclaim_task_delays_version(b);
	if (any)
		s->ntasks++;
}

static int snapshot_after(struct stalls *s)
{
	s->tasks = calloc(s->npids ? s->npids : 1, sizeof(*s->tasks));
	if (!s->tasks)
		return -ENOMEM;
	for (size_t i = 0; i < s->npids; i++) {
		struct reclaim_task_delays *d;
		int r;

		if (s->interval > 0 && !s->before[i])
			continue;
		r = query(s, s->pids[i], &d);
		if (r < 0)
			return r;
		if (!d)
			continue;
		add_task(s, s->interval > 0 ? s->before[i] : NULL, d);
		reclaim_task_delays_unref(d);
	}
	return 0;
}

static int cmp_task(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	for (int k = 0; k < NKINDS; k++) {
		if (x->total_ns[k] != y->total_ns[k])
			return x->total_ns[k] < y->total_ns[k] ? 1 : -1;
	}
	return (x->pid > y->pid) - (x->pid < y->pid);
}

enum {
	S_PID,
	S_COMMAND,
	S_RECLAIMS,
	S_RECLAIM_MS,
	S_AVG_MS,
	S_THRASHING,
	S_THRASHING_MS,
	S_SWAPINS,
	S_SWAPIN_MS,
	S_COMPACTIONS,
	S_COMPACT_MS,
};

/* The count and time columns of each delay kind. */
static const int kind_count_col[NKINDS] = {S_RECLAIMS, S_THRASHING, S_SWAPINS, S_COMPACTIONS};
static const int kind_ms_col[NKINDS] = {S_RECLAIM_MS, S_THRASHING_MS, S_SWAPIN_MS, S_COMPACT_MS};

static const struct colinfo stall_cols[] = {
    [S_PID] = {"PID", 0, COL_RIGHT, "process ID", "pid", CJ_NUMBER},
    [S_COMMAND] = {"COMMAND", 0.2, COL_TRUNC, "its name (comm)", "comm", CJ_STRING},
    [S_RECLAIMS] = {"RECLAIMS", 0, COL_RIGHT, "times in direct reclaim", "reclaim.count",
		    CJ_NUMBER},
    [S_RECLAIM_MS] = {"RECLAIM_MS", 0, COL_RIGHT, "milliseconds in direct reclaim",
		      "reclaim.delay_ms", CJ_NUMBER},
    [S_AVG_MS] = {"AVG_MS", 0, COL_RIGHT, "milliseconds per direct reclaim", NULL, CJ_NONE},
    [S_THRASHING] = {"THRASHING", 0, COL_RIGHT, "waits on thrashing pages", "thrashing.count",
		     CJ_NUMBER},
    [S_THRASHING_MS] = {"THRASHING_MS", 0, COL_RIGHT, "milliseconds of them", "thrashing.delay_ms",
			CJ_NUMBER},
    [S_SWAPINS] = {"SWAPINS", 0, COL_RIGHT, "waits for swap-in", "swapin.count", CJ_NUMBER},
    [S_SWAPIN_MS] = {"SWAPIN_MS", 0, COL_RIGHT, "milliseconds of them", "swapin.delay_ms",
		     CJ_NUMBER},
    [S_COMPACTIONS] = {"COMPACTIONS", 0, COL_RIGHT, "times in memory compaction", "compact.count",
		       CJ_NUMBER},
    [S_COMPACT_MS] = {"COMPACT_MS", 0, COL_RIGHT, "milliseconds in compaction", "compact.delay_ms",
		      CJ_NUMBER},
};

static const struct coltable stalls_columns =
    COLTABLE("stalls", stall_cols,
	     "PID,COMMAND,RECLAIMS,RECLAIM_MS,AVG_MS,THRASHING,THRASHING_MS,SWAPINS,SWAPIN_MS,"
	     "COMPACTIONS,COMPACT_MS",
	     "tasks[]");

/* Milliseconds: 1 decimal in the table, 3 in the JSON. */
static void set_ms(struct table *t, int id, uint64_t ns)
{
	char text[32];

	snprintf(text, sizeof(text), "%.1f", (double)ns / 1e6);
	table_set_value(t, id, text, cJSON_CreateNumber(round_to((double)ns / 1e6, 3)));
}

/* In the JSON's order of keys: each kind's count, then its delay. */
static void fill_tasks(struct table *t, const struct stalls *s, size_t shown)
{
	for (size_t i = 0; i < shown; i++) {
		const struct task *k = &s->tasks[i];
		char *comm = printable(k->comm); /* a process names itself: no escape sequences */

		table_row(t);
		table_set_int(t, S_PID, k->pid);
		table_set_value(t, S_COMMAND, comm, cJSON_CreateString(k->comm));
		free(comm);
		for (int j = 0; j < NKINDS; j++) {
			table_set_uint(t, kind_count_col[j], k->count[j]);
			set_ms(t, kind_ms_col[j], k->total_ns[j]);
		}
		if (k->count[0])
			set_ms(t, S_AVG_MS, k->total_ns[0] / k->count[0]);
		else
			table_set(t, S_AVG_MS, NULL);
	}
}

static void print_text(struct stalls *s, size_t shown)
{
	/* with -n or -r, for scripts: the rows alone */
	bool titles = !script_output(s->cli) && !s->cli->out.raw;
	struct table *t;

	if (titles && s->interval > 0)
		printf("Delays over %.1f s of %zu processes (taskstats version %d), "
		       "by time in direct reclaim:\n",
		       s->interval, s->npids, s->version);
	else if (titles)
		printf("Delays since each of %zu processes started (taskstats version %d), "
		       "by time in direct reclaim:\n",
		       s->npids, s->version);
	if (!shown) {
		if (titles)
			printf("no process was delayed by reclaim, thrashing, swap-in or "
			       "compaction\n");
		return;
	}
	t = table_new(s->cli, &stalls_columns);
	fill_tasks(t, s, shown);
	table_print(t);
	table_free(t);
}

static void print_json(struct stalls *s, size_t shown)
{
	cJSON *root = json_document();
	struct table *t;

	if (s->interval > 0)
		cJSON_AddNumberToObject(root, "interval", s->interval);
	else
		cJSON_AddNullToObject(root, "interval");
	cJSON_AddNumberToObject(root, "taskstats_version", s->version);
	cJSON_AddNumberToObject(root, "processes", (double)s->npids);
	t = table_new_json(s->cli, &stalls_columns);
	fill_tasks(t, s, shown);
	cJSON_AddItemToObject(root, "tasks", table_json_array(t));
	table_free(t);
	json_print(root);
	cJSON_Delete(root);
}

static int taskstats_fail(struct stalls *s, int r)
{
	if (r == -EPERM)
		return fail(EXIT_FAILURE,
			    "taskstats need CAP_NET_ADMIN (the kernel's TASKSTATS_CMD_GET is "
			    "for administrators): run reclaimctl stalls as root");
	return lib_fail(s->cli, EXIT_FAILURE, NULL);
}

static int measure(struct stalls *s)
{
	uint64_t end;
	int r;

	if (reclaim_proc_pids(s->cli->ctx, &s->pids, &s->npids) < 0)
		return lib_fail(s->cli, EXIT_FAILURE, NULL);
	if (s->interval > 0) {
		r = snapshot_before(s);
		if (r < 0)
			return taskstats_fail(s, r);
		end = monotonic_ns() + (uint64_t)(s->interval * 1e9);
		while (!interrupted && !sleep_until(end))
			;
		if (interrupted)
			return -EINTR;
	}
	r = snapshot_after(s);
	if (r < 0)
		return taskstats_fail(s, r);
	return 0;
}

static int report(struct stalls *s)
{
	size_t shown;
	int r;

	r = reclaim_taskstats_new(s->cli->ctx, &s->ts);
	if (r < 0)
		return lib_fail(s->cli, EXIT_FAILURE, NULL);
	r = measure(s);
	if (r == -EINTR)
		return fail(EXIT_FAILURE, "interrupted");
	if (r)
		return r;
	if (s->ntasks > 1)
		qsort(s->tasks, s->ntasks, sizeof(*s->tasks), cmp_task);
	shown = s->ntasks < (size_t)s->top ? s->ntasks : (size_t)s->top;
	if (s->cli->json)
		print_json(s, shown);
	else
		print_text(s, shown);
	return 0;
}

static void stalls_help(FILE *out)
{
	fputs("Shows the processes that lost the most time to memory reclaim over the\n"
	      "interval, from the kernel's delay accounting (taskstats): for each, how\n"
	      "often and how long it waited in direct reclaim, on thrashing pages, for\n"
	      "swap-in and in compaction (its threads summed). The processes are those\n"
	      "in /proc when the command starts. Needs kernel.task_delayacct = 1 and\n"
	      "CAP_NET_ADMIN (root).\n"
	      "\nOptions:\n"
	      "  -i, --interval SECONDS  measure over this long (default 5); 0: the totals\n"
	      "                          since each process started\n"
	      "  -t, --top N             show at most N processes (default 10)\n"
	      "      --enable            turn delay accounting on for the run if it is off\n"
	      "                          (turned off again at the end, also on Ctrl-C)\n"
	      "  -J, --json              JSON output\n"
	      "  -h, --help              this help\n",
	      out);
}

static int parse_options(struct stalls *s, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"interval", required_argument, NULL, 'i'},
	    {"top", required_argument, NULL, 't'},
	    {"enable", no_argument, NULL, 'E'},
	    COMMON_LONG_OPTIONS,
	    TABLE_LONG_OPTIONS,
	    {0},
	};
	int c;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS TABLE_SHORT_OPTIONS "i:t:", opts,
				NULL)) != -1) {
		bool done;
		int r;

		switch (c) {
		case 'i':
			if (strcmp(optarg, "0") == 0)
				s->interval = 0;
			else if (!parse_seconds(optarg, false, &s->interval))
				return usage_error(
				    "stalls: --interval: not a number of seconds: '%s'", optarg);
			break;
		case 't':
			if (!parse_count(optarg, &s->top))
				return usage_error("stalls: --top: not a positive number: '%s'",
						   optarg);
			break;
		case 'E':
			s->enable = true;
			break;
		default:
			r = common_option(s->cli, &cmd_stalls, c, argv, &done);
			if (done)
				return r ? r : -1;
		}
	}
	if (optind < argc)
		return usage_error("stalls: unexpected argument '%s'", argv[optind]);
	return table_check(s->cli, "stalls", &stalls_columns);
}

static void stalls_free(struct stalls *s)
{
	for (size_t i = 0; s->before && i < s->npids; i++)
		reclaim_task_delays_unref(s->before[i]);
	free(s->before);
	free(s->tasks);
	free(s->pids);
	reclaim_taskstats_unref(s->ts);
}

static int run_stalls(struct cli *cli, int argc, char **argv)
{
	struct stalls s = {.cli = cli, .interval = 5.0, .top = 10};
	int r, enabled;

	r = parse_options(&s, argc, argv);
	if (r)
		return r < 0 ? 0 : r;
	catch_signals();
	enabled = check_delayacct(&s);
	if (enabled < 0)
		return EXIT_FAILURE;
	r = report(&s);
	if (enabled && reclaim_delayacct_set(cli->ctx, false) < 0)
		r = lib_fail(cli, EXIT_FAILURE, "cannot turn delay accounting off again");
	else if (enabled)
		warnmsg("delay accounting turned off again (kernel.task_delayacct = 0)");
	stalls_free(&s);
	return r;
}

const struct command cmd_stalls = {
    .name = "stalls",
    .run = run_stalls,
    .args = "[-i SECONDS] [-t TOP] [--enable] [-o LIST] [--output-all] [-n] [-r] [--json]",
    .summary = "Show the processes delayed most by reclaim (taskstats)",
    .help = stalls_help,
    .tables = (const struct coltable *const[]){&stalls_columns, NULL},
};
