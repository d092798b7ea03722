#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# lru-classic: several kswapd threads per node on the classic active/inactive
# LRU lists. MGLRU is switched off at run time (/sys/kernel/mm/lru_gen/enabled),
# kswapd_threads=4, and one hog per node makes real pressure over zram swap:
#  - the extra threads do reclaim work (CPU time), kswapd scans pages, every
#    hog finishes with its memory verified word by word (the activations and
#    deactivations of the active/inactive lists are printed);
#  - the console has no warning, lockdep report or BUG (run-scenario.sh);
#  - back to 1 thread, MGLRU back on.
#
# vm-timeout: 360
# vm-share: 1
# vm-numa: 96M:0 96M:1 96M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
LRU_GEN=/sys/kernel/mm/lru_gen/enabled
require_file "$LRU_GEN"
mem_nodes=$(memory_nodes)

step "MGLRU off"
log "lru_gen/enabled was $(cat "$LRU_GEN")"
echo n >"$LRU_GEN" || die "cannot switch MGLRU off"
assert_file_eq "$LRU_GEN" 0x0000 "MGLRU is off"
at_exit "echo y >$LRU_GEN"

step "swap on zram, kswapd_threads=4"
swap=$(zram_swap 512M)
log "swap: $swap"
assert_rc 0 "reclaimctl set threads 4" -- reclaimctl set threads 4
wait_threads 4
declare -A before
while read -r pid name; do before[$pid]=$(task_cpu_ticks "$pid"); done < <(kswapd_threads)
scan0=$(vmstat pgscan_kswapd)
act0=$(vmstat pgactivate)
deact0=$(vmstat pgdeactivate)
refill0=$(vmstat pgrefill)

step "one hog per node, each 24 MiB more than its node has free"
hogs=()
for n in $mem_nodes; do
	hogs+=("memhog -N $n -m $(($(node_free_mb "$n") + 24)) -p 1 -q")
done
if run_parallel "${hogs[@]}"; then
	ok "every hog finished, its memory verified"
fi
show_memory
show_kswapd
assert_gt "$(vmstat pgscan_kswapd)" "$scan0" "kswapd scanned pages"
log "classic LRU: pgactivate +$(($(vmstat pgactivate) - act0)) pgdeactivate +$(($(vmstat pgdeactivate) - deact0)) pgrefill +$(($(vmstat pgrefill) - refill0))"
busy=0
while read -r pid name; do
	[[ $name == *:* ]] || continue
	ticks=$(task_cpu_ticks "$pid")
	((ticks > ${before[$pid]:-0})) && busy=$((busy + 1))
done < <(kswapd_threads)
log "extra threads with CPU time: $busy"
assert_gt "$busy" 0 "extra kswapd threads reclaimed on the classic LRU"

step "back to 1 thread, MGLRU on"
assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
wait_threads 1
echo y >"$LRU_GEN"
assert_match '^0x000[1-7]$' "$(cat "$LRU_GEN")" "MGLRU is on again"
