// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Paths under the context's root, as systemd's chase(): symbolic links are
 * followed inside the root (an absolute target starts again at the root,
 * ".." never leaves it), at most 40 of them (-ELOOP).
 *
 * Every file under the root is opened from the root's descriptor, never by
 * a joined path that the kernel would resolve once more: a directory of the
 * tree exchanged for a link while a command runs must not lead out of it.
 * openat2(2) with RESOLVE_IN_ROOT does the walk in the kernel; where it is
 * missing (ENOSYS) the same walk is done here, one component at a time: each
 * opened O_PATH|O_NOFOLLOW from the descriptor of the one before, a link
 * read with readlinkat(2) from its own descriptor. The names of resolved
 * paths (reclaim_chase()) come from that walk too.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

#define MAX_LINKS 40

bool reclaim_no_openat2;

enum {
	WALK_PARENT = 1 << 0, /* stop at the last component: its directory and its name */
	WALK_FOLLOW = 1 << 1, /* with WALK_PARENT: a link there is followed first */
	WALK_MISSING = 1 << 2 /* a missing component and the rest are taken as named */
};

struct walk {
	int root;	    /* the root's descriptor (the context's) */
	int fd;		    /* O_PATH descriptor of the directory reached */
	char *done;	    /* its path under the root: "" for the root */
	size_t dlen;	    /* strlen(done) */
	char *todo;	    /* what is left to walk */
	unsigned int links; /* links followed so far */
};

static void walk_free(struct walk *w)
{
	if (w->fd >= 0)
		close(w->fd);
	free(w->done);
	free(w->todo);
}

static int dup_root(int root)
{
	int fd = fcntl(root, F_DUPFD_CLOEXEC, 3);

	return fd < 0 ? -errno : fd;
}

static int walk_init(struct walk *w, const struct reclaim_ctx *ctx, const char *path)
{
	*w = (struct walk){.root = reclaim_root_fd(ctx), .fd = -1};
	if (w->root < 0)
		return w->root;
	w->fd = dup_root(w->root);
	if (w->fd < 0)
		return w->fd;
	w->done = strdup("");
	w->todo = strdup(path);
	return w->done && w->todo ? 0 : -ENOMEM;
}

/* Appends "/" and s[0..len) to *buf (length *blen). */
static int append_component(char **buf, size_t *blen, const char *s, size_t len)
{
	char *n = realloc(*buf, *blen + len + 2);

	if (!n)
		return -ENOMEM;
	n[*blen] = '/';
	memcpy(n + *blen + 1, s, len);
	*blen += len + 1;
	n[*blen] = '\0';
	*buf = n;
	return 0;
}

/* The components of @rest after a missing one, "." and ".." applied, appended to *done. */
static int append_missing(char **done, size_t *dlen, const char *rest)
{
	for (const char *p = rest;;) {
		size_t len;
		int r;

		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (len == 0)
			return 0;
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(*done, '/');

			*dlen = slash ? (size_t)(slash - *done) : 0;
			(*done)[*dlen] = '\0';
		} else if (!(len == 1 && p[0] == '.')) {
			r = append_component(done, dlen, p, len);
			if (r < 0)
				return r;
		}
		p += len;
	}
}

/* What is left becomes @rest (which may point into it). */
static void walk_advance(struct walk *w, const char *rest)
{
	memmove(w->todo, rest, strlen(rest) + 1);
}

/*
 * The next component of the path at *p, copied into @name, *p moved past
 * it: its length, 0 at the end of the path, or -ENAMETOOLONG.
 */
static int next_name(const char **p, char name[static NAME_MAX + 1])
{
	const char *s = *p + strspn(*p, "/");
	size_t len = strcspn(s, "/");

	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(name, s, len);
	name[len] = '\0';
	*p = s + len;
	return (int)len;
}

/* The directory @name of @dirfd, not a link; with @make made first (@mode exactly) if missing. */
static int enter_dir(int dirfd, const char *name, bool make, mode_t mode)
{
	bool made = make && mkdirat(dirfd, name, mode) == 0;
	int fd;

	if (make && !made && errno != EEXIST)
		return -errno;
	/* O_RDONLY for fchmod(): the umask takes nothing off a directory made here */
	fd = openat(dirfd, name, (made ? O_RDONLY : O_PATH) | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (made && fchmod(fd, mode) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

/*
 * The directory @path (with no link in it: the walk's own "done", or a
 * resolved path) entered component by component from the root's
 * descriptor, a link refused; with @make, mkdir -p: a missing directory
 * made with @mode, the last with @last_mode.
 */
static int enter_dirs(int root, const char *path, bool make, mode_t mode, mode_t last_mode)
{
	char name[NAME_MAX + 1];
	int fd = dup_root(root);

	for (const char *p = path; fd >= 0;) {
		int next, len = next_name(&p, name);

		if (len == 0)
			break;
		next =
		    len < 0 ? len : enter_dir(fd, name, make, p[strspn(p, "/")] ? mode : last_mode);
		close(fd);
		fd = next;
	}
	return fd;
}

/*
 * "..": the directory above, walked again from the root. At the root (nothing
 * resolved yet) it is the root itself: the root's own ".." is never looked up.
 */
static int walk_up(struct walk *w)
{
	char *slash;
	int fd;

	if (w->dlen == 0)
		return 0;
	slash = strrchr(w->done, '/');
	w->dlen = (size_t)(slash - w->done);
	w->done[w->dlen] = '\0';
	fd = enter_dirs(w->root, w->done, false, 0, 0);
	if (fd < 0)
		return fd;
	close(w->fd);
	w->fd = fd;
	return 0;
}

/* The link's target in place of the link: what is left is "@target/@rest". */
static int walk_link(struct walk *w, const char *target, const char *rest)
{
	char *todo;

	if (++w->links > MAX_LINKS)
		return -ELOOP;
	/* An absolute target starts again at the root. */
	if (target[0] == '/') {
		int fd = dup_root(w->root);

		if (fd < 0)
			return fd;
		close(w->fd);
		w->fd = fd;
		w->dlen = 0;
		w->done[0] = '\0';
	}
	if (asprintf(&todo, "%s/%s", target, rest) < 0)
		return -ENOMEM;
	free(w->todo);
	w->todo = todo;
	return 0;
}

/* The target of the link @name of @dirfd ("" with an O_PATH descriptor of the link). */
static int read_link(int dirfd, const char *name, char *buf, size_t size)
{
	ssize_t n = readlinkat(dirfd, name, buf, size);

	if (n < 0)
		return -errno;
	if ((size_t)n >= size)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

/* A link to /dev/null masks a file (sysctl.d): that is seen from the link, nothing is opened. */
static int walk_mask(struct walk *w)
{
	free(w->done);
	w->done = strdup("/dev/null");
	w->dlen = strlen("/dev/null");
	w->todo[0] = '\0';
	return w->done ? 0 : -ENOMEM;
}

/* The last component @name, not opened (WALK_PARENT): 1 if it was a link, now followed. */
static int walk_last(struct walk *w, const char *name, const char *rest, unsigned int flags)
{
	char target[PATH_MAX];
	int r;

	if (!(flags & WALK_FOLLOW))
		return 0;
	r = read_link(w->fd, name, target, sizeof(target));
	/* not a link, or nothing there yet (a file to create) */
	if (r == -EINVAL || r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	r = walk_link(w, target, rest);
	return r < 0 ? r : 1;
}

/*
 * One component @name, opened O_PATH|O_NOFOLLOW from the directory reached:
 * a link is read from that descriptor and its target walked instead, a
 * directory is entered. 1 if the walk is over (a missing component with
 * WALK_MISSING, a mask).
 */
static int walk_one(struct walk *w, const char *name, const char *rest, bool last,
		    unsigned int flags)
{
	struct stat st;
	int fd, r;

	/* A mask needs no /dev/null in the root. */
	if (!(flags & WALK_PARENT) && last && strcmp(w->done, "/dev") == 0 &&
	    strcmp(name, "null") == 0)
		return walk_mask(w) < 0 ? -ENOMEM : 1;
	fd = openat(w->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		/* What does not exist yet (a file to create) is taken as named. */
		if (r != -ENOENT || !(flags & WALK_MISSING))
			return r;
		r = append_component(&w->done, &w->dlen, name, strlen(name));
		if (r == 0)
			r = append_missing(&w->done, &w->dlen, rest);
		w->todo[0] = '\0';
		return r < 0 ? r : 1;
	}
	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];

		r = read_link(fd, "", target, sizeof(target));
		close(fd);
		if (r < 0)
			return r;
		if (!(flags & WALK_PARENT) && last && strcmp(target, "/dev/null") == 0)
			return walk_mask(w) < 0 ? -ENOMEM : 1;
		return walk_link(w, target, rest);
	}
	if (!last && !S_ISDIR(st.st_mode)) {
		close(fd);
		return -ENOTDIR;
	}
	r = append_component(&w->done, &w->dlen, name, strlen(name));
	if (r < 0) {
		close(fd);
		return r;
	}
	close(w->fd);
	w->fd = fd;
	walk_advance(w, rest);
	return 0;
}

/*
 * Walks w->todo from the directory reached. With WALK_PARENT it stops at the
 * last component and sets *last to its name (in w->todo), NULL if the path
 * ends in a directory ("/", "..", "."); else the whole path is walked.
 */
static int walk(struct walk *w, unsigned int flags, const char **last)
{
	*last = NULL;
	for (;;) {
		const char *rest = w->todo;
		char name[NAME_MAX + 1];
		int len = next_name(&rest, name), r;
		bool final;

		if (len <= 0)
			return len;
		final = rest[strspn(rest, "/")] == '\0';
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
			r = strcmp(name, "..") == 0 ? walk_up(w) : 0;
			if (r < 0)
				return r;
			walk_advance(w, rest);
			continue;
		}
		if ((flags & WALK_PARENT) && final) {
			size_t end = (size_t)(rest - w->todo);

			r = walk_last(w, name, rest, flags);
			if (r < 0)
				return r;
			if (r > 0)
				continue;
			w->todo[end] = '\0';
			*last = w->todo + end - len;
			return 0;
		}
		r = walk_one(w, name, rest, final, flags);
		if (r != 0)
			return r < 0 ? r : 0;
	}
}

/* The last component of @path in @dirfd, opened with @flags; -ELOOP if it became a link. */
static int open_last(int dirfd, const char *name, int flags, mode_t mode, bool follow)
{
	int fd = openat(dirfd, name ? name : ".", flags | O_NOFOLLOW, mode);
	struct stat st;

	if (fd < 0)
		return -errno;
	/* O_PATH opens a link itself: one put there after it was read is not what was asked */
	if (follow && (flags & O_PATH) && fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
		close(fd);
		return -ELOOP;
	}
	return fd;
}

/* reclaim_root_open() without openat2(2): the walk, then the last component opened. */
static int walk_open(const struct reclaim_ctx *ctx, const char *path, int flags, mode_t mode)
{
	/* O_CREAT|O_EXCL never follows a link, as open(2) */
	bool follow = !(flags & O_NOFOLLOW) && !((flags & O_CREAT) && (flags & O_EXCL));

	for (int tries = 0;; tries++) {
		const char *last;
		struct walk w;
		int r = walk_init(&w, ctx, path);

		if (r == 0)
			r = walk(&w, WALK_PARENT | (follow ? WALK_FOLLOW : 0), &last);
		if (r < 0) {
			walk_free(&w);
			return r;
		}
		r = open_last(w.fd, last, flags, mode, follow);
		walk_free(&w);
		/* A link put in the place of the last component after it was read: again. */
		if (r != -ELOOP || !follow || tries == 3)
			return r;
	}
}

static int openat2_open(int root, const char *path, int flags, mode_t mode)
{
	struct open_how how = {
	    .flags = (unsigned int)flags,
	    .mode = flags & O_CREAT ? mode : 0,
	    .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	const char *rel = path + strspn(path, "/");

	for (int tries = 0;; tries++) {
		long fd = syscall(SYS_openat2, root, *rel ? rel : ".", &how, sizeof(how));

		if (fd >= 0)
			return (int)fd;
		/* EAGAIN: a rename on the file system while ".." was being resolved */
		if (errno != EAGAIN || tries == 16)
			return -errno;
	}
}

int reclaim_root_open(const struct reclaim_ctx *ctx, const char *path, int flags, mode_t mode)
{
	int root = reclaim_root_fd(ctx), fd;

	if (root < 0)
		return root;
	if (!reclaim_no_openat2) {
		fd = openat2_open(root, path, flags | O_CLOEXEC, mode);
		/*
		 * ENOSYS: a kernel older than 5.6, or a sandbox that does not know
		 * the call; EPERM: one that refuses it. The walk gets the same
		 * answer as open(2) would then.
		 */
		if (fd != -ENOSYS && fd != -EPERM)
			return fd;
		/* a kernel without the call will not get it: not asked again */
		if (fd == -ENOSYS)
			reclaim_no_openat2 = true;
	}
	return walk_open(ctx, path, flags | O_CLOEXEC, mode);
}

int reclaim_root_parent(const struct reclaim_ctx *ctx, const char *path, int *dirfd, char **name)
{
	_cleanup_free_ char *dir = strdup(path);
	size_t len = dir ? strlen(dir) : 0;
	char *slash;
	int fd;

	if (!dir)
		return -ENOMEM;
	while (len > 1 && dir[len - 1] == '/')
		dir[--len] = '\0';
	slash = strrchr(dir, '/');
	if (!slash || !slash[1] || strcmp(slash + 1, ".") == 0 || strcmp(slash + 1, "..") == 0)
		return -EINVAL;
	*name = strdup(slash + 1);
	if (!*name)
		return -ENOMEM;
	*slash = '\0';
	/*
	 * No O_DIRECTORY: a file in the directory's place fails what is done in
	 * it (-ENOTDIR), as the kernel's own walk would.
	 */
	fd = reclaim_root_open(ctx, dir[0] ? dir : "/", O_PATH, 0);
	if (fd < 0) {
		free(*name);
		*name = NULL;
		return fd;
	}
	*dirfd = fd;
	return 0;
}

int reclaim_open_parent(struct reclaim_ctx *ctx, const char *path, int *dirfd, char **name)
{
	int r = reclaim_root_parent(ctx, path, dirfd, name);

	return r < 0 && r != -ENOENT ? reclaim_path_error(ctx, path, r) : r;
}

int reclaim_chase(const struct reclaim_ctx *ctx, const char *path, unsigned int flags, char **ret)
{
	const char *last;
	struct walk w;
	int r = walk_init(&w, ctx, path);

	if (r == 0)
		r = walk(&w, flags & RECLAIM_CHASE_MISSING ? WALK_MISSING : 0, &last);
	if (r == 0) {
		*ret = w.done[0] ? w.done : strdup("/");
		if (*ret == w.done)
			w.done = NULL;
		else if (!*ret)
			r = -ENOMEM;
	}
	walk_free(&w);
	return r;
}

char *reclaim_resolve_path(const struct reclaim_ctx *ctx, const char *path)
{
	char *resolved = NULL, *copy;
	size_t dlen = 0;
	int r = reclaim_chase(ctx, path, RECLAIM_CHASE_MISSING, &resolved);

	if (r == 0 || r == -ENOMEM)
		return resolved;
	/* A loop or a file in the way: the path as named, "." and ".." applied. */
	copy = strdup("");
	if (copy && append_missing(&copy, &dlen, path) < 0) {
		free(copy);
		copy = NULL;
	}
	if (copy && !copy[0]) {
		free(copy);
		copy = strdup("/");
	}
	return copy;
}

int reclaim_mkdir_p(const struct reclaim_ctx *ctx, const char *path, mode_t mode, mode_t last_mode)
{
	int root = reclaim_root_fd(ctx);

	return root < 0 ? root : enter_dirs(root, path, true, mode, last_mode);
}

int reclaim_path_error(struct reclaim_ctx *ctx, const char *path, int r)
{
	int err = r < 0 ? -r : ENOMEM;

	if (err == ENOMEM)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	return reclaim_error(ctx, err, "cannot resolve %s under %s: %s", path,
			     reclaim_get_sysroot(ctx), strerror(err));
}

int reclaim_path_check(struct reclaim_ctx *ctx, const char *path)
{
	_cleanup_free_ char *resolved = NULL;
	int r = reclaim_chase(ctx, path, RECLAIM_CHASE_MISSING, &resolved);

	return r < 0 ? reclaim_path_error(ctx, path, r) : 0;
}
