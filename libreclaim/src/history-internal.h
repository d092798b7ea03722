/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* history.c: the changes since boot, shared by the change engine and restore. */
#ifndef RECLAIM_HISTORY_INTERNAL_H
#define RECLAIM_HISTORY_INTERNAL_H

#include <limits.h>

#include "internal.h"

#define HISTORY_UNDOES_ALL (-1L)

/* "09:10:00": the local time of a record's @sec, for messages and reasons */
void history_clock(char *buf, size_t size, int64_t sec);

struct history_record {
	unsigned long change;
	int64_t sec;
	long nsec;
	char *command, *source;
	const struct reclaim_knob *knob;
	int64_t old_value, new_value;
	long undoes;	  /* a restore: the change it undid, or HISTORY_UNDOES_ALL; else 0 */
	bool undone;	  /* a change a later restore undid */
	bool interrupted; /* recorded before its write, never marked done */
};

/*
 * A swap priority change (swap priority, or a restore of one): a "# swap"
 * line, which reclaimctl before them skips as a comment.
 */
#define HISTORY_FSTAB_UNTOUCHED INT_MIN /* /etc/fstab not edited */
#define HISTORY_FSTAB_NO_PRI	(-1)	/* the entry had no pri= */

struct history_swap {
	unsigned long change;
	int64_t sec;
	long nsec;
	char *command, *source, *device;
	int old_prio, new_prio; /* live; the same when only /etc/fstab was edited */
	int fstab_old;		/* the entry's pri= before, or one of the two above */
	long undoes;
	bool undone, interrupted;
};

/* "# outside ...": a value another writer left, seen by reclaimctl. */
struct history_outside {
	int64_t sec;
	long nsec;
	const struct reclaim_knob *knob;
	int64_t expected, value;
	size_t after; /* the number of records before it in the file */
};

struct reclaim_history {
	int refcount;
	struct reclaim_ctx *ctx;
	struct history_record *records;
	size_t count;
	struct history_swap *swaps;
	size_t nswaps;
	unsigned long last_change;
	unsigned long long trimmed; /* records dropped by the bound */
	bool torn;		    /* the last line was cut short */
	size_t size;		    /* of the file as loaded */
	bool rewritten;		    /* by the last intent, not appended to */
	struct history_outside *outside;
	size_t noutside;
};

/* The records kept besides the first of each knob (a variable for the tests). */
extern unsigned int reclaim_history_keep;

/* An empty history when there is none; -EBADMSG naming the line for a damaged one. */
int reclaim_history_load(struct reclaim_ctx *ctx, struct reclaim_history **history);
/* The last record of the newest change that no restore undid, or -1. */
ssize_t reclaim_history_last_change(const struct reclaim_history *history);
/* The first record of @knob since boot, or -1. */
ssize_t reclaim_history_first(const struct reclaim_history *history,
			      const struct reclaim_knob *knob);
/*
 * A change is recorded before it is written, and marked done after; all
 * three under the writers' lock, on the history as loaded (not updated).
 *
 * intent: @n records as a new change (@change 0) or as more of @change,
 * which must be the newest change not undone (reclaim_history_check_newest());
 * their change number and time are filled in here.
 */
int reclaim_history_intent(struct reclaim_history *history, unsigned long change,
			   struct history_record *records, size_t n);
/* The intent of @change just recorded is done: its writes are all made. */
int reclaim_history_done(struct reclaim_history *history, unsigned long change);
/* Takes the intent just recorded back (its writes were rolled back): the file as loaded. */
int reclaim_history_discard(struct reclaim_history *history);
/*
 * The swap record of the newest change no restore undid, when that change
 * is a swap priority change (newer than reclaim_history_last_change()'s); or -1.
 */
ssize_t reclaim_history_last_swap(const struct reclaim_history *history);
/* The first swap record of @device since boot, and the first that edited /etc/fstab; or -1. */
ssize_t reclaim_history_first_swap(const struct reclaim_history *history, const char *device,
				   bool fstab);
/* The intent of a swap change (@s, as a new change: number and time filled in). */
int reclaim_history_intent_swap(struct reclaim_history *history, struct history_swap *s);
/* 0 if @change is the newest change not undone; else -ESTALE saying why not. */
int reclaim_history_check_newest(const struct reclaim_history *history, unsigned long change);

/*
 * What reclaimctl last left @knob at (the newest record's new value), and
 * whether @now is still that: 0 in place, 1 changed since by another
 * writer, -ENOENT without a record. A newest record that was interrupted
 * leaves the knob at its old or its new value: both are in place.
 */
int reclaim_history_expect(const struct reclaim_history *history, const struct reclaim_knob *knob,
			   int64_t now, int64_t *expected);
/*
 * The first "outside" line of @knob since its newest record (the time
 * another writer's value was first seen), and the last one; NULL for none.
 */
const struct history_outside *reclaim_history_outside_first(const struct reclaim_history *history,
							    const struct reclaim_knob *knob);
const struct history_outside *reclaim_history_outside_last(const struct reclaim_history *history,
							   const struct reclaim_knob *knob);
/*
 * Appends "# outside time=T knob=NAME expected=E value=V" under the
 * writers' lock, unless the last such line of @knob since its newest
 * record says @value already: the history reloaded under the lock decides.
 * *@seen_ns: the time of that line, written now or found, 0 if there is none
 * (a history full or torn). -EBUSY without waiting when another writer
 * holds the lock; -EACCES and the like when the caller may not write (the
 * caller goes on without).
 */
int reclaim_history_note_outside(struct reclaim_ctx *ctx, const struct reclaim_knob *knob,
				 int64_t expected, int64_t value, int64_t *seen_ns);

#endif
