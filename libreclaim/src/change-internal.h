/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * change.c: the transaction under every write (the engine's), and the
 * object of the deprecated reclaim_change_*() API that wraps the engine's
 * request (change-compat.c).
 */
#ifndef RECLAIM_CHANGE_INTERNAL_H
#define RECLAIM_CHANGE_INTERNAL_H

#include "internal.h"

struct change_entry {
	const struct reclaim_knob *knob;
	int64_t new_value, old_value;
	char *source; /* for the history; NULL: "value" */
	bool adopted; /* recorded even if unchanged (reclaim_change_set_adopted()) */
};

struct reclaim_change {
	int refcount;
	struct reclaim_ctx *ctx;
	struct change_entry *entries;
	size_t count;
	ssize_t failed;
	ssize_t verified_nodes;
	char *command;	/* for the history; NULL: "change" */
	long undoes;	/* a restore: the change it undoes (HISTORY_UNDOES_ALL: every one) */
	bool persist;	/* also writes the new values to the persisted files */
	bool unpersist; /* removes the persisted files after the writes */
	/* RECLAIM_PERSIST_FILE's and RECLAIM_PERSIST_TMPFILES' texts before, to put back */
	char *persisted[2];
	/* a restore records unchanged knobs too: the undo must be in the history */
	bool record_all;
	/* the engine decides: an unchanged kswapd_threads is not written */
	bool keep_threads;
	unsigned long join;	/* recorded as more of this change (0: a new one) */
	unsigned long recorded; /* the change the apply recorded (0: none) */
};

#endif
