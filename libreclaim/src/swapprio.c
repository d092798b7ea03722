// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Changing the priority of an active swap device.
 *
 * The kernel has no call for it: the device is swapped off (its pages come
 * back into memory) and on again with SWAP_FLAG_PREFER and the new priority,
 * with the discard flags of its fstab entry. Before that there must be room:
 * MemAvailable above what the device holds plus a margin. If swapon with the
 * new priority fails, the device goes back on with its old one; a device is
 * never left off while there is a way to put it back.
 *
 * swapoff can take minutes on a large device; a caller who wants to show how
 * far it got sets a progress callback, which a thread of swapwatch.c calls
 * while the calling thread is in the kernel.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/swap.h>
#include <unistd.h>

#include "history-internal.h"
#include "swap-internal.h"

#ifndef SWAP_FLAG_DISCARD_ONCE
#define SWAP_FLAG_DISCARD_ONCE 0x20000
#endif
#ifndef SWAP_FLAG_DISCARD_PAGES
#define SWAP_FLAG_DISCARD_PAGES 0x40000
#endif

/* The margin: 64 MiB, or 1/32 of MemTotal when that is more. */
#define MARGIN_MIN_KB	RECLAIM_SWAP_MARGIN_MIN_KB
#define MARGIN_FRACTION RECLAIM_SWAP_MARGIN_DIVISOR

/* How often the progress of a swapoff is read by default, and at most. */
#define PROGRESS_INTERVAL_MS	 500
#define PROGRESS_INTERVAL_MAX_MS 60000

struct reclaim_swap_plan {
	int refcount;
	struct reclaim_ctx *ctx;
	char *device; /* as /proc/swaps names it */
	int old_prio, new_prio;
	uint64_t used_kb, mem_available_kb, mem_total_kb;
	struct reclaim_fstab *fstab; /* NULL: see fstab_err and fstab_error */
	int fstab_err;
	char fstab_error[256];
	ssize_t fstab_idx; /* -1: no entry */
	enum reclaim_swap_discard discard;
	bool live_changed, fstab_changed;
	reclaim_swap_progress_fn progress; /* NULL: none */
	void *progress_userdata;
	unsigned int progress_interval_ms;
};

static int read_meminfo(struct reclaim_swap_plan *p)
{
	_cleanup_free_ char *text = NULL;
	size_t line = 0;
	int r;

	r = reclaim_read_file(p->ctx, "/proc/meminfo", &text, NULL);
	if (r < 0)
		return reclaim_error(p->ctx, -r, "cannot read /proc/meminfo: %s",
				     reclaim_read_strerror(r));
	r = reclaim_meminfo_field(text, "MemTotal", &p->mem_total_kb, &line);
	if (r == 0)
		r = reclaim_meminfo_field(text, "MemAvailable", &p->mem_available_kb, &line);
	if (r == -EINVAL)
		return reclaim_error(p->ctx, EINVAL, "/proc/meminfo: line %zu is malformed", line);
	if (r < 0)
		return reclaim_error(p->ctx, ENOENT,
				     "/proc/meminfo has no MemTotal or MemAvailable: cannot tell "
				     "whether there is room to swap a device off");
	return 0;
}

/* Reads the device's state from /proc/swaps and the memory from /proc/meminfo. */
static int read_state(struct reclaim_swap_plan *p, const char *device)
{
	struct reclaim_swaps *swaps;
	struct reclaim_swap *d;
	int r;

	r = reclaim_swaps_new(p->ctx, &swaps);
	if (r < 0)
		return r;
	d = reclaim_swaps_find(swaps, device);
	if (!d) {
		reclaim_swaps_unref(swaps);
		return reclaim_error(
		    p->ctx, ENOENT, "%s is not an active swap device (not in /proc/swaps)", device);
	}
	if (!p->device || strcmp(p->device, reclaim_swap_path(d)) != 0) {
		free(p->device);
		p->device = strdup(reclaim_swap_path(d));
	}
	p->old_prio = reclaim_swap_priority(d);
	p->used_kb = reclaim_swap_used_kb(d);
	reclaim_swaps_unref(swaps);
	if (!p->device)
		return -ENOMEM;
	return read_meminfo(p);
}

/* The fstab entry and its discard option; a missing or broken fstab only matters for persisting. */
static void read_fstab(struct reclaim_swap_plan *p)
{
	ssize_t idx;
	int r;

	p->fstab_idx = -1;
	r = reclaim_fstab_new(p->ctx, &p->fstab);
	if (r < 0) {
		p->fstab_err = r;
		snprintf(p->fstab_error, sizeof(p->fstab_error), "%s", reclaim_strerror(p->ctx));
		return;
	}
	idx = reclaim_fstab_find(p->fstab, p->device);
	if (idx >= 0) {
		p->fstab_idx = idx;
		p->discard = reclaim_fstab_discard(p->fstab, (size_t)idx);
	}
}

static void plan_free(struct reclaim_swap_plan *p)
{
	reclaim_fstab_unref(p->fstab);
	reclaim_unref(p->ctx);
	free(p->device);
	free(p);
}

RECLAIM_EXPORT int reclaim_swap_plan_new(struct reclaim_ctx *ctx, const char *device, int prio,
					 struct reclaim_swap_plan **ret)
{
	assert_return(ctx && device && ret, -EINVAL);
	reclaim_error_reset(ctx);
	if (prio < 0 || prio > RECLAIM_SWAP_PRIORITY_MAX)
		return reclaim_error(ctx, ERANGE, "invalid priority %d: expected 0 to %d", prio,
				     RECLAIM_SWAP_PRIORITY_MAX);
	return reclaim_swap_plan_make(ctx, device, prio, false, ret);
}

int reclaim_swap_plan_make(struct reclaim_ctx *ctx, const char *device, int prio, bool inactive,
			   struct reclaim_swap_plan **ret)
{
	struct reclaim_swap_plan *p;
	int r;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->refcount = 1;
	p->ctx = reclaim_ref(ctx);
	p->new_prio = prio;
	r = inactive ? 0 : read_state(p, device);
	/* not swapped on: nothing live to change, its /etc/fstab entry still can be */
	if (inactive) {
		p->device = strdup(device);
		p->old_prio = prio;
		r = p->device ? 0 : -ENOMEM;
	}
	if (r < 0) {
		plan_free(p);
		return r;
	}
	read_fstab(p);
	*ret = p;
	return 0;
}

RECLAIM_EXPORT struct reclaim_swap_plan *reclaim_swap_plan_ref(struct reclaim_swap_plan *p)
{
	if (p)
		p->refcount++;
	return p;
}

RECLAIM_EXPORT struct reclaim_swap_plan *reclaim_swap_plan_unref(struct reclaim_swap_plan *p)
{
	if (p && --p->refcount == 0)
		plan_free(p);
	return NULL;
}

RECLAIM_EXPORT const char *reclaim_swap_plan_device(const struct reclaim_swap_plan *p)
{
	assert_return(p, NULL);
	return p->device;
}

RECLAIM_EXPORT int reclaim_swap_plan_old_priority(const struct reclaim_swap_plan *p)
{
	assert_return(p, 0);
	return p->old_prio;
}

RECLAIM_EXPORT int reclaim_swap_plan_new_priority(const struct reclaim_swap_plan *p)
{
	assert_return(p, 0);
	return p->new_prio;
}

RECLAIM_EXPORT uint64_t reclaim_swap_plan_used_kb(const struct reclaim_swap_plan *p)
{
	assert_return(p, 0);
	return p->used_kb;
}

RECLAIM_EXPORT uint64_t reclaim_swap_plan_mem_available_kb(const struct reclaim_swap_plan *p)
{
	assert_return(p, 0);
	return p->mem_available_kb;
}

RECLAIM_EXPORT uint64_t reclaim_swap_plan_margin_kb(const struct reclaim_swap_plan *p)
{
	uint64_t fraction;

	assert_return(p, 0);
	fraction = p->mem_total_kb / MARGIN_FRACTION;
	return fraction > MARGIN_MIN_KB ? fraction : MARGIN_MIN_KB;
}

RECLAIM_EXPORT bool reclaim_swap_plan_has_room(const struct reclaim_swap_plan *p)
{
	assert_return(p, false);
	/* An empty device gives nothing back to memory. */
	return p->used_kb == 0 || p->mem_available_kb > p->used_kb + reclaim_swap_plan_margin_kb(p);
}

RECLAIM_EXPORT enum reclaim_swap_discard
reclaim_swap_plan_discard(const struct reclaim_swap_plan *p)
{
	assert_return(p, RECLAIM_SWAP_DISCARD_NONE);
	return p->discard;
}

RECLAIM_EXPORT int reclaim_swap_plan_fstab_priority(const struct reclaim_swap_plan *p, int *prio)
{
	assert_return(p && prio, -EINVAL);
	if (!p->fstab || p->fstab_idx < 0)
		return -ENOENT;
	return reclaim_fstab_priority(p->fstab, (size_t)p->fstab_idx, prio);
}

RECLAIM_EXPORT bool reclaim_swap_plan_live_changed(const struct reclaim_swap_plan *p)
{
	assert_return(p, false);
	return p->live_changed;
}

RECLAIM_EXPORT bool reclaim_swap_plan_fstab_changed(const struct reclaim_swap_plan *p)
{
	assert_return(p, false);
	return p->fstab_changed;
}

RECLAIM_EXPORT int reclaim_swap_plan_set_progress(struct reclaim_swap_plan *p,
						  unsigned int interval_ms,
						  reclaim_swap_progress_fn fn, void *userdata)
{
	assert_return(p, -EINVAL);
	reclaim_error_reset(p->ctx);
	if (interval_ms > PROGRESS_INTERVAL_MAX_MS)
		return reclaim_error(p->ctx, ERANGE,
				     "invalid progress interval %u ms: expected at most %u",
				     interval_ms, PROGRESS_INTERVAL_MAX_MS);
	p->progress = fn;
	p->progress_userdata = userdata;
	p->progress_interval_ms = interval_ms ? interval_ms : PROGRESS_INTERVAL_MS;
	return 0;
}

static int check_room(struct reclaim_swap_plan *p)
{
	uint64_t margin = reclaim_swap_plan_margin_kb(p);

	if (reclaim_swap_plan_has_room(p))
		return 0;
	return reclaim_error(
	    p->ctx, ENOMEM,
	    "not enough memory to swap %s off: MemAvailable is %" PRIu64
	    " KiB, it needs more than the %" PRIu64 " KiB the device holds + %" PRIu64
	    " KiB margin = %" PRIu64 " KiB; nothing changed",
	    p->device, p->mem_available_kb, p->used_kb, margin, p->used_kb + margin);
}

static int check_fstab(struct reclaim_swap_plan *p)
{
	if (!p->fstab)
		return reclaim_error(p->ctx, -p->fstab_err,
				     "cannot persist the priority of %s: %s; nothing changed",
				     p->device, p->fstab_error);
	if (p->fstab_idx < 0)
		return reclaim_error(p->ctx, ENOENT,
				     "%s has no entry in /etc/fstab, and none is invented: add one "
				     "(\"%s none swap sw,pri=%d 0 0\") or leave out --persist; "
				     "nothing changed",
				     p->device, p->device, p->new_prio);
	return 0;
}

RECLAIM_EXPORT int reclaim_swap_plan_check(struct reclaim_swap_plan *p, unsigned int flags)
{
	int r = 0;

	assert_return(p, -EINVAL);
	reclaim_error_reset(p->ctx);
	/* Nothing is swapped off when the priority stays. */
	if ((flags & RECLAIM_SWAP_LIVE) && p->old_prio != p->new_prio)
		r = check_room(p);
	if (r == 0 && (flags & RECLAIM_SWAP_PERSIST))
		r = check_fstab(p);
	return r;
}

static int swap_flags(int prio, enum reclaim_swap_discard discard)
{
	int flags = 0;

	/* A negative priority is the kernel's to give: swapon without a preference. */
	if (prio >= 0)
		flags = SWAP_FLAG_PREFER | ((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);
	switch (discard) {
	case RECLAIM_SWAP_DISCARD_ALL:
		flags |= SWAP_FLAG_DISCARD;
		break;
	case RECLAIM_SWAP_DISCARD_ONCE:
		flags |= SWAP_FLAG_DISCARD | SWAP_FLAG_DISCARD_ONCE;
		break;
	case RECLAIM_SWAP_DISCARD_PAGES:
		flags |= SWAP_FLAG_DISCARD | SWAP_FLAG_DISCARD_PAGES;
		break;
	case RECLAIM_SWAP_DISCARD_NONE:
	default:
		break;
	}
	return flags;
}

/* The device's priority now, from /proc/swaps; -ENOENT if it is off. */
static int current_priority(struct reclaim_swap_plan *p, int *prio)
{
	struct reclaim_swaps *swaps;
	struct reclaim_swap *d;

	if (reclaim_swaps_new(p->ctx, &swaps) < 0)
		return -EIO;
	d = reclaim_swaps_find(swaps, p->device);
	if (d)
		*prio = reclaim_swap_priority(d);
	reclaim_swaps_unref(swaps);
	return d ? 0 : -ENOENT;
}

static int swapoff_error(struct reclaim_swap_plan *p, int err)
{
	int prio;

	if (err == EPERM)
		return reclaim_error(p->ctx, EPERM,
				     "cannot swap %s off: needs CAP_SYS_ADMIN (run as root)",
				     p->device);
	/* The kernel puts a device back when swapoff fails; make sure. */
	if (current_priority(p, &prio) == -ENOENT &&
	    reclaim_sys_swapon(p->device, swap_flags(p->old_prio, p->discard)) < 0)
		return reclaim_error(
		    p->ctx, err,
		    "cannot swap %s off: %s; it is now OFF and could not be put back "
		    "on: run swapon %s",
		    p->device, strerror(err), p->device);
	if (err == ENOMEM)
		return reclaim_error(p->ctx, err,
				     "cannot swap %s off: the kernel could not take its pages back "
				     "into memory; it is still on with priority %d",
				     p->device, p->old_prio);
	if (err == EINTR)
		return reclaim_error(p->ctx, err,
				     "cannot swap %s off: interrupted by a signal; it is still on "
				     "with priority %d",
				     p->device, p->old_prio);
	return reclaim_error(p->ctx, err, "cannot swap %s off: %s; it is still on with priority %d",
			     p->device, strerror(err), p->old_prio);
}

/* swapon with the new priority failed (@err): back on with the old one, whatever it takes. */
static int restore(struct reclaim_swap_plan *p, int err)
{
	int r, prio = p->old_prio;

	r = reclaim_sys_swapon(p->device, swap_flags(p->old_prio, p->discard));
	if (r < 0 && p->discard != RECLAIM_SWAP_DISCARD_NONE)
		r = reclaim_sys_swapon(p->device,
				       swap_flags(p->old_prio, RECLAIM_SWAP_DISCARD_NONE));
	if (r < 0)
		r = reclaim_sys_swapon(p->device, 0);
	if (r < 0)
		return reclaim_error(p->ctx, err,
				     "cannot swap %s on with priority %d: %s; nor back on with "
				     "priority %d: %s; IT IS OFF: run swapon %s",
				     p->device, p->new_prio, strerror(err), p->old_prio,
				     strerror(-r), p->device);
	current_priority(p, &prio);
	return reclaim_error(
	    p->ctx, err, "cannot swap %s on with priority %d: %s; it is back on with priority %d",
	    p->device, p->new_prio, strerror(err), prio);
}

/*
 * The progress callback's first call, and the thread for the others; NULL
 * without a callback, for an empty device, or if the thread cannot be had:
 * progress is not worth failing a change for.
 */
static struct reclaim_swap_watch *progress_start(struct reclaim_swap_plan *p)
{
	int fd;

	if (!p->progress || p->used_kb == 0)
		return NULL;
	p->progress(p, p->used_kb, p->used_kb, p->progress_userdata);
	if (reclaim_open_regular(p->ctx, "/proc/swaps", &fd) < 0)
		return NULL;
	return reclaim_swap_watch_start(fd, p, p->device, p->used_kb, p->progress_interval_ms,
					p->progress, p->progress_userdata);
}

static int live_change(struct reclaim_swap_plan *p)
{
	struct reclaim_swap_watch *watch;
	sigset_t saved;
	int r, prio;

	if (p->old_prio == p->new_prio)
		return 0;
	/*
	 * A deleted swap file stays usable until swapoff, and not after. The
	 * live system only: swapoff(2) and swapon(2) take the path itself.
	 */
	if (access(p->device, F_OK) != 0)
		return reclaim_error(p->ctx, ENOENT,
				     "%s cannot be reached by its path (deleted?): it could not be "
				     "swapped on again, so it is left as it is",
				     p->device);
	watch = progress_start(p);
	/* A signal that ends the process cuts swapoff short: the kernel keeps the device on. */
	r = reclaim_sys_swapoff(p->device);
	reclaim_swap_watch_stop(watch);
	if (r < 0)
		return swapoff_error(p, -r);
	/* Off now: no such signal ends the process before the device is on again (critical.c). */
	reclaim_critical_enter(&saved);
	r = reclaim_sys_swapon(p->device, swap_flags(p->new_prio, p->discard));
	if (r < 0)
		r = restore(p, -r);
	reclaim_critical_leave(&saved);
	if (r < 0)
		return r;
	p->live_changed = true;
	r = current_priority(p, &prio);
	if (r < 0)
		return reclaim_error(
		    p->ctx, EIO, "%s was swapped on again but is not in /proc/swaps", p->device);
	/* No priority asked (a restore to the kernel's own): it numbers the device below 0. */
	if (prio != p->new_prio && !(p->new_prio < 0 && prio < 0))
		return reclaim_error(p->ctx, EIO, "%s is back on, with priority %d instead of %d",
				     p->device, prio, p->new_prio);
	return 0;
}

static int check_live(struct reclaim_swap_plan *p)
{
	int r;

	if (!reclaim_sys_is_live(p->ctx))
		return reclaim_error(
		    p->ctx, EOPNOTSUPP,
		    "not changing the priority of %s: %s is not the running system "
		    "(swapoff(2) and swapon(2) act on the running kernel)",
		    p->device, reclaim_get_sysroot(p->ctx));
	/* The plan may be old: look again right before swapoff. */
	r = read_state(p, p->device);
	if (r == 0 && p->old_prio != p->new_prio)
		r = check_room(p);
	return r;
}

/* The entry's pri= now in *prio (HISTORY_FSTAB_NO_PRI for none, or -1); -errno without one. */
static int fstab_now(struct reclaim_swap_plan *p, int *prio)
{
	int r = check_fstab(p);

	if (r < 0)
		return r;
	r = reclaim_fstab_priority(p->fstab, (size_t)p->fstab_idx, prio);
	if (r < 0)
		return reclaim_error(p->ctx, EINVAL, "/etc/fstab: the pri= of %s is malformed",
				     p->device);
	if (r == 0)
		*prio = HISTORY_FSTAB_NO_PRI;
	return 0;
}

static int put_fstab(struct reclaim_swap_plan *p, int prio)
{
	char detail[512];
	int r = reclaim_fstab_put_priority(p->fstab, (size_t)p->fstab_idx, prio);

	if (r < 0 && p->live_changed) {
		snprintf(detail, sizeof(detail), "%s", reclaim_strerror(p->ctx));
		return reclaim_error(p->ctx, -r, "%s now has priority %d, but %s", p->device,
				     p->new_prio, detail);
	}
	if (r == 0)
		p->fstab_changed = true;
	return r;
}

static void history_unrefp(struct reclaim_history **h)
{
	reclaim_history_unref(*h);
}

int reclaim_swap_plan_apply_recorded(struct reclaim_swap_plan *p, bool live, int fstab_prio,
				     const char *command, const char *source, long undoes)
{
	_cleanup_(history_unrefp) struct reclaim_history *h = NULL;
	int before = HISTORY_FSTAB_UNTOUCHED, r;
	struct history_swap rec;
	bool edit = false, swap;

	r = reclaim_history_load(p->ctx, &h);
	if (r == 0 && live)
		r = check_live(p);
	if (r == 0 && fstab_prio != HISTORY_FSTAB_UNTOUCHED && (r = fstab_now(p, &before)) == 0)
		edit = before != fstab_prio;
	if (r < 0)
		return r;
	swap = live && p->old_prio != p->new_prio;
	/* a restore is recorded even when it has nothing to write: the change it undoes is undone
	 */
	if (!swap && !edit && undoes == 0)
		return 0;
	rec = (struct history_swap){
	    .command = (char *)command,
	    .source = (char *)source,
	    .device = p->device,
	    .old_prio = p->old_prio,
	    .new_prio = swap ? p->new_prio : p->old_prio,
	    .fstab_old = edit ? before : HISTORY_FSTAB_UNTOUCHED,
	    .undoes = undoes,
	};
	r = reclaim_history_intent_swap(h, &rec);
	if (r < 0)
		return r;
	if (swap)
		r = live_change(p);
	if (r == 0 && edit)
		r = put_fstab(p, fstab_prio);
	/* A device at its new priority is a change made, whatever failed after. */
	if (r == 0 || p->live_changed) {
		char detail[512];
		int d;

		snprintf(detail, sizeof(detail), "%s", r < 0 ? reclaim_strerror(p->ctx) : "");
		d = reclaim_history_done(h, rec.change);
		if (r < 0)
			return reclaim_error(p->ctx, -r, "%s", detail);
		return d;
	}
	if (reclaim_history_discard(h) < 0) {
		char detail[512];

		snprintf(detail, sizeof(detail), "%s", reclaim_strerror(p->ctx));
		return reclaim_error(p->ctx, -r, "%s; change %lu stays in %s, interrupted", detail,
				     rec.change, RECLAIM_HISTORY_FILE);
	}
	return r;
}

RECLAIM_EXPORT int reclaim_swap_plan_apply(struct reclaim_swap_plan *p, unsigned int flags)
{
	int fd, r;

	assert_return(p, -EINVAL);
	reclaim_error_reset(p->ctx);
	r = reclaim_swap_plan_check(p, flags);
	if (r < 0)
		return r;
	/* The same lock as knob changes: one writer at a time, whatever it writes. */
	r = reclaim_lock_take(p->ctx, &fd);
	if (r < 0)
		return r;
	r = reclaim_swap_plan_apply_recorded(
	    p, flags & RECLAIM_SWAP_LIVE,
	    (flags & RECLAIM_SWAP_PERSIST) ? p->new_prio : HISTORY_FSTAB_UNTOUCHED, "swap-priority",
	    "value", 0);
	reclaim_lock_release(fd);
	return r;
}
