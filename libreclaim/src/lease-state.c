// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The state files of the holders of leases that may die with their knobs
 * changed: adapt's (RECLAIM_ADAPT_STATE_FILE, one knob, in the format of
 * adapt-state.c) and sweep's (RECLAIM_SWEEP_STATE_FILE): "pid=N", then one
 * "knob=NAME before=V last=V" line a knob. Read from and written to the
 * run directory only (reclaim_read_run_file()), replaced atomically.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "internal.h"

static const struct {
	const char *holder, *file;
} holders[] = {
    {"adapt", RECLAIM_ADAPT_STATE_FILE},
    {"sweep", RECLAIM_SWEEP_STATE_FILE},
};

const char *reclaim_lease_file(const char *holder)
{
	for (size_t i = 0; i < ARRAY_SIZE(holders); i++)
		if (strcmp(holders[i].holder, holder) == 0)
			return holders[i].file;
	return NULL;
}

RECLAIM_EXPORT const char *reclaim_lease_holder_name(size_t idx)
{
	return idx < ARRAY_SIZE(holders) ? holders[idx].holder : NULL;
}

static bool is_adapt(const char *file)
{
	return strcmp(file, RECLAIM_ADAPT_STATE_FILE) == 0;
}

static char *state_text(pid_t pid, const struct lease_entry *e, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fprintf(f, "pid=%ld\n", (long)pid);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "knob=%s before=%" PRId64 " last=%" PRId64 "\n",
			reclaim_knob_name(e[i].knob), e[i].before, e[i].last);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

int reclaim_lease_file_save(struct reclaim_ctx *ctx, const char *file, pid_t pid,
			    const struct lease_entry *e, size_t n, bool locked)
{
	_cleanup_free_ char *text = NULL;

	/* adapt holding kswapd_threads alone: the format of adapt-state.c, as before the watermark
	 */
	if (is_adapt(file) && n == 1 && reclaim_knob_is_threads(e[0].knob))
		return locked ? reclaim_adapt_state_save_locked(ctx, pid, e[0].before, e[0].last)
			      : reclaim_adapt_state_save(ctx, pid, e[0].before, e[0].last);
	text = state_text(pid, e, n);
	if (!text)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	return locked ? reclaim_write_run_file_locked(ctx, file, text, strlen(text))
		      : reclaim_write_run_file(ctx, file, text, strlen(text));
}

/* "knob=NAME before=V last=V": a value outside the knob's range is not believed. */
static int parse_entry(struct reclaim_ctx *ctx, const char *file, size_t lineno, char *line,
		       struct lease_entry *e)
{
	char name[64];
	int64_t before, last;
	int end = 0;

	if (sscanf(line, "knob=%63s before=%" SCNd64 " last=%" SCNd64 "%n", name, &before, &last,
		   &end) != 3 ||
	    line[end] != '\0' || !(e->knob = reclaim_knob_find(name)) ||
	    reclaim_knob_check(ctx, e->knob, before) < 0 ||
	    reclaim_knob_check(ctx, e->knob, last) < 0)
		return reclaim_error(ctx, EBADMSG, "%s:%zu: malformed line", file, lineno);
	e->before = before;
	e->last = last;
	return 0;
}

static int parse_state(struct reclaim_ctx *ctx, const char *file, char *text, pid_t *pid,
		       struct lease_entry **ret, size_t *n)
{
	struct lease_entry *e = NULL;
	size_t lineno = 0, count = 0;
	char *save = NULL;
	int64_t v = 0;
	int r = 0;

	for (char *line = strtok_r(text, "\n", &save); r == 0 && line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct lease_entry *more;

		if (++lineno == 1) {
			if (strncmp(line, "pid=", 4) != 0 || reclaim_parse_i64(line + 4, &v) < 0 ||
			    v <= 0 || v > RECLAIM_PID_MAX)
				r = reclaim_error(ctx, EBADMSG, "%s:1: malformed line", file);
			continue;
		}
		more = realloc(e, (count + 1) * sizeof(*e));
		if (!more) {
			r = reclaim_error(ctx, ENOMEM, "out of memory");
			break;
		}
		e = more;
		r = parse_entry(ctx, file, lineno, line, &e[count]);
		for (size_t i = 0; r == 0 && i < count; i++)
			if (e[i].knob == e[count].knob)
				r = reclaim_error(ctx, EBADMSG, "%s:%zu: malformed line", file,
						  lineno);
		count++;
	}
	if (r == 0 && count == 0)
		r = reclaim_error(ctx, EBADMSG, "%s: incomplete", file);
	if (r < 0) {
		free(e);
		return r;
	}
	*pid = (pid_t)v;
	*ret = e;
	*n = count;
	return 0;
}

int reclaim_lease_file_load(struct reclaim_ctx *ctx, const char *file, pid_t *pid,
			    struct lease_entry **e, size_t *n)
{
	_cleanup_free_ char *text = NULL;
	int64_t before, last;
	int r;

	/* what a release writes comes from here: a planted file must not be believed */
	r = reclaim_read_run_file(ctx, file, &text);
	if (r < 0)
		return r;
	if (is_adapt(file) && !strstr(text, "knob=")) {
		r = reclaim_adapt_state_parse(ctx, text, pid, &before, &last);
		if (r < 0)
			return r;
		*e = malloc(sizeof(**e));
		if (!*e)
			return reclaim_error(ctx, ENOMEM, "out of memory");
		**e = (struct lease_entry){reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS), before,
					   last};
		*n = 1;
		return 0;
	}
	return parse_state(ctx, file, text, pid, e, n);
}

int reclaim_lease_file_remove(struct reclaim_ctx *ctx, const char *file)
{
	return is_adapt(file) ? reclaim_adapt_state_remove(ctx)
			      : reclaim_remove_run_file(ctx, file);
}
