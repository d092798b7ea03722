// SPDX-License-Identifier: GPL-2.0-or-later
/* The kswapd threads' table, as threads and status show it. */
#include <stdlib.h>

#include "reclaimctl.h"
#include "thread-table.h"

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

static void fill_row(struct table *t, const struct reclaim_kswapd *k)
{
	const unsigned int *cpus = NULL;
	char state[2] = {reclaim_kswapd_state(k), '\0'};
	size_t n;
	char *allowed;

	table_row(t);
	table_set_int(t, T_PID, reclaim_kswapd_pid(k));
	table_set_str(t, T_NAME, reclaim_kswapd_name(k));
	table_set_int(t, T_NODE, reclaim_kswapd_node(k));
	table_set_int(t, T_INDEX, reclaim_kswapd_index(k));
	table_set_str(t, T_STATE, state);
	table_set_fixed(t, T_CPU, reclaim_kswapd_cpu_seconds(k), 2);
	table_set_int(t, T_LAST, reclaim_kswapd_last_cpu(k));
	cpus = reclaim_kswapd_allowed_cpus(k, &n);
	allowed = format_cpulist(cpus, n);
	table_set_value(t, T_ALLOWED, allowed, json_cpus(cpus, n));
	free(allowed);
}

/* The rows of the threads of @node, or of every node (-1). */
static void fill(struct table *t, const struct reclaim_kswapd_list *list, int node)
{
	for (size_t i = 0; i < reclaim_kswapd_list_count(list); i++) {
		const struct reclaim_kswapd *k = reclaim_kswapd_list_get(list, i);

		if (node < 0 || reclaim_kswapd_node(k) == node)
			fill_row(t, k);
	}
}

void threads_table(struct cli *cli, const struct reclaim_kswapd_list *list)
{
	struct table *t = table_new(cli, &threads_columns);

	fill(t, list, -1);
	table_print(t);
	table_free(t);
}

cJSON *threads_json(struct cli *cli, const struct reclaim_kswapd_list *list, int node)
{
	struct table *t = table_new_json(cli, &threads_columns);
	cJSON *rows;

	fill(t, list, node);
	rows = table_json_array(t);
	table_free(t);
	return rows;
}
