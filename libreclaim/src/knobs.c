// SPDX-License-Identifier: LGPL-2.1-or-later
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <strings.h>

#include <unistd.h>

#include "internal.h"

/* Default -1: computed by the kernel at boot. */
#define DEFAULT_COMPUTED (-1)

struct reclaim_knob {
	const char *name;
	const char *alias;
	const char *sysctl;
	const char *path;
	enum reclaim_unit unit;
	int64_t min, max, def;
	bool needs_patch;
	const char *description;
};

#define VM_KNOB(n) .name = #n, .sysctl = "vm." #n, .path = RECLAIM_SYSCTL_DIR "/" #n

/* Indexed by enum reclaim_knob_id, in its order. */
static const struct reclaim_knob knobs[] = {
    [RECLAIM_KNOB_KSWAPD_THREADS] = {VM_KNOB(kswapd_threads), .alias = "threads", .min = 1,
				     .max = 16, .def = 1, .needs_patch = true,
				     .description = "kswapd threads per NUMA node with memory"},
    [RECLAIM_KNOB_MAX_DIRECT_RECLAIMERS] =
	{VM_KNOB(max_direct_reclaimers), .alias = "throttle", .min = 0, .max = 1024, .def = 0,
	 .needs_patch = true,
	 .description = "tasks allowed in direct reclaim at once per node (0: unlimited)"},
    [RECLAIM_KNOB_SWAP_ROUND_ROBIN_QUOTA_KB] =
	{VM_KNOB(swap_round_robin_quota_kb), .alias = "swap-quota", .unit = RECLAIM_UNIT_KB,
	 .min = 0, .max = 1048576, .def = 2048, .needs_patch = true,
	 .description = "KiB taken from a swap device before rotating to the next of equal "
			"priority (0: every allocation)"},
    [RECLAIM_KNOB_SWAPPINESS] =
	{VM_KNOB(swappiness), .min = 0, .max = 200, .def = 60,
	 .description = "relative cost of swapping anonymous memory versus dropping file pages"},
    [RECLAIM_KNOB_WATERMARK_SCALE_FACTOR] =
	{VM_KNOB(watermark_scale_factor), .min = 1, .max = 3000, .def = 10,
	 .description = "distance between watermarks, in 1/10000 of memory"},
    [RECLAIM_KNOB_WATERMARK_BOOST_FACTOR] =
	{VM_KNOB(watermark_boost_factor), .min = 0, .max = INT_MAX, .def = 15000,
	 .description = "temporary watermark boost after fragmentation events, in 1/10000 of "
			"the high watermark"},
    [RECLAIM_KNOB_MIN_FREE_KBYTES] = {VM_KNOB(min_free_kbytes), .unit = RECLAIM_UNIT_KB, .min = 0,
				      .max = INT_MAX, .def = DEFAULT_COMPUTED,
				      .description = "memory kept free for atomic allocations"},
    [RECLAIM_KNOB_ZONE_RECLAIM_MODE] =
	{VM_KNOB(zone_reclaim_mode), .min = 0, .max = 7, .def = 0,
	 .description = "reclaim on the local node before allocating remotely (bit mask)"},
    /* the kernel's name has a hyphen; its limit is page_cluster_max, 31 */
    [RECLAIM_KNOB_PAGE_CLUSTER] = {.name = "page-cluster",
				   .sysctl = "vm.page-cluster",
				   .path = RECLAIM_SYSCTL_DIR "/page-cluster",
				   .min = 0,
				   .max = 31,
				   .def = 3,
				   .description = "swap pages read in one attempt, as a power of "
						  "two (0: one page)"},
    [RECLAIM_KNOB_VFS_CACHE_PRESSURE] =
	{VM_KNOB(vfs_cache_pressure), .min = 0, .max = INT_MAX, .def = 100,
	 .description = "reclaim of dentry and inode caches relative to the page cache "
			"(100: fair)"},
};
/* Every id has its entry: the last one is the table's last. */
_Static_assert(ARRAY_SIZE(knobs) == RECLAIM_KNOB_VFS_CACHE_PRESSURE + 1,
	       "enum reclaim_knob_id and the knob table differ");

RECLAIM_EXPORT size_t reclaim_knob_count(void)
{
	return ARRAY_SIZE(knobs);
}

RECLAIM_EXPORT const struct reclaim_knob *reclaim_knob_get(size_t idx)
{
	assert_return(idx < ARRAY_SIZE(knobs), NULL);
	return &knobs[idx];
}

RECLAIM_EXPORT const struct reclaim_knob *reclaim_knob_by_id(enum reclaim_knob_id id)
{
	assert_return((size_t)id < ARRAY_SIZE(knobs), NULL);
	return &knobs[id];
}

RECLAIM_EXPORT const struct reclaim_knob *reclaim_knob_find(const char *name)
{
	assert_return(name, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++) {
		const struct reclaim_knob *k = &knobs[i];

		if (strcmp(name, k->name) == 0 || strcmp(name, k->sysctl) == 0 ||
		    (k->alias && strcmp(name, k->alias) == 0))
			return k;
	}
	return NULL;
}

RECLAIM_EXPORT const char *reclaim_knob_name(const struct reclaim_knob *k)
{
	assert_return(k, NULL);
	return k->name;
}

RECLAIM_EXPORT const char *reclaim_knob_alias(const struct reclaim_knob *k)
{
	assert_return(k, NULL);
	return k->alias;
}

RECLAIM_EXPORT const char *reclaim_knob_sysctl(const struct reclaim_knob *k)
{
	assert_return(k, NULL);
	return k->sysctl;
}

RECLAIM_EXPORT const char *reclaim_knob_path(const struct reclaim_knob *k)
{
	assert_return(k, NULL);
	return k->path;
}

RECLAIM_EXPORT const char *reclaim_knob_description(const struct reclaim_knob *k)
{
	assert_return(k, NULL);
	return k->description;
}

RECLAIM_EXPORT enum reclaim_unit reclaim_knob_unit(const struct reclaim_knob *k)
{
	assert_return(k, RECLAIM_UNIT_NONE);
	return k->unit;
}

RECLAIM_EXPORT int64_t reclaim_knob_min(const struct reclaim_knob *k)
{
	assert_return(k, 0);
	return k->min;
}

RECLAIM_EXPORT int64_t reclaim_knob_max(const struct reclaim_knob *k)
{
	assert_return(k, 0);
	return k->max;
}

RECLAIM_EXPORT int64_t reclaim_knob_default(const struct reclaim_knob *k)
{
	assert_return(k, DEFAULT_COMPUTED);
	return k->def;
}

RECLAIM_EXPORT bool reclaim_knob_needs_patch(const struct reclaim_knob *k)
{
	assert_return(k, false);
	return k->needs_patch;
}

static int missing(struct reclaim_ctx *ctx, const struct reclaim_knob *k)
{
	if (k->needs_patch)
		return reclaim_error(
		    ctx, EOPNOTSUPP,
		    "this kernel has no %s (no %s): it needs reclaimctl's kernel patches (KNOBS in reclaimctl(8))",
		    k->sysctl, k->path);
	return reclaim_error(ctx, EOPNOTSUPP, "this kernel has no %s (no %s)", k->sysctl, k->path);
}

bool reclaim_knob_is_threads(const struct reclaim_knob *k)
{
	return k == &knobs[RECLAIM_KNOB_KSWAPD_THREADS];
}

RECLAIM_EXPORT int reclaim_knob_supported(struct reclaim_ctx *ctx, const struct reclaim_knob *k)
{
	assert_return(ctx && k, -EINVAL);
	return reclaim_exists(ctx, k->path) ? 1 : 0;
}

RECLAIM_EXPORT int reclaim_has_sysctls(struct reclaim_ctx *ctx)
{
	assert_return(ctx, -EINVAL);
	return reclaim_exists(ctx, RECLAIM_SYSCTL_DIR) ? 1 : 0;
}

RECLAIM_EXPORT int reclaim_knob_read(struct reclaim_ctx *ctx, const struct reclaim_knob *k,
				     int64_t *value)
{
	_cleanup_free_ char *line = NULL;
	int r;

	assert_return(ctx && k && value, -EINVAL);
	reclaim_error_reset(ctx);
	r = reclaim_read_line(ctx, k->path, &line);
	if (r == -ENOENT)
		return missing(ctx, k);
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read %s: %s", k->path,
				     reclaim_read_strerror(r));
	if (reclaim_parse_i64(line, value) < 0)
		return reclaim_error(ctx, EINVAL, "%s: malformed value '%s'", k->path, line);
	return 0;
}

static int range_error(struct reclaim_ctx *ctx, const struct reclaim_knob *k, int err,
		       const char *text)
{
	if (k->unit == RECLAIM_UNIT_KB)
		return reclaim_error(
		    ctx, err,
		    "invalid value '%s' for %s: expected a size in KiB from %" PRId64 " to %" PRId64
		    " (suffixes K, M, G)",
		    text, k->name, k->min, k->max);
	return reclaim_error(
	    ctx, err, "invalid value '%s' for %s: expected an integer from %" PRId64 " to %" PRId64,
	    text, k->name, k->min, k->max);
}

/* "2048", "512K", "2M", "1G" (also "2MiB", "2mb"): KiB. */
static int parse_size_kb(const char *s, int64_t *kb)
{
	static const struct {
		char c;
		int shift;
	} units[] = {{'k', 0}, {'m', 10}, {'g', 20}, {'t', 30}};
	char *end;
	long long v;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end == '\0') {
		*kb = v;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (tolower((unsigned char)*end) != units[i].c)
			continue;
		if (strcasecmp(end + 1, "") != 0 && strcasecmp(end + 1, "b") != 0 &&
		    strcasecmp(end + 1, "ib") != 0)
			return -EINVAL;
		if (v > (INT64_MAX >> units[i].shift))
			return -ERANGE;
		*kb = v << units[i].shift;
		return 0;
	}
	return -EINVAL;
}

static int parse_int(const char *s, int64_t *v)
{
	char *end;
	long long x;

	if (!isdigit((unsigned char)*s) && !(*s == '-' && isdigit((unsigned char)s[1])))
		return -EINVAL;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*v = x;
	return 0;
}

RECLAIM_EXPORT int reclaim_knob_parse(struct reclaim_ctx *ctx, const struct reclaim_knob *k,
				      const char *text, int64_t *value)
{
	int64_t v;
	int r;

	assert_return(ctx && k && text && value, -EINVAL);
	reclaim_error_reset(ctx);
	r = k->unit == RECLAIM_UNIT_KB ? parse_size_kb(text, &v) : parse_int(text, &v);
	if (r == 0 && (v < k->min || v > k->max))
		r = -ERANGE;
	if (r < 0)
		return range_error(ctx, k, -r, text);
	*value = v;
	return 0;
}

static int write_error(struct reclaim_ctx *ctx, const struct reclaim_knob *k, int64_t v, int err)
{
	switch (err) {
	case ENOENT:
		return missing(ctx, k);
	case EACCES:
	case EPERM:
		return reclaim_error(ctx, err, "cannot set %s=%" PRId64 ": permission denied%s",
				     k->sysctl, v,
				     geteuid() == 0 ? " (the file is read-only)" : " (needs root)");
	case EROFS:
		return reclaim_error(ctx, err,
				     "cannot set %s=%" PRId64 ": %s is read-only (in a container?)",
				     k->sysctl, v, k->path);
	case EINVAL:
		return reclaim_error(ctx, err,
				     "cannot set %s=%" PRId64 ": the kernel refused the value",
				     k->sysctl, v);
	default:
		return reclaim_error(ctx, err, "cannot set %s=%" PRId64 ": %s", k->sysctl, v,
				     strerror(err));
	}
}

int reclaim_knob_check(struct reclaim_ctx *ctx, const struct reclaim_knob *k, int64_t value)
{
	char buf[32];

	if (value >= k->min && value <= k->max)
		return 0;
	snprintf(buf, sizeof(buf), "%" PRId64, value);
	return range_error(ctx, k, ERANGE, buf);
}

int reclaim_knob_store(struct reclaim_ctx *ctx, const struct reclaim_knob *k, int64_t value)
{
	char buf[32];
	int r;

	r = reclaim_knob_check(ctx, k, value);
	if (r < 0)
		return r;
	snprintf(buf, sizeof(buf), "%" PRId64 "\n", value);
	r = reclaim_write_string(ctx, k->path, buf);
	return r < 0 ? write_error(ctx, k, value, -r) : 0;
}
