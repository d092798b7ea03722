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
	fprintf(out,
		"Lists the knob changes reclaimctl made since boot, oldest first: when, the\n"
		"change's number (the knobs of one change share it), the command (set,\n"
		"preset, autotune, boot, restore, restore-boot), where the value\n"
		"came from, the knob, and its old and new value. A change a restore undid\n"
		"is marked. The history lives in " RECLAIM_HISTORY_FILE " and ends with the\n"
		"boot; it keeps the first record of each knob and the last %d.\n"
		"\nOptions:\n"
		"  -J, --json   JSON output\n"
		"  -h, --help   this help\n",
		RECLAIM_HISTORY_KEEP);
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

enum { H_TIME, H_CHANGE, H_COMMAND, H_SOURCE, H_KNOB, H_OLD, H_NEW, H_NOTE };

static const struct colinfo history_cols[] = {
    [H_TIME] = {"TIME", 0, 0, "when, in local time", "time", CJ_NUMBER},
    [H_CHANGE] = {"CHANGE", 0, COL_RIGHT, "number of the change: its knobs share it", "change",
		  CJ_NUMBER},
    [H_COMMAND] = {"COMMAND", 0, 0, "command that made it", "command", CJ_STRING},
    [H_SOURCE] = {"SOURCE", 0, COL_TRUNC, "where the value came from", "source", CJ_STRING},
    [H_KNOB] = {"KNOB", 0, 0, "knob", "knob", CJ_STRING},
    [H_OLD] = {"OLD", 0, COL_RIGHT, "value before", "old", CJ_NUMBER},
    [H_NEW] = {"NEW", 0, COL_RIGHT, "value after", "new", CJ_NUMBER},
    [H_NOTE] = {"NOTE", 0, 0, "undone, or the change it undid", "undoes", CJ_NUMBER},
};

static const struct coltable history_columns =
    COLTABLE("history", history_cols, "TIME,CHANGE,COMMAND,SOURCE,KNOB,OLD,NEW,NOTE", "records[]");

static void history_table(struct cli *cli, const struct reclaim_history *h)
{
	struct table *t;

	if (reclaim_history_trimmed(h))
		printf("(%" PRIu64 " older records dropped; the first of each knob is kept)\n",
		       reclaim_history_trimmed(h));
	if (reclaim_history_count(h) == 0) {
		printf("no changes since boot\n");
		return;
	}
	t = table_new(cli, &history_columns);
	for (size_t i = 0; i < reclaim_history_count(h); i++) {
		char when[32];
		long undoes = reclaim_history_undoes(h, i);

		local_time(when, sizeof(when), reclaim_history_time_ns(h, i));
		table_row(t);
		table_set(t, H_TIME, when);
		table_setf(t, H_CHANGE, "%lu", reclaim_history_change(h, i));
		table_set(t, H_COMMAND, reclaim_history_command(h, i));
		table_set(t, H_SOURCE, reclaim_history_source(h, i));
		table_set(t, H_KNOB, reclaim_knob_name(reclaim_history_knob(h, i)));
		table_setf(t, H_OLD, "%" PRId64, reclaim_history_old_value(h, i));
		table_setf(t, H_NEW, "%" PRId64, reclaim_history_new_value(h, i));
		if (reclaim_history_undone(h, i))
			table_set(t, H_NOTE, "undone");
		else if (undoes > 0)
			table_setf(t, H_NOTE, "undoes %ld", undoes);
		else if (undoes < 0)
			table_set(t, H_NOTE, "undoes all");
		else
			table_set(t, H_NOTE, NULL);
	}
	table_print(t);
	table_free(t);
}

static int run_history(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {COMMON_LONG_OPTIONS, TABLE_LONG_OPTIONS, {0}};
	struct reclaim_history *h;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS TABLE_SHORT_OPTIONS, opts,
				NULL)) != -1) {
		bool done;

		r = common_option(cli, &cmd_history, c, argv, &done);

		if (done)
			return r;
	}
	if (optind < argc)
		return usage_error("history: unexpected argument '%s'", argv[optind]);
	r = table_check(cli, "history", &history_columns);
	if (r)
		return r;
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
    .args = "[-o LIST] [--output-all] [-n] [-r] [--json]",
    .summary = "List the knob changes since boot",
    .help = history_help,
    .tables = (const struct coltable *const[]){&history_columns, NULL},
};
