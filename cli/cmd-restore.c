// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <stdlib.h>

#include "apply.h"
#include "reclaimctl.h"

static void restore_help(FILE *out)
{
	fputs("Puts back the values the knobs had before reclaimctl first changed them\n"
	      "since boot (set, preset apply, autotune --apply and the boot unit save\n"
	      "them in /run/reclaimctl/saved), then forgets them.\n"
	      "\nOptions:\n"
	      "  -n, --dry-run  show what would be restored without writing it\n"
	      "  -J, --json     JSON output\n"
	      "  -h, --help     this help\n",
	      out);
}

static int run_restore(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    COMMON_LONG_OPTIONS, {"dry-run", no_argument, NULL, 'n'}, {0}};
	struct apply_request req = {.restore = true, .need_knobs = true};
	struct apply_result res = {0};
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS "n", opts, NULL)) != -1) {
		bool done;

		if (c == 'n') {
			req.dry_run = true;
			continue;
		}
		r = common_option(cli, &cmd_restore, c, argv, &done);
		if (done)
			return r;
	}
	if (optind < argc)
		return usage_error("restore: unexpected argument '%s'", argv[optind]);
	r = apply_run(cli, &req, &res);
	if (r)
		fail(r, "%s", res.error);
	else if (res.count == 0 && !cli->json)
		puts("nothing to restore: no knob was changed since boot");
	else
		apply_print(cli, &req, &res);
	apply_free(&res);
	return r;
}

const struct command cmd_restore = {
    .name = "restore",
    .run = run_restore,
    .args = "[--dry-run] [--json]",
    .summary = "Put back the knob values from before reclaimctl changed them",
    .help = restore_help,
};
