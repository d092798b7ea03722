#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# adapt-overhead.sh - what `reclaimctl adapt` costs while it runs: CPU time
# per sample (target: under 50 us) and resident memory. Three figures:
#  1. the step's own work, hot: bench/adapt-step.c (built here against the
#     build's libreclaim) times a sample, the controller's figures and a
#     step, back to back, 2000 times;
#  2. the daemon: `adapt --dry-run` for DURATION seconds at INTERVAL, its
#     CPU time from /proc/PID/schedstat (ns) per sample, wake-ups included,
#     and its VmRSS and VmHWM from /proc/PID/status;
#  3. the floor: a loop that only wakes up every INTERVAL, measured the
#     same way (what any timer-driven daemon pays here per wake-up).
# Run by hand; see bench/README.md.
#
# Usage: bench/adapt-overhead.sh [BUILD_DIR]
#   BUILD_DIR    the CMake build directory (argument, or env BUILD_DIR;
#                default ./build): its cli/reclaimctl and libreclaim/
# Environment:
#   INTERVAL=0.1   seconds between samples (the service samples every 1 s:
#                  a shorter one only gathers more samples in less time)
#   DURATION=30    seconds measured
#   SYSROOT=DIR    run under --sysroot DIR; default: the live system when its
#                  kernel has vm.kswapd_threads, else a copy of the fixture
#                  tests/fixtures/patched-2node-3threads (files on tmpfs, not
#                  the kernel's: cheaper to read than the real /proc)
#
# Exit status: 0 measured (whether or not the target was met), 1 failure,
# 2 usage error.
set -euo pipefail

prog=${0##*/}
case ${1:-} in
-h | --help)
	sed -n 's/^# \{0,1\}//; 4,31p' "$0"
	exit 0
	;;
-*)
	echo "$prog: unknown option '$1' (try --help)" >&2
	exit 2
	;;
esac
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-${BUILD_DIR:-./build}}" && pwd)
bin=$build/cli/reclaimctl
interval=${INTERVAL:-0.1}
duration=${DURATION:-30}
[[ -x $bin ]] || { echo "$prog: $bin: not an executable (build first, or give BUILD_DIR)" >&2; exit 1; }
[[ -r /proc/self/schedstat ]] || { echo "$prog: no /proc/PID/schedstat on this kernel" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
pid=
args=()
where="the live system"
if [[ -n ${SYSROOT:-} ]]; then
	args=(--sysroot "$SYSROOT")
	where=$SYSROOT
elif [[ ! -e /proc/sys/vm/kswapd_threads ]]; then
	cp -a "$here/tests/fixtures/patched-2node-3threads" "$tmp/root"
	args=(--sysroot "$tmp/root")
	where="a copy of tests/fixtures/patched-2node-3threads"
fi

cpu_ns() { awk '{print $1}' "/proc/$1/schedstat"; }
status_kb() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/status"; }
root=/
[[ ${#args[@]} -eq 0 ]] || root=${args[1]}

${CC:-cc} -std=c17 -Wall -Wextra -O2 -I"$here/libreclaim/include" "$here/bench/adapt-step.c" -o "$tmp/adapt-step" \
	-L"$build/libreclaim" -lreclaim -Wl,-rpath,"$build/libreclaim"
read -r t_read t_fill t_step < <("$tmp/adapt-step" "$root" 2000)

# CPU ns of process $1 over $2 seconds
measure() {
	local c0 c1
	c0=$(cpu_ns "$1")
	sleep "$2"
	c1=$(cpu_ns "$1")
	echo $((c1 - c0))
}
"$tmp/adapt-step" --sleep-loop "$interval" &
pid=$!
sleep 1
floor=$(measure "$pid" "$duration")
kill "$pid"
wait "$pid" 2>/dev/null || true

"$bin" "${args[@]}" adapt --dry-run -i "$interval" >"$tmp/out" 2>&1 &
pid=$!
sleep 1 # the start: topology, the sampler's files opened, the first sample
kill -0 "$pid" 2>/dev/null || { cat "$tmp/out" >&2; echo "$prog: adapt did not start" >&2; exit 1; }
t0=$(date +%s%N) c0=$(cpu_ns "$pid")
sleep "$duration"
t1=$(date +%s%N) c1=$(cpu_ns "$pid")
rss=$(status_kb "$pid" VmRSS) hwm=$(status_kb "$pid" VmHWM)
kill -TERM "$pid"
wait "$pid" || { cat "$tmp/out" >&2; echo "$prog: adapt failed" >&2; exit 1; }
pid=

awk -v t="$((t1 - t0))" -v c="$((c1 - c0))" -v i="$interval" -v rss="$rss" -v hwm="$hwm" \
	-v where="$where" -v floor="$floor" -v d="$duration" -v tr="$t_read" -v tf="$t_fill" \
	-v ts="$t_step" 'BEGIN {
	samples = t / 1e9 / i
	us = c / 1e3 / samples
	fl = floor / 1e3 / (d / i)
	work = tr + tf + ts
	printf "adapt on %s, a sample every %s s\n", where, i
	printf "  the step, hot: %.1f us (sample %.1f, figures %.1f, step %.2f; target < 50: %s)\n", work, tr, tf, ts, work < 50 ? "met" : "NOT met"
	printf "  the daemon: %.0f samples in %.1f s, %.1f us CPU per sample, wake-up included\n", samples, t / 1e9, us
	printf "  the floor, a loop that only wakes up: %.1f us per wake-up\n", fl
	printf "  at a 1 s interval the daemon takes %.4f%% of one CPU\n", us / 1e4
	printf "  resident memory: %d KiB (peak %d KiB)\n", rss, hwm
}'
