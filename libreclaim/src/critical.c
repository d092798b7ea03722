// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The step of a change from its writes to its record marked done: a test
 * build's hook inside it, for the tests of an interrupted change.
 */
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

#ifdef RECLAIM_TEST_HOOKS
void reclaim_test_after_write(const struct reclaim_ctx *ctx)
{
	const char *v = secure_getenv("RECLAIMCTL_TEST_AFTER_WRITE");
	uint64_t ms;

	/* The tests' roots only: never on the running system. */
	if (reclaim_is_live(ctx))
		return;
	if (v && strcmp(v, "kill") == 0)
		raise(SIGKILL);
	if (v && reclaim_parse_u64(v, &ms) == 0 && ms <= UINT_MAX)
		reclaim_sleep_ms((unsigned int)ms);
}
#endif
