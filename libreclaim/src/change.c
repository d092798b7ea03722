// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "change-internal.h"
#include "history-internal.h"

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

int reclaim_change_set_history(struct reclaim_change *c, const char *command, long undoes)
{
	char *s = strdup(command);

	if (!s)
		return reclaim_error(c->ctx, ENOMEM, "out of memory");
	free(c->command);
	c->command = s;
	c->undoes = undoes;
	c->record_all = undoes != 0;
	return 0;
}

int reclaim_change_set_source(struct reclaim_change *c, size_t idx, const char *source)
{
	char *s = strdup(source);

	if (!s)
		return reclaim_error(c->ctx, ENOMEM, "out of memory");
	free(c->entries[idx].source);
	c->entries[idx].source = s;
	return 0;
}

void reclaim_change_set_adopted(struct reclaim_change *c, size_t idx)
{
	c->entries[idx].adopted = true;
}

void reclaim_change_set_unpersist(struct reclaim_change *c, bool unpersist)
{
	c->unpersist = unpersist;
}

void reclaim_change_set_join(struct reclaim_change *c, unsigned long change)
{
	c->join = change;
}

unsigned long reclaim_change_recorded(const struct reclaim_change *c)
{
	return c->recorded;
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
		for (size_t i = 0; i < c->count; i++)
			free(c->entries[i].source);
		free(c->entries);
		free(c->command);
		for (size_t i = 0; i < ARRAY_SIZE(c->persisted); i++)
			free(c->persisted[i]);
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
	struct kswapd_check check;
	int r;

	r = reclaim_topology_new(c->ctx, &topo);
	if (r == 0)
		r = reclaim_kswapd_list_new(c->ctx, &list);
	if (r == 0)
		reclaim_kswapd_check(topo, list, expected, &check);
	reclaim_kswapd_list_unref(list);
	reclaim_topology_unref(topo);
	if (r < 0)
		return r;
	if (check.bad)
		return reclaim_error(c->ctx, EIO, "%s=%s did not take effect (%s, expected %s)",
				     reclaim_knob_label(k), KNOB_TEXT(k, expected), check.why,
				     KNOB_TEXT(k, expected));
	c->verified_nodes = (ssize_t)check.nodes;
	return 0;
}

/*
 * kswapd_threads is written even when unchanged: a node left short of
 * threads (a failed hotplug start) is retried on every write.
 */
static bool is_threads(const struct change_entry *e)
{
	return reclaim_knob_is_threads(e->knob);
}

void reclaim_change_set_keep_unchanged(struct reclaim_change *c)
{
	c->keep_threads = true;
}

/* @written: whether the knob was written (a verification can fail after). */
static int write_entry(struct reclaim_change *c, struct change_entry *e, bool *written)
{
	int r = reclaim_knob_store(c->ctx, e->knob, e->new_value);

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
		ok = reclaim_knob_store(c->ctx, e->knob, e->old_value) == 0;
		append(ok ? restored : failed, sizeof(restored), "%s%s=%s",
		       *(ok ? restored : failed) ? ", " : "", reclaim_knob_label(e->knob),
		       KNOB_TEXT(e->knob, e->old_value));
	}
	if (*restored)
		append(detail, size, "; restored %s", restored);
	if (*failed)
		append(detail, size, "; could not restore %s", failed);
}

static void history_unrefp(struct reclaim_history **h)
{
	reclaim_history_unref(*h);
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

static const char *const persisted_files[] = {RECLAIM_PERSIST_FILE, RECLAIM_PERSIST_TMPFILES};

/* The persisted files' texts, kept to put them back; NULL for one that is not there. */
static int keep_persisted(struct reclaim_change *c)
{
	for (size_t i = 0; i < ARRAY_SIZE(persisted_files); i++) {
		int r = reclaim_read_file(c->ctx, persisted_files[i], &c->persisted[i], NULL);

		if (r == -ENOENT)
			c->persisted[i] = NULL;
		else if (r < 0)
			return reclaim_error(c->ctx, -r, "cannot read %s: %s", persisted_files[i],
					     reclaim_read_strerror(r));
	}
	return 0;
}

/* Puts the persisted files back as they were before this change. */
static void restore_persisted(struct reclaim_change *c, char *detail, size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(persisted_files); i++) {
		_cleanup_free_ char *name = NULL;
		_cleanup_close_ int dirfd = -1;
		const char *text = c->persisted[i];
		int r;

		if (reclaim_root_parent(c->ctx, persisted_files[i], &dirfd, &name) < 0)
			continue;
		r = text ? reclaim_replace_file(dirfd, name, text, strlen(text), 0644)
			 : reclaim_unlink_synced(dirfd, name);
		if (r < 0 && r != -ENOENT)
			append(detail, size, "; could not put back %s: %s", persisted_files[i],
			       strerror(-r));
	}
}

static int persist_step(struct reclaim_change *c)
{
	int r = 0;

	if (!c->persist && !c->unpersist)
		return 0;
	r = keep_persisted(c);
	if (r == 0 && c->persist)
		r = persist_values(c);
	if (r == 0 && c->unpersist && (c->persisted[0] || c->persisted[1]))
		r = reclaim_persist_remove(c->ctx);
	return r;
}

/* The records of this change: the knobs it changes (a restore: every knob it names). */
static struct history_record *history_records(struct reclaim_change *c, size_t *n)
{
	struct history_record *recs = calloc(c->count + 1, sizeof(*recs));

	*n = 0;
	if (!recs) {
		reclaim_error(c->ctx, ENOMEM, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < c->count; i++) {
		const struct change_entry *e = &c->entries[i];

		if (e->old_value == e->new_value && !c->record_all && !e->adopted)
			continue;
		recs[(*n)++] = (struct history_record){
		    .command = c->command ? c->command : "change",
		    .source = e->source ? e->source : "value",
		    .knob = e->knob,
		    .old_value = e->old_value,
		    .new_value = e->new_value,
		    .undoes = c->undoes,
		};
	}
	return recs;
}

/* The change in the history before anything is written: its intent (none if it records nothing). */
static int record_intent(struct reclaim_change *c, struct reclaim_history *h)
{
	size_t n;
	_cleanup_free_ struct history_record *recs = history_records(c, &n);
	int r;

	if (!recs)
		return -ENOMEM;
	r = reclaim_history_intent(h, c->join, recs, n);
	if (r == 0 && n > 0)
		c->recorded = recs[0].change;
	return r;
}

/* A change rolled back: its intent out of the history, or @detail says it stays. */
static void forget_intent(struct reclaim_change *c, struct reclaim_history *h, char *detail,
			  size_t size)
{
	if (c->recorded == 0)
		return;
	if (reclaim_history_discard(h) < 0)
		append(detail, size, "; change %lu stays in %s, interrupted", c->recorded,
		       RECLAIM_HISTORY_FILE);
	c->recorded = 0;
}

static int read_old_values(struct reclaim_change *c)
{
	for (size_t i = 0; i < c->count; i++) {
		int r = reclaim_knob_read(c->ctx, c->entries[i].knob, &c->entries[i].old_value);

		if (r < 0) {
			c->failed = (ssize_t)i;
			return r;
		}
	}
	return 0;
}

/*
 * After the intent: writes, persists, marks the record done. A failure puts
 * back every knob written and the persisted file, and takes the intent back.
 */
static int write_and_record(struct reclaim_change *c, struct reclaim_history *h)
{
	char detail[1024];
	bool written = false;
	size_t i, done = 0;
	int r = 0;

	for (i = 0; i < c->count; i++) {
		if (c->entries[i].old_value == c->entries[i].new_value &&
		    (c->keep_threads || !is_threads(&c->entries[i])))
			continue;
		r = write_entry(c, &c->entries[i], &written);
		if (r < 0)
			break;
	}
	if (r < 0) {
		c->failed = (ssize_t)i;
		/* A write that did not take effect was still a write: put it back too. */
		done = written ? i + 1 : i;
	} else {
		done = c->count;
		r = persist_step(c);
		if (r == 0) {
			reclaim_test_hook(c->ctx, "RECLAIMCTL_TEST_AFTER_WRITE");
			r = c->recorded > 0 ? reclaim_history_done(h, c->recorded) : 0;
			if (r < 0 && (c->persist || c->unpersist)) {
				snprintf(detail, sizeof(detail), "%s", reclaim_strerror(c->ctx));
				restore_persisted(c, detail, sizeof(detail));
				reclaim_error(c->ctx, -r, "%s", detail);
			}
		}
	}
	if (r == 0)
		return 0;
	/* Keep the failure's message; the rollback's own errors must not replace it. */
	snprintf(detail, sizeof(detail), "%s", reclaim_strerror(c->ctx));
	rollback(c, done, detail, sizeof(detail));
	forget_intent(c, h, detail, sizeof(detail));
	return reclaim_error(c->ctx, -r, "%s", detail);
}

/*
 * Reads the history and every old value, records the intent, writes,
 * persists, marks the record done; under the lock, and with the signals
 * that end a process held back from the intent to the done (critical.c).
 */
int reclaim_change_apply_locked(struct reclaim_change *c)
{
	_cleanup_(history_unrefp) struct reclaim_history *h = NULL;
	sigset_t saved;
	int r;

	c->failed = -1;
	c->verified_nodes = -1;
	c->recorded = 0;
	r = reclaim_history_load(c->ctx, &h);
	if (r < 0)
		return r;
	/* Joining a change that is not the newest any more: nothing is written. */
	if (c->join > 0 && (r = reclaim_history_check_newest(h, c->join)) < 0)
		return r;
	r = read_old_values(c);
	if (r < 0)
		return r;
	reclaim_critical_enter(&saved);
	r = record_intent(c, h);
	if (r == 0)
		r = write_and_record(c, h);
	reclaim_critical_leave(&saved);
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
