#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs one CLI case on a copy of a fixture root and compares stdout, stderr,
# the exit status and every file the command changed with the expected file.
#   run-case.sh RECLAIMCTL CASE_FILE EXPECTED_FILE FIXTURES_DIR
# A case file has "root: NAME" (a directory under FIXTURES_DIR), "args: ARGS"
# (words; $ROOT stands for the copy's path) and any number of "setup: CMD"
# lines, shell commands run in the copy before the command (to damage a file,
# say); $SRCDIR in them is the project's source directory (to copy a shipped
# file such as conf/reclaimctl.conf.example into the root). With --json or -J, stdout must be one JSON document, or with
# "json: lines" one per line. UPDATE=1 rewrites the expected file instead of comparing.
# "expect-file: PATH NAME" lines compare the copy's PATH after the command
# byte for byte with NAME beside the expected file (UPDATE=1 writes NAME).
# Files the command adds are shown whole ("added: PATH:"), removed ones by name
# ("removed: PATH"), changed ones as the lines that changed, in unified diff
# form ("changed: PATH:"); the times in the history and in a restore's
# reasons are replaced by T and HH:MM:SS.
# The shipped presets are those of the source tree (RECLAIMCTL_PRESET_DIR,
# presets/ unless set), shown as $PRESETS; admin presets are made by setup
# lines in the copy's etc/reclaimctl/presets.
set -euo pipefail

reclaimctl=$1 case_file=$2 expected=$3 fixtures=$4
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
RECLAIMCTL_PRESET_DIR=${RECLAIMCTL_PRESET_DIR:-$(cd "$(dirname "$0")/../../presets" && pwd)}
export RECLAIMCTL_PRESET_DIR

root_name=$(sed -n 's/^root: *//p' "$case_file")
args_line=$(sed -n 's/^args: *//p' "$case_file")
[ -n "$root_name" ] && [ -n "$args_line" ] || {
	echo "$case_file: needs root: and args: lines" >&2
	exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -a "$fixtures/$root_name" "$work/root"
while IFS= read -r cmd; do
	(cd "$work/root" && SRCDIR=$srcdir bash -euc "$cmd")
done < <(sed -n 's/^setup: *//p' "$case_file")
cp -a "$work/root" "$work/pristine"

read -ra args <<<"${args_line//\$ROOT/$work/root}"
rc=0
TZ=UTC NO_COLOR=1 "$reclaimctl" --sysroot "$work/root" "${args[@]}" >"$work/out" 2>"$work/err" || rc=$?

# Anything printed with --json must be one valid JSON document, or with a
# "json: lines" line in the case (monitor, adapt --replay) one on each line.
if [[ " ${args[*]} " == *" --json "* || " ${args[*]} " == *" -J "* ]] && [ -s "$work/out" ]; then
	json_mode=$(sed -n 's/^json: *//p' "$case_file")
	python3 -c 'import json,sys
if sys.argv[2] == "lines":
    for line in open(sys.argv[1]):
        json.loads(line)
else:
    json.load(open(sys.argv[1]))' "$work/out" "${json_mode:-document}" || {
		echo "stdout is not valid JSON${json_mode:+ ($json_mode)}" >&2
		exit 1
	}
fi

# status --textfile's reclaim_textfile_timestamp_seconds is the clock's too
textfile_time='s/^( *reclaim_textfile_timestamp_seconds) [0-9.e+]+$/\1 T/'
{
	cat "$work/out"
	echo "--- stderr"
	cat "$work/err"
	echo "--- exit $rc"
	echo "--- changed files"
	(cd "$work/root" && find . -type f | sort) >"$work/after"
	(cd "$work/pristine" && find . -type f | sort) >"$work/before"
	comm -23 "$work/before" "$work/after" | sed 's|^\./|removed: |'
	while read -r f; do
		echo "added: ${f#./}:"
		sed 's/^/  /' "$work/root/$f"
	done < <(comm -13 "$work/before" "$work/after")
	# one diff over both trees rather than a cmp per file: the files whose
	# content differs
	declare -A differs=()
	while read -r f; do
		differs[./$f]=1
	done < <(cd "$work" && { diff -rq pristine root 2>/dev/null || true; } |
		sed -n 's|^Files pristine/\(.*\) and root/.* differ$|\1|p')
	# each, in the order of "before", as the lines that changed (a unified
	# diff without its header lines), so that line breaks and whole lines show
	while read -r f; do
		[[ ${differs[$f]:-} && -f $work/root/$f ]] || continue
		echo "changed: ${f#./}:"
		{ diff -U1 "$work/pristine/$f" "$work/root/$f" || true; } | tail -n +3 | sed 's/^/  /'
	done <"$work/before"
	# the history's times are the clock's, like the HH:MM:SS of a restore's reason
	# and the time a textfile was written
} | sed -E "s|$work/root|\$ROOT|g; s|$RECLAIMCTL_PRESET_DIR|\$PRESETS|g;
	s/time=[0-9]+\.[0-9]{9}/time=T/g; s/ at [0-9]{2}:[0-9]{2}:[0-9]{2}\)/ at HH:MM:SS)/g;
	$textfile_time" >"$work/actual"

status=0
while read -r path name; do
	if [ -z "$path" ] || [ -z "$name" ]; then
		echo "$case_file: expect-file: needs PATH NAME" >&2
		exit 1
	fi
	want=$(dirname "$expected")/$name
	sed -Ei "$textfile_time" "$work/root/$path"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$work/root/$path" "$want"
		echo "updated $want"
	elif ! cmp -s "$want" "$work/root/$path"; then
		echo "$path differs from $want:" >&2
		diff -u "$want" "$work/root/$path" >&2 || true
		status=1
	fi
done < <(sed -n 's/^expect-file: *//p' "$case_file")

if [ "${UPDATE:-0}" = 1 ]; then
	cp "$work/actual" "$expected"
	echo "updated $expected"
	exit 0
fi
if [ ! -f "$expected" ]; then
	echo "no expected file $expected; actual output:" >&2
	cat "$work/actual" >&2
	exit 1
fi
diff -u "$expected" "$work/actual" || status=1
exit $status
