// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /etc/reclaimctl/reclaimctl.conf: what the boot unit applies, "preset =
 * NAME" ("off": nothing). Without the file, the default preset.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

/*
 * Every setting of the file. The message for an unknown one lists them,
 * and man/check-man.sh reads that list: reclaimctl.conf(5) must name each.
 */
static const char *const settings[] = {"preset"};

/* -EBADMSG: "FILE:N: unknown setting 'KEY' (known: A, B)". */
static int unknown_setting(struct reclaim_ctx *ctx, size_t n, const char *key)
{
	char known[128] = "";
	size_t len = 0;

	for (size_t i = 0; i < ARRAY_SIZE(settings) && len < sizeof(known); i++)
		len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s", i ? ", " : "",
					settings[i]);
	return reclaim_error(ctx, EBADMSG, "%s:%zu: unknown setting '%s' (known: %s)",
			     RECLAIM_BOOT_CONFIG, n, key, known);
}

/* One line: 0, or -EBADMSG with "FILE:N: problem". */
static int config_line(struct reclaim_ctx *ctx, char *line, size_t n, char **preset)
{
	char *key, *value, where[sizeof(RECLAIM_BOOT_CONFIG) + 24];
	int r = reclaim_kv_split(line, &key, &value);

	if (r == 0)
		return 0;
	if (r < 0)
		return reclaim_error(ctx, EBADMSG, "%s:%zu: expected \"preset = NAME\"",
				     RECLAIM_BOOT_CONFIG, n);
	/* preset, the one setting so far */
	if (strcmp(key, settings[0]) != 0)
		return unknown_setting(ctx, n, key);
	if (!value[0])
		return reclaim_error(ctx, EBADMSG, "%s:%zu: preset needs a name (or off)",
				     RECLAIM_BOOT_CONFIG, n);
	snprintf(where, sizeof(where), "%s:%zu: ", RECLAIM_BOOT_CONFIG, n);
	if (strcmp(value, RECLAIM_BOOT_PRESET_OFF) != 0 &&
	    (r = reclaim_preset_check_name(ctx, value, EBADMSG, where)) < 0)
		return r;
	free(*preset);
	*preset = strdup(value);
	return *preset ? 0 : reclaim_error(ctx, ENOMEM, "out of memory");
}

RECLAIM_EXPORT int reclaim_boot_preset(struct reclaim_ctx *ctx, char **ret)
{
	_cleanup_free_ char *text = NULL;
	char *preset = NULL, *line, *next;
	size_t n = 0;
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	r = reclaim_read_file(ctx, RECLAIM_BOOT_CONFIG, &text, NULL);
	if (r < 0 && r != -ENOENT)
		return reclaim_error(ctx, -r, "cannot read %s: %s", RECLAIM_BOOT_CONFIG,
				     reclaim_read_strerror(r));
	for (line = text, r = 0; line && *line && r == 0; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		r = config_line(ctx, line, ++n, &preset);
	}
	if (r == 0 && !preset && !(preset = strdup(RECLAIM_BOOT_DEFAULT_PRESET)))
		r = reclaim_error(ctx, ENOMEM, "out of memory");
	if (r < 0) {
		free(preset);
		return r;
	}
	*ret = preset;
	return 0;
}
