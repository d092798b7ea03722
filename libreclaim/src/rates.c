// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Rates from two samples. The one rule for counters that go backwards lives
 * here: a cumulative counter that is lower than before was reset (a thread
 * restarted, a 32-bit counter wrapped, the file was replaced); how much it
 * grew over that interval is unknown, so the interval counts 0 for it.
 * Reporting "cur - prev" as unsigned would show 2^64 - something pages per
 * second; reporting "cur" would show everything counted since the reset,
 * which may be far more than the interval saw. A kswapd thread that is new
 * in the later sample (a pid the earlier one lacks) did start in the
 * interval, so there the whole value is the increase.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

RECLAIM_EXPORT uint64_t reclaim_counter_delta(uint64_t prev, uint64_t cur)
{
	return cur >= prev ? cur - prev : 0;
}

RECLAIM_EXPORT double reclaim_counter_rate(uint64_t prev, uint64_t cur, double seconds)
{
	if (!(seconds > 0.0))
		return 0.0;
	return (double)reclaim_counter_delta(prev, cur) / seconds;
}

RECLAIM_EXPORT double reclaim_sample_interval(const struct reclaim_sample *prev,
					      const struct reclaim_sample *cur)
{
	uint64_t a, b;

	assert_return(prev && cur, 0.0);
	a = reclaim_sample_monotonic_ns(prev);
	b = reclaim_sample_monotonic_ns(cur);
	return b > a ? (double)(b - a) / 1e9 : 0.0;
}

/* "allocstall_": a family, every counter named on from there. */
static bool is_family(const char *pattern)
{
	size_t len = strlen(pattern);

	return len > 0 && pattern[len - 1] == '_';
}

bool reclaim_counter_matches(const char *pattern, const char *name)
{
	size_t len = strlen(pattern);

	if (is_family(pattern))
		return strncmp(name, pattern, len) == 0 && name[len];
	return strcmp(name, pattern) == 0;
}

/* The summed deltas of counter @name (or of every member of family @name, "allocstall_"). */
static int vmstat_delta(const struct reclaim_vmstat *a, const struct reclaim_vmstat *b,
			const char *name, uint64_t *delta)
{
	bool family = is_family(name), found = false;

	if (!a || !b)
		return -ENOENT;
	*delta = 0;
	for (size_t i = 0; i < reclaim_vmstat_count(b); i++) {
		const char *n = reclaim_vmstat_name(b, i);
		uint64_t old;

		if (!reclaim_counter_matches(name, n) || reclaim_vmstat_get(a, n, &old) < 0)
			continue;
		*delta += reclaim_counter_delta(old, reclaim_vmstat_value(b, i));
		found = true;
		if (!family)
			break;
	}
	return found ? 0 : -ENOENT;
}

static struct reclaim_vmstat *node_vmstat(const struct reclaim_sample *smp, int node_id);

int reclaim_sample_delta(const struct reclaim_sample *prev, const struct reclaim_sample *cur,
			 int node, const char *name, uint64_t *delta)
{
	if (node < 0)
		return vmstat_delta(reclaim_sample_vmstat(prev), reclaim_sample_vmstat(cur), name,
				    delta);
	return vmstat_delta(node_vmstat(prev, node), node_vmstat(cur, node), name, delta);
}

static int rate_of(const struct reclaim_sample *prev, const struct reclaim_sample *cur,
		   const struct reclaim_vmstat *a, const struct reclaim_vmstat *b, const char *name,
		   double *rate)
{
	uint64_t delta;
	double secs = reclaim_sample_interval(prev, cur);
	int r;

	r = vmstat_delta(a, b, name, &delta);
	if (r < 0)
		return r;
	*rate = secs > 0.0 ? (double)delta / secs : 0.0;
	return 0;
}

RECLAIM_EXPORT int reclaim_sample_rate(const struct reclaim_sample *prev,
				       const struct reclaim_sample *cur, const char *name,
				       double *rate)
{
	assert_return(prev && cur && name && rate, -EINVAL);
	return rate_of(prev, cur, reclaim_sample_vmstat(prev), reclaim_sample_vmstat(cur), name,
		       rate);
}

static struct reclaim_vmstat *node_vmstat(const struct reclaim_sample *smp, int node_id)
{
	for (size_t i = 0; i < reclaim_sample_node_count(smp); i++)
		if (reclaim_sample_node_id(smp, i) == node_id)
			return reclaim_sample_node_vmstat(smp, i);
	return NULL;
}

RECLAIM_EXPORT int reclaim_sample_node_rate(const struct reclaim_sample *prev,
					    const struct reclaim_sample *cur, int node_id,
					    const char *name, double *rate)
{
	assert_return(prev && cur && name && rate, -EINVAL);
	return rate_of(prev, cur, node_vmstat(prev, node_id), node_vmstat(cur, node_id), name,
		       rate);
}

double reclaim_sample_kswapd_cpu_delta(const struct reclaim_sample *prev,
				       const struct reclaim_sample *cur, size_t idx)
{
	double now = reclaim_sample_kswapd_cpu_seconds(cur, idx), before = 0.0;
	pid_t pid = reclaim_sample_kswapd_pid(cur, idx);

	for (size_t i = 0; i < reclaim_sample_kswapd_count(prev); i++)
		if (reclaim_sample_kswapd_pid(prev, i) == pid) {
			before = reclaim_sample_kswapd_cpu_seconds(prev, i);
			break;
		}
	return now > before ? now - before : 0.0;
}

RECLAIM_EXPORT double reclaim_sample_kswapd_cpu_percent(const struct reclaim_sample *prev,
							const struct reclaim_sample *cur,
							size_t idx)
{
	double secs;

	assert_return(prev && cur && idx < reclaim_sample_kswapd_count(cur), 0.0);
	secs = reclaim_sample_interval(prev, cur);
	if (!(secs > 0.0))
		return 0.0;
	return reclaim_sample_kswapd_cpu_delta(prev, cur, idx) / secs * 100.0;
}
