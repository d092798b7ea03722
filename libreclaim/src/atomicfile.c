// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Replacing a file so that a crash leaves either the old or the new text,
 * never a mix: a temporary file beside it, fsync(), rename(), fsync() of
 * the directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

static int write_all(int fd, const char *s, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

int reclaim_sync_dir(const char *dir)
{
	int fd, r = 0;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

/* Mode and owner of the file being replaced, or @mode and ours for a new one. */
static int take_over(int fd, const char *full, mode_t mode)
{
	struct stat st;

	if (lstat(full, &st) < 0) {
		if (errno != ENOENT)
			return -errno;
		return fchmod(fd, mode) < 0 ? -errno : 0;
	}
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (fchmod(fd, st.st_mode & 07777) < 0)
		return -errno;
	if ((st.st_uid != geteuid() || st.st_gid != getegid()) &&
	    fchown(fd, st.st_uid, st.st_gid) < 0)
		return -errno;
	return 0;
}

int reclaim_replace_file(const char *full, const char *text, size_t len, mode_t mode)
{
	const char *slash = strrchr(full, '/');
	_cleanup_free_ char *dir = NULL, *tmp = NULL;
	int fd, r;

	dir = slash && slash != full ? strndup(full, (size_t)(slash - full)) : strdup("/");
	if (!dir || asprintf(&tmp, "%s/.%s.XXXXXX", dir, slash ? slash + 1 : full) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = take_over(fd, full, mode);
	if (r == 0)
		r = write_all(fd, text, len);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, full) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	return reclaim_sync_dir(dir);
}

int reclaim_unlink_synced(const char *full)
{
	const char *slash = strrchr(full, '/');
	_cleanup_free_ char *dir = NULL;

	if (unlink(full) < 0)
		return -errno;
	dir = slash && slash != full ? strndup(full, (size_t)(slash - full)) : strdup("/");
	if (!dir)
		return -ENOMEM;
	return reclaim_sync_dir(dir);
}
