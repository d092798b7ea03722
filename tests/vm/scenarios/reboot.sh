#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# reboot: the harness's two boots of one disk (vm-boots: 2), and what a plain
# change does across a boot. No boot unit.
#  - boot 1: the knobs are the kernel's; `reclaimctl set threads 2` (without
#    --persist) gives 2 kswapd threads per node and a record in the history;
#    a file with this boot's id goes to /var/lib on the disk;
#  - boot 2: that file is there, with another boot's id; the knobs are the
#    kernel's again (a change without --persist does not survive a boot), one
#    kswapd thread per node, nothing in /run/reclaimctl, `reclaimctl history`
#    says "no changes since boot".
#
# vm-root: debian
# vm-boots: 2
# vm-timeout: 240
# vm-lockdep: off
# vm-share: 1
# vm-numa: 256M:0 256M:1 256M 256M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

state=/var/lib/reclaimctl-vm-reboot
read -r boot_id </proc/sys/kernel/random/boot_id
require_patched_kernel
assert_eq 2 "$VM_BOOTS" "this scenario boots twice"
case $VM_BOOT in
1)
	step "boot 1: the kernel's values; a change that is not persisted"
	check_knobs_are_kernel_defaults
	assert_rc 0 "reclaimctl set threads 2" -- reclaimctl set threads 2
	assert_file_eq "$KNOB_THREADS" 2 "vm.kswapd_threads"
	check_kswapd_per_node 2
	history_load
	assert_eq "1 set value kswapd_threads 1 2 undone=false" "${HISTORY[*]-}" "history: the change"
	mkdir -p "$state"
	echo "$boot_id" >"$state/boot1"
	sync
	;;
2)
	step "boot 2: the disk of boot 1, the knobs of a fresh boot"
	require_file "$state/boot1" "$state/boot1 (written in boot 1) is missing: not the same disk"
	assert_ne "$boot_id" "$(cat "$state/boot1")" "boot 2 has another boot id than boot 1"
	check_knobs_are_kernel_defaults
	check_kswapd_per_node 1
	assert_eq "" "$(ls -A /run/reclaimctl 2>/dev/null)" "/run/reclaimctl is empty after the boot"
	assert_eq "no changes since boot" "$(reclaimctl history 2>&1)" "reclaimctl history: a new boot, no changes"
	;;
*) die "unexpected boot $VM_BOOT" ;;
esac
check_dmesg_clean
