#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-install.sh - install the build with DESTDIR into a temporary
# directory and check that the completions, the man pages and the example
# reclaimctl.conf are where the build's settings put them.
#
# Usage: check-install.sh CMAKE BUILD_DIR SRCDIR PREFIX BASHDIR ZSHDIR FISHDIR MANDIR DOCDIR
#   PREFIX       CMAKE_INSTALL_PREFIX
#   BASHDIR ...  RECLAIM_{BASH,ZSH,FISH}_COMPLETION_DIR, CMAKE_INSTALL_MANDIR and
#                CMAKE_INSTALL_DOCDIR: relative to PREFIX, or absolute
# Every NAME.SECTION page the build made (BUILD_DIR/man), which must include
# reclaimctl.8, reclaimctl.conf.5, reclaimctl.preset.5 and libreclaim.3, must
# be in MANDIR/manSECTION; the installed completions must be the build's
# configured ones, the example SRCDIR/conf/reclaimctl.conf.example.
# Prints TAP; exits 0 if all passed, 1 if not.

set -u

[ $# -eq 9 ] || {
	echo 'usage: check-install.sh CMAKE BUILD_DIR SRCDIR PREFIX BASHDIR ZSHDIR FISHDIR MANDIR DOCDIR' >&2
	exit 2
}
cmake=$1 build=$2 srcdir=$3 prefix=$4 bashdir=$5 zshdir=$6 fishdir=$7 mandir=$8 docdir=$9

# shellcheck source=tap.sh
. "$(dirname "$0")/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root

# where DIR (relative to the prefix, or absolute) is under the DESTDIR
dest() {
	case $1 in
	/*) echo "$root$1" ;;
	*) echo "$root$prefix/$1" ;;
	esac
}

# installed WHAT PATH [SAME_AS]: PATH (under the DESTDIR) is a regular file,
# with the contents of SAME_AS if given
installed() {
	local what=$1 path=$2 same=${3:-}
	if [ ! -f "$path" ]; then
		result fail "$what is installed as ${path#"$root"}" \
			"$(cd "$root" && find . -name "$(basename "$path")" | sed 's/^/found: /')"
	elif [ -n "$same" ] && ! cmp -s "$same" "$path"; then
		result fail "$what is installed as ${path#"$root"}" "it differs from $same"
	else
		result ok "$what is installed as ${path#"$root"}"
	fi
}

if DESTDIR=$root "$cmake" --install "$build" >"$work/install.log" 2>&1; then
	result ok "DESTDIR=... cmake --install $build"
else
	result fail "DESTDIR=... cmake --install $build" "$(cat "$work/install.log")"
fi

installed "the bash completion" "$(dest "$bashdir")/reclaimctl" \
	"$build/completions/reclaimctl.bash"
installed "the zsh completion" "$(dest "$zshdir")/_reclaimctl" "$build/completions/_reclaimctl"
installed "the fish completion" "$(dest "$fishdir")/reclaimctl.fish" \
	"$build/completions/reclaimctl.fish"

for name in reclaimctl.8 reclaimctl.conf.5 reclaimctl.preset.5 libreclaim.3; do
	[ -f "$build/man/$name" ] || result fail "the build made the man page $name"
done
for page in "$build"/man/*.[1-9]; do
	[ -f "$page" ] || continue
	name=$(basename "$page")
	installed "man page $name" "$(dest "$mandir")/man${name##*.}/$name" "$page"
done

installed "the example reclaimctl.conf" "$(dest "$docdir")/examples/reclaimctl.conf" \
	"$srcdir/conf/reclaimctl.conf.example"

echo "1..$n"
echo "# install: $n checks, $failed failed"
[ "$failed" -eq 0 ]
