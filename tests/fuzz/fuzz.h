/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the fuzz targets share: a scratch root under $TMPDIR that the files of
 * an input are written into, inputs of several files, and a check that stops
 * the fuzzer with a message when an invariant does not hold.
 *
 * An input of several files holds them one after the other, separated by a
 * line "--8<--" (seeds.py makes the seeds that way); missing parts are empty.
 */
#ifndef RECLAIM_FUZZ_H
#define RECLAIM_FUZZ_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sanitizer/common_interface_defs.h>

#include "reclaim.h"

/* libFuzzer calls it with each input; a target returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_SEPARATOR "\n--8<--\n"

/* An invariant: abort() (a crash libFuzzer saves the input of) with @what. */
#define fuzz_check(cond, ...)                                                                      \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "invariant broken: %s: ", #cond);                          \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/* A failure comes with a message of one line (the CLI prints it as it is). */
#define fuzz_check_error(ctx, r)                                                                   \
	do {                                                                                       \
		const char *msg_ = (r) < 0 ? reclaim_strerror(ctx) : NULL;                         \
		fuzz_check((r) >= 0 || (msg_ && msg_[0] && !strchr(msg_, '\n')),                   \
			   "%d with the message \"%s\"", (r), msg_ ? msg_ : "(none)");             \
	} while (0)

struct fuzz_part {
	const char *data;
	size_t size;
};

/* Splits @data at FUZZ_SEPARATOR into @n parts (the last takes the rest). */
static inline void fuzz_split(const uint8_t *data, size_t size, struct fuzz_part *parts, size_t n)
{
	const char *p = (const char *)data, *end = p + size;
	size_t seplen = strlen(FUZZ_SEPARATOR);

	for (size_t i = 0; i < n; i++) {
		const char *sep =
		    i + 1 < n ? memmem(p, (size_t)(end - p), FUZZ_SEPARATOR, seplen) : NULL;

		parts[i].data = p;
		parts[i].size = sep ? (size_t)(sep - p) : (size_t)(end - p);
		p = sep ? sep + seplen : end;
	}
}

/* @data as a NUL-terminated string (what the text parsers take); free() it. */
static inline char *fuzz_string(const char *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static char fuzz_root_dir[PATH_MAX];

/* Everything under the root, not the root itself. */
static int fuzz_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag;
	if (ftw->level == 0)
		return 0;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

/*
 * An empty scratch root, the same directory for every input: emptied, not
 * made again, as a context holds a descriptor of the directory it was given.
 */
static inline const char *fuzz_root(void)
{
	if (!fuzz_root_dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(fuzz_root_dir, sizeof(fuzz_root_dir), "%s/reclaim-fuzz-XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(fuzz_root_dir))
			abort();
	} else if (nftw(fuzz_root_dir, fuzz_remove_one, 16, FTW_DEPTH | FTW_PHYS) < 0) {
		abort();
	}
	return fuzz_root_dir;
}

/* Writes ROOT/@path (absolute, as on the machine), creating its directories. */
static inline void fuzz_write(const char *path, const char *data, size_t size, mode_t mode)
{
	char full[PATH_MAX];
	int fd;

	snprintf(full, sizeof(full), "%s%s", fuzz_root_dir, path);
	for (char *p = full + strlen(fuzz_root_dir) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(full, 0755) < 0 && errno != EEXIST)
			abort();
		*p = '/';
	}
	fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd) < 0)
		abort();
}

/*
 * A fresh scratch root holding the @n parts of an input as the files @paths
 * (see fuzz_split()), each with mode @mode.
 */
static inline void fuzz_root_files(const uint8_t *data, size_t size, const char *const *paths,
				   size_t n, mode_t mode)
{
	struct fuzz_part part[8];

	if (n > sizeof(part) / sizeof(part[0]))
		abort();
	fuzz_split(data, size, part, n);
	fuzz_root();
	for (size_t i = 0; i < n; i++)
		fuzz_write(paths[i], part[i].data, part[i].size, mode);
}

/* ROOT/@path's contents (NUL-terminated, *size without it), or NULL if absent. */
static inline char *fuzz_read(const char *path, size_t *size)
{
	char full[PATH_MAX], *buf;
	struct stat st;
	int fd;

	snprintf(full, sizeof(full), "%s%s", fuzz_root_dir, path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !(buf = malloc((size_t)st.st_size + 1)) ||
	    read(fd, buf, (size_t)st.st_size) != st.st_size)
		abort();
	close(fd);
	buf[st.st_size] = '\0';
	if (size)
		*size = (size_t)st.st_size;
	return buf;
}

/*
 * Standard error to /dev/null while the command line runs (its messages would
 * fill the log); the sanitizers' reports still go to the real one.
 */
static int fuzz_stderr = -1;

static inline void fuzz_quiet_begin(void)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fuzz_stderr < 0) {
		fuzz_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
		__sanitizer_set_report_fd((void *)(intptr_t)fuzz_stderr);
	}
	fflush(stderr);
	if (null < 0 || dup2(null, STDERR_FILENO) < 0)
		abort();
	close(null);
}

static inline void fuzz_quiet_end(void)
{
	fflush(stderr);
	if (dup2(fuzz_stderr, STDERR_FILENO) < 0)
		abort();
}

/* The knobs' files under /proc/sys/vm of the scratch root, each "1": the sysctl.d targets. */
static inline void fuzz_knob_files(void)
{
	static const char *const names[] = {
	    "kswapd_threads", "max_direct_reclaimers",	"swap_round_robin_quota_kb",
	    "swappiness",     "watermark_scale_factor", "min_free_kbytes"};
	char path[128];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "/proc/sys/vm/%s", names[i]);
		fuzz_write(path, "1\n", 2, 0644);
	}
}

/* A context on the scratch root. */
static inline struct reclaim_ctx *fuzz_ctx(void)
{
	struct reclaim_ctx *ctx;

	if (reclaim_new(&ctx, fuzz_root_dir) < 0)
		abort();
	return ctx;
}

/*
 * What holds of any configuration read: each knob's boot entry is a valid
 * line of it, its admin entry a valid one not reclaimctl's, and every
 * problem one line.
 */
static inline void fuzz_check_conf(const struct reclaim_sysctl_conf *conf)
{
	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		ssize_t b = reclaim_sysctl_conf_boot_entry(conf, k);
		ssize_t a = reclaim_sysctl_conf_admin_entry(conf, k);

		fuzz_check(b < 0 || (reclaim_sysctl_conf_knob(conf, (size_t)b) == k &&
				     reclaim_sysctl_conf_is_valid(conf, (size_t)b)),
			   "%s: boot entry %zd", reclaim_knob_name(k), b);
		fuzz_check(a < 0 || (reclaim_sysctl_conf_knob(conf, (size_t)a) == k &&
				     reclaim_sysctl_conf_is_valid(conf, (size_t)a) &&
				     !reclaim_sysctl_conf_is_own(conf, (size_t)a)),
			   "%s: admin entry %zd", reclaim_knob_name(k), a);
	}
	for (size_t i = 0; i < reclaim_sysctl_conf_problem_count(conf); i++) {
		const char *m = reclaim_sysctl_conf_problem_message(conf, i);

		fuzz_check(m && m[0] && !strchr(m, '\n'), "problem %zu: \"%s\"", i, m);
	}
}

#endif
