// SPDX-License-Identifier: GPL-2.0-only
/*
 * kswapd_info - where the kswapd threads' memory is, for the kswapd-placement
 * VM scenario (tests/vm/scenarios/kswapd-placement.sh).
 *
 * Loading it prints one console line per kswapd thread and one per node with
 * memory:
 *
 *   kswapd_info: comm=kswapd1:2 pid=57 task_nid=1 stack_nid=1
 *   kswapd_info: nid=1 kswapd_failures=0
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
 * task_nid is the node of the thread's task_struct, stack_nid that of its
 * kernel stack: a thread created for its node (kthread_create_on_node())
 * has both there while the node has free memory, one created with
 * kthread_create() has them on the node of the CPU kthreadd ran on.
 */
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/nodemask.h>
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

/* every balancing thread sets the hint from the lowest zone up */
static bool hint_clear(pg_data_t *pgdat)
{
	int i;

	for (i = 0; i < MAX_NR_ZONES; i++)
		if (managed_zone(pgdat->node_zones + i))
			return !test_bit(ZONE_RECLAIM_ACTIVE,
					 &pgdat->node_zones[i].flags);
	return false;
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

static int __init kswapd_info_init(void)
{
	struct task_struct *p;
	int nid;

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
	watcher = kthread_run(watch, NULL, "kswapd_info");
	return PTR_ERR_OR_ZERO(watcher);
}

static void __exit kswapd_info_exit(void)
{
	int nid;

	kthread_stop(watcher);
	for_each_node_state(nid, N_MEMORY)
		pr_info("kswapd_info: nid=%d kswapd_failures_max=%d hint_lost=%d\n",
			nid, seen[nid].failures_max, seen[nid].hint_lost);
}

module_init(kswapd_info_init);
module_exit(kswapd_info_exit);
MODULE_DESCRIPTION("Print where the kswapd threads' memory is (reclaimctl VM tests)");
MODULE_LICENSE("GPL");
