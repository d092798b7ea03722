// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Swap devices, their kinds and rings, read from temporary roots: /proc/swaps
 * through libmount, sysfs links as the kernel lays them out, mountinfo.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "swap-internal.h"
#include "tmproot.h"
#include "swaproot.h"

#define HEADER SWAPS_HEADER

static int setup(void **state)
{
	*state = tmproot_new();
	return 0;
}

static int teardown(void **state)
{
	tmproot_remove(*state);
	return 0;
}

static struct reclaim_swaps *load(const char *root, struct reclaim_ctx **ctx)
{
	struct reclaim_swaps *s = NULL;

	assert_int_equal(reclaim_new(ctx, root), 0);
	assert_int_equal(reclaim_swaps_new(*ctx, &s), 0);
	return s;
}

static void test_kinds(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_swaps *s;
	const struct reclaim_swap *d;

	add_disk(root, "devices/virtual/block", "zram0", "251:0", "0\n", NULL, NULL);
	add_disk(root, "devices/pci0000:00/0000:00:1d.0/nvme/nvme0", "nvme0n1", "259:0", "0\n",
		 "nvme0n1p2", "259:2");
	add_disk(root, "devices/pci0000:00/0000:00:17.0/ata1/host0/block", "sda", "8:0", "1\n",
		 "sda2", "8:2");
	tmproot_write(root, "/proc/self/mountinfo",
		      "21 1 8:2 / / rw - ext4 /dev/root rw\n"
		      "30 21 259:2 / /var rw - ext4 /dev/nvme0n1p2 rw\n"
		      "31 30 0:45 / /var/swap rw - tmpfs tmpfs rw\n");
	add_swap(root, "/dev/zram0", false, 1000, 100, 5);
	add_swap(root, "/dev/nvme0n1p2", false, 2000, 0, 5);
	add_swap(root, "/var/swap\\040file", true, 4000, 0, -2);
	add_swap(root, "/swapfile", true, 4000, 0, -3);
	add_swap(root, "/dev/sda2", false, 8000, 0, -4);
	add_swap(root, "/dev/mystery", false, 8000, 0, -5);

	s = load(root, &ctx);
	assert_int_equal(reclaim_swaps_count(s), 6);

	d = reclaim_swaps_get(s, 0);
	assert_string_equal(reclaim_swap_path(d), "/dev/zram0");
	assert_string_equal(reclaim_swap_type(d), "partition");
	assert_int_equal(reclaim_swap_kind(d), RECLAIM_SWAP_KIND_ZRAM);
	assert_string_equal(reclaim_swap_disk(d), "zram0");
	assert_int_equal(reclaim_swap_rotational(d), 0);
	assert_int_equal(reclaim_swap_size_kb(d), 1000);
	assert_int_equal(reclaim_swap_used_kb(d), 100);
	assert_int_equal(reclaim_swap_priority(d), 5);
	assert_null(reclaim_swap_backing_device(d));

	d = reclaim_swaps_get(s, 1);
	assert_int_equal(reclaim_swap_kind(d), RECLAIM_SWAP_KIND_DISK);
	assert_string_equal(reclaim_swap_disk(d), "nvme0n1");
	assert_int_equal(reclaim_swap_rotational(d), 0);

	/* libmount unescapes; the tmpfs at /var/swap is not a directory of "/var/swap file" */
	d = reclaim_swaps_get(s, 2);
	assert_string_equal(reclaim_swap_path(d), "/var/swap file");
	assert_string_equal(reclaim_swap_type(d), "file");
	assert_int_equal(reclaim_swap_kind(d), RECLAIM_SWAP_KIND_FILE);
	assert_string_equal(reclaim_swap_mountpoint(d), "/var");
	assert_string_equal(reclaim_swap_backing_device(d), "/dev/nvme0n1p2");
	assert_string_equal(reclaim_swap_disk(d), "nvme0n1");
	assert_int_equal(reclaim_swap_rotational(d), 0);

	/* "/dev/root" is named by its device number, read under the root */
	d = reclaim_swaps_get(s, 3);
	assert_string_equal(reclaim_swap_mountpoint(d), "/");
	assert_string_equal(reclaim_swap_backing_device(d), "/dev/sda2");
	assert_string_equal(reclaim_swap_disk(d), "sda");
	assert_int_equal(reclaim_swap_rotational(d), 1);

	d = reclaim_swaps_get(s, 4);
	assert_string_equal(reclaim_swap_disk(d), "sda");
	assert_int_equal(reclaim_swap_rotational(d), 1);

	d = reclaim_swaps_get(s, 5);
	assert_int_equal(reclaim_swap_kind(d), RECLAIM_SWAP_KIND_UNKNOWN);
	assert_null(reclaim_swap_disk(d));
	assert_int_equal(reclaim_swap_rotational(d), -ENODATA);
	assert_string_equal(reclaim_swap_kind_name(reclaim_swap_kind(d)), "unknown");

	reclaim_swaps_unref(s);
	reclaim_unref(ctx);
}

static void test_file_without_mountinfo(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_swaps *s;
	const struct reclaim_swap *d;

	add_swap(root, "/swapfile", true, 4000, 0, -2);
	s = load(root, &ctx);
	d = reclaim_swaps_get(s, 0);
	assert_int_equal(reclaim_swap_kind(d), RECLAIM_SWAP_KIND_FILE);
	assert_null(reclaim_swap_backing_device(d));
	assert_null(reclaim_swap_mountpoint(d));
	assert_null(reclaim_swap_disk(d));
	reclaim_swaps_unref(s);
	reclaim_unref(ctx);
}

static void test_rings(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_swaps *s;
	const struct reclaim_swap_ring *r;

	add_swap(root, "/dev/a", false, 1000, 500, 1);
	add_swap(root, "/dev/b", false, 1000, 250, 5);
	add_swap(root, "/dev/c", false, 2000, 1000, 1);
	add_swap(root, "/dev/d", false, 1000, 1000, 5);
	add_swap(root, "/dev/e", false, 1000, 0, -2);
	add_swap(root, "/dev/f", false, 1000, 0, 7);
	add_swap(root, "/dev/g", false, 1000, 0, 7);
	add_swap(root, "/dev/h", false, 0, 0, 1);
	s = load(root, &ctx);
	assert_int_equal(reclaim_swaps_ring_count(s), 4);

	r = reclaim_swaps_ring(s, 0);
	assert_int_equal(reclaim_swap_ring_priority(r), 7);
	assert_int_equal(reclaim_swap_ring_count(r), 2);
	assert_true(reclaim_swap_ring_balance(r) == 1.0); /* nothing used */

	r = reclaim_swaps_ring(s, 1);
	assert_int_equal(reclaim_swap_ring_priority(r), 5);
	assert_string_equal(reclaim_swap_path(reclaim_swap_ring_get(r, 0)), "/dev/b");
	assert_string_equal(reclaim_swap_path(reclaim_swap_ring_get(r, 1)), "/dev/d");
	assert_int_equal(reclaim_swap_ring_size_kb(r), 2000);
	assert_int_equal(reclaim_swap_ring_used_kb(r), 1250);
	assert_true(reclaim_swap_ring_balance(r) == 0.25);

	/* /dev/c is as full as /dev/a; the empty /dev/h (size 0) does not count */
	r = reclaim_swaps_ring(s, 2);
	assert_int_equal(reclaim_swap_ring_priority(r), 1);
	assert_int_equal(reclaim_swap_ring_count(r), 3);
	assert_string_equal(reclaim_swap_path(reclaim_swap_ring_get(r, 0)), "/dev/a");
	assert_string_equal(reclaim_swap_path(reclaim_swap_ring_get(r, 1)), "/dev/c");
	assert_string_equal(reclaim_swap_path(reclaim_swap_ring_get(r, 2)), "/dev/h");
	assert_true(reclaim_swap_ring_balance(r) == 1.0);

	r = reclaim_swaps_ring(s, 3);
	assert_int_equal(reclaim_swap_ring_priority(r), -2);
	assert_int_equal(reclaim_swap_ring_count(r), 1);
	assert_true(reclaim_swap_ring_balance(r) == 1.0);
	assert_null(reclaim_swaps_ring(s, 4));
	assert_null(reclaim_swap_ring_get(r, 1));

	reclaim_swaps_unref(s);
	reclaim_unref(ctx);
}

static void test_one_used_one_empty(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_swaps *s;

	add_swap(root, "/dev/a", false, 1000, 0, 3);
	add_swap(root, "/dev/b", false, 1000, 10, 3);
	s = load(root, &ctx);
	assert_true(reclaim_swap_ring_balance(reclaim_swaps_ring(s, 0)) == 0.0);
	reclaim_swaps_unref(s);
	reclaim_unref(ctx);
}

static void test_empty(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_swaps *s;

	tmproot_write(root, "/proc/swaps", HEADER);
	s = load(root, &ctx);
	assert_int_equal(reclaim_swaps_count(s), 0);
	assert_int_equal(reclaim_swaps_ring_count(s), 0);
	assert_null(reclaim_swaps_get(s, 0));
	reclaim_swaps_unref(s);
	/* a file with nothing at all in it: no devices either */
	tmproot_write(root, "/proc/swaps", "");
	assert_int_equal(reclaim_swaps_new(ctx, &s), 0);
	assert_int_equal(reclaim_swaps_count(s), 0);
	reclaim_swaps_unref(s);
	reclaim_unref(ctx);
}

static void test_missing(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swaps *s = NULL;

	assert_int_equal(reclaim_new(&ctx, *state), 0);
	assert_int_equal(reclaim_swaps_new(ctx, &s), -ENOENT);
	assert_null(s);
	assert_non_null(strstr(reclaim_strerror(ctx), "no /proc/swaps"));
	reclaim_unref(ctx);
}

static void expect_malformed(const char *root, const char *text, const char *line)
{
	struct reclaim_ctx *ctx;
	struct reclaim_swaps *s = NULL;

	tmproot_write(root, "/proc/swaps", text);
	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_swaps_new(ctx, &s), -EINVAL);
	assert_null(s);
	assert_non_null(strstr(reclaim_strerror(ctx), line));
	reclaim_unref(ctx);
}

static void test_malformed(void **state)
{
	const char *root = *state;

	expect_malformed(root,
			 HEADER "/dev/a    partition\t100\t\t0\t\t1\n"
				"/dev/b    partition\tbig\t\t0\t\t1\n"
				"/dev/c    partition\t100\t\t0\t\t1\n",
			 "line 3");
	/* libmount does not fail on a bad last line by itself */
	expect_malformed(root,
			 HEADER "/dev/a    partition\t100\t\t0\t\t1\n"
				"/dev/b    partition\t100\n",
			 "line 3");
	expect_malformed(root, HEADER "/dev/a    partition\t100\t\t0\t\tx\n", "line 2");
	expect_malformed(root, HEADER "/dev/a\n", "line 2");
}

static void test_find(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_swaps *s;

	add_swap(root, "/dev/dm-1", false, 1000, 0, 1);
	add_swap(root, "/swap\\040file", true, 1000, 0, 1);
	tmproot_symlink(root, "/dev/mapper/vg-swap", "../dm-1");
	tmproot_symlink(root, "/dev/disk/by-uuid/1234", "/dev/mapper/vg-swap");
	s = load(root, &ctx);
	assert_string_equal(reclaim_swap_path(reclaim_swaps_find(s, "/dev/dm-1")), "/dev/dm-1");
	assert_string_equal(reclaim_swap_path(reclaim_swaps_find(s, "/dev/mapper/vg-swap")),
			    "/dev/dm-1");
	assert_string_equal(reclaim_swap_path(reclaim_swaps_find(s, "/dev/disk/by-uuid/1234")),
			    "/dev/dm-1");
	assert_string_equal(reclaim_swap_path(reclaim_swaps_find(s, "/swap file")), "/swap file");
	assert_string_equal(reclaim_swap_path(reclaim_swaps_find(s, "//dev/./dm-1")), "/dev/dm-1");
	assert_null(reclaim_swaps_find(s, "/dev/dm-2"));
	reclaim_swaps_unref(s);
	reclaim_unref(ctx);
}

static void expect_resolved(const struct reclaim_ctx *ctx, const char *path, const char *want)
{
	char *got = reclaim_resolve_path(ctx, path);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_resolve_path(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;

	tmproot_symlink(root, "/dev/disk/by-label/a", "../../sda1");
	tmproot_symlink(root, "/dev/abs", "/dev/disk/by-label/a");
	tmproot_symlink(root, "/dev/up", "../../../../dev/sdb");
	tmproot_symlink(root, "/dev/loop", "/dev/loop");
	tmproot_symlink(root, "/lib", "usr/lib");
	assert_int_equal(reclaim_new(&ctx, root), 0);
	expect_resolved(ctx, "/dev/disk/by-label/a", "/dev/sda1");
	expect_resolved(ctx, "/dev/abs", "/dev/sda1");
	/* ".." stops at the root, as in a chroot */
	expect_resolved(ctx, "/dev/up", "/dev/sdb");
	expect_resolved(ctx, "/lib/x/../y", "/usr/lib/y");
	expect_resolved(ctx, "/no/such/./file", "/no/such/file");
	expect_resolved(ctx, "/", "/");
	/* a loop ends after 40 links */
	expect_resolved(ctx, "/dev/loop", "/dev/loop");
	reclaim_unref(ctx);
}

static void test_tag_path(void **state)
{
	char *p;

	p = reclaim_tag_path("UUID", "3b1f-00");
	assert_string_equal(p, "/dev/disk/by-uuid/3b1f-00");
	free(p);
	p = reclaim_tag_path("LABEL", "fast swap/1");
	assert_string_equal(p, "/dev/disk/by-label/fast\\x20swap\\x2f1");
	free(p);
	p = reclaim_tag_path("PARTLABEL", "swap");
	assert_string_equal(p, "/dev/disk/by-partlabel/swap");
	free(p);
	p = reclaim_tag_path("PARTUUID", "ab-01");
	assert_string_equal(p, "/dev/disk/by-partuuid/ab-01");
	free(p);
	assert_null(reclaim_tag_path("ID", "x"));
}

static void test_null_arguments(void **state)
{
	struct reclaim_swaps *s;

	assert_int_equal(reclaim_swaps_new(NULL, &s), -EINVAL);
	assert_null(reclaim_swaps_ref(NULL));
	assert_null(reclaim_swaps_unref(NULL));
	assert_int_equal(reclaim_swaps_count(NULL), 0);
	assert_null(reclaim_swaps_get(NULL, 0));
	assert_null(reclaim_swaps_find(NULL, "/dev/a"));
	assert_null(reclaim_swap_path(NULL));
	assert_int_equal(reclaim_swap_ring_count(NULL), 0);
	assert_string_equal(reclaim_swap_kind_name(RECLAIM_SWAP_KIND_DISK), "disk");
	assert_string_equal(reclaim_swap_kind_name(RECLAIM_SWAP_KIND_FILE), "file");
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_kinds),
	    T(test_file_without_mountinfo),
	    T(test_rings),
	    T(test_one_used_one_empty),
	    T(test_empty),
	    T(test_missing),
	    T(test_malformed),
	    T(test_find),
	    T(test_resolve_path),
	    cmocka_unit_test(test_tag_path),
	    cmocka_unit_test(test_null_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
