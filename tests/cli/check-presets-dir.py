#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The presets a binary finds without RECLAIMCTL_PRESET_DIR.

  check-presets-dir.py RECLAIMCTL FIXTURES

- the binary of the build tree finds the presets of its source tree (a link
  beside it): preset list shows balanced, and check on a fixture finds the
  boot preset (no exit bit of a missing preset);
- no preset at all is a failure said on stderr (exit 1), not "no presets"
  on stdout with exit status 0.
Prints one line per failure; exits 1 if any.
"""
import os
import shutil
import subprocess
import sys
import tempfile

reclaimctl, fixtures = sys.argv[1:3]
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print(f"FAIL: {msg}")


def run(args, **env):
    e = {k: v for k, v in os.environ.items() if k != "RECLAIMCTL_PRESET_DIR"}
    e.update(env, NO_COLOR="1")
    return subprocess.run([reclaimctl, *args], capture_output=True, text=True, env=e)


p = run(["preset", "list", "-n", "-o", "NAME"])
check(p.returncode == 0 and "balanced" in p.stdout.split(),
      f"preset list from the build tree: {p.returncode} {p.stdout!r} {p.stderr!r}")
work = tempfile.mkdtemp()
try:
    root = os.path.join(work, "root")
    shutil.copytree(os.path.join(fixtures, "patched-2node-3threads"), root, symlinks=True)
    with_dir = run(["--sysroot", root, "check"],
                   RECLAIMCTL_PRESET_DIR=os.path.join(os.path.dirname(reclaimctl),
                                                      "reclaimctl-source-presets"))
    without = run(["--sysroot", root, "check"])
    check(without.returncode == with_dir.returncode and without.stdout == with_dir.stdout,
          f"check from the build tree: exit {without.returncode}, with the source presets "
          f"{with_dir.returncode}: {without.stdout!r}")
    empty = os.path.join(work, "empty")
    os.mkdir(empty)
    none = run(["preset", "list"], RECLAIMCTL_PRESET_DIR=empty)
    check(none.returncode == 1 and none.stdout == "" and
          none.stderr.startswith("reclaimctl: no presets in "),
          f"no presets: exit {none.returncode}, {none.stdout!r} {none.stderr!r}")
finally:
    shutil.rmtree(work)
sys.exit(1 if failures else 0)
