// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/meminfo and a node's meminfo: a field is found once, whatever the other lines hold. */
#include "fuzz.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = {"MemTotal", "MemFree", "MemAvailable", "SwapFree"};
	char *text = fuzz_string((const char *)data, size);
	int first = 1;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		uint64_t kb = 0;
		size_t line = 0;
		int r = reclaim_meminfo_field(text, keys[i], &kb, &line);

		fuzz_check(r == 0 || r == -EINVAL || r == -ENOENT, "%s: %d", keys[i], r);
		/* A malformed text is malformed whichever key is looked for. */
		if (first != 1)
			fuzz_check((r == -EINVAL) == (first == -EINVAL), "%s: %d after %d", keys[i],
				   r, first);
		first = r;
	}
	free(text);
	return 0;
}
