// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ptyrun - run a command with its standard output on a new pseudo-terminal
 * and copy what it writes there to our standard output, byte for byte (the
 * terminal is raw: no "\n" -> "\r\n"), so that a scenario can see what a
 * command prints only on a terminal (isatty(1)), such as the progress line
 * of `reclaimctl swap priority`. Standard input and error are left as they
 * are; the guest needs /dev/pts (guest/init mounts it).
 *
 *   ptyrun CMD [ARGS...]
 *
 * Exit status: that of CMD (128 + N if signal N ended it); 127 if it cannot
 * be run, 126 if there is no pseudo-terminal.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static int open_pty(int *ret_slave)
{
	struct termios tio;
	const char *name;
	int master, slave;

	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0 || !(name = ptsname(master)))
		return -1;
	slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (slave < 0 || tcgetattr(slave, &tio) < 0)
		return -1;
	cfmakeraw(&tio);
	if (tcsetattr(slave, TCSANOW, &tio) < 0)
		return -1;
	*ret_slave = slave;
	return master;
}

int main(int argc, char **argv)
{
	int master, slave, status;
	char buf[4096];
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: ptyrun CMD [ARGS...]\n");
		return 2;
	}
	master = open_pty(&slave);
	if (master < 0) {
		fprintf(stderr, "ptyrun: no pseudo-terminal: %s\n", strerror(errno));
		return 126;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "ptyrun: fork: %s\n", strerror(errno));
		return 127;
	}
	if (pid == 0) {
		/* a session of its own, the terminal its controlling one, as in a login */
		setsid();
		ioctl(slave, TIOCSCTTY, 0);
		if (dup2(slave, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[1], argv + 1);
		fprintf(stderr, "ptyrun: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	close(slave);
	for (;;) {
		ssize_t n = read(master, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		/* EIO: the last holder of the terminal's other side has closed it */
		if (n <= 0)
			break;
		if (write(STDOUT_FILENO, buf, (size_t)n) != n)
			break;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
