#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the seed corpus of one fuzz target into a directory.

Seeds come from the fixture trees (real machine dumps and the test roots):
every file of the kind the target parses. A target that reads several files
gets them joined by the separator line of fuzz.h, one seed per fixture
root. Files of reclaimctl's own (the history, the persisted values) have no
fixture: their seeds are written here as reclaimctl writes them.

usage: seeds.py TARGET FIXTURES_DIR OUT_DIR
"""
import glob
import hashlib
import os
import struct
import sys

SEP = b"\n--8<--\n"


def files(fixtures, *patterns):
    out = []
    for p in patterns:
        out += sorted(glob.glob(os.path.join(fixtures, p), recursive=True))
    return [f for f in out if os.path.isfile(f)]


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def roots(fixtures):
    return sorted(d for d in glob.glob(os.path.join(fixtures, "*")) if os.path.isdir(d))


def per_root(fixtures, parts):
    """One seed per fixture root that has the first part: the parts joined."""
    seeds = []
    for r in roots(fixtures):
        if not os.path.isfile(os.path.join(r, parts[0])):
            continue
        seeds.append(SEP.join(read(os.path.join(r, p)) for p in parts))
    return seeds


def kswapd_seeds(fixtures):
    seeds = []
    for stat in files(fixtures, "*/proc/[0-9]*/stat"):
        d = os.path.dirname(stat)
        root = d[: d.rindex("/proc/")]
        children = read(os.path.join(root, "proc/2/task/2/children")) or b"100\n"
        seeds.append(b"100 " + children + SEP + read(stat) + SEP +
                     read(os.path.join(d, "status")))
    return seeds


def taskstats_seed(version, nfields):
    """A TASKSTATS_TYPE_AGGR_PID reply as the kernel sends it: pid, then stats."""
    stats = struct.pack("<H", version) + b"\0" * 6 + b"".join(
        struct.pack("<Q", (i + 1) * 1000) for i in range(nfields))

    def attr(kind, payload):
        raw = struct.pack("<HH", 4 + len(payload), kind) + payload
        return raw + b"\0" * ((4 - len(raw) % 4) % 4)

    nested = attr(1, struct.pack("<I", 42)) + attr(3, stats)  # PID, STATS
    body = struct.pack("<BBH", 1, 1, 0) + attr(4, nested)  # genl header, AGGR_PID
    return struct.pack("<IHHII", 16 + len(body), 0x1a, 0, 1, 0) + body


PERSIST_HEADER = (b"# This file is written by reclaimctl(8): knob values made persistent "
                  b"with --persist.\n# systemd-sysctl applies it at boot. Do not edit it; "
                  b"to undo, run:\n#   reclaimctl restore --persist\n")
TMPFILES_HEADER = (b"# This file is written by reclaimctl(8): knob values of sysfs made "
                   b"persistent with --persist.\n# systemd-tmpfiles applies it at boot. Do not "
                   b"edit it; to undo, run:\n#   reclaimctl restore --persist\n")
HISTORY = (b"change=1 time=1796014092.000000000 command=set source=value "
           b"knob=kswapd_threads old=1 new=3\n"
           b"change=2 time=1796014100.500000000 command=restore source=history "
           b"knob=kswapd_threads old=3 new=1 undoes=1\n")
# swap priority changes after them: one done (its /etc/fstab edited), one cut off
HISTORY_SWAP = (b"# intent change=3 records=0\n"
                b"# swap change=3 time=1796014200.000000000 command=swap-priority source=value "
                b"device=/var/swap\\040file old=5 new=7 fstab=none\n"
                b"# done change=3\n"
                b"# intent change=4 records=0\n"
                b"# swap change=4 time=1796014300.000000000 command=restore source=change:3 "
                b"device=/var/swap\\040file old=7 new=5 fstab=7 undoes=3\n")
# a change cut off before its done line, then one done (the intent lines of
# a change recorded before it is written)
HISTORY_INTENT = (b"# intent change=1 records=2\n"
                  b"change=1 time=1796014092.000000000 command=preset source=preset:web "
                  b"knob=kswapd_threads old=1 new=3\n"
                  b"change=1 time=1796014092.000000000 command=preset source=preset:web "
                  b"knob=swappiness old=60 new=10\n"
                  b"# intent change=2 records=1\n"
                  b"change=2 time=1796014100.500000000 command=restore source=change:1 "
                  b"knob=kswapd_threads old=3 new=1 undoes=1\n"
                  b"# done change=2\n")
# The hist files of reclaimctl latency, as Linux 6.12 prints them: the log2
# buckets of a kind, and its tasks (onmax: each entry's "max:" line after it)
LATENCY = [b"# event histogram\n#\n# trigger info: hist:keys=delta.log2:vals=hitcount,delta:"
           b"sort=delta.log2:size=2048 [active]\n#\n\n"
           b"{ delta: ~ 2^0  } hitcount:          2  delta:          1\n"
           b"{ delta: ~ 2^12 } hitcount:          1  delta:       4000\n"
           b"\nTotals:\n    Hits: 3\n    Entries: 2\n    Dropped: 0\n",
           b"# event histogram\n#\n\n"
           b"{ common_pid: memhog          [       231] } hitcount:        113  delta:    3348120\n"
           b"\tmax:     181322  delta:     181322\n"
           b"{ common_pid: kswapd1:2       [        97] } hitcount:          2  delta:        301\n"
           b"\tmax:        200  delta:        200\n"
           b"\nTotals:\n    Hits: 115\n    Entries: 2\n    Dropped: 5\n"]
SYSCTL = [b"vm.swappiness = 10\n-vm.kswapd_threads = 2\nvm.watermark_* = 20\n-vm.swappiness\n",
          b"; comment\nvm/max_direct_reclaimers=3000\nkernel.pid_max = 65536\nvm.kswapd_threads 2\n"]


def seeds(target, fx):
    f = lambda *p: [read(x) for x in files(fx, *p)]  # noqa: E731
    return {
        "cpulist": f("*/sys/devices/system/node/*/cpulist", "*/sys/devices/system/cpu/*",
                     "*/sys/devices/system/node/*/cpumap", "*/sys/devices/system/node/has_*")
        + [b"0-3,8,10-11\n", b"00000100,0000ff00\n"],
        "vmstat": f("*/proc/vmstat", "*/sys/devices/system/node/*/vmstat"),
        "zoneinfo": f("*/proc/zoneinfo"),
        "pressure": f("*/proc/pressure/memory"),
        "meminfo": f("*/proc/meminfo", "*/sys/devices/system/node/*/meminfo"),
        "proc-stat": f("*/proc/[0-9]*/stat"),
        "children": f("*/proc/2/task/2/children"),
        "kswapd": kswapd_seeds(fx),
        "swaps": per_root(fx, ["proc/swaps", "proc/self/mountinfo"]),
        "fstab": f("*/etc/fstab") + [b"/dev/zram0 none swap sw,pri=5 0 0\n"
                                     b"UUID=abcd none swap defaults 0 0\n"],
        "sysctl-line": [line for s in SYSCTL for line in s.splitlines()],
        "sysctl-conf": [SEP.join(SYSCTL + [b"", PERSIST_HEADER + b"vm.kswapd_threads = 4\n"])],
        "tmpfiles": [SEP.join([b"w /sys/module/zswap/parameters/enabled - - - - Y\n"
                               b"w- /sys/kernel/mm/lru_gen/enabled - - - - 0x0007\n",
                               b"w! /sys/module/zswap/parameters/*_percent - - - - 25\n"
                               b"w /sys/module/zswap/parameters/compressor - - - - %v\n",
                               b"BOOT_IMAGE=/vmlinuz zswap.enabled=0 \"zswap.compressor=lz4\" -- x\n",
                               TMPFILES_HEADER + b"w /sys/kernel/mm/numa/demotion_enabled"
                               b" - - - - true\n"])],
        "tuned": [SEP.join([b"admin\n",
                            b"[main]\ninclude=base\n\n[sysctl]\nvm.swappiness = 30  # low\n",
                            read(os.path.join(fx, "tuned-profiles/usr/lib/tuned/virtual-guest/"
                                              "tuned.conf")).replace(b"throughput-performance",
                                                                     b"other"),
                            read(os.path.join(fx, "tuned-profiles/usr/lib/tuned/"
                                              "throughput-performance/tuned.conf")),
                            b"reapply_sysctl = 0\n"]),
                  SEP.join([b"base other\n", b"", b"[variables]\nv=5\n[sysctl]\n"
                            b"vm.min_free_kbytes=>${v}\nreplace=1\n", b"[main]\ninclude=-admin;base\n",
                            b""]),
                  # a value the kernel refuses: a problem of its line, not a refused profile
                  SEP.join([b"base\n", b"", b"[sysctl]\nvm.min_free_kbytes=>6x\n", b"", b""])],
        "persist": [PERSIST_HEADER + b"vm.kswapd_threads = 4\nvm.swappiness = 60\n",
                    PERSIST_HEADER],
        "preset": f("*/etc/reclaimctl/presets/*.preset", "../../presets/*.preset"),
        "history": [HISTORY, b"# trimmed=3\n" + HISTORY, HISTORY_INTENT, HISTORY + HISTORY_SWAP],
        "bootconf": [b"# the web hosts\npreset = web\n", b"preset = off\n", b"\n"],
        "adapt-state": [b"pid=4242\nbaseline=1\nthreads=3\n"],
        "taskstats": [taskstats_seed(14, 40), taskstats_seed(8, 10)],
        "latency": LATENCY,
        "report": f("records/*.jsonl"),
        "replay": f("records/*.jsonl"),
    }[target]


def main():
    target, fixtures, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    found = seeds(target, fixtures)
    if not found:
        sys.exit(f"seeds.py: no seeds for {target} in {fixtures}")
    for s in found:
        with open(os.path.join(out, hashlib.sha1(s).hexdigest()), "wb") as f:
            f.write(s)
    print(f"{len(found)} seeds")


if __name__ == "__main__":
    main()
