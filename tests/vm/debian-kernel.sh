#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Debian's own kernel, unpatched, for the scenarios whose header says
# "vm-kernel: debian": the image package linux-image-amd64 depends on, from
# the machine's apt sources, unpacked once into the cache. The scenario boots
# it with the tests' initramfs, so only the modules a scenario loads are kept
# (as modules/*.ko, which run-scenario.sh puts in /vm/modules), and those a
# boot from the Debian image's disk needs ("vm-root: debian"; virtio, ext4
# and theirs, as boot-modules/*.ko with boot-modules/order, the order to load
# them in, from modinfo's "depends" of each).
#
# Prints the path of the kernel image on stdout (last line); progress goes to
# stderr.
#
# Cache: $RECLAIMCTL_VM_CACHE (default /var/cache/reclaimctl-vm)
#   debian-kernel-<package>_<version>/   vmlinuz, config, release, modules/*.ko,
#                                        boot-modules/*.ko and order
# The newest 2 are kept.
#
# Options: --print-key (the package and version, no download), --force.
set -euo pipefail

main() {
	self=$(readlink -f "${BASH_SOURCE[0]}")
	cache=${RECLAIMCTL_VM_CACHE:-/var/cache/reclaimctl-vm}
	# zram swap, and what it needs beyond the built-in lzo-rle
	modules=(zram zsmalloc)
	# a root file system on a virtio disk: the disk, ext4, and the checksum
	# ext4 asks the crypto API for when it mounts (not in modules.dep)
	boot_modules=(virtio_pci virtio_blk crc32c_generic ext4)

	log() { printf 'debian-kernel: %s\n' "$*" >&2; }
	die() { log "error: $*"; exit 1; }

	# shellcheck source=SCRIPTDIR/cache.sh
	source "$(dirname "$self")/cache.sh"
	cache_options "$self" "$@"

	if ! package_of >/dev/null 2>&1; then
		((EUID == 0)) || die "no linux-image-amd64 in the apt lists (apt-get update as root)"
		apt-get update -q >&2 || die "apt-get update failed"
	fi
	pkg=$(package_of) || die "no linux-image-amd64 in the apt sources"
	ver=$(apt-cache show --no-all-versions "$pkg" | awk '/^Version:/ { print $2; exit }')
	[[ -n $ver ]] || die "no version of $pkg in the apt lists"
	key=${pkg}_$ver
	if ((print_key)); then
		echo "$key"
		return 0
	fi
	out=$cache/debian-kernel-$key
	cache_lock "$cache" .debian-kernel.lock
	if [[ -f $out/vmlinuz && -f $out/boot-modules/order && $force == 0 ]]; then
		log "cached $key"
		echo "$out/vmlinuz"
		return 0
	fi

	tmp=$out.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp/deb"
	log "downloading $pkg $ver"
	# apt downloads as _apt where it can write
	chmod 0777 "$tmp/deb"
	(cd "$tmp/deb" && apt-get download -q "$pkg=$ver" >&2) || die "apt-get download $pkg=$ver failed"
	dpkg-deb -x "$tmp"/deb/*.deb "$tmp/x" || die "cannot unpack $pkg"
	release=$(basename "$(find "$tmp/x/lib/modules" -mindepth 1 -maxdepth 1 -type d | head -n 1)")
	[[ -n $release && -f $tmp/x/boot/vmlinuz-$release ]] || die "$pkg has no /boot/vmlinuz-$release"
	mkdir -p "$tmp/modules"
	for m in "${modules[@]}"; do
		f=$(find "$tmp/x/lib/modules/$release" -name "$m.ko" | head -n 1)
		[[ -n $f ]] || die "$pkg has no $m.ko"
		cp "$f" "$tmp/modules/"
	done
	boot_modules "$tmp/x/lib/modules/$release" "$tmp/boot-modules"
	cp "$tmp/x/boot/vmlinuz-$release" "$tmp/vmlinuz"
	cp "$tmp/x/boot/config-$release" "$tmp/config"
	echo "$release" >"$tmp/release"
	rm -rf "$tmp/deb" "$tmp/x"
	rm -rf "$out"
	mv "$tmp" "$out"
	cache_prune "$cache" debian-kernel 2 "$out"
	log "$release in $out"
	echo "$out/vmlinuz"
}

# boot_modules MODDIR OUT: boot_modules and what they depend on (modinfo's
# "depends": the package has no modules.dep, depmod makes it at install),
# into OUT, and OUT/order, one name a line, each after what it depends on.
boot_modules() {
	local dir=$1 out=$2 m
	local -A have=()
	mkdir -p "$out"
	: >"$out/order"
	# add NAME: its dependencies first, then itself
	add() {
		local name=${1//-/_} path d deps
		[[ -z ${have[$name]-} ]] || return 0
		have[$name]=1
		path=$(find "$dir" -name "$name.ko" -o -name "${name//_/-}.ko" | head -n 1)
		[[ -n $path ]] || die "the package has no $name.ko"
		deps=$(modinfo -F depends "$path") || die "modinfo $path failed"
		for d in ${deps//,/ }; do add "$d"; done
		cp "$path" "$out/$name.ko"
		echo "$name" >>"$out/order"
	}
	for m in "${boot_modules[@]}"; do add "$m"; done
}

# The image package linux-image-amd64 depends on (linux-image-6.1.0-N-amd64).
package_of() {
	apt-cache depends linux-image-amd64 | awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }' | grep .
}

main "$@"
