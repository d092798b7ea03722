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
# Swap: /proc/swaps; per device its /sys/class/block and /sys/block links
# (as links), partition file and the disk's queue/rotational; for swap files
# only the /proc/self/mountinfo lines of the mounts above them.
#
# --tar      also write DIR.tar.gz (sorted, owner 0, mtime 0)
# --from R   read from R instead of "/" (e.g. to re-capture a fixture tree)
#
# Exit status: 0 ok, 1 failure, 2 usage error.

set -euo pipefail

prog=${0##*/}
kswapd_re='^kswapd[0-9]+(:[0-9]+)?$'

usage() {
	sed -n 's/^# \{0,1\}//; 4,27p' "$0"
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
	min_free_kbytes zone_reclaim_mode page-cluster vfs_cache_pressure; do
	copy "/proc/sys/vm/$knob"
done
# the knobs of sysfs, and the kernel command line their module parameters may be on
for f in /sys/kernel/mm/lru_gen/enabled /sys/kernel/mm/lru_gen/min_ttl_ms \
	/sys/module/zswap/parameters/enabled /sys/module/zswap/parameters/compressor \
	/sys/module/zswap/parameters/max_pool_percent \
	/sys/module/zswap/parameters/accept_threshold_percent \
	/sys/module/zswap/parameters/shrinker_enabled /sys/kernel/mm/numa/demotion_enabled \
	/proc/cmdline; do
	copy "$f"
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

# Swap: /proc/swaps, and what tells each device's kind: its sysfs block links
# (recreated as the same relative links), the partition file, the disk's
# queue/rotational; for a swap file, the lines of /proc/self/mountinfo for the
# mounts above it (only those) and its filesystem's device (/sys/dev/block).
srcreal=$(readlink -f -- "${src:-/}")
[ "$srcreal" = / ] && srcreal=

# copy_link REL: $src/REL is a symbolic link: make the same link in $dst.
copy_link() {
	local rel=$1 target

	target=$(readlink -- "$src$rel") || return 1
	mkdir -p "$(dirname -- "$dst$rel")"
	ln -sfn -- "$target" "$dst$rel"
	printf '  %-52s -> %s\n' "$rel" "$target"
}

# resolved REL: the path REL (a link in $src) points to, as a path in $src.
resolved() {
	local real
	real=$(readlink -f -- "$src$1") || return 1
	printf '%s\n' "${real#"$srcreal"}"
}

# capture_block NAME: a block device's links, its partition file and its disk.
capture_block() {
	local name=$1 dev disk
	[ -L "$src/sys/class/block/$name" ] || return 0
	copy_link "/sys/class/block/$name"
	dev=$(resolved "/sys/class/block/$name") || return 0
	copy "$dev/partition"
	disk=$name
	[ -e "$src$dev/partition" ] && disk=$(basename -- "$(dirname -- "$dev")")
	[ "$disk" = "$name" ] || copy_link "/sys/class/block/$disk"
	[ -L "$src/sys/block/$disk" ] || return 0
	copy_link "/sys/block/$disk"
	copy "$(resolved "/sys/block/$disk")/queue/rotational"
}

swap_files=()
copy /proc/swaps
if [ -f "$dst/proc/swaps" ]; then
	echo "swap devices:"
	while read -r epath type _; do
		[ "$epath" = Filename ] && continue
		[ -n "$epath" ] || continue
		# the kernel escapes " \t\n\\" as \ooo (every backslash); %b wants \0ooo
		printf -v path '%b' "${epath//\\/\\0}"
		if [ "$type" = file ]; then
			swap_files+=("$epath")
			continue
		fi
		name=${path##*/}
		if [ ! -e "$src/sys/class/block/$name" ] && [ -L "$src$path" ]; then
			copy_link "$path"
			name=$(basename -- "$(readlink -f -- "$src$path")")
		fi
		capture_block "$name"
	done <"$dst/proc/swaps"
fi
if [ ${#swap_files[@]} -gt 0 ] && [ -r "$src/proc/self/mountinfo" ]; then
	mkdir -p "$dst/proc/self"
	# mount points are escaped as in /proc/swaps: compare the escaped forms
	# (through the environment: awk -v would undo the escapes)
	SWAP_FILES=$(printf '%s\n' "${swap_files[@]}") awk '
		BEGIN { n = split(ENVIRON["SWAP_FILES"], f, "\n") }
		{
			for (i = 1; i <= n; i++)
				if ($5 == "/" || f[i] == $5 || index(f[i], $5 "/") == 1) { print; next }
		}' "$src/proc/self/mountinfo" >"$dst/proc/self/mountinfo"
	printf '  %-52s %6d lines\n' /proc/self/mountinfo "$(wc -l <"$dst/proc/self/mountinfo")"
	ncopied=$((ncopied + 1))
	while read -r majmin; do
		[ -L "$src/sys/dev/block/$majmin" ] || continue
		copy_link "/sys/dev/block/$majmin"
		capture_block "$(basename -- "$(readlink -- "$src/sys/dev/block/$majmin")")"
	done < <(awk '{ print $3 }' "$dst/proc/self/mountinfo" | sort -u)
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
