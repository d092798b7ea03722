#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The host half of the VM scenario "reporting": takes the record file the
# guest printed on its console (gzip + base64 between the lines
# "RECLAIMCTL-VM-FILE-BEGIN run.jsonl.gz.b64" and "RECLAIMCTL-VM-FILE-END ..."),
# renders it with this build's reclaimctl report, and checks the page in
# headless Chromium (check-browser.sh), keeping a screenshot.
#
#   render-vm-record.sh RECLAIMCTL CONSOLE_LOG OUT_DIR
# Writes OUT_DIR/vm-run.jsonl, vm-report.html and vm-report.png.
# Exit status 0 pass, 1 fail, 77 (skip) without chromium.
set -euo pipefail

bin=${1:?usage: render-vm-record.sh RECLAIMCTL CONSOLE_LOG OUT_DIR}
log=${2:?usage: render-vm-record.sh RECLAIMCTL CONSOLE_LOG OUT_DIR}
out=${3:?usage: render-vm-record.sh RECLAIMCTL CONSOLE_LOG OUT_DIR}
here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")

[ -f "$log" ] || { echo "render-vm-record: no console log $log (run the VM scenario reporting first)"; exit 1; }
mkdir -p "$out"
tr -d '\r' <"$log" |
	sed -n '/^RECLAIMCTL-VM-FILE-BEGIN run.jsonl.gz.b64$/,/^RECLAIMCTL-VM-FILE-END run.jsonl.gz.b64$/p' |
	sed '1d;$d' | base64 -d | gunzip >"$out/vm-run.jsonl" || {
	echo "render-vm-record: no complete record file between the markers in $log"
	exit 1
}
lines=$(wc -l <"$out/vm-run.jsonl")
echo "render-vm-record: $out/vm-run.jsonl: $lines lines from the guest"
grep -q '"type":"end"' "$out/vm-run.jsonl" || { echo "render-vm-record: the record has no end line"; exit 1; }
"$bin" report "$out/vm-run.jsonl" --html "$out/vm-report.html"
# a real run under pressure, recorded with --latency: at least 5 points in
# each run's scan chart, 3 in its direct reclaims' p99
exec "$here/check-browser.sh" "$out/vm-report.html" "$out/vm-report.png" 5 3
