/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * abandoned.c: knobs a holder that died left at its values (a sweep killed
 * with SIGKILL, adapt after kill -9), from the holders' state files, for
 * check and status, and what restore gave back of them.
 */
#ifndef RECLAIMCTL_ABANDONED_H
#define RECLAIMCTL_ABANDONED_H

#include <cjson/cJSON.h>

#include "reclaimctl.h"

struct abandoned {
	const char *holder; /* "adapt", "sweep" */
	pid_t pid;
	const struct reclaim_knob *knob;
	int64_t before, now;
};

/* The knobs still at a dead holder's values; *list to free(). */
size_t abandoned_knobs(struct cli *cli, struct abandoned **list);
/*
 * After a change made by @cmd (restore): a line on stderr for each knob of
 * @list back at its value from before its dead holder, and the state file
 * of a dead holder that holds nothing any more removed.
 */
void abandoned_settle(struct cli *cli, const char *cmd, const struct abandoned *list, size_t n);
/* "vm.max_direct_reclaimers is 5, left by sweep (PID 4711), which died; ...", one line. */
void abandoned_print(const struct abandoned *a);
/* As a JSON object: holder, pid, knob, value, before, remedy. */
cJSON *abandoned_json(const struct abandoned *a);

#endif
