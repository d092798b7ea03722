// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl autotune [--dry-run | --apply [--persist] [--force]] [--explain] [--json]
 *
 * Shows the plan libreclaim computes for this machine (reclaim_plan_new):
 * the knobs with their current and planned values, and the swap
 * priorities it proposes with the commands that would apply them.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "reclaimctl.h"

struct autotune {
	struct reclaim_plan *plan;
	struct reclaim_swaps *swaps; /* NULL without /proc/swaps */
	char *swaps_missing;
};

static void autotune_free(struct autotune *a)
{
	reclaim_plan_unref(a->plan);
	reclaim_swaps_unref(a->swaps);
	free(a->swaps_missing);
}

static int autotune_read(struct cli *cli, struct autotune *a)
{
	struct reclaim_topology *topo;
	int r;

	if (reclaim_topology_new(cli->ctx, &topo) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	r = reclaim_swaps_new(cli->ctx, &a->swaps);
	if (r == -ENOENT) {
		a->swaps_missing = strdup(reclaim_strerror(cli->ctx));
	} else if (r < 0) {
		reclaim_topology_unref(topo);
		return lib_fail(cli, EXIT_FAILURE, NULL);
	}
	r = reclaim_plan_new(cli->ctx, topo, a->swaps, &a->plan);
	reclaim_topology_unref(topo);
	if (r < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	return 0;
}

/* ---- text ---- */

/*
 * Prints table @t with @reasons[i] (may be NULL) indented on a line of its
 * own under row i: the table is rendered first, then cut into its lines.
 */
static void print_explained(struct table *t, char **reasons, size_t nrows)
{
	char *text = table_to_string(t), *line, *save = NULL;
	bool header = table_has_header(t);
	size_t row = 0;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		printf("%s\n", line);
		if (header) {
			header = false;
			continue;
		}
		if (row < nrows && reasons[row++])
			printf("  %s\n", reasons[row - 1]);
	}
	free(text);
}

/* @s as one shell word: as is when plain, else quoted ('...', or $'...' for control characters). */
static char *shell_word(const char *s)
{
	char *out = malloc(strlen(s) * 4 + 4), *p = out;
	bool plain = *s != '\0', control = false;

	if (!out)
		abort();
	for (const char *c = s; *c; c++) {
		plain &= strchr("/._-+:@%=,", *c) || (*c >= '0' && *c <= '9') ||
			 (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z');
		control |= (unsigned char)*c < 0x20 || *c == 0x7f;
	}
	if (plain) {
		strcpy(out, s);
		return out;
	}
	if (control)
		*p++ = '$';
	*p++ = '\'';
	for (; *s; s++) {
		if (control && ((unsigned char)*s < 0x20 || *s == 0x7f || *s == '\\' || *s == '\''))
			p += sprintf(p, "\\%03o", (unsigned char)*s);
		else if (*s == '\'')
			p += sprintf(p, "'\\''");
		else
			*p++ = *s;
	}
	*p++ = '\'';
	*p = '\0';
	return out;
}

enum { A_DEVICE, A_KIND, A_CURRENT, A_PROPOSED, A_REASON };

static const struct colinfo swap_cols[] = {
    [A_DEVICE] = {"DEVICE", 0, 0, "swap device or file", "device", CJ_STRING},
    [A_KIND] = {"KIND", 0, 0, "zram, disk, file or unknown", "kind", CJ_STRING},
    [A_CURRENT] = {"CURRENT", 0, COL_RIGHT, "its priority now", "current_priority", CJ_NUMBER},
    [A_PROPOSED] = {"PROPOSED", 0, COL_RIGHT, "the priority proposed, or -", "priority", CJ_NUMBER},
    [A_REASON] = {"REASON", 0.4, COL_TRUNC, "why (--explain prints it under the row)", "reason",
		  CJ_STRING},
};

static const struct coltable swap_columns =
    COLTABLE("priorities", swap_cols, "DEVICE,KIND,CURRENT,PROPOSED", "swap[]");

/* The proposals' rows: the text escapes the path and the reason, the JSON has them as they are. */
static void fill_swap(struct table *t, const struct autotune *a)
{
	for (size_t i = 0; i < reclaim_plan_swap_count(a->plan); i++) {
		const struct reclaim_swap *d = reclaim_plan_swap(a->plan, i);
		int prio = reclaim_plan_swap_priority(a->plan, i);
		const char *why = reclaim_plan_swap_reason(a->plan, i);
		char *path = printable(reclaim_swap_path(d)), *reason = printable(why);

		table_row(t);
		table_set_value(t, A_DEVICE, path, cJSON_CreateString(reclaim_swap_path(d)));
		table_set_str(t, A_KIND, reclaim_swap_kind_name(reclaim_swap_kind(d)));
		table_set_int(t, A_CURRENT, reclaim_swap_priority(d));
		if (prio >= 0)
			table_set_int(t, A_PROPOSED, prio);
		else
			table_set_value(t, A_PROPOSED, NULL, NULL);
		table_set_value(t, A_REASON, reason, cJSON_CreateString(why));
		free(path);
		free(reason);
	}
}

static void json_add_swap_plan(struct cli *cli, cJSON *root, const struct autotune *a)
{
	struct table *t;

	if (!a->swaps) {
		cJSON_AddNullToObject(root, "swap");
		return;
	}
	t = table_new_json(cli, &swap_columns);
	fill_swap(t, a);
	cJSON_AddItemToObject(root, "swap", table_json_array(t));
	table_free(t);
}

static void print_swap(struct cli *cli, struct autotune *a, bool explain)
{
	size_t n = reclaim_plan_swap_count(a->plan), changes = 0, proposed = 0;
	struct table *t;
	char **reasons, title[96];

	snprintf(title, sizeof(title),
		 "Swap priorities (proposed: zram %d > non-rotational %d > rotational %d)",
		 RECLAIM_AUTOTUNE_PRIO_ZRAM, RECLAIM_AUTOTUNE_PRIO_NONROTATIONAL,
		 RECLAIM_AUTOTUNE_PRIO_ROTATIONAL);
	heading(cli, title);
	if (!a->swaps) {
		note(cli, "%s", a->swaps_missing ? a->swaps_missing : "no /proc/swaps");
		return;
	}
	if (n == 0) {
		note(cli, "No active swap devices: nothing to propose.");
		return;
	}
	t = table_new(cli, &swap_columns);
	fill_swap(t, a);
	reasons = calloc(n + 1, sizeof(*reasons));
	if (!reasons)
		abort();
	for (size_t i = 0; i < n; i++) {
		int prio = reclaim_plan_swap_priority(a->plan, i);

		proposed += prio >= 0;
		changes +=
		    prio >= 0 && prio != reclaim_swap_priority(reclaim_plan_swap(a->plan, i));
		if (explain)
			reasons[i] = printable(reclaim_plan_swap_reason(a->plan, i));
	}
	print_explained(t, reasons, n);
	for (size_t i = 0; i < n; i++)
		free(reasons[i]);
	free(reasons);
	table_free(t);
	if (changes == 0) {
		note(cli, "%s",
		     proposed ? "Every device already has its proposed priority."
			      : "No priority proposed.");
		return;
	}
	/* the hints after the table are no rows */
	if (script_output(cli))
		return;
	printf("\nautotune leaves swap priorities alone: a change swaps the device off and on.\n"
	       "To apply these, one at a time (--persist also sets pri= in /etc/fstab):\n");
	for (size_t i = 0; i < n; i++) {
		const struct reclaim_swap *d = reclaim_plan_swap(a->plan, i);
		int prio = reclaim_plan_swap_priority(a->plan, i);
		char *word;

		if (prio < 0 || prio == reclaim_swap_priority(d))
			continue;
		word = shell_word(reclaim_swap_path(d));
		printf("  reclaimctl swap priority %s %d\n", word, prio);
		free(word);
	}
}

/* ---- the command ---- */

/* The help says "a quarter" of a node's CPUs, as the library's reasons do. */
_Static_assert(RECLAIM_CPUS_PER_KSWAPD_MIN == 4, "autotune's help says a quarter");

static void autotune_help(FILE *out)
{
	fprintf(
	    out,
	    "Shows the values autotune plans for this machine: kswapd_threads from the\n"
	    "CPUs per NUMA node (1 per %d CPUs, at most a quarter of a node's CPUs; the\n"
	    "smallest node decides), max_direct_reclaimers (%d/%d of a node's CPUs within\n"
	    "%d..%d; the largest node decides), and swap priorities by speed tier (zram\n"
	    "%d, non-rotational %d, rotational %d), which it only proposes: changing\n"
	    "one swaps the device off and on (see swap priority). Knobs the kernel\n"
	    "lacks are skipped. Without --apply nothing is written.\n"
	    "\nOptions:\n"
	    "      --dry-run  show the plan without writing anything (the default; with\n"
	    "                 --apply: what --apply would do)\n"
	    "  -a, --apply    set the knobs to the plan's values, as one change (undo it\n"
	    "                 with reclaimctl restore); knobs a sysctl file sets are left alone\n"
	    "  -p, --persist  with --apply: also write them to " RECLAIM_PERSIST_FILE "\n"
	    "  -f, --force    with --apply: also set knobs that a sysctl file sets\n"
	    "  -e, --explain  the reason for each value, under its row\n"
	    "  -J, --json     JSON output (always with the reasons)\n"
	    "  -h, --help     this help\n",
	    RECLAIM_AUTOTUNE_CPUS_PER_KSWAPD, RECLAIM_AUTOTUNE_THROTTLE_NUM,
	    RECLAIM_AUTOTUNE_THROTTLE_DEN, RECLAIM_AUTOTUNE_THROTTLE_MIN,
	    RECLAIM_AUTOTUNE_THROTTLE_MAX, RECLAIM_AUTOTUNE_PRIO_ZRAM,
	    RECLAIM_AUTOTUNE_PRIO_NONROTATIONAL, RECLAIM_AUTOTUNE_PRIO_ROTATIONAL);
}

/* The swap proposals that would change a priority. */
static size_t swap_changes(const struct autotune *a)
{
	size_t n = 0;

	for (size_t i = 0; i < reclaim_plan_swap_count(a->plan); i++) {
		int prio = reclaim_plan_swap_priority(a->plan, i);

		n += prio >= 0 && prio != reclaim_swap_priority(reclaim_plan_swap(a->plan, i));
	}
	return n;
}

/*
 * The plan's knobs as the engine evaluates them (applied with --apply), then
 * the swap proposals, which are never applied here.
 */
static int autotune_run(struct cli *cli, struct autotune *a, const struct plan_options *o,
			bool apply)
{
	struct reclaim_request *req = NULL;
	struct reclaim_eval *e = NULL;
	size_t swaps = swap_changes(a);
	int r = 0;

	if (reclaim_request_new(cli->ctx, RECLAIM_REQUEST_AUTOTUNE, o->flags, &req) < 0 ||
	    reclaim_request_set_plan(req, a->plan) < 0)
		r = lib_fail(cli, EXIT_FAILURE, NULL);
	if (r == 0)
		r = plan_run(cli, req, o, &e);
	if (r == 0 && cli->json) {
		cJSON *root = plan_json(e, o);

		json_add_swap_plan(cli, root, a);
		json_print(root);
		cJSON_Delete(root);
	} else if (r == 0 && apply) {
		plan_print_text(e, o);
		if (swaps)
			printf(
			    "%zu swap priorit%s proposed, not changed: see reclaimctl autotune\n",
			    swaps, swaps == 1 ? "y" : "ies");
	} else if (r == 0) {
		heading(cli, "Knobs (dry run: nothing is written)");
		plan_print_text(e, o);
		separator(cli);
		print_swap(cli, a, o->explain);
	}
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	return r;
}

static int run_autotune(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {COMMON_LONG_OPTIONS,
					     TABLE_LONG_OPTIONS,
					     {"dry-run", no_argument, NULL, OPT_DRY_RUN},
					     {"explain", no_argument, NULL, 'e'},
					     {"apply", no_argument, NULL, 'a'},
					     {"persist", no_argument, NULL, 'p'},
					     {"force", no_argument, NULL, 'f'},
					     {0}};
	struct plan_options o = {0};
	struct autotune a = {0};
	bool apply = false;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS TABLE_SHORT_OPTIONS "eapf", opts,
				NULL)) != -1) {
		bool done;

		if (c == OPT_DRY_RUN || c == 'e' || c == 'a') {
			*(c == OPT_DRY_RUN ? &o.dry_run : c == 'e' ? &o.explain : &apply) = true;
			continue;
		}
		if (c == 'p' || c == 'f') {
			o.flags |= c == 'p' ? RECLAIM_REQUEST_PERSIST : RECLAIM_REQUEST_FORCE;
			continue;
		}
		r = common_option(cli, &cmd_autotune, c, argv, &done);
		if (done)
			return r;
	}
	if (optind < argc)
		return usage_error("autotune: unexpected argument '%s'", argv[optind]);
	if (!apply && o.flags)
		return usage_error("autotune: --%s needs --apply",
				   o.flags & RECLAIM_REQUEST_PERSIST ? "persist" : "force");
	r = apply ? table_options_refuse(cli, "autotune --apply")
		  : table_check(cli, "autotune", &swap_columns);
	if (r)
		return r;
	/* Without --apply, autotune only shows what --apply would do. */
	if (!apply)
		o.dry_run = true;
	r = autotune_read(cli, &a);
	if (r == 0)
		r = autotune_run(cli, &a, &o, apply);
	autotune_free(&a);
	return r;
}

const struct command cmd_autotune = {
    .name = "autotune",
    .run = run_autotune,
    .args = "[--dry-run] [--apply [--persist] [--force]] [--explain] [-o LIST] [-n] [-r] "
	    "[--json]",
    .summary = "Plan knobs and swap priorities for this machine; apply the plan",
    .help = autotune_help,
    .tables = (const struct coltable *const[]){&swap_columns, NULL},
    .reads_knobs = true,
};
