#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""-n, -r and -P give scripts the rows and nothing else, in every command.

  check-script-output.py RECLAIMCTL FIXTURES

For every command and section that prints a table, on every fixture root:
  - with -n -r no line is blank and none is a title ("Devices", "Round-robin
    quota: ..."): the rows of -n -r are those of -P, one for one;
  - with -P every line is KEY="value" pairs, and the keys are the columns'
    (as shell names), the same in every line of one table;
  - the line said in place of an empty table ("No active swap devices.")
    goes to standard error, so that standard output is empty.
For the commands that also print lines of their own (autotune's plan,
check's findings), only the titles and blank lines must be gone.
get --sysctl: its lines, put in a file of /etc/sysctl.d, are read back by
check as valid entries of every knob with the values get printed, as
get --json has them.
Prints one line per failure; exits 1 if any.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

reclaimctl, fixtures = sys.argv[1:3]
failures = []
PAIR = re.compile(r'[A-Z_][A-Z0-9_]*="(?:[^"\\]|\\.)*"')

# (args, whole): whole is True where standard output is the table alone
TABLES = [
    (["status", "knobs"], True), (["status", "nodes"], True), (["status", "threads"], True),
    (["status", "rings"], True), (["status", "devices"], True), (["status", "zones"], True),
    (["status", "counters"], True), (["status", "pressure"], True), (["status", "swap"], True),
    (["swap"], True), (["swap", "rings"], True), (["swap", "devices"], True),
    (["threads"], True), (["history"], True), (["figures"], True),
    (["preset", "list"], True), (["preset", "show", "balanced"], True),
    (["autotune"], False), (["check"], False), (["status"], False),
]
TITLES = re.compile(r"^(Round-robin quota:|Rings \(|Devices$|Knobs|Swap priorities|Set in sysctl"
                    r"|Problems$|At boot|NUMA nodes|kswapd threads$|Swap$|Zones|Reclaim counters"
                    r"|Memory pressure|Name: |Origin: |autotune leaves|To apply these"
                    r"|Every device already|No priority proposed)")


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print(f"FAIL: {msg}")


def run(root, args):
    env = dict(os.environ, NO_COLOR="1", TZ="UTC")
    return subprocess.run([reclaimctl, "--sysroot", root, *args], capture_output=True,
                          text=True, env=env)


work = tempfile.mkdtemp()
names = ["patched-2node-3threads", "swap-mixed", "swap-empty", "unpatched-6.1",
         "live-debian12-2cpu", "no-numa", "memory-only-node"]
try:
    for name in names:
        root = os.path.join(work, name)
        shutil.copytree(os.path.join(fixtures, name), root, symlinks=True)
        for args, whole in TABLES:
            what = f"{name}: {' '.join(args)}"
            nr = run(root, args + ["-n", "-r"])
            pairs = run(root, args + ["-P"])
            check(nr.returncode == pairs.returncode,
                  f"{what}: -n -r exits {nr.returncode}, -P {pairs.returncode}")
            if nr.returncode not in (0, 1) or (not whole and nr.returncode != 0):
                continue
            lines = nr.stdout.splitlines()
            check("" not in lines, f"{what} -n -r: a blank line: {nr.stdout!r}")
            for line in lines:
                check(not TITLES.match(line), f"{what} -n -r: a title: {line!r}")
            if not whole:
                for line in pairs.stdout.splitlines():
                    check(line != "" and not TITLES.match(line),
                          f"{what} -P: a title or blank line: {line!r}")
                continue
            plines = pairs.stdout.splitlines()
            check(len(plines) == len(lines),
                  f"{what}: {len(lines)} lines with -n -r, {len(plines)} with -P")
            keys = None
            for line in plines:
                found = PAIR.findall(line)
                check(" ".join(found) == line, f"{what} -P: not KEY=\"value\" pairs: {line!r}")
                these = [p.split("=", 1)[0] for p in found]
                # one key list per table: status swap has two tables
                if keys is not None and these != keys and args[-1] not in ("swap", "status"):
                    check(False, f"{what} -P: keys {these} after {keys}")
                keys = these
            if not nr.stdout:
                check(pairs.stdout == "", f"{what}: -P prints what -n -r does not")
finally:
    shutil.rmtree(work)

# the empty table's line goes to stderr with -n, to stdout without
root = os.path.join(fixtures, "swap-empty")
plain, quiet = run(root, ["swap", "devices"]), run(root, ["swap", "devices", "-n"])
check(plain.stdout == "No active swap devices.\n",
      f"swap devices on swap-empty: {plain.stdout!r}")
check(quiet.stdout == "" and quiet.stderr == "reclaimctl: No active swap devices.\n",
      f"swap devices -n on swap-empty: {quiet.stdout!r} / {quiet.stderr!r}")
# get --sysctl: lines that sysctl.d takes, with get's values
work = tempfile.mkdtemp()
try:
    root = os.path.join(work, "root")
    shutil.copytree(os.path.join(fixtures, "patched-2node-3threads"), root, symlinks=True)
    got = run(root, ["get", "--sysctl"])
    check(got.returncode == 0 and got.stderr == "", f"get --sysctl: {got.stderr!r}")
    values = json.loads(run(root, ["--json", "get"]).stdout)["knobs"]
    os.makedirs(os.path.join(root, "etc/sysctl.d"), exist_ok=True)
    with open(os.path.join(root, "etc/sysctl.d/50-get.conf"), "w") as f:
        f.write(got.stdout)
    entries = json.loads(run(root, ["--json", "check"]).stdout)["entries"]
    read = {e["knob"]: e for e in entries if e["file"] == "/etc/sysctl.d/50-get.conf"}
    check(sorted(read) == sorted(values), f"get --sysctl: check reads {sorted(read)}")
    for knob, e in read.items():
        check(e["valid"] and e["key"] == "vm." + knob and
              e["value"] == str(values[knob]["value"]),
              f"get --sysctl: {knob}: check reads {e}")
finally:
    shutil.rmtree(work)
sys.exit(1 if failures else 0)
