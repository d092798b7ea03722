// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "reclaimctl.h"

/* The value of knob @name, or NULL when the kernel lacks it. */
static const int64_t *knob_value(const struct snapshot *s, const char *name)
{
	for (size_t i = 0; i < reclaim_knob_count(); i++)
		if (strcmp(reclaim_knob_name(reclaim_knob_get(i)), name) == 0)
			return s->has_knob[i] ? &s->knob_value[i] : NULL;
	return NULL;
}

/* direct_reclaim_throttled, or false when /proc/vmstat lacks it. */
static bool throttled_count(const struct snapshot *s, uint64_t *v)
{
	return s->vmstat && reclaim_vmstat_get(s->vmstat, "direct_reclaim_throttled", v) == 0;
}

static cJSON *json_throttle(const struct snapshot *s)
{
	const int64_t *limit = knob_value(s, "max_direct_reclaimers");
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
	a = cJSON_AddArrayToObject(o, "kswapd");
	for (size_t i = 0; i < reclaim_kswapd_list_count(s->kswapd); i++) {
		const struct reclaim_kswapd *k = reclaim_kswapd_list_get(s->kswapd, i);

		if (reclaim_kswapd_node(k) == id)
			cJSON_AddItemToArray(a, json_kswapd(k));
	}
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

static void status_json(struct cli *cli, const struct snapshot *s)
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
	json_add_swap(o, s->swaps, knob_value(s, "swap_round_robin_quota_kb"));
	json_print(root);
	cJSON_Delete(root);
}

static void print_kernel(struct cli *cli, const struct snapshot *s)
{
	const char *release = reclaim_kernel_release(cli->ctx);
	bool missing = false;

	printf("Kernel: %s\n", release ? release : "unknown");
	if (!s->sysctls) {
		printf("  No /proc/sys/vm under this root: the knobs are unknown.\n");
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

static void print_knobs(struct cli *cli, const struct snapshot *s)
{
	static const char *const headers[] = {"KNOB", ">VALUE", ">DEFAULT",
					      ">MIN", ">MAX",	"DESCRIPTION"};
	struct table *t = table_new(cli, headers, 6);

	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		char value[48], def[48], min[32], max[32];

		if (s->has_knob[i])
			format_value(value, sizeof(value), k, s->knob_value[i]);
		else
			snprintf(value, sizeof(value), s->sysctls ? "unsupported" : "unknown");
		if (reclaim_knob_default(k) >= 0)
			format_value(def, sizeof(def), k, reclaim_knob_default(k));
		else
			snprintf(def, sizeof(def), "boot-time");
		snprintf(min, sizeof(min), "%" PRId64, reclaim_knob_min(k));
		snprintf(max, sizeof(max), "%" PRId64, reclaim_knob_max(k));
		table_add(t, reclaim_knob_name(k), value, def, min, max,
			  reclaim_knob_description(k));
	}
	table_print(t, stdout);
	table_free(t);
}

static void print_nodes(struct cli *cli, const struct snapshot *s)
{
	static const char *const headers[] = {">NODE", "ONLINE", "MEMORY",  ">TOTAL",
					      ">FREE", "CPUS",	 ">KSWAPD", "DISTANCE"};
	struct table *t = table_new(cli, headers, 8);

	for (size_t i = 0; i < reclaim_topology_node_count(s->topo); i++) {
		const struct reclaim_node *n = reclaim_topology_node(s->topo, i);
		char id[16], total[16], freekb[16], nk[16], dist[256] = "";
		const unsigned int *cpus;
		const int *d;
		size_t count, len = 0;
		char *cpulist;

		snprintf(id, sizeof(id), "%d", reclaim_node_id(n));
		format_kb(total, sizeof(total), reclaim_node_mem_total_kb(n));
		format_kb(freekb, sizeof(freekb), reclaim_node_mem_free_kb(n));
		snprintf(nk, sizeof(nk), "%zu",
			 reclaim_kswapd_list_count_node(s->kswapd, reclaim_node_id(n)));
		cpus = reclaim_node_cpus(n, &count);
		cpulist = format_cpulist(cpus, count);
		d = reclaim_node_distance(n, &count);
		for (size_t j = 0; j < count && len + 8 < sizeof(dist); j++)
			len += (size_t)snprintf(dist + len, sizeof(dist) - len, "%s%d",
						j ? " " : "", d[j]);
		table_add(t, id, reclaim_node_is_online(n) ? "yes" : "no",
			  reclaim_node_has_memory(n) ? "yes" : "no", total, freekb,
			  cpulist[0] ? cpulist : "none", nk, dist[0] ? dist : "-");
		free(cpulist);
	}
	table_print(t, stdout);
	table_free(t);
}

static void print_zones(struct cli *cli, const struct snapshot *s)
{
	static const char *const headers[] = {">NODE", "ZONE", ">MANAGED", ">FREE",
					      ">MIN",  ">LOW", ">HIGH"};
	struct table *t = table_new(cli, headers, 7);
	size_t rows = 0;

	for (size_t i = 0; i < reclaim_topology_node_count(s->topo); i++) {
		const struct reclaim_node *n = reclaim_topology_node(s->topo, i);

		for (size_t j = 0; j < reclaim_node_zone_count(n); j++) {
			const struct reclaim_zone *z = reclaim_node_zone(n, j);
			char id[16], m[24], f[24], mi[24], lo[24], hi[24];

			snprintf(id, sizeof(id), "%d", reclaim_node_id(n));
			snprintf(m, sizeof(m), "%" PRIu64, reclaim_zone_managed_pages(z));
			snprintf(f, sizeof(f), "%" PRIu64, reclaim_zone_free_pages(z));
			snprintf(mi, sizeof(mi), "%" PRIu64, reclaim_zone_min_pages(z));
			snprintf(lo, sizeof(lo), "%" PRIu64, reclaim_zone_low_pages(z));
			snprintf(hi, sizeof(hi), "%" PRIu64, reclaim_zone_high_pages(z));
			table_add(t, id, reclaim_zone_name(z), m, f, mi, lo, hi);
			rows++;
		}
	}
	if (rows)
		table_print(t, stdout);
	else
		printf("no /proc/zoneinfo\n");
	table_free(t);
}

static void print_counters(struct cli *cli, const struct snapshot *s)
{
	static const char *const headers[] = {"COUNTER", ">VALUE"};
	struct table *t;

	if (!s->vmstat) {
		printf("no /proc/vmstat\n");
		return;
	}
	t = table_new(cli, headers, 2);
	for (size_t i = 0; i < reclaim_vmstat_count(s->vmstat); i++) {
		char v[24];

		snprintf(v, sizeof(v), "%" PRIu64, reclaim_vmstat_value(s->vmstat, i));
		table_add(t, reclaim_vmstat_name(s->vmstat, i), v);
	}
	table_print(t, stdout);
	table_free(t);
}

static void print_pressure(struct cli *cli, const struct snapshot *s)
{
	static const char *const headers[] = {"", ">AVG10", ">AVG60", ">AVG300", ">TOTAL"};
	static const char *const kinds[] = {"some", "full"};
	struct table *t;

	if (!s->pressure) {
		printf("%s\n", s->pressure_missing);
		return;
	}
	t = table_new(cli, headers, 5);
	for (int k = RECLAIM_PRESSURE_SOME; k <= RECLAIM_PRESSURE_FULL; k++) {
		char a[16], b[16], c[16], tot[32];

		if (!reclaim_pressure_has(s->pressure, k))
			continue;
		snprintf(a, sizeof(a), "%.2f", reclaim_pressure_avg10(s->pressure, k));
		snprintf(b, sizeof(b), "%.2f", reclaim_pressure_avg60(s->pressure, k));
		snprintf(c, sizeof(c), "%.2f", reclaim_pressure_avg300(s->pressure, k));
		snprintf(tot, sizeof(tot), "%.3fs",
			 (double)reclaim_pressure_total_us(s->pressure, k) / 1e6);
		table_add(t, kinds[k], a, b, c, tot);
	}
	table_print(t, stdout);
	table_free(t);
}

#define NO_SYSCTLS "unknown (no /proc/sys/vm under this root)"

static void print_throttle(const struct snapshot *s)
{
	const int64_t *limit = knob_value(s, "max_direct_reclaimers");
	uint64_t n;

	if (!limit && !s->sysctls)
		printf("Limit: " NO_SYSCTLS "\n");
	else if (!limit)
		printf("Limit: not supported by this kernel (no "
		       "/proc/sys/vm/max_direct_reclaimers)\n");
	else if (*limit == 0)
		printf("Limit: none (vm.max_direct_reclaimers = 0)\n");
	else
		printf("Limit: %" PRId64 " task%s in direct reclaim per node at once "
		       "(vm.max_direct_reclaimers)\n",
		       *limit, *limit == 1 ? "" : "s");
	if (throttled_count(s, &n))
		printf("Waits: %" PRIu64 " (direct_reclaim_throttled)\n", n);
	else
		printf("Waits: not counted by this kernel (no direct_reclaim_throttled in "
		       "/proc/vmstat)\n");
}

static void status_text(struct cli *cli, const struct snapshot *s)
{
	print_kernel(cli, s);
	printf("\n");
	heading(cli, "Knobs");
	print_knobs(cli, s);
	printf("\n");
	heading(cli, reclaim_topology_is_numa(s->topo) ? "NUMA nodes"
						       : "NUMA nodes (no NUMA in sysfs: one node)");
	print_nodes(cli, s);
	printf("\n");
	heading(cli, "kswapd threads");
	if (reclaim_kswapd_list_count(s->kswapd))
		threads_table(cli, s->kswapd, stdout);
	else
		printf("none found\n");
	printf("\n");
	heading(cli, "Direct reclaim throttle");
	print_throttle(s);
	printf("\n");
	heading(cli, "Swap");
	swap_print(cli, s->swaps, knob_value(s, "swap_round_robin_quota_kb"),
		   s->sysctls ? NULL : NO_SYSCTLS, s->swaps_missing);
	printf("\n");
	heading(cli, "Zones (pages)");
	print_zones(cli, s);
	printf("\n");
	heading(cli, "Reclaim counters");
	print_counters(cli, s);
	printf("\n");
	heading(cli, "Memory pressure");
	print_pressure(cli, s);
}

static void status_help(FILE *out)
{
	fputs("Shows kernel support for the reclaim knobs, their values, the NUMA nodes\n"
	      "with their CPUs, memory, zones and kswapd threads, the direct reclaim\n"
	      "throttle, the swap rings, the reclaim counters of /proc/vmstat and memory\n"
	      "pressure (PSI). What the kernel lacks is shown as unsupported.\n"
	      "\nOptions:\n"
	      "  -J, --json   JSON output (schema 1, see reclaimctl(8))\n"
	      "  -h, --help   this help\n"
	      "  -P, --prometheus    Prometheus text format (see PROMETHEUS METRICS in\n"
	      "                      reclaimctl(8))\n"
	      "      --textfile DIR  write it to DIR/reclaimctl.prom, atomically (for\n"
	      "                      node_exporter's textfile collector)\n",
	      out);
}

static int run_status(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    COMMON_LONG_OPTIONS,
	    {"prometheus", no_argument, NULL, 'P'},
	    {"textfile", required_argument, NULL, 'T'},
	    {0},
	};
	struct snapshot s = {0};
	const char *textfile = NULL;
	bool prometheus = false;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS "P", opts, NULL)) != -1) {
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
	if (optind < argc)
		return usage_error("status: unexpected argument '%s'", argv[optind]);
	if (prometheus && cli->json)
		return usage_error("status: --json and --prometheus exclude each other");
	r = snapshot_read(cli, &s);
	if (r == 0) {
		if (prometheus)
			r = prometheus_status(cli, &s, textfile);
		else if (cli->json)
			status_json(cli, &s);
		else
			status_text(cli, &s);
	}
	snapshot_free(&s);
	return r;
}

const struct command cmd_status = {
    .name = "status",
    .run = run_status,
    .args = "[--json | --prometheus | --textfile DIR]",
    .summary = "Show kernel support, knobs, nodes, kswapd threads, counters and pressure",
    .help = status_help,
};
