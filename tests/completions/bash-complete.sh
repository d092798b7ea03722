#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bash-complete.sh - print what bash completes for a command line.
#
# Usage: bash-complete.sh [--bash-completion] COMPLETION_FILE 'reclaimctl set th'
#
# Sources COMPLETION_FILE in a bash without start-up files (first the
# bash-completion package's bash_completion with --bash-completion), splits
# the line into COMP_WORDS as readline does (also at '=', which is in the
# default COMP_WORDBREAKS), calls the function registered for reclaimctl
# with the cursor at the end of the line, and prints COMPREPLY, one a line,
# sorted.  Exits 2 when the completion could not be loaded.

set -u

with_bc=0
if [ "${1:-}" = --bash-completion ]; then
	with_bc=1
	shift
fi
file=${1:?usage: bash-complete.sh [--bash-completion] COMPLETION_FILE LINE}
line=${2?usage: bash-complete.sh [--bash-completion] COMPLETION_FILE LINE}
bc=${BASH_COMPLETION_SCRIPT:-/usr/share/bash-completion/bash_completion}

if [ $with_bc -eq 1 ]; then
	# bash_completion does nothing unless the shell looks interactive.
	PS1='$ '
	# shellcheck disable=SC1090
	. "$bc" || { echo "bash-complete: cannot source $bc" >&2; exit 2; }
fi
# shellcheck disable=SC1090
. "$file" || { echo "bash-complete: cannot source $file" >&2; exit 2; }
func=$(complete -p reclaimctl 2>/dev/null | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
[ -n "$func" ] || { echo "bash-complete: $file registers no function for reclaimctl" >&2; exit 2; }

read -ra COMP_WORDS <<<"${line//=/ = }"
[[ $line == *' ' || -z $line ]] && COMP_WORDS+=('')
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE=$line
COMP_POINT=${#line}
COMPREPLY=()
"$func" reclaimctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
[ ${#COMPREPLY[@]} -gt 0 ] && printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort -u
exit 0
