#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sweep-output-memory.sh - peak RSS of reclaimctl sweep when its command
# writes a lot of output, with and without --metric (see bench/README.md).
#
# Usage: bench/sweep-output-memory.sh [RECLAIMCTL]
#   RECLAIMCTL  the binary (default: build/cli/reclaimctl)
# Environment: SIZE (1G) of output, as head -c takes it; TMPDIR for the copy
# of the fixture root and the sweep's directory (SIZE of free space).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
reclaimctl=$(realpath "${1:-$here/../build/cli/reclaimctl}")
size=${SIZE:-1G}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -a "$here/../tests/fixtures/patched-2node-3threads" "$work/root"
cmd="yes 'a line of output that matches no metric' | head -c $size; echo 'total 42 MB/s'"

# peak RSS in KiB and wall seconds of one sweep
measure() {
	rm -rf "$work/out"
	/usr/bin/time -f '%M %e' -o "$work/time" \
		"$reclaimctl" --sysroot "$work/root" sweep throttle=5 -i 1 --dir "$work/out" "$@" \
		-- sh -c "$cmd" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	read -r rss wall <"$work/time"
	printf "%-34s %8s KiB %6s s\n" "${*:-no --metric}" "$rss" "$wall"
}

printf "%-34s %12s %8s\n" "$size of output" "peak RSS" "wall"
measure
measure -m 'bw=total ([0-9]+ MB)/s'
grep -q '"bw"' "$work/out/summary.json" || { echo "the metric was not found" >&2; exit 1; }
