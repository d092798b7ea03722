// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <stdlib.h>

#include "reclaimctl.h"

static void threads_help(FILE *out)
{
	fputs("Lists the kswapd threads of every node: pid, name, node, index, state,\n"
	      "CPU time (user + system), the CPU it last ran on and the CPUs it may use.\n"
	      "\nOptions:\n"
	      "  -J, --json   JSON output\n"
	      "  -h, --help   this help\n",
	      out);
}

enum { T_PID, T_NAME, T_NODE, T_INDEX, T_STATE, T_CPU, T_LAST, T_ALLOWED };

static const struct colinfo thread_cols[] = {
    [T_PID] = {"PID", 0, COL_RIGHT, "process ID", "pid", CJ_NUMBER},
    [T_NAME] = {"NAME", 0, 0, "thread name (kswapdN or kswapdN:I)", "name", CJ_STRING},
    [T_NODE] = {"NODE", 0, COL_RIGHT, "NUMA node it reclaims", "node", CJ_NUMBER},
    [T_INDEX] = {"INDEX", 0, COL_RIGHT, "index among the node's threads", "index", CJ_NUMBER},
    [T_STATE] = {"STATE", 0, 0, "scheduler state (R, S, D...)", "state", CJ_STRING},
    [T_CPU] = {"CPU", 0, COL_RIGHT, "CPU time in seconds, user + system", "cpu_seconds", CJ_NUMBER},
    [T_LAST] = {"LAST", 0, COL_RIGHT, "CPU it last ran on", "last_cpu", CJ_NUMBER},
    [T_ALLOWED] = {"ALLOWED", 0, 0, "CPUs it may run on", "allowed_cpus", CJ_ARRAY},
};

const struct coltable threads_columns =
    COLTABLE("threads", thread_cols, "PID,NAME,NODE,INDEX,STATE,CPU,LAST,ALLOWED", "kswapd[]");

void threads_table(struct cli *cli, const struct reclaim_kswapd_list *list)
{
	struct table *t = table_new(cli, &threads_columns);

	for (size_t i = 0; i < reclaim_kswapd_list_count(list); i++) {
		const struct reclaim_kswapd *k = reclaim_kswapd_list_get(list, i);
		const unsigned int *cpus;
		size_t n;
		char *allowed;

		table_row(t);
		table_setf(t, T_PID, "%d", (int)reclaim_kswapd_pid(k));
		table_set(t, T_NAME, reclaim_kswapd_name(k));
		table_setf(t, T_NODE, "%d", reclaim_kswapd_node(k));
		table_setf(t, T_INDEX, "%d", reclaim_kswapd_index(k));
		table_setf(t, T_STATE, "%c", reclaim_kswapd_state(k));
		table_setf(t, T_CPU, "%.2f", reclaim_kswapd_cpu_seconds(k));
		table_setf(t, T_LAST, "%d", reclaim_kswapd_last_cpu(k));
		cpus = reclaim_kswapd_allowed_cpus(k, &n);
		allowed = format_cpulist(cpus, n);
		table_set(t, T_ALLOWED, allowed);
		free(allowed);
	}
	table_print(t);
	table_free(t);
}

static int run_threads(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {COMMON_LONG_OPTIONS, TABLE_LONG_OPTIONS, {0}};
	struct reclaim_kswapd_list *list;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS TABLE_SHORT_OPTIONS, opts,
				NULL)) != -1) {
		bool done;

		r = common_option(cli, &cmd_threads, c, argv, &done);

		if (done)
			return r;
	}
	if (optind < argc)
		return usage_error("threads: unexpected argument '%s'", argv[optind]);
	r = table_check(cli, "threads", &threads_columns);
	if (r)
		return r;
	if (reclaim_kswapd_list_new(cli->ctx, &list) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	if (cli->json) {
		cJSON *root = json_document(), *a = cJSON_AddArrayToObject(root, "kswapd");

		for (size_t i = 0; i < reclaim_kswapd_list_count(list); i++)
			cJSON_AddItemToArray(a, json_kswapd(reclaim_kswapd_list_get(list, i)));
		json_print(root);
		cJSON_Delete(root);
	} else if (reclaim_kswapd_list_count(list) == 0) {
		printf("no kswapd threads found\n");
	} else {
		threads_table(cli, list);
	}
	reclaim_kswapd_list_unref(list);
	return EXIT_SUCCESS;
}

const struct command cmd_threads = {
    .name = "threads",
    .run = run_threads,
    .args = "[-o LIST] [--output-all] [-n] [-r] [--json]",
    .summary = "Show the kswapd threads of every NUMA node",
    .help = threads_help,
    .tables = (const struct coltable *const[]){&threads_columns, NULL},
};
