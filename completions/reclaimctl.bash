# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for reclaimctl(8)
#
# Self-contained: works with or without the bash-completion package.
# To add a command: add it to _reclaimctl_commands, its options to
# _reclaimctl_command_opts and, if its operands complete to something, a case
# in _reclaimctl_operand.

_reclaimctl_commands='status get set threads swap autotune preset restore history check verify boot adapt monitor stalls latency record report sweep figures help'

_reclaimctl_global_opts='--sysroot --json -J --color --no-color --help -h --version -V'

# The values of --color=WHEN.
_reclaimctl_color_when='auto always never'

# The options of every command that prints a table (see TABLES in reclaimctl(8)).
_reclaimctl_table_opts='--output -o --output-all --noheadings -n --raw -r --pairs -P'
# -b, for the tables that have sizes
_reclaimctl_bytes_opts='--bytes -b'

# Knob names, then aliases (see reclaimctl(8), KNOBS).
_reclaimctl_knobs='kswapd_threads max_direct_reclaimers swap_round_robin_quota_kb
	swappiness watermark_scale_factor watermark_boost_factor min_free_kbytes
	zone_reclaim_mode page-cluster vfs_cache_pressure lru_gen_enabled
	lru_gen_min_ttl_ms zswap_enabled zswap_compressor zswap_max_pool_percent
	zswap_accept_threshold_percent zswap_shrinker_enabled numa_demotion_enabled
	threads throttle swap-quota mglru zswap demotion'

# The VALUEs to offer for a knob: auto where autotune has a rule for it (the
# value it plans), a boolean's, a bit mask's and a choice's words.
_reclaimctl_knob_values()
{
	case $1 in
	kswapd_threads | vm.kswapd_threads | threads) echo auto ;;
	max_direct_reclaimers | vm.max_direct_reclaimers | throttle) echo auto ;;
	zswap_enabled | zswap) echo 'auto Y N' ;;
	zswap_shrinker_enabled) echo 'Y N' ;;
	numa_demotion_enabled | demotion) echo 'auto true false' ;;
	lru_gen_enabled | mglru) echo 'y n' ;;
	zswap_compressor) echo 'deflate lzo lzo-rle 842 lz4 lz4hc zstd' ;;
	esac
}

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
	# --sysroot, --color and --no-color are accepted after the command too.
	case $cmd in
	status | threads | swap | autotune | preset | history | check | verify | stalls | latency | figures)
		case $cmd:$sub in
		swap:priority | preset:apply | preset:diff) ;;
		autotune:*) _reclaimctl_has_opt a apply "$@" || echo "$_reclaimctl_table_opts" ;;
		*) echo "$_reclaimctl_table_opts" ;;
		esac
		;;
	esac
	case $cmd:$sub in
	status:* | swap:rings | swap:devices | swap:) echo "$_reclaimctl_bytes_opts" ;;
	esac
	case $cmd in
	status) echo '--json -J --prometheus --textfile --help -h --sysroot --color --no-color' ;;
	threads) echo '--json -J --help -h --sysroot --color --no-color' ;;
	get) echo '--values --sysctl --json -J --help -h --sysroot --color --no-color' ;;
	set) echo '--dry-run --persist -p --force -f --json -J --help -h --sysroot --color --no-color' ;;
	swap) echo '--persist -p --dry-run --json -J --help -h --sysroot --color --no-color' ;;
	autotune)
		# --persist and --force need --apply (with --dry-run: what --apply
		# would do).
		_reclaimctl_has_opt a apply "$@" && echo '--persist -p --force -f'
		echo '--dry-run --apply -a --explain -e --json -J --help -h --sysroot --color --no-color'
		;;
	monitor) echo '--interval -i --count -c --per-node -N --latency -L --noheadings -n --json -J --help -h --sysroot --color --no-color' ;;
	stalls) echo '--interval -i --top -t --enable --json -J --help -h --sysroot --color --no-color' ;;
	latency) echo '--interval -i --duration -d --histogram --per-task --prometheus --textfile --json -J --help -h --sysroot --color --no-color' ;;
	record) echo '--file --interval -i --duration -d --latency --help -h --sysroot --color --no-color' ;;
	report) echo '--html --help -h --sysroot --color --no-color' ;;
	sweep)
		echo '--dir --repeat --interleave --no-interleave --interval -i --latency --metric -m'
		echo '--warmup --keep-going -k --force -f --json -J --help -h --sysroot --color --no-color'
		;;
	check) echo '--json -J --help -h --sysroot --color --no-color' ;;
	preset)
		# --persist and --force are for preset apply and diff (also before
		# the subcommand: preset -p diff NAME), --dry-run for apply only.
		case $sub in
		apply) echo '--dry-run --persist -p --force -f' ;;
		diff | '') echo '--persist -p --force -f' ;;
		esac
		echo '--json -J --help -h --sysroot --color --no-color'
		;;
	restore) echo '--boot --dry-run --persist -p --force -f --json -J --help -h --sysroot --color --no-color' ;;
	history | verify | figures) echo '--json -J --help -h --sysroot --color --no-color' ;;
	boot) echo '--dry-run --json -J --help -h --sysroot --color --no-color' ;;
	adapt)
		# --replay and --reset are modes of their own: the daemon's options
		# do not go with them.
		if _reclaimctl_has_opt '' reset "$@"; then
			echo '--help -h --sysroot --color --no-color'
			return
		fi
		_reclaimctl_has_opt '' replay "$@" ||
			echo '--dry-run --once --keep --latency --force -f --reset'
		echo '--interval -i --min --max --only --replay --up-cpu --up-direct --up-window --down-cpu'
		echo '--down-direct --down-psi --down-window --cooldown --busy-cpu --wmark-hits --wmark-step'
		echo '--wmark-max'
		echo '--json -J --help -h --sysroot --color --no-color'
		;;
	esac
}

# Candidates for operand number $2 (0-based) of command $1, whose first
# operand is $3 and the one before the cursor $4.
_reclaimctl_operand()
{
	case $1 in
	get) echo "$_reclaimctl_knobs" ;;
	set)
		# KNOB VALUE pairs: a VALUE offers the knob's words
		if [ $(($2 % 2)) -eq 0 ]; then
			echo "$_reclaimctl_knobs"
		else
			_reclaimctl_knob_values "$4"
		fi
		;;
	help) [ "$2" -eq 0 ] && echo "$_reclaimctl_commands" ;;
	swap) [ "$2" -eq 0 ] && echo 'rings devices priority' ;;
	status) [ "$2" -eq 0 ] && echo 'knobs nodes threads throttle swap rings devices zones counters pressure' ;;
	preset) [ "$2" -eq 0 ] && echo 'list show diff apply' ;;
	esac
}

# Arguments of options that take one (monitor, stalls, latency, record, report,
# status --textfile); returns 1 if $2 (the previous word) is no such option.
_reclaimctl_option_arg()
{
	local cmd=$1 prev=$2 cur=$3 sub=${4:-}

	case $cmd:$prev in
	status:--textfile | latency:--textfile) _reclaimctl_dirs "$cur" ;;
	status:-o | status:--output | threads:-o | threads:--output | swap:-o | swap:--output | \
		autotune:-o | autotune:--output | preset:-o | preset:--output | history:-o | \
		history:--output | check:-o | check:--output | verify:-o | verify:--output | stalls:-o | stalls:--output | \
		latency:-o | latency:--output | figures:-o | figures:--output)
		_reclaimctl_columns "$cmd" "$sub" "$cur"
		;;
	record:--file | report:--html | record:-o | record:--output | report:-o | report:--output)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		;;
	sweep:--dir | sweep:-o | sweep:--output) _reclaimctl_dirs "$cur" ;;
	sweep:--repeat | sweep:-i | sweep:--interval | sweep:-m | sweep:--metric | sweep:--warmup) ;;
	adapt:--replay)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -X '!*.jsonl' -- "$cur"; compgen -d -- "$cur")
		;;
	adapt:--only) mapfile -t COMPREPLY < <(compgen -W 'threads watermark' -- "$cur") ;;
	adapt:-i | adapt:--interval | adapt:--min | adapt:--max | adapt:--up-* | adapt:--down-* | \
		adapt:--cooldown | adapt:--busy-cpu | adapt:--wmark-*) ;;
	monitor:-i | monitor:--interval | monitor:-c | monitor:--count | stalls:-i | \
		stalls:--interval | stalls:-t | stalls:--top | latency:-i | latency:--interval | \
		latency:-d | latency:--duration | record:-i | record:--interval | record:-d | \
		record:--duration) ;;
	*) return 1 ;;
	esac
	return 0
}

# The columns in "reclaimctl $2 --help" of table $3 (swap devices: "devices";
# every table when $3 is none of them).
_reclaimctl_help_columns()
{
	"$1" "$2" --help 2>/dev/null | awk -v cmd="$2" -v table="$3" '
		/^(Available output columns|Columns of .*):$/ { t[++n] = $0; next }
		/^ +[A-Z]/ && n { col[n] = col[n] " " $1 }
		END {
			for (i = 1; i <= n; i++)
				if (t[i] == "Columns of " cmd " " table ":") { print col[i]; exit }
			for (i = 1; i <= n; i++) print col[i]
		}' | tr ' ' '\n' | sed '/^$/d' | sort -u
}

# -o's columns for command $1 (subcommand $2), after what $3 has already
# (-o NAME,NA completes the last name; a leading + stays).
_reclaimctl_columns()
{
	local cmd=$1 sub=$2 cur=$3 head= col w
	local bin=${COMP_WORDS[0]:-reclaimctl}

	# latency's table is chosen by an option: the tasks' with --per-task
	if [ "$cmd" = latency ]; then
		sub=kinds
		for w in "${COMP_WORDS[@]}"; do [[ $w == --per-task* ]] && sub=tasks; done
	fi

	[[ $cur == *,* ]] && head=${cur%,*},
	[[ -z $head && $cur == +* ]] && head=+
	COMPREPLY=()
	for col in $(_reclaimctl_help_columns "$bin" "$cmd" "$sub"); do
		[[ $col == "${cur#"$head"}"* ]] && COMPREPLY+=("$head$col")
	done
	compopt -o nospace 2>/dev/null
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
	local i w cmd='' cmd_at=0 nops=0 nafter=0 dashdash=0 sysroot='' last=''
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
	# "--color=WHEN", split at '=' or not, before the command or after it
	if [ "$cur" = '=' ] && [ "${words[cword - 1]}" = --color ]; then
		mapfile -t COMPREPLY < <(compgen -W "$_reclaimctl_color_when" -- '')
		return
	fi
	if [ "$cword" -ge 2 ] && [ "${words[cword - 1]}" = '=' ] &&
		[ "${words[cword - 2]}" = --color ]; then
		mapfile -t COMPREPLY < <(compgen -W "$_reclaimctl_color_when" -- "$cur")
		return
	fi
	if [[ $cur == --color=* ]]; then
		mapfile -t COMPREPLY < <(compgen -P --color= -W "$_reclaimctl_color_when" -- "${cur#--color=}")
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
		--color)
			# --color=WHEN, split at '=': WHEN is no command
			[ "${words[i + 1]}" = '=' ] && ((i += 2))
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
			[ "$i" -lt "$cword" ] && sysroot=${words[i]}
		elif [ $dashdash -eq 0 ] && [ "$w" = --color ]; then
			[ "${words[i + 1]}" = '=' ] && ((i += 2))
		elif [ $dashdash -eq 0 ] && [[ $w == -o || $w == --output || $w == --file || $w == --html ||
			$w == --dir ]]; then
			((i++)) # its value is no operand
		elif [ $dashdash -eq 0 ] && [[ $w == -[!0-9]* ]]; then
			:
		else
			((nops++))
			[ $dashdash -eq 1 ] && ((nafter++))
			ops+=("$w")
		fi
	done
	_reclaimctl_option_arg "$cmd" "$prev" "$cur" "${ops[0]:-}" && return
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
	# sweep KNOB=VALUES...: the knobs, then a value list is typed
	if [ "$cmd" = sweep ] && [ $dashdash -eq 0 ]; then
		[[ $cur == *=* ]] && return
		compopt -o nospace 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -W "$(printf '%s= ' $_reclaimctl_knobs)" -- "$cur")
		return
	fi
	# record -- COMMAND, sweep -- COMMAND: commands, then files; report FILE...: record files
	if [ "$cmd" = record ] || [ "$cmd" = report ] || [ "$cmd" = sweep ]; then
		compopt -o filenames 2>/dev/null
		if [ "$cmd" != report ] && [ $dashdash -eq 1 ] && [ "$nafter" -eq 0 ]; then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi
		return
	fi
	[ "$nops" -gt 0 ] && last=${ops[nops - 1]}
	mapfile -t COMPREPLY < <(compgen -W "$(_reclaimctl_operand "$cmd" "$nops" "${ops[0]:-}" \
		"$last")" -- "$cur")
}

complete -F _reclaimctl reclaimctl
