// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "internal.h"

struct change_entry {
	const struct reclaim_knob *knob;
	int64_t new_value, old_value;
};

struct reclaim_change {
	int refcount;
	struct reclaim_ctx *ctx;
	struct change_entry *entries;
	size_t count;
	ssize_t failed;
};

RECLAIM_EXPORT int reclaim_change_new(struct reclaim_ctx *ctx, struct reclaim_change **ret)
{
	struct reclaim_change *c;

	assert_return(ctx && ret, -EINVAL);
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->refcount = 1;
	c->ctx = reclaim_ref(ctx);
	c->failed = -1;
	*ret = c;
	return 0;
}

RECLAIM_EXPORT struct reclaim_change *reclaim_change_ref(struct reclaim_change *c)
{
	if (c)
		c->refcount++;
	return c;
}

RECLAIM_EXPORT struct reclaim_change *reclaim_change_unref(struct reclaim_change *c)
{
	if (c && --c->refcount == 0) {
		reclaim_unref(c->ctx);
		free(c->entries);
		free(c);
	}
	return NULL;
}

RECLAIM_EXPORT int reclaim_change_add(struct reclaim_change *c, const struct reclaim_knob *knob,
				      int64_t value)
{
	struct change_entry *e;
	int r;

	assert_return(c && knob, -EINVAL);
	r = reclaim_knob_check(c->ctx, knob, value);
	if (r < 0)
		return r;
	for (size_t i = 0; i < c->count; i++)
		if (c->entries[i].knob == knob) {
			c->entries[i].new_value = value;
			return 0;
		}
	e = realloc(c->entries, (c->count + 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	c->entries = e;
	e[c->count++] = (struct change_entry){.knob = knob, .new_value = value};
	return 0;
}

/* Returns how many of the knobs written could not be put back. */
static size_t rollback(struct reclaim_change *c, size_t written)
{
	size_t failed = 0;

	while (written-- > 0) {
		struct change_entry *e = &c->entries[written];

		if (e->old_value != e->new_value &&
		    reclaim_knob_write(c->ctx, e->knob, e->old_value) < 0)
			failed++;
	}
	return failed;
}

RECLAIM_EXPORT int reclaim_change_apply(struct reclaim_change *c)
{
	char detail[512];
	size_t i, written = 0, unrestored;
	int r = 0;

	assert_return(c, -EINVAL);
	c->failed = -1;
	/* Read every old value before writing anything. */
	for (i = 0; i < c->count; i++) {
		r = reclaim_knob_read(c->ctx, c->entries[i].knob, &c->entries[i].old_value);
		if (r < 0) {
			c->failed = (ssize_t)i;
			return r;
		}
	}
	for (i = 0; i < c->count; i++) {
		struct change_entry *e = &c->entries[i];

		if (e->old_value == e->new_value)
			continue;
		r = reclaim_knob_write(c->ctx, e->knob, e->new_value);
		if (r < 0)
			break;
	}
	if (i == c->count)
		return 0;
	c->failed = (ssize_t)i;
	for (size_t j = 0; j < i; j++)
		written += c->entries[j].old_value != c->entries[j].new_value;
	/* Keep the failing write's message; the rollback's own errors must not replace it. */
	snprintf(detail, sizeof(detail), "%s", reclaim_strerror(c->ctx));
	unrestored = rollback(c, i);
	if (unrestored > 0)
		return reclaim_error(
		    c->ctx, -r, "%s; %zu of the %zu knob(s) already written could not be restored",
		    detail, unrestored, written);
	if (written > 0)
		return reclaim_error(c->ctx, -r,
				     "%s; the %zu knob(s) already written were restored", detail,
				     written);
	return reclaim_error(c->ctx, -r, "%s", detail);
}

RECLAIM_EXPORT size_t reclaim_change_count(const struct reclaim_change *c)
{
	assert_return(c, 0);
	return c->count;
}

RECLAIM_EXPORT const struct reclaim_knob *reclaim_change_knob(const struct reclaim_change *c,
							      size_t idx)
{
	assert_return(c && idx < c->count, NULL);
	return c->entries[idx].knob;
}

RECLAIM_EXPORT int64_t reclaim_change_new_value(const struct reclaim_change *c, size_t idx)
{
	assert_return(c && idx < c->count, 0);
	return c->entries[idx].new_value;
}

RECLAIM_EXPORT int64_t reclaim_change_old_value(const struct reclaim_change *c, size_t idx)
{
	assert_return(c && idx < c->count, 0);
	return c->entries[idx].old_value;
}

RECLAIM_EXPORT ssize_t reclaim_change_failed_index(const struct reclaim_change *c)
{
	assert_return(c, -1);
	return c->failed;
}
