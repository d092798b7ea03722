// SPDX-License-Identifier: GPL-2.0-or-later
/* reclaimctl history: the changes since boot, from /run/reclaimctl/history. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reclaimctl.h"

static void history_help(FILE *out)
{
	fputs("Lists the knob changes reclaimctl made since boot, oldest first: when, the\n"
	      "change's number (the knobs of one change share it), the command (set,\n"
	      "preset, autotune, boot, restore, restore-boot, adapt), where the value\n"
	      "came from, the knob, and its old and new value. A change a restore undid\n"
	      "is marked. The history lives in /run/reclaimctl/history and ends with the\n"
	      "boot; it keeps the first record of each knob and the last 1000.\n"
	      "\nOptions:\n"
	      "  -J, --json   JSON output\n"
	      "  -h, --help   this help\n",
	      out);
}

static void local_time(char *buf, size_t size, int64_t ns)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (!localtime_r(&t, &tm) || strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(buf, size, "?");
}

static void history_json(const struct reclaim_history *h)
{
	cJSON *root = json_document(), *arr = cJSON_AddArrayToObject(root, "records");

	for (size_t i = 0; i < reclaim_history_count(h); i++) {
		cJSON *o = cJSON_CreateObject();
		long undoes = reclaim_history_undoes(h, i);

		cJSON_AddNumberToObject(o, "change", (double)reclaim_history_change(h, i));
		cJSON_AddNumberToObject(o, "time", (double)reclaim_history_time_ns(h, i) / 1e9);
		cJSON_AddStringToObject(o, "command", reclaim_history_command(h, i));
		cJSON_AddStringToObject(o, "source", reclaim_history_source(h, i));
		cJSON_AddStringToObject(o, "knob", reclaim_knob_name(reclaim_history_knob(h, i)));
		cJSON_AddNumberToObject(o, "old", (double)reclaim_history_old_value(h, i));
		cJSON_AddNumberToObject(o, "new", (double)reclaim_history_new_value(h, i));
		cJSON_AddBoolToObject(o, "undone", reclaim_history_undone(h, i));
		if (undoes > 0)
			cJSON_AddNumberToObject(o, "undoes", (double)undoes);
		else if (undoes < 0)
			cJSON_AddStringToObject(o, "undoes", "all");
		else
			cJSON_AddNullToObject(o, "undoes");
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddNumberToObject(root, "trimmed", (double)reclaim_history_trimmed(h));
	json_print(root);
	cJSON_Delete(root);
}

static void history_table(struct cli *cli, const struct reclaim_history *h)
{
	static const char *const headers[] = {"TIME", "CHANGE", "COMMAND", "SOURCE",
					      "KNOB", ">OLD",	">NEW",	   "NOTE"};
	struct table *t;

	if (reclaim_history_trimmed(h))
		printf("(%" PRIu64 " older records dropped; the first of each knob is kept)\n",
		       reclaim_history_trimmed(h));
	if (reclaim_history_count(h) == 0) {
		printf("no changes since boot\n");
		return;
	}
	t = table_new(cli, headers, sizeof(headers) / sizeof(headers[0]));
	for (size_t i = 0; i < reclaim_history_count(h); i++) {
		char when[32], change[24], old[24], new[24], note[32] = "";
		long undoes = reclaim_history_undoes(h, i);

		local_time(when, sizeof(when), reclaim_history_time_ns(h, i));
		snprintf(change, sizeof(change), "%lu", reclaim_history_change(h, i));
		snprintf(old, sizeof(old), "%" PRId64, reclaim_history_old_value(h, i));
		snprintf(new, sizeof(new), "%" PRId64, reclaim_history_new_value(h, i));
		if (reclaim_history_undone(h, i))
			snprintf(note, sizeof(note), "undone");
		else if (undoes > 0)
			snprintf(note, sizeof(note), "undoes %ld", undoes);
		else if (undoes < 0)
			snprintf(note, sizeof(note), "undoes all");
		table_add(t, when, change, reclaim_history_command(h, i),
			  reclaim_history_source(h, i),
			  reclaim_knob_name(reclaim_history_knob(h, i)), old, new, note);
	}
	table_print(t, stdout);
	table_free(t);
}

static int run_history(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {COMMON_LONG_OPTIONS, {0}};
	struct reclaim_history *h;
	int c;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS, opts, NULL)) != -1) {
		bool done;
		int r = common_option(cli, &cmd_history, c, argv, &done);

		if (done)
			return r;
	}
	if (optind < argc)
		return usage_error("history: unexpected argument '%s'", argv[optind]);
	if (reclaim_history_new(cli->ctx, &h) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	if (cli->json)
		history_json(h);
	else
		history_table(cli, h);
	reclaim_history_unref(h);
	return EXIT_SUCCESS;
}

const struct command cmd_history = {
    .name = "history",
    .run = run_history,
    .args = "[--json]",
    .summary = "List the knob changes since boot",
    .help = history_help,
};
