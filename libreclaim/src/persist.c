// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The persisted knob values: the sysctls' in /etc/sysctl.d/90-reclaimctl.conf,
 * which systemd-sysctl applies at boot, the knobs of sysfs' in
 * /etc/tmpfiles.d/90-reclaimctl.conf, which systemd-tmpfiles-setup.service
 * writes at boot ('w' lines). reclaimctl owns each file whole: a header
 * saying so, then one line per knob in the order of the knob table
 * ("SYSCTL = VALUE", "w PATH - - - - VALUE"). A file with any other line is
 * someone else's and is never rewritten or removed. A file is replaced
 * atomically: a temporary file in the same directory (hidden, and not named
 * *.conf, so that nothing reads it if it is left behind by a crash),
 * fsync(), rename(), fsync() of the directory; a change of both files puts
 * the first back when the second cannot be written.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysctl-internal.h"

struct persist_file {
	const char *path, *dir;
	bool sysfs; /* the knobs of sysfs (tmpfiles.d), else the sysctls (sysctl.d) */
	const char *header[3];
};

static const struct persist_file persist_files[] = {
    {RECLAIM_PERSIST_FILE,
     "/etc/sysctl.d",
     false,
     {"# This file is written by reclaimctl(8): knob values made persistent with --persist.",
      "# systemd-sysctl applies it at boot. Do not edit it; to undo, run:",
      "#   reclaimctl restore --persist"}},
    {RECLAIM_PERSIST_TMPFILES,
     "/etc/tmpfiles.d",
     true,
     {"# This file is written by reclaimctl(8): knob values of sysfs made persistent with "
      "--persist.",
      "# systemd-tmpfiles applies it at boot. Do not edit it; to undo, run:",
      "#   reclaimctl restore --persist"}},
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

static bool is_header(const struct persist_file *f, const char *s, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(f->header); i++)
		if (strlen(f->header[i]) == len && memcmp(f->header[i], s, len) == 0)
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

static const struct persist_file *file_of(const struct reclaim_knob *k)
{
	return &persist_files[reclaim_knob_sysctl(k) ? 0 : 1];
}

/* A line of the sysctl file: the knob and its value, or why it is not reclaimctl's. */
static const char *sysctl_line(const char *p, size_t len, const struct reclaim_knob **k, int64_t *v,
			       int *err)
{
	struct sysctl_line l;
	const char *why = NULL;

	*err = reclaim_sysctl_parse_line(p, len, &l);
	if (*err < 0)
		return NULL;
	if (l.kind != SYSCTL_LINE_ASSIGN || l.ignore_failure)
		why = "not a plain assignment";
	else if (!(*k = reclaim_sysctl_knob_by_path(l.path)))
		why = "not one of reclaimctl's knobs";
	else if (reclaim_knob_parse_written(*k, l.value, v) < 0)
		why = "a value out of the knob's range";
	reclaim_sysctl_line_clear(&l);
	return why;
}

/* A line of the tmpfiles file: "w PATH - - - - VALUE" of a knob of sysfs. */
static const char *tmpfiles_line(const char *p, size_t len, const struct reclaim_knob **k,
				 int64_t *v, int *err)
{
	struct tmpfiles_line l;
	const char *why = NULL;

	*k = NULL;
	*err = reclaim_tmpfiles_parse_line(p, len, &l);
	if (*err < 0)
		return NULL;
	if (l.problem || strcmp(l.type, "w") != 0 || reclaim_tmpfiles_is_glob(l.path))
		why = "not a plain 'w' line";
	for (size_t i = 0; !why && !*k && i < reclaim_knob_count(); i++)
		if (reclaim_tmpfiles_matches(&l, reclaim_knob_get(i)))
			*k = reclaim_knob_get(i);
	if (!why && !*k)
		why = "not one of reclaimctl's knobs";
	else if (!why && reclaim_knob_parse_written(*k, l.argument, v) < 0)
		why = "a value out of the knob's range";
	reclaim_tmpfiles_line_clear(&l);
	return why;
}

/*
 * Parses the text of @f into @values (indexed like the knob table, @set
 * says which are there); -EBADMSG with the line in the message.
 */
static int parse_persisted(struct reclaim_ctx *ctx, const struct persist_file *f, const char *text,
			   int64_t *values, bool *set)
{
	unsigned int lineno = 0;
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n"), trimmed = len, lead = 0;
		const struct reclaim_knob *k = NULL;
		const char *why = NULL;
		int64_t v = 0;
		int err = 0;

		lineno++;
		while (trimmed > 0 && strchr(" \t\r", p[trimmed - 1]))
			trimmed--;
		while (lead < trimmed && strchr(" \t", p[lead]))
			lead++;
		if (lead == trimmed || is_header(f, p, trimmed)) {
			p += len + (p[len] == '\n');
			continue;
		}
		if (p[lead] == '#' || p[lead] == ';')
			why = "a comment reclaimctl did not write";
		else
			why = (f->sysfs ? tmpfiles_line : sysctl_line)(p, len, &k, &v, &err);
		if (err < 0)
			return reclaim_error(ctx, ENOMEM, "out of memory");
		if (!why && set[knob_index(k)])
			why = "a second value of the knob";
		if (why)
			return reclaim_error(ctx, EBADMSG, "%s is not reclaimctl's: line %u is %s",
					     f->path, lineno, why);
		values[knob_index(k)] = v;
		set[knob_index(k)] = true;
		p += len + (p[len] == '\n');
	}
	return 0;
}

/*
 * Reads @f into @values/@set; *exists false (and nothing set) without it. A
 * link or anything but a regular file is not reclaimctl's. With @keep, its
 * text (NULL without it) goes there, to free().
 */
static int read_one(struct reclaim_ctx *ctx, const struct persist_file *f, int64_t *values,
		    bool *set, bool *exists, char **keep)
{
	_cleanup_free_ char *name = NULL, *text = NULL;
	_cleanup_close_ int dirfd = -1;
	struct stat st;
	int r;

	*exists = false;
	r = reclaim_open_parent(ctx, f->path, &dirfd, &name);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return reclaim_error(ctx, errno, "cannot read %s: %s", f->path, strerror(errno));
	}
	if (S_ISLNK(st.st_mode))
		return reclaim_error(ctx, EBADMSG, "%s is not reclaimctl's: it is a link", f->path);
	if (!S_ISREG(st.st_mode))
		return reclaim_error(ctx, EBADMSG, "%s is not reclaimctl's: not a regular file",
				     f->path);
	r = reclaim_read_file(ctx, f->path, &text, NULL);
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read %s: %s", f->path,
				     reclaim_read_strerror(r));
	*exists = true;
	r = parse_persisted(ctx, f, text, values, set);
	if (r == 0 && keep) {
		*keep = text;
		text = NULL;
	}
	return r;
}

/*
 * Both files; exists[i] says whether persist_files[i] is there. With @texts,
 * texts[i] is its text (NULL: absent), to free() on success and failure.
 */
static int read_persisted(struct reclaim_ctx *ctx, int64_t *values, bool *set, bool *exists,
			  char **texts)
{
	int r = 0;

	for (size_t i = 0; i < ARRAY_SIZE(persist_files) && r == 0; i++)
		r = read_one(ctx, &persist_files[i], values, set, &exists[i],
			     texts ? &texts[i] : NULL);
	return r;
}

RECLAIM_EXPORT int reclaim_persist_read(struct reclaim_ctx *ctx, struct reclaim_persist **ret)
{
	size_t n = reclaim_knob_count();
	_cleanup_free_ int64_t *values = calloc(n, sizeof(*values));
	_cleanup_free_ bool *set = calloc(n, sizeof(*set));
	struct reclaim_persist *p;
	bool exists[ARRAY_SIZE(persist_files)];
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	if (!values || !set)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	r = read_persisted(ctx, values, set, exists, NULL);
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

/* The text of @f with the values @set of its knobs; NULL on ENOMEM. */
static char *format_file(const struct persist_file *f, const int64_t *values, const bool *set)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	if (!out)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(f->header); i++)
		fprintf(out, "%s\n", f->header[i]);
	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		char v[RECLAIM_KNOB_TEXT_MAX];

		if (!set[i] || file_of(k) != f)
			continue;
		reclaim_knob_format(k, values[i], v, sizeof(v));
		if (f->sysfs)
			fprintf(out, "w %s - - - - %s\n", reclaim_knob_path(k), v);
		else
			fprintf(out, "%s = %s\n", reclaim_knob_sysctl(k), v);
	}
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* Replaces @f by @text (NULL: removes it). */
static int put_file(struct reclaim_ctx *ctx, const struct persist_file *f, const char *text)
{
	_cleanup_free_ char *dir = NULL;
	_cleanup_close_ int dirfd = -1;
	const char *name = strrchr(f->path, '/') + 1;
	int r;

	r = reclaim_chase(ctx, f->dir, RECLAIM_CHASE_MISSING, &dir);
	if (r < 0)
		return reclaim_path_error(ctx, f->dir, r);
	dirfd = reclaim_mkdir_p(ctx, dir, 0755, 0755);
	if (dirfd < 0)
		return reclaim_error(ctx, -dirfd, "cannot create %s: %s", f->dir, strerror(-dirfd));
	r = text ? reclaim_replace_file(dirfd, name, text, strlen(text), 0644)
		 : reclaim_unlink_synced(dirfd, name);
	if (r < 0 && !(r == -ENOENT && !text))
		return reclaim_error(ctx, -r, "cannot %s %s: %s", text ? "write" : "remove",
				     f->path, strerror(-r));
	return 0;
}

/*
 * Writes @texts[i] to persist_files[i] where @change[i] (NULL: removes
 * it); if one fails, those already written get their @old text back.
 */
static int put_files(struct reclaim_ctx *ctx, char *const *texts, const bool *change,
		     char *const *old)
{
	char detail[512];
	int r = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(persist_files) && r == 0; i++)
		if (change[i])
			r = put_file(ctx, &persist_files[i], texts[i]);
	if (r == 0)
		return 0;
	snprintf(detail, sizeof(detail), "%s", reclaim_strerror(ctx));
	for (size_t j = 0; j + 1 < i; j++)
		if (change[j])
			(void)put_file(ctx, &persist_files[j], old[j]);
	return reclaim_error(ctx, -r, "%s; the other file is as it was", detail);
}

static void free_texts(char **texts)
{
	for (size_t i = 0; i < ARRAY_SIZE(persist_files); i++)
		free(texts[i]);
}

/*
 * The texts reclaim_persist_write(@knobs, @values) writes: @after[i] that of
 * persist_files[i] (NULL: not written), @old[i] its text now (NULL: absent).
 * With @differs: whether a knob of @knobs is not persisted with its value.
 * @write: for reclaim_persist_write(), whose error says nothing was written
 * (a preview's is its evaluation's, word for word).
 */
static int persist_texts(struct reclaim_ctx *ctx, const struct reclaim_knob *const *knobs,
			 const int64_t *values, size_t n, char **old, char **after, bool *differs,
			 bool write)
{
	size_t nk = reclaim_knob_count();
	_cleanup_free_ int64_t *merged = calloc(nk, sizeof(*merged));
	_cleanup_free_ bool *set = calloc(nk, sizeof(*set));
	bool exists[ARRAY_SIZE(persist_files)], change[ARRAY_SIZE(persist_files)] = {0};
	char detail[512];
	int r;

	assert_return(ctx && (n == 0 || (knobs && values)), -EINVAL);
	if (!merged || !set)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		assert_return(knobs[i] && knob_index(knobs[i]) < nk, -EINVAL);
		r = reclaim_knob_check(ctx, knobs[i], values[i]);
		if (r < 0)
			return r;
	}
	r = read_persisted(ctx, merged, set, exists, old);
	if (r < 0 && !write)
		return r;
	if (r < 0) {
		snprintf(detail, sizeof(detail), "%s", reclaim_strerror(ctx));
		return reclaim_error(ctx, -r, "%s; nothing written", detail);
	}
	for (size_t i = 0; i < n; i++) {
		size_t k = knob_index(knobs[i]);

		if (differs && (!set[k] || merged[k] != values[i]))
			*differs = true;
		merged[k] = values[i];
		set[k] = true;
		change[file_of(knobs[i]) - persist_files] = true;
	}
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(persist_files); i++)
		if (change[i] && !(after[i] = format_file(&persist_files[i], merged, set)))
			r = reclaim_error(ctx, ENOMEM, "out of memory");
	return r;
}

int reclaim_persist_preview(struct reclaim_ctx *ctx, const struct reclaim_knob *const *knobs,
			    const int64_t *values, size_t n, char **before, char **after,
			    bool *differs)
{
	int r;

	if (differs)
		*differs = false;
	r = persist_texts(ctx, knobs, values, n, before, after, differs, false);

	if (r < 0) {
		free_texts(before);
		free_texts(after);
	}
	return r;
}

const char *reclaim_persist_file_path(size_t idx)
{
	return idx < ARRAY_SIZE(persist_files) ? persist_files[idx].path : NULL;
}

RECLAIM_EXPORT int reclaim_persist_write(struct reclaim_ctx *ctx,
					 const struct reclaim_knob *const *knobs,
					 const int64_t *values, size_t n)
{
	char *texts[ARRAY_SIZE(persist_files)] = {0}, *old[ARRAY_SIZE(persist_files)] = {0};
	bool change[ARRAY_SIZE(persist_files)];
	int r;

	assert_return(ctx && (n == 0 || (knobs && values)), -EINVAL);
	reclaim_error_reset(ctx);
	r = persist_texts(ctx, knobs, values, n, old, texts, NULL, true);
	for (size_t i = 0; i < ARRAY_SIZE(persist_files); i++)
		change[i] = texts[i] != NULL;
	if (r == 0)
		r = put_files(ctx, texts, change, old);
	free_texts(texts);
	free_texts(old);
	return r;
}

RECLAIM_EXPORT int reclaim_persist_remove(struct reclaim_ctx *ctx)
{
	size_t nk = reclaim_knob_count();
	_cleanup_free_ int64_t *values = calloc(nk, sizeof(*values));
	_cleanup_free_ bool *set = calloc(nk, sizeof(*set));
	char *none[ARRAY_SIZE(persist_files)] = {0}, *old[ARRAY_SIZE(persist_files)] = {0};
	bool exists[ARRAY_SIZE(persist_files)];
	char detail[512];
	int r;

	assert_return(ctx, -EINVAL);
	reclaim_error_reset(ctx);
	if (!values || !set)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	r = read_persisted(ctx, values, set, exists, old);
	if (r < 0) {
		free_texts(old);
		snprintf(detail, sizeof(detail), "%s", reclaim_strerror(ctx));
		return reclaim_error(ctx, -r, "%s; not removed", detail);
	}
	if (!exists[0] && !exists[1])
		return reclaim_error(ctx, ENOENT,
				     "nothing is persisted: there is no " RECLAIM_PERSIST_FILE
				     " nor " RECLAIM_PERSIST_TMPFILES);
	r = put_files(ctx, none, exists, old);
	free_texts(old);
	return r;
}
