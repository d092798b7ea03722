/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sources.c: the writers of a knob besides reclaimctl that the engine's
 * precedence knows, named in one shape for the engine (a knob another
 * source sets is skipped unless forced) and for verify (who changed it).
 */
#ifndef RECLAIM_SOURCES_INTERNAL_H
#define RECLAIM_SOURCES_INTERNAL_H

#include "internal.h"

struct knob_source {
	const char *kind; /* "sysctl", "tuned", "tmpfiles", "cmdline" */
	char *where;	  /* "FILE:LINE" */
	char *profile;	  /* tuned's active profile, for "tuned"; else NULL */
	char *key;	  /* the key as written there */
	char *value;	  /* the value as written there */
};

/*
 * The source other than reclaimctl's own file that sets @knob (the one
 * that decides it), from @conf and the other kinds: 1 with *@src filled
 * (reclaim_knob_source_clear() it), 0 for none, -ENOMEM.
 */
int reclaim_knob_foreign_source(struct reclaim_ctx *ctx, const struct reclaim_sysctl_conf *conf,
				const struct reclaim_knob *knob, struct knob_source *src);
void reclaim_knob_source_clear(struct knob_source *src);

#endif
