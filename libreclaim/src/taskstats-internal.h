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

/*
 * The delays of @pid in one reply of the kernel (a whole netlink message,
 * nlmsg_len bytes): *delays stays NULL when the reply holds none. -EBADMSG
 * for a message that is not a taskstats reply, else as reclaim_taskstats_parse().
 */
struct nlmsghdr;
int reclaim_taskstats_reply(struct nlmsghdr *nlh, pid_t pid, const char *comm,
			    struct reclaim_task_delays **delays);

#endif
