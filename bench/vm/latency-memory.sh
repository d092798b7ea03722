#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# latency-memory: reclaimctl latency's memory over a long run. It runs
# `latency -i 1 --per-task --json` (every kind and every task read each
# second, the output thrown away) for LATENCY_SECONDS (3600); every 30 s a
# new hog reclaims for 3 s, so that the tasks the kernel and latency keep
# grow by one each time. latency's VmRSS and VmHWM (/proc/PID/status) are
# printed at 1 minute and every 10 minutes, then compared.
# Run by hand through tests/vm/run-scenario.sh, not by the test suite
# (bench/README.md).
#
# vm-timeout: 4000
# vm-tcg: multi
# vm-numa: 128M:0 128M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../../tests/vm/guest/lib.sh
source /vm/lib.sh

seconds=${LATENCY_SECONDS:-3600}
[[ -d /sys/kernel/tracing/events ]] || mount -t tracefs nodev /sys/kernel/tracing
dev=$(zram_swap 384M)
status_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }

reclaimctl latency -i 1 -d "$seconds" --per-task --json >/dev/null 2>/tmp/lat.err &
lat=$!
start=$(awk '{ print int($1) }' /proc/uptime)
next=60 hogs=0
while kill -0 "$lat" 2>/dev/null; do
	memhog -N 1 -m 160 -p 1000 -q &
	hog=$!
	sleep 3
	kill "$hog" && wait "$hog" || true
	hogs=$((hogs + 1))
	t=$(($(awk '{ print int($1) }' /proc/uptime) - start))
	# at 1 minute, every 10 minutes, and in the run's last half-minute
	if ((t >= next || t + 35 >= seconds)) && kill -0 "$lat" 2>/dev/null; then
		log "FIGURES: at ${t} s: VmRSS $(status_kb "$lat" VmRSS) KiB, VmHWM $(status_kb "$lat" VmHWM) KiB, $hogs hogs"
		next=$((next == 60 ? 600 : next + 600))
	fi
	sleep 27
done
wait "$lat" || die "latency failed: $(cat /tmp/lat.err)"
swapoff "$dev"
ok "measured"
