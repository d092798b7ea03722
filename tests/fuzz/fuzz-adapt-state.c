// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /run/reclaimctl/adapt, the adaptive daemon's state: what is read is saved
 * again and reads back the same; a refused file says why on one line.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int64_t baseline = 0, threads = 0, b2 = 0, t2 = 0;
	struct reclaim_ctx *ctx;
	pid_t pid = 0, p2 = 0;
	int r;

	fuzz_root();
	fuzz_write("/run/reclaimctl/adapt", (const char *)data, size, 0600);
	chmod(fuzz_root_dir, 0755);
	ctx = fuzz_ctx();
	r = reclaim_adapt_state_load(ctx, &pid, &baseline, &threads);
	fuzz_check_error(ctx, r);
	if (r >= 0) {
		fuzz_check(pid > 0, "pid %d", (int)pid);
		fuzz_root();
		chmod(fuzz_root_dir, 0755);
		r = reclaim_adapt_state_save(ctx, pid, baseline, threads);
		fuzz_check(r == 0, "saving it again: %s", reclaim_strerror(ctx));
		r = reclaim_adapt_state_load(ctx, &p2, &b2, &t2);
		fuzz_check(r >= 0 && p2 == pid && b2 == baseline && t2 == threads,
			   "read back as %d %lld %lld, not %d %lld %lld", (int)p2, (long long)b2,
			   (long long)t2, (int)pid, (long long)baseline, (long long)threads);
	}
	reclaim_unref(ctx);
	return 0;
}
