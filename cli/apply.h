/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RECLAIMCTL_APPLY_H
#define RECLAIMCTL_APPLY_H

#include <sys/types.h>

#include "reclaimctl.h"

/*
 * The one path by which set, preset apply, autotune --apply, restore and
 * boot change knobs: knobs the kernel lacks are skipped, the rest go
 * through one reclaim_change (lock, saved values, rollback).
 */
enum apply_status {
	APPLY_CHANGED,
	APPLY_UNCHANGED,
	APPLY_SKIPPED, /* the kernel lacks the knob, or a sysctl file sets it (without --force) */
};

struct apply_entry {
	const struct reclaim_knob *knob;
	int64_t old_value, new_value;
	enum apply_status status;
	char *reason; /* why it was skipped; or why this value (auto), may be NULL */
};

struct apply_request {
	bool dry_run;
	bool restore;	 /* put back the saved values instead of @entries' values */
	bool need_knobs; /* a knob the kernel lacks, or an administrator set, is an error */
	bool persist;	 /* also write the values to /etc/sysctl.d/90-reclaimctl.conf */
	bool force;	 /* write knobs that sysctl files set, too */
	bool explain;	 /* apply_print(): each knob's reason under its line */
};

struct apply_result {
	struct apply_entry *entries;
	size_t count;
	ssize_t verified_nodes; /* after a kswapd_threads write: the nodes checked, else -1 */
	char *error;		/* the failure, one line, when apply_run() returns non-zero */
};

/* Adds a knob and its new value (@reason is copied, may be NULL). */
int apply_add(struct apply_result *res, const struct reclaim_knob *k, int64_t value,
	      const char *reason);
/* Adds a preset's knobs, "auto" worked out for this machine; 0 or an exit status (res->error). */
int apply_add_preset(struct cli *cli, const struct reclaim_preset *preset,
		     struct apply_result *res);
/*
 * Runs the request on the entries added; prints nothing. Returns 0 or an
 * exit status with res->error set.
 */
int apply_run(struct cli *cli, const struct apply_request *req, struct apply_result *res);
/*
 * Text (one line per knob, then "persisted in FILE" for --persist) or JSON
 * ({"dry_run", "knobs": [...]}) of the outcome.
 */
void apply_print(struct cli *cli, const struct apply_request *req, const struct apply_result *res);
cJSON *apply_json(const struct apply_request *req, const struct apply_result *res);
void apply_free(struct apply_result *res);

#endif
