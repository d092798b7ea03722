#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# report-memory.sh - peak RSS and wall time of reclaimctl report and
# adapt --replay on a long recording (see bench/README.md).
#
# Usage: bench/report-memory.sh [RECLAIMCTL...]
#   RECLAIMCTL  the binary (default: build/cli/reclaimctl); several are
#               measured one after the other on the same recording
# Environment: SIZE (350) of the recording in MB; RECORD, a recording to
# repeat (default tests/fixtures/records/vm-hog-threads1.jsonl); TMPDIR for
# the recording and the page (SIZE and a few MB of free space); KEEP=1
# leaves them there (the directory is printed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- "$here/../build/cli/reclaimctl"
size=${SIZE:-350}
record=${RECORD:-$here/../tests/fixtures/records/vm-hog-threads1.jsonl}
work=$(mktemp -d)
if [ -n "${KEEP:-}" ]; then
	echo "kept in $work"
else
	trap 'rm -rf "$work"' EXIT
fi

# The samples of RECORD over and over, each repetition after the one before:
# the first sample's values are the seam (the repetitions after the first
# start from the second sample), times, counters, CPU seconds and PSI totals
# go on from where the last one ended, so the rates stay those recorded.
python3 - "$record" "$work/long.jsonl" "$size" <<'PY'
import json, sys

src, dst, size = sys.argv[1], sys.argv[2], int(sys.argv[3]) * 1000 * 1000
lines = [json.loads(line) for line in open(src) if line.strip()]
header = next(o for o in lines if o["type"] == "header")
samples = [o for o in lines if o["type"] == "sample"]
end = next((o for o in lines if o["type"] == "end"), None)
first, last = samples[0], samples[-1]
TOTALS = ("psi_some_total_us", "psi_full_total_us")


def step(key, o=last, f=first):
    return (o.get(key) or 0) - (f.get(key) or 0)


period = {k: step(k) for k in ("elapsed", "epoch", "timestamp") + TOTALS}
counters = {k: v - first["counters"].get(k, 0) for k, v in last["counters"].items()}
threads = {t["name"]: t["cpu_seconds"] - next(
    (f["cpu_seconds"] for f in first["threads"] if f["name"] == t["name"]), 0)
    for t in last["threads"]}


def shifted(o, k):
    o = json.loads(json.dumps(o))
    for key, p in period.items():
        if isinstance(o.get(key), (int, float)):
            o[key] = round(o[key] + k * p, 3)
    for key, p in counters.items():
        o["counters"][key] += k * p
    for t in o["threads"]:
        t["cpu_seconds"] = round(t["cpu_seconds"] + k * threads.get(t["name"], 0), 2)
    return o


written, n, k = 0, 0, 0
with open(dst, "w") as out:
    out.write(json.dumps(header, separators=(",", ":")) + "\n")
    while written < size:
        for o in (samples if k == 0 else samples[1:]):
            line = json.dumps(shifted(o, k), separators=(",", ":")) + "\n"
            out.write(line)
            written += len(line)
            n += 1
        k += 1
    if end:
        end = dict(end, samples=n, elapsed=round(end["elapsed"] + (k - 1) * period["elapsed"], 3))
        if isinstance(end.get("wall_seconds"), (int, float)):
            end["wall_seconds"] = end["elapsed"]
        out.write(json.dumps(end, separators=(",", ":")) + "\n")
print(f"{dst}: {written / 1e6:.0f} MB, {n} samples over {k * period['elapsed']:.0f} s "
      f"({k} times {src.rsplit('/', 1)[-1]})")
PY

# peak RSS in KiB, wall and CPU (user + system) seconds of one command
measure() {
	local label=$1
	shift
	/usr/bin/time -f '%M %e %U %S' -o "$work/time" "$reclaimctl" "$@" >"$work/out" 2>"$work/err" ||
		{ cat "$work/err" >&2; exit 1; }
	read -r rss wall user sys <"$work/time"
	printf "%-16s %8s KiB %7s s %7.2f s\n" "$label" "$rss" "$wall" \
		"$(awk "BEGIN { print $user + $sys }")"
}

for reclaimctl in "$@"; do
	echo "$reclaimctl"
	printf "%-16s %12s %9s %9s\n" "" "peak RSS" "wall" "CPU"
	measure "report" report "$work/long.jsonl" --html "$work/report.html"
	printf "%-16s %8s KiB\n" "  (the page)" "$(($(stat -c %s "$work/report.html") / 1024))"
	measure "adapt --replay" adapt --replay "$work/long.jsonl"
	tail -n 1 "$work/out"
	# the test VM's thresholds (README): 4 changes in each repetition, all printed at the end
	measure "  with changes" adapt --replay "$work/long.jsonl" --max 3 --up-cpu 15 \
		--up-direct 0 --up-window 3 --down-cpu 10 --down-psi 30 --down-window 8 --cooldown 4
	tail -n 1 "$work/out"
done
