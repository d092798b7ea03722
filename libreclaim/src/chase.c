// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one resolver of paths under the context's root, as systemd's chase():
 * symbolic links are followed component by component inside the root (an
 * absolute target starts again at the root, ".." never leaves it), at most
 * 40 of them (-ELOOP). Every file the library opens under a --sysroot goes
 * through it, so no link in a dump or fixture tree reaches the host.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysctl-internal.h"

/* "<root><path>" as it stands, for the resolver's own lstat() calls. */
static char *raw_path(const struct reclaim_ctx *ctx, const char *path)
{
	const char *root = reclaim_get_sysroot(ctx);
	char *p;

	if (asprintf(&p, "%s%s", strcmp(root, "/") == 0 ? "" : root, path) < 0)
		return NULL;
	return p;
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

static int chase(const struct reclaim_ctx *ctx, const char *path, bool nonexistent, char **ret)
{
	_cleanup_free_ char *todo = strdup(path);
	char *done = strdup("");
	size_t dlen = 0;
	unsigned int links = 0;
	int r = 0;

	if (!todo || !done) {
		free(done);
		return -ENOMEM;
	}
	for (;;) {
		const char *p = todo, *rest;
		_cleanup_free_ char *full = NULL;
		char *next;
		struct stat st;
		size_t len;

		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (len == 0)
			break;
		rest = p + len;
		if (len == 1 && p[0] == '.') {
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(done, '/');

			dlen = slash ? (size_t)(slash - done) : 0;
			done[dlen] = '\0';
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		r = append_component(&done, &dlen, p, len);
		if (r < 0)
			break;
		/* A mask needs no /dev/null in the root. */
		if (strcmp(done, "/dev/null") == 0 && rest[strspn(rest, "/")] == '\0')
			break;
		full = raw_path(ctx, done);
		if (!full) {
			r = -ENOMEM;
			break;
		}
		if (lstat(full, &st) < 0) {
			r = -errno;
			/* What does not exist yet (a file to create) is taken as named. */
			if (r == -ENOENT && nonexistent)
				r = append_missing(&done, &dlen, rest);
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t n;

			if (++links > 40) {
				r = -ELOOP;
				break;
			}
			n = readlink(full, target, sizeof(target) - 1);
			if (n < 0) {
				r = -errno;
				break;
			}
			target[n] = '\0';
			/* Drop the link itself; an absolute target starts at the root. */
			dlen = target[0] == '/' ? 0 : (size_t)(strrchr(done, '/') - done);
			done[dlen] = '\0';
			if (asprintf(&next, "%s/%s", target, rest) < 0) {
				r = -ENOMEM;
				break;
			}
			free(todo);
			todo = next;
			continue;
		}
		if (*rest && rest[strspn(rest, "/")] && !S_ISDIR(st.st_mode)) {
			r = -ENOTDIR;
			break;
		}
		memmove(todo, rest, strlen(rest) + 1);
	}
	if (r < 0) {
		free(done);
		return r;
	}
	if (!done[0]) {
		free(done);
		done = strdup("/");
		if (!done)
			return -ENOMEM;
	}
	*ret = done;
	return 0;
}

int reclaim_chase(const struct reclaim_ctx *ctx, const char *path, char **ret)
{
	return chase(ctx, path, false, ret);
}

char *reclaim_resolve_path(const struct reclaim_ctx *ctx, const char *path)
{
	char *resolved = NULL, *copy;
	size_t dlen = 0;
	int r = chase(ctx, path, true, &resolved);

	if (r == 0 || r == -ENOMEM)
		return resolved;
	/* A loop or a file in the way: the path as named, "." and ".." applied. */
	copy = strdup("");
	if (copy && append_missing(&copy, &dlen, path) < 0)
		copy = NULL;
	if (copy && !copy[0]) {
		free(copy);
		copy = strdup("/");
	}
	return copy;
}

char *reclaim_path(const struct reclaim_ctx *ctx, const char *path)
{
	_cleanup_free_ char *resolved = NULL;
	int r;

	/* The live system: the kernel resolves, and nothing is outside "/". */
	if (reclaim_is_live(ctx))
		return raw_path(ctx, path);
	r = chase(ctx, path, true, &resolved);
	if (r < 0) {
		errno = -r;
		return NULL;
	}
	return raw_path(ctx, resolved);
}

char *reclaim_path_nofollow(const struct reclaim_ctx *ctx, const char *path)
{
	_cleanup_free_ char *dir = strdup(path), *resolved = NULL, *joined = NULL;
	char *slash = dir ? strrchr(dir, '/') : NULL;
	int r;

	if (!dir) {
		errno = ENOMEM;
		return NULL;
	}
	if (reclaim_is_live(ctx) || !slash)
		return raw_path(ctx, path);
	*slash = '\0';
	r = chase(ctx, dir[0] ? dir : "/", true, &resolved);
	if (r < 0) {
		errno = -r;
		return NULL;
	}
	if (asprintf(&joined, "%s%s", strcmp(resolved, "/") == 0 ? "" : resolved,
		     path + (slash - dir)) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	return raw_path(ctx, joined);
}

int reclaim_path_error(struct reclaim_ctx *ctx, const char *path)
{
	int err = errno ? errno : ENOMEM;

	if (err == ENOMEM)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	return reclaim_error(ctx, err, "cannot resolve %s under %s: %s", path,
			     reclaim_get_sysroot(ctx), strerror(err));
}
