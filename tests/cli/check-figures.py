#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The catalogue of figures and its consumers.

Walks `reclaimctl --json figures` (the library's catalogue) and checks that
every figure appears, under its catalogue key and unit, in monitor --json,
in a recording, in the report page, in sweep's summary and in the
Prometheus output; then that a recording is read honestly: one holding the
raw counters but not the rates replays to the decisions and totals of the
same recording with them, one holding neither is refused (adapt --replay)
or said (report) in one line naming the file and the figures, and a newer
record format is refused.

Usage: check-figures.py RECLAIMCTL FIXTURES
"""

import csv
import json
import os
import re
import subprocess
import sys

import checker

PATCHED = "patched-2node-3threads"


class Checker(checker.Checker):
    def __init__(self, reclaimctl, fixtures):
        super().__init__(reclaimctl, fixtures, "figures")
        self.figures = json.loads(self.run("--json", "figures").stdout)["figures"]
        self.records = os.path.join(fixtures, "records")

    def run(self, *args, root=None, ok=True):
        cmd = [self.reclaimctl] + (["--sysroot", root] if root else []) + list(args)
        p = subprocess.run(cmd, capture_output=True, text=True, env=self.env, timeout=120)
        if ok and p.returncode != 0:
            raise checker.Failed(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
        return p

    def path(self, name):
        return os.path.join(self.tmp, name)

    def test_catalogue(self):
        keys = [f["key"] for f in self.figures]
        self.expect(len(keys) >= 13 and len(set(keys)) == len(keys), f"keys {keys}")
        for f in self.figures:
            self.expect(all(f[k] for k in ("unit", "total_key", "total_unit", "label",
                                           "column", "metric", "origin")),
                        f"{f['key']}: an empty field in {f}")
            self.expect(f["kind"] in ("rate", "cpu-sum", "cpu-max", "pressure", "latency"),
                        f"{f['key']}: kind {f['kind']}")
            self.expect((f["kind"] == "rate") == bool(f["vmstat"]),
                        f"{f['key']}: vmstat sources {f['vmstat']} of a {f['kind']}")
        table = self.run("figures", "-n", "-o", "KEY").stdout.split()
        self.expect(table == keys, f"the table and --json list other figures: {table}")

    def test_monitor(self):
        root = self.root(PATCHED)
        p = self.run("--json", "monitor", "-i", "0.05", "-c", "2", "--per-node", root=root)
        lines = [json.loads(x) for x in p.stdout.splitlines()]
        self.expect(len(lines) == 2, f"monitor printed {len(lines)} lines")
        for f in self.figures:
            self.expect(f["key"] in lines[-1], f"monitor --json lacks {f['key']}")
            for n in lines[-1]["nodes"]:
                self.expect((f["key"] in n) == f["per_node"],
                            f"monitor --json node {n['node']}: {f['key']} "
                            f"{'missing' if f['per_node'] else 'present'}")

    def record(self, root, name):
        out = self.path(name)
        self.run("record", "-i", "0.05", "-d", "0.3", "--file", out, root=root)
        with open(out) as fp:
            return out, [json.loads(x) for x in fp]

    def test_recording_and_report(self):
        out, lines = self.record(self.root(PATCHED), "rec.jsonl")
        units = lines[0].get("units", {})
        for f in self.figures:
            self.expect(units.get(f["key"]) == f["unit"],
                        f"record header: unit of {f['key']} is {units.get(f['key'])!r}")
            self.expect(all(f["key"] in s for s in lines if s["type"] == "sample"),
                        f"record: a sample lacks {f['key']}")
        html = self.path("rec.html")
        p = self.run("report", out, "--html", html)
        self.expect(p.stderr == "", f"report of a whole recording said {p.stderr!r}")
        page = open(html).read()
        for f in self.figures:
            row = re.search(r'<tr data-key="%s"><th scope="row">([^<]*)</th>' %
                            re.escape(f["total_key"]), page)
            self.expect(row and row.group(1) == f["label"],
                        f"report: the row of {f['total_key']}: {row and row.group(1)!r}")

    def test_sweep(self):
        root, out = self.root(PATCHED), self.path("sweep")
        p = self.run("--json", "sweep", "throttle=3,5", "-i", "0.05", "--dir", out, "--",
                     "sh", "-c", "sleep 0.2", root=root)
        doc = json.loads(p.stdout)
        for f in self.figures:
            key = f["total_key"]
            self.expect(doc["units"].get(key) == f["total_unit"],
                        f"summary.json: unit of {key} is {doc['units'].get(key)!r}")
            self.expect(all(key in v["figures"] for v in doc["values"]),
                        f"summary.json: a value lacks {key}")
            self.expect(all(key in r["figures"] for r in doc["runs"]),
                        f"summary.json: a run lacks {key}")
        with open(os.path.join(out, "summary.csv")) as fp:
            header = next(csv.reader(fp))
        page = open(os.path.join(out, "report.html")).read()
        text = self.run("sweep", "throttle=3", "-i", "0.05", "--dir", out, "--", "true",
                        root=root).stdout
        columns = text.splitlines()[-2].split()
        for f in self.figures:
            self.expect(f"{f['total_key']}_median" in header, f"summary.csv lacks {f['total_key']}")
            self.expect(f'data-key="{f["total_key"]}"' in page,
                        f"sweep's report.html lacks {f['total_key']}")
            self.expect(f["column"] in columns, f"sweep's table lacks {f['column']}: {columns}")

    def test_prometheus(self):
        text = self.run("status", "--prometheus", root=self.root(PATCHED)).stdout
        families = set(re.findall(r"^# TYPE (\S+) ", text, re.M))
        for f in self.figures:
            if f["kind"] == "latency":
                # latency --prometheus's, traced on the running kernel: the VM's
                # scenario latency checks them
                self.expect(f["metric"] not in families,
                            f"{f['metric']}: in status, which traces nothing")
            elif f["exporter"] == "node_exporter":
                self.expect(f["metric"] not in families,
                            f"{f['metric']} is node_exporter's, but exported again")
            else:
                self.expect(f["metric"] in families, f"Prometheus output lacks {f['metric']}")
                self.expect(f["metric"].startswith("reclaim_"), f"{f['metric']}: not ours")

    def test_latency_recording(self):
        """A recording made with --latency in the VM: the run's p99 in report is that
        of the buckets from the first sample to the last (at most the longest),
        its longest the largest of the samples', and a copy without the figures'
        keys reads the same."""
        src = os.path.join(self.records, "vm-latency.jsonl")
        with open(src) as fp:
            samples = [o for o in map(json.loads, fp) if o["type"] == "sample"]
        first, last = (s["latency"]["direct"] for s in (samples[0], samples[-1]))
        delta = [last["buckets"].get(str(k), 0) - first["buckets"].get(str(k), 0)
                 for k in range(40)]
        n, seen, p99 = sum(delta), 0, 0
        for k, c in enumerate(delta):
            seen += c
            if seen * 1000 >= n * 990:
                p99 = 1 << k
                break
        self.expect(n > 0 and min(delta) >= 0, f"the recording's direct reclaims: {delta}")
        longest = max(s["latency"]["direct"]["max_us"] for s in samples[1:])
        # a percentile is its bucket's upper end, but never above the longest
        p99 = min(p99, longest)
        pages = []
        for f in (src, self.strip(src, "lat-bare.jsonl", counters=True)):
            html = self.path(os.path.basename(f) + ".html")
            self.run("report", f, "--html", html)
            pages.append(open(html).read())
        for key, want in (("direct_p99_us", p99), ("direct_max_us", longest),
                          ("throttle_p99_us", 0)):
            cell = re.search(r'<tr data-key="%s">.*?<td>([0-9]+) us<br>' % key, pages[0])
            self.expect(cell and int(cell.group(1)) == want,
                        f"report: {key} is {cell and cell.group(1)}, want {want}")
        points = re.findall(r'data-series="direct_p99_us" data-points="(\d+)"', pages[0])
        self.expect(points and int(points[0]) == len(samples) - 1,
                    f"report: the latency chart's points {points}, {len(samples) - 1} intervals")
        def latency_parts(page):
            rows = [re.search(r'<tr data-key="%s">.*?</tr>' % k, page).group(0)
                    for k in ("direct_p99_us", "direct_max_us", "throttle_p99_us")]
            return rows + re.findall(r'<polyline[^>]*data-series="(?:direct|throttle)_p99_us"'
                                     r'[^>]*>', page)
        self.expect(latency_parts(pages[0]) == latency_parts(pages[1]),
                    "report: a copy without the figures' keys (computed from the latency "
                    "object) has the same latency rows and chart")

    # ---- reading recordings ----

    def strip(self, src, name, counters):
        """src without the rates, the threads' CPU use and the intervals; without
        counters: without PSI's readings and the raw counters and threads too."""
        keys = {f["key"] for f in self.figures if f["kind"] != "pressure" or not counters}
        keys.add("interval")
        out = self.path(name)
        with open(src) as fi, open(out, "w") as fo:
            for line in fi:
                o = json.loads(line)
                if o["type"] == "sample":
                    for k in keys:
                        o.pop(k, None)
                    for t in o.get("threads", []):
                        t.pop("cpu_percent", None)
                    if not counters:
                        o.pop("counters", None)
                        o.pop("threads", None)
                        o.pop("psi_some_total_us", None)
                        o.pop("psi_full_total_us", None)
                fo.write(json.dumps(o) + "\n")
        return out

    VM_OPTIONS = ["--max", "3", "--up-cpu", "15", "--up-direct", "0", "--up-window", "3",
                  "--down-cpu", "10", "--down-psi", "30", "--down-window", "8", "--cooldown", "4"]

    def test_replay_counters_only(self):
        changes = 0
        for rec in ("vm-pressure.jsonl", "vm-hog-threads1.jsonl", "vm-quiet.jsonl"):
            src = os.path.join(self.records, rec)
            bare = self.strip(src, "bare-" + rec, counters=True)
            for opts in ([], self.VM_OPTIONS):
                want = self.run("adapt", "--replay", src, *opts).stdout
                got = self.run("adapt", "--replay", bare, *opts).stdout
                self.expect(got == want,
                            f"{rec} {opts}: replay without rates:\n{got}\nwith them:\n{want}")
                changes += len(re.findall(r"kswapd_threads \d+ -> \d+", want))
        self.expect(changes >= 4, f"the recordings make {changes} changes: nothing compared")

    def test_replay_counters_only_synthetic(self):
        """Two busy kswapd threads and 117 direct reclaims/s, as raw counters only."""
        out = self.path("busy.jsonl")
        header = {"type": "header", "schema": 1, "interval": 1, "command": None,
                  "topology": [{"node": n, "cpus": 16, "memory": True} for n in (0, 1)],
                  "knobs": {"kswapd_threads": 1}}
        with open(out, "w") as fo:
            fo.write(json.dumps(header) + "\n")
            for i in range(120):
                fo.write(json.dumps({
                    "type": "sample", "timestamp": 1.8e9 + i, "elapsed": i,
                    "counters": {"allocstall_normal": 117 * i, "pgscan_kswapd": 9000 * i,
                                 "pgscan_direct": 800 * i, "pgsteal_kswapd": 8000 * i,
                                 "pgsteal_direct": 700 * i},
                    "threads": [{"pid": 40 + n, "name": f"kswapd{n}", "node": n,
                                 "cpu_seconds": round(0.98 * i, 2)} for n in (0, 1)]}) + "\n")
        p = self.run("adapt", "--replay", out)
        m = re.search(r"(\d+) changes?; kswapd_threads 1 at the start, (\d+) at most", p.stdout)
        self.expect(m and int(m.group(1)) >= 1 and int(m.group(2)) >= 2,
                    f"a busy recording of counters only: {p.stdout!r} {p.stderr!r}")
        self.expect("kswapd0 98.0%" in p.stdout or "98" in p.stdout,
                    f"the reason does not show the threads' CPU: {p.stdout!r}")

    def synthetic(self, name, cpu, seconds=400, burst=(20, 120)):
        """A recording of counters only: 2 nodes, kswapd_threads 1, watermark_scale_factor 10;
        during @burst (seconds) 30 direct reclaims/s and 5 early kswapd wake-ups/s with each
        kswapd thread at @cpu % of a CPU, idle before and after."""
        out = self.path(name)
        header = {"type": "header", "schema": 1, "interval": 1, "command": None,
                  "topology": [{"node": n, "cpus": 16, "memory": True} for n in (0, 1)],
                  "knobs": {"kswapd_threads": 1, "watermark_scale_factor": 10}}
        stall = hits = busy = 0.0
        with open(out, "w") as fo:
            fo.write(json.dumps(header) + "\n")
            for i in range(seconds):
                if burst[0] < i <= burst[1]:
                    stall, hits, busy = stall + 30, hits + 5, busy + cpu / 100
                fo.write(json.dumps({
                    "type": "sample", "timestamp": 1.8e9 + i, "elapsed": i,
                    "counters": {"allocstall_normal": stall, "pgscan_kswapd": 9000 * i,
                                 "pgscan_direct": 0, "pgsteal_kswapd": 8000 * i,
                                 "pgsteal_direct": 0, "kswapd_low_wmark_hit_quickly": hits},
                    "threads": [{"pid": 40 + n, "name": f"kswapd{n}", "node": n,
                                 "cpu_seconds": round(busy, 2)} for n in (0, 1)]}) + "\n")
        return out

    def test_replay_woke_too_late(self):
        """Direct reclaim and early wake-ups with kswapd at 40%: the watermark, not the threads."""
        p = self.run("adapt", "--replay", self.synthetic("late.jsonl", 40))
        lines = p.stdout.splitlines()
        want = ["watermark_scale_factor 10 -> 20: kswapd woke too late: 5 early wake-ups/s "
                "(kswapd_low_wmark_hit_quickly) and 30 direct reclaims/s for 30 s, kswapd "
                "threads at 40% CPU each (not saturated) -> watermark_scale_factor 20",
                "watermark_scale_factor 20 -> 30: kswapd woke too late:",
                "watermark_scale_factor 30 -> 20: quiet:",
                "watermark_scale_factor 20 -> 10: quiet:"]
        self.expect(len(lines) == 5 and all(w in l for w, l in zip(want, lines)),
                    f"woke too late: {p.stdout!r}")
        self.expect("kswapd_threads 1 at the start, 1 at most, 1 at the end; "
                    "watermark_scale_factor 10 at the start, 30 at most, 10 at the end"
                    in p.stdout, f"woke too late, the summary: {p.stdout!r}")

    def test_replay_saturated(self):
        """The same with kswapd at 98%: the threads, not the watermark."""
        p = self.run("adapt", "--replay", self.synthetic("saturated.jsonl", 98))
        self.expect("kswapd_threads 1 -> 2: kswapd saturated: node 0: kswapd threads at 98% "
                    "CPU each for 30 s, 30 direct reclaims/s -> 2 threads" in p.stdout
                    and "watermark_scale_factor 10 ->" not in p.stdout
                    and "watermark_scale_factor 10 at the start, 10 at most, 10 at the end"
                    in p.stdout, f"saturated: {p.stdout!r}")
        # --only watermark: a saturated kswapd is no case for the watermark either
        p = self.run("adapt", "--replay", self.path("saturated.jsonl"), "--only", "watermark")
        self.expect("0 changes; watermark_scale_factor 10 at the start" in p.stdout
                    and "kswapd_threads" not in p.stdout,
                    f"saturated, --only watermark: {p.stdout!r}")

    def test_report_counters_only(self):
        src = os.path.join(self.records, "vm-pressure.jsonl")
        bare = self.strip(src, "bare.jsonl", counters=True)
        pages = []
        for f in (src, bare):
            html = self.path(os.path.basename(f) + ".html")
            p = self.run("report", f, "--html", html)
            self.expect(p.stderr == "", f"report {f}: {p.stderr!r}")
            body = re.findall(r'(<tr data-key="(?!file)[^"]+">.*?</tr>)', open(html).read())
            pages.append(body)
        self.expect(pages[0] == pages[1], "report: the totals of a recording without rates "
                    "differ from those with them")

    def test_neither(self):
        src = os.path.join(self.records, "vm-pressure.jsonl")
        bare = self.strip(src, "neither.jsonl", counters=False)
        p = self.run("adapt", "--replay", bare, ok=False)
        lines = p.stderr.splitlines()
        self.expect(p.returncode == 1 and len(lines) == 1 and bare in lines[0] and
                    "allocstall" in lines[0] and p.stdout == "",
                    f"replay of a recording with neither rates nor counters: {p.returncode} "
                    f"{p.stdout!r} {p.stderr!r}")
        html = self.path("neither.html")
        p = self.run("report", bare, "--html", html)
        lines = p.stderr.splitlines()
        self.expect(len(lines) == 1 and bare in lines[0] and "pgscan_kswapd" in lines[0],
                    f"report of a recording with neither: {p.stderr!r}")
        row = re.search(r'<tr data-key="allocstall">.*?</tr>', open(html).read())
        self.expect(row and "<td>\u2014</td>" in row.group(0),
                    f"report: a figure with no source is not shown as unknown: {row}")

    def test_record_formats(self):
        """vm-quiet-schema2.jsonl is vm-quiet.jsonl in record format 2 (times as RFC
        3339 and epoch, not a number timestamp): report and adapt --replay read
        both alike, but for the file's name and the header's start as written."""
        pages, steps = [], []
        for name in ("vm-quiet.jsonl", "vm-quiet-schema2.jsonl"):
            src, html = os.path.join(self.records, name), self.path(name + ".html")
            with open(src) as f:
                head = json.loads(f.readline())
            self.expect(head["schema"] == (2 if "schema2" in name else 1),
                        f"{name}: schema {head['schema']}")
            self.run("report", src, "--html", html)
            with open(html) as f:
                page = f.read().replace(src, "FILE").replace(head["start"], "START")
            pages.append(page)
            steps.append(self.run("adapt", "--replay", src).stdout)
        self.expect(pages[0] == pages[1] and "START" in pages[0],
                    "report: the page of record format 2 is not that of format 1")
        self.expect(steps[0] == steps[1] and "27 samples over 25.1 s" in steps[0],
                    f"adapt --replay: format 2 gives {steps[1][:200]!r}, 1 {steps[0][:200]!r}")

    def test_newer_schema(self):
        src = os.path.join(self.records, "vm-quiet.jsonl")
        out = self.path("newer.jsonl")
        with open(src) as fi, open(out, "w") as fo:
            for i, line in enumerate(fi):
                o = json.loads(line)
                if i == 0:
                    o["schema"] = 3
                fo.write(json.dumps(o) + "\n")
        for args in (["adapt", "--replay", out], ["report", out, "--html", self.path("n.html")]):
            p = self.run(*args, ok=False)
            self.expect(p.returncode == 1 and p.stderr.count("\n") == 1 and
                        "record format 3 is newer" in p.stderr,
                        f"{args[0]} of schema 3: {p.returncode} {p.stderr!r}")
        self.expect(not os.path.exists(self.path("n.html")), "report wrote a page anyway")


if __name__ == "__main__":
    sys.exit(checker.run(Checker(os.path.abspath(sys.argv[1]), sys.argv[2]), "figures"))
