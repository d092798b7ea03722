// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "reclaimctl.h"
#include "snapshot.h"
#include "swap-tables.h"
#include "thread-table.h"

/* The value of knob @id, or NULL when the kernel lacks it (the id is the knob's index). */
static const int64_t *knob_value(const struct snapshot *s, enum reclaim_knob_id id)
{
	return s->has_knob[id] ? &s->knob_value[id] : NULL;
}

/* direct_reclaim_throttled, or false when /proc/vmstat lacks it. */
static bool throttled_count(const struct snapshot *s, uint64_t *v)
{
	return s->vmstat && reclaim_vmstat_get(s->vmstat, "direct_reclaim_throttled", v) == 0;
}

static cJSON *json_throttle(const struct snapshot *s)
{
	const int64_t *limit = knob_value(s, RECLAIM_KNOB_MAX_DIRECT_RECLAIMERS);
	cJSON *o = cJSON_CreateObject();
	uint64_t n;

	if (limit)
		cJSON_AddNumberToObject(o, "limit", (double)*limit);
	else
		cJSON_AddNullToObject(o, "limit");
	if (throttled_count(s, &n))
		cJSON_AddNumberToObject(o, "throttled", (double)n);
	else
		cJSON_AddNullToObject(o, "throttled");
	return o;
}

static cJSON *json_features(const struct snapshot *s)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);

		if (!reclaim_knob_needs_patch(k))
			continue;
		if (s->sysctls)
			cJSON_AddBoolToObject(o, reclaim_knob_name(k), s->has_knob[i]);
		else
			cJSON_AddNullToObject(o, reclaim_knob_name(k));
	}
	return o;
}

static cJSON *json_zone(const struct reclaim_zone *z)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", reclaim_zone_name(z));
	cJSON_AddNumberToObject(o, "managed_pages", (double)reclaim_zone_managed_pages(z));
	cJSON_AddNumberToObject(o, "free_pages", (double)reclaim_zone_free_pages(z));
	cJSON_AddNumberToObject(o, "min", (double)reclaim_zone_min_pages(z));
	cJSON_AddNumberToObject(o, "low", (double)reclaim_zone_low_pages(z));
	cJSON_AddNumberToObject(o, "high", (double)reclaim_zone_high_pages(z));
	return o;
}

static cJSON *json_node(struct cli *cli, const struct snapshot *s, const struct reclaim_node *n)
{
	cJSON *o = cJSON_CreateObject(), *a;
	struct reclaim_vmstat *vs;
	const unsigned int *cpus;
	const int *dist;
	size_t count;
	int id = reclaim_node_id(n);

	cJSON_AddNumberToObject(o, "id", id);
	cJSON_AddBoolToObject(o, "online", reclaim_node_is_online(n));
	cJSON_AddBoolToObject(o, "has_memory", reclaim_node_has_memory(n));
	cJSON_AddBoolToObject(o, "has_cpu", reclaim_node_has_cpu(n));
	cpus = reclaim_node_cpus(n, &count);
	cJSON_AddItemToObject(o, "cpus", json_cpus(cpus, count));
	cJSON_AddNumberToObject(o, "memory_total_kb", (double)reclaim_node_mem_total_kb(n));
	cJSON_AddNumberToObject(o, "memory_free_kb", (double)reclaim_node_mem_free_kb(n));
	dist = reclaim_node_distance(n, &count);
	a = cJSON_AddArrayToObject(o, "distance");
	for (size_t i = 0; i < count; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(dist[i]));
	a = cJSON_AddArrayToObject(o, "zones");
	for (size_t i = 0; i < reclaim_node_zone_count(n); i++)
		cJSON_AddItemToArray(a, json_zone(reclaim_node_zone(n, i)));
	cJSON_AddItemToObject(o, "kswapd", threads_json(cli, s->kswapd, id));
	if (reclaim_topology_is_numa(s->topo) && reclaim_vmstat_new_node(cli->ctx, id, &vs) == 0) {
		cJSON_AddItemToObject(o, "vmstat", json_vmstat(vs));
		reclaim_vmstat_unref(vs);
	} else {
		cJSON_AddNullToObject(o, "vmstat");
	}
	return o;
}

static cJSON *json_psi_line(const struct reclaim_pressure *p, enum reclaim_pressure_kind k)
{
	cJSON *o;

	if (!reclaim_pressure_has(p, k))
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "avg10", reclaim_pressure_avg10(p, k));
	cJSON_AddNumberToObject(o, "avg60", reclaim_pressure_avg60(p, k));
	cJSON_AddNumberToObject(o, "avg300", reclaim_pressure_avg300(p, k));
	cJSON_AddNumberToObject(o, "total_us", (double)reclaim_pressure_total_us(p, k));
	return o;
}

/* The whole document, or with @only_key only that key of it. */
static void status_json(struct cli *cli, const struct snapshot *s, const char *only_key)
{
	cJSON *root = json_document(), *o, *a;
	const char *release = reclaim_kernel_release(cli->ctx);

	o = cJSON_AddObjectToObject(root, "kernel");
	if (release)
		cJSON_AddStringToObject(o, "release", release);
	else
		cJSON_AddNullToObject(o, "release");
	cJSON_AddItemToObject(o, "features", json_features(s));

	o = cJSON_AddObjectToObject(root, "knobs");
	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);

		cJSON_AddItemToObject(o, reclaim_knob_name(k),
				      s->has_knob[i] ? json_knob(k, s->knob_value[i])
						     : cJSON_CreateNull());
	}

	a = cJSON_AddArrayToObject(root, "nodes");
	for (size_t i = 0; i < reclaim_topology_node_count(s->topo); i++)
		cJSON_AddItemToArray(a, json_node(cli, s, reclaim_topology_node(s->topo, i)));

	if (s->vmstat)
		cJSON_AddItemToObject(root, "vmstat", json_vmstat(s->vmstat));
	else
		cJSON_AddNullToObject(root, "vmstat");

	if (s->pressure) {
		o = cJSON_AddObjectToObject(root, "pressure");
		cJSON_AddItemToObject(o, "some", json_psi_line(s->pressure, RECLAIM_PRESSURE_SOME));
		cJSON_AddItemToObject(o, "full", json_psi_line(s->pressure, RECLAIM_PRESSURE_FULL));
	} else {
		cJSON_AddNullToObject(root, "pressure");
	}

	cJSON_AddItemToObject(root, "throttle", json_throttle(s));
	o = cJSON_AddObjectToObject(root, "swap");
	json_add_swap(cli, o, s->swaps, knob_value(s, RECLAIM_KNOB_SWAP_ROUND_ROBIN_QUOTA_KB));
	if (only_key) {
		cJSON *part = json_document();

		cJSON_AddItemToObject(part, only_key, cJSON_DetachItemFromObject(root, only_key));
		cJSON_Delete(root);
		root = part;
	}
	json_print(root);
	cJSON_Delete(root);
}

static void print_kernel(struct cli *cli, const struct snapshot *s)
{
	const char *release = reclaim_kernel_release(cli->ctx);
	bool missing = false;

	printf("Kernel: %s\n", release ? release : "unknown");
	if (!s->sysctls) {
		printf("  No " RECLAIM_SYSCTL_DIR " under this root: the knobs are unknown.\n");
		return;
	}
	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);

		if (!reclaim_knob_needs_patch(k))
			continue;
		if (s->has_knob[i]) {
			printf("  %-30s supported\n", reclaim_knob_sysctl(k));
		} else {
			printf("  %-30s unsupported (no %s)\n", reclaim_knob_sysctl(k),
			       reclaim_knob_path(k));
			missing = true;
		}
	}
	if (missing)
		printf(
		    "  This kernel lacks reclaimctl's knobs: it needs the patches in kernel/.\n");
}

static void format_value(char *buf, size_t size, const struct reclaim_knob *k, int64_t v)
{
	if (reclaim_knob_unit(k) == RECLAIM_UNIT_KB)
		snprintf(buf, size, "%" PRId64 " KiB", v);
	else
		snprintf(buf, size, "%" PRId64, v);
}

enum { K_KNOB, K_VALUE, K_DEFAULT, K_MIN, K_MAX, K_UNIT, K_PATH, K_DESCRIPTION };

static const struct colinfo knob_cols[] = {
    [K_KNOB] = {"KNOB", 0, 0, "knob name", NULL, CJ_NONE},
    [K_VALUE] = {"VALUE", 0, COL_RIGHT, "current value, unsupported or unknown", "value",
		 CJ_NUMBER},
    [K_DEFAULT] = {"DEFAULT", 0, COL_RIGHT, "kernel default, or boot-time", "default", CJ_NUMBER},
    [K_MIN] = {"MIN", 0, COL_RIGHT, "smallest value accepted", "min", CJ_NUMBER},
    [K_MAX] = {"MAX", 0, COL_RIGHT, "largest value accepted", "max", CJ_NUMBER},
    [K_UNIT] = {"UNIT", 0, 0, "unit of the value (KiB), or -", "unit", CJ_STRING},
    [K_PATH] = {"PATH", 0, 0, "the file under /proc/sys", "path", CJ_STRING},
    [K_DESCRIPTION] = {"DESCRIPTION", 0.3, COL_TRUNC, "what the knob does", NULL, CJ_NONE},
};

enum { N_NODE, N_ONLINE, N_MEMORY, N_TOTAL, N_FREE, N_CPUS, N_KSWAPD, N_DISTANCE };

static const struct colinfo node_cols[] = {
    [N_NODE] = {"NODE", 0, COL_RIGHT, "NUMA node", "id", CJ_NUMBER},
    [N_ONLINE] = {"ONLINE", 0, 0, "whether the node is online", "online", CJ_BOOL},
    [N_MEMORY] = {"MEMORY", 0, 0, "whether it has memory", "has_memory", CJ_BOOL},
    [N_TOTAL] = {"TOTAL", 0, COL_RIGHT | COL_SIZE, "its memory (MemTotal)", "memory_total_kb",
		 CJ_NUMBER},
    [N_FREE] = {"FREE", 0, COL_RIGHT | COL_SIZE, "its free memory (MemFree)", "memory_free_kb",
		CJ_NUMBER},
    [N_CPUS] = {"CPUS", 0, 0, "its CPUs, or none", "cpus", CJ_ARRAY},
    [N_KSWAPD] = {"KSWAPD", 0, COL_RIGHT, "kswapd threads running for it", "kswapd", CJ_ARRAY},
    [N_DISTANCE] = {"DISTANCE", 0, 0, "distances to every node, as in sysfs", "distance", CJ_ARRAY},
};

enum { Z_NODE, Z_ZONE, Z_MANAGED, Z_FREE, Z_MIN, Z_LOW, Z_HIGH };

static const struct colinfo zone_cols[] = {
    [Z_NODE] = {"NODE", 0, COL_RIGHT, "NUMA node", NULL, CJ_NONE},
    [Z_ZONE] = {"ZONE", 0, 0, "zone name", "name", CJ_STRING},
    [Z_MANAGED] = {"MANAGED", 0, COL_RIGHT, "pages the buddy allocator manages", "managed_pages",
		   CJ_NUMBER},
    [Z_FREE] = {"FREE", 0, COL_RIGHT, "free pages", "free_pages", CJ_NUMBER},
    [Z_MIN] = {"MIN", 0, COL_RIGHT, "min watermark, in pages", "min", CJ_NUMBER},
    [Z_LOW] = {"LOW", 0, COL_RIGHT, "low watermark: kswapd wakes below it", "low", CJ_NUMBER},
    [Z_HIGH] = {"HIGH", 0, COL_RIGHT, "high watermark: kswapd sleeps above it", "high", CJ_NUMBER},
};

enum { C_COUNTER, C_VALUE };

static const struct colinfo counter_cols[] = {
    [C_COUNTER] = {"COUNTER", 0, 0, "reclaim counter of /proc/vmstat", NULL, CJ_NONE},
    [C_VALUE] = {"VALUE", 0, COL_RIGHT, "its value since boot", NULL, CJ_NUMBER},
};

enum { P_KIND, P_AVG10, P_AVG60, P_AVG300, P_TOTAL };

static const struct colinfo pressure_cols[] = {
    [P_KIND] = {"KIND", 0, 0, "some (a task stalled) or full (all stalled)", NULL, CJ_NONE},
    [P_AVG10] = {"AVG10", 6, COL_RIGHT, "% of time stalled over 10 s", "avg10", CJ_NUMBER},
    [P_AVG60] = {"AVG60", 6, COL_RIGHT, "% of time stalled over 60 s", "avg60", CJ_NUMBER},
    [P_AVG300] = {"AVG300", 6, COL_RIGHT, "% of time stalled over 300 s", "avg300", CJ_NUMBER},
    [P_TOTAL] = {"TOTAL", 0, COL_RIGHT, "time stalled since boot", "total_us", CJ_NUMBER},
};

static const struct coltable knobs_columns =
    COLTABLE("knobs", knob_cols, "KNOB,VALUE,DEFAULT,MIN,MAX,DESCRIPTION", "knobs{}");
static const struct coltable nodes_columns =
    COLTABLE("nodes", node_cols, "NODE,ONLINE,MEMORY,TOTAL,FREE,CPUS,KSWAPD,DISTANCE", "nodes[]");
static const struct coltable zones_columns =
    COLTABLE("zones", zone_cols, "NODE,ZONE,MANAGED,FREE,MIN,LOW,HIGH", "nodes[].zones[]");
static const struct coltable counters_columns =
    COLTABLE("counters", counter_cols, "COUNTER,VALUE", "vmstat{}");
static const struct coltable pressure_columns =
    COLTABLE("pressure", pressure_cols, "KIND,AVG10,AVG60,AVG300,TOTAL", "pressure{}");

static void print_knobs(struct cli *cli, const struct snapshot *s)
{
	struct table *t = table_new(cli, &knobs_columns);

	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		char value[48], def[48];

		if (s->has_knob[i])
			format_value(value, sizeof(value), k, s->knob_value[i]);
		else
			snprintf(value, sizeof(value), s->sysctls ? "unsupported" : "unknown");
		if (reclaim_knob_default(k) >= 0)
			format_value(def, sizeof(def), k, reclaim_knob_default(k));
		else
			snprintf(def, sizeof(def), "boot-time");
		table_row(t);
		table_set(t, K_KNOB, reclaim_knob_name(k));
		table_set(t, K_VALUE, value);
		table_set(t, K_DEFAULT, def);
		table_setf(t, K_MIN, "%" PRId64, reclaim_knob_min(k));
		table_setf(t, K_MAX, "%" PRId64, reclaim_knob_max(k));
		table_set(t, K_UNIT, reclaim_knob_unit(k) == RECLAIM_UNIT_KB ? "KiB" : NULL);
		table_set(t, K_PATH, reclaim_knob_path(k));
		table_set(t, K_DESCRIPTION, reclaim_knob_description(k));
	}
	table_print(t);
	table_free(t);
}

static void print_nodes(struct cli *cli, const struct snapshot *s)
{
	struct table *t = table_new(cli, &nodes_columns);

	for (size_t i = 0; i < reclaim_topology_node_count(s->topo); i++) {
		const struct reclaim_node *n = reclaim_topology_node(s->topo, i);
		char dist[256] = "";
		const unsigned int *cpus;
		const int *d;
		size_t count, len = 0;
		char *cpulist;

		table_row(t);
		table_setf(t, N_NODE, "%d", reclaim_node_id(n));
		table_set(t, N_ONLINE, reclaim_node_is_online(n) ? "yes" : "no");
		table_set(t, N_MEMORY, reclaim_node_has_memory(n) ? "yes" : "no");
		table_set_size(t, N_TOTAL, reclaim_node_mem_total_kb(n));
		table_set_size(t, N_FREE, reclaim_node_mem_free_kb(n));
		cpus = reclaim_node_cpus(n, &count);
		cpulist = format_cpulist(cpus, count);
		table_set(t, N_CPUS, cpulist[0] ? cpulist : "none");
		free(cpulist);
		table_setf(t, N_KSWAPD, "%zu",
			   reclaim_kswapd_list_count_node(s->kswapd, reclaim_node_id(n)));
		d = reclaim_node_distance(n, &count);
		for (size_t j = 0; j < count && len + 8 < sizeof(dist); j++)
			len += (size_t)snprintf(dist + len, sizeof(dist) - len, "%s%d",
						j ? " " : "", d[j]);
		table_set(t, N_DISTANCE, dist[0] ? dist : NULL);
	}
	table_print(t);
	table_free(t);
}

static void print_zones(struct cli *cli, const struct snapshot *s)
{
	struct table *t = table_new(cli, &zones_columns);

	for (size_t i = 0; i < reclaim_topology_node_count(s->topo); i++) {
		const struct reclaim_node *n = reclaim_topology_node(s->topo, i);

		for (size_t j = 0; j < reclaim_node_zone_count(n); j++) {
			const struct reclaim_zone *z = reclaim_node_zone(n, j);

			table_row(t);
			table_setf(t, Z_NODE, "%d", reclaim_node_id(n));
			table_set(t, Z_ZONE, reclaim_zone_name(z));
			table_setf(t, Z_MANAGED, "%" PRIu64, reclaim_zone_managed_pages(z));
			table_setf(t, Z_FREE, "%" PRIu64, reclaim_zone_free_pages(z));
			table_setf(t, Z_MIN, "%" PRIu64, reclaim_zone_min_pages(z));
			table_setf(t, Z_LOW, "%" PRIu64, reclaim_zone_low_pages(z));
			table_setf(t, Z_HIGH, "%" PRIu64, reclaim_zone_high_pages(z));
		}
	}
	if (table_rows(t))
		table_print(t);
	else
		printf("no /proc/zoneinfo\n");
	table_free(t);
}

static void print_counters(struct cli *cli, const struct snapshot *s)
{
	struct table *t;

	if (!s->vmstat) {
		printf("no /proc/vmstat\n");
		return;
	}
	t = table_new(cli, &counters_columns);
	for (size_t i = 0; i < reclaim_vmstat_count(s->vmstat); i++) {
		table_row(t);
		table_set(t, C_COUNTER, reclaim_vmstat_name(s->vmstat, i));
		table_setf(t, C_VALUE, "%" PRIu64, reclaim_vmstat_value(s->vmstat, i));
	}
	table_print(t);
	table_free(t);
}

static void print_pressure(struct cli *cli, const struct snapshot *s)
{
	static const char *const kinds[] = {"some", "full"};
	struct table *t;

	if (!s->pressure) {
		printf("%s\n", s->pressure_missing);
		return;
	}
	t = table_new(cli, &pressure_columns);
	for (int k = RECLAIM_PRESSURE_SOME; k <= RECLAIM_PRESSURE_FULL; k++) {
		if (!reclaim_pressure_has(s->pressure, k))
			continue;
		table_row(t);
		table_set(t, P_KIND, kinds[k]);
		table_setf(t, P_AVG10, "%.2f", reclaim_pressure_avg10(s->pressure, k));
		table_setf(t, P_AVG60, "%.2f", reclaim_pressure_avg60(s->pressure, k));
		table_setf(t, P_AVG300, "%.2f", reclaim_pressure_avg300(s->pressure, k));
		table_setf(t, P_TOTAL, "%.3fs",
			   (double)reclaim_pressure_total_us(s->pressure, k) / 1e6);
	}
	table_print(t);
	table_free(t);
}

#define NO_SYSCTLS "unknown (no " RECLAIM_SYSCTL_DIR " under this root)"

static void print_throttle(struct cli *cli, const struct snapshot *s)
{
	const struct reclaim_knob *k = reclaim_knob_by_id(RECLAIM_KNOB_MAX_DIRECT_RECLAIMERS);
	const int64_t *limit = knob_value(s, RECLAIM_KNOB_MAX_DIRECT_RECLAIMERS);
	uint64_t n;

	if (!limit && !s->sysctls)
		printf("Limit: " NO_SYSCTLS "\n");
	else if (!limit)
		printf("Limit: not supported by this kernel (no %s)\n", reclaim_knob_path(k));
	else if (*limit == 0)
		printf("Limit: none (%s = 0)\n", reclaim_knob_sysctl(k));
	else
		printf("Limit: %" PRId64 " task%s in direct reclaim per node at once (%s)\n",
		       *limit, *limit == 1 ? "" : "s", reclaim_knob_sysctl(k));
	if (throttled_count(s, &n))
		printf("Waits: %" PRIu64 " (direct_reclaim_throttled)\n", n);
	else
		printf("Waits: not counted by this kernel (no direct_reclaim_throttled in "
		       "/proc/vmstat)\n");
}

static void print_threads(struct cli *cli, const struct snapshot *s)
{
	if (reclaim_kswapd_list_count(s->kswapd))
		threads_table(cli, s->kswapd);
	else
		printf("none found\n");
}

static void print_swap(struct cli *cli, const struct snapshot *s, unsigned int parts)
{
	swap_print(cli, s->swaps, knob_value(s, RECLAIM_KNOB_SWAP_ROUND_ROBIN_QUOTA_KB),
		   s->sysctls ? NULL : NO_SYSCTLS, s->swaps_missing, parts);
}

static void print_swap_all(struct cli *cli, const struct snapshot *s)
{
	print_swap(cli, s, SWAP_QUOTA | SWAP_RINGS | SWAP_DEVICES);
}

static void print_rings(struct cli *cli, const struct snapshot *s)
{
	print_swap(cli, s, SWAP_RINGS);
}

static void print_devices(struct cli *cli, const struct snapshot *s)
{
	print_swap(cli, s, SWAP_DEVICES);
}

/* status SECTION shows one part; -o needs a part with one table. */
struct section {
	const char *name;
	const char *title; /* in plain status, above the part */
	void (*print)(struct cli *cli, const struct snapshot *s);
	const struct coltable *columns;
	const char *json_key; /* what status SECTION --json keeps */
	bool in_all;	      /* part of plain status */
};

static const struct section sections[] = {
    {"knobs", "Knobs", print_knobs, &knobs_columns, "knobs", true},
    {"nodes", "NUMA nodes", print_nodes, &nodes_columns, "nodes", true},
    {"threads", "kswapd threads", print_threads, &threads_columns, "nodes", true},
    {"throttle", "Direct reclaim throttle", print_throttle, NULL, "throttle", true},
    {"swap", "Swap", print_swap_all, NULL, "swap", true},
    {"rings", NULL, print_rings, &rings_columns, "swap", false},
    {"devices", NULL, print_devices, &devices_columns, "swap", false},
    {"zones", "Zones (pages)", print_zones, &zones_columns, "nodes", true},
    {"counters", "Reclaim counters", print_counters, &counters_columns, "vmstat", true},
    {"pressure", "Memory pressure", print_pressure, &pressure_columns, "pressure", true},
};

static const struct section *find_section(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(sections); i++)
		if (strcmp(sections[i].name, name) == 0)
			return &sections[i];
	return NULL;
}

static void status_text(struct cli *cli, const struct snapshot *s, const struct section *only)
{
	/* One part alone is printed bare, for scripts. */
	if (only) {
		only->print(cli, s);
		return;
	}
	print_kernel(cli, s);
	for (size_t i = 0; i < ARRAY_LEN(sections); i++) {
		const char *title = sections[i].title;

		if (!sections[i].in_all)
			continue;
		if (sections[i].print == print_nodes && !reclaim_topology_is_numa(s->topo))
			title = "NUMA nodes (no NUMA in sysfs: one node)";
		printf("\n");
		heading(cli, title);
		sections[i].print(cli, s);
	}
}

static void status_help(FILE *out)
{
	fputs("Shows kernel support for the reclaim knobs, their values, the NUMA nodes\n"
	      "with their CPUs, memory, zones and kswapd threads, the direct reclaim\n"
	      "throttle, the swap rings, the reclaim counters of /proc/vmstat and memory\n"
	      "pressure (PSI). What the kernel lacks is shown as unsupported.\n"
	      "\n"
	      "With a SECTION, only that part: knobs, nodes, threads, throttle, swap,\n"
	      "rings, devices, zones, counters or pressure (with --json, only its key).\n"
	      "-o and --output-all need a section with one table.\n"
	      "\nOptions:\n"
	      "  -J, --json          JSON output (schema 1, see reclaimctl(8))\n"
	      "  -P, --prometheus    Prometheus text format (see PROMETHEUS METRICS in\n"
	      "                      reclaimctl(8))\n"
	      "      --textfile DIR  write it to DIR/reclaimctl.prom, atomically (for\n"
	      "                      node_exporter's textfile collector)\n"
	      "  -h, --help          this help\n",
	      out);
}

/* The section named by the operand, and the checks of -o against its table. */
static int status_section(struct cli *cli, int argc, char **argv, const struct section **only)
{
	*only = NULL;
	if (argc > 1)
		return usage_error("status: unexpected argument '%s'", argv[1]);
	if (argc == 1) {
		*only = find_section(argv[0]);
		if (!*only)
			return usage_error("status: unknown section '%s' (knobs, nodes, threads, "
					   "throttle, swap, rings, devices, zones, counters, "
					   "pressure)",
					   argv[0]);
	}
	if (!table_columns_given(cli))
		return 0;
	if (!*only || !(*only)->columns)
		return usage_error("status: -o and --output-all are for one table: status knobs, "
				   "nodes, threads, rings, devices, zones, counters or pressure");
	return table_check(cli, "status", (*only)->columns);
}

static int run_status(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    COMMON_LONG_OPTIONS,
	    TABLE_LONG_OPTIONS,
	    {"prometheus", no_argument, NULL, 'P'},
	    {"textfile", required_argument, NULL, 'T'},
	    {0},
	};
	const struct section *only;
	struct snapshot s = {0};
	const char *textfile = NULL;
	bool prometheus = false;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS TABLE_SHORT_OPTIONS "P", opts,
				NULL)) != -1) {
		bool done;

		if (c == 'P' || c == 'T') {
			prometheus = true;
			textfile = c == 'T' ? optarg : textfile;
			continue;
		}
		r = common_option(cli, &cmd_status, c, argv, &done);
		if (done)
			return r;
	}
	r = status_section(cli, argc - optind, argv + optind, &only);
	if (r)
		return r;
	if (prometheus && cli->json)
		return usage_error("status: --json and --prometheus exclude each other");
	if (prometheus && only)
		return usage_error("status: --prometheus exports every section");
	r = snapshot_read(cli, &s);
	if (r == 0) {
		if (prometheus)
			r = prometheus_status(cli, &s, textfile);
		else if (cli->json)
			status_json(cli, &s, only ? only->json_key : NULL);
		else
			status_text(cli, &s, only);
	}
	snapshot_free(&s);
	return r;
}

const struct command cmd_status = {
    .name = "status",
    .run = run_status,
    .args = "[SECTION] [-o LIST] [--output-all] [-n] [-r] [-b] [--json | --prometheus | "
	    "--textfile DIR]",
    .summary = "Show kernel support, knobs, nodes, kswapd threads, counters and pressure",
    .help = status_help,
    .tables = (const struct coltable *const[]){&knobs_columns, &nodes_columns, &threads_columns,
					       &rings_columns, &devices_columns, &zones_columns,
					       &counters_columns, &pressure_columns, NULL},
};
