#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# hopeless: on a node where nothing can be reclaimed, N kswapd threads give up
# after as many runs of the node as one thread does, not N times as many.
# Node 1 (cpu1, 128 MiB, no swap) is filled with mlocked memory down to
# between its min and low watermarks (watermark_scale_factor=1000 makes the
# gaps some MiB wide, watermark_boost_factor=0 keeps them still); then small
# allocations bound to node 1 keep waking its kswapd for 15 s. Every run
# fails, and after MAX_RECLAIM_RETRIES failed runs the node is given up on
# (node_unreclaimable: 1 in /proc/zoneinfo) and kswapd is no longer woken.
# With 1 and with 8 threads:
#  - node 1 ends up unreclaimable;
#  - kswapd runs (pageoutrun in /proc/vmstat) with 8 threads are at most twice
#    as many as with 1. A run of the node is kswapd[0]'s: it counts
#    pageoutrun and the failure, the other threads only help it, so that 8
#    threads failing in parallel neither lose failures nor give up sooner.
#    Before, every thread's failed run counted with a plain increment
#    (lost ones: 23 to 39 runs here against 16 for 1 thread), and before
#    that only thread 0's failures but everyone's runs (139);
#  - node 1's kswapd_failures never passes MAX_RECLAIM_RETRIES (16): read
#    about every millisecond by the test module kswapd_info while the node
#    fails, it is counted by kswapd[0] alone, which is no longer woken once
#    it reaches 16. Before, every thread counted its failed runs, and threads
#    that were running when the count reached 16 added theirs;
#  - no kswapd thread of node 1 reclaims with its zones' ZONE_RECLAIM_ACTIVE
#    hint cleared by another thread leaving balance_pgdat() (kswapd_info
#    checks it with kswapd_failures);
#  - the figures (runs, node 1's kswapd CPU ticks, the highest
#    kswapd_failures) are printed.
# A measurement in which kswapd reclaimed pages on the filled node (the fill
# left something reclaimable; each success starts the count over) is made
# again, as one in which a fill hog was OOM-killed, up to 3 tries.
# Between the two, a round of reclaim with swap makes progress on node 1,
# which makes it reclaimable again.
#
# vm-timeout: 420
# vm-numa: 128M:0 128M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
tickle_secs=${HOPELESS_SECS:-15}
MOD=/vm/modules/kswapd_info.ko
require_file "$MOD"
# the guest's memory is all below 4 GiB: node 1's is one DMA32 zone
ZONE=DMA32
echo 1000 >/proc/sys/vm/watermark_scale_factor
# no watermark boost: it moves the watermarks and adds boosted kswapd runs
boost=$(cat /proc/sys/vm/watermark_boost_factor)
echo 0 >/proc/sys/vm/watermark_boost_factor
at_exit "echo 10 >/proc/sys/vm/watermark_scale_factor; echo $boost >/proc/sys/vm/watermark_boost_factor"

# zone_field NODE ZONE FIELD -> pages (free, min, low, high) of /proc/zoneinfo
zone_field() {
	awk -v node="Node $1," -v zone="$2" -v f="$3" '
		$1 == "Node" { inzone = ($1 " " $2 == node && $4 == zone); next }
		inzone && f == "free" && $1 == "pages" && $2 == "free" { print $3; exit }
		inzone && $1 == f && NF == 2 { print $2; exit }' /proc/zoneinfo
}
# hog_resident PID MIB: the hog's memory is in place. Not VmLck: mlock()
# accounts the locked size before it faults the pages in, and a next hog
# sized from the free count meanwhile overshoots into the OOM killer.
hog_resident() {
	local rss
	rss=$(status_field "$1" RssAnon)
	[[ -n $rss ]] && ((${rss%% *} >= $2 * 1024))
}
free_below() { (($(zone_field "$1" "$ZONE" free) < $2)); }
unreclaimable() {
	awk -v node="Node $1," '
		$1 == "Node" { innode = ($1 " " $2 == node); next }
		innode && $1 == "node_unreclaimable:" { print $2; exit }' /proc/zoneinfo
}
node1_ticks() {
	local pid name sum=0
	while read -r pid name; do sum=$((sum + $(task_cpu_ticks "$pid"))); done < <(kswapd_threads 1)
	echo "$sum"
}

# make_reclaimable: reclaim with swap on node 1 makes progress, which resets
# its failure count. Once in many CI runs node 1 was still given up on after
# such a fill (with 8 threads, the host loaded by other tests); a fill that
# did not reset it is logged with its figures and tried again, twice at most:
# what is measured starts from a reclaimable node either way.
make_reclaimable() {
	local dev try r0 s0 d0
	for try in 1 2 3; do
		dev=$(zram_swap 256M)
		r0=$(vmstat pageoutrun) s0=$(vmstat pgsteal_kswapd) d0=$(vmstat pgsteal_direct)
		memhog -N 1 -m $(($(node_free_mb 1) + 32)) -p 0 -q || fail "the hog on node 1 failed"
		swapoff "$dev" || fail "swapoff $dev failed"
		zram_remove "$dev"
		[[ $(unreclaimable 1) != 0 ]] || break
		log "fill $try with swap left node 1 given up on: kswapd runs +$(($(vmstat pageoutrun) - r0)), pgsteal_kswapd +$(($(vmstat pgsteal_kswapd) - s0)), pgsteal_direct +$(($(vmstat pgsteal_direct) - d0))"
	done
	assert_eq 0 "$(unreclaimable 1)" "node 1 is reclaimable"
}

# runs THREADS: sets RUNS, TICKS and FAILMAX, the kswapd runs, node 1's kswapd
# CPU and its highest kswapd_failures
runs() {
	local threads=$1 min low free target runs0 ticks0 end up step
	assert_rc 0 "reclaimctl set threads $threads" -- reclaimctl set threads "$threads"
	wait_threads "$threads"
	make_reclaimable
	sync
	echo 3 >/proc/sys/vm/drop_caches
	min=$(zone_field 1 "$ZONE" min)
	low=$(zone_field 1 "$ZONE" low)
	free=$(zone_field 1 "$ZONE" free)
	target=$(((min + low) / 2))
	log "node 1: free $free, min $min, low $low, high $(zone_field 1 "$ZONE" high) pages; filling to $target"
	# the runs count from here: filling node 1 already wakes its kswapd
	runs0=$(vmstat pageoutrun)
	ticks0=$(node1_ticks)
	steal0=$(vmstat pgsteal_kswapd)
	slab0=$(vmstat slabs_scanned)
	inode0=$(vmstat kswapd_inodesteal)
	RUNS_AT=
	# fill in steps, each hog the rest down to the target: what a node's
	# free count shows lags behind and other things free memory meanwhile
	HOGS=()
	for step in 1 2 3 4 5 6; do
		free=$(zone_field 1 "$ZONE" free)
		((free >= low)) || break
		memhog -N 1 -L -m $(((free - target) * 4 / 1024 + 1)) -p 0 -H 600 -q &
		HOGS+=($!)
		wait_for 60 "the hog is written" -- hog_resident "$!" $(((free - target) * 4 / 1024 + 1)) || break
		sleep 1
	done
	log "node 1 filled by ${#HOGS[@]} hogs: free $(zone_field 1 "$ZONE" free) pages"
	# The OOM killer taking a fill hog (node 1's free count lags behind)
	# frees its memory: reclaim succeeds again and the failed runs start
	# over, which doubles the count (46 runs for 8 threads instead of 23).
	VOID=
	for step in "${HOGS[@]}"; do
		kill -0 "$step" 2>/dev/null || VOID=1
	done
	free_below 1 "$low" || die "node 1 did not fill below its low watermark"
	insmod "$MOD" || die "insmod kswapd_info failed"
	read -r up _ </proc/uptime
	end=$((${up%.*} + tickle_secs))
	# 2 MiB bound to node 1: below its low watermark, so kswapd is woken,
	# above its min one, so the allocation succeeds without direct reclaim
	until read -r up _ </proc/uptime && ((${up%.*} >= end)); do
		memhog -N 1 -m 2 -p 0 -q || fail "a small allocation on node 1 failed"
		[[ -n $RUNS_AT || $(unreclaimable 1) != 1 ]] || RUNS_AT=$(($(vmstat pageoutrun) - runs0))
	done
	kswapd_info_unload
	FAILMAX=$(kswapd_info_seen 1 kswapd_failures_max)
	HINT_LOST=$(kswapd_info_seen 1 hint_lost)
	RUNS=$(($(vmstat pageoutrun) - runs0))
	STEAL=$(($(vmstat pgsteal_kswapd) - steal0))
	log "threads $threads: pgsteal_kswapd +$STEAL slabs_scanned +$(($(vmstat slabs_scanned) - slab0)) kswapd_inodesteal +$(($(vmstat kswapd_inodesteal) - inode0)) runs until given up: ${RUNS_AT:-?}"
	TICKS=$(($(node1_ticks) - ticks0))
	log "threads $threads: kswapd runs $RUNS, node 1 kswapd CPU $TICKS ticks, node_unreclaimable $(unreclaimable 1), direct reclaim $(vmstat allocstall_dma32), kswapd_failures at most $FAILMAX, reclaim hint lost $HINT_LOST times"
	assert_eq 1 "$(unreclaimable 1)" "threads $threads: node 1 was given up on"
	assert_le "$FAILMAX" 16 "threads $threads: kswapd_failures of node 1 never past MAX_RECLAIM_RETRIES"
	assert_eq 0 "$HINT_LOST" "threads $threads: no kswapd thread of node 1 reclaimed with ZONE_RECLAIM_ACTIVE cleared"
	kill "${HOGS[@]}" 2>/dev/null || true
	wait "${HOGS[@]}" || true
}

# measure THREADS: runs() again (at most 3 times) while a fill hog was OOM-killed
measure() {
	local try
	for try in 1 2 3; do
		runs "$1"
		if [[ -n $VOID ]]; then
			log "threads $1: a fill hog was OOM-killed, measuring again"
		elif ((STEAL > 0)); then
			# kswapd reclaimed pages: the node was not hopeless, and each
			# success starts the count of failed runs over
			log "threads $1: kswapd reclaimed $STEAL pages on the filled node, measuring again"
		else
			return 0
		fi
	done
	fail "threads $1: no measurement on a node with nothing to reclaim in 3 tries"
}

step "one thread"
measure 1
runs1=$RUNS ticks1=$TICKS fail1=$FAILMAX
step "eight threads"
measure 8
log "FIGURES: 1 thread: $runs1 runs, $ticks1 ticks; 8 threads: $RUNS runs, $TICKS ticks"
assert_gt "$runs1" 0 "1 thread: kswapd ran"
assert_gt "$RUNS" 0 "8 threads: kswapd ran"
assert_le "$RUNS" $((2 * runs1)) "8 threads gave up after at most twice the runs of 1 thread"
log "FIGURES: kswapd_failures at most: 1 thread $fail1, 8 threads $FAILMAX"
assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
