// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The swap rule of autotune: one priority per speed tier, so that the
 * devices of one kind form one ring (the kernel uses devices of equal
 * priority in turn) and faster tiers fill first (it uses a lower priority
 * only when every device above is full):
 *
 *   zram (compressed memory)        100
 *   a disk that is not rotational    50  (SSD, NVMe)
 *   a rotational disk                10
 *
 * A swap file takes the tier of the disk holding its filesystem. 100 is
 * the priority zram-generator and zram-tools give zram devices, so the
 * usual zram setup already has it; the gaps leave room for an
 * administrator's own tiers; all are within the 0..32767 swapon(2)
 * accepts and above the negative priorities the kernel gives devices
 * activated without one, which then fill last. A device of unknown kind
 * gets no proposal: guessing its tier could put a slow disk before a fast one.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

#define PRIO_ZRAM	   RECLAIM_AUTOTUNE_PRIO_ZRAM
#define PRIO_NONROTATIONAL RECLAIM_AUTOTUNE_PRIO_NONROTATIONAL
#define PRIO_ROTATIONAL	   RECLAIM_AUTOTUNE_PRIO_ROTATIONAL

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The tier of disk @disk: its priority and name, or 0 when unknown. */
static int disk_tier(const char *disk, int rotational, const char **tier)
{
	if (strncmp(disk, "zram", 4) == 0) {
		*tier = "zram";
		return PRIO_ZRAM;
	}
	if (rotational == 0) {
		*tier = "non-rotational";
		return PRIO_NONROTATIONAL;
	}
	if (rotational == 1) {
		*tier = "rotational";
		return PRIO_ROTATIONAL;
	}
	return 0;
}

/* ", not rotational", ", rotational" or what is missing. */
static void print_rotational(FILE *out, const char *disk, int rotational)
{
	if (strncmp(disk, "zram", 4) == 0)
		fputs(" (compressed memory)", out);
	else if (rotational == 0)
		fputs(", not rotational", out);
	else if (rotational == 1)
		fputs(", rotational", out);
	else
		fprintf(out, ", rotational or not: unknown (no /sys/block/%s/queue/rotational)",
			disk);
}

/* What the device is, as far as known. */
static void print_what(FILE *out, const struct reclaim_swap *d)
{
	const char *disk = reclaim_swap_disk(d);
	const char *backing = reclaim_swap_backing_device(d);
	const char *mnt = reclaim_swap_mountpoint(d);
	int rotational = reclaim_swap_rotational(d);

	switch (reclaim_swap_kind(d)) {
	case RECLAIM_SWAP_KIND_ZRAM:
		fprintf(out, "%s", disk);
		break;
	case RECLAIM_SWAP_KIND_DISK:
		if (strcmp(base_name(reclaim_swap_path(d)), disk) == 0)
			fprintf(out, "disk %s", disk);
		else
			fprintf(out, "partition of %s", disk);
		break;
	case RECLAIM_SWAP_KIND_FILE:
		if (!mnt) {
			fputs("swap file in no known filesystem (no mount of /proc/self/mountinfo "
			      "holds it)",
			      out);
			return;
		}
		fprintf(out, "swap file on %s at %s", backing ? backing : "an unknown device", mnt);
		if (!disk) {
			fputs(", a device not found in sysfs", out);
			return;
		}
		fprintf(out, ", disk %s", disk);
		break;
	case RECLAIM_SWAP_KIND_UNKNOWN:
	default:
		fputs("a device not found in sysfs under the root: kind unknown", out);
		return;
	}
	print_rotational(out, disk, rotational);
}

int reclaim_autotune_swap(const struct reclaim_swap *d, int *prio, char **reason)
{
	const char *disk = reclaim_swap_disk(d), *tier = NULL;
	char *text = NULL;
	size_t len;
	FILE *out;
	int p = 0;

	out = open_memstream(&text, &len);
	if (!out)
		return -ENOMEM;
	if (disk && (reclaim_swap_kind(d) != RECLAIM_SWAP_KIND_FILE || reclaim_swap_mountpoint(d)))
		p = disk_tier(disk, reclaim_swap_rotational(d), &tier);
	print_what(out, d);
	if (p == 0)
		fputs(" -> no priority proposed", out);
	else
		fprintf(out, " -> priority %d (the %s tier)%s", p, tier,
			reclaim_swap_priority(d) == p ? ", as it is already" : "");
	if (fclose(out) != 0) {
		free(text);
		return -ENOMEM;
	}
	*prio = p ? p : -ENODATA;
	*reason = text;
	return 0;
}
