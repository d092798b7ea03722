// SPDX-License-Identifier: LGPL-2.1-or-later
/* The atomic writer: mode, owner and extended attributes kept; stale temporary files removed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "internal.h"
#include "tmproot.h"

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

static char *path_in(const char *root, const char *name)
{
	char *p;

	assert_true(asprintf(&p, "%s/%s", root, name) > 0);
	return p;
}

/* reclaim_replace_file() of ROOT/@name, in the root's descriptor (O_PATH, as the library's). */
static int replace(const char *root, const char *name, const char *text, mode_t mode)
{
	int dirfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC), r;

	assert_true(dirfd >= 0);
	r = reclaim_replace_file(dirfd, name, text, strlen(text), mode);
	close(dirfd);
	return r;
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_mode & 07777;
}

static void test_new_and_replaced(void **state)
{
	const char *root = *state;
	char *full = path_in(root, "conf");

	assert_int_equal(replace(root, "conf", "one\n", 0640), 0);
	tmproot_assert_file(root, "/conf", "one\n");
	assert_int_equal(mode_of(full), 0640);
	assert_int_equal(chmod(full, 0600), 0);
	assert_int_equal(replace(root, "conf", "two\n", 0644), 0);
	tmproot_assert_file(root, "/conf", "two\n");
	assert_int_equal(mode_of(full), 0600); /* the file's, not the default */
	free(full);
}

/* An ACL or a security label is an extended attribute: a replaced file keeps them all. */
static void test_xattrs_kept(void **state)
{
	const char *root = *state;
	char *full = path_in(root, "fstab"), value[32] = "";
	ssize_t n;

	tmproot_write(root, "/fstab", "old\n");
	if (setxattr(full, "user.reclaimctl-test", "kept", 4, 0) < 0) {
		free(full);
		skip(); /* a file system without user xattrs */
	}
	assert_int_equal(replace(root, "fstab", "new\n", 0644), 0);
	tmproot_assert_file(root, "/fstab", "new\n");
	n = getxattr(full, "user.reclaimctl-test", value, sizeof(value) - 1);
	assert_int_equal(n, 4);
	assert_string_equal(value, "kept");
	free(full);
}

static void plant(const char *root, const char *name, time_t age)
{
	char *p = path_in(root, name);
	struct timespec t[2];

	tmproot_write(root, name, "left\n");
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= age;
	t[1] = t[0];
	assert_int_equal(utimensat(AT_FDCWD, p, t, 0), 0);
	free(p);
}

static bool exists(const char *root, const char *name)
{
	char *p = path_in(root, name);
	bool r = access(p, F_OK) == 0;

	free(p);
	return r;
}

/* A crash between the temporary file and the rename leaves ".NAME.XXXXXX": the next write removes
 * it once it is older than a minute, and nothing else. */
static void test_stale_temps_removed(void **state)
{
	const char *root = *state;
	char *full = path_in(root, "history");

	plant(root, "/.history.a1B2c3", 120);
	plant(root, "/.history.fresh1", 0);
	plant(root, "/.other.a1B2c3", 120);
	plant(root, "/.history.toolong1", 120);
	plant(root, "/history.a1B2c3", 120);
	assert_int_equal(replace(root, "history", "x\n", 0644), 0);
	assert_false(exists(root, "/.history.a1B2c3"));
	assert_true(exists(root, "/.history.fresh1"));
	assert_true(exists(root, "/.other.a1B2c3"));
	assert_true(exists(root, "/.history.toolong1"));
	assert_true(exists(root, "/history.a1B2c3"));
	tmproot_assert_file(root, "/history", "x\n");
	free(full);
}

/* A link in the file's place is not written through: -EINVAL, the link's target as it was. */
static void test_link_refused(void **state)
{
	const char *root = *state;
	char *dir = path_in(root, "");
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	tmproot_write(root, "/target", "target\n");
	tmproot_symlink(root, "/conf", "target");
	assert_int_equal(replace(root, "conf", "new\n", 0644), -EINVAL);
	tmproot_assert_file(root, "/target", "target\n");
	/* and no temporary file is left */
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.' || strlen(de->d_name) > 2;
	closedir(d);
	assert_int_equal(n, 2);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_new_and_replaced, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_xattrs_kept, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_stale_temps_removed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_link_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
