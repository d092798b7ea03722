// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The swap rings and devices as swap and status show them: the quota line,
 * the two tables and their JSON.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "reclaimctl.h"
#include "swap-tables.h"

enum { R_PRIO, R_DEVICES, R_SIZE, R_USED, R_USE, R_BALANCE };

static const struct colinfo ring_cols[] = {
    [R_PRIO] = {"PRIO", 0, COL_RIGHT, "priority of the ring's devices", "priority", CJ_NUMBER},
    [R_DEVICES] = {"DEVICES", 0, COL_RIGHT, "devices in the ring", "devices", CJ_ARRAY},
    [R_SIZE] = {"SIZE", 0, COL_RIGHT | COL_SIZE, "their size", "size_kb", CJ_NUMBER},
    [R_USED] = {"USED", 0, COL_RIGHT | COL_SIZE, "what they hold", "used_kb", CJ_NUMBER},
    [R_USE] = {"USE%", 0, COL_RIGHT, "used, in percent of the size", NULL, CJ_NONE},
    [R_BALANCE] = {"BALANCE", 0, COL_RIGHT,
		   "lowest / highest used fraction of its devices: 1.00 is even", "balance",
		   CJ_NUMBER},
};

enum { D_PRIO, D_DEVICE, D_TYPE, D_KIND, D_DISK, D_ROTA, D_SIZE, D_USED, D_USE, D_ON };

static const struct colinfo device_cols[] = {
    [D_PRIO] = {"PRIO", 0, COL_RIGHT, "priority", "priority", CJ_NUMBER},
    [D_DEVICE] = {"DEVICE", 0, 0, "device or file, as /proc/swaps names it", "path", CJ_STRING},
    [D_TYPE] = {"TYPE", 0, 0, "partition or file", "type", CJ_STRING},
    [D_KIND] = {"KIND", 0, 0, "zram, disk, file or unknown", "kind", CJ_STRING},
    [D_DISK] = {"DISK", 0, 0, "the whole disk under it", "disk", CJ_STRING},
    [D_ROTA] = {"ROTA", 0, COL_RIGHT, "rotational (1) or not (0), from sysfs", "rotational",
		CJ_BOOL},
    [D_SIZE] = {"SIZE", 0, COL_RIGHT | COL_SIZE, "size", "size_kb", CJ_NUMBER},
    [D_USED] = {"USED", 0, COL_RIGHT | COL_SIZE, "what it holds", "used_kb", CJ_NUMBER},
    [D_USE] = {"USE%", 0, COL_RIGHT, "used, in percent of the size", NULL, CJ_NONE},
    [D_ON] = {"ON", 0, 0, "for a swap file: its block device and mount point", "mountpoint",
	      CJ_STRING},
};

const struct coltable rings_columns =
    COLTABLE("rings", ring_cols, "PRIO,DEVICES,SIZE,USED,USE%,BALANCE", "rings[]");
const struct coltable devices_columns =
    COLTABLE("devices", device_cols, "PRIO,DEVICE,TYPE,KIND,DISK,ROTA,SIZE,USED,USE%,ON",
	     "rings[].devices[]");

static void set_percent(struct table *t, int id, uint64_t used, uint64_t total)
{
	if (total == 0)
		table_set(t, id, NULL);
	else
		table_setf(t, id, "%" PRIu64 "%%", (used * 100 + total / 2) / total);
}

/* The balance, rounded to 3 decimals so that the output does not depend on float noise. */
static double balance_rounded(const struct reclaim_swap_ring *ring)
{
	return (double)(int64_t)(reclaim_swap_ring_balance(ring) * 1000.0 + 0.5) / 1000.0;
}

/* Where a swap file lives: "/dev/nvme1n1p1 at /var". */
static void format_on(char *buf, size_t size, const struct reclaim_swap *d)
{
	const char *dev = reclaim_swap_backing_device(d), *mnt = reclaim_swap_mountpoint(d);

	char *pd = printable(dev ? dev : ""), *pm = printable(mnt ? mnt : "");

	if (dev && mnt)
		snprintf(buf, size, "%s at %s", pd, pm);
	else if (mnt)
		snprintf(buf, size, "%s", pm);
	else
		snprintf(buf, size, "-");
	free(pd);
	free(pm);
}

static cJSON *json_string_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* In the JSON's order of keys. */
static void fill_device(struct table *t, const struct reclaim_swap *d)
{
	int rota = reclaim_swap_rotational(d);
	char *path = printable(reclaim_swap_path(d));
	char on[1024];

	table_row(t);
	table_set_value(t, D_DEVICE, path, cJSON_CreateString(reclaim_swap_path(d)));
	free(path);
	table_set_str(t, D_TYPE, reclaim_swap_type(d));
	table_set_str(t, D_KIND, reclaim_swap_kind_name(reclaim_swap_kind(d)));
	table_set_size(t, D_SIZE, reclaim_swap_size_kb(d));
	table_set_size(t, D_USED, reclaim_swap_used_kb(d));
	set_percent(t, D_USE, reclaim_swap_used_kb(d), reclaim_swap_size_kb(d));
	table_set_int(t, D_PRIO, reclaim_swap_priority(d));
	table_set_str(t, D_DISK, reclaim_swap_disk(d));
	table_set_value(t, D_ROTA,
			rota < 0 ? NULL
			: rota	 ? "1"
				 : "0",
			rota < 0 ? NULL : cJSON_CreateBool(rota));
	table_json_add(t, "backing_device", json_string_or_null(reclaim_swap_backing_device(d)));
	format_on(on, sizeof(on), d);
	table_set_value(t, D_ON, on, json_string_or_null(reclaim_swap_mountpoint(d)));
}

/* A ring's row, its devices' rows in @devices and in its JSON row. */
static void fill_ring(struct table *rings, struct table *devices, const struct reclaim_swap_ring *r)
{
	char count[24], balance[32];

	for (size_t i = 0; i < reclaim_swap_ring_count(r); i++)
		fill_device(devices, reclaim_swap_ring_get(r, i));
	table_row(rings);
	table_set_int(rings, R_PRIO, reclaim_swap_ring_priority(r));
	table_set_size(rings, R_SIZE, reclaim_swap_ring_size_kb(r));
	table_set_size(rings, R_USED, reclaim_swap_ring_used_kb(r));
	set_percent(rings, R_USE, reclaim_swap_ring_used_kb(r), reclaim_swap_ring_size_kb(r));
	snprintf(balance, sizeof(balance), "%.2f", reclaim_swap_ring_balance(r));
	table_set_value(rings, R_BALANCE, balance, cJSON_CreateNumber(balance_rounded(r)));
	snprintf(count, sizeof(count), "%zu", reclaim_swap_ring_count(r));
	table_set_value(rings, R_DEVICES, count, table_json_array(devices));
}

static void fill(struct table *rings, struct table *devices, const struct reclaim_swaps *swaps)
{
	for (size_t i = 0; i < reclaim_swaps_ring_count(swaps); i++)
		fill_ring(rings, devices, reclaim_swaps_ring(swaps, i));
}

void json_add_swap(struct cli *cli, cJSON *obj, const struct reclaim_swaps *swaps,
		   const int64_t *quota)
{
	struct table *rings, *devices;

	if (quota)
		cJSON_AddNumberToObject(obj, "round_robin_quota_kb", (double)*quota);
	else
		cJSON_AddNullToObject(obj, "round_robin_quota_kb");
	if (!swaps) {
		cJSON_AddNullToObject(obj, "rings");
		return;
	}
	rings = table_new_json(cli, &rings_columns);
	devices = table_new_json(cli, &devices_columns);
	fill(rings, devices, swaps);
	cJSON_AddItemToObject(obj, "rings", table_json_array(rings));
	table_free(rings);
	table_free(devices);
}

static void print_tables(struct cli *cli, const struct reclaim_swaps *swaps, unsigned int parts)
{
	/* -o is for the one printed */
	struct table *rings = parts & SWAP_RINGS ? table_new(cli, &rings_columns)
						 : table_new_json(cli, &rings_columns);
	struct table *devices = parts & SWAP_DEVICES ? table_new(cli, &devices_columns)
						     : table_new_json(cli, &devices_columns);

	fill(rings, devices, swaps);
	if (parts & SWAP_RINGS) {
		if (parts & SWAP_QUOTA)
			separator(cli);
		if (parts & SWAP_DEVICES)
			heading(cli, "Rings (highest priority first)");
		table_print(rings);
	}
	if (parts & SWAP_DEVICES) {
		if (parts & (SWAP_QUOTA | SWAP_RINGS))
			separator(cli);
		if (parts & SWAP_RINGS)
			heading(cli, "Devices");
		table_print(devices);
	}
	table_free(rings);
	table_free(devices);
}

void swap_print(struct cli *cli, const struct reclaim_swaps *swaps, const int64_t *quota,
		const char *quota_missing, const char *missing, unsigned int parts)
{
	const struct reclaim_knob *k = reclaim_knob_by_id(RECLAIM_KNOB_SWAP_ROUND_ROBIN_QUOTA_KB);

	/* the quota is a line of text: not among the rows of -n and -P */
	if ((parts & SWAP_QUOTA) && !script_output(cli)) {
		if (quota)
			printf("Round-robin quota: %" PRId64
			       " KiB from a device before the next of its ring (%s)\n",
			       *quota, reclaim_knob_sysctl(k));
		else if (quota_missing)
			printf("Round-robin quota: %s\n", quota_missing);
		else
			printf("Round-robin quota: not supported by this kernel (no %s)\n",
			       reclaim_knob_path(k));
	}
	if (!swaps) {
		note(cli, "%s", missing ? missing : "no /proc/swaps");
		return;
	}
	if (reclaim_swaps_count(swaps) == 0) {
		note(cli, "No active swap devices.");
		return;
	}
	print_tables(cli, swaps, parts);
}
