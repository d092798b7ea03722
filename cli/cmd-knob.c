// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "reclaimctl.h"
#include "status-tables.h"

static void get_help(FILE *out)
{
	fputs("Prints knobs as NAME = VALUE, every knob the kernel has when none is named.\n"
	      "A knob is named by its name (kswapd_threads), sysctl name (vm.kswapd_threads)\n"
	      "or alias (threads, throttle, swap-quota, mglru, zswap, demotion). Sizes are\n"
	      "in KiB; the knobs of sysfs show their values as the kernel does (Y, 0x0007).\n"
	      "\nOptions:\n"
	      "      --values  print only the values, one per line\n"
	      "      --sysctl  print vm.NAME = VALUE, as sysctl(8) does: lines that a\n"
	      "                file in /etc/sysctl.d takes as they are (sysctls only)\n"
	      "  -J, --json    JSON output\n"
	      "  -h, --help    this help\n",
	      out);
}

enum { OPT_SYSCTL = OPT_COMMAND };

static int run_get(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {COMMON_LONG_OPTIONS,
					     {"values", no_argument, NULL, OPT_VALUES},
					     {"sysctl", no_argument, NULL, OPT_SYSCTL},
					     {0}};
	const struct reclaim_knob **knobs;
	bool values_only = false, sysctl = false;
	size_t n = 0;
	struct table *t = NULL;
	int c, r = EXIT_SUCCESS;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS, opts, NULL)) != -1) {
		bool done;

		if (c == OPT_VALUES || c == OPT_SYSCTL) {
			*(c == OPT_VALUES ? &values_only : &sysctl) = true;
			continue;
		}
		r = common_option(cli, &cmd_get, c, argv, &done);
		if (done)
			return r;
	}
	if (sysctl && (values_only || cli->json))
		return usage_error("get: --sysctl goes with neither --values nor --json");
	knobs = calloc(reclaim_knob_count() + (size_t)argc, sizeof(*knobs));
	if (!knobs)
		return fail(EXIT_FAILURE, "out of memory");
	/* Resolve every name first: a typo must not print half the list. */
	for (int i = optind; i < argc; i++) {
		knobs[n] = reclaim_knob_find(argv[i]);
		if (!knobs[n]) {
			free(knobs);
			return unknown_knob(argv[i]);
		}
		n++;
	}
	for (size_t i = 0; sysctl && i < n; i++)
		if (!reclaim_knob_sysctl(knobs[i])) {
			r = usage_error("get: --sysctl: %s is not a sysctl (it is %s)",
					reclaim_knob_name(knobs[i]), reclaim_knob_path(knobs[i]));
			free(knobs);
			return r;
		}
	if (n == 0) {
		for (size_t i = 0; i < reclaim_knob_count(); i++)
			if ((!sysctl || reclaim_knob_sysctl(reclaim_knob_get(i))) &&
			    reclaim_knob_supported(cli->ctx, reclaim_knob_get(i)) == 1)
				knobs[n++] = reclaim_knob_get(i);
		if (n == 0) {
			free(knobs);
			return fail(EXIT_FAILURE, "no knob found under %s" RECLAIM_SYSCTL_DIR,
				    reclaim_is_live(cli->ctx) ? "" : reclaim_get_sysroot(cli->ctx));
		}
	}
	drift_note(cli);
	if (cli->json)
		t = table_new_json(cli, &knobs_columns);
	for (size_t i = 0; i < n; i++) {
		char text[RECLAIM_KNOB_TEXT_MAX];
		int64_t v;

		if (reclaim_knob_read(cli->ctx, knobs[i], &v) < 0) {
			r = lib_fail(cli, EXIT_FAILURE, NULL);
			break;
		}
		reclaim_knob_format(knobs[i], v, text, sizeof(text));
		if (t)
			knobs_fill_row(t, knobs[i], &v, true);
		else if (values_only)
			printf("%s\n", text);
		else
			printf("%s = %s\n",
			       sysctl ? reclaim_knob_sysctl(knobs[i]) : reclaim_knob_name(knobs[i]),
			       text);
	}
	if (t && r == EXIT_SUCCESS) {
		cJSON *root = json_document();

		cJSON_AddItemToObject(root, "knobs", table_json_object(t));
		json_print(root);
		cJSON_Delete(root);
	}
	table_free(t);
	free(knobs);
	return r;
}

static void set_help(FILE *out)
{
	fputs("Sets one knob, or several as one change (KNOB VALUE pairs: all or none is\n"
	      "written). VALUE is checked against the knob's range before anything\n"
	      "is written; sizes (swap-quota, min_free_kbytes) accept K, M and G suffixes.\n"
	      "After setting kswapd_threads, reclaimctl checks that every node with memory\n"
	      "runs exactly that many kswapd threads; if not, the old value is put back\n"
	      "and the command fails. VALUE auto (for threads, throttle, zswap_enabled and\n"
	      "numa_demotion_enabled) is the value autotune plans for this machine,\n"
	      "printed with its reason. The knobs of sysfs take their values as the\n"
	      "kernel does (Y or N, true or false, y or n for MGLRU's bit mask, a\n"
	      "compressor's name). A knob that another sysctl file, tmpfiles.d line or\n"
	      "kernel parameter sets (see reclaimctl check) is left alone and the\n"
	      "command fails. The change is recorded in the history (reclaimctl\n"
	      "history); reclaimctl restore undoes it.\n"
	      "\nOptions:\n"
	      "      --dry-run  check VALUE and show the change without writing it\n"
	      "  -p, --persist  also write it to " RECLAIM_PERSIST_FILE "\n"
	      "                 (a knob of sysfs: " RECLAIM_PERSIST_TMPFILES ")\n"
	      "  -f, --force    set it even if a sysctl file sets it\n"
	      "  -J, --json     JSON output\n"
	      "  -h, --help     this help\n",
	      out);
}

static const struct option set_opts[] = {COMMON_LONG_OPTIONS,
					 {"dry-run", no_argument, NULL, OPT_DRY_RUN},
					 {"persist", no_argument, NULL, 'p'},
					 {"force", no_argument, NULL, 'f'},
					 {0}};

/* Whether the knob of pair i was named (by any of its names) in an earlier pair. */
static bool knob_given_before(char **pairs, int i, const struct reclaim_knob *k)
{
	for (int j = 0; j < i; j++)
		if (reclaim_knob_find(pairs[2 * j]) == k)
			return true;
	return false;
}

/* KNOB VALUE pairs as one request: 0, or an exit status after the error. */
static int set_request(struct cli *cli, int npairs, char **pairs, unsigned int flags,
		       struct reclaim_request **req, bool *any_auto)
{
	int r;

	*any_auto = false;
	if (reclaim_request_new(cli->ctx, RECLAIM_REQUEST_SET, flags | RECLAIM_REQUEST_STRICT,
				req) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	for (int i = 0; i < npairs; i++) {
		const char *name = pairs[2 * i], *text = pairs[2 * i + 1];
		const struct reclaim_knob *k = reclaim_knob_find(name);
		bool is_auto = strcmp(text, "auto") == 0;
		int64_t value;

		if (!k)
			r = unknown_knob(name);
		else if (knob_given_before(pairs, i, k))
			r = usage_error("set: %s given twice", reclaim_knob_name(k));
		else if (!is_auto && reclaim_knob_parse(cli->ctx, k, text, &value) < 0)
			r = lib_fail(cli, EXIT_USAGE, NULL);
		else {
			r = is_auto ? reclaim_request_add_auto(*req, k)
				    : reclaim_request_add(*req, k, value, NULL);
			if (r == -EOPNOTSUPP)
				r = usage_error(
				    "invalid value 'auto' for %s: %s (auto is known for "
				    "threads, throttle, zswap_enabled and numa_demotion_enabled)",
				    reclaim_knob_name(k), reclaim_strerror(cli->ctx));
			else if (r < 0)
				r = lib_fail(cli, EXIT_FAILURE, NULL);
		}
		if (r) {
			*req = reclaim_request_unref(*req);
			return r;
		}
		*any_auto |= is_auto;
	}
	return 0;
}

static int set_main(struct cli *cli, int argc, char **argv)
{
	struct plan_options o = {0};
	struct reclaim_request *req = NULL;
	struct reclaim_eval *e = NULL;
	bool is_auto = false;
	int c, r;

	while ((c = getopt_long(argc, argv, "+" COMMON_SHORT_OPTIONS "pf", set_opts, NULL)) != -1) {
		bool done;

		if (c == OPT_DRY_RUN) {
			o.dry_run = true;
			continue;
		}
		if (c == 'p' || c == 'f') {
			o.flags |= c == 'p' ? RECLAIM_REQUEST_PERSIST : RECLAIM_REQUEST_FORCE;
			continue;
		}
		r = common_option(cli, &cmd_set, c, argv, &done);
		if (done)
			return r;
	}
	if (argc - optind < 2 || (argc - optind) % 2)
		return usage_error("set: expected KNOB VALUE (see reclaimctl set --help)");
	r = set_request(cli, (argc - optind) / 2, argv + optind, o.flags, &req, &is_auto);
	if (r)
		return r;
	/* An auto value says why. */
	o.explain = is_auto;
	r = plan_run(cli, req, &o, &e);
	if (r == 0)
		plan_print(cli, e, &o);
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	return r;
}

static int run_set(struct cli *cli, int argc, char **argv)
{
	return run_options_first(cli, argc, argv, set_main);
}

const struct command cmd_get = {
    .name = "get",
    .run = run_get,
    .args = "[--values | --sysctl | --json] [KNOB...]",
    .summary = "Print knob values",
    .help = get_help,
    .reads_knobs = true,
};

const struct command cmd_set = {
    .name = "set",
    .run = run_set,
    .args = "[--dry-run] [--persist] [--force] [--json] KNOB VALUE [KNOB VALUE]...",
    .summary = "Set knobs, checking their range first and their effect after",
    .help = set_help,
    .reads_knobs = true,
};
