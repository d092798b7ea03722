#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""adapt's lease on copies of a fixture root: two adapt daemons started at
once never both run (the check for a running one and the state file's write
are one hold of the lock); the one refused says who runs, the state file
names the one that runs, and after it stops nothing is left behind;
adapt under | head -n1 ends with one line and exit status 1; and a write
to a full device is one line naming that error.

Usage: check-lease.py RECLAIMCTL FIXTURES
"""

import os
import shlex
import signal
import subprocess
import sys
import time

import checker

PATCHED = "patched-2node-3threads"
STATE = "run/reclaimctl/adapt"
ROUNDS = 100


class Checker(checker.Checker):
    def __init__(self, reclaimctl, fixtures):
        super().__init__(reclaimctl, fixtures, "lease")

    def start(self, root):
        return subprocess.Popen([self.reclaimctl, "--sysroot", root, "adapt", "-i", "0.1"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=self.env)

    @staticmethod
    def names_one(root, procs):
        try:
            with open(os.path.join(root, STATE)) as f:
                first = f.readline()
        except FileNotFoundError:
            return False
        return any(first == f"pid={p.pid}\n" for p in procs)

    def test_two_daemons(self):
        root = self.root(PATCHED)
        for n in range(ROUNDS):
            procs = [self.start(root), self.start(root)]
            deadline = time.monotonic() + 10
            # the loser exits at once; the winner has written its state file
            # by then (the check and the write are one hold of the lock)
            while time.monotonic() < deadline and (all(p.poll() is None for p in procs) or
                                                    not self.names_one(root, procs)):
                time.sleep(0.01)
            running = [p for p in procs if p.poll() is None]
            self.expect(len(running) == 1,
                        f"round {n + 1}: {len(running)} adapt daemons run at once")
            loser = next(p for p in procs if p not in running)
            err = loser.stderr.read()
            self.expect(loser.returncode == 1 and
                        f"adapt: already running as PID {running[0].pid} " in err,
                        f"round {n + 1}: the second adapt: {loser.returncode} {err!r}")
            with open(os.path.join(root, STATE)) as f:
                state = f.read()
            self.expect(state.startswith(f"pid={running[0].pid}\n"),
                        f"round {n + 1}: the state file names another: {state!r}")
            running[0].send_signal(signal.SIGTERM)
            running[0].wait(10)
            for p in procs:
                p.stdout.close()
                p.stderr.close()
            self.expect(running[0].returncode == 0 and
                        not os.path.exists(os.path.join(root, STATE)),
                        f"round {n + 1}: after SIGTERM: exit {running[0].returncode}, state "
                        f"file {'left' if os.path.exists(os.path.join(root, STATE)) else 'gone'}")

    def test_pipe(self):
        # | head -n1: SIGPIPE is ignored, the step line that cannot be written
        # ends adapt with one line and exit status 1 (it died of SIGPIPE, 141).
        # A fixture's kswapd threads never follow the knob, so --dry-run steps.
        root = self.root(PATCHED)
        line = " ".join(shlex.quote(a) for a in [
            self.reclaimctl, "--sysroot", root, "adapt", "--dry-run", "-i", "0.1", "--min",
            "1", "--down-window", "0.2", "--cooldown", "0"])
        p = subprocess.run(["bash", "-c", line + ' | head -n1; echo "status ${PIPESTATUS[0]}"'],
                           capture_output=True, text=True, env=self.env, timeout=60)
        self.expect(p.stdout.splitlines()[-1:] == ["status 1"] and p.stderr ==
                    "reclaimctl: adapt: cannot write to standard output (Broken pipe): "
                    "stopping\n", f"| head -n1: {p.stdout!r} {p.stderr!r}")

    def test_full(self):
        # a write that fails with another errno than EPIPE says which
        root = self.root(PATCHED)
        with open("/dev/full", "w") as full:
            p = subprocess.run([self.reclaimctl, "--sysroot", root, "adapt", "--dry-run", "-i",
                                "0.1"], stdout=full, stderr=subprocess.PIPE, text=True,
                               env=self.env, timeout=60)
            self.expect(p.returncode == 1 and p.stderr ==
                        "reclaimctl: adapt: cannot write to standard output (No space left on "
                        "device): stopping\n", f"adapt >/dev/full: {p.returncode} {p.stderr!r}")
            p = subprocess.run([self.reclaimctl, "--sysroot", root, "status"], stdout=full,
                               stderr=subprocess.PIPE, text=True, env=self.env, timeout=60)
            self.expect(p.returncode == 1 and p.stderr ==
                        "reclaimctl: write error on standard output: No space left on device\n",
                        f"status >/dev/full: {p.returncode} {p.stderr!r}")


if __name__ == "__main__":
    sys.exit(checker.run(Checker(os.path.abspath(sys.argv[1]), sys.argv[2]), "lease"))
