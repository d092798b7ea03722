#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the kernel the real-kernel tests boot: Debian's linux-source-6.12 with
# kernel/patches/*.patch applied in order (patch -p1) and the config fragment
# kernel/config/reclaimctl.config on top of tinyconfig (x86_64).
#
# Prints the path of the bzImage on stdout (last line); progress goes to stderr.
#
# Cache (outside the checkout): $RECLAIMCTL_VM_CACHE, default /var/cache/reclaimctl-vm
#   linux-source-6.12/     pristine unpacked source, extracted once
#   work/src/              working copy: pristine + the current patches
#   work/build/            the O= build directory, reused (incremental builds)
#   kernel-<sha256>/       bzImage, .config, patches list, build log of one key,
#                          modules/*.ko: the test modules of tests/vm/kmod/
# The key is the sha256 of the patches, the config fragment, the test modules'
# sources and this script.
# A warm run (kernel-<key>/bzImage exists) returns at once.
#
# Environment:
#   RECLAIMCTL_VM_CACHE   cache directory (default /var/cache/reclaimctl-vm)
#   RECLAIMCTL_VM_JOBS    make -j (default: nproc)
#   RECLAIMCTL_VM_KEEP    how many kernel-<key> directories to keep (default 8)
#   RECLAIMCTL_KERNEL_SRC source tarball (default /usr/src/linux-source-6.12.tar.xz)
#   RECLAIMCTL_VM_PATCH_DIR  take the *.patch series from there instead of
#                         kernel/patches (to try a series under development)
#   RECLAIMCTL_VM_CONFIG_EXTRA  a further config fragment merged after the
#                         project's (a benchmark's needs, e.g.
#                         bench/vm/kernel-bpf.config); part of the key
#
# Options:
#   --print-key   print the cache key and exit (no build)
#   --force       rebuild even if the cached bzImage exists
set -euo pipefail

# All in a function: bash parses it completely before running it, so editing
# this file while a build runs cannot derail the running instance.
main() {

	self=$(readlink -f "${BASH_SOURCE[0]}")
	here=$(dirname "$self")
	top=$(readlink -f "$here/../..")
	patch_dir=${RECLAIMCTL_VM_PATCH_DIR:-$top/kernel/patches}
	fragment=$top/kernel/config/reclaimctl.config
	extra=${RECLAIMCTL_VM_CONFIG_EXTRA:-}
	kmod_dir=$here/kmod
	cache=${RECLAIMCTL_VM_CACHE:-/var/cache/reclaimctl-vm}
	tarball=${RECLAIMCTL_KERNEL_SRC:-/usr/src/linux-source-6.12.tar.xz}
	jobs=${RECLAIMCTL_VM_JOBS:-$(nproc)}
	srcname=linux-source-6.12

	log() { printf 'build-kernel: %s\n' "$*" >&2; }
	die() { log "error: $*"; exit 1; }

	# shellcheck source=SCRIPTDIR/cache.sh
	source "$(dirname "$self")/cache.sh"
	cache_options "$self" "$@"

	[[ -f $fragment ]] || die "missing config fragment $fragment"
	[[ -z $extra || -f $extra ]] || die "missing config fragment $extra (RECLAIMCTL_VM_CONFIG_EXTRA)"
	fragments=("$fragment" ${extra:+"$extra"})

	# The patch series, in order (format-patch names sort in series order).
	patches=()
	if [[ -d $patch_dir ]]; then
		while IFS= read -r -d '' p; do
			patches+=("$p")
		done < <(find "$patch_dir" -maxdepth 1 -type f -name '*.patch' -print0 | LC_ALL=C sort -z)
	fi

	compute_key() {
		{
			printf 'script\n'
			sha256sum <"$self"
			local f
			for f in "${fragments[@]}"; do
				printf 'fragment\n'
				sha256sum <"$f"
			done
			printf 'source %s\n' "$(stat -c '%s %Y' "$tarball" 2>/dev/null || echo missing)"
			local p
			for p in "${patches[@]}"; do
				printf 'patch %s\n' "$(basename "$p")"
				sha256sum <"$p"
			done
			for p in "$kmod_dir"/*; do
				[[ -f $p ]] || continue
				printf 'kmod %s\n' "$(basename "$p")"
				sha256sum <"$p"
			done
		} | sha256sum | cut -d' ' -f1
	}
	key=$(compute_key)
	if ((print_key)); then
		echo "$key"
		exit 0
	fi
	out=$cache/kernel-$key

	# Warm path: nothing to do.
	if ((!force)) && [[ -f $out/bzImage ]]; then
		log "cached kernel for key ${key:0:12} (${#patches[@]} patches)"
		echo "$out/bzImage"
		exit 0
	fi

	# ---------------------------------------------------------------------------
	# Packages
	ensure_packages() {
		local pkgs=(linux-source-6.12 build-essential bc flex bison libelf-dev
			libssl-dev cpio xz-utils lz4 qemu-system-x86 busybox-static)
		local missing=() p
		for p in "${pkgs[@]}"; do
			dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
		done
		((${#missing[@]} == 0)) && return 0
		log "installing missing packages: ${missing[*]}"
		local sudo=()
		if ((EUID != 0)); then
			command -v sudo >/dev/null || die "need root (or sudo) to install: ${missing[*]}"
			sudo=(sudo)
		fi
		"${sudo[@]}" apt-get update >&2
		DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >&2
	}
	ensure_packages

	cache_lock "$cache" .lock
	# Someone else may have built it meanwhile.
	if ((!force)) && [[ -f $out/bzImage ]]; then
		log "cached kernel for key ${key:0:12} (built concurrently)"
		echo "$out/bzImage"
		exit 0
	fi

	t_start=$SECONDS

	# ---------------------------------------------------------------------------
	# Pristine source, extracted once, independent of the key.
	pristine=$cache/$srcname
	[[ -f $tarball ]] || die "missing $tarball (package linux-source-6.12)"
	tar_id="$(stat -c '%s %Y' "$tarball") $(basename "$tarball")"
	if [[ ! -f $pristine/.reclaimctl-extracted ]] || [[ $(<"$pristine/.reclaimctl-extracted") != "$tar_id" ]]; then
		log "extracting $tarball (once)"
		rm -rf "$pristine" "$cache/work" "$cache/.extract.tmp"
		mkdir -p "$cache/.extract.tmp"
		tar -C "$cache/.extract.tmp" -xf "$tarball"
		[[ -d $cache/.extract.tmp/$srcname ]] || die "tarball has no $srcname/ directory"
		mv "$cache/.extract.tmp/$srcname" "$pristine"
		rmdir "$cache/.extract.tmp"
		printf '%s\n' "$tar_id" >"$pristine/.reclaimctl-extracted"
	fi

	# ---------------------------------------------------------------------------
	# Working tree: a copy of the pristine tree, then brought to "pristine + the
	# current patches" by touching only the files the old or new series change, so
	# that make rebuilds only what depends on them.
	work=$cache/work
	src=$work/src
	build=$work/build
	if [[ ! -f $src/.reclaimctl-copied ]] || [[ $(<"$src/.reclaimctl-copied") != "$tar_id" ]]; then
		log "copying pristine source to the working tree (once)"
		rm -rf "$work"
		mkdir -p "$work"
		# hard links: nothing writes a file of the working tree in place
		# (a file the series touches is removed, then copied; make writes
		# to $build), and 1.7 GB need not be copied
		cp -al "$pristine" "$src.tmp"
		mv "$src.tmp" "$src"
		printf '%s\n' "$tar_id" >"$src/.reclaimctl-copied"
		: >"$work/applied-files"
	fi

	# Files a git format-patch series touches (both sides of renames).
	patch_files() {
		local p
		for p in "$@"; do
			sed -n -e 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|\1\n\2|p' \
				-e 's|^+++ b/\([^[:space:]]*\).*$|\1|p' \
				-e 's|^--- a/\([^[:space:]]*\).*$|\1|p' "$p"
		done | LC_ALL=C sort -u
	}

	stage=$work/stage
	rm -rf "$stage"
	mkdir -p "$stage"
	new_files=$(patch_files "${patches[@]}")
	# Stage: pristine copies of the touched files, then the series applied there.
	while IFS= read -r f; do
		[[ -n $f ]] || continue
		case $f in /* | *..*) die "suspicious path in patches: $f" ;; esac
		if [[ -e $pristine/$f ]]; then
			mkdir -p "$stage/$(dirname "$f")"
			cp -p "$pristine/$f" "$stage/$f"
		fi
	done <<<"$new_files"
	for p in "${patches[@]}"; do
		log "applying $(basename "$p")"
		if ! patch -p1 -d "$stage" --batch --forward --no-backup-if-mismatch -r - <"$p" >"$work/patch.log" 2>&1; then
			cat "$work/patch.log" >&2
			die "patch $(basename "$p") does not apply"
		fi
		if grep -q 'fuzz\|offset' "$work/patch.log"; then
			sed 's/^/  /' "$work/patch.log" >&2
		fi
	done
	# Sync the working tree: for every file in (old series ∪ new series) the wanted
	# content is staged (patched) > pristine > absent. Rewrite only what differs
	# (a rewritten file gets a new mtime, so make rebuilds its dependents).
	changed=0
	while IFS= read -r f; do
		[[ -n $f ]] || continue
		want=""
		if [[ -e $stage/$f ]]; then
			want=$stage/$f
		elif [[ -e $pristine/$f ]]; then
			want=$pristine/$f
		fi
		if [[ -z $want ]]; then
			if [[ -e $src/$f ]]; then
				rm -f "$src/$f"
				changed=$((changed + 1))
			fi
		elif ! cmp -s "$want" "$src/$f"; then
			mkdir -p "$(dirname "$src/$f")"
			rm -f "$src/$f"
			cp "$want" "$src/$f"
			chmod --reference="$want" "$src/$f"
			changed=$((changed + 1))
		fi
	done < <({ cat "$work/applied-files"; printf '%s\n' "$new_files"; } | LC_ALL=C sort -u)
	printf '%s\n' "$new_files" >"$work/applied-files"
	rm -rf "$stage"
	log "${#patches[@]} patches, $(grep -c . <<<"$new_files" || true) files touched by the series, $changed files rewritten"

	# ---------------------------------------------------------------------------
	# Configure: tinyconfig + fragment, then verify the fragment survived.
	mkdir -p "$build"
	blog=$work/build.log
	: >"$blog"
	mk() { make -C "$src" O="$build" ARCH=x86_64 "$@"; }
	log "configuring (tinyconfig + $(printf '%s ' "${fragments[@]##*/}"))"
	if ! {
		mk tinyconfig &&
			"$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" "${fragments[@]}" &&
			mk olddefconfig
	} >>"$blog" 2>&1; then
		tail -n 40 "$blog" >&2
		die "configuration failed (log: $blog)"
	fi

	check_config() {
		local cfg=$1 frag=$2 line opt want have bad=0
		while IFS= read -r line; do
			if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
				opt=${BASH_REMATCH[1]} want=${BASH_REMATCH[2]}
			elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set ]]; then
				opt=${BASH_REMATCH[1]} want=n
			else
				continue
			fi
			have=$(sed -n "s/^$opt=//p" "$cfg")
			[[ -n $have ]] || have=n
			if [[ $want != "$have" ]]; then
				log "config: $opt=$want requested, but the .config has $opt=$have (a dependency is missing?)"
				bad=1
			fi
		done <"$frag"
		return "$bad"
	}
	for f in "${fragments[@]}"; do
		check_config "$build/.config" "$f" || die "config fragment not fully applied; fix $f"
	done

	# ---------------------------------------------------------------------------
	# Build.
	log "building bzImage with -j$jobs (log: $blog)"
	t_build=$SECONDS
	if ! mk -j"$jobs" bzImage >>"$blog" 2>&1; then
		grep -n -B2 -A8 -E 'error:|Error [0-9]' "$blog" | tail -n 60 >&2 || true
		tail -n 20 "$blog" >&2
		die "kernel build failed (log: $blog)"
	fi
	# The test modules, built against this kernel (external modules need the
	# Module.symvers of "make modules").
	kmod_work=$work/kmod
	rm -rf "$kmod_work"
	if [[ -d $kmod_dir ]]; then
		cp -r "$kmod_dir" "$kmod_work"
		if ! { mk -j"$jobs" modules && mk M="$kmod_work" modules; } >>"$blog" 2>&1; then
			grep -n -B2 -A8 -E 'error:|Error [0-9]' "$blog" | tail -n 60 >&2 || true
			die "test modules failed to build (log: $blog)"
		fi
	fi
	log "make took $((SECONDS - t_build)) s"

	# Publish atomically.
	tmp=$cache/.kernel-$key.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	cp "$build/arch/x86/boot/bzImage" "$tmp/bzImage.tmp"
	cp "$build/.config" "$tmp/config"
	if [[ -d $kmod_work ]]; then
		mkdir -p "$tmp/modules"
		cp "$kmod_work"/*.ko "$tmp/modules/"
	fi
	cp "$blog" "$tmp/build.log"
	for p in "${patches[@]}"; do basename "$p"; done >"$tmp/patches"
	make -s -C "$src" O="$build" ARCH=x86_64 kernelrelease >"$tmp/kernelrelease" 2>/dev/null || true
	mv "$tmp/bzImage.tmp" "$tmp/bzImage"
	rm -rf "$out"
	mv "$tmp" "$out"
	# keep the newest few kernels of other keys
	cache_prune "$cache" kernel "${RECLAIMCTL_VM_KEEP:-8}" "$out"
	log "done in $((SECONDS - t_start)) s: $out/bzImage"
	echo "$out/bzImage"
}

main "$@"
