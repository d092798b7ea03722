#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Renders a report of reclaimctl in headless Chromium and checks what the
# browser made of it: every chart is an SVG of real size, with series that
# have the points the report says (data-points) and a drawn extent, and the
# summary table is there. A test-only wrapper page loads the report in an
# iframe and measures it with a script; the report itself has none.
#
#   check-browser.sh REPORT.html [SCREENSHOT.png] [MIN_POINTS] [MIN_LATENCY_POINTS]
# MIN_POINTS (default 2): the least points the pgscan_kswapd series of each run
# must have; MIN_LATENCY_POINTS (default 0: a recording without --latency)
# those of its direct_p99_us in the latency chart. Exit status 0 pass, 1
# fail, 77 (skip) without chromium.
set -euo pipefail

report=$(readlink -f "${1:?usage: check-browser.sh REPORT.html [SCREENSHOT.png] [MIN_POINTS] [MIN_LATENCY_POINTS]}")
shot=${2:-}
min_points=${3:-2}
min_latency=${4:-0}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
	echo "check-browser: no chromium (Debian package chromium; scripts/deps.sh test installs it)"
	exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$report" "$work/report.html"
cat >"$work/measure.html" <<'HTML'
<!DOCTYPE html>
<html><body>
<iframe id="f" src="report.html" width="1300" height="4000"></iframe>
<pre id="result">pending</pre>
<script>
window.addEventListener('load', () => {
  const d = document.getElementById('f').contentDocument;
  const out = {charts: [], rows: d.querySelectorAll('#summary tr').length};
  for (const svg of d.querySelectorAll('svg.chart')) {
    const box = svg.getBoundingClientRect();
    const series = [...svg.querySelectorAll('polyline.series')].map(p => {
      const b = p.getBBox();
      return {name: p.dataset.series, declared: +p.dataset.points,
              points: p.points.numberOfItems, width: b.width, height: b.height};
    });
    out.charts.push({chart: svg.dataset.chart, run: +svg.dataset.run,
                     width: box.width, height: box.height, series});
  }
  document.getElementById('result').textContent = JSON.stringify(out);
});
</script>
</body></html>
HTML

flags=(--headless --no-sandbox --disable-gpu --disable-background-networking
	--disable-component-update --disable-sync --no-first-run --allow-file-access-from-files
	--user-data-dir="$work/profile" --virtual-time-budget=5000)
timeout 120 "$chromium" "${flags[@]}" --dump-dom "file://$work/measure.html" \
	>"$work/dom.html" 2>"$work/chromium.log" || {
	echo "check-browser: chromium failed:"
	tail -20 "$work/chromium.log"
	exit 1
}
if [ -n "$shot" ]; then
	timeout 120 "$chromium" "${flags[@]}" --window-size=1300,3400 --screenshot="$shot" \
		"file://$work/report.html" >/dev/null 2>>"$work/chromium.log"
	[ -s "$shot" ] || { echo "check-browser: no screenshot $shot"; exit 1; }
	echo "check-browser: screenshot $shot"
fi

python3 - "$work/dom.html" "$min_points" "$min_latency" <<'PY'
import html, json, re, sys
dom = open(sys.argv[1]).read()
min_points = int(sys.argv[2])
min_latency = int(sys.argv[3])
m = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
if not m or m.group(1) == "pending":
    print("FAIL: the measuring script did not run (no result in the DOM)")
    sys.exit(1)
res = json.loads(html.unescape(m.group(1)))
errors = []
charts = res["charts"]
kinds = sorted({c["chart"] for c in charts})
if kinds != ["kswapd", "latency", "pgscan", "psi", "stalls", "swap"]:
    errors.append(f"chart kinds {kinds}")
runs = sorted({c["run"] for c in charts})
if len(charts) != 6 * len(runs):
    errors.append(f"{len(charts)} charts for {len(runs)} runs")
if res["rows"] < 20:
    errors.append(f"summary table has {res['rows']} rows")
for c in charts:
    where = f"{c['chart']} of run {c['run']}"
    if c["width"] < 300 or c["height"] < 150:
        errors.append(f"{where}: rendered {c['width']}x{c['height']}")
    if not c["series"]:
        errors.append(f"{where}: no series")
    for s in c["series"]:
        if s["points"] != s["declared"]:
            errors.append(f"{where} {s['name']}: {s['points']} points, data-points {s['declared']}")
        if s["points"] >= 2 and s["width"] <= 0:
            errors.append(f"{where} {s['name']}: drawn {s['width']} wide")
    if c["chart"] == "pgscan":
        scan = [s for s in c["series"] if s["name"] == "pgscan_kswapd"]
        if not scan or scan[0]["points"] < min_points:
            errors.append(f"{where}: pgscan_kswapd has {scan and scan[0]['points']} points, want >= {min_points}")
    if c["chart"] == "latency" and min_latency:
        p99 = [s for s in c["series"] if s["name"] == "direct_p99_us"]
        if not p99 or p99[0]["points"] < min_latency:
            errors.append(f"{where}: direct_p99_us has {p99 and p99[0]['points']} points, want >= {min_latency}")
for e in errors:
    print("FAIL:", e)
total = sum(s["points"] for c in charts for s in c["series"])
print(f"check-browser: {len(charts)} charts, {total} points, {res['rows']} summary rows; {len(errors)} failure(s)")
sys.exit(1 if errors else 0)
PY
