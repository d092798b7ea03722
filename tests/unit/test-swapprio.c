// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live priority change against a pretend kernel: swapon(2), swapoff(2)
 * and the "is this the running system" test are wrapped (ld --wrap), and the
 * wrappers keep the temporary root's /proc/swaps as the kernel would. So the
 * order of the calls, their flags, the refusals and every way back from a
 * failure are checked without touching the machine.
 *
 * The progress of a swapoff: the pretend swapoff(2) blocks, like the real
 * one, until the progress thread has seen the device's Used go down step by
 * step; each step is written to /proc/swaps by the callback itself (which
 * runs between two readings), so what the thread reads is never a file
 * half written.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <time.h>

#include <cmocka.h>

#include "swap-internal.h"
#include "tmproot.h"

#define DISCARD_ONCE	  0x20000
#define SWAPS_HEADER_TEXT "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"

static struct {
	const char *root;
	char path[PATH_MAX];
	unsigned long size, used;
	int prio;
	bool on, live;
	int next_auto;
	int swapoff_result;
	int swapon_results[8]; /* for the successive swapon calls; 0 past the end */
	int swapon_flags[8];
	size_t swapon_calls, swapoff_calls;
} k;

static void write_swaps(void)
{
	char *text;

	if (k.on)
		assert_true(asprintf(&text,
				     "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
				     "%s file\t\t%lu\t\t%lu\t\t%d\n",
				     k.path, k.size, k.used, k.prio) > 0);
	else
		text = strdup("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	tmproot_write(k.root, "/proc/swaps", text);
	free(text);
}

/* The same from the progress thread, without cmocka's assertions: false if it failed. */
static bool write_swaps_text(const char *text)
{
	char full[PATH_MAX];
	size_t len = strlen(text);
	bool ok;
	int fd;

	snprintf(full, sizeof(full), "%s/proc/swaps", k.root);
	fd = open(full, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = write(fd, text, len) == (ssize_t)len;
	return close(fd) == 0 && ok;
}

static bool write_swaps_quiet(void)
{
	char text[PATH_MAX + 256];

	snprintf(text, sizeof(text),
		 "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
		 "%s file\t\t%lu\t\t%lu\t\t%d\n",
		 k.path, k.size, k.used, k.prio);
	return write_swaps_text(text);
}

/* What the progress callback saw, and how the pretend swapoff drains the device. */
#define PROGRESS_MS 20
#define MAX_CALLS   64

enum drain {
	DRAIN_NONE,   /* swapoff returns at once */
	DRAIN_STEPS,  /* swapoff returns once the callback has seen every step */
	DRAIN_BREAKS, /* the callback makes /proc/swaps malformed after its first reading */
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t main;
	enum drain drain;
	const unsigned long *steps; /* the Used values the device goes through */
	size_t nsteps, next;
	bool drained, broken, write_failed;
	size_t calls;
	uint64_t used[MAX_CALLS], total[MAX_CALLS];
	bool in_main[MAX_CALLS], sigint_blocked[MAX_CALLS], plan_ok[MAX_CALLS];
	const struct reclaim_swap_plan *plan;
} pg = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

static void progress_reset(enum drain drain, const unsigned long *steps, size_t nsteps)
{
	pthread_mutex_lock(&pg.lock);
	pg.main = pthread_self();
	pg.drain = drain;
	pg.steps = steps;
	pg.nsteps = nsteps;
	pg.next = 0;
	pg.drained = pg.broken = pg.write_failed = false;
	pg.calls = 0;
	pg.plan = NULL;
	pthread_mutex_unlock(&pg.lock);
}

static size_t progress_calls(void)
{
	size_t n;

	pthread_mutex_lock(&pg.lock);
	n = pg.calls;
	pthread_mutex_unlock(&pg.lock);
	return n;
}

/* Runs in the calling thread first, then in the progress thread: no cmocka assertions here. */
static void on_progress(const struct reclaim_swap_plan *p, uint64_t used, uint64_t total,
			void *userdata)
{
	sigset_t mask;
	size_t n;

	pthread_mutex_lock(&pg.lock);
	n = pg.calls++;
	if (n < MAX_CALLS) {
		pg.used[n] = used;
		pg.total[n] = total;
		pg.in_main[n] = pthread_equal(pthread_self(), pg.main);
		pg.plan_ok[n] = p == pg.plan && userdata == &pg;
		pg.sigint_blocked[n] = pthread_sigmask(SIG_BLOCK, NULL, &mask) == 0 &&
				       sigismember(&mask, SIGINT) == 1 &&
				       sigismember(&mask, SIGTERM) == 1;
	}
	/* the kernel moves the next part back into memory */
	if (pg.drain == DRAIN_STEPS && used == k.used && pg.next < pg.nsteps) {
		k.used = pg.steps[pg.next++];
		pg.write_failed |= !write_swaps_quiet();
	} else if (pg.drain == DRAIN_STEPS && used == k.used) {
		pg.drained = true;
	} else if (pg.drain == DRAIN_BREAKS && n == 1) {
		pg.write_failed |= !write_swaps_text("Filename\t\t\t\tType\t\tSize\t\tUsed\t\t"
						     "Priority\n/swapfile file 1 x\n");
		pg.broken = true;
	}
	pthread_cond_broadcast(&pg.cond);
	pthread_mutex_unlock(&pg.lock);
}

/* In the pretend swapoff: wait, as the kernel takes its time, for the callback's readings. */
static void drain(void)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	pthread_mutex_lock(&pg.lock);
	while (!pg.drained && !pg.broken &&
	       pthread_cond_timedwait(&pg.cond, &pg.lock, &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&pg.lock);
	/* a broken file: long enough for several more readings, which must not come */
	if (pg.broken)
		nanosleep(&(struct timespec){.tv_nsec = 10 * PROGRESS_MS * 1000000L}, NULL);
}

bool __wrap_reclaim_sys_is_live(const struct reclaim_ctx *ctx);
int __wrap_reclaim_sys_swapon(const char *path, int flags);
int __wrap_reclaim_sys_swapoff(const char *path);

bool __wrap_reclaim_sys_is_live(const struct reclaim_ctx *ctx)
{
	return k.live;
}

int __wrap_reclaim_sys_swapoff(const char *path)
{
	k.swapoff_calls++;
	assert_string_equal(path, k.path);
	assert_true(k.on);
	if (pg.drain != DRAIN_NONE)
		drain();
	if (k.swapoff_result < 0)
		return k.swapoff_result;
	k.on = false;
	write_swaps();
	return 0;
}

int __wrap_reclaim_sys_swapon(const char *path, int flags)
{
	size_t n = k.swapon_calls++;
	int r = n < 8 ? k.swapon_results[n] : 0;

	assert_string_equal(path, k.path);
	assert_false(k.on);
	assert_true(n < 8);
	k.swapon_flags[n] = flags;
	if (r < 0)
		return r;
	k.on = true;
	k.prio = (flags & SWAP_FLAG_PREFER) ? (flags & SWAP_FLAG_PRIO_MASK) >> SWAP_FLAG_PRIO_SHIFT
					    : k.next_auto--;
	write_swaps();
	return 0;
}

static void write_meminfo(unsigned long avail)
{
	char *text;

	assert_true(
	    asprintf(&text, "MemTotal:        1048576 kB\nMemAvailable:    %lu kB\n", avail) > 0);
	tmproot_write(k.root, "/proc/meminfo", text);
	free(text);
}

static int setup(void **state)
{
	char *root = tmproot_new(), *fstab;

	memset(&k, 0, sizeof(k));
	progress_reset(DRAIN_NONE, NULL, 0);
	k.root = root;
	snprintf(k.path, sizeof(k.path), "%s/swapfile", root);
	tmproot_write(root, "/swapfile", "");
	k.size = 1048572;
	k.used = 100000;
	k.prio = 1;
	k.on = true;
	k.live = true;
	k.next_auto = -7;
	write_swaps();
	write_meminfo(500000);
	assert_true(asprintf(&fstab, "# swap\n%s none swap sw,discard=once,pri=1 0 0\n", k.path) >
		    0);
	tmproot_write(root, "/etc/fstab", fstab);
	free(fstab);
	*state = root;
	return 0;
}

static int teardown(void **state)
{
	tmproot_remove(*state);
	return 0;
}

static struct reclaim_swap_plan *plan(int prio, struct reclaim_ctx **ctx)
{
	struct reclaim_swap_plan *p = NULL;

	assert_int_equal(reclaim_new(ctx, k.root), 0);
	assert_int_equal(reclaim_swap_plan_new(*ctx, k.path, prio, &p), 0);
	return p;
}

static void done(struct reclaim_swap_plan *p, struct reclaim_ctx *ctx)
{
	reclaim_swap_plan_unref(p);
	reclaim_unref(ctx);
}

static void test_change(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = plan(5, &ctx);

	assert_int_equal(reclaim_swap_plan_old_priority(p), 1);
	assert_int_equal(reclaim_swap_plan_used_kb(p), 100000);
	assert_int_equal(reclaim_swap_plan_margin_kb(p), 65536);
	assert_true(reclaim_swap_plan_has_room(p));
	assert_int_equal(reclaim_swap_plan_discard(p), RECLAIM_SWAP_DISCARD_ONCE);
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), 0);
	assert_int_equal(k.swapoff_calls, 1);
	assert_int_equal(k.swapon_calls, 1);
	assert_int_equal(k.swapon_flags[0],
			 SWAP_FLAG_PREFER | 5 | SWAP_FLAG_DISCARD | DISCARD_ONCE);
	assert_true(k.on);
	assert_int_equal(k.prio, 5);
	assert_true(reclaim_swap_plan_live_changed(p));
	assert_false(reclaim_swap_plan_fstab_changed(p));
	done(p, ctx);
}

static void test_swapon_fails_restore(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = plan(5, &ctx);

	k.swapon_results[0] = -EINVAL;
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), -EINVAL);
	assert_int_equal(k.swapon_calls, 2);
	assert_int_equal(k.swapon_flags[1],
			 SWAP_FLAG_PREFER | 1 | SWAP_FLAG_DISCARD | DISCARD_ONCE);
	assert_true(k.on);
	assert_int_equal(k.prio, 1);
	assert_non_null(strstr(reclaim_strerror(ctx), "back on with priority 1"));
	assert_false(reclaim_swap_plan_live_changed(p));
	done(p, ctx);
}

static void test_restore_without_discard(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = plan(5, &ctx);

	k.swapon_results[0] = -EINVAL;
	k.swapon_results[1] = -EOPNOTSUPP;
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), -EINVAL);
	assert_int_equal(k.swapon_calls, 3);
	assert_int_equal(k.swapon_flags[2], SWAP_FLAG_PREFER | 1);
	assert_true(k.on);
	assert_int_equal(k.prio, 1);
	done(p, ctx);
}

static void test_restore_any_priority(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = plan(5, &ctx);

	k.swapon_results[0] = -EINVAL;
	k.swapon_results[1] = -EINVAL;
	k.swapon_results[2] = -EINVAL;
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), -EINVAL);
	assert_int_equal(k.swapon_calls, 4);
	assert_int_equal(k.swapon_flags[3], 0);
	assert_true(k.on);
	assert_non_null(strstr(reclaim_strerror(ctx), "back on with priority -7"));
	done(p, ctx);
}

static void test_all_fail(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = plan(5, &ctx);

	for (size_t i = 0; i < 4; i++)
		k.swapon_results[i] = -EIO;
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), -EIO);
	assert_false(k.on);
	assert_non_null(strstr(reclaim_strerror(ctx), "IT IS OFF"));
	done(p, ctx);
}

static void test_swapoff_eperm(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = plan(5, &ctx);

	k.swapoff_result = -EPERM;
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE | RECLAIM_SWAP_PERSIST),
			 -EPERM);
	assert_non_null(strstr(reclaim_strerror(ctx), "needs CAP_SYS_ADMIN (run as root)"));
	assert_int_equal(k.swapon_calls, 0);
	assert_true(k.on);
	assert_false(reclaim_swap_plan_fstab_changed(p));
	done(p, ctx);
}

static void test_swapoff_enomem(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = plan(5, &ctx);

	k.swapoff_result = -ENOMEM;
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), -ENOMEM);
	assert_non_null(strstr(reclaim_strerror(ctx), "still on with priority 1"));
	assert_int_equal(k.swapon_calls, 0);
	done(p, ctx);
}

static void test_no_room(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p;

	write_meminfo(165536); /* exactly used + margin: not enough */
	p = plan(5, &ctx);
	assert_false(reclaim_swap_plan_has_room(p));
	assert_int_equal(reclaim_swap_plan_check(p, RECLAIM_SWAP_LIVE), -ENOMEM);
	assert_int_equal(reclaim_swap_plan_check(p, RECLAIM_SWAP_PERSIST), 0);
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE | RECLAIM_SWAP_PERSIST),
			 -ENOMEM);
	assert_non_null(strstr(reclaim_strerror(ctx), "MemAvailable is 165536 KiB"));
	assert_non_null(strstr(reclaim_strerror(ctx), "100000 KiB the device holds + 65536 KiB"));
	assert_int_equal(k.swapoff_calls, 0);
	assert_false(reclaim_swap_plan_fstab_changed(p));
	done(p, ctx);
}

static void test_room_rechecked(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = plan(5, &ctx);

	/* the device filled up after the plan was made */
	k.used = 450000;
	write_swaps();
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), -ENOMEM);
	assert_int_equal(k.swapoff_calls, 0);
	done(p, ctx);
}

static void test_not_live(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = plan(5, &ctx);

	k.live = false;
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), -EOPNOTSUPP);
	assert_non_null(strstr(reclaim_strerror(ctx), "not the running system"));
	assert_int_equal(k.swapoff_calls, 0);
	/* the fstab alone can be changed */
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_PERSIST), 0);
	assert_true(reclaim_swap_plan_fstab_changed(p));
	assert_int_equal(k.swapoff_calls, 0);
	done(p, ctx);
}

static void test_persist(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = plan(5, &ctx);
	char *text, *want;
	int prio;

	assert_int_equal(reclaim_swap_plan_fstab_priority(p, &prio), 1);
	assert_int_equal(prio, 1);
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE | RECLAIM_SWAP_PERSIST), 0);
	assert_true(reclaim_swap_plan_live_changed(p));
	assert_true(reclaim_swap_plan_fstab_changed(p));
	assert_int_equal(reclaim_swap_plan_fstab_priority(p, &prio), 1);
	assert_int_equal(prio, 5);
	text = tmproot_read(k.root, "/etc/fstab");
	assert_true(asprintf(&want, "# swap\n%s none swap sw,discard=once,pri=5 0 0\n", k.path) >
		    0);
	assert_string_equal(text, want);
	free(text);
	free(want);
	done(p, ctx);
}

static void test_persist_without_entry(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p;
	int prio;

	tmproot_write(k.root, "/etc/fstab", "# nothing\n");
	p = plan(5, &ctx);
	assert_int_equal(reclaim_swap_plan_discard(p), RECLAIM_SWAP_DISCARD_NONE);
	assert_int_equal(reclaim_swap_plan_fstab_priority(p, &prio), -ENOENT);
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE | RECLAIM_SWAP_PERSIST),
			 -ENOENT);
	assert_non_null(strstr(reclaim_strerror(ctx), "no entry in /etc/fstab"));
	assert_int_equal(k.swapoff_calls, 0);
	/* without --persist the change goes ahead, with no discard flag known */
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), 0);
	assert_int_equal(k.swapon_flags[0], SWAP_FLAG_PREFER | 5);
	done(p, ctx);
}

static void test_unchanged(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p;

	write_meminfo(1000); /* no room needed: nothing is swapped off */
	p = plan(1, &ctx);
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE | RECLAIM_SWAP_PERSIST), 0);
	assert_int_equal(k.swapoff_calls, 0);
	assert_false(reclaim_swap_plan_live_changed(p));
	assert_false(reclaim_swap_plan_fstab_changed(p));
	done(p, ctx);
}

static void test_negative_priority_restore(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p;

	k.prio = -2;
	write_swaps();
	tmproot_write(k.root, "/etc/fstab", "");
	p = plan(5, &ctx);
	k.swapon_results[0] = -EINVAL;
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), -EINVAL);
	/* a negative priority is the kernel's to give: swapon without SWAP_FLAG_PREFER */
	assert_int_equal(k.swapon_flags[1], 0);
	assert_true(k.on);
	assert_non_null(strstr(reclaim_strerror(ctx), "back on with priority -7"));
	done(p, ctx);
}

static void test_deleted(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = plan(5, &ctx);

	tmproot_unlink(k.root, "/swapfile");
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), -ENOENT);
	assert_non_null(strstr(reclaim_strerror(ctx), "deleted?"));
	assert_int_equal(k.swapoff_calls, 0);
	done(p, ctx);
}

/*
 * The limits reclaim.h exports: the highest priority, and the margin, the
 * larger of RECLAIM_SWAP_MARGIN_MIN_KB and 1/RECLAIM_SWAP_MARGIN_DIVISOR of
 * MemTotal.
 */
static void test_exported_limits(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p;

	assert_int_equal(RECLAIM_SWAP_PRIORITY_MAX, 32767);
	assert_int_equal(RECLAIM_SWAP_MARGIN_MIN_KB, 65536);
	assert_int_equal(RECLAIM_SWAP_MARGIN_DIVISOR, 32);
	/* MemTotal 1 GiB: 1/32 is 32 MiB, below the minimum */
	p = plan(RECLAIM_SWAP_PRIORITY_MAX, &ctx);
	assert_int_equal(reclaim_swap_plan_new_priority(p), RECLAIM_SWAP_PRIORITY_MAX);
	assert_int_equal(reclaim_swap_plan_margin_kb(p), RECLAIM_SWAP_MARGIN_MIN_KB);
	done(p, ctx);
	tmproot_write(k.root, "/proc/meminfo",
		      "MemTotal:        8388608 kB\nMemAvailable:    4000000 kB\n");
	p = plan(1, &ctx);
	assert_int_equal(reclaim_swap_plan_margin_kb(p), 8388608 / RECLAIM_SWAP_MARGIN_DIVISOR);
	done(p, ctx);
	assert_int_equal(reclaim_new(&ctx, k.root), 0);
	p = NULL;
	assert_int_equal(reclaim_swap_plan_new(ctx, k.path, RECLAIM_SWAP_PRIORITY_MAX + 1, &p),
			 -ERANGE);
	assert_null(p);
	reclaim_unref(ctx);
}

static void test_bad_arguments(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = NULL;

	assert_int_equal(reclaim_new(&ctx, k.root), 0);
	assert_int_equal(reclaim_swap_plan_new(ctx, k.path, -1, &p), -ERANGE);
	assert_int_equal(reclaim_swap_plan_new(ctx, k.path, 32768, &p), -ERANGE);
	assert_int_equal(reclaim_swap_plan_new(ctx, "/dev/none", 1, &p), -ENOENT);
	assert_non_null(strstr(reclaim_strerror(ctx), "not an active swap device"));
	assert_null(p);
	assert_int_equal(reclaim_swap_plan_apply(NULL, RECLAIM_SWAP_LIVE), -EINVAL);
	reclaim_unref(ctx);
}

/* A plan for priority 5 with the progress callback, and the pretend kernel's draining. */
static struct reclaim_swap_plan *progress_plan(struct reclaim_ctx **ctx, enum drain drain,
					       const unsigned long *steps, size_t nsteps)
{
	struct reclaim_swap_plan *p = plan(5, ctx);

	progress_reset(drain, steps, nsteps);
	pg.plan = p;
	assert_int_equal(reclaim_swap_plan_set_progress(p, PROGRESS_MS, on_progress, &pg), 0);
	return p;
}

/* No call may come once apply has returned: wait for several intervals and count again. */
static void assert_no_more_calls(size_t calls)
{
	nanosleep(&(struct timespec){.tv_nsec = 10 * PROGRESS_MS * 1000000L}, NULL);
	assert_int_equal(progress_calls(), calls);
}

static void test_progress(void **state)
{
	static const unsigned long steps[] = {80000, 50000, 20000};
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = progress_plan(&ctx, DRAIN_STEPS, steps, 3);
	size_t calls, step = 0;
	sigset_t mask;

	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), 0);
	calls = progress_calls();
	assert_false(pg.write_failed);
	assert_true(pg.drained);
	assert_true(calls >= 4 && calls <= MAX_CALLS);
	/* first, in the calling thread, what is about to move; signals as they were */
	assert_true(pg.in_main[0]);
	assert_false(pg.sigint_blocked[0]);
	assert_int_equal(pg.used[0], 100000);
	/* then from the progress thread, with every signal blocked there, going down */
	for (size_t i = 0; i < calls; i++) {
		assert_true(pg.plan_ok[i]);
		assert_int_equal(pg.total[i], 100000);
		if (i == 0)
			continue;
		assert_false(pg.in_main[i]);
		assert_true(pg.sigint_blocked[i]);
		assert_true(pg.used[i] <= pg.used[i - 1]);
		if (pg.used[i] != pg.used[i - 1])
			assert_int_equal(pg.used[i], steps[step++]);
	}
	assert_int_equal(step, 3);
	assert_int_equal(pg.used[calls - 1], 20000);
	assert_no_more_calls(calls);
	/* the caller's signal mask is untouched */
	assert_int_equal(pthread_sigmask(SIG_BLOCK, NULL, &mask), 0);
	assert_int_equal(sigismember(&mask, SIGINT), 0);
	assert_true(k.on);
	assert_int_equal(k.prio, 5);
	assert_true(reclaim_swap_plan_live_changed(p));
	done(p, ctx);
}

static void test_progress_swapoff_fails(void **state)
{
	static const unsigned long steps[] = {60000};
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = progress_plan(&ctx, DRAIN_STEPS, steps, 1);
	size_t calls;
	char *want;

	k.swapoff_result = -EINTR;
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), -EINTR);
	assert_true(asprintf(&want,
			     "cannot swap %s off: interrupted by a signal; it is still on with "
			     "priority 1",
			     k.path) > 0);
	assert_string_equal(reclaim_strerror(ctx), want);
	free(want);
	calls = progress_calls();
	assert_true(calls >= 2);
	assert_int_equal(pg.used[calls - 1], 60000);
	assert_no_more_calls(calls);
	assert_int_equal(k.swapon_calls, 0);
	done(p, ctx);
}

static void test_progress_file_breaks(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p = progress_plan(&ctx, DRAIN_BREAKS, NULL, 0);

	/* the thread stops at the malformed file, silently: the change goes on */
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), 0);
	assert_false(pg.write_failed);
	assert_true(pg.broken);
	assert_int_equal(progress_calls(), 2);
	assert_string_equal(reclaim_strerror(ctx), "no error");
	assert_int_equal(k.prio, 5);
	done(p, ctx);
}

static void test_progress_not_called(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swap_plan *p;

	/* an empty device: nothing moves, no calls */
	k.used = 0;
	write_swaps();
	p = progress_plan(&ctx, DRAIN_NONE, NULL, 0);
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), 0);
	assert_int_equal(k.swapoff_calls, 1);
	assert_no_more_calls(0);
	done(p, ctx);

	/* the priority it has already: no swapoff, no calls */
	k.used = 100000;
	write_swaps();
	assert_int_equal(reclaim_new(&ctx, k.root), 0);
	assert_int_equal(reclaim_swap_plan_new(ctx, k.path, 5, &p), 0);
	assert_int_equal(reclaim_swap_plan_set_progress(p, PROGRESS_MS, on_progress, &pg), 0);
	assert_int_equal(reclaim_swap_plan_apply(p, RECLAIM_SWAP_LIVE), 0);
	assert_int_equal(k.swapoff_calls, 1);
	assert_no_more_calls(0);

	/* turned off again, and the interval's bound */
	assert_int_equal(reclaim_swap_plan_set_progress(p, 60001, on_progress, &pg), -ERANGE);
	assert_non_null(strstr(reclaim_strerror(ctx), "expected at most 60000"));
	assert_int_equal(reclaim_swap_plan_set_progress(p, 0, NULL, NULL), 0);
	assert_int_equal(reclaim_swap_plan_set_progress(NULL, 0, NULL, NULL), -EINVAL);
	done(p, ctx);
}

/* The progress thread's reading of /proc/swaps: libmount's, with the kernel's escapes undone. */
static void test_swaps_text_used(void **state)
{
	static const char text[] = SWAPS_HEADER_TEXT
	    "/dev/zram0                              partition\t4194300\t\t1024\t\t100\n"
	    "/swap\\040file                          file\t\t1048572\t\t777\t\t-2\n";
	uint64_t used = 0;

	assert_int_equal(reclaim_swaps_text_used(text, strlen(text), "/dev/zram0", &used), 0);
	assert_int_equal(used, 1024);
	assert_int_equal(reclaim_swaps_text_used(text, strlen(text), "/swap file", &used), 0);
	assert_int_equal(used, 777);
	assert_int_equal(reclaim_swaps_text_used(text, strlen(text), "/dev/zram1", &used), -ENOENT);
	/* the header alone: swapoff is over */
	assert_int_equal(
	    reclaim_swaps_text_used(text, strlen(SWAPS_HEADER_TEXT), "/dev/zram0", &used), -ENOENT);
	assert_int_equal(reclaim_swaps_text_used("", 0, "/dev/zram0", &used), -ENOENT);
	/* half a line, a line without the header */
	assert_int_equal(
	    reclaim_swaps_text_used(text, strlen(SWAPS_HEADER_TEXT) + 20, "/dev/zram0", &used),
	    -EINVAL);
	assert_int_equal(reclaim_swaps_text_used(text + strlen(SWAPS_HEADER_TEXT),
						 strlen(text) - strlen(SWAPS_HEADER_TEXT),
						 "/dev/zram0", &used),
			 -EINVAL);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_change),
	    T(test_swapon_fails_restore),
	    T(test_restore_without_discard),
	    T(test_restore_any_priority),
	    T(test_all_fail),
	    T(test_swapoff_eperm),
	    T(test_swapoff_enomem),
	    T(test_no_room),
	    T(test_room_rechecked),
	    T(test_not_live),
	    T(test_persist),
	    T(test_persist_without_entry),
	    T(test_unchanged),
	    T(test_negative_priority_restore),
	    T(test_deleted),
	    T(test_exported_limits),
	    T(test_bad_arguments),
	    T(test_progress),
	    T(test_progress_swapoff_fails),
	    T(test_progress_file_breaks),
	    T(test_progress_not_called),
	    cmocka_unit_test(test_swaps_text_used),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
