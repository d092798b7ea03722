#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-swap-progress.py - what `swap priority` prints while swapoff runs.

Only the live root reaches swapoff(2) (under --sysroot the change is refused
before it), so reclaimctl runs on "/" here, in a mount namespace of its own
(unshare -m) where files of this test are bound over /proc/swaps,
/proc/meminfo and /etc/fstab and a tmpfs over /run (the lock), with
fakeswap.so preloaded: a pretend swapoff(2) that drains the device in steps,
rewriting its Used in the bound /proc/swaps, and a swapon(2) that puts it
back. No real swap device is touched. Checked:

  - on a terminal (a pty): "moving 3.2G back to memory from DEV...", then
    progress lines rewritten in place with \\r ("  546M of 3.2G back in
    memory (16%)", going up), cleared when swapoff returns, then the usual
    lines; swapoff, then swapon with the new priority;
  - into a pipe: the "moving" line, and no progress line;
  - --json (on a terminal): one JSON document, neither;
  - an unchanged priority and --dry-run: neither, and no swapoff;
  - an empty device: no "moving" line (the existing "nothing to take back"
    line says it), swapoff and swapon all the same;
  - swapoff interrupted (EINTR) half-way, on a terminal: the last progress
    line stays (ended by a newline), then the error; exit 1, no swapon.

usage: check-swap-progress.py RECLAIMCTL FAKESWAP_SO
Exit status 77 (skipped) without root or without mount namespaces.
"""
import errno
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile
import tty

HEADER = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
SIZE_KB = 4194304
USED_KB = 3355443  # 3.2G
MEM_TOTAL_KB = 16777216
MEM_AVAILABLE_KB = 12582912
BIND = ('mount --bind "$1" /proc/swaps && mount --bind "$2" /proc/meminfo && '
        'mount --bind "$3" /etc/fstab && mount -t tmpfs tmpfs /run && '
        'LD_PRELOAD="$4" && export LD_PRELOAD && shift 4 && exec "$@"')


def swaps_line(dev, used, prio):
    # as fakeswap.c writes it (LINE)
    return f"{dev:<40}\tfile\t\t{SIZE_KB:12d}\t{used:12d}\t{prio:6d}\n"


class Fake:
    def __init__(self, reclaimctl, so):
        self.reclaimctl, self.so = reclaimctl, so
        self.tmp = tempfile.mkdtemp(prefix="reclaim-swap-progress-")
        self.dev = f"{self.tmp}/swapdev"
        self.swaps, self.log = f"{self.tmp}/swaps", f"{self.tmp}/calls"
        self.meminfo, self.fstab = f"{self.tmp}/meminfo", f"{self.tmp}/fstab"
        open(self.dev, "w").close()
        with open(self.meminfo, "w") as f:
            f.write(f"MemTotal:       {MEM_TOTAL_KB} kB\nMemAvailable:   {MEM_AVAILABLE_KB} kB\n")
        with open(self.fstab, "w") as f:
            f.write(f"{self.dev} none swap sw,pri=10 0 0\n")

    def run(self, args, terminal, used=USED_KB, fail=0):
        """reclaimctl ARGS with stdout a pty (terminal) or a pipe: (stdout, stderr, rc, calls)."""
        with open(self.swaps, "w") as f:
            f.write(HEADER + swaps_line(self.dev, used, 10))
        if os.path.exists(self.log):
            os.unlink(self.log)
        env = dict(os.environ, NO_COLOR="1", FAKESWAP_DEVICE=self.dev, FAKESWAP_FILE=self.swaps,
                   FAKESWAP_LOG=self.log, FAKESWAP_STEPS="6", FAKESWAP_STEP_MS="300",
                   FAKESWAP_FAIL=str(fail),
                   # a sanitizer build: its runtime is not the first library then
                   ASAN_OPTIONS="verify_asan_link_order=0")
        cmd = ["unshare", "-m", "--propagation", "private", "--", "sh", "-ec", BIND, "sh",
               self.swaps, self.meminfo, self.fstab, self.so, self.reclaimctl] + args
        if terminal:
            master, slave = pty.openpty()
            tty.setraw(slave)  # no \n -> \r\n translation: the bytes as written
            p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=slave,
                                 stderr=subprocess.PIPE, env=env)
            os.close(slave)
            out = b""
            while True:
                try:
                    chunk = os.read(master, 4096)
                except OSError as e:
                    if e.errno != errno.EIO:
                        raise
                    break
                if not chunk:
                    break
                out += chunk
            os.close(master)
            err = p.stderr.read()
            p.wait()
        else:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, env=env)
            out, err = p.stdout, p.stderr
        calls = open(self.log).read().splitlines() if os.path.exists(self.log) else []
        return out.decode(), err.decode(), p.returncode, calls


def main():
    reclaimctl, so = sys.argv[1], sys.argv[2]
    if not os.path.isfile(so):
        print(f"FAIL: no {so}")
        return 1
    if os.geteuid() != 0:
        print("skipped: needs root (a mount namespace, and the live root's lock)")
        return 77
    if not shutil.which("unshare") or subprocess.run(
            ["unshare", "-m", "--propagation", "private", "true"],
            capture_output=True).returncode != 0:
        print("skipped: no mount namespaces here (unshare -m failed)")
        return 77
    fake = Fake(reclaimctl, so)
    errors = []

    def check(ok, what, detail=""):
        print(("ok: " if ok else "FAIL: ") + what)
        if not ok:
            errors.append(what)
            if detail:
                print("  " + detail.replace("\n", "\n  "))

    dev = fake.dev
    moving = f"moving 3.2G back to memory from {dev}...\n"
    result = (f"{dev}: priority 10 -> 20\n"
              f"  checked: MemAvailable {MEM_AVAILABLE_KB} KiB > {USED_KB} KiB used + "
              f"{MEM_TOTAL_KB // 32} KiB margin\n"
              "  swapon(2) flags: priority 20, no discard (as in /etc/fstab)\n")
    progress = re.compile(r"\r  ([0-9.]+[KMGT]?) of 3\.2G back in memory \(([0-9]+)%\)( *)")
    try:
        # a terminal: the line, progress in place, cleared, then the result
        out, err, rc, calls = fake.run(["swap", "priority", dev, "20"], terminal=True)
        shown = repr(out)
        check(rc == 0 and err == "", "terminal: exit 0, nothing on stderr", f"{rc} {err}")
        check(out.startswith(moving), "terminal: the 'moving ... back to memory' line first",
              shown)
        body = out[len(moving):] if out.startswith(moving) else out
        pos, percents, width = 0, [], 0
        while m := progress.match(body, pos):
            percents.append(int(m.group(2)))
            width = max(width, len(m.group(0)) - 1)
            pos = m.end()
        check(len(percents) >= 1, f"terminal: progress lines in place ({len(percents)})", shown)
        check(percents == sorted(percents) and all(p < 100 for p in percents),
              f"terminal: the share back in memory goes up, below 100% ({percents})")
        check(body[pos:] == "\r" + " " * width + "\r" + result,
              "terminal: the progress line is cleared, then the usual lines", shown)
        check(calls == [f"swapoff {dev}", f"swapon {dev} 20"],
              "terminal: swapoff, then swapon with priority 20", repr(calls))

        # a pipe: the line, no progress
        out, err, rc, calls = fake.run(["swap", "priority", dev, "20"], terminal=False)
        check(rc == 0 and out == moving + result,
              "pipe: the 'moving' line and the usual lines, no progress", repr(out))
        check(len(calls) == 2, "pipe: swapoff and swapon", repr(calls))

        # --json on a terminal: the document only
        out, err, rc, calls = fake.run(["--json", "swap", "priority", dev, "20"], terminal=True)
        try:
            doc = json.loads(out)
        except ValueError:
            doc = None
        check(rc == 0 and doc is not None and doc["live_changed"] is True
              and "\r" not in out and "moving" not in out,
              "--json: one document, no 'moving' line, no progress", repr(out))

        # nothing is swapped off: no line
        out, err, rc, calls = fake.run(["swap", "priority", dev, "10"], terminal=True)
        check(rc == 0 and out == f"{dev}: priority 10 (unchanged)\n" and calls == [],
              "unchanged priority: no 'moving' line, no swapoff", repr((out, calls)))
        out, err, rc, calls = fake.run(["swap", "priority", "--dry-run", dev, "20"],
                                       terminal=True)
        check(rc == 0 and out.startswith(f"would change {dev}: priority 10 -> 20\n")
              and "moving" not in out and calls == [],
              "--dry-run: no 'moving' line, no swapoff", repr((out, calls)))

        # an empty device: swapped off and on, nothing to announce
        out, err, rc, calls = fake.run(["swap", "priority", dev, "20"], terminal=True, used=0)
        check(rc == 0 and out.startswith(f"{dev}: priority 10 -> 20\n"
                                         "  checked: nothing to take back into memory")
              and "moving" not in out and "\r" not in out and len(calls) == 2,
              "an empty device: no 'moving' line, no progress, swapoff and swapon",
              repr((out, calls)))

        # interrupted half-way: the last reading stays, then the error
        out, err, rc, calls = fake.run(["swap", "priority", dev, "20"], terminal=True,
                                       fail=errno.EINTR)
        body = out[len(moving):] if out.startswith(moving) else out
        pos, n = 0, 0
        while m := progress.match(body, pos):
            pos, n = m.end(), n + 1
        check(rc == 1 and out.startswith(moving) and n >= 1 and body[pos:] == "\n",
              "interrupted: the 'moving' line, progress, ended by a newline", repr(out))
        check(err == f"reclaimctl: cannot swap {dev} off: interrupted by a signal; it is "
              "still on with priority 10\n", "interrupted: the error says it is still on",
              repr(err))
        check(calls == [f"swapoff {dev}"], "interrupted: no swapon", repr(calls))
    finally:
        shutil.rmtree(fake.tmp)
    if errors:
        print(f"{len(errors)} check(s) failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
