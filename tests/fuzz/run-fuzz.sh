#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs one libFuzzer target for a fixed time on its seeds (seeds.py) and
# what earlier runs in this build directory found, then prints one line:
#   fuzz NAME: N executions in S s, coverage C edges (F features), corpus K inputs
# A crash, leak, timeout (10 s for one input) or broken invariant fails,
# with libFuzzer's report and the input saved under WORK/artifacts.
#
# usage: run-fuzz.sh BINARY NAME FIXTURES_DIR WORK_DIR SECONDS
set -euo pipefail
bin=$1 name=$2 fixtures=$3 work=$4 secs=$5
here=$(dirname "$0")

mkdir -p "$work/corpus" "$work/artifacts" "$work/tmp"
rm -rf "$work/seeds" "$work/tmp"/*
python3 "$here/seeds.py" "$name" "$fixtures" "$work/seeds" >/dev/null

# Standard output is closed (-close_fd_mask=1): the command line prints there.
# Its messages on standard error are silenced by the targets themselves
# (fuzz_quiet_begin()); reports and broken invariants go to the log.
set +e
TMPDIR=$work/tmp "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-close_fd_mask=1 -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
	"$work/corpus" "$work/seeds" >"$work/log" 2>&1
rc=$?
set -e

execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
last=$(grep -E '^#[0-9]+.*cov: ' "$work/log" | tail -1 || true)
cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
if [ "$rc" -ne 0 ] || [ -z "$execs" ]; then
	echo "fuzz $name: failed (exit status $rc); the log:" >&2
	grep -v '^#[0-9]' "$work/log" | tail -60 >&2
	ls "$work/artifacts" >&2
	exit 1
fi
echo "fuzz $name: $execs executions in $secs s, coverage ${cov:-?} edges (${ft:-?} features), corpus ${corp:-?} inputs"
