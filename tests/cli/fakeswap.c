// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fakeswap.so - swapoff(2) and swapon(2) of a pretend kernel, preloaded
 * (LD_PRELOAD) into reclaimctl by check-swap-progress.py, which runs it on
 * the live root in a mount namespace of its own, with files bound over
 * /proc/swaps, /proc/meminfo and /etc/fstab. The real system calls are never
 * made: any other device than the pretend one gets EPERM.
 *
 * swapoff drains the device the way the kernel does, a part at a time,
 * rewriting its Used in the file in place (the same length each time, so a
 * reader holding the file open sees one state or the next, never an empty
 * file), then drops its line. swapon adds the line again, empty, with the
 * priority of SWAP_FLAG_PREFER.
 *
 * Environment:
 *   FAKESWAP_DEVICE   the pretend device's path
 *   FAKESWAP_FILE     the file bound over /proc/swaps, as check-swap-progress.py
 *                     writes it: the header, then the device's line (see LINE)
 *   FAKESWAP_LOG      each call appended as a line: "swapoff PATH", "swapon PATH PRIO"
 *   FAKESWAP_STEPS    swapoff drains the device in this many steps (6) ...
 *   FAKESWAP_STEP_MS  ... of this many milliseconds (300)
 *   FAKESWAP_FAIL     an errno for swapoff to fail with after half the steps
 *                     (as it fails with EINTR when a signal comes)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <time.h>
#include <unistd.h>

#define HEADER "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
/* fixed widths: a new Used keeps the line's length */
#define LINE "%-40s\tfile\t\t%12llu\t%12llu\t%6d\n"

static unsigned long long size_kb;

static long env_long(const char *name, long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtol(v, NULL, 10) : dflt;
}

static int ours(const char *path)
{
	const char *dev = getenv("FAKESWAP_DEVICE");

	if (dev && strcmp(path, dev) == 0)
		return 1;
	errno = EPERM;
	return 0;
}

/* "swapoff PATH", or "swapon PATH PRIO" with @swapon */
static void logline(int swapon, const char *path, int prio)
{
	const char *log = getenv("FAKESWAP_LOG");
	FILE *f = log ? fopen(log, "ae") : NULL;

	if (!f)
		return;
	if (swapon)
		fprintf(f, "swapon %s %d\n", path, prio);
	else
		fprintf(f, "swapoff %s\n", path);
	fclose(f);
}

/* Writes the file: the header, and the device's line unless @used is negative. */
static int put(const char *path, long long used, int prio, int truncate)
{
	const char *file = getenv("FAKESWAP_FILE");
	char text[4096];
	int fd, n, ok;

	n = snprintf(text, sizeof(text), HEADER);
	if (used >= 0)
		n += snprintf(text + n, sizeof(text) - (size_t)n, LINE, path, size_kb,
			      (unsigned long long)used, prio);
	fd = file ? open(file, O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : 0)) : -1;
	if (fd < 0)
		return -1;
	ok = pwrite(fd, text, (size_t)n, 0) == n;
	return close(fd) == 0 && ok ? 0 : -1;
}

int swapoff(const char *path)
{
	const char *file = getenv("FAKESWAP_FILE");
	long steps = env_long("FAKESWAP_STEPS", 6), step_ms = env_long("FAKESWAP_STEP_MS", 300);
	long fail = env_long("FAKESWAP_FAIL", 0);
	struct timespec ts = {.tv_sec = step_ms / 1000, .tv_nsec = (step_ms % 1000) * 1000000L};
	unsigned long long used;
	char name[4096], type[32];
	FILE *f;
	int prio, n;

	if (!ours(path))
		return -1;
	logline(0, path, 0);
	f = file ? fopen(file, "re") : NULL;
	n = f ? fscanf(f, "%*[^\n]\n%4095s %31s %llu %llu %d", name, type, &size_kb, &used, &prio)
	      : 0;
	if (f)
		fclose(f);
	if (n != 5) {
		errno = EINVAL;
		return -1;
	}
	for (long i = 1; i <= steps; i++) {
		nanosleep(&ts, NULL);
		if (fail && i > steps / 2) {
			errno = (int)fail;
			return -1;
		}
		put(path,
		    (long long)(used * (unsigned long long)(steps - i) / (unsigned long long)steps),
		    prio, 0);
	}
	return put(path, -1, 0, 1);
}

int swapon(const char *path, int flags)
{
	int prio =
	    flags & SWAP_FLAG_PREFER ? (flags & SWAP_FLAG_PRIO_MASK) >> SWAP_FLAG_PRIO_SHIFT : -2;

	if (!ours(path))
		return -1;
	logline(1, path, prio);
	return put(path, 0, prio, 1);
}
