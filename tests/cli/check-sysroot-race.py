#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""--sysroot on a tree someone else can write while reclaimctl runs (issue 27).

Each test takes a scratch directory holding a copy of a fixture root and,
beside it, outside/: directories shaped like those of the root (sysctl.d/,
etc/ with an fstab and a sysctl.d/, reclaimctl/) with files of their own.
In the root, links lead there: absolute ones, and relative ones with
enough ".." to climb out. sysroot-race exchanges directories of the root
with those links (renameat2 RENAME_EXCHANGE) in a loop while a writing
command runs ROUNDS times (200; the sanitizer build gives 50):

- set --persist throttle N, which writes etc/sysctl.d/90-reclaimctl.conf,
  the knob under proc/sys/vm, the history and the lock in run/reclaimctl;
  etc/sysctl.d, etc and run/reclaimctl are exchanged;
- swap priority --persist /dev/nvme0n1p3 N, which rewrites etc/fstab and
  takes the lock; etc and run/reclaimctl are exchanged.

A run may fail (what it writes was not there for a moment): that is no
error. But nothing outside the root may change: the names and contents of
every file of the scratch directory but the root are hashed before and
after, and must be the same. Each command runs once with openat2(2) (where
the kernel has it) and once without (sysroot-race no-openat2: the walk
component by component that the library falls back to).

usage: check-sysroot-race.py RECLAIMCTL SYSROOT_RACE FIXTURES_DIR [ROUNDS]
"""
import hashlib
import os
import shutil
import signal
import subprocess
import sys

import checker
from checker import Failed

ROUNDS = 200


def digest(top, skip):
    """{relative path: hash of its kind and content} of everything under top but skip."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if os.path.join(dirpath, d) != skip)
        for name in sorted(dirnames + filenames):
            path = os.path.join(dirpath, name)
            if path == skip:
                continue
            h = hashlib.sha256()
            if os.path.islink(path):
                h.update(b"link:" + os.readlink(path).encode())
            elif os.path.isdir(path):
                h.update(b"dir")
            else:
                with open(path, "rb") as f:
                    h.update(b"file:" + f.read())
            out[os.path.relpath(path, top)] = h.hexdigest()
    return out


class Checker(checker.Checker):
    def __init__(self, reclaimctl, racer, fixtures, rounds):
        super().__init__(reclaimctl, fixtures, "sysroot-race")
        self.racer, self.rounds = racer, rounds

    def scratch(self, fixture):
        """A directory holding root/ (a copy of fixture) and outside/."""
        self.serial += 1
        top = os.path.join(self.tmp, f"t{self.serial}")
        os.makedirs(top)
        root = os.path.join(top, "root")
        shutil.copytree(os.path.join(self.fixtures, fixture), root, symlinks=True)
        outside = os.path.join(top, "outside")
        files = {
            "sysctl.d/keep.conf": "vm.swappiness = 1\n",
            "etc/fstab": "/dev/outside none swap sw,pri=1 0 0\n",
            "etc/sysctl.d/keep.conf": "vm.swappiness = 2\n",
            "reclaimctl/keep": "outside\n",
        }
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(outside, name)), exist_ok=True)
            with open(os.path.join(outside, name), "w") as f:
                f.write(text)
        os.makedirs(os.path.join(root, "etc/sysctl.d"), exist_ok=True)
        os.makedirs(os.path.join(root, "run/reclaimctl"), mode=0o700, exist_ok=True)
        return top, root

    def link(self, root, dirpath, target):
        """A link beside root/dirpath to target; the pair for sysroot-race."""
        d = os.path.join(root, dirpath)
        link = os.path.join(os.path.dirname(d), "." + os.path.basename(d) + "-out")
        os.symlink(target, link)
        return [d, link]

    def race(self, top, root, pairs, args, values, without_openat2):
        """Runs reclaimctl ROUNDS times while pairs are exchanged: (successes, exchanges)."""
        before = digest(top, root)
        racer = subprocess.Popen([self.racer, "exchange", *pairs], stdout=subprocess.PIPE,
                                 text=True)
        ok = escaped = 0
        seen = before
        try:
            self.expect(racer.stdout.readline() == "exchanging\n", "sysroot-race did not start")
            for i in range(self.rounds):
                cmd = [self.reclaimctl, "--sysroot", root, *args, str(values[i % len(values)])]
                if without_openat2:
                    cmd = [self.racer, "no-openat2", *cmd]
                p = subprocess.run(cmd, capture_output=True, text=True, env=self.env,
                                   timeout=60)
                self.expect(p.returncode in (0, 1),
                            f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
                ok += p.returncode == 0
                now = digest(top, root)
                escaped += now != seen
                seen = now
        finally:
            racer.send_signal(signal.SIGTERM)
            out = racer.communicate(timeout=30)[0]
        self.expect(racer.returncode == 0, f"sysroot-race exited with {racer.returncode}")
        after = digest(top, root)
        changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        self.expect(not changed, f"{' '.join(args)}: outside the root, changed: "
                    f"{', '.join(changed)} ({escaped} of {self.rounds} runs wrote there, "
                    f"{ok} succeeded)")
        self.expect(ok > 0, f"{' '.join(args)}: no run succeeded")
        print(f"  {' '.join(args)}{' (no openat2)' if without_openat2 else ''}: "
              f"{ok}/{self.rounds} runs succeeded, {out.split()[0]} exchanges, "
              f"nothing outside changed")
        return ok

    def set_persist(self, without_openat2):
        top, root = self.scratch("patched-2node-3threads")
        outside = os.path.join(top, "outside")
        pairs = (self.link(root, "etc/sysctl.d", os.path.join(outside, "sysctl.d")) +
                 self.link(root, "etc", "../outside/etc") +
                 self.link(root, "run/reclaimctl", os.path.join(outside, "reclaimctl")))
        self.race(top, root, pairs, ["set", "--persist", "throttle"], range(1, 9),
                  without_openat2)

    def swap_persist(self, without_openat2):
        top, root = self.scratch("swap-mixed")
        outside = os.path.join(top, "outside")
        pairs = (self.link(root, "etc", os.path.join(outside, "etc")) +
                 self.link(root, "run/reclaimctl", "../../outside/reclaimctl"))
        self.race(top, root, pairs, ["swap", "priority", "--persist", "/dev/nvme0n1p3"],
                  range(1, 10), without_openat2)

    def test_no_openat2_filter(self):
        """sysroot-race no-openat2 makes openat2(2) fail with ENOSYS."""
        code = ("import ctypes; libc = ctypes.CDLL(None, use_errno=True); "
                "libc.syscall(437, -100, b'.', None, 0); print(ctypes.get_errno())")
        p = subprocess.run([self.racer, "no-openat2", sys.executable, "-c", code],
                           capture_output=True, text=True, timeout=60)
        self.expect(p.stdout.strip() == "38", f"no-openat2: errno {p.stdout.strip()}, "
                    f"not ENOSYS: {p.stderr.strip()}")

    def test_set_persist(self):
        self.set_persist(False)

    def test_set_persist_no_openat2(self):
        self.set_persist(True)

    def test_swap_persist(self):
        self.swap_persist(False)

    def test_swap_persist_no_openat2(self):
        self.swap_persist(True)


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__.strip().splitlines()[-1])
    rounds = int(sys.argv[4]) if len(sys.argv) == 5 else ROUNDS
    sys.exit(checker.run(Checker(sys.argv[1], sys.argv[2], sys.argv[3], rounds),
                         "sysroot race"))
