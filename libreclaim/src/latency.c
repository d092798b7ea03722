// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * How long reclaim makes tasks wait, aggregated by the kernel: nothing is
 * copied to userspace per event. In a tracefs instance of this process
 * ("reclaimctl-latency-PID"), hist triggers (Documentation/trace/histogram.rst)
 * pair each begin event with the same task's end event and fire a synthetic
 * event with the difference in microseconds, which another hist trigger counts
 * by the log2 of the duration; an event that carries its duration (the
 * throttle's) is counted directly. A second hist trigger on the same event
 * counts each task's waits, their sum and (onmax) the longest. A read is one
 * read of each hist file.
 *
 * The top-level buffer and other instances are never touched. Synthetic
 * events are global: theirs carry the PID in their names. An instance left
 * by a run that was killed is recognised by its name and PID and removed by
 * the next run.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <tracefs.h>

#include "internal.h"
#include "latency-internal.h"

#define INSTANCE_PREFIX "reclaimctl-latency-"
#define SYSTEM		"vmscan"
#define NKINDS		LATENCY_KINDS
#define TASKS_MAX	4096 /* a per-task hist's entries: tasks past it are dropped */

#define DIRECT_END   "mm_vmscan_direct_reclaim_end"
#define MEMCG_END    "mm_vmscan_memcg_reclaim_end"
#define THROTTLE_END "mm_vmscan_direct_reclaim_throttle"
#define KSWAPD_END   "mm_vmscan_kswapd_sleep"

static const struct latency_kind {
	const char *name;
	/* begin and end events of one task, or @end alone, with its duration in @field */
	const char *begin, *end, *field;
	const char *system_end; /* "SYSTEM:END", for messages */
	/* which of @end's events are waits: a filter, "" for all */
	const char *waits;
} kinds[NKINDS] = {
    [RECLAIM_LATENCY_DIRECT] = {"direct", "mm_vmscan_direct_reclaim_begin", DIRECT_END, "delta",
				SYSTEM ":" DIRECT_END, ""},
    [RECLAIM_LATENCY_MEMCG] = {"memcg", "mm_vmscan_memcg_reclaim_begin", MEMCG_END, "delta",
			       SYSTEM ":" MEMCG_END, ""},
    /*
     * traced at every pass through the throttle; a task that waited has a
     * ticket (and is counted in direct_reclaim_throttled), one let through
     * at once has none
     */
    [RECLAIM_LATENCY_THROTTLE] = {"throttle", NULL, THROTTLE_END, "wait_usecs",
				  SYSTEM ":" THROTTLE_END, "ticket > 0"},
    /* kswapd itself traces both, in kswapd() and kswapd_try_to_sleep() */
    [RECLAIM_LATENCY_KSWAPD] = {"kswapd", "mm_vmscan_kswapd_wake", KSWAPD_END, "delta",
				SYSTEM ":" KSWAPD_END, ""},
};

/*
 * The hist triggers of kind @k, in the order they are made (the begin event's
 * variable exists before the end event refers to it); the first two, on the
 * same event, are the ones whose hist files are read: the log2 buckets and the
 * tasks.
 */
enum { TRIGGER_BUCKETS, TRIGGER_TASKS, TRIGGER_BEGIN, TRIGGER_END, TRIGGERS_MAX };

struct kind_triggers {
	int n;
	char synth[64]; /* the synthetic event, of a kind with a begin event (event[0]: not copied)
			 */
	const char *system[TRIGGERS_MAX], *event[TRIGGERS_MAX];
	char text[TRIGGERS_MAX][256];
};

/* A task's waits in the last interval, beside its figures since the start. */
struct task_delta {
	uint64_t count, total_us;
	bool max_rose; /* its longest wait is new: the interval had it */
};

/* The tasks of a kind at a read, by PID, and the orders they are shown in. */
struct kind_tasks {
	struct latency_tasks all;    /* by PID */
	struct task_delta *delta;    /* beside all.task */
	size_t *run;		     /* all.n: by total since the start, the most first */
	size_t *interval, ninterval; /* those with waits in the interval, by their time in it */
};

struct reclaim_latency {
	int refcount;
	struct reclaim_ctx *ctx;
	struct tracefs_instance *inst;
	pid_t pid;
	unsigned stale;
	bool has[NKINDS];
	struct kind_triggers triggers[NKINDS]; /* made once, read at every read */
	/* the kernel's counts at the last read and at the one before */
	struct latency_hist now[NKINDS], prev[NKINDS];
	struct kind_tasks tasks[NKINDS];
	/* each kind's hist file, kept open and read again with pread(); -1 if none */
	int hist_fd[NKINDS];
	char *buf;
	size_t buf_size;
};

/* The number after "@label" in @line (up to @end), skipping spaces; false if none. */
static bool number_after(const char *line, const char *end, const char *label, uint64_t *v)
{
	const char *p = strstr(line, label);
	char *rest;

	if (!p || p >= end)
		return false;
	p += strlen(label);
	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	errno = 0;
	*v = strtoull(p, &rest, 10);
	return errno == 0 && rest <= end;
}

int latency_parse_hist(const char *text, const char *name, struct latency_hist *h, const char **bad)
{
	char key[64], val[64];
	const char *line;

	/* { NAME: ~ 2^K } hitcount: N NAME: S (the kernel pads with spaces) */
	if (snprintf(key, sizeof(key), "{ %s: ~ 2^", name) >= (int)sizeof(key) ||
	    snprintf(val, sizeof(val), " %s:", name) >= (int)sizeof(val))
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	for (line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		uint64_t k, n, sum;

		end = end ? end : line + strlen(line);
		if (*line == '{') {
			const char *brace = strchr(line, '}');

			if (strncmp(line, key, strlen(key)) != 0 || !brace || brace > end ||
			    !number_after(line, brace, key, &k) ||
			    !number_after(brace, end, "hitcount:", &n) ||
			    !number_after(brace, end, val, &sum)) {
				if (bad)
					*bad = line;
				return -EBADMSG;
			}
			if (k < LATENCY_BUCKETS) {
				h->count[k] += n;
				h->total_us += sum;
			} else {
				/* a duration past an hour, or below 0 (a clock that went back) */
				h->out_of_range += n;
			}
		} else if (number_after(line, end, "Dropped:", &n)) {
			h->dropped = n;
		}
		line = *end ? end + 1 : NULL;
	}
	return 0;
}

int latency_hist_section(const char *text, const char *trigger, char **ret)
{
	static const char head[] = "# event histogram\n", info[] = "# trigger info: ";

	for (const char *p = strstr(text, head); p; p = strstr(p + 1, head)) {
		const char *end = strstr(p + 1, head), *i = strstr(p, info);

		if (i && (!end || i < end) &&
		    strncmp(i + strlen(info), trigger, strlen(trigger)) == 0) {
			*ret = strndup(p, end ? (size_t)(end - p) : strlen(p));
			return *ret ? 0 : -ENOMEM;
		}
	}
	return -ENOENT;
}

void latency_tasks_clear(struct latency_tasks *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->task[i].cgroup);
	free(t->task);
	*t = (struct latency_tasks){0};
}

/* "{ common_pid: COMM [ PID] }": COMM may hold spaces, PID is in the last brackets. */
static bool parse_task_key(const char *line, const char *brace, struct latency_task *task)
{
	static const char key[] = "{ common_pid: ";
	const char *open = NULL, *comm = line + strlen(key), *end;
	uint64_t pid;

	if (strncmp(line, key, strlen(key)) != 0)
		return false;
	for (const char *p = comm; p < brace; p++)
		if (*p == '[')
			open = p;
	if (!open || !number_after(open, brace, "[", &pid) || pid == 0 || pid > INT32_MAX)
		return false;
	for (end = open; end > comm && end[-1] == ' '; end--)
		;
	if ((size_t)(end - comm) >= sizeof(task->comm))
		return false;
	memcpy(task->comm, comm, (size_t)(end - comm));
	task->comm[end - comm] = '\0';
	task->pid = (pid_t)pid;
	return true;
}

static int add_task(struct latency_tasks *t, size_t *size)
{
	if (t->n == *size) {
		size_t n = *size ? *size * 2 : 16;
		struct latency_task *a = reallocarray(t->task, n, sizeof(*a));

		if (!a)
			return -ENOMEM;
		t->task = a;
		*size = n;
	}
	t->task[t->n++] = (struct latency_task){0};
	return 0;
}

int latency_parse_tasks(const char *text, const char *name, struct latency_tasks *t,
			const char **bad)
{
	char val[64];
	size_t size = 0;
	bool want_max = false;

	if (snprintf(val, sizeof(val), " %s:", name) >= (int)sizeof(val))
		return -EINVAL;
	*t = (struct latency_tasks){0};
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n'), *brace;
		struct latency_task *task;
		uint64_t n;
		int r = 0;

		end = end ? end : line + strlen(line);
		brace = memchr(line, '}', (size_t)(end - line));
		if (*line == '{') {
			r = want_max ? -EBADMSG : add_task(t, &size);
			task = r == 0 ? &t->task[t->n - 1] : NULL;
			if (r == 0 && (!brace || !parse_task_key(line, brace, task) ||
				       !number_after(brace, end, "hitcount:", &task->count) ||
				       !number_after(brace, end, val, &task->total_us)))
				r = -EBADMSG;
			want_max = true;
		} else if (strncmp(line + strspn(line, " \t"), "max:", 4) == 0 || want_max) {
			/* the line after an entry's, and only there */
			if (!want_max || !number_after(line, end, "max:", &n))
				r = -EBADMSG;
			else
				t->task[t->n - 1].max_us = n;
			want_max = false;
		} else if (number_after(line, end, "Dropped:", &n)) {
			t->dropped = n;
		}
		if (r < 0) {
			if (bad)
				*bad = line;
			latency_tasks_clear(t);
			return r;
		}
		line = *end ? end + 1 : NULL;
	}
	if (want_max) {
		if (bad)
			*bad = "";
		latency_tasks_clear(t);
		return -EBADMSG;
	}
	return 0;
}

static void synth_name(char *buf, size_t size, pid_t pid, const struct latency_kind *k)
{
	snprintf(buf, size, "reclaimctl_%d_%s", (int)pid, k->name);
}

static void kind_triggers(pid_t pid, const struct latency_kind *k, struct kind_triggers *t)
{
	const char *f = k->field;

	t->n = k->begin ? 4 : 2;
	t->synth[0] = '\0';
	if (k->begin)
		synth_name(t->synth, sizeof(t->synth), pid, k);
	t->system[TRIGGER_BUCKETS] = t->system[TRIGGER_TASKS] = k->begin ? "synthetic" : SYSTEM;
	t->event[TRIGGER_BUCKETS] = t->event[TRIGGER_TASKS] = k->begin ? t->synth : k->end;
	snprintf(t->text[TRIGGER_BUCKETS], sizeof(t->text[0]),
		 "hist:keys=%s.log2:vals=hitcount,%s:sort=%s%s%s", f, f, f, *k->waits ? " if " : "",
		 k->waits);
	/* the tasks' figures leave out what the buckets count as out of range */
	snprintf(t->text[TRIGGER_TASKS], sizeof(t->text[0]),
		 "hist:keys=common_pid.execname:vals=hitcount,%s:reclaimctl_max=%s:"
		 "onmax($reclaimctl_max).save(%s):sort=%s.descending:size=%d if %s <= %llu%s%s",
		 f, f, f, f, TASKS_MAX, f, 1ULL << (LATENCY_BUCKETS - 1), *k->waits ? " && " : "",
		 k->waits);
	if (!k->begin)
		return;
	t->system[TRIGGER_BEGIN] = SYSTEM;
	t->event[TRIGGER_BEGIN] = k->begin;
	snprintf(t->text[TRIGGER_BEGIN], sizeof(t->text[0]),
		 "hist:keys=common_pid:reclaimctl_t0=common_timestamp.usecs");
	t->system[TRIGGER_END] = SYSTEM;
	t->event[TRIGGER_END] = k->end;
	snprintf(t->text[TRIGGER_END], sizeof(t->text[0]),
		 "hist:keys=common_pid:reclaimctl_d=common_timestamp.usecs-$reclaimctl_t0:"
		 "onmatch(" SYSTEM ".%s).trace(%s,$reclaimctl_d)",
		 k->begin, t->synth);
}

static int trigger(struct tracefs_instance *inst, const char *system, const char *event,
		   const char *text, bool remove)
{
	_cleanup_free_ char *cmd = NULL;

	if (asprintf(&cmd, "%s%s", remove ? "!" : "", text) < 0)
		return -ENOMEM;
	return tracefs_event_file_append(inst, system, event, "trigger", cmd) < 0 ? -errno : 0;
}

/*
 * Removes what set_up_kind() made for @pid in @inst, then @inst and the
 * synthetic events; -errno if @inst could not be removed (-EBUSY: a file
 * of it is open).
 */
static int tear_down(struct tracefs_instance *inst, pid_t pid)
{
	struct kind_triggers t[NKINDS];
	int gone;

	for (size_t i = 0; i < NKINDS; i++) {
		kind_triggers(pid, &kinds[i], &t[i]);
		for (int j = t[i].n - 1; j >= 0; j--)
			trigger(inst, t[i].system[j], t[i].event[j], t[i].text[j], true);
	}
	gone = tracefs_instance_destroy(inst) == 0 ? 0 : -(errno ? errno : EIO);
	for (size_t i = 0; i < NKINDS; i++) {
		char cmd[80];

		if (!t[i].synth[0])
			continue;
		snprintf(cmd, sizeof(cmd), "!%s", t[i].synth);
		tracefs_instance_file_append(NULL, "synthetic_events", cmd);
	}
	return gone;
}

/* An instance of a run that is gone: remove it and its synthetic events. */
static int remove_stale(const char *name, void *data)
{
	struct reclaim_latency *l = data;
	struct tracefs_instance *inst;
	char *end;
	long pid;

	if (strncmp(name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)) != 0)
		return 0;
	errno = 0;
	pid = strtol(name + strlen(INSTANCE_PREFIX), &end, 10);
	if (errno || *end || pid <= 0 || pid == l->pid || kill((pid_t)pid, 0) == 0 ||
	    errno != ESRCH)
		return 0;
	inst = tracefs_instance_alloc(NULL, name);
	if (!inst)
		return 0;
	if (tear_down(inst, (pid_t)pid) == 0)
		l->stale++;
	tracefs_instance_free(inst);
	return 0;
}

static bool event_exists(struct tracefs_instance *inst, const char *event)
{
	return tracefs_event_file_exists(inst, SYSTEM, event, "format");
}

static int set_up_kind(struct reclaim_latency *l, enum reclaim_latency_kind id)
{
	const struct latency_kind *k = &kinds[id];
	struct kind_triggers *t = &l->triggers[id];
	char *path;

	if (!event_exists(l->inst, k->end) || (k->begin && !event_exists(l->inst, k->begin)))
		return 0;
	kind_triggers(l->pid, k, t);
	if (t->synth[0]) {
		char def[96];

		snprintf(def, sizeof(def), "%s u64 delta", t->synth);
		if (tracefs_instance_file_append(NULL, "synthetic_events", def) < 0)
			return reclaim_error(l->ctx, errno,
					     "cannot make the synthetic event %s (the kernel needs "
					     "CONFIG_SYNTH_EVENTS): %m",
					     t->synth);
	}
	for (int j = 0; j < t->n; j++) {
		int r = trigger(l->inst, t->system[j], t->event[j], t->text[j], false);

		if (r < 0)
			return reclaim_error(l->ctx, -r,
					     "cannot add a hist trigger to %s/%s (the kernel needs "
					     "CONFIG_HIST_TRIGGERS): %s",
					     t->system[j], t->event[j], strerror(-r));
	}
	path = tracefs_event_get_file(l->inst, t->system[0], t->event[0], "hist");
	l->hist_fd[id] = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	tracefs_put_tracing_file(path);
	if (l->hist_fd[id] < 0)
		return reclaim_error(l->ctx, errno ? errno : ENOMEM,
				     "cannot open the %s latency histogram: %m", k->name);
	l->has[id] = true;
	return 0;
}

static void kind_tasks_clear(struct kind_tasks *k)
{
	latency_tasks_clear(&k->all);
	free(k->delta);
	free(k->run);
	free(k->interval);
	*k = (struct kind_tasks){0};
}

/* The hist files closed, the instance removed: 0, or -errno of its removal. */
static int end_tracing(struct reclaim_latency *l)
{
	int r = 0;

	/* an instance with a file open cannot be removed */
	for (size_t i = 0; i < NKINDS; i++) {
		if (l->hist_fd[i] >= 0)
			close(l->hist_fd[i]);
		l->hist_fd[i] = -1;
	}
	if (l->inst) {
		r = tear_down(l->inst, l->pid);
		tracefs_instance_free(l->inst);
		l->inst = NULL;
	}
	return r;
}

static void latency_free(struct reclaim_latency *l)
{
	end_tracing(l);
	free(l->buf);
	for (size_t i = 0; i < NKINDS; i++)
		kind_tasks_clear(&l->tasks[i]);
	reclaim_unref(l->ctx);
	free(l);
}

static int open_tracefs(struct reclaim_ctx *ctx)
{
	const char *dir = NULL;
	int r = tracefs_tracing_dir_is_mounted(false, &dir);

	if (r < 0)
		return reclaim_error(ctx, ENOENT, "cannot tell whether tracefs is mounted");
	if (r == 0)
		return reclaim_error(ctx, ENOENT,
				     "tracefs is not mounted: mount it with 'mount -t tracefs "
				     "tracefs /sys/kernel/tracing'");
	if (access(dir, W_OK) < 0)
		return reclaim_error(ctx, errno == EACCES || errno == EROFS ? EACCES : errno,
				     "cannot write to %s: reading reclaim latency needs root", dir);
	return 0;
}

RECLAIM_EXPORT int reclaim_latency_new(struct reclaim_ctx *ctx, struct reclaim_latency **ret)
{
	struct reclaim_latency *l;
	char name[64];
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	if (!reclaim_is_live(ctx))
		return reclaim_error(ctx, EOPNOTSUPP,
				     "reclaim latency comes from the running kernel: not available "
				     "under another root (%s)",
				     reclaim_get_sysroot(ctx));
	r = open_tracefs(ctx);
	if (r < 0)
		return r;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->refcount = 1;
	l->ctx = reclaim_ref(ctx);
	l->pid = getpid();
	for (size_t i = 0; i < NKINDS; i++)
		l->hist_fd[i] = -1;
	tracefs_instances_walk(remove_stale, l);
	snprintf(name, sizeof(name), INSTANCE_PREFIX "%d", (int)l->pid);
	l->inst = tracefs_instance_create(name);
	if (!l->inst) {
		r = reclaim_error(ctx, errno ? errno : EIO,
				  "cannot make the tracefs instance %s: %m", name);
		latency_free(l);
		return r;
	}
	/*
	 * A reclaim may end on another CPU than it began on: the timestamps
	 * come from a clock all CPUs share (the default, "local", is per CPU).
	 * "global" would never go back, but takes a lock every event; "mono"
	 * scales, and the rare duration below 0 it gives (2^64 - N us, seen
	 * under QEMU on a loaded host) is counted out of range, apart.
	 */
	if (tracefs_instance_file_write(l->inst, "trace_clock", "mono") < 0) {
		r = reclaim_error(ctx, errno ? errno : EIO,
				  "cannot set the trace clock of the tracefs instance %s: %m",
				  name);
		latency_free(l);
		return r;
	}
	for (size_t i = 0; i < NKINDS; i++) {
		r = set_up_kind(l, (enum reclaim_latency_kind)i);
		if (r < 0) {
			latency_free(l);
			return r;
		}
	}
	if (!l->has[RECLAIM_LATENCY_DIRECT]) {
		latency_free(l);
		return reclaim_error(ctx, ENOENT,
				     "the kernel has no %s event (it needs CONFIG_TRACING)",
				     kinds[RECLAIM_LATENCY_DIRECT].system_end);
	}
	*ret = l;
	return 0;
}

RECLAIM_EXPORT int reclaim_latency_end(struct reclaim_latency *l)
{
	char name[64];
	int r;

	assert_return(l, -EINVAL);
	reclaim_error_reset(l->ctx);
	if (!l->inst)
		return 0;
	snprintf(name, sizeof(name), "%s", tracefs_instance_get_name(l->inst));
	r = end_tracing(l);
	if (r < 0)
		return reclaim_error(l->ctx, -r,
				     "cannot remove the tracefs instance %s: %s%s; the next run "
				     "removes it",
				     name, strerror(-r),
				     r == -EBUSY ? " (a file of it is open)" : "");
	return 0;
}

RECLAIM_EXPORT struct reclaim_latency *reclaim_latency_ref(struct reclaim_latency *l)
{
	if (l)
		l->refcount++;
	return l;
}

RECLAIM_EXPORT struct reclaim_latency *reclaim_latency_unref(struct reclaim_latency *l)
{
	if (l && --l->refcount == 0)
		latency_free(l);
	return NULL;
}

RECLAIM_EXPORT size_t reclaim_latency_kind_count(void)
{
	return NKINDS;
}

RECLAIM_EXPORT const char *reclaim_latency_kind_name(enum reclaim_latency_kind kind)
{
	assert_return((size_t)kind < NKINDS, NULL);
	return kinds[kind].name;
}

RECLAIM_EXPORT const char *reclaim_latency_kind_event(enum reclaim_latency_kind kind)
{
	assert_return((size_t)kind < NKINDS, NULL);
	return kinds[kind].system_end;
}

RECLAIM_EXPORT bool reclaim_latency_has(const struct reclaim_latency *l,
					enum reclaim_latency_kind kind)
{
	assert_return(l && (size_t)kind < NKINDS, false);
	return l->has[kind];
}

RECLAIM_EXPORT unsigned reclaim_latency_stale_removed(const struct reclaim_latency *l)
{
	assert_return(l, 0);
	return l->stale;
}

/* The cgroup v2 path of @pid ("/system.slice/x.service"), NULL if it is gone. */
static char *task_cgroup(struct reclaim_ctx *ctx, pid_t pid)
{
	_cleanup_free_ char *text = NULL;
	char path[64];
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	if (reclaim_read_file(ctx, path, &text, NULL) < 0)
		return NULL;
	for (p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, "0::", 3) == 0)
			return strndup(p + 3, strcspn(p + 3, "\n"));
	return NULL;
}

static int by_pid(const void *a, const void *b)
{
	const struct latency_task *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* For qsort_r(): indexes of tasks, the most time first, then by PID. */
static int by_time(const void *a, const void *b, void *data)
{
	const struct kind_tasks *k = ((const struct kind_tasks **)data)[0];
	bool interval = ((const struct kind_tasks **)data)[1] != NULL;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	uint64_t x = interval ? k->delta[i].total_us : k->all.task[i].total_us;
	uint64_t y = interval ? k->delta[j].total_us : k->all.task[j].total_us;

	if (x != y)
		return x < y ? 1 : -1;
	return by_pid(&k->all.task[i], &k->all.task[j]);
}

/*
 * @now, as read, becomes @k: each task's interval against @k's tasks before
 * (both by PID), its cgroup kept or read once.
 */
static int tasks_update(struct reclaim_ctx *ctx, struct kind_tasks *k, struct latency_tasks *now)
{
	struct kind_tasks n = {.all = *now};
	const void *order[2] = {&n, NULL};
	size_t j = 0;

	*now = (struct latency_tasks){0};
	qsort(n.all.task, n.all.n, sizeof(*n.all.task), by_pid);
	n.delta = calloc(n.all.n + 1, sizeof(*n.delta));
	n.run = calloc(n.all.n + 1, sizeof(*n.run));
	n.interval = calloc(n.all.n + 1, sizeof(*n.interval));
	if (!n.delta || !n.run || !n.interval) {
		kind_tasks_clear(&n);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n.all.n; i++) {
		struct latency_task *t = &n.all.task[i], *was = NULL;
		struct task_delta *d = &n.delta[i];

		while (j < k->all.n && k->all.task[j].pid < t->pid)
			j++;
		/* the same PID with another name: a new task */
		if (j < k->all.n && k->all.task[j].pid == t->pid &&
		    strcmp(k->all.task[j].comm, t->comm) == 0 && k->all.task[j].count <= t->count)
			was = &k->all.task[j];
		d->count = t->count - (was ? was->count : 0);
		d->total_us = t->total_us - (was ? was->total_us : 0);
		d->max_rose = !was || t->max_us > was->max_us;
		if (was) {
			t->cgroup = was->cgroup;
			was->cgroup = NULL;
		} else {
			t->cgroup = task_cgroup(ctx, t->pid);
		}
		n.run[i] = i;
		if (d->count)
			n.interval[n.ninterval++] = i;
	}
	qsort_r(n.run, n.all.n, sizeof(*n.run), by_time, order);
	order[1] = &n;
	qsort_r(n.interval, n.ninterval, sizeof(*n.interval), by_time, order);
	kind_tasks_clear(k);
	*k = n;
	return 0;
}

/*
 * The hist file of kind @id's event, read once: it holds the histogram of
 * each of the event's hist triggers, the buckets' and the tasks'.
 */
static int read_hist(struct reclaim_latency *l, size_t id, struct latency_hist *h,
		     struct latency_tasks *tasks)
{
	_cleanup_free_ char *buckets = NULL, *per_task = NULL;
	const char *bad = "";
	char key[64];
	int r = reclaim_pread_text(l->hist_fd[id], &l->buf, &l->buf_size, NULL);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return reclaim_error(l->ctx, -r, "cannot read the %s latency histogram: %s",
				     kinds[id].name, strerror(-r));
	snprintf(key, sizeof(key), "hist:keys=%s.log2:", kinds[id].field);
	r = latency_hist_section(l->buf, key, &buckets);
	if (r == 0)
		r = latency_hist_section(l->buf, "hist:keys=common_pid.execname:", &per_task);
	if (r == -ENOENT)
		return reclaim_error(
		    l->ctx, ENOENT,
		    "the %s latency histogram is gone from the tracefs instance %s "
		    "(removed by another writer?)",
		    kinds[id].name, tracefs_instance_get_name(l->inst));
	if (r == 0)
		r = latency_parse_hist(buckets, kinds[id].field, h, &bad);
	if (r == 0)
		r = latency_parse_tasks(per_task, kinds[id].field, tasks, &bad);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return reclaim_error(l->ctx, -r, "cannot read the %s latency histogram: '%.*s'",
				     kinds[id].name, (int)strcspn(bad, "\n"), bad);
	return 0;
}

RECLAIM_EXPORT int reclaim_latency_read(struct reclaim_latency *l)
{
	struct latency_hist now[NKINDS] = {0};
	struct latency_tasks tasks[NKINDS] = {0};
	int r = 0;

	assert_return(l, -EINVAL);
	reclaim_error_reset(l->ctx);
	if (!l->inst)
		return reclaim_error(l->ctx, EINVAL, "the latency run has ended");
	for (size_t i = 0; r == 0 && i < NKINDS; i++) {
		if (!l->has[i])
			continue;
		r = read_hist(l, i, &now[i], &tasks[i]);
	}
	for (size_t i = 0; r == 0 && i < NKINDS; i++)
		r = tasks_update(l->ctx, &l->tasks[i], &tasks[i]);
	for (size_t i = 0; i < NKINDS; i++)
		latency_tasks_clear(&tasks[i]);
	if (r < 0)
		return r;
	memcpy(l->prev, l->now, sizeof(l->prev));
	memcpy(l->now, now, sizeof(l->now));
	return 0;
}

void latency_hist_since(struct latency_hist *h, const struct latency_hist *before)
{
	for (size_t k = 0; k < LATENCY_BUCKETS; k++)
		h->count[k] -= before->count[k];
	h->total_us -= before->total_us;
	h->dropped -= before->dropped;
	h->out_of_range -= before->out_of_range;
}

void latency_hist_add(struct latency_hist *h, const struct latency_hist *more)
{
	for (size_t k = 0; k < LATENCY_BUCKETS; k++)
		h->count[k] += more->count[k];
	h->total_us += more->total_us;
	h->dropped += more->dropped;
	h->out_of_range += more->out_of_range;
}

void latency_between(const struct latency_total *a, const struct latency_total *b,
		     struct latency_hist *h, uint64_t *max_us)
{
	uint64_t bound;

	/* a recording's counts that went backwards count as 0, as counters do */
	for (size_t k = 0; k < LATENCY_BUCKETS; k++)
		h->count[k] = reclaim_counter_delta(a->hist.count[k], b->hist.count[k]);
	h->total_us = reclaim_counter_delta(a->hist.total_us, b->hist.total_us);
	h->dropped = reclaim_counter_delta(a->hist.dropped, b->hist.dropped);
	h->out_of_range = reclaim_counter_delta(a->hist.out_of_range, b->hist.out_of_range);
	if (b->max_us > a->max_us) {
		*max_us = b->max_us;
		return;
	}
	bound = latency_hist_percentile(h, 1000);
	*max_us = bound < b->max_us || !b->max_us ? bound : b->max_us;
}

uint64_t latency_hist_count(const struct latency_hist *h)
{
	uint64_t n = 0;

	for (size_t k = 0; k < LATENCY_BUCKETS; k++)
		n += h->count[k];
	return n;
}

uint64_t latency_hist_percentile(const struct latency_hist *h, unsigned permille)
{
	uint64_t n = latency_hist_count(h), seen = 0, want;

	if (n == 0)
		return 0;
	/* the rank of the permille-th duration, rounded up: 1 of 1 for any permille */
	want = (n * permille + 999) / 1000;
	if (want == 0)
		want = 1;
	for (size_t k = 0; k < LATENCY_BUCKETS; k++) {
		seen += h->count[k];
		if (seen >= want)
			return UINT64_C(1) << k;
	}
	return UINT64_C(1) << (LATENCY_BUCKETS - 1);
}

uint64_t latency_percentile_capped(const struct latency_hist *h, unsigned permille, uint64_t max_us)
{
	uint64_t p = latency_hist_percentile(h, permille);

	return max_us && p > max_us ? max_us : p;
}

/* The counts of @kind over @span into @h. */
static void span_hist(const struct reclaim_latency *l, enum reclaim_latency_kind kind,
		      enum reclaim_latency_span span, struct latency_hist *h)
{
	*h = l->now[kind];
	if (span == RECLAIM_LATENCY_INTERVAL)
		latency_hist_since(h, &l->prev[kind]);
}

#define span_args_ok(l, kind, span)                                                                \
	((l) && (size_t)(kind) < NKINDS &&                                                         \
	 ((span) == RECLAIM_LATENCY_INTERVAL || (span) == RECLAIM_LATENCY_RUN))

RECLAIM_EXPORT uint64_t reclaim_latency_count(const struct reclaim_latency *l,
					      enum reclaim_latency_kind kind,
					      enum reclaim_latency_span span)
{
	struct latency_hist h;

	assert_return(span_args_ok(l, kind, span), 0);
	span_hist(l, kind, span, &h);
	return latency_hist_count(&h);
}

RECLAIM_EXPORT uint64_t reclaim_latency_total_us(const struct reclaim_latency *l,
						 enum reclaim_latency_kind kind,
						 enum reclaim_latency_span span)
{
	struct latency_hist h;

	assert_return(span_args_ok(l, kind, span), 0);
	span_hist(l, kind, span, &h);
	return h.total_us;
}

RECLAIM_EXPORT uint64_t reclaim_latency_dropped(const struct reclaim_latency *l,
						enum reclaim_latency_kind kind,
						enum reclaim_latency_span span)
{
	struct latency_hist h;

	assert_return(span_args_ok(l, kind, span), 0);
	span_hist(l, kind, span, &h);
	return h.dropped + h.out_of_range;
}

RECLAIM_EXPORT size_t reclaim_latency_bucket_count(void)
{
	return LATENCY_BUCKETS;
}

RECLAIM_EXPORT uint64_t reclaim_latency_bucket(const struct reclaim_latency *l,
					       enum reclaim_latency_kind kind,
					       enum reclaim_latency_span span, size_t bucket)
{
	struct latency_hist h;

	assert_return(span_args_ok(l, kind, span) && bucket < LATENCY_BUCKETS, 0);
	span_hist(l, kind, span, &h);
	return h.count[bucket];
}

/* The longest wait since the start: the longest of any task's, exact. */
static uint64_t run_max(const struct kind_tasks *k)
{
	uint64_t max = 0;

	for (size_t i = 0; i < k->all.n; i++)
		max = k->all.task[i].max_us > max ? k->all.task[i].max_us : max;
	return max;
}

/* The longest of @kind's waits over @span, whose counts are @h. */
static uint64_t span_max(const struct reclaim_latency *l, enum reclaim_latency_kind kind,
			 enum reclaim_latency_span span, const struct latency_hist *h)
{
	const struct kind_tasks *k = &l->tasks[kind];
	uint64_t max = 0, bound;

	if (span == RECLAIM_LATENCY_RUN)
		return run_max(k);
	if (latency_hist_count(h) == 0)
		return 0;
	/* a wait longer than every other of its task raised that task's longest */
	for (size_t i = 0; i < k->ninterval; i++) {
		const struct latency_task *t = &k->all.task[k->interval[i]];

		if (k->delta[k->interval[i]].max_rose && t->max_us > max)
			max = t->max_us;
	}
	if (max)
		return max;
	bound = latency_hist_percentile(h, 1000);
	return bound < run_max(k) || !run_max(k) ? bound : run_max(k);
}

RECLAIM_EXPORT uint64_t reclaim_latency_max_us(const struct reclaim_latency *l,
					       enum reclaim_latency_kind kind,
					       enum reclaim_latency_span span)
{
	struct latency_hist h;

	assert_return(span_args_ok(l, kind, span), 0);
	span_hist(l, kind, span, &h);
	return span_max(l, kind, span, &h);
}

RECLAIM_EXPORT uint64_t reclaim_latency_percentile_us(const struct reclaim_latency *l,
						      enum reclaim_latency_kind kind,
						      enum reclaim_latency_span span,
						      unsigned permille)
{
	struct latency_hist h;

	assert_return(span_args_ok(l, kind, span) && permille <= 1000, 0);
	span_hist(l, kind, span, &h);
	return latency_percentile_capped(&h, permille, span_max(l, kind, span, &h));
}

void latency_run_total(const struct reclaim_latency *l, size_t kind, struct latency_total *t)
{
	t->has = l->has[kind];
	t->hist = l->now[kind];
	t->max_us = run_max(&l->tasks[kind]);
}

#define task_args_ok(l, kind, span, idx)                                                           \
	(span_args_ok(l, kind, span) &&                                                            \
	 (idx) < ((span) == RECLAIM_LATENCY_RUN ? (l)->tasks[kind].all.n                           \
						: (l)->tasks[kind].ninterval))

static const struct latency_task *task_at(const struct reclaim_latency *l,
					  enum reclaim_latency_kind kind,
					  enum reclaim_latency_span span, size_t idx)
{
	const struct kind_tasks *k = &l->tasks[kind];

	return &k->all.task[span == RECLAIM_LATENCY_RUN ? k->run[idx] : k->interval[idx]];
}

/* The task's waits over @span: since the start, or in the interval. */
static struct task_delta task_span(const struct reclaim_latency *l, enum reclaim_latency_kind kind,
				   enum reclaim_latency_span span, size_t idx)
{
	const struct kind_tasks *k = &l->tasks[kind];
	const struct latency_task *t = task_at(l, kind, span, idx);

	if (span == RECLAIM_LATENCY_RUN)
		return (struct task_delta){.count = t->count, .total_us = t->total_us};
	return k->delta[t - k->all.task];
}

RECLAIM_EXPORT size_t reclaim_latency_task_count(const struct reclaim_latency *l,
						 enum reclaim_latency_kind kind,
						 enum reclaim_latency_span span)
{
	assert_return(span_args_ok(l, kind, span), 0);
	return span == RECLAIM_LATENCY_RUN ? l->tasks[kind].all.n : l->tasks[kind].ninterval;
}

RECLAIM_EXPORT uint64_t reclaim_latency_tasks_dropped(const struct reclaim_latency *l,
						      enum reclaim_latency_kind kind)
{
	assert_return(l && (size_t)kind < NKINDS, 0);
	return l->tasks[kind].all.dropped;
}

RECLAIM_EXPORT pid_t reclaim_latency_task_pid(const struct reclaim_latency *l,
					      enum reclaim_latency_kind kind,
					      enum reclaim_latency_span span, size_t idx)
{
	assert_return(task_args_ok(l, kind, span, idx), 0);
	return task_at(l, kind, span, idx)->pid;
}

RECLAIM_EXPORT const char *reclaim_latency_task_comm(const struct reclaim_latency *l,
						     enum reclaim_latency_kind kind,
						     enum reclaim_latency_span span, size_t idx)
{
	assert_return(task_args_ok(l, kind, span, idx), NULL);
	return task_at(l, kind, span, idx)->comm;
}

RECLAIM_EXPORT const char *reclaim_latency_task_cgroup(const struct reclaim_latency *l,
						       enum reclaim_latency_kind kind,
						       enum reclaim_latency_span span, size_t idx)
{
	assert_return(task_args_ok(l, kind, span, idx), NULL);
	return task_at(l, kind, span, idx)->cgroup;
}

RECLAIM_EXPORT uint64_t reclaim_latency_task_waits(const struct reclaim_latency *l,
						   enum reclaim_latency_kind kind,
						   enum reclaim_latency_span span, size_t idx)
{
	assert_return(task_args_ok(l, kind, span, idx), 0);
	return task_span(l, kind, span, idx).count;
}

RECLAIM_EXPORT uint64_t reclaim_latency_task_total_us(const struct reclaim_latency *l,
						      enum reclaim_latency_kind kind,
						      enum reclaim_latency_span span, size_t idx)
{
	assert_return(task_args_ok(l, kind, span, idx), 0);
	return task_span(l, kind, span, idx).total_us;
}

RECLAIM_EXPORT uint64_t reclaim_latency_task_max_us(const struct reclaim_latency *l,
						    enum reclaim_latency_kind kind,
						    enum reclaim_latency_span span, size_t idx)
{
	assert_return(task_args_ok(l, kind, span, idx), 0);
	return task_at(l, kind, span, idx)->max_us;
}
