#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# latency-vs-drsnoop: what reclaimctl latency and bcc's drsnoop each cost the
# workload they measure, on the same load in the same boot. The load of
# latency-overhead.sh (memhog: 192 MiB on a 128 MiB node into zram swap,
# LOAD_PASSES passes) runs ROUNDS times in each mode, in turn: tracing off,
# `reclaimctl latency -i 1` (hist triggers in its own tracefs instance, read
# every second), `reclaimctl latency` read once at its end (the triggers'
# cost alone) and `drsnoop-bpfcc` (a BPF program on the same two
# tracepoints, one line per direct reclaim to user space). The tracers run
# on cpu0, the load on node 1, and each has started (its triggers in place,
# drsnoop's header printed) before the load starts. Per round: the load's
# wall time, the guest's busy CPU time (/proc/stat, every CPU: the tracing
# runs in the tasks that reclaim), the direct reclaims (allocstall) and
# those the tracer reported, and the tracer's own CPU time over the load.
# Prints a FIGURES line per round and a SUMMARY of the medians.
#
# Needs the test kernel with bench/vm/kernel-bpf.config and a Debian root
# with bpfcc-tools and the kernel's headers: bench/vm/drsnoop-vm.sh prepares
# both and runs this (bench/README.md). ROUNDS=N and LOAD_PASSES=N on the
# kernel command line (RECLAIMCTL_VM_APPEND) change the defaults.
#
# vm-root: debian
# vm-timeout: 3600
# vm-tcg: multi
# vm-numa: 1024M:0 128M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../../tests/vm/guest/lib.sh
source /vm/lib.sh

# NAME=VALUE of the kernel command line (systemd passes no such variable on)
param() { tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tail -n 1; }
rounds=$(param ROUNDS) passes=$(param LOAD_PASSES)
rounds=${rounds:-4} passes=${passes:-3}
modes=(off latency latency-end drsnoop)
drsnoop=$(command -v drsnoop-bpfcc) || die "no drsnoop-bpfcc in the image (bpfcc-tools)"
[[ -d /lib/modules/$(uname -r)/build/include ]] || die "no kernel headers in /lib/modules/$(uname -r)/build"
[[ -d /sys/kernel/tracing/events ]] || mount -t tracefs nodev /sys/kernel/tracing
dev=$(zram_swap 384M)
log "swap on $dev; $(mem_avail_mb) MiB available; $rounds rounds each, $passes passes"

uptime_s() { awk '{ print $1 }' /proc/uptime; }
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
allocstall() { awk '/^allocstall_/ { s += $2 } END { print s }' /proc/vmstat; }
hz=$(getconf CLK_TCK)
proc_cpu() { awk -v hz="$hz" '{ printf "%.3f\n", ($14 + $15) / hz }' "/proc/$1/stat"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# armed: latency's instance has the last trigger it adds (vm/latency.sh)
armed() {
	grep -qs onmatch /sys/kernel/tracing/instances/reclaimctl-latency-*/events/vmscan/mm_vmscan_kswapd_sleep/trigger
}
# drsnoop_ready: drsnoop has attached and printed its header
drsnoop_ready() { grep -qs '^COMM' /tmp/drs.out; }

# start MODE: the tracer of MODE, on cpu0, in the background: its PID in $pid
start() {
	case $1 in
	latency | latency-end)
		# shellcheck disable=SC2046 # no argument or two
		taskset -c 0 reclaimctl latency $([[ $1 == latency ]] && echo -i 1) -d 0 --json \
			>/tmp/lat.json 2>/tmp/lat.err &
		pid=$!
		wait_for 60 "latency's triggers" -- armed || die "latency did not start: $(cat /tmp/lat.err)"
		;;
	drsnoop)
		# unbuffered: its header tells that the program is attached
		PYTHONUNBUFFERED=1 taskset -c 0 "$drsnoop" >/tmp/drs.out 2>/tmp/drs.err &
		pid=$!
		wait_for 600 "drsnoop's header" -- drsnoop_ready || die "drsnoop did not start: $(cat /tmp/drs.err)"
		;;
	esac
}

# waits MODE: the waits the tracer of MODE reported (after it stopped)
waits() {
	local i
	case $1 in
	latency | latency-end)
		# the run's document is the last of the file
		i=$(awk '/^[{]/ { n++ } END { print n }' /tmp/lat.json)
		awk -v want="$i" '/^[{]/ { n++ } n == want' /tmp/lat.json >/tmp/lat-last.json
		# kind 0 is direct reclaim: those in its range and those out of it
		echo $(($(jsonq /tmp/lat-last.json .kinds[0].count) + $(jsonq /tmp/lat-last.json .kinds[0].dropped)))
		;;
	drsnoop) awk 'NR > 1 && NF >= 4' /tmp/drs.out | wc -l ;;
	*) echo 0 ;;
	esac
}

round() {
	local mode=$1 pid='' t0 t1 b0 b1 a0 a1 c0=0 cpu=0
	[[ $mode == off ]] || start "$mode"
	sync
	echo 1 >/proc/sys/vm/drop_caches
	# the tracer's CPU during the load (drsnoop compiles its program first)
	[[ -z $pid ]] || c0=$(proc_cpu "$pid")
	a0=$(allocstall) b0=$(busy) t0=$(uptime_s)
	memhog -N 1 -m 192 -p "$passes" -q || die "memhog failed"
	t1=$(uptime_s) b1=$(busy) a1=$(allocstall)
	if [[ -n $pid ]]; then
		cpu=$(awk -v a="$c0" -v b="$(proc_cpu "$pid")" 'BEGIN { printf "%.3f\n", b - a }')
		# A background job of this shell ignores SIGINT, and Python then
		# leaves it so: drsnoop is ended with SIGTERM (143), latency as
		# from a terminal (it catches SIGINT itself).
		if [[ $mode == drsnoop ]]; then
			kill -TERM "$pid"
			wait "$pid" || (($? == 143)) || die "drsnoop failed: $(cat /tmp/drs.err)"
		else
			kill -INT "$pid"
			wait "$pid" || die "$mode failed: $(cat /tmp/lat.err)"
		fi
	fi
	awk -v m="$mode" -v t0="$t0" -v t1="$t1" -v b="$((b1 - b0))" -v hz="$hz" \
		-v a="$((a1 - a0))" -v w="$(waits "$mode")" -v c="$cpu" 'BEGIN {
		printf "FIGURES: %s wall=%.3f cpu=%.3f allocstall=%d reported=%d tracer_cpu=%s\n",
			m, t1 - t0, b / hz, a, w, c }'
}

for ((r = 1; r <= rounds; r++)); do
	for mode in "${modes[@]}"; do round "$mode"; done
done | tee /tmp/rounds
# field N (key=value) of the rounds in mode M, their median
med() { awk -v m="$1" -v n="$2" '$2 == m { split($n, a, "="); print a[2] }' /tmp/rounds | median; }
for mode in "${modes[@]}"; do
	printf '%s %s %s %s %s %s\n' "$mode" "$(med "$mode" 3)" "$(med "$mode" 4)" \
		"$(med "$mode" 5)" "$(med "$mode" 6)" "$(med "$mode" 7)"
done >/tmp/medians
log "SUMMARY: medians of $rounds rounds (mode, load s, guest CPU s, direct reclaims, reported, tracer CPU s):"
sed 's/^/SUMMARY:   /' /tmp/medians
awk '$1 == "off" { w = $2; c = $3 }
	$1 != "off" { printf "SUMMARY: %s: the load took %+.1f%%; the guest spent %+.1f us of CPU per direct reclaim (%s reported of %s)\n",
		$1, ($2 - w) * 100 / w, $4 ? ($3 - c) * 1e6 / $4 : 0, $5, $4 }' /tmp/medians
swapoff "$dev"
ok "measured"
