// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The swap entries of /etc/fstab, parsed by libmount, and the change of one
 * entry's pri= option.
 *
 * A change rewrites one line and nothing else: every other line, comment,
 * blank line and the spacing are kept byte for byte. libmount locates the
 * entry (the Nth line that its parser does not skip as blank or comment is
 * its Nth entry, and that line alone must parse to the same entry), edits
 * the options (mnt_optstr_set_option) and checks the new line by parsing it
 * again; when the options field cannot be replaced in place, the line is
 * written in libmount's own form (mnt_table_write_file). The file is
 * replaced atomically: a temporary file in the same directory with the old
 * file's mode and owner, fsync(), rename(), fsync() of the directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "swap-internal.h"

#define FSTAB "/etc/fstab"

struct reclaim_fstab {
	int refcount;
	struct reclaim_ctx *ctx;
	struct libmnt_table *tb;
	struct libmnt_fs **swaps;
	size_t count;
};

static void fstab_free(struct reclaim_fstab *f)
{
	for (size_t i = 0; i < f->count; i++)
		mnt_unref_fs(f->swaps[i]);
	free(f->swaps);
	mnt_unref_table(f->tb);
	reclaim_unref(f->ctx);
	free(f);
}

static int parse_fstab(struct reclaim_ctx *ctx, struct libmnt_table **ret)
{
	size_t bad;
	int r;

	r = reclaim_mnt_parse(ctx, FSTAB, ret, &bad);
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT)
		return reclaim_error(ctx, ENOENT, "there is no " FSTAB);
	if (bad)
		return reclaim_error(ctx, EINVAL, FSTAB ": line %zu is not a valid fstab entry",
				     bad);
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read " FSTAB ": %s",
				     reclaim_read_strerror(r));
	return 0;
}

static int collect_swaps(struct reclaim_fstab *f)
{
	_cleanup_mnt_iter_ struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;

	f->swaps = calloc((size_t)mnt_table_get_nents(f->tb) + 1, sizeof(*f->swaps));
	if (!itr || !f->swaps)
		return -ENOMEM;
	while (mnt_table_next_fs(f->tb, itr, &fs) == 0) {
		const char *type = mnt_fs_get_fstype(fs);

		if (type && strcmp(type, "swap") == 0) {
			mnt_ref_fs(fs);
			f->swaps[f->count++] = fs;
		}
	}
	return 0;
}

RECLAIM_EXPORT int reclaim_fstab_new(struct reclaim_ctx *ctx, struct reclaim_fstab **ret)
{
	struct reclaim_fstab *f;
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->refcount = 1;
	f->ctx = reclaim_ref(ctx);
	r = parse_fstab(ctx, &f->tb);
	if (r == 0 && collect_swaps(f) < 0)
		r = reclaim_error(ctx, ENOMEM, "out of memory");
	if (r < 0) {
		fstab_free(f);
		return r;
	}
	*ret = f;
	return 0;
}

RECLAIM_EXPORT struct reclaim_fstab *reclaim_fstab_ref(struct reclaim_fstab *f)
{
	if (f)
		f->refcount++;
	return f;
}

RECLAIM_EXPORT struct reclaim_fstab *reclaim_fstab_unref(struct reclaim_fstab *f)
{
	if (f && --f->refcount == 0)
		fstab_free(f);
	return NULL;
}

RECLAIM_EXPORT size_t reclaim_fstab_count(const struct reclaim_fstab *f)
{
	assert_return(f, 0);
	return f->count;
}

RECLAIM_EXPORT const char *reclaim_fstab_source(const struct reclaim_fstab *f, size_t idx)
{
	assert_return(f && idx < f->count, NULL);
	return mnt_fs_get_source(f->swaps[idx]);
}

RECLAIM_EXPORT const char *reclaim_fstab_options(const struct reclaim_fstab *f, size_t idx)
{
	assert_return(f && idx < f->count, NULL);
	return mnt_fs_get_options(f->swaps[idx]);
}

RECLAIM_EXPORT int reclaim_fstab_priority(const struct reclaim_fstab *f, size_t idx, int *prio)
{
	char *value = NULL, buf[16];
	size_t size = 0;
	int64_t v;

	assert_return(f && idx < f->count && prio, -EINVAL);
	if (mnt_fs_get_option(f->swaps[idx], "pri", &value, &size) != 0)
		return 0;
	if (!value || size == 0 || size >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, value, size);
	buf[size] = '\0';
	if (reclaim_parse_i64(buf, &v) < 0 || v < -1 || v > RECLAIM_SWAP_PRIORITY_MAX)
		return -EINVAL;
	*prio = (int)v;
	return 1;
}

RECLAIM_EXPORT enum reclaim_swap_discard reclaim_fstab_discard(const struct reclaim_fstab *f,
							       size_t idx)
{
	char *value = NULL;
	size_t size = 0;

	assert_return(f && idx < f->count, RECLAIM_SWAP_DISCARD_NONE);
	if (mnt_fs_get_option(f->swaps[idx], "discard", &value, &size) != 0)
		return RECLAIM_SWAP_DISCARD_NONE;
	/* As swapon(8): an unknown policy is a plain discard. */
	if (value && size == 4 && strncmp(value, "once", 4) == 0)
		return RECLAIM_SWAP_DISCARD_ONCE;
	if (value && size == 5 && strncmp(value, "pages", 5) == 0)
		return RECLAIM_SWAP_DISCARD_PAGES;
	return RECLAIM_SWAP_DISCARD_ALL;
}

/* The path an entry's source names: a tag becomes its /dev/disk/by-* link. */
static char *source_path(struct libmnt_fs *fs)
{
	const char *name, *value, *src;

	if (mnt_fs_get_tag(fs, &name, &value) == 0)
		return reclaim_tag_path(name, value);
	src = mnt_fs_get_srcpath(fs);
	return src ? strdup(src) : NULL;
}

RECLAIM_EXPORT ssize_t reclaim_fstab_find(const struct reclaim_fstab *f, const char *device)
{
	_cleanup_free_ char *want = NULL;

	assert_return(f && device, -EINVAL);
	want = reclaim_resolve_path(f->ctx, device);
	if (!want)
		return -ENOMEM;
	for (size_t i = 0; i < f->count; i++) {
		_cleanup_free_ char *src = source_path(f->swaps[i]), *have = NULL;

		if (!src)
			continue;
		if (strcmp(src, device) == 0)
			return (ssize_t)i;
		have = reclaim_resolve_path(f->ctx, src);
		if (have && strcmp(have, want) == 0)
			return (ssize_t)i;
	}
	return -ENOENT;
}

/* ---- changing pri= ---- */

struct line {
	size_t start, end; /* [start, end): the line without its newline */
};

static bool content_line(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < len && s[len - 1] == '\r')
		len--;
	return i < len && s[i] != '#';
}

/* The line of the @nth (from 0) entry: libmount skips blank and '#' lines, nothing else. */
static int find_line(const char *text, size_t len, size_t nth, struct line *ret)
{
	size_t pos = 0, seen = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		if (content_line(text + pos, end - pos) && seen++ == nth) {
			ret->start = pos;
			ret->end = end;
			return 0;
		}
		pos = end + 1;
	}
	return -ENOENT;
}

/* Parses one fstab line with libmount; NULL if it is not exactly one entry. */
static struct libmnt_fs *parse_line(const char *s, size_t len)
{
	_cleanup_mnt_table_ struct libmnt_table *tb = NULL;
	struct libmnt_fs *fs = NULL;

	if (reclaim_mnt_parse_text(s, len, FSTAB, &tb) < 0 || mnt_table_get_nents(tb) != 1 ||
	    mnt_table_first_fs(tb, &fs) != 0)
		return NULL;
	mnt_ref_fs(fs);
	return fs;
}

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Same entry, with @options instead of the options of @want (NULL: the same). */
static bool same_entry(struct libmnt_fs *got, struct libmnt_fs *want, const char *options)
{
	if (!got)
		return false;
	return str_eq(mnt_fs_get_source(got), mnt_fs_get_source(want)) &&
	       str_eq(mnt_fs_get_target(got), mnt_fs_get_target(want)) &&
	       str_eq(mnt_fs_get_fstype(got), mnt_fs_get_fstype(want)) &&
	       str_eq(mnt_fs_get_options(got), options ? options : mnt_fs_get_options(want)) &&
	       mnt_fs_get_freq(got) == mnt_fs_get_freq(want) &&
	       mnt_fs_get_passno(got) == mnt_fs_get_passno(want);
}

/* pri=@prio in @opts, or (@prio NULL) no pri=: "defaults" if nothing is left. */
static int set_pri(char **opts, const char *prio)
{
	if (prio)
		return mnt_optstr_set_option(opts, "pri", prio);
	if (mnt_optstr_remove_option(opts, "pri") < 0)
		return -1;
	if (!*opts || !**opts) {
		free(*opts);
		*opts = strdup("defaults");
	}
	return *opts ? 0 : -1;
}

/* The line with its fourth field (the options, as written) set to pri=@prio; NULL if none. */
static char *edit_in_place(const char *s, size_t len, const char *prio)
{
	size_t pos = 0, field = 0, start = 0, end = 0;
	_cleanup_free_ char *opts = NULL;
	char *out;

	while (pos < len && field < 4) {
		while (pos < len && (s[pos] == ' ' || s[pos] == '\t'))
			pos++;
		if (pos >= len)
			break;
		start = pos;
		while (pos < len && s[pos] != ' ' && s[pos] != '\t' && s[pos] != '\r')
			pos++;
		end = pos;
		field++;
	}
	if (field < 4)
		return NULL;
	opts = strndup(s + start, end - start);
	if (!opts || set_pri(&opts, prio) != 0)
		return NULL;
	if (asprintf(&out, "%.*s%s%.*s", (int)start, s, opts, (int)(len - end), s + end) < 0)
		return NULL;
	return out;
}

/* The entry as libmount writes it, without its newline. */
static char *canonical_line(struct libmnt_fs *fs, const char *options)
{
	_cleanup_mnt_table_ struct libmnt_table *tb = mnt_new_table();
	struct libmnt_fs *copy = mnt_copy_fs(NULL, fs);
	char *buf = NULL;
	size_t size = 0;
	FILE *f;
	int r = -ENOMEM;

	if (!tb || !copy)
		goto out;
	mnt_fs_set_comment(copy, NULL);
	if (mnt_fs_set_options(copy, options) != 0 || mnt_table_add_fs(tb, copy) != 0)
		goto out;
	f = open_memstream(&buf, &size);
	if (!f)
		goto out;
	r = mnt_table_write_file(tb, f);
	if (fclose(f) != 0 && r == 0)
		r = -EIO;
out:
	mnt_unref_fs(copy);
	if (r != 0) {
		free(buf);
		return NULL;
	}
	if (size > 0 && buf[size - 1] == '\n')
		buf[size - 1] = '\0';
	return buf;
}

/* The new line for @fs with @options (pri= set to @prio). */
static char *new_line(const char *s, size_t len, struct libmnt_fs *fs, const char *options,
		      const char *prio)
{
	char *line = edit_in_place(s, len, prio);
	struct libmnt_fs *check;
	bool ok;

	if (line) {
		check = parse_line(line, strlen(line));
		ok = same_entry(check, fs, options);
		mnt_unref_fs(check);
		if (ok)
			return line;
		free(line);
	}
	return canonical_line(fs, options);
}

/* The position of @fs among all the table's entries. */
static ssize_t entry_index(struct libmnt_table *tb, struct libmnt_fs *fs)
{
	_cleanup_mnt_iter_ struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *x;
	ssize_t n = 0;

	if (!itr)
		return -ENOMEM;
	while (mnt_table_next_fs(tb, itr, &x) == 0) {
		if (x == fs)
			return n;
		n++;
	}
	return -ENOENT;
}

/* The text of the file with the entry's line replaced; the new options in @options. */
/*
 * An odd number of '"' in the options: libmount would take pri= as part of
 * the quoted value, the check after the write would read it the same way,
 * and the priority would never take effect.
 */
static bool unbalanced_quote(const char *options)
{
	size_t n = 0;

	for (const char *p = options; p && *p; p++)
		n += *p == '"';
	return n % 2 != 0;
}

static size_t line_number(const char *text, size_t pos)
{
	size_t n = 1;

	for (size_t i = 0; i < pos; i++)
		n += text[i] == '\n';
	return n;
}

static int edit_text(struct reclaim_fstab *f, struct libmnt_fs *fs, int prio, char **ret,
		     size_t *ret_len, char **options)
{
	_cleanup_free_ char *text = NULL, *line = NULL;
	struct libmnt_fs *check;
	struct line where;
	char num[16];
	size_t len;
	ssize_t nth;
	bool same;
	int r;

	r = reclaim_read_file(f->ctx, FSTAB, &text, &len);
	if (r < 0)
		return reclaim_error(f->ctx, -r, "cannot read " FSTAB ": %s",
				     reclaim_read_strerror(r));
	nth = entry_index(f->tb, fs);
	if (nth < 0 || find_line(text, len, (size_t)nth, &where) < 0)
		return reclaim_error(f->ctx, ESTALE, FSTAB " changed since it was read");
	check = parse_line(text + where.start, where.end - where.start);
	same = same_entry(check, fs, NULL);
	mnt_unref_fs(check);
	if (!same)
		return reclaim_error(f->ctx, ESTALE, FSTAB " changed since it was read");
	if (unbalanced_quote(mnt_fs_get_options(fs)))
		return reclaim_error(f->ctx, EINVAL,
				     FSTAB ": line %zu: unbalanced quote in the options; nothing "
					   "changed",
				     line_number(text, where.start));
	snprintf(num, sizeof(num), "%d", prio);
	*options = mnt_fs_get_options(fs) ? strdup(mnt_fs_get_options(fs)) : NULL;
	if ((mnt_fs_get_options(fs) && !*options) || set_pri(options, prio < 0 ? NULL : num) != 0 ||
	    !(line = new_line(text + where.start, where.end - where.start, fs, *options,
			      prio < 0 ? NULL : num)))
		return reclaim_error(f->ctx, ENOMEM, "out of memory");
	*ret_len = where.start + strlen(line) + (len - where.end);
	*ret = malloc(*ret_len + 1);
	if (!*ret)
		return reclaim_error(f->ctx, ENOMEM, "out of memory");
	memcpy(*ret, text, where.start);
	memcpy(*ret + where.start, line, strlen(line));
	memcpy(*ret + where.start + strlen(line), text + where.end, len - where.end);
	(*ret)[*ret_len] = '\0';
	return 0;
}

RECLAIM_EXPORT int reclaim_fstab_set_priority(struct reclaim_fstab *f, size_t idx, int prio)
{
	assert_return(f && idx < f->count, -EINVAL);
	if (prio < 0 || prio > RECLAIM_SWAP_PRIORITY_MAX)
		return reclaim_error(f->ctx, ERANGE, "invalid priority %d: expected 0 to %d", prio,
				     RECLAIM_SWAP_PRIORITY_MAX);
	return reclaim_fstab_put_priority(f, idx, prio);
}

int reclaim_fstab_put_priority(struct reclaim_fstab *f, size_t idx, int prio)
{
	_cleanup_free_ char *text = NULL, *options = NULL, *name = NULL;
	_cleanup_close_ int dirfd = -1;
	struct libmnt_fs *fs;
	size_t len = 0;
	int r;

	fs = f->swaps[idx];
	r = edit_text(f, fs, prio, &text, &len, &options);
	if (r < 0)
		return r;
	r = reclaim_open_parent(f->ctx, FSTAB, &dirfd, &name);
	if (r == 0)
		r = reclaim_replace_file(dirfd, name, text, len, 0644);
	else if (r != -ENOENT)
		return r;
	if (r == -EINVAL)
		return reclaim_error(f->ctx, EINVAL,
				     "cannot update " FSTAB ": not a regular file (a link?)");
	if (r < 0)
		return reclaim_error(f->ctx, -r, "cannot update " FSTAB ": %s", strerror(-r));
	/* The object now describes the file as written. */
	if (mnt_fs_set_options(fs, options) != 0)
		return -ENOMEM;
	return 0;
}
