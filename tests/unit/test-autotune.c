// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Autotune over many topologies: the plan (reclaim_plan_new) and the single
 * recommendation (reclaim_knob_recommend, "set KNOB auto"), which must agree;
 * knobs the kernel lacks; swap priorities by tier.
 */
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
#include "swaproot.h"

#define NODE_DIR "/sys/devices/system/node"

/* The rule part of the reasons. */
#define THREADS_RULE  "1 per 16 CPUs, at most a quarter of a node's CPUs"
#define THROTTLE_RULE "3/4 of a node's CPUs, rounded, within 1..16"

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

/* Node @id with the @n CPUs from @first, and 8 GB. */
static void add_cpu_node(const char *root, int id, unsigned int first, unsigned int n)
{
	char cpus[64];

	if (n == 1)
		snprintf(cpus, sizeof(cpus), "%u", first);
	else
		snprintf(cpus, sizeof(cpus), "%u-%u", first, first + n - 1);
	add_node(root, id, cpus, 8000000);
}

static void numa(const char *root, const char *online, const char *has_memory, const char *has_cpu,
		 const char *cpus)
{
	tmproot_write(root, NODE_DIR "/online", online);
	tmproot_write(root, NODE_DIR "/has_memory", has_memory);
	tmproot_write(root, NODE_DIR "/has_cpu", has_cpu);
	tmproot_write(root, "/sys/devices/system/cpu/online", cpus);
}

/* The knobs of the patched kernel, at their defaults, and a stock one. */
static void patched(const char *root)
{
	tmproot_write(root, "/proc/sys/vm/kswapd_threads", "1\n");
	tmproot_write(root, "/proc/sys/vm/max_direct_reclaimers", "0\n");
	tmproot_write(root, "/proc/sys/vm/swap_round_robin_quota_kb", "2048\n");
	tmproot_write(root, "/proc/sys/vm/swappiness", "60\n");
}

/* The plan for one root, as the tests look at it. */
struct result {
	int64_t threads, throttle;
	bool threads_skipped, throttle_skipped;
	char *threads_reason, *throttle_reason;
};

static void result_free(struct result *r)
{
	free(r->threads_reason);
	free(r->throttle_reason);
}

/*
 * The plan's entry for @name, checked against reclaim_knob_recommend(): the
 * same value and the same reason.
 */
static void entry(struct reclaim_ctx *ctx, const struct reclaim_topology *topo,
		  const struct reclaim_plan *plan, const char *name, int64_t *value, bool *skipped,
		  char **reason)
{
	const struct reclaim_knob *k = reclaim_knob_find(name);
	ssize_t i = reclaim_plan_find(plan, k);
	const char *text;
	char *rec = NULL;
	int64_t v = -1;

	assert_true(i >= 0);
	assert_ptr_equal(reclaim_plan_knob(plan, (size_t)i), k);
	*value = reclaim_plan_value(plan, (size_t)i);
	*skipped = reclaim_plan_skipped(plan, (size_t)i);
	text = reclaim_plan_reason(plan, (size_t)i);
	assert_non_null(text);
	assert_null(strchr(text, '\n'));

	assert_true(reclaim_knob_has_recommendation(k));
	assert_int_equal(reclaim_knob_recommend(ctx, k, topo, &v, &rec), 0);
	assert_int_equal(v, *value);
	/* Skipped or not, the reason is the rule's: the change engine says why it is skipped. */
	assert_string_equal(text, rec);
	free(rec);
	*reason = strdup(text);
}

static void run_plan(const char *root, struct result *res)
{
	struct reclaim_topology *topo;
	struct reclaim_plan *plan = NULL;
	struct reclaim_ctx *ctx;

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_topology_new(ctx, &topo), 0);
	assert_int_equal(reclaim_plan_new(ctx, topo, NULL, &plan), 0);
	/* the four knobs with a rule, in the table's order */
	assert_int_equal(reclaim_plan_count(plan), 4);
	assert_string_equal(reclaim_knob_name(reclaim_plan_knob(plan, 0)), "kswapd_threads");
	assert_string_equal(reclaim_knob_name(reclaim_plan_knob(plan, 1)), "max_direct_reclaimers");
	assert_string_equal(reclaim_knob_name(reclaim_plan_knob(plan, 2)), "zswap_enabled");
	assert_string_equal(reclaim_knob_name(reclaim_plan_knob(plan, 3)), "numa_demotion_enabled");
	assert_int_equal(reclaim_plan_swap_count(plan), 0);
	entry(ctx, topo, plan, "kswapd_threads", &res->threads, &res->threads_skipped,
	      &res->threads_reason);
	entry(ctx, topo, plan, "max_direct_reclaimers", &res->throttle, &res->throttle_skipped,
	      &res->throttle_reason);
	reclaim_plan_unref(plan);
	reclaim_topology_unref(topo);
	reclaim_unref(ctx);
}

/* The published data point: 2 nodes of 26 cores, 52 hardware threads each -> 4 threads. */
static void test_two_nodes_of_52(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	numa(root, "0-1\n", "0-1\n", "0-1\n", "0-103\n");
	add_node(root, 0, "0-25,52-77", 64000000);
	add_node(root, 1, "26-51,78-103", 64000000);
	run_plan(root, &r);
	assert_int_equal(r.threads, 4);
	assert_false(r.threads_skipped);
	assert_string_equal(r.threads_reason,
			    "52 CPUs per node on nodes 0-1 -> 4 kswapd threads per "
			    "node (" THREADS_RULE ")");
	assert_int_equal(r.throttle, 16);
	assert_false(r.throttle_skipped);
	assert_string_equal(r.throttle_reason,
			    "52 CPUs per node on nodes 0-1 -> 16 direct reclaimers at once per "
			    "node (" THROTTLE_RULE ")");
	result_free(&r);
}

/* The other data point: a node of 2 CPUs -> 1 thread. */
static void test_node_of_two(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	numa(root, "0\n", "0\n", "0\n", "0-1\n");
	add_node(root, 0, "0-1", 2000000);
	run_plan(root, &r);
	assert_int_equal(r.threads, 1);
	assert_string_equal(r.threads_reason,
			    "2 CPUs on node 0 -> 1 kswapd thread (" THREADS_RULE ")");
	assert_int_equal(r.throttle, 2);
	assert_string_equal(r.throttle_reason,
			    "2 CPUs on node 0 -> 2 direct reclaimers at once (" THROTTLE_RULE ")");
	result_free(&r);
}

/* The throttle's measurement: 4 CPUs per node, 3 reclaimers did best. */
static void test_four_cpus_per_node(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	numa(root, "0-1\n", "0-1\n", "0-1\n", "0-7\n");
	add_node(root, 0, "0-3", 8000000);
	add_node(root, 1, "4-7", 8000000);
	run_plan(root, &r);
	assert_int_equal(r.throttle, 3);
	assert_string_equal(r.throttle_reason,
			    "4 CPUs per node on nodes 0-1 -> 3 direct reclaimers at once per "
			    "node (" THROTTLE_RULE ")");
	assert_int_equal(r.threads, 1);
	assert_string_equal(r.threads_reason, "4 CPUs per node on nodes 0-1 -> 1 kswapd thread per "
					      "node (" THREADS_RULE ")");
	result_free(&r);
}

/* Sparse ids; a memory-only node (a CXL expander) does not count. */
static void test_sparse_and_memory_only(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	numa(root, "0-1,33,72\n", "0-1,33,72\n", "0-1,33\n", "0-95\n");
	add_cpu_node(root, 0, 0, 32);
	add_cpu_node(root, 1, 32, 32);
	add_cpu_node(root, 33, 64, 32);
	add_node(root, 72, "", 256000000);
	run_plan(root, &r);
	assert_int_equal(r.threads, 2);
	assert_string_equal(r.threads_reason,
			    "32 CPUs per node on nodes 0-1,33 -> 2 kswapd threads per node "
			    "(" THREADS_RULE "; memory-only node 72 does not count: its kswapd "
			    "threads run on any CPU)");
	assert_int_equal(r.throttle, 16);
	assert_string_equal(r.throttle_reason,
			    "32 CPUs per node on nodes 0-1,33 -> 16 direct reclaimers at once per "
			    "node (" THROTTLE_RULE "; memory-only node 72 does not count)");
	result_free(&r);
}

/* Two memory-only nodes, a node with CPUs but no memory, and an offline node. */
static void test_memory_only_and_cpu_only(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	numa(root, "0-3\n", "0,2-3\n", "0-1\n", "0-23\n");
	add_cpu_node(root, 0, 0, 20);
	add_node(root, 1, "20-23", 0);
	add_node(root, 2, "", 4000000);
	add_node(root, 3, "", 4000000);
	add_node(root, 4, "", 0); /* not in online */
	run_plan(root, &r);
	assert_int_equal(r.threads, 2);
	assert_string_equal(r.threads_reason,
			    "20 CPUs on node 0 -> 2 kswapd threads per node (" THREADS_RULE
			    "; memory-only nodes 2-3 do not count: their kswapd threads run on any "
			    "CPU; CPU-only node 1 does not count: no memory, no kswapd)");
	assert_int_equal(r.throttle, 15);
	assert_string_equal(
	    r.throttle_reason,
	    "20 CPUs on node 0 -> 15 direct reclaimers at once per node (" THROTTLE_RULE
	    "; memory-only nodes 2-3 do not count; CPU-only node 1 does not count)");
	result_free(&r);
}

/* Nodes of 52 and 4 CPUs: the small one sets the threads, the large one the throttle. */
static void test_asymmetric(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	numa(root, "0-1\n", "0-1\n", "0-1\n", "0-55\n");
	add_cpu_node(root, 0, 0, 52);
	add_cpu_node(root, 1, 52, 4);
	run_plan(root, &r);
	assert_int_equal(r.threads, 1);
	assert_string_equal(r.threads_reason,
			    "52 CPUs on node 0, 4 on node 1 -> 1 kswapd thread per node "
			    "(" THREADS_RULE
			    "; node 1 sets it: the knob is global, so the smallest "
			    "node's value)");
	assert_int_equal(r.throttle, 16);
	assert_string_equal(
	    r.throttle_reason,
	    "52 CPUs on node 0, 4 on node 1 -> 16 direct reclaimers at once per node "
	    "(" THROTTLE_RULE "; node 0 sets it: the knob is global, and the largest "
	    "node's value throttles no node below its share)");
	result_free(&r);
}

/* Three sizes, two of which give the same number of threads: both set it. */
static void test_three_sizes(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	numa(root, "0-3\n", "0-3\n", "0-3\n", "0-79\n");
	add_cpu_node(root, 0, 0, 64);
	add_cpu_node(root, 1, 64, 8);
	add_cpu_node(root, 2, 72, 4);
	add_cpu_node(root, 3, 76, 4);
	run_plan(root, &r);
	assert_int_equal(r.threads, 1);
	assert_string_equal(r.threads_reason,
			    "64 CPUs on node 0, 8 on node 1, 4 on nodes 2-3 -> 1 kswapd thread per "
			    "node (" THREADS_RULE "; nodes 1-3 set it: the knob is global, so the "
			    "smallest node's value)");
	assert_int_equal(r.throttle, 16);
	assert_string_equal(
	    r.throttle_reason,
	    "64 CPUs on node 0, 8 on node 1, 4 on nodes 2-3 -> 16 direct reclaimers "
	    "at once per node (" THROTTLE_RULE "; node 0 sets it: the knob is "
	    "global, and the largest node's value throttles no node below its "
	    "share)");
	result_free(&r);
}

/* Different sizes that give the same values: nobody is singled out. */
static void test_sizes_same_value(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	numa(root, "0-1\n", "0-1\n", "0-1\n", "0-55\n");
	add_cpu_node(root, 0, 0, 32);
	add_cpu_node(root, 1, 32, 24);
	run_plan(root, &r);
	assert_int_equal(r.threads, 2);
	assert_string_equal(r.threads_reason, "32 CPUs on node 0, 24 on node 1 -> 2 kswapd threads "
					      "per node (" THREADS_RULE ")");
	assert_int_equal(r.throttle, 16);
	assert_string_equal(r.throttle_reason, "32 CPUs on node 0, 24 on node 1 -> 16 direct "
					       "reclaimers at once per node (" THROTTLE_RULE ")");
	result_free(&r);
}

/* More than four sizes: the range. */
static void test_many_sizes(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	numa(root, "0-4\n", "0-4\n", "0-4\n", "0-131\n");
	add_cpu_node(root, 0, 0, 64);
	add_cpu_node(root, 1, 64, 32);
	add_cpu_node(root, 2, 96, 16);
	add_cpu_node(root, 3, 112, 12);
	add_cpu_node(root, 4, 124, 8);
	run_plan(root, &r);
	assert_int_equal(r.threads, 1);
	assert_string_equal(r.threads_reason,
			    "8 to 64 CPUs per node on nodes 0-4 -> 1 kswapd thread per node "
			    "(" THREADS_RULE "; nodes 2-4 set it: the knob is global, so the "
			    "smallest node's value)");
	assert_int_equal(r.throttle, 16);
	result_free(&r);
}

/* 16 nodes of 8 CPUs. */
static void test_sixteen_nodes(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	numa(root, "0-15\n", "0-15\n", "0-15\n", "0-127\n");
	for (int i = 0; i < 16; i++)
		add_cpu_node(root, i, (unsigned)i * 8, 8);
	run_plan(root, &r);
	assert_int_equal(r.threads, 1);
	assert_string_equal(r.threads_reason,
			    "8 CPUs per node on nodes 0-15 -> 1 kswapd thread per "
			    "node (" THREADS_RULE ")");
	assert_int_equal(r.throttle, 6);
	assert_string_equal(r.throttle_reason,
			    "8 CPUs per node on nodes 0-15 -> 6 direct reclaimers at once per node "
			    "(" THROTTLE_RULE ")");
	result_free(&r);
}

/* One CPU, no NUMA directory. */
static void test_one_cpu(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	tmproot_write(root, "/sys/devices/system/cpu/online", "0\n");
	tmproot_write(root, "/proc/meminfo", "MemTotal: 1000000 kB\nMemFree: 10000 kB\n");
	run_plan(root, &r);
	assert_int_equal(r.threads, 1);
	assert_string_equal(r.threads_reason,
			    "1 CPU, no NUMA (one node) -> 1 kswapd thread (" THREADS_RULE ")");
	assert_int_equal(r.throttle, 1);
	assert_string_equal(
	    r.throttle_reason,
	    "1 CPU, no NUMA (one node) -> 1 direct reclaimer at once (" THROTTLE_RULE ")");
	result_free(&r);
}

static void test_no_numa(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	tmproot_write(root, "/sys/devices/system/cpu/online", "0-7\n");
	tmproot_write(root, "/proc/meminfo", "MemTotal: 8000000 kB\nMemFree: 10000 kB\n");
	run_plan(root, &r);
	assert_int_equal(r.threads, 1);
	assert_string_equal(r.threads_reason,
			    "8 CPUs, no NUMA (one node) -> 1 kswapd thread (" THREADS_RULE ")");
	assert_int_equal(r.throttle, 6);
	assert_string_equal(
	    r.throttle_reason,
	    "8 CPUs, no NUMA (one node) -> 6 direct reclaimers at once (" THROTTLE_RULE ")");
	result_free(&r);
}

/* No node has both: all online CPUs count, as one node. */
static void test_no_node_with_both(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	numa(root, "0-1\n", "0\n", "1\n", "0-39\n");
	add_node(root, 0, "", 8000000);
	add_node(root, 1, "0-39", 0);
	run_plan(root, &r);
	assert_int_equal(r.threads, 3);
	assert_string_equal(r.threads_reason,
			    "no node has both CPUs and memory: 40 online CPUs -> 3 kswapd threads "
			    "(" THREADS_RULE "; memory-only node 0 does not count: its kswapd "
			    "threads run on any CPU; CPU-only node 1 does not count: no memory, no "
			    "kswapd)");
	assert_int_equal(r.throttle, 16);
	assert_string_equal(r.throttle_reason,
			    "no node has both CPUs and memory: 40 online CPUs -> 16 direct "
			    "reclaimers at once (" THROTTLE_RULE "; memory-only node 0 does not "
			    "count; CPU-only node 1 does not count)");
	result_free(&r);
}

/* The value of each rule for one node of @cpus CPUs. */
static void one_node(const char *root, unsigned int cpus, struct result *r)
{
	char online[32];

	snprintf(online, sizeof(online), "0-%u\n", cpus - 1);
	numa(root, "0\n", "0\n", "0\n", online);
	add_cpu_node(root, 0, 0, cpus);
	run_plan(root, r);
}

static void test_threads_by_size(void **state)
{
	static const struct {
		unsigned int cpus;
		int64_t want;
	} cases[] = {
	    {1, 1},  {2, 1},  {3, 1},  {4, 1},	{8, 1},	 {16, 1}, {17, 2},  {32, 2},
	    {33, 3}, {48, 3}, {49, 4}, {52, 4}, {64, 4}, {65, 5}, {128, 8}, {256, 16},
	};
	const char *root = *state;
	struct result r;

	patched(root);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		one_node(root, cases[i].cpus, &r);
		assert_int_equal(r.threads, cases[i].want);
		/* never more than a quarter of the node's CPUs, at least 1 */
		assert_true(r.threads == 1 || r.threads * 4 <= (int64_t)cases[i].cpus);
		assert_null(strstr(r.threads_reason, "maximum"));
		result_free(&r);
	}
}

/* Past 256 CPUs per node the kernel's maximum (16) decides, and the reason says so. */
static void test_threads_kernel_maximum(void **state)
{
	const char *root = *state;
	struct result r;

	patched(root);
	one_node(root, 512, &r);
	assert_int_equal(r.threads, 16);
	assert_string_equal(r.threads_reason,
			    "512 CPUs on node 0 -> 16 kswapd threads (" THREADS_RULE
			    " and 16, the kernel's maximum)");
	result_free(&r);
}

static void test_throttle_by_size(void **state)
{
	static const struct {
		unsigned int cpus;
		int64_t want;
	} cases[] = {
	    {1, 1}, {2, 2}, {3, 2}, {4, 3}, {6, 5}, {10, 8}, {21, 16}, {128, 16},
	};
	const char *root = *state;
	struct result r;

	patched(root);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		one_node(root, cases[i].cpus, &r);
		assert_int_equal(r.throttle, cases[i].want);
		result_free(&r);
	}
}

/* The numbers reclaim.h exports are the rules': their values, and values computed with them. */
static void test_exported_numbers(void **state)
{
	const char *root = *state;
	struct result r;

	assert_int_equal(RECLAIM_AUTOTUNE_CPUS_PER_KSWAPD, 16);
	assert_int_equal(RECLAIM_CPUS_PER_KSWAPD_MIN, 4);
	assert_int_equal(RECLAIM_AUTOTUNE_THROTTLE_NUM, 3);
	assert_int_equal(RECLAIM_AUTOTUNE_THROTTLE_DEN, 4);
	assert_int_equal(RECLAIM_AUTOTUNE_THROTTLE_MIN, 1);
	assert_int_equal(RECLAIM_AUTOTUNE_THROTTLE_MAX, 16);
	assert_int_equal(RECLAIM_AUTOTUNE_PRIO_ZRAM, 100);
	assert_int_equal(RECLAIM_AUTOTUNE_PRIO_NONROTATIONAL, 50);
	assert_int_equal(RECLAIM_AUTOTUNE_PRIO_ROTATIONAL, 10);
	patched(root);
	/* three times the CPUs per thread: 3 threads; one CPU more: 4 */
	one_node(root, 3 * RECLAIM_AUTOTUNE_CPUS_PER_KSWAPD, &r);
	assert_int_equal(r.threads, 3);
	/* 48 x 3/4 */
	assert_int_equal(r.throttle, RECLAIM_AUTOTUNE_THROTTLE_MAX);
	result_free(&r);
	one_node(root, 3 * RECLAIM_AUTOTUNE_CPUS_PER_KSWAPD + 1, &r);
	assert_int_equal(r.threads, 4);
	result_free(&r);
	/* 8 x 3/4 = 6 */
	one_node(root, 2 * RECLAIM_AUTOTUNE_THROTTLE_DEN, &r);
	assert_int_equal(r.throttle, 2 * RECLAIM_AUTOTUNE_THROTTLE_NUM);
	result_free(&r);
	one_node(root, 1, &r);
	assert_int_equal(r.throttle, RECLAIM_AUTOTUNE_THROTTLE_MIN);
	/* the reasons print them */
	assert_non_null(strstr(r.threads_reason, THREADS_RULE));
	assert_non_null(strstr(r.throttle_reason, THROTTLE_RULE));
	result_free(&r);
	/* adapt's default maximum takes the same share of a node's CPUs */
	assert_int_equal(reclaim_adapt_max_for_cpus(8 * RECLAIM_CPUS_PER_KSWAPD_MIN), 8);
	assert_int_equal(reclaim_adapt_max_for_cpus(8 * RECLAIM_CPUS_PER_KSWAPD_MIN - 1), 7);
}

/* A stock kernel: the knobs stay in the plan, skipped, with the rule's reason. */
static void test_unpatched(void **state)
{
	const char *root = *state;
	struct result r;

	tmproot_write(root, "/proc/sys/vm/swappiness", "60\n");
	numa(root, "0-1\n", "0-1\n", "0-1\n", "0-7\n");
	add_node(root, 0, "0-3", 8000000);
	add_node(root, 1, "4-7", 8000000);
	run_plan(root, &r);
	assert_true(r.threads_skipped);
	assert_int_equal(r.threads, 1);
	assert_string_equal(
	    r.threads_reason,
	    "4 CPUs per node on nodes 0-1 -> 1 kswapd thread per node (" THREADS_RULE ")");
	assert_true(r.throttle_skipped);
	assert_int_equal(r.throttle, 3);
	assert_string_equal(
	    r.throttle_reason,
	    "4 CPUs per node on nodes 0-1 -> 3 direct reclaimers at once per node (" THROTTLE_RULE
	    ")");
	result_free(&r);
}

/* One knob there, the other not: each on its own. */
static void test_half_patched(void **state)
{
	const char *root = *state;
	struct result r;

	tmproot_write(root, "/proc/sys/vm/kswapd_threads", "1\n");
	tmproot_write(root, "/sys/devices/system/cpu/online", "0-3\n");
	tmproot_write(root, "/proc/meminfo", "MemTotal: 8000000 kB\nMemFree: 10000 kB\n");
	run_plan(root, &r);
	assert_false(r.threads_skipped);
	assert_true(r.throttle_skipped);
	result_free(&r);
}

/* A dump without /proc/sys/vm: nothing is known of the knobs. */
static void test_dump_without_sysctls(void **state)
{
	const char *root = *state;
	struct result r;

	tmproot_write(root, "/sys/devices/system/cpu/online", "0-3\n");
	tmproot_write(root, "/proc/meminfo", "MemTotal: 8000000 kB\nMemFree: 10000 kB\n");
	run_plan(root, &r);
	assert_true(r.threads_skipped);
	assert_string_equal(r.threads_reason,
			    "4 CPUs, no NUMA (one node) -> 1 kswapd thread (" THREADS_RULE ")");
	assert_true(r.throttle_skipped);
	result_free(&r);
}

/* Swap devices of every kind: one priority per tier. */
static void test_swap_tiers(void **state)
{
	static const struct {
		const char *device;
		int prio;
		const char *reason;
	} want[] = {
	    {"/dev/zram0", 100,
	     "zram0 (compressed memory) -> priority 100 (the zram tier), as it is already"},
	    {"/dev/zram1", 100, "zram1 (compressed memory) -> priority 100 (the zram tier)"},
	    {"/dev/nvme0n1p2", 50,
	     "partition of nvme0n1, not rotational -> priority 50 (the non-rotational tier)"},
	    {"/var/swap file", 50,
	     "swap file on /dev/nvme0n1p3 at /var, disk nvme0n1, not rotational -> priority 50 "
	     "(the non-rotational tier)"},
	    {"/dev/sda2", 10,
	     "partition of sda, rotational -> priority 10 (the rotational tier), as it is "
	     "already"},
	    {"/dev/vdb", 10, "disk vdb, rotational -> priority 10 (the rotational tier)"},
	    {"/srv/swapfile", 10,
	     "swap file on /dev/sda1 at /, disk sda, rotational -> priority 10 (the rotational "
	     "tier)"},
	    {"/dev/sdc1", -ENODATA,
	     "partition of sdc, rotational or not: unknown (no /sys/block/sdc/queue/rotational) "
	     "-> no priority proposed"},
	    {"/dev/mystery", -ENODATA,
	     "a device not found in sysfs under the root: kind unknown -> no priority proposed"},
	    {"/mnt/swapfile", -ENODATA,
	     "swap file on /dev/nbd0 at /mnt, a device not found in sysfs -> no priority "
	     "proposed"},
	};
	const char *root = *state;
	struct reclaim_topology *topo;
	struct reclaim_swaps *swaps;
	struct reclaim_plan *plan;
	struct reclaim_ctx *ctx;

	patched(root);
	tmproot_write(root, "/sys/devices/system/cpu/online", "0-3\n");
	tmproot_write(root, "/proc/meminfo", "MemTotal: 8000000 kB\nMemFree: 10000 kB\n");
	add_disk(root, "devices/virtual/block", "zram0", "251:0", "0\n", NULL, NULL);
	add_disk(root, "devices/virtual/block", "zram1", "251:1", "0\n", NULL, NULL);
	add_disk(root, "devices/pci0000:00/0000:00:1d.0/nvme/nvme0", "nvme0n1", "259:0", "0\n",
		 "nvme0n1p2", "259:2");
	tmproot_symlink(root, "/sys/class/block/nvme0n1p3",
			"../../devices/pci0000:00/0000:00:1d.0/nvme/nvme0/nvme0n1/nvme0n1p3");
	tmproot_write(root,
		      "/sys/devices/pci0000:00/0000:00:1d.0/nvme/nvme0/nvme0n1/nvme0n1p3/"
		      "partition",
		      "3\n");
	tmproot_symlink(root, "/sys/dev/block/259:3",
			"../../devices/pci0000:00/0000:00:1d.0/nvme/nvme0/nvme0n1/nvme0n1p3");
	add_disk(root, "devices/pci0000:00/0000:00:17.0/ata1/host0/block", "sda", "8:0", "1\n",
		 "sda2", "8:2");
	tmproot_symlink(root, "/sys/class/block/sda1",
			"../../devices/pci0000:00/0000:00:17.0/ata1/host0/block/sda/sda1");
	tmproot_write(root,
		      "/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/block/sda/sda1/partition",
		      "1\n");
	tmproot_symlink(root, "/sys/dev/block/8:1",
			"../../devices/pci0000:00/0000:00:17.0/ata1/host0/block/sda/sda1");
	add_disk(root, "devices/pci0000:00/0000:00:04.0/virtio2/block", "vdb", "254:16", "1\n",
		 NULL, NULL);
	add_disk(root, "devices/pci0000:00/0000:00:18.0/ata3/host2/block", "sdc", "8:32", NULL,
		 "sdc1", "8:33");
	tmproot_write(root, "/proc/self/mountinfo",
		      "21 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
		      "30 21 259:3 / /var rw - ext4 /dev/nvme0n1p3 rw\n"
		      "31 21 43:0 / /mnt rw - ext4 /dev/nbd0 rw\n");
	add_swap(root, "/dev/zram0", false, 1000, 0, 100);
	add_swap(root, "/dev/zram1", false, 1000, 0, 5);
	add_swap(root, "/dev/nvme0n1p2", false, 1000, 0, -2);
	add_swap(root, "/var/swap\\040file", true, 1000, 0, -3);
	add_swap(root, "/dev/sda2", false, 1000, 0, 10);
	add_swap(root, "/dev/vdb", false, 1000, 0, -4);
	add_swap(root, "/srv/swapfile", true, 1000, 0, -5);
	add_swap(root, "/dev/sdc1", false, 1000, 0, -6);
	add_swap(root, "/dev/mystery", false, 1000, 0, -7);
	add_swap(root, "/mnt/swapfile", true, 1000, 0, -8);

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_topology_new(ctx, &topo), 0);
	assert_int_equal(reclaim_swaps_new(ctx, &swaps), 0);
	assert_int_equal(reclaim_plan_new(ctx, topo, swaps, &plan), 0);
	/* the plan holds the devices */
	reclaim_swaps_unref(swaps);
	reclaim_topology_unref(topo);
	assert_int_equal(reclaim_plan_swap_count(plan), sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_string_equal(reclaim_swap_path(reclaim_plan_swap(plan, i)), want[i].device);
		assert_int_equal(reclaim_plan_swap_priority(plan, i), want[i].prio);
		assert_string_equal(reclaim_plan_swap_reason(plan, i), want[i].reason);
	}
	assert_null(reclaim_plan_swap(plan, sizeof(want) / sizeof(want[0])));
	assert_null(reclaim_plan_swap_reason(plan, sizeof(want) / sizeof(want[0])));
	assert_int_equal(reclaim_plan_swap_priority(plan, sizeof(want) / sizeof(want[0])), -EINVAL);
	reclaim_plan_unref(plan);
	reclaim_unref(ctx);
}

/* A swap file whose filesystem is unknown (no mountinfo): no proposal. */
static void test_swap_file_unknown(void **state)
{
	const char *root = *state;
	struct reclaim_topology *topo;
	struct reclaim_swaps *swaps;
	struct reclaim_plan *plan;
	struct reclaim_ctx *ctx;

	tmproot_write(root, "/sys/devices/system/cpu/online", "0-3\n");
	add_swap(root, "/swapfile", true, 1000, 0, -2);
	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_topology_new(ctx, &topo), 0);
	assert_int_equal(reclaim_swaps_new(ctx, &swaps), 0);
	assert_int_equal(reclaim_plan_new(ctx, topo, swaps, &plan), 0);
	assert_int_equal(reclaim_plan_swap_count(plan), 1);
	assert_int_equal(reclaim_plan_swap_priority(plan, 0), -ENODATA);
	assert_string_equal(reclaim_plan_swap_reason(plan, 0),
			    "swap file in no known filesystem (no mount of /proc/self/mountinfo "
			    "holds it) -> no priority proposed");
	reclaim_plan_unref(plan);
	reclaim_swaps_unref(swaps);
	reclaim_topology_unref(topo);
	reclaim_unref(ctx);
}

static void test_plan_api(void **state)
{
	const char *root = *state;
	struct reclaim_topology *topo;
	struct reclaim_plan *plan = NULL;
	struct reclaim_ctx *ctx;

	tmproot_write(root, "/sys/devices/system/cpu/online", "0-3\n");
	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_topology_new(ctx, &topo), 0);
	assert_int_equal(reclaim_plan_new(NULL, topo, NULL, &plan), -EINVAL);
	assert_int_equal(reclaim_plan_new(ctx, NULL, NULL, &plan), -EINVAL);
	assert_int_equal(reclaim_plan_new(ctx, topo, NULL, NULL), -EINVAL);
	assert_null(plan);
	assert_int_equal(reclaim_plan_new(ctx, topo, NULL, &plan), 0);
	reclaim_topology_unref(topo);

	assert_ptr_equal(reclaim_plan_ref(plan), plan);
	assert_null(reclaim_plan_unref(plan));
	assert_int_equal(reclaim_plan_count(plan), 4);
	assert_int_equal(reclaim_plan_find(plan, reclaim_knob_find("threads")), 0);
	assert_int_equal(reclaim_plan_find(plan, reclaim_knob_find("throttle")), 1);
	assert_int_equal(reclaim_plan_find(plan, reclaim_knob_find("swappiness")), -1);
	assert_int_equal(reclaim_plan_find(plan, NULL), -1);
	assert_null(reclaim_plan_knob(plan, 4));
	assert_null(reclaim_plan_reason(plan, 4));
	assert_true(reclaim_plan_skipped(plan, 4));
	assert_int_equal(reclaim_plan_count(NULL), 0);
	assert_int_equal(reclaim_plan_swap_count(NULL), 0);
	assert_null(reclaim_plan_ref(NULL));
	assert_null(reclaim_plan_unref(NULL));
	assert_null(reclaim_plan_unref(plan));
	reclaim_unref(ctx);
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
	assert_false(reclaim_knob_has_recommendation(reclaim_knob_find("swappiness")));
	assert_false(reclaim_knob_has_recommendation(reclaim_knob_find("swap-quota")));
	assert_int_equal(
	    reclaim_knob_recommend(ctx, reclaim_knob_find("swappiness"), topo, &v, &reason),
	    -EOPNOTSUPP);
	assert_null(reason);
	assert_int_equal(v, 7);
	assert_string_equal(reclaim_strerror(ctx), "there is no automatic value for swappiness");
	assert_int_equal(reclaim_knob_recommend(ctx, NULL, topo, &v, NULL), -EINVAL);
	/* no reason wanted */
	assert_int_equal(reclaim_knob_recommend(ctx, reclaim_knob_find("threads"), topo, &v, NULL),
			 0);
	assert_int_equal(v, 1);
	reclaim_topology_unref(topo);
	reclaim_unref(ctx);
}

/* The rule of @knob on @root: its value, and its reason (free()) in *reason. */
static int64_t stock(const char *root, const char *knob, char **reason)
{
	struct reclaim_topology *topo;
	struct reclaim_ctx *ctx;
	int64_t v = -5;

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_topology_new(ctx, &topo), 0);
	assert_true(reclaim_knob_has_recommendation(reclaim_knob_find(knob)));
	assert_int_equal(reclaim_knob_recommend(ctx, reclaim_knob_find(knob), topo, &v, reason), 0);
	reclaim_topology_unref(topo);
	reclaim_unref(ctx);
	return v;
}

#define ZSWAP_ENABLED "/sys/module/zswap/parameters/enabled"
#define ZSWAP_SOURCE  "(Documentation/admin-guide/mm/zswap.rst, Overview)"

/* zswap: on when every swap device is on a disk; as it is with zram, or no swap. */
static void test_stock_zswap(void **state)
{
	const char *root = *state;
	char *reason;

	patched(root);
	tmproot_write(root, "/sys/devices/system/cpu/online", "0-3\n");
	tmproot_write(root, "/proc/meminfo", "MemTotal: 8000000 kB\nMemFree: 10000 kB\n");
	tmproot_write(root, ZSWAP_ENABLED, "N\n");
	assert_int_equal(stock(root, "zswap", &reason), 0);
	assert_string_equal(reason, "no swap device -> left as it is: zswap caches the pages "
				    "swapped out " ZSWAP_SOURCE);
	free(reason);
	add_disk(root, "devices/pci0000:00/0000:00:17.0/ata1/host0/block", "sda", "8:0", "1\n",
		 "sda2", "8:2");
	add_swap(root, "/dev/sda2", false, 1000, 0, -2);
	assert_int_equal(stock(root, "zswap", &reason), 1);
	assert_string_equal(reason, "swap on /dev/sda2 (disk) -> on: only disks, and zswap caches "
				    "their pages compressed in memory, trading CPU for less swap "
				    "I/O " ZSWAP_SOURCE);
	free(reason);
	/* with zram too: the value it has, either one */
	add_disk(root, "devices/virtual/block", "zram0", "251:0", "0\n", NULL, NULL);
	add_swap(root, "/dev/zram0", false, 1000, 0, 100);
	assert_int_equal(stock(root, "zswap", &reason), 0);
	assert_string_equal(reason, "swap on /dev/sda2 (disk), /dev/zram0 (zram) -> left as it is: "
				    "swap on zram is compressed memory already " ZSWAP_SOURCE);
	free(reason);
	tmproot_write(root, ZSWAP_ENABLED, "Y\n");
	assert_int_equal(stock(root, "zswap", NULL), 1);
	/* a kernel without zswap: the rule still answers (the plan skips the knob) */
	tmproot_unlink(root, ZSWAP_ENABLED);
	assert_int_equal(stock(root, "zswap", NULL), 0);
}

#define TIERS "/sys/devices/virtual/memory_tiering/"

/* NUMA demotion: on with more than one memory tier, off with one, as it is without tiers. */
static void test_stock_demotion(void **state)
{
	const char *root = *state;
	char *reason;

	patched(root);
	tmproot_write(root, "/sys/devices/system/cpu/online", "0-3\n");
	tmproot_write(root, "/proc/meminfo", "MemTotal: 8000000 kB\nMemFree: 10000 kB\n");
	tmproot_write(root, "/sys/kernel/mm/numa/demotion_enabled", "true\n");
	assert_int_equal(stock(root, "demotion", &reason), 1);
	assert_string_equal(reason,
			    "no memory tiers in /sys/devices/virtual/memory_tiering -> left "
			    "as it is (Documentation/ABI/testing/sysfs-kernel-mm-numa)");
	free(reason);
	tmproot_write(root, TIERS "memory_tier4/nodelist", "0-1\n");
	assert_int_equal(stock(root, "demotion", &reason), 0);
	assert_string_equal(reason, "1 memory tier -> off: demotion is for tiered memory, not "
				    "plain NUMA (Documentation/ABI/testing/sysfs-kernel-mm-numa)");
	free(reason);
	tmproot_write(root, TIERS "memory_tier22/nodelist", "2\n");
	assert_int_equal(stock(root, "demotion", &reason), 1);
	assert_string_equal(reason, "2 memory tiers -> on: reclaim moves pages to the slower tier "
				    "before swapping (not where cpusets must hold strictly) "
				    "(Documentation/ABI/testing/sysfs-kernel-mm-numa)");
	free(reason);
	/* the knobs without a rule have none */
	assert_false(reclaim_knob_has_recommendation(reclaim_knob_find("swappiness")));
	assert_false(reclaim_knob_has_recommendation(reclaim_knob_find("zswap_compressor")));
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_two_nodes_of_52),
	    T(test_node_of_two),
	    T(test_four_cpus_per_node),
	    T(test_sparse_and_memory_only),
	    T(test_memory_only_and_cpu_only),
	    T(test_asymmetric),
	    T(test_three_sizes),
	    T(test_sizes_same_value),
	    T(test_many_sizes),
	    T(test_sixteen_nodes),
	    T(test_one_cpu),
	    T(test_no_numa),
	    T(test_no_node_with_both),
	    T(test_threads_by_size),
	    T(test_threads_kernel_maximum),
	    T(test_throttle_by_size),
	    T(test_exported_numbers),
	    T(test_unpatched),
	    T(test_half_patched),
	    T(test_dump_without_sysctls),
	    T(test_swap_tiers),
	    T(test_stock_zswap),
	    T(test_stock_demotion),
	    T(test_swap_file_unknown),
	    T(test_plan_api),
	    T(test_other_knobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
