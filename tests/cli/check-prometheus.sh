#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# status --prometheus passes 'promtool check metrics' (Prometheus' own linter:
# HELP and TYPE, _total on counters, base units, valid names and labels) on
# the fixture roots and the live system; --textfile writes DIR/reclaimctl.prom
# with the same text and leaves no temporary file behind.
#   check-prometheus.sh RECLAIMCTL FIXTURES_DIR
# Exit status 0 pass, 1 fail, 77 (skip) without promtool (Debian package prometheus).
set -uo pipefail

bin=${1:?usage: check-prometheus.sh RECLAIMCTL FIXTURES_DIR}
fixtures=${2:?usage: check-prometheus.sh RECLAIMCTL FIXTURES_DIR}
if ! command -v promtool >/dev/null; then
	echo "check-prometheus: no promtool (Debian package prometheus; scripts/deps.sh test installs it)"
	exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 n=0

lint() { # NAME SYSROOT
	local out=$work/$1.prom
	n=$((n + 1))
	if ! "$bin" --sysroot "$2" status --prometheus >"$out" 2>"$work/err"; then
		echo "not ok $n - $1: status --prometheus failed: $(cat "$work/err")"
		failed=$((failed + 1))
		return
	fi
	if ! promtool check metrics <"$out" >"$work/lint" 2>&1; then
		echo "not ok $n - $1: promtool check metrics:"
		sed 's/^/#   /' "$work/lint"
		failed=$((failed + 1))
		return
	fi
	for family in reclaim_info reclaim_knob_supported reclaim_kswapd_threads \
		reclaim_node_memory_total_bytes; do
		grep -q "^# TYPE $family " "$out" || {
			echo "not ok $n - $1: no $family"
			failed=$((failed + 1))
			return
		}
	done
	echo "ok $n - $1: $(grep -c '^[a-z]' "$out") samples pass promtool check metrics"
}

for root in patched-2node-3threads unpatched-6.1 swap-mixed live-debian12-2cpu \
	memory-only-node hwloc-64amd64-4s2n4ca2co; do
	lint "$root" "$fixtures/$root"
done
lint live /

# what each kind of fact became
n=$((n + 1))
p=$work/patched-2node-3threads.prom
want=(
	'reclaim_knob_value{knob="kswapd_threads"} 3'
	'reclaim_kswapd_cpu_seconds_total{thread="kswapd0:1",node="0"} 91.21'
	'reclaim_vmstat_pgscan_kswapd_total 48213371'
	'reclaim_vmstat_direct_reclaim_throttled_total 5873'
	'reclaim_pressure_stalled_seconds_total{kind="some"} 48.211097'
	'reclaim_node_memory_total_bytes{node="0"} 8351387648'
	'reclaim_swap_ring_size_bytes{priority="100"} 8589926400'
	'reclaim_swap_ring_used_bytes{priority="100"} 536870912'
	'reclaim_swap_ring_devices{priority="100"} 2'
)
missing=
for w in "${want[@]}"; do
	grep -qxF "$w" "$p" || missing+=" [$w]"
done
if [ -z "$missing" ]; then
	echo "ok $n - the patched fixture's values"
else
	echo "not ok $n - the patched fixture's values; missing:$missing"
	failed=$((failed + 1))
fi

n=$((n + 1))
mkdir "$work/textfile"
if "$bin" --sysroot "$fixtures/patched-2node-3threads" status --textfile "$work/textfile" &&
	cmp -s "$work/textfile/reclaimctl.prom" "$p" &&
	[ "$(ls -A "$work/textfile")" = reclaimctl.prom ] &&
	[ "$(stat -c %a "$work/textfile/reclaimctl.prom")" = 644 ]; then
	echo "ok $n - --textfile DIR writes DIR/reclaimctl.prom (0644), nothing else"
else
	echo "not ok $n - --textfile: $(ls -la "$work/textfile")"
	failed=$((failed + 1))
fi
n=$((n + 1))
if ! "$bin" status --textfile "$work/no-such-dir" 2>"$work/err" &&
	grep -q "no-such-dir" "$work/err"; then
	echo "ok $n - --textfile into a missing directory fails: $(cat "$work/err")"
else
	echo "not ok $n - --textfile into a missing directory"
	failed=$((failed + 1))
fi

echo "1..$n"
echo "# prometheus: $n checks, $failed failed"
[ $failed -eq 0 ]
