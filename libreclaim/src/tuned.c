// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tuned's active profile as a writer of knobs: the [sysctl] values of the
 * profiles /etc/tuned/active_profile names, merged as tuned 2.20 (Debian
 * 12) merges them (tuned/profiles/loader.py, merger.py, locator.py):
 *
 * - active_profile holds one name or several, separated by blanks; names
 *   that are not [A-Za-z0-9_.-]+ are dropped, as tuned drops them.
 * - A name is looked up as DIR/NAME/tuned.conf in /etc/tuned/profiles,
 *   /etc/tuned, /usr/lib/tuned/profiles, /usr/lib/tuned, the first found
 *   wins; a file read already is passed over, so /etc/tuned/X may include=X
 *   to extend the shipped X. "-NAME" may be missing.
 * - [main] include=A,B (',' or ';') loads A and B first; the including
 *   profile's values override theirs. Of several active profiles, the later
 *   overrides. A unit's replace=1 drops the values before it, drop=K1,K2
 *   some of them, enabled=0 disables the unit.
 * - The file is Python's ConfigParser's: [section] headers, KEY = VALUE,
 *   whole-line '#' and ';' comments, " #" starts an inline comment, an
 *   indented line continues the value above. Anything else makes tuned
 *   refuse the profile, and so it is an error here, naming FILE:LINE.
 *
 * Where tuned would silently pass over an include of a profile that is
 * being loaded (a cycle), the result depends on the order and is an error
 * here. Of tuned's ${...} expansions, ${NAME} of a [variables] section of
 * the chain is supported in a knob's value; functions (${f:...}), variables
 * from a file (include= in [variables]) and any ${ in include= are errors.
 * Units other than [sysctl] itself (such as [sysctl.thunderx], applied only
 * on matching hardware) are not read.
 */
#include <errno.h>
#include <string.h>

#include "sysctl-internal.h"

#define TUNED_ACTIVE "/etc/tuned/active_profile"
#define TUNED_MAIN   "/etc/tuned/tuned-main.conf"
#define TUNED_DEPTH  32

static const char *const profile_dirs[] = {
    "/etc/tuned/profiles",
    "/etc/tuned",
    "/usr/lib/tuned/profiles",
    "/usr/lib/tuned",
};

/* An option of a section, or one of the merged profile. */
struct option {
	char *key, *value, *file;
	unsigned int line;
	bool continued; /* an indented line added to the value */
};

struct options {
	struct option *v;
	size_t n;
};

/* One tuned.conf as read. */
struct file {
	char *path;
	struct options sysctl, vars;
	char *include;
	unsigned int include_line;
	bool has_sysctl, replace, has_enabled, enabled;
	char *drop;
};

struct loader {
	struct reclaim_ctx *ctx;
	struct tuned_profile *t;
	struct options sysctl, vars; /* merged */
	bool enabled;
	char **seen; /* the files read, in order */
	size_t nseen;
	const char *stack[TUNED_DEPTH]; /* the files being loaded */
	size_t depth;
};

static void option_clear(struct option *o)
{
	free(o->key);
	free(o->value);
	free(o->file);
}

static void options_clear(struct options *o)
{
	for (size_t i = 0; i < o->n; i++)
		option_clear(&o->v[i]);
	free(o->v);
	*o = (struct options){0};
}

static void file_clear(struct file *f)
{
	free(f->path);
	options_clear(&f->sysctl);
	options_clear(&f->vars);
	free(f->include);
	free(f->drop);
}

static ssize_t options_find(const struct options *o, const char *key)
{
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->v[i].key, key) == 0)
			return (ssize_t)i;
	return -1;
}

static void options_remove(struct options *o, size_t i)
{
	option_clear(&o->v[i]);
	memmove(&o->v[i], &o->v[i + 1], (o->n - i - 1) * sizeof(*o->v));
	o->n--;
}

/* Sets @key (a later value replaces an earlier one in its place, as in a dict). */
static int options_set(struct options *o, const char *key, const char *value, const char *file,
		       unsigned int line)
{
	ssize_t at = options_find(o, key);
	struct option n = {
	    .key = strdup(key), .value = strdup(value), .file = strdup(file), .line = line};

	if (!n.key || !n.value || !n.file) {
		option_clear(&n);
		return -ENOMEM;
	}
	if (at >= 0) {
		option_clear(&o->v[at]);
		o->v[at] = n;
		return 0;
	}
	struct option *v = realloc(o->v, (o->n + 1) * sizeof(*v));

	if (!v) {
		option_clear(&n);
		return -ENOMEM;
	}
	o->v = v;
	o->v[o->n++] = n;
	return 0;
}

__attribute__((format(printf, 4, 5))) static int fail(struct loader *l, const char *file,
						      unsigned int line, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int r;

	if (l->t->error)
		return -EINVAL;
	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	l->t->error = msg;
	l->t->error_line = line;
	l->t->error_file = strdup(file);
	return l->t->error_file ? -EINVAL : -ENOMEM;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool parse_bool(const char *s)
{
	static const char *const yes[] = {"1", "true", "yes", "y", "on"};

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		if (strcasecmp(s, yes[i]) == 0)
			return true;
	return false;
}

/* s[0..len) without blanks around and without a " #" comment. */
static char *clean_dup(const char *s, size_t len)
{
	char *d;

	for (size_t i = 1; i < len; i++)
		if (s[i] == '#' && is_blank(s[i - 1])) {
			len = i;
			break;
		}
	d = strndup(s, len);
	if (d) {
		char *t = reclaim_trim(d);

		memmove(d, t, strlen(t) + 1);
	}
	return d;
}

enum section { SEC_OTHER, SEC_MAIN, SEC_SYSCTL, SEC_VARIABLES };

static enum section section_of(const char *name)
{
	if (strcmp(name, "main") == 0)
		return SEC_MAIN;
	if (strcmp(name, "sysctl") == 0)
		return SEC_SYSCTL;
	if (strcmp(name, "variables") == 0)
		return SEC_VARIABLES;
	return SEC_OTHER;
}

/* The options of the unit itself, not sysctl names (tuned/profiles/unit.py). */
static bool is_unit_option(const char *key)
{
	static const char *const names[] = {
	    "type",	"devices",     "devices_udev_regex", "enabled",	   "replace",	 "drop",
	    "priority", "uname_regex", "cpuinfo_regex",	     "script_pre", "script_post"};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strcmp(key, names[i]) == 0)
			return true;
	return false;
}

static int take_option(struct file *f, enum section sec, const char *key, const char *value,
		       unsigned int line)
{
	char **slot = NULL;

	switch (sec) {
	case SEC_MAIN:
		if (strcmp(key, "include") != 0)
			return 0;
		f->include_line = line;
		slot = &f->include;
		break;
	case SEC_VARIABLES:
		if (strcmp(key, "include") == 0)
			return 0; /* a file of variables: not read (see above) */
		return options_set(&f->vars, key, value, f->path, line);
	case SEC_SYSCTL:
		if (strcmp(key, "replace") == 0) {
			f->replace = parse_bool(value);
		} else if (strcmp(key, "enabled") == 0) {
			f->has_enabled = true;
			f->enabled = parse_bool(value);
		} else if (strcmp(key, "drop") == 0) {
			slot = &f->drop;
		} else if (!is_unit_option(key)) {
			return options_set(&f->sysctl, key, value, f->path, line);
		}
		break;
	default:
		return 0;
	}
	if (!slot)
		return 0;
	free(*slot);
	*slot = strdup(value);
	return *slot ? 0 : -ENOMEM;
}

/* The option a continuation line belongs to, to mark it. */
static struct option *last_option(struct file *f, enum section sec, const char *key)
{
	struct options *o = sec == SEC_SYSCTL ? &f->sysctl : sec == SEC_VARIABLES ? &f->vars : NULL;
	ssize_t at = o && key ? options_find(o, key) : -1;

	return at >= 0 ? &o->v[at] : NULL;
}

static int parse_file(struct loader *l, struct file *f, const char *text)
{
	enum section sec = SEC_OTHER;
	_cleanup_free_ char *last_key = NULL;
	bool in_section = false;
	unsigned int lineno = 0;
	int r = 0;

	for (const char *p = text; *p && r == 0;) {
		size_t len = strcspn(p, "\n"), lead = 0;
		_cleanup_free_ char *key = NULL, *value = NULL;
		const char *eq, *s = p;

		p += len + (p[len] == '\n');
		lineno++;
		while (lead < len && is_blank(s[lead]))
			lead++;
		if (lead == len || s[lead] == '#' || s[lead] == ';')
			continue;
		if (lead > 0 && last_key) {
			struct option *o = last_option(f, sec, last_key);

			if (o)
				o->continued = true;
			continue;
		}
		value = clean_dup(s, len);
		if (!value)
			return -ENOMEM;
		if (value[0] == '[') {
			char *end = strrchr(value, ']');

			if (!end || end == value + 1)
				return fail(l, f->path, lineno, "%s: not a [section] header",
					    value);
			*end = '\0';
			sec = section_of(value + 1);
			f->has_sysctl = f->has_sysctl || sec == SEC_SYSCTL;
			in_section = true;
			free(last_key);
			last_key = NULL;
			continue;
		}
		if (!in_section)
			return fail(l, f->path, lineno,
				    "'%s' comes before any [section]; tuned refuses the profile",
				    value);
		eq = strchr(value, '=');
		if (!eq)
			return fail(l, f->path, lineno,
				    "'%s' is not KEY = VALUE; tuned refuses the profile", value);
		key = clean_dup(value, (size_t)(eq - value));
		if (!key)
			return -ENOMEM;
		if (!key[0])
			return fail(l, f->path, lineno,
				    "'%s' has no key; tuned refuses the profile", value);
		eq++;
		while (is_blank(*eq))
			eq++;
		r = take_option(f, sec, key, eq, lineno);
		free(last_key);
		last_key = key;
		key = NULL;
	}
	return r;
}

/* DIR/NAME/tuned.conf of the first directory that has it and was not read yet; NULL if none. */
static char *locate(struct loader *l, const char *name, bool *passed)
{
	*passed = false;
	for (size_t i = 0; i < ARRAY_SIZE(profile_dirs); i++) {
		char *path;
		struct stat st;
		bool seen = false;

		if (asprintf(&path, "%s/%s/tuned.conf", profile_dirs[i], name) < 0)
			return NULL;
		for (size_t j = 0; j < l->nseen && !seen; j++)
			seen = strcmp(l->seen[j], path) == 0;
		if (seen) {
			*passed = true;
		} else if (reclaim_stat(l->ctx, path, 0, &st) == 0 && S_ISREG(st.st_mode)) {
			return path;
		}
		free(path);
	}
	return NULL;
}

/* Whether a file for @name is being loaded, below in the chain. */
static const char *loading(const struct loader *l, const char *name)
{
	for (size_t i = 0; i < l->depth; i++) {
		const char *dir = strrchr(l->stack[i], '/'), *start = dir;

		while (start > l->stack[i] && start[-1] != '/')
			start--;
		if ((size_t)(dir - start) == strlen(name) &&
		    strncmp(start, name, strlen(name)) == 0)
			return l->stack[i];
	}
	return NULL;
}

static int merge(struct loader *l, const struct file *f)
{
	int r = 0;

	for (size_t i = 0; i < f->vars.n && r == 0; i++)
		r = options_set(&l->vars, f->vars.v[i].key, f->vars.v[i].value, f->path,
				f->vars.v[i].line);
	if (!f->has_sysctl || r < 0)
		return r;
	if (f->replace)
		options_clear(&l->sysctl);
	if (f->has_enabled)
		l->enabled = f->enabled;
	if (f->drop) {
		_cleanup_free_ char *list = strdup(f->drop);
		char *save = NULL;

		if (!list)
			return -ENOMEM;
		for (char *k = strtok_r(list, ",; \t", &save); k;
		     k = strtok_r(NULL, ",; \t", &save)) {
			ssize_t at = options_find(&l->sysctl, k);

			if (at >= 0)
				options_remove(&l->sysctl, (size_t)at);
		}
	}
	for (size_t i = 0; i < f->sysctl.n && r == 0; i++) {
		const struct option *o = &f->sysctl.v[i];

		r = options_set(&l->sysctl, o->key, o->value, f->path, o->line);
		if (r == 0 && o->continued)
			l->sysctl.v[options_find(&l->sysctl, o->key)].continued = true;
	}
	return r;
}

static int load_names(struct loader *l, const char *list, const char *from, unsigned int line);

/* One profile: its includes first, then itself over them. */
static int load(struct loader *l, const char *name, const char *from, unsigned int line)
{
	_cleanup_free_ char *text = NULL;
	struct file f = {0};
	bool optional = name[0] == '-', passed;
	const char *base, *parent;
	char **seen;
	int r;

	if (optional)
		name++;
	base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	if (!base[0])
		return 0;
	f.path = locate(l, base, &passed);
	if (!f.path) {
		if ((parent = loading(l, base)))
			return fail(l, from, line,
				    "include=%s: %s is being loaded already (a cycle of include=)",
				    name, parent);
		if (optional || passed)
			return 0;
		return fail(
		    l, from, line,
		    "no tuned profile '%s' in /etc/tuned or /usr/lib/tuned (no %s/tuned.conf)",
		    base, base);
	}
	if (l->depth == TUNED_DEPTH) {
		r = fail(l, from, line, "include=%s: more than %d profiles deep", name,
			 TUNED_DEPTH);
		goto out;
	}
	seen = realloc(l->seen, (l->nseen + 1) * sizeof(*seen));
	r = seen ? 0 : -ENOMEM;
	if (r < 0)
		goto out;
	l->seen = seen;
	l->seen[l->nseen] = strdup(f.path);
	if (!l->seen[l->nseen]) {
		r = -ENOMEM;
		goto out;
	}
	l->nseen++;
	r = reclaim_read_file(l->ctx, f.path, &text, NULL);
	if (r == -ENOMEM)
		goto out;
	if (r < 0) {
		r = fail(l, f.path, 0, "cannot read: %s", reclaim_read_strerror(r));
		goto out;
	}
	r = parse_file(l, &f, text);
	if (r == 0 && f.include) {
		if (strstr(f.include, "${")) {
			r = fail(l, f.path, f.include_line,
				 "include=%s: tuned's ${...} expansions in include= are not "
				 "supported",
				 f.include);
			goto out;
		}
		l->stack[l->depth++] = f.path;
		r = load_names(l, f.include, f.path, f.include_line);
		l->depth--;
	}
	if (r == 0)
		r = merge(l, &f);
out:
	file_clear(&f);
	return r;
}

/* The profiles of @list, separated by ',' or ';' (include=) or blanks (active_profile). */
static int load_names(struct loader *l, const char *list, const char *from, unsigned int line)
{
	_cleanup_free_ char *copy = strdup(list);
	char *save = NULL;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	for (char *n = strtok_r(copy, ",; \t\r\n", &save); n && r == 0;
	     n = strtok_r(NULL, ",; \t\r\n", &save))
		r = load(l, n, from, line);
	return r;
}

static bool is_safe_name(const char *s)
{
	return s[0] &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
		   strlen(s);
}

/* ${NAME} of the merged [variables] in @value; a copy, or NULL and the error set. */
static char *expand(struct loader *l, const struct option *o, int *r)
{
	const char *p = o->value, *open;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	*r = -ENOMEM;
	if (!f)
		return NULL;
	while ((open = strstr(p, "${"))) {
		const char *close = strchr(open, '}');
		_cleanup_free_ char *name = NULL;
		ssize_t at;

		fwrite(p, 1, (size_t)(open - p), f);
		name = close ? strndup(open + 2, (size_t)(close - open - 2)) : NULL;
		at = name ? options_find(&l->vars, name) : -1;
		if (at < 0 || strstr(l->vars.v[at].value, "${")) {
			fclose(f);
			free(out);
			*r = name || !close
				 ? fail(l, o->file, o->line, "%s = %s: %s%s%s", o->key, o->value,
					name && strchr(name, ':')
					    ? "tuned's ${...} functions are not supported"
					    : "no such variable in a [variables] section",
					name ? ": " : "", name ? name : "")
				 : -ENOMEM;
			return NULL;
		}
		fputs(l->vars.v[at].value, f);
		p = close + 1;
	}
	fputs(p, f);
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	*r = 0;
	return out;
}

/* The merged [sysctl] values that set knobs of the table. */
static int collect(struct loader *l)
{
	struct tuned_profile *t = l->t;

	if (!l->enabled)
		return 0;
	for (size_t i = 0; i < l->sysctl.n; i++) {
		const struct option *o = &l->sysctl.v[i];
		_cleanup_free_ char *path = strdup(o->key);
		const struct reclaim_knob *k;
		struct tuned_value *v;
		int r;

		if (!path)
			return -ENOMEM;
		k = reclaim_sysctl_knob_by_path(reclaim_sysctl_normalize(path));
		if (!k)
			continue;
		if (o->continued)
			return fail(l, o->file, o->line,
				    "%s: a value on several lines; tuned writes none of it",
				    o->key);
		v = realloc(t->values, (t->count + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		t->values = v;
		v = &v[t->count];
		*v = (struct tuned_value){.knob = k, .line = o->line};
		v->value = expand(l, o, &r);
		if (!v->value)
			return r;
		v->file = strdup(o->file);
		v->key = strdup(o->key);
		t->count++;
		if (!v->file || !v->key)
			return -ENOMEM;
	}
	return 0;
}

/* tuned-main.conf's reapply_sysctl: on unless it says otherwise. */
static int read_main(struct loader *l)
{
	_cleanup_free_ char *text = NULL;
	int r = reclaim_read_file(l->ctx, TUNED_MAIN, &text, NULL);

	l->t->reapply = true;
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		struct reclaim_kv_span kv;

		if (reclaim_kv_span(p, len, RECLAIM_KV_INLINE_COMMENT, &kv) == RECLAIM_KV_PAIR &&
		    kv.key_len == strlen("reapply_sysctl") &&
		    strncmp(kv.key, "reapply_sysctl", kv.key_len) == 0) {
			_cleanup_free_ char *v = strndup(kv.value, kv.value_len);

			if (!v)
				return -ENOMEM;
			l->t->reapply = parse_bool(v);
		}
		p += len + (p[len] == '\n');
	}
	return 0;
}

int reclaim_tuned_read(struct reclaim_ctx *ctx, struct tuned_profile *t)
{
	struct loader l = {.ctx = ctx, .t = t, .enabled = true};
	_cleanup_free_ char *text = NULL;
	FILE *names;
	size_t len = 0;
	int r;

	*t = (struct tuned_profile){0};
	r = reclaim_read_file(ctx, TUNED_ACTIVE, &text, NULL);
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return fail(&l, TUNED_ACTIVE, 0, "cannot read: %s", reclaim_read_strerror(r)) ==
			       -ENOMEM
			   ? -ENOMEM
			   : 0;
	/* the safe names, as tuned keeps them */
	names = open_memstream(&t->names, &len);
	if (!names)
		return -ENOMEM;
	for (char *save = NULL, *n = strtok_r(text, " \t\r\n", &save); n;
	     n = strtok_r(NULL, " \t\r\n", &save))
		if (is_safe_name(n))
			fprintf(names, "%s%s", ftell(names) > 0 ? " " : "", n);
	if (fclose(names) != 0)
		return -ENOMEM;
	if (!t->names[0]) {
		t->names = (free(t->names), NULL);
		return 0;
	}
	r = read_main(&l);
	if (r == 0)
		r = load_names(&l, t->names, TUNED_ACTIVE, 1);
	if (r == 0)
		r = collect(&l);
	options_clear(&l.sysctl);
	options_clear(&l.vars);
	for (size_t i = 0; i < l.nseen; i++)
		free(l.seen[i]);
	free(l.seen);
	if (r == -EINVAL) {
		/* what could be read is not what tuned applies: nothing of it counts */
		for (size_t i = 0; i < t->count; i++) {
			free(t->values[i].file);
			free(t->values[i].key);
			free(t->values[i].value);
		}
		t->count = 0;
		return 0;
	}
	return r;
}

void reclaim_tuned_clear(struct tuned_profile *t)
{
	for (size_t i = 0; i < t->count; i++) {
		free(t->values[i].file);
		free(t->values[i].key);
		free(t->values[i].value);
	}
	free(t->values);
	free(t->names);
	free(t->error);
	free(t->error_file);
	*t = (struct tuned_profile){0};
}
