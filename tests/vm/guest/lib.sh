# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Helpers for the guest-side scenario scripts (tests/vm/scenarios/*.sh).
# Sourced by every scenario:  source /vm/lib.sh
#
# Failures come in two kinds:
#   fail MSG      record a failed check and go on (the scenario FAILs at exit)
#   die MSG       give up now (the scenario FAILs)
# assert_* helpers call fail; require_* helpers call die. A scenario that runs
# to its end without a recorded failure PASSes. Checks print "ok: ..." or
# "FAIL: ..." so the console log reads as a transcript.

VM_FAILS=0
KNOB_DIR=${KNOB_DIR:-/proc/sys/vm}
KNOB_THREADS=$KNOB_DIR/kswapd_threads
KNOB_THROTTLE=$KNOB_DIR/max_direct_reclaimers
KNOB_QUOTA=$KNOB_DIR/swap_round_robin_quota_kb
RECLAIMCTL=${RECLAIMCTL:-reclaimctl}
# Which boot this is, in a scenario of several ("# vm-boots: N", vm-root:
# debian): 1..VM_BOOTS; a scenario does "case $VM_BOOT in 1) ... ;; 2) ..."
# and keeps what a later boot needs on the disk (e.g. /var/lib/..., not /tmp
# or /run).
# shellcheck disable=SC2034 # for the scenarios
VM_BOOT=${RECLAIMCTL_VM_BOOT:-1}
# shellcheck disable=SC2034
VM_BOOTS=${RECLAIMCTL_VM_BOOTS:-1}

VM_CLEANUP=()
# at_exit CMD: run CMD (e.g. a function stopping background hogs) when the
# scenario ends, before the verdict
at_exit() { VM_CLEANUP+=("$1"); }

# Background hogs: a scenario adds their pids to HOGS; stop_hogs kills and
# reaps them, and runs by itself when the scenario ends.
HOGS=()
stop_hogs() {
	local p
	for p in "${HOGS[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${HOGS[@]}"; do wait "$p" 2>/dev/null || true; done
	HOGS=()
}
at_exit stop_hogs
# start_ram_hog: a hog of 48 MiB more than MemAvailable, writing and reading
# it back 100 times, in the background (kswapd busy, direct reclaim now and
# then, swapping); stop_ram_hog ends it
RAM_HOG_PID=
start_ram_hog() {
	memhog -q -m "$(($(mem_avail_mb) + 48))" -p 100 &
	RAM_HOG_PID=$!
	HOGS+=("$RAM_HOG_PID")
}
stop_ram_hog() {
	kill "$RAM_HOG_PID" 2>/dev/null || true
	wait "$RAM_HOG_PID" 2>/dev/null || true
}

# adapt and the watermark (adapt-watermark, stock-adapt): the thresholds
# that see a hog's bursts under TCG as "kswapd woke too late", the knob's
# value, and adapt's changes of it as "OLD NEW" lines, from its output
# ("HH:MM:SS watermark_scale_factor 10 -> 20: REASON") and from the history
WSF=$KNOB_DIR/watermark_scale_factor
WMARK_ADAPT_OPTS=(-i 1 --up-direct 0.5 --wmark-hits 0.5 --up-window 5 --down-cpu 10
	--down-psi 30 --down-window 8 --cooldown 4 --wmark-step 10 --wmark-max 30)
wsf() { readf "$WSF"; }
wsf_above() { (($(wsf) > $1)); }
wsf_is() { [[ $(wsf) == "$1" ]]; }
wmark_output_changes() { sed -n 's/^[0-9:]* watermark_scale_factor \([0-9]*\) -> \([0-9]*\): .*/\1 \2/p' "$1"; }
wmark_history_changes() {
	awk '/command=adapt / && /knob=watermark_scale_factor/ { sub(/.*old=/, ""); sub(/ new=/, " "); print }' \
		/run/reclaimctl/history 2>/dev/null
}
# adapt (adapt, adapt-watermark, stock-adapt): its state file, and the
# start of a run under a RAM hog
ADAPT_STATE=/run/reclaimctl/adapt
# adapt_start OUT STATE MSG [OPTION...]: reclaimctl adapt OPTIONs in the
# background (adapt_pid, killed when the scenario ends), its output to OUT;
# its state file, on one line, must read "pid=ADAPT_PID STATE" (MSG)
adapt_start() {
	local out=$1 want=$2 msg=$3
	shift 3
	reclaimctl adapt "$@" >"$out" 2>&1 &
	adapt_pid=$!
	# shellcheck disable=SC2016 # expanded when the scenario ends
	at_exit 'kill $adapt_pid 2>/dev/null || true'
	wait_for 10 "adapt wrote $ADAPT_STATE" -- test -s "$ADAPT_STATE" || true
	assert_eq "pid=$adapt_pid $want" "$(tr '\n' ' ' <"$ADAPT_STATE" | sed 's/ $//')" "$ADAPT_STATE: $msg"
}
# hog_until SECONDS DESCRIPTION -- CMD...: start_ram_hog, then wait_for CMD;
# logs how long it took from the hog's start
hog_until() {
	local secs=$1 desc=$2 t0
	shift 2
	start_ram_hog
	t0=$(now)
	if wait_for "$secs" "$desc" "$@"; then
		log "$desc $(awk -v a="$(now)" -v b="$t0" 'BEGIN {printf "%.1f", a - b}') s after the hog started"
	fi
}
# adapt_raise_watermark STATE MSG [OPTION...]: adapt_start with
# WMARK_ADAPT_OPTS and OPTIONs (output in /tmp/adapt.out), then a RAM hog and
# up to 120 s for adapt to raise the watermark above 10
adapt_raise_watermark() {
	local want=$1 msg=$2
	shift 2
	adapt_start /tmp/adapt.out "$want" "$msg" "$@" "${WMARK_ADAPT_OPTS[@]}"
	hog_until 120 "watermark_scale_factor above 10" -- wsf_above 10
}
# new_hog_out: sets HOG_OUT to a file for the output of a background hog that
# the scenario then polls (wait_for ... grep -q OK "$HOG_OUT"). The name is
# one no earlier call gave (the count goes on through stop_hogs; $$ for a
# script run once per round, e.g. a sweep's command), and the file is made
# empty here, before the hog starts: the hog's own ">FILE &" truncates only
# once the background process runs, and a poll before that must not find
# what an earlier round wrote. (No rm first: a fork per hog under TCG, and
# a new name has no other writer.)
HOG_OUTS=0
new_hog_out() {
	HOG_OUTS=$((HOG_OUTS + 1))
	HOG_OUT=/tmp/hog.$$.$HOG_OUTS.out
	: >"$HOG_OUT"
}
_vm_exit() {
	local rc=$? c
	for c in "${VM_CLEANUP[@]}"; do
		eval "$c" || true
	done
	if ((rc != 0)); then
		echo "FAIL: scenario exited with status $rc (line ${BASH_LINENO[0]:-?})"
	elif ((VM_FAILS > 0)); then
		echo "FAIL: $VM_FAILS check(s) failed"
		rc=1
	fi
	exit "$rc"
}
trap _vm_exit EXIT

# Seconds since boot, for the transcript.
now() {
	local up _
	read -r up _ </proc/uptime
	echo "$up"
}
log() { printf '[t=%s] %s\n' "$(now)" "$*"; }
step() { printf '\n[t=%s] === %s\n' "$(now)" "$*"; }
ok() { printf 'ok: %s\n' "$*"; }
fail() {
	printf 'FAIL: %s\n' "$*"
	VM_FAILS=$((VM_FAILS + 1))
	return 0
}
die() {
	printf 'FATAL: %s\n' "$*"
	exit 1
}

# ---------------------------------------------------------------------------
# Assertions (soft: record and continue)

# assert_eq EXPECTED ACTUAL MSG
assert_eq() {
	if [[ $1 == "$2" ]]; then ok "$3 ($2)"; else fail "$3: expected '$1', got '$2'"; fi
}
assert_ne() {
	if [[ $1 != "$2" ]]; then ok "$3 ($2)"; else fail "$3: got '$2', which it must not be"; fi
}
# assert_int OP A B MSG   with OP one of -eq -ne -lt -le -gt -ge
assert_int() {
	local op=$1 a=$2 b=$3 msg=$4
	if ! [[ $a =~ ^-?[0-9]+$ && $b =~ ^-?[0-9]+$ ]]; then
		fail "$msg: not integers: '$a' $op '$b'"
	elif test "$a" "$op" "$b"; then
		ok "$msg ($a $op $b)"
	else
		fail "$msg: expected $a $op $b"
	fi
}
assert_gt() { assert_int -gt "$@"; }
assert_ge() { assert_int -ge "$@"; }
assert_le() { assert_int -le "$@"; }
assert_lt() { assert_int -lt "$@"; }
# assert_file_eq FILE EXPECTED MSG
assert_file_eq() {
	local got
	if ! got=$(cat "$1" 2>/dev/null); then
		fail "$3: cannot read $1"
		return 0
	fi
	assert_eq "$2" "$got" "$3"
}
# assert_match REGEX STRING MSG   (bash ERE)
assert_match() {
	if [[ $2 =~ $1 ]]; then ok "$3"; else fail "$3: '$2' does not match /$1/"; fi
}
# assert_rc EXPECTED_RC MSG -- CMD...   runs CMD, shows its output, checks its exit status
assert_rc() {
	local want=$1 msg=$2 rc=0 out
	shift 2
	[[ ${1:-} == -- ]] && shift
	out=$("$@" 2>&1) || rc=$?
	printf '  $ %s  -> %d\n' "$*" "$rc"
	[[ -z $out ]] || sed -n '1,40s/^/  | /p' <<<"$out"
	if ((rc == want)); then ok "$msg (exit $rc)"; else fail "$msg: '$*' exited $rc, expected $want"; fi
}
# run CMD...: show a command and its output; returns its exit status
run() {
	local rc=0
	printf '  $ %s\n' "$*"
	"$@" || rc=$?
	((rc == 0)) || printf '  (exit %d)\n' "$rc"
	return "$rc"
}

# bounded SECONDS CMD...: CMD, killed if it has not ended after SECONDS (exit
# 137). Before the kill, what it was waiting on goes to the console: the
# state and kernel stack of each of its threads, memory pressure, and the
# kernel's list of blocked tasks (sysrq w). A hang then fails its step at
# once and says where, instead of running into the scenario's timeout.
bounded() {
	local secs=$1 pid watch rc=0
	shift
	"$@" &
	pid=$!
	(
		# a kill of this watcher ends its sleep too, not left to run out
		trap 'kill "$nap" 2>/dev/null; exit 0' TERM
		sleep "$secs" &
		nap=$!
		wait "$nap"
		hang_report "$pid" "$*" >/dev/console 2>&1
		kill -KILL "$pid" 2>/dev/null
	) &
	watch=$!
	wait "$pid" || rc=$?
	kill "$watch" 2>/dev/null || true
	wait "$watch" 2>/dev/null || true
	return "$rc"
}
hang_report() {
	local t
	printf 'HANG: %s (pid %s) still running\n' "$2" "$1"
	for t in /proc/"$1"/task/*; do
		printf '  thread %s: %s, wchan %s\n' "${t##*/}" "$(status_field "${t##*/}" State)" "$(cat "$t/wchan" 2>/dev/null)"
		sed 's/^/    /' "$t/stack" 2>/dev/null || true
	done
	printf '  loadavg %s\n' "$(cat /proc/loadavg)"
	grep -E '^(allocstall_normal|pgscan_direct|pswpin|pswpout|oom_kill) ' /proc/vmstat | xargs printf '  %s %s\n'
	sed 's/^/  memory pressure: /' /proc/pressure/memory 2>/dev/null || true
	echo w >/proc/sysrq-trigger 2>/dev/null || true
}

# ---------------------------------------------------------------------------
# Requirements (hard)

require_file() {
	[[ -e $1 ]] || die "${2:-missing $1}"
}
# The patched kernel's interface: mandatory for the test suite.
require_patched_kernel() {
	local f
	for f in "$KNOB_THREADS" "$KNOB_THROTTLE" "$KNOB_QUOTA"; do
		[[ -e $f ]] || die "this kernel has no $f: the kernel/patches/ series is required (kernel $(uname -r))"
	done
	grep -q '^direct_reclaim_throttled ' /proc/vmstat ||
		die "this kernel has no direct_reclaim_throttled in /proc/vmstat: the kernel/patches/ series is required"
}
require_cmd() {
	command -v "$1" >/dev/null || die "missing command in the initramfs: $1"
}

# wait_for SECONDS DESCRIPTION -- CMD...   poll CMD every 0.2 s until it succeeds.
# CMD's arguments are expanded once, by the caller: to wait for a changing
# value, give a function that reads it (threads_per_node, vmstat_above, ...).
wait_for() {
	local secs=$1 desc=$2 up _ end
	shift 2
	[[ ${1:-} == -- ]] && shift
	read -r up _ </proc/uptime
	end=$((${up%.*} + secs))
	until "$@"; do
		read -r up _ </proc/uptime
		if ((${up%.*} >= end)); then
			fail "timed out after ${secs}s waiting for: $desc"
			return 1
		fi
		sleep 0.2
	done
	return 0
}

# ---------------------------------------------------------------------------
# Lists and topology
#
# These avoid forking: under TCG a fork+exec costs ~25 ms, and the scenarios
# call them hundreds of times (read builtins, bash arrays, no cat/awk/sort).

# readf FILE -> its first line ("" if unreadable)
readf() {
	local line=''
	{ IFS= read -r line <"$1"; } 2>/dev/null || true
	printf '%s\n' "$line"
}
# expand_list "0-2,5" -> "0 1 2 5"   (kernel cpulist/nodelist format; "" -> "")
expand_list() {
	local item items=() parts=() i
	IFS=, read -ra parts <<<"${1//[[:space:]]/}"
	for item in "${parts[@]}"; do
		[[ -n $item ]] || continue
		if [[ $item == *-* ]]; then
			for ((i = ${item%-*}; i <= ${item#*-}; i++)); do items+=("$i"); done
		else
			items+=("$item")
		fi
	done
	echo "${items[*]:-}"
}
# canon_list "0-1" / "0,1" / "[0,1]" / "0 1" -> "0,1" (sorted, numeric, unique)
canon_list() {
	local s=${1//[\[\]]/} i
	local -a set=() items=()
	s=${s// /,}
	for i in $(expand_list "$s"); do set[i]=1; done
	items=("${!set[@]}") # indexed arrays iterate in index order
	local IFS=,
	echo "${items[*]:-}"
}
# Nodes with memory / all online nodes / nodes with CPUs, space separated.
memory_nodes() { expand_list "$(readf /sys/devices/system/node/has_memory)"; }
online_nodes() { expand_list "$(readf /sys/devices/system/node/online)"; }
cpu_nodes() { expand_list "$(readf /sys/devices/system/node/has_cpu)"; }
node_cpus() { canon_list "$(readf "/sys/devices/system/node/node$1/cpulist")"; }
# node_meminfo N FIELD -> that field of the node's meminfo, in KiB
node_meminfo() {
	local a b c kb _
	while read -r a b c kb _; do
		[[ $c == "$2:" ]] && echo "$kb" && return 0
	done <"/sys/devices/system/node/node$1/meminfo"
	echo ""
}
# MemTotal of a node in KiB; MemFree of a node in MiB
node_mem_kb() { node_meminfo "$1" MemTotal; }
node_free_mb() { echo $(($(node_meminfo "$1" MemFree) / 1024)); }

# ---------------------------------------------------------------------------
# kswapd threads

# The test module kswapd_info (kmod/kswapd_info.c) watches every node's
# kswapd threads while loaded and prints what it saw when removed.
# kswapd_info_unload: remove it
kswapd_info_unload() { rmmod kswapd_info || die "rmmod kswapd_info failed"; }
# kswapd_info_seen NODE FIELD: FIELD (kswapd_failures_max, hint_lost; with
# watch_nid=NODE also failures, by_helper, by_stopping, holds,
# entered_in_hold, hint_cleared) of the last line the module printed for NODE
# on removal
kswapd_info_seen() {
	dmesg | awk -v head="kswapd_info: nid=$1 kswapd_failures_max=" -v f="$2=" '
		index($0, head) { for (i = 1; i <= NF; i++) if (index($i, f) == 1) v = substr($i, length(f) + 1) }
		END { print v }'
}

# kswapd_threads [NODE]: "PID NAME" for each kswapd thread (of NODE), sorted by
# node, then thread index (kswapd0 kswapd0:1 .. kswapd0:10 kswapd1 ..)
kswapd_threads() {
	local node=${1:-} f pid comm re
	local -a by=()
	if [[ -n $node ]]; then re="^kswapd(${node})(:([0-9]+))?$"; else re='^kswapd([0-9]+)(:([0-9]+))?$'; fi
	for f in /proc/[0-9]*/comm; do
		comm=''
		{ read -r comm <"$f"; } 2>/dev/null || continue
		[[ $comm =~ $re ]] || continue
		pid=${f#/proc/}
		pid=${pid%/comm}
		by[BASH_REMATCH[1] * 10000 + ${BASH_REMATCH[3]:-0}]="$pid $comm"
	done
	((${#by[@]} == 0)) || printf '%s\n' "${by[@]}"
}
# kswapd_count NODE: threads of one node; kswapd_total: of all nodes
kswapd_count() {
	local -a l
	mapfile -t l < <(kswapd_threads "$1")
	echo "${#l[@]}"
}
kswapd_total() { kswapd_count ""; }
# kswapd_names NODE -> "kswapd0 kswapd0:1 ..." (space separated, in order)
kswapd_names() {
	local pid name out=()
	while read -r pid name; do out+=("$name"); done < <(kswapd_threads "$1")
	echo "${out[*]:-}"
}
# threads_per_node N: true if every node with memory runs exactly N kswapd
# threads (and there are no others), for wait_for
threads_per_node() {
	local nodes
	nodes=$(memory_nodes)
	(($(kswapd_total) == $(wc -w <<<"$nodes") * $1))
}
# wait_threads N: wait (10 s) until threads_per_node N; records a failure if not.
# Stopped threads may linger in /proc for a moment after kthread_stop().
wait_threads() { wait_for 10 "$1 kswapd thread(s) per node" -- threads_per_node "$1" || true; }
# expected_names NODE N -> "kswapdN kswapdN:1 .. kswapdN:N-1"
expected_names() {
	local node=$1 n=$2 i names="kswapd$1"
	for ((i = 1; i < n; i++)); do names+=" kswapd$node:$i"; done
	echo "$names"
}
# task_cpu_ticks PID -> utime+stime in clock ticks (0 if gone)
task_cpu_ticks() {
	local stat='' rest
	local -a f
	{ read -r stat <"/proc/$1/stat"; } 2>/dev/null || true
	if [[ -z $stat ]]; then
		echo 0
		return 0
	fi
	rest=${stat##*) }
	read -ra f <<<"$rest"
	# fields after "comm)": state is field 3, utime 14, stime 15
	echo $((f[11] + f[12]))
}
# status_field PID FIELD -> the value of "FIELD:" in /proc/PID/status
status_field() {
	local k v
	while read -r k v; do
		[[ $k == "$2:" ]] && echo "$v" && return 0
	done <"/proc/$1/status"
	echo ""
}
cpus_allowed() { canon_list "$(status_field "$1" Cpus_allowed_list)"; }
task_state() {
	local s
	s=$(status_field "$1" State)
	echo "${s%% *}"
}

# ---------------------------------------------------------------------------
# vmstat, knobs

vmstat() {
	local k v
	while read -r k v; do
		[[ $k == "$1" ]] && echo "$v" && return 0
	done </proc/vmstat
	echo ""
}
# vmstat_above KEY N: true if the counter is above N (for wait_for)
vmstat_above() { (($(vmstat "$1") > $2)); }
# allocstall: direct reclaims since the boot, of every zone
allocstall() { awk '$1 ~ /^allocstall_/ { s += $2 } END { print s + 0 }' /proc/vmstat; }
allocstall_above() { (($(allocstall) > $1)); }
knob_read() { cat "$1"; }
# knob_write FILE VALUE: write via the shell; returns the write's status
knob_write() { { printf '%s\n' "$2" >"$1"; } 2>/dev/null; }
# knob_write_err FILE VALUE -> prints the error text of a failed write ("" if ok)
knob_write_err() {
	local err
	if err=$({ printf '%s\n' "$2" >"$1"; } 2>&1); then echo ""; else echo "${err##*: }"; fi
}

# ---------------------------------------------------------------------------
# QEMU monitor, memory hot-plug

# vm_monitor COMMAND...: ask the host to run COMMAND on QEMU's monitor (an HMP
# command line, or QMP JSON starting with "{"); needs "# vm-monitor: yes" in
# the scenario (run-scenario.sh then puts rcmonitor=1 on the command line).
# There is no answer: wait_for the effect. A command that fails on the host
# FAILs the scenario there (see NAME.monitor.log).
vm_monitor() {
	[[ " $(readf /proc/cmdline) " == *" rcmonitor=1 "* ]] ||
		die "vm_monitor $*: the host relays no monitor commands (the scenario needs '# vm-monitor: yes')"
	log "monitor: $*"
	# one write: the host takes only whole lines that start with the marker
	printf 'RECLAIMCTL-VM-MONITOR: %s\n' "$*"
}
# node_has_memory N: true if node N is in has_memory
node_has_memory() { [[ " $(memory_nodes) " == *" $1 "* ]]; }
node_no_memory() { ! node_has_memory "$1"; }
# node_memory_blocks N -> "memory32 memory33" (the node's memory blocks)
node_memory_blocks() {
	local f out=()
	for f in /sys/devices/system/node/node"$1"/memory[0-9]*; do
		[[ -e $f ]] && out+=("${f##*/}")
	done
	echo "${out[*]:-}"
}
no_memory_blocks() { [[ -z $(node_memory_blocks "$1") ]]; }
# node_blocks_online N COUNT: true if node N has COUNT memory blocks, all online
node_blocks_online() {
	local b n=0
	for b in $(node_memory_blocks "$1"); do
		[[ $(readf "/sys/devices/system/memory/$b/state") == online ]] || return 1
		n=$((n + 1))
	done
	((n == $2))
}
# memory_block_bytes -> the memory block size in bytes
memory_block_bytes() { echo $((16#$(readf /sys/devices/system/memory/block_size_bytes))); }

# ---------------------------------------------------------------------------
# zram swap

# zram_add SIZE -> prints /dev/zramN (an unused device, or a new one, with that disksize)
zram_add() {
	local id='' d
	[[ -e /sys/class/zram-control/hot_add ]] || die "no /sys/class/zram-control (CONFIG_ZRAM?)"
	for d in /sys/block/zram[0-9]*; do
		[[ -e $d/disksize && $(cat "$d/disksize") == 0 ]] || continue
		id=${d#/sys/block/zram}
		break
	done
	if [[ -z $id ]]; then
		id=$(cat /sys/class/zram-control/hot_add)
		[[ $id =~ ^[0-9]+$ ]] || die "zram hot_add failed: $id"
	fi
	wait_for 10 "/dev/zram$id" -- test -b "/dev/zram$id" || die "/dev/zram$id did not appear"
	echo "$1" >"/sys/block/zram$id/disksize"
	echo "/dev/zram$id"
}
# zram_swap SIZE [PRIO] -> prints /dev/zramN, mkswap'ed and enabled
zram_swap() {
	local dev
	dev=$(zram_add "$1")
	mkswap "$dev" >/dev/null || die "mkswap $dev failed"
	if [[ -n ${2:-} ]]; then
		swapon-prio -p "$2" "$dev" || die "swapon -p $2 $dev failed"
	else
		swapon "$dev" || die "swapon $dev failed"
	fi
	echo "$dev"
}
# ---------------------------------------------------------------------------
# reclaimctl latency's tracing

TRACEFS=/sys/kernel/tracing
# latency_instances: the tracefs instances of reclaimctl latency runs, a line each
latency_instances() {
	local d
	for d in "$TRACEFS"/instances/reclaimctl-latency-*; do [[ ! -e $d ]] || echo "${d##*/}"; done
}
# latency_armed N: N runs have their tracing in place. The instance appears
# before its triggers, and a reclaim before them is not counted (under TCG
# on a loaded host the setup can take seconds); the last trigger a run adds
# is kswapd's end's.
latency_armed() {
	local d n=0
	for d in "$TRACEFS"/instances/reclaimctl-latency-*; do
		grep -qs onmatch "$d/events/vmscan/mm_vmscan_kswapd_sleep/trigger" && n=$((n + 1))
	done
	((n == $1))
}
# latency_window PID: the stopped task PID runs 5 s, a second after the
# call; prints allocstall before and after ("A0 A1"), each a second from
# the task's run, and leaves it stopped
latency_window() {
	local a0 a1
	sleep 1
	a0=$(allocstall)
	kill -CONT "$1"
	sleep 5
	kill -STOP "$1"
	sleep 1
	a1=$(allocstall)
	echo "$a0 $a1"
}

# swap_used DEV -> KiB used from /proc/swaps
swap_used() { awk -v d="$1" '$1 == d {print $4}' /proc/swaps; }
swap_prio() { awk -v d="$1" '$1 == d {print $5}' /proc/swaps; }
swapoff_all() {
	local d
	while read -r d; do
		swapoff "$d" || fail "swapoff $d failed"
	done < <(awk 'NR > 1 {print $1}' /proc/swaps)
}
# zram_remove /dev/zramN (after swapoff)
zram_remove() {
	local id=${1#/dev/zram}
	echo "$id" >/sys/class/zram-control/hot_remove || fail "zram hot_remove $id failed"
}

# ---------------------------------------------------------------------------
# memory pressure

# mem_total_mb -> MemTotal in MiB
mem_total_mb() { awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo; }
mem_avail_mb() { awk '/^MemAvailable:/ {print int($2 / 1024)}' /proc/meminfo; }

# Run one command per argument group in the background and wait for all,
# checking each exit status:  run_parallel "memhog -m 100" "memhog -m 100"
run_parallel() {
	local pids=() cmd i rc=0 r
	for cmd in "$@"; do
		# shellcheck disable=SC2086
		$cmd &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		r=0
		wait "${pids[$i]}" || r=$?
		if ((r != 0)); then
			fail "'${*:i+1:1}' exited $r"
			rc=1
		fi
	done
	return "$rc"
}

# Show what happened, for the transcript.
show_memory() {
	log "memory: $(awk '/^(MemTotal|MemFree|MemAvailable|SwapTotal|SwapFree):/ {printf "%s %d MiB  ", $1, $2/1024}' /proc/meminfo)"
}
show_kswapd() {
	local pid name
	while read -r pid name; do
		printf '  %-10s pid %-5s state %s ticks %-5s cpus %s\n' "$name" "$pid" \
			"$(task_state "$pid")" "$(task_cpu_ticks "$pid")" "$(cpus_allowed "$pid")"
	done < <(kswapd_threads)
}

# ---------------------------------------------------------------------------
# JSON: jsonq (a static helper) checks and flattens a document once; the
# values are then read from the associative array JSON without forking:
#   json_load /tmp/status.json || fail ...
#   "${JSON[.knobs.kswapd_threads.value]-missing}"
#   "${JSON[.nodes:len]}" "${JSON[.nodes[0].cpus]}" (arrays of scalars: "0,1")
#   "${JSON[.vmstat:type]}" (object array string number true false null)
declare -gA JSON=()
json_load() {
	local out line
	JSON=()
	out=$(jsonq -f "$1") || return 1
	while IFS= read -r line; do
		JSON[${line%%=*}]=${line#*=}
	done <<<"$out"
}
# jv PATH -> the loaded value, or "missing"
jv() { echo "${JSON[$1]-missing}"; }
# int X -> X rounded down (for assert_gt)
int() { printf '%d' "${1%.*}"; }

# The kernel log so far must be clean (the host checks the whole console too).
check_dmesg_clean() {
	local bad
	bad=$(dmesg | grep -E 'WARNING:|BUG:|Oops|possible circular locking|inconsistent lock state|possible recursive locking|blocked for more than|hung_task|Kernel panic|sleeping function called from invalid context' | head -n 20 || true)
	if [[ -n $bad ]]; then
		fail "kernel log has warnings:"
		printf '%s\n' "$bad" | sed 's/^/  | /'
	else
		ok "kernel log clean"
	fi
}

# ---------------------------------------------------------------------------
# systemd (vm-root: debian scenarios; run by reclaimctl-vm-check.service after
# the boot)

# unit_load UNIT: its state into the associative array UNIT:
#   ${UNIT[ActiveState]} ${UNIT[SubState]} ${UNIT[Result]} ${UNIT[ExecMainStatus]}
#   ${UNIT[UnitFileState]} ${UNIT[LoadState]}
declare -gA UNIT=()
unit_load() {
	local line
	UNIT=()
	while IFS= read -r line; do
		[[ $line == *=* ]] && UNIT[${line%%=*}]=${line#*=}
	done < <(systemctl show -p LoadState,ActiveState,SubState,Result,ExecMainStatus,ExecMainPID,UnitFileState "$1")
	printf '  %s: %s\n' "$1" "$(for k in LoadState UnitFileState ActiveState SubState Result ExecMainStatus; do printf '%s=%s ' "$k" "${UNIT[$k]-?}"; done)"
}

# journal_load FILE MATCH...: this boot's journal entries that match (journalctl
# matches, e.g. MESSAGE_ID=...), as one JSON array in FILE, loaded into JSON:
# ${JSON[.:len]} entries, ${JSON[.[0].MESSAGE]}, ${JSON[.[0].RECLAIM_KNOB]} ...
journal_load() {
	local file=$1
	shift
	journalctl --sync 2>/dev/null || true
	{
		printf '['
		journalctl -b -q -o json --no-pager "$@" | paste -sd, -
		printf ']\n'
	} >"$file"
	json_load "$file"
}

# assert_logged_by UNIT ENTRY MSG: the journal entry at path ENTRY of JSON
# (journal_load) was logged by UNIT's main process (unit_load UNIT first):
# its _SYSTEMD_UNIT, or, when journald could not read that of a process that
# had already exited (it reads /proc/PID/cgroup late), its _PID is UNIT's
# ExecMainPID.
assert_logged_by() {
	local unit=$1 e=$2 msg=$3
	if [[ -n ${JSON[$e._SYSTEMD_UNIT]-} ]]; then
		assert_eq "$unit" "${JSON[$e._SYSTEMD_UNIT]}" "$msg"
	else
		log "no _SYSTEMD_UNIT in the entry (the process had exited when journald looked): by _PID"
		assert_eq "${UNIT[ExecMainPID]-?}" "${JSON[$e._PID]-missing}" "$msg (_PID = ExecMainPID of $unit)"
	fi
}

# The patched kernel's knobs and the standard ones at boot (Linux 6.12 +
# kernel/patches), to know which values a preset changes. min_free_kbytes is
# computed from the memory size: presets in the tests do not set it.
declare -gA KERNEL_DEFAULT=(
	[kswapd_threads]=1 [max_direct_reclaimers]=0 [swap_round_robin_quota_kb]=2048
	[swappiness]=60 [watermark_scale_factor]=10 [watermark_boost_factor]=15000
	[zone_reclaim_mode]=0 [page-cluster]=3 [vfs_cache_pressure]=100
	[zswap_enabled]=false [numa_demotion_enabled]=false
)
# The knobs of sysfs of KERNEL_DEFAULT (the balanced preset's auto), by their files.
declare -gA SYSFS_KNOB=(
	[zswap_enabled]=/sys/module/zswap/parameters/enabled
	[numa_demotion_enabled]=/sys/kernel/mm/numa/demotion_enabled
)
# knob_file KNOB, knob_label KNOB: its file; how reclaimctl names it (the journal's RECLAIM_KNOB)
knob_file() { echo "${SYSFS_KNOB[$1]:-/proc/sys/vm/$1}"; }
knob_label() { echo "${SYSFS_KNOB[$1]:-vm.$1}"; }
# knob_text KNOB VALUE: the file's text for a value of the JSON (zswap's booleans are Y and N)
knob_text() {
	case $1:$2 in
	zswap_*:true) echo Y ;;
	zswap_*:false) echo N ;;
	*) echo "$2" ;;
	esac
}

# The journal message ids of `reclaimctl boot` (cli/journal.h).
JOURNAL_ID_KNOB=63fe6bb8eaac40c8996f514a67617472
JOURNAL_ID_APPLIED=c75a12a31d85493c95bf42093d3cdc3a
JOURNAL_ID_FAILED=72fb6bc5360547539fc1fc8807ffd9a9
BOOT_UNIT=reclaimctl-autotune.service

# knob_values: every knob's current value (reclaimctl get --json) into the
# associative array KNOB: ${KNOB[kswapd_threads]}
declare -gA KNOB=()
knob_values() {
	local k
	KNOB=()
	reclaimctl get --json >/tmp/get.json || fail "reclaimctl get --json failed"
	json_load /tmp/get.json || fail "reclaimctl get --json: not JSON"
	for k in "${!KERNEL_DEFAULT[@]}" min_free_kbytes; do
		KNOB[$k]=${JSON[.knobs.$k.value]-missing}
	done
}

# check_knobs_are_kernel_defaults: nothing changed a knob since the boot
check_knobs_are_kernel_defaults() {
	local k
	knob_values
	for k in "${!KERNEL_DEFAULT[@]}"; do
		assert_eq "${KERNEL_DEFAULT[$k]}" "${KNOB[$k]}" "$k still has the kernel's value (reclaimctl get)"
	done
	assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads (/proc)"
	assert_file_eq "$KNOB_THROTTLE" 0 "vm.max_direct_reclaimers (/proc)"
	assert_file_eq "$KNOB_QUOTA" 2048 "vm.swap_round_robin_quota_kb (/proc)"
}

# check_kswapd_per_node N: every node with memory runs exactly N kswapd
# threads, named kswapdX, kswapdX:1 .. kswapdX:N-1
check_kswapd_per_node() {
	local n
	wait_threads "$1"
	for n in $(memory_nodes); do
		assert_eq "$(expected_names "$n" "$1")" "$(kswapd_names "$n")" "node$n runs $1 kswapd thread(s)"
	done
}

# plan_load FILE [PREFIX]: a plan document of the change engine (set,
# preset, autotune, boot, restore ... --json; with PREFIX, the plan at that
# path, e.g. .boot of check --json) into JSON, and its entries by knob into
# PLAN: ${PLAN[kswapd_threads.action]} (set|unchanged|skipped), .old, .new,
# .reason, .source; PLAN_KNOBS lists the knobs in the plan's order.
declare -gA PLAN=()
PLAN_KNOBS=()
plan_load() {
	local pre=${2:-} i k f
	PLAN=() PLAN_KNOBS=()
	json_load "$1" || return 1
	for ((i = 0; i < ${JSON[$pre.entries:len]-0}; i++)); do
		k=${JSON[$pre.entries[$i].knob]-missing}
		PLAN_KNOBS+=("$k")
		for f in action old new reason source; do
			PLAN[$k.$f]=${JSON[$pre.entries[$i].$f]-missing}
		done
	done
}

# history_load: `reclaimctl history --json` into JSON and HISTORY, one line
# per record, oldest first: "CHANGE COMMAND SOURCE KNOB OLD NEW undone=BOOL"
# (the time left out), e.g. "1 boot preset:vmtest kswapd_threads 1 3 undone=false"
HISTORY=()
history_load() {
	local i r
	HISTORY=()
	reclaimctl history --json >/tmp/history.json || fail "reclaimctl history --json failed"
	json_load /tmp/history.json || {
		fail "reclaimctl history --json: not JSON"
		return 0
	}
	for ((i = 0; i < ${JSON[.records:len]-0}; i++)); do
		r=.records[$i]
		HISTORY+=("${JSON[$r.change]-?} ${JSON[$r.command]-?} ${JSON[$r.source]-?} ${JSON[$r.knob]-?} ${JSON[$r.old]-?} ${JSON[$r.new]-?} undone=${JSON[$r.undone]-?}")
	done
	printf '  history: %s\n' "${HISTORY[@]:-(empty)}"
}

# history_file: the records of /run/reclaimctl/history as they are on the
# disk, without their time and without the "# intent ..." and "# done ..."
# lines around each change: "change=1 command=boot source=... knob=... old=1 new=3"
history_file() {
	[[ -e /run/reclaimctl/history ]] || return 0
	sed '/^#/d; s/ time=[^ ]*//' /run/reclaimctl/history
}

# history_marks: the "# intent change=N records=K" and "# done change=N"
# lines of /run/reclaimctl/history, in their order
history_marks() {
	[[ -e /run/reclaimctl/history ]] || return 0
	grep -E '^# (intent|done) ' /run/reclaimctl/history || true
}

# check_catalog LINE...: after journalctl --update-catalog (the project's
# catalog, installed with the build, compiled as a package's trigger would),
# journalctl -x of the boot unit shows each LINE: the catalog's text, with
# the entry's fields put in.
check_catalog() {
	local line
	step "the journal catalog explains the unit's entries (journalctl -x)"
	assert_rc 0 "journalctl --update-catalog" -- journalctl --update-catalog
	journalctl -b -x -q --no-pager -u "$BOOT_UNIT" | sed 's/^░░ \{0,1\}//' >/tmp/catalog.log || true
	for line in "$@"; do
		if grep -qxF -- "$line" /tmp/catalog.log; then
			ok "journalctl -x: $line"
		else
			fail "journalctl -x shows no line '$line'"
		fi
	done
	[[ $VM_FAILS == 0 ]] || run journalctl -b -x -q --no-pager -u "$BOOT_UNIT" || true
}

# check_boot_unit_ok: the boot unit ran at this boot and succeeded
check_boot_unit_ok() {
	step "the unit $BOOT_UNIT succeeded"
	unit_load "$BOOT_UNIT"
	assert_eq enabled "${UNIT[UnitFileState]-}" "$BOOT_UNIT is enabled"
	assert_eq active "${UNIT[ActiveState]-}" "ActiveState"
	assert_eq exited "${UNIT[SubState]-}" "SubState (oneshot, RemainAfterExit=yes)"
	assert_eq success "${UNIT[Result]-}" "Result"
	assert_eq 0 "${UNIT[ExecMainStatus]-}" "ExecMainStatus"
}

# check_boot_applied PRESET: the boot unit succeeded with PRESET, every knob
# of PRESET has the value the preset resolves to on this machine ("reclaimctl
# preset show PRESET --json"; an "auto" value is the autotune plan's, from
# "reclaimctl autotune --dry-run --json"), the journal has one entry per knob
# that it changed from the kernel's value (old, new, preset) and one summary,
# and every node with memory runs the preset's number of kswapd threads.
check_boot_applied() {
	local preset=$1 i n k v want_threads=1 changed=0 found
	local -a knobs=() values=() autos=()
	local -A want_old=() want_new=() planned=()

	check_boot_unit_ok

	step "the knobs have the values of preset $preset"
	run reclaimctl preset show "$preset" || fail "reclaimctl preset show $preset failed"
	reclaimctl preset show "$preset" --json >/tmp/preset.json || fail "reclaimctl preset show $preset --json failed"
	json_load /tmp/preset.json || fail "preset show --json: not JSON"
	assert_eq "$preset" "$(jv .name)" "preset show: name"
	n=${JSON[.entries:len]-0}
	assert_gt "$n" 0 "preset $preset has entries"
	for ((i = 0; i < n; i++)); do
		knobs+=("${JSON[.entries[$i].knob]-}")
		values+=("${JSON[.entries[$i].value]-}")
		autos+=("${JSON[.entries[$i].auto]-}")
	done
	# what autotune plans here, for the "auto" values
	reclaimctl autotune --dry-run --json >/tmp/autotune.json || fail "reclaimctl autotune --dry-run --json failed"
	json_load /tmp/autotune.json || fail "autotune --dry-run --json: not JSON"
	for ((i = 0; i < ${JSON[.entries:len]-0}; i++)); do
		[[ ${JSON[.entries[$i].action]-skipped} != skipped ]] || continue
		planned[${JSON[.entries[$i].knob]-}]=${JSON[.entries[$i].new]-}
	done
	for i in "${!knobs[@]}"; do
		[[ ${autos[i]} == true ]] || continue
		k=${knobs[i]}
		log "$k = auto: autotune plans ${planned[$k]-nothing}"
		assert_eq "${planned[$k]-not planned}" "${values[i]}" "$k = auto is autotune's value"
	done
	knob_values
	for i in "${!knobs[@]}"; do
		k=${knobs[i]} v=${values[i]}
		[[ -n ${KERNEL_DEFAULT[$k]-} ]] || die "preset $preset sets $k, whose boot value this test does not know"
		assert_eq "$v" "${KNOB[$k]}" "$k = $v as preset $preset resolves it here"
		assert_file_eq "$(knob_file "$k")" "$(knob_text "$k" "$v")" "$(knob_file "$k")"
		[[ $k == kswapd_threads ]] && want_threads=$v
		if [[ $v != "${KERNEL_DEFAULT[$k]}" ]]; then
			want_old[$(knob_label "$k")]=$(knob_text "$k" "${KERNEL_DEFAULT[$k]}")
			want_new[$(knob_label "$k")]=$(knob_text "$k" "$v")
			changed=$((changed + 1))
		fi
	done
	# knobs the preset does not name keep the kernel's value
	for k in "${!KERNEL_DEFAULT[@]}"; do
		found=0
		for v in "${knobs[@]}"; do [[ $v == "$k" ]] && found=1; done
		((found)) || assert_eq "${KERNEL_DEFAULT[$k]}" "${KNOB[$k]}" "$k (not in the preset) keeps the kernel's value"
	done
	reclaimctl preset diff "$preset" --json >/tmp/diff.json || fail "reclaimctl preset diff $preset --json failed"
	plan_load /tmp/diff.json || fail "preset diff --json: not JSON"
	assert_eq false "$(jv .changed)" "preset diff $preset: nothing left to set (changed)"
	for k in "${PLAN_KNOBS[@]}"; do
		assert_ne set "${PLAN[$k.action]}" "preset diff $preset: $k"
	done

	step "kswapd threads"
	check_kswapd_per_node "$want_threads"

	step "journal: one entry per changed knob ($changed)"
	run journalctl -b -q --no-pager -u "$BOOT_UNIT" || true
	journal_load /tmp/knob.json "MESSAGE_ID=$JOURNAL_ID_KNOB" || fail "journalctl -o json: not JSON"
	n=${JSON[.:len]-0}
	assert_eq "$changed" "$n" "entries with MESSAGE_ID=$JOURNAL_ID_KNOB"
	for ((i = 0; i < n; i++)); do
		k=${JSON[.[$i].RECLAIM_KNOB]-missing}
		log "entry $i: $k ${JSON[.[$i].RECLAIM_OLD]-?} -> ${JSON[.[$i].RECLAIM_NEW]-?}: ${JSON[.[$i].MESSAGE]-}"
		if [[ -z ${want_new[$k]-} ]]; then
			fail "journal entry for $k, which preset $preset does not change"
			continue
		fi
		assert_eq "${want_old[$k]}" "${JSON[.[$i].RECLAIM_OLD]-missing}" "$k: RECLAIM_OLD"
		assert_eq "${want_new[$k]}" "${JSON[.[$i].RECLAIM_NEW]-missing}" "$k: RECLAIM_NEW"
		assert_eq "$preset" "${JSON[.[$i].RECLAIM_PRESET]-missing}" "$k: RECLAIM_PRESET"
		assert_logged_by "$BOOT_UNIT" ".[$i]" "$k: logged by the unit"
		unset "want_new[$k]"
	done
	for k in "${!want_new[@]}"; do
		fail "no journal entry for $k (${want_old[$k]} -> ${want_new[$k]})"
	done

	step "journal: the summary, no failure"
	journal_load /tmp/applied.json "MESSAGE_ID=$JOURNAL_ID_APPLIED" || fail "journalctl -o json: not JSON"
	assert_eq 1 "${JSON[.:len]-0}" "entries with MESSAGE_ID=$JOURNAL_ID_APPLIED"
	log "summary: ${JSON[.[0].MESSAGE]-}"
	assert_eq "$preset" "${JSON[.[0].RECLAIM_PRESET]-missing}" "summary: RECLAIM_PRESET"
	assert_eq "$changed" "${JSON[.[0].RECLAIM_CHANGED]-missing}" "summary: RECLAIM_CHANGED"
	assert_logged_by "$BOOT_UNIT" ".[0]" "summary: logged by the unit"
	journal_load /tmp/failed.json "MESSAGE_ID=$JOURNAL_ID_FAILED" || fail "journalctl -o json: not JSON"
	assert_eq 0 "${JSON[.:len]-0}" "entries with MESSAGE_ID=$JOURNAL_ID_FAILED"
}

# check_boot_failed PRESET WHERE: the boot unit failed visibly on PRESET (exit
# status 1), its journal entry (priority err) names WHERE ("FILE:LINE:"),
# nothing was applied and every knob has the kernel's value.
check_boot_failed() {
	local preset=$1 where=$2

	step "the unit $BOOT_UNIT failed"
	unit_load "$BOOT_UNIT"
	assert_eq enabled "${UNIT[UnitFileState]-}" "$BOOT_UNIT is enabled"
	assert_eq failed "${UNIT[ActiveState]-}" "ActiveState"
	assert_eq exit-code "${UNIT[Result]-}" "Result"
	assert_eq 1 "${UNIT[ExecMainStatus]-}" "ExecMainStatus"
	run systemctl status --no-pager -l "$BOOT_UNIT" || true

	step "no knob changed"
	check_knobs_are_kernel_defaults
	check_kswapd_per_node 1

	step "journal: the failure, and nothing applied"
	journal_load /tmp/failed.json "MESSAGE_ID=$JOURNAL_ID_FAILED" || fail "journalctl -o json: not JSON"
	assert_eq 1 "${JSON[.:len]-0}" "entries with MESSAGE_ID=$JOURNAL_ID_FAILED"
	log "failure: ${JSON[.[0].MESSAGE]-}"
	assert_eq 3 "${JSON[.[0].PRIORITY]-missing}" "failure: PRIORITY (err)"
	assert_match "(^|[^A-Za-z0-9_/.-])${where//./\\.}" "${JSON[.[0].MESSAGE]-}" "failure: MESSAGE names $where"
	assert_match "$preset" "${JSON[.[0].MESSAGE]-}" "failure: MESSAGE names the preset"
	assert_eq "$preset" "${JSON[.[0].RECLAIM_PRESET]-missing}" "failure: RECLAIM_PRESET"
	assert_logged_by "$BOOT_UNIT" ".[0]" "failure: logged by the unit"
	journal_load /tmp/knob.json "MESSAGE_ID=$JOURNAL_ID_KNOB" || fail "journalctl -o json: not JSON"
	assert_eq 0 "${JSON[.:len]-0}" "entries with MESSAGE_ID=$JOURNAL_ID_KNOB"
	journal_load /tmp/applied.json "MESSAGE_ID=$JOURNAL_ID_APPLIED" || fail "journalctl -o json: not JSON"
	assert_eq 0 "${JSON[.:len]-0}" "entries with MESSAGE_ID=$JOURNAL_ID_APPLIED"
}
