#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# throttle-oom: waiting for a direct reclaim slot never brings a task closer to
# the OOM killer. Many tasks allocate at once, their total more than RAM but
# well within RAM + swap (zram), hold it and go over it twice more, rewriting
# it: once with the throttle off, once with
# max_direct_reclaimers=1. In both rounds no task is OOM-killed (oom_kill in
# /proc/vmstat) and every task exits 0 with its memory verified word by word;
# the figures of both rounds are printed ("FIGURES: ...").
#
# vm-timeout: 600
# vm-lockdep: off
# vm-share: 2
# vm-numa: 160M:0 160M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
tasks=${THROTTLE_OOM_TASKS:-32}
extra_mb=${THROTTLE_OOM_EXTRA_MB:-192}

# all_written PID...: each task has written its memory (in its file of OUTS)
# or is gone
OUTS=()
all_written() {
	local i=0 pid
	for pid in "$@"; do
		if kill -0 "$pid" 2>/dev/null && ! grep -q WRITTEN "${OUTS[i]}"; then
			return 1
		fi
		i=$((i + 1))
	done
}

# round LIMIT: $tasks hogs at once under max_direct_reclaimers=LIMIT; sets
# KILLS, FAILED, WAITS, STALLS, SECS
round() {
	local limit=$1 size pids=() i rc oom0 thr0 st0 t0
	assert_rc 0 "reclaimctl set throttle $limit" -- reclaimctl set throttle "$limit"
	sync
	echo 1 >/proc/sys/vm/drop_caches
	size=$((($(mem_avail_mb) + extra_mb) / tasks))
	oom0=$(vmstat oom_kill)
	thr0=$(vmstat direct_reclaim_throttled)
	st0=$(($(vmstat allocstall_normal) + $(vmstat allocstall_movable)))
	t0=$SECONDS
	log "limit $limit: $tasks tasks of $size MiB each ($((size * tasks)) MiB, $(mem_avail_mb) MiB available)"
	# all write their memory at once, then wait until all have (or died),
	# then verify it twice, rewriting it after each pass: the pressure
	# lasts while they are all there. Each task's output file is new and
	# empty before it starts (new_hog_out): round 2 must not take round 1's
	# WRITTEN for its own and let the tasks go before they have written.
	rm -f /tmp/go
	OUTS=()
	for ((i = 0; i < tasks; i++)); do
		new_hog_out
		OUTS+=("$HOG_OUT")
		memhog -m "$size" -p 2 -r -q -W /tmp/go >"$HOG_OUT" &
		pids+=($!)
	done
	wait_for 300 "every task has written its memory" -- all_written "${pids[@]}" || true
	touch /tmp/go
	FAILED=0
	for i in "${!pids[@]}"; do
		rc=0
		wait "${pids[$i]}" || rc=$?
		if ((rc != 0)); then
			log "task $i exited $rc$( ((rc > 128)) && echo " (signal $((rc - 128)))")"
			FAILED=$((FAILED + 1))
		fi
	done
	SECS=$((SECONDS - t0))
	KILLS=$(($(vmstat oom_kill) - oom0))
	WAITS=$(($(vmstat direct_reclaim_throttled) - thr0))
	STALLS=$(($(vmstat allocstall_normal) + $(vmstat allocstall_movable) - st0))
	show_memory
}

step "swap on zram"
swap=$(zram_swap 640M)
log "swap: $swap"
show_memory

step "round 1: throttle off"
round 0
off="oom_kill=$KILLS failed=$FAILED/$tasks direct_reclaim_throttled=$WAITS allocstall=$STALLS ${SECS}s"
assert_eq 0 "$KILLS" "throttle off: no OOM kill"
assert_eq 0 "$FAILED" "throttle off: every task finished, memory verified"

step "round 2: max_direct_reclaimers=1"
round 1
on="oom_kill=$KILLS failed=$FAILED/$tasks direct_reclaim_throttled=$WAITS allocstall=$STALLS ${SECS}s"
assert_eq 0 "$KILLS" "throttle 1: no OOM kill"
assert_eq 0 "$FAILED" "throttle 1: every task finished, memory verified"
log "FIGURES: throttle off: $off"
log "FIGURES: throttle 1: $on"
# the throttle was at work: tasks did wait for a slot
assert_gt "$WAITS" 0 "throttle 1: tasks waited for a direct reclaim slot"
assert_rc 0 "reclaimctl set throttle 0" -- reclaimctl set throttle 0
