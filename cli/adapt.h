/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reclaimctl adapt: the live daemon (cmd-adapt.c) and the replay of a
 * recording (adapt-replay.c), and what they share (adapt-controller.c).
 */
#ifndef RECLAIMCTL_ADAPT_H
#define RECLAIMCTL_ADAPT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "reclaimctl.h"

struct adapt_options {
	double interval;
	int64_t min, max; /* 0: the controller's default */
	bool dry_run, once, keep, force, reset;
	bool latency; /* also trace direct reclaims: their p99 in the reasons */
	const char
	    *only; /* --only: "threads" or "watermark"; NULL: both where the kernel has them */
	const char *replay;
	size_t nparams;
	double *param;	 /* indexed by enum reclaim_adapt_param */
	bool *param_set; /* given on the command line */
};

/* adapt-controller.c: the options' thresholds and bounds to @adapt; 0 or an exit status. */
int adapt_configure(struct cli *cli, struct reclaim_adapt *adapt, const struct adapt_options *o);

/*
 * One decision to @out, as text ("+31.0 s", or "12:00:31" at @realtime_ns when not 0, then
 * "kswapd_threads 1 -> 2: REASON") or, with --json, one JSON object per line {"elapsed",
 * ["time", "epoch",] "knob", "old", "new", "reason"}.
 */
void adapt_print(struct cli *cli, FILE *out, double elapsed, int64_t realtime_ns,
		 const struct reclaim_knob *knob, int64_t old, int64_t new, const char *reason,
		 bool dry_run);

/* adapt-replay.c */
int adapt_replay(struct cli *cli, const struct adapt_options *o);

#endif
