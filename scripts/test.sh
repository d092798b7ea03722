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
# The real-kernel tests have a ctest directory of their own (its Testing/
# too), so that they run beside the other gcc tests, not among them.
vm_dir=$gcc_dir/tests/vm
gcc_select=(-LE '^vm$')
n_vm=0
[[ -e $vm_dir/CTestTestfile.cmake ]] && n_vm=$(selected "$vm_dir" "$@")
n_gcc=$(selected "$gcc_dir" "${gcc_select[@]}" "$@")
n_san=$(selected "$san_dir" "${san_select[@]}" "$@")
if [[ ${n_vm:-0} == 0 && ${n_gcc:-0} == 0 && ${n_san:-0} == 0 ]]; then
	echo "test.sh: no test matches ${*:-(no arguments)}" >&2
	exit 1
fi

rc=0
runs=()
# tests DIR ARGS...: run DIR's selected tests
tests() {
	local dir=$1
	shift
	ctest --test-dir "$dir" --output-on-failure --no-tests=error -j"$(nproc)" \
		--output-junit junit.xml "$@"
}

# The kernel build and then the QEMU scenarios, one at a time, are the
# longest path of the run, and a scenario slowed by the host's load is one
# that may fail by its timing: they run at the usual priority, the other
# gcc tests beside them at nice 10, the sanitizer build and its tests at
# nice 19, both taking the CPU time that path leaves. Their output follows
# the real-kernel tests'. Any sanitizer report ends the program with its
# own status (a leak too), which no test expects.
pids=() names=() logs=()
# shellcheck disable=SC2317 # run by the trap
kill_jobs() {
	local pid
	for pid in "${pids[@]}"; do
		kill -- -"$pid" 2>/dev/null || true
	done
}
trap kill_jobs EXIT
# background NAME NICE LOG COMMAND...: COMMAND at nice NICE in a session of
# its own, to be killed whole if this script ends first. Where the
# scheduler groups a session's processes (autogroup), the group gets the
# nice too, or it would have an equal share of the CPU whatever its
# processes' nice. (Job control would make a process group without a
# session, but bash then keeps a descriptor 10 open that every test would
# inherit, and mmdebstrap's "cat >&11" fails in dash.)
background() {
	local name=$1 nice=$2 log=$3
	shift 3
	mkdir -p "$(dirname "$log")"
	setsid nice -n "$nice" bash -c "echo $nice >/proc/self/autogroup 2>/dev/null || true
		set -euo pipefail; $(declare -f tests); $*" >"$log" 2>&1 &
	pids+=($!)
	names+=("$name")
	logs+=("$log")
	echo "test.sh: $name runs in the background at nice $nice; its output follows"
}

if ((n_san > 0)); then
	background "$san_dir (clang, sanitizers)" 19 "$san_dir/test-sh.log" \
		"export ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:exitcode=99" \
		"UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 LSAN_OPTIONS=exitcode=98;" \
		"cmake --build $san_dir -j$(nproc) && tests $san_dir ${san_select[*]@Q} ${*@Q}"
	runs+=("$san_dir")
fi
if ((n_vm + n_gcc > 0)); then
	cmake --build "$gcc_dir" -j"$(nproc)" || rc=$?
fi
if ((rc == 0 && n_gcc > 0)); then
	background "$gcc_dir (gcc, all but the real-kernel tests)" 10 "$gcc_dir/test-sh.log" \
		"tests $gcc_dir ${gcc_select[*]@Q} ${*@Q}"
	runs=("$gcc_dir" "${runs[@]}")
fi
if ((rc == 0 && n_vm > 0)); then
	tests "$vm_dir" "$@" || rc=$?
	runs=("$vm_dir" "${runs[@]}")
fi

for i in "${!pids[@]}"; do
	job_rc=0
	wait "${pids[i]}" || job_rc=$?
	echo
	echo "test.sh: the output of ${names[i]}:"
	cat "${logs[i]}"
	((job_rc == 0)) || rc=$job_rc
done
pids=()
if ((n_san > 0)); then
	# The executions and coverage each fuzz target reached.
	grep -h '^fuzz [a-z-]*: [0-9]' "$san_dir/Testing/Temporary/LastTest.log" || true
fi

scripts/test-times.py --total $((SECONDS - start)) "${runs[@]}" || true
exit "$rc"
