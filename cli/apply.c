// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdlib.h>

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
		cJSON_AddStringToObject(obj, "sysctl", reclaim_knob_sysctl(k));
		if (reclaim_eval_has_old(e, i))
			cJSON_AddNumberToObject(obj, "old", (double)reclaim_eval_old(e, i));
		else
			cJSON_AddNullToObject(obj, "old");
		cJSON_AddNumberToObject(obj, "new", (double)reclaim_eval_new(e, i));
		cJSON_AddStringToObject(obj, "action",
					reclaim_action_name(reclaim_eval_action(e, i)));
		cJSON_AddStringToObject(obj, "reason", reclaim_eval_reason(e, i));
		cJSON_AddStringToObject(obj, "source", reclaim_eval_source(e, i));
		cJSON_AddItemToArray(arr, obj);
	}
	cJSON_AddBoolToObject(root, "persist", o->flags & RECLAIM_REQUEST_PERSIST);
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
	const char *name = reclaim_knob_sysctl(reclaim_eval_knob(e, i));
	char *reason = printable(reclaim_eval_reason(e, i));

	switch (reclaim_eval_action(e, i)) {
	case RECLAIM_ACTION_SET:
		printf("%s%s: %" PRId64 " -> %" PRId64, o->dry_run ? "would set " : "", name,
		       reclaim_eval_old(e, i), reclaim_eval_new(e, i));
		/* The same value set again (a node short of kswapd threads): say why. */
		if (reclaim_eval_old(e, i) == reclaim_eval_new(e, i) && !o->explain)
			printf(" (%s)", reason);
		printf("\n");
		break;
	case RECLAIM_ACTION_UNCHANGED:
		printf("%s: %" PRId64 " (unchanged)\n", name, reclaim_eval_new(e, i));
		break;
	case RECLAIM_ACTION_SKIPPED:
		printf("%s: skipped (%s)\n", name, reason);
		break;
	}
	if (o->explain && reclaim_eval_action(e, i) != RECLAIM_ACTION_SKIPPED)
		printf("  %s\n", reason);
	free(reason);
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
		printf("%s in %s\n", o->dry_run ? "would persist" : "persisted",
		       RECLAIM_PERSIST_FILE);
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
