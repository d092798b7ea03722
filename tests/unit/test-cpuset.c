// SPDX-License-Identifier: LGPL-2.1-or-later
/* CPU lists ("0-3,8") and CPU masks ("00000100,0000ff00") as sysfs prints them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <cmocka.h>

#include "internal.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#if !defined(UNDER_ASAN) && defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static void assert_cpus(const unsigned int *cpus, size_t n, const unsigned int *want, size_t nwant)
{
	assert_int_equal(n, nwant);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(cpus[i], want[i]);
}

#define CHECK_LIST(parse, text, ...)                                                               \
	do {                                                                                       \
		static const unsigned int want_[] = {__VA_ARGS__};                                 \
		unsigned int *cpus_ = NULL;                                                        \
		size_t n_ = 12345;                                                                 \
		assert_int_equal(parse(text, &cpus_, &n_), 0);                                     \
		assert_cpus(cpus_, n_, want_, ARRAY_SIZE(want_));                                  \
		free(cpus_);                                                                       \
	} while (0)

#define CHECK_EMPTY(parse, text)                                                                   \
	do {                                                                                       \
		unsigned int *cpus_ = NULL;                                                        \
		size_t n_ = 12345;                                                                 \
		assert_int_equal(parse(text, &cpus_, &n_), 0);                                     \
		assert_int_equal(n_, 0);                                                           \
		free(cpus_);                                                                       \
	} while (0)

#define CHECK_FAIL(parse, text, err)                                                               \
	do {                                                                                       \
		unsigned int *cpus_ = NULL;                                                        \
		size_t n_ = 12345;                                                                 \
		assert_int_equal(parse(text, &cpus_, &n_), err);                                   \
		assert_null(cpus_);                                                                \
		assert_int_equal(n_, 12345);                                                       \
	} while (0)

static void test_cpulist_single(void **state)
{
	CHECK_LIST(reclaim_cpulist_parse, "0", 0);
	CHECK_LIST(reclaim_cpulist_parse, "7\n", 7);
	CHECK_LIST(reclaim_cpulist_parse, "  5 \n", 5);
}

static void test_cpulist_ranges(void **state)
{
	CHECK_LIST(reclaim_cpulist_parse, "0-3,8-11\n", 0, 1, 2, 3, 8, 9, 10, 11);
	CHECK_LIST(reclaim_cpulist_parse, "2-2", 2);
	CHECK_LIST(reclaim_cpulist_parse, "0,2,4,6", 0, 2, 4, 6);
	CHECK_LIST(reclaim_cpulist_parse, "1,3-4,10", 1, 3, 4, 10);
}

static void test_cpulist_sorted_dedup(void **state)
{
	CHECK_LIST(reclaim_cpulist_parse, "8-9,3,1-2,2,9", 1, 2, 3, 8, 9);
	CHECK_LIST(reclaim_cpulist_parse, "4,4,4", 4);
}

static void test_cpulist_empty(void **state)
{
	/* A memory-only node's cpulist is an empty line. */
	CHECK_EMPTY(reclaim_cpulist_parse, "");
	CHECK_EMPTY(reclaim_cpulist_parse, "\n");
	CHECK_EMPTY(reclaim_cpulist_parse, "   ");
}

static void test_cpulist_bounds(void **state)
{
	unsigned int *cpus = NULL;
	size_t n = 0;

	assert_int_equal(reclaim_cpulist_parse("65530-65535", &cpus, &n), 0);
	assert_int_equal(n, 6);
	assert_int_equal(cpus[0], 65530);
	assert_int_equal(cpus[5], 65535);
	free(cpus);

	CHECK_FAIL(reclaim_cpulist_parse, "65536", -ERANGE);
	CHECK_FAIL(reclaim_cpulist_parse, "0-65536", -ERANGE);
	CHECK_FAIL(reclaim_cpulist_parse, "99999999999999999999999", -ERANGE);
}

static void test_cpulist_invalid(void **state)
{
	CHECK_FAIL(reclaim_cpulist_parse, "a", -EINVAL);
	CHECK_FAIL(reclaim_cpulist_parse, "3-1", -EINVAL);
	CHECK_FAIL(reclaim_cpulist_parse, "1,,2", -EINVAL);
	CHECK_FAIL(reclaim_cpulist_parse, ",1", -EINVAL);
	CHECK_FAIL(reclaim_cpulist_parse, "1-", -EINVAL);
	CHECK_FAIL(reclaim_cpulist_parse, "-1", -EINVAL);
	CHECK_FAIL(reclaim_cpulist_parse, "1--3", -EINVAL);
	CHECK_FAIL(reclaim_cpulist_parse, "0 1", -EINVAL);
	CHECK_FAIL(reclaim_cpulist_parse, "1;2", -EINVAL);
	CHECK_FAIL(reclaim_cpulist_parse, "0-2x", -EINVAL);
	CHECK_FAIL(reclaim_cpulist_parse, "0x10", -EINVAL);
	/* The error path frees what was collected so far (valgrind checks this). */
	CHECK_FAIL(reclaim_cpulist_parse, "0-100,z", -EINVAL);
}

/*
 * 5,000 copies of the widest range (40 KB of text): each CPU once in the
 * result, within 512 MiB of address space. A parser that expands every
 * range into a list first needs 1.3 GB here and fails.
 */
static void test_cpulist_repeated_ranges(void **state)
{
	size_t n = 5000, len = n * 8, count = 0;
	char *text = malloc(len + 1), *p = text;
	struct rlimit old, lim;
	unsigned int *cpus = NULL;
	int r;

	(void)state;
	assert_non_null(text);
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s0-65535", i ? "," : "");
	assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
	lim = old;
	lim.rlim_cur = 512u << 20;
	/* AddressSanitizer's shadow memory alone needs terabytes of address space. */
	if (!UNDER_ASAN && (old.rlim_cur == RLIM_INFINITY || old.rlim_cur > lim.rlim_cur))
		assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
	r = reclaim_cpulist_parse(text, &cpus, &count);
	assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
	assert_int_equal(r, 0);
	assert_int_equal(count, 65536);
	for (size_t i = 0; i < count; i++)
		assert_int_equal(cpus[i], i);
	free(cpus);
	free(text);
}

static void test_cpumap_single_word(void **state)
{
	CHECK_LIST(reclaim_cpumap_parse, "ff\n", 0, 1, 2, 3, 4, 5, 6, 7);
	CHECK_LIST(reclaim_cpumap_parse, "00000001", 0);
	CHECK_LIST(reclaim_cpumap_parse, "80000000", 31);
	CHECK_LIST(reclaim_cpumap_parse, "F0", 4, 5, 6, 7);
	CHECK_LIST(reclaim_cpumap_parse, "a", 1, 3);
	CHECK_LIST(reclaim_cpumap_parse, "3", 0, 1);
}

static void test_cpumap_multi_word(void **state)
{
	CHECK_LIST(reclaim_cpumap_parse, "00000100,0000ff00\n", 8, 9, 10, 11, 12, 13, 14, 15, 40);
	CHECK_LIST(reclaim_cpumap_parse, "ff000000,00000000", 56, 57, 58, 59, 60, 61, 62, 63);
	CHECK_LIST(reclaim_cpumap_parse, "00000001,00000000,00000001", 0, 64);
	/* The kernel prints the most significant word with only the digits it needs. */
	CHECK_LIST(reclaim_cpumap_parse, "1,00000000", 32);
	CHECK_LIST(reclaim_cpumap_parse, "3,80000001", 0, 31, 32, 33);
}

static void test_cpumap_empty_mask(void **state)
{
	CHECK_EMPTY(reclaim_cpumap_parse, "0");
	CHECK_EMPTY(reclaim_cpumap_parse, "00000000,00000000\n");
}

static void test_cpumap_invalid(void **state)
{
	CHECK_FAIL(reclaim_cpumap_parse, "", -EINVAL);
	CHECK_FAIL(reclaim_cpumap_parse, " \n", -EINVAL);
	CHECK_FAIL(reclaim_cpumap_parse, "xyz", -EINVAL);
	CHECK_FAIL(reclaim_cpumap_parse, "0000g000", -EINVAL);
	CHECK_FAIL(reclaim_cpumap_parse, "0x00ff", -EINVAL);
	CHECK_FAIL(reclaim_cpumap_parse, "000000ff 00000000", -EINVAL);
	/* Bits already collected are freed on failure. */
	CHECK_FAIL(reclaim_cpumap_parse, "z,ffffffff", -EINVAL);
}

/* A mask of @words 32-bit words as the kernel writes it: "00000000,...,00000000". */
static char *zero_mask(size_t words)
{
	char *mask = malloc(words * 9);

	assert_non_null(mask);
	for (size_t i = 0; i < words; i++) {
		memset(mask + i * 9, '0', 8);
		mask[i * 9 + 8] = i + 1 < words ? ',' : '\0';
	}
	return mask;
}

static void test_cpumap_bounds(void **state)
{
	/* 2048 words: the top bit of the first word is CPU 65535. */
	char *mask = zero_mask(2048), *more;
	unsigned int *cpus = NULL;
	size_t n = 0;

	mask[0] = '8';
	assert_int_equal(reclaim_cpumap_parse(mask, &cpus, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(cpus[0], 65535);
	free(cpus);
	free(mask);

	/* One more word: CPU 65536 is past the limit, zeros up there are harmless. */
	more = zero_mask(2049);
	more[7] = '1';
	CHECK_FAIL(reclaim_cpumap_parse, more, -ERANGE);
	more[7] = '0';
	more[2049 * 9 - 2] = '1';
	CHECK_LIST(reclaim_cpumap_parse, more, 0);
	free(more);
}

static void test_cpumap_words(void **state)
{
	/* Each word is 32 CPUs, whatever its length; a word has 1..8 digits. */
	CHECK_LIST(reclaim_cpumap_parse, "ff,ff", 0, 1, 2, 3, 4, 5, 6, 7, 32, 33, 34, 35, 36, 37,
		   38, 39);
	CHECK_FAIL(reclaim_cpumap_parse, "000000001,0", -EINVAL);
	CHECK_FAIL(reclaim_cpumap_parse, "ff,,ff", -EINVAL);
	CHECK_FAIL(reclaim_cpumap_parse, ",ff", -EINVAL);
	CHECK_FAIL(reclaim_cpumap_parse, "ff,", -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cpulist_single),
	    cmocka_unit_test(test_cpulist_ranges),
	    cmocka_unit_test(test_cpulist_sorted_dedup),
	    cmocka_unit_test(test_cpulist_empty),
	    cmocka_unit_test(test_cpulist_repeated_ranges),
	    cmocka_unit_test(test_cpulist_bounds),
	    cmocka_unit_test(test_cpulist_invalid),
	    cmocka_unit_test(test_cpumap_single_word),
	    cmocka_unit_test(test_cpumap_multi_word),
	    cmocka_unit_test(test_cpumap_empty_mask),
	    cmocka_unit_test(test_cpumap_invalid),
	    cmocka_unit_test(test_cpumap_bounds),
	    cmocka_unit_test(test_cpumap_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
