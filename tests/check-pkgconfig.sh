#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-pkgconfig.sh - the build's libreclaim.pc on its own: pkg-config finds
# it with no other .pc file visible (reclaim.h needs no other package's
# headers, so neither --cflags nor --libs may need mount.pc or libnl's), its
# flags are the installed paths, and --static adds the libraries libreclaim
# links.
#
# Usage: check-pkgconfig.sh PC VERSION LIBDIR INCLUDEDIR
#   PC          the build's libreclaim/libreclaim.pc
#   VERSION     PROJECT_VERSION
#   LIBDIR ...  CMAKE_INSTALL_FULL_LIBDIR and CMAKE_INSTALL_FULL_INCLUDEDIR
# Prints TAP; exits 0 if all passed, 1 if not.
set -euo pipefail

[ $# -eq 4 ] || {
	echo 'usage: check-pkgconfig.sh PC VERSION LIBDIR INCLUDEDIR' >&2
	exit 2
}
pc=$1 version=$2 libdir=$3 includedir=$4

# shellcheck source=tap.sh
. "$(dirname "$0")/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$pc" "$work/libreclaim.pc"

# Only $work is searched; the flags of system directories are kept, so that
# a prefix of /usr prints them too.
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_TOP_BUILD_DIR
export PKG_CONFIG_LIBDIR=$work PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1

# expect DESCRIPTION WANT ARGS...: pkg-config ARGS succeeds and prints WANT
# (words separated by one space)
expect() {
	local what=$1 want=$2 out
	shift 2
	if ! out=$(pkg-config "$@" 2>&1); then
		result fail "$what" "pkg-config $* failed:
$out"
		return
	fi
	local -a words
	read -ra words <<<"$out" # one space between words
	out="${words[*]}"
	if [ "$out" = "$want" ]; then
		result ok "$what"
	else
		result fail "$what" "pkg-config $*
want: $want
got:  $out"
	fi
}

if pkg-config --exists mount || pkg-config --exists libnl-3.0; then
	result fail "no other .pc file is visible" "mount.pc or libnl-3.0.pc found in $work"
else
	result ok "no other .pc file is visible"
fi
expect "--modversion is the project's version" "$version" --modversion libreclaim
expect "no Requires" "" --print-requires libreclaim
expect "no Requires.private" "" --print-requires-private libreclaim
expect "--cflags is the include directory" "-I$includedir" --cflags libreclaim
expect "--libs is the library directory and -lreclaim" "-L$libdir -lreclaim" --libs libreclaim
expect "--cflags --libs together" "-I$includedir -L$libdir -lreclaim" --cflags --libs libreclaim
expect "--static --libs adds libmount, libnl-genl-3, libnl-3 and threads" \
	"-L$libdir -lreclaim -lmount -lnl-genl-3 -lnl-3 -pthread" --static --libs libreclaim
if out=$(pkg-config --validate libreclaim 2>&1); then
	result ok "--validate"
else
	result fail "--validate" "$out"
fi

echo "1..$n"
echo "# pkgconfig: $n checks, $failed failed"
[ "$failed" -eq 0 ]
