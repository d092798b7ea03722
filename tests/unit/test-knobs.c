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
		snprintf(want, sizeof(want), "vm.%s", name);
		assert_string_equal(reclaim_knob_sysctl(k), want);
		snprintf(want, sizeof(want), "/proc/sys/vm/%s", name);
		assert_string_equal(reclaim_knob_path(k), want);
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
