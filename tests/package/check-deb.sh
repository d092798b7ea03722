#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-deb.sh SRCDIR VERSION: the Debian packages, built and installed for
# real. VERSION is the project's (CMake's PROJECT_VERSION), which
# debian/changelog's must be.
#  1. the project's files (source_files of source-files.sh) are copied to a
#     scratch directory and built there with dpkg-buildpackage -us -uc -b
#     and DEB_BUILD_OPTIONS=nocheck: the unit and CLI tests that
#     debian/rules runs have run in the build this test belongs to, so the
#     package build runs none, and then debian/rules' test target runs one
#     test of each of its labels in the package's build tree (proof that
#     it works for a distribution build, where it runs them all);
#  2. lintian on the .changes: no error and no warning;
#  3. what each package holds and depends on;
#  4. the install test, as autopkgtest would run debian/tests/control: in a
#     scratch Debian root made by mmdebstrap (its base cached as a tarball
#     in RECLAIMCTL_VM_CACHE), apt-get install ./*.deb, each test's Depends,
#     then each test with AUTOPKGTEST_TMP; then apt-get purge leaves nothing.
# Prints TAP. Exit status 0 all passed, 1 a check failed, 77 (skipped) not
# root or no dpkg-buildpackage, lintian or mmdebstrap (scripts/deps.sh test
# installs them).
set -euo pipefail
srcdir=$(readlink -f "$1")
project_version=$2
here=$(dirname "$(readlink -f "$0")")
# shellcheck source=SCRIPTDIR/../tap.sh
. "$here/../tap.sh"
# shellcheck source=SCRIPTDIR/../apt-sources.sh
. "$here/../apt-sources.sh"
# shellcheck source=SCRIPTDIR/source-files.sh
. "$here/source-files.sh"

for tool in dpkg-buildpackage dh lintian mmdebstrap; do
	command -v "$tool" >/dev/null || {
		echo "skipped: no $tool (scripts/deps.sh test installs it)"
		exit 77
	}
done
((EUID == 0)) || {
	echo "skipped: needs root (a chroot for the install test)"
	exit 77
}

version=$(sed -n '1s/^reclaimctl (\([^)]*\)).*/\1/p' "$srcdir/debian/changelog")
arch=$(dpkg --print-architecture)
codename=$(sed -n "s/^VERSION_CODENAME=//p" /etc/os-release | tr -d "\"'")
work=$(mktemp -d /var/tmp/reclaimctl-deb.XXXXXX)
root=$work/root
cleanup() {
	local m
	for m in proc sys; do
		if mountpoint -q "$root/$m" 2>/dev/null; then umount "$root/$m" || umount -l "$root/$m"; fi
	done
	# never into a file system still mounted in the scratch root
	if grep -qF " $root/" /proc/self/mountinfo; then
		echo "# $work kept: a file system is still mounted in it" >&2
		return
	fi
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT

# the log's tail as TAP diagnostics, then the end
bail() {
	result fail "$1" "$(tail -n "${3:-40}" "$2")"
	echo "1..$n"
	exit 1
}

okif "debian/changelog's version is the project's, $project_version" "debian/changelog: $version" \
	test "$version" = "$project_version"

# 1. build
src=$work/reclaimctl-$version
mkdir -p "$src"
source_files "$srcdir" >"$work/files"
tar -cf - -C "$srcdir" --no-recursion --null -T "$work/files" | tar -x -C "$src"
t=$SECONDS
(cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -b) \
	>"$work/build.log" 2>&1 || bail "dpkg-buildpackage -us -uc -b (nocheck)" "$work/build.log" 60
ran=$(grep -cE 'Test +#[0-9]+: ' "$work/build.log" || true)
okif "dpkg-buildpackage -us -uc -b with nocheck in $((SECONDS - t)) s runs no test" "$ran tests ran" \
	test "$ran" = 0
okif "the package build configures RECLAIM_VM_TESTS=OFF" "" \
	grep -q -- '-DRECLAIM_VM_TESTS=OFF' "$work/build.log"

# debian/rules' own test target, in the package's build tree, on one test of
# each of its labels: it runs them, and the label filter keeps the VM,
# browser and package tests out ("$$" is make's "$")
subset='^(unit[.]knobs|cli[.]version|man[.]render|abi|completions[.]bash|install)$$'
t=$SECONDS
(cd "$src" && make -f debian/rules override_dh_auto_test RECLAIM_CTEST_ARGS="-R '$subset'") \
	>"$work/test.log" 2>&1 || bail "debian/rules override_dh_auto_test (a subset)" "$work/test.log" 60
tests=$(sed -n 's/^[0-9]*% tests passed, 0 tests failed out of \([0-9]*\)$/\1/p' "$work/test.log")
okif "debian/rules' test target in the package build tree: ${tests:-no} tests passed in $((SECONDS - t)) s" \
	"$(grep -E 'tests passed|tests failed|No tests' "$work/test.log")" test "${tests:-0}" = 6
grep -E 'Test +#[0-9]+: .*\*\*\*(Skipped|Not Run)' "$work/test.log" | sed 's/^ */# skipped in the package build: /' || true
vm_tests=$(grep -cE 'Test +#[0-9]+: (vm|package|ansible|contrib)\.' "$work/test.log" || true)
okif "debian/rules' test target runs no VM, package, Ansible or contrib test" "$vm_tests ran" \
	test "$vm_tests" = 0

debs=()
for p in reclaimctl libreclaim1 libreclaim-dev; do
	debs+=("$work/${p}_${version}_$arch.deb")
done
changes=$work/reclaimctl_${version}_$arch.changes

# 2. lintian
rc=0
lintian --fail-on error,warning --display-info --pedantic "$changes" >"$work/lintian" 2>&1 || rc=$?
okif \
	"lintian: no error or warning ($(grep -c '^[EWIP]:' "$work/lintian" || true) info and pedantic tags)" \
	"$(cat "$work/lintian")" test "$rc" = 0
grep '^[IP]:' "$work/lintian" | sed 's/^/# lintian /' || true

# 3. contents and relations
# the listing is read once, and not through "| grep -q", which under
# pipefail fails when the writer dies of SIGPIPE
has_files() {
	local deb=$1 missing="" f list
	shift
	list=$(dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|')
	for f in "$@"; do
		grep -qxF -- "$f" <<<"$list" || missing+="$f "
	done
	okif "$(basename "$deb") has $*" "missing: $missing" test -z "$missing"
}
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
has_files "${debs[0]}" /usr/sbin/reclaimctl /lib/systemd/system/reclaimctl-autotune.service \
	/lib/systemd/system/reclaimctl-adaptive.service /lib/systemd/system/reclaimctl-textfile.service \
	/lib/systemd/system/reclaimctl-textfile.timer /lib/systemd/system/reclaimctl-latency.service \
	/usr/lib/systemd/catalog/reclaimctl.catalog \
	/usr/share/reclaimctl/prometheus/reclaimctl.rules.yml /usr/share/reclaimctl/prometheus/tests.yml \
	/usr/share/reclaimctl/grafana/reclaimctl.json \
	/usr/lib/reclaimctl/presets/balanced.preset \
	/usr/share/man/man8/reclaimctl.8.gz /usr/share/man/man5/reclaimctl.conf.5.gz \
	/usr/share/bash-completion/completions/reclaimctl /usr/share/zsh/vendor-completions/_reclaimctl \
	/usr/share/fish/vendor_completions.d/reclaimctl.fish \
	/usr/share/doc/reclaimctl/examples/reclaimctl.conf /usr/share/doc/reclaimctl/README.Debian
has_files "${debs[1]}" "/usr/lib/$ma/libreclaim.so.1"
has_files "${debs[2]}" /usr/include/reclaim.h "/usr/lib/$ma/libreclaim.so" \
	"/usr/lib/$ma/pkgconfig/libreclaim.pc" /usr/share/man/man3/libreclaim.3.gz
dep=$(dpkg-deb -f "${debs[0]}" Depends)
okif "reclaimctl depends on libreclaim1 (>= $version), from the symbols file" "$dep" \
	grep -qF "libreclaim1 (>= $version)" <<<"$dep"
dep=$(dpkg-deb -f "${debs[2]}" Depends)
okif "libreclaim-dev depends on libreclaim1 (= $version) alone" "$dep" \
	test "$dep" = "libreclaim1 (= $version)"
dpkg-deb --ctrl-tarfile "${debs[1]}" | tar -xO ./symbols >"$work/symbols"
syms=$(grep -c '^ reclaim_' "$work/symbols" || true)
exported=$(dpkg-deb --fsys-tarfile "${debs[1]}" | tar -xO "./usr/lib/$ma/libreclaim.so.1.0.0" >"$work/lib.so" &&
	nm -D --defined-only "$work/lib.so" | grep -c ' T reclaim_' || true)
okif "libreclaim1's symbols file lists the $exported exported functions" "symbols file: $syms" \
	test "$syms" = "$exported"

# 4. install test: a scratch root from a cached base
cache=${RECLAIMCTL_VM_CACHE:-/var/cache/reclaimctl-vm}
# the base holds what the tests of debian/tests/control need, but nothing
# of ours and none of our build dependencies
test_deps=$(awk -F: 'tolower($1) == "depends" { print $2 }' "$srcdir/debian/tests/control" |
	tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -vE '^(@|reclaimctl|libreclaim)' | sort -u | paste -sd,)
recipe=(--mode=root --format=tar --variant=apt --include="$test_deps"
	--skip=cleanup/apt/lists --aptopt='Acquire::Languages "none"'
	--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/locale/*')
# a base made by another recipe (an older version of this script) is not used
key=$(printf '%s\n' "$codename" "$arch" "${recipe[@]}" | sha256sum | cut -c1-16)
base=$cache/deb-root-$key.tar
mkdir -p "$cache"
if [[ ! -s $base ]]; then
	mapfile -t mirrors < <(apt_sources "$codename")
	t=$SECONDS
	# a name of this run's own: another build tree's package.deb may be
	# making the same base meanwhile; the one mv after the other is harmless
	tmp_base=$base.tmp.$$
	mmdebstrap_clean "${recipe[@]}" "$codename" "$tmp_base" "${mirrors[@]}" >"$work/mmdebstrap.log" 2>&1 || {
		rm -f "$tmp_base"
		bail "mmdebstrap $codename ($test_deps)" "$work/mmdebstrap.log"
	}
	mv "$tmp_base" "$base"
	echo "# made the install test's base root in $((SECONDS - t)) s: $base"
	# the older bases
	find "$cache" -maxdepth 1 -name 'deb-root-*.tar' ! -name "${base##*/}" -delete
fi
mkdir -p "$root"
tar -xf "$base" -C "$root"
# the machine's /proc and /sys, for reclaimctl; mmdebstrap made /dev's nodes
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 "$@"; }

mkdir -p "$root/tmp/debs"
cp "${debs[@]}" "$root/tmp/debs/"
in_root apt-get install -y --no-install-recommends /tmp/debs/reclaimctl_"$version"_"$arch".deb \
	/tmp/debs/libreclaim1_"$version"_"$arch".deb /tmp/debs/libreclaim-dev_"$version"_"$arch".deb \
	>"$work/install.log" 2>&1 || bail "apt-get install ./*.deb" "$work/install.log"
result ok "apt-get install ./*.deb in a scratch $codename root"
# only what the packages depend on came with them: no other -dev package
if in_root dpkg-query -W -f='${Status}' libmount-dev 2>/dev/null | grep -q 'ok installed'; then
	result fail "libmount-dev was not installed"
else
	result ok "libmount-dev, libnl-3-dev, libnl-genl-3-dev were not installed"
fi
# no unit is enabled on installation (README.Debian)
enabled=$(find "$root/etc/systemd/system" -name 'reclaimctl-*' 2>/dev/null || true)
okif "the units are not enabled on installation" "$enabled" test -z "$enabled"

# the tests of debian/tests/control, as autopkgtest runs them
mkdir -p "$root/tmp/debian-tests"
cp "$srcdir"/debian/tests/* "$root/tmp/debian-tests/"
for name in $(awk -F': *' 'tolower($1) == "tests" { print $2 }' "$srcdir/debian/tests/control"); do
	tmp=/tmp/autopkgtest.$name
	mkdir -p "$root$tmp"
	# a passing test's log is not shown: CI shows a window of the output,
	# which the failure must be in
	if in_root env AUTOPKGTEST_TMP="$tmp" "/tmp/debian-tests/$name" >"$work/test-$name.log" 2>&1; then
		result ok "debian/tests/$name ($(wc -l <"$work/test-$name.log") lines of output)"
	else
		result fail "debian/tests/$name" "$(tail -n 30 "$work/test-$name.log")"
	fi
done

# purge: nothing of the packages is left but the directories others own
in_root apt-get purge -y reclaimctl libreclaim1 libreclaim-dev >"$work/purge.log" 2>&1 ||
	bail "apt-get purge" "$work/purge.log"
left=""
for f in /usr/sbin/reclaimctl "/usr/lib/$ma/libreclaim.so.1" /usr/lib/reclaimctl \
	/lib/systemd/system/reclaimctl-autotune.service /usr/share/doc/reclaimctl \
	/var/lib/systemd/deb-systemd-helper-enabled/reclaimctl-autotune.service.dsh-also; do
	[[ -e $root$f ]] && left+="$f "
done
okif "apt-get purge leaves none of the packages' files" "left: $left" test -z "$left"

echo "1..$n"
[ "$failed" = 0 ]
