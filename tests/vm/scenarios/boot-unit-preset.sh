#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# boot-unit-preset: the boot unit applies the preset named in
# /etc/reclaimctl/reclaimctl.conf ("preset = vmtest"), an administrator's
# preset in /etc/reclaimctl/presets/vmtest.preset with explicit values, in
# aliases and sizes (boot-unit-preset.root/ is copied over the image):
#   threads = 3, throttle = 5, swap-quota = 2M (the kernel's value already)
#  - the unit succeeded; kswapd_threads 3, max_direct_reclaimers 5,
#    swap_round_robin_quota_kb 2048, everything else as the kernel booted;
#  - every node with memory runs 3 kswapd threads (kswapdN, kswapdN:1, :2);
#  - the journal has exactly two knob entries (kswapd_threads 1 -> 3,
#    max_direct_reclaimers 0 -> 5; none for the unchanged quota), the summary
#    (2 changed) and no failure;
#  - `reclaimctl restore` then undoes the unit's change: the kernel's values
#    again, one kswapd thread per node, /run/reclaimctl/saved gone; a second
#    restore has nothing to do.
#
# vm-root: debian
# vm-enable: reclaimctl-autotune.service
# vm-timeout: 300
# vm-numa: 256M:0 256M:1 256M 256M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
step "configuration"
run cat /etc/reclaimctl/reclaimctl.conf /etc/reclaimctl/presets/vmtest.preset
check_boot_applied vmtest
# the values themselves, not only "as preset show says"
assert_file_eq "$KNOB_THREADS" 3 "vm.kswapd_threads"
assert_file_eq "$KNOB_THROTTLE" 5 "vm.max_direct_reclaimers"
assert_file_eq "$KNOB_QUOTA" 2048 "vm.swap_round_robin_quota_kb"

step "restore undoes the unit's change"
assert_file_eq /run/reclaimctl/saved "$(printf '%s\n' \
	'# The values before reclaimctl changed them; "reclaimctl restore" puts them back.' \
	'vm.kswapd_threads = 1' 'vm.max_direct_reclaimers = 0')" "/run/reclaimctl/saved"
assert_rc 0 "reclaimctl restore" -- reclaimctl restore
assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads restored"
assert_file_eq "$KNOB_THROTTLE" 0 "vm.max_direct_reclaimers restored"
wait_threads 1
assert_rc 1 "/run/reclaimctl/saved is gone" -- test -e /run/reclaimctl/saved
assert_eq "nothing to restore: no change since boot or the last restore" \
	"$(reclaimctl restore 2>&1)" "a second restore has nothing to do"
check_dmesg_clean
