// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Paths under the root (chase.c): the names they resolve to, and the files
 * opened from the root's descriptor. Every test runs twice: with openat2(2)
 * (where the kernel has it) and with the walk the library falls back to.
 *
 * The root is TOP/root; beside it TOP/outside holds what no path under the
 * root may reach.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "internal.h"
#include "tmproot.h"

struct fixture {
	char *top, *root; /* TOP, and TOP/root as the context spells it */
	struct reclaim_ctx *ctx;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char *top, *root, link[PATH_MAX];

	assert_non_null(f);
	top = tmproot_new();
	/* The context canonicalizes its root: compare with that spelling. */
	f->top = realpath(top, NULL);
	assert_non_null(f->top);
	free(top);
	tmproot_write(f->top, "/outside/secret", "outside\n");
	tmproot_mkdirs(f->top, "root");
	assert_true(asprintf(&root, "%s/root", f->top) > 0);
	f->root = root;
	tmproot_write(root, "/etc/real.conf", "x\n");
	tmproot_symlink(root, "/etc/abs", "/etc/real.conf");
	tmproot_symlink(root, "/etc/rel", "real.conf");
	tmproot_symlink(root, "/etc/up", "../../../../../etc/real.conf");
	tmproot_symlink(root, "/etc/host", "/proc/self/status");
	tmproot_symlink(root, "/etc/loop1", "loop2");
	tmproot_symlink(root, "/etc/loop2", "loop1");
	tmproot_symlink(root, "/lib", "usr/lib");
	tmproot_mkdirs(root, "/usr/lib/sysctl.d");
	/* what a link leading out would find, had it left the root */
	tmproot_write(root, "/outside/secret", "inside\n");
	snprintf(link, sizeof(link), "%s/outside/secret", f->top);
	tmproot_write(root, link, "inside, at the outside's absolute path\n");
	tmproot_symlink(root, "/etc/out-abs", link);
	tmproot_symlink(root, "/etc/out-rel", "../../outside/secret");
	/* a mask, in a root without /dev */
	tmproot_symlink(root, "/etc/sysctl.d/masked.conf", "/dev/null");
	assert_int_equal(reclaim_new(&f->ctx, root), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	reclaim_unref(f->ctx);
	free(f->root);
	tmproot_remove(f->top);
	free(f);
	return 0;
}

static int use_openat2(void **state)
{
	(void)state;
	reclaim_no_openat2 = false;
	return 0;
}

static int use_walk(void **state)
{
	(void)state;
	reclaim_no_openat2 = true;
	return 0;
}

/* reclaim_chase(@path) is @want, or fails with @err. */
static void expect_chase(const struct fixture *f, const char *path, unsigned int flags,
			 const char *want, int err)
{
	char *got = NULL;
	int r = reclaim_chase(f->ctx, path, flags, &got);

	if (err) {
		assert_int_equal(r, err);
		assert_null(got);
		return;
	}
	assert_int_equal(r, 0);
	assert_string_equal(got, want);
	free(got);
}

/* The file @path under the root holds @want, or cannot be read with @err. */
static void expect_read(const struct fixture *f, const char *path, const char *want, int err)
{
	char *text = NULL;
	int r = reclaim_read_file(f->ctx, path, &text, NULL);

	if (err) {
		assert_int_equal(r, err);
		return;
	}
	assert_int_equal(r, 0);
	assert_string_equal(text, want);
	free(text);
}

/* Paths that resolve to a name under the root, and what reading them gives. */
struct resolves {
	const char *path, *resolved;
	const char *text; /* NULL: not a file to read */
};

static void expect_resolves(const struct fixture *f, const struct resolves *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		expect_chase(f, rows[i].path, 0, rows[i].resolved, 0);
		if (rows[i].text)
			expect_read(f, rows[i].path, rows[i].text, 0);
	}
}

static void test_links_stay_inside(void **state)
{
	static const struct resolves rows[] = {
	    {"/etc/abs", "/etc/real.conf", "x\n"},
	    {"/etc/rel", "/etc/real.conf", "x\n"},
	    {"/etc/up", "/etc/real.conf", "x\n"},
	    {"/lib/sysctl.d", "/usr/lib/sysctl.d", NULL},
	    /* ".." after a link is the parent of the link's target */
	    {"/lib/../../etc/./abs", "/etc/real.conf", "x\n"},
	    /* a relative link that would climb out of the root */
	    {"/etc/out-rel", "/outside/secret", "inside\n"},
	};
	struct fixture *f = *state;

	expect_resolves(f, rows, ARRAY_SIZE(rows));
	/* An absolute link to a host file resolves inside the root, where there is none. */
	expect_chase(f, "/etc/host", RECLAIM_CHASE_MISSING, "/proc/self/status", 0);
	expect_chase(f, "/etc/host", 0, NULL, -ENOENT);
	expect_read(f, "/etc/host", NULL, -ENOENT);
	/* An absolute link to the outside: what the root has at that path. */
	expect_read(f, "/etc/out-abs", "inside, at the outside's absolute path\n", 0);
}

/* ".." at the root is the root: never its parent (TOP), whose outside/ is not the root's. */
static void test_dotdot_at_root(void **state)
{
	static const struct resolves rows[] = {
	    {"/..", "/", NULL},
	    {"/../outside/secret", "/outside/secret", "inside\n"},
	    {"/../../outside/secret", "/outside/secret", "inside\n"},
	    {"/../../../etc/real.conf", "/etc/real.conf", "x\n"},
	    {"/etc/../../outside/secret", "/outside/secret", "inside\n"},
	};

	expect_resolves(*state, rows, ARRAY_SIZE(rows));
}

static void test_loop(void **state)
{
	struct fixture *f = *state;

	expect_chase(f, "/etc/loop1", 0, NULL, -ELOOP);
	expect_chase(f, "/etc/loop1/x", RECLAIM_CHASE_MISSING, NULL, -ELOOP);
	expect_read(f, "/etc/loop1", NULL, -ELOOP);
	assert_int_equal(reclaim_root_open(f->ctx, "/etc/loop1/x", O_RDONLY, 0), -ELOOP);
	assert_int_equal(reclaim_path_check(f->ctx, "/etc/loop1"), -ELOOP);
	assert_non_null(strstr(reclaim_strerror(f->ctx), "cannot resolve /etc/loop1 under "));
	assert_non_null(strstr(reclaim_strerror(f->ctx), "Too many levels of symbolic links"));
}

/* Errors keep their errno: a file in the way, a missing directory. */
static void test_errors(void **state)
{
	struct fixture *f = *state;

	expect_chase(f, "/etc/real.conf/x", RECLAIM_CHASE_MISSING, NULL, -ENOTDIR);
	expect_read(f, "/etc/real.conf/x", NULL, -ENOTDIR);
	expect_read(f, "/nowhere/x", NULL, -ENOENT);
	assert_int_equal(reclaim_path_check(f->ctx, "/nowhere/x"), 0);
	assert_int_equal(reclaim_path_check(f->ctx, "/etc/real.conf/x"), -ENOTDIR);
}

/* A link to /dev/null is a mask, seen from the link: the root needs no /dev/null. */
static void test_mask(void **state)
{
	struct fixture *f = *state;

	expect_chase(f, "/etc/sysctl.d/masked.conf", 0, "/dev/null", 0);
	expect_chase(f, "/etc/sysctl.d/./masked.conf", RECLAIM_CHASE_MISSING, "/dev/null", 0);
	/* opened, it is what the root has at /dev/null: nothing here, never the host's */
	expect_read(f, "/etc/sysctl.d/masked.conf", NULL, -ENOENT);
}

/* Taken as named: what does not exist yet, a file to create. */
static void test_missing_taken_as_named(void **state)
{
	struct fixture *f = *state;
	char *got;

	expect_chase(f, "/run/reclaimctl/history", RECLAIM_CHASE_MISSING, "/run/reclaimctl/history",
		     0);
	expect_chase(f, "/run/reclaimctl/history", 0, NULL, -ENOENT);
	expect_chase(f, "/lib/sysctl.d/x.conf", RECLAIM_CHASE_MISSING, "/usr/lib/sysctl.d/x.conf",
		     0);
	expect_chase(f, "/run/../etc/./real.conf", RECLAIM_CHASE_MISSING, "/etc/real.conf", 0);
	expect_chase(f, "/run/x/../../etc/y", RECLAIM_CHASE_MISSING, "/etc/y", 0);
	got = reclaim_resolve_path(f->ctx, "/dev/disk/by-uuid/x");
	assert_string_equal(got, "/dev/disk/by-uuid/x");
	free(got);
	/* A loop: the path as named. */
	got = reclaim_resolve_path(f->ctx, "/etc/./loop1");
	assert_string_equal(got, "/etc/loop1");
	free(got);
}

/* The directory of the last component, which is not followed. */
static void test_parent(void **state)
{
	struct fixture *f = *state;
	char target[64], *name = NULL;
	struct stat st;
	ssize_t n;
	int dirfd = -1, fd;

	assert_int_equal(reclaim_root_parent(f->ctx, "/usr/../etc/abs", &dirfd, &name), 0);
	assert_string_equal(name, "abs");
	n = readlinkat(dirfd, name, target, sizeof(target) - 1);
	assert_int_equal(n, (ssize_t)strlen("/etc/real.conf"));
	close(dirfd);
	free(name);
	/* a link on the way is followed */
	assert_int_equal(reclaim_root_parent(f->ctx, "/lib/sysctl.d/new", &dirfd, &name), 0);
	assert_int_equal(fstat(dirfd, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	close(dirfd);
	free(name);
	name = NULL;
	assert_int_equal(reclaim_root_parent(f->ctx, "/nowhere/new", &dirfd, &name), -ENOENT);
	assert_null(name);
	assert_int_equal(reclaim_root_parent(f->ctx, "/etc/loop1/new", &dirfd, &name), -ELOOP);
	/* O_NOFOLLOW: the link itself */
	fd = reclaim_root_open(f->ctx, "/etc/abs", O_PATH | O_NOFOLLOW, 0);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	close(fd);
	assert_int_equal(reclaim_root_open(f->ctx, "/etc/abs", O_RDONLY | O_NOFOLLOW, 0), -ELOOP);
}

/* Files made through links are made inside the root. */
static void test_create(void **state)
{
	struct fixture *f = *state;
	char outside[PATH_MAX];
	int fd;

	tmproot_mkdirs(f->root, "var");
	tmproot_symlink(f->root, "/etc/dangling", "/var/new");
	fd = reclaim_root_open(f->ctx, "/etc/dangling", O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	tmproot_assert_file(f->root, "/var/new", "");
	/* O_CREAT|O_EXCL never follows a link */
	assert_int_equal(reclaim_root_open(f->ctx, "/etc/abs", O_WRONLY | O_CREAT | O_EXCL, 0644),
			 -EEXIST);
	/* nothing reached TOP */
	snprintf(outside, sizeof(outside), "%s/var", f->top);
	assert_int_equal(access(outside, F_OK), -1);
}

/* A file made in @dir under the root through reclaim_root_parent(), by the atomic writer. */
static void replace_in(const struct fixture *f, const char *path)
{
	char *name = NULL;
	int dirfd = -1;

	assert_int_equal(reclaim_root_parent(f->ctx, path, &dirfd, &name), 0);
	assert_int_equal(reclaim_replace_file(dirfd, name, "new\n", 4, 0644), 0);
	close(dirfd);
	free(name);
}

/*
 * A directory of the root exchanged for a link that leads out, as another
 * writer of the tree could do between two calls: what is opened, read or
 * written through it stays inside the root.
 */
static void test_swapped_link(void **state)
{
	struct fixture *f = *state;
	char dir[PATH_MAX], old[PATH_MAX], target[PATH_MAX];

	tmproot_write(f->root, "/data/secret", "data\n");
	expect_read(f, "/data/secret", "data\n", 0);
	snprintf(dir, sizeof(dir), "%s/data", f->root);
	snprintf(old, sizeof(old), "%s/data.old", f->root);
	assert_int_equal(rename(dir, old), 0);
	snprintf(target, sizeof(target), "%s/outside", f->top);
	assert_int_equal(symlink(target, dir), 0);
	expect_read(f, "/data/secret", "inside, at the outside's absolute path\n", 0);
	replace_in(f, "/data/new");
	snprintf(old, sizeof(old), "%s/outside/new", f->top);
	tmproot_assert_file(f->root, old, "new\n");
	assert_int_equal(unlink(dir), 0);
	assert_int_equal(symlink("../outside", dir), 0);
	expect_read(f, "/data/secret", "inside\n", 0);
	replace_in(f, "/data/new");
	tmproot_assert_file(f->root, "/outside/new", "new\n");
	/* TOP/outside is as it was */
	tmproot_assert_file(f->top, "/outside/secret", "outside\n");
	snprintf(target, sizeof(target), "%s/outside/new", f->top);
	assert_int_equal(access(target, F_OK), -1);
}

/* mkdir -p from the root's descriptor: the modes asked for, a link in the way refused. */
static void test_mkdir_p(void **state)
{
	struct fixture *f = *state;
	char path[PATH_MAX];
	struct stat st;
	mode_t mask = umask(077);
	int fd;

	fd = reclaim_mkdir_p(f->ctx, "/a/b/c", 0755, 0700);
	umask(mask);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	close(fd);
	snprintf(path, sizeof(path), "%s/a/b", f->root);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	/* an existing directory is left as it is */
	fd = reclaim_mkdir_p(f->ctx, "/a/b", 0700, 0700);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	/* the path is one resolved already: a link in it is not followed */
	tmproot_symlink(f->root, "/a/out", "../../outside");
	fd = reclaim_mkdir_p(f->ctx, "/a/out/d", 0755, 0755);
	assert_true(fd == -ENOTDIR || fd == -ELOOP);
	snprintf(path, sizeof(path), "%s/outside/d", f->top);
	assert_int_equal(access(path, F_OK), -1);
}

/* "/", "/." and a link to "/" are all the live system; a root is spelled canonically. */
static void test_root_spelling(void **state)
{
	struct fixture *f = *state;
	struct reclaim_ctx *ctx;
	char *link;

	assert_false(reclaim_is_live(f->ctx));
	assert_string_equal(reclaim_get_sysroot(f->ctx), f->root);
	assert_int_equal(reclaim_new(&ctx, "/."), 0);
	assert_true(reclaim_is_live(ctx));
	assert_string_equal(reclaim_get_sysroot(ctx), "/");
	/* the live system is opened from the descriptor of "/" too */
	assert_true(reclaim_exists(ctx, "/proc/self/status"));
	reclaim_unref(ctx);
	assert_int_equal(reclaim_new(&ctx, NULL), 0);
	assert_true(reclaim_is_live(ctx));
	reclaim_unref(ctx);
	assert_true(asprintf(&link, "%s/root-link", f->root) > 0);
	assert_int_equal(symlink("/", link), 0);
	assert_int_equal(reclaim_new(&ctx, link), 0);
	assert_true(reclaim_is_live(ctx));
	reclaim_unref(ctx);
	free(link);
	/* a root that cannot be opened: each use says why */
	assert_int_equal(reclaim_new(&ctx, "/nonexistent-reclaim-root"), 0);
	assert_int_equal(reclaim_root_open(ctx, "/etc", O_PATH, 0), -ENOENT);
	reclaim_unref(ctx);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_links_stay_inside),
	    T(test_dotdot_at_root),
	    T(test_loop),
	    T(test_errors),
	    T(test_mask),
	    T(test_missing_taken_as_named),
	    T(test_parent),
	    T(test_create),
	    T(test_swapped_link),
	    T(test_mkdir_p),
	    T(test_root_spelling),
	};
	int failed = cmocka_run_group_tests_name("openat2", tests, use_openat2, NULL);

	return failed + cmocka_run_group_tests_name("walk", tests, use_walk, NULL);
}
