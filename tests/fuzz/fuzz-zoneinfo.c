// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/zoneinfo: every zone kept has a node and a name; a refusal names its line. */
#include "fuzz.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string((const char *)data, size);
	struct reclaim_zone *zones = NULL;
	size_t count = 0, line = 0;
	int r;

	r = reclaim_zoneinfo_parse(text, &zones, &count, &line);
	fuzz_check(r == 0 || r == -EINVAL || r == -ERANGE, "%d", r);
	fuzz_check(r == 0 || line > 0, "no line named");
	for (size_t i = 0; r == 0 && i < count; i++) {
		fuzz_check(zones[i].node >= 0, "zone %zu: node %d", i, zones[i].node);
		fuzz_check(zones[i].name && zones[i].name[0], "zone %zu: no name", i);
	}
	if (r == 0)
		reclaim_zones_free(zones, count);
	free(text);
	return 0;
}
