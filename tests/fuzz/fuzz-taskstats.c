// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A reply of the kernel's taskstats family, as a whole netlink message: the
 * nested attributes are walked within the message, a struct taskstats of any
 * version (any length) gives the delays it holds and no others.
 */
#include <linux/netlink.h>

#include "fuzz.h"
#include "taskstats-internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reclaim_task_delays *d = NULL;
	struct nlmsghdr *nlh;
	void *buf;
	int r;

	if (size < sizeof(*nlh) || size > 1 << 16)
		return 0;
	/* Aligned, as the socket's buffer is; the length is what was received. */
	buf = aligned_alloc(NLMSG_ALIGNTO * 2, (size + 7) & ~(size_t)7);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	nlh = buf;
	nlh->nlmsg_len = (uint32_t)size;
	r = reclaim_taskstats_reply(nlh, 42, "fuzz", &d);
	fuzz_check(r == 0 || r == -EBADMSG || r == -EINVAL || r == -ENOMEM, "%d", r);
	if (d) {
		fuzz_check(r == 0, "delays and %d", r);
		fuzz_check(reclaim_task_delays_pid(d) == 42, "pid %d",
			   (int)reclaim_task_delays_pid(d));
		for (int k = RECLAIM_DELAY_RECLAIM; k <= RECLAIM_DELAY_COMPACT; k++)
			if (!reclaim_task_delays_has(d, k))
				fuzz_check(reclaim_task_delays_count(d, k) == 0 &&
					       reclaim_task_delays_total_ns(d, k) == 0,
					   "absent kind %d has figures", k);
		reclaim_task_delays_unref(d);
	}
	free(buf);
	return 0;
}
