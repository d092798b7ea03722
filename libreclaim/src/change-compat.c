// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The deprecated write functions, kept for the ABI as thin wrappers of the
 * change engine's request (engine.c), the one write path: a change is the
 * SET request of its values, or the RESTORE of the change it undoes, and
 * reports what the engine read and ran as its own results.
 */
#include <errno.h>
#include <string.h>

#include "change-internal.h"

/* The change that undoes the last one: the engine's restore, as a change. */
RECLAIM_EXPORT int reclaim_change_new_restore(struct reclaim_ctx *ctx, struct reclaim_change **ret)
{
	struct reclaim_request *req = NULL;
	struct reclaim_eval *e = NULL;
	struct reclaim_change *c = NULL;
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	r = reclaim_request_new(ctx, RECLAIM_REQUEST_RESTORE, 0, &req);
	if (r == 0)
		r = reclaim_request_evaluate(req, &e);
	reclaim_request_unref(req);
	if (r < 0)
		return r;
	if (reclaim_eval_undoes(e) == 0) {
		reclaim_eval_unref(e);
		return reclaim_error(
		    ctx, ENOENT, "nothing to restore: no change since boot or the last restore");
	}
	r = reclaim_change_new(ctx, &c);
	for (size_t i = 0; r == 0 && i < reclaim_eval_count(e); i++)
		if (reclaim_eval_action(e, i) != RECLAIM_ACTION_SKIPPED)
			r = reclaim_change_add(c, reclaim_eval_knob(e, i), reclaim_eval_new(e, i));
	if (r == 0)
		r = reclaim_change_set_history(c, "restore", (long)reclaim_eval_undoes(e));
	reclaim_eval_unref(e);
	if (r < 0) {
		reclaim_change_unref(c);
		return r;
	}
	*ret = c;
	return 0;
}

/* The request the deprecated change stands for: its values, or the undo of its change. */
static int change_request(struct reclaim_change *c, struct reclaim_request **ret)
{
	unsigned int flags = RECLAIM_REQUEST_FORCE | RECLAIM_REQUEST_STRICT |
			     (c->persist ? RECLAIM_REQUEST_PERSIST : 0);
	struct reclaim_request *req = NULL;
	int r;

	if (c->undoes > 0) {
		r = reclaim_request_new(c->ctx, RECLAIM_REQUEST_RESTORE, 0, &req);
		if (r == 0)
			r = reclaim_request_set_change(req, (unsigned long)c->undoes);
	} else {
		r = reclaim_request_new(c->ctx, RECLAIM_REQUEST_SET, flags, &req);
		for (size_t i = 0; r == 0 && i < c->count; i++)
			r = reclaim_request_add(req, c->entries[i].knob, c->entries[i].new_value,
						NULL);
	}
	if (r < 0) {
		reclaim_request_unref(req);
		return r;
	}
	*ret = req;
	return 0;
}

static ssize_t entry_of(const struct reclaim_change *c, const struct reclaim_knob *knob)
{
	for (size_t i = 0; knob && i < c->count; i++)
		if (c->entries[i].knob == knob)
			return (ssize_t)i;
	return -1;
}

/*
 * What the engine read and did, reported as the change's own old values and
 * failed entry: the evaluation's after an apply, else (a failure) those of
 * the transaction it ran.
 */
static void take_results(struct reclaim_change *c, const struct reclaim_eval *e,
			 const struct reclaim_change *ran, const struct reclaim_knob *failed)
{
	if (e) {
		for (size_t i = 0; i < reclaim_eval_count(e); i++) {
			ssize_t at = entry_of(c, reclaim_eval_knob(e, i));

			if (at >= 0 && reclaim_eval_has_old(e, i))
				c->entries[at].old_value = reclaim_eval_old(e, i);
		}
	} else {
		for (size_t i = 0; ran && i < ran->count; i++) {
			ssize_t at = entry_of(c, ran->entries[i].knob);

			if (at >= 0)
				c->entries[at].old_value = ran->entries[i].old_value;
		}
	}
	if (ran && ran->failed >= 0)
		failed = ran->entries[ran->failed].knob;
	c->failed = entry_of(c, failed);
	c->verified_nodes = e ? reclaim_eval_verified_nodes(e) : -1;
}

/* A thin wrapper of the engine's request: locked, evaluated, recorded, verified. */
RECLAIM_EXPORT int reclaim_change_apply(struct reclaim_change *c)
{
	struct reclaim_request *req = NULL;
	struct reclaim_change *ran = NULL;
	struct reclaim_eval *e = NULL;
	int r;

	assert_return(c, -EINVAL);
	reclaim_error_reset(c->ctx);
	c->failed = -1;
	c->verified_nodes = -1;
	if (c->count == 0)
		return 0;
	r = change_request(c, &req);
	if (r < 0)
		return r;
	r = reclaim_request_apply_report(req, &e, &ran);
	take_results(c, e, ran, r < 0 ? reclaim_request_failed_knob(req) : NULL);
	reclaim_change_unref(ran);
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	return r;
}

/* Deprecated: a change of one knob, so the engine's request writes it. */
RECLAIM_EXPORT int reclaim_knob_write(struct reclaim_ctx *ctx, const struct reclaim_knob *k,
				      int64_t value)
{
	struct reclaim_change *c = NULL;
	int r;

	assert_return(ctx && k, -EINVAL);
	reclaim_error_reset(ctx);
	r = reclaim_change_new(ctx, &c);
	if (r == 0)
		r = reclaim_change_add(c, k, value);
	if (r == 0)
		r = reclaim_change_apply(c);
	reclaim_change_unref(c);
	return r;
}
