// SPDX-License-Identifier: LGPL-2.1-or-later
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "internal.h"

void reclaim_zones_free(struct reclaim_zone *zones, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(zones[i].name);
	free(zones);
}

enum {
	SEEN_MIN = 1 << 0,
	SEEN_LOW = 1 << 1,
	SEEN_HIGH = 1 << 2,
	SEEN_MANAGED = 1 << 3,
	SEEN_PRESENT = 1 << 4,
};

struct zone_parse {
	struct reclaim_zone *z;
	uint64_t present;
	unsigned int seen;
};

/* A whole unsigned number and nothing after it. */
static int number(const char *s, uint64_t *v)
{
	while (*s == ' ')
		s++;
	return reclaim_parse_u64(s, v);
}

/*
 * One indented line of a zone. Lines of the keys read here must hold a plain
 * number; other lines (per-node stats, pagesets, protection) are skipped.
 */
static int zone_line(struct zone_parse *zp, const char *line)
{
	static const struct {
		const char *key;
		size_t offset;
		unsigned int bit;
	} keys[] = {
	    {"min", offsetof(struct reclaim_zone, min), SEEN_MIN},
	    {"low", offsetof(struct reclaim_zone, low), SEEN_LOW},
	    {"high", offsetof(struct reclaim_zone, high), SEEN_HIGH},
	    {"managed", offsetof(struct reclaim_zone, managed), SEEN_MANAGED},
	};
	const char *p = line;
	size_t len;

	while (*p == ' ')
		p++;
	if (strncmp(p, "pages free", 10) == 0)
		return number(p + 10, &zp->z->free);
	len = strcspn(p, " ");
	if (len == 7 && strncmp(p, "present", 7) == 0) {
		zp->seen |= SEEN_PRESENT;
		return number(p + len, &zp->present);
	}
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		if (strlen(keys[i].key) != len || strncmp(p, keys[i].key, len) != 0)
			continue;
		zp->seen |= keys[i].bit;
		return number(p + len, (uint64_t *)((char *)zp->z + keys[i].offset));
	}
	return 0;
}

static bool zone_empty(const struct zone_parse *zp)
{
	return (zp->seen & SEEN_PRESENT) && zp->present == 0;
}

/* A populated zone without watermarks means a truncated or damaged file. */
static int zone_finish(struct zone_parse *zp)
{
	const unsigned int needed = SEEN_MIN | SEEN_LOW | SEEN_HIGH;

	if (zone_empty(zp))
		return 0;
	if ((zp->seen & needed) != needed)
		return -EINVAL;
	/* Kernels before 3.8 had no "managed" line. */
	if (!(zp->seen & SEEN_MANAGED))
		zp->z->managed = zp->present;
	return 0;
}

static bool printable(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isprint((unsigned char)line[i]) && line[i] != '\t')
			return false;
	return true;
}

/*
 * /proc/zoneinfo: a "Node N, zone NAME" header per zone, then indented
 * "key value" lines. Unpopulated zones (present 0) are left out.
 */
int reclaim_zoneinfo_parse(const char *text, struct reclaim_zone **ret, size_t *ret_count,
			   size_t *line_no)
{
	struct reclaim_zone *zones = NULL;
	struct zone_parse zp = {0};
	size_t n = 0, lineno = 0;
	const char *line = text;
	int r = 0;

	while (r == 0 && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[256], name[64], extra;
		struct reclaim_zone *nz;
		int node;

		lineno++;
		if (!printable(line, len)) {
			r = -EINVAL;
			break;
		}
		if (len >= sizeof(buf)) {
			/* Only an indented line (a long protection list) can be this long. */
			if (line[0] != ' ')
				r = -EINVAL;
			line = nl ? nl + 1 : line + len;
			continue;
		}
		memcpy(buf, line, len);
		buf[len] = '\0';
		line = nl ? nl + 1 : line + len;

		if (strncmp(buf, "Node ", 5) != 0) {
			if (buf[0] && buf[0] != ' ')
				r = -EINVAL;
			else if (zp.z)
				r = zone_line(&zp, buf);
			continue;
		}
		if (sscanf(buf, "Node %d, zone %63s %c", &node, name, &extra) != 2 || node < 0) {
			r = -EINVAL;
			break;
		}
		if (zp.z) {
			r = zone_finish(&zp);
			if (r < 0)
				break;
			if (zone_empty(&zp))
				free(zones[--n].name);
		}
		nz = realloc(zones, (n + 1) * sizeof(*zones));
		if (!nz) {
			r = -ENOMEM;
			break;
		}
		zones = nz;
		zp = (struct zone_parse){.z = &zones[n]};
		memset(zp.z, 0, sizeof(*zp.z));
		zp.z->node = node;
		zp.z->name = strdup(name);
		if (!zp.z->name) {
			r = -ENOMEM;
			break;
		}
		n++;
	}
	if (r == 0 && zp.z) {
		r = zone_finish(&zp);
		if (r == 0 && zone_empty(&zp))
			free(zones[--n].name);
	}
	if (r < 0) {
		reclaim_zones_free(zones, n);
		if (line_no)
			*line_no = lineno;
		return r;
	}
	*ret = zones;
	*ret_count = n;
	return 0;
}
