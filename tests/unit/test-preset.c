// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Presets: the file format (every error with its FILE:LINE message), names,
 * the lookup order (an administrator's preset over the shipped one), the
 * listing, RECLAIMCTL_PRESET_DIR, and the presets shipped in presets/.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "reclaim.h"
#include "tmproot.h"

#define ADMIN "/etc/reclaimctl/presets"
/* The same, as tmproot_mkdirs() takes it: relative to the root. */
#define ADMIN_REL     "etc/reclaimctl/presets"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* The shipped directory of these tests, under the temporary root (but not read through it). */
#define SHIPPED "/shipped"

struct fixture {
	char *root;
	char shipped[PATH_MAX];
	struct reclaim_ctx *ctx;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->root = tmproot_new();
	snprintf(f->shipped, sizeof(f->shipped), "%s" SHIPPED, f->root);
	tmproot_mkdirs(f->root, "shipped");
	assert_int_equal(setenv("RECLAIMCTL_PRESET_DIR", f->shipped, 1), 0);
	assert_int_equal(reclaim_new(&f->ctx, f->root), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	reclaim_unref(f->ctx);
	tmproot_remove(f->root);
	free(f);
	unsetenv("RECLAIMCTL_PRESET_DIR");
	return 0;
}

static void admin_preset(struct fixture *f, const char *name, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), ADMIN "/%s.preset", name);
	tmproot_write(f->root, path, text);
}

static void shipped_preset(struct fixture *f, const char *name, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), SHIPPED "/%s.preset", name);
	tmproot_write(f->root, path, text);
}

/* Loads admin preset "t" with @text: must fail with -EBADMSG and @message. */
static void expect_refused(struct fixture *f, const char *text, const char *message)
{
	struct reclaim_preset *p = (struct reclaim_preset *)0x1;

	admin_preset(f, "t", text);
	assert_int_equal(reclaim_preset_load(f->ctx, "t", &p), -EBADMSG);
	assert_string_equal(reclaim_strerror(f->ctx), message);
	/* Nothing of a refused preset is handed out. */
	assert_ptr_equal(p, (struct reclaim_preset *)0x1);
}

static struct reclaim_preset *load_ok(struct fixture *f, const char *name)
{
	struct reclaim_preset *p = NULL;
	int r = reclaim_preset_load(f->ctx, name, &p);

	if (r < 0)
		fail_msg("%s: %s", name, reclaim_strerror(f->ctx));
	assert_non_null(p);
	return p;
}

static void test_entries(void **state)
{
	struct fixture *f = *state;
	struct reclaim_preset *p;

	admin_preset(f, "t",
		     "# SPDX-License-Identifier: GPL-2.0-or-later\n"
		     "#\n"
		     "#   A test preset,\n"
		     "# over two lines.\n"
		     "#\n"
		     "# Not part of the description.\n"
		     "\n"
		     "threads = 4\n"
		     "vm.swappiness=10\n"
		     "\t  swap-quota   =\t2M  # a trailing comment\n"
		     "   # an indented comment\n"
		     "throttle = auto\n"
		     "min_free_kbytes = 64K\n"
		     "zone_reclaim_mode = 0");
	p = load_ok(f, "t");
	assert_string_equal(reclaim_preset_name(p), "t");
	assert_string_equal(reclaim_preset_path(p), ADMIN "/t.preset");
	assert_true(reclaim_preset_is_admin(p));
	assert_false(reclaim_preset_overrides_shipped(p));
	assert_string_equal(reclaim_preset_description(p), "A test preset, over two lines.");
	assert_int_equal(reclaim_preset_count(p), 6);

	assert_ptr_equal(reclaim_preset_knob(p, 0), reclaim_knob_find("kswapd_threads"));
	assert_int_equal(reclaim_preset_value(p, 0), 4);
	assert_int_equal(reclaim_preset_line(p, 0), 8);
	assert_false(reclaim_preset_is_auto(p, 0));

	assert_ptr_equal(reclaim_preset_knob(p, 1), reclaim_knob_find("swappiness"));
	assert_int_equal(reclaim_preset_value(p, 1), 10);
	assert_int_equal(reclaim_preset_line(p, 1), 9);

	assert_ptr_equal(reclaim_preset_knob(p, 2), reclaim_knob_find("swap_round_robin_quota_kb"));
	assert_int_equal(reclaim_preset_value(p, 2), 2048);
	assert_int_equal(reclaim_preset_line(p, 2), 10);

	assert_ptr_equal(reclaim_preset_knob(p, 3), reclaim_knob_find("max_direct_reclaimers"));
	assert_true(reclaim_preset_is_auto(p, 3));
	assert_int_equal(reclaim_preset_value(p, 3), 0);
	assert_int_equal(reclaim_preset_line(p, 3), 12);

	assert_int_equal(reclaim_preset_value(p, 4), 64);
	assert_int_equal(reclaim_preset_line(p, 5), 14); /* no newline at the end */

	assert_int_equal(reclaim_preset_find(p, reclaim_knob_find("throttle")), 3);
	assert_int_equal(reclaim_preset_find(p, reclaim_knob_find("watermark_scale_factor")), -1);

	/* Out of range and NULL: no crash, neutral values. */
	assert_null(reclaim_preset_knob(p, 6));
	assert_false(reclaim_preset_is_auto(p, 6));
	assert_int_equal(reclaim_preset_line(p, 6), 0);
	assert_null(reclaim_preset_name(NULL));
	assert_int_equal(reclaim_preset_count(NULL), 0);

	assert_ptr_equal(reclaim_preset_ref(p), p);
	assert_null(reclaim_preset_unref(p));
	assert_string_equal(reclaim_preset_name(p), "t");
	assert_null(reclaim_preset_unref(p));
	assert_null(reclaim_preset_unref(NULL));
}

/* Files written on Windows: CRLF line ends are fine. */
static void test_crlf(void **state)
{
	struct fixture *f = *state;
	struct reclaim_preset *p;

	admin_preset(f, "t", "# Written elsewhere.\r\n\r\nswappiness = 20\r\nthrottle = auto\r\n");
	p = load_ok(f, "t");
	assert_string_equal(reclaim_preset_description(p), "Written elsewhere.");
	assert_int_equal(reclaim_preset_count(p), 2);
	assert_int_equal(reclaim_preset_value(p, 0), 20);
	assert_true(reclaim_preset_is_auto(p, 1));
	reclaim_preset_unref(p);
}

static void test_empty_and_descriptions(void **state)
{
	struct fixture *f = *state;
	struct reclaim_preset *p;

	/* An empty preset is valid: applying it changes nothing. */
	admin_preset(f, "empty", "");
	p = load_ok(f, "empty");
	assert_int_equal(reclaim_preset_count(p), 0);
	assert_null(reclaim_preset_description(p));
	reclaim_preset_unref(p);

	/* The description is the leading comment: not one after an entry. */
	admin_preset(f, "late", "swappiness = 1\n# Too late.\n");
	p = load_ok(f, "late");
	assert_null(reclaim_preset_description(p));
	reclaim_preset_unref(p);

	/* Blank lines before the first comment are skipped; a blank line ends it. */
	admin_preset(f, "blank", "\n\n# First.\n# Still first.\n\n# Second.\nswappiness = 1\n");
	p = load_ok(f, "blank");
	assert_string_equal(reclaim_preset_description(p), "First. Still first.");
	reclaim_preset_unref(p);

	/* Only SPDX and empty comment lines: no description. */
	admin_preset(f, "spdx", "# SPDX-License-Identifier: MIT\n#\n");
	p = load_ok(f, "spdx");
	assert_null(reclaim_preset_description(p));
	reclaim_preset_unref(p);
}

static void test_errors(void **state)
{
	struct fixture *f = *state;

	expect_refused(f, "# fine\nswappiness 10\n",
		       ADMIN "/t.preset:2: expected KNOB = VALUE, found no '='");
	expect_refused(f, "= 10\n", ADMIN "/t.preset:1: no knob before '='");
	expect_refused(f, "swappiness = 10\n\nswapiness = 10\n",
		       ADMIN "/t.preset:3: unknown knob 'swapiness'");
	/* A knob is named as for reclaimctl get; case matters. */
	expect_refused(f, "Swappiness = 10\n", ADMIN "/t.preset:1: unknown knob 'Swappiness'");
	expect_refused(f, "swappiness =  # none\n", ADMIN "/t.preset:1: no value for swappiness");
	expect_refused(f, "swappiness = ten\n",
		       ADMIN "/t.preset:1: invalid value 'ten' for swappiness: expected an integer "
			     "from 0 to 200");
	expect_refused(f, "swappiness = 1 0\n",
		       ADMIN "/t.preset:1: invalid value '1 0' for swappiness: expected an integer "
			     "from 0 to 200");
	expect_refused(f, "threads = 17\n",
		       ADMIN "/t.preset:1: invalid value '17' for kswapd_threads: expected an "
			     "integer from 1 to 16");
	expect_refused(f, "threads = 0\n",
		       ADMIN "/t.preset:1: invalid value '0' for kswapd_threads: expected an "
			     "integer from 1 to 16");
	expect_refused(f, "swap-quota = 2X\n",
		       ADMIN "/t.preset:1: invalid value '2X' for swap_round_robin_quota_kb: "
			     "expected a size in KiB from 0 to 1048576 (suffixes K, M, G)");
	expect_refused(f, "swap-quota = 2G\n",
		       ADMIN "/t.preset:1: invalid value '2G' for swap_round_robin_quota_kb: "
			     "expected a size in KiB from 0 to 1048576 (suffixes K, M, G)");
	/* Sizes are for the KiB knobs only. */
	expect_refused(f, "swappiness = 1K\n",
		       ADMIN "/t.preset:1: invalid value '1K' for swappiness: expected an integer "
			     "from 0 to 200");
	expect_refused(
	    f, "swappiness = auto\n",
	    ADMIN "/t.preset:1: swappiness has no automatic value (auto is known for "
		  "kswapd_threads, max_direct_reclaimers, zswap_enabled, numa_demotion_enabled)");
	expect_refused(f, "throttle = Auto\n",
		       ADMIN "/t.preset:1: invalid value 'Auto' for max_direct_reclaimers: "
			     "expected an integer from 0 to 1024");
	/* Duplicates, however the knob is named. */
	expect_refused(f, "kswapd_threads = 2\n# again\nthreads = 3\n",
		       ADMIN "/t.preset:3: kswapd_threads is already set on line 1");
	expect_refused(f, "throttle = auto\nvm.max_direct_reclaimers = auto\n",
		       ADMIN "/t.preset:2: max_direct_reclaimers is already set on line 1");
	/* The first bad line is reported, even after good ones. */
	expect_refused(f, "swappiness = 10\nthreads = 2\nbogus\nalso bogus\n",
		       ADMIN "/t.preset:3: expected KNOB = VALUE, found no '='");
}

static void test_binary_and_size(void **state)
{
	struct fixture *f = *state;
	char path[PATH_MAX];
	struct reclaim_preset *p;
	char *big;
	int fd;

	/* A NUL byte: the line it is on. */
	snprintf(path, sizeof(path), "%s" ADMIN "/nul.preset", f->root);
	tmproot_mkdirs(f->root, ADMIN_REL);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "swappiness = 1\n# x\0y\n", 21), 21);
	close(fd);
	assert_int_equal(reclaim_preset_load(f->ctx, "nul", &p), -EBADMSG);
	assert_string_equal(reclaim_strerror(f->ctx),
			    ADMIN "/nul.preset:2: a NUL byte: this is not a text file");

	/* 65536 bytes is the most a preset may have. */
	big = malloc(65537 + 1);
	assert_non_null(big);
	memset(big, '#', 65536);
	big[65535] = '\n';
	big[65536] = '\0';
	admin_preset(f, "big", big);
	p = load_ok(f, "big");
	reclaim_preset_unref(p);
	big[65535] = '#';
	big[65536] = '\n';
	big[65537] = '\0';
	admin_preset(f, "big", big);
	assert_int_equal(reclaim_preset_load(f->ctx, "big", &p), -EBADMSG);
	assert_string_equal(reclaim_strerror(f->ctx),
			    ADMIN "/big.preset: too large: a preset has at most 65536 bytes");
	free(big);
}

static void test_not_regular(void **state)
{
	struct fixture *f = *state;
	char path[PATH_MAX];
	struct reclaim_preset *p;

	/* A directory and a FIFO (which must not block the reader). */
	tmproot_mkdirs(f->root, ADMIN_REL "/dir.preset");
	assert_int_equal(reclaim_preset_load(f->ctx, "dir", &p), -EISDIR);
	assert_string_equal(reclaim_strerror(f->ctx), ADMIN "/dir.preset: not a regular file");
	snprintf(path, sizeof(path), "%s" ADMIN "/fifo.preset", f->root);
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(reclaim_preset_load(f->ctx, "fifo", &p), -EBADMSG);
	assert_string_equal(reclaim_strerror(f->ctx), ADMIN "/fifo.preset: not a regular file");
}

static void expect_bad_name(struct fixture *f, const char *name, const char *message)
{
	struct reclaim_preset *p = NULL;

	assert_int_equal(reclaim_preset_load(f->ctx, name, &p), -EINVAL);
	assert_string_equal(reclaim_strerror(f->ctx), message);
	assert_null(p);
}

static void test_names(void **state)
{
	struct fixture *f = *state;
	char name[300];

	/* Even when a file of that name exists, a path is not a name. */
	tmproot_write(f->root, "/etc/reclaimctl/x.preset", "swappiness = 1\n");
	expect_bad_name(f, "", "invalid preset name: it is empty");
	expect_bad_name(f, "../x",
			"invalid preset name '../x': it contains '/' (a preset is named, not given "
			"as a path)");
	expect_bad_name(f, "/etc/passwd",
			"invalid preset name '/etc/passwd': it contains '/' (a preset is named, "
			"not given as a path)");
	expect_bad_name(f, ".hidden", "invalid preset name '.hidden': it starts with '.'");
	expect_bad_name(f, ".", "invalid preset name '.': it starts with '.'");
	expect_bad_name(f, "..", "invalid preset name '..': it starts with '.'");
	expect_bad_name(f, "a b",
			"invalid preset name: it contains a space or a control character");
	expect_bad_name(f, "a\nb",
			"invalid preset name: it contains a space or a control character");
	memset(name, 'a', 249);
	name[249] = '\0';
	expect_bad_name(f, name, "invalid preset name: it is longer than 248 characters");
	/* 248 characters is a name; there is just no such preset. */
	name[248] = '\0';
	assert_int_equal(reclaim_preset_load(f->ctx, name, &(struct reclaim_preset *){NULL}),
			 -ENOENT);
}

static void test_not_found(void **state)
{
	struct fixture *f = *state;
	struct reclaim_preset *p = NULL;
	char want[PATH_MAX * 2];

	assert_int_equal(reclaim_preset_load(f->ctx, "nope", &p), -ENOENT);
	snprintf(want, sizeof(want), "no preset nope (looked in " ADMIN ", %s)", f->shipped);
	assert_string_equal(reclaim_strerror(f->ctx), want);
	assert_int_equal(reclaim_preset_load(f->ctx, "nope.preset", &p), -ENOENT);
	snprintf(want, sizeof(want),
		 "no preset nope.preset (looked in " ADMIN ", %s); name it without .preset",
		 f->shipped);
	assert_string_equal(reclaim_strerror(f->ctx), want);
	assert_null(p);
}

static void test_override(void **state)
{
	struct fixture *f = *state;
	struct reclaim_preset *p;
	char want[PATH_MAX * 2];

	shipped_preset(f, "both", "# Shipped.\nswappiness = 1\n");
	shipped_preset(f, "ship", "# Shipped only.\nswappiness = 2\n");
	admin_preset(f, "both", "# Admin.\nswappiness = 3\n");
	admin_preset(f, "mine", "swappiness = 4\n");

	p = load_ok(f, "both");
	assert_true(reclaim_preset_is_admin(p));
	assert_true(reclaim_preset_overrides_shipped(p));
	assert_string_equal(reclaim_preset_path(p), ADMIN "/both.preset");
	assert_string_equal(reclaim_preset_description(p), "Admin.");
	assert_int_equal(reclaim_preset_value(p, 0), 3);
	reclaim_preset_unref(p);

	/* The shipped one is read from its directory as it is, not under the root. */
	p = load_ok(f, "ship");
	assert_false(reclaim_preset_is_admin(p));
	assert_false(reclaim_preset_overrides_shipped(p));
	snprintf(want, sizeof(want), "%s/ship.preset", f->shipped);
	assert_string_equal(reclaim_preset_path(p), want);
	assert_int_equal(reclaim_preset_value(p, 0), 2);
	reclaim_preset_unref(p);

	p = load_ok(f, "mine");
	assert_true(reclaim_preset_is_admin(p));
	assert_false(reclaim_preset_overrides_shipped(p));
	reclaim_preset_unref(p);

	/* A malformed admin preset is an error: the shipped one does not stand in. */
	admin_preset(f, "both", "swappiness = 300\n");
	assert_int_equal(reclaim_preset_load(f->ctx, "both", &p), -EBADMSG);
	assert_string_equal(reclaim_strerror(f->ctx),
			    ADMIN "/both.preset:1: invalid value '300' for swappiness: expected an "
				  "integer from 0 to 200");
}

static void test_preset_dir(void **state)
{
	struct fixture *f = *state;
	struct reclaim_preset *p;
	char dir[PATH_MAX + 2], want[PATH_MAX * 2];

	assert_string_equal(reclaim_preset_shipped_dir(), f->shipped);
	/* Trailing slashes do not show in paths. */
	snprintf(dir, sizeof(dir), "%s//", f->shipped);
	assert_int_equal(setenv("RECLAIMCTL_PRESET_DIR", dir, 1), 0);
	shipped_preset(f, "s", "swappiness = 1\n");
	p = load_ok(f, "s");
	snprintf(want, sizeof(want), "%s/s.preset", f->shipped);
	assert_string_equal(reclaim_preset_path(p), want);
	reclaim_preset_unref(p);

	/* Unset or empty: the directory the library was built with. */
	assert_int_equal(setenv("RECLAIMCTL_PRESET_DIR", "", 1), 0);
	assert_string_equal(reclaim_preset_shipped_dir(), RECLAIM_PRESET_DIR);
	unsetenv("RECLAIMCTL_PRESET_DIR");
	assert_string_equal(reclaim_preset_shipped_dir(), RECLAIM_PRESET_DIR);
}

static void test_list(void **state)
{
	struct fixture *f = *state;
	struct reclaim_preset_list *l;
	char path[PATH_MAX], want[PATH_MAX * 2];

	/* Neither directory: an empty list, not an error. */
	assert_int_equal(rmdir(f->shipped), 0);
	assert_int_equal(reclaim_preset_list_new(f->ctx, &l), 0);
	assert_int_equal(reclaim_preset_list_count(l), 0);
	reclaim_preset_list_unref(l);

	shipped_preset(f, "zeta", "");
	shipped_preset(f, "alpha", "");
	shipped_preset(f, "both", "");
	admin_preset(f, "both", "");
	admin_preset(f, "mid", "swappiness = nonsense\n"); /* listed all the same */
	admin_preset(f, ".hidden", "");
	tmproot_write(f->root, ADMIN "/notes.txt", "");
	tmproot_write(f->root, ADMIN "/.preset", "");
	tmproot_write(f->root, ADMIN "/a b.preset", "");
	tmproot_mkdirs(f->root, ADMIN_REL "/dir.preset");
	snprintf(path, sizeof(path), "%s" ADMIN "/link.preset", f->root);
	assert_int_equal(symlink("mid.preset", path), 0);
	snprintf(path, sizeof(path), "%s" ADMIN "/dangling.preset", f->root);
	assert_int_equal(symlink("nowhere.preset", path), 0);

	assert_int_equal(reclaim_preset_list_new(f->ctx, &l), 0);
	assert_int_equal(reclaim_preset_list_count(l), 5);
	assert_string_equal(reclaim_preset_list_name(l, 0), "alpha");
	assert_string_equal(reclaim_preset_list_name(l, 1), "both");
	assert_string_equal(reclaim_preset_list_name(l, 2), "link");
	assert_string_equal(reclaim_preset_list_name(l, 3), "mid");
	assert_string_equal(reclaim_preset_list_name(l, 4), "zeta");

	assert_false(reclaim_preset_list_is_admin(l, 0));
	assert_false(reclaim_preset_list_overrides_shipped(l, 0));
	snprintf(want, sizeof(want), "%s/alpha.preset", f->shipped);
	assert_string_equal(reclaim_preset_list_path(l, 0), want);

	assert_true(reclaim_preset_list_is_admin(l, 1));
	assert_true(reclaim_preset_list_overrides_shipped(l, 1));
	assert_string_equal(reclaim_preset_list_path(l, 1), ADMIN "/both.preset");

	assert_true(reclaim_preset_list_is_admin(l, 3));
	assert_false(reclaim_preset_list_overrides_shipped(l, 3));
	assert_string_equal(reclaim_preset_list_path(l, 3), ADMIN "/mid.preset");

	assert_null(reclaim_preset_list_name(l, 5));
	assert_ptr_equal(reclaim_preset_list_ref(l), l);
	reclaim_preset_list_unref(l);
	assert_string_equal(reclaim_preset_list_name(l, 0), "alpha");
	assert_null(reclaim_preset_list_unref(l));
}

/* The presets in presets/, as installed: all parse, and say what they should. */
static void test_shipped(void **state)
{
	struct fixture *f = *state;
	static const char *const names[] = {"balanced", "kernel-default", "latency", "throughput"};
	struct reclaim_preset_list *l;
	struct reclaim_preset *p;
	char want[PATH_MAX * 2];

	assert_int_equal(setenv("RECLAIMCTL_PRESET_DIR", SOURCE_PRESETS, 1), 0);
	assert_int_equal(reclaim_preset_list_new(f->ctx, &l), 0);
	assert_int_equal(reclaim_preset_list_count(l), ARRAY_SIZE(names));
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		assert_string_equal(reclaim_preset_list_name(l, i), names[i]);
		assert_false(reclaim_preset_list_is_admin(l, i));
		p = load_ok(f, names[i]);
		snprintf(want, sizeof(want), SOURCE_PRESETS "/%s.preset", names[i]);
		assert_string_equal(reclaim_preset_path(p), want);
		/* preset list shows it: a short sentence. */
		assert_non_null(reclaim_preset_description(p));
		assert_true(strlen(reclaim_preset_description(p)) <= 80);
		assert_true(reclaim_preset_count(p) > 0);
		for (size_t j = 0; j < reclaim_preset_count(p); j++) {
			const struct reclaim_knob *k = reclaim_preset_knob(p, j);
			bool in_table = false;

			for (size_t t = 0; t < reclaim_knob_count(); t++)
				in_table |= reclaim_knob_get(t) == k;
			assert_true(in_table);
			if (reclaim_preset_is_auto(p, j))
				assert_true(reclaim_knob_has_recommendation(k));
			else
				assert_true(reclaim_preset_value(p, j) >= reclaim_knob_min(k) &&
					    reclaim_preset_value(p, j) <= reclaim_knob_max(k));
		}
		reclaim_preset_unref(p);
	}
	reclaim_preset_list_unref(l);

	/* kernel-default: every knob with a fixed default, at that default, and only those. */
	p = load_ok(f, "kernel-default");
	for (size_t t = 0; t < reclaim_knob_count(); t++) {
		const struct reclaim_knob *k = reclaim_knob_get(t);
		ssize_t idx = reclaim_preset_find(p, k);

		if (reclaim_knob_default(k) < 0) {
			assert_int_equal(idx, -1);
			continue;
		}
		assert_true(idx >= 0);
		assert_false(reclaim_preset_is_auto(p, (size_t)idx));
		assert_int_equal(reclaim_preset_value(p, (size_t)idx), reclaim_knob_default(k));
	}
	reclaim_preset_unref(p);

	/*
	 * balanced: auto for every knob that has a rule, and nothing else, but
	 * the throttle (its OOM latency: tests/vm/scenarios/throttle-oom-latency.sh).
	 */
	p = load_ok(f, "balanced");
	for (size_t t = 0; t < reclaim_knob_count(); t++) {
		const struct reclaim_knob *k = reclaim_knob_get(t);
		ssize_t idx = reclaim_preset_find(p, k);

		if (strcmp(reclaim_knob_name(k), "max_direct_reclaimers") == 0) {
			assert_int_equal(idx, -1);
		} else if (reclaim_knob_has_recommendation(k)) {
			assert_true(idx >= 0);
			assert_true(reclaim_preset_is_auto(p, (size_t)idx));
		} else {
			assert_int_equal(idx, -1);
		}
	}
	reclaim_preset_unref(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_entries, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_crlf, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_empty_and_descriptions, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_binary_and_size, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_not_regular, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_names, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_not_found, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_override, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_preset_dir, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_list, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_shipped, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
