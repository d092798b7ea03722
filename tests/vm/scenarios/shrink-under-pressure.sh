#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# shrink-under-pressure: lowering vm.kswapd_threads while node 1 (cpu1,
# 128 MiB) is under pressure does not make the kernel give up on it. The 15
# threads stopped by 16 -> 1 leave their reclaim run, and a run left that way
# is not a failed run (before the fix each counted as one, up to 15 at once,
# MAX_RECLAIM_RETRIES being 16). A hog bound to node 1 swaps to zram; twice,
# 16 threads for 5 s, then 1:
#  - node_unreclaimable of node 1, polled every 0.2 s, is never 1;
#  - kswapd is still woken: pageoutrun rises in the 3 s after the shrink;
#  - direct reclaim does not jump: allocstall in the 3 s after the shrink is
#    at most twice that of the 3 s before it (16 threads), plus 64.
# The figures of each round are printed, with the highest kswapd_failures of
# node 1 from the shrink on (the test module kswapd_info reads it every
# millisecond or so), and how often it found a thread of node 1 reclaiming
# with the zones' ZONE_RECLAIM_ACTIVE hint cleared by another one leaving,
# which must be never. The series before the fix passed this too here (the
# hog's reclaim makes progress often enough to reset the failures before they
# reach 16; the highest count was 0 and 2 there, 2 and 2 with the fix; with
# swap on a disk limited to 4 or 16 MiB/s instead of zram, 0 to 11 there
# and 0 to 15 with the fix, where kswapd[0] alone counts); a
# node with nothing left to reclaim is given up on within a second by a
# single thread as well, so it cannot tell the two apart either.
#
# vm-timeout: 240
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
allocstall() {
	awk '$1 ~ /^allocstall_/ { s += $2 } END { print s + 0 }' /proc/vmstat
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
	insmod "$MOD" || die "insmod kswapd_info failed"
	assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
	s2=$(allocstall)
	sleep 3
	s3=$(allocstall) p3=$(vmstat pageoutrun)
	kswapd_info_unload
	f=$(kswapd_info_seen 1 kswapd_failures_max)
	lost=$(kswapd_info_seen 1 hint_lost)
	before=$((s1 - s0)) after=$((s3 - s2))
	log "FIGURES: round $r: allocstall 3 s before the shrink +$before, during it +$((s2 - s1)), 3 s after +$after; pageoutrun after +$((p3 - p1)); node_unreclaimable seen $(cat "$WATCH"); kswapd_failures at most $f from the shrink on; reclaim hint lost $lost times"
	assert_gt $((p3 - p1)) 0 "round $r: kswapd is still woken after the shrink"
	assert_le "$after" $((2 * before + 64)) "round $r: direct reclaim does not jump after the shrink"
	assert_eq 0 "$(cat "$WATCH")" "round $r: node 1 never given up on"
	assert_eq 0 "$lost" "round $r: no thread reclaimed with ZONE_RECLAIM_ACTIVE cleared"
done
kill "$watcher" 2>/dev/null || true
stop_hogs
swapoff "$swap" || die "swapoff $swap failed"
check_dmesg_clean
