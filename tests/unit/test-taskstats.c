// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Delay accounting: struct taskstats payloads of several versions, the
 * kernel.task_delayacct switch and the /proc listing on temporary roots, and
 * (when the test runs with CAP_NET_ADMIN on a kernel with taskstats) one real
 * query of the test itself.
 */
#include <errno.h>
#include <linux/taskstats.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "taskstats-internal.h"
#include "tmproot.h"

/* A payload as a kernel of @version sends it: struct taskstats up to @len bytes. */
static void *payload(uint16_t version, size_t len)
{
	unsigned char *p =
	    calloc(1, len > sizeof(struct taskstats) ? len : sizeof(struct taskstats));
	struct taskstats ts = {0};

	assert_non_null(p);
	ts.version = version;
	ts.freepages_count = 7;
	ts.freepages_delay_total = 7000000;
	ts.thrashing_count = 3;
	ts.thrashing_delay_total = 300;
	ts.swapin_count = 11;
	ts.swapin_delay_total = 1100;
	ts.compact_count = 2;
	ts.compact_delay_total = 20;
	memcpy(p, &ts, len < sizeof(ts) ? len : sizeof(ts));
	return p;
}

static void test_parse_current(void **state)
{
	/* 6.12 sends version 14, longer than the 6.1 struct these headers have */
	size_t len = sizeof(struct taskstats) + 16;
	void *p = payload(14, len);
	struct reclaim_task_delays *d;

	assert_int_equal(reclaim_taskstats_parse(p, len, 42, "memhog", &d), 0);
	assert_int_equal(reclaim_task_delays_pid(d), 42);
	assert_string_equal(reclaim_task_delays_comm(d), "memhog");
	assert_int_equal(reclaim_task_delays_version(d), 14);
	for (int k = RECLAIM_DELAY_RECLAIM; k <= RECLAIM_DELAY_COMPACT; k++)
		assert_true(reclaim_task_delays_has(d, k));
	assert_int_equal(reclaim_task_delays_count(d, RECLAIM_DELAY_RECLAIM), 7);
	assert_int_equal(reclaim_task_delays_total_ns(d, RECLAIM_DELAY_RECLAIM), 7000000);
	assert_int_equal(reclaim_task_delays_count(d, RECLAIM_DELAY_THRASHING), 3);
	assert_int_equal(reclaim_task_delays_total_ns(d, RECLAIM_DELAY_SWAPIN), 1100);
	assert_int_equal(reclaim_task_delays_total_ns(d, RECLAIM_DELAY_COMPACT), 20);
	assert_false(reclaim_task_delays_has(d, (enum reclaim_delay)9));
	reclaim_task_delays_unref(d);
	free(p);
}

static void test_parse_old(void **state)
{
	/* a version 8 kernel (4.x): the struct ends before thrashing_count */
	size_t len = offsetof(struct taskstats, thrashing_count);
	void *p = payload(8, len);
	struct reclaim_task_delays *d;

	assert_int_equal(reclaim_taskstats_parse(p, len, 1, NULL, &d), 0);
	assert_string_equal(reclaim_task_delays_comm(d), "?");
	assert_true(reclaim_task_delays_has(d, RECLAIM_DELAY_RECLAIM));
	assert_true(reclaim_task_delays_has(d, RECLAIM_DELAY_SWAPIN));
	assert_false(reclaim_task_delays_has(d, RECLAIM_DELAY_THRASHING));
	assert_false(reclaim_task_delays_has(d, RECLAIM_DELAY_COMPACT));
	assert_int_equal(reclaim_task_delays_count(d, RECLAIM_DELAY_THRASHING), 0);
	reclaim_task_delays_unref(d);
	free(p);
	assert_int_equal(reclaim_taskstats_parse("x", 1, 1, NULL, &d), -EINVAL);
}

static void test_delayacct(void **state)
{
	char *root = tmproot_new();
	struct reclaim_ctx *ctx;
	char *text;

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_delayacct_get(ctx), -ENOENT);
	assert_non_null(strstr(reclaim_strerror(ctx), "task_delayacct"));
	assert_int_equal(reclaim_delayacct_set(ctx, true), -ENOENT);
	tmproot_write(root, "/proc/sys/kernel/task_delayacct", "0\n");
	assert_int_equal(reclaim_delayacct_get(ctx), 0);
	assert_int_equal(reclaim_delayacct_set(ctx, true), 0);
	text = tmproot_read(root, "/proc/sys/kernel/task_delayacct");
	assert_string_equal(text, "1\n");
	free(text);
	assert_int_equal(reclaim_delayacct_get(ctx), 1);
	tmproot_write(root, "/proc/sys/kernel/task_delayacct", "2\n");
	assert_int_equal(reclaim_delayacct_get(ctx), -EINVAL);
	reclaim_unref(ctx);
	tmproot_remove(root);
}

static void test_proc_pids(void **state)
{
	char *root = tmproot_new();
	struct reclaim_taskstats *ts;
	struct reclaim_ctx *ctx;
	pid_t *pids;
	size_t n;

	tmproot_write(root, "/proc/300/comm", "b\n");
	tmproot_write(root, "/proc/20/comm", "a\n");
	tmproot_write(root, "/proc/self/comm", "x\n");
	tmproot_write(root, "/proc/sys/vm/swappiness", "60\n");
	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_proc_pids(ctx, &pids, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(pids[0], 20);
	assert_int_equal(pids[1], 300);
	free(pids);
	/* taskstats are the running kernel's: not under another root */
	assert_int_equal(reclaim_taskstats_new(ctx, &ts), -EOPNOTSUPP);
	reclaim_unref(ctx);
	tmproot_remove(root);
}

static void test_live_query(void **state)
{
	struct reclaim_task_delays *d;
	struct reclaim_taskstats *ts;
	struct reclaim_ctx *ctx;
	char *comm;
	int r;

	assert_int_equal(reclaim_new(&ctx, NULL), 0);
	r = reclaim_taskstats_new(ctx, &ts);
	if (r == -ENOENT) {
		reclaim_unref(ctx);
		skip();
	}
	assert_int_equal(r, 0);
	r = reclaim_taskstats_query(ts, getpid(), &d);
	if (r == -EPERM) {
		assert_non_null(strstr(reclaim_strerror(ctx), "CAP_NET_ADMIN"));
	} else {
		assert_int_equal(r, 0);
		assert_int_equal(reclaim_task_delays_pid(d), getpid());
		comm = tmproot_read("/proc/self", "/comm");
		assert_non_null(comm);
		comm[strcspn(comm, "\n")] = '\0';
		assert_string_equal(reclaim_task_delays_comm(d), comm);
		free(comm);
		assert_true(reclaim_task_delays_version(d) >= 8);
		reclaim_task_delays_unref(d);
		/* pid_max is at most 4194304: this one never exists */
		assert_int_equal(reclaim_taskstats_query(ts, 99999999, &d), -ESRCH);
	}
	reclaim_taskstats_unref(ts);
	reclaim_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_current), cmocka_unit_test(test_parse_old),
	    cmocka_unit_test(test_delayacct),	  cmocka_unit_test(test_proc_pids),
	    cmocka_unit_test(test_live_query),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
