// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reclaimctl.h"
#include "snapshot.h"

void snapshot_free(struct snapshot *s)
{
	reclaim_topology_unref(s->topo);
	reclaim_kswapd_list_unref(s->kswapd);
	reclaim_vmstat_unref(s->vmstat);
	reclaim_pressure_unref(s->pressure);
	free(s->pressure_missing);
	reclaim_swaps_unref(s->swaps);
	free(s->swaps_missing);
	free(s->has_knob);
	free(s->knob_value);
	reclaim_verify_unref(s->verify);
	free(s->verify_error);
}

void snapshot_verify(struct cli *cli, struct snapshot *s)
{
	if (reclaim_verify_new(cli->ctx, &s->verify) < 0) {
		s->verify = NULL;
		s->verify_error = strdup(reclaim_strerror(cli->ctx));
		if (!s->verify_error)
			abort();
	}
}

/* A knob the kernel lacks is reported as such; one that cannot be read is an error. */
static int read_knobs(struct cli *cli, struct snapshot *s)
{
	size_t n = reclaim_knob_count();

	s->has_knob = calloc(n, sizeof(*s->has_knob));
	s->knob_value = calloc(n, sizeof(*s->knob_value));
	if (!s->has_knob || !s->knob_value)
		return fail(EXIT_FAILURE, "out of memory");
	for (size_t i = 0; i < n; i++) {
		int r = reclaim_knob_read(cli->ctx, reclaim_knob_get(i), &s->knob_value[i]);

		if (r == -EOPNOTSUPP)
			continue;
		if (r < 0)
			return lib_fail(cli, EXIT_FAILURE, NULL);
		s->has_knob[i] = true;
	}
	s->sysctls = reclaim_has_sysctls(cli->ctx) == 1;
	return 0;
}

int snapshot_read(struct cli *cli, struct snapshot *s)
{
	int r;

	r = read_knobs(cli, s);
	if (r)
		return r;
	if (reclaim_topology_new(cli->ctx, &s->topo) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	if (reclaim_kswapd_list_new(cli->ctx, &s->kswapd) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	r = reclaim_vmstat_new(cli->ctx, &s->vmstat);
	if (r < 0 && r != -ENOENT)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	r = reclaim_pressure_new(cli->ctx, &s->pressure);
	if (r == -ENOENT)
		s->pressure_missing = strdup(reclaim_strerror(cli->ctx));
	else if (r < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	r = reclaim_swaps_new(cli->ctx, &s->swaps);
	if (r == -ENOENT)
		s->swaps_missing = strdup(reclaim_strerror(cli->ctx));
	else if (r < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	return 0;
}
