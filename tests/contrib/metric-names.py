# SPDX-License-Identifier: GPL-2.0-or-later
"""The metric names of status --prometheus, and the names a query uses.

exported(reclaimctl, fixtures): every family name `status --textfile`
writes on a copy of the patched fixture to which a history (a knob
reclaimctl set, then changed by someone else), sysctl files and a failed
boot unit were added, so that every family of cli/prometheus.c is there.

latency(reclaimctl): the families `latency --prometheus` writes, by the
catalogue of figures (it traces the running kernel, which a fixture cannot
stand in for; the VM's scenario latency checks its output against the
same catalogue): a histogram (NAME_bucket, NAME_sum, NAME_count) for a
percentile, a gauge for the longest.

alongside(man_page): the node_exporter metrics that reclaimctl(8) names
under "node_exporter metrics to use alongside".

used(text): the reclaim_* and node_* names in PromQL text, without the
recording rules' names (level:metric:operation).
"""
import json
import os
import re
import shutil
import subprocess
import tempfile

NAME = re.compile(r"(?<![\w:])((?:reclaim|node)_[A-Za-z0-9_]+)(?![\w:])")


def exported(reclaimctl, fixtures):
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "root")
        shutil.copytree(os.path.join(fixtures, "patched-2node-3threads"), root, symlinks=True)
        os.makedirs(os.path.join(root, "etc/sysctl.d"))
        os.makedirs(os.path.join(root, "etc/reclaimctl"))
        with open(os.path.join(root, "etc/sysctl.d/95-admin.conf"), "w") as f:
            f.write("vm.kswapd_threads = 2\n")
        with open(os.path.join(root, "etc/reclaimctl/reclaimctl.conf"), "w") as f:
            f.write("preset = no-such-preset\n")

        def run(*args, check=True):
            return subprocess.run([reclaimctl, "--sysroot", root, *args], capture_output=True,
                                  text=True, check=check, timeout=60)

        run("set", "throttle", "5")
        with open(os.path.join(root, "proc/sys/vm/max_direct_reclaimers"), "w") as f:
            f.write("7\n")
        run("boot", check=False)  # fails: no such preset
        out = os.path.join(tmp, "out")
        os.mkdir(out)
        run("status", "--textfile", out)
        with open(os.path.join(out, "reclaimctl.prom")) as f:
            return {m.group(1) for m in re.finditer(r"^# TYPE (\S+) ", f.read(), re.M)}


def latency(reclaimctl):
    out = subprocess.run([reclaimctl, "--json", "figures"], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    names = set()
    for f in json.loads(out)["figures"]:
        if f["kind"] != "latency":
            continue
        names.add(f["metric"])
        if "_p99_" in f["key"]:
            names |= {f["metric"] + s for s in ("_bucket", "_sum", "_count")}
    return names


def alongside(man_page):
    with open(man_page) as f:
        text = f.read()
    start = text.index("## node_exporter metrics to use alongside")
    end = text.index("\n#", start + 3)
    # the terms of the list: lines that start with a bold name
    terms = "\n".join(line for line in text[start:end].splitlines() if line.startswith("*node_"))
    return {m.group(1) for m in NAME.finditer(terms) if m.group(1).startswith("node_")}


def used(text):
    return {m.group(1) for m in NAME.finditer(text)}
