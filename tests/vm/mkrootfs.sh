#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build (or find in the cache) the minimal Debian root the "vm-root: debian"
# scenarios boot with systemd as PID 1: mmdebstrap --variant=minbase of the
# host's Debian release, plus systemd, systemd-sysv and the run-time libraries
# reclaimctl links. The project itself is NOT in it: run-scenario.sh copies
# this tree per run and installs the build into the copy (cmake --install).
#
# Prints the path of the root directory on stdout (last line); progress goes to
# stderr.
#
# The packages come from the mirror(s) this machine's apt uses, read at run time
# from /etc/apt/sources.list.d/*.sources (deb822) and /etc/apt/sources.list
# (one-line format): every "deb" entry for the host's release (CODENAME,
# CODENAME-updates, CODENAME-security) with the component main.
#
# Cache: $RECLAIMCTL_VM_CACHE (default /var/cache/reclaimctl-vm)
#   rootfs-<key>/root       the tree (owned by root, as in the image)
#   rootfs-<key>/packages   the installed packages and versions
#   rootfs-<key>/build.log  mmdebstrap's output
#   .rootfs.lock            flock: concurrent runs wait for one build
# <key> is the sha256 of this script (which holds the package list and the
# guest configuration below), the release, the architecture and the extra
# packages below. The newest 2 roots are kept ($RECLAIMCTL_VM_ROOTFS_KEEP).
#
# RECLAIMCTL_VM_ROOTFS_EXTRA: further packages, separated by spaces (a
# benchmark's tools, e.g. bpfcc-tools); they are part of the key.
#
# Options:
#   --print-key   print the cache key and exit (no build)
#   --force       rebuild even if the cached root exists
set -euo pipefail

# The packages on top of --variant=minbase. reclaimctl's libraries (ldd of the
# installed binary; run-scenario.sh checks them again in every image):
# libreclaim.so.1 itself comes from the build, the rest from these. procps:
# sysctl(8), the other writer of the knobs that scenarios play. kmod:
# insmod(8) for the test module of "vm-lockdep: off" (run-scenario.sh).
PACKAGES=(
	systemd systemd-sysv kmod
	libmount1 libnl-3-200 libnl-genl-3-200 libcjson1 libsmartcols1 libsystemd0 libtracefs1
	procps
)

# All in a function: bash parses it completely before running it, so editing
# this file while a build runs cannot derail the running instance.
main() {
	self=$(readlink -f "${BASH_SOURCE[0]}")
	cache=${RECLAIMCTL_VM_CACHE:-/var/cache/reclaimctl-vm}

	log() { printf 'mkrootfs: %s\n' "$*" >&2; }
	die() {
		log "error: $*"
		exit 1
	}

	# shellcheck source=SCRIPTDIR/cache.sh
	source "$(dirname "$self")/cache.sh"
	# shellcheck source=SCRIPTDIR/../apt-sources.sh
	source "$(dirname "$self")/../apt-sources.sh"
	cache_options "$self" "$@"

	# The host's release: the guest runs the binaries built here, so it must
	# have the same libraries.
	codename=$(sed -n "s/^VERSION_CODENAME=//p" /etc/os-release | tr -d "\"'")
	[[ -n $codename ]] || die "no VERSION_CODENAME in /etc/os-release (not Debian?)"
	arch=$(dpkg --print-architecture)
	read -ra extra <<<"${RECLAIMCTL_VM_ROOTFS_EXTRA:-}"
	packages=("${PACKAGES[@]}" "${extra[@]}")

	key=$({
		sha256sum <"$self"
		printf 'release %s arch %s\n' "$codename" "$arch"
		((${#extra[@]} == 0)) || printf 'extra %s\n' "${extra[*]}"
	} | sha256sum | cut -d' ' -f1)
	if ((print_key)); then
		echo "$key"
		exit 0
	fi
	out=$cache/rootfs-$key

	if ((!force)) && [[ -f $out/root/etc/machine-id && -f $out/packages ]]; then
		log "cached root for key ${key:0:12} ($codename, $(wc -l <"$out/packages") packages)"
		echo "$out/root"
		exit 0
	fi

	((EUID == 0)) || die "needs root (mmdebstrap --mode=root, files owned by root in the image)"
	if ! command -v mmdebstrap >/dev/null; then
		log "installing mmdebstrap"
		apt-get update >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends mmdebstrap >&2
	fi

	cache_lock "$cache" .rootfs.lock
	if ((!force)) && [[ -f $out/root/etc/machine-id && -f $out/packages ]]; then
		log "cached root for key ${key:0:12} (built concurrently)"
		echo "$out/root"
		exit 0
	fi

	mapfile -t mirrors < <(apt_sources "$codename")
	((${#mirrors[@]} > 0)) || die "no apt source for '$codename' (main) in /etc/apt/sources.list{,.d/*}"
	log "release $codename/$arch from: $(printf '%s; ' "${mirrors[@]}")"

	t_start=$SECONDS
	tmp=$cache/.rootfs-$key.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	# No documentation, manuals or translations: the image is copied per run.
	if ! mmdebstrap_clean --mode=root --format=directory --variant=minbase \
		--architectures="$arch" \
		--include="$(
			IFS=,
			echo "${packages[*]}"
		)" \
		--aptopt='Acquire::Languages "none"' \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/info/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--dpkgopt='path-include=/usr/share/locale/locale.alias' \
		--dpkgopt='path-exclude=/usr/share/zoneinfo/*' \
		"$codename" "$tmp/root" "${mirrors[@]}" >"$tmp/build.log" 2>&1; then
		tail -n 40 "$tmp/build.log" >&2
		die "mmdebstrap failed (log: $tmp/build.log)"
	fi
	configure_guest "$tmp/root"
	# shellcheck disable=SC2016 # dpkg-query's format
	chroot "$tmp/root" dpkg-query -W -f='${Package} ${Version}\n' >"$tmp/packages"

	rm -rf "$out"
	mv "$tmp" "$out"
	cache_prune "$cache" rootfs "${RECLAIMCTL_VM_ROOTFS_KEEP:-2}" "$out"
	log "done in $((SECONDS - t_start)) s: $out/root ($(du -sm "$out/root" | cut -f1) MiB, $(wc -l <"$out/packages") packages)"
	echo "$out/root"
}

# Guest configuration that every systemd scenario wants (the project's own
# files are installed per run by run-scenario.sh).
configure_guest() {
	local root=$1 unit
	# A fixed machine id: not a first boot (no systemd-firstboot prompts).
	echo 5ec1a1c7c7e54b6f9a1e3b0d2c4f6a80 >"$root/etc/machine-id"
	echo reclaimctl-vm >"$root/etc/hostname"
	# The kernel mounts the root read-write (root=/dev/vda rw); there is no
	# udev in the image, so an fstab line for the root device would wait for a
	# .device unit that never appears.
	printf '# the root file system is mounted by the kernel (root=/dev/vda rw)\n' >"$root/etc/fstab"
	: >"$root/etc/resolv.conf"
	# The journal in /run: nothing outlives the VM.
	mkdir -p "$root/etc/systemd/journald.conf.d"
	printf '[Journal]\nStorage=volatile\n' >"$root/etc/systemd/journald.conf.d/reclaimctl-vm.conf"
	# root may log in on the console without a password (for debugging a copy
	# of the image by hand; no getty runs in the tests).
	sed -i 's/^root:[^:]*:/root::/' "$root/etc/shadow"
	systemctl --root="$root" set-default multi-user.target >&2
	# Nothing waits for a login, and logind needs D-Bus, which is not here
	# (getty-static.service would start gettys on tty2-6 for that case).
	for unit in getty.target getty-static.service serial-getty@ttyS0.service systemd-logind.service; do
		systemctl --root="$root" mask "$unit" >&2
	done
	# the dynamic linker cache for what is installed now
	ldconfig -r "$root"
}

main "$@"
