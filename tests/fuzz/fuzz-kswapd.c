// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kswapd discovery on a root whose kthreadd children file, /proc/100/stat and
 * /proc/100/status are the three parts of the input: a thread found has a
 * node and an index from its name, and a CPU list sorted without repeats.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reclaim_kswapd_list *list = NULL;
	static const char *const files[] = {"/proc/2/task/2/children", "/proc/100/stat",
					    "/proc/100/status"};
	struct reclaim_ctx *ctx;
	int r;

	fuzz_root_files(data, size, files, 3, 0444);
	ctx = fuzz_ctx();
	r = reclaim_kswapd_list_new(ctx, &list);
	fuzz_check_error(ctx, r);
	for (size_t i = 0; r == 0 && i < reclaim_kswapd_list_count(list); i++) {
		const struct reclaim_kswapd *k = reclaim_kswapd_list_get(list, i);
		size_t n = 0;
		const unsigned int *cpus = reclaim_kswapd_allowed_cpus(k, &n);

		fuzz_check(reclaim_kswapd_pid(k) == 100, "pid %d", (int)reclaim_kswapd_pid(k));
		fuzz_check(reclaim_kswapd_node(k) >= 0, "node %d", reclaim_kswapd_node(k));
		for (size_t c = 1; c < n; c++)
			fuzz_check(cpus[c] > cpus[c - 1], "CPU %u after %u", cpus[c], cpus[c - 1]);
	}
	reclaim_kswapd_list_unref(list);
	reclaim_unref(ctx);
	return 0;
}
