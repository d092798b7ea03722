#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs what is missing, builds with -Werror and runs every test: unit,
# CLI on fixture roots, completions, man pages, the Ansible module under
# ansible-playbook and the patched kernel in QEMU
# (build/, gcc); then the unit and CLI tests again built with clang under
# AddressSanitizer and UndefinedBehaviorSanitizer, and each fuzz target for
# RECLAIM_FUZZ_SECONDS (build-san/). Arguments go to both ctest runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRECLAIM_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)"
rc=0
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@" || rc=$?

# Any sanitizer report ends the program with its own status (a leak too),
# which no test expects.
export ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=exitcode=98
CC=clang cmake -S . -B build-san -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRECLAIM_WERROR=ON \
	-DRECLAIM_FUZZ=ON -DRECLAIM_VM_TESTS=OFF -DRECLAIM_FUZZ_SECONDS="${RECLAIM_FUZZ_SECONDS:-20}" \
	>/dev/null
cmake --build build-san -j"$(nproc)"
# Chromium renders the same pages in the first run: not again.
ctest --test-dir build-san --output-on-failure -j"$(nproc)" -L 'unit|cli|fuzz' -LE browser "$@" ||
	rc=$?
# The executions and coverage each fuzz target reached.
grep -h '^fuzz [a-z-]*: [0-9]' build-san/Testing/Temporary/LastTest.log || true
exit "$rc"
