#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# capture-sysroot.sh - copy the files reclaimctl reads into a fixture root.
#
# Usage: tests/capture-sysroot.sh [--tar] [--from ROOT] DIR
#
# Copies, from ROOT (default "/", the live machine), exactly the files that
# reclaimctl reads into DIR, keeping their paths, so that
# `reclaimctl --sysroot DIR ...` sees the same picture.  Contents are copied
# with cat(1): /proc and /sys files report size 0, which confuses cp(1).
# Missing files are skipped; unreadable ones are skipped with a note, so the
# script also works as an ordinary user.
#
# Of the kernel threads only kswapd (comm matching ^kswapd[0-9]+(:[0-9]+)?$)
# is kept: its /proc/PID/{stat,status,comm}, plus a /proc/2/task/2/children
# that lists just those pids (in the kernel's format: "PID " per entry, no
# newline), so the tree stays small and deterministic.
#
# --tar      also write DIR.tar.gz (sorted, owner 0, mtime 0)
# --from R   read from R instead of "/" (e.g. to re-capture a fixture tree)
#
# Exit status: 0 ok, 1 failure, 2 usage error.

set -euo pipefail

prog=${0##*/}
kswapd_re='^kswapd[0-9]+(:[0-9]+)?$'

usage() {
	sed -n 's/^# \{0,1\}//; 4,23p' "$0"
}

die() {
	echo "$prog: $*" >&2
	exit 1
}

want_tar=0
src=/
dst=
while [ $# -gt 0 ]; do
	case $1 in
	--tar) want_tar=1 ;;
	--from)
		[ $# -ge 2 ] || { echo "$prog: --from needs a directory" >&2; exit 2; }
		src=$2
		shift
		;;
	--from=*) src=${1#--from=} ;;
	-h | --help)
		usage
		exit 0
		;;
	-*)
		echo "$prog: unknown option '$1' (try --help)" >&2
		exit 2
		;;
	*)
		[ -z "$dst" ] || { echo "$prog: only one DIR, please" >&2; exit 2; }
		dst=$1
		;;
	esac
	shift
done
[ -n "$dst" ] || { usage >&2; exit 2; }
[ -d "$src" ] || die "$src: not a directory"
src=${src%/}
dst=${dst%/}
[ -n "$dst" ] || die "refusing to capture into /"

if [ -e "$dst" ]; then
	[ -d "$dst" ] || die "$dst: exists and is not a directory"
	[ -z "$(ls -A "$dst")" ] || die "$dst: exists and is not empty"
fi
mkdir -p "$dst"

ncopied=0
nskipped=0

# copy REL: copy $src/REL to $dst/REL if it is a regular, readable file.
copy() {
	local rel=$1 from=$src$1 to=$dst$1

	[ -e "$from" ] || return 0
	if [ ! -f "$from" ]; then
		echo "  note: $rel: not a regular file, skipped" >&2
		nskipped=$((nskipped + 1))
		return 0
	fi
	mkdir -p "${to%/*}"
	# Readability is only known once read(2) is tried (some /proc files
	# pass access(2) and still fail), so read into a temporary file first.
	if ! cat -- "$from" >"$to.tmp" 2>/dev/null; then
		rm -f -- "$to.tmp"
		echo "  note: $rel: cannot read, skipped" >&2
		nskipped=$((nskipped + 1))
		return 0
	fi
	mv -f -- "$to.tmp" "$to"
	printf '  %-52s %6d bytes\n' "$rel" "$(wc -c <"$to")"
	ncopied=$((ncopied + 1))
}

echo "capturing ${src:-/} into $dst:"

copy /proc/sys/kernel/osrelease
for knob in kswapd_threads max_direct_reclaimers swap_round_robin_quota_kb \
	swappiness watermark_scale_factor watermark_boost_factor \
	min_free_kbytes zone_reclaim_mode; do
	copy "/proc/sys/vm/$knob"
done

for f in meminfo zoneinfo vmstat pressure/memory; do
	copy "/proc/$f"
done

for f in online possible present; do
	copy "/sys/devices/system/cpu/$f"
done

nodedir=/sys/devices/system/node
for f in online possible has_memory has_cpu has_normal_memory; do
	copy "$nodedir/$f"
done
nodes=()
for d in "$src$nodedir"/node[0-9]*; do
	[ -d "$d" ] || continue
	nodes+=("${d##*/}")
done
# Numeric order, for a readable log.
if [ ${#nodes[@]} -gt 0 ]; then
	mapfile -t nodes < <(printf '%s\n' "${nodes[@]}" | sort -V)
fi
for n in ${nodes[@]+"${nodes[@]}"}; do
	for f in cpulist cpumap meminfo distance vmstat; do
		copy "$nodedir/$n/$f"
	done
done

# Kernel threads: kthreadd's children if the kernel lists them, else a scan
# of /proc for tasks with PF_KTHREAD set in the stat flags.
PF_KTHREAD=$((0x00200000))
candidates=()
children=$src/proc/2/task/2/children
has_children=0
if [ -f "$children" ] && [ -r "$children" ]; then
	has_children=1
	read -r -a candidates <"$children" || true
	how="kthreadd's children"
else
	how="a scan of /proc (no /proc/2/task/2/children)"
	for d in "$src"/proc/[0-9]*; do
		pid=${d##*/}
		stat=$(cat "$d/stat" 2>/dev/null) || continue
		rest=${stat##*) }
		read -r -a fields <<<"$rest" || continue
		# fields: 0 state, 1 ppid, ..., 6 flags
		[ ${#fields[@]} -gt 6 ] || continue
		if [ "$pid" = 2 ] || [ "${fields[1]}" = 2 ] ||
			{ [[ ${fields[6]} =~ ^[0-9]+$ ]] && (((fields[6] & PF_KTHREAD) != 0)); }; then
			candidates+=("$pid")
		fi
	done
fi

kswapd_pids=()
for pid in ${candidates[@]+"${candidates[@]}"}; do
	[[ $pid =~ ^[0-9]+$ ]] || continue
	comm=$(cat "$src/proc/$pid/comm" 2>/dev/null) || continue
	[[ $comm =~ $kswapd_re ]] || continue
	kswapd_pids+=("$pid")
done
if [ ${#kswapd_pids[@]} -gt 0 ]; then
	mapfile -t kswapd_pids < <(printf '%s\n' "${kswapd_pids[@]}" | sort -n)
fi

echo "kswapd threads (from $how):"
kept=()
for pid in ${kswapd_pids[@]+"${kswapd_pids[@]}"}; do
	before=$ncopied
	for f in stat status comm; do
		copy "/proc/$pid/$f"
	done
	# A thread that vanished meanwhile leaves nothing behind: leave it out.
	[ "$ncopied" -gt "$before" ] && kept+=("$pid")
done
# Write the children file when the source had one or kswapd was found by
# the scan; a dump with no kernel threads at all stays without one.
if [ "$has_children" = 1 ] || [ ${#kept[@]} -gt 0 ]; then
	mkdir -p "$dst/proc/2/task/2"
	# The kernel prints "%d " per child and no newline.
	printf '%s ' ${kept[@]+"${kept[@]}"} >"$dst/proc/2/task/2/children"
	printf '  %-52s %s\n' /proc/2/task/2/children "pids: ${kept[*]:-none}"
	ncopied=$((ncopied + 1))
else
	echo "  (none)"
fi

echo "captured $ncopied files, skipped $nskipped unreadable," \
	"${#nodes[@]} node dirs, ${#kept[@]} kswapd threads"

if [ "$want_tar" = 1 ]; then
	parent=$(dirname -- "$dst")
	base=$(basename -- "$dst")
	tar -C "$parent" --sort=name --owner=0 --group=0 --numeric-owner \
		--mtime=@0 -czf "$dst.tar.gz" -- "$base"
	echo "wrote $dst.tar.gz ($(wc -c <"$dst.tar.gz") bytes)"
fi
