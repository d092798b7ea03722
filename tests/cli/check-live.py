#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks `reclaimctl status` on the machine running the tests against what
the kernel says through other means: node directories, cpulists, the
kswapd threads found by walking every process, /proc/vmstat.

usage: check-live.py RECLAIMCTL
"""
import json
import os
import re
import subprocess
import sys


def cpulist(text):
    cpus = []
    for part in text.strip().split(","):
        if part:
            a, _, b = part.partition("-")
            cpus += range(int(a), int(b or a) + 1)
    return cpus


def run(*args):
    return subprocess.run(list(args), check=True, capture_output=True, text=True).stdout


def main():
    reclaimctl = sys.argv[1]
    errors = []
    text = run(reclaimctl, "--no-color", "status")
    for section in ("Knobs", "kswapd threads", "Reclaim counters", "Memory pressure"):
        if section not in text.splitlines():
            errors.append(f"status: no '{section}' section")
    status = json.loads(run(reclaimctl, "status", "--json"))
    if status["schema"] != 1:
        errors.append("schema is not 1")
    if status["kernel"]["release"] != os.uname().release:
        errors.append(f"release {status['kernel']['release']} != {os.uname().release}")

    base = "/sys/devices/system/node"
    if os.path.isdir(base):
        ids = sorted(int(d[4:]) for d in os.listdir(base) if re.fullmatch(r"node\d+", d))
        for node in status["nodes"]:
            want = cpulist(open(f"{base}/node{node['id']}/cpulist").read())
            if node["cpus"] != want:
                errors.append(f"node {node['id']}: cpus {node['cpus']} != {want}")
    else:
        ids = [0]
    if [n["id"] for n in status["nodes"]] != ids:
        errors.append(f"node ids {[n['id'] for n in status['nodes']]} != {ids}")

    # Every kswapd thread, found the slow way.
    want = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            comm = open(f"/proc/{pid}/comm").read().strip()
        except OSError:
            continue
        if re.fullmatch(r"kswapd\d+(:\d+)?", comm):
            want[int(pid)] = comm
    got = {k["pid"]: k["name"] for n in status["nodes"] for k in n["kswapd"]}
    if got != want:
        errors.append(f"kswapd threads {got} != {want}")
    threads = json.loads(run(reclaimctl, "threads", "--json"))
    if {k["pid"]: k["name"] for k in threads["kswapd"]} != want:
        errors.append("threads --json disagrees with /proc")

    vmstat = dict(l.split() for l in open("/proc/vmstat"))
    for key in ("pgscan_kswapd", "pgscan_direct", "pswpin", "pswpout"):
        if key in vmstat and key not in status["vmstat"]:
            errors.append(f"vmstat lacks {key}")
    for e in errors:
        print(e, file=sys.stderr)
    print(f"live check: {len(status['nodes'])} nodes, {len(want)} kswapd threads: "
          f"{'FAIL' if errors else 'ok'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
