// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "internal.h"

#ifndef RECLAIM_VERSION
#error "RECLAIM_VERSION must be defined (the build system does)"
#endif

#define ERROR_SIZE 512

struct reclaim_ctx {
	int refcount;
	char *sysroot; /* "" for the live system, never with a trailing '/' */
	int rootfd;    /* the root's descriptor (O_PATH), or -errno: see chase.c */
	char *release;
	bool release_read;
	char error[ERROR_SIZE];
};

RECLAIM_EXPORT const char *reclaim_version(void)
{
	return RECLAIM_VERSION;
}

RECLAIM_EXPORT int reclaim_new(struct reclaim_ctx **ret, const char *sysroot)
{
	struct reclaim_ctx *ctx;
	char *canonical;
	size_t len;

	assert_return(ret, -EINVAL);

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->refcount = 1;
	if (!sysroot)
		sysroot = "";
	/* One spelling of the root: "/." or a link to "/" is the live system too. */
	canonical = sysroot[0] ? realpath(sysroot, NULL) : NULL;
	if (canonical)
		sysroot = canonical;
	len = strlen(sysroot);
	while (len > 0 && sysroot[len - 1] == '/')
		len--;
	ctx->sysroot = strndup(sysroot, len);
	free(canonical);
	if (!ctx->sysroot) {
		free(ctx);
		return -ENOMEM;
	}
	/*
	 * Every file under the root is opened from this descriptor. A root that
	 * cannot be opened is no error here: each use of it fails with the reason.
	 */
	ctx->rootfd = open(ctx->sysroot[0] ? ctx->sysroot : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (ctx->rootfd < 0)
		ctx->rootfd = -errno;
	*ret = ctx;
	return 0;
}

RECLAIM_EXPORT struct reclaim_ctx *reclaim_ref(struct reclaim_ctx *ctx)
{
	if (ctx)
		ctx->refcount++;
	return ctx;
}

RECLAIM_EXPORT struct reclaim_ctx *reclaim_unref(struct reclaim_ctx *ctx)
{
	if (!ctx || --ctx->refcount > 0)
		return NULL;
	if (ctx->rootfd >= 0)
		close(ctx->rootfd);
	free(ctx->sysroot);
	free(ctx->release);
	free(ctx);
	return NULL;
}

RECLAIM_EXPORT const char *reclaim_get_sysroot(const struct reclaim_ctx *ctx)
{
	assert_return(ctx, NULL);
	return ctx->sysroot[0] ? ctx->sysroot : "/";
}

int reclaim_root_fd(const struct reclaim_ctx *ctx)
{
	return ctx->rootfd;
}

RECLAIM_EXPORT const char *reclaim_strerror(const struct reclaim_ctx *ctx)
{
	assert_return(ctx, "invalid context");
	return ctx->error[0] ? ctx->error : "no error";
}

void reclaim_error_reset(struct reclaim_ctx *ctx)
{
	ctx->error[0] = '\0';
}

RECLAIM_EXPORT const char *reclaim_kernel_release(struct reclaim_ctx *ctx)
{
	assert_return(ctx, NULL);
	if (!ctx->release_read) {
		ctx->release_read = true;
		if (reclaim_read_line(ctx, "/proc/sys/kernel/osrelease", &ctx->release) < 0)
			ctx->release = NULL;
	}
	return ctx->release;
}

/*
 * A message is one line of text: a control character in it came from a
 * file or an argument (a value with a newline, an escape sequence) and is
 * written as \ooo, as the kernel escapes them, so that it can neither
 * break the line nor drive the terminal. Cut at the buffer's end.
 */
static void escape_controls(char *msg, size_t size)
{
	char out[ERROR_SIZE];
	size_t o = 0;

	for (const char *p = msg; *p; p++) {
		unsigned char c = (unsigned char)*p;
		bool control = c < 0x20 || c == 0x7f;

		if (o + (control ? 4 : 1) >= size)
			break;
		if (control)
			o += (size_t)snprintf(out + o, sizeof(out) - o, "\\%03o", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
	memcpy(msg, out, o + 1);
}

int reclaim_error(struct reclaim_ctx *ctx, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->error, sizeof(ctx->error), fmt, ap);
	va_end(ap);
	escape_controls(ctx->error, sizeof(ctx->error));
	return -err;
}

RECLAIM_EXPORT bool reclaim_is_live(const struct reclaim_ctx *ctx)
{
	assert_return(ctx, false);
	return ctx->sysroot[0] == '\0';
}
