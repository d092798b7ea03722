#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# status --prometheus passes 'promtool check metrics' (Prometheus' own linter:
# HELP and TYPE, _total on counters, base units, valid names and labels) on
# the fixture roots and the live system; it exports every family of
# cli/prometheus.c's table on the patched fixture, the facts as expected
# (sizes in bytes, one allocstall family with a zone label), nothing that
# node_exporter's default collectors have (PSI, pswpin/pswpout), and on a
# copy of the fixture the results of check, a drifted knob and a failed boot
# unit; --textfile writes DIR/reclaimctl.prom with the same text plus
# reclaim_textfile_timestamp_seconds and leaves no temporary file behind.
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
	'reclaim_knob_size_bytes{knob="swap_round_robin_quota_kb"} 2097152'
	'reclaim_knob_size_bytes{knob="min_free_kbytes"} 92274688'
	'reclaim_check_conflict{knob="kswapd_threads"} 0'
	'reclaim_check_persisted_overridden{knob="kswapd_threads"} 0'
	'reclaim_kswapd_cpu_seconds_total{thread="kswapd0:1",node="0"} 91.21'
	'reclaim_vmstat_pgscan_kswapd_total 48213371'
	'reclaim_vmstat_direct_reclaim_throttled_total 5873'
	'reclaim_vmstat_allocstall_total{zone="normal"} 18211'
	'reclaim_vmstat_allocstall_total{zone="dma32"} 3'
	'reclaim_node_memory_total_bytes{node="0"} 8351387648'
	'reclaim_swap_ring_size_bytes{priority="100"} 8589926400'
	'reclaim_swap_ring_used_bytes{priority="100"} 536870912'
	'reclaim_swap_ring_devices{priority="100"} 2'
	'reclaim_swap_ring_balance_ratio{priority="100"} 1'
	'reclaim_swap_device_size_bytes{device="/dev/zram0",priority="100",kind="zram"} 4294963200'
	'reclaim_swap_device_used_bytes{device="/dev/zram1",priority="100",kind="zram"} 268435456'
)
missing=
for w in "${want[@]}"; do
	grep -qxF "$w" "$p" || missing+=" [$w]"
done
# units mixed in one family, one family per zone, what node_exporter exports by default
unwanted=$(grep -E '^reclaim_knob_value\{knob="[a-z_]*_kb(ytes)?"\}|^reclaim_vmstat_allocstall_[a-z0-9]+_total|^reclaim_vmstat_pswp|^reclaim_pressure_' "$p")
if [ -z "$missing$unwanted" ]; then
	echo "ok $n - the patched fixture's values"
else
	echo "not ok $n - the patched fixture's values; missing:$missing; not wanted: $unwanted"
	failed=$((failed + 1))
fi

# every family of the table in cli/prometheus.c, on the patched fixture or a copy
# of it with a history, sysctl files and a boot result (below)
families=$(sed -n '/^} metrics\[\] = {/,/^};/p' "$(dirname "$0")/../../cli/prometheus.c" |
	grep -oE '\{"reclaim_[a-z_]+"' | tr -d '{"')

n=$((n + 1))
root=$work/patched
cp -a "$fixtures/patched-2node-3threads" "$root"
mkdir -p "$root/etc/sysctl.d" "$root/etc/reclaimctl"
printf 'vm.swappiness = 10\nvm.kswapd_threads = 2\n' >"$root/etc/sysctl.d/95-admin.conf"
printf '# This file is written by reclaimctl(8): knob values made persistent with --persist.\n# systemd-sysctl applies it at boot. Do not edit it; to undo, run:\n#   reclaimctl restore --persist\nvm.kswapd_threads = 4\n' \
	>"$root/etc/sysctl.d/90-reclaimctl.conf"
printf 'preset = no-such-preset\n' >"$root/etc/reclaimctl/reclaimctl.conf"
# the knobs of sysfs: a boolean, a choice, a bit mask
mkdir -p "$root/sys/module/zswap/parameters" "$root/sys/kernel/mm/lru_gen"
echo N >"$root/sys/module/zswap/parameters/enabled"
echo lzo >"$root/sys/module/zswap/parameters/compressor"
echo 0x0007 >"$root/sys/kernel/mm/lru_gen/enabled"
# the history: throttle 3 -> 4 -> 5; drift is judged against the newest record
"$bin" --sysroot "$root" set throttle 4 >/dev/null 2>&1
"$bin" --sysroot "$root" set throttle 5 >/dev/null 2>&1
echo 7 >"$root/proc/sys/vm/max_direct_reclaimers"        # someone else writes it
"$bin" --sysroot "$root" boot >/dev/null 2>&1             # fails: no such preset
"$bin" --sysroot "$root" status --prometheus >"$work/copy.prom" 2>"$work/err"
want=(
	'reclaim_check_conflict{knob="kswapd_threads"} 1'
	'reclaim_check_conflict{knob="swappiness"} 1'
	'reclaim_check_conflict{knob="max_direct_reclaimers"} 0'
	'reclaim_check_persisted_overridden{knob="kswapd_threads"} 1'
	'reclaim_check_persisted_overridden{knob="swappiness"} 0'
	'reclaim_knob_drifted{knob="max_direct_reclaimers"} 1'
	'reclaim_boot_success 0'
	'reclaim_knob_value{knob="zswap_enabled"} 0'
	'reclaim_knob_value{knob="lru_gen_enabled"} 7'
	'reclaim_knob_choice{knob="zswap_compressor",value="lzo"} 1'
)
missing=
for w in "${want[@]}"; do
	grep -qxF "$w" "$work/copy.prom" || missing+=" [$w]"
done
grep -q '^reclaim_boot_timestamp_seconds [0-9.e+]*$' "$work/copy.prom" ||
	missing+=" [reclaim_boot_timestamp_seconds]"
[ "$(grep -c '^reclaim_knob_drifted' "$work/copy.prom")" = 1 ] || missing+=" [drifted: one knob]"
promtool check metrics <"$work/copy.prom" >"$work/lint" 2>&1 || missing+=" [promtool: $(cat "$work/lint")]"
if [ -z "$missing" ] && [ ! -s "$work/err" ]; then
	echo "ok $n - conflicts, a persisted value overridden, a drifted knob, a failed boot unit"
else
	echo "not ok $n - check, drift and boot results; missing:$missing; stderr: $(cat "$work/err")"
	failed=$((failed + 1))
fi
n=$((n + 1))
echo 5 >"$root/proc/sys/vm/max_direct_reclaimers"
"$bin" --sysroot "$root" status --prometheus >"$work/back.prom" 2>&1
if grep -qxF 'reclaim_knob_drifted{knob="max_direct_reclaimers"} 0' "$work/back.prom"; then
	echo "ok $n - back at the value reclaimctl applied, the knob has not drifted"
else
	echo "not ok $n - reclaim_knob_drifted is not 0 at the value reclaimctl applied"
	failed=$((failed + 1))
fi

n=$((n + 1))
missing=
for f in $families; do
	[ "$f" = reclaim_textfile_timestamp_seconds ] && continue # --textfile only, below
	grep -q "^# TYPE $f " "$p" "$work/copy.prom" || missing+=" $f"
done
if [ -n "$families" ] && [ -z "$missing" ]; then
	echo "ok $n - every family of cli/prometheus.c's table is exported: $(echo "$families" | wc -w)"
else
	echo "not ok $n - families not exported:$missing"
	failed=$((failed + 1))
fi

n=$((n + 1))
mkdir "$work/textfile"
now=$(date +%s)
if "$bin" --sysroot "$fixtures/patched-2node-3threads" status --textfile "$work/textfile" &&
	grep -v reclaim_textfile_timestamp_seconds "$work/textfile/reclaimctl.prom" | cmp -s - "$p" &&
	awk -v now="$now" '$1 == "reclaim_textfile_timestamp_seconds" { t = $2 }
		END { exit !(t >= now - 1 && t <= now + 60) }' "$work/textfile/reclaimctl.prom" &&
	tail -n 1 "$work/textfile/reclaimctl.prom" | grep -q '^reclaim_textfile_timestamp_seconds ' &&
	promtool check metrics <"$work/textfile/reclaimctl.prom" &&
	[ "$(ls -A "$work/textfile")" = reclaimctl.prom ] &&
	[ "$(stat -c %a "$work/textfile/reclaimctl.prom")" = 644 ]; then
	echo "ok $n - --textfile DIR writes DIR/reclaimctl.prom (0644), nothing else, with reclaim_textfile_timestamp_seconds last"
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
