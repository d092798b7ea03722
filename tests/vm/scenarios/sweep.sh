#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sweep: reclaimctl sweep on the real kernel. Before each run the knobs hold
# the run's values and every node runs that many kswapd threads (the command
# itself reads /proc/sys/vm and counts the threads); afterwards the knobs
# and the threads are what they were before the sweep:
#  - after a sweep whose runs all succeed (threads=1,4 x throttle=0,2,
#    --repeat 2: 8 runs, interleaved), with summary.json, summary.csv and
#    report.html in the directory and the table's figures from the runs;
#  - after a sweep of auto values: the run sees what set --dry-run gives
#    for auto;
#  - after a run that fails (exit 1, the runs after it not run);
#  - after Ctrl-C (SIGINT) during a run: exit 130, the command got it too;
#  - after reclaimctl is killed (SIGKILL) during a run: the knobs stay with
#    the run's values until 'reclaimctl restore', which the sweep's first
#    line names, puts them back (the whole sweep is one change).
#
# vm-timeout: 420
# vm-lockdep: off
# vm-share: 1
# vm-numa: 128M:0 128M:1 64M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
out=/tmp/sweep

# The run's view: knob values and threads per node with memory, one line.
cat >/tmp/probe.sh <<'PROBE'
#!/bin/bash
source /vm/lib.sh
nodes=$(memory_nodes)
per=()
for n in $nodes; do per+=("$(kswapd_count "$n")"); done
echo "probe threads=$(cat "$KNOB_THREADS") throttle=$(cat "$KNOB_THROTTLE") per-node=${per[*]}"
memhog -m 16 -p 0 -q
PROBE
chmod +x /tmp/probe.sh

# before: 2 threads, throttle 3
assert_rc 0 "reclaimctl set threads 2 throttle 3" -- reclaimctl set threads 2 throttle 3
wait_threads 2

check_back() {
	assert_file_eq "$KNOB_THREADS" 2 "$1: vm.kswapd_threads back to 2"
	assert_file_eq "$KNOB_THROTTLE" 3 "$1: vm.max_direct_reclaimers back to 3"
	wait_threads 2
	check_kswapd_per_node 2
}

step "a sweep whose runs succeed"
rm -rf "$out"
rc=0
run reclaimctl sweep --repeat 2 -i 0.5 -m 'kswapd=per-node=([0-9]+)' --dir "$out" \
	threads=1,4 throttle=0,2 -- /tmp/probe.sh || rc=$?
assert_eq 0 "$rc" "sweep exit status"
check_back "after the sweep"
for f in summary.json summary.csv report.html; do
	[[ -s $out/$f ]] && ok "$f written" || fail "$f missing"
done
json_load "$out/summary.json" || fail "summary.json is not JSON"
assert_eq 8 "$(jv .runs:len)" "8 runs"
assert_eq 4 "$(jv .values:len)" "4 values"
assert_eq true "$(jv .complete)" "complete"
# the first knob varies slowest; all four, then all four again
want=("1,0" "1,2" "4,0" "4,2" "1,0" "1,2" "4,0" "4,2")
for i in 0 1 2 3 4 5 6 7; do
	t=$(jv ".runs[$i].knobs.kswapd_threads")
	d=$(jv ".runs[$i].knobs.max_direct_reclaimers")
	assert_eq "${want[i]}" "$t,$d" "run $((i + 1)): interleaved order"
	assert_eq ok "$(jv ".runs[$i].status")" "run $((i + 1)) ok"
	log_file=$out/$(jv ".runs[$i].log")
	# what the run saw is what summary.json says it ran under
	per=$(for n in $(memory_nodes); do printf '%s ' "$t"; done)
	grep -qx "probe threads=$t throttle=$d per-node=${per% }" "$log_file" ||
		fail "run $((i + 1)) saw $(grep '^probe' "$log_file") under threads=$t throttle=$d"
	assert_eq "$t" "$(jv ".runs[$i].figures.kswapd")" "run $((i + 1)): the metric from its output"
done
for i in 0 1 2 3; do
	assert_eq 2 "$(jv ".values[$i].runs")" "value $((i + 1)): 2 runs"
	w=$(jv ".values[$i].figures.wall_seconds.median")
	awk -v w="$w" 'BEGIN { exit !(w > 0 && w < 60) }' &&
		ok "value $((i + 1)): wall time $w s" || fail "value $((i + 1)): wall time $w"
done
history_load

step "auto values"
# the values set --dry-run gives for auto on this machine, and what the run saw
assert_rc 0 "set --dry-run threads auto throttle auto" -- \
	sh -c 'reclaimctl --json set --dry-run threads auto throttle auto >/tmp/auto.json'
json_load /tmp/auto.json || fail "set --dry-run --json is not JSON"
t=$(jv ".entries[0].new")
d=$(jv ".entries[1].new")
rm -rf "$out"
rc=0
run reclaimctl sweep -i 0.5 --dir "$out" threads=auto throttle=auto -- /tmp/probe.sh || rc=$?
assert_eq 0 "$rc" "sweep with auto: exit status"
per=$(for n in $(memory_nodes); do printf '%s ' "$t"; done)
grep -qx "probe threads=$t throttle=$d per-node=${per% }" "$out"/run-001-*.log ||
	fail "the run saw $(grep -h '^probe' "$out"/run-001-*.log) under auto (threads=$t throttle=$d)"
json_load "$out/summary.json" || fail "summary.json is not JSON"
assert_eq "threads=auto,throttle=auto" "$(jv '.runs[0].value')" "the label is as given"
assert_eq "$t,$d" "$(jv '.runs[0].knobs.kswapd_threads'),$(jv '.runs[0].knobs.max_direct_reclaimers')" \
	"summary.json has the values auto gave"
check_back "after the sweep with auto"

step "a run that fails"
rm -rf "$out"
rc=0
run reclaimctl sweep --dir "$out" threads=1,4 -- sh -c '/tmp/probe.sh; exit 3' || rc=$?
assert_eq 1 "$rc" "sweep exit status after a failed run"
check_back "after a failed run"
json_load "$out/summary.json" || fail "summary.json after a failed run"
assert_eq failed "$(jv .runs[0].status)" "the first run failed"
assert_eq 3 "$(jv .runs[0].exit_status)" "its exit status"
assert_eq false "$(jv .complete)" "the sweep is not complete"

# first_run_started: the first run's command has printed its probe line
first_run_started() {
	local f
	for f in "$out"/run-001-*.log; do grep -q '^probe' "$f" 2>/dev/null && return 0; done
	return 1
}
# sweep_bg ARGS...: reclaimctl sweep in the background, stderr in /tmp/sweep.err
sweep_bg() {
	rm -rf "$out"
	reclaimctl sweep --dir "$out" "$@" 2>/tmp/sweep.err &
	SWEEP=$!
	wait_for 60 "the first run" -- first_run_started
}

step "Ctrl-C during a run"
sweep_bg threads=4,1 throttle=7 -- sh -c 'trap "echo got-int; exit 130" INT; /tmp/probe.sh; sleep 60 & wait'
assert_file_eq "$KNOB_THREADS" 4 "during the run: vm.kswapd_threads 4"
kill -INT "$SWEEP"
rc=0
wait "$SWEEP" || rc=$?
assert_eq 130 "$rc" "sweep exit status after SIGINT"
check_back "after Ctrl-C"
grep -q got-int "$out"/run-001-*.log && ok "the command got SIGINT" || fail "the command did not get SIGINT"
json_load "$out/summary.json" || fail "summary.json after Ctrl-C"
assert_eq INT "$(jv .interrupted)" "interrupted by INT"

step "reclaimctl killed during a run"
sweep_bg threads=4,1 throttle=7 -- sh -c 'echo $$ >/tmp/cmd.pid; /tmp/probe.sh; exec sleep 60'
kill -KILL "$SWEEP"
wait "$SWEEP" || true
kill "$(cat /tmp/cmd.pid)" # the command lives on
assert_file_eq "$KNOB_THREADS" 4 "killed: vm.kswapd_threads stays 4"
assert_file_eq "$KNOB_THROTTLE" 7 "killed: vm.max_direct_reclaimers stays 7"
undo=$(sed -n "s/.*if interrupted, '\(.*\)' puts the knobs back.*/\1/p" /tmp/sweep.err)
log "the first line: $(head -n 1 /tmp/sweep.err)"
assert_eq "reclaimctl restore" "$undo" "the first line names restore"
assert_rc 0 "$undo" -- sh -c "$undo"
check_back "after $undo"

check_dmesg_clean
