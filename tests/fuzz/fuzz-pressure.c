// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/pressure/memory: averages are percentages (finite, 0 to 100); "some" is always there. */
#include <math.h>

#include "fuzz.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string((const char *)data, size);
	struct reclaim_pressure *p = NULL;
	int r;

	r = reclaim_pressure_parse(text, &p);
	free(text);
	fuzz_check(r == 0 || r == -EINVAL, "%d", r);
	if (r < 0)
		return 0;
	fuzz_check(reclaim_pressure_has(p, RECLAIM_PRESSURE_SOME), "no some line");
	for (int k = RECLAIM_PRESSURE_SOME; k <= RECLAIM_PRESSURE_FULL; k++) {
		double avg[3] = {reclaim_pressure_avg10(p, k), reclaim_pressure_avg60(p, k),
				 reclaim_pressure_avg300(p, k)};

		if (!reclaim_pressure_has(p, k))
			continue;
		for (int i = 0; i < 3; i++)
			fuzz_check(isfinite(avg[i]) && avg[i] >= 0 && avg[i] <= 100,
				   "kind %d avg %d: %g", k, i, avg[i]);
	}
	reclaim_pressure_unref(p);
	return 0;
}
