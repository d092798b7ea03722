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

/* tuned.c: the knobs tuned's active profile sets, its include= chain merged as tuned does. */
struct tuned_value {
	const struct reclaim_knob *knob;
	char *file; /* the tuned.conf whose line won, as on the machine */
	unsigned int line;
	char *key, *value; /* as written; the value with its ${NAME} expanded */
};

struct tuned_profile {
	char *names;  /* of the active profile, blank-separated; NULL: tuned has none */
	bool reapply; /* tuned-main.conf's reapply_sysctl (on by default) */
	struct tuned_value *values;
	size_t count;
	/* why the profile cannot be read (no values then), at FILE:LINE (0: the file); or NULL */
	char *error, *error_file;
	unsigned int error_line;
};

/* Reads the active profile into @t: 0 (an unreadable profile sets t->error), or -ENOMEM. */
int reclaim_tuned_read(struct reclaim_ctx *ctx, struct tuned_profile *t);
void reclaim_tuned_clear(struct tuned_profile *t);
/* Why tuned's profile could not be read (reclaim_tuned_read()), or NULL. */
const char *reclaim_sysctl_conf_tuned_error(const struct reclaim_sysctl_conf *c);

#endif
