// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/2/task/2/children: pids the kernel can have (1 to RECLAIM_PID_MAX). */
#include "fuzz.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string((const char *)data, size);
	struct reclaim_ctx *ctx = NULL;
	pid_t *pids = NULL;
	size_t n = 0;
	int r;

	if (reclaim_new(&ctx, "/nonexistent") < 0)
		abort();
	r = reclaim_children_parse(ctx, text, &pids, &n);
	fuzz_check(r == 0 || r == -EINVAL, "%d", r);
	fuzz_check(r == 0 || strstr(reclaim_strerror(ctx), "children"), "message: %s",
		   reclaim_strerror(ctx));
	for (size_t i = 0; r == 0 && i < n; i++)
		fuzz_check(pids[i] > 0 && pids[i] <= RECLAIM_PID_MAX, "pid %d", (int)pids[i]);
	free(pids);
	reclaim_unref(ctx);
	free(text);
	return 0;
}
