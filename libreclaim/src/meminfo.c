// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <string.h>

#include "internal.h"

/* Lines are "Key:   N kB" in /proc/meminfo and "Node 3 Key:   N kB" per node. */
int reclaim_meminfo_field(const char *text, const char *key, uint64_t *kb)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		const char *p = line;
		const char *nl = strchr(line, '\n');

		if (strncmp(p, "Node ", 5) == 0) {
			p += 5;
			while (*p >= '0' && *p <= '9')
				p++;
			while (*p == ' ')
				p++;
		}
		if (strncmp(p, key, klen) == 0 && p[klen] == ':') {
			char *end;
			unsigned long long v;

			p += klen + 1;
			errno = 0;
			v = strtoull(p, &end, 10);
			if (end == p || errno)
				return -EINVAL;
			while (*end == ' ')
				end++;
			if (*end != '\n' && *end != '\0' && strncmp(end, "kB", 2) != 0)
				return -EINVAL;
			*kb = v;
			return 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	return -ENOENT;
}
