#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# latency: reclaimctl latency counts what the kernel does, and leaves nothing
# behind in tracefs.
#  - tracefs not mounted, or run without root: one line saying so, exit 1;
#  - a hog bound to node 1 (128 MiB, zram swap) direct-reclaims; stopped
#    (SIGSTOP) while latency starts and ends, it runs 5 s in between: the
#    direct reclaims latency counts are the allocstall delta of /proc/vmstat
#    over that window, exactly (no other task reclaims), and their total
#    time is the hog's reclaim delay in taskstats (reclaimctl stalls) over
#    the same window, within 10%;
#  - with the throttle at 1 and three hogs, throttle waits are counted, with
#    durations; at 0 there are none;
#  - the instance goes with the run: after -d, SIGINT, SIGTERM, SIGHUP and
#    SIGPIPE ("latency -i 1 -d 0 | head -1") none is left; after kill -9 one
#    is, and the next run removes it and says so.
# The figures are printed.
#
# vm-timeout: 300
# vm-numa: 128M:0 128M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
T=/sys/kernel/tracing
# the instances of reclaimctl latency runs
instances() {
	local d
	for d in "$T"/instances/reclaimctl-latency-*; do [[ ! -e $d ]] || echo "${d##*/}"; done
}
has_instance() { [[ -n $(instances) ]]; }
allocstall() { awk '$1 ~ /^allocstall_/ { s += $2 } END { print s + 0 }' /proc/vmstat; }
allocstall_above() { (($(allocstall) > $1)); }
ljson() { jsonq "$1" ".kinds[$2].$3"; }
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
assert_eq $'Reclaim latency over 1.0 s (each figure is the upper end of its log2 bucket):\nReclaim latency over 1.0 s (each figure is the upper end of its log2 bucket):\nReclaim latency over 2.0 s in all (each figure is the upper end of its log2 bucket):' "$out" "-i 1 -d 2: two intervals of 1 s, then the run"
assert_eq "" "$(instances)" "no instance left"
# the columns (tests/cli/check-columns.py cannot run latency)
assert_eq "KIND COUNT P50_US P90_US P99_US MAX_US TOTAL_MS DROPPED" "$(reclaimctl latency -d 0.2 --output-all -r | head -1)" "--output-all: every column, in order"
assert_eq "P99_US" "$(reclaimctl latency -d 0.2 -o p99_us -r | head -1)" "-o p99_us: that column alone"
assert_eq "direct memcg throttle" "$(reclaimctl latency -d 0.2 -o KIND -n | xargs)" "-o KIND -n: the kinds, rows alone"

step "direct reclaims counted: latency against allocstall"
echo 0 >"$KNOB_THROTTLE"
# the hog's own account of its reclaim time: taskstats (stalls)
echo 1 >/proc/sys/kernel/task_delayacct
swap=$(zram_swap 384M)
memhog -N 1 -m 192 -p 1000 -q &
hog=$!
HOGS+=("$hog")
wait_for 60 "the hog direct-reclaims" -- allocstall_above $(($(allocstall) + 20)) || die "the hog does not direct-reclaim (allocstall $(allocstall), pswpout $(vmstat pswpout))"
kill -STOP "$hog"
d0=$(hog_reclaim_us)
reclaimctl latency -d 0 --json --histogram >/tmp/lat.json 2>/tmp/lat.err &
lat=$!
wait_for 20 "latency's instance" -- has_instance || die "no instance appeared: $(cat /tmp/lat.err)"
sleep 1
a0=$(allocstall)
kill -CONT "$hog"
sleep 5
kill -STOP "$hog"
sleep 1
a1=$(allocstall)
d1=$(hog_reclaim_us)
kill -INT "$lat"
wait "$lat" && rc=0 || rc=$?
kill -CONT "$hog"
assert_eq 0 "$rc" "latency ends on SIGINT with exit 0"
cat /tmp/lat.err
jsonq -e /tmp/lat.json || die "latency's output is not JSON: $(cat /tmp/lat.json)"
count=$(ljson /tmp/lat.json 0 count)
total=$(ljson /tmp/lat.json 0 total_ms)
p50=$(ljson /tmp/lat.json 0 p50_us)
log "FIGURES: direct reclaims: latency $count, allocstall $((a1 - a0)); total ${total} ms, p50 <= $p50 us, p90 <= $(ljson /tmp/lat.json 0 p90_us) us, p99 <= $(ljson /tmp/lat.json 0 p99_us) us, max <= $(ljson /tmp/lat.json 0 max_us) us; histogram $(ljson /tmp/lat.json 0 histogram)"
assert_eq direct "$(ljson /tmp/lat.json 0 kind)" "the first kind is direct reclaim"
assert_gt "$((a1 - a0))" 0 "the hog direct-reclaimed in the window"
assert_eq "$((a1 - a0))" "$count" "latency counted every direct reclaim allocstall counted"
if awk -v t="$total" 'BEGIN { exit !(t > 0) }'; then ok "their total time is above 0"; else fail "their total time is $total ms"; fi
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

step "throttle waits: limit 1 with three hogs, then 0"
for limit in 1 0; do
	echo "$limit" >"$KNOB_THROTTLE"
	for i in 1 2 3; do
		memhog -N 1 -m 80 -p 1000 -q &
		HOGS+=($!)
	done
	sleep 2
	reclaimctl latency -d 5 --json >/tmp/lat.json || fail "latency -d 5 failed"
	stop_hogs
	waits=$(ljson /tmp/lat.json 2 count)
	log "FIGURES: throttle at $limit: $waits waits, total $(ljson /tmp/lat.json 2 total_ms) ms, max <= $(ljson /tmp/lat.json 2 max_us) us; direct reclaims $(ljson /tmp/lat.json 0 count)"
	assert_eq throttle "$(ljson /tmp/lat.json 2 kind)" "the third kind is the throttle"
	if ((limit == 1)); then
		assert_gt "$waits" 0 "throttle at 1: tasks waited"
	else
		assert_eq 0 "$waits" "throttle at 0: no task waited"
	fi
done
swapoff "$swap" || fail "swapoff $swap failed"
assert_eq "" "$(instances)" "no instance left after -d"

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
check_dmesg_clean
