// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The sysctl configuration applied at boot, and which of its lines set the
 * knobs of the table. The rules are systemd-sysctl's (src/sysctl/sysctl.c,
 * src/basic/conf-files.c and sysctl.d(5) of systemd 256):
 *
 * - Files: the *.conf names (not starting with '.') of /etc/sysctl.d,
 *   /run/sysctl.d, /usr/local/lib/sysctl.d, /usr/lib/sysctl.d, in this
 *   order, and /lib/sysctl.d, which split-usr systemd and procps'
 *   "sysctl --system" read (a directory reached twice, /lib being a link to
 *   usr/lib, counts once). A name found in an earlier directory hides the
 *   same name in later ones, whatever it is: a link to /dev/null or an empty
 *   file so masks it, a dangling link hides it and reads as nothing.
 * - The files are read in the order of their names (strcmp), whatever their
 *   directory. /etc/sysctl.conf comes after all of them, as "sysctl --system"
 *   reads it (systemd-sysctl only reads it through a link in sysctl.d, such
 *   as Debian's 99-sysctl.conf): it is read once, at the link's place, when a
 *   sysctl.d file is that file.
 * - Lines: whitespace around is dropped (so CRLF files work); empty lines
 *   and lines starting with '#' or ';' are comments. "key = value" assigns,
 *   "-key = value" too (its failure is ignored); "-key" without '=' keeps key
 *   out of every glob; anything else is "not an assignment", logged and
 *   skipped. Keys are normalized: "vm.swappiness" and "vm/swappiness" are the
 *   same.
 * - Every key keeps its last assignment (systemd's ordered hashmap: a new
 *   value replaces the old one and moves to the end, the same value keeps
 *   its place). A key that is assigned or excluded explicitly is never set
 *   by a glob; an exclusion applies nothing. Globs are applied in the
 *   hashmap's order: the last one matching a knob wins. They are matched
 *   against the knob's name here, where systemd matches them against the
 *   running kernel's /proc/sys.
 *
 * The knobs of sysfs have other writers at boot, which this reads too:
 *
 * - The kernel command line (/proc/cmdline), for a parameter of a module
 *   built in ("zswap.enabled=1"): the last one wins, '-' and '_' are the
 *   same in its name, and it applies first.
 * - The 'w' lines of tmpfiles.d files that name the knob's file (or a glob
 *   matching it), which systemd-tmpfiles-setup.service writes early at
 *   boot: its files are found as sysctl.d's are (/etc, /run,
 *   /usr/local/lib, /usr/lib, /lib) and read in the order of their names;
 *   the first line for a path wins, a later one for the same path is
 *   ignored ("Duplicate line for path"), whatever its modifiers ('!' lines
 *   count: they are written at boot).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysctl-internal.h"

#define PROC_SYS    "/proc/sys/"
#define SYSCTL_CONF "/etc/sysctl.conf"

static const char *const conf_dirs[] = {
    "/etc/sysctl.d",	 "/run/sysctl.d", "/usr/local/lib/sysctl.d",
    "/usr/lib/sysctl.d", "/lib/sysctl.d",
};

static const char *const tmpfiles_dirs[] = {
    "/etc/tmpfiles.d",	   "/run/tmpfiles.d", "/usr/local/lib/tmpfiles.d",
    "/usr/lib/tmpfiles.d", "/lib/tmpfiles.d",
};

struct conf_entry {
	const struct reclaim_knob *knob;
	char *file;
	unsigned int line;
	char *key, *path, *value;
	bool glob, own, wins;
	bool invalid; /* a value the kernel refuses: it never takes effect */
	enum conf_kind kind;
};

struct conf_problem {
	char *file;
	unsigned int line;
	const struct reclaim_knob *knob;
	char *message;
};

struct reclaim_sysctl_conf {
	int refcount;
	struct reclaim_ctx *ctx;
	struct conf_entry *entries;
	size_t count;
	struct conf_problem *problems;
	size_t nproblems;
	ssize_t *boot, *admin; /* indexed like the knob table */
	struct tuned_profile tuned;
	char *tuned_error; /* "FILE:LINE: WHY" */
};

/* Line syntax */

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* A copy of s[0..len) without whitespace around; NULL on ENOMEM. */
static char *strip_dup(const char *s, size_t len)
{
	while (len > 0 && is_space(*s)) {
		s++;
		len--;
	}
	while (len > 0 && is_space(s[len - 1]))
		len--;
	return strndup(s, len);
}

char *reclaim_path_simplify(char *path, bool absolute)
{
	char *out = path;
	const char *p = path;

	while (*p) {
		size_t len;

		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (len == 0 || (len == 1 && p[0] == '.')) {
			p += len;
			continue;
		}
		if (absolute || out != path)
			*out++ = '/';
		memmove(out, p, len);
		out += len;
		p += len;
	}
	if (absolute && out == path)
		*out++ = '/';
	*out = '\0';
	return path;
}

char *reclaim_sysctl_normalize(char *key)
{
	char *n = strpbrk(key, "/.");

	if (n && *n == '.')
		for (; n; n = strpbrk(n + 1, "/."))
			*n = *n == '.' ? '/' : '.';
	return reclaim_path_simplify(key, false);
}

bool reclaim_sysctl_is_glob(const char *path)
{
	return strpbrk(path, "*?[") != NULL;
}

/* "vm/swappiness" for vm.swappiness; NULL for a knob of sysfs. */
static const char *knob_proc_name(const struct reclaim_knob *k)
{
	if (!reclaim_knob_sysctl(k))
		return NULL;
	return reclaim_knob_path(k) + strlen(PROC_SYS);
}

bool reclaim_sysctl_matches(const char *path, const struct reclaim_knob *k)
{
	if (!knob_proc_name(k))
		return false;
	if (reclaim_sysctl_is_glob(path))
		return fnmatch(path, knob_proc_name(k), FNM_PATHNAME | FNM_PERIOD) == 0;
	return strcmp(path, knob_proc_name(k)) == 0;
}

const struct reclaim_knob *reclaim_sysctl_knob_by_path(const char *path)
{
	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const char *name = knob_proc_name(reclaim_knob_get(i));

		if (name && strcmp(path, name) == 0)
			return reclaim_knob_get(i);
	}
	return NULL;
}

void reclaim_sysctl_line_clear(struct sysctl_line *l)
{
	free(l->key);
	free(l->path);
	free(l->value);
	*l = (struct sysctl_line){0};
}

int reclaim_sysctl_parse_line(const char *line, size_t len, struct sysctl_line *l)
{
	struct reclaim_kv_span kv;
	enum reclaim_kv kind = reclaim_kv_span(line, len, RECLAIM_KV_SEMICOLON, &kv);

	*l = (struct sysctl_line){0};
	if (kind == RECLAIM_KV_BLANK)
		return 0;
	if (kind == RECLAIM_KV_PAIR) {
		if (kv.key[0] == '-') {
			l->ignore_failure = true;
			kv.key++;
			kv.key_len--;
		}
		l->key = strip_dup(kv.key, kv.key_len);
		l->value = strndup(kv.value, kv.value_len);
		l->kind = SYSCTL_LINE_ASSIGN;
	} else if (kv.key[0] == '-') {
		l->key = strip_dup(kv.key + 1, kv.key_len - 1);
		l->kind = SYSCTL_LINE_EXCLUDE;
	} else {
		/* The first word, to tell which knob the line was meant for. */
		size_t w = 0;

		while (w < kv.key_len && !is_space(kv.key[w]))
			w++;
		l->key = strndup(kv.key, w);
		l->kind = SYSCTL_LINE_INVALID;
		l->problem = "not an assignment (no '=')";
	}
	if (!l->key || (l->kind == SYSCTL_LINE_ASSIGN && !l->value))
		goto oom;
	l->path = strdup(l->key);
	if (!l->path)
		goto oom;
	reclaim_sysctl_normalize(l->path);
	if (l->kind != SYSCTL_LINE_INVALID && !l->path[0]) {
		l->kind = SYSCTL_LINE_INVALID;
		l->problem = "no key";
	}
	return 0;
oom:
	reclaim_sysctl_line_clear(l);
	return -ENOMEM;
}

/* Building the list */

static int add_problem(struct reclaim_sysctl_conf *c, const char *file, unsigned int line,
		       const struct reclaim_knob *knob, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int add_problem(struct reclaim_sysctl_conf *c, const char *file, unsigned int line,
		       const struct reclaim_knob *knob, const char *fmt, ...)
{
	struct conf_problem *n, *p;
	va_list ap;
	int r;

	n = realloc(c->problems, (c->nproblems + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	c->problems = n;
	p = &n[c->nproblems];
	*p = (struct conf_problem){.line = line, .knob = knob, .file = strdup(file)};
	va_start(ap, fmt);
	r = vasprintf(&p->message, fmt, ap);
	va_end(ap);
	if (r < 0)
		p->message = NULL;
	if (!p->file || !p->message) {
		free(p->file);
		free(p->message);
		return -ENOMEM;
	}
	c->nproblems++;
	return 0;
}

static int add_entry(struct reclaim_sysctl_conf *c, enum conf_kind kind,
		     const struct reclaim_knob *knob, const char *file, unsigned int line,
		     const struct sysctl_line *l, bool own)
{
	struct conf_entry *n, *e;

	n = realloc(c->entries, (c->count + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	c->entries = n;
	e = &n[c->count];
	*e = (struct conf_entry){
	    .knob = knob,
	    .kind = kind,
	    .line = line,
	    .glob = reclaim_sysctl_is_glob(l->path),
	    .own = own,
	    .file = strdup(file),
	    .key = strdup(l->key),
	    .path = strdup(l->path),
	    .value = l->value ? strdup(l->value) : NULL,
	};
	if (!e->file || !e->key || !e->path || (l->value && !e->value)) {
		free(e->file);
		free(e->key);
		free(e->path);
		free(e->value);
		return -ENOMEM;
	}
	c->count++;
	return 0;
}

/*
 * A value the kernel takes for @k: for a sysctl a decimal integer within
 * the knob's range, for a file of sysfs a value of its type; 1 if not.
 */
static int check_value(struct reclaim_sysctl_conf *c, const struct reclaim_knob *k,
		       const char *file, unsigned int line, const char *value)
{
	int64_t v;
	int r;

	if (reclaim_knob_parse_written(k, value, &v) == 0)
		return 0;
	if (!reclaim_knob_sysctl(k)) {
		/* the words of a knob of sysfs: the message of a user's value */
		reclaim_knob_parse(c->ctx, k, value, &v);
		r = add_problem(c, file, line, k,
				"%s; the kernel refuses it, so the line never takes effect",
				reclaim_strerror(c->ctx));
		reclaim_error_reset(c->ctx);
		return r < 0 ? r : 1;
	}
	r = add_problem(c, file, line, k,
			"invalid value '%s' for %s: expected an integer from %" PRId64
			" to %" PRId64 "; the kernel refuses it, so the line never takes effect",
			value, reclaim_knob_sysctl(k), reclaim_knob_min(k), reclaim_knob_max(k));
	return r < 0 ? r : 1;
}

/* The lines of one file; @own: reclaimctl's file. */
static int parse_text(struct reclaim_sysctl_conf *c, const char *file, const char *text, bool own)
{
	unsigned int lineno = 0;
	const char *p = text;
	int r = 0;

	while (*p && r == 0) {
		size_t len = strcspn(p, "\n");
		bool reported = false;
		struct sysctl_line l;

		lineno++;
		r = reclaim_sysctl_parse_line(p, len, &l);
		if (r < 0)
			return r;
		p += len + (p[len] == '\n');
		if (l.kind == SYSCTL_LINE_BLANK)
			continue;
		for (size_t i = 0; i < reclaim_knob_count() && r == 0 && !reported; i++) {
			const struct reclaim_knob *k = reclaim_knob_get(i);

			if (!l.path[0] || !reclaim_sysctl_matches(l.path, k))
				continue;
			if (l.kind == SYSCTL_LINE_INVALID) {
				/* One problem per line, even for a glob naming several knobs. */
				r = add_problem(c, file, lineno, k, "%s: %s; the line is skipped",
						l.key, l.problem);
				reported = true;
				continue;
			}
			r = add_entry(c, CONF_SYSCTL, k, file, lineno, &l, own);
			if (r == 0 && l.kind == SYSCTL_LINE_ASSIGN) {
				r = check_value(c, k, file, lineno, l.value);
				if (r > 0) {
					c->entries[c->count - 1].invalid = true;
					r = 0;
				}
			}
		}
		if (r == 0 && l.kind == SYSCTL_LINE_INVALID && !reported)
			r = add_problem(c, file, lineno, NULL, "%s%s%s; the line is skipped",
					l.path[0] ? l.key : "", l.path[0] ? ": " : "", l.problem);
		reclaim_sysctl_line_clear(&l);
	}
	return r;
}

/* The 'w' lines of one tmpfiles.d file that write a knob of sysfs; @own: reclaimctl's file. */
static int parse_tmpfiles(struct reclaim_sysctl_conf *c, const char *file, const char *text,
			  bool own)
{
	unsigned int lineno = 0;
	const char *p = text;
	int r = 0;

	while (*p && r == 0) {
		size_t len = strcspn(p, "\n");
		struct tmpfiles_line l;

		lineno++;
		r = reclaim_tmpfiles_parse_line(p, len, &l);
		if (r < 0)
			return r;
		p += len + (p[len] == '\n');
		for (size_t i = 0; !l.blank && i < reclaim_knob_count() && r == 0; i++) {
			const struct reclaim_knob *k = reclaim_knob_get(i);
			struct sysctl_line sl = {
			    .kind = SYSCTL_LINE_ASSIGN, .key = l.path, .path = l.path};

			if (!l.path || l.type[0] != 'w' || !reclaim_tmpfiles_matches(&l, k))
				continue;
			if (l.problem) {
				r = add_problem(c, file, lineno, k,
						"%s %s: %s; reclaimctl skips it", l.type, l.path,
						l.problem);
				continue;
			}
			sl.value = l.argument;
			r = add_entry(c, CONF_TMPFILES, k, file, lineno, &sl, own);
			if (r == 0) {
				r = check_value(c, k, file, lineno, l.argument);
				if (r > 0) {
					c->entries[c->count - 1].invalid = true;
					r = 0;
				}
			}
		}
		reclaim_tmpfiles_line_clear(&l);
	}
	return r;
}

struct conf_file {
	char *name; /* "99-sysctl.conf" */
	char *path; /* "/etc/sysctl.d/99-sysctl.conf" */
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct conf_file *)a)->name, ((const struct conf_file *)b)->name);
}

static bool is_conf_name(const char *name)
{
	size_t len = strlen(name);

	return name[0] != '.' && len > 5 && strcmp(name + len - 5, ".conf") == 0;
}

/* Adds the *.conf names of @dir not seen yet. */
static int list_dir(struct reclaim_sysctl_conf *c, const char *dir, const char *resolved,
		    struct conf_file **files, size_t *n)
{
	struct dirent *de;
	DIR *d = reclaim_opendir(c->ctx, resolved);
	int r = 0;

	if (!d && errno == ENOMEM)
		return -ENOMEM;
	if (!d)
		return add_problem(c, dir, 0, NULL, "cannot read the directory: %s",
				   strerror(errno));
	while (r == 0 && (de = readdir(d))) {
		struct conf_file *nf;
		bool seen = false;

		if (!is_conf_name(de->d_name))
			continue;
		for (size_t i = 0; i < *n && !seen; i++)
			seen = strcmp((*files)[i].name, de->d_name) == 0;
		if (seen)
			continue;
		nf = realloc(*files, (*n + 1) * sizeof(*nf));
		if (!nf) {
			r = -ENOMEM;
			break;
		}
		*files = nf;
		nf[*n].name = strdup(de->d_name);
		if (!nf[*n].name || asprintf(&nf[*n].path, "%s/%s", dir, de->d_name) < 0) {
			free(nf[*n].name);
			r = -ENOMEM;
			break;
		}
		(*n)++;
	}
	closedir(d);
	return r;
}

/*
 * The files of the directories @dirs (conf_dirs or tmpfiles_dirs, both of
 * five) read at boot, in order; for sysctl.d before /etc/sysctl.conf.
 */
static int list_files(struct reclaim_sysctl_conf *c, const char *const *dirs,
		      struct conf_file **files, size_t *n)
{
	char *seen[ARRAY_SIZE(conf_dirs)] = {0};
	size_t nseen = 0;
	int r = 0;

	for (size_t i = 0; i < ARRAY_SIZE(conf_dirs) && r == 0; i++) {
		char *resolved = NULL;
		bool dup = false;

		r = reclaim_chase(c->ctx, dirs[i], 0, &resolved);
		if (r == -ENOENT || r == -ENOTDIR) {
			r = 0;
			continue;
		}
		if (r == -ENOMEM)
			break;
		if (r < 0) {
			r = add_problem(c, dirs[i], 0, NULL, "cannot read the directory: %s",
					strerror(-r));
			continue;
		}
		for (size_t j = 0; j < nseen && !dup; j++)
			dup = strcmp(seen[j], resolved) == 0;
		if (dup) {
			free(resolved);
			continue;
		}
		seen[nseen++] = resolved;
		r = list_dir(c, dirs[i], resolved, files, n);
	}
	for (size_t j = 0; j < nseen; j++)
		free(seen[j]);
	if (r == 0 && *n > 1)
		qsort(*files, *n, sizeof(**files), by_name);
	return r;
}

struct file_id {
	dev_t dev;
	ino_t ino;
};

/*
 * Reads the file at @path (as on the machine) if it is one: masks, dangling
 * links and empty files read as nothing. *id is set for a file read.
 */
static int read_conf(struct reclaim_sysctl_conf *c, enum conf_kind kind, const char *path,
		     struct file_id *id, bool *read)
{
	_cleanup_free_ char *resolved = NULL, *text = NULL;
	const char *shown = path;
	struct stat st, lst;
	int r;

	*read = false;
	r = reclaim_chase(c->ctx, path, 0, &resolved);
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return add_problem(c, path, 0, NULL, "cannot read: %s", strerror(-r));
	if (strcmp(resolved, "/dev/null") == 0)
		return 0;
	r = reclaim_stat(c->ctx, resolved, 0, &st);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return add_problem(c, path, 0, NULL, "cannot read: %s", strerror(-r));
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || (S_ISREG(st.st_mode) && st.st_size == 0))
		return 0;
	/* A link shows as the file it leads to: that is the one to edit. */
	if (reclaim_stat(c->ctx, path, O_NOFOLLOW, &lst) == 0 && S_ISLNK(lst.st_mode))
		shown = resolved;
	/* A directory or a FIFO (which would block the read) is no configuration. */
	if (!S_ISREG(st.st_mode))
		return add_problem(c, shown, 0, NULL, "cannot read: not a regular file");
	r = reclaim_read_file(c->ctx, resolved, &text, NULL);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return add_problem(c, shown, 0, NULL, "cannot read: %s", reclaim_read_strerror(r));
	*id = (struct file_id){.dev = st.st_dev, .ino = st.st_ino};
	*read = true;
	if (kind == CONF_TMPFILES)
		return parse_tmpfiles(c, shown, text,
				      shown == path && strcmp(path, RECLAIM_PERSIST_TMPFILES) == 0);
	return parse_text(c, shown, text, shown == path && strcmp(path, RECLAIM_PERSIST_FILE) == 0);
}

/* /etc/sysctl.conf, unless a sysctl.d file was it; "sysctl --system" needs a regular file. */
static int read_sysctl_conf(struct reclaim_sysctl_conf *c, const struct file_id *ids, size_t n)
{
	_cleanup_free_ char *resolved = NULL;
	struct file_id id;
	struct stat st;
	bool read;
	int r;

	r = reclaim_chase(c->ctx, SYSCTL_CONF, 0, &resolved);
	if (r < 0 || strcmp(resolved, "/dev/null") == 0)
		return r == -ENOMEM ? r : 0;
	r = reclaim_stat(c->ctx, resolved, 0, &st);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || !S_ISREG(st.st_mode))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (ids[i].dev == st.st_dev && ids[i].ino == st.st_ino)
			return 0;
	return read_conf(c, CONF_SYSCTL, SYSCTL_CONF, &id, &read);
}

/* The tmpfiles.d files, as systemd-tmpfiles --boot reads them. */
static int read_tmpfiles(struct reclaim_sysctl_conf *c)
{
	struct conf_file *files = NULL;
	size_t n = 0;
	int r = list_files(c, tmpfiles_dirs, &files, &n);

	for (size_t i = 0; i < n; i++) {
		struct file_id id;
		bool read;

		if (r == 0)
			r = read_conf(c, CONF_TMPFILES, files[i].path, &id, &read);
		free(files[i].name);
		free(files[i].path);
	}
	free(files);
	return r;
}

/* The module parameter a knob of sysfs is on the kernel command line ("zswap.enabled"), or NULL. */
static bool param_of(const struct reclaim_knob *k, char *buf, size_t size)
{
	static const char dir[] = "/sys/module/";
	const char *path = reclaim_knob_path(k), *params;

	if (reclaim_knob_sysctl(k) || strncmp(path, dir, strlen(dir)) != 0)
		return false;
	params = strstr(path, "/parameters/");
	if (!params)
		return false;
	snprintf(buf, size, "%.*s.%s", (int)(params - path - strlen(dir)), path + strlen(dir),
		 params + strlen("/parameters/"));
	return true;
}

static int cmdline_param(void *data, const char *name, const char *value)
{
	struct reclaim_sysctl_conf *c = data;
	int r = 0;

	for (size_t i = 0; i < reclaim_knob_count() && r == 0; i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		struct sysctl_line l = {.kind = SYSCTL_LINE_ASSIGN};
		char param[128];

		if (!param_of(k, param, sizeof(param)) || !reclaim_cmdline_param_is(name, param))
			continue;
		/* a bool without a value is true, as the kernel's param_set_bool() takes it */
		l.key = (char *)name;
		l.path = param;
		l.value = (char *)(value ? value : "Y");
		r = add_entry(c, CONF_CMDLINE, k, RECLAIM_CMDLINE_FILE, 1, &l, false);
		if (r == 0) {
			r = check_value(c, k, RECLAIM_CMDLINE_FILE, 1, l.value);
			if (r > 0) {
				c->entries[c->count - 1].invalid = true;
				r = 0;
			}
		}
	}
	return r;
}

/* The module parameters of knobs on the kernel command line, which apply before tmpfiles. */
static int read_cmdline(struct reclaim_sysctl_conf *c)
{
	_cleanup_free_ char *text = NULL;
	int r = reclaim_read_file(c->ctx, RECLAIM_CMDLINE_FILE, &text, NULL);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	return reclaim_cmdline_foreach(text, cmdline_param, c);
}

/*
 * For a knob of sysfs: the first 'w' line of the tmpfiles.d files that
 * names its path (systemd-tmpfiles ignores a later line for the same path
 * with another value, "Duplicate line"), a literal path before a glob; else
 * the last value on the kernel command line, which the kernel takes (and
 * keeps when the kernel refuses the line's value).
 */
static ssize_t decide_sysfs(const struct reclaim_sysctl_conf *c, const struct reclaim_knob *k,
			    bool admin)
{
	ssize_t literal = -1, glob = -1, cmdline = -1;

	for (size_t i = 0; i < c->count; i++) {
		const struct conf_entry *e = &c->entries[i];

		if (e->knob != k || (admin && e->own))
			continue;
		if (e->kind == CONF_CMDLINE)
			cmdline = (ssize_t)i;
		else if (e->kind == CONF_TMPFILES && !e->glob && literal < 0)
			literal = (ssize_t)i;
		else if (e->kind == CONF_TMPFILES && e->glob && glob < 0)
			glob = (ssize_t)i;
	}
	literal = literal >= 0 ? literal : glob;
	/* a line the kernel refuses leaves the value of the command line */
	return literal >= 0 && !c->entries[literal].invalid ? literal : cmdline;
}

/*
 * The entry deciding @k among the entries (@admin: outside reclaimctl's
 * file), following systemd-sysctl's ordered hashmap; -1 if none.
 */
static ssize_t decide(const struct reclaim_sysctl_conf *c, const struct reclaim_knob *k, bool admin)
{
	_cleanup_free_ size_t *pos = NULL;
	ssize_t explicit = -1, best = -1;
	size_t best_pos = 0;

	if (!reclaim_knob_sysctl(k))
		return decide_sysfs(c, k, admin);
	pos = calloc(c->count ? c->count : 1, sizeof(*pos));
	if (!pos)
		return -1;
	for (size_t i = 0; i < c->count; i++) {
		const struct conf_entry *e = &c->entries[i];

		if (e->knob != k || (admin && e->own) || e->kind != CONF_SYSCTL)
			continue;
		if (!e->glob) {
			explicit = (ssize_t)i;
			continue;
		}
		/* Its place in the hashmap: kept from the key's previous entry if the value is the
		 * same. */
		pos[i] = i;
		for (size_t j = i; j-- > 0;) {
			const struct conf_entry *p = &c->entries[j];

			if (p->knob != k || (admin && p->own) || !p->glob ||
			    strcmp(p->path, e->path) != 0)
				continue;
			if ((!p->value && !e->value) ||
			    (p->value && e->value && strcmp(p->value, e->value) == 0))
				pos[i] = pos[j];
			break;
		}
	}
	if (explicit >= 0)
		return explicit;
	for (size_t i = 0; i < c->count; i++) {
		const struct conf_entry *e = &c->entries[i];
		bool last = true;

		if (e->knob != k || (admin && e->own) || !e->glob || !e->value ||
		    e->kind != CONF_SYSCTL)
			continue;
		/* Only a key's last entry is in the hashmap. */
		for (size_t j = i + 1; j < c->count && last; j++) {
			const struct conf_entry *n = &c->entries[j];

			last = n->knob != k || (admin && n->own) || !n->glob ||
			       strcmp(n->path, e->path) != 0;
		}
		if (last && (best < 0 || pos[i] >= best_pos)) {
			best = (ssize_t)i;
			best_pos = pos[i];
		}
	}
	return best;
}

/* tuned's values come after the files, as tuned.service starts after systemd-sysctl. */
static int read_tuned(struct reclaim_sysctl_conf *c)
{
	struct tuned_profile *t = &c->tuned;
	int r = reclaim_tuned_read(c->ctx, t);

	if (r < 0)
		return r;
	if (t->error) {
		if ((t->error_line
			 ? asprintf(&c->tuned_error, "%s:%u: %s", t->error_file, t->error_line,
				    t->error)
			 : asprintf(&c->tuned_error, "%s: %s", t->error_file, t->error)) < 0)
			return -ENOMEM;
		return add_problem(c, t->error_file, t->error_line, NULL,
				   "%s; reclaimctl cannot tell which knobs tuned sets", t->error);
	}
	for (size_t i = 0; i < t->count && r == 0; i++) {
		const struct tuned_value *v = &t->values[i];
		_cleanup_free_ char *plain = NULL;
		struct sysctl_line l = {
		    .kind = SYSCTL_LINE_ASSIGN, .key = v->key, .value = v->value};
		size_t at = c->count;

		l.path = strdup(v->key);
		if (!l.path)
			return -ENOMEM;
		reclaim_sysctl_normalize(l.path);
		r = add_entry(c, CONF_TUNED, v->knob, v->file, v->line, &l, false);
		free(l.path);
		if (r < 0)
			return r;
		/* tuned drops quotes, and ">N" ("<N") writes N only above (below) the value */
		plain =
		    strdup(v->value + ((v->value[0] == '>' || v->value[0] == '<') && v->value[1]));
		if (!plain)
			return -ENOMEM;
		for (char *q = strchr(plain, '"'); q; q = strchr(q, '"'))
			memmove(q, q + 1, strlen(q));
		r = check_value(c, v->knob, v->file, v->line, plain);
		if (r > 0) {
			c->entries[at].invalid = true;
			r = 0;
		}
	}
	return r;
}

/* The last valid line of @k among the files tuned reapplies after its own values; -1 if none. */
static ssize_t reapplied(const struct reclaim_sysctl_conf *c, const struct reclaim_knob *k,
			 bool admin)
{
	static const char *const dirs[] = {"/etc/sysctl.d/", "/run/sysctl.d/"};
	ssize_t last = -1;

	for (size_t i = 0; i < c->count; i++) {
		const struct conf_entry *e = &c->entries[i];
		bool in = strcmp(e->file, SYSCTL_CONF) == 0;

		for (size_t d = 0; d < ARRAY_SIZE(dirs) && !in; d++)
			in = strncmp(e->file, dirs[d], strlen(dirs[d])) == 0;
		if (in && e->knob == k && e->kind == CONF_SYSCTL && !e->glob && e->value &&
		    !e->invalid && !(admin && e->own))
			last = (ssize_t)i;
	}
	return last;
}

/*
 * tuned writes its values when tuned.service starts, after systemd-sysctl;
 * with reapply_sysctl (the default) it then writes the lines of
 * /run/sysctl.d, /etc/sysctl.d and /etc/sysctl.conf again, which so win
 * over it, where the lines of /usr/lib/sysctl.d do not.
 */
static void tuned_decides(const struct reclaim_sysctl_conf *c, const struct reclaim_knob *k,
			  ssize_t *boot, ssize_t *admin)
{
	ssize_t t = -1, again, again_admin;

	for (size_t i = 0; i < c->count; i++)
		if (c->entries[i].kind == CONF_TUNED && c->entries[i].knob == k &&
		    !c->entries[i].invalid)
			t = (ssize_t)i;
	if (t < 0)
		return;
	again = c->tuned.reapply ? reapplied(c, k, false) : -1;
	again_admin = c->tuned.reapply ? reapplied(c, k, true) : -1;
	*boot = again >= 0 ? again : t;
	*admin = again_admin >= 0 ? again_admin : t;
}

const char *reclaim_sysctl_conf_tuned_error(const struct reclaim_sysctl_conf *c)
{
	return c->tuned_error;
}

static void conf_free(struct reclaim_sysctl_conf *c)
{
	for (size_t i = 0; i < c->count; i++) {
		free(c->entries[i].file);
		free(c->entries[i].key);
		free(c->entries[i].path);
		free(c->entries[i].value);
	}
	for (size_t i = 0; i < c->nproblems; i++) {
		free(c->problems[i].file);
		free(c->problems[i].message);
	}
	free(c->entries);
	free(c->problems);
	free(c->boot);
	free(c->admin);
	reclaim_tuned_clear(&c->tuned);
	free(c->tuned_error);
	reclaim_unref(c->ctx);
	free(c);
}

static int scan(struct reclaim_sysctl_conf *c)
{
	struct conf_file *files = NULL;
	struct file_id *ids = NULL;
	size_t n = 0, nids = 0;
	int r;

	r = list_files(c, conf_dirs, &files, &n);
	if (r == 0 && n > 0) {
		ids = calloc(n, sizeof(*ids));
		if (!ids)
			r = -ENOMEM;
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		bool read;

		r = read_conf(c, CONF_SYSCTL, files[i].path, &ids[nids], &read);
		nids += read;
	}
	if (r == 0)
		r = read_sysctl_conf(c, ids, nids);
	if (r == 0)
		r = read_tuned(c);
	if (r == 0)
		r = read_cmdline(c);
	if (r == 0)
		r = read_tmpfiles(c);
	for (size_t i = 0; i < n; i++) {
		free(files[i].name);
		free(files[i].path);
	}
	free(files);
	free(ids);
	if (r < 0)
		return r;
	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);

		c->boot[i] = decide(c, k, false);
		c->admin[i] = decide(c, k, true);
		/*
		 * systemd-sysctl writes only the last value of a key: when the
		 * kernel refuses it, no line sets the knob, and none blocks a change.
		 */
		if (c->boot[i] >= 0 && c->entries[c->boot[i]].invalid)
			c->boot[i] = -1;
		if (c->admin[i] >= 0 && c->entries[c->admin[i]].invalid)
			c->admin[i] = -1;
		tuned_decides(c, k, &c->boot[i], &c->admin[i]);
		if (c->boot[i] >= 0)
			c->entries[c->boot[i]].wins = true;
		/* An exclusion sets nothing. */
		if (c->admin[i] >= 0 && !c->entries[c->admin[i]].value)
			c->admin[i] = -1;
	}
	return 0;
}

RECLAIM_EXPORT int reclaim_sysctl_conf_new(struct reclaim_ctx *ctx,
					   struct reclaim_sysctl_conf **ret)
{
	struct reclaim_sysctl_conf *c;
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	c = calloc(1, sizeof(*c));
	if (!c)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	c->refcount = 1;
	c->ctx = reclaim_ref(ctx);
	c->boot = calloc(reclaim_knob_count(), sizeof(*c->boot));
	c->admin = calloc(reclaim_knob_count(), sizeof(*c->admin));
	r = c->boot && c->admin ? scan(c) : -ENOMEM;
	if (r < 0) {
		conf_free(c);
		return reclaim_error(ctx, -r, "cannot read the sysctl configuration: %s",
				     strerror(-r));
	}
	*ret = c;
	return 0;
}

RECLAIM_EXPORT struct reclaim_sysctl_conf *reclaim_sysctl_conf_ref(struct reclaim_sysctl_conf *c)
{
	if (c)
		c->refcount++;
	return c;
}

RECLAIM_EXPORT struct reclaim_sysctl_conf *reclaim_sysctl_conf_unref(struct reclaim_sysctl_conf *c)
{
	if (c && --c->refcount == 0)
		conf_free(c);
	return NULL;
}

RECLAIM_EXPORT size_t reclaim_sysctl_conf_count(const struct reclaim_sysctl_conf *c)
{
	assert_return(c, 0);
	return c->count;
}

RECLAIM_EXPORT const struct reclaim_knob *
reclaim_sysctl_conf_knob(const struct reclaim_sysctl_conf *c, size_t idx)
{
	assert_return(c && idx < c->count, NULL);
	return c->entries[idx].knob;
}

RECLAIM_EXPORT const char *reclaim_sysctl_conf_file(const struct reclaim_sysctl_conf *c, size_t idx)
{
	assert_return(c && idx < c->count, NULL);
	return c->entries[idx].file;
}

RECLAIM_EXPORT unsigned int reclaim_sysctl_conf_line(const struct reclaim_sysctl_conf *c,
						     size_t idx)
{
	assert_return(c && idx < c->count, 0);
	return c->entries[idx].line;
}

RECLAIM_EXPORT const char *reclaim_sysctl_conf_key(const struct reclaim_sysctl_conf *c, size_t idx)
{
	assert_return(c && idx < c->count, NULL);
	return c->entries[idx].key;
}

RECLAIM_EXPORT const char *reclaim_sysctl_conf_value(const struct reclaim_sysctl_conf *c,
						     size_t idx)
{
	assert_return(c && idx < c->count, NULL);
	return c->entries[idx].value;
}

RECLAIM_EXPORT bool reclaim_sysctl_conf_is_glob(const struct reclaim_sysctl_conf *c, size_t idx)
{
	assert_return(c && idx < c->count, false);
	return c->entries[idx].glob;
}

RECLAIM_EXPORT bool reclaim_sysctl_conf_is_valid(const struct reclaim_sysctl_conf *c, size_t idx)
{
	assert_return(c && idx < c->count, false);
	return !c->entries[idx].invalid;
}

RECLAIM_EXPORT bool reclaim_sysctl_conf_wins(const struct reclaim_sysctl_conf *c, size_t idx)
{
	assert_return(c && idx < c->count, false);
	return c->entries[idx].wins;
}

RECLAIM_EXPORT bool reclaim_sysctl_conf_is_own(const struct reclaim_sysctl_conf *c, size_t idx)
{
	assert_return(c && idx < c->count, false);
	return c->entries[idx].own;
}

RECLAIM_EXPORT bool reclaim_sysctl_conf_is_tuned(const struct reclaim_sysctl_conf *c, size_t idx)
{
	assert_return(c && idx < c->count, false);
	return c->entries[idx].kind == CONF_TUNED;
}

RECLAIM_EXPORT const char *reclaim_sysctl_conf_kind(const struct reclaim_sysctl_conf *c, size_t idx)
{
	static const char *const names[] = {
	    [CONF_SYSCTL] = "sysctl",
	    [CONF_TUNED] = "tuned",
	    [CONF_TMPFILES] = "tmpfiles",
	    [CONF_CMDLINE] = "cmdline",
	};

	assert_return(c && idx < c->count, NULL);
	return names[c->entries[idx].kind];
}

RECLAIM_EXPORT const char *reclaim_sysctl_conf_tuned_profile(const struct reclaim_sysctl_conf *c)
{
	assert_return(c, NULL);
	return c->tuned.names;
}

RECLAIM_EXPORT bool reclaim_sysctl_conf_tuned_reapplies(const struct reclaim_sysctl_conf *c)
{
	assert_return(c, false);
	return c->tuned.names && c->tuned.reapply;
}

static ssize_t knob_index(const struct reclaim_knob *k)
{
	for (size_t i = 0; i < reclaim_knob_count(); i++)
		if (reclaim_knob_get(i) == k)
			return (ssize_t)i;
	return -1;
}

RECLAIM_EXPORT ssize_t reclaim_sysctl_conf_boot_entry(const struct reclaim_sysctl_conf *c,
						      const struct reclaim_knob *k)
{
	ssize_t i = knob_index(k);

	assert_return(c && i >= 0, -1);
	return c->boot[i];
}

RECLAIM_EXPORT ssize_t reclaim_sysctl_conf_admin_entry(const struct reclaim_sysctl_conf *c,
						       const struct reclaim_knob *k)
{
	ssize_t i = knob_index(k);

	assert_return(c && i >= 0, -1);
	return c->admin[i];
}

RECLAIM_EXPORT bool reclaim_sysctl_conf_overridden(const struct reclaim_sysctl_conf *c,
						   const struct reclaim_knob *k)
{
	ssize_t i = knob_index(k), boot;
	bool own = false;

	assert_return(c && i >= 0, false);
	boot = c->boot[i];
	for (size_t e = 0; e < reclaim_sysctl_conf_count(c) && !own; e++)
		own = reclaim_sysctl_conf_knob(c, e) == k && reclaim_sysctl_conf_is_own(c, e) &&
		      reclaim_sysctl_conf_value(c, e);
	return own && boot >= 0 && !reclaim_sysctl_conf_is_own(c, (size_t)boot);
}

RECLAIM_EXPORT size_t reclaim_sysctl_conf_problem_count(const struct reclaim_sysctl_conf *c)
{
	assert_return(c, 0);
	return c->nproblems;
}

RECLAIM_EXPORT const char *reclaim_sysctl_conf_problem_file(const struct reclaim_sysctl_conf *c,
							    size_t idx)
{
	assert_return(c && idx < c->nproblems, NULL);
	return c->problems[idx].file;
}

RECLAIM_EXPORT unsigned int reclaim_sysctl_conf_problem_line(const struct reclaim_sysctl_conf *c,
							     size_t idx)
{
	assert_return(c && idx < c->nproblems, 0);
	return c->problems[idx].line;
}

RECLAIM_EXPORT const struct reclaim_knob *
reclaim_sysctl_conf_problem_knob(const struct reclaim_sysctl_conf *c, size_t idx)
{
	assert_return(c && idx < c->nproblems, NULL);
	return c->problems[idx].knob;
}

RECLAIM_EXPORT const char *reclaim_sysctl_conf_problem_message(const struct reclaim_sysctl_conf *c,
							       size_t idx)
{
	assert_return(c && idx < c->nproblems, NULL);
	return c->problems[idx].message;
}
