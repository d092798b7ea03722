/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RECLAIMCTL_MODEL_H
#define RECLAIMCTL_MODEL_H

#include "reclaimctl.h"

/* model.c: library objects as JSON, shared by the commands. */
cJSON *json_vmstat(const struct reclaim_vmstat *vs);

#endif
