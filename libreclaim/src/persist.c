// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The persisted knob values: /etc/sysctl.d/90-reclaimctl.conf, which
 * systemd-sysctl applies at boot. reclaimctl owns the file whole: a header
 * saying so, then one "SYSCTL = VALUE" line per knob in the order of the
 * knob table. A file with any other line is someone else's and is never
 * rewritten or removed. The file is replaced atomically: a temporary file
 * in the same directory (hidden, and not named *.conf, so that nothing reads
 * it if it is left behind by a crash), fsync(), rename(), fsync() of the
 * directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysctl-internal.h"

/* RECLAIM_PERSIST_FILE is PERSIST_DIR/PERSIST_NAME */
#define PERSIST_DIR  "/etc/sysctl.d"
#define PERSIST_NAME (strrchr(RECLAIM_PERSIST_FILE, '/') + 1)

static const char *const header[] = {
    "# This file is written by reclaimctl(8): knob values made persistent with --persist.",
    "# systemd-sysctl applies it at boot. Do not edit it; to undo, run:",
    "#   reclaimctl restore --persist",
};

struct persist_value {
	const struct reclaim_knob *knob;
	int64_t value;
};

struct reclaim_persist {
	int refcount;
	struct reclaim_ctx *ctx;
	struct persist_value *values;
	size_t count;
};

static bool is_header(const char *s, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(header); i++)
		if (strlen(header[i]) == len && memcmp(header[i], s, len) == 0)
			return true;
	return false;
}

static size_t knob_index(const struct reclaim_knob *k)
{
	size_t i = 0;

	while (i < reclaim_knob_count() && reclaim_knob_get(i) != k)
		i++;
	return i;
}

/*
 * Parses the file's text into @values (indexed like the knob table, @set
 * says which are there); -EBADMSG with the line in the message.
 */
static int parse_persisted(struct reclaim_ctx *ctx, const char *text, int64_t *values, bool *set)
{
	unsigned int lineno = 0;
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n"), trimmed = len, lead = 0;
		const struct reclaim_knob *k = NULL;
		const char *why = NULL;
		struct sysctl_line l;
		int64_t v = 0;
		int r;

		lineno++;
		while (trimmed > 0 && strchr(" \t\r", p[trimmed - 1]))
			trimmed--;
		while (lead < trimmed && strchr(" \t", p[lead]))
			lead++;
		if (is_header(p, trimmed)) {
			p += len + (p[len] == '\n');
			continue;
		}
		r = reclaim_sysctl_parse_line(p, len, &l);
		if (r < 0)
			return reclaim_error(ctx, ENOMEM, "out of memory");
		if (l.kind == SYSCTL_LINE_BLANK)
			why = lead < trimmed ? "a comment reclaimctl did not write" : NULL;
		else if (l.kind != SYSCTL_LINE_ASSIGN || l.ignore_failure)
			why = "not a plain assignment";
		else if (!(k = reclaim_sysctl_knob_by_path(l.path)))
			why = "not one of reclaimctl's knobs";
		else if (set[knob_index(k)])
			why = "a second value of the knob";
		else if (reclaim_parse_i64(l.value, &v) < 0 || v < reclaim_knob_min(k) ||
			 v > reclaim_knob_max(k))
			why = "a value out of the knob's range";
		if (!why && k) {
			values[knob_index(k)] = v;
			set[knob_index(k)] = true;
		}
		reclaim_sysctl_line_clear(&l);
		if (why)
			return reclaim_error(ctx, EBADMSG,
					     RECLAIM_PERSIST_FILE
					     " is not reclaimctl's: line %u is %s",
					     lineno, why);
		p += len + (p[len] == '\n');
	}
	return 0;
}

/*
 * Reads the file into @values/@set; *exists false (and nothing set) without
 * one. A link or anything but a regular file is not reclaimctl's.
 */
static int read_persisted(struct reclaim_ctx *ctx, int64_t *values, bool *set, bool *exists)
{
	_cleanup_free_ char *name = NULL, *text = NULL;
	_cleanup_close_ int dirfd = -1;
	struct stat st;
	int r;

	*exists = false;
	r = reclaim_open_parent(ctx, RECLAIM_PERSIST_FILE, &dirfd, &name);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return reclaim_error(ctx, errno, "cannot read " RECLAIM_PERSIST_FILE ": %s",
				     strerror(errno));
	}
	if (S_ISLNK(st.st_mode))
		return reclaim_error(ctx, EBADMSG,
				     RECLAIM_PERSIST_FILE " is not reclaimctl's: it is a link");
	if (!S_ISREG(st.st_mode))
		return reclaim_error(
		    ctx, EBADMSG, RECLAIM_PERSIST_FILE " is not reclaimctl's: not a regular file");
	r = reclaim_read_file(ctx, RECLAIM_PERSIST_FILE, &text, NULL);
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read " RECLAIM_PERSIST_FILE ": %s",
				     reclaim_read_strerror(r));
	*exists = true;
	return parse_persisted(ctx, text, values, set);
}

RECLAIM_EXPORT int reclaim_persist_read(struct reclaim_ctx *ctx, struct reclaim_persist **ret)
{
	size_t n = reclaim_knob_count();
	_cleanup_free_ int64_t *values = calloc(n, sizeof(*values));
	_cleanup_free_ bool *set = calloc(n, sizeof(*set));
	struct reclaim_persist *p;
	bool exists;
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	if (!values || !set)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	r = read_persisted(ctx, values, set, &exists);
	if (r < 0)
		return r;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->values = calloc(n, sizeof(*p->values)))) {
		free(p);
		return reclaim_error(ctx, ENOMEM, "out of memory");
	}
	p->refcount = 1;
	p->ctx = reclaim_ref(ctx);
	for (size_t i = 0; i < n; i++)
		if (set[i])
			p->values[p->count++] =
			    (struct persist_value){.knob = reclaim_knob_get(i), .value = values[i]};
	*ret = p;
	return 0;
}

RECLAIM_EXPORT struct reclaim_persist *reclaim_persist_ref(struct reclaim_persist *p)
{
	if (p)
		p->refcount++;
	return p;
}

RECLAIM_EXPORT struct reclaim_persist *reclaim_persist_unref(struct reclaim_persist *p)
{
	if (p && --p->refcount == 0) {
		reclaim_unref(p->ctx);
		free(p->values);
		free(p);
	}
	return NULL;
}

RECLAIM_EXPORT size_t reclaim_persist_count(const struct reclaim_persist *p)
{
	assert_return(p, 0);
	return p->count;
}

RECLAIM_EXPORT const struct reclaim_knob *reclaim_persist_knob(const struct reclaim_persist *p,
							       size_t idx)
{
	assert_return(p && idx < p->count, NULL);
	return p->values[idx].knob;
}

RECLAIM_EXPORT int64_t reclaim_persist_value(const struct reclaim_persist *p, size_t idx)
{
	assert_return(p && idx < p->count, 0);
	return p->values[idx].value;
}

RECLAIM_EXPORT ssize_t reclaim_persist_find(const struct reclaim_persist *p,
					    const struct reclaim_knob *knob)
{
	assert_return(p && knob, -1);
	for (size_t i = 0; i < p->count; i++)
		if (p->values[i].knob == knob)
			return (ssize_t)i;
	return -1;
}

static char *format_file(const int64_t *values, const bool *set)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(header); i++)
		fprintf(f, "%s\n", header[i]);
	for (size_t i = 0; i < reclaim_knob_count(); i++)
		if (set[i])
			fprintf(f, "%s = %" PRId64 "\n", reclaim_knob_sysctl(reclaim_knob_get(i)),
				values[i]);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

RECLAIM_EXPORT int reclaim_persist_write(struct reclaim_ctx *ctx,
					 const struct reclaim_knob *const *knobs,
					 const int64_t *values, size_t n)
{
	size_t nk = reclaim_knob_count();
	_cleanup_free_ int64_t *merged = calloc(nk, sizeof(*merged));
	_cleanup_free_ bool *set = calloc(nk, sizeof(*set));
	_cleanup_free_ char *text = NULL, *dir = NULL;
	_cleanup_close_ int dirfd = -1;
	char detail[512];
	bool exists;
	int r;

	assert_return(ctx && (n == 0 || (knobs && values)), -EINVAL);
	reclaim_error_reset(ctx);
	if (!merged || !set)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		assert_return(knobs[i] && knob_index(knobs[i]) < nk, -EINVAL);
		r = reclaim_knob_check(ctx, knobs[i], values[i]);
		if (r < 0)
			return r;
	}
	r = read_persisted(ctx, merged, set, &exists);
	if (r < 0) {
		snprintf(detail, sizeof(detail), "%s", reclaim_strerror(ctx));
		return reclaim_error(ctx, -r, "%s; nothing written", detail);
	}
	for (size_t i = 0; i < n; i++) {
		merged[knob_index(knobs[i])] = values[i];
		set[knob_index(knobs[i])] = true;
	}
	text = format_file(merged, set);
	if (!text)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	r = reclaim_chase(ctx, PERSIST_DIR, RECLAIM_CHASE_MISSING, &dir);
	if (r < 0)
		return reclaim_path_error(ctx, PERSIST_DIR, r);
	dirfd = reclaim_mkdir_p(ctx, dir, 0755, 0755);
	if (dirfd < 0)
		return reclaim_error(ctx, -dirfd, "cannot create " PERSIST_DIR ": %s",
				     strerror(-dirfd));
	r = reclaim_replace_file(dirfd, PERSIST_NAME, text, strlen(text), 0644);
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot write " RECLAIM_PERSIST_FILE ": %s",
				     strerror(-r));
	return 0;
}

RECLAIM_EXPORT int reclaim_persist_remove(struct reclaim_ctx *ctx)
{
	size_t nk = reclaim_knob_count();
	_cleanup_free_ int64_t *values = calloc(nk, sizeof(*values));
	_cleanup_free_ bool *set = calloc(nk, sizeof(*set));
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int dirfd = -1;
	char detail[512];
	bool exists;
	int r;

	assert_return(ctx, -EINVAL);
	reclaim_error_reset(ctx);
	if (!values || !set)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	r = read_persisted(ctx, values, set, &exists);
	if (r < 0) {
		snprintf(detail, sizeof(detail), "%s", reclaim_strerror(ctx));
		return reclaim_error(ctx, -r, "%s; not removed", detail);
	}
	if (!exists)
		return reclaim_error(ctx, ENOENT,
				     "nothing is persisted: there is no " RECLAIM_PERSIST_FILE);
	r = reclaim_open_parent(ctx, RECLAIM_PERSIST_FILE, &dirfd, &name);
	if (r == 0)
		r = reclaim_unlink_synced(dirfd, name);
	else if (r != -ENOENT)
		return r;
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot remove " RECLAIM_PERSIST_FILE ": %s",
				     strerror(-r));
	return 0;
}
