// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A lease: knobs a holder (adapt, sweep) keeps at values of its own for a
 * while, and the values to put back at its end. One rule decides what a
 * knob is at that end (reclaim_lease_decide()): at its value from before
 * (nothing to do), at the value the holder wrote last (put it back), or at
 * another (someone else changed it since: left alone). A holder that may
 * die with its knobs changed (adapt, sweep) claims its lease: a state file
 * (lease-state.c), written under the writers' lock after the check that no
 * other holder of that name has one and that no running holder holds one of
 * its knobs, so that two never both run, and from which the next one, or a
 * --reset, gives a dead holder's knobs back.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct held {
	const struct reclaim_knob *knob;
	int64_t before, last, now;
	enum reclaim_lease_state state; /* at the release */
};

struct reclaim_lease {
	int refcount;
	struct reclaim_ctx *ctx;
	char *holder;
	const char *file; /* its state file, or NULL */
	pid_t pid;
	bool claimed; /* its state file is its own (claimed or loaded) */
	size_t count;
	struct held *held;
};

static bool has_state(const struct reclaim_lease *l)
{
	return l->file != NULL;
}

static bool is_adapt(const struct reclaim_lease *l)
{
	return strcmp(l->holder, "adapt") == 0;
}

RECLAIM_EXPORT int reclaim_lease_new(struct reclaim_ctx *ctx, const char *holder,
				     struct reclaim_lease **ret)
{
	struct reclaim_lease *l;

	assert_return(ctx && holder && *holder && ret, -EINVAL);
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->holder = strdup(holder);
	if (!l->holder) {
		free(l);
		return -ENOMEM;
	}
	l->refcount = 1;
	l->ctx = reclaim_ref(ctx);
	l->file = reclaim_lease_file(holder);
	l->pid = getpid();
	*ret = l;
	return 0;
}

RECLAIM_EXPORT struct reclaim_lease *reclaim_lease_ref(struct reclaim_lease *l)
{
	if (l)
		l->refcount++;
	return l;
}

RECLAIM_EXPORT struct reclaim_lease *reclaim_lease_unref(struct reclaim_lease *l)
{
	if (l && --l->refcount == 0) {
		reclaim_unref(l->ctx);
		free(l->holder);
		free(l->held);
		free(l);
	}
	return NULL;
}

static struct held *find(struct reclaim_lease *l, const struct reclaim_knob *k)
{
	for (size_t i = 0; i < l->count; i++)
		if (l->held[i].knob == k)
			return &l->held[i];
	return NULL;
}

RECLAIM_EXPORT int reclaim_lease_hold(struct reclaim_lease *l, const struct reclaim_knob *k,
				      int64_t before)
{
	struct held *h;

	assert_return(l && k && !find(l, k), -EINVAL);
	/* adapt's state file holds the knobs it moves */
	assert_return(!is_adapt(l) || k == reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS) ||
			  k == reclaim_knob_by_id(RECLAIM_KNOB_WATERMARK_SCALE_FACTOR),
		      -EINVAL);
	h = realloc(l->held, (l->count + 1) * sizeof(*h));
	if (!h)
		return -ENOMEM;
	l->held = h;
	l->held[l->count++] = (struct held){.knob = k, .before = before, .last = before};
	return 0;
}

/* Our own pid in a state file is a stale one's: we did not write it. */
static bool alive(pid_t pid)
{
	/* EPERM: a process of another user has that pid; it may be the holder */
	return pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM);
}

static int save_file(struct reclaim_lease *l, bool locked)
{
	_cleanup_free_ struct lease_entry *e = calloc(l->count, sizeof(*e));

	if (!e)
		return reclaim_error(l->ctx, ENOMEM, "out of memory");
	for (size_t i = 0; i < l->count; i++)
		e[i] = (struct lease_entry){l->held[i].knob, l->held[i].before, l->held[i].last};
	return reclaim_lease_file_save(l->ctx, l->file, l->pid, e, l->count, locked);
}

/* Its own file: none, its own, or another holder's of the name (running or gone). */
static int check_own(struct reclaim_lease *l)
{
	_cleanup_free_ struct lease_entry *e = NULL;
	size_t n;
	pid_t pid;
	int r = reclaim_lease_file_load(l->ctx, l->file, &pid, &e, &n);

	if (r == -ENOENT)
		return 0;
	if (r < 0 || pid == l->pid)
		return r;
	if (alive(pid))
		return reclaim_error(l->ctx, EBUSY, "%s: already running as PID %ld (%s)",
				     l->holder, (long)pid, l->file);
	return reclaim_error(l->ctx, ESTALE, "%s (PID %ld) ended without giving its knobs back",
			     l->holder, (long)pid);
}

/* A running holder of another name that holds one of its knobs. */
static int check_others(struct reclaim_lease *l)
{
	const char *other;

	for (size_t i = 0; (other = reclaim_lease_holder_name(i)) != NULL; i++) {
		_cleanup_free_ struct lease_entry *e = NULL;
		const char *file = reclaim_lease_file(other);
		size_t n;
		pid_t pid;
		int r;

		if (strcmp(other, l->holder) == 0)
			continue;
		r = reclaim_lease_file_load(l->ctx, file, &pid, &e, &n);
		if (r == -ENOMEM)
			return r;
		/* none, damaged or gone: that holder's own next start deals with it */
		if (r < 0 || !alive(pid))
			continue;
		for (size_t k = 0; k < n; k++)
			if (find(l, e[k].knob))
				return reclaim_error(
				    l->ctx, EBUSY, "%s: %s is held by %s (PID %ld, %s)", l->holder,
				    reclaim_knob_label(e[k].knob), other, (long)pid, file);
	}
	return 0;
}

RECLAIM_EXPORT int reclaim_lease_claim(struct reclaim_lease *l)
{
	int fd, r;

	assert_return(l && l->count > 0, -EINVAL);
	reclaim_error_reset(l->ctx);
	if (!has_state(l))
		return reclaim_error(l->ctx, EOPNOTSUPP, "%s keeps no state file", l->holder);
	r = reclaim_lock_take(l->ctx, &fd);
	if (r < 0)
		return r;
	/* the checks and the write under one hold of the lock: two holders never both run */
	r = check_own(l);
	if (r == 0)
		r = check_others(l);
	if (r == 0)
		r = save_file(l, true);
	reclaim_lock_release(fd);
	l->claimed = r == 0;
	return r;
}

RECLAIM_EXPORT int reclaim_lease_load(struct reclaim_ctx *ctx, const char *holder,
				      struct reclaim_lease **ret)
{
	_cleanup_free_ struct lease_entry *e = NULL;
	struct reclaim_lease *l = NULL;
	size_t n = 0;
	pid_t pid;
	int r;

	assert_return(ctx && holder && ret, -EINVAL);
	r = reclaim_lease_new(ctx, holder, &l);
	if (r < 0)
		return r;
	reclaim_error_reset(ctx);
	if (!has_state(l))
		r = reclaim_error(ctx, EOPNOTSUPP, "%s keeps no state file", holder);
	if (r == 0)
		r = reclaim_lease_file_load(ctx, l->file, &pid, &e, &n);
	for (size_t i = 0; r == 0 && i < n; i++) {
		r = reclaim_lease_hold(l, e[i].knob, e[i].before);
		if (r == 0)
			l->held[i].last = e[i].last;
	}
	if (r < 0) {
		reclaim_lease_unref(l);
		return r;
	}
	l->pid = pid;
	l->claimed = true;
	*ret = l;
	return 0;
}

RECLAIM_EXPORT pid_t reclaim_lease_pid(const struct reclaim_lease *l)
{
	assert_return(l, -EINVAL);
	return l->pid;
}

RECLAIM_EXPORT bool reclaim_lease_alive(const struct reclaim_lease *l)
{
	assert_return(l, false);
	return alive(l->pid);
}

static int save(struct reclaim_lease *l)
{
	return l->claimed ? save_file(l, false) : 0;
}

RECLAIM_EXPORT int reclaim_lease_wrote(struct reclaim_lease *l, const struct reclaim_knob *k,
				       int64_t value)
{
	struct held *h;

	assert_return(l && k, -EINVAL);
	h = find(l, k);
	assert_return(h, -ENOENT);
	reclaim_error_reset(l->ctx);
	h->last = value;
	return save(l);
}

RECLAIM_EXPORT size_t reclaim_lease_count(const struct reclaim_lease *l)
{
	assert_return(l, 0);
	return l->count;
}

RECLAIM_EXPORT const struct reclaim_knob *reclaim_lease_knob(const struct reclaim_lease *l,
							     size_t idx)
{
	assert_return(l && idx < l->count, NULL);
	return l->held[idx].knob;
}

RECLAIM_EXPORT int64_t reclaim_lease_before(const struct reclaim_lease *l, size_t idx)
{
	assert_return(l && idx < l->count, 0);
	return l->held[idx].before;
}

RECLAIM_EXPORT int64_t reclaim_lease_last(const struct reclaim_lease *l, size_t idx)
{
	assert_return(l && idx < l->count, 0);
	return l->held[idx].last;
}

RECLAIM_EXPORT enum reclaim_lease_state reclaim_lease_state(const struct reclaim_lease *l,
							    size_t idx)
{
	assert_return(l && idx < l->count, RECLAIM_LEASE_AT_BEFORE);
	return l->held[idx].state;
}

RECLAIM_EXPORT int64_t reclaim_lease_now(const struct reclaim_lease *l, size_t idx)
{
	assert_return(l && idx < l->count, 0);
	return l->held[idx].now;
}

static int remove_state(struct reclaim_lease *l)
{
	int r;

	if (!l->claimed)
		return 0;
	r = reclaim_lease_file_remove(l->ctx, l->file);
	if (r == 0)
		l->claimed = false;
	return r;
}

RECLAIM_EXPORT int reclaim_lease_drop(struct reclaim_lease *l)
{
	assert_return(l, -EINVAL);
	reclaim_error_reset(l->ctx);
	return remove_state(l);
}

/* Reads each knob and decides what it is: the one rule. */
static int read_states(struct reclaim_lease *l)
{
	for (size_t i = 0; i < l->count; i++) {
		struct held *h = &l->held[i];
		int r = reclaim_knob_read(l->ctx, h->knob, &h->now);

		if (r < 0)
			return r;
		h->state = reclaim_lease_decide(h->before, h->last, h->now);
	}
	return 0;
}

RECLAIM_EXPORT int reclaim_lease_inspect(struct reclaim_lease *l)
{
	assert_return(l, -EINVAL);
	reclaim_error_reset(l->ctx);
	return read_states(l);
}

/* The request that puts back the knobs still at the holder's value. */
static int put_back_request(struct reclaim_lease *l, enum reclaim_request_kind kind,
			    unsigned int flags, const char *source, const char *reason,
			    struct reclaim_request **req, bool *any)
{
	int r = reclaim_request_new(l->ctx, kind, flags, req);

	if (r == 0 && source)
		r = reclaim_request_set_source(*req, source);
	if (r == 0)
		r = read_states(l);
	for (size_t i = 0; r == 0 && i < l->count; i++) {
		struct held *h = &l->held[i];

		if (h->state != RECLAIM_LEASE_HELD)
			continue;
		r = reclaim_request_add(*req, h->knob, h->before, reason);
		*any = true;
	}
	return r;
}

RECLAIM_EXPORT int reclaim_lease_release(struct reclaim_lease *l, enum reclaim_request_kind kind,
					 unsigned int flags, const char *source, const char *reason,
					 struct reclaim_eval **eval)
{
	struct reclaim_request *req = NULL;
	bool any = false;
	int r;

	assert_return(l && eval, -EINVAL);
	*eval = NULL;
	reclaim_error_reset(l->ctx);
	r = put_back_request(l, kind, flags, source, reason, &req, &any);
	if (r == 0 && any)
		r = reclaim_request_apply(req, eval);
	reclaim_request_unref(req);
	/* a failed put back keeps the state file: a later --reset tries again */
	if (r == 0)
		r = remove_state(l);
	return r;
}
