#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# throttle-oom-latency: at a real OOM the throttle does not delay the OOM
# killer much. T tasks (32) at once write (MemAvailable + 64 MiB) / T each,
# with no swap: nothing can be reclaimed and the OOM killer must kill. Three
# rounds, max_direct_reclaimers off (0), 1 and auto (2 here: one node with 2
# CPUs), each measuring from the kernel's trace clock the time from the first
# direct reclaim (an allocation that failed the fast path) to the first OOM
# kill (oom:mark_victim), and the longest stall of an unrelated small task
# (stallprobe: a page mapped, written and unmapped every 10 ms, OOM-immune)
# meanwhile. The table is printed ("TABLE:"). Bound: with the throttle on, at
# most 2 x the time with it off plus 1 s (the time off is a few hundred ms under
# TCG, where 2 x alone would measure scheduling noise) and at most 10 s.
#
# vm-timeout: 300
# vm-numa: 320M:0-1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
tasks=${THROTTLE_OOM_LATENCY_TASKS:-32}
extra_mb=64
T=/sys/kernel/tracing

[[ -d $T/events ]] || mount -t tracefs nodev "$T" 2>/dev/null || true
[[ -d $T/events/vmscan/mm_vmscan_direct_reclaim_begin ]] || die "no tracefs with vmscan events"

# trace_setup: instance "first" keeps the earliest direct reclaims (no
# overwrite), the top level the OOM kills
trace_setup() {
	[[ -d $T/instances/first ]] || mkdir "$T/instances/first"
	echo 0 >"$T/instances/first/options/overwrite"
	echo 64 >"$T/instances/first/buffer_size_kb"
	# one clock for both CPUs and both buffers: TCG's per-CPU clocks drift
	echo global >"$T/instances/first/trace_clock"
	echo global >"$T/trace_clock"
	echo 1 >"$T/instances/first/events/vmscan/mm_vmscan_direct_reclaim_begin/enable"
	echo 1 >"$T/events/oom/mark_victim/enable"
}
trace_clear() { : >"$T/instances/first/trace"; : >"$T/trace"; }
# first_ts FILE EVENT: the trace timestamp (seconds) of EVENT's first line
first_ts() { awk -v ev="$2:" '$0 ~ ev { for (i = 1; i <= NF; i++) if ($i == ev) { sub(":", "", $(i - 1)); print $(i - 1); exit } }' "$1"; }

# round LIMIT: sets LAT_MS (first direct reclaim to first OOM kill), STALL_MS,
# KILLS, SECS
round() {
	local limit=$1 size pids=() i oom0 t0 t_first t_kill probe line
	assert_rc 0 "reclaimctl set throttle $limit" -- reclaimctl set throttle "$limit"
	sync
	echo 1 >/proc/sys/vm/drop_caches
	size=$((($(mem_avail_mb) + extra_mb) / tasks))
	oom0=$(vmstat oom_kill)
	trace_clear
	rm -f /tmp/probe.stop
	stallprobe /tmp/probe.stop >/tmp/probe.out &
	probe=$!
	t0=$SECONDS
	# they hold their memory until the first OOM kill (or 120 s)
	for ((i = 0; i < tasks; i++)); do
		memhog -m "$size" -p 0 -H 300 -q >/dev/null 2>&1 &
		pids+=($!)
	done
	wait_for 120 "an OOM kill" -- vmstat_above oom_kill "$oom0" || true
	sleep 1
	kill -9 "${pids[@]}" 2>/dev/null || true
	for i in "${pids[@]}"; do
		wait "$i" 2>/dev/null || true
	done
	touch /tmp/probe.stop
	wait "$probe" || true
	SECS=$((SECONDS - t0))
	KILLS=$(($(vmstat oom_kill) - oom0))
	t_first=$(first_ts "$T/instances/first/trace" mm_vmscan_direct_reclaim_begin)
	t_kill=$(first_ts "$T/trace" mark_victim)
	line=$(cat /tmp/probe.out)
	[[ $line =~ max_ms=([0-9]+) ]] || die "no result from stallprobe: $line"
	STALL_MS=${BASH_REMATCH[1]}
	if [[ -n $t_first && -n $t_kill ]]; then
		LAT_MS=$(awk -v a="$t_first" -v b="$t_kill" 'BEGIN { printf "%d", (b - a) * 1000 }')
	else
		LAT_MS=-1
	fi
	log "limit $limit: $tasks tasks of $size MiB: first direct reclaim at ${t_first:-none}, first OOM kill at ${t_kill:-none}: ${LAT_MS} ms; probe's longest stall ${STALL_MS} ms; $KILLS OOM kills; ${SECS}s"
}

trace_setup
assert_rc 0 "reclaimctl set throttle auto" -- reclaimctl set throttle auto
auto=$(readf "$KNOB_THROTTLE")
log "auto: max_direct_reclaimers=$auto"

declare -A LAT STALL KILL
for limit in 0 1 "$auto"; do
	step "max_direct_reclaimers=$limit"
	round "$limit"
	LAT[$limit]=$LAT_MS STALL[$limit]=$STALL_MS KILL[$limit]=$KILLS
	assert_gt "$KILLS" 0 "limit $limit: the OOM killer killed"
	assert_ge "$LAT_MS" 0 "limit $limit: first direct reclaim and OOM kill both traced"
done
assert_rc 0 "reclaimctl set throttle 0" -- reclaimctl set throttle 0

log "TABLE: T=$tasks tasks, (MemAvailable + $extra_mb MiB) in all, no swap"
log "TABLE: max_direct_reclaimers  first-reclaim-to-OOM-kill  longest-probe-stall  kills"
for limit in 0 1 "$auto"; do
	label=$limit
	((limit != 0)) || label="0 (off)"
	[[ $limit != "$auto" ]] || label="$limit (auto)"
	log "$(printf 'TABLE: %-24s %10s ms %21s ms %6s' "$label" "${LAT[$limit]}" "${STALL[$limit]}" "${KILL[$limit]}")"
done
bound=$((2 * LAT[0] + 1000))
((bound <= 10000)) || bound=10000
for limit in 1 "$auto"; do
	assert_le "${LAT[$limit]}" "$bound" "limit $limit: OOM kill within 2 x off + 1 s and 10 s ($bound ms)"
done
