/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by swap.c, fstab.c and swapprio.c; not part of the ABI. */
#ifndef RECLAIM_SWAP_INTERNAL_H
#define RECLAIM_SWAP_INTERNAL_H

#include <libmount/libmount.h>

#include "internal.h"

#define _cleanup_mnt_table_ _cleanup_(mnt_unref_tablep)
#define _cleanup_mnt_iter_  _cleanup_(mnt_free_iterp)

static inline void mnt_unref_tablep(struct libmnt_table **tb)
{
	mnt_unref_table(*tb);
}

static inline void mnt_free_iterp(struct libmnt_iter **itr)
{
	mnt_free_iter(*itr);
}

/*
 * libmount's parsers skip a malformed line unless an error callback says
 * otherwise, and an error on the last line does not even fail the parse; so
 * the callback records the first bad line in the table's userdata (a size_t).
 */
int reclaim_mnt_errcb(struct libmnt_table *tb, const char *filename, int line);
/*
 * Parses the file @path under the root (opened there: libmount gets its
 * stream, and tells its format by its text) with that callback: 0 and the
 * table in @ret, or a negative errno: -EINVAL with the first bad line in @bad.
 */
int reclaim_mnt_parse(const struct reclaim_ctx *ctx, const char *path, struct libmnt_table **ret,
		      size_t *bad);
/*
 * The same for @len bytes of text in memory, read as the file @name
 * (libmount picks the format by it): 0 and the table in @ret, -EINVAL for a
 * bad line, -ENOMEM.
 */
int reclaim_mnt_parse_text(const char *text, size_t len, const char *name,
			   struct libmnt_table **ret);

/* "UUID=x", "LABEL=x", "PARTUUID=x", "PARTLABEL=x" -> "/dev/disk/by-uuid/x"...; NULL if no tag. */
char *reclaim_tag_path(const char *name, const char *value);

/*
 * swapwatch.c: the thread that reports a swapoff's progress (see
 * reclaim_swap_plan_set_progress()). It reads @device's Used from @fd (an
 * open /proc/swaps, taken over) every @interval_ms and calls
 * @fn(@plan, used, @total_kb, @userdata); it ends by itself, silently, when
 * the file cannot be read or no longer lists @device. NULL if it could not
 * be started (@fd is closed then): the swapoff goes on without progress.
 */
struct reclaim_swap_watch;
struct reclaim_swap_watch *reclaim_swap_watch_start(int fd, const struct reclaim_swap_plan *plan,
						    const char *device, uint64_t total_kb,
						    unsigned int interval_ms,
						    reclaim_swap_progress_fn fn, void *userdata);
/* Stops the thread and joins it: no call of its callback once this returns. NULL is fine. */
void reclaim_swap_watch_stop(struct reclaim_swap_watch *w);
/*
 * The Used of @device (as libmount reads the path) in the /proc/swaps text
 * @text of @len bytes: 0, -ENOENT if it is not listed, -EINVAL if the text is
 * malformed, -ENOMEM.
 */
int reclaim_swaps_text_used(const char *text, size_t len, const char *device, uint64_t *used_kb);

/* fstab.c: reclaim_fstab_set_priority(), and with @prio -1 the entry's pri= removed. */
int reclaim_fstab_put_priority(struct reclaim_fstab *f, size_t idx, int prio);

/*
 * reclaim_swap_plan_new() that also takes a negative @prio (swapon(2) without
 * a preference) and, with @inactive, a device not swapped on (its fstab alone).
 */
int reclaim_swap_plan_make(struct reclaim_ctx *ctx, const char *device, int prio, bool inactive,
			   struct reclaim_swap_plan **ret);
/*
 * swapprio.c, under the writers' lock: @p applied (live only on the running
 * system, and only if its priority changes) with /etc/fstab's pri= set to
 * @fstab_prio (-1: removed; INT_MIN: left alone), recorded in the history as
 * a change of @command from @source undoing @undoes (0: none); with
 * nothing to change, a restore (@undoes) is recorded all the same.
 */
int reclaim_swap_plan_apply_recorded(struct reclaim_swap_plan *p, bool live, int fstab_prio,
				     const char *command, const char *source, long undoes);

/* swapsys.c: the syscalls, apart so that the unit tests can wrap them. */
bool reclaim_sys_is_live(const struct reclaim_ctx *ctx);
int reclaim_sys_swapon(const char *path, int flags);
int reclaim_sys_swapoff(const char *path);

#endif
