// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"

int plan_run(struct cli *cli, struct reclaim_request *req, const struct plan_options *o,
	     struct reclaim_eval **eval)
{
	int r;

	drift_note(cli);
	r = o->dry_run ? reclaim_request_evaluate(req, eval) : reclaim_request_apply(req, eval);
	if (r < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	return 0;
}

static cJSON *text_or_null(const char *text)
{
	return text ? cJSON_CreateString(text) : cJSON_CreateNull();
}

/* A dry run with --persist: "persist_files", each file it would change, its text before and after.
 */
static void json_persist_files(cJSON *root, const struct reclaim_eval *e)
{
	cJSON *arr = NULL;

	for (size_t i = 0;; i++) {
		const char *path, *before, *after;
		int r = reclaim_eval_persist_file(e, i, &path, &before, &after);
		cJSON *f;

		if (r < 0)
			break;
		if (!arr)
			arr = cJSON_AddArrayToObject(root, "persist_files");
		if (r == 0)
			continue;
		f = cJSON_CreateObject();
		cJSON_AddStringToObject(f, "path", path);
		cJSON_AddItemToObject(f, "before", text_or_null(before));
		cJSON_AddItemToObject(f, "after", text_or_null(after));
		cJSON_AddItemToArray(arr, f);
	}
}

cJSON *plan_json(const struct reclaim_eval *e, const struct plan_options *o)
{
	cJSON *root = json_document(), *arr;
	ssize_t nodes = reclaim_eval_verified_nodes(e);

	cJSON_AddStringToObject(root, "command", reclaim_request_kind_name(reclaim_eval_kind(e)));
	cJSON_AddBoolToObject(root, "dry_run", o->dry_run);
	cJSON_AddBoolToObject(root, "changed", reclaim_eval_changed(e));
	arr = cJSON_AddArrayToObject(root, "entries");
	for (size_t i = 0; i < reclaim_eval_count(e); i++) {
		const struct reclaim_knob *k = reclaim_eval_knob(e, i);
		cJSON *obj = cJSON_CreateObject();

		cJSON_AddStringToObject(obj, "knob", reclaim_knob_name(k));
		cJSON_AddItemToObject(obj, "sysctl", json_knob_sysctl(k));
		cJSON_AddStringToObject(obj, "path", reclaim_knob_path(k));
		if (reclaim_eval_has_old(e, i))
			cJSON_AddItemToObject(obj, "old",
					      json_knob_value(k, reclaim_eval_old(e, i)));
		else
			cJSON_AddNullToObject(obj, "old");
		cJSON_AddItemToObject(obj, "new", json_knob_value(k, reclaim_eval_new(e, i)));
		cJSON_AddStringToObject(obj, "action",
					reclaim_action_name(reclaim_eval_action(e, i)));
		cJSON_AddStringToObject(obj, "reason", reclaim_eval_reason(e, i));
		cJSON_AddStringToObject(obj, "source", reclaim_eval_source(e, i));
		cJSON_AddItemToArray(arr, obj);
	}
	cJSON_AddBoolToObject(root, "persist", o->flags & RECLAIM_REQUEST_PERSIST);
	json_persist_files(root, e);
	if (nodes >= 0)
		cJSON_AddNumberToObject(root, "verified_nodes", (double)nodes);
	else
		cJSON_AddNullToObject(root, "verified_nodes");
	if (reclaim_eval_preset(e))
		cJSON_AddStringToObject(root, "preset", reclaim_eval_preset(e));
	if (reclaim_eval_preset_path(e))
		cJSON_AddStringToObject(root, "path", reclaim_eval_preset_path(e));
	return root;
}

static void print_entry(const struct reclaim_eval *e, size_t i, const struct plan_options *o)
{
	const struct reclaim_knob *k = reclaim_eval_knob(e, i);
	const char *name = reclaim_knob_label(k);
	char *reason = printable(reclaim_eval_reason(e, i));
	char old[RECLAIM_KNOB_TEXT_MAX], new[RECLAIM_KNOB_TEXT_MAX];

	reclaim_knob_format(k, reclaim_eval_old(e, i), old, sizeof(old));
	reclaim_knob_format(k, reclaim_eval_new(e, i), new, sizeof(new));
	switch (reclaim_eval_action(e, i)) {
	case RECLAIM_ACTION_SET:
		printf("%s%s: %s -> %s", o->dry_run ? "would set " : "", name, old, new);
		/* The same value set again (a node short of kswapd threads): say why. */
		if (reclaim_eval_old(e, i) == reclaim_eval_new(e, i) && !o->explain)
			printf(" (%s)", reason);
		printf("\n");
		break;
	case RECLAIM_ACTION_UNCHANGED:
		printf("%s: %s (unchanged)\n", name, new);
		break;
	case RECLAIM_ACTION_SKIPPED:
		printf("%s: skipped (%s)\n", name, reason);
		break;
	}
	if (o->explain && reclaim_eval_action(e, i) != RECLAIM_ACTION_SKIPPED)
		printf("  %s\n", reason);
	free(reason);
}

/* "persisted in FILE": the file of each kind of knob the change persists (sysctl.d, tmpfiles.d). */
static void print_persisted(const struct reclaim_eval *e, const struct plan_options *o)
{
	static const char *const files[] = {RECLAIM_PERSIST_FILE, RECLAIM_PERSIST_TMPFILES};
	bool in[2] = {0};
	size_t n = 0;

	for (size_t i = 0; i < reclaim_eval_count(e); i++) {
		const char *f = reclaim_knob_persist_file(reclaim_eval_knob(e, i));

		if (reclaim_eval_action(e, i) != RECLAIM_ACTION_SKIPPED)
			in[strcmp(f, files[0]) != 0] = true;
	}
	printf("%s in ", o->dry_run ? "would persist" : "persisted");
	for (size_t i = 0; i < 2; i++)
		if (in[i])
			printf("%s%s", n++ ? " and " : "", files[i]);
	printf("%s\n", n ? "" : files[0]);
}

void plan_print_text(const struct reclaim_eval *e, const struct plan_options *o)
{
	const struct reclaim_knob *threads = reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS);
	ssize_t nodes = reclaim_eval_verified_nodes(e);

	for (size_t i = 0; i < reclaim_eval_count(e); i++)
		print_entry(e, i, o);
	if (nodes >= 0)
		for (size_t i = 0; i < reclaim_eval_count(e); i++) {
			int64_t n = reclaim_eval_new(e, i);

			if (reclaim_eval_knob(e, i) != threads ||
			    reclaim_eval_action(e, i) == RECLAIM_ACTION_SKIPPED)
				continue;
			printf("checked: %" PRId64 " kswapd thread%s on each of %zd node%s with "
			       "memory\n",
			       n, n == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s");
		}
	if (o->flags & RECLAIM_REQUEST_PERSIST && reclaim_eval_kind(e) != RECLAIM_REQUEST_RESTORE &&
	    reclaim_eval_kind(e) != RECLAIM_REQUEST_RESTORE_BOOT)
		print_persisted(e, o);
}

void plan_print_summary(const struct reclaim_eval *e, const struct plan_options *o)
{
	size_t count[3] = {0};

	for (size_t i = 0; i < reclaim_eval_count(e); i++)
		count[reclaim_eval_action(e, i)]++;
	printf("%zu %s, %zu unchanged, %zu skipped\n", count[RECLAIM_ACTION_SET],
	       o->dry_run ? "to set" : "set", count[RECLAIM_ACTION_UNCHANGED],
	       count[RECLAIM_ACTION_SKIPPED]);
}

void plan_print(struct cli *cli, const struct reclaim_eval *e, const struct plan_options *o)
{
	if (cli->json) {
		cJSON *root = plan_json(e, o);

		json_print(root);
		cJSON_Delete(root);
		return;
	}
	plan_print_text(e, o);
}
