#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-abidiff.sh - the ABI of the built libreclaim.so.1 is the one recorded
# in libreclaim/libreclaim.abi, as abidiff (abigail-tools) sees it.
#
# Usage: check-abidiff.sh [--update] BUILD|LIB
#   BUILD     a build directory (its libreclaim/libreclaim.so.1), or
#   LIB       the library itself
#   --update  write the library's ABI to libreclaim/libreclaim.abi instead
#
# abidw reads the library's DWARF and keeps what reclaim.h makes public: the
# exported functions with their symbol versions, their parameter and return
# types and the enums they use; the opaque structures stay declarations.
# Locations, paths and the build directory are left out, so that the same
# source gives the same file whatever the build flags (RelWithDebInfo or
# Debian's -g -O2 -ffile-prefix-map=... hardening) and wherever it was built.
# Enums that no function's signature names (the flags passed as unsigned
# int) are not part of it.
#
# Any difference fails: a removed or changed function, a changed enumerator
# or type (abidiff's report, then a message that the library breaks the
# baseline), and also an addition (a new function, a new enumerator), until
# the baseline is updated in the same commit.
#
# tests/check-abi.sh checks names only (reclaim.h, libreclaim.sym and the
# exported symbols agree with each other); this one checks types and
# symbol versions against what was released.
#
# Exits 0 if the ABI is the baseline's, 1 if not, 77 (skipped) without
# abidw and abidiff, for a library without debug information, one built by
# another compiler than gcc, or for another architecture than the
# baseline's.
set -euo pipefail

usage() {
	echo "usage: check-abidiff.sh [--update] BUILD|LIB" >&2
	exit 2
}
update=
case ${1:-} in
--update)
	update=1
	shift
	;;
-*) usage ;;
esac
[ $# -eq 1 ] || usage
lib=$1
[ -d "$lib" ] && lib=$lib/libreclaim/libreclaim.so.1
srcdir=$(cd "$(dirname "$0")/.." && pwd)
baseline=$srcdir/libreclaim/libreclaim.abi
name=libreclaim/libreclaim.abi
how_to_update="tests/check-abidiff.sh --update BUILD (or cmake --build BUILD --target abi-baseline)"

if ! command -v abidw >/dev/null || ! command -v abidiff >/dev/null; then
	echo "abidw and abidiff not found (Debian: apt-get install abigail-tools)" >&2
	[ -n "$update" ] && exit 1
	echo "skipped"
	exit 77
fi
[ -f "$lib" ] || {
	echo "no library $lib" >&2
	exit 1
}
# The compiler of each compilation unit: the baseline is that of gcc, whose
# DWARF abidw reads to the same ABI whatever the flags; clang's differs in
# form (it defines the opaque structures), so comparing would fail.
producers=$(readelf --debug-dump=info --dwarf-depth=1 "$lib" 2>/dev/null |
	sed -n 's/.*DW_AT_producer *: \(([^)]*): \)\{0,1\}//p' | sort -u)
other=$(grep -v '^GNU C' <<<"$producers" || true)
if [ -z "$producers" ] || [ -n "$other" ]; then
	if [ -z "$producers" ]; then
		echo "$lib has no debug information (build it with -g, e.g. RelWithDebInfo)" >&2
	else
		echo "$lib was not built by gcc (${other%%$'\n'*}); the baseline is of a gcc build" >&2
	fi
	[ -n "$update" ] && exit 1
	echo "skipped"
	exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

abidw --headers-dir "$srcdir/libreclaim/include" --drop-private-types --exported-interfaces-only \
	--drop-undefined-syms --no-elf-needed --no-corpus-path --no-comp-dir-path \
	--no-show-locs --short-locs --type-id-style hash --out-file "$tmp/lib.abi" "$lib"
grep -q '</abi-corpus>' "$tmp/lib.abi" || {
	echo "abidw wrote no ABI for $lib" >&2
	exit 1
}

# attr NAME FILE: the attribute NAME of the root element (architecture='elf-amd-x86_64')
attr() {
	sed -n "1s/.* $1='\([^']*\)'.*/\1/p" "$2"
}
arch() {
	attr architecture "$1"
}

if [ -n "$update" ]; then
	if [ -f "$baseline" ] && [ "$(arch "$baseline")" != "$(arch "$tmp/lib.abi")" ]; then
		echo "the baseline is for $(arch "$baseline"), $lib for $(arch "$tmp/lib.abi"):" \
			"update it with a build for $(arch "$baseline")" >&2
		exit 1
	fi
	# Comments may follow the root element only, and hold no "--".
	sed '1a\  <!-- SPDX-License-Identifier: LGPL-2.1-or-later -->\
  <!-- The ABI of libreclaim.so.1, written by tests/check-abidiff.sh: see there. -->' \
		"$tmp/lib.abi" >"$tmp/new.abi"
	if [ -f "$baseline" ] && cmp -s "$tmp/new.abi" "$baseline"; then
		echo "$name is up to date"
	else
		mv "$tmp/new.abi" "$baseline"
		echo "wrote $name: commit it with the change to the library"
	fi
	exit 0
fi

[ -f "$baseline" ] || {
	echo "no baseline $name: make it with $how_to_update" >&2
	exit 1
}
if [ "$(arch "$baseline")" != "$(arch "$tmp/lib.abi")" ]; then
	echo "the baseline is for $(arch "$baseline"), $lib for $(arch "$tmp/lib.abi"): skipped"
	exit 77
fi

# abidiff ARGS...: abidiff's exit status (bits: 1 error, 2 usage, 4 change,
# 8 incompatible change), its report in $tmp/report. Anything on stderr is
# an error: abidiff reads a damaged file as an empty ABI and exits 0.
abidiff_rc() {
	local rc=0
	abidiff "$@" "$baseline" "$tmp/lib.abi" >"$tmp/report" 2>"$tmp/stderr" || rc=$?
	if [ $((rc & 3)) -ne 0 ] || [ -s "$tmp/stderr" ]; then
		cat "$tmp/stderr" "$tmp/report" >&2
		echo "abidiff $* could not compare $name with the library (status $rc)" >&2
		exit 1
	fi
	return $rc
}

soname=$(attr soname "$tmp/lib.abi")
# Removed and changed functions and types; additions and the changes
# libabigail deems harmless (a new enumerator) are left out, and so is the
# count at the end of an enum that grows by appending (abidiff.suppr).
if ! abidiff_rc --no-added-syms --suppressions "$srcdir/tests/abidiff.suppr"; then
	cat "$tmp/report"
	echo "FAIL: $soname is not compatible with $name (above): a program built" \
		"against it may break. What was released stays as it is; add a function in a" \
		"new version node of libreclaim.sym instead. If the break is meant, it needs a" \
		"new soname, then $how_to_update." >&2
	exit 1
fi
# Everything, additions and harmless changes too.
if ! abidiff_rc --harmless; then
	cat "$tmp/report"
	echo "FAIL: $soname has an ABI that $name does not record (above)." \
		"If it is meant, update the baseline in the same commit: $how_to_update" >&2
	exit 1
fi
functions=$(grep -c '<elf-symbol ' "$tmp/lib.abi" || true)
echo "$soname: the ABI of $name ($functions functions)"
