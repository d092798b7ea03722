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
	enum reclaim_knob_type type;
	int64_t min, max, def;
	/* a bool's names for 0 and 1; a choice's names, the value's index */
	const char *const *names;
	bool needs_patch;
	const char *description;
};

#define VM_KNOB(n) .name = #n, .sysctl = "vm." #n, .path = RECLAIM_SYSCTL_DIR "/" #n

#define LRU_GEN_DIR "/sys/kernel/mm/lru_gen/"
#define ZSWAP_DIR   "/sys/module/zswap/parameters/"

/* param_get_bool()'s, and sysfs_emit()'s of str_true_false() */
static const char *const yes_no[] = {"N", "Y", NULL};
static const char *const true_false[] = {"false", "true", NULL};
/* the compressors of zswap's Kconfig, and lzo-rle, zram's default */
static const char *const compressors[] = {"deflate", "lzo",   "lzo-rle", "842",
					  "lz4",     "lz4hc", "zstd",	 NULL};
#define CHOICES(list) .type = RECLAIM_KNOB_TYPE_CHOICE, .names = list, .max = ARRAY_SIZE(list) - 2
#define BOOLEAN(list) .type = RECLAIM_KNOB_TYPE_BOOL, .names = list, .max = 1

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
    /* Documentation/admin-guide/mm/multigen_lru.rst: 0x0001 the core, 0x0002
     * walking page tables, 0x0004 clearing the accessed bit of non-leaf PMDs */
    [RECLAIM_KNOB_LRU_GEN_ENABLED] = {.name = "lru_gen_enabled",
				      .alias = "mglru",
				      .path = LRU_GEN_DIR "enabled",
				      .type = RECLAIM_KNOB_TYPE_FLAGS,
				      .max = 7,
				      .def = DEFAULT_COMPUTED,
				      .description = "multi-gen LRU features in use (bit mask; "
						     "0x0000: the classic LRU)"},
    /* kept in jiffies: a value that is not a whole number of them reads back rounded up */
    [RECLAIM_KNOB_LRU_GEN_MIN_TTL_MS] =
	{.name = "lru_gen_min_ttl_ms",
	 .path = LRU_GEN_DIR "min_ttl_ms",
	 .max = UINT_MAX,
	 .def = 0,
	 .description = "ms the working set is protected from eviction; out of memory "
			"kills instead (0: off)"},
    [RECLAIM_KNOB_ZSWAP_ENABLED] = {.name = "zswap_enabled",
				    .alias = "zswap",
				    .path = ZSWAP_DIR "enabled",
				    BOOLEAN(yes_no),
				    .def = DEFAULT_COMPUTED,
				    .description = "compressed cache in memory in front of swap"},
    [RECLAIM_KNOB_ZSWAP_COMPRESSOR] = {.name = "zswap_compressor",
				       .path = ZSWAP_DIR "compressor",
				       CHOICES(compressors),
				       .def = DEFAULT_COMPUTED,
				       .description = "compression algorithm of zswap"},
    [RECLAIM_KNOB_ZSWAP_MAX_POOL_PERCENT] = {.name = "zswap_max_pool_percent",
					     .path = ZSWAP_DIR "max_pool_percent",
					     .max = 100,
					     .def = 20,
					     .description = "% of memory zswap's pool may take"},
    [RECLAIM_KNOB_ZSWAP_ACCEPT_THRESHOLD_PERCENT] =
	{.name = "zswap_accept_threshold_percent",
	 .path = ZSWAP_DIR "accept_threshold_percent",
	 .max = 100,
	 .def = 90,
	 .description = "% of the full pool it must shrink to before zswap stores again"},
    [RECLAIM_KNOB_ZSWAP_SHRINKER_ENABLED] = {.name = "zswap_shrinker_enabled",
					     .path = ZSWAP_DIR "shrinker_enabled",
					     BOOLEAN(yes_no),
					     .def = DEFAULT_COMPUTED,
					     .description = "write cold zswap pages to the swap "
							    "device under memory pressure"},
    [RECLAIM_KNOB_NUMA_DEMOTION_ENABLED] = {.name = "numa_demotion_enabled",
					    .alias = "demotion",
					    .path = "/sys/kernel/mm/numa/demotion_enabled",
					    BOOLEAN(true_false),
					    .def = 0,
					    .description =
						"reclaim migrates pages to a slower memory "
						"tier instead of dropping them"},
};
/* Every id has its entry: the last one is the table's last. */
_Static_assert(ARRAY_SIZE(knobs) == RECLAIM_KNOB_NUMA_DEMOTION_ENABLED + 1,
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

		if (strcmp(name, k->name) == 0 || (k->sysctl && strcmp(name, k->sysctl) == 0) ||
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

RECLAIM_EXPORT const char *reclaim_knob_label(const struct reclaim_knob *k)
{
	assert_return(k, NULL);
	return k->sysctl ?: k->path;
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

RECLAIM_EXPORT const char *reclaim_knob_persist_file(const struct reclaim_knob *k)
{
	assert_return(k, NULL);
	return k->sysctl ? RECLAIM_PERSIST_FILE : RECLAIM_PERSIST_TMPFILES;
}

RECLAIM_EXPORT enum reclaim_knob_type reclaim_knob_type(const struct reclaim_knob *k)
{
	assert_return(k, RECLAIM_KNOB_TYPE_INT);
	return k->type;
}

RECLAIM_EXPORT size_t reclaim_knob_choice_count(const struct reclaim_knob *k)
{
	assert_return(k, 0);
	return k->type == RECLAIM_KNOB_TYPE_CHOICE ? (size_t)k->max + 1 : 0;
}

RECLAIM_EXPORT const char *reclaim_knob_choice(const struct reclaim_knob *k, size_t idx)
{
	assert_return(k && idx < reclaim_knob_choice_count(k), NULL);
	return k->names[idx];
}

RECLAIM_EXPORT const char *reclaim_knob_format(const struct reclaim_knob *k, int64_t value,
					       char *buf, size_t size)
{
	assert_return(k && buf && size > 0, NULL);
	if (value < k->min || value > k->max || k->type == RECLAIM_KNOB_TYPE_INT)
		snprintf(buf, size, "%" PRId64, value);
	else if (k->type == RECLAIM_KNOB_TYPE_FLAGS)
		snprintf(buf, size, "0x%04" PRIx64, (uint64_t)value);
	else
		snprintf(buf, size, "%s", k->names[value]);
	return buf;
}

static int missing(struct reclaim_ctx *ctx, const struct reclaim_knob *k)
{
	if (k->needs_patch)
		return reclaim_error(
		    ctx, EOPNOTSUPP,
		    "this kernel has no %s (no %s): it needs reclaimctl's kernel patches (KNOBS in reclaimctl(8))",
		    k->sysctl, k->path);
	if (!k->sysctl)
		return reclaim_error(ctx, EOPNOTSUPP, "this kernel has no %s (no %s)", k->name,
				     k->path);
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

/* A name of @names, as its index. */
static int parse_name(const char *const *names, const char *s, bool icase, int64_t *v)
{
	for (size_t i = 0; names[i]; i++)
		if ((icase ? strcasecmp : strcmp)(s, names[i]) == 0) {
			*v = (int64_t)i;
			return 0;
		}
	return -EINVAL;
}

/* kstrtobool()'s words, whole: 1/0, y/n, yes/no, true/false, on/off. */
static int parse_bool(const char *s, int64_t *v)
{
	static const char *const no[] = {"0", "n", "no", "false", "off", NULL};
	static const char *const yes[] = {"1", "y", "yes", "true", "on", NULL};
	int64_t i;

	if (parse_name(yes, s, true, &i) == 0)
		*v = 1;
	else if (parse_name(no, s, true, &i) == 0)
		*v = 0;
	else
		return -EINVAL;
	return 0;
}

/* kstrtouint(s, 0): decimal, 0x hex or 0 octal. */
static int parse_mask(const char *s, int64_t *v)
{
	char *end;
	unsigned long long x;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno == ERANGE || x > INT64_MAX)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*v = (int64_t)x;
	return 0;
}

int reclaim_knob_parse_shown(const struct reclaim_knob *k, const char *text, int64_t *v)
{
	char s[RECLAIM_KNOB_TEXT_MAX];
	size_t len = strlen(text);

	/* the file's text as read, with its newline */
	while (len > 0 && isspace((unsigned char)text[len - 1]))
		len--;
	if (len >= sizeof(s))
		return -EINVAL;
	memcpy(s, text, len);
	s[len] = '\0';
	switch (k->type) {
	case RECLAIM_KNOB_TYPE_BOOL:
		return parse_bool(s, v);
	case RECLAIM_KNOB_TYPE_FLAGS:
		return parse_mask(s, v);
	case RECLAIM_KNOB_TYPE_CHOICE:
		return parse_name(k->names, s, false, v);
	default:
		return reclaim_parse_i64(s, v);
	}
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
	if (reclaim_knob_parse_shown(k, line, value) < 0)
		return reclaim_error(ctx, EINVAL, "%s: malformed value '%s'", k->path, line);
	return 0;
}

static int range_error(struct reclaim_ctx *ctx, const struct reclaim_knob *k, int err,
		       const char *text)
{
	if (k->type == RECLAIM_KNOB_TYPE_BOOL)
		return reclaim_error(ctx, err,
				     "invalid value '%s' for %s: expected %s or %s (also 1 or 0, "
				     "yes or no, on or off)",
				     text, k->name, k->names[1], k->names[0]);
	if (k->type == RECLAIM_KNOB_TYPE_FLAGS)
		return reclaim_error(
		    ctx, err,
		    "invalid value '%s' for %s: expected y, n or a bit mask from 0x%04" PRIx64
		    " to 0x%04" PRIx64,
		    text, k->name, (uint64_t)k->min, (uint64_t)k->max);
	if (k->type == RECLAIM_KNOB_TYPE_CHOICE) {
		char list[256] = "";

		for (size_t i = 0; k->names[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? ", " : "", k->names[i]);
		return reclaim_error(ctx, err, "invalid value '%s' for %s: expected one of %s",
				     text, k->name, list);
	}
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

/* What a user may write: a size with a suffix, a boolean's words, y or n for all or no flags. */
static int parse_input(const struct reclaim_knob *k, const char *s, int64_t *v)
{
	switch (k->type) {
	case RECLAIM_KNOB_TYPE_BOOL:
		return parse_bool(s, v);
	case RECLAIM_KNOB_TYPE_FLAGS:
		if (strcasecmp(s, "y") == 0 || strcasecmp(s, "n") == 0) {
			*v = tolower((unsigned char)*s) == 'y' ? k->max : 0;
			return 0;
		}
		return parse_mask(s, v);
	case RECLAIM_KNOB_TYPE_CHOICE:
		return parse_name(k->names, s, false, v);
	default:
		return k->unit == RECLAIM_UNIT_KB ? parse_size_kb(s, v) : parse_int(s, v);
	}
}

int reclaim_knob_parse_written(const struct reclaim_knob *k, const char *text, int64_t *v)
{
	int64_t x;
	int r = k->sysctl ? reclaim_parse_i64(text, &x) : parse_input(k, text, &x);

	if (r == 0 && (x < k->min || x > k->max))
		r = -ERANGE;
	if (r == 0)
		*v = x;
	return r;
}

RECLAIM_EXPORT int reclaim_knob_parse(struct reclaim_ctx *ctx, const struct reclaim_knob *k,
				      const char *text, int64_t *value)
{
	int64_t v;
	int r;

	assert_return(ctx && k && text && value, -EINVAL);
	reclaim_error_reset(ctx);
	r = parse_input(k, text, &v);
	if (r == 0 && (v < k->min || v > k->max))
		r = -ERANGE;
	if (r < 0)
		return range_error(ctx, k, -r, text);
	*value = v;
	return 0;
}

static int write_error(struct reclaim_ctx *ctx, const struct reclaim_knob *k, int64_t value,
		       int err)
{
	const char *label = reclaim_knob_label(k);
	char v[RECLAIM_KNOB_TEXT_MAX];

	reclaim_knob_format(k, value, v, sizeof(v));
	switch (err) {
	case ENOENT:
		/* zswap's answer for a compressor the kernel does not have */
		if (k->type == RECLAIM_KNOB_TYPE_CHOICE && reclaim_exists(ctx, k->path))
			return reclaim_error(ctx, err,
					     "cannot set %s=%s: the kernel has no %s (not built, "
					     "or its module is not available)",
					     label, v, v);
		return missing(ctx, k);
	case EACCES:
	case EPERM:
		return reclaim_error(ctx, err, "cannot set %s=%s: permission denied%s", label, v,
				     geteuid() == 0 ? " (the file is read-only)" : " (needs root)");
	case EROFS:
		return reclaim_error(ctx, err,
				     "cannot set %s=%s: %s is read-only (in a container?)", label,
				     v, k->path);
	case EINVAL:
		return reclaim_error(ctx, err, "cannot set %s=%s: the kernel refused the value",
				     label, v);
	default:
		return reclaim_error(ctx, err, "cannot set %s=%s: %s", label, v, strerror(err));
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
	char buf[RECLAIM_KNOB_TEXT_MAX + 1];
	int r;

	r = reclaim_knob_check(ctx, k, value);
	if (r < 0)
		return r;
	reclaim_knob_format(k, value, buf, sizeof(buf) - 1);
	strcat(buf, "\n");
	r = reclaim_write_string(ctx, k->path, buf);
	return r < 0 ? write_error(ctx, k, value, -r) : 0;
}
