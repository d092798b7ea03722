// SPDX-License-Identifier: GPL-2.0-or-later
/* Recommended knob values from the topology: vm.max_direct_reclaimers ("set throttle auto"). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reclaim.h"
#include "tmproot.h"

#define NODE_DIR "/sys/devices/system/node"

static int setup(void **state)
{
	*state = tmproot_new();
	return 0;
}

static int teardown(void **state)
{
	tmproot_remove(*state);
	return 0;
}

/* A node with @cpulist ("" for none) and @total_kb of memory (0 for none). */
static void add_node(const char *root, int id, const char *cpulist, unsigned long total_kb)
{
	char path[128], text[256];

	snprintf(path, sizeof(path), NODE_DIR "/node%d/cpulist", id);
	snprintf(text, sizeof(text), "%s\n", cpulist);
	tmproot_write(root, path, text);
	snprintf(path, sizeof(path), NODE_DIR "/node%d/meminfo", id);
	snprintf(text, sizeof(text), "Node %d MemTotal: %lu kB\nNode %d MemFree: %lu kB\n", id,
		 total_kb, id, total_kb / 2);
	tmproot_write(root, path, text);
}

/* The recommendation on @root, and its reason in @reason (freed by the caller). */
static int64_t recommend(const char *root, char **reason)
{
	const struct reclaim_knob *k = reclaim_knob_find("throttle");
	struct reclaim_topology *topo;
	struct reclaim_ctx *ctx;
	int64_t v = -1;

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_topology_new(ctx, &topo), 0);
	assert_int_equal(reclaim_knob_recommend(ctx, k, topo, &v, reason), 0);
	reclaim_topology_unref(topo);
	reclaim_unref(ctx);
	return v;
}

static void numa(const char *root, const char *online, const char *has_memory, const char *has_cpu,
		 const char *cpus)
{
	tmproot_write(root, NODE_DIR "/online", online);
	tmproot_write(root, NODE_DIR "/has_memory", has_memory);
	tmproot_write(root, NODE_DIR "/has_cpu", has_cpu);
	tmproot_write(root, "/sys/devices/system/cpu/online", cpus);
}

/* The measurement behind the rule: 4 CPUs per node, 3 reclaimers did best. */
static void test_four_cpus_per_node(void **state)
{
	const char *root = *state;
	char *reason;

	numa(root, "0-1\n", "0-1\n", "0-1\n", "0-7\n");
	add_node(root, 0, "0-3", 8000000);
	add_node(root, 1, "4-7", 8000000);
	assert_int_equal(recommend(root, &reason), 3);
	assert_string_equal(reason, "3 = 3/4 of the 4 CPUs of node 0 (the largest node with CPUs), "
				    "rounded, within 1..16");
	free(reason);
}

static void test_largest_node_with_cpus(void **state)
{
	const char *root = *state;
	char *reason;

	/* node 2 has the most memory but no CPU; node 1 is the largest with CPUs */
	numa(root, "0-2\n", "0-2\n", "0-1\n", "0-11\n");
	add_node(root, 0, "0-3", 4000000);
	add_node(root, 1, "4-11", 8000000);
	add_node(root, 2, "", 64000000);
	assert_int_equal(recommend(root, &reason), 6);
	assert_non_null(strstr(reason, "8 CPUs of node 1"));
	free(reason);
}

static void test_rounding_and_bounds(void **state)
{
	static const struct {
		const char *cpus;
		int64_t want;
	} cases[] = {
	    {"0", 1}, {"0-1", 2}, {"0-2", 2}, {"0-5", 5}, {"0-9", 8}, {"0-20", 16}, {"0-127", 16},
	};
	const char *root = *state;

	numa(root, "0\n", "0\n", "0\n", "0-127\n");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		add_node(root, 0, cases[i].cpus, 1000000);
		assert_int_equal(recommend(root, NULL), cases[i].want);
	}
}

static void test_no_numa(void **state)
{
	const char *root = *state;
	char *reason;

	/* no node directory: one node holding every online CPU */
	tmproot_write(root, "/sys/devices/system/cpu/online", "0-7\n");
	tmproot_write(root, "/proc/meminfo", "MemTotal: 8000000 kB\nMemFree: 10000 kB\n");
	assert_int_equal(recommend(root, &reason), 6);
	free(reason);
}

static void test_other_knobs(void **state)
{
	struct reclaim_topology *topo;
	struct reclaim_ctx *ctx;
	int64_t v = 7;
	char *reason = (char *)"x";

	tmproot_write(*state, "/sys/devices/system/cpu/online", "0-3\n");
	assert_int_equal(reclaim_new(&ctx, *state), 0);
	assert_int_equal(reclaim_topology_new(ctx, &topo), 0);
	assert_int_equal(
	    reclaim_knob_recommend(ctx, reclaim_knob_find("swappiness"), topo, &v, &reason),
	    -EOPNOTSUPP);
	assert_null(reason);
	assert_int_equal(v, 7);
	assert_int_equal(reclaim_knob_recommend(ctx, NULL, topo, &v, NULL), -EINVAL);
	reclaim_topology_unref(topo);
	reclaim_unref(ctx);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_four_cpus_per_node),	 T(test_largest_node_with_cpus),
	    T(test_rounding_and_bounds), T(test_no_numa),
	    T(test_other_knobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
