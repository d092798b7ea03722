// SPDX-License-Identifier: LGPL-2.1-or-later
/* The knob table, value parsing and range checks, single knob reads and writes. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "internal.h"
#include "tmproot.h"

static void test_table_shape(void **state)
{
	size_t n = reclaim_knob_count();

	assert_true(n >= 3);
	for (size_t i = 0; i < n; i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		const char *name = reclaim_knob_name(k);
		char want[128];

		assert_non_null(k);
		assert_non_null(name);
		assert_true(name[0] != '\0');
		if (strncmp(reclaim_knob_path(k), "/sys/", 5) == 0) {
			/* a file of sysfs: no sysctl name; messages name it by path */
			assert_null(reclaim_knob_sysctl(k));
			assert_string_equal(reclaim_knob_label(k), reclaim_knob_path(k));
		} else {
			snprintf(want, sizeof(want), "vm.%s", name);
			assert_string_equal(reclaim_knob_sysctl(k), want);
			assert_string_equal(reclaim_knob_label(k), want);
			snprintf(want, sizeof(want), "/proc/sys/vm/%s", name);
			assert_string_equal(reclaim_knob_path(k), want);
			assert_int_equal(reclaim_knob_type(k), RECLAIM_KNOB_TYPE_INT);
		}
		/* a choice has a name for every value of its range, a boolean is 0..1 */
		if (reclaim_knob_type(k) == RECLAIM_KNOB_TYPE_CHOICE) {
			assert_int_equal(reclaim_knob_min(k), 0);
			assert_int_equal(reclaim_knob_choice_count(k), reclaim_knob_max(k) + 1);
			for (size_t c = 0; c < reclaim_knob_choice_count(k); c++)
				assert_non_null(reclaim_knob_choice(k, c));
			assert_null(reclaim_knob_choice(k, reclaim_knob_choice_count(k)));
		} else {
			assert_int_equal(reclaim_knob_choice_count(k), 0);
		}
		if (reclaim_knob_type(k) == RECLAIM_KNOB_TYPE_BOOL)
			assert_true(reclaim_knob_min(k) == 0 && reclaim_knob_max(k) == 1);
		assert_non_null(reclaim_knob_description(k));
		assert_true(reclaim_knob_description(k)[0] != '\0');
		assert_true(reclaim_knob_min(k) <= reclaim_knob_max(k));
		assert_true(reclaim_knob_min(k) >= 0);
		/* -1: computed by the kernel at boot; otherwise within the range. */
		if (reclaim_knob_default(k) >= 0) {
			assert_true(reclaim_knob_min(k) <= reclaim_knob_default(k));
			assert_true(reclaim_knob_default(k) <= reclaim_knob_max(k));
		} else {
			assert_int_equal(reclaim_knob_default(k), -1);
		}
		assert_true(reclaim_knob_unit(k) == RECLAIM_UNIT_NONE ||
			    reclaim_knob_unit(k) == RECLAIM_UNIT_KB);
		/* Names, sysctl names and aliases all find this very knob. */
		assert_ptr_equal(reclaim_knob_find(name), k);
		if (reclaim_knob_sysctl(k))
			assert_ptr_equal(reclaim_knob_find(reclaim_knob_sysctl(k)), k);
		if (reclaim_knob_alias(k))
			assert_ptr_equal(reclaim_knob_find(reclaim_knob_alias(k)), k);
		/* No two knobs share a name or alias. */
		for (size_t j = 0; j < i; j++) {
			const struct reclaim_knob *o = reclaim_knob_get(j);

			assert_string_not_equal(reclaim_knob_name(o), name);
			if (reclaim_knob_alias(k) && reclaim_knob_alias(o))
				assert_string_not_equal(reclaim_knob_alias(o),
							reclaim_knob_alias(k));
		}
	}
	assert_null(reclaim_knob_get(n));
}

static void test_patch_knobs(void **state)
{
	/* The kernel interface contract of DESIGN.md. */
	static const struct {
		const char *name, *alias;
		enum reclaim_unit unit;
		int64_t min, max, def;
	} want[] = {
	    {"kswapd_threads", "threads", RECLAIM_UNIT_NONE, 1, 16, 1},
	    {"max_direct_reclaimers", "throttle", RECLAIM_UNIT_NONE, 0, 1024, 0},
	    {"swap_round_robin_quota_kb", "swap-quota", RECLAIM_UNIT_KB, 0, 1048576, 2048},
	};

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const struct reclaim_knob *k = knob(want[i].name);

		assert_string_equal(reclaim_knob_alias(k), want[i].alias);
		assert_int_equal(reclaim_knob_unit(k), want[i].unit);
		assert_int_equal(reclaim_knob_min(k), want[i].min);
		assert_int_equal(reclaim_knob_max(k), want[i].max);
		assert_int_equal(reclaim_knob_default(k), want[i].def);
		assert_true(reclaim_knob_needs_patch(k));
	}
	assert_false(reclaim_knob_needs_patch(knob("swappiness")));
	assert_false(reclaim_knob_needs_patch(knob("min_free_kbytes")));
	assert_int_equal(reclaim_knob_default(knob("min_free_kbytes")), -1);
	assert_int_equal(reclaim_knob_unit(knob("min_free_kbytes")), RECLAIM_UNIT_KB);
}

static void test_find(void **state)
{
	const struct reclaim_knob *threads = knob("kswapd_threads");

	assert_ptr_equal(reclaim_knob_find("vm.kswapd_threads"), threads);
	assert_ptr_equal(reclaim_knob_find("threads"), threads);
	assert_ptr_equal(reclaim_knob_find("throttle"), knob("max_direct_reclaimers"));
	assert_ptr_equal(reclaim_knob_find("vm.max_direct_reclaimers"),
			 knob("max_direct_reclaimers"));
	assert_ptr_equal(reclaim_knob_find("swap-quota"), knob("swap_round_robin_quota_kb"));
	assert_string_equal(reclaim_knob_name(reclaim_knob_find("vm.swappiness")), "swappiness");
	assert_ptr_equal(reclaim_knob_find("mglru"), knob("lru_gen_enabled"));
	assert_ptr_equal(reclaim_knob_find("zswap"), knob("zswap_enabled"));
	assert_ptr_equal(reclaim_knob_find("demotion"), knob("numa_demotion_enabled"));
	/* a knob of sysfs has no sysctl name to find it by, nor its path */
	assert_null(reclaim_knob_find("vm.zswap_enabled"));
	assert_null(reclaim_knob_find("/sys/module/zswap/parameters/enabled"));

	assert_null(reclaim_knob_find(""));
	assert_null(reclaim_knob_find("vm."));
	assert_null(reclaim_knob_find("kswapd"));
	assert_null(reclaim_knob_find("kswapd_threads "));
	assert_null(reclaim_knob_find("KSWAPD_THREADS"));
	assert_null(reclaim_knob_find("vm.threads"));
	assert_null(reclaim_knob_find("/proc/sys/vm/kswapd_threads"));
	assert_null(reclaim_knob_find("kernel.kswapd_threads"));
	assert_null(reclaim_knob_find(NULL));
}

static void test_by_id(void **state)
{
	/* Each id names the knob of its name, at its index in the table. */
	static const struct {
		enum reclaim_knob_id id;
		const char *name;
	} want[] = {
	    {RECLAIM_KNOB_KSWAPD_THREADS, "kswapd_threads"},
	    {RECLAIM_KNOB_MAX_DIRECT_RECLAIMERS, "max_direct_reclaimers"},
	    {RECLAIM_KNOB_SWAP_ROUND_ROBIN_QUOTA_KB, "swap_round_robin_quota_kb"},
	    {RECLAIM_KNOB_SWAPPINESS, "swappiness"},
	    {RECLAIM_KNOB_WATERMARK_SCALE_FACTOR, "watermark_scale_factor"},
	    {RECLAIM_KNOB_WATERMARK_BOOST_FACTOR, "watermark_boost_factor"},
	    {RECLAIM_KNOB_MIN_FREE_KBYTES, "min_free_kbytes"},
	    {RECLAIM_KNOB_ZONE_RECLAIM_MODE, "zone_reclaim_mode"},
	    {RECLAIM_KNOB_PAGE_CLUSTER, "page-cluster"},
	    {RECLAIM_KNOB_VFS_CACHE_PRESSURE, "vfs_cache_pressure"},
	    {RECLAIM_KNOB_LRU_GEN_ENABLED, "lru_gen_enabled"},
	    {RECLAIM_KNOB_LRU_GEN_MIN_TTL_MS, "lru_gen_min_ttl_ms"},
	    {RECLAIM_KNOB_ZSWAP_ENABLED, "zswap_enabled"},
	    {RECLAIM_KNOB_ZSWAP_COMPRESSOR, "zswap_compressor"},
	    {RECLAIM_KNOB_ZSWAP_MAX_POOL_PERCENT, "zswap_max_pool_percent"},
	    {RECLAIM_KNOB_ZSWAP_ACCEPT_THRESHOLD_PERCENT, "zswap_accept_threshold_percent"},
	    {RECLAIM_KNOB_ZSWAP_SHRINKER_ENABLED, "zswap_shrinker_enabled"},
	    {RECLAIM_KNOB_NUMA_DEMOTION_ENABLED, "numa_demotion_enabled"},
	};

	assert_int_equal(ARRAY_SIZE(want), reclaim_knob_count());
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const struct reclaim_knob *k = reclaim_knob_by_id(want[i].id);

		assert_int_equal(want[i].id, i);
		assert_ptr_equal(k, reclaim_knob_get(i));
		assert_ptr_equal(k, knob(want[i].name));
		assert_string_equal(reclaim_knob_name(k), want[i].name);
	}
	assert_null(reclaim_knob_by_id((enum reclaim_knob_id)reclaim_knob_count()));
	assert_null(reclaim_knob_by_id((enum reclaim_knob_id) - 1));
}

static void test_null_knob(void **state)
{
	assert_null(reclaim_knob_name(NULL));
	assert_null(reclaim_knob_path(NULL));
	assert_int_equal(reclaim_knob_min(NULL), 0);
	assert_int_equal(reclaim_knob_max(NULL), 0);
	assert_int_equal(reclaim_knob_default(NULL), -1);
	assert_false(reclaim_knob_needs_patch(NULL));
}

struct parse_case {
	const char *text;
	int r;
	int64_t value;
};

static void check_parse(const char *name, const struct parse_case *cases, size_t n)
{
	const struct reclaim_knob *k = knob(name);
	struct reclaim_ctx *ctx;

	assert_int_equal(reclaim_new(&ctx, NULL), 0);
	for (size_t i = 0; i < n; i++) {
		int64_t v = -424242;
		int r = reclaim_knob_parse(ctx, k, cases[i].text, &v);

		if (r != cases[i].r)
			fail_msg("%s \"%s\": got %d, want %d", name, cases[i].text, r, cases[i].r);
		if (r == 0 && v != cases[i].value)
			fail_msg("%s \"%s\": got %" PRId64 ", want %" PRId64, name, cases[i].text,
				 v, cases[i].value);
		if (r < 0 && v != -424242)
			fail_msg("%s \"%s\": value changed on failure", name, cases[i].text);
	}
	reclaim_unref(ctx);
}

static void test_parse_threads(void **state)
{
	static const struct parse_case cases[] = {
	    {"1", 0, 1},
	    {"4", 0, 4},
	    {"16", 0, 16},
	    {"0", -ERANGE, 0},
	    {"17", -ERANGE, 0},
	    {"-1", -ERANGE, 0},
	    {"abc", -EINVAL, 0},
	    {"4x", -EINVAL, 0},
	    {"", -EINVAL, 0},
	    {" 4", -EINVAL, 0},
	    {"4 ", -EINVAL, 0},
	    {"4\n", -EINVAL, 0},
	    {"+4", -EINVAL, 0},
	    {"0x4", -EINVAL, 0},
	    {"4.0", -EINVAL, 0},
	    {"-", -EINVAL, 0},
	    {"4M", -EINVAL, 0},
	    {"99999999999999999999", -ERANGE, 0},
	    {"-99999999999999999999", -ERANGE, 0},
	    {"9223372036854775807", -ERANGE, 0},
	    {"004", 0, 4},
	};

	check_parse("threads", cases, ARRAY_SIZE(cases));
}

static void test_parse_throttle(void **state)
{
	static const struct parse_case cases[] = {
	    {"0", 0, 0},	  {"3", 0, 3},	      {"1024", 0, 1024},
	    {"1025", -ERANGE, 0}, {"-1", -ERANGE, 0}, {"auto", -EINVAL, 0},
	};

	check_parse("throttle", cases, ARRAY_SIZE(cases));
}

static void test_parse_sizes(void **state)
{
	static const struct parse_case cases[] = {
	    {"2048", 0, 2048},
	    {"0", 0, 0},
	    {"2M", 0, 2048},
	    {"512K", 0, 512},
	    {"512k", 0, 512},
	    {"1G", 0, 1048576},
	    {"1g", 0, 1048576},
	    {"2MiB", 0, 2048},
	    {"2mb", 0, 2048},
	    {"2MB", 0, 2048},
	    {"2mib", 0, 2048},
	    {"64KiB", 0, 64},
	    {"0M", 0, 0},
	    {"1024M", 0, 1048576},
	    {"1048576", 0, 1048576},
	    {"1025M", -ERANGE, 0},
	    {"1048577", -ERANGE, 0},
	    {"2G", -ERANGE, 0},
	    {"1T", -ERANGE, 0},
	    {"99999999999999999999", -ERANGE, 0},
	    {"99999999999999999999M", -ERANGE, 0},
	    /* fits in int64 as KiB, not once shifted */
	    {"9223372036854775807G", -ERANGE, 0},
	    {"9007199254740992M", -ERANGE, 0},
	    {"2X", -EINVAL, 0},
	    {"2Mi", -EINVAL, 0},
	    {"2MBs", -EINVAL, 0},
	    {"2 M", -EINVAL, 0},
	    {"M", -EINVAL, 0},
	    {"", -EINVAL, 0},
	    {" 2M", -EINVAL, 0},
	    {"2M ", -EINVAL, 0},
	    {"-1", -EINVAL, 0},
	    {"-2M", -EINVAL, 0},
	    {"2.5M", -EINVAL, 0},
	    {"abc", -EINVAL, 0},
	};

	check_parse("swap-quota", cases, ARRAY_SIZE(cases));
}

static void test_parse_error_messages(void **state)
{
	struct reclaim_ctx *ctx;
	int64_t v;

	assert_int_equal(reclaim_new(&ctx, NULL), 0);
	assert_string_equal(reclaim_strerror(ctx), "no error");

	assert_int_equal(reclaim_knob_parse(ctx, knob("threads"), "20", &v), -ERANGE);
	assert_string_equal(
	    reclaim_strerror(ctx),
	    "invalid value '20' for kswapd_threads: expected an integer from 1 to 16");
	assert_int_equal(reclaim_knob_parse(ctx, knob("threads"), "abc", &v), -EINVAL);
	assert_string_equal(
	    reclaim_strerror(ctx),
	    "invalid value 'abc' for kswapd_threads: expected an integer from 1 to 16");
	assert_int_equal(reclaim_knob_parse(ctx, knob("swap-quota"), "1025M", &v), -ERANGE);
	assert_string_equal(
	    reclaim_strerror(ctx),
	    "invalid value '1025M' for swap_round_robin_quota_kb: expected a size in "
	    "KiB from 0 to 1048576 (suffixes K, M, G)");

	/* A call forgets the text of an earlier failure: no message is ever stale. */
	assert_int_equal(reclaim_knob_parse(ctx, knob("threads"), "4", &v), 0);
	assert_int_equal(v, 4);
	assert_string_equal(reclaim_strerror(ctx), "no error");

	assert_int_equal(reclaim_knob_parse(NULL, knob("threads"), "4", &v), -EINVAL);
	assert_int_equal(reclaim_knob_parse(ctx, NULL, "4", &v), -EINVAL);
	assert_int_equal(reclaim_knob_parse(ctx, knob("threads"), NULL, &v), -EINVAL);
	reclaim_unref(ctx);
}

/* Reads and writes of single knobs, on a temporary root. */
struct vmroot {
	char *root;
	struct reclaim_ctx *ctx;
};

static int vmroot_setup(void **state)
{
	struct vmroot *vr = calloc(1, sizeof(*vr));

	assert_non_null(vr);
	vr->root = tmproot_new();
	tmproot_write(vr->root, "/proc/sys/vm/kswapd_threads", "1\n");
	tmproot_write(vr->root, "/proc/sys/vm/swap_round_robin_quota_kb", "2048\n");
	tmproot_write(vr->root, "/proc/sys/vm/swappiness", "60\n");
	assert_int_equal(reclaim_new(&vr->ctx, vr->root), 0);
	*state = vr;
	return 0;
}

static int vmroot_teardown(void **state)
{
	struct vmroot *vr = *state;

	reclaim_unref(vr->ctx);
	tmproot_remove(vr->root);
	free(vr);
	return 0;
}

/* kstrtobool()'s words, whole; the kernel's own Y/N and true/false. */
static void test_parse_bool(void **state)
{
	static const struct parse_case cases[] = {
	    {"Y", 0, 1},	  {"N", 0, 0},	      {"y", 0, 1},	{"n", 0, 0},
	    {"yes", 0, 1},	  {"no", 0, 0},	      {"true", 0, 1},	{"false", 0, 0},
	    {"on", 0, 1},	  {"off", 0, 0},      {"1", 0, 1},	{"0", 0, 0},
	    {"TRUE", 0, 1},	  {"2", -EINVAL, 0},  {"", -EINVAL, 0}, {"maybe", -EINVAL, 0},
	    {"yess", -EINVAL, 0}, {" Y", -EINVAL, 0},
	};

	(void)state;
	check_parse("zswap_enabled", cases, ARRAY_SIZE(cases));
	check_parse("demotion", cases, ARRAY_SIZE(cases));
}

/* MGLRU's enabled: y (every feature), n (none), or a number as kstrtouint(s, 0) reads it. */
static void test_parse_flags(void **state)
{
	static const struct parse_case cases[] = {
	    {"y", 0, 7},	{"Y", 0, 7},	     {"n", 0, 0},
	    {"0x0007", 0, 7},	{"0x0001", 0, 1},    {"5", 0, 5},
	    {"0", 0, 0},	{"07", 0, 7},	     {"0x0008", -ERANGE, 0},
	    {"8", -ERANGE, 0},	{"-1", -EINVAL, 0},  {"0x", -EINVAL, 0},
	    {"7a", -EINVAL, 0}, {"yes", -EINVAL, 0}, {"", -EINVAL, 0},
	};

	(void)state;
	check_parse("mglru", cases, ARRAY_SIZE(cases));
}

static void test_parse_choice(void **state)
{
	static const struct parse_case cases[] = {
	    {"deflate", 0, 0},	  {"lzo", 0, 1},     {"lzo-rle", 0, 2}, {"842", 0, 3},
	    {"lz4", 0, 4},	  {"lz4hc", 0, 5},   {"zstd", 0, 6},	{"LZ4", -EINVAL, 0},
	    {"gzip", -EINVAL, 0}, {"4", -EINVAL, 0}, {"", -EINVAL, 0},	{"lz4 ", -EINVAL, 0},
	};

	(void)state;
	check_parse("zswap_compressor", cases, ARRAY_SIZE(cases));
}

static void test_parse_uint_and_percent(void **state)
{
	static const struct parse_case ttl[] = {
	    {"0", 0, 0},
	    {"1000", 0, 1000},
	    {"4294967295", 0, 4294967295},
	    {"4294967296", -ERANGE, 0},
	    {"-1", -ERANGE, 0},
	    {"1s", -EINVAL, 0},
	};
	static const struct parse_case percent[] = {
	    {"0", 0, 0}, {"100", 0, 100}, {"101", -ERANGE, 0}, {"20%", -EINVAL, 0}};

	(void)state;
	check_parse("lru_gen_min_ttl_ms", ttl, ARRAY_SIZE(ttl));
	check_parse("zswap_max_pool_percent", percent, ARRAY_SIZE(percent));
	check_parse("zswap_accept_threshold_percent", percent, ARRAY_SIZE(percent));
}

static void check_format(const char *name, int64_t v, const char *want)
{
	char buf[RECLAIM_KNOB_TEXT_MAX];

	assert_ptr_equal(reclaim_knob_format(knob(name), v, buf, sizeof(buf)), buf);
	assert_string_equal(buf, want);
}

static void test_format(void **state)
{
	(void)state;
	check_format("threads", 4, "4");
	check_format("swap-quota", 2048, "2048");
	check_format("zswap_enabled", 1, "Y");
	check_format("zswap_enabled", 0, "N");
	check_format("zswap_shrinker_enabled", 1, "Y");
	check_format("demotion", 1, "true");
	check_format("demotion", 0, "false");
	check_format("mglru", 7, "0x0007");
	check_format("mglru", 0, "0x0000");
	check_format("zswap_compressor", 4, "lz4");
	check_format("zswap_compressor", 2, "lzo-rle");
	/* outside the range (a damaged record): the number */
	check_format("zswap_compressor", 7, "7");
	check_format("demotion", -1, "-1");
	check_format("mglru", 8, "8");
	/* every parsed text formats back to what parses to the same value */
	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		struct reclaim_ctx *ctx;
		char buf[RECLAIM_KNOB_TEXT_MAX];
		int64_t v;

		assert_int_equal(reclaim_new(&ctx, NULL), 0);
		assert_int_equal(
		    reclaim_knob_parse(
			ctx, k, reclaim_knob_format(k, reclaim_knob_max(k), buf, sizeof(buf)), &v),
		    0);
		assert_int_equal(v, reclaim_knob_max(k));
		reclaim_unref(ctx);
	}
}

static void check_error(const char *name, const char *text, const char *want)
{
	struct reclaim_ctx *ctx;
	int64_t v;

	assert_int_equal(reclaim_new(&ctx, NULL), 0);
	assert_true(reclaim_knob_parse(ctx, knob(name), text, &v) < 0);
	assert_string_equal(reclaim_strerror(ctx), want);
	reclaim_unref(ctx);
}

static void test_parse_type_messages(void **state)
{
	(void)state;
	check_error("zswap", "maybe",
		    "invalid value 'maybe' for zswap_enabled: expected Y or N (also 1 or 0, yes or "
		    "no, on or off)");
	check_error(
	    "demotion", "2",
	    "invalid value '2' for numa_demotion_enabled: expected true or false (also 1 or "
	    "0, yes or no, on or off)");
	check_error("mglru", "0x10",
		    "invalid value '0x10' for lru_gen_enabled: expected y, n or a bit mask from "
		    "0x0000 to 0x0007");
	check_error("zswap_compressor", "gzip",
		    "invalid value 'gzip' for zswap_compressor: expected one of deflate, lzo, "
		    "lzo-rle, 842, lz4, lz4hc, zstd");
}

static void test_supported(void **state)
{
	struct vmroot *vr = *state;

	assert_int_equal(reclaim_knob_supported(vr->ctx, knob("threads")), 1);
	assert_int_equal(reclaim_knob_supported(vr->ctx, knob("throttle")), 0);
	assert_int_equal(reclaim_knob_supported(vr->ctx, knob("swappiness")), 1);
	assert_int_equal(reclaim_knob_supported(vr->ctx, knob("zone_reclaim_mode")), 0);
	assert_int_equal(reclaim_knob_supported(NULL, knob("threads")), -EINVAL);
}

/* A root has the kernel's sysctls when it has RECLAIM_SYSCTL_DIR, whatever is in it. */
static void test_has_sysctls(void **state)
{
	struct vmroot *vr = *state;
	struct reclaim_ctx *ctx;
	char *root = tmproot_new();

	assert_string_equal(RECLAIM_SYSCTL_DIR, "/proc/sys/vm");
	assert_int_equal(reclaim_has_sysctls(vr->ctx), 1);
	assert_int_equal(reclaim_new(&ctx, root), 0);
	tmproot_mkdirs(root, "/proc/sys/kernel");
	assert_int_equal(reclaim_has_sysctls(ctx), 0);
	tmproot_mkdirs(root, "/proc/sys/vm");
	assert_int_equal(reclaim_has_sysctls(ctx), 1);
	reclaim_unref(ctx);
	tmproot_remove(root);
	assert_int_equal(reclaim_has_sysctls(NULL), -EINVAL);
}

static void test_read(void **state)
{
	struct vmroot *vr = *state;
	int64_t v = -5;

	assert_int_equal(reclaim_knob_read(vr->ctx, knob("threads"), &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(reclaim_knob_read(vr->ctx, knob("swap-quota"), &v), 0);
	assert_int_equal(v, 2048);
	assert_int_equal(reclaim_knob_read(vr->ctx, knob("swappiness"), &v), 0);
	assert_int_equal(v, 60);
}

static void test_read_missing(void **state)
{
	struct vmroot *vr = *state;
	int64_t v = -5;

	assert_int_equal(reclaim_knob_read(vr->ctx, knob("throttle"), &v), -EOPNOTSUPP);
	assert_int_equal(v, -5);
	assert_string_equal(
	    reclaim_strerror(vr->ctx),
	    "this kernel has no vm.max_direct_reclaimers (no "
	    "/proc/sys/vm/max_direct_reclaimers): it needs reclaimctl's kernel patches (KNOBS in reclaimctl(8))");
	assert_int_equal(reclaim_knob_read(vr->ctx, knob("zone_reclaim_mode"), &v), -EOPNOTSUPP);
	assert_string_equal(
	    reclaim_strerror(vr->ctx),
	    "this kernel has no vm.zone_reclaim_mode (no /proc/sys/vm/zone_reclaim_mode)");
}

static void test_read_malformed(void **state)
{
	struct vmroot *vr = *state;
	int64_t v = -5;

	tmproot_write(vr->root, "/proc/sys/vm/kswapd_threads", "four\n");
	assert_int_equal(reclaim_knob_read(vr->ctx, knob("threads"), &v), -EINVAL);
	assert_int_equal(v, -5);
	assert_string_equal(reclaim_strerror(vr->ctx),
			    "/proc/sys/vm/kswapd_threads: malformed value 'four'");
	tmproot_write(vr->root, "/proc/sys/vm/kswapd_threads", "");
	assert_int_equal(reclaim_knob_read(vr->ctx, knob("threads"), &v), -EINVAL);
}

static void test_write(void **state)
{
	struct vmroot *vr = *state;
	char *text;

	assert_int_equal(reclaim_knob_write(vr->ctx, knob("threads"), 4), 0);
	text = tmproot_read(vr->root, "/proc/sys/vm/kswapd_threads");
	assert_string_equal(text, "4\n");
	free(text);
	assert_int_equal(reclaim_knob_write(vr->ctx, knob("swap-quota"), 1048576), 0);
	text = tmproot_read(vr->root, "/proc/sys/vm/swap_round_robin_quota_kb");
	assert_string_equal(text, "1048576\n");
	free(text);
}

static void test_write_out_of_range_is_refused(void **state)
{
	struct vmroot *vr = *state;
	char *text;

	assert_int_equal(reclaim_knob_write(vr->ctx, knob("threads"), 17), -ERANGE);
	assert_string_equal(
	    reclaim_strerror(vr->ctx),
	    "invalid value '17' for kswapd_threads: expected an integer from 1 to 16");
	assert_int_equal(reclaim_knob_write(vr->ctx, knob("threads"), 0), -ERANGE);
	assert_int_equal(reclaim_knob_write(vr->ctx, knob("threads"), INT64_MIN), -ERANGE);
	assert_int_equal(reclaim_knob_write(vr->ctx, knob("swap-quota"), -1), -ERANGE);
	text = tmproot_read(vr->root, "/proc/sys/vm/kswapd_threads");
	assert_string_equal(text, "1\n");
	free(text);
	text = tmproot_read(vr->root, "/proc/sys/vm/swap_round_robin_quota_kb");
	assert_string_equal(text, "2048\n");
	free(text);
}

/* The knobs of sysfs read and written as the kernel shows and takes them. */
static void test_sysfs_read_write(void **state)
{
	static const struct {
		const char *knob, *path, *shown, *text;
		int64_t value, write;
		const char *written;
	} cases[] = {
	    {"zswap", "/sys/module/zswap/parameters/enabled", "N\n", "N", 0, 1, "Y\n"},
	    {"zswap_compressor", "/sys/module/zswap/parameters/compressor", "lzo\n", "lzo", 1, 4,
	     "lz4\n"},
	    {"mglru", "/sys/kernel/mm/lru_gen/enabled", "0x0007\n", "0x0007", 7, 0, "0x0000\n"},
	    {"lru_gen_min_ttl_ms", "/sys/kernel/mm/lru_gen/min_ttl_ms", "0\n", "0", 0, 1000,
	     "1000\n"},
	    {"demotion", "/sys/kernel/mm/numa/demotion_enabled", "false\n", "false", 0, 1,
	     "true\n"},
	};
	struct vmroot *vr = *state;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct reclaim_knob *k = knob(cases[i].knob);
		int64_t v = -5;
		char *text;

		assert_int_equal(reclaim_knob_supported(vr->ctx, k), 0);
		assert_int_equal(reclaim_knob_read(vr->ctx, k, &v), -EOPNOTSUPP);
		tmproot_write(vr->root, cases[i].path, cases[i].shown);
		assert_int_equal(reclaim_knob_supported(vr->ctx, k), 1);
		assert_int_equal(reclaim_knob_read(vr->ctx, k, &v), 0);
		assert_int_equal(v, cases[i].value);
		assert_int_equal(reclaim_knob_write(vr->ctx, k, cases[i].write), 0);
		text = tmproot_read(vr->root, cases[i].path);
		assert_string_equal(text, cases[i].written);
		free(text);
	}
	/* a name the kernel shows that is not one of the knob's */
	tmproot_write(vr->root, "/sys/module/zswap/parameters/compressor", "deflate-iaa\n");
	assert_int_equal(reclaim_knob_read(vr->ctx, knob("zswap_compressor"), &(int64_t){0}),
			 -EINVAL);
	assert_string_equal(
	    reclaim_strerror(vr->ctx),
	    "/sys/module/zswap/parameters/compressor: malformed value 'deflate-iaa'");
	assert_int_equal(reclaim_knob_read(vr->ctx, knob("zswap_shrinker_enabled"), &(int64_t){0}),
			 -EOPNOTSUPP);
	assert_string_equal(reclaim_strerror(vr->ctx),
			    "this kernel has no zswap_shrinker_enabled (no "
			    "/sys/module/zswap/parameters/shrinker_enabled)");
}

static void test_write_missing_does_not_create(void **state)
{
	struct vmroot *vr = *state;

	assert_int_equal(reclaim_knob_write(vr->ctx, knob("throttle"), 3), -EOPNOTSUPP);
	assert_non_null(strstr(reclaim_strerror(vr->ctx),
			       "it needs reclaimctl's kernel patches (KNOBS in reclaimctl(8))"));
	assert_null(tmproot_read(vr->root, "/proc/sys/vm/max_direct_reclaimers"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_shape),
	    cmocka_unit_test(test_patch_knobs),
	    cmocka_unit_test(test_find),
	    cmocka_unit_test(test_by_id),
	    cmocka_unit_test(test_null_knob),
	    cmocka_unit_test(test_parse_threads),
	    cmocka_unit_test(test_parse_throttle),
	    cmocka_unit_test(test_parse_sizes),
	    cmocka_unit_test(test_parse_error_messages),
	    cmocka_unit_test(test_parse_bool),
	    cmocka_unit_test(test_parse_flags),
	    cmocka_unit_test(test_parse_choice),
	    cmocka_unit_test(test_parse_uint_and_percent),
	    cmocka_unit_test(test_format),
	    cmocka_unit_test(test_parse_type_messages),
	    cmocka_unit_test_setup_teardown(test_sysfs_read_write, vmroot_setup, vmroot_teardown),
	    cmocka_unit_test_setup_teardown(test_supported, vmroot_setup, vmroot_teardown),
	    cmocka_unit_test_setup_teardown(test_has_sysctls, vmroot_setup, vmroot_teardown),
	    cmocka_unit_test_setup_teardown(test_read, vmroot_setup, vmroot_teardown),
	    cmocka_unit_test_setup_teardown(test_read_missing, vmroot_setup, vmroot_teardown),
	    cmocka_unit_test_setup_teardown(test_read_malformed, vmroot_setup, vmroot_teardown),
	    cmocka_unit_test_setup_teardown(test_write, vmroot_setup, vmroot_teardown),
	    cmocka_unit_test_setup_teardown(test_write_out_of_range_is_refused, vmroot_setup,
					    vmroot_teardown),
	    cmocka_unit_test_setup_teardown(test_write_missing_does_not_create, vmroot_setup,
					    vmroot_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
