// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * status's tables: knobs, nodes, zones, counters and pressure, filled once
 * for the text and for status --json.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "reclaimctl.h"
#include "snapshot.h"
#include "status-tables.h"
#include "thread-table.h"

enum { K_KNOB, K_VALUE, K_DEFAULT, K_MIN, K_MAX, K_UNIT, K_PATH, K_DESCRIPTION };

static const struct colinfo knob_cols[] = {
    [K_KNOB] = {"KNOB", 0, 0, "knob name", NULL, CJ_NONE},
    [K_VALUE] = {"VALUE", 0, COL_RIGHT | COL_SIZE, "current value, unsupported or unknown", "value",
		 CJ_KNOB_VALUE},
    [K_DEFAULT] = {"DEFAULT", 0, COL_RIGHT | COL_SIZE, "kernel default, or boot-time", "default",
		   CJ_KNOB_VALUE},
    [K_MIN] = {"MIN", 0, COL_RIGHT | COL_SIZE, "smallest value accepted", "min", CJ_NUMBER},
    [K_MAX] = {"MAX", 0, COL_RIGHT | COL_SIZE, "largest value accepted", "max", CJ_NUMBER},
    [K_UNIT] = {"UNIT", 0, 0, "unit of the value (KiB, B with -b), or -", "unit", CJ_STRING},
    [K_PATH] = {"PATH", 0, 0, "the file under /proc/sys or /sys", "path", CJ_STRING},
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

/*
 * A number in the knob's unit: a KiB knob's in bytes with -b, and with
 * " KiB" after it when no UNIT column says so.
 */
static void format_value(char *buf, size_t size, const struct table *t,
			 const struct reclaim_knob *k, int64_t v, bool suffix)
{
	bool kb = reclaim_knob_unit(k) == RECLAIM_UNIT_KB;

	if (kb && table_bytes(t))
		snprintf(buf, size, "%" PRId64, v * 1024);
	else if (kb && suffix && !table_shows(t, K_UNIT))
		snprintf(buf, size, "%" PRId64 " KiB", v);
	else
		reclaim_knob_format(k, v, buf, size);
}

/*
 * The cell and JSON value of a value in the knob's unit (the JSON is in it
 * whatever -b says), as its type has it.
 */
static void set_knob_value(struct table *t, int id, const struct reclaim_knob *k, int64_t v,
			   bool suffix)
{
	char text[48];

	format_value(text, sizeof(text), t, k, v, suffix);
	table_set_value(t, id, text, json_knob_value(k, v));
}

/* MIN and MAX: a boolean's and a choice's are not numbers, and stay empty (null). */
static void set_knob_bound(struct table *t, int id, const struct reclaim_knob *k, int64_t v)
{
	enum reclaim_knob_type type = reclaim_knob_type(k);

	if (type == RECLAIM_KNOB_TYPE_BOOL || type == RECLAIM_KNOB_TYPE_CHOICE)
		table_set_value(t, id, NULL, cJSON_CreateNull());
	else
		set_knob_value(t, id, k, v, false);
}

/* A choice's names, for the JSON. */
static cJSON *choices_json(const struct reclaim_knob *k)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < reclaim_knob_choice_count(k); i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(reclaim_knob_choice(k, i)));
	return a;
}

const struct coltable knobs_columns =
    COLTABLE("knobs", knob_cols, "KNOB,VALUE,DEFAULT,MIN,MAX,DESCRIPTION", "knobs{}");
const struct coltable nodes_columns =
    COLTABLE("nodes", node_cols, "NODE,ONLINE,MEMORY,TOTAL,FREE,CPUS,KSWAPD,DISTANCE", "nodes[]");
const struct coltable zones_columns =
    COLTABLE("zones", zone_cols, "NODE,ZONE,MANAGED,FREE,MIN,LOW,HIGH", "nodes[].zones[]");
const struct coltable counters_columns =
    COLTABLE("counters", counter_cols, "COUNTER,VALUE", "vmstat{}");
const struct coltable pressure_columns =
    COLTABLE("pressure", pressure_cols, "KIND,AVG10,AVG60,AVG300,TOTAL", "pressure{}");

void knobs_fill_row(struct table *t, const struct reclaim_knob *k, const int64_t *value, bool known)
{
	int64_t def = reclaim_knob_default(k);
	bool kb = reclaim_knob_unit(k) == RECLAIM_UNIT_KB;

	table_row(t);
	table_set_key(t, K_KNOB, reclaim_knob_name(k));
	/* the row and its range stay: "unsupported" is the word of every output */
	table_json_add(t, "state",
		       cJSON_CreateString(value	  ? "supported"
					  : known ? "unsupported"
						  : "unknown"));
	if (value)
		set_knob_value(t, K_VALUE, k, *value, true);
	else
		table_set_value(t, K_VALUE, known ? "unsupported" : "unknown", NULL);
	set_knob_bound(t, K_MIN, k, reclaim_knob_min(k));
	set_knob_bound(t, K_MAX, k, reclaim_knob_max(k));
	if (reclaim_knob_type(k) == RECLAIM_KNOB_TYPE_CHOICE)
		table_json_add(t, "choices", choices_json(k));
	table_set_str(t, K_PATH, reclaim_knob_path(k));
	if (def >= 0)
		set_knob_value(t, K_DEFAULT, k, def, true);
	else
		table_set_value(t, K_DEFAULT, "boot-time", NULL);
	table_set_value(t, K_UNIT, kb ? (table_bytes(t) ? "B" : "KiB") : NULL,
			kb ? cJSON_CreateString("KiB") : NULL);
	table_set(t, K_DESCRIPTION, reclaim_knob_description(k));
}

static void fill_knobs(struct table *t, const struct snapshot *s)
{
	for (size_t i = 0; i < reclaim_knob_count(); i++)
		knobs_fill_row(t, reclaim_knob_get(i), s->has_knob[i] ? &s->knob_value[i] : NULL,
			       s->sysctls);
}

/* The zones of node @n. */
static void fill_zones(struct table *t, const struct reclaim_node *n)
{
	for (size_t j = 0; j < reclaim_node_zone_count(n); j++) {
		const struct reclaim_zone *z = reclaim_node_zone(n, j);

		table_row(t);
		table_set_int(t, Z_NODE, reclaim_node_id(n));
		table_set_str(t, Z_ZONE, reclaim_zone_name(z));
		table_set_uint(t, Z_MANAGED, reclaim_zone_managed_pages(z));
		table_set_uint(t, Z_FREE, reclaim_zone_free_pages(z));
		table_set_uint(t, Z_MIN, reclaim_zone_min_pages(z));
		table_set_uint(t, Z_LOW, reclaim_zone_low_pages(z));
		table_set_uint(t, Z_HIGH, reclaim_zone_high_pages(z));
	}
}

static void set_distance(struct table *t, const struct reclaim_node *n)
{
	char dist[256] = "";
	size_t count, len = 0;
	const int *d = reclaim_node_distance(n, &count);
	cJSON *a = cJSON_CreateArray();

	for (size_t j = 0; j < count; j++) {
		if (len + 8 < sizeof(dist))
			len += (size_t)snprintf(dist + len, sizeof(dist) - len, "%s%d",
						j ? " " : "", d[j]);
		cJSON_AddItemToArray(a, cJSON_CreateNumber(d[j]));
	}
	table_set_value(t, N_DISTANCE, dist[0] ? dist : NULL, a);
}

/* Node @n's row, its zones' rows in @zones and in its JSON row; in the JSON's order of keys. */
static void fill_node(struct table *t, struct table *zones, const struct snapshot *s,
		      const struct reclaim_node *n, struct cli *cli)
{
	int id = reclaim_node_id(n);
	size_t count;
	const unsigned int *cpus = reclaim_node_cpus(n, &count);
	char *cpulist = format_cpulist(cpus, count), kswapd[24];

	fill_zones(zones, n);
	table_row(t);
	table_set_int(t, N_NODE, id);
	table_set_bool(t, N_ONLINE, reclaim_node_is_online(n));
	table_set_bool(t, N_MEMORY, reclaim_node_has_memory(n));
	table_json_add(t, "has_cpu", cJSON_CreateBool(reclaim_node_has_cpu(n)));
	table_set_value(t, N_CPUS, cpulist[0] ? cpulist : "none", json_cpus(cpus, count));
	free(cpulist);
	table_set_size(t, N_TOTAL, reclaim_node_mem_total_kb(n));
	table_set_size(t, N_FREE, reclaim_node_mem_free_kb(n));
	set_distance(t, n);
	table_json_add(t, "zones", table_json_array(zones));
	snprintf(kswapd, sizeof(kswapd), "%zu", reclaim_kswapd_list_count_node(s->kswapd, id));
	table_set_value(t, N_KSWAPD, kswapd, threads_json(cli, s->kswapd, id));
}

static void fill_nodes(struct table *nodes, struct table *zones, struct cli *cli,
		       const struct snapshot *s)
{
	for (size_t i = 0; i < reclaim_topology_node_count(s->topo); i++)
		fill_node(nodes, zones, s, reclaim_topology_node(s->topo, i), cli);
}

static void fill_counters(struct table *t, const struct snapshot *s)
{
	for (size_t i = 0; i < reclaim_vmstat_count(s->vmstat); i++) {
		table_row(t);
		table_set_key(t, C_COUNTER, reclaim_vmstat_name(s->vmstat, i));
		table_set_uint(t, C_VALUE, reclaim_vmstat_value(s->vmstat, i));
	}
}

/* A kind the kernel lacks is null in the JSON, and no row of the table. */
static void fill_pressure(struct table *t, const struct snapshot *s)
{
	static const char *const kinds[] = {"some", "full"};
	const struct reclaim_pressure *p = s->pressure;

	for (int k = RECLAIM_PRESSURE_SOME; k <= RECLAIM_PRESSURE_FULL; k++) {
		char total[48];

		if (!reclaim_pressure_has(p, k)) {
			table_json_null(t, kinds[k]);
			continue;
		}
		table_row(t);
		table_set_key(t, P_KIND, kinds[k]);
		table_set_fixed(t, P_AVG10, reclaim_pressure_avg10(p, k), 2);
		table_set_fixed(t, P_AVG60, reclaim_pressure_avg60(p, k), 2);
		table_set_fixed(t, P_AVG300, reclaim_pressure_avg300(p, k), 2);
		snprintf(total, sizeof(total), "%.3fs",
			 (double)reclaim_pressure_total_us(p, k) / 1e6);
		table_set_value(t, P_TOTAL, total,
				cJSON_CreateNumber((double)reclaim_pressure_total_us(p, k)));
	}
}

typedef void fill_fn(struct table *t, const struct snapshot *s);

/* A section of one table: printed, or its JSON rows by their key. */
static void print_one(struct cli *cli, const struct snapshot *s, const struct coltable *ct,
		      fill_fn *fill)
{
	struct table *t = table_new(cli, ct);

	fill(t, s);
	table_print(t);
	table_free(t);
}

static cJSON *json_one(struct cli *cli, const struct snapshot *s, const struct coltable *ct,
		       fill_fn *fill)
{
	struct table *t = table_new_json(cli, ct);
	cJSON *rows;

	fill(t, s);
	rows = table_json_object(t);
	table_free(t);
	return rows;
}

void status_print_knobs(struct cli *cli, const struct snapshot *s)
{
	print_one(cli, s, &knobs_columns, fill_knobs);
}

/* The nodes' table or the zones', as @ct says; the other is there for the JSON. */
static void print_nodes_or_zones(struct cli *cli, const struct snapshot *s,
				 const struct coltable *ct)
{
	struct table *nodes = ct == &nodes_columns ? table_new(cli, &nodes_columns)
						   : table_new_json(cli, &nodes_columns);
	struct table *zones = ct == &zones_columns ? table_new(cli, &zones_columns)
						   : table_new_json(cli, &zones_columns);

	fill_nodes(nodes, zones, cli, s);
	if (ct == &nodes_columns)
		table_print(nodes);
	else if (table_rows(zones))
		table_print(zones);
	else
		note(cli, "no /proc/zoneinfo");
	table_free(nodes);
	table_free(zones);
}

void status_print_nodes(struct cli *cli, const struct snapshot *s)
{
	print_nodes_or_zones(cli, s, &nodes_columns);
}

void status_print_zones(struct cli *cli, const struct snapshot *s)
{
	print_nodes_or_zones(cli, s, &zones_columns);
}

void status_print_counters(struct cli *cli, const struct snapshot *s)
{
	if (!s->vmstat) {
		note(cli, "no /proc/vmstat");
		return;
	}
	print_one(cli, s, &counters_columns, fill_counters);
}

void status_print_pressure(struct cli *cli, const struct snapshot *s)
{
	if (!s->pressure) {
		note(cli, "%s", s->pressure_missing);
		return;
	}
	print_one(cli, s, &pressure_columns, fill_pressure);
}

cJSON *status_json_knobs(struct cli *cli, const struct snapshot *s)
{
	return json_one(cli, s, &knobs_columns, fill_knobs);
}

cJSON *status_json_nodes(struct cli *cli, const struct snapshot *s)
{
	struct table *nodes = table_new_json(cli, &nodes_columns);
	struct table *zones = table_new_json(cli, &zones_columns);
	cJSON *rows;

	fill_nodes(nodes, zones, cli, s);
	rows = table_json_array(nodes);
	table_free(nodes);
	table_free(zones);
	return rows;
}

cJSON *status_json_counters(struct cli *cli, const struct snapshot *s)
{
	return s->vmstat ? json_one(cli, s, &counters_columns, fill_counters) : cJSON_CreateNull();
}

cJSON *status_json_pressure(struct cli *cli, const struct snapshot *s)
{
	return s->pressure ? json_one(cli, s, &pressure_columns, fill_pressure)
			   : cJSON_CreateNull();
}
