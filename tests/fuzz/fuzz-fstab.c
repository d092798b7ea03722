// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /etc/fstab and the pri= edit of `swap priority --persist`. For each swap
 * entry (up to four), pri= is set; then:
 * - if the edit failed, the file is byte for byte as it was;
 * - if it succeeded, only one line changed, the file has as many lines, and
 *   libmount, reading the file on its own, finds the same swap entries with
 *   pri= at the new value for that one and the old options for the others;
 *   reclaimctl's own reading agrees.
 */
#include <libmount.h>

#include "fuzz.h"

struct entries {
	size_t n;
	char *source[8], *options[8];
};

static void entries_free(struct entries *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->source[i]), free(e->options[i]);
	e->n = 0;
}

static int ignore_errors(struct libmnt_table *tb, const char *file, int line)
{
	(void)tb, (void)file, (void)line;
	return 1; /* skip the line, as mount(8) does */
}

/* The swap entries of the root's fstab, as libmount reads it. */
static void libmount_read(struct entries *e)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/etc/fstab", fuzz_root_dir);
	e->n = 0;
	mnt_table_set_parser_errcb(tb, ignore_errors);
	mnt_table_parse_fstab(tb, path);
	while (mnt_table_next_fs(tb, itr, &fs) == 0 && e->n < 8) {
		const char *opts = mnt_fs_get_options(fs);

		if (!mnt_fs_get_fstype(fs) || strcmp(mnt_fs_get_fstype(fs), "swap") != 0)
			continue;
		e->source[e->n] = strdup(mnt_fs_get_source(fs) ? mnt_fs_get_source(fs) : "");
		e->options[e->n] = strdup(opts ? opts : "");
		e->n++;
	}
	mnt_free_iter(itr);
	mnt_unref_table(tb);
}

static char *without_pri(const char *opts)
{
	char *s = strdup(opts);

	mnt_optstr_remove_option(&s, "pri");
	return s;
}

static int pri_of(const char *opts)
{
	char *v = NULL;
	size_t len = 0;

	if (mnt_optstr_get_option(opts, "pri", &v, &len) != 0 || !v || len == 0 || len > 6)
		return -1;
	return atoi(strndupa(v, len));
}

static size_t count_lines(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += s[i] == '\n';
	return n;
}

/* The number of lines of @a and @b (as many lines each) that differ. */
static size_t lines_changed(const char *a, size_t alen, const char *b, size_t blen)
{
	const char *aend = a + alen, *bend = b + blen;
	size_t n = 0;

	while (a < aend || b < bend) {
		const char *na = memchr(a, '\n', (size_t)(aend - a)),
			   *nb = memchr(b, '\n', (size_t)(bend - b));
		size_t la = (size_t)((na ? na : aend) - a), lb = (size_t)((nb ? nb : bend) - b);

		n += la != lb || memcmp(a, b, la) != 0;
		a += la + (na != NULL);
		b += lb + (nb != NULL);
	}
	return n;
}

static void edit(const char *before, size_t before_len, size_t idx, int prio)
{
	struct reclaim_ctx *ctx = fuzz_ctx();
	struct reclaim_fstab *fstab = NULL;
	struct entries old = {0}, now = {0};
	char *after;
	size_t after_len = 0;
	int r;

	if (reclaim_fstab_new(ctx, &fstab) < 0 || idx >= reclaim_fstab_count(fstab))
		goto out;
	libmount_read(&old);
	r = reclaim_fstab_set_priority(fstab, idx, prio);
	fuzz_check_error(ctx, r);
	after = fuzz_read("/etc/fstab", &after_len);
	if (r < 0) {
		fuzz_check(after_len == before_len && memcmp(after, before, before_len) == 0,
			   "entry %zu: failed (%s), yet the file changed", idx,
			   reclaim_strerror(ctx));
		free(after);
		goto out;
	}
	fuzz_check(count_lines(after, after_len) == count_lines(before, before_len) ||
		       (before_len && before[before_len - 1] != '\n'),
		   "entry %zu: %zu lines, not %zu", idx, count_lines(after, after_len),
		   count_lines(before, before_len));
	fuzz_check(lines_changed(before, before_len, after, after_len) <= 1,
		   "entry %zu: %zu lines changed", idx,
		   lines_changed(before, before_len, after, after_len));
	libmount_read(&now);
	fuzz_check(now.n == old.n, "entry %zu: libmount finds %zu swap entries, not %zu", idx,
		   now.n, old.n);
	for (size_t i = 0; i < now.n && i < 8; i++) {
		char *a = without_pri(old.options[i]), *b = without_pri(now.options[i]);

		fuzz_check(strcmp(now.source[i], old.source[i]) == 0, "entry %zu: source", i);
		if (i == idx)
			fuzz_check(pri_of(now.options[i]) == prio, "entry %zu: \"%s\", not pri=%d",
				   i, now.options[i], prio);
		else
			fuzz_check(strcmp(now.options[i], old.options[i]) == 0,
				   "entry %zu: options \"%s\", were \"%s\"", i, now.options[i],
				   old.options[i]);
		fuzz_check(strcmp(a, b) == 0, "entry %zu: other options \"%s\", were \"%s\"", i, b,
			   a);
		free(a), free(b);
	}
	free(after);
out:
	entries_free(&old);
	entries_free(&now);
	reclaim_fstab_unref(fstab);
	reclaim_unref(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (size_t idx = 0; idx < 4; idx++) {
		fuzz_root();
		fuzz_write("/etc/fstab", (const char *)data, size, 0644);
		edit((const char *)data, size, idx, (int)(7 + idx * 1000));
	}
	return 0;
}
