// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "abandoned.h"
#include "model.h"
#include "reclaimctl.h"
#include "snapshot.h"
#include "status-tables.h"
#include "swap-tables.h"
#include "thread-table.h"
#include "verify.h"

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

/* The nodes' rows with their own counters last: a NUMA system's nodes have them. */
static cJSON *json_nodes(struct cli *cli, const struct snapshot *s)
{
	cJSON *nodes = status_json_nodes(cli, s);

	for (int i = 0; i < cJSON_GetArraySize(nodes); i++) {
		int id = reclaim_node_id(reclaim_topology_node(s->topo, (size_t)i));
		cJSON *o = cJSON_GetArrayItem(nodes, i);
		struct reclaim_vmstat *vs;

		if (reclaim_topology_is_numa(s->topo) &&
		    reclaim_vmstat_new_node(cli->ctx, id, &vs) == 0) {
			cJSON_AddItemToObject(o, "vmstat", json_vmstat(vs));
			reclaim_vmstat_unref(vs);
		} else {
			cJSON_AddNullToObject(o, "vmstat");
		}
	}
	return nodes;
}

/* The whole document, or with @only_key only that key of it. */
/* The knobs a sweep or adapt that died left at its values (check's exit bit 64). */
static cJSON *json_abandoned(struct cli *cli)
{
	cJSON *a = cJSON_CreateArray();
	struct abandoned *list;
	size_t n = abandoned_knobs(cli, &list);

	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, abandoned_json(&list[i]));
	free(list);
	return a;
}

static void print_abandoned(struct cli *cli)
{
	struct abandoned *list;
	size_t n = abandoned_knobs(cli, &list);

	if (n > 0) {
		separator(cli);
		heading(cli, "Left by a holder that died");
	}
	for (size_t i = 0; i < n; i++)
		abandoned_print(&list[i]);
	free(list);
}

/* The knobs another writer changed since reclaimctl set them (check's exit bit 128). */
static cJSON *json_drifted(struct cli *cli, const struct snapshot *s)
{
	if (!s->verify) {
		warnmsg("%s: no drifted knobs", s->verify_error);
		return cJSON_CreateNull();
	}
	return verify_json_drifted(cli, s->verify);
}

static void print_drifted(struct cli *cli, const struct snapshot *s)
{
	const struct reclaim_verify *v = s->verify;
	size_t i;

	if (!v) {
		warnmsg("%s: cannot tell which knobs drifted", s->verify_error);
		return;
	}
	for (i = 0; i < reclaim_verify_count(v); i++)
		if (reclaim_verify_state(v, i) == RECLAIM_VERIFY_DRIFTED)
			break;
	if (i < reclaim_verify_count(v)) {
		printf("\n");
		heading(cli, "Changed by another writer (see reclaimctl verify)");
		verify_print_drifted(v);
	}
}

static void status_json(struct cli *cli, const struct snapshot *s, const char *only_key)
{
	cJSON *root = json_document(), *o;
	const char *release = reclaim_kernel_release(cli->ctx);

	o = cJSON_AddObjectToObject(root, "kernel");
	if (release)
		cJSON_AddStringToObject(o, "release", release);
	else
		cJSON_AddNullToObject(o, "release");
	cJSON_AddItemToObject(o, "features", json_features(s));

	cJSON_AddItemToObject(root, "knobs", status_json_knobs(cli, s));
	cJSON_AddItemToObject(root, "nodes", json_nodes(cli, s));
	cJSON_AddItemToObject(root, "vmstat", status_json_counters(cli, s));
	cJSON_AddItemToObject(root, "pressure", status_json_pressure(cli, s));
	cJSON_AddItemToObject(root, "throttle", json_throttle(s));
	o = cJSON_AddObjectToObject(root, "swap");
	json_add_swap(cli, o, s->swaps, knob_value(s, RECLAIM_KNOB_SWAP_ROUND_ROBIN_QUOTA_KB));
	cJSON_AddItemToObject(root, "abandoned", json_abandoned(cli));
	cJSON_AddItemToObject(root, "drifted", json_drifted(cli, s));
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
		    "  This kernel lacks reclaimctl's knobs: it needs reclaimctl's kernel patches (KNOBS in reclaimctl(8)).\n");
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
		note(cli, "no kswapd threads found");
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
	bool tables;	      /* it prints tables (all but throttle) */
};

static const struct section sections[] = {
    {"knobs", "Knobs", status_print_knobs, &knobs_columns, "knobs", true, true},
    {"nodes", "NUMA nodes", status_print_nodes, &nodes_columns, "nodes", true, true},
    {"threads", "kswapd threads", print_threads, &threads_columns, "nodes", true, true},
    {"throttle", "Direct reclaim throttle", print_throttle, NULL, "throttle", true, false},
    {"swap", "Swap", print_swap_all, NULL, "swap", true, true},
    {"rings", NULL, print_rings, &rings_columns, "swap", false, true},
    {"devices", NULL, print_devices, &devices_columns, "swap", false, true},
    {"zones", "Zones (pages)", status_print_zones, &zones_columns, "nodes", true, true},
    {"counters", "Reclaim counters", status_print_counters, &counters_columns, "vmstat", true,
     true},
    {"pressure", "Memory pressure", status_print_pressure, &pressure_columns, "pressure", true,
     true},
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
	print_abandoned(cli);
	print_drifted(cli, s);
	for (size_t i = 0; i < ARRAY_LEN(sections); i++) {
		const char *title = sections[i].title;

		if (!sections[i].in_all)
			continue;
		if (sections[i].print == status_print_nodes && !reclaim_topology_is_numa(s->topo))
			title = "NUMA nodes (no NUMA in sysfs: one node)";
		separator(cli);
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
	      "  -J, --json          JSON output (schema 2, see reclaimctl(8))\n"
	      "      --prometheus    Prometheus text format (see PROMETHEUS METRICS in\n"
	      "                      reclaimctl(8)); -P was its short option once\n"
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
	if (*only && !(*only)->tables)
		return table_options_refuse(cli, "status throttle");
	if (!table_columns_given(cli))
		return 0;
	if (!*only || !(*only)->columns)
		return usage_error("status: -o and --output-all are for one table: status knobs, "
				   "nodes, threads, rings, devices, zones, counters or pressure");
	return table_check(cli, "status", (*only)->columns);
}

enum { OPT_PROMETHEUS = OPT_COMMAND, OPT_TEXTFILE };

static int run_status(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    COMMON_LONG_OPTIONS,
	    TABLE_LONG_OPTIONS,
	    {"prometheus", no_argument, NULL, OPT_PROMETHEUS},
	    {"textfile", required_argument, NULL, OPT_TEXTFILE},
	    {0},
	};
	const struct section *only;
	struct snapshot s = {0};
	const char *textfile = NULL;
	bool prometheus = false;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS TABLE_SHORT_OPTIONS, opts,
				NULL)) != -1) {
		bool done;

		if (c == OPT_PROMETHEUS || c == OPT_TEXTFILE) {
			prometheus = true;
			textfile = c == OPT_TEXTFILE ? optarg : textfile;
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
	if (prometheus && (table_columns_given(cli) || cli->out.noheadings || cli->out.raw ||
			   cli->out.bytes || cli->out.pairs))
		return usage_error(
		    "status: --prometheus takes none of -o, --output-all, -n, -r, -b "
		    "and -P (-P is --pairs)");
	if (prometheus && only)
		return usage_error("status: --prometheus exports every section");
	r = snapshot_read(cli, &s);
	if (r == 0)
		snapshot_verify(cli, &s);
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
    .args = "[SECTION] [-o LIST] [--output-all] [-n] [-r | -P] [-b] [--json | --prometheus | "
	    "--textfile DIR]",
    .summary = "Show kernel support, knobs, nodes, kswapd threads, counters and pressure",
    .help = status_help,
    .tables = (const struct coltable *const[]){&knobs_columns, &nodes_columns, &threads_columns,
					       &rings_columns, &devices_columns, &zones_columns,
					       &counters_columns, &pressure_columns, NULL},
    .reads_knobs = true,
};
