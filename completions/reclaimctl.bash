# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for reclaimctl(8)
#
# Self-contained: works with or without the bash-completion package.
# To add a command: add it to _reclaimctl_commands, its options to
# _reclaimctl_command_opts and, if its operands complete to something, a case
# in _reclaimctl_operand.

_reclaimctl_commands='status get set threads help'

_reclaimctl_global_opts='--sysroot --json -J --no-color --help -h --version -V'

# Knob names, then aliases (see reclaimctl(8), KNOBS).
_reclaimctl_knobs='kswapd_threads max_direct_reclaimers swap_round_robin_quota_kb
	swappiness watermark_scale_factor watermark_boost_factor min_free_kbytes
	zone_reclaim_mode threads throttle swap-quota'

# Options of command $1.
_reclaimctl_command_opts()
{
	# --sysroot and --no-color are accepted after the command too.
	case $1 in
	status | threads) echo '--json -J --help -h --sysroot --no-color' ;;
	get) echo '--values -n --json -J --help -h --sysroot --no-color' ;;
	set) echo '--dry-run -n --json -J --help -h --sysroot --no-color' ;;
	esac
}

# Candidates for operand number $2 (0-based) of command $1.
_reclaimctl_operand()
{
	case $1 in
	get) echo "$_reclaimctl_knobs" ;;
	set) [ "$2" -eq 0 ] && echo "$_reclaimctl_knobs" ;;
	help) [ "$2" -eq 0 ] && echo "$_reclaimctl_commands" ;;
	esac
}

_reclaimctl_dirs()
{
	compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen -d -- "$1")
}

_reclaimctl()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=''
	local -a words=("${COMP_WORDS[@]}")
	local cword=$COMP_CWORD
	local i w cmd='' cmd_at=0 nops=0 dashdash=0

	COMPREPLY=()
	# "--sysroot=DIR": bash splits at '=' (it is in COMP_WORDBREAKS).
	if [ "$cur" = '=' ] && [ "${words[cword - 1]}" = --sysroot ]; then
		_reclaimctl_dirs ''
		return
	fi
	if [ "$cword" -ge 2 ] && [ "${words[cword - 1]}" = '=' ] &&
		[ "${words[cword - 2]}" = --sysroot ]; then
		_reclaimctl_dirs "$cur"
		return
	fi
	if [[ $cur == --sysroot=* ]]; then
		_reclaimctl_dirs "${cur#--sysroot=}"
		COMPREPLY=("${COMPREPLY[@]/#/--sysroot=}")
		return
	fi
	[ "$cword" -ge 1 ] && prev=${words[cword - 1]}

	# Find the command: the first word that is neither a global option nor
	# the argument of --sysroot.
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		case $w in
		--sysroot)
			((i++))
			[ "${words[i]}" = '=' ] && ((i++))
			;;
		-*) ;;
		=) ;;
		*)
			cmd=$w
			cmd_at=$i
			break
			;;
		esac
	done

	if [ -z "$cmd" ]; then
		if [ "$prev" = --sysroot ]; then
			_reclaimctl_dirs "$cur"
		elif [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$_reclaimctl_global_opts" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$_reclaimctl_commands" -- "$cur")
		fi
		return
	fi

	if [ "$prev" = --sysroot ]; then
		_reclaimctl_dirs "$cur"
		return
	fi
	# Count the command's operands before the cursor. A word like "-1" is
	# an operand (set throttle -1 reaches the range check), as in reclaimctl.
	for ((i = cmd_at + 1; i < cword; i++)); do
		w=${words[i]}
		if [ $dashdash -eq 0 ] && [ "$w" = -- ]; then
			dashdash=1
		elif [ $dashdash -eq 0 ] && [ "$w" = --sysroot ]; then
			((i++))
			[ "${words[i]}" = '=' ] && ((i++))
		elif [ $dashdash -eq 0 ] && [[ $w == -[!0-9]* ]]; then
			:
		else
			((nops++))
		fi
	done
	if [ $dashdash -eq 0 ] && [[ $cur == -* ]] && [[ $cur != -[0-9]* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_reclaimctl_command_opts "$cmd")" -- "$cur")
		return
	fi
	mapfile -t COMPREPLY < <(compgen -W "$(_reclaimctl_operand "$cmd" "$nops")" -- "$cur")
}

complete -F _reclaimctl reclaimctl
