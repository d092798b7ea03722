#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Make the base initramfs (newc cpio, uncompressed) for the reclaimctl VM tests:
# busybox-static with its applets, bash, reclaimctl, libreclaim and every
# library ldd lists for them (copied to the same paths, plus the dynamic
# loader), the static test helpers and the guest /init.
# The scenario scripts and guest/lib.sh are NOT in it: run-scenario.sh appends
# them as a second small cpio per run, so editing or adding a scenario needs
# no rebuild of this archive.
#
# usage: mkinitramfs.sh -o OUT.cpio [--build-dir BUILD] [--reclaimctl FILE]
#                       [--lib FILE]... [--helper FILE]... [--bin FILE]...
#   --build-dir BUILD  take BUILD/cli/reclaimctl, BUILD/libreclaim/libreclaim.so*
#                      and BUILD/tests/vm/helpers/* unless given explicitly
#   --reclaimctl FILE  the reclaimctl binary (-> /usr/bin/reclaimctl)
#   --lib FILE         an extra shared library (-> same path and /usr/local/lib)
#   --helper FILE      a test helper program (-> /usr/local/bin)
#   --bin FILE         any other host program (with its libraries, same path)
set -euo pipefail

here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
out=
build=
reclaimctl=
libs=()
helpers=()
bins=()

die() {
	printf 'mkinitramfs: error: %s\n' "$*" >&2
	exit 1
}
usage() {
	awk 'NR > 2 && !/^#/ {exit} NR > 2 {sub(/^# ?/, ""); print}' "${BASH_SOURCE[0]}"
	exit "${1:-0}"
}

while (($#)); do
	case $1 in
	-o | --output) out=${2:?} ;;
	--build-dir) build=${2:?} ;;
	--reclaimctl) reclaimctl=${2:?} ;;
	--lib) libs+=("${2:?}") ;;
	--helper) helpers+=("${2:?}") ;;
	--bin) bins+=("${2:?}") ;;
	-h | --help) usage 0 ;;
	*) usage 2 >&2 ;;
	esac
	shift 2
done
[[ -n $out ]] || die "no output file (-o)"

if [[ -n $build ]]; then
	[[ -n $reclaimctl ]] || reclaimctl=$build/cli/reclaimctl
	if ((${#libs[@]} == 0)); then
		for f in "$build"/libreclaim/libreclaim.so*; do
			[[ -e $f ]] && libs+=("$f")
		done
	fi
	if ((${#helpers[@]} == 0)); then
		for f in "$build"/tests/vm/helpers/*; do
			[[ -f $f && -x $f ]] && helpers+=("$f")
		done
	fi
fi
[[ -n $reclaimctl ]] || die "no reclaimctl binary (--reclaimctl or --build-dir)"
[[ -x $reclaimctl ]] || die "reclaimctl binary not found or not executable: $reclaimctl"
((${#helpers[@]} > 0)) || die "no test helpers (--helper or --build-dir)"
busybox=$(command -v busybox) || die "busybox not found (package busybox-static)"

root=$(mktemp -d "${TMPDIR:-/tmp}/reclaimctl-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT

# usrmerged layout like the host, so ldd's paths resolve identically
mkdir -p "$root"/{usr/bin,usr/sbin,usr/lib,usr/lib64,usr/local/bin,usr/local/lib,etc,proc,sys,dev,tmp,run,root,vm}
ln -s usr/bin "$root/bin"
ln -s usr/sbin "$root/sbin"
ln -s usr/lib "$root/lib"
ln -s usr/lib64 "$root/lib64"

# copy_file SRC DEST_IN_ROOT: copy following symlinks, keep mode
copy_file() {
	local dst=$root$2
	mkdir -p "$(dirname "$dst")"
	cp -L --preserve=mode "$1" "$dst"
}
# copy_with_libs FILE [DEST]: the file, and every library ldd lists at its
# path; also the library's symlinked name (libfoo.so.1 -> libfoo.so.1.2.3).
declare -A copied=()
copy_with_libs() {
	local src=$1 dst=${2:-$1} line lib
	copy_file "$src" "$dst"
	local ldd_out
	ldd_out=$(LC_ALL=C ldd "$src" 2>&1) || return 0 # static or a script
	while IFS= read -r line; do
		lib=
		if [[ $line =~ =\>\ (/[^ ]+)\ \( ]]; then
			lib=${BASH_REMATCH[1]}
		elif [[ $line =~ ^[[:space:]]*(/[^ ]+)\ \( ]]; then
			lib=${BASH_REMATCH[1]} # the dynamic loader
		elif [[ $line == *"not found"* ]]; then
			die "$src: library $line"
		fi
		[[ -n $lib && -z ${copied[$lib]:-} ]] || continue
		copied[$lib]=1
		copy_file "$lib" "$lib"
	done <<<"$ldd_out"
}

# busybox and its applets (links only where nothing else is installed)
copy_file "$busybox" /usr/bin/busybox
while IFS= read -r applet; do
	[[ -n $applet ]] || continue
	dst=$root/$applet
	[[ -e $dst || -L $dst ]] && continue
	mkdir -p "$(dirname "$dst")"
	ln -s /usr/bin/busybox "$dst"
done < <("$busybox" --list-full | sed 's|^/||')

# bash for the scenarios (busybox sh runs only /init)
rm -f "$root/usr/bin/bash" "$root/bin/bash"
copy_with_libs "$(readlink -f "$(command -v bash)")" /usr/bin/bash
ln -sf bash "$root/usr/bin/sh.bash"

# reclaimctl in /usr/bin and libreclaim in /usr/lib, a directory the dynamic
# loader always searches: the build tree's RUNPATH may point under /tmp, which
# the guest mounts a tmpfs over.
for lib in "${libs[@]}"; do
	[[ -e $lib ]] || die "missing library $lib"
	copy_with_libs "$(readlink -f "$lib")" "/usr/lib/$(basename "$(readlink -f "$lib")")"
	cp -P "$lib" "$root/usr/lib/$(basename "$lib")"
done
copy_with_libs "$(readlink -f "$reclaimctl")" /usr/bin/reclaimctl
# a script stand-in (development only) keeps its interpreter from above

for h in "${helpers[@]}"; do
	[[ -f $h ]] || die "missing helper $h"
	copy_with_libs "$h" "/usr/local/bin/$(basename "$h")"
done
for b in "${bins[@]}"; do
	b=$(readlink -f "$(command -v "$b" || echo "$b")")
	[[ -f $b ]] || die "missing program $b"
	copy_with_libs "$b"
done

# the loader finds libraries without a cache, but a cache is cheap
printf '%s\n' /usr/local/lib /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu >"$root/etc/ld.so.conf"
ldconfig -r "$root" 2>/dev/null || true
# nobody: for the scenarios that check what a user who is not root is told
printf '%s\n' 'root:x:0:0:root:/tmp:/bin/sh' 'nobody:x:65534:65534:nobody:/tmp:/bin/sh' >"$root/etc/passwd"
printf '%s\n' 'root:x:0:' 'nogroup:x:65534:' >"$root/etc/group"
: >"$root/etc/fstab"
ln -sf /proc/self/mounts "$root/etc/mtab"

install -m 0755 "$here/guest/init" "$root/init"

mkdir -p "$(dirname "$out")"
tmp_out=$out.tmp.$$
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$tmp_out"
mv "$tmp_out" "$out"
printf 'mkinitramfs: %s (%s KiB)\n' "$out" "$(($(stat -c %s "$out") / 1024))" >&2
