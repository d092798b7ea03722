// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Replacing a file so that a crash leaves either the old or the new text,
 * never a mix: a temporary file beside it with the old file's mode, owner
 * and extended attributes (ACLs, SELinux label), fsync(), rename(), fsync()
 * of the directory. Temporary files a crash left behind are removed. All of
 * it happens in the descriptor of the file's directory, by name in it: no
 * path is resolved again, and no link is followed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
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

/* fsync() of the directory @dirfd (O_PATH will do): a rename or an unlink in it made durable. */
static int sync_dir(int dirfd)
{
	int fd, r = 0;

	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

/*
 * Every extended attribute of the file @src (open) onto @fd. A file system
 * without them (ENOTSUP) has nothing to keep; any other failure fails the
 * replacement, which would otherwise drop an ACL or a security label unseen.
 */
static int copy_xattrs(int src, int fd)
{
	ssize_t len = flistxattr(src, NULL, 0);
	_cleanup_free_ char *names = NULL;

	if (len < 0)
		return errno == ENOTSUP ? 0 : -errno;
	if (len == 0)
		return 0;
	names = malloc((size_t)len);
	if (!names)
		return -ENOMEM;
	len = flistxattr(src, names, (size_t)len);
	if (len < 0)
		return -errno;
	for (char *name = names; name < names + len; name += strlen(name) + 1) {
		_cleanup_free_ char *value = NULL;
		ssize_t n = fgetxattr(src, name, NULL, 0);

		if (n < 0)
			return -errno;
		value = malloc(n ? (size_t)n : 1);
		if (!value)
			return -ENOMEM;
		n = fgetxattr(src, name, value, (size_t)n);
		if (n < 0 || fsetxattr(fd, name, value, (size_t)n, 0) < 0)
			return -errno;
	}
	return 0;
}

/*
 * The file @name of @dirfd being replaced, opened to read its extended
 * attributes: -ENOENT if there is none, -EINVAL if it is not a regular file
 * (a link: O_NOFOLLOW; a device or a FIFO is not even opened).
 */
static int open_old(int dirfd, const char *name, struct stat *st)
{
	struct stat now;
	int fd;

	if (fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (!S_ISREG(st->st_mode))
		return -EINVAL;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? -EINVAL : -errno;
	/* what was looked at is what was opened */
	if (fstat(fd, &now) < 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

/* Mode and owner of the file being replaced, or @mode and ours for a new one. */
static int take_over(int fd, int dirfd, const char *name, mode_t mode)
{
	struct stat st;
	_cleanup_close_ int old = open_old(dirfd, name, &st);

	if (old == -ENOENT)
		return fchmod(fd, mode) < 0 ? -errno : 0;
	if (old < 0)
		return old;
	if (fchmod(fd, st.st_mode & 07777) < 0)
		return -errno;
	if ((st.st_uid != geteuid() || st.st_gid != getegid()) &&
	    fchown(fd, st.st_uid, st.st_gid) < 0)
		return -errno;
	return copy_xattrs(old, fd);
}

/*
 * ".NAME.XXXXXX" beside @base older than a minute: what a crash between
 * creating the temporary file and rename() left. A writer holds its own for
 * milliseconds.
 */
static void remove_stale_temps(int dirfd, const char *base)
{
	size_t plen = strlen(base) + 2;
	time_t now = time(NULL);
	struct dirent *de;
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] != '.' || strncmp(de->d_name + 1, base, plen - 2) != 0 ||
		    de->d_name[plen - 1] != '.' || strlen(de->d_name) != plen + 6)
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    now - st.st_mtime > 60)
			unlinkat(fd, de->d_name, 0);
	}
	closedir(d);
}

/*
 * A new file ".@name.XXXXXX" (six random letters and digits) in @dirfd,
 * created O_EXCL|O_NOFOLLOW, as mkostemp() would in a path: its name in @tmp.
 */
static int create_temp(int dirfd, const char *name, char *tmp, size_t size)
{
	static const char chars[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	int n = snprintf(tmp, size, ".%s.", name);

	if (n < 0 || (size_t)n + 6 >= size)
		return -ENAMETOOLONG;
	for (unsigned int tries = 0; tries < 100; tries++) {
		uint64_t v;
		int fd;

		/* early at boot there may be no random bytes yet: a name O_EXCL refuses is retried
		 */
		if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != (ssize_t)sizeof(v)) {
			struct timespec ts;

			clock_gettime(CLOCK_MONOTONIC, &ts);
			v = (uint64_t)ts.tv_nsec * 2654435761u ^ (uint64_t)getpid() << 32 ^ tries;
		}
		for (int i = 0; i < 6; i++, v /= sizeof(chars) - 1)
			tmp[n + i] = chars[v % (sizeof(chars) - 1)];
		tmp[n + 6] = '\0';
		fd = openat(dirfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

int reclaim_replace_file(int dirfd, const char *name, const char *text, size_t len, mode_t mode)
{
	char tmp[NAME_MAX + 1];
	int fd, r;

	remove_stale_temps(dirfd, name);
	fd = create_temp(dirfd, name, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	r = take_over(fd, dirfd, name, mode);
	if (r == 0)
		r = write_all(fd, text, len);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dirfd, tmp, dirfd, name) < 0)
		r = -errno;
	if (r < 0) {
		unlinkat(dirfd, tmp, 0);
		return r;
	}
	/*
	 * The file is replaced: a failed fsync() of the directory only makes
	 * the rename less durable, and reporting a failure would have the
	 * caller take back a change that was made.
	 */
	(void)sync_dir(dirfd);
	return 0;
}

int reclaim_unlink_synced(int dirfd, const char *name)
{
	if (unlinkat(dirfd, name, 0) < 0)
		return -errno;
	return sync_dir(dirfd);
}
