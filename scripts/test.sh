#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs what is missing, builds with -Werror and runs every test: unit,
# completions, man pages, the packages, the Ansible module under
# ansible-playbook and the patched kernel in QEMU (build-test/, gcc); the
# unit tests again and the CLI tests on fixture roots built with clang under
# AddressSanitizer and UndefinedBehaviorSanitizer, and each fuzz target for
# RECLAIM_FUZZ_SECONDS (build-san/); of the CLI tests the gcc build runs
# those the other runs in part or not at all (below). Arguments select
# tests in both builds.
#
# Each build directory is this script's own, configured with every option
# it needs: what scripts/status.sh or a cmake of one's own left in build/
# changes nothing here. Both builds are made first, then one ctest runs the
# tests of both (build-run/), so that the host tests of either fill the
# CPUs while the kernel scenarios, one QEMU at a time (two of those that
# share), run. A run that
# selects no test fails. It ends with the time each label took and the
# slowest tests of each build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
# The tests run on the tools deps.sh installs from Debian: a shim earlier in
# PATH (pyenv's python3 costs a third of a second a call, and hundreds of
# tests call it) neither slows them nor lacks Debian's Python modules.
export PATH=/usr/bin:/bin:$PATH
# Both builds compile through ccache, with paths taken relative to this tree
# and the working directory left out of the hash: the test of the README's
# commands (scripts.readme-commands) builds a copy of the tree in both ways
# again, and finds every object already made. A directory of the caller's
# own (CCACHE_DIR) is kept; a nested run shares the outer run's. In depend
# mode ccache hashes what the compiler's own dependency file lists instead
# of running the preprocessor first: a cold build takes a quarter less CPU
# time (85 and 65 CPU-seconds for the gcc build), a warm one the same.
export CCACHE_DIR=${CCACHE_DIR:-$PWD/build-ccache} CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1

gcc_dir=build-test
san_dir=build-san
python=$(command -v python3)
gcc_opts=(-DCMAKE_C_COMPILER=gcc -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_BUILD_TYPE=RelWithDebInfo
	-DRECLAIM_WERROR=ON -DPython3_EXECUTABLE="$python" -DBUILD_TESTING=ON -DRECLAIM_VM_TESTS=ON -DRECLAIM_SANITIZE=OFF -DRECLAIM_FUZZ=OFF)
san_opts=(-DCMAKE_C_COMPILER=clang -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_BUILD_TYPE=RelWithDebInfo
	-DRECLAIM_WERROR=ON -DPython3_EXECUTABLE="$python" -DBUILD_TESTING=ON -DRECLAIM_VM_TESTS=OFF -DRECLAIM_FUZZ=ON)
# Chromium renders the same pages in the first run: not again.
san_select=(-L 'unit|cli|fuzz' -LE browser)

# configure DIR OPTIONS... [-- MORE...]: a cache this script did not write
# with these OPTIONS (another compiler, BUILD_TESTING=OFF, a user's own
# settings) is started afresh rather than trusted; MORE may change freely.
configure() {
	local dir=$1 stamp want=() more=()
	shift
	while (($#)) && [[ $1 != -- ]]; do
		want+=("$1")
		shift
	done
	(($#)) && shift && more=("$@")
	stamp=$dir/.reclaimctl-test-options
	if [[ -e $dir/CMakeCache.txt && "$(cat "$stamp" 2>/dev/null)" != "$(printf '%s\n' "${want[@]}")" ]]; then
		echo "test.sh: $dir was configured otherwise: configuring it afresh"
		rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
	fi
	cmake -S . -B "$dir" "${want[@]}" "${more[@]}" >/dev/null
	printf '%s\n' "${want[@]}" >"$stamp"
}

# selected DIR ARGS...: how many tests ctest would run
selected() {
	local dir=$1
	shift
	ctest --test-dir "$dir" -N "$@" | sed -n 's/^Total Tests: \([0-9]*\)$/\1/p'
}

start=$SECONDS
configure "$gcc_dir" "${gcc_opts[@]}"
configure "$san_dir" "${san_opts[@]}" -- -DRECLAIM_FUZZ_SECONDS="${RECLAIM_FUZZ_SECONDS:-5}"

# One ctest over both builds: build-run/ includes them, and the tests each
# selects go to it by number (the numbers of build-test come first; ctest
# would take the numbers -I gives as positions among what -R, -L ... chose,
# so the run itself gets the numbers alone).
run_dir=build-run
mkdir -p "$run_dir"
printf 'subdirs("%s")\n' "$PWD/$gcc_dir" "$PWD/$san_dir" >"$run_dir/CTestTestfile.cmake"
n_first=$(selected "$gcc_dir")
# listed ARGS...: "NUMBER NAME" of each test ctest would run in build-run
listed() {
	ctest --test-dir "$run_dir" -N "$@" | sed -n 's/^ *Test *#\([0-9]*\): \(.*\)$/\1 \2/p'
}
# The CLI tests are the sanitizer build's: it runs the same ones, on the
# same fixtures, and any report fails them there too. The gcc build runs
# of them only those labelled gcc-too (tests/CMakeLists.txt): the ones the
# other runs in part or not at all, and cli.sampling, which makes the pages
# its browser tests render (their fixture does not bring it in: ctest takes
# the other build's test of the same name for it). Its other tests run in
# both builds, or in it alone.
gcc_numbers() {
	local san_cli also
	san_cli=$(listed "${san_select[@]}" -L '^cli$' "$@" | awk -v n="$n_first" '$1 > n { print $2 }')
	also=$(listed -L '^gcc-too$' "$@" | awk -v n="$n_first" '$1 <= n { print $2 }')
	listed "$@" | SAN_CLI=$san_cli ALSO=$also awk -v n="$n_first" '
		function set(var, arr,   k, i, names) {
			k = split(ENVIRON[var], names, "\n")
			for (i = 1; i <= k; i++) arr[names[i]] = 1
		}
		BEGIN { set("SAN_CLI", san); set("ALSO", also) }
		$1 <= n && (!($2 in san) || $2 in also) { print $1 }'
}
san_numbers() {
	listed "${san_select[@]}" "$@" | awk -v n="$n_first" '$1 > n { print $1 }'
}
gcc_tests=$(gcc_numbers "$@")
san_tests=$(san_numbers "$@")
n_gcc=$(grep -c . <<<"$gcc_tests" || true)
n_san=$(grep -c . <<<"$san_tests" || true)
if [[ ${n_gcc:-0} == 0 && ${n_san:-0} == 0 ]]; then
	echo "test.sh: no test matches ${*:-(no arguments)}" >&2
	exit 1
fi
# shellcheck disable=SC2086 # one number a word
echo "0,0,0$(printf ',%s' $gcc_tests $san_tests)" >"$run_dir/selected"
# what the run will be, for scripts/test-times.py afterwards (and for the
# kernel, below)
ctest --test-dir "$run_dir" --show-only=json-v1 -I "$PWD/$run_dir/selected" >"$run_dir/selected.json"
# The kernel of the VM tests is the longest path of a cold run, and all
# that follows it is the scenarios one at a time: it starts now, before the
# two builds, ahead of them (nice -5 as root), and vm.kernel, which waits
# for the cache's lock, finds it built (or builds it again, and fails the
# same way, if this failed; its output is in build-run/kernel.log). It is
# a process group of its own, and whatever ends this script ends all of it
# (make and the compilers too); the cache keeps only finished builds.
if grep -qE '"name" *: *"vm\.kernel"' "$run_dir/selected.json"; then
	setsid nice -n "$(((EUID == 0) ? -5 : 0))" tests/vm/build-kernel.sh >"$run_dir/kernel.log" 2>&1 &
	kernel_pid=$!
	trap 'kill -TERM -- "-$kernel_pid" 2>/dev/null || true' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
fi

# Both builds first: the tests of the first may build the tree again
# (scripts.readme-commands), from the cache.
if ((n_gcc > 0)); then cmake --build "$gcc_dir" -j"$(nproc)"; fi
if ((n_san > 0)); then cmake --build "$san_dir" -j"$(nproc)"; fi

# Any sanitizer report ends the program with its own status (a leak too:
# tests/CMakeLists.txt names the tests that skip the leak scan),
# which no test expects.
export ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=exitcode=98
rc=0
ctest --test-dir "$run_dir" --output-on-failure --no-tests=error -j"$(nproc)" \
	--output-junit junit.xml -I "$PWD/$run_dir/selected" || rc=$?
# The executions and coverage each fuzz target reached.
grep -h '^fuzz [a-z-]*: [0-9]' "$run_dir/Testing/Temporary/LastTest.log" || true

scripts/test-times.py --total $((SECONDS - start)) "$run_dir" || true
exit "$rc"
