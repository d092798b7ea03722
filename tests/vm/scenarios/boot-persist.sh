#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# boot-persist: a value persisted with --persist wins over the boot preset in
# the next boot, a plain change does not survive it, and `restore --boot`
# puts back the values the boot left. Two boots of one disk, as the harness
# makes them; the boot unit applies preset vmtest (threads = 3,
# throttle = 5, swap-quota = 2M, boot-persist.root/) in both.
#  - boot 1: the unit applied vmtest (knobs 3, 5, 2048), and journalctl -x
#    shows the catalog's explanation of its knob entry and summary; `set --persist
#    throttle 7` writes vm.max_direct_reclaimers = 7 into
#    /etc/sysctl.d/90-reclaimctl.conf; `boot --dry-run --json` skips that knob
#    (persisted, kept at boot) and `check --json` has the same plan as "boot";
#    last, `set swappiness 30` without --persist (a knob the preset leaves
#    alone: 30, a history record), and a file with this boot's id and the
#    kernel's swappiness goes to /var/lib on the disk;
#  - boot 2: boot 1's file is there, with another boot's id; systemd-sysctl
#    applied 7 and the unit kept it: knobs 3, 7, 2048, 3 kswapd threads per
#    node, and swappiness is the kernel's again (boot 1's plain change is
#    gone); the history has the unit's change (boot, preset:vmtest,
#    kswapd_threads 1 -> 3) and nothing for max_direct_reclaimers or boot
#    1's plain change; after `set throttle 9` and `set swap-quota 4M`,
#    `restore --boot` puts every knob back to its value at boot (threads 1,
#    one thread per node, throttle 7, quota 2048) with restore-boot records
#    in the history, and a following `restore` has nothing to do;
#  - a knob of sysfs: `set --persist mglru n` in boot 1 writes a 'w' line to
#    /etc/tmpfiles.d/90-reclaimctl.conf; in boot 2 systemd-tmpfiles has
#    written it (lru_gen/enabled 0x0000, not the kernel's 0x0007) and verify
#    says it is in place, as persisted.
#
# vm-root: debian
# vm-enable: reclaimctl-autotune.service
# vm-boots: 2
# vm-timeout: 300
# vm-lockdep: off
# vm-share: 1
# vm-numa: 256M:0 256M:1 256M 256M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

PERSISTED=/etc/sysctl.d/90-reclaimctl.conf
STATE=/var/lib/reclaimctl-vm-boot-persist
SWAPPINESS=/proc/sys/vm/swappiness
TMPFILES=/etc/tmpfiles.d/90-reclaimctl.conf
LRU_GEN=/sys/kernel/mm/lru_gen/enabled
read -r boot_id </proc/sys/kernel/random/boot_id
require_patched_kernel
assert_eq 2 "$VM_BOOTS" "this scenario boots twice"

boot1() {
	check_boot_applied vmtest
	assert_file_eq "$KNOB_THREADS" 3 "vm.kswapd_threads"
	assert_file_eq "$KNOB_THROTTLE" 5 "vm.max_direct_reclaimers"
	assert_file_eq "$KNOB_QUOTA" 2048 "vm.swap_round_robin_quota_kb"
	check_catalog "Subject: reclaimctl set vm.kswapd_threads from 1 to 3" \
		"knob vm.kswapd_threads from 1 to 3. The boot unit" \
		"Subject: reclaimctl applied the preset vmtest"

	step "set --persist throttle 7"
	assert_rc 1 "nothing persisted yet" -- test -e "$PERSISTED"
	assert_rc 0 "reclaimctl set --persist throttle 7" -- reclaimctl set --persist throttle 7
	assert_file_eq "$KNOB_THROTTLE" 7 "vm.max_direct_reclaimers"
	run cat "$PERSISTED" || fail "no $PERSISTED"
	assert_eq "vm.max_direct_reclaimers = 7" "$(grep -v '^#' "$PERSISTED" 2>/dev/null)" \
		"$PERSISTED: the one persisted value"

	step "set --persist mglru n: a knob of sysfs, persisted in tmpfiles.d"
	assert_file_eq "$LRU_GEN" 0x0007 "lru_gen/enabled: the kernel's (CONFIG_LRU_GEN_ENABLED)"
	assert_rc 0 "reclaimctl set --persist mglru n" -- reclaimctl set --persist mglru n
	assert_file_eq "$LRU_GEN" 0x0000 "lru_gen/enabled"
	assert_eq "w $LRU_GEN - - - - 0x0000" "$(grep -v '^#' "$TMPFILES" 2>/dev/null)" \
		"$TMPFILES: the one 'w' line"

	step "boot --dry-run: the next boot keeps the persisted value"
	reclaimctl boot --dry-run --json >/tmp/boot.json || fail "reclaimctl boot --dry-run --json failed"
	run cat /tmp/boot.json
	plan_load /tmp/boot.json || fail "boot --dry-run --json: not JSON"
	assert_eq boot "$(jv .command)" "plan: command"
	assert_eq true "$(jv .dry_run)" "plan: dry_run"
	assert_eq vmtest "$(jv .preset)" "plan: preset"
	assert_eq false "$(jv .changed)" "plan: changed (nothing to write now)"
	assert_eq skipped "${PLAN[max_direct_reclaimers.action]-missing}" "plan: max_direct_reclaimers skipped"
	assert_match persist "${PLAN[max_direct_reclaimers.reason]-}" "plan: the reason says persisted"
	assert_eq 7 "${PLAN[max_direct_reclaimers.old]-missing}" "plan: max_direct_reclaimers old"
	assert_eq unchanged "${PLAN[kswapd_threads.action]-missing}" "plan: kswapd_threads unchanged (3)"
	assert_eq unchanged "${PLAN[swap_round_robin_quota_kb.action]-missing}" "plan: swap_round_robin_quota_kb unchanged"
	local -A boot=()
	local key
	for key in "${!JSON[@]}"; do
		[[ $key == .schema* || $key == .:* ]] || boot[$key]=${JSON[$key]}
	done

	step "check --json: its boot plan is boot --dry-run's"
	assert_rc 0 "reclaimctl check" -- reclaimctl check
	reclaimctl check --json >/tmp/check.json || fail "reclaimctl check --json exited $?"
	json_load /tmp/check.json || fail "check --json: not JSON"
	assert_eq object "$(jv .boot:type)" "check --json has a boot plan"
	assert_eq missing "$(jv .boot.schema)" "the boot plan of check has no schema of its own"
	local differ=()
	for key in "${!boot[@]}"; do
		[[ ${JSON[.boot$key]-missing} == "${boot[$key]}" ]] ||
			differ+=("$key: check '${JSON[.boot$key]-missing}', boot --dry-run '${boot[$key]}'")
	done
	assert_eq 0 "${#differ[@]}" "check's boot plan agrees with boot --dry-run (${#boot[@]} values)"
	((${#differ[@]} == 0)) || printf '  | %s\n' "${differ[@]}" | sort | sed -n 1,12p
	assert_eq "${JSON[.boot.entries:len]-missing}" "${boot[.entries:len]-?}" "the same number of entries"

	step "a change without --persist, which the next boot does not keep"
	local swappiness
	read -r swappiness <"$SWAPPINESS"
	assert_ne 30 "$swappiness" "vm.swappiness: the kernel's"
	assert_rc 0 "reclaimctl set swappiness 30" -- reclaimctl set swappiness 30
	assert_file_eq "$SWAPPINESS" 30 "vm.swappiness"
	history_load
	assert_match "set value swappiness $swappiness 30 undone=false" "${HISTORY[*]-}" \
		"history: the plain change"
	assert_eq "vm.max_direct_reclaimers = 7" "$(grep -v '^#' "$PERSISTED" 2>/dev/null)" \
		"$PERSISTED: still the one persisted value"
	mkdir -p "$STATE"
	echo "$boot_id $swappiness" >"$STATE/boot1"
	sync
}

boot2() {
	step "the disk of boot 1, a new boot"
	require_file "$STATE/boot1" "$STATE/boot1 (written in boot 1) is missing: not the same disk"
	local boot1_id swappiness
	read -r boot1_id swappiness <"$STATE/boot1"
	assert_ne "$boot_id" "$boot1_id" "boot 2 has another boot id than boot 1"
	assert_file_eq "$SWAPPINESS" "$swappiness" "vm.swappiness: the kernel's again, boot 1's plain 30 is gone"

	step "after the boot: the persisted value won over the preset"
	unit_load "$BOOT_UNIT"
	assert_eq success "${UNIT[Result]-}" "$BOOT_UNIT: Result"
	run cat "$PERSISTED" || fail "$PERSISTED is gone"
	assert_file_eq "$KNOB_THROTTLE" 7 "vm.max_direct_reclaimers (persisted, kept at boot)"
	assert_file_eq "$KNOB_THREADS" 3 "vm.kswapd_threads (preset)"
	assert_file_eq "$KNOB_QUOTA" 2048 "vm.swap_round_robin_quota_kb"
	check_kswapd_per_node 3

	step "the knob of sysfs persisted in tmpfiles.d held through the reboot"
	assert_file_eq "$LRU_GEN" 0x0000 "lru_gen/enabled: systemd-tmpfiles wrote the persisted value"
	reclaimctl verify --json >/tmp/verify.json || fail "reclaimctl verify --json exited $?"
	json_load /tmp/verify.json || fail "verify --json: not JSON"
	local i found=no
	for ((i = 0; i < ${JSON[.knobs:len]:-0}; i++)); do
		[[ ${JSON[.knobs[$i].knob]} == lru_gen_enabled ]] || continue
		found="${JSON[.knobs[$i].state]} ${JSON[.knobs[$i].basis]} ${JSON[.knobs[$i].expected]}"
	done
	assert_eq "ok persisted 0" "$found" "verify: lru_gen_enabled ok, as persisted (0x0000)"
	history_load
	assert_eq "1 boot preset:vmtest kswapd_threads 1 3 undone=false" "${HISTORY[*]-}" \
		"history: the unit's change only (kswapd_threads; nothing for the persisted max_direct_reclaimers or boot 1's plain change)"

	step "two changes, then restore --boot"
	assert_rc 0 "reclaimctl set throttle 9" -- reclaimctl set throttle 9
	assert_rc 0 "reclaimctl set swap-quota 4M" -- reclaimctl set swap-quota 4M
	assert_file_eq "$KNOB_THROTTLE" 9 "vm.max_direct_reclaimers"
	assert_file_eq "$KNOB_QUOTA" 4096 "vm.swap_round_robin_quota_kb"
	assert_rc 0 "reclaimctl restore --boot" -- reclaimctl restore --boot
	assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads: the kernel's, before the unit"
	assert_file_eq "$KNOB_THROTTLE" 7 "vm.max_direct_reclaimers: 7, as the boot left it"
	assert_file_eq "$KNOB_QUOTA" 2048 "vm.swap_round_robin_quota_kb: as the boot left it"
	check_kswapd_per_node 1
	assert_eq "vm.max_direct_reclaimers = 7" "$(grep -v '^#' "$PERSISTED" 2>/dev/null)" \
		"$PERSISTED is untouched"

	step "the history has the restore"
	run reclaimctl history || fail "reclaimctl history failed"
	history_load
	local r changes=() restores=() id
	for r in "${HISTORY[@]}"; do
		case $r in
		*" restore-boot "*) restores+=("${r#* }") id=${r%% *} ;;
		*) changes+=("$r") ;;
		esac
	done
	# the earlier changes, all undone now (the stack is empty)
	assert_eq 3 "${#changes[@]}" "history: three changes before the restore"
	for r in "${changes[@]}"; do
		assert_match ' undone=true$' "$r" "undone: $r"
	done
	assert_eq "$(printf '%s\n' \
		'restore-boot boot kswapd_threads 3 1 undone=false' \
		'restore-boot boot max_direct_reclaimers 9 7 undone=false' \
		'restore-boot boot swap_round_robin_quota_kb 4096 2048 undone=false')" \
		"$(printf '%s\n' "${restores[@]}" | sort)" "history: the restore-boot records"
	assert_match '^[0-9]+$' "${id-}" "the restore is one change"
	assert_eq 3 "$(history_file | grep -c "^change=${id-x} command=restore-boot source=boot .* undoes=all$")" \
		"/run/reclaimctl/history: 3 restore-boot records, undoes=all"
	assert_eq "nothing to restore: no change since boot or the last restore" \
		"$(reclaimctl restore 2>&1)" "restore after restore --boot has nothing to do"
	assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads still 1"
	assert_file_eq "$KNOB_THROTTLE" 7 "vm.max_direct_reclaimers still 7"
}

case $VM_BOOT in
1) boot1 ;;
2) boot2 ;;
*) die "unexpected boot $VM_BOOT" ;;
esac
check_dmesg_clean
