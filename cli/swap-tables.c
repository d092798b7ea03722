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

static cJSON *json_rotational(const struct reclaim_swap *d)
{
	int r = reclaim_swap_rotational(d);

	return r < 0 ? cJSON_CreateNull() : cJSON_CreateBool(r);
}

static cJSON *json_string_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *json_swap_device(const struct reclaim_swap *d)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "path", reclaim_swap_path(d));
	cJSON_AddStringToObject(o, "type", reclaim_swap_type(d));
	cJSON_AddStringToObject(o, "kind", reclaim_swap_kind_name(reclaim_swap_kind(d)));
	cJSON_AddNumberToObject(o, "size_kb", (double)reclaim_swap_size_kb(d));
	cJSON_AddNumberToObject(o, "used_kb", (double)reclaim_swap_used_kb(d));
	cJSON_AddNumberToObject(o, "priority", reclaim_swap_priority(d));
	cJSON_AddItemToObject(o, "disk", json_string_or_null(reclaim_swap_disk(d)));
	cJSON_AddItemToObject(o, "rotational", json_rotational(d));
	cJSON_AddItemToObject(o, "backing_device",
			      json_string_or_null(reclaim_swap_backing_device(d)));
	cJSON_AddItemToObject(o, "mountpoint", json_string_or_null(reclaim_swap_mountpoint(d)));
	return o;
}

/* The balance, rounded to 3 decimals so that the output does not depend on float noise. */
static double balance_rounded(const struct reclaim_swap_ring *ring)
{
	return (double)(int64_t)(reclaim_swap_ring_balance(ring) * 1000.0 + 0.5) / 1000.0;
}

static cJSON *json_ring(const struct reclaim_swap_ring *ring)
{
	cJSON *o = cJSON_CreateObject(), *a;

	cJSON_AddNumberToObject(o, "priority", reclaim_swap_ring_priority(ring));
	cJSON_AddNumberToObject(o, "size_kb", (double)reclaim_swap_ring_size_kb(ring));
	cJSON_AddNumberToObject(o, "used_kb", (double)reclaim_swap_ring_used_kb(ring));
	cJSON_AddNumberToObject(o, "balance", balance_rounded(ring));
	a = cJSON_AddArrayToObject(o, "devices");
	for (size_t i = 0; i < reclaim_swap_ring_count(ring); i++)
		cJSON_AddItemToArray(a, json_swap_device(reclaim_swap_ring_get(ring, i)));
	return o;
}

void json_add_swap(cJSON *obj, const struct reclaim_swaps *swaps, const int64_t *quota)
{
	cJSON *a;

	if (quota)
		cJSON_AddNumberToObject(obj, "round_robin_quota_kb", (double)*quota);
	else
		cJSON_AddNullToObject(obj, "round_robin_quota_kb");
	if (!swaps) {
		cJSON_AddNullToObject(obj, "rings");
		return;
	}
	a = cJSON_AddArrayToObject(obj, "rings");
	for (size_t i = 0; i < reclaim_swaps_ring_count(swaps); i++)
		cJSON_AddItemToArray(a, json_ring(reclaim_swaps_ring(swaps, i)));
}

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
    [D_KIND] = {"KIND", 0, 0, "zram, non-rotational, rotational or unknown", "kind", CJ_STRING},
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

static void print_rings(struct cli *cli, const struct reclaim_swaps *swaps)
{
	struct table *t = table_new(cli, &rings_columns);

	for (size_t i = 0; i < reclaim_swaps_ring_count(swaps); i++) {
		const struct reclaim_swap_ring *r = reclaim_swaps_ring(swaps, i);

		table_row(t);
		table_setf(t, R_PRIO, "%d", reclaim_swap_ring_priority(r));
		table_setf(t, R_DEVICES, "%zu", reclaim_swap_ring_count(r));
		table_set_size(t, R_SIZE, reclaim_swap_ring_size_kb(r));
		table_set_size(t, R_USED, reclaim_swap_ring_used_kb(r));
		set_percent(t, R_USE, reclaim_swap_ring_used_kb(r), reclaim_swap_ring_size_kb(r));
		table_setf(t, R_BALANCE, "%.2f", reclaim_swap_ring_balance(r));
	}
	table_print(t);
	table_free(t);
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

static void print_devices(struct cli *cli, const struct reclaim_swaps *swaps)
{
	struct table *t = table_new(cli, &devices_columns);

	for (size_t i = 0; i < reclaim_swaps_ring_count(swaps); i++) {
		const struct reclaim_swap_ring *r = reclaim_swaps_ring(swaps, i);

		for (size_t j = 0; j < reclaim_swap_ring_count(r); j++) {
			const struct reclaim_swap *d = reclaim_swap_ring_get(r, j);
			char on[1024];
			char *path = printable(reclaim_swap_path(d));

			table_row(t);
			table_setf(t, D_PRIO, "%d", reclaim_swap_priority(d));
			table_set(t, D_DEVICE, path);
			free(path);
			table_set(t, D_TYPE, reclaim_swap_type(d));
			table_set(t, D_KIND, reclaim_swap_kind_name(reclaim_swap_kind(d)));
			table_set(t, D_DISK, reclaim_swap_disk(d));
			if (reclaim_swap_rotational(d) >= 0)
				table_setf(t, D_ROTA, "%d", reclaim_swap_rotational(d));
			else
				table_set(t, D_ROTA, NULL);
			table_set_size(t, D_SIZE, reclaim_swap_size_kb(d));
			table_set_size(t, D_USED, reclaim_swap_used_kb(d));
			set_percent(t, D_USE, reclaim_swap_used_kb(d), reclaim_swap_size_kb(d));
			format_on(on, sizeof(on), d);
			table_set(t, D_ON, on);
		}
	}
	table_print(t);
	table_free(t);
}

void swap_print(struct cli *cli, const struct reclaim_swaps *swaps, const int64_t *quota,
		const char *quota_missing, const char *missing, unsigned int parts)
{
	const struct reclaim_knob *k = reclaim_knob_by_id(RECLAIM_KNOB_SWAP_ROUND_ROBIN_QUOTA_KB);
	bool both = (parts & (SWAP_RINGS | SWAP_DEVICES)) == (SWAP_RINGS | SWAP_DEVICES);

	if (parts & SWAP_QUOTA) {
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
		printf("%s\n", missing ? missing : "no /proc/swaps");
		return;
	}
	if (reclaim_swaps_count(swaps) == 0) {
		printf("No active swap devices.\n");
		return;
	}
	if (parts & SWAP_RINGS) {
		if (parts & SWAP_QUOTA)
			printf("\n");
		if (both)
			heading(cli, "Rings (highest priority first)");
		print_rings(cli, swaps);
	}
	if (parts & SWAP_DEVICES) {
		if (parts & (SWAP_QUOTA | SWAP_RINGS))
			printf("\n");
		if (both)
			heading(cli, "Devices");
		print_devices(cli, swaps);
	}
}
