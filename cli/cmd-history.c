// SPDX-License-Identifier: GPL-2.0-or-later
/* reclaimctl history: the changes since boot, from /run/reclaimctl/history. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>

#include "reclaimctl.h"

static void history_help(FILE *out)
{
	fprintf(out,
		"Lists the knob changes reclaimctl made since boot, oldest first: when, the\n"
		"change's number (the knobs of one change share it), the command (set,\n"
		"preset, autotune, boot, restore, restore-boot, swap-priority), where the\n"
		"value came from, the knob (\"swap DEVICE\" for a swap priority change, with\n"
		"the /etc/fstab pri= it replaced in NOTE), and its old and new value. A\n"
		"change a restore undid is marked, and so is one interrupted: recorded,\n"
		"then cut off (a SIGKILL, a crash) before it was marked done, its knobs at\n"
		"the old or the new value; restore undoes it like any other. A value\n"
		"another writer left on a knob reclaimctl changed is an entry \"outside\"\n"
		"(changed outside reclaimctl), recorded by the first reclaimctl command\n"
		"that reads it and may write the history; restore never undoes it. The\n"
		"history, " RECLAIM_HISTORY_FILE ", ends with the boot; it keeps the first\n"
		"record of each knob and the last %d.\n"
		"\nOptions:\n"
		"  -J, --json   JSON output\n"
		"  -h, --help   this help\n",
		RECLAIM_HISTORY_KEEP);
}

enum { H_TIME, H_CHANGE, H_COMMAND, H_SOURCE, H_KNOB, H_OLD, H_NEW, H_NOTE };

static const struct colinfo history_cols[] = {
    [H_TIME] = {"TIME", 0, 0, "when, in local time", "time", CJ_STRING},
    [H_CHANGE] = {"CHANGE", 0, COL_RIGHT, "number of the change: its knobs share it", "change",
		  CJ_NUMBER},
    [H_COMMAND] = {"COMMAND", 0, 0, "command that made it", "command", CJ_STRING},
    [H_SOURCE] = {"SOURCE", 0, COL_TRUNC, "where the value came from", "source", CJ_STRING},
    [H_KNOB] = {"KNOB", 0, 0, "knob", "knob", CJ_STRING},
    [H_OLD] = {"OLD", 0, COL_RIGHT, "value before", "old", CJ_KNOB_VALUE},
    [H_NEW] = {"NEW", 0, COL_RIGHT, "value after", "new", CJ_KNOB_VALUE},
    [H_NOTE] = {"NOTE", 0, 0, "interrupted; undone, or the change it undid", "undoes",
		CJ_NUMBER_OR_STRING},
};

static const struct coltable history_columns =
    COLTABLE("history", history_cols, "TIME,CHANGE,COMMAND,SOURCE,KNOB,OLD,NEW,NOTE", "records[]");

/* A swap device's priority in OLD or NEW, which hold knobs' values too. */
static void set_priority(struct table *t, int id, int prio)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", prio);
	table_set_value(t, id, buf, cJSON_CreateNumber(prio));
}

/* TIME, and in the JSON "epoch" after "time": the same instant, for arithmetic. */
static void set_time(struct table *t, int64_t ns)
{
	table_set_time(t, H_TIME, ns);
	table_json_add(t, "epoch", cJSON_CreateNumber(epoch_of(ns)));
}

/*
 * NOTE: "undone", or the change it undid, after "interrupted" for a record
 * whose change was cut off before it was marked done; the JSON's "undoes" is
 * that change alone.
 */
static void set_note(struct table *t, const struct reclaim_history *h, size_t i)
{
	long undoes = reclaim_history_undoes(h, i);
	char what[32] = "", text[48];

	if (reclaim_history_undone(h, i))
		snprintf(what, sizeof(what), "undone");
	else if (undoes > 0)
		snprintf(what, sizeof(what), "undoes %ld", undoes);
	else if (undoes < 0)
		snprintf(what, sizeof(what), "undoes all");
	if (reclaim_history_interrupted(h, i))
		snprintf(text, sizeof(text), "interrupted%s%s", *what ? ", " : "", what);
	else
		snprintf(text, sizeof(text), "%s", *what ? what : "-");
	table_set_value(t, H_NOTE, text,
			undoes > 0   ? cJSON_CreateNumber((double)undoes)
			: undoes < 0 ? cJSON_CreateString("all")
				     : NULL);
}

/* NOTE of a swap priority change: as a knob's, and what /etc/fstab had. */
static void set_swap_note(struct table *t, const struct reclaim_history *h, size_t i)
{
	long undoes = reclaim_history_swap_undoes(h, i);
	char what[32] = "", fstab[32] = "", text[96];
	int before;

	if (reclaim_history_swap_undone(h, i))
		snprintf(what, sizeof(what), "undone");
	else if (undoes > 0)
		snprintf(what, sizeof(what), "undoes %ld", undoes);
	else if (undoes < 0)
		snprintf(what, sizeof(what), "undoes all");
	if (reclaim_history_swap_fstab(h, i, &before) == 1 && before >= 0)
		snprintf(fstab, sizeof(fstab), "fstab had pri=%d", before);
	else if (reclaim_history_swap_fstab(h, i, &before) == 1)
		snprintf(fstab, sizeof(fstab), "fstab had no pri=");
	snprintf(text, sizeof(text), "%s%s%s%s%s",
		 reclaim_history_swap_interrupted(h, i) ? "interrupted" : "",
		 reclaim_history_swap_interrupted(h, i) && (*what || *fstab) ? ", " : "", what,
		 *what && *fstab ? ", " : "", fstab);
	table_set_value(t, H_NOTE, *text ? text : "-",
			undoes > 0   ? cJSON_CreateNumber((double)undoes)
			: undoes < 0 ? cJSON_CreateString("all")
				     : NULL);
}

/* A swap priority change: KNOB is "swap DEVICE", null in the JSON, which has "device". */
static void fill_swap(struct table *t, const struct reclaim_history *h, size_t i)
{
	char *device = printable(reclaim_history_swap_device(h, i)), *knob;
	int before;

	if (asprintf(&knob, "swap %s", device) < 0)
		abort();
	table_row(t);
	table_set_uint(t, H_CHANGE, reclaim_history_swap_change(h, i));
	set_time(t, reclaim_history_swap_time_ns(h, i));
	table_set_str(t, H_COMMAND, reclaim_history_swap_command(h, i));
	table_set_str(t, H_SOURCE, reclaim_history_swap_source(h, i));
	table_set_value(t, H_KNOB, knob, cJSON_CreateNull());
	set_priority(t, H_OLD, reclaim_history_swap_old(h, i));
	set_priority(t, H_NEW, reclaim_history_swap_new(h, i));
	table_json_add(t, "undone", cJSON_CreateBool(reclaim_history_swap_undone(h, i)));
	table_json_add(t, "interrupted", cJSON_CreateBool(reclaim_history_swap_interrupted(h, i)));
	table_json_add(t, "outside", cJSON_CreateBool(false));
	set_swap_note(t, h, i);
	table_json_add(t, "device", cJSON_CreateString(reclaim_history_swap_device(h, i)));
	if (reclaim_history_swap_fstab(h, i, &before) != 1)
		table_json_add(t, "fstab_before", cJSON_CreateNull());
	else if (before < 0)
		table_json_add(t, "fstab_before", cJSON_CreateString("none"));
	else
		table_json_add(t, "fstab_before", cJSON_CreateNumber(before));
	free(knob);
	free(device);
}

/*
 * A value another writer left on a knob, seen by a reclaimctl command: no
 * change of reclaimctl's (no number), OLD what reclaimctl had left, NEW
 * the value seen.
 */
static void outside_row(struct table *t, const struct reclaim_history *h, size_t i)
{
	table_row(t);
	table_set_value(t, H_CHANGE, "-", NULL);
	set_time(t, reclaim_history_outside_time_ns(h, i));
	table_set_str(t, H_COMMAND, "outside");
	table_set_str(t, H_SOURCE, "another writer");
	table_set_str(t, H_KNOB, reclaim_knob_name(reclaim_history_outside_knob(h, i)));
	table_set_knob(t, H_OLD, reclaim_history_outside_knob(h, i),
		       reclaim_history_outside_expected(h, i));
	table_set_knob(t, H_NEW, reclaim_history_outside_knob(h, i),
		       reclaim_history_outside_value(h, i));
	table_json_add(t, "undone", cJSON_CreateBool(false));
	table_json_add(t, "interrupted", cJSON_CreateBool(false));
	table_json_add(t, "outside", cJSON_CreateBool(true));
	table_set_value(t, H_NOTE, "changed outside reclaimctl", NULL);
}

/* The outside entries that came after @after records. */
static void outside_rows(struct table *t, const struct reclaim_history *h, size_t after)
{
	for (size_t i = 0; i < reclaim_history_outside_count(h); i++)
		if (reclaim_history_outside_after(h, i) == after)
			outside_row(t, h, i);
}

/*
 * In the JSON's order of keys; the swap changes among the knobs', by change
 * number, and the outside entries where they are in the file.
 */
static struct table *fill(struct cli *cli, const struct reclaim_history *h)
{
	struct table *t = table_new(cli, &history_columns);
	size_t sw = 0;

	for (size_t i = 0; i <= reclaim_history_count(h); i++) {
		while (sw < reclaim_history_swap_count(h) &&
		       (i == reclaim_history_count(h) ||
			reclaim_history_swap_change(h, sw) < reclaim_history_change(h, i)))
			fill_swap(t, h, sw++);
		outside_rows(t, h, i);
		if (i == reclaim_history_count(h))
			break;
		table_row(t);
		table_set_uint(t, H_CHANGE, reclaim_history_change(h, i));
		set_time(t, reclaim_history_time_ns(h, i));
		table_set_str(t, H_COMMAND, reclaim_history_command(h, i));
		table_set_str(t, H_SOURCE, reclaim_history_source(h, i));
		table_set_str(t, H_KNOB, reclaim_knob_name(reclaim_history_knob(h, i)));
		table_set_knob(t, H_OLD, reclaim_history_knob(h, i),
			       reclaim_history_old_value(h, i));
		table_set_knob(t, H_NEW, reclaim_history_knob(h, i),
			       reclaim_history_new_value(h, i));
		table_json_add(t, "undone", cJSON_CreateBool(reclaim_history_undone(h, i)));
		table_json_add(t, "interrupted",
			       cJSON_CreateBool(reclaim_history_interrupted(h, i)));
		table_json_add(t, "outside", cJSON_CreateBool(false));
		set_note(t, h, i);
	}
	return t;
}

static void history_json(struct cli *cli, const struct reclaim_history *h)
{
	cJSON *root = json_document();
	struct table *t = fill(cli, h);

	cJSON_AddItemToObject(root, "records", table_json_array(t));
	cJSON_AddNumberToObject(root, "trimmed", (double)reclaim_history_trimmed(h));
	json_print(root);
	cJSON_Delete(root);
	table_free(t);
}

static void history_table(struct cli *cli, const struct reclaim_history *h)
{
	struct table *t;

	if (reclaim_history_trimmed(h))
		note(cli, "(%" PRIu64 " older records dropped; the first of each knob is kept)",
		     reclaim_history_trimmed(h));
	if (reclaim_history_count(h) == 0 && reclaim_history_swap_count(h) == 0 &&
	    reclaim_history_outside_count(h) == 0) {
		note(cli, "no changes since boot");
		return;
	}
	t = fill(cli, h);
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
	/* another writer's value first: the history shows its entry */
	drift_note(cli);
	if (reclaim_history_new(cli->ctx, &h) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	if (cli->json)
		history_json(cli, h);
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
    .reads_knobs = true,
};
