#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sweep-repro.sh - the published reclaim experiments, reproduced with
# reclaimctl sweep in the test kernel under QEMU (see bench/README.md).
#
# Usage: bench/sweep-repro.sh [-b BUILD] [-o LOGDIR] [NAME...]
#   NAME     throttle, threads (bench/vm/sweep-NAME.sh) or swap-rings (the
#            VM test tests/vm/scenarios/sweep-swap-rings.sh); default: all
#   -b BUILD the CMake build directory (default: build)
#   -o DIR   where the consoles go (default: bench-logs)
# Environment: SWEEP_REPEAT is not passed into the guest; edit the scenario.
# Prints, per experiment, the sweep's summary.csv (or the table of the
# devices' shares) from the guest's console.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=build
logdir=bench-logs
while getopts b:o:h opt; do
	case $opt in
	b) build=$OPTARG ;;
	o) logdir=$OPTARG ;;
	h)
		sed -n '4,14s/^# \{0,1\}//p' "$0"
		exit 0
		;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
(($#)) || set -- swap-rings throttle threads
for name in "$@"; do
	case $name in
	swap-rings) script=$here/../tests/vm/scenarios/sweep-swap-rings.sh ;;
	throttle | threads) script=$here/vm/sweep-$name.sh ;;
	*)
		echo "sweep-repro.sh: unknown experiment '$name'" >&2
		exit 2
		;;
	esac
	echo "== $name"
	"$here/../tests/vm/run-scenario.sh" --build-dir "$build" --log-dir "$logdir" "$script" || true
	log=$logdir/$(basename "$script" .sh).log
	if grep -q SUMMARY-CSV-BEGIN "$log"; then
		sed -n '/SUMMARY-CSV-BEGIN/,/SUMMARY-CSV-END/p' "$log" | sed '1d;$d' | tr -d '\r'
	else
		sed -n '/^QUOTA /,/FIGURES/p' "$log" | tr -d '\r'
	fi
done
