#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kswapd-placement: where the kswapd threads run and where their memory is.
# Booted with nohz_full=1, so that cpu1, node 1's only CPU, is taken out of
# the kernel threads' housekeeping mask (kthreadd runs on cpu0 only):
#  - with 3 threads per node, every thread, node 1's too, may run on cpu0
#    only: a kswapd thread is bound to its node's CPUs that may run kernel
#    threads, and where the node has none it keeps kthreadd's (unpatched 6.12,
#    and the series before v3, bound kswapd1 to the isolated cpu1);
#  - cpu1 offline and online again changes none of that (before v3 the online
#    callback bound node 1's threads to cpu1);
#  - each thread's task_struct and kernel stack are on its own node, read by
#    the test module kswapd_info (before v3 the extra threads were made with
#    kthread_create(), so node 1's came from node 0, where kthreadd runs).
# The masks and nodes are printed.
#
# vm-timeout: 120
# vm-share: 2
# vm-numa: 128M:0 128M:1
# vm-append: nohz_full=1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
ONLINE=/sys/devices/system/cpu/cpu1/online
MOD=/vm/modules/kswapd_info.ko
require_file "$ONLINE"
require_file "$MOD"
at_exit "[[ \$(cat $ONLINE) == 1 ]] || echo 1 >$ONLINE"

show() {
	local pid name out=""
	while read -r pid name; do out+="$name=$(cpus_allowed "$pid") "; done < <(kswapd_threads)
	log "$1: $out"
}
# every kswapd thread may run on cpu0 only
all_on_cpu0() {
	local pid name
	while read -r pid name; do
		assert_eq "0" "$(cpus_allowed "$pid")" "$name: $1"
	done < <(kswapd_threads)
}

step "cpu1 is isolated (nohz_full=1)"
assert_eq "1" "$(readf /sys/devices/system/cpu/nohz_full)" "nohz_full lists cpu1"
assert_eq "0" "$(cpus_allowed 2)" "kthreadd runs on the housekeeping cpu0"

step "3 threads per node"
assert_rc 0 "reclaimctl set threads 3" -- reclaimctl set threads 3
wait_threads 3
assert_eq "6" "$(kswapd_threads | wc -l)" "6 kswapd threads"
show "3 threads"
all_on_cpu0 "on cpu0, not on the isolated cpu1"

step "cpu1 offline and online again"
echo 0 >"$ONLINE" || die "cpu1 offline failed"
echo 1 >"$ONLINE" || die "cpu1 online failed"
show "cpu1 online again"
all_on_cpu0 "still on cpu0 after cpu1 came back"

step "each thread's task_struct and stack on its node"
insmod "$MOD" || die "insmod kswapd_info failed"
rmmod kswapd_info || die "rmmod kswapd_info failed"
lines=$(dmesg | grep -o 'kswapd_info: .*' || true)
log "$lines"
seen=0
while read -r pid name; do
	node=${name#kswapd}
	node=${node%%:*}
	line=$(grep -E "comm=$name pid=$pid " <<<"$lines" || true)
	if [[ $line =~ task_nid=(-?[0-9]+)\ stack_nid=(-?[0-9]+) ]]; then
		seen=$((seen + 1))
		assert_eq "$node" "${BASH_REMATCH[1]}" "$name: task_struct on node $node"
		assert_eq "$node" "${BASH_REMATCH[2]}" "$name: kernel stack on node $node"
	else
		fail "$name (pid $pid): no line from kswapd_info"
	fi
done < <(kswapd_threads)
assert_eq 6 "$seen" "kswapd_info reported every thread"

assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
wait_threads 1
check_dmesg_clean
