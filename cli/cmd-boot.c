// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What reclaimctl-autotune.service runs at boot: the preset named in
 * /etc/reclaimctl/reclaimctl.conf, through the common apply path, with
 * structured journal entries.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "journal.h"
#include "reclaimctl.h"

static void boot_help(FILE *out)
{
	fputs("Applies the preset named in " RECLAIM_BOOT_CONFIG " (\"preset = NAME\";\n"
	      "without the file, " RECLAIM_BOOT_DEFAULT_PRESET "; \"" RECLAIM_BOOT_PRESET_OFF
	      "\" does nothing), as the boot unit\n"
	      "reclaimctl-autotune.service does, and logs each changed knob to the journal.\n"
	      "\nOptions:\n"
	      "      --dry-run  show what would change without writing it\n"
	      "  -J, --json     JSON output\n"
	      "  -h, --help     this help\n",
	      out);
}

/* Says @msg on standard error (unless that is the journal already) and in the journal. */
static int boot_fail(const char *preset, const char *msg)
{
	if (!journal_is_stderr())
		fail(EXIT_FAILURE, "%s", msg);
	if (preset)
		journal_failed(preset, "Cannot apply preset %s: %s", preset, msg);
	else
		journal_failed(NULL, "%s", msg);
	return EXIT_FAILURE;
}

/*
 * How the run ended, in /run/reclaimctl/boot for status --prometheus (the
 * alert on a failed boot unit); not for --dry-run. A failure to record it
 * is only a warning: the knobs are what the unit is for.
 */
static void boot_record(struct cli *cli, bool ok)
{
	if (reclaim_boot_result_save(cli->ctx, ok) < 0)
		warnmsg("%s", reclaim_strerror(cli->ctx));
}

/* A failed boot: the journal entry names the configured preset, if there is one. */
static int boot_failed(struct cli *cli, bool dry_run)
{
	char msg[512], *preset = NULL;
	int r;

	snprintf(msg, sizeof(msg), "%s", reclaim_strerror(cli->ctx));
	if (!dry_run)
		boot_record(cli, false);
	if (reclaim_boot_preset(cli->ctx, &preset) < 0)
		preset = NULL;
	r = boot_fail(preset, msg);
	free(preset);
	return r;
}

static int run_boot(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    COMMON_LONG_OPTIONS, {"dry-run", no_argument, NULL, OPT_DRY_RUN}, {0}};
	struct plan_options o = {0};
	struct reclaim_request *req = NULL;
	struct reclaim_eval *e = NULL;
	const char *preset;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS, opts, NULL)) != -1) {
		bool done;

		if (c == OPT_DRY_RUN) {
			o.dry_run = true;
			continue;
		}
		r = common_option(cli, &cmd_boot, c, argv, &done);
		if (done)
			return r;
	}
	if (optind < argc)
		return usage_error("boot: unexpected argument '%s'", argv[optind]);
	drift_note(cli);
	journal_use(reclaim_is_live(cli->ctx) && !o.dry_run);
	if (reclaim_request_new(cli->ctx, RECLAIM_REQUEST_BOOT, 0, &req) < 0 ||
	    (o.dry_run ? reclaim_request_evaluate(req, &e) : reclaim_request_apply(req, &e)) < 0) {
		reclaim_request_unref(req);
		return boot_failed(cli, o.dry_run);
	}
	reclaim_request_unref(req);
	preset = reclaim_eval_preset(e);
	if (cli->json)
		plan_print(cli, e, &o);
	else if (strcmp(preset, RECLAIM_BOOT_PRESET_OFF) == 0 && !journal_is_stderr())
		printf("autotune is off (preset = " RECLAIM_BOOT_PRESET_OFF
		       " in " RECLAIM_BOOT_CONFIG "): nothing changed\n");
	else if (!journal_is_stderr())
		plan_print_text(e, &o);
	if (strcmp(preset, RECLAIM_BOOT_PRESET_OFF) == 0) {
		journal_info(NULL, "Autotune is off in %s: no knob changed", RECLAIM_BOOT_CONFIG);
	} else if (!o.dry_run) {
		journal_entries(preset, e);
		journal_applied(preset, e);
	}
	if (!o.dry_run)
		boot_record(cli, true);
	reclaim_eval_unref(e);
	return EXIT_SUCCESS;
}

const struct command cmd_boot = {
    .name = "boot",
    .run = run_boot,
    .args = "[--dry-run] [--json]",
    .summary = "Apply the configured preset, as the boot unit does",
    .help = boot_help,
    .reads_knobs = true,
};
