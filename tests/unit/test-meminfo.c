// SPDX-License-Identifier: LGPL-2.1-or-later
/* "Key: N kB" fields of /proc/meminfo and of a node's meminfo. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "internal.h"

static const char proc_meminfo[] = "MemTotal:        8044176 kB\n"
				   "MemFree:          123456 kB\n"
				   "MemAvailable:    6000000 kB\n"
				   "SwapTotal:       2097148 kB\n"
				   "HugePages_Total:       7\n"
				   "Hugepagesize:       2048 kB\n";

static const char node_meminfo[] = "\n"
				   "Node 12 MemTotal:       16769836 kB\n"
				   "Node 12 MemFree:        16087204 kB\n"
				   "Node 12 MemUsed:          682632 kB\n"
				   "Node 12 HugePages_Free:      0\n";

static uint64_t field(const char *text, const char *key)
{
	uint64_t kb = 0xdeadbeef;

	assert_int_equal(reclaim_meminfo_field(text, key, &kb, NULL), 0);
	return kb;
}

static int field_err(const char *text, const char *key)
{
	uint64_t kb = 0xdeadbeef;
	int r = reclaim_meminfo_field(text, key, &kb, NULL);

	assert_int_equal(kb, 0xdeadbeef);
	return r;
}

static void test_proc_meminfo(void **state)
{
	assert_int_equal(field(proc_meminfo, "MemTotal"), 8044176);
	assert_int_equal(field(proc_meminfo, "MemFree"), 123456);
	assert_int_equal(field(proc_meminfo, "MemAvailable"), 6000000);
	assert_int_equal(field(proc_meminfo, "SwapTotal"), 2097148);
	assert_int_equal(field(proc_meminfo, "Hugepagesize"), 2048);
}

static void test_count_without_unit(void **state)
{
	assert_int_equal(field(proc_meminfo, "HugePages_Total"), 7);
	assert_int_equal(field(node_meminfo, "HugePages_Free"), 0);
}

static void test_node_meminfo(void **state)
{
	/* Node meminfo starts with an empty line in some kernels. */
	assert_int_equal(field(node_meminfo, "MemTotal"), 16769836);
	assert_int_equal(field(node_meminfo, "MemFree"), 16087204);
	assert_int_equal(field(node_meminfo, "MemUsed"), 682632);
}

static void test_key_is_matched_whole(void **state)
{
	/* "Mem" is a prefix of several keys but not a key; "Total" is a suffix of some. */
	assert_int_equal(field_err(proc_meminfo, "Mem"), -ENOENT);
	assert_int_equal(field_err(proc_meminfo, "Total"), -ENOENT);
	assert_int_equal(field_err(proc_meminfo, "emTotal"), -ENOENT);
	assert_int_equal(field_err(proc_meminfo, "Free"), -ENOENT);
	assert_int_equal(field("MemTotalX: 1 kB\nMemTotal: 2 kB\n", "MemTotal"), 2);
}

static void test_missing_key(void **state)
{
	assert_int_equal(field_err(proc_meminfo, "Shmem"), -ENOENT);
	assert_int_equal(field_err("", "MemTotal"), -ENOENT);
	assert_int_equal(field_err("\n\n", "MemTotal"), -ENOENT);
}

static void test_last_line_without_newline(void **state)
{
	assert_int_equal(field("MemFree: 1 kB\nMemTotal: 42 kB", "MemTotal"), 42);
	assert_int_equal(field("MemTotal: 42", "MemTotal"), 42);
}

static void test_first_match_wins(void **state)
{
	assert_int_equal(field("MemTotal: 1 kB\nMemTotal: 2 kB\n", "MemTotal"), 1);
}

static void test_large_value(void **state)
{
	assert_true(field("MemTotal: 18446744073709551615 kB\n", "MemTotal") == UINT64_MAX);
}

static void test_malformed(void **state)
{
	assert_int_equal(field_err("MemTotal: abc kB\n", "MemTotal"), -EINVAL);
	assert_int_equal(field_err("MemTotal:\n", "MemTotal"), -EINVAL);
	assert_int_equal(field_err("MemTotal:", "MemTotal"), -EINVAL);
	assert_int_equal(field_err("MemTotal: 12 MB\n", "MemTotal"), -EINVAL);
	assert_int_equal(field_err("MemTotal: 12x kB\n", "MemTotal"), -EINVAL);
	assert_int_equal(field_err("MemTotal: 18446744073709551616 kB\n", "MemTotal"), -EINVAL);
	/* A malformed line is an error even if the key appears again later. */
	assert_int_equal(field_err("MemTotal: ? kB\nMemTotal: 2 kB\n", "MemTotal"), -EINVAL);
}

static void test_negative_is_malformed(void **state)
{
	/* strtoull() would turn these into huge values. */
	assert_int_equal(field_err("MemTotal: -1 kB\n", "MemTotal"), -EINVAL);
	assert_int_equal(field_err("MemTotal:   -8044176 kB\n", "MemTotal"), -EINVAL);
	assert_int_equal(field_err("Node 0 MemFree: +5 kB\n", "MemFree"), -EINVAL);
}

static void test_value_on_next_line_is_malformed(void **state)
{
	assert_int_equal(field_err("MemTotal:\n5 kB\n", "MemTotal"), -EINVAL);
}

static void test_fixture_node_meminfo(void **state)
{
	struct reclaim_ctx *ctx;
	char *text = NULL;

	assert_int_equal(reclaim_new(&ctx, FIXTURES_DIR "/hwloc-64amd64-4s2n4ca2co"), 0);
	assert_int_equal(
	    reclaim_read_file(ctx, "/sys/devices/system/node/node5/meminfo", &text, NULL), 0);
	assert_int_equal(field(text, "MemTotal"), 8388608);
	free(text);
	assert_int_equal(reclaim_read_file(ctx, "/proc/meminfo", &text, NULL), 0);
	assert_int_equal(field(text, "MemTotal"), 123994388);
	assert_int_equal(field(text, "MemFree"), 121445068);
	free(text);
	reclaim_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_proc_meminfo),
	    cmocka_unit_test(test_count_without_unit),
	    cmocka_unit_test(test_node_meminfo),
	    cmocka_unit_test(test_key_is_matched_whole),
	    cmocka_unit_test(test_missing_key),
	    cmocka_unit_test(test_last_line_without_newline),
	    cmocka_unit_test(test_first_match_wins),
	    cmocka_unit_test(test_large_value),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_negative_is_malformed),
	    cmocka_unit_test(test_value_on_next_line_is_malformed),
	    cmocka_unit_test(test_fixture_node_meminfo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
