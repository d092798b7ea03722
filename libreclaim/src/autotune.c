// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Recommended knob values from the machine's topology. Each rule says why,
 * in words, so that a recommendation can be shown with its reason.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "internal.h"

/* vm.max_direct_reclaimers: clamp(round(3/4 x CPUs of the largest node with CPUs), 1, 16). */
#define THROTTLE_MIN 1
#define THROTTLE_MAX 16

/* The node with the most memory among those with CPUs; ties go to more CPUs, then the lower id. */
static const struct reclaim_node *largest_cpu_node(const struct reclaim_topology *topo)
{
	const struct reclaim_node *best = NULL;
	size_t best_cpus = 0;

	for (size_t i = 0; i < reclaim_topology_node_count(topo); i++) {
		const struct reclaim_node *n = reclaim_topology_node(topo, i);
		size_t cpus;

		reclaim_node_cpus(n, &cpus);
		if (!reclaim_node_has_memory(n) || cpus == 0)
			continue;
		if (best && (reclaim_node_mem_total_kb(n) < reclaim_node_mem_total_kb(best) ||
			     (reclaim_node_mem_total_kb(n) == reclaim_node_mem_total_kb(best) &&
			      cpus <= best_cpus)))
			continue;
		best = n;
		best_cpus = cpus;
	}
	return best;
}

/*
 * Past a few tasks reclaiming on one node, they mostly contend for the
 * node's LRU locks: on 4 CPUs per node, 3 reclaimers did best and no limit
 * was 6x slower. So: three quarters of the CPUs that share a node, at least
 * one, and no more than 16, where contention dominates whatever the size.
 */
static int recommend_throttle(struct reclaim_ctx *ctx, const struct reclaim_topology *topo,
			      int64_t *value, char **reason)
{
	const struct reclaim_node *node = largest_cpu_node(topo);
	size_t cpus;
	int64_t v;
	int r = 0;

	if (node)
		reclaim_node_cpus(node, &cpus);
	else
		reclaim_topology_cpus(topo, &cpus);
	if (cpus == 0)
		cpus = 1;
	v = ((int64_t)cpus * 3 + 2) / 4; /* round(0.75 x cpus), halves up */
	if (v < THROTTLE_MIN)
		v = THROTTLE_MIN;
	if (v > THROTTLE_MAX)
		v = THROTTLE_MAX;
	if (reason && node)
		r = asprintf(reason,
			     "%" PRId64 " = 3/4 of the %zu CPU%s of node %d (the largest node with "
			     "CPUs), rounded, within %d..%d",
			     v, cpus, cpus == 1 ? "" : "s", reclaim_node_id(node), THROTTLE_MIN,
			     THROTTLE_MAX);
	else if (reason)
		r = asprintf(reason,
			     "%" PRId64 " = 3/4 of the %zu online CPU%s (no node with CPUs), "
			     "rounded, within %d..%d",
			     v, cpus, cpus == 1 ? "" : "s", THROTTLE_MIN, THROTTLE_MAX);
	if (r < 0)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	*value = v;
	return 0;
}

RECLAIM_EXPORT bool reclaim_knob_has_recommendation(const struct reclaim_knob *knob)
{
	assert_return(knob, false);
	return strcmp(reclaim_knob_name(knob), "max_direct_reclaimers") == 0;
}

RECLAIM_EXPORT int reclaim_knob_recommend(struct reclaim_ctx *ctx, const struct reclaim_knob *knob,
					  const struct reclaim_topology *topo, int64_t *value,
					  char **reason)
{
	assert_return(ctx && knob && topo && value, -EINVAL);
	if (reason)
		*reason = NULL;
	if (strcmp(reclaim_knob_name(knob), "max_direct_reclaimers") == 0)
		return recommend_throttle(ctx, topo, value, reason);
	return reclaim_error(ctx, EOPNOTSUPP, "there is no automatic value for %s yet",
			     reclaim_knob_name(knob));
}
