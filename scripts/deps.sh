#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Installs the Debian packages reclaimctl needs, only those that are missing.
#   scripts/deps.sh build   what building needs
#   scripts/deps.sh test    that plus everything the tests use (QEMU, kernel source...)
set -euo pipefail

build_pkgs=(
	cmake pkg-config gcc make scdoc
	libmount-dev libnl-3-dev libnl-genl-3-dev libsystemd-dev libcjson-dev libsmartcols-dev
	libtracefs-dev libtraceevent-dev
)
test_pkgs=(
	libcmocka-dev python3 groff-base man-db bash-completion zsh fish
	# the real-kernel tests: kernel build and QEMU
	linux-source-6.12 build-essential bc flex bison libelf-dev libssl-dev cpio lz4
	qemu-system-x86 busybox-static
	# modinfo: the modules Debian's kernel needs to boot from a disk (debian-kernel.sh)
	kmod
	# the boot-unit VM tests: a Debian root (mmdebstrap), made into an ext4
	# image, the unit enabled and verified with the host's systemctl
	mmdebstrap e2fsprogs systemd
	# status --prometheus and contrib/prometheus are checked with promtool,
	# the textfile timer's file served by node_exporter, reports in headless Chromium
	prometheus prometheus-node-exporter chromium
	# the Debian packages: built, checked with lintian, installed in a
	# scratch root (mmdebstrap, above) by tests/package/check-deb.sh
	debhelper dpkg-dev lintian
	# both test builds compile through ccache (the README test builds the tree again)
	ccache
	# the sanitizer build and the fuzz targets: clang with its runtimes (libFuzzer)
	clang libclang-rt-14-dev
	# the ABI against its baseline: abidw and abidiff (tests/check-abidiff.sh)
	abigail-tools
	# the RPM of rpm/reclaimctl.spec (ctest -L package): built with rpmbuild,
	# checked with rpmlint, its License tags as SPDX expressions
	rpm rpmlint python3-license-expression
	# the Ansible collection of contrib/ansible, run by ansible-playbook (ctest -L ansible)
	ansible-core
)

case "${1:-build}" in
build) want=("${build_pkgs[@]}") ;;
test) want=("${build_pkgs[@]}" "${test_pkgs[@]}") ;;
*)
	echo "usage: $0 build|test" >&2
	exit 2
	;;
esac

missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}; run as root to install them" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
