// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The other writers of a knob, one finder a kind: a new kind of source
 * (another configuration that sets knobs at boot or at run time) is one
 * more finder in the table, and the precedence and verify both see it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sources-internal.h"

typedef int (*source_finder)(struct reclaim_ctx *ctx, const struct reclaim_sysctl_conf *conf,
			     const struct reclaim_knob *knob, struct knob_source *src);

/*
 * A sysctl file other than reclaimctl's, tuned's profile, a tmpfiles.d file
 * other than reclaimctl's or the kernel command line (their values are
 * entries of the same configuration), that sets the knob: the line that wins.
 */
static int sysctl_file(struct reclaim_ctx *ctx, const struct reclaim_sysctl_conf *conf,
		       const struct reclaim_knob *k, struct knob_source *src)
{
	ssize_t at = conf ? reclaim_sysctl_conf_admin_entry(conf, k) : -1;

	(void)ctx;
	if (at < 0)
		return 0;
	src->kind = reclaim_sysctl_conf_kind(conf, (size_t)at);
	if (reclaim_sysctl_conf_is_tuned(conf, (size_t)at)) {
		src->profile = strdup(reclaim_sysctl_conf_tuned_profile(conf));
		if (!src->profile)
			return -ENOMEM;
	}
	if (asprintf(&src->where, "%s:%u", reclaim_sysctl_conf_file(conf, (size_t)at),
		     reclaim_sysctl_conf_line(conf, (size_t)at)) < 0) {
		src->where = NULL;
		return -ENOMEM;
	}
	src->key = strdup(reclaim_sysctl_conf_key(conf, (size_t)at));
	src->value = strdup(reclaim_sysctl_conf_value(conf, (size_t)at) ?: "-");
	return src->key && src->value ? 1 : -ENOMEM;
}

static const source_finder finders[] = {
    sysctl_file,
};

void reclaim_knob_source_clear(struct knob_source *src)
{
	free(src->where);
	free(src->profile);
	free(src->key);
	free(src->value);
	*src = (struct knob_source){0};
}

int reclaim_knob_foreign_source(struct reclaim_ctx *ctx, const struct reclaim_sysctl_conf *conf,
				const struct reclaim_knob *k, struct knob_source *src)
{
	*src = (struct knob_source){0};
	for (size_t i = 0; i < ARRAY_SIZE(finders); i++) {
		int r = finders[i](ctx, conf, k, src);

		if (r != 0) {
			if (r < 0)
				reclaim_knob_source_clear(src);
			return r;
		}
	}
	return 0;
}
