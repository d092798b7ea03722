// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <string.h>

#include "internal.h"

void reclaim_zones_free(struct reclaim_zone *zones, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(zones[i].name);
	free(zones);
}

static int field(const char *line, const char *key, uint64_t *v)
{
	char name[32];
	unsigned long long x;
	char extra;

	if (sscanf(line, " %31s %llu %c", name, &x, &extra) != 2 || strcmp(name, key) != 0)
		return 0;
	*v = x;
	return 1;
}

static void zone_line(struct reclaim_zone *z, const char *line, uint64_t *present)
{
	unsigned long long x;

	if (sscanf(line, " pages free %llu", &x) == 1)
		z->free = x;
	else if (!field(line, "min", &z->min) && !field(line, "low", &z->low) &&
		 !field(line, "high", &z->high) && !field(line, "managed", &z->managed))
		field(line, "present", present);
}

/*
 * /proc/zoneinfo: a "Node N, zone NAME" header per zone, then indented
 * "key value" lines. Unpopulated zones (present 0) are left out.
 */
int reclaim_zoneinfo_parse(const char *text, struct reclaim_zone **ret, size_t *ret_count)
{
	struct reclaim_zone *zones = NULL, *cur = NULL;
	uint64_t present = 1;
	size_t n = 0;
	const char *line = text;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[256], name[64];
		int node;

		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, line, len);
		buf[len] = '\0';
		line = nl ? nl + 1 : NULL;

		if (strncmp(buf, "Node ", 5) == 0) {
			struct reclaim_zone *nz;

			if (sscanf(buf, "Node %d, zone %63s", &node, name) != 2 || node < 0)
				goto fail_inval;
			if (cur && present == 0) {
				free(cur->name);
				n--;
			}
			nz = realloc(zones, (n + 1) * sizeof(*zones));
			if (!nz)
				goto fail_nomem;
			zones = nz;
			cur = &zones[n++];
			memset(cur, 0, sizeof(*cur));
			cur->node = node;
			cur->name = strdup(name);
			if (!cur->name) {
				n--;
				goto fail_nomem;
			}
			present = 1;
			continue;
		}
		if (cur)
			zone_line(cur, buf, &present);
	}
	if (cur && present == 0) {
		free(cur->name);
		n--;
	}
	*ret = zones;
	*ret_count = n;
	return 0;
fail_inval:
	reclaim_zones_free(zones, n);
	return -EINVAL;
fail_nomem:
	reclaim_zones_free(zones, n);
	return -ENOMEM;
}
