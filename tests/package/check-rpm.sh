#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-rpm.sh - build the RPMs of rpm/reclaimctl.spec from this source tree
# with rpmbuild and check what they hold.
#
# Usage: check-rpm.sh SRCDIR VERSION
#   SRCDIR   the source tree (a git checkout or not)
#   VERSION  the project's version (CMake's PROJECT_VERSION)
#
# Makes SRCDIR's tarball reclaimctl-VERSION.tar.gz (the files git knows in
# the checkout as they are now, uncommitted changes and new files that are
# not ignored included; every file of the tree when it is not a checkout),
# runs rpmbuild -bb in a temporary _topdir, then checks: the spec's Version
# is the project's; the three RPMs are there; each holds the files it
# should and no other, and nothing was left unpackaged (rpmbuild fails on
# that); the main package and -devel require -libs of the same build; the
# systemd scriptlets are there, the boot unit is not restarted on upgrade;
# the units, libreclaim.pc and reclaimctl.preset(5) name the paths where the
# files are, and the packaged binary runs with the packaged library; %check
# runs the unit and CLI tests; the License tags are SPDX expressions (with
# python3-license-expression); rpmlint, when installed, reports no error
# and no warning but those filtered in rpm/reclaimctl.rpmlintrc (and, on
# Debian, tests/package/debian.rpmlintrc), and no filter goes unused.
# Prints TAP; exits 0 if all passed, 1 if not, 77 (skipped, for CTest's
# SKIP_RETURN_CODE) if rpmbuild is not installed. RECLAIM_KEEP_RPM_TOPDIR=1
# keeps the temporary _topdir (the RPMs, rpmbuild.log, rpmlint.log).
#
# Built on a machine that is not Fedora (Debian's rpm 4.18), which has none
# of Fedora's macro packages: the macros the spec needs from them are loaded
# from fedora.macros beside this script, those only that the running rpm
# lacks. What that leaves unchecked:
#   - the BuildRequires: rpmbuild runs with --nodeps, as the rpm database
#     of a Debian machine has no Fedora package; the build uses Debian's
#     packages, so no BuildRequires line is checked against a Fedora package
#     name, nor is a missing one found;
#   - the RPMs' dependencies as Fedora would generate them: rpm's generators
#     run, but on files built against Debian's libraries, and no RPM is
#     installed or resolved against a Fedora repository;
#   - the scriptlets run nowhere: only their text is checked, and it comes
#     from fedora.macros, not from a Fedora release's systemd-rpm-macros;
#   - Fedora's build environment: its compiler and linker flags (hardening,
#     annobin; Debian's %optflags are -O2 -g), find-debuginfo (stripping,
#     the -debuginfo and -debugsource packages) and the brp scripts that
#     only redhat-rpm-config has (check-rpaths, mangle-shebangs); rpm's own
#     brp scripts run, brp-compress with bash as on Fedora;
#   - Fedora's rpmlint: Debian's is 2.4.0 with its default configuration,
#     the settings of rpmlint.toml and no list of valid licenses, and
#     without BashismsCheck;
#   - %check: rpmbuild runs with --without check (the spec's bcond: no
#     test is built, %check is left out) to keep CI time down; the same
#     unit and CLI tests run in every build of the project (and the Debian
#     package test runs debian/rules' test target on a subset of them).
#     The expansion of %check and of %build's BUILD_TESTING, with check
#     (the default) and without, is checked.

set -euo pipefail

usage='usage: check-rpm.sh SRCDIR VERSION'
srcdir=$(cd "${1:?$usage}" && pwd)
version=${2:?$usage}
here=$(cd "$(dirname "$0")" && pwd)
name=reclaimctl
spec=$srcdir/rpm/$name.spec
rpmlintrc=$srcdir/rpm/$name.rpmlintrc

# shellcheck source=../tap.sh
. "$here/../tap.sh"
# shellcheck source=source-files.sh
. "$here/source-files.sh"

if ! command -v rpmbuild >/dev/null; then
	echo "1..0 # SKIP rpmbuild is not installed (apt-get install rpm)"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-rpm.XXXXXX")
if [ -n "${RECLAIM_KEEP_RPM_TOPDIR:-}" ]; then
	echo "# rpmbuild's _topdir: $tmp (kept: RECLAIM_KEEP_RPM_TOPDIR is set)"
else
	trap 'rm -rf "$tmp"' EXIT
fi
mkdir -p "$tmp/home" "$tmp/SOURCES" "$tmp/root"

# rpm, rpmbuild, rpmspec and rpmlint without the caller's ~/.rpmmacros or
# rpmlint configuration
r() { HOME=$tmp/home "$@"; }

# The spec's build may use two CPUs (ctest reserves them: PROCESSORS 2).
# Debian's rpm 4.18 runs brp-compress, a bash script (read -d), with
# /bin/sh, which is dash there: it compresses no man page. Fedora's /bin/sh
# is bash, so it runs with bash here too.
rpmopts=(--define "_topdir $tmp" --define "_smp_ncpus_max 2" --load "$tmp/fedora.macros"
	--define "__brp_compress /bin/bash %{_rpmconfigdir}/brp-compress %{?_prefix}")

# --- the macros the running rpm lacks -------------------------------------
# A definition starts with an unindented "%name" or "%name(options)" that
# does not continue the line before.
macro_names=$(awk '!cont && /^%[A-Za-z_]/ { n = $1; sub(/^%/, "", n); sub(/\(.*/, "", n); print n }
	{ cont = /\\$/ }' "$here/fedora.macros")
query=
for m in $macro_names; do query+="%{?$m:$m }"; done
have=$(r rpm --eval "$query")
awk -v have=" $have " '
	!cont && /^%[A-Za-z_]/ { n = $1; sub(/^%/, "", n); sub(/\(.*/, "", n); keep = index(have, " " n " ") == 0 }
	!cont && /^(#|$)/ { keep = 0 }
	keep { print }
	{ cont = /\\$/ }' "$here/fedora.macros" >"$tmp/fedora.macros"
missing=$(awk '!cont && /^%[A-Za-z_]/ { n = $1; sub(/^%/, "", n); sub(/\(.*/, "", n); printf "%s ", n }
	{ cont = /\\$/ }' "$tmp/fedora.macros")
result ok "fedora.macros: loaded ${missing:-nothing}(this rpm has ${have:-none of them})"

ev() { r rpm "${rpmopts[@]}" --eval "$1"; }

# --- the spec's version ---------------------------------------------------
specversion=$(r rpmspec -q --srpm "${rpmopts[@]}" --qf '%{version}' "$spec" 2>"$tmp/rpmspec.err") ||
	specversion="(rpmspec failed: $(cat "$tmp/rpmspec.err"))"
if [ "$specversion" = "$version" ]; then
	result ok "the spec's Version is the project's, $version"
else
	result fail "the spec's Version is the project's, $version" "Version: $specversion"
fi

# --- the source tarball ---------------------------------------------------
source_files "$srcdir" >"$tmp/files"
from=$SOURCE_FROM
tarball=$tmp/SOURCES/$name-$version.tar.gz
if tar -czf "$tarball" -C "$srcdir" --no-recursion --null \
	--transform "s,^,$name-$version/,S" --owner=0 --group=0 --numeric-owner \
	--files-from="$tmp/files" 2>"$tmp/tar.err"; then
	result ok "$name-$version.tar.gz: $(tr -cd '\0' <"$tmp/files" | wc -c) files, $from"
else
	result fail "$name-$version.tar.gz from $from" "$(cat "$tmp/tar.err")"
fi

# --- rpmbuild -bb -----------------------------------------------------------
# Files installed but named in no %files fail the build: that must stay so.
if [ "$(ev '%{_unpackaged_files_terminate_build}')" = 1 ]; then
	result ok "rpmbuild fails on unpackaged files (%_unpackaged_files_terminate_build 1)"
else
	result fail "rpmbuild fails on unpackaged files" \
		"%_unpackaged_files_terminate_build is $(ev '%{_unpackaged_files_terminate_build}')"
fi
start=$SECONDS
if r rpmbuild -bb --nodeps --without check "${rpmopts[@]}" "$spec" >"$tmp/rpmbuild.log" 2>&1; then
	result ok "rpmbuild -bb --nodeps --without check $name.spec ($((SECONDS - start)) s)"
else
	result fail "rpmbuild -bb --nodeps --without check $name.spec" \
		"$(grep -A30 -E 'unpackaged file|File not found|error:' "$tmp/rpmbuild.log" | head -60)
$(tail -n 15 "$tmp/rpmbuild.log")"
	echo "1..$n"
	exit 1
fi

# --- the RPMs -------------------------------------------------------------
arch=$(ev '%{_arch}')
release=$(r rpmspec -q --srpm "${rpmopts[@]}" --qf '%{release}' "$spec")
isa=$(ev '%{?_isa}')
nvr=$version-$release
main=$tmp/RPMS/$arch/$name-$nvr.$arch.rpm
libs=$tmp/RPMS/$arch/$name-libs-$nvr.$arch.rpm
devel=$tmp/RPMS/$arch/$name-devel-$nvr.$arch.rpm
built=$(cd "$tmp/RPMS" && find . -name '*.rpm' | sed 's,^\./,,' | sort)
expected=$(printf '%s\n' "$main" "$libs" "$devel" | sed "s,^$tmp/RPMS/,," | sort)
# Fedora adds -debuginfo and -debugsource: not an error where they exist.
if [ "$(grep -vE -- '-debug(info|source)-' <<<"$built")" = "$expected" ]; then
	result ok "three RPMs: ${expected//$'\n'/ }"
else
	result fail "three RPMs: ${expected//$'\n'/ }" "built: ${built//$'\n'/ }"
	echo "1..$n"
	exit 1
fi

sbindir=$(ev '%{_sbindir}')
libdir=$(ev '%{_libdir}')
includedir=$(ev '%{_includedir}')
mandir=$(ev '%{_mandir}')
unitdir=$(ev '%{_unitdir}')
datadir=$(ev '%{_datadir}')
catalogdir=$(ev '%{_journalcatalogdir}')
pkgdocdir=$(r rpm "${rpmopts[@]}" --define "name $name" --eval '%{_pkgdocdir}')
licensedir=$(ev '%{_defaultlicensedir}')
presetdir=$(ev '%{_prefix}')/lib/$name/presets
bashdir=$(ev '%{bash_completions_dir}')
zshdir=$(ev '%{zsh_completions_dir}')
fishdir=$(ev '%{fish_completions_dir}')

# a fixed string as an extended regular expression
re() { sed 's/[][\.*^$?+(){}|]/\\&/g' <<<"$1"; }

# man page regexes: each NAME.SECTION.scd of man/ in section 3 or not, as
# installed (compressed or not: Fedora's brp-compress gzips them)
man_pages() {
	local scd page section
	for scd in "$srcdir"/man/*.scd; do
		page=$(basename "$scd" .scd)
		section=${page##*.}
		if { [ "$1" = 3 ] && [ "$section" = 3 ]; } || { [ "$1" != 3 ] && [ "$section" != 3 ]; }; then
			echo "$(re "$mandir/man$section/$page")(\\.gz)?"
		fi
	done
}

# files PACKAGE RPM REGEX...: every REGEX (whole path) matches a path of
# RPM's file list, and every path matches one of them or is a build-id link
# (/usr/lib/.build-id/NN/ID to an ELF file of the package, as on Fedora).
files() {
	local pkg=$1 rpm=$2 list missing='' extra='' regex path
	shift 2
	list=$(r rpm -qlp "$rpm" 2>&1 | grep -vE '^/usr/lib/\.build-id(/|$)')
	for regex in "$@"; do
		grep -qxE -- "$regex" <<<"$list" || missing+="missing: $regex"$'\n'
	done
	while IFS= read -r path; do
		for regex in "$@"; do
			grep -qxE -- "$regex" <<<"$path" && continue 2
		done
		extra+="not expected: $path"$'\n'
	done <<<"$list"
	if [ -z "$missing$extra" ]; then
		result ok "$pkg: $(wc -l <<<"$list") paths, the expected ones"
	else
		result fail "$pkg holds the expected files and no other" "$missing$extra"
	fi
}

main_files=(
	"$(re "$sbindir/$name")"
	"$(re "$unitdir/$name-autotune.service")"
	"$(re "$unitdir/$name-adaptive.service")"
	"$(re "$unitdir/$name-textfile.service")"
	"$(re "$unitdir/$name-textfile.timer")"
	"$(re "$unitdir/$name-latency.service")"
	"$(re "$catalogdir/$name.catalog")"
	"$(re "$datadir/$name")" "$(re "$datadir/$name/prometheus")" "$(re "$datadir/$name/grafana")"
	"$(re "$datadir/$name/prometheus/$name.rules.yml")" "$(re "$datadir/$name/prometheus/tests.yml")"
	"$(re "$datadir/$name/grafana/$name.json")"
	"$(re "${presetdir%/presets}")" "$(re "$presetdir")"
	"$(re "$bashdir/$name")"
	"$(re "$zshdir/_$name")"
	"$(re "$fishdir/$name.fish")"
	"$(re "$pkgdocdir")" "$(re "$pkgdocdir/README.md")"
	"$(re "$pkgdocdir/examples")" "$(re "$pkgdocdir/examples/$name.conf")"
	"$(re "$licensedir/$name")" "$(re "$licensedir/$name/COPYING")"
)
for preset in "$srcdir"/presets/*.preset; do
	main_files+=("$(re "$presetdir/$(basename "$preset")")")
done
mapfile -t -O ${#main_files[@]} main_files < <(man_pages 8)
files "$name" "$main" "${main_files[@]}"

files "$name-libs" "$libs" \
	"$(re "$libdir/libreclaim.so.1")" "$(re "$libdir/libreclaim.so.1.")[0-9.]+" \
	"$(re "$licensedir/$name-libs")" "$(re "$licensedir/$name-libs/COPYING.LIB")"

devel_files=(
	"$(re "$includedir/reclaim.h")"
	"$(re "$libdir/libreclaim.so")"
	"$(re "$libdir/pkgconfig/libreclaim.pc")"
	"$(re "$licensedir/$name-devel")" "$(re "$licensedir/$name-devel/COPYING")"
)
mapfile -t -O ${#devel_files[@]} devel_files < <(man_pages 3)
files "$name-devel" "$devel" "${devel_files[@]}"

# --- dependencies -----------------------------------------------------------
# has WHAT RPM QUERY LINE: rpm -qp QUERY of RPM has LINE
has() {
	local what=$1 rpm=$2 query=$3 line=$4 out
	out=$(r rpm -qp "$query" "$rpm" 2>&1)
	if grep -qxF -- "$line" <<<"$out"; then
		result ok "$what: $line"
	else
		result fail "$what: $line" "$out"
	fi
}
has "$name requires" "$main" --requires "$name-libs$isa = $nvr"
has "$name-devel requires" "$devel" --requires "$name-libs$isa = $nvr"
has "$name-devel provides" "$devel" --provides "pkgconfig(libreclaim) = $version"
has "$name-libs provides" "$libs" --provides "libreclaim.so.1()(64bit)"
has "$name requires" "$main" --requires "libreclaim.so.1()(64bit)"

# --- the scriptlets -------------------------------------------------------
scripts=$(r rpm -qp --scripts "$main")
# scriptlet NAME: the text of one scriptlet of the main package
scriptlet() {
	awk -v want="$1" '/^[a-z]+ scriptlet/ { on = ($1 == want); next } on' <<<"$scripts"
}
units="$name-autotune.service $name-adaptive.service $name-textfile.timer $name-latency.service"
for case in "postinstall|install-system-units $units" \
	"preuninstall|remove-system-units $units" \
	"postuninstall|mark-restart-system-units $name-adaptive.service $name-textfile.timer $name-latency.service"; do
	which=${case%%|*} line="systemd-update-helper ${case#*|}"
	if scriptlet "$which" | grep -qF -- "$line"; then
		result ok "$which scriptlet: $line"
	else
		result fail "$which scriptlet: $line" "$scripts"
	fi
done
# The boot unit is a oneshot that applies a preset: an upgrade must not run it again.
if scriptlet postuninstall | grep -q autotune; then
	result fail "postuninstall scriptlet does not restart $name-autotune.service" "$scripts"
else
	result ok "postuninstall scriptlet does not restart $name-autotune.service"
fi
for rpm in "$libs" "$devel"; do
	out=$(r rpm -qp --scripts "$rpm")
	if [ -z "$out" ]; then
		result ok "$(basename "$rpm"): no scriptlets"
	else
		result fail "$(basename "$rpm"): no scriptlets" "$out"
	fi
done

# --- the packaged files agree with where they are -------------------------
for rpm in "$main" "$libs" "$devel"; do
	(cd "$tmp/root" && rpm2cpio "$rpm" | cpio -idm --quiet)
done
root=$tmp/root
for unit in "$name-autotune.service" "$name-adaptive.service" "$name-textfile.service" "$name-latency.service"; do
	bad=$(grep -E '^Exec[A-Za-z]*=' "$root$unitdir/$unit" | grep -vE "^Exec[A-Za-z]*=($(re "$sbindir/$name") |/bin/sh )" || true)
	if [ -z "$bad" ] && grep -qE "^ExecStart=$(re "$sbindir/$name") " "$root$unitdir/$unit"; then
		result ok "$unit runs $sbindir/$name"
	else
		result fail "$unit runs $sbindir/$name" "$(grep -E '^Exec' "$root$unitdir/$unit")"
	fi
done
pc=$root$libdir/pkgconfig/libreclaim.pc
if grep -qx "libdir=$libdir" "$pc" && grep -qx "includedir=$includedir" "$pc" &&
	grep -qx "Version: $version" "$pc"; then
	result ok "libreclaim.pc: libdir=$libdir, includedir=$includedir, Version: $version"
else
	result fail "libreclaim.pc: libdir=$libdir, includedir=$includedir, Version: $version" "$(cat "$pc")"
fi
out=$(LD_LIBRARY_PATH=$root$libdir "$root$sbindir/$name" --version 2>&1) || true
if grep -qF "$version" <<<"$out" && [ -z "$(ldd "$root$sbindir/$name" | grep 'not found' | grep -v libreclaim || true)" ]; then
	result ok "the packaged $name runs with the packaged library: $(head -n1 <<<"$out")"
else
	result fail "the packaged $name runs with the packaged library" "$out"
fi
if gzip -dcf "$root$mandir/man5/$name.preset.5"* | grep -F "$presetdir" >/dev/null; then
	result ok "$name.preset(5) names the packaged presets' directory, $presetdir"
else
	result fail "$name.preset(5) names the packaged presets' directory, $presetdir"
fi

# --- the sections rpmbuild did not run ------------------------------------
parsed=$(r rpmspec -P "${rpmopts[@]}" "$spec")
check_section=$(awk '/^%check/ { on = 1; next } /^%[a-z]/ && !/^%(if|else|endif)/ { on = 0 } on' <<<"$parsed")
if grep -qE -- "ctest --test-dir .* -L '\^\(unit\|cli\)\\$'" <<<"$check_section"; then
	result ok "%check runs ctest -L '^(unit|cli)\$' in the build directory"
else
	result fail "%check runs ctest -L '^(unit|cli)\$' in the build directory" "$check_section"
fi
if grep -qE -- "-DRECLAIM_VM_TESTS=OFF -DBUILD_TESTING=OFF" "$tmp/rpmbuild.log"; then
	result ok "%build configures with -DRECLAIM_VM_TESTS=OFF, and without check -DBUILD_TESTING=OFF"
else
	result fail "%build configures with -DRECLAIM_VM_TESTS=OFF, and without check -DBUILD_TESTING=OFF" \
		"$(grep -E -- '-DRECLAIM_VM_TESTS' "$tmp/rpmbuild.log")"
fi
if grep -qE -- "-DRECLAIM_VM_TESTS=OFF -DBUILD_TESTING=ON" <<<"$parsed"; then
	result ok "%build configures with -DBUILD_TESTING=ON by default"
else
	result fail "%build configures with -DBUILD_TESTING=ON by default" "$(grep -E -- '-DRECLAIM_VM_TESTS' <<<"$parsed")"
fi
tests_built=$(grep -cE 'Linking C (executable|shared library|shared module) .*(unit-|fuzz-|sysroot-race|dump-columns|fakeswap|jsonq)' "$tmp/rpmbuild.log" || true)
# (the log shows what it links: reclaimctl's own line is there)
tool_built=$(grep -cE 'Linking C executable (cli/)?reclaimctl$' "$tmp/rpmbuild.log" || true)
if [ "$tests_built" = 0 ] && [ "$tool_built" = 1 ]; then
	result ok "rpmbuild --without check links reclaimctl and no test program"
else
	result fail "rpmbuild --without check links reclaimctl and no test program" \
		"reclaimctl linked $tool_built times, $tests_built test programs"
fi
unchecked=$(r rpmspec -P --without check "${rpmopts[@]}" "$spec")
if grep -q '^%check' <<<"$unchecked"; then
	result fail "without check, the spec has no %check" "$(grep -A3 '^%check' <<<"$unchecked")"
else
	result ok "without check, the spec has no %check"
fi

# --- the License tags --------------------------------------------------
# Each a valid SPDX expression, written as SPDX writes it (GPL-2.0-or-later,
# not GPL-2.0+ or GPLv2+; AND, not and), as Fedora's guidelines want.
spdx_python=
for py in /usr/bin/python3 python3; do
	if "$py" -c 'import license_expression' 2>/dev/null; then
		spdx_python=$py
		break
	fi
done
for rpm in "$main" "$libs" "$devel"; do
	tag=$(r rpm -qp --qf '%{license}' "$rpm")
	what="$(basename "$rpm"): License: $tag is an SPDX expression"
	if [ -z "$spdx_python" ]; then
		echo "ok $((n += 1)) - $what # SKIP python3-license-expression is not installed"
		continue
	fi
	if out=$("$spdx_python" -c '
import sys
from license_expression import get_spdx_licensing
info = get_spdx_licensing().validate(sys.argv[1], strict=True)
if info.errors or info.normalized_expression != sys.argv[1]:
    print("; ".join(info.errors) or "SPDX writes it " + str(info.normalized_expression))
    sys.exit(1)
' "$tag" 2>&1); then
		result ok "$what"
	else
		result fail "$what" "$out"
	fi
done

# --- rpmlint --------------------------------------------------------------
# On Debian, with the settings of Fedora's configuration that matter here
# (rpmlint.toml) and the filters only a build on Debian needs
# (debian.rpmlintrc); elsewhere with the spec's rpmlintrc alone.
if command -v rpmlint >/dev/null; then
	lintopts=()
	cp "$rpmlintrc" "$tmp/rpmlintrc"
	if [ -e /etc/debian_version ]; then
		lintopts=(-c "$here/rpmlint.toml")
		cat "$here/debian.rpmlintrc" >>"$tmp/rpmlintrc"
	fi
	r rpmlint "${lintopts[@]}" -r "$tmp/rpmlintrc" "$spec" "$main" "$libs" "$devel" \
		>"$tmp/rpmlint.log" 2>&1 || true
	summary=$(grep -E '[0-9]+ errors?, [0-9]+ warnings?' "$tmp/rpmlint.log" | tail -n1)
	if grep -qE ' 0 errors, 0 warnings' <<<"$summary"; then
		result ok "rpmlint:${summary%% }"
	else
		result fail "rpmlint: no error, no warning but those filtered" \
			"$(grep -E '^[^ ]+: [EW]: |errors?, ' "$tmp/rpmlint.log" || cat "$tmp/rpmlint.log")"
	fi
else
	echo "ok $((n += 1)) - rpmlint # SKIP rpmlint is not installed"
fi

echo "1..$n"
[ "$failed" = 0 ]
