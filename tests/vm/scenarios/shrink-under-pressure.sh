#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# shrink-under-pressure: lowering vm.kswapd_threads while node 1 (cpu1,
# 128 MiB) is under pressure does not make the kernel give up on it, and
# kswapd threads leaving and entering balance_pgdat() at once keep the
# ZONE_RECLAIM_ACTIVE hint of the ones reclaiming. A hog bound to node 1
# swaps to zram.
#
# Twice, 16 threads for 5 s, then 1:
#  - node_unreclaimable of node 1, polled every 0.2 s, is never 1;
#  - kswapd is still woken: pageoutrun rises in the 3 s after the shrink;
#  - direct reclaim does not jump: allocstall in the 3 s after the shrink is
#    at most twice that of the 3 s before it (16 threads), plus 64;
#  - no failed run is counted by a thread being stopped, and no thread of
#    node 1 reclaims with the hint cleared by another one leaving (two
#    readings in a row): the test module kswapd_info sees every write of
#    node 1's kswapd_failures through a data breakpoint, and reads the hint
#    every millisecond or so.
# The figures of each round are printed, with the highest kswapd_failures
# from the shrink on and who counted the failed runs. This load cannot show
# the stopped threads' failures of the series before the fix: those threads
# have always reclaimed something by the time they notice the shrink (none
# counted there either; the highest count was 0 to 2 there and with the fix).
# hopeless holds a thread where it has reclaimed nothing instead.
#
# Then the hint's race, with its window widened: 16 threads, the extra ones
# allowed cpu0 too; for 5 s kswapd_info holds the last thread to leave
# balance_pgdat() after it has counted itself out and before it clears the
# hint, until another thread enters or 20 ms pass. No thread may clear the
# hint a thread that entered meanwhile has set (hint_cleared). Before the fix
# (an atomic count, the hint cleared outside any lock) another thread entered
# in 19 of 30 holds and had its hint cleared 10 times; since, count and hint
# change under one lock, so none can enter during a hold.
#
# vm-timeout: 240
# vm-tcg: multi
# vm-numa: 128M:0 128M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
rounds=${SHRINK_ROUNDS:-2}
WATCH=/tmp/unreclaimable.max
MOD=/vm/modules/kswapd_info.ko
require_file "$MOD"

unreclaimable() {
	awk '$1 == "Node" { innode = ($2 == "1,"); next }
		innode && $1 == "node_unreclaimable:" { print $2; exit }' /proc/zoneinfo
}

step "16 -> 1 while a hog on node 1 swaps"
swap=$(zram_swap 384M)
memhog -N 1 -m 192 -p 1000 -q &
HOGS+=($!)
wait_for 60 "node 1 swaps" -- vmstat_above pswpout 1000 || die "the hog does not swap"
echo 0 >"$WATCH"
(
	while :; do
		[[ $(unreclaimable) == 0 ]] || echo 1 >"$WATCH"
		sleep 0.2
	done
) &
watcher=$!
at_exit "kill $watcher 2>/dev/null || true"
for ((r = 1; r <= rounds; r++)); do
	assert_rc 0 "reclaimctl set threads 16" -- reclaimctl set threads 16
	sleep 2
	s0=$(allocstall)
	sleep 3
	s1=$(allocstall) p1=$(vmstat pageoutrun)
	insmod "$MOD" watch_nid=1 || die "insmod kswapd_info failed"
	assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
	s2=$(allocstall)
	sleep 3
	s3=$(allocstall) p3=$(vmstat pageoutrun)
	kswapd_info_unload
	f=$(kswapd_info_seen 1 kswapd_failures_max)
	lost=$(kswapd_info_seen 1 hint_lost)
	stopping=$(kswapd_info_seen 1 by_stopping)
	before=$((s1 - s0)) after=$((s3 - s2))
	log "FIGURES: round $r: allocstall 3 s before the shrink +$before, during it +$((s2 - s1)), 3 s after +$after; pageoutrun after +$((p3 - p1)); node_unreclaimable seen $(cat "$WATCH"); from the shrink on: kswapd_failures at most $f, $(kswapd_info_seen 1 failures) failed runs counted, $(kswapd_info_seen 1 by_helper) of them by threads other than kswapd1, $stopping by threads being stopped; reclaim hint lost $lost times"
	assert_gt $((p3 - p1)) 0 "round $r: kswapd is still woken after the shrink"
	assert_le "$after" $((2 * before + 64)) "round $r: direct reclaim does not jump after the shrink"
	assert_eq 0 "$(cat "$WATCH")" "round $r: node 1 never given up on"
	assert_eq 0 "$stopping" "round $r: no failed run counted by a thread being stopped"
	assert_eq 0 "$lost" "round $r: no thread reclaimed with ZONE_RECLAIM_ACTIVE cleared"
done
step "the reclaim hint while threads leave and enter, its window widened"
# The last thread leaving balance_pgdat() is held after its decrement, before
# it clears the hint, until another thread enters (20 ms at most): room for
# that one to count itself in and set the hint. Node 1's threads run on cpu1
# only, where the held one sits, so its extra threads are allowed cpu0 too.
# Before the fix one did enter (entered_in_hold), and the held thread then
# cleared its hint; since, the count and the hint change under one lock, so
# none can enter meanwhile.
assert_rc 0 "reclaimctl set threads 16" -- reclaimctl set threads 16
while read -r pid comm; do
	[[ $comm == kswapd1 ]] || taskset -p 3 "$pid" >/dev/null || die "taskset -p 3 $comm failed"
done < <(kswapd_threads 1)
insmod "$MOD" watch_nid=1 widen_us=20000 widen_max=30 || die "insmod kswapd_info failed"
sleep 5
kswapd_info_unload
holds=$(kswapd_info_seen 1 holds)
log "FIGURES: last thread out held $holds times, another thread entered meanwhile $(kswapd_info_seen 1 entered_in_hold) times, the held one then cleared its hint $(kswapd_info_seen 1 hint_cleared) times; reclaim hint lost $(kswapd_info_seen 1 hint_lost) times"
assert_gt "$holds" 0 "the last thread out of balance_pgdat() was held"
assert_eq 0 "$(kswapd_info_seen 1 hint_cleared)" "no thread cleared the hint of one that entered after it left"
assert_eq 0 "$(kswapd_info_seen 1 hint_lost)" "no thread reclaimed with ZONE_RECLAIM_ACTIVE cleared"

kill "$watcher" 2>/dev/null || true
stop_hogs
swapoff "$swap" || die "swapoff $swap failed"
check_dmesg_clean
