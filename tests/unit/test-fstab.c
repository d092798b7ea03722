// SPDX-License-Identifier: GPL-2.0-or-later
/* The swap entries of /etc/fstab and the in-place change of pri=, on temporary roots. */
#include <dirent.h>
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

/* Tabs, aligned spaces, comments, blank lines and entries of every shape. */
static const char fstab[] = "# /etc/fstab: static file system information.\n"
			    "#\n"
			    "# <file system> <mount point>   <type>  <options>  <dump>  <pass>\n"
			    "UUID=6a0c /               ext4    errors=remount-ro 0       1\n"
			    "\n"
			    "# swap\n"
			    "UUID=3b1f none swap sw,pri=10 0 0\n"
			    "LABEL=fast\\040swap\tnone\tswap\tsw,discard=pages,pri=10\t0\t0\n"
			    "   /swap\\040file   none   swap   defaults,discard   0   0\n"
			    "/dev/disk/by-id/ata-X-part2 none swap sw,nofail\n"
			    "/dev/zram0 none swap\n"
			    "/dev/sdc1 none swap sw,discard=once,pri=abc 0 0\n"
			    "/dev/sdd1 none swap sw,discard=bogus 0 0\r\n"
			    "# trailing comment, no newline";

static int setup(void **state)
{
	char *root = tmproot_new();

	tmproot_write(root, "/etc/fstab", fstab);
	tmproot_mkdirs(root, "dev/disk/by-uuid");
	*state = root;
	return 0;
}

static int teardown(void **state)
{
	tmproot_remove(*state);
	return 0;
}

static struct reclaim_fstab *load(const char *root, struct reclaim_ctx **ctx)
{
	struct reclaim_fstab *f = NULL;

	assert_int_equal(reclaim_new(ctx, root), 0);
	assert_int_equal(reclaim_fstab_new(*ctx, &f), 0);
	return f;
}

static void test_entries(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_fstab *f = load(*state, &ctx);
	int prio = 42;

	assert_int_equal(reclaim_fstab_count(f), 7);
	assert_string_equal(reclaim_fstab_source(f, 0), "UUID=3b1f");
	assert_string_equal(reclaim_fstab_options(f, 0), "sw,pri=10");
	assert_int_equal(reclaim_fstab_priority(f, 0, &prio), 1);
	assert_int_equal(prio, 10);
	assert_int_equal(reclaim_fstab_discard(f, 0), RECLAIM_SWAP_DISCARD_NONE);
	assert_string_equal(reclaim_fstab_source(f, 1), "LABEL=fast swap");
	assert_int_equal(reclaim_fstab_discard(f, 1), RECLAIM_SWAP_DISCARD_PAGES);
	assert_string_equal(reclaim_fstab_source(f, 2), "/swap file");
	assert_int_equal(reclaim_fstab_discard(f, 2), RECLAIM_SWAP_DISCARD_ALL);
	assert_int_equal(reclaim_fstab_priority(f, 2, &prio), 0);
	assert_null(reclaim_fstab_options(f, 4));
	assert_int_equal(reclaim_fstab_priority(f, 4, &prio), 0);
	assert_int_equal(reclaim_fstab_priority(f, 5, &prio), -EINVAL);
	assert_int_equal(reclaim_fstab_discard(f, 5), RECLAIM_SWAP_DISCARD_ONCE);
	assert_int_equal(reclaim_fstab_discard(f, 6), RECLAIM_SWAP_DISCARD_ALL);
	assert_null(reclaim_fstab_source(f, 7));
	reclaim_fstab_unref(f);
	reclaim_unref(ctx);
}

static void test_find(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_fstab *f;

	tmproot_mkdirs(root, "dev/disk/by-label");
	tmproot_mkdirs(root, "dev/disk/by-id");
	tmproot_symlink(root, "/dev/disk/by-uuid/3b1f", "../../nvme0n1p3");
	tmproot_symlink(root, "/dev/disk/by-label/fast\\x20swap", "../../nvme1n1p2");
	tmproot_symlink(root, "/dev/disk/by-id/ata-X-part2", "../../sda2");
	f = load(root, &ctx);
	assert_int_equal(reclaim_fstab_find(f, "/dev/nvme0n1p3"), 0);
	assert_int_equal(reclaim_fstab_find(f, "/dev/nvme1n1p2"), 1);
	assert_int_equal(reclaim_fstab_find(f, "/swap file"), 2);
	assert_int_equal(reclaim_fstab_find(f, "/dev/sda2"), 3);
	assert_int_equal(reclaim_fstab_find(f, "/dev/zram0"), 4);
	assert_int_equal(reclaim_fstab_find(f, "/dev/zram1"), -ENOENT);
	reclaim_fstab_unref(f);
	reclaim_unref(ctx);
}

/*
 * A device named twice (its UUID= line, then its path): the first entry is
 * the one, as swapon -a activates the first and fails on the second; its
 * pri= is what changes, the later line stays as it is.
 */
static void test_find_duplicate(void **state)
{
	static const char dup[] = "/dev/nvme0n1p3 none swap sw,pri=3 0 0\n";
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_fstab *f;
	char *text, *want, *got;

	assert_true(asprintf(&text, "%s\n%s", fstab, dup) > 0);
	tmproot_write(root, "/etc/fstab", text);
	tmproot_symlink(root, "/dev/disk/by-uuid/3b1f", "../../nvme0n1p3");
	f = load(root, &ctx);
	assert_int_equal(reclaim_fstab_count(f), 8);
	assert_string_equal(reclaim_fstab_source(f, 7), "/dev/nvme0n1p3");
	assert_int_equal(reclaim_fstab_find(f, "/dev/nvme0n1p3"), 0);
	assert_int_equal(reclaim_fstab_set_priority(f, 0, 20), 0);
	got = tmproot_read(root, "/etc/fstab");
	assert_true(asprintf(&want, "%s\n%s", fstab, dup) > 0);
	memcpy(strstr(want, "sw,pri=10 0 0"), "sw,pri=20 0 0", strlen("sw,pri=20 0 0"));
	assert_string_equal(got, want);
	free(got);
	free(want);
	free(text);
	reclaim_fstab_unref(f);
	reclaim_unref(ctx);
}

/* @fstab with line @n (from 0) replaced by @line. */
static char *with_line(size_t n, const char *line)
{
	const char *p = fstab, *end;
	char *out;

	for (size_t i = 0; i < n; i++)
		p = strchr(p, '\n') + 1;
	end = strchr(p, '\n');
	assert_true(asprintf(&out, "%.*s%s%s", (int)(p - fstab), fstab, line, end) > 0);
	return out;
}

static void expect_edit(const char *root, size_t entry, int prio, size_t line, const char *want)
{
	struct reclaim_ctx *ctx;
	struct reclaim_fstab *f;
	char *got, *expected;
	int now = -1;

	tmproot_write(root, "/etc/fstab", fstab);
	f = load(root, &ctx);
	assert_int_equal(reclaim_fstab_set_priority(f, entry, prio), 0);
	assert_int_equal(reclaim_fstab_priority(f, entry, &now), 1);
	assert_int_equal(now, prio);
	got = tmproot_read(root, "/etc/fstab");
	expected = with_line(line, want);
	assert_string_equal(got, expected);
	free(got);
	free(expected);
	reclaim_fstab_unref(f);
	reclaim_unref(ctx);
}

static void test_set_priority(void **state)
{
	const char *root = *state;

	expect_edit(root, 0, 20, 6, "UUID=3b1f none swap sw,pri=20 0 0");
	expect_edit(root, 1, 7, 7, "LABEL=fast\\040swap\tnone\tswap\tsw,discard=pages,pri=7\t0\t0");
	expect_edit(root, 2, 0, 8,
		    "   /swap\\040file   none   swap   defaults,discard,pri=0   0   0");
	expect_edit(root, 3, 32767, 9, "/dev/disk/by-id/ata-X-part2 none swap sw,nofail,pri=32767");
	/* no options field: the line in libmount's own form */
	expect_edit(root, 4, 3, 10, "/dev/zram0 none swap pri=3 0 0");
	expect_edit(root, 5, 4, 11, "/dev/sdc1 none swap sw,discard=once,pri=4 0 0");
	expect_edit(root, 6, 5, 12, "/dev/sdd1 none swap sw,discard=bogus,pri=5 0 0\r");
}

static void test_set_priority_keeps_mode(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_fstab *f;
	char path[PATH_MAX];
	struct stat st;
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/etc/fstab", root);
	assert_int_equal(chmod(path, 0640), 0);
	f = load(root, &ctx);
	assert_int_equal(reclaim_fstab_set_priority(f, 0, 1), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	/* no temporary file is left behind */
	snprintf(path, sizeof(path), "%s/etc", root);
	dir = opendir(path);
	assert_non_null(dir);
	while ((de = readdir(dir)))
		assert_true(de->d_name[0] == '.' ? strlen(de->d_name) <= 2
						 : strcmp(de->d_name, "fstab") == 0);
	closedir(dir);
	reclaim_fstab_unref(f);
	reclaim_unref(ctx);
}

static void test_set_priority_refused(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_fstab *f;
	char *text;

	f = load(root, &ctx);
	assert_int_equal(reclaim_fstab_set_priority(f, 0, -1), -ERANGE);
	assert_int_equal(reclaim_fstab_set_priority(f, 0, 32768), -ERANGE);
	assert_int_equal(reclaim_fstab_set_priority(f, 7, 1), -EINVAL);
	/* the file changed since it was read: the entry is not where it was */
	tmproot_write(root, "/etc/fstab", "# new\nUUID=3b1f none swap sw,pri=9 0 0\n");
	assert_int_equal(reclaim_fstab_set_priority(f, 1, 1), -ESTALE);
	text = tmproot_read(root, "/etc/fstab");
	assert_string_equal(text, "# new\nUUID=3b1f none swap sw,pri=9 0 0\n");
	free(text);
	reclaim_fstab_unref(f);

	/* a link is not replaced by a file */
	tmproot_write(root, "/etc/fstab.real", fstab);
	tmproot_unlink(root, "/etc/fstab");
	tmproot_symlink(root, "/etc/fstab", "fstab.real");
	assert_int_equal(reclaim_fstab_new(ctx, &f), 0);
	assert_int_equal(reclaim_fstab_set_priority(f, 0, 1), -EINVAL);
	assert_non_null(strstr(reclaim_strerror(ctx), "not a regular file"));
	reclaim_fstab_unref(f);
	reclaim_unref(ctx);
}

/* An unbalanced quote in the options: pri= would land inside it and never take effect. */
static void test_set_priority_unbalanced_quote(void **state)
{
	static const char text[] = "# swap\n"
				   "/dev/sdb1 none swap sw,x-note=\"half,pri=3 0 0\n";
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_fstab *f;
	char *after;

	tmproot_write(root, "/etc/fstab", text);
	f = load(root, &ctx);
	assert_int_equal(reclaim_fstab_count(f), 1);
	assert_int_equal(reclaim_fstab_set_priority(f, 0, 7), -EINVAL);
	assert_string_equal(reclaim_strerror(ctx),
			    "/etc/fstab: line 2: unbalanced quote in the options; nothing changed");
	after = tmproot_read(root, "/etc/fstab");
	assert_string_equal(after, text);
	free(after);
	reclaim_fstab_unref(f);
	reclaim_unref(ctx);
}

static void test_missing_and_malformed(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_fstab *f = NULL;

	assert_int_equal(reclaim_new(&ctx, root), 0);
	tmproot_write(root, "/etc/fstab", "/dev/sda1 / ext4 defaults 0 1\ngarbage\n# end\n");
	assert_int_equal(reclaim_fstab_new(ctx, &f), -EINVAL);
	assert_non_null(strstr(reclaim_strerror(ctx), "line 2"));
	tmproot_write(root, "/etc/fstab", "/dev/sda1 / ext4 defaults 0 1\ngarbage");
	assert_int_equal(reclaim_fstab_new(ctx, &f), -EINVAL);
	assert_non_null(strstr(reclaim_strerror(ctx), "line 2"));
	tmproot_unlink(root, "/etc/fstab");
	assert_int_equal(reclaim_fstab_new(ctx, &f), -ENOENT);
	assert_null(f);
	/* an fstab without swap */
	tmproot_write(root, "/etc/fstab", "/dev/sda1 / ext4 defaults 0 1\n");
	assert_int_equal(reclaim_fstab_new(ctx, &f), 0);
	assert_int_equal(reclaim_fstab_count(f), 0);
	assert_int_equal(reclaim_fstab_find(f, "/dev/sda1"), -ENOENT);
	reclaim_fstab_unref(f);
	reclaim_unref(ctx);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_entries),
	    T(test_find),
	    T(test_find_duplicate),
	    T(test_set_priority),
	    T(test_set_priority_keeps_mode),
	    T(test_set_priority_refused),
	    T(test_set_priority_unbalanced_quote),
	    T(test_missing_and_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
