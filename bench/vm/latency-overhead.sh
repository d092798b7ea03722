#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# latency-overhead: what reclaimctl latency costs the workload it measures.
# A fixed reclaim-heavy load (memhog: 192 MiB on a 128 MiB node, into zram
# swap, LOAD_PASSES passes) runs ROUNDS times with tracing off and ROUNDS
# times with `reclaimctl latency -i 1` running, alternately. Per round: the
# load's wall time, the CPU time the whole guest spent (/proc/stat, every
# CPU, idle and iowait left out: the hist triggers run in the tasks that
# reclaim and in kswapd, not in latency), the waits latency measured (direct
# reclaims, throttle waits and kswapd runs: each is two events, its begin and
# its end, or one for the throttle), latency's own CPU time and peak
# resident memory. Prints a FIGURES line per round and a SUMMARY of the
# medians: the load's slowdown, and the guest CPU tracing added per wait.
# Run by hand through tests/vm/run-scenario.sh, not by the test suite
# (bench/README.md).
#
# vm-timeout: 1800
# vm-tcg: multi
# vm-numa: 128M:0 128M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../../tests/vm/guest/lib.sh
source /vm/lib.sh

rounds=${ROUNDS:-4}
passes=${LOAD_PASSES:-3}
[[ -d /sys/kernel/tracing/events ]] || mount -t tracefs nodev /sys/kernel/tracing
dev=$(zram_swap 384M)
log "swap on $dev; $(mem_avail_mb) MiB available; $rounds rounds each, $passes passes"

# seconds since boot, to the hundredth (busybox's date has no %N)
uptime_s() { awk '{ print $1 }' /proc/uptime; }
# busy: the guest's non-idle time so far, in ticks of USER_HZ
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
# the CPU seconds and peak RSS (KiB) of process $1
proc_cpu() { awk -v hz="$hz" '{ printf "%.3f\n", ($14 + $15) / hz }' "/proc/$1/stat"; }
proc_hwm() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

round() {
	local mode=$1 t0 t1 b0 b1 lat= events=0 cpu=0 hwm=0 i
	if [[ $mode == on ]]; then
		reclaimctl latency -i 1 -d 0 --json >/tmp/lat.json 2>/tmp/lat.err &
		lat=$!
		has_instance() { [[ -n $(ls /sys/kernel/tracing/instances/) ]]; }
		wait_for 20 "latency's instance" -- has_instance || die "latency did not start: $(cat /tmp/lat.err)"
	fi
	sync
	echo 1 >/proc/sys/vm/drop_caches
	b0=$(busy)
	t0=$(uptime_s)
	memhog -N 1 -m 192 -p "$passes" -q || die "memhog failed"
	t1=$(uptime_s)
	b1=$(busy)
	if [[ -n $lat ]]; then
		cpu=$(proc_cpu "$lat")
		hwm=$(proc_hwm "$lat")
		kill -INT "$lat"
		wait "$lat" || die "latency failed: $(cat /tmp/lat.err)"
		# the run's document is the last of the file
		i=$(awk '/^[{]/ { n++ } END { print n }' /tmp/lat.json)
		events=$(awk -v want="$i" '/^[{]/ { n++ } n == want' /tmp/lat.json |
			jsonq -f - .kinds | awk -F= '$1 ~ /\.count$/ { s += $2 } END { print s }')
	fi
	awk -v m="$mode" -v t0="$t0" -v t1="$t1" -v b="$((b1 - b0))" -v hz="$hz" -v e="$events" \
		-v c="$cpu" -v h="$hwm" 'BEGIN {
		printf "FIGURES: %s wall=%.3f cpu=%.3f waits=%d latency_cpu=%s latency_hwm_kb=%s\n",
			m, t1 - t0, b / hz, e, c, h }'
}

for ((r = 1; r <= rounds; r++)); do
	round off
	round on
done | tee /tmp/rounds
# field N (key=value) of the rounds in mode M, their median
med() { awk -v m="$1" -v n="$2" '$2 == m { split($n, a, "="); print a[2] }' /tmp/rounds | median; }
wall_off=$(med off 3) wall_on=$(med on 3) cpu_off=$(med off 4) cpu_on=$(med on 4) waits=$(med on 5)
log "SUMMARY: tracing off: load $wall_off s, guest CPU $cpu_off s; latency on: load $wall_on s, guest CPU $cpu_on s, $waits waits measured (medians of $rounds rounds)"
awk -v wf="$wall_off" -v wn="$wall_on" -v cf="$cpu_off" -v cn="$cpu_on" -v w="$waits" 'BEGIN {
	printf "SUMMARY: the load took %+.1f%% with latency on; the guest spent %+.1f us of CPU per wait measured\n",
		(wn - wf) * 100 / wf, w ? (cn - cf) * 1e6 / w : 0 }'
awk '$2 == "on" { split($5, e, "="); split($6, c, "="); split($7, h, "="); w += e[2]; cpu += c[2]; if (h[2] > hwm) hwm = h[2] }
	END { printf "SUMMARY: latency itself (its reads, every second): %.1f us of CPU per wait, peak RSS %d KiB\n", w ? cpu * 1e6 / w : 0, hwm }' /tmp/rounds
swapoff "$dev"
ok "measured"
