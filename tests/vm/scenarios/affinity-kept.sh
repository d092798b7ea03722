#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# affinity-kept: a CPU coming online binds again only the kswapd threads whose
# affinity is the kernel's. With 3 threads per node, kswapd1:1 is given CPUs
# 0-1 by the administrator (taskset), kswapd1:2 keeps the kernel's binding
# (cpu1, node 1's only CPU). cpu1 goes offline and online again:
#  - kswapd1:1 still has the administrator's CPUs 0-1 (before the fix, the
#    online callback put it back on node 1's CPUs: 1);
#  - kswapd1:2 and kswapd1 are bound to cpu1 again, node 0's threads to cpu0.
# The masks at each step are printed.
#
# vm-timeout: 120
# vm-share: 2
# vm-numa: 128M:0 128M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
ONLINE=/sys/devices/system/cpu/cpu1/online
require_file "$ONLINE"
at_exit "[[ \$(cat $ONLINE) == 1 ]] || echo 1 >$ONLINE"

pid_of() {
	local pid name
	while read -r pid name; do
		if [[ $name == "$1" ]]; then echo "$pid"; fi
	done < <(kswapd_threads)
}
show() {
	local pid name out=""
	while read -r pid name; do out+="$name=$(cpus_allowed "$pid") "; done < <(kswapd_threads)
	log "$1: $out"
}

step "3 threads per node; kswapd1:1 pinned to CPUs 0-1 by taskset"
assert_rc 0 "reclaimctl set threads 3" -- reclaimctl set threads 3
wait_threads 3
pinned=$(pid_of kswapd1:1)
free=$(pid_of kswapd1:2)
[[ -n $pinned && -n $free ]] || die "kswapd1:1 or kswapd1:2 missing"
assert_rc 0 "taskset -p 3 kswapd1:1" -- taskset -p 3 "$pinned"
assert_eq "0,1" "$(cpus_allowed "$pinned")" "kswapd1:1 has the administrator's CPUs"
assert_eq "1" "$(cpus_allowed "$free")" "kswapd1:2 is bound to node 1's CPU"
show "before"

step "cpu1 offline and online again"
echo 0 >"$ONLINE" || die "cpu1 offline failed"
show "cpu1 offline"
echo 1 >"$ONLINE" || die "cpu1 online failed"
show "cpu1 online again"
assert_eq "0,1" "$(cpus_allowed "$pinned")" "kswapd1:1 keeps the administrator's CPUs"
for name in kswapd1 kswapd1:2; do
	assert_eq "1" "$(cpus_allowed "$(pid_of "$name")")" "$name is bound to cpu1 again"
done
for name in kswapd0 kswapd0:1 kswapd0:2; do
	assert_eq "0" "$(cpus_allowed "$(pid_of "$name")")" "$name stays on cpu0"
done

assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
wait_threads 1
check_dmesg_clean
