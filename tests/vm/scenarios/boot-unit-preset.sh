#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# boot-unit-preset: the boot unit applies the preset named in
# /etc/reclaimctl/reclaimctl.conf ("preset = vmtest"), an administrator's
# preset in /etc/reclaimctl/presets/vmtest.preset with explicit values, in
# aliases and sizes (boot-unit-preset.root/ is copied over the image):
#   threads = 3, throttle = 5, swap-quota = 2M (the kernel's value already)
#  - the unit succeeded; kswapd_threads 3, max_direct_reclaimers 5,
#    swap_round_robin_quota_kb 2048, everything else as the kernel booted;
#  - every node with memory runs 3 kswapd threads (kswapdN, kswapdN:1, :2);
#  - the journal has exactly two knob entries (kswapd_threads 1 -> 3,
#    max_direct_reclaimers 0 -> 5; none for the unchanged quota), the summary
#    (2 changed) and no failure;
#  - the history (/run/reclaimctl/history) has the unit's change as change 1,
#    command=boot, source=preset:vmtest: kswapd_threads 1 -> 3 and
#    max_direct_reclaimers 0 -> 5, nothing else, after its intent line and
#    before its done line;
#  - `reclaimctl restore` then undoes the unit's change: the kernel's values
#    again, one kswapd thread per node, change 2 in the history undoes 1;
#    a second restore has nothing to do;
#  - another writer after the boot unit's change (reclaimctl boot again,
#    then `sysctl -w vm.max_direct_reclaimers=7`, procps' sysctl, which
#    prints "vm.max_direct_reclaimers = 7"): verify exits 1 naming the knob
#    (expected 5, live 7, a writer at run time), status prints a line for
#    it and has it in its JSON, check sets exit bit 128, the textfile's
#    reclaim_knob_drifted is 1 for it and 0 for kswapd_threads and the
#    preset's quota (its value already: verify's for the boot preset), the
#    history has one outside entry;
#    restore --boot leaves it at 7 (a line on stderr) and puts
#    kswapd_threads back; restore --boot --force then puts it back too.
#
# vm-root: debian
# vm-enable: reclaimctl-autotune.service
# vm-timeout: 300
# vm-lockdep: off
# vm-share: 2
# vm-numa: 256M:0 256M:1 256M 256M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
step "configuration"
run cat /etc/reclaimctl/reclaimctl.conf /etc/reclaimctl/presets/vmtest.preset
check_boot_applied vmtest
# the values themselves, not only "as preset show says"
assert_file_eq "$KNOB_THREADS" 3 "vm.kswapd_threads"
assert_file_eq "$KNOB_THROTTLE" 5 "vm.max_direct_reclaimers"
assert_file_eq "$KNOB_QUOTA" 2048 "vm.swap_round_robin_quota_kb"

step "the history has the unit's change"
run cat /run/reclaimctl/history || fail "no /run/reclaimctl/history"
assert_eq "$(printf '%s\n' \
	'change=1 command=boot source=preset:vmtest knob=kswapd_threads old=1 new=3' \
	'change=1 command=boot source=preset:vmtest knob=max_direct_reclaimers old=0 new=5')" \
	"$(history_file | sort)" "/run/reclaimctl/history: change 1 of the boot unit"
assert_eq "$(printf '%s\n' '# intent change=1 records=2' '# done change=1')" "$(history_marks)" \
	"/run/reclaimctl/history: the unit's change recorded before its writes, done after them"

step "restore undoes the unit's change"
assert_rc 0 "reclaimctl restore" -- reclaimctl restore
assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads restored"
assert_file_eq "$KNOB_THROTTLE" 0 "vm.max_direct_reclaimers restored"
assert_file_eq "$KNOB_QUOTA" 2048 "vm.swap_round_robin_quota_kb untouched"
wait_threads 1
run cat /run/reclaimctl/history || true
assert_eq "$(printf '%s\n' \
	'change=2 command=restore source=change:1 knob=kswapd_threads old=3 new=1 undoes=1' \
	'change=2 command=restore source=change:1 knob=max_direct_reclaimers old=5 new=0 undoes=1')" \
	"$(history_file | grep -v '^change=1 ' | sort)" "/run/reclaimctl/history: change 2 undoes change 1"
assert_eq "$(printf '%s\n' '# intent change=1 records=2' '# done change=1' \
	'# intent change=2 records=2' '# done change=2')" "$(history_marks)" \
	"/run/reclaimctl/history: the restore done too"
assert_eq "nothing to restore: no change since boot or the last restore" \
	"$(reclaimctl restore 2>&1)" "a second restore has nothing to do"
assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads still 1"
assert_file_eq "$KNOB_THROTTLE" 0 "vm.max_direct_reclaimers still 0"
assert_rc 1 "/run/reclaimctl/saved is no more" -- test -e /run/reclaimctl/saved

step "another writer after the boot unit's change: verify, status, check, the metric"
assert_rc 0 "reclaimctl boot applies the preset again" -- reclaimctl boot
assert_file_eq "$KNOB_THROTTLE" 5 "vm.max_direct_reclaimers at the preset's 5"
wait_threads 3
assert_rc 0 "verify: all in place" -- reclaimctl verify
assert_eq "vm.max_direct_reclaimers = 7" "$(sysctl -w vm.max_direct_reclaimers=7)" \
	"sysctl -w vm.max_direct_reclaimers=7"
assert_file_eq "$KNOB_THROTTLE" 7 "vm.max_direct_reclaimers written by sysctl"
assert_rc 1 "verify: a knob drifted" -- reclaimctl verify
reclaimctl verify --json >/tmp/verify.json || true
json_load /tmp/verify.json || fail "verify --json is no JSON"
drifted=
for ((i = 0; i < ${JSON[.knobs:len]:-0}; i++)); do
	[[ $(jv ".knobs[$i].state") == drifted ]] &&
		drifted+="$(jv ".knobs[$i].knob") $(jv ".knobs[$i].expected") $(jv ".knobs[$i].live") $(jv ".knobs[$i].writer_kind");"
done
assert_eq "max_direct_reclaimers 5 7 runtime;" "$drifted" "verify --json: the drifted knob, expected, live, writer"
assert_match 'vm\.max_direct_reclaimers is 7, not the 5 reclaimctl set last: changed at run time by another writer' \
	"$(reclaimctl status)" "status: a line for the drifted knob"
reclaimctl status --json >/tmp/status.json || fail "status --json failed"
json_load /tmp/status.json || fail "status --json is no JSON"
assert_eq "1 max_direct_reclaimers" "$(jv .drifted:len) $(jv '.drifted[0].knob')" "status --json: drifted"
rc=0
reclaimctl check >/tmp/check.out 2>&1 || rc=$?
run cat /tmp/check.out
assert_eq 128 $((rc & 128)) "check: exit bit 128 (exit $rc)"
assert_match 'vm\.max_direct_reclaimers is 7' "$(cat /tmp/check.out)" "check names the knob"
mkdir -p /run/textfile
assert_rc 0 "status --textfile" -- reclaimctl status --textfile /run/textfile
assert_eq "$(printf '%s\n' 'reclaim_knob_drifted{knob="kswapd_threads"} 0' \
	'reclaim_knob_drifted{knob="max_direct_reclaimers"} 1' \
	'reclaim_knob_drifted{knob="swap_round_robin_quota_kb"} 0')" \
	"$(grep '^reclaim_knob_drifted' /run/textfile/reclaimctl.prom | sort)" "the textfile metric agrees"
assert_eq 1 "$(grep -c '^# outside time=[0-9.]* knob=max_direct_reclaimers expected=5 value=7$' \
	/run/reclaimctl/history)" "the history has the outside entry once"

step "restore --boot leaves another writer's value alone, unless --force"
out=$(reclaimctl restore --boot 2>&1 >/dev/null) || fail "restore --boot failed: $out"
assert_match '^reclaimctl: restore: vm\.max_direct_reclaimers is 7, not the 5 .*left alone' "$out" \
	"restore --boot: one line on stderr"
assert_file_eq "$KNOB_THROTTLE" 7 "vm.max_direct_reclaimers left at the other writer's 7"
assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads back to 1"
wait_threads 1
assert_rc 1 "verify: still drifted" -- reclaimctl verify
assert_rc 0 "restore --boot --force" -- reclaimctl restore --boot --force
assert_file_eq "$KNOB_THROTTLE" 0 "vm.max_direct_reclaimers back to 0 with --force"
assert_rc 0 "verify: all in place" -- reclaimctl verify
check_dmesg_clean
