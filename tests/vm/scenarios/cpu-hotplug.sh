#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cpu-hotplug: kswapd threads follow their node's CPUs through CPU hotplug.
#  1. cpu1, the only CPU of node 1, goes offline (x86 takes it out of the
#     node's mask); kswapd_threads=4 is set meanwhile, so node 1's new threads
#     start with no CPU of their node online; cpu1 comes back: every thread of
#     node 1 is allowed on cpu1, and only there, and node 0's threads still on
#     cpu0 only.
#  2. with the 4 threads running, cpu1 goes offline and online again: the same.
#  3. back to 1 thread; node 1's kswapd1 is bound to cpu1.
#
# vm-timeout: 180
# vm-share: 1
# vm-numa: 128M:0 128M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
ONLINE=/sys/devices/system/cpu/cpu1/online
require_file "$ONLINE"

cpu1_online() { [[ $(cat "$ONLINE") == 1 ]]; }
set_cpu1() {
	echo "$1" >"$ONLINE" || die "echo $1 > $ONLINE failed"
	assert_file_eq "$ONLINE" "$1" "cpu1 online=$1"
}
# check_bound NODE CPUS N: NODE runs N threads, each allowed exactly CPUS
check_bound() {
	local node=$1 want=$2 n=$3 pid name
	assert_eq "$(expected_names "$node" "$n")" "$(kswapd_names "$node")" "node$node runs $n thread(s)"
	while read -r pid name; do
		assert_eq "$want" "$(cpus_allowed "$pid")" "$name is allowed CPUs $want"
	done < <(kswapd_threads "$node")
}
at_exit "cpu1_online || echo 1 >$ONLINE"

step "the layout"
assert_eq "0" "$(node_cpus 0)" "node0's CPUs"
assert_eq "1" "$(node_cpus 1)" "node1's CPUs"
check_bound 1 1 1

step "part 1: kswapd_threads=4 while cpu1 is offline, then cpu1 back"
set_cpu1 0
log "node1 cpulist while cpu1 is offline: '$(node_cpus 1)'"
assert_rc 0 "reclaimctl set threads 4" -- reclaimctl set threads 4
wait_threads 4
for pid_name in $(kswapd_threads 1 | tr ' ' '='); do
	log "offline: ${pid_name#*=} allowed $(cpus_allowed "${pid_name%%=*}")"
done
set_cpu1 1
# the callback runs before the write of "online" returns
check_bound 1 1 4
check_bound 0 0 4

step "part 2: cpu1 offline and online with 4 threads running"
set_cpu1 0
set_cpu1 1
check_bound 1 1 4
check_bound 0 0 4

step "part 3: back to 1 thread"
assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
wait_threads 1
check_bound 1 1 1
check_bound 0 0 1
