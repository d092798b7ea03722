// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dropcap - run a command without CAP_SYS_ADMIN, even as root: the
 * capability leaves the bounding set, so execve() does not give it back.
 * The VM tests use it to see what reclaimctl says when swapoff(2) and
 * swapon(2) are not allowed.
 *
 *   dropcap CMD [ARGS...]
 *
 * Exit status: that of CMD; 127 if it cannot be run, 126 if the capability
 * cannot be dropped.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: dropcap CMD [ARGS...]\n");
		return 2;
	}
	if (prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0) < 0) {
		fprintf(stderr, "dropcap: PR_CAPBSET_DROP: %s\n", strerror(errno));
		return 126;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "dropcap: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
