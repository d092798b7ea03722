// SPDX-License-Identifier: LGPL-2.1-or-later
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <string.h>

#include "internal.h"

#define NODE_DIR "/sys/devices/system/node"

struct reclaim_node {
	int id;
	bool online, has_memory, has_cpu;
	unsigned int *cpus;
	size_t ncpus;
	uint64_t mem_total_kb, mem_free_kb;
	int *distance;
	size_t ndistance;
	struct reclaim_zone *zones; /* points into the topology's zone array */
	size_t nzones;
};

struct reclaim_topology {
	int refcount;
	bool numa;
	struct reclaim_node *nodes;
	size_t nnodes;
	unsigned int *cpus;
	size_t ncpus;
	struct reclaim_zone *zones;
	size_t nzones;
};

static void topology_free(struct reclaim_topology *t)
{
	for (size_t i = 0; i < t->nnodes; i++) {
		free(t->nodes[i].cpus);
		free(t->nodes[i].distance);
	}
	free(t->nodes);
	free(t->cpus);
	reclaim_zones_free(t->zones, t->nzones);
	free(t);
}

/* @line: the first bad line of a multi-line file, 0 for a one-line file. */
static int malformed(struct reclaim_ctx *ctx, const char *path, size_t line, int r)
{
	if (r == -ENOMEM)
		return r;
	if (line)
		return reclaim_error(ctx, EINVAL, "%s:%zu: malformed line", path, line);
	return reclaim_error(ctx, EINVAL, "%s: malformed", path);
}

/* Reads a CPU list file; *found is false (and the list empty) if it does not exist. */
static int read_cpulist(struct reclaim_ctx *ctx, const char *path, bool cpumap, unsigned int **cpus,
			size_t *n, bool *found)
{
	_cleanup_free_ char *text = NULL;
	int r;

	*cpus = NULL;
	*n = 0;
	r = reclaim_read_optional(ctx, path, &text);
	*found = text != NULL;
	if (r < 0 || !text)
		return r;
	r = cpumap ? reclaim_cpumap_parse(text, cpus, n) : reclaim_cpulist_parse(text, cpus, n);
	return r < 0 ? malformed(ctx, path, 0, r) : 0;
}

static bool cpulist_has(const unsigned int *cpus, size_t n, unsigned int cpu)
{
	for (size_t i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return true;
	return false;
}

static int read_distance(struct reclaim_ctx *ctx, struct reclaim_node *node, const char *path)
{
	_cleanup_free_ char *text = NULL;
	char *p, *end;
	int r;

	r = reclaim_read_optional(ctx, path, &text);
	if (r < 0 || !text)
		return r;
	for (p = text;;) {
		long v;
		int *d;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno || v < 0 || v > 255 ||
		    (*end && !isspace((unsigned char)*end)))
			return malformed(ctx, path, 0, -EINVAL);
		d = realloc(node->distance, (node->ndistance + 1) * sizeof(*d));
		if (!d)
			return -ENOMEM;
		node->distance = d;
		d[node->ndistance++] = (int)v;
		p = end;
	}
	return 0;
}

static int read_meminfo(struct reclaim_ctx *ctx, struct reclaim_node *node, const char *path)
{
	_cleanup_free_ char *text = NULL;
	size_t line = 0;
	int r;

	r = reclaim_read_optional(ctx, path, &text);
	if (r < 0 || !text)
		return r;
	r = reclaim_meminfo_field(text, "MemTotal", &node->mem_total_kb, &line);
	if (r == 0)
		r = reclaim_meminfo_field(text, "MemFree", &node->mem_free_kb, &line);
	if (r == -ENOENT)
		return reclaim_error(ctx, EINVAL, "%s: no MemTotal or MemFree", path);
	return r < 0 ? malformed(ctx, path, line, r) : 0;
}

static int load_node(struct reclaim_ctx *ctx, struct reclaim_node *node)
{
	char dir[64], path[96];
	bool found;
	int r;

	snprintf(dir, sizeof(dir), NODE_DIR "/node%d", node->id);
	snprintf(path, sizeof(path), "%s/cpulist", dir);
	r = read_cpulist(ctx, path, false, &node->cpus, &node->ncpus, &found);
	if (r == 0 && !found) {
		snprintf(path, sizeof(path), "%s/cpumap", dir);
		r = read_cpulist(ctx, path, true, &node->cpus, &node->ncpus, &found);
	}
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s/meminfo", dir);
	r = read_meminfo(ctx, node, path);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s/distance", dir);
	return read_distance(ctx, node, path);
}

static int cmp_node(const void *a, const void *b)
{
	const struct reclaim_node *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int parse_node_name(const char *name)
{
	const char *p;
	long id;

	if (strncmp(name, "node", 4) != 0 || !isdigit((unsigned char)name[4]))
		return -1;
	for (p = name + 4; *p; p++)
		if (!isdigit((unsigned char)*p))
			return -1;
	id = strtol(name + 4, NULL, 10);
	return id > 65535 ? -1 : (int)id;
}

static int list_nodes(struct reclaim_ctx *ctx, struct reclaim_topology *t)
{
	struct dirent *de;
	DIR *d = reclaim_opendir(ctx, NODE_DIR);

	if (!d)
		return reclaim_error(ctx, errno, "cannot read %s: %s", NODE_DIR, strerror(errno));
	while ((de = readdir(d))) {
		int id = parse_node_name(de->d_name);
		struct reclaim_node *n;

		if (id < 0)
			continue;
		n = realloc(t->nodes, (t->nnodes + 1) * sizeof(*n));
		if (!n) {
			closedir(d);
			return -ENOMEM;
		}
		t->nodes = n;
		memset(&n[t->nnodes], 0, sizeof(*n));
		n[t->nnodes++].id = id;
	}
	closedir(d);
	if (t->nnodes > 1)
		qsort(t->nodes, t->nnodes, sizeof(*t->nodes), cmp_node);
	return 0;
}

enum node_flag { NODE_ONLINE, NODE_HAS_MEMORY, NODE_HAS_CPU };

static bool *node_flag(struct reclaim_node *n, enum node_flag f)
{
	switch (f) {
	case NODE_ONLINE:
		return &n->online;
	case NODE_HAS_MEMORY:
		return &n->has_memory;
	default:
		return &n->has_cpu;
	}
}

/* Sets a flag from a node mask file (online, has_memory, has_cpu) where it exists. */
static int node_mask(struct reclaim_ctx *ctx, struct reclaim_topology *t, const char *name,
		     enum node_flag flag)
{
	_cleanup_free_ unsigned int *ids = NULL;
	char path[96];
	bool found;
	size_t n;
	int r;

	snprintf(path, sizeof(path), NODE_DIR "/%s", name);
	r = read_cpulist(ctx, path, false, &ids, &n, &found);
	if (r < 0 || !found)
		return r;
	for (size_t i = 0; i < t->nnodes; i++)
		*node_flag(&t->nodes[i], flag) = cpulist_has(ids, n, (unsigned)t->nodes[i].id);
	return 0;
}

static int load_numa(struct reclaim_ctx *ctx, struct reclaim_topology *t)
{
	int r;

	r = list_nodes(ctx, t);
	if (r < 0)
		return r;
	for (size_t i = 0; i < t->nnodes; i++) {
		r = load_node(ctx, &t->nodes[i]);
		if (r < 0)
			return r;
		/* Defaults for kernels without the has_* files. */
		t->nodes[i].online = true;
		t->nodes[i].has_memory = t->nodes[i].mem_total_kb > 0;
		t->nodes[i].has_cpu = t->nodes[i].ncpus > 0;
	}
	r = node_mask(ctx, t, "online", NODE_ONLINE);
	if (r == 0)
		r = node_mask(ctx, t, "has_memory", NODE_HAS_MEMORY);
	if (r == 0)
		r = node_mask(ctx, t, "has_cpu", NODE_HAS_CPU);
	return r;
}

/* Without NUMA directories: one node 0 with every online CPU and all memory. */
static int load_flat(struct reclaim_ctx *ctx, struct reclaim_topology *t)
{
	struct reclaim_node *n = calloc(1, sizeof(*n));
	int r;

	if (!n)
		return -ENOMEM;
	t->nodes = n;
	t->nnodes = 1;
	n->online = true;
	r = read_meminfo(ctx, n, "/proc/meminfo");
	if (r < 0)
		return r;
	n->has_memory = n->mem_total_kb > 0;
	n->cpus = malloc(t->ncpus * sizeof(*n->cpus) + 1);
	if (!n->cpus)
		return -ENOMEM;
	if (t->ncpus)
		memcpy(n->cpus, t->cpus, t->ncpus * sizeof(*n->cpus));
	n->ncpus = t->ncpus;
	n->has_cpu = n->ncpus > 0;
	return 0;
}

static int load_zones(struct reclaim_ctx *ctx, struct reclaim_topology *t)
{
	static const char path[] = "/proc/zoneinfo";
	_cleanup_free_ char *text = NULL;
	size_t line = 0;
	int r;

	r = reclaim_read_optional(ctx, path, &text);
	if (r < 0 || !text)
		return r;
	r = reclaim_zoneinfo_parse(text, &t->zones, &t->nzones, &line);
	if (r < 0)
		return malformed(ctx, path, line, r);
	/* Zones come grouped by node, in node order. */
	for (size_t i = 0; i < t->nzones; i++) {
		struct reclaim_node *n = reclaim_topology_node_by_id(t, t->zones[i].node);

		if (!n)
			continue;
		if (!n->zones)
			n->zones = &t->zones[i];
		else if (&n->zones[n->nzones] != &t->zones[i])
			return malformed(ctx, path, 0, -EINVAL);
		n->nzones++;
	}
	return 0;
}

static int load_cpus(struct reclaim_ctx *ctx, struct reclaim_topology *t)
{
	bool found;
	int r;

	r = read_cpulist(ctx, "/sys/devices/system/cpu/online", false, &t->cpus, &t->ncpus, &found);
	if (r < 0 || found)
		return r;
	if (!t->numa)
		return read_cpulist(ctx, "/sys/devices/system/cpu/present", false, &t->cpus,
				    &t->ncpus, &found);
	/* No online file: the union of the nodes' CPUs. */
	for (size_t i = 0; i < t->nnodes; i++)
		t->ncpus += t->nodes[i].ncpus;
	t->cpus = malloc(t->ncpus * sizeof(*t->cpus) + 1);
	if (!t->cpus)
		return -ENOMEM;
	t->ncpus = 0;
	for (size_t i = 0; i < t->nnodes; i++) {
		if (t->nodes[i].ncpus)
			memcpy(t->cpus + t->ncpus, t->nodes[i].cpus,
			       t->nodes[i].ncpus * sizeof(*t->cpus));
		t->ncpus += t->nodes[i].ncpus;
	}
	/* Nodes may interleave CPU numbers (node 0: 0,2,4; node 1: 1,3,5). */
	reclaim_cpus_normalize(t->cpus, &t->ncpus);
	return 0;
}

RECLAIM_EXPORT int reclaim_topology_new(struct reclaim_ctx *ctx, struct reclaim_topology **ret)
{
	struct reclaim_topology *t;
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->refcount = 1;
	t->numa = reclaim_exists(ctx, NODE_DIR);
	if (t->numa) {
		r = load_numa(ctx, t);
		if (r == 0)
			r = load_cpus(ctx, t);
	} else {
		r = load_cpus(ctx, t);
		if (r == 0)
			r = load_flat(ctx, t);
	}
	if (r == 0)
		r = load_zones(ctx, t);
	if (r < 0) {
		topology_free(t);
		return r;
	}
	*ret = t;
	return 0;
}

RECLAIM_EXPORT struct reclaim_topology *reclaim_topology_ref(struct reclaim_topology *t)
{
	if (t)
		t->refcount++;
	return t;
}

RECLAIM_EXPORT struct reclaim_topology *reclaim_topology_unref(struct reclaim_topology *t)
{
	if (t && --t->refcount == 0)
		topology_free(t);
	return NULL;
}

RECLAIM_EXPORT bool reclaim_topology_is_numa(const struct reclaim_topology *t)
{
	assert_return(t, false);
	return t->numa;
}

RECLAIM_EXPORT size_t reclaim_topology_node_count(const struct reclaim_topology *t)
{
	assert_return(t, 0);
	return t->nnodes;
}

RECLAIM_EXPORT struct reclaim_node *reclaim_topology_node(const struct reclaim_topology *t,
							  size_t idx)
{
	assert_return(t && idx < t->nnodes, NULL);
	return &t->nodes[idx];
}

RECLAIM_EXPORT struct reclaim_node *reclaim_topology_node_by_id(const struct reclaim_topology *t,
								int id)
{
	assert_return(t, NULL);
	for (size_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].id == id)
			return &t->nodes[i];
	return NULL;
}

RECLAIM_EXPORT const unsigned int *reclaim_topology_cpus(const struct reclaim_topology *t,
							 size_t *count)
{
	assert_return(t && count, NULL);
	*count = t->ncpus;
	return t->cpus;
}

RECLAIM_EXPORT int reclaim_node_id(const struct reclaim_node *n)
{
	assert_return(n, -EINVAL);
	return n->id;
}

RECLAIM_EXPORT bool reclaim_node_is_online(const struct reclaim_node *n)
{
	assert_return(n, false);
	return n->online;
}

RECLAIM_EXPORT bool reclaim_node_has_memory(const struct reclaim_node *n)
{
	assert_return(n, false);
	return n->has_memory;
}

RECLAIM_EXPORT bool reclaim_node_has_cpu(const struct reclaim_node *n)
{
	assert_return(n, false);
	return n->has_cpu;
}

RECLAIM_EXPORT const unsigned int *reclaim_node_cpus(const struct reclaim_node *n, size_t *count)
{
	assert_return(n && count, NULL);
	*count = n->ncpus;
	return n->cpus;
}

RECLAIM_EXPORT uint64_t reclaim_node_mem_total_kb(const struct reclaim_node *n)
{
	assert_return(n, 0);
	return n->mem_total_kb;
}

RECLAIM_EXPORT uint64_t reclaim_node_mem_free_kb(const struct reclaim_node *n)
{
	assert_return(n, 0);
	return n->mem_free_kb;
}

RECLAIM_EXPORT const int *reclaim_node_distance(const struct reclaim_node *n, size_t *count)
{
	assert_return(n && count, NULL);
	*count = n->ndistance;
	return n->distance;
}

RECLAIM_EXPORT size_t reclaim_node_zone_count(const struct reclaim_node *n)
{
	assert_return(n, 0);
	return n->nzones;
}

RECLAIM_EXPORT struct reclaim_zone *reclaim_node_zone(const struct reclaim_node *n, size_t idx)
{
	assert_return(n && idx < n->nzones, NULL);
	return &n->zones[idx];
}

RECLAIM_EXPORT const char *reclaim_zone_name(const struct reclaim_zone *z)
{
	assert_return(z, NULL);
	return z->name;
}

RECLAIM_EXPORT uint64_t reclaim_zone_managed_pages(const struct reclaim_zone *z)
{
	assert_return(z, 0);
	return z->managed;
}

RECLAIM_EXPORT uint64_t reclaim_zone_min_pages(const struct reclaim_zone *z)
{
	assert_return(z, 0);
	return z->min;
}

RECLAIM_EXPORT uint64_t reclaim_zone_low_pages(const struct reclaim_zone *z)
{
	assert_return(z, 0);
	return z->low;
}

RECLAIM_EXPORT uint64_t reclaim_zone_high_pages(const struct reclaim_zone *z)
{
	assert_return(z, 0);
	return z->high;
}

RECLAIM_EXPORT uint64_t reclaim_zone_free_pages(const struct reclaim_zone *z)
{
	assert_return(z, 0);
	return z->free;
}
