// SPDX-License-Identifier: GPL-2.0-or-later
#include <signal.h>

#include "reclaimctl.h"
#include "tracing.h"

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	caught = sig;
}

void tracing_catch_signals(void)
{
	struct sigaction sa = {.sa_handler = on_signal};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

int tracing_signal(void)
{
	return caught;
}

void tracing_started(const struct reclaim_latency *l)
{
	unsigned stale = reclaim_latency_stale_removed(l);

	if (stale)
		warnmsg("removed the tracefs instance%s of %u earlier run%s that did not end "
			"(killed)",
			stale > 1 ? "s" : "", stale, stale > 1 ? "s" : "");
	for (size_t i = 0; i < reclaim_latency_kind_count(); i++)
		if (!reclaim_latency_has(l, (enum reclaim_latency_kind)i))
			warnmsg("no %s latency: the kernel has no %s event",
				reclaim_latency_kind_name((enum reclaim_latency_kind)i),
				reclaim_latency_kind_event((enum reclaim_latency_kind)i));
}

void tracing_exit_as_signalled(void)
{
	if (caught != SIGPIPE)
		return;
	signal(SIGPIPE, SIG_DFL);
	raise(SIGPIPE);
}
