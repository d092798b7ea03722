#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/capture-sysroot.sh must copy everything reclaimctl reads: status on
the capture of this machine equals status on the machine itself, apart from
what changes from one moment to the next (free memory, counters, CPU time).
Both sides go through the same parsers, so the captured status is also held
against the kernel's own files, read by kernelfiles.py: each node's CPUs
(cpulist) and MemTotal, and the kswapd threads' pids and names
(/proc/PID/comm).

usage: check-capture.py RECLAIMCTL CAPTURE_SCRIPT
"""
import json
import os
import subprocess
import sys
import tempfile

from kernelfiles import NODES, kswapd_threads, meminfo_kb, node_cpus

VOLATILE_NODE = {"memory_free_kb", "zones", "vmstat"}
VOLATILE_THREAD = {"state", "cpu_seconds", "last_cpu"}


def stable(status):
    for node in status["nodes"]:
        for key in VOLATILE_NODE:
            node.pop(key, None)
        for k in node["kswapd"]:
            for key in VOLATILE_THREAD:
                k.pop(key)
    for key in ("vmstat", "pressure"):
        status[key] = status[key] is not None and sorted(status[key])
    # swap in use and the throttle's wait count move; the rest must match
    status["throttle"].pop("throttled", None)
    for ring in status["swap"]["rings"] or []:
        for key in ("used_kb", "balance"):
            ring.pop(key)
        for dev in ring["devices"]:
            dev.pop("used_kb")
    return status


def independent(captured):
    """What the kernel's files say, against the captured status."""
    errors = []
    for node in captured["nodes"] if os.path.isdir(NODES) else []:
        path = f"{NODES}/node{node['id']}"
        if node["cpus"] != node_cpus(node["id"]):
            errors.append(f"node {node['id']}: cpus {node['cpus']} != {path}/cpulist")
        total = meminfo_kb(f"{path}/meminfo", "MemTotal")
        if node["memory_total_kb"] != total:
            errors.append(f"node {node['id']}: memory_total_kb {node['memory_total_kb']} != {total}")
    threads = kswapd_threads()
    got = {k["pid"]: k["name"] for n in captured["nodes"] for k in n["kswapd"]}
    if got != threads:
        errors.append(f"kswapd threads {got} != {threads} from /proc")
    return errors


def status(reclaimctl, *root):
    out = subprocess.run([reclaimctl, *root, "status", "--json"], check=True,
                         capture_output=True, text=True).stdout
    return stable(json.loads(out))


def main():
    reclaimctl, capture = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        root = f"{tmp}/root"
        subprocess.run([capture, root], check=True, capture_output=True)
        live, captured = status(reclaimctl), status(reclaimctl, "--sysroot", root)
    errors = independent(captured)
    for e in errors:
        print(f"captured status against the kernel's files: {e}", file=sys.stderr)
    if errors:
        print("capture differs from the kernel's own files: FAIL")
        return 1
    if live != captured:
        print("live:    ", json.dumps(live, sort_keys=True), file=sys.stderr)
        print("captured:", json.dumps(captured, sort_keys=True), file=sys.stderr)
        print("capture differs from the live machine: FAIL")
        return 1
    print(f"capture of {len(live['nodes'])} node(s) matches the live machine: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
