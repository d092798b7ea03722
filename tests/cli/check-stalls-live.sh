#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# stalls on the machine running the tests (root only): taskstats answer, the
# JSON document has its keys, --enable turns kernel.task_delayacct on for the
# run and back off (also when interrupted), and without CAP_NET_ADMIN the
# message says so. kernel.task_delayacct is put back as it was.
#   check-stalls-live.sh RECLAIMCTL
# Exit status 0 pass, 1 fail, 77 (skip) when not root or without taskstats.
set -uo pipefail

bin=${1:?usage: check-stalls-live.sh RECLAIMCTL}
knob=/proc/sys/kernel/task_delayacct
[ "$(id -u)" = 0 ] || { echo "check-stalls-live: not root"; exit 77; }
[ -w "$knob" ] || { echo "check-stalls-live: no writable $knob"; exit 77; }
saved=$(cat "$knob")
work=$(mktemp -d)
trap 'echo "$saved" >"$knob"; rm -rf "$work"' EXIT
# shellcheck source=SCRIPTDIR/tap.sh
. "$(dirname "$0")/tap.sh"

echo 1 >"$knob"
if "$bin" stalls -i 0.5 -t 3 --json >"$work/out" 2>"$work/err"; then
	if python3 - "$work/out" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == 2 and d["interval"] == 0.5, d
assert d["taskstats_version"] >= 8 and d["processes"] > 0, d
for t in d["tasks"]:
    assert set(t) == {"pid", "comm", "reclaim", "thrashing", "swapin", "compact"}, t
    assert all(set(t[k]) == {"count", "delay_ms"} for k in ("reclaim", "thrashing", "swapin", "compact"))
PY
		result ok "stalls --json: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["processes"], "processes, version", d["taskstats_version"])' "$work/out")"
	else
		result fail "stalls --json document"
	fi
else
	result fail "stalls --json exited non-zero: $(cat "$work/err")"
fi

# The table options: -o's columns in its order, -n -r bare numbers. A machine
# where no process ever waited has no table, only the line that says so.
rc=0
"$bin" stalls -i 0 -t 5 -o PID,RECLAIM_MS,COMMAND >"$work/out" 2>"$work/err" || rc=$?
if [ $rc = 0 ] && grep -q '^no process was delayed' "$work/out"; then
	result ok "stalls -o: no process delayed on this machine, no table"
elif [ $rc = 0 ] && [ "$(sed -n 2p "$work/out" | tr -s ' ' | sed 's/^ //')" = "PID RECLAIM_MS COMMAND" ]; then
	result ok "stalls -o PID,RECLAIM_MS,COMMAND: the header in that order"
else
	result fail "stalls -o: exit $rc, $(head -3 "$work/out") $(cat "$work/err")"
fi
rc=0
"$bin" stalls -i 0 -t 5 -n -r -o PID,RECLAIMS >"$work/out" 2>"$work/err" || rc=$?
# the rows alone: no title line, no header, nothing when no process waited
if [ $rc = 0 ] && ! grep -qvE '^[0-9]+ [0-9]+$' "$work/out"; then
	result ok "stalls -n -r -o PID,RECLAIMS: $(wc -l <"$work/out") rows of bare numbers, no title, no header"
else
	result fail "stalls -n -r: exit $rc, $(head -3 "$work/out") $(cat "$work/err")"
fi

if command -v setpriv >/dev/null; then
	rc=0
	setpriv --bounding-set -net_admin "$bin" stalls -i 0 >/dev/null 2>"$work/err" || rc=$?
	if [ $rc = 1 ] && grep -q CAP_NET_ADMIN "$work/err"; then
		result ok "without CAP_NET_ADMIN: $(cat "$work/err")"
	else
		result fail "without CAP_NET_ADMIN: exit $rc, $(cat "$work/err")"
	fi
fi

echo 0 >"$knob"
rc=0
"$bin" stalls -i 0.2 >/dev/null 2>"$work/err" || rc=$?
[ $rc = 1 ] && grep -q 'task_delayacct = 0' "$work/err" && result ok "delay accounting off: exit 1 and how to turn it on" ||
	result fail "delay accounting off: exit $rc, $(cat "$work/err")"
"$bin" stalls -i 0.2 --enable >/dev/null 2>"$work/err" && [ "$(cat "$knob")" = 0 ] &&
	result ok "--enable: on for the run, off after" || result fail "--enable: $(cat "$work/err"), now $(cat "$knob")"
"$bin" stalls -i 30 --enable >/dev/null 2>"$work/err" &
pid=$!
for _ in $(seq 50); do [ "$(cat "$knob")" = 1 ] && break; sleep 0.1; done
on=$(cat "$knob")
kill -INT $pid
wait $pid
rc=$?
[ "$on" = 1 ] && [ $rc = 1 ] && [ "$(cat "$knob")" = 0 ] && grep -q interrupted "$work/err" &&
	result ok "--enable then Ctrl-C: off again" || result fail "--enable then Ctrl-C: was $on, exit $rc, now $(cat "$knob")"

tap_end stalls
