/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every command that traces reclaim latency (latency, monitor and
 * record --latency) does alike: the tracefs instance goes with the run,
 * whatever ends it but SIGKILL, and the run says what it found at the start.
 */
#ifndef RECLAIMCTL_TRACING_H
#define RECLAIMCTL_TRACING_H

#include <reclaim.h>

/* SIGINT, SIGTERM, SIGHUP and SIGPIPE are noted (tracing_signal()) instead of ending the run. */
void tracing_catch_signals(void);
/* The signal caught, or 0. */
int tracing_signal(void);
/* One line for each instance of a killed run that was removed, and each kind the kernel lacks. */
void tracing_started(const struct reclaim_latency *l);
/* After the tear-down: a run whose reader went (SIGPIPE) ends as a pipeline's writer does. */
void tracing_exit_as_signalled(void);

#endif
