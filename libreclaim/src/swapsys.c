// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The system calls of a live priority change, in a file of their own so that
 * the unit tests can replace them (ld --wrap) and play the kernel on a
 * temporary root.
 */
#include <errno.h>
#include <string.h>
#include <sys/swap.h>

#include "swap-internal.h"

/* swapon(2) and swapoff(2) act on the running kernel: only a context on "/" may call them. */
bool reclaim_sys_is_live(const struct reclaim_ctx *ctx)
{
	return reclaim_is_live(ctx);
}

int reclaim_sys_swapon(const char *path, int flags)
{
	return swapon(path, flags) < 0 ? -errno : 0;
}

int reclaim_sys_swapoff(const char *path)
{
	return swapoff(path) < 0 ? -errno : 0;
}
