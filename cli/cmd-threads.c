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

void threads_table(struct cli *cli, const struct reclaim_kswapd_list *list, FILE *out)
{
	static const char *const headers[] = {">PID",  "NAME",	  ">NODE", ">INDEX",
					      "STATE", ">CPU(s)", ">LAST", "ALLOWED"};
	struct table *t = table_new(cli, headers, 8);

	for (size_t i = 0; i < reclaim_kswapd_list_count(list); i++) {
		const struct reclaim_kswapd *k = reclaim_kswapd_list_get(list, i);
		char pid[16], node[16], idx[16], state[2] = {reclaim_kswapd_state(k), '\0'};
		char cpu[32], last[16];
		const unsigned int *cpus;
		size_t n;
		char *allowed;

		snprintf(pid, sizeof(pid), "%d", (int)reclaim_kswapd_pid(k));
		snprintf(node, sizeof(node), "%d", reclaim_kswapd_node(k));
		snprintf(idx, sizeof(idx), "%d", reclaim_kswapd_index(k));
		snprintf(cpu, sizeof(cpu), "%.2f", reclaim_kswapd_cpu_seconds(k));
		snprintf(last, sizeof(last), "%d", reclaim_kswapd_last_cpu(k));
		cpus = reclaim_kswapd_allowed_cpus(k, &n);
		allowed = format_cpulist(cpus, n);
		table_add(t, pid, reclaim_kswapd_name(k), node, idx, state, cpu, last, allowed);
		free(allowed);
	}
	table_print(t, out);
	table_free(t);
}

static int run_threads(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {COMMON_LONG_OPTIONS, {0}};
	struct reclaim_kswapd_list *list;
	int c;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS, opts, NULL)) != -1) {
		bool done;
		int r = common_option(cli, &cmd_threads, c, argv, &done);

		if (done)
			return r;
	}
	if (optind < argc)
		return usage_error("threads: unexpected argument '%s'", argv[optind]);
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
		threads_table(cli, list, stdout);
	}
	reclaim_kswapd_list_unref(list);
	return EXIT_SUCCESS;
}

const struct command cmd_threads = {
    .name = "threads",
    .run = run_threads,
    .args = "[--json]",
    .summary = "Show the kswapd threads of every NUMA node",
    .help = threads_help,
};
