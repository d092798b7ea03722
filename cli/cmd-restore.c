// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <stdlib.h>

#include "apply.h"
#include "reclaimctl.h"

static void restore_help(FILE *out)
{
	fputs("Undoes the last change: puts back the values the knobs had before it\n"
	      "(set, preset apply, autotune --apply and the boot unit save\n"
	      "them in /run/reclaimctl/saved), then forgets them.\n"
	      "With --persist, also removes " RECLAIM_PERSIST_FILE ", the values\n"
	      "persisted with --persist.\n"
	      "\nOptions:\n"
	      "  -n, --dry-run  show what would be restored without writing it\n"
	      "  -p, --persist  also remove the persisted values\n"
	      "  -J, --json     JSON output\n"
	      "  -h, --help     this help\n",
	      out);
}

/* Puts back persisted values after a restore that failed; the error is the restore's. */
static void persist_again(struct cli *cli, const struct reclaim_persist *p)
{
	size_t n = reclaim_persist_count(p);
	const struct reclaim_knob **knobs = calloc(n, sizeof(*knobs));
	int64_t *values = calloc(n, sizeof(*values));

	for (size_t i = 0; knobs && values && i < n; i++) {
		knobs[i] = reclaim_persist_knob(p, i);
		values[i] = reclaim_persist_value(p, i);
	}
	if (!knobs || !values || reclaim_persist_write(cli->ctx, knobs, values, n) < 0)
		warnmsg("could not put back %s: %s", RECLAIM_PERSIST_FILE,
			knobs && values ? reclaim_strerror(cli->ctx) : "out of memory");
	free(knobs);
	free(values);
}

static void print_unpersist(struct cli *cli, const struct apply_request *req,
			    const struct reclaim_persist *p, cJSON *root)
{
	size_t n = p ? reclaim_persist_count(p) : 0;
	cJSON *arr;

	if (root) {
		arr = cJSON_AddArrayToObject(root, "unpersisted");
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(
			    arr, cJSON_CreateString(reclaim_knob_name(reclaim_persist_knob(p, i))));
		return;
	}
	if (n == 0)
		return;
	printf("%s %s (", req->dry_run ? "would remove" : "removed", RECLAIM_PERSIST_FILE);
	for (size_t i = 0; i < n; i++)
		printf("%s%s", i ? ", " : "", reclaim_knob_sysctl(reclaim_persist_knob(p, i)));
	printf(")\n");
}

static int restore(struct cli *cli, const struct apply_request *req)
{
	struct reclaim_persist *persisted = NULL;
	struct apply_result res = {0};
	bool removed = false;
	int r;

	if (req->persist && reclaim_persist_read(cli->ctx, &persisted) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	if (persisted && reclaim_persist_count(persisted) > 0 && !req->dry_run) {
		if (reclaim_persist_remove(cli->ctx) < 0) {
			reclaim_persist_unref(persisted);
			return lib_fail(cli, EXIT_FAILURE, NULL);
		}
		removed = true;
	}
	r = apply_run(cli, req, &res);
	if (r) {
		fail(r, "%s", res.error);
		if (removed)
			persist_again(cli, persisted);
	} else if (cli->json) {
		cJSON *root = apply_json(req, &res);

		if (req->persist)
			print_unpersist(cli, req, persisted, root);
		json_print(root);
		cJSON_Delete(root);
	} else if (res.count == 0 && !(persisted && reclaim_persist_count(persisted))) {
		puts(req->persist ? "nothing to restore: no change since boot or the last restore, "
				    "none persisted"
				  : "nothing to restore: no change since boot or the last restore");
	} else {
		apply_print(cli, req, &res);
		print_unpersist(cli, req, persisted, NULL);
	}
	reclaim_persist_unref(persisted);
	apply_free(&res);
	return r;
}

static int run_restore(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {COMMON_LONG_OPTIONS,
					     {"dry-run", no_argument, NULL, 'n'},
					     {"persist", no_argument, NULL, 'p'},
					     {0}};
	struct apply_request req = {.restore = true, .need_knobs = true};
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS "np", opts, NULL)) != -1) {
		bool done;

		if (c == 'n' || c == 'p') {
			*(c == 'n' ? &req.dry_run : &req.persist) = true;
			continue;
		}
		r = common_option(cli, &cmd_restore, c, argv, &done);
		if (done)
			return r;
	}
	if (optind < argc)
		return usage_error("restore: unexpected argument '%s'", argv[optind]);
	return restore(cli, &req);
}

const struct command cmd_restore = {
    .name = "restore",
    .run = run_restore,
    .args = "[--dry-run] [--persist] [--json]",
    .summary = "Put back the knob values from before reclaimctl changed them",
    .help = restore_help,
};
