// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one "KEY = VALUE" line splitter, for the sysctl.d files (and so the
 * persisted values), the presets and reclaimctl.conf. The files differ only
 * in their comments: sysctl.d has whole-line "#" and ";" comments,
 * reclaimctl's own files also a "#" after a value.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* s[0..*len) without blanks around: the new start, *len updated. */
static const char *trim_span(const char *s, size_t *len)
{
	while (*len > 0 && is_blank(*s)) {
		s++;
		(*len)--;
	}
	while (*len > 0 && is_blank(s[*len - 1]))
		(*len)--;
	return s;
}

enum reclaim_kv reclaim_kv_span(const char *s, size_t len, unsigned int flags,
				struct reclaim_kv_span *kv)
{
	const char *eq;

	*kv = (struct reclaim_kv_span){0};
	if (flags & RECLAIM_KV_INLINE_COMMENT) {
		const char *hash = memchr(s, '#', len);

		if (hash)
			len = (size_t)(hash - s);
	}
	s = trim_span(s, &len);
	if (len == 0 || s[0] == '#' || ((flags & RECLAIM_KV_SEMICOLON) && s[0] == ';'))
		return RECLAIM_KV_BLANK;
	kv->key = s;
	kv->key_len = len;
	eq = memchr(s, '=', len);
	if (!eq)
		return RECLAIM_KV_NO_EQUALS;
	kv->key_len = (size_t)(eq - s);
	kv->key = trim_span(s, &kv->key_len);
	kv->value_len = len - (size_t)(eq + 1 - s);
	kv->value = trim_span(eq + 1, &kv->value_len);
	return RECLAIM_KV_PAIR;
}

char *reclaim_trim(char *s)
{
	size_t len = strlen(s);
	char *start = (char *)trim_span(s, &len);

	start[len] = '\0';
	return start;
}

int reclaim_kv_split(char *line, char **key, char **value)
{
	struct reclaim_kv_span kv;
	enum reclaim_kv r = reclaim_kv_span(line, strlen(line), RECLAIM_KV_INLINE_COMMENT, &kv);

	if (r == RECLAIM_KV_BLANK)
		return 0;
	*key = (char *)kv.key;
	(*key)[kv.key_len] = '\0';
	if (r == RECLAIM_KV_NO_EQUALS)
		return -EINVAL;
	*value = (char *)kv.value;
	(*value)[kv.value_len] = '\0';
	return 1;
}
