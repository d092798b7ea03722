#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cli-surface.sh - what reclaimctl says it accepts, read from the binary itself,
# so that the completion tests notice a command, option or knob that the
# completions do not know yet.
#
# Usage: cli-surface.sh RECLAIMCTL
#
# Prints one item a line, without duplicates:
#   command NAME          from 'reclaimctl --help' (Commands:)
#   global OPTION         from 'reclaimctl --help' (Options:)
#   option COMMAND OPTION from 'reclaimctl COMMAND --help' (Options:, Table options:)
#   context COMMAND OPTION WORD
#                         OPTION of COMMAND is valid only after WORD: its
#                         description starts with "(WORD)" (a subcommand,
#                         preset's "(apply)") or "with WORD:" (an option,
#                         autotune's "with --apply:")
#   knob NAME             from 'status --json' on an empty root (every knob)
#   knob ALIAS            from the 'unknown knob' message (aliases)

set -eu

bin=${1:?usage: cli-surface.sh RECLAIMCTL}
empty=$(mktemp -d)
trap 'rmdir "$empty"' EXIT

# Lines of section $1 ("Commands:", "Options:") up to the next blank line.
section() {
	awk -v s="$1" '$0 == s { on = 1; next } on && /^$/ { exit } on { print }'
}

options() {
	text=$(cat)
	for s in 'Options:' 'Table options:'; do
		printf '%s\n' "$text" | section "$s"
	done | grep -oE -- '(^|[ ,])--?[A-Za-z][-A-Za-z]*' | tr -d ' ,'
}

# "OPTION WORD" for each option of the section whose description names the
# subcommand or option it needs, "(WORD) ..." or "with WORD: ...".
contexts() {
	section 'Options:' | awk '
	/^ +-/ {
		line = $0
		sub(/^ +/, "", line)
		if (!match(line, /  +/))
			next
		head = substr(line, 1, RSTART - 1)
		desc = substr(line, RSTART + RLENGTH)
		if (match(desc, /^\([a-z][-a-z]*\)/))
			ctx = substr(desc, 2, RLENGTH - 2)
		else if (match(desc, /^with --?[A-Za-z][-A-Za-z]*:/))
			ctx = substr(desc, 6, RLENGTH - 6)
		else
			next
		n = split(head, t, /[ ,]+/)
		for (i = 1; i <= n; i++)
			if (t[i] ~ /^--?[A-Za-z][-A-Za-z]*$/)
				print t[i], ctx
	}'
}

surface() {
	top=$("$bin" --help)
	commands=$(printf '%s\n' "$top" | section 'Commands:' | awk '{ print $1 }')
	for c in $commands; do
		echo "command $c"
	done
	for o in $(printf '%s\n' "$top" | options); do
		echo "global $o"
	done
	for c in $commands; do
		[ "$c" = help ] && continue
		help=$("$bin" "$c" --help)
		for o in $(printf '%s\n' "$help" | options); do
			echo "option $c $o"
		done
		printf '%s\n' "$help" | contexts | while read -r o w; do
			echo "context $c $o $w"
		done
	done
	"$bin" --sysroot "$empty" status --json |
		awk '/^\t"knobs":/ { on = 1; next } on && /^\t}/ { exit }
		     on && /^\t\t"/ && match($0, /"[^"]+"/) { print "knob " substr($0, RSTART + 1, RLENGTH - 2) }'
	# "unknown knob 'x' (known: threads, throttle, swap-quota, swappiness, ...)"
	"$bin" --sysroot "$empty" get reclaimctl-no-such-knob 2>&1 >/dev/null |
		sed -n 's/.*(known: \(.*\))$/\1/p' | tr -d ' ' | tr ',' '\n' | sed 's/^/knob /'
}

out=$(surface)
printf '%s\n' "$out" | awk '!seen[$0]++'
