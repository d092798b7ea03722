// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/PID/stat: the name in parentheses (which may hold any byte) fits its buffer. */
#include "fuzz.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string((const char *)data, size);
	char comm[16];
	char state = 0;
	uint64_t ticks = 0;
	int cpu = 0, r;

	memset(comm, 'x', sizeof(comm));
	r = reclaim_proc_stat_parse(text, comm, sizeof(comm), &state, &ticks, &cpu);
	fuzz_check(r == 0 || r == 1 || r == -EINVAL, "%d", r);
	if (r >= 0)
		fuzz_check(memchr(comm, '\0', sizeof(comm)), "name not terminated");
	free(text);
	return 0;
}
