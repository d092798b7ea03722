#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-long.py RECLAIMCTL [--no-rss] - report and adapt --replay on a long recording.

A recording of 100,000 samples (made here: a few raw counters, a kswapd
thread, direct reclaims' latency buckets, and a spike, the kswapd peak and
the longest direct reclaim at one sample; 26 MB), then:
  - report: each chart's series has at most 4 points a pixel column (1924),
    the spike of one sample is drawn (the scale reaches it), and the summary
    is exact: the totals of the counters, the samples, the kswapd peak, the
    p99 of the merged buckets and the longest direct reclaim;
  - adapt --replay: every sample replayed, the summary line;
  - both: peak RSS (wait4) under 32 MiB, where holding the samples took
    hundreds (not checked with --no-rss: a sanitizer's shadow memory and
    quarantine grow with what was freed).
Prints TAP.
"""
import os
import re
import subprocess
import sys
import tempfile

from tap import done, result

SAMPLES = 100000
RSS_MAX_KIB = 32 * 1024
COLUMNS = 481  # x = 0 to 480
SPIKE = SAMPLES * 2 // 3  # the sample whose pgscan_kswapd jumps by 10^6 in its second
LONGEST = 700000  # us, the direct reclaim of that sample (bucket 20); the others take 12

reclaimctl = sys.argv[1]
check_rss = "--no-rss" not in sys.argv[2:]


def write_recording(path):
    """Counters only (the reader computes the rates); kswapd_cpu_percent recorded."""
    scan = direct = fast = 0
    with open(path, "w") as f:
        f.write('{"type":"header","schema":1,"interval":1,"command":null,'
                '"topology":[{"node":0,"cpus":4,"memory":true}],"knobs":{"kswapd_threads":1}}\n')
        for i in range(SAMPLES):
            scan += 1000 + (i % 7) * 100 + (10 ** 6 if i == SPIKE else 0)
            direct += i % 3
            cpu = 97.5 if i == SPIKE else (i % 50) + 0.25
            fast += 10
            slow = '"20":1' if i >= SPIKE else ""
            f.write(f'{{"type":"sample","elapsed":{i},"kswapd_cpu_percent":{cpu if i else "null"},'
                    f'"counters":{{"pgscan_kswapd":{scan},"pgscan_direct":{direct},'
                    f'"pswpout":{2 * i}}},"threads":[{{"pid":40,"name":"kswapd0","node":0,'
                    f'"cpu_seconds":{i * 0.25:.2f}}}],'
                    f'"latency":{{"direct":{{"total_us":{fast * 12},'
                    f'"max_us":{LONGEST if i >= SPIKE else 15},'
                    f'"buckets":{{"4":{fast}{"," if slow else ""}{slow}}}}}}}}}\n')
        f.write(f'{{"type":"end","elapsed":{SAMPLES - 1},"samples":{SAMPLES},'
                f'"exit_status":null,"signal":null,"wall_seconds":null}}\n')
    first = 1000
    return {"pgscan_kswapd": scan - first, "pgscan_direct": direct, "pswpout": 2 * (SAMPLES - 1)}


def run(args):
    """exit status, stdout, stderr and peak RSS in KiB of one reclaimctl run."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([reclaimctl] + args, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return p.returncode, out.read().decode(), err.read().decode(), usage.ru_maxrss


def row(html, key):
    m = re.search(rf'<tr data-key="{key}">.*?</tr>', html)
    return m.group(0) if m else ""


with tempfile.TemporaryDirectory() as tmp:
    rec, page = os.path.join(tmp, "long.jsonl"), os.path.join(tmp, "long.html")
    totals = write_recording(rec)

    code, _, err, rss = run(["report", rec, "--html", page])
    result(code == 0 and err == "", "report of 100,000 samples", f"{code} {err}")
    html = open(page).read() if code == 0 else ""
    points = dict(re.findall(r'data-series="([^"]+)" data-points="(\d+)"', html))
    drawn = [int(points.get(k, 0)) for k in ("pgscan_kswapd", "kswapd0", "pswpout",
                                              "direct_p99_us")]
    result(len(points) == 11 and max(int(n) for n in points.values()) <= 4 * COLUMNS and
           min(drawn) >= COLUMNS, f"every series drawn with at most {4 * COLUMNS} points",
           points)
    chart = re.findall(r'<svg class="chart" data-chart="pgscan".*?</svg>', html, re.S)
    ticks = re.findall(r'class="tick"[^>]*text-anchor="end">([^<]+)</text>', chart[0]) if chart else []
    result(ticks[-1:] == ["2M"], "the pgscan chart's scale reaches the one-sample spike", ticks)
    for key, total in totals.items():
        result(f"<td>{total}<br>" in row(html, key), f"the total of {key} is exact",
               row(html, key))
    result(f"{SAMPLES} samples every 1 s" in row(html, "duration"), "the samples counted",
           row(html, "duration"))
    result("peak 97.5 %" in row(html, "kswapd_cpu_seconds"), "the kswapd peak of one sample",
           row(html, "kswapd_cpu_seconds"))
    result("<td>16 us<br>" in row(html, "direct_p99_us"),
           "the run's p99: of all intervals' buckets merged", row(html, "direct_p99_us"))
    result(f"<td>{LONGEST} us<br>" in row(html, "direct_max_us"),
           "the longest direct reclaim of one sample", row(html, "direct_max_us"))
    if check_rss:
        result(rss < RSS_MAX_KIB, f"report: peak RSS {rss} KiB < {RSS_MAX_KIB}")

    code, out, err, rss = run(["adapt", "--replay", rec])
    result(code == 0 and out.startswith(f"{SAMPLES} samples over {SAMPLES - 1:.1f} s"),
           "adapt --replay of 100,000 samples", f"{code} {out[-300:]} {err}")
    if check_rss:
        result(rss < RSS_MAX_KIB, f"adapt --replay: peak RSS {rss} KiB < {RSS_MAX_KIB}")

done("long recording")
