#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# reporting: monitor, stalls, record and report under real memory pressure
# (anonymous memory beyond RAM, swap on zram).
#  1. monitor --json while two hogs run: direct reclaim shows as nonzero rates
#     (pgscan_direct, allocstall), kswapd as nonzero CPU, and the rates times
#     their intervals add up to what /proc/vmstat counted meanwhile (80% to
#     102%); monitor --per-node --json lists every node with memory and the
#     kswapd threads /proc shows for each;
#  2. stalls --json while two hogs run: a hog (comm "memhog") is listed with
#     time in direct reclaim; with task_delayacct=0 stalls says so (exit 1),
#     --enable turns it on for the run and back off afterwards;
#  3. record --latency -- memhog, with kswapd_threads changed during the
#     recording: the file has the samples, the knob event, the hog's exit
#     status and wall time; the direct reclaims its latency counted from the
#     first sample to the last are the allocstall delta of its counters
#     over the same samples (within 5%), and their p99 is recorded; report
#     renders it with data points in every chart, the latency chart's too,
#     and no tracefs instance is left. The
#     record file goes to the host between RECLAIMCTL-VM-FILE markers on the
#     console (gzip + base64), where tests/report/render-vm-record.sh renders
#     it in Chromium.
# Booted with "delayacct": every task is counted from its start.
#
# vm-timeout: 480
# vm-lockdep: off
# vm-numa: 96M:0 96M:1 96M 96M
# vm-append: delayacct
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
extra_mb=${PRESSURE_EXTRA_MB:-48}

# json_max FILE KEY -> the largest number KEY has in the JSON lines of FILE
json_max() {
	awk -v k="\"$2\":" '{
		while ((i = index($0, k)) > 0) {
			$0 = substr($0, i + length(k)); v = $0; sub(/[,}].*/, "", v)
			if (v != "null" && v + 0 > m) m = v + 0
		}
	} END { print m + 0 }' "$1"
}
# sum_rate FILE KEY -> KEY's per-second rate times "interval", summed over the
# JSON lines of FILE: the count the lines account for
sum_rate() {
	awk -v k="\"$2\":" -v i='"interval":' '{
		a = index($0, k); b = index($0, i)
		if (!a || !b) next
		v = substr($0, a + length(k)); sub(/[,}].*/, "", v)
		w = substr($0, b + length(i)); sub(/[,}].*/, "", w)
		if (v != "null") s += v * w
	} END { printf "%d\n", s }' "$1"
}

step "swap on zram"
swap=$(zram_swap 768M)
log "swap: $swap"
show_memory
assert_file_eq /proc/sys/kernel/task_delayacct 1 "booted with delayacct"

step "1. monitor while two hogs make pressure"
# monitor runs for as long as the hogs do (direct reclaim comes in bursts)
declare -A c0=() c1=()
for k in pgscan_kswapd pgscan_direct pswpout; do c0[$k]=$(vmstat "$k"); done
reclaimctl monitor -i 1 --json >/tmp/monitor.jsonl &
mon=$!
size=$((($(mem_avail_mb) + extra_mb * 2) / 2))
run_parallel "memhog -q -m $size -p 1" "memhog -q -m $size -p 1" || true
sleep 1.5
kill "$mon"
wait "$mon" || true
for k in pgscan_kswapd pgscan_direct pswpout; do c1[$k]=$(vmstat "$k"); done
cat /tmp/monitor.jsonl
# the rates, times their intervals, add up to what /proc/vmstat counted from
# before monitor started to after it stopped (it misses at most its first
# moments and its last partial interval, when the hogs are not running)
for k in pgscan_kswapd pgscan_direct pswpout; do
	got=$(sum_rate /tmp/monitor.jsonl "$k")
	want=$((c1[$k] - c0[$k]))
	log "monitor: $k: rates x intervals add up to $got, /proc/vmstat grew by $want"
	assert_le "$got" $((want * 102 / 100 + 64)) "monitor: $k adds up to no more than /proc/vmstat counted"
	assert_ge "$got" $((want * 8 / 10)) "monitor: $k adds up to at least 80% of what /proc/vmstat counted"
done
assert_gt "$(wc -l </tmp/monitor.jsonl)" 3 "lines of monitor --json"
assert_gt "$(int "$(json_max /tmp/monitor.jsonl pgscan_direct)")" 0 "monitor: pages scanned by direct reclaim per second"
assert_gt "$(int "$(json_max /tmp/monitor.jsonl allocstall)")" 0 "monitor: direct reclaim stalls (allocstall) per second"
assert_gt "$(int "$(json_max /tmp/monitor.jsonl pgscan_kswapd)")" 0 "monitor: pages scanned by kswapd per second"
assert_gt "$(int "$(json_max /tmp/monitor.jsonl kswapd_cpu_percent)")" 0 "monitor: kswapd CPU"
size=$(($(mem_avail_mb) + extra_mb))
log "the same as a table, with a line per node:"
memhog -q -m "$size" -p 1 &
HOGS+=($!)
reclaimctl monitor -i 1 -c 4 --per-node || fail "monitor --per-node"
# and as JSON: every node with memory, each with the number of kswapd
# threads /proc shows for it
reclaimctl monitor -i 1 -c 2 --per-node --json >/tmp/pernode.jsonl || fail "monitor --per-node --json"
mem_nodes=$(memory_nodes)
while IFS= read -r line; do
	printf '%s\n' "$line" >/tmp/pernode.json
	json_load /tmp/pernode.json || fail "monitor --per-node --json: a line is not JSON"
	nodes=()
	for ((i = 0; i < ${JSON[.nodes:len]:-0}; i++)); do
		n=${JSON[.nodes[$i].node]}
		nodes+=("$n")
		assert_eq "$(kswapd_count "$n")" "${JSON[.nodes[$i].kswapd_threads]}" "monitor --per-node: node $n's kswapd threads"
	done
	assert_eq "$(echo $mem_nodes)" "${nodes[*]}" "monitor --per-node: one entry per node with memory"
done </tmp/pernode.jsonl
# the views are checked: the rest of the hog's pass would only take time
stop_hogs

step "2. stalls names the hogs"
# two hogs in parallel: kswapd falls behind, they reclaim directly. stalls
# sees only processes alive at both ends of its interval: on a fast host the
# two passes can be done in less than 20 s, so they hold their memory after
# them until the interval is over.
size=$((($(mem_avail_mb) + extra_mb * 2) / 2))
memhog -q -m "$size" -p 2 -H 22 &
hog1=$!
memhog -q -m "$size" -p 2 -H 22 &
hog2=$!
HOGS+=($hog1 $hog2)
sleep 1
assert_rc 0 "reclaimctl stalls -i 20 -t 5 --json" -- sh -c 'reclaimctl stalls -i 20 -t 5 --json >/tmp/stalls.json'
cat /tmp/stalls.json
if json_load /tmp/stalls.json; then
	found=
	for ((i = 0; i < ${JSON[.tasks:len]:-0}; i++)); do
		pid=$(jv ".tasks[$i].pid")
		if [[ $pid == "$hog1" || $pid == "$hog2" ]] && [[ $(jv ".tasks[$i].reclaim.count") != 0 ]]; then
			found=${found:-$i}
		fi
	done
	if [[ -n $found ]]; then
		ok "stalls lists a hog (pid $(jv ".tasks[$found].pid")) with reclaim delay, as task $found"
		assert_eq memhog "$(jv ".tasks[$found].comm")" "its comm"
		assert_gt "$(jv ".tasks[$found].reclaim.count")" 0 "the hog waited in direct reclaim"
		assert_gt "$(int "$(jv ".tasks[$found].reclaim.delay_ms")")" 0 "for some milliseconds"
		[[ $found == 0 ]] && ok "a hog tops the list" || log "note: a hog is task $found, not 0"
	else
		fail "stalls does not list a hog (pids $hog1 $hog2) with reclaim delay"
	fi
	assert_ge "$(jv .taskstats_version)" 14 "taskstats version of 6.12"
else
	fail "stalls --json is not JSON"
fi
# The table, with -o: the totals since each process started (-i 0), while the
# hogs still run: the header in -o's order and a hog's row.
out=$(reclaimctl stalls -i 0 -t 50 -o PID,RECLAIMS,COMMAND) || fail "stalls -o (table)"
printf '%s\n' "$out"
assert_eq "PID RECLAIMS COMMAND" "$(sed -n 2p <<<"$out" | tr -s ' ' | sed 's/^ //')" "stalls -o: the header in its order"
grep -qE "^ *($hog1|$hog2) +[1-9][0-9]* +memhog\$" <<<"$out" && ok "stalls -o: a hog's row, with its reclaims" ||
	fail "stalls -o: no row of a hog (pids $hog1 $hog2) with reclaims"
# both views are checked: the rest of the hogs' passes and hold would only take time
stop_hogs

echo 0 >/proc/sys/kernel/task_delayacct
assert_rc 1 "stalls with task_delayacct=0 says so" -- reclaimctl stalls -i 1
assert_rc 0 "stalls --enable" -- reclaimctl stalls -i 1 --enable
assert_file_eq /proc/sys/kernel/task_delayacct 0 "--enable turned delay accounting off again"
reclaimctl stalls -i 30 --enable &
stalls_pid=$!
wait_for 5 "stalls --enable turned delay accounting on" -- grep -q 1 /proc/sys/kernel/task_delayacct || true
kill -INT "$stalls_pid"
wait "$stalls_pid" || true
assert_file_eq /proc/sys/kernel/task_delayacct 0 "off again after Ctrl-C"
echo 1 >/proc/sys/kernel/task_delayacct

step "3. record while a hog runs, a knob changes; report"
[[ -d /sys/kernel/tracing/events ]] || mount -t tracefs nodev /sys/kernel/tracing || die "cannot mount tracefs"
size=$(($(mem_avail_mb) + extra_mb))
reclaimctl record -i 1 --latency --file /tmp/run.jsonl -- memhog -q -m "$size" -p 1 &
rec=$!
sleep 4
assert_rc 0 "reclaimctl set threads 2 during the recording" -- reclaimctl set threads 2
wait "$rec" || fail "record exited $?"
reclaimctl set threads 1 >/dev/null || fail "set threads 1"
log "record file: $(wc -l </tmp/run.jsonl) lines, $(wc -c </tmp/run.jsonl) bytes"
head -c 600 /tmp/run.jsonl
echo
grep '"type":"event"' /tmp/run.jsonl || true
tail -n 1 /tmp/run.jsonl
grep -q '"event":"knob","knob":"kswapd_threads","old":1,"new":2' /tmp/run.jsonl &&
	ok "the knob change is an event line" || fail "no kswapd_threads event in the record"
grep -q '"type":"end".*"reason":"command".*"exit_status":0' /tmp/run.jsonl &&
	ok "the end line has the hog's exit status 0" || fail "no end line with exit status 0"
assert_gt "$(grep -c '"type":"sample"' /tmp/run.jsonl)" 4 "samples"
assert_gt "$(int "$(json_max /tmp/run.jsonl pgscan_direct)")" 0 "recorded direct reclaim"
assert_eq "" "$(ls -d /sys/kernel/tracing/instances/reclaimctl-* 2>/dev/null)" "record --latency left no tracefs instance"
# the direct reclaims of the recording: its latency buckets and its allocstall counters,
# from the first sample to the last
counts=$(awk '/"type":"sample"/ {
	n = 0; s = $0
	if (match(s, /"direct":\{[^}]*"buckets":\{[^}]*\}/)) {
		b = substr(s, RSTART, RLENGTH); sub(/.*"buckets":\{/, "", b); sub(/\}$/, "", b)
		k = split(b, kv, ","); for (i = 1; i <= k; i++) { split(kv[i], p, ":"); n += p[2] }
	}
	a = 0; t = s
	while (match(t, /"allocstall_[a-z0-9]+":[0-9]+/)) {
		v = substr(t, RSTART, RLENGTH); sub(/.*:/, "", v); a += v; t = substr(t, RSTART + RLENGTH)
	}
	if (!seen++) { n0 = n; a0 = a }
	n1 = n; a1 = a
} END { print n1 - n0, a1 - a0 }' /tmp/run.jsonl)
traced=${counts% *} stalled=${counts#* }
log "FIGURES: record --latency: $traced direct reclaims traced, allocstall $stalled; p99 at most $(json_max /tmp/run.jsonl direct_p99_us) us, longest $(json_max /tmp/run.jsonl direct_max_us) us"
assert_gt "$stalled" 0 "the hog direct-reclaimed during the recording"
if awk -v t="$traced" -v s="$stalled" 'BEGIN { exit !(t >= 0.95 * s && t <= 1.05 * s) }'; then
	ok "the recording's traced direct reclaims are its allocstall delta, within 5% ($traced, $stalled)"
else
	fail "the recording's traced direct reclaims are not its allocstall delta within 5%: $traced, $stalled"
fi
assert_gt "$(int "$(json_max /tmp/run.jsonl direct_p99_us)")" 0 "recorded the direct reclaims' p99"
assert_rc 0 "reclaimctl report" -- reclaimctl report /tmp/run.jsonl --html /tmp/report.html
assert_eq 6 "$(grep -c '<svg class="chart"' /tmp/report.html)" "6 charts"
points=$(grep -o 'data-series="pgscan_direct" data-points="[0-9]*' /tmp/report.html | grep -o '[0-9]*$')
assert_gt "${points:-0}" 3 "the direct scan chart has points"
points=$(grep -o 'data-series="direct_p99_us" data-points="[0-9]*' /tmp/report.html | grep -o '[0-9]*$')
assert_gt "${points:-0}" 3 "the latency chart has points"
echo "RECLAIMCTL-VM-FILE-BEGIN run.jsonl.gz.b64"
gzip -c /tmp/run.jsonl | base64
echo "RECLAIMCTL-VM-FILE-END run.jsonl.gz.b64"

step "after"
show_memory
check_dmesg_clean
