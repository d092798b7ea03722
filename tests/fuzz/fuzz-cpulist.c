// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cpulist ("0-3,8") and cpumap ("0000ff00,...") of sysfs. A list comes back
 * sorted, without repeats and within the documented maximum (65535); printed
 * again as a cpulist it parses to the same list, and so does its cpumap.
 */
#include "fuzz.h"
#include "internal.h"

#define MAX_CPU 65535u

static char *format_list(const unsigned int *cpus, size_t n)
{
	char *s = malloc(n * 12 + 1), *p = s;

	if (!s)
		abort();
	*p = '\0';
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		p += sprintf(p, "%s%u", i ? "," : "", cpus[i]);
		if (j > i)
			p += sprintf(p, "-%u", cpus[j]);
		i = j + 1;
	}
	return s;
}

static char *format_map(const unsigned int *cpus, size_t n)
{
	size_t words = n ? cpus[n - 1] / 32 + 1 : 1;
	uint32_t *w = calloc(words, sizeof(*w));
	char *s = malloc(words * 9 + 1), *p = s;

	if (!w || !s)
		abort();
	for (size_t i = 0; i < n; i++)
		w[cpus[i] / 32] |= 1u << (cpus[i] % 32);
	for (size_t i = words; i-- > 0;)
		p += sprintf(p, "%08x%s", w[i], i ? "," : "");
	free(w);
	return s;
}

static void check_list(const char *how, const unsigned int *cpus, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fuzz_check(cpus[i] <= MAX_CPU, "%s: CPU %u", how, cpus[i]);
		fuzz_check(i == 0 || cpus[i] > cpus[i - 1], "%s: %u after %u", how, cpus[i],
			   cpus[i - 1]);
	}
}

static void round_trip(const char *how, const unsigned int *cpus, size_t n, char *text,
		       int (*parse)(const char *, unsigned int **, size_t *))
{
	unsigned int *again = NULL;
	size_t m = 0;

	fuzz_check(parse(text, &again, &m) == 0, "%s \"%.80s\" refused", how, text);
	fuzz_check(m == n && (n == 0 || memcmp(again, cpus, n * sizeof(*cpus)) == 0),
		   "%s \"%.80s\": %zu CPUs, not %zu", how, text, m, n);
	free(again);
	free(text);
}

static void one(const char *s, int (*parse)(const char *, unsigned int **, size_t *),
		const char *how)
{
	unsigned int *cpus = NULL;
	size_t n = 0;
	int r = parse(s, &cpus, &n);

	fuzz_check(r == 0 || r == -EINVAL || r == -ERANGE, "%s: %d", how, r);
	if (r < 0)
		return;
	check_list(how, cpus, n);
	round_trip("cpulist", cpus, n, format_list(cpus, n), reclaim_cpulist_parse);
	round_trip("cpumap", cpus, n, format_map(cpus, n), reclaim_cpumap_parse);
	free(cpus);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string((const char *)data, size);

	one(s, reclaim_cpulist_parse, "cpulist");
	one(s, reclaim_cpumap_parse, "cpumap");
	free(s);
	return 0;
}
