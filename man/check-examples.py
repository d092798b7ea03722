#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-examples.py - run the examples of the man pages and compare their output.

Usage: check-examples.py --reclaimctl BIN --srcdir DIR
                         [--cc CC --cflags FLAGS --ldflags FLAGS] PAGE.scd...

Only literal blocks (``` ... ```) marked by a comment line just before them
are checked:

  ; check-example [root=PATH]
      Lines starting with "$ " or "# " are commands, the lines after each one
      its expected output (standard output and error together, tabs expanded).
      A line "..." stands for any number of lines.  With root=PATH (relative
      to --srcdir), commands run against a fresh writable copy of that tree,
      one copy per block: "reclaimctl" becomes "BIN --sysroot COPY".  Commands
      run in --srcdir, through sh; "echo $?" prints the previous exit status.
  ; check-example c-source
      The block is a C program: it is compiled with --cc, --cflags and
      --ldflags, and "./example" in later blocks runs it.

A command needing a program that is not installed (jq) is skipped.  Prints
TAP; exits 1 if an example does not match, 77 if nothing could be checked.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile


def unescape(line):
    """scdoc interprets backslash escapes in literal blocks too."""
    return re.sub(r"\\(.)", r"\1", line)


def blocks(path):
    """Yields (line number, marker, lines) for each marked literal block."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    marker = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("; check-example"):
            marker = line[len("; check-example"):].strip()
        elif line.startswith("```"):
            start = i + 1
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                i += 1
            if marker is not None:
                yield start, marker, [unescape(x) for x in lines[start:i]]
            marker = None
        elif line.strip() and not line.startswith(";"):
            marker = None
        i += 1


def matches(expected, actual):
    """expected may hold "..." lines, each matching any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def commands(lines):
    """Splits a block into (command, expected output lines)."""
    out = []
    for line in lines:
        if line.startswith(("$ ", "# ")):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


class Checker:
    def __init__(self, args, tmp):
        self.args = args
        self.tmp = tmp
        self.example = None
        self.n = 0
        self.failed = 0

    def result(self, ok, what, detail=None):
        self.n += 1
        if ok:
            print(f"ok {self.n} - {what}")
        else:
            self.failed += 1
            print(f"not ok {self.n} - {what}")
            for line in (detail or "").splitlines():
                print(f"#   {line}")

    def compile(self, where, lines):
        src = os.path.join(self.tmp, "example.c")
        with open(src, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        if not self.args.cc:
            self.n += 1
            print(f"ok {self.n} - {where}: compile the example # SKIP no --cc")
            return
        exe = os.path.join(self.tmp, "example")
        cmd = [self.args.cc, *shlex.split(self.args.cflags), src, "-o", exe,
               *shlex.split(self.args.ldflags)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        self.result(p.returncode == 0 and not p.stderr.strip(),
                    f"{where}: the example compiles without warnings",
                    " ".join(cmd) + "\n" + p.stderr)
        if p.returncode == 0:
            self.example = exe

    def run_block(self, where, root, lines):
        sysroot = None
        if root:
            sysroot = os.path.join(self.tmp, f"root{self.n}")
            shutil.copytree(os.path.join(self.args.srcdir, root), sysroot, symlinks=True)
        status = 0
        for cmd, expected in commands(lines):
            what = f"{where}: {cmd}"
            if cmd.strip() == "echo $?":
                actual = [str(status)]
            else:
                words = cmd.split()
                if words[0] == "reclaimctl":
                    prefix = shlex.quote(self.args.reclaimctl)
                    if sysroot and "--sysroot" not in words:
                        prefix += " --sysroot " + shlex.quote(sysroot)
                    cmd = prefix + cmd[len("reclaimctl"):]
                elif words[0] == "./example":
                    if not self.example:
                        self.n += 1
                        print(f"ok {self.n} - {what} # SKIP the example was not built")
                        continue
                    cmd = shlex.quote(self.example) + cmd[len("./example"):]
                else:
                    self.result(False, what, "only reclaimctl, ./example and 'echo $?' can be run")
                    continue
                needs = [w for w in ("jq",) if re.search(rf"\|\s*{w}\b", cmd)]
                missing = [w for w in needs if not shutil.which(w)]
                if missing:
                    self.n += 1
                    print(f"ok {self.n} - {what} # SKIP {', '.join(missing)} not installed")
                    continue
                p = subprocess.run(["sh", "-c", cmd + " 2>&1"], cwd=self.args.srcdir,
                                   stdout=subprocess.PIPE, text=True,
                                   env={**os.environ, "NO_COLOR": "1", "LC_ALL": "C"})
                status = p.returncode
                actual = [x.expandtabs(8).rstrip() for x in p.stdout.rstrip("\n").split("\n")]
                if actual == [""]:
                    actual = []
            want = [x.rstrip() for x in expected]
            while want and not want[-1]:
                want.pop()
            self.result(matches(want, actual), what,
                        "expected:\n" + "\n".join(want) + "\ngot:\n" + "\n".join(actual))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reclaimctl", required=True)
    ap.add_argument("--srcdir", required=True)
    ap.add_argument("--cc")
    ap.add_argument("--cflags", default="")
    ap.add_argument("--ldflags", default="")
    ap.add_argument("pages", nargs="+")
    args = ap.parse_args()
    args.reclaimctl = os.path.abspath(args.reclaimctl)

    with tempfile.TemporaryDirectory() as tmp:
        c = Checker(args, tmp)
        for page in args.pages:
            name = os.path.basename(page)
            found = 0
            for line, marker, lines in blocks(page):
                found += 1
                where = f"{name}:{line}"
                opts = dict(x.split("=", 1) if "=" in x else (x, "") for x in marker.split())
                if "c-source" in opts:
                    c.compile(where, lines)
                else:
                    c.run_block(where, opts.get("root"), lines)
            if not found:
                c.result(False, f"{name} has examples marked '; check-example'")
        print(f"1..{c.n}")
        print(f"# {c.n} checks, {c.failed} failed")
        if c.n == 0:
            return 77
        return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
