#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# selftests: the kernel selftests of the series, tools/testing/selftests/mm/
# kswapd_threads, kswapd_shrink, max_direct_reclaimers,
# direct_reclaim_throttle (kswapd_shrink and direct_reclaim_throttle
# destructive upstream: run_vmtests.sh -d) and swap_round_robin_quota (added by
# kernel/patches/*selftests*.patch, built statically by build-selftests.sh,
# in the initramfs with the helpers), run one after the other; each one's
# TAP output goes to the console as it is.
#  - FAIL on any "not ok" line, on fewer results than the plan, and on an
#    exit status other than 0: also 4, the kselftest skip of a whole program
#    (root and the patched kernel are given here);
#  - a "# SKIP" of a single test is logged, not failed (max_direct_reclaimers
#    skips its counter test when the reclaimers never met: timing);
#  - every program must put back the sysctls it changed (all three are
#    compared before and after each program), leave the swap devices as it
#    found them and one kswapd thread per node with memory.
# kswapd_shrink, max_direct_reclaimers and direct_reclaim_throttle need swap:
# a 256M zram device at the default priority; swap_round_robin_quota makes
# its own, of a higher priority. kswapd_shrink and direct_reclaim_throttle
# read tracefs (mounted here).
#
# vm-timeout: 420
# vm-tcg: multi
# vm-share: 2
# vm-numa: 128M:0 128M:1 128M 128M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
programs=(kswapd_threads kswapd_shrink max_direct_reclaimers direct_reclaim_throttle swap_round_robin_quota)
for p in "${programs[@]}"; do
	command -v "$p" >/dev/null ||
		die "selftest $p is not in the initramfs (no kernel/patches/*selftests*.patch when the build ran?)"
done

knobs() { printf '%s ' "$(readf "$KNOB_THREADS")" "$(readf "$KNOB_THROTTLE")" "$(readf "$KNOB_QUOTA")"; }
swaps() { awk 'NR > 1 {printf "%s ", $1}' /proc/swaps; }

[[ -d /sys/kernel/tracing/events ]] || mount -t tracefs nodev /sys/kernel/tracing

step "swap on zram for kswapd_shrink, max_direct_reclaimers and direct_reclaim_throttle"
swap=$(zram_swap 256M)
log "swap: $swap"
show_memory

# run_selftest NAME: run it, show its TAP output, check its results
run_selftest() {
	local name=$1 out=/tmp/$1.tap rc=0 t0 t1 plan results nok skips line
	local knobs0 swaps0
	knobs0=$(knobs)
	swaps0=$(swaps)
	t0=$(now)
	timeout -s TERM 200 "$name" >"$out" 2>&1 || rc=$?
	t1=$(now)
	cat "$out"
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$out" | head -n 1)
	results=$(grep -cE '^(not )?ok [0-9]+' "$out" || true)
	nok=$(grep -cE '^not ok [0-9]+' "$out" || true)
	skips=$(grep -cE '^ok [0-9]+ .*# SKIP' "$out" || true)
	log "$name: exit $rc, plan ${plan:-none}, $results results, $nok not ok, $skips skipped ($(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}') s)"
	while IFS= read -r line; do
		fail "$name: $line"
	done < <(grep -E '^not ok [0-9]+' "$out" || true)
	while IFS= read -r line; do
		log "$name skipped a test: $line"
	done < <(grep -E '^ok [0-9]+ .*# SKIP' "$out" || true)
	assert_eq 0 "$rc" "$name exit status"
	assert_eq "${plan:-none}" "$results" "$name: every planned test reported"
	assert_gt "$results" 0 "$name ran tests"
	assert_eq "$knobs0" "$(knobs)" "$name put back kswapd_threads, max_direct_reclaimers, swap_round_robin_quota_kb"
	assert_eq "$swaps0" "$(swaps)" "$name left the swap devices as they were"
}

for p in "${programs[@]}"; do
	step "selftest $p"
	run_selftest "$p"
done

step "after the selftests"
check_kswapd_per_node 1
cat /proc/swaps
swapoff_all
check_dmesg_clean
