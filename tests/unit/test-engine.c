// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The change engine on a temporary root: the precedence (kernel, sysctl
 * files, persisted values at boot), STRICT, what evaluating leaves alone and
 * what applying writes, the history it records, restore and restore --boot.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "history-internal.h"
#include "tmproot.h"

#define VM	"/proc/sys/vm/"
#define HISTORY "/run/reclaimctl/history"

struct fixture {
	char *root;
	struct reclaim_ctx *ctx;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char *shipped;

	assert_non_null(f);
	f->root = tmproot_new();
	tmproot_write(f->root, VM "max_direct_reclaimers", "0\n");
	tmproot_write(f->root, VM "swap_round_robin_quota_kb", "2048\n");
	tmproot_write(f->root, VM "swappiness", "60\n");
	tmproot_write(f->root, VM "watermark_scale_factor", "10\n");
	tmproot_mkdirs(f->root, "/shipped");
	assert_true(asprintf(&shipped, "%s/shipped", f->root) > 0);
	setenv("RECLAIMCTL_PRESET_DIR", shipped, 1);
	free(shipped);
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
	return 0;
}

static void assert_file(const struct fixture *f, const char *path, const char *want)
{
	tmproot_assert_file(f->root, path, want);
}

static void assert_no_file(const struct fixture *f, const char *path)
{
	char *text = tmproot_read(f->root, path);

	if (text)
		fail_msg("%s exists: \"%s\"", path, text);
}

static void assert_file_has(const struct fixture *f, const char *path, const char *needle)
{
	char *text = tmproot_read(f->root, path);

	if (!text || !strstr(text, needle))
		fail_msg("%s does not hold \"%s\": \"%s\"", path, needle,
			 text ? text : "(no file)");
	free(text);
}

static struct reclaim_request *set_request(struct fixture *f, unsigned int flags, ...)
{
	struct reclaim_request *req;
	const char *name;
	va_list ap;

	assert_int_equal(reclaim_request_new(f->ctx, RECLAIM_REQUEST_SET, flags, &req), 0);
	va_start(ap, flags);
	while ((name = va_arg(ap, const char *)) != NULL)
		assert_int_equal(reclaim_request_add(req, knob(name), va_arg(ap, int), NULL), 0);
	va_end(ap);
	return req;
}

static ssize_t find(const struct reclaim_eval *e, const char *name)
{
	for (size_t i = 0; i < reclaim_eval_count(e); i++)
		if (reclaim_eval_knob(e, i) == knob(name))
			return (ssize_t)i;
	fail_msg("no entry for %s", name);
	return -1;
}

static void assert_entry(const struct reclaim_eval *e, const char *name, enum reclaim_action action,
			 int64_t old, int64_t new)
{
	size_t i = (size_t)find(e, name);

	assert_string_equal(reclaim_action_name(reclaim_eval_action(e, i)),
			    reclaim_action_name(action));
	if (action != RECLAIM_ACTION_SKIPPED || reclaim_eval_has_old(e, i))
		assert_int_equal(reclaim_eval_old(e, i), old);
	assert_int_equal(reclaim_eval_new(e, i), new);
}

static const char *reason(const struct reclaim_eval *e, const char *name)
{
	return reclaim_eval_reason(e, (size_t)find(e, name));
}

/* Evaluating writes nothing, not even the lock or the history. */
static void test_evaluate_writes_nothing(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req = set_request(f, 0, "throttle", 5, "swappiness", 60, NULL);
	struct reclaim_eval *e;

	assert_int_equal(reclaim_request_evaluate(req, &e), 0);
	assert_true(reclaim_eval_changed(e));
	assert_false(reclaim_eval_applied(e));
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 0, 5);
	assert_entry(e, "swappiness", RECLAIM_ACTION_UNCHANGED, 60, 60);
	assert_string_equal(reclaim_eval_source(e, 0), "value");
	assert_file(f, VM "max_direct_reclaimers", "0\n");
	assert_no_file(f, "/run/reclaimctl/lock");
	assert_no_file(f, HISTORY);
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
}

/* Applying writes exactly the entries to set, and records them. */
static void test_apply_writes_the_set_entries(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req = set_request(f, 0, "throttle", 5, "swappiness", 60, NULL);
	struct reclaim_history *h;
	struct reclaim_eval *e;

	assert_int_equal(reclaim_request_apply(req, &e), 0);
	assert_true(reclaim_eval_applied(e));
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 0, 5);
	assert_file(f, VM "max_direct_reclaimers", "5\n");
	assert_file(f, VM "swappiness", "60\n");
	assert_int_equal(reclaim_history_new(f->ctx, &h), 0);
	assert_int_equal(reclaim_history_count(h), 1);
	assert_string_equal(reclaim_history_command(h, 0), "set");
	assert_string_equal(reclaim_history_source(h, 0), "value");
	assert_int_equal(reclaim_history_old_value(h, 0), 0);
	assert_int_equal(reclaim_history_new_value(h, 0), 5);
	reclaim_history_unref(h);
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
}

/* A source given to the request is that of its values, in the evaluation and the history. */
static void test_source_of_a_request(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req = set_request(f, 0, "throttle", 5, NULL);
	struct reclaim_request *preset;
	struct reclaim_history *h;
	struct reclaim_eval *e;

	assert_int_equal(reclaim_request_set_source(req, ""), -EINVAL);
	assert_int_equal(reclaim_request_set_source(req, "two words"), -EINVAL);
	assert_non_null(strstr(reclaim_strerror(f->ctx), "no source"));
	assert_int_equal(reclaim_request_set_source(req, "sweep"), 0);
	assert_int_equal(reclaim_request_apply(req, &e), 0);
	assert_string_equal(reclaim_eval_source(e, 0), "sweep");
	assert_int_equal(reclaim_history_new(f->ctx, &h), 0);
	assert_int_equal(reclaim_history_count(h), 1);
	assert_string_equal(reclaim_history_command(h, 0), "set");
	assert_string_equal(reclaim_history_source(h, 0), "sweep");
	reclaim_history_unref(h);
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	/* only the values of SET and ADAPT have a source to give */
	assert_int_equal(reclaim_request_new(f->ctx, RECLAIM_REQUEST_PRESET, 0, &preset), 0);
	assert_int_equal(reclaim_request_set_source(preset, "sweep"), -EINVAL);
	reclaim_request_unref(preset);
}

/* Nothing to write: no lock, no history, changed false. */
static void test_nothing_to_write_takes_no_lock(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req = set_request(f, 0, "swappiness", 60, NULL);
	struct reclaim_eval *e;

	assert_int_equal(reclaim_request_apply(req, &e), 0);
	assert_false(reclaim_eval_changed(e));
	assert_false(reclaim_eval_applied(e));
	assert_no_file(f, "/run/reclaimctl/lock");
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
}

/* Another sysctl file outranks a change: skipped, --force overrides, STRICT fails. */
static void test_sysctl_file_outranks(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req;
	struct reclaim_eval *e;

	tmproot_write(f->root, "/etc/sysctl.d/50-admin.conf", "vm.swappiness = 30\n");
	req = set_request(f, 0, "swappiness", 10, "throttle", 2, NULL);
	assert_int_equal(reclaim_request_apply(req, &e), 0);
	assert_entry(e, "swappiness", RECLAIM_ACTION_SKIPPED, 60, 10);
	assert_string_equal(reason(e, "swappiness"),
			    "/etc/sysctl.d/50-admin.conf:1 sets vm.swappiness = 30; use --force "
			    "to override it");
	assert_file(f, VM "swappiness", "60\n");
	assert_file(f, VM "max_direct_reclaimers", "2\n");
	reclaim_eval_unref(e);
	reclaim_request_unref(req);

	req = set_request(f, RECLAIM_REQUEST_STRICT, "swappiness", 10, NULL);
	assert_int_equal(reclaim_request_evaluate(req, &e), -EEXIST);
	assert_string_equal(reclaim_strerror(f->ctx),
			    "vm.swappiness left alone: /etc/sysctl.d/50-admin.conf:1 sets "
			    "vm.swappiness = 30; use --force to override it");
	reclaim_request_unref(req);

	req =
	    set_request(f, RECLAIM_REQUEST_FORCE | RECLAIM_REQUEST_STRICT, "swappiness", 10, NULL);
	assert_int_equal(reclaim_request_apply(req, &e), 0);
	assert_entry(e, "swappiness", RECLAIM_ACTION_SET, 60, 10);
	assert_file(f, VM "swappiness", "10\n");
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
}

/* A knob the kernel lacks: skipped with why; STRICT fails with the library's message. */
static void test_missing_knob(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req = set_request(f, 0, "threads", 2, NULL);
	struct reclaim_eval *e;

	assert_int_equal(reclaim_request_evaluate(req, &e), 0);
	assert_entry(e, "threads", RECLAIM_ACTION_SKIPPED, 0, 2);
	assert_false(reclaim_eval_has_old(e, 0));
	assert_string_equal(
	    reason(e, "threads"),
	    "the running kernel lacks vm.kswapd_threads: it needs reclaimctl's kernel "
	    "patches (KNOBS in reclaimctl(8))");
	assert_false(reclaim_eval_changed(e));
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	req = set_request(f, RECLAIM_REQUEST_STRICT, "threads", 2, NULL);
	assert_int_equal(reclaim_request_evaluate(req, &e), -EOPNOTSUPP);
	assert_non_null(strstr(reclaim_strerror(f->ctx), "this kernel has no vm.kswapd_threads"));
	reclaim_request_unref(req);
}

/* Boot: the configured preset, a persisted value kept, a sysctl file above both. */
static void test_boot_keeps_persisted_values(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req;
	struct reclaim_eval *e;

	tmproot_write(f->root, "/etc/reclaimctl/reclaimctl.conf", "preset = web # the fleet's\n");
	tmproot_write(
	    f->root, "/etc/reclaimctl/presets/web.preset",
	    "throttle = 4\nswappiness = 10\nswap-quota = 1M\nwatermark_scale_factor = 50\n");
	tmproot_write(f->root, "/etc/sysctl.d/90-reclaimctl.conf",
		      "# This file is written by reclaimctl(8): knob values made persistent with "
		      "--persist.\n# systemd-sysctl applies it at boot. Do not edit it; to undo, "
		      "run:\n#   reclaimctl restore --persist\nvm.max_direct_reclaimers = 7\n");
	tmproot_write(f->root, "/etc/sysctl.d/50-admin.conf", "vm.swappiness = 30\n");
	assert_int_equal(reclaim_request_new(f->ctx, RECLAIM_REQUEST_BOOT, 0, &req), 0);
	assert_int_equal(reclaim_request_apply(req, &e), 0);
	assert_string_equal(reclaim_eval_preset(e), "web");
	assert_entry(e, "throttle", RECLAIM_ACTION_SKIPPED, 0, 4);
	assert_string_equal(reason(e, "throttle"),
			    "vm.max_direct_reclaimers = 7 is persisted in "
			    "/etc/sysctl.d/90-reclaimctl.conf:4, which systemd-sysctl applies at "
			    "boot: kept");
	assert_entry(e, "swappiness", RECLAIM_ACTION_SKIPPED, 60, 10);
	assert_entry(e, "swap-quota", RECLAIM_ACTION_SET, 2048, 1024);
	assert_entry(e, "watermark_scale_factor", RECLAIM_ACTION_SET, 10, 50);
	assert_string_equal(reclaim_eval_source(e, 0), "preset:web");
	assert_file(f, VM "max_direct_reclaimers", "0\n");
	assert_file(f, VM "swappiness", "60\n");
	assert_file(f, VM "swap_round_robin_quota_kb", "1024\n");
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
}

static void test_boot_off_and_malformed(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req;
	struct reclaim_eval *e;
	char *name;

	tmproot_write(f->root, "/etc/reclaimctl/reclaimctl.conf", "preset = off\n");
	assert_int_equal(reclaim_request_new(f->ctx, RECLAIM_REQUEST_BOOT, 0, &req), 0);
	assert_int_equal(reclaim_request_apply(req, &e), 0);
	assert_string_equal(reclaim_eval_preset(e), "off");
	assert_int_equal(reclaim_eval_count(e), 0);
	reclaim_eval_unref(e);
	tmproot_write(f->root, "/etc/reclaimctl/reclaimctl.conf", "# x\npreset web\n");
	assert_int_equal(reclaim_request_evaluate(req, &e), -EBADMSG);
	assert_string_equal(reclaim_strerror(f->ctx),
			    "/etc/reclaimctl/reclaimctl.conf:2: expected \"preset = NAME\"");
	reclaim_request_unref(req);
	tmproot_unlink(f->root, "/etc/reclaimctl/reclaimctl.conf");
	assert_int_equal(reclaim_boot_preset(f->ctx, &name), 0);
	assert_string_equal(name, "balanced");
	free(name);
}

/* The paths and defaults reclaim.h exports are those the library reads and writes. */
static void test_exported_paths(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req = set_request(f, 0, "throttle", 5, NULL);
	struct reclaim_preset *p;
	struct reclaim_eval *e;
	char *name;

	assert_string_equal(RECLAIM_BOOT_CONFIG, "/etc/reclaimctl/reclaimctl.conf");
	assert_string_equal(RECLAIM_BOOT_DEFAULT_PRESET, "balanced");
	assert_string_equal(RECLAIM_BOOT_PRESET_OFF, "off");
	assert_string_equal(RECLAIM_ADMIN_PRESET_DIR, "/etc/reclaimctl/presets");
	assert_string_equal(RECLAIM_RUNDIR, "/run/reclaimctl");
	assert_string_equal(RECLAIM_HISTORY_FILE, HISTORY);
	assert_string_equal(RECLAIM_ADAPT_STATE_FILE, "/run/reclaimctl/adapt");
	assert_int_equal(RECLAIM_HISTORY_KEEP, 1000);
	assert_int_equal(reclaim_history_keep, RECLAIM_HISTORY_KEEP);

	/* the boot unit's preset: the default without the file, "off" from it */
	assert_int_equal(reclaim_boot_preset(f->ctx, &name), 0);
	assert_string_equal(name, RECLAIM_BOOT_DEFAULT_PRESET);
	free(name);
	tmproot_write(f->root, RECLAIM_BOOT_CONFIG, "preset = " RECLAIM_BOOT_PRESET_OFF "\n");
	assert_int_equal(reclaim_boot_preset(f->ctx, &name), 0);
	assert_string_equal(name, RECLAIM_BOOT_PRESET_OFF);
	free(name);

	/* the administrator's presets */
	tmproot_write(f->root, RECLAIM_ADMIN_PRESET_DIR "/mine.preset", "swappiness = 10\n");
	assert_int_equal(reclaim_preset_load(f->ctx, "mine", &p), 0);
	assert_true(reclaim_preset_is_admin(p));
	assert_string_equal(reclaim_preset_path(p), RECLAIM_ADMIN_PRESET_DIR "/mine.preset");
	reclaim_preset_unref(p);

	/* the history and adapt's state */
	assert_int_equal(reclaim_request_apply(req, &e), 0);
	assert_file_has(f, RECLAIM_HISTORY_FILE, "max_direct_reclaimers");
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	assert_int_equal(reclaim_adapt_state_save(f->ctx, getpid(), 1, 2), 0);
	assert_file_has(f, RECLAIM_ADAPT_STATE_FILE, "baseline");
	assert_int_equal(reclaim_adapt_state_remove(f->ctx), 0);
}

/* --persist: an unchanged value still changes the persisted file, so changed is true. */
static void test_persist_of_unchanged_value(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req =
	    set_request(f, RECLAIM_REQUEST_PERSIST, "swappiness", 60, NULL);
	struct reclaim_eval *e;

	assert_int_equal(reclaim_request_evaluate(req, &e), 0);
	assert_true(reclaim_eval_changed(e));
	reclaim_eval_unref(e);
	assert_int_equal(reclaim_request_apply(req, &e), 0);
	assert_true(reclaim_eval_applied(e));
	assert_file_has(f, "/etc/sysctl.d/90-reclaimctl.conf", "vm.swappiness = 60\n");
	reclaim_eval_unref(e);
	/* Persisted already: nothing changes any more. */
	assert_int_equal(reclaim_request_evaluate(req, &e), 0);
	assert_false(reclaim_eval_changed(e));
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
}

static void apply_set(struct fixture *f, const char *name, int value)
{
	struct reclaim_request *req = set_request(f, 0, name, value, NULL);
	struct reclaim_eval *e;

	assert_int_equal(reclaim_request_apply(req, &e), 0);
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
}

static struct reclaim_eval *restore_flags(struct fixture *f, enum reclaim_request_kind kind,
					  unsigned int flags, bool apply)
{
	struct reclaim_request *req;
	struct reclaim_eval *e;

	assert_int_equal(reclaim_request_new(f->ctx, kind, flags, &req), 0);
	assert_int_equal(apply ? reclaim_request_apply(req, &e) : reclaim_request_evaluate(req, &e),
			 0);
	reclaim_request_unref(req);
	return e;
}

static struct reclaim_eval *restore(struct fixture *f, enum reclaim_request_kind kind, bool apply)
{
	return restore_flags(f, kind, 0, apply);
}

/* A preview's persist_files: the text the apply then writes; a restore's removal. */
static void test_persist_preview(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req =
	    set_request(f, RECLAIM_REQUEST_PERSIST, "swappiness", 30, NULL);
	const char *path, *before, *after;
	struct reclaim_eval *e;
	char *text;

	assert_int_equal(reclaim_request_evaluate(req, &e), 0);
	assert_int_equal(reclaim_eval_persist_file(e, 0, &path, &before, &after), 1);
	assert_string_equal(path, "/etc/sysctl.d/90-reclaimctl.conf");
	assert_null(before);
	assert_non_null(strstr(after, "\nvm.swappiness = 30\n"));
	text = strdup(after);
	assert_int_equal(reclaim_eval_persist_file(e, 1, &path, &before, &after), 0);
	assert_int_equal(reclaim_eval_persist_file(e, 2, &path, &before, &after), -ENOENT);
	reclaim_eval_unref(e);
	assert_int_equal(reclaim_request_apply(req, &e), 0);
	assert_file_has(f, "/etc/sysctl.d/90-reclaimctl.conf", text);
	/* an apply's evaluation previews nothing: the files are its own by then */
	assert_int_equal(reclaim_eval_persist_file(e, 0, &path, &before, &after), -EALREADY);
	reclaim_eval_unref(e);
	/* persisted: the preview changes nothing */
	assert_int_equal(reclaim_request_evaluate(req, &e), 0);
	assert_int_equal(reclaim_eval_persist_file(e, 0, &path, &before, &after), 0);
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	/* without --persist there is none */
	req = set_request(f, 0, "swappiness", 30, NULL);
	assert_int_equal(reclaim_request_evaluate(req, &e), 0);
	assert_int_equal(reclaim_eval_persist_file(e, 0, &path, &before, &after), -ENODATA);
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	/* restore --persist removes the file: its text before, none after */
	e = restore_flags(f, RECLAIM_REQUEST_RESTORE_BOOT, RECLAIM_REQUEST_PERSIST, false);
	assert_int_equal(reclaim_eval_persist_file(e, 0, &path, &before, &after), 1);
	assert_string_equal(before, text);
	assert_null(after);
	assert_int_equal(reclaim_eval_persist_file(e, 1, &path, &before, &after), 0);
	reclaim_eval_unref(e);
	free(text);
}

/* Each restore undoes one change, newest first; then there is nothing to undo. */
static void test_restore_is_a_stack(void **state)
{
	struct fixture *f = *state;
	struct reclaim_eval *e;

	apply_set(f, "throttle", 8);
	apply_set(f, "swap-quota", 4096);
	e = restore(f, RECLAIM_REQUEST_RESTORE, true);
	assert_int_equal(reclaim_eval_undoes(e), 2);
	assert_entry(e, "swap-quota", RECLAIM_ACTION_SET, 4096, 2048);
	assert_string_equal(reclaim_eval_source(e, 0), "change:2");
	reclaim_eval_unref(e);
	e = restore(f, RECLAIM_REQUEST_RESTORE, true);
	assert_int_equal(reclaim_eval_undoes(e), 1);
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 8, 0);
	reclaim_eval_unref(e);
	assert_file(f, VM "max_direct_reclaimers", "0\n");
	assert_file(f, VM "swap_round_robin_quota_kb", "2048\n");
	e = restore(f, RECLAIM_REQUEST_RESTORE, true);
	assert_int_equal(reclaim_eval_undoes(e), 0);
	assert_int_equal(reclaim_eval_count(e), 0);
	reclaim_eval_unref(e);
}

/*
 * A knob changed behind reclaimctl's back is left alone, and the reason says
 * so; with FORCE it goes to its boot value. Applied, the restore without
 * FORCE writes and records nothing: the change stays to undo.
 */
static void test_restore_of_a_knob_changed_since(void **state)
{
	struct fixture *f = *state;
	struct reclaim_eval *e;

	apply_set(f, "throttle", 2);
	apply_set(f, "throttle", 5);
	tmproot_write(f->root, VM "max_direct_reclaimers", "9\n");
	e = restore(f, RECLAIM_REQUEST_RESTORE, true);
	assert_entry(e, "throttle", RECLAIM_ACTION_SKIPPED, 9, 0);
	assert_string_equal(reclaim_eval_source(e, 0), "outside");
	assert_string_equal(reason(e, "throttle"),
			    "vm.max_direct_reclaimers is 9, not the 5 change 2 set: changed since "
			    "by another writer, left alone (--force puts back 0)");
	assert_false(reclaim_eval_applied(e));
	reclaim_eval_unref(e);
	assert_file(f, VM "max_direct_reclaimers", "9\n");
	e = restore_flags(f, RECLAIM_REQUEST_RESTORE, RECLAIM_REQUEST_FORCE, false);
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 9, 0);
	assert_string_equal(reclaim_eval_source(e, 0), "boot");
	assert_string_equal(reason(e, "throttle"),
			    "vm.max_direct_reclaimers is 9, not the 5 change 2 set: changed since "
			    "by something else; back to its value before the first change since "
			    "boot (--force)");
	reclaim_eval_unref(e);
}

/* restore --boot leaves a knob another writer changed since its newest record, unless FORCE. */
static void test_restore_boot_of_a_knob_changed_since(void **state)
{
	struct fixture *f = *state;
	struct reclaim_eval *e;

	apply_set(f, "throttle", 2);
	apply_set(f, "swappiness", 20);
	tmproot_write(f->root, VM "max_direct_reclaimers", "9\n");
	e = restore(f, RECLAIM_REQUEST_RESTORE_BOOT, true);
	assert_entry(e, "throttle", RECLAIM_ACTION_SKIPPED, 9, 0);
	assert_string_equal(reason(e, "throttle"),
			    "vm.max_direct_reclaimers is 9, not the 2 reclaimctl set last: changed "
			    "since by another writer, left alone (--force puts back 0)");
	assert_entry(e, "swappiness", RECLAIM_ACTION_SET, 20, 60);
	reclaim_eval_unref(e);
	assert_file(f, VM "max_direct_reclaimers", "9\n");
	assert_file(f, VM "swappiness", "60\n");
	e = restore_flags(f, RECLAIM_REQUEST_RESTORE_BOOT, RECLAIM_REQUEST_FORCE, true);
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 9, 0);
	reclaim_eval_unref(e);
	assert_file(f, VM "max_direct_reclaimers", "0\n");
}

/*
 * A knob someone put back to the value from before the change is that change's
 * undone already (the rule of leases): it stays, and earlier changes are not undone.
 */
static void test_restore_of_a_knob_back_already(void **state)
{
	struct fixture *f = *state;
	struct reclaim_eval *e;

	apply_set(f, "throttle", 2);
	apply_set(f, "throttle", 5);
	tmproot_write(f->root, VM "max_direct_reclaimers", "2\n");
	e = restore(f, RECLAIM_REQUEST_RESTORE, true);
	assert_entry(e, "throttle", RECLAIM_ACTION_UNCHANGED, 2, 2);
	assert_string_equal(reclaim_eval_source(e, 0), "change:2");
	reclaim_eval_unref(e);
	assert_file(f, VM "max_direct_reclaimers", "2\n");
}

/* A restore leaves the persisted value, and says the next boot sets it again. */
static void test_restore_says_persisted_value_stays(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req = set_request(f, RECLAIM_REQUEST_PERSIST, "throttle", 5, NULL);
	struct reclaim_eval *e;

	assert_int_equal(reclaim_request_apply(req, &e), 0);
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	e = restore(f, RECLAIM_REQUEST_RESTORE, true);
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 5, 0);
	assert_non_null(strstr(reason(e, "throttle"),
			       "; vm.max_direct_reclaimers = 5 stays persisted in "
			       "/etc/sysctl.d/90-reclaimctl.conf: the next boot sets it again "
			       "(restore --persist removes it)"));
	reclaim_eval_unref(e);
	assert_file_has(f, "/etc/sysctl.d/90-reclaimctl.conf", "vm.max_direct_reclaimers = 5\n");
}

/* restore --boot: every knob's first old value; then restore has nothing left. */
static void test_restore_boot(void **state)
{
	struct fixture *f = *state;
	struct reclaim_eval *e;

	apply_set(f, "throttle", 2);
	apply_set(f, "swappiness", 20);
	apply_set(f, "throttle", 3);
	e = restore(f, RECLAIM_REQUEST_RESTORE_BOOT, true);
	assert_int_equal(reclaim_eval_count(e), 2);
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 3, 0);
	assert_entry(e, "swappiness", RECLAIM_ACTION_SET, 20, 60);
	reclaim_eval_unref(e);
	assert_file(f, VM "max_direct_reclaimers", "0\n");
	assert_file(f, VM "swappiness", "60\n");
	e = restore(f, RECLAIM_REQUEST_RESTORE, false);
	assert_int_equal(reclaim_eval_count(e), 0);
	reclaim_eval_unref(e);
	/* Nothing is left to undo: a second restore --boot records nothing. */
	e = restore(f, RECLAIM_REQUEST_RESTORE_BOOT, true);
	assert_false(reclaim_eval_applied(e));
	reclaim_eval_unref(e);
}

/* An undo whose knob is already back still records the undo, so the stack moves on. */
static void test_restore_of_unchanged_knob_is_recorded(void **state)
{
	struct fixture *f = *state;
	struct reclaim_eval *e;

	apply_set(f, "throttle", 2);
	apply_set(f, "swappiness", 20);
	tmproot_write(f->root, VM "swappiness", "60\n");
	e = restore(f, RECLAIM_REQUEST_RESTORE, true);
	assert_int_equal(reclaim_eval_undoes(e), 2);
	assert_entry(e, "swappiness", RECLAIM_ACTION_UNCHANGED, 60, 60);
	assert_false(reclaim_eval_changed(e));
	assert_true(reclaim_eval_applied(e));
	reclaim_eval_unref(e);
	e = restore(f, RECLAIM_REQUEST_RESTORE, true);
	assert_int_equal(reclaim_eval_undoes(e), 1);
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 2, 0);
	reclaim_eval_unref(e);
}

/* A set that joins change @change; its result (0 or -errno), the change recorded in *recorded. */
static int join_set(struct fixture *f, unsigned long change, unsigned long *recorded,
		    const char *name, int value)
{
	struct reclaim_request *req = set_request(f, 0, name, value, NULL);
	struct reclaim_eval *e = NULL;
	int r;

	assert_int_equal(reclaim_request_set_source(req, "sweep"), 0);
	assert_int_equal(reclaim_request_set_change(req, change), 0);
	r = reclaim_request_apply(req, &e);
	if (recorded)
		*recorded = r == 0 ? reclaim_eval_change(e) : 0;
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	return r;
}

static void assert_record(struct reclaim_history *h, size_t i, unsigned long change,
			  const char *name, int64_t old, int64_t new)
{
	assert_int_equal(reclaim_history_change(h, i), change);
	assert_string_equal(reclaim_knob_name(reclaim_history_knob(h, i)), name);
	assert_int_equal(reclaim_history_old_value(h, i), old);
	assert_int_equal(reclaim_history_new_value(h, i), new);
}

/* Joined sets are more records of one change, which one restore undoes: one entry a knob. */
static void test_join_a_change(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req = set_request(f, 0, "throttle", 5, NULL);
	struct reclaim_history *h;
	struct reclaim_eval *e;
	unsigned long change = 0;

	assert_int_equal(reclaim_request_apply(req, &e), 0);
	assert_int_equal(reclaim_eval_change(e), 1);
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	assert_int_equal(join_set(f, 1, &change, "throttle", 7), 0);
	assert_int_equal(change, 1);
	assert_int_equal(join_set(f, 1, &change, "swappiness", 20), 0);
	assert_int_equal(join_set(f, 1, &change, "throttle", 3), 0);
	assert_int_equal(change, 1);
	/* nothing to write: nothing recorded */
	assert_int_equal(join_set(f, 1, &change, "throttle", 3), 0);
	assert_int_equal(change, 0);
	assert_int_equal(reclaim_history_new(f->ctx, &h), 0);
	assert_int_equal(reclaim_history_count(h), 4);
	assert_record(h, 0, 1, "max_direct_reclaimers", 0, 5);
	assert_record(h, 1, 1, "max_direct_reclaimers", 5, 7);
	assert_record(h, 2, 1, "swappiness", 60, 20);
	assert_record(h, 3, 1, "max_direct_reclaimers", 7, 3);
	assert_string_equal(reclaim_history_source(h, 1), "sweep");
	reclaim_history_unref(h);
	/* the restore of change 1: each knob once, to the old value of its first record */
	e = restore(f, RECLAIM_REQUEST_RESTORE, false);
	assert_int_equal(reclaim_eval_undoes(e), 1);
	assert_int_equal(reclaim_eval_count(e), 2);
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 3, 0);
	assert_entry(e, "swappiness", RECLAIM_ACTION_SET, 20, 60);
	assert_string_equal(reclaim_eval_source(e, 0), "change:1");
	reclaim_eval_unref(e);
	assert_int_equal(reclaim_request_new(f->ctx, RECLAIM_REQUEST_RESTORE, 0, &req), 0);
	assert_int_equal(reclaim_request_set_change(req, 1), 0);
	assert_int_equal(reclaim_request_apply(req, &e), 0);
	assert_int_equal(reclaim_eval_change(e), 2);
	reclaim_eval_unref(e);
	reclaim_request_unref(req);
	assert_file(f, VM "max_direct_reclaimers", "0\n");
	assert_file(f, VM "swappiness", "60\n");
	/* history shows every record, then the restore */
	assert_int_equal(reclaim_history_new(f->ctx, &h), 0);
	assert_int_equal(reclaim_history_count(h), 6);
	assert_true(reclaim_history_undone(h, 3));
	assert_int_equal(reclaim_history_undoes(h, 4), 1);
	assert_int_equal(reclaim_history_change(h, 5), 2);
	reclaim_history_unref(h);
}

/* Joining, or restoring, a change that is not the newest any more fails and writes nothing. */
static void test_join_a_change_no_longer_newest(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req;
	struct reclaim_history *h;
	struct reclaim_eval *e = NULL;

	apply_set(f, "throttle", 5);
	apply_set(f, "swappiness", 20);
	assert_int_equal(join_set(f, 1, NULL, "throttle", 7), -ESTALE);
	assert_non_null(strstr(reclaim_strerror(f->ctx), "change 1 is no longer the newest change: "
							 "change 2 (set at "));
	assert_non_null(strstr(reclaim_strerror(f->ctx), ") came after it"));
	assert_file(f, VM "max_direct_reclaimers", "5\n");
	/* the evaluation says so too: no preview disagrees */
	req = set_request(f, 0, "throttle", 7, NULL);
	assert_int_equal(reclaim_request_set_change(req, 1), 0);
	assert_int_equal(reclaim_request_evaluate(req, &e), -ESTALE);
	assert_null(e);
	reclaim_request_unref(req);
	/* so does a restore of change 1 */
	assert_int_equal(reclaim_request_new(f->ctx, RECLAIM_REQUEST_RESTORE, 0, &req), 0);
	assert_int_equal(reclaim_request_set_change(req, 1), 0);
	assert_int_equal(reclaim_request_apply(req, &e), -ESTALE);
	reclaim_request_unref(req);
	assert_file(f, VM "swappiness", "20\n");
	/* a change not in the history */
	assert_int_equal(join_set(f, 9, NULL, "throttle", 7), -ESTALE);
	assert_non_null(strstr(reclaim_strerror(f->ctx), "the history has no change 9"));
	assert_int_equal(reclaim_history_new(f->ctx, &h), 0);
	assert_int_equal(reclaim_history_count(h), 2);
	reclaim_history_unref(h);
	/* change 2 undone: change 1 is the newest again, and can be joined */
	reclaim_eval_unref(restore(f, RECLAIM_REQUEST_RESTORE, true));
	assert_int_equal(join_set(f, 1, NULL, "throttle", 7), 0);
	assert_file(f, VM "max_direct_reclaimers", "7\n");
	/* undone: not any more */
	reclaim_eval_unref(restore(f, RECLAIM_REQUEST_RESTORE, true));
	assert_file(f, VM "max_direct_reclaimers", "0\n");
	assert_int_equal(join_set(f, 1, NULL, "throttle", 7), -ESTALE);
	assert_non_null(strstr(reclaim_strerror(f->ctx), "change 4 (restore at "));
	assert_non_null(strstr(reclaim_strerror(f->ctx), ") undid it"));
	assert_file(f, VM "max_direct_reclaimers", "0\n");
	/* what can join */
	assert_int_equal(reclaim_request_new(f->ctx, RECLAIM_REQUEST_SET, 0, &req), 0);
	assert_int_equal(reclaim_request_set_change(req, 0), -EINVAL);
	reclaim_request_unref(req);
	assert_int_equal(reclaim_request_new(f->ctx, RECLAIM_REQUEST_PRESET, 0, &req), 0);
	assert_int_equal(reclaim_request_set_change(req, 1), -EINVAL);
	reclaim_request_unref(req);
	assert_int_equal(reclaim_request_new(f->ctx, RECLAIM_REQUEST_RESTORE_BOOT, 0, &req), 0);
	assert_int_equal(reclaim_request_set_change(req, 1), -EINVAL);
	reclaim_request_unref(req);
}

/* A change of several records of a knob changed since by something else: its boot value. */
static void test_restore_of_a_joined_knob_changed_since(void **state)
{
	struct fixture *f = *state;
	struct reclaim_eval *e;

	apply_set(f, "throttle", 2);
	apply_set(f, "throttle", 5);
	assert_int_equal(join_set(f, 2, NULL, "throttle", 6), 0);
	assert_int_equal(join_set(f, 2, NULL, "swappiness", 20), 0);
	/* at the new value of the knob's first record of change 2, not its last */
	tmproot_write(f->root, VM "max_direct_reclaimers", "5\n");
	e = restore_flags(f, RECLAIM_REQUEST_RESTORE, RECLAIM_REQUEST_FORCE, false);
	assert_int_equal(reclaim_eval_undoes(e), 2);
	assert_int_equal(reclaim_eval_count(e), 2);
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 5, 0);
	assert_string_equal(reason(e, "throttle"),
			    "vm.max_direct_reclaimers is 5, not the 6 change 2 set: changed since "
			    "by something else; back to its value before the first change since "
			    "boot (--force)");
	assert_entry(e, "swappiness", RECLAIM_ACTION_SET, 20, 60);
	assert_non_null(strstr(reason(e, "swappiness"), "undoes change 2 (set at "));
	reclaim_eval_unref(e);
	/* at its last value: back to the old value of its first record of change 2 */
	tmproot_write(f->root, VM "max_direct_reclaimers", "6\n");
	e = restore(f, RECLAIM_REQUEST_RESTORE, true);
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 6, 2);
	reclaim_eval_unref(e);
	assert_file(f, VM "max_direct_reclaimers", "2\n");
	assert_file(f, VM "swappiness", "60\n");
}

/* The bound keeps the first record of each knob of a change partly among the last records. */
static void test_joined_change_survives_the_bound(void **state)
{
	struct fixture *f = *state;
	unsigned int keep = reclaim_history_keep;
	struct reclaim_history *h;
	struct reclaim_eval *e;

	reclaim_history_keep = 3;
	apply_set(f, "throttle", 2);
	apply_set(f, "throttle", 5);
	for (int v = 6; v <= 12; v++)
		assert_int_equal(join_set(f, 2, NULL, "throttle", v), 0);
	reclaim_history_keep = keep;
	assert_int_equal(reclaim_history_new(f->ctx, &h), 0);
	assert_true(reclaim_history_trimmed(h) > 0);
	assert_record(h, 0, 1, "max_direct_reclaimers", 0, 2);
	assert_record(h, 1, 2, "max_direct_reclaimers", 2, 5);
	reclaim_history_unref(h);
	e = restore(f, RECLAIM_REQUEST_RESTORE, true);
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 12, 2);
	reclaim_eval_unref(e);
	assert_file(f, VM "max_direct_reclaimers", "2\n");
}

/* Throttle's record of change @n in a history as reclaimctl writes it, up to its values. */
#define THROTTLE(n)                                                                                \
	"change=" #n " time=" #n ".000000000 command=set source=value knob=max_direct_reclaimers "
#define INTENT(n, k) "# intent change=" #n " records=" #k "\n"
#define DONE(n)	     "# done change=" #n "\n"

/* @history in the file, and throttle at @throttle; then a restore, applied or not. */
static struct reclaim_eval *restore_of(struct fixture *f, const char *history, const char *throttle,
				       bool apply)
{
	tmproot_write(f->root, HISTORY, history);
	tmproot_write(f->root, VM "max_direct_reclaimers", throttle);
	return restore(f, RECLAIM_REQUEST_RESTORE, apply);
}

/*
 * A change cut off between its record and its done line: each knob at its
 * old or new value is the change's, and goes back to its old value; no
 * knob is "changed since by something else".
 */
static void test_restore_of_an_interrupted_change(void **state)
{
	struct fixture *f = *state;
	struct reclaim_history *h;
	struct reclaim_eval *e;

	/* killed between the two writes: throttle written, swappiness not */
	e = restore_of(f,
		       INTENT(1, 1) THROTTLE(1) "old=0 new=2\n" DONE(1) INTENT(2, 2) THROTTLE(
			   2) "old=2 new=5\n"
			      "change=2 time=2.000000000 command=set source=value knob=swappiness "
			      "old=60 new=20\n",
		       "5\n", true);
	assert_int_equal(reclaim_eval_undoes(e), 2);
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 5, 2);
	assert_entry(e, "swappiness", RECLAIM_ACTION_UNCHANGED, 60, 60);
	assert_string_equal(reclaim_eval_source(e, 0), "change:2");
	assert_non_null(strstr(reason(e, "throttle"), "undoes interrupted change 2 (set at "));
	reclaim_eval_unref(e);
	assert_file(f, VM "max_direct_reclaimers", "2\n");
	assert_int_equal(reclaim_history_new(f->ctx, &h), 0);
	assert_int_equal(reclaim_history_count(h), 5);
	assert_true(reclaim_history_interrupted(h, 1) && reclaim_history_undone(h, 1));
	assert_false(reclaim_history_interrupted(h, 3));
	assert_int_equal(reclaim_history_undoes(h, 3), 2);
	reclaim_history_unref(h);
	e = restore(f, RECLAIM_REQUEST_RESTORE, true);
	assert_int_equal(reclaim_eval_undoes(e), 1);
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 2, 0);
	reclaim_eval_unref(e);
}

/*
 * A joined record cut off before its write: the knob still has the value of
 * the record before it in the change, which is the change's too; any other
 * value is someone else's.
 */
static void test_restore_of_an_interrupted_join(void **state)
{
	static const char history[] =
	    THROTTLE(1) "old=0 new=5\n" INTENT(1, 1) THROTTLE(1) "old=5 new=6\n";
	struct fixture *f = *state;
	struct reclaim_eval *e;

	e = restore_of(f, history, "5\n", false);
	assert_entry(e, "throttle", RECLAIM_ACTION_SET, 5, 0);
	assert_string_equal(reclaim_eval_source(e, 0), "change:1");
	reclaim_eval_unref(e);
	e = restore_of(f, history, "7\n", false);
	assert_string_equal(reclaim_eval_source(e, 0), "outside");
	reclaim_eval_unref(e);
}

/* An interrupted restore undid nothing: the next restore undoes the same change again. */
static void test_interrupted_restore_is_done_again(void **state)
{
	struct fixture *f = *state;
	struct reclaim_eval *e;

	/* its write was made: throttle is back at 0 */
	e = restore_of(f,
		       THROTTLE(1) "old=0 new=2\n" INTENT(
			   2, 1) "change=2 time=2.000000000 command=restore source=change:1 "
				 "knob=max_direct_reclaimers old=2 new=0 undoes=1\n",
		       "0\n", true);
	assert_int_equal(reclaim_eval_undoes(e), 1);
	assert_entry(e, "throttle", RECLAIM_ACTION_UNCHANGED, 0, 0);
	reclaim_eval_unref(e);
	e = restore(f, RECLAIM_REQUEST_RESTORE, false);
	assert_int_equal(reclaim_eval_count(e), 0);
	reclaim_eval_unref(e);
}

/* A message is never one of an earlier failure. */
static void test_no_stale_message(void **state)
{
	struct fixture *f = *state;
	struct reclaim_topology *topo;
	int64_t v;

	assert_int_equal(reclaim_knob_read(f->ctx, knob("threads"), &v), -EOPNOTSUPP);
	assert_non_null(strstr(reclaim_strerror(f->ctx), "vm.kswapd_threads"));
	tmproot_write(f->root, "/proc/meminfo", "MemTotal: 8000000 kB\nMemFree: 10000 kB\n");
	tmproot_write(f->root, "/sys/devices/system/cpu/online", "0-3\n");
	assert_int_equal(reclaim_topology_new(f->ctx, &topo), 0);
	assert_null(strstr(reclaim_strerror(f->ctx), "vm.kswapd_threads"));
	reclaim_topology_unref(topo);
}

static void test_null_arguments(void **state)
{
	struct fixture *f = *state;
	struct reclaim_request *req;
	struct reclaim_eval *e;

	assert_int_equal(reclaim_request_new(NULL, RECLAIM_REQUEST_SET, 0, &req), -EINVAL);
	assert_int_equal(reclaim_request_new(f->ctx, RECLAIM_REQUEST_SET, 1u << 9, &req), -EINVAL);
	assert_int_equal(reclaim_request_new(f->ctx, RECLAIM_REQUEST_PRESET, 0, &req), 0);
	assert_int_equal(reclaim_request_add(req, knob("throttle"), 1, NULL), -EINVAL);
	assert_int_equal(reclaim_request_evaluate(req, &e), -EINVAL);
	reclaim_request_unref(req);
	assert_int_equal(reclaim_request_new(f->ctx, RECLAIM_REQUEST_SET, 0, &req), 0);
	assert_int_equal(reclaim_request_add(req, knob("throttle"), 5000, NULL), -ERANGE);
	assert_int_equal(reclaim_request_add_auto(req, knob("swappiness")), -EOPNOTSUPP);
	reclaim_request_unref(req);
	assert_null(reclaim_eval_unref(NULL));
	assert_null(reclaim_request_unref(NULL));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_evaluate_writes_nothing),
	    T(test_apply_writes_the_set_entries),
	    T(test_source_of_a_request),
	    T(test_nothing_to_write_takes_no_lock),
	    T(test_sysctl_file_outranks),
	    T(test_missing_knob),
	    T(test_boot_keeps_persisted_values),
	    T(test_boot_off_and_malformed),
	    T(test_exported_paths),
	    T(test_persist_of_unchanged_value),
	    T(test_persist_preview),
	    T(test_restore_is_a_stack),
	    T(test_restore_of_a_knob_changed_since),
	    T(test_restore_boot_of_a_knob_changed_since),
	    T(test_restore_of_a_knob_back_already),
	    T(test_restore_says_persisted_value_stays),
	    T(test_restore_boot),
	    T(test_restore_of_unchanged_knob_is_recorded),
	    T(test_join_a_change),
	    T(test_join_a_change_no_longer_newest),
	    T(test_restore_of_a_joined_knob_changed_since),
	    T(test_joined_change_survives_the_bound),
	    T(test_restore_of_an_interrupted_change),
	    T(test_restore_of_an_interrupted_join),
	    T(test_interrupted_restore_is_done_again),
	    T(test_no_stale_message),
	    T(test_null_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
