// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xattr - set or read one extended attribute (busybox has no setfattr).
 *
 *   xattr set FILE NAME VALUE
 *   xattr get FILE NAME        prints the value
 *
 * Exit status: 0 ok, 1 the call failed (the message names it), 2 usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

int main(int argc, char **argv)
{
	char value[4096];
	ssize_t n;

	if (argc == 5 && strcmp(argv[1], "set") == 0) {
		if (lsetxattr(argv[2], argv[3], argv[4], strlen(argv[4]), 0) < 0) {
			fprintf(stderr, "xattr: set %s on %s: %s\n", argv[3], argv[2],
				strerror(errno));
			return 1;
		}
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "get") == 0) {
		n = lgetxattr(argv[2], argv[3], value, sizeof(value) - 1);
		if (n < 0) {
			fprintf(stderr, "xattr: get %s of %s: %s\n", argv[3], argv[2],
				strerror(errno));
			return 1;
		}
		value[n] = '\0';
		printf("%s\n", value);
		return 0;
	}
	fprintf(stderr, "usage: xattr set FILE NAME VALUE | xattr get FILE NAME\n");
	return 2;
}
