/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef RECLAIM_INTERNAL_H
#define RECLAIM_INTERNAL_H

#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* The library's own use of its deprecated functions is its implementation. */
#ifndef RECLAIM_H
#define RECLAIM_DEPRECATED
#endif
#include "reclaim.h"

#define RECLAIM_EXPORT __attribute__((visibility("default")))
#define ARRAY_SIZE(a)  (sizeof(a) / sizeof((a)[0]))

#define _cleanup_(f)	 __attribute__((cleanup(f)))
#define _cleanup_free_	 _cleanup_(freep)
#define _cleanup_fclose_ _cleanup_(fclosep)
#define _cleanup_close_	 _cleanup_(closep)

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

/* Argument checks of public functions, as in systemd's sd-* libraries. */
#define assert_return(expr, r)                                                                     \
	do {                                                                                       \
		if (!(expr))                                                                       \
			return (r);                                                                \
	} while (0)

/* context.c */
/*
 * Forgets the last failure's text: the public functions that can fail call
 * it first, so that a message is never one of an earlier failure.
 */
void reclaim_error_reset(struct reclaim_ctx *ctx);
__attribute__((format(printf, 3, 4))) int reclaim_error(struct reclaim_ctx *ctx, int err,
							const char *fmt, ...);
/* The root's descriptor (O_PATH, "/" for the live system), or -errno if it could not be opened. */
int reclaim_root_fd(const struct reclaim_ctx *ctx);

/*
 * chase.c: files under the root, each opened from the root's descriptor,
 * never by a path joined to the root's: symbolic links are followed inside
 * the root (an absolute target starts again at the root, ".." never leaves
 * it), at most 40 of them. Every path error is -errno (ELOOP, ENOTDIR,
 * EACCES, ENOENT...), without a message.
 *
 * reclaim_root_open() is openat(2) of @path (absolute, as on the machine)
 * under the root: openat2(2) RESOLVE_IN_ROOT, or where the kernel lacks it a
 * walk component by component (O_PATH|O_NOFOLLOW, readlinkat(2)). O_CLOEXEC
 * is added; O_NOFOLLOW leaves a link as the last component unfollowed.
 */
int reclaim_root_open(const struct reclaim_ctx *ctx, const char *path, int flags, mode_t mode);
/* Only the walk, never openat2(2): set on the first ENOSYS, and by the unit tests. */
extern bool reclaim_no_openat2;
/*
 * The directory of @path's last component, opened (O_PATH) with links
 * followed, and that component's name, not followed (free() it): to create,
 * replace, remove, lstat or readlink it with the *at() calls. -ENOENT if the
 * directory is missing (what the call in it would fail with).
 */
int reclaim_root_parent(const struct reclaim_ctx *ctx, const char *path, int *dirfd, char **name);
/*
 * The same with a failure to reach the directory in the context ("cannot
 * resolve", see reclaim_path_error()), but for -ENOENT: the caller says what
 * could not be done for want of the directory.
 */
int reclaim_open_parent(struct reclaim_ctx *ctx, const char *path, int *dirfd, char **name);
/*
 * The name of @path under the root with every link followed ("/lib/x" ->
 * "/usr/lib/x"), in *resolved (free() it); a link to /dev/null (a mask)
 * resolves to "/dev/null", which the root need not have. With
 * RECLAIM_CHASE_MISSING a missing component and what follows are taken as
 * named (a file to create).
 */
#define RECLAIM_CHASE_MISSING (1u << 0)
int reclaim_chase(const struct reclaim_ctx *ctx, const char *path, unsigned int flags,
		  char **resolved);
/*
 * @path (absolute, as on the machine) with every link in it followed inside
 * the root, as on the machine: "/dev/disk/by-uuid/X" -> "/dev/nvme0n1p3"; a
 * missing component and what follows are kept as named. NULL on ENOMEM.
 */
char *reclaim_resolve_path(const struct reclaim_ctx *ctx, const char *path);
/*
 * mkdir -p of @path (resolved already: see reclaim_chase(); no link in it is
 * followed) from the root's descriptor, each directory made with mkdirat(2)
 * in the one before: @mode exactly, whatever the umask, and @last_mode for
 * the last. The last one's descriptor, or -errno.
 */
int reclaim_mkdir_p(const struct reclaim_ctx *ctx, const char *path, mode_t mode, mode_t last_mode);
/* "cannot resolve @path under ROOT: REASON" in the context for -errno @r: @r. */
int reclaim_path_error(struct reclaim_ctx *ctx, const char *path, int r);
/* 0 if @path resolves under the root (a missing tail is no error), else reclaim_path_error(). */
int reclaim_path_check(struct reclaim_ctx *ctx, const char *path);

/* fileio.c: every read goes under the context's root. */
/*
 * What is read must be a regular file (a FIFO would hang the command, a
 * device like /dev/zero never end): -EISDIR, or -RECLAIM_ENOTREG for the
 * rest; and no larger than RECLAIM_READ_MAX: -EFBIG. Every file read is
 * text: a NUL byte makes it -RECLAIM_EBINARY (it is never read as if it
 * ended there), except NULs that only end a file of /proc or /sys.
 */
#define RECLAIM_ENOTREG	      EBADFD
#define RECLAIM_EBINARY	      EILSEQ
#define RECLAIM_READ_MAX      (16u << 20)
#define RECLAIM_READ_MAX_TEXT "16 MiB"
/*
 * Checks @len bytes of text: 0, with NUL bytes that end a file the kernel
 * wrote (@kernel) dropped from *len; -RECLAIM_EBINARY for any other NUL.
 */
int reclaim_text_length(const char *buf, size_t *len, bool kernel);
/*
 * Reads the whole file behind @fd (of /proc or /sys) from offset 0 into
 * *@buf, grown as needed (*@size), NUL-terminated: the sampler's and the
 * swap watcher's re-reads of a file kept open. 0 and the length in *@len.
 */
int reclaim_pread_text(int fd, char **buf, size_t *size, size_t *len);
/* strerror() that also says what -RECLAIM_ENOTREG, -RECLAIM_EBINARY and -EFBIG mean here. */
const char *reclaim_read_strerror(int r);
/*
 * The functions below that take a context open @path under its root; those
 * that accept NULL for it open a path of this system that no root applies
 * to (the shipped presets, the tool's own data).
 *
 * Opens @path to read it, refusing what is not a regular file.
 */
int reclaim_open_regular(const struct reclaim_ctx *ctx, const char *path, int *fd);
/* stat(2) of @path, or lstat(2) with @flags O_NOFOLLOW; -errno. */
int reclaim_stat(const struct reclaim_ctx *ctx, const char *path, int flags, struct stat *st);
/* opendir(3) of @path; NULL with errno set. */
DIR *reclaim_opendir(const struct reclaim_ctx *ctx, const char *path);
/* Reads a whole file; -errno (without setting an error message). */
int reclaim_read_file(const struct reclaim_ctx *ctx, const char *path, char **buf, size_t *len);
/* The same for a file that may be absent: 0 with *buf NULL then; sets the error message. */
int reclaim_read_optional(struct reclaim_ctx *ctx, const char *path, char **buf);
bool reclaim_exists(const struct reclaim_ctx *ctx, const char *path);
/* Reads the first line, strips the newline. */
int reclaim_read_line(const struct reclaim_ctx *ctx, const char *path, char **line);
int reclaim_write_string(const struct reclaim_ctx *ctx, const char *path, const char *s);
/*
 * atomicfile.c: replaces the file @name of the directory @dirfd (see
 * reclaim_root_parent()) by @text atomically, keeping its mode, owner and
 * extended attributes; a new file gets @mode. -errno.
 */
int reclaim_replace_file(int dirfd, const char *name, const char *text, size_t len, mode_t mode);
/* Removes the file @name of @dirfd, and makes that durable (fsync() of the directory). */
int reclaim_unlink_synced(int dirfd, const char *name);
/* Strict decimal parse of a whole (trimmed) string. */
int reclaim_parse_i64(const char *s, int64_t *v);
int reclaim_parse_u64(const char *s, uint64_t *v);

/* keyvalue.c */
enum reclaim_kv {
	RECLAIM_KV_BLANK = 0, /* empty or a comment */
	RECLAIM_KV_PAIR,      /* KEY = VALUE */
	RECLAIM_KV_NO_EQUALS, /* text without '=': the key is the whole line */
};
enum {
	RECLAIM_KV_SEMICOLON = 1 << 0,	    /* ';' starts a comment line too (sysctl.d) */
	RECLAIM_KV_INLINE_COMMENT = 1 << 1, /* '#' anywhere starts a comment */
};
struct reclaim_kv_span {
	const char *key, *value; /* into the line, trimmed */
	size_t key_len, value_len;
};
/* Splits s[0..len) (one line, without its newline) without copying. */
enum reclaim_kv reclaim_kv_span(const char *s, size_t len, unsigned int flags,
				struct reclaim_kv_span *kv);
/* Trims blanks (and a CR of a CRLF line end) at both ends, in place. */
char *reclaim_trim(char *s);
/*
 * Splits one line of a "KEY = VALUE" file in place: a '#' starts a comment,
 * both sides are trimmed. 0 for a blank or comment line, 1 with *key and
 * *value set, -EINVAL without '=' (*key is then the trimmed line).
 */
int reclaim_kv_split(char *line, char **key, char **value);

/* cpuset.c: sorted, de-duplicated CPU lists. */
int reclaim_cpulist_parse(const char *s, unsigned int **cpus, size_t *count);
int reclaim_cpumap_parse(const char *s, unsigned int **cpus, size_t *count);
/* Sorts a CPU list and drops repeats. */
void reclaim_cpus_normalize(unsigned int *cpus, size_t *count);

/* meminfo.c */
/*
 * The text parsers below return -EINVAL for a malformed text and then, if
 * @line is not NULL, store the number (from 1) of the first bad line.
 */

/* meminfo.c */
/* Finds "Key: N kB" (optionally after a "Node N " prefix) in a meminfo text. */
int reclaim_meminfo_field(const char *text, const char *key, uint64_t *kb, size_t *line);

/* zoneinfo.c */
struct reclaim_zone {
	int node;
	char *name;
	uint64_t free, min, low, high, managed;
};

int reclaim_zoneinfo_parse(const char *text, struct reclaim_zone **zones, size_t *count,
			   size_t *line);
void reclaim_zones_free(struct reclaim_zone *zones, size_t count);

/* vmstat.c */
int reclaim_vmstat_parse(const char *text, struct reclaim_vmstat **vmstat, size_t *line);

/* pressure.c */
int reclaim_pressure_parse(const char *text, struct reclaim_pressure **pressure);
/* Counters and PSI of a sample built from a recording: *@vs / *@p created on first use. */
int reclaim_vmstat_append(struct reclaim_vmstat **vs, const char *name, uint64_t value);
int reclaim_pressure_set(struct reclaim_pressure **p, enum reclaim_pressure_kind kind, double avg10,
			 uint64_t total_us);
/*
 * rates.c: whether counter @name is @pattern, or a member of the family
 * @pattern names with a trailing '_' ("allocstall_": "allocstall_normal");
 * the CPU seconds kswapd thread @idx of @cur used since @prev (all of them
 * for a pid @prev lacks, 0 for a thread whose time went back); and the
 * increase of counter (or family) @name, node < 0: /proc/vmstat.
 */
bool reclaim_counter_matches(const char *pattern, const char *name);
double reclaim_sample_kswapd_cpu_delta(const struct reclaim_sample *prev,
				       const struct reclaim_sample *cur, size_t idx);
int reclaim_sample_delta(const struct reclaim_sample *prev, const struct reclaim_sample *cur,
			 int node, const char *name, uint64_t *delta);

/* knobs.c */
/* 0 if @value is within the knob's range, else -ERANGE with the range in the message. */
int reclaim_knob_check(struct reclaim_ctx *ctx, const struct reclaim_knob *k, int64_t value);
/* The write itself, range-checked, for the transaction (change.c) only. */
int reclaim_knob_store(struct reclaim_ctx *ctx, const struct reclaim_knob *k, int64_t value);
/*
 * The value @text takes when a configuration file writes it to the knob's
 * file, as the kernel parses it there (a sysctl's decimal integer, a knob
 * of sysfs' words), within the knob's range; -EINVAL or -ERANGE.
 */
int reclaim_knob_parse_written(const struct reclaim_knob *k, const char *text, int64_t *v);
/* The value of a text as the kernel shows it in the knob's file (a newline after it is fine). */
int reclaim_knob_parse_shown(const struct reclaim_knob *k, const char *s, int64_t *v);
/* @v as reclaim_knob_format() shows it, for a message: valid to the end of the statement's block.
 */
#define KNOB_TEXT(k, v)                                                                            \
	reclaim_knob_format((k), (v), (char[RECLAIM_KNOB_TEXT_MAX]){0}, RECLAIM_KNOB_TEXT_MAX)
/* kswapd_threads: the knob whose write starts and stops threads, checked after it. */
bool reclaim_knob_is_threads(const struct reclaim_knob *k);

/* autotune-stock.c: the rules of the knobs every kernel has (zswap, NUMA demotion). */
bool reclaim_stock_has_rule(const struct reclaim_knob *k);
/* The rule's value and reason (free()); 0, or a negative errno. */
int reclaim_stock_rule(struct reclaim_ctx *ctx, const struct reclaim_knob *k, int64_t *value,
		       char **reason);

/* lock.c: the writers' lock; an error after reclaim_lock_timeout_ms of waiting. */
extern unsigned int reclaim_lock_timeout_ms;
/* Sleeps @ms milliseconds, through signals. */
void reclaim_sleep_ms(unsigned int ms);
int reclaim_lock_take(struct reclaim_ctx *ctx, int *fd);
/* The same without waiting: -EBUSY while another holds it. */
int reclaim_lock_try(struct reclaim_ctx *ctx, int *fd);
/* A file of RECLAIM_RUNDIR must be root's (or the caller's) and writable by no one else. */
int reclaim_check_owner(struct reclaim_ctx *ctx, const char *shown, const struct stat *st);
/*
 * The same for the file @path of RECLAIM_RUNDIR that was just read (the
 * history, adapt's state): what is written back comes from it, so a planted
 * one (not a regular file, another user's, writable by others) is refused.
 */
int reclaim_check_run_file(struct reclaim_ctx *ctx, const char *path);
/*
 * The same for such a file that could not be read for want of it: 0 if
 * nothing is there, else the refusal (of a dangling link, say, that leads
 * out of the root).
 */
int reclaim_check_run_file_absent(struct reclaim_ctx *ctx, const char *path);
/*
 * Reads the file @path of RECLAIM_RUNDIR into @text (to free), checked as
 * above: -ENOENT (no error set) if nothing is there, else 0 or the refusal.
 */
int reclaim_read_run_file(struct reclaim_ctx *ctx, const char *path, char **text);
/*
 * Replaces the file @path of RECLAIM_RUNDIR with @len bytes of @text (mode
 * 0600), under the lock.
 */
int reclaim_write_run_file(struct reclaim_ctx *ctx, const char *path, const char *text, size_t len);
/* The same with the lock held by the caller. */
/* Removes the file @path of RECLAIM_RUNDIR under the lock; none there is no error. */
int reclaim_remove_run_file(struct reclaim_ctx *ctx, const char *path);
int reclaim_write_run_file_locked(struct reclaim_ctx *ctx, const char *path, const char *text,
				  size_t len);
/* adapt-state.c: the state file's text, and the state file written with the lock held. */
/*
 * lease-state.c: the state files of lease holders (the holders with one:
 * reclaim_lease_holder_name()). The file of @holder (NULL: it keeps none);
 * a file's pid and entries (-ENOENT, no error set, without one);
 * saving (@locked: the caller holds the writers' lock) and removing it.
 */
struct lease_entry {
	const struct reclaim_knob *knob;
	int64_t before, last;
};
const char *reclaim_lease_file(const char *holder);
int reclaim_lease_file_load(struct reclaim_ctx *ctx, const char *file, pid_t *pid,
			    struct lease_entry **entries, size_t *n);
int reclaim_lease_file_save(struct reclaim_ctx *ctx, const char *file, pid_t pid,
			    const struct lease_entry *entries, size_t n, bool locked);
int reclaim_lease_file_remove(struct reclaim_ctx *ctx, const char *file);

int reclaim_adapt_state_save_locked(struct reclaim_ctx *ctx, pid_t pid, int64_t baseline,
				    int64_t threads);
/* The text of RECLAIM_ADAPT_STATE_FILE (changed in place), its values checked. */
/* The files --persist writes: RECLAIM_PERSIST_FILE, RECLAIM_PERSIST_TMPFILES. */
#define PERSIST_NFILES 2
/*
 * What reclaim_persist_write() of the same arguments would write, nothing
 * written: @after[i] the text of file i (NULL: not written), @before[i] its
 * text now (NULL: absent); each to free(). With @differs: whether a knob of
 * @knobs is not persisted with its value in @values.
 */
int reclaim_persist_preview(struct reclaim_ctx *ctx, const struct reclaim_knob *const *knobs,
			    const int64_t *values, size_t n, char **before, char **after,
			    bool *differs);
const char *reclaim_persist_file_path(size_t idx);
int reclaim_adapt_state_parse(struct reclaim_ctx *ctx, char *text, pid_t *pid, int64_t *baseline,
			      int64_t *threads);
/*
 * The one rule of leases, also a restore's: what a holder's knob is now
 * (see enum reclaim_lease_state). Here, for lease.c and engine.c alike.
 */
static inline enum reclaim_lease_state reclaim_lease_decide(int64_t before, int64_t last,
							    int64_t now)
{
	if (now == before)
		return RECLAIM_LEASE_AT_BEFORE;
	return now == last ? RECLAIM_LEASE_HELD : RECLAIM_LEASE_CHANGED;
}
void reclaim_lock_release(int fd);

/*
 * preset.c: what is wrong with @name as a preset name, or NULL if nothing;
 * *quote is false when the name is not fit to be printed.
 */
const char *reclaim_preset_name_problem(const char *name, bool *quote);
/* The same as an error @err ("@whereinvalid preset name ..."), or 0 for a good name. */
int reclaim_preset_check_name(struct reclaim_ctx *ctx, const char *name, int err,
			      const char *where);

/*
 * critical.c: a step that a signal must not cut in two (a change's writes
 * and its record): SIGINT, SIGTERM and SIGHUP are blocked in the calling
 * thread from enter to leave, then delivered as the caller disposed them.
 */
void reclaim_critical_enter(sigset_t *saved);
void reclaim_critical_leave(const sigset_t *saved);
/*
 * A test build's hooks, named by their environment variable:
 * RECLAIMCTL_TEST_AFTER_WRITE inside a change's step, after its writes and
 * before its record is done; RECLAIMCTL_TEST_BEFORE_NOTE in the drift
 * noting, after it loads the history and before it reads the knobs. =kill
 * raises SIGKILL there, =MS sleeps MS milliseconds. Only under a --sysroot
 * (a test's root), and nothing at all outside a build with the tests.
 */
#ifdef RECLAIM_TEST_HOOKS
void reclaim_test_hook(const struct reclaim_ctx *ctx, const char *name);
#else
static inline void reclaim_test_hook(const struct reclaim_ctx *ctx, const char *name)
{
	(void)ctx;
	(void)name;
}
#endif

/* change.c: the transaction under the lock, for the engine. */
struct history_record;
int reclaim_change_set_history(struct reclaim_change *c, const char *command, long undoes);
int reclaim_change_set_source(struct reclaim_change *c, size_t idx, const char *source);
/*
 * Writes no unchanged knob, not even kswapd_threads: the engine sets it when
 * a node is short of threads, and else leaves it alone.
 */
void reclaim_change_set_keep_unchanged(struct reclaim_change *c);
/*
 * Entry @idx is recorded even when the knob is at its value already: it
 * adopts a value another writer left (nothing is written for it then).
 */
void reclaim_change_set_adopted(struct reclaim_change *c, size_t idx);
/* Removes the persisted file after the writes (restore --persist). */
void reclaim_change_set_unpersist(struct reclaim_change *c, bool unpersist);
/* Records the change as more of change @change (see reclaim_history_intent()). */
void reclaim_change_set_join(struct reclaim_change *c, unsigned long change);
/* The number of the change the last apply recorded; 0 if it recorded none. */
unsigned long reclaim_change_recorded(const struct reclaim_change *c);
int reclaim_change_apply_locked(struct reclaim_change *c);

/*
 * engine.c, for the deprecated reclaim_change_apply(): reclaim_request_apply()
 * that also hands back the transaction it ran (*ran, also after it failed;
 * NULL if it ran none), and the knob the evaluation failed on.
 */
int reclaim_request_apply_report(struct reclaim_request *req, struct reclaim_eval **eval,
				 struct reclaim_change **ran);
const struct reclaim_knob *reclaim_request_failed_knob(const struct reclaim_request *req);
/* autotune-swap.c */
/*
 * The swap priority autotune proposes for @swap (-ENODATA in *prio when
 * none: a device of unknown kind) and why, in *reason (free() it); -ENOMEM.
 */
int reclaim_autotune_swap(const struct reclaim_swap *swap, int *prio, char **reason);

/* kswapd.c: the nodes with memory that do not run @want kswapd threads. */
struct kswapd_check {
	size_t nodes;	/* nodes with memory */
	size_t bad;	/* of them, those running another number */
	int first_node; /* the first of those, and its count */
	size_t first_got;
	char why[256]; /* "node 0 runs 3, node 1 runs 2" */
};
void reclaim_kswapd_check(const struct reclaim_topology *topo,
			  const struct reclaim_kswapd_list *list, int64_t want,
			  struct kswapd_check *check);
/* The largest pid the kernel hands out (its PID_MAX_LIMIT on 64-bit). */
#define RECLAIM_PID_MAX (4 * 1024 * 1024)
/* kswapd.c: kswapd discovery starts from kthreadd's children. */
#define RECLAIM_CHILDREN "/proc/2/task/2/children"
/* The pids of a children file; -EINVAL "/proc/2/task/2/children: malformed". */
int reclaim_children_parse(struct reclaim_ctx *ctx, const char *text, pid_t **pids, size_t *count);
int reclaim_proc_stat_parse(const char *text, char *comm, size_t comm_size, char *state,
			    uint64_t *ticks, int *last_cpu);

#endif
