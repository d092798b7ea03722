#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# stress: two processes write 300 random values to each of the three knobs
# concurrently (about 10% out of range, which must fail with EINVAL) while
# memory pressure runs. Afterwards: no WARN/BUG/lockdep report/hung task (the
# host checks the whole console), the knobs hold the last value written (the
# last writes are made deterministic at the end) and every node runs exactly
# kswapd_threads threads.
#
# vm-timeout: 420
# vm-tcg: multi
# vm-numa: 96M:0 96M:1 96M 96M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
mem_nodes=$(memory_nodes)
writes=${STRESS_WRITES:-300}
pressure_pid=

stop_pressure() {
	[[ -n $pressure_pid ]] || return 0
	kill "$pressure_pid" 2>/dev/null || true
	wait "$pressure_pid" 2>/dev/null || true
	pressure_pid=
}
at_exit stop_pressure

step "swap on zram, background memory pressure"
swap=$(zram_swap 768M)
log "swap: $swap"
size=$(($(mem_avail_mb) + 32))
# keeps rewriting and verifying its memory until killed; exits 1 on corruption
memhog -q -m "$size" -p 100000 -r &
pressure_pid=$!
log "pressure: memhog pid $pressure_pid, $size MiB, rewrite+verify loop"
wait_for 60 "swapping to start" -- vmstat_above pswpout 0 || true

step "two knob writers, $writes writes per knob each"
specs=("$KNOB_THREADS:1:16" "$KNOB_THROTTLE:0:1024" "$KNOB_QUOTA:0:1048576")
t0=$(now)
knobstress -n "$writes" -s 1 "${specs[@]}" >/tmp/ks1.out 2>&1 &
w1=$!
knobstress -n "$writes" -s 2 "${specs[@]}" >/tmp/ks2.out 2>&1 &
w2=$!
rc1=0 rc2=0
wait "$w1" || rc1=$?
wait "$w2" || rc2=$?
sed 's/^/  w1| /' /tmp/ks1.out | tail -n 20
sed 's/^/  w2| /' /tmp/ks2.out | tail -n 20
assert_eq 0 "$rc1" "writer 1: every write gave the expected result"
assert_eq 0 "$rc2" "writer 2: every write gave the expected result"
log "writers took $(awk -v a="$t0" -v b="$(now)" 'BEGIN {print b - a}') s"
log "current: threads=$(cat "$KNOB_THREADS") throttle=$(cat "$KNOB_THROTTLE") quota=$(cat "$KNOB_QUOTA") kswapd total=$(kswapd_total)"
if kill -0 "$pressure_pid" 2>/dev/null; then
	ok "the pressure hog is still running"
else
	rc=0
	wait "$pressure_pid" || rc=$?
	pressure_pid=
	fail "the pressure hog died during the knob writes (exit $rc)"
fi

step "deterministic last writes, still under pressure"
# two writers again, strictly one after the other: direct, then the tool
knob_write "$KNOB_THREADS" 7 || fail "echo 7 > kswapd_threads"
knob_write "$KNOB_THROTTLE" 9 || fail "echo 9 > max_direct_reclaimers"
knob_write "$KNOB_QUOTA" 4096 || fail "echo 4096 > swap_round_robin_quota_kb"
assert_rc 0 "reclaimctl set threads 3" -- reclaimctl set threads 3
assert_rc 0 "reclaimctl set throttle 2" -- reclaimctl set throttle 2
assert_rc 0 "reclaimctl set swap-quota 1024" -- reclaimctl set swap-quota 1024
assert_file_eq "$KNOB_THREADS" 3 "kswapd_threads holds the last value written"
assert_file_eq "$KNOB_THROTTLE" 2 "max_direct_reclaimers holds the last value written"
assert_file_eq "$KNOB_QUOTA" 1024 "swap_round_robin_quota_kb holds the last value written"
wait_threads 3
for n in $mem_nodes; do
	assert_eq "$(expected_names "$n" 3)" "$(kswapd_names "$n")" "node$n runs exactly kswapd_threads (3) threads"
done
show_kswapd

step "stop the pressure"
if [[ -z $pressure_pid ]]; then
	log "(the pressure hog is already gone, reported above)"
elif kill -0 "$pressure_pid" 2>/dev/null; then
	kill "$pressure_pid"
	rc=0
	wait "$pressure_pid" || rc=$?
	pressure_pid=
	assert_eq 143 "$rc" "the pressure hog ran until stopped (SIGTERM), no corruption"
else
	rc=0
	wait "$pressure_pid" || rc=$?
	pressure_pid=
	fail "the pressure hog exited early with status $rc"
fi
log "vmstat: pswpout=$(vmstat pswpout) pswpin=$(vmstat pswpin) direct_reclaim_throttled=$(vmstat direct_reclaim_throttled)"

step "after the storm: knobs and threads still consistent"
assert_file_eq "$KNOB_THREADS" 3 "kswapd_threads"
for n in $mem_nodes; do
	assert_eq "$(expected_names "$n" 3)" "$(kswapd_names "$n")" "node$n threads"
done
assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
assert_rc 0 "reclaimctl set throttle 0" -- reclaimctl set throttle 0
assert_rc 0 "reclaimctl set swap-quota 2048" -- reclaimctl set swap-quota 2048
wait_threads 1
for n in $mem_nodes; do
	assert_eq "kswapd$n" "$(kswapd_names "$n")" "node$n back to one thread"
done
check_dmesg_clean
