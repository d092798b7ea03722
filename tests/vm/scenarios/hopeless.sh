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
# Then, node 1 still filled, 8 -> 1 while every run fails: kswapd_info
# starts node 1's failure count over (as progress would, so that kswapd is
# woken again) and holds the first extra thread to enter balance_pgdat(),
# before it reclaims, until the shrink stops it. Seeing every write of
# kswapd_failures through a data breakpoint, it finds no failed run counted by
# a thread being stopped: a run cut short by the shrink is not a failed run.
# Before the fix it was one (the held thread counted 1), up to 15 at once for
# 16 -> 1, which can make the kernel give up on a node under pressure.
# A measurement in which kswapd reclaimed pages on the filled node (the fill
# left something reclaimable; each success starts the count over) is made
# again, as one in which a fill hog was OOM-killed (during the fill or the
# measurement), up to 3 tries; the shrink fills node 1 again if a fill hog
# is gone by then. Before each fill, a round of reclaim with swap makes
# progress on node 1, which makes it reclaimable again.
#
# vm-timeout: 420
# vm-tcg: multi
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
# held_now: kswapd_info is holding an extra thread of node 1 (hold_helper_us)
held_now() { [[ $(cat /sys/module/kswapd_info/parameters/holding) == 1 ]]; }
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

# hogs_alive: every fill hog still runs. The OOM killer taking one (node 1's
# free count lags behind) frees its memory: reclaim succeeds again and the
# failed runs start over, which doubles the count (46 runs for 8 threads
# instead of 23).
hogs_alive() {
	local p
	for p in "${HOGS[@]}"; do kill -0 "$p" 2>/dev/null || return 1; done
}

# fill: makes node 1 reclaimable, then fills it with mlocked memory (HOGS) to
# between its min and low (LOW) watermarks; the counters runs() reads start
# before the fill, which already wakes node 1's kswapd
fill() {
	local min free target
	make_reclaimable
	sync
	echo 3 >/proc/sys/vm/drop_caches
	min=$(zone_field 1 "$ZONE" min)
	LOW=$(zone_field 1 "$ZONE" low)
	free=$(zone_field 1 "$ZONE" free)
	target=$(((min + LOW) / 2))
	log "node 1: free $free, min $min, low $LOW, high $(zone_field 1 "$ZONE" high) pages; filling to $target"
	runs0=$(vmstat pageoutrun)
	ticks0=$(node1_ticks)
	steal0=$(vmstat pgsteal_kswapd)
	slab0=$(vmstat slabs_scanned)
	inode0=$(vmstat kswapd_inodesteal)
	# fill in steps, each hog the rest down to the target: what a node's
	# free count shows lags behind and other things free memory meanwhile
	HOGS=()
	for _ in 1 2 3 4 5 6; do
		free=$(zone_field 1 "$ZONE" free)
		((free >= LOW)) || break
		memhog -N 1 -L -m $(((free - target) * 4 / 1024 + 1)) -p 0 -H 600 -q &
		HOGS+=($!)
		wait_for 60 "the hog is written" -- hog_resident "$!" $(((free - target) * 4 / 1024 + 1)) || break
		sleep 1
	done
	log "node 1 filled by ${#HOGS[@]} hogs: free $(zone_field 1 "$ZONE" free) pages"
}

# runs THREADS: sets RUNS, TICKS and FAILMAX, the kswapd runs, node 1's kswapd
# CPU and its highest kswapd_failures, and VOID if a fill hog was OOM-killed
runs() {
	local threads=$1 end up
	assert_rc 0 "reclaimctl set threads $threads" -- reclaimctl set threads "$threads"
	wait_threads "$threads"
	fill
	RUNS_AT=
	VOID=
	hogs_alive || VOID=1
	free_below 1 "$LOW" || die "node 1 did not fill below its low watermark"
	insmod "$MOD" || die "insmod kswapd_info failed"
	read -r up _ </proc/uptime
	end=$((${up%.*} + tickle_secs))
	# 2 MiB bound to node 1: below its low watermark, so kswapd is woken,
	# above its min one, so the allocation succeeds without direct reclaim
	until read -r up _ </proc/uptime && ((${up%.*} >= end)); do
		memhog -N 1 -m 2 -p 0 -q || fail "a small allocation on node 1 failed"
		[[ -n $RUNS_AT || $(unreclaimable 1) != 1 ]] || RUNS_AT=$(($(vmstat pageoutrun) - runs0))
	done
	hogs_alive || VOID=1
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
}
# unfill: end the fill hogs
unfill() {
	kill "${HOGS[@]}" 2>/dev/null || true
	wait "${HOGS[@]}" || true
	HOGS=()
}

# measure THREADS: runs() again (at most 3 times) while a fill hog was
# OOM-killed; node 1 stays filled
measure() {
	local try
	for try in 1 2 3; do
		((try == 1)) || unfill
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
unfill
runs1=$RUNS ticks1=$TICKS fail1=$FAILMAX
step "eight threads"
measure 8
log "FIGURES: 1 thread: $runs1 runs, $ticks1 ticks; 8 threads: $RUNS runs, $TICKS ticks"
assert_gt "$runs1" 0 "1 thread: kswapd ran"
assert_gt "$RUNS" 0 "8 threads: kswapd ran"
assert_le "$RUNS" $((2 * runs1)) "8 threads gave up after at most twice the runs of 1 thread"
log "FIGURES: kswapd_failures at most: 1 thread $fail1, 8 threads $FAILMAX"

step "eight threads lowered to one while every run fails"
# Node 1 is filled and given up on. kswapd_info starts its failure count
# over, as progress would, so that the next allocation wakes its kswapd
# again, and holds the first extra thread that enters balance_pgdat() there
# (on cpu1, node 1's only CPU) until 8 -> 1 stops it. Its run is cut short
# with nothing reclaimed, which is no failed run. The shell and what it
# starts move to cpu0, which the held thread leaves free.
if ! hogs_alive || ! free_below 1 "$LOW"; then
	log "node 1 no longer filled: filling it again"
	unfill
	fill
fi
taskset -p 1 $$ >/dev/null || die "taskset -p 1 $$ failed"
insmod "$MOD" watch_nid=1 reset_failures=1 hold_helper_us=5000000 || die "insmod kswapd_info failed"
# The held thread keeps cpu1 for up to 5 s, and an allocation may wait for
# work on cpu1 (a drain) until then: look while the allocation runs.
small=()
for ((i = 0; i < 10; i++)); do
	memhog -N 1 -m 2 -p 0 -q &
	small+=($!)
	while kill -0 "${small[-1]}" 2>/dev/null && ! held_now; do sleep 0.05; done
	! held_now || break
	sleep 0.2
done
held_now || log "no extra thread held after $((i + 1)) small allocations on node 1 (holding=$(cat /sys/module/kswapd_info/parameters/holding))"
assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
for pid in "${small[@]}"; do wait "$pid" || fail "a small allocation on node 1 failed"; done
kswapd_info_unload
taskset -p 3 $$ >/dev/null || die "taskset -p 3 $$ failed"
held=$(kswapd_info_seen 1 held_until_stopped)
stopping=$(kswapd_info_seen 1 by_stopping)
log "FIGURES: extra thread held until stopped: $held; failed runs counted $(kswapd_info_seen 1 failures), $(kswapd_info_seen 1 by_helper) of them by threads other than kswapd1, $stopping by threads being stopped"
assert_eq 1 "$held" "an extra thread was in balance_pgdat() when 8 -> 1 stopped it"
assert_eq 0 "$stopping" "no failed run counted by a thread being stopped"
unfill
