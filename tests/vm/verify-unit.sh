#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `systemd-analyze verify` on the project's systemd unit(s) as installed in the
# image root the "vm-root: debian" scenarios boot: the cached Debian root of
# mkrootfs.sh with the build installed by `DESTDIR=... cmake --install`. So
# verify sees the real unit search path, the real ExecStart= binary (it must
# exist and be executable in that root) and the units it is ordered after
# (systemd-sysctl.service, swap.target); the manual pages of Documentation=
# are looked up among the installed ones (MANPATH), so each must be installed.
#
# usage: verify-unit.sh --build-dir DIR [UNIT...]
#   UNIT   unit names to verify (default: every *.service and *.timer the
#          install put under a systemd unit directory)
# Exit status: 0 all verified, 1 a unit failed verification, 2 setup error.
set -euo pipefail

here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
build=
units=()

die() {
	printf 'verify-unit: error: %s\n' "$*" >&2
	exit 2
}
while (($#)); do
	case $1 in
	--build-dir) build=${2:?} && shift ;;
	-h | --help)
		awk 'NR > 2 && !/^#/ {exit} NR > 2 {sub(/^# ?/, ""); print}' "${BASH_SOURCE[0]}"
		exit 0
		;;
	-*) die "unknown option $1" ;;
	*) units+=("$1") ;;
	esac
	shift
done
[[ -n $build ]] || die "need --build-dir DIR"
command -v systemd-analyze >/dev/null || die "systemd-analyze not found (package systemd)"
command -v man >/dev/null || die "man not found (package man-db)"

base=$("$here/mkrootfs.sh" | tail -n 1) || die "mkrootfs.sh failed"
work=$(mktemp -d "${TMPDIR:-/tmp}/reclaimctl-verify.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
cp -a "$base" "$root"
if ! DESTDIR=$root cmake --install "$build" >"$work/install.log" 2>&1; then
	cat "$work/install.log" >&2
	die "cmake --install $build failed"
fi
ldconfig -r "$root"

# where the install put units and manual pages
unit_dirs=(/etc/systemd/system /usr/local/lib/systemd/system /usr/lib/systemd/system /lib/systemd/system)
# ("-- Installing: PATH" lines; install_manifest.txt in the build dir may be
# another install's at the same time)
mapfile -t installed < <(sed -n "s|^-- [A-Za-z-]*: $root||p" "$work/install.log")
if ((${#units[@]} == 0)); then
	for f in "${installed[@]}"; do
		for d in "${unit_dirs[@]}"; do
			[[ $f == "$d"/*.service || $f == "$d"/*.timer ]] && units+=("$f")
		done
	done
	((${#units[@]} > 0)) || die "the install put no *.service or *.timer into a systemd unit directory (${unit_dirs[*]})"
fi
manpath=$(printf '%s\n' "${installed[@]}" | sed -n 's|^\(.*/share/man\)/man[0-9].*|'"$root"'\1|p' | sort -u | paste -sd:)

rc=0
for unit in "${units[@]}"; do
	if [[ $unit != /* ]]; then
		for d in "${unit_dirs[@]}"; do
			[[ -f $root$d/$unit ]] && unit=$d/$unit && break
		done
	fi
	[[ -f $root$unit ]] || die "no unit $unit in the image"
	printf 'verify-unit: systemd-analyze verify --root=IMAGE %s (MANPATH=%s)\n' "$unit" "${manpath#"$root"}"
	if MANPATH=$manpath systemd-analyze verify --root="$root" "$unit"; then
		printf 'verify-unit: %s: ok\n' "$unit"
	else
		printf 'verify-unit: %s: FAILED\n' "$unit"
		rc=1
	fi
done
exit "$rc"
