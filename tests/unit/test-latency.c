// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reclaim latency: the kernel's hist files, as read back from a log2 hist
 * trigger with a sum of the durations, and what a malformed one gives.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "latency-internal.h"

/* What Linux 6.12 prints for "hist:keys=delta.log2:vals=hitcount,delta:sort=delta". */
static const char hist_direct[] =
    "# event histogram\n"
    "#\n"
    "# trigger info: hist:keys=delta.log2:vals=hitcount,delta:sort=delta.log2:size=2048 "
    "[active]\n"
    "#\n"
    "\n"
    "{ delta: ~ 2^0  } hitcount:          2  delta:          1\n"
    "{ delta: ~ 2^7  } hitcount:          3  delta:        300\n"
    "{ delta: ~ 2^12 } hitcount:          1  delta:       4000\n"
    "\n"
    "Totals:\n"
    "    Hits: 6\n"
    "    Entries: 3\n"
    "    Dropped: 4\n";

static void test_parse(void **state)
{
	struct latency_hist h;

	(void)state;
	assert_int_equal(latency_parse_hist(hist_direct, "delta", &h, NULL), 0);
	assert_int_equal(h.count[0], 2);
	assert_int_equal(h.count[7], 3);
	assert_int_equal(h.count[12], 1);
	assert_int_equal(h.count[1] + h.count[6] + h.count[13], 0);
	assert_int_equal(h.total_us, 4301);
	assert_int_equal(h.dropped, 4);
}

static void test_parse_other_field(void **state)
{
	static const char text[] =
	    "{ wait_usecs: ~ 2^20 } hitcount:         12  wait_usecs:   12000000\n";
	struct latency_hist h;

	(void)state;
	assert_int_equal(latency_parse_hist(text, "wait_usecs", &h, NULL), 0);
	assert_int_equal(h.count[20], 12);
	assert_int_equal(h.total_us, 12000000);
	/* the key is another field's */
	assert_int_equal(latency_parse_hist(text, "delta", &h, NULL), -EBADMSG);
}

static void test_parse_empty(void **state)
{
	static const char text[] = "# event histogram\n#\n\nTotals:\n    Hits: 0\n"
				   "    Entries: 0\n    Dropped: 0\n";
	struct latency_hist h;

	(void)state;
	memset(&h, 0xff, sizeof(h));
	assert_int_equal(latency_parse_hist(text, "delta", &h, NULL), 0);
	for (size_t k = 0; k < LATENCY_BUCKETS; k++)
		assert_int_equal(h.count[k], 0);
	assert_int_equal(h.total_us, 0);
	assert_int_equal(h.dropped, 0);
	assert_int_equal(latency_parse_hist("", "delta", &h, NULL), 0);
}

/* A bucket past the last (2^64: end before begin): not counted, not an error. */
static void test_parse_out_of_range(void **state)
{
	static const char text[] =
	    "{ delta: ~ 2^5  } hitcount:          2  delta:         40\n"
	    "{ delta: ~ 2^64 } hitcount:          1  delta: 18446744073709543568\n"
	    "    Dropped: 3\n";
	struct latency_hist h;

	(void)state;
	assert_int_equal(latency_parse_hist(text, "delta", &h, NULL), 0);
	assert_int_equal(h.count[5], 2);
	assert_int_equal(h.total_us, 40);
	assert_int_equal(h.out_of_range, 1);
	assert_int_equal(h.dropped, 3);
}

static void test_parse_malformed(void **state)
{
	static const char *const bad[] = {
	    "{ delta: ~ 2^x } hitcount: 1 delta: 1\n", /* no bucket */
	    "{ delta: ~ 2^3 } hitcount: 1\n",	       /* no sum */
	    "{ delta: ~ 2^3 } delta: 1\n",	       /* no count */
	    "{ delta: 17 } hitcount: 1 delta: 17\n",   /* not a log2 key */
	    "{ delta: ~ 2^3 hitcount: 1 delta: 1\n",   /* no closing brace */
	};
	struct latency_hist h;

	(void)state;
	static const char two[] = "{ delta: ~ 2^3 } hitcount: 1 delta: 5\n"
				  "{ delta: ~ 2^y } hitcount: 1 delta: 5\n";
	const char *at = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(latency_parse_hist(bad[i], "delta", &h, &at), -EBADMSG);
		assert_ptr_equal(at, bad[i]);
	}
	/* the line it could not read */
	assert_int_equal(latency_parse_hist(two, "delta", &h, &at), -EBADMSG);
	assert_string_equal(at, "{ delta: ~ 2^y } hitcount: 1 delta: 5\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),	    cmocka_unit_test(test_parse_other_field),
	    cmocka_unit_test(test_parse_empty),	    cmocka_unit_test(test_parse_out_of_range),
	    cmocka_unit_test(test_parse_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
