// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <systemd/sd-journal.h>

#include "journal.h"

static bool enabled;

void journal_use(bool on)
{
	enabled = on;
}

bool journal_is_stream(int fd)
{
	const char *env = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (!enabled || !env || sscanf(env, "%llu:%llu", &dev, &ino) != 2 || fstat(fd, &st) < 0)
		return false;
	return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

bool journal_is_stderr(void)
{
	return journal_is_stream(STDERR_FILENO);
}

void journal_entries(const char *preset, const struct reclaim_eval *e)
{
	if (!enabled)
		return;
	for (size_t i = 0; i < reclaim_eval_count(e); i++) {
		const struct reclaim_knob *k = reclaim_eval_knob(e, i);
		const char *name = reclaim_knob_label(k);
		const char *old = KNOB_TEXT(k, reclaim_eval_old(e, i));
		const char *new = KNOB_TEXT(k, reclaim_eval_new(e, i));

		if (reclaim_eval_action(e, i) == RECLAIM_ACTION_SET)
			sd_journal_send("MESSAGE=%s: %s -> %s (preset %s)", name, old, new, preset,
					"MESSAGE_ID=" JOURNAL_ID_KNOB, "PRIORITY=%d", LOG_INFO,
					"RECLAIM_PRESET=%s", preset, "RECLAIM_KNOB=%s", name,
					"RECLAIM_OLD=%s", old, "RECLAIM_NEW=%s", new, NULL);
		else if (reclaim_eval_action(e, i) == RECLAIM_ACTION_SKIPPED)
			sd_journal_send("MESSAGE=%s: skipped (%s)", name, reclaim_eval_reason(e, i),
					"PRIORITY=%d", LOG_NOTICE, "RECLAIM_PRESET=%s", preset,
					"RECLAIM_KNOB=%s", name, NULL);
	}
}

void journal_applied(const char *preset, const struct reclaim_eval *e)
{
	size_t changed = 0, skipped = 0, n = reclaim_eval_count(e);

	if (!enabled)
		return;
	for (size_t i = 0; i < n; i++) {
		changed += reclaim_eval_action(e, i) == RECLAIM_ACTION_SET;
		skipped += reclaim_eval_action(e, i) == RECLAIM_ACTION_SKIPPED;
	}
	sd_journal_send("MESSAGE=Applied preset %s: %zu knob%s changed, %zu unchanged, %zu "
			"skipped",
			preset, changed, changed == 1 ? "" : "s", n - changed - skipped, skipped,
			"MESSAGE_ID=" JOURNAL_ID_APPLIED, "PRIORITY=%d", LOG_INFO,
			"RECLAIM_PRESET=%s", preset, "RECLAIM_CHANGED=%zu", changed,
			"RECLAIM_SKIPPED=%zu", skipped, NULL);
}

__attribute__((format(printf, 4, 0))) static void
vjournal(int prio, const char *id, const char *preset, const char *fmt, va_list ap)
{
	char *msg = NULL;

	if (!enabled || vasprintf(&msg, fmt, ap) < 0)
		return;
	if (id)
		sd_journal_send("MESSAGE=%s", msg, "MESSAGE_ID=%s", id, "PRIORITY=%d", prio,
				"RECLAIM_PRESET=%s", preset ? preset : "", NULL);
	else
		sd_journal_send("MESSAGE=%s", msg, "PRIORITY=%d", prio, "RECLAIM_PRESET=%s",
				preset ? preset : "", NULL);
	free(msg);
}

void journal_failed(const char *preset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vjournal(LOG_ERR, JOURNAL_ID_FAILED, preset, fmt, ap);
	va_end(ap);
}

void journal_info(const char *preset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vjournal(LOG_INFO, NULL, preset, fmt, ap);
	va_end(ap);
}

void journal_adapt(const struct reclaim_knob *knob, int64_t old, int64_t new, const char *reason,
		   bool dry_run)
{
	if (!enabled)
		return;
	sd_journal_send("MESSAGE=%s: %" PRId64 " -> %" PRId64 "%s: %s", reclaim_knob_label(knob),
			old, new, dry_run ? " (dry run, not written)" : "", reason,
			"MESSAGE_ID=" JOURNAL_ID_ADAPT, "PRIORITY=%d", LOG_INFO, "RECLAIM_KNOB=%s",
			reclaim_knob_label(knob), "RECLAIM_OLD=%" PRId64, old,
			"RECLAIM_NEW=%" PRId64, new, "RECLAIM_REASON=%s", reason,
			"RECLAIM_DRY_RUN=%d", dry_run ? 1 : 0, NULL);
}

void journal_handoff(const struct reclaim_knob *knob, int64_t value, const char *reason)
{
	if (!enabled)
		return;
	sd_journal_send("MESSAGE=%s", reason, "MESSAGE_ID=" JOURNAL_ID_HANDOFF, "PRIORITY=%d",
			LOG_NOTICE, "RECLAIM_KNOB=%s", reclaim_knob_label(knob),
			"RECLAIM_VALUE=%" PRId64, value, NULL);
}
