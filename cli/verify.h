/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd-verify.c: the knobs another writer changed, as verify reports them,
 * for status and check to show the same rows and lines.
 */
#ifndef RECLAIMCTL_VERIFY_H
#define RECLAIMCTL_VERIFY_H

#include <cjson/cJSON.h>

#include "reclaimctl.h"

/* verify's JSON rows of the drifted knobs alone (knobs[] of verify --json). */
cJSON *verify_json_drifted(struct cli *cli, const struct reclaim_verify *v);
/* One line a drifted knob: its reason and since when; the count printed. */
size_t verify_print_drifted(const struct reclaim_verify *v);

#endif
