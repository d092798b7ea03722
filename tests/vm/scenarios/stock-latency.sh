#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# stock-latency: reclaimctl on Debian's own kernel, which has none of the
# series' knobs or events.
#  - status exits 0 and says which knobs the kernel lacks, and why;
#  - latency traces what every kernel has: a hog bound to node 1 (128 MiB,
#    zram swap) runs 5 s between SIGSTOPs while latency runs; latency says
#    in one line that the kernel has no throttle event and goes on with the
#    rest: its kinds are direct, memcg and kswapd, the direct reclaims it
#    counts are the allocstall delta of /proc/vmstat over that window, and
#    kswapd's runs are node 1's one thread's; it ends on SIGINT, exit 0,
#    and leaves no instance;
#  - monitor --latency under the hog: the direct reclaims' p99 and longest in
#    each line, the throttle's null, and the same one line about the event.
#    It has 60 s: should it hang, the console shows what it waited on and
#    the step fails then.
#
# vm-kernel: debian
# vm-timeout: 300
# vm-share: 2
# vm-numa: 128M:0 128M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

T=$TRACEFS
[[ ! -e $KNOB_THREADS ]] || die "this is a patched kernel ($(uname -r)): the scenario wants Debian's own"
log "kernel $(uname -r)"
instances() { latency_instances; }
ljson() { jsonq "$1" ".kinds[$2].$3"; }
no_throttle="reclaimctl: no throttle latency: the kernel has no vmscan:mm_vmscan_direct_reclaim_throttle event"

step "status on a kernel without the patches"
assert_rc 0 "status" -- reclaimctl status
out=$(reclaimctl status 2>&1)
for k in kswapd_threads max_direct_reclaimers swap_round_robin_quota_kb; do
	assert_match "vm\.$k +unsupported \(no /proc/sys/vm/$k\)" "$out" "status: vm.$k unsupported, and why"
done
assert_match "This kernel lacks reclaimctl's knobs: it needs reclaimctl's kernel patches" "$out" "status says what the kernel lacks"

step "latency: what every kernel has"
[[ -d $T/events ]] || mount -t tracefs nodev "$T" || die "cannot mount tracefs"
insmod /vm/modules/zsmalloc.ko || die "insmod zsmalloc failed"
insmod /vm/modules/zram.ko num_devices=0 || die "insmod zram failed"
zram_swap 384M >/dev/null
memhog -N 1 -m 192 -p 1000 -q &
hog=$!
HOGS+=("$hog")
wait_for 60 "the hog direct-reclaims" -- allocstall_above $(($(allocstall) + 20)) || die "the hog does not direct-reclaim"
kill -STOP "$hog"
reclaimctl latency -d 0 --json --per-task=10 >/tmp/lat.json 2>/tmp/lat.err &
lat=$!
wait_for 30 "the run's tracing" -- latency_armed 1 || die "no instance with its triggers appeared: $(instances) $(cat /tmp/lat.err)"
read -r a0 a1 < <(latency_window "$hog")
kill -INT "$lat"
wait "$lat" && rc=0 || rc=$?
kill -CONT "$hog"
assert_eq 0 "$rc" "latency ends on SIGINT with exit 0"
assert_eq "$no_throttle" "$(cat /tmp/lat.err)" "one line: the throttle's event is missing"
assert_eq "" "$(instances)" "no instance left"
jsonq -e /tmp/lat.json || die "latency's output is not JSON: $(cat /tmp/lat.json)"
assert_eq "direct memcg kswapd" "$(for i in 0 1 2; do ljson /tmp/lat.json "$i" kind; done | xargs)" "the kinds of every kernel, without the throttle"
count=$(ljson /tmp/lat.json 0 count) dropped=$(ljson /tmp/lat.json 0 dropped)
log "FIGURES: direct reclaims: latency $count (+$dropped out of range), allocstall $((a1 - a0)); p99 <= $(ljson /tmp/lat.json 0 p99_us) us, max $(ljson /tmp/lat.json 0 max_us) us, total $(ljson /tmp/lat.json 0 total_ms) ms"
assert_gt "$((a1 - a0))" 0 "the hog direct-reclaimed in the window"
assert_eq "$((a1 - a0))" "$((count + dropped))" "latency counted every direct reclaim allocstall counted"
assert_le "$(ljson /tmp/lat.json 0 p99_us)" "$(ljson /tmp/lat.json 0 max_us)" "p99 is at most the longest"
assert_gt "$(ljson /tmp/lat.json 2 count)" 0 "kswapd ran, and its runs were counted"
kswapd_comms=$(jsonq -f /tmp/lat.json .tasks | awk -F= '$1 ~ /\.kind$/ { k[substr($1, 1, index($1, "]"))] = $2 } $1 ~ /\.comm$/ { c[substr($1, 1, index($1, "]"))] = $2 } END { for (i in k) if (k[i] == "kswapd") print c[i] }' | sort -u | xargs)
assert_eq "kswapd1" "$kswapd_comms" "kswapd's runs are node 1's one thread's"

step "monitor --latency"
bounded 60 reclaimctl monitor --latency -i 1 -c 3 --json >/tmp/mon.json 2>/tmp/mon.err && rc=0 || rc=$?
assert_eq 0 "$rc" "monitor --latency -c 3 exits 0"
assert_eq "$no_throttle" "$(cat /tmp/mon.err)" "one line: the throttle's event is missing"
p99s=$(awk -F'"direct_p99_us":' 'NF > 1 { v = $2; sub(/[,}].*/, "", v); printf "%s ", v }' /tmp/mon.json)
thr=$(awk -F'"throttle_p99_us":' 'NF > 1 { v = $2; sub(/[,}].*/, "", v); printf "%s ", v }' /tmp/mon.json)
log "FIGURES: monitor --latency: direct p99 $p99s us; throttle p99 $thr"
assert_eq 3 "$(grep -cE '^[0-9]+(\.[0-9]+)?$' <<<"$(tr ' ' '\n' <<<"$p99s")")" "three lines, each with the direct reclaims' p99"
assert_eq "null null null" "$(xargs <<<"$thr")" "the throttle's p99 is null: no such event"
assert_eq "" "$(instances)" "monitor left no instance"
stop_hogs
