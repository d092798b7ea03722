// SPDX-License-Identifier: LGPL-2.1-or-later
/* kswapd threads: /proc/PID/stat parsing, thread names, the thread list. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "internal.h"
#include "tmproot.h"

#define PF_KTHREAD 0x00200000ul

/* A /proc/PID/stat line as Linux 6.x prints it (52 fields). */
static char *make_stat(int pid, const char *comm, char state, unsigned long flags,
		       unsigned long utime, unsigned long stime, int cpu)
{
	char *s;

	assert_true(asprintf(&s,
			     "%d (%s) %c 2 0 0 0 -1 %lu 0 0 0 0 %lu %lu 0 0 20 0 1 0 38 0 0 "
			     "18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 17 %d 0 0 0 0 "
			     "0 0 0 0 0 0 0 0 0\n",
			     pid, comm, state, flags, utime, stime, cpu) > 0);
	return s;
}

struct stat_result {
	int r;
	char comm[64];
	char state;
	uint64_t ticks;
	int last_cpu;
};

static struct stat_result parse(const char *text)
{
	struct stat_result res = {.state = '?', .ticks = 12345, .last_cpu = -99};

	res.r = reclaim_proc_stat_parse(text, res.comm, sizeof(res.comm), &res.state, &res.ticks,
					&res.last_cpu);
	return res;
}

static void test_stat_real_line(void **state)
{
	/* /proc/45/stat of kswapd0 on a Debian 12 guest; flags 2230336 = 0x220840. */
	struct stat_result res = parse("45 (kswapd0) S 2 0 0 0 -1 2230336 0 0 0 0 0 0 0 0 20 0 1 "
				       "0 38 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 "
				       "1 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n");

	assert_int_equal(res.r, 1);
	assert_string_equal(res.comm, "kswapd0");
	assert_int_equal(res.state, 'S');
	assert_int_equal(res.ticks, 0);
	assert_int_equal(res.last_cpu, 1);
}

static void test_stat_fields(void **state)
{
	char *text = make_stat(812, "kswapd3:2", 'R', PF_KTHREAD | 0x40, 1234, 567, 7);
	struct stat_result res = parse(text);

	assert_int_equal(res.r, 1);
	assert_string_equal(res.comm, "kswapd3:2");
	assert_int_equal(res.state, 'R');
	assert_int_equal(res.ticks, 1801);
	assert_int_equal(res.last_cpu, 7);
	free(text);
}

static void test_stat_kthread_flag(void **state)
{
	char *text;
	struct stat_result res;

	/* Every flag but PF_KTHREAD: a user task. */
	text = make_stat(1000, "kswapd0", 'S', ~PF_KTHREAD & 0xffffffffu, 1, 2, 0);
	res = parse(text);
	assert_int_equal(res.r, 0);
	assert_string_equal(res.comm, "kswapd0");
	assert_int_equal(res.ticks, 3);
	free(text);

	text = make_stat(1000, "kswapd0", 'S', PF_KTHREAD, 1, 2, 0);
	assert_int_equal(parse(text).r, 1);
	free(text);

	text = make_stat(1000, "bash", 'S', 0, 1, 2, 0);
	assert_int_equal(parse(text).r, 0);
	free(text);
}

static void test_stat_comm_with_spaces_and_parens(void **state)
{
	static const struct {
		const char *comm;
	} cases[] = {
	    {"my (weird) proc"},
	    {"(my (weird) proc)"},
	    {"a b c"},
	    {"a) b) c"},
	    {")"},
	    {"("},
	    {""},
	    {"x) S 2 0 0 0 -1 0 0 0 0 0 99 99 0"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *text = make_stat(77, cases[i].comm, 'D', PF_KTHREAD, 10, 20, 3);
		struct stat_result res = parse(text);

		assert_int_equal(res.r, 1);
		assert_string_equal(res.comm, cases[i].comm);
		assert_int_equal(res.state, 'D');
		assert_int_equal(res.ticks, 30);
		assert_int_equal(res.last_cpu, 3);
		free(text);
	}
}

static void test_stat_comm_truncated_to_buffer(void **state)
{
	char *text = make_stat(77, "my (weird) proc", 'S', 0, 1, 1, 0);
	char comm[4];
	char st = 0;
	uint64_t ticks = 0;
	int cpu = 0;

	assert_int_equal(reclaim_proc_stat_parse(text, comm, sizeof(comm), &st, &ticks, &cpu), 0);
	assert_string_equal(comm, "my ");
	assert_int_equal(st, 'S');
	assert_int_equal(ticks, 2);
	free(text);
}

static void test_stat_without_processor_field(void **state)
{
	/* 15 fields are enough for the CPU time; the last CPU is then unknown. */
	static const char *const ok[] = {
	    "1 (x) S 2 0 0 0 -1 2097152 0 0 0 0 5 6\n",
	    "1 (x) S 2 0 0 0 -1 2097152 0 0 0 0 5 6",
	    "1 (x) S 2 0 0 0 -1 2097152 0 0 0 0 5 6 ",
	    "1 (x) S 2 0 0 0 -1 2097152 0 0 0 0 5 6 0 0 20 0 1 0 38\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		struct stat_result res = parse(ok[i]);

		assert_int_equal(res.r, 1);
		assert_int_equal(res.ticks, 11);
		assert_int_equal(res.last_cpu, -1);
	}
}

static void test_stat_truncated(void **state)
{
	static const char *const bad[] = {
	    "",
	    "1",
	    "1 (x",
	    "1 (x)",
	    "1 (x) ",
	    "1 (x)\n",
	    "1 (x) S",
	    "1 (x) S\n",
	    "1 (x) S 2 0 0 0 -1 2097152\n",
	    /* stime (field 15) missing, with and without a newline or trailing space */
	    "1 (x) S 2 0 0 0 -1 2097152 0 0 0 0 5\n",
	    "1 (x) S 2 0 0 0 -1 2097152 0 0 0 0 5",
	    "1 (x) S 2 0 0 0 -1 2097152 0 0 0 0 5 ",
	    "1 (x) S 2 0 0 0 -1 2097152 0 0 0 0 5 \n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct stat_result res = parse(bad[i]);

		if (res.r != -EINVAL)
			fail_msg("\"%s\": got %d, want -EINVAL", bad[i], res.r);
		assert_int_equal(res.ticks, 12345);
	}
}

static void test_stat_malformed(void **state)
{
	static const char *const bad[] = {
	    "1 x S 2 0 0 0 -1 0 0 0 0 0 5 6\n",	    "1 )x( S 2 0 0 0 -1 0 0 0 0 0 5 6\n",
	    "1 (x)S 2 0 0 0 -1 0 0 0 0 0 5 6\n",    "1 (x)  S 2 0 0 0 -1 0 0 0 0 0 5 6\n",
	    "1 (x) S 2 0 0 0 -1 abc 0 0 0 0 5 6\n", "1 (x) S 2 0 0 0 -1 0 0 0 0 0 five 6\n",
	    "1 (x) S 2 0 0 0 -1 0 0 0 0 0 5 six\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		if (parse(bad[i]).r != -EINVAL)
			fail_msg("\"%s\" accepted", bad[i]);
	}
}

static void test_name_accepted(void **state)
{
	static const struct {
		const char *name;
		int node, index;
	} cases[] = {
	    {"kswapd0", 0, 0},	 {"kswapd1", 1, 0},	{"kswapd12:3", 12, 3},
	    {"kswapd0:0", 0, 0}, {"kswapd7:15", 7, 15}, {"kswapd1023", 1023, 0},
	    {"kswapd00", 0, 0},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int node = -5, index = -5;

		if (!reclaim_kswapd_parse_name(cases[i].name, &node, &index))
			fail_msg("\"%s\" rejected", cases[i].name);
		assert_int_equal(node, cases[i].node);
		assert_int_equal(index, cases[i].index);
	}
	/* node and index are optional outputs */
	assert_true(reclaim_kswapd_parse_name("kswapd4:1", NULL, NULL));
}

static void test_name_rejected(void **state)
{
	static const char *const bad[] = {
	    "kswapd",	  "kswapdx",	"kswapd0:",  "kswapd0:1:2", "xkswapd0", "kswapd-1",
	    "kswapd0 ",	  " kswapd0",	"kswapd0:x", "kswapd:1",    "KSWAPD0",	"kswapd0x",
	    "kswapd0:-1", "kswapd0::1", "",	     "kswapd 0",    "kswap0",	"kswapd+1",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int node = -5, index = -5;

		if (reclaim_kswapd_parse_name(bad[i], &node, &index))
			fail_msg("\"%s\" accepted", bad[i]);
		assert_int_equal(node, -5);
		assert_int_equal(index, -5);
	}
	assert_false(reclaim_kswapd_parse_name(NULL, NULL, NULL));
}

/* A task in a temporary root: /proc/PID/stat and, if @allowed, /proc/PID/status. */
static void add_task(const char *root, int pid, const char *comm, unsigned long flags,
		     unsigned long utime, unsigned long stime, int cpu, const char *allowed)
{
	char path[64], *text;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	text = make_stat(pid, comm, 'S', flags, utime, stime, cpu);
	tmproot_write(root, path, text);
	free(text);
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (allowed) {
		assert_true(asprintf(&text,
				     "Name:\t%s\nState:\tS (sleeping)\nCpus_allowed:\tff\n"
				     "Cpus_allowed_list:\t%s\nMems_allowed_list:\t0\n",
				     comm, allowed) > 0);
	} else {
		assert_true(asprintf(&text, "Name:\t%s\nState:\tS (sleeping)\n", comm) > 0);
	}
	tmproot_write(root, path, text);
	free(text);
}

static void assert_thread(const struct reclaim_kswapd *k, pid_t pid, const char *name, int node,
			  int index, uint64_t ticks, int cpu, const unsigned int *allowed,
			  size_t nallowed)
{
	const unsigned int *cpus;
	size_t n = 999;
	long hz = sysconf(_SC_CLK_TCK);

	assert_non_null(k);
	assert_int_equal(reclaim_kswapd_pid(k), pid);
	assert_string_equal(reclaim_kswapd_name(k), name);
	assert_int_equal(reclaim_kswapd_node(k), node);
	assert_int_equal(reclaim_kswapd_index(k), index);
	assert_int_equal(reclaim_kswapd_state(k), 'S');
	assert_true(reclaim_kswapd_cpu_seconds(k) == (double)ticks / (double)hz);
	assert_int_equal(reclaim_kswapd_last_cpu(k), cpu);
	cpus = reclaim_kswapd_allowed_cpus(k, &n);
	assert_int_equal(n, nallowed);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(cpus[i], allowed[i]);
}

static void test_list_from_kthreadd_children(void **state)
{
	static const unsigned int node0[] = {0, 1, 2, 3}, node1[] = {4, 5, 6, 7};
	struct reclaim_kswapd_list *l = NULL;
	struct reclaim_ctx *ctx;
	char *root = tmproot_new();

	/* Unsorted; 48 is no kswapd; 49 has exited since the list was read. */
	tmproot_write(root, "/proc/2/task/2/children", "50 47 46 48 49 45 \n");
	add_task(root, 45, "kswapd0", PF_KTHREAD, 100, 50, 1, "0-3");
	add_task(root, 46, "kswapd0:1", PF_KTHREAD, 7, 0, 2, "0-3");
	add_task(root, 47, "kswapd1", PF_KTHREAD, 0, 0, 5, "4-7");
	add_task(root, 48, "kworker/0:1", PF_KTHREAD, 0, 0, 0, "0");
	add_task(root, 50, "kswapd1:2", PF_KTHREAD, 3, 4, 6, NULL);

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_kswapd_list_new(ctx, &l), 0);
	assert_int_equal(reclaim_kswapd_list_count(l), 4);
	assert_thread(reclaim_kswapd_list_get(l, 0), 45, "kswapd0", 0, 0, 150, 1, node0, 4);
	assert_thread(reclaim_kswapd_list_get(l, 1), 46, "kswapd0:1", 0, 1, 7, 2, node0, 4);
	assert_thread(reclaim_kswapd_list_get(l, 2), 47, "kswapd1", 1, 0, 0, 5, node1, 4);
	/* No Cpus_allowed_list line: no allowed CPUs known. */
	assert_thread(reclaim_kswapd_list_get(l, 3), 50, "kswapd1:2", 1, 2, 7, 6, NULL, 0);
	assert_null(reclaim_kswapd_list_get(l, 4));
	assert_int_equal(reclaim_kswapd_list_count_node(l, 0), 2);
	assert_int_equal(reclaim_kswapd_list_count_node(l, 1), 2);
	assert_int_equal(reclaim_kswapd_list_count_node(l, 2), 0);

	/* The list outlives the context and holds its own reference count. */
	reclaim_unref(ctx);
	assert_ptr_equal(reclaim_kswapd_list_ref(l), l);
	assert_null(reclaim_kswapd_list_unref(l));
	assert_string_equal(reclaim_kswapd_name(reclaim_kswapd_list_get(l, 1)), "kswapd0:1");
	assert_null(reclaim_kswapd_list_unref(l));
	tmproot_remove(root);
}

static void test_list_scan_proc_needs_kthread_flag(void **state)
{
	struct reclaim_kswapd_list *l = NULL;
	struct reclaim_ctx *ctx;
	char *root = tmproot_new();

	/* No children file (kernel without CONFIG_PROC_CHILDREN): every /proc/PID is looked at. */
	add_task(root, 45, "kswapd0", PF_KTHREAD, 1, 1, 0, "0-1");
	add_task(root, 4000, "kswapd0", 0, 1, 1, 0, "0-1"); /* a user process in disguise */
	add_task(root, 47, "kswapd1:1", PF_KTHREAD, 1, 1, 0, "2-3");
	add_task(root, 1, "systemd", 0, 1, 1, 0, "0-3");
	tmproot_write(root, "/proc/meminfo", "MemTotal: 1 kB\n");
	tmproot_mkdirs(root, "proc/self");
	tmproot_mkdirs(root, "proc/12abc");

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_kswapd_list_new(ctx, &l), 0);
	assert_int_equal(reclaim_kswapd_list_count(l), 2);
	assert_int_equal(reclaim_kswapd_pid(reclaim_kswapd_list_get(l, 0)), 45);
	assert_int_equal(reclaim_kswapd_pid(reclaim_kswapd_list_get(l, 1)), 47);
	assert_int_equal(reclaim_kswapd_index(reclaim_kswapd_list_get(l, 1)), 1);
	reclaim_kswapd_list_unref(l);
	reclaim_unref(ctx);
	tmproot_remove(root);
}

static void test_list_no_proc(void **state)
{
	struct reclaim_kswapd_list *l = NULL;
	struct reclaim_ctx *ctx;
	char *root = tmproot_new();

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_kswapd_list_new(ctx, &l), 0);
	assert_int_equal(reclaim_kswapd_list_count(l), 0);
	assert_int_equal(reclaim_kswapd_list_count_node(l, 0), 0);
	reclaim_kswapd_list_unref(l);
	reclaim_unref(ctx);
	tmproot_remove(root);
}

static void test_list_errors(void **state)
{
	struct reclaim_kswapd_list *l = NULL;
	struct reclaim_ctx *ctx;
	char *root = tmproot_new();

	assert_int_equal(reclaim_new(&ctx, root), 0);

	tmproot_write(root, "/proc/2/task/2/children", "45 4x6\n");
	add_task(root, 45, "kswapd0", PF_KTHREAD, 1, 1, 0, "0-1");
	assert_int_equal(reclaim_kswapd_list_new(ctx, &l), -EINVAL);
	assert_null(l);
	assert_string_equal(reclaim_strerror(ctx), "/proc/2/task/2/children: malformed");

	tmproot_write(root, "/proc/2/task/2/children", "45 -3\n");
	assert_int_equal(reclaim_kswapd_list_new(ctx, &l), -EINVAL);
	/* found by fuzzing: a pid past the kernel's limit was cut to an int */
	tmproot_write(root, "/proc/2/task/2/children", "45 4194305\n");
	assert_int_equal(reclaim_kswapd_list_new(ctx, &l), -EINVAL);
	tmproot_write(root, "/proc/2/task/2/children", "45 4294967341\n");
	assert_int_equal(reclaim_kswapd_list_new(ctx, &l), -EINVAL);
	assert_string_equal(reclaim_strerror(ctx), "/proc/2/task/2/children: malformed");

	/* A malformed stat file is an error, not a missing thread. */
	tmproot_write(root, "/proc/2/task/2/children", "45 46\n");
	tmproot_write(root, "/proc/46/stat", "46 (kswapd1) S 2\n");
	assert_int_equal(reclaim_kswapd_list_new(ctx, &l), -EINVAL);
	assert_null(l);
	assert_string_equal(reclaim_strerror(ctx), "/proc/46/stat: malformed");

	/* So is a malformed Cpus_allowed_list; thread 45, already read, is freed. */
	add_task(root, 46, "kswapd1", PF_KTHREAD, 1, 1, 0, "0-z");
	assert_int_equal(reclaim_kswapd_list_new(ctx, &l), -EINVAL);
	assert_null(l);
	assert_non_null(strstr(reclaim_strerror(ctx), "/proc/46/status"));

	add_task(root, 46, "kswapd1", PF_KTHREAD, 1, 1, 0, "2-3");
	assert_int_equal(reclaim_kswapd_list_new(ctx, &l), 0);
	assert_int_equal(reclaim_kswapd_list_count(l), 2);
	reclaim_kswapd_list_unref(l);
	reclaim_unref(ctx);
	tmproot_remove(root);
}

static void test_null_accessors(void **state)
{
	size_t n = 5;

	assert_int_equal(reclaim_kswapd_pid(NULL), -EINVAL);
	assert_null(reclaim_kswapd_name(NULL));
	assert_int_equal(reclaim_kswapd_node(NULL), -EINVAL);
	assert_int_equal(reclaim_kswapd_state(NULL), '?');
	assert_null(reclaim_kswapd_allowed_cpus(NULL, &n));
	assert_int_equal(reclaim_kswapd_list_count(NULL), 0);
	assert_null(reclaim_kswapd_list_get(NULL, 0));
	assert_int_equal(reclaim_kswapd_list_new(NULL, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stat_real_line),
	    cmocka_unit_test(test_stat_fields),
	    cmocka_unit_test(test_stat_kthread_flag),
	    cmocka_unit_test(test_stat_comm_with_spaces_and_parens),
	    cmocka_unit_test(test_stat_comm_truncated_to_buffer),
	    cmocka_unit_test(test_stat_without_processor_field),
	    cmocka_unit_test(test_stat_truncated),
	    cmocka_unit_test(test_stat_malformed),
	    cmocka_unit_test(test_name_accepted),
	    cmocka_unit_test(test_name_rejected),
	    cmocka_unit_test(test_list_from_kthreadd_children),
	    cmocka_unit_test(test_list_scan_proc_needs_kthread_flag),
	    cmocka_unit_test(test_list_no_proc),
	    cmocka_unit_test(test_list_errors),
	    cmocka_unit_test(test_null_accessors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
