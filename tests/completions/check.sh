#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The word lists ($commands, $knobs) are split into words on purpose:
# shellcheck disable=SC2086
#
# check.sh - the completion checks, the same for every shell.
#
# Usage: check.sh SHELL COMPLETION_FILE [RECLAIMCTL]
#
# SHELL is bash (the file alone), bash-completion (after the bash-completion
# package's script), zsh or fish; each is driven through its adapter beside
# this script (bash-complete.sh, zsh-complete.zsh, fish-complete.sh), which
# prints the candidates for a command line.  First a syntax check, then fixed
# cases, then, with RECLAIMCTL, every command, option and knob the binary
# reports (cli-surface.sh) must complete, an option that is only valid after
# a subcommand or another option there: a new command or knob fails here
# until the completions know it.  Prints TAP; exits 0 if all passed, 1 if
# not, 77 (skipped, for CTest's SKIP_RETURN_CODE) if SHELL is not installed.

set -u

shell=${1:?usage: check.sh SHELL COMPLETION_FILE [RECLAIMCTL]}
file=${2:?usage: check.sh SHELL COMPLETION_FILE [RECLAIMCTL]}
bin=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
file=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")

skip() {
	echo "1..0 # SKIP $*"
	exit 77
}

# a scratch directory for the run (zsh's compinit dump)
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT

case $shell in
bash)
	adapter=("$here/bash-complete.sh" --serve "$file")
	syntax() { bash -n "$file"; }
	;;
bash-completion)
	bc=${BASH_COMPLETION_SCRIPT:-/usr/share/bash-completion/bash_completion}
	[ -r "$bc" ] || skip "bash-completion is not installed (no $bc)"
	adapter=("$here/bash-complete.sh" --bash-completion --serve "$file")
	syntax() { bash -n "$file"; }
	;;
zsh)
	command -v zsh >/dev/null || skip 'zsh is not installed'
	zsh -fc 'zmodload zsh/zpty' 2>/dev/null || skip 'zsh has no zsh/zpty module'
	[ "$(basename "$file")" = _reclaimctl ] || { echo "not ok - $file: a zsh completion must be named _reclaimctl"; exit 1; }
	adapter=(env ZSH_COMPLETE_DUMP="$cache/zcompdump" zsh -f "$here/zsh-complete.zsh" --serve "$(dirname "$file")")
	syntax() { zsh -n "$file"; }
	;;
fish)
	command -v fish >/dev/null || skip 'fish is not installed'
	adapter=("$here/fish-complete.sh" --serve "$file")
	syntax() { fish --no-config -n "$file"; }
	;;
*)
	echo "check.sh: unknown shell '$shell' (bash, bash-completion, zsh, fish)" >&2
	exit 2
	;;
esac

# shellcheck source=../tap.sh
. "$here/../tap.sh"

# One adapter for the whole run (its --serve mode), asked for each line with
# the working directory and the environment it depends on; the answers are
# kept per line and environment. Everything else is done by bash itself:
# the checks spawn nothing.
coproc ADAPTER { "${adapter[@]}"; }
# an adapter that died fails the lines asked after it, not this script
trap '' PIPE
declare -A answers=()
end=$'\037end'

# candidates LINE: sets $cands to the candidates of LINE, one a line, without
# the shells' decorations: a directory's trailing '/', and the '--sysroot='
# and '--color=' that fish repeats before each value.
candidates() {
	local key=$PWD$'\n'$PATH$'\n'${RECLAIMCTL_PRESET_DIR-}${RECLAIMCTL_PRESET_DIR+set}$'\n'$1 l
	local -A seen=()
	if [[ -z ${answers[$key]+set} ]]; then
		cands=
		if [[ -z ${ADAPTER_PID:-} ]] ||
			! printf '%s\n' "$PWD" "$PATH" "${RECLAIMCTL_PRESET_DIR-}" "${RECLAIMCTL_PRESET_DIR+set}" "$1" \
				1>&"${ADAPTER[1]}" 2>/dev/null; then
			cands='<completion failed: the adapter is not running>'
			return
		fi
		while :; do
			if ! IFS= read -r -t 60 l <&"${ADAPTER[0]}"; then
				cands='<completion failed: no answer in 60 s>'
				return
			fi
			[[ $l == "$end" ]] && break
			l=${l#--sysroot=}
			l=${l#--color=}
			l=${l%/}
			[[ -n $l && -z ${seen[$l]+set} ]] || continue
			seen[$l]=1
			cands+=$l$'\n'
		done
		answers[$key]=$cands
	fi
	cands=${answers[$key]}
}

# has WORD: WORD is one of $cands
has() { [[ $'\n'$cands == *$'\n'"$1"$'\n'* ]]; }

# words: $cands on one line, sorted, for messages
words() { sort <<<"$cands" | sed '/^$/d' | tr '\n' ' '; }

# expect LINE [WORD...]: the candidates are exactly WORD...
expect() {
	local line=$1 w want=() missing='' count
	shift
	candidates "$line"
	local -A wanted=()
	for w in "$@"; do
		[[ -n $w && -z ${wanted[$w]+set} ]] || continue
		wanted[$w]=1
		want+=("$w")
		has "$w" || missing+=" $w"
	done
	count=${cands//[!$'\n']/}
	count=${#count}
	if [[ -z $missing && $count == "${#want[@]}" ]]; then
		result ok "'$line' -> ${want[*]:-nothing}"
	else
		result fail "'$line' -> ${want[*]:-nothing}" "got: $(words)"
	fi
}

# contains LINE WORD...: the candidates include every WORD
contains() {
	local line=$1 w missing=
	shift
	candidates "$line"
	for w in "$@"; do
		has "$w" || missing+=" $w"
	done
	if [ -z "$missing" ]; then
		result ok "'$line' includes $*"
	else
		result fail "'$line' includes $*" "missing:$missing; got: $(words)"
	fi
}

# lacks LINE WORD...: the candidates include no WORD
lacks() {
	local line=$1 w extra=
	shift
	candidates "$line"
	for w in "$@"; do
		has "$w" && extra+=" $w"
	done
	if [ -z "$extra" ]; then
		result ok "'$line' excludes $*"
	else
		result fail "'$line' excludes $*" "unexpected:$extra"
	fi
}

echo "# $shell: $file"
if out=$(syntax 2>&1); then
	result ok "syntax ($shell -n)"
else
	result fail "syntax ($shell -n)" "$out"
fi

commands='adapt autotune boot check figures get help history latency monitor preset record report restore set stalls status swap sweep threads verify'
knobs='kswapd_threads max_direct_reclaimers swap_round_robin_quota_kb swappiness
watermark_scale_factor watermark_boost_factor min_free_kbytes zone_reclaim_mode
page-cluster vfs_cache_pressure lru_gen_enabled lru_gen_min_ttl_ms zswap_enabled
zswap_compressor zswap_max_pool_percent zswap_accept_threshold_percent
zswap_shrinker_enabled numa_demotion_enabled threads throttle swap-quota mglru
zswap demotion'

# Commands, and global options before the command.
expect 'reclaimctl s' set stalls status swap sweep
expect 'reclaimctl ' $commands
expect 'reclaimctl th' threads
expect 'reclaimctl --' --color --help --json --no-color --sysroot --version
contains 'reclaimctl -' -J -V -h --sysroot --json
expect 'reclaimctl --json st' stalls status
expect 'reclaimctl -J --no-color g' get
# --color=WHEN: its values, before the command and after it; WHEN is no command
expect 'reclaimctl --color=' always auto never
expect 'reclaimctl --color=a' always auto
expect 'reclaimctl status --color=n' never
expect 'reclaimctl --color=always st' stalls status
contains 'reclaimctl --color=never status ' knobs nodes

# Knobs and their aliases for get (every operand) and set (the first).
expect 'reclaimctl set th' threads throttle
expect 'reclaimctl get ' $knobs
expect 'reclaimctl get swappiness ' $knobs
expect 'reclaimctl get sw' swap-quota swap_round_robin_quota_kb swappiness
expect 'reclaimctl get m' max_direct_reclaimers mglru min_free_kbytes
expect 'reclaimctl get p' page-cluster
expect 'reclaimctl set v' vfs_cache_pressure
expect 'reclaimctl set ' $knobs
expect 'reclaimctl set --dry-run sw' swap-quota swap_round_robin_quota_kb swappiness
expect 'reclaimctl set -p w' watermark_boost_factor watermark_scale_factor
expect 'reclaimctl set -- th' threads throttle
# VALUE: auto for the knobs autotune has a rule for, else nothing.
expect 'reclaimctl set threads ' auto
# the knobs of sysfs: auto where a rule exists, a boolean's, a bit mask's and a choice's words
expect 'reclaimctl set zswap ' auto N Y
expect 'reclaimctl set demotion ' auto false true
expect 'reclaimctl set mglru ' n y
expect 'reclaimctl set zswap_compressor lz4' lz4 lz4hc
expect 'reclaimctl set -p max_direct_reclaimers a' auto
expect 'reclaimctl set swappiness ' ''
# --sysroot and --no-color after the command; the directory is not an operand.
contains 'reclaimctl status --' --sysroot --no-color --json
expect 'reclaimctl get --sysroot / sw' swap-quota swap_round_robin_quota_kb swappiness
expect 'reclaimctl set --sysroot / th' threads throttle
expect 'reclaimctl get --json sw' swap-quota swap_round_robin_quota_kb swappiness
# After KNOB VALUE: the next pair's knob, and auto for its VALUE where the
# knob may be auto.
expect 'reclaimctl set throttle -1 ' $knobs
expect 'reclaimctl set swap-quota 2M th' threads throttle
expect 'reclaimctl set swap-quota 2M threads ' auto
expect 'reclaimctl set -p threads 4 swappiness ' ''
expect 'reclaimctl set threads 4 swappiness 10 max_direct_reclaimers a' auto

# Each command's options.
contains 'reclaimctl get -' --values --sysctl --json --help
expect 'reclaimctl get --v' --values
expect 'reclaimctl set --d' --dry-run
contains 'reclaimctl set -' --dry-run --persist --force --json --help
lacks 'reclaimctl set -' --values --version
contains 'reclaimctl status -' --json --help
lacks 'reclaimctl status -' --values --dry-run
contains 'reclaimctl threads --' --json --help
contains 'reclaimctl autotune -' --dry-run --explain --json --help
expect 'reclaimctl autotune --e' --explain
expect 'reclaimctl au' autotune
lacks 'reclaimctl autotune -' --values --persist
lacks 'reclaimctl autotune ' threads status
# --persist and --force need --apply, which excludes --dry-run.
contains 'reclaimctl autotune -' --apply --dry-run
expect 'reclaimctl autotune --a' --apply
contains 'reclaimctl autotune --apply -' --persist --force --explain --json
contains 'reclaimctl autotune -e -a --' --persist --force
contains 'reclaimctl autotune --apply -' --dry-run
contains 'reclaimctl autotune -n -' --apply
lacks 'reclaimctl autotune -n -' --persist --force

# restore, boot: options only
expect 'reclaimctl re' record report restore
contains 'reclaimctl restore -' --dry-run --persist --force --json --help
lacks 'reclaimctl restore -' --values --apply
lacks 'reclaimctl restore ' $knobs
contains 'reclaimctl restore -' --boot
# -b is --bytes in every command: restore --boot has no short option
lacks 'reclaimctl restore -' -b --bytes
contains 'reclaimctl history -' --json --help
lacks 'reclaimctl history -' --dry-run --boot
contains 'reclaimctl preset diff -' --persist --force
lacks 'reclaimctl preset diff -' --dry-run
expect 'reclaimctl b' boot
contains 'reclaimctl boot -' --dry-run --json --help
lacks 'reclaimctl boot -' --persist --force
lacks 'reclaimctl boot ' $knobs

# monitor, stalls, latency, record, report; status --prometheus
contains 'reclaimctl status --' --prometheus --textfile --pairs
contains 'reclaimctl monitor -' --interval --count --per-node --json
contains 'reclaimctl stalls -' --interval --top --enable --json
contains 'reclaimctl latency -' --interval --duration --histogram --per-task --json --output
lacks 'reclaimctl latency -' --top --enable --dry-run
contains 'reclaimctl record -' --file --interval --duration
contains 'reclaimctl report -' --html
# -o is the columns everywhere: the old -o FILE and -o DIR are not offered
lacks 'reclaimctl record -' --output -o --json -J
lacks 'reclaimctl report -' --json -J
lacks 'reclaimctl report -' --output -o
lacks 'reclaimctl sweep -' --output -o
contains 'reclaimctl sweep -' --dir
lacks 'reclaimctl monitor -' --enable --output --dry-run

# check: options only
expect 'reclaimctl ch' check
contains 'reclaimctl check -' --json --help
lacks 'reclaimctl check -' --dry-run --values --persist
lacks 'reclaimctl check ' $knobs

# help COMMAND
expect 'reclaimctl help ' $commands
expect 'reclaimctl help s' set stalls status swap sweep
expect 'reclaimctl help status ' ''

# --sysroot DIR: directories only, in both spellings, and what follows it.
tmp=$(mktemp -d)
mkdir "$tmp/fixture-a" "$tmp/fixture-b" "$tmp/other"
: >"$tmp/fixture-file"
cd "$tmp" || exit 1
expect 'reclaimctl --sysroot fix' fixture-a fixture-b
expect 'reclaimctl --sysroot=fix' fixture-a fixture-b
expect 'reclaimctl --sysroot fixture-a st' stalls status
expect 'reclaimctl --sysroot fixture-a ' $commands
expect 'reclaimctl --sysroot=fixture-a --json get th' threads throttle
contains 'reclaimctl --sysroot fixture-a set --' --dry-run --json --help

# swap: subcommands, options, and the active swap devices for swap priority
# (from /proc/swaps, under --sysroot; "\040" is a space).
mkdir -p "$tmp/swaproot/proc"
printf 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n%s\n%s\n%s\n' \
	'/dev/zram0                              partition\t4194300\t\t0\t\t5' \
	'/dev/zram1                              partition\t4194300\t\t0\t\t5' \
	'/var/swap\\040file                       file\t\t8388604\t\t0\t\t-2' >"$tmp/swaproot/proc/swaps"
expect 'reclaimctl sw' swap sweep
expect 'reclaimctl swap ' devices priority rings
# sweep: KNOB= before "--", the output directory, options
# (zsh adds the "=" as a suffix when a knob is chosen, not to the candidate)
if [ "$shell" = zsh ]; then
	contains 'reclaimctl sweep th' threads throttle
else
	contains 'reclaimctl sweep th' threads= throttle=
fi
contains 'reclaimctl sweep threads=1 --dir out -- sl' sleep
contains 'reclaimctl sweep --re' --repeat
contains 'reclaimctl sweep --no' --no-interleave
expect 'reclaimctl swap p' priority
expect 'reclaimctl swap --pe' --persist
expect 'reclaimctl swap --pa' --pairs
contains 'reclaimctl swap -' --persist --dry-run --json --help
contains 'reclaimctl swap priority -' --persist --dry-run
expect 'reclaimctl --sysroot swaproot swap priority /dev/' /dev/zram0 /dev/zram1
expect 'reclaimctl --sysroot=swaproot swap priority /dev/zram1' /dev/zram1
expect 'reclaimctl swap --sysroot swaproot priority --persist /dev/z' /dev/zram0 /dev/zram1
contains 'reclaimctl --sysroot swaproot swap priority ' /dev/zram0 /dev/zram1
lacks 'reclaimctl --sysroot swaproot swap priority /dev/zram0 ' /dev/zram0 /dev/zram1
lacks 'reclaimctl --sysroot swaproot swap rings ' /dev/zram0 priority

# preset: subcommands, and the preset names of both directories: the
# administrator's (under --sysroot) and the shipped ones (RECLAIMCTL_PRESET_DIR).
mkdir -p "$tmp/presetroot/etc/reclaimctl/presets/dir.preset" "$tmp/shipped"
for p in balanced latency throughput; do : >"$tmp/shipped/$p.preset"; done
for f in latency.preset db.preset .hidden.preset 'two words.preset' notes.txt; do
	: >"$tmp/presetroot/etc/reclaimctl/presets/$f"
done
export RECLAIMCTL_PRESET_DIR=$tmp/shipped
expect 'reclaimctl pr' preset
expect 'reclaimctl preset ' list show diff apply
expect 'reclaimctl preset s' show
contains 'reclaimctl preset -' --json --help
lacks 'reclaimctl preset -' --dry-run --values
# --dry-run, --persist and --force: for preset apply only.
contains 'reclaimctl preset apply -' --dry-run --persist --force --json --help
lacks 'reclaimctl preset show -' --dry-run --persist --force
lacks 'reclaimctl preset list -' --dry-run --persist --force
expect 'reclaimctl --sysroot presetroot preset show ' balanced db latency throughput
expect 'reclaimctl --sysroot=presetroot preset diff l' latency
expect 'reclaimctl --sysroot presetroot preset apply d' db
expect 'reclaimctl --sysroot presetroot preset apply --dry-run --persist d' db
expect 'reclaimctl preset --sysroot presetroot show t' throughput
expect 'reclaimctl --json --sysroot presetroot preset --json show b' balanced
contains 'reclaimctl preset show ' balanced latency throughput
lacks 'reclaimctl --sysroot presetroot preset list ' balanced db
lacks 'reclaimctl --sysroot presetroot preset show latency ' balanced db latency
lacks 'reclaimctl --sysroot presetroot preset ' balanced db
unset RECLAIMCTL_PRESET_DIR
cd / && rm -r "$tmp"

# The table options: where a table is printed, not elsewhere; -n is
# --noheadings (--dry-run has no short option); status takes a section.
contains 'reclaimctl threads -' --output --output-all --noheadings --raw --pairs
# -b is for the tables with sizes
lacks 'reclaimctl threads -' --bytes -b
contains 'reclaimctl status knobs -' --bytes --pairs
contains 'reclaimctl swap devices -' --bytes
contains 'reclaimctl swap devices -' --output --noheadings
lacks 'reclaimctl swap priority -' --output --noheadings
lacks 'reclaimctl set -' --noheadings --output -n
lacks 'reclaimctl preset apply -' --output --noheadings
contains 'reclaimctl monitor -' --noheadings
lacks 'reclaimctl monitor -' --output
expect 'reclaimctl status ' knobs nodes threads throttle swap rings devices zones counters pressure
expect 'reclaimctl status r' rings
# -o's columns come from the command's --help: the binary must be found.
if [ -n "$bin" ]; then
	PATH=$(cd "$(dirname "$bin")" && pwd):$PATH
	expect 'reclaimctl threads -o A' ALLOWED
	expect 'reclaimctl history --output S' SOURCE
	expect 'reclaimctl swap devices -o D' DEVICE DISK
	expect 'reclaimctl swap rings -o D' DEVICES
	expect 'reclaimctl latency -o P' P50_US P90_US P99_US
	expect 'reclaimctl latency --per-task -o P' PID
fi

# Everything the binary says it accepts must complete.
if [ -n "$bin" ]; then
	surface=$("$here/cli-surface.sh" "$bin")
	if [ -z "$surface" ]; then
		result fail "cli-surface.sh $bin lists the commands, options and knobs"
	else
		before=$failed
		# An option valid only after a subcommand or another option
		# (preset apply --dry-run, autotune --apply --persist) completes there.
		declare -A after=()
		while read -r kind a b c; do
			[ "$kind" = context ] && after["$a $b"]=$c
		done <<<"$surface"
		while read -r kind a b c; do
			case $kind in
			command)
				candidates 'reclaimctl '
				has "$a" ||
					result fail "command '$a' (reclaimctl --help) completes"
				;;
			global)
				candidates 'reclaimctl -'
				has "$a" ||
					result fail "global option $a (reclaimctl --help) completes"
				;;
			option)
				# A typed short option is complete: zsh and fish then
				# offer clusters (-nJ); so look at the list after "-".
				w=${after["$a $b"]:-}
				candidates "reclaimctl $a ${w:+$w }-"
				has "$b" ||
					result fail "option $b (reclaimctl $a --help) completes${w:+ after $w}"
				;;
			knob)
				candidates 'reclaimctl get '
				has "$a" ||
					result fail "knob '$a' completes after get"
				;;
			esac
		done <<<"$surface"
		[ $failed -eq $before ] &&
			result ok "all $(grep -vc '^context ' <<<"$surface") commands, options and knobs of $(basename "$bin") complete"
	fi
fi

echo "1..$n"
echo "# $shell: $n checks, $failed failed"
[ $failed -eq 0 ]
