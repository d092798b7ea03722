/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What monitor shows and record stores: rates between two samples. */
#ifndef RECLAIMCTL_SAMPLING_H
#define RECLAIMCTL_SAMPLING_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <reclaim.h>

#include "clock.h"

/* The figures between two samples (the catalogue's, reclaim_figure_*()), and what goes with them.
 */
struct row {
	double interval; /* seconds */
	bool has[_RECLAIM_FIGURE_MAX];
	double value[_RECLAIM_FIGURE_MAX];
	size_t threads;
	const char *busiest; /* name of the busiest kswapd thread, NULL if none */
	/* a node's row with RECLAIM_SAMPLER_CPUS: its online CPUs and how busy they were */
	bool has_busy;
	unsigned int cpus;
	double cpu_busy;
};

/* The whole system's row; @node >= 0: that node's (refaults and its kswapd threads). */
void row_compute(struct row *r, const struct reclaim_sample *prev, const struct reclaim_sample *cur,
		 int node);
/*
 * Adds the row's keys to @o, in the catalogue's order (per-node rows: node
 * and the per-node figures); @r NULL: the first sample's, nothing measured
 * yet (kswapd_threads from @cur).
 */
void row_add_json(cJSON *o, const struct row *r, int node, const struct reclaim_sample *cur);
/* A figure of a row is shown: a node's row shows the per-node figures only. */
bool row_shows(enum reclaim_figure f, int node);

/* A JSON number, or null for NAN. */
cJSON *json_number_or_null(bool has, double v);
/* Rounds to @digits decimals, so that JSON output stays short. */
double round_to(double v, int digits);

#endif
