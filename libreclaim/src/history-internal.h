/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* history.c: the changes since boot, shared by the change engine and restore. */
#ifndef RECLAIM_HISTORY_INTERNAL_H
#define RECLAIM_HISTORY_INTERNAL_H

#include "internal.h"

#define HISTORY_UNDOES_ALL (-1L)

struct history_record {
	unsigned long change;
	int64_t sec;
	long nsec;
	char *command, *source;
	const struct reclaim_knob *knob;
	int64_t old_value, new_value;
	long undoes; /* a restore: the change it undid, or HISTORY_UNDOES_ALL; else 0 */
	bool undone; /* a change a later restore undid */
};

struct reclaim_history {
	int refcount;
	struct reclaim_ctx *ctx;
	struct history_record *records;
	size_t count;
	unsigned long last_change;
	unsigned long long trimmed; /* records dropped by the bound */
	bool torn;		    /* the last line was cut short */
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
 * Appends @n records as one new change (their change number and time are
 * filled in here); under the writers' lock. @history is not updated.
 */
int reclaim_history_append(struct reclaim_history *history, struct history_record *records,
			   size_t n);
/*
 * The same, as more records of change @change (0: a new change), which
 * must be the newest change not undone (reclaim_history_check_newest()).
 */
int reclaim_history_append_to(struct reclaim_history *history, unsigned long change,
			      struct history_record *records, size_t n);
/* 0 if @change is the newest change not undone; else -ESTALE saying why not. */
int reclaim_history_check_newest(const struct reclaim_history *history, unsigned long change);

#endif
