#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""reclaimctl sweep on copies of the fixture roots.

The command of each run reads the knob from the copy, so its "throughput"
says which value was set while it ran:
- interleaved: throttle=5,7 --repeat 2: runs 5,7,5,7, each value set during
  its run; the knob files back to their bytes from before; the history holds
  one change, a record per run (source sweep), then a restore of it that
  puts back the old value; summary.json and
  summary.csv: the metric parsed from the output (with its unit), medians,
  the ratio to the first value; report.html has the sweep's table and the
  charts of every run; 'reclaimctl report' reads a run's record file; no
  progress line on a pipe, and the first line says 'reclaimctl restore'
  undoes it;
- no-interleave: 5,5,7,7;
- failing: a command that exits 3 stops the sweep (exit 1), the run is failed
  in summary.json, the knobs are back; with --keep-going every run is made;
- sigint: Ctrl-C (SIGINT to the process group) mid-run: exit 130, the knobs
  back, summary.json says interrupted; SIGTERM to reclaimctl alone: passed
  on to the command, exit 143;
- pipe: | head -n1: SIGPIPE ignored, the failed write of the second run
  line ends the sweep (exit 1, one line), the knobs back;
- stubborn: a command ignoring INT, TERM and HUP: after SIGINT, a second
  signal or 10 s of grace end it with SIGKILL (its whole process group),
  the knobs back;
- overlap: a second sweep while one runs: exit 1, one line naming the
  first, nothing changed (not even the earlier files in its DIR); the
  first puts its knobs back and its state file goes;
- dead: a sweep killed with SIGKILL: the next sweep gives its knob back
  first (one line), runs, and leaves the knobs as they were before both;
- sigkill: reclaimctl killed in its third run: the command of the first
  line, 'reclaimctl --sysroot DIR restore', puts every knob back to its
  bytes from before; the history shows the sweep's one change, then the
  restore of it, a record a knob;
- stale: another change through reclaimctl during the first run: the
  second cannot join the sweep's change: exit 1, one line saying why, the
  knob the other change left alone put back, the one it set left as it is;
- usage: unknown knob, value out of range, no -o, no command, no KNOB=VALUES:
  exit 2, one line, nothing changed;
- unpatched: a knob the kernel lacks (unpatched-6.1): exit 1, one line,
  nothing changed;
- terminal: the progress line on a terminal (a pty).

usage: check-sweep.py RECLAIMCTL FIXTURES_DIR
"""
import contextlib
import csv
import json
import os
import pty
import shlex
import signal
import subprocess
import sys
import time

import checker
from checker import Failed

PATCHED = "patched-2node-3threads"
KNOBS = ("max_direct_reclaimers", "swap_round_robin_quota_kb", "kswapd_threads", "swappiness")
HISTORY = "run/reclaimctl/history"


def kill_group(proc):
    """Ends what is left of the process group of proc (started with
    start_new_session): none of it may be left, and it may be gone already."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


class Checker(checker.Checker):
    def __init__(self, reclaimctl, fixtures):
        super().__init__(reclaimctl, fixtures, "sweep")

    def root(self, name=PATCHED):
        return super().root(name)

    def knob_bytes(self, root):
        out = {}
        for k in KNOBS:
            try:
                with open(os.path.join(root, "proc/sys/vm", k), "rb") as f:
                    out[k] = f.read()
            except FileNotFoundError:
                out[k] = None
        return out

    def history(self, root):
        try:
            with open(os.path.join(root, HISTORY)) as f:
                # the records; a change's intent and done lines are comments
                return [dict(kv.split("=", 1) for kv in line.split()) for line in f
                        if not line.startswith("#")]
        except FileNotFoundError:
            return []

    def command(self, root):
        """A workload that prints the throttle it runs under as its throughput."""
        knob = os.path.join(root, "proc/sys/vm/max_direct_reclaimers")
        return ["sh", "-c", f'sleep 0.3; v=$(cat {shlex.quote(knob)}); '
                f'echo "1000 bytes copied, 0.1 s, $v GB/s"; echo "throttle $v"']

    def sweep(self, root, *args, timeout=120):
        cmd = [self.reclaimctl, "--sysroot", root, "sweep", *args]
        return subprocess.run(cmd, capture_output=True, text=True, env=self.env, timeout=timeout)

    def summary(self, out):
        with open(os.path.join(out, "summary.json")) as f:
            return json.load(f)

    def one_line(self, p, code, what):
        lines = p.stderr.strip().split("\n")
        self.expect(p.returncode == code and len(lines) == 1 and lines[0].startswith("reclaimctl: "),
                    f"{what}: exit {p.returncode} (expected {code}), stderr {p.stderr!r}")

    # -- the tests

    def test_interleaved(self):
        root = self.root()
        before = self.knob_bytes(root)
        out = os.path.join(self.tmp, "interleaved")
        p = self.sweep(root, "throttle=5,7", "--repeat", "2", "-i", "0.1",
                       "--metric", "bw=copied, [^,]*, ([0-9.]+ [kMG]?B)/s", "--dir", out, "--",
                       *self.command(root))
        self.expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
        first = p.stderr.split("\n")[0]
        undo = f"'reclaimctl --sysroot {root} restore' puts the knobs back"
        self.expect(first == f"reclaimctl: sweep: 4 runs; if interrupted, {undo}",
                    f"first line: {first!r}")
        self.expect("\r" not in p.stderr and "\033" not in p.stderr,
                    f"a progress line on a pipe: {p.stderr!r}")
        runs = [l for l in p.stdout.split("\n") if l.startswith("run ")]
        self.expect(runs == [f"run {i} of 4: throttle={v}: ok, " for i, v in
                             zip(range(1, 5), (5, 7, 5, 7))] or
                    [r.split(", ")[0] for r in runs] ==
                    [f"run {i} of 4: throttle={v}: ok" for i, v in zip(range(1, 5), (5, 7, 5, 7))],
                    f"run lines: {runs}")
        self.expect(self.knob_bytes(root) == before, f"knobs after: {self.knob_bytes(root)}, "
                    f"before {before}")
        # one change, a record a run, then the restore of it
        recs = self.history(root)
        news = [int(r["new"]) for r in recs if r["knob"] == "max_direct_reclaimers"]
        self.expect(news == [5, 7, 5, 7, 3], f"history: {recs}")
        self.expect([(r["change"], r["command"], r["source"], r.get("undoes")) for r in recs] ==
                    [("1", "set", "sweep", None)] * 4 + [("2", "restore", "change:1", "1")],
                    f"history: {recs}")
        self.expect("reclaimctl: sweep: vm.max_direct_reclaimers: 7 -> 3 (its value before "
                    "the sweep)" in p.stderr.split("\n"), f"stderr: {p.stderr!r}")
        hist = subprocess.run([self.reclaimctl, "--sysroot", root, "--json", "history"],
                              capture_output=True, text=True, env=self.env)
        self.expect(hist.returncode == 0 and len(json.loads(hist.stdout)["records"]) == 5,
                    f"history --json: {hist.stdout[:300]}")
        doc = self.summary(out)
        self.expect(doc["schema"] == 2 and doc["knobs"] == ["max_direct_reclaimers"]
                    and doc["before"] == {"max_direct_reclaimers": 3} and doc["repeat"] == 2
                    and doc["interleave"] is True and doc["metrics"] == ["bw"]
                    and doc["ratio_of"] == "bw" and doc["complete"] is True
                    and doc["interrupted"] is None, f"summary.json head: {json.dumps(doc)[:400]}")
        order = [(r["run"], r["value"], r["repetition"], r["status"]) for r in doc["runs"]]
        self.expect(order == [(1, "throttle=5", 1, "ok"), (2, "throttle=7", 1, "ok"),
                              (3, "throttle=5", 2, "ok"), (4, "throttle=7", 2, "ok")],
                    f"runs: {order}")
        for r in doc["runs"]:
            want = 5e9 if r["value"] == "throttle=5" else 7e9
            self.expect(r["figures"]["bw"] == want and r["exit_status"] == 0
                        and r["figures"]["wall_seconds"] >= 0.3,
                        f"run {r['run']}: {r}")
            self.expect(os.path.exists(os.path.join(out, r["record"])) and
                        os.path.exists(os.path.join(out, r["log"])), f"files of run {r}")
        vals = doc["values"]
        self.expect([v["value"] for v in vals] == ["throttle=5", "throttle=7"]
                    and [v["runs"] for v in vals] == [2, 2] and [v["failed"] for v in vals] == [0, 0],
                    f"values: {vals}")
        bw = [v["figures"]["bw"] for v in vals]
        self.expect(bw[0] == {"median": 5e9, "min": 5e9, "max": 5e9, "spread": 0, "ratio": 1}
                    and bw[1]["median"] == 7e9 and bw[1]["ratio"] == 1.4, f"bw: {bw}")
        for key in ("wall_seconds", "allocstall", "pgscan_kswapd", "pgscan_direct",
                    "kswapd_cpu_seconds", "kswapd_busiest_cpu_seconds", "direct_reclaim_throttled",
                    "psi_some_seconds", "psi_full_seconds", "pswpin", "pswpout"):
            self.expect(key in vals[0]["figures"] and
                        set(vals[0]["figures"][key]) == {"median", "min", "max", "spread", "ratio"},
                        f"figure {key}: {vals[0]['figures'].get(key)}")
        with open(os.path.join(out, "summary.csv")) as f:
            rows = list(csv.DictReader(f))
        self.expect([r["value"] for r in rows] == ["throttle=5", "throttle=7"]
                    and rows[1]["max_direct_reclaimers"] == "7" and rows[1]["bw_median"] == "7000000000"
                    and rows[1]["bw_ratio"] == "1.400" and rows[0]["runs"] == "2", f"csv: {rows}")
        with open(os.path.join(out, "report.html")) as f:
            html = f.read()
        self.expect('id="sweep"' in html and "throttle=7" in html and 'data-key="bw"' in html
                    and html.count("<svg") >= 4 * 5, "report.html: the sweep table or charts missing")
        # the charts grouped by value: run 1 and 3 (throttle=5) first
        self.expect(html.index("run-001-") < html.index("run-003-") < html.index("run-002-"),
                    "report.html: runs not grouped by value")
        rep = subprocess.run([self.reclaimctl, "report", "--html", os.path.join(self.tmp, "one.html"),
                              os.path.join(out, doc["runs"][0]["record"])],
                             capture_output=True, text=True, env=self.env)
        self.expect(rep.returncode == 0, f"report of a run: {rep.stderr}")
        # --json prints the document
        out2 = os.path.join(self.tmp, "interleaved-json")
        p = subprocess.run([self.reclaimctl, "--sysroot", root, "--json", "sweep", "throttle=5",
                            "-i", "0.1", "--dir", out2, "--", "true"],
                           capture_output=True, text=True, env=self.env, timeout=60)
        self.expect(p.returncode == 0 and json.loads(p.stdout)["values"][0]["runs"] == 1,
                    f"--json: {p.returncode} {p.stdout[:200]} {p.stderr}")

    def test_auto(self):
        """auto is the value set --dry-run gives for auto, in the history of
        the run and in summary.csv, and the label stays as given."""
        root = self.root()
        # a value auto is not, so that each run changes the knob
        with open(os.path.join(root, "proc/sys/vm/max_direct_reclaimers"), "w") as f:
            f.write("9\n")
        plan = subprocess.run([self.reclaimctl, "--sysroot", root, "--json", "set", "--dry-run",
                               "throttle", "auto"],
                              capture_output=True, text=True, env=self.env)
        self.expect(plan.returncode == 0, f"set --dry-run: {plan.returncode} {plan.stderr}")
        want = {e["knob"]: e["new"] for e in json.loads(plan.stdout)["entries"]}
        out = os.path.join(self.tmp, "auto")
        # (kswapd_threads stays as it is: a fixture's threads do not change)
        p = self.sweep(root, "throttle=auto,5", "-i", "0.1", "--dir", out, "--", "true")
        self.expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
        with open(os.path.join(out, "summary.csv")) as f:
            rows = list(csv.DictReader(f))
        self.expect([r["value"] for r in rows] == ["throttle=auto", "throttle=5"]
                    and rows[0]["max_direct_reclaimers"] == str(want["max_direct_reclaimers"])
                    and rows[1]["max_direct_reclaimers"] == "5", f"csv: {rows}, set --dry-run: {want}")
        news = [r["new"] for r in self.history(root) if r["knob"] == "max_direct_reclaimers"]
        self.expect(want["max_direct_reclaimers"] not in (5, 9)
                    and news == [str(want["max_direct_reclaimers"]), "5", "9"], f"history: {news}")
        self.expect(os.path.exists(os.path.join(out, "run-001-throttle=auto.jsonl")),
                    f"files: {sorted(os.listdir(out))}")

    def test_no_interleave(self):
        root = self.root()
        before = self.knob_bytes(root)
        out = os.path.join(self.tmp, "in-a-row")
        p = self.sweep(root, "throttle=5,7", "swap-quota=512", "--repeat", "2", "--no-interleave",
                       "-i", "0.1", "--dir", out, "--", "true")
        self.expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
        doc = self.summary(out)
        order = [r["value"] for r in doc["runs"]]
        self.expect(order == ["throttle=5,swap-quota=512"] * 2 + ["throttle=7,swap-quota=512"] * 2,
                    f"runs: {order}")
        self.expect(doc["ratio_of"] == "wall_seconds" and doc["interleave"] is False,
                    f"summary: {json.dumps(doc)[:300]}")
        self.expect(self.knob_bytes(root) == before, "knobs not back")

    def test_earlier(self):
        """A shorter sweep into the directory of a longer one: only its own
        runs are there after it, and a file of the user's is left alone."""
        root = self.root()
        out = os.path.join(self.tmp, "again")
        p = self.sweep(root, "throttle=5,7", "--repeat", "2", "-i", "0.1", "--dir", out, "--", "true")
        self.expect(p.returncode == 0 and len(os.listdir(out)) == 2 * 4 + 3,
                    f"first sweep: exit {p.returncode} {sorted(os.listdir(out))} {p.stderr}")
        with open(os.path.join(out, "notes.txt"), "w") as f:
            f.write("mine\n")
        os.mkdir(os.path.join(out, "run-009-mine"))
        p = self.sweep(root, "swap-quota=512", "-i", "0.1", "--dir", out, "--", "true")
        self.expect(p.returncode == 0, f"second sweep: exit {p.returncode} {p.stderr}")
        self.expect(sorted(os.listdir(out)) ==
                    ["notes.txt", "report.html", "run-001-swap-quota=512.jsonl",
                     "run-001-swap-quota=512.log", "run-009-mine", "summary.csv", "summary.json"],
                    f"files after the second sweep: {sorted(os.listdir(out))}")
        self.expect([r["value"] for r in self.summary(out)["runs"]] == ["swap-quota=512"],
                    "summary.json of the second sweep")

    def test_failing(self):
        root = self.root()
        before = self.knob_bytes(root)
        out = os.path.join(self.tmp, "failing")
        p = self.sweep(root, "throttle=5,7", "-i", "0.1", "--dir", out, "--", "sh", "-c", "exit 3")
        self.expect(p.returncode == 1 and "run 1 failed" in p.stderr,
                    f"exit {p.returncode}: {p.stderr}")
        self.expect(self.knob_bytes(root) == before, "knobs not back after a failed run")
        doc = self.summary(out)
        self.expect([(r["status"], r["exit_status"]) for r in doc["runs"]] == [("failed", 3)]
                    and doc["complete"] is False and doc["values"][0]["failed"] == 1
                    and doc["values"][0]["figures"]["wall_seconds"]["median"] is None,
                    f"summary: {json.dumps(doc)[:600]}")
        out = os.path.join(self.tmp, "keep-going")
        p = self.sweep(root, "throttle=5,7", "-k", "-i", "0.1", "--dir", out, "--", "sh", "-c", "exit 3")
        doc = self.summary(out)
        self.expect(p.returncode == 1 and [r["status"] for r in doc["runs"]] == ["failed"] * 2,
                    f"--keep-going: exit {p.returncode}: {p.stderr}")
        self.expect(self.knob_bytes(root) == before, "knobs not back after --keep-going")

    def start(self, root, out, *cmd):
        return subprocess.Popen([self.reclaimctl, "--sysroot", root, "sweep", "throttle=5,7",
                                 "--repeat", "2", "-i", "0.1", "--dir", out, "--", *cmd],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=self.env, start_new_session=True)

    def wait_recording(self, out, proc, name="run-001-throttle=5.jsonl"):
        rec = os.path.join(out, name)
        for _ in range(200):
            if os.path.exists(rec) and os.path.getsize(rec) > 0:
                time.sleep(0.3)
                return
            if proc.poll() is not None:
                break
            time.sleep(0.05)
        raise Failed(f"no recording started: {proc.poll()}")

    @contextlib.contextmanager
    def running(self, root, out, *cmd):
        """A sweep (see start) whose first recording has begun; whatever is
        left of its process group is killed at the end."""
        proc = self.start(root, out, *cmd)
        try:
            self.wait_recording(out, proc)
            yield proc
        finally:
            if proc.poll() is None:
                kill_group(proc)

    def test_sigint(self):
        root = self.root()
        before = self.knob_bytes(root)
        out = os.path.join(self.tmp, "sigint")
        with self.running(root, out, "sleep", "30") as proc:
            self.expect(self.knob_bytes(root)["max_direct_reclaimers"] == b"5\n",
                        f"throttle during the run: {self.knob_bytes(root)}")
            os.killpg(proc.pid, signal.SIGINT)
            stdout, stderr = proc.communicate(timeout=30)
        self.expect(proc.returncode == 130 and "interrupted by SIGINT" in stderr,
                    f"exit {proc.returncode}: {stderr}")
        self.expect(self.knob_bytes(root) == before, "knobs not back after SIGINT")
        doc = self.summary(out)
        self.expect(doc["interrupted"] == "INT" and doc["complete"] is False
                    and [r["status"] for r in doc["runs"]] == ["interrupted"],
                    f"summary: {json.dumps(doc)[:400]}")
        self.expect(os.path.exists(os.path.join(out, "report.html")), "no report after SIGINT")
        # SIGTERM to reclaimctl alone (systemctl stop, kill PID): passed on to the command
        out = os.path.join(self.tmp, "sigterm")
        with self.running(root, out, "sleep", "30") as proc:
            proc.terminate()
            stdout, stderr = proc.communicate(timeout=30)
        self.expect(proc.returncode == 143 and "interrupted by SIGTERM" in stderr,
                    f"SIGTERM: exit {proc.returncode}: {stderr}")
        self.expect(self.knob_bytes(root) == before, "knobs not back after SIGTERM")
        doc = self.summary(out)
        self.expect(doc["interrupted"] == "TERM" and doc["runs"][0]["signal"] == signal.SIGTERM,
                    f"SIGTERM summary: {json.dumps(doc)[:400]}")

    def test_pipe(self):
        # | head -n1: the second run line finds no reader; SIGPIPE is ignored,
        # and the failed write ends the sweep like a signal, knobs back
        root = self.root()
        before = self.knob_bytes(root)
        out = os.path.join(self.tmp, "pipe")
        line = " ".join(shlex.quote(a) for a in [
            self.reclaimctl, "--sysroot", root, "sweep", "throttle=5,6,7", "-i", "0.1", "--dir",
            out, "--", "sleep", "0.3"])
        p = subprocess.run(["bash", "-c", line + ' | head -n1; echo "status ${PIPESTATUS[0]}"'],
                           capture_output=True, text=True, env=self.env, timeout=120)
        lines = p.stdout.splitlines()
        err = p.stderr.strip().split("\n")
        self.expect(lines[0].startswith("run 1 of 3: throttle=5: ok") and lines[-1] == "status 1",
                    f"| head -n1: {p.stdout!r} {p.stderr!r}")
        self.expect(err[-1].startswith("reclaimctl: sweep: cannot write to standard output "
                                       "(Broken pipe): stopped after 2 of 3 runs"),
                    f"| head -n1: stderr {p.stderr!r}")
        self.expect(self.knob_bytes(root) == before, "knobs not back after | head -n1")
        self.expect(self.history(root)[-1]["command"] == "restore",
                    f"| head -n1: history {self.history(root)}")

    def test_stubborn(self):
        # a command that ignores INT, TERM and HUP: a second signal, or the
        # grace of 10 s after the first, ends its process group with SIGKILL
        root = self.root()
        before = self.knob_bytes(root)
        for second, name in ((signal.SIGTERM, "second"), (None, "grace")):
            out = os.path.join(self.tmp, "stubborn-" + name)
            pidfile = os.path.join(self.tmp, "stubborn-" + name + ".pid")
            stubborn = f"echo $$ > {pidfile}; trap '' INT TERM HUP; exec sleep 60"
            with self.running(root, out, "sh", "-c", stubborn) as proc:
                start = time.monotonic()
                proc.send_signal(signal.SIGINT)
                if second:
                    time.sleep(0.5)
                    proc.send_signal(second)
                stdout, stderr = proc.communicate(timeout=60)
                took = time.monotonic() - start
            with open(pidfile) as f:
                pid = int(f.read())
            gone = False
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                gone = True
            self.expect(gone, f"{name}: the command (PID {pid}) still runs")
            self.expect(proc.returncode == 130 and "interrupted by SIGINT" in stderr,
                        f"{name}: exit {proc.returncode}: {stderr}")
            limit = (0, 8) if second else (9, 30)
            self.expect(limit[0] <= took <= limit[1], f"{name}: ended after {took:.1f} s")
            self.expect(self.knob_bytes(root) == before, f"{name}: knobs not back")
            doc = self.summary(out)
            self.expect(doc["runs"][0]["signal"] == signal.SIGKILL,
                        f"{name}: summary {json.dumps(doc)[:300]}")

    def test_overlap(self):
        # a second sweep while the first runs: refused, one line naming the
        # first, nothing changed; the first ends with its knobs back
        root = self.root()
        before = self.knob_bytes(root)
        out = os.path.join(self.tmp, "overlap-a")
        with self.running(root, out, "sleep", "2") as proc:
            during = self.knob_bytes(root)
            # its DIR holds an earlier sweep's summary, which a refused sweep leaves
            other = os.path.join(self.tmp, "overlap-b")
            os.makedirs(other)
            with open(os.path.join(other, "summary.json"), "w") as f:
                f.write("{}\n")
            p = self.sweep(root, "throttle=11", "--dir", other, "--", "true")
            self.one_line(p, 1, "a second sweep")
            self.expect(p.stderr == f"reclaimctl: sweep: already running as PID {proc.pid} "
                        "(/run/reclaimctl/sweep)\n", f"second sweep: {p.stderr!r}")
            self.expect(self.knob_bytes(root) == during, "the second sweep changed a knob")
            self.expect(os.path.exists(os.path.join(other, "summary.json")),
                        "the second sweep removed the files of an earlier one in its DIR")
            stdout, stderr = proc.communicate(timeout=120)
        self.expect(proc.returncode == 0, f"first sweep: exit {proc.returncode}: {stderr}")
        self.expect(self.knob_bytes(root) == before, "knobs not back after the first sweep")
        self.expect(not os.path.exists(os.path.join(root, "run/reclaimctl/sweep")),
                    "the first sweep left its state file")

    def test_dead(self):
        # a sweep killed with SIGKILL leaves its knob and state file; the next
        # sweep gives the knob back first, in one line, and takes its own
        # "before" after that
        root = self.root()
        before = self.knob_bytes(root)
        out = os.path.join(self.tmp, "dead")
        with self.running(root, out, "sleep", "30") as proc:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        state = os.path.join(root, "run/reclaimctl/sweep")
        self.expect(os.path.exists(state) and self.knob_bytes(root)["max_direct_reclaimers"]
                    == b"5\n", "after SIGKILL: no state file, or the knob is not at 5")
        p = self.sweep(root, "throttle=9", "--dir", os.path.join(self.tmp, "dead-next"), "--",
                       "true")
        first = p.stderr.split("\n")[0]
        self.expect(p.returncode == 0 and first == (
            f"reclaimctl: sweep: an earlier sweep (PID {proc.pid}) ended without putting its "
            "knobs back; put back vm.max_direct_reclaimers=3"), f"next sweep: {p.stderr!r}")
        self.expect(self.knob_bytes(root) == before and not os.path.exists(state),
                    f"after the next sweep: {self.knob_bytes(root)}")

    def test_sigkill(self):
        root = self.root()
        before = self.knob_bytes(root)
        out = os.path.join(self.tmp, "sigkill")
        proc = subprocess.Popen([self.reclaimctl, "--sysroot", root, "sweep", "throttle=5,7",
                                 "swap-quota=512", "--repeat", "2", "-i", "0.1", "--dir", out,
                                 "--", "sleep", "0.5"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=self.env, start_new_session=True)
        try:
            first = proc.stderr.readline()
            third = os.path.join(out, "run-003-throttle=5,swap-quota=512.jsonl")
            for _ in range(400):
                if os.path.exists(third) or proc.poll() is not None:
                    break
                time.sleep(0.02)
            self.expect(proc.poll() is None, f"the sweep ended before its third run: "
                        f"{proc.returncode}")
            proc.kill()
            proc.wait(timeout=10)
        finally:
            kill_group(proc)
            proc.communicate()
        self.expect(self.knob_bytes(root)["max_direct_reclaimers"] == b"5\n"
                    and self.knob_bytes(root)["swap_round_robin_quota_kb"] == b"512\n",
                    f"the kill left {self.knob_bytes(root)}")
        prefix, _, rest = first.partition("if interrupted, '")
        undo, _, tail = rest.rpartition("'")
        self.expect(prefix and tail.strip() == "puts the knobs back", f"first line: {first!r}")
        args = shlex.split(undo)
        self.expect(args == ["reclaimctl", "--sysroot", root, "restore"], f"undo command: {undo}")
        p = subprocess.run([self.reclaimctl, *args[1:]], capture_output=True, text=True,
                           env=self.env)
        self.expect(p.returncode == 0, f"{undo}: exit {p.returncode}: {p.stderr}")
        self.expect(self.knob_bytes(root) == before,
                    f"after '{undo}': {self.knob_bytes(root)}, before {before}")
        # it says what of the dead sweep's it gave back, and its state file is gone
        pid = proc.pid
        self.expect(sorted(p.stderr.splitlines()) == [
            f"reclaimctl: restore: vm.max_direct_reclaimers is back at 3, where sweep (PID {pid})"
            " had left it at 5 when it died",
            f"reclaimctl: restore: vm.swap_round_robin_quota_kb is back at 2048, where sweep "
            f"(PID {pid}) had left it at 512 when it died"], f"{undo}: stderr {p.stderr!r}")
        self.expect(not os.path.exists(os.path.join(root, "run/reclaimctl/sweep")),
                    f"{undo}: the dead sweep's state file is left")
        # the sweep's one change (a record a knob a run that changed it), then the restore
        recs = self.history(root)
        sweep = [(r["knob"], int(r["old"]), int(r["new"])) for r in recs if r["change"] == "1"]
        self.expect(all(r["source"] == "sweep" for r in recs if r["change"] == "1")
                    and sweep[:3] == [("max_direct_reclaimers", 3, 5),
                                      ("swap_round_robin_quota_kb", 2048, 512),
                                      ("max_direct_reclaimers", 5, 7)]
                    and sweep[3:] == [("max_direct_reclaimers", 7, 5)], f"history: {recs}")
        back = [(r["command"], r["source"], r["undoes"], r["knob"], int(r["new"]))
                for r in recs if r["change"] == "2"]
        self.expect(sorted(back) == [("restore", "change:1", "1", "max_direct_reclaimers", 3),
                                     ("restore", "change:1", "1", "swap_round_robin_quota_kb",
                                      2048)]
                    and len(recs) == len(sweep) + 2, f"history: {recs}")
        hist = subprocess.run([self.reclaimctl, "--sysroot", root, "history"],
                              capture_output=True, text=True, env=self.env)
        self.expect(hist.returncode == 0 and hist.stdout.count(" sweep ") == len(sweep)
                    and hist.stdout.count("undoes 1") == 2, f"history: {hist.stdout}")

    def test_stale(self):
        root = self.root()
        before = self.knob_bytes(root)
        out = os.path.join(self.tmp, "stale")
        # Run 1 lasts until the other change has landed, however slow the
        # machine: a fixed "sleep 1" let run 2 start first on a loaded one.
        mark = os.path.join(self.tmp, "stale-set-done")
        proc = subprocess.Popen([self.reclaimctl, "--sysroot", root, "sweep", "throttle=5,7",
                                 "swap-quota=512,1024", "-i", "0.1", "--dir", out, "--",
                                 "sh", "-c", f"until [ -e '{mark}' ]; do sleep 0.05; done"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=self.env, start_new_session=True)
        try:
            self.wait_recording(out, proc, "run-001-throttle=5,swap-quota=512.jsonl")
            p = subprocess.run([self.reclaimctl, "--sysroot", root, "set", "swap-quota", "4096"],
                               capture_output=True, text=True, env=self.env)
            self.expect(p.returncode == 0, f"set during the sweep: {p.stderr}")
            open(mark, "w").close()
            stdout, stderr = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                kill_group(proc)
        lines = stderr.strip().split("\n")
        self.expect(proc.returncode == 1 and len(lines) == 2, f"exit {proc.returncode}: {stderr}")
        self.expect(lines[1].startswith("reclaimctl: sweep: run 2 of 4: change 1 is no longer the "
                                        "newest change: change 2 (set at ")
                    and lines[1].endswith(") came after it; stopped; put back "
                                          "vm.max_direct_reclaimers=3 (the value before the "
                                          "sweep); left vm.swap_round_robin_quota_kb=4096 as "
                                          "the other change made it"), f"stderr: {stderr!r}")
        after = self.knob_bytes(root)
        self.expect(after["max_direct_reclaimers"] == before["max_direct_reclaimers"]
                    and after["swap_round_robin_quota_kb"] == b"4096\n", f"knobs: {after}")
        recs = self.history(root)
        self.expect([(r["change"], r["source"], r["knob"], r["new"]) for r in recs] ==
                    [("1", "sweep", "max_direct_reclaimers", "5"),
                     ("1", "sweep", "swap_round_robin_quota_kb", "512"),
                     ("2", "value", "swap_round_robin_quota_kb", "4096"),
                     ("3", "sweep:before", "max_direct_reclaimers", "3")], f"history: {recs}")
        doc = self.summary(out)
        self.expect([r["status"] for r in doc["runs"]] == ["ok"] and doc["complete"] is False,
                    f"summary: {json.dumps(doc)[:400]}")

    def test_command_writes(self):
        """A command that writes the swept knob itself: its run is failed, and
        the value from before the sweep is put back, never the boot value
        (3) that a restore would take for a knob changed by another writer."""
        root = self.root()
        knob = os.path.join(root, "proc/sys/vm/max_direct_reclaimers")
        p = subprocess.run([self.reclaimctl, "--sysroot", root, "set", "throttle", "2"],
                           capture_output=True, text=True, env=self.env)
        self.expect(p.returncode == 0, f"set throttle 2: {p.stderr}")
        writes = ["sh", "-c", f"echo 9 > {shlex.quote(knob)}"]
        p = self.sweep(root, "throttle=5,7", "-i", "0.1", "--dir", os.path.join(self.tmp, "cw"),
                       "--", *writes)
        lines = p.stderr.strip().split("\n")
        self.expect(p.returncode == 1 and lines[1:] == [
            "reclaimctl: sweep: run 1 of 2: the command changed vm.max_direct_reclaimers to 9: "
            "stopped",
            "reclaimctl: sweep: vm.max_direct_reclaimers: 9 -> 2 (its value before the sweep; "
            "the command had changed it)"], f"exit {p.returncode}, stderr {p.stderr!r}")
        self.expect(p.stdout.startswith("run 1 of 2: throttle=5: failed (the command changed "
                                        "vm.max_direct_reclaimers to 9)"), f"stdout {p.stdout!r}")
        with open(knob) as f:
            self.expect(f.read() == "2\n", "the value from before the sweep is back")
        recs = self.history(root)
        self.expect([(r["source"], r["old"], r["new"]) for r in recs[1:]] ==
                    [("sweep", "2", "5"), ("sweep:before", "9", "2")], f"history: {recs}")
        # --keep-going, and only the first run writes: the second measures its
        # value, and the restore of the sweep's change puts back 2
        first = ["sh", "-c", f"[ $(cat {shlex.quote(knob)}) = 5 ] && echo 9 > "
                 f"{shlex.quote(knob)}; true"]
        p = self.sweep(root, "--keep-going", "throttle=5,7", "-i", "0.1", "--dir",
                       os.path.join(self.tmp, "cw2"), "--", *first)
        self.expect(p.returncode == 1 and p.stdout.startswith(
            "run 1 of 2: throttle=5: failed (the command changed vm.max_direct_reclaimers to 9)"
            ", 0.") and "\nrun 2 of 2: throttle=7: ok, " in p.stdout
            and p.stderr.strip().split("\n")[1:] ==
            ["reclaimctl: sweep: vm.max_direct_reclaimers: 7 -> 2 (its value before the sweep)"],
            f"--keep-going: exit {p.returncode}, stdout {p.stdout!r}, stderr {p.stderr!r}")
        with open(knob) as f:
            self.expect(f.read() == "2\n", "--keep-going: the value from before the sweep")

    def unchanged(self, root, before, what):
        self.expect(self.knob_bytes(root) == before and self.history(root) == [],
                    f"{what}: something changed")

    def test_usage(self):
        root = self.root()
        before = self.knob_bytes(root)
        out = os.path.join(self.tmp, "usage")
        cases = [
            (["bogus=1,2", "--dir", out, "--", "true"], "unknown knob 'bogus' (known: "),
            (["throttle=5,2000", "--dir", out, "--", "true"], "invalid value '2000'"),
            (["throttle=5", "throttle=6", "--dir", out, "--", "true"], "given twice"),
            (["throttle=5,7", "--", "true"], "needs --dir"),
            (["throttle=5,7", "--dir", out], "needs a command"),
            (["throttle=5,7", "--dir", out, "--"], "needs a command"),
            (["--dir", out, "--", "true"], "expected KNOB=VALUE"),
            (["throttle", "--dir", out, "--", "true"], "expected KNOB=VALUE"),
            (["throttle=5", "--repeat", "0", "--dir", out, "--", "true"], "--repeat"),
            (["throttle=5", "-m", "bad name=x", "--dir", out, "--", "true"], "--metric"),
            (["throttle=5", "-m", "x=(", "--dir", out, "--", "true"], "--metric"),
        ]
        for args, text in cases:
            p = self.sweep(root, *args)
            self.one_line(p, 2, " ".join(args))
            self.expect(text in p.stderr, f"{args}: {p.stderr!r} lacks {text!r}")
            self.unchanged(root, before, " ".join(args))
            self.expect(not os.path.exists(out), f"{args}: {out} created")

    def test_unpatched(self):
        root = self.root("unpatched-6.1")
        before = self.knob_bytes(root)
        out = os.path.join(self.tmp, "unpatched")
        p = self.sweep(root, "swappiness=10,60", "threads=1,2", "--dir", out, "--", "true")
        self.one_line(p, 1, "unpatched")
        self.expect("kswapd_threads" in p.stderr, f"unpatched: {p.stderr!r}")
        self.unchanged(root, before, "unpatched")
        self.expect(not os.path.exists(out), f"{out} created")

    def test_terminal(self):
        root = self.root()
        before = self.knob_bytes(root)
        out = os.path.join(self.tmp, "terminal")
        master, slave = pty.openpty()
        proc = subprocess.Popen([self.reclaimctl, "--sysroot", root, "sweep", "throttle=5,7",
                                 "-i", "0.1", "--dir", out, "--", "sleep", "0.5"],
                                stdout=subprocess.PIPE, stderr=slave, env=self.env)
        os.close(slave)
        text = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            text += chunk
        proc.wait(timeout=60)
        os.close(master)
        self.expect(proc.returncode == 0, f"exit {proc.returncode}: {text!r}")
        self.expect(b"\r\033[Krun 1 of 2: throttle=5, " in text
                    and b"\r\033[Krun 2 of 2: throttle=7, " in text,
                    f"no progress line on a terminal: {text!r}")
        self.expect(self.knob_bytes(root) == before, "knobs not back")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    return checker.run(Checker(os.path.abspath(sys.argv[1]), sys.argv[2]), "sweep")


if __name__ == "__main__":
    sys.exit(main())
