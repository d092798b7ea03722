#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Drift on a copy of a fixture root, as a property: after any sequence of
reclaimctl changes (set, restore, restore --boot) and writes of another
writer (the knob's file written directly), chosen at random (seeded),

- verify --json reports as drifted exactly the knobs whose live value
  differs from the new value of reclaimctl's newest record of them in the
  history (the test reads the file itself); its exit status is 1 exactly
  then;
- status --prometheus's reclaim_knob_drifted is 1 for exactly those knobs
  (and 0 for the others verify reports), and check sets its exit bit 128
  exactly then: the four answers agree;
- restore and restore --boot change none of the knobs another writer
  changed since reclaimctl's record, and say so on stderr; with --force
  they may;
- the history stays readable, with an outside entry for each drifted
  value seen;
- after a set, also one to the value another writer left, the knob is not
  drifted (the set is recorded); a set to a value already reclaimctl's
  records nothing.

And, on a root with one drifted knob, that the outside entry is written
only once a command's line is valid: a usage error or --help leaves the
history byte for byte, status appends exactly one entry and a second
status none; status and verify read the history once (strace, where it
runs).

Usage: check-drift.py RECLAIMCTL FIXTURES [SEED [STEPS]]
"""

import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

import checker

PATCHED = "patched-2node-3threads"
HISTORY = "run/reclaimctl/history"
KNOBS = {  # knob: values to choose from, within its range
    "max_direct_reclaimers": [0, 1, 2, 3, 5, 8],
    "swappiness": [0, 10, 30, 60, 100],
    "watermark_scale_factor": [10, 50, 200],
    "zone_reclaim_mode": [0, 1],
}
TIME_BUDGET = 20.0


class Checker(checker.Checker):
    def __init__(self, reclaimctl, fixtures, seed, steps):
        super().__init__(reclaimctl, fixtures, "drift")
        self.seed, self.steps = seed, steps

    def run_cli(self, root, *args):
        return subprocess.run([self.reclaimctl, "--sysroot", root, *args], capture_output=True,
                              text=True, env=self.env, timeout=60)

    @staticmethod
    def live(root, knob):
        with open(os.path.join(root, "proc/sys/vm", knob)) as f:
            return int(f.read())

    @staticmethod
    def foreign_write(root, knob, value):
        with open(os.path.join(root, "proc/sys/vm", knob), "w") as f:
            f.write(f"{value}\n")

    @staticmethod
    def last_records(root):
        """knob: the new value of its newest record, from the history file itself."""
        last = {}
        try:
            with open(os.path.join(root, HISTORY)) as f:
                for line in f:
                    m = re.match(r"change=\d+ time=\S+ command=\S+ source=\S+ knob=(\S+) "
                                 r"old=-?\d+ new=(-?\d+)", line)
                    if m:
                        last[m.group(1)] = int(m.group(2))
        except FileNotFoundError:
            pass
        return last

    def drifted_by_model(self, root):
        return {k for k, v in self.last_records(root).items() if self.live(root, k) != v}

    def check_agree(self, root, step, ctx):
        want = self.drifted_by_model(root)
        v = self.run_cli(root, "verify", "--json")
        self.expect(v.returncode in (0, 1), f"step {step} ({ctx}): verify failed: {v.stderr}")
        doc = json.loads(v.stdout)
        got = {k["knob"] for k in doc["knobs"] if k["state"] == "drifted"}
        self.expect(got == want, f"step {step} ({ctx}): verify says drifted {sorted(got)}, "
                    f"the history and the live values {sorted(want)}")
        self.expect(v.returncode == (1 if want else 0),
                    f"step {step} ({ctx}): verify exit {v.returncode} with drifted {sorted(want)}")
        reported = {k["knob"] for k in doc["knobs"]}
        self.expect(reported == set(self.last_records(root)),
                    f"step {step} ({ctx}): verify reports {sorted(reported)}")
        prom = self.run_cli(root, "status", "--prometheus")
        self.expect(prom.returncode == 0, f"step {step}: status --prometheus: {prom.stderr}")
        metric = dict(re.findall(r'^reclaim_knob_drifted\{knob="([\w-]+)"\} ([01])$', prom.stdout,
                                 re.M))
        self.expect({k for k, x in metric.items() if x == "1"} == want and
                    set(metric) == reported,
                    f"step {step} ({ctx}): reclaim_knob_drifted {metric}, verify {sorted(want)}")
        chk = self.run_cli(root, "check")
        self.expect(chk.returncode in range(0, 256) and bool(chk.returncode & 128) == bool(want),
                    f"step {step} ({ctx}): check exit {chk.returncode}, drifted {sorted(want)}")
        for k in want:
            self.expect(k in chk.stdout, f"step {step} ({ctx}): check does not name {k}")
        return want

    def restore(self, root, step, boot, force):
        before = {k: self.live(root, k) for k in KNOBS}
        foreign = self.drifted_by_model(root)
        args = ["restore"] + (["--boot"] if boot else []) + (["--force"] if force else [])
        r = self.run_cli(root, *args)
        self.expect(r.returncode == 0, f"step {step}: {' '.join(args)}: {r.stderr}")
        if force:
            return
        for k in foreign:
            self.expect(self.live(root, k) == before[k],
                        f"step {step}: {' '.join(args)} changed {k} from {before[k]} to "
                        f"{self.live(root, k)}, another writer's value")
        # a knob of the change undone (or of restore --boot) left alone says so on stderr
        for line in r.stdout.splitlines():
            if "changed since by another writer" in line:
                knob = line.split(":")[0].removeprefix("vm.")
                self.expect(f"vm.{knob} is" in r.stderr,
                            f"step {step}: {' '.join(args)} left vm.{knob} alone silently")

    def test_random_sequences(self):
        rng = random.Random(self.seed)
        root = self.root(PATCHED)
        os.makedirs(os.path.join(root, "run/reclaimctl"), mode=0o700, exist_ok=True)
        start = time.monotonic()
        done = 0
        for step in range(self.steps):
            if time.monotonic() - start > TIME_BUDGET and done >= 40:
                break
            op = rng.choices(["set", "foreign", "restore", "restore-boot", "force"],
                             weights=[5, 4, 2, 1, 1])[0]
            knob = rng.choice(sorted(KNOBS))
            value = rng.choice(KNOBS[knob])
            if op == "set":
                r = self.run_cli(root, "set", knob, str(value))
                self.expect(r.returncode == 0, f"step {step}: set {knob} {value}: {r.stderr}")
                ctx = f"set {knob} {value}"
            elif op == "foreign":
                self.foreign_write(root, knob, value)
                ctx = f"another writer {knob}={value}"
            else:
                self.restore(root, step, op == "restore-boot", op == "force")
                ctx = op
            drifted = self.check_agree(root, step, ctx)
            # a set, also to the value another writer left, makes the knob reclaimctl's
            self.expect(op != "set" or knob not in drifted,
                        f"step {step} ({ctx}): {knob} still drifted after the set")
            done += 1
        # every value seen drifted is in the history, once
        outside = [l for l in open(os.path.join(root, HISTORY)) if l.startswith("# outside ")]
        self.expect(len(outside) == len(set(outside)), "an outside entry was recorded twice")
        h = self.run_cli(root, "history", "--json")
        self.expect(h.returncode == 0, f"history after the sequence: {h.stderr}")
        print(f"# seed {self.seed}: {done} steps in {time.monotonic() - start:.1f} s, "
              f"{len(outside)} outside entries")

    def drifted_root(self):
        """A root where reclaimctl set swappiness 10 and another writer then 30."""
        root = self.root(PATCHED)
        os.makedirs(os.path.join(root, "run/reclaimctl"), mode=0o700, exist_ok=True)
        r = self.run_cli(root, "set", "swappiness", "10")
        self.expect(r.returncode == 0, f"set swappiness 10: {r.stderr}")
        self.foreign_write(root, "swappiness", 30)
        return root

    def test_set_adopts(self):
        """set to the value another writer left: recorded, no longer drift; once only."""
        root = self.drifted_root()
        r = self.run_cli(root, "verify")
        self.expect(r.returncode == 1, f"verify after another writer: exit {r.returncode}")
        r = self.run_cli(root, "set", "--dry-run", "swappiness", "30")
        self.expect(r.returncode == 0 and r.stdout ==
                    "would set vm.swappiness: 30 -> 30 (another writer set it since reclaimctl "
                    "set 10: recorded, verify takes 30 as intended)\n",
                    f"set --dry-run to the other writer's value: {r.returncode} {r.stdout!r}")
        self.expect(self.last_records(root) == {"swappiness": 10}, "--dry-run recorded")
        r = self.run_cli(root, "set", "swappiness", "30")
        self.expect(r.returncode == 0 and r.stdout ==
                    "vm.swappiness: 30 -> 30 (another writer set it since reclaimctl set 10: "
                    "recorded, verify takes 30 as intended)\n",
                    f"set to the other writer's value: {r.returncode} {r.stdout!r} {r.stderr!r}")
        self.expect(self.live(root, "swappiness") == 30, "the value changed")
        self.expect(self.last_records(root) == {"swappiness": 30}, "not recorded as 30")
        self.expect(self.check_agree(root, 0, "set to the other writer's value") == set(),
                    "still drifted after the set")
        before = open(os.path.join(root, HISTORY), "rb").read()
        r = self.run_cli(root, "set", "swappiness", "30")
        self.expect(r.returncode == 0 and r.stdout == "vm.swappiness: 30 (unchanged)\n",
                    f"the same set again: {r.returncode} {r.stdout!r}")
        self.expect(open(os.path.join(root, HISTORY), "rb").read() == before,
                    "the same set again added to the history")

    def history_reads(self, root, *args):
        """How often the command opens the history (strace), or None without strace."""
        if not shutil.which("strace"):
            return None
        log = os.path.join(self.tmp, "strace.log")
        r = subprocess.run(["strace", "-f", "-qq", "-o", log, "-e", "trace=open,openat,openat2",
                            self.reclaimctl, "--sysroot", root, *args], capture_output=True,
                           text=True, env=self.env, timeout=60)
        if r.returncode != 0 and "ptrace" in r.stderr:
            return None
        with open(log) as f:
            return sum(1 for line in f if re.search(r'"(run/reclaimctl/)?history".*O_RDONLY', line))

    def test_note_after_options(self):
        root = self.drifted_root()
        path = os.path.join(root, HISTORY)
        before = open(path, "rb").read()
        for args, rc in [(["status", "--bogus"], 2), (["verify", "--help"], 0),
                         (["verify", "extra"], 2), (["history", "--bogus"], 2),
                         (["get", "nosuchknob"], 2), (["get", "--help"], 0),
                         (["check", "-o", "NOSUCHCOLUMN"], 2), (["set", "swappiness"], 2),
                         (["restore", "--help"], 0), (["status", "nosection"], 2)]:
            r = self.run_cli(root, *args)
            self.expect(r.returncode == rc, f"{' '.join(args)}: exit {r.returncode}, not {rc}")
            self.expect(open(path, "rb").read() == before,
                        f"{' '.join(args)} changed the history of a drifted root")
        r = self.run_cli(root, "status")
        self.expect(r.returncode == 0, f"status: {r.stderr}")
        after = open(path, "rb").read()
        added = after[len(before):].decode().splitlines()
        self.expect(after.startswith(before) and len(added) == 1 and
                    re.fullmatch(r"# outside time=\d+\.\d{9} knob=swappiness expected=10 "
                                 r"value=30", added[0]) is not None,
                    f"status added {added}, not one outside entry")
        for args in (["status"], ["verify"]):
            reads = self.history_reads(root, *args)
            self.expect(reads in (None, 1), f"{args[0]} read the history {reads} times, not once")
            self.expect(open(path, "rb").read() == after,
                        f"{args[0]} after status added to the history")


def main():
    reclaimctl, fixtures = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    steps = int(sys.argv[4]) if len(sys.argv) > 4 else 300
    return checker.run(Checker(reclaimctl, fixtures, seed, steps), "drift")


if __name__ == "__main__":
    sys.exit(main())
