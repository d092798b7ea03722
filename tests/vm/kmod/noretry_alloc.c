// SPDX-License-Identifier: GPL-2.0-only
/*
 * noretry_alloc - allocate pages from kernel threads, for the throttle-noretry
 * VM scenario (tests/vm/scenarios/throttle-noretry.sh).
 *
 * Loading it starts nr_threads kernel threads that each make up to max_pages
 * order-0 allocations, one page at a time, keeping what they get, with
 * GFP_KERNEL | __GFP_NORETRY (noretry=1, the default: an opportunistic
 * allocation, as kvmalloc()'s first kmalloc() attempt) or GFP_KERNEL
 * (noretry=0, the control).  A thread stops after max_failures failed
 * allocations.  When all are done, they free their pages and the module's
 * init prints one line on the console:
 *
 *   noretry_alloc: noretry=1 threads=4 allocated=N failed=F slowest_us=U throttled=W allocstall=S
 *
 * where U is the longest a single allocation took, W and S what the vmstat
 * events direct_reclaim_throttled and allocstall_* counted while the threads
 * allocated: they are all started first and begin together, so that the
 * allocations made to start them (by kthreadd, under pressure) do not count.
 * The init returns 0; the module holds nothing and can be removed at once.
 */
#include <linux/completion.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmstat.h>

static int nr_threads = 4;
module_param(nr_threads, int, 0444);
MODULE_PARM_DESC(nr_threads, "allocating kernel threads (1..64)");

static unsigned long max_pages = 8192;
module_param(max_pages, ulong, 0444);
MODULE_PARM_DESC(max_pages, "allocations per thread");

static unsigned long max_failures = 64;
module_param(max_failures, ulong, 0444);
MODULE_PARM_DESC(max_failures, "failed allocations after which a thread stops");

static bool noretry = true;
module_param(noretry, bool, 0444);
MODULE_PARM_DESC(noretry, "allocate with __GFP_NORETRY (else GFP_KERNEL)");

static DECLARE_COMPLETION(go);

struct worker {
	struct completion done;
	struct list_head pages;
	unsigned long allocated;
	unsigned long failed;
	u64 slowest_ns;
};

static int worker_fn(void *data)
{
	gfp_t gfp = GFP_KERNEL | __GFP_NOWARN | (noretry ? __GFP_NORETRY : 0);
	struct worker *w = data;
	unsigned long i;

	wait_for_completion(&go);
	for (i = 0; i < max_pages && w->failed < max_failures; i++) {
		ktime_t start = ktime_get();
		struct page *page = alloc_page(gfp);
		u64 ns = ktime_to_ns(ktime_sub(ktime_get(), start));

		w->slowest_ns = max(w->slowest_ns, ns);
		if (!page) {
			w->failed++;
			continue;
		}
		list_add(&page->lru, &w->pages);
		w->allocated++;
		cond_resched();
	}
	complete(&w->done);

	return 0;
}

static void worker_free(struct worker *w)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, &w->pages, lru) {
		list_del(&page->lru);
		__free_page(page);
	}
}

/* The events that count direct reclaim: allocstall_<zone>, and the waits */
static void count_events(unsigned long *events, unsigned long *throttled,
			 unsigned long *stalls)
{
	int zid;

	all_vm_events(events);
	*throttled = events[DIRECT_RECLAIM_THROTTLED];
	*stalls = 0;
	for (zid = 0; zid < MAX_NR_ZONES; zid++)
		*stalls += events[ALLOCSTALL_NORMAL - ZONE_NORMAL + zid];
}

static int __init noretry_alloc_init(void)
{
	unsigned long throttled0, throttled, stalls0, stalls, *events;
	unsigned long allocated = 0, failed = 0;
	struct task_struct *task;
	struct worker *workers;
	u64 slowest_ns = 0;
	int i, started;

	if (nr_threads < 1 || nr_threads > 64)
		return -EINVAL;
	events = kcalloc(NR_VM_EVENT_ITEMS, sizeof(*events), GFP_KERNEL);
	workers = kcalloc(nr_threads, sizeof(*workers), GFP_KERNEL);
	if (!workers || !events) {
		kfree(events);
		kfree(workers);
		return -ENOMEM;
	}

	for (started = 0; started < nr_threads; started++) {
		init_completion(&workers[started].done);
		INIT_LIST_HEAD(&workers[started].pages);
		task = kthread_run(worker_fn, &workers[started],
				   "noretry_alloc/%d", started);
		if (IS_ERR(task))
			break;
	}
	count_events(events, &throttled0, &stalls0);
	complete_all(&go);
	for (i = 0; i < started; i++) {
		wait_for_completion(&workers[i].done);
		allocated += workers[i].allocated;
		failed += workers[i].failed;
		slowest_ns = max(slowest_ns, workers[i].slowest_ns);
	}
	count_events(events, &throttled, &stalls);
	for (i = 0; i < started; i++)
		worker_free(&workers[i]);
	kfree(workers);
	kfree(events);

	if (started < nr_threads)
		return PTR_ERR(task);
	pr_info("noretry_alloc: noretry=%d threads=%d allocated=%lu failed=%lu slowest_us=%llu throttled=%lu allocstall=%lu\n",
		noretry, started, allocated, failed, slowest_ns / NSEC_PER_USEC,
		throttled - throttled0, stalls - stalls0);

	return 0;
}

static void __exit noretry_alloc_exit(void)
{
}

module_init(noretry_alloc_init);
module_exit(noretry_alloc_exit);
MODULE_DESCRIPTION("reclaimctl VM test: page allocations from kernel threads");
MODULE_LICENSE("GPL");
