// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * verify: is every knob reclaimctl is responsible for still what it left?
 * Responsible for: a knob it changed since boot (expected: the newest
 * record's value, history.c's rule), else one persisted in its sysctl.d
 * file (the persisted value), else one the boot unit's preset set or found
 * at its value (the value the engine's evaluation of "boot" gives). A knob
 * not at its expected value was changed by another writer: named by the
 * engine's sources (sources.c) when one sets it to the live value, else
 * "at run time", since the time a reclaimctl command first saw it (the
 * history's "outside" lines, which this records). A knob a lease holder
 * that died left at its value is reported too, with its value from before.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "history-internal.h"
#include "sources-internal.h"

struct verify_entry {
	const struct reclaim_knob *knob;
	enum reclaim_verify_basis basis;
	enum reclaim_verify_state state;
	int64_t expected, live;
	bool has_live, recorded;
	int64_t since_ns;
	const char *writer_kind; /* static: "sysctl", "runtime", a holder's name; NULL when ok */
	char *writer;		 /* "FILE:LINE", "PID N"; NULL for none */
	char *reason;
};

struct reclaim_verify {
	int refcount;
	struct reclaim_ctx *ctx;
	struct verify_entry *entries;
	size_t count;
};

static const char *const basis_names[] = {
    [RECLAIM_VERIFY_HISTORY] = "history",
    [RECLAIM_VERIFY_PERSISTED] = "persisted",
    [RECLAIM_VERIFY_BOOT_PRESET] = "boot-preset",
};

static const char *const state_names[] = {
    [RECLAIM_VERIFY_OK] = "ok",
    [RECLAIM_VERIFY_DRIFTED] = "drifted",
    [RECLAIM_VERIFY_ABANDONED] = "abandoned",
};

static void verify_free(struct reclaim_verify *v)
{
	for (size_t i = 0; i < v->count; i++) {
		free(v->entries[i].writer);
		free(v->entries[i].reason);
	}
	free(v->entries);
	reclaim_unref(v->ctx);
	free(v);
}

static struct verify_entry *find(struct reclaim_verify *v, const struct reclaim_knob *k)
{
	for (size_t i = 0; i < v->count; i++)
		if (v->entries[i].knob == k)
			return &v->entries[i];
	return NULL;
}

/* @k expected at @value for @basis, unless an earlier basis has it already. */
static int expect(struct reclaim_verify *v, const struct reclaim_knob *k,
		  enum reclaim_verify_basis basis, int64_t value)
{
	struct verify_entry *n;

	if (find(v, k))
		return 0;
	n = realloc(v->entries, (v->count + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	v->entries = n;
	v->entries[v->count++] =
	    (struct verify_entry){.knob = k, .basis = basis, .expected = value};
	return 0;
}

static int from_history(struct reclaim_verify *v, const struct reclaim_history *h)
{
	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		int64_t value;

		if (reclaim_history_applied(h, k, &value) == 0 &&
		    expect(v, k, RECLAIM_VERIFY_HISTORY, value) < 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * The persisted file; one that is not reclaimctl's, and a value another
 * file overrides at boot, are check's business (its bits 32 and 16).
 */
static int from_persisted(struct reclaim_verify *v, const struct reclaim_sysctl_conf *conf)
{
	struct reclaim_persist *p = NULL;
	int r = 0;

	if (reclaim_persist_read(v->ctx, &p) < 0)
		return 0;
	for (size_t i = 0; r == 0 && i < reclaim_persist_count(p); i++)
		if (!conf || !reclaim_sysctl_conf_overridden(conf, reclaim_persist_knob(p, i)))
			r = expect(v, reclaim_persist_knob(p, i), RECLAIM_VERIFY_PERSISTED,
				   reclaim_persist_value(p, i));
	reclaim_persist_unref(p);
	return r;
}

/*
 * The knobs the boot unit's preset is for, once the unit ran: the engine's
 * evaluation of "boot" now. One it skips (another source sets it, the
 * kernel lacks it, a persisted value decides it) is not the preset's.
 */
static int from_boot_preset(struct reclaim_verify *v)
{
	struct reclaim_request *req = NULL;
	struct reclaim_eval *e = NULL;
	int64_t when;
	bool ok;
	int r;

	if (reclaim_boot_result_load(v->ctx, &ok, &when) < 0 || !ok)
		return 0;
	if (reclaim_request_new(v->ctx, RECLAIM_REQUEST_BOOT, 0, &req) < 0 ||
	    reclaim_request_evaluate(req, &e) < 0) {
		reclaim_request_unref(req);
		return 0; /* check says what is wrong with the preset */
	}
	r = 0;
	for (size_t i = 0; r == 0 && i < reclaim_eval_count(e); i++)
		if (reclaim_eval_action(e, i) != RECLAIM_ACTION_SKIPPED)
			r = expect(v, reclaim_eval_knob(e, i), RECLAIM_VERIFY_BOOT_PRESET,
				   reclaim_eval_new(e, i));
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	return r;
}

__attribute__((format(printf, 2, 3))) static int set_reason(struct verify_entry *n, const char *fmt,
							    ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&n->reason, fmt, ap);
	va_end(ap);
	if (r < 0) {
		n->reason = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* A sweep or adapt that died left @k at its value: the value from before it is expected. */
static int abandoned(struct reclaim_verify *v, const char *holder, struct reclaim_lease *l,
		     size_t i)
{
	const struct reclaim_knob *k = reclaim_lease_knob(l, i);
	struct verify_entry *n;

	if (expect(v, k, RECLAIM_VERIFY_HISTORY, reclaim_lease_before(l, i)) < 0)
		return -ENOMEM;
	n = find(v, k);
	n->state = RECLAIM_VERIFY_ABANDONED;
	n->expected = reclaim_lease_before(l, i);
	n->live = reclaim_lease_now(l, i);
	n->has_live = true;
	n->writer_kind = holder;
	if (asprintf(&n->writer, "PID %ld", (long)reclaim_lease_pid(l)) < 0) {
		n->writer = NULL;
		return -ENOMEM;
	}
	return set_reason(n, "%s is %s, left by %s (PID %ld), which died; before it: %s",
			  reclaim_knob_label(k), KNOB_TEXT(k, n->live), holder,
			  (long)reclaim_lease_pid(l), KNOB_TEXT(k, n->expected));
}

static int from_dead_holders(struct reclaim_verify *v)
{
	const char *holder;
	int r = 0;

	for (size_t h = 0; r == 0 && (holder = reclaim_lease_holder_name(h)) != NULL; h++) {
		struct reclaim_lease *l = NULL;

		if (reclaim_lease_load(v->ctx, holder, &l) < 0 || reclaim_lease_alive(l) ||
		    reclaim_lease_inspect(l) < 0) {
			reclaim_lease_unref(l);
			continue;
		}
		for (size_t i = 0; r == 0 && i < reclaim_lease_count(l); i++)
			if (reclaim_lease_state(l, i) == RECLAIM_LEASE_HELD)
				r = abandoned(v, holder, l, i);
		reclaim_lease_unref(l);
	}
	return r;
}

/* "reclaimctl last set", "persisted in FILE", "of the boot preset": whose the expected value is. */
static const char *whose(const struct verify_entry *n)
{
	switch (n->basis) {
	case RECLAIM_VERIFY_PERSISTED:
		return reclaim_knob_sysctl(n->knob) ? "persisted in " RECLAIM_PERSIST_FILE
						    : "persisted in " RECLAIM_PERSIST_TMPFILES;
	case RECLAIM_VERIFY_BOOT_PRESET:
		return "the boot preset set";
	default:
		return "reclaimctl set last";
	}
}

/* Who set @n's live value: a source that sets it to that value, else a writer at run time. */
static int name_writer(struct reclaim_verify *v, const struct reclaim_sysctl_conf *conf,
		       struct verify_entry *n)
{
	struct knob_source src;
	int64_t value;
	int r = reclaim_knob_foreign_source(v->ctx, conf, n->knob, &src);

	if (r < 0)
		return r;
	if (r > 0 && reclaim_knob_parse_written(n->knob, src.value, &value) == 0 &&
	    value == n->live) {
		n->writer_kind = src.kind;
		n->writer = src.where;
		src.where = NULL;
		r = set_reason(n, "%s is %s, not the %s %s: %s sets %s = %s",
			       reclaim_knob_label(n->knob), KNOB_TEXT(n->knob, n->live),
			       KNOB_TEXT(n->knob, n->expected), whose(n), n->writer, src.key,
			       src.value);
		reclaim_knob_source_clear(&src);
		return r;
	}
	reclaim_knob_source_clear(&src);
	n->writer_kind = "runtime";
	return set_reason(n, "%s is %s, not the %s %s: changed at run time by another writer",
			  reclaim_knob_label(n->knob), KNOB_TEXT(n->knob, n->live),
			  KNOB_TEXT(n->knob, n->expected), whose(n));
}

/*
 * When reclaimctl first saw @n's knob changed: the history's first
 * "outside" line since its newest record, recorded now if there is none
 * for this value (not when the caller may not write the history). @h is
 * the history as read before: a line added now is the only one since.
 */
static void seen(struct reclaim_verify *v, const struct reclaim_history *h, struct verify_entry *n)
{
	const struct history_outside *first = reclaim_history_outside_first(h, n->knob);
	const struct history_outside *last = reclaim_history_outside_last(h, n->knob);
	int64_t noted = 0;

	n->recorded = last && last->value == n->live;
	if (!n->recorded &&
	    reclaim_history_note_outside(v->ctx, n->knob, n->expected, n->live, &noted) == 0)
		n->recorded = noted > 0;
	n->since_ns = first ? first->sec * 1000000000 + first->nsec : noted;
}

/* Each knob read and judged. */
static int judge(struct reclaim_verify *v, const struct reclaim_history *h,
		 const struct reclaim_sysctl_conf *conf)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < v->count; i++) {
		struct verify_entry *n = &v->entries[i];
		int64_t ours;

		if (n->state == RECLAIM_VERIFY_ABANDONED)
			continue;
		if (reclaim_knob_read(v->ctx, n->knob, &n->live) < 0)
			continue; /* the kernel lacks it: nothing to compare */
		n->has_live = true;
		/* the history's rule: an interrupted record leaves either value */
		if (n->basis == RECLAIM_VERIFY_HISTORY)
			r = reclaim_history_expect(h, n->knob, n->live, &ours) == 1;
		else
			r = n->live != n->expected;
		if (r == 0)
			continue;
		n->state = RECLAIM_VERIFY_DRIFTED;
		r = name_writer(v, conf, n);
		if (r == 0)
			seen(v, h, n);
	}
	reclaim_error_reset(v->ctx);
	return r;
}

static size_t knob_index(const struct reclaim_knob *k)
{
	size_t i = 0;

	while (i < reclaim_knob_count() && reclaim_knob_get(i) != k)
		i++;
	return i;
}

/* In the knobs' order. */
static int by_knob(const void *a, const void *b)
{
	const struct verify_entry *x = a, *y = b;

	return (int)knob_index(x->knob) - (int)knob_index(y->knob);
}

RECLAIM_EXPORT int reclaim_verify_new(struct reclaim_ctx *ctx, struct reclaim_verify **ret)
{
	struct reclaim_sysctl_conf *conf = NULL;
	struct reclaim_history *h = NULL;
	struct reclaim_verify *v;
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	r = reclaim_history_load(ctx, &h);
	if (r < 0)
		return r;
	v = calloc(1, sizeof(*v));
	if (!v) {
		reclaim_history_unref(h);
		return reclaim_error(ctx, ENOMEM, "out of memory");
	}
	v->refcount = 1;
	v->ctx = reclaim_ref(ctx);
	(void)reclaim_sysctl_conf_new(ctx, &conf); /* its problems are check's */
	r = from_dead_holders(v);
	if (r == 0)
		r = from_history(v, h);
	if (r == 0)
		r = from_persisted(v, conf);
	if (r == 0)
		r = from_boot_preset(v);
	reclaim_error_reset(ctx);
	if (r == 0)
		r = judge(v, h, conf);
	reclaim_sysctl_conf_unref(conf);
	reclaim_history_unref(h);
	if (r < 0) {
		verify_free(v);
		return reclaim_error(ctx, ENOMEM, "out of memory");
	}
	if (v->count > 1) /* qsort() takes no NULL, even for nothing */
		qsort(v->entries, v->count, sizeof(*v->entries), by_knob);
	*ret = v;
	return 0;
}

RECLAIM_EXPORT int reclaim_history_note_drift(struct reclaim_ctx *ctx)
{
	struct reclaim_history *h = NULL;
	int r;

	assert_return(ctx, -EINVAL);
	r = reclaim_history_load(ctx, &h);
	reclaim_test_hook(ctx, "RECLAIMCTL_TEST_BEFORE_NOTE");
	for (size_t i = 0; r == 0 && i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		const struct history_outside *last;
		int64_t now, ours, noted;

		/* only the knobs of the history are read */
		if (reclaim_history_applied(h, k, &ours) < 0 ||
		    reclaim_knob_read(ctx, k, &now) < 0 ||
		    reclaim_history_expect(h, k, now, &ours) != 1)
			continue;
		last = reclaim_history_outside_last(h, k);
		if (!last || last->value != now)
			r = reclaim_history_note_outside(ctx, k, ours, now, &noted);
	}
	reclaim_history_unref(h);
	reclaim_error_reset(ctx);
	return r;
}

RECLAIM_EXPORT struct reclaim_verify *reclaim_verify_ref(struct reclaim_verify *v)
{
	if (v)
		v->refcount++;
	return v;
}

RECLAIM_EXPORT struct reclaim_verify *reclaim_verify_unref(struct reclaim_verify *v)
{
	if (v && --v->refcount == 0)
		verify_free(v);
	return NULL;
}

RECLAIM_EXPORT size_t reclaim_verify_count(const struct reclaim_verify *v)
{
	assert_return(v, 0);
	return v->count;
}

RECLAIM_EXPORT size_t reclaim_verify_not_in_place(const struct reclaim_verify *v)
{
	size_t n = 0;

	assert_return(v, 0);
	for (size_t i = 0; i < v->count; i++)
		n += v->entries[i].state != RECLAIM_VERIFY_OK;
	return n;
}

#define ENTRY(v, idx) (&(v)->entries[idx])

RECLAIM_EXPORT const struct reclaim_knob *reclaim_verify_knob(const struct reclaim_verify *v,
							      size_t idx)
{
	assert_return(v && idx < v->count, NULL);
	return ENTRY(v, idx)->knob;
}

RECLAIM_EXPORT enum reclaim_verify_basis reclaim_verify_basis(const struct reclaim_verify *v,
							      size_t idx)
{
	assert_return(v && idx < v->count, RECLAIM_VERIFY_HISTORY);
	return ENTRY(v, idx)->basis;
}

RECLAIM_EXPORT enum reclaim_verify_state reclaim_verify_state(const struct reclaim_verify *v,
							      size_t idx)
{
	assert_return(v && idx < v->count, RECLAIM_VERIFY_OK);
	return ENTRY(v, idx)->state;
}

RECLAIM_EXPORT int64_t reclaim_verify_expected(const struct reclaim_verify *v, size_t idx)
{
	assert_return(v && idx < v->count, 0);
	return ENTRY(v, idx)->expected;
}

RECLAIM_EXPORT bool reclaim_verify_has_live(const struct reclaim_verify *v, size_t idx)
{
	assert_return(v && idx < v->count, false);
	return ENTRY(v, idx)->has_live;
}

RECLAIM_EXPORT int64_t reclaim_verify_live(const struct reclaim_verify *v, size_t idx)
{
	assert_return(v && idx < v->count, 0);
	return ENTRY(v, idx)->live;
}

RECLAIM_EXPORT const char *reclaim_verify_writer_kind(const struct reclaim_verify *v, size_t idx)
{
	assert_return(v && idx < v->count, NULL);
	return ENTRY(v, idx)->writer_kind;
}

RECLAIM_EXPORT const char *reclaim_verify_writer(const struct reclaim_verify *v, size_t idx)
{
	assert_return(v && idx < v->count, NULL);
	return ENTRY(v, idx)->writer;
}

RECLAIM_EXPORT const char *reclaim_verify_reason(const struct reclaim_verify *v, size_t idx)
{
	assert_return(v && idx < v->count, NULL);
	return ENTRY(v, idx)->reason;
}

RECLAIM_EXPORT int64_t reclaim_verify_since_ns(const struct reclaim_verify *v, size_t idx)
{
	assert_return(v && idx < v->count, 0);
	return ENTRY(v, idx)->since_ns;
}

RECLAIM_EXPORT bool reclaim_verify_recorded(const struct reclaim_verify *v, size_t idx)
{
	assert_return(v && idx < v->count, false);
	return ENTRY(v, idx)->recorded;
}

RECLAIM_EXPORT const char *reclaim_verify_basis_name(enum reclaim_verify_basis basis)
{
	assert_return(basis <= RECLAIM_VERIFY_BOOT_PRESET, NULL);
	return basis_names[basis];
}

RECLAIM_EXPORT const char *reclaim_verify_state_name(enum reclaim_verify_state state)
{
	assert_return(state <= RECLAIM_VERIFY_ABANDONED, NULL);
	return state_names[state];
}
