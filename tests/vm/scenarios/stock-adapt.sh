#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# stock-adapt: reclaimctl adapt on Debian's own kernel, which has no
# vm.kswapd_threads: the watermark is its only knob.
#  - adapt --only threads fails in one line (exit 1), nothing written;
#  - adapt with thresholds for TCG (those of adapt-watermark) and a hog
#    beyond RAM (zram swap): its start line names the watermark alone, the
#    state file holds it alone; it raises watermark_scale_factor from 10
#    ("kswapd woke too late: ..."), and once the hog is gone steps it back
#    to 10 ("quiet: ..."); adapt's lines and the history's records are the
#    same changes in order; SIGTERM: exit 0, 10, the state file gone.
#
# vm-kernel: debian
# vm-timeout: 240
# vm-tcg: multi
# vm-numa: 96M:0 96M:1 96M 96M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

[[ ! -e $KNOB_THREADS ]] || die "this is a patched kernel ($(uname -r)): the scenario wants Debian's own"
log "kernel $(uname -r)"

step "adapt --only threads: the kernel has none"
assert_rc 1 "adapt --only threads" -- reclaimctl adapt --only threads
assert_eq "reclaimctl: adapt: the kernel has no vm.kswapd_threads (it needs the reclaimctl kernel patches)" \
	"$(reclaimctl adapt --only threads 2>&1)" "one line says why"
assert_file_eq "$WSF" 10 "nothing written"

step "adapt under a hog: the watermark up and back"
insmod /vm/modules/zsmalloc.ko || die "insmod zsmalloc failed"
insmod /vm/modules/zram.ko num_devices=0 || die "insmod zram failed"
log "swap: $(zram_swap 768M)"
show_memory
adapt_raise_watermark "knob=watermark_scale_factor before=10 last=10" "the watermark alone"
assert_gt "$(wsf)" 10 "adapt raised watermark_scale_factor"
stop_ram_hog
wait_for 90 "watermark_scale_factor back to 10" -- wsf_is 10 || true
assert_file_eq "$WSF" 10 "back at the baseline"
cat /tmp/adapt.out
assert_eq "adapt: watermark_scale_factor 10 (10-30), a sample every 1 s" "$(head -n 1 /tmp/adapt.out)" \
	"the start line names the watermark alone"
mapfile -t changes < <(wmark_output_changes /tmp/adapt.out)
assert_ge "${#changes[@]}" 2 "at least one raise and one step back"
assert_eq "$(printf '%s\n' "${changes[@]}")" "$(wmark_history_changes | paste -sd '\n')" \
	"adapt's lines and the history's records, the same changes in the same order"
assert_ge "$(grep -cE ' -> [23]0: kswapd woke too late: ' /tmp/adapt.out || true)" 1 "a raise says kswapd woke too late"
assert_ge "$(grep -cE ' -> [12]0: quiet: ' /tmp/adapt.out || true)" 1 "a step back says quiet"

step "SIGTERM"
kill -TERM "$adapt_pid"
wait "$adapt_pid" && rc=0 || rc=$?
assert_eq 0 "$rc" "adapt exits 0 on SIGTERM"
assert_file_eq "$WSF" 10 "vm.watermark_scale_factor at the baseline"
if [[ -e $ADAPT_STATE ]]; then fail "$ADAPT_STATE is left behind"; else ok "$ADAPT_STATE is gone"; fi
assert_eq "adapt: stopped; watermark_scale_factor left at 10" "$(tail -n 1 /tmp/adapt.out)" "adapt says so"
check_dmesg_clean
