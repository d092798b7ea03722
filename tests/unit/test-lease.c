// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Leases on a temporary root: the one rule (at the value from before, at
 * the holder's, changed by someone else), a release that puts back only
 * what is still the holder's through the change engine, and the state
 * files of adapt and sweep: claimed under the lock, refused while their
 * holder runs or holds a knob of the claim, given back after it died.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "internal.h"
#include "tmproot.h"

#define VM    "/proc/sys/vm/"
#define STATE "/run/reclaimctl/adapt"
#define SWEEP "/run/reclaimctl/sweep"

struct fixture {
	char *root;
	struct reclaim_ctx *ctx;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->root = tmproot_new();
	tmproot_write(f->root, VM "swappiness", "60\n");
	tmproot_write(f->root, VM "watermark_scale_factor", "10\n");
	tmproot_write(f->root, VM "kswapd_threads", "1\n");
	assert_int_equal(reclaim_new(&f->ctx, f->root), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	reclaim_unref(f->ctx);
	tmproot_remove(f->root);
	free(f);
	return 0;
}

static const struct reclaim_knob *knob_of(enum reclaim_knob_id id)
{
	return reclaim_knob_by_id(id);
}

static int64_t value(struct fixture *f, enum reclaim_knob_id id)
{
	int64_t v;

	assert_int_equal(reclaim_knob_read(f->ctx, knob_of(id), &v), 0);
	return v;
}

static void test_decide(void **state)
{
	assert_int_equal(reclaim_lease_decide(1, 4, 1), RECLAIM_LEASE_AT_BEFORE);
	assert_int_equal(reclaim_lease_decide(1, 4, 4), RECLAIM_LEASE_HELD);
	assert_int_equal(reclaim_lease_decide(1, 4, 7), RECLAIM_LEASE_CHANGED);
	/* nothing written yet: at the value from before */
	assert_int_equal(reclaim_lease_decide(1, 1, 1), RECLAIM_LEASE_AT_BEFORE);
}

/* Two knobs of a sweep: one still the holder's goes back, one changed since is left. */
static void test_release(void **state)
{
	struct fixture *f = *state;
	struct reclaim_lease *l;
	struct reclaim_eval *e;

	assert_int_equal(reclaim_lease_new(f->ctx, "sweep", &l), 0);
	assert_int_equal(reclaim_lease_hold(l, knob_of(RECLAIM_KNOB_SWAPPINESS), 60), 0);
	assert_int_equal(reclaim_lease_hold(l, knob_of(RECLAIM_KNOB_WATERMARK_SCALE_FACTOR), 10),
			 0);
	assert_int_equal(reclaim_lease_hold(l, knob_of(RECLAIM_KNOB_SWAPPINESS), 60), -EINVAL);
	tmproot_write(f->root, VM "swappiness", "20\n");
	tmproot_write(f->root, VM "watermark_scale_factor", "100\n");
	assert_int_equal(reclaim_lease_wrote(l, knob_of(RECLAIM_KNOB_SWAPPINESS), 20), 0);
	assert_int_equal(reclaim_lease_wrote(l, knob_of(RECLAIM_KNOB_WATERMARK_SCALE_FACTOR), 100),
			 0);
	/* someone else */
	tmproot_write(f->root, VM "watermark_scale_factor", "30\n");
	assert_int_equal(reclaim_lease_release(l, RECLAIM_REQUEST_SET, 0, "sweep:before",
					       "the value before", &e),
			 0);
	assert_non_null(e);
	assert_int_equal(reclaim_eval_count(e), 1);
	assert_int_equal(reclaim_lease_state(l, 0), RECLAIM_LEASE_HELD);
	assert_int_equal(reclaim_lease_now(l, 0), 20);
	assert_int_equal(reclaim_lease_state(l, 1), RECLAIM_LEASE_CHANGED);
	assert_int_equal(reclaim_lease_now(l, 1), 30);
	assert_int_equal(value(f, RECLAIM_KNOB_SWAPPINESS), 60);
	assert_int_equal(value(f, RECLAIM_KNOB_WATERMARK_SCALE_FACTOR), 30);
	reclaim_eval_unref(e);
	/* a second release finds it at its value from before: nothing to write */
	assert_int_equal(reclaim_lease_release(l, RECLAIM_REQUEST_SET, 0, NULL, NULL, &e), 0);
	assert_null(e);
	assert_int_equal(reclaim_lease_state(l, 0), RECLAIM_LEASE_AT_BEFORE);
	reclaim_lease_unref(l);
}

static void write_state(struct fixture *f, long pid, int baseline, int threads)
{
	char text[96];

	snprintf(text, sizeof(text), "pid=%ld\nbaseline=%d\nthreads=%d\n", pid, baseline, threads);
	tmproot_write(f->root, STATE, text);
	/* the state file must be root's (or the caller's) and private */
	{
		char *path;

		assert_true(asprintf(&path, "%s%s", f->root, STATE) > 0);
		assert_int_equal(chmod(path, 0600), 0);
		free(path);
	}
}

static void test_claim(void **state)
{
	struct fixture *f = *state;
	struct reclaim_lease *l, *other, *dead;
	struct reclaim_eval *e;
	int64_t pid, baseline, threads;
	char *text;

	assert_int_equal(reclaim_lease_new(f->ctx, "adapt", &l), 0);
	assert_int_equal(reclaim_lease_claim(l), -EINVAL); /* no knob held */
	assert_int_equal(reclaim_lease_hold(l, knob_of(RECLAIM_KNOB_KSWAPD_THREADS), 1), 0);
	/* adapt holds one knob, kswapd_threads */
	assert_int_equal(reclaim_lease_hold(l, knob_of(RECLAIM_KNOB_SWAPPINESS), 60), -EINVAL);
	assert_int_equal(reclaim_lease_claim(l), 0);
	text = tmproot_read(f->root, STATE);
	assert_non_null(text);
	{
		char want[64];

		snprintf(want, sizeof(want), "pid=%ld\nbaseline=1\nthreads=1\n", (long)getpid());
		assert_string_equal(text, want);
	}
	free(text);
	assert_int_equal(reclaim_lease_wrote(l, knob_of(RECLAIM_KNOB_KSWAPD_THREADS), 3), 0);
	assert_int_equal(reclaim_adapt_state_load(f->ctx, (pid_t *)&pid, &baseline, &threads), 0);
	assert_int_equal(threads, 3);

	/* a running holder (PID 1 always runs): refused, its file untouched */
	write_state(f, 1, 1, 2);
	assert_int_equal(reclaim_lease_new(f->ctx, "adapt", &other), 0);
	assert_int_equal(reclaim_lease_hold(other, knob_of(RECLAIM_KNOB_KSWAPD_THREADS), 1), 0);
	assert_int_equal(reclaim_lease_claim(other), -EBUSY);
	assert_string_equal(reclaim_strerror(f->ctx),
			    "adapt: already running as PID 1 (/run/reclaimctl/adapt)");
	/* one that is gone (no PID is that large): -ESTALE, and its lease loads */
	write_state(f, 4194304, 1, 2);
	assert_int_equal(reclaim_lease_claim(other), -ESTALE);
	assert_int_equal(reclaim_lease_load(f->ctx, "adapt", &dead), 0);
	assert_int_equal(reclaim_lease_pid(dead), 4194304);
	assert_false(reclaim_lease_alive(dead));
	assert_int_equal(reclaim_lease_before(dead, 0), 1);
	assert_int_equal(reclaim_lease_last(dead, 0), 2);
	/* someone else set 5: left alone, and the file goes */
	tmproot_write(f->root, VM "kswapd_threads", "5\n");
	assert_int_equal(reclaim_lease_release(dead, RECLAIM_REQUEST_ADAPT, 0, NULL, "back", &e),
			 0);
	assert_null(e);
	assert_int_equal(reclaim_lease_state(dead, 0), RECLAIM_LEASE_CHANGED);
	assert_int_equal(value(f, RECLAIM_KNOB_KSWAPD_THREADS), 5);
	reclaim_lease_unref(dead);
	assert_int_equal(reclaim_lease_load(f->ctx, "adapt", &dead), -ENOENT);
	/* now the claim succeeds, and a drop removes the file without writing */
	assert_int_equal(reclaim_lease_claim(other), 0);
	assert_int_equal(reclaim_lease_drop(other), 0);
	assert_null(tmproot_read(f->root, STATE));
	assert_int_equal(value(f, RECLAIM_KNOB_KSWAPD_THREADS), 5);
	reclaim_lease_unref(other);
	reclaim_lease_unref(l);

	/* a holder of another name keeps no state file */
	assert_int_equal(reclaim_lease_new(f->ctx, "bench", &l), 0);
	assert_int_equal(reclaim_lease_hold(l, knob_of(RECLAIM_KNOB_SWAPPINESS), 60), 0);
	assert_int_equal(reclaim_lease_claim(l), -EOPNOTSUPP);
	assert_int_equal(reclaim_lease_load(f->ctx, "bench", &dead), -EOPNOTSUPP);
	reclaim_lease_unref(l);
}

/* adapt holding both its knobs: the lease's format, read back whole, released whole */
static void test_adapt_two_knobs(void **state)
{
	struct fixture *f = *state;
	const struct reclaim_knob *wsf = knob_of(RECLAIM_KNOB_WATERMARK_SCALE_FACTOR);
	struct reclaim_lease *l, *dead;
	struct reclaim_eval *e = NULL;
	char want[160], *text;

	assert_int_equal(reclaim_lease_new(f->ctx, "adapt", &l), 0);
	assert_int_equal(reclaim_lease_hold(l, knob_of(RECLAIM_KNOB_KSWAPD_THREADS), 1), 0);
	assert_int_equal(reclaim_lease_hold(l, wsf, 10), 0);
	assert_int_equal(reclaim_lease_claim(l), 0);
	text = tmproot_read(f->root, STATE);
	snprintf(want, sizeof(want),
		 "pid=%ld\nknob=kswapd_threads before=1 last=1\n"
		 "knob=watermark_scale_factor before=10 last=10\n",
		 (long)getpid());
	assert_string_equal(text, want);
	free(text);
	tmproot_write(f->root, VM "watermark_scale_factor", "20\n");
	assert_int_equal(reclaim_lease_wrote(l, wsf, 20), 0);
	/* the file of the old format is not this one: its reader refuses it */
	{
		pid_t pid;
		int64_t baseline, threads;

		assert_int_equal(reclaim_adapt_state_load(f->ctx, &pid, &baseline, &threads),
				 -EBADMSG);
	}
	/* as if it died: the lease loads with both, and a release puts the watermark back */
	reclaim_lease_unref(l);
	text = tmproot_read(f->root, STATE);
	snprintf(want, sizeof(want),
		 "pid=%ld\nknob=kswapd_threads before=1 last=1\n"
		 "knob=watermark_scale_factor before=10 last=20\n",
		 (long)4194304);
	free(text);
	{
		char planted[160];

		snprintf(planted, sizeof(planted), "%s", want);
		tmproot_write(f->root, STATE, planted);
	}
	assert_int_equal(reclaim_lease_load(f->ctx, "adapt", &dead), 0);
	assert_int_equal(reclaim_lease_count(dead), 2);
	assert_ptr_equal(reclaim_lease_knob(dead, 1), wsf);
	assert_int_equal(reclaim_lease_last(dead, 1), 20);
	assert_int_equal(reclaim_lease_release(dead, RECLAIM_REQUEST_ADAPT, 0, NULL, "back", &e),
			 0);
	reclaim_eval_unref(e);
	assert_int_equal(reclaim_lease_state(dead, 0), RECLAIM_LEASE_AT_BEFORE);
	assert_int_equal(reclaim_lease_state(dead, 1), RECLAIM_LEASE_HELD);
	assert_int_equal(value(f, RECLAIM_KNOB_WATERMARK_SCALE_FACTOR), 10);
	assert_null(tmproot_read(f->root, STATE));
	reclaim_lease_unref(dead);
}

static struct reclaim_lease *sweep_of(struct fixture *f, bool threads)
{
	struct reclaim_lease *l;

	assert_int_equal(reclaim_lease_new(f->ctx, "sweep", &l), 0);
	assert_int_equal(reclaim_lease_hold(l, knob_of(RECLAIM_KNOB_SWAPPINESS), 60), 0);
	if (threads)
		assert_int_equal(reclaim_lease_hold(l, knob_of(RECLAIM_KNOB_KSWAPD_THREADS), 1), 0);
	return l;
}

/* A sweep's state file: several knobs, and no knob taken from a running adapt. */
static void test_sweep_claim(void **state)
{
	struct fixture *f = *state;
	struct reclaim_lease *l, *dead, *adapt;
	struct reclaim_eval *e;
	char want[160], *text;

	l = sweep_of(f, true);
	assert_int_equal(reclaim_lease_claim(l), 0);
	assert_int_equal(reclaim_lease_wrote(l, knob_of(RECLAIM_KNOB_SWAPPINESS), 10), 0);
	snprintf(want, sizeof(want),
		 "pid=%ld\nknob=swappiness before=60 last=10\nknob=kswapd_threads before=1 "
		 "last=1\n",
		 (long)getpid());
	text = tmproot_read(f->root, SWEEP);
	assert_string_equal(text, want);
	free(text);
	/* adapt cannot take kswapd_threads from a running sweep (PID 1 stands for it) */
	tmproot_write(f->root, SWEEP, "pid=1\nknob=kswapd_threads before=1 last=2\n");
	assert_int_equal(reclaim_lease_new(f->ctx, "adapt", &adapt), 0);
	assert_int_equal(reclaim_lease_hold(adapt, knob_of(RECLAIM_KNOB_KSWAPD_THREADS), 1), 0);
	assert_int_equal(reclaim_lease_claim(adapt), -EBUSY);
	assert_string_equal(reclaim_strerror(f->ctx),
			    "adapt: vm.kswapd_threads is held by sweep (PID 1, "
			    "/run/reclaimctl/sweep)");
	/* nor a second sweep anything while the first runs */
	assert_int_equal(reclaim_lease_claim(l), -EBUSY);
	assert_string_equal(reclaim_strerror(f->ctx),
			    "sweep: already running as PID 1 (/run/reclaimctl/sweep)");
	/* a sweep that is gone: -ESTALE; its lease puts back what is still its own */
	tmproot_write(f->root, VM "swappiness", "10\n");
	tmproot_write(f->root, SWEEP,
		      "pid=4194304\nknob=swappiness before=60 last=10\nknob=kswapd_threads "
		      "before=1 last=2\n");
	assert_int_equal(reclaim_lease_claim(l), -ESTALE);
	assert_string_equal(reclaim_strerror(f->ctx),
			    "sweep (PID 4194304) ended without giving its knobs back");
	/* a dead sweep does not keep adapt from kswapd_threads: the next sweep gives it back */
	assert_int_equal(reclaim_lease_claim(adapt), 0);
	assert_int_equal(reclaim_lease_drop(adapt), 0);
	assert_int_equal(reclaim_lease_load(f->ctx, "sweep", &dead), 0);
	assert_int_equal(reclaim_lease_count(dead), 2);
	assert_int_equal(
	    reclaim_lease_release(dead, RECLAIM_REQUEST_SET, 0, "sweep:before", "back", &e), 0);
	reclaim_eval_unref(e);
	assert_int_equal(reclaim_lease_state(dead, 0), RECLAIM_LEASE_HELD);
	assert_int_equal(reclaim_lease_state(dead, 1), RECLAIM_LEASE_AT_BEFORE);
	assert_int_equal(value(f, RECLAIM_KNOB_SWAPPINESS), 60);
	assert_null(tmproot_read(f->root, SWEEP));
	reclaim_lease_unref(dead);
	assert_int_equal(reclaim_lease_claim(l), 0);
	assert_int_equal(reclaim_lease_drop(l), 0);
	reclaim_lease_unref(adapt);
	reclaim_lease_unref(l);
}

/* A damaged sweep file is not believed, line by line. */
static void test_sweep_file_damaged(void **state)
{
	static const char *const bad[] = {
	    "pid=0\nknob=swappiness before=60 last=10\n",
	    "pid=12\n",
	    "pid=12\nknob=nosuch before=1 last=2\n",
	    "pid=12\nknob=swappiness before=60 last=999\n",
	    "pid=12\nknob=swappiness before=60 last=10 more\n",
	    "pid=12\nknob=swappiness before=60 last=10\nknob=swappiness before=60 last=10\n",
	    "knob=swappiness before=60 last=10\n",
	};
	struct fixture *f = *state;
	struct reclaim_lease *l = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		tmproot_write(f->root, SWEEP, bad[i]);
		assert_int_equal(reclaim_lease_load(f->ctx, "sweep", &l), -EBADMSG);
		assert_null(l);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_decide),
	    cmocka_unit_test_setup_teardown(test_release, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_claim, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_adapt_two_knobs, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_sweep_claim, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_sweep_file_damaged, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
