# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The files a package is built from, for check-deb.sh and check-rpm.sh.

# source_files SRCDIR: SRCDIR's files as they are now, NUL-separated and
# relative to it: in a git checkout, those git knows (uncommitted changes and
# new files that are not ignored included, files deleted but not yet in git
# left out); outside git, every file of the tree but the build directories.
# SOURCE_FROM says which.
source_files() {
	local srcdir=$1 f
	if git -C "$srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		SOURCE_FROM="git ls-files of the checkout"
		git -C "$srcdir" ls-files -z --cached --others --exclude-standard |
			while IFS= read -r -d '' f; do
				if [ -e "$srcdir/$f" ] || [ -L "$srcdir/$f" ]; then
					printf '%s\0' "$f"
				fi
			done
	else
		SOURCE_FROM="the files of the tree"
		(cd "$srcdir" && find . \( -name .git -o -path './build*' \) -prune -o \( -type f -o -type l \) -print0 |
			sed -z 's,^\./,,')
	fi
}
