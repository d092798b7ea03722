// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The history of changes, /run/reclaimctl/history (what restore undoes). A
 * history read is written to as a change would be, and read again after
 * each step: its intent (the new record comes last, interrupted, with the
 * next change number), the intent taken back (the history as it was), and
 * an intent marked done (the new record last, no longer interrupted). The
 * records it had read back the same each time, unless the bound trimmed some.
 */
#include "fuzz.h"
#include "history-internal.h"

static void same_record(const struct reclaim_history *a, size_t i, const struct reclaim_history *b,
			size_t j)
{
	fuzz_check(reclaim_history_change(a, i) == reclaim_history_change(b, j) &&
		       reclaim_history_time_ns(a, i) == reclaim_history_time_ns(b, j) &&
		       reclaim_history_knob(a, i) == reclaim_history_knob(b, j) &&
		       reclaim_history_old_value(a, i) == reclaim_history_old_value(b, j) &&
		       reclaim_history_new_value(a, i) == reclaim_history_new_value(b, j) &&
		       reclaim_history_undoes(a, i) == reclaim_history_undoes(b, j) &&
		       reclaim_history_undone(a, i) == reclaim_history_undone(b, j) &&
		       reclaim_history_interrupted(a, i) == reclaim_history_interrupted(b, j) &&
		       strcmp(reclaim_history_command(a, i), reclaim_history_command(b, j)) == 0 &&
		       strcmp(reclaim_history_source(a, i), reclaim_history_source(b, j)) == 0,
		   "record %zu read back as another", i);
}

/* The history again: @h's records, then @added more (the last @add, interrupted or not). */
static void read_back(struct reclaim_ctx *ctx, const struct reclaim_history *h, size_t added,
		      const struct history_record *add, bool interrupted)
{
	struct reclaim_history *again = NULL;
	size_t n = reclaim_history_count(h), m;
	int r = reclaim_history_load(ctx, &again);

	fuzz_check(r == 0, "reading back: %s", reclaim_strerror(ctx));
	m = reclaim_history_count(again);
	fuzz_check(m <= n + added, "%zu records after adding %zu to %zu", m, added, n);
	if (added > 0) {
		fuzz_check(m >= 1 && reclaim_history_change(again, m - 1) == add->change &&
			       reclaim_history_new_value(again, m - 1) == add->new_value,
			   "the new record is not last");
		fuzz_check(reclaim_history_interrupted(again, m - 1) == interrupted,
			   "the new record is %sinterrupted", interrupted ? "not " : "");
	}
	if (m == n + added && reclaim_history_trimmed(again) == reclaim_history_trimmed(h))
		for (size_t i = 0; i < n; i++)
			same_record(h, i, again, i);
	reclaim_history_unref(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reclaim_history *h = NULL;
	struct history_record add = {
	    .command = (char *)"set",
	    .source = (char *)"value",
	    .knob = reclaim_knob_get(0),
	    .old_value = 1,
	    .new_value = 2,
	};
	struct reclaim_ctx *ctx;
	size_t n;
	int r;

	fuzz_root();
	fuzz_write("/run/reclaimctl/history", (const char *)data, size, 0600);
	chmod(fuzz_root_dir, 0755);
	ctx = fuzz_ctx();
	r = reclaim_history_load(ctx, &h);
	fuzz_check_error(ctx, r);
	if (r < 0)
		goto out;
	n = reclaim_history_count(h);
	for (size_t i = 0; i < n; i++)
		fuzz_check(reclaim_history_knob(h, i) && reclaim_history_command(h, i) &&
			       reclaim_history_source(h, i),
			   "record %zu incomplete", i);
	r = reclaim_history_intent(h, 0, &add, 1);
	fuzz_check(r == 0, "intent: %s", reclaim_strerror(ctx));
	read_back(ctx, h, 1, &add, true);
	r = reclaim_history_discard(h);
	fuzz_check(r == 0, "discard: %s", reclaim_strerror(ctx));
	read_back(ctx, h, 0, NULL, false);
	r = reclaim_history_intent(h, 0, &add, 1);
	if (r == 0)
		r = reclaim_history_done(h, add.change);
	fuzz_check(r == 0, "intent and done: %s", reclaim_strerror(ctx));
	read_back(ctx, h, 1, &add, false);
out:
	reclaim_history_unref(h);
	reclaim_unref(ctx);
	return 0;
}
