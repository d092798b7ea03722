// SPDX-License-Identifier: GPL-2.0-or-later
/* reclaimctl preset list | show NAME | diff NAME: presets, reclaimctl.preset(5). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "reclaimctl.h"

static void preset_help(FILE *out)
{
	fprintf(
	    out,
	    "A preset is a named set of knob values, one KNOB = VALUE a line (see\n"
	    "reclaimctl.preset(5)). NAME.preset in " RECLAIM_ADMIN_PRESET_DIR " takes the\n"
	    "place of a shipped preset of the same name, from %s.\n"
	    "\nSubcommands:\n"
	    "  list       the presets: name, origin and description (the default)\n"
	    "  show NAME  the preset's entries, with its auto values worked out for this machine\n"
	    "  diff NAME  what preset apply NAME would do: each knob of the preset, its\n"
	    "             current value, the preset's value, the action and why; exit\n"
	    "             status 1 when apply would change something, as diff(1)\n"
	    "  apply NAME set the knobs to the preset's values, as one change (undo it with\n"
	    "             reclaimctl restore); knobs the kernel lacks or a sysctl file sets\n"
	    "             are left alone\n"
	    "\nOptions:\n"
	    "      --dry-run  (apply) show what would change without writing it\n"
	    "  -p, --persist  (apply, diff) also write the values to " RECLAIM_PERSIST_FILE "\n"
	    "  -f, --force    (apply, diff) also set knobs that a sysctl file sets\n"
	    "  -J, --json     JSON output\n"
	    "  -h, --help     this help\n",
	    reclaim_preset_shipped_dir());
}

static const char *origin_text(bool admin, bool overrides)
{
	if (!admin)
		return "shipped";
	return overrides ? "admin, overrides shipped" : "admin";
}

static void json_add_origin(cJSON *o, bool admin, bool overrides, const char *path)
{
	cJSON_AddStringToObject(o, "origin", admin ? "admin" : "shipped");
	cJSON_AddBoolToObject(o, "overrides_shipped", overrides);
	/* A plan has the path already. */
	if (path)
		cJSON_AddStringToObject(o, "path", path);
}

static void format_value(char *buf, size_t size, const struct reclaim_knob *k, int64_t v)
{
	snprintf(buf, size, "%s%s", KNOB_TEXT(k, v),
		 reclaim_knob_unit(k) == RECLAIM_UNIT_KB ? " KiB" : "");
}

/* Loads @name: 0, or the exit status after the error (2 for a name that is not one). */
static int load(struct cli *cli, const char *name, struct reclaim_preset **p)
{
	int r = reclaim_preset_load(cli->ctx, name, p);

	if (r == -EINVAL)
		return lib_fail(cli, EXIT_USAGE, NULL);
	if (r < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	return 0;
}

__attribute__((format(printf, 2, 3))) static int set_err(char **err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(err, fmt, ap) < 0)
		*err = NULL;
	va_end(ap);
	return EXIT_FAILURE;
}

/* A preset's values, its "auto" entries worked out for this machine (for show). */
struct preset_resolved {
	int64_t value;
	char *reason; /* why, for an "auto" entry; else NULL */
};

static void preset_resolved_free(struct preset_resolved *res, size_t n)
{
	if (!res)
		return;
	for (size_t i = 0; i < n; i++)
		free(res[i].reason);
	free(res);
}

static int preset_resolve(struct cli *cli, const struct reclaim_preset *p,
			  struct preset_resolved **ret, char **err)
{
	size_t n = reclaim_preset_count(p);
	struct reclaim_topology *topo = NULL;
	struct preset_resolved *res = NULL;
	int r = 0;

	res = calloc(n ? n : 1, sizeof(*res));
	if (!res)
		return set_err(err, "out of memory");
	for (size_t i = 0; i < n && r == 0; i++) {
		const struct reclaim_knob *k = reclaim_preset_knob(p, i);

		if (!reclaim_preset_is_auto(p, i)) {
			res[i].value = reclaim_preset_value(p, i);
			continue;
		}
		if (!topo && reclaim_topology_new(cli->ctx, &topo) < 0) {
			r = set_err(err, "%s", reclaim_strerror(cli->ctx));
			break;
		}
		if (reclaim_knob_recommend(cli->ctx, k, topo, &res[i].value, &res[i].reason) < 0)
			r = set_err(err, "%s:%u: auto for %s: %s", reclaim_preset_path(p),
				    reclaim_preset_line(p, i), reclaim_knob_name(k),
				    reclaim_strerror(cli->ctx));
	}
	reclaim_topology_unref(topo);
	if (r) {
		preset_resolved_free(res, n);
		return r;
	}
	*ret = res;
	return 0;
}

enum { L_NAME, L_ORIGIN, L_FILE, L_DESCRIPTION };

static const struct colinfo list_cols[] = {
    [L_NAME] = {"NAME", 0, 0, "preset name", "name", CJ_STRING},
    [L_ORIGIN] = {"ORIGIN", 0, 0, "shipped, admin, or admin overriding a shipped one", "origin",
		  CJ_STRING},
    [L_FILE] = {"FILE", 0, 0, "the file it is read from", "path", CJ_STRING},
    [L_DESCRIPTION] = {"DESCRIPTION", 0.4, COL_TRUNC, "its description, or what is wrong with it",
		       "description", CJ_STRING},
};

enum { E_LINE, E_KNOB, E_VALUE, E_AUTO };

static const struct colinfo entry_cols[] = {
    [E_LINE] = {"LINE", 0, COL_RIGHT, "line in the preset file", "line", CJ_NUMBER},
    [E_KNOB] = {"KNOB", 0, 0, "knob it sets", "knob", CJ_STRING},
    [E_VALUE] = {"VALUE", 0, 0, "the value; for auto, what it works out to and why", "value",
		 CJ_KNOB_VALUE},
    [E_AUTO] = {"AUTO", 0, 0, "whether the value is auto (worked out on this machine)", "auto",
		CJ_BOOL},
};

static const struct coltable list_columns =
    COLTABLE("list", list_cols, "NAME,ORIGIN,DESCRIPTION", "presets[]");
static const struct coltable show_columns =
    COLTABLE("show", entry_cols, "LINE,KNOB,VALUE", "entries[]");

/* A malformed preset is listed, with what is wrong with it. In the JSON's order of keys. */
static void fill_list_row(struct table *t, struct cli *cli, const struct reclaim_preset_list *list,
			  size_t i)
{
	bool admin = reclaim_preset_list_is_admin(list, i);
	bool overrides = reclaim_preset_list_overrides_shipped(list, i);
	struct reclaim_preset *p = NULL;
	const char *desc = NULL, *error = NULL;
	char *cell = NULL;

	if (reclaim_preset_load(cli->ctx, reclaim_preset_list_name(list, i), &p) < 0)
		error = reclaim_strerror(cli->ctx);
	else
		desc = reclaim_preset_description(p);
	if (error && asprintf(&cell, "INVALID: %s", error) < 0)
		cell = NULL;
	table_row(t);
	table_set_str(t, L_NAME, reclaim_preset_list_name(list, i));
	table_set_value(t, L_ORIGIN, origin_text(admin, overrides),
			cJSON_CreateString(admin ? "admin" : "shipped"));
	table_json_add(t, "overrides_shipped", cJSON_CreateBool(overrides));
	table_set_str(t, L_FILE, reclaim_preset_list_path(list, i));
	table_set_value(t, L_DESCRIPTION, error ? cell : desc,
			desc ? cJSON_CreateString(desc) : NULL);
	table_json_add(t, "error", error ? cJSON_CreateString(error) : cJSON_CreateNull());
	free(cell);
	reclaim_preset_unref(p);
}

static int preset_list(struct cli *cli)
{
	struct reclaim_preset_list *list;
	struct table *t;
	size_t n;
	int r = EXIT_SUCCESS;

	if (reclaim_preset_list_new(cli->ctx, &list) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	n = reclaim_preset_list_count(list);
	t = table_new(cli, &list_columns);
	for (size_t i = 0; i < n; i++)
		fill_list_row(t, cli, list, i);
	if (n == 0) {
		/* a package always ships some: none found is a broken installation */
		r = fail(EXIT_FAILURE,
			 "no presets in %s nor %s (RECLAIMCTL_PRESET_DIR names the shipped ones' "
			 "directory)",
			 RECLAIM_ADMIN_PRESET_DIR, reclaim_preset_shipped_dir());
	} else if (cli->json) {
		cJSON *root = json_document();

		cJSON_AddItemToObject(root, "presets", table_json_array(t));
		json_print(root);
		cJSON_Delete(root);
	} else {
		table_print(t);
	}
	table_free(t);
	reclaim_preset_list_unref(list);
	return r;
}

static void show_header(const struct reclaim_preset *p, bool description)
{
	printf("Name:        %s\n", reclaim_preset_name(p));
	printf("Origin:      %s\n",
	       origin_text(reclaim_preset_is_admin(p), reclaim_preset_overrides_shipped(p)));
	printf("File:        %s\n", reclaim_preset_path(p));
	if (description && reclaim_preset_description(p))
		printf("Description: %s\n", reclaim_preset_description(p));
}

static cJSON *json_preset(const struct reclaim_preset *p)
{
	cJSON *root = json_document();

	cJSON_AddStringToObject(root, "name", reclaim_preset_name(p));
	json_add_origin(root, reclaim_preset_is_admin(p), reclaim_preset_overrides_shipped(p),
			reclaim_preset_path(p));
	return root;
}

/* The preset's entries, in the JSON's order of keys. */
static void fill_entries(struct table *t, const struct reclaim_preset *p,
			 const struct preset_resolved *res)
{
	for (size_t i = 0; i < reclaim_preset_count(p); i++) {
		const struct reclaim_knob *k = reclaim_preset_knob(p, i);
		char value[64], *cell = NULL;

		format_value(value, sizeof(value), k, res[i].value);
		if (reclaim_preset_is_auto(p, i) &&
		    asprintf(&cell, "auto (= %s: %s)", value, res[i].reason) < 0)
			cell = NULL;
		table_row(t);
		table_set_str(t, E_KNOB, reclaim_knob_name(k));
		table_set_int(t, E_LINE, reclaim_preset_line(p, i));
		table_set_bool(t, E_AUTO, reclaim_preset_is_auto(p, i));
		table_set_value(t, E_VALUE, cell ? cell : value, json_knob_value(k, res[i].value));
		table_json_add(t, "auto_reason",
			       res[i].reason ? cJSON_CreateString(res[i].reason)
					     : cJSON_CreateNull());
		free(cell);
	}
}

/* Loads @name and works out its auto values: 0, or the exit status after the error. */
static int load_resolved(struct cli *cli, const char *name, struct reclaim_preset **p,
			 struct preset_resolved **res)
{
	char *err = NULL;
	int r = load(cli, name, p);

	if (r)
		return r;
	r = preset_resolve(cli, *p, res, &err);
	if (r) {
		fail(r, "%s", err ? err : "out of memory");
		reclaim_preset_unref(*p);
	}
	free(err);
	return r;
}

static int preset_show(struct cli *cli, const char *name)
{
	struct reclaim_preset *p;
	struct preset_resolved *res = NULL;
	struct table *t;
	size_t n;
	int r;

	r = load_resolved(cli, name, &p, &res);
	if (r)
		return r;
	n = reclaim_preset_count(p);
	t = table_new(cli, &show_columns);
	fill_entries(t, p, res);
	if (cli->json) {
		cJSON *root = json_preset(p);
		const char *desc = reclaim_preset_description(p);

		if (desc)
			cJSON_AddStringToObject(root, "description", desc);
		else
			cJSON_AddNullToObject(root, "description");
		cJSON_AddItemToObject(root, "entries", table_json_array(t));
		json_print(root);
		cJSON_Delete(root);
	} else {
		/* -n, -P: the entries' rows alone */
		if (!script_output(cli)) {
			show_header(p, true);
			printf("\n");
		}
		if (n)
			table_print(t);
		else
			note(cli, "No entries: applying this preset changes nothing.");
	}
	table_free(t);
	preset_resolved_free(res, n);
	reclaim_preset_unref(p);
	return EXIT_SUCCESS;
}

/*
 * diff and apply: the engine's evaluation of the preset (diff is apply's
 * dry run, with each value's reason), printed as every change is.
 */
static int preset_apply(struct cli *cli, const char *name, const struct plan_options *o, bool diff)
{
	struct reclaim_request *req = NULL;
	struct reclaim_eval *e = NULL;
	struct reclaim_preset *p;
	int r;

	r = load(cli, name, &p);
	if (r)
		return r;
	if (reclaim_request_new(cli->ctx, RECLAIM_REQUEST_PRESET, o->flags, &req) < 0 ||
	    reclaim_request_set_preset(req, p) < 0)
		r = lib_fail(cli, EXIT_FAILURE, NULL);
	if (r == 0)
		r = plan_run(cli, req, o, &e);
	if (r == 0 && cli->json) {
		cJSON *root = plan_json(e, o);

		json_add_origin(root, reclaim_preset_is_admin(p),
				reclaim_preset_overrides_shipped(p), NULL);
		json_print(root);
		cJSON_Delete(root);
	} else if (r == 0) {
		if (diff)
			printf("Preset %s (%s, %s)\n\n", reclaim_preset_name(p),
			       origin_text(reclaim_preset_is_admin(p),
					   reclaim_preset_overrides_shipped(p)),
			       reclaim_preset_path(p));
		plan_print_text(e, o);
		if (diff)
			printf("%s", reclaim_eval_count(e) ? "\n" : "");
		if (diff || reclaim_eval_count(e) == 0)
			plan_print_summary(e, o);
	}
	/* as diff(1): 1 when applying would change something */
	if (r == 0 && diff && reclaim_eval_changed(e))
		r = EXIT_FAILURE;
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	reclaim_preset_unref(p);
	return r;
}

static const struct option preset_opts[] = {COMMON_LONG_OPTIONS,
					    TABLE_LONG_OPTIONS,
					    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
					    {"persist", no_argument, NULL, 'p'},
					    {"force", no_argument, NULL, 'f'},
					    {0}};

static int preset_main(struct cli *cli, int argc, char **argv)
{
	struct plan_options o = {0};
	const char *sub, *apply_opt = NULL, *dry_opt = NULL;
	int c, n, r;

	while ((c = getopt_long(argc, argv, "+" COMMON_SHORT_OPTIONS TABLE_SHORT_OPTIONS "pf",
				preset_opts, NULL)) != -1) {
		bool done;

		if (c == OPT_DRY_RUN) {
			o.dry_run = true;
			dry_opt = argv[optind - 1];
			continue;
		}
		if (c == 'p' || c == 'f') {
			o.flags |= c == 'p' ? RECLAIM_REQUEST_PERSIST : RECLAIM_REQUEST_FORCE;
			apply_opt = argv[optind - 1];
			continue;
		}
		r = common_option(cli, &cmd_preset, c, argv, &done);
		if (done)
			return r;
	}
	n = argc - optind;
	sub = n > 0 ? argv[optind] : "list";
	if (dry_opt && strcmp(sub, "apply") != 0)
		return usage_error("preset %s: option '%s' is for preset apply", sub, dry_opt);
	if (apply_opt && strcmp(sub, "apply") != 0 && strcmp(sub, "diff") != 0)
		return usage_error("preset %s: option '%s' is for preset apply and diff", sub,
				   apply_opt);
	if (strcmp(sub, "list") == 0) {
		if (n > 1)
			return usage_error("preset list: unexpected argument '%s'",
					   argv[optind + 1]);
		r = table_check(cli, "preset", &list_columns);
		return r ? r : preset_list(cli);
	}
	if (strcmp(sub, "show") == 0 || strcmp(sub, "diff") == 0 || strcmp(sub, "apply") == 0) {
		if (n < 2)
			return usage_error(
			    "preset %s: expected NAME (see reclaimctl preset --help)", sub);
		if (n > 2)
			return usage_error("preset %s: unexpected argument '%s'", sub,
					   argv[optind + 2]);
		if (sub[0] == 's') {
			r = table_check(cli, "preset", &show_columns);
			return r ? r : preset_show(cli, argv[optind + 1]);
		}
		r = table_options_refuse(cli, sub[0] == 'a' ? "preset apply" : "preset diff");
		if (r)
			return r;
		if (sub[0] == 'a')
			return preset_apply(cli, argv[optind + 1], &o, false);
		/* diff is apply's dry run, with each value's reason */
		o.dry_run = o.explain = true;
		return preset_apply(cli, argv[optind + 1], &o, true);
	}
	return usage_error("preset: unknown subcommand '%s' (list, show, diff, apply)", sub);
}

static int run_preset(struct cli *cli, int argc, char **argv)
{
	return run_options_first(cli, argc, argv, preset_main);
}

const struct command cmd_preset = {
    .name = "preset",
    .run = run_preset,
    .args = "[list] | show NAME | diff [--persist] [--force] NAME | apply [--dry-run] [--persist] "
	    "[--force] NAME",
    .summary = "List, show, compare and apply presets of knob values",
    .help = preset_help,
    .tables = (const struct coltable *const[]){&list_columns, &show_columns, NULL},
    .reads_knobs = true,
};
