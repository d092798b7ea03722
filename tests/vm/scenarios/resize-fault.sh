#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# resize-fault: a resize of vm.kswapd_threads that cannot start a thread fails
# and leaves the previous number running everywhere. Fault injection
# (/proc/self/fail-nth with failslab, CONFIG_FAULT_INJECTION) fails one slab
# allocation of the write: the sysctl's buffer is the write's first slab
# allocation, then each kthread_create() makes two (its request, then the
# thread's name), node by node (0, 1, 2, 3), threads in order. So N = 2K + 2
# fails the K-th thread creation (K from 0) of the write.
#  1. 1 -> 3, the 5th creation (node 2's first new thread) fails: the write
#     fails with ENOMEM, the file reads 1, every node runs exactly kswapdN
#     (node 0 and 1's new threads are stopped again);
#  2. 1 -> 4, the first creation fails: the same;
#  3. 2 -> 4, the last creation of node 3 fails: every node runs 2;
#  4. without a fault, 2 -> 3 works on every node;
#  5. a writer of 16 killed (SIGKILL) at various moments of its resize: the
#     write is either done or rolled back (EINTR), and the file shows what
#     runs: every node runs exactly the number it reads, 1 or 16.
#
# vm-timeout: 240
# vm-share: 1
# vm-numa: 128M:0 128M:1 128M 128M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
mem_nodes=$(memory_nodes)
assert_eq "0 1 2 3" "$(echo $mem_nodes)" "four nodes with memory"
mkdir -p /sys/kernel/debug
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
FS=/sys/kernel/debug/failslab
require_file "$FS/ignore-gfp-wait"
# fail-nth injects into every fault point of the task; failslab must accept
# sleeping allocations, and report each injection in one line
echo N >"$FS/ignore-gfp-wait"
echo 1 >"$FS/verbose"

# fault FROM TO K NODE THREAD: kswapd_threads FROM -> TO with creation K
# failed, which is thread THREAD of node NODE
fault() {
	local from=$1 to=$2 k=$3 node=$4 thread=$5 out
	assert_rc 0 "reclaimctl set threads $from" -- reclaimctl set threads "$from"
	wait_threads "$from"
	out=$(failnth-write $((2 * k + 2)) "$KNOB_THREADS" "$to")
	log "failnth-write $((2 * k + 2)) $KNOB_THREADS $to: $out"
	assert_eq "write=ENOMEM injected=1" "$out" "$from -> $to with creation $k failed: the write fails with ENOMEM"
	assert_match "Failed to start kswapd thread $thread on node $node, ret=-12" "$(dmesg | tail -n 5)" \
		"the kernel names the thread that failed: node $node thread $thread"
	assert_file_eq "$KNOB_THREADS" "$from" "vm.kswapd_threads still reads $from"
	wait_threads "$from"
	for n in $mem_nodes; do
		assert_eq "$(expected_names "$n" "$from")" "$(kswapd_names "$n")" "node$n runs $from thread(s) again"
	done
}

step "1 -> 3, node 2's first new thread fails"
fault 1 3 4 2 1
step "1 -> 4, the first new thread fails"
fault 1 4 0 0 1
step "2 -> 4, node 3's last new thread fails"
fault 2 4 7 3 3
step "no fault: 2 -> 3"
out=$(failnth-write 1000 "$KNOB_THREADS" 3)
assert_eq "write=ok injected=0" "$out" "2 -> 3 without a fault succeeds"
assert_file_eq "$KNOB_THREADS" 3 "vm.kswapd_threads reads 3"
for n in $mem_nodes; do
	assert_eq "$(expected_names "$n" 3)" "$(kswapd_names "$n")" "node$n runs 3 threads"
done

step "a writer killed during its resize"
done_n=0 back_n=0
for delay in 0 0.01 0.02 0.05 0.1 0.2 0.4; do
	assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
	wait_threads 1
	sh -c "echo 16 >$KNOB_THREADS" 2>/dev/null &
	writer=$!
	sleep "$delay"
	kill -9 "$writer" 2>/dev/null || true
	wait "$writer" 2>/dev/null || true
	now=$(cat "$KNOB_THREADS")
	case $now in
	1) back_n=$((back_n + 1)) ;;
	16) done_n=$((done_n + 1)) ;;
	*) fail "killed after ${delay}s: vm.kswapd_threads reads $now, neither 1 nor 16" ;;
	esac
	wait_for 10 "$now kswapd thread(s) per node after the writer was killed at ${delay}s" -- threads_per_node "$now" || true
	for n in $mem_nodes; do
		assert_eq "$(expected_names "$n" "$now")" "$(kswapd_names "$n")" "killed after ${delay}s: the file reads $now, node$n runs $now"
	done
done
log "killed writers: $done_n resizes done, $back_n rolled back"
assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
wait_threads 1
