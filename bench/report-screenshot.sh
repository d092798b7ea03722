#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A picture of `reclaimctl report`: renders one or more record files into
# an HTML page and takes a full-page screenshot with headless Chromium.
#
#   bench/report-screenshot.sh [-o OUT.png] [RECORD.jsonl...]
#
# Without record files it uses the run recorded in the test VM under memory
# pressure (tests/fixtures/records/vm-pressure.jsonl). Give two files to see
# runs side by side. RECLAIMCTL (default ./build/cli/reclaimctl) and
# CHROMIUM (default chromium) may be set in the environment.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
out=report.png
while getopts o:h opt; do
	case $opt in
	o) out=$OPTARG ;;
	*)
		sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//'
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- "$here/tests/fixtures/records/vm-pressure.jsonl"
reclaimctl=${RECLAIMCTL:-$here/build/cli/reclaimctl}
chromium=${CHROMIUM:-chromium}
[ -x "$reclaimctl" ] || { echo "no $reclaimctl: build first, or set RECLAIMCTL" >&2; exit 1; }
command -v "$chromium" >/dev/null || { echo "no $chromium (Debian package chromium)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$reclaimctl" report "$@" --html "$work/report.html"
# tall enough for the summary and the five charts
"$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run \
	--user-data-dir="$work/profile" --window-size=$((700 * ($# > 1 ? 2 : 1) + 100)),2900 \
	--screenshot="$(readlink -f "$(dirname "$out")")/$(basename "$out")" \
	"file://$work/report.html" 2>/dev/null
echo "$out"
