#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# adapt-watermark: adapt's second knob, vm.watermark_scale_factor, on the real
# kernel under real memory pressure (anonymous memory beyond RAM, swap on
# zram). kswapd_threads is held at 1 (--max 1): only the watermark can move.
#  1. adapt in the background with thresholds for TCG, a hog: the hog's node
#     reclaims directly now and then while kswapd, at 30-70% of a CPU, is not
#     saturated, and kswapd is woken again within 0.1 s of its sleeps
#     (kswapd_low_wmark_hit_quickly; both measured in the recording of
#     tests/fixtures/records/vm-hog-threads1.jsonl, which
#     cli/cases/adapt-replay-hog-watermark replays with these thresholds):
#     adapt raises watermark_scale_factor from 10 by steps of 10, at most to
#     30; each raise is a line "watermark_scale_factor 10 -> 20: kswapd woke
#     too late: ..." and a history record (command and source adapt) in the
#     same order; the kernel applied it (the distance between the zones' low
#     and high watermarks in /proc/zoneinfo grew); kswapd_threads stayed 1;
#     the state file holds both knobs in the lease's format;
#  2. the hog stops: back to 10, a step at a time, each "quiet: ...", and
#     the distance back as it was (within 10 pages: the zones' managed
#     pages move a little under a hog; 141, 180 at 20, 143 again here);
#  3. SIGTERM: exit 0, both knobs at their baselines, the state file gone.
#
# vm-timeout: 300
# vm-tcg: multi
# vm-lockdep: off
# vm-numa: 96M:0 96M:1 96M 96M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel

# the distance between the low and the high watermark, in pages, summed over the zones
zone_gap() { awk '$1 == "low" { low += $2 } $1 == "high" { high += $2 } END { print high - low }' /proc/zoneinfo; }

step "swap on zram, kswapd_threads 1, watermark_scale_factor 10"
swap=$(zram_swap 768M)
log "swap: $swap"
show_memory
assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads at boot"
assert_file_eq "$WSF" 10 "vm.watermark_scale_factor at boot"
gap0=$(zone_gap)
log "low-high distance at 10: $gap0 pages"

step "1. adapt with a hog: the watermark up, the threads not"
adapt_raise_watermark "knob=kswapd_threads before=1 last=1 knob=watermark_scale_factor before=10 last=10" \
	"both knobs" --max 1
raised=$(wsf)
assert_gt "$raised" 10 "adapt raised watermark_scale_factor"
gap1=$(zone_gap)
log "low-high distance at $(wsf): $gap1 pages"
assert_gt "$gap1" "$gap0" "the kernel widened the zones' low-high distance"
assert_file_eq "$KNOB_THREADS" 1 "kswapd_threads stays 1 (--max 1)"
wait_for 5 "$ADAPT_STATE to follow" -- grep -q "knob=watermark_scale_factor before=10 last=$(wsf)" "$ADAPT_STATE" || true
assert_match "knob=watermark_scale_factor before=10 last=$(wsf)\$" "$(cat "$ADAPT_STATE")" "$ADAPT_STATE has the value adapt wrote"

step "2. the hog stops: back to 10"
stop_ram_hog
down_t0=$(now)
if wait_for 90 "watermark_scale_factor back to 10" -- wsf_is 10; then
	log "back at 10 $(awk -v a="$(now)" -v b="$down_t0" 'BEGIN {printf "%.1f", a - b}') s after the hog stopped"
fi
assert_file_eq "$WSF" 10 "back at the baseline"
# the zones' managed pages move a little under a hog: a few pages either way
gap2=$(zone_gap)
log "low-high distance at 10 again: $gap2 pages"
assert_lt "$gap2" "$gap1" "the kernel narrowed the zones' low-high distance again"
assert_le "$(((gap2 - gap0) * (gap2 - gap0)))" 100 "the distance within 10 pages of the start's"
cat /tmp/adapt.out
mapfile -t changes < <(wmark_output_changes /tmp/adapt.out)
mapfile -t records < <(wmark_history_changes)
assert_ge "${#changes[@]}" 2 "at least one raise and one step back"
assert_eq "$(printf '%s\n' "${changes[@]}")" "$(printf '%s\n' "${records[@]}")" \
	"adapt's lines and the history's records, the same changes in the same order"
assert_eq "10 20" "${changes[0]}" "the first change: 10 -> 20"
assert_eq "20 10" "${changes[-1]}" "the last change: 20 -> 10"
assert_ge "$(grep -cE '^[0-9:]{8} watermark_scale_factor [12]0 -> [23]0: kswapd woke too late: [0-9,]+ early wake-ups/s \(kswapd_low_wmark_hit_quickly\) and [0-9,]+ direct reclaims/s for [0-9]+ s, kswapd threads at [0-9]+% CPU each \(not saturated\) -> watermark_scale_factor [23]0$' /tmp/adapt.out || true)" 1 \
	"a raise says kswapd woke too late, with its figures"
assert_ge "$(grep -cE '^[0-9:]{8} watermark_scale_factor [23]0 -> [12]0: quiet: kswapd threads below 10% CPU each and [0-9,]+ direct reclaims/s for [0-9]+ s -> watermark_scale_factor [12]0$' /tmp/adapt.out || true)" 1 \
	"a step back says quiet"
assert_eq 0 "$(grep -c 'kswapd_threads [0-9]* ->' /tmp/adapt.out || true)" "no change of kswapd_threads"
assert_eq "${#changes[@]}" "$(grep -c 'command=adapt source=adapt knob=watermark_scale_factor' /run/reclaimctl/history || true)" \
	"history: each with source adapt"

step "3. SIGTERM: both at their baselines, no state left"
kill -TERM "$adapt_pid"
rc=0
wait "$adapt_pid" || rc=$?
assert_eq 0 "$rc" "adapt exits 0 on SIGTERM"
assert_file_eq "$WSF" 10 "vm.watermark_scale_factor at the baseline"
assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads at the baseline"
if [[ -e $ADAPT_STATE ]]; then fail "$ADAPT_STATE is left behind"; else ok "$ADAPT_STATE is gone"; fi
assert_eq "adapt: stopped; kswapd_threads left at 1
adapt: stopped; watermark_scale_factor left at 10" "$(tail -n 2 /tmp/adapt.out)" "adapt says so, a line a knob"
check_dmesg_clean
