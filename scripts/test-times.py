#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Where a test run's time went: per build directory, the time of each ctest
label (the tests' own wall times added up, as CTest's "Label Time Summary"
counts them, and the tests run) and the slowest tests.

Usage: test-times.py [--total SECONDS] [--slowest N] RUN_DIR

RUN_DIR is where one ctest ran the tests of one or more build directories
(its CTestTestfile.cmake includes them with subdirs()) with "--output-junit
junit.xml"; RUN_DIR/selected.json is what "ctest --show-only=json-v1" said
of the same selection before the run (after it, any ctest -N would write
over the run's LastTest.log). The junit file lists the tests that ran in
the order of their numbers, as the JSON does, which gives each one's labels
and working directory, and so its build. Tests run in parallel, so a
label's time can exceed the run's wall time."""

import argparse
import json
import os
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict


def selection(run_dir):
    """[(name, labels, working directory)] of the selected tests, in order."""
    with open(f"{run_dir}/selected.json") as f:
        selected = json.load(f)
    tests = []
    for test in selected.get("tests", []):
        labels, wd = [], ""
        for prop in test.get("properties", []):
            if prop.get("name") == "LABELS":
                labels = list(prop.get("value", []))
            elif prop.get("name") == "WORKING_DIRECTORY":
                wd = prop.get("value", "")
        tests.append((test["name"], labels or ["(none)"], wd))
    return tests


def results(run_dir):
    """[(name, seconds, status)] of the tests the last run ran, in order."""
    root = ET.parse(f"{run_dir}/junit.xml").getroot()
    tests = []
    for case in root.iter("testcase"):
        status = "passed"
        if case.find("failure") is not None:
            status = "failed"
        elif case.find("skipped") is not None or case.get("status") == "notrun":
            status = "skipped"
        tests.append((case.get("name"), float(case.get("time") or 0), status))
    return tests


def builds(run_dir):
    """The build directories RUN_DIR's CTestTestfile.cmake includes."""
    dirs = []
    with open(f"{run_dir}/CTestTestfile.cmake") as f:
        for line in f:
            line = line.strip()
            if line.startswith("subdirs(") and line.endswith(")"):
                dirs.append(os.path.normpath(os.path.join(run_dir, line[8:-1].strip('"'))))
    return dirs


def build_of(wd, dirs):
    for d in dirs:
        if wd == d or wd.startswith(d + "/"):
            return d
    return "(elsewhere)"


def by_build(run_dir):
    """The build directories, and {build directory: [(name, seconds, status,
    labels)]}: the junit entries matched, in order, with the selection's."""
    sel, ran, dirs = selection(run_dir), results(run_dir), builds(run_dir)
    out = defaultdict(list)
    i = 0
    for name, secs, status in ran:
        while i < len(sel) and sel[i][0] != name:
            i += 1
        if i == len(sel):
            raise ValueError(f"{name} ran but is not among the selected tests")
        out[build_of(sel[i][2], dirs)].append((name, secs, status, sel[i][1]))
        i += 1
    return dirs, out


def table(rows, header):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    lines = []
    for r in [header] + rows:
        cells = [str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def report(build_dir, tests, slowest):
    per = defaultdict(lambda: [0, 0.0])
    for _, secs, _, labels in tests:
        for label in labels:
            per[label][0] += 1
            per[label][1] += secs
    rows = [(label, n, f"{secs:.1f}") for label, (n, secs) in sorted(per.items(), key=lambda kv: -kv[1][1])]
    total = sum(t[1] for t in tests)
    print(f"\n== {os.path.basename(build_dir)}: {len(tests)} tests, {total:.0f} s of test time ==")
    print(table(rows, ("label", "tests", "time (s)")))
    top = sorted(tests, key=lambda t: -t[1])[:slowest]
    print(f"\nthe {len(top)} slowest tests:")
    print(table([(name, f"{secs:.1f}", ",".join(labels), status) for name, secs, status, labels in top],
                ("test", "time (s)", "labels", "status")))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--total", type=int, help="the whole run's wall time in seconds")
    ap.add_argument("--slowest", type=int, default=15)
    ap.add_argument("run_dir")
    args = ap.parse_args()
    try:
        dirs, runs = by_build(args.run_dir)
    except (OSError, ValueError, ET.ParseError, json.JSONDecodeError) as e:
        print(f"test-times: {args.run_dir}: no timing ({e})")
        dirs, runs = [], {}
    order = dirs + ["(elsewhere)"]
    for build_dir in sorted(runs, key=order.index):
        report(build_dir, runs[build_dir], args.slowest)
    if args.total is not None:
        print(f"\nscripts/test.sh: {args.total // 60} min {args.total % 60} s in all (builds included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
