// SPDX-License-Identifier: GPL-2.0-only
/*
 * lockdep_off - turn lockdep's bookkeeping off for the rest of the boot.
 *
 * The scenarios' kernel is built with PROVE_LOCKING so that those that
 * exercise the series' locking run under lockdep. A scenario that tests
 * reclaimctl rather than the series loads this first: with debug_locks
 * clear, lock_acquire() and the IRQ-state hooks return at once, as they do
 * after lockdep's first report, and the scenario runs at about the speed of
 * a kernel without lockdep. It cannot be unloaded: lockdep stays off.
 */
#include <linux/debug_locks.h>
#include <linux/module.h>

static int __init lockdep_off_init(void)
{
	debug_locks_silent = 1;
	debug_locks_off();
	pr_info("lockdep_off: lockdep is off for this boot (debug_locks=%d)\n", debug_locks);
	return 0;
}
module_init(lockdep_off_init);

MODULE_DESCRIPTION("Turn lockdep off for the rest of the boot (VM tests)");
MODULE_LICENSE("GPL");
