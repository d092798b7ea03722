# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# TAP output for the shell checks: source it, call result for each check,
# then print the plan with "echo 1..$n" and exit with [ "$failed" = 0 ].

n=0
failed=0

# result ok|fail DESCRIPTION [DETAIL]: DETAIL (may be several lines) is
# printed as TAP diagnostics under a failure.
result() {
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/#   /'
	fi
	return 0
}

# okif DESCRIPTION DETAIL CMD...: ok if CMD succeeds, else DETAIL shown
okif() {
	local desc=$1 detail=$2
	shift 2
	if "$@"; then result ok "$desc"; else result fail "$desc" "$detail"; fi
}
