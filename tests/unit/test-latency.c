// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reclaim latency: the kernel's hist files, as read back from a log2 hist
 * trigger with a sum of the durations and from the per-task one, what a
 * malformed one gives, and the percentiles and intervals of the buckets.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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

/* Linux 6.12's "hist:keys=common_pid.execname:vals=hitcount,delta:m=delta:onmax($m).save(delta)" */
static const char hist_tasks[] =
    "# event histogram\n"
    "#\n"
    "\n"
    "{ common_pid: memhog          [       231] } hitcount:        113  delta:    3348120\n"
    "\tmax:     181322  delta:     181322\n"
    "{ common_pid: kworker/u8:1 x  [         7] } hitcount:          2  delta:        301\n"
    "\tmax:        200  delta:        200\n"
    "\n"
    "Totals:\n"
    "    Hits: 115\n"
    "    Entries: 2\n"
    "    Dropped: 5\n";

static void test_parse_tasks(void **state)
{
	struct latency_tasks t;

	(void)state;
	assert_int_equal(latency_parse_tasks(hist_tasks, "delta", &t, NULL), 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.task[0].pid, 231);
	assert_string_equal(t.task[0].comm, "memhog");
	assert_int_equal(t.task[0].count, 113);
	assert_int_equal(t.task[0].total_us, 3348120);
	assert_int_equal(t.task[0].max_us, 181322);
	assert_null(t.task[0].cgroup);
	/* a name with a space in it */
	assert_int_equal(t.task[1].pid, 7);
	assert_string_equal(t.task[1].comm, "kworker/u8:1 x");
	assert_int_equal(t.task[1].max_us, 200);
	assert_int_equal(t.dropped, 5);
	latency_tasks_clear(&t);
	assert_int_equal(latency_parse_tasks("", "delta", &t, NULL), 0);
	assert_int_equal(t.n, 0);
}

static void test_parse_tasks_malformed(void **state)
{
	static const char *const bad[] = {
	    /* no max line after it */
	    "{ common_pid: a  [ 1] } hitcount: 1  delta: 5\n",
	    ("{ common_pid: a  [ 1] } hitcount: 1  delta: 5\n{ common_pid: b  [ 2] } hitcount: 1  "
	     "delta: 5\n\tmax: 5  delta: 5\n"),
	    /* no PID, PID 0, a name too long for a task's */
	    "{ common_pid: a } hitcount: 1  delta: 5\n\tmax: 5\n",
	    "{ common_pid: a  [ 0] } hitcount: 1  delta: 5\n\tmax: 5\n",
	    "{ common_pid: abcdefghijklmnopq [ 3] } hitcount: 1  delta: 5\n\tmax: 5\n",
	    /* another key, no sum */
	    "{ delta: ~ 2^3 } hitcount: 1  delta: 5\n\tmax: 5\n",
	    "{ common_pid: a  [ 1] } hitcount: 1\n\tmax: 5\n",
	    /* a max line of no task */
	    "{ common_pid: a  [ 1] } hitcount: 1  delta: 5\n\tmax: 5\nx\n\tmax: 5\n",
	};
	struct latency_tasks t;
	const char *at;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		at = NULL;
		assert_int_equal(latency_parse_tasks(bad[i], "delta", &t, &at), -EBADMSG);
		assert_non_null(at);
		assert_int_equal(t.n, 0);
		assert_null(t.task);
	}
}

/* The hist file of an event with both triggers, as Linux 6.12 prints it: one histogram each. */
static const char hist_both[] =
    "# event histogram\n"
    "#\n"
    "# trigger info: hist:keys=delta.log2:vals=hitcount,delta:sort=delta:size=2048 [active]\n"
    "#\n"
    "\n"
    "{ delta: ~ 2^13 } hitcount:          1  delta:       7899\n"
    "{ delta: ~ 2^19 } hitcount:          1  delta:     302432\n"
    "\n"
    "Totals:\n"
    "    Hits: 2\n"
    "    Entries: 2\n"
    "    Dropped: 0\n"
    "\n"
    "\n"
    "# event histogram\n"
    "#\n"
    "# trigger info: hist:keys=common_pid.execname:vals=hitcount,delta:reclaimctl_max=delta:"
    "sort=delta.descending:size=4096:onmax($reclaimctl_max).save(delta) [active]\n"
    "#\n"
    "\n"
    "{ common_pid: memhog          [       106] } hitcount:          2  delta:     310331\n"
    "\tmax:     302432  delta:     302432\n"
    "\n"
    "Totals:\n"
    "    Hits: 2\n"
    "    Entries: 1\n"
    "    Dropped: 0\n";

static void test_sections(void **state)
{
	char *buckets = NULL, *tasks = NULL, *none = NULL;
	struct latency_hist h;
	struct latency_tasks t;

	(void)state;
	assert_int_equal(latency_hist_section(hist_both, "hist:keys=delta.log2:", &buckets), 0);
	assert_int_equal(latency_hist_section(hist_both, "hist:keys=common_pid.execname:", &tasks),
			 0);
	assert_int_equal(latency_hist_section(hist_both, "hist:keys=wait_usecs.log2:", &none),
			 -ENOENT);
	assert_null(none);
	/* each parses alone; the whole file is neither */
	assert_int_equal(latency_parse_hist(buckets, "delta", &h, NULL), 0);
	assert_int_equal(latency_hist_count(&h), 2);
	assert_int_equal(h.total_us, 310331);
	assert_int_equal(latency_parse_tasks(tasks, "delta", &t, NULL), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.task[0].max_us, 302432);
	assert_int_equal(t.task[0].total_us, h.total_us);
	latency_tasks_clear(&t);
	assert_int_equal(latency_parse_hist(hist_both, "delta", &h, NULL), -EBADMSG);
	assert_int_equal(latency_parse_tasks(hist_both, "delta", &t, NULL), -EBADMSG);
	free(buckets);
	free(tasks);
}

/* Counts in buckets 2^3 (8 us), 2^7 and 2^12, ranked. */
static void test_percentiles(void **state)
{
	struct latency_hist h = {0}, before = {0};

	(void)state;
	assert_int_equal(latency_hist_percentile(&h, 500), 0);
	h.count[3] = 90;
	h.count[7] = 9;
	h.count[12] = 1;
	assert_int_equal(latency_hist_count(&h), 100);
	assert_int_equal(latency_hist_percentile(&h, 0), 8); /* the shortest */
	assert_int_equal(latency_hist_percentile(&h, 500), 8);
	assert_int_equal(latency_hist_percentile(&h, 900), 8);	   /* rank 90: the last of 2^3 */
	assert_int_equal(latency_hist_percentile(&h, 901), 128);   /* rank 91, rounded up */
	assert_int_equal(latency_hist_percentile(&h, 990), 128);   /* rank 99 */
	assert_int_equal(latency_hist_percentile(&h, 991), 4096);  /* rank 100 */
	assert_int_equal(latency_hist_percentile(&h, 1000), 4096); /* the longest */
	/* one duration is every percentile */
	memset(&h, 0, sizeof(h));
	h.count[0] = 1;
	assert_int_equal(latency_hist_percentile(&h, 10), 1);
	assert_int_equal(latency_hist_percentile(&h, 1000), 1);
	/* an interval: the counts since an earlier read */
	memset(&h, 0, sizeof(h));
	h.count[3] = 90;
	h.count[7] = 9;
	h.count[12] = 1;
	h.total_us = 6000;
	h.dropped = 4;
	before.count[3] = 90;
	before.count[7] = 1;
	before.total_us = 850;
	before.dropped = 1;
	latency_hist_since(&h, &before);
	assert_int_equal(latency_hist_count(&h), 9);
	assert_int_equal(h.count[3], 0);
	assert_int_equal(h.count[7], 8);
	assert_int_equal(h.total_us, 5150);
	assert_int_equal(h.dropped, 3);
	assert_int_equal(latency_hist_percentile(&h, 500), 128);
	assert_int_equal(latency_hist_percentile(&h, 1000), 4096);
}

/* A percentile is never above the longest wait, when that is known. */
static void test_percentiles_capped(void **state)
{
	struct latency_hist h = {0};

	(void)state;
	h.count[3] = 90;
	h.count[7] = 9;
	h.count[12] = 1;
	/* the longest, 3000 us, is in the bucket up to 4096 */
	assert_int_equal(latency_percentile_capped(&h, 990, 3000), 128);
	assert_int_equal(latency_percentile_capped(&h, 991, 3000), 3000);
	assert_int_equal(latency_percentile_capped(&h, 1000, 3000), 3000);
	/* not known: the bucket's upper end */
	assert_int_equal(latency_percentile_capped(&h, 991, 0), 4096);
	/* the rank of the median, 8 us, whatever the longest */
	assert_int_equal(latency_percentile_capped(&h, 500, 3000), 8);
	memset(&h, 0, sizeof(h));
	assert_int_equal(latency_percentile_capped(&h, 990, 3000), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_parse_other_field),
	    cmocka_unit_test(test_parse_empty),
	    cmocka_unit_test(test_parse_out_of_range),
	    cmocka_unit_test(test_parse_malformed),
	    cmocka_unit_test(test_parse_tasks),
	    cmocka_unit_test(test_parse_tasks_malformed),
	    cmocka_unit_test(test_percentiles),
	    cmocka_unit_test(test_percentiles_capped),
	    cmocka_unit_test(test_sections),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
