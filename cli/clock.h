/* SPDX-License-Identifier: GPL-2.0-or-later */
/* clock.c: the sampling clock, and the intervals and counts of the command line. */
#ifndef RECLAIMCTL_CLOCK_H
#define RECLAIMCTL_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* Seconds as "1", "0.5", "2m", "1h"; false if not a positive number. */
bool parse_seconds(const char *s, bool units, double *secs);
/* --interval of @cmd: at least 0.01 s; 0, or the usage error's exit status. */
int parse_interval(const char *cmd, const char *arg, double *interval);
/* A positive integer, false if not. */
bool parse_count(const char *s, long *n);
/* Sleeps until @deadline_ns of CLOCK_MONOTONIC; false if a signal woke it first. */
bool sleep_until(uint64_t deadline_ns);
uint64_t monotonic_ns(void);
/* CLOCK_REALTIME: now, for the times of the output. */
int64_t realtime_ns(void);
/*
 * The tick to sleep until next, start + tick * step: @tick, or, when that is
 * already past (the machine stalled), the next one in the future: missed
 * ticks are skipped, not made up with samples in a row.
 */
uint64_t next_tick(uint64_t start, uint64_t step, uint64_t tick);

#endif
