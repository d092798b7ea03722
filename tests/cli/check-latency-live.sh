#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# latency on the machine running the tests, whatever it has: with tracefs
# mounted and writable, a run of 0.2 s exits 0 with its table and leaves no
# instance behind; without tracefs (a container, this project's CI), or
# without the right to write to it, one line on standard error says which
# and how to mount it, nothing on standard output, exit 1. Run as an
# ordinary user too when the tests run as root (setpriv), where the line
# says root is needed unless tracefs is missing altogether.
#   check-latency-live.sh RECLAIMCTL
set -uo pipefail

bin=${1:?usage: check-latency-live.sh RECLAIMCTL}
tracing=/sys/kernel/tracing
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=SCRIPTDIR/tap.sh
. "$(dirname "$0")/tap.sh"
instances() { ls -d "$tracing"/instances/reclaimctl-latency-* 2>/dev/null; }

# check WHO [AS...]: one run of latency -d 0.2, as this user or through AS
check() {
	local who=$1 rc lines
	shift
	"$@" "$bin" latency -d 0.2 >"$work/out" 2>"$work/err"
	rc=$?
	lines=$(wc -l <"$work/err")
	if [ -d "$tracing/events" ] && [ -w "$tracing" ] && [ -z "$*" ]; then
		[ "$rc" = 0 ] && grep -q '^KIND ' "$work/out" &&
			result ok "$who: tracefs mounted: the table, exit 0" ||
			result fail "$who: tracefs mounted: exit $rc, $(cat "$work/out" "$work/err")"
	elif [ ! -d "$tracing/events" ]; then
		[ "$rc" = 1 ] && [ "$lines" = 1 ] && [ ! -s "$work/out" ] &&
			grep -qx "reclaimctl: tracefs is not mounted: mount it with 'mount -t tracefs tracefs /sys/kernel/tracing'" "$work/err" &&
			result ok "$who: no tracefs: one line saying how to mount it, exit 1" ||
			result fail "$who: no tracefs: exit $rc, stdout $(wc -c <"$work/out") bytes, stderr: $(cat "$work/err")"
	else
		[ "$rc" = 1 ] && [ "$lines" = 1 ] && [ ! -s "$work/out" ] &&
			grep -q "^reclaimctl: cannot write to $tracing: reading reclaim latency needs root$" "$work/err" &&
			result ok "$who: tracefs not writable: one line saying root is needed, exit 1" ||
			result fail "$who: tracefs not writable: exit $rc, stderr: $(cat "$work/err")"
	fi
	[ -z "$(instances)" ] && result ok "$who: no instance left" ||
		result fail "$who: instances left: $(instances)"
}

check "$(id -un)"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	check nobody setpriv --reuid=65534 --regid=65534 --clear-groups
fi
tap_end
