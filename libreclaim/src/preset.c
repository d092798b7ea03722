// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Presets: named sets of knob values, one "KNOB = VALUE" a line (see
 * reclaimctl.preset(5)). An administrator's NAME.preset in
 * /etc/reclaimctl/presets, under the context's root, takes the place of the
 * shipped preset of that name. The shipped ones are the tool's own data, in
 * RECLAIM_PRESET_DIR (or $RECLAIMCTL_PRESET_DIR), never under the root.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#ifndef RECLAIM_PRESET_DIR
#error "RECLAIM_PRESET_DIR must be defined (the build system does)"
#endif

#define ADMIN_DIR  RECLAIM_ADMIN_PRESET_DIR
#define SUFFIX	   ".preset"
#define SUFFIX_LEN (sizeof(SUFFIX) - 1)
/* Far more than any preset needs; a larger file is not a preset. */
#define PRESET_MAX_SIZE 65536
#define NAME_MAX_CHARS	248
_Static_assert(NAME_MAX_CHARS + SUFFIX_LEN <= NAME_MAX, "NAME.preset must fit a file name");

struct preset_entry {
	const struct reclaim_knob *knob;
	int64_t value;
	bool is_auto;
	unsigned int line;
};

struct reclaim_preset {
	int refcount;
	char *name;
	char *path; /* as on the machine: without the root */
	char *description;
	bool admin, overrides;
	struct preset_entry *entries;
	size_t count;
};

struct list_entry {
	char *name, *path;
	bool admin, overrides;
};

struct reclaim_preset_list {
	int refcount;
	struct list_entry *entries;
	size_t count;
};

RECLAIM_EXPORT const char *reclaim_preset_shipped_dir(void)
{
	const char *dir = secure_getenv("RECLAIMCTL_PRESET_DIR");

	return dir && dir[0] ? dir : RECLAIM_PRESET_DIR;
}

const char *reclaim_preset_name_problem(const char *name, bool *quote)
{
	*quote = true;
	if (!name[0]) {
		*quote = false;
		return "it is empty";
	}
	if (strchr(name, '/'))
		return "it contains '/' (a preset is named, not given as a path)";
	if (name[0] == '.')
		return "it starts with '.'";
	for (const char *c = name; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f) {
			*quote = false;
			return "it contains a space or a control character";
		}
	if (strlen(name) > NAME_MAX_CHARS) {
		*quote = false;
		return "it is longer than 248 characters";
	}
	return NULL;
}

int reclaim_preset_check_name(struct reclaim_ctx *ctx, const char *name, int err, const char *where)
{
	bool quote;
	const char *problem = reclaim_preset_name_problem(name, &quote);

	if (!problem)
		return 0;
	if (quote)
		return reclaim_error(ctx, err, "%sinvalid preset name '%s': %s", where, name,
				     problem);
	return reclaim_error(ctx, err, "%sinvalid preset name: %s", where, problem);
}

/* "DIR/NAME.preset", DIR without its trailing slashes. */
static char *preset_file(const char *dir, const char *name)
{
	size_t len = strlen(dir);
	char *p;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (asprintf(&p, "%.*s/%s" SUFFIX, (int)len, dir, name) < 0)
		return NULL;
	return p;
}

/*
 * Reads the preset file @path, under the root (@admin) or a shipped one:
 * -ENOENT, without a message, if there is none.
 */
static int read_preset_file(struct reclaim_ctx *ctx, bool admin, const char *path, char **ret,
			    size_t *ret_len)
{
	size_t len = 0, size = PRESET_MAX_SIZE + 2;
	char *buf;
	int fd, r = 0;

	/* refuses a FIFO (opened without blocking), a device or a directory named like a preset */
	r = reclaim_open_regular(admin ? ctx : NULL, path, &fd);
	if (r == -ENOENT || r == -ENOTDIR)
		return -ENOENT;
	if (r == -EISDIR || r == -RECLAIM_ENOTREG)
		return reclaim_error(ctx, r == -EISDIR ? EISDIR : EBADMSG, "%s: not a regular file",
				     path);
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read %s: %s", path, strerror(-r));
	buf = malloc(size);
	if (!buf) {
		close(fd);
		return reclaim_error(ctx, ENOMEM, "out of memory");
	}
	/* Read one byte more than allowed, to tell a file that is too large. */
	while (len < size - 1) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = reclaim_error(ctx, errno, "cannot read %s: %s", path, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (r == 0 && len > PRESET_MAX_SIZE)
		r = reclaim_error(ctx, EBADMSG, "%s: too large: a preset has at most %d bytes",
				  path, PRESET_MAX_SIZE);
	if (r < 0) {
		free(buf);
		return r;
	}
	buf[len] = '\0';
	*ret = buf;
	*ret_len = len;
	return 0;
}

/* "a, b" of the knobs that may be "auto". */
static void auto_knobs(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);

		if (reclaim_knob_has_recommendation(k) && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
						reclaim_knob_name(k));
	}
}

/* Appends @text to the description, a space between lines. */
static int describe(struct reclaim_preset *p, const char *text)
{
	char *d;

	if (!p->description) {
		p->description = strdup(text);
		return p->description ? 0 : -ENOMEM;
	}
	if (asprintf(&d, "%s %s", p->description, text) < 0)
		return -ENOMEM;
	free(p->description);
	p->description = d;
	return 0;
}

/* A malformed preset: "FILE:LINE: problem", -EBADMSG. */
__attribute__((format(printf, 4, 5))) static int bad_line(struct reclaim_ctx *ctx, const char *file,
							  unsigned int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return reclaim_error(ctx, EBADMSG, "%s:%u: %s", file, line, msg);
}

/* One "KNOB = VALUE" line, comments and blanks already taken off. */
static int parse_entry(struct reclaim_ctx *ctx, struct reclaim_preset *p, const char *file,
		       unsigned int line, char *text)
{
	const struct reclaim_knob *knob;
	char *key, *value, detail[512];
	struct preset_entry *e;
	int64_t v = 0;
	bool is_auto;

	if (reclaim_kv_split(text, &key, &value) < 0)
		return bad_line(ctx, file, line, "expected KNOB = VALUE, found no '='");
	if (!key[0])
		return bad_line(ctx, file, line, "no knob before '='");
	knob = reclaim_knob_find(key);
	if (!knob)
		return bad_line(ctx, file, line, "unknown knob '%s'", key);
	for (size_t i = 0; i < p->count; i++)
		if (p->entries[i].knob == knob)
			return bad_line(ctx, file, line, "%s is already set on line %u",
					reclaim_knob_name(knob), p->entries[i].line);
	if (!value[0])
		return bad_line(ctx, file, line, "no value for %s", reclaim_knob_name(knob));
	is_auto = strcmp(value, "auto") == 0;
	if (is_auto && !reclaim_knob_has_recommendation(knob)) {
		auto_knobs(detail, sizeof(detail));
		return bad_line(ctx, file, line, "%s has no automatic value (auto is known for %s)",
				reclaim_knob_name(knob), detail);
	}
	if (!is_auto && reclaim_knob_parse(ctx, knob, value, &v) < 0) {
		snprintf(detail, sizeof(detail), "%s", reclaim_strerror(ctx));
		return bad_line(ctx, file, line, "%s", detail);
	}
	e = realloc(p->entries, (p->count + 1) * sizeof(*e));
	if (!e)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	p->entries = e;
	e[p->count++] =
	    (struct preset_entry){.knob = knob, .value = v, .is_auto = is_auto, .line = line};
	return 0;
}

/*
 * The whole text, refused whole at the first bad line. The description is
 * the first paragraph of the comment the file starts with (SPDX lines left
 * out): comment lines up to an empty comment line or anything else.
 */
static int parse_preset(struct reclaim_ctx *ctx, struct reclaim_preset *p, const char *file,
			char *text, size_t len)
{
	enum { DESC_BEFORE, DESC_IN, DESC_DONE } desc = DESC_BEFORE;
	char *end = text + len, *nul = memchr(text, '\0', len);
	unsigned int line = 1;

	if (nul) {
		for (char *c = text; c < nul; c++)
			line += *c == '\n';
		return bad_line(ctx, file, line, "a NUL byte: this is not a text file");
	}
	for (char *s = text; s < end; line++) {
		char *nl = memchr(s, '\n', (size_t)(end - s)), *hash, *body;
		int r;

		if (nl)
			*nl = '\0';
		body = reclaim_trim(s);
		s = nl ? nl + 1 : end;
		if (body[0] == '#') {
			char *comment = reclaim_trim(body + 1);

			if (desc == DESC_DONE ||
			    strncmp(comment, "SPDX-License-Identifier:", 24) == 0)
				continue;
			if (!comment[0]) {
				if (desc == DESC_IN)
					desc = DESC_DONE;
				continue;
			}
			desc = DESC_IN;
			if (describe(p, comment) < 0)
				return reclaim_error(ctx, ENOMEM, "out of memory");
			continue;
		}
		hash = strchr(body, '#');
		if (hash)
			*hash = '\0';
		body = reclaim_trim(body);
		if (desc == DESC_IN || body[0])
			desc = DESC_DONE;
		if (!body[0])
			continue;
		r = parse_entry(ctx, p, file, line, body);
		if (r < 0)
			return r;
	}
	return 0;
}

static void preset_free(struct reclaim_preset *p)
{
	free(p->name);
	free(p->path);
	free(p->description);
	free(p->entries);
	free(p);
}

RECLAIM_EXPORT int reclaim_preset_load(struct reclaim_ctx *ctx, const char *name,
				       struct reclaim_preset **ret)
{
	_cleanup_free_ char *admin = NULL, *shipped = NULL, *text = NULL;
	struct reclaim_preset *p;
	size_t len = 0;
	int r;

	assert_return(ctx && name && ret, -EINVAL);
	reclaim_error_reset(ctx);
	r = reclaim_preset_check_name(ctx, name, EINVAL, "");
	if (r < 0)
		return r;

	admin = preset_file(ADMIN_DIR, name);
	shipped = preset_file(reclaim_preset_shipped_dir(), name);
	if (!admin || !shipped)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	r = reclaim_path_check(ctx, admin);
	if (r < 0)
		return r;
	p = calloc(1, sizeof(*p));
	if (!p)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	p->refcount = 1;
	p->name = strdup(name);
	/* An administrator's preset that cannot be read is an error, not a reason to skip it. */
	r = read_preset_file(ctx, true, admin, &text, &len);
	if (r == 0) {
		p->admin = true;
		p->overrides = access(shipped, F_OK) == 0;
		p->path = admin;
		admin = NULL;
	} else if (r == -ENOENT) {
		r = read_preset_file(ctx, false, shipped, &text, &len);
		p->path = shipped;
		shipped = NULL;
	}
	if (r == -ENOENT) {
		size_t n = strlen(name);
		bool suffix = n > SUFFIX_LEN && strcmp(name + n - SUFFIX_LEN, SUFFIX) == 0;

		r = reclaim_error(ctx, ENOENT, "no preset %s (looked in %s, %s)%s", name, ADMIN_DIR,
				  reclaim_preset_shipped_dir(),
				  suffix ? "; name it without " SUFFIX : "");
	}
	if (r == 0 && (!p->name || !p->path))
		r = reclaim_error(ctx, ENOMEM, "out of memory");
	if (r == 0)
		r = parse_preset(ctx, p, p->path, text, len);
	if (r < 0) {
		preset_free(p);
		return r;
	}
	*ret = p;
	return 0;
}

RECLAIM_EXPORT struct reclaim_preset *reclaim_preset_ref(struct reclaim_preset *p)
{
	if (p)
		p->refcount++;
	return p;
}

RECLAIM_EXPORT struct reclaim_preset *reclaim_preset_unref(struct reclaim_preset *p)
{
	if (p && --p->refcount == 0)
		preset_free(p);
	return NULL;
}

RECLAIM_EXPORT const char *reclaim_preset_name(const struct reclaim_preset *p)
{
	assert_return(p, NULL);
	return p->name;
}

RECLAIM_EXPORT const char *reclaim_preset_path(const struct reclaim_preset *p)
{
	assert_return(p, NULL);
	return p->path;
}

RECLAIM_EXPORT bool reclaim_preset_is_admin(const struct reclaim_preset *p)
{
	assert_return(p, false);
	return p->admin;
}

RECLAIM_EXPORT bool reclaim_preset_overrides_shipped(const struct reclaim_preset *p)
{
	assert_return(p, false);
	return p->overrides;
}

RECLAIM_EXPORT const char *reclaim_preset_description(const struct reclaim_preset *p)
{
	assert_return(p, NULL);
	return p->description;
}

RECLAIM_EXPORT size_t reclaim_preset_count(const struct reclaim_preset *p)
{
	assert_return(p, 0);
	return p->count;
}

RECLAIM_EXPORT const struct reclaim_knob *reclaim_preset_knob(const struct reclaim_preset *p,
							      size_t idx)
{
	assert_return(p && idx < p->count, NULL);
	return p->entries[idx].knob;
}

RECLAIM_EXPORT bool reclaim_preset_is_auto(const struct reclaim_preset *p, size_t idx)
{
	assert_return(p && idx < p->count, false);
	return p->entries[idx].is_auto;
}

RECLAIM_EXPORT int64_t reclaim_preset_value(const struct reclaim_preset *p, size_t idx)
{
	assert_return(p && idx < p->count, 0);
	return p->entries[idx].value;
}

RECLAIM_EXPORT unsigned int reclaim_preset_line(const struct reclaim_preset *p, size_t idx)
{
	assert_return(p && idx < p->count, 0);
	return p->entries[idx].line;
}

RECLAIM_EXPORT ssize_t reclaim_preset_find(const struct reclaim_preset *p,
					   const struct reclaim_knob *knob)
{
	assert_return(p && knob, -EINVAL);
	for (size_t i = 0; i < p->count; i++)
		if (p->entries[i].knob == knob)
			return (ssize_t)i;
	return -1;
}

static void list_free(struct reclaim_preset_list *l)
{
	for (size_t i = 0; i < l->count; i++) {
		free(l->entries[i].name);
		free(l->entries[i].path);
	}
	free(l->entries);
	free(l);
}

static int list_add(struct reclaim_preset_list *l, const char *name, char *path, bool admin)
{
	struct list_entry *e;
	char *copy;

	for (size_t i = 0; i < l->count; i++) {
		if (strcmp(l->entries[i].name, name) != 0)
			continue;
		/* The administrator's preset replaces the shipped one. */
		free(l->entries[i].path);
		l->entries[i].path = path;
		l->entries[i].admin = admin;
		l->entries[i].overrides = admin;
		return 0;
	}
	copy = strdup(name);
	e = copy ? realloc(l->entries, (l->count + 1) * sizeof(*e)) : NULL;
	if (!e) {
		free(copy);
		free(path);
		return -ENOMEM;
	}
	l->entries = e;
	e[l->count++] = (struct list_entry){.name = copy, .path = path, .admin = admin};
	return 0;
}

/* Adds the presets of @dir, under the root (@admin) or shipped; a missing directory has none. */
static int scan_dir(struct reclaim_ctx *ctx, struct reclaim_preset_list *l, const char *dir,
		    bool admin)
{
	const struct reclaim_ctx *under = admin ? ctx : NULL;
	DIR *d = reclaim_opendir(under, dir);
	struct dirent *de;
	int r = 0;

	if (!d) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return reclaim_error(ctx, errno, "cannot read %s: %s", dir, strerror(errno));
	}
	for (errno = 0; (de = readdir(d)); errno = 0) {
		size_t len = strlen(de->d_name);
		_cleanup_free_ char *name = NULL;
		char *path;
		struct stat st;
		bool quote;

		if (len <= SUFFIX_LEN || strcmp(de->d_name + len - SUFFIX_LEN, SUFFIX) != 0)
			continue;
		name = strndup(de->d_name, len - SUFFIX_LEN);
		if (!name) {
			r = -ENOMEM;
			break;
		}
		if (reclaim_preset_name_problem(name, &quote))
			continue;
		path = preset_file(dir, name);
		if (!path) {
			r = -ENOMEM;
			break;
		}
		/* What reclaim_preset_load() would read: a regular file, through links. */
		if (reclaim_stat(under, path, 0, &st) < 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		r = list_add(l, name, path, admin);
		if (r < 0)
			break;
	}
	if (r == 0 && errno != 0)
		r = reclaim_error(ctx, errno, "cannot read %s: %s", dir, strerror(errno));
	else if (r == -ENOMEM)
		r = reclaim_error(ctx, ENOMEM, "out of memory");
	closedir(d);
	return r;
}

static int compare_entries(const void *a, const void *b)
{
	return strcmp(((const struct list_entry *)a)->name, ((const struct list_entry *)b)->name);
}

RECLAIM_EXPORT int reclaim_preset_list_new(struct reclaim_ctx *ctx,
					   struct reclaim_preset_list **ret)
{
	struct reclaim_preset_list *l;
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	r = reclaim_path_check(ctx, ADMIN_DIR);
	if (r < 0)
		return r;
	l = calloc(1, sizeof(*l));
	if (!l)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	l->refcount = 1;
	r = scan_dir(ctx, l, reclaim_preset_shipped_dir(), false);
	if (r == 0)
		r = scan_dir(ctx, l, ADMIN_DIR, true);
	if (r < 0) {
		list_free(l);
		return r;
	}
	if (l->count > 1)
		qsort(l->entries, l->count, sizeof(*l->entries), compare_entries);
	*ret = l;
	return 0;
}

RECLAIM_EXPORT struct reclaim_preset_list *reclaim_preset_list_ref(struct reclaim_preset_list *l)
{
	if (l)
		l->refcount++;
	return l;
}

RECLAIM_EXPORT struct reclaim_preset_list *reclaim_preset_list_unref(struct reclaim_preset_list *l)
{
	if (l && --l->refcount == 0)
		list_free(l);
	return NULL;
}

RECLAIM_EXPORT size_t reclaim_preset_list_count(const struct reclaim_preset_list *l)
{
	assert_return(l, 0);
	return l->count;
}

RECLAIM_EXPORT const char *reclaim_preset_list_name(const struct reclaim_preset_list *l, size_t idx)
{
	assert_return(l && idx < l->count, NULL);
	return l->entries[idx].name;
}

RECLAIM_EXPORT const char *reclaim_preset_list_path(const struct reclaim_preset_list *l, size_t idx)
{
	assert_return(l && idx < l->count, NULL);
	return l->entries[idx].path;
}

RECLAIM_EXPORT bool reclaim_preset_list_is_admin(const struct reclaim_preset_list *l, size_t idx)
{
	assert_return(l && idx < l->count, false);
	return l->entries[idx].admin;
}

RECLAIM_EXPORT bool reclaim_preset_list_overrides_shipped(const struct reclaim_preset_list *l,
							  size_t idx)
{
	assert_return(l && idx < l->count, false);
	return l->entries[idx].overrides;
}
