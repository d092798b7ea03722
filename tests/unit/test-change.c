// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Transactions over several knobs, on a temporary root.
 *
 * The test is linked with --wrap=reclaim_write_string: every write the library
 * makes goes through __wrap_reclaim_write_string() below. With mock_writes set,
 * each write must have been announced with expect_write() (path, text, result),
 * in order, or cmocka fails the test; a result < 0 makes that write fail for
 * real (nothing is written), anything else performs it.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "history-internal.h"
#include "tmproot.h"

#define VM	"/proc/sys/vm/"
#define HISTORY "/run/reclaimctl/history"

static bool mock_writes;
/* With a root set: the history as it is at the first knob write (the intent before the write). */
static const char *snapshot_root;
static char *history_at_write;
/* A signal raised at each knob write, and whether its handler ran before the write returned. */
static int raise_at_write;
static volatile sig_atomic_t got_signal;
static bool signal_during_write;

int __real_reclaim_write_string(const struct reclaim_ctx *ctx, const char *path, const char *s);
int __wrap_reclaim_write_string(const struct reclaim_ctx *ctx, const char *path, const char *s);

int __wrap_reclaim_write_string(const struct reclaim_ctx *ctx, const char *path, const char *s)
{
	if (snapshot_root && !history_at_write && strstr(path, "/proc/sys/vm/"))
		history_at_write = tmproot_read(snapshot_root, "/run/reclaimctl/history");
	if (raise_at_write) {
		raise(raise_at_write);
		signal_during_write = signal_during_write || got_signal;
	}
	if (mock_writes) {
		int r;

		check_expected(path);
		check_expected(s);
		r = mock_type(int);
		if (r < 0)
			return r;
	}
	return __real_reclaim_write_string(ctx, path, s);
}

static void expect_write(const char *path, const char *s, int result)
{
	expect_string(__wrap_reclaim_write_string, path, path);
	expect_string(__wrap_reclaim_write_string, s, s);
	will_return(__wrap_reclaim_write_string, result);
}

struct fixture {
	char *root;
	struct reclaim_ctx *ctx;
	struct reclaim_change *change;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->root = tmproot_new();
	tmproot_write(f->root, VM "kswapd_threads", "1\n");
	tmproot_write(f->root, VM "max_direct_reclaimers", "0\n");
	tmproot_write(f->root, VM "swap_round_robin_quota_kb", "2048\n");
	tmproot_write(f->root, VM "swappiness", "60\n");
	assert_int_equal(reclaim_new(&f->ctx, f->root), 0);
	assert_int_equal(reclaim_change_new(f->ctx, &f->change), 0);
	mock_writes = true;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	mock_writes = false;
	reclaim_change_unref(f->change);
	reclaim_unref(f->ctx);
	tmproot_remove(f->root);
	free(f);
	return 0;
}

static void assert_file(const struct fixture *f, const char *path, const char *want)
{
	tmproot_assert_file(f->root, path, want);
}

/* threads=4, throttle=8, swap-quota=4096: three knobs to change. */
static void add_three(struct fixture *f)
{
	assert_int_equal(reclaim_change_add(f->change, knob("threads"), 4), 0);
	assert_int_equal(reclaim_change_add(f->change, knob("throttle"), 8), 0);
	assert_int_equal(reclaim_change_add(f->change, knob("swap-quota"), 4096), 0);
}

static void test_apply_writes_all(void **state)
{
	struct fixture *f = *state;

	add_three(f);
	assert_int_equal(reclaim_change_count(f->change), 3);
	expect_write(VM "kswapd_threads", "4\n", 0);
	expect_write(VM "max_direct_reclaimers", "8\n", 0);
	expect_write(VM "swap_round_robin_quota_kb", "4096\n", 0);
	assert_int_equal(reclaim_change_apply(f->change), 0);

	assert_file(f, VM "kswapd_threads", "4\n");
	assert_file(f, VM "max_direct_reclaimers", "8\n");
	assert_file(f, VM "swap_round_robin_quota_kb", "4096\n");
	assert_file(f, VM "swappiness", "60\n");
	assert_int_equal(reclaim_change_failed_index(f->change), -1);

	assert_ptr_equal(reclaim_change_knob(f->change, 0), knob("kswapd_threads"));
	assert_ptr_equal(reclaim_change_knob(f->change, 2), knob("swap_round_robin_quota_kb"));
	assert_null(reclaim_change_knob(f->change, 3));
	assert_int_equal(reclaim_change_new_value(f->change, 0), 4);
	assert_int_equal(reclaim_change_new_value(f->change, 1), 8);
	assert_int_equal(reclaim_change_new_value(f->change, 2), 4096);
	assert_int_equal(reclaim_change_old_value(f->change, 0), 1);
	assert_int_equal(reclaim_change_old_value(f->change, 1), 0);
	assert_int_equal(reclaim_change_old_value(f->change, 2), 2048);
}

static void test_apply_without_mock(void **state)
{
	struct fixture *f = *state;

	/* The real write path, unobserved. */
	mock_writes = false;
	add_three(f);
	assert_int_equal(reclaim_change_apply(f->change), 0);
	assert_file(f, VM "kswapd_threads", "4\n");
	assert_file(f, VM "max_direct_reclaimers", "8\n");
	assert_file(f, VM "swap_round_robin_quota_kb", "4096\n");
}

static void test_second_write_fails(void **state)
{
	struct fixture *f = *state;

	add_three(f);
	expect_write(VM "kswapd_threads", "4\n", 0);
	expect_write(VM "max_direct_reclaimers", "8\n", -EIO);
	/* Rollback of the first; the third is never touched. */
	expect_write(VM "kswapd_threads", "1\n", 0);
	assert_int_equal(reclaim_change_apply(f->change), -EIO);

	assert_int_equal(reclaim_change_failed_index(f->change), 1);
	assert_file(f, VM "kswapd_threads", "1\n");
	assert_file(f, VM "max_direct_reclaimers", "0\n");
	assert_file(f, VM "swap_round_robin_quota_kb", "2048\n");
	assert_string_equal(reclaim_strerror(f->ctx),
			    "cannot set vm.max_direct_reclaimers=8: Input/output error; restored "
			    "vm.kswapd_threads=1");
	assert_int_equal(reclaim_change_old_value(f->change, 0), 1);
	assert_int_equal(reclaim_change_old_value(f->change, 1), 0);
}

static void test_kernel_refuses_value(void **state)
{
	struct fixture *f = *state;

	add_three(f);
	expect_write(VM "kswapd_threads", "4\n", 0);
	expect_write(VM "max_direct_reclaimers", "8\n", 0);
	expect_write(VM "swap_round_robin_quota_kb", "4096\n", -EINVAL);
	expect_write(VM "max_direct_reclaimers", "0\n", 0);
	expect_write(VM "kswapd_threads", "1\n", 0);
	assert_int_equal(reclaim_change_apply(f->change), -EINVAL);
	assert_int_equal(reclaim_change_failed_index(f->change), 2);
	assert_file(f, VM "kswapd_threads", "1\n");
	assert_file(f, VM "max_direct_reclaimers", "0\n");
	assert_file(f, VM "swap_round_robin_quota_kb", "2048\n");
	assert_string_equal(reclaim_strerror(f->ctx),
			    "cannot set vm.swap_round_robin_quota_kb=4096: the kernel refused the "
			    "value; restored vm.max_direct_reclaimers=0, vm.kswapd_threads=1");
}

static void test_first_write_fails(void **state)
{
	struct fixture *f = *state;

	add_three(f);
	expect_write(VM "kswapd_threads", "4\n", -EACCES);
	assert_int_equal(reclaim_change_apply(f->change), -EACCES);
	assert_int_equal(reclaim_change_failed_index(f->change), 0);
	assert_file(f, VM "kswapd_threads", "1\n");
	assert_file(f, VM "max_direct_reclaimers", "0\n");
	assert_file(f, VM "swap_round_robin_quota_kb", "2048\n");
	/* Root is refused only by a read-only file; anyone else needs root. */
	assert_string_equal(reclaim_strerror(f->ctx),
			    geteuid() == 0
				? "cannot set vm.kswapd_threads=4: permission denied (the "
				  "file is read-only)"
				: "cannot set vm.kswapd_threads=4: permission denied (needs root)");
}

static void test_failing_rollback_keeps_first_error(void **state)
{
	struct fixture *f = *state;

	add_three(f);
	expect_write(VM "kswapd_threads", "4\n", 0);
	expect_write(VM "max_direct_reclaimers", "8\n", -EROFS);
	expect_write(VM "kswapd_threads", "1\n", -EIO);
	assert_int_equal(reclaim_change_apply(f->change), -EROFS);
	assert_int_equal(reclaim_change_failed_index(f->change), 1);
	/* The message must not claim a restore that failed. */
	assert_string_equal(
	    reclaim_strerror(f->ctx),
	    "cannot set vm.max_direct_reclaimers=8: /proc/sys/vm/max_direct_reclaimers "
	    "is read-only (in a container?); could not restore vm.kswapd_threads=1");
	assert_file(f, VM "kswapd_threads", "4\n");
}

static void test_partly_failing_rollback(void **state)
{
	struct fixture *f = *state;

	add_three(f);
	expect_write(VM "kswapd_threads", "4\n", 0);
	expect_write(VM "max_direct_reclaimers", "8\n", 0);
	expect_write(VM "swap_round_robin_quota_kb", "4096\n", -EIO);
	/* Rolled back newest first; one of the two restores fails, the other still happens. */
	expect_write(VM "max_direct_reclaimers", "0\n", -EIO);
	expect_write(VM "kswapd_threads", "1\n", 0);
	assert_int_equal(reclaim_change_apply(f->change), -EIO);
	assert_int_equal(reclaim_change_failed_index(f->change), 2);
	assert_string_equal(
	    reclaim_strerror(f->ctx),
	    "cannot set vm.swap_round_robin_quota_kb=4096: Input/output error; restored "
	    "vm.kswapd_threads=1; could not restore vm.max_direct_reclaimers=0");
	assert_file(f, VM "kswapd_threads", "1\n");
	assert_file(f, VM "max_direct_reclaimers", "8\n");
}

static void test_unchanged_knobs_are_not_written(void **state)
{
	struct fixture *f = *state;

	tmproot_write(f->root, VM "max_direct_reclaimers", "8\n");
	add_three(f);
	/* throttle already 8: only the other two are written, and only they are restored. */
	expect_write(VM "kswapd_threads", "4\n", 0);
	expect_write(VM "swap_round_robin_quota_kb", "4096\n", -EIO);
	expect_write(VM "kswapd_threads", "1\n", 0);
	assert_int_equal(reclaim_change_apply(f->change), -EIO);
	assert_int_equal(reclaim_change_failed_index(f->change), 2);
	assert_string_equal(reclaim_strerror(f->ctx),
			    "cannot set vm.swap_round_robin_quota_kb=4096: Input/output error; "
			    "restored vm.kswapd_threads=1");
	assert_file(f, VM "kswapd_threads", "1\n");
	assert_file(f, VM "max_direct_reclaimers", "8\n");
}

/*
 * kswapd_threads at its value: the engine writes it again only for a node
 * short of threads (cli case patched-set-threads-short-node); a root
 * without kswapd processes has none, so nothing is written or recorded.
 */
static void test_unchanged_threads_are_left(void **state)
{
	struct fixture *f = *state;

	/* No expect_write(): any write fails the test. */
	assert_int_equal(reclaim_change_add(f->change, knob("threads"), 1), 0);
	assert_int_equal(reclaim_change_apply(f->change), 0);
	assert_int_equal(reclaim_change_old_value(f->change, 0), 1);
	assert_null(tmproot_read(f->root, HISTORY));
}

static void test_missing_knob_fails_before_writing(void **state)
{
	struct fixture *f = *state;

	tmproot_unlink(f->root, VM "max_direct_reclaimers");
	add_three(f);
	/* No expect_write(): any write fails the test. */
	assert_int_equal(reclaim_change_apply(f->change), -EOPNOTSUPP);
	assert_int_equal(reclaim_change_failed_index(f->change), 1);
	assert_string_equal(
	    reclaim_strerror(f->ctx),
	    "this kernel has no vm.max_direct_reclaimers (no "
	    "/proc/sys/vm/max_direct_reclaimers): it needs reclaimctl's kernel patches (KNOBS in reclaimctl(8))");
	assert_file(f, VM "kswapd_threads", "1\n");
	assert_file(f, VM "swap_round_robin_quota_kb", "2048\n");
	assert_null(tmproot_read(f->root, VM "max_direct_reclaimers"));
}

static void test_unreadable_old_value_fails_before_writing(void **state)
{
	struct fixture *f = *state;

	tmproot_write(f->root, VM "swap_round_robin_quota_kb", "lots\n");
	add_three(f);
	assert_int_equal(reclaim_change_apply(f->change), -EINVAL);
	assert_int_equal(reclaim_change_failed_index(f->change), 2);
	assert_file(f, VM "kswapd_threads", "1\n");
	assert_file(f, VM "max_direct_reclaimers", "0\n");
}

static void test_add_out_of_range_is_refused(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(reclaim_change_add(f->change, knob("threads"), 17), -ERANGE);
	assert_string_equal(
	    reclaim_strerror(f->ctx),
	    "invalid value '17' for kswapd_threads: expected an integer from 1 to 16");
	assert_int_equal(reclaim_change_add(f->change, knob("threads"), 0), -ERANGE);
	assert_int_equal(reclaim_change_add(f->change, knob("throttle"), -1), -ERANGE);
	assert_int_equal(reclaim_change_add(f->change, knob("swap-quota"), 1048577), -ERANGE);
	assert_non_null(strstr(reclaim_strerror(f->ctx), "from 0 to 1048576"));
	/* A negative size is out of range like any other number, not "not a value". */
	assert_int_equal(reclaim_change_add(f->change, knob("swap-quota"), -1), -ERANGE);
	assert_int_equal(reclaim_change_count(f->change), 0);
	/* Nothing to do: nothing written. */
	assert_int_equal(reclaim_change_apply(f->change), 0);
}

static void test_knob_write_out_of_range_is_refused(void **state)
{
	struct fixture *f = *state;

	/* No expect_write(): reaching the write fails the test. */
	assert_int_equal(reclaim_knob_write(f->ctx, knob("threads"), 17), -ERANGE);
	assert_int_equal(reclaim_knob_write(f->ctx, knob("throttle"), 1025), -ERANGE);
	assert_int_equal(reclaim_knob_write(f->ctx, knob("swap-quota"), -1), -ERANGE);
	assert_file(f, VM "kswapd_threads", "1\n");

	expect_write(VM "kswapd_threads", "16\n", 0);
	assert_int_equal(reclaim_knob_write(f->ctx, knob("threads"), 16), 0);
	assert_file(f, VM "kswapd_threads", "16\n");
}

static void test_add_twice_replaces(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(reclaim_change_add(f->change, knob("threads"), 4), 0);
	assert_int_equal(reclaim_change_add(f->change, knob("swappiness"), 10), 0);
	assert_int_equal(reclaim_change_add(f->change, knob("vm.kswapd_threads"), 6), 0);
	assert_int_equal(reclaim_change_count(f->change), 2);
	assert_int_equal(reclaim_change_new_value(f->change, 0), 6);
	expect_write(VM "kswapd_threads", "6\n", 0);
	expect_write(VM "swappiness", "10\n", 0);
	assert_int_equal(reclaim_change_apply(f->change), 0);
	assert_file(f, VM "kswapd_threads", "6\n");
	assert_file(f, VM "swappiness", "10\n");
}

static void test_failed_index_reset_by_next_apply(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(reclaim_change_add(f->change, knob("threads"), 4), 0);
	expect_write(VM "kswapd_threads", "4\n", -EIO);
	assert_int_equal(reclaim_change_apply(f->change), -EIO);
	assert_int_equal(reclaim_change_failed_index(f->change), 0);
	assert_string_equal(reclaim_strerror(f->ctx),
			    "cannot set vm.kswapd_threads=4: Input/output error");
	expect_write(VM "kswapd_threads", "4\n", 0);
	assert_int_equal(reclaim_change_apply(f->change), 0);
	assert_int_equal(reclaim_change_failed_index(f->change), -1);
	assert_file(f, VM "kswapd_threads", "4\n");
}

static void test_change_holds_context(void **state)
{
	struct fixture *f = *state;

	/* Drop the caller's context reference: the change keeps its own. */
	reclaim_unref(f->ctx);
	assert_int_equal(reclaim_change_add(f->change, knob("threads"), 2), 0);
	expect_write(VM "kswapd_threads", "2\n", 0);
	assert_int_equal(reclaim_change_apply(f->change), 0);
	assert_ptr_equal(reclaim_change_ref(f->change), f->change);
	assert_null(reclaim_change_unref(f->change));
	assert_int_equal(reclaim_change_count(f->change), 1);
	/* teardown unrefs the change (freeing it and the context) and the context again */
	reclaim_ref(f->ctx);
}

static void test_null_arguments(void **state)
{
	struct reclaim_change *c = (struct reclaim_change *)0x1;

	assert_int_equal(reclaim_change_new(NULL, &c), -EINVAL);
	assert_ptr_equal(c, (struct reclaim_change *)0x1);
	assert_int_equal(reclaim_change_add(NULL, knob("threads"), 1), -EINVAL);
	assert_int_equal(reclaim_change_apply(NULL), -EINVAL);
	assert_int_equal(reclaim_change_failed_index(NULL), -1);
	assert_int_equal(reclaim_change_count(NULL), 0);
	assert_null(reclaim_change_unref(NULL));
}

/* A history's text with every " time=..." field taken out. */
static char *without_times(char *text)
{
	char *p;

	while (text && (p = strstr(text, " time=")) != NULL) {
		char *end = strchr(p + 1, ' ');

		assert_non_null(end);
		memmove(p, end, strlen(end) + 1);
	}
	return text;
}

static void assert_history_text(char *text, const char *want)
{
	without_times(text);
	if (!text)
		fail_msg("%s does not exist", HISTORY);
	if (strcmp(text, want) != 0)
		fail_msg("%s is \"%s\", want \"%s\"", HISTORY, text, want);
	free(text);
}

static void assert_history(const struct fixture *f, const char *want)
{
	assert_history_text(tmproot_read(f->root, HISTORY), want);
}

static void apply_one(struct fixture *f, const char *name, int64_t value)
{
	struct reclaim_change *c;

	assert_int_equal(reclaim_change_new(f->ctx, &c), 0);
	assert_int_equal(reclaim_change_add(c, knob(name), value), 0);
	assert_int_equal(reclaim_change_apply(c), 0);
	reclaim_change_unref(c);
}

#define REC(n, k, o, v) "change=" #n " command=set source=value knob=" k " old=" #o " new=" #v "\n"
/* A change is recorded before it is written (its intent), and marked done after. */
#define INTENT(n, k) "# intent change=" #n " records=" #k "\n"
#define DONE(n)	     "# done change=" #n "\n"

static void test_history_records_each_change(void **state)
{
	struct fixture *f = *state;

	mock_writes = false;
	add_three(f);
	assert_int_equal(reclaim_change_apply(f->change), 0);
	assert_history(f, INTENT(1, 3) REC(1, "kswapd_threads", 1, 4)
			      REC(1, "max_direct_reclaimers", 0, 8)
				  REC(1, "swap_round_robin_quota_kb", 2048, 4096) DONE(1));
	apply_one(f, "throttle", 2);
	/* A change that changes nothing records nothing. */
	apply_one(f, "throttle", 2);
	assert_history(f, INTENT(1, 3) REC(1, "kswapd_threads", 1, 4)
			      REC(1, "max_direct_reclaimers", 0, 8)
				  REC(1, "swap_round_robin_quota_kb", 2048, 4096) DONE(1)
				      INTENT(2, 1) REC(2, "max_direct_reclaimers", 8, 2) DONE(2));
}

static void test_restore_undoes_newest_first(void **state)
{
	struct fixture *f = *state;
	struct reclaim_change *restore, *again;

	mock_writes = false;
	add_three(f);
	assert_int_equal(reclaim_change_apply(f->change), 0);
	apply_one(f, "throttle", 2);
	/* The newest change first: throttle back to 8, the rest stays. */
	assert_int_equal(reclaim_change_new_restore(f->ctx, &restore), 0);
	assert_int_equal(reclaim_change_count(restore), 1);
	assert_int_equal(reclaim_change_apply(restore), 0);
	reclaim_change_unref(restore);
	assert_file(f, VM "max_direct_reclaimers", "8\n");
	assert_file(f, VM "kswapd_threads", "4\n");
	/* Then the one before. */
	assert_int_equal(reclaim_change_new_restore(f->ctx, &restore), 0);
	assert_int_equal(reclaim_change_count(restore), 3);
	assert_int_equal(reclaim_change_apply(restore), 0);
	reclaim_change_unref(restore);
	assert_file(f, VM "kswapd_threads", "1\n");
	assert_file(f, VM "max_direct_reclaimers", "0\n");
	assert_file(f, VM "swap_round_robin_quota_kb", "2048\n");
	assert_int_equal(reclaim_change_new_restore(f->ctx, &again), -ENOENT);
	assert_string_equal(reclaim_strerror(f->ctx),
			    "nothing to restore: no change since boot or the last restore");
}

/* The deprecated writers are the engine's request: locked and recorded. */
static void test_knob_write_is_recorded(void **state)
{
	struct fixture *f = *state;

	mock_writes = false;
	assert_int_equal(reclaim_knob_write(f->ctx, knob("threads"), 4), 0);
	assert_int_equal(reclaim_knob_write(f->ctx, knob("swappiness"), 10), 0);
	assert_history(f, INTENT(1, 1) REC(1, "kswapd_threads", 1, 4) DONE(1) INTENT(2, 1)
			      REC(2, "swappiness", 60, 10) DONE(2));
}

/* A restore made before another change undoes nothing once that change came. */
static void test_stale_restore_writes_nothing(void **state)
{
	struct fixture *f = *state;
	struct reclaim_change *restore;

	mock_writes = false;
	apply_one(f, "throttle", 2);
	assert_int_equal(reclaim_change_new_restore(f->ctx, &restore), 0);
	apply_one(f, "swappiness", 10);
	assert_int_equal(reclaim_change_apply(restore), -ESTALE);
	reclaim_change_unref(restore);
	assert_file(f, VM "max_direct_reclaimers", "2\n");
	assert_file(f, VM "swappiness", "10\n");
}

/* A failed change is rolled back and its intent cut off: the history is as it was, to the byte. */
static void test_failed_apply_keeps_history(void **state)
{
	struct fixture *f = *state;
	const char *before = "change=1 time=1.000000000 command=set source=value knob=swappiness "
			     "old=60 new=30\n"
			     "# intent change=2 records=1\n"
			     "change=2 time=2.000000000 command=set source=value knob=swappiness "
			     "old=30 new=20\n"
			     "# done change=2\n";

	tmproot_write(f->root, HISTORY, before);
	add_three(f);
	expect_write(VM "kswapd_threads", "4\n", 0);
	expect_write(VM "max_direct_reclaimers", "8\n", -EIO);
	expect_write(VM "kswapd_threads", "1\n", 0);
	assert_int_equal(reclaim_change_apply(f->change), -EIO);
	assert_file(f, HISTORY, before);
}

static void test_damaged_history_stops_apply(void **state)
{
	struct fixture *f = *state;

	tmproot_write(f->root, HISTORY,
		      "change=1 time=1.000000000 command=change source=value knob=swappiness "
		      "old=60 new=30\nchange=2 knob=swappiness\n");
	add_three(f);
	/* No expect_write(): any write fails the test. */
	assert_int_equal(reclaim_change_apply(f->change), -EBADMSG);
	assert_string_equal(reclaim_strerror(f->ctx),
			    "/run/reclaimctl/history:2: not a history record");
	assert_file(f, VM "kswapd_threads", "1\n");
}

/* /run/reclaimctl is made 0700 whatever the umask. */
static void test_run_dir_mode(void **state)
{
	struct fixture *f = *state;
	char path[PATH_MAX];
	struct stat st;
	mode_t old = umask(0777);

	mock_writes = false;
	apply_one(f, "throttle", 5);
	umask(old);
	snprintf(path, sizeof(path), "%s/run/reclaimctl", f->root);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
}

/* A record cut short by a crash is ignored, and dropped by the next append. */
static void test_torn_record_is_ignored(void **state)
{
	struct fixture *f = *state;
	struct reclaim_history *h;

	mock_writes = false;
	tmproot_write(f->root, HISTORY,
		      "change=1 time=1.000000000 command=set source=value knob=swappiness "
		      "old=60 new=30\nchange=2 time=2.0000");
	assert_int_equal(reclaim_history_new(f->ctx, &h), 0);
	assert_int_equal(reclaim_history_count(h), 1);
	reclaim_history_unref(h);
	apply_one(f, "throttle", 5);
	assert_history(f, REC(1, "swappiness", 60, 30) INTENT(2, 1)
			      REC(2, "max_direct_reclaimers", 0, 5) DONE(2));
}

/*
 * Found by fuzzing: a history of NUL bytes read as empty, and a change
 * appended its record after them, making the file binary data for good.
 * NUL bytes, even ending the file, are refused; nothing is written.
 */
static void test_nul_bytes_are_refused(void **state)
{
	static const char rec[] = "change=1 time=1.000000000 command=change source=value "
				  "knob=swappiness old=60 new=30\n";
	struct fixture *f = *state;
	struct reclaim_history *h = NULL;
	char path[PATH_MAX];
	FILE *fp;

	mock_writes = false;
	tmproot_mkdirs(f->root, "run/reclaimctl");
	snprintf(path, sizeof(path), "%s%s", f->root, HISTORY);
	fp = fopen(path, "we");
	assert_non_null(fp);
	assert_int_equal(fwrite(rec, 1, sizeof(rec) - 1, fp), sizeof(rec) - 1);
	assert_int_equal(fwrite("\0\0\0\0", 1, 4, fp), 4);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(reclaim_history_new(f->ctx, &h), -EILSEQ);
	assert_null(h);
	assert_string_equal(reclaim_strerror(f->ctx), "cannot read /run/reclaimctl/history: binary "
						      "data (a NUL byte), not text");
}

/* The bound: the first record of each knob and the last reclaim_history_keep. */
static void test_history_is_bounded(void **state)
{
	struct fixture *f = *state;
	struct reclaim_history *h;
	unsigned int keep = reclaim_history_keep;

	mock_writes = false;
	reclaim_history_keep = 3;
	apply_one(f, "swappiness", 10);
	for (int v = 1; v <= 6; v++)
		apply_one(f, "throttle", v);
	reclaim_history_keep = keep;
	assert_int_equal(reclaim_history_new(f->ctx, &h), 0);
	/* 7 records; at most 2 (the first of each knob) + 3 stay. */
	assert_true(reclaim_history_count(h) <= 5);
	assert_string_equal(reclaim_knob_name(reclaim_history_knob(h, 0)), "swappiness");
	assert_int_equal(reclaim_history_old_value(h, 0), 60);
	assert_string_equal(reclaim_knob_name(reclaim_history_knob(h, 1)), "max_direct_reclaimers");
	assert_int_equal(reclaim_history_old_value(h, 1), 0);
	assert_int_equal(reclaim_history_new_value(h, reclaim_history_count(h) - 1), 6);
	assert_int_equal(reclaim_history_change(h, reclaim_history_count(h) - 1), 7);
	assert_true(reclaim_history_trimmed(h) > 0);
	reclaim_history_unref(h);
}

/* The change is in the history before its first write: its intent, not yet done. */
static void test_intent_is_recorded_before_the_write(void **state)
{
	struct fixture *f = *state;

	mock_writes = false;
	snapshot_root = f->root;
	apply_one(f, "throttle", 5);
	snapshot_root = NULL;
	assert_history_text(history_at_write, INTENT(1, 1) REC(1, "max_direct_reclaimers", 0, 5));
	history_at_write = NULL;
	assert_history(f, INTENT(1, 1) REC(1, "max_direct_reclaimers", 0, 5) DONE(1));
}

/* A failed first change leaves no history at all, as before it. */
static void test_failed_first_change_leaves_no_history(void **state)
{
	struct fixture *f = *state;
	char *text;

	assert_int_equal(reclaim_change_add(f->change, knob("throttle"), 8), 0);
	expect_write(VM "max_direct_reclaimers", "8\n", -EIO);
	assert_int_equal(reclaim_change_apply(f->change), -EIO);
	text = tmproot_read(f->root, HISTORY);
	if (text)
		fail_msg("%s exists: \"%s\"", HISTORY, text);
}

static void on_signal(int sig)
{
	got_signal = sig;
}

/*
 * A SIGTERM during the writes waits until the change is written and
 * recorded done; then its handler runs, and the mask is as it was.
 */
static void test_signal_waits_for_the_record(void **state)
{
	struct fixture *f = *state;
	struct sigaction sa = {.sa_handler = on_signal}, old;
	sigset_t mask;

	mock_writes = false;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGTERM, &sa, &old), 0);
	got_signal = 0;
	signal_during_write = false;
	raise_at_write = SIGTERM;
	add_three(f);
	assert_int_equal(reclaim_change_apply(f->change), 0);
	raise_at_write = 0;
	assert_false(signal_during_write);
	assert_int_equal(got_signal, SIGTERM);
	assert_int_equal(sigprocmask(SIG_BLOCK, NULL, &mask), 0);
	assert_false(sigismember(&mask, SIGTERM));
	assert_int_equal(sigaction(SIGTERM, &old, NULL), 0);
	assert_history(f, INTENT(1, 3) REC(1, "kswapd_threads", 1, 4)
			      REC(1, "max_direct_reclaimers", 0, 8)
				  REC(1, "swap_round_robin_quota_kb", 2048, 4096) DONE(1));
}

/*
 * Records of an intent with no done line are interrupted; with one, and
 * those of a history before intents, are not. An interrupted restore undid
 * nothing.
 */
static void test_intent_without_done_is_interrupted(void **state)
{
	struct fixture *f = *state;
	struct reclaim_history *h;

	tmproot_write(f->root, HISTORY,
		      "change=1 time=1.000000000 command=set source=value knob=swappiness "
		      "old=60 new=30\n"
		      "# intent change=2 records=2\n"
		      "change=2 time=2.000000000 command=set source=value knob=swappiness "
		      "old=30 new=20\n"
		      "change=2 time=2.000000000 command=set source=value knob=kswapd_threads "
		      "old=1 new=2\n"
		      "# done change=2\n"
		      "# intent change=3 records=1\n"
		      "change=3 time=3.000000000 command=restore source=change:2 "
		      "knob=swappiness old=20 new=30 undoes=2\n"
		      "# intent change=4 records=1\n"
		      "change=4 time=4.000000000 command=set source=value knob=swappiness "
		      "old=30 new=10\n");
	assert_int_equal(reclaim_history_new(f->ctx, &h), 0);
	assert_int_equal(reclaim_history_count(h), 5);
	assert_false(reclaim_history_interrupted(h, 0));
	assert_false(reclaim_history_interrupted(h, 1));
	assert_false(reclaim_history_interrupted(h, 2));
	assert_true(reclaim_history_interrupted(h, 3));
	assert_false(reclaim_history_undone(h, 1));
	assert_true(reclaim_history_interrupted(h, 4));
	assert_false(reclaim_history_interrupted(NULL, 0));
	reclaim_history_unref(h);
}

/* Another writer holds the lock: this one waits, gives up, and writes nothing. */
static void test_lock_is_exclusive(void **state)
{
	struct fixture *f = *state;
	char *path;
	int fd, ready[2], release[2];
	pid_t pid;
	char c;

	tmproot_write(f->root, "/run/reclaimctl/lock", "");
	assert_true(asprintf(&path, "%s/run/reclaimctl/lock", f->root) > 0);
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(release), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		close(release[1]);
		fd = open(path, O_RDWR);
		if (fd < 0 || flock(fd, LOCK_EX) < 0 || write(ready[1], "x", 1) != 1)
			_exit(1);
		/* Held until the parent closes its end of the release pipe. */
		if (read(release[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(ready[1]);
	close(release[0]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	mock_writes = false;
	reclaim_lock_timeout_ms = 200;
	assert_int_equal(reclaim_change_add(f->change, knob("threads"), 4), 0);
	assert_int_equal(reclaim_change_apply(f->change), -EBUSY);
	assert_non_null(strstr(reclaim_strerror(f->ctx), "another reclaimctl is changing knobs"));
	assert_file(f, VM "kswapd_threads", "1\n");
	close(release[1]);
	close(ready[0]);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	/* Released: the same change goes through. */
	assert_int_equal(reclaim_change_apply(f->change), 0);
	reclaim_lock_timeout_ms = 10000;
	free(path);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_apply_writes_all),
	    T(test_apply_without_mock),
	    T(test_second_write_fails),
	    T(test_kernel_refuses_value),
	    T(test_first_write_fails),
	    T(test_failing_rollback_keeps_first_error),
	    T(test_partly_failing_rollback),
	    T(test_unchanged_knobs_are_not_written),
	    T(test_unchanged_threads_are_left),
	    T(test_history_records_each_change),
	    T(test_intent_is_recorded_before_the_write),
	    T(test_failed_first_change_leaves_no_history),
	    T(test_signal_waits_for_the_record),
	    T(test_intent_without_done_is_interrupted),
	    T(test_restore_undoes_newest_first),
	    T(test_knob_write_is_recorded),
	    T(test_stale_restore_writes_nothing),
	    T(test_failed_apply_keeps_history),
	    T(test_damaged_history_stops_apply),
	    T(test_torn_record_is_ignored),
	    T(test_nul_bytes_are_refused),
	    T(test_run_dir_mode),
	    T(test_history_is_bounded),
	    T(test_lock_is_exclusive),
	    T(test_missing_knob_fails_before_writing),
	    T(test_unreadable_old_value_fails_before_writing),
	    T(test_add_out_of_range_is_refused),
	    T(test_knob_write_out_of_range_is_refused),
	    T(test_add_twice_replaces),
	    T(test_failed_index_reset_by_next_apply),
	    T(test_change_holds_context),
	    cmocka_unit_test(test_null_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
