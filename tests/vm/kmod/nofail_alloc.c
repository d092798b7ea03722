// SPDX-License-Identifier: GPL-2.0-only
/*
 * nofail_alloc - a costly-order __GFP_NOFAIL allocation while the only direct
 * reclaim slot of its node is held, for the nofail-costly VM scenario
 * (tests/vm/scenarios/nofail-costly.sh).
 *
 * Run with vm.max_direct_reclaimers=1, no swap and node @nid nearly full of
 * memory nothing can reclaim.  Loading it:
 *
 * 1. allocates a cache of order-4 blocks on the node (up to cache_mb MiB),
 *    which the module's shrinker gives back, but only to the reclaim of the
 *    __GFP_NOFAIL allocation below: neither kswapd nor anybody else can free
 *    it, so that allocation succeeds only if it reclaims itself;
 * 2. starts a holder thread that allocates pages on the node until it enters
 *    direct reclaim: there the shrinker keeps it (sleeping interruptibly, so
 *    that the hung task detector stays quiet) for hold_ms, and with it the
 *    node's only slot;
 * 3. takes what is left on the node with GFP_ATOMIC allocations, which go
 *    below the min watermark further than the __GFP_NOFAIL fallback (min / 2)
 *    may: so that nothing but the cache can satisfy the allocation;
 * 4. makes one alloc_pages_node(nid, GFP_KERNEL | __GFP_THISNODE |
 *    __GFP_NOFAIL, order) and times it; then releases the holder and frees
 *    everything.
 *
 * One line on the console tells what happened:
 *
 *   nofail_alloc: order=4 held=1 nofail_ms=M cache_freed=F hold_ms=H
 *
 * held=0 means the holder never got into direct reclaim (the load was too
 * light; nothing was tested).  With a throttle that skips the allocation's
 * reclaim at the limit, M is about H (it completes only when the slot is
 * released); with one that makes it wait and then reclaim, M is far less.
 * The init returns 0; the module holds nothing and can be removed at once.
 */
#include <linux/completion.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/shrinker.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

static int nid;
module_param(nid, int, 0444);
MODULE_PARM_DESC(nid, "node of every allocation");

static unsigned int order = 4;
module_param(order, uint, 0444);
MODULE_PARM_DESC(order, "order of the __GFP_NOFAIL allocation");

static unsigned int cache_mb = 16;
module_param(cache_mb, uint, 0444);
MODULE_PARM_DESC(cache_mb, "MiB of order-4 blocks only the allocation may reclaim");

static unsigned int hold_ms = 20000;
module_param(hold_ms, uint, 0444);
MODULE_PARM_DESC(hold_ms, "how long the holder keeps the reclaim slot");

#define CACHE_ORDER 4

static LIST_HEAD(cache);
static DEFINE_SPINLOCK(cache_lock);
static unsigned long cache_blocks, cache_freed;
static struct task_struct *nofail_task, *holder_task;
static DECLARE_COMPLETION(holding);
static DECLARE_WAIT_QUEUE_HEAD(release_wq);
static bool released, held;

static unsigned long nofail_count(struct shrinker *s, struct shrink_control *sc)
{
	return READ_ONCE(cache_blocks) ? 1UL << 20 : 0;
}

static unsigned long nofail_scan(struct shrinker *s, struct shrink_control *sc)
{
	unsigned long freed = 0;
	struct page *page;

	if (current == READ_ONCE(holder_task) && !held) {
		held = true;
		complete(&holding);
		wait_event_interruptible_timeout(release_wq, READ_ONCE(released),
						 msecs_to_jiffies(hold_ms));
		return SHRINK_STOP;
	}
	if (current != READ_ONCE(nofail_task))
		return SHRINK_STOP;

	spin_lock(&cache_lock);
	while (freed < sc->nr_to_scan && !list_empty(&cache)) {
		page = list_first_entry(&cache, struct page, lru);
		list_del(&page->lru);
		cache_blocks--;
		cache_freed++;
		spin_unlock(&cache_lock);
		__free_pages(page, CACHE_ORDER);
		freed += 1UL << CACHE_ORDER;
		spin_lock(&cache_lock);
	}
	spin_unlock(&cache_lock);

	return freed ? freed : SHRINK_STOP;
}

static void free_list(struct list_head *list, unsigned int ord)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, list, lru) {
		list_del(&page->lru);
		__free_pages(page, ord);
	}
}

/* Allocate pages on the node until one allocation lands in the shrinker */
static int holder_fn(void *data)
{
	gfp_t gfp = GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN | __GFP_NORETRY;
	struct list_head *pages = data;
	unsigned long i;

	for (i = 0; i < 262144 && !held; i++) {
		struct page *page = alloc_pages_node(nid, gfp, 0);

		if (page)
			list_add(&page->lru, pages);
		cond_resched();
	}
	if (!held)
		complete(&holding);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}

	return 0;
}

static int __init nofail_alloc_init(void)
{
	gfp_t cache_gfp = GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN |
			  __GFP_NORETRY;
	unsigned long i, blocks = (unsigned long)cache_mb << (20 - PAGE_SHIFT);
	struct shrinker *shrinker;
	struct page *page = NULL;
	LIST_HEAD(holder_pages);
	LIST_HEAD(atomic_pages);
	struct task_struct *t;
	ktime_t start;
	u64 ms = 0;

	if (order > MAX_PAGE_ORDER || !node_online(nid))
		return -EINVAL;
	for (i = 0; i < blocks >> CACHE_ORDER; i++) {
		page = alloc_pages_node(nid, cache_gfp, CACHE_ORDER);
		if (!page)
			break;
		list_add(&page->lru, &cache);
		cache_blocks++;
	}
	shrinker = shrinker_alloc(0, "nofail_alloc");
	if (!shrinker) {
		free_list(&cache, CACHE_ORDER);
		return -ENOMEM;
	}
	shrinker->count_objects = nofail_count;
	shrinker->scan_objects = nofail_scan;
	shrinker->seeks = 0;	/* called at every priority */
	shrinker_register(shrinker);

	t = kthread_create_on_node(holder_fn, &holder_pages, nid, "nofail_hold");
	if (IS_ERR(t)) {
		shrinker_free(shrinker);
		free_list(&cache, CACHE_ORDER);
		return PTR_ERR(t);
	}
	WRITE_ONCE(holder_task, t);
	get_task_struct(t);
	wake_up_process(t);
	wait_for_completion(&holding);

	if (held) {
		for (i = 0; i < 65536; i++) {
			page = alloc_pages_node(nid, GFP_ATOMIC | __GFP_THISNODE |
						__GFP_NOWARN, 0);
			if (!page)
				break;
			list_add(&page->lru, &atomic_pages);
		}
		WRITE_ONCE(nofail_task, current);
		start = ktime_get();
		page = alloc_pages_node(nid, GFP_KERNEL | __GFP_THISNODE |
					__GFP_NOFAIL, order);
		ms = ktime_ms_delta(ktime_get(), start);
		WRITE_ONCE(nofail_task, NULL);
	}
	WRITE_ONCE(released, true);
	wake_up_all(&release_wq);
	kthread_stop(t);
	put_task_struct(t);
	shrinker_free(shrinker);
	if (held)
		__free_pages(page, order);
	free_list(&holder_pages, 0);
	free_list(&atomic_pages, 0);
	free_list(&cache, CACHE_ORDER);

	pr_info("nofail_alloc: order=%u held=%d nofail_ms=%llu cache_freed=%lu hold_ms=%u\n",
		order, held, ms, cache_freed, hold_ms);

	return 0;
}

static void __exit nofail_alloc_exit(void)
{
}

module_init(nofail_alloc_init);
module_exit(nofail_alloc_exit);
MODULE_DESCRIPTION("reclaimctl VM test: a costly __GFP_NOFAIL allocation at the direct reclaim limit");
MODULE_LICENSE("GPL");
