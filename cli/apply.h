/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RECLAIMCTL_APPLY_H
#define RECLAIMCTL_APPLY_H

#include "reclaimctl.h"

/*
 * Every command that changes knobs or previews a change makes one request
 * to libreclaim's change engine and prints the evaluation it returns, with
 * the one printer below: the library decides, the CLI prints.
 */
struct plan_options {
	bool dry_run;
	bool explain;	    /* each entry's reason under its line */
	unsigned int flags; /* enum reclaim_request_flags */
};

/*
 * Evaluates (dry run) or applies @req. 0 with *eval set, or an exit status
 * after printing the error (prefixed with @what when given).
 */
int plan_run(struct cli *cli, struct reclaim_request *req, const struct plan_options *o,
	     struct reclaim_eval **eval);
/* The plan as the JSON document of the current schema (see reclaimctl(8), JSON OUTPUT). */
cJSON *plan_json(const struct reclaim_eval *e, const struct plan_options *o);
/* The entries, one line each; then the threads check and the persisted file. */
void plan_print_text(const struct reclaim_eval *e, const struct plan_options *o);
/* JSON or text, as the command line asked. */
void plan_print(struct cli *cli, const struct reclaim_eval *e, const struct plan_options *o);
/* "2 to set, 1 unchanged, 1 skipped" (or "set" for an apply). */
void plan_print_summary(const struct reclaim_eval *e, const struct plan_options *o);

#endif
