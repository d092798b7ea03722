// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The kernel's hist files of reclaimctl latency: the log2 buckets and the
 * tasks. Either parses or says which line it could not read; what it parses
 * is in range.
 */
#include "fuzz.h"
#include "latency-internal.h"

static void buckets(const char *text)
{
	struct latency_hist h;
	const char *bad = NULL;
	int r = latency_parse_hist(text, "delta", &h, &bad);

	fuzz_check(r == 0 || r == -EBADMSG, "%d", r);
	fuzz_check(r == 0 || (bad && bad >= text && bad <= text + strlen(text)), "bad %p", bad);
}

static void tasks(const char *text)
{
	struct latency_tasks t;
	const char *bad = NULL;
	int r = latency_parse_tasks(text, "delta", &t, &bad);

	fuzz_check(r == 0 || r == -EBADMSG || r == -ENOMEM, "%d", r);
	if (r < 0) {
		fuzz_check(t.n == 0 && !t.task, "a failed parse left %zu tasks", t.n);
		return;
	}
	for (size_t i = 0; i < t.n; i++) {
		fuzz_check(t.task[i].pid > 0, "pid %d", (int)t.task[i].pid);
		fuzz_check(strlen(t.task[i].comm) < sizeof(t.task[i].comm), "comm");
		fuzz_check(!t.task[i].cgroup, "a cgroup from the hist file");
	}
	latency_tasks_clear(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string((const char *)data, size);

	buckets(text);
	tasks(text);
	free(text);
	return 0;
}
