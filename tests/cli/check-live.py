#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks `reclaimctl status` on the machine running the tests against what
the kernel says through other means, read here in a few lines each: node
directories, cpulists, each node's MemTotal and distances, the kswapd threads
found by walking every process, the knobs' files in /proc/sys/vm, and the
counters of /proc/vmstat and of each node's vmstat (each between a reading
before and one after the command: they only grow).

usage: check-live.py RECLAIMCTL
"""
import json
import os
import re
import subprocess
import sys

from kernelfiles import NODES, kswapd_threads, meminfo_kb, node_cpus


# counters of /proc/vmstat and the nodes' vmstat that never go down
COUNTER = re.compile(r"^(pgscan|pgsteal|pgrefill|pgactivate|pgdeactivate|pswp|pgpg|allocstall"
                     r"|pgfault|pgmajfault|workingset_(refault|activate|restore)|kswapd_|pageoutrun"
                     r"|direct_reclaim_throttled|oom_kill|compact_(stall|fail|success))")


def vmstat_now():
    out = {"/proc/vmstat": {}}
    for line in open("/proc/vmstat"):
        k, v = line.split()
        out["/proc/vmstat"][k] = int(v)
    base = NODES
    if os.path.isdir(base):
        for d in os.listdir(base):
            f = f"{base}/{d}/vmstat"
            if re.fullmatch(r"node\d+", d) and os.path.exists(f):
                out[f] = {k: int(v) for k, v in (l.split() for l in open(f))}
    return out


def run(*args):
    return subprocess.run(list(args), check=True, capture_output=True, text=True).stdout


def main():
    reclaimctl = sys.argv[1]
    errors = []
    text = run(reclaimctl, "--no-color", "status")
    for section in ("Knobs", "kswapd threads", "Reclaim counters", "Memory pressure"):
        if section not in text.splitlines():
            errors.append(f"status: no '{section}' section")
    before = vmstat_now()
    status = json.loads(run(reclaimctl, "status", "--json"))
    after = vmstat_now()
    if status["schema"] != 2:
        errors.append("schema is not 2")
    if status["kernel"]["release"] != os.uname().release:
        errors.append(f"release {status['kernel']['release']} != {os.uname().release}")

    base = NODES
    if os.path.isdir(base):
        ids = sorted(int(d[4:]) for d in os.listdir(base) if re.fullmatch(r"node\d+", d))
        for node in status["nodes"]:
            want = node_cpus(node['id'])
            if node["cpus"] != want:
                errors.append(f"node {node['id']}: cpus {node['cpus']} != {want}")
        for node in status["nodes"]:
            path = f"{base}/node{node['id']}"
            want = meminfo_kb(f"{path}/meminfo", "MemTotal")
            if node["memory_total_kb"] != want:
                errors.append(f"node {node['id']}: memory_total_kb {node['memory_total_kb']} != "
                              f"MemTotal {want} of {path}/meminfo")
            want = [int(x) for x in open(f"{path}/distance").read().split()]
            if node["distance"] != want:
                errors.append(f"node {node['id']}: distance {node['distance']} != {want}")
    else:
        ids = [0]
    if [n["id"] for n in status["nodes"]] != ids:
        errors.append(f"node ids {[n['id'] for n in status['nodes']]} != {ids}")

    # Every kswapd thread, found the slow way.
    want = kswapd_threads()
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
    # Event counters only grow: each value must lie between the two readings.
    # (Gauges such as nr_free_pages can move either way: they are left out.)
    compared = 0
    for key, value in status["vmstat"].items():
        lo, hi = before["/proc/vmstat"].get(key), after["/proc/vmstat"].get(key)
        if lo is None or not COUNTER.match(key):
            continue
        compared += 1
        if not lo <= value <= hi:
            errors.append(f"vmstat {key} = {value}, not within {lo}..{hi} read from /proc/vmstat")
    for node in status["nodes"]:
        f = f"/sys/devices/system/node/node{node['id']}/vmstat"
        for key, value in node.get("vmstat", {}).items():
            lo, hi = before.get(f, {}).get(key), after.get(f, {}).get(key)
            if lo is None or not COUNTER.match(key):
                continue
            compared += 1
            if not lo <= value <= hi:
                errors.append(f"node {node['id']} vmstat {key} = {value}, not within {lo}..{hi} of {f}")
    for name, knob in status["knobs"].items():
        if knob and knob["path"] and os.path.exists(knob["path"]) and knob["value"] is not None:
            text = open(knob["path"]).read().split()
            if len(text) == 1 and text[0].lstrip("-").isdigit() and int(text[0]) != knob["value"]:
                errors.append(f"knob {name}: {knob['value']} != {text[0]} in {knob['path']}")
    for e in errors:
        print(e, file=sys.stderr)
    if compared < 4:
        errors.append(f"only {compared} vmstat counters compared with the kernel's files")
    print(f"live check: {len(status['nodes'])} nodes, {len(want)} kswapd threads, "
          f"{compared} counters: "
          f"{'FAIL' if errors else 'ok'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
