/* SPDX-License-Identifier: GPL-2.0-or-later */
/* swap-tables.c: the swap rings and devices, for swap and status. */
#ifndef RECLAIMCTL_SWAP_TABLES_H
#define RECLAIMCTL_SWAP_TABLES_H

#include "reclaimctl.h"

/* Adds "round_robin_quota_kb" and "rings" (null without @swaps) to @obj. */
void json_add_swap(struct cli *cli, cJSON *obj, const struct reclaim_swaps *swaps,
		   const int64_t *quota);
enum { SWAP_QUOTA = 1 << 0, SWAP_RINGS = 1 << 1, SWAP_DEVICES = 1 << 2 };
extern const struct coltable rings_columns, devices_columns;
/*
 * The @parts asked for: the quota line, the rings and the devices tables;
 * @quota_missing says why @quota is NULL (NULL: the kernel lacks it),
 * @missing why @swaps is.
 */
void swap_print(struct cli *cli, const struct reclaim_swaps *swaps, const int64_t *quota,
		const char *quota_missing, const char *missing, unsigned int parts);

#endif
