#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# pageoutrun: the node's statistics and aging do not scale with the number of
# kswapd threads. The same load (a hog bound to node 1, 128 MiB, writing
# 160 MiB and reading it back twice, swapping to zram) runs with 1 and with
# 4 threads:
#  - with 4 threads, the tracepoint mm_vmscan_kswapd_thread_wake shows the
#    reclaim runs of each of node 1's threads by its index, 0 to 3 (printed);
#  - pageoutrun (kswapd runs in /proc/vmstat) counts the runs of thread 0
#    alone: with 4 threads it grows by at most the runs of thread 0 of every
#    node the tracepoint showed over the same load (the tracepoint fires
#    before the run counts itself), and less than all threads' runs (before
#    the fix every thread counted its own runs: 312 with 1 thread and 881
#    with 4). How many runs a load takes depends on how the host schedules
#    the guest (55 with 1 thread and 219 with 4 in one run, 313 and 255 in
#    another), so the figures of 1 and 4 threads are printed, not compared;
#  - the MGLRU generations node 1's kswapd and direct reclaim created (the
#    highest sequence number of node 1 in /sys/kernel/debug/lru_gen) and
#    pgsteal_kswapd are printed for both: kswapd threads age one at a time.
#
# vm-timeout: 240
# vm-lockdep: off
# vm-numa: 128M:0 128M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
mkdir -p /sys/kernel/debug
grep -q " /sys/kernel/debug " /proc/mounts || mount -t debugfs debugfs /sys/kernel/debug
GEN=/sys/kernel/debug/lru_gen
require_file "$GEN"
T=/sys/kernel/tracing
grep -q " $T " /proc/mounts || mount -t tracefs nodev $T
WAKE=$T/events/vmscan/mm_vmscan_kswapd_thread_wake
[[ -f $WAKE/enable ]] || fail "no tracepoint $WAKE"

# max_seq: the highest generation of node 1 over all memcgs
max_seq() {
	awk '$1 == "node" { innode = ($2 == 1); next }
		$1 == "memcg" { innode = 0; next }
		innode && $1 ~ /^[0-9]+$/ && $1 > m { m = $1 }
		END { print m + 0 }' "$GEN"
}

swap=$(zram_swap 384M)
log "swap: $swap"

# load THREADS: sets RUNS, GENS, STEAL
load() {
	local r0 g0 s0
	assert_rc 0 "reclaimctl set threads $1" -- reclaimctl set threads "$1"
	wait_threads "$1"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	r0=$(vmstat pageoutrun) g0=$(max_seq) s0=$(vmstat pgsteal_kswapd)
	memhog -N 1 -m 160 -p 2 -q || fail "threads $1: the hog failed"
	RUNS=$(($(vmstat pageoutrun) - r0))
	GENS=$(($(max_seq) - g0))
	STEAL=$(($(vmstat pgsteal_kswapd) - s0))
	log "threads $1: pageoutrun +$RUNS, MGLRU generations of node 1 +$GENS, pgsteal_kswapd +$STEAL, allocstall_dma32 $(vmstat allocstall_dma32)"
}

step "1 thread"
load 1
runs1=$RUNS gens1=$GENS steal1=$STEAL
step "4 threads"
: >$T/trace
[[ ! -f $WAKE/enable ]] || echo 1 >"$WAKE/enable"
load 4
[[ ! -f $WAKE/enable ]] || echo 0 >"$WAKE/enable"
trace=$(grep -o 'mm_vmscan_kswapd_thread_wake: nid=[0-9]* id=[0-9]*' $T/trace || true)
wakes=$({ grep 'nid=1 ' <<<"$trace" || true; } | sed 's/.*id=//' | sort -n | uniq -c | awk '{ printf "id %s: %s, ", $2, $1 }')
log "node 1 thread wakes (mm_vmscan_kswapd_thread_wake): $wakes"
for id in 0 1 2 3; do
	assert_match "id $id: [1-9]" "$wakes" "the tracepoint shows runs of node 1's thread $id"
done
runs_id0=$(grep -c ' id=0$' <<<"$trace" || true)
runs_all=$(grep -c . <<<"$trace" || true)
log "runs of every node's thread 0: $runs_id0; of all threads: $runs_all; pageoutrun: +$RUNS"
log "FIGURES: 1 thread: pageoutrun $runs1, generations $gens1, pgsteal_kswapd $steal1; 4 threads: pageoutrun $RUNS, generations $GENS, pgsteal_kswapd $STEAL"
assert_gt "$runs1" 0 "1 thread: kswapd ran"
assert_gt "$RUNS" 0 "4 threads: kswapd ran"
assert_le "$RUNS" "$runs_id0" "4 threads: pageoutrun counts thread 0's runs, no more"
assert_gt "$runs_all" "$RUNS" "4 threads: pageoutrun counts fewer than all threads' runs"
assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
swapoff "$swap" || true
check_dmesg_clean
