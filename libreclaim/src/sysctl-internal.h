/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The sysctl.d line syntax, shared by sysctlconf.c and persist.c. */
#ifndef RECLAIM_SYSCTL_INTERNAL_H
#define RECLAIM_SYSCTL_INTERNAL_H

#include "internal.h"

enum sysctl_line_kind {
	SYSCTL_LINE_BLANK = 0, /* empty, or a comment ('#' or ';') */
	SYSCTL_LINE_ASSIGN,    /* [-]key = value */
	SYSCTL_LINE_EXCLUDE,   /* -key (no '='): the key is left out of every glob */
	SYSCTL_LINE_INVALID,   /* anything else; systemd-sysctl logs and skips it */
};

struct sysctl_line {
	enum sysctl_line_kind kind;
	bool ignore_failure; /* a leading '-' before "key =" */
	char *key;	     /* as written, trimmed, without the '-'; for INVALID the first word */
	char *path;	     /* the key normalized as systemd does: "vm/swappiness" */
	char *value;	     /* ASSIGN: trimmed; else NULL */
	const char *problem; /* INVALID: why, as a phrase */
};

/* Parses one line (@len bytes, without the newline). 0, or -ENOMEM. */
int reclaim_sysctl_parse_line(const char *line, size_t len, struct sysctl_line *l);
void reclaim_sysctl_line_clear(struct sysctl_line *l);
/*
 * systemd's sysctl_normalize(): if the first separator is '.', dots and
 * slashes are swapped ("vm.swappiness" -> "vm/swappiness"); then empty and
 * "." components and a leading '/' are dropped. In place; returns @key.
 */
char *reclaim_sysctl_normalize(char *key);
/* True if the (normalized) key is a glob(7) pattern. */
bool reclaim_sysctl_is_glob(const char *path);
/* True if the normalized key or pattern @path names @knob. */
bool reclaim_sysctl_matches(const char *path, const struct reclaim_knob *knob);
/* The knob whose name under /proc/sys is @path ("vm/swappiness"), or NULL. */
const struct reclaim_knob *reclaim_sysctl_knob_by_path(const char *path);

#endif
