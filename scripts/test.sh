#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs what is missing, builds with -Werror and runs every test: unit,
# CLI on fixture roots, completions, man pages, the packages, the Ansible
# module under ansible-playbook and the patched kernel in QEMU (build-test/,
# gcc); then the unit and CLI tests again built with clang under
# AddressSanitizer and UndefinedBehaviorSanitizer, and each fuzz target for
# RECLAIM_FUZZ_SECONDS (build-san/). Arguments go to both ctest runs.
#
# Each build directory is this script's own, configured with every option
# it needs: what scripts/status.sh or a cmake of one's own left in build/
# changes nothing here. A run that selects no test fails. It ends with the
# time each label took and the slowest tests of both builds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
# The tests run on the tools deps.sh installs from Debian: a shim earlier in
# PATH (pyenv's python3 costs a third of a second a call, and hundreds of
# tests call it) neither slows them nor lacks Debian's Python modules.
export PATH=/usr/bin:/bin:$PATH

gcc_dir=build-test
san_dir=build-san
python=$(command -v python3)
gcc_opts=(-DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRECLAIM_WERROR=ON
	-DPython3_EXECUTABLE="$python" -DBUILD_TESTING=ON -DRECLAIM_VM_TESTS=ON -DRECLAIM_SANITIZE=OFF -DRECLAIM_FUZZ=OFF)
san_opts=(-DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRECLAIM_WERROR=ON
	-DPython3_EXECUTABLE="$python" -DBUILD_TESTING=ON -DRECLAIM_VM_TESTS=OFF -DRECLAIM_FUZZ=ON)
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
configure "$san_dir" "${san_opts[@]}" -- -DRECLAIM_FUZZ_SECONDS="${RECLAIM_FUZZ_SECONDS:-10}"
n_gcc=$(selected "$gcc_dir" "$@")
n_san=$(selected "$san_dir" "${san_select[@]}" "$@")
if [[ ${n_gcc:-0} == 0 && ${n_san:-0} == 0 ]]; then
	echo "test.sh: no test matches ${*:-(no arguments)}" >&2
	exit 1
fi

rc=0
runs=()
# run DIR ARGS...: build DIR and run its selected tests, timed
run() {
	local dir=$1
	shift
	cmake --build "$dir" -j"$(nproc)"
	ctest --test-dir "$dir" --output-on-failure --no-tests=error -j"$(nproc)" \
		--output-junit junit.xml "$@" || rc=$?
	runs+=("$dir")
}

if ((n_gcc > 0)); then
	run "$gcc_dir" "$@"
else
	echo "test.sh: no test of $gcc_dir (gcc) matches $*: only $san_dir runs"
fi

# Any sanitizer report ends the program with its own status (a leak too),
# which no test expects.
export ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=exitcode=98
if ((n_san > 0)); then
	run "$san_dir" "${san_select[@]}" "$@"
	# The executions and coverage each fuzz target reached.
	grep -h '^fuzz [a-z-]*: [0-9]' "$san_dir/Testing/Temporary/LastTest.log" || true
else
	echo "test.sh: no test of $san_dir (sanitizers) matches $*: only $gcc_dir ran"
fi

scripts/test-times.py --total $((SECONDS - start)) "${runs[@]}" || true
exit "$rc"
