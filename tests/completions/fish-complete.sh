#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fish-complete.sh - print what fish completes for a command line.
#
# Usage: fish-complete.sh COMPLETION_FILE 'reclaimctl set th'
#        fish-complete.sh --serve COMPLETION_FILE
#
# Loads COMPLETION_FILE into a fish without configuration and prints the
# candidates of 'complete -C LINE' (fish's own completion query), without
# their descriptions, one a line, sorted.  Exits 2 when fish failed.
#
# With --serve, one fish loads the file and reads requests from standard
# input as bash-complete.sh --serve does (the working directory, PATH,
# RECLAIMCTL_PRESET_DIR, "set" or empty, the line), and answers each with
# its candidates, unsorted, and a line of "\037end".

set -eu

if [ "${1:-}" = --serve ]; then
	file=${2:?usage: fish-complete.sh --serve COMPLETION_FILE}
	# $argv is fish's, not expanded here.
	# shellcheck disable=SC2016
	exec fish --no-config -c '
source $argv[1]; or exit 2
while read -l dir; and read -l path; and read -l presets; and read -l presets_set; and read -l line
	cd $dir
	set -gx PATH (string split : -- $path)
	if test -n "$presets_set"
		set -gx RECLAIMCTL_PRESET_DIR $presets
	else
		set -e RECLAIMCTL_PRESET_DIR
	end
	complete -C $line | string split -f1 \t
	printf "\037end\n"
end' "$file"
fi

file=${1:?usage: fish-complete.sh COMPLETION_FILE LINE}
line=${2?usage: fish-complete.sh COMPLETION_FILE LINE}

# $argv is fish's, not expanded here.
# shellcheck disable=SC2016
out=$(fish --no-config -c 'source $argv[1]; or exit 2; complete -C $argv[2]' "$file" "$line") ||
	{ echo "fish-complete: fish failed on '$line'" >&2; exit 2; }
[ -z "$out" ] || printf '%s\n' "$out" | cut -f1 | sort -u
