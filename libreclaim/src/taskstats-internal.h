/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef RECLAIM_TASKSTATS_INTERNAL_H
#define RECLAIM_TASKSTATS_INTERNAL_H

#include "internal.h"

/*
 * Reads the delays out of a TASKSTATS_TYPE_STATS payload of @len bytes, a
 * struct taskstats of any version: fields past @len are marked absent.
 * -EINVAL if it is too short to hold even the version.
 */
int reclaim_taskstats_parse(const void *payload, size_t len, pid_t pid, const char *comm,
			    struct reclaim_task_delays **delays);

#endif
