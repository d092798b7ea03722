#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-readme-commands.sh SRCDIR: the README's two commands, in its order,
# on a fresh copy of SRCDIR's files (those git knows, uncommitted changes
# included; no build directory):
#  1. scripts/status.sh builds build/ without tests and prints the status;
#  2. scripts/test.sh -R '^(unit\.cpuset|cli\.version)$' after it still runs
#     those tests (status.sh's build/ with BUILD_TESTING=OFF hides nothing):
#     the unit test in the gcc build and in the sanitizer build, the CLI
#     test in the sanitizer build alone;
#  3. scripts/test.sh -R '^no-such-test$' fails, with one line saying so,
#     before building anything.
# Prints TAP. Exit status 0 all passed, 1 a check failed.
set -euo pipefail
srcdir=$(readlink -f "$1")
here=$(dirname "$(readlink -f "$0")")
# shellcheck source=SCRIPTDIR/tap.sh
. "$here/tap.sh"
# shellcheck source=SCRIPTDIR/package/source-files.sh
. "$here/package/source-files.sh"

work=$(mktemp -d /var/tmp/reclaimctl-readme.XXXXXX)
trap 'rm -rf "$work"' EXIT
tree=$work/reclaimctl
mkdir -p "$tree"
source_files "$srcdir" >"$work/files"
tar -cf - -C "$srcdir" --no-recursion --null -T "$work/files" | tar -x -C "$tree"
result ok "a copy of the tree ($SOURCE_FROM) with no build directory: $(compgen -G "$tree/build*" || echo none)"

# ran_in DIR TEST: the last ctest run (one, in build-run/, over both builds)
# ran TEST of build directory DIR once, and it passed (its LastTest.log)
ran_in() {
	python3 - "$tree/build-run/Testing/Temporary/LastTest.log" "$tree/$1" "$2" <<'EOF'
import re, sys
log, build, name = sys.argv[1:]
blocks = re.split(r"(?m)^(?=\d+/\d+ Testing: )", open(log).read())
hits = [b for b in blocks if re.match(rf"\d+/\d+ Testing: {re.escape(name)}\n", b)
        and re.search(rf"(?m)^Directory: {re.escape(build)}(/|$)", b)]
sys.exit(0 if len(hits) == 1 and re.search(r"(?m)^Test Passed\.$", hits[0]) else 1)
EOF
}

not() { ! "$@"; }
rc=0
(cd "$tree" && scripts/status.sh) >"$work/status.log" 2>&1 || rc=$?
okif "scripts/status.sh exits 0" "exit $rc: $(tail -n 20 "$work/status.log")" test "$rc" = 0
okif "scripts/status.sh printed the status" "$(tail -n 20 "$work/status.log")" \
	grep -q '^Kernel' "$work/status.log"
cached=$(sed -n 's/^BUILD_TESTING:BOOL=//p' "$tree/build/CMakeCache.txt" 2>/dev/null || true)
okif "status.sh left build/ with BUILD_TESTING=OFF" "BUILD_TESTING=$cached" test "$cached" = OFF

rc=0
(cd "$tree" && scripts/test.sh -R '^(unit\.cpuset|cli\.version)$') >"$work/test.log" 2>&1 || rc=$?
okif "scripts/test.sh -R '^(unit\\.cpuset|cli\\.version)\$' exits 0" "exit $rc: $(tail -n 30 "$work/test.log")" test "$rc" = 0
for dir in build-test build-san; do
	okif "$dir ran unit.cpuset and it passed" "$(tail -n 30 "$work/test.log")" \
		ran_in "$dir" unit.cpuset
done
okif "build-san ran cli.version and it passed" "$(tail -n 30 "$work/test.log")" \
	ran_in build-san cli.version
okif "build-test left cli.version to build-san" "$(tail -n 30 "$work/test.log")" \
	not ran_in build-test cli.version
runs=$(grep -cE 'Test +#[0-9]+: unit\.cpuset \.+ +Passed' "$work/test.log" || true)
okif "the output shows unit.cpuset passed twice" "$runs times" test "$runs" = 2
runs=$(grep -cE 'Test +#[0-9]+: cli\.version \.+ +Passed' "$work/test.log" || true)
okif "the output shows cli.version passed once" "$runs times" test "$runs" = 1
okif "the output ends with the times of both builds" "$(tail -n 30 "$work/test.log")" \
	grep -qzE '== build-test: 1 tests, .*== build-san: 2 tests, ' "$work/test.log"
rc=0
(cd "$tree" && scripts/test.sh -R '^no-such-test$') >"$work/none.out" 2>"$work/none.err" || rc=$?
okif "scripts/test.sh -R '^no-such-test\$' fails" "exit $rc" test "$rc" != 0
okif "... with one line on stderr" "$(cat "$work/none.err")" \
	test "$(cat "$work/none.err")" = "test.sh: no test matches -R ^no-such-test\$"
okif "... and nothing run" "$(cat "$work/none.out")" \
	test -z "$(grep -E 'Test +#' "$work/none.out" || true)"

echo "1..$n"
[ "$failed" = 0 ]
