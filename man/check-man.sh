#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-man.sh - check the man pages that scdoc generated.
#
# Usage: check-man.sh [--reclaimctl BIN --surface SCRIPT [--fixture DIR]] [--presets DIR]
#                     [--conf-example FILE] PAGE...
#
# For every PAGE (roff, as scdoc wrote it):
#   - it has a .TH line and a NAME section;
#   - groff renders it (-man -t -Tutf8 -ww) without a single warning; when
#     groff is not installed this check is skipped, the others still run;
#   - man -l shows it (man-db, --warnings=w) without a warning either.
# For reclaimctl.8, with --reclaimctl and --surface (tests/completions/
# cli-surface.sh, which reads the binary's own --help):
#   - it has the sections a util-linux page has;
#   - every command has its ".SS COMMAND" and every global option, command
#     option and knob is mentioned in bold: a command, option or knob added
#     to the CLI fails here until it is documented;
#   - with --fixture (a patched fixture root), every key of the JSON output
#     of status, threads, get, set, autotune, preset list, show and diff,
#     and check (run on a copy, given sysctl files for check) is mentioned in
#     bold (the reclaim counters, documented by prefix, excepted).
# With --presets DIR (the shipped presets; also RECLAIMCTL_PRESET_DIR for the
# commands above), reclaimctl.preset.5 names every DIR/NAME.preset in bold.
# For reclaimctl.conf.5, with --reclaimctl and --fixture: it names in bold
# every setting the parser knows, read from the built reclaimctl (the
# message for an unknown setting lists them all: "(known: A, B)"), and the
# preset the boot unit applies without the file (boot --dry-run --json);
# with --conf-example FILE (conf/reclaimctl.conf.example), FILE has a line
# "KEY = ..." or "#KEY = ..." for each of those settings.
# Prints TAP; exits 0 if all passed, 1 if not.

set -u

bin=
surface=
fixture=
presets=
conf_example=
while [ $# -gt 0 ]; do
	case $1 in
	--reclaimctl) bin=$2; shift 2 ;;
	--surface) surface=$2; shift 2 ;;
	--fixture) fixture=$2; shift 2 ;;
	--presets) presets=$2; shift 2 ;;
	--conf-example) conf_example=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "check-man.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo 'usage: check-man.sh [--reclaimctl BIN --surface SCRIPT [--fixture DIR]] [--presets DIR] [--conf-example FILE] PAGE...' >&2; exit 2; }
[ -z "$presets" ] || export RECLAIMCTL_PRESET_DIR=$presets
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=../tests/tap.sh
. "$(dirname "$0")/../tests/tap.sh"
skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# bold TEXT PAGE: TEXT appears in bold (\fBTEXT\fR) in the roff source.
bold() {
	grep -qF -- "\\fB$1\\fR" "$2"
}

# conf_check PAGE: reclaimctl.conf.5 against what the built reclaimctl reads.
conf_check() {
	local page=$1 name root msg settings default missing key
	name=$(basename "$page")
	root=$tmp/conf-root
	rm -rf "$root"
	cp -r "$fixture/." "$root"
	mkdir -p "$root/etc/reclaimctl"
	# the parser's own list: "unknown setting 'KEY' (known: A, B)"
	printf 'check-man-unknown = 1\n' >"$root/etc/reclaimctl/reclaimctl.conf"
	msg=$("$bin" --sysroot "$root" boot --dry-run 2>&1 >/dev/null)
	settings=$(sed -n "s/.*unknown setting 'check-man-unknown' (known: \(.*\))\$/\1/p" <<<"$msg" |
		tr ',' '\n' | tr -d ' ')
	rm "$root/etc/reclaimctl/reclaimctl.conf"
	default=$("$bin" --sysroot "$root" --json boot --dry-run 2>/dev/null |
		sed -n 's/^[[:space:]]*"preset":[[:space:]]*"\([^"]*\)".*/\1/p')
	if [ -z "$settings" ]; then
		result fail "$name: the settings of reclaimctl.conf, from $(basename "$bin")" \
			"no list of known settings in: $msg"
		return
	fi
	missing=
	for key in $settings; do
		bold "$key" "$page" || missing+=" $key"
	done
	if [ -z "$missing" ]; then
		result ok "$name documents every setting the parser knows (${settings//$'\n'/, })"
	else
		result fail "$name documents every setting the parser knows" "missing:$missing"
	fi
	if [ -n "$default" ] && bold "$default" "$page"; then
		result ok "$name names the default preset, $default"
	else
		result fail "$name names the default preset" "boot --dry-run without the file: '${default}'"
	fi
	[ -n "$conf_example" ] || return
	missing=
	for key in $settings; do
		grep -qE "^#?$key =" "$conf_example" || missing+=" $key"
	done
	if [ -z "$missing" ]; then
		result ok "$(basename "$conf_example") has every setting the parser knows"
	else
		result fail "$(basename "$conf_example") has every setting the parser knows" "missing:$missing"
	fi
}

for page in "$@"; do
	name=$(basename "$page")
	if [ ! -s "$page" ]; then
		result fail "$name exists and is not empty"
		continue
	fi
	th=$(grep -m1 '^\.TH ' "$page")
	if [ -n "$th" ]; then
		result ok "$name: $th"
	else
		result fail "$name has a .TH line"
	fi
	if grep -q '^\.SH NAME' "$page"; then
		result ok "$name has a NAME section"
	else
		result fail "$name has a NAME section"
	fi

	if command -v groff >/dev/null; then
		warnings=$(LC_ALL=C.UTF-8 groff -man -t -Tutf8 -ww -z "$page" 2>&1)
		if [ -z "$warnings" ]; then
			result ok "$name renders without warnings (groff -man -t -Tutf8 -ww)"
		else
			result fail "$name renders without warnings (groff -man -t -Tutf8 -ww)" "$warnings"
		fi
	else
		skip "$name renders without warnings" 'groff is not installed'
	fi
	if command -v man >/dev/null; then
		shown=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=w -l "$page" 2>"$tmp/man.err")
		[ -n "$shown" ] || echo '(no output)' >>"$tmp/man.err"
		if [ ! -s "$tmp/man.err" ]; then
			result ok "$name shows without warnings (man --warnings=w -l)"
		else
			result fail "$name shows without warnings (man --warnings=w -l)" "$(cat "$tmp/man.err")"
		fi
	else
		skip "$name shows without warnings (man -l)" 'man is not installed'
	fi

	if [ "$name" = reclaimctl.conf.5 ]; then
		if [ -n "$bin" ] && [ -n "$fixture" ] && [ -d "$fixture" ]; then
			conf_check "$page"
		else
			skip "$name documents every setting the parser knows" 'no --reclaimctl/--fixture'
		fi
	fi

	if [ "$name" = reclaimctl.preset.5 ] && [ -n "$presets" ]; then
		missing=
		shipped=0
		for f in "$presets"/*.preset; do
			[ -e "$f" ] || continue
			shipped=$((shipped + 1))
			p=$(basename "$f" .preset)
			bold "$p" "$page" || missing+=" $p"
		done
		if [ $shipped -gt 0 ] && [ -z "$missing" ]; then
			result ok "$name documents all $shipped shipped presets of $presets"
		else
			result fail "$name documents every shipped preset" "missing:${missing:- (none found in $presets)}"
		fi
		# The table of SHIPPED PRESETS: each cell is the file's value ("-": not set).
		if diff=$(python3 - "$page" "$presets" 2>&1 <<'PY'
import os, re, sys
lines = open(sys.argv[1]).read().splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith(".SH SHIPPED PRESETS"))
start = next(i for i in range(start, len(lines)) if lines[i].startswith("KNOB "))
end = next(i for i in range(start, len(lines)) if lines[i].startswith("."))
table = lines[start:end]
names = table[0].split()[1:]
bad = []
for row in table[1:]:
    knob, *cells = row.split()
    for name, cell in zip(names, cells):
        values = {}
        for line in open(os.path.join(sys.argv[2], name + ".preset")):
            m = re.match(r"^\s*([a-z_-]+)\s*=\s*(\S+)", line)
            if m:
                values[m.group(1)] = m.group(2)
        if values.get(knob, "-") != cell:
            bad.append(f"{name} {knob}: table {cell}, file {values.get(knob, '-')}")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
		); then
			result ok "$name: the SHIPPED PRESETS table has the values of the preset files"
		else
			result fail "$name: the SHIPPED PRESETS table has the values of the preset files" "$diff"
		fi
	fi

	[ "$name" = reclaimctl.8 ] || continue

	missing=
	for s in NAME SYNOPSIS DESCRIPTION COMMANDS 'GLOBAL OPTIONS' KNOBS 'JSON OUTPUT' \
		'EXIT STATUS' ENVIRONMENT FILES EXAMPLES 'SEE ALSO'; do
		grep -qx "\\.SH $s" "$page" || missing+=" '$s'"
	done
	if [ -z "$missing" ]; then
		result ok "$name has the util-linux sections"
	else
		result fail "$name has the util-linux sections" "missing:$missing"
	fi

	if [ -z "$bin" ] || [ -z "$surface" ]; then
		skip "$name documents every command, option and knob" 'no --reclaimctl/--surface'
		continue
	fi
	items=$("$surface" "$bin")
	if [ -z "$items" ]; then
		result fail "$surface lists what $bin accepts"
		continue
	fi
	missing=
	while read -r kind a b; do
		case $kind in
		command) grep -qx "\\.SS $a" "$page" || missing+=" command:$a" ;;
		global) bold "$a" "$page" || missing+=" global:$a" ;;
		option) bold "$b" "$page" || missing+=" $a:$b" ;;
		knob) bold "$a" "$page" || missing+=" knob:$a" ;;
		esac
	done <<<"$items"
	if [ -z "$missing" ]; then
		result ok "$name documents all $(wc -l <<<"$items") commands, options and knobs of $(basename "$bin")"
	else
		result fail "$name documents every command, option and knob" "missing:$missing"
	fi

	if [ -z "$fixture" ] || [ ! -d "$fixture" ]; then
		skip "$name documents every JSON key" "no fixture root ${fixture:-given}"
		continue
	fi
	# set writes: into a copy. Setting kswapd_threads to the number the
	# fixture runs passes the check, so its keys show too.
	copy=$(mktemp -d)
	cp -r "$fixture/." "$copy"
	threads=$("$bin" --sysroot "$copy" get --values kswapd_threads 2>/dev/null)
	json=$(
		"$bin" --sysroot "$copy" --json status
		"$bin" --sysroot "$copy" --json threads
		"$bin" --sysroot "$copy" --json get
		"$bin" --sysroot "$copy" --json set --dry-run swappiness 10
		"$bin" --sysroot "$copy" --json autotune
		[ -n "$threads" ] && "$bin" --sysroot "$copy" --json set kswapd_threads "$threads"
		"$bin" --sysroot "$copy" --json preset list
		"$bin" --sysroot "$copy" --json preset show balanced
		"$bin" --sysroot "$copy" --json preset diff kernel-default
		# check: an assignment, an exclusion, a glob and a problem
		mkdir -p "$copy/etc/sysctl.d"
		printf 'vm.swappiness = 10\n-vm.kswapd_threads\nvm.watermark_* = 20\nvm.max_direct_reclaimers 3\n' \
			>"$copy/etc/sysctl.d/50-man.conf"
		"$bin" --sysroot "$copy" --json check
		# the apply path's JSON, without writing anything
		"$bin" --sysroot "$copy" --json preset apply --dry-run kernel-default
		"$bin" --sysroot "$copy" --json boot --dry-run
		"$bin" --sysroot "$copy" --json restore --dry-run --persist
	)
	rm -rf "$copy"
	keys=$(grep -oE '"[A-Za-z0-9_]+":' <<<"$json" | tr -d '":' | sort -u |
		grep -vE '^(pgscan_|pgsteal_|allocstall_|kswapd_|workingset_refault_)' || true)
	missing=
	for k in $keys; do
		bold "$k" "$page" || missing+=" $k"
	done
	if [ -n "$keys" ] && [ -z "$missing" ]; then
		result ok "$name documents all $(wc -w <<<"$keys") JSON keys of status, threads, get, set, autotune, preset, check, apply"
	else
		result fail "$name documents every JSON key" "missing:${missing:- (no keys read)}"
	fi
done

echo "1..$n"
echo "# man: $n checks, $failed failed"
[ $failed -eq 0 ]
