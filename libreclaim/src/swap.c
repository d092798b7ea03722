// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Swap devices and their priority rings.
 *
 * /proc/swaps is parsed by libmount (mnt_table_parse_swaps), which also
 * undoes the kernel's octal escapes ("/swap\040file"). What each device is
 * comes from sysfs under the root: a partition is followed to its disk
 * through /sys/class/block/NAME (the link's parent directory), a swap file
 * to the filesystem holding it through /proc/self/mountinfo (libmount
 * again) and that filesystem's device number (/sys/dev/block/MAJ:MIN).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "swap-internal.h"

struct reclaim_swap {
	char *path;
	char *type;
	enum reclaim_swap_kind kind;
	uint64_t size_kb, used_kb;
	int priority;
	char *disk;	  /* whole disk, NULL if unknown */
	int rotational;	  /* 1, 0 or -ENODATA */
	char *backing;	  /* swap files: the mount's source */
	char *mountpoint; /* swap files: the mount's target */
};

struct reclaim_swap_ring {
	int priority;
	struct reclaim_swap **devices;
	size_t count;
	uint64_t size_kb, used_kb;
	double balance;
};

struct reclaim_swaps {
	int refcount;
	struct reclaim_ctx *ctx;
	struct reclaim_swap *devices;
	size_t count;
	struct reclaim_swap_ring *rings;
	size_t nrings;
};

int reclaim_mnt_errcb(struct libmnt_table *tb, const char *filename, int line)
{
	size_t *bad = mnt_table_get_userdata(tb);

	if (bad && *bad == 0)
		*bad = line > 0 ? (size_t)line : 1;
	return -EINVAL;
}

/*
 * libmount parses the stream of a file opened under the root: what it would
 * open by name could lead out of it. A FIFO or a device must not reach it.
 */
static FILE *open_table(const struct reclaim_ctx *ctx, const char *path, int *r)
{
	struct stat st;
	FILE *f = NULL;
	int fd;

	*r = reclaim_open_regular(ctx, path, &fd);
	if (*r < 0)
		return NULL;
	/* proc files say 0: only a file on disk can be too large here */
	if (fstat(fd, &st) < 0)
		*r = -errno;
	else if ((uint64_t)st.st_size > RECLAIM_READ_MAX)
		*r = -EFBIG;
	else if (!(f = fdopen(fd, "re")))
		*r = -errno;
	if (*r < 0) {
		close(fd);
		return NULL;
	}
	return f;
}

int reclaim_mnt_parse(const struct reclaim_ctx *ctx, const char *path, struct libmnt_table **ret,
		      size_t *bad)
{
	_cleanup_mnt_table_ struct libmnt_table *tb = NULL;
	_cleanup_fclose_ FILE *f = NULL;
	int r;

	*bad = 0;
	/* ELOOP, EACCES...: the caller names the file with the reason */
	f = open_table(ctx, path, &r);
	if (!f)
		return r;
	if (!(tb = mnt_new_table()))
		return -ENOMEM;
	mnt_table_set_userdata(tb, bad);
	mnt_table_set_parser_errcb(tb, reclaim_mnt_errcb);
	/* libmount tells the format by the text (/proc/swaps by its header line) */
	r = mnt_table_parse_stream(tb, f, path);
	mnt_table_set_userdata(tb, NULL);
	if (*bad)
		return -EINVAL;
	if (r < 0)
		return r;
	*ret = tb;
	tb = NULL;
	return 0;
}

int reclaim_mnt_parse_text(const char *text, size_t len, const char *name,
			   struct libmnt_table **ret)
{
	_cleanup_mnt_table_ struct libmnt_table *tb = mnt_new_table();
	FILE *f = fmemopen((void *)text, len, "r");
	size_t bad = 0;
	int r;

	if (!tb || !f) {
		if (f)
			fclose(f);
		return -ENOMEM;
	}
	mnt_table_set_userdata(tb, &bad);
	mnt_table_set_parser_errcb(tb, reclaim_mnt_errcb);
	r = mnt_table_parse_stream(tb, f, name);
	mnt_table_set_userdata(tb, NULL);
	fclose(f);
	if (bad)
		return -EINVAL;
	if (r < 0)
		return r;
	*ret = tb;
	tb = NULL;
	return 0;
}

static bool valid_name(const char *name)
{
	return *name && strcmp(name, ".") != 0 && strcmp(name, "..") != 0 && !strchr(name, '/');
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The target of the symbolic link @path under the root; NULL if it is none. */
static char *read_link(const struct reclaim_ctx *ctx, const char *path)
{
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int dirfd = -1;
	char buf[PATH_MAX];
	ssize_t n;

	if (reclaim_root_parent(ctx, path, &dirfd, &name) < 0)
		return NULL;
	n = readlinkat(dirfd, name, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}

char *reclaim_tag_path(const char *name, const char *value)
{
	static const struct {
		const char *tag, *dir;
	} tags[] = {
	    {"UUID", "by-uuid"},
	    {"LABEL", "by-label"},
	    {"PARTUUID", "by-partuuid"},
	    {"PARTLABEL", "by-partlabel"},
	};
	char *out, *p;

	for (size_t i = 0; i < ARRAY_SIZE(tags); i++) {
		if (strcmp(name, tags[i].tag) != 0)
			continue;
		/* udev's link names escape what is not plain, as blkid_encode_string() does */
		out =
		    malloc(strlen("/dev/disk/") + strlen(tags[i].dir) + 1 + 4 * strlen(value) + 1);
		if (!out)
			return NULL;
		p = out + sprintf(out, "/dev/disk/%s/", tags[i].dir);
		for (const unsigned char *v = (const unsigned char *)value; *v; v++) {
			if ((*v >= '0' && *v <= '9') || (*v >= 'a' && *v <= 'z') ||
			    (*v >= 'A' && *v <= 'Z') || strchr("#+-.:=@_", *v) || *v >= 0x80)
				*p++ = (char)*v;
			else
				p += sprintf(p, "\\x%02x", *v);
		}
		*p = '\0';
		return out;
	}
	return NULL;
}

__attribute__((format(printf, 2, 3))) static bool sys_exists(const struct reclaim_ctx *ctx,
							     const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return reclaim_exists(ctx, path);
}

/* The block device with number @devno, by /sys/dev/block/MAJ:MIN. */
static char *devno_name(const struct reclaim_ctx *ctx, dev_t devno)
{
	_cleanup_free_ char *target = NULL;
	char path[64];
	const char *name;

	if (major(devno) == 0)
		return NULL;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(devno), minor(devno));
	target = read_link(ctx, path);
	if (!target)
		return NULL;
	name = base_name(target);
	return valid_name(name) ? strdup(name) : NULL;
}

/* The sysfs name of the block device node @path ("/dev/sda1" -> "sda1"). */
static char *block_name(const struct reclaim_ctx *ctx, const char *path)
{
	_cleanup_free_ char *resolved = NULL;
	const char *name = base_name(path);
	struct stat st;

	if (valid_name(name) && sys_exists(ctx, "/sys/class/block/%s", name))
		return strdup(name);
	/* /dev/mapper/NAME and such: a link to the node, or the node's number */
	resolved = reclaim_resolve_path(ctx, path);
	if (resolved) {
		name = base_name(resolved);
		if (valid_name(name) && sys_exists(ctx, "/sys/class/block/%s", name))
			return strdup(name);
	}
	if (reclaim_stat(ctx, path, 0, &st) == 0 && S_ISBLK(st.st_mode))
		return devno_name(ctx, st.st_rdev);
	return NULL;
}

/* The whole disk of block device @name: its parent directory for a partition. */
static char *disk_of(const struct reclaim_ctx *ctx, const char *name)
{
	_cleanup_free_ char *target = NULL;
	char path[PATH_MAX];
	char *slash;

	if (!sys_exists(ctx, "/sys/class/block/%s/partition", name))
		return strdup(name);
	snprintf(path, sizeof(path), "/sys/class/block/%s", name);
	target = read_link(ctx, path);
	if (!target)
		return strdup(name);
	slash = strrchr(target, '/');
	if (!slash)
		return strdup(name);
	*slash = '\0';
	return valid_name(base_name(target)) ? strdup(base_name(target)) : strdup(name);
}

static int read_rotational(const struct reclaim_ctx *ctx, const char *disk)
{
	_cleanup_free_ char *line = NULL;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/block/%s/queue/rotational", disk);
	if (reclaim_read_line(ctx, path, &line) < 0)
		return -ENODATA;
	if (strcmp(line, "0") == 0)
		return 0;
	if (strcmp(line, "1") == 0)
		return 1;
	return -ENODATA;
}

/* Fills disk and rotational from the block device @name (taken over). */
static int set_block(const struct reclaim_ctx *ctx, struct reclaim_swap *d, char *name)
{
	if (!name)
		return 0;
	d->disk = disk_of(ctx, name);
	free(name);
	if (!d->disk)
		return -ENOMEM;
	d->rotational = read_rotational(ctx, d->disk);
	return 0;
}

/* The root's mountinfo, or NULL if it has none (then files stay without a device). */
static struct libmnt_table *load_mountinfo(const struct reclaim_ctx *ctx)
{
	struct libmnt_table *tb = NULL;
	size_t bad;

	if (!reclaim_exists(ctx, "/proc/self/mountinfo") ||
	    reclaim_mnt_parse(ctx, "/proc/self/mountinfo", &tb, &bad) < 0)
		return NULL;
	return tb;
}

/* The mount holding @path: the longest target that is a prefix, the last (topmost) of equals. */
static struct libmnt_fs *find_mount(struct libmnt_table *tb, const char *path)
{
	_cleanup_mnt_iter_ struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs, *best = NULL;
	size_t best_len = 0;

	if (!itr)
		return NULL;
	while (mnt_table_next_fs(tb, itr, &fs) == 0) {
		const char *t = mnt_fs_get_target(fs);
		size_t len;

		if (!t || t[0] != '/')
			continue;
		len = strlen(t);
		while (len > 1 && t[len - 1] == '/')
			len--;
		if (len == 1)
			len = 0; /* "/" */
		else if (strncmp(path, t, len) != 0 || (path[len] != '/' && path[len] != '\0'))
			continue;
		if (!best || len >= best_len) {
			best = fs;
			best_len = len;
		}
	}
	return best;
}

/*
 * The device of a swap file's filesystem is known by its number; the mount's
 * source names it when it is that device (libmount may have rewritten a
 * "/dev/root" after the live system), else it is shown as /dev/NAME.
 */
static int set_file(const struct reclaim_ctx *ctx, struct reclaim_swap *d, struct libmnt_table *tb)
{
	struct libmnt_fs *fs = tb ? find_mount(tb, d->path) : NULL;
	_cleanup_free_ char *by_source = NULL;
	const char *src;
	char *name;

	if (!fs)
		return 0;
	src = mnt_fs_get_source(fs);
	name = devno_name(ctx, mnt_fs_get_devno(fs));
	if (src && src[0] == '/')
		by_source = block_name(ctx, src);
	if (!name && by_source) {
		name = by_source;
		by_source = NULL;
	}
	d->mountpoint = strdup(mnt_fs_get_target(fs));
	if (src && (!name || (by_source && strcmp(by_source, name) == 0)))
		d->backing = strdup(src);
	else if (name && asprintf(&d->backing, "/dev/%s", name) < 0)
		d->backing = NULL;
	if (!d->mountpoint || (!d->backing && (src || name))) {
		free(name);
		return -ENOMEM;
	}
	return set_block(ctx, d, name);
}

static int fill_device(const struct reclaim_ctx *ctx, struct reclaim_swap *d, struct libmnt_fs *fs,
		       struct libmnt_table **mountinfo, bool *mountinfo_read)
{
	const char *type = mnt_fs_get_swaptype(fs);

	d->path = strdup(mnt_fs_get_source(fs));
	d->type = strdup(type ? type : "unknown");
	if (!d->path || !d->type)
		return -ENOMEM;
	d->size_kb = (uint64_t)mnt_fs_get_size(fs);
	d->used_kb = (uint64_t)mnt_fs_get_usedsize(fs);
	d->priority = mnt_fs_get_priority(fs);
	d->rotational = -ENODATA;
	if (strcmp(d->type, "file") == 0) {
		d->kind = RECLAIM_SWAP_KIND_FILE;
		if (!*mountinfo_read) {
			*mountinfo = load_mountinfo(ctx);
			*mountinfo_read = true;
		}
		return set_file(ctx, d, *mountinfo);
	}
	if (set_block(ctx, d, block_name(ctx, d->path)) < 0)
		return -ENOMEM;
	if (!d->disk)
		d->kind = RECLAIM_SWAP_KIND_UNKNOWN;
	else if (strncmp(d->disk, "zram", 4) == 0)
		d->kind = RECLAIM_SWAP_KIND_ZRAM;
	else
		d->kind = RECLAIM_SWAP_KIND_DISK;
	return 0;
}

static void ring_finish(struct reclaim_swap_ring *ring)
{
	double lo = 0, hi = 0;
	bool first = true;

	for (size_t i = 0; i < ring->count; i++) {
		const struct reclaim_swap *d = ring->devices[i];
		double fill;

		ring->size_kb += d->size_kb;
		ring->used_kb += d->used_kb;
		if (d->size_kb == 0)
			continue;
		fill = (double)d->used_kb / (double)d->size_kb;
		if (first || fill < lo)
			lo = fill;
		if (first || fill > hi)
			hi = fill;
		first = false;
	}
	ring->balance = hi > 0 ? lo / hi : 1.0;
}

/* Groups the devices by priority, highest first, each ring in /proc/swaps order. */
static int build_rings(struct reclaim_swaps *s)
{
	s->rings = calloc(s->count ? s->count : 1, sizeof(*s->rings));
	if (!s->rings)
		return -ENOMEM;
	for (size_t i = 0; i < s->count; i++) {
		struct reclaim_swap *d = &s->devices[i];
		struct reclaim_swap_ring *ring = NULL;
		size_t pos = 0;

		while (pos < s->nrings && s->rings[pos].priority > d->priority)
			pos++;
		if (pos < s->nrings && s->rings[pos].priority == d->priority) {
			ring = &s->rings[pos];
		} else {
			memmove(&s->rings[pos + 1], &s->rings[pos],
				(s->nrings - pos) * sizeof(*s->rings));
			ring = &s->rings[pos];
			*ring = (struct reclaim_swap_ring){.priority = d->priority};
			ring->devices = calloc(s->count, sizeof(*ring->devices));
			s->nrings++;
			if (!ring->devices)
				return -ENOMEM;
		}
		ring->devices[ring->count++] = d;
	}
	for (size_t i = 0; i < s->nrings; i++)
		ring_finish(&s->rings[i]);
	return 0;
}

static int parse_swaps(struct reclaim_ctx *ctx, struct libmnt_table **ret)
{
	size_t bad;
	int r;

	r = reclaim_mnt_parse(ctx, "/proc/swaps", ret, &bad);
	if (r == -ENOMEM)
		return r;
	if (bad)
		return reclaim_error(ctx, EINVAL,
				     "/proc/swaps: line %zu is malformed (expected: Filename Type "
				     "Size Used Priority)",
				     bad);
	/* a dump (of /sys and a few /proc files) says nothing of its kernel's swap */
	if (r == -ENOENT && !reclaim_is_live(ctx))
		return reclaim_error(ctx, ENOENT,
				     "there is no /proc/swaps under this root: the dump has none");
	if (r == -ENOENT)
		return reclaim_error(ctx, ENOENT,
				     "there is no /proc/swaps (a kernel without swap support)");
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read /proc/swaps: %s",
				     reclaim_read_strerror(r));
	return 0;
}

static void swaps_free(struct reclaim_swaps *s)
{
	for (size_t i = 0; i < s->count; i++) {
		struct reclaim_swap *d = &s->devices[i];

		free(d->path);
		free(d->type);
		free(d->disk);
		free(d->backing);
		free(d->mountpoint);
	}
	for (size_t i = 0; i < s->nrings; i++)
		free(s->rings[i].devices);
	free(s->rings);
	free(s->devices);
	reclaim_unref(s->ctx);
	free(s);
}

static int fill_devices(struct reclaim_swaps *s, struct libmnt_table *tb)
{
	_cleanup_mnt_iter_ struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	_cleanup_mnt_table_ struct libmnt_table *mountinfo = NULL;
	bool mountinfo_read = false;
	struct libmnt_fs *fs;

	s->devices = calloc((size_t)mnt_table_get_nents(tb) + 1, sizeof(*s->devices));
	if (!itr || !s->devices)
		return -ENOMEM;
	while (mnt_table_next_fs(tb, itr, &fs) == 0) {
		int r =
		    fill_device(s->ctx, &s->devices[s->count++], fs, &mountinfo, &mountinfo_read);

		if (r < 0)
			return r;
	}
	return 0;
}

RECLAIM_EXPORT int reclaim_swaps_new(struct reclaim_ctx *ctx, struct reclaim_swaps **ret)
{
	_cleanup_mnt_table_ struct libmnt_table *tb = NULL;
	struct reclaim_swaps *s;
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	r = parse_swaps(ctx, &tb);
	if (r < 0)
		return r;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->refcount = 1;
	s->ctx = reclaim_ref(ctx);
	r = fill_devices(s, tb);
	if (r == 0)
		r = build_rings(s);
	if (r < 0) {
		swaps_free(s);
		return reclaim_error(ctx, -r, "cannot list the swap devices: %s", strerror(-r));
	}
	*ret = s;
	return 0;
}

RECLAIM_EXPORT struct reclaim_swaps *reclaim_swaps_ref(struct reclaim_swaps *s)
{
	if (s)
		s->refcount++;
	return s;
}

RECLAIM_EXPORT struct reclaim_swaps *reclaim_swaps_unref(struct reclaim_swaps *s)
{
	if (s && --s->refcount == 0)
		swaps_free(s);
	return NULL;
}

RECLAIM_EXPORT size_t reclaim_swaps_count(const struct reclaim_swaps *s)
{
	assert_return(s, 0);
	return s->count;
}

RECLAIM_EXPORT struct reclaim_swap *reclaim_swaps_get(const struct reclaim_swaps *s, size_t idx)
{
	assert_return(s && idx < s->count, NULL);
	return &s->devices[idx];
}

RECLAIM_EXPORT struct reclaim_swap *reclaim_swaps_find(const struct reclaim_swaps *s,
						       const char *path)
{
	_cleanup_free_ char *want = NULL;

	assert_return(s && path, NULL);
	for (size_t i = 0; i < s->count; i++)
		if (strcmp(s->devices[i].path, path) == 0)
			return &s->devices[i];
	/* A link to the device (/dev/disk/by-uuid/..., /dev/mapper/...) or a path like /dev//sda1.
	 */
	want = reclaim_resolve_path(s->ctx, path);
	for (size_t i = 0; want && i < s->count; i++) {
		_cleanup_free_ char *have = reclaim_resolve_path(s->ctx, s->devices[i].path);

		if (have && strcmp(have, want) == 0)
			return &s->devices[i];
	}
	return NULL;
}

RECLAIM_EXPORT size_t reclaim_swaps_ring_count(const struct reclaim_swaps *s)
{
	assert_return(s, 0);
	return s->nrings;
}

RECLAIM_EXPORT struct reclaim_swap_ring *reclaim_swaps_ring(const struct reclaim_swaps *s,
							    size_t idx)
{
	assert_return(s && idx < s->nrings, NULL);
	return &s->rings[idx];
}

RECLAIM_EXPORT const char *reclaim_swap_path(const struct reclaim_swap *d)
{
	assert_return(d, NULL);
	return d->path;
}

RECLAIM_EXPORT const char *reclaim_swap_type(const struct reclaim_swap *d)
{
	assert_return(d, NULL);
	return d->type;
}

RECLAIM_EXPORT enum reclaim_swap_kind reclaim_swap_kind(const struct reclaim_swap *d)
{
	assert_return(d, RECLAIM_SWAP_KIND_UNKNOWN);
	return d->kind;
}

RECLAIM_EXPORT const char *reclaim_swap_kind_name(enum reclaim_swap_kind kind)
{
	switch (kind) {
	case RECLAIM_SWAP_KIND_ZRAM:
		return "zram";
	case RECLAIM_SWAP_KIND_DISK:
		return "disk";
	case RECLAIM_SWAP_KIND_FILE:
		return "file";
	case RECLAIM_SWAP_KIND_UNKNOWN:
	default:
		return "unknown";
	}
}

RECLAIM_EXPORT uint64_t reclaim_swap_size_kb(const struct reclaim_swap *d)
{
	assert_return(d, 0);
	return d->size_kb;
}

RECLAIM_EXPORT uint64_t reclaim_swap_used_kb(const struct reclaim_swap *d)
{
	assert_return(d, 0);
	return d->used_kb;
}

RECLAIM_EXPORT int reclaim_swap_priority(const struct reclaim_swap *d)
{
	assert_return(d, 0);
	return d->priority;
}

RECLAIM_EXPORT const char *reclaim_swap_disk(const struct reclaim_swap *d)
{
	assert_return(d, NULL);
	return d->disk;
}

RECLAIM_EXPORT int reclaim_swap_rotational(const struct reclaim_swap *d)
{
	assert_return(d, -EINVAL);
	return d->rotational;
}

RECLAIM_EXPORT const char *reclaim_swap_backing_device(const struct reclaim_swap *d)
{
	assert_return(d, NULL);
	return d->backing;
}

RECLAIM_EXPORT const char *reclaim_swap_mountpoint(const struct reclaim_swap *d)
{
	assert_return(d, NULL);
	return d->mountpoint;
}

RECLAIM_EXPORT int reclaim_swap_ring_priority(const struct reclaim_swap_ring *r)
{
	assert_return(r, 0);
	return r->priority;
}

RECLAIM_EXPORT size_t reclaim_swap_ring_count(const struct reclaim_swap_ring *r)
{
	assert_return(r, 0);
	return r->count;
}

RECLAIM_EXPORT struct reclaim_swap *reclaim_swap_ring_get(const struct reclaim_swap_ring *r,
							  size_t idx)
{
	assert_return(r && idx < r->count, NULL);
	return r->devices[idx];
}

RECLAIM_EXPORT uint64_t reclaim_swap_ring_size_kb(const struct reclaim_swap_ring *r)
{
	assert_return(r, 0);
	return r->size_kb;
}

RECLAIM_EXPORT uint64_t reclaim_swap_ring_used_kb(const struct reclaim_swap_ring *r)
{
	assert_return(r, 0);
	return r->used_kb;
}

RECLAIM_EXPORT double reclaim_swap_ring_balance(const struct reclaim_swap_ring *r)
{
	assert_return(r, 1.0);
	return r->balance;
}
