#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# swap-priority: the rings as reclaimctl sees them, and the safe live change
# of a device's priority.
#  - four zram devices at priority 5 and two at priority 1: `reclaimctl swap
#    --json` shows two rings, priority 5 first, with exactly those devices,
#    and `status --json` the same;
#  - a memhog's pages are swapped out to /dev/zram5 (the hog sits in a memory
#    cgroup limited to 16 MiB, so the rest of the machine keeps its memory)
#    and checksummed;
#  - with MemAvailable too short to take /dev/zram5's contents back (a second
#    hog holds the memory), `swap priority /dev/zram5 5` refuses with the
#    numbers and nothing changes;
#  - without CAP_SYS_ADMIN it says "needs CAP_SYS_ADMIN (run as root)" and
#    nothing changes;
#  - `swap priority --persist /dev/zram5 5` then moves it into the first ring
#    (swapoff brings its pages back into memory, swapon with priority 5 and
#    the discard flag of its fstab entry), sets pri=5 in /etc/fstab changing
#    nothing else (its mode and extended attributes kept), and the hog finds every word it wrote and the checksum it
#    wrote: nothing was lost;
#  - before it swaps a device off that holds something, `swap priority` says
#    "moving SIZE back to memory from DEVICE..." (not with --json, --dry-run,
#    an unchanged priority or an empty device); into a pipe that is all, and
#    on a terminal (the helper ptyrun) progress lines follow, rewritten in
#    place with \r ("  40M of 80M back in memory (50%)", the share going up),
#    cleared when swapoff returns: at least one when swapoff took a second or
#    more (the progress thread reads /proc/swaps every 0.5 s);
#  - every change made is in `history`, as "swap /dev/zram5" (the refused
#    ones, the dry run and the unchanged priority are not), the --persist one
#    with the pri= /etc/fstab had; `restore --dry-run` says what `restore`
#    then does: the newest change undone live (1 -> 10); `restore --boot`
#    puts the device back to its priority before the first change, live (1)
#    and in /etc/fstab (pri=1, every other byte as it was), and after it
#    `restore` has nothing left to undo.
# The kernel patches are not needed for any of this.
#
# vm-timeout: 300
# vm-lockdep: off
# vm-share: 1
# vm-numa: 128M:0 128M:1 128M 128M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

CG=/sys/fs/cgroup

# zram_dev SIZE -> /dev/zramN with a swap signature, not yet swapped on
zram_dev() {
	local dev
	dev=$(zram_add "$1")
	mkswap "$dev" >/dev/null || die "mkswap $dev failed"
	echo "$dev"
}
# cgroup_hog MIB SEED LIMIT CHECKPOINT OUT: a memhog in the memory cgroup "hog"
# limited to LIMIT, so that most of what it writes goes to swap; it stops after
# writing until CHECKPOINT exists. Sets hog_pid and written (its checksum);
# lifts the limit again, so that swapoff may bring the pages back.
cgroup_hog() {
	local mib=$1 seed=$2 limit=$3 checkpoint=$4 out=$5
	echo "$limit" >"$CG/hog/memory.max"
	(echo "$BASHPID" >"$CG/hog/cgroup.procs" && exec memhog -m "$mib" -p 1 -s "$seed" -W "$checkpoint") >"$out" 2>&1 &
	hog_pid=$!
	HOGS+=("$hog_pid")
	wait_for 200 "a hog to write its $mib MiB" -- grep -qs WRITTEN "$out" || {
		cat "$out"
		die "the hog did not write its memory"
	}
	echo max >"$CG/hog/memory.max"
	cat "$out"
	written=$(sed -n 's/.*WRITTEN .* checksum \([0-9a-f]*\),.*/\1/p' "$out")
}
# finish_hog PID CHECKPOINT OUT WHAT: let the hog verify; every word and the
# checksum must be as it wrote them.
finish_hog() {
	local pid=$1 checkpoint=$2 out=$3 what=$4 rc=0 verified
	touch "$checkpoint"
	wait "$pid" || rc=$?
	HOGS=()
	cat "$out"
	assert_eq 0 "$rc" "$what: memhog exit status (every word as written)"
	verified=$(sed -n 's/.*pass 1 verified .* checksum \([0-9a-f]*\)$/\1/p' "$out")
	assert_match '^[0-9a-f]{16}$' "$written" "$what: the checksum it wrote"
	assert_eq "$written" "$verified" "$what: checksum after the change = checksum written"
}
# still_holds KIB MSG: /dev/zram5 was not swapped off: it holds (almost) what it held
# (the kernel frees a slot now and then, e.g. of a page also in the swap cache)
still_holds() {
	assert_ge $(($(swap_used /dev/zram5) * 10)) $(($1 * 9)) "$2 (used KiB x 10 >= $1 x 9)"
}
# ring_paths R -> the device paths of ring R of the loaded JSON, sorted
ring_paths() {
	local r=$1 n i paths=()
	n=$(jv ".rings[$r].devices:len")
	[[ $n =~ ^[0-9]+$ ]] || { echo "missing"; return; }
	for ((i = 0; i < n; i++)); do paths+=("$(jv ".rings[$r].devices[$i].path")"); done
	printf '%s\n' "${paths[@]}" | sort | paste -sd' ' -
}
# no_moving_line OUTPUT WHAT: WHAT announced nothing: no "moving ... back to
# memory" line, no progress line (\r)
no_moving_line() {
	if [[ $1 == *"back to memory"* || $1 == *$'\r'* ]]; then
		fail "$2: expected no 'moving ... back to memory' line nor progress, got '$1'"
	else
		ok "$2: no 'moving ... back to memory' line, no progress"
	fi
}
# kib_of SIZE -> KiB, of a size as reclaimctl prints it ("80M", "6.0M", "512K")
kib_of() {
	awk -v s="$1" 'BEGIN { u = substr(s, length(s)); m = u == "K" ? 1 : u == "M" ? 1024 : u == "G" ? 1048576 : 0
		printf "%d\n", (s + 0) * m }'
}
# uptime_cs -> hundredths of a second since boot
uptime_cs() {
	local up _
	read -r up _ </proc/uptime
	echo $((10#${up/./}))
}
# check_rings FILE RING0 RING1: two rings, priorities 5 and 1, these devices
check_rings() {
	local what=$1 want0=$2 want1=$3 r i n
	json_load "$what" || { fail "$what is not valid JSON"; return; }
	assert_eq 2 "$(jv .rings:len)" "$what: two rings"
	assert_eq 5 "$(jv '.rings[0].priority')" "$what: the first ring has priority 5"
	assert_eq 1 "$(jv '.rings[1].priority')" "$what: the second ring has priority 1"
	assert_eq "$want0" "$(ring_paths 0)" "$what: the devices of the priority 5 ring"
	assert_eq "$want1" "$(ring_paths 1)" "$what: the devices of the priority 1 ring"
	for r in 0 1; do
		n=$(jv ".rings[$r].devices:len")
		for ((i = 0; i < n; i++)); do
			local p=".rings[$r].devices[$i]" dev
			dev=$(jv "$p.path")
			assert_eq "zram partition false ${dev#/dev/}" \
				"$(jv "$p.kind") $(jv "$p.type") $(jv "$p.rotational") $(jv "$p.disk")" \
				"$what: $dev is a zram partition, not rotational, its own disk"
			assert_eq "$(awk -v d="$dev" '$1 == d {print $3, $5}' /proc/swaps)" \
				"$(jv "$p.size_kb") $(jv "$p.priority")" "$what: $dev size and priority as in /proc/swaps"
		done
	done
}

step "six zram devices: zram0-3 for priority 5, zram4-5 for priority 1"
devs=()
for i in 0 1 2 3 4 5; do
	devs+=("$(zram_dev 96M)")
done
assert_eq "/dev/zram0 /dev/zram1 /dev/zram2 /dev/zram3 /dev/zram4 /dev/zram5" "${devs[*]}" "device names"

step "a hog's memory swapped out to /dev/zram5 (the only swap device yet)"
swapon-prio -p 1 /dev/zram5 || die "swapon /dev/zram5"
grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || mount -t cgroup2 none "$CG" || die "cannot mount cgroup2"
echo +memory >"$CG/cgroup.subtree_control" || die "no memory controller"
mkdir -p "$CG/hog"
cgroup_hog 64 42 16M /tmp/verify /tmp/hog.out
hog=$hog_pid
used5=$(swap_used /dev/zram5)
assert_ge "$used5" $((32 * 1024)) "most of the hog's 64 MiB are on /dev/zram5 (KiB)"

swapon-prio -p 1 /dev/zram4 || die "swapon /dev/zram4"
swapon-prio -p 5 /dev/zram0 /dev/zram1 /dev/zram2 /dev/zram3 || die "swapon zram0-3"
cat /proc/swaps
show_memory

step "reclaimctl swap --json: two rings with the right devices"
assert_rc 0 "reclaimctl swap" -- reclaimctl swap
reclaimctl swap --json >/tmp/swap.json || fail "reclaimctl swap --json failed"
check_rings /tmp/swap.json "/dev/zram0 /dev/zram1 /dev/zram2 /dev/zram3" "/dev/zram4 /dev/zram5"
reclaimctl status --json >/tmp/status.json || fail "reclaimctl status --json failed"
jsonq /tmp/status.json .swap >/tmp/status-swap.json || fail "status --json has no swap section"
check_rings /tmp/status-swap.json "/dev/zram0 /dev/zram1 /dev/zram2 /dev/zram3" "/dev/zram4 /dev/zram5"
if [[ -e $KNOB_QUOTA ]]; then
	assert_eq "$(cat "$KNOB_QUOTA")" "$(jsonq /tmp/status.json .swap.round_robin_quota_kb)" \
		"status: swap.round_robin_quota_kb"
else
	assert_eq null "$(jsonq -t /tmp/status.json .swap.round_robin_quota_kb)" \
		"status: swap.round_robin_quota_kb is null without the patches"
fi

step "refused while memory is too short to take /dev/zram5's contents back"
used5=$(swap_used /dev/zram5)
margin=65536 # 64 MiB: 1/32 of this guest's MemTotal is less
need_mb=$(((used5 + margin) / 1024))
# Locked: the kernel cannot swap this hog out to make room again.
memhog -L -m $(($(mem_avail_mb) - need_mb / 2)) -p 0 -H 600 >/tmp/short.out 2>&1 &
short=$!
HOGS+=("$short")
wait_for 200 "the second hog to take the memory" -- grep -qs OK /tmp/short.out || cat /tmp/short.out
short_of_room() {
	local avail
	avail=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
	((avail <= $(swap_used /dev/zram5) + margin))
}
wait_for 60 "MemAvailable to drop below what zram5 holds + the margin" -- short_of_room || true
show_memory
avail_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
used5=$(swap_used /dev/zram5)
assert_le "$avail_kb" $((used5 + margin)) "MemAvailable ($avail_kb KiB) is below what zram5 holds + the margin"
rc=0
out=$(reclaimctl swap priority /dev/zram5 5 2>&1) || rc=$?
printf '  | %s\n' "$out"
assert_eq 1 "$rc" "swap priority /dev/zram5 5 is refused (exit 1)"
assert_match "not enough memory to swap /dev/zram5 off: MemAvailable is [0-9]+ KiB, it needs more than the [0-9]+ KiB the device holds \+ $margin KiB margin" \
	"$out" "the refusal gives the numbers"
assert_eq 1 "$(swap_prio /dev/zram5)" "/dev/zram5 keeps priority 1"
still_holds "$used5" "/dev/zram5 keeps its contents"
kill "$short"
wait "$short" 2>/dev/null || true
show_memory

step "without CAP_SYS_ADMIN: refused, nothing changes"
rc=0
out=$(dropcap reclaimctl swap priority /dev/zram5 5 2>&1) || rc=$?
printf '  | %s\n' "$out"
assert_eq 1 "$rc" "swap priority without CAP_SYS_ADMIN fails (exit 1)"
assert_match 'needs CAP_SYS_ADMIN \(run as root\)' "$out" "it says what is missing"
assert_eq 1 "$(swap_prio /dev/zram5)" "/dev/zram5 keeps priority 1"
still_holds "$used5" "/dev/zram5 keeps its contents"

step "dry run and an unchanged priority touch nothing"
assert_rc 0 "swap priority --dry-run /dev/zram5 5" -- reclaimctl swap priority --dry-run /dev/zram5 5
assert_rc 0 "swap priority /dev/zram4 1 (already 1)" -- reclaimctl swap priority /dev/zram4 1
# nothing is swapped off: nothing to announce
no_moving_line "$(reclaimctl swap priority --dry-run /dev/zram5 5 2>&1)" "swap priority --dry-run /dev/zram5 5"
no_moving_line "$(reclaimctl swap priority /dev/zram4 1 2>&1)" "swap priority /dev/zram4 1 (already 1)"
assert_eq 1 "$(swap_prio /dev/zram5)" "/dev/zram5 keeps priority 1"
still_holds "$used5" "/dev/zram5 keeps its contents"

step "swap priority --persist /dev/zram5 5: into the first ring, nothing lost"
fstab=$'# swap of this guest\n/dev/zram4\tnone\tswap\tsw,pri=1\t0 0\n\n/dev/zram5   none   swap   sw,discard,pri=1   0   0\n'
printf '%s' "$fstab" >/etc/fstab
# what an administrator's file carries besides its bytes: a mode, extended
# attributes (an SELinux label is one, in the security.* namespace; trusted.*
# and user.* here, which tmpfs keeps)
chmod 0640 /etc/fstab
xattr set /etc/fstab trusted.reclaimctl-test keep-me || die "cannot set a trusted.* xattr on /etc/fstab"
xattr set /etc/fstab user.reclaimctl-test keep-me-too || die "cannot set a user.* xattr on /etc/fstab"
rc=0
reclaimctl --json swap priority --persist /dev/zram5 5 >/tmp/prio.json 2>/tmp/prio.err || rc=$?
cat /tmp/prio.json /tmp/prio.err
assert_eq 0 "$rc" "swap priority --persist /dev/zram5 5 (exit 0)"
no_moving_line "$(cat /tmp/prio.json)" "swap priority --json: the document alone"
if json_load /tmp/prio.json; then
	assert_eq "1 5 true both" \
		"$(jv .old_priority) $(jv .new_priority) $(jv .live_changed) $(jv .discard)" \
		"old and new priority, changed live, discard flag from /etc/fstab"
	held_kb=$(jv .used_kb)
	assert_ge $((held_kb * 10)) $((used5 * 9)) "it knew what the device held ($held_kb KiB)"
	assert_eq "1 5 true" "$(jv .fstab.old_priority) $(jv .fstab.new_priority) $(jv .fstab.changed)" \
		"fstab: pri=1 -> pri=5"
fi
cat /proc/swaps
assert_eq 5 "$(swap_prio /dev/zram5)" "/dev/zram5 has priority 5"
assert_le "$(swap_used /dev/zram5)" 1024 "/dev/zram5 was emptied into memory (KiB used)"
assert_eq "${fstab/sw,discard,pri=1/sw,discard,pri=5}" "$(cat /etc/fstab)"$'\n' \
	"/etc/fstab: pri=5 on the zram5 line, every other byte as it was"
assert_eq 640 "$(stat -c %a /etc/fstab)" "/etc/fstab keeps its mode"
assert_eq keep-me "$(xattr get /etc/fstab trusted.reclaimctl-test)" "/etc/fstab keeps its trusted.* xattr"
assert_eq keep-me-too "$(xattr get /etc/fstab user.reclaimctl-test)" "/etc/fstab keeps its user.* xattr"
reclaimctl swap --json >/tmp/swap2.json || fail "reclaimctl swap --json failed"
check_rings /tmp/swap2.json "/dev/zram0 /dev/zram1 /dev/zram2 /dev/zram3 /dev/zram5" "/dev/zram4"

step "the hog verifies every word it wrote"
finish_hog "$hog" /tmp/verify /tmp/hog.out "the hog"

step "back to priority 1 with pages of a second hog on it"
# In the cgroup again: its pages go to the priority 5 ring, /dev/zram5 among it.
cgroup_hog 32 7 4M /tmp/verify2 /tmp/hog2.out
cat /proc/swaps
used5=$(swap_used /dev/zram5)
assert_gt "$used5" 0 "the second hog has pages on /dev/zram5 (KiB)"
# into a pipe: the "moving" line, no progress
rc=0
reclaimctl swap priority /dev/zram5 1 >/tmp/prio-pipe.out 2>&1 || rc=$?
sed 's/^/  | /' /tmp/prio-pipe.out
assert_eq 0 "$rc" "swap priority /dev/zram5 1 (exit 0)"
assert_match '^moving [0-9.]+[KMG] back to memory from /dev/zram5\.\.\.$' "$(head -n 1 /tmp/prio-pipe.out)" \
	"not on a terminal: first 'moving SIZE back to memory from /dev/zram5...'"
assert_eq "/dev/zram5: priority 5 -> 1" "$(sed -n 2p /tmp/prio-pipe.out)" "then the usual lines"
if grep -q $'\r' /tmp/prio-pipe.out; then fail "not on a terminal: no progress line (\\r)"; else ok "not on a terminal: no progress line"; fi
assert_eq 1 "$(swap_prio /dev/zram5)" "/dev/zram5 has priority 1 again"
finish_hog "$hog_pid" /tmp/verify2 /tmp/hog2.out "the second hog"

step "on a terminal: the progress of swapoff, rewritten in place"
# /dev/zram5 alone in the highest ring; empty, it has nothing to announce
used5=$(swap_used /dev/zram5)
rc=0
out=$(ptyrun reclaimctl swap priority /dev/zram5 10 2>&1) || rc=$?
printf '  | %s\n' "${out//$'\r'/<CR>}"
assert_eq 0 "$rc" "swap priority /dev/zram5 10 on a terminal (exit 0)"
if ((used5 == 0)); then
	no_moving_line "$out" "an empty /dev/zram5 on a terminal"
	assert_match 'nothing to take back into memory \(0 KiB used\)' "$out" "it says there is nothing to take back"
else
	log "/dev/zram5 holds $used5 KiB already: not the empty case"
fi
assert_eq 10 "$(swap_prio /dev/zram5)" "/dev/zram5 has priority 10"
cgroup_hog 96 11 16M /tmp/verify3 /tmp/hog3.out
cat /proc/swaps
used5=$(swap_used /dev/zram5)
assert_ge "$used5" $((48 * 1024)) "most of the third hog's 96 MiB are on /dev/zram5 (KiB)"
# the command without swapoff, for how long swapoff itself takes
t0=$(uptime_cs)
reclaimctl swap priority --dry-run /dev/zram5 1 >/dev/null 2>&1 || true
t1=$(uptime_cs)
rc=0
ptyrun reclaimctl swap priority /dev/zram5 1 >/tmp/prio-tty.out 2>/tmp/prio-tty.err || rc=$?
t2=$(uptime_cs)
swapoff_ms=$((((t2 - t1) - (t1 - t0)) * 10))
out=$(cat /tmp/prio-tty.out)
printf '  | %s\n' "${out//$'\r'/<CR>}"
cat /tmp/prio-tty.err
assert_eq 0 "$rc" "swap priority /dev/zram5 1 on a terminal (exit 0)"
assert_eq "" "$(cat /tmp/prio-tty.err)" "nothing on stderr"
first=${out%%$'\n'*}
moving_re='^moving ([0-9.]+[KMG]) back to memory from /dev/zram5\.\.\.$'
size=
if [[ $first =~ $moving_re ]]; then
	size=${BASH_REMATCH[1]}
	ok "on a terminal: first 'moving $size back to memory from /dev/zram5...'"
	kib=$(kib_of "$size")
	assert_ge $((kib * 10)) $((used5 * 9)) "the size it moves ($size) is what the device held ($used5 KiB), x 10 >= x 9"
	assert_le $((kib * 10)) $((used5 * 11)) "the size it moves ($size) is what the device held ($used5 KiB), x 10 <= x 11"
else
	fail "on a terminal: the first line is not 'moving SIZE back to memory from /dev/zram5...': '$first'"
fi
rest=${out#*$'\n'}
progress=${rest%%/dev/zram5: priority*}
assert_match '^/dev/zram5: priority 10 -> 1' "${rest:${#progress}}" "then the usual lines"
# the part before them: "\r  X of SIZE back in memory (N%)" each, then spaces over the last
progress_re='^  ([0-9.]+[KMG]) of ([0-9.]+[KMG]) back in memory \(([0-9]+)%\) *$'
IFS=$'\r' read -ra segments <<<"$progress"
lines=0 bad=0 last=-1 cleared=0
for seg in "${segments[@]}"; do
	[[ -n $seg ]] || continue
	if ((cleared)); then
		bad=$((bad + 1)) # nothing after the clearing
	elif [[ $seg =~ $progress_re ]]; then
		lines=$((lines + 1))
		[[ ${BASH_REMATCH[2]} == "$size" ]] || bad=$((bad + 1))
		# 100% once the device is empty, though swapoff has not returned yet
		((BASH_REMATCH[3] >= last)) || bad=$((bad + 1))
		((BASH_REMATCH[3] < 100)) || [[ ${BASH_REMATCH[1]} == "$size" ]] || bad=$((bad + 1))
		last=${BASH_REMATCH[3]}
	elif [[ $seg =~ ^\ +$ ]]; then
		cleared=1
	else
		bad=$((bad + 1))
	fi
done
log "swapoff took about $swapoff_ms ms; $lines progress line(s), the last at ${last}%"
assert_eq 0 "$bad" "every progress line reads '  X of $size back in memory (N%)', N going up, 100 only with all of it back"
if ((lines > 0)); then
	assert_eq 1 "$cleared" "the progress line is cleared when swapoff returns"
fi
if ((swapoff_ms >= 1000)); then
	assert_ge "$lines" 1 "swapoff took $swapoff_ms ms: progress lines (one every 0.5 s)"
else
	log "swapoff took less than a second: progress lines are not required"
fi
assert_eq 1 "$(swap_prio /dev/zram5)" "/dev/zram5 has priority 1"
assert_le "$(swap_used /dev/zram5)" 1024 "/dev/zram5 was emptied into memory (KiB used)"
finish_hog "$hog_pid" /tmp/verify3 /tmp/hog3.out "the third hog"

step "the history has every change made; restore puts them back, live and in /etc/fstab"
reclaimctl history
reclaimctl --json history >/tmp/history.json || fail "reclaimctl history --json failed"
cat /run/reclaimctl/history
# made: --persist 1 -> 5, 5 -> 1, 1 -> 10, 10 -> 1; refused, dry runs and unchanged ones are not changes
assert_eq "swap-priority:1:5:1 swap-priority:5:1:null swap-priority:1:10:null swap-priority:10:1:null" \
	"$(for i in 0 1 2 3; do printf '%s:%s:%s:%s ' "$(jsonq /tmp/history.json ".records[$i].command")" \
		"$(jsonq /tmp/history.json ".records[$i].old")" "$(jsonq /tmp/history.json ".records[$i].new")" \
		"$(jsonq /tmp/history.json ".records[$i].fstab_before")"; done | sed 's/ $//')" \
	"history: the four changes of /dev/zram5, the first with /etc/fstab's pri=1 before it"
assert_eq 4 "$(jsonq -l /tmp/history.json .records)" "history: four records, no more"
assert_eq "/dev/zram5 null" "$(jsonq /tmp/history.json '.records[0].device') $(jsonq /tmp/history.json '.records[0].knob')" \
	"history --json: the device, no knob"
assert_match 'swap /dev/zram5' "$(reclaimctl history)" "history: the device in the KNOB column"
rc=0
out=$(reclaimctl restore --dry-run 2>&1) || rc=$?
printf '  | %s\n' "$out"
assert_eq 0 "$rc" "restore --dry-run (exit 0)"
assert_match '^would change /dev/zram5: priority 1 -> 10 \(undoes change 4 \(swap-priority at' "$out" \
	"restore --dry-run: the newest change undone"
assert_eq 1 "$(swap_prio /dev/zram5)" "restore --dry-run changed nothing"
rc=0
out=$(reclaimctl restore 2>&1) || rc=$?
printf '  | %s\n' "$out"
assert_eq 0 "$rc" "restore (exit 0)"
assert_match '^/dev/zram5: priority 1 -> 10 \(undoes change 4' "$out" "restore: what it did"
assert_eq 10 "$(swap_prio /dev/zram5)" "restore: /dev/zram5 back to priority 10, live"
rc=0
out=$(reclaimctl restore --boot 2>&1) || rc=$?
printf '  | %s\n' "$out"
assert_eq 0 "$rc" "restore --boot (exit 0)"
assert_eq 1 "$(swap_prio /dev/zram5)" "restore --boot: /dev/zram5 at its priority before the first change, live"
assert_eq "$fstab" "$(cat /etc/fstab)"$'\n' "restore --boot: /etc/fstab as it was before --persist, byte for byte"
assert_match 'nothing to restore' "$(reclaimctl restore 2>&1)" "then restore has nothing left to undo"
reclaimctl history

check_dmesg_clean
