// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "reclaimctl.h"

static int unknown_knob(const char *name)
{
	char list[512] = "";
	size_t len = 0;

	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);

		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "",
					reclaim_knob_alias(k) ? reclaim_knob_alias(k)
							      : reclaim_knob_name(k));
	}
	return usage_error("unknown knob '%s' (known: %s)", name, list);
}

static void get_help(FILE *out)
{
	fputs("Prints knobs as NAME = VALUE, every knob the kernel has when none is named.\n"
	      "A knob is named by its name (kswapd_threads), sysctl name (vm.kswapd_threads)\n"
	      "or alias (threads, throttle, swap-quota). Sizes are in KiB.\n"
	      "\nOptions:\n"
	      "  -n, --values  print only the values, one per line\n"
	      "  -J, --json    JSON output\n"
	      "  -h, --help    this help\n",
	      out);
}

static int run_get(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    COMMON_LONG_OPTIONS, {"values", no_argument, NULL, 'n'}, {0}};
	const struct reclaim_knob **knobs;
	bool values_only = false;
	size_t n = 0;
	cJSON *root = NULL, *obj = NULL;
	int c, r = EXIT_SUCCESS;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS "n", opts, NULL)) != -1) {
		bool done;

		if (c == 'n') {
			values_only = true;
			continue;
		}
		r = common_option(cli, &cmd_get, c, argv, &done);
		if (done)
			return r;
	}
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
	if (n == 0) {
		for (size_t i = 0; i < reclaim_knob_count(); i++)
			if (reclaim_knob_supported(cli->ctx, reclaim_knob_get(i)) == 1)
				knobs[n++] = reclaim_knob_get(i);
		if (n == 0) {
			free(knobs);
			return fail(EXIT_FAILURE, "no knob found under %s/proc/sys/vm",
				    strcmp(reclaim_get_sysroot(cli->ctx), "/") == 0
					? ""
					: reclaim_get_sysroot(cli->ctx));
		}
	}
	if (cli->json) {
		root = json_document();
		obj = cJSON_AddObjectToObject(root, "knobs");
	}
	for (size_t i = 0; i < n; i++) {
		int64_t v;

		if (reclaim_knob_read(cli->ctx, knobs[i], &v) < 0) {
			r = lib_fail(cli, EXIT_FAILURE, NULL);
			break;
		}
		if (obj)
			cJSON_AddItemToObject(obj, reclaim_knob_name(knobs[i]),
					      json_knob(knobs[i], v));
		else if (values_only)
			printf("%" PRId64 "\n", v);
		else
			printf("%s = %" PRId64 "\n", reclaim_knob_name(knobs[i]), v);
	}
	if (root && r == EXIT_SUCCESS)
		json_print(root);
	cJSON_Delete(root);
	free(knobs);
	return r;
}

static void set_help(FILE *out)
{
	fputs("Sets one knob. VALUE is checked against the knob's range before anything\n"
	      "is written; sizes (swap-quota, min_free_kbytes) accept K, M and G suffixes.\n"
	      "After setting kswapd_threads, reclaimctl checks that every node with memory\n"
	      "runs exactly that many kswapd threads; if not, the old value is put back\n"
	      "and the command fails. VALUE auto (for threads and throttle) is the value\n"
	      "autotune plans for this machine, printed with its reason.\n"
	      "A knob that a sysctl file sets (see reclaimctl check) is left alone.\n"
	      "\nOptions:\n"
	      "  -n, --dry-run  check VALUE and show the change without writing it\n"
	      "  -p, --persist  also write it to " RECLAIM_PERSIST_FILE "\n"
	      "  -f, --force    set it even if a sysctl file sets it\n"
	      "  -J, --json     JSON output\n"
	      "  -h, --help     this help\n",
	      out);
}

/*
 * @nodes: for kswapd_threads, the nodes checked to run @new threads; else -1.
 * @reason: why, for a value given as "auto"; else NULL.
 */
static void print_set(struct cli *cli, const struct reclaim_knob *k, int64_t old, int64_t new,
		      const struct apply_request *req, ssize_t nodes, const char *reason)
{
	bool dry_run = req->dry_run;
	cJSON *root;

	if (!cli->json) {
		bool open = old == new || nodes >= 0;

		if (reason)
			printf("auto: %s\n", reason);
		if (old == new)
			printf("%s: %" PRId64 " (unchanged", reclaim_knob_sysctl(k), new);
		else
			printf("%s%s: %" PRId64 " -> %" PRId64 "%s", dry_run ? "would set " : "",
			       reclaim_knob_sysctl(k), old, new, open ? " (" : "");
		if (nodes >= 0)
			printf("%schecked: %" PRId64
			       " kswapd thread%s on each of %zd node%s with memory",
			       old == new ? "; " : "", new, new == 1 ? "" : "s", nodes,
			       nodes == 1 ? "" : "s");
		printf("%s\n", open ? ")" : "");
		if (req->persist)
			printf("%s %s = %" PRId64 " in %s\n",
			       dry_run ? "would persist" : "persisted", reclaim_knob_sysctl(k), new,
			       RECLAIM_PERSIST_FILE);
		return;
	}
	root = json_document();
	cJSON_AddStringToObject(root, "knob", reclaim_knob_name(k));
	cJSON_AddNumberToObject(root, "old", (double)old);
	cJSON_AddNumberToObject(root, "new", (double)new);
	cJSON_AddBoolToObject(root, "dry_run", dry_run);
	cJSON_AddBoolToObject(root, "persist", req->persist);
	if (nodes >= 0)
		cJSON_AddNumberToObject(root, "verified_nodes", (double)nodes);
	if (reason)
		cJSON_AddStringToObject(root, "auto_reason", reason);
	json_print(root);
	cJSON_Delete(root);
}

/* "set KNOB auto": the library's recommendation for this machine, and why. */
static int auto_value(struct cli *cli, const struct reclaim_knob *k, int64_t *value, char **reason)
{
	struct reclaim_topology *topo;
	int r;

	if (reclaim_topology_new(cli->ctx, &topo) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	r = reclaim_knob_recommend(cli->ctx, k, topo, value, reason);
	reclaim_topology_unref(topo);
	if (r == -EOPNOTSUPP)
		return usage_error(
		    "invalid value 'auto' for %s: %s (auto is known for threads and throttle)",
		    reclaim_knob_name(k), reclaim_strerror(cli->ctx));
	if (r < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	return 0;
}

static const struct option set_opts[] = {COMMON_LONG_OPTIONS,
					 {"dry-run", no_argument, NULL, 'n'},
					 {"persist", no_argument, NULL, 'p'},
					 {"force", no_argument, NULL, 'f'},
					 {0}};

/* @reason: set to why, for "auto"; the caller frees it. */
static int set_main(struct cli *cli, int argc, char **argv, char **reason)
{
	const struct reclaim_knob *k;
	struct apply_request req = {.need_knobs = true};
	struct apply_result res = {0};
	bool dry_run = false;
	int64_t value;
	int c, r;

	while ((c = getopt_long(argc, argv, "+" COMMON_SHORT_OPTIONS "npf", set_opts, NULL)) !=
	       -1) {
		bool done;

		if (c == 'n' || c == 'p' || c == 'f') {
			*(c == 'n' ? &dry_run : c == 'p' ? &req.persist : &req.force) = true;
			continue;
		}
		r = common_option(cli, &cmd_set, c, argv, &done);
		if (done)
			return r;
	}
	if (argc - optind != 2)
		return usage_error("set: expected KNOB VALUE (see reclaimctl set --help)");
	k = reclaim_knob_find(argv[optind]);
	if (!k)
		return unknown_knob(argv[optind]);
	if (strcmp(argv[optind + 1], "auto") == 0) {
		r = auto_value(cli, k, &value, reason);
		if (r)
			return r;
	} else if (reclaim_knob_parse(cli->ctx, k, argv[optind + 1], &value) < 0) {
		return lib_fail(cli, EXIT_USAGE, NULL);
	}
	req.dry_run = dry_run;
	if (apply_add(&res, k, value, *reason) < 0)
		return fail(EXIT_FAILURE, "out of memory");
	r = apply_run(cli, &req, &res);
	if (r == 0)
		print_set(cli, k, res.entries[0].old_value, value, &req, res.verified_nodes,
			  *reason);
	else
		fail(r, "%s", res.error);
	apply_free(&res);
	return r;
}

/* The reason of an "auto" value lives until the line that prints it. */
static int set_knob(struct cli *cli, int argc, char **argv)
{
	char *reason = NULL;
	int r = set_main(cli, argc, argv, &reason);

	free(reason);
	return r;
}

static int run_set(struct cli *cli, int argc, char **argv)
{
	return run_options_first(cli, argc, argv, set_knob);
}

const struct command cmd_get = {
    .name = "get",
    .run = run_get,
    .args = "[--values] [--json] [KNOB...]",
    .summary = "Print knob values",
    .help = get_help,
};

const struct command cmd_set = {
    .name = "set",
    .run = run_set,
    .args = "[--dry-run] [--persist] [--force] [--json] KNOB VALUE",
    .summary = "Set a knob, checking its range first and its effect after",
    .help = set_help,
};
