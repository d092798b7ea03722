/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RECLAIMCTL_JOURNAL_H
#define RECLAIMCTL_JOURNAL_H

#include "apply.h"

/*
 * Structured journal entries of the boot unit. The MESSAGE_IDs are part of
 * reclaimctl's interface (documented in reclaimctl(8)): scripts select them
 * with journalctl MESSAGE_ID=...
 */
#define JOURNAL_ID_KNOB	   "63fe6bb8eaac40c8996f514a67617472" /* a knob was changed */
#define JOURNAL_ID_APPLIED "c75a12a31d85493c95bf42093d3cdc3a" /* a preset was applied */
#define JOURNAL_ID_FAILED  "72fb6bc5360547539fc1fc8807ffd9a9" /* applying failed */
#define JOURNAL_ID_ADAPT   "5a74b779cfa846d79edbb8d26c65324d" /* adapt changed kswapd_threads */
#define JOURNAL_ID_HANDOFF "b68d4c8640f74ddd8d1e157b7cbe2fab" /* adapt stepped aside */

/* Entries are sent only after journal_use(true): not for a --sysroot, another machine. */
void journal_use(bool on);
/* True when standard error already goes to the journal (a service's output). */
bool journal_is_stderr(void);
/* The same for any file descriptor. */
bool journal_is_stream(int fd);
/* One entry per knob: changed ones with JOURNAL_ID_KNOB, skipped ones as notices. */
void journal_entries(const char *preset, const struct reclaim_eval *eval);
void journal_applied(const char *preset, const struct reclaim_eval *eval);
__attribute__((format(printf, 2, 3))) void journal_failed(const char *preset, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void journal_info(const char *preset, const char *fmt, ...);

/* adapt: a change of kswapd_threads (or, with @dry_run, one it would make). */
void journal_adapt(const struct reclaim_knob *knob, int64_t old, int64_t new, const char *reason,
		   bool dry_run);
/* adapt: someone else changed the knob; @value is theirs. */
void journal_handoff(const struct reclaim_knob *knob, int64_t value, const char *reason);

#endif
