// SPDX-License-Identifier: GPL-2.0-or-later
/* reclaimctl restore [--boot] [--dry-run] [--persist]: undo changes, from the history. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "abandoned.h"
#include "apply.h"
#include "reclaimctl.h"

static void restore_help(FILE *out)
{
	fputs("Undoes the last change that is not undone yet: puts back the values its\n"
	      "knobs had before it (reclaimctl history lists the changes since boot; set,\n"
	      "preset apply, autotune --apply, boot, swap priority and restore record\n"
	      "them), or a swap device's priority (live, and its pri= in /etc/fstab if\n"
	      "the change was --persist'ed). Run it again to undo the change before. A\n"
	      "knob another writer changed since reclaimctl set it is left alone, with a\n"
	      "line on stderr; with --force it goes back to its value before the first\n"
	      "change since boot.\n"
	      "With --boot, every knob reclaimctl changed since boot goes back to the\n"
	      "value it had before its first change, but for those another writer\n"
	      "changed since (unless --force), and every swap device to its priority\n"
	      "before its first change.\n"
	      "With --persist, also removes " RECLAIM_PERSIST_FILE " and\n"
	      "     " RECLAIM_PERSIST_TMPFILES ", the values persisted with --persist.\n"
	      "\nOptions:\n"
	      "      --boot     put back every knob and swap priority as before boot's changes\n"
	      "      --dry-run  show what would be restored without writing it\n"
	      "  -f, --force    also put back knobs another writer changed since\n"
	      "  -p, --persist  also remove the persisted values\n"
	      "  -J, --json     JSON output\n"
	      "  -h, --help     this help\n",
	      out);
}

static void print_unpersist(const struct plan_options *o, const struct reclaim_persist *p,
			    cJSON *root)
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
	for (size_t f = 0; f < 2; f++) {
		const char *file = f ? RECLAIM_PERSIST_TMPFILES : RECLAIM_PERSIST_FILE;
		size_t shown = 0;

		for (size_t i = 0; i < n; i++) {
			const struct reclaim_knob *k = reclaim_persist_knob(p, i);

			if (strcmp(reclaim_knob_persist_file(k), file) != 0)
				continue;
			if (!shown++)
				printf("%s %s (", o->dry_run ? "would remove" : "removed", file);
			else
				printf(", ");
			printf("%s", reclaim_knob_label(k));
		}
		if (shown)
			printf(")\n");
	}
}

/* "pri=5", or "no pri=" for -1 */
static void pri_text(char *buf, size_t size, int prio)
{
	if (prio < 0)
		snprintf(buf, size, "no pri=");
	else
		snprintf(buf, size, "pri=%d", prio);
}

/* The swap devices a restore puts back: their live priority and their /etc/fstab pri=. */
static void print_swaps(const struct reclaim_eval *e, const struct plan_options *o)
{
	for (size_t i = 0; i < reclaim_eval_swap_count(e); i++) {
		char *device = printable(reclaim_eval_swap_device(e, i)), now[16], put[16];
		int old = reclaim_eval_swap_old(e, i), new = reclaim_eval_swap_new(e, i), fnow,
		    fput;

		if (old == new)
			printf("%s: priority %d (unchanged) (%s)\n", device, old,
			       reclaim_eval_swap_reason(e, i));
		else
			printf("%s%s: priority %d -> %d (%s)\n", o->dry_run ? "would change " : "",
			       device, old, new, reclaim_eval_swap_reason(e, i));
		if (reclaim_eval_swap_fstab(e, i, &fnow, &fput) == 1) {
			pri_text(now, sizeof(now), fnow);
			pri_text(put, sizeof(put), fput);
			if (fnow == fput)
				printf("/etc/fstab: %s of %s already\n", put, device);
			else
				printf("%s/etc/fstab: %s of %s (%s %s)\n",
				       o->dry_run ? "would set " : "", put, device,
				       o->dry_run ? "now" : "was", now);
		}
		free(device);
	}
}

static void swaps_json(const struct reclaim_eval *e, cJSON *root)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "swaps");

	for (size_t i = 0; i < reclaim_eval_swap_count(e); i++) {
		cJSON *o = cJSON_CreateObject(), *f;
		int fnow, fput;

		cJSON_AddStringToObject(o, "device", reclaim_eval_swap_device(e, i));
		cJSON_AddBoolToObject(o, "active", reclaim_eval_swap_active(e, i));
		cJSON_AddNumberToObject(o, "old_priority", reclaim_eval_swap_old(e, i));
		cJSON_AddNumberToObject(o, "new_priority", reclaim_eval_swap_new(e, i));
		if (reclaim_eval_swap_fstab(e, i, &fnow, &fput) == 1) {
			f = cJSON_AddObjectToObject(o, "fstab");
			if (fnow < 0)
				cJSON_AddNullToObject(f, "old_priority");
			else
				cJSON_AddNumberToObject(f, "old_priority", fnow);
			if (fput < 0)
				cJSON_AddNullToObject(f, "new_priority");
			else
				cJSON_AddNumberToObject(f, "new_priority", fput);
		} else {
			cJSON_AddNullToObject(o, "fstab");
		}
		cJSON_AddStringToObject(o, "reason", reclaim_eval_swap_reason(e, i));
		cJSON_AddItemToArray(arr, o);
	}
}

static void print_restore(struct cli *cli, const struct reclaim_eval *e,
			  const struct plan_options *o, bool boot)
{
	const struct reclaim_persist *p = reclaim_eval_unpersisted(e);

	if (cli->json) {
		cJSON *root = plan_json(e, o);

		if (o->flags & RECLAIM_REQUEST_PERSIST)
			print_unpersist(o, p, root);
		swaps_json(e, root);
		json_print(root);
		cJSON_Delete(root);
	} else if (reclaim_eval_count(e) == 0 && !p && reclaim_eval_swap_count(e) == 0) {
		printf("nothing to restore: %s%s\n",
		       boot ? "no change since boot" : "no change since boot or the last restore",
		       o->flags & RECLAIM_REQUEST_PERSIST ? ", none persisted" : "");
	} else {
		if (reclaim_eval_count(e) > 0 || reclaim_eval_swap_count(e) == 0)
			plan_print_text(e, o);
		print_swaps(e, o);
		print_unpersist(o, p, NULL);
	}
}

enum { OPT_BOOT = OPT_COMMAND };

/* A line on stderr for each knob left alone: another writer changed it since. */
static void say_left_alone(const struct reclaim_eval *e, bool dry_run)
{
	for (size_t i = 0; i < reclaim_eval_count(e); i++)
		if (reclaim_eval_action(e, i) == RECLAIM_ACTION_SKIPPED &&
		    strcmp(reclaim_eval_source(e, i), "outside") == 0)
			fprintf(stderr, "reclaimctl: restore: %s%s\n",
				dry_run ? "would leave: " : "", reclaim_eval_reason(e, i));
}

static int run_restore(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {COMMON_LONG_OPTIONS,
					     {"boot", no_argument, NULL, OPT_BOOT},
					     {"dry-run", no_argument, NULL, OPT_DRY_RUN},
					     {"persist", no_argument, NULL, 'p'},
					     {"force", no_argument, NULL, 'f'},
					     {0}};
	/* A restore always says why each value. */
	struct plan_options o = {.explain = true};
	struct reclaim_request *req = NULL;
	struct reclaim_eval *e = NULL;
	struct abandoned *abandoned = NULL;
	size_t nabandoned = 0;
	bool boot = false;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS "bpf", opts, NULL)) != -1) {
		bool done;

		if (c == OPT_BOOT || c == OPT_DRY_RUN) {
			*(c == OPT_BOOT ? &boot : &o.dry_run) = true;
			continue;
		}
		/* a restore has no sizes: -b, --bytes elsewhere, was --boot's short option */
		if (c == 'b')
			return usage_error(
			    "restore: -b is --bytes, for tables; --boot has no short "
			    "option (-b was --boot before)");
		if (c == 'p' || c == 'f') {
			o.flags |= c == 'p' ? RECLAIM_REQUEST_PERSIST : RECLAIM_REQUEST_FORCE;
			continue;
		}
		r = common_option(cli, &cmd_restore, c, argv, &done);
		if (done)
			return r;
	}
	if (optind < argc)
		return usage_error("restore: unexpected argument '%s'", argv[optind]);
	if (reclaim_request_new(cli->ctx,
				boot ? RECLAIM_REQUEST_RESTORE_BOOT : RECLAIM_REQUEST_RESTORE,
				o.flags, &req) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	/* what a sweep or adapt that died left, to say what of it this gives back */
	if (!o.dry_run)
		nabandoned = abandoned_knobs(cli, &abandoned);
	r = plan_run(cli, req, &o, &e);
	if (r == 0)
		print_restore(cli, e, &o, boot);
	if (r == 0)
		say_left_alone(e, o.dry_run);
	if (r == 0)
		abandoned_settle(cli, "restore", abandoned, nabandoned);
	free(abandoned);
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	return r;
}

const struct command cmd_restore = {
    .name = "restore",
    .run = run_restore,
    .args = "[--boot] [--dry-run] [--persist] [--force] [--json]",
    .summary = "Undo the last change, or every change since boot",
    .help = restore_help,
    .reads_knobs = true,
};
