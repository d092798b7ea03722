# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# TAP output for the shell checks of tests/cli/, sourced:
#   result ok|fail DESCRIPTION   one numbered line
#   tap_end [NAME]               the plan, with NAME a summary line; returns
#                                non-zero if a check failed
n=0 failed=0
result() {
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
tap_end() {
	echo "1..$n"
	[ -z "${1:-}" ] || echo "# $1: $n checks, $failed failed"
	[ "$failed" = 0 ]
}
