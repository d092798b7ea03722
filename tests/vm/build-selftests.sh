#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the kernel selftests of the series for the guest, as static programs:
# those that kernel/patches/*selftests*.patch adds to
# tools/testing/selftests/mm/ (a "+TEST_GEN_FILES += NAME" or
# "+TEST_GEN_PROGS += NAME" line of its Makefile hunk, with NAME.c created by
# the patch). Nothing is applied to a kernel tree: the patch goes with
# patch -p1 into a temporary directory holding pristine copies of
# tools/testing/selftests/*.h and tools/testing/selftests/mm/, and each
# NAME.c is compiled there on its own, with the flags of the mm Makefile,
# -static and the host's /usr/include (the guest is a busybox initramfs, and
# no kernel headers are installed).
#
# usage: build-selftests.sh [--patch FILE] -o OUTDIR    build OUTDIR/NAME...
#        build-selftests.sh [--patch FILE] --list       print the NAMEs
#   --patch FILE  the selftests patch (default: the one *selftests*.patch in
#                 $RECLAIMCTL_VM_PATCH_DIR, or kernel/patches of this tree)
#
# The pristine files come from the source that build-kernel.sh unpacks into
# its cache ($RECLAIMCTL_VM_CACHE/linux-source-6.12), or else from the
# tarball ($RECLAIMCTL_KERNEL_SRC, default /usr/src/linux-source-6.12.tar.xz,
# package linux-source-6.12). CC (default cc) is the compiler.
set -euo pipefail

here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
top=$(readlink -f "$here/../..")
patch_dir=${RECLAIMCTL_VM_PATCH_DIR:-$top/kernel/patches}
cache=${RECLAIMCTL_VM_CACHE:-/var/cache/reclaimctl-vm}
tarball=${RECLAIMCTL_KERNEL_SRC:-/usr/src/linux-source-6.12.tar.xz}
srcname=linux-source-6.12
cc=${CC:-cc}
patch=
out=
list=0

log() { printf 'build-selftests: %s\n' "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}
usage() {
	awk 'NR > 2 && !/^#/ {exit} NR > 2 {sub(/^# ?/, ""); print}' "${BASH_SOURCE[0]}"
	exit "${1:-0}"
}

while (($#)); do
	case $1 in
	--patch) patch=${2:?} && shift ;;
	-o | --output) out=${2:?} && shift ;;
	--list) list=1 ;;
	-h | --help) usage 0 ;;
	*) usage 2 >&2 ;;
	esac
	shift
done
((list)) || [[ -n $out ]] || die "no output directory (-o)"

if [[ -z $patch ]]; then
	shopt -s nullglob
	found=("$patch_dir"/*selftests*.patch)
	shopt -u nullglob
	((${#found[@]} == 1)) ||
		die "want exactly one *selftests*.patch in $patch_dir, found ${#found[@]}"
	patch=${found[0]}
fi
[[ -f $patch ]] || die "no patch $patch"

# The programs: NAME of "+TEST_GEN_FILES += NAME" (or _PROGS) in the hunks of
# the mm Makefile, whose NAME.c the patch creates.
mapfile -t names < <(awk '
	/^diff --git a\// { path = $4; sub(/^b\//, "", path); file = ""; next }
	/^new file mode / { created[path] = 1; next }
	/^\+\+\+ b\// { file = substr($2, 3); next }
	file == "tools/testing/selftests/mm/Makefile" &&
	    /^\+TEST_GEN_(FILES|PROGS)[ \t]*\+?=/ {
		line = $0
		sub(/^[^=]*=[ \t]*/, "", line)
		n = split(line, w, /[ \t]+/)
		for (i = 1; i <= n; i++)
			if (w[i] != "")
				prog[w[i]] = 1
	}
	END {
		for (p in prog)
			if (("tools/testing/selftests/mm/" p ".c") in created)
				print p
	}' "$patch" | LC_ALL=C sort)
((${#names[@]} > 0)) || die "$(basename "$patch") adds no program to tools/testing/selftests/mm/Makefile"
if ((list)); then
	printf '%s\n' "${names[@]}"
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/reclaimctl-selftests.XXXXXX")
trap 'rm -rf "$work"' EXIT
sel=tools/testing/selftests

# Pristine selftests: the cache's unpacked source, or the tarball
pristine=$cache/$srcname
if [[ -f $pristine/$sel/kselftest.h && -d $pristine/$sel/mm ]]; then
	mkdir -p "$work/src/$sel"
	cp -p "$pristine/$sel"/*.h "$work/src/$sel/"
	cp -pr "$pristine/$sel/mm" "$work/src/$sel/"
elif [[ -f $tarball ]]; then
	log "extracting the selftests from $tarball"
	tar -C "$work" -xf "$tarball" --wildcards "$srcname/$sel/*.h" "$srcname/$sel/mm/*" ||
		die "cannot extract $sel from $tarball"
	mv "$work/$srcname" "$work/src"
else
	die "no pristine kernel source: neither $pristine nor $tarball (package linux-source-6.12: scripts/deps.sh test)"
fi

log "applying $(basename "$patch")"
if ! patch -p1 -d "$work/src" --batch --forward --no-backup-if-mismatch -r - <"$patch" >"$work/patch.log" 2>&1; then
	cat "$work/patch.log" >&2
	die "$(basename "$patch") does not apply to the pristine selftests"
fi

# The mm Makefile's CFLAGS and LDLIBS, static, warnings fatal
mkdir -p "$out"
for name in "${names[@]}"; do
	log "compiling $name"
	(cd "$work/src/$sel/mm" &&
		"$cc" -Wall -Werror -O2 -U_FORTIFY_SOURCE -static -o "$work/$name" "$name.c" \
			-lrt -lpthread -lm) || die "$name does not compile"
	install -m 0755 "$work/$name" "$out/$name"
done
log "${#names[@]} programs in $out: ${names[*]}"
