// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thpswap - swap out transparent huge pages whole, for the thp-swap VM test.
 *
 *   thpswap -m MIB [-c CPU] [-s]
 *
 * Maps MIB MiB (a multiple of 2) of anonymous memory aligned to 2 MiB,
 * madvise(MADV_HUGEPAGE) (with -s: MADV_NOHUGEPAGE, base pages only), writes
 * a pattern to every page, then pushes all of
 * it out with madvise(MADV_PAGEOUT) and reads it back, checking every word.
 * With -c it runs on that CPU only (the swap ring a task uses is that of its
 * CPU's node). Prints:
 *
 *   thp=KIB        AnonHugePages after the writes (/proc/self/smaps_rollup)
 *   swapped=KIB    VmSwap after MADV_PAGEOUT
 *   swap DEV KIB   /proc/swaps' used column of each device, after MADV_PAGEOUT
 *   verified=MIB   after the read-back
 *
 * Exit status: 0 verified, 1 a mismatch or a failed call, 2 usage error.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HPAGE (2UL << 20)

/* the value of "FIELD: N kB" in FILE, or -1 */
static long kb_field(const char *file, const char *field)
{
	char line[256];
	size_t len = strlen(field);
	long kb = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, field, len) && line[len] == ':') {
			kb = strtol(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return kb;
}

static void print_swaps(void)
{
	char line[512], dev[256], type[64];
	long size, used;
	FILE *f = fopen("/proc/swaps", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %63s %ld %ld", dev, type, &size, &used) == 4)
			printf("swap %s %ld\n", dev, used);
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	unsigned long mib = 0, words, i;
	int opt, cpu = -1, advice = MADV_HUGEPAGE;
	uint64_t *p;
	char *raw;

	while ((opt = getopt(argc, argv, "m:c:s")) != -1) {
		switch (opt) {
		case 'm':
			mib = strtoul(optarg, NULL, 10);
			break;
		case 'c':
			cpu = atoi(optarg);
			break;
		case 's':
			advice = MADV_NOHUGEPAGE;
			break;
		default:
			fprintf(stderr, "usage: thpswap -m MIB [-c CPU] [-s]\n");
			return 2;
		}
	}
	if (!mib || mib % 2) {
		fprintf(stderr, "thpswap: -m MIB must be a positive multiple of 2\n");
		return 2;
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("thpswap: sched_setaffinity");
			return 1;
		}
	}
	raw = mmap(NULL, (mib << 20) + HPAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	if (raw == MAP_FAILED) {
		perror("thpswap: mmap");
		return 1;
	}
	p = (uint64_t *)(((uintptr_t)raw + HPAGE - 1) & ~(HPAGE - 1));
	if (madvise(p, mib << 20, advice)) {
		perror("thpswap: madvise(MADV_HUGEPAGE or MADV_NOHUGEPAGE)");
		return 1;
	}
	words = (mib << 20) / sizeof(*p);
	for (i = 0; i < words; i++)
		p[i] = i * 0x9e3779b97f4a7c15ULL;
	printf("thp=%ld\n", kb_field("/proc/self/smaps_rollup", "AnonHugePages"));
	if (madvise(p, mib << 20, MADV_PAGEOUT)) {
		perror("thpswap: madvise(MADV_PAGEOUT)");
		return 1;
	}
	printf("swapped=%ld\n", kb_field("/proc/self/status", "VmSwap"));
	print_swaps();
	fflush(stdout);
	for (i = 0; i < words; i++) {
		if (p[i] != i * 0x9e3779b97f4a7c15ULL) {
			fprintf(stderr, "thpswap: word %lu differs after the swap-in\n", i);
			return 1;
		}
	}
	printf("verified=%lu\n", mib);
	return 0;
}
