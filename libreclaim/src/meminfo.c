// SPDX-License-Identifier: LGPL-2.1-or-later
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "internal.h"

/*
 * Checks one line, "Key:   N kB" in /proc/meminfo and "Node 3 Key:   N kB" per
 * node, and returns where the key starts; NULL if the line is malformed.
 */
static const char *meminfo_line(const char *line, const char *nl, unsigned long long *value)
{
	const char *p = line, *key;
	char *end;

	if (strncmp(p, "Node ", 5) == 0) {
		p += 5;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
		if (*p != ' ')
			return NULL;
		while (*p == ' ')
			p++;
	}
	key = p;
	while (p < nl && *p != ':' && *p != ' ' && isprint((unsigned char)*p))
		p++;
	if (p == key || *p != ':')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	/* strtoull() would take "-1" as a huge value and read on past the newline. */
	if (!isdigit((unsigned char)*p))
		return NULL;
	errno = 0;
	*value = strtoull(p, &end, 10);
	if (errno)
		return NULL;
	p = end;
	while (*p == ' ')
		p++;
	if (strncmp(p, "kB", 2) == 0)
		p += 2;
	return p == nl ? key : NULL;
}

/*
 * Finds @key's value in a meminfo text. Every line is checked, so a damaged
 * file is refused (-EINVAL) rather than half read; -ENOENT if @key is absent.
 */
int reclaim_meminfo_field(const char *text, const char *key, uint64_t *kb, size_t *line_no)
{
	size_t klen = strlen(key);
	const char *line = text;
	bool found = false;
	size_t n = 0;

	while (*line) {
		const char *nl = strchr(line, '\n');
		unsigned long long v;
		const char *k;

		n++;
		if (!nl)
			nl = line + strlen(line);
		if (nl == line) {
			line++;
			continue;
		}
		k = meminfo_line(line, nl, &v);
		if (!k) {
			if (line_no)
				*line_no = n;
			return -EINVAL;
		}
		if (!found && strncmp(k, key, klen) == 0 && k[klen] == ':') {
			*kb = v;
			found = true;
		}
		line = *nl ? nl + 1 : nl;
	}
	return found ? 0 : -ENOENT;
}
