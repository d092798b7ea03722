/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Temporary root trees for the unit tests: a directory under /tmp holding the
 * few /proc and /sys files a test needs, removed when the test is done.
 * Include after <cmocka.h>: failures are cmocka assertions.
 */
#ifndef RECLAIM_TMPROOT_H
#define RECLAIM_TMPROOT_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reclaim.h"

/* Creates an empty root; free with tmproot_remove(). */
static inline char *tmproot_new(void)
{
	char tmpl[] = "/tmp/reclaim-unit-XXXXXX";
	char *root;

	assert_non_null(mkdtemp(tmpl));
	root = strdup(tmpl);
	assert_non_null(root);
	return root;
}

static inline void tmproot_mkdirs(const char *root, const char *path)
{
	char full[PATH_MAX];
	int n;

	n = snprintf(full, sizeof(full), "%s/%s", root, path);
	assert_true(n > 0 && (size_t)n < sizeof(full));
	for (char *p = full + strlen(root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		assert_true(mkdir(full, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	assert_true(mkdir(full, 0755) == 0 || errno == EEXIST);
}

/* Makes ROOT/@path a symbolic link to @target, creating the directories on the way. */
static inline void tmproot_symlink(const char *root, const char *path, const char *target)
{
	char full[PATH_MAX], dir[PATH_MAX];
	char *slash;

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(dir, sizeof(dir), "%s", path + 1);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		tmproot_mkdirs(root, dir);
	}
	assert_int_equal(symlink(target, full), 0);
}

/* Writes @content to ROOT/@path (path absolute), creating the directories on the way. */
static inline void tmproot_write(const char *root, const char *path, const char *content)
{
	char full[PATH_MAX];
	size_t len = strlen(content);
	char *slash;
	int fd, n;

	n = snprintf(full, sizeof(full), "%s%s", root, path);
	assert_true(n > 0 && (size_t)n < sizeof(full));
	slash = strrchr(full, '/');
	if (slash > full + strlen(root)) {
		*slash = '\0';
		tmproot_mkdirs(root, full + strlen(root) + 1);
		*slash = '/';
	}
	fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
}

/* Contents of ROOT/@path, or NULL if it does not exist; free() it. */
static inline char *tmproot_read(const char *root, const char *path)
{
	char full[PATH_MAX], *buf = NULL;
	size_t size = 0;
	FILE *f, *m;
	int c;

	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "re");
	if (!f)
		return NULL;
	m = open_memstream(&buf, &size);
	assert_non_null(m);
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	assert_int_equal(fclose(m), 0);
	return buf;
}

static inline void tmproot_unlink(const char *root, const char *path)
{
	char full[PATH_MAX];

	snprintf(full, sizeof(full), "%s%s", root, path);
	assert_int_equal(unlink(full), 0);
}

static inline int tmproot_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static inline void tmproot_remove(char *root)
{
	if (!root)
		return;
	assert_int_equal(nftw(root, tmproot_rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(root);
}

/* The knob of that name, or the test fails. */
static inline const struct reclaim_knob *knob(const char *name)
{
	const struct reclaim_knob *k = reclaim_knob_find(name);

	if (!k)
		fail_msg("no knob \"%s\"", name);
	return k;
}

/* The file @path under @root holds exactly @want, or the test fails. */
static inline void tmproot_assert_file(const char *root, const char *path, const char *want)
{
	char *text = tmproot_read(root, path);

	if (!text)
		fail_msg("%s does not exist", path);
	if (strcmp(text, want) != 0)
		fail_msg("%s is \"%s\", want \"%s\"", path, text, want);
	free(text);
}

#endif
