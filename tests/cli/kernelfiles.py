# SPDX-License-Identifier: GPL-2.0-or-later
"""The kernel's own files, read by the tests in a few lines each, to hold
reclaimctl's readings against: check-live.py and check-capture.py."""
import os
import re

NODES = "/sys/devices/system/node"


def cpulist(text):
    """"0-3,8" -> [0, 1, 2, 3, 8]"""
    cpus = []
    for part in text.strip().split(","):
        if part:
            a, _, b = part.partition("-")
            cpus += range(int(a), int(b or a) + 1)
    return cpus


def node_cpus(node):
    return cpulist(open(f"{NODES}/node{node}/cpulist").read())


def meminfo_kb(path, key):
    """KEY of a node's meminfo ("Node 0 MemTotal:       12413132 kB"), or None"""
    for line in open(path):
        parts = line.split()
        if len(parts) >= 4 and parts[2] == key + ":":
            return int(parts[3])
    return None


def kswapd_threads():
    """{pid: name} of every kswapd thread, found by walking every process"""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            comm = open(f"/proc/{pid}/comm").read().strip()
        except OSError:
            continue
        if re.fullmatch(r"kswapd\d+(:\d+)?", comm):
            found[int(pid)] = comm
    return found
