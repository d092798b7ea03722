// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * swapon-prio - swapon(2) with an explicit priority (SWAP_FLAG_PREFER).
 * Debian's busybox swapon has no -p, the VM tests need equal and different
 * priorities.
 *
 *   swapon-prio [-p PRIO] DEVICE...     enable, priority PRIO (0..32767)
 *   swapon-prio -o DEVICE...            swapoff(2)
 *
 * Without -p the kernel picks a (negative) priority as swapon(8) does.
 * Exit status: 0 ok, 1 a syscall failed, 2 usage error.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long prio = -1;
	int off = 0, c, rc = 0;

	while ((c = getopt(argc, argv, "p:oh")) != -1) {
		char *end;

		switch (c) {
		case 'p':
			errno = 0;
			prio = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || prio < 0 ||
			    prio > SWAP_FLAG_PRIO_MASK) {
				fprintf(stderr, "swapon-prio: bad priority: %s\n", optarg);
				return 2;
			}
			break;
		case 'o':
			off = 1;
			break;
		case 'h':
			printf(
			    "usage: swapon-prio [-p PRIO] DEVICE... | swapon-prio -o DEVICE...\n");
			return 0;
		default:
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr,
			"usage: swapon-prio [-p PRIO] DEVICE... | swapon-prio -o DEVICE...\n");
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		int flags = 0;

		if (prio >= 0)
			flags = SWAP_FLAG_PREFER |
				(((int)prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);
		if ((off ? swapoff(argv[i]) : swapon(argv[i], flags)) < 0) {
			fprintf(stderr, "swapon-prio: %s %s: %s\n", off ? "swapoff" : "swapon",
				argv[i], strerror(errno));
			rc = 1;
		}
	}
	return rc;
}
