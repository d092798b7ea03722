#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Cross-checks `reclaimctl status --json` on a machine dump against hwloc's
own reading of the same dump (lstopo-expected.console): node ids, the CPUs
of every node and its memory must agree.

usage: check-lstopo.py RECLAIMCTL DUMP_DIR
"""
import json
import re
import subprocess
import sys

UNITS = {"KiB": 1, "MiB": 1024, "GiB": 1024**2, "TiB": 1024**3}


def parse_lstopo(path):
    """Returns {node_id: (set of PU ids, (size, unit))} from a console dump."""
    lines = [l.rstrip("\n") for l in open(path) if l.strip()]
    nodes = {}
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)NUMANode L#\d+ \(P#(\d+) local=(\d+)(\w+)", line)
        if not m:
            continue
        indent = len(m.group(1))
        # The node's CPUs are the PUs below its parent object.
        p = i - 1
        while p >= 0 and len(lines[p]) - len(lines[p].lstrip()) >= indent:
            p -= 1
        parent_indent = len(lines[p]) - len(lines[p].lstrip()) if p >= 0 else -1
        pus = set()
        for l in lines[p + 1:]:
            if len(l) - len(l.lstrip()) <= parent_indent:
                break
            pu = re.match(r"^\s*PU L#\d+ \(P#(\d+)\)", l)
            if pu:
                pus.add(int(pu.group(1)))
        nodes[int(m.group(2))] = (pus, (int(m.group(3)), m.group(4)))
    return nodes


def main():
    reclaimctl, dump = sys.argv[1], sys.argv[2]
    out = subprocess.run([reclaimctl, "--sysroot", dump, "status", "--json"],
                         check=True, capture_output=True, text=True).stdout
    status = json.loads(out)
    expected = parse_lstopo(f"{dump}/lstopo-expected.console")
    got = {n["id"]: n for n in status["nodes"]}
    errors = []
    if sorted(got) != sorted(expected):
        errors.append(f"node ids: reclaimctl {sorted(got)}, hwloc {sorted(expected)}")
    for nid, (pus, (size, unit)) in expected.items():
        node = got.get(nid)
        if node is None:
            continue
        if set(node["cpus"]) != pus:
            errors.append(f"node {nid}: cpus {node['cpus']} != hwloc {sorted(pus)}")
        shown = node["memory_total_kb"] / UNITS[unit]
        if abs(shown - size) > 0.5 + 1e-9:
            errors.append(f"node {nid}: memory {node['memory_total_kb']} kB != hwloc {size}{unit}")
        if not node["has_memory"] or not node["online"]:
            errors.append(f"node {nid}: should be online with memory")
    for e in errors:
        print(e, file=sys.stderr)
    print(f"{len(expected)} nodes checked against hwloc: {'FAIL' if errors else 'ok'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
