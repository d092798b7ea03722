// SPDX-License-Identifier: LGPL-2.1-or-later
/* Reclaim counters from /proc/vmstat and a node's vmstat. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "internal.h"
#include "tmproot.h"

static void test_is_reclaim_counter(void **state)
{
	static const char *const yes[] = {
	    "pgscan_kswapd",
	    "pgscan_direct",
	    "pgsteal_kswapd",
	    "pgsteal_direct",
	    "allocstall_normal",
	    "allocstall_movable",
	    "kswapd_inodesteal",
	    "workingset_refault_anon",
	    "workingset_refault_file",
	    "pageoutrun",
	    "pgrefill",
	    "pswpin",
	    "pswpout",
	    "direct_reclaim_throttled",
	};
	static const char *const no[] = {
	    "nr_free_pages",
	    "workingset_activate_file",
	    "pgscan",
	    "pgsteal",
	    "allocstall",
	    "pswpin_x",
	    "xpgscan_kswapd",
	    "pgfault",
	    "",
	    "direct_reclaim",
	    "nr_kswapd",
	    "Pgscan_kswapd",
	};

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		assert_true(reclaim_vmstat_is_reclaim_counter(yes[i]));
	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		assert_false(reclaim_vmstat_is_reclaim_counter(no[i]));
	assert_false(reclaim_vmstat_is_reclaim_counter(NULL));
}

static const char vmstat_text[] = "nr_free_pages 1324015\n"
				  "workingset_refault_file 30160\n"
				  "pswpin 3\n"
				  "pgfault 987654\n"
				  "allocstall_normal 17\n"
				  "pgscan_kswapd 18446744073709551615\n"
				  "pgscan_direct 42\n"
				  "direct_reclaim_throttled 5\n"
				  "thp_fault_alloc 0\n";

static void test_parse_keeps_reclaim_counters_in_order(void **state)
{
	static const char *const names[] = {
	    "workingset_refault_file", "pswpin",	"allocstall_normal",
	    "pgscan_kswapd",	       "pgscan_direct", "direct_reclaim_throttled",
	};
	static const uint64_t values[] = {30160, 3, 17, UINT64_MAX, 42, 5};
	struct reclaim_vmstat *vs = NULL;

	assert_int_equal(reclaim_vmstat_parse(vmstat_text, &vs, NULL), 0);
	assert_int_equal(reclaim_vmstat_count(vs), ARRAY_SIZE(names));
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		assert_string_equal(reclaim_vmstat_name(vs, i), names[i]);
		assert_true(reclaim_vmstat_value(vs, i) == values[i]);
	}
	assert_null(reclaim_vmstat_name(vs, ARRAY_SIZE(names)));
	assert_int_equal(reclaim_vmstat_value(vs, ARRAY_SIZE(names)), 0);
	reclaim_vmstat_unref(vs);
}

static void test_get(void **state)
{
	struct reclaim_vmstat *vs = NULL;
	uint64_t v = 7;

	assert_int_equal(reclaim_vmstat_parse(vmstat_text, &vs, NULL), 0);
	assert_int_equal(reclaim_vmstat_get(vs, "pgscan_direct", &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(reclaim_vmstat_get(vs, "direct_reclaim_throttled", &v), 0);
	assert_int_equal(v, 5);
	v = 7;
	/* In the file but not a reclaim counter: not kept. */
	assert_int_equal(reclaim_vmstat_get(vs, "nr_free_pages", &v), -ENOENT);
	assert_int_equal(reclaim_vmstat_get(vs, "pgsteal_kswapd", &v), -ENOENT);
	assert_int_equal(reclaim_vmstat_get(vs, "pgscan", &v), -ENOENT);
	assert_int_equal(v, 7);
	assert_int_equal(reclaim_vmstat_get(vs, NULL, &v), -EINVAL);
	assert_int_equal(reclaim_vmstat_get(NULL, "pgscan_direct", &v), -EINVAL);
	reclaim_vmstat_unref(vs);
}

static void test_parse_empty(void **state)
{
	struct reclaim_vmstat *vs = NULL;

	assert_int_equal(reclaim_vmstat_parse("", &vs, NULL), 0);
	assert_int_equal(reclaim_vmstat_count(vs), 0);
	reclaim_vmstat_unref(vs);
	assert_int_equal(reclaim_vmstat_parse("nr_free_pages 1\npgfault 2", &vs, NULL), 0);
	assert_int_equal(reclaim_vmstat_count(vs), 0);
	reclaim_vmstat_unref(vs);
}

static void test_parse_last_line_without_newline(void **state)
{
	struct reclaim_vmstat *vs = NULL;
	uint64_t v = 0;

	assert_int_equal(reclaim_vmstat_parse("pgscan_kswapd 1\npgsteal_kswapd 99", &vs, NULL), 0);
	assert_int_equal(reclaim_vmstat_count(vs), 2);
	assert_int_equal(reclaim_vmstat_get(vs, "pgsteal_kswapd", &v), 0);
	assert_int_equal(v, 99);
	reclaim_vmstat_unref(vs);
}

static void test_parse_malformed(void **state)
{
	static const char *const bad[] = {
	    "pgscan_kswapd\n",
	    "pgscan_kswapd abc\n",
	    "pgscan_kswapd 1\nnr_free_pages\n",
	    /* after counters were collected: they are freed (valgrind checks) */
	    "pgscan_kswapd 1\npgscan_direct 2\npgsteal_direct x\n",
	    /* what sscanf's %llu let through: signs, a wrap past 2^64, trailing junk */
	    "pgscan_kswapd -5\n",
	    "pgscan_kswapd +5\n",
	    "pgscan_kswapd 18446744073709551616\n",
	    "pgscan_kswapd 5x\n",
	    "pgscan_kswapd 5 6\n",
	    /* a name longer than 127 */
	    ("pgscan_kswapd_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 1\n"),
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct reclaim_vmstat *vs = (struct reclaim_vmstat *)0x1;

		if (reclaim_vmstat_parse(bad[i], &vs, NULL) != -EINVAL)
			fail_msg("\"%s\" accepted", bad[i]);
		assert_ptr_equal(vs, (struct reclaim_vmstat *)0x1);
	}
}

/* 8 MiB of lines, most not reclaim counters, in one pass; the largest value parses. */
static void test_parse_large(void **state)
{
	const char *line = "nr_free_pages 123456789\n";
	size_t n = (8u << 20) / strlen(line), len = strlen(line);
	char *text = malloc(n * len + 64), *p = text;
	struct reclaim_vmstat *vs;
	uint64_t v;

	(void)state;
	assert_non_null(text);
	for (size_t i = 0; i < n; i++, p += len)
		memcpy(p, line, len);
	strcpy(p, "pgscan_kswapd 18446744073709551615\n");
	assert_int_equal(reclaim_vmstat_parse(text, &vs, NULL), 0);
	assert_int_equal(reclaim_vmstat_count(vs), 1);
	assert_int_equal(reclaim_vmstat_get(vs, "pgscan_kswapd", &v), 0);
	assert_true(v == UINT64_MAX);
	reclaim_vmstat_unref(vs);
	free(text);
}

static void test_refcount(void **state)
{
	struct reclaim_vmstat *vs = NULL;

	assert_int_equal(reclaim_vmstat_parse(vmstat_text, &vs, NULL), 0);
	assert_ptr_equal(reclaim_vmstat_ref(vs), vs);
	assert_null(reclaim_vmstat_unref(vs));
	/* Still alive: one reference left. */
	assert_int_equal(reclaim_vmstat_count(vs), 6);
	assert_null(reclaim_vmstat_unref(vs));
	assert_null(reclaim_vmstat_unref(NULL));
	assert_null(reclaim_vmstat_ref(NULL));
}

static void test_fixture_system_and_node(void **state)
{
	struct reclaim_vmstat *vs = NULL;
	struct reclaim_ctx *ctx;
	uint64_t v = 99;

	assert_int_equal(reclaim_new(&ctx, FIXTURES_DIR "/live-debian12-2cpu"), 0);
	assert_int_equal(reclaim_vmstat_new(ctx, &vs), 0);
	assert_int_equal(reclaim_vmstat_get(vs, "workingset_refault_file", &v), 0);
	assert_int_equal(v, 30160);
	assert_int_equal(reclaim_vmstat_get(vs, "pgscan_kswapd", &v), 0);
	assert_int_equal(v, 0);
	/* The first kept counter of this kernel's /proc/vmstat. */
	assert_string_equal(reclaim_vmstat_name(vs, 0), "workingset_refault_anon");
	assert_int_equal(reclaim_vmstat_get(vs, "direct_reclaim_throttled", &v), -ENOENT);
	reclaim_vmstat_unref(vs);

	assert_int_equal(reclaim_vmstat_new_node(ctx, 0, &vs), 0);
	assert_true(reclaim_vmstat_count(vs) > 0);
	assert_int_equal(reclaim_vmstat_get(vs, "workingset_refault_file", &v), 0);
	reclaim_vmstat_unref(vs);
	reclaim_unref(ctx);
}

static void test_missing_files(void **state)
{
	struct reclaim_vmstat *vs = NULL;
	struct reclaim_ctx *ctx;
	char *root = tmproot_new();

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_vmstat_new(ctx, &vs), -ENOENT);
	assert_null(vs);
	assert_non_null(strstr(reclaim_strerror(ctx), "/proc/vmstat"));
	assert_int_equal(reclaim_vmstat_new_node(ctx, 5, &vs), -ENOENT);
	assert_null(vs);
	assert_non_null(strstr(reclaim_strerror(ctx), "/sys/devices/system/node/node5/vmstat"));
	assert_int_equal(reclaim_vmstat_new_node(ctx, -1, &vs), -EINVAL);
	reclaim_unref(ctx);
	tmproot_remove(root);
}

static void test_malformed_file(void **state)
{
	struct reclaim_vmstat *vs = NULL;
	struct reclaim_ctx *ctx;
	char *root = tmproot_new();

	tmproot_write(root, "/proc/vmstat", "pgscan_kswapd 1\npgscan_direct\n");
	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_vmstat_new(ctx, &vs), -EINVAL);
	assert_null(vs);
	assert_string_equal(reclaim_strerror(ctx), "/proc/vmstat:2: malformed line");
	reclaim_unref(ctx);
	tmproot_remove(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_is_reclaim_counter),
	    cmocka_unit_test(test_parse_keeps_reclaim_counters_in_order),
	    cmocka_unit_test(test_get),
	    cmocka_unit_test(test_parse_empty),
	    cmocka_unit_test(test_parse_last_line_without_newline),
	    cmocka_unit_test(test_parse_malformed),
	    cmocka_unit_test(test_parse_large),
	    cmocka_unit_test(test_refcount),
	    cmocka_unit_test(test_fixture_system_and_node),
	    cmocka_unit_test(test_missing_files),
	    cmocka_unit_test(test_malformed_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
