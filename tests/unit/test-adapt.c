// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The adaptive controller: one step at a time on hand-made samples (the
 * windows, the cooldown, the bounds, the busy-CPU guard, hand-off, rollback,
 * the parameters), a simulated machine under a varying load for 10,000
 * seconds, and the sampler's per-node CPU figures on a copy of a fixture.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmproot.h"

/* ---- a controller and a sample ---- */

struct ctl {
	char *root;
	struct reclaim_ctx *ctx;
	struct reclaim_adapt *a;
	struct reclaim_adapt_sample *s;
};

/* A controller started at @threads with no topology (max = @threads), then @max if > 0. */
static void ctl_new(struct ctl *c, int64_t threads, int64_t max)
{
	c->root = tmproot_new();
	assert_int_equal(reclaim_new(&c->ctx, c->root), 0);
	assert_int_equal(reclaim_adapt_new(c->ctx, NULL, threads, &c->a), 0);
	assert_int_equal(reclaim_adapt_sample_new(c->ctx, &c->s), 0);
	assert_int_equal(reclaim_adapt_threads(c->a), threads);
	assert_int_equal(reclaim_adapt_min(c->a), threads);
	assert_int_equal(reclaim_adapt_max(c->a), threads);
	if (max > 0)
		assert_int_equal(reclaim_adapt_set_max(c->a, max), 0);
}

static void ctl_free(struct ctl *c)
{
	assert_null(reclaim_adapt_sample_unref(c->s));
	assert_null(reclaim_adapt_unref(c->a));
	assert_null(reclaim_unref(c->ctx));
	tmproot_remove(c->root);
}

/* What one sample measured: per-thread CPU of nodes 0 and 1, rates, PSI some. */
struct load {
	double cpu[2];
	double allocstall, throttled;
	double psi;
};

/* Node 1 saturated, 4,000 direct reclaims + 100 throttled waits a second. */
static const struct load SATURATED = {{30, 97}, 4000, 100, 25};
/* Neither saturated (60% < 90%, 5/s < 10/s) nor quiet (60% >= 40%, 5/s >= 1/s). */
static const struct load NORMAL = {{30, 60}, 5, 0, 12};
static const struct load QUIET = {{10, 20}, 0, 0, 0.5};

#define NO_KNOB INT64_MIN

/* Fills the sample: each node has as many kswapd threads as the controller holds (or one). */
static void fill(struct ctl *c, double dt, struct load l, int64_t knob)
{
	int64_t threads = reclaim_adapt_threads(c->a) ? reclaim_adapt_threads(c->a) : 1;

	assert_int_equal(reclaim_adapt_sample_reset(c->s, dt), 0);
	for (int node = 0; node < 2; node++)
		for (int64_t i = 0; i < threads; i++)
			assert_int_equal(reclaim_adapt_sample_add_thread(c->s, node, l.cpu[node]),
					 0);
	assert_int_equal(reclaim_adapt_sample_set(c->s, RECLAIM_ADAPT_ALLOCSTALL, l.allocstall), 0);
	assert_int_equal(reclaim_adapt_sample_set(c->s, RECLAIM_ADAPT_THROTTLED, l.throttled), 0);
	assert_int_equal(reclaim_adapt_sample_set(c->s, RECLAIM_ADAPT_PSI_SOME, l.psi), 0);
	if (knob != NO_KNOB)
		assert_int_equal(reclaim_adapt_sample_set_knob(c->s, knob), 0);
}

static int step(struct ctl *c, struct load l)
{
	fill(c, 1, l, NO_KNOB);
	return reclaim_adapt_step(c->a, c->s);
}

static int step_knob(struct ctl *c, struct load l, int64_t knob)
{
	fill(c, 1, l, knob);
	return reclaim_adapt_step(c->a, c->s);
}

/* @n samples of one second, each of them KEEP, the value unchanged. */
static void keep_for(struct ctl *c, int n, struct load l)
{
	int64_t threads = reclaim_adapt_threads(c->a);

	for (int i = 0; i < n; i++) {
		int v = step(c, l);

		if (v != RECLAIM_ADAPT_KEEP)
			fail_msg("sample %d of %d: verdict %d (%s)", i + 1, n, v,
				 reclaim_adapt_reason(c->a));
	}
	assert_int_equal(reclaim_adapt_threads(c->a), threads);
}

static void assert_reason(const struct ctl *c, const char *want)
{
	assert_string_equal(reclaim_adapt_reason(c->a), want);
}

static void assert_change(struct ctl *c, struct load l, int64_t to)
{
	int v = step(c, l);

	if (v != RECLAIM_ADAPT_CHANGE)
		fail_msg("verdict %d, want CHANGE (%s)", v, reclaim_adapt_reason(c->a));
	assert_int_equal(reclaim_adapt_threads(c->a), to);
}

/* ---- 1: a step up after the whole window ---- */

/* With the direct reclaims traced, a reason names their p99: the highest of the window. */
static void test_reason_p99(void **state)
{
	struct ctl c;

	ctl_new(&c, 2, 4);
	for (int i = 0; i < 30; i++) {
		fill(&c, 1, SATURATED, NO_KNOB);
		assert_int_equal(
		    reclaim_adapt_sample_set(c.s, RECLAIM_ADAPT_DIRECT_P99, i == 7 ? 65536 : 16384),
		    0);
		assert_int_equal(reclaim_adapt_step(c.a, c.s),
				 i < 29 ? RECLAIM_ADAPT_KEEP : RECLAIM_ADAPT_CHANGE);
		if (i == 0)
			assert_reason(&c,
				      "2 threads: node 1's kswapd threads at 97% CPU each, 4,100 "
				      "direct reclaims/s, direct reclaim p99 up to 16,384 us");
	}
	assert_reason(
	    &c, "kswapd saturated: node 1: kswapd threads at 97% CPU each for 30 s, 4,100 direct "
		"reclaims/s, direct reclaim p99 up to 65,536 us -> 3 threads");
	/* a sample without it: the reason says nothing of it */
	keep_for(&c, 1, SATURATED);
	assert_reason(&c, "3 threads: node 1's kswapd threads at 97% CPU each, 4,100 direct "
			  "reclaims/s");
	ctl_free(&c);
}

static void test_step_up_after_window(void **state)
{
	struct ctl c;

	ctl_new(&c, 2, 4);
	keep_for(&c, 29, SATURATED);
	assert_reason(&c, "2 threads: node 1's kswapd threads at 97% CPU each, 4,100 direct "
			  "reclaims/s");
	assert_change(&c, SATURATED, 3);
	assert_reason(
	    &c, "kswapd saturated: node 1: kswapd threads at 97% CPU each for 30 s, 4,100 direct "
		"reclaims/s -> 3 threads");
	/* one step only: the next sample keeps 3 */
	keep_for(&c, 1, SATURATED);
	assert_int_equal(reclaim_adapt_threads(c.a), 3);
	ctl_free(&c);

	/* the window is time, not samples: 5 s samples, the 6th completes 30 s; the reason
	 * gives the averages over the window */
	ctl_new(&c, 2, 4);
	for (int i = 0; i < 5; i++) {
		struct load l = i < 3 ? (struct load){{0, 95}, 3000, 0, 20}
				      : (struct load){{0, 99}, 5000, 0, 20};

		fill(&c, 5, l, NO_KNOB);
		assert_int_equal(reclaim_adapt_step(c.a, c.s), RECLAIM_ADAPT_KEEP);
	}
	fill(&c, 5, (struct load){{0, 99}, 5000, 0, 20}, NO_KNOB);
	assert_int_equal(reclaim_adapt_step(c.a, c.s), RECLAIM_ADAPT_CHANGE);
	assert_int_equal(reclaim_adapt_threads(c.a), 3);
	/* (3 * 95 + 3 * 99) / 6 = 97, (3 * 3000 + 3 * 5000) / 6 = 4000 */
	assert_reason(
	    &c, "kswapd saturated: node 1: kswapd threads at 97% CPU each for 30 s, 4,000 direct "
		"reclaims/s -> 3 threads");
	ctl_free(&c);
}

/* ---- 2: short bursts ---- */

static void test_short_burst(void **state)
{
	struct ctl c;

	ctl_new(&c, 2, 4);
	keep_for(&c, 29, SATURATED);
	keep_for(&c, 1, NORMAL);
	/* the window restarted: 29 more saturated seconds are again one short */
	keep_for(&c, 29, SATURATED);
	keep_for(&c, 10, NORMAL);
	keep_for(&c, 29, SATURATED);
	/* saturated CPU with too little direct reclaim breaks the window... */
	keep_for(&c, 1, (struct load){{30, 97}, 9, 0, 25});
	keep_for(&c, 29, SATURATED);
	/* ...and direct reclaim without saturated threads too */
	keep_for(&c, 1, (struct load){{30, 89}, 4000, 100, 25});
	/* throttled waits count as direct reclaim: 10/s starts the window */
	keep_for(&c, 1, (struct load){{30, 97}, 0, 10, 25});
	keep_for(&c, 28, SATURATED);
	assert_change(&c, SATURATED, 3);
	/* (10 + 29 * 4100) / 30 */
	assert_reason(
	    &c, "kswapd saturated: node 1: kswapd threads at 97% CPU each for 30 s, 3,964 direct "
		"reclaims/s -> 3 threads");
	ctl_free(&c);
}

/* ---- 3: steps down ---- */

static void test_step_down(void **state)
{
	struct ctl c;

	/* never below the starting value */
	ctl_new(&c, 3, 5);
	keep_for(&c, 1000, QUIET);
	assert_reason(&c, "3 threads: node 1's kswapd threads at 20% CPU each, 0 direct "
			  "reclaims/s");
	/* --min 1: quiet for long enough, and no change ever: down at once */
	assert_int_equal(reclaim_adapt_set_min(c.a, 1), 0);
	assert_change(&c, QUIET, 2);
	assert_reason(&c, "quiet: kswapd threads below 40% CPU each and 0 direct reclaims/s for "
			  "1001 s -> 2 threads");
	keep_for(&c, 119, QUIET);
	assert_change(&c, QUIET, 1);
	assert_reason(&c, "quiet: kswapd threads below 40% CPU each and 0 direct reclaims/s for "
			  "120 s -> 1 thread");
	keep_for(&c, 1000, QUIET);
	assert_int_equal(reclaim_adapt_threads(c.a), 1);
	ctl_free(&c);

	/* anything not quiet restarts the down window: a node's CPU, direct reclaim, PSI */
	ctl_new(&c, 4, 5);
	assert_int_equal(reclaim_adapt_set_min(c.a, 1), 0);
	keep_for(&c, 100, QUIET);
	keep_for(&c, 1, (struct load){{40, 20}, 0, 0, 0.5});
	keep_for(&c, 119, QUIET);
	assert_change(&c, QUIET, 3);
	keep_for(&c, 100, QUIET);
	keep_for(&c, 1, (struct load){{10, 20}, 0, 1, 0.5});
	keep_for(&c, 119, QUIET);
	assert_change(&c, QUIET, 2);
	keep_for(&c, 100, QUIET);
	keep_for(&c, 1, (struct load){{10, 20}, 0, 0, 10});
	keep_for(&c, 119, QUIET);
	/* just below every threshold is quiet */
	assert_change(&c, (struct load){{39.9, 39.9}, 0.9, 0, 9.9}, 1);
	assert_reason(&c, "quiet: kswapd threads below 40% CPU each and 0 direct reclaims/s for "
			  "120 s -> 1 thread");
	ctl_free(&c);

	/* the cooldown holds a step down back when the down window is shorter */
	ctl_new(&c, 2, 4);
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_DOWN_WINDOW, 10), 0);
	keep_for(&c, 29, SATURATED);
	assert_change(&c, SATURATED, 3);
	keep_for(&c, 59, QUIET);
	assert_change(&c, QUIET, 2);
	assert_reason(&c, "quiet: kswapd threads below 40% CPU each and 0 direct reclaims/s for "
			  "60 s -> 2 threads");
	/* back at the baseline: no lower */
	keep_for(&c, 1000, QUIET);
	ctl_free(&c);
}

/* ---- 4: bounds ---- */

static struct reclaim_topology *topology_of(const char *dir, struct reclaim_ctx **ctx)
{
	struct reclaim_topology *topo;

	assert_int_equal(reclaim_new(ctx, dir), 0);
	if (reclaim_topology_new(*ctx, &topo) < 0)
		fail_msg("%s: %s", dir, reclaim_strerror(*ctx));
	return topo;
}

static int64_t default_max_of(const char *dir)
{
	struct reclaim_ctx *ctx;
	struct reclaim_topology *topo = topology_of(dir, &ctx);
	int64_t max = reclaim_adapt_default_max(topo);

	reclaim_topology_unref(topo);
	reclaim_unref(ctx);
	return max;
}

static void test_default_max(void **state)
{
	static const struct {
		const char *fixture;
		int64_t max;
	} cases[] = {
	    /* two nodes of 4 CPUs: 4 / 4 */
	    {"patched-2node-3threads", 1},
	    /* nodes of 4, 4 and a memory-only node2 that does not count */
	    {"memory-only-node", 1},
	    /* 8 nodes of 8 CPUs (node5 with half the memory still has 8) */
	    {"hwloc-64amd64-4s2n4ca2co", 2},
	    /* 4 nodes of 32 CPUs */
	    {"hwloc-128arm-2pa2n8cluster4co", 8},
	    /* nodes 0, 1, 33 of 4 CPUs, node72 memory only */
	    {"sparse-nodes", 1},
	    /* one node of 2 CPUs: 2 / 4 = 0, at least 1 */
	    {"live-debian12-2cpu", 1},
	    /* no NUMA: node 0 with the 4 online CPUs */
	    {"no-numa", 1},
	};
	char path[512], *root;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t max;

		snprintf(path, sizeof(path), "%s/%s", FIXTURES_DIR, cases[i].fixture);
		max = default_max_of(path);
		if (max != cases[i].max)
			fail_msg("%s: default max %lld, want %lld", cases[i].fixture,
				 (long long)max, (long long)cases[i].max);
	}

	/* 128 CPUs without NUMA: 32, capped at 16 */
	root = tmproot_new();
	tmproot_write(root, "/sys/devices/system/cpu/online", "0-127\n");
	tmproot_write(root, "/proc/meminfo", "MemTotal: 8000000 kB\nMemFree: 4000000 kB\n");
	assert_int_equal(default_max_of(root), 16);
	tmproot_remove(root);

	/* a node of 72 CPUs and memory, and a small CPU-only node, which does not count */
	root = tmproot_new();
	tmproot_write(root, "/sys/devices/system/cpu/online", "0-75\n");
	tmproot_write(root, "/sys/devices/system/node/online", "0-1\n");
	tmproot_write(root, "/sys/devices/system/node/has_memory", "0\n");
	tmproot_write(root, "/sys/devices/system/node/has_cpu", "0-1\n");
	tmproot_write(root, "/sys/devices/system/node/node0/cpulist", "0-71\n");
	tmproot_write(root, "/sys/devices/system/node/node0/meminfo",
		      "Node 0 MemTotal: 8000000 kB\nNode 0 MemFree: 4000000 kB\n");
	tmproot_write(root, "/sys/devices/system/node/node1/cpulist", "72-75\n");
	tmproot_write(root, "/sys/devices/system/node/node1/meminfo",
		      "Node 1 MemTotal: 0 kB\nNode 1 MemFree: 0 kB\n");
	assert_int_equal(default_max_of(root), 16);
	/* and with 56 CPUs: 14 */
	tmproot_write(root, "/sys/devices/system/node/node0/cpulist", "0-55\n");
	assert_int_equal(default_max_of(root), 14);
	tmproot_remove(root);
}

static void test_at_max(void **state)
{
	struct reclaim_topology *topo;
	struct reclaim_ctx *ctx;
	struct ctl c;

	/* no topology: the starting value is the most */
	ctl_new(&c, 2, 0);
	keep_for(&c, 30, SATURATED);
	assert_reason(
	    &c, "kswapd saturated: node 1: kswapd threads at 97% CPU each for 30 s, 4,100 direct "
		"reclaims/s, but 2 threads is the most allowed");
	keep_for(&c, 1000, SATURATED);
	ctl_free(&c);

	/* --max 2 */
	ctl_new(&c, 1, 2);
	keep_for(&c, 29, SATURATED);
	assert_change(&c, SATURATED, 2);
	keep_for(&c, 1000, SATURATED);
	assert_reason(
	    &c, "kswapd saturated: node 1: kswapd threads at 97% CPU each for 1000 s, 4,100 direct "
		"reclaims/s, but 2 threads is the most allowed");
	ctl_free(&c);

	/* the topology's default: 8 on 4 nodes of 32 CPUs */
	ctl_new(&c, 1, 0);
	topo = topology_of(FIXTURES_DIR "/hwloc-128arm-2pa2n8cluster4co", &ctx);
	assert_null(reclaim_adapt_unref(c.a));
	assert_int_equal(reclaim_adapt_new(c.ctx, topo, 7, &c.a), 0);
	assert_int_equal(reclaim_adapt_max(c.a), 8);
	assert_int_equal(reclaim_adapt_min(c.a), 7);
	keep_for(&c, 29, SATURATED);
	assert_change(&c, SATURATED, 8);
	keep_for(&c, 30, SATURATED);
	assert_reason(
	    &c, "kswapd saturated: node 1: kswapd threads at 97% CPU each for 30 s, 4,100 direct "
		"reclaims/s, but 8 threads is the most allowed");
	reclaim_topology_unref(topo);
	reclaim_unref(ctx);

	/* 4 CPUs a node: 1, and a start above the default is its own max */
	topo = topology_of(FIXTURES_DIR "/patched-2node-3threads", &ctx);
	assert_null(reclaim_adapt_unref(c.a));
	assert_int_equal(reclaim_adapt_new(c.ctx, topo, 1, &c.a), 0);
	assert_int_equal(reclaim_adapt_max(c.a), 1);
	keep_for(&c, 30, SATURATED);
	assert_reason(
	    &c, "kswapd saturated: node 1: kswapd threads at 97% CPU each for 30 s, 4,100 direct "
		"reclaims/s, but 1 thread is the most allowed");
	assert_null(reclaim_adapt_unref(c.a));
	assert_int_equal(reclaim_adapt_new(c.ctx, topo, 3, &c.a), 0);
	assert_int_equal(reclaim_adapt_max(c.a), 3);
	reclaim_topology_unref(topo);
	reclaim_unref(ctx);
	ctl_free(&c);
}

static void test_bounds_refused(void **state)
{
	struct reclaim_adapt *a;
	struct ctl c;

	ctl_new(&c, 3, 8);
	assert_int_equal(reclaim_adapt_set_min(c.a, 4), -ERANGE);
	assert_string_equal(reclaim_strerror(c.ctx), "kswapd_threads is 3, outside the bounds 4-8");
	assert_int_equal(reclaim_adapt_set_max(c.a, 2), -ERANGE);
	assert_string_equal(reclaim_strerror(c.ctx), "--min 3 is above --max 2");
	assert_int_equal(reclaim_adapt_set_min(c.a, 0), -ERANGE);
	assert_string_equal(reclaim_strerror(c.ctx), "the bounds must be within 1-16");
	assert_int_equal(reclaim_adapt_set_max(c.a, 17), -ERANGE);
	assert_string_equal(reclaim_strerror(c.ctx), "the bounds must be within 1-16");
	assert_int_equal(reclaim_adapt_set_min(c.a, 9), -ERANGE);
	assert_string_equal(reclaim_strerror(c.ctx), "--min 9 is above --max 8");
	/* nothing refused changed anything */
	assert_int_equal(reclaim_adapt_min(c.a), 3);
	assert_int_equal(reclaim_adapt_max(c.a), 8);

	assert_int_equal(reclaim_adapt_set_min(c.a, 1), 0);
	assert_int_equal(reclaim_adapt_set_max(c.a, 2), -ERANGE);
	assert_string_equal(reclaim_strerror(c.ctx), "kswapd_threads is 3, outside the bounds 1-2");
	assert_int_equal(reclaim_adapt_set_max(c.a, 16), 0);
	assert_int_equal(reclaim_adapt_set_min(c.a, 3), 0);
	assert_int_equal(reclaim_adapt_set_max(c.a, 3), 0);
	assert_int_equal(reclaim_adapt_min(c.a), 3);
	assert_int_equal(reclaim_adapt_max(c.a), 3);
	/* a success leaves no stale message */
	assert_string_equal(reclaim_strerror(c.ctx), "no error");

	/* a starting value outside the knob's range (0: a kernel without it) */
	assert_int_equal(reclaim_adapt_new(c.ctx, NULL, -1, &a), -ERANGE);
	assert_string_equal(reclaim_strerror(c.ctx), "kswapd_threads -1 is outside 1-16");
	assert_int_equal(reclaim_adapt_new(c.ctx, NULL, 17, &a), -ERANGE);
	ctl_free(&c);
}

/* --min and --max as given: 0 is the default; a min above the default max raises it. */
static void test_set_bounds(void **state)
{
	struct ctl c;

	ctl_new(&c, 2, 4); /* the default max: 4 */
	assert_int_equal(reclaim_adapt_set_bounds(c.a, 0, 0), 0);
	assert_int_equal(reclaim_adapt_min(c.a), 2);
	assert_int_equal(reclaim_adapt_max(c.a), 4);
	assert_int_equal(reclaim_adapt_set_bounds(c.a, 1, 0), 0);
	assert_int_equal(reclaim_adapt_min(c.a), 1);
	assert_int_equal(reclaim_adapt_max(c.a), 4);
	/* a given max is not moved by a min above it */
	assert_int_equal(reclaim_adapt_set_bounds(c.a, 2, 3), 0);
	assert_int_equal(reclaim_adapt_set_bounds(c.a, 5, 3), -ERANGE);
	assert_string_equal(reclaim_strerror(c.ctx), "--min 5 is above --max 3");
	ctl_free(&c);
	/* without a max, a min of 2 above the default max 1 raises it to 2 */
	ctl_new(&c, 2, 0);
	assert_int_equal(reclaim_adapt_set_bounds(c.a, 2, 0), 0);
	assert_int_equal(reclaim_adapt_max(c.a), 2);
	assert_int_equal(reclaim_adapt_set_bounds(c.a, -1, 0), -EINVAL);
	ctl_free(&c);
}

/* ---- 5: the node's CPUs busy with other work ---- */

/* Node 1: one kswapd thread at 95% of a CPU, @ncpus CPUs @busy % busy; 4,100 direct/s. */
static int busy_step(struct ctl *c, unsigned int ncpus, double busy)
{
	assert_int_equal(reclaim_adapt_sample_reset(c->s, 1), 0);
	assert_int_equal(reclaim_adapt_sample_add_thread(c->s, 1, 95), 0);
	if (ncpus)
		assert_int_equal(reclaim_adapt_sample_set_node_cpus(c->s, 1, ncpus, busy), 0);
	assert_int_equal(reclaim_adapt_sample_set(c->s, RECLAIM_ADAPT_ALLOCSTALL, 4100), 0);
	return reclaim_adapt_step(c->a, c->s);
}

static void test_busy_cpus(void **state)
{
	struct ctl c;

	/* 4 CPUs all busy: kswapd has 95% of one, other work the rest */
	ctl_new(&c, 1, 4);
	for (int i = 0; i < 100; i++)
		assert_int_equal(busy_step(&c, 4, 100), RECLAIM_ADAPT_KEEP);
	assert_reason(
	    &c,
	    "kswapd saturated: node 1: kswapd threads at 95% CPU each, but its CPUs are 100% busy "
	    "with other work: another thread would only take CPU from it");
	assert_int_equal(reclaim_adapt_threads(c.a), 1);
	/* 95% busy: of the 305% kswapd leaves, other work has 285 (93%) */
	assert_int_equal(busy_step(&c, 4, 95), RECLAIM_ADAPT_KEEP);
	assert_reason(
	    &c,
	    "kswapd saturated: node 1: kswapd threads at 95% CPU each, but its CPUs are 93% busy "
	    "with other work: another thread would only take CPU from it");
	/* 64 CPUs 95% busy: 5985 of the 6305% kswapd leaves (95%) */
	assert_int_equal(busy_step(&c, 64, 95), RECLAIM_ADAPT_KEEP);
	assert_reason(
	    &c,
	    "kswapd saturated: node 1: kswapd threads at 95% CPU each, but its CPUs are 95% busy "
	    "with other work: another thread would only take CPU from it");
	/* the same with idle CPUs: 30% busy, most of it kswapd */
	assert_int_equal(busy_step(&c, 4, 30), RECLAIM_ADAPT_CHANGE);
	assert_int_equal(reclaim_adapt_threads(c.a), 2);
	assert_reason(
	    &c, "kswapd saturated: node 1: kswapd threads at 95% CPU each for 103 s, 4,100 direct "
		"reclaims/s -> 2 threads");
	ctl_free(&c);

	/* below busy-cpu (90%): 4 CPUs 90% busy are 87% busy with other work */
	ctl_new(&c, 1, 4);
	for (int i = 0; i < 29; i++)
		assert_int_equal(busy_step(&c, 4, 90), RECLAIM_ADAPT_KEEP);
	assert_int_equal(busy_step(&c, 4, 90), RECLAIM_ADAPT_CHANGE);
	ctl_free(&c);

	/* not known: no guard */
	ctl_new(&c, 1, 4);
	for (int i = 0; i < 29; i++)
		assert_int_equal(busy_step(&c, 0, 0), RECLAIM_ADAPT_KEEP);
	assert_int_equal(busy_step(&c, 0, 0), RECLAIM_ADAPT_CHANGE);
	ctl_free(&c);

	/* only the saturated node's CPUs matter: node 0 full of other work, node 1 idle */
	ctl_new(&c, 1, 4);
	for (int i = 0; i < 30; i++) {
		assert_int_equal(reclaim_adapt_sample_reset(c.s, 1), 0);
		assert_int_equal(reclaim_adapt_sample_add_thread(c.s, 0, 50), 0);
		assert_int_equal(reclaim_adapt_sample_set_node_cpus(c.s, 0, 4, 100), 0);
		assert_int_equal(reclaim_adapt_sample_add_thread(c.s, 1, 95), 0);
		assert_int_equal(reclaim_adapt_sample_set_node_cpus(c.s, 1, 4, 30), 0);
		assert_int_equal(reclaim_adapt_sample_set(c.s, RECLAIM_ADAPT_ALLOCSTALL, 4100), 0);
		assert_int_equal(reclaim_adapt_step(c.a, c.s),
				 i < 29 ? RECLAIM_ADAPT_KEEP : RECLAIM_ADAPT_CHANGE);
	}
	ctl_free(&c);
}

/* ---- 6: the cooldown ---- */

static void test_cooldown(void **state)
{
	struct ctl c;

	ctl_new(&c, 1, 8);
	keep_for(&c, 29, SATURATED);
	assert_change(&c, SATURATED, 2);
	/* the window (30 s) is over before the cooldown (60 s) */
	keep_for(&c, 30, SATURATED);
	assert_reason(
	    &c,
	    "kswapd saturated: node 1: kswapd threads at 97% CPU each, 4,100 direct reclaims/s; "
	    "waiting for the cooldown (30 of 60 s)");
	keep_for(&c, 29, SATURATED);
	assert_change(&c, SATURATED, 3);
	assert_reason(
	    &c, "kswapd saturated: node 1: kswapd threads at 97% CPU each for 60 s, 4,100 direct "
		"reclaims/s -> 3 threads");
	/* a window longer than the cooldown sets the pace */
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_UP_WINDOW, 90), 0);
	keep_for(&c, 89, SATURATED);
	assert_change(&c, SATURATED, 4);
	/* no cooldown: the window alone */
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_UP_WINDOW, 30), 0);
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_COOLDOWN, 0), 0);
	keep_for(&c, 29, SATURATED);
	assert_change(&c, SATURATED, 5);
	ctl_free(&c);
}

/* ---- 7: someone else writes the knob ---- */

static void test_handoff(void **state)
{
	struct ctl c;
	int v;

	ctl_new(&c, 2, 8);
	/* the value it holds read back: no hand-off */
	for (int i = 0; i < 10; i++)
		assert_int_equal(step_knob(&c, NORMAL, 2), RECLAIM_ADAPT_KEEP);
	assert_false(reclaim_adapt_handed_off(c.a));
	assert_int_equal(step_knob(&c, NORMAL, 3), RECLAIM_ADAPT_HANDOFF);
	assert_reason(&c, "kswapd_threads is 3, not the 2 adapt set: someone else changed it; "
			  "adapt leaves it alone until SIGHUP or a restart");
	assert_true(reclaim_adapt_handed_off(c.a));
	assert_int_equal(reclaim_adapt_threads(c.a), 3);
	/* once: then KEEP, saturated or quiet, whatever the knob says */
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(step_knob(&c, SATURATED, 3), RECLAIM_ADAPT_KEEP);
		assert_int_equal(step_knob(&c, QUIET, i % 2 ? 5 : 3), RECLAIM_ADAPT_KEEP);
		assert_int_equal(step(&c, SATURATED), RECLAIM_ADAPT_KEEP);
	}
	assert_true(reclaim_adapt_handed_off(c.a));
	assert_int_equal(reclaim_adapt_threads(c.a), 3);

	/* resumed from 4: the cooldown first, then steps again */
	assert_int_equal(reclaim_adapt_resume(c.a, 0), -ERANGE);
	assert_int_equal(reclaim_adapt_resume(c.a, 17), -ERANGE);
	assert_true(reclaim_adapt_handed_off(c.a));
	assert_int_equal(reclaim_adapt_resume(c.a, 4), 0);
	assert_false(reclaim_adapt_handed_off(c.a));
	assert_int_equal(reclaim_adapt_threads(c.a), 4);
	assert_reason(&c, "resumed at 4 threads");
	for (int i = 0; i < 59; i++)
		assert_int_equal(step_knob(&c, SATURATED, 4), RECLAIM_ADAPT_KEEP);
	assert_int_equal(step_knob(&c, SATURATED, 4), RECLAIM_ADAPT_CHANGE);
	assert_int_equal(reclaim_adapt_threads(c.a), 5);
	assert_int_equal(step_knob(&c, SATURATED, 5), RECLAIM_ADAPT_KEEP);
	assert_false(reclaim_adapt_handed_off(c.a));
	ctl_free(&c);

	/* dry run: the knob is never read back, the controller never hands off */
	ctl_new(&c, 1, 8);
	for (int round = 0, changes = 0; round < 10; round++) {
		for (int i = 0; i < 500; i++) {
			v = step(&c, SATURATED);
			assert_true(v == RECLAIM_ADAPT_KEEP || v == RECLAIM_ADAPT_CHANGE);
			changes += v == RECLAIM_ADAPT_CHANGE;
		}
		assert_int_equal(reclaim_adapt_threads(c.a), 8);
		for (int i = 0; i < 1000; i++) {
			v = step(&c, QUIET);
			assert_true(v == RECLAIM_ADAPT_KEEP || v == RECLAIM_ADAPT_CHANGE);
			changes += v == RECLAIM_ADAPT_CHANGE;
		}
		assert_int_equal(reclaim_adapt_threads(c.a), 1);
		/* 7 up and 7 down each round */
		assert_int_equal(changes, 14 * (round + 1));
	}
	assert_false(reclaim_adapt_handed_off(c.a));
	ctl_free(&c);
}

/* ---- 8: rollback ---- */

static void test_rollback(void **state)
{
	struct ctl c;

	ctl_new(&c, 2, 4);
	keep_for(&c, 29, SATURATED);
	assert_change(&c, SATURATED, 3);
	/* the write failed */
	assert_int_equal(reclaim_adapt_rollback(c.a), 0);
	assert_int_equal(reclaim_adapt_threads(c.a), 2);
	/* the old value read back is not someone else's */
	assert_int_equal(step_knob(&c, SATURATED, 2), RECLAIM_ADAPT_KEEP);
	assert_false(reclaim_adapt_handed_off(c.a));
	/* the cooldown stays: the next try 60 s after the change */
	for (int i = 0; i < 58; i++)
		assert_int_equal(step_knob(&c, SATURATED, 2), RECLAIM_ADAPT_KEEP);
	assert_int_equal(step_knob(&c, SATURATED, 2), RECLAIM_ADAPT_CHANGE);
	assert_int_equal(reclaim_adapt_threads(c.a), 3);
	ctl_free(&c);

	/* a step down rolled back */
	ctl_new(&c, 3, 4);
	assert_int_equal(reclaim_adapt_set_min(c.a, 1), 0);
	keep_for(&c, 119, QUIET);
	assert_change(&c, QUIET, 2);
	assert_int_equal(reclaim_adapt_rollback(c.a), 0);
	assert_int_equal(reclaim_adapt_threads(c.a), 3);
	assert_int_equal(step_knob(&c, QUIET, 3), RECLAIM_ADAPT_KEEP);
	ctl_free(&c);
}

/* ---- 9: parameters, the first sample, invalid figures ---- */

static void test_params(void **state)
{
	static const double defaults[] = {90, 10, 30, 40, 1, 10, 120, 60, 90, 1, 10, 100};
	struct ctl c;

	assert_int_equal(reclaim_adapt_param_count(), 12);
	ctl_new(&c, 2, 4);
	for (size_t i = 0; i < reclaim_adapt_param_count(); i++) {
		const char *name = reclaim_adapt_param_name(i);

		assert_non_null(name);
		assert_non_null(reclaim_adapt_param_description(i));
		assert_int_equal(reclaim_adapt_param_find(name), (int)i);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(name, reclaim_adapt_param_name(j));
		assert_true(reclaim_adapt_param_default(i) == defaults[i]);
		assert_true(reclaim_adapt_get_param(c.a, i) == defaults[i]);
	}
	assert_string_equal(reclaim_adapt_param_name(RECLAIM_ADAPT_UP_CPU), "up-cpu");
	assert_string_equal(reclaim_adapt_param_name(RECLAIM_ADAPT_BUSY_CPU), "busy-cpu");
	assert_int_equal(reclaim_adapt_param_find("cooldown"), RECLAIM_ADAPT_COOLDOWN);
	assert_int_equal(reclaim_adapt_param_find("nope"), -ENOENT);
	assert_int_equal(reclaim_adapt_param_find("up-cpu "), -ENOENT);
	assert_string_equal(reclaim_adapt_param_name(RECLAIM_ADAPT_WMARK_MAX), "wmark-max");
	assert_null(reclaim_adapt_param_name(12));
	assert_true(isnan(reclaim_adapt_param_default(12)));

	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_UP_CPU, NAN), -ERANGE);
	assert_string_equal(reclaim_strerror(c.ctx), "up-cpu must be between 1 and 100");
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_UP_CPU, INFINITY), -ERANGE);
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_UP_CPU, 0), -ERANGE);
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_UP_CPU, 100.5), -ERANGE);
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_COOLDOWN, -1), -ERANGE);
	assert_string_equal(reclaim_strerror(c.ctx), "cooldown must be between 0 and 86400");
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_UP_WINDOW, 86401), -ERANGE);
	assert_true(reclaim_adapt_get_param(c.a, RECLAIM_ADAPT_UP_CPU) == 90);
	assert_true(reclaim_adapt_get_param(c.a, RECLAIM_ADAPT_COOLDOWN) == 60);
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_UP_CPU, 100), 0);
	assert_true(reclaim_adapt_get_param(c.a, RECLAIM_ADAPT_UP_CPU) == 100);
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_UP_CPU, 90), 0);

	/* the first sample (no interval) decides nothing and counts for no window */
	assert_reason(&c, "started at 2 threads");
	fill(&c, 0, SATURATED, NO_KNOB);
	assert_int_equal(reclaim_adapt_step(c.a, c.s), RECLAIM_ADAPT_KEEP);
	assert_reason(&c, "2 threads: first sample, nothing to compare yet");
	fill(&c, -3, SATURATED, NO_KNOB);
	assert_int_equal(reclaim_adapt_step(c.a, c.s), RECLAIM_ADAPT_KEEP);
	assert_reason(&c, "2 threads: first sample, nothing to compare yet");
	keep_for(&c, 29, SATURATED);
	assert_change(&c, SATURATED, 3);

	/* invalid figures */
	assert_int_equal(reclaim_adapt_sample_reset(c.s, NAN), -EINVAL);
	assert_int_equal(reclaim_adapt_sample_reset(c.s, 1), 0);
	assert_int_equal(reclaim_adapt_sample_set(c.s, RECLAIM_ADAPT_ALLOCSTALL, -1), -EINVAL);
	assert_int_equal(reclaim_adapt_sample_set(c.s, RECLAIM_ADAPT_THROTTLED, NAN), -EINVAL);
	assert_int_equal(reclaim_adapt_sample_set(c.s, RECLAIM_ADAPT_PSI_SOME, INFINITY), -EINVAL);
	assert_int_equal(reclaim_adapt_sample_set(c.s, RECLAIM_ADAPT_LOW_WMARK_HITS + 1, 1),
			 -EINVAL);
	assert_int_equal(reclaim_adapt_sample_add_thread(c.s, 0, -0.5), -EINVAL);
	assert_int_equal(reclaim_adapt_sample_add_thread(c.s, 0, NAN), -EINVAL);
	assert_int_equal(reclaim_adapt_sample_add_thread(c.s, -1, 50), -EINVAL);
	assert_int_equal(reclaim_adapt_sample_set_node_cpus(c.s, 0, 0, 50), -EINVAL);
	assert_int_equal(reclaim_adapt_sample_set_node_cpus(c.s, 0, 4, 100.5), -EINVAL);
	assert_int_equal(reclaim_adapt_sample_set_node_cpus(c.s, 0, 4, NAN), -EINVAL);
	assert_int_equal(reclaim_adapt_step(NULL, c.s), -EINVAL);
	assert_int_equal(reclaim_adapt_step(c.a, NULL), -EINVAL);
	/* a refused figure left nothing behind: the sample is empty, no kswapd thread */
	assert_int_equal(reclaim_adapt_step(c.a, c.s), RECLAIM_ADAPT_KEEP);
	assert_reason(&c, "3 threads: no kswapd thread seen, 0 direct reclaims/s");
	ctl_free(&c);
}

/* ---- 10: a simulated machine ---- */

static uint64_t lcg_state;

static uint32_t lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005u + 1442695040888963407u;
	return (uint32_t)(lcg_state >> 33);
}

enum phase_kind { HEAVY, MEDIUM, LIGHT };

struct phase {
	int start, end; /* seconds, [start, end) */
	enum phase_kind kind;
	int demand[2]; /* kswapd demand of each node, in % of one CPU */
};

#define PLANT_SECONDS 10000
#define PLANT_MIN     1
#define PLANT_MAX     8
#define DIRECT_PER_PCT                                                                             \
	50 /* direct reclaims/s per % of demand kswapd cannot take: at least 50/s, >= up-direct */

/* The machine under the load of @p with @threads kswapd threads a node. */
static struct load plant(const struct phase *p, int64_t threads)
{
	struct load l = {{0, 0}, 0, 0, 0};
	double excess = 0;

	for (int node = 0; node < 2; node++) {
		double d = p->demand[node];

		l.cpu[node] = d / (double)threads < 100 ? d / (double)threads : 100;
		if (d > 100.0 * (double)threads)
			excess += d - 100.0 * (double)threads;
	}
	l.allocstall = DIRECT_PER_PCT * excess * 0.9;
	l.throttled = DIRECT_PER_PCT * excess * 0.1;
	l.psi = excess / 10 < 100 ? excess / 10 : 100;
	return l;
}

static void test_plant(void **state)
{
	/* the longest time a change can take: each step waits for a window and the cooldown,
	 * and under one constant load the value only moves one way (the up and down
	 * thresholds cannot both hold), so at most max - min steps */
	const int up_settle = (PLANT_MAX - PLANT_MIN) * 60; /* max(up-window, cooldown) */
	const int settle = (PLANT_MAX - PLANT_MIN) * 120;   /* max(down-window, ...) */
	struct phase phases[PLANT_SECONDS / 50 + 1];
	int nphases = 0, changes = 0, last_change = -1000000;
	int heavy_at_max = 0, heavy_below_max = 0, light_checked = 0, settled_checked = 0;
	struct ctl c;

	lcg_state = 29;
	for (int t = 0; t < PLANT_SECONDS; nphases++) {
		struct phase *p = &phases[nphases];
		int len = 50 + (int)(lcg() % 951);

		p->start = t;
		p->end = t + len < PLANT_SECONDS ? t + len : PLANT_SECONDS;
		p->kind = (enum phase_kind)(lcg() % 3);
		for (int node = 0; node < 2; node++) {
			switch (p->kind) {
			case HEAVY: /* more than two threads can take, up to more than max */
				p->demand[node] = 250 + (int)(lcg() % 751);
				break;
			case MEDIUM:
				p->demand[node] = 60 + (int)(lcg() % 190);
				break;
			default: /* quiet even for one thread */
				p->demand[node] = (int)(lcg() % 35);
				break;
			}
		}
		t = p->end;
	}

	ctl_new(&c, PLANT_MIN, PLANT_MAX);
	for (int i = 0; i < nphases; i++) {
		const struct phase *p = &phases[i];
		int last_in_phase = -1;
		struct load l = {{0, 0}, 0, 0, 0};

		for (int t = p->start; t < p->end; t++) {
			int64_t threads = reclaim_adapt_threads(c.a);
			int v;

			l = plant(p, threads);
			/* live: the knob read back is the value last written */
			fill(&c, 1, l, threads);
			v = reclaim_adapt_step(c.a, c.s);
			if (v == RECLAIM_ADAPT_CHANGE) {
				if (t - last_change < 60)
					fail_msg("t=%d: a change %d s after the last (%s)", t,
						 t - last_change, reclaim_adapt_reason(c.a));
				last_change = last_in_phase = t;
				changes++;
			} else if (v != RECLAIM_ADAPT_KEEP) {
				fail_msg("t=%d: verdict %d (%s)", t, v, reclaim_adapt_reason(c.a));
			}
			threads = reclaim_adapt_threads(c.a);
			if (threads < PLANT_MIN || threads > PLANT_MAX)
				fail_msg("t=%d: %lld threads", t, (long long)threads);
		}
		if (p->end - p->start > settle) {
			/* settled: nothing after the longest time it can take */
			if (last_in_phase >= p->start + settle)
				fail_msg("phase %d-%d: a change at %d", p->start, p->end,
					 last_in_phase);
			settled_checked++;
		}
		l = plant(p, reclaim_adapt_threads(c.a));
		if (p->kind == HEAVY && p->end - p->start > up_settle) {
			/* enough threads that direct reclaim stopped, or the most allowed */
			if (l.allocstall > 0 && reclaim_adapt_threads(c.a) != PLANT_MAX)
				fail_msg(
				    "phase %d-%d (demand %d, %d): %lld threads, direct reclaim "
				    "goes on",
				    p->start, p->end, p->demand[0], p->demand[1],
				    (long long)reclaim_adapt_threads(c.a));
			if (reclaim_adapt_threads(c.a) == PLANT_MAX)
				heavy_at_max++;
			else
				heavy_below_max++;
		}
		if (p->kind == LIGHT && p->end - p->start > settle) {
			assert_int_equal(reclaim_adapt_threads(c.a), PLANT_MIN);
			light_checked++;
		}
	}
	/* the load did what the assertions need */
	assert_true(heavy_at_max >= 2);
	assert_true(heavy_below_max >= 1);
	assert_true(light_checked >= 2);
	assert_true(settled_checked >= 4);
	assert_true(changes > 0);
	assert_true(changes <= nphases * (PLANT_MAX - PLANT_MIN));
	assert_false(reclaim_adapt_handed_off(c.a));
	ctl_free(&c);
}

/* ---- 11: the sampler's CPU figures ---- */

static char *copy_to;
static size_t copy_from_len;

static int copy_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	const char *rel = path + copy_from_len;
	char *text, link[PATH_MAX], dir[PATH_MAX];
	ssize_t n;

	if (!*rel)
		return 0;
	switch (flag) {
	case FTW_D:
		tmproot_mkdirs(copy_to, rel + 1);
		break;
	case FTW_SL:
		n = readlink(path, link, sizeof(link) - 1);
		assert_true(n > 0);
		link[n] = '\0';
		tmproot_symlink(copy_to, rel, link);
		break;
	case FTW_F:
		snprintf(dir, sizeof(dir), "%.*s", (int)copy_from_len, path);
		text = tmproot_read(dir, rel);
		assert_non_null(text);
		tmproot_write(copy_to, rel, text);
		free(text);
		break;
	default:
		fail_msg("%s: cannot copy", path);
	}
	return 0;
}

/* A temporary copy of fixture @name. */
static char *fixture_copy(const char *name)
{
	char from[PATH_MAX];

	snprintf(from, sizeof(from), "%s/%s", FIXTURES_DIR, name);
	copy_to = tmproot_new();
	copy_from_len = strlen(from);
	assert_int_equal(nftw(from, copy_one, 16, FTW_PHYS), 0);
	return copy_to;
}

/* /proc/stat with CPUs 0..@ncpus-1, each "user nice system idle iowait irq softirq steal" from
 * @ticks (guest and guest_nice, already in user and nice, are made up and must not count). */
static void write_stat(const char *root, size_t ncpus, unsigned long long (*ticks)[8])
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	assert_non_null(f);
	fprintf(f, "cpu  99999 0 99999 99999 0 0 0 0 0 0\n");
	for (size_t i = 0; i < ncpus; i++)
		fprintf(f, "cpu%zu %llu %llu %llu %llu %llu %llu %llu %llu 777 333\n", i,
			ticks[i][0], ticks[i][1], ticks[i][2], ticks[i][3], ticks[i][4],
			ticks[i][5], ticks[i][6], ticks[i][7]);
	fprintf(f, "intr 123456 0 0\nctxt 987654\nbtime 1700000000\nprocesses 4242\n");
	assert_int_equal(fclose(f), 0);
	tmproot_write(root, "/proc/stat", text);
	free(text);
}

static struct reclaim_sample *read_sample(struct reclaim_sampler *s, struct reclaim_ctx *ctx)
{
	struct reclaim_sample *smp = NULL;

	if (reclaim_sampler_read(s, &smp) < 0)
		fail_msg("sample: %s", reclaim_strerror(ctx));
	return smp;
}

static void assert_busy(const struct reclaim_sample *a, const struct reclaim_sample *b, int node,
			unsigned int want_ncpus, double want)
{
	unsigned int ncpus = 0;
	double busy = -1;

	assert_int_equal(reclaim_sample_node_cpu_busy(a, b, node, &ncpus, &busy), 0);
	assert_int_equal(ncpus, want_ncpus);
	if (busy != want)
		fail_msg("node %d: %.17g%% busy, want %g", node, busy, want);
}

static void test_sampler_cpus(void **state)
{
	/* start: arbitrary counts */
	static unsigned long long t0[8][8] = {
	    {100, 5, 50, 800, 20, 1, 2, 0},	 {200, 0, 10, 900, 0, 0, 0, 0},
	    {300, 0, 20, 700, 5, 0, 0, 0},	 {400, 0, 30, 600, 0, 0, 0, 0},
	    {1000, 10, 500, 8000, 100, 5, 5, 5}, {2000, 0, 100, 9000, 0, 0, 0, 0},
	    {3000, 0, 200, 7000, 50, 0, 0, 0},	 {4000, 0, 300, 6000, 0, 0, 0, 0},
	};
	/* node 0 (CPUs 0-3): cpu0 +100 user, the others +100 idle: 25% */
	/* node 1 (CPUs 4-7): cpu4 +30 user +20 system +10 irq +5 softirq +5 steal +30 idle (70),
	 * cpu5 +50 nice +50 iowait (50: iowait is not busy), cpu6 +100 idle (0), cpu7 +80
	 * system +20 idle (80): 200 of 400, 50% */
	static unsigned long long d1[8][8] = {
	    {100, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 100, 0, 0, 0, 0},   {0, 0, 0, 100, 0, 0, 0, 0},
	    {0, 0, 0, 100, 0, 0, 0, 0}, {30, 0, 20, 30, 0, 10, 5, 5}, {0, 50, 0, 0, 50, 0, 0, 0},
	    {0, 0, 0, 100, 0, 0, 0, 0}, {0, 0, 80, 20, 0, 0, 0, 0},
	};
	unsigned long long t1[8][8];
	struct reclaim_sample *s1, *s2, *s3, *s4;
	struct reclaim_sampler *sampler, *plain;
	struct reclaim_ctx *ctx;
	unsigned int ncpus;
	char *root = fixture_copy("patched-2node-3threads");
	double busy;

	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			t1[i][j] = t0[i][j] + d1[i][j];
	write_stat(root, 8, t0);
	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_sampler_new(ctx, RECLAIM_SAMPLER_CPUS, &sampler), 0);
	assert_int_equal(reclaim_sampler_new(ctx, 0, &plain), 0);
	s1 = read_sample(sampler, ctx);
	write_stat(root, 8, t1);
	s2 = read_sample(sampler, ctx);
	assert_busy(s1, s2, 0, 4, 25);
	assert_busy(s1, s2, 1, 4, 50);
	/* ncpus is optional */
	assert_int_equal(reclaim_sample_node_cpu_busy(s1, s2, 1, NULL, &busy), 0);
	assert_true(busy == 50);
	/* no such node */
	assert_int_equal(reclaim_sample_node_cpu_busy(s1, s2, 2, &ncpus, &busy), -ENOENT);
	assert_int_equal(reclaim_sample_node_cpu_busy(s1, s2, 0, &ncpus, NULL), -EINVAL);
	/* nothing counted between the same counts: 0% */
	write_stat(root, 8, t1);
	s3 = read_sample(sampler, ctx);
	assert_busy(s2, s3, 0, 4, 0);
	assert_busy(s2, s3, 1, 4, 0);
	/* cpu7 went offline: node 1's sums cannot be compared, node 0's can */
	write_stat(root, 7, t1);
	s4 = read_sample(sampler, ctx);
	assert_int_equal(reclaim_sample_node_cpu_busy(s3, s4, 1, &ncpus, &busy), -EAGAIN);
	assert_busy(s3, s4, 0, 4, 0);
	reclaim_sample_unref(s3);
	reclaim_sample_unref(s4);

	/* a sampler without RECLAIM_SAMPLER_CPUS has no CPU figures */
	s3 = read_sample(plain, ctx);
	s4 = read_sample(plain, ctx);
	assert_int_equal(reclaim_sample_node_cpu_busy(s3, s4, 0, &ncpus, &busy), -ENOENT);
	reclaim_sample_unref(s3);
	reclaim_sample_unref(s4);

	/* a malformed line is named by its number (line 1 is the "cpu" total) */
	tmproot_write(root, "/proc/stat",
		      "cpu  1 2 3 4 5 6 7 8\ncpu0 1 2 3 4 5 6 7 8\ncpu1 1 2 3 4 5 6 7 8\n"
		      "cpu2 1 2 3 4 5 6 7 8\ncpu3 12 x\n");
	assert_int_equal(reclaim_sampler_read(sampler, &s3), -EINVAL);
	assert_string_equal(reclaim_strerror(ctx), "/proc/stat:5: malformed line");
	tmproot_write(root, "/proc/stat", "cpu  1 2 3 4 5 6 7 8\ncpuX 1 2 3 4 5 6 7 8\n");
	assert_int_equal(reclaim_sampler_read(sampler, &s3), -EINVAL);
	assert_string_equal(reclaim_strerror(ctx), "/proc/stat:2: malformed line");

	reclaim_sample_unref(s1);
	reclaim_sample_unref(s2);
	reclaim_sampler_unref(plain);
	reclaim_sampler_unref(sampler);
	reclaim_unref(ctx);
	tmproot_remove(root);

	/* a node without CPUs has no busy share */
	root = fixture_copy("memory-only-node");
	write_stat(root, 8, t0);
	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_sampler_new(ctx, RECLAIM_SAMPLER_CPUS, &sampler), 0);
	s1 = read_sample(sampler, ctx);
	write_stat(root, 8, t1);
	s2 = read_sample(sampler, ctx);
	assert_busy(s1, s2, 0, 4, 25);
	assert_busy(s1, s2, 1, 4, 50);
	assert_int_equal(reclaim_sample_node_cpu_busy(s1, s2, 2, &ncpus, &busy), -ENOENT);
	reclaim_sample_unref(s1);
	reclaim_sample_unref(s2);
	reclaim_sampler_unref(sampler);
	reclaim_unref(ctx);
	tmproot_remove(root);
}

/* kswapd1, kswapd1:1, kswapd1:2 of the fixture (pids 89, 1215, 1216), each @extra ticks more. */
static void kswapd1_ran(const char *root, int extra)
{
	static const struct {
		int pid;
		const char *name;
		int utime, stime, cpu;
	} threads[] = {{89, "kswapd1", 3, 15012, 6},
		       {1215, "kswapd1:1", 0, 7410, 4},
		       {1216, "kswapd1:2", 0, 0, 7}};

	for (size_t i = 0; i < 3; i++) {
		char path[64], *text;

		snprintf(path, sizeof(path), "/proc/%d/stat", threads[i].pid);
		assert_true(asprintf(&text,
				     "%d (%s) S 2 0 0 0 -1 2230336 0 0 0 0 %d %d 0 0 20 0 1 0 27 "
				     "0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 "
				     "17 %d 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
				     threads[i].pid, threads[i].name, threads[i].utime,
				     threads[i].stime + extra, threads[i].cpu) > 0);
		tmproot_write(root, path, text);
		free(text);
	}
}

/* Two samples of the fixture 0.2 s apart, kswapd1's threads running, node 1's CPUs at
 * @busy1 (node 0 idle); returns the controller's verdict on them. */
static int fill_step(unsigned long long busy1, char *reason, size_t size)
{
	unsigned long long t0[8][8] = {{0}}, t1[8][8] = {{0}};
	const struct timespec pause = {0, 200 * 1000 * 1000};
	struct reclaim_sample *s1, *s2;
	struct reclaim_adapt_sample *as;
	struct reclaim_sampler *sampler;
	struct reclaim_adapt *a;
	struct reclaim_ctx *ctx;
	char *root = fixture_copy("patched-2node-3threads");
	long hz = sysconf(_SC_CLK_TCK);
	int v;

	for (int i = 0; i < 8; i++) {
		t1[i][0] = i >= 4 ? busy1 : 0;
		t1[i][3] = i >= 4 ? 100 - busy1 : 100;
	}
	write_stat(root, 8, t0);
	kswapd1_ran(root, 0);
	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_sampler_new(ctx, RECLAIM_SAMPLER_CPUS, &sampler), 0);
	assert_int_equal(reclaim_adapt_new(ctx, NULL, 3, &a), 0);
	assert_int_equal(reclaim_adapt_set_max(a, 4), 0);
	/* one sample decides: no window, no cooldown, any CPU use and direct reclaim */
	assert_int_equal(reclaim_adapt_set_param(a, RECLAIM_ADAPT_UP_WINDOW, 0), 0);
	assert_int_equal(reclaim_adapt_set_param(a, RECLAIM_ADAPT_COOLDOWN, 0), 0);
	assert_int_equal(reclaim_adapt_set_param(a, RECLAIM_ADAPT_UP_CPU, 1), 0);
	assert_int_equal(reclaim_adapt_set_param(a, RECLAIM_ADAPT_UP_DIRECT, 0), 0);
	assert_int_equal(reclaim_adapt_sample_new(ctx, &as), 0);

	s1 = read_sample(sampler, ctx);
	assert_int_equal(reclaim_adapt_sample_fill(as, NULL, s1), 0);
	assert_int_equal(reclaim_adapt_step(a, as), RECLAIM_ADAPT_KEEP);
	assert_string_equal(reclaim_adapt_reason(a),
			    "3 threads: first sample, nothing to compare yet");

	nanosleep(&pause, NULL);
	write_stat(root, 8, t1);
	/* 0.1 s of CPU each over about 0.2 s: about 50% each, far from 0 and from 400% */
	kswapd1_ran(root, (int)(hz > 0 ? hz : 100) / 10);
	s2 = read_sample(sampler, ctx);
	assert_int_equal(reclaim_adapt_sample_fill(as, s1, s2), 0);
	v = reclaim_adapt_step(a, as);
	snprintf(reason, size, "%s", reclaim_adapt_reason(a));

	reclaim_adapt_sample_unref(as);
	reclaim_adapt_unref(a);
	reclaim_sample_unref(s1);
	reclaim_sample_unref(s2);
	reclaim_sampler_unref(sampler);
	reclaim_unref(ctx);
	tmproot_remove(root);
	return v;
}

static void test_fill_node_cpus(void **state)
{
	char reason[256];

	/* node 1's CPUs all busy: the guard, which needs the node's CPUs, holds */
	assert_int_equal(fill_step(100, reason, sizeof(reason)), RECLAIM_ADAPT_KEEP);
	if (!strstr(reason, "node 1: kswapd threads at ") ||
	    !strstr(reason, "% CPU each, but its CPUs are 100% busy with other work"))
		fail_msg("reason: %s", reason);
	/* idle: a step up, on node 1 */
	assert_int_equal(fill_step(10, reason, sizeof(reason)), RECLAIM_ADAPT_CHANGE);
	if (strncmp(reason, "kswapd saturated: node 1: kswapd threads at ", 44) != 0 ||
	    !strstr(reason, "-> 4 threads"))
		fail_msg("reason: %s", reason);
}

/* ---- the watermark: kswapd woke too late ---- */

/* A sample of @l with @hits early kswapd wake-ups a second. */
static int step_hits(struct ctl *c, struct load l, double hits, int64_t wmark)
{
	fill(c, 1, l, NO_KNOB);
	assert_int_equal(reclaim_adapt_sample_set(c->s, RECLAIM_ADAPT_LOW_WMARK_HITS, hits), 0);
	if (wmark != NO_KNOB)
		assert_int_equal(reclaim_adapt_sample_set_watermark(c->s, wmark), 0);
	return reclaim_adapt_step(c->a, c->s);
}

/* Direct reclaim while kswapd, at 60%, is not saturated. */
static const struct load LATE = {{30, 60}, 30, 0, 20};

static void wm_new(struct ctl *c, int64_t threads, int64_t max)
{
	ctl_new(c, threads, max);
	assert_int_equal(reclaim_adapt_watermark(c->a), -ENODATA);
	assert_int_equal(reclaim_adapt_add_watermark(c->a, 10), 0);
	assert_int_equal(reclaim_adapt_watermark(c->a), 10);
	assert_null(reclaim_adapt_changed(c->a));
}

static void test_watermark_woke_late(void **state)
{
	const struct reclaim_knob *wsf = reclaim_knob_by_id(RECLAIM_KNOB_WATERMARK_SCALE_FACTOR);
	struct ctl c;

	wm_new(&c, 1, 4);
	/* the window: 29 samples keep, the 30th raises a step; the threads stay */
	for (int i = 0; i < 29; i++)
		assert_int_equal(step_hits(&c, LATE, 5, NO_KNOB), RECLAIM_ADAPT_KEEP);
	assert_int_equal(step_hits(&c, LATE, 5, NO_KNOB), RECLAIM_ADAPT_CHANGE);
	assert_ptr_equal(reclaim_adapt_changed(c.a), wsf);
	assert_int_equal(reclaim_adapt_watermark(c.a), 20);
	assert_int_equal(reclaim_adapt_threads(c.a), 1);
	assert_reason(&c, "kswapd woke too late: 5 early wake-ups/s (kswapd_low_wmark_hit_quickly) "
			  "and 30 direct reclaims/s for 30 s, kswapd threads at 60% CPU each (not "
			  "saturated) -> watermark_scale_factor 20");
	/* a write that failed: back to 10 */
	assert_int_equal(reclaim_adapt_rollback(c.a), 0);
	assert_int_equal(reclaim_adapt_watermark(c.a), 10);
	assert_int_equal(reclaim_adapt_threads(c.a), 1);
	/* the next window waits for the cooldown (60 s) */
	for (int i = 0; i < 30; i++)
		assert_int_equal(step_hits(&c, LATE, 5, NO_KNOB), RECLAIM_ADAPT_KEEP);
	assert_reason(&c, "kswapd woke too late: 5 early wake-ups/s (kswapd_low_wmark_hit_quickly) "
			  "and 30 direct reclaims/s for 30 s, kswapd threads at 60% CPU each (not "
			  "saturated); waiting for the cooldown (30 of 60 s)");
	ctl_free(&c);
}

static void test_watermark_window(void **state)
{
	struct ctl c;

	wm_new(&c, 1, 4);
	/* averages below the thresholds (0.5 early wake-ups/s): a window, judged, starts again */
	for (int i = 0; i < 60; i++)
		assert_int_equal(step_hits(&c, LATE, 0.5, NO_KNOB), RECLAIM_ADAPT_KEEP);
	/* a sample without reclaim, or one saturated, ends a window that met them */
	for (int i = 0; i < 29; i++)
		assert_int_equal(step_hits(&c, LATE, 5, NO_KNOB), RECLAIM_ADAPT_KEEP);
	assert_int_equal(step_hits(&c, QUIET, 0, NO_KNOB), RECLAIM_ADAPT_KEEP);
	for (int i = 0; i < 29; i++)
		assert_int_equal(step_hits(&c, LATE, 5, NO_KNOB), RECLAIM_ADAPT_KEEP);
	assert_int_equal(step_hits(&c, SATURATED, 5, NO_KNOB), RECLAIM_ADAPT_KEEP);
	/* bursts: a sample with early wake-ups and none without direct reclaim still counts */
	for (int i = 0; i < 29; i++) {
		struct load l = LATE;

		l.allocstall = i % 2 ? 60 : 0;
		assert_int_equal(step_hits(&c, l, 5, NO_KNOB), RECLAIM_ADAPT_KEEP);
	}
	assert_int_equal(step_hits(&c, LATE, 5, NO_KNOB), RECLAIM_ADAPT_CHANGE);
	assert_int_equal(reclaim_adapt_watermark(c.a), 20);
	ctl_free(&c);
}

static void test_watermark_saturated(void **state)
{
	struct ctl c;

	/* saturated kswapd: a thread, never the watermark */
	wm_new(&c, 1, 4);
	for (int i = 0; i < 29; i++)
		assert_int_equal(step_hits(&c, SATURATED, 50, NO_KNOB), RECLAIM_ADAPT_KEEP);
	assert_int_equal(step_hits(&c, SATURATED, 50, NO_KNOB), RECLAIM_ADAPT_CHANGE);
	assert_ptr_equal(reclaim_adapt_changed(c.a),
			 reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS));
	assert_int_equal(reclaim_adapt_threads(c.a), 2);
	assert_int_equal(reclaim_adapt_watermark(c.a), 10);
	ctl_free(&c);

	/* a kernel without kswapd_threads: saturated is said, and nothing moves */
	wm_new(&c, 0, 0);
	assert_int_equal(reclaim_adapt_set_min(c.a, 1), -EOPNOTSUPP);
	assert_int_equal(reclaim_adapt_set_bounds(c.a, 0, 0), 0);
	for (int i = 0; i < 40; i++)
		assert_int_equal(step_hits(&c, SATURATED, 50, NO_KNOB), RECLAIM_ADAPT_KEEP);
	assert_reason(&c, "kswapd saturated: node 1's kswapd at 97% CPU for 40 s, 4,100 direct "
			  "reclaims/s; the kernel has no vm.kswapd_threads to add a thread, and an "
			  "earlier wake-up would not help a busy kswapd");
	assert_int_equal(reclaim_adapt_watermark(c.a), 10);
	/* its watching reason names no threads count */
	assert_int_equal(step_hits(&c, NORMAL, 2, NO_KNOB), RECLAIM_ADAPT_KEEP);
	assert_reason(&c, "node 1's kswapd threads at 60% CPU each, 5 direct reclaims/s; "
			  "watermark_scale_factor 10, 2 early kswapd wake-ups/s");
	ctl_free(&c);
}

static void test_watermark_bounds_and_down(void **state)
{
	struct ctl c;

	wm_new(&c, 0, 0);
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_COOLDOWN, 0), 0);
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_WMARK_MAX, 25), 0);
	/* 10 -> 20 -> 25 (the step stops at wmark-max), then no more */
	for (int64_t want = 20; want <= 25; want += 5) {
		for (int i = 0; i < 29; i++)
			assert_int_equal(step_hits(&c, LATE, 5, NO_KNOB), RECLAIM_ADAPT_KEEP);
		assert_int_equal(step_hits(&c, LATE, 5, NO_KNOB), RECLAIM_ADAPT_CHANGE);
		assert_int_equal(reclaim_adapt_watermark(c.a), want);
	}
	for (int i = 0; i < 30; i++)
		assert_int_equal(step_hits(&c, LATE, 5, NO_KNOB), RECLAIM_ADAPT_KEEP);
	assert_reason(&c,
		      "kswapd woke too late: 5 early wake-ups/s (kswapd_low_wmark_hit_quickly) "
		      "and 30 direct reclaims/s for 30 s, kswapd threads at 60% CPU each (not "
		      "saturated), but watermark_scale_factor 25 is the most allowed (wmark-max)");
	/* quiet: 25 -> 15 -> 10 (its baseline, the lowest), then no more */
	for (int64_t want = 15; want >= 10; want -= 5) {
		for (int i = 0; i < 119; i++)
			assert_int_equal(step_hits(&c, QUIET, 0, NO_KNOB), RECLAIM_ADAPT_KEEP);
		assert_int_equal(step_hits(&c, QUIET, 0, NO_KNOB), RECLAIM_ADAPT_CHANGE);
		assert_int_equal(reclaim_adapt_watermark(c.a), want);
	}
	assert_reason(&c, "quiet: kswapd threads below 40% CPU each and 0 direct reclaims/s for "
			  "120 s -> watermark_scale_factor 10");
	for (int i = 0; i < 300; i++)
		assert_int_equal(step_hits(&c, QUIET, 0, NO_KNOB), RECLAIM_ADAPT_KEEP);
	ctl_free(&c);
}

static void test_watermark_down_first(void **state)
{
	struct ctl c;

	/* both up: the watermark comes down first, then the threads */
	wm_new(&c, 1, 4);
	assert_int_equal(reclaim_adapt_set_param(c.a, RECLAIM_ADAPT_COOLDOWN, 0), 0);
	for (int i = 0; i < 30; i++)
		step_hits(&c, SATURATED, 5, NO_KNOB);
	assert_int_equal(reclaim_adapt_threads(c.a), 2);
	for (int i = 0; i < 30; i++)
		step_hits(&c, LATE, 5, NO_KNOB);
	assert_int_equal(reclaim_adapt_watermark(c.a), 20);
	for (int i = 0; i < 120; i++)
		step_hits(&c, QUIET, 0, NO_KNOB);
	assert_int_equal(reclaim_adapt_watermark(c.a), 10);
	assert_int_equal(reclaim_adapt_threads(c.a), 2);
	for (int i = 0; i < 120; i++)
		step_hits(&c, QUIET, 0, NO_KNOB);
	assert_int_equal(reclaim_adapt_threads(c.a), 1);
	ctl_free(&c);
}

static void test_watermark_handoff(void **state)
{
	const struct reclaim_knob *wsf = reclaim_knob_by_id(RECLAIM_KNOB_WATERMARK_SCALE_FACTOR);
	struct ctl c;

	wm_new(&c, 1, 4);
	assert_int_equal(step_hits(&c, NORMAL, 0, 10), RECLAIM_ADAPT_KEEP);
	assert_int_equal(step_hits(&c, NORMAL, 0, 50), RECLAIM_ADAPT_HANDOFF);
	assert_ptr_equal(reclaim_adapt_changed(c.a), wsf);
	assert_true(reclaim_adapt_handed_off(c.a));
	assert_reason(&c, "watermark_scale_factor is 50, not the 10 adapt set: someone else "
			  "changed it; adapt leaves both knobs alone until SIGHUP or a restart");
	for (int i = 0; i < 40; i++)
		assert_int_equal(step_hits(&c, LATE, 5, 50), RECLAIM_ADAPT_KEEP);
	assert_int_equal(reclaim_adapt_watermark(c.a), 50);
	/* SIGHUP: resumed at 50, the cooldown first */
	assert_int_equal(reclaim_adapt_resume(c.a, 1), 0);
	assert_int_equal(reclaim_adapt_resume_watermark(c.a, 50), 0);
	assert_false(reclaim_adapt_handed_off(c.a));
	assert_int_equal(reclaim_adapt_resume_watermark(c.a, 0), -ERANGE);
	ctl_free(&c);

	ctl_new(&c, 1, 4);
	assert_int_equal(reclaim_adapt_resume_watermark(c.a, 10), -ENODATA);
	assert_int_equal(reclaim_adapt_add_watermark(c.a, 3001), -ERANGE);
	ctl_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_step_up_after_window),
	    cmocka_unit_test(test_watermark_woke_late),
	    cmocka_unit_test(test_watermark_window),
	    cmocka_unit_test(test_watermark_saturated),
	    cmocka_unit_test(test_watermark_bounds_and_down),
	    cmocka_unit_test(test_watermark_down_first),
	    cmocka_unit_test(test_watermark_handoff),
	    cmocka_unit_test(test_reason_p99),
	    cmocka_unit_test(test_short_burst),
	    cmocka_unit_test(test_step_down),
	    cmocka_unit_test(test_default_max),
	    cmocka_unit_test(test_at_max),
	    cmocka_unit_test(test_bounds_refused),
	    cmocka_unit_test(test_set_bounds),
	    cmocka_unit_test(test_busy_cpus),
	    cmocka_unit_test(test_cooldown),
	    cmocka_unit_test(test_handoff),
	    cmocka_unit_test(test_rollback),
	    cmocka_unit_test(test_params),
	    cmocka_unit_test(test_plant),
	    cmocka_unit_test(test_sampler_cpus),
	    cmocka_unit_test(test_fill_node_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
