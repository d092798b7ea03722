// SPDX-License-Identifier: LGPL-2.1-or-later
/* NUMA topology read through the public API from temporary root trees. */
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

#define NODE_DIR      "/sys/devices/system/node"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Writes one node directory; NULL leaves a file out. */
static void write_node(const char *root, int id, const char *cpulist, const char *cpumap,
		       const char *meminfo, const char *distance)
{
	char path[128];

	snprintf(path, sizeof(path), NODE_DIR "/node%d/cpulist", id);
	if (cpulist)
		tmproot_write(root, path, cpulist);
	snprintf(path, sizeof(path), NODE_DIR "/node%d/cpumap", id);
	if (cpumap)
		tmproot_write(root, path, cpumap);
	snprintf(path, sizeof(path), NODE_DIR "/node%d/meminfo", id);
	if (meminfo)
		tmproot_write(root, path, meminfo);
	snprintf(path, sizeof(path), NODE_DIR "/node%d/distance", id);
	if (distance)
		tmproot_write(root, path, distance);
	/* Other files a node directory has, which must be ignored. */
	snprintf(path, sizeof(path), NODE_DIR "/node%d/numastat", id);
	tmproot_write(root, path, "numa_hit 1\n");
}

static char *node_meminfo(int id, unsigned long total, unsigned long free)
{
	char *s;

	assert_true(asprintf(&s,
			     "Node %d MemTotal:       %lu kB\n"
			     "Node %d MemFree:        %lu kB\n"
			     "Node %d MemUsed:        %lu kB\n",
			     id, total, id, free, id, total - free) > 0);
	return s;
}

static void assert_cpus(const unsigned int *cpus, size_t n, const unsigned int *want, size_t nwant)
{
	assert_int_equal(n, nwant);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(cpus[i], want[i]);
}

#define ASSERT_NODE_CPUS(node, ...)                                                                \
	do {                                                                                       \
		static const unsigned int want_[] = {__VA_ARGS__};                                 \
		size_t n_ = 999;                                                                   \
		const unsigned int *c_ = reclaim_node_cpus(node, &n_);                             \
		assert_cpus(c_, n_, want_, ARRAY_SIZE(want_));                                     \
	} while (0)

#define ASSERT_DISTANCE(node, ...)                                                                 \
	do {                                                                                       \
		static const int want_[] = {__VA_ARGS__};                                          \
		size_t n_ = 999;                                                                   \
		const int *d_ = reclaim_node_distance(node, &n_);                                  \
		assert_int_equal(n_, ARRAY_SIZE(want_));                                           \
		for (size_t i_ = 0; i_ < n_; i_++)                                                 \
			assert_int_equal(d_[i_], want_[i_]);                                       \
	} while (0)

#define ASSERT_NO_DISTANCE(node)                                                                   \
	do {                                                                                       \
		size_t n_ = 999;                                                                   \
		(void)reclaim_node_distance(node, &n_);                                            \
		assert_int_equal(n_, 0);                                                           \
	} while (0)

static void assert_zone(const struct reclaim_zone *z, const char *name, uint64_t free, uint64_t min,
			uint64_t low, uint64_t high, uint64_t managed)
{
	assert_non_null(z);
	assert_string_equal(reclaim_zone_name(z), name);
	assert_int_equal(reclaim_zone_free_pages(z), free);
	assert_int_equal(reclaim_zone_min_pages(z), min);
	assert_int_equal(reclaim_zone_low_pages(z), low);
	assert_int_equal(reclaim_zone_high_pages(z), high);
	assert_int_equal(reclaim_zone_managed_pages(z), managed);
}

/* Loads the topology of @root, expecting @err; on failure, checks the message names @file. */
static struct reclaim_topology *load(const char *root, int err, const char *file)
{
	struct reclaim_topology *t = NULL;
	struct reclaim_ctx *ctx;
	int r;

	assert_int_equal(reclaim_new(&ctx, root), 0);
	r = reclaim_topology_new(ctx, &t);
	if (r != err)
		fail_msg("reclaim_topology_new: got %d, want %d (%s)", r, err,
			 reclaim_strerror(ctx));
	if (err < 0) {
		assert_null(t);
		if (file && !strstr(reclaim_strerror(ctx), file))
			fail_msg("\"%s\" does not name %s", reclaim_strerror(ctx), file);
	}
	/* The topology does not need the context any more. */
	reclaim_unref(ctx);
	return t;
}

/* Nodes 0, 1, 33 and 72: sparse ids, node 33 without cpulist (cpumap fallback), node 72 without
 * CPUs. */
static void write_sparse(const char *root)
{
	char *m;

	tmproot_write(root, NODE_DIR "/online", "0-1,33,72\n");
	tmproot_write(root, NODE_DIR "/possible", "0-127\n");
	tmproot_write(root, NODE_DIR "/has_memory", "0-1,33,72\n");
	tmproot_write(root, NODE_DIR "/has_normal_memory", "0-1,33\n");
	tmproot_write(root, NODE_DIR "/has_cpu", "0-1,33\n");
	tmproot_write(root, NODE_DIR "/uevent", "");
	tmproot_mkdirs(root, "sys/devices/system/node/power");
	tmproot_mkdirs(root, "sys/devices/system/node/nodeX");
	tmproot_mkdirs(root, "sys/devices/system/node/node");
	tmproot_mkdirs(root, "sys/devices/system/node/node1a");

	m = node_meminfo(0, 1000, 500);
	write_node(root, 0, "0-7\n", "00000000,000000ff\n", m, "10 20 30 40\n");
	free(m);
	m = node_meminfo(1, 2000, 1500);
	write_node(root, 1, "16-23\n", "00000000,00ff0000\n", m, "20 10 30 40\n");
	free(m);
	m = node_meminfo(33, 3000, 100);
	write_node(root, 33, NULL, "00000100,0000ff00\n", m, "30 30 10 40\n");
	free(m);
	m = node_meminfo(72, 4096, 4096);
	write_node(root, 72, "\n", "00000000,00000000\n", m, "40 40 40 10\n");
	free(m);

	tmproot_write(root, "/sys/devices/system/cpu/online", "0-23,40\n");
	tmproot_write(root, "/proc/zoneinfo",
		      "Node 0, zone      DMA\n"
		      "  pages free     100\n        min      1\n        low      2\n"
		      "        high     3\n        present  200\n        managed  150\n"
		      "Node 0, zone   Normal\n"
		      "  pages free     1000\n        min      10\n        low      20\n"
		      "        high     30\n        present  2000\n        managed  1500\n"
		      "Node 0, zone  Movable\n"
		      "  pages free     0\n        present  0\n        managed  0\n"
		      "Node 1, zone   Normal\n"
		      "  pages free     1001\n        min      11\n        low      21\n"
		      "        high     31\n        present  2001\n        managed  1501\n"
		      "Node 5, zone   Normal\n"
		      "  pages free     5\n        min      1\n        low      1\n"
		      "        high     1\n        present  5\n"
		      "Node 33, zone   Normal\n"
		      "  pages free     33\n        min      3\n        low      4\n"
		      "        high     5\n        present  333\n        managed  330\n"
		      "Node 72, zone  Movable\n"
		      "  pages free     72\n        min      6\n        low      7\n"
		      "        high     8\n        present  1024\n        managed  1000\n");
}

static void test_sparse_nodes(void **state)
{
	static const int ids[] = {0, 1, 33, 72};
	struct reclaim_topology *t;
	char *root = tmproot_new();

	write_sparse(root);
	t = load(root, 0, NULL);
	assert_true(reclaim_topology_is_numa(t));
	assert_int_equal(reclaim_topology_node_count(t), 4);
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
		struct reclaim_node *n = reclaim_topology_node(t, i);

		assert_int_equal(reclaim_node_id(n), ids[i]);
		assert_ptr_equal(reclaim_topology_node_by_id(t, ids[i]), n);
		assert_true(reclaim_node_is_online(n));
		assert_true(reclaim_node_has_memory(n));
	}
	assert_null(reclaim_topology_node(t, 4));
	assert_null(reclaim_topology_node_by_id(t, 2));
	assert_null(reclaim_topology_node_by_id(t, 32));
	assert_null(reclaim_topology_node_by_id(t, -1));
	reclaim_topology_unref(t);
	tmproot_remove(root);
}

static void test_sparse_cpus(void **state)
{
	struct reclaim_topology *t;
	char *root = tmproot_new();
	size_t n = 0;
	const unsigned int *cpus;

	write_sparse(root);
	t = load(root, 0, NULL);
	ASSERT_NODE_CPUS(reclaim_topology_node_by_id(t, 0), 0, 1, 2, 3, 4, 5, 6, 7);
	ASSERT_NODE_CPUS(reclaim_topology_node_by_id(t, 1), 16, 17, 18, 19, 20, 21, 22, 23);
	/* No cpulist: the multi-word cpumap. */
	ASSERT_NODE_CPUS(reclaim_topology_node_by_id(t, 33), 8, 9, 10, 11, 12, 13, 14, 15, 40);
	assert_true(reclaim_node_has_cpu(reclaim_topology_node_by_id(t, 33)));

	/* Memory-only node. */
	reclaim_node_cpus(reclaim_topology_node_by_id(t, 72), &n);
	assert_int_equal(n, 0);
	assert_false(reclaim_node_has_cpu(reclaim_topology_node_by_id(t, 72)));
	assert_true(reclaim_node_has_memory(reclaim_topology_node_by_id(t, 72)));

	cpus = reclaim_topology_cpus(t, &n);
	assert_int_equal(n, 25);
	for (size_t i = 0; i < 24; i++)
		assert_int_equal(cpus[i], i);
	assert_int_equal(cpus[24], 40);
	reclaim_topology_unref(t);
	tmproot_remove(root);
}

static void test_sparse_memory_and_distance(void **state)
{
	struct reclaim_topology *t;
	char *root = tmproot_new();

	write_sparse(root);
	t = load(root, 0, NULL);
	assert_int_equal(reclaim_node_mem_total_kb(reclaim_topology_node_by_id(t, 0)), 1000);
	assert_int_equal(reclaim_node_mem_free_kb(reclaim_topology_node_by_id(t, 0)), 500);
	assert_int_equal(reclaim_node_mem_total_kb(reclaim_topology_node_by_id(t, 1)), 2000);
	assert_int_equal(reclaim_node_mem_free_kb(reclaim_topology_node_by_id(t, 1)), 1500);
	assert_int_equal(reclaim_node_mem_total_kb(reclaim_topology_node_by_id(t, 33)), 3000);
	assert_int_equal(reclaim_node_mem_free_kb(reclaim_topology_node_by_id(t, 33)), 100);
	assert_int_equal(reclaim_node_mem_total_kb(reclaim_topology_node_by_id(t, 72)), 4096);

	/* Rows are indexed like the topology's nodes (0, 1, 33, 72), not by node id. */
	ASSERT_DISTANCE(reclaim_topology_node(t, 0), 10, 20, 30, 40);
	ASSERT_DISTANCE(reclaim_topology_node(t, 1), 20, 10, 30, 40);
	ASSERT_DISTANCE(reclaim_topology_node(t, 2), 30, 30, 10, 40);
	ASSERT_DISTANCE(reclaim_topology_node(t, 3), 40, 40, 40, 10);
	reclaim_topology_unref(t);
	tmproot_remove(root);
}

static void test_sparse_zones(void **state)
{
	struct reclaim_topology *t;
	struct reclaim_node *n;
	char *root = tmproot_new();

	write_sparse(root);
	t = load(root, 0, NULL);

	n = reclaim_topology_node_by_id(t, 0);
	/* The unpopulated Movable zone is not listed. */
	assert_int_equal(reclaim_node_zone_count(n), 2);
	assert_zone(reclaim_node_zone(n, 0), "DMA", 100, 1, 2, 3, 150);
	assert_zone(reclaim_node_zone(n, 1), "Normal", 1000, 10, 20, 30, 1500);
	assert_null(reclaim_node_zone(n, 2));

	n = reclaim_topology_node_by_id(t, 1);
	assert_int_equal(reclaim_node_zone_count(n), 1);
	assert_zone(reclaim_node_zone(n, 0), "Normal", 1001, 11, 21, 31, 1501);

	/* Node 5's zone (a node not in sysfs) is skipped, not given to a neighbour. */
	n = reclaim_topology_node_by_id(t, 33);
	assert_int_equal(reclaim_node_zone_count(n), 1);
	assert_zone(reclaim_node_zone(n, 0), "Normal", 33, 3, 4, 5, 330);

	n = reclaim_topology_node_by_id(t, 72);
	assert_int_equal(reclaim_node_zone_count(n), 1);
	assert_zone(reclaim_node_zone(n, 0), "Movable", 72, 6, 7, 8, 1000);
	reclaim_topology_unref(t);
	tmproot_remove(root);
}

static void test_refcount_keeps_nodes(void **state)
{
	struct reclaim_topology *t;
	struct reclaim_node *n;
	char *root = tmproot_new();

	write_sparse(root);
	t = load(root, 0, NULL);
	n = reclaim_topology_node_by_id(t, 72);
	assert_ptr_equal(reclaim_topology_ref(t), t);
	assert_null(reclaim_topology_unref(t));
	/* One reference left: nodes and zones are still valid. */
	assert_int_equal(reclaim_node_id(n), 72);
	assert_string_equal(reclaim_zone_name(reclaim_node_zone(n, 0)), "Movable");
	assert_null(reclaim_topology_unref(t));
	assert_null(reclaim_topology_unref(NULL));
	tmproot_remove(root);
}

/* Old kernels: no has_memory, has_cpu or online files. */
static void test_missing_node_masks(void **state)
{
	struct reclaim_topology *t;
	struct reclaim_node *n;
	char *root = tmproot_new(), *m;

	m = node_meminfo(0, 1000, 10);
	write_node(root, 0, "0-1\n", NULL, m, "10 20 20\n");
	free(m);
	m = node_meminfo(1, 500, 10);
	write_node(root, 1, "\n", NULL, m, "20 10 20\n"); /* memory only */
	free(m);
	/* CPUs only: MemTotal 0 in one case, no meminfo at all in the other. */
	write_node(root, 2, "2-3\n", NULL, "Node 2 MemTotal: 0 kB\nNode 2 MemFree: 0 kB\n", NULL);
	write_node(root, 3, "4\n", NULL, NULL, NULL);
	tmproot_write(root, "/sys/devices/system/cpu/online", "0-4\n");

	t = load(root, 0, NULL);
	assert_int_equal(reclaim_topology_node_count(t), 4);
	n = reclaim_topology_node(t, 0);
	assert_true(reclaim_node_is_online(n));
	assert_true(reclaim_node_has_memory(n));
	assert_true(reclaim_node_has_cpu(n));
	n = reclaim_topology_node(t, 1);
	assert_true(reclaim_node_is_online(n));
	assert_true(reclaim_node_has_memory(n));
	assert_false(reclaim_node_has_cpu(n));
	n = reclaim_topology_node(t, 2);
	assert_true(reclaim_node_is_online(n));
	assert_false(reclaim_node_has_memory(n));
	assert_true(reclaim_node_has_cpu(n));
	n = reclaim_topology_node(t, 3);
	assert_false(reclaim_node_has_memory(n));
	assert_int_equal(reclaim_node_mem_total_kb(n), 0);
	ASSERT_NODE_CPUS(n, 4);
	/* No distance file: no row. */
	ASSERT_NO_DISTANCE(n);
	ASSERT_DISTANCE(reclaim_topology_node(t, 1), 20, 10, 20);
	/* No /proc/zoneinfo: no zones, no error. */
	assert_int_equal(reclaim_node_zone_count(reclaim_topology_node(t, 0)), 0);
	reclaim_topology_unref(t);
	tmproot_remove(root);
}

/* Where the mask files exist they win over what the node directories suggest. */
static void test_node_masks_override(void **state)
{
	struct reclaim_topology *t;
	char *root = tmproot_new(), *m;

	m = node_meminfo(0, 1000, 10);
	write_node(root, 0, "0-1\n", NULL, m, NULL);
	free(m);
	m = node_meminfo(1, 500, 10);
	write_node(root, 1, "2-3\n", NULL, m, NULL);
	free(m);
	tmproot_write(root, NODE_DIR "/online", "0\n");
	tmproot_write(root, NODE_DIR "/has_memory", "0\n");
	tmproot_write(root, NODE_DIR "/has_cpu", "1\n");
	tmproot_write(root, "/sys/devices/system/cpu/online", "0-3\n");

	t = load(root, 0, NULL);
	assert_true(reclaim_node_is_online(reclaim_topology_node(t, 0)));
	assert_false(reclaim_node_is_online(reclaim_topology_node(t, 1)));
	assert_true(reclaim_node_has_memory(reclaim_topology_node(t, 0)));
	assert_false(reclaim_node_has_memory(reclaim_topology_node(t, 1)));
	assert_false(reclaim_node_has_cpu(reclaim_topology_node(t, 0)));
	assert_true(reclaim_node_has_cpu(reclaim_topology_node(t, 1)));
	reclaim_topology_unref(t);
	tmproot_remove(root);
}

/* No cpu/online file: the machine's CPUs are the union of the nodes', still sorted. */
static void test_cpus_from_nodes(void **state)
{
	struct reclaim_topology *t;
	char *root = tmproot_new(), *m;
	const unsigned int *cpus;
	size_t n = 0;

	/* CPU numbers interleaved across nodes, as on many two-socket Intel machines. */
	m = node_meminfo(0, 1000, 10);
	write_node(root, 0, "0,2,4,6\n", NULL, m, NULL);
	free(m);
	m = node_meminfo(1, 1000, 10);
	write_node(root, 1, "1,3,5,7\n", NULL, m, NULL);
	free(m);

	t = load(root, 0, NULL);
	cpus = reclaim_topology_cpus(t, &n);
	assert_int_equal(n, 8);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(cpus[i], i);
	reclaim_topology_unref(t);
	tmproot_remove(root);
}

/* No /sys/devices/system/node: one synthetic node 0. */
static void test_flat(void **state)
{
	struct reclaim_topology *t;
	struct reclaim_node *n;
	char *root = tmproot_new();
	const unsigned int *cpus;
	size_t count = 0;

	tmproot_write(root, "/sys/devices/system/cpu/online", "0-3\n");
	tmproot_write(root, "/sys/devices/system/cpu/possible", "0-7\n");
	tmproot_write(root, "/proc/meminfo",
		      "MemTotal:        8044176 kB\nMemFree:          123456 kB\n"
		      "MemAvailable:    6000000 kB\n");
	tmproot_write(root, "/proc/zoneinfo",
		      "Node 0, zone    DMA32\n  pages free 5\n        min 1\n        low 2\n"
		      "        high 3\n        present 10\n        managed 9\n"
		      "Node 0, zone   Normal\n  pages free 50\n        min 10\n        low 20\n"
		      "        high 30\n        present 100\n        managed 90\n");

	t = load(root, 0, NULL);
	assert_false(reclaim_topology_is_numa(t));
	assert_int_equal(reclaim_topology_node_count(t), 1);
	n = reclaim_topology_node(t, 0);
	assert_int_equal(reclaim_node_id(n), 0);
	assert_ptr_equal(reclaim_topology_node_by_id(t, 0), n);
	assert_true(reclaim_node_is_online(n));
	assert_true(reclaim_node_has_memory(n));
	assert_true(reclaim_node_has_cpu(n));
	ASSERT_NODE_CPUS(n, 0, 1, 2, 3);
	cpus = reclaim_topology_cpus(t, &count);
	assert_cpus(cpus, count, (const unsigned int[]){0, 1, 2, 3}, 4);
	assert_int_equal(reclaim_node_mem_total_kb(n), 8044176);
	assert_int_equal(reclaim_node_mem_free_kb(n), 123456);
	ASSERT_NO_DISTANCE(n);
	assert_int_equal(reclaim_node_zone_count(n), 2);
	assert_zone(reclaim_node_zone(n, 0), "DMA32", 5, 1, 2, 3, 9);
	assert_zone(reclaim_node_zone(n, 1), "Normal", 50, 10, 20, 30, 90);
	reclaim_topology_unref(t);
	tmproot_remove(root);
}

static void test_flat_without_cpu_online(void **state)
{
	struct reclaim_topology *t;
	char *root = tmproot_new();
	size_t n = 99;

	tmproot_write(root, "/proc/meminfo", "MemTotal: 1024 kB\nMemFree: 512 kB\n");
	t = load(root, 0, NULL);
	assert_int_equal(reclaim_topology_node_count(t), 1);
	reclaim_topology_cpus(t, &n);
	assert_int_equal(n, 0);
	assert_false(reclaim_node_has_cpu(reclaim_topology_node(t, 0)));
	assert_int_equal(reclaim_node_mem_total_kb(reclaim_topology_node(t, 0)), 1024);
	reclaim_topology_unref(t);

	/* Kernels without cpu/online: the present CPUs. */
	tmproot_write(root, "/sys/devices/system/cpu/present", "0-2\n");
	t = load(root, 0, NULL);
	assert_int_equal(reclaim_node_cpus(reclaim_topology_node(t, 0), &n)[2], 2);
	assert_int_equal(n, 3);
	assert_true(reclaim_node_has_cpu(reclaim_topology_node(t, 0)));
	reclaim_topology_unref(t);
	tmproot_remove(root);
}

static void test_malformed_meminfo(void **state)
{
	char *root = tmproot_new(), *m;

	m = node_meminfo(0, 1000, 10);
	write_node(root, 0, "0\n", NULL, m, NULL);
	free(m);
	write_node(root, 1, "1\n", NULL, "Node 1 MemTotal: lots kB\nNode 1 MemFree: 1 kB\n", NULL);
	load(root, -EINVAL, NODE_DIR "/node1/meminfo");

	/* MemFree missing */
	write_node(root, 1, "1\n", NULL, "Node 1 MemTotal: 1000 kB\n", NULL);
	load(root, -EINVAL, NODE_DIR "/node1/meminfo");

	write_node(root, 1, "1\n", NULL, "Node 1 MemTotal: -1 kB\nNode 1 MemFree: 1 kB\n", NULL);
	load(root, -EINVAL, NODE_DIR "/node1/meminfo");
	tmproot_remove(root);
}

static void test_malformed_flat_meminfo(void **state)
{
	char *root = tmproot_new();
	struct reclaim_ctx *ctx;
	struct reclaim_topology *t = NULL;

	tmproot_write(root, "/sys/devices/system/cpu/online", "0-1\n");
	tmproot_write(root, "/proc/meminfo", "MemTotal: 12 MB\nMemFree: 1 kB\n");
	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_topology_new(ctx, &t), -EINVAL);
	assert_null(t);
	assert_string_equal(reclaim_strerror(ctx), "/proc/meminfo:1: malformed line");
	reclaim_unref(ctx);
	tmproot_remove(root);
}

static void test_malformed_files(void **state)
{
	char *root = tmproot_new(), *m;

	m = node_meminfo(0, 1000, 10);
	write_node(root, 0, "0-z\n", NULL, m, NULL);
	load(root, -EINVAL, NODE_DIR "/node0/cpulist");

	tmproot_unlink(root, NODE_DIR "/node0/cpulist");
	write_node(root, 0, NULL, "0000000g\n", m, NULL);
	load(root, -EINVAL, NODE_DIR "/node0/cpumap");

	write_node(root, 0, "0\n", NULL, m, "10 abc\n");
	load(root, -EINVAL, NODE_DIR "/node0/distance");
	write_node(root, 0, "0\n", NULL, m, "10 256\n");
	load(root, -EINVAL, NODE_DIR "/node0/distance");
	write_node(root, 0, "0\n", NULL, m, "10 -1\n");
	load(root, -EINVAL, NODE_DIR "/node0/distance");

	write_node(root, 0, "0\n", NULL, m, "10\n");
	tmproot_write(root, NODE_DIR "/has_cpu", "zero\n");
	load(root, -EINVAL, NODE_DIR "/has_cpu");
	tmproot_write(root, NODE_DIR "/has_cpu", "0\n");

	tmproot_write(root, "/sys/devices/system/cpu/online", "0-\n");
	load(root, -EINVAL, "/sys/devices/system/cpu/online");
	tmproot_write(root, "/sys/devices/system/cpu/online", "0\n");

	/* Everything fine again. */
	reclaim_topology_unref(load(root, 0, NULL));
	free(m);
	tmproot_remove(root);
}

static void test_zones_out_of_node_order(void **state)
{
	char *root = tmproot_new(), *m;

	m = node_meminfo(0, 1000, 10);
	write_node(root, 0, "0\n", NULL, m, NULL);
	free(m);
	m = node_meminfo(1, 1000, 10);
	write_node(root, 1, "1\n", NULL, m, NULL);
	free(m);
	tmproot_write(root, "/proc/zoneinfo",
		      "Node 0, zone DMA\n  present 1\nNode 1, zone Normal\n  present 1\n"
		      "Node 0, zone Normal\n  present 1\n");
	load(root, -EINVAL, "/proc/zoneinfo");

	tmproot_write(root, "/proc/zoneinfo", "Node zero, zone DMA\n");
	load(root, -EINVAL, "/proc/zoneinfo");
	tmproot_remove(root);
}

/* Real dump: 8 nodes of 8 CPUs, no has_memory file. */
static void test_fixture_amd64(void **state)
{
	struct reclaim_topology *t = load(FIXTURES_DIR "/hwloc-64amd64-4s2n4ca2co", 0, NULL);
	size_t n = 0;

	assert_int_equal(reclaim_topology_node_count(t), 8);
	reclaim_topology_cpus(t, &n);
	assert_int_equal(n, 64);
	for (size_t i = 0; i < 8; i++) {
		struct reclaim_node *node = reclaim_topology_node(t, i);
		const unsigned int *cpus = reclaim_node_cpus(node, &n);

		assert_int_equal(reclaim_node_id(node), (int)i);
		assert_true(reclaim_node_has_memory(node));
		assert_true(reclaim_node_has_cpu(node));
		assert_int_equal(n, 8);
		assert_int_equal(cpus[0], 8 * i);
		assert_int_equal(cpus[7], 8 * i + 7);
	}
	assert_int_equal(reclaim_node_mem_total_kb(reclaim_topology_node(t, 5)), 8388608);
	assert_int_equal(reclaim_node_mem_total_kb(reclaim_topology_node(t, 0)), 16769836);
	ASSERT_DISTANCE(reclaim_topology_node(t, 0), 10, 16, 16, 22, 16, 22, 16, 22);
	ASSERT_DISTANCE(reclaim_topology_node(t, 7), 22, 16, 16, 22, 22, 16, 16, 10);
	reclaim_topology_unref(t);
}

static void test_context(void **state)
{
	struct reclaim_ctx *ctx;

	assert_int_equal(reclaim_new(&ctx, NULL), 0);
	assert_string_equal(reclaim_get_sysroot(ctx), "/");
	assert_string_equal(reclaim_strerror(ctx), "no error");
	reclaim_unref(ctx);
	assert_int_equal(reclaim_new(&ctx, "/"), 0);
	assert_string_equal(reclaim_get_sysroot(ctx), "/");
	reclaim_unref(ctx);
	assert_int_equal(reclaim_new(&ctx, "/tmp/some/root//"), 0);
	assert_string_equal(reclaim_get_sysroot(ctx), "/tmp/some/root");
	assert_ptr_equal(reclaim_ref(ctx), ctx);
	assert_null(reclaim_unref(ctx));
	assert_string_equal(reclaim_get_sysroot(ctx), "/tmp/some/root");
	assert_null(reclaim_unref(ctx));
	assert_int_equal(reclaim_new(NULL, "/"), -EINVAL);
	assert_string_equal(reclaim_strerror(NULL), "invalid context");

	assert_int_equal(reclaim_new(&ctx, FIXTURES_DIR "/live-debian12-2cpu/"), 0);
	assert_string_equal(reclaim_kernel_release(ctx), "6.18.44-fc-v657");
	reclaim_unref(ctx);
	assert_int_equal(reclaim_new(&ctx, FIXTURES_DIR "/hwloc-64amd64-4s2n4ca2co"), 0);
	assert_null(reclaim_kernel_release(ctx));
	reclaim_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sparse_nodes),
	    cmocka_unit_test(test_sparse_cpus),
	    cmocka_unit_test(test_sparse_memory_and_distance),
	    cmocka_unit_test(test_sparse_zones),
	    cmocka_unit_test(test_refcount_keeps_nodes),
	    cmocka_unit_test(test_missing_node_masks),
	    cmocka_unit_test(test_node_masks_override),
	    cmocka_unit_test(test_cpus_from_nodes),
	    cmocka_unit_test(test_flat),
	    cmocka_unit_test(test_flat_without_cpu_online),
	    cmocka_unit_test(test_malformed_meminfo),
	    cmocka_unit_test(test_malformed_flat_meminfo),
	    cmocka_unit_test(test_malformed_files),
	    cmocka_unit_test(test_zones_out_of_node_order),
	    cmocka_unit_test(test_fixture_amd64),
	    cmocka_unit_test(test_context),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
