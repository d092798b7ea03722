#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Files that are not what they should be, for every command that reads them.

Each file reclaimctl reads (a knob, /proc/vmstat, /proc/swaps, the boot
configuration, the history, the persisted values, adapt's state, a
recording) is replaced, on a fresh copy of the patched fixture root, by
- a FIFO (with no writer: a plain read would wait for ever),
- a directory,
- a file larger than any such file can be (17 MiB, sparse),
and each command that reads it is run. Every run must end (a hang is a
failure after 30 s), exit with status 1, print exactly one line on standard
error that names the file, and leave every other file of the root as it
was (hashed before and after; the writers' lock file may be created).

Control characters, in an argument or in a file (a newline in a value, an
escape sequence in reclaimctl.conf or a preset), come out as \ooo: the
error is still one line and carries no raw control character.

usage: check-badfiles.py RECLAIMCTL FIXTURES_DIR PRESET_DIR
"""
import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile

FIXTURE = "patched-2node-3threads"
HISTORY_LINE = ("change=1 time=1796014092.000000000 command=set source=value "
                "knob=kswapd_threads old=3 new=3\n")

# (file under the root, how messages name it, the commands that read it)
CASES = [
    ("proc/sys/vm/kswapd_threads", "/proc/sys/vm/kswapd_threads",
     [["get", "threads"], ["set", "threads", "2"]]),
    ("proc/vmstat", "/proc/vmstat", [["status"], ["monitor", "-c", "1", "-i", "0.1"]]),
    ("proc/swaps", "/proc/swaps", [["swap"]]),
    ("etc/reclaimctl/reclaimctl.conf", "/etc/reclaimctl/reclaimctl.conf",
     [["boot", "--dry-run"]]),
    ("run/reclaimctl/history", "/run/reclaimctl/history",
     [["history"], ["restore"], ["set", "threads", "2"]]),
    ("etc/sysctl.d/90-reclaimctl.conf", "/etc/sysctl.d/90-reclaimctl.conf",
     [["set", "--persist", "threads", "2"]]),
    ("run/reclaimctl/adapt", "/run/reclaimctl/adapt", [["adapt", "--reset"]]),
]
# Recordings are files named on the command line, not under the root.
RECORDING_COMMANDS = [["adapt", "--replay", "{file}"], ["report", "{file}", "-o", "{out}"]]
KINDS = ["fifo", "directory", "huge"]


class Checker:
    def __init__(self, reclaimctl, fixtures, presets):
        self.reclaimctl, self.fixtures = reclaimctl, fixtures
        self.env = dict(os.environ, RECLAIMCTL_PRESET_DIR=presets, NO_COLOR="1", LC_ALL="C")
        self.tmp = tempfile.mkdtemp(prefix="check-badfiles.")
        self.serial = 0
        self.failures = []
        self.checks = 0

    def root(self):
        self.serial += 1
        dst = os.path.join(self.tmp, f"r{self.serial}")
        shutil.copytree(os.path.join(self.fixtures, FIXTURE), dst, symlinks=True)
        # the files that a fresh root lacks: a history with one record, a conf
        os.makedirs(os.path.join(dst, "run/reclaimctl"), mode=0o700, exist_ok=True)
        with open(os.path.join(dst, "run/reclaimctl/history"), "w") as f:
            f.write(HISTORY_LINE)
        os.makedirs(os.path.join(dst, "etc/reclaimctl"), exist_ok=True)
        with open(os.path.join(dst, "etc/reclaimctl/reclaimctl.conf"), "w") as f:
            f.write("preset = balanced\n")
        return dst

    @staticmethod
    def plant(path, kind):
        if os.path.lexists(path):
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if kind == "fifo":
            os.mkfifo(path, 0o644)
        elif kind == "directory":
            os.mkdir(path, 0o755)
        else:
            with open(path, "wb") as f:
                f.truncate(17 << 20)
        if path.endswith("run/reclaimctl/adapt") or path.endswith("run/reclaimctl/history"):
            os.chmod(path, 0o600 if kind != "directory" else 0o700)

    @staticmethod
    def snapshot(root, skip):
        """Every entry of the root but @skip: its type and, for a file, its hash."""
        seen = {}
        for d, dirs, files in os.walk(root):
            for name in dirs + files:
                p = os.path.join(d, name)
                if p == skip or p.startswith(skip + "/"):
                    continue
                st = os.lstat(p)
                if stat.S_ISREG(st.st_mode):
                    with open(p, "rb") as f:
                        seen[p] = ("file", hashlib.sha256(f.read()).hexdigest())
                elif stat.S_ISLNK(st.st_mode):
                    seen[p] = ("link", os.readlink(p))
                elif stat.S_ISDIR(st.st_mode):
                    seen[p] = ("dir", "")
                else:
                    seen[p] = ("other", stat.S_IFMT(st.st_mode))
        return seen

    def run_one(self, label, argv, shown, before_root, skip):
        self.checks += 1
        before = self.snapshot(before_root, skip) if before_root else None
        try:
            p = subprocess.run(argv, env=self.env, capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            self.failures.append(f"{label}: did not end within 30 s (a hang)")
            return
        lines = p.stderr.strip().splitlines()
        problems = []
        if p.returncode != 1:
            problems.append(f"exit {p.returncode}, not 1")
        if len(lines) != 1:
            problems.append(f"{len(lines)} lines on stderr, not 1")
        elif shown not in lines[0]:
            problems.append(f"the message does not name {shown}")
        if before_root:
            after = self.snapshot(before_root, skip)
            # taking the writers' lock may create its (empty) file: that is all
            after.pop(os.path.join(before_root, "run/reclaimctl/lock"), None)
            if after != before:
                diff = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
                problems.append(f"other files changed: {diff}")
        if problems:
            self.failures.append(f"{label}: {'; '.join(problems)}: {p.stderr.strip()!r}")

    def test_under_root(self):
        for rel, shown, commands in CASES:
            for kind in KINDS:
                for cmd in commands:
                    root = self.root()
                    path = os.path.join(root, rel)
                    self.plant(path, kind)
                    argv = [self.reclaimctl, "--sysroot", root] + cmd
                    self.run_one(f"{kind} {rel}: {' '.join(cmd)}", argv, shown, root, path)

    def test_recordings(self):
        for kind in KINDS:
            for cmd in RECORDING_COMMANDS:
                d = os.path.join(self.tmp, f"rec{self.serial}")
                self.serial += 1
                os.makedirs(d)
                path = os.path.join(d, "run.jsonl")
                self.plant(path, kind)
                out = os.path.join(d, "report.html")
                argv = [self.reclaimctl] + [a.format(file=path, out=out) for a in cmd]
                self.run_one(f"{kind} recording: {cmd[0]}", argv, path, d, path)
                if os.path.exists(out):
                    self.failures.append(f"{kind} recording: {cmd[0]}: wrote {out}")


    def control_case(self, label, root, args, code, escaped):
        self.checks += 1
        p = subprocess.run([self.reclaimctl, "--sysroot", root] + args, env=self.env,
                           capture_output=True, text=True, timeout=30)
        lines = p.stderr.rstrip("\n").split("\n")
        raw = [c for c in p.stderr.rstrip("\n") if ord(c) < 0x20 and c != "\n" or ord(c) == 0x7f]
        problems = []
        if p.returncode != code:
            problems.append(f"exit {p.returncode}, not {code}")
        if len(lines) != 1 or raw:
            problems.append(f"{len(lines)} lines, raw control characters {raw!r}")
        if escaped not in p.stderr:
            problems.append(f"no {escaped!r} in the message")
        if problems:
            self.failures.append(f"control characters: {label}: {'; '.join(problems)}: "
                                 f"{p.stderr!r}")

    def test_control_characters(self):
        root = self.root()
        self.control_case("a newline in a value", root, ["set", "threads", "2\n3"], 2,
                          "'2\\0123'")
        self.control_case("an escape sequence in a value", root,
                          ["set", "threads", "x\x1b[31mred"], 2, "'x\\033[31mred'")
        self.control_case("a newline in a knob name", root, ["set", "thr\neads", "2"], 2,
                          "'thr\\012eads'")
        with open(os.path.join(root, "etc/reclaimctl/reclaimctl.conf"), "w") as f:
            f.write("pre\x1bset = x\n")
        self.control_case("reclaimctl.conf", root, ["boot", "--dry-run"], 1,
                          "'pre\\033set'")
        os.makedirs(os.path.join(root, "etc/reclaimctl/presets"), exist_ok=True)
        with open(os.path.join(root, "etc/reclaimctl/presets/odd.preset"), "w") as f:
            f.write("thr\x1beads = 2\n")
        self.control_case("a preset", root, ["preset", "show", "odd"], 1, "thr\\033eads")


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    c = Checker(os.path.abspath(sys.argv[1]), sys.argv[2], os.path.abspath(sys.argv[3]))
    try:
        c.test_under_root()
        c.test_recordings()
        c.test_control_characters()
    finally:
        shutil.rmtree(c.tmp, ignore_errors=True)
    for f in c.failures:
        print(f"FAIL {f}")
    print(f"{c.checks - len(c.failures)}/{c.checks} bad-file runs passed")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
