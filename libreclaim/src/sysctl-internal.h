/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The syntax of the boot configuration's files, shared by sysctlconf.c and persist.c. */
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
/*
 * Components joined by one '/', without empty and "." ones (systemd's
 * path_simplify()); @absolute: with a leading '/', "/" for nothing. In
 * place; returns @path.
 */
char *reclaim_path_simplify(char *path, bool absolute);
/* True if the (normalized) key is a glob(7) pattern. */
bool reclaim_sysctl_is_glob(const char *path);
/* True if the normalized key or pattern @path names @knob. */
bool reclaim_sysctl_matches(const char *path, const struct reclaim_knob *knob);
/* The knob whose name under /proc/sys is @path ("vm/swappiness"), or NULL. */
const struct reclaim_knob *reclaim_sysctl_knob_by_path(const char *path);

/* Where a line of the boot configuration comes from: whose rules decide among its lines. */
enum conf_kind {
	CONF_SYSCTL = 0, /* a sysctl.d file (or /etc/sysctl.conf): systemd-sysctl's rules */
	CONF_TUNED,	 /* tuned's active profile, written after systemd-sysctl */
	CONF_TMPFILES,	 /* a 'w' line of a tmpfiles.d file, for a knob of sysfs */
	CONF_CMDLINE,	 /* the kernel command line, for a module parameter (zswap.enabled=) */
};

/* tmpfiles.c: the tmpfiles.d lines that write files (tmpfiles.d(5)). */
struct tmpfiles_line {
	bool blank;	     /* empty, or a comment */
	char *type;	     /* "w", "w+", "w!-", ...: the type, then its modifiers */
	char *path;	     /* simplified as systemd-tmpfiles does; may be a glob */
	char *argument;	     /* escapes and "%%" expanded; NULL for none */
	bool boot;	     /* '!': written only at boot */
	bool allow_failure;  /* '-' */
	bool unreadable;     /* '~' or '^': the value is not in the line */
	const char *problem; /* why the line is skipped, as a phrase; NULL if it is not */
};

/* Parses one line (@len bytes, without the newline). 0, or -ENOMEM. */
int reclaim_tmpfiles_parse_line(const char *line, size_t len, struct tmpfiles_line *l);
void reclaim_tmpfiles_line_clear(struct tmpfiles_line *l);
bool reclaim_tmpfiles_is_glob(const char *path);
/* True if the line's path (or glob) names the file of @knob, a knob of sysfs. */
bool reclaim_tmpfiles_matches(const struct tmpfiles_line *l, const struct reclaim_knob *knob);

/* cmdline.c: the kernel command line's parameters, in RECLAIM_CMDLINE_FILE. */
#define RECLAIM_CMDLINE_FILE "/proc/cmdline"
typedef int (*cmdline_fn)(void *data, const char *name, const char *value);
/* Calls @fn with each parameter's name and value (NULL without '='); stops at its first non-zero.
 */
int reclaim_cmdline_foreach(const char *text, cmdline_fn fn, void *data);
/* True if @name is @param, '-' and '_' being the same. */
bool reclaim_cmdline_param_is(const char *name, const char *param);

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
