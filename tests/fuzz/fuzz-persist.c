// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The persisted values, /etc/sysctl.d/90-reclaimctl.conf. A file reclaimctl
 * reads as its own is written again from the values read, and that file
 * reads back to the same knobs and values; a refused one names its line.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reclaim_persist *p = NULL, *again = NULL;
	const struct reclaim_knob *knobs[64];
	int64_t values[64];
	struct reclaim_ctx *ctx;
	size_t n;
	int r;

	fuzz_root();
	fuzz_write(RECLAIM_PERSIST_FILE, (const char *)data, size, 0644);
	ctx = fuzz_ctx();
	r = reclaim_persist_read(ctx, &p);
	fuzz_check_error(ctx, r);
	if (r < 0)
		goto out;
	n = reclaim_persist_count(p);
	fuzz_check(n <= reclaim_knob_count() && n <= 64, "%zu values", n);
	for (size_t i = 0; i < n; i++) {
		knobs[i] = reclaim_persist_knob(p, i);
		values[i] = reclaim_persist_value(p, i);
		fuzz_check(reclaim_persist_find(p, knobs[i]) == (ssize_t)i, "%s twice",
			   reclaim_knob_name(knobs[i]));
	}
	fuzz_root();
	r = reclaim_persist_write(ctx, knobs, values, n);
	fuzz_check(r == 0, "writing back %zu values: %s", n, reclaim_strerror(ctx));
	r = reclaim_persist_read(ctx, &again);
	fuzz_check(r == 0, "reading it back: %s", reclaim_strerror(ctx));
	fuzz_check(reclaim_persist_count(again) == n, "%zu values back, not %zu",
		   reclaim_persist_count(again), n);
	for (size_t i = 0; i < n; i++)
		fuzz_check(reclaim_persist_knob(again, i) == knobs[i] &&
			       reclaim_persist_value(again, i) == values[i],
			   "value %zu (%s) differs", i, reclaim_knob_name(knobs[i]));
out:
	reclaim_persist_unref(p);
	reclaim_persist_unref(again);
	reclaim_unref(ctx);
	return 0;
}
