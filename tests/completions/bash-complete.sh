#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bash-complete.sh - print what bash completes for a command line.
#
# Usage: bash-complete.sh [--bash-completion] COMPLETION_FILE 'reclaimctl set th'
#        bash-complete.sh [--bash-completion] --serve COMPLETION_FILE
#
# Sources COMPLETION_FILE in a bash without start-up files (first the
# bash-completion package's bash_completion with --bash-completion), splits
# the line into COMP_WORDS as readline does (also at '=', which is in the
# default COMP_WORDBREAKS), calls the function registered for reclaimctl
# with the cursor at the end of the line, and prints COMPREPLY, one a line,
# sorted.  Exits 2 when the completion could not be loaded.
#
# With --serve, the files are sourced once and requests are read from
# standard input, five lines each: the working directory, PATH,
# RECLAIMCTL_PRESET_DIR, "set" if that is set (else empty), and the command
# line. Each is completed in a subshell of its own, so that nothing one
# completion leaves behind reaches the next; the candidates, one a line and
# unsorted, are followed by a line of "\037end".

set -u

with_bc=0 serve=0
while :; do
	case ${1:-} in
	--bash-completion) with_bc=1 ;;
	--serve) serve=1 ;;
	*) break ;;
	esac
	shift
done
file=${1:?usage: bash-complete.sh [--bash-completion] [--serve] COMPLETION_FILE [LINE]}
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

# complete_line LINE: COMPREPLY, one a line
complete_line() {
	local line=$1
	read -ra COMP_WORDS <<<"${line//=/ = }"
	[[ $line == *' ' || -z $line ]] && COMP_WORDS+=('')
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	"$func" reclaimctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}"
}

if [ $serve -eq 0 ]; then
	line=${2?usage: bash-complete.sh [--bash-completion] COMPLETION_FILE LINE}
	complete_line "$line" | sed '/^$/d' | sort -u
	exit 0
fi
while IFS= read -r dir && IFS= read -r path && IFS= read -r presets && IFS= read -r presets_set &&
	IFS= read -r line; do
	(
		cd "$dir" || exit
		PATH=$path
		if [ -n "$presets_set" ]; then export RECLAIMCTL_PRESET_DIR=$presets; else unset RECLAIMCTL_PRESET_DIR; fi
		complete_line "$line"
	)
	printf '\037end\n'
done
