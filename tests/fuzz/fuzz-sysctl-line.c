// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One line of a sysctl.d file. An assignment printed back as "[-]key = value"
 * parses to the same key, path, value and '-'; an exclusion as "-key".
 */
#include "fuzz.h"
#include "sysctl-internal.h"

static void same(const struct sysctl_line *a, const char *text)
{
	struct sysctl_line b = {0};

	fuzz_check(reclaim_sysctl_parse_line(text, strlen(text), &b) == 0, "\"%s\"", text);
	fuzz_check(b.kind == a->kind, "\"%s\": kind %d, not %d", text, b.kind, a->kind);
	fuzz_check(b.ignore_failure == a->ignore_failure, "\"%s\": '-'", text);
	fuzz_check(strcmp(b.key, a->key) == 0, "\"%s\": key \"%s\", not \"%s\"", text, b.key,
		   a->key);
	fuzz_check(strcmp(b.path, a->path) == 0, "\"%s\": path \"%s\", not \"%s\"", text, b.path,
		   a->path);
	fuzz_check((!a->value && !b.value) || (a->value && b.value && !strcmp(a->value, b.value)),
		   "\"%s\": value \"%s\", not \"%s\"", text, b.value, a->value);
	reclaim_sysctl_line_clear(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sysctl_line l = {0};
	char *text = NULL;

	fuzz_check(reclaim_sysctl_parse_line((const char *)data, size, &l) == 0, "-ENOMEM");
	/* Printed back only what a line can hold: no NUL, no newline. */
	if (!memchr(data, '\0', size) && !memchr(data, '\n', size)) {
		if (l.kind == SYSCTL_LINE_ASSIGN &&
		    asprintf(&text, "%s%s = %s", l.ignore_failure ? "-" : "", l.key, l.value) > 0)
			same(&l, text);
		else if (l.kind == SYSCTL_LINE_EXCLUDE && asprintf(&text, "-%s", l.key) > 0)
			same(&l, text);
	}
	if (l.kind == SYSCTL_LINE_INVALID)
		fuzz_check(l.problem && l.problem[0], "invalid, and no problem named");
	free(text);
	reclaim_sysctl_line_clear(&l);
	return 0;
}
