// SPDX-License-Identifier: LGPL-2.1-or-later
/* The "KEY = VALUE" lines of reclaimctl's own files: presets and reclaimctl.conf. */
#include <errno.h>
#include <string.h>

#include "internal.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

char *reclaim_trim(char *s)
{
	char *end;

	while (is_blank(*s))
		s++;
	end = s + strlen(s);
	while (end > s && is_blank(end[-1]))
		end--;
	*end = '\0';
	return s;
}

int reclaim_kv_split(char *line, char **key, char **value)
{
	char *hash = strchr(line, '#'), *eq;

	if (hash)
		*hash = '\0';
	line = reclaim_trim(line);
	if (!line[0])
		return 0;
	eq = strchr(line, '=');
	*key = line;
	if (!eq)
		return -EINVAL;
	*eq = '\0';
	*key = reclaim_trim(line);
	*value = reclaim_trim(eq + 1);
	return 1;
}
