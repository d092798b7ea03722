// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <string.h>

#include "internal.h"

struct reclaim_vmstat {
	int refcount;
	size_t count, alloc;
	char **names;
	uint64_t *values;
};

static const char *const reclaim_prefixes[] = {
    "pgscan_", "pgsteal_", "allocstall_", "kswapd_", "workingset_refault_",
};

static const char *const reclaim_names[] = {
    "pageoutrun", "pgrefill", "pswpin", "pswpout", "direct_reclaim_throttled",
};

RECLAIM_EXPORT bool reclaim_vmstat_is_reclaim_counter(const char *name)
{
	assert_return(name, false);
	/* every reclaim counter starts with one of these: most lines end here */
	if (!strchr("adkpw", name[0]))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(reclaim_prefixes); i++)
		if (strncmp(name, reclaim_prefixes[i], strlen(reclaim_prefixes[i])) == 0)
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(reclaim_names); i++)
		if (strcmp(name, reclaim_names[i]) == 0)
			return true;
	return false;
}

static void vmstat_free(struct reclaim_vmstat *vs)
{
	for (size_t i = 0; i < vs->count; i++)
		free(vs->names[i]);
	free(vs->names);
	free(vs->values);
	free(vs);
}

static int vmstat_add(struct reclaim_vmstat *vs, const char *name, size_t len, uint64_t value,
		      size_t *alloc)
{
	if (vs->count == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 32;
		char **names = realloc(vs->names, n * sizeof(*names));
		uint64_t *values;

		if (!names)
			return -ENOMEM;
		vs->names = names;
		values = realloc(vs->values, n * sizeof(*values));
		if (!values)
			return -ENOMEM;
		vs->values = values;
		*alloc = n;
	}
	vs->names[vs->count] = strndup(name, len);
	if (!vs->names[vs->count])
		return -ENOMEM;
	vs->values[vs->count++] = value;
	return 0;
}

/*
 * "NAME VALUE": NAME up to 127 characters, VALUE decimal digits. Parsed by
 * hand, not with sscanf(): the sampler reads the file every interval.
 */
static bool parse_line(const char *line, const char *end, size_t *name_len, uint64_t *value)
{
	const char *p = line;
	uint64_t v = 0;

	while (p < end && *p != ' ' && *p != '\t')
		p++;
	*name_len = (size_t)(p - line);
	if (*name_len == 0 || *name_len > 127)
		return false;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end)
		return false;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*value = v;
	return p == end;
}

int reclaim_vmstat_append(struct reclaim_vmstat **vs, const char *name, uint64_t value)
{
	if (strlen(name) == 0 || strlen(name) > 127)
		return -EINVAL;
	if (!*vs) {
		*vs = calloc(1, sizeof(**vs));
		if (!*vs)
			return -ENOMEM;
		(*vs)->refcount = 1;
	}
	return vmstat_add(*vs, name, strlen(name), value, &(*vs)->alloc);
}

int reclaim_vmstat_parse(const char *text, struct reclaim_vmstat **ret, size_t *line_no)
{
	struct reclaim_vmstat *vs = calloc(1, sizeof(*vs));
	const char *line = text;
	size_t n = 0;

	if (!vs)
		return -ENOMEM;
	vs->refcount = 1;
	while (*line) {
		const char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);
		char name[128];
		size_t len;
		uint64_t v;
		int r;

		n++;
		if (!parse_line(line, end, &len, &v)) {
			vmstat_free(vs);
			if (line_no)
				*line_no = n;
			return -EINVAL;
		}
		memcpy(name, line, len);
		name[len] = '\0';
		line = nl ? nl + 1 : end;
		if (!reclaim_vmstat_is_reclaim_counter(name))
			continue;
		r = vmstat_add(vs, name, len, v, &vs->alloc);
		if (r < 0) {
			vmstat_free(vs);
			return r;
		}
	}
	*ret = vs;
	return 0;
}

static int vmstat_load(struct reclaim_ctx *ctx, const char *path, struct reclaim_vmstat **ret)
{
	_cleanup_free_ char *text = NULL;
	size_t line = 0;
	int r;

	r = reclaim_read_file(ctx, path, &text, NULL);
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read %s: %s", path, reclaim_read_strerror(r));
	r = reclaim_vmstat_parse(text, ret, &line);
	if (r == -EINVAL)
		return reclaim_error(ctx, EINVAL, "%s:%zu: malformed line", path, line);
	return r;
}
RECLAIM_EXPORT int reclaim_vmstat_new(struct reclaim_ctx *ctx, struct reclaim_vmstat **ret)
{
	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	return vmstat_load(ctx, "/proc/vmstat", ret);
}

RECLAIM_EXPORT int reclaim_vmstat_new_node(struct reclaim_ctx *ctx, int node_id,
					   struct reclaim_vmstat **ret)
{
	char path[64];

	assert_return(ctx && ret && node_id >= 0, -EINVAL);
	reclaim_error_reset(ctx);
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/vmstat", node_id);
	return vmstat_load(ctx, path, ret);
}

RECLAIM_EXPORT struct reclaim_vmstat *reclaim_vmstat_ref(struct reclaim_vmstat *vs)
{
	if (vs)
		vs->refcount++;
	return vs;
}

RECLAIM_EXPORT struct reclaim_vmstat *reclaim_vmstat_unref(struct reclaim_vmstat *vs)
{
	if (vs && --vs->refcount == 0)
		vmstat_free(vs);
	return NULL;
}

RECLAIM_EXPORT size_t reclaim_vmstat_count(const struct reclaim_vmstat *vs)
{
	assert_return(vs, 0);
	return vs->count;
}

RECLAIM_EXPORT const char *reclaim_vmstat_name(const struct reclaim_vmstat *vs, size_t idx)
{
	assert_return(vs && idx < vs->count, NULL);
	return vs->names[idx];
}

RECLAIM_EXPORT uint64_t reclaim_vmstat_value(const struct reclaim_vmstat *vs, size_t idx)
{
	assert_return(vs && idx < vs->count, 0);
	return vs->values[idx];
}

RECLAIM_EXPORT int reclaim_vmstat_get(const struct reclaim_vmstat *vs, const char *name,
				      uint64_t *value)
{
	assert_return(vs && name && value, -EINVAL);
	for (size_t i = 0; i < vs->count; i++)
		if (strcmp(vs->names[i], name) == 0) {
			*value = vs->values[i];
			return 0;
		}
	return -ENOENT;
}
