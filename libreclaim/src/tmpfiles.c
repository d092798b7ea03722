// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tmpfiles.d line syntax, as systemd-tmpfiles reads it (tmpfiles.d(5)
 * and src/tmpfiles/tmpfiles.c of systemd 256), for the lines that write
 * knobs of sysfs: "w[MODIFIERS] PATH MODE USER GROUP AGE ARGUMENT".
 *
 * - Whitespace around a line is dropped; empty lines and lines starting
 *   with '#' are comments.
 * - The first six fields are words separated by whitespace, quotes removed;
 *   the argument is the rest of the line, "-" or nothing for none.
 * - Modifiers after the type: '!' (only at boot), '-' (a failure is
 *   ignored), '+' (append), '=', '~' (the argument is base64), '^' (the
 *   argument names a credential), '$', '?'. Each of them at most once.
 * - The argument of 'w' has its C escapes and '%' specifiers expanded: this
 *   reader expands the escapes and "%%", and leaves a line with another
 *   specifier (or with '~' or '^') unread: its value depends on the machine.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "sysctl-internal.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* The next word of *p, its quotes removed; NULL at the end. */
static char *next_word(const char **p, int *err)
{
	const char *s = *p;
	char *out, *o;
	char quote = 0;

	while (is_space(*s))
		s++;
	if (!*s) {
		*p = s;
		return NULL;
	}
	out = o = malloc(strlen(s) + 1);
	if (!out) {
		*err = -ENOMEM;
		return NULL;
	}
	for (; *s && (quote || !is_space(*s)); s++) {
		if (quote && *s == quote)
			quote = 0;
		else if (!quote && (*s == '"' || *s == '\''))
			quote = *s;
		else
			*o++ = *s;
	}
	*o = '\0';
	if (quote) {
		free(out);
		*err = -EBADMSG;
		return NULL;
	}
	*p = s;
	return out;
}

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* cunescape() of the escapes a value can hold, and "%%"; -EBADMSG for anything else. */
static int unescape(char *s)
{
	static const char plain[] = "\\\\\"\"''n\nt\tr\ra\ab\bf\fv\v";
	char *o = s;

	for (; *s; s++) {
		if (*s == '%') {
			if (s[1] != '%')
				return -EBADMSG;
			*o++ = *++s;
			continue;
		}
		if (*s != '\\') {
			*o++ = *s;
			continue;
		}
		s++;
		if (*s == 'x' && hex(s[1]) >= 0 && hex(s[2]) >= 0 && (hex(s[1]) || hex(s[2]))) {
			*o++ = (char)(hex(s[1]) * 16 + hex(s[2]));
			s += 2;
			continue;
		}
		for (size_t i = 0; *s && plain[i]; i += 2)
			if (plain[i] == *s) {
				*o++ = plain[i + 1];
				goto next;
			}
		return -EBADMSG;
	next:;
	}
	*o = '\0';
	return 0;
}

static int modifiers(struct tmpfiles_line *l, const char *m)
{
	for (; *m; m++) {
		const char *known = strchr("!-+=~^$?", *m);

		if (!known || strchr(m + 1, *m))
			return -EBADMSG;
		l->boot |= *m == '!';
		l->allow_failure |= *m == '-';
		l->unreadable |= *m == '~' || *m == '^';
	}
	return 0;
}

int reclaim_tmpfiles_parse_line(const char *line, size_t len, struct tmpfiles_line *l)
{
	_cleanup_free_ char *copy = strndup(line, len), *mode = NULL, *user = NULL, *group = NULL,
			    *age = NULL;
	char *end;
	const char *p;
	int err = 0;

	*l = (struct tmpfiles_line){0};
	if (!copy)
		return -ENOMEM;
	p = copy;
	while (is_space(*p))
		p++;
	end = copy + strlen(copy);
	while (end > p && is_space(end[-1]))
		*--end = '\0';
	if (!*p || *p == '#') {
		l->blank = true;
		return 0;
	}
	l->type = next_word(&p, &err);
	l->path = l->type ? next_word(&p, &err) : NULL;
	if (err == -ENOMEM)
		return err;
	if (!l->type || !l->path) {
		l->problem = err ? "unbalanced quotes" : "too few fields";
		return 0;
	}
	mode = next_word(&p, &err);
	user = mode ? next_word(&p, &err) : NULL;
	group = user ? next_word(&p, &err) : NULL;
	age = group ? next_word(&p, &err) : NULL;
	if (err == -ENOMEM)
		return err;
	if (err) {
		l->problem = "unbalanced quotes";
		return 0;
	}
	while (is_space(*p))
		p++;
	if (age && *p && strcmp(p, "-") != 0) {
		l->argument = strdup(p);
		if (!l->argument)
			return -ENOMEM;
	}
	if (modifiers(l, l->type + 1) < 0) {
		l->problem = "unknown modifiers";
		return 0;
	}
	if (l->path[0] != '/') {
		l->problem = "a path that is not absolute";
		return 0;
	}
	if (strchr(l->path, '%')) {
		l->problem = "a specifier in the path, which reclaimctl does not expand";
		return 0;
	}
	reclaim_path_simplify(l->path, true);
	if (l->type[0] == 'w' && !l->argument)
		l->problem = "a 'w' line without an argument";
	else if (l->type[0] == 'w' && l->unreadable)
		l->problem =
		    "an argument in base64 or a credential, which reclaimctl does not read";
	else if (l->type[0] == 'w' && unescape(l->argument) < 0)
		l->problem =
		    "an escape or specifier in the argument that reclaimctl does not expand";
	return 0;
}

void reclaim_tmpfiles_line_clear(struct tmpfiles_line *l)
{
	free(l->type);
	free(l->path);
	free(l->argument);
	*l = (struct tmpfiles_line){0};
}

bool reclaim_tmpfiles_matches(const struct tmpfiles_line *l, const struct reclaim_knob *k)
{
	if (reclaim_knob_sysctl(k))
		return false;
	if (reclaim_tmpfiles_is_glob(l->path))
		return fnmatch(l->path, reclaim_knob_path(k), FNM_PATHNAME | FNM_PERIOD) == 0;
	return strcmp(l->path, reclaim_knob_path(k)) == 0;
}

bool reclaim_tmpfiles_is_glob(const char *path)
{
	return strpbrk(path, "*?[") != NULL;
}
