// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl swap [rings]                      the rings, by priority
 * reclaimctl swap priority DEVICE PRIO         a safe live priority change
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reclaimctl.h"
#include "swap-tables.h"

/* The discard policy in JSON, and as the fstab option says it. */
static const char *swap_discard_name(enum reclaim_swap_discard d)
{
	static const char *const names[] = {
	    [RECLAIM_SWAP_DISCARD_NONE] = "none",
	    [RECLAIM_SWAP_DISCARD_ALL] = "both",
	    [RECLAIM_SWAP_DISCARD_ONCE] = "once",
	    [RECLAIM_SWAP_DISCARD_PAGES] = "pages",
	};

	return (size_t)d < ARRAY_LEN(names) ? names[d] : "?";
}

static const char *swap_discard_option(enum reclaim_swap_discard d)
{
	static const char *const options[] = {
	    [RECLAIM_SWAP_DISCARD_NONE] = "no discard",
	    [RECLAIM_SWAP_DISCARD_ALL] = "discard",
	    [RECLAIM_SWAP_DISCARD_ONCE] = "discard=once",
	    [RECLAIM_SWAP_DISCARD_PAGES] = "discard=pages",
	};

	return (size_t)d < ARRAY_LEN(options) ? options[d] : "?";
}

static int swap_quota_read(struct cli *cli, int64_t *quota, bool *has)
{
	const struct reclaim_knob *k = reclaim_knob_by_id(RECLAIM_KNOB_SWAP_ROUND_ROBIN_QUOTA_KB);
	int r = reclaim_knob_read(cli->ctx, k, quota);

	*has = r == 0;
	if (r < 0 && r != -EOPNOTSUPP)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	return 0;
}

/* ---- swap [rings|devices] ---- */

static int swap_show(struct cli *cli, unsigned int parts)
{
	struct reclaim_swaps *swaps;
	int64_t quota;
	bool has_quota;
	int r;

	r = swap_quota_read(cli, &quota, &has_quota);
	if (r)
		return r;
	if (reclaim_swaps_new(cli->ctx, &swaps) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	if (cli->json) {
		cJSON *root = json_document();

		json_add_swap(cli, root, swaps, has_quota ? &quota : NULL);
		json_print(root);
		cJSON_Delete(root);
	} else {
		swap_print(cli, swaps, has_quota ? &quota : NULL, NULL, NULL, parts);
	}
	reclaim_swaps_unref(swaps);
	return EXIT_SUCCESS;
}

/* ---- swap priority DEVICE PRIO ---- */

struct prio_opts {
	bool persist, dry_run;
};

static int parse_prio(const char *s, int *prio)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < 0 || v > RECLAIM_SWAP_PRIORITY_MAX ||
	    !(*s >= '0' && *s <= '9'))
		return usage_error("invalid priority '%s': expected an integer from 0 to %d", s,
				   RECLAIM_SWAP_PRIORITY_MAX);
	*prio = (int)v;
	return 0;
}

static bool on_live_root(struct cli *cli)
{
	return reclaim_is_live(cli->ctx);
}

static void print_fstab_text(const struct reclaim_swap_plan *p, bool had, int before,
			     const struct prio_opts *o)
{
	int now = reclaim_swap_plan_new_priority(p);
	char was[32];

	if (had)
		snprintf(was, sizeof(was), "pri=%d", before);
	else
		snprintf(was, sizeof(was), "no pri=");
	if (had && before == now)
		printf("/etc/fstab: pri=%d already\n", now);
	else if (o->dry_run)
		printf("would set pri=%d in /etc/fstab (now %s)\n", now, was);
	else
		printf("/etc/fstab: pri=%d (was %s)\n", now, was);
}

static void print_plan_text(struct cli *cli, const struct reclaim_swap_plan *p,
			    const struct prio_opts *o, bool had, int before)
{
	int old = reclaim_swap_plan_old_priority(p), new = reclaim_swap_plan_new_priority(p);
	enum reclaim_swap_discard discard = reclaim_swap_plan_discard(p);

	char *device = printable(reclaim_swap_plan_device(p));

	if (old == new) {
		printf("%s: priority %d (unchanged)\n", device, new);
	} else {
		printf("%s%s: priority %d -> %d\n", o->dry_run ? "would change " : "", device, old,
		       new);
		if (reclaim_swap_plan_used_kb(p) == 0)
			printf("  checked: nothing to take back into memory (0 KiB used)\n");
		else
			printf("  checked: MemAvailable %" PRIu64 " KiB > %" PRIu64
			       " KiB used + %" PRIu64 " KiB margin\n",
			       reclaim_swap_plan_mem_available_kb(p), reclaim_swap_plan_used_kb(p),
			       reclaim_swap_plan_margin_kb(p));
		printf("  swapon(2) flags: priority %d, %s%s\n", new, swap_discard_option(discard),
		       reclaim_swap_plan_fstab_priority(p, &(int){0}) == -ENOENT
			   ? " (no /etc/fstab entry to take discard options from)"
			   : " (as in /etc/fstab)");
		if (!o->dry_run && !on_live_root(cli))
			printf("live priority not changed: %s is not the running system\n",
			       reclaim_get_sysroot(cli->ctx));
	}
	if (o->persist)
		print_fstab_text(p, had, before, o);
	free(device);
}

static void print_plan_json(const struct reclaim_swap_plan *p, const struct prio_opts *o, bool had,
			    int before)
{
	cJSON *root = json_document(), *f;

	cJSON_AddStringToObject(root, "device", reclaim_swap_plan_device(p));
	cJSON_AddNumberToObject(root, "old_priority", reclaim_swap_plan_old_priority(p));
	cJSON_AddNumberToObject(root, "new_priority", reclaim_swap_plan_new_priority(p));
	cJSON_AddBoolToObject(root, "dry_run", o->dry_run);
	cJSON_AddNumberToObject(root, "used_kb", (double)reclaim_swap_plan_used_kb(p));
	cJSON_AddNumberToObject(root, "mem_available_kb",
				(double)reclaim_swap_plan_mem_available_kb(p));
	cJSON_AddNumberToObject(root, "margin_kb", (double)reclaim_swap_plan_margin_kb(p));
	cJSON_AddStringToObject(root, "discard", swap_discard_name(reclaim_swap_plan_discard(p)));
	cJSON_AddBoolToObject(root, "live_changed", reclaim_swap_plan_live_changed(p));
	if (!o->persist) {
		cJSON_AddNullToObject(root, "fstab");
	} else {
		f = cJSON_AddObjectToObject(root, "fstab");
		cJSON_AddStringToObject(f, "path", "/etc/fstab");
		if (had)
			cJSON_AddNumberToObject(f, "old_priority", before);
		else
			cJSON_AddNullToObject(f, "old_priority");
		cJSON_AddNumberToObject(f, "new_priority", reclaim_swap_plan_new_priority(p));
		cJSON_AddBoolToObject(f, "changed", reclaim_swap_plan_fstab_changed(p));
	}
	json_print(root);
	cJSON_Delete(root);
}

/*
 * What swapoff is doing, while it does it: the library calls this once
 * before swapoff(2) with @used = @total, which says what moves where, then
 * from its own thread about every half second while swapoff runs; on a
 * terminal each of those rewrites one line in place.
 */
struct progress {
	bool tty;
	bool started;
	int width; /* of the progress line on the terminal, 0: none shown */
};

static void on_progress(const struct reclaim_swap_plan *p, uint64_t used, uint64_t total,
			void *userdata)
{
	struct progress *pr = userdata;
	uint64_t back = used < total ? total - used : 0;
	char done[16], all[16], line[64];
	int n;

	format_kb(all, sizeof(all), total);
	if (!pr->started) {
		char *device = printable(reclaim_swap_plan_device(p));

		pr->started = true;
		printf("moving %s back to memory from %s...\n", all, device);
		free(device);
		flush_stdout();
		return;
	}
	if (!pr->tty)
		return;
	format_kb(done, sizeof(done), back);
	/* rounded down: 100% only once everything is back */
	n = snprintf(line, sizeof(line), "  %s of %s back in memory (%" PRIu64 "%%)", done, all,
		     total ? back * 100 / total : 100);
	/* spaces over what is left of a longer line before */
	printf("\r%s%*s", line, n < pr->width ? pr->width - n : 0, "");
	if (n > pr->width)
		pr->width = n;
	flush_stdout();
}

/* swapoff has returned: a done change leaves no progress line, a failed one its last reading. */
static void progress_end(struct progress *pr, bool ok)
{
	if (pr->width == 0)
		return;
	if (ok)
		printf("\r%*s\r", pr->width, "");
	else
		printf("\n");
	flush_stdout();
}

/*
 * Under --sysroot the live change cannot happen: everything is checked as on
 * the running system, then --persist edits ROOT/etc/fstab alone, and without
 * it the command fails saying why.
 */
static int apply_plan(struct cli *cli, struct reclaim_swap_plan *p, const struct prio_opts *o)
{
	unsigned int flags = RECLAIM_SWAP_LIVE | (o->persist ? RECLAIM_SWAP_PERSIST : 0);
	struct progress pr = {.tty = isatty(STDOUT_FILENO)};
	int r;

	if (reclaim_swap_plan_check(p, flags) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	if (o->dry_run)
		return 0;
	if (!on_live_root(cli) && o->persist)
		flags = RECLAIM_SWAP_PERSIST;
	else if (!on_live_root(cli) &&
		 reclaim_swap_plan_old_priority(p) != reclaim_swap_plan_new_priority(p))
		return fail(EXIT_FAILURE,
			    "not changing the priority of %s: --sysroot %s is not the running "
			    "system (checks passed; use --dry-run to check only, or --persist "
			    "to edit %s/etc/fstab only)",
			    reclaim_swap_plan_device(p), reclaim_get_sysroot(cli->ctx),
			    reclaim_get_sysroot(cli->ctx));
	else if (!on_live_root(cli))
		return 0;
	if (!cli->json && reclaim_swap_plan_set_progress(p, 0, on_progress, &pr) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	r = reclaim_swap_plan_apply(p, flags);
	progress_end(&pr, r == 0);
	if (r < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	return 0;
}

static int swap_priority(struct cli *cli, const char *device, const char *prio_text,
			 const struct prio_opts *o)
{
	struct reclaim_swap_plan *p;
	int prio = 0, before = 0, r;
	bool had;

	r = parse_prio(prio_text, &prio);
	if (r)
		return r;
	if (reclaim_swap_plan_new(cli->ctx, device, prio, &p) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	had = reclaim_swap_plan_fstab_priority(p, &before) == 1;
	r = apply_plan(cli, p, o);
	if (r == 0 && cli->json)
		print_plan_json(p, o, had, before);
	else if (r == 0)
		print_plan_text(cli, p, o, had, before);
	reclaim_swap_plan_unref(p);
	return r;
}

/* ---- the command ---- */

static void swap_help(FILE *out)
{
	fprintf(out,
		"swap shows the round-robin quota and the swap devices grouped into rings\n"
		"of equal priority, highest first, with size, use and balance (min/max of the\n"
		"devices' used fractions: 1.00 is even); swap rings the quota and the rings\n"
		"only, swap devices the devices only.\n"
		"\n"
		"swap priority DEVICE PRIO changes an active device's priority (0..%d):\n"
		"it checks that MemAvailable exceeds what the device holds plus a margin\n"
		"(%d MiB or 1/%d of MemTotal, the larger), swaps it off and on again with\n"
		"the new priority and its /etc/fstab discard option, and puts it back with\n"
		"the old priority if that fails. Needs CAP_SYS_ADMIN. Before swapoff it says\n"
		"what it moves back to memory, and on a terminal how far it got. Under\n"
		"--sysroot the checks run but nothing live changes; --persist then edits\n"
		"ROOT/etc/fstab.\n"
		"\nOptions:\n"
		"  -p, --persist  also set pri=PRIO in the device's /etc/fstab entry\n"
		"      --dry-run  check and show the change without making it\n"
		"  -J, --json     JSON output\n"
		"  -h, --help     this help\n",
		RECLAIM_SWAP_PRIORITY_MAX, RECLAIM_SWAP_MARGIN_MIN_KB / 1024,
		RECLAIM_SWAP_MARGIN_DIVISOR);
}

static const struct option swap_opts[] = {COMMON_LONG_OPTIONS,
					  TABLE_LONG_OPTIONS,
					  {"persist", no_argument, NULL, 'p'},
					  {"dry-run", no_argument, NULL, OPT_DRY_RUN},
					  {0}};

/* swap, swap rings, swap devices: what each shows, and the table -o is for. */
static int swap_tables(struct cli *cli, const char *sub, unsigned int *parts)
{
	const struct coltable *ct = NULL;

	if (!sub) {
		*parts = SWAP_QUOTA | SWAP_RINGS | SWAP_DEVICES;
		if (table_columns_given(cli))
			return usage_error("swap: -o and --output-all are for one table: swap "
					   "rings or swap devices");
		return 0;
	}
	if (strcmp(sub, "rings") == 0) {
		*parts = SWAP_QUOTA | SWAP_RINGS;
		ct = &rings_columns;
	} else {
		*parts = SWAP_DEVICES;
		ct = &devices_columns;
	}
	return table_check(cli, "swap", ct);
}

static int swap_main(struct cli *cli, int argc, char **argv)
{
	struct prio_opts o = {0};
	const char *sub;
	unsigned int parts;
	int c, r, n;

	while ((c = getopt_long(argc, argv, "+" COMMON_SHORT_OPTIONS TABLE_SHORT_OPTIONS "p",
				swap_opts, NULL)) != -1) {
		bool done;

		if (c == 'p' || c == OPT_DRY_RUN) {
			*(c == 'p' ? &o.persist : &o.dry_run) = true;
			continue;
		}
		r = common_option(cli, &cmd_swap, c, argv, &done);
		if (done)
			return r;
	}
	n = argc - optind;
	sub = n > 0 ? argv[optind] : NULL;
	if (!sub || strcmp(sub, "rings") == 0 || strcmp(sub, "devices") == 0) {
		if (n > 1)
			return usage_error("swap %s: unexpected argument '%s'", sub,
					   argv[optind + 1]);
		if (o.persist || o.dry_run)
			return usage_error("swap: --%s goes with swap priority",
					   o.persist ? "persist" : "dry-run");
		r = swap_tables(cli, sub, &parts);
		if (r)
			return r;
		drift_note(cli);
		return swap_show(cli, parts);
	}
	if (strcmp(sub, "priority") == 0) {
		if (n != 3)
			return usage_error("swap priority: expected DEVICE PRIO (see reclaimctl "
					   "swap --help)");
		r = table_options_refuse(cli, "swap priority");
		if (r)
			return r;
		return swap_priority(cli, argv[optind + 1], argv[optind + 2], &o);
	}
	return usage_error("swap: unknown subcommand '%s' (rings, devices, priority)", sub);
}

static int run_swap(struct cli *cli, int argc, char **argv)
{
	return run_options_first(cli, argc, argv, swap_main);
}

const struct command cmd_swap = {
    .name = "swap",
    .run = run_swap,
    .args = "[rings|devices] [-o LIST] [-n] [-r] [-b] [--json] | priority DEVICE PRIO "
	    "[--persist] [--dry-run] [--json]",
    .summary = "Show the swap rings; change a device's priority safely",
    .help = swap_help,
    .tables = (const struct coltable *const[]){&rings_columns, &devices_columns, NULL},
    .reads_knobs = true,
};
