#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""monitor, record and report on a fixture root whose files change between
samples, as the kernel's would.

The test copies tests/fixtures/patched-2node-3threads, runs
`reclaimctl --sysroot COPY monitor -i 1 -c 3 --json` and, each time a line
comes out, rewrites /proc/vmstat, kthreadd's children and a kswapd thread's
stat in the copy (in place: reclaimctl keeps the files open and re-reads
them with pread). Line 1 sees nothing change; line 2 sees known increases;
line 3 sees pgscan_kswapd go backwards (a reset: rate 0, not 2^64), a thread
that came (its CPU counted from 0) and one that went. Then `record` runs a
command while the test changes a knob, and `report` renders the file.
Every time in monitor's, record's and adapt --once's JSON is RFC 3339 in
local time with its offset, and "epoch" the same instant.

usage: check-sampling.py RECLAIMCTL FIXTURES_DIR [OUTPUT_DIR]
OUTPUT_DIR keeps record.jsonl and report.html (for the browser test).
"""
import datetime
import fcntl
import json
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import termios

FIXTURE = "patched-2node-3threads"
STAT = ("{pid} ({name}) S 2 0 0 0 -1 2129984 0 0 0 0 {utime} {stime} 0 0 20 0 1 0 1204 0 0 "
        "18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 3 0 0 0 0 0 0 0 0 0 0 0 0 0\n")
errors = []


def check(cond, what):
    if not cond:
        errors.append(what)
    return cond


def write_in_place(path, text):
    # The same inode, as the kernel's files are to an open fd: one write over
    # the old text, then the length. Truncating first left the file empty
    # for as long as the writer was descheduled, and a sample taken then
    # had no counters (cli.sampling failed so on a loaded machine).
    data = text.encode()
    fd = os.open(path, os.O_WRONLY)
    try:
        os.pwrite(fd, data, 0)
        os.ftruncate(fd, len(data))
    finally:
        os.close(fd)


def set_counters(root, changes):
    path = os.path.join(root, "proc/vmstat")
    lines = []
    with open(path) as f:
        for line in f:
            name, value = line.split()
            if name in changes:
                value = str(changes[name](int(value)))
            lines.append(f"{name} {value}\n")
    write_in_place(path, "".join(lines))


RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d")


def times(objs, key, what, start=None):
    """Each object's @key is RFC 3339 and its "epoch" the same instant; in order, near now."""
    epochs = []
    for o in objs:
        text, epoch = o.get(key), o.get("epoch")
        if not check(isinstance(text, str) and RFC3339.fullmatch(text) is not None and
                     isinstance(epoch, (int, float)) and "timestamp" not in o,
                     f"{what}: {key} {text!r}, epoch {epoch!r}"):
            return
        at = datetime.datetime.fromisoformat(text)
        check(abs(at.timestamp() - epoch) < 1e-6 and at.utcoffset() == datetime.datetime.fromtimestamp(
              epoch).astimezone().utcoffset(), f"{what}: {text} is not epoch {epoch} in local time")
        epochs.append(epoch)
    check(epochs == sorted(epochs), f"{what}: times out of order {epochs}")
    check(all(abs(e - datetime.datetime.now().timestamp()) < 300 for e in epochs),
          f"{what}: times not now: {epochs}")


def near(got, want, interval, what):
    # got is a rate; times the interval it must give back the delta (±1 for rounding)
    check(got is not None and abs(got * interval - want) <= 1.0 + want * 0.01,
          f"{what}: rate {got} over {interval} s is not an increase of {want}")


def monitor(reclaimctl, root):
    hz = os.sysconf("SC_CLK_TCK")
    proc = subprocess.Popen([reclaimctl, "--sysroot", root, "monitor", "-i", "1", "-c", "3",
                             "--json"], stdout=subprocess.PIPE, text=True)
    lines = []
    for line in proc.stdout:
        lines.append(json.loads(line))
        if len(lines) == 1:
            set_counters(root, {"pgscan_kswapd": lambda v: v + 1000,
                                "pgscan_direct": lambda v: v + 200,
                                "allocstall_normal": lambda v: v + 30,
                                "allocstall_dma32": lambda v: v + 2,
                                "direct_reclaim_throttled": lambda v: v + 5,
                                "pswpout": lambda v: v + 64,
                                "workingset_refault_file": lambda v: v + 10})
            # kswapd0 (pid 88) ran for 0.5 s more
            write_in_place(os.path.join(root, "proc/88/stat"),
                           STAT.format(pid=88, name="kswapd0", utime=0, stime=18234 + hz // 2))
        elif len(lines) == 2:
            set_counters(root, {"pgscan_kswapd": lambda v: v - 500000,
                                "pgscan_direct": lambda v: v + 100})
            # kswapd1:2 (1216) went, kswapd1:3 (1300) came with 0.25 s of CPU
            os.makedirs(os.path.join(root, "proc/1300"), exist_ok=True)
            with open(os.path.join(root, "proc/1300/stat"), "w") as f:
                f.write(STAT.format(pid=1300, name="kswapd1:3", utime=0, stime=hz // 4))
            write_in_place(os.path.join(root, "proc/2/task/2/children"),
                           "9 14 79 86 87 88 89 1213 1214 1215 1300 \n")
    rc = proc.wait()
    check(rc == 0, f"monitor exited with {rc}")
    if not check(len(lines) == 3, f"monitor printed {len(lines)} lines, not 3"):
        return
    first, second, third = lines
    times(lines, "time", "monitor --json")
    for key in ("pgscan_kswapd", "pgscan_direct", "allocstall", "direct_reclaim_throttled",
                "pswpout", "workingset_refault"):
        check(first[key] == 0, f"line 1: {key} = {first[key]}, nothing changed")
    iv = second["interval"]
    check(0.5 < iv < 5, f"line 2: interval {iv}")
    near(second["pgscan_kswapd"], 1000, iv, "line 2 pgscan_kswapd")
    near(second["pgscan_direct"], 200, iv, "line 2 pgscan_direct")
    near(second["allocstall"], 32, iv, "line 2 allocstall (normal + dma32)")
    near(second["direct_reclaim_throttled"], 5, iv, "line 2 direct_reclaim_throttled")
    near(second["pswpout"], 64, iv, "line 2 pswpout")
    near(second["workingset_refault"], 10, iv, "line 2 workingset_refault")
    near(second["kswapd_cpu_percent"] / 100, 0.5, iv, "line 2 kswapd CPU")
    check(second["kswapd_busiest"] == "kswapd0", f"line 2 busiest {second['kswapd_busiest']}")
    check(second["kswapd_threads"] == 6, "line 2: 6 threads")
    iv = third["interval"]
    check(third["pgscan_kswapd"] == 0,
          f"line 3: pgscan_kswapd went backwards, rate {third['pgscan_kswapd']} is not 0")
    near(third["pgscan_direct"], 100, iv, "line 3 pgscan_direct")
    check(third["kswapd_threads"] == 6, "line 3: 6 threads (one went, one came)")
    check(third["kswapd_busiest"] == "kswapd1:3", f"line 3 busiest {third['kswapd_busiest']}")
    near(third["kswapd_cpu_percent"] / 100, 0.25, iv, "line 3 kswapd CPU (the new thread)")
    check(third["psi_some_avg10"] == 0.42, "line 3 PSI some avg10")


def adapt(reclaimctl, root):
    p = subprocess.run([reclaimctl, "--sysroot", root, "adapt", "--once", "--dry-run", "-i", "0.1",
                        "--json"], capture_output=True, text=True)
    steps = [json.loads(line) for line in p.stdout.splitlines()]
    if check(p.returncode == 0 and len(steps) == 1, f"adapt --once --json: {p.returncode} {steps}"):
        times(steps, "time", "adapt --json")


def monitor_text(reclaimctl, root):
    args = [reclaimctl, "--sysroot", root, "monitor", "-i", "0.2", "-c", "9", "--per-node"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    lines = out.splitlines()
    headers = [i for i, l in enumerate(lines) if l.lstrip().startswith("node ")]
    # Not on a terminal: one two-line header, then 3 rows a sample (all + 2 nodes).
    check(headers == [1], f"monitor text: header lines at {headers}, want [1] only")
    check(len(lines) == 2 + 9 * 3, f"monitor text: {len(lines)} lines, want 29")
    check(re.match(r"^ +all +\d", lines[2]) is not None, f"monitor text: row {lines[2]!r}")
    check(re.match(r"^ +1 +- +- ", lines[4]) is not None, f"monitor text: node row {lines[4]!r}")
    out = subprocess.run(args + ["-n"], check=True, capture_output=True, text=True).stdout
    check(out.splitlines() == lines[2:], "monitor -n: the same rows without the header")
    # On a terminal of 12 rows: a header every 12 - 3 = 9 data lines, 3 samples each.
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 12, 200, 0, 0))
        os.execv(reclaimctl, args + ["--color=never"])
    data = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    os.waitpid(pid, 0)
    tty_lines = data.decode().replace("\r\n", "\n").splitlines()
    headers = [i for i, l in enumerate(tty_lines) if l.lstrip().startswith("node ")]
    check(headers == [1, 12, 23], f"monitor on a terminal: header lines at {headers}, want "
          "[1, 12, 23]")


def record(reclaimctl, root, out):
    path = os.path.join(out, "record.jsonl")
    proc = subprocess.Popen([reclaimctl, "--sysroot", root, "record", "-i", "0.5", "--file", path,
                             "--", "sh", "-c", "sleep 3.5; exit 3"])
    # a knob change and counters moving while it records
    for step in range(4):
        subprocess.run(["sleep", "0.6"])
        set_counters(root, {"pgscan_kswapd": lambda v: v + 4000 * (step + 1),
                            "pgscan_direct": lambda v: v + 300,
                            "allocstall_normal": lambda v: v + 20,
                            "pswpin": lambda v: v + 50, "pswpout": lambda v: v + 80})
        if step == 1:
            write_in_place(os.path.join(root, "proc/sys/vm/kswapd_threads"), "4\n")
    rc = proc.wait()
    check(rc == 0, f"record exited with {rc}")
    with open(path) as f:
        lines = [json.loads(l) for l in f]
    types = [l["type"] for l in lines]
    check(types[0] == "header" and types[-1] == "end", f"record: lines {types}")
    check(lines[0]["command"] == ["sh", "-c", "sleep 3.5; exit 3"], "record: command")
    check(lines[0]["knobs"]["kswapd_threads"] == 3, "record: knobs in the header")
    check(lines[0]["schema"] == 2, f"record: header schema {lines[0]['schema']}")
    times(lines[:1], "start", "record: header")
    times(lines[1:], "time", "record: a line")
    check(lines[0]["epoch"] == lines[1]["epoch"], "record: the header starts with the first sample")
    samples = [l for l in lines if l["type"] == "sample"]
    check(len(samples) >= 5, f"record: {len(samples)} samples")
    check(samples[0]["interval"] is None and samples[0]["pgscan_kswapd"] is None,
          "record: the first sample has no rates")
    check(all(s["counters"]["pgscan_kswapd"] > 0 for s in samples), "record: raw counters")
    check(any(s["pgscan_kswapd"] for s in samples[1:]), "record: a pgscan_kswapd rate")
    events = [l for l in lines if l["type"] == "event" and l["event"] == "knob"]
    check(len(events) == 1 and events[0]["knob"] == "kswapd_threads" and events[0]["old"] == 3
          and events[0]["new"] == 4, f"record: knob events {events}")
    end = lines[-1]
    check(end["exit_status"] == 3, f"record: exit status {end['exit_status']}")
    check(3.4 < end["wall_seconds"] < 8, f"record: wall time {end['wall_seconds']}")
    check(end["reason"] == "command", f"record: reason {end['reason']}")
    return path


def report(reclaimctl, path, out):
    html_path = os.path.join(out, "report.html")
    subprocess.run([reclaimctl, "report", path, path, "--html", html_path], check=True)
    with open(html_path) as f:
        html = f.read()
    for bad in ("<script", "http:", "https:", " src=", "@import", "url("):
        check(bad not in html, f"report: has '{bad}' (must be self-contained)")
    charts = re.findall(r'<svg class="chart" data-chart="([a-z]+)" data-run="(\d)"', html)
    check(len(charts) == 12, f"report: {len(charts)} charts, want 6 per run")
    points = re.findall(r'data-series="([^"]+)" data-points="(\d+)"', html)
    scan = [int(n) for s, n in points if s == "pgscan_kswapd"]
    check(scan and min(scan) >= 4, f"report: pgscan_kswapd points {scan}")
    check("kswapd_threads 3\u21924" in html, "report: the knob change is marked")
    check('data-key="pgscan_kswapd"' in html, "report: summary row")
    # the totals: 4000 + 8000 + 12000 + 16000 pages scanned by kswapd
    m = re.search(r'<tr data-key="pgscan_kswapd">.*?<td>(\d+)<br>', html)
    check(m and int(m.group(1)) == 40000, f"report: pgscan_kswapd total {m and m.group(1)}")
    bad = subprocess.run([reclaimctl, "report", "/etc/hostname", "--html", "-"], capture_output=True,
                         text=True)
    check(bad.returncode == 1 and "not a line of a reclaimctl record file" in bad.stderr,
          f"report of a non-record file: {bad.returncode} {bad.stderr!r}")


def main():
    reclaimctl, fixtures = sys.argv[1], sys.argv[2]
    out = sys.argv[3] if len(sys.argv) > 3 else None
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "root")
        shutil.copytree(os.path.join(fixtures, FIXTURE), root, symlinks=True)
        monitor(reclaimctl, root)
        monitor_text(reclaimctl, root)
        adapt(reclaimctl, root)
        shutil.rmtree(root)
        shutil.copytree(os.path.join(fixtures, FIXTURE), root, symlinks=True)
        if out:
            os.makedirs(out, exist_ok=True)
        path = record(reclaimctl, root, out or tmp)
        report(reclaimctl, path, out or tmp)
    for e in errors:
        print("FAIL:", e)
    print(f"check-sampling: {len(errors)} failure(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
