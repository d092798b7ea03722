// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stallprobe - a small task that keeps allocating, and how long it stalls.
 *
 *   stallprobe [-i MS] FILE
 *
 * Until FILE exists, it maps one page of anonymous memory, writes it and
 * unmaps it, every MS milliseconds (default 10), and measures how long each
 * round took beyond the sleep. It makes itself unkillable by the OOM killer
 * (oom_score_adj -1000) first. At the end it prints one line:
 *
 *   stallprobe: rounds=N max_ms=M
 *
 * where M is the longest round, in milliseconds: the longest stall of an
 * unrelated task that needs a page now and then while others fight for
 * memory. Exit status 0, 2 for a usage error.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	long interval = 10, rounds = 0;
	double worst = 0;
	int opt, fd;

	while ((opt = getopt(argc, argv, "i:")) != -1) {
		if (opt == 'i' && atol(optarg) > 0) {
			interval = atol(optarg);
		} else {
			fprintf(stderr, "usage: stallprobe [-i MS] FILE\n");
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: stallprobe [-i MS] FILE\n");
		return 2;
	}
	fd = open("/proc/self/oom_score_adj", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "-1000", 5) != 5)
			perror("stallprobe: oom_score_adj");
		close(fd);
	}
	while (access(argv[optind], F_OK) != 0) {
		double t0 = now_ms(), t;
		char *p;

		sleep_ms(interval);
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {
			memset(p, 0x5a, 4096);
			munmap(p, 4096);
		}
		t = now_ms() - t0 - (double)interval;
		if (t > worst)
			worst = t;
		rounds++;
	}
	printf("stallprobe: rounds=%ld max_ms=%.0f\n", rounds, worst);
	return 0;
}
