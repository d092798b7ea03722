// SPDX-License-Identifier: LGPL-2.1-or-later
/* The one path resolver under the root (chase.c), and the spelling of the root. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sysctl-internal.h"
#include "tmproot.h"

struct fixture {
	char *root;
	struct reclaim_ctx *ctx;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char *real;

	assert_non_null(f);
	f->root = tmproot_new();
	/* The context canonicalizes its root: compare with that spelling. */
	real = realpath(f->root, NULL);
	assert_non_null(real);
	free(f->root);
	f->root = real;
	tmproot_write(f->root, "/etc/real.conf", "x\n");
	tmproot_symlink(f->root, "/etc/abs", "/etc/real.conf");
	tmproot_symlink(f->root, "/etc/rel", "real.conf");
	tmproot_symlink(f->root, "/etc/up", "../../../../../etc/real.conf");
	tmproot_symlink(f->root, "/etc/host", "/proc/self/status");
	tmproot_symlink(f->root, "/etc/loop1", "loop2");
	tmproot_symlink(f->root, "/etc/loop2", "loop1");
	tmproot_symlink(f->root, "/lib", "usr/lib");
	tmproot_mkdirs(f->root, "/usr/lib/sysctl.d");
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

static void expect_path(const struct fixture *f, const char *path, const char *want)
{
	char *got = reclaim_path(f->ctx, path), *full;

	assert_non_null(got);
	assert_true(asprintf(&full, "%s%s", f->root, want) > 0);
	assert_string_equal(got, full);
	free(full);
	free(got);
}

static void test_links_stay_inside(void **state)
{
	struct fixture *f = *state;

	expect_path(f, "/etc/abs", "/etc/real.conf");
	expect_path(f, "/etc/rel", "/etc/real.conf");
	expect_path(f, "/etc/up", "/etc/real.conf");
	/* An absolute link to a host file resolves inside the root, where there is none. */
	expect_path(f, "/etc/host", "/proc/self/status");
	expect_path(f, "/lib/sysctl.d/x.conf", "/usr/lib/sysctl.d/x.conf");
	/* Not there yet (a file to create): taken as named. */
	expect_path(f, "/run/reclaimctl/history", "/run/reclaimctl/history");
	expect_path(f, "/run/../etc/./real.conf", "/etc/real.conf");
}

static void test_loop(void **state)
{
	struct fixture *f = *state;
	char *resolved = NULL;

	errno = 0;
	assert_null(reclaim_path(f->ctx, "/etc/loop1"));
	assert_int_equal(errno, ELOOP);
	assert_int_equal(reclaim_chase(f->ctx, "/etc/loop1", &resolved), -ELOOP);
	assert_int_equal(reclaim_path_error(f->ctx, "/etc/loop1"), -ELOOP);
	assert_non_null(strstr(reclaim_strerror(f->ctx), "/etc/loop1"));
}

static void test_nofollow_keeps_the_link(void **state)
{
	struct fixture *f = *state;
	char *got = reclaim_path_nofollow(f->ctx, "/run/../etc/abs"), *want;

	assert_non_null(got);
	assert_true(asprintf(&want, "%s/etc/abs", f->root) > 0);
	assert_string_equal(got, want);
	free(want);
	free(got);
}

static void test_resolve_path_keeps_missing_tail(void **state)
{
	struct fixture *f = *state;
	char *got = reclaim_resolve_path(f->ctx, "/etc/abs");

	assert_string_equal(got, "/etc/real.conf");
	free(got);
	got = reclaim_resolve_path(f->ctx, "/dev/disk/by-uuid/x");
	assert_string_equal(got, "/dev/disk/by-uuid/x");
	free(got);
	/* A loop: the path as named. */
	got = reclaim_resolve_path(f->ctx, "/etc/./loop1");
	assert_string_equal(got, "/etc/loop1");
	free(got);
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
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_links_stay_inside),	     T(test_loop),
	    T(test_nofollow_keeps_the_link), T(test_resolve_path_keeps_missing_tail),
	    T(test_root_spelling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
