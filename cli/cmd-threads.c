// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <stdlib.h>

#include "reclaimctl.h"
#include "thread-table.h"

static void threads_help(FILE *out)
{
	fputs("Lists the kswapd threads of every node: pid, name, node, index, state,\n"
	      "CPU time (user + system), the CPU it last ran on and the CPUs it may use.\n"
	      "\nOptions:\n"
	      "  -J, --json   JSON output\n"
	      "  -h, --help   this help\n",
	      out);
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
		cJSON *root = json_document();

		cJSON_AddItemToObject(root, "kswapd", threads_json(cli, list, -1));
		json_print(root);
		cJSON_Delete(root);
	} else if (reclaim_kswapd_list_count(list) == 0) {
		note(cli, "no kswapd threads found");
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
