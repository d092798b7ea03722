// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A change's writes and its record in the history are one step, and so are
 * a swap device's being off and its swapon: a signal that ends the process
 * (SIGINT, SIGTERM, SIGHUP) waits until the step is complete or rolled
 * back, blocked in the calling thread. The library installs no handler:
 * once the mask is back, the signal does what the caller disposed (the
 * default ends the process, with the change recorded). SIGKILL cannot
 * wait; the history's intent records are there for it.
 */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

void reclaim_critical_enter(sigset_t *saved)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, saved);
}

void reclaim_critical_leave(const sigset_t *saved)
{
	pthread_sigmask(SIG_SETMASK, saved, NULL);
}

#ifdef RECLAIM_TEST_HOOKS
void reclaim_test_hook(const struct reclaim_ctx *ctx, const char *name)
{
	const char *v = secure_getenv(name);
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
