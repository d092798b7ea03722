// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Replacing a file so that a crash leaves either the old or the new text,
 * never a mix: a temporary file beside it with the old file's mode, owner
 * and extended attributes (ACLs, SELinux label), fsync(), rename(), fsync()
 * of the directory. Temporary files a crash left behind are removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
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

/*
 * Every extended attribute of @full onto @fd. A file system without them
 * (ENOTSUP) has nothing to keep; any other failure fails the replacement,
 * which would otherwise drop an ACL or a security label unseen.
 */
static int copy_xattrs(const char *full, int fd)
{
	ssize_t len = listxattr(full, NULL, 0);
	_cleanup_free_ char *names = NULL;

	if (len < 0)
		return errno == ENOTSUP ? 0 : -errno;
	if (len == 0)
		return 0;
	names = malloc((size_t)len);
	if (!names)
		return -ENOMEM;
	len = listxattr(full, names, (size_t)len);
	if (len < 0)
		return -errno;
	for (char *name = names; name < names + len; name += strlen(name) + 1) {
		_cleanup_free_ char *value = NULL;
		ssize_t n = getxattr(full, name, NULL, 0);

		if (n < 0)
			return -errno;
		value = malloc(n ? (size_t)n : 1);
		if (!value)
			return -ENOMEM;
		n = getxattr(full, name, value, (size_t)n);
		if (n < 0 || fsetxattr(fd, name, value, (size_t)n, 0) < 0)
			return -errno;
	}
	return 0;
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
	return copy_xattrs(full, fd);
}

/*
 * ".NAME.XXXXXX" beside @base older than a minute: what a crash between
 * mkostemp() and rename() left. A writer holds its own for milliseconds.
 */
static void remove_stale_temps(const char *dir, const char *base)
{
	size_t plen = strlen(base) + 2;
	time_t now = time(NULL);
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] != '.' || strncmp(de->d_name + 1, base, plen - 2) != 0 ||
		    de->d_name[plen - 1] != '.' || strlen(de->d_name) != plen + 6)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && now - st.st_mtime > 60)
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

int reclaim_replace_file(const char *full, const char *text, size_t len, mode_t mode)
{
	const char *slash = strrchr(full, '/');
	_cleanup_free_ char *dir = NULL, *tmp = NULL;
	int fd, r;

	dir = slash && slash != full ? strndup(full, (size_t)(slash - full)) : strdup("/");
	if (!dir || asprintf(&tmp, "%s/.%s.XXXXXX", dir, slash ? slash + 1 : full) < 0)
		return -ENOMEM;
	remove_stale_temps(dir, slash ? slash + 1 : full);
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
	/*
	 * The file is replaced: a failed fsync() of the directory only makes
	 * the rename less durable, and reporting a failure would have the
	 * caller take back a change that was made.
	 */
	(void)reclaim_sync_dir(dir);
	return 0;
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
