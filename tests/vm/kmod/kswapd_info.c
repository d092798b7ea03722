// SPDX-License-Identifier: GPL-2.0-only
/*
 * kswapd_info - what the kswapd threads do, for the VM scenarios
 * kswapd-placement, hopeless and shrink-under-pressure (tests/vm/scenarios/).
 *
 * Loading it prints one console line per kswapd thread and one per node with
 * memory:
 *
 *   kswapd_info: comm=kswapd1:2 pid=57 task_nid=1 stack_nid=1
 *   kswapd_info: nid=1 kswapd_failures=0
 *
 * task_nid is the node of the thread's task_struct, stack_nid that of its
 * kernel stack: a thread created for its node (kthread_create_on_node())
 * has both there while the node has free memory, one created with
 * kthread_create() has them on the node of the CPU kthreadd ran on.
 *
 * While loaded, a thread reads each node's kswapd_failures every millisecond
 * or so; removing the module prints the highest value seen (a count a
 * successful reclaim soon resets, too briefly for userspace to see) and how
 * many times two readings in a row found kswapd threads balancing the node
 * while its lowest zone's ZONE_RECLAIM_ACTIVE hint was clear (a thread
 * reclaiming after another one leaving cleared the hint it had just set):
 *
 *   kswapd_info: nid=1 kswapd_failures_max=0 hint_lost=0
 *
 * With watch_nid=N, data breakpoints on node N's kswapd_failures,
 * kswapd_nr_balancing and lowest zone's flags see every write, by whom, and
 * the line of node N goes on with:
 *
 *   failures=  runs counted as failed (writes of a count above 0)
 *   by_helper= of those, counted by a kswapd thread other than thread 0
 *   by_stopping= counted by a kswapd thread being stopped (kthread_stop(),
 *              or its index at or above the node's kswapd_nr_threads)
 *   holds=     with widen_us=U: times the thread whose leaving brought the
 *              balancing count to 0 was held, before going on to clear the
 *              hint, until another thread entered or for U microseconds (at
 *              most widen_max times): room for another thread to enter
 *              meanwhile (on another CPU: the held one keeps its own)
 *   entered_in_hold= holds during which another thread entered and set the
 *              hint (a thread entering must not get that far before the
 *              leaving one has cleared the hint)
 *   hint_cleared= of those, times the held thread then cleared the hint
 *              while the thread that had entered was still balancing
 *   held_until_stopped= with hold_helper_us=U: 1 if the first extra thread
 *              to enter balance_pgdat() was held there, before it reclaimed
 *              anything, until it was being stopped (at most U microseconds;
 *              /sys/module/kswapd_info/parameters/holding is 1 meanwhile)
 *
 * reset_failures=1 starts node N's kswapd_failures over at 0, as progress
 * would, so that kswapd is woken for a node given up on.
 */
#include <linux/delay.h>
#include <linux/hw_breakpoint.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/perf_event.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/vmalloc.h>

static int addr_nid(const void *addr)
{
	struct page *page = is_vmalloc_addr(addr) ? vmalloc_to_page(addr) :
						    virt_to_page(addr);

	return page ? page_to_nid(page) : NUMA_NO_NODE;
}

/* an atomic_t in the series before v3, an int under a spinlock since */
#define nr_balancing(pgdat)                                                  \
	_Generic((pgdat)->kswapd_nr_balancing,                               \
		atomic_t: atomic_read((atomic_t *)&(pgdat)->kswapd_nr_balancing), \
		default: READ_ONCE(*(int *)&(pgdat)->kswapd_nr_balancing))

static struct zone *lowest_zone(pg_data_t *pgdat)
{
	int i;

	for (i = 0; i < MAX_NR_ZONES; i++)
		if (managed_zone(pgdat->node_zones + i))
			return pgdat->node_zones + i;
	return NULL;
}

/* every balancing thread sets the hint from the lowest zone up */
static bool hint_clear(pg_data_t *pgdat)
{
	struct zone *zone = lowest_zone(pgdat);

	return zone && !test_bit(ZONE_RECLAIM_ACTIVE, &zone->flags);
}

static struct task_struct *watcher;
static struct {
	int failures_max, hint_lost;
	bool last_bad;
} seen[MAX_NUMNODES];

static void look(int nid)
{
	pg_data_t *pgdat = NODE_DATA(nid);
	int f = READ_ONCE(pgdat->kswapd_failures);
	bool bad;

	seen[nid].failures_max = max(seen[nid].failures_max, f);

	/* a thread may be between counting itself in and setting the hint */
	bad = nr_balancing(pgdat) > 0 && hint_clear(pgdat) &&
	      nr_balancing(pgdat) > 0;
	if (bad && seen[nid].last_bad)
		seen[nid].hint_lost++;
	seen[nid].last_bad = bad;
}

static int watch(void *unused)
{
	int nid;

	while (!kthread_should_stop()) {
		for_each_node_state(nid, N_MEMORY)
			look(nid);
		usleep_range(500, 1000);
	}
	return 0;
}

static int watch_nid = NUMA_NO_NODE;
module_param(watch_nid, int, 0444);
MODULE_PARM_DESC(watch_nid, "node whose kswapd writes are watched");
static uint widen_us;
module_param(widen_us, uint, 0444);
MODULE_PARM_DESC(widen_us, "us to hold the last thread out of balance_pgdat()");
static uint widen_max = 100;
module_param(widen_max, uint, 0444);
MODULE_PARM_DESC(widen_max, "hold no more often than this");

static uint hold_helper_us;
module_param(hold_helper_us, uint, 0444);
MODULE_PARM_DESC(hold_helper_us, "us to hold the first extra thread entering");
static int holding;
module_param(holding, int, 0444);
MODULE_PARM_DESC(holding, "1 while that thread is held, 2 after (read only)");
static bool reset_failures;
module_param(reset_failures, bool, 0444);
MODULE_PARM_DESC(reset_failures, "start the node's kswapd_failures over at 0");

static struct {
	atomic_t failures, by_helper, by_stopping;
	atomic_t holds, entered_in_hold, hint_cleared;
	atomic_t last_nr, helper_held, held_until_stopped;
	struct task_struct *held;
} w;
static struct perf_event *__percpu *bp[3];

/* the index of @t among the kswapd threads of @nid, or -1 */
static int kswapd_id(struct task_struct *t, int nid)
{
	int n, id = 0;

	if (!(t->flags & PF_KTHREAD) ||
	    sscanf(t->comm, "kswapd%d:%d", &n, &id) < 1 || n != nid)
		return -1;
	return id;
}

/* is @id, the current task's index among the node's kswapd threads, stopping? */
static bool being_stopped(pg_data_t *pgdat, int id)
{
	return kthread_should_stop() ||
	       id >= READ_ONCE(pgdat->kswapd_nr_threads);
}

static void failures_written(struct perf_event *bp, struct perf_sample_data *d,
			     struct pt_regs *regs)
{
	pg_data_t *pgdat = NODE_DATA(watch_nid);
	int id;

	if (!READ_ONCE(pgdat->kswapd_failures))
		return;
	atomic_inc(&w.failures);
	id = kswapd_id(current, watch_nid);
	if (id > 0)
		atomic_inc(&w.by_helper);
	if (id >= 0 && being_stopped(pgdat, id))
		atomic_inc(&w.by_stopping);
}

/* a thread has entered balance_pgdat() and set the hint */
static bool entered(pg_data_t *pgdat)
{
	return nr_balancing(pgdat) && !hint_clear(pgdat);
}

/*
 * The write that brought the count to 0 is the last thread's leaving: hold
 * it before it clears the hint, and see whether another thread got in.
 */
static void widen(pg_data_t *pgdat)
{
	uint t;

	if (!widen_us || atomic_inc_return(&w.holds) > widen_max)
		return;
	for (t = 0; t < widen_us && !entered(pgdat); t += 10)
		udelay(10);
	if (entered(pgdat)) {
		atomic_inc(&w.entered_in_hold);
		WRITE_ONCE(w.held, current);
	}
}

/*
 * The first extra thread to enter balance_pgdat() waits there, before its
 * first reclaim, until vm.kswapd_threads stops it: its run is then cut
 * short with nothing reclaimed.
 */
static void hold_helper(pg_data_t *pgdat, int id)
{
	uint t;

	if (!hold_helper_us || atomic_xchg(&w.helper_held, 1))
		return;
	WRITE_ONCE(holding, 1);
	for (t = 0; t < hold_helper_us && !being_stopped(pgdat, id); t += 10)
		udelay(10);
	if (being_stopped(pgdat, id))
		atomic_set(&w.held_until_stopped, 1);
	WRITE_ONCE(holding, 2);
}

/*
 * Node @watch_nid's kswapd threads run on its CPUs: with one CPU (and the
 * threads left on it), their writes of the count come one at a time, and a
 * count above the last one is an entry.
 */
static void balancing_written(struct perf_event *bp, struct perf_sample_data *d,
			      struct pt_regs *regs)
{
	pg_data_t *pgdat = NODE_DATA(watch_nid);
	int nr = nr_balancing(pgdat), last = atomic_xchg(&w.last_nr, nr);
	int id = kswapd_id(current, watch_nid);

	if (id < 0)
		return;
	if (!nr)
		widen(pgdat);
	else if (nr > last && id > 0)
		hold_helper(pgdat, id);
}

static void zone_flags_written(struct perf_event *bp,
			       struct perf_sample_data *d, struct pt_regs *regs)
{
	pg_data_t *pgdat = NODE_DATA(watch_nid);

	if (READ_ONCE(w.held) != current)
		return;
	WRITE_ONCE(w.held, NULL);
	if (hint_clear(pgdat) && nr_balancing(pgdat))
		atomic_inc(&w.hint_cleared);
}

static int watch_writes(int i, void *addr, int len, perf_overflow_handler_t fn)
{
	struct perf_event_attr attr;

	hw_breakpoint_init(&attr);
	attr.bp_addr = (unsigned long)addr;
	attr.bp_len = len;
	attr.bp_type = HW_BREAKPOINT_W;
	bp[i] = register_wide_hw_breakpoint(&attr, fn, NULL);
	if (IS_ERR((void __force *)bp[i])) {
		int err = PTR_ERR((void __force *)bp[i]);

		bp[i] = NULL;
		return err;
	}
	return 0;
}

static void unwatch(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(bp); i++)
		if (bp[i])
			unregister_wide_hw_breakpoint(bp[i]);
}

static int watch_node(int nid)
{
	pg_data_t *pgdat;
	int err;

	if (nid < 0 || nid >= MAX_NUMNODES || !node_state(nid, N_MEMORY))
		return -EINVAL;
	pgdat = NODE_DATA(nid);
	if (reset_failures)
		WRITE_ONCE(pgdat->kswapd_failures, 0);
	atomic_set(&w.last_nr, nr_balancing(pgdat));
	err = watch_writes(0, &pgdat->kswapd_failures, HW_BREAKPOINT_LEN_4,
			   failures_written);
	if (!err)
		err = watch_writes(1, &pgdat->kswapd_nr_balancing,
				   HW_BREAKPOINT_LEN_4, balancing_written);
	if (!err)
		err = watch_writes(2, &lowest_zone(pgdat)->flags,
				   HW_BREAKPOINT_LEN_8, zone_flags_written);
	if (err)
		unwatch();
	return err;
}

static int __init kswapd_info_init(void)
{
	struct task_struct *p;
	int nid, err;

	rcu_read_lock();
	for_each_process(p) {
		if (!(p->flags & PF_KTHREAD) || strncmp(p->comm, "kswapd", 6))
			continue;
		pr_info("kswapd_info: comm=%s pid=%d task_nid=%d stack_nid=%d\n",
			p->comm, task_pid_nr(p), addr_nid(p),
			addr_nid(task_stack_page(p)));
	}
	rcu_read_unlock();
	for_each_node_state(nid, N_MEMORY)
		pr_info("kswapd_info: nid=%d kswapd_failures=%d\n", nid,
			READ_ONCE(NODE_DATA(nid)->kswapd_failures));
	if (watch_nid != NUMA_NO_NODE) {
		err = watch_node(watch_nid);
		if (err) {
			pr_err("kswapd_info: cannot watch node %d: %d\n",
			       watch_nid, err);
			return err;
		}
	}
	watcher = kthread_run(watch, NULL, "kswapd_info");
	if (IS_ERR(watcher)) {
		unwatch();
		return PTR_ERR(watcher);
	}
	return 0;
}

static void __exit kswapd_info_exit(void)
{
	int nid;

	kthread_stop(watcher);
	unwatch();
	for_each_node_state(nid, N_MEMORY) {
		if (nid != watch_nid) {
			pr_info("kswapd_info: nid=%d kswapd_failures_max=%d hint_lost=%d\n",
				nid, seen[nid].failures_max, seen[nid].hint_lost);
			continue;
		}
		pr_info("kswapd_info: nid=%d kswapd_failures_max=%d hint_lost=%d failures=%d by_helper=%d by_stopping=%d holds=%d entered_in_hold=%d hint_cleared=%d held_until_stopped=%d\n",
			nid, seen[nid].failures_max, seen[nid].hint_lost,
			atomic_read(&w.failures), atomic_read(&w.by_helper),
			atomic_read(&w.by_stopping),
			min_t(int, atomic_read(&w.holds), widen_max),
			atomic_read(&w.entered_in_hold),
			atomic_read(&w.hint_cleared),
			atomic_read(&w.held_until_stopped));
	}
}

module_init(kswapd_info_init);
module_exit(kswapd_info_exit);
MODULE_DESCRIPTION("Report what the kswapd threads do (reclaimctl VM tests)");
MODULE_LICENSE("GPL");
