// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysroot-race - what check-sysroot-race.py needs around reclaimctl:
 *
 *   sysroot-race exchange DIR LINK [DIR LINK...]
 *	For each pair in turn, exchanges the directory DIR and the symbolic
 *	link LINK (renameat2(2) RENAME_EXCHANGE) and back, in a loop, until
 *	SIGTERM or SIGINT: a directory of a --sysroot tree is, for moments,
 *	a link that leads out of the tree. A pair is always put back before
 *	the next one is exchanged, and before the program ends, so that it
 *	never reaches through a link another pair left in place. On exit it
 *	prints the number of exchanges made.
 *
 *   sysroot-race no-openat2 COMMAND [ARG...]
 *	Runs COMMAND with openat2(2) failing with ENOSYS (a seccomp filter),
 *	as on a kernel older than 5.6 or in a sandbox that does not know it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int exchange(const char *a, const char *b)
{
	if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0)
		return 0;
	fprintf(stderr, "sysroot-race: exchange %s %s: %s\n", a, b, strerror(errno));
	return -1;
}

static int run_exchanges(int npaths, char **paths)
{
	struct sigaction sa = {.sa_handler = on_signal};
	unsigned long long count = 0;

	if (npaths < 2 || npaths % 2 != 0) {
		fprintf(stderr, "usage: sysroot-race exchange DIR LINK [DIR LINK...]\n");
		return 2;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* ready: the caller waits for this line before it starts its commands */
	printf("exchanging\n");
	fflush(stdout);
	while (!stop) {
		for (int i = 0; i < npaths; i += 2) {
			if (exchange(paths[i], paths[i + 1]) < 0)
				return 1;
			/* the link stands in the directory's place for a moment */
			for (volatile int spin = 0; spin < 2000; spin++)
				;
			if (exchange(paths[i], paths[i + 1]) < 0)
				return 1;
			count += 2;
		}
	}
	printf("%llu exchanges\n", count);
	return 0;
}

/*
 * openat2() fails with ENOSYS, every other system call is allowed. The
 * number is compared without the architecture: this runs commands built
 * for the machine's own.
 */
static int run_without_openat2(char **argv)
{
	struct sock_filter filter[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = sizeof(filter) / sizeof(filter[0]), .filter = filter};

	if (!argv[0]) {
		fprintf(stderr, "usage: sysroot-race no-openat2 COMMAND [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
		fprintf(stderr, "sysroot-race: seccomp: %s\n", strerror(errno));
		return 1;
	}
	execvp(argv[0], argv);
	fprintf(stderr, "sysroot-race: %s: %s\n", argv[0], strerror(errno));
	return 127;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "exchange") == 0)
		return run_exchanges(argc - 2, argv + 2);
	if (argc >= 2 && strcmp(argv[1], "no-openat2") == 0)
		return run_without_openat2(argv + 2);
	fprintf(stderr, "usage: sysroot-race exchange DIR LINK [DIR LINK...]\n"
			"       sysroot-race no-openat2 COMMAND [ARG...]\n");
	return 2;
}
