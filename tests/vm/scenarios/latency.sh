#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# latency: reclaimctl latency counts what the kernel does, and leaves nothing
# behind in tracefs.
#  - tracefs not mounted, or run without root: one line saying so, exit 1;
#  - a hog bound to node 1 (128 MiB, zram swap) direct-reclaims; stopped
#    (SIGSTOP) while latency starts and ends, it runs 5 s in between: the
#    direct reclaims latency counts are the allocstall delta of /proc/vmstat
#    over that window, exactly (no other task reclaims; with those out of
#    range, a duration below 0 when the clock went back), and their total
#    time is the hog's reclaim delay in taskstats (reclaimctl stalls) over
#    the same window, within 10%; a second run at the same time with
#    --per-task counts as many, and has the hog as the one task, with its
#    kinds' count, total and longest (exact, and in the top bucket of the
#    first run's histogram), and its cgroup;
#  - with the throttle at 1 and three hogs, throttle waits are counted, with
#    durations, as many as direct_reclaim_throttled counts over the same
#    window (but for the hogs' waits under way at its ends: passes through
#    the throttle that did not wait are not waits); at 0 there are none;
#  - kswapd runs per thread: with vm.kswapd_threads 1, node 1's runs are
#    kswapd1's alone; with 4, more than one of its threads ran, each a
#    thread of node 1 that reclaimctl threads lists; the threads' runs add
#    up to the kind's count; a text run at the same time shows the tasks'
#    columns and the same threads;
#  - the same figures elsewhere, under a hog: monitor --latency has the
#    direct reclaims' p99 and longest and the throttle's p99 in each line,
#    none null; latency --prometheus has the catalogue's three families,
#    histograms of cumulative buckets whose +Inf is the _count; latency
#    --textfile writes them to its file each interval, and on SIGTERM
#    removes the file and the instance; monitor --latency | head -1 leaves
#    no instance;
#  - sweep threads=1,4 throttle=1 --latency of a hog (two runs: the columns
#    of both kinds of wait, not a measurement): the table has the
#    latency's columns, in us for every value; each run's summary has
#    the hog's direct reclaim p99; the report has the latency chart;
#  - the instance goes with the run: after -d, SIGINT, SIGTERM, SIGHUP and
#    SIGPIPE ("latency -i 1 -d 0 | head -1") none is left; after kill -9 one
#    is, and the next run removes it and says so; when a file of the
#    instance is held open as the run ends, it says in one line that it
#    cannot remove it (exit 1), and the next run removes it.
# The figures are printed.
#
# vm-timeout: 600
# vm-lockdep: off
# vm-numa: 128M:0 128M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
T=$TRACEFS
instances() { latency_instances; }
has_instance() { [[ -n $(instances) ]]; }
armed() { latency_armed "$@"; }
# kswapd has run since pageoutrun was $1 (its primary thread counts each run)
pageoutrun_above() { (($(vmstat pageoutrun) > $1)); }
ljson() { jsonq "$1" ".kinds[$2].$3"; }
tjson() { jsonq "$1" ".tasks[$2].$3"; }
# tasks FILE KIND: "PID COMM COUNT TOTAL_MS MAX_US CGROUP" of each task of KIND in a --per-task document
tasks_of() {
	local i=0 kind
	while kind=$(tjson "$1" "$i" kind 2>/dev/null) && [[ -n $kind ]]; do
		[[ $kind != "$2" ]] || echo "$(tjson "$1" "$i" pid) $(tjson "$1" "$i" comm) $(tjson "$1" "$i" count) $(tjson "$1" "$i" total_ms) $(tjson "$1" "$i" max_us) $(tjson "$1" "$i" cgroup)"
		i=$((i + 1))
	done
}
# hog_reclaim_us: the hog's time in direct reclaim since it started
# (microseconds), from reclaimctl stalls (taskstats)
hog_reclaim_us() {
	reclaimctl stalls -i 0 -t 1000 --json | jsonq -f - .tasks | awk -F= -v pid="$hog" '
		$1 ~ /\.pid$/ && $2 == pid { split($1, p, "]"); want = p[1] }
		{ split($1, p, "]") }
		$1 ~ /\.reclaim\.delay_ms$/ { ms[p[1]] = $2 }
		END { printf "%d\n", ms[want] * 1000 }'
}

step "errors: tracefs not mounted, not root"
if [[ -d $T/events ]]; then umount "$T" || die "cannot unmount tracefs"; fi
out=$(reclaimctl latency -d 1 2>&1) && rc=0 || rc=$?
log "$out"
assert_eq 1 "$rc" "latency without tracefs exits 1"
assert_eq 1 "$(wc -l <<<"$out")" "one line"
assert_match "tracefs is not mounted: mount it with 'mount -t tracefs tracefs /sys/kernel/tracing'" "$out" "it says how to mount tracefs"
mount -t tracefs nodev "$T" || die "cannot mount tracefs"
out=$(su -s /bin/sh nobody -c 'reclaimctl latency -d 1' 2>&1) && rc=0 || rc=$?
log "$out"
assert_eq 1 "$rc" "latency as nobody exits 1"
assert_eq 1 "$(wc -l <<<"$out")" "one line"
assert_match "needs root" "$out" "it says root is needed"
assert_eq "" "$(instances)" "no instance left"

step "a run of 1 s, idle"
assert_rc 0 "latency -d 1" -- reclaimctl latency -d 1 --histogram
out=$(reclaimctl latency -i 1 -d 2 | grep '^Reclaim latency over')
log "$out"
assert_eq $'Reclaim latency over 1.0 s (percentiles are the upper end of their log2 bucket, at most the longest):\nReclaim latency over 1.0 s (percentiles are the upper end of their log2 bucket, at most the longest):\nReclaim latency over 2.0 s in all (percentiles are the upper end of their log2 bucket, at most the longest):' "$out" "-i 1 -d 2: two intervals of 1 s, then the run"
assert_eq "" "$(instances)" "no instance left"
# the columns (tests/cli/check-columns.py cannot run latency)
assert_eq "KIND COUNT P50_US P90_US P99_US MAX_US TOTAL_MS DROPPED" "$(reclaimctl latency -d 0.2 --output-all -r | head -1)" "--output-all: every column, in order"
assert_eq "P99_US" "$(reclaimctl latency -d 0.2 -o p99_us -r | head -1)" "-o p99_us: that column alone"
assert_eq "direct memcg throttle kswapd" "$(reclaimctl latency -d 0.2 -o KIND -n | xargs)" "-o KIND -n: the kinds, rows alone"

step "direct reclaims counted: latency against allocstall"
echo 0 >"$KNOB_THROTTLE"
# the hog's own account of its reclaim time: taskstats (stalls)
echo 1 >/proc/sys/kernel/task_delayacct
swap=$(zram_swap 384M)
memhog -N 1 -m 192 -p 1000 -q &
hog=$!
HOGS+=("$hog")
# its cgroup, for --per-task (v2's hierarchy shows in /proc/PID/cgroup once mounted)
mkdir -p /sys/fs/cgroup
mount -t cgroup2 none /sys/fs/cgroup || die "cannot mount cgroup2"
mkdir /sys/fs/cgroup/latency-hog
echo "$hog" >/sys/fs/cgroup/latency-hog/cgroup.procs
wait_for 60 "the hog direct-reclaims" -- allocstall_above $(($(allocstall) + 20)) || die "the hog does not direct-reclaim (allocstall $(allocstall), pswpout $(vmstat pswpout))"
kill -STOP "$hog"
d0=$(hog_reclaim_us)
reclaimctl latency -d 0 --json --histogram >/tmp/lat.json 2>/tmp/lat.err &
lat=$!
reclaimctl latency -d 0 --json --per-task=100 >/tmp/lat-tasks.json 2>>/tmp/lat.err &
lat_tasks=$!
wait_for 20 "the two runs' tracing" -- armed 2 || die "no two instances with their triggers appeared: $(instances) $(cat /tmp/lat.err)"
read -r a0 a1 < <(latency_window "$hog")
d1=$(hog_reclaim_us)
kill -INT "$lat" "$lat_tasks"
wait "$lat" && rc=0 || rc=$?
wait "$lat_tasks" && rc_tasks=0 || rc_tasks=$?
kill -CONT "$hog"
assert_eq 0 "$rc" "latency ends on SIGINT with exit 0"
assert_eq 0 "$rc_tasks" "latency --per-task ends on SIGINT with exit 0"
cat /tmp/lat.err
jsonq -e /tmp/lat.json || die "latency's output is not JSON: $(cat /tmp/lat.json)"
count=$(ljson /tmp/lat.json 0 count)
total=$(ljson /tmp/lat.json 0 total_ms)
p50=$(ljson /tmp/lat.json 0 p50_us)
log "FIGURES: direct reclaims: latency $count, allocstall $((a1 - a0)); total ${total} ms, p50 <= $p50 us, p90 <= $(ljson /tmp/lat.json 0 p90_us) us, p99 <= $(ljson /tmp/lat.json 0 p99_us) us, max <= $(ljson /tmp/lat.json 0 max_us) us; histogram $(ljson /tmp/lat.json 0 histogram)"
assert_eq direct "$(ljson /tmp/lat.json 0 kind)" "the first kind is direct reclaim"
p99=$(ljson /tmp/lat.json 0 p99_us) max=$(ljson /tmp/lat.json 0 max_us)
assert_le "$p99" "$max" "p99 is at most the longest"
assert_gt "$((a1 - a0))" 0 "the hog direct-reclaimed in the window"
# a duration below 0 (the clock went back between CPUs) is counted out of range, apart
dropped=$(ljson /tmp/lat.json 0 dropped)
log "FIGURES: direct reclaims out of range: $dropped"
assert_eq "$((a1 - a0))" "$((count + dropped))" "latency counted every direct reclaim allocstall counted (in range and out)"
if awk -v t="$total" 'BEGIN { exit !(t > 0) }'; then ok "their total time is above 0"; else fail "their total time is $total ms"; fi
jsonq -e /tmp/lat-tasks.json || die "latency --per-task's output is not JSON: $(cat /tmp/lat-tasks.json)"
direct_tasks=$(tasks_of /tmp/lat-tasks.json direct)
log "FIGURES: direct reclaim per task (PID COMM COUNT TOTAL_MS MAX_US CGROUP): $direct_tasks"
assert_eq "$((count + dropped))" "$(($(ljson /tmp/lat-tasks.json 0 count) + $(ljson /tmp/lat-tasks.json 0 dropped)))" "the run with --per-task counted as many direct reclaims (in range and out)"
assert_eq "$hog memhog $(ljson /tmp/lat-tasks.json 0 count) $(ljson /tmp/lat-tasks.json 0 total_ms) $(ljson /tmp/lat-tasks.json 0 max_us) /latency-hog" "$direct_tasks" "--per-task: the hog alone, with its kinds' count, total and longest, and its cgroup"
top=$(ljson /tmp/lat.json 0 "histogram[$(($(jsonq -l /tmp/lat.json .kinds[0].histogram) - 1))].le_us")
max=$(ljson /tmp/lat.json 0 max_us)
if ((max <= top && 2 * max > top)); then ok "the longest, $max us, is in the top bucket (up to $top us)"; else fail "the longest, $max us, is not in the top bucket, up to $top us"; fi
delay=$(((d1 - d0) / 1000))
log "FIGURES: the hog's direct reclaim time: latency $total ms, taskstats $delay ms"
if awk -v t="$total" -v d="$delay" 'BEGIN { exit !(t >= 0.9 * d && t <= 1.1 * d) }'; then
	ok "the total is the hog's reclaim delay of taskstats, within 10% ($total ms, $delay ms)"
else
	fail "the total is the hog's reclaim delay of taskstats within 10%: $total ms against $delay ms"
fi
assert_eq "" "$(instances)" "no instance left after SIGINT"
# the table and histograms under the hog, for the transcript
assert_rc 0 "latency -d 3 --histogram under the hog" -- reclaimctl latency -d 3 --histogram
stop_hogs

step "the same figures in monitor, and as Prometheus histograms"
memhog -N 1 -m 192 -p 1000 -q &
HOGS+=($!)
wait_for 60 "the hog direct-reclaims" -- allocstall_above $(($(allocstall) + 20)) || die "the hog does not direct-reclaim"
bounded 60 reclaimctl monitor --latency -i 1 -c 4 --json >/tmp/mon.json 2>/tmp/mon.err && rc=0 || rc=$?
assert_eq 0 "$rc" "monitor --latency -c 4 exits 0 ($(cat /tmp/mon.err))"
assert_eq "" "$(instances)" "monitor --latency left no instance"
p99s=$(awk -F'"direct_p99_us":' 'NF > 1 { v = $2; sub(/[,}].*/, "", v); printf "%s ", v }' /tmp/mon.json)
maxes=$(awk -F'"direct_max_us":' 'NF > 1 { v = $2; sub(/[,}].*/, "", v); printf "%s ", v }' /tmp/mon.json)
thr=$(awk -F'"throttle_p99_us":' 'NF > 1 { v = $2; sub(/[,}].*/, "", v); printf "%s ", v }' /tmp/mon.json)
log "FIGURES: monitor --latency: direct p99 $p99s us; longest $maxes us; throttle p99 $thr us"
assert_eq 4 "$(wc -w <<<"$p99s")" "four lines, each with the direct reclaims' p99"
assert_eq "" "$(grep -o null <<<"$p99s $maxes $thr")" "none of them null (the patched kernel has every kind)"
assert_gt "$(tr ' ' '\n' <<<"$p99s" | sort -n | tail -1)" 0 "the hog's direct reclaims have a p99"
# each line's p99 is at most its longest, which is at least its p99's bucket's lower end
bad=$(paste <(tr ' ' '\n' <<<"$p99s") <(tr ' ' '\n' <<<"$maxes") | awk 'NF == 2 && ($2 * 2 < $1 || $1 > $2) { print }')
assert_eq "" "$bad" "no interval's p99 above its longest, nor its longest below the lower end of its p99's bucket"
reclaimctl latency -d 3 --prometheus >/tmp/prom.txt 2>/tmp/prom.err && rc=0 || rc=$?
assert_eq 0 "$rc" "latency --prometheus exits 0 ($(cat /tmp/prom.err))"
head -n 40 /tmp/prom.txt
assert_eq "reclaim_direct_reclaim_seconds histogram reclaim_direct_reclaim_longest_seconds gauge reclaim_throttle_wait_seconds histogram" \
	"$(awk '/^# TYPE/ { printf "%s%s %s", n++ ? " " : "", $3, $4 }' /tmp/prom.txt)" "the catalogue's latency families, typed"
for h in reclaim_direct_reclaim_seconds reclaim_throttle_wait_seconds; do
	# cumulative buckets, +Inf last and equal to _count
	check=$(awk -v h="$h" '
		index($0, h "_bucket{") == 1 { if ($2 < last) bad = bad " " $1; last = $2; n++; inf = $2 }
		index($0, h "_count ") == 1 { count = $2 }
		END { printf "%d %s %s%s", n, inf, count, bad }' /tmp/prom.txt)
	log "$h: buckets, +Inf, _count: $check"
	read -r nb inf cnt rest <<<"$check"
	assert_eq "27 $inf" "$nb $cnt" "$h: 27 cumulative buckets (1 us to 2^25 us, +Inf), +Inf equal to _count"
	assert_eq "" "${rest:-}" "$h: no bucket below the one before"
done
n=$(awk '/^reclaim_direct_reclaim_seconds_count / { print $2 }' /tmp/prom.txt)
assert_gt "$n" 0 "the hog's direct reclaims are in the histogram"
mkdir -p /tmp/textfile
reclaimctl latency --textfile /tmp/textfile -i 1 2>/tmp/tf.err &
tf=$!
wait_for 20 "latency --textfile wrote its file" -- test -s /tmp/textfile/reclaimctl-latency.prom || fail "no textfile: $(cat /tmp/tf.err)"
sleep 1.5
assert_eq "3" "$(grep -c '^# TYPE' /tmp/textfile/reclaimctl-latency.prom)" "the textfile has the three families"
kill -TERM "$tf"
wait "$tf" && rc=0 || rc=$?
assert_eq 0 "$rc" "latency --textfile ends on SIGTERM with exit 0"
assert_eq "" "$(ls -A /tmp/textfile)" "it removed its file (and left no temporary one)"
assert_eq "" "$(instances)" "and its instance"
assert_rc 0 "monitor --latency as text, for the transcript" -- reclaimctl monitor --latency -i 1 -c 3
rc=$(reclaimctl monitor --latency -i 0.5 | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}")
assert_eq 141 "$rc" "monitor --latency | head -1: it ended by SIGPIPE, as a pipeline's writer does"
assert_eq "" "$(instances)" "monitor --latency | head -1 left no instance"
stop_hogs

step "sweep --latency: the columns and the report's chart"
rm -rf /tmp/lsweep
reclaimctl sweep -i 0.5 --latency --dir /tmp/lsweep threads=1,4 throttle=1 -- \
	memhog -N 1 -m 136 -p 0 -q >/tmp/lsweep.out 2>/tmp/lsweep.err && rc=0 || rc=$?
cat /tmp/lsweep.out
assert_eq 0 "$rc" "sweep --latency exits 0 ($(tail -n 1 /tmp/lsweep.err))"
# the table: after the runs' lines, its header, then a line a value
# the latency's columns, wherever the catalogue puts them, and each value's numbers under them
lat_cols='$1 == "VALUE" { for (i = 1; i <= NF; i++) if ($i ~ /^(DIRECT_P99|DIRECT_MAX|THROTTLE_P99)$/) c[++n] = i }'
assert_eq "DIRECT_P99 DIRECT_MAX THROTTLE_P99" "$(awk "$lat_cols"' n { print $c[1], $c[2], $c[3]; exit }' /tmp/lsweep.out)" "the table has the latency's columns"
assert_eq 2 "$(awk "$lat_cols"' seen && NF && $c[1] ~ /^[0-9]+$/ && $c[2] ~ /^[0-9]+$/ && $c[3] ~ /^[0-9]+$/ { k++ } $1 == "VALUE" { seen = 1 } END { print k + 0 }' /tmp/lsweep.out)" "each of the 2 values has them, in us"
json_load /tmp/lsweep/summary.json || fail "summary.json is not JSON"
for i in 0 1; do
	p99=$(jv ".runs[$i].figures.direct_p99_us")
	log "FIGURES: sweep run $((i + 1)) ($(jv ".runs[$i].knobs.kswapd_threads") threads, throttle $(jv ".runs[$i].knobs.max_direct_reclaimers")): direct p99 $p99 us, longest $(jv ".runs[$i].figures.direct_max_us") us, throttle p99 $(jv ".runs[$i].figures.throttle_p99_us") us"
	assert_gt "$(int "$p99")" 0 "run $((i + 1)): the hog's direct reclaims have a p99"
	assert_le "$(int "$p99")" "$(int "$(jv ".runs[$i].figures.direct_max_us")")" "run $((i + 1)): its p99 is at most its longest"
done
assert_gt "$(grep -c '<svg class="chart" data-chart="latency"' /tmp/lsweep/report.html)" 0 "sweep's report has the latency chart"
assert_eq "" "$(instances)" "sweep --latency left no instance"

step "throttle waits: limit 1 with three hogs, then 0"
for limit in 1 0; do
	echo "$limit" >"$KNOB_THROTTLE"
	hogs=()
	for i in 1 2 3; do
		memhog -N 1 -m 80 -p 1000 -q &
		hogs+=($!)
		HOGS+=($!)
	done
	sleep 2
	# the hogs stopped while the run starts and ends (a wait under way then
	# is counted by the kernel at its start, by latency at its end: up to 3)
	kill -STOP "${hogs[@]}"
	reclaimctl latency -d 0 --json >/tmp/lat.json 2>/tmp/lat.err &
	lat=$!
	wait_for 20 "the run's tracing" -- armed 1 || die "no instance with its triggers: $(cat /tmp/lat.err)"
	t0=$(vmstat direct_reclaim_throttled)
	kill -CONT "${hogs[@]}"
	sleep 5
	kill -STOP "${hogs[@]}"
	sleep 1
	t1=$(vmstat direct_reclaim_throttled)
	kill -INT "$lat"
	wait "$lat" || fail "latency exited $? on SIGINT: $(cat /tmp/lat.err)"
	kill -CONT "${hogs[@]}"
	stop_hogs
	waits=$(ljson /tmp/lat.json 2 count)
	dropped=$(ljson /tmp/lat.json 2 dropped)
	log "FIGURES: throttle at $limit: $waits waits ($dropped out of range), direct_reclaim_throttled $((t1 - t0)); total $(ljson /tmp/lat.json 2 total_ms) ms, max <= $(ljson /tmp/lat.json 2 max_us) us; direct reclaims $(ljson /tmp/lat.json 0 count)"
	assert_eq throttle "$(ljson /tmp/lat.json 2 kind)" "the third kind is the throttle"
	diff=$((waits + dropped - (t1 - t0)))
	if ((diff >= -3 && diff <= 3)); then
		ok "throttle at $limit: latency's waits are direct_reclaim_throttled's, but for the 3 hogs' waits under way ($((waits + dropped)), $((t1 - t0)))"
	else
		fail "throttle at $limit: latency counted $((waits + dropped)) waits, direct_reclaim_throttled $((t1 - t0))"
	fi
	if ((limit == 1)); then
		assert_gt "$waits" 0 "throttle at 1: tasks waited"
	else
		assert_eq 0 "$waits" "throttle at 0: no task waited"
	fi
done
swapoff "$swap" || fail "swapoff $swap failed"
assert_eq "" "$(instances)" "no instance left after -d"

step "kswapd runs per thread: 1 and 4 threads"
swap=$(zram_swap 384M)
for threads in 1 4; do
	echo "$threads" >"$KNOB_THREADS"
	reclaimctl latency -d 0 --json --per-task=100 >/tmp/lat-tasks.json 2>/tmp/lat.err &
	lat_tasks=$!
	reclaimctl latency -d 0 --per-task --output-all >/tmp/lat.txt 2>>/tmp/lat.err &
	lat=$!
	wait_for 20 "the two runs' tracing" -- armed 2 || die "no two instances with their triggers appeared: $(cat /tmp/lat.err)"
	# Each round lasts until kswapd has run (under TCG on a loaded host a
	# hog may take more than seconds to fill the node) and 1 s more.
	for _ in 1 2 3; do
		p0=$(vmstat pageoutrun)
		memhog -N 1 -m 160 -p 1 -q &
		HOGS+=($!)
		wait_for 60 "kswapd to run" -- pageoutrun_above "$p0"
		sleep 1
		stop_hogs
		sleep 1 # kswapd balances the node and sleeps: its runs end
	done
	kill -INT "$lat_tasks" "$lat"
	wait "$lat_tasks" || fail "latency --per-task failed: $(cat /tmp/lat.err)"
	wait "$lat" || fail "latency failed: $(cat /tmp/lat.err)"
	runs=$(tasks_of /tmp/lat-tasks.json kswapd)
	log "FIGURES: kswapd runs per thread with $threads threads (PID COMM COUNT TOTAL_MS MAX_US CGROUP): $(tr '\n' ' ' <<<"$runs")"
	log "FIGURES: kswapd runs with $threads threads: $(ljson /tmp/lat-tasks.json 3 count), p50 <= $(ljson /tmp/lat-tasks.json 3 p50_us) us, p99 <= $(ljson /tmp/lat-tasks.json 3 p99_us) us, max $(ljson /tmp/lat-tasks.json 3 max_us) us"
	cat /tmp/lat.txt
	assert_eq kswapd "$(ljson /tmp/lat-tasks.json 3 kind)" "the fourth kind is kswapd"
	assert_match "^Tasks that waited longest over [0-9.]+ s:$" "$(head -1 /tmp/lat.txt)" "--per-task: its title"
	assert_eq "KIND PID COMM COUNT TOTAL_MS MAX_US CGROUP" "$(sed -n 2p /tmp/lat.txt | xargs)" "--per-task --output-all: the tasks' columns, in order"
	assert_eq "$(awk '$1 == "kswapd" { print $3 }' /tmp/lat.txt | sort | xargs)" "$(awk '{ print $2 }' <<<"$runs" | sort | xargs)" "the text run shows the same kswapd threads"
	node1=$(awk '$2 ~ /^kswapd1(:[0-9]+)?$/ && $3 > 0' <<<"$runs")
	listed=$(reclaimctl threads --json | jsonq -f - .kswapd | awk -F= '$1 ~ /\.pid$/ { print $2 }' | sort -n | xargs)
	if ((threads == 1)); then
		assert_eq kswapd1 "$(awk '{ print $2 }' <<<"$node1" | sort -u | xargs)" "1 thread: node 1's runs are kswapd1's"
	else
		assert_gt "$(wc -l <<<"$node1")" 1 "4 threads: more than one of node 1's threads ran"
	fi
	while read -r pid comm _; do
		if [[ -z $pid || " $listed " == *" $pid "* ]]; then
			ok "$comm ($pid) is a kswapd thread reclaimctl threads lists"
		else
			fail "$comm ($pid) is not among reclaimctl threads' $listed"
		fi
	done <<<"$node1"
	assert_eq "$(ljson /tmp/lat-tasks.json 3 count)" "$(awk '{ s += $3 } END { print s + 0 }' <<<"$runs")" "the threads' runs add up to the kind's count"
done
echo 1 >"$KNOB_THREADS"
swapoff "$swap" || fail "swapoff $swap failed"

step "every end removes the instance"
for sig in TERM HUP; do
	reclaimctl latency -d 0 >/dev/null 2>&1 &
	lat=$!
	wait_for 20 "latency's instance" -- has_instance || die "no instance appeared"
	kill -"$sig" "$lat"
	wait "$lat" && rc=0 || rc=$?
	assert_eq 0 "$rc" "latency ends on SIG$sig with exit 0"
	assert_eq "" "$(instances)" "no instance left after SIG$sig"
done
out=$(reclaimctl latency -i 1 -d 0 | head -1; echo "rc=${PIPESTATUS[0]}")
log "through head -1: $out"
assert_match '^Reclaim latency over' "$out" "latency -i 1 | head -1 printed the title"
assert_match 'rc=141$' "$out" "latency then ended by SIGPIPE, quietly (status 141)"
no_reclaimctl() { ! pidof reclaimctl >/dev/null; }
wait_for 10 "latency ended on SIGPIPE" -- no_reclaimctl || fail "latency still runs after SIGPIPE"
assert_eq "" "$(instances)" "no instance left after SIGPIPE"
reclaimctl latency -d 0 >/dev/null 2>&1 &
lat=$!
wait_for 20 "latency's instance" -- has_instance || die "no instance appeared"
kill -KILL "$lat"
wait "$lat" || true
assert_eq "reclaimctl-latency-$lat" "$(instances)" "kill -9 left the instance"
out=$(reclaimctl latency -d 1 2>&1 >/dev/null) && rc=0 || rc=$?
log "$out"
assert_eq 0 "$rc" "the next run works"
assert_match "removed the tracefs instance of 1 earlier run" "$out" "the next run says it removed the instance"
assert_eq "" "$(instances)" "no instance left"
assert_eq "" "$(grep reclaimctl_ "$T/synthetic_events" || true)" "no synthetic event left"
# a file of the instance open (a reader of its trace_pipe, say) as the run
# ends: ended by SIGINT once its tracing is in place, since under TCG on a
# loaded host a run's setup can take longer than a short -d
reclaimctl latency -d 0 >/dev/null 2>/tmp/lat.err &
lat=$!
wait_for 20 "latency's tracing" -- armed 1 || die "no instance with its triggers appeared: $(cat /tmp/lat.err)"
exec 3<"$T/instances/reclaimctl-latency-$lat/trace_clock"
kill -INT "$lat"
wait "$lat" && rc=0 || rc=$?
log "$(cat /tmp/lat.err)"
assert_eq 1 "$rc" "latency exits 1 when it cannot remove its instance"
assert_eq 1 "$(wc -l </tmp/lat.err)" "one line"
assert_match "^reclaimctl: cannot remove the tracefs instance reclaimctl-latency-$lat: Device or resource busy \(a file of it is open\); the next run removes it$" "$(cat /tmp/lat.err)" "it says which instance, and why"
assert_eq "reclaimctl-latency-$lat" "$(instances)" "the instance stays while its file is open"
exec 3<&-
out=$(reclaimctl latency -d 0.5 2>&1 >/dev/null) && rc=0 || rc=$?
assert_eq 0 "$rc" "the next run works"
assert_match "removed the tracefs instance of 1 earlier run" "$out" "the next run removes it and says so"
assert_eq "" "$(instances)" "no instance left"
assert_eq "" "$(grep reclaimctl_ "$T/synthetic_events" || true)" "no synthetic event left"
check_dmesg_clean
