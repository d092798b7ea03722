// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Counter deltas and rates: the reset/wrap rule, rates between two samples
 * on recorded /proc/vmstat files, the sampler re-reading files it keeps open
 * and following kswapd threads that come and go.
 */
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

#define STAT_FMT                                                                                   \
	"%d (%s) S 2 0 0 0 -1 2129984 0 0 0 0 %d %d 0 0 20 0 1 0 10 0 0 "                          \
	"18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 %d 0 0 0 0 0 0 0 0 0 0 0 0 0\n"

static void test_counter_delta(void **state)
{
	assert_int_equal(reclaim_counter_delta(10, 25), 15);
	assert_int_equal(reclaim_counter_delta(7, 7), 0);
	/* backwards: a reset or a wrap counts 0, never 2^64 - 3 */
	assert_int_equal(reclaim_counter_delta(10, 7), 0);
	/* a 32-bit counter that wrapped */
	assert_int_equal(reclaim_counter_delta(4294967290u, 5), 0);
	assert_int_equal(reclaim_counter_delta(UINT64_MAX - 1, UINT64_MAX), 1);
	assert_int_equal(reclaim_counter_delta(UINT64_MAX, 0), 0);
}

static void test_counter_rate(void **state)
{
	assert_true(reclaim_counter_rate(100, 300, 2.0) == 100.0);
	assert_true(reclaim_counter_rate(300, 100, 2.0) == 0.0);
	assert_true(reclaim_counter_rate(100, 300, 0.0) == 0.0);
	assert_true(reclaim_counter_rate(100, 300, -1.0) == 0.0);
}

static char *fixture(const char *name)
{
	char path[512];
	char *text;

	snprintf(path, sizeof(path), "%s", FIXTURES_DIR "/rates");
	text = tmproot_read(path, name);
	assert_non_null(text);
	return text;
}

/* A root with /proc/vmstat, PSI and kthreadd's children (none). */
static char *minimal_root(const char *vmstat)
{
	char *root = tmproot_new();

	tmproot_write(root, "/proc/vmstat", vmstat);
	tmproot_write(root, "/proc/pressure/memory",
		      "some avg10=1.50 avg60=0.00 avg300=0.00 total=1000\n"
		      "full avg10=0.50 avg60=0.00 avg300=0.00 total=400\n");
	tmproot_write(root, "/proc/2/task/2/children", "");
	return root;
}

static struct reclaim_sample *sample(struct reclaim_sampler *s)
{
	struct reclaim_sample *smp = NULL;

	assert_int_equal(reclaim_sampler_read(s, &smp), 0);
	assert_non_null(smp);
	return smp;
}

/* Every reclaim counter's rate between the samples is its delta / interval, or 0 backwards. */
static void check_rates(const struct reclaim_sample *a, const struct reclaim_sample *b)
{
	const struct reclaim_vmstat *va = reclaim_sample_vmstat(a), *vb = reclaim_sample_vmstat(b);
	double secs = reclaim_sample_interval(a, b);
	size_t checked = 0;

	assert_true(secs > 0.0);
	for (size_t i = 0; i < reclaim_vmstat_count(vb); i++) {
		const char *name = reclaim_vmstat_name(vb, i);
		uint64_t x, y = reclaim_vmstat_value(vb, i);
		double rate, want;

		assert_int_equal(reclaim_vmstat_get(va, name, &x), 0);
		assert_int_equal(reclaim_sample_rate(a, b, name, &rate), 0);
		want = y >= x ? (double)(y - x) / secs : 0.0;
		assert_true(rate >= want * 0.999999 && rate <= want * 1.000001);
		checked++;
	}
	assert_true(checked > 20);
}

static void test_recorded_forwards_and_backwards(void **state)
{
	char *a = fixture("/live-a.vmstat"), *b = fixture("/live-b.vmstat");
	char *root = minimal_root(a);
	struct reclaim_sample *s1, *s2, *s3;
	struct reclaim_sampler *s;
	struct reclaim_ctx *ctx;
	double rate;

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_sampler_new(ctx, 0, &s), 0);
	s1 = sample(s);
	/* rewritten in place: the sampler's open file sees the new text */
	tmproot_write(root, "/proc/vmstat", b);
	s2 = sample(s);
	check_rates(s1, s2);
	assert_int_equal(reclaim_sample_rate(s1, s2, "workingset_refault_file", &rate), 0);
	assert_true(rate > 0.0);
	/* the same files backwards: every counter went down, every rate is 0 */
	tmproot_write(root, "/proc/vmstat", a);
	s3 = sample(s);
	check_rates(s2, s3);
	assert_int_equal(reclaim_sample_rate(s2, s3, "workingset_refault_file", &rate), 0);
	assert_true(rate == 0.0);
	/* a family: allocstall_ sums allocstall_dma, _dma32, _normal, _movable, _device */
	assert_int_equal(reclaim_sample_rate(s1, s2, "allocstall_", &rate), 0);
	assert_int_equal(reclaim_sample_rate(s1, s2, "no_such_counter", &rate), -ENOENT);
	reclaim_sample_unref(s1);
	reclaim_sample_unref(s2);
	reclaim_sample_unref(s3);
	reclaim_sampler_unref(s);
	reclaim_unref(ctx);
	tmproot_remove(root);
	free(a);
	free(b);
}

static void test_family_sum_and_wrap(void **state)
{
	char *root = minimal_root("allocstall_dma32 10\nallocstall_normal 4294967290\n"
				  "pgscan_kswapd 100\npgscan_direct 50\n");
	struct reclaim_sample *s1, *s2;
	struct reclaim_sampler *s;
	struct reclaim_ctx *ctx;
	double rate, secs;

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_sampler_new(ctx, 0, &s), 0);
	s1 = sample(s);
	/* allocstall_normal wraps (32-bit), dma32 grows by 6, pgscan_direct is reset */
	tmproot_write(
	    root, "/proc/vmstat",
	    "allocstall_dma32 16\nallocstall_normal 5\npgscan_kswapd 400\npgscan_direct 3\n");
	s2 = sample(s);
	secs = reclaim_sample_interval(s1, s2);
	assert_int_equal(reclaim_sample_rate(s1, s2, "allocstall_", &rate), 0);
	assert_true(rate > 6.0 / secs * 0.999999 && rate < 6.0 / secs * 1.000001);
	assert_int_equal(reclaim_sample_rate(s1, s2, "pgscan_direct", &rate), 0);
	assert_true(rate == 0.0);
	assert_int_equal(reclaim_sample_rate(s1, s2, "pgscan_kswapd", &rate), 0);
	assert_true(rate > 300.0 / secs * 0.999999 && rate < 300.0 / secs * 1.000001);
	assert_non_null(reclaim_sample_pressure(s2));
	assert_true(reclaim_pressure_avg10(reclaim_sample_pressure(s2), RECLAIM_PRESSURE_SOME) ==
		    1.5);
	reclaim_sample_unref(s1);
	reclaim_sample_unref(s2);
	reclaim_sampler_unref(s);
	reclaim_unref(ctx);
	tmproot_remove(root);
}

static void write_thread(const char *root, int pid, const char *name, int utime, int stime)
{
	char path[64], text[512];

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	snprintf(text, sizeof(text), STAT_FMT, pid, name, utime, stime, 0);
	tmproot_write(root, path, text);
}

static ssize_t find_thread(const struct reclaim_sample *smp, const char *name)
{
	for (size_t i = 0; i < reclaim_sample_kswapd_count(smp); i++)
		if (strcmp(reclaim_sample_kswapd_name(smp, i), name) == 0)
			return (ssize_t)i;
	return -1;
}

static void test_threads_come_and_go(void **state)
{
	char *root = minimal_root("pgscan_kswapd 1\n");
	struct reclaim_sample *s1, *s2, *s3;
	struct reclaim_sampler *s;
	struct reclaim_ctx *ctx;
	long hz = sysconf(_SC_CLK_TCK);
	ssize_t i;
	double pct;

	write_thread(root, 9, "kworker/0:0", 0, 0);
	write_thread(root, 88, "kswapd0", 0, 100);
	tmproot_write(root, "/proc/2/task/2/children", "9 88 ");
	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_sampler_new(ctx, RECLAIM_SAMPLER_KNOBS, &s), 0);
	s1 = sample(s);
	assert_int_equal(reclaim_sample_kswapd_count(s1), 1);
	assert_false(reclaim_sample_kswapd_changed(s1));
	assert_true(reclaim_sample_kswapd_cpu_seconds(s1, 0) == 100.0 / (double)hz);

	/* a thread comes (kswapd0:1, from 0), kswapd0 runs on */
	write_thread(root, 88, "kswapd0", 0, 100 + (int)hz / 10);
	write_thread(root, 1200, "kswapd0:1", 0, 5);
	tmproot_write(root, "/proc/2/task/2/children", "9 88 1200 ");
	s2 = sample(s);
	assert_true(reclaim_sample_kswapd_changed(s2));
	assert_int_equal(reclaim_sample_kswapd_count(s2), 2);
	i = find_thread(s2, "kswapd0");
	assert_true(i >= 0);
	pct = reclaim_sample_kswapd_cpu_percent(s1, s2, (size_t)i);
	assert_true(pct > 0.0);
	assert_true(pct * reclaim_sample_interval(s1, s2) / 100.0 > 0.099 &&
		    pct * reclaim_sample_interval(s1, s2) / 100.0 < 0.101);
	/* the new thread's whole CPU time is its use over the interval */
	i = find_thread(s2, "kswapd0:1");
	assert_true(i >= 0);
	pct = reclaim_sample_kswapd_cpu_percent(s1, s2, (size_t)i);
	assert_true(pct * reclaim_sample_interval(s1, s2) / 100.0 > 5.0 / (double)hz * 0.999);

	/* it goes again: no change in the children, nothing changed in the threads */
	tmproot_write(root, "/proc/2/task/2/children", "9 88 ");
	s3 = sample(s);
	assert_true(reclaim_sample_kswapd_changed(s3));
	assert_int_equal(reclaim_sample_kswapd_count(s3), 1);
	assert_string_equal(reclaim_sample_kswapd_name(s3, 0), "kswapd0");
	reclaim_sample_unref(s3);
	s3 = sample(s);
	assert_false(reclaim_sample_kswapd_changed(s3));

	reclaim_sample_unref(s1);
	reclaim_sample_unref(s2);
	reclaim_sample_unref(s3);
	reclaim_sampler_unref(s);
	reclaim_unref(ctx);
	tmproot_remove(root);
}

/* Without kthreadd's children file: one /proc scan, again when the knob changes. */
static void test_threads_without_children_file(void **state)
{
	char *root = minimal_root("pgscan_kswapd 1\n");
	struct reclaim_sample *s1, *s2;
	struct reclaim_sampler *s;
	struct reclaim_ctx *ctx;

	tmproot_unlink(root, "/proc/2/task/2/children");
	write_thread(root, 88, "kswapd0", 0, 1);
	/* a kernel thread flag is needed outside kthreadd's children: the format has it */
	tmproot_write(root, "/proc/sys/vm/kswapd_threads", "1\n");
	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_sampler_new(ctx, RECLAIM_SAMPLER_KNOBS, &s), 0);
	s1 = sample(s);
	assert_int_equal(reclaim_sample_kswapd_count(s1), 1);
	write_thread(root, 1200, "kswapd0:1", 0, 1);
	tmproot_write(root, "/proc/sys/vm/kswapd_threads", "2\n");
	s2 = sample(s);
	assert_int_equal(reclaim_sample_kswapd_count(s2), 2);
	assert_true(reclaim_sample_kswapd_changed(s2));
	reclaim_sample_unref(s1);
	reclaim_sample_unref(s2);
	reclaim_sampler_unref(s);
	reclaim_unref(ctx);
	tmproot_remove(root);
}

static void test_knobs_and_nodes(void **state)
{
	char *root = minimal_root("workingset_refault_file 10\n");
	struct reclaim_sample *s1, *s2;
	struct reclaim_sampler *s;
	struct reclaim_ctx *ctx;
	const struct reclaim_knob *threads = reclaim_knob_find("threads");
	const struct reclaim_knob *throttle = reclaim_knob_find("throttle");
	int64_t v;
	double rate;

	tmproot_write(root, "/proc/sys/vm/kswapd_threads", "1\n");
	tmproot_write(root, "/sys/devices/system/node/online", "0-1\n");
	tmproot_write(root, "/sys/devices/system/node/node0/cpulist", "0\n");
	tmproot_write(root, "/sys/devices/system/node/node1/cpulist", "1\n");
	tmproot_write(root, "/sys/devices/system/node/node0/vmstat", "workingset_refault_file 5\n");
	tmproot_write(root, "/sys/devices/system/node/node1/vmstat", "workingset_refault_file 5\n");
	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(
	    reclaim_sampler_new(ctx, RECLAIM_SAMPLER_KNOBS | RECLAIM_SAMPLER_NODES, &s), 0);
	s1 = sample(s);
	assert_int_equal(reclaim_sample_node_count(s1), 2);
	assert_int_equal(reclaim_sample_knob(s1, threads, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(reclaim_sample_knob(s1, throttle, &v), -EOPNOTSUPP);
	tmproot_write(root, "/proc/sys/vm/kswapd_threads", "4\n");
	tmproot_write(root, "/sys/devices/system/node/node1/vmstat", "workingset_refault_file 9\n");
	s2 = sample(s);
	assert_int_equal(reclaim_sample_knob(s2, threads, &v), 0);
	assert_int_equal(v, 4);
	assert_int_equal(reclaim_sample_node_rate(s1, s2, 0, "workingset_refault_", &rate), 0);
	assert_true(rate == 0.0);
	assert_int_equal(reclaim_sample_node_rate(s1, s2, 1, "workingset_refault_", &rate), 0);
	assert_true(rate > 0.0);
	assert_int_equal(reclaim_sample_node_rate(s1, s2, 7, "workingset_refault_", &rate),
			 -ENOENT);
	reclaim_sample_unref(s1);
	reclaim_sample_unref(s2);
	reclaim_sampler_unref(s);
	reclaim_unref(ctx);
	tmproot_remove(root);
}

static void test_sampler_errors(void **state)
{
	char *root = tmproot_new();
	struct reclaim_sampler *s;
	struct reclaim_ctx *ctx;

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_sampler_new(ctx, 0, &s), -ENOENT);
	assert_non_null(strstr(reclaim_strerror(ctx), "/proc/vmstat"));
	assert_int_equal(reclaim_sampler_new(ctx, 1u << 7, &s), -EINVAL);
	reclaim_unref(ctx);
	tmproot_remove(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_counter_delta),
	    cmocka_unit_test(test_counter_rate),
	    cmocka_unit_test(test_recorded_forwards_and_backwards),
	    cmocka_unit_test(test_family_sum_and_wrap),
	    cmocka_unit_test(test_threads_come_and_go),
	    cmocka_unit_test(test_threads_without_children_file),
	    cmocka_unit_test(test_knobs_and_nodes),
	    cmocka_unit_test(test_sampler_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
