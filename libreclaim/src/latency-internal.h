/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef RECLAIM_LATENCY_INTERNAL_H
#define RECLAIM_LATENCY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* log2 buckets of microseconds: bucket k holds durations up to 2^k (0 and 1 in bucket 0) */
#define LATENCY_BUCKETS 40
/* the kinds of enum reclaim_latency_kind */
#define LATENCY_KINDS 4

struct reclaim_sample;

struct latency_hist {
	uint64_t count[LATENCY_BUCKETS];
	uint64_t total_us;
	uint64_t dropped;      /* the kernel's: its histogram was full */
	uint64_t out_of_range; /* in a bucket past the last */
};

/*
 * Reads the text of a hist file whose key is "NAME.log2" and whose values are
 * hitcount and NAME (a sum of microseconds): every "{ NAME: ~ 2^K } hitcount: N
 * NAME: S" line (a bucket past the last counts as out of range, its sum
 * left out) and the "Dropped:" total. -EBADMSG for a line it cannot read,
 * which *@bad (if not NULL) then points to.
 */
int latency_parse_hist(const char *text, const char *name, struct latency_hist *h,
		       const char **bad);

/*
 * An event's hist file holds one histogram per hist trigger, each under
 * "# event histogram" and its "# trigger info: TRIGGER...": *@ret, a copy
 * of the one whose trigger starts with @trigger ("hist:keys=delta.log2:").
 * -ENOENT if there is none, -ENOMEM.
 */
int latency_hist_section(const char *text, const char *trigger, char **ret);

/* @h minus @before, an earlier read of the same counts: the interval between. */
void latency_hist_since(struct latency_hist *h, const struct latency_hist *before);
uint64_t latency_hist_count(const struct latency_hist *h);
/*
 * The upper end (us) of the bucket holding the duration of rank @permille
 * (the rank rounded up; 1000: the longest); 0 when there is none.
 */
uint64_t latency_hist_percentile(const struct latency_hist *h, unsigned permille);
/*
 * The same, but never above @max_us, the longest of those waits (0: not
 * known): a bucket's upper end can be longer than any wait it holds.
 */
uint64_t latency_percentile_capped(const struct latency_hist *h, unsigned permille,
				   uint64_t max_us);

/* @h plus @more: the counts of two intervals as one. */
void latency_hist_add(struct latency_hist *h, const struct latency_hist *more);

/* What a sample holds of a kind (RECLAIM_SAMPLER_LATENCY): since the sampler's start. */
struct latency_total {
	bool has;
	struct latency_hist hist;
	uint64_t max_us; /* the longest, exactly */
};

struct reclaim_latency;
/* What @l counted of @kind from its start to its last read. */
void latency_run_total(const struct reclaim_latency *l, size_t kind, struct latency_total *t);
/* @smp's of @kind, NULL without. */
const struct latency_total *sample_latency(const struct reclaim_sample *smp, size_t kind);
/*
 * The waits between two samples' totals: their counts, and the longest,
 * exact when it is the longest so far (@b's longest rose), otherwise the
 * upper end of the top bucket (but not above the longest so far).
 */
void latency_between(const struct latency_total *a, const struct latency_total *b,
		     struct latency_hist *h, uint64_t *max_us);

/* One task's waits of a kind, from the hist keyed by its PID. */
struct latency_task {
	pid_t pid;
	char comm[16];
	char *cgroup; /* its cgroup v2 path, read once; NULL when gone before */
	uint64_t count, total_us;
	uint64_t max_us; /* its longest since the start, exactly (the hist's onmax) */
};

struct latency_tasks {
	struct latency_task *task;
	size_t n;
	uint64_t dropped; /* waits of tasks the kernel's hist had no room for */
};

/*
 * Reads the text of a hist file keyed by "common_pid.execname" whose values
 * are hitcount and NAME (a sum of microseconds), with an onmax(NAME) action:
 * "{ common_pid: COMM [ PID] } hitcount: N NAME: S" lines, each followed by
 * a "max: M" line. The tasks are in the file's order; -EBADMSG for a line it
 * cannot read (*@bad points to it), -ENOMEM.
 */
int latency_parse_tasks(const char *text, const char *name, struct latency_tasks *t,
			const char **bad);
void latency_tasks_clear(struct latency_tasks *t);

#endif
