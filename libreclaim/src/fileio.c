// SPDX-License-Identifier: LGPL-2.1-or-later
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

const char *reclaim_read_strerror(int r)
{
	if (r == -RECLAIM_ENOTREG)
		return "not a regular file";
	if (r == -EFBIG)
		return "larger than " RECLAIM_READ_MAX_TEXT;
	if (r == -RECLAIM_EBINARY)
		return "binary data (a NUL byte), not text";
	return strerror(r < 0 ? -r : r);
}

/* @path under the root of @ctx or, @ctx NULL, a path of this system (see internal.h). */
static int open_path(const struct reclaim_ctx *ctx, const char *path, int flags)
{
	int fd;

	if (ctx)
		return reclaim_root_open(ctx, path, flags, 0);
	fd = open(path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* O_NONBLOCK: a FIFO in place of a file must not hang the command (it is refused below). */
int reclaim_open_regular(const struct reclaim_ctx *ctx, const char *path, int *ret_fd)
{
	struct stat st;
	int fd = open_path(ctx, path, O_RDONLY | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -RECLAIM_ENOTREG;
	}
	*ret_fd = fd;
	return 0;
}

int reclaim_stat(const struct reclaim_ctx *ctx, const char *path, int flags, struct stat *st)
{
	int fd = open_path(ctx, path, O_PATH | (flags & O_NOFOLLOW)), r = 0;

	if (fd < 0)
		return fd;
	if (fstat(fd, st) < 0)
		r = -errno;
	close(fd);
	return r;
}

DIR *reclaim_opendir(const struct reclaim_ctx *ctx, const char *path)
{
	int fd = open_path(ctx, path, O_RDONLY | O_DIRECTORY);
	DIR *d;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		int err = errno;

		close(fd);
		errno = err;
	}
	return d;
}

/*
 * Some dumps of sysfs end a file with NUL bytes ("0-7\n\0"): in what the
 * kernel writes (@kernel: /proc, /sys) they are dropped. Anywhere else, in
 * a file an administrator or reclaimctl writes, a NUL is binary data, and
 * so is text after a NUL anywhere: every parser would lose it.
 */
int reclaim_text_length(const char *buf, size_t *len, bool kernel)
{
	const char *nul = memchr(buf, '\0', *len);

	if (!nul)
		return 0;
	if (!kernel)
		return -RECLAIM_EBINARY;
	for (const char *p = nul; p < buf + *len; p++)
		if (*p)
			return -RECLAIM_EBINARY;
	*len = (size_t)(nul - buf);
	return 0;
}

static bool kernel_file(const char *path)
{
	return strncmp(path, "/proc/", 6) == 0 || strncmp(path, "/sys/", 5) == 0;
}

/* /proc and /sys files report size 0, so read until EOF instead of trusting stat. */
int reclaim_read_file(const struct reclaim_ctx *ctx, const char *path, char **ret, size_t *ret_len)
{
	size_t size = 4096, len = 0;
	char *buf = NULL;
	int fd, r = 0;

	r = reclaim_open_regular(ctx, path, &fd);
	if (r < 0)
		return r;
	for (;;) {
		ssize_t n;

		if (!buf || len + 1 >= size) {
			char *nbuf;

			if (buf)
				size *= 2;
			if (size > RECLAIM_READ_MAX + 1) {
				r = -EFBIG;
				break;
			}
			nbuf = realloc(buf, size);
			if (!nbuf) {
				r = -ENOMEM;
				break;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, size - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (r == 0)
		r = reclaim_text_length(buf, &len, kernel_file(path));
	if (r < 0) {
		free(buf);
		return r;
	}
	buf[len] = '\0';
	*ret = buf;
	if (ret_len)
		*ret_len = len;
	return 0;
}

int reclaim_read_optional(struct reclaim_ctx *ctx, const char *path, char **buf)
{
	int r = reclaim_read_file(ctx, path, buf, NULL);

	if (r == -ENOENT) {
		*buf = NULL;
		return 0;
	}
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read %s: %s", path, reclaim_read_strerror(r));
	return 0;
}

bool reclaim_exists(const struct reclaim_ctx *ctx, const char *path)
{
	int fd = reclaim_root_open(ctx, path, O_PATH, 0);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int reclaim_read_line(const struct reclaim_ctx *ctx, const char *path, char **line)
{
	char *buf;
	int r;

	r = reclaim_read_file(ctx, path, &buf, NULL);
	if (r < 0)
		return r;
	buf[strcspn(buf, "\n")] = '\0';
	*line = buf;
	return 0;
}

/*
 * Under a --sysroot a knob is a plain file: replaced whole, so that a reader
 * (another reclaimctl evaluating before it takes the lock) never sees it
 * truncated. It must exist already: no knob is invented. A link to it is
 * followed inside the root; the file it leads to is replaced.
 */
static int replace_knob(const struct reclaim_ctx *ctx, const char *path, const char *s)
{
	_cleanup_free_ char *resolved = NULL, *name = NULL;
	_cleanup_close_ int dirfd = -1;
	int r = reclaim_chase(ctx, path, 0, &resolved);

	if (r == 0)
		r = reclaim_root_parent(ctx, resolved, &dirfd, &name);
	if (r == 0)
		r = reclaim_replace_file(dirfd, name, s, strlen(s), 0644);
	return r;
}

int reclaim_write_string(const struct reclaim_ctx *ctx, const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd, r = 0;

	if (!reclaim_is_live(ctx))
		return replace_knob(ctx, path, s);
	/* No O_CREAT: a knob that does not exist must not be invented. */
	fd = reclaim_root_open(ctx, path, O_WRONLY | O_TRUNC, 0);
	if (fd < 0)
		return fd;
	n = write(fd, s, len);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static bool only_space(const char *s)
{
	return *skip_space(s) == '\0';
}

int reclaim_parse_i64(const char *s, int64_t *v)
{
	char *end;
	long long x;

	s = skip_space(s);
	if (!*s)
		return -EINVAL;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || !only_space(end))
		return -EINVAL;
	*v = x;
	return 0;
}

int reclaim_parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	s = skip_space(s);
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (!only_space(end))
		return -EINVAL;
	*v = x;
	return 0;
}

int reclaim_pread_text(int fd, char **buf, size_t *size, size_t *len_out)
{
	size_t len = 0;
	int r;

	for (;;) {
		ssize_t n;

		if (len + 1 >= *size) {
			size_t grown = *size ? *size * 2 : 16384;
			char *p;

			if (grown > RECLAIM_READ_MAX + 1)
				return -EFBIG;
			p = realloc(*buf, grown);
			if (!p)
				return -ENOMEM;
			*buf = p;
			*size = grown;
		}
		n = pread(fd, *buf + len, *size - len - 1, (off_t)len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
		/*
		 * Less than asked for is the whole file: proc, sysfs and sysctl
		 * files give what they have in one read, as a regular file does;
		 * this saves the read that would return 0.
		 */
		if (len + 1 < *size)
			break;
	}
	r = reclaim_text_length(*buf, &len, true);
	if (r < 0)
		return r;
	(*buf)[len] = '\0';
	if (len_out)
		*len_out = len;
	return 0;
}
