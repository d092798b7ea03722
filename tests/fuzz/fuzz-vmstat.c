// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /proc/vmstat and a node's vmstat. What is kept are reclaim counters,
 * looked up by name to the same value; printed back as "name value" lines
 * they parse to the same counters.
 */
#include "fuzz.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string((const char *)data, size), *again;
	struct reclaim_vmstat *vs = NULL, *vs2 = NULL;
	size_t line = 0, n, len = 0;
	FILE *f;
	int r;

	r = reclaim_vmstat_parse(text, &vs, &line);
	fuzz_check(r == 0 || r == -EINVAL, "%d", r);
	fuzz_check(r == 0 || line > 0, "no line named");
	free(text);
	if (r < 0)
		return 0;
	n = reclaim_vmstat_count(vs);
	f = open_memstream(&again, &len);
	for (size_t i = 0; i < n; i++) {
		const char *name = reclaim_vmstat_name(vs, i);
		uint64_t v;

		fuzz_check(reclaim_vmstat_is_reclaim_counter(name), "%s kept", name);
		fuzz_check(reclaim_vmstat_get(vs, name, &v) == 0, "%s not found", name);
		fprintf(f, "%s %llu\n", name, (unsigned long long)reclaim_vmstat_value(vs, i));
	}
	fclose(f);
	fuzz_check(reclaim_vmstat_parse(again, &vs2, NULL) == 0, "reprinted refused");
	fuzz_check(reclaim_vmstat_count(vs2) == n, "%zu counters, not %zu",
		   reclaim_vmstat_count(vs2), n);
	for (size_t i = 0; i < n; i++)
		fuzz_check(reclaim_vmstat_value(vs2, i) == reclaim_vmstat_value(vs, i) &&
			       strcmp(reclaim_vmstat_name(vs2, i), reclaim_vmstat_name(vs, i)) == 0,
			   "counter %zu differs", i);
	free(again);
	reclaim_vmstat_unref(vs);
	reclaim_vmstat_unref(vs2);
	return 0;
}
