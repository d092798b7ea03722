// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
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
	ssize_t verified_nodes;
	bool restore; /* puts back the saved values, then forgets them */
	bool persist; /* also writes the new values to RECLAIM_PERSIST_FILE */
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
	c->verified_nodes = -1;
	*ret = c;
	return 0;
}

RECLAIM_EXPORT int reclaim_change_new_restore(struct reclaim_ctx *ctx, struct reclaim_change **ret)
{
	struct reclaim_saved saved;
	struct reclaim_change *c = NULL;
	int r;

	assert_return(ctx && ret, -EINVAL);
	r = reclaim_saved_load(ctx, &saved);
	if (r < 0)
		return r;
	if (saved.count == 0)
		return reclaim_error(
		    ctx, ENOENT, "nothing to restore: no change since boot or the last restore");
	r = reclaim_change_new(ctx, &c);
	for (size_t i = 0; r == 0 && i < saved.count; i++)
		r = reclaim_change_add(c, saved.knobs[i], saved.values[i]);
	reclaim_saved_free(&saved);
	if (r < 0) {
		reclaim_change_unref(c);
		return r;
	}
	c->restore = true;
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

/*
 * Writing vm.kswapd_threads starts or stops threads before write() returns:
 * every node with memory must now run exactly @expected of them.
 */
static int verify_threads(struct reclaim_change *c, const struct reclaim_knob *k, int64_t expected)
{
	struct reclaim_topology *topo = NULL;
	struct reclaim_kswapd_list *list = NULL;
	char why[256] = "";
	size_t len = 0, nodes = 0;
	int r, bad = 0;

	r = reclaim_topology_new(c->ctx, &topo);
	if (r == 0)
		r = reclaim_kswapd_list_new(c->ctx, &list);
	for (size_t i = 0; r == 0 && i < reclaim_topology_node_count(topo); i++) {
		const struct reclaim_node *n = reclaim_topology_node(topo, i);
		size_t got;

		if (!reclaim_node_has_memory(n))
			continue;
		nodes++;
		got = reclaim_kswapd_list_count_node(list, reclaim_node_id(n));
		if ((int64_t)got == expected)
			continue;
		if (len < sizeof(why))
			len += (size_t)snprintf(why + len, sizeof(why) - len, "%snode %d runs %zu",
						bad ? ", " : "", reclaim_node_id(n), got);
		bad++;
	}
	reclaim_kswapd_list_unref(list);
	reclaim_topology_unref(topo);
	if (r < 0)
		return r;
	if (bad)
		return reclaim_error(
		    c->ctx, EIO, "%s=%" PRId64 " did not take effect (%s, expected %" PRId64 ")",
		    reclaim_knob_sysctl(k), expected, why, expected);
	c->verified_nodes = (ssize_t)nodes;
	return 0;
}

/*
 * kswapd_threads is written even when unchanged: a node left short of
 * threads (a failed hotplug start) is retried on every write.
 */
static bool is_threads(const struct change_entry *e)
{
	return strcmp(reclaim_knob_name(e->knob), "kswapd_threads") == 0;
}

/* @written: whether the knob was written (a verification can fail after). */
static int write_entry(struct reclaim_change *c, struct change_entry *e, bool *written)
{
	int r = reclaim_knob_write(c->ctx, e->knob, e->new_value);

	*written = r == 0;
	if (r == 0 && is_threads(e))
		r = verify_threads(c, e->knob, e->new_value);
	return r;
}

static void append(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/*
 * Puts back the first @written entries, newest first, and says so in
 * @detail: "; restored vm.a=1, vm.b=2; could not restore vm.c=3".
 */
static void rollback(struct reclaim_change *c, size_t written, char *detail, size_t size)
{
	char restored[512] = "", failed[512] = "";

	while (written-- > 0) {
		struct change_entry *e = &c->entries[written];
		bool ok;

		if (e->old_value == e->new_value)
			continue;
		ok = reclaim_knob_write(c->ctx, e->knob, e->old_value) == 0;
		append(ok ? restored : failed, sizeof(restored), "%s%s=%" PRId64,
		       *(ok ? restored : failed) ? ", " : "", reclaim_knob_sysctl(e->knob),
		       e->old_value);
	}
	if (*restored)
		append(detail, size, "; restored %s", restored);
	if (*failed)
		append(detail, size, "; could not restore %s", failed);
}

/*
 * The old values of the knobs this change changes replace the saved set,
 * so that a restore undoes the last change; *@stored says so, and @prior
 * holds the set as it was, for a rollback. A change that changes nothing
 * leaves the set alone.
 */
static int save_old_values(struct reclaim_change *c, struct reclaim_saved *prior, bool *stored)
{
	struct reclaim_saved mine = {0};
	int r = 0;

	*stored = false;
	r = reclaim_saved_load(c->ctx, prior);
	for (size_t i = 0; r == 0 && i < c->count; i++)
		if (c->entries[i].old_value != c->entries[i].new_value)
			r = reclaim_saved_add(&mine, c->entries[i].knob, c->entries[i].old_value);
	if (r == -ENOMEM)
		r = reclaim_error(c->ctx, ENOMEM, "out of memory");
	if (r == 0 && mine.count > 0) {
		r = reclaim_saved_store(c->ctx, &mine);
		*stored = r == 0;
	}
	reclaim_saved_free(&mine);
	return r;
}

static int persist_values(struct reclaim_change *c)
{
	const struct reclaim_knob **knobs = calloc(c->count, sizeof(*knobs));
	int64_t *values = calloc(c->count, sizeof(*values));
	int r = -ENOMEM;

	if (knobs && values) {
		for (size_t i = 0; i < c->count; i++) {
			knobs[i] = c->entries[i].knob;
			values[i] = c->entries[i].new_value;
		}
		r = reclaim_persist_write(c->ctx, knobs, values, c->count);
	} else {
		reclaim_error(c->ctx, ENOMEM, "out of memory");
	}
	free(knobs);
	free(values);
	return r;
}

/* Reads every old value, saves them, then writes, then persists; under the lock. */
static int apply_locked(struct reclaim_change *c)
{
	struct reclaim_saved prior = {0}, none = {0};
	char detail[1024];
	bool written = false, stored = false;
	size_t i, done = 0;
	int r = 0;

	for (i = 0; i < c->count; i++) {
		r = reclaim_knob_read(c->ctx, c->entries[i].knob, &c->entries[i].old_value);
		if (r < 0) {
			c->failed = (ssize_t)i;
			return r;
		}
	}
	if (!c->restore) {
		r = save_old_values(c, &prior, &stored);
		if (r < 0) {
			reclaim_saved_free(&prior);
			return r;
		}
	}
	for (i = 0; i < c->count; i++) {
		if (c->entries[i].old_value == c->entries[i].new_value &&
		    !is_threads(&c->entries[i]))
			continue;
		r = write_entry(c, &c->entries[i], &written);
		if (r < 0)
			break;
	}
	if (r < 0) {
		c->failed = (ssize_t)i;
		/* A write that did not take effect was still a write: put it back too. */
		done = written ? i + 1 : i;
	} else if (c->persist) {
		r = persist_values(c);
		done = c->count;
	}
	if (r == 0) {
		reclaim_saved_free(&prior);
		/* Restored: the machine is back to its own values. */
		return c->restore ? reclaim_saved_store(c->ctx, &none) : 0;
	}
	/* Keep the failure's message; the rollback's own errors must not replace it. */
	snprintf(detail, sizeof(detail), "%s", reclaim_strerror(c->ctx));
	rollback(c, done, detail, sizeof(detail));
	if (stored)
		reclaim_saved_store(c->ctx, &prior);
	reclaim_saved_free(&prior);
	return reclaim_error(c->ctx, -r, "%s", detail);
}

RECLAIM_EXPORT int reclaim_change_apply(struct reclaim_change *c)
{
	int fd, r;

	assert_return(c, -EINVAL);
	c->failed = -1;
	c->verified_nodes = -1;
	r = reclaim_lock_take(c->ctx, &fd);
	if (r < 0)
		return r;
	r = apply_locked(c);
	reclaim_lock_release(fd);
	return r;
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

RECLAIM_EXPORT ssize_t reclaim_change_verified_nodes(const struct reclaim_change *c)
{
	assert_return(c, -1);
	return c->verified_nodes;
}

RECLAIM_EXPORT int reclaim_change_set_persist(struct reclaim_change *c, bool persist)
{
	assert_return(c, -EINVAL);
	c->persist = persist;
	return 0;
}
