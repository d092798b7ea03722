// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The progress of a swapoff(2): while the calling thread waits in the
 * kernel, which moves what the device holds back into memory, a thread of
 * the library reads the device's Used in /proc/swaps every interval and hands
 * it to the caller's callback.
 *
 * The file is opened once and read again from its start with pread(); the
 * text goes through libmount like every reading of /proc/swaps (the kernel's
 * header line tells libmount the format). The thread never touches the
 * context (the calling thread is inside reclaim_swap_plan_apply() with it)
 * and never reports an error: a file it cannot read or parse, or a device it
 * no longer finds there (swapoff is ending), ends it silently.
 *
 * Every signal is blocked in the thread, so that a signal meant for the
 * process reaches the thread in swapoff(2): the kernel then stops swapoff
 * and puts the device back (EINTR), exactly as without a progress thread.
 * It is never cancelled: stopping sets a flag under its mutex and wakes it,
 * and the caller joins it before going on, so no callback runs once
 * reclaim_swap_watch_stop() has returned.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "swap-internal.h"

struct reclaim_swap_watch {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake; /* signalled on stop */
	bool stop;	     /* under lock */
	int fd;		     /* /proc/swaps */
	char *device;
	uint64_t total_kb;
	unsigned int interval_ms;
	const struct reclaim_swap_plan *plan;
	reclaim_swap_progress_fn fn;
	void *userdata;
	char *buf;
	size_t size;
};

int reclaim_swaps_text_used(const char *text, size_t len, const char *device, uint64_t *used_kb)
{
	_cleanup_mnt_table_ struct libmnt_table *tb = NULL;
	_cleanup_mnt_iter_ struct libmnt_iter *itr = NULL;
	struct libmnt_fs *fs;
	int r;

	if (len == 0)
		return -ENOENT;
	r = reclaim_mnt_parse_text(text, len, "/proc/swaps", &tb);
	if (r < 0)
		return r;
	itr = mnt_new_iter(MNT_ITER_FORWARD);
	if (!itr)
		return -ENOMEM;
	while (mnt_table_next_fs(tb, itr, &fs) == 0) {
		const char *src = mnt_fs_get_source(fs);

		/* without the header libmount reads another format: no swap type */
		if (!mnt_fs_get_swaptype(fs))
			return -EINVAL;
		if (src && strcmp(src, device) == 0) {
			*used_kb = (uint64_t)mnt_fs_get_usedsize(fs);
			return 0;
		}
	}
	return -ENOENT;
}

static int read_used(struct reclaim_swap_watch *w, uint64_t *used_kb)
{
	size_t len;
	/* the whole file again, from its start */
	int r = reclaim_pread_text(w->fd, &w->buf, &w->size, &len);

	if (r < 0)
		return r;
	r = reclaim_swaps_text_used(w->buf, len, w->device, used_kb);
	if (r == 0 && *used_kb > w->total_kb)
		*used_kb = w->total_kb; /* swapped out between the last reading and swapoff */
	return r;
}

static void deadline_after(struct timespec *ts, unsigned int ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

static void *watch_main(void *arg)
{
	struct reclaim_swap_watch *w = arg;
	struct timespec deadline;
	uint64_t used;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		deadline_after(&deadline, w->interval_ms);
		/* 0 is a wake-up (a stop, or spurious); ETIMEDOUT, the time to read */
		while (!w->stop && pthread_cond_timedwait(&w->wake, &w->lock, &deadline) == 0)
			;
		if (w->stop)
			break;
		pthread_mutex_unlock(&w->lock);
		if (read_used(w, &used) < 0) {
			pthread_mutex_lock(&w->lock);
			break;
		}
		w->fn(w->plan, used, w->total_kb, w->userdata);
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void watch_free(struct reclaim_swap_watch *w)
{
	close(w->fd);
	free(w->device);
	free(w->buf);
	free(w);
}

struct reclaim_swap_watch *reclaim_swap_watch_start(int fd, const struct reclaim_swap_plan *plan,
						    const char *device, uint64_t total_kb,
						    unsigned int interval_ms,
						    reclaim_swap_progress_fn fn, void *userdata)
{
	struct reclaim_swap_watch *w = calloc(1, sizeof(*w));
	pthread_condattr_t attr;
	sigset_t all, old;
	int r;

	if (!w) {
		close(fd);
		return NULL;
	}
	w->fd = fd;
	w->device = strdup(device);
	w->total_kb = total_kb;
	w->interval_ms = interval_ms;
	w->plan = plan;
	w->fn = fn;
	w->userdata = userdata;
	if (!w->device) {
		watch_free(w);
		return NULL;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w->wake, &attr);
	pthread_condattr_destroy(&attr);
	/* the thread inherits the mask: no signal is ever delivered to it */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&w->thread, NULL, watch_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0) {
		pthread_cond_destroy(&w->wake);
		pthread_mutex_destroy(&w->lock);
		watch_free(w);
		return NULL;
	}
	return w;
}

void reclaim_swap_watch_stop(struct reclaim_swap_watch *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	watch_free(w);
}
