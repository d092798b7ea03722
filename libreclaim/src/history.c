// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /run/reclaimctl/history: every knob reclaimctl changed since boot, one
 * record a line, appended under the writers' lock:
 *
 *   change=3 time=1764579192.123456789 command=set source=value knob=NAME old=3 new=8
 *
 * and, for a restore, "undoes=N" (the change it undid) or "undoes=all"
 * (restore --boot). The records of one change share its number.
 *
 * A change is recorded before it is written, and marked done after:
 *
 *   # intent change=3 records=2
 *   change=3 ... (its 2 records)
 *   # done change=3
 *
 * Records whose intent has no done line were cut off between the two (a
 * SIGKILL, a crash): they are "interrupted", their knobs at the old or the
 * new value. The two lines are comments, which reclaimctl before them
 * skips: it reads the records as done, and older files (no intent lines)
 * are read as done too. A change that fails is rolled back and its intent
 * taken out of the file.
 *
 * A swap priority change is a comment line of its own, which reclaimctl
 * before it skips, in an intent of no (knob) records:
 *
 *   # intent change=4 records=0
 *   # swap change=4 time=... command=swap-priority source=value device=/dev/zram0 old=100 new=50
 * fstab=100 # done change=4
 *
 * "fstab=" is the /etc/fstab entry's pri= before ("none": it had none),
 * only when the change edited it; "old" and "new" are the live priorities
 * (the same when only /etc/fstab was edited). A restore of it has
 * "undoes=N" too. A reclaimctl that skips these lines numbers its own next
 * change as if they were not there.
 *
 * A last line without its newline was cut short by a crash: it is ignored,
 * and the next change drops it. The file is bounded: when it would exceed
 * the first record of each knob plus the last RECLAIM_HISTORY_KEEP records,
 * it is rewritten with just those. A rewrite (either) writes the records of
 * done changes alone, and those interrupted after an intent line.
 *
 * A value another writer left on a knob, seen by any reclaimctl command,
 * is a comment too (reclaimctl before it skips it, and it is no change:
 * restore never undoes it):
 *
 *   # outside time=1764579300.000000000 knob=swappiness expected=10 value=30
 *
 * once for each value seen since the knob's newest record, at most
 * RECLAIM_HISTORY_KEEP of them; a rewrite keeps those since the knob's
 * newest record.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "history-internal.h"

#define HISTORY RECLAIM_HISTORY_FILE

unsigned int reclaim_history_keep = RECLAIM_HISTORY_KEEP;

static void record_clear(struct history_record *r)
{
	free(r->command);
	free(r->source);
}

static void swap_clear(struct history_swap *s)
{
	free(s->command);
	free(s->source);
	free(s->device);
}

static void history_free(struct reclaim_history *h)
{
	for (size_t i = 0; i < h->count; i++)
		record_clear(&h->records[i]);
	free(h->records);
	for (size_t i = 0; i < h->nswaps; i++)
		swap_clear(&h->swaps[i]);
	free(h->swaps);
	free(h->outside);
	reclaim_unref(h->ctx);
	free(h);
}

/* A word of a record: printable, no '=' in keys, no spaces. */
static bool is_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

static int parse_time(const char *s, int64_t *sec, long *nsec)
{
	const char *dot = strchr(s, '.');
	char whole[32];
	uint64_t frac = 0;
	size_t digits;

	if (!dot || (size_t)(dot - s) >= sizeof(whole))
		return -EINVAL;
	memcpy(whole, s, (size_t)(dot - s));
	whole[dot - s] = '\0';
	digits = strlen(dot + 1);
	/* in nanoseconds, a time must fit in an int64_t (until the year 2262) */
	if (reclaim_parse_i64(whole, sec) < 0 || *sec < 0 || *sec >= INT64_MAX / 1000000000 ||
	    digits != 9 || reclaim_parse_u64(dot + 1, &frac) < 0)
		return -EINVAL;
	*nsec = (long)frac;
	return 0;
}

/* One record; -EINVAL if it is not one. */
static int parse_record(char *line, struct history_record *rec)
{
	static const char *const keys[] = {"change", "time", "command", "source",
					   "knob",   "old",  "new",	"undoes"};
	char *fields[ARRAY_SIZE(keys)] = {0};
	size_t n = 0;
	uint64_t change;

	for (char *save = NULL, *w = strtok_r(line, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		size_t klen = strlen(keys[n < ARRAY_SIZE(keys) ? n : 0]);

		if (n >= ARRAY_SIZE(keys) || strncmp(w, keys[n], klen) != 0 || w[klen] != '=' ||
		    !is_word(w + klen + 1))
			return -EINVAL;
		fields[n++] = w + klen + 1;
	}
	if (n < ARRAY_SIZE(keys) - 1)
		return -EINVAL;
	*rec = (struct history_record){0};
	if (reclaim_parse_u64(fields[0], &change) < 0 || change == 0 ||
	    parse_time(fields[1], &rec->sec, &rec->nsec) < 0 ||
	    !(rec->knob = reclaim_knob_find(fields[4])) ||
	    reclaim_parse_i64(fields[5], &rec->old_value) < 0 ||
	    reclaim_parse_i64(fields[6], &rec->new_value) < 0)
		return -EINVAL;
	rec->change = change;
	if (fields[7]) {
		uint64_t u;

		if (strcmp(fields[7], "all") == 0)
			rec->undoes = HISTORY_UNDOES_ALL;
		else if (reclaim_parse_u64(fields[7], &u) == 0 && u > 0 && u < change)
			rec->undoes = (long)u;
		else
			return -EINVAL;
	}
	rec->command = strdup(fields[2]);
	rec->source = strdup(fields[3]);
	if (!rec->command || !rec->source) {
		record_clear(rec);
		return -ENOMEM;
	}
	return 0;
}

static int parse_prio(const char *s, int *prio)
{
	int64_t v;

	/* the kernel numbers the devices without a priority -2, -3, ... */
	if (reclaim_parse_i64(s, &v) < 0 || v < INT_MIN / 2 || v > RECLAIM_SWAP_PRIORITY_MAX)
		return -EINVAL;
	*prio = (int)v;
	return 0;
}

/* A device's path as one word: blanks, controls and '\\' as \\ooo, as in /etc/fstab. */
static char *escape_device(const char *path)
{
	char *out = malloc(strlen(path) * 4 + 1), *o = out;

	if (!out)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if (*p <= ' ' || *p == 0x7f || *p == '\\')
			o += sprintf(o, "\\%03o", *p);
		else
			*o++ = (char)*p;
	*o = '\0';
	return out;
}

/* escape_device() undone, in place; -EINVAL for a stray '\\'. */
static int unescape_device(char *s)
{
	char *o = s;

	for (char *p = s; *p; p++) {
		unsigned int v = 0;

		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		for (int i = 1; i <= 3; i++) {
			if (p[i] < '0' || p[i] > '7')
				return -EINVAL;
			v = v * 8 + (unsigned int)(p[i] - '0');
		}
		if (v == 0 || v > 0xff)
			return -EINVAL;
		*o++ = (char)v;
		p += 3;
	}
	*o = '\0';
	return 0;
}

/* The words of a "# swap" line after "# swap "; -EINVAL if it is not one. */
static int parse_swap(char *line, struct history_swap *s)
{
	static const char *const keys[] = {"change", "time", "command", "source", "device",
					   "old",    "new",  "fstab",	"undoes"};
	char *fields[ARRAY_SIZE(keys)] = {0};
	size_t k = 0;
	uint64_t change;

	for (char *save = NULL, *w = strtok_r(line, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');

		/* fstab= and undoes= are optional, in this order */
		while (eq && k < ARRAY_SIZE(keys) && k >= 7 &&
		       strncmp(w, keys[k], (size_t)(eq - w)) != 0)
			k++;
		if (!eq || k >= ARRAY_SIZE(keys) || strlen(keys[k]) != (size_t)(eq - w) ||
		    strncmp(w, keys[k], (size_t)(eq - w)) != 0 || !is_word(eq + 1))
			return -EINVAL;
		fields[k++] = eq + 1;
	}
	if (k < 7)
		return -EINVAL;
	*s = (struct history_swap){.fstab_old = HISTORY_FSTAB_UNTOUCHED};
	if (reclaim_parse_u64(fields[0], &change) < 0 || change == 0 ||
	    parse_time(fields[1], &s->sec, &s->nsec) < 0 ||
	    parse_prio(fields[5], &s->old_prio) < 0 || parse_prio(fields[6], &s->new_prio) < 0 ||
	    fields[4][0] != '/' || unescape_device(fields[4]) < 0)
		return -EINVAL;
	s->change = change;
	if (fields[7] && strcmp(fields[7], "none") == 0)
		s->fstab_old = HISTORY_FSTAB_NO_PRI;
	else if (fields[7] && (parse_prio(fields[7], &s->fstab_old) < 0 || s->fstab_old < 0))
		return -EINVAL;
	if (fields[8]) {
		uint64_t u;

		if (strcmp(fields[8], "all") == 0)
			s->undoes = HISTORY_UNDOES_ALL;
		else if (reclaim_parse_u64(fields[8], &u) == 0 && u > 0 && u < change)
			s->undoes = (long)u;
		else
			return -EINVAL;
	}
	s->command = strdup(fields[2]);
	s->source = strdup(fields[3]);
	s->device = strdup(fields[4]);
	if (!s->command || !s->source || !s->device) {
		swap_clear(s);
		return -ENOMEM;
	}
	return 0;
}

static int add_swap(struct reclaim_history *h, struct history_swap *s)
{
	struct history_swap *n = realloc(h->swaps, (h->nswaps + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	h->swaps = n;
	h->swaps[h->nswaps++] = *s;
	if (s->change > h->last_change)
		h->last_change = s->change;
	return 0;
}

static int add_record(struct reclaim_history *h, struct history_record *rec)
{
	struct history_record *r = realloc(h->records, (h->count + 1) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	h->records = r;
	h->records[h->count++] = *rec;
	if (rec->change > h->last_change)
		h->last_change = rec->change;
	return 0;
}

/*
 * The changes form a stack: a change is pushed, a restore pops the change it
 * undoes, restore --boot empties it. What is left is what restore can undo.
 * An interrupted restore pops nothing: the next restore does it again.
 */
static void undo(struct reclaim_history *h, unsigned long by, long undoes)
{
	for (size_t j = 0; j < h->count; j++)
		if (h->records[j].undoes == 0 && h->records[j].change < by &&
		    (undoes == HISTORY_UNDOES_ALL || h->records[j].change == (unsigned long)undoes))
			h->records[j].undone = true;
	for (size_t j = 0; j < h->nswaps; j++)
		if (h->swaps[j].undoes == 0 && h->swaps[j].change < by &&
		    (undoes == HISTORY_UNDOES_ALL || h->swaps[j].change == (unsigned long)undoes))
			h->swaps[j].undone = true;
}

static void mark_undone(struct reclaim_history *h)
{
	for (size_t i = 0; i < h->count; i++)
		if (h->records[i].undoes != 0 && !h->records[i].interrupted)
			undo(h, h->records[i].change, h->records[i].undoes);
	for (size_t i = 0; i < h->nswaps; i++)
		if (h->swaps[i].undoes != 0 && !h->swaps[i].interrupted)
			undo(h, h->swaps[i].change, h->swaps[i].undoes);
}

/* The intent being read: the records after its line that belong to it. */
struct intent {
	unsigned long change;
	size_t left;  /* of its records, still to come */
	size_t first; /* the index of its first record */
	bool open;    /* its done line may still come */
};

/* "# outside time=T knob=NAME expected=E value=V"; one that is not is skipped. */
static int parse_outside(struct reclaim_history *h, const char *line)
{
	char time[40], name[64];
	struct history_outside o = {.after = h->count}, *more;
	int end = 0;

	if (sscanf(line, "# outside time=%39s knob=%63s expected=%" SCNd64 " value=%" SCNd64 "%n",
		   time, name, &o.expected, &o.value, &end) != 4 ||
	    line[end] || parse_time(time, &o.sec, &o.nsec) < 0 ||
	    !(o.knob = reclaim_knob_find(name)))
		return 0;
	more = realloc(h->outside, (h->noutside + 1) * sizeof(*more));
	if (!more)
		return -ENOMEM;
	h->outside = more;
	h->outside[h->noutside++] = o;
	return 0;
}

/*
 * "# trimmed=N", "# intent change=N records=K", "# done change=N"; other
 * comments are skipped, as every version of reclaimctl skips them.
 */
static int parse_comment(struct reclaim_history *h, char *line, struct intent *in)
{
	unsigned long long trimmed;
	unsigned long change;
	size_t n;
	int end = 0;

	if (strncmp(line, "# swap ", 7) == 0) {
		struct history_swap sw;
		int r = parse_swap(line + 7, &sw);

		if (r < 0)
			return r;
		sw.interrupted = in->open && in->change == sw.change;
		r = add_swap(h, &sw);
		if (r < 0)
			swap_clear(&sw);
		return r;
	}
	if (sscanf(line, "# trimmed=%llu", &trimmed) == 1) {
		h->trimmed = trimmed;
	} else if (sscanf(line, "# intent change=%lu records=%zu%n", &change, &n, &end) == 2 &&
		   !line[end]) {
		*in = (struct intent){change, n, h->count, true};
	} else if (sscanf(line, "# done change=%lu%n", &change, &end) == 1 && !line[end] &&
		   in->open && in->change == change) {
		for (size_t i = in->first; i < h->count; i++)
			h->records[i].interrupted = false;
		for (size_t i = 0; i < h->nswaps; i++)
			if (h->swaps[i].change == change)
				h->swaps[i].interrupted = false;
		in->open = false;
	}
	return 0;
}

/* A record read: one of the open intent's (interrupted until its done line), or none's. */
static void join_intent(struct intent *in, struct history_record *rec)
{
	if (in->open && in->left > 0 && rec->change == in->change) {
		rec->interrupted = true;
		in->left--;
	} else {
		in->open = false;
	}
}

static int parse_history(struct reclaim_history *h, char *text)
{
	struct intent in = {0};
	size_t lineno = 0;
	char *line = text, *next;

	for (; *line; line = next) {
		struct history_record rec;
		int r;

		next = strchr(line, '\n');
		if (!next) {
			h->torn = true; /* cut short by a crash: ignored */
			break;
		}
		*next++ = '\0';
		lineno++;
		if (strncmp(line, "# outside ", 10) == 0) {
			if (parse_outside(h, line) < 0)
				return reclaim_error(h->ctx, ENOMEM, "out of memory");
			continue;
		}
		if (line[0] == '#') {
			r = parse_comment(h, line, &in);
			if (r == -ENOMEM)
				return reclaim_error(h->ctx, ENOMEM, "out of memory");
			if (r < 0)
				return reclaim_error(h->ctx, EBADMSG,
						     "%s:%zu: not a history record", HISTORY,
						     lineno);
			continue;
		}
		r = parse_record(line, &rec);
		if (r == 0) {
			join_intent(&in, &rec);
			r = add_record(h, &rec);
			if (r < 0)
				record_clear(&rec);
		}
		if (r == -ENOMEM)
			return reclaim_error(h->ctx, ENOMEM, "out of memory");
		if (r < 0)
			return reclaim_error(h->ctx, EBADMSG, "%s:%zu: not a history record",
					     HISTORY, lineno);
	}
	mark_undone(h);
	return 0;
}

int reclaim_history_load(struct reclaim_ctx *ctx, struct reclaim_history **ret)
{
	_cleanup_free_ char *text = NULL;
	struct reclaim_history *h;
	int r;

	h = calloc(1, sizeof(*h));
	if (!h)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	h->refcount = 1;
	h->ctx = reclaim_ref(ctx);
	/* What a restore writes comes from here: a planted history must not be believed. */
	r = reclaim_read_run_file(ctx, HISTORY, &text);
	if (r == 0) {
		h->size = strlen(text);
		r = parse_history(h, text);
	}
	if (r < 0 && r != -ENOENT) {
		history_free(h);
		return r;
	}
	*ret = h;
	return 0;
}

RECLAIM_EXPORT int reclaim_history_new(struct reclaim_ctx *ctx, struct reclaim_history **ret)
{
	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	return reclaim_history_load(ctx, ret);
}

RECLAIM_EXPORT struct reclaim_history *reclaim_history_ref(struct reclaim_history *h)
{
	if (h)
		h->refcount++;
	return h;
}

RECLAIM_EXPORT struct reclaim_history *reclaim_history_unref(struct reclaim_history *h)
{
	if (h && --h->refcount == 0)
		history_free(h);
	return NULL;
}

ssize_t reclaim_history_last_change(const struct reclaim_history *h)
{
	for (size_t i = h->count; i-- > 0;)
		if (h->records[i].undoes == 0 && !h->records[i].undone)
			return (ssize_t)i;
	return -1;
}

ssize_t reclaim_history_last_swap(const struct reclaim_history *h)
{
	ssize_t knob = reclaim_history_last_change(h);
	unsigned long after = knob >= 0 ? h->records[knob].change : 0;

	for (size_t i = h->nswaps; i-- > 0;)
		if (h->swaps[i].undoes == 0 && !h->swaps[i].undone)
			return h->swaps[i].change > after ? (ssize_t)i : -1;
	return -1;
}

ssize_t reclaim_history_first_swap(const struct reclaim_history *h, const char *device, bool fstab)
{
	for (size_t i = 0; i < h->nswaps; i++)
		if (strcmp(h->swaps[i].device, device) == 0 &&
		    (!fstab || h->swaps[i].fstab_old != HISTORY_FSTAB_UNTOUCHED))
			return (ssize_t)i;
	return -1;
}

ssize_t reclaim_history_first(const struct reclaim_history *h, const struct reclaim_knob *k)
{
	for (size_t i = 0; i < h->count; i++)
		if (h->records[i].knob == k)
			return (ssize_t)i;
	return -1;
}

static void format_record(FILE *f, const struct history_record *r)
{
	fprintf(f,
		"change=%lu time=%" PRId64 ".%09ld command=%s source=%s knob=%s old=%" PRId64
		" new=%" PRId64,
		r->change, r->sec, r->nsec, r->command, r->source, reclaim_knob_name(r->knob),
		r->old_value, r->new_value);
	if (r->undoes == HISTORY_UNDOES_ALL)
		fputs(" undoes=all", f);
	else if (r->undoes > 0)
		fprintf(f, " undoes=%ld", r->undoes);
	fputc('\n', f);
}

static void format_swap(FILE *f, const struct history_swap *s)
{
	_cleanup_free_ char *device = escape_device(s->device);

	fprintf(f,
		"# swap change=%lu time=%" PRId64 ".%09ld command=%s source=%s device=%s old=%d "
		"new=%d",
		s->change, s->sec, s->nsec, s->command, s->source, device ? device : "/?",
		s->old_prio, s->new_prio);
	if (s->fstab_old == HISTORY_FSTAB_NO_PRI)
		fputs(" fstab=none", f);
	else if (s->fstab_old != HISTORY_FSTAB_UNTOUCHED)
		fprintf(f, " fstab=%d", s->fstab_old);
	if (s->undoes == HISTORY_UNDOES_ALL)
		fputs(" undoes=all", f);
	else if (s->undoes > 0)
		fprintf(f, " undoes=%ld", s->undoes);
	fputc('\n', f);
}

/* A swap change as an intent, its done line with @done. */
static void format_swap_intent(FILE *f, const struct history_swap *s, bool done)
{
	fprintf(f, "# intent change=%lu records=0\n", s->change);
	format_swap(f, s);
	if (done)
		fprintf(f, "# done change=%lu\n", s->change);
}

/* Whether record @i is the first of its knob in its change. */
static bool first_in_change(const struct reclaim_history *h, size_t i)
{
	for (size_t j = i; j-- > 0 && h->records[j].change == h->records[i].change;)
		if (h->records[j].knob == h->records[i].knob)
			return false;
	return true;
}

/*
 * The records a rewrite keeps: the first of each knob, the last
 * reclaim_history_keep, and of a change partly among those (a long sweep is
 * one change) the first record of each of its knobs, which a restore of it
 * needs. @tail: the change of the first record of the last ones.
 */
static bool kept(const struct reclaim_history *h, size_t i, size_t total, unsigned long tail)
{
	return i + reclaim_history_keep >= total ||
	       reclaim_history_first(h, h->records[i].knob) == (ssize_t)i ||
	       (h->records[i].change >= tail && first_in_change(h, i));
}

/* The change of the first record a rewrite to @total records keeps in any case. */
static unsigned long tail_change(const struct reclaim_history *h, size_t total,
				 const struct history_record *add, size_t n)
{
	size_t from = total > reclaim_history_keep ? total - reclaim_history_keep : 0;

	if (from < h->count)
		return h->records[from].change;
	return n > 0 ? add[0].change : 0;
}

/* The records of @h a rewrite to @total records would drop. */
static size_t dropped(const struct reclaim_history *h, size_t total, unsigned long tail)
{
	size_t n = 0;

	for (size_t i = 0; i + reclaim_history_keep < total && i < h->count; i++)
		n += !kept(h, i, total, tail);
	return n;
}

static void format_intent_line(FILE *f, unsigned long change, size_t n)
{
	fprintf(f, "# intent change=%lu records=%zu\n", change, n);
}

/* From the kept record @i on: how many kept records in a row are interrupted ones of its change. */
static size_t interrupted_run(const struct reclaim_history *h, size_t i, size_t total,
			      unsigned long tail)
{
	size_t n = 0;

	for (size_t j = i; j < h->count; j++) {
		if (!kept(h, j, total, tail))
			continue;
		if (!h->records[j].interrupted || h->records[j].change != h->records[i].change)
			break;
		n++;
	}
	return n;
}

/* The records a rewrite keeps; the interrupted ones stay so: an intent line, no done line. */
static void format_kept(FILE *f, const struct reclaim_history *h, size_t total, unsigned long tail)
{
	size_t left = 0;

	for (size_t i = 0; i < h->count; i++) {
		if (!kept(h, i, total, tail))
			continue;
		if (h->records[i].interrupted && left == 0) {
			left = interrupted_run(h, i, total, tail);
			format_intent_line(f, h->records[i].change, left);
		}
		if (h->records[i].interrupted)
			left--;
		format_record(f, &h->records[i]);
	}
}

static void format_outside(FILE *f, const struct history_outside *o)
{
	fprintf(f,
		"# outside time=%" PRId64 ".%09ld knob=%s expected=%" PRId64 " value=%" PRId64 "\n",
		o->sec, o->nsec, reclaim_knob_name(o->knob), o->expected, o->value);
}

/* The newest record of @knob, or -1. */
static ssize_t newest(const struct reclaim_history *h, const struct reclaim_knob *k)
{
	for (size_t i = h->count; i-- > 0;)
		if (h->records[i].knob == k)
			return (ssize_t)i;
	return -1;
}

/* Whether outside line @o came after its knob's newest record. */
static bool current(const struct reclaim_history *h, const struct history_outside *o)
{
	return (ssize_t)o->after > newest(h, o->knob);
}

/* A rewrite keeps the outside lines since their knob's newest record, after the records. */
static void format_current_outside(FILE *f, const struct reclaim_history *h)
{
	for (size_t i = 0; i < h->noutside; i++)
		if (current(h, &h->outside[i]))
			format_outside(f, &h->outside[i]);
}

static void format_intent(FILE *f, const struct history_record *add, size_t n)
{
	format_intent_line(f, add[0].change, n);
	for (size_t i = 0; i < n; i++)
		format_record(f, &add[i]);
}

/* The file anew, bounded, and @n records after as an intent; an empty history is no file. */
static int rewrite(struct reclaim_history *h, const struct history_record *add, size_t n)
{
	_cleanup_free_ char *name = NULL, *text = NULL;
	_cleanup_close_ int dirfd = -1;
	size_t total = h->count + n, len = 0;
	unsigned long tail = tail_change(h, total, add, n);
	size_t drop = dropped(h, total, tail);
	FILE *f;
	int r;

	r = reclaim_root_parent(h->ctx, HISTORY, &dirfd, &name);
	if (r < 0)
		return r;
	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	if (h->trimmed + drop > 0)
		fprintf(f, "# trimmed=%llu\n", h->trimmed + (unsigned long long)drop);
	format_kept(f, h, total, tail);
	/* every swap record is kept: there are few */
	for (size_t i = 0; i < h->nswaps; i++)
		format_swap_intent(f, &h->swaps[i], !h->swaps[i].interrupted);
	format_current_outside(f, h);
	if (n > 0)
		format_intent(f, add, n);
	if (fclose(f) != 0)
		return -ENOMEM;
	if (len > 0)
		return reclaim_replace_file(dirfd, name, text, len, 0644);
	r = reclaim_unlink_synced(dirfd, name);
	return r == -ENOENT ? 0 : r;
}

/* One write: a crash leaves at most the last line short, which is ignored. */
static int append_text(struct reclaim_history *h, const char *text, size_t len)
{
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int dirfd = -1;
	ssize_t w;
	int fd;

	fd = reclaim_root_parent(h->ctx, HISTORY, &dirfd, &name);
	if (fd < 0)
		return fd;
	fd = openat(dirfd, name, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	w = write(fd, text, len);
	if (w < 0 || (size_t)w != len || fsync(fd) < 0) {
		int err = w < 0 ? errno : EIO;

		close(fd);
		return -err;
	}
	return close(fd) < 0 ? -errno : 0;
}

static int append_intent(struct reclaim_history *h, const struct history_record *add, size_t n)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return -ENOMEM;
	format_intent(f, add, n);
	if (fclose(f) != 0)
		return -ENOMEM;
	return append_text(h, text, len);
}

static int write_error(struct reclaim_history *h, int r)
{
	return reclaim_error(h->ctx, -r, "cannot write %s: %s", HISTORY, strerror(-r));
}

void history_clock(char *buf, size_t size, int64_t sec)
{
	time_t t = (time_t)sec;
	struct tm tm;

	if (!localtime_r(&t, &tm) || strftime(buf, size, "%H:%M:%S", &tm) == 0)
		snprintf(buf, size, "?");
}

/* "change 4 (set at 09:10:00)" of the first record of a change, for messages. */
static void change_text(char *buf, size_t size, const struct history_record *rec)
{
	char when[16];

	history_clock(when, sizeof(when), rec->sec);
	snprintf(buf, size, "change %lu (%s at %s)", rec->change, rec->command, when);
}

int reclaim_history_check_newest(const struct reclaim_history *h, unsigned long change)
{
	ssize_t last = reclaim_history_last_change(h);
	char text[128];

	if (last >= 0 && h->records[last].change == change && reclaim_history_last_swap(h) < 0)
		return 0;
	for (size_t i = 0; i < h->nswaps; i++) {
		const struct history_swap *s = &h->swaps[i];

		if (s->change <= change || s->undone ||
		    (s->undoes > 0 && s->undoes != (long)change))
			continue;
		return reclaim_error(h->ctx, ESTALE,
				     "change %lu is no longer the newest change: change %lu (%s of "
				     "%s) %s",
				     change, s->change, s->command, s->device,
				     s->undoes != 0 ? "undid it" : "came after it");
	}
	for (size_t i = 0; i < h->count; i++) {
		const struct history_record *r = &h->records[i];

		/* a later change undone and its undo are not what stands in the way */
		if (r->change <= change || r->undone ||
		    (r->undoes > 0 && r->undoes != (long)change))
			continue;
		change_text(text, sizeof(text), r);
		if (r->undoes == HISTORY_UNDOES_ALL || r->undoes == (long)change)
			return reclaim_error(
			    h->ctx, ESTALE,
			    "change %lu is no longer the newest change: %s undid it", change, text);
		return reclaim_error(h->ctx, ESTALE,
				     "change %lu is no longer the newest change: %s came after it",
				     change, text);
	}
	return reclaim_error(h->ctx, ESTALE,
			     "change %lu is no longer the newest change: the history has no "
			     "change %lu",
			     change, change);
}

int reclaim_history_intent(struct reclaim_history *h, unsigned long change,
			   struct history_record *add, size_t n)
{
	struct timespec now;
	int r;

	if (n == 0)
		return 0;
	if (change > 0 && (r = reclaim_history_check_newest(h, change)) < 0)
		return r;
	clock_gettime(CLOCK_REALTIME, &now);
	for (size_t i = 0; i < n; i++) {
		add[i].change = change > 0 ? change : h->last_change + 1;
		add[i].sec = now.tv_sec;
		add[i].nsec = now.tv_nsec;
	}
	h->rewritten =
	    h->torn || dropped(h, h->count + n, tail_change(h, h->count + n, add, n)) > 0;
	r = h->rewritten ? rewrite(h, add, n) : append_intent(h, add, n);
	return r < 0 ? write_error(h, r) : 0;
}

int reclaim_history_intent_swap(struct reclaim_history *h, struct history_swap *s)
{
	_cleanup_free_ char *text = NULL;
	struct timespec now;
	size_t len = 0;
	FILE *f;
	int r;

	clock_gettime(CLOCK_REALTIME, &now);
	s->change = h->last_change + 1;
	s->sec = now.tv_sec;
	s->nsec = now.tv_nsec;
	/* A torn last line goes first: the file as loaded, rewritten, then the intent. */
	h->rewritten = h->torn;
	if (h->torn && (r = rewrite(h, NULL, 0)) < 0)
		return write_error(h, r);
	f = open_memstream(&text, &len);
	if (!f)
		return reclaim_error(h->ctx, ENOMEM, "out of memory");
	format_swap_intent(f, s, false);
	if (fclose(f) != 0)
		return reclaim_error(h->ctx, ENOMEM, "out of memory");
	r = append_text(h, text, len);
	return r < 0 ? write_error(h, r) : 0;
}

int reclaim_history_done(struct reclaim_history *h, unsigned long change)
{
	char line[64];
	int len = snprintf(line, sizeof(line), "# done change=%lu\n", change);
	int r = append_text(h, line, (size_t)len);

	return r < 0 ? write_error(h, r) : 0;
}

/* The file cut back to its first @size bytes, or removed for none. */
static int cut(struct reclaim_history *h, size_t size)
{
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int dirfd = -1;
	int fd, r;

	r = reclaim_root_parent(h->ctx, HISTORY, &dirfd, &name);
	if (r < 0)
		return r;
	if (size == 0)
		return reclaim_unlink_synced(dirfd, name);
	r = 0;
	fd = openat(dirfd, name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)size) < 0 || fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

/* An appended intent is cut off, leaving the file as it was; a rewritten one is written over. */
int reclaim_history_discard(struct reclaim_history *h)
{
	int r = h->rewritten ? rewrite(h, NULL, 0) : cut(h, h->size);

	return r < 0 ? write_error(h, r) : 0;
}

RECLAIM_EXPORT size_t reclaim_history_count(const struct reclaim_history *h)
{
	assert_return(h, 0);
	return h->count;
}

RECLAIM_EXPORT uint64_t reclaim_history_trimmed(const struct reclaim_history *h)
{
	assert_return(h, 0);
	return h->trimmed;
}

#define RECORD(h, idx) (&(h)->records[idx])

RECLAIM_EXPORT unsigned long reclaim_history_change(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->count, 0);
	return RECORD(h, idx)->change;
}

RECLAIM_EXPORT int64_t reclaim_history_time_ns(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->count, 0);
	return RECORD(h, idx)->sec * 1000000000 + RECORD(h, idx)->nsec;
}

RECLAIM_EXPORT const char *reclaim_history_command(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->count, NULL);
	return RECORD(h, idx)->command;
}

RECLAIM_EXPORT const char *reclaim_history_source(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->count, NULL);
	return RECORD(h, idx)->source;
}

RECLAIM_EXPORT const struct reclaim_knob *reclaim_history_knob(const struct reclaim_history *h,
							       size_t idx)
{
	assert_return(h && idx < h->count, NULL);
	return RECORD(h, idx)->knob;
}

RECLAIM_EXPORT int64_t reclaim_history_old_value(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->count, 0);
	return RECORD(h, idx)->old_value;
}

RECLAIM_EXPORT int64_t reclaim_history_new_value(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->count, 0);
	return RECORD(h, idx)->new_value;
}

RECLAIM_EXPORT bool reclaim_history_undone(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->count, false);
	return RECORD(h, idx)->undone;
}

RECLAIM_EXPORT bool reclaim_history_interrupted(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->count, false);
	return RECORD(h, idx)->interrupted;
}

RECLAIM_EXPORT long reclaim_history_undoes(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->count, 0);
	return RECORD(h, idx)->undoes;
}

RECLAIM_EXPORT int reclaim_history_applied(const struct reclaim_history *h,
					   const struct reclaim_knob *knob, int64_t *value)
{
	assert_return(h && knob && value, -EINVAL);
	for (size_t i = h->count; i-- > 0;)
		if (RECORD(h, i)->knob == knob) {
			*value = RECORD(h, i)->new_value;
			return 0;
		}
	return -ENOENT;
}

#define SWAP(h, idx) (&(h)->swaps[idx])

RECLAIM_EXPORT size_t reclaim_history_swap_count(const struct reclaim_history *h)
{
	assert_return(h, 0);
	return h->nswaps;
}

RECLAIM_EXPORT unsigned long reclaim_history_swap_change(const struct reclaim_history *h,
							 size_t idx)
{
	assert_return(h && idx < h->nswaps, 0);
	return SWAP(h, idx)->change;
}

RECLAIM_EXPORT int64_t reclaim_history_swap_time_ns(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->nswaps, 0);
	return SWAP(h, idx)->sec * 1000000000 + SWAP(h, idx)->nsec;
}

RECLAIM_EXPORT const char *reclaim_history_swap_command(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->nswaps, NULL);
	return SWAP(h, idx)->command;
}

RECLAIM_EXPORT const char *reclaim_history_swap_source(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->nswaps, NULL);
	return SWAP(h, idx)->source;
}

RECLAIM_EXPORT const char *reclaim_history_swap_device(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->nswaps, NULL);
	return SWAP(h, idx)->device;
}

RECLAIM_EXPORT int reclaim_history_swap_old(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->nswaps, 0);
	return SWAP(h, idx)->old_prio;
}

RECLAIM_EXPORT int reclaim_history_swap_new(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->nswaps, 0);
	return SWAP(h, idx)->new_prio;
}

RECLAIM_EXPORT int reclaim_history_swap_fstab(const struct reclaim_history *h, size_t idx,
					      int *before)
{
	assert_return(h && idx < h->nswaps && before, -EINVAL);
	if (SWAP(h, idx)->fstab_old == HISTORY_FSTAB_UNTOUCHED)
		return 0;
	*before = SWAP(h, idx)->fstab_old;
	return 1;
}

RECLAIM_EXPORT bool reclaim_history_swap_undone(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->nswaps, false);
	return SWAP(h, idx)->undone;
}

RECLAIM_EXPORT bool reclaim_history_swap_interrupted(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->nswaps, false);
	return SWAP(h, idx)->interrupted;
}

RECLAIM_EXPORT long reclaim_history_swap_undoes(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->nswaps, 0);
	return SWAP(h, idx)->undoes;
}

int reclaim_history_expect(const struct reclaim_history *h, const struct reclaim_knob *k,
			   int64_t now, int64_t *expected)
{
	ssize_t i = newest(h, k);

	if (i < 0)
		return -ENOENT;
	*expected = h->records[i].new_value;
	return now != *expected && !(h->records[i].interrupted && now == h->records[i].old_value);
}

const struct history_outside *reclaim_history_outside_first(const struct reclaim_history *h,
							    const struct reclaim_knob *k)
{
	for (size_t i = 0; i < h->noutside; i++)
		if (h->outside[i].knob == k && current(h, &h->outside[i]))
			return &h->outside[i];
	return NULL;
}

const struct history_outside *reclaim_history_outside_last(const struct reclaim_history *h,
							   const struct reclaim_knob *k)
{
	for (size_t i = h->noutside; i-- > 0;)
		if (h->outside[i].knob == k && current(h, &h->outside[i]))
			return &h->outside[i];
	return NULL;
}

/*
 * The caller read the history and the knob without the lock: a change done
 * between its two reads made the knob look written outside reclaimctl. Under
 * the lock, both again: the knob still @value, and not what the history now
 * expects of it.
 */
static bool still_outside(struct reclaim_ctx *ctx, const struct reclaim_history *h,
			  const struct reclaim_knob *k, int64_t value)
{
	int64_t now, ours;

	if (reclaim_knob_read(ctx, k, &now) < 0 || now != value)
		return false;
	return reclaim_history_expect(h, k, now, &ours) != 0;
}

/* Under the lock: the history as it is now decides whether the line is new. */
static int note_locked(struct reclaim_ctx *ctx, const struct reclaim_knob *k, int64_t expected,
		       int64_t value, int64_t *seen_ns)
{
	struct reclaim_history *h = NULL;
	const struct history_outside *last;
	struct history_outside o = {.knob = k, .expected = expected, .value = value};
	_cleanup_free_ char *text = NULL;
	struct timespec now;
	size_t len = 0;
	FILE *f;
	int r = reclaim_history_load(ctx, &h);

	if (r < 0)
		return r;
	if (!still_outside(ctx, h, k, value)) {
		reclaim_history_unref(h);
		return 0;
	}
	last = reclaim_history_outside_last(h, k);
	if (last && last->value == value)
		*seen_ns = last->sec * 1000000000 + last->nsec;
	/* a line cut short by a crash is dropped by the next change, not joined to this one */
	if ((last && last->value == value) || h->noutside >= reclaim_history_keep || h->torn) {
		reclaim_history_unref(h);
		return 0;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	o.sec = now.tv_sec;
	o.nsec = now.tv_nsec;
	f = open_memstream(&text, &len);
	if (f)
		format_outside(f, &o);
	r = !f || fclose(f) != 0 ? -ENOMEM : append_text(h, text, len);
	if (r == 0)
		*seen_ns = o.sec * 1000000000 + o.nsec;
	reclaim_history_unref(h);
	return r;
}

int reclaim_history_note_outside(struct reclaim_ctx *ctx, const struct reclaim_knob *k,
				 int64_t expected, int64_t value, int64_t *seen_ns)
{
	int fd = -1, r = reclaim_lock_try(ctx, &fd);

	*seen_ns = 0;
	if (r == 0)
		r = note_locked(ctx, k, expected, value, seen_ns);
	reclaim_lock_release(fd);
	return r;
}

RECLAIM_EXPORT size_t reclaim_history_outside_count(const struct reclaim_history *h)
{
	assert_return(h, 0);
	return h->noutside;
}

#define OUTSIDE(h, idx) (&(h)->outside[idx])

RECLAIM_EXPORT const struct reclaim_knob *
reclaim_history_outside_knob(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->noutside, NULL);
	return OUTSIDE(h, idx)->knob;
}

RECLAIM_EXPORT int64_t reclaim_history_outside_time_ns(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->noutside, 0);
	return OUTSIDE(h, idx)->sec * 1000000000 + OUTSIDE(h, idx)->nsec;
}

RECLAIM_EXPORT int64_t reclaim_history_outside_expected(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->noutside, 0);
	return OUTSIDE(h, idx)->expected;
}

RECLAIM_EXPORT int64_t reclaim_history_outside_value(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->noutside, 0);
	return OUTSIDE(h, idx)->value;
}

RECLAIM_EXPORT size_t reclaim_history_outside_after(const struct reclaim_history *h, size_t idx)
{
	assert_return(h && idx < h->noutside, 0);
	return OUTSIDE(h, idx)->after;
}
