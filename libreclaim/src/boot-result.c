// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /run/reclaimctl/boot: how the last "reclaimctl boot" ended, for status
 * --prometheus (an alert on a failed boot unit). Two "key=value" lines:
 * result (ok or failed) and time (CLOCK_REALTIME, SECONDS.NANOSECONDS as
 * in the history). Written
 * under the writers' lock, replaced atomically; like the history it lives
 * in /run, so it is forgotten at reboot.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define BOOT_RESULT RECLAIM_RUNDIR "/boot"

RECLAIM_EXPORT int reclaim_boot_result_save(struct reclaim_ctx *ctx, bool ok)
{
	_cleanup_free_ char *text = NULL;
	struct timespec now;
	int len;

	assert_return(ctx, -EINVAL);
	reclaim_error_reset(ctx);
	clock_gettime(CLOCK_REALTIME, &now);
	len = asprintf(&text, "result=%s\ntime=%lld.%09ld\n", ok ? "ok" : "failed",
		       (long long)now.tv_sec, now.tv_nsec);
	if (len < 0)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	return reclaim_write_run_file(ctx, BOOT_RESULT, text, (size_t)len);
}

/* SECONDS.NANOSECONDS (nine digits) to nanoseconds. */
static int parse_time(const char *s, int64_t *ns)
{
	const char *dot = strchr(s, '.');
	char whole[24];
	int64_t sec, frac;

	if (!dot || (size_t)(dot - s) >= sizeof(whole) || strlen(dot + 1) != 9)
		return -EINVAL;
	memcpy(whole, s, (size_t)(dot - s));
	whole[dot - s] = '\0';
	if (reclaim_parse_i64(whole, &sec) < 0 || reclaim_parse_i64(dot + 1, &frac) < 0 ||
	    sec < 0 || sec > INT64_MAX / 1000000000 - 1 || frac < 0)
		return -EINVAL;
	*ns = sec * 1000000000 + frac;
	return 0;
}

static int parse_result(struct reclaim_ctx *ctx, char *text, bool *ok, int64_t *time_ns)
{
	bool has_result = false, has_time = false;
	size_t lineno = 0;
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		lineno++;
		if (eq)
			*eq = '\0';
		if (eq && strcmp(line, "result") == 0 && !has_result &&
		    (strcmp(eq + 1, "ok") == 0 || strcmp(eq + 1, "failed") == 0)) {
			*ok = strcmp(eq + 1, "ok") == 0;
			has_result = true;
		} else if (eq && strcmp(line, "time") == 0 && !has_time &&
			   parse_time(eq + 1, time_ns) == 0) {
			has_time = true;
		} else {
			return reclaim_error(ctx, EBADMSG, "%s:%zu: malformed line", BOOT_RESULT,
					     lineno);
		}
	}
	if (!has_result || !has_time)
		return reclaim_error(ctx, EBADMSG, "%s: incomplete", BOOT_RESULT);
	return 0;
}

RECLAIM_EXPORT int reclaim_boot_result_load(struct reclaim_ctx *ctx, bool *ok, int64_t *time_ns)
{
	_cleanup_free_ char *text = NULL;
	int r;

	assert_return(ctx && ok && time_ns, -EINVAL);
	reclaim_error_reset(ctx);
	r = reclaim_read_run_file(ctx, BOOT_RESULT, &text);
	if (r < 0)
		return r;
	return parse_result(ctx, text, ok, time_ns);
}
