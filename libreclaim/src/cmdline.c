// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The kernel command line's parameters, split as the kernel's next_arg()
 * (lib/cmdline.c) splits them: words separated by spaces, double quotes
 * keeping spaces in a word and removed, "--" ending the kernel's part (the
 * rest goes to init). In a parameter's name '-' and '_' are the same.
 */
#include <errno.h>
#include <string.h>

#include "sysctl-internal.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* "zswap.max-pool-percent" and "zswap.max_pool_percent" are one parameter. */
bool reclaim_cmdline_param_is(const char *name, const char *param)
{
	for (; *name && *param; name++, param++)
		if (*name != *param && !(strchr("-_", *name) && strchr("-_", *param)))
			return false;
	return *name == *param;
}

int reclaim_cmdline_foreach(const char *text, cmdline_fn fn, void *data)
{
	_cleanup_free_ char *word = malloc(strlen(text) + 1);
	const char *p = text;
	int r = 0;

	if (!word)
		return -ENOMEM;
	while (r == 0) {
		bool quoted = false;
		char *o = word, *eq;

		while (is_space(*p))
			p++;
		if (!*p)
			break;
		for (; *p && (quoted || !is_space(*p)); p++)
			if (*p == '"')
				quoted = !quoted;
			else
				*o++ = *p;
		*o = '\0';
		if (strcmp(word, "--") == 0)
			break;
		eq = strchr(word, '=');
		if (eq)
			*eq = '\0';
		r = fn(data, word, eq ? eq + 1 : NULL);
	}
	return r;
}
