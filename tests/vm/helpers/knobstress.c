// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * knobstress - hammer sysctl files with random writes and check each result.
 *
 *   knobstress [-n COUNT] [-s SEED] [-i PERCENT] PATH:MIN:MAX...
 *
 * Writes COUNT random values to each PATH (interleaved in random order).
 * PERCENT of the writes (default 10) are out of range (MIN-1, MAX+1, a huge
 * number or garbage): those must fail with EINVAL. In-range writes must
 * succeed; the contract allows a resize to fail (the file then shows what
 * really runs), so an in-range failure other than EINVAL is counted and
 * reported but not fatal; EINVAL for an in-range value is.
 *
 * Exit status: 0 ok, 1 an unexpected result, 2 usage error.
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

struct knob {
	const char *path;
	long min, max;
	unsigned long ok, refused, soft_fail, left;
};

static unsigned long long rng_state;

static unsigned long long rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int write_value(const char *path, const char *buf)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, buf, strlen(buf));
	int err = n < 0 ? -errno : 0;

	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}

int main(int argc, char **argv)
{
	unsigned long count = 300, seed = (unsigned long)getpid(), invalid_pct = 10;
	int c, bad = 0;

	while ((c = getopt(argc, argv, "n:s:i:h")) != -1) {
		switch (c) {
		case 'n':
			count = strtoul(optarg, NULL, 10);
			break;
		case 's':
			seed = strtoul(optarg, NULL, 10);
			break;
		case 'i':
			invalid_pct = strtoul(optarg, NULL, 10);
			break;
		case 'h':
			printf(
			    "usage: knobstress [-n COUNT] [-s SEED] [-i PERCENT] PATH:MIN:MAX...\n");
			return 0;
		default:
			return 2;
		}
	}
	int nknobs = argc - optind;
	if (nknobs <= 0 || invalid_pct > 100) {
		fprintf(stderr,
			"usage: knobstress [-n COUNT] [-s SEED] [-i PERCENT] PATH:MIN:MAX...\n");
		return 2;
	}
	struct knob *k = calloc((size_t)nknobs, sizeof(*k));
	if (!k)
		return 2;
	for (int i = 0; i < nknobs; i++) {
		char *spec = argv[optind + i], *c1 = strrchr(spec, ':');
		char *c2;

		if (!c1)
			goto bad_spec;
		*c1 = '\0';
		c2 = strrchr(spec, ':');
		if (!c2)
			goto bad_spec;
		*c2 = '\0';
		k[i].path = spec;
		k[i].min = strtol(c2 + 1, NULL, 10);
		k[i].max = strtol(c1 + 1, NULL, 10);
		k[i].left = count;
		if (k[i].min > k[i].max)
			goto bad_spec;
		continue;
	bad_spec:
		fprintf(stderr, "knobstress: bad spec (want PATH:MIN:MAX): %s\n", argv[optind + i]);
		return 2;
	}
	rng_state = seed * 2654435761ULL + 1;

	unsigned long total = count * (unsigned long)nknobs;
	for (unsigned long done = 0; done < total; done++) {
		struct knob *kn;

		do
			kn = &k[rnd() % (unsigned long)nknobs];
		while (!kn->left);
		kn->left--;

		char buf[64];
		int valid = (rnd() % 100) >= invalid_pct;

		if (valid) {
			unsigned long span = (unsigned long)(kn->max - kn->min) + 1;

			snprintf(buf, sizeof(buf), "%ld\n", kn->min + (long)(rnd() % span));
		} else {
			switch (rnd() % 4) {
			case 0:
				snprintf(buf, sizeof(buf), "%ld\n", kn->min - 1);
				break;
			case 1:
				snprintf(buf, sizeof(buf), "%ld\n", kn->max + 1);
				break;
			case 2:
				snprintf(buf, sizeof(buf), "%ld\n", kn->max + 1000000L);
				break;
			default:
				snprintf(buf, sizeof(buf), "-%llu\n", 1 + rnd() % 100);
				break;
			}
			/* a min of 0 makes "-N" invalid too; otherwise re-check */
			long v = strtol(buf, NULL, 10);
			if (v >= kn->min && v <= kn->max)
				snprintf(buf, sizeof(buf), "%ld\n", kn->max + 1);
		}
		int err = write_value(kn->path, buf);

		buf[strcspn(buf, "\n")] = '\0';
		if (valid && !err) {
			kn->ok++;
		} else if (valid && err == -EINVAL) {
			fprintf(stderr, "knobstress: %s: in-range value %s refused: %s\n", kn->path,
				buf, strerror(-err));
			bad = 1;
		} else if (valid) {
			kn->soft_fail++;
			fprintf(stderr, "knobstress: %s: writing %s failed: %s (tolerated)\n",
				kn->path, buf, strerror(-err));
		} else if (err == -EINVAL) {
			kn->refused++;
		} else {
			fprintf(stderr, "knobstress: %s: out-of-range value %s: %s (want EINVAL)\n",
				kn->path, buf, err ? strerror(-err) : "accepted");
			bad = 1;
		}
	}
	for (int i = 0; i < nknobs; i++)
		printf("knobstress[%d]: %s: %lu written, %lu refused (EINVAL), %lu failed\n",
		       (int)getpid(), k[i].path, k[i].ok, k[i].refused, k[i].soft_fail);
	return bad;
}
