// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * failnth-write - write a value to a file with the N-th fault injection point
 * of the write made to fail (/proc/self/fail-nth, CONFIG_FAULT_INJECTION).
 *
 *   failnth-write N FILE VALUE
 *
 * Both files are opened first, so that only the write(2) of VALUE to FILE
 * (a sysctl: its buffer is the first slab allocation, then what the handler
 * allocates) meets the injected failure. Prints one line:
 *
 *   write=ok|ERRNONAME injected=1|0
 *
 * where injected=1 means the N-th call did come and was failed.
 * Exit status: 0 the line was printed, 1 a setup error, 2 usage error.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char nth[32], back[32] = "";
	const char *value;
	int fd, nth_fd, err = 0;
	ssize_t n;
	long want;
	char *end;

	if (argc != 4) {
		fprintf(stderr, "usage: failnth-write N FILE VALUE\n");
		return 2;
	}
	want = strtol(argv[1], &end, 10);
	if (*end || want < 1) {
		fprintf(stderr, "failnth-write: N must be a positive number: %s\n", argv[1]);
		return 2;
	}
	value = argv[3];
	fd = open(argv[2], O_WRONLY);
	nth_fd = open("/proc/self/fail-nth", O_RDWR);
	if (fd < 0 || nth_fd < 0) {
		fprintf(stderr, "failnth-write: open %s: %s\n",
			fd < 0 ? argv[2] : "/proc/self/fail-nth", strerror(errno));
		return 1;
	}
	snprintf(nth, sizeof(nth), "%ld", want);
	if (write(nth_fd, nth, strlen(nth)) < 0) {
		fprintf(stderr, "failnth-write: write /proc/self/fail-nth: %s\n", strerror(errno));
		return 1;
	}
	if (write(fd, value, strlen(value)) < 0)
		err = errno;
	/* 0: the fault was injected; N > 0: it was not (and is cancelled by writing 0) */
	n = pread(nth_fd, back, sizeof(back) - 1, 0);
	if (n < 0) {
		fprintf(stderr, "failnth-write: read /proc/self/fail-nth: %s\n", strerror(errno));
		return 1;
	}
	back[n] = '\0';
	if (write(nth_fd, "0", 1) < 0)
		return 1;
	printf("write=%s injected=%d\n", err ? strerrorname_np(err) : "ok", atoi(back) == 0);
	return 0;
}
