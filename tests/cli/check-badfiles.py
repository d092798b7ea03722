#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Files that are not what they should be, for every command that reads them.

Each file reclaimctl reads (a knob, /proc/vmstat, /proc/swaps, the boot
configuration, the history, the persisted values, adapt's state, a
recording) is replaced, on a fresh copy of the patched fixture root, by
- a FIFO (with no writer: a plain read would wait for ever),
- a directory,
- a file larger than any such file can be (17 MiB, sparse),
- binary data (text after a NUL byte),
and each command that reads it is run. Every run must end (a hang is a
failure after 30 s), exit with status 1, print exactly one line on standard
error that names the file, and leave every other file of the root as it
was (hashed before and after; the writers' lock file may be created).

Where a file may be absent or cut short, that is no error by itself (no
history yet; a history's last line torn by a crash), so the expected outcome
is another run's, on another fresh copy:
- truncated (cut in the middle of a line): the same exit status, output and
  files as with the file cut at its last complete line, or as with the
  last line ended with a newline ("3" as "3\\n"), or a refusal as above;
- a link leading out of the root (absolute, or with enough "..") to a valid
  file of the host with other values: the same as with no file at all, or a
  refusal as above, and never the host file's values; in /run/reclaimctl,
  whose files are written back, a refusal.

Bad values on the command line exit with status 2, one line, nothing changed.

Control characters, in an argument or in a file (a newline in a value, an
escape sequence in reclaimctl.conf or a preset), come out as \\ooo: the
error is still one line and carries no raw control character.

usage: check-badfiles.py RECLAIMCTL FIXTURES_DIR PRESET_DIR
"""
import hashlib
import os
import re
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
    ("etc/fstab", "/etc/fstab", [["swap", "priority", "/dev/zram0", "5", "--persist"]]),
    ("etc/reclaimctl/presets/db.preset", "/etc/reclaimctl/presets/db.preset",
     [["preset", "show", "db"], ["preset", "apply", "db", "--dry-run"]]),
    ("proc/zoneinfo", "/proc/zoneinfo", [["status"]]),
    ("proc/pressure/memory", "/proc/pressure/memory",
     [["status"], ["monitor", "-c", "1", "-i", "0.1"]]),
    ("sys/devices/system/node/node1/cpulist", "/sys/devices/system/node/node1/cpulist",
     [["status"], ["autotune", "--dry-run"]]),
]
# Files of CASES a fresh fixture root lacks, as they would be.
VALID = {
    "run/reclaimctl/adapt": "pid=4242\nbaseline=1\nthreads=3\n",
    "etc/fstab": "# swap\n/dev/zram0 none swap defaults 0 0\n/dev/zram1 none swap pri=3 0 0\n",
    "etc/reclaimctl/presets/db.preset": "# databases\nkswapd_threads = 2\nswappiness = 10\n",
}
PERSISTED = ("# This file is written by reclaimctl(8): knob values made persistent with "
             "--persist.\n# systemd-sysctl applies it at boot. Do not edit it; to undo, run:\n"
             "#   reclaimctl restore --persist\nvm.swappiness = 60\nvm.kswapd_threads = 3\n")
# Recordings are files named on the command line, not under the root.
RECORDING_COMMANDS = [["adapt", "--replay", "{file}"], ["report", "{file}", "--html", "{out}"]]
KINDS = ["fifo", "directory", "huge", "binary"]
# What is refused whatever the file: not text at all.
BINARY = b"\x7fELF\x02\x01\x01\x00\x00\x00\x03\x00>\x00\x01\x00\n"
# Kinds whose outcome is another run's (see above).
COMPARED = ["truncated", "link-out", "link-up"]
# Values no command takes: exit 2, one line, nothing changed.
BAD_VALUES = [
    ["set", "threads", ""], ["set", "threads", "abc"], ["set", "threads", "-1"],
    ["set", "threads", "1e3"], ["set", "threads", "0x10"],
    ["set", "threads", "99999999999999999999"], ["set", "threads", "3 4"],
    ["set", "threads", " 2"], ["set", "threads", "2.5"], ["set", "throttle", "100000"],
    ["set", "nosuchknob", "3"], ["swap", "priority", "/dev/zram0", "abc"],
    ["swap", "priority", "/dev/zram0", "40000"], ["monitor", "-i", "abc"],
    ["monitor", "-i", "-1"], ["monitor", "-c", "0"], ["adapt", "--min", "abc"],
    ["adapt", "--once", "--max", "0"], ["preset", "apply", "../x"],
    ["record", "-i", "0", "--file", "/dev/null"],
]


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
        elif kind == "binary":
            with open(path, "wb") as f:
                f.write(BINARY)
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
                        text = f.read()
                    # a change recorded in the history (swap priority too) has the clock's time
                    if p.endswith("/run/reclaimctl/history"):
                        text = re.sub(rb"time=[0-9]+\.[0-9]{9}", b"time=T", text)
                    seen[p] = ("file", hashlib.sha256(text).hexdigest())
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

    def outcome(self, root, cmd, skip):
        """Exit status, output and every file of @root but @skip, after @cmd."""
        p = subprocess.run([self.reclaimctl, "--sysroot", root] + cmd, env=self.env,
                           capture_output=True, text=True, timeout=30)
        files = {os.path.relpath(k, root): v for k, v in self.snapshot(root, skip).items()}
        files.pop("run/reclaimctl/lock", None)
        return p.returncode, p.stdout.replace(root, "ROOT"), p.stderr.replace(root, "ROOT"), files

    def fresh_root(self, rel):
        root = self.root()
        path = os.path.join(root, rel)
        text = PERSISTED if rel == "etc/sysctl.d/90-reclaimctl.conf" else VALID.get(rel)
        if text:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            if rel.startswith("run/"):
                os.chmod(path, 0o600)
        return root

    def plant_compared(self, root, ref, rel, kind):
        """Plants @kind at @rel in @root, and in @ref what its outcome should be."""
        path, refpath = os.path.join(root, rel), os.path.join(ref, rel)
        with open(path, "rb") as f:
            original = f.read()
        if kind == "truncated":
            cut = original[: max(1, len(original) // 2)].rstrip(b"\n")
            for p, text in ((path, cut), (refpath, cut[: cut.rfind(b"\n") + 1])):
                with open(p, "wb") as f:  # the mode stays
                    f.write(text)
            return None
        # A valid file of the host, with other values than the root's.
        self.serial += 1
        host = os.path.join(self.tmp, f"host{self.serial}", os.path.basename(rel))
        os.makedirs(os.path.dirname(host))
        with open(host, "wb") as f:
            f.write(b"7\n" if rel.startswith("proc/sys/") else original)
        os.unlink(path)
        os.symlink(host if kind == "link-out" else "../" * 24 + host.lstrip("/"), path)
        os.unlink(refpath)
        return host

    def test_compared(self):
        for rel, shown, commands in CASES:
            for kind in COMPARED:
                for cmd in commands:
                    self.checks += 1
                    label = f"{kind} {rel}: {' '.join(cmd)}"
                    root, ref = self.fresh_root(rel), self.fresh_root(rel)
                    path = os.path.join(root, rel)
                    host = self.plant_compared(root, ref, rel, kind)
                    host_hash = host and self.snapshot(os.path.dirname(host), "")
                    before = {os.path.relpath(k, root): v
                              for k, v in self.snapshot(root, path).items()}
                    # or as if its last line were whole: "3" for "3\n"
                    w = self.fresh_root(rel) if kind == "truncated" else None
                    if w:
                        with open(path, "rb") as f, open(os.path.join(w, rel), "wb") as g:
                            g.write(f.read() + b"\n")
                    got = self.outcome(root, cmd, path)
                    want = self.outcome(ref, cmd, os.path.join(ref, rel))
                    whole = self.outcome(w, cmd, os.path.join(w, rel)) if w else want
                    lines = got[2].strip().splitlines()
                    refused = (got[0] == 1 and len(lines) == 1 and shown in lines[0]
                               and got[3] == before)
                    # reclaimctl's own files are written back: a link there is refused
                    own = kind != "truncated" and rel.startswith("run/reclaimctl/")
                    if own and not refused:
                        self.failures.append(f"{label}: exit {got[0]} {got[2].strip()!r}: a "
                                             "link in /run/reclaimctl is used, not refused")
                    elif got != want and got != whole and not refused:
                        self.failures.append(
                            f"{label}: exit {got[0]} {got[2].strip()!r}, expected as with "
                            f"{'the file cut at its last line' if kind == 'truncated' else 'no file'}"
                            f": exit {want[0]} {want[2].strip()!r}"
                            f"{'' if got[3] == want[3] else ' (and other files)'}")
                    if host and self.snapshot(os.path.dirname(host), "") != host_hash:
                        self.failures.append(f"{label}: the host's file changed")

    def test_values(self):
        for cmd in BAD_VALUES:
            self.checks += 1
            root = self.root()
            before = self.snapshot(root, "")
            p = subprocess.run([self.reclaimctl, "--sysroot", root] + cmd, env=self.env,
                               capture_output=True, text=True, timeout=30)
            after = self.snapshot(root, "")
            after.pop(os.path.join(root, "run/reclaimctl/lock"), None)
            lines = p.stderr.strip().splitlines()
            if p.returncode != 2 or len(lines) != 1 or after != before or p.stdout:
                self.failures.append(f"value {cmd}: exit {p.returncode}, {len(lines)} lines, "
                                     f"{'files changed' if after != before else 'no change'}: "
                                     f"{p.stderr.strip()!r}")

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
        c.test_compared()
        c.test_values()
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
