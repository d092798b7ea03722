// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sysctl.d scanner (systemd-sysctl's order, masks, precedence, syntax)
 * and the persisted file, on temporary roots.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sysctl-internal.h"
#include "tmproot.h"

static int setup(void **state)
{
	*state = tmproot_new();
	return 0;
}

static int teardown(void **state)
{
	tmproot_remove(*state);
	return 0;
}

static struct reclaim_sysctl_conf *scan(const char *root, struct reclaim_ctx **ctx)
{
	struct reclaim_sysctl_conf *c = NULL;

	assert_int_equal(reclaim_new(ctx, root), 0);
	assert_int_equal(reclaim_sysctl_conf_new(*ctx, &c), 0);
	return c;
}

/*
 * The entries of @name in order, "FILE:LINE=VALUE" separated by spaces;
 * "=(excluded)" for an exclusion, "*" after the one that wins, "+" after
 * reclaimctl's own. Static buffer.
 */
static const char *entries(const struct reclaim_sysctl_conf *c, const char *name)
{
	static char buf[2048];
	const struct reclaim_knob *k = knob(name);
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < reclaim_sysctl_conf_count(c); i++) {
		const char *v = reclaim_sysctl_conf_value(c, i);

		if (reclaim_sysctl_conf_knob(c, i) != k)
			continue;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s:%u=%s%s%s",
					len ? " " : "", reclaim_sysctl_conf_file(c, i),
					reclaim_sysctl_conf_line(c, i), v ? v : "(excluded)",
					reclaim_sysctl_conf_wins(c, i) ? "*" : "",
					reclaim_sysctl_conf_is_own(c, i) ? "+" : "");
		assert_true(len < sizeof(buf));
	}
	return buf;
}

/* "FILE:LINE[ KNOB]: MESSAGE" of every problem, one a line. Static buffer. */
static const char *problems(const struct reclaim_sysctl_conf *c)
{
	static char buf[4096];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < reclaim_sysctl_conf_problem_count(c); i++) {
		const struct reclaim_knob *k = reclaim_sysctl_conf_problem_knob(c, i);

		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s:%u%s%s: %s\n",
					reclaim_sysctl_conf_problem_file(c, i),
					reclaim_sysctl_conf_problem_line(c, i), k ? " " : "",
					k ? reclaim_knob_name(k) : "",
					reclaim_sysctl_conf_problem_message(c, i));
		assert_true(len < sizeof(buf));
	}
	return buf;
}

static void test_normalize(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
	    {"vm.swappiness", "vm/swappiness"},
	    {"vm/swappiness", "vm/swappiness"},
	    {"/vm//swappiness/", "vm/swappiness"},
	    {"vm/./swappiness", "vm/swappiness"},
	    /* as systemd: the first separator is a '.', so dots and slashes swap */
	    {"./vm/./swappiness", ".vm./.swappiness"},
	    /* sysctl.d(5): the first separator decides */
	    {"net.ipv4.conf.enp3s0/200.forwarding", "net/ipv4/conf/enp3s0.200/forwarding"},
	    {"net/ipv4/conf/enp3s0.200/forwarding", "net/ipv4/conf/enp3s0.200/forwarding"},
	    {"vm.*", "vm/*"},
	    {"", ""},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = strdup(cases[i].in);

		assert_non_null(s);
		assert_string_equal(reclaim_sysctl_normalize(s), cases[i].out);
		free(s);
	}
	assert_true(reclaim_sysctl_matches("vm/swappiness", knob("swappiness")));
	assert_false(reclaim_sysctl_matches("vm/swappines", knob("swappiness")));
	assert_true(reclaim_sysctl_matches("vm/swap*", knob("swappiness")));
	assert_true(reclaim_sysctl_matches("vm/*", knob("kswapd_threads")));
	assert_true(reclaim_sysctl_matches("*/kswapd_thread?", knob("kswapd_threads")));
	assert_true(reclaim_sysctl_matches("vm/[kz]*", knob("zone_reclaim_mode")));
	/* '*' does not cross a '/' (glob(7), FNM_PATHNAME) */
	assert_false(reclaim_sysctl_matches("*", knob("swappiness")));
	assert_false(reclaim_sysctl_matches("vm/net/*", knob("swappiness")));
	assert_ptr_equal(reclaim_sysctl_knob_by_path("vm/kswapd_threads"), knob("kswapd_threads"));
	assert_null(reclaim_sysctl_knob_by_path("vm/kswapd"));
}

static void parse(const char *text, struct sysctl_line *l)
{
	assert_int_equal(reclaim_sysctl_parse_line(text, strlen(text), l), 0);
}

static void test_parse_line(void **state)
{
	struct sysctl_line l;

	(void)state;
	const char *blank[] = {"",   "   ", "\r", "# vm.swappiness = 10", "  ; vm.swappiness = 10",
			       "\t#"};
	for (size_t i = 0; i < sizeof(blank) / sizeof(blank[0]); i++) {
		parse(blank[i], &l);
		assert_int_equal(l.kind, SYSCTL_LINE_BLANK);
		reclaim_sysctl_line_clear(&l);
	}

	parse("  vm.swappiness =  10 \r", &l);
	assert_int_equal(l.kind, SYSCTL_LINE_ASSIGN);
	assert_false(l.ignore_failure);
	assert_string_equal(l.key, "vm.swappiness");
	assert_string_equal(l.path, "vm/swappiness");
	assert_string_equal(l.value, "10");
	reclaim_sysctl_line_clear(&l);

	parse("-vm/swappiness=5", &l);
	assert_int_equal(l.kind, SYSCTL_LINE_ASSIGN);
	assert_true(l.ignore_failure);
	assert_string_equal(l.key, "vm/swappiness");
	assert_string_equal(l.value, "5");
	reclaim_sysctl_line_clear(&l);

	/* Only the first '=' separates; an empty value is a value. */
	parse("kernel.x = a=b", &l);
	assert_string_equal(l.value, "a=b");
	reclaim_sysctl_line_clear(&l);
	parse("vm.swappiness =", &l);
	assert_int_equal(l.kind, SYSCTL_LINE_ASSIGN);
	assert_string_equal(l.value, "");
	reclaim_sysctl_line_clear(&l);

	parse("- vm.watermark_scale_factor ", &l);
	assert_int_equal(l.kind, SYSCTL_LINE_EXCLUDE);
	assert_string_equal(l.key, "vm.watermark_scale_factor");
	assert_null(l.value);
	reclaim_sysctl_line_clear(&l);

	parse("vm.kswapd_threads 4", &l);
	assert_int_equal(l.kind, SYSCTL_LINE_INVALID);
	assert_string_equal(l.key, "vm.kswapd_threads");
	assert_string_equal(l.path, "vm/kswapd_threads");
	assert_non_null(strstr(l.problem, "not an assignment"));
	reclaim_sysctl_line_clear(&l);

	parse(" = 5", &l);
	assert_int_equal(l.kind, SYSCTL_LINE_INVALID);
	assert_string_equal(l.problem, "no key");
	reclaim_sysctl_line_clear(&l);
}

static void test_empty_root(void **state)
{
	struct reclaim_ctx *ctx;
	struct reclaim_sysctl_conf *c = scan(*state, &ctx);

	assert_int_equal(reclaim_sysctl_conf_count(c), 0);
	assert_int_equal(reclaim_sysctl_conf_problem_count(c), 0);
	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		assert_int_equal(reclaim_sysctl_conf_boot_entry(c, reclaim_knob_get(i)), -1);
		assert_int_equal(reclaim_sysctl_conf_admin_entry(c, reclaim_knob_get(i)), -1);
	}
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);
}

/* Files in the order of their names, whatever the directory; the last assignment wins. */
static void test_order(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_sysctl_conf *c;

	tmproot_write(root, "/usr/lib/sysctl.d/50-default.conf",
		      "# vendor\nvm.swappiness = 60\nvm.watermark_scale_factor = 10\n");
	tmproot_write(root, "/etc/sysctl.d/10-early.conf", "vm.swappiness = 1\n");
	tmproot_write(root, "/run/sysctl.d/60-run.conf", "\n\nvm.swappiness = 30\n");
	tmproot_write(root, "/usr/local/lib/sysctl.d/55-local.conf", "vm.swappiness = 20\n");
	tmproot_write(root, "/etc/sysctl.d/README", "vm.swappiness = 99\n");
	tmproot_write(root, "/etc/sysctl.d/70-x.conf.dpkg-old", "vm.swappiness = 99\n");
	tmproot_write(root, "/etc/sysctl.d/.80-hidden.conf", "vm.swappiness = 99\n");
	tmproot_write(root, "/usr/lib/sysctl.d/net.conf", "net.ipv4.ip_forward = 1\n");
	c = scan(root, &ctx);
	assert_string_equal(
	    entries(c, "swappiness"),
	    "/etc/sysctl.d/10-early.conf:1=1 /usr/lib/sysctl.d/50-default.conf:2=60 "
	    "/usr/local/lib/sysctl.d/55-local.conf:1=20 /run/sysctl.d/60-run.conf:3=30*");
	assert_string_equal(entries(c, "watermark_scale_factor"),
			    "/usr/lib/sysctl.d/50-default.conf:3=10*");
	assert_string_equal(entries(c, "kswapd_threads"), "");
	assert_string_equal(problems(c), "");
	assert_int_equal(reclaim_sysctl_conf_admin_entry(c, knob("swappiness")),
			 reclaim_sysctl_conf_boot_entry(c, knob("swappiness")));
	assert_string_equal(reclaim_sysctl_conf_key(c, 0), "vm.swappiness");
	assert_false(reclaim_sysctl_conf_is_glob(c, 0));
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);
}

/* A name in an earlier directory hides it in later ones; /dev/null and empty files mask. */
static void test_masks(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_sysctl_conf *c;

	tmproot_write(root, "/usr/lib/sysctl.d/50-a.conf", "vm.swappiness = 1\n");
	tmproot_write(root, "/usr/lib/sysctl.d/50-b.conf", "vm.swappiness = 2\n");
	tmproot_write(root, "/usr/lib/sysctl.d/50-c.conf", "vm.swappiness = 3\n");
	tmproot_write(root, "/usr/lib/sysctl.d/50-d.conf", "vm.swappiness = 4\n");
	tmproot_write(root, "/usr/lib/sysctl.d/50-e.conf", "vm.swappiness = 5\n");
	tmproot_write(root, "/run/sysctl.d/50-a.conf", "vm.swappiness = 10\n");
	/* a link to /dev/null masks, though the root has no /dev */
	tmproot_mkdirs(root, "etc/sysctl.d");
	tmproot_symlink(root, "/etc/sysctl.d/50-b.conf", "/dev/null");
	tmproot_write(root, "/etc/sysctl.d/50-c.conf", "");
	/* a dangling link hides the name too, and reads as nothing */
	tmproot_symlink(root, "/etc/sysctl.d/50-d.conf", "/nowhere/50-d.conf");
	/* a link to another file reads that file, shown by its own name */
	tmproot_write(root, "/etc/tuning/swap.txt", "\nvm.swappiness = 50\n");
	tmproot_symlink(root, "/etc/sysctl.d/50-e.conf", "../tuning/swap.txt");
	c = scan(root, &ctx);
	assert_string_equal(entries(c, "swappiness"),
			    "/run/sysctl.d/50-a.conf:1=10 /etc/tuning/swap.txt:2=50*");
	assert_string_equal(problems(c), "");
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);
}

/* /etc/sysctl.conf comes last, once even when a sysctl.d file links to it (Debian). */
static void test_sysctl_conf(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_sysctl_conf *c;

	tmproot_write(root, "/etc/sysctl.conf", "#\n# /etc/sysctl.conf\nvm.swappiness = 10\n");
	tmproot_write(root, "/etc/sysctl.d/99-zz.conf", "vm.swappiness = 20\n");
	c = scan(root, &ctx);
	assert_string_equal(entries(c, "swappiness"),
			    "/etc/sysctl.d/99-zz.conf:1=20 /etc/sysctl.conf:3=10*");
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);

	/* Debian's link: read at its place, shown as /etc/sysctl.conf, not twice. */
	tmproot_symlink(root, "/etc/sysctl.d/99-sysctl.conf", "../sysctl.conf");
	c = scan(root, &ctx);
	assert_string_equal(entries(c, "swappiness"),
			    "/etc/sysctl.conf:3=10 /etc/sysctl.d/99-zz.conf:1=20*");
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);

	/* An absolute link is followed inside the root. */
	tmproot_unlink(root, "/etc/sysctl.d/99-sysctl.conf");
	tmproot_symlink(root, "/etc/sysctl.d/99-sysctl.conf", "/etc/sysctl.conf");
	c = scan(root, &ctx);
	assert_string_equal(entries(c, "swappiness"),
			    "/etc/sysctl.conf:3=10 /etc/sysctl.d/99-zz.conf:1=20*");
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);

	/* /etc/sysctl.conf as a link to /dev/null: nothing */
	tmproot_unlink(root, "/etc/sysctl.d/99-sysctl.conf");
	tmproot_unlink(root, "/etc/sysctl.conf");
	tmproot_symlink(root, "/etc/sysctl.conf", "/dev/null");
	c = scan(root, &ctx);
	assert_string_equal(entries(c, "swappiness"), "/etc/sysctl.d/99-zz.conf:1=20*");
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);
}

/* /lib/sysctl.d counts on a split-usr root, and once on a merged one. */
static void test_lib(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_sysctl_conf *c;

	tmproot_write(root, "/usr/lib/sysctl.d/50-usr.conf", "vm.swappiness = 1\n");
	tmproot_write(root, "/lib/sysctl.d/50-usr.conf", "vm.swappiness = 2\n");
	tmproot_write(root, "/lib/sysctl.d/60-lib.conf", "vm.swappiness = 3\n");
	c = scan(root, &ctx);
	assert_string_equal(entries(c, "swappiness"),
			    "/usr/lib/sysctl.d/50-usr.conf:1=1 /lib/sysctl.d/60-lib.conf:1=3*");
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);

	/* merged: /lib -> usr/lib (absolute here: resolved inside the root) */
	tmproot_unlink(root, "/lib/sysctl.d/50-usr.conf");
	tmproot_unlink(root, "/lib/sysctl.d/60-lib.conf");
	{
		char full[PATH_MAX];

		snprintf(full, sizeof(full), "%s/lib/sysctl.d", root);
		assert_int_equal(rmdir(full), 0);
		snprintf(full, sizeof(full), "%s/lib", root);
		assert_int_equal(rmdir(full), 0);
	}
	tmproot_symlink(root, "/lib", "/usr/lib");
	c = scan(root, &ctx);
	assert_string_equal(entries(c, "swappiness"), "/usr/lib/sysctl.d/50-usr.conf:1=1*");
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);
}

/* '-' prefix, '/' separator, comments, CRLF, no newline at the end */
static void test_syntax(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_sysctl_conf *c;

	tmproot_write(root, "/etc/sysctl.d/50-syntax.conf",
		      "# comment\r\n"
		      "; vm.swappiness = 99\r\n"
		      "\r\n"
		      "-vm.swappiness = 11\r\n"
		      "vm/min_free_kbytes=65536\r\n"
		      "  vm.zone_reclaim_mode\t=\t1  \r\n"
		      "vm.watermark_scale_factor = 200");
	c = scan(root, &ctx);
	assert_string_equal(entries(c, "swappiness"), "/etc/sysctl.d/50-syntax.conf:4=11*");
	assert_string_equal(entries(c, "min_free_kbytes"), "/etc/sysctl.d/50-syntax.conf:5=65536*");
	assert_string_equal(entries(c, "zone_reclaim_mode"), "/etc/sysctl.d/50-syntax.conf:6=1*");
	assert_string_equal(entries(c, "watermark_scale_factor"),
			    "/etc/sysctl.d/50-syntax.conf:7=200*");
	assert_string_equal(reclaim_sysctl_conf_key(c, 0), "vm.swappiness");
	assert_string_equal(reclaim_sysctl_conf_key(c, 1), "vm/min_free_kbytes");
	assert_string_equal(problems(c), "");
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);
}

/* An explicit key beats every glob; "-key" keeps it out of globs; the last glob wins. */
static void test_globs(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_sysctl_conf *c;

	tmproot_write(root, "/etc/sysctl.d/10-a.conf",
		      "vm.swappiness = 10\n"
		      "-vm.watermark_scale_factor\n"
		      "vm.* = 5\n");
	tmproot_write(root, "/etc/sysctl.d/20-b.conf",
		      "vm.watermark_* = 100\n"
		      "vm/swap* = 6\n");
	/* The same value keeps the glob's earlier place; a new one moves it last. */
	tmproot_write(root, "/etc/sysctl.d/30-c.conf",
		      "vm.* = 5\n"
		      "vm.zone_* = 2\n");
	tmproot_write(root, "/etc/sysctl.d/40-d.conf", "vm.zone_* = 3\n");
	c = scan(root, &ctx);
	assert_string_equal(entries(c, "swappiness"),
			    "/etc/sysctl.d/10-a.conf:1=10* /etc/sysctl.d/10-a.conf:3=5 "
			    "/etc/sysctl.d/20-b.conf:2=6 /etc/sysctl.d/30-c.conf:1=5");
	/* excluded: nothing sets it */
	assert_string_equal(entries(c, "watermark_scale_factor"),
			    "/etc/sysctl.d/10-a.conf:2=(excluded)* /etc/sysctl.d/10-a.conf:3=5 "
			    "/etc/sysctl.d/20-b.conf:1=100 /etc/sysctl.d/30-c.conf:1=5");
	assert_int_equal(reclaim_sysctl_conf_admin_entry(c, knob("watermark_scale_factor")), -1);
	assert_true(reclaim_sysctl_conf_boot_entry(c, knob("watermark_scale_factor")) >= 0);
	/* vm.* = 5 kept its place before vm.watermark_* */
	assert_string_equal(entries(c, "watermark_boost_factor"),
			    "/etc/sysctl.d/10-a.conf:3=5 /etc/sysctl.d/20-b.conf:1=100* "
			    "/etc/sysctl.d/30-c.conf:1=5");
	assert_string_equal(entries(c, "swap_round_robin_quota_kb"),
			    "/etc/sysctl.d/10-a.conf:3=5 /etc/sysctl.d/20-b.conf:2=6* "
			    "/etc/sysctl.d/30-c.conf:1=5");
	assert_string_equal(entries(c, "zone_reclaim_mode"),
			    "/etc/sysctl.d/10-a.conf:3=5 /etc/sysctl.d/30-c.conf:1=5 "
			    "/etc/sysctl.d/30-c.conf:2=2 /etc/sysctl.d/40-d.conf:1=3*");
	/* entries 0 and 1 are 10-a.conf's first two lines, 2 the first of "vm.*" */
	assert_false(reclaim_sysctl_conf_is_glob(c, 1));
	assert_true(reclaim_sysctl_conf_is_glob(c, 2));
	assert_string_equal(reclaim_sysctl_conf_key(c, 2), "vm.*");
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);

	/* A later "vm.* = 7" moves to the end and wins over vm.watermark_*. */
	tmproot_write(root, "/etc/sysctl.d/50-e.conf", "vm.* = 7\n");
	c = scan(root, &ctx);
	assert_string_equal(entries(c, "watermark_boost_factor"),
			    "/etc/sysctl.d/10-a.conf:3=5 /etc/sysctl.d/20-b.conf:1=100 "
			    "/etc/sysctl.d/30-c.conf:1=5 /etc/sysctl.d/50-e.conf:1=7*");
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);
}

/* An exclusion after an assignment leaves the knob alone. */
static void test_exclusion_last(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_sysctl_conf *c;

	tmproot_write(root, "/etc/sysctl.d/10-a.conf", "vm.swappiness = 10\n");
	tmproot_write(root, "/etc/sysctl.d/20-b.conf", "-vm.swappiness\n");
	c = scan(root, &ctx);
	assert_string_equal(entries(c, "swappiness"),
			    "/etc/sysctl.d/10-a.conf:1=10 /etc/sysctl.d/20-b.conf:1=(excluded)*");
	assert_int_equal(reclaim_sysctl_conf_admin_entry(c, knob("swappiness")), -1);
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);
}

static void test_problems(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_sysctl_conf *c;

	tmproot_write(root, "/etc/sysctl.d/50-bad.conf",
		      "vm.kswapd_threads 4\n"
		      "garbage\n"
		      "vm.kswapd_threads = four\n"
		      "vm.max_direct_reclaimers = 2000\n"
		      " = 3\n"
		      "vm.* 5\n"
		      "net.core.somaxconn = 1024\n");
	/* a directory named *.conf cannot be read, a FIFO is not read */
	tmproot_mkdirs(root, "etc/sysctl.d/60-dir.conf");
	{
		char full[PATH_MAX];

		snprintf(full, sizeof(full), "%s/etc/sysctl.d/70-fifo.conf", root);
		assert_int_equal(mkfifo(full, 0644), 0);
	}
	c = scan(root, &ctx);
	assert_string_equal(
	    problems(c),
	    "/etc/sysctl.d/50-bad.conf:1 kswapd_threads: vm.kswapd_threads: not an assignment "
	    "(no '='); the line is skipped\n"
	    "/etc/sysctl.d/50-bad.conf:2: garbage: not an assignment (no '='); the line is "
	    "skipped\n"
	    "/etc/sysctl.d/50-bad.conf:3 kswapd_threads: invalid value 'four' for "
	    "vm.kswapd_threads: expected an integer from 1 to 16; the kernel refuses it, so the "
	    "line never takes effect\n"
	    "/etc/sysctl.d/50-bad.conf:4 max_direct_reclaimers: invalid value '2000' for "
	    "vm.max_direct_reclaimers: expected an integer from 0 to 1024; the kernel refuses it, "
	    "so the line never takes effect\n"
	    "/etc/sysctl.d/50-bad.conf:5: no key; the line is skipped\n"
	    "/etc/sysctl.d/50-bad.conf:6 kswapd_threads: vm.*: not an assignment (no '='); the "
	    "line is skipped\n"
	    "/etc/sysctl.d/60-dir.conf:0: cannot read: not a regular file\n"
	    "/etc/sysctl.d/70-fifo.conf:0: cannot read: not a regular file\n");
	/*
	 * A value the kernel refuses never wins: systemd-sysctl's write of it
	 * fails and the knob keeps the kernel's value; nor does it count as set
	 * by another file (it must not block a change).
	 */
	assert_string_equal(entries(c, "kswapd_threads"), "/etc/sysctl.d/50-bad.conf:3=four");
	assert_string_equal(entries(c, "max_direct_reclaimers"),
			    "/etc/sysctl.d/50-bad.conf:4=2000");
	for (size_t i = 0; i < reclaim_sysctl_conf_count(c); i++)
		if (reclaim_sysctl_conf_line(c, i) == 3 || reclaim_sysctl_conf_line(c, i) == 4)
			assert_false(reclaim_sysctl_conf_is_valid(c, i));
	assert_int_equal(reclaim_sysctl_conf_boot_entry(c, knob("kswapd_threads")), -1);
	assert_int_equal(reclaim_sysctl_conf_admin_entry(c, knob("kswapd_threads")), -1);
	assert_int_equal(reclaim_sysctl_conf_admin_entry(c, knob("max_direct_reclaimers")), -1);
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);
}

/* reclaimctl's file: its entries are "own"; the admin lookup ignores them. */
static void test_own(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_sysctl_conf *c;

	tmproot_write(root, RECLAIM_PERSIST_FILE,
		      "vm.kswapd_threads = 4\nvm.swappiness = 30\nvm.min_free_kbytes = 90000\n");
	tmproot_write(root, "/etc/sysctl.d/10-admin.conf", "vm.swappiness = 10\n");
	tmproot_write(root, "/etc/sysctl.d/95-admin.conf",
		      "vm.min_free_kbytes = 80000\nvm.min_free_kbytes = 70000\n");
	/* the same name elsewhere is not reclaimctl's file, and is hidden by it */
	tmproot_write(root, "/usr/lib/sysctl.d/90-reclaimctl.conf", "vm.kswapd_threads = 8\n");
	c = scan(root, &ctx);
	assert_string_equal(entries(c, "kswapd_threads"), RECLAIM_PERSIST_FILE ":1=4*+");
	assert_int_equal(reclaim_sysctl_conf_admin_entry(c, knob("kswapd_threads")), -1);
	assert_string_equal(entries(c, "swappiness"),
			    "/etc/sysctl.d/10-admin.conf:1=10 " RECLAIM_PERSIST_FILE ":2=30*+");
	assert_int_equal(reclaim_sysctl_conf_admin_entry(c, knob("swappiness")), 0);
	assert_string_equal(entries(c, "min_free_kbytes"),
			    RECLAIM_PERSIST_FILE ":3=90000+ /etc/sysctl.d/95-admin.conf:1=80000 "
						 "/etc/sysctl.d/95-admin.conf:2=70000*");
	assert_int_equal(reclaim_sysctl_conf_admin_entry(c, knob("min_free_kbytes")),
			 reclaim_sysctl_conf_boot_entry(c, knob("min_free_kbytes")));
	assert_string_equal(reclaim_sysctl_conf_value(c, (size_t)reclaim_sysctl_conf_admin_entry(
							     c, knob("min_free_kbytes"))),
			    "70000");
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);
}

/* Persisted file */

static const char header[] =
    "# This file is written by reclaimctl(8): knob values made persistent with --persist.\n"
    "# systemd-sysctl applies it at boot. Do not edit it; to undo, run:\n"
    "#   reclaimctl restore --persist\n";

/* True if ROOT/etc/sysctl.d holds anything but the file itself (a temporary file). */
static bool stray_files(const char *root)
{
	char full[PATH_MAX];
	struct dirent *de;
	bool stray = false;
	DIR *d;

	snprintf(full, sizeof(full), "%s/etc/sysctl.d", root);
	d = opendir(full);
	assert_non_null(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, "90-reclaimctl.conf"))
			stray = true;
	closedir(d);
	return stray;
}

/* /etc/sysctl.d made by a write is 0755 whatever the umask: systemd-sysctl reads it as root,
 * but the administrator's tools (and check as a user) must too. */
static void test_persist_dir_mode(void **state)
{
	const char *root = *state;
	const struct reclaim_knob *k = knob("swappiness");
	int64_t v = 30;
	struct reclaim_ctx *ctx;
	char full[PATH_MAX];
	struct stat st;
	mode_t old;

	assert_int_equal(reclaim_new(&ctx, root), 0);
	old = umask(077);
	assert_int_equal(reclaim_persist_write(ctx, &k, &v, 1), 0);
	umask(old);
	snprintf(full, sizeof(full), "%s/etc/sysctl.d", root);
	assert_int_equal(stat(full, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	snprintf(full, sizeof(full), "%s%s", root, RECLAIM_PERSIST_FILE);
	assert_int_equal(stat(full, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	reclaim_unref(ctx);
}

static void test_persist_write(void **state)
{
	const char *root = *state;
	const struct reclaim_knob *k[3] = {knob("swappiness"), knob("kswapd_threads"),
					   knob("max_direct_reclaimers")};
	int64_t v[3] = {30, 4, 3};
	struct reclaim_persist *p;
	struct reclaim_ctx *ctx;
	struct stat st;
	char full[PATH_MAX], *text;

	assert_int_equal(reclaim_new(&ctx, root), 0);
	/* nothing yet */
	assert_int_equal(reclaim_persist_read(ctx, &p), 0);
	assert_int_equal(reclaim_persist_count(p), 0);
	reclaim_persist_unref(p);

	/* creates /etc/sysctl.d; lines in the order of the knob table */
	assert_int_equal(reclaim_persist_write(ctx, k, v, 2), 0);
	text = tmproot_read(root, RECLAIM_PERSIST_FILE);
	assert_non_null(text);
	assert_string_equal(text, "# This file is written by reclaimctl(8): knob values made "
				  "persistent with --persist.\n"
				  "# systemd-sysctl applies it at boot. Do not edit it; to undo, "
				  "run:\n"
				  "#   reclaimctl restore --persist\n"
				  "vm.kswapd_threads = 4\n"
				  "vm.swappiness = 30\n");
	free(text);
	snprintf(full, sizeof(full), "%s%s", root, RECLAIM_PERSIST_FILE);
	assert_int_equal(stat(full, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_false(stray_files(root));

	/* merged: kswapd_threads changes, max_direct_reclaimers is added, swappiness stays */
	v[1] = 8;
	assert_int_equal(reclaim_persist_write(ctx, k + 1, v + 1, 2), 0);
	assert_int_equal(reclaim_persist_read(ctx, &p), 0);
	assert_int_equal(reclaim_persist_count(p), 3);
	assert_ptr_equal(reclaim_persist_knob(p, 0), knob("kswapd_threads"));
	assert_int_equal(reclaim_persist_value(p, 0), 8);
	assert_ptr_equal(reclaim_persist_knob(p, 1), knob("max_direct_reclaimers"));
	assert_int_equal(reclaim_persist_value(p, 1), 3);
	assert_int_equal(reclaim_persist_value(p, 2), 30);
	assert_int_equal(reclaim_persist_find(p, knob("swappiness")), 2);
	assert_int_equal(reclaim_persist_find(p, knob("zone_reclaim_mode")), -1);
	reclaim_persist_unref(p);
	assert_false(stray_files(root));

	/* out of range: refused before anything is read or written */
	text = tmproot_read(root, RECLAIM_PERSIST_FILE);
	v[1] = 17;
	assert_int_equal(reclaim_persist_write(ctx, k + 1, v + 1, 1), -ERANGE);
	{
		char *after = tmproot_read(root, RECLAIM_PERSIST_FILE);

		assert_string_equal(after, text);
		free(after);
	}
	free(text);

	/* The scanner sees it as reclaimctl's own file. */
	{
		struct reclaim_sysctl_conf *c;

		assert_int_equal(reclaim_sysctl_conf_new(ctx, &c), 0);
		assert_string_equal(entries(c, "kswapd_threads"), RECLAIM_PERSIST_FILE ":4=8*+");
		assert_string_equal(problems(c), "");
		reclaim_sysctl_conf_unref(c);
	}

	/* removed; then there is nothing to remove */
	assert_int_equal(reclaim_persist_remove(ctx), 0);
	assert_null(tmproot_read(root, RECLAIM_PERSIST_FILE));
	assert_int_equal(reclaim_persist_remove(ctx), -ENOENT);
	assert_non_null(strstr(reclaim_strerror(ctx), "nothing is persisted"));
	reclaim_unref(ctx);
}

/* A file with anything reclaimctl did not write is neither rewritten nor removed. */
static void test_persist_foreign(void **state)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
	    {"# my own note\nvm.swappiness = 10\n", "line 4 is a comment reclaimctl did not write"},
	    {"vm.swappiness = 10\nnet.core.somaxconn = 1024\n",
	     "line 5 is not one of reclaimctl's knobs"},
	    {"vm.swappiness = 10\nvm.swappiness = 20\n", "line 5 is a second value of the knob"},
	    {"vm.swappiness = 300\n", "line 4 is a value out of the knob's range"},
	    {"vm.swappiness = ten\n", "line 4 is a value out of the knob's range"},
	    {"-vm.swappiness = 10\n", "line 4 is not a plain assignment"},
	    {"vm.swap* = 10\n", "line 4 is not one of reclaimctl's knobs"},
	    {"vm.swappiness\n", "line 4 is not a plain assignment"},
	};
	const char *root = *state;
	const struct reclaim_knob *k = knob("kswapd_threads");
	int64_t v = 4;
	struct reclaim_persist *p = NULL;
	struct reclaim_ctx *ctx;

	assert_int_equal(reclaim_new(&ctx, root), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text, *after;

		assert_int_not_equal(asprintf(&text, "%s%s", header, cases[i].text), -1);
		tmproot_write(root, RECLAIM_PERSIST_FILE, text);
		assert_int_equal(reclaim_persist_read(ctx, &p), -EBADMSG);
		assert_null(p);
		assert_non_null(strstr(reclaim_strerror(ctx), cases[i].why));
		assert_int_equal(reclaim_persist_write(ctx, &k, &v, 1), -EBADMSG);
		assert_non_null(strstr(reclaim_strerror(ctx), cases[i].why));
		assert_non_null(strstr(reclaim_strerror(ctx), "nothing written"));
		assert_int_equal(reclaim_persist_remove(ctx), -EBADMSG);
		assert_non_null(strstr(reclaim_strerror(ctx), "not removed"));
		after = tmproot_read(root, RECLAIM_PERSIST_FILE);
		assert_string_equal(after, text);
		assert_false(stray_files(root));
		free(after);
		free(text);
	}

	/* Blank lines, CRLF and spacing of its own lines are fine. */
	{
		char *text;

		assert_int_not_equal(asprintf(&text, "%s\n  vm.kswapd_threads=2  \r\n\n", header),
				     -1);
		tmproot_write(root, RECLAIM_PERSIST_FILE, text);
		free(text);
		assert_int_equal(reclaim_persist_read(ctx, &p), 0);
		assert_int_equal(reclaim_persist_count(p), 1);
		assert_int_equal(reclaim_persist_value(p, 0), 2);
		reclaim_persist_unref(p);
	}

	/* A link (an administrator's mask) is not reclaimctl's file. */
	tmproot_unlink(root, RECLAIM_PERSIST_FILE);
	tmproot_symlink(root, RECLAIM_PERSIST_FILE, "/dev/null");
	assert_int_equal(reclaim_persist_read(ctx, &p), -EBADMSG);
	assert_non_null(strstr(reclaim_strerror(ctx), "it is a link"));
	assert_int_equal(reclaim_persist_write(ctx, &k, &v, 1), -EBADMSG);
	assert_int_equal(reclaim_persist_remove(ctx), -EBADMSG);
	reclaim_unref(ctx);
}

#define ZSWAP "/sys/module/zswap/parameters/"

/*
 * The knobs of sysfs: tmpfiles.d 'w' lines (the first for a path wins,
 * files in name order across /etc, /run, /usr/lib, a masked name hides
 * another, '!', '-' and '+' lines count, a glob matches) and the kernel
 * command line, which applies first.
 */
static void test_tmpfiles(void **state)
{
	const char *root = *state;
	struct reclaim_ctx *ctx;
	struct reclaim_sysctl_conf *c;

	tmproot_write(root, "/usr/lib/tmpfiles.d/50-zswap.conf",
		      "# a package's\nw " ZSWAP "enabled - - - - Y\n");
	tmproot_write(root, "/etc/tmpfiles.d/60-admin.conf",
		      "w! " ZSWAP "enabled - - - - N\n"
		      "w- " ZSWAP "max_pool_percent - - - - 30\n"
		      "w+ /sys/kernel/mm/lru_gen/enabled - - - - y\n"
		      "d /sys/kernel/mm/lru_gen - - - -\n"
		      "w /sys/kernel/mm/numa/demotion_enabled - - - - maybe\n");
	tmproot_write(root, "/run/tmpfiles.d/55-glob.conf",
		      "w " ZSWAP "*_percent - - - - 25\n"
		      "w " ZSWAP "compressor - - - - %v\n"
		      "w " ZSWAP "accept_threshold_percent\n");
	/* masked: read as nothing */
	tmproot_write(root, "/usr/lib/tmpfiles.d/70-masked.conf",
		      "w " ZSWAP "shrinker_enabled - - - - Y\n");
	tmproot_symlink(root, "/etc/tmpfiles.d/70-masked.conf", "/dev/null");
	tmproot_write(root, RECLAIM_PERSIST_TMPFILES,
		      "w /sys/kernel/mm/lru_gen/min_ttl_ms - - - - 1000\n"
		      "w " ZSWAP "enabled - - - - Y\n");
	tmproot_write(root, "/proc/cmdline",
		      "BOOT_IMAGE=/vmlinuz root=/dev/vda1 zswap.enabled=0 \"zswap.compressor=lz4\" "
		      "zswap.max-pool-percent=40 zswap.max_pool_percent=45 -- zswap.enabled=1\n");
	c = scan(root, &ctx);
	/* the package's line is the first file's: it wins; the later lines are duplicates */
	assert_string_equal(entries(c, "zswap_enabled"),
			    "/proc/cmdline:1=0 /usr/lib/tmpfiles.d/50-zswap.conf:2=Y* "
			    "/etc/tmpfiles.d/60-admin.conf:1=N " RECLAIM_PERSIST_TMPFILES ":2=Y+");
	assert_true(reclaim_sysctl_conf_overridden(c, knob("zswap_enabled")));
	/* a glob of an earlier file loses to a literal line */
	assert_string_equal(
	    entries(c, "zswap_max_pool_percent"),
	    "/proc/cmdline:1=40 /proc/cmdline:1=45 /run/tmpfiles.d/55-glob.conf:1=25 "
	    "/etc/tmpfiles.d/60-admin.conf:2=30*");
	assert_string_equal(entries(c, "zswap_accept_threshold_percent"),
			    "/run/tmpfiles.d/55-glob.conf:1=25*");
	/* the command line alone; a specifier is not read */
	assert_string_equal(entries(c, "zswap_compressor"), "/proc/cmdline:1=lz4*");
	assert_string_equal(entries(c, "lru_gen_enabled"), "/etc/tmpfiles.d/60-admin.conf:3=y*");
	assert_string_equal(entries(c, "lru_gen_min_ttl_ms"), RECLAIM_PERSIST_TMPFILES ":1=1000*+");
	assert_int_equal(reclaim_sysctl_conf_admin_entry(c, knob("lru_gen_min_ttl_ms")), -1);
	/* invalid: never wins */
	assert_string_equal(entries(c, "numa_demotion_enabled"),
			    "/etc/tmpfiles.d/60-admin.conf:5=maybe");
	assert_int_equal(reclaim_sysctl_conf_boot_entry(c, knob("demotion")), -1);
	assert_string_equal(entries(c, "zswap_shrinker_enabled"), "");
	for (size_t i = 0; i < reclaim_sysctl_conf_count(c); i++)
		assert_string_equal(reclaim_sysctl_conf_kind(c, i),
				    strcmp(reclaim_sysctl_conf_file(c, i), "/proc/cmdline") == 0
					? "cmdline"
					: "tmpfiles");
	assert_string_equal(
	    problems(c),
	    "/run/tmpfiles.d/55-glob.conf:2 zswap_compressor: w " ZSWAP
	    "compressor: an escape or specifier in the argument that reclaimctl does "
	    "not expand; reclaimctl skips it\n"
	    "/run/tmpfiles.d/55-glob.conf:3 zswap_accept_threshold_percent: w " ZSWAP
	    "accept_threshold_percent: a 'w' line without an argument; reclaimctl skips "
	    "it\n"
	    "/etc/tmpfiles.d/60-admin.conf:5 numa_demotion_enabled: invalid value "
	    "'maybe' for numa_demotion_enabled: expected true or false (also 1 or 0, "
	    "yes or no, on or off); the kernel refuses it, so the line never takes "
	    "effect\n");
	reclaim_sysctl_conf_unref(c);
	reclaim_unref(ctx);
}

/* --persist writes a knob of sysfs to the tmpfiles.d file, a sysctl to the sysctl.d one. */
static void test_persist_tmpfiles(void **state)
{
	static const char tmpfiles_header[] =
	    "# This file is written by reclaimctl(8): knob values of sysfs made persistent with "
	    "--persist.\n"
	    "# systemd-tmpfiles applies it at boot. Do not edit it; to undo, run:\n"
	    "#   reclaimctl restore --persist\n";
	const char *root = *state;
	const struct reclaim_knob *k[] = {knob("zswap_compressor"), knob("swappiness"),
					  knob("zswap")};
	int64_t v[] = {4, 100, 1};
	struct reclaim_persist *p = NULL;
	struct reclaim_ctx *ctx;
	char *text, *want;

	assert_int_equal(reclaim_new(&ctx, root), 0);
	assert_int_equal(reclaim_persist_write(ctx, k, v, 3), 0);
	text = tmproot_read(root, RECLAIM_PERSIST_TMPFILES);
	assert_int_not_equal(
	    asprintf(&want, "%sw " ZSWAP "enabled - - - - Y\nw " ZSWAP "compressor - - - - lz4\n",
		     tmpfiles_header),
	    -1);
	assert_string_equal(text, want);
	free(text);
	free(want);
	text = tmproot_read(root, RECLAIM_PERSIST_FILE);
	assert_int_not_equal(asprintf(&want, "%svm.swappiness = 100\n", header), -1);
	assert_string_equal(text, want);
	free(text);
	free(want);
	assert_int_equal(reclaim_persist_read(ctx, &p), 0);
	assert_int_equal(reclaim_persist_count(p), 3);
	assert_int_equal(reclaim_persist_value(p, (size_t)reclaim_persist_find(p, k[0])), 4);
	reclaim_persist_unref(p);
	/* an administrator's line in it: not reclaimctl's, neither file is written */
	assert_int_not_equal(asprintf(&want,
				      "%sw /sys/kernel/mm/lru_gen/enabled - - - - y\n"
				      "w /etc/motd - - - - hello\n",
				      tmpfiles_header),
			     -1);
	tmproot_write(root, RECLAIM_PERSIST_TMPFILES, want);
	v[1] = 10;
	assert_int_equal(reclaim_persist_write(ctx, k, v, 3), -EBADMSG);
	assert_string_equal(reclaim_strerror(ctx),
			    RECLAIM_PERSIST_TMPFILES " is not reclaimctl's: line 5 is not one of "
						     "reclaimctl's knobs; nothing written");
	text = tmproot_read(root, RECLAIM_PERSIST_FILE);
	assert_non_null(strstr(text, "vm.swappiness = 100\n"));
	free(text);
	free(want);
	/* remove takes both away; then nothing is persisted */
	tmproot_unlink(root, RECLAIM_PERSIST_TMPFILES);
	assert_int_equal(reclaim_persist_write(ctx, k, v, 1), 0);
	assert_int_equal(reclaim_persist_remove(ctx), 0);
	assert_null(tmproot_read(root, RECLAIM_PERSIST_TMPFILES));
	assert_null(tmproot_read(root, RECLAIM_PERSIST_FILE));
	assert_int_equal(reclaim_persist_remove(ctx), -ENOENT);
	reclaim_unref(ctx);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_normalize),
	    cmocka_unit_test(test_parse_line),
	    T(test_empty_root),
	    T(test_order),
	    T(test_masks),
	    T(test_sysctl_conf),
	    T(test_lib),
	    T(test_syntax),
	    T(test_globs),
	    T(test_exclusion_last),
	    T(test_problems),
	    T(test_own),
	    T(test_persist_dir_mode),
	    T(test_persist_write),
	    T(test_persist_foreign),
	    T(test_tmpfiles),
	    T(test_persist_tmpfiles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
