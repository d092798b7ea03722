// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Writers of knobs take /run/reclaimctl/lock, so that two changes (a boot
 * unit and an administrator, say) never interleave their writes, and the
 * saved values always describe one history.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define LOCK RECLAIM_RUNDIR "/lock"

unsigned int reclaim_lock_timeout_ms = 10000;

void reclaim_sleep_ms(unsigned int ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Changing knobs needs root: say so where a non-root writer first fails. */
static const char *needs_root(int err)
{
	return (err == EACCES || err == EPERM) && geteuid() != 0 ? " (needs root)" : "";
}

/*
 * The files that decide what a restore writes, and the lock every writer
 * takes, must be root's (or, under a --sysroot, the tree's owner running
 * reclaimctl) and writable by no one else: else another user could plant
 * values for restore to write, or hold the lock forever.
 */
int reclaim_check_owner(struct reclaim_ctx *ctx, const char *shown, const struct stat *st)
{
	uid_t me = geteuid();

	if (st->st_uid != 0 && st->st_uid != me)
		return reclaim_error(
		    ctx, EPERM,
		    "%s belongs to uid %u, not root: refusing to use it (chown root "
		    "%s)",
		    shown, (unsigned int)st->st_uid, shown);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return reclaim_error(ctx, EPERM,
				     "%s is writable by others (mode %04o): refusing to use it "
				     "(chmod go-w %s)",
				     shown, (unsigned int)(st->st_mode & 07777), shown);
	return 0;
}

int reclaim_check_run_file(struct reclaim_ctx *ctx, const char *path)
{
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int dirfd = -1;
	struct stat st;
	int r = reclaim_open_parent(ctx, path, &dirfd, &name);

	if (r < 0 && r != -ENOENT)
		return r;
	if (r == 0 && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		r = -errno;
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read %s: %s", path, strerror(-r));
	if (!S_ISREG(st.st_mode))
		return reclaim_error(ctx, EPERM, "%s is not a regular file: refusing to use it",
				     path);
	return reclaim_check_owner(ctx, path, &st);
}

int reclaim_check_run_file_absent(struct reclaim_ctx *ctx, const char *path)
{
	int r = reclaim_check_run_file(ctx, path);

	if (r != -ENOENT)
		return r;
	reclaim_error_reset(ctx);
	return 0;
}

int reclaim_read_run_file(struct reclaim_ctx *ctx, const char *path, char **text)
{
	int r = reclaim_read_file(ctx, path, text, NULL);

	if (r == -ENOENT) {
		int absent = reclaim_check_run_file_absent(ctx, path);

		return absent < 0 ? absent : r;
	}
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read %s: %s", path, reclaim_read_strerror(r));
	r = reclaim_check_run_file(ctx, path);
	if (r < 0) {
		free(*text);
		*text = NULL;
	}
	return r;
}

int reclaim_write_run_file_locked(struct reclaim_ctx *ctx, const char *path, const char *text,
				  size_t len)
{
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int dirfd = -1;
	int r = reclaim_open_parent(ctx, path, &dirfd, &name);

	if (r < 0 && r != -ENOENT)
		return r;
	if (r == 0)
		r = reclaim_replace_file(dirfd, name, text, len, 0600);
	if (r < 0)
		r = reclaim_error(ctx, -r, "cannot write %s: %s", path, strerror(-r));
	return r;
}

int reclaim_write_run_file(struct reclaim_ctx *ctx, const char *path, const char *text, size_t len)
{
	int fd, r;

	r = reclaim_lock_take(ctx, &fd);
	if (r < 0)
		return r;
	r = reclaim_write_run_file_locked(ctx, path, text, len);
	reclaim_lock_release(fd);
	return r;
}

int reclaim_remove_run_file(struct reclaim_ctx *ctx, const char *path)
{
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int dirfd = -1;
	int fd, r;

	r = reclaim_lock_take(ctx, &fd);
	if (r < 0)
		return r;
	r = reclaim_open_parent(ctx, path, &dirfd, &name);
	if (r == 0)
		r = reclaim_unlink_synced(dirfd, name);
	if (r == -ENOENT)
		r = 0;
	else if (r < 0 && name)
		r = reclaim_error(ctx, -r, "cannot remove %s: %s", path, strerror(-r));
	reclaim_lock_release(fd);
	return r;
}

/*
 * /run/reclaimctl: made 0700 whatever the umask (its parents 0755), and
 * checked as above; its descriptor in *dirfd.
 */
static int run_dir(struct reclaim_ctx *ctx, int *dirfd)
{
	_cleanup_free_ char *resolved = NULL;
	struct stat st;
	int fd, r;

	r = reclaim_chase(ctx, RECLAIM_RUNDIR, RECLAIM_CHASE_MISSING, &resolved);
	if (r < 0)
		return reclaim_path_error(ctx, RECLAIM_RUNDIR, r);
	fd = reclaim_mkdir_p(ctx, resolved, 0755, 0700);
	if (fd == -ENOTDIR && reclaim_stat(ctx, RECLAIM_RUNDIR, 0, &st) == 0 &&
	    !S_ISDIR(st.st_mode))
		return reclaim_error(ctx, ENOTDIR, "%s is not a directory: refusing to use it",
				     RECLAIM_RUNDIR);
	if (fd < 0)
		return reclaim_error(ctx, -fd, "cannot create %s: %s%s", RECLAIM_RUNDIR,
				     strerror(-fd), needs_root(-fd));
	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return reclaim_error(ctx, -r, "cannot create %s: %s%s", RECLAIM_RUNDIR,
				     strerror(-r), needs_root(-r));
	}
	r = reclaim_check_owner(ctx, RECLAIM_RUNDIR, &st);
	if (r < 0) {
		close(fd);
		return r;
	}
	*dirfd = fd;
	return 0;
}

static int lock(struct reclaim_ctx *ctx, int *ret_fd, unsigned int timeout_ms)
{
	_cleanup_close_ int dirfd = -1;
	unsigned int waited = 0;
	int fd, r;

	r = run_dir(ctx, &dirfd);
	if (r < 0)
		return r;
	fd = openat(dirfd, "lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return reclaim_error(ctx, errno, "cannot open %s: %s%s", LOCK, strerror(errno),
				     needs_root(errno));
	{
		struct stat st;

		r = fstat(fd, &st) < 0
			? reclaim_error(ctx, errno, "cannot open %s: %s", LOCK, strerror(errno))
			: reclaim_check_owner(ctx, LOCK, &st);
		if (r < 0) {
			close(fd);
			return r;
		}
	}
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			r = reclaim_error(ctx, errno, "cannot lock %s: %s", LOCK, strerror(errno));
			close(fd);
			return r;
		}
		if (waited >= timeout_ms) {
			close(fd);
			return reclaim_error(ctx, EBUSY,
					     "another reclaimctl is changing knobs (%s held for "
					     "%u s)",
					     LOCK, reclaim_lock_timeout_ms / 1000);
		}
		reclaim_sleep_ms(50);
		waited += 50;
	}
	*ret_fd = fd;
	return 0;
}

int reclaim_lock_take(struct reclaim_ctx *ctx, int *ret_fd)
{
	return lock(ctx, ret_fd, reclaim_lock_timeout_ms);
}

int reclaim_lock_try(struct reclaim_ctx *ctx, int *ret_fd)
{
	return lock(ctx, ret_fd, 0);
}

void reclaim_lock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
