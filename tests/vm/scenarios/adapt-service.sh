#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# adapt-service: reclaimctl-adaptive.service under systemd as PID 1, as
# installed by cmake --install and enabled with the boot unit; a drop-in
# (adapt-service.root/) gives it the TCG thresholds of the scenario adapt
# and WatchdogSec=8s.
#  1. the unit is active (running) as a notify service: STATUS= says the
#     threads and the bounds (StatusText), WatchdogUSec is 8 s, and the
#     daemon keeps pinging: the same main PID is running, with no restart,
#     after more than twice WatchdogSec, and its last ping is recent; the
#     kernel shows it sandboxed: no capability, no new privileges, a seccomp
#     filter, its own mount, network and user namespaces, /usr read-only
#     and of /proc/sys only vm/ writable;
#  2. a hog raises kswapd_threads; the journal of the unit (journalctl -u)
#     has MESSAGE_ID=5a74b779... entries with RECLAIM_KNOB, RECLAIM_OLD,
#     RECLAIM_NEW, RECLAIM_REASON, RECLAIM_DRY_RUN=0, logged by the unit;
#  3. kill -9 of the main PID while the knob is above the baseline:
#     ExecStopPost's `reclaimctl adapt --reset` puts 1 back (knob, one kswapd
#     per node, a journal entry naming the dead PID), and Restart=on-failure
#     starts a new daemon (NRestarts 1, another PID, its own state file);
#  4. `reclaimctl set threads 2` under the daemon: one hand-off entry
#     (MESSAGE_ID=b68d4c86...), StatusText says so and the knob stays 2;
#     `systemctl reload` (ExecReload=, SIGHUP): an entry "resumed at
#     vm.kswapd_threads 2", and the daemon is in control again: with no
#     load it steps down to 1 (journal entry 2 -> 1);
#  5. raised again, `systemctl stop`: the daemon puts the baseline back
#     itself (journal entry "back to the baseline", from what its last step
#     left: the value read before the stop, or a step it took meanwhile as
#     the hog's load was still in its window), the unit is inactive
#     with Result=success, /run/reclaimctl/adapt is gone and ExecStopPost
#     found nothing to reset.
#
# vm-root: debian
# vm-enable: reclaimctl-autotune.service reclaimctl-adaptive.service
# vm-timeout: 360
# vm-tcg: multi
# vm-lockdep: off
# vm-numa: 96M:0 96M:1 96M 96M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
U=reclaimctl-adaptive.service
ID_ADAPT=5a74b779cfa846d79edbb8d26c65324d
STATE=/run/reclaimctl/adapt

knob() { readf "$KNOB_THREADS"; }
knob_is() { [[ $(knob) == "$1" ]]; }
knob_above() { (($(knob) > $1)); }
prop() { systemctl show -P "$1" "$U"; }
unit_running_again() { [[ $(prop NRestarts) == 1 && $(prop SubState) == running ]]; }
# grep reads to the end: with -q, journalctl could die of SIGPIPE and
# pipefail would make a match a failure
journal_has() { journalctl -b -q --no-pager "$@" | grep . >/dev/null; }
unit_log_has() { journalctl -b -q --no-pager -u "$U" | grep -F -- "$1" >/dev/null; }
state_text() { tr '\n' ' ' <"$STATE" | sed 's/ $//'; }

step "1. the unit runs, with a status and a watchdog"
unit_load "$U"
assert_eq enabled "${UNIT[UnitFileState]-}" "$U is enabled"
assert_eq active "${UNIT[ActiveState]-}" "ActiveState"
assert_eq running "${UNIT[SubState]-}" "SubState"
pid=${UNIT[ExecMainPID]-0}
assert_match '^kswapd_threads 1 \(1-3\): ' "$(prop StatusText)" "StatusText (STATUS=): threads and bounds"
log "StatusText: $(prop StatusText)"
assert_eq 8s "$(prop WatchdogUSec)" "WatchdogUSec (the drop-in's 8 s)"
assert_eq "pid=$pid baseline=1 threads=1" "$(state_text)" "$STATE"
ping1=$(prop WatchdogTimestampMonotonic)
sleep 17
unit_load "$U"
assert_eq running "${UNIT[SubState]-}" "still running after more than twice WatchdogSec"
assert_eq "$pid" "${UNIT[ExecMainPID]-}" "the same main PID"
assert_eq 0 "$(prop NRestarts)" "no restart"
ping2=$(prop WatchdogTimestampMonotonic)
log "watchdog pings (monotonic us): $ping1, then $ping2"
assert_gt "${ping2:-0}" "${ping1:-0}" "the daemon pinged the watchdog meanwhile"

step "1b. the daemon runs in the unit's sandbox"
# what the kernel says of the process, not what the unit file asks for
assert_eq 0000000000000000 "$(status_field "$pid" CapEff)" "no effective capability (CapabilityBoundingSet=)"
assert_eq 0000000000000000 "$(status_field "$pid" CapBnd)" "an empty bounding set"
assert_eq 1 "$(status_field "$pid" NoNewPrivs)" "NoNewPrivileges=yes"
assert_eq 2 "$(status_field "$pid" Seccomp)" "a seccomp filter (SystemCallFilter=)"
assert_ne "$(readlink /proc/1/ns/mnt)" "$(readlink "/proc/$pid/ns/mnt")" "its own mount namespace"
assert_ne "$(readlink /proc/1/ns/net)" "$(readlink "/proc/$pid/ns/net")" "its own network namespace (PrivateNetwork=yes)"
assert_ne "$(readlink /proc/1/ns/user)" "$(readlink "/proc/$pid/ns/user")" "its own user namespace (PrivateUsers=yes)"
assert_match ' ro[, ]' " $(findmnt -N "$pid" -no OPTIONS -T /usr) " "/usr is read-only for it (ProtectSystem=strict)"
assert_match ' rw[, ]' " $(findmnt -N "$pid" -no OPTIONS -T /proc/sys/vm) " "/proc/sys/vm is writable for it"
assert_match ' ro[, ]' " $(findmnt -N "$pid" -no OPTIONS -T /proc/sys) " "the rest of /proc/sys is not (ProtectKernelTunables=yes)"
run journalctl -b -q --no-pager -u "$U" || true

step "2. a hog raises kswapd_threads; the journal says why"
swap=$(zram_swap 768M)
log "swap: $swap"
show_memory
start_ram_hog
wait_for 90 "kswapd_threads above 1" -- knob_above 1 || true
stop_ram_hog
raised=$(knob)
log "kswapd_threads $raised, hog stopped"
# adapt logs a change after its write: the knob can be seen before the entry
wait_for 10 "the change's entry" -- journal_has "MESSAGE_ID=$ID_ADAPT" || true
journal_load /tmp/adapt.json "MESSAGE_ID=$ID_ADAPT" || fail "journalctl -o json: not JSON"
n=${JSON[.:len]-0}
assert_ge "$n" 1 "entries with MESSAGE_ID=$ID_ADAPT"
assert_eq vm.kswapd_threads "$(jv '.[0].RECLAIM_KNOB')" "RECLAIM_KNOB"
assert_eq 1 "$(jv '.[0].RECLAIM_OLD')" "RECLAIM_OLD"
assert_eq 2 "$(jv '.[0].RECLAIM_NEW')" "RECLAIM_NEW"
assert_eq 0 "$(jv '.[0].RECLAIM_DRY_RUN')" "RECLAIM_DRY_RUN"
assert_match '^kswapd saturated: node [0-9]+: kswapd threads at [0-9]+% CPU each for [0-9]+ s, [0-9,]+ direct reclaims/s -> 2 threads$' \
	"$(jv '.[0].RECLAIM_REASON')" "RECLAIM_REASON: why"
assert_eq "vm.kswapd_threads: 1 -> 2: $(jv '.[0].RECLAIM_REASON')" "$(jv '.[0].MESSAGE')" "MESSAGE"
assert_logged_by "$U" ".[0]" "logged by the unit"
journalctl -b -q --no-pager -u "$U" >/tmp/unit.log || true
cat /tmp/unit.log
assert_ge "$(grep -c 'vm.kswapd_threads: 1 -> 2: kswapd saturated: node ' /tmp/unit.log || true)" 1 "journalctl -u $U shows the change"
# the hog's last window may raise it once more after the hog stopped: the
# state file follows the knob, whatever it is now
state_follows() { [[ "$(state_text)" == "pid=$pid baseline=1 threads=$(knob)" ]]; }
wait_for 10 "$STATE to have the knob's value" -- state_follows || true
assert_eq "pid=$pid baseline=1 threads=$(knob)" "$(state_text)" "$STATE has the value adapt wrote"

step "3. kill -9: ExecStopPost puts the baseline back, the unit restarts"
knob_is "$raised" || log "note: kswapd_threads moved to $(knob) meanwhile"
raised=$(knob)
assert_gt "$raised" 1 "above the baseline before the kill"
kill -9 "$pid"
wait_for 20 "the unit restarted" -- unit_running_again || true
unit_load "$U"
assert_eq active "${UNIT[ActiveState]-}" "active again (Restart=on-failure)"
assert_ne "$pid" "${UNIT[ExecMainPID]-}" "a new main PID"
assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads back at the baseline"
check_kswapd_per_node 1
journal_load /tmp/reset.json "MESSAGE_ID=$ID_ADAPT" "RECLAIM_NEW=1" || fail "journalctl -o json: not JSON"
assert_eq 1 "${JSON[.:len]-0}" "one entry back to 1"
assert_eq "$raised" "$(jv '.[0].RECLAIM_OLD')" "RECLAIM_OLD: what the killed daemon left"
assert_eq "adapt (PID $pid) ended without restoring: back to the baseline" "$(jv '.[0].RECLAIM_REASON')" \
	"RECLAIM_REASON names the dead PID"
journalctl -b -q --no-pager -u "$U" | tail -n 12 || true
newpid=${UNIT[ExecMainPID]-0}
wait_for 5 "the new daemon's state file" -- grep -q "pid=$newpid" "$STATE" || true
assert_eq "pid=$newpid baseline=1 threads=1" "$(state_text)" "$STATE of the new daemon"
assert_match '^kswapd_threads 1 \(1-3\): ' "$(prop StatusText)" "the new daemon's StatusText"

step "4. someone else sets 2: the daemon steps aside; systemctl reload: it takes over"
ID_HANDOFF=b68d4c8640f74ddd8d1e157b7cbe2fab
assert_rc 0 "reclaimctl set threads 2" -- reclaimctl set threads 2
wait_for 10 "the hand-off entry" -- journal_has "MESSAGE_ID=$ID_HANDOFF" || true
journal_load /tmp/handoff.json "MESSAGE_ID=$ID_HANDOFF" || fail "journalctl -o json: not JSON"
assert_eq 1 "${JSON[.:len]-0}" "one hand-off entry"
assert_eq 2 "$(jv '.[0].RECLAIM_VALUE')" "RECLAIM_VALUE: the value someone else set"
assert_match 'someone else changed it' "$(prop StatusText)" "StatusText says it stepped aside"
sleep 14 # more than down-window + cooldown: a daemon in control would step down
assert_file_eq "$KNOB_THREADS" 2 "the knob stays the other writer's"
assert_rc 0 "systemctl reload $U" -- systemctl reload "$U"
wait_for 10 "the resume entry" -- unit_log_has 'adapt: resumed at kswapd_threads 2 (1-3) (SIGHUP)' || true
assert_ge "$(journalctl -b -q --no-pager -u "$U" | grep -c 'adapt: resumed at kswapd_threads 2 (1-3) (SIGHUP)' || true)" 1 \
	"journal: resumed at 2 on SIGHUP"
wait_for 40 "kswapd_threads back to 1 (the daemon in control again)" -- knob_is 1 || true
assert_file_eq "$KNOB_THREADS" 1 "the resumed daemon stepped down to its minimum"
journal_load /tmp/resumed.json "MESSAGE_ID=$ID_ADAPT" "RECLAIM_OLD=2" "RECLAIM_NEW=1" "_PID=$newpid" ||
	fail "journalctl -o json: not JSON"
assert_ge "${JSON[.:len]-0}" 1 "journal: the resumed daemon's 2 -> 1"
check_kswapd_per_node 1

step "5. raised again, systemctl stop: the baseline back, no state left"
start_ram_hog
wait_for 90 "kswapd_threads above 1" -- knob_above 1 || true
stop_ram_hog
raised=$(knob)
assert_gt "$raised" 1 "above the baseline before the stop"
assert_rc 0 "systemctl stop $U" -- systemctl stop "$U"
unit_load "$U"
assert_eq inactive "${UNIT[ActiveState]-}" "ActiveState"
assert_eq success "${UNIT[Result]-}" "Result (exit 0 on SIGTERM)"
assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads back at the baseline"
check_kswapd_per_node 1
if [[ -e $STATE ]]; then fail "$STATE is left behind: $(state_text)"; else ok "$STATE is gone"; fi
journal_load /tmp/stop.json "MESSAGE_ID=$ID_ADAPT" "RECLAIM_REASON=adapt stopped: back to the baseline" ||
	fail "journalctl -o json: not JSON"
assert_eq 1 "${JSON[.:len]-0}" "one entry: the daemon put the baseline back"
old=$(jv '.[0].RECLAIM_OLD')
assert_eq 1 "$(jv '.[0].RECLAIM_NEW')" "RECLAIM_NEW"
# the hog's load lingers in the daemon's window: it may take one more step up
# between the reading above and the SIGTERM (run36: 2, then 3 as the stop came)
journal_load /tmp/steps.json "MESSAGE_ID=$ID_ADAPT" || fail "journalctl -o json: not JSON"
n=${JSON[.:len]-0}
assert_eq "$(jv ".[$((n - 2))].RECLAIM_NEW")" "$old" "RECLAIM_OLD: what the daemon's last step left"
assert_ge "$old" "$raised" "RECLAIM_OLD: at least the $raised read before the stop"
journalctl -b -q --no-pager -u "$U" >/tmp/unit.log || true
tail -n 12 /tmp/unit.log
assert_eq 1 "$(grep -c 'adapt: nothing to reset' /tmp/unit.log || true)" "ExecStopPost found nothing to reset (once: after the stop)"
history_load
check_dmesg_clean
