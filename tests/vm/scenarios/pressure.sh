#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# pressure: real memory pressure (more anonymous memory than RAM, swap on zram).
#  1. with kswapd_threads=4 and a hog bound to each node, the extra threads
#     (kswapdN:1..3) of every node do reclaim work: they show CPU time
#     (utime+stime > 0 in /proc/PID/stat);
#  2. with max_direct_reclaimers=1 and several hogs in parallel, the vmstat
#     counter direct_reclaim_throttled rises and every hog finishes (exit 0,
#     its memory verified word by word after being swapped).
# RAM is kept small: under TCG swapping runs at ~10-15 MiB/s.
#
# vm-timeout: 420
# vm-lockdep: off
# vm-share: 1
# vm-numa: 96M:0 96M:1 96M 96M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
mem_nodes=$(memory_nodes)
extra_mb=${PRESSURE_EXTRA_MB:-48}

counters() {
	local k out=""
	for k in pgscan_kswapd pgscan_direct allocstall_normal allocstall_movable pswpout pswpin direct_reclaim_throttled; do
		out+="$k=$(vmstat "$k") "
	done
	log "vmstat: $out"
}

step "swap on zram"
swap=$(zram_swap 768M)
log "swap: $swap"
show_memory

step "part 1: kswapd_threads=4 under pressure"
assert_rc 0 "reclaimctl set threads 4" -- reclaimctl set threads 4
assert_file_eq "$KNOB_THREADS" 4 "vm.kswapd_threads"
declare -A before
for n in $mem_nodes; do
	assert_eq "$(expected_names "$n" 4)" "$(kswapd_names "$n")" "node$n runs 4 threads"
done
while read -r pid name; do before[$pid]=$(task_cpu_ticks "$pid"); done < <(kswapd_threads)
scan0=$(vmstat pgscan_kswapd)
# one hog per node, bound to it (mbind), a little more than the node has free:
# every node's kswapd threads get work, the memory-only ones too
hogs=()
for n in $mem_nodes; do
	hogs+=("memhog -N $n -m $(($(node_free_mb "$n") + extra_mb / 2)) -p 0")
done
counters
if run_parallel "${hogs[@]}"; then
	ok "one hog per node, each $((extra_mb / 2)) MiB more than its node had free: finished"
fi
counters
show_kswapd
assert_gt "$(vmstat pgscan_kswapd)" "$scan0" "kswapd scanned pages"
for n in $mem_nodes; do
	while read -r pid name; do
		[[ $name == *:* ]] || continue
		ticks=$(task_cpu_ticks "$pid")
		log "$name: utime+stime $((ticks - ${before[$pid]:-0})) ticks, schedstat $(cat "/proc/$pid/schedstat" 2>/dev/null || echo n/a)"
		assert_gt "$ticks" 0 "$name (an extra thread) has CPU time"
	done < <(kswapd_threads "$n")
done
assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
wait_threads 1

step "part 2: max_direct_reclaimers=1, hogs in parallel"
assert_rc 0 "reclaimctl set throttle 1" -- reclaimctl set throttle 1
assert_file_eq "$KNOB_THROTTLE" 1 "vm.max_direct_reclaimers"
throttled0=$(vmstat direct_reclaim_throttled)
stall0=$(($(vmstat allocstall_normal) + $(vmstat allocstall_movable)))
# Whether tasks meet in direct reclaim is up to timing (kswapd often keeps up
# under TCG): up to three rounds, until the counter has moved.
for round in 1 2 3; do
	size=$((($(mem_avail_mb) + 2 * extra_mb) / 4))
	counters
	if run_parallel "memhog -m $size -p 1" "memhog -m $size -p 1" "memhog -m $size -p 1" "memhog -m $size -p 1"; then
		ok "round $round: four hogs of $size MiB finished, memory verified"
	fi
	counters
	(($(vmstat direct_reclaim_throttled) > throttled0)) && break
	log "round $round: no throttled direct reclaimer yet"
done
stall1=$(($(vmstat allocstall_normal) + $(vmstat allocstall_movable)))
log "direct reclaim stalls during part 2: $((stall1 - stall0)), throttled: $(($(vmstat direct_reclaim_throttled) - throttled0))"
assert_gt "$(vmstat direct_reclaim_throttled)" "$throttled0" "direct_reclaim_throttled rose"
assert_rc 0 "reclaimctl set throttle 0" -- reclaimctl set throttle 0
assert_file_eq "$KNOB_THROTTLE" 0 "vm.max_direct_reclaimers back to unlimited"

step "after"
show_memory
cat /proc/pressure/memory 2>/dev/null || true
check_dmesg_clean
