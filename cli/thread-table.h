/* SPDX-License-Identifier: GPL-2.0-or-later */
/* thread-table.c: the kswapd threads' table, for threads and status. */
#ifndef RECLAIMCTL_THREAD_TABLE_H
#define RECLAIMCTL_THREAD_TABLE_H

#include "reclaimctl.h"

extern const struct coltable threads_columns;
void threads_table(struct cli *cli, const struct reclaim_kswapd_list *list);
/* The JSON rows of the threads of @node, or of every node (-1). */
cJSON *threads_json(struct cli *cli, const struct reclaim_kswapd_list *list, int node);

#endif
