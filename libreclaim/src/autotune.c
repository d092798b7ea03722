// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The knob rules of autotune: a value for vm.kswapd_threads and
 * vm.max_direct_reclaimers from the CPUs of the machine's NUMA nodes, each
 * with a one-line reason that names the facts it came from (the rules of
 * the knobs every kernel has are autotune-stock.c's). plan.c puts them in
 * a plan; reclaim_knob_recommend() gives one rule's value alone.
 *
 * Both knobs are global but act per node, so each rule computes a value for
 * every node that has both CPUs and memory and then picks one:
 *
 * - kswapd_threads: ceil(CPUs / 16), at most a quarter of the node's CPUs
 *   (at least 1), at most the knob's maximum (16). One thread per 16 CPUs
 *   reproduces the published measurement (nodes of 52 CPUs, 26 cores with
 *   2 threads each: 4 threads per node gave the most throughput; 52 / 16 =
 *   3.25, so 4) and keeps the kernel's single thread on every node of up to
 *   16 CPUs (a node of 2 CPUs: 1). The quarter keeps background reclaim from
 *   taking more than a quarter of a node's CPUs when all its threads run.
 *   The smallest per-node value wins: a larger one would break that bound
 *   on the smaller node.
 * - max_direct_reclaimers: round(3/4 x CPUs), within 1..16. Past a few
 *   tasks reclaiming on one node they mostly contend for the node's LRU
 *   locks: on 4 CPUs per node, 3 reclaimers did best and no limit was 6
 *   times slower; 16 is where contention dominates whatever the size. The
 *   largest per-node value wins: a smaller node then has a limit above its
 *   CPUs, that is about no limit (the kernel's default), while the smallest
 *   value would throttle the larger nodes far below their share.
 *
 * Memory-only nodes (CXL expanders, say) do not count: they have no CPUs
 * whose number would say anything, and their kswapd threads run on any CPU.
 * Nodes with CPUs but no memory have no kswapd and do not count either.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "internal.h"

#define CPUS_PER_KSWAPD RECLAIM_AUTOTUNE_CPUS_PER_KSWAPD
#define THROTTLE_MIN	RECLAIM_AUTOTUNE_THROTTLE_MIN
#define THROTTLE_MAX	RECLAIM_AUTOTUNE_THROTTLE_MAX
_Static_assert(RECLAIM_CPUS_PER_KSWAPD_MIN == 4, "the reasons say a quarter of a node's CPUs");

/* What the rules look at: the nodes that count, those that do not, and why. */
struct facts {
	bool numa;
	size_t mem_nodes; /* nodes with memory: each runs the kswapd threads */
	size_t n;	  /* nodes with CPUs and memory */
	int *ids;
	size_t *cpus;
	int64_t *values; /* the rule's value for each of them */
	size_t nmemonly;
	int *memonly;
	size_t ncpuonly;
	int *cpuonly;
	size_t online_cpus;
};

static void facts_free(struct facts *f)
{
	free(f->ids);
	free(f->cpus);
	free(f->values);
	free(f->memonly);
	free(f->cpuonly);
}

static int facts_read(const struct reclaim_topology *topo, struct facts *f)
{
	size_t count = reclaim_topology_node_count(topo);

	*f = (struct facts){.numa = reclaim_topology_is_numa(topo)};
	reclaim_topology_cpus(topo, &f->online_cpus);
	f->ids = calloc(count + 1, sizeof(*f->ids));
	f->cpus = calloc(count + 1, sizeof(*f->cpus));
	f->values = calloc(count + 1, sizeof(*f->values));
	f->memonly = calloc(count + 1, sizeof(*f->memonly));
	f->cpuonly = calloc(count + 1, sizeof(*f->cpuonly));
	if (!f->ids || !f->cpus || !f->values || !f->memonly || !f->cpuonly)
		return -ENOMEM;
	for (size_t i = 0; i < count; i++) {
		const struct reclaim_node *node = reclaim_topology_node(topo, i);
		bool memory = reclaim_node_has_memory(node);
		size_t cpus;

		reclaim_node_cpus(node, &cpus);
		if (!reclaim_node_is_online(node))
			continue;
		f->mem_nodes += memory;
		if (memory && cpus > 0) {
			f->ids[f->n] = reclaim_node_id(node);
			f->cpus[f->n++] = cpus;
		} else if (memory) {
			f->memonly[f->nmemonly++] = reclaim_node_id(node);
		} else if (cpus > 0) {
			f->cpuonly[f->ncpuonly++] = reclaim_node_id(node);
		}
	}
	return 0;
}

/* Node ids (sorted) as the kernel writes node lists: "0-1,33". */
static void print_ids(FILE *out, const int *ids, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		fprintf(out, "%s%d", i ? "," : "", ids[i]);
		if (j > i)
			fprintf(out, "-%d", ids[j]);
		i = j + 1;
	}
}

/* "node 3" or "nodes 0-1,3" */
static void print_nodes(FILE *out, const int *ids, size_t n)
{
	fputs(n == 1 ? "node " : "nodes ", out);
	print_ids(out, ids, n);
}

/* The counted nodes with exactly @cpus CPUs, into @ids; their number. */
static size_t nodes_with(const struct facts *f, size_t cpus, int *ids)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		if (f->cpus[i] == cpus)
			ids[n++] = f->ids[i];
	return n;
}

/*
 * The CPUs of the nodes that count: "52 CPUs per node on nodes 0-1",
 * "52 CPUs on node 0", "52 CPUs on node 0, 4 on nodes 1-2" (most CPUs
 * first), or for more than 4 sizes "4 to 52 CPUs per node on nodes 0-15".
 */
static int print_cpus(FILE *out, const struct facts *f)
{
	size_t groups = 0, lo = SIZE_MAX, hi = 0, prev = SIZE_MAX;
	int *ids = calloc(f->n + 1, sizeof(*ids));

	if (!ids)
		return -ENOMEM;
	for (size_t i = 0; i < f->n; i++) {
		bool seen = false;

		for (size_t j = 0; j < i; j++)
			seen |= f->cpus[j] == f->cpus[i];
		groups += !seen;
		lo = f->cpus[i] < lo ? f->cpus[i] : lo;
		hi = f->cpus[i] > hi ? f->cpus[i] : hi;
	}
	if (groups > 4) {
		fprintf(out, "%zu to %zu CPUs per node on ", lo, hi);
		print_nodes(out, f->ids, f->n);
		free(ids);
		return 0;
	}
	/* each size, from the most CPUs down */
	for (size_t g = 0; g < groups; g++) {
		size_t size = 0, n;

		for (size_t i = 0; i < f->n; i++)
			if (f->cpus[i] < prev && f->cpus[i] > size)
				size = f->cpus[i];
		n = nodes_with(f, size, ids);
		if (g == 0)
			fprintf(out, "%zu CPU%s%s on ", size, size == 1 ? "" : "s",
				n > 1 ? " per node" : "");
		else
			fprintf(out, ", %zu on ", size);
		print_nodes(out, ids, n);
		prev = size;
	}
	free(ids);
	return 0;
}

/* "; node 2 sets it: ..." when the nodes' values differ; @chosen is the value taken. */
static int print_deciders(FILE *out, const struct facts *f, int64_t chosen, const char *why)
{
	int *ids = calloc(f->n + 1, sizeof(*ids));
	size_t n = 0;

	if (!ids)
		return -ENOMEM;
	for (size_t i = 0; i < f->n; i++)
		if (f->values[i] == chosen)
			ids[n++] = f->ids[i];
	if (n < f->n) {
		fputs("; ", out);
		print_nodes(out, ids, n);
		fprintf(out, " set%s it: %s", n == 1 ? "s" : "", why);
	}
	free(ids);
	return 0;
}

/* The nodes that do not count, if any. */
static void print_excluded(FILE *out, const struct facts *f, bool kswapd)
{
	if (f->nmemonly) {
		fputs("; memory-only ", out);
		print_nodes(out, f->memonly, f->nmemonly);
		fprintf(out, " %s not count", f->nmemonly == 1 ? "does" : "do");
		if (kswapd)
			fprintf(out, ": %s kswapd threads run on any CPU",
				f->nmemonly == 1 ? "its" : "their");
	}
	if (f->ncpuonly) {
		fputs("; CPU-only ", out);
		print_nodes(out, f->cpuonly, f->ncpuonly);
		fprintf(out, " %s not count", f->ncpuonly == 1 ? "does" : "do");
		if (kswapd)
			fputs(": no memory, no kswapd", out);
	}
}

/*
 * The facts part of a reason, and the CPUs to use when no node counts
 * (*fallback, else 0).
 */
static int print_facts(FILE *out, const struct facts *f, size_t *fallback)
{
	*fallback = 0;
	if (f->n > 0 && !f->numa) {
		fprintf(out, "%zu CPU%s, no NUMA (one node)", f->cpus[0],
			f->cpus[0] == 1 ? "" : "s");
		return 0;
	}
	if (f->n > 0)
		return print_cpus(out, f);
	*fallback = f->online_cpus ? f->online_cpus : 1;
	fputs("no node has both CPUs and memory: ", out);
	if (f->online_cpus)
		fprintf(out, "%zu online CPU%s", f->online_cpus, f->online_cpus == 1 ? "" : "s");
	else
		fputs("no online CPU found, counted as 1", out);
	return 0;
}

/* @capped: set when the kernel's maximum, not the rule, decided. */
static int64_t threads_for(size_t cpus, int64_t max, bool *capped)
{
	int64_t v = (int64_t)((cpus + CPUS_PER_KSWAPD - 1) / CPUS_PER_KSWAPD);
	int64_t quarter = (int64_t)(cpus / RECLAIM_CPUS_PER_KSWAPD_MIN);

	if (quarter < 1)
		quarter = 1;
	if (v > quarter)
		v = quarter;
	if (v < 1)
		v = 1;
	*capped = v > max;
	return *capped ? max : v;
}

static int64_t throttle_for(size_t cpus)
{
	/* round(3/4 x cpus), halves up */
	int64_t v =
	    ((int64_t)cpus * RECLAIM_AUTOTUNE_THROTTLE_NUM + RECLAIM_AUTOTUNE_THROTTLE_DEN / 2) /
	    RECLAIM_AUTOTUNE_THROTTLE_DEN;

	if (v < THROTTLE_MIN)
		v = THROTTLE_MIN;
	return v > THROTTLE_MAX ? THROTTLE_MAX : v;
}

/* Ends a reason in @out (a memstream on @text) and hands it over, or frees it. */
static int finish(FILE *out, char **text, int r, char **reason)
{
	if (fclose(out) != 0 && r == 0)
		r = -ENOMEM;
	if (r < 0 || !reason) {
		free(*text);
		return r;
	}
	*reason = *text;
	return 0;
}

static int rule_threads(const struct reclaim_knob *k, const struct facts *f, int64_t *value,
			char **reason)
{
	int64_t max = reclaim_knob_max(k), v = 0;
	size_t fallback, len;
	bool capped = false;
	char *text = NULL;
	FILE *out = open_memstream(&text, &len);
	int r;

	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < f->n; i++) {
		bool c;

		f->values[i] = threads_for(f->cpus[i], max, &c);
		if (i == 0 || f->values[i] < v) {
			v = f->values[i];
			capped = c;
		}
	}
	r = print_facts(out, f, &fallback);
	if (fallback)
		v = threads_for(fallback, max, &capped);
	fprintf(out,
		" -> %" PRId64 " kswapd thread%s%s (1 per %d CPUs, at most a quarter of a node's "
		"CPUs",
		v, v == 1 ? "" : "s", f->mem_nodes > 1 ? " per node" : "", CPUS_PER_KSWAPD);
	if (capped)
		fprintf(out, " and %" PRId64 ", the kernel's maximum", max);
	if (r == 0 && !fallback)
		r = print_deciders(out, f, v, "the knob is global, so the smallest node's value");
	print_excluded(out, f, true);
	fputc(')', out);
	*value = v;
	return finish(out, &text, r, reason);
}

static int rule_throttle(const struct facts *f, int64_t *value, char **reason)
{
	size_t fallback, len;
	char *text = NULL;
	FILE *out = open_memstream(&text, &len);
	int64_t v = 0;
	int r;

	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < f->n; i++) {
		f->values[i] = throttle_for(f->cpus[i]);
		if (f->values[i] > v)
			v = f->values[i];
	}
	r = print_facts(out, f, &fallback);
	if (fallback)
		v = throttle_for(fallback);
	fprintf(out,
		" -> %" PRId64 " direct reclaimer%s at once%s (%d/%d of a node's CPUs, rounded, "
		"within %d..%d",
		v, v == 1 ? "" : "s", f->mem_nodes > 1 ? " per node" : "",
		RECLAIM_AUTOTUNE_THROTTLE_NUM, RECLAIM_AUTOTUNE_THROTTLE_DEN, THROTTLE_MIN,
		THROTTLE_MAX);
	if (r == 0 && !fallback)
		r = print_deciders(out, f, v,
				   "the knob is global, and the largest node's value throttles no "
				   "node below its share");
	print_excluded(out, f, false);
	fputc(')', out);
	*value = v;
	return finish(out, &text, r, reason);
}

RECLAIM_EXPORT bool reclaim_knob_has_recommendation(const struct reclaim_knob *knob)
{
	assert_return(knob, false);
	return reclaim_knob_is_threads(knob) ||
	       knob == reclaim_knob_by_id(RECLAIM_KNOB_MAX_DIRECT_RECLAIMERS) ||
	       reclaim_stock_has_rule(knob);
}

RECLAIM_EXPORT int reclaim_knob_recommend(struct reclaim_ctx *ctx, const struct reclaim_knob *knob,
					  const struct reclaim_topology *topo, int64_t *value,
					  char **reason)
{
	struct facts f;
	int64_t v = 0;
	int r;

	assert_return(ctx && knob && topo && value, -EINVAL);
	reclaim_error_reset(ctx);
	if (reason)
		*reason = NULL;
	if (!reclaim_knob_has_recommendation(knob))
		return reclaim_error(ctx, EOPNOTSUPP, "there is no automatic value for %s",
				     reclaim_knob_name(knob));
	if (reclaim_stock_has_rule(knob)) {
		r = reclaim_stock_rule(ctx, knob, &v, reason);
		if (r < 0)
			return reclaim_error(ctx, -r, "cannot compute %s: %s",
					     reclaim_knob_name(knob), strerror(-r));
		*value = v;
		return 0;
	}
	r = facts_read(topo, &f);
	if (r == 0 && reclaim_knob_is_threads(knob))
		r = rule_threads(knob, &f, &v, reason);
	else if (r == 0)
		r = rule_throttle(&f, &v, reason);
	facts_free(&f);
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot compute %s: %s", reclaim_knob_name(knob),
				     strerror(-r));
	*value = v;
	return 0;
}
