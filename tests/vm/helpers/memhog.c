// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memhog - make real anonymous-memory pressure for the reclaimctl VM tests.
 *
 * Maps N MiB of private anonymous memory, writes a deterministic pattern to
 * every page (about 1/4 of each page is pseudo-random, the rest repeats it, so
 * zram compresses it roughly 3-4x: swapping makes progress but is not free),
 * then re-reads every page and checks each word against the pattern, as many
 * passes as asked. Pages that were swapped out must come back intact.
 * With -W FILE it stops between the write pass and the first verify pass
 * (printing "WRITTEN" and the checksum of what it wrote) until FILE exists:
 * a test can then move the swapped-out pages around (swapoff, swapon) and
 * check that the verify pass finds every word and the same checksum.
 *
 * Exit status: 0 all passes verified, 1 a mismatch (or a write pass failed),
 * 2 usage error, 3 allocation failure.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/mempolicy.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PAGE	       4096UL
#define WORDS_PER_PAGE (PAGE / sizeof(uint64_t))
#define RANDOM_WORDS   128 /* first 1 KiB of each page */

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static inline uint64_t pattern(uint64_t seed, uint64_t page, uint64_t word)
{
	return splitmix64(seed ^ (page << 12) ^ (word % RANDOM_WORDS));
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: memhog [-m MIB] [-p PASSES] [-s SEED] [-H SECONDS] [-W FILE] [-q]\n"
		   "  -m MIB      anonymous memory to allocate (default 64)\n"
		   "  -p PASSES   verify passes after the write pass (default 1)\n"
		   "  -r          rewrite the pattern after each verify pass (more pressure)\n"
		   "  -s SEED     pattern seed (default: the pid)\n"
		   "  -H SECONDS  hold the memory that long after the last pass\n"
		   "  -W FILE     after writing, wait until FILE exists, then verify\n"
		   "  -N NODE     take the memory from NUMA node NODE only (mbind MPOL_BIND)\n"
		   "  -L          lock the memory (mlock): it cannot be swapped out\n"
		   "  -q          print only errors\n");
}

static int parse_ul(const char *s, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	return (errno || end == s || *end) ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long mib = 64, passes = 1, hold = 0, seed = (unsigned long)getpid();
	unsigned long node = ULONG_MAX;
	int quiet = 0, rewrite = 0, lock = 0, c;
	const char *checkpoint = NULL;

	while ((c = getopt(argc, argv, "m:p:s:H:W:N:Lrqh")) != -1) {
		unsigned long *dst = NULL;

		switch (c) {
		case 'm':
			dst = &mib;
			break;
		case 'p':
			dst = &passes;
			break;
		case 's':
			dst = &seed;
			break;
		case 'H':
			dst = &hold;
			break;
		case 'N':
			dst = &node;
			break;
		case 'r':
			rewrite = 1;
			continue;
		case 'L':
			lock = 1;
			continue;
		case 'W':
			checkpoint = optarg;
			continue;
		case 'q':
			quiet = 1;
			continue;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
		if (parse_ul(optarg, dst)) {
			fprintf(stderr, "memhog: bad number for -%c: %s\n", c, optarg);
			return 2;
		}
	}
	if (optind != argc || mib == 0) {
		usage(stderr);
		return 2;
	}

	size_t len = mib << 20;
	uint64_t npages = len / PAGE;
	uint64_t *mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED) {
		fprintf(stderr, "memhog: mmap %lu MiB: %s\n", mib, strerror(errno));
		return 3;
	}
	if (node != ULONG_MAX) {
		unsigned long mask[2] = {0, 0};

		if (node >= 8 * sizeof(mask)) {
			fprintf(stderr, "memhog: node %lu out of range\n", node);
			return 2;
		}
		mask[node / (8 * sizeof(mask[0]))] = 1UL << (node % (8 * sizeof(mask[0])));
		if (syscall(SYS_mbind, mem, len, MPOL_BIND, mask, 8 * sizeof(mask) + 1, 0) < 0) {
			fprintf(stderr, "memhog: mbind to node %lu: %s\n", node, strerror(errno));
			return 3;
		}
	}

	if (lock && mlock(mem, len) < 0) {
		fprintf(stderr, "memhog: mlock %lu MiB: %s\n", mib, strerror(errno));
		return 3;
	}

	double t0 = now();
	for (unsigned long pass = 0; pass <= passes; pass++) {
		int writing = pass == 0 || rewrite;
		uint64_t sum = 0;

		for (uint64_t p = 0; p < npages; p++) {
			uint64_t *pg = mem + p * WORDS_PER_PAGE;

			if (pass == 0) {
				for (uint64_t w = 0; w < WORDS_PER_PAGE; w++) {
					pg[w] = pattern(seed, p, w);
					sum += pg[w];
				}
				continue;
			}
			for (uint64_t w = 0; w < WORDS_PER_PAGE; w++) {
				uint64_t want = pattern(seed, p, w);

				if (pg[w] != want) {
					fprintf(stderr,
						"memhog[%d]: MISMATCH pass %lu page %" PRIu64
						" word %" PRIu64 ": got %#" PRIx64 " want %#" PRIx64
						"\n",
						(int)getpid(), pass, p, w, pg[w], want);
					return 1;
				}
				sum += pg[w];
			}
			if (writing) /* dirty the page again: it has to be swapped again */
				pg[0] = pattern(seed, p, 0);
		}
		if (!quiet && pass > 0)
			printf("memhog[%d]: pass %lu verified %lu MiB checksum %016" PRIx64 "\n",
			       (int)getpid(), pass, mib, sum);
		if (pass == 0 && checkpoint) {
			printf("memhog[%d]: WRITTEN %lu MiB checksum %016" PRIx64
			       ", waiting for %s\n",
			       (int)getpid(), mib, sum, checkpoint);
			fflush(stdout);
			while (access(checkpoint, F_OK) != 0)
				usleep(100000);
		}
	}
	if (!quiet)
		printf("memhog[%d]: OK %lu MiB, %lu verify passes, %.1f s\n", (int)getpid(), mib,
		       passes, now() - t0);
	fflush(stdout);
	if (hold)
		sleep((unsigned int)hold);
	return 0;
}
