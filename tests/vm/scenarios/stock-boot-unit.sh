#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# stock-boot-unit: reclaimctl-autotune.service at a real boot of Debian's own
# kernel (unpatched) with systemd as PID 1, from the Debian image, as
# installed by `cmake --install` and enabled with `systemctl enable`. No
# /etc/reclaimctl/reclaimctl.conf: the unit applies the default preset,
# balanced, whose stock part is what this kernel can take.
#  - the unit is active (exited), Result=success, ExecMainStatus=0;
#  - every knob of `reclaimctl preset show balanced --json` the kernel has
#    holds the value the preset resolves to here (auto: autotune's plan), in
#    `reclaimctl get --json`; those of the series are not on this kernel and
#    the plan skips them, saying the kernel lacks them; `preset diff
#    balanced --json` has nothing left to set;
#  - balanced's two auto rules of the stock kernel: zswap_enabled is N (no
#    swap device at boot: left as it is), numa_demotion_enabled false (one
#    memory tier), as in their files;
#  - the journal has the summary (c75a12a3...) with the number of knobs
#    changed, one knob entry (63fe6bb8...) for each, and no failure entry.
#
# vm-root: debian
# vm-kernel: debian
# vm-enable: reclaimctl-autotune.service
# vm-timeout: 300
# vm-share: 2
# vm-numa: 256M:0-1 256M:2-3 256M 256M
# vm-smp: 4
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

[[ ! -e $KNOB_THREADS ]] || die "this is a patched kernel ($(uname -r)): the scenario wants Debian's own"
log "kernel $(uname -r)"
assert_rc 1 "no /etc/reclaimctl/reclaimctl.conf" -- test -e /etc/reclaimctl/reclaimctl.conf

check_boot_unit_ok
run journalctl -b -q --no-pager -u "$BOOT_UNIT" || true

step "balanced's knobs as this kernel takes them"
reclaimctl preset show balanced --json >/tmp/preset.json || fail "reclaimctl preset show balanced --json failed"
json_load /tmp/preset.json || fail "preset show --json: not JSON"
declare -A want=()
for ((i = 0; i < ${JSON[.entries:len]-0}; i++)); do
	want[${JSON[.entries[$i].knob]}]=${JSON[.entries[$i].value]-}
done
reclaimctl get --json >/tmp/get.json || fail "reclaimctl get --json failed"
json_load /tmp/get.json || fail "get --json: not JSON"
supported=0 lacking=0
for k in "${!want[@]}"; do
	if [[ ${JSON[.knobs.$k.state]-unsupported} != supported ]]; then
		lacking=$((lacking + 1))
		log "$k: not on this kernel"
		continue
	fi
	supported=$((supported + 1))
	assert_eq "${want[$k]}" "${JSON[.knobs.$k.value]-missing}" "$k = ${want[$k]} as balanced resolves it here"
done
assert_gt "$supported" 0 "balanced has knobs this kernel has"
assert_gt "$lacking" 0 "balanced has knobs of the series, which this kernel lacks"
assert_eq unsupported "${JSON[.knobs.kswapd_threads.state]-unsupported}" "kswapd_threads: unsupported"
assert_file_eq /sys/module/zswap/parameters/enabled N "zswap_enabled = auto: N, no swap device at boot"
assert_file_eq /sys/kernel/mm/numa/demotion_enabled false "numa_demotion_enabled = auto: false, one memory tier"

reclaimctl preset diff balanced --json >/tmp/diff.json || fail "reclaimctl preset diff balanced --json failed"
plan_load /tmp/diff.json || fail "preset diff --json: not JSON"
assert_eq false "$(jv .changed)" "preset diff balanced: nothing left to set"
for k in kswapd_threads max_direct_reclaimers swap_round_robin_quota_kb; do
	[[ -n ${PLAN[$k.action]-} ]] || continue
	assert_eq skipped "${PLAN[$k.action]}" "preset diff balanced: $k skipped"
	assert_match "lacks" "${PLAN[$k.reason]}" "$k: the reason says the kernel lacks it"
done

step "journal"
journal_load /tmp/applied.json "MESSAGE_ID=$JOURNAL_ID_APPLIED" || fail "journalctl -o json: not JSON"
assert_eq 1 "${JSON[.:len]-0}" "one summary entry"
log "summary: ${JSON[.[0].MESSAGE]-}"
assert_eq balanced "${JSON[.[0].RECLAIM_PRESET]-missing}" "summary: RECLAIM_PRESET"
changed=${JSON[.[0].RECLAIM_CHANGED]-missing}
journal_load /tmp/knob.json "MESSAGE_ID=$JOURNAL_ID_KNOB" || fail "journalctl -o json: not JSON"
assert_eq "$changed" "${JSON[.:len]-0}" "one knob entry per knob changed"
for ((i = 0; i < ${JSON[.:len]-0}; i++)); do
	log "entry $i: ${JSON[.[$i].MESSAGE]-}"
done
journal_load /tmp/failed.json "MESSAGE_ID=$JOURNAL_ID_FAILED" || fail "journalctl -o json: not JSON"
assert_eq 0 "${JSON[.:len]-0}" "no failure entry"
check_dmesg_clean
