// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * An administrator's preset, /etc/reclaimctl/presets/fuzz.preset: a preset
 * loaded sets each knob once, to a value in its range (or "auto"), from a
 * line of the file; a refused one says "FILE:LINE: problem" on one line.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reclaim_preset *p = NULL;
	struct reclaim_ctx *ctx;
	int r;

	fuzz_root();
	fuzz_write("/etc/reclaimctl/presets/fuzz.preset", (const char *)data, size, 0644);
	ctx = fuzz_ctx();
	r = reclaim_preset_load(ctx, "fuzz", &p);
	fuzz_check_error(ctx, r);
	fuzz_check(r == 0 || r == -EBADMSG || r == -ENOMEM || r == -EFBIG, "%d: %s", r,
		   reclaim_strerror(ctx));
	for (size_t i = 0; r == 0 && i < reclaim_preset_count(p); i++) {
		const struct reclaim_knob *k = reclaim_preset_knob(p, i);

		fuzz_check(k, "entry %zu: no knob", i);
		for (size_t j = 0; j < i; j++)
			fuzz_check(reclaim_preset_knob(p, j) != k, "%s twice",
				   reclaim_knob_name(k));
		if (!reclaim_preset_is_auto(p, i))
			fuzz_check(reclaim_preset_value(p, i) >= reclaim_knob_min(k) &&
				       reclaim_preset_value(p, i) <= reclaim_knob_max(k),
				   "%s = %lld", reclaim_knob_name(k),
				   (long long)reclaim_preset_value(p, i));
		fuzz_check(reclaim_preset_line(p, i) > 0, "entry %zu: line 0", i);
	}
	reclaim_preset_unref(p);
	reclaim_unref(ctx);
	return 0;
}
