// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /run/reclaimctl/adapt: what a running adapt daemon started from, so that
 * a stop after it died (kill -9, a crash) can put the baseline back. One
 * "key=value" per line: pid, baseline, threads (the last value it wrote).
 * Written under the writers' lock, replaced atomically.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define ADAPT_STATE RECLAIM_ADAPT_STATE_FILE

static char *state_text(pid_t pid, int64_t baseline, int64_t threads, int *len)
{
	char *text;

	*len = asprintf(&text, "pid=%ld\nbaseline=%lld\nthreads=%lld\n", (long)pid,
			(long long)baseline, (long long)threads);
	return *len < 0 ? NULL : text;
}

int reclaim_adapt_state_save_locked(struct reclaim_ctx *ctx, pid_t pid, int64_t baseline,
				    int64_t threads)
{
	int len;
	_cleanup_free_ char *text = state_text(pid, baseline, threads, &len);

	if (!text)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	return reclaim_write_run_file_locked(ctx, ADAPT_STATE, text, (size_t)len);
}

RECLAIM_EXPORT int reclaim_adapt_state_save(struct reclaim_ctx *ctx, pid_t pid, int64_t baseline,
					    int64_t threads)
{
	int len;
	_cleanup_free_ char *text = NULL;

	assert_return(ctx && pid > 0, -EINVAL);
	reclaim_error_reset(ctx);
	text = state_text(pid, baseline, threads, &len);
	if (!text)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	return reclaim_write_run_file(ctx, ADAPT_STATE, text, (size_t)len);
}

static int parse_state(struct reclaim_ctx *ctx, char *text, pid_t *pid, int64_t *baseline,
		       int64_t *threads)
{
	bool has[3] = {false};
	size_t lineno = 0;
	char *save = NULL;
	int64_t v[3];

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		static const char *const keys[] = {"pid", "baseline", "threads"};
		char *eq = strchr(line, '=');
		size_t k;

		lineno++;
		if (!eq)
			return reclaim_error(ctx, EBADMSG, "%s:%zu: malformed line", ADAPT_STATE,
					     lineno);
		*eq = '\0';
		for (k = 0; k < ARRAY_SIZE(keys) && strcmp(keys[k], line) != 0; k++)
			;
		if (k == ARRAY_SIZE(keys) || has[k] || reclaim_parse_i64(eq + 1, &v[k]) < 0)
			return reclaim_error(ctx, EBADMSG, "%s:%zu: malformed line", ADAPT_STATE,
					     lineno);
		has[k] = true;
	}
	if (!has[0] || !has[1] || !has[2] || v[0] <= 0 || v[0] > RECLAIM_PID_MAX)
		return reclaim_error(ctx, EBADMSG, "%s: incomplete", ADAPT_STATE);
	*pid = (pid_t)v[0];
	*baseline = v[1];
	*threads = v[2];
	return 0;
}

int reclaim_adapt_state_parse(struct reclaim_ctx *ctx, char *text, pid_t *pid, int64_t *baseline,
			      int64_t *threads)
{
	int r = parse_state(ctx, text, pid, baseline, threads);

	if (r == 0) {
		const struct reclaim_knob *k = reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS);

		if (reclaim_knob_check(ctx, k, *baseline) < 0 ||
		    reclaim_knob_check(ctx, k, *threads) < 0)
			return reclaim_error(ctx, EBADMSG, "%s: a value outside %lld-%lld",
					     ADAPT_STATE, (long long)reclaim_knob_min(k),
					     (long long)reclaim_knob_max(k));
	}
	return r;
}

RECLAIM_EXPORT int reclaim_adapt_state_load(struct reclaim_ctx *ctx, pid_t *pid, int64_t *baseline,
					    int64_t *threads)
{
	_cleanup_free_ char *text = NULL;
	int r;

	assert_return(ctx && pid && baseline && threads, -EINVAL);
	reclaim_error_reset(ctx);
	/* what a stop writes comes from here: a planted file must not be believed */
	r = reclaim_read_run_file(ctx, ADAPT_STATE, &text);
	if (r < 0)
		return r;
	return reclaim_adapt_state_parse(ctx, text, pid, baseline, threads);
}

RECLAIM_EXPORT int reclaim_adapt_state_remove(struct reclaim_ctx *ctx)
{
	assert_return(ctx, -EINVAL);
	reclaim_error_reset(ctx);
	return reclaim_remove_run_file(ctx, ADAPT_STATE);
}
