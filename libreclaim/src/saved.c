// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /run/reclaimctl/saved: the values the knobs had before the last change
 * that changed any, as "vm.NAME = VALUE" lines (sysctl -p reads it too),
 * for "reclaimctl restore" to undo that change. It lives in /run: a reboot
 * forgets it along with the change.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "internal.h"

#define SAVED RECLAIM_RUNDIR "/saved"

static const char header[] = "# The values before reclaimctl changed them; "
			     "\"reclaimctl restore\" puts them back.\n";

void reclaim_saved_free(struct reclaim_saved *s)
{
	free(s->knobs);
	free(s->values);
	*s = (struct reclaim_saved){0};
}

static int saved_add(struct reclaim_saved *s, const struct reclaim_knob *k, int64_t value)
{
	const struct reclaim_knob **knobs;
	int64_t *values;

	for (size_t i = 0; i < s->count; i++)
		if (s->knobs[i] == k)
			return 0; /* a knob is saved once */
	knobs = realloc(s->knobs, (s->count + 1) * sizeof(*knobs));
	if (!knobs)
		return -ENOMEM;
	s->knobs = knobs;
	values = realloc(s->values, (s->count + 1) * sizeof(*values));
	if (!values)
		return -ENOMEM;
	s->values = values;
	s->knobs[s->count] = k;
	s->values[s->count++] = value;
	return 0;
}

/* One "vm.NAME = VALUE" line, blank or a comment; else -EINVAL. */
static int parse_line(char *line, struct reclaim_saved *s)
{
	const struct reclaim_knob *k;
	char *eq, *key, *value;
	int64_t v;

	key = line + strspn(line, " \t");
	if (*key == '\0' || *key == '#')
		return 0;
	eq = strchr(key, '=');
	if (!eq)
		return -EINVAL;
	*eq = '\0';
	value = eq + 1;
	key[strcspn(key, " \t")] = '\0';
	k = reclaim_knob_find(key);
	if (!k || reclaim_parse_i64(value, &v) < 0)
		return -EINVAL;
	return saved_add(s, k, v);
}

int reclaim_saved_load(struct reclaim_ctx *ctx, struct reclaim_saved *s)
{
	_cleanup_free_ char *text = NULL;
	char *line, *next;
	size_t n = 0;
	int r;

	*s = (struct reclaim_saved){0};
	r = reclaim_read_file(ctx, SAVED, &text, NULL);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read %s: %s", SAVED, strerror(-r));
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n++;
		r = parse_line(line, s);
		if (r < 0) {
			reclaim_saved_free(s);
			if (r == -ENOMEM)
				return reclaim_error(ctx, ENOMEM, "out of memory");
			return reclaim_error(ctx, EBADMSG, "%s:%zu: not a saved knob value", SAVED,
					     n);
		}
	}
	return 0;
}

int reclaim_saved_add(struct reclaim_saved *s, const struct reclaim_knob *k, int64_t value)
{
	return saved_add(s, k, value);
}

int reclaim_saved_store(struct reclaim_ctx *ctx, const struct reclaim_saved *s)
{
	_cleanup_free_ char *full = reclaim_path(ctx, SAVED), *text = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	if (!full)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	if (s->count == 0) {
		r = reclaim_unlink_synced(full);
		if (r < 0 && r != -ENOENT)
			return reclaim_error(ctx, -r, "cannot remove %s: %s", SAVED, strerror(-r));
		return 0;
	}
	f = open_memstream(&text, &len);
	if (!f)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	fputs(header, f);
	for (size_t i = 0; i < s->count; i++)
		fprintf(f, "%s = %" PRId64 "\n", reclaim_knob_sysctl(s->knobs[i]), s->values[i]);
	if (fclose(f) != 0)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	r = reclaim_replace_file(full, text, len, 0644);
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot write %s: %s", SAVED, strerror(-r));
	return 0;
}
