#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# drsnoop-vm: run bench/vm/latency-vs-drsnoop.sh on what it needs, which the
# tests' kernel and Debian root leave out: the test kernel built again with
# bench/vm/kernel-bpf.config on top (BPF on tracepoints, the JIT, data
# symbols in kallsyms), a Debian root with bpfcc-tools and numactl, and the
# kernel's headers in /lib/modules/RELEASE/build, which bcc compiles its
# program against. All of it is cached in a cache of its own, so that the
# tests' kernel build tree is left as it is.
#
# usage: bench/vm/drsnoop-vm.sh BUILD_DIR [LOG_DIR]
#   BUILD_DIR   a CMake build directory of the project (installed into the image)
#   LOG_DIR     where the console log goes (default: bench-logs)
# Environment: RECLAIMCTL_BENCH_CACHE (default /var/cache/reclaimctl-bench),
# RECLAIMCTL_VM_APPEND (e.g. "ROUNDS=6 LOAD_PASSES=2").
set -euo pipefail

here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
top=$(readlink -f "$here/../..")
die() {
	printf 'drsnoop-vm: error: %s\n' "$*" >&2
	exit 1
}
(($# >= 1 && $# <= 2)) || die "usage: $0 BUILD_DIR [LOG_DIR]"
build=$(readlink -f "$1")
logs=${2:-bench-logs}
[[ -f $build/CMakeCache.txt ]] || die "$build is not a CMake build directory"
((EUID == 0)) || die "needs root (the Debian root and its image)"

export RECLAIMCTL_VM_CACHE=${RECLAIMCTL_BENCH_CACHE:-/var/cache/reclaimctl-bench}
export RECLAIMCTL_VM_CONFIG_EXTRA=$here/kernel-bpf.config
export RECLAIMCTL_VM_ROOTFS_EXTRA="bpfcc-tools numactl"
kernel=$("$top/tests/vm/build-kernel.sh" | tail -n 1) || die "the kernel build failed"
kdir=$(dirname "$kernel")
release=$(cat "$kdir/kernelrelease")

# The headers of this kernel, as a linux-headers package lays them out, from
# the cache's working tree, which must be this kernel's
src=$RECLAIMCTL_VM_CACHE/work/src obj=$RECLAIMCTL_VM_CACHE/work/build
cmp -s "$kdir/config" "$obj/.config" ||
	die "the cache's build tree is not this kernel's: build-kernel.sh --force once"
overlay=$RECLAIMCTL_VM_CACHE/headers-$(basename "$kdir")
if [[ ! -d $overlay ]]; then
	hdr=$overlay.tmp/usr/lib/modules/$release/build # /lib is usr/lib
	rm -rf "$overlay.tmp"
	mkdir -p "$hdr/arch/x86"
	cp -a "$src/include" "$hdr/"
	cp -a "$src/arch/x86/include" "$hdr/arch/x86/"
	cp -a "$obj/include/generated" "$obj/include/config" "$hdr/include/"
	cp -a "$obj/arch/x86/include/generated" "$hdr/arch/x86/include/"
	cp "$obj/.config" "$hdr/.config"
	mv "$overlay.tmp" "$overlay"
fi
export RECLAIMCTL_VM_ROOT_OVERLAY=$overlay

exec "$top/tests/vm/run-scenario.sh" --kernel "$kernel" --build-dir "$build" \
	--log-dir "$logs" "$here/latency-vs-drsnoop.sh"
