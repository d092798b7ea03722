// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live priority change against a pretend kernel: swapon(2), swapoff(2)
 * and the "is this the running system" test are wrapped (ld --wrap), and the
 * wrappers keep the temporary root's /proc/swaps as the kernel would. So the
 * order of the calls, their flags, the refusals and every way back from a
 * failure are checked without touching the machine.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>

#include <cmocka.h>

#include "swap-internal.h"
#include "tmproot.h"

#define DISCARD_ONCE 0x20000

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
	    T(test_bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
