// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sampling clock of monitor, stalls, record, adapt and sweep: intervals
 * as given on the command line, CLOCK_MONOTONIC, and sleeping to the next
 * tick without drifting or making up missed ones.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "reclaimctl.h"

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

uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
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
