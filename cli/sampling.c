// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reclaimctl.h"
#include "sampling.h"

const char *const rate_keys[NRATES] = {
    [RATE_PGSCAN_KSWAPD] = "pgscan_kswapd",
    [RATE_PGSCAN_DIRECT] = "pgscan_direct",
    [RATE_PGSTEAL_KSWAPD] = "pgsteal_kswapd",
    [RATE_PGSTEAL_DIRECT] = "pgsteal_direct",
    [RATE_ALLOCSTALL] = "allocstall",
    [RATE_THROTTLED] = "direct_reclaim_throttled",
    [RATE_PSWPIN] = "pswpin",
    [RATE_PSWPOUT] = "pswpout",
    [RATE_REFAULT] = "workingset_refault",
};

/* The vmstat counter behind each rate; a name ending in '_' sums a family. */
static const char *const rate_counters[NRATES][2] = {
    [RATE_PGSCAN_KSWAPD] = {"pgscan_kswapd", NULL},
    [RATE_PGSCAN_DIRECT] = {"pgscan_direct", NULL},
    [RATE_PGSTEAL_KSWAPD] = {"pgsteal_kswapd", NULL},
    [RATE_PGSTEAL_DIRECT] = {"pgsteal_direct", NULL},
    [RATE_ALLOCSTALL] = {"allocstall_", NULL},
    [RATE_THROTTLED] = {"direct_reclaim_throttled", NULL},
    [RATE_PSWPIN] = {"pswpin", NULL},
    [RATE_PSWPOUT] = {"pswpout", NULL},
    /* anon + file since Linux 5.9, one counter before */
    [RATE_REFAULT] = {"workingset_refault_", "workingset_refault"},
};

static bool rate(const struct reclaim_sample *prev, const struct reclaim_sample *cur, int node,
		 enum rate_id id, double *v)
{
	for (size_t i = 0; i < 2 && rate_counters[id][i]; i++) {
		const char *name = rate_counters[id][i];
		int r = node < 0 ? reclaim_sample_rate(prev, cur, name, v)
				 : reclaim_sample_node_rate(prev, cur, node, name, v);

		if (r == 0)
			return true;
	}
	return false;
}

static void kswapd_cpu(struct row *r, const struct reclaim_sample *prev,
		       const struct reclaim_sample *cur, int node)
{
	for (size_t i = 0; i < reclaim_sample_kswapd_count(cur); i++) {
		double pct;

		if (node >= 0 && reclaim_sample_kswapd_node(cur, i) != node)
			continue;
		pct = reclaim_sample_kswapd_cpu_percent(prev, cur, i);
		r->threads++;
		r->kswapd_sum += pct;
		if (!r->busiest || pct > r->kswapd_max) {
			r->kswapd_max = pct;
			r->busiest = reclaim_sample_kswapd_name(cur, i);
		}
	}
}

void row_compute(struct row *r, const struct reclaim_sample *prev, const struct reclaim_sample *cur,
		 int node)
{
	const struct reclaim_pressure *p = reclaim_sample_pressure(cur);

	memset(r, 0, sizeof(*r));
	r->interval = reclaim_sample_interval(prev, cur);
	for (int id = 0; id < NRATES; id++) {
		/* a node's vmstat has no vm events: only the refaults are per node */
		if (node >= 0 && id != RATE_REFAULT)
			continue;
		r->has[id] = rate(prev, cur, node, id, &r->rate[id]);
	}
	kswapd_cpu(r, prev, cur, node);
	if (node >= 0)
		r->has_busy =
		    reclaim_sample_node_cpu_busy(prev, cur, node, &r->cpus, &r->cpu_busy) == 0;
	if (node >= 0 || !p)
		return;
	r->has_some = reclaim_pressure_has(p, RECLAIM_PRESSURE_SOME);
	r->has_full = reclaim_pressure_has(p, RECLAIM_PRESSURE_FULL);
	r->some_avg10 = reclaim_pressure_avg10(p, RECLAIM_PRESSURE_SOME);
	r->full_avg10 = reclaim_pressure_avg10(p, RECLAIM_PRESSURE_FULL);
}

double round_to(double v, int digits)
{
	double f = pow(10.0, digits);

	return round(v * f) / f;
}

cJSON *json_number_or_null(bool has, double v)
{
	return has ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

void row_add_json(cJSON *o, const struct row *r, int node)
{
	if (node >= 0)
		cJSON_AddNumberToObject(o, "node", node);
	for (int id = 0; id < NRATES; id++) {
		if (node >= 0 && id != RATE_REFAULT)
			continue;
		cJSON_AddItemToObject(o, rate_keys[id],
				      json_number_or_null(r->has[id], round_to(r->rate[id], 2)));
	}
	cJSON_AddNumberToObject(o, "kswapd_threads", (double)r->threads);
	cJSON_AddNumberToObject(o, "kswapd_cpu_percent", round_to(r->kswapd_sum, 2));
	cJSON_AddNumberToObject(o, "kswapd_busiest_cpu_percent", round_to(r->kswapd_max, 2));
	if (r->busiest)
		cJSON_AddStringToObject(o, "kswapd_busiest", r->busiest);
	else
		cJSON_AddNullToObject(o, "kswapd_busiest");
	if (node >= 0 && r->has_busy) {
		cJSON_AddNumberToObject(o, "cpus", r->cpus);
		cJSON_AddNumberToObject(o, "cpu_busy_percent", round_to(r->cpu_busy, 2));
	}
	if (node >= 0)
		return;
	cJSON_AddItemToObject(o, "psi_some_avg10", json_number_or_null(r->has_some, r->some_avg10));
	cJSON_AddItemToObject(o, "psi_full_avg10", json_number_or_null(r->has_full, r->full_avg10));
}

bool parse_seconds(const char *s, bool units, double *secs)
{
	char *end;
	double v, mult = 1.0;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno)
		return false;
	if (units && *end) {
		if (strcmp(end, "s") == 0)
			mult = 1.0;
		else if (strcmp(end, "m") == 0)
			mult = 60.0;
		else if (strcmp(end, "h") == 0)
			mult = 3600.0;
		else
			return false;
		end += 1;
	}
	if (*end || !isfinite(v) || !(v > 0.0) || v * mult > 1e7)
		return false;
	*secs = v * mult;
	return true;
}

int parse_interval(const char *cmd, const char *arg, double *interval)
{
	if (!parse_seconds(arg, false, interval) || *interval < 0.01)
		return usage_error("%s: --interval: not a number of seconds (at least 0.01): '%s'",
				   cmd, arg);
	return 0;
}

bool parse_count(const char *s, long *n)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v <= 0)
		return false;
	*n = v;
	return true;
}

uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t next_tick(uint64_t start, uint64_t step, uint64_t tick)
{
	uint64_t now = monotonic_ns();

	if (step && start + tick * step < now)
		tick = (now - start) / step + 1;
	return tick;
}

bool sleep_until(uint64_t deadline_ns)
{
	struct timespec ts = {
	    .tv_sec = (time_t)(deadline_ns / 1000000000u),
	    .tv_nsec = (long)(deadline_ns % 1000000000u),
	};
	int r;

	r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	return r == 0;
}
