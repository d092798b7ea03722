// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"

int apply_add(struct apply_result *res, const struct reclaim_knob *k, int64_t value,
	      const char *reason)
{
	struct apply_entry *e = realloc(res->entries, (res->count + 1) * sizeof(*e));

	if (!e)
		return -ENOMEM;
	res->entries = e;
	e = &res->entries[res->count];
	*e = (struct apply_entry){.knob = k, .new_value = value, .status = APPLY_CHANGED};
	if (reason && !(e->reason = strdup(reason)))
		return -ENOMEM;
	res->count++;
	return 0;
}

__attribute__((format(printf, 3, 4))) static int set_error(struct apply_result *res, int code,
							   const char *fmt, ...)
{
	va_list ap;

	free(res->error);
	res->error = NULL;
	va_start(ap, fmt);
	if (vasprintf(&res->error, fmt, ap) < 0)
		res->error = NULL;
	va_end(ap);
	return code;
}

static void skip(struct apply_entry *e, const char *why)
{
	free(e->reason);
	e->reason = strdup(why);
	e->status = APPLY_SKIPPED;
}

/*
 * A knob that a sysctl file (other than reclaimctl's own) sets is an
 * administrator's choice: 1 and why in @why, else 0.
 */
static int admin_choice(struct reclaim_sysctl_conf *conf, const struct reclaim_knob *k, char **why)
{
	ssize_t at = reclaim_sysctl_conf_admin_entry(conf, k);

	if (at < 0)
		return 0;
	if (asprintf(why, "%s:%u sets %s = %s; use --force to override it",
		     reclaim_sysctl_conf_file(conf, (size_t)at),
		     reclaim_sysctl_conf_line(conf, (size_t)at),
		     reclaim_sysctl_conf_key(conf, (size_t)at),
		     reclaim_sysctl_conf_value(conf, (size_t)at)) < 0)
		return -ENOMEM;
	return 1;
}

/* Knobs left alone: the kernel lacks them, or (without --force) a sysctl file sets them. */
static int check_entry(struct cli *cli, const struct apply_request *req, struct apply_result *res,
		       struct reclaim_sysctl_conf *conf, struct apply_entry *e)
{
	char *why = NULL;
	int r = reclaim_knob_supported(cli->ctx, e->knob);

	if (r < 0)
		return set_error(res, EXIT_FAILURE, "%s", reclaim_strerror(cli->ctx));
	if (r == 0 && !req->need_knobs) {
		skip(e, "the running kernel lacks it");
		return 0;
	}
	/* With need_knobs, a missing knob fails here with the library's message. */
	if (reclaim_knob_read(cli->ctx, e->knob, &e->old_value) < 0)
		return set_error(res, EXIT_FAILURE, "%s", reclaim_strerror(cli->ctx));
	e->status = e->old_value == e->new_value ? APPLY_UNCHANGED : APPLY_CHANGED;
	r = conf && !req->force ? admin_choice(conf, e->knob, &why) : 0;
	if (r < 0)
		return set_error(res, EXIT_FAILURE, "out of memory");
	if (r > 0 && req->need_knobs) {
		r = set_error(res, EXIT_FAILURE, "%s left alone: %s", reclaim_knob_sysctl(e->knob),
			      why);
	} else if (r > 0) {
		skip(e, why);
		r = 0;
	}
	free(why);
	return r;
}

static int check_entries(struct cli *cli, const struct apply_request *req, struct apply_result *res)
{
	struct reclaim_sysctl_conf *conf = NULL;
	int r = 0;

	/* A restore puts back what was there: no sysctl file is overridden by it. */
	if (!req->restore && !req->force && reclaim_sysctl_conf_new(cli->ctx, &conf) < 0)
		return set_error(res, EXIT_FAILURE, "%s", reclaim_strerror(cli->ctx));
	for (size_t i = 0; r == 0 && i < res->count; i++)
		r = check_entry(cli, req, res, conf, &res->entries[i]);
	reclaim_sysctl_conf_unref(conf);
	return r;
}

static int build_change(struct cli *cli, const struct apply_request *req, struct apply_result *res,
			struct reclaim_change **change)
{
	int r;

	if (req->restore) {
		r = reclaim_change_new_restore(cli->ctx, change);
		if (r == -ENOENT)
			return 0; /* nothing saved: nothing to do */
	} else
		r = reclaim_change_new(cli->ctx, change);
	for (size_t i = 0; r == 0 && !req->restore && i < res->count; i++)
		if (res->entries[i].status != APPLY_SKIPPED)
			r = reclaim_change_add(*change, res->entries[i].knob,
					       res->entries[i].new_value);
	/* restore --persist removes the persisted values: the restore itself persists nothing. */
	if (r == 0 && req->persist && !req->restore)
		r = reclaim_change_set_persist(*change, true);
	if (r < 0)
		return set_error(res, EXIT_FAILURE, "%s", reclaim_strerror(cli->ctx));
	return 0;
}

/* A restore's entries are the saved values: known only from the change. */
static int entries_from_change(struct apply_result *res, const struct reclaim_change *c)
{
	for (size_t i = 0; i < reclaim_change_count(c); i++)
		if (apply_add(res, reclaim_change_knob(c, i), reclaim_change_new_value(c, i),
			      NULL) < 0)
			return -ENOMEM;
	return 0;
}

/*
 * The old values the change read under the writers' lock, which another
 * writer may have changed since check_entries() read them: the change's
 * entries are the entries not skipped, in order.
 */
static void take_old_values(struct apply_result *res, const struct reclaim_change *c)
{
	size_t j = 0;

	for (size_t i = 0; i < res->count && j < reclaim_change_count(c); i++) {
		struct apply_entry *e = &res->entries[i];

		if (e->status == APPLY_SKIPPED)
			continue;
		e->old_value = reclaim_change_old_value(c, j++);
		e->status = e->old_value == e->new_value ? APPLY_UNCHANGED : APPLY_CHANGED;
	}
}

int apply_run(struct cli *cli, const struct apply_request *req, struct apply_result *res)
{
	struct reclaim_change *change = NULL;
	int r;

	res->verified_nodes = -1;
	if (req->restore) {
		r = build_change(cli, req, res, &change);
		if (r || !change)
			return r;
		if (entries_from_change(res, change) < 0) {
			reclaim_change_unref(change);
			return set_error(res, EXIT_FAILURE, "out of memory");
		}
	}
	r = check_entries(cli, req, res);
	if (r == 0 && !change)
		r = build_change(cli, req, res, &change);
	/* Nothing to write (every knob skipped): no lock, no saved values. */
	if (r == 0 && !req->dry_run && reclaim_change_count(change) > 0 &&
	    reclaim_change_apply(change) < 0)
		r = set_error(res, EXIT_FAILURE, "%s", reclaim_strerror(cli->ctx));
	if (r == 0 && !req->dry_run && reclaim_change_count(change) > 0) {
		take_old_values(res, change);
		res->verified_nodes = reclaim_change_verified_nodes(change);
	}
	reclaim_change_unref(change);
	return r;
}

int apply_add_preset(struct cli *cli, const struct reclaim_preset *p, struct apply_result *res)
{
	struct preset_resolved *values = NULL;
	char *err = NULL;
	int r;

	r = preset_resolve(cli, p, &values, &err);
	if (r) {
		r = set_error(res, r, "%s", err ? err : "out of memory");
		free(err);
		return r;
	}
	for (size_t i = 0; r == 0 && i < reclaim_preset_count(p); i++)
		if (apply_add(res, reclaim_preset_knob(p, i), values[i].value, values[i].reason) <
		    0)
			r = set_error(res, EXIT_FAILURE, "out of memory");
	preset_resolved_free(values, reclaim_preset_count(p));
	return r;
}

static const char *status_name(const struct apply_request *req, enum apply_status s)
{
	switch (s) {
	case APPLY_CHANGED:
		return req->dry_run ? "would change" : "changed";
	case APPLY_UNCHANGED:
		return "unchanged";
	case APPLY_SKIPPED:
		return "skipped";
	}
	return "?";
}

cJSON *apply_json(const struct apply_request *req, const struct apply_result *res)
{
	cJSON *root = json_document(), *arr;

	cJSON_AddBoolToObject(root, "dry_run", req->dry_run);
	arr = cJSON_AddArrayToObject(root, "knobs");
	for (size_t i = 0; i < res->count; i++) {
		const struct apply_entry *e = &res->entries[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "knob", reclaim_knob_name(e->knob));
		cJSON_AddStringToObject(o, "status", status_name(req, e->status));
		if (e->status == APPLY_SKIPPED)
			cJSON_AddNullToObject(o, "old");
		else
			cJSON_AddNumberToObject(o, "old", (double)e->old_value);
		cJSON_AddNumberToObject(o, "new", (double)e->new_value);
		if (e->reason)
			cJSON_AddStringToObject(o, "reason", e->reason);
		else
			cJSON_AddNullToObject(o, "reason");
		cJSON_AddItemToArray(arr, o);
	}
	if (res->verified_nodes >= 0)
		cJSON_AddNumberToObject(root, "verified_nodes", (double)res->verified_nodes);
	else
		cJSON_AddNullToObject(root, "verified_nodes");
	return root;
}

static void print_entry(const struct apply_request *req, const struct apply_entry *e)
{
	const char *name = reclaim_knob_sysctl(e->knob);

	switch (e->status) {
	case APPLY_CHANGED:
		printf("%s%s: %" PRId64 " -> %" PRId64 "\n", req->dry_run ? "would set " : "", name,
		       e->old_value, e->new_value);
		break;
	case APPLY_UNCHANGED:
		printf("%s: %" PRId64 " (unchanged)\n", name, e->new_value);
		break;
	case APPLY_SKIPPED:
		printf("%s: skipped (%s)\n", name, e->reason);
		break;
	}
}

void apply_print(struct cli *cli, const struct apply_request *req, const struct apply_result *res)
{
	if (cli->json) {
		cJSON *root = apply_json(req, res);

		json_print(root);
		cJSON_Delete(root);
		return;
	}
	for (size_t i = 0; i < res->count; i++) {
		print_entry(req, &res->entries[i]);
		if (req->explain && res->entries[i].reason &&
		    res->entries[i].status != APPLY_SKIPPED)
			printf("  %s\n", res->entries[i].reason);
	}
	/* restore --persist removes the file: the restore says that itself. */
	if (req->persist && !req->restore)
		printf("%s in %s\n", req->dry_run ? "would persist" : "persisted",
		       RECLAIM_PERSIST_FILE);
}

void apply_free(struct apply_result *res)
{
	for (size_t i = 0; i < res->count; i++)
		free(res->entries[i].reason);
	free(res->entries);
	free(res->error);
	*res = (struct apply_result){0};
}
