// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * How long reclaim makes tasks wait, aggregated by the kernel: nothing is
 * copied to userspace per event. In a tracefs instance of this process
 * ("reclaimctl-latency-PID"), hist triggers (Documentation/trace/histogram.rst)
 * pair each begin event with the same task's end event and fire a synthetic
 * event with the difference in microseconds, which another hist trigger counts
 * by the log2 of the duration; an event that carries its duration (the
 * throttle's) is counted directly. A read is one read of each hist file.
 *
 * The top-level buffer and other instances are never touched. Synthetic
 * events are global: theirs carry the PID in their names. An instance left
 * by a run that was killed is recognised by its name and PID and removed by
 * the next run.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <tracefs.h>

#include "internal.h"
#include "latency-internal.h"

#define INSTANCE_PREFIX "reclaimctl-latency-"
#define SYSTEM		"vmscan"
#define NKINDS		3

#define DIRECT_END   "mm_vmscan_direct_reclaim_end"
#define MEMCG_END    "mm_vmscan_memcg_reclaim_end"
#define THROTTLE_END "mm_vmscan_direct_reclaim_throttle"

static const struct latency_kind {
	const char *name;
	/* begin and end events of one task, or @end alone, with its duration in @field */
	const char *begin, *end, *field;
	const char *system_end; /* "SYSTEM:END", for messages */
} kinds[NKINDS] = {
    [RECLAIM_LATENCY_DIRECT] = {"direct", "mm_vmscan_direct_reclaim_begin", DIRECT_END, "delta",
				SYSTEM ":" DIRECT_END},
    [RECLAIM_LATENCY_MEMCG] = {"memcg", "mm_vmscan_memcg_reclaim_begin", MEMCG_END, "delta",
			       SYSTEM ":" MEMCG_END},
    [RECLAIM_LATENCY_THROTTLE] = {"throttle", NULL, THROTTLE_END, "wait_usecs",
				  SYSTEM ":" THROTTLE_END},
};

/*
 * The hist triggers of kind @k, in the order they are made (the begin event's
 * variable exists before the end event refers to it); the first is the one
 * that counts, whose hist file is read.
 */
struct kind_triggers {
	int n;
	char synth[64]; /* the synthetic event, of a kind with a begin event (event[0]: not copied)
			 */
	const char *system[3], *event[3];
	char text[3][256];
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

static void synth_name(char *buf, size_t size, pid_t pid, const struct latency_kind *k)
{
	snprintf(buf, size, "reclaimctl_%d_%s", (int)pid, k->name);
}

static void kind_triggers(pid_t pid, const struct latency_kind *k, struct kind_triggers *t)
{
	if (!k->begin) {
		t->n = 1;
		t->synth[0] = '\0';
		t->system[0] = SYSTEM;
		t->event[0] = k->end;
		snprintf(t->text[0], sizeof(t->text[0]),
			 "hist:keys=%s.log2:vals=hitcount,%s:sort=%s", k->field, k->field,
			 k->field);
		return;
	}
	t->n = 3;
	synth_name(t->synth, sizeof(t->synth), pid, k);
	t->system[0] = "synthetic";
	t->event[0] = t->synth;
	snprintf(t->text[0], sizeof(t->text[0]),
		 "hist:keys=delta.log2:vals=hitcount,delta:sort=delta");
	t->system[1] = SYSTEM;
	t->event[1] = k->begin;
	snprintf(t->text[1], sizeof(t->text[1]),
		 "hist:keys=common_pid:reclaimctl_t0=common_timestamp.usecs");
	t->system[2] = SYSTEM;
	t->event[2] = k->end;
	snprintf(t->text[2], sizeof(t->text[2]),
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
 * synthetic events; false if @inst could not be removed.
 */
static bool tear_down(struct tracefs_instance *inst, pid_t pid)
{
	struct kind_triggers t[NKINDS];
	bool gone;

	for (size_t i = 0; i < NKINDS; i++) {
		kind_triggers(pid, &kinds[i], &t[i]);
		for (int j = t[i].n - 1; j >= 0; j--)
			trigger(inst, t[i].system[j], t[i].event[j], t[i].text[j], true);
	}
	gone = tracefs_instance_destroy(inst) == 0;
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
	if (tear_down(inst, (pid_t)pid))
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
	l->has[id] = true;
	return 0;
}

static void latency_free(struct reclaim_latency *l)
{
	if (l->inst) {
		tear_down(l->inst, l->pid);
		tracefs_instance_free(l->inst);
	}
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

RECLAIM_EXPORT int reclaim_latency_read(struct reclaim_latency *l)
{
	struct latency_hist now[NKINDS] = {0};

	assert_return(l, -EINVAL);
	reclaim_error_reset(l->ctx);
	for (size_t i = 0; i < NKINDS; i++) {
		const struct kind_triggers *t = &l->triggers[i];
		_cleanup_free_ char *hist = NULL;
		const char *bad = "";
		int r;

		if (!l->has[i])
			continue;
		hist = tracefs_event_file_read(l->inst, t->system[0], t->event[0], "hist", NULL);
		if (!hist)
			return reclaim_error(l->ctx, errno ? errno : EIO,
					     "cannot read the %s latency histogram: %m",
					     kinds[i].name);
		r = latency_parse_hist(hist, kinds[i].field, &now[i], &bad);
		if (r < 0)
			return reclaim_error(l->ctx, -r,
					     "cannot read the %s latency histogram: '%.*s'",
					     kinds[i].name, (int)strcspn(bad, "\n"), bad);
	}
	memcpy(l->prev, l->now, sizeof(l->prev));
	memcpy(l->now, now, sizeof(l->now));
	return 0;
}

/* The counts of @kind over @span into @h. */
static void span_hist(const struct reclaim_latency *l, enum reclaim_latency_kind kind,
		      enum reclaim_latency_span span, struct latency_hist *h)
{
	*h = l->now[kind];
	if (span != RECLAIM_LATENCY_INTERVAL)
		return;
	for (size_t k = 0; k < LATENCY_BUCKETS; k++)
		h->count[k] -= l->prev[kind].count[k];
	h->total_us -= l->prev[kind].total_us;
	h->dropped -= l->prev[kind].dropped;
	h->out_of_range -= l->prev[kind].out_of_range;
}

#define span_args_ok(l, kind, span)                                                                \
	((l) && (size_t)(kind) < NKINDS &&                                                         \
	 ((span) == RECLAIM_LATENCY_INTERVAL || (span) == RECLAIM_LATENCY_RUN))

RECLAIM_EXPORT uint64_t reclaim_latency_count(const struct reclaim_latency *l,
					      enum reclaim_latency_kind kind,
					      enum reclaim_latency_span span)
{
	struct latency_hist h;
	uint64_t n = 0;

	assert_return(span_args_ok(l, kind, span), 0);
	span_hist(l, kind, span, &h);
	for (size_t k = 0; k < LATENCY_BUCKETS; k++)
		n += h.count[k];
	return n;
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

RECLAIM_EXPORT uint64_t reclaim_latency_percentile_us(const struct reclaim_latency *l,
						      enum reclaim_latency_kind kind,
						      enum reclaim_latency_span span,
						      unsigned permille)
{
	struct latency_hist h;
	uint64_t n = 0, seen = 0, want;

	assert_return(span_args_ok(l, kind, span) && permille <= 1000, 0);
	span_hist(l, kind, span, &h);
	for (size_t k = 0; k < LATENCY_BUCKETS; k++)
		n += h.count[k];
	if (n == 0)
		return 0;
	/* the rank of the permille-th duration, rounded up: 1 of 1 for any permille */
	want = (n * permille + 999) / 1000;
	if (want == 0)
		want = 1;
	for (size_t k = 0; k < LATENCY_BUCKETS; k++) {
		seen += h.count[k];
		if (seen >= want)
			return UINT64_C(1) << k;
	}
	return UINT64_C(1) << (LATENCY_BUCKETS - 1);
}
