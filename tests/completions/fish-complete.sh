#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fish-complete.sh - print what fish completes for a command line.
#
# Usage: fish-complete.sh COMPLETION_FILE 'reclaimctl set th'
#
# Loads COMPLETION_FILE into a fish without configuration and prints the
# candidates of 'complete -C LINE' (fish's own completion query), without
# their descriptions, one a line, sorted.  Exits 2 when fish failed.

set -eu

file=${1:?usage: fish-complete.sh COMPLETION_FILE LINE}
line=${2?usage: fish-complete.sh COMPLETION_FILE LINE}

# $argv is fish's, not expanded here.
# shellcheck disable=SC2016
out=$(fish --no-config -c 'source $argv[1]; or exit 2; complete -C $argv[2]' "$file" "$line") ||
	{ echo "fish-complete: fish failed on '$line'" >&2; exit 2; }
[ -z "$out" ] || printf '%s\n' "$out" | cut -f1 | sort -u
