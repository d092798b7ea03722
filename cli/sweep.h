// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl sweep: what cmd-sweep.c (the command line, the runs, putting
 * the knobs back) and sweep-summary.c (the summary files, table and report)
 * share.
 */
#pragma once

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "reclaimctl.h"

#define SWEEP_MAX_RUNS 10000

struct axis {
	const char *given; /* the knob as named on the command line */
	const struct reclaim_knob *knob;
	size_t nvalues;
	char **texts; /* as given */
	int64_t *values;
	int64_t before;	  /* its value before the sweep */
	size_t moved_run; /* the last run whose command changed it; 0: none */
	int64_t moved_to; /* the value that command left */
};

struct metric {
	char *name;
	regex_t re;
};

enum run_state { RUN_NOT_RUN, RUN_OK, RUN_FAILED, RUN_INTERRUPTED };

static inline const char *run_state_name(enum run_state state)
{
	static const char *const names[] = {
	    [RUN_NOT_RUN] = "not run",
	    [RUN_OK] = "ok",
	    [RUN_FAILED] = "failed",
	    [RUN_INTERRUPTED] = "interrupted",
	};

	return names[state];
}

/*
 * The figures of the summary: the command's wall time, the catalogue's
 * totals over the run's recording (FIG_CATALOGUE + enum reclaim_figure),
 * then the --metric values.
 */
enum { FIG_WALL = 0, FIG_CATALOGUE = 1, NFIGS = FIG_CATALOGUE + _RECLAIM_FIGURE_MAX };

struct sweep_run {
	size_t combo, rep;
	char *file, *log; /* names in the directory */
	enum run_state state;
	bool recorded;		  /* its record file is written */
	int exit_status, signal;  /* -1: none */
	const struct axis *moved; /* a knob its command changed: the run is failed */
	bool *has;		  /* NFIGS + nmetrics */
	double *fig;
};

struct stat_value {
	size_t n;
	double median, min, max;
};

struct sweep {
	struct cli *cli;
	const char *dir;
	char **command;
	const char *warmup;
	double interval;
	long repeat;
	bool interleave, keep_going;
	bool latency;	    /* the runs are recorded with --latency */
	unsigned int flags; /* RECLAIM_REQUEST_FORCE */
	struct axis *axes;
	size_t naxes;
	struct reclaim_topology *topo; /* for "auto" values; NULL until one is given */
	struct metric *metrics;
	size_t nmetrics;
	size_t ncombos;
	char **labels; /* per combination: "threads=4,throttle=3" */
	struct sweep_run *runs;
	size_t nruns, done;
	unsigned long change;	     /* the sweep's change in the history; 0 before the first */
	struct reclaim_lease *lease; /* the knobs, their values before and the last written */
	char *stale;		     /* why the sweep's change cannot be joined or undone */
	size_t stale_run;	     /* the run that could not join it; 0: the restore at the end */
	bool moved;		     /* the last run's command left a knob at a value of its own */
	bool progress;		     /* a progress line on stderr (a terminal) */
	uint64_t start_ns, run_start_ns;
	size_t current;
};

static inline size_t nfigs(const struct sweep *s)
{
	return NFIGS + s->nmetrics;
}

static inline const char *fig_key(const struct sweep *s, size_t f)
{
	if (f == FIG_WALL)
		return "wall_seconds";
	if (f < NFIGS)
		return reclaim_figure_text(f - FIG_CATALOGUE, RECLAIM_FIGURE_TOTAL_KEY);
	return s->metrics[f - NFIGS].name;
}

/* The value of axis @a in combination @c: the first axis varies slowest. */
static inline size_t value_index(const struct sweep *s, size_t c, size_t a)
{
	size_t stride = 1;

	for (size_t j = a + 1; j < s->naxes; j++)
		stride *= s->axes[j].nvalues;
	return (c / stride) % s->axes[a].nvalues;
}

/* NAME in the sweep's directory (to free) */
static inline char *path_in(const struct sweep *s, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", s->dir, name) < 0)
		abort();
	return p;
}

/* sweep-summary.c */
void format_figure(char *buf, size_t size, size_t f, double v);
int write_summary(struct sweep *s, int sig);
