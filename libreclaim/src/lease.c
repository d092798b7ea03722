// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A lease: knobs a holder (adapt, sweep) keeps at values of its own for a
 * while, and the values to put back at its end. One rule decides what a
 * knob is at that end (reclaim_lease_decide()): at its value from before
 * (nothing to do), at the value the holder wrote last (put it back), or at
 * another (someone else changed it since: left alone). A holder that may
 * die with its knobs changed (the adapt daemon) claims its lease: a state
 * file, written under the writers' lock after the check that no other
 * holder has one, so that two holders never both run, and from which the
 * next one, or a --reset, gives a dead holder's knobs back.
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
	pid_t pid;
	bool claimed; /* its state file is its own (claimed or loaded) */
	size_t count;
	struct held *held;
};

enum reclaim_lease_state reclaim_lease_decide(int64_t before, int64_t last, int64_t now)
{
	if (now == before)
		return RECLAIM_LEASE_AT_BEFORE;
	return now == last ? RECLAIM_LEASE_HELD : RECLAIM_LEASE_CHANGED;
}

/* Only adapt's holder has a state file, in its documented format (adapt-state.c). */
static bool has_state(const struct reclaim_lease *l)
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
	/* a state file holds one knob: adapt's */
	assert_return(!has_state(l) ||
			  (l->count == 0 && k == reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS)),
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

RECLAIM_EXPORT int reclaim_lease_claim(struct reclaim_lease *l)
{
	int64_t before, last;
	pid_t pid;
	int fd, r;

	assert_return(l && l->count == 1, -EINVAL);
	reclaim_error_reset(l->ctx);
	if (!has_state(l))
		return reclaim_error(l->ctx, EOPNOTSUPP, "%s keeps no state file", l->holder);
	r = reclaim_lock_take(l->ctx, &fd);
	if (r < 0)
		return r;
	/* the check and the write under one hold of the lock: two holders never both run */
	r = reclaim_adapt_state_load(l->ctx, &pid, &before, &last);
	if (r == 0 && pid != l->pid && alive(pid))
		r = reclaim_error(l->ctx, EBUSY, "%s: already running as PID %ld (%s)", l->holder,
				  (long)pid, RECLAIM_ADAPT_STATE_FILE);
	else if (r == 0 && pid != l->pid)
		r = reclaim_error(l->ctx, ESTALE,
				  "%s (PID %ld) ended without giving its knobs back", l->holder,
				  (long)pid);
	else if (r == -ENOENT || r == 0)
		r = reclaim_adapt_state_save_locked(l->ctx, l->pid, l->held[0].before,
						    l->held[0].last);
	reclaim_lock_release(fd);
	l->claimed = r == 0;
	return r;
}

RECLAIM_EXPORT int reclaim_lease_load(struct reclaim_ctx *ctx, const char *holder,
				      struct reclaim_lease **ret)
{
	struct reclaim_lease *l = NULL;
	int64_t before, last;
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
		r = reclaim_adapt_state_load(ctx, &pid, &before, &last);
	if (r == 0)
		r = reclaim_lease_hold(l, reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS), before);
	if (r < 0) {
		reclaim_lease_unref(l);
		return r;
	}
	l->pid = pid;
	l->held[0].last = last;
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
	if (!l->claimed)
		return 0;
	return reclaim_adapt_state_save(l->ctx, l->pid, l->held[0].before, l->held[0].last);
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
	r = reclaim_adapt_state_remove(l->ctx);
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

/* Reads each knob and decides; the request puts back those still at the holder's value. */
static int put_back_request(struct reclaim_lease *l, enum reclaim_request_kind kind,
			    unsigned int flags, const char *source, const char *reason,
			    struct reclaim_request **req, bool *any)
{
	int r = reclaim_request_new(l->ctx, kind, flags, req);

	if (r == 0 && source)
		r = reclaim_request_set_source(*req, source);
	for (size_t i = 0; r == 0 && i < l->count; i++) {
		struct held *h = &l->held[i];

		r = reclaim_knob_read(l->ctx, h->knob, &h->now);
		if (r < 0)
			break;
		h->state = reclaim_lease_decide(h->before, h->last, h->now);
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
