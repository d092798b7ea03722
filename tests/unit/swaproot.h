/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Swap devices in temporary roots (see tmproot.h): /proc/swaps lines as
 * Linux 6.12 prints them, and block devices laid out in sysfs as the kernel
 * does it. Include after tmproot.h.
 */
#ifndef RECLAIM_SWAPROOT_H
#define RECLAIM_SWAPROOT_H

#include <stdbool.h>

#define SWAPS_HEADER "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"

/* One /proc/swaps line as Linux 6.12 prints it (the path already escaped). */
static inline char *swap_line(const char *path, bool file, unsigned long size, unsigned long used,
			      int prio)
{
	int len = (int)strlen(path);
	char *s;

	assert_true(asprintf(&s, "%s%*s%s\t%lu\t%s%lu\t%s%d\n", path, len < 40 ? 40 - len : 1, " ",
			     file ? "file\t" : "partition", size, size < 10000000 ? "\t" : "", used,
			     used < 10000000 ? "\t" : "", prio) > 0);
	return s;
}

/* Appends a device to ROOT/proc/swaps, writing the header first. */
static inline void add_swap(const char *root, const char *path, bool file, unsigned long size,
			    unsigned long used, int prio)
{
	char *old = tmproot_read(root, "/proc/swaps"),
	     *line = swap_line(path, file, size, used, prio);
	char *text;

	assert_true(asprintf(&text, "%s%s", old ? old : SWAPS_HEADER, line) > 0);
	tmproot_write(root, "/proc/swaps", text);
	free(text);
	free(line);
	free(old);
}

/*
 * A disk under /sys/DEVDIR with its links; @rotational the content of its
 * queue/rotational (NULL: no such file); @part (or NULL) a partition of it.
 */
static inline void add_disk(const char *root, const char *devdir, const char *disk,
			    const char *majmin, const char *rotational, const char *part,
			    const char *part_majmin)
{
	char path[PATH_MAX], target[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/%s/%s/queue/rotational", devdir, disk);
	if (rotational) {
		tmproot_write(root, path, rotational);
	} else {
		/* the disk's directory, without the file */
		tmproot_write(root, path, "");
		tmproot_unlink(root, path);
	}
	snprintf(path, sizeof(path), "/sys/block/%s", disk);
	snprintf(target, sizeof(target), "../%s/%s", devdir, disk);
	tmproot_symlink(root, path, target);
	snprintf(path, sizeof(path), "/sys/class/block/%s", disk);
	snprintf(target, sizeof(target), "../../%s/%s", devdir, disk);
	tmproot_symlink(root, path, target);
	snprintf(path, sizeof(path), "/sys/dev/block/%s", majmin);
	tmproot_symlink(root, path, target);
	if (!part)
		return;
	snprintf(path, sizeof(path), "/sys/%s/%s/%s/partition", devdir, disk, part);
	tmproot_write(root, path, "2\n");
	snprintf(path, sizeof(path), "/sys/class/block/%s", part);
	snprintf(target, sizeof(target), "../../%s/%s/%s", devdir, disk, part);
	tmproot_symlink(root, path, target);
	snprintf(path, sizeof(path), "/sys/dev/block/%s", part_majmin);
	tmproot_symlink(root, path, target);
}

#endif
