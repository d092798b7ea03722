// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl verify: is every knob reclaimctl is responsible for still what
 * it left, and if not, who changed it. libreclaim decides (reclaim_verify);
 * this prints. Exit 0 all in place, 1 something drifted or left by a dead
 * holder (or verify failed), 2 usage.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>

#include "reclaimctl.h"
#include "verify.h"

enum { V_KNOB, V_STATE, V_EXPECTED, V_LIVE, V_BASIS, V_WRITER, V_SINCE, V_REASON };

static const struct colinfo verify_cols[] = {
    [V_KNOB] = {"KNOB", 0, 0, "knob", "knob", CJ_STRING},
    [V_STATE] = {"STATE", 0, 0, "ok, drifted or abandoned (left by a holder that died)", "state",
		 CJ_STRING},
    [V_EXPECTED] = {"EXPECTED", 0, COL_RIGHT, "the value reclaimctl left it at", "expected",
		    CJ_KNOB_VALUE},
    [V_LIVE] = {"LIVE", 0, COL_RIGHT, "the value now; - where the kernel lacks the knob", "live",
		CJ_KNOB_VALUE},
    [V_BASIS] = {"BASIS", 0, 0, "why reclaimctl answers for it: history, persisted, boot-preset",
		 "basis", CJ_STRING},
    [V_WRITER] = {"WRITER", 0, 0,
		  "who set the live value: sysctl FILE:LINE, runtime, a holder and its PID",
		  "writer", CJ_STRING},
    [V_SINCE] = {"SINCE", 0, 0, "when reclaimctl first saw the live value", "since", CJ_STRING},
    [V_REASON] = {"REASON", 0, COL_TRUNC, "one line on what is not in place", "reason", CJ_STRING},
};

static const struct coltable verify_columns =
    COLTABLE("verify", verify_cols, "KNOB,STATE,EXPECTED,LIVE,BASIS,WRITER,SINCE", "knobs[]");

/* "sysctl /etc/sysctl.d/50-x.conf:3", "runtime", "sweep PID 42"; NULL when in place. */
static char *writer_text(const struct reclaim_verify *v, size_t i)
{
	const char *kind = reclaim_verify_writer_kind(v, i), *where = reclaim_verify_writer(v, i);
	char *s;

	if (!kind)
		return NULL;
	if (asprintf(&s, "%s%s%s", kind, where ? " " : "", where ? where : "") < 0)
		abort();
	return s;
}

static bool drifted(const struct reclaim_verify *v, size_t i)
{
	return reclaim_verify_state(v, i) == RECLAIM_VERIFY_DRIFTED;
}

static void fill(struct table *t, const struct reclaim_verify *v, bool drifted_only)
{
	for (size_t i = 0; i < reclaim_verify_count(v); i++) {
		char *writer;

		if (drifted_only && !drifted(v, i))
			continue;
		writer = writer_text(v, i);
		table_row(t);
		table_set_str(t, V_KNOB, reclaim_knob_name(reclaim_verify_knob(v, i)));
		table_set_str(t, V_STATE, reclaim_verify_state_name(reclaim_verify_state(v, i)));
		table_set_knob(t, V_EXPECTED, reclaim_verify_knob(v, i),
			       reclaim_verify_expected(v, i));
		if (reclaim_verify_has_live(v, i))
			table_set_knob(t, V_LIVE, reclaim_verify_knob(v, i),
				       reclaim_verify_live(v, i));
		else
			table_set_value(t, V_LIVE, "-", NULL);
		table_set_str(t, V_BASIS, reclaim_verify_basis_name(reclaim_verify_basis(v, i)));
		table_set_value(t, V_WRITER, writer ? writer : "-",
				reclaim_verify_writer(v, i)
				    ? cJSON_CreateString(reclaim_verify_writer(v, i))
				    : NULL);
		table_json_add(t, "writer_kind",
			       reclaim_verify_writer_kind(v, i)
				   ? cJSON_CreateString(reclaim_verify_writer_kind(v, i))
				   : cJSON_CreateNull());
		if (reclaim_verify_since_ns(v, i) > 0)
			table_set_time(t, V_SINCE, reclaim_verify_since_ns(v, i));
		else
			table_set_value(t, V_SINCE, "-", NULL);
		table_json_add(t, "recorded", cJSON_CreateBool(reclaim_verify_recorded(v, i)));
		table_set_str(t, V_REASON, reclaim_verify_reason(v, i));
		free(writer);
	}
}

cJSON *verify_json_drifted(struct cli *cli, const struct reclaim_verify *v)
{
	struct table *t = table_new_json(cli, &verify_columns);
	cJSON *rows;

	fill(t, v, true);
	rows = table_json_array(t);
	table_free(t);
	return rows;
}

size_t verify_print_drifted(const struct reclaim_verify *v)
{
	size_t n = 0;

	for (size_t i = 0; i < reclaim_verify_count(v); i++) {
		char when[32];

		if (!drifted(v, i))
			continue;
		n++;
		if (reclaim_verify_since_ns(v, i) > 0) {
			format_local(when, sizeof(when), reclaim_verify_since_ns(v, i), true);
			printf("%s (first seen %s)\n", reclaim_verify_reason(v, i), when);
		} else {
			printf("%s\n", reclaim_verify_reason(v, i));
		}
	}
	return n;
}

static void verify_json(struct cli *cli, const struct reclaim_verify *v)
{
	cJSON *root = json_document();
	struct table *t = table_new(cli, &verify_columns);

	fill(t, v, false);
	cJSON_AddItemToObject(root, "knobs", table_json_array(t));
	cJSON_AddNumberToObject(root, "not_in_place", (double)reclaim_verify_not_in_place(v));
	json_print(root);
	cJSON_Delete(root);
	table_free(t);
}

/* Under the table: one line a knob not in place, then how many are. */
static void verify_text(struct cli *cli, const struct reclaim_verify *v)
{
	size_t n = reclaim_verify_count(v), bad = reclaim_verify_not_in_place(v);
	struct table *t;
	bool header;

	if (n == 0) {
		printf("nothing to verify: no knob changed since boot, persisted, or set by the "
		       "boot preset\n");
		return;
	}
	t = table_new(cli, &verify_columns);
	fill(t, v, false);
	header = table_has_header(t);
	table_print(t);
	table_free(t);
	if (!header)
		return; /* -n, -r: the rows alone, for scripts */
	printf("\n");
	for (size_t i = 0; i < n; i++)
		if (reclaim_verify_reason(v, i))
			printf("%s\n", reclaim_verify_reason(v, i));
	if (bad == 0)
		printf("all %zu knob%s in place\n", n, n == 1 ? "" : "s");
	else
		printf("%zu of %zu knob%s not in place\n", bad, n, n == 1 ? "" : "s");
}

static void verify_help(FILE *out)
{
	fputs("Checks that every knob reclaimctl is responsible for still has the value\n"
	      "reclaimctl left: a knob changed since boot (the history's newest record),\n"
	      "else one persisted in " RECLAIM_PERSIST_FILE ", else one the boot\n"
	      "unit's preset is for. For one that differs: who is known to have set it\n"
	      "(a sysctl file's FILE:LINE, or another writer at run time, since when\n"
	      "reclaimctl first saw it). A knob a sweep or adapt that died left at its\n"
	      "value is reported with the value from before it.\n"
	      "Exit status: 0 all in place, 1 a knob not in place (or verify failed),\n"
	      "2 usage error.\n"
	      "\nOptions:\n"
	      "  -J, --json   JSON output\n"
	      "  -h, --help   this help\n",
	      out);
}

static int run_verify(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {COMMON_LONG_OPTIONS, TABLE_LONG_OPTIONS, {0}};
	struct reclaim_verify *v = NULL;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS TABLE_SHORT_OPTIONS, opts,
				NULL)) != -1) {
		bool done;

		r = common_option(cli, &cmd_verify, c, argv, &done);
		if (done)
			return r;
	}
	if (optind < argc)
		return usage_error("verify: unexpected argument '%s'", argv[optind]);
	r = table_check(cli, "verify", &verify_columns);
	if (r)
		return r;
	if (reclaim_verify_new(cli->ctx, &v) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	if (cli->json)
		verify_json(cli, v);
	else
		verify_text(cli, v);
	r = reclaim_verify_not_in_place(v) > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
	reclaim_verify_unref(v);
	return r;
}

const struct command cmd_verify = {
    .name = "verify",
    .run = run_verify,
    .args = "[-o LIST] [--output-all] [-n] [-r] [--json]",
    .summary = "Check that the knobs reclaimctl set are still as it left them",
    .help = verify_help,
    .tables = (const struct coltable *const[]){&verify_columns, NULL},
    .reads_knobs = true,
};
