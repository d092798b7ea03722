# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for reclaimctl(8)
#
# Self-contained: works with or without the bash-completion package.
# To add a command: add it to _reclaimctl_commands, its options to
# _reclaimctl_command_opts and, if its operands complete to something, a case
# in _reclaimctl_operand.

_reclaimctl_commands='status get set threads swap autotune preset restore history check boot adapt monitor stalls record report help'

_reclaimctl_global_opts='--sysroot --json -J --no-color --help -h --version -V'

# Knob names, then aliases (see reclaimctl(8), KNOBS).
_reclaimctl_knobs='kswapd_threads max_direct_reclaimers swap_round_robin_quota_kb
	swappiness watermark_scale_factor watermark_boost_factor min_free_kbytes
	zone_reclaim_mode threads throttle swap-quota'

# The knobs whose VALUE may be "auto" (the value autotune plans).
_reclaimctl_auto_knobs='kswapd_threads vm.kswapd_threads threads
	max_direct_reclaimers vm.max_direct_reclaimers throttle'

# True if option -$1 or --$2 is among the words $3... (short options may be
# clustered: -ea).
_reclaimctl_has_opt()
{
	local short=$1 long=$2 w
	shift 2
	for w in "$@"; do
		[ "$w" = -- ] && return 1
		[ "$w" = "--$long" ] && return 0
		[[ -n $short && $w == -[!-]* && ${w#-} == *"$short"* ]] && return 0
	done
	return 1
}

# Options of command $1; $2 is its first operand (the subcommand), $3... its
# words before the cursor.
_reclaimctl_command_opts()
{
	local cmd=$1 sub=$2
	shift 2
	# --sysroot and --no-color are accepted after the command too.
	case $cmd in
	status) echo '--json -J --prometheus -P --textfile --help -h --sysroot --no-color' ;;
	threads) echo '--json -J --help -h --sysroot --no-color' ;;
	get) echo '--values -n --json -J --help -h --sysroot --no-color' ;;
	set) echo '--dry-run -n --persist -p --force -f --json -J --help -h --sysroot --no-color' ;;
	swap) echo '--persist -p --dry-run -n --json -J --help -h --sysroot --no-color' ;;
	autotune)
		# --persist and --force need --apply (with --dry-run: what --apply
		# would do).
		_reclaimctl_has_opt a apply "$@" && echo '--persist -p --force -f'
		echo '--dry-run -n --apply -a --explain -e --json -J --help -h --sysroot --no-color'
		;;
	monitor) echo '--interval -i --count -c --per-node -N --json -J --help -h --sysroot --no-color' ;;
	stalls) echo '--interval -i --top -n --enable --json -J --help -h --sysroot --no-color' ;;
	record) echo '--output -o --interval -i --duration -d --help -h --sysroot --no-color' ;;
	report) echo '--output -o --help -h --sysroot --no-color' ;;
	check) echo '--json -J --help -h --sysroot --no-color' ;;
	preset)
		# --persist and --force are for preset apply and diff (also before
		# the subcommand: preset -p diff NAME), --dry-run for apply only.
		case $sub in
		apply) echo '--dry-run -n --persist -p --force -f' ;;
		diff | '') echo '--persist -p --force -f' ;;
		esac
		echo '--json -J --help -h --sysroot --no-color'
		;;
	restore) echo '--boot -b --dry-run -n --persist -p --json -J --help -h --sysroot --no-color' ;;
	history) echo '--json -J --help -h --sysroot --no-color' ;;
	boot) echo '--dry-run -n --json -J --help -h --sysroot --no-color' ;;
	adapt)
		# --replay and --reset are modes of their own: the daemon's options
		# do not go with them.
		if _reclaimctl_has_opt '' reset "$@"; then
			echo '--help -h --sysroot --no-color'
			return
		fi
		_reclaimctl_has_opt '' replay "$@" ||
			echo '--dry-run -n --once --keep --force -f --reset'
		echo '--interval -i --min --max --replay --up-cpu --up-direct --up-window --down-cpu'
		echo '--down-direct --down-psi --down-window --cooldown --busy-cpu'
		echo '--json -J --help -h --sysroot --no-color'
		;;
	esac
}

# Candidates for operand number $2 (0-based) of command $1, whose first
# operand is $3.
_reclaimctl_operand()
{
	local k

	case $1 in
	get) echo "$_reclaimctl_knobs" ;;
	set)
		if [ "$2" -eq 0 ]; then
			echo "$_reclaimctl_knobs"
		elif [ "$2" -eq 1 ]; then
			for k in $_reclaimctl_auto_knobs; do
				[ "$3" = "$k" ] && echo auto
			done
		fi
		;;
	help) [ "$2" -eq 0 ] && echo "$_reclaimctl_commands" ;;
	swap) [ "$2" -eq 0 ] && echo 'rings priority' ;;
	preset) [ "$2" -eq 0 ] && echo 'list show diff apply' ;;
	esac
}

# Arguments of options that take one (monitor, stalls, record, report,
# status --textfile); returns 1 if $2 (the previous word) is no such option.
_reclaimctl_option_arg()
{
	local cmd=$1 prev=$2 cur=$3

	case $cmd:$prev in
	status:--textfile) _reclaimctl_dirs "$cur" ;;
	record:-o | record:--output | report:-o | report:--output)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		;;
	adapt:--replay)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -X '!*.jsonl' -- "$cur"; compgen -d -- "$cur")
		;;
	adapt:-i | adapt:--interval | adapt:--min | adapt:--max | adapt:--up-* | adapt:--down-* | \
		adapt:--cooldown | adapt:--busy-cpu) ;;
	monitor:-i | monitor:--interval | monitor:-c | monitor:--count | stalls:-i | \
		stalls:--interval | stalls:-n | stalls:--top | record:-i | record:--interval | \
		record:-d | record:--duration) ;;
	*) return 1 ;;
	esac
	return 0
}

# The active swap devices starting with $2, from /proc/swaps under root $1.
_reclaimctl_swap_devices()
{
	local root=$1 cur=$2 dev rest
	local -a devs=()

	[ -r "$root/proc/swaps" ] || return
	while read -r dev rest; do
		[ "$dev" = Filename ] && continue
		# The kernel escapes " \t\n\\" as \ooo; printf %b wants \0ooo.
		printf -v dev '%b' "${dev//\\/\\0}"
		[[ $dev == "$cur"* ]] && devs+=("$dev")
	done <"$root/proc/swaps"
	compopt -o filenames 2>/dev/null
	COMPREPLY=("${devs[@]}")
}

# The preset names (reclaimctl.preset(5)) starting with $2: the
# administrator's, under root $1, and the shipped ones.
_reclaimctl_presets()
{
	local root=$1 cur=$2 dir f name
	local -a names=()

	for dir in "$root/etc/reclaimctl/presets" "${RECLAIMCTL_PRESET_DIR:-@RECLAIM_PRESET_DIR@}"; do
		for f in "$dir"/*.preset; do
			[ -f "$f" ] || continue
			name=${f##*/}
			name=${name%.preset}
			case $name in
			.* | *[[:space:]]*) continue ;;
			esac
			[[ $name == "$cur"* ]] && names+=("$name")
		done
	done
	mapfile -t COMPREPLY < <(printf '%s\n' "${names[@]}" | sort -u | sed '/^$/d')
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
	local i w cmd='' cmd_at=0 nops=0 dashdash=0 sysroot=''
	local -a ops=()

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
			sysroot=${words[i]}
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
	_reclaimctl_option_arg "$cmd" "$prev" "$cur" && return
	# Count the command's operands before the cursor. A word like "-1" is
	# an operand (set throttle -1 reaches the range check), as in reclaimctl.
	for ((i = cmd_at + 1; i < cword; i++)); do
		w=${words[i]}
		if [ $dashdash -eq 0 ] && [ "$w" = -- ]; then
			dashdash=1
		elif [ $dashdash -eq 0 ] && [ "$w" = --sysroot ]; then
			((i++))
			[ "${words[i]}" = '=' ] && ((i++))
			[ "$i" -lt "$cword" ] && sysroot=${words[i]}
		elif [ $dashdash -eq 0 ] && [[ $w == -[!0-9]* ]]; then
			:
		else
			((nops++))
			ops+=("$w")
		fi
	done
	if [ $dashdash -eq 0 ] && [[ $cur == -* ]] && [[ $cur != -[0-9]* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_reclaimctl_command_opts "$cmd" "${ops[0]:-}" \
			"${words[@]:cmd_at + 1:cword - cmd_at - 1}")" -- "$cur")
		return
	fi
	# swap priority DEVICE: the active swap devices
	if [ "$cmd" = swap ] && [ "$nops" -eq 1 ] && [ "${ops[0]}" = priority ]; then
		_reclaimctl_swap_devices "$sysroot" "$cur"
		return
	fi
	# preset show|diff|apply NAME: the presets
	if [ "$cmd" = preset ] && [ "$nops" -eq 1 ]; then
		case ${ops[0]} in
		show | diff | apply) _reclaimctl_presets "$sysroot" "$cur" ;;
		esac
		return
	fi
	# record -- COMMAND: commands, then files; report FILE...: record files
	if [ "$cmd" = record ] || [ "$cmd" = report ]; then
		compopt -o filenames 2>/dev/null
		if [ "$cmd" = record ] && [ $dashdash -eq 1 ] && [ "$nops" -eq 0 ]; then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi
		return
	fi
	mapfile -t COMPREPLY < <(compgen -W "$(_reclaimctl_operand "$cmd" "$nops" "${ops[0]:-}")" -- "$cur")
}

complete -F _reclaimctl reclaimctl
