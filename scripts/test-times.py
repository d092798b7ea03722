#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Where a test run's time went: per build directory, the time of each ctest
label (the tests' own wall times added up, as CTest's "Label Time Summary"
counts them, and the tests run) and the slowest tests.

Usage: test-times.py [--total SECONDS] [--slowest N] BUILD_DIR...

Each BUILD_DIR has a junit.xml from "ctest --output-junit junit.xml"; the
labels come from "ctest --show-only=json-v1". Tests run in parallel, so a
label's time can exceed the run's wall time."""

import argparse
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict


def labels_of(build_dir):
    out = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"],
                         check=True, capture_output=True, text=True).stdout
    labels = {}
    for test in json.loads(out).get("tests", []):
        names = []
        for prop in test.get("properties", []):
            if prop.get("name") == "LABELS":
                names = list(prop.get("value", []))
        labels[test["name"]] = names or ["(none)"]
    return labels


def times_of(build_dir):
    """[(name, seconds, status)] of the tests the last run ran."""
    root = ET.parse(f"{build_dir}/junit.xml").getroot()
    tests = []
    for case in root.iter("testcase"):
        status = "passed"
        if case.find("failure") is not None:
            status = "failed"
        elif case.find("skipped") is not None or case.get("status") == "notrun":
            status = "skipped"
        tests.append((case.get("name"), float(case.get("time") or 0), status))
    return tests, float(root.get("time") or 0)


def table(rows, header):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    lines = []
    for r in [header] + rows:
        cells = [str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def report(build_dir, slowest):
    try:
        tests, wall = times_of(build_dir)
        labels = labels_of(build_dir)
    except (OSError, ET.ParseError, subprocess.CalledProcessError, json.JSONDecodeError) as e:
        print(f"test-times: {build_dir}: no timing ({e})")
        return
    per = defaultdict(lambda: [0, 0.0])
    for name, secs, _ in tests:
        for label in labels.get(name, ["(none)"]):
            per[label][0] += 1
            per[label][1] += secs
    rows = [(label, n, f"{secs:.1f}") for label, (n, secs) in sorted(per.items(), key=lambda kv: -kv[1][1])]
    print(f"\n== {build_dir}: {len(tests)} tests in {wall:.0f} s of wall time ==")
    print(table(rows, ("label", "tests", "time (s)")))
    top = sorted(tests, key=lambda t: -t[1])[:slowest]
    print(f"\nthe {len(top)} slowest tests:")
    print(table([(name, f"{secs:.1f}", ",".join(labels.get(name, [])), status) for name, secs, status in top],
                ("test", "time (s)", "labels", "status")))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--total", type=int, help="the whole run's wall time in seconds")
    ap.add_argument("--slowest", type=int, default=15)
    ap.add_argument("dirs", nargs="*")
    args = ap.parse_args()
    for d in args.dirs:
        report(d, args.slowest)
    if args.total is not None:
        print(f"\nscripts/test.sh: {args.total // 60} min {args.total % 60} s in all (builds included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
