#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# swap-rings: four zram swap devices at one priority form a ring.
#  - with swap_round_robin_quota_kb=2048 (set as "2M") the space used spreads
#    over all four: each device within 25% of the mean once several MiB are out;
#  - with quota 0 (rotate on every allocation) too;
#  - one device at a higher priority fills first: the others stay ~0 until it
#    is full, then take the rest.
# Usage is measured as the change of /proc/swaps "Used" while a hog holds its
# memory (tmpfs pages swapped earlier stay where they are).
#
# vm-timeout: 300
# vm-lockdep: off
# vm-share: 1
# vm-numa: 96M:0 96M:1 96M 96M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
extra_mb=${RINGS_EXTRA_MB:-48}
devs=()
declare -A base=()

snapshot() {
	local d
	for d in "${devs[@]}"; do base[$d]=$(swap_used "$d"); done
}
# deltas -> "DEV:KiB ..." used since the last snapshot
deltas() {
	local d out=()
	for d in "${devs[@]}"; do out+=("$d:$(($(swap_used "$d") - ${base[$d]}))"); done
	echo "${out[*]}"
}
# start_hog MIB: a hog that writes MIB and holds it; returns when it holds.
# Its output file is its own (new_hog_out): a round must not take the "OK" of
# the round before for its hog's and measure before anything was written.
start_hog() {
	local out
	new_hog_out
	out=$HOG_OUT
	memhog -m "$1" -p 0 -H 600 >"$out" 2>&1 &
	HOGS+=($!)
	if ! wait_for 200 "memhog -m $1 to fill its memory" -- grep -q OK "$out"; then
		cat "$out"
		die "hog did not finish writing"
	fi
	cat "$out"
}

# check_even QUOTA_LABEL: every device within 25% of the mean delta
check_even() {
	local label=$1 d used total=0 mean
	local -a pairs
	read -ra pairs <<<"$(deltas)"
	for d in "${pairs[@]}"; do total=$((total + ${d##*:})); done
	mean=$((total / ${#pairs[@]}))
	log "$label: used per device (KiB): ${pairs[*]} (total $((total / 1024)) MiB)"
	assert_ge "$total" $((8 * 1024)) "$label: several MiB went to swap"
	for d in "${pairs[@]}"; do
		used=${d##*:}
		assert_le "$(((used - mean) < 0 ? mean - used : used - mean))" $((mean / 4)) \
			"$label: ${d%%:*} ($used KiB) within 25% of the mean ($mean KiB)"
	done
}

step "four zram swap devices at priority 10"
for i in 1 2 3 4; do
	devs+=("$(zram_swap 128M 10)")
done
cat /proc/swaps
for d in "${devs[@]}"; do assert_eq 10 "$(swap_prio "$d")" "$d priority"; done
show_memory

for q in 2M 0; do
	want=2048
	[[ $q == 0 ]] && want=0
	step "one ring, quota $q"
	assert_rc 0 "reclaimctl set swap-quota $q" -- reclaimctl set swap-quota "$q"
	assert_file_eq "$KNOB_QUOTA" "$want" "vm.swap_round_robin_quota_kb"
	snapshot
	start_hog $(($(mem_avail_mb) + extra_mb))
	check_even "quota $want"
	stop_hogs
done

step "a higher priority device fills first"
assert_rc 0 "reclaimctl set swap-quota 2048" -- reclaimctl set swap-quota 2048
for d in "${devs[@]}"; do swapoff "$d" || die "swapoff $d"; done
first=${devs[0]}
others=("${devs[@]:1}")
swapon-prio -p 20 "$first" || die "swapon -p 20 $first"
swapon-prio -p 10 "${others[@]}" || die "swapon -p 10 ${others[*]}"
cat /proc/swaps
assert_eq 20 "$(swap_prio "$first")" "$first priority"
size_kb=$(awk -v d="$first" '$1 == d {print $3}' /proc/swaps)
snapshot

# phase 1: less than the first device holds
start_hog $(($(mem_avail_mb) + extra_mb / 2))
read -ra pairs <<<"$(deltas)"
log "phase 1: used per device (KiB): ${pairs[*]} (first holds $size_kb KiB)"
first_used=$(swap_used "$first")
other_sum=0
for p in "${pairs[@]:1}"; do other_sum=$((other_sum + ${p##*:})); done
assert_gt "${pairs[0]##*:}" $((4 * 1024)) "phase 1: the priority 20 device took several MiB"
if ((first_used * 100 < size_kb * 95)); then
	assert_le "$other_sum" 512 "phase 1: the priority 10 devices stay ~0 while $first has room"
else
	# Reclaim may overshoot and fill it already (timing under TCG): then the
	# rest went to the lower ring only after it was full, so it still took
	# more than all of them together (one ring would have split it evenly).
	log "phase 1 filled $first ($first_used of $size_kb KiB); the priority 10 devices took the rest"
	assert_gt "$first_used" "$other_sum" "phase 1: $first took more than the priority 10 devices together"
fi

# phase 2: more than it holds
room_mb=$(((size_kb - first_used) / 1024))
start_hog $(($(mem_avail_mb) + room_mb + extra_mb))
read -ra pairs <<<"$(deltas)"
log "phase 2: used per device (KiB): ${pairs[*]}"
first_used=$(swap_used "$first")
assert_ge $((first_used * 100)) $((size_kb * 95)) "phase 2: $first is full ($first_used of $size_kb KiB)"
other_sum=0
for p in "${pairs[@]:1}"; do other_sum=$((other_sum + ${p##*:})); done
assert_gt "$other_sum" 1024 "phase 2: the rest went to the priority 10 devices"
stop_hogs

check_dmesg_clean
