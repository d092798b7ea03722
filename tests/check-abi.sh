#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The exported ABI is exactly what reclaim.h declares: every public function is
# in libreclaim.sym and exported by the library, and nothing else is exported.
#   check-abi.sh reclaim.h libreclaim.sym libreclaim.so
# Names only, the three sources against each other, with nm: it runs on any
# build. check-abidiff.sh compares the library with what was released (the
# baseline libreclaim/libreclaim.abi): types of parameters and returns,
# enumerators and symbol versions, from the debug information, with abidiff.
set -euo pipefail
header=$1 sym=$2 lib=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Declarations span lines; join them, then take the name before each "(".
tr '\n' ' ' <"$header" | grep -oE '[a-z_0-9]+\(' | tr -d '(' |
	grep -E '^reclaim_' | sort -u >"$tmp/header"
grep -oE '^\s+reclaim_[a-z_0-9]+;' "$sym" | tr -d ' \t;' | sort >"$tmp/sym"
nm -D --defined-only "$lib" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort >"$tmp/lib"

status=0
if ! diff -u "$tmp/header" "$tmp/sym"; then
	echo "reclaim.h and libreclaim.sym disagree (- header, + sym)" >&2
	status=1
fi
if ! diff -u "$tmp/sym" "$tmp/lib"; then
	echo "libreclaim.sym and the library's exports disagree (- sym, + exported)" >&2
	status=1
fi
[ "$(sort "$tmp/sym" | uniq -d)" = "" ] || { echo "duplicate symbols in $sym" >&2; status=1; }
echo "$(wc -l <"$tmp/lib") exported functions"
exit $status
